r"""Plain-text mathematics for the terminal, in the notes' notation (LaTeX lives in the printer).

:class:`TextPrinter` writes what a lecturer writes on a board, in Unicode: ``μ_k² σ_q²``,
``δ_ij``, ``E(q_i² k_i)``, ``Σ_{i=1}^{d_k} q_i k_i``, ``∂y_i/∂x_j``, ``e^(−a)`` — never
SymPy's syntax (``**``, ``*``, ``KroneckerDelta``, ``sqrt``).  Like the LaTeX printer it
keeps a step as written when it was built unevaluated, writes q before k and positive
terms first otherwise, and prints a mixed moment of standardized components in the
components themselves, with the declared hypotheses put in.

Public API (used by ``check`` and by ``verify``):

* :func:`text` — one expression or hypothesis;
* :func:`needs_text` — a verdict in one line ("holds given {…}", "= d_k, not √d_k; …");
* :func:`rule_text` — the rule of a checked step, as a teacher names it;
* :func:`verdict_text` — "lhs = rhs: verdict".

Each takes ``lang`` ("en", "zh") where words appear, and ``notation`` ("mathbb": E(X),
Var(X), E(X)²; "ED": E(X), D(X), E²(X) as many Chinese notes write).

>>> from sympy import IndexedBase, KroneckerDelta, Sum, Symbol
>>> text(Symbol("mu_k") ** 2 * Symbol("sigma_q") ** 2)
'σ_q² μ_k²'
>>> q, i, j = IndexedBase("q"), Symbol("i"), Symbol("j")
>>> text(Sum(q[i] ** 2, (i, 1, Symbol("d"))))
'Σ_{i=1}^{d} q_i²'
>>> text(2 * KroneckerDelta(i, j) * q[i] - 2 * q[i] * q[j])
'2δ_ij q_i − 2q_i q_j'

Text from a user's file reaches the terminal only through :func:`printable` (control
characters shown, never obeyed) and, in messages, :func:`quote` (at most ~80 characters):

>>> printable("title \x1b[2J\x07 ok\n")
'title \\u001b[2J\\u0007 ok\n'
>>> print(quote(r"\frac{q^\top k}{\sqrt{d_k}}, " * 8))
'\frac{q^\top k}{\sqrt{d_k}}, \frac{q^\top k}{\sqrt{d_k}}, \frac{q^\top k}{\sqr …'
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Iterable, Sequence
from typing import Any, ClassVar

from rich.console import Console
from rich.text import Text
from sympy import (
    Add,
    Basic,
    Derivative,
    Expr,
    Indexed,
    IndexedBase,
    Mul,
    Pow,
    Rational,
    Sum,
    Symbol,
)
from sympy.printing.precedence import PRECEDENCE
from sympy.printing.str import StrPrinter

from attncheck.i18n import Words
from derivations import (
    INDEX,
    CorrelationIs,
    DistributedAs,
    Hypothesis,
    Independent,
    MeanIs,
    Model,
    StepVerdict,
    VarianceIs,
)
from derivations.model import MixedMoment, StdMoment
from derivations.operators import Cov, Dot, E, Var
from derivations.printing import (
    NOTATIONS,
    InvalidPrinterSetting,
    LecturerOrder,
    family_rank,
    hypothesis_order,
    mixed_moment_expectation,
)
from derivations.rules import RuleUse, explain_verdict
from derivations.written import is_written, written_factors

__all__ = [
    "GREEK",
    "TextPrinter",
    "hypotheses_text",
    "needs_text",
    "output_console",
    "printable",
    "quote",
    "rule_text",
    "text",
    "verdict_text",
]

MINUS = "−"
_SUPERSCRIPT = str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻")
#: Greek letters by the names TeX and SymPy give them (also verify's messages: "alpha" → α).
GREEK = {
    "alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ", "epsilon": "ε", "zeta": "ζ", "eta": "η",
    "theta": "θ", "iota": "ι", "kappa": "κ", "lambda": "λ", "mu": "μ", "nu": "ν", "xi": "ξ",
    "pi": "π", "rho": "ρ", "sigma": "σ", "tau": "τ", "phi": "φ", "chi": "χ", "psi": "ψ",
    "omega": "ω",
}
_LAW = {"normal": "Gaussian", "uniform": "uniform", "rademacher": "Rademacher", "moments": "any law"}


class TextPrinter(LecturerOrder, StrPrinter):
    """Unicode mathematics in the notes' notation; settings ``notation``, ``dot`` ("cdot": q·k,
    "transpose": qᵀk), ``hypotheses`` (declared: for mixed moments) and ``family_order``.

    Indexed and Dot have their own ``_sympystr``, which a printer prefers to its
    ``_print_`` methods: a printmethod of our own makes the dispatch by class take over.
    """

    printmethod = "_attncheck_text"
    _default_settings: ClassVar[dict[str, Any]] = {
        **StrPrinter._default_settings,
        "notation": "mathbb",
        "dot": "cdot",
        "hypotheses": (),
        "family_order": ("q", "k", "t", "y", "x"),
    }

    def __init__(self, settings: dict[str, Any] | None = None) -> None:
        super().__init__(settings)
        if self._settings["notation"] not in NOTATIONS:
            raise InvalidPrinterSetting(
                f"printer setting notation={self._settings['notation']!r}: expected one of {', '.join(NOTATIONS)}")

    # -- atoms ------------------------------------------------------------------------
    def _print_Symbol(self, expr: Symbol) -> str:
        head, sep, tail = expr.name.partition("_")
        return GREEK.get(head, head) + sep + tail

    _print_Dummy = _print_Symbol

    def _print_Integer(self, expr: Expr) -> str:
        return str(expr).replace("-", MINUS)

    def _print_Rational(self, expr: Rational) -> str:
        return f"{self._print(expr.p)}/{expr.q}"

    def _print_Float(self, expr: Expr) -> str:
        return f"{float(expr):.6g}".replace("-", MINUS)

    def _print_Infinity(self, expr: Expr) -> str:
        return "∞"

    def _print_NegativeInfinity(self, expr: Expr) -> str:
        return f"{MINUS}∞"

    def _print_Pi(self, expr: Expr) -> str:
        return "π"

    def _print_Exp1(self, expr: Expr) -> str:
        return "e"

    def _print_Indexed(self, expr: Indexed) -> str:
        idx = [self._print(j) for j in expr.indices]
        sep = "" if all(len(s) == 1 for s in idx) else ","
        return f"{self._print(expr.base)}_{sep.join(idx)}"

    def _print_IndexedBase(self, expr: IndexedBase) -> str:
        return self._print(expr.label)

    def _print_KroneckerDelta(self, expr: Expr) -> str:
        idx = [self._print(j) for j in expr.args]
        sep = "" if all(len(s) == 1 for s in idx) else ","
        return f"δ_{sep.join(idx)}"

    # -- operators --------------------------------------------------------------------
    def _operator(self, name: str, args: str, power: Expr | None) -> str:
        if power is None:
            return f"{name}({args})"
        sup = self._sup(power)
        # Chinese notes write E²(X) and D²(X), English texts E(X)²
        return f"{name}{sup}({args})" if self._settings["notation"] == "ED" else f"{name}({args}){sup}"

    def _print_E(self, expr: E, power: Expr | None = None) -> str:
        return self._operator("E", self._print(expr.args[0]), power)

    def _print_Var(self, expr: Var, power: Expr | None = None) -> str:
        name = "D" if self._settings["notation"] == "ED" else "Var"
        return self._operator(name, self._print(expr.args[0]), power)

    def _print_Cov(self, expr: Cov, power: Expr | None = None) -> str:
        return self._operator("Cov", ", ".join(self._print(a) for a in expr.args), power)

    def _print_Dot(self, expr: Dot) -> str:
        a, b = (self._print(v) for v in expr.vectors)
        return f"{a}ᵀ{b}" if self._settings["dot"] == "transpose" else f"{a}·{b}"

    def _print_StdMoment(self, expr: StdMoment) -> str:
        name, n = expr.args
        return {3: f"γ_{name}", 4: f"κ_{name}"}.get(int(n), f"m_{name},{n}")

    def _print_MixedMoment(self, expr: MixedMoment, power: Expr | None = None) -> str:
        e = mixed_moment_expectation(expr, self._settings["hypotheses"])
        return self._print_E(e, power)  # type: ignore[arg-type]

    def _print_Sum(self, expr: Sum) -> str:
        body = expr.function
        out = self.parenthesize(body, PRECEDENCE["Mul"]) if not body.is_Mul else self._print(body)
        for var, lo, hi in reversed(expr.limits):
            out = f"Σ_{{{self._print(var)}={self._print(lo)}}}^{{{self._print(hi)}}} {out}"
        return out

    def _print_Derivative(self, expr: Derivative) -> str:
        num = "".join(f"∂{self._print(v)}" if n == 1 else f"∂{self._print(v)}{self._sup(n)}"
                      for v, n in expr.variable_count)
        order = sum(int(n) for _, n in expr.variable_count)
        top = "∂" if order == 1 else f"∂{self._sup(order)}"
        f = expr.expr
        inner = self._print(f)
        if not (f.is_Symbol or isinstance(f, Indexed)):
            return f"{top}({inner})/{num}"
        return f"{top}{inner}/{num}"

    def _print_exp(self, expr: Expr) -> str:
        return f"e^({self._print(expr.args[0])})"

    def _print_log(self, expr: Expr) -> str:
        a = expr.args[0]
        return f"log {self._print(a)}" if a.is_Atom or isinstance(a, Indexed) else f"log({self._print(a)})"

    def _print_Abs(self, expr: Expr) -> str:
        return f"|{self._print(expr.args[0])}|"

    def _print_Function(self, expr: Expr) -> str:
        return f"{expr.func.__name__}({', '.join(self._print(a) for a in expr.args)})"

    def _print_Relational(self, expr: Expr) -> str:
        op = {"==": "=", "!=": "≠", "<=": "≤", ">=": "≥", "<": "<", ">": ">"}[expr.rel_op]
        return f"{self._print(expr.lhs)} {op} {self._print(expr.rhs)}"

    def _print_Tuple(self, expr: Expr) -> str:
        return "(" + ", ".join(self._print(a) for a in expr.args) + ")"

    def _print_VectorLiteral(self, expr: Expr) -> str:
        """A vector or matrix the note wrote out (attncheck.verify): [a, b] or [a, b; c, d]."""
        rows = expr.args
        if rows and all(type(r).__name__ == "VectorLiteral" for r in rows):
            return "[" + "; ".join(", ".join(self._print(a) for a in r.args) for r in rows) + "]"
        return "[" + ", ".join(self._print(a) for a in rows) + "]"

    def _print_EntryVector(self, expr: Expr) -> str:
        """A whole vector as its entry (attncheck.verify: softmax(z − c)): shown at entry i."""
        entry = expr.args[0]
        at = {s: Symbol("i") for s in entry.free_symbols if getattr(s, "name", "") == "row·"}
        return f"[{self._print(entry.xreplace(at))}]_i"

    # -- powers, products, sums --------------------------------------------------------
    def _sup(self, power: Expr | int) -> str:
        s = self._print(power).replace(MINUS, "-")
        return s.translate(_SUPERSCRIPT) if s.lstrip("-").isdigit() else f"^({self._print(power)})"

    def _base(self, base: Expr) -> str:
        tex = self._print(base)
        if isinstance(base, (Dot, Sum)) or base.is_Pow or (base.is_Number and (base.is_negative or not base.is_Integer)):
            return f"({tex})"
        return self.parenthesize(base, PRECEDENCE["Pow"], strict=True) if not base.is_Atom else tex

    def _print_Pow(self, expr: Pow) -> str:
        base, power = expr.args
        if power.is_Rational and power.q == 2 and abs(power.p) == 1:
            root = f"√{self._atom(base)}"
            return root if power > 0 else f"1/{root}"
        if power.is_negative and not is_written(base):
            return f"1/{self._atom(Pow(base, -power))}"
        if isinstance(base, (E, Var, Cov, MixedMoment)):
            return getattr(self, f"_print_{type(base).__name__}")(base, power)  # E²(X) or E(X)²
        if power.is_Integer:
            return self._base(base) + self._sup(power)
        return f"{self._base(base)}^({self._print(power)})"

    def _atom(self, e: Expr) -> str:
        """e as one unit: in brackets unless it is a symbol, a component, a number or a call."""
        out = self._print(e)
        plain = e.is_Symbol or isinstance(e, (Indexed, E, Var, Cov)) or (e.is_Integer and e >= 0)
        plain = plain or (e.is_Pow and e.exp.is_Integer and e.exp > 0 and (e.base.is_Symbol or isinstance(e.base, Indexed)))
        return out if plain else f"({out})"

    def _factor(self, f: Expr, alone: bool) -> str:
        out = self._as_written(f) if is_written(f) else self._print(f)
        if alone:
            return out
        if f.is_Add or (f.is_Number and f.is_negative) or isinstance(f, Sum) or (f.is_Mul and f.could_extract_minus_sign()):
            return f"({out})"
        if f.is_Mul and is_written(f) and written_factors(f)[2]:
            return f"({out})"  # a written fraction inside a product: (t_k/y_k) ∂y_k/∂x_i
        return out

    def _product(self, factors: Sequence[Expr]) -> str:
        if not factors:
            return "1"
        if len(factors) == 1:
            return self._print(factors[0])
        out = ""
        for n, f in enumerate(factors):
            s = self._factor(f, False)
            prev = factors[n - 1] if n else None
            if prev is None:
                out = s
            elif s.startswith(("√", "(")):
                out += s  # 16√2, y_i(δ_ij − y_j)
            elif f.is_number:
                out += f"·{s}"  # a number after a factor needs a sign: d_k·1, 2·3
            elif prev.is_Number or (len(s) == 1 and len(self._print(prev)) == 1):
                out += s  # 2d_k, XY
            else:
                out += f" {s}"
        return out

    def _fraction(self, negative: bool, num: Sequence[Expr], den: Sequence[Expr]) -> str:
        top = self._product(num)
        if den:
            if len(num) == 1 and num[0].is_Add:
                top = f"({top})"
            bottom = self._product(den)
            if len(den) > 1 or den[0].is_Add or den[0].is_Mul or isinstance(den[0], Sum) or (
                    den[0].is_Pow and not den[0].exp.is_Integer and den[0].exp != Rational(1, 2)):
                bottom = f"({bottom})"
            top = f"{top}/{bottom}"
        return f"{MINUS}{top}" if negative else top

    def _print_Mul(self, expr: Mul) -> str:
        if is_written(expr):
            return self._fraction(*written_factors(expr))
        coeff, factors = expr.as_coeff_mul()
        num: list[Expr] = []
        den: list[Expr] = []
        for f in factors:
            if f.is_Pow and f.exp.is_negative and f.exp.is_Rational:
                den.append(Pow(f.base, -f.exp))
            else:
                num.append(f)
        order = self._settings["family_order"]
        num.sort(key=lambda f: (family_rank(f, order), f.is_Add))
        den.sort(key=lambda f: family_rank(f, order))
        negative = coeff.is_negative
        c = abs(coeff)
        if c.is_Integer and c != 1:
            num.insert(0, c)
        elif not c.is_Integer:
            if c.p != 1:
                num.insert(0, Rational(c.p))
            den.insert(0, Rational(c.q))
        return self._fraction(bool(negative), num, den)

    def _as_written(self, e: Expr) -> str:
        """A sum or product inside a written one, in the order it was given."""
        if isinstance(e, Mul):
            return self._fraction(*written_factors(e))
        if isinstance(e, Add):
            return self._add_terms(list(e.args), written=True)
        return self._print(e)

    def _add_terms(self, terms: Sequence[Expr], written: bool) -> str:
        out = ""
        for n, term in enumerate(terms):
            negative = term.could_extract_minus_sign()
            body = self._as_written(term) if written else self._print(term)
            if negative and body.startswith(MINUS):
                body = body[len(MINUS):]
            elif negative:
                negative = False
            if term.is_Add:
                body = f"({body})"
            if not n:
                out = f"{MINUS}{body}" if negative else body
            else:
                out += f" {MINUS} {body}" if negative else f" + {body}"
        return out

    # -- hypotheses ---------------------------------------------------------------------
    def _component(self, family: str) -> str:
        return self._print(IndexedBase(family)[INDEX])

    def _print_MeanIs(self, h: MeanIs) -> str:
        return f"E({self._component(h.family)}) = {self._print(h.value)}"

    def _print_VarianceIs(self, h: VarianceIs) -> str:
        name = "D" if self._settings["notation"] == "ED" else "Var"
        return f"{name}({self._component(h.family)}) = {self._print(h.value)}"

    def _print_Independent(self, h: Independent) -> str:
        return f"{h.a} ⟂ {h.b}"

    def _print_CorrelationIs(self, h: CorrelationIs) -> str:
        return f"corr({self._component(h.a)}, {self._component(h.b)}) = {self._print(h.value)}"

    def _print_Hypothesis(self, h: Hypothesis) -> str:
        # a statement other modules define (Σ_k t_k = 1 about the softmax target)
        statement = getattr(h, "statement", None)
        return self._print(statement) if statement is not None else str(h)

    def _print_DistributedAs(self, h: DistributedAs) -> str:
        return f"{self._component(h.family)} {_LAW[h.dist]}"

    def doprint(self, expr: Any) -> str:
        out = super().doprint(expr)
        return out.replace("**", "^")  # never SymPy syntax, even from a fallback


def text(expr: Basic | Hypothesis, *, notation: str = "mathbb", dot: str = "cdot",
         hypotheses: Iterable[Hypothesis] = ()) -> str:
    """An expression or hypothesis in the notes' notation.

    >>> from sympy import Integer, Symbol
    >>> from derivations.model import MixedMoment
    >>> m = MixedMoment(Symbol("q"), Symbol("k"), Integer(2), Integer(1))
    >>> from derivations.lecture import TEXTBOOK
    >>> text(m, hypotheses=TEXTBOOK), text(TEXTBOOK[2], notation="ED")
    ('E(q_i² k_i)', 'D(q_i) = 1')
    """
    return TextPrinter({"notation": notation, "dot": dot, "hypotheses": tuple(hypotheses)}).doprint(expr)


def _declared_order(hyps: Iterable[Hypothesis], declared: Sequence[Hypothesis]) -> list[Hypothesis]:
    return sorted(hyps, key=hypothesis_order(declared))


def hypotheses_text(hyps: Iterable[Hypothesis], *, notation: str = "mathbb",
                    declared: Sequence[Hypothesis] = ()) -> str:
    """``{E(q_i) = 0, q ⟂ k}`` in the order the derivation declared them."""
    return "{" + ", ".join(text(h, notation=notation) for h in _declared_order(hyps, declared)) + "}"


def rule_text(use: RuleUse, *, lang: str = "en", notation: str = "mathbb") -> str:
    """The rule(s) of a step in words, with the formula a teacher would add.

    >>> from derivations.rules import Rule, RuleUse
    >>> rule_text(RuleUse((Rule.VARIANCE_FORMULA,)), notation="ED")
    'D(X) = E(X²) − E²(X)'
    >>> rule_text(RuleUse((Rule.LINEARITY_E,)), lang="zh")
    '期望的线性性'
    """
    return Words(lang).rule(use, lambda e: text(e, notation=notation))


def needs_text(v: StepVerdict, *, lang: str = "en", notation: str = "mathbb",
               declared: Sequence[Hypothesis] = (), model: Model | None = None) -> str:
    """One line: 'holds in general', 'holds given {…} or {…}', or for a failing step what the
    right side should be and the smallest further hypotheses that make it hold:
    '= d_k, not √d_k' / '= σ_q² σ_k² + …, not Var(q_i) Var(k_i); holds given {E(q_i) = 0, …}'.

    ``declared`` (the derivation's hypotheses) and ``model`` let a failing step say what
    its right side should be; without them it gives the residual.
    """
    w = Words(lang)
    opts = {"notation": notation, "hypotheses": tuple(declared)}
    if not v.holds:
        failure = explain_verdict(v, model, tuple(declared)) if model is not None or not declared else None
        if failure is None or failure.should_be is None:
            kind = "mean square residual" if v.mean_square else "residual"
            out = w.say("fails-residual", kind=w.say(kind), residual=text(v.residual_given, **opts))
        else:
            out = w.say("should-be", value=text(failure.should_be, **opts), claimed=text(v.rhs, **opts))
        if failure is not None and failure.would_hold_given:
            alts = w.say("or").join(hypotheses_text(s, notation=notation, declared=declared)
                                    for s in failure.would_hold_given)
            out += w.say("would-hold-given", hypotheses=alts)
        elif v.repair:
            alts = w.say("or").join(", ".join(f"{text(s)} = {text(val)}" for s, val in sol.items())
                                    for sol in v.repair)
            out += w.say("would-hold-if", condition=alts)
        return out
    if not v.used:
        return w.say("holds")
    alts = w.say("or").join(hypotheses_text(s, notation=notation, declared=declared) for s in v.needs)
    return w.say("holds-given", hypotheses=alts)


def verdict_text(v: StepVerdict, *, lang: str = "en", notation: str = "mathbb",
                 declared: Sequence[Hypothesis] = (), model: Model | None = None) -> str:
    """'lhs = rhs: verdict' (the colon full-width in Chinese)."""
    opts = {"notation": notation, "hypotheses": tuple(declared)}
    claim = f"{text(v.lhs, **opts)} = {text(v.rhs, **opts)}"
    return claim + Words(lang).say("colon") + needs_text(v, lang=lang, notation=notation,
                                                         declared=declared, model=model)


# C0 controls but tab and newline, DEL, C1 controls (U+009B is a one-character CSI to
# some terminals), the bidirectional overrides that make text display in another order
# than it reads, and lone surrogates (undecodable bytes of a file name), which would
# otherwise make the write itself fail.
_UNPRINTABLE = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")


def printable(s: str) -> str:
    r"""``s`` with every control character written as ``\uXXXX``: shown, never obeyed.

    The escape is JSON's, so JSON text stays valid JSON with the same content.
    """
    return _UNPRINTABLE.sub(lambda m: f"\\u{ord(m.group()):04x}", s)


def quote(s: str, limit: int = 80) -> str:
    """User text for a message: on one line, printable, in quotes, cut to ``limit``
    characters (a message names the place; it need not repeat a whole paragraph)."""
    s = printable(" ".join(s.split()))
    return "'" + (s if len(s) <= limit else s[: limit - 2].rstrip() + " …") + "'"


class _PrintableConsole(Console):
    """A console that shows user text's control characters instead of sending them.

    Every string a table cell or print() holds passes through render_str; rich's own
    escape sequences (colours, cursor moves) are added after it, so they still work.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("emoji", False)  # "note.md:100:4" is a place, not 💯
        super().__init__(*args, **kwargs)

    def render_str(self, text: str, **kwargs: Any) -> Text:
        return super().render_str(printable(text), **kwargs)


def output_console() -> Console:
    """The console tables go to: the terminal's width (COLUMNS when set), or 200 columns in a
    pipe or a file (rich's default of 80 would wrap every formula over several lines).

    It writes to standard output's unfiltered side when the CLI has wrapped it
    (attncheck.output.guarded_stdout), since it filters user text itself.
    """
    file = getattr(sys.stdout, "unfiltered", sys.stdout)
    columns = os.environ.get("COLUMNS", "")
    if columns.isdigit() and int(columns) > 0:
        return _PrintableConsole(file=file, width=int(columns), soft_wrap=False)
    console = _PrintableConsole(file=file, soft_wrap=False)
    return console if console.is_terminal else _PrintableConsole(file=file, width=200, soft_wrap=False)
