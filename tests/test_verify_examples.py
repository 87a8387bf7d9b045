"""`attncheck verify` on the shipped examples: exact per-step verdicts, exit codes, outputs.

The verdicts are the mathematics of the lecture, fixed here by hand: the factorization
E(q²)E(k²) − E²(q)E²(k) = D(q)D(k) needs *both* means zero; Var(q·k) = √d_k fails with
residual d_k − √d_k; with nothing declared, every hypothesis a step uses is undeclared.
The numeric side (Monte Carlo at a concrete point) must confirm every step that holds
and break every step that does not — an independent route to the same verdicts.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from functools import cache
from pathlib import Path

import numpy as np
import pytest
from sympy import IndexedBase, KroneckerDelta, sqrt

from attncheck.cli import main
from attncheck.notes_report import to_latex
from attncheck.verify import StepStatus, VerifyResult, verify
from attncheck.verify.evidence import attach_evidence
from attncheck.verify.parse import index_symbol
from attncheck.verify.report import SCHEMA, to_json
from derivations.lecture import D_K

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
H, G, U, F = "holds", "holds-given", "needs-undeclared", "fails"
ZERO_MEANS = ["E(k_i) = 0", "E(q_i) = 0"]
UNIT_VARS = ["Var(k_i) = 1", "Var(q_i) = 1"]
ALL = sorted(ZERO_MEANS + UNIT_VARS + ["q ⟂ k"])
TARGET = "Σ_k t_k = 1"  # the softmax target sums to one: used, and shown

#: file → per derivation, per step: (status, minimal hypothesis sets).
EXPECTED: dict[str, list[list[tuple[str, list[list[str]]]]]] = {
    "var_dot_en.tex": [
        [(H, [[]]), (H, [[]]), (G, [["q ⟂ k"]]), (G, [["E(q_i) = 0"], ["E(k_i) = 0"]])],
        [(H, [[]]), (G, [["q ⟂ k"]]), (G, [ZERO_MEANS]), (G, [UNIT_VARS])],
        [(H, [[]]), (G, [ALL]), (H, [[]])],
    ],
    "var_qk_zh.md": [
        [(H, [[]]), (G, [["q ⟂ k"]]), (G, [ZERO_MEANS]), (G, [UNIT_VARS])],
        [(H, [[]]), (G, [ALL])],
        [(H, [[]]), (G, [ALL])],
    ],
    "var_sqrt_dk_wrong_en.md": [
        [(H, [[]]), (F, [])],
        [(F, []), (F, [])],
    ],
    "factorization_zh.tex": [
        [(H, [[]]), (G, [["q ⟂ k"]]), (U, [ZERO_MEANS]), (G, [UNIT_VARS])],
    ],
    "e_dot_no_declarations_en.md": [
        [(H, [[]]), (U, [["q ⟂ k"]]), (U, [["E(q_i) = 0"], ["E(k_i) = 0"]])],
    ],
    "softmax_jacobian_en.tex": [
        [(H, [[]]), (H, [[]]), (H, [[]])],
        [(H, [[]]), (H, [[]]), (G, [[TARGET]])],  # y_i Σ_k t_k − t_i = y_i − t_i
    ],
    "softmax_dropped_delta_zh.md": [
        [(H, [[]]), (F, [])],
        [(H, [[]]), (U, [[TARGET]])],  # the note never says its target sums to one
    ],
}
EXIT = {"var_dot_en.tex": 0, "var_qk_zh.md": 0, "var_sqrt_dk_wrong_en.md": 1,
        "factorization_zh.tex": 1, "e_dot_no_declarations_en.md": 1,
        "softmax_jacobian_en.tex": 0, "softmax_dropped_delta_zh.md": 1}


@cache
def _symbolic(name: str) -> VerifyResult:
    return verify(str(EXAMPLES / name), numeric=False)


def test_every_example_is_covered() -> None:
    shipped = {p.name for p in EXAMPLES.iterdir() if p.suffix in (".tex", ".md")}
    assert shipped == set(EXPECTED), f"examples without expected verdicts: {shipped ^ set(EXPECTED)}"


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_exact_per_step_verdicts(name: str) -> None:
    r = _symbolic(name)
    got = [[(s.status.value, [sorted(map(str, n)) for n in s.needs]) for s in d.steps]
           for d in r.derivations]
    assert got == EXPECTED[name]
    assert r.exit_code == EXIT[name]


def test_wrong_variance_reports_its_residual_and_place() -> None:
    r = _symbolic("var_sqrt_dk_wrong_en.md")
    bad = r.derivations[0].steps[1]
    assert bad.residual.equals(D_K - sqrt(D_K)), f"symbolic residual: {bad.residual}"
    assert (bad.location.line, bad.location.column) == (13, 4)
    assert bad.rhs_source == r"\sqrt{d_k}"


def test_undeclared_zero_means_are_named() -> None:
    r = _symbolic("factorization_zh.tex")
    step = r.derivations[0].steps[2]
    assert step.status is StepStatus.NEEDS_UNDECLARED
    assert sorted(map(str, step.undeclared)) == ZERO_MEANS
    assert step.reason == "这里悄悄用了 $E(q_i)=E(k_i)=0$"
    assert r.derivations[0].title == "D(q_i k_i) = 1（缺少零均值假设）"


@pytest.mark.parametrize("name", ["factorization_zh.tex", "e_dot_no_declarations_en.md",
                                  "var_sqrt_dk_wrong_en.md", "softmax_jacobian_en.tex",
                                  "softmax_dropped_delta_zh.md"])
def test_numeric_side_agrees_with_every_symbolic_verdict(name: str) -> None:
    for d in _symbolic(name).derivations:
        for s in d.steps:
            seed = np.random.SeedSequence([7, d.number, s.number])
            e = attach_evidence(s, d.model, seed=seed, max_seconds=1.0).evidence
            assert e is not None and e.agree is not None, f"{s.location}: {e and e.note}"
            assert e.agree == s.holds, (
                f"{s.location}: symbolic: {s.status.value} numeric: {e.estimate} ± {e.se} "
                f"vs {e.reference} (z = {e.z:.2f}, critical {e.critical:.2f})")
            assert e.kind == ("confirmation" if s.holds else "counterexample")
            if s.status is StepStatus.NEEDS_UNDECLARED:  # violating exactly what is missing
                assert set(e.violated) == set(map(str, s.undeclared))


def test_dropped_delta_is_caught_on_the_diagonal() -> None:
    r = _symbolic("softmax_dropped_delta_zh.md")
    bad = r.derivations[0].steps[1]
    y = IndexedBase("y")
    assert bad.checker == "softmax" and bad.status is StepStatus.FAILS
    assert bad.residual == KroneckerDelta(index_symbol("i"), index_symbol("j")) * y[index_symbol("i")]
    e = attach_evidence(bad, r.derivations[0].model, seed=3).evidence
    assert e is not None and not e.agree and e.point.endswith("i=2 j=2 k=2"), e.point


def test_cli_attaches_numeric_evidence(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["verify", str(EXAMPLES / "factorization_zh.tex"), "--json",
                 "--numeric-seconds", "0.1"])
    out = json.loads(capsys.readouterr().out)
    evidence = [s["evidence"] for s in out["derivations"][0]["steps"]]
    assert code == 1
    assert [e["kind"] for e in evidence] == ["confirmation", "confirmation", "counterexample",
                                             "confirmation"]
    assert [e["consistent"] for e in evidence] == [True] * 4


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_cli_exit_code_and_json_schema(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["verify", str(EXAMPLES / name), "--json", "--symbolic-only"])
    out = json.loads(capsys.readouterr().out)
    assert code == EXIT[name] == out["exit_code"]
    assert out["schema"] == SCHEMA and out["ok"] == (code == 0)
    assert out["summary"]["steps"] == sum(len(d) for d in EXPECTED[name])
    step_keys = {"number", "location", "lhs", "rhs", "lhs_source", "rhs_source", "lhs_latex",
                 "rhs_latex", "reason", "status", "ok", "needs", "undeclared", "residual",
                 "residual_latex", "mean_square", "checker", "evidence", "kind", "relation",
                 "condition", "judged", "note", "problem_location"}
    for d, want in zip(out["derivations"], EXPECTED[name]):
        assert set(d) == {"number", "location", "title", "model", "declared", "ok", "steps",
                          "conclusion"}
        assert set(d["location"]) == {"file", "line", "column"}
        assert [s["status"] for s in d["steps"]] == [w[0] for w in want]
        for s in d["steps"] + [d["conclusion"]]:
            assert set(s) == step_keys
            assert s["ok"] == (s["status"] in (H, G))
            assert s["evidence"] is None


def test_table_output_names_failing_steps(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["verify", str(EXAMPLES / "var_sqrt_dk_wrong_en.md"), "--symbolic-only"])
    out = capsys.readouterr().out
    assert code == 1
    # file:line:col as compilers write it, and what the right side should be
    assert "var_sqrt_dk_wrong_en.md:13:4: " in out and "= d_k, not √d_k" in out


@pytest.mark.skipif(shutil.which("xelatex") is None, reason="xelatex not installed")
@pytest.mark.parametrize("name", ["var_qk_zh.md", "var_sqrt_dk_wrong_en.md",
                                  "softmax_dropped_delta_zh.md"])
def test_latex_report_compiles(name: str, tmp_path: Path) -> None:
    tex = to_latex(_symbolic(name))
    rows = [line for line in tex.splitlines() if line.startswith(r"\attnrow")]  # one a step
    assert len(rows) == sum(len(d) for d in EXPECTED[name])
    assert all((r"\checkmark" in row) != (r"\times" in row) for row in rows)
    (tmp_path / "report.tex").write_text(tex, encoding="utf-8")
    run = subprocess.run(["xelatex", "-interaction=nonstopmode", "-halt-on-error", "report.tex"],
                         cwd=tmp_path, capture_output=True, text=True, timeout=300, check=False)
    assert run.returncode == 0, run.stdout[-2000:]


@pytest.mark.skipif(shutil.which("xelatex") is None, reason="xelatex not installed")
@pytest.mark.parametrize("name", ["var_dot_en.tex", "factorization_zh.tex",
                                  "softmax_jacobian_en.tex"])
def test_tex_examples_compile_as_they_are(name: str, tmp_path: Path) -> None:
    run = subprocess.run(["xelatex", "-interaction=nonstopmode", "-halt-on-error",
                          f"-output-directory={tmp_path}", str(EXAMPLES / name)],
                         capture_output=True, text=True, timeout=300, check=False)
    assert run.returncode == 0, run.stdout[-2000:]


def test_latex_speaks_the_language_of_the_notes() -> None:
    zh = to_latex(_symbolic("factorization_zh.tex"))
    en = to_latex(_symbolic("e_dot_no_declarations_en.md"))
    assert "笔记未声明" in zh and r"\operatorname{E}\left(q_{i}\right)" in zh
    assert "the note does not state" in en and r"\mathbb{E}\left[q_{i}\right]" in en


def test_notebook_representations() -> None:
    r = _symbolic("factorization_zh.tex")
    assert r._repr_latex_().startswith("$$") and r"\begin{aligned}" in r._repr_latex_()
    html = r._repr_html_()
    assert html.count("<tr>") == 1 + 4 and "✗" in html and "✓" in html
    assert to_json(r) == r.as_json()


def test_module_entry_point_runs() -> None:
    run = subprocess.run([sys.executable, "-m", "attncheck", "verify",
                          str(EXAMPLES / "var_qk_zh.md"), "--symbolic-only"],
                         capture_output=True, text=True, cwd=EXAMPLES.parent, timeout=300,
                         check=False)
    assert run.returncode == 0, run.stderr
    assert "OK " in run.stdout and "8 of 8 claims checked, 0 do not hold" in run.stdout
