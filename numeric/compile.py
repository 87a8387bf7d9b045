"""Evaluate the symbolic side's random expressions on sampled arrays.

The expression language is the one :mod:`derivations` uses — components q[i] of
i.i.d. families, Dot(q, k), Sum over 1..d, polynomials (and, numerically, any numpy
ufunc the symbolic side cannot integrate: exp, log, sqrt, Abs).  Each Sum index gets
its own array axis, so Σ_i Σ_j q_i q_j k_i k_j is evaluated by broadcasting over
(samples, d, d); no string is ever evaluated.

>>> import numpy as np
>>> from sympy import IndexedBase, Sum, Symbol
>>> q, k, j = IndexedBase("q"), IndexedBase("k"), Symbol("j", integer=True)
>>> data = {"q": np.array([[1.0, 2.0]]), "k": np.array([[3.0, 4.0]])}
>>> f = RandomFunction(Sum(q[j] * k[j], (j, 1, 2)) ** 2, ("q", "k"), d=2)
>>> f(data)
array([121.])
"""

from __future__ import annotations

from typing import Mapping

import numpy as np
from numpy.typing import NDArray
from sympy import Abs, Add, Expr, Indexed, Mul, Pow, Sum, Symbol, exp, log

from derivations import Dot, UnsupportedExpression
from derivations.operators import Cov, E, Var

__all__ = ["RandomFunction", "sum_depth"]

Array = NDArray[np.float64]
_UFUNCS = {exp: np.exp, log: np.log, Abs: np.abs}


def sum_depth(expr: Expr) -> int:
    """Deepest nesting of Sum index axes (each index of a multi-index Sum counts)."""
    own = len(expr.limits) if isinstance(expr, Sum) else 0
    return own + max((sum_depth(a) for a in expr.args), default=0)


class RandomFunction:
    """A random expression compiled against the arrays a sampler draws.

    ``data`` maps each family name to an array of shape (samples, d); calling the
    function returns one value per sample.  Parameters (d, μ, σ, indices) must have
    been substituted before: what is left are numbers and random components.
    """

    def __init__(self, expr: Expr, families: tuple[str, ...], d: int) -> None:
        if expr.has(E, Var, Cov):
            raise UnsupportedExpression(f"{expr}: nested E/Var/Cov inside an estimated operator")
        self.expr = expr
        self.families = families
        self.d = d
        self.depth = sum_depth(expr)
        self.used = sorted({str(a.base.label) for a in expr.atoms(Indexed)
                            if str(a.base.label) in families}
                           | {str(v.label) for dot in expr.atoms(Dot) for v in dot.vectors})

    def __call__(self, data: Mapping[str, Array]) -> Array:
        n = next(iter(data.values())).shape[0] if data else 1
        out = self._eval(self.expr, {}, 0, data, n)
        return np.broadcast_to(np.asarray(out, dtype=np.float64), (n,)).copy()

    def _shape(self, n: int, depth: int) -> list[int]:
        return [n] + [1] * depth

    def _eval(self, e: Expr, env: dict[Symbol, int], depth: int,
              data: Mapping[str, Array], n: int) -> Array | float:
        if e.is_Number:
            return float(e)
        if isinstance(e, Indexed):
            name = str(e.base.label)
            if name not in self.families:
                raise UnsupportedExpression(f"{e}: {name} is not a random family of the model")
            (idx,) = e.indices
            arr = data[name]
            shape = self._shape(n, depth)
            if idx in env:
                shape[env[idx]] = self.d
                return arr.reshape(shape)
            if idx.is_Integer and 1 <= int(idx) <= self.d:
                return arr[:, int(idx) - 1].reshape(shape)
            raise UnsupportedExpression(
                f"{e}: an index must be a summation index or an integer in 1..{self.d} "
                "(give free indices a value at the point)"
            )
        if isinstance(e, Dot):
            a, b = (data[str(v.label)] for v in e.vectors)
            return np.einsum("ij,ij->i", a, b).reshape(self._shape(n, depth))
        if isinstance(e, Sum):
            inner = dict(env)
            level = depth
            for var, lo, hi in e.limits:
                if lo != 1 or hi != self.d:
                    raise UnsupportedExpression(f"sum over {var} from {lo} to {hi}: expected 1..{self.d}")
                level += 1
                inner[var] = level
            body = np.asarray(self._eval(e.function, inner, level, data, n), dtype=np.float64)
            # A term that does not use the index still counts d times: broadcast first.
            target = list(np.broadcast_shapes(body.shape, tuple(self._shape(n, level))))
            for ax in range(depth + 1, level + 1):
                target[ax] = self.d
            return np.broadcast_to(body, target).sum(axis=tuple(range(depth + 1, level + 1)))
        if isinstance(e, Add):
            return sum((self._eval(a, env, depth, data, n) for a in e.args), 0.0)  # type: ignore[return-value]
        if isinstance(e, Mul):
            out: Array | float = 1.0
            for a in e.args:
                out = out * self._eval(a, env, depth, data, n)
            return out
        if isinstance(e, Pow):
            base = self._eval(e.base, env, depth, data, n)
            power = self._eval(e.exp, env, depth, data, n)
            return np.power(base, power)
        for fn, ufunc in _UFUNCS.items():
            if isinstance(e, fn):
                return ufunc(self._eval(e.args[0], env, depth, data, n))
        if not e.free_symbols and e.is_real:
            return float(e)
        raise UnsupportedExpression(f"{e}: cannot be evaluated on samples (unknown symbol or function)")

