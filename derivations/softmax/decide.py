"""Is a canonical residual zero?  Exactly, for every way the free indices can coincide.

**Symbolic length n.**  In one pattern of coincidences (i = j, i ≠ j, i = 1, …) the
distinct indices' y, log y and t, S, log S and every remaining sum Σ_k(monomial) are
treated as independent quantities: a residual that vanishes as a rational function of
them vanishes for every n (sufficient).  A residual that does not is refuted by a
counterexample at a concrete n = 1, 2, … (below); when none turns up the verdict says
"cannot decide" rather than guess.

**Concrete length m.**  Sums are written out and y_m = 1 − Σ_{k<m} y_k (t_m likewise,
when the target sums to one), so the remaining y_1..y_{m−1}, t, g, S are free coordinates.
Every log is split over the irreducible factors of its argument, log|p|, and log|c| of
a rational constant over its primes.  Logarithms of distinct irreducible polynomials are
algebraically independent over the rational functions (multiplicatively independent
functions have algebraically independent logarithms), so the residual is zero exactly
when it is zero as a rational function of the coordinates and those log atoms — the
test that makes log(1 − y_1) = log y_2 at m = 2 and sees through log y_a = x_a − log S.
A residual is refuted by a rational point where SymPy's ``evalf(strict=True)``
guarantees 30 correct digits of a nonzero value.

>>> from sympy import KroneckerDelta, log
>>> from derivations.softmax.symbols import i, j, n, y
>>> decide(KroneckerDelta(i, j) * y[i] - y[i] * KroneckerDelta(i, j), n).zero
True
>>> d = decide(KroneckerDelta(i, j) * y[i], n)       # a dropped δ_ij y_i
>>> d.zero, d.counterexample.n, d.counterexample.indices
(False, 2, ((i, 1), (j, 1)))
>>> decide(log(1 - y[1]) - log(y[2]), 2).zero       # y_2 = 1 − y_1
True
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from sympy import (
    Add,
    Dummy,
    Expr,
    Indexed,
    Integer,
    KroneckerDelta,
    Rational,
    Sum,
    Symbol,
    exp,
    expand,
    factor_list,
    factorint,
    fraction,
    log,
    nan,
    together,
    zoo,
)
from sympy.core.evalf import PrecisionExhausted
from sympy.polys.polyerrors import PolynomialError

from derivations.softmax.sums import BOUND
from derivations.softmax.symbols import SUM_SYMBOL, g, t, y

__all__ = [
    "Counterexample",
    "Decision",
    "decide",
    "exact_zero",
    "free_indices",
    "integer_indices",
    "nonzero_value",
]

#: Counterexamples are sought at n = first .. first + _SPAN − 1.
_SPAN = 5
_DIGITS = 30
_PROBES = 3


@dataclass(frozen=True)
class Counterexample:
    """Where a residual is nonzero: the length, the index values, the residual there
    (y_n and, for a target summing to one, t_n eliminated) and a point with its value."""

    n: int
    indices: tuple[tuple[Symbol, int], ...]
    residual: Expr
    point: tuple[tuple[Expr, Rational], ...]
    value: float


@dataclass(frozen=True)
class Decision:
    """``zero``: True (proved), False (refuted: see ``counterexample``), None (cannot decide)."""

    zero: bool | None
    counterexample: Counterexample | None = None


def free_indices(e: Expr) -> tuple[Symbol, ...]:
    """The index letters of ``e`` that no sum binds, in a fixed order."""
    idx = {s for a in e.atoms(Indexed) for s in a.indices} | {s for d in e.atoms(KroneckerDelta)
                                                               for s in d.args}
    return tuple(sorted((s for s in idx if isinstance(s, Symbol) and s in e.free_symbols), key=str))


def integer_indices(e: Expr) -> tuple[int, ...]:
    idx = {s for a in e.atoms(Indexed) for s in a.indices} | {s for d in e.atoms(KroneckerDelta)
                                                               for s in d.args}
    return tuple(sorted(int(s) for s in idx if s.is_Integer))


#: Where a free index goes in one case: onto an integer index of the claim, or into a
#: block of free indices that are equal to each other and to nothing else.
_Slot = tuple[str, int]


def _patterns(free: tuple[Symbol, ...], consts: tuple[int, ...]) -> list[dict[Symbol, _Slot]]:
    """Every way the free indices can coincide with each other and with the integer
    indices: restricted growth strings over the fresh blocks."""
    out: list[dict[Symbol, _Slot]] = [{}]
    for s in free:
        grown: list[dict[Symbol, _Slot]] = []
        for p in out:
            blocks = [v[1] for v in p.values() if v[0] == "fresh"]
            options = [("const", c) for c in consts]
            options += [("fresh", b) for b in range(max(blocks, default=-1) + 2)]
            grown += [{**p, s: o} for o in options]
        out = grown
    return out


def _atoms_free(e: Expr) -> Expr:
    """Sums and logs as independent symbols (the same expression, the same symbol)."""
    return e.xreplace({a: Dummy() for a in e.atoms(Sum, log)})


def _rational_zero(e: Expr) -> bool:
    if expand(e) == 0:
        return True
    return expand(fraction(together(e))[0]) == 0


def _generic_zero(e: Expr) -> bool:
    free = free_indices(e)
    for pattern in _patterns(free, integer_indices(e)):
        firsts: dict[int, Symbol] = {}
        rep: dict[Symbol, Expr] = {}
        for s, (kind, v) in pattern.items():
            rep[s] = Integer(v) if kind == "const" else firsts.setdefault(v, s)
        u = e.xreplace(rep)
        # a δ left between two free letters compares different blocks in this pattern
        u = u.replace(lambda d: isinstance(d, KroneckerDelta) and not (set(d.args) & set(BOUND)),
                      lambda d: Integer(d.args[0] == d.args[1]))
        if not _rational_zero(_atoms_free(u)):
            return False
    return True


def _on_simplex(e: Expr, m: int, target_sums_to_one: bool) -> Expr:
    last = {y[m]: 1 - Add(*[y[a] for a in range(1, m)])}
    if target_sums_to_one:
        last[t[m]] = 1 - Add(*[t[a] for a in range(1, m)])
    return e.xreplace(last)


def _concrete(e: Expr, length: Expr, m: int, values: dict[Symbol, int], target_sums_to_one: bool) -> Expr:
    u = e.xreplace({length: Integer(m)}) if isinstance(length, Symbol) else e
    u = u.xreplace({s: Integer(v) for s, v in values.items()}).doit()
    return _on_simplex(u, m, target_sums_to_one)


def _log_atoms(e: Expr) -> Expr | None:
    """Each log(arg) as log|c| (over primes) + Σ e·log|p| over irreducible factors p;
    None when an argument is not a rational function of the coordinates."""
    names: dict[Expr, Dummy] = {}

    def atom(p: Expr) -> Expr:
        key = expand(p)
        return names[-key] if -key in names else names.setdefault(key, Dummy())

    def const(c: Rational) -> Expr:
        num = Add(*[m * atom(Integer(q)) for q, m in factorint(abs(c.p)).items()])
        return num - Add(*[m * atom(Integer(q)) for q, m in factorint(c.q).items()])

    mapping: dict[Expr, Expr] = {}
    for lg in e.atoms(log):
        arg = together(lg.args[0])
        if arg.has(log, Sum, exp):
            return None
        out: Expr = Integer(0)
        for part, sign in zip(fraction(arg), (1, -1)):
            try:
                c, facs = factor_list(expand(part))
            except PolynomialError:
                return None
            if not (isinstance(c, Rational) and c != 0):
                return None
            out += sign * (const(c) + Add(*[m * atom(p) for p, m in facs]))
        mapping[lg] = out
    return e.xreplace(mapping)


def exact_zero(e: Expr) -> bool | None:
    """Whether e, a function of free coordinates and logs of rational functions of them,
    is identically zero (None: it has other pieces, e.g. a log of a log)."""
    u = _log_atoms(e)
    if u is None or u.has(Sum, log):
        return None
    return _rational_zero(u)


def _point(u: Expr, m: int, rng: random.Random, target_sums_to_one: bool) -> dict[Expr, Rational]:
    weights = [rng.randint(1, 97) for _ in range(m)]
    point: dict[Expr, Rational] = {y[a]: Rational(weights[a - 1], sum(weights)) for a in range(1, m)}
    if target_sums_to_one:
        tw = [rng.randint(1, 97) for _ in range(m)]
        point |= {t[a]: Rational(tw[a - 1], sum(tw)) for a in range(1, m)}
    else:
        point |= {t[a]: Rational(rng.randint(1, 97), 97) for a in range(1, m + 1)}
    point[SUM_SYMBOL] = Rational(rng.randint(1, 97), 13)
    # g is free: any values refute; positive ones keep a log of g defined (drawn last, so
    # the points of steps without g are as they were)
    point |= {g[a]: Rational(rng.randint(1, 97), 29) for a in range(1, m + 1)}
    return {c: v for c, v in point.items() if u.has(c)}


def nonzero_value(u: Expr, point: dict[Expr, Rational]) -> float | None:
    """u's value at the point when it is certainly nonzero (30 guaranteed digits), else None.

    >>> nonzero_value(log(y[1]) + 1, {y[1]: Rational(1, 2)}), nonzero_value(log(y[1]), {y[1]: 1})
    (0.3068528194400547, None)
    """
    v = u.xreplace(point)
    if v.has(zoo, nan):
        return None  # undefined there (a log of 0 under a one-hot target): no evidence
    try:
        value = v.evalf(_DIGITS, strict=True)
    except PrecisionExhausted:
        return None  # zero to 30 digits: zero, or too close to tell
    return float(value) if value.is_number and value != 0 else None


def _probe(u: Expr, m: int, rng: random.Random, target_sums_to_one: bool
           ) -> tuple[dict[Expr, Rational], float] | None:
    """A point where u is certainly nonzero, if one of a few random ones is."""
    for _ in range(_PROBES):
        point = _point(u, m, rng, target_sums_to_one)
        value = nonzero_value(u, point)
        if value is not None:
            return point, value
    return None


def _feasible(pattern: dict[Symbol, _Slot], m: int, consts: tuple[int, ...]
              ) -> dict[Symbol, int] | None:
    """One assignment of the pattern at length m (softmax is symmetric under permuting
    coordinates: fresh blocks take the smallest values no integer index uses)."""
    spare = [v for v in range(1, m + 1) if v not in consts]
    fresh = [v[1] for v in pattern.values() if v[0] == "fresh"]
    if max(fresh, default=-1) >= len(spare) or any(c > m for c in consts):
        return None
    return {s: (v[1] if v[0] == "const" else spare[v[1]]) for s, v in pattern.items()}


def _at_length(e: Expr, length: Expr, m: int, target_sums_to_one: bool, prove: bool
               ) -> Decision:
    """Decide e at the concrete length m over every pattern (``prove``: also prove zero)."""
    rng = random.Random(m)
    free, consts = free_indices(e), integer_indices(e)
    undecided = False
    for pattern in _patterns(free, consts):
        values = _feasible(pattern, m, consts)
        if values is None:
            continue
        u = _concrete(e, length, m, values, target_sums_to_one)
        if u == 0:
            continue
        found = _probe(u, m, rng, target_sums_to_one)
        if found is not None:
            point, value = found
            return Decision(False, Counterexample(m, tuple(sorted(values.items(), key=lambda kv: str(kv[0]))),
                                                  expand(u), tuple(point.items()), value))
        if prove and not exact_zero(u):
            undecided = True
    return Decision(None if undecided or not prove else True)


def decide(e: Expr, length: Expr | int, *, target_sums_to_one: bool = False, refute: bool = True) -> Decision:
    """Decide ``e`` = 0 for the symbolic or concrete ``length`` (see the module doc).

    ``refute=False`` only asks whether e is proved zero (no counterexample search for a
    symbolic length), as the search for minimal hypotheses needs.
    """
    if isinstance(length, int) or length.is_Integer:
        return _at_length(e, Integer(length), int(length), target_sums_to_one, prove=True)
    if _generic_zero(e):
        return Decision(True)
    if not refute:
        return Decision(None)
    first = max((1, *integer_indices(e)))
    # n = 1 last: a counterexample with two coordinates says more than y_1 = 1
    lengths = [*range(max(2, first), first + _SPAN + len(free_indices(e))), *([1] if first == 1 else [])]
    for m in lengths:
        d = _at_length(e, length, m, target_sums_to_one, prove=False)
        if d.zero is False:
            return d
    return Decision(None)
