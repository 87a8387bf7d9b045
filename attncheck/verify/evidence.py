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
from collections.abc import Iterable
from dataclasses import replace

import numpy as np
from sympy import (
    Add,
    Derivative,
    Expr,
    Float,
    Indexed,
    IndexedBase,
    Integer,
    KroneckerDelta,
    Mul,
    Pow,
    Rational,
    S,
    Sum,
    Symbol,
    lambdify,
)
from sympy import exp as exp_
from sympy import log as log_
from sympy.core.function import AppliedUndef

from attncheck.verify.parse import LENGTH, SOFTMAX_BASES, VectorLiteral, matrix_entries
from attncheck.verify.result import Evidence, StepResult, StepStatus
from derivations import Cov, DerivationError, E, Hypothesis, Model, Var, evaluate
from numeric import Point, compare, compare_samples, point_for

__all__ = ["DIMENSION", "Evidence", "attach_evidence", "counted_length", "free_vectors",
           "given_parameters", "letters_as_lengths", "softmax_evidence",
           "without_evidence", "written_length"]

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
    if step.checker in ("decimals", "example") or any(
            isinstance(e, Expr) and e.has(VectorLiteral) for e in (step.lhs, step.rhs)):
        # rounded numbers are held to the places written; a matrix written out was judged
        # entry by entry, each entry by its own exact route; a step true at the note's own
        # d_k = 64 is exact arithmetic there (the sample's d is another): nothing one sample
        # could add
        return step
    if step.checker in ("softmax", "calculus"):
        make = softmax_evidence if step.checker == "softmax" else calculus_evidence
        lhs, rhs = matrix_entries(step.lhs, step.rhs)  # diag(y) − y yᵀ at its (i, j) entries
        try:
            at = replace(step, lhs=lhs, rhs=rhs)
            if step.checker == "softmax":  # calculus evidence draws every variable itself
                at = _pinned(at, model)
            return replace(step, evidence=make(at, seed=seed))
        except (ValueError, ArithmeticError, TypeError) as exc:
            return without_evidence(step, f"no numeric value: {exc}")
    holds = step.status.ok
    kind = "confirmation" if holds else "counterexample"
    original, step = step, _pinned(step, model)
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
    return replace(original, evidence=ev)


#: The value a note's own parameter (σ in N(0, σ²), a constant c) takes in a sample: not 1,
#: where a dropped power (σ⁴ written for σ²) would go unseen, and exact, so both sides get
#: the same.
PARAMETER_VALUE = Rational(13, 10)


def given_parameters(hyps: Iterable[Hypothesis]) -> set[Symbol]:
    """Letters the hypotheses give as values (μ in E(q_i) = μ): the note's parameters, real
    or not."""
    return {x for h in hyps for x in getattr(h, "value", S.Zero).free_symbols
            if isinstance(x, Symbol)}


def _pinned(step: StepResult, model: Model) -> StepResult:
    """``step`` with the note's own parameters (σ, a constant c: real symbols that are not
    the model's) at :data:`PARAMETER_VALUE`, in its sides and its hypotheses alike."""
    # the model's own symbols stay: its parameters, d, and scalar random variables (X)
    known = set(model.parameters()) | {model.dim} | {f.symbol for f in model.families if f.scalar}
    hyps = step.declared.union(*step.needs)
    values = [e for e in (step.lhs, step.rhs) if isinstance(e, Expr)] + \
        [h.value for h in hyps if isinstance(getattr(h, "value", None), Expr)]
    given = given_parameters(hyps)
    pins = {x: PARAMETER_VALUE for e in values for x in e.free_symbols
            if isinstance(x, Symbol) and (x.is_real or x in given) and not x.is_integer
            and x not in known}
    if not pins:
        return step

    def pin(h: Hypothesis) -> Hypothesis:
        value = getattr(h, "value", None)
        return replace(h, value=value.xreplace(pins)) if isinstance(value, Expr) else h  # type: ignore[call-arg]

    return replace(step, lhs=step.lhs.xreplace(pins), rhs=step.rhs.xreplace(pins),
                   declared=frozenset(map(pin, step.declared)),
                   needs=tuple(frozenset(map(pin, s)) for s in step.needs))


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
#: k beside them (a class named by a letter): apart from both, equal to both, equal to j
INDEX_K = (3, 2, 1)
_H = 1e-30  # complex step: no subtraction, so h can be tiny; the error is O(h²)


def _softmax_value(e: Expr, xs: np.ndarray, ts: np.ndarray, idx: dict[Symbol, int],
                   ys: np.ndarray | None = None, gs: np.ndarray | None = None) -> complex:
    """e at scores xs, target ts and index values idx (complex so a step can pass through).

    ``ys`` is softmax(xs) unless given: ∂L/∂y_j takes the outputs as the variables, so a
    derivative by y_j moves y_j alone (the scores stay), one by x_j moves the scores.
    ``gs`` are the values of a vector the note never defined (its upstream gradient), which
    the symbolic check took as free (no score moves it)."""
    from numeric.softmax import softmax

    if ys is None:
        ys = softmax(xs)
    if isinstance(e, Derivative):
        (var, count), = e.variable_count
        label = str(var.base.label) if isinstance(var, Indexed) else ""
        if count != 1 or label not in ("x", "y", "t", "W", "bias"):
            raise ValueError(f"{e}: only first derivatives by a component x_j, y_j or t_j")
        # (a weight W_kd moves the score of its row k; x, y, t have the one index)
        m = int(_softmax_value(var.indices[0 if label in ("W", "bias") else -1], xs, ts, idx,
                               ys, gs).real) - 1
        if not 0 <= m < len(xs):
            raise ValueError(f"{var} is past the {len(xs)} entries of the softmax point")
        if label in ("W", "bias"):
            # the note's layer x_k = Σ_d W_kd h_d + bias_k (h: the free vector's values):
            # W_kd moves the score x_k by h_d, bias_k by 1 — the complex step through it
            rate = 1.0
            if label == "W":
                if gs is None:
                    raise ValueError(f"{e}: the layer's input has no values here")
                d = int(_softmax_value(var.indices[1], xs, ts, idx, ys, gs).real) - 1
                if not 0 <= d < len(gs):
                    raise ValueError(f"{var} is past the {len(gs)} entries of the layer's input")
                rate = float(gs[d])
            moved = xs.astype(complex)
            moved[m] += 1j * _H * rate
            return complex(_softmax_value(e.expr, moved, ts, idx, gs=gs).imag / _H)
        moved = {"x": xs, "y": ys, "t": ts}[label].astype(complex)
        moved[m] += 1j * _H
        if label == "x":
            return complex(_softmax_value(e.expr, moved, ts, idx, gs=gs).imag / _H)
        if label == "y":
            return complex(_softmax_value(e.expr, xs, ts, idx, moved, gs).imag / _H)
        return complex(_softmax_value(e.expr, xs, moved, idx, ys, gs).imag / _H)
    if isinstance(e, Indexed):
        # A_{ic}: one row (sample i) of a matrix, as the symbolic check reads it — the class
        # is the index that counts
        a = int(_softmax_value(e.indices[-1], xs, ts, idx, ys, gs).real) - 1
        values = {"y": ys, "x": xs, "t": ts}.get(str(e.base.label), gs)
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
        u, v = (_softmax_value(w, xs, ts, idx, ys, gs) for w in e.args)
        return complex(u == v)
    if isinstance(e, Sum):
        (var, lo, hi), = e.limits
        # a sum to the note's own name for the length (m, C, K) runs over the whole vector
        lo_v, hi_v = (len(xs) if v is hi and isinstance(v, Symbol) and v not in idx
                      else int(_softmax_value(v, xs, ts, idx, ys, gs).real) for v in (lo, hi))
        return sum((_softmax_value(e.function, xs, ts, {**idx, var: m}, ys, gs)
                    for m in range(lo_v, hi_v + 1)), complex(0))
    if e.is_Number:
        return complex(e)
    args = [_softmax_value(a, xs, ts, idx, ys, gs) for a in e.args]
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


def written_length(lhs: Expr, rhs: Expr) -> int | None:
    """The vector length a step fixes by writing every term out (e^{z_1}+e^{z_2}+e^{z_3}: 3).

    A step whose indices are all numbers and that writes no Σ is about a concrete vector;
    one with an index letter or a Σ holds for every length n."""
    both = lhs - rhs
    if both.has(Sum) or both.has(LENGTH):
        return None
    idx = [a for x in both.atoms(Indexed) if str(x.base.label) in SOFTMAX_BASES
           for a in x.indices]
    if not idx or not all(a.is_Integer for a in idx):
        return None
    # a sum written out inside a side (not the difference of the two sides, which is always
    # one): its terms run over entries 1, 2, …, m of one vector — t_1 y_1 − t_1 runs over
    # nothing, and says no more of the length than y_1 y_2 alone
    if not any(_runs_over_entries(a) for side in (lhs, rhs) for a in side.atoms(Add)):
        return None
    return max(int(a) for a in idx)


def _runs_over_entries(total: Add) -> bool:
    """Whether the terms of ``total`` hold entries 1..m (m ≥ 2) of one softmax vector, one
    entry per term at least (e^{z_1} + e^{z_2} + e^{z_3}, y_1 + y_2)."""
    seen: dict[str, set[int]] = {}
    for term in total.args:
        for x in term.atoms(Indexed):
            if str(x.base.label) in SOFTMAX_BASES and len(x.indices) == 1 and \
                    x.indices[0].is_Integer:
                seen.setdefault(str(x.base.label), set()).add(int(x.indices[0]))
    return any(len(v) >= 2 and v == set(range(1, max(v) + 1)) for v in seen.values())


def free_vectors(lhs: Expr, rhs: Expr) -> tuple[set[str], set[str]]:
    """Vectors of a softmax step other than y, x, t: (free, touched).  Free ones no
    derivative of the step touches (grad_i in Σ_i J_ij grad_i): checked as free numbers, a
    claim true for every value of them is true of the note's.  A touched one (∂w_i/∂x_j)
    may depend on the scores in a way the note said and verify did not read.

    >>> from sympy import IndexedBase, Derivative
    >>> from derivations.softmax import i, j, x, y
    >>> g, w = IndexedBase("grad"), IndexedBase("w")
    >>> free_vectors(y[i] * g[i], Derivative(w[i], x[j]))
    ({'grad'}, {'w'})
    """
    # (each side's own atoms: the same h_j on both sides cancels in lhs − rhs, not in either)
    names = {str(a.base.label) for e in (lhs, rhs) for a in e.atoms(Indexed)} - \
        set(SOFTMAX_BASES) - {"W", "bias"}  # they move the scores (notation.linear_layer)
    moved = {str(a.base.label) for e in (lhs, rhs) for d in e.atoms(Derivative)
             for a in d.atoms(Indexed)}  # its expression or its variable
    return names - moved, names & moved


def counted_length(lhs: Expr, rhs: Expr) -> int | None:
    """The number of classes a step's sums give when one sum runs to a number and the others
    to a letter (L = −Σ_{i=1}^{3} … beside Σ_j^K, or an open Σ_{k≠i}): they all run over
    those classes, as the note means.

    >>> from sympy import Sum, Symbol
    >>> from derivations.softmax import k, y
    >>> K = Symbol("K", integer=True, positive=True)
    >>> counted_length(Sum(y[k], (k, 1, 3)), Sum(y[k], (k, 1, K))), counted_length(y[k], y[k])
    (3, None)
    """
    uppers = {lim[2] for e in (lhs, rhs) for s in e.atoms(Sum) for lim in s.limits}
    counts = {u for u in uppers if u.is_Integer}
    if len(counts) != 1 or not uppers - counts or \
            not all(isinstance(u, Symbol) for u in uppers - counts):
        return None
    (count,) = counts
    return int(count) if count > 1 else None


def letters_as_lengths(*sides: Expr) -> set[Symbol]:
    """Index letters that stand only as the upper limit of sums (Σ^k_{j=1} e^{z_j}, where k
    counts the classes): there they are the vector's length, not an index."""
    uppers = {s.limits[0][2] for e in sides for s in e.atoms(Sum)
              if isinstance(s.limits[0][2], Symbol)}
    if not uppers:
        return set()
    outside = set().union(*(e.replace(lambda x: isinstance(x, Sum),
                                      lambda x: x.function).free_symbols for e in sides))
    return {u for u in uppers if u not in outside}


def softmax_evidence(step: StepResult, *, seed: int | np.random.SeedSequence) -> Evidence:
    """Both sides at seeded scores x (n = 5) and a random target t, at each index pair.

    Derivatives come from the numeric softmax by complex step (no cancellation, error
    O(h²) with h = 1e-30), independently of the symbolic derivation.  The sides agree
    when they differ by at most 64·n·ε·(1 + |lhs| + |rhs|): n rounding errors of a sum of
    n terms, with a 64-fold margin; a real difference (a dropped δ_ij y_i) is O(0.1).
    """
    rng = np.random.default_rng(seed)
    # a worked example written out over its entries (e^{z_1} + e^{z_2} + e^{z_3}) is about
    # a vector of that length, as the symbolic check took it
    size = written_length(step.lhs, step.rhs) or counted_length(step.lhs, step.rhs) or SOFTMAX_N
    # Σ^k_{j=1} with k nowhere else: k counts the entries here, as it did symbolically
    lengths = letters_as_lengths(step.lhs, step.rhs)
    if lengths:
        whole = {u: Symbol("n") for u in lengths}
        step = replace(step, lhs=step.lhs.xreplace(whole), rhs=step.rhs.xreplace(whole))
    xs, ts = rng.normal(size=size), rng.dirichlet(np.ones(size))
    if any(a.has(IndexedBase("x")) for side in (step.lhs, step.rhs) for a in side.atoms(log_)):
        # log x_k of the scores themselves (a note whose ŷ was read as the scores): the
        # complex step needs them positive, off log's branch cut
        xs = np.abs(xs) + 0.5
    # a vector the note never defined was checked as free (holds for every value): any
    # values confirm it — drawn after x and t so that their draws stay as they were
    # (and the input h of a layer whose weights a derivative moves: their rate, x_k by h_d)
    layered = any(isinstance(v, Indexed) and str(v.base.label) == "W"
                  for side in (step.lhs, step.rhs) for d in side.atoms(Derivative)
                  for v, _ in d.variable_count)
    gs = rng.normal(size=size) if free_vectors(step.lhs, step.rhs)[0] or layered else None
    from derivations.softmax import TARGET_SUMS_TO_ONE, OneHotTarget, i, j, k

    violated: tuple[str, ...] = ()
    if step.status is StepStatus.NEEDS_UNDECLARED and TARGET_SUMS_TO_ONE in step.undeclared:
        ts = ts * 1.5  # a counterexample: a target that does not sum to one
        violated = (str(TARGET_SUMS_TO_ONE),)
    holds = step.status.ok
    kind = "confirmation" if holds else "counterexample"
    worst: tuple[float, float, float, float, tuple[int, int, int], np.ndarray] = (
        0.0, 0.0, 0.0, 0.0, INDEX_PAIRS[0] + INDEX_K[:1], ts)
    # a step that holds given a one-hot label is tried with one: at the class the case
    # fixed (j ≠ k made k = 3), or at the value the letter takes at each index triple
    fixed = dict(step.case)
    classes = [fixed.get(h.label, h.label) for h in step.used | step.declared
               if isinstance(h, OneHotTarget)]
    triples = [(a, b, c) for (a, b), c in zip(INDEX_PAIRS, INDEX_K) if max(a, b, c) <= size]
    # index letters other than i, j, k (w_{il}, x_d): each its own value, moving with the rest
    # (a derivative's variable W_{il} counts: SymPy calls its l bound where L's Σ_i is)
    others = sorted({s for side in (step.lhs, step.rhs)
                     for s in side.free_symbols | {u for a in side.atoms(Indexed)
                                                   for u in a.free_symbols}
                     if s.is_integer and isinstance(s, Symbol) and s not in (i, j, k)
                     and s.name not in ("n",)}, key=str) if layered else []
    for a, b, c in triples or [(1, 1, 1)]:
        idx = {i: a, j: b, k: c}
        idx.update({u: (a + b + c + m) % size + 1 for m, u in enumerate(others)})
        if classes:
            # the note's class letter (t_k = δ_kc said once for the whole note): a class of
            # its own at each triple, the same on both sides and in the label
            idx.update({u: (a + b + c) % size + 1 for u in classes[0].free_symbols
                        if isinstance(u, Symbol) and u not in idx})
            label = int(_softmax_value(classes[0], xs, ts, idx, gs=gs).real)
            if not 1 <= label <= size:
                raise ValueError(f"the class {label} is past the {size} entries")
            ts = np.eye(size)[label - 1]
        lhs = float(_softmax_value(step.lhs, xs, ts, idx, gs=gs).real)
        rhs = float(_softmax_value(step.rhs, xs, ts, idx, gs=gs).real)
        tol = float(64 * SOFTMAX_N * np.finfo(float).eps * (1 + abs(lhs) + abs(rhs)))
        ratio = abs(lhs - rhs) / tol
        if ratio >= worst[0]:
            worst = (ratio, lhs, rhs, tol, (a, b, c), ts)
    ratio, lhs, rhs, tol, (a, b, c), ts = worst
    agree = bool(ratio <= 1)
    point = (f"n={size} x={np.array2string(xs, precision=3)} "
             f"t={np.array2string(ts, precision=3)} i={a} j={b} k={c}")
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
    # x_1, x_2 of a note's own chain of variables: each entry a plain variable, as judged
    plain = {x: Symbol(f"{x.base.label}_{'_'.join(map(str, x.indices))}")
             for e in (step.lhs, step.rhs) for x in e.atoms(Indexed)}
    step = replace(step, lhs=step.lhs.xreplace(concrete).xreplace(plain),
                   rhs=step.rhs.xreplace(concrete).xreplace(plain))
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
