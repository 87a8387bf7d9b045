"""The real-notes corpus: each note's hand-written truths against what `attncheck verify` says.

``tests/corpus/{en,zh}/<slug>.md`` (or .tex) is a public note saved as written; beside it
``<slug>.truth.json`` gives, for every relation of its display math, the kind (claim,
definition, condition, approximation, solve) and, for a claim, its truth (holds, needs,
fails), written by hand from the mathematics.  :func:`compare` matches each truth to the
step verify reports at the same line with the same right-hand side, and classifies the
pair.  Run as a script for a per-file account::

    python tests/corpus_truth.py [tests/corpus/en/some-note.md …]
"""

from __future__ import annotations

import json
import re
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from attncheck.verify import StepResult, VerifyResult, verify

__all__ = ["CORPUS", "Outcome", "compare", "notes", "run"]

CORPUS = Path(__file__).with_name("corpus")
#: Verify's statuses that count as each truth.
EXPECTED = {
    ("claim", "holds"): {"holds", "holds-given"},
    ("claim", "needs"): {"needs-undeclared"},
    ("claim", "fails"): {"fails"},
    ("solve", "holds"): {"holds", "holds-given"},
    ("solve", "fails"): {"fails", "needs-undeclared"},
}
OK_STATUSES = {"holds", "holds-given"}
WRONG_STATUSES = {"needs-undeclared", "fails"}


@dataclass(frozen=True)
class Outcome:
    """One truth entry and what verify said of it."""

    truth: dict[str, Any]
    step: StepResult | None
    verdict: str  # right | false-hold | false-fail | mismatch | not-judged | unmatched | recorded

    @property
    def line(self) -> int:
        return int(self.truth["line"])


def notes() -> list[Path]:
    """Every note of the corpus (a .md or .tex with a .truth.json beside it)."""
    out = []
    for t in sorted(CORPUS.glob("*/*.truth.json")):
        stem = t.name.removesuffix(".truth.json")
        note = next(p for p in t.parent.iterdir() if p.stem == stem and p.suffix in (".md", ".tex"))
        out.append(note)
    return out


def truth_of(note: Path) -> dict[str, Any]:
    return json.loads(note.with_name(note.stem + ".truth.json").read_text(encoding="utf-8"))


def run(note: Path) -> VerifyResult:
    options = truth_of(note).get("options", [])
    return verify(str(note), numeric=False, inline="--inline" in options, timeout=300)


_NOISE = re.compile(r"\\(left|right|displaystyle|[,;:!]|quad|qquad|Big|big|bigg|Bigg)(?![a-zA-Z])"
                    r"|&|\s|~")


def _norm(tex: str) -> str:
    return _NOISE.sub("", tex).rstrip(".,;，。；")


def _matches(truth: dict[str, Any], step: StepResult) -> bool:
    if step.location.line != int(truth["line"]):
        return False
    a, b = _norm(truth["rhs"]), _norm(step.rhs_source)
    return bool(a) and (a == b or a.startswith(b) or b.startswith(a))


def compare(result: VerifyResult, truth: dict[str, Any]) -> list[Outcome]:
    """Each truth entry with the step verify reported for it (see the module doc)."""
    steps = list(result.steps)
    used: set[int] = set()
    out: list[Outcome] = []
    for t in truth["steps"]:
        if "\\begin{cases}" in t["rhs"] or "\\begin{array}" in t["rhs"]:
            out.append(_cases(t, steps, used))
            continue
        matches = [n for n, s in enumerate(steps) if n not in used and _matches(t, s)]
        match = matches[0] if matches else None
        step = steps[match] if match is not None else None
        # one written step that a case split made several (j = k, j ≠ k): as the cases are
        branches = [n for n in matches if steps[n].condition and
                    steps[n].condition != (step.condition if step else "")]
        if step is not None and step.condition and branches:
            group = [match] + branches
            used.update(group)
            wrong = [n for n in group if steps[n].status.wrong]
            if t.get("truth") == "fails" and wrong:
                out.append(Outcome(t, steps[wrong[0]], "right"))
                continue
            verdicts = [_verdict(t, steps[n]) for n in group]
            out.append(Outcome(t, step, next((v for v in verdicts if v != "right"), "right")))
            continue
        if match is not None:
            used.add(match)
        out.append(Outcome(t, step, _verdict(t, step)))
    return out


def _cases(t: dict[str, Any], steps: list[StepResult], used: set[int]) -> Outcome:
    """``= \\begin{cases} … \\end{cases}`` is one truth and, in verify, a step per branch:
    right when every branch is (a false branch makes the truth "fails")."""
    rows = t["rhs"].count("\\\\") + 1
    lhs = _norm(t["lhs"])
    branch = [n for n, s in enumerate(steps) if n not in used and
              int(t["line"]) <= s.location.line <= int(t["line"]) + rows + 1 and
              _norm(s.lhs_source) == lhs]
    used.update(branch)
    if not branch:
        return Outcome(t, None, "unmatched")
    verdicts = [_verdict(t, steps[n]) for n in branch]
    if t.get("truth") == "fails":  # some branch fails, the others may hold
        wrong = [n for n in branch if steps[n].status.wrong]
        verdict = "right" if wrong else next((v for v in verdicts if v != "right"), "false-hold")
        return Outcome(t, steps[wrong[0]] if wrong else steps[branch[0]], verdict)
    bad = next((v for v in verdicts if v != "right"), "right")
    return Outcome(t, steps[branch[0]], bad)


def _verdict(t: dict[str, Any], s: StepResult | None) -> str:
    kind, truth = t["kind"], t.get("truth")
    if kind in ("definition", "condition", "approximation"):
        if s is None or s.kind == kind or s.status.value in ("definition", "condition",
                                                             "assumption", "not-checked"):
            return "recorded"
        if kind == "definition" and s.status.value in OK_STATUSES:
            return "recorded"  # a definition restated is true: harmless
        return "mismatch"
    if s is None:
        return "unmatched"
    status = s.status.value
    if not s.status.judged:
        return "not-judged"
    if status in EXPECTED.get((kind, truth), set()):
        return "right"
    if status in OK_STATUSES and truth in ("fails", "needs"):
        return "false-hold"
    if status in WRONG_STATUSES and truth == "holds":
        return "false-fail"
    return "mismatch"


def _report(paths: list[Path]) -> int:
    total: Counter[str] = Counter()
    claim_total: Counter[str] = Counter()
    claims = steps = 0
    for note in paths:
        truth = truth_of(note)
        result = run(note)
        outcomes = compare(result, truth)
        counts = Counter(o.verdict for o in outcomes)
        total.update(counts)
        n_claims = sum(1 for o in outcomes if o.truth["kind"] in ("claim", "solve"))
        claims += n_claims
        steps += len(outcomes)
        claim_total.update(o.verdict for o in outcomes if o.truth["kind"] in ("claim", "solve"))
        print(f"== {note}  claims {n_claims}  " + ", ".join(f"{k} {v}" for k, v in
                                                             sorted(counts.items())))
        for o in outcomes:
            if o.verdict in ("right", "recorded"):
                continue
            s = o.step
            got = f"{s.status.value} ({s.kind}): {s.note or ''}" if s else "no step"
            print(f"   {o.verdict:10s} line {o.line} {o.truth['kind']}/{o.truth.get('truth')}: "
                  f"{o.truth['lhs'][:40]} = {o.truth['rhs'][:50]}  → {got[:150]}")
        extra = [s for s in result.steps if s.is_claim and not any(o.step is s for o in outcomes)]
        for s in extra:
            print(f"   extra      line {s.location.line}: {s.lhs_source[:40]} {s.relation} "
                  f"{s.rhs_source[:50]} → {s.status.value}")
        for p in result.problems:
            print(f"   problem    {p.location}: {p.text}")
    judged = sum(claim_total[v] for v in ("right", "false-hold", "false-fail", "mismatch"))
    langs = Counter(p.parent.name for p in paths)
    print(f"FILES {len(paths)} ({', '.join(f'{k} {v}' for k, v in sorted(langs.items()))}), "
          f"displayed steps {steps}, claim steps {claims}, judged {judged}, right "
          f"{claim_total['right']}; other steps misread "
          f"{total['mismatch'] - claim_total['mismatch']}")
    print(f"TOTAL claims {claims}: judged {judged} ({judged / max(claims, 1):.1%}), right "
          f"{claim_total['right']}, false-hold {claim_total['false-hold']}, false-fail "
          f"{claim_total['false-fail']}, mismatch {claim_total['mismatch']}, not-judged "
          f"{claim_total['not-judged']}, unmatched {claim_total['unmatched']}")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(_report([Path(p) for p in sys.argv[1:]] or notes()))
