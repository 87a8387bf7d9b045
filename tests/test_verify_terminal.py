"""verify's report at the terminal, read as a lecturer reads it (issue 13, items 2–4): at 80
columns, in Chinese and English, in the notes' notation and never in SymPy's syntax."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from rich.cells import cell_len
from rich.console import Console

from attncheck.verify import verify, verify_text
from attncheck.verify.terminal import print_result, readable

EXAMPLES = sorted(p for p in (Path(__file__).parents[1] / "examples").iterdir()
                  if p.suffix in (".md", ".tex"))
#: What SymPy's str() writes and a reader should never see.
SYMPY = re.compile(r"\*\*|KroneckerDelta|Sum\(|Derivative\(|Indexed|\bsqrt\(|Piecewise|"
                   r"MixedMoment|_a\b|E\[Z_")


def _report(path: Path, lang: str) -> str:
    buf = io.StringIO()
    console = Console(file=buf, width=80, color_system=None, soft_wrap=False)
    print_result(verify(str(path), numeric=False), console, lang)
    return buf.getvalue()


@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize("path", EXAMPLES, ids=[p.name for p in EXAMPLES])
def test_report_fits_80_columns_in_the_notes_notation(path: Path, lang: str) -> None:
    out = _report(path, lang)
    lines = out.splitlines()
    # lines naming the file (file:line:col, the summary) are one line each, as compilers print
    # them (editors jump there); everything else is wrapped to the width
    body = [ln for ln in lines if str(path) not in ln]
    assert all(cell_len(ln.rstrip()) <= 80 for ln in body), \
        max(body, key=lambda ln: cell_len(ln.rstrip()))
    # a chain's title is the note's own words (it may write sqrt(d_k) itself)
    said = "\n".join(ln for ln in lines if not re.match(r"(chain|推导) \d+", ln))
    assert not SYMPY.search(said), SYMPY.search(said)


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.name for p in EXAMPLES])
def test_chinese_report_uses_full_width_punctuation(path: Path) -> None:
    out = _report(path, "zh")
    for ln in out.splitlines():
        words = re.sub(r"\d+:\d+", "", ln)  # 12:4 is a place, not punctuation
        # an ASCII colon or semicolon right after a Chinese character is a half-width slip
        assert not re.search(r"[\u4e00-\u9fff][:;]", words), ln


def test_a_failing_step_says_what_the_right_side_should_be() -> None:
    path = next(p for p in EXAMPLES if p.name == "var_sqrt_dk_wrong_en.md")
    assert "= d_k, not √d_k" in _report(path, "en")
    assert "应为 d_k，而非 √d_k" in _report(path, "zh")
    wrong_delta = next(p for p in EXAMPLES if p.name == "softmax_dropped_delta_zh.md")
    assert "应为 δ_ij y_i − y_i y_j，而非 −y_i y_j" in _report(wrong_delta, "zh")


def test_holding_steps_name_their_rule() -> None:
    path = next(p for p in EXAMPLES if p.name == "var_qk_zh.md")
    out = _report(path, "zh")
    assert "D(X) = E(X²) − E²(X)" in out and "独立" in out


@pytest.mark.parametrize("latex,shown", [
    (r"\frac{\partial y_i}{\partial x_j}", "∂y_i/∂x_j"),
    (r"\mathbb{E}[q^\top k]", "𝔼[q^⊤k]"),
    (r"\operatorname{Var}(X)", "Var(X)"),
    (r"\frac{q \cdot k}{\sqrt{d_k}}", "q·k/√(d_k)"),
    (r"\sum_{i=1}^{d_k} q_i k_i", "∑_{i=1}^{d_k} q_i k_i"),
    (r"\hat{y}_i - t_i", "ŷ_i − t_i"),
    (r"i \ne j", "i ≠ j"),  # as \neq: the case is never shown "(i j)", nor "i ≠j"
    (r"i \neq j", "i ≠ j"),
    (r"k \leq n", "k ≤ n"),
    (r"\frac{a}{  b", r"\frac{a}{ b"),  # broken LaTeX: shown as written
    (r"a}}b", "a}}b"),
])
def test_readable_latex(latex: str, shown: str) -> None:
    assert readable(latex) == shown


def test_reasons_in_chinese_and_in_the_notes_letters(tmp_path: Path) -> None:
    note = tmp_path / "n.md"
    note.write_text("令 $p_i = \\frac{e^{z_i}}{\\sum_j e^{z_j}}$。\n\n"
                    "$$Var(z_1 + z_2) = Var(z_1) + Var(z_2)$$\n\n"
                    "$$\\frac{\\partial p_i}{\\partial z_i} = p_i(1-p_i) \\approx p_i$$\n",
                    encoding="utf-8")
    out = _report(note, "zh")
    assert "近似（≈）不是恒等式" in out
    assert "期望里的 z_1, z_2" in out  # the note's z, not verify's x
    assert "期望里的 x" not in out


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_reasons_and_failures_in_the_notes_letters(lang: str) -> None:
    # p the output and y the label in the note: verify calls them y and t, and said so in its
    # reasons ("definition of y_i") and failures ("= y_i t_i − t_i, not y_i − t_i")
    text = ("$$ p_i = \\frac{e^{z_i}}{\\sum_j e^{z_j}} $$\n\n"
            "$$ L = -\\sum_k y_k \\log p_k $$\n\n"
            "$$ \\frac{\\partial L}{\\partial z_i} = p_i - y_i $$\n\n"
            "$$ -y_i(1 - p_i) = p_i - y_i $$\n")
    buf = io.StringIO()
    console = Console(file=buf, width=80, color_system=None, soft_wrap=False)
    print_result(verify_text(text, "n.md", numeric=False), console, lang)
    out = buf.getvalue()
    assert "p_i y_i − y_i" in out and "t_i" not in out, out
