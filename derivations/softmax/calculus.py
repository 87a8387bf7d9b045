"""Derivatives of softmax expressions by the chain rule, structurally (no ``diff`` of the
written-out definition, so no Piecewise(j ≤ n) to resolve and any order is cheap).

By a score x_b (y = softmax(x) depends on every score; t and the free vector g on none):

    ∂y_a/∂x_b = y_a(δ_ab − y_b),   ∂x_a/∂x_b = δ_ab,   ∂t_a/∂x_b = 0.

By an output y_b, the notes' intermediate variable: the y_k are free variables
(∂y_a/∂y_b = δ_ab; t does not depend on y; an expression that still mentions x cannot be
differentiated by y — x and y are not independent).  By a target component t_b: only t
depends on it.  Sums are differentiated under the sum; exp, log and powers by their rules.

>>> from sympy import Sum, log
>>> from derivations.softmax.symbols import i, j, k, n, t, x, y
>>> differentiate(log(y[i]) ** 2, x[j])
2*(KroneckerDelta(i, j) - y[j])*log(y[i])
>>> differentiate(-Sum(t[k] * log(y[k]), (k, 1, n)), y[j])
-Sum(KroneckerDelta(j, k)*t[k]/y[k], (k, 1, n))
"""

from __future__ import annotations

from sympy import (
    Add,
    Derivative,
    Expr,
    Function,
    Indexed,
    IndexedBase,
    Integer,
    KroneckerDelta,
    Mul,
    Pow,
    Sum,
    log,
)

from derivations.errors import UnsupportedExpression
from derivations.softmax.symbols import t, x, y

__all__ = ["differentiate", "evaluate_derivatives"]

#: Which bases an expression must contain to depend on a variable of each base.
_DEPENDS: dict[IndexedBase, tuple[IndexedBase, ...]] = {x: (x, y), y: (y, x), t: (t,)}


def _depends(e: Expr, base: IndexedBase) -> bool:
    return any(a.base in _DEPENDS[base] for a in e.atoms(Indexed))


def _indexed(e: Indexed, base: IndexedBase, b: Expr) -> Expr:
    a = e.indices[0]
    if base == x:
        if e.base == y:
            return e * (KroneckerDelta(a, b) - y[b])
        return KroneckerDelta(a, b) if e.base == x else Integer(0)
    if base == y and e.base == x:
        raise UnsupportedExpression(
            f"∂/∂y_{b} of an expression in x_{a}: x and y are not independent; write it in y")
    return KroneckerDelta(a, b) if e.base == base else Integer(0)


def differentiate(e: Expr, var: Indexed) -> Expr:
    """∂e/∂var for var = x_b, y_b or t_b (see the module doc for what depends on what)."""
    base, b = var.base, var.indices[0]
    if base not in _DEPENDS:
        raise UnsupportedExpression(f"derivative by {var}: only by x_b, y_b or t_b")
    if not _depends(e, base):
        return Integer(0)
    if isinstance(e, Indexed):
        return _indexed(e, base, b)
    if isinstance(e, Add):
        return Add(*(differentiate(a, var) for a in e.args))
    if isinstance(e, Mul):
        factors = e.args
        return Add(*(Mul(*factors[:m], differentiate(f, var), *factors[m + 1:])
                     for m, f in enumerate(factors) if _depends(f, base)))
    if isinstance(e, Pow):
        b_, p = e.args
        if not _depends(p, base):
            return p * b_ ** (p - 1) * differentiate(b_, var)
        return e * (differentiate(p, var) * log(b_) + p * differentiate(b_, var) / b_)
    if isinstance(e, Sum):
        return Sum(differentiate(e.function, var), *e.limits)
    if isinstance(e, Function) and len(e.args) == 1:  # exp, log, sigmoid: f'(u)·u'
        return e.fdiff(1) * differentiate(e.args[0], var)
    raise UnsupportedExpression(f"cannot differentiate {e} by {var}")


def evaluate_derivatives(e: Expr) -> Expr:
    """Every Derivative node replaced by its value, innermost first (any order)."""
    if isinstance(e, Derivative):
        out = evaluate_derivatives(e.expr)
        for var, count in e.variable_count:
            if not isinstance(var, Indexed) or len(var.indices) != 1:
                raise UnsupportedExpression(f"derivative by {var}: only by x_b, y_b or t_b")
            for _ in range(int(count)):
                out = differentiate(out, var)
        return out
    if not e.args or not e.has(Derivative):
        return e
    return e.func(*(evaluate_derivatives(a) for a in e.args))
