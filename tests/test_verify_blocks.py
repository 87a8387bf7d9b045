"""Reading a note as its renderer does: every display form real notes use, chains as the
author meant them, and lines that are not claims (issue 10, items 1, 2 and 5).

Each case is a small note whose steps are written out by hand: kind, left and right side
as the note wrote them, the reason, the case condition, and the status.
"""

from __future__ import annotations

import pytest

from attncheck.verify import verify_text
from attncheck.verify.blocks import Directive, Math, Problem, Prose, scan
from attncheck.verify.files import Source, decode

VAR_ROWS = (r"D(q_ik_i) &= E(q_i^2k_i^2) - E^2(q_ik_i) \\ "
            r"&= E(q_i^2)E(k_i^2) - E^2(q_i)E^2(k_i)")
TWO = [("claim", "D(q_ik_i)", "E(q_i^2k_i^2) - E^2(q_ik_i)"),
       ("claim", "E(q_i^2k_i^2) - E^2(q_ik_i)", "E(q_i^2)E(k_i^2) - E^2(q_i)E^2(k_i)")]


def _steps(text: str, fmt: str = "md", **kw: object) -> list[tuple[str, str, str]]:
    r = verify_text(text, f"x.{fmt}", numeric=False, **kw)  # type: ignore[arg-type]
    return [(s.kind, s.lhs_source, s.rhs_source) for s in r.steps]


DISPLAYS = [
    ("$$\\begin{align*}\n" + VAR_ROWS + "\n\\end{align*}$$", "md"),
    ("$$\n\\begin{aligned}\n" + VAR_ROWS + "\n\\end{aligned}\n$$", "md"),
    ("\\[\\begin{split}" + VAR_ROWS + "\\end{split}\\]", "md"),
    ("$$\\begin{gathered}" + VAR_ROWS.replace("&", "") + "\\end{gathered}$$", "md"),
    ("\\begin{equation}\\begin{split}" + VAR_ROWS + "\\end{split}\\end{equation}", "tex"),
    ("\\begin{equation*}" + VAR_ROWS.replace("\\\\", "") + "\\end{equation*}", "tex"),
    ("\\begin{multline}" + VAR_ROWS.replace("&", "") + "\\end{multline}", "tex"),
    ("> $$\n> \\begin{aligned}\n> " + VAR_ROWS + "\n> \\end{aligned}\n> $$", "md"),
    ("- item\n\n    $$\n    \\begin{aligned}\n    " + VAR_ROWS + "\n    \\end{aligned}\n    $$",
     "md"),
    ("```math\n\\begin{aligned}" + VAR_ROWS + "\\end{aligned}\n```", "md"),
    ("Some words\n\\[\n\\begin{align}\n" + VAR_ROWS + "\n\\end{align}\n\\]", "md"),
    ("<script type=\"math/tex; mode=display\">\n" + VAR_ROWS.replace("&", "").replace("\\\\", "=")
     .replace("= =", "=") + "\n</script>", "md"),
]


@pytest.mark.parametrize("text,fmt", DISPLAYS, ids=[f"{n}" for n in range(len(DISPLAYS))])
def test_every_display_form(text: str, fmt: str) -> None:
    got = _steps(text, fmt)
    if "gathered" in text or "multline" in text or "script" in text:
        # no alignment marks: the second row still continues (it starts with =)
        assert [g[0] for g in got] == ["claim", "claim"]
    else:
        assert got == TWO


@pytest.mark.parametrize("decoration", [
    r"\tag{1}", r"\label{eq:var}", r"\nonumber", r"\notag", r"\quad", r"\,", r"\!", r"\;", "~",
])
def test_layout_marks_carry_no_mathematics(decoration: str) -> None:
    text = f"$$ D(q_ik_i) {decoration} = E(q_i^2k_i^2) - E^2(q_ik_i) {decoration} $$"
    (step,) = verify_text(text, "x.md", numeric=False).steps
    assert step.status.value == "holds"


@pytest.mark.parametrize("tail", [".", ",", "，", "。", r"\text{.}"])
def test_trailing_punctuation_is_not_mathematics(tail: str) -> None:
    (step,) = verify_text(f"$$ D(q_ik_i) = E(q_i^2k_i^2) - E^2(q_ik_i){tail} $$", "x.md",
                          numeric=False).steps
    assert step.status.value == "holds"


@pytest.mark.parametrize("text,reason", [
    (r"$$ E(q_ik_i) \overset{\text{独立}}{=} E(q_i)E(k_i) $$", "独立"),
    (r"$$ E(q_ik_i) \stackrel{(a)}{=} E(q_i)E(k_i) $$", "(a)"),
    (r"$$ E(q_ik_i) = E(q_i)E(k_i) \quad \text{(independence)} $$", "independence"),
    (r"$$ E(q_ik_i) = E(q_i)E(k_i) （由于独立） $$", "由于独立"),
    (r"$$\begin{aligned} E(q_ik_i) &= E(q_i)E(k_i) && \text{by independence} \end{aligned}$$",
     "by independence"),
    (r"$$ E(q_ik_i) = E(q_i)E(k_i) \tag{independence} $$", "independence"),
])
def test_the_notes_own_reason_is_kept(text: str, reason: str) -> None:
    (step,) = verify_text(text, "x.md", numeric=False).steps
    assert step.reason == reason and step.status.value == "needs-undeclared"


@pytest.mark.parametrize("text", [
    r"$$ \boxed{D(q_ik_i)} = E(q_i^2k_i^2) - E^2(q_ik_i) $$",
    r"$$ D(q_ik_i) = \underbrace{E(q_i^2k_i^2)}_{\text{second moment}} - E^2(q_ik_i) $$",
    r"$$ D(q_ik_i) = \left. E(q_i^2k_i^2) - E^2(q_ik_i) \right| $$",
    r"$$ \text{因此} D(q_ik_i) = E(q_i^2k_i^2) - E^2(q_ik_i) $$",
])
def test_decorations_keep_the_step(text: str) -> None:
    (step,) = verify_text(text, "x.md", numeric=False).steps
    assert step.status.value == "holds"


def test_a_non_empty_left_cell_starts_a_new_chain() -> None:
    r = verify_text(r"$$\begin{align} E(q_ik_i) &= E(q_i)E(k_i) \\ D(q_ik_i) &= "
                    r"E(q_i^2k_i^2) - E^2(q_ik_i) \end{align}$$", "x.md", numeric=False)
    assert [len(d.steps) for d in r.derivations] == [1, 1]
    assert r.steps[1].lhs_source == "D(q_ik_i)"  # never "E(q_i)E(k_i) = D(q_ik_i)"


def test_a_display_starting_with_equals_continues_the_previous_one() -> None:
    text = ("$$ D(q_ik_i) = E(q_i^2k_i^2) - E^2(q_ik_i) $$\n\nso that\n\n"
            "$$ = E(q_i^2)E(k_i^2) - E^2(q_i)E^2(k_i) $$")
    assert _steps(text) == TWO


def test_a_long_expression_broken_over_rows_is_one_side() -> None:
    text = (r"$$\begin{aligned} D(q_ik_i) &= E(q_i^2k_i^2) \\ &\quad - E^2(q_ik_i) \\"
            r" &= E(q_i^2)E(k_i^2) - E^2(q_i)E^2(k_i) \end{aligned}$$")
    got = _steps(text)
    assert [g[0] for g in got] == ["claim", "claim"]
    assert got[0][2].replace(" ", "") == r"E(q_i^2k_i^2)\\&\quad-E^2(q_ik_i)".replace(" ", "") or \
        "E^2(q_ik_i)" in got[0][2]


@pytest.mark.parametrize("text,kind,status", [
    (r"$$ E(q_ik_i) \approx E(q_i)E(k_i) $$", "approximation", "not-checked"),
    (r"$$ E(q_ik_i) \le E(q_i)E(k_i) $$", "inequality", "not-checked"),
    (r"$$ y_i < 1 $$", "inequality", "not-checked"),
    (r"$$ y_i \propto e^{x_i} $$", "proportion", "not-checked"),
    (r"$$ p_i := \frac{e^{z_i}}{\sum_j e^{z_j}} $$", "definition", "definition"),
    (r"$$ p_i \triangleq \frac{e^{z_i}}{\sum_j e^{z_j}} $$", "definition", "definition"),
    (r"$$ s = q \cdot k $$", "definition", "definition"),
    (r"$$ E(q_i) = 0 $$", "assumption", "assumption"),
])
def test_relations_are_reported_for_what_they_are(text: str, kind: str, status: str) -> None:
    r = verify_text(text, "x.md", numeric=False)
    assert [(s.kind, s.status.value) for s in r.steps] == [(kind, status)]


def test_definitions_are_recorded_and_substituted_after() -> None:
    text = ("$$ s = q \\cdot k $$\n\n$$ Z = \\frac{s}{\\sqrt{d_k}} $$\n\n"
            "<!-- attncheck: assume E(q_i)=0, E(k_i)=0, D(q_i)=1, D(k_i)=1, q \\perp k -->\n"
            "$$ D(Z) = \\frac{D(s)}{d_k} = 1 $$")
    r = verify_text(text, "x.md", numeric=False)
    assert [s.status.value for s in r.steps] == ["definition", "definition", "holds",
                                                "holds-given"]
    assert r.exit_code == 0


def test_two_definition_rows_are_two_definitions_never_a_chain() -> None:
    text = r"$$\begin{aligned} a_j &= e^{z_j} \\ S &= \sum_k e^{z_k} \end{aligned}$$"
    r = verify_text(text, "x.md", numeric=False)
    assert [s.kind for s in r.steps] == ["definition", "definition"]
    assert len(r.derivations) == 2


def test_an_equation_solved_for_a_variable_follows() -> None:
    r = verify_text(r"$$ c^2 d_k = 1 \Rightarrow c = \frac{1}{\sqrt{d_k}} $$", "x.md",
                    numeric=False)
    assert [(s.kind, s.status.value) for s in r.steps] == [("condition", "condition"),
                                                           ("follows", "holds")]
    wrong = verify_text(r"$$ c^2 d_k = 1 \Rightarrow c = \frac{1}{d_k} $$", "x.md",
                        numeric=False)
    assert wrong.steps[-1].status.value == "fails"


def test_a_condition_in_prose_math_is_not_a_claim() -> None:
    r = verify_text("当 $$k=j$$ 时，有\n\n$$ E(q_ik_i) = E(q_i)E(k_i) + Cov(q_i, k_i) $$",
                    "x.md", numeric=False)
    # "当 $$k=j$$ 时" inside a sentence is inline math (as kramdown reads it): the case of
    # the display after it, not a step of its own
    assert [(s.kind, s.status.value, s.condition) for s in r.steps] == [
        ("claim", "holds", "k=j")]


@pytest.mark.parametrize("text", [
    r"$$ \frac{\partial y_i}{\partial x_j} = \begin{cases} y_i(1-y_i) & i = j \\ "
    r"-y_iy_j & i \neq j \end{cases} $$",
    r"$$ \frac{\partial y_i}{\partial x_j} = \left\{ \begin{array}{ll} y_i(1-y_i), & "
    r"\text{if } i = j \\ -y_iy_j, & \text{otherwise} \end{array} \right. $$",
    "When $i = j$,\n\n$$ \\frac{\\partial y_i}{\\partial x_j} = y_i(1-y_i) $$\n\n"
    "当 $i \\neq j$ 时：\n\n$$ \\frac{\\partial y_i}{\\partial x_j} = -y_iy_j $$",
    r"$$ \frac{\partial y_i}{\partial x_j} = y_i(1-y_i), \quad i = j \\ "
    r"\frac{\partial y_i}{\partial x_j} = -y_iy_j, \quad i \ne j $$",
])
def test_case_splits_are_checked_branch_by_branch(text: str) -> None:
    r = verify_text(text, "x.md", numeric=False)
    claims = [s for s in r.steps if s.kind == "claim"]
    assert [s.status.value for s in claims] == ["holds", "holds"], [s.note for s in claims]
    swapped = verify_text(text.replace("-y_iy_j", "-y_i^2"), "x.md", numeric=False)
    assert [s.status.value for s in swapped.steps if s.kind == "claim"][1] == "fails"


def test_a_remark_about_a_case_is_not_a_case_label() -> None:
    text = ("The second step drops $\\delta_{ij}$; it holds only for $i \\ne j$:\n\n"
            "$$ \\frac{\\partial y_i}{\\partial x_j} = -y_iy_j $$")
    (step,) = verify_text(text, "x.md", numeric=False).steps
    assert step.status.value == "fails" and not step.condition


def test_inline_chains_under_the_option() -> None:
    text = ("The variance is $D(q_ik_i) = E(q_i^2k_i^2) - E^2(q_ik_i)$\n"
            "$= E(q_i^2)E(k_i^2) - E^2(q_i)E^2(k_i)$\n")
    assert _steps(text) == []
    assert _steps(text, inline=True) == TWO


def test_markdown_code_and_comments_are_not_math() -> None:
    text = (
        "Inline `$$ c = d $$` is code.\n\n```\n$$ e = f $$\n```\n\n<!-- $$ g = h $$ -->\n\n"
        "```latex\n$$ D(q) = 2 $$\n```\n\n    $$ indented code = 1 $$\n\n"
        "$$ D(q_ik_i) = E(q_i^2k_i^2) - E^2(q_ik_i) $$\n"
    )
    assert [s[1] for s in _steps(text)] == ["D(q_ik_i)"]


def test_tex_comments_percent_signs_and_line_breaks() -> None:
    text = (
        "50\\% of it \\\\[2pt] is prose % \\[ x = y \\]\n"
        "\\begin{equation}\n  D(q_ik_i) = E(q_i^2k_i^2) - E^2(q_ik_i) \\label{eq:1} % = c\n"
        "\\end{equation}\n"
        "\\begin{verbatim}\n$$ a = b $$\n\\end{verbatim}\n"
    )
    assert [s[1] for s in _steps(text, "tex")] == ["D(q_ik_i)"]


def test_scan_keeps_offsets_exact_in_containers() -> None:
    src = decode("x.md", "ab\n<!-- attncheck: dim d -->\n> - $$ x = y $$\n".encode())
    events = scan(src, "md")
    assert isinstance(events[1], Directive) and events[1].text == " dim d"
    math = next(e for e in events if isinstance(e, Math))
    assert src.location(math.offset(1)) == src.location(src.text.index("x ="))


def test_an_unclosed_display_is_a_problem_and_the_rest_is_read() -> None:
    src = Source("x.md", "$$ D(q_ik_i) = 1 $$\n\nprose\n\n$$ a = b\n")
    events = scan(src, "md")
    assert any(isinstance(e, Problem) and "never closed" in e.message for e in events)
    assert any(isinstance(e, Math) and "D(q_ik_i)" in e.text for e in events)
    assert any(isinstance(e, Prose) for e in events)


def test_declarations_apply_below_and_title_and_skip_to_one_block() -> None:
    text = (
        "% attncheck: title first\n"
        "\\[ E(q_ik_i) = E(q_i)E(k_i) + Cov(q_i, k_i) \\]\n"
        "\\[ E(q_ik_i) = E(q_i)E(k_i) \\]\n"
        "% attncheck: skip\n"
        "\\[ \\mathrm{Attention}(Q) = 1 \\]\n"
        "% attncheck: assume q \\perp k\n"
        "\\[ E(q_ik_i) = E(q_i)E(k_i) \\]\n"
    )
    r = verify_text(text, "x.tex", numeric=False)
    assert [d.title for d in r.derivations] == ["first", "", ""]
    assert [s.status.value for s in r.steps] == ["holds", "needs-undeclared", "holds-given"]
    assert r.skipped == 1


def test_dimension_symbol_and_families_are_read_from_the_note() -> None:
    for text, dim in [("$$ \\sum_i E(q_i k_i) = 0 $$", "d"),
                      ("$$ \\sum_{i=1}^{d_k} E(q_i k_i) = 0 $$", "d_k"),
                      ("$$ \\sum_{i=1}^{n} E(x_i y_i) = 0 $$", "n"),
                      ("<!-- attncheck: dim m -->\n$$ \\sum_i E(q_i k_i) = 0 $$", "m")]:
        (d,) = verify_text(text, "x.md", numeric=False).derivations
        assert d.model.dim.name == dim, text
    (d,) = verify_text("$$ E(x^\\top y) = \\sum_{i=1}^{n} E(x_i y_i) $$", "x.md",
                       numeric=False).derivations
    assert [f.name for f in d.model.families] == ["x", "y"] and d.steps[0].status.value == "holds"


WORKED = [
    ("Consider $t_1 = 1, t_2 = 0, t_3 = 0$.\n\n", "\\frac{\\partial L}{\\partial x_3}",
     "- \\sum_{k=1}^{C} t_k \\frac{\\partial \\log y_k}{\\partial x_3}", "y_3"),
]


@pytest.mark.parametrize("before,lhs,middle,right", WORKED, ids=["vector"])
@pytest.mark.parametrize("wrong", [False, True])
def test_the_loss_in_a_worked_example_is_the_examples_loss(before: str, lhs: str, middle: str,
                                                           right: str, wrong: bool) -> None:
    # t = [1, 0, 0]: ∂L/∂x_3 = −∂log y_1/∂x_3 = y_3; the wrong twin is off by 1 (t_3 − 1)
    text = (before + "$$\\begin{align*}" + lhs + " &= " + middle + " \\\\ &= " + right +
            (" - 1" if wrong else "") + "\\end{align*}$$")
    r = verify_text(text, "x.md", numeric=False)
    claims = [s.status.value for s in r.steps if s.kind == "claim"]
    assert claims == ["holds", "fails" if wrong else "holds"], [s.note for s in r.steps]


@pytest.mark.parametrize("rhs,status", [("- \\sum_{i=1}^C y_i \\frac{\\partial \\log p_i}"
                                         "{\\partial z_j}", "holds"),
                                        ("- \\sum_{i=1}^C y_i \\frac{\\partial p_i}"
                                         "{\\partial z_j}", "fails")])
def test_a_likelihood_named_l_is_not_the_loss_l_ce(rhs: str, status: str) -> None:
    # L = P(y|x) names a likelihood (P is written out in the same row: a definition, not
    # a claim about an unknown P); L_{CE} below is still the cross-entropy
    text = ("$$p_i = \\frac{e^{z_i}}{\\sum_{c=1}^C e^{z_c}}$$\n\n"
            "$$L = P(y|x) = (p)^y (1-p)^{1-y}$$\n\n"
            "$$L = P(y|x)$$\n\n"
            "$$\\frac{\\partial L_{CE}}{\\partial z_j} = " + rhs + "$$")
    r = verify_text(text, "x.md", numeric=False)
    assert [(s.kind, s.status.value) for s in r.steps][1:] == [
        ("definition", "definition"), ("definition", "definition"), ("claim", "holds"),
        ("claim", status)]


@pytest.mark.parametrize("prose,step,status", [
    ("", r"\text{Var}(aX) = a^2 \text{Var}(X)", "holds"),
    ("", r"\text{Var}(aX) = a \text{Var}(X)", "fails"),
    ("", r"Var(X+Y) = Var(X) + Var(Y)", "needs-undeclared"),
    ("X and Y are independent random variables.", r"Var(X+Y) = Var(X) + Var(Y)", "holds-given"),
    ("X and Y are independent random variables.", r"Var(X+Y) = Var(X) + 2Var(Y)", "fails"),
    ("X, Y are two independent random variables. E[X] = 0, E[Y] = 0.",
     r"Var[XY] = Var[X] \cdot Var[Y]", "holds-given"),
    ("X, Y are two independent random variables.", r"Var[XY] = Var[X] \cdot Var[Y]",
     "needs-undeclared"),
    ("X, Y are two independent random variables.",
     r"Var[XY] = E[X]^2 \dot Var[Y] + E[Y]^2 \dot Var[X] + Var[X] \dot Var[Y]", "holds-given"),
    ("X, Y are two independent random variables.",
     r"Var[XY] = E[X]^2 \dot Var[Y] + E[Y]^2 \dot Var[X] + 2 Var[X] \dot Var[Y]", "fails"),
    ("Using the variance formula for the product of independent random variables:",
     r"\text{Var}(XY) = \text{Var}(X)\text{Var}(Y) + \text{Var}(X)[E(Y)]^2 + "
     r"\text{Var}(Y)[E(X)]^2", "holds-given"),
    ("X, Y are two independent random variables.",  # true only where E(Y) = 0
     r"Var[XY] = E[X]^2 \dot Var[Y] + Var[X] \dot Var[Y]", "needs-undeclared"),
])
def test_scalar_random_variables(prose: str, step: str, status: str) -> None:
    # capital letters inside Var/E are random variables; independence is what the note says
    r = verify_text(prose + "\n\n$$" + step + "$$", "x.md", numeric=False)
    assert [s.status.value for s in r.steps] == [status], [s.note for s in r.steps]


def test_a_name_given_in_a_sentence_is_a_definition_there() -> None:
    # the note used X for the logits above; "$X = q_i$" in a sentence renames it for what follows
    text = ("$$Y = softmax(X)$$\n\n假设 q 和 k 的各分量相互独立，$X = q_i$, $Y = k_i$，"
            "均值为0，方差为1。\n\n$$D(XY) = D(X)D(Y) = 1$$")
    r = verify_text(text, "x.md", numeric=False)
    assert [s.status.value for s in r.steps][-2:] == ["holds-given", "holds-given"]


@pytest.mark.parametrize("step,status", [
    (r"\frac{\partial e^x}{\partial x} = e^x", "holds"),
    (r"\frac{\partial e^x}{\partial x} = x e^{x-1}", "fails"),
    (r"\frac{\delta ln(x)}{\delta x} = \frac{1}{x}", "holds"),
    (r"\frac{d}{dx} \ln x = x", "fails"),
    (r"\frac{\delta x^{-1}}{\delta x} = -\frac{1}{x^2}", "holds"),
    (r"\frac{\delta x^{-1}}{\delta x} = \frac{1}{x^2}", "fails"),
    (r"\frac{d}{dx} \frac{f}{g} = \frac{1}{g}", "not-checked"),  # f, g: constants or functions?
])
def test_one_variable_calculus_a_note_recalls(step: str, status: str) -> None:
    r = verify_text("$$" + step + "$$", "x.md", numeric=True, numeric_seconds=0.05)
    (s,) = r.steps
    assert s.status.value == status, s.note
    if status in ("holds", "fails"):  # the independent route: complex-step derivatives
        assert s.checker == "calculus"
        assert s.evidence is not None and s.evidence.consistent is True, s.evidence


@pytest.mark.parametrize("text,status", [
    # S_i, ŷ_1: the note defined them where verify could not read it — never a ✗ on that ground
    (r"$$\frac{e^{a_i}}{\Sigma}\frac{\Sigma - e^{a_j}}{\Sigma} = S_i(1-S_j)$$", "not-checked"),
    (r"$$\frac{c1}{sum} = 2 c1$$", "not-checked"),
    # the wrong twin in quantities verify knows is still wrong
    (r"$$E(q_i k_i) = 1 + E(q_i) E(k_i)$$", "fails"),
])
def test_a_step_is_not_failed_on_quantities_verify_did_not_read(text: str, status: str) -> None:
    r = verify_text(text, "x.md", numeric=False)
    assert [s.status.value for s in r.steps] == [status], [s.note for s in r.steps]


@pytest.mark.parametrize("prose,status", [
    ("* 各维度的 $q_i, k_i$ 相互独立\n* 均值为 0\n* 方差为 1\n", "holds-given"),
    ("* 各维度的 $q_i, k_i$ 相互独立\n\n## 其他\n\n均值为 0，方差为 1\n", "needs-undeclared"),
    ("假設 $Q$ 和 $K$ 的元素是獨立的隨機變數，且經過標準化（平均值為 0，變異數為 1）。\n",
     "holds-given"),
    ("The components are independent.\n\n$$q_i \\sim N(0,1)\\\\ k_i \\sim N(0,1)$$\n",
     "holds-given"),
])
def test_assumptions_in_lists_traditional_chinese_and_laws(prose: str, status: str) -> None:
    r = verify_text(prose + "\n$$\\mathbb{E}[q_i k_i] = \\mathbb{E}[q_i] \\cdot \\mathbb{E}[k_i] = 0$$",
                    "x.md", numeric=False)
    assert [s.status.value for s in r.steps if s.kind == "claim"][-1] == status, \
        [(s.status.value, s.note) for s in r.steps]


def test_names_of_several_letters_and_letters_with_a_digit() -> None:
    from attncheck.verify.lexer import tokenize
    assert [(t.kind, t.value) for t in tokenize("x1 = sum")] == [
        ("LETTER", "x"), ("SUB", "_"), ("NUMBER", "1"), ("REL", "="), ("LETTER", "sum")]
    assert [t.value for t in tokenize("Gradient")] == ["Gradient"]
    assert [t.value for t in tokenize("qk")] == ["q", "k"]  # two letters still multiply


def test_a_row_named_in_text_defines_it_and_is_never_glued_to_the_display_before() -> None:
    text = ("$$cross\\ entropy=-y\\times\\log(\\hat y)$$\n\nThen\n\n"
            "$$\\text{Output}=\\text{Softmax}(\\frac{QK^T}{\\sqrt{d_k}})\\cdot V$$\n\n"
            "$$\\text{Loss} = -\\sum_k t_k \\log y_k$$\n")
    r = verify_text(text, "x.md", numeric=False)
    assert [(s.lhs_source, s.kind) for s in r.steps][1:] == [
        ("\\text{Output}", "definition"), ("\\text{Loss}", "definition")]


@pytest.mark.parametrize("step,status", [
    (r"(\frac{u}{v})' = \frac{u'v - uv'}{v^2}", "holds"),
    (r"(\frac{u}{v})' = \frac{u'v + uv'}{v^2}", "fails"),
    (r"(uv)' = u'v + uv'", "holds"),
    (r"(uv)' = u'v'", "fails"),
    (r"f'(x) = 2x", "not-checked"),  # an f this step does not define: no rule for every f
])
def test_rules_said_with_letters_hold_for_every_function(step: str, status: str) -> None:
    # u, v are functions of an unnamed variable; the numeric route tries seeded ones
    r = verify_text("$$" + step + "$$", "x.md", numeric=True, numeric_seconds=0.05)
    (s,) = r.steps
    assert s.status.value == status, s.note
    if status != "not-checked":
        assert s.evidence is not None and s.evidence.consistent is True
