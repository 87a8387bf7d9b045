"""Softmax, symbolically: y = softmax(x), its Jacobian, the cross-entropy and σ, derived
by SymPy and checked exactly.

* :mod:`.symbols` — the letters x, y, t, i, j, k, n, L (and z, σ for the scalar case);
* :mod:`.checker` — :func:`check_softmax_equality`, a lecture step ``lhs = rhs`` checked
  for every length n and every pattern of indices, with the hypotheses on the target it
  needs (:mod:`.hypotheses`); built on :mod:`.calculus` (the chain rule),
  :mod:`.canonical` and :mod:`.sums` (one form for both sides), :mod:`.decide` (is the
  difference zero?) and :mod:`.sigmoid` (the scalar case);
* :mod:`.definitions` — the Jacobian and the gradient by SymPy's ``diff`` of the definition;
* :mod:`.concrete` — n = 2..32 entry by entry; :mod:`.saturation` — x = [a, a, 2a] as
  a → ∞; :mod:`.bounds` — |J_ij| ≤ 1/4 and the row sums ≤ 1/2, proved.

>>> from sympy import Derivative, KroneckerDelta
>>> check_softmax_equality(Derivative(y[i], x[j]), y[i] * (KroneckerDelta(i, j) - y[j])).holds
True
"""

from derivations.softmax.checker import (
    Counterexample,
    SoftmaxVerdict,
    check_softmax_equality,
)
from derivations.softmax.definitions import (
    cross_entropy,
    cross_entropy_gradient,
    jacobian_entry,
    softmax_entry,
    to_y,
)
from derivations.softmax.hypotheses import (
    TARGET_SUMS_TO_ONE,
    OneHotTarget,
    TargetSumsToOne,
)
from derivations.softmax.symbols import SUM_SYMBOL, L, g, i, j, k, n, sigmoid, t, x, y, z

__all__ = [
    "SUM_SYMBOL",
    "TARGET_SUMS_TO_ONE",
    "Counterexample",
    "L",
    "OneHotTarget",
    "SoftmaxVerdict",
    "TargetSumsToOne",
    "check_softmax_equality",
    "cross_entropy",
    "cross_entropy_gradient",
    "g",
    "i",
    "j",
    "jacobian_entry",
    "k",
    "n",
    "sigmoid",
    "softmax_entry",
    "t",
    "to_y",
    "x",
    "y",
    "z",
]
