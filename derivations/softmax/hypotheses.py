"""What a softmax step may need about the target t: that it sums to one, or that it is
one-hot at a class c.  The cross-entropy gradient is y_i Σ_k t_k − t_i; it is y_i − t_i
only for a target that sums to one, so a step that writes y_i − t_i *needs* that
statement, and the checker names it.

The statements act on canonical expressions (:mod:`derivations.softmax.canonical`):
one-hot replaces every t_a by δ_ac; either makes Σ_k t_k equal to 1.

>>> from sympy import Symbol, Sum
>>> from derivations.softmax.definitions import k, n, t, y
>>> str(TARGET_SUMS_TO_ONE), str(OneHotTarget(Symbol("c", integer=True, positive=True)))
('Σ_k t_k = 1', 't_k = δ_kc')
>>> TARGET_SUMS_TO_ONE.apply(y[1] * Sum(t[k], (k, 1, n)) - t[1])
-t[1] + y[1]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from sympy import Dummy, Eq, Expr, Indexed, Integer, KroneckerDelta, Sum, Symbol

from derivations.errors import InvalidModel
from derivations.hypotheses import Hypothesis
from derivations.softmax.sums import normalize
from derivations.softmax.symbols import k, n, t

if TYPE_CHECKING:
    from derivations.model import Model

__all__ = ["TARGET_SUMS_TO_ONE", "OneHotTarget", "SoftmaxHypothesis", "TargetSumsToOne"]


@dataclass(frozen=True)
class SoftmaxHypothesis(Hypothesis):
    """A statement about the target vector t; it concerns no random family."""

    rank: ClassVar[int] = 0

    def families(self) -> tuple[str, ...]:
        return ()

    def substitute(self, expr: Expr) -> Expr:
        """expr with the statement's substitution made (sums are normalised afterwards)."""
        return expr

    @property
    def sums_to_one(self) -> bool:
        """Whether Σ_k t_k = 1 follows."""
        return True

    def apply(self, expr: Expr, model: Model | None = None) -> Expr:
        """expr with the statement used (``model`` is unused: t is not random)."""
        return normalize(self.substitute(expr), target_sums_to_one=self.sums_to_one)


@dataclass(frozen=True)
class TargetSumsToOne(SoftmaxHypothesis):
    """Σ_k t_k = 1: a probability (or one-hot) target."""

    def __str__(self) -> str:
        return "Σ_k t_k = 1"

    @property
    def statement(self) -> Eq:
        return Eq(Sum(t[k], (k, 1, n)), Integer(1), evaluate=False)

    def _attncheck_latex(self, printer: Any) -> str:
        return str(printer._print(self.statement))


@dataclass(frozen=True)
class OneHotTarget(SoftmaxHypothesis):
    """t_k = δ_kc: the target is the class ``label`` (an index symbol or an integer ≥ 1)."""

    label: Expr

    def __post_init__(self) -> None:
        c = self.label
        if isinstance(c, int):
            object.__setattr__(self, "label", c := Integer(c))
        if not ((isinstance(c, Integer) and c >= 1) or isinstance(c, Symbol)):
            raise InvalidModel(f"OneHotTarget: the class must be an index symbol or an integer ≥ 1, not {c!r}")

    def __str__(self) -> str:
        m = self._other()
        return f"t_{m} = δ_{m}{self.label}"

    def _other(self) -> Symbol:
        """The letter for a generic entry: k, or m when the class itself is called k."""
        return Symbol("m", integer=True, positive=True) if self.label == k else k

    def substitute(self, expr: Expr) -> Expr:
        c = self.label
        if isinstance(c, Symbol):  # Σ_k t_k log y_k with the class named k: the sum's own k
            expr = expr.replace(   # is another letter, or t_k would become δ_kk = 1
                lambda e: isinstance(e, Sum) and any(v == c for v, *_ in e.limits),
                lambda e: e.xreplace({c: Dummy(c.name, integer=True, positive=True)}))
        return expr.replace(lambda e: isinstance(e, Indexed) and e.base == t,
                            lambda e: KroneckerDelta(e.indices[0], c))

    @property
    def statement(self) -> Eq:
        m = self._other()
        return Eq(t[m], KroneckerDelta(m, self.label), evaluate=False)

    def _attncheck_latex(self, printer: Any) -> str:
        return str(printer._print(self.statement))


#: Σ_k t_k = 1, the hypothesis the cross-entropy gradient y − t needs.
TARGET_SUMS_TO_ONE = TargetSumsToOne()
