"""Bad input is tried, not assumed: each kind gets its own one-line message naming the place.

A file that cannot be read at all (missing, a directory, binary) raises a VerifyError
and exits 2 with one line on stderr.  Anything *inside* a readable file that cannot be
read or checked is reported at its place and the rest of the file goes on: the result
lists it (exit 2 unless a step fails, then 1), the table prints it, ``--json`` is complete.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import attncheck.verify.check as check_module
from attncheck.cli import main
from attncheck.verify import VerifyError, VerifyResult, verify, verify_text
from attncheck.verify.files import MAX_FILE_BYTES
from attncheck.verify.terminal import summary
from derivations import ExpressionTooLarge


def _write(tmp_path: Path, name: str, data: str | bytes) -> str:
    p = tmp_path / name
    p.write_bytes(data if isinstance(data, bytes) else data.encode("utf-8"))
    return str(p)


def _problems(r: VerifyResult) -> list[tuple[str, int, int]]:
    """Every problem the result names: file notes, and steps not read or not checked."""
    out = [(n.text, n.location.line, n.location.column) for n in r.problems]
    for s in r.steps:
        if s.status.value in ("not-read", "not-checked"):
            where = s.problem_location or s.location
            out.append((s.note, where.line, where.column))
    return out


FILE_CASES: list[tuple[str, str | bytes, str, tuple[int, int]]] = [
    ("binary.tex", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "not UTF-8", (1, 1)),
    ("nul.md", b"text\n$$ a = b $$\x00", "NUL byte", (2, 12)),
]


@pytest.mark.parametrize("name,content,message,where", FILE_CASES,
                         ids=[c[0] for c in FILE_CASES])
def test_unreadable_files_raise_one_located_error(
    name: str, content: bytes, message: str, where: tuple[int, int], tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = _write(tmp_path, name, content)
    with pytest.raises(VerifyError, match=message) as err:
        verify(path, numeric=False)
    assert (err.value.location.line, err.value.location.column) == where, str(err.value)
    assert main(["verify", path, "--symbolic-only"]) == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"attncheck: error: {path}:{where[0]}:{where[1]}: ")


# name, content, message, (line, column) of the problem, exit status
CASES: list[tuple[str, str, str, tuple[int, int], int]] = [
    ("empty.md", "", "no derivation found", (1, 1), 2),
    ("prose.md", "Only prose and inline math $q_i k_i$ here.\n$$ q^\\top k $$\n",
     "no derivation found", (1, 1), 2),
    ("macro.tex", "Text\n\\[ \\foo(q_i) = 0 \\]\n", "unknown macro \\foo", (2, 4), 2),
    ("braces.md", "$$\nE(q_i) = \\frac{1}{2\n$$\n", "'{' is never closed", (2, 18), 2),
    ("closing.md", "$$ E(q_i) = E(q_i)} $$", "'}' has no matching '{'", (1, 19), 2),
    ("unclosed.md", "Intro\n\n$$ a = b\n", "never closed; expected '$$'", (3, 1), 2),
    ("env.tex", "\\begin{align*}\na &= b\n", "never closed", (1, 1), 2),
    ("approx.md", "$$ E(q_i) = E(q_i) \\approx c $$", "an approximation", (1, 28), 0),
    ("equals.md", "$$\n&= q_i \\\\\n&= q_i\n$$", "chain starts with a relation", (2, 2), 2),
    ("early.md", "$$ E(q_i) = E(q_i) = $$", "expected an expression after", (1, 20), 2),
    ("vector.md", "$$ E(q_i) = q + 1 $$", "q is a random vector", (1, 13), 2),
    ("declaration.md", "<!-- attncheck: asume E(q_i)=0 -->\n$$ q_i = q_i $$",
     "unknown declaration (expected one of", (1, 17), 2),
    ("assume.tex", "% attncheck: assume E(q_i) = 0, E(x_i) = 0\n\\[ q_i = q_i \\]",
     "x_i inside an expectation is not random", (1, 33), 2),
    ("law.tex", "% attncheck: assume q_i \\sim Cauchy\n\\[ q_i = q_i \\]", "unknown law", (1, 21), 2),
    ("variance.md", "<!-- attncheck: assume Var(q_i) = -1 -->\n$$ q_i = q_i $$",
     "a variance must be > 0", (1, 24), 2),
    ("comment.md", "<!-- attncheck: dim d_k\n$$ q_i = q_i $$", "'<!--' comment is never closed",
     (1, 1), 2),
    ("unsupported.md", "$$ E(e^{q_i}) = 1 $$", "cannot check", (1, 17), 2),
    ("power.md", "$$ E((q_i + k_i)^{100000}) = 0 $$", "exponent 100000 exceeds the limit 64",
     (1, 6), 2),
    ("blowup.md", "$$ E((q_i + k_i + q_1 + k_1)^{9}) = E((q_i + k_i + q_1 + k_1)^{9}) + 1 $$",
     "expands into more than", (1, 37), 2),
]


@pytest.mark.parametrize("name,content,message,where,code", CASES, ids=[c[0] for c in CASES])
def test_each_bad_input_is_named_where_it_stands(
    name: str, content: str, message: str, where: tuple[int, int], code: int, tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = _write(tmp_path, name, content)
    r = verify(path, numeric=False)
    found = _problems(r)
    assert any(message in m and (line, col) == where for m, line, col in found), found
    assert r.exit_code == code
    assert main(["verify", path, "--symbolic-only"]) == code
    out = capsys.readouterr().out
    assert message in out and "Traceback" not in out
    assert main(["verify", path, "--symbolic-only", "--json"]) == code
    doc = json.loads(capsys.readouterr().out)  # complete JSON whatever went wrong
    assert doc["exit_code"] == code and doc["schema"] == "attncheck.verify/2"


def test_one_bad_block_never_hides_the_others() -> None:
    text = ("$$ \\foo = 1 $$\n\n$$ D(q_i k_i) = E(q_i^2 k_i^2) - E^2(q_i k_i) $$\n\n"
            "$$ E(q_i k_i) = E(q_i) E(k_i) $$\n")
    r = verify_text(text, "many.md", numeric=False)
    assert [s.status.value for s in r.steps] == ["not-read", "holds", "needs-undeclared"]
    assert r.exit_code == 1  # a failing step outranks what could not be read
    assert "2 of 3 claims checked" in summary(r)


def test_missing_file_directory_suffix_and_size(tmp_path: Path) -> None:
    with pytest.raises(VerifyError, match="no such file"):
        verify(str(tmp_path / "absent.tex"))
    with pytest.raises(VerifyError, match="is a directory"):
        verify(str(tmp_path))
    with pytest.raises(VerifyError, match=r"cannot tell the format from the suffix '\.txt'"):
        verify(_write(tmp_path, "notes.txt", "$$ q_i = q_i $$"))
    assert verify(_write(tmp_path, "notes.txt", "$$ q_i = q_i $$"), fmt="md", numeric=False).holds
    big = _write(tmp_path, "big.md", "x" * (MAX_FILE_BYTES + 1))
    with pytest.raises(VerifyError, match=f"more than the limit of {MAX_FILE_BYTES}"):
        verify(big)


def test_too_many_steps_and_a_megabyte_of_blocks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(check_module, "MAX_STEPS", 5)
    r = verify_text("$$ q_i = q_i = q_i $$\n" * 4, "many.md", numeric=False)
    assert any("more than 5 steps in one file" in n.text for n in r.problems)
    assert r.exit_code == 2
    # thousands of formulas without '=': scanned, none is a derivation
    r = verify_text("$$ a $$\n" * 4_000, "big.md", numeric=False)
    assert next(n.text for n in r.problems).startswith("no derivation found")
    # a file near the size limit made of them is not a note: refused where it stops being one
    r = verify_text("$$ a $$\n" * 120_000, "big.md", numeric=False)
    assert next(n.text for n in r.problems).startswith("more than 50,000 lines")


def test_a_step_past_the_time_limit_is_not_checked(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(check_module, "STEP_SECONDS", 1e-4)
    r = verify_text("$$ D(q_i k_i) = E(q_i^2 k_i^2) - E^2(q_i k_i) $$", "slow.md", numeric=False)
    (step,) = r.steps
    assert step.status.value == "not-checked" and "took longer than 0.0001 s" in step.note
    assert r.exit_code == 2


def test_the_file_budget_stops_checking_and_says_so() -> None:
    text = "$$ D(q_i k_i) = E(q_i^2 k_i^2) - E^2(q_i k_i) $$\n" * 3
    r = verify_text(text, "budget.md", numeric=False, timeout=1e-9)
    assert {s.status.value for s in r.steps} == {"not-checked"}
    assert all("time budget spent" in s.note for s in r.steps)
    assert r.exit_code == 2


def test_skip_and_reset_declarations() -> None:
    text = (
        "<!-- attncheck: assume E(q_i)=0 -->\n"
        "<!-- attncheck: skip -->\n"
        "$$ \\mathrm{Attention}(Q, K, V) = \\mathrm{softmax}(QK^\\top)V $$\n"
        "$$ E(q_i k_i) = E(q_i) E(k_i) + Cov(q_i, k_i) $$\n"
        "<!-- attncheck: reset -->\n"
        "$$ E(q_i) E(k_i) = 0 $$\n"
    )
    r = verify_text(text, "s.md", numeric=False)
    assert r.skipped == 1
    assert [s.status.value for s in r.steps] == ["holds", "needs-undeclared"]


def test_slow_numeric_evidence_costs_only_the_evidence(monkeypatch: pytest.MonkeyPatch) -> None:
    def too_slow(*args: object, **kwargs: object) -> None:
        raise ExpressionTooLarge("checking the numeric evidence took longer than 20 s")

    monkeypatch.setattr(check_module, "attach_evidence", too_slow)
    r = verify_text("$$ E(q_i k_i) = E(q_i)E(k_i) $$", "n.md")
    (step,) = r.steps
    assert step.status.value == "needs-undeclared"
    assert step.evidence is not None and step.evidence.agree is None
    assert step.evidence.note == "checking the numeric evidence took longer than 20 s"


def test_a_moment_that_ran_out_of_time_is_not_retried(monkeypatch: pytest.MonkeyPatch) -> None:
    import attncheck.verify.check as check_module

    monkeypatch.setattr(check_module, "STEP_SECONDS", 0.2)
    eight = "".join(f"(q_{c}+k_{c})" for c in "abcdefgh")
    text = "".join(f"$$ E({eight}) = E({eight}) + {n} $$\n" for n in range(1, 4))
    text += "$$ E(q_i k_i) = E(q_i) E(k_i) + 1 $$\n"  # a small step after them is still checked
    r = verify_text(text, "slow.md", numeric=False)
    notes = [s.note for s in r.steps]
    assert "took longer than 0.2 s" in notes[0]
    assert all("took longer than 0.2 s at 1:" in n for n in notes[1:3]), notes
    assert r.steps[3].status.value == "fails"
    same = verify_text(f"$$ E({eight}) = E({eight}) $$", "same.md", numeric=False)
    assert [s.status.value for s in same.steps] == ["holds"]  # identical sides: no expansion


@pytest.mark.parametrize("assume,problem", [
    ("E(q_i)=0, E(q_i)=1", "contradictory hypotheses: E(q_i) = 0 and E(q_i) = 1"),
    ("D(q_i)=1, D(q_i)=2", "contradictory hypotheses"),
    ("E(q_i)=0, E(k_i)=1", None),  # two families, one value each: consistent
])
def test_contradictory_declarations_are_an_input_error(assume: str, problem: str | None) -> None:
    # both E(q_i) = 0 and E(q_i) = 1 used to be accepted, and then both "held"
    r = verify_text(f"% attncheck: assume {assume}\n\\[ E(q_i + k_i) = E(q_i) + E(k_i) \\]\n",
                    "c.tex", numeric=False)
    said = [(text, line) for text, line, _ in _problems(r)]
    if problem is None:
        assert not said and r.exit_code == 0
    else:
        assert any(problem in text and line == 1 for text, line in said), said
        assert r.exit_code == 2


@pytest.mark.parametrize("pattern,size,says,line", [
    ("a\n", 1_000_000, "more than 50,000 lines in one Markdown file", 50_001),
    ("a\n$$\n", 90_000, "more than 10,000 '$$' in one file", 20_002),
])
def test_a_markdown_file_no_note_could_be_is_refused_at_its_place(pattern: str, size: int,
                                                                  says: str, line: int) -> None:
    # 1 MB of one-character lines took Markdown 7 s to parse: refused before it, located
    text = (pattern * (size // len(pattern) + 1))[:size]
    r = verify_text(text, "big.md", numeric=False)
    assert [(p.text, p.location.line) for p in r.problems] == [
        (next(p.text for p in r.problems), line)]
    assert says in r.problems[0].text and r.exit_code == 2
