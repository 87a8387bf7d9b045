r"""The second stage: a math block's tokens → rows of expressions joined by relations.

What LaTeX's layout means, read the way a reader of the rendered note reads it:

* environments (align, aligned, split, gather, multline, eqnarray, equation, …) are
  unwrapped; ``\\`` separates rows and ``&`` cells;
* a row without a relation continues the expression of the row before it (a long sum
  broken over two lines);
* a row's reason is what the note wrote beside it: ``\text{…}`` or Chinese text at its end
  (also in parentheses or in an ``&&`` column), ``\tag{by …}``, or the reason written over
  the relation (``\overset{\text{独立}}{=}``);
* a trailing index condition (``, i \neq j``, ``\quad (i = j)``, ``\text{if } i = j``) is the
  row's condition, not a claim;
* ``\begin{cases}`` after a relation is a case split: one row per branch, under its condition;
* trailing punctuation (``.`` ``,`` ``。`` ``，``) is not mathematics.

>>> from attncheck.verify.lexer import tokenize
>>> rows = split_rows(tokenize(r"\begin{align} a &= b && \text{why} \\ &= c, \quad i = j \end{align}"))
>>> [(len(r.pieces), r.reason, r.condition is not None) for r in rows]
[(2, 'why', False), (2, '', True)]
>>> rows[1].pieces[0] is None
True
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

from attncheck.text import GREEK
from attncheck.verify.lexer import UNITS, Tok

__all__ = ["CASE_AFTER", "CASE_AFTER_WORDS", "CASE_WORD", "CONNECTIVES", "DEFINING_WORDS", "Piece", "Row", "lists_components",
           "split_rows"]

#: Environments whose rows are the note's rows (unwrapped here).
ROW_ENVS = ("align", "aligned", "alignat", "alignedat", "split", "gather", "gathered", "multline",
            "eqnarray", "flalign", "equation", "displaymath", "math", "dmath", "subequations",
            "IEEEeqnarray", "array")
#: Environments that are one expression (kept whole for the parser).
EXPR_ENVS = ("cases", "dcases", "rcases", "bmatrix", "pmatrix", "vmatrix", "Bmatrix", "Vmatrix",
             "matrix", "smallmatrix", "array")

#: Words at the start of a row or in prose that make what follows a definition.
DEFINING_WORDS = ("where", "let", "define", "denote", "with", "set", "其中", "令", "设", "记",
                  "定义", "这里", "此处", "我们令", "记为", "表示")
#: Words at the start of a row that only connect it to the previous one.
CONNECTIVES = ("so", "hence", "thus", "therefore", "then", "and", "since", "because", "i.e.",
               "that is", "which gives", "we get", "we have", "所以", "因此", "于是", "则",
               "即", "从而", "故", "得", "可得", "有", "那么", "并且", "而", "又")
_CONDITION_WORDS = re.compile(r"^\s*(for|if|when|whenever|where|otherwise|else|with|当|若|如果|"
                              r"对于|对|在|其中)\b|时\s*$|^\s*(当|若|如果|对于|对)", re.I)
#: "a = b \\text{or} c = d": alternatives, each true in a case the note does not name.
_ALTERNATIVE = re.compile(r"or|或|或者", re.I)
#: The word that makes an index condition a case: "if i = j", "当 i ≠ j 时".
CASE_WORD = re.compile(r"\b(if|when|for)\b|当|若|如果", re.IGNORECASE)
#: Words after a condition that make it a case label: "i = j 时：", "i ≠ j 的情况".
CASE_AFTER_WORDS = r"时|的时候|的情况|情况下"
CASE_AFTER = re.compile(rf"\s*(?:{CASE_AFTER_WORDS})")
#: Words between two equations of one row: "a = b \\text{or} c = d".
_JOINING_WORDS = re.compile(r"or|and|或|或者|以及|且|和", re.I)
_INDEX_LETTERS = set("ijklmncabtrsuvpq") | {"ell"}

_BINARY = ("PLUS", "MINUS", "CDOT", "TIMES", "STAR", "SLASH", "PM")
_OPEN = {"LPAR": "RPAR", "LSQB": "RSQB", "LBRACE": "RBRACE", "LCURLY": "RCURLY",
         "LANGLE": "RANGLE", "BEGIN": "END"}
_CLOSE = {v: k for k, v in _OPEN.items()}


@dataclass(frozen=True)
class Piece:
    """An expression's tokens, between relations; offsets are in the math text."""

    toks: tuple[Tok, ...]

    @property
    def start(self) -> int:
        return self.toks[0].start

    @property
    def end(self) -> int:
        return self.toks[-1].end


@dataclass(frozen=True)
class Row:
    """``pieces[0] rel[0] pieces[1] rel[1] …``; ``pieces[0]`` is None when the row starts with
    its relation (it continues the previous row).  ``lead`` is text before the row's math
    (a connective or a defining word), ``env`` the environment it came from."""

    pieces: tuple[Piece | None, ...]
    relations: tuple[Tok, ...]
    reason: str = ""
    condition: Piece | None = None
    lead: str = ""
    env: str = ""
    tag: str = ""
    #: one of several alternatives the note joins with "or" (cases it does not name)
    alternative: bool = False

    @property
    def start(self) -> int:
        first = self.pieces[0] or self.pieces[1]
        rel = self.relations[0] if self.relations else None
        return min(x for x in (first.start if first else None, rel.start if rel else None)
                   if x is not None)


def _text_paren(t: Tok) -> int:
    r"""+1 for \text{(since } (words that open a parenthesis they do not close), −1 for
    \text{)} (words that close one opened before), else 0."""
    if t.kind != "TEXT":
        return 0
    net = t.note.count("(") + t.note.count("（") - t.note.count(")") - t.note.count("）")
    return max(-1, min(1, net))


def _depth_walk(toks: Sequence[Tok]) -> list[int]:
    r"""Nesting depth before each token (brackets, braces, environments, and a parenthesis
    that words open and close around math: \text{(since }\sum_i t_i = 1\text{)})."""
    parens = [_text_paren(t) for t in toks]
    last_closer = max((n for n, p in enumerate(parens) if p < 0), default=-1)
    out: list[int] = []
    stack: list[str] = []
    for n, t in enumerate(toks):
        if t.kind in _CLOSE and stack and stack[-1] == _CLOSE[t.kind]:
            stack.pop()
        elif parens[n] < 0 and stack and stack[-1] == "TEXTPAR":
            stack.pop()
        out.append(len(stack))
        if t.kind in _OPEN:
            stack.append(t.kind)
        elif parens[n] > 0 and n < last_closer:  # (opened only where words close it later)
            stack.append("TEXTPAR")
    return out


def _split_top(toks: Sequence[Tok], kinds: set[str]) -> list[list[Tok]]:
    """toks split at depth-0 tokens of the given kinds (the separators dropped)."""
    parts: list[list[Tok]] = [[]]
    for t, d in zip(toks, _depth_walk(toks)):
        if d == 0 and t.kind in kinds:
            parts.append([])
        else:
            parts[-1].append(t)
    return parts


def _unwrap(toks: list[Tok]) -> tuple[list[Tok], str]:
    """The body of the row environments wrapping the whole block, and the innermost name."""
    env = ""
    while True:
        # ${\begin{aligned} … \end{aligned}}$$: a group around the whole block (the first
        # brace's partner is the last token)
        while len(toks) >= 2 and toks[0].kind == "LBRACE" and toks[-1].kind == "RBRACE" and \
                all(d > 0 for d in _depth_walk(toks)[1:-1]):
            toks = toks[1:-1]
        if len(toks) >= 2 and toks[0].kind == "BEGIN" and toks[-1].kind == "END" and \
                toks[0].value.rstrip("*") in ROW_ENVS and toks[0].value.rstrip("*") != "array":
            depth = _depth_walk(toks)
            if all(d > 0 for d in depth[1:]):  # the BEGIN's END is the last token
                env = toks[0].value.rstrip("*")
                toks = toks[1:-1]
                continue
        return toks, env


def _relation_column(toks: list[Tok]) -> bool:
    """``\begin{array}{rcl} a & = & b \\ & = & c``: an array whose middle column is the
    relation — an align drawn as a table, not a matrix."""
    return any(a.kind == "AMP" and r.kind == "REL" and b.kind == "AMP"
               for a, r, b in zip(toks, toks[1:], toks[2:]))


def _inner_row_envs(toks: list[Tok]) -> list[Tok]:
    """``a = \\begin{aligned} … \\end{aligned}``-style nesting inside a row env: unwrap too."""
    out = []
    table = _relation_column(toks)  # an array drawn as an align: its rows are the chain's
    for t in toks:
        if t.kind in ("BEGIN", "END") and t.value.rstrip("*") in ROW_ENVS and \
                (t.value.rstrip("*") not in ("array",) or table):
            continue
        out.append(t)
    return out


def split_rows(toks: Sequence[Tok]) -> list[Row]:
    """The rows of a math block (see the module doc)."""
    body, env = _unwrap(list(toks))
    body = _inner_row_envs(body)
    rows: list[Row] = []
    for raw in _split_top(body, {"ROWSEP"}):
        if not raw:
            continue
        empty_left = raw[0].kind == "AMP" or env in ("multline", "")
        for row in _row(raw, env):
            if row is None:
                continue
            first = row.pieces[0]
            if rows and empty_left and first is not None and first.toks[0].kind in _BINARY:
                # "&\quad - E^2(q_i)E^2(k_i) = …": the previous row's last expression goes on
                prev = rows[-1]
                last = prev.pieces[-1]
                joined = Piece((last.toks if last else ()) + first.toks)
                rows[-1] = replace(prev, pieces=prev.pieces[:-1] + (joined,) + row.pieces[1:],
                                   relations=prev.relations + row.relations,
                                   reason=row.reason or prev.reason)
                continue
            if not row.relations and rows and row.pieces[0] is not None:
                # no relation: the expression of the previous row goes on
                prev = rows[-1]
                last = prev.pieces[-1]
                joined = Piece((last.toks if last else ()) + row.pieces[0].toks)
                rows[-1] = replace(prev, pieces=prev.pieces[:-1] + (joined,),
                                   reason=prev.reason or row.reason,
                                   condition=prev.condition or row.condition)
                continue
            if rows and prev_open(rows[-1]) and first is not None and row.relations:
                # "… = \\ \frac{…}{…} = …" (a long line broken after its "="): the next row
                # is that relation's right side
                prev = rows[-1]
                rows[-1] = replace(prev, pieces=prev.pieces[:-1] + row.pieces,
                                   relations=prev.relations + row.relations,
                                   reason=row.reason or prev.reason)
                continue
            if rows and prev_open(rows[-1]) and first is None and \
                    row.relations[0].value == rows[-1].relations[-1].value:
                # "… = \\ = S_i(1 − S_j)": the relation ending a row is the one that
                # begins the next, written twice
                prev = rows[-1]
                rows[-1] = replace(prev, pieces=prev.pieces[:-1] + row.pieces[1:],
                                   relations=prev.relations[:-1] + row.relations,
                                   reason=row.reason or prev.reason)
                continue
            rows.append(row)
    # an expression alone on its row is kept when the next row goes on from it (X ⏎ = Y)
    return [r for n, r in enumerate(rows) if r.relations or
            (n + 1 < len(rows) and rows[n + 1].pieces[0] is None)]


def prev_open(row: Row) -> bool:
    """Whether ``row`` ends with a relation and nothing after it (``a = b =``)."""
    return bool(row.relations) and row.pieces[-1] is None


def _row(raw: list[Tok], env: str) -> list[Row | None]:
    """One row's tokens → its Row (or several: a case split, comma-separated equations)."""
    tags = [t.note for t in raw if t.kind == "TAG"]
    case = _left_cell_case(raw)
    if case is not None:  # \text{if} \; i \neq j :& \frac{∂y_i}{∂z_j} = …: a labelled case
        raw = raw[case[1] + 1:]
    depth = _depth_walk(raw)
    toks = [t for t, d in zip(raw, depth) if t.kind != "TAG" and not (t.kind == "AMP" and d == 0)]
    tag_reason = "; ".join(x for x in tags if not re.fullmatch(r"[\w.*′'\-]{1,6}", x))
    label = next((x for x in tags if re.fullmatch(r"[\w.*′'\-]{1,6}", x)), "")
    toks = _unboxed(toks)
    toks = _leading_label(toks)
    lead, toks = _leading_text(toks)
    toks, number = _trailing_label(toks)
    label = label or number
    toks, because = _cut_at_because(toks)
    toks = _remarks_in_parentheses(toks)
    toks, reason = _trailing_reason(toks)
    reason = "; ".join(x for x in (reason, because, tag_reason) if x)
    if not toks:
        return []
    out: list[Row | None] = []
    alternatives = any(t.kind == "TEXT" and _ALTERNATIVE.fullmatch(t.note.strip())
                       for t, d in zip(toks, _depth_walk(toks)) if d == 0)
    for seg, cond, word in _segments(toks):
        if not lead and word in DEFINING_WORDS:
            lead = word  # "… \text{ where } T = \sqrt{d_k}": the row defines T
        rows = _with_cases(seg, cond, reason, lead, env)
        out += [replace(r, alternative=True) if r is not None and alternatives else r
                for r in rows]
        lead = ""
    if label and out and out[-1] is not None:
        out[-1] = replace(out[-1], tag=label)
    if case is not None:
        out = [replace(r, condition=r.condition or case[0]) if r is not None else r for r in out]
    return out


def _left_cell_case(raw: list[Tok]) -> tuple[Piece, int] | None:
    r"""The condition an align row's left cell states (``\text{if} \; i \neq j :&``), with the
    place of its &; None when the left cell is not a case."""
    depth = _depth_walk(raw)
    amp = next((n for n, (t, d) in enumerate(zip(raw, depth)) if t.kind == "AMP" and d == 0),
               None)
    if amp is None or amp == 0:
        return None
    cell = raw[:amp]
    words = " ".join(t.note for t in cell if t.kind == "TEXT")
    core = [t for t in cell if t.kind not in ("TEXT", "QUAD", "COLON", "COMMA")]
    if core and is_index_condition(core) and (
            CASE_WORD.search(words) or
            any(t.kind == "COLON" for t in cell)):
        return Piece(tuple(core)), amp
    return None

def _trailing_label(toks: list[Tok]) -> tuple[list[Tok], str]:
    r"""``… \qquad (1)``: an equation's number written by hand at the end of its row (as
    \tag{1} would), which later text cites as "(1)式"."""
    t = [u for u in toks if u.kind not in ("PERIOD", "COMMA")]
    if len(t) >= 5 and t[-1].kind == "RPAR" and t[-2].kind == "NUMBER" and \
            t[-3].kind == "LPAR" and t[-4].kind == "QUAD":
        return toks[:toks.index(t[-4])], t[-2].value
    return toks, ""

def _unboxed(toks: list[Tok]) -> list[Tok]:
    r"""``\boxed{a = b}`` (its braces left by the lexer) around a whole row: the row inside
    (a result a note boxes is still its claim).  Punctuation after the box stays outside.
    So too ``[ a = b ]``: ``\[ a = b \]`` whose backslashes Markdown ate (kramdown)."""
    end = len(toks)
    quad = next((n for n, (t, d) in enumerate(zip(toks, _depth_walk(toks)))
                 if t.kind == "QUAD" and d == 0), None)
    if quad is not None and quad >= 2 and toks[0].kind == "LBRACE" and \
            toks[quad - 1].kind == "RBRACE":
        end = quad  # \boxed{a = b} \quad \text{if } j = m: the box, then its case
    while end and toks[end - 1].kind in ("PERIOD", "COMMA", "QUAD"):
        end -= 1
    while end >= 2 and (toks[0].kind, toks[end - 1].kind) in (("LBRACE", "RBRACE"),
                                                               ("LSQB", "RSQB")):
        depth = _depth_walk(toks[:end])
        if any(d == 0 for d in depth[1:end - 1]) or \
                not any(t.kind == "REL" for t in toks[1:end - 1]):
            break  # {a} + {b}: two groups, not one box; {x}: nothing to unwrap
        toks = toks[1:end - 1] + toks[end:]
        end -= 2
    return toks


def _leading_label(toks: list[Tok]) -> list[Tok]:
    """``Cross Entropy Loss: L_i = …``, ``Softmax: P_i = …``: words written bare before a
    colon at the start of a row label it (the lexer made names of them); the row is after."""
    colon = next((n for n, t in enumerate(toks) if t.kind in ("COLON", "REL")), None)
    if colon is None or colon == 0 or toks[colon].kind != "COLON":
        return toks
    head = toks[:colon]
    words = [t for t in head if t.kind in ("LETTER", "WORD", "TEXT")]
    if len(words) == len(head) and any(len(t.value) >= 3 for t in words) and \
            all(len(t.value) >= 3 or t.value == "L" for t in words) and colon + 1 < len(toks):
        return toks[colon + 1:]
    return toks


#: Words that end by taking an operand: "Standard Deviation of", "the variance of", "…的".
_OF_WHAT = re.compile(r"(?:\bof|的)$", re.IGNORECASE)


def _takes_operand(toks: Sequence[Tok], n: int) -> bool:
    r"""Words at ``n`` that end by taking the math after them (``\text{Standard Deviation of }
    S``): kept in place, for the parser to refuse as prose in place of math — never S alone."""
    return toks[n].kind == "TEXT" and _OF_WHAT.search(toks[n].note.strip()) is not None and \
        n + 1 < len(toks) and toks[n + 1].kind not in ("REL", "QUAD", "TEXT")


def _leading_text(toks: list[Tok]) -> tuple[str, list[Tok]]:
    words = []
    if len(toks) >= 4 and [t.kind for t in toks[:4]] == ["LPAR", "NUMBER", "RPAR", "TEXT"]:
        # (1)当i=j时 \\: the row's number in a list of cases, then its words
        words.append(f"({toks[1].value})")
        toks = toks[3:]
    elif len(toks) >= 3 and [t.kind for t in toks[:3]] == ["NUMBER", "RPAR", "TEXT"]:
        words.append(f"({toks[0].value})")  # 1)当i=j时，…
        toks = toks[2:]
    if len(toks) > 5 and toks[0].kind == "TEXT" and re.fullmatch(r"当|若|如果", toks[0].note.strip()) \
            and [t.kind for t in toks[1:5]] == ["LETTER", "REL", "LETTER", "TEXT"] and \
            re.match(r"时", toks[4].note.strip()) and toks[2].value in ("=", "≠"):
        # 1)当i=j时，∂S_i/∂f_j = …: the case, said at the head of the row it labels (a row of
        # the label alone, (1)当i=j时 \\, is the case of the rows after it: left as it is)
        words.append(f"当 ${toks[1].value} {toks[2].value} {toks[3].value}$ {toks[4].note.strip()}")
        toks = toks[5:]
    while toks and toks[0].kind == "TEXT":
        if len(toks) > 1 and toks[1].kind in ("REL", "SUB") and re.fullmatch(
                r"[A-Za-z][A-Za-z \\_]{0,60}", toks[0].note.strip()):
            # \text{Output} = …: the text is the name the row defines, not commentary (dropped,
            # the row would start with '=' and glue itself onto the display before it)
            t = toks[0]
            name = t.note.strip().replace(" ", "").replace("\\_", "_")
            toks = [Tok("LETTER", "L" if name.lower() in ("loss", "cost") else name,
                        t.start, t.end)] + toks[1:]
            break
        if _names_a_function(toks, 0):
            break  # \text{MSE}(y, ŷ): a function's name, not commentary (the parser says so)
        if _takes_operand(toks, 0):
            break  # \text{Standard Deviation of } S = √d_k
        words.append(toks[0].note)
        toks = toks[1:]
    return " ".join(words), toks


def _names_a_function(toks: Sequence[Tok], n: int) -> bool:
    """``\text{MSE}(`` at toks[n]: a word set in text right before its parenthesis names a
    function — kept, so the parser can say it does not know it, where dropping it as
    commentary would leave the bare argument."""
    t = toks[n]
    word = t.note.strip()
    return t.kind == "TEXT" and n + 1 < len(toks) and toks[n + 1].kind == "LPAR" and \
        re.fullmatch(r"[A-Z][A-Za-z]{1,11}|[a-z]{2,3}", word) is not None and \
        word.lower() not in CONNECTIVES and not _CONDITION_WORDS.match(word) and \
        not _JOINING_WORDS.fullmatch(word)


#: Tokens of a little math set inside a reason's words (X, Y; q_i).
_IN_WORDS = {"LETTER", "GREEK", "COMMA", "SUB", "NUMBER"}
#: How a reason in text opens, before the math it names ("（当 $X,Y$ 独立时）").
_OPENING_WORDS = re.compile(r"[(（]|(?:当|若|如果)|(?:since|when|if|by|as)\b", re.IGNORECASE)


def _words_in(toks: Sequence[Tok]) -> list[Tok]:
    r"""The TEXT tokens that are words, not a subscript's label (Y_{\text{pred}})."""
    return [t for n, t in enumerate(toks) if t.kind == "TEXT" and not (
        (n >= 1 and toks[n - 1].kind == "SUB") or
        (n >= 2 and toks[n - 1].kind == "LBRACE" and toks[n - 2].kind == "SUB"))]


def _is_reason_group(toks: Sequence[Tok]) -> bool:
    return bool(_words_in(toks)) and all(
        t.kind in ("TEXT", "LETTER", "GREEK", "SUB", "SUP", "LBRACE", "RBRACE", "NUMBER",
                   "REL", "COMMA", "WORD", "PERIOD", "COLON", "QUAD", "LPAR", "RPAR", "EXPECT",
                   "CDOT", "PLUS", "MINUS", "SEMI")
        for t in toks)


#: Words that open a reason written after a row's math: "&\text{ because } \sum y_i = 1".
_BECAUSE = re.compile(r"\s*(?:because|since|as|using|by|因为|因為|因|由于|由於|根据|根據|由)\b",
                      re.IGNORECASE)


def _cut_at_because(toks: list[Tok], relation: bool = True) -> tuple[list[Tok], str]:
    r"""A row cut where a reason opens in words after its math (``… &\text{ because }
    \sum_i y_i = 1``, a case ``\text{if } i=j \text{ because } ∂e^{z_i}/∂z_j = e^{z_i}``):
    (the math before, the reason as written).  With ``relation``, only after a relation."""
    depth = _depth_walk(toks)
    seen_rel = not relation
    for n, (t, d) in enumerate(zip(toks, depth)):
        if d == 0 and t.kind == "REL":
            seen_rel = True
        opens = t.kind == "LPAR" and n + 1 < len(toks) and toks[n + 1].kind == "TEXT" and \
            toks[n - 1].kind == "QUAD" and _BECAUSE.match(toks[n + 1].note or "")
        # (\quad (\text{因為 } E[q_i] = E[k_i] = 0): the reason in parentheses, math in it)
        if d == 0 and seen_rel and n and (opens or (
                t.kind == "TEXT" and _BECAUSE.match(t.note or ""))):
            rest = " ".join((u.note or u.value) for u in toks[n:])
            head = toks[:n]
            while head and head[-1].kind in ("AMP", "QUAD", "COMMA"):
                head = head[:-1]
            return head, " ".join(rest.split())
    return toks, ""


#: A Chinese, Japanese or Korean character: words, not math.
_CJK = re.compile(r"[\u3000-\u9fff\uac00-\ud7af\uff00-\uffef]")


def _trailing_reason(toks: list[Tok]) -> tuple[list[Tok], str]:
    """Text at the end of a row (bare, or in parentheses) is its reason; punctuation goes."""
    reasons: list[str] = []
    depth = _depth_walk(toks)
    words = max((n for n, t in enumerate(toks) if t.kind == "TEXT" and _CJK.search(t.note)),
                default=-1)
    semi = next((n for n, (t, d) in enumerate(zip(toks[:max(words, 0)], depth))
                 if t.kind == "SEMI" and d == 0), None)
    if semi is not None and semi > 0:
        # "α_{t,i} = align(y_t, x_i) \quad; 两个单词y_{t}和x_{i}的对齐情况": after the
        # semicolon, a comment in words (with a little math in them) — the row's reason
        reasons.append(" ".join(t.note.strip() if t.kind == "TEXT" else t.value
                                for t in toks[semi + 1:]))
        toks = toks[:semi]
    while toks:
        last = toks[-1]
        if last.kind in ("PERIOD", "COMMA", "SEMI", "QUAD"):
            toks = toks[:-1]
            continue
        if last.kind == "TEXT":
            if len(toks) >= 2 and toks[-2].kind in _BINARY:
                break  # -0.1 \cdot \text{W update}: the words are the operand, not a reason
            if len(toks) >= 2 and toks[-2].kind == "NUMBER" and UNITS.fullmatch(last.note.strip()):
                break  # 137.4 \text{ GB}: a unit, the parser's to refuse
            reasons.insert(0, last.note.strip().strip("()（）").strip())
            toks = toks[:-1]
            # \text{（当 }X,Y\text{ 独立时）}: a little math inside the words is theirs too
            k = len(toks)
            while k > 0 and len(toks) - k < 6 and toks[k - 1].kind in _IN_WORDS:
                k -= 1
            if k < len(toks) and k > 0 and toks[k - 1].kind == "TEXT" and \
                    _OPENING_WORDS.match(toks[k - 1].note.strip()):
                inner = " ".join(t.value for t in toks[k:])
                reasons[0] = f"{toks[k - 1].note.strip().strip('(（').strip()} {inner} {reasons[0]}"
                toks = toks[:k - 1]
            continue
        if last.kind == "RPAR":
            depth = _depth_walk(toks)
            k = len(toks) - 1
            while k > 0 and not (toks[k].kind == "LPAR" and depth[k] == depth[-1]):
                k -= 1
            inner = toks[k + 1:-1]
            if toks[k].kind == "LPAR" and k > 0 and toks[k - 1].kind == "QUAD" and \
                    _is_shape(inner):
                # J = diag(y) − y yᵀ \qquad (N_o \times N_o): the shape, said beside the formula
                reasons.insert(0, "shape " + _words(inner))
                toks = toks[:k]
                continue
            if toks[k].kind == "LPAR" and _is_reason_group(inner) and (
                    k == 0 or toks[k - 1].kind in ("QUAD", "TEXT", "COMMA", "PERIOD")
                    or any(len(t.note) > 3 for t in _words_in(inner))):
                reasons.insert(0, _words(inner))
                toks = toks[:k]
                continue
        break
    return toks, "; ".join(r for r in reasons if r)


#: How a token of math inside a remark's words is shown (× for \times, π for \pi).
_SHOWN = {"TIMES": " × ", "CDOT": " · ", "PLUS": " + ", "MINUS": " − ", "SUM": "Σ",
          "LBRACE": "", "RBRACE": ""}


def _said(t: Tok) -> str:
    if t.kind in ("TEXT", "REL"):
        return f" {t.note.strip() if t.kind == 'TEXT' else t.value} "
    if t.kind == "GREEK":
        return GREEK.get(t.value, t.value)
    return _SHOWN.get(t.kind, t.value)


def _remarks_in_parentheses(toks: list[Tok]) -> list[Tok]:
    r"""``… \quad \text{(since }\sum_i t_i = 1\text{)} = …``, ``\qquad\text{(式 2 = 式 1}\times
    \pi(v)\text{)}``: a remark in parentheses that words open and close around a little math
    (a relation too) is the reason of the relation before it — taken out of the row, so that
    its math is neither a step nor a side.  Where no relation comes before, it stays."""
    depth = _depth_walk(toks)
    out = list(toks)
    n = len(out) - 1
    while n > 0:
        t = out[n]
        if _text_paren(t) >= 0:
            n -= 1
            continue
        start = next((m for m in range(n - 1, max(n - 24, -1), -1) if _text_paren(out[m]) > 0
                      and depth[m] == depth[n]), None)
        if start is None or any(_text_paren(u) < 0 for u in out[start + 1:n]):
            n -= 1
            continue
        rel = next((m for m in range(start - 1, -1, -1) if out[m].kind == "REL"
                    and depth[m] == depth[start]), None)
        if rel is None:
            n = start - 1
            continue
        said = " ".join("".join(_said(u) for u in out[start:n + 1]).split())
        said = re.sub(r"^[(（]\s*|\s*[)）]$", "", said)
        cut = start - 1 if start and out[start - 1].kind == "QUAD" else start
        out[rel] = replace(out[rel], note="; ".join(x for x in (out[rel].note, said) if x))
        del out[cut:n + 1]
        del depth[cut:n + 1]
        n = cut - 1
    return out


def _is_shape(toks: Sequence[Tok]) -> bool:
    r"""``N_o \times N_o``, ``C{\times}d``: a matrix's shape — sizes joined by ×, nothing else;
    or NumPy's ``(K,)``, ``(d_{\text{in}},)``: one size and a trailing comma."""
    kinds = [t.kind for t in toks if t.kind not in ("LBRACE", "RBRACE")]
    sizes = ("LETTER", "NUMBER", "SUB", "TEXT")
    if len(kinds) >= 2 and kinds[-1] == "COMMA" and kinds[0] in ("LETTER", "NUMBER"):
        return all(k in sizes for k in kinds[:-1])
    return "TIMES" in kinds and kinds[0] != "TIMES" and kinds[-1] != "TIMES" and \
        all(k in sizes + ("TIMES",) for k in kinds)


def _words(toks: Sequence[Tok]) -> str:
    return " ".join(t.note if t.kind == "TEXT" else t.value for t in toks).strip()


def _relations_at_top(toks: Sequence[Tok]) -> list[int]:
    return [n for n, (t, d) in enumerate(zip(toks, _depth_walk(toks)))
            if d == 0 and t.kind == "REL"]


def is_index_condition(toks: Sequence[Tok]) -> bool:
    """``i = j``, ``i \\neq j``, ``k \\ne i``, ``i \\in \\{1..n\\}``, ``\\forall i``: about indices only."""
    toks = [t for n, t in enumerate(toks) if t.kind not in ("QUAD", "LPAR", "RPAR", "TEXT", "COMMA",
                                                           "COLON")
            and not (t.kind == "LBRACE" and n + 1 < len(toks) and toks[n + 1].kind == "RBRACE")
            and not (t.kind == "RBRACE" and n > 0 and toks[n - 1].kind == "LBRACE")]
    if not toks:  # (i \not ={} j: the empty group typed to space the ≠ goes)
        return False
    if toks[0].kind == "FORALL":
        return True
    rels = [n for n, t in enumerate(toks) if t.kind == "REL"]
    if len(rels) != 1:
        return False
    n = rels[0]
    rel = toks[n].value
    sides = (toks[:n], toks[n + 1:])
    if rel == "∈":
        return len(sides[0]) == 1 and sides[0][0].kind == "LETTER"
    if rel not in ("=", "≠", "<", ">", "≤", "≥"):
        return False
    if rel == "=" and len(sides[0]) == 1 and sides[0][0].kind == "LETTER" and \
            sides[0][0].value in _INDEX_LETTERS and len(sides[1]) >= 2 and \
            any(t.kind == "ELLIPSIS" for t in sides[1]) and \
            all(t.kind in ("NUMBER", "LETTER", "ELLIPSIS") for t in sides[1]):
        return True  # i = 1, …, C: the range of an index
    if rel in ("=", "≠") and any(_is_class_index(s) for s in sides) and any(
            len(s) == 1 and s[0].kind == "LETTER" and s[0].value in _INDEX_LETTERS
            for s in sides):
        return True  # j ≠ y_i: sample i's class (CS231n's f_{y_i})
    if rel in ("=", "≠") and any(len(s) == 1 and s[0].kind == "WORD" and s[0].value.isalpha()
                                 for s in sides) and any(
            len(s) == 1 and s[0].kind == "LETTER" and s[0].value in _INDEX_LETTERS for s in sides):
        return True  # i = \text{ix}, k ≠ \text{target}: an index and the class a word names
    return all(len(s) == 1 and (s[0].kind == "NUMBER" or (s[0].kind == "LETTER" and
               s[0].value in _INDEX_LETTERS)) for s in sides) and any(
        s[0].kind == "LETTER" for s in sides)


def _is_class_index(side: Sequence[Tok]) -> bool:
    """``y_i``, ``y_{i}``: an entry that names a class, as an index of the scores."""
    kinds = [t.kind for t in side if t.kind not in ("LBRACE", "RBRACE")]
    return kinds == ["LETTER", "SUB", "LETTER"] and side[-1].kind in ("LETTER", "RBRACE") and \
        side[-1 if side[-1].kind == "LETTER" else -2].value in _INDEX_LETTERS


def _segments(toks: list[Tok]) -> list[tuple[list[Tok], Piece | None, str]]:
    """A row split at top-level commas/quads/condition words into equations and conditions."""
    parts: list[list[Tok]] = [[]]
    seps: list[Tok | None] = [None]
    depth = _depth_walk(toks)
    for t, d in zip(toks, depth):
        if d == 0 and (t.kind in ("COMMA", "QUAD", "SEMI") or
                       (t.kind == "TEXT" and (_CONDITION_WORDS.search(t.note) or
                                             _JOINING_WORDS.fullmatch(t.note.strip())))):
            parts.append([t] if t.kind == "TEXT" else [])
            seps.append(t)
        else:
            parts[-1].append(t)
    out: list[tuple[list[Tok], Piece | None]] = []
    said: list[str] = []
    for p, sep in zip(parts, seps):
        if len(p) >= 2 and p[0].kind == "TEXT" and p[1].kind == "REL" and \
                re.fullmatch(r"[A-Za-z][A-Za-z_]{0,30}", p[0].note.strip()):
            # "e^{0.1} = 1.105, \text{sum} = 11.212": the word names what the equation gives
            p = [Tok("LETTER", p[0].note.strip(), p[0].start, p[0].end)] + p[1:]
        core = [t for n, (t, d) in enumerate(zip(p, _depth_walk(p)))
                if not (t.kind == "TEXT" and d == 0) or _names_a_function(p, n)
                or _takes_operand(p, n)
                or (n > 0 and p[n - 1].kind == "NUMBER" and UNITS.fullmatch(t.note.strip()))
                or (n + 1 < len(p) and p[n + 1].kind in ("SUB", "SUP")
                    and re.fullmatch(r"[A-Za-z]{2,}", t.note.strip()) is not None)]
        if not core:
            continue
        rels = _relations_at_top(core)
        if out and (not _relations_at_top(out[-1][0]) or core[0].kind == "REL") and \
                out[-1][1] is None:
            # "a \quad = b": the space was inside the equation; rejoin what it split
            seg, cond = out[-1]
            out[-1] = (seg + ([sep] if sep is not None and sep.kind == "COMMA" else []) + core,
                       cond)
        elif out and (is_index_condition(p) or (
                sep is not None and sep.kind == "TEXT" and _CONDITION_WORDS.search(sep.note)
                and _is_value_condition(core))):
            # "… \text{ where } y_i = 1": the case the row is about, not a claim
            seg, cond = out[-1]
            out[-1] = (seg, Piece(cond.toks + tuple(_rejoin(list(cond.toks), core)))
                       if cond else Piece(tuple(core)))
        elif out and not rels and sep is not None and sep.kind == "TEXT" and \
                _CONDITION_WORDS.search(sep.note) and any(ord(c) > 0x2e80 for c in sep.note):
            continue  # "…, 其中 y_i 是 one-hot 向量": a clause of words about the formula
        elif out and out[-1][1] is not None and not rels:
            seg, cond = out[-1]  # "i = 1, …, n": the condition goes on
            out[-1] = (seg, Piece(cond.toks + tuple(_rejoin(list(cond.toks), core))))
        elif out and (not rels or not out[-1][0]):
            # no relation: the comma was inside the expression (a list, f(a, b)); rejoin
            seg, cond = out[-1]
            out[-1] = (seg + _rejoin(seg, core), cond)
        else:
            out.append((core, None))
            said.append(sep.note.strip() if sep is not None and sep.kind == "TEXT" else "")
    if len(out) >= 2 and out[0][1] is None and is_index_condition(out[0][0]) and \
            all(_relations_at_top(seg) for seg, _ in out[1:]):
        # "if i = j, ∂y_i/∂x_j = … = y_i(1 − y_i)": a leading condition governs the row
        lead = Piece(tuple(out[0][0]))
        out = [(seg, Piece(cond.toks + lead.toks) if cond else lead) for seg, cond in out[1:]]
        said = said[1:]
    # each with the word that opened it ("… \text{ where } T = √d_k": T is defined there)
    return [(seg, cond, word) for (seg, cond), word in zip(out, said)]


def _is_value_condition(toks: Sequence[Tok]) -> bool:
    """``y_i = 1``, ``t_k = 0``: one entry set to a number."""
    kinds = [t.kind for t in toks]
    return len(toks) in (5, 7) and kinds[0] == "LETTER" and kinds[1] == "SUB" and \
        kinds[-2] == "REL" and toks[-2].value in ("=", "≠") and kinds[-1] == "NUMBER" and \
        (len(toks) == 5 or (kinds[2] == "LBRACE" and kinds[4] == "RBRACE"))


def _rejoin(seg: list[Tok], core: list[Tok]) -> list[Tok]:
    if not seg:
        return core
    comma = Tok("COMMA", ",", seg[-1].end, seg[-1].end + 1)
    return [comma] + core


def _with_cases(seg: list[Tok], cond: Piece | None, reason: str, lead: str,
                env: str) -> list[Row | None]:
    """A segment → its row; a cases environment as a side of it → one row per branch."""
    seg = [t for t in seg if t.kind != "QUAD"]
    rels = _relations_at_top(seg)
    if not rels:
        return [Row((Piece(tuple(seg)),), (), reason, cond, lead, env)] if seg else []
    # the cases are the last side, or a side between two relations (∂z_v/∂z_k = {1, v = k;
    # 0, v ≠ k} = δ_vk: each branch is the chain under its condition)
    found = next(((at, stop) for at, stop in zip(rels, rels[1:] + [len(seg)])
                  if _is_cases(seg[at + 1:stop], stop == len(seg))), None)
    if found is None:
        return _pieces(seg, reason, cond, lead, env)
    at, stop = found
    head, last, tail = seg[:at + 1], seg[at + 1:stop], seg[stop:]
    while last[0].kind == "LCURLY":
        last = last[1:]
    rows: list[Row | None] = []
    previous: Piece | None = None
    for branch in _split_top(last[1:-1], {"ROWSEP"}):
        cells = _split_top(branch, {"AMP"})
        value = [t for t in cells[0] if t.kind not in ("PERIOD", "COMMA", "QUAD")]
        while value and value[-1].kind in ("PERIOD", "COMMA", "SEMI"):
            value = value[:-1]
        bcond_toks, _ = _cut_at_because([t for c in cells[1:] for t in c], relation=False)
        bcond = [t for t in bcond_toks if t.kind not in ("TEXT", "COMMA", "PERIOD", "QUAD")]
        if not value:
            continue
        words = " ".join(t.note for t in bcond_toks if t.kind == "TEXT")
        if not bcond:  # \text{i $\neq$ j}, \text{if } i=j written inside the text
            bcond = _condition_in_words(words, value[-1].end)
        branch_cond = Piece(tuple(bcond)) if bcond else None
        if branch_cond is None and re.search(r"otherwise|else|其他|否则|其余", words):
            branch_cond = _negation(previous) or Piece(
                (Tok("OTHERWISE", "otherwise", value[-1].end, value[-1].end),))
        previous = branch_cond
        rows += _pieces(head + value + tail, reason, branch_cond or cond, lead, env)
    return rows


def _is_cases(side: Sequence[Tok], last: bool) -> bool:
    """A side that is a cases environment (\\left\\{ \\begin{array} … \\right. too; an array
    between two relations only after \\left\\{ — else it may be a matrix)."""
    braced = bool(side) and side[0].kind == "LCURLY"
    while side and side[0].kind == "LCURLY":
        side = side[1:]
    if not side or side[0].kind != "BEGIN" or side[-1].kind != "END":
        return False
    name = side[0].value.rstrip("*")
    cells = [_split_top(b, {"AMP"}) for b in _split_top(side[1:-1], {"ROWSEP"}) if b]
    if name in ("cases", "dcases") and any(
            len(c) > 2 and any(_relations_at_top(x) for x in c[1:-1]) for c in cells):
        # "a & \text{if } i = j \ b & \text{if } i \neq j": a row break lost (one \ for
        # two), the branches run together — no split a reader could trust ("a & if & i = j"
        # only splits its condition)
        return False
    if not last and any(len(c) < 2 or _relations_at_top(c[0]) for c in cells):
        return False  # between two relations, each branch its value & its condition — only
    return name in ("cases", "dcases") or (name == "array" and (last or braced))


def _condition_in_words(words: str, at: int) -> list[Tok]:
    """An index relation written inside \\text{…} (``i $\\neq$ j``, ``当 i=j``), as tokens."""
    from attncheck.verify.lexer import LexError, tokenize

    m = re.search(r"([a-z])\s*\$?\s*(=|≠|\\neq?|\\not\s*=)\s*\$?\s*([a-z])(?![a-z])", words)
    if not m:
        return []
    try:
        toks = tokenize(f"{m.group(1)} {m.group(2)} {m.group(3)}")
    except LexError:
        return []
    toks = [Tok(t.kind, t.value, at, at, t.note) for t in toks]
    return toks if is_index_condition(toks) else []


def _negation(cond: Piece | None) -> Piece | None:
    """``i = j`` → ``i ≠ j`` (the "otherwise" branch after it); None for anything else."""
    if cond is None:
        return None
    toks = [t for t in cond.toks if t.kind not in ("TEXT", "QUAD")]
    if len(toks) == 3 and toks[1].kind == "REL" and toks[1].value == "=":
        a, r, b = toks
        return Piece((a, Tok("REL", "≠", r.start, r.end), b))
    return None


def _pieces(seg: list[Tok], reason: str, cond: Piece | None, lead: str,
            env: str) -> list[Row | None]:
    rels = _relations_at_top(seg)
    pieces: list[Piece | None] = []
    bounds = [-1] + rels + [len(seg)]
    for a, b in zip(bounds, bounds[1:]):
        part = seg[a + 1:b]
        pieces.append(Piece(tuple(part)) if part else None)
    # a reason written over a relation stays on its token (Tok.note); the row's own reason
    # is about the row's last step
    return [Row(tuple(pieces), tuple(seg[n] for n in rels), reason, cond, lead, env)]


def lists_components(toks: Sequence[Tok], letter: str) -> bool:
    """``(q_1, q_2, …, q_d)`` or ``[q_1, …, q_{d_k}]``: the components of ``letter``, to the
    dimension (a list without … has a length of its own: A = [a_1, a_2] is 2-dimensional)."""
    if len(toks) < 4 or toks[0].kind not in ("LPAR", "LSQB") or \
            toks[-1].kind not in ("RPAR", "RSQB") or not any(t.kind == "ELLIPSIS" for t in toks):
        return False
    outside: list[Tok] = []  # the letters outside the subscripts
    n = 1
    while n < len(toks) - 1:
        if toks[n].kind == "SUB":
            n += 1
            depth = 0
            while n < len(toks) - 1:  # skip the subscript: one token or a {…} group
                depth += {"LBRACE": 1, "RBRACE": -1}.get(toks[n].kind, 0)
                n += 1
                if depth == 0:
                    break
            continue
        if toks[n].kind in ("LETTER", "GREEK"):
            outside.append(toks[n])
        n += 1
    return bool(outside) and all(t.value == letter for t in outside)
