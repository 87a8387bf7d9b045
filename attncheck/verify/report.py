r"""Rendering a :class:`~attncheck.verify.result.VerifyResult`: rich table, JSON, LaTeX, HTML.

JSON schema ``attncheck.verify/2`` (stable: fields are only ever added, and a change
of meaning gets a new version; version 2 added step kinds, the statuses not-checked,
not-read, definition, assumption, condition, and ``read``/``problems``)::

    {
      "schema": "attncheck.verify/2",
      "file": str, "format": "tex" | "md", "encoding": str,
      "ok": bool,                  # no judged step fails
      "complete": bool,            # every claim judged, every block read
      "exit_code": 0 | 1 | 2,      # 1: a step fails; else 2: not complete; else 0
      "skipped_blocks": int,       # display blocks passed over by `attncheck: skip`
      "summary": {"steps": int, "claims": int, "judged": int, "holds": int,
                  "holds-given": int, "needs-undeclared": int, "fails": int,
                  "not-checked": int, "not-read": int, "definition": int,
                  "assumption": int, "condition": int},
      "read": [{"location": Location, "text": str, "hypothesis": str}],
                                   # hypotheses read from the note's words and formulas
      "problems": [{"location": Location, "message": str}],   # what could not be read
      "derivations": [{
        "number": int,             # 1-based, in file order
        "location": Location,      # where the chain's first expression starts
        "title": str,              # from `attncheck: title …` or the section heading
        "model": {"families": [str], "dimension": str, "dependent": [[str, str]]},
        "declared": [str],         # the hypotheses in force, e.g. "E(q_i) = 0", "q ⟂ k"
        "ok": bool,
        "steps": [Step],
        "conclusion": Step         # first expression = last, number 0
      }]
    }
    Location = {"file": str, "line": int, "column": int}      # 1-based
    Step = {
      "number": int, "location": Location,                     # where the right side starts
      "kind": "claim" | "follows" | "inequality" | "definition" | "assumption"
              | "approximation" | "proportion" | "condition",
      "relation": str,             # "=", "≈", "≤", ":=", …
      "lhs": str, "rhs": str,                                  # the project's text printer
      "lhs_source": str, "rhs_source": str,                    # the notes' own LaTeX
      "lhs_latex": str, "rhs_latex": str, "reason": str,       # reason: the note's own words
      "condition": str,            # a case's condition as written ("i = j"), else ""
      "status": "holds" | "holds-given" | "needs-undeclared" | "fails" | "not-checked"
                | "not-read" | "definition" | "assumption" | "condition",
      "judged": bool,              # status is one of the first four
      "ok": bool,                  # status is holds or holds-given
      "note": str,                 # why not checked / not read; what a record is
      "problem_location": Location | null,   # where a not-read side went wrong
      "needs": [[str]],            # minimal hypothesis sets (declared ones first); [] if fails
      "undeclared": [str],         # of the first set, those the notes did not declare
      "residual": str, "residual_latex": str,   # lhs − rhs under the declared hypotheses
      "mean_square": bool,         # residual is E[(lhs − rhs)²] (a side is random)
      "checker": "moments" | "softmax" | "calculus" | "decimals" | "numbers" | "example" | "",
      "evidence": null | Evidence  # null: --symbolic-only, or nothing to sample
    }
    Evidence = {                   # Monte Carlo at a concrete point (numeric.compare)
      "kind": "confirmation" | "counterexample",
      "point": str,                # e.g. "d=16 q~uniform(0, 1²) k~uniform(0, 1²) ρ=0"
      "violated": [str],           # hypotheses the counterexample point violates
      "estimate": float|null, "se": float|null,   # of lhs, or of lhs − rhs
                                   # (softmax steps: design "complex step", estimate and
                                   # reference are lhs and rhs at the worst index pair, se
                                   # the rounding bound, z = |lhs − rhs| / se, critical 1)
      "reference": float|null,     # what the estimate is tested against
      "z": float|null, "critical": float|null,    # |z| ≤ critical: the sides agree
      "agree": bool|null,          # null: the numeric side could not estimate (see note)
      "units": int, "design": str, # samples or blocks; "iid" or "block b×b"
      "alpha": float|null, "power": float|null,
      "min_detectable": float|null,  # relative error caught with probability power
      "consistent": bool|null,     # agree == (status is holds or holds-given)
      "note": str
    }

>>> from attncheck.verify.check import verify_text
>>> r = verify_text("$$ E(q_i + k_i) = E(q_i) + E(k_i) = 0 $$", "m.md", numeric=False)
>>> j = to_json(r)
>>> j["schema"], j["ok"], [s["status"] for s in j["derivations"][0]["steps"]]
('attncheck.verify/2', False, ['holds', 'needs-undeclared'])
>>> j["derivations"][0]["steps"][1]["needs"]
[['E(k_i) = 0', 'E(q_i) = 0']]
"""

from __future__ import annotations

import html
from typing import Any

from rich.table import Table

from attncheck.text import text
from attncheck.verify.result import (
    RENDERERS,
    DerivationResult,
    StepResult,
    StepStatus,
    VerifyResult,
)
from derivations import Hypothesis
from derivations.printing import AttnLatexPrinter

__all__ = ["SCHEMA", "WORDS", "evidence_text", "language", "status_text", "table", "to_html", "to_json"]

SCHEMA = "attncheck.verify/2"


def _hyps(hs: frozenset[Hypothesis] | tuple[Hypothesis, ...]) -> list[str]:
    return sorted(map(str, hs))


def _step_json(s: StepResult, printer: AttnLatexPrinter) -> dict[str, Any]:
    return {
        "number": s.number,
        "location": s.location.as_json(),
        "kind": s.kind,
        "relation": s.relation,
        "lhs": text(s.lhs),
        "rhs": text(s.rhs),
        "lhs_source": s.lhs_source,
        "rhs_source": s.rhs_source,
        "lhs_latex": printer.doprint(s.lhs),
        "rhs_latex": printer.doprint(s.rhs),
        "reason": s.reason,
        "condition": s.condition,
        "status": s.status.value,
        "judged": s.status.judged,
        "ok": s.status.ok,
        "note": s.note,
        "problem_location": s.problem_location.as_json() if s.problem_location else None,
        "needs": [_hyps(n) for n in s.needs],
        "undeclared": _hyps(s.undeclared),
        "residual": text(s.residual),
        "residual_latex": printer.doprint(s.residual),
        "mean_square": s.mean_square,
        "checker": s.checker,
        "evidence": s.evidence.as_json() if s.evidence else None,
    }


def _derivation_json(d: DerivationResult, printer: AttnLatexPrinter) -> dict[str, Any]:
    return {
        "number": d.number,
        "location": d.location.as_json(),
        "title": d.title,
        "model": {
            "families": [f.name for f in d.model.families],
            "dimension": d.model.dim.name,
            "dependent": [list(p) for p in d.model.dependent],
        },
        "declared": [str(h) for h in d.declared],
        "ok": d.holds,
        "steps": [_step_json(s, printer) for s in d.steps],
        "conclusion": _step_json(d.conclusion, printer),
    }


def to_json(r: VerifyResult) -> dict[str, Any]:
    """The result as JSON-ready data in schema ``attncheck.verify/1`` (see the module doc)."""
    printer = AttnLatexPrinter()
    summary: dict[str, int] = {"steps": len(r.steps), "claims": len(r.claims),
                               "judged": len(r.judged)}
    summary.update({st.value: sum(s.status is st for s in r.steps) for st in StepStatus})
    return {
        "schema": SCHEMA,
        "file": r.path,
        "format": r.format,
        "encoding": r.encoding,
        "ok": r.holds,
        "complete": r.complete,
        "exit_code": r.exit_code,
        "skipped_blocks": r.skipped,
        "summary": summary,
        "read": [{"location": n.location.as_json(), "text": n.text, "hypothesis": n.hypothesis}
                 for n in r.notes if not n.problem],
        "problems": [{"location": n.location.as_json(), "message": n.text} for n in r.problems],
        "derivations": [_derivation_json(d, printer) for d in r.derivations],
    }


# ---- terminal -------------------------------------------------------------------------

def _set(hs: frozenset[Hypothesis]) -> str:
    return "{" + ", ".join(_hyps(hs)) + "}"


def status_text(s: StepResult) -> str:
    """One line saying what the step needs.

    'holds in general', 'holds given {…} (declared)', 'needs {…}; not declared: …',
    or 'fails: residual …'.
    """
    if s.status is StepStatus.HOLDS:
        return {"decimals": "holds to the decimal places written",
                "example": "holds at the dimension the note gave"}.get(s.checker,
                                                                       "holds in general")
    if s.note and not s.status.judged:
        where = f" (at {s.problem_location.line}:{s.problem_location.column})" \
            if s.problem_location else ""
        return s.note + where
    if s.status is StepStatus.HOLDS_GIVEN:
        return f"holds given {_set(s.used)} (declared)"
    if s.status is StepStatus.NEEDS_UNDECLARED:
        alts = " or ".join(_set(n) for n in s.needs)
        return (f"holds only given {alts}; not declared: {', '.join(_hyps(s.undeclared))}; "
                f"as declared the residual is {text(s.residual)}")
    ms = " (mean square)" if s.mean_square else ""
    return f"fails: residual {text(s.residual)}{ms}"


def evidence_text(s: StepResult) -> str:
    """The numeric evidence in one line ("" when the step has none)."""
    e = s.evidence
    if e is None:
        return ""
    if e.agree is None:
        return e.note
    if e.design == "complex step":
        rel = "≤" if e.agree else ">"
        return (f"{e.kind} at {e.point}: {e.estimate:.6g} vs {e.reference:.6g}, "
                f"|difference| {rel} {e.se:.1g} = 64·n·ε·(1 + |lhs| + |rhs|) "
                f"(worst of {e.units} index pairs; derivatives by complex step)")
    gap = f"|z| = {abs(e.z):.1f} {'≤' if e.agree else '>'} {e.critical:.1f}"
    what = "sides agree" if e.agree else "sides differ"
    broken = f", violating {', '.join(e.violated)}" if e.violated else ""
    flag = "  [numeric and symbolic DISAGREE]" if e.consistent is False else ""
    # z counts only the gap beyond rounding: say so when rounding is what the gap is
    within = f" beyond rounding {e.rounding:.1g}" if e.rounding > 0.01 * e.se else ""
    note = f"; {e.note}" if e.note else ""
    return (f"{e.kind} at {e.point}{broken}: {e.estimate:.4g} ± {e.se:.2g} vs {e.reference:.4g}, "
            f"{gap}{within} ({what}; α = {e.alpha:g}, {e.design} n = {e.units}, "
            f"catches {e.min_detectable:.1%} with probability {e.power:g}{note}){flag}")


def table(r: VerifyResult) -> Table:
    """A rich table: one row per step, grouped by derivation."""
    t = Table(title=f"attncheck verify {r.path}", show_lines=False)
    t.add_column("", no_wrap=True)
    t.add_column("where", no_wrap=True)
    t.add_column("step")
    t.add_column("reason")
    t.add_column("verdict")
    for d in r.derivations:
        head = f"chain {d.number}" + (f": {d.title}" if d.title else "")
        declared = ", ".join(map(str, d.declared)) or "nothing"
        t.add_row("", "", "[bold]" + _plain(head) + "[/]", "", "[dim]declared: " + _plain(declared) + "[/]")
        for s in d.steps:
            mark = _MARKS.get(s.status, "[green]✓[/]" if s.status.ok else "[red]✗[/]")
            cells = [mark, f"{s.location.line}:{s.location.column}",
                     f"{s.lhs_source} {s.relation} {s.rhs_source}", s.reason,
                     "\n".join(filter(None, (status_text(s), evidence_text(s))))]
            t.add_row(*[c if n < 1 else _plain(c) for n, c in enumerate(cells)])
        if len(d.steps) > 1 and d.conclusion.number == 0:  # what the chain proves
            c = d.conclusion
            t.add_row("[dim]⇒[/]", "", _plain(f"{c.lhs_source} = {c.rhs_source}"),
                      "[dim]conclusion[/]", _plain(status_text(c)))
    return t


_MARKS = {StepStatus.DEFINITION: "[dim]≔[/]", StepStatus.ASSUMPTION: "[dim]⊢[/]",
          StepStatus.CONDITION: "[dim]|[/]", StepStatus.NOT_CHECKED: "[yellow]?[/]",
          StepStatus.NOT_READ: "[yellow]?[/]"}


def _plain(s: str) -> str:
    """Text shown as is: rich markup in user text (e.g. '[b]') must not be interpreted."""
    return s.replace("[", r"\[")


# ---- LaTeX ----------------------------------------------------------------------------

#: The few words of the ✓/✗ marks, in the language of the notes (Chinese when their
#: reasons or titles are, else English).  Kept for callers; the LaTeX report takes its
#: words from :data:`attncheck.i18n.NOTES`, as the deck from a note does.
WORDS = {
    "en": {"needs": "needs", "not declared": "not declared: ", "residual": "residual",
           "mean square residual": "mean square residual", "derivation": "Derivation"},
    "zh": {"needs": "需要", "not declared": "未声明：", "residual": "残差",
           "mean square residual": "均方残差", "derivation": "推导"},
}


def language(r: VerifyResult, text: str = "") -> str:
    """"zh" when the notes' reasons, titles or the words their hypotheses were read from
    contain CJK characters, or when the note's ``text`` is Chinese prose around formulas
    (its ideographs at least 2 % of its Latin letters, which formulas are full of), else "en".

    >>> from attncheck.verify.check import verify_text
    >>> r = verify_text("$$ E(q_i + k_i) = E(q_i) + E(k_i) $$", "m.md", numeric=False)
    >>> language(r), language(r, "由线性性可得 $$ E(q_i + k_i) = E(q_i) + E(k_i) $$")
    ('en', 'zh')
    """
    texts = ([d.title for d in r.derivations] + [s.reason for s in r.steps]
             + [n.text for n in r.notes if not n.problem])
    if any("\u4e00" <= c <= "\u9fff" for t in texts for c in t):
        return "zh"
    ideographs = sum("\u4e00" <= c <= "\u9fff" for c in text)
    letters = sum(c.isascii() and c.isalpha() for c in text)
    return "zh" if ideographs >= max(5, 0.02 * letters) else "en"


def to_html(r: VerifyResult) -> str:
    """An HTML table for notebooks: each step as the note wrote it, as \\( … \\) for MathJax."""
    from attncheck.notetex import math_source, relation

    rows = []
    for d in r.derivations:
        for s in d.steps:
            color = "green" if s.holds else "#c00" if s.status.judged else "#b60"
            mark = "✓" if s.holds else "✗" if s.status.judged else _HTML_MARKS.get(s.status, "?")
            step = " ".join((math_source(s.lhs_source).latex, relation(s.relation),
                             math_source(s.rhs_source).latex))
            rows.append(
                "<tr>"
                f"<td style='color:{color}'>{mark}</td>"
                f"<td>{html.escape(str(s.location))}</td>"
                f"<td>\\({html.escape(step)}\\)</td>"
                f"<td>{html.escape(s.reason)}</td>"
                f"<td>{html.escape(status_text(s))}</td>"
                "</tr>")
    head = "<tr><th></th><th>where</th><th>step</th><th>reason</th><th>verdict</th></tr>"
    return f"<table>{head}{''.join(rows)}</table>"


_HTML_MARKS = {StepStatus.DEFINITION: "≔", StepStatus.ASSUMPTION: "⊢", StepStatus.CONDITION: "|"}


RENDERERS.update({  # "latex" and "notebook" come with attncheck.notes_report (the deck's rows)
    "json": to_json,
    "html": to_html,
})
