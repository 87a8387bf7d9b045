"""Numeric evidence for a checked step: the one place where the numeric side joins verify.

Both sides of a moments step are estimated by Monte Carlo (``numeric.compare``) at a
concrete point (``numeric.point_for``):

* a step that holds as declared is estimated at a point satisfying the declared
  hypotheses — a *confirmation*, which must agree;
* a step that needs an undeclared hypothesis is estimated at a point satisfying
  the declared ones and violating the missing ones, and a failing step at a point
  satisfying the declared ones — a *counterexample*, where the sides must differ by
  many standard errors.

The test is two-sided at the per-check false-fail rate α, with an allowance for the
floating-point rounding of both sides (``rounding``: z counts only the gap beyond it);
``min_detectable`` is the smallest relative error it catches with probability
``power``.  A counterexample whose sample cannot resolve the exact difference at its
point is *inconclusive* (``consistent`` None, said in ``note``), not a contradiction;
where the difference is exactly 0 at the point (every law sampled is symmetric, the
step fails by a skewness) there is no counterexample to show.  Softmax steps have
no Monte Carlo side (they are identities of functions): both sides are evaluated at
seeded scores with derivatives by complex step (:func:`softmax_evidence`).

>>> from sympy import Integer
>>> from derivations import MeanIs, Var
>>> from derivations.lecture import LECTURE
>>> from attncheck.verify.errors import Location
>>> from attncheck.verify.result import Evidence, StepResult, StepStatus
>>> q = LECTURE.family("q").base
>>> from derivations import INDEX as i
>>> s = StepResult(1, Location("x"), Var(q[i]), Integer(1), "", StepStatus.NEEDS_UNDECLARED,
...                (frozenset({__import__("derivations").VarianceIs("q")}),), frozenset(),
...                Integer(0))
>>> e = attach_evidence(s, LECTURE, seed=1, max_seconds=0.2).evidence
>>> e.kind, e.agree, e.violated
('counterexample', False, ('Var(q_i) = 1',))
"""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
from sympy import (
    Add,
    Derivative,
    Expr,
    Float,
    Indexed,
    Integer,
    KroneckerDelta,
    Mul,
    Pow,
    Sum,
    Symbol,
    lambdify,
)
from sympy import exp as exp_
from sympy import log as log_
from sympy.core.function import AppliedUndef

from attncheck.verify.parse import VectorLiteral
from attncheck.verify.result import Evidence, StepResult, StepStatus
from derivations import Cov, DerivationError, E, Model, Var, evaluate
from numeric import Point, compare, compare_samples, point_for

__all__ = ["DIMENSION", "Evidence", "attach_evidence", "softmax_evidence", "without_evidence"]

#: The concrete dimension of the evidence points: large enough that a d versus √d
#: mistake is a factor 4, small enough that sampling is cheap.
DIMENSION = 16


def without_evidence(step: StepResult, note: str) -> StepResult:
    """``step`` with an Evidence that says why there is no estimate (agree is None)."""
    nan = math.nan
    kind = "confirmation" if step.status.ok else "counterexample"
    return replace(step, evidence=Evidence(kind, "", (), nan, nan, nan, nan, nan, None, 0, "",
                                           nan, nan, nan, None, note))


def _unroll(expr: Expr, model: Model) -> Expr:
    """Sums of E/Var/Cov terms written out at d = DIMENSION (Σ_i Var(q_i k_i) → 16 terms).

    The sampler estimates operators of concrete components; a sum of operators is
    16 of them — no symbolic identity is used, only the dimension is made concrete.
    """
    def expand_sum(s: Sum) -> Expr:
        (var, lo, hi), *rest = s.limits
        lo, hi = (x.subs(model.dim, DIMENSION) for x in (lo, hi))
        if rest or not (lo.is_Integer and hi.is_Integer) or hi - lo > DIMENSION:
            return s
        return Add(*(s.function.xreplace({var: Integer(n)}) for n in range(int(lo), int(hi) + 1)))

    return expr.replace(lambda e: isinstance(e, Sum) and e.function.has(E, Var, Cov), expand_sum)


def attach_evidence(step: StepResult, model: Model, *, seed: int | np.random.SeedSequence,
                    alpha: float = 1e-6, power: float = 0.999, detect: float = 0.05,
                    max_seconds: float = 1.0) -> StepResult:
    """``step`` with its numeric evidence (softmax steps are returned unchanged)."""
    if step.checker == "decimals" or any(isinstance(e, Expr) and e.has(VectorLiteral)
                                         for e in (step.lhs, step.rhs)):
        # rounded numbers are held to the places written; a matrix written out was judged
        # entry by entry, each entry by its own exact route: nothing one sample could add
        return step
    if step.checker in ("softmax", "calculus"):
        make = softmax_evidence if step.checker == "softmax" else calculus_evidence
        try:
            return replace(step, evidence=make(step, seed=seed))
        except (ValueError, ArithmeticError, TypeError) as exc:
            return without_evidence(step, f"no numeric value: {exc}")
    holds = step.status.ok
    kind = "confirmation" if holds else "counterexample"
    violate = tuple(sorted(step.undeclared, key=str)) if step.status is StepStatus.NEEDS_UNDECLARED else ()
    lhs, rhs = _unroll(step.lhs, model), _unroll(step.rhs, model)
    try:
        point = point_for(model, tuple(step.declared), violate, d=DIMENSION)
        gap = None if holds else _expected_gap(step, model, point)
        if gap is not None and gap == 0.0:
            return without_evidence(step, "no counterexample at this point: the sides are equal "
                                    f"at {point.describe()} (the residual vanishes for the laws sampled)")
        # Two random sides (q^⊤k = Σ_i q_i k_i) are equal as random variables when
        # their mean square difference is within rounding: a one-sided test.
        test = compare_samples if step.mean_square else compare
        c = test(lhs, rhs, point, seed=seed, alpha=alpha, power=power, detect=detect,
                 max_seconds=max_seconds)
    except (DerivationError, TypeError, ValueError, ArithmeticError) as exc:
        return without_evidence(step, f"no numeric estimate: {exc}")
    est = c.estimate
    consistent: bool | None = c.agree == holds
    note = ""
    if not holds and c.agree and gap is not None and abs(gap) <= c.resolution:
        # agreeing with a failing step is a contradiction only if the sample could see
        # the difference; below its resolution it is no evidence either way
        consistent = None
        note = (f"inconclusive: the difference at this point, {gap:.3g}, is within the "
                f"{c.resolution:.2g} this sample resolves")
    ev = Evidence(kind, point.describe(), tuple(map(str, violate)), est.value, est.se,
                  c.reference, c.z, c.critical, c.agree, est.units, est.design, alpha, power,
                  c.min_detectable, consistent, note, rounding=c.rounding)
    return replace(step, evidence=ev)


def _expected_gap(step: StepResult, model: Model, point: Point) -> float | None:
    """lhs − rhs at ``point`` from the exact engine (E[(lhs − rhs)²] for random sides),
    or None when the engine cannot evaluate it."""
    diff = E((step.lhs - step.rhs) ** 2) if step.mean_square else step.lhs - step.rhs
    try:
        return point.value(evaluate(diff, model))
    except (DerivationError, TypeError, ValueError, ArithmeticError):
        return None


# ---- softmax steps: both sides at concrete scores, derivatives by complex step ------------

#: Length of the evidence vector and the index pairs (i, j) tried: off-diagonal, diagonal,
#: and reversed, so a dropped δ_ij shows at i = j and a transposition at i ≠ j.
SOFTMAX_N = 5
INDEX_PAIRS = ((1, 2), (2, 2), (3, 1))
_H = 1e-30  # complex step: no subtraction, so h can be tiny; the error is O(h²)


def _softmax_value(e: Expr, xs: np.ndarray, ts: np.ndarray, idx: dict[Symbol, int]) -> complex:
    """e at scores xs, target ts and index values idx (complex so a step can pass through)."""
    from numeric.softmax import softmax

    ys = softmax(xs)
    if isinstance(e, Derivative):
        (var, count), = e.variable_count
        if count != 1 or not isinstance(var, Indexed):
            raise ValueError(f"{e}: only first derivatives by a component x_j")
        m = int(_softmax_value(var.indices[0], xs, ts, idx).real) - 1
        bumped = xs.astype(complex)
        bumped[m] += 1j * _H
        return complex(_softmax_value(e.expr, bumped, ts, idx).imag / _H)
    if isinstance(e, Indexed):
        a = int(_softmax_value(e.indices[0], xs, ts, idx).real) - 1
        values = {"y": ys, "x": xs, "t": ts}.get(str(e.base.label))
        if values is None:  # a letter the note never defined (its p_k beside y)
            raise ValueError(f"{e.base.label} has no value at a softmax point")
        if not 0 <= a < len(values):
            raise ValueError(f"{e} is past the {len(values)} entries of the softmax point")
        return complex(values[a])
    if isinstance(e, Symbol):
        if e.name == "L":  # the cross-entropy loss −Σ t_k log y_k
            return complex(-np.sum(ts * np.log(ys)))
        if e.name == "n":
            return complex(len(xs))
        if e in idx:
            return complex(idx[e])
        raise ValueError(f"{e} has no value at a softmax point")
    if isinstance(e, KroneckerDelta):
        u, v = (_softmax_value(w, xs, ts, idx) for w in e.args)
        return complex(u == v)
    if isinstance(e, Sum):
        (var, lo, hi), = e.limits
        lo_v, hi_v = (int(_softmax_value(v, xs, ts, idx).real) for v in (lo, hi))
        return sum((_softmax_value(e.function, xs, ts, {**idx, var: m})
                    for m in range(lo_v, hi_v + 1)), complex(0))
    if e.is_Number:
        return complex(e)
    args = [_softmax_value(a, xs, ts, idx) for a in e.args]
    if isinstance(e, Add):
        return sum(args, complex(0))
    if isinstance(e, Mul):
        out = complex(1)
        for v in args:
            out *= v
        return out
    if isinstance(e, Pow):
        return args[0] ** args[1]
    if isinstance(e, exp_):
        return complex(np.exp(args[0]))
    if isinstance(e, log_):
        return complex(np.log(args[0]))
    raise ValueError(f"{type(e).__name__} has no numeric value here")


def softmax_evidence(step: StepResult, *, seed: int | np.random.SeedSequence) -> Evidence:
    """Both sides at seeded scores x (n = 5) and a random target t, at each index pair.

    Derivatives come from the numeric softmax by complex step (no cancellation, error
    O(h²) with h = 1e-30), independently of the symbolic derivation.  The sides agree
    when they differ by at most 64·n·ε·(1 + |lhs| + |rhs|): n rounding errors of a sum of
    n terms, with a 64-fold margin; a real difference (a dropped δ_ij y_i) is O(0.1).
    """
    rng = np.random.default_rng(seed)
    xs, ts = rng.normal(size=SOFTMAX_N), rng.dirichlet(np.ones(SOFTMAX_N))
    from derivations.softmax import TARGET_SUMS_TO_ONE, i, j

    violated: tuple[str, ...] = ()
    if step.status is StepStatus.NEEDS_UNDECLARED and TARGET_SUMS_TO_ONE in step.undeclared:
        ts = ts * 1.5  # a counterexample: a target that does not sum to one
        violated = (str(TARGET_SUMS_TO_ONE),)
    holds = step.status.ok
    kind = "confirmation" if holds else "counterexample"
    worst: tuple[float, float, float, float, tuple[int, int]] = (0.0, 0.0, 0.0, 0.0, INDEX_PAIRS[0])
    for a, b in INDEX_PAIRS:
        idx = {i: a, j: b}
        lhs = float(_softmax_value(step.lhs, xs, ts, idx).real)
        rhs = float(_softmax_value(step.rhs, xs, ts, idx).real)
        tol = float(64 * SOFTMAX_N * np.finfo(float).eps * (1 + abs(lhs) + abs(rhs)))
        ratio = abs(lhs - rhs) / tol
        if ratio >= worst[0]:
            worst = (ratio, lhs, rhs, tol, (a, b))
    ratio, lhs, rhs, tol, (a, b) = worst
    agree = bool(ratio <= 1)
    point = (f"n={SOFTMAX_N} x={np.array2string(xs, precision=3)} "
             f"t={np.array2string(ts, precision=3)} i={a} j={b}")
    return Evidence(kind, point, violated, lhs, tol, rhs, ratio, 1.0, agree, len(INDEX_PAIRS),
                    "complex step", 0.0, 1.0, tol / max(1.0, abs(rhs)), agree == holds)


#: complex step: f'(x) = Im f(x + ih)/h has no subtraction, so h can be tiny (error O(h²))
_H = 1e-30


def calculus_evidence(step: StepResult, *, seed: int | np.random.SeedSequence) -> Evidence:
    """Both sides of a one-variable calculus step at a seeded point in (0.5, 2)^k, each
    derivative d f/dx computed by complex step from f itself — not from SymPy's derivative.

    The sides agree within 64·ε·(1 + |lhs| + |rhs|) (a few rounding errors, 64-fold margin).
    """
    rng = np.random.default_rng(seed)
    # u, v of a quotient rule (functions the note leaves general): the identity must hold
    # for every function, so it is tried on seeded ones, a·e^{bξ} + c with c > 0 (v ≠ 0)
    general = sorted({f for e in (step.lhs, step.rhs) for f in e.atoms(AppliedUndef)}, key=str)
    concrete = {f: Float(rng.uniform(0.5, 2.0)) * exp_(Float(rng.uniform(-1.0, 1.0)) * f.args[0])
                + Float(rng.uniform(1.0, 2.0)) for f in general if len(f.args) == 1}
    step = replace(step, lhs=step.lhs.xreplace(concrete), rhs=step.rhs.xreplace(concrete))
    both = step.lhs - step.rhs
    free = sorted(both.free_symbols | {v for d in both.atoms(Derivative) for v in d.variables},
                  key=str)
    at = {x: float(rng.uniform(0.5, 2.0)) for x in free}

    def value(e: Expr) -> float:
        def numeric(d: Derivative) -> Expr:
            (x, order), = d.variable_count
            if order != 1:
                raise ValueError("a derivative of order above 1")
            others = {y: v for y, v in at.items() if y != x}
            f = lambdify(x, d.expr.xreplace(others), "numpy")
            return Float(float(np.imag(f(at[x] + 1j * _H)) / _H))

        inner = e.replace(lambda d: isinstance(d, Derivative), numeric)
        return float(complex(inner.xreplace({x: Float(v) for x, v in at.items()}).evalf()).real)

    lhs, rhs = value(step.lhs), value(step.rhs)
    tol = float(64 * np.finfo(float).eps * (1 + abs(lhs) + abs(rhs)))
    holds = step.status.ok
    agree = bool(abs(lhs - rhs) <= tol)
    point = " ".join(f"{x}={v:.3f}" for x, v in at.items())
    return Evidence("confirmation" if holds else "counterexample", point, (), lhs, tol, rhs,
                    abs(lhs - rhs) / tol, 1.0, agree, 1, "complex step", 0.0, 1.0,
                    tol / max(1.0, abs(rhs)), agree == holds)
