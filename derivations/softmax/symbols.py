"""The letters of softmax claims: scores x, outputs y = softmax(x), target t, a free vector g
(any real numbers, depending on nothing: the gradient that arrives from the layer above),
indices i, j, k, length n, the loss L, and for the scalar (sigmoid) case the logit z and σ.

>>> y[i], L, sigmoid(z)
(y[i], L, sigmoid(z))
>>> sigmoid(z).diff(z)
(1 - sigmoid(z))*sigmoid(z)
"""

from __future__ import annotations

from sympy import Dummy, Expr, Function, IndexedBase, Symbol, exp

from derivations.hypotheses import INDEX

__all__ = [
    "SUM_SYMBOL",
    "L",
    "i",
    "j",
    "k",
    "n",
    "scalar_t",
    "scalar_y",
    "sigmoid",
    "g",
    "t",
    "x",
    "y",
    "z",
]

x, y, t = IndexedBase("x"), IndexedBase("y"), IndexedBase("t")
#: A vector of free real numbers that no score moves (∂g_a/∂x_b = 0): Σ_i J_ij g_i, the
#: backward pass of softmax, is a claim about every such g.
g = IndexedBase("g")
i = INDEX
j = Symbol("j", integer=True, positive=True)
k = Symbol("k", integer=True, positive=True)
n = Symbol("n", integer=True, positive=True)
#: The loss inside claims: −Σ_k t_k log y_k (binary cross-entropy in the scalar case).
L = Symbol("L")
#: Stands for S = Σ_k exp(x_k) while an expression is rewritten in y: exp(x_a) = y_a·S.
SUM_SYMBOL = Dummy("S", positive=True)

#: The scalar case: logit z, σ(z) = 1/(1 + e^{−z}); its output as a free variable and a
#: binary (or probability) target are the plain symbols y and t (matched by name).
z = Symbol("z", real=True)
scalar_y = Symbol("y")
scalar_t = Symbol("t")


class sigmoid(Function):
    """σ(z) = 1/(1 + e^{−z}), kept unevaluated; σ' = σ(1 − σ).

    >>> sigmoid(z).rewrite(exp)
    1/(1 + exp(-z))
    """

    nargs = 1

    def fdiff(self, argindex: int = 1) -> Expr:
        s = sigmoid(self.args[0])
        return s * (1 - s)

    def _eval_rewrite_as_exp(self, arg: Expr, **kwargs: object) -> Expr:
        return 1 / (1 + exp(-arg))

    def _latex(self, printer: object) -> str:
        return rf"\sigma\left({printer._print(self.args[0])}\right)"  # type: ignore[attr-defined]
