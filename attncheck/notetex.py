r"""A note's own LaTeX, made safe to typeset on a slide and changed as little as possible.

A deck from a note shows each side of each step as its author wrote it — never re-printed
from SymPy.  What verify keeps of a side (``StepResult.lhs_source``) is a piece of the note's
math, and a piece of math is not always LaTeX that stands alone: a ``\left[`` can stay in
the row before, a ``\tag`` or an alignment ``&`` belongs to the display around it, Chinese
words sit in math mode, a Markdown note's ``%`` is not a comment.  :func:`math_source` keeps
the piece as it is when it can be typeset alone and otherwise makes only these changes,
each listed in :attr:`Shown.changes`:

* ``\tag``, ``\label``, ``\nonumber``, ``\notag``, an alignment ``&`` and a row break ``\\``
  outside an environment are dropped (they belong to the display, not to the step);
* an unmatched ``\right`` gets a ``\left.`` before the piece, an unmatched ``\left`` a
  ``\right.`` after it;
* Chinese (and full-width) characters are set as ``\text{…}``, characters of the Kangxi
  radicals block as the ideographs they look like, Unicode maths (``−``, ``≤``, ``α``) as
  the LaTeX commands for them, ``%`` and ``#`` escaped, a Markdown-escaped bracket ``\[``
  as the bracket it shows.

A piece that cannot be made to stand alone — braces that do not balance, an environment
left open, ``$`` inside maths, an environment that only works as a whole display
(``align``), or a command that is programming rather than maths (``\def``, ``\input``,
``\write``, ``\catcode``, a conditional) — is shown as its source text in typewriter type,
with the reason: a slide never runs the note's code and never hides a step.

Break points are marked by :func:`breakable`: ``\attnbr`` before a ``+``, ``−`` or
relation at the top level of the piece (outside braces, brackets, ``\left…\right`` and
environments), ``\attnbrm`` before a top-level ``\cdot`` or ``\times``.  They typeset as
nothing; the deck's macros let a row that is too wide for the slide break there, as a
lecturer breaks a long line.

>>> s = math_source(r"\mathrm{Var}(q \cdot k) = d_k \cdot 1 \tag{3}")
>>> s.latex, s.changes
('\\mathrm{Var}(q \\cdot k) = d_k \\cdot 1 ', ('tag',))
>>> breakable(s.latex)
'\\mathrm{Var}(q \\cdot k) \\attnbr = d_k \\attnbrm \\cdot 1 '
>>> unmarked(_) == s.latex
True
>>> s = math_source(r"[\begin{array}{c} 1 \end{array}\right] - 1")
>>> s.latex, s.changes
('\\left.[\\begin{array}{c} 1 \\end{array}\\right] - 1', ('left.',))
>>> math_source(r"\frac{a}{b").why
'unbalanced-braces'
>>> text_source(r"Why $\sqrt{d_k}$? 50\% of it")
'Why $\\sqrt{d_k}$? 50\\% of it'
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import groupby, pairwise

from pylatexenc.latex2text import LatexNodes2Text
from pylatexenc.latexwalker import LatexWalkerError

from derivations.printing import escape

__all__ = ["CJK", "Shown", "breakable", "has_cjk", "literal", "macros", "math_source", "plain", "relation",
           "text_source", "unmarked"]

#: Chinese, Japanese and Korean characters, and the full-width forms Chinese text uses.
CJK = re.compile(r"[\u2e80-\u2fdf\u3000-\u303f\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff"
                 r"\uac00-\ud7af\uf900-\ufaff\ufe30-\ufe4f\uff00-\uffef]+")
_RADICALS = re.compile(r"[\u2e80-\u2fdf]")

_TOKEN = re.compile(r"\\[A-Za-z]+\*?|\\.|[{}]|\s+|.", re.DOTALL)
_MARK = re.compile(r"\\attnbrm? ")

#: Commands that program TeX rather than write maths: a piece using one is shown as text.
_FORBIDDEN = frozenset([
    "def", "edef", "gdef", "xdef", "let", "futurelet", "catcode", "lccode", "uccode",
    "mathcode", "sfcode", "delcode", "input", "include", "InputIfFileExists", "write",
    "immediate", "openout", "openin", "closeout", "closein", "read", "readline", "special",
    "newcommand", "renewcommand", "providecommand", "DeclareRobustCommand",
    "DeclareMathOperator", "newenvironment", "renewenvironment", "makeatletter", "makeatother",
    "expandafter", "noexpand", "csname", "endcsname", "string", "meaning", "scantokens",
    "detokenize", "unexpanded", "uppercase", "lowercase", "begingroup", "endgroup",
    "aftergroup", "afterassignment", "everymath", "everypar", "everydisplay", "everyhbox",
    "everyvbox", "everycr", "output", "shipout", "documentclass", "usepackage",
    "RequirePackage", "if", "ifcat", "ifnum", "ifdim", "ifodd", "ifvmode", "ifhmode", "ifmmode",
    "ifinner", "ifvoid", "ifhbox", "ifvbox", "ifx", "ifeof", "iftrue", "iffalse", "ifcase",
    "ifdefined", "ifcsname", "iffontchar", "unless", "fi", "else", "or", "loop", "repeat",
    "par", "item", "section", "subsection", "subsubsection", "chapter", "paragraph", "part",
    "caption", "footnote", "maketitle", "tableofcontents", "newpage", "clearpage", "pagebreak",
    "verb", "url", "href", "include", "includegraphics", "end", "begin",
])
#: Environments that stand inside a formula; any other cannot be typeset inside a row.
_INLINE_ENVS = frozenset([
    "matrix", "pmatrix", "bmatrix", "Bmatrix", "vmatrix", "Vmatrix", "smallmatrix", "array",
    "cases", "dcases", "rcases", "aligned", "alignedat", "gathered", "subarray",
])
_DROPPED_WITH_ARG = frozenset(("tag", "tag*", "label"))
_DROPPED = frozenset(("nonumber", "notag"))
_ADDITIVE = frozenset(("+", "-", "=", "<", ">", r"\pm", r"\mp", r"\approx", r"\le", r"\leq",
                       r"\ge", r"\geq", r"\neq", r"\ne", r"\equiv", r"\propto", r"\to", r"\sim",
                       r"\simeq", r"\cong", r"\Rightarrow", r"\iff", r"\coloneqq"))
_MULTIPLICATIVE = frozenset((r"\cdot", r"\times"))
_OPENERS = frozenset(("(", "["))
_CLOSERS = frozenset((")", "]"))

#: Unicode maths as LaTeX commands (maths mode).  Greek letters come from their names.
_UNICODE = {
    "−": "-", "–": "-", "—": "-", "·": r"\cdot ", "⋅": r"\cdot ", "×": r"\times ", "÷": r"\div ",
    "±": r"\pm ", "∓": r"\mp ", "≤": r"\le ", "≥": r"\ge ", "≠": r"\neq ", "≈": r"\approx ",
    "≡": r"\equiv ", "∝": r"\propto ", "→": r"\to ", "←": r"\leftarrow ", "⇒": r"\Rightarrow ",
    "⟹": r"\Longrightarrow ", "⇔": r"\Leftrightarrow ", "∈": r"\in ", "∉": r"\notin ",
    "∑": r"\sum ", "∏": r"\prod ", "∫": r"\int ", "√": r"\surd ", "∂": r"\partial ",
    "∇": r"\nabla ", "∞": r"\infty ", "⊥": r"\perp ", "⟂": r"\perp ", "∼": r"\sim ",
    "…": r"\dots ", "⋯": r"\cdots ", "′": "'", "″": "''", "‖": r"\| ", "⊤": r"\top ",
    "ᵀ": r"^{\top}", "ℓ": r"\ell ", "∘": r"\circ ", "⊙": r"\odot ", "⊗": r"\otimes ",
    "∀": r"\forall ", "∃": r"\exists ", "≔": r"\coloneqq ", "⟨": r"\langle ", "⟩": r"\rangle ",
    "ℝ": r"\mathbb{R}", "𝔼": r"\mathbb{E}", "δ": r"\delta ", "ε": r"\varepsilon ",
    "ϵ": r"\epsilon ", "φ": r"\varphi ", "ϕ": r"\phi ", "ϑ": r"\vartheta ", "ς": r"\varsigma ",
    "²": "^{2}", "³": "^{3}", "¹": "^{1}",
    **{chr(0x2080 + n): f"_{{{n}}}" for n in range(10)},
}
_GREEK_CAPITALS = frozenset([
    "Gamma", "Delta", "Theta", "Lambda", "Xi", "Pi", "Sigma", "Upsilon", "Phi", "Psi", "Omega",
])
#: Greek capitals LaTeX has no command for: the Latin letters they look like.
_LATIN_CAPITALS = {"alpha": "A", "beta": "B", "epsilon": "E", "zeta": "Z", "eta": "H", "iota": "I",
                   "kappa": "K", "mu": "M", "nu": "N", "omicron": "O", "rho": "P", "tau": "T", "chi": "X"}
#: Characters the text fonts have: kept as they are in text.
_TEXT_KEPT = frozenset("–—…’‘“”·×±²³¹")


def _unicode_math(c: str) -> str | None:
    """A Unicode maths character as LaTeX (maths mode); None when it is not one."""
    if c in _UNICODE:
        return _UNICODE[c]
    name = unicodedata.name(c, "")
    if "SUBSCRIPT" in name or "SUPERSCRIPT" in name or name.startswith("MODIFIER LETTER SMALL"):
        plain = unicodedata.normalize("NFKC", c)  # ₖ: k, ⁿ: n
        if plain != c and plain.isascii():
            return ("_" if "SUBSCRIPT" in name else "^") + "{" + plain + "}"
    m = re.fullmatch(r"GREEK (SMALL|CAPITAL) LETTER ([A-Z]+)", name)
    if not m:
        return None
    word = m.group(2).lower().replace("lamda", "lambda")
    if m.group(1) == "SMALL":
        return "o" if word == "omicron" else f"\\{word} "
    return f"\\{word.capitalize()} " if word.capitalize() in _GREEK_CAPITALS else _LATIN_CAPITALS.get(word)


def has_cjk(text: str) -> bool:
    """Whether the text has a Chinese (or other CJK, or full-width) character."""
    return CJK.search(text) is not None


def _radicals(text: str) -> str:
    """Kangxi radicals as the ideographs they look like (fonts for Chinese lack the former)."""
    return _RADICALS.sub(lambda m: unicodedata.normalize("NFKC", m.group(0)), text)


@dataclass(frozen=True)
class Shown:
    """A piece of a note's maths as the deck typesets it.

    ``latex`` is maths-mode LaTeX with break marks; ``changes`` names what was changed
    (empty: the note's LaTeX as it is); ``why`` is empty, or the reason the piece is shown
    as its source text (a key of :data:`attncheck.i18n.SENTENCES`, ``source-<why>``)
    with ``detail`` (the command or environment concerned).
    """

    latex: str
    changes: tuple[str, ...] = ()
    why: str = ""
    detail: str = ""

    @property
    def as_written(self) -> bool:
        return not self.why


def _tokens(src: str) -> list[str]:
    return _TOKEN.findall(src)


def _drop_arguments(tokens: list[str], n: int) -> int:
    """The index after the braced argument starting at or after ``n`` (spaces skipped)."""
    while n < len(tokens) and tokens[n].isspace():
        n += 1
    if n >= len(tokens) or tokens[n] != "{":
        return n
    depth = 0
    for k in range(n, len(tokens)):
        depth += {"{": 1, "}": -1}.get(tokens[k], 0)
        if depth == 0:
            return k + 1
    return len(tokens)


def _as_text(src: str, why: str, detail: str = "") -> Shown:
    r"""The source itself, in typewriter type (each character escaped: nothing is run)."""
    body = escape(" ".join(src.split()))
    return Shown(rf"\text{{\ttfamily {_text_unicode(body)}}}", (), why, detail)


def math_source(src: str) -> Shown:
    """The piece of maths ``src`` as a row of a slide shows it (see the module doc)."""
    src = _radicals(src)
    tokens = _tokens(src)
    out: list[str] = []
    changes: list[str] = []
    depth = 0  # braces
    envs: list[str] = []
    lefts = [0]  # open \left per brace depth
    missing_left = 0
    n = 0
    while n < len(tokens):
        tok = tokens[n]
        name = tok[1:] if tok.startswith("\\") and tok[1:2].isalpha() else ""
        if tok == "$":
            return _as_text(src, "dollar")
        if name in _DROPPED_WITH_ARG:
            n = _drop_arguments(tokens, n + 1)
            changes.append(name.rstrip("*"))
            continue
        if name in _DROPPED:
            n += 1
            changes.append(name)
            continue
        if name in ("begin", "end"):
            close = _drop_arguments(tokens, n + 1)
            env = "".join(tokens[n + 1:close]).strip().strip("{}").strip()
            if env not in _INLINE_ENVS and env.rstrip("*") not in _INLINE_ENVS:
                return _as_text(src, "environment", env)
            if name == "begin":
                envs.append(env)
            elif not envs or envs.pop() != env:
                return _as_text(src, "environment", env)
            out += tokens[n:close]
            n = close
            continue
        if name and name.rstrip("*") in _FORBIDDEN:
            return _as_text(src, "command", "\\" + name)
        if tok == "{":
            depth += 1
            lefts.append(0)
        elif tok == "}":
            if depth == 0 or lefts[-1] != 0:
                return _as_text(src, "unbalanced-braces")
            depth -= 1
            lefts.pop()
        elif name == "left":
            lefts[-1] += 1
        elif name == "right":
            if lefts[-1] == 0:
                if depth or envs:
                    return _as_text(src, "unbalanced-braces")
                missing_left += 1
            else:
                lefts[-1] -= 1
        elif (tok == "&" and not envs) or (tok == "\\\\" and not envs and depth == 0):
            changes.append("alignment")
            out.append(" ")
            n += 1
            continue
        elif tok in ("%", "#"):
            tok = "\\" + tok
            changes.append("escaped")
        elif tok in (r"\[", r"\]", r"\(", r"\)"):  # Markdown's escaped bracket: the bracket
            tok = tok[1]
            changes.append("bracket")
        elif tok.isspace() and "\n" in tok:
            tok = " "  # a blank line is a paragraph break: never inside a formula
        elif len(tok) == 1 and ord(tok) > 127:
            if CJK.fullmatch(tok):
                cjk = tok
                while n + 1 < len(tokens) and CJK.fullmatch(tokens[n + 1]):
                    n += 1
                    cjk += tokens[n]
                tok = rf"\text{{{cjk}}}"
                changes.append("cjk")
            elif (mapped := _unicode_math(tok)) is not None:
                tok = mapped
                changes.append("unicode")
        out.append(tok)
        n += 1
    if depth or envs:
        return _as_text(src, "unbalanced-braces" if depth else "environment", envs[-1] if envs else "")
    latex = "".join(out)
    if missing_left:
        latex = r"\left." * missing_left + latex
        changes.append("left.")
    if lefts[0]:
        latex += r"\right." * lefts[0]
        changes.append("right.")
    return Shown(latex, tuple(dict.fromkeys(changes)))


def breakable(latex: str) -> str:
    r"""The deck's break marks in a formula (from :func:`math_source`): ``\attnbr`` before
    a ``+``, ``−`` or relation, ``\attnbrm`` before a ``\cdot``, ``\times`` or Chinese
    words, where each stands at the top level — outside braces, brackets, ``\left…\right``
    and environments — after an operand.

    >>> breakable(r"y_i(1-y_i) = e^{x-1} - \left(a + b\right) \cdot c")
    'y_i(1-y_i) \\attnbr = e^{x-1} \\attnbr - \\left(a + b\\right) \\attnbrm \\cdot c'
    """
    out: list[str] = []
    depth, envs, lefts, brackets, prev = 0, 0, 0, 0, ""
    tokens = _tokens(latex)
    for n, tok in enumerate(tokens):
        top = depth == 0 and envs == 0 and lefts == 0
        operand = prev and prev not in _ADDITIVE | _MULTIPLICATIVE | _OPENERS | {"{", "^", "_", ",", r"\left"}
        if top and brackets == 0 and operand:
            words = tok == r"\text" and n + 2 < len(tokens) and CJK.match(tokens[n + 2])
            if tok in _ADDITIVE:
                out.append(r"\attnbr ")
            elif tok in _MULTIPLICATIVE or words:
                out.append(r"\attnbrm ")
        if tok == "{":
            depth += 1
        elif tok == "}":
            depth -= 1
        elif tok in (r"\left", r"\right"):
            lefts += 1 if tok == r"\left" else -1
        elif tok in (r"\begin", r"\end"):
            envs += 1 if tok == r"\begin" else -1
        elif top and tok in _OPENERS:
            brackets += 1
        elif top and tok in _CLOSERS:
            brackets = max(0, brackets - 1)
        out.append(tok)
        if not tok.isspace():
            prev = tok
    return "".join(out)


def unmarked(latex: str) -> str:
    """The LaTeX without the deck's break marks (what the note wrote, for comparison)."""
    return _MARK.sub("", latex)


def relation(rel: str) -> str:
    r"""The relation of a step as maths: ``≈`` → ``\approx``, ``:=`` → ``\coloneqq``.

    >>> relation("≈"), relation(":="), relation("=")
    ('\\approx', '\\coloneqq', '=')
    """
    if rel in (":=", "≔", "=:"):
        return r"\coloneqq" if rel != "=:" else r"\eqqcolon"
    shown = math_source(rel)
    return unmarked(shown.latex).strip() if shown.as_written else "="


def literal(text: str) -> str:
    r"""Plain text (verify's messages, which may quote ``$$`` or ``σ(…)``) as text-mode LaTeX:
    escaped, its Unicode maths set as maths — nothing in it read as LaTeX.

    >>> literal("σ(…) opened by '$$'")
    "\\ensuremath{\\sigma}(…) opened by '\\$\\$'"
    """
    return _text_unicode(escape(text))


def _text_unicode(text: str) -> str:
    """Unicode maths in text mode as LaTeX maths (the text fonts lack α, ≤, ∂)."""
    out = []
    for c in text:
        mapped = _unicode_math(c) if ord(c) > 127 and c not in _TEXT_KEPT and not CJK.fullmatch(c) else None
        out.append(rf"\ensuremath{{{mapped.strip()}}}" if mapped else c)
    return "".join(out)


_MARKDOWN = [
    (re.compile(r"<[^<>]{0,200}>"), ""),  # HTML tags (<kbd>, <br/>)
    (re.compile(r"!?\[([^\]]*)\]\([^)]*\)"), r"\1"),  # links and images: their text
    (re.compile(r"(\*\*|__|`+)"), ""),  # bold, code
    (re.compile(r"\\([!-/:-@\[-`{-~])"), r"\1"),  # a backslash-escaped punctuation mark: the mark
]


def plain(text: str, fmt: str = "tex") -> str:
    r"""A note's text-mode LaTeX (``fmt="tex"``) or Markdown (``"md"``) without its markup,
    as plain text (no LaTeX is run: ``\emph{word}`` is "word").

    >>> plain(r"\emph{Why} it \textbf{works}"), plain("<kbd>method</kbd> `forward`", "md")
    ('Why it works', 'method forward')
    """
    if fmt == "md":
        for pattern, repl in _MARKDOWN:
            text = pattern.sub(repl, text)
        return " ".join(text.split())
    try:
        out = LatexNodes2Text(math_mode="verbatim").latex_to_text(text)
    except (LatexWalkerError, ValueError, KeyError, IndexError, RecursionError):
        out = text
    return " ".join(out.split())


def _pieces(text: str) -> Iterator[tuple[bool, str]]:
    """(is maths, piece) in order: ``$…$`` and ``$$…$$`` are maths; an unmatched ``$`` is text."""
    parts = re.split(r"(?<!\\)(\$\$?)", text)
    n, inside, delim, buf = 0, False, "", ""
    while n < len(parts):
        part = parts[n]
        if part in ("$", "$$"):
            if not inside and part in "".join(parts[n + 1:]):
                yield False, buf
                buf, inside, delim = "", True, part
            elif inside and part == delim:
                yield True, buf
                buf, inside = "", False
            else:
                buf += part
        else:
            buf += part
        n += 1
    if inside:
        yield False, delim + buf
    elif buf:
        yield False, buf


def text_source(text: str, fmt: str = "tex", formulas: bool = False) -> str:
    r"""Text of the note (a heading, a reason) as text-mode LaTeX: its words without markup,
    escaped; its ``$…$`` maths through :func:`math_source` (shown as text when it cannot
    stand alone).  ``formulas``: a title written in plain text (``D(q_i k_i) = 1``,
    ``Var(q·k) = √d_k (wrong)``) has its formulas set as maths.

    >>> text_source("Var(q·k) = √d_k (wrong)", "md", formulas=True)
    '$\\operatorname{Var}(q\\cdot k) = \\sqrt{d_k}$ (wrong)'
    """
    out = []
    for is_math, piece in _pieces(_radicals(text)):
        if is_math:
            shown = math_source(piece)
            out.append(f"${unmarked(shown.latex)}$")
        elif piece:
            words = plain(piece, fmt)
            lead = " " if piece[:1].isspace() and out else ""
            trail = " " if piece[-1:].isspace() else ""
            body = _words_and_formulas(words) if formulas else _text_unicode(escape(words))
            out.append(lead + body + trail if words else " ")
    return "".join(out).strip()


_WORD = re.compile(CJK.pattern + r"|\s+|[^\s" + CJK.pattern[1:-2] + r"]+")
#: A program's name in snake case (log_softmax_gradient, cross_entropy): words, no formula —
#: its parts are words of two letters or more (d_model, W_Q, softmax_i are formulas).
_IDENTIFIER = re.compile(r"[A-Za-z]{2,}(?:_[A-Za-z]{2,})+[.,:;]?")
_MATHY = re.compile(r"[_^=·√⟂⊥≤≥≠≈∑∂∇ᵀ²³→∞−]")
_GLUE = re.compile(r"[A-Za-z]|\d+(\.\d+)?|[-+−=/·×*<>]|[A-Za-z]{1,8}\([^()\s]{1,12}\)"
                   r"|[A-Za-z0-9]{1,2}[)\]]+|[(\[]+[A-Za-z0-9]{1,2}")
_PLAIN_MATH = [
    (re.compile(r"√\(([^()]*)\)|√([A-Za-z0-9_]+)"), lambda m: rf"\sqrt{{{m.group(1) or m.group(2)}}}"),
    (re.compile(r"\bsqrt\(([^()]*)\)"), lambda m: rf"\sqrt{{{m.group(1)}}}"),
    (re.compile(r"\b(Var|Cov|softmax|diag|exp|log)(?=\s*\()"), lambda m: rf"\operatorname{{{m.group(1)}}}"),
]


def _words_and_formulas(words: str) -> str:
    """Plain text whose formulas (words with _ ^ = · √ …, and the letters, numbers and signs
    next to them) are set as maths; the other words escaped."""
    tokens = _WORD.findall(words)
    kinds = ["space" if t.isspace() else "math" if _MATHY.search(t) and not CJK.search(t)
             and not _IDENTIFIER.fullmatch(t) else "glue" if _GLUE.fullmatch(t) else "text"
             for t in tokens]
    solid = [n for n, k in enumerate(kinds) if k != "space"]
    changed = True
    while changed:  # glue next to a formula is part of it, and so is glue next to that
        changed = False
        for a, b in pairwise(solid):
            for x, y in ((a, b), (b, a)):
                if kinds[x] == "glue" and kinds[y] == "math":
                    kinds[x], changed = "math", True
    for a, b in pairwise(solid):  # the spaces inside a formula
        if kinds[a] == kinds[b] == "math":
            kinds[a + 1:b] = ["math"] * (b - a - 1)
    out = []
    for is_math, group in groupby(zip(tokens, kinds), key=lambda tk: tk[1] == "math"):
        text = "".join(t for t, _ in group)
        out.append(_plain_formula(text) if is_math else _text_unicode(escape(text)))
    return "".join(out)


def _plain_formula(text: str) -> str:
    text = re.sub(r"_([A-Za-z0-9]{2,3})(?![A-Za-z0-9{])", r"_{\1}", text)  # δ_ij: δ_{ij}
    for pattern, repl in _PLAIN_MATH:
        text = pattern.sub(repl, text)
    shown = math_source(text)
    return f"${unmarked(shown.latex).strip()}$" if shown.as_written else _text_unicode(escape(text))


_DEFINITION = re.compile(r"\\(newcommand|renewcommand|providecommand|DeclareMathOperator)(\*?)\s*"
                         r"(?:\{\s*\\([A-Za-z]+)\s*\}|\\([A-Za-z]+))\s*(?:\[(\d)\])?\s*\{")
#: Names a note may not define in a deck: TeX's and LaTeX's workings, Beamer's, the deck's own.
_PROTECTED = _FORBIDDEN | frozenset(("frame", "note", "pause", "uncover", "only", "onslide", "title",
                                     "author", "date", "color", "textcolor", "text", "left", "right"))


def macros(text: str) -> list[str]:
    r"""The maths commands a note defines (``\newcommand``, ``\DeclareMathOperator``, in a
    LaTeX preamble or in MathJax maths) as definitions for the deck: each one that only
    writes maths (its body passes :func:`math_source`), as ``\providecommand`` then
    ``\renewcommand`` (the note's meaning wins over the deck's); none that would redefine
    TeX's workings.

    >>> macros(r"\newcommand{\E}{\mathbb{E}} \DeclareMathOperator{\Var}{Var} \def\x{1}")
    ['\\providecommand{\\E}{}\\renewcommand{\\E}{\\mathbb{E}}', '\\providecommand{\\Var}{}\\renewcommand{\\Var}{\\operatorname{Var}}']
    >>> macros(r"\newcommand{\frame}{\input{x}}")
    []
    """
    out = []
    for m in _DEFINITION.finditer(text):
        name = m.group(3) or m.group(4)
        depth, end = 1, m.end()
        while end < len(text) and depth:
            depth += {"{": 1, "}": -1}.get(text[end], 0) if text[end - 1] != "\\" else 0
            end += 1
        body = text[m.end():end - 1]
        if depth or name in _PROTECTED or name.startswith("attn"):
            continue
        if m.group(1) == "DeclareMathOperator":
            body = r"\operatorname{" + body + "}"
        args = int(m.group(5) or 0)
        if not math_source(re.sub(r"#\d", "x", body)).as_written:
            continue
        count = f"[{args}]" if args else ""
        out.append(rf"\providecommand{{\{name}}}{{}}\renewcommand{{\{name}}}{count}{{{body}}}")
    return list(dict.fromkeys(out))
