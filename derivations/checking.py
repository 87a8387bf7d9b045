"""Derivations as step chains, and the checker that says what each step really needs.

A :class:`Derivation` is a title, a Model, named hypotheses and a chain of
:class:`Step`; step n claims ``steps[n-1].expr = steps[n].expr`` for the reason it
gives.  :meth:`Derivation.check` evaluates both sides exactly, and reports per step:

* holds in general (the residual vanishes in the Model as it is),
* holds given the minimal sets of declared hypotheses under which it vanishes,
* fails, with the residual under all declared hypotheses — and, where one exists,
  a condition on the means that would make it hold.

Verdicts are structured objects; printing them is the printer's job.

>>> from derivations.model import Family, Model
>>> from derivations.hypotheses import MeanIs, VarianceIs
>>> from derivations.operators import E, Var
>>> m = Model((Family("q"),))
>>> q = m.family("q").base
>>> i = INDEX
>>> v = check_equality(Var(q[i]), E(q[i]**2), m, (MeanIs("q"), VarianceIs("q")))
>>> v.status, [sorted(map(str, s)) for s in v.needs], v.residual
(<Status.HOLDS_GIVEN: 'holds given'>, [['E(q_i) = 0']], -mu_q**2)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from itertools import combinations

from sympy import (
    Dummy,
    Eq,
    Expr,
    Integer,
    KroneckerDelta,
    Poly,
    PolynomialError,
    Rational,
    Symbol,
    simplify,
    solve,
)

from derivations.errors import InvalidModel
from derivations.expectation import _canonical, evaluate, expectation, is_random
from derivations.hypotheses import INDEX, Hypothesis
from derivations.model import MixedMoment, Model, StdMoment

__all__ = [
    "Derivation",
    "DerivationVerdict",
    "INDEX",
    "Status",
    "Step",
    "StepVerdict",
    "apply_hypotheses",
    "check_equality",
    "is_zero",
]


class Status(Enum):
    HOLDS = "holds in general"
    HOLDS_GIVEN = "holds given"
    FAILS = "fails"


def is_zero(expr: Expr) -> bool:
    """Exact zero test: expansion first (fast, decides polynomials), simplify as a fallback."""
    e = _canonical(expr)
    if e == 0:
        return True
    # Moment symbols (κ_q, E[Z_q² Z_k]) are free quantities: an expanded polynomial in
    # them and the parameters that is not literally 0 is not zero — no simplify needed.
    free = {a: Dummy() for a in e.atoms(StdMoment, MixedMoment, KroneckerDelta)}
    plain = e.xreplace(free)
    if plain.is_polynomial():
        return False
    # Radicals and quotients (d − √d, 1/d − 1): a non-zero value at one admissible
    # point proves the expression non-zero, exactly and much faster than simplify.
    if any(_nonzero_at(plain, seed) for seed in range(3)):
        return False
    try:
        return bool(simplify(e) == 0)
    except (StopIteration, RecursionError, TypeError):  # SymPy issue 14570 and friends
        return False


def _nonzero_at(expr: Expr, seed: int) -> bool:
    """Whether expr is certainly non-zero at a deterministic admissible rational point.

    Every symbol gets a positive rational (an integer for integer symbols), which
    satisfies the assumptions of dimensions, indices, means and standard deviations.
    """
    point = {}
    for n, s in enumerate(sorted(expr.free_symbols, key=str)):
        p = _PRIMES[(n + 5 * seed) % len(_PRIMES)]
        point[s] = Integer(p) if s.is_integer else Rational(p, _PRIMES[(n + seed) % 4])
    try:
        value = expr.xreplace(point).evalf(40)
    except (TypeError, ValueError, ZeroDivisionError):
        return False
    return bool(value.is_number and value.is_finite and abs(value) > 1e-25)


_PRIMES = (7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43)


def apply_hypotheses(expr: Expr, hyps: tuple[Hypothesis, ...], model: Model) -> Expr:
    """expr with every hypothesis substituted, in the order their ranks require."""
    for h in sorted(hyps, key=lambda h: h.rank):  # stable: equal ranks keep their order
        expr = h.apply(expr, model)
    return expr


def minimal_hypothesis_sets(
    residual: Expr, hypotheses: tuple[Hypothesis, ...], model: Model
) -> tuple[frozenset[Hypothesis], ...]:
    """Every inclusion-minimal subset of ``hypotheses`` under which ``residual`` is 0.

    Subsets are tried by increasing size and supersets of a found set are skipped,
    so the answer is the full list of minimal alternatives (often one).
    """
    found: list[frozenset[Hypothesis]] = []
    for size in range(len(hypotheses) + 1):
        for combo in combinations(hypotheses, size):
            s = frozenset(combo)
            if any(f <= s for f in found):
                continue
            if is_zero(apply_hypotheses(residual, combo, model)):
                found.append(s)
    return tuple(found)


def condition_on_means(residual: Expr, model: Model) -> tuple[dict[Symbol, Expr], ...]:
    """Values of the means for which ``residual`` vanishes for *every* variance and d.

    The coefficients of the residual as a polynomial in the standard deviations and
    the dimension must all vanish; solving those for the means gives the condition
    (a plain ``solve`` over all free symbols would return a useless root for a σ).
    An empty tuple means no choice of means repairs the step.
    """
    means = [f.mean for f in model.families]
    gens = [f.std for f in model.families] + [model.dim]
    gens = [g for g in gens if residual.has(g)]
    try:
        coeffs = Poly(residual, *gens).coeffs() if gens else [residual]
    except PolynomialError:
        return ()
    unknowns = [m for m in means if any(c.has(m) for c in coeffs)]
    if not unknowns or any(not c.has(*unknowns) for c in coeffs):
        return ()  # some coefficient vanishes for no choice of the means
    sols = solve(coeffs, unknowns, dict=True)
    return tuple(s for s in sols if s)


@dataclass(frozen=True)
class Step:
    """One link of a chain: this expression, and why it equals the previous one."""

    expr: Expr
    reason: str = ""


@dataclass(frozen=True)
class StepVerdict:
    """The checker's finding for ``lhs = rhs``.

    ``needs`` lists every minimal set of declared hypotheses under which the step
    holds (empty tuple: it fails; one empty set: it holds in general).  ``residual``
    is lhs − rhs in the Model with no hypothesis; ``residual_given`` is the same
    under all declared hypotheses.  When a side is random (no E/Var around it) the
    residual is the mean square E[(lhs − rhs)²], so "= 0" means equal almost surely.
    """

    lhs: Expr
    rhs: Expr
    reason: str
    status: Status
    needs: tuple[frozenset[Hypothesis], ...]
    residual: Expr
    residual_given: Expr
    mean_square: bool = False
    repair: tuple[dict[Symbol, Expr], ...] = ()

    @property
    def holds(self) -> bool:
        return self.status is not Status.FAILS

    @property
    def used(self) -> frozenset[Hypothesis]:
        """The first (smallest) minimal set; empty when the step fails or needs nothing."""
        return self.needs[0] if self.needs else frozenset()

    def _repr_latex_(self) -> str:
        from derivations.printing import repr_latex  # lazy: the printer imports this module

        return repr_latex(self)


def check_equality(
    lhs: Expr,
    rhs: Expr,
    model: Model,
    hypotheses: tuple[Hypothesis, ...] = (),
    reason: str = "",
) -> StepVerdict:
    """Check ``lhs = rhs`` in ``model``; see :class:`StepVerdict`."""
    for h in hypotheses:
        h.check_against(model)
    diff = evaluate(lhs, model) - evaluate(rhs, model)
    mean_square = is_random(diff, model)
    residual = _canonical(expectation(diff**2, model) if mean_square else diff)
    needs = minimal_hypothesis_sets(residual, hypotheses, model)
    given = _canonical(apply_hypotheses(residual, hypotheses, model))
    if needs and not needs[0]:
        status = Status.HOLDS
    elif needs:
        status = Status.HOLDS_GIVEN
    else:
        status = Status.FAILS
    repair = condition_on_means(given, model) if status is Status.FAILS else ()
    return StepVerdict(lhs, rhs, reason, status, needs, residual, given, mean_square, repair)


@dataclass(frozen=True)
class Derivation:
    """A titled chain of steps in a Model, under named hypotheses."""

    title: str
    model: Model
    hypotheses: tuple[Hypothesis, ...]
    steps: tuple[Step, ...]
    notes: str = field(default="", compare=False)

    def __post_init__(self) -> None:
        if len(self.steps) < 2:
            raise InvalidModel(f"derivation {self.title!r} needs at least two steps")
        for h in self.hypotheses:
            h.check_against(self.model)

    @property
    def conclusion(self) -> Eq:
        return Eq(self.steps[0].expr, self.steps[-1].expr, evaluate=False)

    def check(self) -> "DerivationVerdict":
        verdicts = tuple(
            check_equality(a.expr, b.expr, self.model, self.hypotheses, b.reason)
            for a, b in zip(self.steps, self.steps[1:])
        )
        overall = check_equality(
            self.steps[0].expr, self.steps[-1].expr, self.model, self.hypotheses, "conclusion"
        )
        return DerivationVerdict(self, verdicts, overall)

    def _repr_latex_(self) -> str:
        from derivations.printing import repr_latex  # lazy: the printer imports this module

        return repr_latex(self)


@dataclass(frozen=True)
class DerivationVerdict:
    derivation: Derivation
    steps: tuple[StepVerdict, ...]
    conclusion: StepVerdict

    @property
    def holds(self) -> bool:
        """Every step holds under the declared hypotheses (so the conclusion does too)."""
        return all(v.holds for v in self.steps)

    @property
    def used(self) -> frozenset[Hypothesis]:
        """Hypotheses some step actually used; a declared one missing here is not needed."""
        out: frozenset[Hypothesis] = frozenset()
        for v in self.steps:
            out |= v.used
        return out

    def _repr_latex_(self) -> str:
        from derivations.printing import repr_latex  # lazy: the printer imports this module

        return repr_latex(self)
