r"""The fourth stage: rows → chains of steps as the author meant them, each line classified.

* In an align, a row whose left cell is not empty starts a new chain; ``&= …`` continues
  the chain; a display that begins with a relation continues the previous display's.
* Each relation is a step of a kind: a ``claim`` (=, to be judged), a ``definition``
  (``:=``, ``\triangleq``, ``\overset{def}{=}``, a new name's first appearance on the left,
  or a row the note introduces with 令/设/定义/记/其中/let/define/where), an
  ``assumption`` (``E(q_i) = 0``, ``q_i \sim N(0,1)`` on their own: read as declarations),
  an ``approximation`` (≈, ∼), a ``proportion`` (∝), an ``inequality`` (≤, <, ≥, >), a
  ``follows`` (``c^2 d_k = 1 \Rightarrow c = 1/\sqrt{d_k}``: the second equation is checked
  as following from the first), or a ``condition`` (an index relation such as ``k = j``).
* A case split (``\begin{cases}``, or a row's condition ``i = j``) is a chain per branch,
  checked under its condition.

Every expression is parsed here; one that cannot be read is kept with its problem, so
the steps around it are reported "not read" and the rest of the note goes on.

>>> from attncheck.verify.blocks import Math
>>> from attncheck.verify.parse import Notation
>>> m = Math(0, r"\begin{align} E(q_ik_i) &= E(q_i)E(k_i) \\ D(q_ik_i) &= 1 \end{align}")
>>> cs = build_chains([m], Notation())
>>> [[(s.kind, s.lhs.source, s.rhs.source) for s in c.steps] for c in cs]
[[('claim', 'E(q_ik_i)', 'E(q_i)E(k_i)')], [('claim', 'D(q_ik_i)', '1')]]
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from sympy import (
    Add,
    Basic,
    Derivative,
    Expr,
    Function,
    Indexed,
    IndexedBase,
    KroneckerDelta,
    Mul,
    Pow,
    Product,
    S,
    Sum,
    Symbol,
    Wild,
    exp,
    log,
    sqrt,
)
from sympy.core.function import AppliedUndef
from sympy.simplify.radsimp import fraction

from attncheck.verify.blocks import Math
from attncheck.verify.lexer import BOLD, LexError, Tok, sum_limit_sup, tokenize
from attncheck.verify.grid import Grid
from attncheck.verify.parse import (
    INDEX_LETTERS,
    LENGTH,
    LIKELIHOOD,
    LOSS,
    EntryMatrix,
    EntryVector,
    JacobianOf,
    Notation,
    ParseProblem,
    Parser,
    VectorLiteral,
    class_index,
    index_symbol,
    prose_in_place_of_math,
)
from attncheck.verify.rows import (
    CASE_AFTER,
    CASE_AFTER_WORDS,
    CASE_WORD,
    DEFINING_WORDS,
    Piece,
    Row,
    is_index_condition,
    lists_components,
    split_rows,
)
from derivations.operators import Cov, E, Var

__all__ = [
    "CORRECT_CLASS",
    "Assumed",
    "Chain",
    "Link",
    "Step",
    "build_chains",
    "class_letter",
    "is_condition_block",
    "is_value",
    "names_a_case",
    "std_of_random",
    "rows_of",
    "substitute",
    "without_variables",
    "writes_out",
]

_KINDS = {"=": "claim", ":=": "definition", "=:": "definition", "≈": "approximation",
          "~": "approximation", "∝": "proportion", "≤": "inequality", "≥": "inequality",
          "<": "inequality", ">": "inequality", "≠": "condition", "∈": "condition",
          "⊂": "condition", "→": "condition", "⟂": "assumption", "|": "condition",
          "⇔": "follows"}
_IMPLIES = ("⇒", "∴")
#: The right side of ``X \sim …`` that names a distribution: N(0, 1), \mathcal{N}, U(a, b).
_LAW = re.compile(r"\s*(?:(?:\\mathcal\s*\{?\s*[NU]\s*\}?|\\operatorname\{?\s*N|N|U|"
                  r"\\text\{?\s*(?:Normal|Uniform|Bernoulli|Rademacher))\s*\}?\s*[(\[]|"
                  r"\(\s*0\s*,\s*1\s*\))")  # (or "∼ (0, 1)": a mean and a variance)


@dataclass(frozen=True)
class Link:
    """One expression of a chain: its tokens, where it is, its value or why it has none."""

    block: Math
    start: int
    end: int
    source: str
    value: Any = None
    problem: str = ""
    problem_at: int = 0
    toks: tuple[Tok, ...] = ()
    #: y_{k=i}: the case the expression states in its subscripts, (relation, k, i)
    conditions: tuple[tuple[str, Any, Any], ...] = ()
    #: upper indices read as one quantity (y_k^{(i)} as y_k): the sample each entry is of
    dropped: tuple[str, ...] = ()

    @property
    def read(self) -> bool:
        return not self.problem


@dataclass(frozen=True)
class Step:
    """``lhs relation rhs`` with its kind, reason and the case condition it holds under."""

    lhs: Link
    rhs: Link
    relation: str
    kind: str
    reason: str = ""
    condition: str = ""
    condition_value: Any = None
    premise: tuple[Link, Link] | None = None
    lead: str = ""
    aliases: tuple[tuple[Expr, Expr], ...] = ()
    #: an earlier definition of the name on the left that makes this step ambiguous — its
    #: file offset, and "heading" (δ_i := … in § 3.3, "δ_i = …" in § 3.4) or "update" (S is
    #: rescaled, S = S/√d_k, before "S = QK^T"): a new meaning, or a claim?
    restates: tuple[int, str] | None = None
    #: numbers the note gave a dimension before this step (d_k = 64): the example's values,
    #: for a step that holds at them and not for every d_k (√d_k = 8)
    values: tuple[tuple[Expr, Expr], ...] = ()
    #: the words before the display, for every row of it (``lead`` is the first row's only)
    context: str = ""


@dataclass(frozen=True)
class Chain:
    """Steps that follow one another (each step's lhs is the previous step's rhs).

    ``hidden``: from inline math in prose, read for its definitions and assumptions only
    (unless inline chains are checked)."""

    steps: tuple[Step, ...]
    block: Math
    hidden: bool = False


@dataclass(frozen=True)
class Assumed:
    """A formula stating a moment of a component: ``E(q_i) = 0`` (after definitions)."""

    lhs: Expr
    value: Expr
    link: Link


def rows_of(block: Math) -> tuple[list[Row], str]:
    """The rows of a math block, or ([], why) when it cannot even be tokenized."""
    return _rows_of_text(block.text)


@lru_cache(maxsize=4096)
def _rows_of_text(text: str) -> tuple[list[Row], str]:
    # every stage asks for a block's rows: the notation survey, the assumptions, the chains
    try:
        return split_rows(tokenize(text)), ""
    except LexError as exc:
        return [], f"{exc.message}@{exc.offset}"


def _source(block: Math, piece: Piece) -> str:
    start = piece.start
    boxed = re.search(r"\\(?:boxed|fbox|color\s*\{\w+\})\s*$",
                      block.text[max(0, start - 24):start])
    if boxed and block.text[start:start + 1] == "{":
        start -= len(boxed.group(0))  # = \boxed{ŷ − y}: the side as written, box and all
    return " ".join(block.text[start:piece.end].split())


#: A row that explains a name the rows before it used: "\quad \text{where } S = …".
_WHERE_ROW = re.compile(r"\s*(?:where\b|其中)", re.I)
#: Words that open a row of remark inside a chain ("note that Σ_k y_k = 1", "注意到 …").
_REMARK_ROW = re.compile(r"\s*(?:note that|notice that|recall that|remember that|observe that|"
                         r"注意到?|回忆|别忘了)", re.I)


def _link(block: Math, piece: Piece | None, parser: Parser, at: int) -> Link:
    if piece is None:
        return Link(block, at, at, "", None, "an expression is missing here", at)
    src = _source(block, piece)
    try:
        tail = block.text[piece.start:piece.end]
        if piece.toks[-1].kind in ("PLUS", "MINUS", "CDOT", "TIMES", "STAR", "SLASH"):
            # -0.1 \cdot \text{W update}: the words after the operator are its operand
            tail = block.text[piece.start:min(len(block.text), piece.end + 200)]
        prose_in_place_of_math(tail, piece.start)
        value = parser.tokens_expression(piece.toks)
    except ParseProblem as p:
        return Link(block, piece.start, piece.end, src, None, p.message,
                    p.offset or piece.start, piece.toks)
    return Link(block, piece.start, piece.end, src, value, "", 0, piece.toks, parser.conditions,
                parser.dropped)


def _limitless(toks: Sequence[Tok]) -> bool:
    """Whether a \\sum in ``toks`` is written without an upper limit (Σ_i, Σ)."""
    return any(t.kind == "SUM" and sum_limit_sup(toks, n + 1) is None for n, t in enumerate(toks))


def _same_ranges(links: list[Link | None], before: Link | None, families: set[str]
                 ) -> list[Link | None]:
    """Σ_i E[q_i²]E[k_i²] = Σ_i 1·1 = d_k: a sum written without limits over a summand that
    names no component runs where the row's sums over the random components run (d_k), not
    over the softmax's classes — the index is the same one, carried along the chain."""
    ranges: dict[Expr, Expr] = {}
    for link in [before, *links]:
        if link is None or not isinstance(link.value, Expr):
            continue
        for s in link.value.atoms(Sum):
            if any(str(x.base.label) in families for x in s.function.atoms(Indexed)):
                for v, _, hi in s.limits:
                    ranges.setdefault(v, hi)
    if not ranges:
        return links
    out: list[Link | None] = []
    for link in links:
        if link is not None and isinstance(link.value, Expr) and _limitless(link.toks):
            value = link.value.replace(
                lambda e: isinstance(e, Sum) and len(e.limits) == 1 and e.limits[0][0] in ranges
                and e.limits[0][2] == LENGTH and not any(
                    str(x.base.label) in families for x in e.function.atoms(Indexed)),
                lambda e: Sum(e.function, (e.limits[0][0], e.limits[0][1],
                                           ranges[e.limits[0][0]])))
            link = replace(link, value=value) if value != link.value else link
        out.append(link)
    return out


def writes_out(e: Expr, m: int) -> bool:
    """Whether ``e`` writes terms out over the entries 1 … m (f(1) + f(2) + f(3)), which a
    derivative at two entries (∂y_1/∂x_2) does not."""
    def entries(term: Expr) -> set[int]:
        return {int(x) for ix in term.atoms(Indexed) for x in ix.indices if x.is_Integer}

    return any(sum(1 for t in a.args if entries(t)) >= 2 and
               set(range(1, m + 1)) <= set().union(*(entries(t) for t in a.args))
               for a in e.atoms(Add))


def _missing_after(text: str, rel: Tok) -> str:
    """Why nothing follows a relation: the words there (``= \\text{predicted - actual}``)
    are prose in place of the formula, or there is nothing."""
    try:
        toks = tokenize(text[rel.end:])
    except LexError:
        toks = []
    words = []
    for t in toks:
        if t.kind in ("REL", "ROWSEP", "AMP"):
            break
        if t.kind == "TEXT" and re.search(r"[A-Za-z]", t.note or ""):
            words.append((t.note or "").strip())
    if words:
        return f"words in place of math ({' '.join(words)!r}): prose, not a formula"
    return f"expected an expression after {rel.value!r}"


def _is_name(v: Any) -> bool:
    """A bare name: x, x_i, f(x), σ² — what a definition introduces."""
    if isinstance(v, Pow) and isinstance(v.base, Symbol) and v.exp.is_Number:
        return True
    if isinstance(v, Symbol) and not v.is_integer:
        return True
    if isinstance(v, Indexed) and all(isinstance(a, Symbol) or a.is_Integer for a in v.indices):
        return True
    if isinstance(v, Function) and not isinstance(v, (E, Var, Cov, JacobianOf, VectorLiteral,
                                                      KroneckerDelta, log, exp)) \
            and all(isinstance(a, Symbol) or (isinstance(a, Indexed) and all(
                i.is_Integer for i in a.indices)) for a in v.args):
        return True  # f(x), g_1(x_1): a function named with its argument
    return False


def _name_key(v: Any) -> str:
    if isinstance(v, Pow):
        v = v.base
    if isinstance(v, Indexed):
        return str(v.base.label)
    if isinstance(v, Function):
        return type(v).__name__
    return str(v)


def std_of_random(e: Expr, model: Any) -> Expr:
    """σ(z) read as the sigmoid, where z is random (z = Σ q_i k_i): the note's standard
    deviation of z, √Var(z) — no note takes the sigmoid of a random score in a variance
    argument."""
    from derivations.expectation import is_random

    def sigmoid_arg(u: Expr) -> Expr | None:
        if isinstance(u, Pow) and u.exp == -1 and isinstance(u.base, Add) and \
                len(u.base.args) == 2 and S.One in u.base.args:
            other = next(a for a in u.base.args if a != S.One)
            if isinstance(other, exp) and is_random(-other.args[0], model):
                return -other.args[0]
        return None

    return e.replace(lambda u: sigmoid_arg(u) is not None,
                     lambda u: sqrt(Var(sigmoid_arg(u))))


def substitute(e: Expr, aliases: Sequence[tuple[Expr, Expr]]) -> Expr:
    """The note's definitions, latest first, substituted into e (a name by its value).

    A value that names something defined after it ("L = P(y|x) = p^y (1-p)^{1-y}": L's value
    P(y|x) is written out one row later) is substituted again — a few rounds, and never a
    definition whose value holds its own name (x := x/√d rescales, it does not recurse)."""
    aliases = without_variables(aliases, e)
    e = _substitute_once(e, aliases)
    again = [(n, v) for n, v in aliases if _name_key(n) not in _names(v)]
    defined = {_name_key(n) for n, _ in again}
    for _ in range(3):
        if not _names(e) & defined:
            break
        e, before = _substitute_once(e, again), e
        if e == before:
            break
    return e


def without_variables(aliases: Sequence[tuple[Expr, Expr]], *sides: Any
                      ) -> tuple[tuple[Expr, Expr], ...]:
    """The definitions that may go into a step: not those of a variable the step
    differentiates by — a worked example's o = 2 or x = 3 says where a derivative is
    evaluated, and ∂L/∂o asks how L moves with o, which a number in o's place cannot say."""
    by = {v for e in sides if isinstance(e, Expr)
          for d in e.atoms(Derivative) for v in d.variables}
    if not by:
        return tuple(aliases)
    # likewise L = −log 0.245 = 1.406, the example's value of the name differentiated:
    # ∂L/∂o asks how L moves, which the number it takes at one point cannot say
    inside = {_name_key(d.expr) for e in sides if isinstance(e, Expr)
              for d in e.atoms(Derivative) if _is_name(d.expr)}
    return tuple((n, v) for n, v in aliases
                 if not (n in by or isinstance(n, Indexed) and any(
                     isinstance(b, Indexed) and b.base == n.base for b in by))
                 and not (v.is_number and _name_key(n) in inside))


def _names(e: Expr) -> set[str]:
    """What an expression names that a definition can define: symbols, vectors, functions."""
    if not isinstance(e, Expr):
        return set()
    return {s.name for s in e.free_symbols if isinstance(s, Symbol)} | \
        {str(x.base.label) for x in e.atoms(Indexed)} | \
        {type(f).__name__ for f in e.atoms(AppliedUndef)}


def _letters(e: Expr) -> set[str]:
    """The names an expression is written in, its indices aside: symbols, vectors."""
    return {str(s) for s in e.free_symbols if not s.is_integer} | \
        {str(x.base.label) for x in e.atoms(Indexed)}


def _names_one_entry(index: Symbol) -> bool:
    """An index that names one entry, not any: a class's capital letter or word (p_A over the
    tokens {A, B, C}, p_{\\text{dog}}), where i, j, k range over all entries."""
    name = index.name
    return name[:1].isupper() or (len(name) >= 3 and name.isalpha())


def _substitute_once(e: Expr, aliases: Sequence[tuple[Expr, Expr]]) -> Expr:
    for name, value in reversed(aliases):
        if isinstance(name, Indexed):
            base, idx = name.base, name.indices

            def repl(x: Indexed, idx: tuple[Expr, ...] = idx, value: Expr = value) -> Expr:
                if len(x.indices) != len(idx):
                    return x
                if not all(isinstance(a, Symbol) and not _names_one_entry(a) for a in idx):
                    # Y_{11} := 1, p_A := 54.598/62.987: that entry only
                    return value if tuple(x.indices) == tuple(idx) else x
                at = dict(zip(idx, x.indices))
                if any(at[a] != b for a, b in zip(idx, x.indices)):
                    return x  # J_ii := …, a diagonal entry: not J_ij, whose indices differ
                return value.xreplace(at)

            try:
                e = e.replace(lambda x, base=base: isinstance(x, Indexed) and x.base == base,
                              repl)
            except ValueError:  # x_3 := e^{x_4} would stand where ∂/∂x_3 needs a variable
                continue
        elif isinstance(name, Function):
            f, args = type(name), name.args

            def frepl(x: Function, args: tuple[Expr, ...] = args, value: Expr = value) -> Expr:
                return value.xreplace(dict(zip(args, x.args)))

            try:
                e = e.replace(lambda x, f=f: isinstance(x, f), frepl)
            except ValueError:  # likewise for a function's argument
                continue
        else:
            try:
                e = _replace_name(e, name, value)
            except ValueError:  # Y := AV where ∂L/∂Y needs Y as the variable: left as named
                continue
    return e


def _replace_name(e: Expr, name: Expr, value: Expr) -> Expr:
    """e with the symbol ``name`` replaced — but not the label of a vector t_k named t too."""
    if e == name:
        return value
    if isinstance(e, IndexedBase) or not e.args or not e.has(name):
        return e
    return e.func(*(_replace_name(a, name, value) for a in e.args))


def _is_likelihood(value: Expr) -> bool:
    """P(y|x), Π_i p_i^{y_i}, p^y (1-p)^{1-y}: a probability of the labels, not a loss (no log)."""
    if value.has(log):
        return False
    return any(type(f).__name__ in ("P", "p") for f in value.atoms(AppliedUndef)) or \
        value.has(Product) or any(p.exp.has(IndexedBase("t"), Symbol("t"))
                                  for p in value.atoms(Pow))


def _is_label(lhs: Any, rhs: Any) -> bool:
    """t_c = 1: the one-hot target's class (what the note says of its label)."""
    return isinstance(lhs, Indexed) and str(lhs.base.label) == "t" and rhs == 1 and \
        len(lhs.indices) == 1 and isinstance(lhs.indices[0], Symbol) and \
        lhs.indices[0].name not in ("i", "j", "k", "m", "n")  # y_i = 1 "when i = c": a case


def _is_written_target_sum(lhs: Any, rhs: Any) -> bool:
    """T_1 + T_2 + T_3 = 1: the target's entries, written out, sum to one."""
    return rhs == 1 and isinstance(lhs, Expr) and lhs.is_Add and all(
        isinstance(a, Indexed) and str(a.base.label) == "t" for a in lhs.args)


def _toks_name(toks: Sequence[Tok]) -> str | None:
    """The letter a side names when it is one letter (bold, accented, with a subscript)."""
    toks = [t for t in toks if t.kind not in ("QUAD",)]
    if not toks or toks[0].kind not in ("LETTER", "GREEK"):
        return None
    rest = toks[1:]
    if rest and not (rest[0].kind in ("SUB", "LPAR") or rest[0].kind == "TRANSPOSE"):
        return None
    if rest and rest[0].kind == "SUB" and len(rest) > 4:
        return None
    # f(x), H(A, Y): an argument list of names — E((q_i + k_i)^2), E(q_1 q_2) are moments
    if rest and rest[0].kind == "LPAR":
        if rest[-1].kind != "RPAR" or toks[0].value in ("E", "D", "P"):
            return None
        args: list[list[Tok]] = [[]]
        for t in rest[1:-1]:
            if t.kind == "COMMA":
                args.append([])
            elif t.kind in ("LETTER", "GREEK", "SUB", "NUMBER", "LBRACE", "RBRACE"):
                args[-1].append(t)
            else:
                return None
        if any(not a or sum(t.kind in ("LETTER", "GREEK") for t in a) > 1 + (
                len(a) > 1 and a[1].kind == "SUB") for a in args):
            return None  # one name per argument: x, x_i, A_{ic}
    return toks[0].value.replace(BOLD, "")


#: Words in the math just before a row that make it a premise: what is given, not shown.
_PREMISE = re.compile(r"(已知|由于|因为|假设|假定|given|since|because|assuming|assume)"
                      r"\s*(that)?\s*[:：,，]?\s*$", re.IGNORECASE)


#: The words an inline "= …" may follow and still go on with the chain before it ("so
#: $= 3$", "，即 $= …$"); any other word just before it is its left side ("sum $=3.03$").
_GOES_ON = re.compile(r"(?:^|\b)(?:so|thus|hence|then|therefore|and|which|i\.e\.|that is|is|are|"
                      r"equals?|becomes?|gives?|giving|yields?|get|obtain|we have|or)$|"
                      r"(?:所以|因此|于是|故|即|则|得到?|有|为|可得|从而|也就是|化简|等于|再)$",
                      re.IGNORECASE)


def _left_in_words(lead: str) -> str:
    """The word an inline math's leading relation has as its left side ("sum" in "$e^0 = 1$,
    sum $=3.03$"), or "" where the words before it go on with the chain (or there are none)."""
    if lead.count("$") % 2:  # "$a = b$ ⏎ $= c$" (the lead stops inside the math before)
        return ""
    tail = lead.rpartition("$")[2]
    if "\n" in tail.strip() or tail.rstrip().endswith((":", "：")):
        return ""  # words on a line before, or a colon that introduces the math
    tail = tail.strip(" \t,，;；")
    words = re.findall(r"[^\W\d_]+\.?", tail)
    if not words or _GOES_ON.search(tail):
        return ""
    return words[-1]


#: Words just before inline math that make it what is differentiated ("the derivative of
#: $J = …$", "对 $L = …$ 求导"), not a definition.
_WHAT_IS_DIFFERENTIATED = re.compile(
    r"(?:\b(?:derivative|gradient|differentiat\w*|partials?)\b[^$.。]{0,30}\b(?:of|for)|对)\s*$",
    re.IGNORECASE)


#: Words that make the display after them a requirement, not a claim: "we want to find
#: some factor $c$ … so that …:", "我们希望 … 使得：".
_GOAL = re.compile(r"\b(?:we|I) (?:want|need|require|wish|would like|'d like)\b|\bthe goal\b|"
                   r"\bour goal\b|我们希望|我们想要|我们要求|目标是|希望找到", re.IGNORECASE)


#: What may follow a goal's verb when the display is its object: "we want that:", "我们希望：".
_GOAL_ENDS = re.compile(r"\s*(?:that|it|them)?\s*[:：,，]?\s*")


#: "we want to show that …": what follows is claimed (and then derived), not required.
_TO_SHOW = re.compile(r"\b(?:want|need|wish|like) to (?:show|prove|verify|check|see|compute|derive|"
                      r"calculate|find out|confirm)\b|证明|验证|说明|计算", re.IGNORECASE)


#: The requirement a goal states ("… so that the variance is one").
_SO_THAT = re.compile(r"\b(?:so that|such that|in order that)\b|使得|使其|满足", re.IGNORECASE)


def _states_a_goal(lead: str) -> bool:
    """The last sentence before a display says what is wanted (a requirement to solve)."""
    sentences = [c for c in re.split(r"(?<=[。.;；!?！？])\s+", lead.strip()) if c.strip()]
    last = sentences[-1] if sentences else ""
    goal = _GOAL.search(last)
    # "… so that:", or the goal said last, the display its object ("Suppose we want: $$…$$")
    return goal is not None and _TO_SHOW.search(last) is None and (
        _SO_THAT.search(last) is not None or _GOAL_ENDS.fullmatch(last[goal.end():]) is not None)


def _defines_next(lead: str) -> bool:
    """The words before a display say it defines ("令", "let", "where", "we define"): in the
    last clause, and not already spent on an inline equation after them ("令 $p_i = …$。"
    defined p_i; "其中，对于任何标签 $y$，损失函数为：" still introduces the display)."""
    clauses = [c for c in re.split(r"[。.;；!?！？]\s*", lead.strip()) if c.strip()]
    last = clauses[-1] if clauses else ""
    for w in DEFINING_WORDS:
        found = list(re.finditer(rf"(^|\b|\s){re.escape(w)}", last, re.IGNORECASE))
        # spent when an inline equation follows the word: 令 $p_i = …$ defined p_i
        if found and not re.search(r"\$[^$]*=[^$]*\$", last[found[-1].end():]):
            return True
    return False


def _unknown(v: Any) -> Symbol | None:
    """The letter an equation is solved for: c in ``c = …``, ``c² = …``."""
    if isinstance(v, Pow) and isinstance(v.base, Symbol) and v.exp.is_Integer and v.exp > 0:
        v = v.base
    return v if isinstance(v, Symbol) and not v.is_integer else None


def _shifted_softmax(lv: Any, rv: Any) -> bool:
    r"""``y_i = e^{x_i − c}/Σ_j e^{x_j − c}`` (c = max x, x̄, m): the note's softmax output
    written with its scores shifted for stability — a claim (shift invariance), not a new
    definition of y, whose shift may be wrong (e^{x_i − c}/Σ_j e^{x_j} then fails).
    A temperature (e^{x_i/T}) is not a shift: such a softmax stays the note's definition.

    >>> from sympy import IndexedBase, Symbol, Sum, exp
    >>> from attncheck.verify.parse import index_symbol
    >>> x, y, c = IndexedBase("x"), IndexedBase("y"), Symbol("c")
    >>> i, j, n = index_symbol("i"), index_symbol("j"), Symbol("n")
    >>> _shifted_softmax(y[i], exp(x[i] - c) / Sum(exp(x[j] - c), (j, 1, n)))
    True
    >>> _shifted_softmax(y[i], exp(x[i] / c) / Sum(exp(x[j] / c), (j, 1, n)))
    False
    """
    if not (isinstance(lv, Indexed) and str(lv.base.label) == "y" and len(lv.indices) == 1
            and isinstance(rv, Expr)):
        return False
    num, den = fraction(rv, exact=True)  # exact: e^{x_i − c} stays whole, not e^{x_i}/e^c
    if not (isinstance(num, exp) and isinstance(den, Sum) and isinstance(den.function, exp)):
        return False
    j = den.limits[0][0]
    x = IndexedBase("x")
    shifts = (num.args[0] - x[lv.indices[0]], den.function.args[0] - x[j])
    atoms = {t.as_coeff_Mul()[1] for s in shifts for t in Add.make_args(s) if s != 0}
    if not atoms or any(isinstance(a, Indexed) and a.base == x and a.indices[0].is_integer
                        or not isinstance(a, (Symbol, AppliedUndef, Indexed))
                        or a.has(lv.indices[0], j) for a in atoms):
        return False
    plain = rv.xreplace({a: S.Zero for a in atoms})
    return plain == exp(x[lv.indices[0]]) / den.func(exp(x[j]), *den.limits)


def _call_form(toks: Sequence[Tok]) -> str | None:
    """``y_i(z_i)``, ``f(x)``, ``L(ŷ, y)``: a letter (with an index) applied to names —
    the letter; E(…), D(…), P(…) are operators, not names being defined."""
    toks = [t for t in toks if t.kind != "QUAD"]
    if len(toks) < 4 or toks[0].kind not in ("LETTER", "GREEK") or toks[0].value in "EDP" \
            or toks[-1].kind != "RPAR":
        return None
    n = 1
    if toks[n].kind == "SUB":
        n += 2 if toks[n + 1].kind in ("LETTER", "NUMBER") else 0
        if n == 1:
            return None
    if toks[n].kind != "LPAR" or n + 1 >= len(toks) - 1:
        return None
    inner = toks[n + 1:-1]
    if not all(t.kind in ("LETTER", "GREEK", "SUB", "COMMA", "NUMBER") for t in inner):
        return None
    return toks[0].value.replace(BOLD, "")


def _is_target_sum(lhs: Any, rhs: Any) -> bool:
    """Σ_k t_k = 1: the note says its target is a probability vector."""
    return isinstance(lhs, Sum) and rhs == 1 and isinstance(lhs.function, Indexed) and \
        str(lhs.function.base.label) == "t" and lhs.function.indices == (lhs.limits[0][0],)


def _is_assumption(lhs: Any, rhs: Any) -> bool:
    """E(q_i) = c, Var(q_i) = c, Cov(q_i, k_i) = 0 about single components: a premise."""
    if not isinstance(lhs, (E, Var, Cov)) or not isinstance(rhs, Expr):
        return False
    args = lhs.args
    return all(isinstance(a, Indexed) for a in args) and not rhs.has(E, Var, Cov, Indexed)


class _Builder:
    def __init__(self, notation: Notation, inline_steps: bool) -> None:
        self.parser = Parser(notation)
        self.notation = notation
        self.inline_steps = inline_steps
        self.seen: set[str] = set()
        self.seen_letters: set[str] = set()
        #: names the note has written with an index (J_ij): alone, the whole of them
        self.seen_indexed: set[str] = set()
        #: names whose only definition so far could not be read (z = QKᵀ): not yet known
        self.vague: set[str] = set()
        #: the words before the block being read
        self.context = ""
        #: names a definition of this block wrote on its right for the first time
        #: (E = y_1 + y_2 ⏎ y_1 = s_1 s_2: y_1 is defined in turn)
        self.introduced: tuple[Math | None, set[str]] = (None, set())
        #: the last expression of each row the note numbered (\tag{1}, \qquad(1))
        self.labelled: dict[str, Link] = {}
        #: an expression shown alone, and the chain's last expression before it
        self.aside: tuple[Link, Link | None, str] | None = None
        #: the last expression of every chain so far
        self.ends: list[Link] = []
        self.chains: list[Chain] = []
        self.current: list[Step] = []
        self.current_block: Math | None = None
        self.last: Link | None = None
        self.block_condition: tuple[str, Any] | None = None
        self.current_condition: tuple[str, Any] | None = None
        self.hidden = False
        self.after_alternative = False
        self.last_shown: Link | None = None
        self.case_base: Link | None = None
        self.aliases: list[tuple[Expr, Expr]] = []
        self.values: dict[Expr, Expr] = {}
        #: why a display's "= …" continues no chain (after a case split's branches, or after
        #: a part of an earlier expression worked out on its own), "" when it does
        self.after_split = ""
        #: the left side a case split's first branch defined (M_ij = {0, i ≥ j; −∞, …})
        self.branch_defined: tuple[Math, str] | None = None
        self.assumed: list[Assumed] = []
        self.seen_before_row: set[str] = set()
        #: file offsets of the note's headings, and where each name was defined
        self.headings: Sequence[int] = ()
        self.defined_at: dict[str, int] = {}
        #: names rescaled in place (S = S/√d_k), and where
        self.updated: dict[str, int] = {}
        #: blocks read so far, and the last equation solved for an unknown (c² = 1/d_k after
        #: "⇒"): its block's number, the equation, the unknown
        self.blocks_read = 0
        #: the display whose equations the words before it said are wanted
        self.goal: Math | None = None
        #: the display whose first row gave a name a number: its other "name = number" rows too
        self.values_block: Math | None = None
        self.solved: tuple[int, tuple[Link, Link], Symbol] | None = None

    # -- names seen so far: a name's first appearance on the left is its definition ------
    def _see(self, link: Link) -> None:
        for t in link.toks:
            if t.kind in ("LETTER", "GREEK"):
                self.seen_letters.add(t.value.replace(BOLD, ""))
        v = link.value
        if isinstance(v, Expr):
            for s in v.atoms(Symbol):
                self.seen.add(s.name)
            for x in v.atoms(Indexed):
                self.seen.add(str(x.base.label))
                self.seen_indexed.add(str(x.base.label))
            for f in v.atoms(Function):
                self.seen.add(type(f).__name__)

    def close(self) -> None:
        if self.current:
            self.ends.append(self.current[-1].rhs)
        if self.current and self.current_block is not None:
            self.chains.append(Chain(tuple(self.current), self.current_block, self.hidden))
        self.current = []

    def block(self, block: Math, rows: Sequence[Row], lead_words: str,
              condition: tuple[str, Any] | None = None, hidden: bool = False) -> None:
        if hidden != self.hidden:  # a display continues a display, never inline math
            if not self.hidden:
                self.last_shown = self.last
            self.close()
            self.last = None if hidden else self.last_shown
        self.hidden = hidden
        self.blocks_read += 1
        if lead_words.strip() or hidden:
            # displays with no words between them are in the words before the first
            self.context = lead_words
        if len(rows) >= 2 and _is_case_row(rows[0]):
            # $$ if\ s = i, \\ = … $$, `i = j 时：\\ ∂p_i/∂z_j &= …`: the case the rows
            # below are in, said inside the math
            first = rows[0]
            toks = first.pieces[0].toks + (first.relations[0],) + first.pieces[1].toks
            value = _condition_value(Piece(toks), self.parser)
            if value is not None:
                condition = (" ".join(block.text[toks[0].start:toks[-1].end].split()), value)
                rows = rows[1:]
        continues = bool(rows) and rows[0].pieces[0] is None
        if continues and self.current and self.current[-1].rhs.problem.startswith(
                "expected an expression after") and \
                self.current[-1].relation == rows[0].relations[0].value:
            # "… = ⏎$$⏎$$ = …": the relation ending one display begins the next
            self.last = self.current.pop().lhs
        if continues and lead_words.strip() and self.aside is not None and \
                self.last is self.aside[0] and lead_words != self.aside[2]:
            # "$$∂/∂z_k e^{z_j}$$ is a different case. In the case of j = k: $$= …$$": the
            # expression shown alone was an aside about a part of an earlier expression;
            # prose, then "= …", goes on with the chain whose expression holds that part
            part = self.aside[0].value
            held = next((e for e in reversed(self.ends) if isinstance(e.value, Expr) and
                         isinstance(part, Expr) and e.value != part and e.value.has(part)),
                        None)
            if held is not None:
                self.close()
                self.last = held
        named = _left_in_words(lead_words) if continues and not (
            block.display or block.alone or hidden) else ""
        if named:
            # "$e^{0}=1$, sum $=3.0281$": the inline '=' has a word as its left side, not the
            # value before it
            self._go_on_from_nothing(f"the left side of '=' is the word «{named}», not math")
        elif continues and not hidden and condition is None and self.block_condition is None and \
                self.current and self.current[-1].condition:
            # "所以带入 &= …" after a display that ended in the branches of a case split: which
            # expression the "=" goes on from (the split's left side, the sum it splits, or
            # one branch) the words say — no branch's chain is continued
            self._go_on_from_nothing("'=' after a case split: which expression it goes on from "
                                     "(the split's left side or one branch), the words say")
        elif continues and not hidden and self.current and self.last is not None and \
                self._works_a_part(self.current[0].lhs):
            # "(24) = a + b;  a = … (25);  b = y_j p_i (26);  Combining: = …": a display that
            # worked out a part of an earlier expression, then "= …" — whether that goes on
            # from the part's result or from the whole expression, the words say
            self._go_on_from_nothing("'=' after a part of an earlier expression was worked out "
                                     "on its own: which expression it goes on from, the words say")
        if not hidden and not continues:
            self.aside = None  # a display of its own: no aside is pending any more
        if hidden:  # inline math in the prose: read, but it does not move the display's chain
            pass
        elif continues and condition is not None:
            # "If i = j, $$= …$$  And if i ≠ j, $$= …$$": each case continues the
            # expression before the first case, not the other case's result
            if self.block_condition is None or self.case_base is None:
                self.case_base = self.last
            elif condition != self.block_condition:
                self.close()
                self.last = self.case_base
        elif not continues:
            self.case_base = None
        if not hidden:
            self.block_condition = condition
        self.current_condition = condition
        for row in rows:
            self._assumptions(block, row)
        if not rows and not hidden and (block.display or block.alone):
            self._expression_alone(block, lead_words)
            return
        first_row = True
        branch_base, in_branches = None, False
        for row in rows:
            starts_new = row.pieces[0] is not None
            branch = row.condition is not None and not starts_new
            if branch and in_branches and branch_base is not None:
                # "= \begin{cases} a & i = j \\ b & i ≠ j \end{cases}": each branch goes on
                # from the expression before the split, never from the other branch's value
                self.close()
                self.last = branch_base
            elif branch:
                branch_base = self.last
            in_branches = branch
            aside = self.last if starts_new and not first_row and self.last is not None and \
                _REMARK_ROW.match(row.lead or "") else None
            # "… \quad \text{where } S = Σ_k e^{z_k}": a name explained on the way, if defined
            where = self.last if starts_new and not first_row and self.last is not None and \
                _WHERE_ROW.match(row.lead or "") else None
            if starts_new or (first_row and self.last is None):
                self.close()
                self.last = None
            self.current_block = self.current_block if (not starts_new and self.current) \
                else block
            # inline math: its paragraph's words ("where $g_i = …, h_i = …$") are every row's
            self._row(block, row, lead_words if first_row or hidden else "")
            first_row = False
            if where is not None and self.current and \
                    all(st.kind == "definition" for st in self.current):
                aside = where
            if aside is not None:
                # "\text{note that } \sum_k y_k = 1" between two rows of a chain: a remark on
                # the way — the row after it goes on from the chain it interrupted
                self.close()
                self.last = aside

    def _row(self, block: Math, row: Row, lead_words: str) -> None:
        lead = " ".join(x for x in (row.lead, lead_words) if x)
        cond_text, cond_value = "", None
        named = lead_condition(row.lead, self.parser) if row.lead and row.condition is None \
            else None
        if row.condition is not None:
            cond_text = " ".join(block.text[row.condition.start:row.condition.end].split())
            cond_value = _condition_value(row.condition, self.parser)
        elif named is not None:  # 1)当i=j时，∂S_i/∂f_j = …: the case said at the row's head
            cond_text, cond_value = named
        elif self.current_condition is not None:  # "Case 1: $i = j$" in the prose before
            cond_text, cond_value = self.current_condition
        pieces = list(row.pieces)
        links: list[Link | None] = []
        for n, p in enumerate(pieces):
            if n == 0 and p is None:
                links.append(None)
                continue
            at = row.relations[n - 1].end if n else 0
            if p is None:  # "a = = b", or a row that ends with its relation
                rel = row.relations[n - 1]
                links.append(Link(block, rel.end, rel.end, "", None,
                                  _missing_after(block.text, rel), rel.start))
                continue
            links.append(_link(block, p, self.parser, at))
        links = _same_ranges(links, self.last if links and links[0] is None else None,
                             set(self.parser.notation.families))
        cited = _cited_label(row.pieces[0])
        if cited is not None and cited in self.labelled:
            # "(1)式 = …": the expression the note numbered (1), not the number 1
            links[0] = self.labelled[cited]
        left = links[0] if links[0] is not None else self.last
        self.seen_before_row = set(self.seen)
        premise: tuple[Link, Link] | None = None
        for n, rel in enumerate(row.relations):
            right = links[n + 1]
            assert right is not None
            symbol = rel.value
            if symbol in _IMPLIES or symbol == "∵":
                # "A = B ⇒ C = D": C = D is checked as following from A = B
                if self.current:
                    last = self.current[-1]
                    premise = (last.lhs, last.rhs)
                    if last.kind == "claim" and is_value(last.lhs.value, last.rhs.value):
                        # "y_j = 1 ⇒ ∂L/∂z_j = p_j − 1": the premise is a case, not a claim
                        self.current[-1] = replace(last, kind="assumption")
                self.close()
                self.current_block = block
                left = right
                continue
            if left is None:
                left = Link(block, rel.start, rel.start, "", None, self.after_split or
                            "the chain starts with a relation: expected an expression before "
                            "it", rel.start)
                self.after_split = ""
            kind = _KINDS.get(symbol, "claim")
            if symbol == "~" and _LAW.match(right.source):
                kind = "assumption"  # q_i, k_i \sim \mathcal{N}(0, σ²): a law, not "about equal"
            if kind == "claim" and (row.alternative or (n == 0 and self.after_alternative)):
                kind = "alternative"
            reason = rel.note or (row.reason if n == len(row.relations) - 1 else "")
            branch = (left.block, " ".join(left.source.split())) \
                if n == 0 and row.condition is not None else None
            if kind == "claim" and branch is not None and branch == self.branch_defined:
                kind = "definition"  # M_ij = {0, i ≥ j; −∞, i < j}: each branch defines M_ij
            solved = self._solved_for(block, row, left) \
                if kind == "claim" and n == 0 and premise is None and not self.current else None
            if kind == "claim" and solved is None:
                kind = self._classify(left, right, lead, n, premise is not None, row)
                if kind == "definition" and isinstance(right.value, Expr) and \
                        right.value.is_number and _is_name(left.value):
                    self.values_block = left.block  # "x_1 = 1, \quad x_2 = -1, …": a list
                if kind == "definition-right":
                    kind, symbol = "definition", "=:"
            premise = premise or solved
            if kind == "definition" and branch is not None:
                self.branch_defined = branch
            if premise is not None and kind == "claim":
                kind = "follows"
            step_text, step_cond = cond_text, cond_value
            written = left.conditions or right.conditions
            if step_cond is None and written:  # ∂y_{k=i}/∂z_i: the case is in the subscript
                rel, a, b = written[0]
                step_text, step_cond = f"{a} {rel} {b}", (rel, a, b)
            step = Step(left, right, symbol, kind, reason, step_text, step_cond,
                        premise if kind == "follows" else None, lead, tuple(self.aliases),
                        self._restates(left, right) if kind == "claim" and n == 0 else None,
                        tuple(self.values.items()), self.context)
            if kind == "claim" and n > 0 and self.current and \
                    self.current[-1].kind == "definition" and self.current[-1].rhs is left and \
                    left.value is None and isinstance(right.value, Expr):
                # C(a, y) = ½‖a − y‖² = ½ Σ_i (a_i − y_i)²: the definition's unread value,
                # written out readably right after it, is the value of C from here on
                self._define(replace(self.current[-1], rhs=right))
            if kind == "follows" and premise is not None:
                self._premise_is_a_condition(premise, left)
                unknown = _unknown(left.value)
                self.solved = (self.blocks_read, (left, right), unknown) \
                    if unknown is not None else None
            premise = None
            self.current.append(step)
            if kind == "definition":
                known = len(self.aliases)
                self._define(step)
                if n == 0 and len(self.aliases) > known and _WHERE_ROW.match(row.lead or ""):
                    self._explained_after(block, self.aliases[-1])
                if isinstance(left.value, Expr) and _is_name(left.value):
                    self.defined_at[_name_key(left.value)] = block.offset(left.start)
                    if isinstance(right.value, Expr) and right.value != left.value and \
                            right.value.has(left.value):
                        self.updated[_name_key(left.value)] = block.offset(left.start)
                if isinstance(right.value, Expr):
                    names = {_name_key(x) for x in right.value.atoms(Indexed)} - self.seen
                    earlier = self.introduced[1] if self.introduced[0] is block else set()
                    self.introduced = (block, earlier | names)
            if kind == "definition" and isinstance(left.value, AppliedUndef):
                # Attention(Q, K, V) := …: Q, K, V are its parameters, not the note's Q, K, V
                self.seen.add(type(left.value).__name__)
            elif symbol != "∈":  # K ∈ ℝ^{n×d_k} declares K's shape: a later K = XW^K defines it
                self._see(left)
            self._see(right)
            left = right
        self.last = left
        if row.tag and left is not None:
            self.labelled[row.tag] = left
        self.after_alternative = row.alternative

    def _explained_after(self, block: Math, alias: tuple[Expr, Expr]) -> None:
        r"""∂p_i/∂z_i = ∂/∂z_i [e^{z_i}/S] \quad \text{where } S = Σ_k e^{z_k}: the name the
        display explains after its steps is theirs too."""
        self.chains = [replace(c, steps=tuple(
            replace(st, aliases=st.aliases + (alias,)) if alias not in st.aliases else st
            for st in c.steps)) if c.block is block else c for c in self.chains]

    def _first_value(self, lv: Expr, rv: Any) -> bool:
        """Whether ``lv = rv`` can be the first value a used name is given: rv says more
        than a name or a number (ŷ_i = e^{a_i}/Σ e^{a_k}, L = −Σ t log y; not L = 0.2)."""
        if not isinstance(rv, Expr) or rv.is_number or _is_name(rv):
            return False
        if isinstance(lv, Indexed) and str(lv.base.label) in ("x", "t"):
            return False  # the scores and the label are given, never derived
        return not (isinstance(lv, Symbol) and lv.is_integer)

    def _restates(self, left: Link, right: Link) -> tuple[int, str] | None:
        """Where the name on the left was updated, or defined under an earlier heading, or
        defined in letters the right side shares none of (Z = (X − μ)/σ, then
        Z = (QKᵀ − E[QKᵀ])/√Var(QKᵀ): the standard score of another quantity)."""
        if not (isinstance(left.value, Expr) and _is_name(left.value)):
            return None
        key = _name_key(left.value)
        if key in self.updated:
            return self.updated[key], "update"
        at = self.defined_at.get(key)
        here = left.block.offset(left.start)
        if at is not None and any(at < h < here for h in self.headings):
            return at, "heading"
        old = next((v for n, v in reversed(self.aliases) if n == left.value), None)
        if at is not None and isinstance(old, Expr) and isinstance(right.value, Expr):
            before, now = (_letters(e) for e in (old, right.value))
            # (y_i and x_i are one softmax's: never other letters)
            if before and now and not before & now and not (before | now) & {"x", "y", "t"}:
                return at, "letters"
        return None

    def _expression_alone(self, block: Math, lead: str = "") -> None:
        """``$\\frac{∂ softmax(x_k)}{∂x_i}$`` then ``$= …$``: an expression on its own starts
        the chain the next block continues."""
        try:
            toks = tokenize(block.text)
        except LexError:
            return
        toks = [t for t in toks if t.kind not in ("PERIOD", "COMMA", "QUAD")]
        if not toks or any(t.kind in ("REL", "ROWSEP") for t in toks):
            return
        link = _link(block, Piece(tuple(toks)), self.parser, 0)
        if link.read:
            self.aside = (link, self.last, lead)
            self.close()
            self.last = link
            self.current_block = block

    def _assumption_row(self, row: Row) -> bool:
        """Every side but the last states a component's moment (or Σ_k t_k), the last a value."""
        if row.pieces[0] is None or any(r.value != "=" for r in row.relations):
            return False
        try:
            values = [self.parser.tokens_expression(p.toks) if p else None for p in row.pieces]
        except ParseProblem:
            return False
        last = values[-1]
        if not isinstance(last, Expr) or last.has(E, Var, Cov):
            return False
        last = substitute(last, self.aliases)
        sides = [substitute(v, self.aliases) if isinstance(v, Expr) else v for v in values[:-1]]
        return all(isinstance(v, Expr) and (_is_assumption(v, last) or _is_target_sum(v, last)
                                            or _is_written_target_sum(v, last)) for v in sides)

    def _solved_for(self, block: Math, row: Row, left: Link) -> tuple[Link, Link] | None:
        """``D_k/s² = 1 ⇒ s² = D_k``, then, in the next display, "since s > 0, $$s = √D_k$$":
        the value of the unknown the display before solved for follows from its equation —
        it is not an identity in a free s."""
        if self.solved is None or not block.display or len(row.relations) != 1:
            return None
        at, equation, unknown = self.solved
        if at != self.blocks_read - 1 or left.value != unknown:
            return None
        return equation

    def _premise_is_a_condition(self, premise: tuple[Link, Link], solved: Link) -> None:
        """``a² d_k = 1 ⇒ a = 1/√d_k`` (or ``⇒ a² = 1/d_k``): the equation solved for a is
        imposed, not claimed."""
        v = solved.value
        if isinstance(v, Pow) and isinstance(v.base, Symbol) and v.exp.is_Integer:
            v = v.base
        if not isinstance(v, Symbol) or not self.chains:
            return
        chain = self.chains[-1]
        last = chain.steps[-1]
        if (last.lhs, last.rhs) != premise or last.kind != "claim":
            return
        sides = [x.value for x in premise if isinstance(x.value, Expr)]
        if any(s.has(v) for s in sides):
            self.chains[-1] = replace(chain, steps=chain.steps[:-1] + (
                replace(last, kind="condition"),))

    def _go_on_from_nothing(self, why: str) -> None:
        """The chain before ends and the display's leading "= …" continues none (``why``)."""
        self.close()
        self.last = None
        self.after_split = why

    def _works_a_part(self, first: Link) -> bool:
        """Whether a chain starting at ``first`` works out a part (a term or a factor) of an
        expression an earlier chain ended with, rather than going on from one."""
        v = first.value
        if not isinstance(v, Expr) or v.is_Atom:
            return False
        return any(isinstance(e.value, Expr) and e.value != v and e.value.has(v)
                   for e in self.ends[-3:])

    def _name_a_grid(self, step: Step) -> None:
        """Q = [2 1; 1 3] in a worked example: the letter is that matrix in the products after
        it (Q Kᵀ, S/√d_k, A V); a letter given anything else is itself again."""
        toks = [t for t in step.lhs.toks if t.kind not in ("LBRACE", "RBRACE")]
        if len(toks) != 1 or toks[0].kind != "LETTER" or step.relation not in ("=", ":="):
            return
        if self.notation.jacobian and \
                self.notation.jacobian.startswith(toks[0].value.replace(BOLD, "")):
            return  # J = [0.21 −0.18; …]: the note's Jacobian keeps its meaning (J_ij = ∂y_i/∂x_j)
        read = self.parser.conditions, self.parser.dropped  # (what the row's parse left)
        try:
            value = self.parser.value(step.rhs.toks)
        except ParseProblem:
            value = None
        self.parser.conditions, self.parser.dropped = read
        if isinstance(value, Grid) and not value.is_vector:
            self.parser.grids[toks[0].value] = value
        else:
            self.parser.grids.pop(toks[0].value, None)

    def _define(self, step: Step) -> None:
        """name := value, for the steps after it (softmax's own y, x, L stay softmax's)."""
        a, b = step.lhs.value, step.rhs.value
        case = {v for v in step.condition_value[1:] if isinstance(v, Basic)} \
            if step.condition_value is not None else set()
        if step.condition_value is not None and (
                not isinstance(a, Expr) or not case or
                any(a.has(v) for v in case) or step.condition_value[0] == "otherwise"):
            # one branch of a definition by cases (δ_ij = 1 when i = j): no single value to
            # put in later — but "当 i = j 时：令 S = Σ_k e^{z_k}" names S whatever the case
            return
        if step.relation != "=:" and isinstance(a, Expr) and _is_name(a) and not isinstance(b, Expr):
            self.vague.add(_name_key(a))  # z = QKᵀ, unread: a later z = Σ q_i k_i defines z
        if not (isinstance(a, Expr) and isinstance(b, Expr)):
            return
        name, value = (b, a) if step.relation == "=:" else (a, b)
        if isinstance(value, EntryVector) and isinstance(name, Symbol) and \
                isinstance(value.args[0], Indexed) and str(value.args[0].base) == name.name:
            # z = [z_1, …, z_m] names a vector by its own entries: they are the quantities,
            # and a name left unread before (S = QKᵀ, S the scores too) stays so
            return
        self.vague.discard(_name_key(name))
        if isinstance(name, Symbol) and name.is_integer and name.name == self.notation.dim:
            given = substitute(value, self.aliases)  # (d_k = d_model/h: 512/8)
            if given.is_Integer and given > 0:
                self.values[name] = given  # "d_k = 64": the example's dimension, from here on
                return
        if isinstance(name, Symbol) and name.name == "x" and \
                value.has(Symbol("W"), IndexedBase("W")):
            return  # z = Wx + b: the scores as the note's linear layer (see linear_layer)
        no_softmax = not self.notation.softmax_in_conventions and \
            not {"x", "y"} & set(self.notation.rename.values())
        if isinstance(name, Indexed) and str(name.base.label) in ("y", "x", "t") and not (
                str(name.base.label) in (("t", "x") if no_softmax else ("t",)) and
                all(a.is_Integer for a in name.indices)):
            # (x_1 = 1 in a note with no softmax: an input's value in its example, as a
            # label's is)
            # y_i := e^{x_i}/Σ…: softmax's own; a label's value Y_{11} := 1 in a worked
            # example is the note's (the scores' values would hide what is differentiated)
            if str(name.base.label) == "y" and isinstance(value, Expr) and \
                    not value.is_number and not value.has(exp, Sum, Derivative) and \
                    value.has(Indexed):
                # a toy example's y_1 = s_1 s_2: the letter means that here, not a softmax
                self.aliases.append((name, value))
                return
            # a softmax's own definition ends any local meaning a toy example gave y
            self.aliases = [(n, v) for n, v in self.aliases
                            if not (isinstance(n, Indexed) and n.base == name.base)]
            return
        if isinstance(name, Pow) and name.exp == 2 and isinstance(name.base, Symbol) and \
                (name.base.is_positive or name.base.name in ("sigma", "σ")) and \
                isinstance(value, Expr) and value.is_positive:
            # "σ² = 1/n": σ (a standard deviation, positive) is √(1/n) in the steps after it
            name, value = name.base, sqrt(value)
        self._name_a_grid(step)
        if name.has(E, Var, Cov) or not _is_name(name) or isinstance(name, Pow) or \
                isinstance(value, VectorLiteral):
            return  # T = [T_1, T_2, T_3] names a vector by its entries: they are the quantities
        if isinstance(name, Symbol) and name.name in self.notation.constants and not any(
                type(f).__name__ in ("max", "min") for f in value.atoms(AppliedUndef)):
            # "除以常数 c": a letter the words call a constant stays one — "令 c = q_3k_3" in
            # an example, "c = 2" in another, are that example's, not the derivation's (a
            # shift m = max_k z_k keeps its value: under a derivative it moves with z)
            return
        if name == LOSS and _is_likelihood(value):
            # L = P(y|x) = p^y (1-p)^{1-y}: this L is a likelihood, and L_{CE} stays the loss
            name = LIKELIHOOD
            self.parser.likelihood = True
        if self.hidden and any(n == name for n, _ in self.aliases) and \
                _WHAT_IS_DIFFERENTIATED.search(step.lead[-80:]):
            # "a loss $J = −Σ_i p_i \log q_i$ … If we take the derivative of $J = p_i \log q_i$":
            # what the sentence differentiates, not a new value of J
            return
        # the note's loss is its own (−(1/M) Σ …, −log p_c …): later steps use its definition
        self.aliases.append((name, substitute(value, self.aliases)))
        self.parser.defined.add(_name_key(name))

    def _assumptions(self, block: Math, row: Row) -> None:
        """``E(X) = E(Y) = 0`` (with X := q_i): every side but the last states its value."""
        if not row.relations or row.pieces[0] is None or \
                any(r.value != "=" for r in row.relations):
            return
        try:
            values = [self.parser.tokens_expression(p.toks) if p else None for p in row.pieces]
        except ParseProblem:
            return
        last = values[-1]
        if not isinstance(last, Expr) or last.has(E, Var, Cov):
            return
        last = substitute(last, self.aliases)
        for v, p in zip(values[:-1], row.pieces[:-1]):
            if not isinstance(v, Expr):
                return
            v = substitute(v, self.aliases)
            if not (_is_assumption(v, last) or _is_target_sum(v, last) or _is_label(v, last)
                    or _is_written_target_sum(v, last)):
                return
            self.assumed.append(Assumed(v, last, _link(block, p, self.parser, 0)))

    def _classify(self, left: Link, right: Link, lead: str, n: int, after_implies: bool,
                  row: Row) -> str:
        lv, rv = left.value, right.value
        if not self.current or self.current[-1].kind == "assumption":
            if self._assumption_row(row):  # E(q_i) = E(k_i) = 0: what the note assumes
                return "assumption"
        if n == 0 and not self.current and not after_implies and left.toks and \
                is_index_condition(left.toks + (Tok("REL", "=", 0, 0),) + right.toks):
            return "condition"
        if n == 0 and not self.current and self.values_block is left.block and \
                len(row.relations) == 1 and lv is not None and _is_name(lv) and \
                isinstance(rv, Expr) and rv.is_number:
            # "x_1 = 1, \quad x_2 = -1, \quad w_1 = 2": the values of a worked example listed
            # in one display, each given as the first was (x_2 once a claim: x was seen)
            return "definition"
        if n == 0 and _PREMISE.search(row.lead):
            # "且已知 Σ_j y_j = 1，所以 …", "\text{since } a = b": given, not claimed
            return "assumption"
        defining = _defines_next(lead)
        if n == 0 and not self.current and not after_implies and left.block.display and \
                len(row.relations) == 1 and (_states_a_goal(lead) or self.goal is left.block):
            # "we want to find some factor $c$ … so that: $$Var(q kᵀ c) = 1$$": the equation
            # the note sets out to solve, not a claim that it holds (and each of the display's
            # equations: "E[X/s] = 0, Var(X/s) = 1")
            self.goal = left.block
            return "condition"
        if n > 0 and n == len(row.relations) - 1 and left.block.display and \
                len(self.current) == n and _states_a_goal(lead) and isinstance(rv, Expr) and \
                not rv.free_symbols - (lv.free_symbols if isinstance(lv, Expr) else set()):
            # "we want c such that the variance stays σ²: $$Var(q·k/c) = Var(q·k)/c² = d_kσ²/c²
            # = σ²$$": the steps work the variance out, the last is the requirement on c
            return "condition"
        if self.hidden and n == 0 and not self.current and isinstance(lv, Indexed) and \
                all(a.is_Integer for a in lv.indices) and isinstance(rv, Expr) and rv.is_number:
            return "definition"  # "$Y_{11} = 1, A_{13} = -1$": the values of a worked example
        if self.hidden and n == 0 and not self.current and isinstance(lv, Symbol) and \
                len(row.relations) == 1 and isinstance(rv, Expr) and rv.free_symbols and \
                not rv.has(E, Var, Cov) and not (_RESULT_BEFORE.search(lead) and
                                                 lv.name in self.defined_at):
            # "$X = q_i$, $Y = k_i$" in a sentence: a name given to something, here and on,
            # even where the note used the letter for something else before
            return "definition"
        if n == 0 and not self.current and not after_implies and isinstance(lv, Symbol) and \
                (not lv.is_integer or lv.name == self.notation.dim) and \
                isinstance(rv, Expr) and (rv.is_number or (
                    lv.name == self.notation.dim and rv.free_symbols and
                    substitute(rv, self.aliases).is_number)) and \
                lv.name not in self.notation.scalars and lv.name not in self.seen_indexed:
            # (d_k = d_model/h after d_model = 512, h = 8: the example's dimension, given)
            # "d_k = 512", "Gradient = 0.99995 × (1 − 0.99995)": a value given, not an identity
            # (not "So J = 0 identically" after J_ij = …: a claim about every entry)
            return "definition"
        if n == 0 and not self.current and lv is not None and _is_name(lv) and \
                self.introduced[0] is left.block and _name_key(lv) in self.introduced[1]:
            return "definition"  # E = y_1 + y_2 ⏎ y_1 = s_1 s_2: the parts defined in turn
        if n == 0 and not self.current and isinstance(lv, Symbol) and not lv.is_integer and \
                isinstance(rv, Expr) and rv != lv and rv.has(lv) and len(row.relations) == 1:
            return "definition"  # S = S/√d_k: step 2 of an algorithm rescales S (an update)
        if n == 0 and not self.current and _shifted_softmax(lv, rv):
            return "claim"  # ŷ_j = exp(o_j − ō)/Σ_k exp(o_k − ō): softmax, shifted for stability
        if n == 0 and not self.current and lv is not None and _is_name(lv):
            # a random component (q_i) is the model's, not a new name: only said words define it
            # (a name used before but never given a value — ŷ_i in the loss, then
            # ŷ_i = e^{a_i}/Σ_k e^{a_k} — is defined where it is first written on the left)
            old = next((v for k, v in reversed(self.aliases) if k == lv), None)
            new = (_name_key(lv) not in self.seen or _name_key(lv) in self.vague or (
                _name_key(lv) not in self.defined_at and self._first_value(lv, rv)) or (
                # "L = 2.08" (the example's value), then "L = −log ŷ_true": what L is
                lv == LOSS and isinstance(old, Expr) and old.is_number and
                self._first_value(lv, rv) and not rv.is_number)) and not (
                isinstance(lv, Indexed) and str(lv.base.label) in self.notation.families)
            if new or defining:
                return "definition"
        if n == 0 and not self.current and left.problem and left.toks and defining:
            return "definition"
        if n == 0 and not self.current and len(left.toks) == 1 and \
                self.notation.rename.get(left.toks[0].value) in self.notation.families and \
                lists_components(right.toks, self.notation.rename[left.toks[0].value]):
            return "definition"  # Q = (q_1, …, q_{d_k}): the note's name for the vector q
        if n == 0 and not self.current and lv is not None and _is_name(lv) and (
                right.problem or isinstance(rv, EntryMatrix)):
            # Attention(Q, K, V) = softmax(QKᵀ/√d_k)V, M = diag(p) − ppᵀ: a name for it (a
            # J the note calls softmax's Jacobian is read as ∂p/∂z, not as a name)
            return "definition"
        called = _call_form(left.toks) if n == 0 and not self.current else None
        if called is not None and isinstance(lv, Expr) and \
                std_of_random(substitute(lv, self.aliases), self.notation.model()) != \
                substitute(lv, self.aliases):
            called = None  # σ(z) with z = Σ q_i k_i: its standard deviation, a claim
        if called is not None and (isinstance(lv, Mul) or called not in self.seen_letters):
            return "definition"  # y_i(z_i) = e^{z_i}/Σ_k e^{z_k}: a function named, not y_i·z_i
        named = _toks_name(left.toks) if n == 0 and not self.current and left.problem else None
        if named is not None and named not in self.seen_letters:
            return "definition"  # \mathbf{Q} = \mathbf{Z}\mathbf{W}_Q: a new (vector) name
        if n > 0 and isinstance(lv, (AppliedUndef, Symbol, Indexed)) and _is_name(lv) and \
                (_name_key(lv) not in self.seen_before_row or defining) and \
                self.current and self.current[-1].kind == "definition":
            # "L = P(y|x) = p^y (1-p)^{1-y}", "L_i = H_i = −log P_i": P, H named, then
            # written out
            return "definition"
        if n == len(row.relations) - 1 and n > 0 and rv is not None and _is_name(rv) and \
                _name_key(rv) not in self.seen and not isinstance(rv, Pow):
            return "definition-right"  # "h_i = Σ_k e^{a_k} = Σ": the last name is new
        if n == 0 and not self.current and self._instance_of_definition(lv, rv):
            return "definition"
        if n == 0 and not self.current and isinstance(lv, KroneckerDelta):
            return "definition"  # δ_ij = 1 if i = j, else 0: the note defines δ (kept as δ)
        if n == 0 and not self.current and len(row.relations) == 1 and not self.hidden and \
                not _RESULT_BEFORE.search(lead) and not _REDUCES.search(lead[-120:]) and \
                isinstance(rv, Expr) and not any(
                    all(i.is_Integer for i in x.indices) for x in rv.atoms(Indexed)) and \
                not any(isinstance(k, Symbol) and k in rv.free_symbols and isinstance(v, Expr)
                        and v.is_number for k, v in self.aliases) and \
                (isinstance(lv, AppliedUndef) or lv == LOSS) and \
                (self._restates(left, right) or (0, ""))[1] == "heading" and \
                next((v for k, v in reversed(self.aliases) if k == lv), None) not in (rv, None):
            # "## MSE: C(a, y) = ½‖a − y‖²" … "## Categorical cross-entropy: C(a, y) = −Σ y_i ln
            # a_i": a loss or a function the note defines anew in a section of its own (the
            # same value again, or a first one that was not read, is restated, not redefined;
            # "the sum reduces to: L = −log p̂_2", one entry's case, or L = −Σ_{k=1}^{C} … with
            # the example's C = 4, is a claim about it)
            return "definition"
        short = self._shorthand(lv, rv)
        if short is not None:
            # e^{x_i}/Σ_k e^{x_k} = e^{x_i}/Σ: the right side names a part of the left
            self.aliases.append(short)
            self.parser.defined.add(_name_key(short[0]))
            return "definition"
        return "claim"

    def _instance_of_definition(self, lv: Any, rv: Any) -> bool:
        """``loss = -(y_1 ln a_1 + y_2 ln a_2 + y_3 ln a_3)`` after ``loss = -Σ_{i=1}^m …``: the
        note's definition written out for its example's entries — the example's own
        definition from here on, not a claim that m is 3."""
        if not (isinstance(lv, Expr) and isinstance(rv, Expr) and _is_name(lv)) or rv.has(Sum):
            return False
        before = next((v for name, v in reversed(self.aliases) if name == lv), None)
        ints = [int(x) for ix in rv.atoms(Indexed) for x in ix.indices if x.is_Integer]
        return before is not None and before.has(Sum) and bool(ints) and max(ints) >= 2 and \
            writes_out(rv, max(ints))

    def _shorthand(self, lv: Any, rv: Any) -> tuple[Symbol, Expr] | None:
        """(N, w) when ``rv`` is ``lv`` with one part w written as a name N the note has not
        used before — the way notes introduce Σ, S or Z for the sum of the exponentials."""
        if not (isinstance(lv, Expr) and isinstance(rv, Expr)):
            return None
        new = [v for v in rv.free_symbols if isinstance(v, Symbol) and not v.is_integer
               and _name_key(v) not in self.seen and v not in lv.free_symbols]
        if len(new) != 1 or not lv.has(Sum, Add):
            return None
        w = Wild("w")
        found = lv.match(rv.xreplace({new[0]: w}))
        part = found.get(w) if found else None
        if part is None or part.is_number or _is_name(part) or part.has(new[0]):
            return None
        return new[0], part


def is_value(lhs: Any, rhs: Any) -> bool:
    """``y_j = 1``: one entry set to a number."""
    return isinstance(lhs, Indexed) and isinstance(rhs, Expr) and rhs.is_number


def _cited_label(piece: Piece | None) -> str | None:
    """The number a left side cites — "(1)" of "(1)式 = …", "式(1)" — or None."""
    if piece is None:
        return None
    kinds = [t.kind for t in piece.toks]
    if kinds == ["LPAR", "NUMBER", "RPAR"]:
        return piece.toks[1].value
    return None


def _is_case_row(row: Row) -> bool:
    """``if i = j,``, ``当 i ≠ j 时``, ``i = j 时：``: a row that is only a case, with its word."""
    if len(row.relations) != 1 or row.pieces[0] is None or row.pieces[1] is None:
        return False
    toks = row.pieces[0].toks + (row.relations[0],) + row.pieces[1].toks
    return is_index_condition(toks) and bool(CASE_WORD.search(row.lead)
                                             or CASE_AFTER.match(row.reason))


def is_condition_block(block: Math) -> bool:
    """A display that only states an index relation (当 $$k=j$$ 时): part of the prose."""
    rows, _ = rows_of(block)
    if not (len(rows) == 1 and len(rows[0].relations) == 1 and rows[0].pieces[0] is not None
            and rows[0].pieces[1] is not None):
        return False
    toks = rows[0].pieces[0].toks + (rows[0].relations[0],) + rows[0].pieces[1].toks
    # i \neq{j}: braces around an index say nothing
    return is_index_condition(tuple(t for t in toks if t.kind not in ("LBRACE", "RBRACE")))


def _condition_value(piece: Piece, parser: Parser) -> Any:
    """A case condition as data: ('=', i, j), ('≠', i, j), ('otherwise',) or None."""
    toks = [t for t in piece.toks if t.kind not in ("LPAR", "RPAR", "QUAD", "COMMA")]
    if toks and toks[0].kind == "OTHERWISE":
        return ("otherwise",)
    rels = [n for n, t in enumerate(toks) if t.kind == "REL"]
    if len(rels) != 1:
        return None
    k = rels[0]
    written = list(piece.toks)
    at = next(n for n, t in enumerate(written) if t.kind == "REL")
    if any(t.kind == "COMMA" for t in written[at + 1:]) and \
            any(t.kind == "NUMBER" for t in written[at + 1:]):
        return None  # ∀ i = 1, 2, 3: a list of the values i takes, not one case

    def side(part: list[Tok]) -> Any:
        if len(part) == 1 and part[0].kind == "LETTER":  # an index, even if k is a family
            return index_symbol(part[0].value)
        return class_index(parser.tokens_expression(part))  # j ≠ y_i: the class of sample i

    try:
        return (toks[k].value, side(toks[:k]), side(toks[k + 1:]))
    except ParseProblem:
        return None


def build_chains(blocks: Sequence[Math], notation: Notation, *, inline: bool = False,
                 leads: Sequence[str] = (), assumed: list[Assumed] | None = None,
                 correct: str | None = None, headings: Sequence[int] = (),
                 failed: list[tuple[Math, str]] | None = None) -> list[Chain]:
    """The chains of the given math blocks, in order (inline math only with ``inline``).

    ``correct`` is the letter of the correct class when the note names one ("the correct
    class is k"): "for incorrect class $j$" is then the case j ≠ k.  ``headings`` are the
    file offsets of the note's headings (a name defined again under a new one, see Step).

    ``leads`` gives, per block, the prose just before it: its defining words count, and
    a case it names ("Case 1: $i=j$", "当 $i \neq j$ 时") is the condition of the block's steps.
    A block that cannot be followed (SymPy refusing a substitution) ends the chain before
    it and goes to ``failed`` with the reason: one display never stops the file.
    """
    b = _Builder(notation, inline)
    b.headings = headings
    condition = None
    subject: tuple[str, Any, int] | None = None  # the expression a case was worked out for
    for n, block in enumerate(blocks):
        rows, _ = rows_of(block)
        lead = leads[n] if n < len(leads) else ""
        # displays with no prose between them stay in the case the last prose named, and so
        # does a display that goes on with "= …" after words that name no other case
        # inline math inside a sentence is in the case that sentence names, not one an
        # earlier sentence of the paragraph named ("当 $i≠j$ 时，…。⏎令 $S = …$")
        said = lead if block.display or block.alone else \
            re.split(r"(?<=[.。;；!?！？])\s", lead.strip())[-1]
        found = (_other_class(lead, correct) or lead_condition(said, b.parser)
                 or _cross_terms(lead, rows)) if lead.strip() else condition
        goes_on = bool(rows) and rows[0].pieces[0] is None
        hidden = not (block.display or inline)
        here = condition if found is None and goes_on else found
        key = _subject(block, rows)
        if _BOTH_CASES.search(lead):
            subject = None  # "将两种情况进行统一", "combining both cases": the case split ends
        if here is None and not hidden and subject is not None and key == subject[0] and \
                not any(subject[2] < h < block.offset(0) for h in headings):
            # "2. 当 i ≠ j 时 … $$∂σ(z_j)/∂z_i$$ … 代入公式：$$∂σ(z_j)/∂z_i = …$$": the same
            # expression worked out further, words between, is still in its case
            here = subject[1]
        if here is not None and not hidden and key:
            subject = (key, here, block.offset(0))
        if not hidden:  # inline math in the prose is read in its sentence's case, no further
            condition = here
        try:
            b.block(block, rows, lead, here, hidden=hidden)
        except (ValueError, TypeError, AttributeError, IndexError, KeyError,
                NotImplementedError, RecursionError) as exc:
            b.current, b.last = [], None
            if failed is not None:
                failed.append((block, f"{type(exc).__name__}: {' '.join(str(exc).split())}"))
    b.close()
    if assumed is not None:
        assumed += b.assumed
    return b.chains


#: Words just before an inline formula that make it a result, not a name given: "最终的结果为
#: $$L = -\log(p_1)$$" of an L the note defined before is a claim about that L.
_RESULT_BEFORE = re.compile(r"(?:结果为|结果是|得到|可得|即得|\bwe (?:get|obtain|have)|\bgives?|"
                            r"\byields?|\bhence|\btherefore|\bthus)\s*[:：,，]?\s*$", re.IGNORECASE)


#: Words that make what follows a consequence of what came before: "the sum reduces to",
#: "simplifies to", "因此", "简化为".
_REDUCES = re.compile(r"\b(?:reduces?|simplif(?:y|ies)|becomes?|collapses?|thus|hence|therefore|so)\b|"
                      r"因此|所以|于是|简化|化简|变为|变成|坍缩", re.IGNORECASE)


#: Words that close a case split: the derivation goes on for every index again.
_BOTH_CASES = re.compile(r"统一|综上|合并|两种情况|二者|both cases|two cases|combin|together|"
                         r"in general|general form|summar", re.IGNORECASE)


def _subject(block: Math, rows: Sequence[Row]) -> str:
    """The expression a display works out (its first row's left side, or the expression it
    shows alone before its case label), braces and spaces aside — "" when it starts with a
    relation."""
    if not rows:  # "$$∂σ(z_j)/∂z_i (当 i ≠ j)$$"
        text = re.split(r"\(\s*(?:当|若|如果|if|when|for)|\\quad|\\text", block.text)[0]
    elif rows[0].pieces[0] is None or not rows[0].pieces[0].toks:
        return ""
    else:
        toks = rows[0].pieces[0].toks
        text = block.text[toks[0].start:toks[-1].end]
    return re.sub(r"[{}\s]|\\(?:left|right)\b", "", text)


_CASE = re.compile(r"\$+\s*([^$]{1,300}?)\s*\$+|(?<![\\a-zA-Z_{])([a-z]\s*(?:=|≠|!=|\\neq?|\\not\s*=)"
                   r"\s*[a-z])(?![a-zA-Z_}])")
#: Words that make a condition a case label: "If $i = j$,", "当 $i=j$ 时", "$i≠j$ 的情况",
#: "Case ii: j ≠ m." (numbered in Roman numerals or letters too), "Since $i \neq j$:", "由于 $i≠j$".
_CUE_BEFORE = re.compile(r"(?:\b(?:if|when|whenever|where|since|because|given(?: that)?|case\s*(?:\d+|[ivx]{1,4}|[a-d])?\s*[:：.)]?|for|in case|"
                         r"in the case (?:of|that|where)|case in which|consider(?:ing)?)|当|若|如果|对于|考虑|由于|因为|"
                         r"情况\s*[\d一二三四五六七八九十]*\s*[:：]?)\s*[(（]?\s*$", re.IGNORECASE)
_CUE_AFTER = re.compile(rf"^\s*[)）]?\s*(?:{CASE_AFTER_WORDS}|[:：,，]?\s*$)")
#: A sentence about whether something is true is a remark, not a case label ("the wrong
#: class", "错误类别" name a class: no remark).
_REMARK = re.compile(r"\b(?:holds?|true|valid|wrong|fails?|only|correct|drops?)\b(?!\s+class)|"
                     r"成立|正确(?!的?(?:类别|类|标签))|错误(?!的?(?:类别|类|标签))|只|仅",
                     re.IGNORECASE)


#: The class a one-hot label marks, named by a letter: "the correct class is k",
#: "index of the correct class is k", "正确类别为 k", "真实标签的下标为 k".
CORRECT_CLASS = re.compile(
    r"(?<![A-Za-z])(?:correct|true|target|ground[- ]truth)\s+(?:class|label|category)(?:\s+index)?"
    r"\s*(?:is|=|:)\s*([a-z])\b(?!\s*[_^=]|\()|"
    r"(?:正确|真实|目标)的?(?:类别|类|标签)的?(?:下标|索引|编号)?\s*(?:为|是|=)\s*([a-z])(?![A-Za-z_(^])"
    r"(?!\s*[=＝])|"  # (真实标签为 y = (0, 1): the label's value, not the class's letter)
    # "If the true class is indexed by $c$": the class, by the letter that indexes it
    r"(?<![A-Za-z])(?:correct|true|target|ground[- ]truth)\s+(?:class|label|category)\s+(?:is\s+)?"
    r"(?:indexed|denoted|labell?ed)\s+by\s+\$?\s*([a-z])\b(?!\s*[_^=(])|"
    # "假设仅 y_k = 1", "only y_k = 1": the one entry that is 1 names the class
    r"(?:仅|只有|only)\s*[a-z]_\{?([a-z])\}?\s*=\s*1(?![0-9.])|"
    # "the t_j is 1 for only the actual class": the entry that is 1 there names the class
    r"[a-z]_\{?([a-z])\}?\s*(?:is|=|equals)\s*(?:1|one)\s+(?:only\s+)?(?:for|at)\s+(?:only\s+)?"
    r"the\s+(?:actual|correct|true|target|right)\s+(?:class|label|category)|"
    # "where j is the index of the element in the vector y that is hot (i.e. equal to 1)"
    r"(?<![A-Za-z])([a-z])\s+is\s+the\s+index\s+of\s+the\s+(?:element|entry|component|position|"
    r"class)\b[^.。]{0,80}?(?:hot|equal\s+to\s+1\b|=\s*1\b|is\s+1\b)|"
    # "只有正确类别 t 的位置是 1", "only the correct class k is 1": the class, then its 1
    r"(?:正确|真实|目标)的?(?:类别|类|标签)\s*([a-z])\s*(?:的位置|的位置上|处|的分量|的元素)?\s*"
    r"(?:是|为|=|等于)\s*1(?![0-9.])|"
    r"(?<![A-Za-z])(?:correct|true|target)\s+(?:class|label|category)\s+([a-z])\s+(?:is|=)\s+(?:1|one)\b|"
    # "the component representing the correct answer (index $c$) is $1$"
    r"(?<![A-Za-z])(?:correct|true|target|right)\s+(?:answer|class|label|category)\s*[(（]\s*"
    r"(?:index\s+|下标\s*)?([a-z])\s*[)）]\s*(?:is|=|为|是)\s*(?:1|one)\b|"
    # "0 on the wrong answers and 1 for the right answer ($t_i$)": the entry that is 1 names it
    r"(?<![A-Za-z])(?:1|one)\s+(?:at|for|on)\s+the\s+(?:correct|true|target|right)\s+"
    r"(?:answer|class|label|category)\s*[(（]\s*[a-z]_\{?([a-z])\}?\s*[)）]|"
    # "y is … 1 at the true class t and 0 elsewhere"
    r"(?<![A-Za-z])(?:1|one)\s+(?:at|for|in|on)\s+(?:the\s+)?(?:correct|true|target|right)\s+"
    r"(?:class|label|category|position)\s+([a-z])\b(?!\s*[_^=(])|"
    # "where $k$ is the index of the correct class", "k 为正确类别的下标": the letter first
    r"(?<![A-Za-z_])([a-z])\s+(?:is|denotes|being)\s+the\s+(?:index\s+of\s+the\s+)?"
    r"(?:correct|true|target|right|ground[- ]truth)\s+(?:class|label|category)\b|"
    r"(?<![A-Za-z_])([a-z])\s*(?:为|是|表示)\s*(?:正确|真实|目标)的?(?:类别|类|标签)|"
    # "with true class $c$": no verb, so only a letter that names an index
    r"(?<![A-Za-z])(?:correct|true|target|ground[- ]truth)\s+(?:class|category)\s+([cjklmnr])\b"
    r"(?!\s*[_^=]|\()",  # (c(x) is a function; "class c (one-hot encoded as y)" is c)
    re.IGNORECASE)


def class_letter(m: re.Match[str]) -> str:
    """The letter a :data:`CORRECT_CLASS` match names."""
    return next(g for g in m.groups() if g)


#: A class other than the correct one, by its letter: "for incorrect class $j$", "错误类别 j".
_OTHER_CLASS = re.compile(
    r"(?:incorrect|wrong|other|non-?target)\s+(?:class|label|category)\s*\$*\s*([a-z])\s*\$*(?![A-Za-z_^])|"
    r"(?:错误|非正确|其他|其它|非目标)的?(?:类别|类|标签)\s*\$*\s*([a-z])\s*\$*(?![A-Za-z_^])",
    re.IGNORECASE)


def _other_class(lead: str, correct: str | None) -> tuple[str, Any] | None:
    """"For incorrect class $j$" after "the correct class is k": the case j ≠ k."""
    m = _OTHER_CLASS.search(lead) if correct else None
    if m is None or correct is None:
        return None
    j = m.group(1) or m.group(2)
    if j == correct:
        return None
    return f"{j} ≠ {correct}", ("≠", index_symbol(j), index_symbol(correct))


#: Words for the terms of a double sum whose two indices differ.
_CROSS = re.compile(r"交叉项|非对角|\bcross[- ]?terms?\b|\boff-?diagonal\s+(?:terms?|entr|element)",
                    re.IGNORECASE)


def _cross_terms(lead: str, rows: Sequence[Row]) -> tuple[str, Any] | None:
    """"For the cross terms:" before a display in two index letters (E[q_i k_i q_j k_j] =
    …): the case i ≠ j, which is what cross terms are.  Only in the last sentence of the
    lead, and only when the display writes exactly two index letters."""
    tail = re.split(r"(?<=[.。;；!?！？])\s", lead.strip())[-1]
    if not _CROSS.search(tail) or _REMARK.search(re.sub(r"\$[^$]*\$", " ", tail)):
        return None
    letters = sorted({toks[n + 1].value for r in rows for p in r.pieces if p is not None
                      for toks in [p.toks] for n in range(len(toks) - 1)
                      if toks[n].kind == "SUB" and toks[n + 1].kind == "LETTER"
                      and toks[n + 1].value in "ijlm"})
    if len(letters) != 2:
        return None
    a, b = letters
    return f"{a} \\neq {b}", ("≠", index_symbol(a), index_symbol(b))


def names_a_case(title: str) -> str:
    """The case a heading names (``#### When $j \\neq i$``, ``### Case 2: Off-Diagonal
    Elements ($i \\neq j$)``), as a sentence that says it — "" when it names none: the
    derivations of its section are about that case."""
    parser = Parser(Notation())
    if lead_condition(title, parser) is not None:
        return title
    conditions = []
    for m in _CASE.finditer(title):
        tex = m.group(1) or m.group(2)
        try:
            toks = tokenize(tex)
        except LexError:
            continue
        if (is_index_condition(toks) or _index_beside_class(toks)) and \
                not any(t.kind == "NUMBER" for t in toks):
            conditions.append(tex)
    # one condition in a heading is the section's case, wherever the heading puts it
    return f"When ${conditions[0]}$" if len(conditions) == 1 else ""


def _index_beside_class(toks: Sequence[Tok]) -> bool:
    r"""``i \neq y`` in a heading ("对错误类 $z_i$（$i \neq y$）求偏导"): an index against the
    letter the note names its true class by — a case, as ``i \neq j`` is."""
    kinds = [(t.kind, t.value) for t in toks if t.kind not in ("LBRACE", "RBRACE")]
    return len(kinds) == 3 and kinds[1] in (("REL", "="), ("REL", "≠")) and \
        all(k == "LETTER" and len(v) == 1 and v.islower() for k, v in (kinds[0], kinds[2])) and \
        (kinds[0][1] in INDEX_LETTERS or kinds[2][1] in INDEX_LETTERS)


def lead_condition(lead: str, parser: Parser) -> tuple[str, Any] | None:
    """The case the prose before a display names — ``If $i = j$,``, ``$i \\neq j$ 的情况``,
    ``Case 2: i≠j``, ``1. $i \\neq j$`` — as (text, value); None when it names none (a
    remark such as "the result holds only for $i \\ne j$" is not a case label)."""
    # **(1) 当** $i=j$ **时：**: emphasis is not words (outside the math: $y_i = j$ keeps its _)
    # (nor are the backticks of a code span: **情况2：`i ≠ j`**)
    lead = re.sub(r"(\$+[^$]*\$+)|\\?[*_]{1,3}|`", lambda m: m.group(1) or "", lead)
    lead = _relations_in_words(lead)
    # the last sentence that names a case (most often the last sentence itself)
    for tail in reversed(re.split(r"(?<=[.。;；!?！？])\s", lead.strip()) if lead.strip() else []):
        # (an aside in parentheses — "(raising $z_j$ … through the denominator only)" — is no
        # remark on whether the case holds)
        if _REMARK.search(re.sub(r"\([^()]*\)|（[^（）]*）", " ", re.sub(r"\$[^$]*\$", " ", tail))):
            return None
        found = _case_in(tail, parser)
        if found is not None:
            return found
    # "2. **当求导目标是其他类别的概率 $y_j$ 时 ($j \neq t$)：**⏎ 公式 … 常数求导等于 0：": a list
    # item's first line, ended by a colon, is the title of all that follows it
    first = lead.strip().split("\n")[0]
    if "\n" in lead.strip() and re.search(r"[:：]\s*$", first) and \
            not _REMARK.search(re.sub(r"\$[^$]*\$", " ", first)):
        return _case_in(first, parser)
    return None


#: Two indices related in words: "n equals k", "n and k are not equal", "i 不等于 j".
_WORD_RELATIONS = (
    (re.compile(r"\b([a-z])\s+(?:and|与|和)\s+([a-z])\s+are\s+not\s+equal\b"), r"\1 ≠ \2"),
    (re.compile(r"\b([a-z])\s+(?:and|与|和)\s+([a-z])\s+are\s+equal\b"), r"\1 = \2"),
    (re.compile(r"\b([a-z])\s+(?:does\s+not\s+equal|is\s+not\s+equal\s+to|is\s+different"
                r"\s+from)\s+([a-z])\b"), r"\1 ≠ \2"),
    (re.compile(r"\b([a-z])\s+(?:equals|is\s+equal\s+to)\s+([a-z])\b"), r"\1 = \2"),
    (re.compile(r"(?<![A-Za-z])([a-z])\s*不等于\s*([a-z])(?![A-Za-z])"), r"\1 ≠ \2"),
    (re.compile(r"(?<![A-Za-z])([a-z])\s*等于\s*([a-z])(?![A-Za-z])"), r"\1 = \2"),
)


def _relations_in_words(text: str) -> str:
    """ "The case in which n equals k" → "… n = k" (the relation a case label says in words)."""
    for pattern, written in _WORD_RELATIONS:
        text = pattern.sub(written, text)
    return text


def _case_in(tail: str, parser: Parser) -> tuple[str, Any] | None:
    """The case one sentence names, or None."""
    found: list[tuple[str, Any]] = []
    last_end = -1
    for m in _CASE.finditer(tail):
        tex = m.group(1) or m.group(2)
        before, after = tail[:m.start()], tail[m.end():]
        if re.search(r"\$[^$]*=[^$]*\$+\s*(?:if|when|for|当|若)\s*$", before):
            # "δ_ij = 1 if $i = j$", "$y_i = 0$ for $i \neq c$": the case of a definition
            continue
        labelled = bool(_CUE_BEFORE.search(before) or _CUE_AFTER.match(after) and
                        (not before.strip() or re.fullmatch(r"\s*(\d+[.)、]|[-*•])?\s*", before)))
        # "For off-diagonal ($i \neq j$):", "非对角元素（$i \neq j$）：": a short label whose
        # parenthesis names the case the display after the colon works out (or a longer one
        # that says "when": "当求导目标是其他类别的概率 $y_j$ 时 ($j \neq t$)：")
        labelled = labelled or bool(re.search(r"[(（]\s*$", before) and (
            len(before) <= 60 or re.search(r"当|若|如果|\b(?:when|if|for)\b", before, re.I)) and
                                    re.match(r"\s*[)）]\s*[:：.。]?\s*$", after))
        # "对 $$j=i$$ 时，…": the 对…时 frame names a case as 当…时 does
        labelled = labelled or bool(re.search(r"对\s*$", before) and re.match(r"\s*时", after))
        # "情况二: $i = k$, $l \neq j$": a second condition joined to a labelled one
        joined = last_end >= 0 and re.fullmatch(r"\s*(,|，|、|and|且|和|并且)?\s*",
                                                 tail[last_end:m.start()]) is not None
        if not (labelled or joined):
            continue
        try:
            # i \ne{j}: braces around an index say nothing
            toks = [t for t in tokenize(tex) if t.kind not in ("LBRACE", "RBRACE")]
        except LexError:
            continue
        if not (is_index_condition(toks) or _index_beside_class(toks)) or \
                any(t.kind == "NUMBER" for t in toks):
            continue
        value = _condition_value(Piece(tuple(toks)), parser)
        if value is not None and value[0] in ("=", "≠"):
            if not joined:
                found = []
            found.append((" ".join(tex.split()), value))
            last_end = m.end()
    if not found:
        return None
    if len(found) == 1:
        return found[0]
    relations: dict[frozenset[Any], set[str]] = {}
    for _, v in found:
        relations.setdefault(frozenset(v[1:]), set()).add(v[0])
    if any(len(r) > 1 for r in relations.values()):
        # "substituting the values for when $i = j$ and $i \ne j$": both cases named (a sum
        # split into its terms), not the one case the display is in
        return None
    found = [f for n, f in enumerate(found) if f[1] not in [g[1] for g in found[:n]]]
    if len(found) == 1:  # "If $$i=j$$, $i=j$": one case, said twice
        return found[0]
    return ", ".join(t for t, _ in found), ("and", *(v for _, v in found))


def iter_steps(chains: Sequence[Chain]) -> Iterator[Step]:
    for c in chains:
        yield from c.steps
