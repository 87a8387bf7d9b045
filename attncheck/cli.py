"""The ``attncheck`` command line.

Only the subcommand being run is built in full, with its imports: `attncheck --help`
loads neither SymPy nor NumPy, rich, lark or matplotlib (issue 14: start-up).

>>> args = build_parser(["check", "--symbolic-only"]).parse_args(["check", "--symbolic-only"])
>>> args.command, args.symbolic_only
('check', True)
"""

from __future__ import annotations

import argparse
import importlib
import json
import signal
import sys
import traceback
from collections.abc import Sequence
from importlib import metadata
from typing import TYPE_CHECKING

from attncheck import options
from attncheck.language import LANGS, NOTATION_CHOICES, default_lang
from attncheck.sections import CheckRow, CheckSettings, Section

if TYPE_CHECKING:
    from rich.console import Console

__all__ = ["COMMANDS", "all_sections", "build_parser", "main"]

#: Every subcommand, in the order `attncheck --help` lists them: its one-line help and
#: the module whose ``register(subparsers)`` adds it in full (None: this module).
#: The full parser of a command — and its imports — is built only when it is run.
COMMANDS: dict[str, tuple[str, str | None]] = {
    "check": ("check the lecture's catalogue of results and wrong twins", None),
    "slides": ("write the lecture — or your own checked notes (--from) — as a Beamer deck",
               "attncheck.publish"),
    "latex": ("print one derivation as an align* that fits a 16:9 slide", "attncheck.publish"),
    "plots": ("write the experiments' figures (PNG and PDF)", "attncheck.publish"),
    "verify": ("check the derivations in your own LaTeX or Markdown notes, step by step",
               "attncheck.verify.command"),
}


def all_sections() -> list[Section]:
    """Every section `attncheck check` runs, in the lecture's order."""
    from attncheck.catalogue import DotProductSection
    from attncheck.softmax.catalogue import SoftmaxSection

    return [DotProductSection(), SoftmaxSection()]


def _run_sections(settings: CheckSettings, console: Console, quiet: bool) -> list[CheckRow]:
    from rich.progress import Progress as Bar

    sections = all_sections()
    rows: list[CheckRow] = []
    with Bar(console=console, transient=True, disable=quiet) as bar:
        for sec in sections:
            task = bar.add_task(f"checking {sec.name}", total=sec.count())
            rows += sec.rows(settings, lambda n, t=task: bar.advance(t, n))
    return rows


def _cmd_check(args: argparse.Namespace) -> int:
    from rich.console import Console

    from attncheck import checktable
    from attncheck.text import output_console

    settings = CheckSettings(seed=args.seed, alpha=args.alpha, power=args.power,
                             detect=args.detect, numeric=not args.symbolic_only)
    console = output_console()
    rows = _run_sections(settings, Console(stderr=True), quiet=args.json)
    ok = all(r.ok for r in rows)
    if args.json:
        json.dump(
            {"ok": ok, "settings": vars(settings), "rows": [r.as_json() for r in rows]},
            sys.stdout, ensure_ascii=False, indent=2, default=str,
        )
        print()
        return 0 if ok else 1
    console.print(checktable.table(rows, args.lang, wide=args.wide, notation=args.notation))
    console.print(checktable.chains(rows, args.lang, args.notation))
    console.print(checktable.summary(rows, args.lang), highlight=False, markup=False)
    return 0 if ok else 1


def _version() -> str:
    """The installed distribution's version."""
    try:
        return metadata.version("attncheck")
    except metadata.PackageNotFoundError:  # pragma: no cover - running from a bare checkout
        return "unknown"


def build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The parser for ``argv``: the command it names in full, the others as names and help.

    Without ``argv`` every command is built in full (for documentation and tests).
    """
    p = argparse.ArgumentParser(
        prog="attncheck",
        description="Check the lecture mathematics of Transformer attention, "
        "symbolically and numerically.",
    )
    p.add_argument("--version", action="version", version=f"%(prog)s {_version()}")
    sub = p.add_subparsers(dest="command", required=True)
    named = next((a for a in argv if not a.startswith("-")), None) if argv is not None else None
    modules = dict.fromkeys(m for name, (_, m) in COMMANDS.items()
                            if argv is None or name == named)
    for module in modules:
        if module is None:
            _register_check(sub)
        else:
            importlib.import_module(module).register(sub)
    for name, (text, _) in COMMANDS.items():
        if name not in sub.choices:  # listed with its help; its options when it is run
            sub.add_parser(name, help=text, add_help=False)
    for q in (p, *sub.choices.values()):  # before or after the subcommand
        q.add_argument("--debug", action="store_true",
                       default=False if q is p else argparse.SUPPRESS,
                       help="show the traceback of an internal error")
    return p


def _register_check(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    c = sub.add_parser("check", help=COMMANDS["check"][0])
    c.add_argument("--json", action="store_true", help="machine-readable output on stdout")
    c.add_argument("--seed", type=options.seed, default=CheckSettings.seed,
                   help="seed of every random stream (an integer ≥ 0)")
    c.add_argument("--alpha", type=options.alpha, default=CheckSettings.alpha,
                   help="per-check false-fail rate, two-sided, in (1e-15, 0.5] (default 1e-6)")
    c.add_argument("--power", type=options.power, default=CheckSettings.power,
                   help="probability of catching the reported smallest relative error (default 0.999)")
    c.add_argument("--detect", type=options.detect, default=CheckSettings.detect,
                   help=f"relative error each numeric check must catch, at least {options.DETECT_MIN:g} "
                   "(default 0.05); sample sizes follow from it, --alpha and --power")
    c.add_argument("--symbolic-only", action="store_true", help="skip the numeric side")
    c.add_argument("--lang", choices=LANGS, default=default_lang(),
                   help="language of the output (default from the locale: zh when LC_ALL, "
                   "LC_MESSAGES or LANG starts with zh, else en)")
    c.add_argument("--notation", choices=NOTATION_CHOICES, default=None,
                   help="mathbb: E(X), Var(X); ED: E(X), D(X) (default: ED for zh, mathbb for en)")
    c.add_argument("--wide", action="store_true",
                   help="add the technical columns (estimates, standard errors, designs, power)")
    c.set_defaults(func=_cmd_check)


#: A message names the place and quotes a little; longer lines are cut (a 1 MB line of
#: the user's file is not a message).
MESSAGE_LINE = 400


def _say(message: str) -> None:
    """A message on stderr, control characters shown, never obeyed; a closed stderr is
    no reason for a traceback."""
    from attncheck.text import printable

    lines = [ln if len(ln) <= MESSAGE_LINE else ln[: MESSAGE_LINE - 2] + " …"
             for ln in printable(f"attncheck: {message}").splitlines()]
    try:
        print("\n".join(lines), file=sys.stderr, flush=True)
    except (OSError, ValueError):
        pass


def main(argv: Sequence[str] | None = None) -> int:
    """Run one subcommand. Exit status: 0 all holds, 1 a step or claim does not, 2 cannot
    check (bad input, a file that cannot be written, an internal error), 130 interrupted,
    141 (128 + SIGPIPE) when the reader of the output has gone, as for Unix tools."""
    argv = sys.argv[1:] if argv is None else list(argv)
    args = build_parser(argv).parse_args(argv)
    # after parsing: `--help` and usage errors never load SymPy, rich or NumPy
    from attncheck.output import StdoutFailed, guarded_stdout, silence_stdout
    from derivations import DerivationError

    if args.command == "verify" and getattr(args, "latex", False):
        import attncheck.notes_report  # noqa: F401 — registers the report verify --latex prints

    try:
        with guarded_stdout():
            return int(args.func(args))
    except KeyboardInterrupt:
        _say("interrupted")
        return 128 + signal.SIGINT
    except StdoutFailed as exc:
        silence_stdout()
        if exc.broken_pipe:
            return 128 + signal.SIGPIPE
        _say(f"error: {exc}")
        return 2
    except DerivationError as exc:
        _say(f"error: {exc}")
        return 2
    except Exception as exc:  # noqa: BLE001 — the last resort: a bug is reported as one, never as exit 1
        if args.debug:
            traceback.print_exc()
        where = _where(args)
        detail = " ".join(str(exc).split())[:200]
        _say(f"internal error{where}: {type(exc).__name__}: {detail} — please report this "
             f"(with the input, and the traceback from --debug)")
        return 2


def _where(args: argparse.Namespace) -> str:
    """ while checking FILE: the file being read when a bug struck (verify names it as it goes)."""
    from attncheck.verify import (
        command as verify_command,  # loaded if verify ran at all
    )

    files = getattr(args, "file", None)
    current = getattr(verify_command, "CURRENT", None) or (
        files if isinstance(files, str) else files[0] if isinstance(files, list) and files
        else None)
    return f" while checking {current}" if current else ""


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
