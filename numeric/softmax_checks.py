"""The symbolic softmax Jacobian against numeric derivatives: complex step and central
differences, with tolerances from an error analysis per dtype.

The symbolic side is the matrix SymPy derived (:func:`derivations.softmax_concrete.derive_jacobian`,
or a wrong twin from :func:`~derivations.softmax_concrete.candidate_jacobian`), turned into a
NumPy function of y by ``lambdify``; the numeric side differentiates
:func:`numeric.softmax.softmax` itself.

Error analysis (u = unit roundoff of the dtype, n = length, s = spread max x − min x):

* every softmax entry and every third derivative ∂³y_a/∂x_b³ is bounded: as a function of
  one score, y_b is a logistic σ(x_b + c) and y_a (a ≠ b) is p·(1 − σ); |σ'''| ≤ 1/8;
* evaluating softmax costs one rounding in x − max (relative error ≤ u·s in e^{x−max}),
  one exp, an n-term sum and a division: absolute error ≤ (n + 4)·u·(1 + s) per entry;
* **complex step** J ≈ Im y(x + ih e_b)/h has truncation h²/48 (nil for h = 1e−20) and no
  subtractive cancellation except in the diagonal's S − e^{x_b}, each bounded by the
  above: tolerance (n + 4)·u·(1 + s);
* **central differences** with the exactly representable steps x ± h have truncation
  ≤ h²/48 and rounding ≤ 2·(n + 4)·u·(1 + s)/(2h); h = u^{1/3} balances the two.

>>> import numpy as np
>>> x = np.array([0.3, -1.2, 2.0])
>>> r = check_jacobian(x, "complex step")
>>> r.ok, r.max_error < 1e-15
(True, True)
>>> check_jacobian(x, "central difference").ok
True
>>> bad = check_jacobian(x, "complex step", form="delta dropped")
>>> bad.ok, bad.message.startswith("symbolic:")
(False, True)
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Callable, Literal

import numpy as np
from numpy.typing import NDArray
from sympy import Matrix, Symbol, lambdify

from derivations.softmax import y as Y
from derivations.softmax_concrete import JACOBIAN_FORMS, candidate_jacobian, derive_jacobian
from numeric.softmax import softmax

__all__ = [
    "DerivativeCheck",
    "Method",
    "central_difference_jacobian",
    "check_jacobian",
    "complex_step_jacobian",
    "default_step",
    "random_points",
    "symbolic_jacobian",
    "tolerance",
]

Method = Literal["complex step", "central difference"]
_COMPLEX = {np.dtype(np.float32): np.complex64, np.dtype(np.float64): np.complex128}
#: max |∂³y_a/∂x_b³| (the logistic's third derivative), for the truncation terms.
THIRD_DERIVATIVE_BOUND = 1 / 8


def default_step(method: Method, dtype: np.dtype) -> float:
    """h = 1e−20 for the complex step (any tiny h works: no cancellation); u^{1/3} for
    central differences (truncation ∝ h², rounding ∝ u/h).

    >>> default_step("central difference", np.dtype(np.float64)) < 1e-5
    True
    """
    if method == "complex step":
        return 1e-20
    return float(np.finfo(dtype).eps / 2) ** (1 / 3)


def tolerance(method: Method, dtype: np.dtype, n: int, spread: float, h: float) -> float:
    """The error bound of the module docstring for one Jacobian entry.

    >>> tolerance("complex step", np.dtype(np.float64), 3, 0.0, 1e-20) < 1e-14
    True
    """
    u = float(np.finfo(dtype).eps / 2)
    rounding = (n + 4) * u * (1 + spread)
    trunc = THIRD_DERIVATIVE_BOUND * h * h / 6
    if method == "complex step":
        return rounding + trunc
    return trunc + rounding / h


def complex_step_jacobian(f: Callable[[NDArray], NDArray], x: NDArray, h: float = 1e-20) -> NDArray:
    """J[a, b] = Im f(x + i h e_b)[a] / h, in the precision of x (float32 → complex64).

    >>> complex_step_jacobian(np.exp, np.array([0.0, 1.0])).round(8)
    array([[1.        , 0.        ],
           [0.        , 2.71828183]])
    """
    x = np.asarray(x)
    z = x.astype(_COMPLEX[x.dtype])
    cols = []
    for b in range(x.shape[-1]):
        zb = z.copy()
        zb[b] += 1j * h
        cols.append(np.imag(f(zb)) / x.dtype.type(h))
    return np.stack(cols, axis=-1)


def central_difference_jacobian(f: Callable[[NDArray], NDArray], x: NDArray, h: float) -> NDArray:
    """J[a, b] = (f(x + h e_b) − f(x − h e_b))[a] / (x_b⁺ − x_b⁻), with the steps actually taken.

    Dividing by the representable difference x_b⁺ − x_b⁻ (not by 2h) removes the error
    of rounding x_b ± h.

    >>> central_difference_jacobian(np.sin, np.array([0.0]), 1e-5).round(9)
    array([[1.]])
    """
    x = np.asarray(x)
    cols = []
    for b in range(x.shape[-1]):
        xp, xm = x.copy(), x.copy()
        xp[b] += x.dtype.type(h)
        xm[b] -= x.dtype.type(h)
        cols.append((f(xp) - f(xm)) / (xp[b] - xm[b]))
    return np.stack(cols, axis=-1)


@lru_cache(maxsize=128)
def symbolic_jacobian(n: int, form: str = "derived") -> Callable[[NDArray], NDArray]:
    """The SymPy matrix (the derived Jacobian, or a note's formula from
    :data:`~derivations.softmax_concrete.JACOBIAN_FORMS`) as a NumPy function of y.

    >>> symbolic_jacobian(2)(np.array([0.5, 0.5]))
    array([[ 0.25, -0.25],
           [-0.25,  0.25]])
    """
    M: Matrix = derive_jacobian(n) if form == "derived" else candidate_jacobian(form, n)
    ys = [Symbol(f"y{m}") for m in range(1, n + 1)]
    plain = M.xreplace({Y[m]: ys[m - 1] for m in range(1, n + 1)})
    fn = lambdify([ys], plain, modules="numpy")
    return lambda v: np.asarray(fn(v), dtype=np.asarray(v).dtype)


@dataclass(frozen=True)
class DerivativeCheck:
    """One Jacobian compared with a numeric derivative at one point."""

    method: Method
    form: str
    dtype: str
    n: int
    h: float
    max_error: float
    tol: float
    worst: tuple[int, int]
    symbolic_value: float
    numeric_value: float

    @property
    def ok(self) -> bool:
        return self.max_error <= self.tol

    @property
    def message(self) -> str:
        a, b = self.worst
        shown = JACOBIAN_FORMS.get(self.form, "derived by SymPy")
        return (
            f"symbolic: ∂y_{a}/∂x_{b} = {self.symbolic_value:.17g} ({shown}) "
            f"numeric: {self.numeric_value:.17g} ({self.method}, h={self.h:.3g}, {self.dtype}); "
            f"|error| {self.max_error:.3g} {'≤' if self.ok else '>'} tol {self.tol:.3g}"
        )


def check_jacobian(
    x: NDArray, method: Method, form: str = "derived", h: float | None = None
) -> DerivativeCheck:
    """Compare the symbolic Jacobian (``form``) at y = softmax(x) with a numeric derivative.

    The dtype of x (float32 or float64) sets the precision of both sides and the tolerance.
    """
    x = np.asarray(x)
    if x.dtype not in _COMPLEX:
        raise TypeError(f"scores must be float32 or float64, not {x.dtype}")
    n = x.shape[-1]
    step = default_step(method, x.dtype) if h is None else h
    sym = symbolic_jacobian(n, form)(softmax(x))
    if method == "complex step":
        num = complex_step_jacobian(softmax, x, step)
    else:
        num = central_difference_jacobian(softmax, x, step)
    err = np.abs(sym.astype(np.float64) - num.astype(np.float64))
    a, b = np.unravel_index(int(np.argmax(err)), err.shape)
    spread = float(np.max(x) - np.min(x))
    return DerivativeCheck(
        method, form, str(x.dtype), n, step, float(err[a, b]),
        tolerance(method, x.dtype, n, spread, step), (int(a) + 1, int(b) + 1),
        float(sym[a, b]), float(num[a, b]),
    )


def random_points(
    seed: int, n: int, scales: tuple[float, ...] = (1e-2, 1.0, 10.0, 100.0), count: int = 4,
    dtype: type[np.floating] = np.float64,
) -> list[NDArray]:
    """Seeded N(0, scale²) score vectors: small scales test the flat region, large ones
    saturation (most entries of J underflow to ~0 there).

    >>> len(random_points(0, 5)), random_points(0, 5)[0].dtype
    (16, dtype('float64'))
    """
    rng = np.random.default_rng(np.random.SeedSequence(seed))
    return [(scale * rng.standard_normal(n)).astype(dtype) for scale in scales for _ in range(count)]
