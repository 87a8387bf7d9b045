"""verify's report for people at a terminal, in Chinese or English.

Each chain is a heading; each step one entry: its mark (✓ ✗ ? ≔), where it is, the step as the
note wrote it (its LaTeX made readable by pylatexenc: ``\\frac{\\partial y_i}{\\partial x_j}``
reads ``∂y_i/∂x_j``), and under it the note's own reason, the rule the step uses and the verdict
— for a failing step what the right side should be.  A borderless table wraps inside the
terminal's width, 80 columns included; the machine-readable forms are ``--json`` and ``--latex``.

>>> readable(r"\\frac{\\partial L}{\\partial z_i} = \\hat{y}_i - y_i")
'∂L/∂z_i = ŷ_i − y_i'
>>> readable(r"\\sum_{i=1}^{d_k} \\operatorname{Var}(q_i k_i)")
'∑_{i=1}^{d_k} Var(q_i k_i)'
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache
from typing import Any

from pylatexenc.latex2text import (
    LatexNodes2Text,
    MacroTextSpec,
    get_default_latex_context_db,
)
from pylatexenc.latexwalker import LatexWalker, LatexWalkerError
from pylatexenc.latexwalker import get_default_latex_context_db as walker_db
from pylatexenc.macrospec import std_macro
from rich.console import Console
from rich.table import Table
from rich.text import Text
from sympy import Basic, IndexedBase, Symbol

from attncheck.i18n import Words
from attncheck.text import hypotheses_text, printable, text
from attncheck.verdicts import note_detail, step_failure, step_rule
from attncheck.verify.parse import VectorLiteral
from attncheck.verify.result import (
    DerivationResult,
    StepResult,
    StepStatus,
    VerifyResult,
)

__all__ = ["print_result", "readable", "summary"]

_MARKS = {StepStatus.HOLDS: ("✓", "green"), StepStatus.HOLDS_GIVEN: ("✓", "green"),
          StepStatus.NEEDS_UNDECLARED: ("✗", "red"), StepStatus.FAILS: ("✗", "red"),
          StepStatus.DEFINITION: ("≔", "dim"), StepStatus.ASSUMPTION: ("⊢", "dim"),
          StepStatus.CONDITION: ("|", "dim"), StepStatus.NOT_CHECKED: ("?", "yellow"),
          StepStatus.NOT_READ: ("?", "yellow")}


def _fraction(node: Any, l2tobj: LatexNodes2Text) -> str:
    """a/b, with parentheses around a part that is more than one term or factor:
    ∂y_i/∂x_j, (f(x))/(g(x)) — and a space after it, so d/dx f(x) keeps its gap."""
    args = node.nodeargd.argnlist if node.nodeargd else []
    if len(args) != 2 or args[0] is None or args[1] is None:
        return "/"
    parts = []
    for a in args:
        text = l2tobj.nodelist_to_text([a]).strip()
        if text.startswith("{") and text.endswith("}"):
            text = text[1:-1]
        text = re.sub(r"\s*·\s*", "·", text)  # q·k is one product: no parentheses
        parts.append(f"({text})" if re.search(r"[\s+\-−/]", text) else text)
    return f"{parts[0]}/{parts[1]} "


@cache
def _converter() -> LatexNodes2Text:
    db = get_default_latex_context_db().filter_context(keep_categories=None)
    db.add_context_category("attncheck", prepend=True, macros=[
        # \operatorname{Var}: the operator's name, without braces
        MacroTextSpec("operatorname", discard=True),  # its {Var} group: braces dropped below
        MacroTextSpec("mathrm", simplify_repl="%s"),
        MacroTextSpec("text", simplify_repl="%s"),
        MacroTextSpec("left", discard=True), MacroTextSpec("right", discard=True),
        MacroTextSpec("frac", simplify_repl=_fraction), MacroTextSpec("dfrac", simplify_repl=_fraction),
        MacroTextSpec("tfrac", simplify_repl=_fraction),
        # a case "(i \ne j)" read "(i j)" without it; the space after, as in "i ≠ j"
        *(MacroTextSpec(m, simplify_repl=r) for m, r in (
            ("ne", "≠ "), ("neq", "≠ "), ("le", "≤ "), ("leq", "≤ "), ("ge", "≥ "), ("geq", "≥ "))),
        # \ln x: the name and a space (pylatexenc writes "lnx"); "ln (x)" is tidied below
        *(MacroTextSpec(f, simplify_repl=f + " ") for f in ("ln", "log", "exp", "sin", "cos")),
    ])
    # a group of two characters or more keeps its braces: ∑_{i=1}^{d_k}, not ∑_i=1^d_k
    return LatexNodes2Text(latex_context=db, math_mode="text", keep_braced_groups=True,
                           keep_braced_groups_minlen=2)


@cache
def _walker_context() -> Any:
    """pylatexenc's macros, with the fractions notes use that it does not know (\\dfrac)."""
    db = walker_db()
    db.add_context_category("attncheck", prepend=True, macros=[
        std_macro(name, False, 2) for name in ("dfrac", "tfrac", "cfrac")])
    return db


def readable(latex: str) -> str:
    """The note's LaTeX as a terminal can show it (falls back to the source itself)."""
    # \hat{y_0}: the accent on the letter (ŷ_0), as \hat{y}_0 — not on every character
    latex = re.sub(r"\\(hat|bar|tilde)\{\s*([A-Za-z])\s*_\s*(\w|\{\w+\})\s*\}", r"\\\1{\2}_\3", latex)
    try:  # strict: a tolerant parse drops the very brace a reader must see to fix the note
        nodes, _, _ = LatexWalker(latex, latex_context=_walker_context(),
                                  tolerant_parsing=False).get_latex_nodes()
        out = _converter().nodelist_to_text(nodes)
    except (LatexWalkerError, ValueError, KeyError, IndexError, RecursionError):
        return printable(" ".join(latex.split()))  # shown as written
    out = re.sub(r"(?<![_^])\{([A-Za-z]+)\}", r"\1", out)  # \operatorname{Var}: Var
    out = re.sub(r"\s*·\s*", "·", out)  # q \cdot k: q·k
    out = re.sub(r"\b(ln|log|exp|sin|cos) +(?=[(\[])", r"\1", out)
    # a control character in the note is shown (\u001b), never sent to the terminal
    return printable(" ".join(out.replace(" - ", " − ").replace("-", "−").split()) or latex)


class _Say:
    """The words of one report: verdict lines for steps, in one language and notation."""

    def __init__(self, lang: str, notation: str) -> None:
        self.w = Words(lang)
        self.lang = lang
        self.notation = notation

    def math(self, e: object, d: DerivationResult) -> str:
        if d.letters and isinstance(e, Basic):
            # in the note's letters (p_i, not verify's y_i): one pass, so y → p and t → y swap
            e = e.xreplace({old: new for a, b in d.letters
                            for old, new in ((IndexedBase(a), IndexedBase(b)),
                                             (Symbol(a), Symbol(b)))})
        return text(e, notation=self.notation, hypotheses=d.declared)  # type: ignore[arg-type]

    def hyps(self, hs: frozenset, d: DerivationResult) -> str:  # type: ignore[type-arg]
        return hypotheses_text(hs, notation=self.notation, declared=d.declared)

    def verdict(self, s: StepResult, d: DerivationResult) -> str:
        w = self.w
        if s.status is StepStatus.HOLDS:
            return w.say({"decimals": "holds-decimals", "example": "holds-example"}.get(
                s.checker, "holds"))
        if s.status is StepStatus.HOLDS_GIVEN:
            return w.say("holds-given", hypotheses=self.hyps(s.used, d))
        if s.status is StepStatus.NEEDS_UNDECLARED:
            alts = w.say("or").join(self.hyps(n, d) for n in s.needs)
            missing = ", ".join(self.math(h, d) for h in sorted(s.undeclared, key=str))
            return w.say("needs-undeclared", hypotheses=alts, missing=missing)
        if s.status is StepStatus.FAILS:
            return self.failure(s, d)
        note = s.note
        if self.lang != "en":
            note = w.note(note_detail(note))  # the status word says it; the rest translated
        where = f" ({s.problem_location.line}:{s.problem_location.column})" \
            if s.problem_location and s.status is StepStatus.NOT_READ else ""
        return w.say(f"status-{s.status.value}", note=note) + where

    def failure(self, s: StepResult, d: DerivationResult) -> str:
        """'= d_k, not √d_k' when the engine knows the left side's value, else the residual."""
        w = self.w
        f = step_failure(s, d)
        if f is not None and f.should_be is not None:
            claimed = readable(s.rhs_source) if s.rhs.is_number and s.rhs_source else \
                self.math(s.rhs, d)  # 1.46 as written, not 73/50
            out = w.say("should-be", value=self.math(f.should_be, d), claimed=claimed)
            if f.would_hold_given:
                out += w.say("would-hold-given", hypotheses=w.say("or").join(
                    self.hyps(h, d) for h in f.would_hold_given))
            return out
        at = _first_wrong_entry(s.residual)
        if at:  # a matrix or vector written out: which entry is wrong, counted as written
            dots = any(c in f"{s.lhs_source}{s.rhs_source}" for c in ("dots", "⋯", "…"))
            return w.say("fails-entry" if dots else "fails-entry-plain",
                         entry=", ".join(map(str, at)))
        kind = w.say("mean square residual" if s.mean_square else "residual")
        return w.say("fails-residual", kind=kind, residual=self.math(s.residual, d))

    def rule(self, s: StepResult, d: DerivationResult) -> str:
        """The rule a holding step uses, named as a teacher would ("" when none is known)."""
        if s.status is StepStatus.NEEDS_UNDECLARED:
            return ""
        use = step_rule(s, d)
        return self.w.rule(use, lambda e: self.math(e, d)) if use is not None else ""


def _first_wrong_entry(residual: Any) -> tuple[int, ...]:
    """(row, column) — or (entry,) — of the first non-zero entry of a written-out matrix's
    residual, numbered as the note writes them (() when the residual is not one)."""
    if not isinstance(residual, VectorLiteral):
        return ()
    for n, e in enumerate(residual.args, 1):
        inner = _first_wrong_entry(e)
        if inner:
            return (n, *inner)
        if not isinstance(e, VectorLiteral) and e != 0:
            return (n,)
    return ()


def _entry(s: StepResult, d: DerivationResult, say: _Say, *, conclusion: bool = False
           ) -> tuple[Text, Text, Text]:
    mark, style = _MARKS[s.status]
    if conclusion:
        mark, style = "⇒", "dim"
    where = "" if conclusion else f"{s.location.line}:{s.location.column}"
    step = Text(f"{readable(s.lhs_source)} {s.relation} {readable(s.rhs_source)}")
    if s.condition:
        step.append(f"   ({readable(s.condition)})", style="dim")
    reason = s.reason and not conclusion and f"«{readable(s.reason)}»"
    below = [x for x in (reason, not conclusion and say.rule(s, d), say.verdict(s, d)) if x]
    line = say.w.say("semicolon").join(below)
    if conclusion:
        line = say.w.say("conclusion") + say.w.say("colon") + line
    body = Text.assemble(step, "\n", Text(printable(line),
                                          style=style if style != "green" else "dim"))
    ev = s.evidence
    if ev is not None and not conclusion:
        body.append("\n" + say.w.say("evidence", text=_evidence(s, say)), style="dim")
    return Text(mark, style=style), Text(where, style="dim"), body


def _evidence(s: StepResult, say: _Say) -> str:
    """The numeric evidence in one short line; the point it was drawn at, the power and the
    design are in ``--json`` (a terminal line is read, not audited)."""
    e = s.evidence
    assert e is not None
    if e.agree is None:
        return say.w.note(e.note)
    verdict = say.w.say("agree" if e.agree else "differ")
    rel = "≤" if e.agree else ">"
    kind = say.w.say(e.kind) if e.kind in ("confirmation", "counterexample") else e.kind
    if e.consistent is False:  # the word follows the numbers, not the symbolic verdict
        kind = say.w.say("numbers-contradict")
    if e.design == "complex step":
        return say.w.say("evidence-derivative", kind=kind, estimate=f"{e.estimate:.6g}",
                         reference=f"{e.reference:.6g}", verdict=verdict)
    if e.units == 0 and e.se == 0:  # (16 vs 16 at d_k = 16: no sample was drawn)
        return say.w.say("evidence-exact", kind=kind, estimate=f"{e.estimate:.6g}",
                         reference=f"{e.reference:.6g}", verdict=verdict)
    return say.w.say("evidence-sample", kind=kind, estimate=f"{e.estimate:.4g}",
                     se=f"{e.se:.2g}", reference=f"{e.reference:.4g}",
                     test=f"|z| = {abs(e.z):.1f} {rel} {e.critical:.1f}", n=e.units,
                     verdict=verdict)


def summary(r: VerifyResult, lang: str = "en") -> str:
    """The last line: OK / FAIL / INCOMPLETE, the file, how many claims were checked."""
    bad = sum(1 for s in r.steps if s.status.wrong)
    state = {0: "OK", 1: "FAIL", 2: "INCOMPLETE"}[r.exit_code]
    w = Words(lang)
    out = w.say("summary", state=state, path=r.path, judged=len(r.judged), claims=len(r.claims),
                bad=bad)
    return out + (w.say("summary-unread", unread=len(r.problems)) if r.problems else "")


def print_result(r: VerifyResult, console: Console, lang: str = "en",
                 notation: str | None = None) -> None:
    """The whole report of one file on ``console`` (see the module doc)."""
    say = _Say(lang, notation or ("ED" if lang == "zh" else "mathbb"))
    w = say.w
    plain: Callable[[str], None] = lambda s: console.print(  # noqa: E731
        s, highlight=False, markup=False, soft_wrap=True)
    console.print(Text(printable(r.path), style="bold"))
    shown: tuple[object, ...] | None = None
    for d in r.derivations:
        head = Text(w.say("chain", n=d.number) + (w.say("colon") + readable(d.title)
                                                   if d.title else ""), style="bold")
        if d.declared != shown:  # said once, and again only where it changes
            declared = ", ".join(say.math(h, d) for h in d.declared) or w.say("nothing")
            head.append("   " + w.say("declared", hypotheses=declared), style="dim")
            shown = d.declared
        console.print(head)
        t = Table(box=None, show_header=False, pad_edge=False, padding=(0, 1))
        t.add_column(no_wrap=True)
        t.add_column(no_wrap=True)
        t.add_column(overflow="fold")
        for s in d.steps:
            t.add_row(*_entry(s, d, say))
        if len(d.steps) > 1 and d.conclusion.number == 0:  # what the chain proves
            t.add_row(*_entry(d.conclusion, d, say, conclusion=True))
        console.print(t)
    for n in r.notes:
        if not n.problem:
            plain(w.say("read-from-text", where=n.location, hypothesis=n.hypothesis,
                        text=n.text))
    for n in r.problems:
        plain(w.say("not-read-at", where=n.location,
                    text=n.text if lang == "en" else w.note(note_detail(n.text))))
    for s in r.steps:  # file:line:col first, as compilers write it: editors jump there
        if s.status.wrong or (s.is_claim and not s.status.judged):
            d = next(d for d in r.derivations if s in d.steps)
            plain(w.say("step-at", where=s.location, step=f"{readable(s.lhs_source)} "
                        f"{s.relation} {readable(s.rhs_source)}", verdict=say.verdict(s, d)))
    for s in r.steps:  # the two routes disagreeing means one of them is wrong: say so loudly
        if s.evidence is not None and s.evidence.consistent is False:
            plain(w.say("contradiction", where=s.location, status=s.status.value))
    plain(summary(r, lang))
