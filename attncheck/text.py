"""Plain-text rendering of expressions and verdicts for the terminal (LaTeX lives in the printer).

>>> from sympy import Symbol
>>> from sympy import IndexedBase, Sum
>>> text(Symbol("mu_q") ** 2 * Symbol("sigma_k") ** 2)
'μ_q**2*σ_k**2'
>>> q, i = IndexedBase("q"), Symbol("i")
>>> text(Sum(q[i] ** 2, (i, 1, Symbol("d"))))
'Σ_{i=1..d}(q_i**2)'
"""

from __future__ import annotations

from rich.console import Console
from sympy import Expr, Symbol
from sympy.printing.str import StrPrinter

from derivations import Hypothesis, StepVerdict

__all__ = ["needs_text", "output_console", "text", "verdict_text"]

_GREEK = {"mu": "μ", "sigma": "σ", "rho": "ρ", "kappa": "κ", "gamma": "γ"}


class TextPrinter(StrPrinter):
    """StrPrinter with Greek letters for the model's parameters (μ_q rather than mu_q),
    components as q_i and sums as Σ_{i=1..d}(…).

    Indexed has its own ``_sympystr``, which a printer prefers to its ``_print_``
    methods: a printmethod of our own makes the dispatch by class take over.
    """

    printmethod = "_attncheck_text"

    def _print_Symbol(self, expr: Symbol) -> str:
        head, sep, tail = expr.name.partition("_")
        return _GREEK.get(head, head) + sep + tail

    def _print_Indexed(self, expr: Expr) -> str:
        return f"{expr.base}_{','.join(map(self._print, expr.indices))}"

    def _print_Sum(self, expr: Expr) -> str:
        out = self._print(expr.function)
        for var, lo, hi in reversed(expr.limits):
            out = f"Σ_{{{self._print(var)}={self._print(lo)}..{self._print(hi)}}}({out})"
        return out

    def _print_Dot(self, expr: Expr) -> str:
        return str(expr._sympystr(self))

    def _print_StdMoment(self, expr: Expr) -> str:
        return self._print_Symbol(Symbol(expr._sympystr(self)))  # kappa_q → κ_q

    _print_MixedMoment = _print_Dot


def text(expr: Expr) -> str:
    return TextPrinter().doprint(expr)


def _set_text(hyps: frozenset[Hypothesis]) -> str:
    return "{" + ", ".join(sorted(map(str, hyps))) + "}"


def needs_text(v: StepVerdict) -> str:
    """'holds in general', 'holds given {…} or {…}', or 'fails: residual …'."""
    if not v.holds:
        out = f"fails: residual {text(v.residual_given)}"
        if v.mean_square:
            out += " (mean square of the difference)"
        if v.repair:
            alts = " or ".join(
                ", ".join(f"{text(s)} = {text(val)}" for s, val in sol.items()) for sol in v.repair
            )
            out += f"; would hold if {alts}"
        return out
    if not v.used:
        return "holds in general"
    return "holds given " + " or ".join(_set_text(s) for s in v.needs)


def verdict_text(v: StepVerdict) -> str:
    return f"{text(v.lhs)} = {text(v.rhs)}: {needs_text(v)}"


def output_console() -> Console:
    """The console tables go to: the terminal's width, or 200 columns in a pipe or a file
    (rich's default of 80 would wrap every formula over several lines)."""
    console = Console(soft_wrap=False)
    return console if console.is_terminal else Console(width=200, soft_wrap=False)
