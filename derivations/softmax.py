"""Softmax for a symbolic length n: its Jacobian and the cross-entropy gradient, derived by
SymPy from the definition, and a checker for lecture steps written in these terms.

Conventions (what :func:`check_softmax_equality` accepts — a parser should build exactly this)
------------------------------------------------------------------------------------------------
* ``x = IndexedBase("x")``: the scores; ``y = IndexedBase("y")``: y = softmax(x), i.e.
  ``y[a]`` stands for exp(x_a) / Σ_{k=1}^{n} exp(x_k); ``t = IndexedBase("t")``: the target,
  a probability vector (t_k ≥ 0, Σ_k t_k = 1; a one-hot target is a special case).
* Free indices are the symbols :data:`i` and :data:`j` (``Symbol("i", integer=True,
  positive=True)``, likewise j).  Every free index lies in 1..n; distinct index symbols may
  be equal or not (``KroneckerDelta(i, j)`` tells them apart).
* Sums are ``Sum(expr, (k, 1, n))`` over the bound index :data:`k` (``Symbol("k",
  integer=True, positive=True)``) with the vector length :data:`n` (``Symbol("n",
  integer=True, positive=True)``) as upper limit — or the concrete ``n`` passed in.
* Derivatives are unevaluated ``Derivative(y[i], x[j])`` (∂y_i/∂x_j) and
  ``Derivative(L, x[i])`` (∂L/∂x_i) with :data:`L` ``= Symbol("L")`` the cross-entropy
  loss L = −Σ_k t_k log y_k.  The checker replaces them by what SymPy derives from the
  definitions (:func:`jacobian_entry`, :func:`cross_entropy_gradient`), never by a typed-in
  formula.
* ``exp(x[a])`` and ``log(y[a])`` may appear too; anything else (another function, a
  second derivative, an index other than i, j, k) is rejected with
  :class:`~derivations.errors.UnsupportedExpression`.

Both sides are rewritten in y (and t) only; the claim holds when the difference vanishes
for every y in the open simplex (Σ_k y_k = 1, y_k > 0) and every probability target.

>>> from sympy import Derivative, KroneckerDelta
>>> jacobian_entry()
KroneckerDelta(i, j)*y[i] - y[i]*y[j]
>>> check_softmax_equality(Derivative(y[i], x[j]), y[i] * (KroneckerDelta(i, j) - y[j])).status
<Status.HOLDS: 'holds in general'>
>>> v = check_softmax_equality(Derivative(y[i], x[j]), -y[i] * y[j])   # δ_ij dropped
>>> v.status, v.residual
(<Status.FAILS: 'fails'>, KroneckerDelta(i, j)*y[i])
>>> check_softmax_equality(Derivative(L, x[i]), y[i] - t[i]).status
<Status.HOLDS: 'holds in general'>
"""

from __future__ import annotations

from functools import lru_cache
from itertools import product

from sympy import (
    Add,
    Derivative,
    Dummy,
    Expr,
    Indexed,
    IndexedBase,
    Integer,
    KroneckerDelta,
    Mul,
    Piecewise,
    Pow,
    Sum,
    Symbol,
    diff,
    exp,
    expand,
    expand_log,
    log,
)
from sympy.core.function import Function
from sympy.logic.boolalg import And, BooleanTrue
from sympy.core.relational import Relational

from derivations.checking import Status, StepVerdict
from derivations.errors import UnsupportedExpression
from derivations.hypotheses import INDEX

__all__ = [
    "SUM_SYMBOL",
    "L",
    "check_softmax_equality",
    "cross_entropy",
    "cross_entropy_gradient",
    "i",
    "j",
    "jacobian_entry",
    "k",
    "n",
    "softmax_entry",
    "t",
    "to_y",
    "x",
    "y",
]

x, y, t = IndexedBase("x"), IndexedBase("y"), IndexedBase("t")
i = INDEX
j = Symbol("j", integer=True, positive=True)
k = Symbol("k", integer=True, positive=True)
n = Symbol("n", integer=True, positive=True)
#: The cross-entropy loss −Σ_k t_k log y_k, as a plain symbol inside claims.
L = Symbol("L")
_N = n  # the symbol, for functions whose ``n`` parameter is a concrete length

_FREE = (i, j)
#: Stands for Σ_k exp(x_k) while an expression is rewritten in y (it always cancels).
SUM_SYMBOL = Dummy("S", positive=True)


def _sum_exp(length: Expr) -> Sum:
    return Sum(exp(x[k]), (k, 1, length))


def softmax_entry(a: Expr = i, length: Expr = n) -> Expr:
    """The definition y_a = exp(x_a) / Σ_{k=1}^{length} exp(x_k).

    >>> softmax_entry()
    exp(x[i])/Sum(exp(x[k]), (k, 1, n))
    """
    return exp(x[a]) / _sum_exp(length)


def cross_entropy(length: Expr = n) -> Expr:
    """L = −Σ_k t_k log y_k with y_k written out from its definition.

    >>> cross_entropy()
    -Sum(log(exp(x[k])/Sum(exp(x[k]), (k, 1, n)))*t[k], (k, 1, n))
    """
    return -Sum(t[k] * log(softmax_entry(k, length)), (k, 1, length))


def _index_in_range(rel: object, length: Expr) -> bool:
    """True for 1 ≤ a, a ≥ 1, a ≤ length (a a free index): true by the conventions."""
    if not isinstance(rel, Relational):
        return False
    lo, hi = (rel.lhs, rel.rhs) if rel.rel_op in ("<=", "<") else (rel.rhs, rel.lhs)
    if rel.rel_op not in ("<=", ">="):
        return False
    return (lo == 1 and hi in _FREE) or (lo in _FREE and hi == length)


def _resolve_ranges(expr: Expr, length: Expr) -> Expr:
    """Replace Piecewise((e, 1 ≤ a ≤ length), (…, True)) by e for free indices a.

    ``doit()`` on Σ_k δ_{jk} f(k) returns Piecewise((f(j), j ≤ n), (0, True)) because
    SymPy does not know j ≤ n; the conventions say every free index is in range.
    """

    def pick(*pairs: tuple[Expr, object]) -> Expr:
        for value, cond in pairs:
            if isinstance(cond, BooleanTrue):
                return value
            atoms = cond.args if isinstance(cond, And) else (cond,)
            if all(_index_in_range(c, length) for c in atoms):
                return value
        raise UnsupportedExpression(f"cannot decide the range condition in {Piecewise(*pairs)}")

    return expr.replace(lambda e: isinstance(e, Piecewise), lambda e: pick(*e.args))


def _exp_to_y(e: exp) -> Expr:
    """exp(c_1 x_a + c_2 x_b + …) = Π (y_a S)^{c_a}: y_a S is exp(x_a) by definition."""
    out: Expr = Integer(1)
    for term, coeff in e.args[0].as_coefficients_dict().items():
        if not (isinstance(term, Indexed) and term.base == x):
            raise UnsupportedExpression(f"exp of {e.args[0]} is not a combination of scores x_a")
        out *= (y[term.indices[0]] * SUM_SYMBOL) ** coeff
    return out


def to_y(expr: Expr, length: Expr = n, normalized: tuple[IndexedBase, ...] = (y, t)) -> Expr:
    """Rewrite an expression in exp(x_·) and Σ_k exp(x_k) in terms of y (the sum cancels).

    ``length`` is the symbolic n (the sum is ``Sum(exp(x[k]), (k, 1, n))``) or a
    concrete int (the sum is written out, e^{x_1} + … + e^{x_n}).  Sums Σ_k v_k over
    the full range are replaced by 1 for the bases in ``normalized``.

    >>> to_y(exp(x[i]) * exp(x[j]) / _sum_exp(n) ** 2)
    y[i]*y[j]
    >>> to_y(exp(-x[1]) * (exp(x[1]) + exp(x[2])), 2)
    1/y[1]
    """
    if isinstance(length, int):
        total: Expr = Add(*[exp(x[m]) for m in range(1, length + 1)])
    else:
        total = _sum_exp(length)
    e = expr.xreplace({total: SUM_SYMBOL})
    e = e.replace(lambda u: isinstance(u, exp), _exp_to_y)
    e = _normalize_sums(expand(e), length, normalized)
    if e.has(SUM_SYMBOL):
        raise UnsupportedExpression(f"{expr} is not a function of softmax(x) alone")
    return e


def _normalize_sums(expr: Expr, length: Expr, normalized: tuple[IndexedBase, ...] = (y, t)) -> Expr:
    """Σ_k over an Add splits; factors free of k come out; Σ_k y_k = Σ_k t_k = 1; Σ_k 1 = n."""

    def one(s: Sum) -> Expr:
        (var, lo, hi), = s.limits
        body = expand(s.function)
        out: Expr = Integer(0)
        for term in Add.make_args(body):
            inside = [f for f in Mul.make_args(term) if f.has(var)]
            outside = Mul(*[f for f in Mul.make_args(term) if not f.has(var)])
            core = Mul(*inside)
            if core == 1:
                out += outside * (hi - lo + 1)
            elif any(core == b[var] for b in normalized) and (lo, hi) == (1, length):
                out += outside  # y (and by convention t) are probability vectors
            else:
                out += outside * Sum(core, (var, lo, hi))
        return out

    return expr.replace(lambda e: isinstance(e, Sum), one)


@lru_cache(maxsize=None)
def jacobian_entry() -> Expr:
    """∂y_i/∂x_j for symbolic n, derived by SymPy from the definition and written in y.

    ``diff`` gives δ_ij e^{x_i}/S − e^{x_i} Σ_k δ_jk e^{x_k} / S²; ``doit`` turns the
    inner sum into Piecewise((e^{x_j}, j ≤ n), (0, True)), resolved by the conventions.

    >>> jacobian_entry()
    KroneckerDelta(i, j)*y[i] - y[i]*y[j]
    """
    raw = diff(softmax_entry(i, n), x[j]).doit()
    return to_y(_resolve_ranges(raw, n), n)


@lru_cache(maxsize=None)
def cross_entropy_gradient(target_sums_to_one: bool = True) -> Expr:
    """∂L/∂x_i for L = −Σ_k t_k log y_k and symbolic n, derived and written in y and t.

    Without using Σ_k t_k = 1 the gradient is y_i Σ_k t_k − t_i:

    >>> cross_entropy_gradient(False)
    -t[i] + y[i]*Sum(t[k], (k, 1, n))
    >>> cross_entropy_gradient()
    -t[i] + y[i]
    """
    raw = diff(cross_entropy(n), x[i]).doit()
    return to_y(_resolve_ranges(raw, n), n, (y, t) if target_sums_to_one else (y,))


def _replace_derivatives(expr: Expr) -> Expr:
    """Derivative(y[a], x[b]) and Derivative(L, x[b]) replaced by the derived formulas."""

    def one(d: Derivative) -> Expr:
        if len(d.variable_count) != 1 or d.variable_count[0][1] != 1:
            raise UnsupportedExpression(f"only first derivatives are supported, not {d}")
        var = d.variables[0]
        if not (isinstance(var, Indexed) and var.base == x):
            raise UnsupportedExpression(f"derivative with respect to {var}, not a score x_a")
        b = var.indices[0]
        f = d.expr
        if isinstance(f, Indexed) and f.base == y:
            return jacobian_entry().xreplace({i: f.indices[0], j: b})
        if f == L:
            return cross_entropy_gradient().xreplace({i: b})
        raise UnsupportedExpression(f"derivative of {f}: only y_a and L are known")

    return expr.replace(lambda e: isinstance(e, Derivative), one)


def _validate(expr: Expr) -> None:
    """Reject what the conventions do not cover, naming the offending piece."""
    allowed = set(_FREE) | {k, _N, L}
    for s in expr.free_symbols - allowed:
        if not isinstance(s, Indexed) and not any(s in b.free_symbols for b in (x, y, t)):
            raise UnsupportedExpression(f"unknown symbol {s} (use x, y, t, i, j, k, n, L)")
    for a in expr.atoms(Indexed):
        if a.base not in (x, y, t):
            raise UnsupportedExpression(f"unknown vector {a.base} (use x, y, t)")
        if len(a.indices) != 1:
            raise UnsupportedExpression(f"{a} has {len(a.indices)} indices, vectors have one")
    for f in expr.atoms(Function):
        if not isinstance(f, (exp, log, KroneckerDelta)):
            raise UnsupportedExpression(f"{f}: only exp, log and KroneckerDelta are supported")
        if isinstance(f, log) and not (isinstance(f.args[0], Indexed) and f.args[0].base == y):
            raise UnsupportedExpression(f"{f}: only log(y[a]) is supported")
    for s in expr.atoms(Sum):
        (var, lo, hi), = s.limits
        if var != k or lo != 1 or hi != _N:
            raise UnsupportedExpression(f"{s}: sums run over k = 1..n")


def _partitions(items: tuple[Symbol, ...]) -> list[list[int]]:
    """Restricted growth strings: every way the free indices can coincide (i = j or i ≠ j)."""
    out: list[list[int]] = [[]]
    for _ in items:
        out = [p + [b] for p in out for b in range(max(p, default=-1) + 2)]
    return out


def _concrete_residual(res: Expr, length: int, values: dict[Symbol, int]) -> Expr:
    """The residual at a concrete n and index values, on the simplex (y_n, t_n eliminated).

    Softmax is symmetric under permuting the coordinates, and so are the constraints, so
    one representative assignment per pattern of coincidences among the free indices
    decides all of them.
    """
    e = res.xreplace({_N: Integer(length)}).xreplace({s: Integer(v) for s, v in values.items()})
    e = e.doit()
    last = {b[length]: 1 - Add(*[b[m] for m in range(1, length)]) for b in (y, t)}
    return expand(e.xreplace(last))


def _decide_concrete(res: Expr, length: int) -> Expr:
    """0 when the residual vanishes on the simplex at this n, else the first nonzero case."""
    free = tuple(s for s in _FREE if res.has(s))
    for pattern in _partitions(free):
        if max(pattern, default=-1) + 1 > length:
            continue  # more distinct indices than coordinates
        r = _concrete_residual(res, length, {s: b + 1 for s, b in zip(free, pattern)})
        if r != 0:
            return r
    return Integer(0)


def _decide_general(res: Expr) -> bool:
    """True when the residual vanishes in every case of coinciding free indices.

    y_i, y_j, t_i, t_j are then independent quantities and sums that remain (Σ_k y_k²…)
    opaque ones; vanishing as a polynomial in them is sufficient for the identity.
    """
    free = tuple(s for s in _FREE if res.has(s))
    for pattern in _partitions(free):
        rep = {s: free[pattern.index(b)] for s, b in zip(free, pattern)}
        e = res.xreplace(rep)
        e = e.replace(lambda d: isinstance(d, KroneckerDelta), lambda d: Integer(d.args[0] == d.args[1]))
        if expand(e) != 0:
            return False
    return True


def check_softmax_equality(
    lhs: Expr, rhs: Expr, n: int | None = None, reason: str = ""
) -> StepVerdict:
    """Check a lecture's step ``lhs = rhs`` about softmax and cross-entropy (see the conventions).

    ``n`` is the vector length: None for the symbolic n of the conventions (the claim
    must hold for every n), or a concrete integer ≥ 1.  The verdict has status HOLDS with
    ``needs = (frozenset(),)`` (holds in general, as in :func:`derivations.check_equality`)
    or FAILS with ``needs = ()``; ``residual`` and ``residual_given`` are lhs − rhs
    rewritten in y and t (for a concrete n the second is the first nonzero residual at
    concrete indices with y_n = 1 − Σ_{k<n} y_k).  Raises UnsupportedExpression for
    input outside the conventions, or when a symbolic-n residual is neither provably 0
    nor refuted at n = 2..6.

    >>> from sympy import Derivative, KroneckerDelta
    >>> check_softmax_equality(Sum(Derivative(y[i], x[k]), (k, 1, n)), Integer(0)).status
    <Status.HOLDS: 'holds in general'>
    >>> v = check_softmax_equality(Derivative(y[1], x[2]), y[1] * y[2], n=3)   # sign flipped
    >>> v.status, v.residual
    (<Status.FAILS: 'fails'>, -2*y[1]*y[2])
    """
    if n is not None and (not isinstance(n, int) or n < 1):
        raise UnsupportedExpression(f"vector length n must be a positive integer, got {n!r}")
    for side in (lhs, rhs):
        _validate(side)
    diffd = _replace_derivatives(lhs) - _replace_derivatives(rhs)
    # Σ_k δ_ik f(k) and friends: doit turns them into Piecewise on the range, resolved here.
    diffd = diffd.replace(lambda e: isinstance(e, Sum) and e.has(KroneckerDelta),
                          lambda e: _resolve_ranges(e.doit(), _N))
    residual = _normalize_sums(expand(expand_log(diffd, force=True)), _N)  # y_k > 0
    if n is not None:
        given = _decide_concrete(residual, n)
        holds = given == 0
    else:
        given = residual
        holds = _decide_general(residual)
        if not holds:
            counter = next((r for m in range(2, 7) if (r := _decide_concrete(residual, m)) != 0), None)
            if counter is None:
                raise UnsupportedExpression(
                    f"cannot decide {lhs} = {rhs}: residual {residual} vanishes for n = 2..6 "
                    "but not as a polynomial in y_i, y_j and the remaining sums")
    status = Status.HOLDS if holds else Status.FAILS
    return StepVerdict(lhs, rhs, reason, status, (frozenset(),) if holds else (),
                       residual, given)
