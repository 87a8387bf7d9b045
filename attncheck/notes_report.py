r"""``attncheck verify --latex``: the chains a note's check found, as the note wrote them.

A compilable article (or a fragment, or MathJax for a notebook) whose rows are the note's own
LaTeX, each step with its ✓/✗ and its rule — the rows of ``attncheck slides --from``, set by
the deck's row macros.  It sits above :mod:`attncheck.verify` and the decks, and registers
itself as the "latex" and "notebook" renderers of :class:`attncheck.verify.VerifyResult`
when imported (the command line imports it for ``verify``; in a notebook,
``import attncheck.notes_report`` turns the HTML table into these rows).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from attncheck.notes_deck import (
    CJK_FALLBACK,
    ROW_MACROS,
    Note,
    assumption_items,
    chain_lines,
    problem_items,
)
from attncheck.notetex import has_cjk, text_source, unmarked
from attncheck.slides import chain_from_notes, deck_texts
from attncheck.tex import COLORS
from attncheck.verify.errors import VerifyError
from attncheck.verify.files import read_source
from attncheck.verify.report import language
from attncheck.verify.result import RENDERERS, DerivationResult, VerifyResult
from derivations.printing import escape

__all__ = ["to_latex"]


#: The report's article: the text a little wider than LaTeX's default, the maths column
#: ``\attnmathshare`` of it, the verdict column the rest (the deck's row macros measure:
#: a row too wide breaks at its + and −, and only what still does not fit is scaled).
_ARTICLE = r"""\usepackage[a4paper,margin=2.2cm]{geometry}
\usepackage{amsmath,amssymb,mathtools,bm,graphicx,xcolor}
\setlength\parindent{0pt}
\setlength\parskip{2pt plus 1pt}"""

#: A deck's \attnbody fits a frame; an article's chain may run over a page: its rows are
#: set one after another, a page break allowed between them.
_ARTICLE_BODY = r"""\makeatletter
\newcommand\attnbody[1]{\par
  \setlength\attn@mathw{\attnmathshare\linewidth}%
  \setlength\attn@notew{\dimexpr\linewidth-\attn@mathw-1em\relax}%
  {\parindent=0pt #1}\par}
\makeatother"""

#: MathJax knows CSS colour names, not the deck's: the marks' colours for a notebook.
_MATHJAX_COLORS = {"{ok}": "{green}", "{bad}": "{red}", "{unread}": "{orange}", "{gray}": "{gray}"}


def _macros() -> list[str]:
    """What the rows need defined: the verdict colours, the deck's row macros, the article's
    body and column share (packages: amsmath, amssymb, mathtools, graphicx, xcolor)."""
    return [COLORS, r"\definecolor{unread}{RGB}{200,110,0}", ROW_MACROS, _ARTICLE_BODY,
            r"\providecommand\attnmathshare{0.6}"]


def _text_of(r: VerifyResult) -> str:
    """The text of the note ``r`` was read from, read again when the file is there ("" for
    a result of :func:`verify_text`, or a file gone since)."""
    if not Path(r.path).is_file():
        return ""
    try:
        return read_source(r.path).text
    except (VerifyError, OSError):
        return ""


def _note_of(r: VerifyResult, text: str) -> Any:
    """The note, with its title and maths commands (none without its text: then the report
    is titled by the file's name)."""
    return Note.of(r, text, "md" if r.format == "md" else "tex") if text else Note(r)


def _chain_heading(t: Any, d: DerivationResult, fmt: str) -> str:
    return text_source(d.title, fmt, formulas=True) if d.title else t.notes("chain", n=d.number)


def _article(r: VerifyResult, lang: str, text: str, standalone: bool) -> str:
    t = deck_texts(lang)
    note = _note_of(r, text)
    fmt = "md" if r.format == "md" else "tex"
    name = escape(Path(r.path).name)
    parts: list[str] = []
    used: set[str] = set()
    assumed = assumption_items(t, note, words=True)
    if assumed:
        parts += [rf"\subsection*{{{t.notes('assumptions')}}}", r"\begin{itemize}", *assumed, r"\end{itemize}"]
    heading = None
    for d in r.derivations:
        if not d.steps:
            continue
        if d.title != heading or heading is None:  # a heading once over its chains
            heading = d.title
            parts.append(rf"\subsection*{{{_chain_heading(t, d, fmt)}}}")
        chain = chain_from_notes(t, d, "")
        rows, _, macros = chain_lines(t, [chain])
        used |= macros
        where = rf"{{\footnotesize\color{{gray}}\texttt{{{name}:{d.location.line}}}\par}}\nopagebreak"
        parts += [where, r"\attnbody{%", *rows, "}", r"\medskip"]
    problems = problem_items(t, note)
    if problems:
        parts += [rf"\subsection*{{{t.notes('problems')}}}", r"{\footnotesize\color{gray}",
                  r"\begin{itemize}", *problems, r"\end{itemize}}"]
    body = "\n".join(parts)
    if not standalone:  # the macros with it, once in a document however many are put in
        # (an argument, not \ifdefined: a skipped branch would count \newif's \if… as open)
        return "\n".join([r"\makeatletter\@ifundefined{attnrow}{%", *_macros(), r"}{}\makeatother", body])
    ok, bad = r"\textcolor{ok}{$\checkmark$}", r"\textcolor{bad}{$\times$}"
    legend = t.notes("legend", ok=ok, bad=bad, definition=r"$\coloneqq$")
    title = note.title or escape(Path(r.path).stem)
    cjk = has_cjk(body) or has_cjk(title)
    head = [r"\documentclass[11pt]{article}"]
    if cjk or lang == "zh":
        head += [r"\usepackage[UTF8]{ctex}" if lang == "zh" else r"\usepackage[scheme=plain]{ctex}",
                 CJK_FALLBACK]
    head += [_ARTICLE, *_macros(), *dict.fromkeys(note.macros)]
    if used:
        head.append(r"\AtBeginDocument{" + "".join(rf"\attnprovide{{{m}}}" for m in sorted(used)) + "}")
    head += [r"\begin{document}",
             rf"{{\Large\bfseries\raggedright {title}\par}}\smallskip",
             rf"{{\small {t.notes('subtitle')}{'：' if lang == 'zh' else ': '}\texttt{{{name}}}\par}}\smallskip",
             rf"{{\footnotesize {legend}\par}}\medskip",
             body, r"\end{document}", ""]
    return "\n".join(head)


def _notebook(r: VerifyResult, lang: str) -> str:
    """Each chain as MathJax displays it: the title on its own line, then the rows in
    ``aligned`` — the note's own LaTeX, the mark and the rule beside each step (MathJax has
    no adjustbox and no measuring: the rows are as the note wrote them)."""
    t = deck_texts(lang)
    fmt = "md" if r.format == "md" else "tex"
    name = re.sub(r"[{}$\\%#&~^]", "", Path(r.path).name)  # MathJax's \text takes no escapes
    parts = []
    for d in r.derivations:
        if not d.steps:
            continue
        chain = chain_from_notes(t, d, "")
        rows = []
        for n, row in enumerate(chain.rows):
            words = t.notes("semicolon").join(w for w in (row.rule, row.says) if w)
            why = rf"\ \text{{{words}}}" if words else ""
            left = unmarked(row.lhs) if n == 0 else ""
            rows.append(rf"{left} &{{}}{row.relation} {unmarked(row.rhs)} &&{row.mark}{why}")
        body = "\\begin{aligned}\n" + " \\\\\n".join(rows) + "\n\\end{aligned}"
        title = _chain_heading(t, d, fmt)
        parts.append(f"$$\\text{{{title} ({name}:{d.location.line})}}\\\\ {body}$$")
    out = "\n\n".join(parts)
    for deck, css in _MATHJAX_COLORS.items():
        out = out.replace(r"\textcolor" + deck, r"\textcolor" + css).replace(r"\color" + deck, r"\color" + css)
    return out


def to_latex(r: VerifyResult, *, standalone: bool = True, notebook: bool = False) -> str:
    r"""The checked chains as the note wrote them, each step with its ✓/✗ and its rule, a
    failing one with what its right side should be; a compilable article when standalone.

    The rows are the note's own LaTeX (:func:`attncheck.slides.chain_from_notes`, as
    ``attncheck slides --from`` shows them) set by the deck's row macros, which measure: a
    row too wide breaks at its own + and −, and only a piece that still does not fit is
    scaled.  The article loads ctex when the text is Chinese (compile with xelatex); what
    the note assumes is said once at the top, in words.  ``notebook``: each chain as
    ``$$…aligned…$$`` for MathJax (no measuring macros there).

    >>> from attncheck.verify.check import verify_text
    >>> r = verify_text("$$ \\mathrm{Var}(q^\\top k) = d_k \\cdot 1 = d_k $$", "n.md", numeric=False)
    >>> rows = [ln for ln in to_latex(r, standalone=False).splitlines() if ln.startswith(r"\attnrow")]
    >>> rows[0][:37], rows[1]
    ('\\attnrow{1}{=}{d_k \\attnbrm \\cdot 1}{', '\\attnrow{}{=}{d_k}{\\attnline{$\\textcolor{ok}{\\checkmark}$\\ simplify}}%')
    """
    text = _text_of(r)
    lang = language(r, text)
    return _notebook(r, lang) if notebook else _article(r, lang, text, standalone)


RENDERERS.update({
    "latex": lambda r: to_latex(r, standalone=False),
    "notebook": lambda r: to_latex(r, standalone=False, notebook=True),
    "latex-document": to_latex,
})
