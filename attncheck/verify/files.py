"""Reading a lecturer's file: bytes → text, refusing what cannot be lecture notes.

Only regular files are read, and never more than :data:`MAX_FILE_BYTES` + 1 bytes,
whatever the file system says of their size (``/dev/zero`` and pipes report 0).
Text is decoded the way Chinese and Western editors save it: UTF-8 (with or without
BOM), UTF-16 with a BOM, and GB18030 (which contains GBK and GB2312) for Chinese
files that are not UTF-8.  Line endings CRLF and CR-only become ``\\n`` (offsets are
counted in the decoded text, so every later error can name the line and column).

>>> s = decode("n.md", "$$ a = b $$\\r\\nE(q_i) = 0".encode("utf-8"))
>>> s.text, s.location(12), s.encoding
('$$ a = b $$\\nE(q_i) = 0', Location(path='n.md', line=2, column=1), 'utf-8')
>>> decode("zh.md", "方差为 1".encode("gb18030")).encoding
'gb18030'

A notebook is read for its Markdown cells, each on the lines where the file has it (every
location still names the file's own line): a Jupyter ``.ipynb``, and a marimo notebook
(Python whose cells call ``mo.md(r'''…''')``, indented as code: dedented here).

>>> markdown_cells("n.py", "import marimo\\nmo.md(\\n    r'''\\n    $$a = b$$\\n    ''')")
'\\n\\n\\n$$a = b$$\\n'
"""

from __future__ import annotations

import errno
import json
import os
import re
import stat
import textwrap
from bisect import bisect_right
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from attncheck.verify.errors import Location, VerifyError

__all__ = ["MAX_FILE_BYTES", "Format", "Source", "decode", "guess_format", "is_marimo",
           "markdown_cells", "read_source"]

Format = Literal["tex", "md"]
#: Lecture notes are kilobytes; a megabyte of LaTeX is not notes, and parsing it would be slow.
MAX_FILE_BYTES = 1_000_000

_SUFFIXES: dict[str, Format] = {
    ".tex": "tex", ".latex": "tex", ".ltx": "tex",
    ".md": "md", ".markdown": "md", ".mdown": "md", ".mkd": "md",
    ".ipynb": "md", ".py": "md",  # notebooks: their Markdown cells (see markdown_cells)
}


@dataclass(frozen=True)
class Source:
    """A file's text and where its lines start (for offset → line:column)."""

    path: str
    text: str
    encoding: str = "utf-8"
    _starts: tuple[int, ...] = field(default=(), repr=False, compare=False)

    def __post_init__(self) -> None:
        starts = [0] + [m.end() for m in re.finditer("\n", self.text)]
        object.__setattr__(self, "_starts", tuple(starts))

    def location(self, offset: int) -> Location:
        offset = max(0, min(offset, len(self.text)))
        line = bisect_right(self._starts, offset)
        return Location(self.path, line, offset - self._starts[line - 1] + 1)


def guess_format(path: str) -> Format:
    fmt = _SUFFIXES.get(Path(path).suffix.lower())
    if fmt is None:
        raise VerifyError(
            f"cannot tell the format from the suffix {Path(path).suffix or '(none)'!r}; "
            "expected .tex, .md or a notebook, .ipynb or marimo .py (or pass --format tex|md)",
            Location(path),
        )
    return fmt


def read_source(path: str) -> Source:
    """The file's text, refusing what cannot be lecture notes with a message naming why."""
    where = Location(path)
    try:
        st = os.stat(path)  # follows symlinks: a link to a regular file is that file
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise VerifyError("symbolic link loop", where) from None
        if exc.errno == errno.ENOENT:
            raise VerifyError("no such file" if not os.path.islink(path)
                              else "broken symbolic link (its target does not exist)",
                              where) from None
        raise VerifyError(f"cannot read the file: {exc.strerror}", where) from None
    if stat.S_ISDIR(st.st_mode):
        raise VerifyError("is a directory, expected a .tex or .md file", where)
    if not stat.S_ISREG(st.st_mode):
        kind = ("a named pipe (FIFO)" if stat.S_ISFIFO(st.st_mode) else
                "a device" if stat.S_ISCHR(st.st_mode) or stat.S_ISBLK(st.st_mode) else
                "a socket" if stat.S_ISSOCK(st.st_mode) else "not a regular file")
        raise VerifyError(f"is {kind}, expected a regular .tex or .md file", where)
    if st.st_size > MAX_FILE_BYTES:
        raise VerifyError(f"file has {st.st_size} bytes, more than the limit of {MAX_FILE_BYTES}",
                          where)
    try:
        # O_NONBLOCK: if the path was swapped for a FIFO since stat, open does not hang
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        with os.fdopen(fd, "rb") as f:
            if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):
                raise VerifyError("is not a regular file", where)
            data = f.read(MAX_FILE_BYTES + 1)  # a hard cap whatever st_size said
    except OSError as exc:
        raise VerifyError(f"cannot read the file: {exc.strerror}", where) from None
    return decode(path, data)


_BOMS = ((b"\xef\xbb\xbf", "utf-8"), (b"\xff\xfe", "utf-16-le"), (b"\xfe\xff", "utf-16-be"))


def decode(path: str, data: bytes) -> Source:
    """Text from bytes: UTF-8, UTF-16 with BOM, else GB18030; binary data is refused.

    A file that is neither is refused at its first undecodable byte, with the
    command that converts it.
    """
    if len(data) > MAX_FILE_BYTES:
        raise VerifyError(f"input has more than {MAX_FILE_BYTES} bytes", Location(path))
    encoding, body = "utf-8", data
    for bom, name in _BOMS:
        if data.startswith(bom):
            encoding, body = name, data[len(bom):]
            break
    try:
        text = body.decode(encoding)
    except UnicodeDecodeError as exc:
        if encoding != "utf-8":
            raise VerifyError(f"invalid {encoding.upper()} at byte {exc.start + 2}",
                              Location(path)) from None
        text, encoding = _not_utf8(path, body, exc)
    nul = text.find("\0")
    if nul >= 0:
        raise VerifyError("NUL byte: binary data, expected a text file",
                          Source(path, _lines(text[:nul])).location(nul))
    return Source(path, markdown_cells(path, _lines(text)), encoding)


#: A marimo notebook's Markdown cell: mo.md(r"""…""") (or ''' quotes, or an f-string).
_MARIMO_CELL = re.compile(r"\bmo\.md\(\s*[rRfF]{0,2}(\"\"\"|''')(.*?)\1", re.DOTALL)


def is_marimo(text: str) -> bool:
    """Whether a text is a marimo notebook: Markdown cells (mo.md) in a marimo app."""
    return "mo.md(" in text and re.search(r"@app\.cell|\bimport marimo\b", text) is not None


def markdown_cells(path: str, text: str) -> str:
    """The Markdown of a notebook, each cell on its own lines of the file, every other line
    blank: a marimo notebook (a ``.py`` file, or Markdown text that is one, as copied) or a
    Jupyter ``.ipynb``.  Any other text is returned as it is."""
    suffix = Path(path).suffix.lower()
    if suffix == ".ipynb":
        return _jupyter_markdown(path, text)
    if not is_marimo(text):
        if suffix == ".py":
            raise VerifyError("a .py file that is not a marimo notebook (no mo.md(…) cell): "
                              "expected .tex, .md, .ipynb or a marimo notebook", Location(path))
        return text
    lines = [""] * (text.count("\n") + 1)
    first, at = 0, 0  # the line of the cell's start, counted on from the last cell (linear)
    for m in _MARIMO_CELL.finditer(text):
        first, at = first + text.count("\n", at, m.start(2)), m.start(2)
        # dedented: the code's indentation would make the Markdown a code block
        for n, line in enumerate(textwrap.dedent(m.group(2)).split("\n")):
            lines[first + n] = line
    return "\n".join(lines)


def _jupyter_markdown(path: str, text: str) -> str:
    """A Jupyter notebook's Markdown cells, each line where the file writes it (nbformat puts
    a cell's lines one JSON string per line); the lines of a notebook written on one line
    follow the file's last line."""
    try:
        cells = json.loads(text).get("cells", [])
    except (ValueError, AttributeError):
        raise VerifyError("not a Jupyter notebook: its JSON cannot be read", Location(path)
                          ) from None
    file_lines = text.split("\n")
    out = [""] * len(file_lines)
    at = 0  # where the search goes on from: cells and their lines come in order
    extra: list[str] = []
    lost = False  # a line not found where nbformat puts it: the rest follow the file (linear)
    for cell in cells if isinstance(cells, list) else []:
        if not isinstance(cell, dict) or cell.get("cell_type") != "markdown":
            continue
        source = cell.get("source", "")
        body = "".join(source) if isinstance(source, list) else str(source)
        for line in body.split("\n"):
            if lost or not line.strip():
                extra.append(line)
                continue
            # the line as nbformat writes it: a JSON string, with or without \u escapes
            quoted = {json.dumps(line, ensure_ascii=a)[:-1] for a in (False, True)}
            found = next((n for n in range(at, len(file_lines))
                          if any(q in file_lines[n] for q in quoted)), None)
            if found is None:
                lost = True
                extra.append(line)
            else:
                out[found], at = line, found + 1
        extra.append("")  # a cell ends its paragraph
    return "\n".join(out + (extra if any(x.strip() for x in extra) else []))


def _lines(text: str) -> str:
    """CRLF and CR-only line ends (old Mac editors) as \\n."""
    return text.replace("\r\n", "\n").replace("\r", "\n") if "\r" in text else text


def _not_utf8(path: str, data: bytes, exc: UnicodeDecodeError) -> tuple[str, str]:
    """GB18030 for Chinese text that is not UTF-8; else an error at the first bad byte.

    GB18030 maps almost every byte sequence, so it is only accepted when the text it
    gives is mostly CJK and ASCII — not for binary data that happens to decode.
    """
    try:
        text = data.decode("gb18030")
    except UnicodeDecodeError:
        text = ""
    if text and "\0" not in text:
        odd = sum(1 for c in text if ord(c) > 127 and not _cjk_or_punct(c))
        if odd <= max(2, len(text) // 50):
            return text, "gb18030"
    good = data[: exc.start].decode("utf-8", errors="replace")
    raise VerifyError(
        f"byte 0x{data[exc.start]:02x} is not UTF-8 (nor GB18030) text: binary data? "
        "(to convert another encoding: iconv -f ENCODING -t UTF-8 FILE)",
        Source(path, _lines(good)).location(len(_lines(good))),
    ) from None


def _cjk_or_punct(c: str) -> bool:
    o = ord(c)
    return (0x4E00 <= o <= 0x9FFF or 0x3400 <= o <= 0x4DBF or 0x3000 <= o <= 0x303F
            or 0xFF00 <= o <= 0xFFEF or 0x2000 <= o <= 0x206F or 0x0370 <= o <= 0x03FF
            or 0x2200 <= o <= 0x22FF or 0x00A0 <= o <= 0x00FF)
