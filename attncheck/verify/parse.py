r"""The third stage: an expression's tokens → the project's SymPy objects, in the note's notation.

lark parses the tokens of :mod:`attncheck.verify.lexer` (grammar ``grammar.lark``, LALR,
a custom lexer that hands over the tokens); a transformer builds E, Var (D), Cov, Dot,
Sum, components, KroneckerDelta, Derivative, exp and log itself — user text never
reaches eval, exec, sympify or parse_expr.  What the symbols mean comes from a
:class:`Notation`, which :mod:`attncheck.verify.notation` reads off the whole note:

* the random families (q, k by default) are vectors: ``q_i`` and ``q_i^{(m)}`` (the i-th
  query's m-th component) are components; ``q^\top k``, ``q\cdot k``, ``\langle q,k\rangle``
  and ``\|q\|^2`` are dot products; the Model's dimension bounds their sums;
* ``E``, ``\mathbb{E}``, ``D``, ``Var``, ``\operatorname{Var}``, ``Cov`` are the operators;
  ``E^2(x)`` is ``(E(x))²``; ``\mu_q``, ``\sigma_q``, ``\rho`` are the Model's parameters;
* softmax in the note's own letters is renamed to the conventions of
  :mod:`derivations.softmax` (output y, logits x, target t, length n);
  ``\frac{\partial}{\partial x_j}(…)``, ``\frac{dy}{dx}``, ``\partial y/\partial x`` and
  ``\frac{\delta L}{\delta y}`` are derivatives; ``\mathbb 1\{i=j\}``, ``1_{i=j}``, ``[i=j]``
  and ``\delta_{ij}`` are Kronecker's delta;
* a written-out sum ``q_1k_1 + q_2k_2 + \cdots + q_dk_d`` is the Σ it abbreviates; a
  ``\sum`` without limits runs over the index its summand leaves free.

>>> from derivations.lecture import LECTURE
>>> p = Parser(Notation.for_model(LECTURE))
>>> p.expression(r"\mathrm{Var}\left(\frac{q^\top k}{\sqrt{d_k}}\right)")
Var(q·k/sqrt(d_k))
>>> p.expression(r"q_1k_1+q_2k_2+\cdots+q_{d_k}k_{d_k}")
Sum(k[i]*q[i], (i, 1, d_k))
>>> p.expression(r"\frac{\partial}{\partial x_j}\left(\log y_i\right)")
Derivative(log(y[i]), x[j])
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path
from typing import Any

from lark import Lark, Token, Tree, v_args
from lark.exceptions import UnexpectedInput, UnexpectedToken, VisitError
from lark.lexer import Lexer
from lark.visitors import Transformer_NonRecursive
from sympy import (
    Abs,
    Add,
    Derivative,
    Dummy,
    Expr,
    Function,
    Indexed,
    IndexedBase,
    Integer,
    KroneckerDelta,
    Max,
    Min,
    Mul,
    Pow,
    Rational,
    S,
    Sum,
    Symbol,
    exp,
    factorial,
    log,
    oo,
    pi,
    sqrt,
)
from sympy import E as EULER
from sympy.core.function import AppliedUndef

from attncheck.text import GREEK
from attncheck.verify.grid import Grid, GridError, added, scaled, softmax_rows, times, transposed
from attncheck.verify.lexer import BOLD, CLASS_WORDS, UNITS, WORDS, LexError, Tok, tokenize
from derivations.model import Family, Model, dimension_symbol
from derivations.operators import Cov, Dot, E, Var

__all__ = [
    "MAX_DIGITS",
    "MAX_EXPONENT",
    "MAX_NESTING",
    "MAX_TOKENS",
    "SOFTMAX_BASES",
    "Notation",
    "ParseProblem",
    "Parser",
    "class_index",
    "index_symbol",
    "prepare",
    "prose_in_place_of_math",
]

#: Brackets nested deeper than this are refused before parsing (bounds recursion anywhere).
MAX_NESTING = 40
#: Largest |n| in x^n: the expansion of (q_i + k_i)^n grows with n, and notes need 2 or 4.
MAX_EXPONENT = 64
#: Longest integer literal.
MAX_DIGITS = 30
#: Largest exact number a power of numbers may produce, in bits.
MAX_NUMBER_BITS = 4096
#: Tokens in one expression: a derivation's side has tens; thousands are not notes, and
#: SymPy's construction of a product of n factors costs O(n²).
MAX_TOKENS = 600

#: Non-random indexed quantities of the softmax steps: y = softmax(x), target t.
SOFTMAX_BASES = ("y", "x", "t")
#: Letters that are indices when they stand alone (k is the key vector when it is a family).
INDEX_LETTERS = ("i", "j", "k", "l", "m", "c", "ℓ")
#: Words whose result is not an expression's value: argmin L = … is not an identity.
_OPTIMIZERS = {"argmin", "argmax", "max", "min", "sup", "inf", "lim", "arg", "Pr"}
_FUNCTION_WORDS = {"exp", "log", "ln", "softmax", "Softmax", "softMax", "sigmoid", "Sigmoid",
                   "tanh", "ReLU", "relu", "diag", "Diag"}


class ParseProblem(Exception):
    """A problem at an offset of the parsed text; the caller turns it into a located error."""

    def __init__(self, message: str, offset: int) -> None:
        super().__init__(message)
        self.message, self.offset = message, offset


def index_symbol(name: str) -> Symbol:
    """An index i, j, …: a positive integer, as derivations.INDEX is."""
    return Symbol(name, integer=True, positive=True)


#: The softmax module's symbols (positive integers n, k; y, x, t components).
LENGTH = Symbol("n", integer=True, positive=True)
LOSS = Symbol("L")
#: L where the note first names a likelihood L = P(y|x) = Π p_i^{y_i}: not the loss L_{CE}
LIKELIHOOD = Symbol("L", positive=True)
#: The variable of a prime, (f)': the chain's derivative variable, filled in by the checker.
PRIME = Symbol("′")
#: The variable of a note's primes on plain letters (u', v' in a quotient rule): u, v are
#: functions of it, whatever the note calls it.
XI = Symbol("ξ", real=True)


class _EitherSum(Function):
    """``Σ_{i≠j}`` over a summand with both i and j: which letter runs is decided once the
    whole side is built (the one that is not free outside the sum) — see
    :func:`_settle_sums`.  Arguments: the sum over the first letter, the sum over the second,
    and the two letters."""

    @classmethod
    def eval(cls, *args: Expr) -> None:  # never evaluated: replaced when the side is done
        return None


def _settle_sums(e: Expr) -> Expr:
    """Each :class:`_EitherSum` replaced by the reading in which the running letter is not
    free elsewhere in ``e`` (Σ_{i≠j} t_j/y_j ∂y_j/∂x_i beside ∂y_i/∂x_i runs over j); and a
    sum running over d renamed (see _RESERVED_INDICES)."""
    for node in sorted(e.atoms(_EitherSum), key=str):
        first, second, v, other = node.args
        outside = e.xreplace({node: S.Zero}).free_symbols
        e = e.xreplace({node: second if v in outside and other not in outside else first})
    if any(v.name in _RESERVED_INDICES for s in e.atoms(Sum) for v, *_ in s.limits):
        def rename(x: Sum) -> Expr:
            names = {v.name for v, *_ in x.limits} & _RESERVED_INDICES
            # every symbol of that name (the body's d may carry other assumptions)
            return x.xreplace({a: index_symbol(a.name + "ʹ") for a in x.atoms(Symbol)
                               if a.name in names})

        e = e.replace(lambda x: isinstance(x, Sum) and any(
            v.name in _RESERVED_INDICES for v, *_ in x.limits), rename)
    return e


#: Letters the moment engine keeps for the dimension (d): a sum running over one of them,
#: Σ_{d=1}^{d_k} q_d k_d, runs over a letter of its own (the value is the same).
_RESERVED_INDICES = frozenset({"d"})


class VectorLiteral(Function):
    """``[a, b, c]`` as a side of '=': compared entry by entry with another such list."""

    @classmethod
    def eval(cls, *args: Expr) -> None:  # never evaluated: kept as written
        return None


class JacobianOf(Function):
    """``∂y/∂x`` of two whole vectors: the matrix whose (i, j) entry is ∂y_i/∂x_j — compared
    entry by entry with a matrix the note writes out."""

    @classmethod
    def eval(cls, *args: Expr) -> None:  # never evaluated: expanded against a written matrix
        return None

    def entry(self, i: Expr, j: Expr) -> Expr:
        y, x = (IndexedBase(str(a)) for a in self.args)
        return Derivative(y[i], x[j])


class EntryMatrix(Function):
    """A matrix the note writes in whole-vector form (diag(y) − y yᵀ): its (ROW, COL) entry
    as an expression in the placeholders :data:`ROW` and :data:`COL` — compared entry by
    entry with ∂y/∂x or a matrix written out."""

    @classmethod
    def eval(cls, *args: Expr) -> None:  # never evaluated: expanded at the entries compared
        return None

    def entry(self, i: Expr, j: Expr) -> Expr:
        return self.args[0].xreplace({ROW: i, COL: j})


def _scores_at_entry(e: Expr) -> Expr | None:
    """``e`` written in the whole scores vector (the bare symbol x: z − c, e^z/Σ_j e^{z_j}) at
    its entry :data:`ROW`; None where no bare x is left — the entries x_j of Σ_j e^{x_j} and
    max(z) (one number, the shift of a stable softmax) stay as they are."""
    x = Symbol("x")
    held = {f: Dummy() for f in e.atoms(AppliedUndef, Indexed) if f.has(x)}
    bare = e.xreplace(held)
    if x not in bare.free_symbols:
        return None
    return bare.xreplace({x: IndexedBase("x")[ROW]}).xreplace({d: f for f, d in held.items()})


def _whole_scores(e: Expr) -> Expr:
    """e^z / Σ_j e^{z_j} with z the whole scores vector: its entry at :data:`ROW` as an
    :class:`EntryVector` — else e as it is (e^{x_i}/Σ_i e^{x_i}: entries only)."""
    if not isinstance(e, Expr) or Symbol("x") not in e.free_symbols or e.has(ROW):
        return e
    entry = _scores_at_entry(e)
    return e if entry is None else EntryVector(entry)


class EntryVector(Function):
    """A vector the note writes in whole form (softmax(z), softmax(z − c), softmax(z/T)): its
    entry at the placeholder :data:`ROW` — compared entry by entry with another such vector."""

    @classmethod
    def eval(cls, *args: Expr) -> None:  # never evaluated: expanded at the entry compared
        return None

    def entry(self, i: Expr) -> Expr:
        return self.args[0].xreplace({ROW: i})


def matrix_entries(lhs: Expr, rhs: Expr) -> tuple[Expr, Expr]:
    """∂y/∂x = diag(y) − y yᵀ: both sides at a general entry (i, j) — δ_ij keeps i = j and
    i ≠ j apart, so one symbolic entry stands for the whole matrix; softmax(z) =
    softmax(z − c) at a general entry i.  Other sides as they are."""
    if isinstance(lhs, EntryVector) != isinstance(rhs, EntryVector):
        # softmax(z) = e^z / Σ_j e^{z_j}: the other side written in the whole scores vector;
        # p = softmax(z): the whole output (or label) itself, entry by entry
        lhs, rhs = (v if isinstance(v, EntryVector) else
                    EntryVector(IndexedBase(v.name)[ROW]) if v in (Symbol("y"), Symbol("t"))
                    else _whole_scores(v) for v in (lhs, rhs))
    if isinstance(lhs, EntryVector) and isinstance(rhs, EntryVector):
        taken = lhs.free_symbols | rhs.free_symbols
        i = _unused_index(taken, "ijklmr")
        return lhs.entry(i), rhs.entry(i)
    if not (isinstance(lhs, (JacobianOf, EntryMatrix)) and isinstance(rhs, (JacobianOf, EntryMatrix))):
        return lhs, rhs
    i, j = index_symbol("i"), index_symbol("j")
    return lhs.entry(i, j), rhs.entry(i, j)


#: The row and column placeholders of an :class:`EntryMatrix` (names no note writes).
ROW = Symbol("row·", integer=True, positive=True)
COL = Symbol("col·", integer=True, positive=True)

#: An entry written ⋯, ⋮ or ⋱ in a matrix: the note does not state it.
DOTS = Symbol("⋯")


@dataclass(frozen=True)
class Notation:
    """What the note's letters mean (read off the whole note by attncheck.verify.notation).

    ``rename`` maps the note's letters to the conventions (softmax output → y, logits → x,
    target → t, loss → L); ``component`` gives, for a family written with two indices
    (q_{im}, q_i^{(m)}), which index is the component (the other one numbers vectors);
    ``functions`` are letters the note applies as functions (f(x), σ(z)); ``scalars`` are
    random variables without components (X, Y).
    """

    families: tuple[str, ...] = ("q", "k")
    dim: str = "d"
    rename: Mapping[str, str] = field(default_factory=dict)
    functions: frozenset[str] = frozenset()
    scalars: tuple[str, ...] = ()
    dependent: tuple[tuple[str, str], ...] = (("q", "k"),)
    length: str = "n"
    vectors: frozenset[str] = frozenset()
    #: the letters that number those vectors' components (l in q_{il}, m in q_i^{(m)}):
    #: q_l with one of them is a component, written short
    component_letters: frozenset[str] = frozenset()
    #: letters the note writes with two indices (A_{ic}): there A_{13} is row 1, column 3
    matrices: frozenset[str] = frozenset()
    #: letters the note also writes with a subscript (o_k, p_j): alone, o is the vector
    indexed: frozenset[str] = frozenset()
    #: the Greek letter the note uses for its components' standard deviation (σ in
    #: q_i ~ N(0, σ²), Var(s) = d σ⁴), and the number it gives for σ² where it gives one
    spread: str = ""
    spread_square: Expr | None = None
    #: letters the note's words call constants ("by a constant $c$", "常数 $C$"): real numbers
    constants: frozenset[str] = frozenset()
    #: the note defines L_i apart from L (L = (1/N) Σ_i L_i + …): L_i is one sample's loss,
    #: a name of its own, not L with a label
    sample_loss: bool = False
    #: (a, z): the note's only derivative ∂a_i/∂z_j of letters no formula defines (softmax's
    #: Jacobian where its words say so)
    lone_jacobian: tuple[str, str] | None = None
    #: the note's name for softmax's Jacobian ∂y/∂x: "J" or "J_<subscript>" (J_σ,
    #: J_{softmax}), "" when it has none (see notation.prose_jacobian)
    jacobian: str = ""
    #: the note writes its weights w_{dk} with the input's index first (z_k = Σ_d w_{dk} x_d):
    #: W_{kd} of the conventions is its w_{dk} (see notation.linear_layer)
    layer_in_first: bool = False
    #: the note defines a softmax in verify's own letters (y_i = e^{x_i}/Σ_k e^{x_k}): y and x
    #: alone are then its whole output and scores, as a renamed p and z would be
    softmax_in_conventions: bool = False

    def spread_symbol(self) -> Expr:
        """σ as the parser reads it: a positive parameter, or its value when the note
        gives one (variance σ² = 1)."""
        if self.spread_square is not None:
            return sqrt(self.spread_square)
        return Symbol(self.spread, positive=True)

    def written(self, name: str) -> str:
        """The note's own letter for verify's ``name`` (p for y where p_i = e^{z_i}/Σ…), else
        ``name`` itself."""
        return next((k for k, v in self.rename.items() if v == name and len(k) == 1), name)

    @staticmethod
    def for_model(model: Model) -> Notation:
        names = tuple(f.name for f in model.families)
        return Notation(names, model.dim.name, dependent=tuple(model.dependent))

    def model(self) -> Model:
        """Moments-only families; dependent as declared (independence is a hypothesis).

        A note about softmax alone has no random families: its Model is the default q, k,
        which none of its letters names."""
        # the placeholder pair never takes the name of the note's dimension (Σ_{i=1}^{k} p_i)
        spare = tuple(n for n in ("q", "k", "u", "v") if n != self.dim and n not in self.scalars)
        names = self.families or spare[:2]
        fams = tuple(Family(n) for n in names) + tuple(Family(x, scalar=True)
                                                       for x in self.scalars)
        known = set(names) | set(self.scalars)
        dep = tuple(p for p in self.dependent if p[0] in known and p[1] in known)
        if not self.families:
            dep = (spare[:2],) + tuple(p for p in dep if p[0] in self.scalars)
        return Model(fams, dim=dimension_symbol(self.dim), dependent=dep)


# ---- the lexer lark sees -------------------------------------------------------------------

_DROPPED = {"QUAD", "TEXT", "PERIOD", "SEMI", "COLON", "QUESTION", "QUOTE", "AT", "PERCENT",
            "HAT", "OTHERWISE", "CIRC", "PM", "EXISTS", "FORALL", "SET", "INT", "TAG", "TOP"}


#: What may follow a \sum that has no summand: it is then the note's name for a sum.
_NO_SUMMAND = {"RBRACE", "RPAR", "RSQB", "PLUS", "MINUS", "REL", "PRIME", "CDOT", "TIMES",
               "STAR", "SLASH", "AMP", "ROWSEP", "COMMA", "PERIOD", "QUAD", "TEXT"}


def _products_of_sums(toks: list[Tok]) -> list[Tok]:
    r"""``\sum_l e^{z_l} \cdot \sum_l e^{z_l}``: a product of two sums, as the reader sees it —
    the first sum ends at the · that a second \sum follows (it does not take the product)."""
    out = list(toks)
    a = 0
    while a < len(out):
        if out[a].kind != "SUM":
            a += 1
            continue
        depth, b = 0, a + 1
        while b < len(out):
            k = out[b].kind
            depth += {"LBRACE": 1, "LPAR": 1, "LSQB": 1, "RBRACE": -1, "RPAR": -1,
                      "RSQB": -1}.get(k, 0)
            if depth < 0 or (depth == 0 and k in ("PLUS", "MINUS", "REL", "AMP", "ROWSEP")):
                break
            if depth == 0 and k in ("CDOT", "TIMES", "STAR") and b + 1 < len(out) and \
                    out[b + 1].kind == "SUM":
                out[a:b] = [Tok("LBRACE", "{", out[a].start, out[a].start)] + out[a:b] + \
                    [Tok("RBRACE", "}", out[b - 1].end, out[b - 1].end)]
                break
            b += 1
        a += 1
    return out


def _sums_as_names(toks: Sequence[Tok]) -> list[Tok]:
    r"""``\frac{e_i}{\sum}``, ``\sum'``, ``\sum^2``, ``\Sigma_C``: a Σ with nothing to sum is
    the note's name for the sum of the exponentials (Σ), as the reader takes it."""
    out = list(toks)
    for a, t in enumerate(toks):
        if t.kind != "SUM":
            continue
        b, sub = a + 1, None
        while b + 1 < len(toks) and toks[b].kind in ("SUB", "SUP"):
            end = _group_end(toks, b + 1) + 1 if toks[b + 1].kind == "LBRACE" else b + 2
            if toks[b].kind == "SUB":
                sub = (b, end)
            b = end
        if b < len(toks) and toks[b].kind not in _NO_SUMMAND:
            continue  # a summand follows: a sum (\sum^2 alone is Σ², its ^2 a power)
        if sub is not None and any(u.kind == "REL" for u in toks[sub[0]:sub[1]]):
            continue  # \sum_{i=1}^{d_k} with nothing after: a sum that lost its summand
        out[a] = Tok("GREEK", "Sigma", t.start, t.end)
        if sub is not None:  # Σ_k (the sum over k) is Σ; Σ_C keeps the C the note wrote
            inner = [u for u in toks[sub[0] + 1:sub[1]] if u.kind not in ("LBRACE", "RBRACE")]
            if len(inner) == 1 and inner[0].kind == "LETTER" and inner[0].value.islower():
                for c in range(sub[0], sub[1]):
                    out[c] = Tok("QUAD", "", toks[c].start, toks[c].start)
    return [t for t in out if not (t.kind == "QUAD" and t.value == "")]


_OPENS = {"LSQB": "RSQB", "LCURLY": "RCURLY", "LPAR": "RPAR"}


def _indicators_of_letters(toks: Sequence[Tok]) -> list[Tok]:
    r"""``[k = y]``, ``\mathbb{1}\{y = k\}``, ``1(k \neq y)`` of two single letters: δ_{ky} (or
    1 − δ_{ky}) written with the letters as a subscript — indices as the note wrote them, as
    in p_y, never renamed as the note's vectors are (y the class its label names).

    >>> [t.value for t in _indicators_of_letters(tokenize("p_k - [k=y]"))]
    ['p', '_', 'k', '-', 'delta', '_', '{', 'k', 'y', '}']
    """
    out: list[Tok] = []
    n = 0
    while n < len(toks):
        t = toks[n]
        at = n + 1 if t.kind == "INDICATOR" or (t.kind == "NUMBER" and t.value == "1") else n
        window = toks[at:at + 5]
        if [u.kind for u in window[:1]] and window[0].kind in _OPENS and len(window) == 5 and \
                window[1].kind == "LETTER" and window[2].kind == "REL" and \
                window[2].value in ("=", "≠") and window[3].kind == "LETTER" and \
                window[4].kind == _OPENS[window[0].kind] and \
                (at > n or window[0].kind == "LSQB") and \
                len(window[1].value) == 1 and len(window[3].value) == 1:
            a, rel, b, end = window[1], window[2], window[3], window[4]
            delta = [Tok("GREEK", "delta", t.start, t.start), Tok("SUB", "_", t.start, t.start),
                     Tok("LBRACE", "{", a.start, a.start), a, b, Tok("RBRACE", "}", end.end, end.end)]
            if rel.value == "≠":
                delta = [Tok("LPAR", "(", t.start, t.start), Tok("NUMBER", "1", t.start, t.start),
                         Tok("MINUS", "-", t.start, t.start), *delta,
                         Tok("RPAR", ")", end.end, end.end)]
            out += delta
            n = at + 5
            continue
        out.append(t)
        n += 1
    return out


def _indexed_exponents(toks: Sequence[Tok]) -> list[Tok]:
    r"""``e^a_k``, ``e^z_{j}``: TeX puts both scripts on e, the note means e^{a_k} — one
    letter up and its index after it, without braces (Euler's e has no entries).

    >>> [t.value for t in _indexed_exponents(tokenize("e^a_k"))]
    ['e', '^', '{', 'a', '_', 'k', '}']
    """
    out: list[Tok] = []
    n = 0
    while n < len(toks):
        t = toks[n]
        if t.kind == "LETTER" and t.value == "e" and n + 4 < len(toks) and \
                toks[n + 1].kind == "SUP" and toks[n + 2].kind == "LETTER" and \
                toks[n + 2].value != "e" and toks[n + 3].kind == "SUB":
            end = n + 5 if toks[n + 4].kind in ("LETTER", "NUMBER") else None
            if toks[n + 4].kind == "LBRACE":
                close = next((m for m in range(n + 5, min(n + 9, len(toks)))
                              if toks[m].kind == "RBRACE"), None)
                end = None if close is None else close + 1
            if end is not None:
                lb, rb = toks[n + 2], toks[end - 1]
                out += [t, toks[n + 1], Tok("LBRACE", "{", lb.start, lb.start), *toks[n + 2:end],
                        Tok("RBRACE", "}", rb.end, rb.end)]
                n = end
                continue
        out.append(t)
        n += 1
    return out


def _entries_of_sigma(toks: Sequence[Tok]) -> list[Tok]:
    r"""``σ_i(z)``, ``σ_2(\mathbf z)``: the i-th entry of σ, its argument only named — σ_i
    (a product σ_i·z would be a misreading).  σ(z) without an index is left as it is."""
    out: list[Tok] = []
    n = 0
    while n < len(toks):
        out.append(toks[n])
        t = toks[n]
        if t.kind == "GREEK" and t.value == "sigma" and n + 6 <= len(toks) and \
                toks[n + 1].kind == "SUB":
            m = n + 2
            if toks[m].kind == "LBRACE" and m + 2 < len(toks) and toks[m + 2].kind == "RBRACE":
                m += 2
            if toks[m].kind in ("LETTER", "NUMBER", "RBRACE") and m + 3 < len(toks) and \
                    toks[m + 1].kind == "LPAR" and toks[m + 2].kind == "LETTER" and \
                    toks[m + 3].kind == "RPAR":
                out += toks[n + 1:m + 1]
                last = out[-1]
                out[-1] = Tok(last.kind, last.value, last.start, toks[m + 3].end, last.note)
                n = m + 4
                continue
        n += 1
    return out


def _bare_relations(toks: Sequence[Tok]) -> list[Tok]:
    """``[i{=}j]``: braces around a lone relation only set TeX's spacing — the relation."""
    out: list[Tok] = []
    n = 0
    while n < len(toks):
        if toks[n].kind == "LBRACE" and n + 2 < len(toks) and toks[n + 1].kind == "REL" and \
                toks[n + 2].kind == "RBRACE":
            out.append(toks[n + 1])
            n += 3
            continue
        out.append(toks[n])
        n += 1
    return out


#: Marks a letter to be read as the index the note wrote, never renamed (δ_{jy}: see below).
AS_WRITTEN = "\u2063"


def _delta_letters_as_written(toks: Sequence[Tok]) -> list[Tok]:
    """δ_{jy}: the letters of Kronecker's subscript are indices as written — y stays y where
    the note's label y is renamed t, as the y of z_y (written _y) does; renamed, δ_{jt} and z_y
    named two classes."""
    out = list(toks)
    for n, t in enumerate(toks):
        if not (t.kind == "GREEK" and t.value == "delta" and n + 3 < len(toks) and
                toks[n + 1].kind == "SUB" and toks[n + 2].kind == "LBRACE"):
            continue
        end = next((m for m in range(n + 3, min(n + 9, len(toks))) if toks[m].kind == "RBRACE"),
                   None)
        inner = toks[n + 3:end] if end is not None else []
        if end is None or not all(u.kind in ("LETTER", "COMMA") for u in inner) or \
                not any(u.kind == "LETTER" for u in inner):
            continue
        for m in range(n + 3, end):
            if out[m].kind == "LETTER" and len(out[m].value) == 1:
                out[m] = replace(out[m], value=out[m].value + AS_WRITTEN)
    return out


def prepare(toks: Sequence[Tok]) -> list[Tok]:
    """Tokens as the grammar wants them: E( and D( are operators, commentary goes.

    ``E`` followed by ``(`` or ``[`` (or ``_{…}`` / ``^2`` then one) is the expectation;
    ``D`` likewise is the variance, as Chinese notes write it.
    """
    if len(toks) > 4 * MAX_TOKENS:  # refused below anyway; the passes here need not see it
        raise ParseProblem(f"an expression of {len(toks)} tokens (limit {MAX_TOKENS})",
                           toks[0].start)
    toks = _products_of_sums(_sums_as_names(_entries_of_sigma(_indexed_exponents(
        _indicators_of_letters(_bare_relations(_delta_letters_as_written(toks)))))))
    skip: set[int] = set()
    out: list[Tok] = []
    open_bars: list[str] = []
    sub_depth: list[int] = []
    n = len(toks)
    for a, t in enumerate(toks):
        if t.kind == "UNKNOWN":
            raise ParseProblem(f"unknown macro {t.value}", t.start)
        if t.kind == "BEGIN" and t.value.rstrip("*") in ("cases", "dcases"):
            _two_cells_per_case(toks, a)
        if t.kind == "SUB" and a + 2 < n and toks[a + 1].kind == "LBRACE" and (
                toks[a + 2].kind == "COLON" or (a + 3 < n and toks[a + 3].kind == "COLON"
                                                and toks[a + 2].kind == "COMMA") or
                (a + 4 < n and toks[a + 3].kind == "COMMA" and toks[a + 4].kind == "COLON")):
            # S_{:,:j}, P_{i,:}, z_{1,:}: a slice of a matrix (rows or columns), as NumPy does
            raise ParseProblem("a slice of a matrix (S_{:,:j}): matrix algebra is not checked",
                               t.start)
        if t.kind == "SUP" and a + 4 < n and out and out[-1].kind == "LETTER" and \
                out[-1].value != "e" and [u.kind for u in toks[a + 1:a + 5]] == \
                ["LBRACE", "LETTER", "LETTER", "RBRACE"] and \
                all(u.value in _UPPER_INDEX_LETTERS for u in toks[a + 2:a + 4]):
            # A^{ij} V^{jb}: indices written up (tensor notation), not a power i·j
            raise ParseProblem("upper indices (A^{ij}): index notation is not checked", t.start)
        if t.kind == "TEXT" and out and out[-1].kind in ("NUMBER", "RPAR", "RBRACE") and \
                UNITS.fullmatch(t.note.strip()):
            # 2 × 32768² × 2 \text{ Bytes} = 137.4 \text{ GB}: the numbers mean nothing without
            # their units, which verify does not convert
            raise ParseProblem(f"a quantity in units ({t.note.strip()}): units are not checked",
                               t.start)
        if t.kind == "TEXT":
            _words_in_place_of_math(t, out, toks[a + 1] if a + 1 < n else None)
        if t.kind == "LPAR" and sub_depth and out and out[-1].kind in ("LETTER", "NUMBER") and \
                len(out) >= 2 and out[-2].kind == "LBRACE":
            # y_{i(j)}: "i or j, the same here" — a note's own convention, not one index
            raise ParseProblem("an index with a parenthesis, as i(j): not understood", t.start)
        if a in skip:
            continue
        if t.kind == "ROWSEP" and out and out[-1].kind == "BEGIN":
            continue  # \begin{bmatrix} \\ x ⊙ …: a row break before the first row
        if t.kind == "SUP" and a + 1 < n and toks[a + 1].kind in ("PLUS", "MINUS") and (
                a + 2 >= n or toks[a + 2].kind in ("RBRACE", "COMMA")):
            skip.add(a + 1)
            continue  # \lim_{τ→0^+}: the side a limit is taken from, not a power
        if t.kind == "SUP" and out and out[-1].kind in ("LETTER", "GREEK") and (
                (a + 1 < n and toks[a + 1].kind == "STAR") or
                [u.kind for u in toks[a + 1:a + 4]] == ["LBRACE", "STAR", "RBRACE"]):
            # y^{*}, θ^*: the starred one (the optimum, the true label) — a name, not a power
            end = a + 1 if toks[a + 1].kind == "STAR" else a + 3
            base = out.pop()
            out.append(Tok(base.kind, base.value + "*", base.start, toks[end].end))
            skip.update(range(a + 1, end + 1))
            continue
        if t.kind == "TEXT" and a + 1 < n and toks[a + 1].kind in ("SUB", "SUP") and \
                re.fullmatch(r"[A-Za-z]{2,}", t.note or ""):
            # \text{score}_{ij}, \text{scale}^2: a word with an index or a power is a name
            out.append(Tok("LETTER", t.note, t.start, t.end))
            continue
        if t.kind == "TEXT" and len(out) >= 3 and out[-1].kind == "LBRACE" and \
                out[-2].kind in ("SUB", "SUP") and out[-3].kind == "LETTER" and a + 1 < n and \
                toks[a + 1].kind == "RBRACE" and re.fullmatch(r"[A-Za-z]+", t.note or ""):
            # y_{\text{pred}}, y_{\text{true}}, p^{\text{new}}: two names, each its own
            # letter, not y (nor p to the power 1)
            out.pop()
            mark = "_" if out.pop().kind == "SUB" else "^"
            base = out.pop()
            out.append(Tok("LETTER", f"{base.value}{mark}{t.note}", base.start, toks[a + 1].end))
            skip.add(a + 1)
            continue
        if t.kind == "TEXT" and re.fullmatch(r"[A-Za-z]{2,}", (t.note or "").strip()) and \
                not (len(out) >= 2 and out[-2].kind in ("SUB", "SUP")) and \
                (not out or out[-1].kind in _OPERATOR | {"LPAR", "LBRACE", "LSQB"}) and \
                (a + 1 >= n or toks[a + 1].kind in _OPERATOR | {"RPAR", "RBRACE", "RSQB"}):
            # \frac{QK^T}{\text{scale}}: a word standing as the operand is a name (dropped,
            # the fraction would read QK^T/1)
            out.append(Tok("LETTER", t.note.strip(), t.start, t.end))
            continue
        label = _upper_label(toks, a) if t.kind == "SUP" and out and out[-1].kind in (
            "LETTER", "GREEK") and out[-1].value != "e" and not (
                len(out) >= 2 and out[-2].kind == "SUB") else None
        if label is not None:
            # m^{(new)}, d^{(1)}: which m, which d — a label in parentheses, not a power
            base = out.pop()
            out.append(Tok(base.kind, f"{base.value}^({label[0]})", base.start, toks[label[1]].end))
            skip.update(range(a + 1, label[1] + 1))
            continue
        if t.kind == "COLON" and out and out[-1].kind in ("NUMBER", "LETTER", "GREEK", "RPAR",
                                                          "RBRACE") and a + 1 < n and \
                toks[a + 1].kind in ("NUMBER", "LETTER", "GREEK", "LPAR", "LBRACE", "FRAC"):
            # 1:e, y:log(p): the Frobenius product of matrix calculus, not "1 e"
            raise ParseProblem("':' between two terms (A:B, a Frobenius product): matrix "
                               "calculus is not checked", t.start)
        if t.kind in _DROPPED and not (t.kind == "TOP" and out and out[-1].kind == "SUP"):
            if t.kind == "TEXT" and out and out[-1].kind in ("SUB", "SUP"):
                out.pop()  # ^{\text{…}}: a label, not a power
            continue
        if t.kind == "LETTER" and t.value in ("E", "D", "V") and not t.note:
            b = a + 1
            while b < n and toks[b].kind in ("SUB", "SUP"):
                b += 2 if b + 1 < n and toks[b + 1].kind != "LBRACE" else _skip_group(toks, b + 1)
            kl = t.value == "D" and any(u.kind in ("LETTER", "WORD") and u.value in ("KL", "K")
                                        for u in toks[a + 1:b])
            if b < n and toks[b].kind in ("LPAR", "LSQB") and not kl:  # D_{KL}(p‖q): no D(·)
                if t.value == "E":
                    t = Tok("EXPECT", "E", t.start, t.end)
                else:
                    t = Tok("WORD", "Var", t.start, t.end)
        if t.kind == "NUMBER" and t.value == "1" and a + 4 < n and \
                toks[a + 1].kind in ("LCURLY", "LPAR") and toks[a + 3].kind == "REL" and \
                toks[a + 5 if a + 5 < n else a + 4].kind in ("RCURLY", "RPAR") and \
                toks[a + 2].kind == "LETTER" and toks[a + 4].kind in ("LETTER", "NUMBER"):
            t = Tok("INDICATOR", "1", t.start, t.end)  # 1\{k = i\}, 1(k = i): the indicator
        if t.kind in ("BAR", "DBAR"):
            t = _bar(t, out, open_bars)
        if sub_depth and len(out) >= 2 and out[-1].end == t.start and out[-2].kind == "LBRACE" and \
                out[-1].kind in ("NUMBER", "LETTER") and t.kind in ("NUMBER", "LETTER") and \
                a + 1 < n and toks[a + 1].kind == "RBRACE":
            # A_{1k}, A_{ic}: in a subscript two characters side by side are two indices
            # (in their order: a product i·c would sort them)
            out.append(Tok("COMMA", ",", t.start, t.start))
        out.append(t)
        if t.kind == "LBRACE" and len(out) >= 2 and out[-2].kind == "SUB":
            sub_depth.append(len(out))
        elif t.kind == "RBRACE" and sub_depth:
            sub_depth.pop()
    return _drop_unclosed_curly(_sum_braces(out))


#: Words that may stand between terms of a formula (a case, a joint), not prose in place of it.
_JOINING = re.compile(r"\s*(if|for|and|or|when|where|with|otherwise|else|s\.t\.|i\.e\.|"
                      r"as|so|by|since|because|then|thus|hence|def|当|若|如果|且|或|和|时)?\s*",
                      re.IGNORECASE)
_OPERATOR = {"PLUS", "MINUS", "STAR", "CDOT", "TIMES", "SLASH", "REL"}
_OPERAND_START = {"LETTER", "GREEK", "NUMBER", "LPAR", "FRAC", "SQRT", "SUM", "WORD"}


#: Letters two of which side by side in a superscript are indices written up (A^{ij}).
_UPPER_INDEX_LETTERS = set("ijklmnabcdpqrs")


def _words_in_place_of_math(t: Tok, before: Sequence[Tok], after: Tok | None) -> None:
    """``e^{\text{neuron j input}}``, ``\text{how softmax}(a_i) \text{ changes when } a_j``:
    words standing where an operand is — the row is prose set in math, and dropping the
    words would leave a formula the author never wrote (e alone, a product (a_i)·a_j)."""
    if _JOINING.fullmatch(t.note or t.value) or not re.search(r"[A-Za-z]", t.note or t.value):
        return  # Chinese words beside a formula are its commentary (当 … 时), read elsewhere
    in_exponent = len(before) >= 3 and before[-1].kind == "LBRACE" and \
        before[-2].kind == "SUP" and before[-3].kind == "LETTER" and before[-3].value == "e"
    between = after is not None and after.kind in _OPERAND_START and (
        (before and before[-1].kind in _OPERAND_END) or " " in (t.note or "").strip())
    # −\text{softmax of node j} * \text{softmax of node i}: the words are the operand
    alone = ((not before or before[-1].kind in _OPERATOR) and
             (after is None or after.kind in _OPERATOR) or
             # \frac{\text{Variance of Raw Dot Product}}{…}: the words are a whole operand
             (bool(before) and before[-1].kind == "LBRACE" and after is not None and
              after.kind == "RBRACE")) and " " in (t.note or "").strip()
    if in_exponent or between or alone:
        raise ParseProblem(f"words in place of math ({(t.note or t.value).strip()!r}): "
                           "prose, not a formula", t.start)
    name = (t.note or t.value).strip()
    if re.fullmatch(r"[A-Za-z]{2,}", name) and after is not None and after.kind == "LPAR" and \
            (not before or before[-1].kind in _OPERATOR | {"LPAR", "LBRACE"}):
        # \text{MSE}(y, ŷ): a function the note names; dropping the name would read (y, ŷ)
        raise ParseProblem(f"the function {name}(…) is not one verify knows", t.start)


def prose_in_place_of_math(text: str, offset: int = 0) -> None:
    """:class:`ParseProblem` when words in ``text`` (an expression as written, its
    ``\\text{…}`` still there) stand where an operand is (see _words_in_place_of_math)."""
    try:
        toks = tokenize(text)
    except LexError:
        return  # the parser says where
    kept: list[Tok] = []
    for a, t in enumerate(toks):
        if t.kind == "TEXT":
            try:
                _words_in_place_of_math(t, kept, toks[a + 1] if a + 1 < len(toks) else None)
            except ParseProblem as p:
                raise ParseProblem(p.message, (p.offset or 0) + offset) from None
        elif t.kind != "QUAD":
            kept.append(t)


def _group_end(toks: Sequence[Tok], b: int) -> int:
    """The index of the } closing the { at toks[b] (len(toks) when it is never closed)."""
    return b + _skip_group(toks, b) - 2


def _sum_braces(toks: list[Tok]) -> list[Tok]:
    r"""``\sum_k{e^{z_k} - e^{z_1}e^{z_1}}``: braces are invisible, so the reader sees
    Σ_k e^{z_k} − e^{z_1}e^{z_1}, and reads the sum's scope the usual way.  The braces go
    when a term after a + or − inside them does not use the sum's index (they are kept
    for ``\sum_i{a_i + b_i}``, where the author grouped what the sum runs over)."""
    drop: set[int] = set()
    for a, t in enumerate(toks):
        if t.kind != "SUM":
            continue
        b, index = a + 1, None
        while b + 1 < len(toks) and toks[b].kind in ("SUB", "SUP"):
            end = _group_end(toks, b + 1) if toks[b + 1].kind == "LBRACE" else b + 1
            if toks[b].kind == "SUB" and index is None:
                index = next((u.value for u in toks[b + 1:end + 1] if u.kind == "LETTER"), None)
            b = end + 1
        if index is None or b >= len(toks) or toks[b].kind != "LBRACE":
            continue
        end = _group_end(toks, b)
        if end >= len(toks):
            continue
        terms: list[list[Tok]] = [[]]
        depth = 0
        for u in toks[b + 1:end]:
            depth += {"LBRACE": 1, "LPAR": 1, "LSQB": 1, "RBRACE": -1, "RPAR": -1,
                      "RSQB": -1}.get(u.kind, 0)
            if depth == 0 and u.kind in ("PLUS", "MINUS") and terms[-1]:
                terms.append([])
            else:
                terms[-1].append(u)
        if len(terms) > 1 and any(not any(u.kind == "LETTER" and u.value == index for u in term)
                                  for term in terms[1:]):
            drop |= {b, end}
    return [t for n, t in enumerate(toks) if n not in drop] if drop else toks


def _drop_unclosed_curly(toks: list[Tok]) -> list[Tok]:
    """``\\left\\{ … \\right.`` opens a brace it never closes (a piecewise): drop the opener."""
    opened: list[int] = []
    for n, t in enumerate(toks):
        if t.kind == "LCURLY":
            opened.append(n)
        elif t.kind == "RCURLY" and opened:
            opened.pop()
    return [t for n, t in enumerate(toks) if n not in set(opened)] if opened else toks


_OPERAND_END = {"LETTER", "GREEK", "NUMBER", "RPAR", "RSQB", "RBRACE", "RCURLY", "RANGLE",
                "INFTY", "TRANSPOSE", "PRIME", "CBAR", "CDBAR", "INDICATOR", "ELLIPSIS"}


def _bar(t: Tok, before: list[Tok], open_bars: list[str]) -> Tok:
    """| and ‖ open or close: after an operand, with one of its kind open, it closes;
    after an operand with none open, | is "given" (P(y | x))."""
    closes = bool(before) and before[-1].kind in _OPERAND_END and t.kind in open_bars
    if not closes and t.kind == "BAR" and before and before[-1].kind in _OPERAND_END:
        return Tok("GIVEN", "|", t.start, t.end)
    if closes:
        open_bars.remove(t.kind)
        return Tok("C" + t.kind, t.value, t.start, t.end)
    open_bars.append(t.kind)
    return Tok("O" + t.kind, t.value, t.start, t.end)


def _skip_group(toks: Sequence[Tok], b: int) -> int:
    """Index after the {…} group starting at toks[b], minus the SUB/SUP position offset."""
    depth, c = 0, b
    while c < len(toks):
        if toks[c].kind == "LBRACE":
            depth += 1
        elif toks[c].kind == "RBRACE":
            depth -= 1
            if depth == 0:
                return c - b + 2
        c += 1
    return len(toks)


class _TokLexer(Lexer):
    """Hands lark the tokens made by attncheck.verify.lexer."""

    def __init__(self, conf: Any) -> None:
        pass

    def lex(self, data: Any) -> Iterator[Token]:  # type: ignore[override]
        for t in data:
            tok = Token(t.kind, t.value, start_pos=t.start, end_pos=t.end)
            yield tok


@lru_cache(maxsize=1)
def _lark() -> Lark:
    grammar = Path(__file__).with_name("grammar.lark").read_text(encoding="utf-8")
    return Lark(grammar, parser="lalr", lexer=_TokLexer, propagate_positions=True)


_TERMINALS = {
    "REL": "a relation", "RPAR": "')'", "LPAR": "'('", "RSQB": "']'", "LSQB": "'['",
    "RBRACE": "'}'", "LBRACE": "'{'", "COMMA": "','", "PLUS": "'+'", "MINUS": "'-'",
    "SLASH": "'/'", "SUP": "'^'", "SUB": "'_'", "NUMBER": "a number", "LETTER": "a letter",
    "GREEK": "a Greek letter", "FRAC": "\\frac", "SQRT": "\\sqrt", "EXPECT": "E(",
    "WORD": "a function", "SUM": "\\sum", "PARTIAL": "\\partial", "RANGLE": "\\rangle",
    "CDOT": "\\cdot", "TIMES": "\\times", "TRANSPOSE": "^\\top", "$END": "the end",
    "AMP": "'&'", "ROWSEP": "'\\\\'", "END": "\\end", "BEGIN": "\\begin", "BAR": "'|'",
}


def _expected(names: set[str]) -> str:
    shown = sorted({_TERMINALS.get(n, n.lower()) for n in names})
    if len(shown) > 5:
        return "an expression" if {"a number", "a letter"} & set(shown) else ", ".join(shown[:5]) + ", …"
    return " or ".join(shown)


# ---- values between the transformer's steps -------------------------------------------------

@dataclass(frozen=True)
class _Vector:
    """A vector (a random family q, k, or a softmax vector y, x) times a scalar, maybe transposed."""

    name: str
    transposed: bool = False
    coeff: Expr = S.One
    bold: bool = False

    def times(self, c: Expr) -> _Vector:
        return _Vector(self.name, self.transposed, self.coeff * c, self.bold)


@dataclass(frozen=True)
class _Matrix:
    """A matrix in whole-vector form while it is being built: diag(y), y yᵀ, I, their sums."""

    entry: Expr

    def times(self, c: Expr) -> _Matrix:
        return _Matrix(self.entry * c)


@dataclass(frozen=True)
class _MatrixBefore:
    """A matrix (or a row vector) followed by an operator still waiting for its operand
    (Jᵀ ∇_𝐩 L, 𝐲ᵀ log 𝐩): the operator takes what follows, then the matrix multiplies the
    result."""

    matrix: Any
    operator: Any


@dataclass(frozen=True)
class _JacobianBy:
    """``J_𝐱`` waiting for the vector it differentiates: J_𝐱(𝐬) is ∂𝐬/∂𝐱."""

    var: Symbol


@dataclass(frozen=True)
class _RowOuter:
    """yᵀy of two whole softmax vectors: a number for column vectors, but beside diag(y) in a
    difference the outer product of row vectors (the convention of the note that writes
    diag(s) − sᵀs)."""

    a: _Vector
    b: _Vector


@dataclass(frozen=True)
class _Fn:
    """Something that applies to what follows it: \\log, \\exp, σ, f, ∂/∂x_j, softmax.

    ``fallback`` is its value when nothing follows (σ alone is the symbol σ)."""

    name: str
    coeff: Expr = S.One
    fallback: Expr | None = None
    var: Expr | None = None
    power: Expr = S.One
    primes: int = 0
    #: what ∂/∂x has taken so far: the operator applies to the whole product after it
    body: Expr | None = None
    #: d/dx \ln x: the function waiting for its argument before ∂/∂x takes the product
    waiting: _Fn | None = None


def _as_matrix(t: Any) -> _Matrix | None:
    """A matrix of softmax's as its (ROW, COL) entry: diag(y) − y yᵀ while built, or ∂y/∂x
    (the Jacobian of the softmax's output by its scores); None for anything else."""
    while isinstance(t, _Paren):
        t = t.expr
    if isinstance(t, _Matrix):
        return t
    if isinstance(t, JacobianOf):
        return _Matrix(t.entry(ROW, COL))
    return None


def _literal_entries(e: Expr) -> bool:
    """Whether e names an entry by its number (y_0, x_3): then how entries are counted
    matters, and a sum's limits stay as written."""
    return any(any(i.is_Integer for i in x.indices) for x in e.atoms(Indexed))


def _swapped(e: Expr) -> Expr:
    """An entry at (ROW, COL) → the entry at (COL, ROW): the transpose (xreplace swaps both
    placeholders in one pass)."""
    return e.xreplace({ROW: COL, COL: ROW})


def _order(d: _Fn, meta: Any) -> int:
    """How many times ∂ applies: ∂²_{o_j} l twice, ∂_{o_j} once."""
    if d.power.is_Integer and 1 <= int(d.power) <= 3:  # type: ignore[union-attr]
        return int(d.power)
    raise ParseProblem(f"a derivative to the power {d.power}", _where(meta))


@dataclass(frozen=True)
class _Paren:
    """A parenthesized expression: f(x) applies f, y_i(1 − y_i) multiplies."""

    expr: Any


@dataclass(frozen=True)
class _SubParen:
    """``(z)_i``: in σ(z)_i a softmax component; elsewhere the parenthesized value."""

    expr: Any
    indices: tuple[Expr, ...]
    power: Expr = S.One  # s(x)_i^2: the component squared


@dataclass(frozen=True)
class _EntryVec:
    """A whole vector of softmax's (p − y, ∂L/∂z) while it is being built: its entry at
    :data:`ROW` — compared entry by entry as an :class:`EntryVector`."""

    entry: Expr

    def times(self, c: Expr) -> _EntryVec:
        return _EntryVec(self.entry * c)


@dataclass(frozen=True)
class _Literal:
    """``[a, b, c]``: a vector written out entry by entry (compared entry by entry)."""

    items: tuple[Expr, ...]


@dataclass(frozen=True)
class _Tuple:
    items: tuple[Any, ...]


#: An empty cell of a matrix's row (read as an entry not written out).
_EMPTY_CELL = object()


@dataclass(frozen=True)
class _Dots:
    """``\\cdots`` in a written-out sum."""


@dataclass(frozen=True)
class _Series:
    """Terms of a written-out sum (with the dots) waiting for their last term."""

    terms: tuple[Any, ...]


@dataclass(frozen=True)
class _Partial:
    """∂ (or d, or δ used as ∂) waiting for what it differentiates."""


@dataclass(frozen=True)
class _Softmax:
    """softmax(x): a vector; its components are y_i."""

    of: str


@dataclass(frozen=True)
class _SoftmaxOf:
    """softmax of a vector expression (softmax(z − c), softmax(z/T)): its entry at
    :data:`ROW`, e^{v_ROW}/Σ_k e^{v_k}."""

    entry: Expr


@dataclass(frozen=True)
class _Index:
    """The raw contents of a subscript: indices, or a condition such as i = 1 or k ≠ i."""

    items: tuple[tuple[Any, ...], ...]  # each: (expr,) or (expr, rel, expr) …
    text: str = ""
    #: the one letter as the note wrote it (_t), not renamed (_{y} read as the label's t)
    raw: bool = False


def _plain_scalar(e: Expr) -> bool:
    """A number, or one in letters that name no vector of softmax's (c in c·[1, 0]): what a
    worked example's vector may be scaled by, entry by entry."""
    return e.is_number or not (e.has(Indexed) or e.has(VectorLiteral) or
                               {str(x) for x in e.free_symbols} & {"x", "y", "t"})


def _entry_list(rows: Sequence[Sequence[Expr]]) -> VectorLiteral:
    """A written matrix as the checker compares it: a vector's entries in one list (a row or
    a column alike), else its rows."""
    if len(rows) == 1 or all(len(r) == 1 for r in rows):
        return VectorLiteral(*(e for r in rows for e in r))
    return VectorLiteral(*(VectorLiteral(*r) for r in rows))


def _bare(x: Any) -> Any:
    """``x`` without the parentheses around it."""
    while isinstance(x, _Paren):
        x = x.expr
    return x


def _where(meta: Any) -> int:
    return int(getattr(meta, "start_pos", 0) or 0)


def _is_index(e: Any) -> bool:
    return isinstance(e, Expr) and (e.is_Integer or (isinstance(e, Symbol) and e.is_integer) or
                                    (e.is_integer and not e.has(Indexed)))


def class_index(e: Any) -> Any:
    r"""An index that names the correct class: f_{y_i} (CS231n: sample i's class y_i) or
    p_{\text{target}} — one positive integer, read as an index letter of its own.

    >>> class_index(IndexedBase("y")[index_symbol("i")])
    y_i
    >>> class_index(Symbol("target")), class_index(Symbol("pred"))
    (target, pred)
    """
    if isinstance(e, Indexed) and len(e.indices) == 1 and isinstance(e.indices[0], Symbol) \
            and e.indices[0].is_integer:
        return index_symbol(f"{e.base.label}_{e.indices[0]}")
    if isinstance(e, Symbol) and not e.is_integer and e.name in CLASS_WORDS:
        return index_symbol(e.name)
    return e


def _unused_index(taken: set[Any], letters: str = "kmlruvw") -> Symbol:
    """The first of ``letters`` as an index symbol that ``taken`` does not hold: a summation
    index of its own for an entry-by-entry product or sum."""
    return next(index_symbol(c) for c in letters if index_symbol(c) not in taken)


def _two_cells_per_case(toks: Sequence[Tok], a: int) -> None:
    r"""At ``\begin{cases}``: refuse a row with a relation in a cell between two ``&``
    (value & condition is all a case has; "a & if i = j \ b & if i ≠ j" has lost a row
    break, one backslash for two — "a & if & i = j" only splits its condition)."""
    depth, amps, related = 0, 0, False
    for t in toks[a + 1:]:
        if t.kind in ("BEGIN", "LBRACE"):
            depth += 1
        elif t.kind in ("END", "RBRACE"):
            if depth == 0:
                return
            depth -= 1
        elif depth == 0 and t.kind == "ROWSEP":
            amps, related = 0, False
        elif depth == 0 and t.kind == "REL" and amps >= 1:
            related = True
        elif depth == 0 and t.kind == "AMP":
            amps += 1
            if amps > 1 and related:
                raise ParseProblem("a case with more than one '&' (a row break written as one "
                                   "backslash?): the branches cannot be told apart", t.start)


def _upper_label(toks: Sequence[Tok], a: int) -> tuple[str, int] | None:
    """At the ^ of ``^{(new)}`` or ``^{(1)}``: (the label, the index of its closing brace) —
    a word or a number in parentheses over a letter; None for ^{(m)} (an index letter, the
    m-th component) and for every power."""
    kinds = [t.kind for t in toks[a + 1:a + 8]]
    if kinds[:2] != ["LBRACE", "LPAR"]:
        return None
    b = a + 3
    inner: list[Tok] = []
    while b < len(toks) and toks[b].kind in ("LETTER", "NUMBER", "WORD") and len(inner) < 6:
        inner.append(toks[b])
        b += 1
    if not inner or b + 1 >= len(toks) or toks[b].kind != "RPAR" or toks[b + 1].kind != "RBRACE":
        return None
    text = "".join(t.value for t in inner)
    if len(inner) == 1 and inner[0].kind == "LETTER" and len(text) == 1:
        return None  # q_i^{(m)}: an index
    if not (re.fullmatch(r"[0-9]+", text) or re.fullmatch(r"[A-Za-z]{2,}", text)):
        return None
    return text, b + 1


def _score_entry(b: Any) -> Indexed | None:
    """(x_i): one entry of the scores in parentheses, the argument S(x_i) names its output by."""
    if isinstance(b, _Paren) and isinstance(b.expr, Indexed) and \
            str(b.expr.base.label) == "x" and len(b.expr.indices) == 1:
        return b.expr
    return None


def _split_indices(e: Any) -> list[Expr]:
    """``ij`` (a product of two index letters) → [i, j]; ``i+1`` stays one index."""
    if isinstance(e, Mul) and all(isinstance(a, Symbol) for a in e.args):
        return list(_ordered_factors(e))
    return [e]


def _ordered_factors(e: Mul) -> tuple[Expr, ...]:
    order = getattr(e, "_attncheck_order", None)
    return order if order is not None else e.args


@v_args(meta=True)
class _Build(Transformer_NonRecursive):
    """Parse tree → SymPy objects; each method checks what it is given and says where."""

    def __init__(self, notation: Notation, defined: frozenset[str] = frozenset(),
                 likelihood: bool = False) -> None:
        super().__init__()
        self.n = notation
        self.defined = defined
        self.likelihood = likelihood
        self.grids: Mapping[str, Grid] = {}
        #: the expression writes kᵀq (column vectors): there, q qᵀ is an outer product
        self.column_vectors = False
        #: y_{k=i}: the case conditions written in subscripts, (relation, k, i)
        self.conditions: list[tuple[str, Expr, Expr]] = []
        #: upper indices read as one quantity (y_k^{(i)}: sample i's entry k, as y_k)
        self.dropped: list[str] = []
        self.model = notation.model()
        self.families = set(notation.families)
        self.dim = self.model.dim

    # -- helpers ----------------------------------------------------------------------
    def v(self, x: Any, meta: Any, what: str = "here") -> Expr:
        """A plain scalar value (resolving parens, pending functions, series)."""
        if isinstance(x, _Paren):
            return self.v(x.expr, meta, what)
        gradient = self._gradient(x)
        if gradient is not None:  # ∇_z L, ∇_𝐩 L (∇ takes a vector's gradient, as a bold 𝐱 says)
            x = gradient
        if isinstance(x, _EntryVec):
            if what == "as a side of '='":
                return EntryVector(x.entry)
            raise ParseProblem("a whole vector (p − y, ∂L/∂z) inside an expression: vector "
                               "algebra is not checked", _where(meta))
        if isinstance(x, _SubParen):
            return self.v(x.expr, meta, what) ** x.power
        if isinstance(x, _Series) and not isinstance(x.terms[-1], _Dots):
            self._written_out(x.terms[:-1], x.terms[-1], meta)  # why its last term is not one
        if isinstance(x, _Series):
            raise ParseProblem("a written-out sum needs its last term after \\cdots", _where(meta))
        if isinstance(x, _Fn):
            if x.name == "d/d" and x.body is not None and x.var is not None:
                return x.coeff * Derivative(x.body, (x.var, _order(x, meta)))
            if x.fallback is not None:
                return x.coeff * x.fallback ** x.power
            raise ParseProblem(f"{x.name} applies to nothing here", _where(meta))
        if isinstance(x, _Vector):
            if x.name in self.families:
                raise ParseProblem(
                    f"{x.name} is a random vector; {what} a number is expected (a component "
                    f"{x.name}_i or a dot product such as {x.name}^\\top k)", _where(meta))
            raise ParseProblem(f"{x.name} is a vector here: vector and matrix algebra is not "
                               "checked (write it by components, as y_i)", _where(meta))
        if isinstance(x, (_Softmax, _SoftmaxOf)) and what == "as a side of '='" and \
                (isinstance(x, _SoftmaxOf) or x.of == "x"):
            # softmax(z) = softmax(z − c): the two vectors, compared at a general entry
            return EntryVector(x.entry if isinstance(x, _SoftmaxOf) else
                               IndexedBase("y")[ROW])
        if isinstance(x, (_Softmax, _SoftmaxOf)):
            raise ParseProblem("softmax(…) is a vector: take a component, softmax(x)_i",
                               _where(meta))
        if isinstance(x, _Matrix) and what == "as a side of '='":
            return EntryMatrix(x.entry)
        if isinstance(x, _JacobianBy):
            raise ParseProblem(f"J_{x.var} in a product of matrices: vector and matrix algebra "
                               "is not checked (J_x(y) = diag(y) − y y^T is)", _where(meta))
        if isinstance(x, _RowOuter):  # yᵀy alone: the dot product of column vectors
            taken = {a.name for a in (x.a, x.b)}
            k = next(index_symbol(c) for c in "kmlr" if c not in taken)
            return x.a.coeff * x.b.coeff * Sum(IndexedBase(x.a.name)[k] * IndexedBase(x.b.name)[k],
                                               (k, 1, self._length()))
        if isinstance(x, _Matrix):
            raise ParseProblem("a matrix in vector form (diag(y), y y^T) is checked only as a "
                               "side of '='", _where(meta))
        if isinstance(x, _Dots):
            raise ParseProblem("\\cdots here is not part of a written-out sum", _where(meta))
        if isinstance(x, _Partial):
            raise ParseProblem("\\partial here differentiates nothing", _where(meta))
        if isinstance(x, _Tuple) and what == "as a side of '='":
            x = self._numbers(x, meta) or x  # = (0.659, 0.242, 0.099)
        if isinstance(x, _Literal) and what == "as a side of '='":
            return VectorLiteral(*x.items)
        if isinstance(x, Grid):
            return _entry_list(x.rows())
        if isinstance(x, (_Tuple, _Index, _Literal)):
            raise ParseProblem("a list where one value is expected", _where(meta))
        if isinstance(x, tuple):
            raise ParseProblem("\\partial here is not part of a derivative", _where(meta))
        return x

    def _letter_value(self, name: str, meta: Any) -> Any:
        if name in self.n.constants:  # e^{x_i + c} with c "a constant": a real number
            return Symbol(name, real=True)
        if name in self.n.scalars:
            return self.model.family(name).symbol
        name = self.n.rename.get(name, name)
        if name in self.families:
            return _Vector(name)
        if name == "e":
            return EULER
        if name == self.dim.name:
            return self.dim
        if name == self.n.length or name == "n":
            return LENGTH if name == "n" else dimension_symbol(name)
        if name in self.n.functions:
            return _Fn(name, fallback=Symbol(name))
        if name == "L" and self.likelihood:
            return LIKELIHOOD
        if name in ("L",) or name.startswith("cal"):
            return LOSS if name in ("L", "calL") else Symbol(name)
        if name in INDEX_LETTERS and name not in SOFTMAX_BASES:
            return index_symbol(name)
        return Symbol(name)

    # -- atoms -------------------------------------------------------------------------
    def letter(self, meta: Any, ch: list[Token]) -> Any:
        name = str(ch[0])
        if name in self.grids:  # Q of the worked example: the matrix written for it
            return replace(self.grids[name], name=name)
        return self._plain_letter(name, meta)

    def _plain_letter(self, name: str, meta: Any) -> Any:
        if name.endswith(AS_WRITTEN):  # δ_{jy}: an index as written (see prepare)
            return self._index_letter(name[:-1])
        if self.n.jacobian == "J" and name.replace(BOLD, "") == "J":
            return JacobianOf(Symbol("y"), Symbol("x"))  # the note's J: softmax's Jacobian
        if BOLD in name:  # \mathbf{x}: a vector (a random family, or one of softmax's)
            plain = name.replace(BOLD, "")
            value = self._letter_value(plain, meta)
            if isinstance(value, _Vector):
                return _Vector(value.name, bold=True)
            if isinstance(value, (Symbol, _Fn)) and not isinstance(value, Indexed):
                renamed = self.n.rename.get(plain, plain)
                return _Vector(renamed, bold=True) if renamed not in ("L",) else value
            return value
        return self._letter_value(name, meta)

    def _class_argument(self, b: Any) -> Symbol | None:
        """(v), (k), (a_t): one lowercase letter in parentheses that is no quantity of the note,
        or an entry that names a class — the class at which π(v) takes the note's softmax;
        else None."""
        if isinstance(b, _Paren) and isinstance(b.expr, Indexed) and len(b.expr.indices) == 1 \
                and str(b.expr.base.label) not in ("x", "y") + self.n.families:
            return class_index(b.expr)  # π(a_t): at the class a_t, an index of its own
        if not (isinstance(b, _Paren) and isinstance(b.expr, Symbol)) or b.expr.is_number:
            return None
        name = b.expr.name
        if b.expr.is_integer or (len(name) == 1 and name.islower() and
                                 name not in self.n.families + ("x", "y", "t", "e")):
            return index_symbol(name)
        return None

    def greek(self, meta: Any, ch: list[Token]) -> Any:
        g = str(ch[0])
        if BOLD in g and self.n.rename.get(g.replace(BOLD, "")) in ("x", "y"):
            # \boldsymbol{\sigma} where σ is softmax's output: the whole vector
            return _Vector(self.n.rename[g.replace(BOLD, "")], bold=True)
        if g == "pi" and "pi" not in self.n.rename:
            return pi  # (π(v) = e^{z_v}/Σ_u e^{z_u}: a policy's letter, the note's softmax)
        if g == "ell" and self.n.rename.get("ell") == "L":
            return LOSS  # ℓ = −Σ_k y_k log ŷ_k: the note's loss, by its letter
        if g == "ell" and self.n.rename.get("ell") == "ell":
            return Symbol("ℓ")  # ℓ = qᵀk: the note's logit (see notation._ell_is_a_quantity)
        if g == "ell":
            return index_symbol("ℓ")
        if g in ("rho", "varrho") and self.model.dependent:
            return self.model.rho(*self.model.dependent[0])
        if g == self.n.spread:  # σ in N(0, σ²), d σ⁴: the components' standard deviation
            return self.n.spread_symbol()
        if g == "sigma":  # σ(z) is the sigmoid (σ(z)_i: softmax); σ alone a symbol
            return _Fn("sigma", fallback=Symbol("sigma"))
        if g == "delta":
            return _Fn("delta", fallback=Symbol("delta"))
        return Symbol(self.n.rename.get(g, g))

    def number(self, meta: Any, ch: list[Token]) -> Expr:
        s = str(ch[0])
        if len(s) > MAX_DIGITS:
            raise ParseProblem(f"a number with {len(s)} digits (limit {MAX_DIGITS})", _where(meta))
        return Rational(s) if "." in s else Integer(s)

    def infinity(self, meta: Any, ch: list[Any]) -> Expr:
        return oo

    def dots(self, meta: Any, ch: list[Any]) -> _Dots:
        return _Dots()

    def one(self, meta: Any, ch: list[Any]) -> Expr:
        return Integer(1)

    def partial(self, meta: Any, ch: list[Any]) -> _Partial:
        return _Partial()

    def nabla(self, meta: Any, ch: list[Any]) -> _Partial:
        return _Partial()

    # -- brackets ------------------------------------------------------------------------
    def paren(self, meta: Any, ch: list[Any]) -> _Paren:
        return _Paren(ch[1])

    def given(self, meta: Any, ch: list[Any]) -> _Tuple:
        """P(y | x): the condition is part of the quantity's name, never evaluated."""
        return _Tuple((ch[1], ch[3]))

    def vector_(self, meta: Any, ch: list[Any]) -> _Literal | _EntryVec:
        items = tuple(c for c in ch if not isinstance(c, Token))
        if any(isinstance(c, _Dots) for c in items):
            return self._pattern_vector(items, meta)
        return _Literal(tuple(self.v(c, meta, "in a vector") for c in items))

    def _pattern_vector(self, items: tuple[Any, ...], meta: Any) -> _EntryVec:
        """[a_1, a_2, ⋯, a_n] and [0, 0, ⋯, −1/a_j, ⋯, 0] (one entry singled out, at the index
        its letter names): the vector at its entry :data:`ROW`."""
        where = _where(meta)
        dots = [n for n, t in enumerate(items) if isinstance(t, _Dots)]
        if dots[0] == 0 or dots[-1] == len(items) - 1 or len(dots) > 2 or \
                (len(dots) == 2 and dots[1] != dots[0] + 2):
            raise ParseProblem("\\cdots here is not part of a written-out vector", where)
        tail = items[dots[-1] + 1:]
        body, var, lo, hi = self._pattern(items[:dots[0]], tail[-1], meta, constant=True)
        if lo != 1 or any(body.xreplace({var: hi - len(tail) + 1 + n}) != self.v(t, meta)
                          for n, t in enumerate(tail[:-1])):
            raise ParseProblem("cannot read the written-out vector: its entries are not one "
                               "pattern from the first", where)
        entry = body.xreplace({var: ROW})
        if len(dots) == 2:
            g = self.v(items[dots[0] + 1], meta, "in a vector")
            at = self._singled_out(g, body, var, meta)
            entry += KroneckerDelta(ROW, at) * (g - body.xreplace({var: at}))
        return _EntryVec(entry)

    def tuple_(self, meta: Any, ch: list[Any]) -> _Tuple:
        return _Tuple(tuple(c for c in ch if not isinstance(c, Token)))

    def bracket(self, meta: Any, ch: list[Any]) -> _Paren:
        return _Paren(ch[1])

    def group(self, meta: Any, ch: list[Any]) -> Any:
        return ch[1]

    def empty(self, meta: Any, ch: list[Any]) -> Expr:
        return Integer(1)

    def curly(self, meta: Any, ch: list[Any]) -> _Paren:
        return _Paren(ch[1])

    def abs_(self, meta: Any, ch: list[Any]) -> Expr:
        x = ch[1]
        if isinstance(x, _Vector):
            return sqrt(self._dot(x, x, meta))
        return Abs(self.v(x, meta, "inside |…|"))

    def norm(self, meta: Any, ch: list[Any]) -> Expr:
        x = ch[1]
        if isinstance(x, _Paren):
            x = x.expr
        if isinstance(x, _Vector):
            return sqrt(self._dot(x, x, meta))
        return Abs(self.v(x, meta, "inside ‖…‖"))

    def angle(self, meta: Any, ch: list[Any]) -> Expr:
        a, b = ch[1], ch[3]
        if isinstance(a, _Vector) and isinstance(b, _Vector):
            return self._dot(a, b, meta)
        raise ParseProblem("\\langle a, b\\rangle: expected two vectors", _where(meta))

    def iverson(self, meta: Any, ch: list[Any]) -> Expr:
        return self._indicator(ch[1], str(ch[2]), ch[3], meta)

    def _indicator(self, a: Any, rel: str, b: Any, meta: Any) -> Expr:
        a, b = class_index(self.v(a, meta)), class_index(self.v(b, meta))
        if not (_is_index(a) and _is_index(b)):
            raise ParseProblem("an indicator compares two indices, e.g. \\mathbb{1}\\{i=j\\}",
                               _where(meta))
        if rel == "=":
            return KroneckerDelta(a, b)
        if rel == "≠":
            return 1 - KroneckerDelta(a, b)
        raise ParseProblem(f"an indicator of {a} {rel} {b} is not supported", _where(meta))

    def indicator(self, meta: Any, ch: list[Any]) -> Expr:
        idx: _Index = ch[2]
        item = idx.items[0] if len(idx.items) == 1 else None
        if item is not None and len(item) == 3:
            return self._indicator(item[0], item[1], item[2], meta)
        if item is not None and len(item) == 1 and isinstance(item[0], Expr) and \
                item[0].atoms(KroneckerDelta) and item[0].free_symbols <= {
                    s for d in item[0].atoms(KroneckerDelta) for s in d.free_symbols}:
            return item[0]  # \mathbf{1}_{[j=c]}: the bracket already says it (Iverson's)
        raise ParseProblem("\\mathbb{1}_{…}: expected a condition such as i = j", _where(meta))

    def indicator_rel(self, meta: Any, ch: list[Any]) -> Expr:
        return self._indicator(ch[2], str(ch[3]), ch[4], meta)

    # -- sub- and superscripts ----------------------------------------------------------------
    def sub_arg(self, meta: Any, ch: list[Any]) -> _Index:
        if len(ch) == 1:
            tok: Token = ch[0]
            if tok.type == "LETTER":
                name = str(tok)
                if name in self.families or name in INDEX_LETTERS or True:
                    return _Index(((self._index_letter(name),),), name, raw=True)
            if tok.type == "GREEK":
                return _Index(((index_symbol("ℓ") if str(tok) == "ell" else Symbol(str(tok)),),),
                              str(tok))
            if tok.type == "NUMBER":
                return _Index(((self.number(meta, [tok]),),), str(tok))
            if tok.type == "WORD":
                return _Index(((Symbol(str(tok)),),), str(tok))
        if len(ch) == 2:  # {}
            return _Index((), "")
        return ch[1]

    def _length(self) -> Expr:
        """The upper limit of a softmax sum the note writes without one: the note's number
        of classes where it writes one (Σ_{j=1}^{K} elsewhere), else n."""
        if self.n.length == "n":
            return LENGTH
        if self.n.length.isdigit():
            return Integer(int(self.n.length))
        return dimension_symbol(self.n.length)

    def _index_letter(self, name: str) -> Expr:
        if name == self.dim.name:
            return self.dim
        if name == "n":
            return LENGTH
        return index_symbol(name)

    def sub_items(self, meta: Any, ch: list[Any]) -> _Index:
        items = tuple(c for c in ch if isinstance(c, tuple))
        text = ",".join(str(c[0]) for c in items) if all(len(c) == 1 for c in items) else ""
        return _Index(items, text)

    def sub_item(self, meta: Any, ch: list[Any]) -> tuple[Any, ...]:
        out: list[Any] = []
        for c in ch:
            out.append(str(c) if isinstance(c, Token) else self._index_value(c, meta))
        return tuple(out)

    def _index_value(self, x: Any, meta: Any) -> Any:
        if isinstance(x, _Vector) and x.coeff == 1 and x.bold and x.name == "x":
            return x  # ∇_𝐳: the whole scores (an index elsewhere: see subscript)
        if isinstance(x, _Vector) and x.coeff == 1:
            return index_symbol(x.name)  # k as an index, though k is also a family
        if isinstance(x, _Fn) and x.fallback is not None:
            return x.fallback
        if isinstance(x, _Fn):  # L_{CE}, y_{\text{pred}}: a label
            return Symbol(x.name)
        return self.v(x, meta, "in a subscript")

    def sup_arg(self, meta: Any, ch: list[Any]) -> Any:
        if len(ch) == 1:
            tok: Token = ch[0]
            if tok.type == "NUMBER":
                return self.number(meta, [tok])
            if tok.type == "PRIME":
                return ("prime", 1)
            if tok.type == "INFTY":
                return oo
            if tok.type == "TOP":
                return ("top",)
            if tok.type == "LETTER":
                return self._letter_value(str(tok), meta)
            if tok.type == "GREEK":
                return Symbol(str(tok))
        if len(ch) == 2:
            return Integer(1)
        if all(isinstance(c, Token) for c in ch):  # {'}, {''}
            return ("prime", sum(1 for c in ch if c.type == "PRIME"))
        return ch[1]

    def sub_sup(self, meta: Any, ch: list[Any]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for a, b in zip(ch[::2], ch[1::2]):
            out["sub" if a.type == "SUB" else "sup"] = b
        return out

    def limits(self, meta: Any, ch: list[Any]) -> dict[str, Any]:
        return self.sub_sup(meta, ch)

    def subscript(self, meta: Any, ch: list[Any]) -> Any:
        base, idx = ch[0], ch[2]
        where = _where(meta)
        # y_{q} and y_q are one component: a letter in a subscript is an index either way
        indices = [index_symbol(x.name) if isinstance(x, Symbol) and len(x.name) == 1 and
                   x.name.isalpha() and not x.is_integer and x != self.dim else x
                   for item in idx.items if len(item) == 1 for x in _split_indices(item[0])]
        if isinstance(base, Grid) and base.name:
            entry = base.entry(indices)
            if entry is not None:
                return entry  # A_{12} of the example's A
            base = self._plain_letter(base.name, meta)  # A_{ij}: the letter as it is elsewhere
        if not isinstance(base, _Partial):  # (∇_{z_k}: by the entry z_k, not a class index)
            indices = [index_symbol(x.name) if isinstance(x, _Vector) else class_index(x)
                       for x in indices]
        name_of = base.name if isinstance(base, Symbol) else base.fallback.name \
            if isinstance(base, _Fn) and isinstance(base.fallback, Symbol) else None
        if name_of is not None and len(indices) == 1 and indices[0].is_Integer and \
                9 < int(indices[0]) < 100 and (name_of in self.n.matrices or any(
                    self.n.rename.get(k) == name_of for k in self.n.matrices)):
            indices = [Integer(int(indices[0]) // 10), Integer(int(indices[0]) % 10)]
        if any(len(item) != 1 for item in idx.items):
            if isinstance(base, Expr) and base == 1 and len(idx.items) == 1:  # 1_{i=j}
                a, rel, b = idx.items[0][:3]
                return self._indicator(a, rel, b, meta)
            item = idx.items[0]
            if len(idx.items) == 1 and len(item) == 3 and item[1] in ("=", "≠") and \
                    isinstance(item[0], Symbol) and len(item[0].name) == 1 and \
                    isinstance(item[2], (Symbol, Integer)) and isinstance(base, (Symbol, _Vector)):
                # y_{k=i}: the component y_k, in the case k = i the note is working out
                a, b = (index_symbol(x.name) if isinstance(x, Symbol) else x
                        for x in (item[0], item[2]))
                self.conditions.append((item[1], a, b))
                indices = [a]
                idx = replace(idx, items=((item[0],),), text=str(item[0]))
            else:
                raise ParseProblem("a condition in a subscript here", where)
        if isinstance(base, Expr) and base == EULER and len(indices) in (1, 2):
            # e_j, e_{ij}: the note's name (e^{x_j}, the score of query i and key j), not
            # Euler's e
            return IndexedBase("e")[tuple(indices)]
        if isinstance(base, JacobianOf) and len(indices) == 2 and \
                base.args == (Symbol("y"), Symbol("x")):
            # J_ij where J is the note's name for softmax's Jacobian: ∂y_i/∂x_j
            return Derivative(IndexedBase("y")[indices[0]], IndexedBase("x")[indices[1]])
        if getattr(base, "name", None) == "J" and self.n.jacobian == f"J_{idx.text}".replace(
                BOLD, ""):
            return JacobianOf(Symbol("y"), Symbol("x"))  # J_σ, J_{softmax}: ∂y/∂x
        if getattr(base, "name", None) == "J" and len(indices) == 1 and \
                str(indices[0]) in ("x", "y") and not self.n.rename.get("J"):
            return _JacobianBy(Symbol(str(indices[0])))  # J_𝐱(𝐬): the Jacobian by x, of s
        if isinstance(base, _Softmax):  # softmax(x)_i
            if len(indices) != 1:
                raise ParseProblem("softmax(x)_i takes one index", where)
            return IndexedBase("y")[indices[0]]
        if isinstance(base, _SoftmaxOf):  # softmax(z/T)_i
            if len(indices) != 1:
                raise ParseProblem("softmax(x)_i takes one index", where)
            return base.entry.xreplace({ROW: indices[0]})
        if isinstance(base, _Fn):
            if base.name == "delta" and not indices:
                # δ_{\text{true}}: an error term named by a word, a name of its own
                return base.coeff * Symbol(f"δ_{idx.text}")
            if base.name == "delta" and len(indices) != 2:
                # δ_i, δ_2, δ^{[conv]}_{k,i,j}: backprop's error term (of unit i, of layer 2,
                # of a convolution's map k at i, j), a name — Kronecker's δ takes two
                return base.coeff * IndexedBase("δ")[tuple(indices)]
            if base.name == "delta":
                return base.coeff * KroneckerDelta(*indices)
            if base.name == "sigma" and len(indices) == 1 and idx.text in self.families:
                return base.coeff * self.model.family(idx.text).std
            if base.name == "sigma" and self.n.rename.get("sigma") == "y" and len(indices) == 1:
                return base.coeff * IndexedBase("y")[indices[0]]  # σ_i: the softmax output
            if base.name == "sigma":
                return base.coeff * Symbol(f"sigma_{idx.text or indices[0]}")
            if base.name in ("max", "min", "argmax", "lim"):
                return base
            if base.var is None and base.name in ("partial",):
                return base
            if base.fallback is not None and isinstance(base.fallback, Symbol):
                return self._component(base.fallback.name, indices, idx, meta, base.coeff)
            return base
        if isinstance(base, _Vector):
            if base.bold and base.name in self.families and len(indices) == 1:
                return base  # \mathbf{q}_i, \vec{q_i}: the i-th query vector, not a component
            return self._component(base.name, indices, idx, meta, base.coeff)
        if isinstance(base, _Partial):  # ∂_{x_j} f
            if len(indices) == 1 and isinstance(indices[0], Symbol) and self._scores_named() \
                    and self.n.rename.get(indices[0].name, indices[0].name) in ("x", "y"):
                # ∇_z L, ∇_p L: by the whole scores vector, by the whole output
                return _Fn("d/d", var=Symbol(self.n.rename.get(indices[0].name,
                                                               indices[0].name)))
            if len(indices) == 1 and isinstance(indices[0], _Vector):
                # ∇_𝐳 L: by the whole scores where the note names them (or 𝐱 is verify's
                # own), else by the index letter as before
                whole = self._scores_named() or self.n.softmax_in_conventions
                name = indices[0].name
                if name != "x":  # ∇_𝐩 L: by the whole output, never by the scores
                    return _Fn("d/d", var=Symbol(name) if whole and name == "y" else
                               Symbol(f"{name}⃗"))
                return _Fn("d/d", var=Symbol("x") if whole else index_symbol("x"))
            if len(indices) == 1:
                return _Fn("d/d", var=indices[0])
        if isinstance(base, Symbol):
            name = base.name
            if f"{name}_{idx.text}" == self.dim.name or f"{name}_{{{idx.text}}}" == self.dim.name:
                return self.dim
            if f"{name}_{idx.text}" in self.n.functions:  # g_1(x_1): a function the note named
                return _Fn(f"{name}_{idx.text}", fallback=Symbol(f"{name}_{idx.text}"))
            if name in ("mu",) and idx.text in self.families:
                return self.model.family(idx.text).mean
            return self._component(name, indices, idx, meta, S.One)
        if isinstance(base, Expr) and base in (LOSS, LIKELIHOOD):
            return self._loss(indices)  # L_{CE}, L_i: the note's loss (a label on the name)
        if isinstance(base, Indexed):  # q_i then _m: a second index
            return base.base[tuple(base.indices) + tuple(indices)]
        if isinstance(base, (_Paren,)):
            inner = base.expr
            if isinstance(inner, _Softmax):
                return IndexedBase("y")[indices[0]]
            if isinstance(inner, _SoftmaxOf):
                return inner.entry.xreplace({ROW: indices[0]})
            return _SubParen(inner, tuple(indices))  # σ(z)_i, or (…)_i as a label
        if isinstance(base, Expr) and base.is_Number:
            raise ParseProblem(f"a subscript on the number {base}", where)
        return self.v(base, meta)

    def _loss(self, indices: list[Expr]) -> Expr:
        """L with a subscript: the note's loss — or, where the note defines L_i apart from L
        (Notation.sample_loss), L_i, one sample's loss, a name of its own."""
        if self.n.sample_loss and len(indices) == 1 and isinstance(indices[0], Symbol):
            return Symbol(f"L_{indices[0]}")
        return LOSS

    def _component(self, name: str, indices: list[Expr], idx: _Index, meta: Any,
                   coeff: Expr) -> Expr:
        where = _where(meta)  # name is already in the conventions (renamed by the letter)
        if not indices:
            raise ParseProblem(f"{name}_{{}}: an empty subscript", where)
        own = idx.raw and "t" not in self.n.rename and "t" not in self.n.indexed
        if idx.text == "t" and "t" in self.n.rename.values() and not own:
            # (ŷ_t with t only ever an index of the note — "正确类别 t" — is that entry)
            # ŷ_y, o_y beside the one-hot label y = (y_1, …, y_n) (renamed t): the index is
            # the class the label's letter also names — which entry is meant is not read
            # (said after the ':', in the note's own letters — the head of a message is put
            # back into them letter by letter, which would make p_y of y_y "p_p")
            raise ParseProblem("its index is also the name of a vector of the note: "
                               f"{self.n.written(name)}_{idx.text}", where)
        for x in indices:
            if isinstance(x, Expr) and x.is_Integer and x < 1:
                raise ParseProblem(f"index {x}: components are numbered from 1", where)
        if name == self.dim.name.split("_")[0] and f"{name}_{idx.text}" == self.dim.name:
            return coeff * self.dim
        if name in self.families:
            if len(indices) == 2:  # q_{im}: the i-th vector's m-th component
                return coeff * IndexedBase(name)[indices[1]]
            if name in self.n.vectors and not (
                    len(indices) == 1 and str(indices[0]) in self.n.component_letters):
                # q_i where q_i^{(m)} are its components: a vector (q_m alone: a component)
                return _Vector(name, False, coeff)
            if len(indices) != 1:
                raise ParseProblem(f"{name}_{{{idx.text}}}: a component takes one index", where)
            return coeff * IndexedBase(name)[indices[0]]
        if name in ("L",):
            return coeff * self._loss(indices)
        if name == "W" and "W" in self.n.rename.values():
            if len(indices) != 2:
                raise ParseProblem(f"W_{{{idx.text}}}: a row of the weights is a vector (write "
                                   "an entry W_{kd})", where)
            row, col = indices[::-1] if self.n.layer_in_first else indices
            return coeff * IndexedBase("W")[row, col]
        if name in SOFTMAX_BASES and len(indices) == 2:
            # Y_{ic}, A_{ic}: sample i, class c — the checker keeps the class (the last index)
            # when every entry of a step is in one row (verify's conventions decide)
            return coeff * IndexedBase(name)[indices[0], indices[1]]
        return coeff * IndexedBase(name)[tuple(indices)]

    def superscript(self, meta: Any, ch: list[Any]) -> Any:
        base, sup = ch[0], ch[2]
        where = _where(meta)
        if isinstance(sup, tuple) and sup and sup[0] == "prime":
            return self._prime(base, int(sup[1]), meta)
        if isinstance(sup, tuple) and sup and sup[0] == "top":
            return self.transpose(meta, [base])
        # q_i^{(m)}: the m-th component of the i-th query vector, not a power
        if isinstance(sup, _Paren) and isinstance(sup.expr, Symbol) and sup.expr.is_integer:
            m = sup.expr
            if isinstance(base, Indexed) and str(base.base.label) in self.families:
                return base.base[m]
            if isinstance(base, _Vector):
                return base.coeff * IndexedBase(base.name)[m]
            if isinstance(base, Indexed) and all(a.is_Integer for a in base.indices):
                # Z_2^{(i)}: entry i of layer 2's vector — two of them are two entries
                return base.base[tuple(base.indices) + (m,)]
            if isinstance(base, Indexed) and all(isinstance(a, Symbol) and not a.is_integer
                                                 for a in base.indices):
                # Y_{\text{pred}}^{(j)}: entry j of the vector the label names
                label = "_".join(str(a) for a in base.indices)
                return IndexedBase(f"{base.base.label}_{label}")[m]
            if isinstance(base, Indexed):
                self.dropped.append(str(m))
                return base  # y_k^{(i)}: sample i's entry k, as one quantity
            if isinstance(base, Symbol) and base not in (LOSS, LIKELIHOOD) and \
                    not base.is_integer:
                return IndexedBase(base.name)[m]  # Y^{(j)}: entry j
            if isinstance(base, Symbol):
                return base
        if isinstance(base, _Fn):  # E^2, \sigma^2, \log^2 x
            if base.name == "sigma" and base.fallback is not None:
                return self._pow(base.coeff * base.fallback, self.v(sup, meta), meta)
            return replace(base, power=base.power * self.v(sup, meta))
        if isinstance(base, _Vector) and not (isinstance(sup, Expr) and sup == 2):
            raise ParseProblem(f"{base.name}^{{…}}: a power of a vector", where)
        if isinstance(base, _Vector):
            return self._dot(base, base, meta) if base.name in self.families else \
                base.coeff**2 * Symbol(base.name) ** 2
        if isinstance(base, _Paren) and isinstance(base.expr, _Vector):
            return self._pow(self.v(base, meta), self.v(sup, meta), meta)
        if isinstance(base, _SubParen) and isinstance(base.expr, _Vector):
            # s(x)_i^2 (σ(z)_i^2): a softmax component squared, once the s before it is read
            return replace(base, power=base.power * self.v(sup, meta, "in an exponent"))
        return self._pow(self.v(base, meta, "under a power"), self.v(sup, meta, "in an exponent"),
                         meta)

    def _pow(self, base: Expr, n: Expr, meta: Any) -> Expr:
        where = _where(meta)
        if n.is_Integer and abs(int(n)) > MAX_EXPONENT:
            raise ParseProblem(f"exponent {n} exceeds the limit {MAX_EXPONENT}", where)
        if base == 0 and n.is_number and n.is_nonpositive:
            raise ParseProblem("0 to a non-positive power is undefined", where)
        if base.is_Rational and n.is_Integer:
            p, q = base.as_numer_denom()
            bits = (abs(int(p)).bit_length() + abs(int(q)).bit_length()) * abs(int(n))
            if bits > MAX_NUMBER_BITS:
                raise ParseProblem(f"the number {base}^{n} has more than {MAX_NUMBER_BITS} bits",
                                   where)
        out = Pow(base, n)
        if isinstance(out, Pow) and out.exp.is_Integer and abs(int(out.exp)) > MAX_EXPONENT:
            raise ParseProblem(f"exponent {out.exp} exceeds the limit {MAX_EXPONENT}", where)
        return out

    def transpose(self, meta: Any, ch: list[Any]) -> Any:
        x = ch[0]
        if isinstance(x, _Paren):
            x = x.expr
        if isinstance(x, _Vector):
            return _Vector(x.name, not x.transposed, x.coeff)
        if isinstance(x, Symbol):  # a vector the note did not call random: y^T, x^T
            return _Vector(x.name, True)
        if isinstance(x, Indexed) and str(x.base.label) in self.families:
            return _Vector(str(x.base.label), True)  # q_i^T where q_i is a query vector
        if isinstance(x, Grid):
            return transposed(x)
        m = _as_matrix(x)
        if m is not None:  # J_σᵀ, (diag(p) − p pᵀ)ᵀ: the (i, j) entry is the (j, i) one
            return _Matrix(_swapped(m.entry))
        raise ParseProblem("^\\top of something that is not a vector", _where(meta))

    def _prime(self, base: Any, count: int, meta: Any) -> Any:
        if isinstance(base, _Fn):
            return _Fn(base.name, base.coeff, None, base.var, base.power, base.primes + count)
        if isinstance(base, Symbol) and base.name in self.n.functions:
            return _Fn(base.name, fallback=None, primes=count)
        if isinstance(base, Symbol) and base.is_integer and base.name in INDEX_LETTERS and \
                count <= 2:
            return index_symbol(base.name + "'" * count)  # Σ_{c'} e^{z_{c'}}: another index
        if isinstance(base, _Paren) and count == 1:
            # (e^{x_i})' in a quotient rule: the derivative by the chain's variable
            return Derivative(self.v(base, meta), PRIME)
        if isinstance(base, Symbol) and len(base.name) == 1 and base.name.isupper() and \
                base.name not in self.n.functions:
            # S' = S/√d_k, X' = PX: a capital (a matrix the note names) primed is a new name
            return Symbol(base.name + "′" * count)
        if isinstance(base, Symbol) and len(base.name) == 1 and base.name.isalpha() and \
                not base.is_integer and base.name not in SOFTMAX_BASES and base.name != "e":
            # u', v' (the quotient rule said with letters): u is a function of a variable
            # the note leaves unnamed; the checker makes every u of the step u(ξ)
            return Derivative(Function(base.name)(XI), (XI, count))
        raise ParseProblem("a prime on something that is not a function", _where(meta))

    def prime(self, meta: Any, ch: list[Any]) -> Any:
        return self._prime(ch[0], 1, meta)

    def factorial(self, meta: Any, ch: list[Any]) -> Expr:
        return factorial(self.v(ch[0], meta))

    # -- products and sums ------------------------------------------------------------------
    def _whole(self, a: _Vector) -> bool:
        """A whole vector of softmax's (y, x, t), not a random family."""
        return a.name in ("x", "y", "t")

    def _dot(self, a: _Vector, b: _Vector, meta: Any) -> Expr:
        if a.name in self.families and b.name in self.families:
            return a.coeff * b.coeff * Dot(IndexedBase(a.name), IndexedBase(b.name))
        raise ParseProblem(f"{a.name}·{b.name}: a product of vectors that are not random "
                           "families (matrix algebra is not checked)", _where(meta))

    def _softmax_of(self, inner: Any) -> _SoftmaxOf | None:
        """softmax(2z), softmax(z/T), softmax(z − c), softmax(z − max(z)): softmax of an
        expression in the whole scores vector (never read as softmax(z) itself, whose
        entries y_i it is not), as its entry; None for softmax(z) and what is not of x."""
        if isinstance(inner, _Vector) and inner.coeff != 1:
            inner = self._scores(inner)
        if not isinstance(inner, Expr) or isinstance(inner, Symbol) or \
                Symbol("x") not in inner.free_symbols or inner.has(Indexed):
            return None
        at = _scores_at_entry(inner)
        at = inner if at is None else at  # (softmax(max(z)): no entry, a constant)
        return _SoftmaxOf(exp(at) / self._exp_sum(at, inner.free_symbols))

    def _exp_sum(self, at: Expr, taken: set[Any]) -> Expr:
        """Σ_k e^{at(k)} over the scores' entries: ``at`` is the entry at :data:`ROW` (k an
        index letter neither ``at`` nor ``taken`` uses)."""
        k = _unused_index(taken | at.free_symbols, "kjlmr")
        return Sum(exp(at.xreplace({ROW: k})), (k, 1, self._length()))

    def _log_sum_exp(self, inner: Any) -> Expr | None:
        """LSE(𝐳), logsumexp(z − c): log Σ_k e^{z_k} of the whole scores (or of an expression
        in them, entry by entry); None for anything else (LSE(X) of a note's own X)."""
        if isinstance(inner, _Vector):
            inner = self._scores(inner)
        if isinstance(inner, Symbol) and inner.name == "x":
            at: Expr | None = IndexedBase("x")[ROW]
        elif isinstance(inner, Expr) and not inner.has(Indexed):
            at = _scores_at_entry(inner)
        else:
            return None
        return None if at is None else log(self._exp_sum(at, set()))

    def _apply(self, f: _Fn, arg: Any, meta: Any) -> Any:
        """f applied to arg: \\log x, σ(z), ∂/∂x_j (…), f'(x)."""
        where = _where(meta)
        if f.name == "d/d":
            if f.var is None:
                raise ParseProblem("a derivative without its variable", where)
            body = self.v(arg, meta, "under a derivative")
            self._entry_by_whole(body, f.var, meta)
            return f.coeff * Derivative(body, (f.var, _order(f, meta)))
        if isinstance(arg, _Tuple):
            vals = tuple(self._opaque(a, meta) for a in arg.items)
            if f.name in ("max", "min") and all(isinstance(v, Expr) and v.is_number
                                                and v.is_real for v in vals):
                # max(2.0, 1.0, -1.0): a worked example's largest score, a number
                return f.coeff * (Max if f.name == "max" else Min)(*vals) ** f.power
            return f.coeff * Function(f.name)(*vals)
        name = f.name
        if name.lower() == "softmax":
            inner = arg.expr if isinstance(arg, _Paren) else arg
            of = self._softmax_of(inner)
            if of is not None:
                return of
            if isinstance(inner, _Vector):
                return _Softmax(inner.name)
            if isinstance(inner, Indexed) and len(inner.indices) in (1, 2):
                return f.coeff * IndexedBase("y")[inner.indices]
            worked = self._softmax_of_numbers(arg, meta)
            if worked is not None and f.coeff == 1 and f.power == 1:
                return worked
        inner = arg.expr if isinstance(arg, _Paren) else arg
        if name.lower() in ("lse", "logsumexp"):
            lse = self._log_sum_exp(inner)
            if lse is not None:
                return f.coeff * (self._pow(lse, f.power, meta) if f.power != 1 else lse)
        if name in ("diag", "Diag") and isinstance(inner, Symbol) and inner.name in ("x", "y"):
            inner = _Vector(inner.name)  # diag(p) unbolded: only a vector has a diagonal
        if name in ("diag", "Diag") and isinstance(inner, _Vector) and self._whole(inner):
            # diag(y): y_i on the diagonal, 0 elsewhere
            return _Matrix(f.coeff * inner.coeff * KroneckerDelta(ROW, COL) *
                           IndexedBase(inner.name)[ROW])
        whole = inner.name if isinstance(inner, _Vector) and inner.coeff == 1 and \
            not inner.transposed and self._whole(inner) else inner.name \
            if isinstance(inner, Symbol) and inner.name in SOFTMAX_BASES else None
        if name in ("max", "min") and whole is not None:
            # max(𝐱), max(z): the largest entry, as max(z_i) and \max_k z_k are
            out: Expr = Function(name)(IndexedBase(whole))
            return f.coeff * (self._pow(out, f.power, meta) if f.power != 1 else out)
        if name in ("log", "ln", "exp") and whole is not None and f.power == 1 and not f.primes \
                and isinstance(inner, _Vector):
            # log 𝐩, exp(𝐳): entry by entry (−𝐲ᵀ log 𝐩 is Σ_k y_k log p_k)
            at = IndexedBase(whole)[ROW]
            return _EntryVec(f.coeff * (log(at) if name != "exp" else exp(at)))
        x = self.v(arg, meta, f"in {f.name}")
        if name in ("log", "ln"):
            out = log(x)
        elif name == "exp":
            out = exp(x)
        elif name == "sigma" and self.n.rename.get("sigma") == "y":
            # σ is the note's softmax: σ(a_c) is the c-th output
            if isinstance(x, Indexed) and len(x.indices) in (1, 2) and str(x.base.label) == "x":
                out = IndexedBase("y")[x.indices]
            else:
                raise ParseProblem("σ(…) here is the softmax of a vector: take a component, "
                                   "σ(a)_i", where)
        elif name in ("sigma", "sigmoid", "Sigmoid"):
            out = 1 / (1 + exp(-x))
            if f.primes == 1:
                out = out * (1 - out)
            elif f.primes:
                raise ParseProblem("higher derivatives of σ", where)
        elif name in ("delta",):
            out = Symbol("delta") * x  # δ(…) here is a factor named δ
        elif name in ("max", "min") and isinstance(x, Indexed) and len(x.indices) == 1 and \
                isinstance(x.indices[0], Symbol):
            # max(z_i): the largest entry, over every i — no case on i may touch it
            out = Function(name)(x.base)
        elif f.primes:
            g = Function(name)
            out = Derivative(g(x), x) if isinstance(x, Symbol) else Function(name + "'")(x)
        else:
            out = Function(name)(x)
        if f.power != 1:
            out = self._pow(out, f.power, meta)
        return f.coeff * out

    def _loss_call(self, a: Any, b: Any) -> bool:
        """L(ŷ, y), H(A, Y): the note's loss written with its arguments is the loss."""
        return isinstance(a, Expr) and a == LOSS and isinstance(b, (_Paren, _Tuple))

    def _opaque(self, x: Any, meta: Any) -> Expr:
        """An argument of a function the checker does not know (f(Q, K, V)): kept as a name."""
        if isinstance(x, _Vector):
            return Symbol(x.name)
        return self.v(x, meta)

    def _entry_by_whole(self, f: Any, x: Any, meta: Any) -> None:
        """∂ log p/∂z_k with p the note's whole softmax output: p depends on z_k, but as a
        bare letter it would be taken for a constant (and the step judged by that) — refused."""
        if not (isinstance(f, Expr) and isinstance(x, Indexed) and str(x.base.label) == "x"
                and "y" in self.n.rename.values()):
            return
        # (an argument of a named function — CE(y, ŷ), the loss by its arguments — is no value)
        bare = f.xreplace({e: Dummy() for e in f.atoms(Indexed, AppliedUndef)})
        if Symbol("y") in bare.free_symbols:
            name = next(k for k, v in self.n.rename.items() if v == "y")
            raise ParseProblem(f"the whole output {GREEK.get(name, name)} under ∂/∂ of one score: "
                               "take an entry, as p_i", _where(meta))

    def _scores_named(self) -> bool:
        """The note names softmax's scores and output with letters of its own (z → x, p → y):
        then z alone is the whole scores vector, p the whole output."""
        return {"x", "y"} <= set(self.n.rename.values())

    def _by_whole_scores(self, f: Any, bold: bool) -> bool:
        """∂f/∂z with z the note's whole scores: f a quantity of softmax's (the loss, written
        in y, t, x entries) — not d ln(x)/dx, a calculus rule in a variable x of its own.  In
        verify's own letters only a bold 𝐱 is the whole scores: ∂L/∂x of a sigmoid's scalar x,
        in the same note, is a derivative by that scalar."""
        whole = self._scores_named() or (bold and self.n.softmax_in_conventions)
        if not (whole and isinstance(f, Expr)) or Symbol("x") in f.free_symbols:
            return False
        return f in (LOSS,) or any(str(a.base.label) in SOFTMAX_BASES for a in f.atoms(Indexed))

    def _by_whole_output(self, f: Any) -> bool:
        """∂f/∂p with p the note's whole softmax output (named by a letter of its own): f the
        loss, or written in entries — not in the bare output itself."""
        return self._scores_named() and isinstance(f, Expr) and \
            Symbol("y") not in f.free_symbols and (f == LOSS or f.has(Indexed))

    def _gradient(self, x: Any) -> _EntryVec | _Matrix | JacobianOf | None:
        """∇_z L, ∇_𝐩 L: the gradient of a quantity of softmax's by its whole scores or its
        whole output, entry by entry; ∇_z π of the whole output, its Jacobian; ∂L/∂W, ∂L/∂𝐛
        by the whole weights or bias of the note's linear layer (see
        notation.linear_layer) as a matrix or a vector; None for anything else."""
        if isinstance(x, _Fn) and x.name == "d/d" and isinstance(x.body, Expr):
            layer = self._by_layer(x.body, x.var)
            if layer is not None:
                return layer.times(x.coeff)
        if not (isinstance(x, _Fn) and x.name == "d/d" and x.body is not None and
                x.var in (Symbol("x"), Symbol("y"))):
            return None
        by = str(x.var)
        if by == "x" and x.body == Symbol("y") and self._scores_named():
            return JacobianOf(Symbol("y"), Symbol("x"))  # ∇_z π, π softmax's whole output
        if by == "x" and not self._by_whole_scores(x.body, bold=True):
            return None
        if by == "y" and not self._by_whole_output(x.body):
            return None
        return _EntryVec(x.coeff * Derivative(x.body, IndexedBase(by)[ROW]))

    def _by_layer(self, f: Expr, var: Any) -> _EntryVec | _Matrix | None:
        """∂L/∂W, ∂L/∂𝐛 by the whole weights or bias of the note's linear layer (see
        notation.linear_layer): the matrix whose (k, d) entry is ∂L/∂W_{kd} (class k's row,
        the input's entry d), the vector of the ∂L/∂b_k; None for anything else."""
        if isinstance(var, Symbol) and self.n.rename.get(var.name) in ("W", "bias"):
            var = Symbol(self.n.rename[var.name])  # ∂L/∂b, b the note's bias (unindexed)
        if var not in (Symbol("W"), Symbol("bias")) or \
                not {"W", "h"} <= set(self.n.rename.values()) or \
                not self._by_whole_scores(f, bold=True):
            return None
        if var == Symbol("W"):
            return _Matrix(Derivative(f, IndexedBase("W")[ROW, COL]))
        return _EntryVec(Derivative(f, IndexedBase("bias")[ROW]))

    def _entries(self, t: Any) -> Expr | None:
        """A whole vector of softmax's at its entry :data:`ROW` (𝐩, p where p is the note's
        output, ∂L/∂z), else None."""
        if isinstance(t, _Paren):
            t = t.expr
        gradient = self._gradient(t)
        if isinstance(gradient, _EntryVec):
            return gradient.entry
        if isinstance(t, _EntryVec):
            return t.entry
        if isinstance(t, _Vector) and self._whole(t) and not t.transposed:
            return t.coeff * IndexedBase(t.name)[ROW]
        if isinstance(t, Symbol) and t.name in ("y", "t") and self._scores_named() and \
                t.name in self.n.rename.values():
            return IndexedBase(t.name)[ROW]
        return None

    def _softmax_of_numbers(self, arg: Any, meta: Any) -> _Literal | Grid | None:
        """softmax([2, 1, 0.1]) = [0.66, 0.24, 0.10]: a worked example's scores written out —
        its probabilities entry by entry, exactly (e^{a_i}/Σ_j e^{a_j}); else None."""
        inner = arg.expr if isinstance(arg, _Paren) else arg
        if isinstance(inner, Grid) and not inner.is_vector:
            if not all(e.is_number and e.is_real for e in inner.entries()):
                return None
            return softmax_rows(inner)  # softmax(QKᵀ/√d_k): each query's row
        numbers = self._numbers(arg, meta) or self._numbers(inner, meta)
        if numbers is None or len(numbers.items) < 2 or \
                not all(isinstance(a, Expr) and _plain_scalar(a) for a in numbers.items):
            return None
        total = Add(*(exp(a) for a in numbers.items))
        return _Literal(tuple(exp(a) / total for a in numbers.items))

    def _numbers(self, x: Any, meta: Any) -> _Literal | None:
        """(0.659, 0.242, 0.099), (0.40, 0.25, 0.15)/0.80: a worked example's vector written
        in parentheses — numbers only (a tuple of letters stays a list of arguments)."""
        if isinstance(x, _Paren):
            x = x.expr
        if isinstance(x, _Literal):
            return x
        if isinstance(x, Grid) and x.is_vector:
            return _Literal(tuple(x.entries()))
        if not isinstance(x, _Tuple):
            return None
        try:
            items = tuple(self.v(i, meta, "in a vector") for i in x.items)
        except ParseProblem:
            return None
        if not all(isinstance(i, Expr) and i.is_number for i in items):
            return None
        return _Literal(items)

    def _scaled(self, a: Any, b: Any, meta: Any) -> _Literal | None:
        """0.5·(1, 2): a number times a worked example's vector, entry by entry."""
        for vec, other in ((a, b), (b, a)):
            lit = self._numbers(vec, meta)
            if lit is None or isinstance(other, (_Tuple, _Literal, _Vector, _Matrix)):
                continue
            value = self.v(other, meta, "beside a vector") if isinstance(other, Expr) else None
            if isinstance(value, Expr) and _plain_scalar(value):
                # (c·[1, 0] with c a number the note names: softmax of it is e^c/(e^c + 1), …)
                return _Literal(tuple(value * i for i in lit.items))
        return None

    def _product(self, a: Any, b: Any, meta: Any, juxtaposed: bool) -> Any:
        if juxtaposed and isinstance(a, _Fn) and a.name == "d/d" and a.body is not None and \
                self._loss_call(a.body, b):
            return a  # ∂_{o_j} l(𝐲, ŷ): the operator took l; the call's arguments are l's
        if isinstance(a, _MatrixBefore):
            return self._product(a.matrix, self._product(a.operator, b, meta, juxtaposed),
                                 meta, juxtaposed)
        if _as_matrix(a) is not None and isinstance(b, _Fn) and b.name == "d/d" and \
                b.body is None and juxtaposed:
            return _MatrixBefore(a, b)  # Jᵀ ∇_𝐩 L: the operator takes what follows first
        if juxtaposed and isinstance(a, _Vector) and a.transposed and self._whole(a) and \
                isinstance(b, _Fn) and b.name in ("log", "ln", "exp") and b.body is None:
            return _MatrixBefore(a, b)  # 𝐲ᵀ log 𝐩: log takes 𝐩, then the row multiplies
        grid = self._grid_product(a, b, meta, juxtaposed)
        if grid is not None:
            return grid
        product = self._matrix_product(a, b)
        if product is not None:
            return product
        outer = self._outer(a, b)
        if outer is not None:
            return outer
        inner = self._row_times(a, b)
        if inner is not None:
            return inner
        if juxtaposed and isinstance(b, _Dots) and isinstance(a, (Expr, _Series)) and \
                (isinstance(a, _Series) or a.has(Indexed)):
            # e^{x_1} + e^{x_2} … + e^{x_k}, −t_1 log y_1 ⋯ − t_n log y_n: dots written with no
            # sign before them go on with the sum (the sign after them says how it ends)
            return a if isinstance(a, _Series) else self._plus(a, b, meta, 1)
        if juxtaposed and isinstance(a, _Series) and a.terms and isinstance(a.terms[-1], _Dots) \
                and isinstance(b, Expr):
            return self._written_out(a.terms, b, meta)  # x_1 + ⋯ x_n: the last term
        if juxtaposed and isinstance(a, _Dots) and isinstance(b, Expr) and b.has(Indexed):
            return _Series((a, b))  # ⋯ x_n: the dots, then the last term
        if juxtaposed and isinstance(a, Indexed) and str(a.base.label) == "y" and \
                isinstance(b, _Paren) and (
                    (isinstance(b.expr, _Vector) and b.expr.name == "x") or
                    (b.expr == Symbol("x") and (self.n.rename.get("sigma") == "y"
                                                or "x" in self.n.rename.values()))):
            # σ_i(𝐳), σ_i(z), S_i(z) with z the note's scores: the i-th output, with the scores
            # it is a function of named (a product S_i·z of an entry and the whole vector
            # would be a misreading)
            return a
        score = _score_entry(b) if juxtaposed else None
        if score is not None and ((isinstance(a, _Vector) and a.name == "y" and a.coeff == 1)
                                  or (isinstance(a, Symbol) and a.name == "y"
                                      and self.n.rename.get("y") != "y")):
            return IndexedBase("y")[score.indices]  # S(x_i): the output at score i, y_i
        # π(v) with π the note's softmax: its entry at class v, π_v (the whole output times an
        # index, or a letter of its own, would mean nothing)
        at = self._class_argument(b) if juxtaposed and self.n.rename.get("y") != "y" else None
        if at is not None and isinstance(a, Expr):
            # log π(v), A_t log π(a_t): the one factor that is π (or its log) is at that class
            y = Symbol("y")
            hit = [f for f in Mul.make_args(a) if f == y or (isinstance(f, log) and f.args[0] == y)]
            if len(hit) == 1 and a.count(y) == 1:
                entry = IndexedBase("y")[at]
                return a.xreplace({hit[0]: entry if hit[0] == y else log(entry)})
        if score is not None and isinstance(a, Mul) and self.n.rename.get("y") != "y" and \
                a.args.count(Symbol("y")) == 1:
            # S(x_i)S(x_j): the first call read, the second S juxtaposed to it before its (x_j)
            return Mul(*(IndexedBase("y")[score.indices] if f == Symbol("y") else f
                         for f in a.args))
        if score is not None and isinstance(a, log) and isinstance(a.args[0], Symbol) and \
                a.args[0].name == "y":
            return log(IndexedBase("y")[score.indices])  # log S(x_i): log of y_i
        if juxtaposed and self._loss_call(a, b):
            return LOSS
        if juxtaposed and isinstance(b, _Tuple) and isinstance(a, Symbol) and not a.is_integer:
            # P(y | x), f(a, b): a function of several arguments, kept as one name
            return Function(a.name)(*(self._opaque(x, meta) for x in b.items))
        if isinstance(a, _Series) or isinstance(b, _Series):
            raise ParseProblem("a written-out sum inside a product", _where(meta))
        scaled = self._scaled(a, b, meta) if not (juxtaposed and isinstance(a, (Symbol, _Fn))) \
            else None
        if scaled is not None:
            return scaled
        if isinstance(a, _Fn) and a.name in ("sigma", "softmax") and isinstance(b, _SubParen):
            if len(b.indices) == 1:  # σ(z)_i: the i-th softmax output
                return a.coeff * IndexedBase("y")[b.indices[0]] ** b.power
        if isinstance(b, _SubParen) and len(b.indices) == 1 and (
                (isinstance(a, Symbol) and a.name == "y") or
                (isinstance(a, _Vector) and a.name == "y")):
            return IndexedBase("y")[b.indices[0]] ** b.power  # s(x)_i, the softmax output
        if isinstance(a, _Fn) and juxtaposed and a.name != "d/d" and (
                isinstance(b, _Paren) or isinstance(b, _Tuple) or a.fallback is None
                or a.name in _FUNCTION_WORDS):
            if a.name == "sigma" and isinstance(b, _Paren) and isinstance(b.expr, _Vector):
                return _Softmax(b.expr.name)  # σ(z)_i: softmax
            if a.name == "delta" and not isinstance(b, _Paren):
                pass
            else:
                return self._apply(a, b, meta)
        if isinstance(a, _Partial):  # ∂ f, as in \frac{∂ f}{…}: kept for the fraction
            return ("partial", b)
        if isinstance(a, _JacobianBy):
            inner = b.expr if isinstance(b, _Paren) else b
            if not (isinstance(inner, _Vector) and self._whole(inner) and juxtaposed):
                raise ParseProblem("J_x(…): expected the vector it differentiates, as J_x(y)",
                                   _where(meta))
            return JacobianOf(Symbol(inner.name), a.var)
        if isinstance(b, _Vector) and b.transposed and b.name in ("x", "y") and \
                isinstance(a, Expr) and not isinstance(a, Indexed):
            # p pᵀ unbolded, (1/τ) p pᵀ: the outer product of the vector with itself (times a
            # number that does not hold the vector)
            c, rest = a.as_independent(Symbol(b.name), as_Add=False)
            if rest == Symbol(b.name) and not c.has(Symbol(b.name)):
                a = _Vector(b.name, coeff=c)
        va, vb = isinstance(a, _Vector), isinstance(b, _Vector)
        if va and vb and a.transposed != b.transposed and self._whole(a) and self._whole(b):
            if b.transposed:  # y yᵀ: the outer product, (i, j) entry y_i y_j
                return _Matrix(a.coeff * b.coeff * IndexedBase(a.name)[ROW] *
                               IndexedBase(b.name)[COL])
            return _RowOuter(a, b)
        if isinstance(a, _Matrix) or isinstance(b, _Matrix):
            m, c = (a, b) if isinstance(a, _Matrix) else (b, a)
            return _Matrix(m.entry * self.v(c, meta))  # (a scalar) · (a matrix)
        if va and vb:
            if juxtaposed and b.transposed and not a.transposed and self.column_vectors:
                # k^⊤(q q^⊤)k: beside kᵀ… the vectors are columns, and q qᵀ is a matrix
                raise ParseProblem(f"{a.name} {b.name}^\\top beside a column product x^\\top y: "
                                   "an outer product (a matrix): matrix algebra is not checked",
                                   _where(meta))
            if not juxtaposed or a.transposed != b.transposed:
                return self._dot(a, b, meta)
            raise ParseProblem(
                f"{a.name} {b.name}: a product of two vectors; expected the dot product "
                f"{a.name}^\\top {b.name} or {a.name} \\cdot {b.name}", _where(meta))
        if va:
            return a.times(self.v(b, meta))
        if vb:
            return b.times(self.v(a, meta))
        if isinstance(a, _Fn) and a.name == "d/d" and juxtaposed and a.waiting is None and \
                isinstance(b, _Fn) and (
                    (b.name == "d/d" and a.body is None and b.body is None and b.var is not None)
                    or (b.name != "d/d" and (b.fallback is None or b.name in _FUNCTION_WORDS))):
            # d/dx \ln x: \ln waits for x; ∂_{o_i}∂_{o_j} l: the inner ∂ waits for l
            return replace(a, waiting=b)
        if isinstance(a, _Fn) and a.name == "d/d" and a.waiting is not None and juxtaposed:
            b = self._apply(a.waiting, b, meta)
            a = replace(a, waiting=None)
        if isinstance(a, _Fn) and a.name == "d/d" and juxtaposed:
            # ∂/∂x f g: the derivative of the product (a note's product rule), not of f alone
            factor = self.v(b, meta, "under a derivative")
            return _Fn("d/d", a.coeff, None, a.var, a.power, body=factor if a.body is None
                       else a.body * factor)
        if isinstance(a, _Fn) and a.fallback is None:
            return self._apply(a, b, meta)
        if isinstance(b, _Fn) and juxtaposed:  # 2\log …: the coefficient waits with the function
            return replace(b, coeff=self.v(a, meta) * b.coeff)
        return self.v(a, meta) * self.v(b, meta)

    def juxt(self, meta: Any, ch: list[Any]) -> Any:
        a, b = ch
        if isinstance(a, Derivative) and a.has(XI) and isinstance(b, _Paren) and \
                isinstance(b.expr, Symbol):
            return a.xreplace({XI: b.expr})  # f'(x): the derivative of f, at x
        if isinstance(a, tuple) and a and a[0] == "partial":
            return ("partial", self._product(a[1], b, meta, True))
        return self._product(a, b, meta, juxtaposed=True)

    def cdot(self, meta: Any, ch: list[Any]) -> Any:
        if isinstance(ch[2], _Dots) or isinstance(ch[0], _Dots):
            raise ParseProblem("a written-out product (\\cdots in a product) is not supported",
                               _where(meta))
        if all(isinstance(x, Dot) and x.args[0] == x.args[1] for x in (ch[0], ch[2])):
            # E(q^2 · k^2) beside q · k: the dot product of the squares (Σ_i q_i² k_i²) or the
            # product of the squared norms — the note's · does not say which
            raise ParseProblem("q^2 · k^2: the squares' dot product or the product of squared "
                               "norms? (not read)", _where(meta))
        return self._product(self._closed(ch[0], meta), ch[2], meta, juxtaposed=False)

    def times(self, meta: Any, ch: list[Any]) -> Any:
        return self._product(self._closed(ch[0], meta), ch[2], meta, juxtaposed=False)

    def _closed(self, a: Any, meta: Any) -> Any:
        """∂/∂z_s e^{z_i} * (Σ_j e^{z_j}): a written multiplication sign ends what a derivative
        took (the quotient rule's f'·g), where side by side it takes the whole product."""
        if isinstance(a, _Fn) and a.name == "d/d" and a.body is not None and a.waiting is None:
            return self.v(a, meta)
        return a

    def hadamard(self, meta: Any, ch: list[Any]) -> Any:
        a, b = ch[0], ch[2]
        ea, eb = self._entries(a), self._entries(b)
        if ea is not None and eb is not None:
            return _EntryVec(ea * eb)  # y ⊙ (g − ⟨g, y⟩𝟏): entry by entry
        raise ParseProblem("⊙ (elementwise product of vectors) is not checked", _where(meta))

    def _ratio(self, a: Any, b: Any, meta: Any) -> Any:
        da, db = _as_partial(a), _as_partial(b)
        if da is None and db is None:  # d y / d x and δL/δy written with letters
            da, db = _as_differential(a), _as_differential(b)
        if da is _NONE and db is None and isinstance(b, Indexed):
            db = b  # \frac{\partial}{o_k}(…): the ∂ of the variable left out, ∂/∂o_k meant
        if da is not None and db is not None and db is not _NONE:
            return self._derivative(None if da is _NONE else da, db, meta)
        bv = self.v(b, meta, "in a denominator")
        if bv == 0:
            raise ParseProblem("division by zero", _where(meta))
        if isinstance(a, _Vector):
            return a.times(1 / bv)
        if isinstance(_bare(a), Grid):  # S/√d_k: every entry
            return scaled(_bare(a), 1 / bv)
        lit = self._numbers(a, meta)
        if lit is not None and bv.is_number:  # (0.40, 0.25, 0.15)/0.80: entry by entry
            return _Literal(tuple(i / bv for i in lit.items))
        return self.v(a, meta) / bv

    def _derivative(self, top: Any, bottom: Any, meta: Any) -> Any:
        """∂f/∂x (top = f or None for the operator ∂/∂x, bottom = x)."""
        x = bottom
        if isinstance(x, _Paren):
            x = x.expr
        bold = isinstance(x, _Vector) and x.bold
        if isinstance(x, _Vector) and x.coeff == 1:
            x = Symbol(x.name)
        if isinstance(x, _Fn) and x.fallback is not None:
            x = x.fallback
        if top is None:
            if not isinstance(x, (Indexed, Symbol)):
                raise ParseProblem(f"∂/∂({x}): expected a variable such as x_j", _where(meta))
            return _Fn("d/d", var=x)
        if isinstance(top, _Vector) and top.coeff == 1 and isinstance(bottom, _Vector) and \
                bottom.coeff == 1 and not top.transposed and not bottom.transposed:
            return JacobianOf(Symbol(top.name), Symbol(bottom.name))  # ∂y/∂x, whole vectors
        if top == Symbol("y") and bottom == Symbol("x") and self._scores_named():
            # ∂p/∂z unbolded, p and z the note's softmax output and scores: the whole vectors
            # (only letters renamed: a note in verify's own letters may write dy/dx of a
            # scalar y = 1/u beside its softmax)
            return JacobianOf(top, bottom)
        f = self.v(top, meta, "under a derivative")
        if x == Symbol("x") and not isinstance(top, _Vector) and self._by_whole_scores(f, bold):
            # ∂L/∂z, z the note's whole scores: the gradient, entry by entry
            return _EntryVec(Derivative(f, IndexedBase("x")[ROW]))
        if x == Symbol("y") and not isinstance(top, _Vector) and self._by_whole_output(f):
            # ∂L/∂a, a the note's whole softmax output: the gradient, entry by entry (as ∇_a L)
            return _EntryVec(Derivative(f, IndexedBase("y")[ROW]))
        layer = self._by_layer(f, x)
        if layer is not None:
            return layer
        if isinstance(x, (Indexed, Symbol)):
            self._entry_by_whole(f, x, meta)
            return Derivative(f, x)
        if isinstance(x, Expr) and f.has(x):
            # ∂ log σ(a) / ∂ σ(a): f as a function of the quantity g = σ(a) itself
            u = Dummy("u")
            return f.xreplace({x: u}).diff(u).xreplace({u: x})
        raise ParseProblem("∂/∂ of an expression that the numerator does not contain",
                           _where(meta))

    def div(self, meta: Any, ch: list[Any]) -> Any:
        return self._ratio(ch[0], ch[2], meta)

    def frac(self, meta: Any, ch: list[Any]) -> Any:
        return self._ratio(ch[1], ch[2], meta)

    def over(self, meta: Any, ch: list[Any]) -> Any:
        return self._ratio(ch[0], ch[2], meta)

    def braced(self, meta: Any, ch: list[Any]) -> Any:
        return ch[1]

    def empty_braced(self, meta: Any, ch: list[Any]) -> Expr:
        return Integer(1)

    def add(self, meta: Any, ch: list[Any]) -> Any:
        return self._plus(ch[0], ch[2], meta, 1)

    def subtract(self, meta: Any, ch: list[Any]) -> Any:
        return self._plus(ch[0], ch[2], meta, -1)

    def _plus(self, a: Any, b: Any, meta: Any, sign: int) -> Any:
        if isinstance(a, tuple) and a and a[0] == "partial" and a[1] is not None:
            # \frac{\partial \log(Σ_j e^{x_j}) - x_i}{\partial x_i}: the ∂ of a fraction's top
            # takes all of it (kept for the fraction, as ∂ f is)
            return ("partial", self._plus(a[1], b, meta, sign))
        if isinstance(a, _Partial):  # (\partial -\sum_j y_j \ln a_j): ∂ of what follows
            return ("partial", b if sign > 0 else self.neg(meta, [None, b]))
        if isinstance(b, _Series) and sign > 0 and not isinstance(a, (_Series, _Dots)):
            # e^{x_1} + e^{x_2}⋯ + e^{x_n}: the dots written against a term (see _product)
            ahead = (a,) + b.terms
            if isinstance(b.terms[-1], _Dots):
                return _Series(ahead)
            return self._written_out(ahead[:-1], ahead[-1], meta)
        if isinstance(b, _Dots):
            if isinstance(a, Sum) and len(a.limits) == 1 and a.limits[0][1].is_Integer and \
                    isinstance(a.limits[0][2], Symbol) and a.limits[0][2].is_integer:
                # e^{z_1} + ⋯ + e^{z_j} + ⋯ + e^{z_m}: the j-th term shows the pattern in the
                # middle of the sum; the sum goes on to its last term
                var, lo, _ = a.limits[0]
                return _Series((a.function.xreplace({var: lo}), _Dots()))
            terms = a.terms if isinstance(a, _Series) else (a,)
            return _Series(terms + (_Dots(),))
        if isinstance(a, _Series):
            term = b if sign > 0 else -self.v(b, meta)
            if sum(isinstance(t, _Dots) for t in a.terms) == 1:
                try:
                    return self._written_out(a.terms, term, meta)
                except ParseProblem:
                    # p_i y_1 + p_i y_2 + ⋯ + (p_i − y_i) + ⋯: a term singled out, if more dots
                    # follow (else the sum is refused as it was, see v)
                    return _Series(a.terms + (term,))
            return self._written_out(a.terms, term, meta)
        if isinstance(_bare(a), Grid) or isinstance(_bare(b), Grid):
            return self._grid_sum(_bare(a), _bare(b), sign, meta)
        if isinstance(a, (_Matrix, _RowOuter)) or isinstance(b, (_Matrix, _RowOuter)):
            return self._matrix_sum(a, b, sign, meta)
        if isinstance(a, (_Literal, _Tuple, _Paren)) or isinstance(b, (_Literal, _Tuple, _Paren)):
            la, lb = self._numbers(a, meta), self._numbers(b, meta)
            if la is not None or lb is not None:
                return self._literal_sum(la or a, lb or b, sign, meta)
        ea, eb = self._entries(a), self._entries(b)
        if ea is not None and eb is not None:
            return _EntryVec(ea + sign * eb)  # p − y: entry by entry
        if isinstance(a, _Vector) and isinstance(b, _Vector):
            raise ParseProblem("a sum of vectors is not checked", _where(meta))
        a, b = (self._scores(t) for t in (a, b))
        return self.v(a, meta, "in a sum") + sign * self.v(b, meta, "in a sum")

    @staticmethod
    def _scores(t: Any) -> Any:
        """𝐳 − c (𝐳 the scores): the scores as the bare symbol x — a vector shifted by a number,
        which softmax(𝐳 − c) takes entry by entry (alone, x without an index is not read)."""
        if isinstance(t, _Vector) and t.name == "x" and not t.transposed:
            return t.coeff * Symbol("x")
        return t

    def _literal_sum(self, a: Any, b: Any, sign: int, meta: Any) -> _Literal:
        """[0.88, 0.12] − [0, 1] and [−0.8, 1.1] − 1.1: a worked example's vectors, entry by
        entry (a number beside a vector goes to every entry, as NumPy broadcasts it)."""
        def items(x: Any, size: int) -> tuple[Expr, ...]:
            if isinstance(x, _Literal):
                if len(x.items) != size:
                    raise ParseProblem(f"vectors of lengths {len(x.items)} and {size} added",
                                       _where(meta))
                return x.items
            value = self.v(x, meta, "beside a vector")
            if not value.is_number:
                raise ParseProblem("a vector written out plus something that is not a number",
                                   _where(meta))
            return (value,) * size

        size = len(a.items) if isinstance(a, _Literal) else len(b.items)
        return _Literal(tuple(p + sign * q for p, q in zip(items(a, size), items(b, size))))

    def _grid_product(self, a: Any, b: Any, meta: Any, juxtaposed: bool) -> Any:
        """Q Kᵀ, A V, 0.5·[2; 0], [1 2]·[3; 4] with matrices written out: the product taken
        while the factors are in the note's order; None where neither factor is one."""
        ga, gb = _bare(a), _bare(b)
        if not isinstance(ga, Grid) and not isinstance(gb, Grid):
            return None
        if isinstance(ga, _Literal) or isinstance(gb, _Literal):
            # [0.5, 0.5] written as a list beside a matrix: the row it is
            ga, gb = (Grid.of([x.items]) if isinstance(x, _Literal) else x for x in (ga, gb))
        try:
            if isinstance(ga, Grid) and isinstance(gb, Grid):
                return times(ga, gb, dot=not juxtaposed)
            grid, other = (ga, gb) if isinstance(ga, Grid) else (gb, ga)
            if not isinstance(other, Expr) or other.has(VectorLiteral, JacobianOf, EntryMatrix,
                                                        EntryVector):
                return None  # softmax […], a vector's letter beside it: read as before
            return scaled(grid, other)
        except GridError as exc:
            raise ParseProblem(str(exc), _where(meta)) from None

    def _grid_sum(self, a: Any, b: Any, sign: int, meta: Any) -> Grid:
        """[0.1; 0.7; 0.2] − [0; 1; 0] and S + M: entry by entry (a list of the same length
        beside a written vector is that vector, as NumPy reads it)."""
        lit = self._numbers(b if isinstance(a, Grid) else a, meta)
        ga, gb = (x if isinstance(x, Grid) else
                  Grid.of([lit.items]) if lit is not None else None for x in (a, b))
        if ga is None or gb is None:
            raise ParseProblem("a matrix written out plus something that is not one",
                               _where(meta))
        try:  # (in the shape of the matrix written out: a list beside it takes that shape)
            return added(ga, gb, sign) if isinstance(a, Grid) else \
                added(scaled(gb, Integer(sign)), ga, 1)
        except GridError as exc:
            raise ParseProblem(str(exc), _where(meta)) from None

    def _matrix_product(self, a: Any, b: Any) -> _Matrix | _EntryVec | None:
        """M v, M N, Jᵀ g with M a matrix of softmax's (diag(y) − y yᵀ, ∂y/∂x, J_σᵀ) and v a
        whole vector of softmax's (∂L/∂y, p − y, 𝐠): entry by entry, Σ_k M_{ik} v_k and
        Σ_k M_{ik} N_{kj}; None for anything else."""
        ma = _as_matrix(a)
        if ma is None:
            return None
        mb = _as_matrix(b)
        right = mb.entry if mb is not None else self._entries(b)
        if right is None:
            return None
        taken = ma.entry.free_symbols | (mb.entry.free_symbols if mb is not None else set())
        k = _unused_index(taken)
        total = Sum(ma.entry.xreplace({COL: k}) * right.xreplace({ROW: k}), (k, 1, self._length()))
        return _Matrix(total) if mb is not None else _EntryVec(total)

    def _outer(self, a: Any, b: Any) -> _Matrix | None:
        """(p − y) hᵀ, (∇_z L) xᵀ: a whole vector of softmax's (a column) times the layer's
        input or a softmax vector transposed (a row) — the matrix whose (i, j) entry is
        a_i b_j; None for anything else."""
        while isinstance(b, _Paren):
            b = b.expr
        if not (isinstance(b, _Vector) and b.transposed and b.name in ("h", "x", "y", "t")) or \
                (b.name == "h" and "h" not in self.n.rename.values()):
            return None
        if isinstance(a, _Vector) and self._whole(a):
            return None  # y yᵀ: the outer product of two softmax vectors, read in _product
        column = self._entries(a)
        if column is None:
            return None
        return _Matrix(column * b.coeff * IndexedBase(b.name)[COL])

    def _row_times(self, a: Any, b: Any) -> Expr | None:
        """yᵀ log p, tᵀ g, 𝐲ᵀ𝐩: a whole vector of softmax's as a row times one as a column —
        the sum Σ_k a_k b_k over its entries; None for anything else."""
        while isinstance(a, _Paren):
            a = a.expr
        if not (isinstance(a, _Vector) and a.transposed and self._whole(a)):
            return None
        while isinstance(b, _Paren):
            b = b.expr
        if isinstance(b, (log, exp)) and isinstance(b.args[0], Symbol) and \
                b.args[0].name in ("x", "y", "t") and self._scores_named():
            column: Expr | None = b.func(IndexedBase(b.args[0].name)[ROW])  # yᵀ log p
        elif isinstance(b, _Vector):
            return None  # yᵀy beside diag(y): the note's row vectors (_RowOuter)
        else:
            column = self._entries(b)
        if column is None:
            return None
        k = _unused_index(column.free_symbols)
        return Sum(a.coeff * IndexedBase(a.name)[k] * column.xreplace({ROW: k}),
                   (k, 1, self._length()))

    def _matrix_sum(self, a: Any, b: Any, sign: int, meta: Any) -> _Matrix:
        """diag(y) − y yᵀ (and diag(s) − sᵀs, with row vectors): entry by entry."""
        def entry(m: Any) -> Expr:
            matrix = _as_matrix(m)
            if matrix is not None:
                return matrix.entry
            if isinstance(m, _Paren):
                m = m.expr
            if isinstance(m, _RowOuter):  # beside a matrix, yᵀy is the outer product
                return m.a.coeff * m.b.coeff * IndexedBase(m.a.name)[ROW] * \
                    IndexedBase(m.b.name)[COL]
            raise ParseProblem("a matrix plus something that is not a matrix", _where(meta))

        if not (isinstance(a, _Matrix) or isinstance(b, _Matrix)):
            raise ParseProblem("a sum of outer products is not checked", _where(meta))
        return _Matrix(entry(a) + sign * entry(b))

    def _written_out(self, terms: tuple[Any, ...], last: Any, meta: Any) -> Expr:
        """``t_1 + t_2 + ⋯ + t_n`` → Σ_{a=1}^{n} t_a, checked against every term written;
        ``t_1 + ⋯ + g + ⋯ + t_n`` with one term singled out (the one that differs at the index
        its letter names: 0 + ⋯ + e^{z_k} + ⋯ + 0) → the sum with g in place of t_m."""
        where = _where(meta)
        dots = [n for n, t in enumerate(terms) if isinstance(t, _Dots)]
        if len(dots) == 2 and dots[1] == dots[0] + 2:
            g = self.v(terms[dots[0] + 1], meta, "in a sum")
            after = [self.v(t, meta, "in a sum") for t in terms[dots[1] + 1:]]
            body, var, lo, hi = self._pattern(terms[:dots[0]], last, meta, constant=True)
            if any(body.xreplace({var: hi - len(after) + n}) != t for n, t in enumerate(after)):
                raise ParseProblem("cannot read the written-out sum: its terms are not one "
                                   "pattern", where)
            if body == 0:  # 0 + 0 + ⋯ + e^{z_k} + ⋯ + 0: the one term
                return g
            at = self._singled_out(g, body, var, meta)
            return Sum(body, (var, lo, hi)) - body.xreplace({var: at}) + g
        if len(dots) != 1:
            raise ParseProblem("cannot read the written-out sum: its terms are not one pattern",
                               where)
        body, var, lo, hi = self._pattern(terms[:dots[0]], last, meta)
        return Sum(body, (var, lo, hi))

    def _pattern(self, terms: tuple[Any, ...], last: Any, meta: Any, constant: bool = False
                 ) -> tuple[Expr, Symbol, Expr, Expr]:
        """The general term of ``terms ⋯ last``, its index and the index's first and last
        values; with ``constant``, terms that are one number (0, 0, ⋯, 0) are that number, to
        the note's length."""
        where = _where(meta)
        before = [a for t in terms for a in Add.make_args(self.v(t, meta))]
        # SymPy orders an Add's terms its own way: the first is the one with the least indices
        before.sort(key=lambda t: sorted(int(a) for x in t.atoms(Indexed) for a in x.indices
                                         if a.is_Integer))
        last = self.v(last, meta)
        if not before:
            raise ParseProblem("a written-out sum needs its first term before \\cdots", where)
        first = before[0]
        var = next((index_symbol(c) for c in "ijlmr" if index_symbol(c) not in
                    first.atoms(Symbol) | last.atoms(Symbol)), index_symbol("i"))
        if constant and first.is_number and all(t == first for t in before + [last]):
            return first, var, Integer(1), self._length()
        # the indices that differ between the first and the last term
        firsts = [x for x in first.atoms(Indexed)]
        # each entry of the first term is matched with the last term's entry of its letter
        # that the first term does not also have (∂(y_1 log p_1)/∂p_j … ∂(y_n log p_n)/∂p_j:
        # p_1 goes with p_n, and p_j, in both, stays)
        shared = first.atoms(Indexed) & last.atoms(Indexed)
        lasts = {(x.base, len(x.indices)): x for x in last.atoms(Indexed) if x not in shared}
        firsts = [x for x in firsts if x not in shared]
        # (atoms, not free symbols: the i of ∂p_1/∂x_i is taken, though x_i is its variable)
        lo: Expr | None = None
        hi: Expr | None = None
        mapping: dict[Indexed, Indexed] = {}
        for x in firsts:
            y = lasts.get((x.base, len(x.indices)))
            if y is None:
                continue
            new = []
            for a, b in zip(x.indices, y.indices):
                if a.is_Integer and a != b:
                    if lo is None:
                        lo, hi = a, b
                    elif (lo, hi) != (a, b):
                        raise ParseProblem("cannot read the written-out sum: its terms do not "
                                           "follow one index", where)
                    new.append(var)
                else:
                    new.append(a)
            mapping[x] = x.base[tuple(new)]
        if lo is None or hi is None:
            raise ParseProblem("cannot read the written-out sum: no index runs from its first "
                               "term to its last", where)
        body = first.xreplace(mapping)
        if body.xreplace({var: hi}) != last or any(
                body.xreplace({var: lo + n}) != t for n, t in enumerate(before)):
            raise ParseProblem("cannot read the written-out sum: its terms are not one pattern",
                               where)
        return body, var, lo, hi

    def _singled_out(self, g: Expr, body: Expr, var: Symbol, meta: Any) -> Expr:
        """The index at which a written-out sum (or vector) shows ``g`` in place of its general
        term ``body``: where g writes the running letter's entry (y_i in p_i y_1 + ⋯ + (p_i −
        y_i) + ⋯), else the one index letter g has (p_i, −1/a_j)."""
        running = {(x.base, n) for x in body.atoms(Indexed) for n, a in enumerate(x.indices)
                   if a == var}
        at = {x.indices[n] for x in g.atoms(Indexed) for base, n in running
              if x.base == base and n < len(x.indices) and isinstance(x.indices[n], Symbol)}
        if not at:
            at = {a for x in g.atoms(Indexed) for a in x.indices
                  if isinstance(a, Symbol) and not a.is_number}
        if len(at) != 1:
            raise ParseProblem("cannot read the written-out sum: at which index its singled-out "
                               "term stands, its letters do not say", _where(meta))
        return at.pop()

    def neg(self, meta: Any, ch: list[Any]) -> Any:
        x = ch[1]
        if isinstance(x, tuple) and x and x[0] == "partial" and x[1] is not None:
            return ("partial", self.neg(meta, [ch[0], x[1]]))  # \frac{-\partial f}{\partial x}
        if isinstance(x, _Vector):
            return x.times(Integer(-1))
        if isinstance(x, _Matrix):
            return _Matrix(-x.entry)
        if isinstance(x, _EntryVec):
            return _EntryVec(-x.entry)  # −Jᵀ ∇_𝐩 L, −(𝐩 − 𝐭)
        if isinstance(x, Grid):
            return scaled(x, Integer(-1))
        if isinstance(x, _Fn):
            return replace(x, coeff=-x.coeff)
        return -self.v(x, meta)

    def pos(self, meta: Any, ch: list[Any]) -> Any:
        return ch[1]

    # -- operators -----------------------------------------------------------------------------
    def arg(self, meta: Any, ch: list[Any]) -> Any:
        items = [c for c in ch if not isinstance(c, Token)]
        if len(items) >= 2:
            return _Tuple(tuple(items))
        return items[0]

    def _random_argument(self, x: Expr, meta: Any) -> None:
        """Refuse E(X) for an undeclared X: as a constant it would make Var(X + Y) =
        Var(X) + Var(Y) "hold" as 0 = 0, a pass the notes did not earn."""
        from derivations.expectation import is_random

        if is_random(x, self.model):
            return
        known = set(self.model.parameters())
        x = x.replace(lambda e: isinstance(e, (E, Var, Cov)), lambda e: Integer(1))
        components = x.atoms(Indexed)
        labels = {c.base.label for c in components}
        # (an index letter standing alone as the quantity, E[ℓ] with ℓ = qᵀk said in words,
        # is no component's index: as a number its mean would be itself)
        indices = {i for c in components for e in c.indices for i in e.free_symbols}
        unknown = sorted({f"{c.base}_{','.join(map(str, c.indices))}" for c in components
                          if str(c.base.label) not in self.defined}
                         | {s.name for s in x.free_symbols if isinstance(s, Symbol)
                            and s not in known and s not in labels
                            and (not s.is_integer or s not in indices and s not in (
                                self.dim, LENGTH) and not s.name.startswith("d"))
                            and s.name not in self.defined})
        if unknown:
            raise ParseProblem(
                f"{', '.join(unknown)} inside an expectation is not random in this note: the "
                f"random quantities are the components of {', '.join(sorted(self.families))}",
                _where(meta))

    def _operator_value(self, op: type, x: Any, meta: Any) -> Expr:
        if isinstance(x, _Tuple):
            if op is not Cov or len(x.items) != 2:
                raise ParseProblem(f"{op.__name__}(…) takes one argument", _where(meta))
            a, b = (self.v(i, meta, "in Cov") for i in x.items)
            self._random_argument(a, meta)
            self._random_argument(b, meta)
            return Cov(a, b)
        value = self.v(x, meta, "inside an operator")
        self._random_argument(value, meta)
        if op is Cov:
            raise ParseProblem("Cov(…) takes two arguments", _where(meta))
        return op(value)

    def _op_power(self, value: Expr, ss: dict[str, Any] | None, meta: Any) -> Expr:
        if not ss or "sup" not in ss:
            return value
        n = self.v(ss["sup"], meta)
        if not (n.is_Integer and n > 0):
            raise ParseProblem(f"E^{{{n}}}(…): expected a positive integer power", _where(meta))
        return self._pow(value, n, meta)

    def expect(self, meta: Any, ch: list[Any]) -> Expr:
        ss = ch[1] if len(ch) == 3 else None
        if isinstance(ch[-1], _Tuple) and self.n.rename.get("E") == "L":
            return LOSS  # E(t, o) = −Σ t_j log o_j: the note's error function, not E(·)
        return self._op_power(self._operator_value(E, ch[-1], meta), ss, meta)

    def apply(self, meta: Any, ch: list[Any]) -> Any:
        word = str(ch[0])
        ss = ch[1] if len(ch) == 3 else None
        x = ch[-1]
        if word in ("Var", "var", "V"):
            return self._op_power(self._operator_value(Var, x, meta), ss, meta)
        if word in ("Cov", "cov"):
            return self._op_power(self._operator_value(Cov, x, meta), ss, meta)
        if word in ("Std", "std", "SD"):
            return sqrt(self._operator_value(Var, x, meta))
        if word in ("softmax", "Softmax", "softMax"):
            inner = x.expr if isinstance(x, _Paren) else x
            entry = _softmax_entry(ss)
            if entry is not None and isinstance(inner, (_Vector, Symbol)):
                return entry  # softmax_j(𝐨): softmax(𝐨)_j
            if entry is not None and isinstance(inner, Expr) and not inner.is_Atom and \
                    not isinstance(inner, Indexed):
                # softmax_j (1 − softmax_j): the output's entry j times what follows
                return entry * self.v(inner, meta)
            of = self._softmax_of(inner)
            if of is not None:
                return of
            if isinstance(inner, _Vector):
                return _Softmax(inner.name)
            if isinstance(inner, Symbol):
                return _Softmax(inner.name)
            if isinstance(inner, Indexed) and len(inner.indices) in (1, 2):
                return IndexedBase("y")[inner.indices]  # softmax(x_i) means y_i
            worked = self._softmax_of_numbers(x, meta)
            if worked is not None and not ss:
                return worked
            raise ParseProblem("softmax(…): expected softmax(x) or softmax(x)_i", _where(meta))
        f = _Fn(word, power=self.v(ss["sup"], meta) if ss and "sup" in ss else S.One)
        return self._apply(f, _Paren(x) if not isinstance(x, _Tuple) else x, meta)

    def word(self, meta: Any, ch: list[Any]) -> Any:
        word = str(ch[0])
        ss = ch[1] if len(ch) == 2 else None
        power = S.One
        if ss and "sup" in ss and not isinstance(ss["sup"], tuple):
            power = self.v(ss["sup"], meta)
        if word in ("Var", "var", "Cov", "cov"):
            raise ParseProblem(f"{word} needs its argument in parentheses", _where(meta))
        if word in ("max", "min") and ss is not None and "sub" in ss and "sup" not in ss:
            return _Fn(word)  # \max_k z_k: the largest entry (applied to what follows)
        if word in ("softmax", "Softmax", "softMax") and (entry := _softmax_entry(ss)) is not None:
            return entry  # \mathrm{softmax}_j: the output's entry j
        if word in _OPTIMIZERS:
            raise ParseProblem(f"{word} (an optimisation or a limit, not a value) is not "
                               "checked", _where(meta))
        if word in ("head", "Attention", "MultiHead", "Concat") and ss is not None and \
                "sub" in ss and "sup" not in ss and isinstance(ss["sub"], _Index) and \
                ss["sub"].text:
            return Symbol(f"{word}_{ss['sub'].text}")  # head_i: the i-th head, a name
        if word in ("head", "Attention", "MultiHead", "Concat") and ss is None:
            # \text{head} = softmax(…)V: a name alone; Attention(Q, K, V) applied
            return _Fn(word, power=power, fallback=Symbol(word))
        if word in ("CE", "Loss", "loss", "NLL") and ss is None:
            # \text{CE} = −Σ y_i ln σ_i: the note's loss by its name (CE(y, ŷ) when applied)
            return _Fn(word, power=power, fallback=LOSS)
        if word in CLASS_WORDS and ss is None:  # [i = \text{target}]: the class's index
            return class_index(Symbol(word))
        if word not in WORDS and ss is None and word.isalpha():
            return Symbol(word)  # \mathrm{logits} = …: a name the note spells out, no function
        return _Fn(word, power=power)

    def sqrt(self, meta: Any, ch: list[Any]) -> Expr:
        return sqrt(self.v(ch[1], meta, "under \\sqrt"))

    def root(self, meta: Any, ch: list[Any]) -> Expr:
        n = self.v(ch[2], meta, "as a root's order")
        if not (n.is_Integer and 1 < n <= MAX_EXPONENT):
            raise ParseProblem(f"\\sqrt[{n}]: expected an integer order 2..{MAX_EXPONENT}",
                               _where(meta))
        return self._pow(self.v(ch[4], meta, "under \\sqrt"), Rational(1, int(n)), meta)

    def bigsum(self, meta: Any, ch: list[Any]) -> Expr:
        lim = ch[1] if len(ch) == 3 else None
        body = self.v(ch[-1], meta, "as the body of \\sum")
        return self._sum(body, lim, meta)

    def bigprod(self, meta: Any, ch: list[Any]) -> Expr:
        raise ParseProblem("\\prod is not checked", _where(meta))

    def _sum(self, body: Expr, lim: dict[str, Any] | None, meta: Any) -> Expr:
        where = _where(meta)
        random = any(str(x.base.label) in self.families for x in body.atoms(Indexed))
        default_hi = self.dim if random else self._length()
        if lim and isinstance(lim.get("sub"), _Index) and not lim["sub"].items and (
                "sup" not in lim or lim["sup"] == Integer(1)):
            # \sum_{}^{} e^{x[k]}: limits left empty (^{} reads as 1), as no limits at all
            lim = None
        hi = self.v(lim["sup"], meta) if lim and "sup" in lim else default_hi
        if isinstance(hi, Symbol) and hi.name == self.dim.name:
            hi = self.dim
        if not lim or "sub" not in lim:
            var = _free_index(body)
            whole = [v for v in body.free_symbols if isinstance(v, Symbol) and
                     v.name in SOFTMAX_BASES and not v.is_integer]
            if var is None and len(whole) == 1 and not body.has(Indexed):
                # Σ e^{z}: over the entries of the one vector the summand names
                var = index_symbol("k")
                body = body.xreplace({whole[0]: IndexedBase(whole[0].name)[var]})
            if var is None:
                raise ParseProblem("\\sum without limits: cannot tell which index it runs over",
                                   where)
            return Sum(body, (var, Integer(1), hi))
        idx: _Index = lim["sub"]
        out = body
        excluded: list[tuple[Symbol, Expr]] = []
        bounds: list[tuple[Symbol, Expr, Expr]] = []
        for item in idx.items:
            if len(item) == 1:
                for v in _split_indices(item[0]):
                    if not isinstance(v, Symbol):
                        raise ParseProblem(f"\\sum_{{{idx.text}}}: expected an index letter", where)
                    bounds.append((v, Integer(1), hi))
            elif len(item) == 3 and item[1] == "=":
                v, lo = item[0], item[2]
                if not isinstance(v, Symbol):
                    raise ParseProblem("\\sum_{…=…}: expected an index letter on the left", where)
                if len(v.name) == 1 and v.name.isalpha() and not v.is_integer and \
                        index_symbol(v.name) in body.free_symbols:
                    v = index_symbol(v.name)  # Σ_{t=1}^k e^{o_t}: t the index o_t is written with
                bounds.append((v, lo, hi))
            elif len(item) == 3 and item[1] == "≠":
                v, other = item[0], item[2]
                if isinstance(other, Symbol) and not body.has(v) and body.has(other):
                    # Σ_{i≠j} a_j: the sum runs over the summand's index, whatever the order
                    v, other = other, v
                if not any(b[0] == v for b in bounds):  # Σ_{j=1, j≠i}: one sum, one j
                    bounds.append((v, Integer(1), hi))
                excluded.append((v, other))
            elif len(item) == 5 and item[1] in ("≤", "<") and item[3] in ("≤", "<"):
                lo, v, up = item[0], item[2], item[4]
                lo = lo + 1 if item[1] == "<" else lo
                up = up - 1 if item[3] == "<" else up
                bounds.append((v, lo, up))
            elif len(item) == 7 and item[1] in ("≤", "<") and item[3] == "<" and \
                    item[5] in ("≤", "<") and len(idx.items) == 1:
                return self._pairs_sum(body, item, where)
            else:
                raise ParseProblem(f"\\sum with the condition {idx.text or '…'}: not understood",
                                   where)
        if not bounds:
            raise ParseProblem("\\sum_{}: no index", where)
        if not _literal_entries(body):
            # Σ_{k=0}^{C−1}: every entry, counted from 0 — the same sum as Σ_{k=1}^{C} over
            # entries labelled from 1 (no entry is named by its number: a relabelling)
            # (only to C − 1 with C the note's count of entries: a number, Σ_{i=0}^{2}, or a
            # letter the other sums do not run to, says how many there are — not relabelled)
            bounds = [(v, Integer(1), up + 1) if lo == 0 and (up + 1) in (self._length(), self.dim)
                      else (v, lo, up) for v, lo, up in bounds]
        for n, (v, lo, up) in enumerate(bounds):
            if isinstance(up, Expr) and up.has(v):
                # Σ_n y_n over the n classes: the index is not its own upper limit
                fresh = _unused_index(out.free_symbols | up.free_symbols)
                out, body = out.xreplace({v: fresh}), body.xreplace({v: fresh})
                excluded = [(fresh if w == v else w, o) for w, o in excluded]
                bounds[n] = (fresh, lo, up)
        for v, lo, up in reversed(bounds):
            out = Sum(out, (v, lo, up))
        for v, other in excluded:  # Σ_{k≠i} f(k) = Σ_k f(k) − f(i)
            if len(bounds) == 1 and isinstance(other, Symbol) and body.has(v) and body.has(other):
                lo, up = bounds[0][1], bounds[0][2]
                as_written = Sum(body, (v, lo, up)) - body.xreplace({v: other})
                swapped = Sum(body, (other, lo, up)) - body.xreplace({other: v})
                return _EitherSum(as_written, swapped, v, other)
            out = out - body.xreplace({v: other})
        return out

    @staticmethod
    def _pairs_sum(body: Expr, item: tuple[Any, ...], where: int) -> Expr:
        """Σ_{1≤i<j≤d} f(i, j), the cross terms of a square: ½(Σ_i Σ_j f − Σ_i f(i, i)) when
        f is symmetric in i and j (as every cross term of (Σ_i a_i)² is), which keeps to the
        whole-range sums the engine evaluates; else refused."""
        lo, i, j, up = item[0], item[2], item[4], item[6]
        lo = lo + 1 if item[1] == "<" else lo
        up = up - 1 if item[5] == "<" else up
        if not (isinstance(i, Symbol) and isinstance(j, Symbol)) or i == j or lo != 1:
            raise ParseProblem("\\sum over pairs: expected 1 ≤ i < j ≤ d", where)
        if body.xreplace({i: j, j: i}) != body:
            raise ParseProblem("\\sum over pairs i < j of a summand not symmetric in i and j: "
                               "not checked", where)
        return (Sum(Sum(body, (j, 1, up)), (i, 1, up)) - Sum(body.xreplace({j: i}), (i, 1, up))) / 2

    def matrix(self, meta: Any, ch: list[Any]) -> Any:
        """A bmatrix/pmatrix written out: its rows of entries (⋯, ⋮, ⋱ for the unwritten),
        a list when it is one row or one column — compared entry by entry with another."""
        rows = [[DOTS if isinstance(e, _Dots) or e is _EMPTY_CELL else self.v(e, meta, "in a matrix")
                 for e in r if not isinstance(e, Token)]
                for r in ch[1] if isinstance(r, list)]
        if len({len(r) for r in rows}) != 1 and not any(
                all(e == DOTS for e in r) for r in rows):
            raise ParseProblem("a matrix whose rows have different lengths", _where(meta))
        width = max(len(r) for r in rows)
        rows = [r if len(r) == width else [DOTS] * width for r in rows]  # a row of ⋮ alone
        if any(isinstance(e, Expr) and e.has(VectorLiteral, JacobianOf) for r in rows
               for e in r):
            raise ParseProblem("a matrix of matrices is not checked", _where(meta))
        if not any(e == DOTS for r in rows for e in r):
            return Grid.of(rows)  # multiplied, added, transposed as the matrix it is
        return _entry_list(rows)

    def mrows(self, meta: Any, ch: list[Any]) -> Any:
        # a row with nothing in it is the one after a closing \\ (not a row of the matrix)
        return [r for r in ch if not (isinstance(r, list) and r == [_EMPTY_CELL])]

    def mrow(self, meta: Any, ch: list[Any]) -> Any:
        return ch

    def mcell(self, meta: Any, ch: list[Any]) -> Any:
        # an empty cell (⋮ & ⋮ & & ⋮): an entry the note does not write, as ⋯ is
        return ch[0] if ch else _EMPTY_CELL


def _as_partial(x: Any) -> Any:
    """What a fraction's top or bottom differentiates: ∂f → f, ∂ alone → None, else no."""
    if isinstance(x, tuple) and x and x[0] == "partial":
        return x[1]
    if isinstance(x, _Partial):
        return _NONE
    if isinstance(x, _Paren) and isinstance(x.expr, tuple):
        return _as_partial(x.expr)  # \frac{(\partial f)}{\partial x}
    return None


def _softmax_entry(ss: dict[str, Any] | None) -> Expr | None:
    """softmax_j, \\mathrm{softmax}_j^2: the softmax output's entry j (to its power), as
    softmax(x)_j is — None without one plain index below."""
    idx = ss.get("sub") if ss else None
    if not isinstance(idx, _Index) or len(idx.items) != 1 or len(idx.items[0]) != 1:
        return None
    i = idx.items[0][0]
    if isinstance(i, Symbol) and len(i.name) == 1 and i.name.isalpha() and not i.is_integer:
        i = index_symbol(i.name)
    if not (isinstance(i, Integer) and i > 0 or isinstance(i, Symbol) and i.is_integer):
        return None
    power = ss.get("sup", S.One) if ss else S.One
    if not (isinstance(power, Expr) and power.is_Integer and 0 < power <= 4):
        return None
    return IndexedBase("y")[i] ** power


class _NoneMarker:
    pass


_NONE = _NoneMarker()
_D_LETTERS = ("d", "delta")


def _as_differential(x: Any) -> Any:
    """``d``, ``d y`` (or ``δ``, ``δ L``) as a fraction's top or bottom: what it differentiates.

    Only a bare d (δ), or d times one quantity, is a differential: d_k or 2d is not.
    """
    if isinstance(x, _Fn) and x.name == "delta" and x.coeff == 1 and x.power == 1:
        return _NONE
    if not isinstance(x, Expr):
        return None
    if isinstance(x, Symbol) and x.name in _D_LETTERS:
        return _NONE
    if isinstance(x, Mul):
        # d y, and d y_i log p_i (over d p_i): the d takes the whole product after it, as ∂
        # does — cancelled against the d below, it would read y_i log p_i / p_i
        ds = [m for m in x.args if isinstance(m, Symbol) and m.name in _D_LETTERS]
        rest = [m for m in x.args if m not in ds]
        if len(ds) == 1 and rest and not all(m.is_Number for m in rest):
            return Mul(*rest)
    return None


def _free_index(body: Expr) -> Symbol | None:
    """The index a \\sum without limits runs over: the one its summand uses most."""
    counts: Counter[Symbol] = Counter()
    for x in body.atoms(Indexed):
        for a in x.indices:
            if isinstance(a, Symbol) and a.is_integer:
                counts[a] += 1
    for dl in body.atoms(KroneckerDelta):
        for a in dl.args:
            if isinstance(a, Symbol):
                counts[a] += 0  # seen, but a δ does not decide
    if not counts:
        return None
    ranked = counts.most_common()
    tied = [a for a, c in ranked if c == ranked[0][1]]
    if len(tied) > 1:
        # Σ y_k p_i: the letter a sum runs over is k (or l, m) before i and j, the free
        # indices of the derivations these notes write (∂L/∂z_i = … Σ y_k p_i); Σ y_i t_j
        # stays ambiguous
        preferred = [a for a in tied if a.name in _SUM_LETTERS]
        if preferred:
            return min(preferred, key=lambda a: _SUM_LETTERS.index(a.name))
        # Σ e^{x_d} · e^{x_i}: i and j are the step's free indices; the one other letter runs
        others = [a for a in tied if a.name not in ("i", "j")]
        return others[0] if len(others) == 1 and len(tied) == 2 else None
    return ranked[0][0]


#: Which letter a \sum without limits runs over when its summand uses two equally often.
_SUM_LETTERS = "klm"


def _check_nesting(toks: Sequence[Tok]) -> None:
    """Absurd nesting and unbalanced braces, named before the parser sees them."""
    depth = 0
    braces: list[Tok] = []
    for t in toks:
        if t.kind in ("LPAR", "LSQB", "LBRACE", "LCURLY", "BEGIN", "LANGLE"):
            depth += 1
            if depth > MAX_NESTING:
                raise ParseProblem(f"brackets nested deeper than {MAX_NESTING}", t.start)
        elif t.kind in ("RPAR", "RSQB", "RBRACE", "RCURLY", "END", "RANGLE"):
            depth -= 1
        if t.kind == "LBRACE":
            braces.append(t)
        elif t.kind == "RBRACE":
            if not braces:
                raise ParseProblem("unbalanced braces: this '}' has no matching '{'", t.start)
            braces.pop()
    if braces:
        raise ParseProblem("unbalanced braces: this '{' is never closed; expected '}'",
                           braces[-1].start)


class Parser:
    """Parses expressions (token lists or LaTeX text) in one :class:`Notation`.

    Errors come out as :class:`ParseProblem` with an offset into the given text.
    """

    def __init__(self, notation: Notation) -> None:
        self.notation = notation
        #: names the note has defined so far (s := q·k): random when their value is
        self.defined: set[str] = set()
        #: set once the note defines a bare L as a likelihood (chains decide): L is then
        #: that likelihood and L_{CE} the loss
        self.likelihood = False
        #: the case conditions the last expression wrote in subscripts (y_{k=i}: ('=', k, i))
        self.conditions: tuple[tuple[str, Expr, Expr], ...] = ()
        #: the upper indices the last expression read as one quantity (y_k^{(i)}: 'i')
        self.dropped: tuple[str, ...] = ()
        #: letters a worked example gave a written matrix (Q = [2 1; 1 3]), as written
        self.grids: dict[str, Grid] = {}

    def tree(self, toks: Sequence[Tok]) -> Any:
        toks = prepare(toks)
        if not toks:
            raise ParseProblem("an empty expression", 0)
        if len(toks) > MAX_TOKENS:
            raise ParseProblem(f"an expression of {len(toks)} tokens (limit {MAX_TOKENS})",
                               toks[0].start)
        _check_nesting(toks)
        self._column = _column_products(toks)
        try:
            tree = _lark().parse(toks)  # type: ignore[arg-type]
        except UnexpectedInput as exc:
            raise _problem(exc, toks) from None
        _slash_then_juxtaposed(tree)
        return tree

    def build(self, tree: Any) -> Any:
        builder = _Build(self.notation, frozenset(self.defined), self.likelihood)
        builder.grids = self.grids
        builder.column_vectors = getattr(self, "_column", False)
        try:
            out = builder.transform(tree)
        except VisitError as exc:  # a callback's exception arrives wrapped by lark
            inner = exc.orig_exc
            if isinstance(inner, ParseProblem):
                raise inner from None
            if isinstance(inner, Exception) and not isinstance(
                    inner, (MemoryError, NameError, AssertionError, ImportError)):
                # (SymPy's own refusals too — IndexException for δ_{\text{true}}: one formula
                # not read, never the whole file stopped; a slip in verify's own code still
                # surfaces)
                where = getattr(getattr(exc.obj, "meta", None), "start_pos", 0) or 0
                raise ParseProblem(f"cannot build this expression: {inner}", where) from None
            raise
        self.conditions = tuple(builder.conditions)
        self.dropped = tuple(builder.dropped)
        return out

    def value(self, toks: Sequence[Tok]) -> Any:
        """The expression's value: an Expr, or a vector/function when the note writes one."""
        return self.build(self.tree(toks))

    def tokens_expression(self, toks: Sequence[Tok]) -> Expr:
        out = self.value(toks)
        where = toks[0].start if toks else 0
        b = _Build(self.notation)

        class _Meta:
            start_pos = where

        value = b.v(out, _Meta(), "as a side of '='")
        return _settle_sums(value) if isinstance(value, Expr) else value

    def expression(self, text: str) -> Expr:
        """One expression given as LaTeX text (no relation)."""
        try:
            toks = tokenize(text)
        except LexError as exc:
            raise ParseProblem(exc.message, exc.offset) from None
        return self.tokens_expression(toks)


def _slash_then_juxtaposed(tree: Any) -> None:
    """Refuse a/b c: (a/b)·c to some readers, a/(b c) to others — (n−1)/n^2[(n−1)+1]
    and 1/\\sqrt{d} x are both meant either way in real notes, so neither reading is the
    note's for sure.  A function applied to its argument (a/\\log(n), a/f(x)) is one factor."""
    for node in tree.iter_subtrees():
        if node.data != "div":
            continue
        right = node.children[-1]
        if not isinstance(right, Tree) or right.data != "juxt":
            continue
        lead = next(right.scan_values(lambda v: isinstance(v, Token)), None)
        if lead is not None and lead.type in ("PARTIAL", "NABLA"):
            continue  # ∂p_i/∂s_j: a derivative's denominator
        first, last = right.children
        if isinstance(last, Tree) and last.data in ("subscript", "superscript"):
            last = last.children[0]  # σ(z)_i
        called = isinstance(last, Tree) and last.data in ("paren", "tuple_") and \
            isinstance(first, Tree) and first.data in ("letter", "greek", "subscript",
                                                       "superscript")
        if not called:
            raise ParseProblem("a/b c: (a/b)·c or a/(b c)? the note does not say (write "
                               "\\frac{a}{b c} or (a/b) c)", _where(node.meta))


def _column_products(toks: Sequence[Tok]) -> bool:
    """Whether the expression writes a transposed factor followed by another (kᵀq, xᵀ(…)):
    its vectors are columns.  (Q Kᵀ and q kᵀ alone say nothing: row vectors write them.)"""
    for a, t in enumerate(toks[:-1]):
        transposed = t.kind == "TRANSPOSE" or (t.kind == "TOP" and a and toks[a - 1].kind == "SUP")
        if not transposed:
            continue
        nxt = toks[a + 1]
        if nxt.kind == "RBRACE" and a + 2 < len(toks):  # ^{\top}
            nxt = toks[a + 2]
        if nxt.kind in ("LETTER", "GREEK", "LPAR", "LSQB", "EXPECT", "WORD"):
            return True
    return False


def _problem(exc: UnexpectedInput, toks: Sequence[Tok]) -> ParseProblem:
    if isinstance(exc, UnexpectedToken):
        tok = exc.token
        if tok.type == "$END":
            end = toks[-1].end if toks else 0
            return ParseProblem(f"the expression ends too early; expected "
                                f"{_expected(set(exc.expected))}", end)
        where = tok.start_pos if tok.start_pos is not None else 0
        return ParseProblem(f"unexpected {_shown(tok)}; expected {_expected(set(exc.expected))}",
                            where)
    pos = getattr(exc, "pos_in_stream", None) or 0
    return ParseProblem(str(exc).splitlines()[0], pos)  # pragma: no cover


def _shown(tok: Token) -> str:
    value = str(tok)
    names = {"ROWSEP": "'\\\\'", "AMP": "'&'", "REL": f"relation {value!r}",
             "BEGIN": f"\\begin{{{value}}}", "END": f"\\end{{{value}}}"}
    return names.get(tok.type, repr(value))


__all__ += ["matrix_entries", "COL", "DOTS", "LENGTH", "LIKELIHOOD", "LOSS", "ROW", "XI", "PRIME", "EntryMatrix", "EntryVector",
            "JacobianOf", "VectorLiteral"]
_ = (Tree, re)  # imported for type checkers reading the grammar's trees
