"""The command line under pressure: exit statuses that mean what they say, output that
cannot be written, Ctrl-C, internal errors, and output directories holding a user's files.

Exit statuses: 0 all holds, 1 a step does not, 2 cannot check (bad input or flag, an
unwritable output, an internal error), 130 interrupted, 141 the reader has gone.
"""

from __future__ import annotations

import errno
import io
import os
import pty
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import attncheck.verify.command as verify_command
from attncheck import cli, output
from attncheck.cli import build_parser, main
from attncheck.output import MANIFEST, OutputDir, OutputFailed, Refused
from attncheck.text import output_console, printable, quote
from derivations import DerivationError

ROOT = Path(__file__).resolve().parent.parent
NOTES = ROOT / "examples" / "var_qk_zh.md"


def _attncheck(*argv: str, **kwargs: object) -> subprocess.Popen[bytes]:
    """``python -m attncheck`` from the project root: this tree's code."""
    return subprocess.Popen([sys.executable, "-m", "attncheck", *argv], cwd=ROOT,
                            stdin=subprocess.DEVNULL, **kwargs)  # type: ignore[call-overload]


# ---- flags: checked where they are parsed ----------------------------------------------------

@pytest.mark.parametrize("argv", [
    ["check", "--seed", "0", "--alpha", "0.5", "--power", "0.5", "--detect", "0.02"],
    ["check", "--alpha", "1.1e-15", "--power", "0.999999999999", "--detect", "0.99"],
    ["verify", "x.md", "--seed", "0", "--numeric-seconds", "20"],
    ["plots", "-o", "figs", "--seed", "0"],
])
def test_the_edges_of_each_range_are_accepted(argv: list[str]) -> None:
    build_parser().parse_args(argv)  # the twins just outside: tests/test_catalogue.py, adversarial.py


# ---- standard output that cannot be written ------------------------------------------------

def test_a_closed_pipe_ends_quietly_with_141() -> None:
    read, write = os.pipe()
    os.close(read)  # the reader is gone before the first line (`| head -0`)
    p = _attncheck("verify", str(NOTES), "--symbolic-only", "--json", stdout=write,
                   stderr=subprocess.PIPE)
    os.close(write)
    _, err = p.communicate(timeout=120)
    assert (p.returncode, err) == (128 + signal.SIGPIPE, b"")


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full")
@pytest.mark.parametrize("argv", [["latex", "var-dot"], ["verify", str(NOTES), "--symbolic-only"]])
def test_a_full_disk_is_one_line_and_exit_2(argv: list[str]) -> None:
    with open("/dev/full", "wb") as full:
        p = _attncheck(*argv, stdout=full, stderr=subprocess.PIPE)
        _, err = p.communicate(timeout=120)
    assert p.returncode == 2
    assert err.decode() == "attncheck: error: cannot write the output: No space left on device\n"


class _Failing(io.StringIO):
    def __init__(self, code: int) -> None:
        super().__init__()
        self.code = code

    def write(self, s: str) -> int:
        raise OSError(self.code, os.strerror(self.code))


@pytest.mark.parametrize(("code", "status", "message"), [
    (errno.EPIPE, 141, ""),
    (errno.ENOSPC, 2, "attncheck: error: cannot write the output: No space left on device\n"),
    (errno.EIO, 2, "attncheck: error: cannot write the output: Input/output error\n"),
])
def test_write_errors_in_process(code: int, status: int, message: str,
                                 monkeypatch: pytest.MonkeyPatch,
                                 capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(sys, "stdout", _Failing(code))
    assert main(["latex", "var-dot"]) == status
    assert capsys.readouterr().err == message


def test_a_terminal_that_cannot_encode_a_character_gets_an_escape(
    monkeypatch: pytest.MonkeyPatch
) -> None:
    raw = io.BytesIO()
    ascii_out = io.TextIOWrapper(raw, encoding="ascii")  # errors="strict", as Python opens it
    monkeypatch.setattr(sys, "stdout", ascii_out)
    assert main(["verify", str(NOTES), "--symbolic-only"]) == 0
    assert ascii_out.errors == "strict"  # restored
    assert b"q \\u27c2 k" in raw.getvalue()  # ⟂, as \u27c2


# ---- Ctrl-C -----------------------------------------------------------------------------------

def _drain(master: int) -> bytes:
    """What is left to read on a pty whose other side has closed (Linux says EIO at the end)."""
    out = b""
    try:
        while select.select([master], [], [], 1.0)[0]:
            chunk = os.read(master, 65536)
            if not chunk:
                break
            out += chunk
    except OSError:
        pass
    return out


def _interrupted_check() -> tuple[int, str]:
    """`check` on a pty, sent SIGINT once its progress bar says it is checking: (exit, text).
    The largest samples the flags allow keep it busy well past the signal (a default run can
    end in the second the bar takes to reach the pty)."""
    master, slave = pty.openpty()
    p = _attncheck("check", "--detect", "0.02", "--alpha", "1e-12", "--power", "0.999999",
                   stdout=subprocess.DEVNULL, stderr=slave)
    os.close(slave)
    seen, deadline = b"", time.monotonic() + 120
    while b"checking" not in seen and time.monotonic() < deadline and p.poll() is None:
        if select.select([master], [], [], 1.0)[0]:
            seen += os.read(master, 65536)
    p.send_signal(signal.SIGINT)
    # read the pty while waiting: a child whose progress bar fills the pty's buffer blocks on
    # its write and never gets to exit (seen on a loaded machine as a 60 s timeout)
    deadline = time.monotonic() + 60
    while p.poll() is None and time.monotonic() < deadline:
        try:
            if select.select([master], [], [], 0.2)[0]:
                seen += os.read(master, 65536)
        except OSError:
            break
    code = p.wait(timeout=max(1.0, deadline - time.monotonic()))
    text = (seen + _drain(master)).decode("utf-8", "replace")
    os.close(master)
    return code, text


def test_ctrl_c_is_one_line_and_exit_130() -> None:
    """SIGINT while `check` samples, as a terminal sends it: the progress bar on a pty
    says when the work has started (before that, Python itself may still be loading)."""
    code, text = _interrupted_check()
    if code == 0:  # the run ended before the signal arrived (a fast machine): once more
        code, text = _interrupted_check()
    assert code == 130, text[-500:]
    assert "Traceback" not in text and "KeyboardInterrupt" not in text
    assert text.rstrip().endswith("attncheck: interrupted")


def test_ctrl_c_in_process(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    def interrupted(args: object) -> int:
        raise KeyboardInterrupt

    monkeypatch.setattr(cli, "_cmd_check", interrupted)
    assert main(["check"]) == 130
    assert capsys.readouterr().err == "attncheck: interrupted\n"


# ---- the last resort: an internal error is exit 2 and one line --------------------------------

@pytest.mark.parametrize("error", [RuntimeError("boom\nsecond line"), MemoryError(), RecursionError()])
def test_an_internal_error_is_one_line_naming_the_file(
    error: Exception, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def broken(args: object) -> int:
        raise error

    monkeypatch.setattr(verify_command, "run", broken)
    assert main(["verify", "notes.md"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith(f"attncheck: internal error while checking notes.md: {type(error).__name__}")
    assert "please report this" in err


@pytest.mark.parametrize("argv", [["--debug", "verify", "notes.md"], ["verify", "notes.md", "--debug"]])
def test_debug_shows_the_traceback(argv: list[str], monkeypatch: pytest.MonkeyPatch,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    def broken(args: object) -> int:
        raise RuntimeError("boom")

    monkeypatch.setattr(verify_command, "run", broken)
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("Traceback") and "RuntimeError: boom" in err
    assert err.splitlines()[-1].startswith("attncheck: internal error while checking notes.md")


def test_a_message_line_is_cut_not_a_megabyte(monkeypatch: pytest.MonkeyPatch,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    def refuse(args: object) -> int:
        raise DerivationError("notes.md:1:1: unknown declaration '" + "x" * 1_000_000 + "'")

    monkeypatch.setattr(verify_command, "run", refuse)
    assert main(["verify", "notes.md"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("attncheck: error: notes.md:1:1: unknown declaration 'xxx")
    assert err.endswith(" …\n") and len(err) == cli.MESSAGE_LINE + 1


def test_a_failing_step_is_still_exit_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The handlers do not swallow the one status that carries a verdict."""
    path = tmp_path / "wrong.md"
    path.write_text("$$ E(q_i + 1) = E(q_i) $$\n", encoding="utf-8")
    assert main(["verify", str(path), "--symbolic-only"]) == 1


# ---- text from a user's file on the terminal ------------------------------------------------

def test_printable_shows_every_control_character_and_keeps_the_rest() -> None:
    assert printable("a\tb\nc") == "a\tb\nc"
    assert printable("\x1b[2J\x07\x7f\x9b\u202e") == "\\u001b[2J\\u0007\\u007f\\u009b\\u202e"
    assert printable("方差 D(q_i) ≥ 0 𝔼") == "方差 D(q_i) ≥ 0 𝔼"


def test_quote_is_at_most_80_characters_and_one_line() -> None:
    assert quote("short") == "'short'"
    long = quote("x\n" * 500)
    assert len(long) <= 82 and "\n" not in long and long.endswith(" …'")


def test_the_console_escapes_user_text_but_keeps_its_colours(
    monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("FORCE_COLOR", "1")
    monkeypatch.delenv("NO_COLOR", raising=False)
    buffer = io.StringIO()
    monkeypatch.setattr(sys, "stdout", buffer)
    output_console().print("[red]✗[/] title \x1b]0;owned\x07 \x1b[2J", highlight=False)
    out = buffer.getvalue()
    assert "\x1b[31m✗" in out  # rich's own colour
    assert "\\u001b]0;owned\\u0007 \\u001b[2J" in out and "\x1b[2J" not in out


# ---- output directories: never clobber a user's file ------------------------------------------

def test_a_file_attncheck_wrote_is_replaced_atomically(tmp_path: Path) -> None:
    d = OutputDir.open(tmp_path / "out")
    first = d.write("fig.png", b"one")
    assert OutputDir.open(tmp_path / "out").write("fig.png", b"two") == first
    assert first.read_bytes() == b"two"
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == [MANIFEST, "fig.png"]


@pytest.mark.parametrize("prepare", ["foreign", "edited", "symlink", "corrupt-manifest"])
def test_what_attncheck_did_not_write_is_refused_unless_forced(prepare: str, tmp_path: Path) -> None:
    d = tmp_path / "deck"
    OutputDir.open(d).write("attention-en.tex", b"% attncheck's")
    target = d / "attention-en.tex"
    outside = tmp_path / "notes.tex"
    outside.write_text("% the lecturer's own notes")
    if prepare == "foreign":
        target.unlink()
        target.write_text("% a hand-written deck")
    elif prepare == "edited":
        target.write_text("% attncheck's, edited by hand")
    elif prepare == "symlink":
        target.unlink()
        target.symlink_to(outside)
    else:
        (d / MANIFEST).write_text("{ not json")
    before = target.read_bytes()
    with pytest.raises(Refused, match=r"attention-en\.tex (was not written by attncheck|is a symbolic link)"):
        OutputDir.open(d).write("attention-en.tex", b"% new")
    assert target.read_bytes() == before
    OutputDir.open(d, force=True).write("attention-en.tex", b"% new")
    assert target.read_bytes() == b"% new" and not target.is_symlink()
    assert outside.read_text() == "% the lecturer's own notes"  # a link's target is never written


def test_not_a_regular_file_is_refused_even_when_forced(tmp_path: Path) -> None:
    (tmp_path / "fig.png").mkdir()
    with pytest.raises(Refused, match="is not a regular file"):
        OutputDir.open(tmp_path, force=True).write("fig.png", b"x")


def test_a_write_failing_part_way_leaves_the_old_file_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    d = OutputDir.open(tmp_path)
    d.write("fig.png", b"the good figure")

    def full(fd: int) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(output.os, "fsync", full)
    with pytest.raises(OSError, match="No space"):
        d.write("fig.png", b"half a fig")
    assert (tmp_path / "fig.png").read_bytes() == b"the good figure"
    assert sorted(p.name for p in tmp_path.iterdir()) == [MANIFEST, "fig.png"]  # no temporary left


def test_latexmk_outputs_are_claimed_before_it_runs(tmp_path: Path) -> None:
    (tmp_path / "attention-en.log").write_text("the user's log")
    with pytest.raises(Refused, match="attention-en.log"):
        OutputDir.open(tmp_path).claim(["attention-en.pdf", "attention-en.log"])
    (tmp_path / "attention-en.pdf").symlink_to(tmp_path / "elsewhere.pdf")
    d = OutputDir.open(tmp_path, force=True)
    d.claim(["attention-en.pdf", "attention-en.log"])
    assert not (tmp_path / "attention-en.pdf").exists()  # the link is gone, not followed
    (tmp_path / "attention-en.pdf").write_bytes(b"%PDF")
    d.adopt(["attention-en.pdf"])
    OutputDir.open(tmp_path).claim(["attention-en.pdf"])  # now attncheck's own


@pytest.mark.parametrize("name", ["", "../x.png", "sub/x.png", MANIFEST])
def test_only_plain_names_are_written(name: str, tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="not a plain file name"):
        OutputDir.open(tmp_path).write(name, b"x")


def test_an_empty_output_name_is_refused() -> None:
    with pytest.raises(OutputFailed, match="empty name"):
        OutputDir.open("")


@pytest.mark.parametrize("command", ["slides", "plots"])
def test_the_commands_refuse_before_any_work(
    command: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def no_experiments(seed: int) -> None:
        raise AssertionError("the experiments ran before the refusal")

    monkeypatch.setattr("attncheck.plots.run_experiments", no_experiments)
    mine = tmp_path / ("attention-en.tex" if command == "slides" else "histograms-en.png")
    mine.write_text("the user's")
    assert main([command, "-o", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"{mine} was not written by attncheck" in err and "--force" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == [mine.name]


def test_plots_force_replaces_a_link_not_its_target(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    outside = tmp_path / "outside.png"
    outside.write_bytes(b"not a figure")
    figs = tmp_path / "figs"
    figs.mkdir()
    (figs / "saturation-en.png").symlink_to(outside)
    assert main(["plots", "-o", str(figs), "--format", "png"]) == 2
    assert "is a symbolic link" in capsys.readouterr().err
    assert main(["plots", "-o", str(figs), "--format", "png", "--force"]) == 0
    assert outside.read_bytes() == b"not a figure"
    link = figs / "saturation-en.png"
    assert not link.is_symlink() and link.read_bytes().startswith(b"\x89PNG")
    assert main(["plots", "-o", str(figs), "--format", "png"]) == 0  # its own files: no --force


# ---- the memory ceiling the property-based tests run under ----------------------------------

#: Half as much again as the ceiling's 1 GiB headroom; small enough for any CI machine to
#: reserve (never touch) without the ceiling.
BEYOND = 3 << 29


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="needs /proc")
def test_the_memory_ceiling_turns_a_blow_up_into_a_memory_error(memory_ceiling: int | None) -> None:
    import numpy as np

    assert memory_ceiling is not None
    np.empty(64 << 20, dtype=np.uint8)  # 64 MB: well within the headroom
    with pytest.raises(MemoryError):
        np.empty(BEYOND, dtype=np.uint8)  # never touched: only the ceiling refuses it


def test_without_the_ceiling_the_same_reservation_succeeds() -> None:
    """The twin: the MemoryError above is the ceiling's doing (memory reserved, not used)."""
    import numpy as np

    assert np.empty(BEYOND, dtype=np.uint8).nbytes == BEYOND
