"""What `attncheck verify` finds: per step, per derivation, per file — structured, never text.

Every relation of a note's display math is a step with a *kind* — ``claim``,
``follows`` (an equation solved for a variable), ``inequality`` (judged when they can be),
``definition``, ``assumption``, ``approximation``, ``proportion``, ``condition`` (recorded,
never judged) — and a :class:`StepStatus`:

* ``holds`` — in general, in the Model with no hypothesis;
* ``holds-given`` — given a minimal set of hypotheses, all of which the note states
  (in a declaration comment, in its prose, or as a formula);
* ``needs-undeclared`` — it holds only given a hypothesis the note does not state
  (the standard ones are tried: zero means, unit variances, q ⟂ k, Σ_k t_k = 1);
* ``fails`` — under no combination of stated and standard hypotheses; the residual
  (under the stated ones) says by how much;
* ``not-checked`` (an approximation, a budget spent, an expression the engine refuses:
  ``note`` says which), ``not-read`` (a side could not be parsed: ``note`` says why and
  ``location`` where), and the recorded kinds ``definition``, ``assumption``,
  ``condition``.

Exit status: 1 when a judged step does not hold; else 2 when a claim could not be read
or checked (or a block of math could not be read); else 0.
:class:`VerifyResult` renders itself in notebooks (``_repr_latex_``, ``_repr_html_``).

>>> StepStatus.HOLDS_GIVEN.ok, StepStatus.NEEDS_UNDECLARED.ok, StepStatus.DEFINITION.judged
(True, False, False)
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from sympy import Expr

from attncheck.verify.errors import Location
from derivations import Hypothesis, Model

__all__ = ["CLAIM_KINDS", "RENDERERS", "DerivationResult", "Evidence", "ReadNote", "StepResult",
           "StepStatus", "VerifyResult"]

#: How a result renders itself (JSON data, LaTeX, notebook LaTeX, HTML): filled in by
#: :mod:`attncheck.verify.report` when it is imported, so that results (data) never
#: import their printers and the printers depend on the data, one way.
RENDERERS: dict[str, Callable[[VerifyResult], Any]] = {}


class StepStatus(Enum):
    HOLDS = "holds"
    HOLDS_GIVEN = "holds-given"
    NEEDS_UNDECLARED = "needs-undeclared"
    FAILS = "fails"
    NOT_CHECKED = "not-checked"
    NOT_READ = "not-read"
    DEFINITION = "definition"
    ASSUMPTION = "assumption"
    CONDITION = "condition"

    @property
    def ok(self) -> bool:
        """Holds under what the note states."""
        return self in (StepStatus.HOLDS, StepStatus.HOLDS_GIVEN)

    @property
    def judged(self) -> bool:
        """A verdict was reached: it holds, or it does not."""
        return self in (StepStatus.HOLDS, StepStatus.HOLDS_GIVEN, StepStatus.NEEDS_UNDECLARED,
                        StepStatus.FAILS)

    @property
    def wrong(self) -> bool:
        """Judged, and does not hold as the note states it."""
        return self in (StepStatus.NEEDS_UNDECLARED, StepStatus.FAILS)


#: Kinds of step that are claims (judged); the others are recorded.
CLAIM_KINDS = ("claim", "follows", "inequality", "alternative")


@dataclass(frozen=True)
class Evidence:
    """Monte Carlo evidence for one step (see the module doc).

    ``estimate`` ± ``se`` estimates lhs (or lhs − rhs when both sides are random
    quantities estimated on the same samples), ``reference`` is what it is tested
    against; ``consistent`` says the numeric outcome matches the symbolic verdict.
    ``note`` explains a step the numeric side could not estimate (then agree is None).
    """

    kind: str
    point: str
    violated: tuple[str, ...]
    estimate: float
    se: float
    reference: float
    z: float
    critical: float
    agree: bool | None
    units: int
    design: str
    alpha: float
    power: float
    min_detectable: float
    consistent: bool | None
    note: str = ""
    #: What floating-point rounding of the two sides can amount to: z counts only the
    #: gap beyond it (numeric.agreement), so |z| ≤ critical is exactly "agree".
    rounding: float = 0.0

    def as_json(self) -> dict[str, Any]:
        out = dict(vars(self))
        out["violated"] = list(self.violated)
        for k in ("estimate", "se", "reference", "z", "critical", "min_detectable", "alpha",
                  "power", "rounding"):
            if not math.isfinite(out[k]):
                out[k] = None  # JSON has no inf/nan
        return out


@dataclass(frozen=True)
class StepResult:
    """``lhs = rhs`` at ``location`` (where rhs starts), checked.

    ``needs`` lists the minimal hypothesis sets under which the step holds, each a
    subset of the declared and standard hypotheses (one empty set: holds in general;
    none: fails).  ``residual`` is lhs − rhs under the *declared* hypotheses (the mean
    square E[(lhs − rhs)²] when a side is random); 0 exactly when the step holds as
    declared.  ``checker`` names the engine: "moments", "softmax", "calculus", "decimals",
    "numbers" or "example" (true at the dimension the note gave, d_k = 64, not for every
    d).  ``lhs_source`` and ``rhs_source`` are the notes' own LaTeX for the two sides.
    """

    number: int
    location: Location
    lhs: Expr
    rhs: Expr
    reason: str
    status: StepStatus
    needs: tuple[frozenset[Hypothesis], ...]
    declared: frozenset[Hypothesis]
    residual: Expr
    mean_square: bool = False
    checker: str = "moments"
    evidence: Evidence | None = field(default=None, compare=False)
    lhs_source: str = ""
    rhs_source: str = ""
    kind: str = "claim"
    relation: str = "="
    note: str = ""
    condition: str = ""
    problem_location: Location | None = None
    #: the index values a case fixed in the sides (j ≠ k: j = 2, k = 3; i = j with the label
    #: one-hot at j: j → i), for the evidence
    case: tuple[tuple[Expr, Expr], ...] = ()

    @property
    def holds(self) -> bool:
        """Not judged wrong: holds, or is not a judged claim at all."""
        return not self.status.wrong

    @property
    def is_claim(self) -> bool:
        return self.kind in CLAIM_KINDS

    @property
    def used(self) -> frozenset[Hypothesis]:
        """The minimal set reported first: a declared one when there is one."""
        return self.needs[0] if self.needs else frozenset()

    @property
    def undeclared(self) -> frozenset[Hypothesis]:
        """Hypotheses of :attr:`used` the notes did not declare."""
        return self.used - self.declared


@dataclass(frozen=True)
class DerivationResult:
    """One equality chain: its steps and its conclusion (first expression = last)."""

    number: int
    location: Location
    title: str
    model: Model
    declared: tuple[Hypothesis, ...]
    steps: tuple[StepResult, ...]
    conclusion: StepResult
    #: verify's letters and the note's (y → p where p_i = e^{z_i}/Σ…): the letters its
    #: formulas are said in, in reasons and verdicts
    letters: tuple[tuple[str, str], ...] = ()

    @property
    def holds(self) -> bool:
        return all(s.holds for s in self.steps)


@dataclass(frozen=True)
class ReadNote:
    """Something the reader understood from the note's words or recorded: a hypothesis read
    from the text ("均值为0" → E(q_i) = 0), or a block it could not read (``problem``)."""

    location: Location
    text: str
    hypothesis: str = ""
    problem: bool = False


@dataclass(frozen=True)
class VerifyResult:
    """Every derivation of one file, checked; ``exit_code`` is what the CLI returns."""

    path: str
    format: str
    derivations: tuple[DerivationResult, ...]
    skipped: int = 0
    notes: tuple[ReadNote, ...] = ()
    encoding: str = "utf-8"

    @property
    def holds(self) -> bool:
        return all(d.holds for d in self.derivations)

    @property
    def problems(self) -> tuple[ReadNote, ...]:
        return tuple(n for n in self.notes if n.problem)

    @property
    def claims(self) -> tuple[StepResult, ...]:
        return tuple(s for s in self.steps if s.is_claim)

    @property
    def judged(self) -> tuple[StepResult, ...]:
        return tuple(s for s in self.claims if s.status.judged)

    @property
    def complete(self) -> bool:
        """Every claim judged and every block read."""
        return len(self.judged) == len(self.claims) and not self.problems

    @property
    def exit_code(self) -> int:
        """1: a step does not hold; 2: something could not be read or checked; 0: all hold."""
        if not self.holds:
            return 1
        return 0 if self.complete and self.claims else 2

    @property
    def steps(self) -> tuple[StepResult, ...]:
        return tuple(s for d in self.derivations for s in d.steps)

    def _render(self, how: str) -> Any:
        # attncheck/verify/__init__.py imports report, which registers json and html; the
        # LaTeX forms come with attncheck.notes_report (the decks' rows, above this package)
        if how not in RENDERERS:
            raise LookupError(f"no {how} form of a verify result: import attncheck.notes_report")
        return RENDERERS[how](self)

    def as_json(self) -> dict[str, object]:
        return self._render("json")  # type: ignore[no-any-return]

    def latex(self) -> str:
        return self._render("latex")  # type: ignore[no-any-return]

    def _repr_latex_(self) -> str | None:
        # None: Jupyter shows the HTML table instead, until attncheck.notes_report is imported
        return RENDERERS["notebook"](self) if "notebook" in RENDERERS else None

    def _repr_html_(self) -> str:
        return self._render("html")  # type: ignore[no-any-return]
