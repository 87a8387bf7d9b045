"""What `attncheck verify` finds: per step, per derivation, per file — structured, never text.

A step's :class:`StepStatus` is one of

* ``holds`` — in general, in the Model with no hypothesis;
* ``holds-given`` — given a minimal set of hypotheses, all of which the notes declared;
* ``needs-undeclared`` — it holds only given a hypothesis the notes did not declare
  (the standard ones are tried: zero means, unit variances, q ⟂ k);
* ``fails`` — under no combination of declared and standard hypotheses; the residual
  (under the declared ones) says by how much.

The file passes (exit 0) when every step is ``holds`` or ``holds-given``.
:class:`VerifyResult` renders itself in notebooks (``_repr_latex_``, ``_repr_html_``).

>>> StepStatus.HOLDS_GIVEN.ok, StepStatus.NEEDS_UNDECLARED.ok
(True, False)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import TYPE_CHECKING

from sympy import Expr

from attncheck.verify.errors import Location
from derivations import Hypothesis, Model

if TYPE_CHECKING:
    from attncheck.verify.evidence import Evidence

__all__ = ["DerivationResult", "StepResult", "StepStatus", "VerifyResult"]


class StepStatus(Enum):
    HOLDS = "holds"
    HOLDS_GIVEN = "holds-given"
    NEEDS_UNDECLARED = "needs-undeclared"
    FAILS = "fails"

    @property
    def ok(self) -> bool:
        """Holds under what the notes declared."""
        return self in (StepStatus.HOLDS, StepStatus.HOLDS_GIVEN)


@dataclass(frozen=True)
class StepResult:
    """``lhs = rhs`` at ``location`` (where rhs starts), checked.

    ``needs`` lists the minimal hypothesis sets under which the step holds, each a
    subset of the declared and standard hypotheses (one empty set: holds in general;
    none: fails).  ``residual`` is lhs − rhs under the *declared* hypotheses (the mean
    square E[(lhs − rhs)²] when a side is random); 0 exactly when the step holds as
    declared.  ``checker`` names the engine: "moments" or "softmax".  ``lhs_source`` and
    ``rhs_source`` are the notes' own LaTeX for the two sides.
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

    @property
    def holds(self) -> bool:
        return self.status.ok

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

    @property
    def holds(self) -> bool:
        return all(s.holds for s in self.steps)


@dataclass(frozen=True)
class VerifyResult:
    """Every derivation of one file, checked; ``exit_code`` is what the CLI returns."""

    path: str
    format: str
    derivations: tuple[DerivationResult, ...]
    skipped: int = 0

    @property
    def holds(self) -> bool:
        return all(d.holds for d in self.derivations)

    @property
    def exit_code(self) -> int:
        return 0 if self.holds else 1

    @property
    def steps(self) -> tuple[StepResult, ...]:
        return tuple(s for d in self.derivations for s in d.steps)

    def as_json(self) -> dict[str, object]:
        from attncheck.verify.report import to_json

        return to_json(self)

    def latex(self) -> str:
        from attncheck.verify.report import to_latex

        return to_latex(self, standalone=False)

    def _repr_latex_(self) -> str:
        from attncheck.verify.report import to_latex

        return to_latex(self, standalone=False, notebook=True)

    def _repr_html_(self) -> str:
        from attncheck.verify.report import to_html

        return to_html(self)
