"""The ``attncheck verify FILE…`` subcommand: argument parsing and output, nothing else.

Exit status: 1 when a step of some file does not hold; else 2 when something could
not be read or checked (a file, a block, a claim); else 0.  Several files and
directories (their .tex and .md files) may be given; each gets a summary line.

>>> import argparse
>>> p = argparse.ArgumentParser(); sub = p.add_subparsers(dest="command")
>>> register(sub)
>>> p.parse_args(["verify", "notes.tex", "--json"]).json
True
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

from attncheck import options
from attncheck.language import LANGS, default_lang
from attncheck.text import output_console, printable
from attncheck.verify.check import NUMERIC_SECONDS, STEP_SECONDS, TIMEOUT, verify
from attncheck.verify.errors import VerifyError
from attncheck.verify.files import _SUFFIXES, is_marimo
from attncheck.verify.report import SCHEMA, to_json
from attncheck.verify.result import RENDERERS, VerifyResult
from attncheck.verify.terminal import print_result

__all__ = ["CURRENT", "files_of", "register", "run"]

#: The file being checked now: the CLI's last-resort handler names it in its one line.
CURRENT: str | None = None


def files_of(paths: list[str]) -> list[str]:
    """The files to check: each path, a directory's notes — .tex, .md, .ipynb files and
    marimo notebooks (sorted, recursively; a directory's other .py files are code).

    A directory without any stays in the list: reading it says "is a directory"."""
    out: list[str] = []
    for p in paths:
        if os.path.isdir(p) and not os.path.islink(p):
            found = sorted(str(f) for f in Path(p).rglob("*")
                           if f.suffix.lower() in _SUFFIXES and f.is_file()
                           and (f.suffix.lower() != ".py" or _is_marimo(f)))
            out += found or [p]
        else:
            out.append(p)
    return out


def _is_marimo(f: Path) -> bool:
    """Whether a .py file is a marimo notebook, by its first 64 kB (files.is_marimo)."""
    try:
        with f.open("rb") as fh:
            head = fh.read(65536)
    except OSError:
        return True  # (reading it again names the error)
    return is_marimo(head.decode("utf-8", errors="replace"))


def run(args: argparse.Namespace) -> int:
    """Check the files; print the table, JSON or LaTeX; return the exit status."""
    global CURRENT
    paths = files_of(args.file)
    results: list[VerifyResult | VerifyError] = []
    for path in paths:
        CURRENT = path
        try:
            results.append(verify(path, fmt=args.format, seed=args.seed,
                                  numeric=not args.symbolic_only,
                                  numeric_seconds=args.numeric_seconds, timeout=args.timeout,
                                  inline=args.inline))
        except VerifyError as exc:
            results.append(exc)
    CURRENT = None
    if args.json:
        docs = [to_json(r) if isinstance(r, VerifyResult) else _error_json(r) for r in results]
        doc: Any = docs[0] if len(docs) == 1 else {
            "schema": SCHEMA, "files": docs, "exit_code": _worst(results)}
        json.dump(doc, sys.stdout, ensure_ascii=False, indent=2)
        print()
    elif args.latex:
        for r in results:
            if isinstance(r, VerifyResult):
                # attncheck.notes_report, above verify and the decks, registers it: the rows
                # are the deck's (the command line imports it for --latex)
                sys.stdout.write(RENDERERS["latex-document"](r))
    else:
        for r in results:
            if isinstance(r, VerifyResult):
                _print_table(r, args)
        for r in results:
            if isinstance(r, VerifyError):  # a file name may hold control characters
                print(f"attncheck: error: {printable(str(r))}", file=sys.stderr)
    return _worst(results)


def _worst(results: list[VerifyResult | VerifyError]) -> int:
    codes = [r.exit_code if isinstance(r, VerifyResult) else 2 for r in results]
    return 1 if 1 in codes else (2 if 2 in codes else 0)


def _error_json(e: VerifyError) -> dict[str, Any]:
    return {"schema": SCHEMA, "file": e.location.path, "ok": False, "complete": False,
            "exit_code": 2, "summary": {"steps": 0, "claims": 0, "judged": 0},
            "read": [], "problems": [{"location": e.location.as_json(), "message": e.reason}],
            "derivations": []}


def _print_table(r: VerifyResult, args: argparse.Namespace) -> None:
    print_result(r, output_console(), getattr(args, "lang", "en") or "en")


def register(sub: Any) -> None:
    """Add ``verify`` to the subcommands of ``attncheck`` (an argparse subparsers object)."""
    v = sub.add_parser(
        "verify",
        help="check the derivations in your own LaTeX or Markdown notes, step by step",
        description="Check every chain of relations in the display math of each FILE (.tex or "
        ".md; a directory: its .tex and .md files): which steps hold in general, which need "
        "hypotheses (stated or not), which fail. Assumptions stated in the note's words "
        "('mean 0 and variance 1', '均值为0，方差为1') are read; others can be declared in "
        "comments: '% attncheck: assume E(q_i)=0, q \\perp k' (LaTeX) or "
        "'<!-- attncheck: assume … -->' (Markdown).",
    )
    v.add_argument("file", nargs="+", help=".tex or .md files, notebooks (.ipynb, marimo .py), "
                   "or directories")
    out = v.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true",
                     help=f"JSON on stdout (schema {SCHEMA})")
    out.add_argument("--latex", action="store_true",
                     help="a LaTeX document of the chains with ✓/✗ marks on stdout")
    v.add_argument("--format", choices=("tex", "md"), default=None,
                   help="input format (default: from the file's suffix)")
    v.add_argument("--inline", action="store_true",
                   help="also check chains written in inline math ($…$ lines), as blog posts "
                   "often lay derivations out")
    v.add_argument("--seed", type=options.seed, default=20261121,
                   help="seed of the numeric evidence (an integer ≥ 0)")
    v.add_argument("--symbolic-only", action="store_true", help="skip the numeric evidence")
    # beyond the step's time limit the sampling would be cut off anyway
    v.add_argument("--numeric-seconds", type=options.seconds(STEP_SECONDS),
                   default=NUMERIC_SECONDS,
                   help=f"Monte Carlo budget per step in seconds, at most {STEP_SECONDS:g} "
                   "(default %(default)s)")
    v.add_argument("--timeout", type=options.seconds(24 * 3600), default=TIMEOUT,
                   help="time budget per file in seconds; steps after it are reported as not "
                   "checked (default %(default)s)")
    v.add_argument("--lang", choices=LANGS, default=default_lang(),
                   help="language of the report (default from the locale: zh when LC_ALL, "
                   "LC_MESSAGES or LANG starts with zh)")
    v.set_defaults(func=run)
