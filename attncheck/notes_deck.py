r"""Slides from your own notes: ``attncheck slides --from notes.md`` (or ``.tex``, several files).

verify reads and checks the note (symbolically: the verdicts are the engine's, the numeric
evidence adds nothing a slide shows); every chain it found becomes rows of a Beamer deck:

* each row is the note's own LaTeX for the step (:func:`attncheck.slides.chain_from_notes`,
  :mod:`attncheck.notetex`), never re-printed from SymPy; the chain's relations line up
  after its first left side, or under it when that is long (a row broken at the relation);
* one step per overlay (``\uncover``), its rule beside it; a ✓ one overlay after its step
  (a class can guess first), a ✗ — with what the right side should be — from the overlay
  the wrong step first appears on; definitions (≔), assumptions, conditions and the cases
  of a split for what they are; a step verify could not read as written, with ? and why in
  small grey type;
* the assumptions read from the note's words ("read from the text") on a frame of their
  own, and what could not be read at all on the last frame;
* a chain too long for one frame continues on the next ("continued"); a row too wide for
  the slide breaks at its own ``+``/``−`` (the marks :func:`~attncheck.notetex.math_source`
  sets), and only a piece that still does not fit is scaled down — TeX measures, so the deck
  fits whatever the theme and the fonts (the log says ``attncheck: scaled …`` when it had to).

The title is the note's first heading (``#`` in Markdown, ``\title`` or ``\section`` in
LaTeX, a Markdown front matter's ``title:``) unless one is given.  Options
(:class:`DeckSettings`): title, author, date, any installed Beamer theme, the sections to
include, speaker notes (the rule and the hypotheses of every step, ``\note`` with ``show
notes``), a handout without overlays, 16:9 or 4:3, the language of the words.

>>> from attncheck.verify.check import verify_text
>>> r = verify_text("# Mean of the score\n\n$$ E(q_i + k_i) = E(q_i) + E(k_i) $$", "n.md", numeric=False)
>>> tex = deck_source([Note.of(r, "# Mean of the score\n", "md")], DeckSettings())
>>> r"\title{\texorpdfstring{Mean of the score}{Mean of the score}}" in tex
True
>>> [line for line in tex.splitlines() if "attnrow" in line and "E(q_i)" in line][0]
'\\attnrow{1}{=}{E(q_i) \\attnbr + E(k_i)}{\\attnline{\\uncover<2->{$\\textcolor{ok}{\\checkmark}$}\\ linearity of E}}%'
"""

from __future__ import annotations

import re
import shutil
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from attncheck.i18n import Texts
from attncheck.notetex import (
    breakable,
    has_cjk,
    literal,
    math_source,
    plain,
    text_source,
    unmarked,
)
from attncheck.notetex import (
    macros as note_macros,
)
from attncheck.options import ASPECTS
from attncheck.output import OutputDir
from attncheck.slidefit import MATH_SHARE, split_frames
from attncheck.slides import Chain, Row, chain_from_notes, deck_texts
from attncheck.tex import COLORS
from attncheck.verify.blocks import Heading, scan
from attncheck.verify.check import verify
from attncheck.verify.files import Format, Source, guess_format, read_source
from attncheck.verify.result import DerivationResult, VerifyResult
from derivations import DerivationError, Hypothesis
from derivations.printing import escape

__all__ = [
    "ASPECTS",
    "CJK_FALLBACK",
    "ROW_MACROS",
    "STANDARD_THEMES",
    "DeckSettings",
    "Note",
    "NotesDeckError",
    "WrittenDeck",
    "assumption_items",
    "chain_lines",
    "check_settings",
    "deck_file",
    "deck_source",
    "problem_items",
    "read_notes",
    "scaled_notes",
    "theme_installed",
    "write_notes_deck",
]

#: The themes Beamer itself ships: what a deck may use when TeX is not here to ask.
STANDARD_THEMES = frozenset("""default AnnArbor Antibes Bergen Berkeley Berlin Boadilla boxes
    CambridgeUS Copenhagen Darmstadt Dresden EastLansing Frankfurt Goettingen Hannover Ilmenau
    JuanLesPins Luebeck Madrid Malmoe Marburg Montpellier PaloAlto Pittsburgh Rochester Singapore
    Szeged Warsaw""".split())  # noqa: SIM905 — a list of names, as Beamer's manual lists them


class NotesDeckError(DerivationError):
    """A deck cannot be made from these notes: no chain, a selection matching nothing, a
    theme that is not installed."""


@dataclass(frozen=True)
class DeckSettings:
    """What a deck from notes looks like (``attncheck slides --from`` options).

    ``title`` None: the first note's first heading; ``date`` None: the day it is compiled;
    ``sections``: chain numbers (``3``, ``2-5``, as verify numbers them) or words of a
    section's heading (any chain whose heading contains them, case ignored).
    """

    lang: str = "en"
    notation: str | None = None
    dot: str = "cdot"
    title: str | None = None
    author: str = ""
    date: str | None = None
    theme: str = "default"
    sections: tuple[str, ...] = ()
    notes: bool = False
    handout: bool = False
    aspect: str = "169"


@dataclass(frozen=True)
class Note:
    """One note as verify read and checked it, with its title (text-mode LaTeX, "" when it
    has no heading) and the same title as plain text (for the PDF's metadata)."""

    result: VerifyResult
    title: str = ""
    plain_title: str = ""
    front_matter: str = ""  # a Markdown front matter's title: what its "heading" really is
    macros: tuple[str, ...] = ()  # the maths commands it defines, as the deck defines them

    @classmethod
    def of(cls, result: VerifyResult, text: str, fmt: Format) -> Note:
        """The note ``result`` was read from, whose text is ``text``."""
        raw, front = _first_heading(result.path, text, fmt)
        kind = "md" if fmt == "md" else "tex"
        return cls(result, text_source(raw, kind, formulas=True) if raw else "", plain(_no_math(raw), kind),
                   front, tuple(note_macros(text)))


def _no_math(text: str) -> str:
    return re.sub(r"\$+([^$]*)\$+", r"\1", text)


_FRONT = re.compile(r"\A(?:\s*<!--.*?-->)*\s*---[ \t]*\n(.*?)\n\s*---[ \t]*(?:\n|\Z)", re.DOTALL)
_TITLE_FIELD = re.compile(r"^\s*title:[ \t]*(.+?)[ \t]*$", re.MULTILINE)
_TEX_TITLE = re.compile(r"\\title\s*(?:\[[^\]]*\])?\s*\{")
_TEX_SECTION = re.compile(r"\\(?:sub)*section\*?\s*(?:\[[^\]]*\])?\s*\{")


def _braced(text: str, start: int) -> str:
    """The text of the group whose ``{`` is just before ``start`` (to its ``}``)."""
    depth = 1
    for n in range(start, min(len(text), start + 2000)):
        c = text[n]
        if c == "\\":
            continue
        depth += {"{": 1, "}": -1}.get(c, 0) if text[n - 1] != "\\" else 0
        if depth == 0:
            return text[start:n]
    return ""


def _first_heading(path: str, text: str, fmt: Format) -> tuple[str, str]:
    """The note's title as written (its front matter's, ``\\title``, or its first heading of
    the highest level), and a front matter's title ("" when it has none)."""
    if fmt == "md" and (m := _FRONT.match(text)):
        t = _TITLE_FIELD.search(m.group(1))
        front = t.group(1).strip().strip("\"'") if t else ""
        if front:
            return front, front
    if fmt == "tex":
        body = "\n".join(re.sub(r"(?<!\\)%.*", "", line) for line in text.splitlines())
        for pattern in (_TEX_TITLE, _TEX_SECTION):  # \\title, else the first \\section
            if (m := pattern.search(body)) and (title := _braced(body, m.end())).strip():
                return " ".join(title.replace("\\\\", " ").split()), ""
    heads = [e for e in scan(Source(path, text), fmt) if isinstance(e, Heading)]
    if not heads:
        return "", ""
    first = min(heads, key=lambda h: (h.level, h.start)) if fmt == "md" else heads[0]
    return " ".join(first.text.split()), ""


def read_notes(paths: Sequence[str], *, inline: bool = False) -> list[Note]:
    """Read and check each note (symbolically), with its title; a file that cannot be read
    raises :class:`~attncheck.verify.errors.VerifyError`, a note with no chain
    :class:`NotesDeckError` — each naming the file."""
    notes = []
    for path in paths:
        result = verify(path, numeric=False, inline=inline)
        source = read_source(path)
        if not any(d.steps for d in result.derivations):
            why = result.problems[0].text if result.problems else "no chain of relations in its maths"
            raise NotesDeckError(f"{path}: no derivation to make slides from: {why}")
        notes.append(Note.of(result, source.text, guess_format(path)))
    return notes


# -- choosing chains --------------------------------------------------------------------------
_RANGE = re.compile(r"(\d+)(?:\s*[-–]\s*(\d+))?")


def _selected(note: Note, sections: Sequence[str]) -> list[DerivationResult]:
    chains = [d for d in note.result.derivations if d.steps]
    if not sections:
        return chains
    out = []
    for d in chains:
        for item in sections:
            m = _RANGE.fullmatch(item.strip())
            if m:
                lo = int(m.group(1))
                if lo <= d.number <= int(m.group(2) or lo):
                    out.append(d)
                    break
            elif item.strip().casefold() in _section_of(note, d).casefold():
                out.append(d)
                break
    return out


def _section_of(note: Note, d: DerivationResult) -> str:
    return plain(_no_math(d.title), "md" if note.result.format == "md" else "tex")


def _chosen(notes: Sequence[Note], sections: Sequence[str]) -> list[tuple[Note, list[DerivationResult]]]:
    chosen = [(n, _selected(n, sections)) for n in notes]
    if not any(ds for _, ds in chosen):
        heads = list(dict.fromkeys(_section_of(n, d) for n in notes for d in n.result.derivations if d.title))
        total = sum(len(n.result.derivations) for n in notes)
        listed = ", ".join(repr(h) for h in heads[:8]) + (", …" if len(heads) > 8 else "")
        raise NotesDeckError(f"--sections {','.join(sections)!r} matches no chain of "
                             f"{', '.join(n.result.path for n in notes)}: its chains are 1-{total}"
                             + (f", under the headings {listed}" if heads else ""))
    return chosen


# -- frames -----------------------------------------------------------------------------------
@dataclass(frozen=True)
class _Frame:
    title: str
    chains: tuple[Chain, ...]
    note_path: str = ""


def _frames(t: Texts, notes: Sequence[tuple[Note, list[DerivationResult]]], aspect: str) -> list[_Frame]:
    out: list[_Frame] = []
    for note, chosen in notes:
        groups: list[tuple[str, list[DerivationResult]]] = []
        for d in chosen:
            if groups and groups[-1][0] == d.title:
                groups[-1][1].append(d)
            else:
                groups.append((d.title, [d]))
        for title, ds in groups:
            shown = _frame_title(t, note, title, ds)
            chains = [chain_from_notes(t, d, shown) for d in ds]
            for title_, part in split_frames(chains, shown, t.notes("continued", title=shown), aspect):
                out.append(_Frame(title_, part, note.result.path))
    return out


def _frame_title(t: Texts, note: Note, title: str, ds: Sequence[DerivationResult]) -> str:
    """The title of a section's frames: its heading; under none, the note's title, else the
    chains' numbers (as verify numbers them)."""
    if title and note.front_matter and f"title: {note.front_matter}" in title:
        title = note.front_matter  # a front matter read as a heading: its title is meant
    shown = text_source(title, "md" if note.result.format == "md" else "tex", formulas=True) if title else ""
    if shown or note.title:
        return shown or note.title
    first, last = ds[0].number, ds[-1].number
    return t.notes("chain", n=first) if first == last else t.notes("chains", first=first, last=last)


# -- LaTeX ------------------------------------------------------------------------------------
ROW_MACROS = r"""\makeatletter
% Rows of a derivation (attncheck.notes_deck): the maths in a column at the left, the rule
% and the verdict beside it.  TeX measures every row: a formula too wide for its column
% breaks at the marks attncheck set (\attnbr before + and -, \attnbrm before \cdot), its
% continuation lines indented; a piece still too wide is scaled down, and a frame too
% tall too, as a last resort that the log reports ("attncheck: scaled ...").
\newlength\attn@mathw \newlength\attn@notew \newlength\attn@indent \newlength\attn@avail
\newsavebox\attn@box \newsavebox\attn@lhs \newsavebox\attn@par \newsavebox\attn@body
\newif\ifattn@over \newif\ifattn@broken
\newcommand\attnbr{\penalty0 }
\newcommand\attnbrm{\penalty200 }
\newcommand\attnfit[2]{{\sbox\attn@box{#2}%
  \ifdim\wd\attn@box>#1\relax
    \typeout{attncheck: scaled a formula to fit: \the\wd\attn@box\space into \the\dimexpr#1\relax}%
    \resizebox{#1}{!}{\usebox\attn@box}%
  \else\usebox\attn@box\fi}}
\newcommand\attninline[1]{\attnfit{\linewidth}{$#1$}}
% a line of a trial paragraph wider than its box (its natural width beyond the width set)?
\def\attn@checklines{\unskip\unpenalty\unkern\unskip\unpenalty
  \setbox0\lastbox
  \ifvoid0 \else
    \setbox2\hbox{\unhcopy0}\ifdim\wd2>\dimexpr\wd0+0.5pt\relax\global\attn@overtrue\fi
    \expandafter\attn@checklines\fi}
% a formula in a width: does it fit, on one line or broken at its marks?  (\ifattn@over
% false: it does; the broken lines are kept in \attn@par)
\newcommand\attn@trial[2]{\sbox\attn@box{$\displaystyle #2$}\global\attn@overfalse
  \ifdim\wd\attn@box>#1\relax
    \setbox\attn@par\vtop{\hsize=#1\relax\hfuzz=\maxdimen\hbadness=10000\parindent=0pt
      \leftskip=0pt\rightskip=0pt plus 1fil\parfillskip=0pt plus 1fil
      \binoppenalty=10000\relpenalty=10000\hangindent=1.5em\hangafter=1
      \noindent$\displaystyle #2$\par}%
    \setbox0\vbox{\unvcopy\attn@par\attn@checklines}%
  \else\setbox\attn@par\hbox{\usebox\attn@box}\fi}
\newcommand\attnmath[2]{{\attn@trial{#1}{#2}%
  \ifattn@over\attnfit{#1}{\usebox\attn@box}\else\usebox\attn@par\fi}}
\newcommand\attnchain[1]{\sbox\attn@lhs{$\displaystyle #1$}%
  \ifdim\wd\attn@lhs>0.4\attn@mathw\relax\global\attn@brokentrue\global\attn@indent=1.5em\relax
  \else\global\attn@brokenfalse\global\attn@indent=\wd\attn@lhs\fi
  \global\setbox\attn@lhs\box\attn@lhs}
% the maths of a step in a width: its left side first when #1 is not empty
\newcommand\attn@maths[4]{\parbox[t]{#1}{%
    \ifx\relax#2\relax\hspace*{\attn@indent}\else
      \ifattn@broken\attnfit{#1}{\usebox\attn@lhs}\par\noindent\hspace*{\attn@indent}%
      \else\usebox\attn@lhs\fi\fi
    \attnmath{\dimexpr#1-\attn@indent\relax}{{}#3 #4}}}
% one step: #1 not empty when it starts its chain, #2 the relation, #3 the right side, #4 the
% verdict column.  A formula that does not fit its column even broken takes the whole
% width, its verdict under it, before anything is scaled.
\newcommand\attnrow[4]{\par\noindent
  {\attn@trial{\dimexpr\attn@mathw-\attn@indent\relax}{{}#2 #3}}%
  \ifx\relax#1\relax\else\ifattn@broken\ifdim\wd\attn@lhs>\attn@mathw\global\attn@overtrue\fi\fi\fi
  \ifattn@over
    \attn@maths{\linewidth}{#1}{#2}{#3}\par\noindent\hfill
  \else
    \attn@maths{\attn@mathw}{#1}{#2}{#3}\hfill
  \fi
  \parbox[t]{\attn@notew}{\footnotesize\raggedright#4}\par
  \vskip 3pt plus 1pt\relax}
\newcommand\attnline[1]{\strut#1\par}
\newcommand\attnremark[1]{{\scriptsize\color{gray}\strut#1\par}}
\newcommand\attnwhen[1]{\par\noindent{\small\bfseries #1}\par\smallskip}
% a command the note uses that the deck does not define: shown as its name, upright
\newcommand\attnprovide[1]{\ifcsname #1\endcsname\else
  \typeout{attncheck: the note's \expandafter\string\csname #1\endcsname\space is not defined here: shown as its name}%
  \expandafter\def\csname #1\endcsname{\ensuremath{\operatorname{#1}}}\fi}
\makeatother"""

#: A frame's rows: set in a box, which is scaled down when it is taller than the frame
#: (an article sets its rows as they come: see attncheck.verify.report).
_FRAME_BODY = r"""\makeatletter
\newcommand\attnbody[1]{%
  \setlength\attn@mathw{\attnmathshare\linewidth}%
  \setlength\attn@notew{\dimexpr\linewidth-\attn@mathw-1em\relax}%
  \setbox\attn@body\vbox{\hsize=\linewidth\parindent=0pt #1}%
  \setbox0\vbox{\vbox{}{\parskip0pt\usebeamertemplate***{frametitle}\vskip0.25em}}%
  \attn@avail=\dimexpr\textheight-\ht0-\dp0-20pt\relax % 20pt: what Beamer keeps below
  \typeout{attncheck-frame: \the\dimexpr\ht\attn@body+\dp\attn@body\relax\space of \the\attn@avail}%
  \ifdim\dimexpr\ht\attn@body+\dp\attn@body\relax>\attn@avail
    \typeout{attncheck: scaled a frame to fit: \the\dimexpr\ht\attn@body+\dp\attn@body\relax\space into \the\attn@avail}%
    \noindent\resizebox*{!}{\attn@avail}{\usebox\attn@body}%
  \else\noindent\usebox\attn@body\fi}
\makeatother"""

#: Characters the Fandol fonts lack (they cover about 10,000, simplified Chinese first; a
#: traditional note has more) come from a font that has them, where one is installed: Noto
#: CJK, or the AR PL Big5 fonts that Debian's texlive-lang-chinese brings.
CJK_FALLBACK = r"""\xeCJKsetup{AutoFallBack=true}
\IfFontExistsTF{Noto Sans CJK SC}{\def\attncjkfallback{Noto Sans CJK SC}}{%
  \IfFontExistsTF{AR PL Mingti2L Big5}{\def\attncjkfallback{AR PL Mingti2L Big5}}{}}
\ifdefined\attncjkfallback
  \setCJKfallbackfamilyfont{\CJKrmdefault}{\attncjkfallback}
  \setCJKfallbackfamilyfont{\CJKsfdefault}{\attncjkfallback}
\fi"""

#: Commands a deck has: the others the note uses get \attnprovide (a no-op for any the
#: packages define after all).
_KNOWN = frozenset(r"""
    alpha beta gamma delta epsilon varepsilon zeta eta theta vartheta iota kappa lambda mu nu xi
    pi varpi rho varrho sigma varsigma tau upsilon phi varphi chi psi omega Gamma Delta Theta
    Lambda Xi Pi Sigma Upsilon Phi Psi Omega frac dfrac tfrac cfrac binom sqrt sum prod int oint
    partial nabla infty cdot cdots ldots dots vdots ddots times div pm mp le leq ge geq neq ne
    approx equiv propto sim simeq cong to rightarrow leftarrow Rightarrow Leftarrow Leftrightarrow
    iff implies in notin subset subseteq cup cap perp top bot ell hbar left right middle big Big
    bigg Bigg bigl bigr Bigl Bigr biggl biggr text mathrm operatorname mathbf mathbb mathcal
    mathit mathsf mathtt boldsymbol bm hat bar vec tilde widehat widetilde overline underline
    dot ddot overset underset stackrel limits nolimits displaystyle textstyle scriptstyle quad
    qquad log exp ln sin cos tan max min det arg sup inf lim mid vert Vert lvert rvert lVert
    rVert langle rangle lceil rceil lfloor rfloor prime not circ odot otimes oplus forall exists
    emptyset mathstrut textbf textit textrm mbox coloneqq eqqcolon color boxed underbrace
    overbrace star ast bullet land lor neg lnot leftrightarrow mapsto cdotp colon vdash
    """.split())  # noqa: SIM905


def _macros(latex: str) -> set[str]:
    return set(re.findall(r"\\([A-Za-z]+)", latex)) - _KNOWN - {"attnbr", "attnbrm"}


def _column(t: Texts, row: Row, n: int, overlays: bool) -> str:
    """The verdict column of step ``n``: the mark and the rule on the first line, what the
    mark says (the hypotheses used, what the right side should be, why it was not read)
    beside or under it, a remark in grey.  A ✓ and its words come one overlay after the
    step (the rule with the step); anything else with it."""
    mark, says, rule = f"${row.mark}$", _inline(row.says), _inline(row.rule)
    later = overlays and row.verdict and row.holds

    def shown(x: str) -> str:
        return rf"\uncover<{n + 1}->{{{x}}}" if later and x else x

    lines = [shown(mark) + r"\ " + rule, shown(says)] if rule else [shown(mark + (r"\ " + says if says else ""))]
    out = "".join(rf"\attnline{{{x}}}" for x in lines if x)
    return out + (rf"\attnremark{{{row.remark}}}" if row.remark else "")


def _inline(text: str) -> str:
    """Text-mode LaTeX with each formula fitted to the column (a formula cannot break)."""
    return re.sub(r"(?<!\\)\$([^$]+)\$", r"\\attninline{\1}", text)


def chain_lines(t: Texts, chains: Sequence[Chain], *, overlays: bool = False, speaker: bool = False
                ) -> tuple[list[str], list[str], set[str]]:
    r"""The chains as rows of the deck's macros (:data:`ROW_MACROS`: ``\attnchain``,
    ``\attnrow``), one step per overlay when ``overlays``; the speaker notes (``\note``),
    when asked for; the maths commands the rows use that a deck may not define."""
    lines: list[str] = []
    notes: list[str] = []
    macros: set[str] = set()
    n = 0
    for chain in chains:
        n += 1
        when = rf"\attnwhen{{{t.notes('when', condition=chain.condition)}}}%" if chain.condition else ""
        if when:
            lines.append(rf"\uncover<{n}->{{{when[:-1]}}}%" if overlays and n > 1 else when)
        lines.append(rf"\attnchain{{{chain.lhs}}}%")
        macros |= _macros(chain.lhs)
        for k, row in enumerate(chain.rows):
            if k:
                n += 1
            step = (rf"\attnrow{{{'1' if k == 0 else ''}}}{{{row.relation}}}{{{breakable(row.rhs)}}}"
                    rf"{{{_column(t, row, n, overlays)}}}")
            macros |= _macros(row.rhs) | _macros(row.relation)
            lines.append((rf"\uncover<{n}->{{{step}}}" if overlays and n > 1 else step) + "%")
            if speaker and row.speaker:
                notes.append(rf"\note<{n}>{{{row.speaker}}}" if overlays else rf"\note{{{row.speaker}\par}}")
    if overlays and notes:  # the last step's note stays for its ✓
        notes[-1] = re.sub(r"^\\note<(\d+)>", r"\\note<\1->", notes[-1])
    return lines, notes, macros


def _frame_source(t: Texts, f: _Frame, settings: DeckSettings) -> tuple[str, set[str]]:
    rows, notes, macros = chain_lines(t, f.chains, overlays=not settings.handout, speaker=settings.notes)
    lines = [rf"\begin{{frame}}[t]{{{f.title}}}", r"\attnbody{%", *rows, "}", *notes, r"\end{frame}"]
    return "\n".join(lines), macros


def _title_frame(t: Texts) -> str:
    ok, bad = r"\textcolor{ok}{$\checkmark$}", r"\textcolor{bad}{$\times$}"
    legend = t.notes("legend", ok=ok, bad=bad, definition=r"$\coloneqq$")
    return "\n".join([r"\begin{frame}", r"\titlepage", r"\vfill", r"{\scriptsize " + legend + r"\par}",
                      r"\end{frame}"])


#: Items of a list frame (assumptions, what was not read): more go on the next frame.
_ITEMS_PER_FRAME = 6


def _list_frames(title: str, items: Sequence[str], continued: str, style: str = r"\small") -> list[str]:
    """Frames listing ``items``, a few a frame, each frame's list fitted by TeX."""
    out = []
    for n in range(0, len(items), _ITEMS_PER_FRAME):
        head = title if n == 0 else continued
        out.append("\n".join([rf"\begin{{frame}}[t]{{{head}}}", r"\attnbody{" + style, r"\begin{itemize}",
                               *items[n:n + _ITEMS_PER_FRAME], r"\end{itemize}}", r"\end{frame}"]))
    return out


def assumption_items(t: Texts, note: Note, *, words: bool = False) -> list[str]:
    r"""What the note assumes, as ``\item`` lines: each hypothesis read from its words with
    the words and where they are, then those it states in a comment or a formula; with
    ``words``, each hypothesis also said in words (the formula in brackets)."""
    declared = {str(h): h for d in note.result.derivations for h in d.declared}
    read: dict[tuple[int, str], list[str]] = {}
    for r in note.result.notes:
        if not r.problem and r.hypothesis:
            read.setdefault((r.location.line, r.text), []).append(r.hypothesis)
    items, shown_read = [], set()
    sep = r"\\ " if words else ", "  # said in words: a hypothesis a line
    for (line, text), hyps in read.items():
        shown_read |= set(hyps)
        formulas = sep.join(_hypothesis(t, declared, h, words) for h in dict.fromkeys(hyps))
        items.append(rf"\item {formulas}\\ {{\scriptsize\color{{gray}}"
                     + t.notes("read-from-text", line=line, text=_quoted(text[:160])) + "}")
    rest = [h for h in declared if h not in shown_read]
    if rest:
        items.append(rf"\item {sep.join(_hypothesis(t, declared, h, words) for h in rest)}\\ "
                     rf"{{\scriptsize\color{{gray}}{t.notes('stated')}}}")
    return items


def _assumptions_frames(t: Texts, note: Note) -> list[str]:
    title = t.notes("assumptions")
    return _list_frames(title, assumption_items(t, note), t.notes("continued", title=title))


def _quoted(text: str) -> str:
    """The note's words a hypothesis was read from: a formula written without ``$`` (the
    reader found it in maths) as maths, anything else as text."""
    if "$" not in text and re.search(r"\\[A-Za-z]|[_^]", text):
        shown = math_source(text)
        if shown.as_written:
            return f"${unmarked(shown.latex)}$"
    return text_source(text, "md")


def _hypothesis(t: Texts, declared: dict[str, Hypothesis], name: str, words: bool = False) -> str:
    """A hypothesis verify read, as the deck's printer writes it (verify's words for it when
    it is not among the chains' declared ones); with ``words``, said in words first."""
    h = declared.get(name)
    if h is None:
        return text_source(name, "md")
    formula = "$" + t.printer.doprint(h) + "$"
    if not words:
        return formula
    try:
        said = t.hypothesis(h)
    except DerivationError:  # a hypothesis with no words yet: its formula says it
        return formula
    return f"{said} ({formula})" if t.lang == "en" else f"{said}（{formula}）"


def problem_items(t: Texts, note: Note) -> list[str]:
    r"""What could not be read at all, where, and why (verify's words), as ``\item`` lines."""
    return [r"\item " + t.notes("problem", line=p.location.line, column=p.location.column,
                                 text=literal(p.text[:200])) for p in note.result.problems]


def _problems_frames(t: Texts, note: Note) -> list[str]:
    title = t.notes("problems")
    return _list_frames(title, problem_items(t, note), t.notes("continued", title=title),
                        r"\footnotesize\color{gray}")


def deck_source(notes: Sequence[Note], settings: DeckSettings) -> str:
    """The deck's LaTeX (see the module doc)."""
    if settings.aspect not in ASPECTS:
        raise NotesDeckError(f"aspect {settings.aspect!r}: expected one of {', '.join(ASPECTS)}")
    t = deck_texts(settings.lang, settings.notation, settings.dot)
    chosen = _chosen(notes, settings.sections)
    frames = _frames(t, chosen, settings.aspect)
    body: list[str] = [_title_frame(t)]
    macros: set[str] = set()
    shown = [n for n, ds in chosen if ds]
    for note in shown:  # each note: its section, what it assumes, its chains, what was not read
        if len(shown) > 1:
            name = escape(Path(note.result.path).name)
            body.append(rf"\section{{\texorpdfstring{{{note.title or name}}}"
                        rf"{{{escape(note.plain_title) or name}}}}}")
        body += _assumptions_frames(t, note)
        for f in frames:
            if f.note_path == note.result.path:
                source, used = _frame_source(t, f, settings)
                body.append(source)
                macros |= used
        if not settings.sections:  # a selection shows its chains, not the whole note's problems
            body += _problems_frames(t, note)
    first = notes[0]
    if settings.title is not None:
        shown_title, plain_title = text_source(settings.title, "md", formulas=True), _no_math(settings.title)
    else:
        shown_title = first.title or escape(Path(first.result.path).stem)
        plain_title = first.plain_title or Path(first.result.path).stem
    defined = [m for n in shown for m in n.macros]
    return _document(t, settings, body, shown_title, plain_title, defined, sorted(macros))


def _document(t: Texts, settings: DeckSettings, frames: Sequence[str], title: str, plain_title: str,
              defined: Sequence[str], macros: Sequence[str]) -> str:
    options = [f"aspectratio={settings.aspect}", "11pt"] + (["handout"] if settings.handout else [])
    body = "\n\n".join(frames)
    cjk = has_cjk(body) or has_cjk(title)
    if t.lang == "zh":
        head = [rf"\documentclass[{','.join([*options, 'UTF8'])}]{{ctexbeamer}}"]
    else:
        head = [rf"\documentclass[{','.join(options)}]{{beamer}}"]
        if cjk:  # a Chinese note's words in an English deck
            head.append(r"\usepackage[scheme=plain]{ctex}")
    if cjk:
        head.append(CJK_FALLBACK)
    if settings.theme != "default":
        head.append(rf"\usetheme{{{settings.theme}}}")
    date = r"\today" if settings.date is None else escape(settings.date)
    head += [
        r"\usepackage{amsmath,amssymb,mathtools,bm,graphicx}",
        r"\usefonttheme[onlymath]{serif}",
        r"\setbeamertemplate{navigation symbols}{}",
        r"\setbeamersize{text margin left=0.7cm, text margin right=0.7cm}",
        r"\setbeamertemplate{footline}[frame number]" if settings.theme == "default" else "",
        COLORS,
        r"\definecolor{unread}{RGB}{200,110,0}",
        ROW_MACROS,
        _FRAME_BODY,
        rf"\newcommand\attnmathshare{{{MATH_SHARE[settings.aspect]}}}",
        *dict.fromkeys(defined),  # the notes' own maths commands
        r"\AtBeginDocument{" + "".join(rf"\attnprovide{{{m}}}" for m in macros) + "}" if macros else "",
        r"\setbeameroption{show notes}" if settings.notes else "",
        rf"\title{{\texorpdfstring{{{title}}}{{{escape(plain_title)}}}}}",
        rf"\subtitle{{{t.notes('subtitle')}}}",
        rf"\author{{{escape(settings.author)}}}",
        rf"\date{{{date}}}",
        r"\begin{document}",
        body,
        r"\end{document}",
        "",
    ]
    return "\n".join(line for line in head if line != "")


# -- files ------------------------------------------------------------------------------------
def deck_file(paths: Sequence[str]) -> str:
    """The deck's file name: ``NOTE-slides.tex`` after the first note."""
    return f"{Path(paths[0]).stem}-slides.tex"


def theme_installed(theme: str) -> bool:
    """Whether Beamer can load the theme: asked of TeX (kpsewhich) when it is here, else one
    of the themes Beamer ships."""
    if not re.fullmatch(r"[A-Za-z][A-Za-z0-9-]{0,40}", theme):
        return False
    if theme in STANDARD_THEMES:
        return True
    kpsewhich = shutil.which("kpsewhich")
    if kpsewhich is None:
        return False
    found = subprocess.run([kpsewhich, f"beamertheme{theme}.sty"], capture_output=True, text=True,
                           timeout=30, check=False, stdin=subprocess.DEVNULL)
    return found.returncode == 0 and bool(found.stdout.strip())


def check_settings(settings: DeckSettings) -> None:
    """A deck's settings, checked before any note is read: the theme installed, the aspect
    and the language known (:class:`NotesDeckError` naming the option)."""
    if settings.aspect not in ASPECTS:
        raise NotesDeckError(f"--aspect {settings.aspect}: expected one of {', '.join(ASPECTS)}")
    if settings.lang not in ("en", "zh"):
        raise NotesDeckError(f"--lang {settings.lang}: expected en or zh")
    if not theme_installed(settings.theme):
        raise NotesDeckError(
            f"--theme {settings.theme}: no Beamer theme of that name is installed "
            f"(beamertheme{settings.theme}.sty not found); e.g. default, Madrid, Warsaw, Boadilla")


@dataclass(frozen=True)
class WrittenDeck:
    """A deck written: its file, and what it shows."""

    tex: Path
    frames: int
    steps: int
    wrong: int
    unread: int


def write_notes_deck(out: Path | OutputDir, notes: Sequence[Note], settings: DeckSettings) -> WrittenDeck:
    """Write ``NOTE-slides.tex`` into the output directory (atomically, under its manifest)."""
    check_settings(settings)
    directory = OutputDir.open(out)
    name = deck_file([n.result.path for n in notes])
    source = deck_source(notes, settings)
    tex = directory.write(name, source.encode("utf-8"))
    steps = [s for n, ds in _chosen(notes, settings.sections) for d in ds for s in d.steps]
    return WrittenDeck(tex, source.count(r"\begin{frame}"), len(steps),
                       sum(s.status.wrong for s in steps),
                       sum(s.is_claim and not s.status.judged for s in steps))


def scaled_notes(log: Path) -> list[str]:
    """What the compiled deck had to scale, or could not define, as the log reports it."""
    text = log.read_text(encoding="utf-8", errors="replace") if log.exists() else ""
    formulas = text.count("attncheck: scaled a formula")
    frames = text.count("attncheck: scaled a frame")
    undefined = sorted(set(re.findall(r"attncheck: the note's (\\\S+) is not defined", text)))
    out = []
    if formulas or frames:
        out.append(f"note: {formulas} formula(s) and {frames} frame(s) were scaled down to fit "
                   f"the slide (see {log.name}: 'attncheck: scaled')")
    if undefined:
        out.append(f"note: the deck does not define {', '.join(undefined)}: shown as the name")
    return out
