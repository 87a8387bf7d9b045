"""Named hypotheses: statements about the model that a derivation step may need.

Each hypothesis acts on an evaluated expression by substitution (E(q_i) = 0 sets
μ_q to 0; q ⟂ k sets ρ to 0 and factorizes mixed moments).  That is what lets the
checker find the *minimal* set a step needs: it tries subsets of the declared
hypotheses and keeps the smallest ones under which the step's residual vanishes.

>>> from derivations.model import Family, Model
>>> m = Model((Family("q"), Family("k")))
>>> h = MeanIs("q")
>>> str(h), h.apply(m.joint_moment((("q", 2),)), m)
('E(q_i) = 0', sigma_q**2)
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import ClassVar

from sympy import Eq, Expr, Integer, Rel, Symbol, sqrt

from derivations.errors import InvalidModel
from derivations.model import Distribution, Family, MixedMoment, Model, StdMoment
from derivations.operators import E, Var

__all__ = [
    "CorrelationIs",
    "DistributedAs",
    "Hypothesis",
    "Independent",
    "MeanIs",
    "VarianceIs",
    "INDEX",
]

#: The index used when a hypothesis about a whole family is displayed (E(q_i) = 0).
INDEX = Symbol("i", integer=True, positive=True)


@dataclass(frozen=True)
class Hypothesis(ABC):
    """A statement that holds for every index i (the families are i.i.d.).

    Hypotheses act by substitution, so the order matters; ``rank`` fixes it:
    independence first (it turns mixed moments into each family's own), then
    correlations, means and variances, and laws last (they fix the families' own
    moments, including those that independence has just produced).
    """

    rank: ClassVar[int] = 0

    @abstractmethod
    def apply(self, expr: Expr, model: Model) -> Expr:
        """expr with this hypothesis substituted in."""

    @abstractmethod
    def families(self) -> tuple[str, ...]:
        """The random families the statement is about."""

    def check_against(self, model: Model) -> None:
        for name in self.families():
            model.family(name)  # raises InvalidModel naming the unknown family


@dataclass(frozen=True)
class MeanIs(Hypothesis):
    rank: ClassVar[int] = 2
    family: str
    value: Expr = Integer(0)

    def apply(self, expr: Expr, model: Model) -> Expr:
        return expr.subs(model.family(self.family).mean, self.value)

    def families(self) -> tuple[str, ...]:
        return (self.family,)

    @property
    def statement(self) -> Rel:
        return Eq(E(Family(self.family).base[INDEX]), self.value, evaluate=False)

    def __str__(self) -> str:
        return f"E({self.family}_i) = {self.value}"


@dataclass(frozen=True)
class VarianceIs(Hypothesis):
    rank: ClassVar[int] = 3
    family: str
    value: Expr = Integer(1)

    def __post_init__(self) -> None:
        if self.value.is_nonpositive:
            raise InvalidModel(f"Var({self.family}_i) = {self.value}: a variance must be > 0")

    def apply(self, expr: Expr, model: Model) -> Expr:
        return expr.subs(model.family(self.family).std, sqrt(self.value))

    def families(self) -> tuple[str, ...]:
        return (self.family,)

    @property
    def statement(self) -> Rel:
        return Eq(Var(Family(self.family).base[INDEX]), self.value, evaluate=False)

    def __str__(self) -> str:
        return f"Var({self.family}_i) = {self.value}"


@dataclass(frozen=True)
class Independent(Hypothesis):
    """q_i ⟂ k_i: a dependent pair of the model is in fact independent."""

    rank: ClassVar[int] = 0
    a: str
    b: str

    def apply(self, expr: Expr, model: Model) -> Expr:
        if (self.a, self.b) not in model.dependent and (self.b, self.a) not in model.dependent:
            return expr  # the model already makes them independent
        fa, fb = model.family(self.a), model.family(self.b)

        def factor(m: MixedMoment) -> Expr:
            x, y, p, r = m.args
            if {str(x), str(y)} != {self.a, self.b}:
                return m
            first, second = (fa, fb) if str(x) == self.a else (fb, fa)
            return first.standardized_moment(int(p)) * second.standardized_moment(int(r))

        out = expr.subs(model.rho(self.a, self.b), 0)
        return out.replace(lambda e: isinstance(e, MixedMoment), factor)

    def families(self) -> tuple[str, ...]:
        return (self.a, self.b)

    def __str__(self) -> str:
        return f"{self.a} ⟂ {self.b}"


@dataclass(frozen=True)
class CorrelationIs(Hypothesis):
    rank: ClassVar[int] = 1
    a: str
    b: str
    value: Expr

    def apply(self, expr: Expr, model: Model) -> Expr:
        return expr.subs(model.rho(self.a, self.b), self.value)

    def families(self) -> tuple[str, ...]:
        return (self.a, self.b)

    def __str__(self) -> str:
        return f"corr({self.a}_i, {self.b}_i) = {self.value}"


@dataclass(frozen=True)
class DistributedAs(Hypothesis):
    """The standardized components of a moments-only family follow a named law."""

    rank: ClassVar[int] = 4
    family: str
    dist: Distribution

    def apply(self, expr: Expr, model: Model) -> Expr:
        law = Family(self.family, self.dist)
        return expr.replace(
            lambda e: isinstance(e, StdMoment) and str(e.args[0]) == self.family,
            lambda e: law.standardized_moment(int(e.args[1])),
        )

    def families(self) -> tuple[str, ...]:
        return (self.family,)

    def __str__(self) -> str:
        return f"{self.family}_i ~ {self.dist}"
