"""The first stage of reading a note: where its math is, what its prose says, which comments direct.

A Markdown note is read the way MyST, Jupyter Book and most blog renderers read it:
markdown-it-py (CommonMark) with the dollarmath and amsmath plugins — so ``$$ … $$``
inside a blockquote or a list item, ``$$`` inside a paragraph, ```` ```math ```` fences and
``\\begin{align}`` blocks are math, while code spans, fenced code and HTML comments are not.
``\\[ … \\]`` and ``\\( … \\)`` (MathJax's delimiters, which CommonMark would read as escaped
brackets) are turned into ``$$`` and ``$`` before parsing, keeping every offset.
A LaTeX note is scanned for math modes and environments, ``%`` comments removed.

The result is a list of events in file order:

* :class:`Math` — display math (or inline math), its text and where each of its lines sits
  in the file, so later stages can name line:column exactly;
* :class:`Prose` — a paragraph's text (with its inline math as written), for the
  assumptions and definitions notes state in words;
* :class:`Heading` — a section title (the derivations below it are about it);
* :class:`Directive` — an ``attncheck:`` comment;
* :class:`Problem` — something that could not be read (an unclosed ``$$``), located; the
  rest of the file is read anyway.

Every stage is linear in the file's size: unclosed openers are matched by bisection,
never by rescanning the rest of the file.

>>> from attncheck.verify.files import Source
>>> src = Source("notes.md", "Text\\n<!-- attncheck: dim d_k -->\\n> $$ a = b $$\\n")
>>> [type(e).__name__ for e in scan(src, "md")]
['Prose', 'Directive', 'Math']
>>> m = scan(src, "md")[2]
>>> m.text, src.location(m.offset(1))
(' a = b ', Location(path='notes.md', line=3, column=6))
"""

from __future__ import annotations

import bisect
import re
from bisect import bisect_left, bisect_right
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import Any

from attncheck.verify.files import Format, Source

__all__ = ["Directive", "Event", "Heading", "Math", "Problem", "Prose", "scan"]


@dataclass(frozen=True)
class _Anchored:
    """A piece of text whose characters map back to offsets in the file.

    ``anchors`` are (index in text, offset in file) pairs, one per line of the text:
    containers (``> `` in a blockquote, a list's indentation) remove characters between
    lines, so one offset per line is what keeps columns exact.
    """

    start: int
    text: str
    anchors: tuple[tuple[int, int], ...] = ()

    @cached_property
    def _keys(self) -> tuple[int, ...]:
        return tuple(a for a, _ in self.anchors)

    def offset(self, i: int) -> int:
        """The file offset of character ``i`` of the text."""
        if not self.anchors:
            return self.start + i
        n = max(0, bisect_right(self._keys, i) - 1)
        at, off = self.anchors[n]
        return off + (i - at)


@dataclass(frozen=True)
class Math(_Anchored):
    """Math as written between its delimiters; ``display`` False for inline ``$…$``;
    ``alone``: inline math that is a whole paragraph (a line of an inline derivation)."""

    display: bool = True
    alone: bool = False


@dataclass(frozen=True)
class Prose(_Anchored):
    """A paragraph, list item or table cell of text, its inline math kept as written."""


@dataclass(frozen=True)
class Heading(_Anchored):
    """A section heading."""

    level: int = 1


@dataclass(frozen=True)
class Directive:
    """The text after ``attncheck:`` in a comment; ``start`` is that text's offset."""

    start: int
    text: str


@dataclass(frozen=True)
class Problem:
    """Something at ``start`` that could not be read, and why."""

    start: int
    message: str


Event = Math | Prose | Heading | Directive | Problem

_DIRECTIVE = re.compile(r"[ \t%]*attncheck\s*:")


def _directives(text: str, start: int) -> list[Directive]:
    """Lines of a comment ``text`` (at file offset ``start``) that start with ``attncheck:``."""
    out = []
    pos = start
    for line in text.split("\n"):
        m = _DIRECTIVE.match(line)
        if m:
            body = line[m.end():].rstrip()
            out.append(Directive(pos + m.end(), body.removesuffix("-->").rstrip()))
        pos += len(line) + 1
    return out


def _anchor(text: str, file: str, lo: int, hi: int) -> tuple[int, tuple[tuple[int, int], ...]]:
    """Where ``text`` (a container's content: lines of the file with prefixes removed) lies
    in ``file[lo:hi]``: its start and one anchor per line.  Linear in the region."""
    anchors: list[tuple[int, int]] = []
    cursor = lo
    i = 0
    for line in text.split("\n"):
        core = line.strip()
        if core:
            at = file.find(core, cursor, hi)
            if at < 0:  # not found (should not happen): carry on from the last anchor
                at = cursor
            lead = len(line) - len(line.lstrip())
            anchors.append((i + lead, at))
            cursor = at + len(core)
        i += len(line) + 1
    start = anchors[0][1] - anchors[0][0] if anchors else lo
    return start, tuple(anchors)


# ---- Markdown ---------------------------------------------------------------------------

@lru_cache(maxsize=4)
def _closing_lines(src: str) -> list[int]:
    """The lines of ``src`` that end in "$$" (or "$$ (label)"): where a display can close."""
    return [n for n, line in enumerate(src.split("\n"))
            if line.rstrip().endswith("$$") or _LABELLED_CLOSE.search(line)]


_LABELLED_CLOSE = re.compile(r"\$\$\s*\([^()$]*\)\s*$")


@lru_cache(maxsize=1)
def _markdown() -> Any:
    from markdown_it import MarkdownIt
    from mdit_py_plugins.amsmath import amsmath_plugin
    from mdit_py_plugins.dollarmath import dollarmath_plugin
    from mdit_py_plugins.front_matter import front_matter_plugin

    # (front matter: Jekyll's, Hugo's and Obsidian's "---⏎title: …⏎---" header is metadata;
    # read as Markdown, its last line became a heading over the first derivation)
    md = (MarkdownIt("commonmark", {"html": True})
          .use(front_matter_plugin)
          .use(dollarmath_plugin, allow_labels=True, allow_space=True, allow_digits=True,
               double_inline=True)
          .use(amsmath_plugin)
          .enable("table"))
    # "Now, we have⏎$$⏎\begin{align*}…": MathJax shows a display there, after Markdown has
    # run; as a block that cannot interrupt a paragraph, its "- x_i x_j" rows became a list
    block = next(r for r in md.block.ruler.__rules__ if r.name == "math_block").fn

    def bounded(state: Any, start: int, end: int, silent: bool) -> bool:
        # the plugin searches its closing "$$" line by line, to the end of the file when no
        # blank line stops it: asked at every line, that is quadratic — so it is told where
        # the next line that can close a display is (none: only the line itself can)
        at = state.bMarks[start] + state.tShift[start]
        if not state.src.startswith("$$", at):
            return False  # (the plugin's own first test, before any search)
        closes = _closing_lines(state.src)
        k = bisect.bisect_right(closes, start)
        limit = min(end, closes[k] + 1 if k < len(closes) else start + 1)
        if not silent:
            return bool(block(state, start, limit, silent))
        # asked only whether a display would end the paragraph: the plugin's rule writes
        # its tokens even then, so what it wrote (and where it moved the line) is taken back
        tokens, line = len(state.tokens), state.line
        found = bool(block(state, start, limit, silent))
        del state.tokens[tokens:]
        state.line = line
        return found

    md.block.ruler.at("math_block", bounded, {"alt": ["paragraph", "reference",
                                                      "blockquote", "list"]})
    return md


_BRACKETS = re.compile(r"\\+[\[\]()]")


#: Hexo's tag plugin: {% mathjax %} … {% endmathjax %}.
_HEXO_OPEN = re.compile(r"\{%\s*mathjax\b[^%\n]*%\}")
_HEXO_CLOSE = re.compile(r"\{%\s*endmathjax\s*%\}")
#: Hugo's math shortcodes: {{< texd `…` >}}, {{< katex >}}…{{< /katex >}}, {{< math >}}….
_HUGO_OPEN = re.compile(r"\{\{<\s*(?:texd|tex|katex|math|mathjax)\b[^`>\n]*`|"
                        r"\{\{<\s*(?:katex|math|mathjax)\b[^>\n]*>\}\}")
_HUGO_CLOSE = re.compile(r"`\s*>\}\}|\{\{<\s*/\s*(?:katex|math|mathjax)\s*>\}\}")
#: A formula in backticks, `$$…$$` or `$…$`, as some Hugo and Hexo themes want it (the code
#: span keeps Markdown off the TeX; MathJax then reads what the page shows in it).
_TICKED_OPEN = re.compile(r"`\$\$")
_TICKED_CLOSE = re.compile(r"\$\$`")
_TICKED_INLINE = re.compile(r"`(\$[^$`\n]+\$)`")


def _pairs(text: str, opener: re.Pattern[str], closer: re.Pattern[str]
           ) -> list[tuple[re.Match[str], re.Match[str]]]:
    """Each opener with the first closer after it, in one pass (an opener never closed is
    left alone: searching on from every one of them to the end of the file is quadratic)."""
    marks = sorted([(m.start(), 0, m) for m in opener.finditer(text)] +
                   [(m.start(), 1, m) for m in closer.finditer(text)], key=lambda t: t[:2])
    out, pending, end = [], None, -1
    for at, kind, m in marks:
        if at < end:
            continue  # inside the last closer
        if kind == 0:
            pending = m
        elif pending is not None and at >= pending.end():
            out.append((pending, m))
            pending, end = None, m.end()
    return out


def _as_math(text: str, pairs: list[tuple[re.Match[str], re.Match[str]]],
             environments: bool = True) -> str:
    """Each (opener, closer) as $$ … $$ (over lines, or with ``environments`` around an
    environment) or $ … $, padded to their lengths with spaces (offsets stay)."""
    out = list(text)
    for o, c in pairs:
        body = text[o.end():c.start()]
        mark = "$$" if "\n" in body or (environments and "\\begin" in body) else "$"
        out[o.start():o.end()] = mark + " " * (o.end() - o.start() - len(mark))
        out[c.start():c.end()] = mark + " " * (c.end() - c.start() - len(mark))
    return "".join(out)


def _unticked(text: str) -> str:
    """`$$…$$` and `$…$` without their backticks (spaces in their place)."""
    out = list(text)
    for o, c in _pairs(text, _TICKED_OPEN, _TICKED_CLOSE):
        out[o.start()] = " "
        out[c.end() - 1] = " "
    text = "".join(out)
    return _TICKED_INLINE.sub(lambda m: " " + m.group(1) + " ", text)


#: GitHub's inline math, $`…`$ (the backticks keep Markdown off the TeX); it may run over
#: lines, not over a blank one.
_GITHUB_INLINE = re.compile(r"(?<!\$)\$`((?:[^`\n]|\n(?![ \t]*\n))+)`\$(?!\$)")
#: MkDocs' admonitions and content tabs (!!! note, ??? success, ???+ tip, === "Tab"): their
#: body is the lines below, indented four spaces — a code block to CommonMark.
_ADMONITION = re.compile(r"^([ \t]*)(!!!|\?\?\?\+?|===)(?=[ \t])", re.MULTILINE)


def _containers(text: str) -> str:
    """MkDocs admonitions as list items, so that their indented body is read as Markdown the
    way MkDocs renders it (a display in the box is math, not code), and GitHub's $`…`$ as
    $…$ — same lengths, so every offset stays."""
    if "!!!" in text or "???" in text or "===" in text:
        # "- ?" and "- ??" keep the lengths and start the item's text one space after its
        # marker, so the body four spaces in is inside the item (not code)
        text = _ADMONITION.sub(lambda m: m.group(1) + "- " + "?" * (len(m.group(2)) - 2), text)
    if "$`" in text:
        text = _GITHUB_INLINE.sub(_github_math, text)
    return text


def _github_math(m: re.Match[str]) -> str:
    """$`…`$ as $…$ — or as $$…$$ where it stands on lines of its own (the way a note lays
    out a derivation with GitHub's math: a paragraph of it, rendered as a block)."""
    text, a, b = m.string, m.start(), m.end()
    alone = not text[text.rfind("\n", 0, a) + 1:a].strip() and \
        not text[b:(text.find("\n", b) + 1 or len(text) + 1) - 1].strip()
    if alone:
        return "$$" + m.group(1) + "$$"
    return " $" + m.group(1) + "$ "


def _mathjax_delimiters(text: str) -> str:
    """``\\[ \\]`` → ``$$ $$`` and ``\\( \\)`` → ``$ `` `` $`` (same length: offsets stay).

    A bracket preceded by an even number of backslashes is not a delimiter (``\\\\[2pt]``
    is a row break with a skip).  Pairs are matched left to right: an opener waits for its
    closer, so ``\\]`` alone is left alone.
    """
    if "endmathjax" in text:  # (a Hexo tag's kind is its lines: one line is inline math)
        text = _as_math(text, _pairs(text, _HEXO_OPEN, _HEXO_CLOSE), environments=False)
    text = _as_math(text, _pairs(text, _HUGO_OPEN, _HUGO_CLOSE)) if "{{<" in text else text
    text = _unticked(text) if "`$" in text else text
    out = list(text)
    want: str | None = None
    # \\[ … \\] written for Markdown, which turns \\ into \ before MathJax reads \[:
    # taken as delimiters only in a file with no $$ display (inside $$ … $$, \\[2pt] is a
    # row break with a skip)
    escaped = "$$" not in text and re.search(r"(?<!\\)\\\\[\[(]", text) is not None
    # (inside an HTML comment MathJax sees nothing: a \[ there opens no display)
    comments = _comment_spans(text, 0, len(text))
    starts = [a for a, _ in comments]
    for m in _BRACKETS.finditer(text):
        k = bisect.bisect_right(starts, m.start()) - 1  # (the comment begun last before it)
        if k >= 0 and m.start() < comments[k][1]:
            continue
        run = len(m.group(0)) - 1
        if run % 2 == 0 and not (run == 2 and escaped):
            continue
        width = 3 if run % 2 == 0 else 2  # \\[ (escaped for Markdown) or \[, as written
        c, at = m.group(0)[-1], m.end() - width
        if width == 2 and c == "[" and at > 0 and not text[at - 1].isspace() and \
                text[at - 1] not in ">*$(":
            continue  # Var\[XY\] inside $…$: Markdown's escaped bracket, not MathJax's display
        if want is None and c == "[" and re.match(r"\[[^\]\n]*\]\(", text[m.end():m.end() + 300]):
            continue  # \[[paper](https://…)\] (GitBook): a link in escaped brackets, not math
        if want is None and c in "[(":
            want = "]" if c == "[" else ")"
            out[at:at + width] = ("$$" if c == "[" else "$").ljust(width)
        elif want == c:
            out[at:at + width] = ("$$" if c == "]" else "$").rjust(width)
            want = None
    text = _hide_text_dollars("".join(out))
    # "$$⏎\begin{align}": amsmath would cut the paragraph at \begin and leave the $$
    # unclosed; MathJax reads one display.  Joining the two lines keeps every offset.
    return _OPENER_BEFORE_ENV.sub(lambda m: m.group(1) + " " * len(m.group(2)), text)


#: What a ``$`` inside ``\text{…}`` becomes while Markdown is parsed (one character, so
#: offsets stay): ``\text{if $i = j$}`` is math in text in math, not the display's end.
#: The lexer turns it back into ``$``.
TEXT_DOLLAR = "\ue024"
_TEXT_MACRO = re.compile(r"\\(?:text|mbox|textrm|textit|textbf|textup|hbox)\s*\{")


def _hide_text_dollars(text: str) -> str:
    if "$" not in text or "\\" not in text:
        return text
    out = list(text)
    for m in _TEXT_MACRO.finditer(text):
        depth, k = 1, m.end()
        stop = min(len(text), k + 400)  # a \text{ never closed is not searched to the end
        while k < stop and depth:
            c = text[k]
            depth += (c == "{") - (c == "}")
            k += 1
        if depth == 0:
            for n in range(m.end(), k - 1):
                if out[n] == "$":
                    out[n] = TEXT_DOLLAR
    return "".join(out)


_OPENER_BEFORE_ENV = re.compile(r"(\$\$[ \t]*)(\n)(?=[ \t]*\\begin\s*\{)")


def _line_offsets(text: str) -> list[int]:
    return [0] + [m.end() for m in re.finditer("\n", text)]


#: More "$$" than this in one file is not a lecture note (verify checks at most 1,000 steps
#: a file): it is refused at the first one too many, before Markdown parses 10⁵ blocks.
MAX_DISPLAY_DELIMITERS = 10_000


#: More lines than this is not a lecture note either (notes have a few thousand): Markdown
#: costs 15–20 µs a line, and one paragraph of 83,000 short lines (`{{< texd `a`, 1 MB)
#: took 1.6 s to parse on the 2-core machine — too close to the 2 s a 1 MB scan may take.
MAX_MARKDOWN_LINES = 50_000


def _not_a_note(text: str) -> Problem | None:
    """The place where a Markdown file stops being one a note could be (None: it is one)."""
    if text.count("\n") > MAX_MARKDOWN_LINES:
        at = -1
        for _ in range(MAX_MARKDOWN_LINES):
            at = text.find("\n", at + 1)
        return Problem(at + 1, f"more than {MAX_MARKDOWN_LINES:,} lines in one Markdown file: "
                               "not read (split the file)")
    if text.count("$$") <= MAX_DISPLAY_DELIMITERS:
        return None
    at = -2
    for _ in range(MAX_DISPLAY_DELIMITERS + 1):
        at = text.find("$$", at + 2)
    return Problem(at, f"more than {MAX_DISPLAY_DELIMITERS:,} '$$' in one file: not read "
                       "(split the file)")


#: A fence a site renders as a theorem box or an admonition, its content Markdown with math:
#: ```lemma[Title], ```proof, ```{prf:theorem}, ```{note}, ```admonition.
_THEOREM_FENCE = re.compile(
    r"^(?P<indent>[ \t]{0,3})(?P<fence>`{3,}|~{3,})[ \t]*\{?(?:prf:)?(?P<word>lemma|theorem|proof|"
    r"proposition|corollary|remark|definition|example|exercise|solution|claim|observation|"
    r"note|tip|hint|info|important|warning|caution|attention|danger|seealso|admonition)\b"
    r"[^\n`]*$", re.IGNORECASE | re.MULTILINE)


def _theorem_fences(text: str) -> str:
    r"""The fence lines of theorem and admonition fences (```lemma[…] … ```) blanked, offsets
    kept: their content is the note's Markdown — its $$ … $$ displays are read — where
    a fence of code (```python) stays code.

    >>> _theorem_fences("```proof\n$$a = b$$\n```\n").replace(" ", ".")
    '........\n$$a.=.b$$\n...\n'
    """
    if "```" not in text and "~~~" not in text:
        return text
    spans: list[tuple[int, int]] = []
    after = 0  # fences are found left to right, each closed before the next opens
    for m in _THEOREM_FENCE.finditer(text):
        if m.start() < after:
            continue
        mark = m.group("fence")
        close = re.compile(rf"^[ \t]{{0,3}}{re.escape(mark[0])}{{{len(mark)},}}[ \t]*$",
                           re.MULTILINE).search(text, m.end())
        if close is None:
            break
        after = close.end()
        if "$" in text[m.end():close.start()]:
            spans += [(m.start(), m.end()), (close.start(), close.end())]
    if not spans:
        return text
    parts, at = [], 0  # one pass: the text rebuilt once, however many fences
    for a, b in spans:
        parts += [text[at:a], " " * (b - a)]
        at = b
    return "".join(parts + [text[at:]])


#: A display's closing "$$" with the sentence's punctuation (or a stray quote) after it.
_CLOSE_THEN_MARK = re.compile(r"(?<=\$\$)[ \t]*[.,;:!?\"'”’，。；：！？、]+[ \t]*$", re.MULTILINE)


def _marks_after_closing(text: str) -> str:
    """"… \\end{bmatrix}⏎$$." and "$$\"": MathJax closes the display at the "$$"; the
    Markdown plugin only at a line that ends in it — and with blank lines allowed inside a
    display, one unclosed display took every later pair of "$$" out of step.  The marks
    become spaces (same offsets)."""
    if "$$" not in text:
        return text
    return _CLOSE_THEN_MARK.sub(lambda m: " " * len(m.group(0)), text)


def _scan_markdown(source: Source) -> list[Event]:
    # anchors are searched in the prepared text: same offsets, same delimiters as the tokens
    text = _theorem_fences(_mathjax_delimiters(_containers(_marks_after_closing(source.text))))
    too_many = _not_a_note(text)
    if too_many is not None:
        return [too_many]
    lines = _line_offsets(text)
    tokens = _markdown().parse(text)
    events: list[Event] = []

    def region(tok: Any) -> tuple[int, int]:
        a, b = tok.map
        return lines[a], (lines[b] if b < len(lines) else len(text))

    # kramdown (Jekyll) writes display math in <script type="math/tex; mode=display"> and
    # uses $$…$$ inside a paragraph for inline math
    kramdown = bool(_SCRIPT.search(text))
    heading = 0
    for n, tok in enumerate(tokens):
        if tok.type == "heading_open":
            heading = int(tok.tag[1:])
            continue
        if tok.map is None:
            continue
        lo, hi = region(tok)
        if tok.type in ("math_block", "math_block_label", "amsmath"):
            content = tok.content
            if tok.type == "amsmath":  # the environment itself is the math
                content = content.rstrip("\n")
            start, anchors = _anchor(content, text, lo, hi)
            whole = Math(start, content, anchors, display=True)
            # "$$a = b$$ $$= c$$" or "$$ x = 1 $$ and $$ y = 2 $$" on one line: two
            # displays, as MathJax shows them (the words between are prose)
            cut = 0
            for m in re.finditer(r"\$\$[^$\\=^_{}&]{0,40}\$\$", content):
                events.append(_part(whole, cut, m.start()))
                cut = m.end()
            events.append(_part(whole, cut, len(content)) if cut else whole)
        elif tok.type == "fence" and tok.info.strip().lower() in ("math", "latex", "tex"):
            body_lo = lines[tok.map[0] + 1] if tok.map[0] + 1 < len(lines) else hi
            start, anchors = _anchor(tok.content, text, body_lo, hi)
            if tok.info.strip().lower() == "math":  # ```latex is code that shows LaTeX
                events.append(Math(start, tok.content, anchors, display=True))
        elif tok.type == "html_block":
            events += _html_comments(tok.content, text, lo, hi)
            events += _scripts(text, lo, hi)
            # <div class="long-math">⏎$$ … $$⏎</div>: Markdown keeps the block as raw HTML,
            # but the page's MathJax still shows the display inside it
            hidden = _comment_spans(text, lo, hi)
            cut = lo
            for m in _HTML_DISPLAY.finditer(text, lo, hi) if "$$" in text[lo:hi] else ():
                if any(a <= m.start() < b for a, b in hidden):
                    continue  # <!-- $$ … $$ -->: commented out, not shown
                start, anchors = _anchor(m.group(1), text, m.start(1), m.end(1))
                events += _html_words(text, cut, m.start())
                events.append(Math(start, m.group(1), anchors, display=True))
                cut = m.end()
            events += _html_words(text, cut, hi)
        elif tok.type == "code_block" and _prose_in_code(tok.content):
            # a paragraph indented by a tab or four spaces (Markdown makes it code) that is
            # words and $…$ math, as the author's own renderer showed it: its words are read
            events.append(Prose(lo, tok.content.strip(), ()))
        elif tok.type == "inline":
            events += _inline(tok, text, lo, hi, heading, kramdown, source.text)
            heading = 0
    return sorted(events, key=_position)


#: A $$ … $$ display inside a raw HTML block.
_HTML_DISPLAY = re.compile(r"(?<!\\)\$\$(.+?)(?<!\\)\$\$", re.DOTALL)


def _comment_spans(text: str, lo: int, hi: int) -> list[tuple[int, int]]:
    """Where ``<!-- … -->`` comments lie in text[lo:hi]; one left open runs to hi (found in one
    pass: a regex retried at every unclosed ``<!--`` would be quadratic)."""
    spans = []
    at = text.find("<!--", lo, hi)
    while at >= 0:
        end = text.find("-->", at + 4, hi)
        if end < 0:
            spans.append((at, hi))
            break
        spans.append((at, end + 3))
        at = text.find("<!--", end + 3, hi)
    return spans


def _prose_in_code(content: str) -> bool:
    """Whether an indented code block is really a paragraph: inline $…$ math and words
    (Chinese, or several English words), none of a program's punctuation outside the math."""
    outside = re.sub(r"\$[^$\n]+\$", " ", content)
    if "$" not in content or re.search(r"[;{}=<>]|\bdef\b|\bimport\b|\breturn\b", outside):
        return False
    return bool(re.search(r"[\u4e00-\u9fff]{2}", outside) or
                len(re.findall(r"[A-Za-z]{2,}", outside)) >= 4)


#: What may follow a display on its line: closing $$, punctuation, spaces.
_AFTER_DISPLAY = re.compile(r"[\s$.,，。:：;；!！?？)）*_]*")  # (**$$…$$**: bold closed)
#: A remark in parentheses after a $$…$$ that opens its line, to the line's end.
_REMARK_AFTER = re.compile(r"\s*[（(][^\n]{0,200}[）)]\s*[.,，。]?\s*")
#: What follows a $$…$$ said after a colon when it is the sentence's display: the next
#: sentence, or the reason for it ("…we get: $$Var(α) = d_k,$$ since $$…$$").
_NEW_SENTENCE = re.compile(r"[\s.,;]*(?:$|[A-Z]|(?:since|because|where|as)\b)")


def _opens_its_line(content: str) -> bool:
    r"""``…得到：$$⏎\text{Var}(QK^T) = …$$由于 …`` (Obsidian, Typora): a $$ that ends its line
    (or opens an environment of rows) opens a display, whatever words touch its closing $$.

    >>> _opens_its_line("\na = b\n"), _opens_its_line("y_i = 1")
    (True, False)
    """
    return re.match(r"[ \t]*(\r?\n|\\begin\s*\{)", content) is not None and content.strip() != ""


def _own_line(raw: str, lo: int, hi: int, newlines: Sequence[int] | None = None,
              before: int = -1) -> bool:
    r"""Whether the $$…$$ around raw[lo:hi] stands on its own line(s) — a display — or sits
    inside a sentence ("则$$y_i=1$$,其余的$$j \neq i$$都有$$y_j=0$$"), where kramdown and the
    blogs written for it mean inline math: a premise of the sentence, not a step to judge.
    Running to the end of its line after words ("Let $$p_i = …$$", "gives: $$…$$") it is
    the display MathJax shows — unless another $$…$$, ending at ``before``, stands before it
    on that line.  ``newlines`` (the offsets of raw's line breaks) keeps a paragraph of many
    displays linear: nothing is sliced or searched back.

    >>> _own_line("x\n$$a=b$$\ny", 4, 7), _own_line("then $$a=b$$, so", 7, 10)
    (True, False)
    >>> _own_line("gives: $$a=b$$", 9, 12), _own_line("则$$y=1$$,有$$y_j=0$$。", 12, 17, before=7)
    (True, False)
    >>> _own_line("$$x$$ is: $$a=b$$ We know", 12, 15, before=5)
    True
    >>> _own_line("$$a=b$$（因为独立）", 2, 5), _own_line("$$a=b$$ (we know) more", 2, 5)
    (True, False)
    """
    if newlines is None:
        newlines = [m.start() for m in re.finditer("\n", raw)]
    k = bisect.bisect_left(newlines, lo)
    start = newlines[k - 1] + 1 if k else 0
    end = newlines[bisect.bisect_left(newlines, hi)] if bisect.bisect_left(
        newlines, hi) < len(newlines) else len(raw)
    if raw[start:max(start, lo - 2)].rstrip().endswith(":") and \
            _NEW_SENTENCE.match(raw, min(hi + 2, end), end):
        return True  # "…the attention score is: $$α = Σ_n q_n k_n$$ We know that …" (Math.SE)
    if before > start:
        return False
    if not raw[start:max(start, lo - 2)].strip() and \
            _REMARK_AFTER.fullmatch(raw, min(hi + 2, end), end):
        return True  # "$$Var(Q·Kᵀ) = d$$（因為獨立隨機變數的方差相加）": its line, and a remark
    m = _AFTER_DISPLAY.match(raw, hi, end)
    return m is not None and m.end() == end


def _part(m: Math, a: int, b: int) -> Math:
    """The display m.text[a:b] of a block that holds several."""
    anchors = tuple((i - a, m.offset(a) + (i - a)) for i, _ in [(a, 0)])
    return Math(m.offset(a), m.text[a:b], anchors, display=True)


def _position(e: Event) -> int:
    return e.start


_TAG = re.compile(r"<!--.*?(?:-->|\Z)|<(script|style)\b.*?(?:</\1\s*>|\Z)|<[^<>]*>",
                  re.DOTALL | re.IGNORECASE)


#: Inline math in an HTML block's text: $…$ (from \(…\)), never $$.
_HTML_INLINE = re.compile(r"(?<![\\$])\$([^$\n]{1,400}?)(?<!\\)\$(?!\$)")


def _html_words(text: str, lo: int, hi: int) -> list[Event]:
    r"""The words of an HTML block (<div class="definition">… one-hot on the true class $c$
    …</div>): the page shows them as prose, so their assumptions count — and its inline math
    (<p>… \(S = q \cdot k\) …</p>) as inline math, so its definitions count."""
    words = " ".join(_TAG.sub(" ", text[lo:hi]).split())
    if len(re.findall(r"\w", words)) < 3:
        return []
    out: list[Event] = [Prose(lo, words, ())]
    for m in _HTML_INLINE.finditer(text, lo, hi) if "$" in text[lo:hi] else ():
        start, anchors = _anchor(m.group(1), text, m.start(1), m.end(1))
        out.append(Math(start, m.group(1), anchors, display=False))
    return out


def _html_comments(content: str, text: str, lo: int, hi: int) -> list[Event]:
    out: list[Event] = []
    for m in re.finditer(r"<!--(.*?)(-->|\Z)", content, re.DOTALL):
        at = text.find(m.group(0)[:40], lo, hi)
        at = lo if at < 0 else at
        if not m.group(2):
            out.append(Problem(at, "'<!--' comment is never closed; expected '-->'"))
        out += _directives(m.group(1), at + 4)
    return out


_SCRIPT = re.compile(r"<script\s+type\s*=\s*[\"']math/tex(?P<mode>\s*;\s*mode\s*=\s*display)?"
                     r"[\"']\s*>(?P<body>.*?)</script>", re.DOTALL | re.IGNORECASE)


def _scripts(text: str, lo: int, hi: int) -> list[Event]:
    """MathJax's <script type="math/tex; mode=display"> blocks in text[lo:hi] (kramdown)."""
    return [Math(m.start("body"), m.group("body"), display=bool(m.group("mode")))
            for m in _SCRIPT.finditer(text, lo, hi)]


def _inline(tok: Any, text: str, lo: int, hi: int, heading: int,
            kramdown: bool = False, written: str = "") -> list[Event]:
    """A paragraph (or heading, list item, table cell): its math, comments and prose.
    ``written`` is the file as written: a ``$$`` that was ``\\[`` there is MathJax's display,
    wherever in its line it stands."""
    raw: str = tok.content
    start, anchors = _anchor(raw, text, lo, hi)
    where = _Anchored(start, raw, anchors)
    out: list[Event] = []
    cursor = 0
    newlines = [m.start() for m in re.finditer("\n", raw)]
    previous = -1  # where the last math of this paragraph ended
    for child in tok.children or ():
        if child.type in ("math_inline", "math_inline_double"):
            at = raw.find(child.content, cursor)
            if at < 0:
                continue
            cursor = at + len(child.content)
            sub = _sub_anchors(where, at, child.content)
            # a paragraph that is this math alone (an inline derivation's line): only a
            # paragraph barely longer than the math can be (keeps a paragraph of many $…$ linear)
            alone = len(raw) <= len(child.content) + 16 and re.fullmatch(
                r"\s*\$+\s*" + re.escape(child.content.strip()) + r"\s*\$+[\s.,，。]*",
                raw) is not None
            opened = where.offset(at) - 2
            bracket = 0 <= opened < len(written) and written[opened] == "\\"
            out.append(Math(where.offset(at), child.content, sub,
                            display=child.type == "math_inline_double" and not kramdown
                            and (bracket or _own_line(raw, at, at + len(child.content),
                                                      newlines, previous)
                                 or _opens_its_line(child.content)),
                            alone=alone))
            if child.type == "math_inline_double":
                # (only another $$…$$ before it on its line makes it inline: "**Case $i=j$:**
                # $$…$$" is a display after a label that holds a little math of its own)
                previous = cursor
        elif child.type == "html_inline":
            at = raw.find(child.content, cursor)
            if at >= 0:
                cursor = at + len(child.content)
                if child.content.startswith("<!--"):
                    out += _directives(child.content[4:], where.offset(at + 4))
                elif child.content.lower().startswith("<script"):
                    off = where.offset(at)
                    out += _scripts(text, off, min(hi, off + len(raw) + 1))
        elif child.type == "code_inline":
            # Markdown turns a code span's line breaks into spaces: its text may not be found
            # as written, and a search to the paragraph's end for each span is quadratic
            at = raw.find(child.content, cursor, cursor + _CODE_WINDOW + 2 * len(child.content))
            cursor = at + len(child.content) if at >= 0 else cursor
        elif child.type == "text" and "$$" in child.content:
            at = raw.find("$$", cursor)
            if at >= 0:
                out.append(Problem(where.offset(at),
                                   "display math opened by '$$' is never closed; expected '$$'"))
    if not heading and ("{%" in raw or "{{<" in raw):
        out = sorted(out + _shortcodes(raw, where), key=lambda e: e.start)
    if not heading and "\\begin" in raw:
        taken = [(m.start, m.start + len(m.text)) for m in out if isinstance(m, Math)]
        out = sorted(out + [m for m in _bare_environments(raw, where)
                            if not any(a <= m.start < b for a, b in taken)],
                     key=lambda e: e.start)
    if heading:  # "### 1\. Softmax": Markdown's escapes go (math keeps its backslashes)
        from markdown_it.common.utils import unescapeAll

        title = "".join(part if n % 2 else unescapeAll(part)
                        for n, part in enumerate(re.split(r"(\$+[^$]*\$+)", raw)))
        out.append(Heading(start, title, anchors, level=heading))
    elif raw.strip():
        out.append(Prose(start, raw, anchors))
    return out


#: Static-site shortcodes for display math: Zola's {% katex(block=true) %} … {% end %},
#: Hugo's {{< katex display >}} … {{< /katex >}} (and {{< math >}}): opener, its closer.
_SHORTCODE_OPEN = re.compile(r"\{%\s*katex\s*\(\s*block\s*=\s*true\s*\)\s*%\}|"
                             r"\{\{<\s*(?P<name>katex|math)\s+display\s*>\}\}")
_SHORTCODE_CLOSE = {None: re.compile(r"\{%\s*end\s*%\}"),
                    "katex": re.compile(r"\{\{<\s*/katex\s*>\}\}"),
                    "math": re.compile(r"\{\{<\s*/math\s*>\}\}")}


def _shortcodes(raw: str, where: _Anchored) -> list[Event]:
    r"""Display math written in a static-site shortcode inside a paragraph (Markdown leaves its
    text as written).  Each opener is closed by the next closer (one pass: an opener never
    closed ends the search, so unclosed openers cost no rescans)."""
    out: list[Event] = []
    at = 0
    while True:
        m = _SHORTCODE_OPEN.search(raw, at)
        if m is None:
            return out
        end = _SHORTCODE_CLOSE[m.group("name")].search(raw, m.end())
        if end is None:
            return out
        body = raw[m.end():end.start()]
        out.append(Math(where.offset(m.end()), body, _sub_anchors(where, m.end(), body),
                        display=True))
        at = end.end()


_BARE_ENV = re.compile(r"\\begin\s*\{(?P<env>(?:equation|align|gather|multline|eqnarray|flalign|"
                       r"split)\*?)\}")


def _bare_environments(raw: str, where: _Anchored) -> list[Event]:
    """``as: \\begin{align*} … \\end{align*} in accordance with …``: an environment inside a
    paragraph, outside any $…$, which MathJax shows as a display (Math.SE, MathJax blogs) —
    one without a $ of its own, whose rows Markdown has left as written."""
    out: list[Event] = []
    taken = 0  # where the last environment read ended
    dollars, counted = 0, 0  # the $ before the match (counted once: linear in the paragraph)
    for m in _BARE_ENV.finditer(raw):
        dollars += raw.count("$", counted, m.start())
        counted = m.start()
        k = m.start() - 1
        while k >= 0 and raw[k].isspace():
            k -= 1
        if dollars % 2 or (k >= 0 and raw[k] == "$") or m.start() < taken:
            continue  # inside $…$ or right after $$: dollarmath's already
        end = raw.find(f"\\end{{{m.group('env')}}}", m.end())
        if end < 0 and "$" not in raw[m.start():]:
            # a page stored cut off ("… = y_i - t_i \end{spli"): its rows are not guessed at
            out.append(Problem(where.offset(m.start()), f"\\begin{{{m.group('env')}}} is never "
                               f"closed; expected \\end{{{m.group('env')}}}"))
            break
        if end < 0 or "$" in raw[m.start():end]:
            continue
        stop = end + len(m.group("env")) + 6
        body = raw[m.start():stop]
        out.append(Math(where.offset(m.start()), body, _sub_anchors(where, m.start(), body),
                        display=True))
        taken = stop
    return out


#: How far past the last math a code span is looked for (words between them included).
_CODE_WINDOW = 4096


def _sub_anchors(where: _Anchored, at: int, content: str) -> tuple[tuple[int, int], ...]:
    """Anchors of ``content``, which starts at index ``at`` of ``where``'s text."""
    out = [(0, where.offset(at))]
    i = 0
    for line in content.split("\n")[:-1]:
        i += len(line) + 1
        out.append((i, where.offset(at + i)))
    return tuple(out)


# ---- LaTeX ------------------------------------------------------------------------------

#: Environments whose body is display math.
MATH_ENVS = ("equation", "align", "gather", "multline", "eqnarray", "flalign", "alignat",
             "displaymath", "math", "dmath")
#: Environments whose body is never math (code shown in the notes).
_VERBATIM = ("verbatim", "lstlisting", "minted", "comment", "Verbatim")
_TEX_TOKEN = re.compile(
    r"\\begin\s*\{(?P<begin>[a-zA-Z]+\*?)\}|\\end\s*\{(?P<end>[a-zA-Z]+\*?)\}"
    r"|(?P<dd>\$\$)|(?P<d>\$)|\\(?P<br>[\[\]()])|(?P<esc>\\[\\$%])"
    r"|\\(?P<section>(?:sub)*section|chapter|paragraph|title)\*?\s*\{(?P<stitle>[^{}\n]*)\}"
    r"|(?P<blank>\n[ \t]*\n)"
)


def _tex_comments(text: str) -> list[tuple[int, int]]:
    """Spans of % comments (to the end of the line); \\% is a percent sign, not a comment."""
    spans: list[tuple[int, int]] = []
    for m in re.finditer(r"\\.|%", text):
        if m.group(0) == "%":
            end = text.find("\n", m.start())
            spans.append((m.start(), len(text) if end < 0 else end))
    # a % inside an earlier comment is part of that comment
    out: list[tuple[int, int]] = []
    for a, b in spans:
        if out and a < out[-1][1]:
            continue
        out.append((a, b))
    return out


def _blank(text: str, spans: list[tuple[int, int]]) -> str:
    """text with every span replaced by spaces, newlines kept (offsets stay exact); linear."""
    out: list[str] = []
    pos = 0
    for a, b in sorted(spans):
        a = max(a, pos)
        if b <= a:
            continue
        out += [text[pos:a], re.sub(r"[^\n]", " ", text[a:b])]
        pos = b
    out.append(text[pos:])
    return "".join(out)


def _scan_tex(source: Source) -> list[Event]:
    raw = source.text
    comments = _tex_comments(raw)
    events: list[Event] = []
    for a, b in comments:
        events += _directives(raw[a + 1:b], a + 1)
    text = _blank(raw, comments)
    toks = list(_TEX_TOKEN.finditer(text))
    # where each closer kind occurs, for matching an opener by bisection (linear overall)
    closers: dict[str, list[int]] = {}
    for n, m in enumerate(toks):
        key = _closer_key(m)
        if key:
            closers.setdefault(key, []).append(n)
    blanks = [m.start() for m in toks if m.group("blank")]

    def find_closer(key: str, after: int) -> int | None:
        pos = closers.get(key, [])
        k = bisect_right(pos, after)
        return pos[k] if k < len(pos) else None

    n, prose_from = 0, 0
    unclosed: set[str] = set()
    while n < len(toks):
        m = toks[n]
        opener = _opener(m)
        if m.group("section"):
            events.append(Heading(m.start("stitle"), m.group("stitle"),
                                  level=2 if "sub" in m.group("section") else 1))
        if opener is None:
            n += 1
            continue
        key, display, body_start = opener
        close = find_closer(key, n)
        if key == "$" and close is not None:  # inline $…$ does not cross a blank line
            k = bisect_left(blanks, m.end())
            if k < len(blanks) and blanks[k] < toks[close].start():
                close = None
        if close is None:
            if key != "$" and key not in unclosed:  # the first of a kind says it all
                unclosed.add(key)
                events.append(Problem(m.start(), f"math opened by {m.group(0)!r} is never "
                                      f"closed; expected {_closer_text(key)!r}"))
            n += 1
            continue
        body_end = toks[close].start()
        if key.startswith("end:") and key[4:].rstrip("*") in _VERBATIM:
            pass  # code shown in the notes: not math, not prose
        else:
            events += _tex_prose(text, prose_from, m.start())
            start = body_start
            body = text[body_start:body_end]
            if key.startswith("end:"):  # keep the environment: rows need its name
                start, body = m.start(), text[m.start():toks[close].end()]
            events.append(Math(start, body, display=display))
        prose_from = toks[close].end()
        n = close + 1
    events += _tex_prose(text, prose_from, len(text))
    return sorted(events, key=_position)


def _tex_prose(text: str, a: int, b: int) -> Iterator[Prose]:
    """Paragraphs of text[a:b] (prose between math), split at blank lines."""
    pos = a
    for para in re.split(r"\n[ \t]*\n", text[a:b]):
        if para.strip():
            lead = len(para) - len(para.lstrip())
            yield Prose(pos + lead, para.strip())
        pos += len(para) + 2


def _opener(m: re.Match[str]) -> tuple[str, bool, int] | None:
    """(closer key, display?, where the body starts) for a token that opens math."""
    if m.group("begin"):
        env = m.group("begin")
        if env.rstrip("*") in MATH_ENVS or env.rstrip("*") in _VERBATIM:
            return f"end:{env}", env.rstrip("*") != "math", m.end()
        return None
    if m.group("dd"):
        return "$$", True, m.end()
    if m.group("d"):
        return "$", False, m.end()
    if m.group("br") in ("[", "("):
        return ("\\]" if m.group("br") == "[" else "\\)"), m.group("br") == "[", m.end()
    return None


def _closer_key(m: re.Match[str]) -> str | None:
    if m.group("end"):
        return f"end:{m.group('end')}"
    if m.group("dd"):
        return "$$"
    if m.group("d"):
        return "$"
    if m.group("br") in ("]", ")"):
        return "\\" + m.group("br")
    return None


def _closer_text(key: str) -> str:
    return f"\\end{{{key[4:]}}}" if key.startswith("end:") else key


def scan(source: Source, fmt: Format) -> list[Event]:
    """Math, prose, headings, directives and problems of the file, in the order they appear."""
    return _scan_markdown(source) if fmt == "md" else _scan_tex(source)
