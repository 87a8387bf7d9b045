"""The softmax engine's free vector g (the gradient arriving from the layer above): claims
with g, each compared with an independent numeric route (numpy, complex step) at seeded
points, and each with a wrong twin that the engine must reject."""

from __future__ import annotations

import numpy as np
import pytest
from sympy import Derivative, Expr, Indexed, KroneckerDelta, Sum, lambdify

from derivations.checking import Status
from derivations.softmax import check_softmax_equality, g, i, j, k, n, x, y

D = KroneckerDelta
_JVP = Sum(y[k] * (D(k, j) - y[j]) * g[k], (k, 1, n))

CLAIMS: list[tuple[Expr, Expr, bool]] = [
    # the backward pass of softmax: Σ_k J_kj g_k = y_j (g_j − Σ_k y_k g_k)
    (_JVP, y[j] * (g[j] - Sum(y[k] * g[k], (k, 1, n))), True),
    (_JVP, y[j] * (g[j] - Sum(g[k], (k, 1, n))), False),
    (Derivative(Sum(y[k] * g[k], (k, 1, n)), x[j]), _JVP, True),
    (Derivative(Sum(y[k] * g[k], (k, 1, n)), x[j]), y[j] * g[j], False),
    (Sum(y[i] * D(i, j) * g[i], (i, 1, n)), y[j] * g[j], True),
    (Sum(y[i] * D(i, j) * g[i], (i, 1, n)), y[i] * g[j], False),
]


def _numeric(e: Expr, length: int, seed: int) -> list[float]:
    """e at seeded scores and a seeded g, for j = 1..length (i = j and i = 1), with ∂/∂x_j
    by complex step — no symbolic derivative, no canonical form."""
    rng = np.random.default_rng(seed)
    xs, gs = rng.normal(size=length), rng.normal(size=length)
    out = []
    for jv in range(1, length + 1):
        for iv in (1, jv):
            def value(xv: np.ndarray, ex: Expr = e, iv: int = iv, jv: int = jv) -> complex:
                ys = np.exp(xv) / np.sum(np.exp(xv))
                sub = ex.subs({n: length, i: iv, j: jv}).doit()
                entries = sorted(sub.atoms(Indexed), key=str)
                values = {"x": xv, "y": ys, "g": gs}
                args = [values[str(a.base.label)][int(a.indices[0]) - 1] for a in entries]
                return complex(lambdify(entries, sub, "numpy")(*args))
            if isinstance(e, Derivative):
                (var, _), = e.variable_count
                h = 1e-30  # complex step: no subtraction, error O(h²)
                moved = xs.astype(complex)
                moved[jv - 1] += 1j * h
                out.append(value(moved, e.expr).imag / h)
            else:
                out.append(value(xs.astype(complex)).real)
    return out


@pytest.mark.parametrize("lhs,rhs,true", CLAIMS)
def test_free_vector_claims_agree_with_numbers(lhs: Expr, rhs: Expr, true: bool) -> None:
    v = check_softmax_equality(lhs, rhs)
    gaps = [abs(a - b) for length, seed in ((3, 1), (4, 2))
            for a, b in zip(_numeric(lhs, length, seed), _numeric(rhs, length, seed))]
    numerically = max(gaps) < 1e-9  # rounding of a few terms of size 1: far below 1e-9
    assert numerically is true, f"numeric: largest gap {max(gaps):.3g}"
    assert (v.status is Status.HOLDS) is true, f"symbolic: {v.status} residual {v.residual}"
