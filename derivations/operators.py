"""Unevaluated operators of the expression language: E, Var (alias D), Cov and the dot product.

They stay unevaluated on purpose (like SymPy's ``Integral``): a derivation step
``E(q_i)E(k_i)`` must remain as written so that it can be printed and compared with
the previous step.  :func:`derivations.expectation.evaluate` gives them a value
within a :class:`~derivations.model.Model`.

>>> from sympy import IndexedBase, Symbol
>>> q, k = IndexedBase("q"), IndexedBase("k")
>>> i = Symbol("i", integer=True, positive=True)
>>> E(q[i] * k[i])
E(k[i]*q[i])
>>> D is Var
True
>>> Dot(q, k)
q·k
"""

from __future__ import annotations

from sympy import Expr, Function, IndexedBase
from sympy.printing.precedence import PRECEDENCE

__all__ = ["E", "Var", "D", "Cov", "Dot"]


class E(Function):
    """Expectation of a random expression, kept unevaluated."""

    nargs = 1
    is_commutative = True

    @classmethod
    def eval(cls, arg: Expr) -> None:  # never evaluate on construction
        return None


class Var(Function):
    """Variance of a random expression, kept unevaluated (Chinese notes write D(·))."""

    nargs = 1
    is_commutative = True

    @classmethod
    def eval(cls, arg: Expr) -> None:
        return None


#: Many Chinese lecture notes write the variance as D(X) (方差).
D = Var


class Cov(Function):
    """Covariance of two random expressions, kept unevaluated."""

    nargs = 2
    is_commutative = True

    @classmethod
    def eval(cls, a: Expr, b: Expr) -> None:
        return None


class Dot(Expr):
    """The dot product q·k = Σ_{i=1}^{d} q_i k_i of two random vectors of the Model's dimension.

    The dimension is the Model's, so ``Dot(q, k)`` reads exactly as lecture notes
    write it; the engine expands it into a ``Sum`` when it evaluates.
    """

    is_commutative = True
    #: Between a product and a power: printers write (q·k)² but q·k/√d, not (q·k)/√d.
    precedence = (PRECEDENCE["Mul"] + PRECEDENCE["Pow"]) // 2

    def __new__(cls, a: IndexedBase, b: IndexedBase) -> "Dot":
        if not isinstance(a, IndexedBase) or not isinstance(b, IndexedBase):
            raise TypeError("Dot takes two IndexedBase vectors, e.g. Dot(q, k)")
        return Expr.__new__(cls, a, b)

    @property
    def vectors(self) -> tuple[IndexedBase, IndexedBase]:
        return self.args[0], self.args[1]  # type: ignore[return-value]

    def _sympystr(self, printer: object) -> str:
        return f"{self.args[0]}·{self.args[1]}"

    def _latex(self, printer: object) -> str:
        return rf"{self.args[0]} \cdot {self.args[1]}"
