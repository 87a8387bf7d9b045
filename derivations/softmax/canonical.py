"""One canonical form for both sides of a softmax claim, so that a true claim's difference
is 0 as an expression in independent quantities.

The scores are not independent of the outputs: x_a = log y_a + log S with
S = Σ_k e^{x_k}, and e^{x_a} = y_a·S.  Every expression is rewritten in

* y_a (on the simplex: Σ_k y_k = 1), log y_a, t_a, g_a (free), S and log S — with x ↦ (y, S)
  one-to-one, these determine the scores, and S cancels from every function of
  softmax(x) alone;
* δ between indices, the length n, and sums Σ_k of one monomial in those.

Derivatives are evaluated first (:mod:`derivations.softmax.calculus`), the loss L is
−Σ_k t_k log y_k, every log is split (all its arguments are positive) and sums are
normalised (:mod:`derivations.softmax.sums`).

>>> from sympy import Derivative, log
>>> from derivations.softmax.symbols import i, j, x, y
>>> canonical(x[i] - x[j] - log(y[i]) + log(y[j]), n)
0
>>> canonical(Derivative(log(y[i]) ** 2, x[j]), n)
2*log(y[i])*KroneckerDelta(i, j) - 2*log(y[i])*y[j]
"""

from __future__ import annotations

from fractions import Fraction

from sympy import (
    Derivative,
    Expr,
    Float,
    Indexed,
    IndexedBase,
    Integer,
    KroneckerDelta,
    Rational,
    Sum,
    Symbol,
    exp,
    log,
)
from sympy.core.function import AppliedUndef, Function

from derivations.errors import UnsupportedExpression
from derivations.softmax.calculus import evaluate_derivatives
from derivations.softmax.sums import BOUND, bound_by_depth, normalize
from derivations.softmax.symbols import SUM_SYMBOL, L, g, k, n, t, x, y

__all__ = ["canonical", "decimal", "exp_in_y", "infer_length", "loss", "readable", "validate"]

_LETTERS = "kmlpqrsuvw"

_BASES = {"x": x, "y": y, "t": t, "g": g}


def decimal(f: float | Float) -> Rational:
    """The number as written: 0.1 is 1/10 (Python's Fraction reads the digits; no parser).

    >>> decimal(0.1), decimal(Float("2.5"))
    (1/10, 5/2)
    """
    fr = Fraction(str(f))
    return Rational(fr.numerator, fr.denominator)


def loss(length: Expr) -> Expr:
    """L = −Σ_k t_k log y_k, the cross-entropy of the conventions.

    >>> loss(n)
    -Sum(log(y[k])*t[k], (k, 1, n))
    """
    return -Sum(t[k] * log(y[k]), (k, 1, length))


def _own_bases(e: Expr) -> Expr:
    """IndexedBase x, y, t however the caller built them (assumptions, shape) → ours."""
    return e.replace(lambda a: isinstance(a, IndexedBase) and str(a.label) in _BASES and a not in _BASES.values(),
                     lambda a: _BASES[str(a.label)])


def infer_length(sides: tuple[Expr, ...], given: int | Expr | None) -> Expr:
    """The vector length: ``given`` (an int ≥ 1 or a symbol), else the upper limit every sum
    shares, else the symbol n.  Sums must run from 1 to it.

    >>> from sympy import Symbol
    >>> K = Symbol("K", integer=True, positive=True)
    >>> infer_length((Sum(y[k], (k, 1, K)),), None), infer_length((y[1],), 3)
    (K, 3)
    """
    if given is not None:
        if isinstance(given, bool) or not isinstance(given, (int, Integer, Symbol)) or (
                not isinstance(given, Symbol) and int(given) < 1):
            raise UnsupportedExpression(f"vector length n must be a positive integer or a symbol, got {given!r}")
        length: Expr = Integer(given) if isinstance(given, int) else given
    else:
        uppers = {lim[2] for s in sides for e in s.atoms(Sum) for lim in e.limits}
        if len(uppers) > 1:
            shown = ", ".join(sorted(map(str, uppers)))
            raise UnsupportedExpression(f"sums run to different upper limits ({shown}): one vector length please")
        length = uppers.pop() if uppers else n
        if not isinstance(length, (Symbol, Integer)) or (isinstance(length, Integer) and length < 1):
            raise UnsupportedExpression(f"sums run to {length}: the vector length is a symbol or an integer ≥ 1")
    for s in sides:
        for e in s.atoms(Sum):
            for var, lo, hi in e.limits:
                if lo != 1 or hi != length:
                    raise UnsupportedExpression(
                        f"{e}: sums run over the whole vector, {var} = 1..{length}")
    return length


def validate(e: Expr, length: Expr) -> None:
    """Reject what the conventions do not cover, naming the offending piece."""
    for a in sorted(e.atoms(Indexed), key=str):  # sorted: the first offender, every run
        if str(a.base.label) not in _BASES:
            raise UnsupportedExpression(f"unknown vector {a.base} (use x, y, t)")  # or g
        if len(a.indices) != 1:
            raise UnsupportedExpression(f"{a} has {len(a.indices)} indices, vectors have one")
        (idx,) = a.indices
        if idx.is_Integer:
            if idx < 1 or (length.is_Integer and idx > length):
                raise UnsupportedExpression(f"{a}: index out of range 1..{length}")
        elif not isinstance(idx, Symbol):
            raise UnsupportedExpression(f"{a}: an index is a letter or an integer, not {idx}")
    for d in e.atoms(KroneckerDelta):
        for idx in d.args:
            if not (isinstance(idx, Symbol) or (idx.is_Integer and idx >= 1)):
                raise UnsupportedExpression(f"{d}: an index is a letter or an integer ≥ 1, not {idx}")
    for f in e.atoms(Function):
        if isinstance(f, AppliedUndef) or not isinstance(f, (exp, log, KroneckerDelta)):
            raise UnsupportedExpression(f"{f}: only exp, log and δ are supported")
    indices = {s for a in e.atoms(Indexed) for s in a.indices} | {s for d in e.atoms(KroneckerDelta)
                                                                   for s in d.args}
    for s in e.free_symbols - indices - {length, L}:
        if s.is_real and not s.is_integer:
            continue  # a constant the caller declared real (softmax(x + c) = softmax(x))
        if not isinstance(s, Indexed) and not any(s in b.free_symbols for b in _BASES.values()):
            raise UnsupportedExpression(f"unknown symbol {s} (use x, y, t, indices, the length {length}, L)")


def exp_in_y(e: exp) -> Expr:
    """exp(c_0 + c_1 x_a + …) = e^{c_0} Π (y_a S)^{c_a}: y_a S is exp(x_a) by definition."""
    out: Expr = Integer(1)
    for term, coeff in e.args[0].expand().as_coefficients_dict().items():
        if term == 1:
            out *= exp(coeff)
        elif not term.has(Indexed) and term.is_real:  # e^{c}: a real constant stays as it is
            out *= exp(coeff * term)
        elif isinstance(term, Indexed) and term.base == x:
            out *= (y[term.indices[0]] * SUM_SYMBOL) ** coeff
        else:
            raise UnsupportedExpression(f"exp of {e.args[0]} is not a combination of scores x_a")
    return out


def _in_y(e: Expr) -> Expr:
    """e^{x_a} = y_a S and x_a = log y_a + log S (after the exponentials)."""
    e = e.replace(lambda u: isinstance(u, exp) and u.has(x), exp_in_y)
    return e.replace(lambda u: isinstance(u, Indexed) and u.base == x,
                     lambda u: log(y[u.indices[0]]) + log(SUM_SYMBOL))


def canonical(e: Expr, length: Expr) -> Expr:
    """``e`` in the canonical form of the module doc (sums over 1..``length``)."""
    e = _own_bases(e)
    e = e.xreplace({f: decimal(f) for f in e.atoms(Float)})  # 0.5 is 1/2, exactly
    validate(e, length)
    if e.has(L):
        e = e.xreplace({L: loss(length)})
    e = evaluate_derivatives(bound_by_depth(e))
    if e.has(Derivative):  # pragma: no cover - evaluate_derivatives leaves none
        raise UnsupportedExpression(f"a derivative was left in {e}")
    return normalize(_in_y(e))


def readable(e: Expr, length: Expr) -> Expr:
    """e for people: bound indices k, m, … (letters the expression does not use) and
    S = Σ_k e^{x_k} written out.

    >>> from derivations.softmax.symbols import i
    >>> readable(normalize(Sum(y[k] ** 2, (k, 1, n)) + y[i] * SUM_SYMBOL), n)
    y[i]*Sum(exp(x[k]), (k, 1, n)) + Sum(y[k]**2, (k, 1, n))
    """
    if not e.has(Sum, SUM_SYMBOL):
        return e
    used = {str(s) for s in e.free_symbols}
    letters = [Symbol(c, integer=True, positive=True) for c in _LETTERS if c not in used]
    sums = e.atoms(Sum)
    depth = len({v for s in sums for v in s.variables})
    inside = any(s.function.has(SUM_SYMBOL) for s in sums)
    e = e.xreplace(dict(zip(BOUND, letters)))
    v = letters[depth if inside else 0]  # inside a sum, a letter no depth took
    total = (sum(exp(x[m]) for m in range(1, int(length) + 1)) if length.is_Integer
             else Sum(exp(x[v]), (v, 1, length)))
    return e.xreplace({SUM_SYMBOL: total})
