r"""`attncheck verify NOTE --latex`: a report a lecturer can compile and print (issue 13,
items 1, 2 and 5).

The rows are the note's own LaTeX (never SymPy's printing: no ``**``, no
``KroneckerDelta``, no dummy names), each step with its mark and its rule, a failing one
with what its right side should be; what the note assumes is said once, at the top, in
words; Chinese notes get Chinese words with full-width punctuation.  Two documents are
compiled once each (module-scoped): a Chinese and an English note's report, each with the
reports of six more notes of the corpus appended as fragments (the longest rows among
them) — under xelatex, with no box more than 1 pt overfull and no missing glyph.
``-m slow`` compiles the report of every corpus note and every example on its own.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest
from test_slides_from_notes import group  # the braced group at an index
from texenv import require_tools

from attncheck.cli import main
from attncheck.notes_report import to_latex
from attncheck.notetex import breakable, math_source
from attncheck.tex import compile_pdf, missing_characters, overfull_boxes
from attncheck.verify import VerifyResult, verify, verify_text

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
CORPUS = ROOT / "tests" / "corpus"
#: Each language: the note whose whole report is compiled, then those appended as fragments
#: (the longest rows of the corpus, failing steps, cases, definitions, unread steps).
NOTES = {
    "zh": [EXAMPLES / "var_qk_zh.md"] + [CORPUS / "zh" / f"{n}.md" for n in (
        "wdndev-transformer-details", "csdn-jiongjiongai-softmax-gradient", "walker-softmax-ce-notebook",
        "jishuzhan-self-attention-sqrt-dk", "aidenzich-softmax-derivative", "mlpod-dot-product-variance")],
    "en": [EXAMPLES / "var_sqrt_dk_wrong_en.md"] + [CORPUS / "en" / f"{n}.md" for n in (
        "pilotleoyan-softmax-jacobian", "datascience-se-softmax-chain-rule", "purepisces-cross-entropy",
        "cs231n-case-study-softmax-gradient", "zakariapz-ce-softmax", "mattpetersen-softmax-ce")],
}
OK, FAIL = r"\textcolor{ok}{\checkmark}", r"\textcolor{bad}{\times}"
#: What SymPy's own printing, or its internals, look like: never in a report.
SYMPY = re.compile(r"\*\*|KroneckerDelta|Dummy|E\[Z_|Z_\{?[qk]\}?\^|(?<![A-Za-z\\{])_a\b|\\_a\b")


@dataclass(frozen=True)
class Row:
    first: bool
    relation: str
    rhs: str
    column: str


def rows_of(tex: str) -> list[Row]:
    r"""Every step of the report: the four arguments of each \attnrow."""
    rows = []
    for m in re.finditer(r"^\\attnrow(?=\{)", tex, re.MULTILINE):
        args, at = [], m.end()
        for _ in range(4):
            arg, at = group(tex, at)
            args.append(arg)
        rows.append(Row(args[0] == "1", *args[1:]))
    return rows


@pytest.fixture(scope="module")
def results() -> dict[str, list[VerifyResult]]:
    return {lang: [verify(str(p), numeric=False) for p in paths] for lang, paths in NOTES.items()}


def report(rs: list[VerifyResult]) -> str:
    """The first note's report with the others' appended as fragments."""
    fragments = "\n\n".join(to_latex(r, standalone=False) for r in rs[1:])
    return to_latex(rs[0]).replace("\\end{document}", fragments + "\n\\end{document}")


@pytest.fixture(scope="module")
def compiled(results: dict[str, list[VerifyResult]], tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    require_tools("latexmk", "xelatex")
    logs = {}
    for lang, rs in results.items():
        tex = tmp_path_factory.mktemp(lang) / "report.tex"
        tex.write_text(report(rs), encoding="utf-8")
        logs[lang] = compile_pdf(tex).log.read_text(encoding="utf-8", errors="replace")
    return logs


def assert_prints_cleanly(log: str) -> None:
    assert "Output written on" in log
    assert not missing_characters(log)
    too_wide = [pt for pt in overfull_boxes(log) if pt > 1.0]
    assert not too_wide, f"overfull boxes of {too_wide} pt"


@pytest.mark.parametrize("lang", NOTES)
def test_reports_compile_without_overfull_boxes_or_missing_glyphs(compiled: dict[str, str], lang: str) -> None:
    assert_prints_cleanly(compiled[lang])


def test_the_notes_have_rows_that_need_fitting(results: dict[str, list[VerifyResult]]) -> None:
    """The compile test means something: rows far wider than a line are among them."""
    longest = max(len(s.rhs_source) for rs in results.values() for r in rs for s in r.steps)
    assert longest > 400


@pytest.mark.parametrize("lang", NOTES)
def test_no_sympy_syntax(results: dict[str, list[VerifyResult]], lang: str) -> None:
    for r in results[lang]:
        for tex in (to_latex(r), to_latex(r, standalone=False, notebook=True)):
            assert not SYMPY.search(tex), (r.path, SYMPY.search(tex))
    assert SYMPY.search(r"\sum_{i} KroneckerDelta(i, j)")  # the pattern catches what it is for
    assert SYMPY.search("x**2") and SYMPY.search(r"E[Z_q^2 Z_k]") and SYMPY.search(r"f(\_a)")


@pytest.mark.parametrize("lang", NOTES)
def test_rows_are_the_notes_own_latex(results: dict[str, list[VerifyResult]], lang: str) -> None:
    """Row by row, each right side is the note's source for the step (break marks aside),
    and a chain's first row starts it."""
    for r in results[lang]:
        rows = rows_of(to_latex(r))
        steps = [s for d in r.derivations for s in d.steps]
        assert len(rows) == len(steps), r.path
        for row, s in zip(rows, steps, strict=True):
            assert row.rhs == breakable(math_source(s.rhs_source).latex)
        assert sum(row.first for row in rows) == sum(1 for d in r.derivations if d.steps)


# -- what a step says -----------------------------------------------------------------------
ASSUMED = "<!-- attncheck: assume E(q_i)=0, E(k_i)=0, Var(q_i)=1, Var(k_i)=1, q \\perp k -->\n"
#: (note, row, the row's right side as the report writes it, words its column must have):
#: each true step next to its wrong twin.
PINNED = [
    ("$$ \\mathrm{Var}(q^\\top k) = d_k \\cdot 1 = d_k $$", 0, r"d_k \attnbrm \cdot 1",
     [OK, r"by \attninline{\operatorname{Var}\left(q \cdot k\right) = d_{k}}"]),
    ("$$ \\mathrm{Var}(q^\\top k) = d_k \\cdot 1 = d_k $$", 1, "d_k", [OK, "simplify"]),
    ("$$ \\mathrm{Var}(q^\\top k) = d_k \\cdot 1 = \\sqrt{d_k} $$", 1, r"\sqrt{d_k}",
     [FAIL, r"should be \attninline{d_{k}}"]),
    ("$$ \\frac{d_k}{d_k} = 1 $$", 0, "1", [OK]),
    ("$$ \\frac{d_k}{d_k} = d_k $$", 0, "d_k", [FAIL, r"should be \attninline{1}"]),
    ("$$ E(q_i k_i) = E(q_i)E(k_i) = 0 $$", 0, "E(q_i)E(k_i)", [OK, "independence"]),
    ("$$ E(q_i k_i) = E(q_i)E(k_i) + 1 $$", 0, r"E(q_i)E(k_i) \attnbr + 1", [FAIL, r"should be \attninline{0}"]),
    ("$$ \\mathrm{Var}(q_i k_i) = E(q_i^2)E(k_i^2) - E(q_i)^2E(k_i)^2 = D(q_i)D(k_i) $$", 1, "D(q_i)D(k_i)",
     [OK, "regroup; zero means"]),
    ("$$ \\mathrm{Var}(q_i k_i) = E(q_i^2)E(k_i^2) - E(q_i)^2E(k_i)^2 = D(q_i) + D(k_i) $$", 1,
     r"D(q_i) \attnbr + D(k_i)", [FAIL, r"should be \attninline{1}"]),
]


@pytest.mark.parametrize(("note", "n", "rhs", "words"), PINNED)
def test_pinned_rows(note: str, n: int, rhs: str, words: list[str]) -> None:
    r = verify_text(ASSUMED + note, "n.md", numeric=False)
    row = rows_of(to_latex(r))[n]
    assert row.rhs == rhs
    for w in words:
        assert w in row.column, (w, row.column)
    assert (OK in row.column) != (FAIL in row.column)


def test_assumptions_said_once_at_the_top_in_words(results: dict[str, list[VerifyResult]]) -> None:
    en = to_latex(results["en"][0])
    assert en.count("What the note assumes") == 1
    assert en.index("What the note assumes") < en.index("\n\\attnrow{")
    assert r"$q$ and $k$ are independent ($q \perp k$)" in en
    assert "the components of $q$ have mean $0$" in en
    zh = to_latex(results["zh"][0])
    assert zh.count("笔记中的假设") == 1 and "相互独立（$q \\perp k$）" in zh


def test_title_from_the_note_and_each_chain_with_its_place(results: dict[str, list[VerifyResult]]) -> None:
    r = results["en"][0]
    tex = to_latex(r)
    assert r"{\Large\bfseries\raggedright A common slip: the variance of the score is not $\sqrt{d_k}$" in tex
    for d in r.derivations:
        assert f"var\\_sqrt\\_dk\\_wrong\\_en.md:{d.location.line}" in tex


def test_chinese_words_have_full_width_punctuation(results: dict[str, list[VerifyResult]]) -> None:
    tex = to_latex(results["zh"][0])
    ours = [line for line in tex.splitlines() if not line.startswith((r"\subsection*", "%"))]
    prose = re.sub(r"\$[^$]*\$|“[^”]*”", "", "\n".join(ours))  # maths and the note's own words aside
    assert "：" in prose and "（" in prose
    assert not re.search(r"[\u4e00-\u9fff][,:;()]|[,:;(][\u4e00-\u9fff]", prose), \
        re.search(r".{20}[\u4e00-\u9fff][,:;()].{20}", prose)


def test_notebook_form_is_for_mathjax(results: dict[str, list[VerifyResult]]) -> None:
    r = results["en"][0]
    nb = to_latex(r, standalone=False, notebook=True)
    assert nb.startswith("$$") and nb.count("$$") == 2 * sum(1 for d in r.derivations if d.steps)
    assert nb.count(r"\begin{aligned}") == nb.count(r"\end{aligned}") > 0
    for macro in (r"\attn", r"\resizebox", "adjustbox", "{ok}", "{bad}", r"\_"):
        assert macro not in nb
    assert r"\textcolor{red}{\times}\ \text{should be $d_{k}$}" in nb
    group("{" + nb + "}", 0)  # braces balance
    table = r._repr_html_()  # the table too shows the steps as written
    assert r"\sum_{i=1}^{d_k} \mathrm{Var}(q_i k_i) = \sqrt{d_k}" in table


def test_cli_writes_the_report(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["verify", str(EXAMPLES / "var_sqrt_dk_wrong_en.md"), "--latex", "--symbolic-only"])
    out = capsys.readouterr().out
    assert code == 1 and out.startswith(r"\documentclass") and out.count(FAIL) == 3


ALL = sorted(p for p in CORPUS.glob("*/*.md") if p.name != "README.md") + sorted(
    p for p in EXAMPLES.iterdir() if p.suffix in (".md", ".tex"))


@pytest.mark.slow
@pytest.mark.parametrize("path", ALL, ids=[p.name for p in ALL])
def test_every_report_compiles(path: Path, tmp_path: Path) -> None:
    require_tools("latexmk", "xelatex")
    tex = tmp_path / "report.tex"
    tex.write_text(to_latex(verify(str(path), numeric=False)), encoding="utf-8")
    assert_prints_cleanly(compile_pdf(tex).log.read_text(encoding="utf-8", errors="replace"))


@pytest.mark.parametrize(("title", "latex"), [
    # a program's snake_case name in a heading is words (it was set as maths: log_{s}oftmax…)
    ("id: log_softmax_gradient tags: []", "id: log\\_softmax\\_gradient tags: []"),
    ("cross_entropy loss", "cross\\_entropy loss"),
    # a formula in plain text still is one
    ("D(q_i k_i) = 1", "$D(q_i k_i) = 1$"),
])
def test_a_snake_case_name_in_a_title_is_words(title: str, latex: str) -> None:
    from attncheck.notetex import text_source

    assert text_source(title, "md", formulas=True) == latex
