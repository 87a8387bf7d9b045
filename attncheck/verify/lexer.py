r"""LaTeX math as the notes write it → a flat list of tokens, each with its offsets.

One pass, linear in the text.  The lexer knows LaTeX's macros so that later stages do
not have to: spacing, ``\left``/``\right``, ``\label``, ``\boxed{}`` and colours vanish;
fonts and accents become part of a letter's name (``\hat{y}_i`` is the letter ŷ,
``\mathbf{q}`` is q, ``\mathcal L`` is 𝓛); ``\mathrm{Var}``, ``\operatorname{Var}``,
``\text{Var}`` and a bare ``Var`` are one word; ``\mathbb{E}``, ``\mathbb{1}``, ``\Sigma_i``
are the operators they stand for; ``\overset{\text{why}}{=}`` is a relation carrying the
note's own reason; ``\text{…}`` with words in it is commentary; Unicode (− – × · ∂ Σ √ …,
full-width brackets and punctuation) reads as its ASCII twin.

Tokens are plain data; :mod:`attncheck.verify.rows` splits them into rows, cells and
relations, :mod:`attncheck.verify.parse` parses an expression's tokens with lark.

>>> [t.kind for t in tokenize(r"\mathrm{Var}\left(\frac{q^\top k}{\sqrt{d_k}}\right)")]
['WORD', 'LPAR', 'FRAC', 'LBRACE', 'LETTER', 'TRANSPOSE', 'LETTER', 'RBRACE', 'LBRACE', 'SQRT', 'LBRACE', 'LETTER', 'SUB', 'LETTER', 'RBRACE', 'RBRACE', 'RPAR']
>>> [(t.kind, t.value) for t in tokenize(r"\hat{y}_i \overset{(a)}{=} \mathbb{E}[x]")][:5]
[('LETTER', 'ŷ'), ('SUB', '_'), ('LETTER', 'i'), ('REL', '='), ('EXPECT', 'E')]
>>> tokenize(r"\overset{(a)}{=}")[0].note
'(a)'
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["BOLD", "CLASS_WORDS", "GREEK", "RELATIONS", "UNITS", "WORDS", "LexError", "Tok",
           "group_start", "sum_limit_sup", "tokenize"]

#: Marks a letter written bold (\mathbf, \boldsymbol, \bm, \vec): a vector, not a number.
BOLD = "\u20d7"
_BOLD_FONTS = ("mathbf", "boldsymbol", "bm", "mathbfit", "pmb", "vec", "symbf", "symbfit",
               "bold")


class LexError(Exception):
    """A character or macro the lexer cannot read, at an offset of the math text."""

    def __init__(self, message: str, offset: int) -> None:
        super().__init__(message)
        self.message, self.offset = message, offset


@dataclass(frozen=True)
class Tok:
    """One token: ``kind`` (a lark terminal name), ``value``, offsets [start, end) in the math
    text, and ``note`` — the text a token carries (a reason over '=', a \\text's words)."""

    kind: str
    value: str
    start: int
    end: int
    note: str = ""


GREEK = (
    "alpha beta gamma delta epsilon varepsilon zeta eta theta vartheta iota kappa lambda mu nu "
    "xi pi varpi rho varrho sigma varsigma tau upsilon phi varphi chi psi omega Gamma Delta Theta "
    "Lambda Xi Pi Sigma Upsilon Phi Psi Omega ell"
).split()
_GREEK_UNICODE = dict(zip(
    "αβγδεζηθικλμνξπρστυφχψωΓΔΘΛΞΠΣΥΦΨΩϵϑϕ",
    ("alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi pi rho sigma tau "
     "upsilon phi chi psi omega Gamma Delta Theta Lambda Xi Pi Sigma Upsilon Phi Psi Omega "
     "epsilon theta phi").split(),
))

#: Relation macros → the relation's canonical name.
RELATIONS = {
    "=": "=", "approx": "≈", "simeq": "≈", "thickapprox": "≈", "cong": "≈", "sim": "~",
    "propto": "∝", "le": "≤", "leq": "≤", "leqslant": "≤", "ge": "≥", "geq": "≥",
    "geqslant": "≥", "lt": "<", "gt": ">", "ll": "<", "gg": ">", "neq": "≠", "ne": "≠",
    "equiv": ":=", "triangleq": ":=", "coloneqq": ":=", "coloneq": ":=", "doteq": ":=",
    "eqqcolon": "=:", "to": "→", "rightarrow": "→", "longrightarrow": "→", "mapsto": "→",
    "Rightarrow": "⇒", "Longrightarrow": "⇒", "implies": "⇒", "iff": "⇔", "Leftrightarrow": "⇔",
    "Longleftrightarrow": "⇔", "therefore": "∴", "because": "∵", "in": "∈", "notin": "∉",
    "subset": "⊂", "subseteq": "⊂", "perp": "⟂", "bot": "⟂", "indep": "⟂", "mid": "|",
}
_UNICODE_REL = {"≈": "≈", "≃": "≈", "≅": "≈", "∼": "~", "∝": "∝", "≤": "≤", "⩽": "≤",
                "≥": "≥", "⩾": "≥", "≠": "≠", "≡": ":=", "≜": ":=", "≔": ":=", "→": "→",
                "⇒": "⇒", "⟹": "⇒", "⇔": "⇔", "∴": "∴", "∵": "∵", "∈": "∈", "⟂": "⟂",
                "⊥": "⟂", "＝": "=", "<": "<", ">": ">", "＜": "<", "＞": ">"}

#: Multi-letter names that are one word whether written bare, in \mathrm, \text or
#: \operatorname (longest first when a run of letters is split).
WORDS = (
    "softmax Softmax softMax sigmoid Sigmoid Attention MultiHead Concat head Var var Cov cov "
    "Corr corr Std std SD diag Diag exp log ln max min argmax argmin tanh ReLU relu sign tr det "
    "Loss loss CE LSE logsumexp KL"
).split()
_WORD_RE = re.compile("|".join(sorted(WORDS, key=len, reverse=True)))

#: Macros that carry no mathematics here.
_IGNORED = set(
    "quad qquad space displaystyle textstyle scriptstyle scriptscriptstyle limits nolimits nonumber "
    "notag left right big Big bigg Bigg bigl bigr Bigl Bigr biggl biggr Biggl Biggr bigm Bigm "
    "middle mathstrut strut hfill allowbreak nobreak medspace thinspace thickspace negthinspace "
    "hline rm it bf cal mathopen mathclose mathrel mathbin mathord mathpunct displaybreak "
    "enspace ensuremath centering raggedright small large Large normalsize footnotesize "
    "square blacksquare qed Box checkmark".split()  # an end-of-proof mark (or a tick) is not
                                                     # mathematics
)
#: Macros whose {argument} is dropped with them.
_DROP_ARG = {"label", "hspace", "vspace", "phantom", "hphantom", "vphantom", "color", "eqref",
             "ref", "cline", "hdashline", "vspace*", "hspace*", "kern", "mkern", "mspace",
             "footnote"}
#: Macros whose argument is kept as it is (the macro only decorates).
_TRANSPARENT = {"boxed", "mathop", "bm", "displaystyle", "underline", "textstyle", "smash",
                "cancel", "bcancel", "xcancel", "mathrel", "mathbin", "fbox", "colorbox",
                "lefteqn", "mathstrut", "hbox"}
#: Font macros: a letter in them is that letter (bold vectors are vectors by their letter).
_FONTS = {"mathbf": "", "boldsymbol": "", "bm": "", "mathbfit": "", "pmb": "", "vec": "",
          "bold": "",
          "mathit": "", "mathnormal": "", "mathcal": "𝓛", "mathscr": "𝓛", "mathfrak": "",
          "mathsf": "", "mathtt": "", "symbf": "", "symbfit": "", "boldsymbol*": ""}
_ACCENTS = {"hat": "\u0302", "widehat": "\u0302", "tilde": "\u0303", "widetilde": "\u0303",
            "bar": "\u0304", "overline": "\u0304", "dot": "\u0307", "ddot": "\u0308",
            "check": "\u030c", "breve": "\u0306", "acute": "\u0301", "grave": "\u0300"}
#: English words notes write in math without \text (for~i = 1, …, C; if i = j).
_PROSE_WORDS = {"for", "if", "where", "when", "otherwise", "with", "and"}
#: Words for the loss, written as a name: \text{Loss}, {\rm cost} are the loss L.
_LOSS_WORDS = frozenset({"Loss", "loss", "Cost", "cost"})
#: Words a note writes for the index of the correct class (p_{\text{target}}, 1_{k=\text{ix}}).
CLASS_WORDS = frozenset({"ix", "target", "tgt", "label", "gt", "correct", "cls", "class", "gold",
                         "truth", "answer"})
#: An index in square brackets right after a letter, x[n] (never E[X], a list [1, 2]).
_BRACKET_INDEX = re.compile(r"\[\s*([a-z]|[0-9]+)\s*\]")
#: Units a note writes after a number (memory, time, compute): \text{ GB}, \mathrm{ms}.
UNITS = re.compile(r"(?i:[KMGTP]i?B|bytes?|bits?|[KMGT]?FLOPs?|ms|µs|us|ns|sec(?:onds?)?|"
                   r"s|min|h|hours?|days?|tokens?|params?|parameters?|MHz|GHz|W|kW)")
#: Names of three letters that notes write for a quantity (four or more always are one name).
_SHORT_NAMES = {"sum", "out", "avg", "num", "den", "val", "obj", "act"}
#: ``{\rm if}``, ``{\bf x}``: a plain-TeX font switch over a group
_OLD_FONT = re.compile(r"\{\s*\\(rm|it|bf|sf|tt|sl|rmfamily|normalfont)(?![A-Za-z])\s*([^{}\\$]*)\}")
_TEXTS = {"text", "textrm", "textup", "textit", "textbf", "textsf", "texttt", "mbox",
          "textnormal", "emph", "mathrm", "operatorname", "operatorname*", "hbox", "textmd"}

_SIMPLE = {
    "frac": "FRAC", "dfrac": "FRAC", "tfrac": "FRAC", "cfrac": "FRAC", "over": "OVER",
    "sqrt": "SQRT", "sum": "SUM", "prod": "PROD", "partial": "PARTIAL", "nabla": "NABLA", "bigtriangledown": "NABLA",
    "infty": "INFTY", "cdots": "ELLIPSIS", "ldots": "ELLIPSIS", "dots": "ELLIPSIS",
    "dotsb": "ELLIPSIS", "dotsc": "ELLIPSIS", "dotsm": "ELLIPSIS", "vdots": "ELLIPSIS",
    "ddots": "ELLIPSIS", "cdot": "CDOT", "cdotp": "CDOT", "bullet": "CDOT", "times": "TIMES",
    "ast": "STAR", "star": "STAR", "circ": "CIRC", "odot": "ODOT", "otimes": "ODOT",
    "langle": "LANGLE", "rangle": "RANGLE", "lvert": "BAR", "rvert": "BAR", "vert": "BAR",
    "|": "DBAR", "lVert": "DBAR", "rVert": "DBAR", "Vert": "DBAR", "{": "LCURLY",
    "}": "RCURLY", "lbrace": "LCURLY", "rbrace": "RCURLY", "lbrack": "LSQB", "rbrack": "RSQB",
    "lparen": "LPAR", "rparen": "RPAR", "forall": "FORALL", "exists": "EXISTS", "top": "TOP",
    "intercal": "TOP", "prime": "PRIME", "pm": "PM", "mp": "PM", "colon": "COLON",
    "int": "INT", "lim": "WORD", "exp": "WORD", "log": "WORD", "ln": "WORD", "max": "WORD",
    "min": "WORD", "arg": "WORD", "tanh": "WORD", "det": "WORD", "sup": "WORD", "inf": "WORD",
    "Pr": "WORD", "cos": "WORD", "sin": "WORD", "cosh": "WORD", "sinh": "WORD",
    "arctan": "WORD", "tan": "WORD", "exp_": "WORD", "emptyset": "LETTER", "backslash": "SLASH", "setminus": "SLASH",
    "land": "COMMA", "wedge": "COMMA", "lor": "COMMA", "vee": "COMMA", "neg": "MINUS",
    "lnot": "MINUS", "hat": "HAT", "%": "PERCENT", "$": "LETTER", "#": "LETTER", "&": "LETTER",
    "_": "SUB", "dagger": "TOP",  # \_: Markdown's escaped _ (Hexo, kramdown) — a subscript
}
_CHARS = {
    "+": "PLUS", "-": "MINUS", "−": "MINUS", "–": "MINUS", "—": "MINUS", "－": "MINUS",
    "＋": "PLUS", "*": "STAR", "∗": "STAR", "/": "SLASH", "÷": "SLASH", "·": "CDOT",
    "⋅": "CDOT", "•": "CDOT", "×": "TIMES", "(": "LPAR", ")": "RPAR", "（": "LPAR",
    "）": "RPAR", "[": "LSQB", "]": "RSQB", "【": "LSQB", "】": "RSQB", "〔": "LSQB",
    "〕": "RSQB", "{": "LBRACE", "}": "RBRACE", "|": "BAR", "‖": "DBAR", "∣": "BAR",
    ",": "COMMA", "，": "COMMA", "、": "COMMA", ";": "SEMI", "；": "SEMI", ":": "COLON",
    "：": "COLON", ".": "PERIOD", "。": "PERIOD", "'": "PRIME", "′": "PRIME", "!": "BANG",
    "∂": "PARTIAL", "∑": "SUM", "∏": "PROD", "√": "SQRT", "∞": "INFTY", "…": "ELLIPSIS",
    "⋯": "ELLIPSIS", "⟨": "LANGLE", "⟩": "RANGLE", "^": "SUP", "_": "SUB", "&": "AMP",
    "~": "SPACE", "𝔼": "EXPECT", "∇": "NABLA", "⊤": "TOP", "ᵀ": "TRANSPOSE", "⊙": "ODOT",
    "∘": "CIRC", "±": "PM", "?": "QUESTION", "\"": "QUOTE", "@": "AT", "𝟙": "INDICATOR",
}
_SUPERSCRIPTS = {"²": "2", "³": "3", "¹": "1", "⁴": "4"}

def _group(text: str, i: int) -> tuple[int, int] | None:
    """The {…} group starting at text[i] (after spaces): (inside start, index after '}')."""
    n = len(text)
    while i < n and text[i] in " \t\n":
        i += 1
    if i >= n or text[i] != "{":
        return None
    depth, j = 0, i
    while j < n:
        c = text[j]
        if c == "\\":
            j += 2
            continue
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                return i + 1, j + 1
        j += 1
    return None


def _argument(text: str, i: int) -> tuple[int, int, int] | None:
    """A macro's argument at text[i]: a {group} or one token (a letter, a digit, a macro).

    Returns (inside start, inside end, index after the argument)."""
    n = len(text)
    while i < n and text[i] in " \t\n":
        i += 1
    if i >= n:
        return None
    if text[i] == "{":
        g = _group(text, i)
        return (g[0], g[1] - 1, g[1]) if g else None
    if text[i] == "\\":
        m = re.match(r"\\([a-zA-Z]+|.)", text[i:])
        assert m is not None
        return i, i + m.end(), i + m.end()
    return i, i + 1, i + 1


#: How far ahead one token's pattern looks: every token is far shorter, and a bounded look
#: keeps lexing linear (slicing to the end of a 1 MB block at each token was quadratic).
_WINDOW = 512


def _ahead(text: str, i: int, hi: int) -> str:
    """The text a token starting at i may take (up to hi, and no further than _WINDOW)."""
    return text[i:min(hi, i + _WINDOW)]


class _Lexer:
    def __init__(self, text: str) -> None:
        self.text = text
        self.out: list[Tok] = []
        #: the delimiter each open \left took ('|', '.', or another): \left| … \right| is
        #: an absolute value, \left. … \right| an evaluation bar
        self.lefts: list[str] = []

    def emit(self, kind: str, value: str, start: int, end: int, note: str = "") -> None:
        self.out.append(Tok(kind, value, start, end, note))

    def run(self, lo: int, hi: int) -> None:  # noqa: C901 — one dispatch over LaTeX's syntax
        text, i = self.text, lo
        while i < hi:
            c = text[i]
            if c in " \t\n\r\u3000\u00a0":
                i += 1
                continue
            if c == "%":  # a TeX comment, to the end of its line (\% is a macro)
                end = text.find("\n", i, hi)
                i = hi if end < 0 else end
                continue
            if c == "\\":
                i = self.macro(i, hi)
                continue
            if "0" <= c <= "9" and self.out and self.out[-1].kind == "FRAC" and \
                    i + 1 < hi and "0" <= text[i + 1] <= "9":
                # \tfrac12: TeX takes one digit per argument — one half, not "12" over what follows
                self.emit("NUMBER", c, i, i + 1)
                self.emit("NUMBER", text[i + 1], i + 1, i + 2)
                i += 2
                continue
            if "0" <= c <= "9":
                # 1{,}024: a thousands separator (TeX's {,} keeps the comma's spacing tight)
                m = re.match(r"[0-9]+(?:\{,\}[0-9]{3})*(\.[0-9]+)?", _ahead(text, i, hi))
                assert m is not None
                self.emit("NUMBER", m.group(0).replace("{,}", ""), i, i + m.end())
                i += m.end()
                continue
            if "a" <= c <= "z" or "A" <= c <= "Z":
                i = self.letters(i, hi)
                continue
            if c in _GREEK_UNICODE:
                self.emit("GREEK", _GREEK_UNICODE[c], i, i + 1)
                i += 1
                continue
            if c in _SUPERSCRIPTS:
                self.emit("SUP", "^", i, i + 1)
                self.emit("NUMBER", _SUPERSCRIPTS[c], i, i + 1)
                i += 1
                continue
            if c in "<>" and i + 1 < hi and text[i + 1] == "=":  # H >= 0 typed as code: ≥
                self.emit("REL", "≥" if c == ">" else "≤", i, i + 2)
                i += 2
                continue
            if c == "=" or c in _UNICODE_REL:
                i = self.relation(i, hi)
                continue
            if c == "." and text.startswith("..", i + 1):  # ... written with periods: ⋯
                m = re.match(r"\.{3,}", _ahead(text, i, hi))
                end = i + (m.end() if m else 2)
                self.emit("ELLIPSIS", "...", i, end)
                i = end
                continue
            if c == ":" and i + 1 < hi and text[i + 1] == "=":
                self.emit("REL", ":=", i, i + 2)
                i += 2
                continue
            if c == "^":
                i = self.superscript(i, hi)
                continue
            if c == "|" and text.startswith("||", i):  # ||q||: the norm, as \| or \Vert
                self.emit("DBAR", "‖", i, i + 2)
                i += 2
                continue
            if c == "{":
                m = _OLD_FONT.match(text, i, hi)
                if m:  # {\rm if}: plain TeX's font switch — the words of \text{if}
                    core = m.group(2).strip()
                    if re.fullmatch(r"[A-Za-z]", core):  # {\rm d}: one letter, as \mathrm{d}
                        self.emit("LETTER", core, i, m.end())
                    elif core in _LOSS_WORDS:
                        self.emit("LETTER", "L", i, m.end())  # {\rm Loss}: as \text{Loss}
                    elif re.fullmatch(r"[A-Za-z]+", core) and core not in WORDS:
                        self.emit("TEXT", core, i, m.end(), note=core)
                    elif core:
                        self.run(m.start(2), m.end(2))
                    i = m.end()
                    continue
            if c == "!" and i + 1 < hi and text[i + 1] == "=":  # j!=i, as code writes ≠
                self.emit("REL", "≠", i, i + 2)
                i += 2
                continue
            if c in _CHARS:
                kind = _CHARS[c]
                if kind != "SPACE":
                    self.emit(kind, c, i, i + 1)
                i += 1
                continue
            if "\u4e00" <= c <= "\u9fff" or "\u3400" <= c <= "\u4dbf":
                m = re.match(r"[\u3400-\u4dbf\u4e00-\u9fff，、。；：“”\s]+", _ahead(text, i, hi))
                assert m is not None
                self.emit("TEXT", m.group(0).strip(), i, i + m.end(), note=m.group(0).strip())
                i += m.end()
                continue
            if unicodedata.category(c) == "So" and c not in "°©®":
                # ☆ = Σ_k e^{a_k}: a note may name a quantity by any symbol it can type
                self.emit("LETTER", c, i, i + 1)
                i += 1
                continue
            raise LexError(f"unexpected character {c!r}", i)

    def relation(self, i: int, hi: int) -> int:
        text, c = self.text, self.text[i]
        if c == "=":
            if i + 1 < hi and text[i + 1] == ":":
                self.emit("REL", "=:", i, i + 2)
                return i + 2
            if i + 1 < hi and text[i + 1] == "=":  # i == j, as code writes a comparison
                self.emit("REL", "=", i, i + 2)
                return i + 2
            self.emit("REL", "=", i, i + 1)
            return i + 1
        self.emit("REL", _UNICODE_REL[c], i, i + 1)
        return i + 1

    def letters(self, i: int, hi: int) -> int:
        """A run of Latin letters: known words (softmax, Var, exp) are one token, the rest
        letters (TeX multiplies ``qk``)."""
        text = self.text
        m = re.match(r"[a-zA-Z]+", _ahead(text, i, hi))
        assert m is not None
        run, j = m.group(0), 0
        lost = _LOST_BACKSLASH.get(run)
        after = _ahead(text, i + len(run), hi)[:1]
        if lost and (after == "{" if lost[1] else not after.isalpha()):
            # "rac{d_k}{d_k}", "⇥ext{Var}": \frac, \text stored in a string whose escapes
            # (\f, \t, \r, \a) ate the backslash and the letter after it
            raise LexError(f"'{run}' looks like \\{lost[0]} with its backslash and first "
                           "letter lost (a string escape such as \\f or \\t took them)", i)
        if run in _PROSE_WORDS:  # "…, for~i = 1, …, C": an English word written in math
            self.emit("TEXT", run, i, i + len(run), note=run)
            return i + len(run)
        in_index = len(self.out) >= 1 and (self.out[-1].kind == "SUB" or (
            len(self.out) >= 2 and self.out[-1].kind == "LBRACE" and self.out[-2].kind == "SUB"))
        if not in_index and (len(run) >= 4 or run in _SHORT_NAMES) and \
                not _WORD_RE.match(run) and re.search(r"[aeiouAEIOU]", run):
            # Gradient, sum, target: a name of several letters, not a product g·r·a·d·i·e·n·t
            self.emit("LETTER", run, i, i + len(run))
            return i + len(run)
        if in_index and len(run) >= 2 and run.isupper() and self.out[-1].kind == "LBRACE" and \
                _ahead(text, i + len(run), hi).startswith("}"):
            # L_{BCE}, L_{CE}, D_{KL}: an acronym labels the letter (two losses in one note
            # stay two), never the indices B, C, E
            self.emit("LETTER", run, i, i + len(run))
            return i + len(run)
        if in_index and len(run) >= 3 and self.out[-1].kind == "LBRACE" and \
                _ahead(text, i + len(run), hi).startswith("}") and not _WORD_RE.fullmatch(run) \
                and set(run) - set("ijklmnc") and (re.search(r"[eou]", run) or (
                    len(run) >= 4 and re.search(r"[ai]", run))):
            # (δ_{abc}, x_{ija} stay indices: no word is spelt with a, i alone in three letters)
            # d_{seq}, p_{true}, y_{pred}: a label written as a word, not indices s·e·q
            self.emit("LETTER", run, i, i + len(run))
            return i + len(run)
        if in_index and self.out[-1].kind == "SUB" and len(self.out) >= 2 and \
                self.out[-2].kind in ("RPAR", "RSQB") and re.fullmatch(r"[ijklmn]{2,3}", run):
            # Var(QKᵀ)_ij, (A)_ij: the entry's two indices, written as plain text writes them
            # (TeX's reading — the first letter the index, the second a factor — never meant)
            self.emit("LBRACE", "{", i, i)
            for n, c in enumerate(run):
                self.emit("LETTER", c, i + n, i + n + 1)
            self.emit("RBRACE", "}", i + len(run), i + len(run))
            return i + len(run)
        digits = re.match(r"[0-9]+(?![0-9.])", _ahead(text, i + len(run), hi))
        if len(run) == 1 and digits and not in_index:
            # x1, c1, W2 written without the underscore: the letter with that index
            end = i + 1 + digits.end()
            self.emit("LETTER", run, i, i + 1)
            self.emit("SUB", "_", i + 1, i + 1)
            self.emit("NUMBER", digits.group(0), i + 1, end)
            return end
        while j < len(run):
            w = _WORD_RE.match(run, j)
            if w and w.group(0) in ("loss", "Loss") and w.end() == len(run):
                # loss = …, loss(w, b) = …: the loss L, a name (with its parameters, as L(θ))
                self.emit("LETTER", "L", i + j, i + w.end())
                j = w.end()
                continue
            if w and (w.end() == len(run) or len(w.group(0)) > 2 or w.group(0) == "ln"):
                # y_1lna_1: "ln" typed against its argument is still the logarithm
                self.emit("WORD", w.group(0), i + j, i + w.end())
                j = w.end()
                continue
            self.emit("LETTER", run[j], i + j, i + j + 1)
            j += 1
        end = i + len(run)
        b = _BRACKET_INDEX.match(text, end, hi) if len(run) == 1 and run.islower() else None
        if b is not None:
            # x[n], y[k]: code's indexing, the entry x_n (not x times the list [n])
            self.emit("SUB", "_", end, end)
            self.emit("NUMBER" if b.group(1).isdigit() else "LETTER", b.group(1), end, b.end())
            return b.end()
        return end

    def superscript(self, i: int, hi: int) -> int:
        """``^\\top``, ``^T``, ``^{\\top}``, ``^{T}``, ``^\\mathsf{T}`` are a transpose; else '^'."""
        # ^T k: TeX's superscript takes the one letter T, so q^Tk is qᵀk
        m = re.match(r"\^\s*(\\top|\\intercal|\\mathsf\s*\{\s*T\s*\}|\\mathrm\s*\{\s*T\s*\}"
                     r"|\{\s*(\\top|\\intercal|T|\\mathsf\s*\{\s*T\s*\}|\\mathrm\s*\{\s*T\s*\}"
                     r"|\\rm\s+T)\s*\}|T)", _ahead(self.text, i, hi))
        if m:
            self.emit("TRANSPOSE", "T", i, i + m.end())
            return i + m.end()
        self.emit("SUP", "^", i, i + 1)
        return i + 1

    def macro(self, i: int, hi: int) -> int:  # noqa: C901
        text = self.text
        broken = re.match(r"\\[ \t]*\n", _ahead(text, i, hi))
        if broken:
            end = i + broken.end()
            if "&" in text[text.rfind("\n", 0, i) + 1:i]:
                # "-q_i q_j, & i \neq j \⏎": a row of cells ended by one backslash — the
                # other eaten by Markdown (kramdown turns \\ into \), the row break meant
                self.emit("ROWSEP", "\\\\", i, end)
            return end  # else TeX's control space
        m = re.match(r"\\([a-zA-Z]+\*?|.)", _ahead(text, i, hi))
        if not m:
            raise LexError("a lone backslash", i)
        name, j = m.group(1), i + m.end()
        if name.endswith("*") and name not in ("operatorname*", "vspace*", "hspace*"):
            name = name[:-1]
            j -= 0
        if name in ("\\", "newline", "cr"):
            # row break, with an optional [skip] (\newline, plain TeX's \cr: the same break)
            sk = re.match(r"\s*\[[^\]\n]{0,20}\]", _ahead(text, j, hi))
            end = j + (sk.end() if sk else 0)
            self.emit("ROWSEP", "\\\\", i, end)
            return end
        if name == " ":
            more = re.match(r"(?:\s*\\ )+", _ahead(text, j, hi))
            if more:  # "\ \ (i \ne j)": control spaces in a row, a wide space as \quad is
                self.emit("QUAD", "quad", i, j + more.end())
                return j + more.end()
        if name in (",", ";", ":", "!", " ", ">", "/", "\n"):
            return j
        if name in ("quad", "qquad"):  # a wide space separates a formula from its condition
            self.emit("QUAD", name, i, j)
            return j
        if name in _IGNORED:
            if name in ("left", "right", "middle") or name.startswith(("big", "Big")):
                ahead = _ahead(text, j, hi)
                opened = self.lefts.pop() if name == "right" and self.lefts else ""
                if name == "left":
                    self.lefts.append(ahead.lstrip()[:1])
                d = re.match(r"\s*\.", ahead)  # \left. and \right. delimit nothing
                if d:
                    return j + d.end()
                bar = re.match(r"\s*\|(?!\|)", ahead)
                if name == "right" and bar and opened != "|" and \
                        not re.match(r"\s*[_^]", _ahead(text, j + bar.end(), hi)):
                    return j + bar.end()  # \left. f \right| with no point: a bar that closes nothing
            return j
        if name == "color" and re.match(r"\s*\{[^{}]*\}\s*\{", text[j:hi]):
            # \color{gray}{\text{…}}: the group after the colour is what it colours (the
            # braces are the colour's scope, not a group of the formula)
            a = _argument(text, j)
            b = _argument(text, a[2]) if a else None
            if a and b:
                words = re.match(r"\s*\\(?:text|mbox|textrm)\s*(?=\{)", text[b[0]:b[1]])
                inner = _argument(text, b[0] + words.end()) if words else None
                if inner and not text[inner[2]:b[1]].strip():
                    self.run(b[0], b[1])  # a coloured remark: the words alone, no group
                    return b[2]
                # a coloured formula: the group, its braces spanning the macro as written
                self.emit("LBRACE", "{", i, b[0])
                self.run(b[0], b[1])
                self.emit("RBRACE", "}", b[1], b[2])
                return b[2]
        if name in _DROP_ARG:
            a = _argument(text, j)
            if name in ("hspace", "hspace*") and a:  # p_k = … \hspace{1in} L_i = …: two formulas
                self.emit("QUAD", name, i, a[2])
            return a[2] if a else j
        if name in ("begin", "end"):
            g = _group(text, j)
            if not g:
                raise LexError(f"\\{name} without an environment name", i)
            env = text[g[0]:g[1] - 1].strip()
            end = g[1]
            if name == "begin":  # alignat{2}, array{cc}: the column spec is not math
                spec = re.match(r"\s*(\[[a-z]\])?\s*(\{[^{}]*\})?", _ahead(text, end, hi))
                if spec and (env.startswith(("alignat", "array", "alignedat", "tabular"))
                             or spec.group(1)):
                    end += spec.end()
            self.emit("BEGIN" if name == "begin" else "END", env, i, end)
            return end
        if name == "substack":  # \sum_{\substack{j=1 \\ j \neq \ell}}: the lines are conditions
            g = _group(text, j)
            if not g:
                raise LexError("\\substack without its {…}", i)
            start = len(self.out)
            self.run(g[0], g[1] - 1)
            self.out[start:] = [Tok("COMMA", ",", t.start, t.end) if t.kind == "ROWSEP" else t
                                for t in self.out[start:]]
            return g[1]
        if name == "displaylines":  # \displaylines{a \\ b}: rows, centred — a gathered
            g = _group(text, j)
            if not g:
                raise LexError("\\displaylines without its {…}", i)
            self.emit("BEGIN", "gathered", i, g[0])
            self.run(g[0], g[1] - 1)
            self.emit("END", "gathered", g[1] - 1, g[1])
            return g[1]
        if name == "tag":
            a = _argument(text, j)
            if not a:
                raise LexError("\\tag without its {…}", i)
            self.emit("TAG", "tag", i, a[2], note=text[a[0]:a[1]].strip())
            return a[2]
        if name in ("overset", "stackrel", "underset"):
            return self.overset(name, i, j, hi)
        if name in ("underbrace", "overbrace"):
            a = _argument(text, j)
            if not a:
                raise LexError(f"\\{name} without its {{…}}", i)
            # a group from the macro to the end of its annotation: the formula as written
            # (\underbrace{a^2 + b^2}_{…} + …) is what the step shows, brace and all
            self.emit("LBRACE", "{", i, a[0])
            self.run(a[0], a[1])
            end = a[2]
            lab = re.match(r"\s*[_^]", _ahead(text, a[2], hi))
            if lab:  # the annotation under the brace is commentary
                b = _argument(text, a[2] + lab.end())
                end = b[2] if b else a[2] + lab.end()
            self.emit("RBRACE", "}", a[1], end)
            return end
        if name in ("textcolor", "colorbox"):
            a = _argument(text, j)
            if a:
                b = _argument(text, a[2])
                if b:
                    self.run(b[0], b[1])
                    return b[2]
            return j
        if name in _TRANSPARENT:
            a = _argument(text, j)
            if name in ("boxed", "fbox") and a and re.match(r"\s*\\(boxed|fbox)\b",
                                                            _ahead(text, a[2], hi)):
                # o = \boxed{2}\boxed{3}\boxed{4}: boxes side by side draw a vector's
                # entries, they do not multiply
                raise LexError("a row of \\boxed{…} entries (a vector drawn as boxes)", i)
            if a and text[a[0] - 1:a[0]] == "{":
                self.emit("LBRACE", "{", a[0] - 1, a[0])
                self.run(a[0], a[1])
                self.emit("RBRACE", "}", a[1], a[2])
                return a[2]
            return j
        if name in _TEXTS:
            return self.text_macro(name, i, j, hi)
        if name in ("mathbb", "Bbb", "mathbbm", "mathds"):
            a = _argument(text, j)
            if not a:
                raise LexError(f"\\{name} without its argument", i)
            inner = text[a[0]:a[1]].strip()
            kind = {"E": "EXPECT", "V": "WORD", "1": "INDICATOR", "I": "INDICATOR",
                    "P": "WORD", "Var": "WORD", "Cov": "WORD"}.get(inner)
            if kind == "WORD":  # \mathbb{V}, \mathbb{Var}: the variance, as \mathbb{E} the mean
                end = a[2]
                if inner == "V" and text.startswith("ar", end) and \
                        not text[end + 2:end + 3].isalpha():
                    end += 2  # \mathbb{V}ar[X]: the V of Var written double-struck
                self.emit("WORD", {"V": "Var", "P": "Pr"}.get(inner, inner), i, end)
                return end
            elif kind:
                self.emit(kind, inner, i, a[2])
            elif re.fullmatch(r"[a-z]|\\[a-z]+|\\(?:hat|tilde|bar)\s*\{?\s*[a-z]\S*", inner):
                # \mathbb{w}, \mathbb{\theta}, \mathbb{\hat{y}}: a lower-case letter in
                # double-struck, as some notes set their vectors — bold, not a set
                return self.decorated("mathbf", i, j, hi)
            else:
                self.emit("SET", inner, i, a[2])  # ℝ, ℕ: only ever in conditions
            return a[2]
        if name == "dot" and re.match(r"\s+(Var|Cov|E|D)\s*[\[(]", _ahead(text, j, hi)):
            # "E[X]^2 \dot Var[Y]": a dot over the V of Var means nothing; the note meant ·
            self.emit("CDOT", "·", i, j)
            return j
        if name in _FONTS or name in _ACCENTS:
            return self.decorated(name, i, j, hi)
        if name in GREEK:
            # Σ_i …, Σ^n_{i=1} …: the sum; Σ and Σ² alone: a quantity the note named Σ
            if name == "Sigma" and re.match(r"\s*(_|\^\s*(\{[^{}]*\}|\w)\s*_)", _ahead(text, j, hi)):
                self.emit("SUM", "Σ", i, j)
            else:
                self.emit("GREEK", name, i, j)
            return j
        if name in RELATIONS:
            self.emit("REL", RELATIONS[name], i, j)
            return j
        if name in ("xrightarrow", "xlongrightarrow", "xRightarrow"):
            # a → b with words over the arrow (\xrightarrow{λ → ∞}): the arrow is the relation
            k = j
            m2 = re.match(r"\s*\[[^\]]*\]", _ahead(text, k, hi))
            k += m2.end() if m2 else 0
            a = _argument(text, k)
            end = a[2] if a and text[a[0] - 1:a[0]] == "{" else k
            self.emit("REL", "⇒" if name == "xRightarrow" else "→", i, end)
            return end
        if name == "not":  # \not= and \not\in: the negated relation
            m2 = re.match(r"\s*(=|\\in(?![a-zA-Z])|\\equiv(?![a-zA-Z]))", _ahead(text, j, hi))
            if m2:
                self.emit("REL", {"=": "≠"}.get(m2.group(1), "∉"), i, j + m2.end())
                return j + m2.end()
        if name in _SIMPLE:
            kind = _SIMPLE[name]
            self.emit(kind, name, i, j)
            return j
        if name in ("E", "Exp"):
            self.emit("EXPECT", "E", i, j)
            return j
        if name in ("Var", "var", "Cov", "cov", "softmax", "sigmoid", "diag", "argmax"):
            self.emit("WORD", name, i, j)
            return j
        if name in ("[", "]", "(", ")"):
            self.emit({"[": "LSQB", "]": "RSQB", "(": "LPAR", ")": "RPAR"}[name], name, i, j)
            return j
        if name in ("ell",):
            self.emit("GREEK", "ell", i, j)
            return j
        if name in ("dfrac", "tfrac"):
            self.emit("FRAC", name, i, j)
            return j
        if name == "unicode":  # \unicode{x1D7D9}: MathJax's way to type 𝟙 (or another sign)
            a = _argument(self.text, j)
            code = re.fullmatch(r"\s*(?:x|0x|U\+)?([0-9A-Fa-f]{2,6})\s*", self.text[a[0]:a[1]]) \
                if a else None
            kind = _CHARS.get(chr(int(code.group(1), 16))) if code else None
            if a and kind is not None:
                self.emit(kind, chr(int(code.group(1), 16)), i, a[2])
                return a[2]
        # an unknown macro spoils only the expression it stands in: the parser says where
        self.emit("UNKNOWN", "\\" + name, i, j)
        return j

    def text_macro(self, name: str, i: int, j: int, hi: int) -> int:
        """``\\text{Var}`` is the word Var; ``\\text{ by independence }`` is commentary."""
        text = self.text
        a = _argument(text, j)
        if not a:
            raise LexError(f"\\{name} without its {{…}}", i)
        inner = text[a[0]:a[1]].replace("\ue024", "$")  # blocks.TEXT_DOLLAR: $ as written
        core = inner.strip()
        font = name in ("mathrm", "operatorname", "operatorname*")
        if font:  # \operatorname*{arg\,min}: spacing inside a name is not a word break
            core = re.sub(r"\\[,;:! ]|\s+", "", core)
        if core in CLASS_WORDS and self.out and self.out[-1].kind in ("SUB", "LBRACE", "REL"):
            # p_{\text{target}}, \mathbb{1}_{k=\text{ix}}: the correct class's index, a name
            self.emit("WORD", core, i, a[2])
            return a[2]
        if font or core in WORDS or core in ("E", "Exp", "T", "def", "D", "d", "e") or (
                re.fullmatch(r"[A-Za-z]", core) is not None):
            if core in ("E", "Exp"):
                self.emit("EXPECT", "E", i, a[2])
            elif core in _LOSS_WORDS:
                self.emit("LETTER", "L", i, a[2])  # \text{Loss}: the loss L, a name
            elif core in ("T",) and self.out and self.out[-1].kind == "SUP":
                self.out.pop()
                self.emit("TRANSPOSE", "T", i, a[2])
            elif core in ("def", "def.", "defn"):
                self.emit("TEXT", core, i, a[2], note="def")
            elif re.fullmatch(r"[A-Za-z]", core):
                self.emit("LETTER", core, i, a[2])
            elif re.fullmatch(r"[A-Za-z]+", core):
                self.emit("WORD", core, i, a[2])
            elif core == "":
                pass
            elif font and re.fullmatch(r"[\w\s\-]+", core):
                self.emit("WORD", re.sub(r"\W", "", core), i, a[2])
            else:
                self.emit("TEXT", core, i, a[2], note=core)
            return a[2]
        if re.fullmatch(r"[A-Za-z]{2,}", core) and re.match(r"\s*(?:\\left\s*)?\(", text[a[2]:a[2] + 12]):
            # \text{spread}(q·k): a function the note names by a word, applied — never
            # commentary to drop (that would leave q·k alone)
            self.emit("WORD", core, i, a[2])
            return a[2]
        call = re.fullmatch(r"\s*([A-Za-z]{2,})\s*\([^()$\\]{1,40}\)\s*", inner)
        if call and call.group(1) in WORDS:
            # \text{softmax(x)}_i: a function and its argument typed as text — the math
            self.emit("WORD", call.group(1), i, a[0] + call.end(1))
            self.run(a[0] + call.end(1), a[1])
            return a[2]
        if core:
            self.emit("TEXT", core, i, a[2], note=core)
        return a[2]

    def decorated(self, name: str, i: int, j: int, hi: int) -> int:
        """A letter in a font or under an accent: one LETTER (or GREEK) whose name shows it."""
        text = self.text
        a = _argument(text, j)
        if not a:
            raise LexError(f"\\{name} without its argument", i)
        inner = text[a[0]:a[1]].strip()
        sub = _Lexer(inner)
        try:
            sub.run(0, len(inner))
        except LexError as exc:
            raise LexError(exc.message, a[0] + exc.offset) from None
        toks = sub.out
        accent = _ACCENTS.get(name, "")
        if len(toks) == 1 and toks[0].kind in ("LETTER", "GREEK", "INDICATOR", "NUMBER"):
            t = toks[0]
            if t.kind == "NUMBER":
                kind = "INDICATOR" if t.value == "1" and name in _FONTS else "NUMBER"
                self.emit(kind, t.value, i, a[2])
                return a[2]
            value = t.value
            if name in ("mathcal", "mathscr") and t.kind == "LETTER":
                value = "cal" + value
            if name in _BOLD_FONTS:
                value += BOLD
            # NFC: ŷ typed as one character and \hat{y} are the same letter — and so is
            # \hat{\mathbf{y}}, whose accent goes on the letter, before the bold mark
            bold = BOLD if value.endswith(BOLD) else ""
            value = unicodedata.normalize("NFC", value.removesuffix(BOLD) + accent) + bold
            self.emit(t.kind, value, i, a[2], note=name)
            return a[2]
        if name in _BOLD_FONTS and len(toks) == 3 and toks[0].kind == "LETTER" and \
                toks[1].kind == "SUB":  # \vec{q_i}: the i-th vector q_i
            self.emit("LETTER", toks[0].value + BOLD, i, a[0] + toks[0].end, note=name)
            for tk in toks[1:]:
                self.out.append(Tok(tk.kind, tk.value, a[0] + tk.start, a[0] + tk.end, tk.note))
            return a[2]
        if accent and len(toks) >= 3 and toks[0].kind in ("LETTER", "GREEK") and \
                toks[1].kind == "SUB":  # \hat{y_i}: the hat on the letter, ŷ_i, as \hat{y}_i
            self.emit(toks[0].kind, unicodedata.normalize("NFC", toks[0].value + accent), i,
                      a[0] + toks[0].end, note=name)
            for n, tk in enumerate(toks[1:], 2):  # the last ends at the accent's }: a[2]
                end = a[2] if n == len(toks) else a[0] + tk.end
                self.out.append(Tok(tk.kind, tk.value, a[0] + tk.start, end, tk.note))
            return a[2]
        # \mathbf{QK}, \overline{q \cdot k}: the contents, decorations dropped
        self.emit("LBRACE", "{", a[0] - 1, a[0])
        for t in toks:
            self.out.append(Tok(t.kind, t.value, a[0] + t.start, a[0] + t.end, t.note))
        self.emit("RBRACE", "}", a[1], a[2])
        return a[2]

    def overset(self, name: str, i: int, j: int, hi: int) -> int:
        """``\\overset{why}{=}``: a relation with the note's reason; over anything else, the base."""
        text = self.text
        a = _argument(text, j)
        b = _argument(text, a[2]) if a else None
        if not a or not b:
            raise LexError(f"\\{name} needs two arguments", i)
        top, base = text[a[0]:a[1]].strip(), text[b[0]:b[1]].strip()
        sub = _Lexer(base)
        try:
            sub.run(0, len(base))
        except LexError:
            sub.out = []
        if len(sub.out) == 1 and sub.out[0].kind == "REL":
            why = re.sub(r"\\(text|mathrm|textrm|mbox|rm|scriptscriptstyle|scriptstyle)\b",
                         "", top).strip(" {}")
            rel = sub.out[0].value
            if why.strip(".").lower() in ("def", "defn", "定义", "d", "△", "\\triangle",
                                          "\\Delta", "\\text{def}"):
                rel = ":="
            self.emit("REL", rel, i, b[2], note=why)
            return b[2]
        self.emit("LBRACE", "{", b[0] - 1, b[0])
        self.run(b[0], b[1])
        self.emit("RBRACE", "}", b[1], b[2])
        return b[2]


def sum_limit_sup(toks: Sequence[Tok], at: int) -> int | None:
    """Where the upper limit's ^ is, right after \\sum (and its _{…}), else None."""
    if at < len(toks) and toks[at].kind == "SUB":
        at += 1
        if at < len(toks) and toks[at].kind == "LBRACE":
            depth = 0
            while at < len(toks):
                depth += {"LBRACE": 1, "RBRACE": -1}.get(toks[at].kind, 0)
                at += 1
                if depth == 0:
                    break
        else:
            at += 1
    return at if at < len(toks) and toks[at].kind == "SUP" else None


def group_start(toks: Sequence[Tok], m: int) -> int:
    """Where the {…} group that ends at toks[m] (a "}") opens (-1 when it never does)."""
    depth = 0
    while m >= 0:
        depth += {"RBRACE": 1, "LBRACE": -1}.get(toks[m].kind, 0)
        if depth == 0:
            break
        m -= 1
    return m


def _letter_before(out: Sequence[Tok]) -> int | None:
    """Where the letter is that the tokens end with, its subscript included (a, a_i, a_{ij})."""
    m = len(out) - 1
    if m >= 0 and out[m].kind == "RBRACE":  # a_{ij}: back over the group to its _
        m = group_start(out, m) - 1
    elif m >= 1 and out[m - 1].kind == "SUB":
        m -= 1
    if m >= 0 and out[m].kind == "SUB":
        m -= 1
    elif m != len(out) - 1:
        return None
    return m if m >= 0 and out[m].kind == "LETTER" else None


def _layer_named(out: list[Tok], base: int, label: str, end: int) -> None:
    """The letter at ``out[base]`` given its layer: the output layer L is the letter itself,
    any other ("l", "l+1", "L-1") a name of its own, ``a^[l]``; the label is still part of
    the text the tokens cover, to ``end``."""
    if label != "L":
        b = out[base]
        out[base] = Tok(b.kind, f"{b.value}^[{label}]", b.start, b.end)
    last = out[-1]
    out[-1] = Tok(last.kind, last.value, last.start, end, last.note)


def _layer_labels(toks: Sequence[Tok]) -> list[Tok]:
    """Names a deep-learning course writes (Ng's): ``a_i^{[L]}``, ``z^{[L]}`` — a layer
    written up in brackets, not a power: the output layer [L] (where softmax is) is the
    letter itself, another layer ([L-1], [2]) a name of its own, a^{[L-1]}, never merged
    with a; Nielsen's ``a_i^L``, ``z^l_j`` without brackets likewise (the layer letters L
    and l are never powers here) — and ``dZ``, ``dW`` (a gradient's name), not d·Z."""
    out: list[Tok] = []
    n, k = 0, len(toks)
    while n < k:
        t = toks[n]
        if t.kind == "SUP" and n + 4 < k and toks[n + 1].kind == "LBRACE" and \
                toks[n + 2].kind == "LSQB":
            close = next((m for m in range(n + 3, min(n + 8, k - 1))
                          if toks[m].kind == "RSQB" and toks[m + 1].kind == "RBRACE"), None)
            base = _letter_before(out)
            if close is not None and base is not None:
                _layer_named(out, base, "".join(u.value for u in toks[n + 3:close]),
                             toks[close + 1].end)
                n = close + 2
                continue
        if t.kind == "SUP" and n + 5 < k and [u.kind for u in toks[n + 1:n + 6]] == [
                "LBRACE", "LPAR", "NUMBER", "RPAR", "RBRACE"] and toks[n + 3].value.isdigit():
            # z^{(2)}_j, z_j^{(2)}, W^{(1)}: layer 2's z (a label in parentheses, never a
            # power), one name wherever the index is written
            base = _letter_before(out)
            if base is not None and out[base].value not in ("e", "E"):
                b = out[base]
                out[base] = Tok(b.kind, f"{b.value}^({toks[n + 3].value})", b.start, b.end)
                last = out[-1]
                out[-1] = Tok(last.kind, last.value, last.start, toks[n + 5].end, last.note)
                n += 6
                continue
        if t.kind == "SUP" and n + 5 < k and toks[n + 1].kind == "LBRACE" and \
                toks[n + 2].kind == "LPAR" and toks[n + 3].kind == "LETTER" and \
                toks[n + 3].value in ("L", "l"):
            # 𝐚^{(L)}, z_i^{(l+1)}, W^{(l-1)}: the layer in parentheses, as in brackets above
            # (never q_i^{(l)} of the random vectors: there (l) numbers a component)
            close = next((m for m in range(n + 4, min(n + 8, k - 1))
                          if toks[m].kind == "RPAR" and toks[m + 1].kind == "RBRACE"), None)
            base = _letter_before(out)
            inside = toks[n + 4:close] if close is not None else []
            if close is not None and base is not None and \
                    out[base].value.replace(BOLD, "") not in ("e", "E", "q", "k") and \
                    all(u.kind in ("PLUS", "MINUS", "NUMBER") for u in inside):
                _layer_named(out, base, "".join(u.value for u in toks[n + 3:close]),
                             toks[close + 1].end)
                n = close + 2
                continue
        if t.kind == "SUP" and n + 1 < k:
            # a_i^L, z^{l}_j (Nielsen's): the layer written up without brackets, as above
            bare = toks[n + 1].kind == "LETTER" and toks[n + 1].value in ("L", "l")
            braced = n + 3 < k and [u.kind for u in toks[n + 1:n + 4]] == [
                "LBRACE", "LETTER", "RBRACE"] and toks[n + 2].value in ("L", "l")
            end = n + 1 if bare else n + 3 if braced else None
            base = _letter_before(out) if end is not None else None
            if end is not None and base is not None and out[base].value not in ("e", "E") and \
                    not (end + 1 < k and toks[end + 1].kind == "SUP"):
                _layer_named(out, base, toks[end - (0 if bare else 1)].value, toks[end].end)
                n = end + 1
                continue
        if t.kind == "LETTER" and out and out[-1].kind == "LETTER" and out[-1].value == "d" and \
                out[-1].end == t.start and t.value[:1].isupper() and \
                (len(out) < 2 or out[-2].kind not in ("LETTER", "NUMBER", "FRAC", "LBRACE")):
            # dZ^{[L]}, dW: a gradient's name in a course's code-like notation, not d·Z
            d = out.pop()
            t = Tok("LETTER", "d" + t.value, d.start, t.end, t.note)
        out.append(t)
        n += 1
    return out


#: Environments a note puts inside \left\{ … \right. to draw a case split.
_CASE_LIKE = ("matrix", "array", "aligned", "gathered", "smallmatrix", "split")


def _unbraced_cells(toks: list[Tok]) -> list[Tok]:
    r"""``{\hat y_k(1-\hat y_i)} & {\text{ if } k=i} \\``: cells a converter wrapped whole in
    braces (Mathpix writes array cells so) — the braces go, so a cell's "if k = i" is read
    as its case."""
    out: list[Tok] = []
    cell: list[Tok] = []
    for t in toks + [Tok("AMP", "", 0, 0)]:
        if t.kind in ("AMP", "ROWSEP"):
            if len(cell) >= 2 and cell[0].kind == "LBRACE" and cell[-1].kind == "RBRACE" and \
                    _closes_at_end(cell):
                cell = cell[1:-1]
            out += cell + ([t] if t.value or t.kind == "ROWSEP" else [])
            cell = []
        else:
            cell.append(t)
    return out


def _closes_at_end(cell: list[Tok]) -> bool:
    """Whether the cell's first brace is the one its last token closes."""
    depth = 0
    for n, t in enumerate(cell):
        depth += (t.kind == "LBRACE") - (t.kind == "RBRACE")
        if depth == 0:
            return n == len(cell) - 1
    return False


def _cases_in_braces(toks: list[Tok]) -> list[Tok]:
    r"""``\left\{ \begin{matrix} a & i=j \\ b & i \neq j \end{matrix} \right.`` (also array,
    aligned, with the condition after a \qquad in parentheses): the cases environment the
    note drew by hand — a brace closed on the right is a set, and stays."""
    closing: dict[int, int] = {}  # each \begin's \end, found in one pass (no rescans)
    opened: list[int] = []
    for m, t in enumerate(toks):
        if t.kind == "BEGIN":
            opened.append(m)
        elif t.kind == "END" and opened:
            closing[opened.pop()] = m
    out: list[Tok] = []
    n = 0
    while n < len(toks):
        t = toks[n]
        if t.kind == "LCURLY" and n + 1 < len(toks) and toks[n + 1].kind == "BEGIN" and \
                toks[n + 1].value in _CASE_LIKE and n + 1 in closing:
            env, m = toks[n + 1].value, closing[n + 1]
            if toks[m].value == env and \
                    (m + 1 == len(toks) or toks[m + 1].kind != "RCURLY"):
                b, e = toks[n + 1], toks[m]
                out += [Tok("BEGIN", "cases", b.start, b.end)] + \
                    _unbraced_cells(_conditions_after_quads(toks[n + 2:m])) + \
                    [Tok("END", "cases", e.start, e.end)]
                n = m + 1
                continue
        out.append(t)
        n += 1
    return out


def _conditions_after_quads(body: list[Tok]) -> list[Tok]:
    r"""``a \qquad (i=j)`` rows of a hand-drawn case split: ``a & i=j``, as cases writes them."""
    rows: list[list[Tok]] = [[]]
    for t in body:
        if t.kind == "ROWSEP":
            rows.append([])
        rows[-1].append(t)
    out: list[Tok] = []
    for row in rows:
        if len(row) >= 5 and row[-1].kind == "RPAR" and not any(u.kind == "AMP" for u in row):
            k = max(m for m, u in enumerate(row) if u.kind == "LPAR")
            inner = row[k + 1:-1]
            if k >= 1 and row[k - 1].kind == "QUAD" and \
                    sum(u.kind == "REL" for u in inner) == 1 and \
                    all(u.kind in ("LETTER", "REL", "NUMBER", "LBRACE", "RBRACE") for u in inner):
                row = row[:k - 1] + [Tok("AMP", "&", row[k].start, row[k].end)] + inner
        out += row
    return out


#: Full-width digits, letters and relations typed with a Chinese input method (y_i=１, dＷ, ＝):
#: their ASCII twins, one character for one, so every offset stays where it was.
_FULL_WIDTH = {c: c - 0xFEE0 for c in [*range(0xFF10, 0xFF1A), *range(0xFF21, 0xFF3B),
                                        *range(0xFF41, 0xFF5B), 0xFF1C, 0xFF1D, 0xFF1E]}


#: Macros whose first letter is a string escape (\f, \t, \r, \a): what is left of each when
#: the escape took it, the macro, and whether a brace must follow (as after \frac).
_LOST_BACKSLASH = {"rac": ("frac", True), "ext": ("text", True), "extbf": ("textbf", True),
                   "ight": ("right", False), "pprox": ("approx", False),
                   "imes": ("times", False)}


def tokenize(text: str) -> list[Tok]:
    """The tokens of ``text`` (LaTeX math); :class:`LexError` at the first unreadable place."""
    lx = _Lexer(text.translate(_FULL_WIDTH))
    lx.run(0, len(text))
    return _cases_in_braces(_layer_labels(_braced_subscripts(lx.out)))


def _braced_subscripts(toks: list[Tok]) -> list[Tok]:
    r"""``\theta{_k}``: a subscript typed inside braces after its letter — the letter's."""
    closing: dict[int, int] = {}
    stack: list[int] = []
    for n, t in enumerate(toks):  # each brace's partner, in one pass (no search per brace)
        if t.kind == "LBRACE":
            stack.append(n)
        elif t.kind == "RBRACE" and stack:
            closing[stack.pop()] = n
    drop = {k for n in range(1, len(toks) - 1)
            if toks[n].kind == "LBRACE" and toks[n + 1].kind == "SUB" and
            toks[n - 1].kind in ("LETTER", "GREEK") and n in closing for k in (n, closing[n])}
    return [t for n, t in enumerate(toks) if n not in drop] if drop else toks
