"""How attention-scaling notes write their random vectors and moments, as the corpus taught
in its sixth round: capitals Q, K for the vectors (with components Q_i, or listed as
Q = (q_1, …, q_d)), the cross terms of a square (i ≠ j, Σ_{1≤i<j≤d}), a general variance σ²
(q_i ~ N(0, σ²), Var(s) = dσ⁴), and a named standard deviation.  Each true reading has a
wrong twin that must be rejected."""

from __future__ import annotations

import pytest

from attncheck.verify import verify_text
from attncheck.verify.evidence import PARAMETER_VALUE


def _claims(text: str, numeric: bool = False) -> list[str]:
    r = verify_text(text, "n.md", numeric=numeric)
    return [s.status.value for s in r.steps if s.kind == "claim"]


_IID = "Assume the components are independent, with mean 0 and variance 1.\n\n"


@pytest.mark.parametrize("rhs,status", [("d_k", "holds-given"), ("d_k^2", "fails")])
def test_capital_vectors_with_components(rhs: str, status: str) -> None:
    # Q·K = Σ Q_i K_i: Q and K are the random vectors (q, k), not matrices nor constants
    text = (_IID + "$$ Q \\cdot K = \\sum_{i=1}^{d_k} Q_i K_i $$\n\n"
            "$$ \\mathbb{E}[Q \\cdot K] = \\sum_{i=1}^{d_k} \\mathbb{E}[Q_i K_i] $$\n\n"
            f"$$ \\text{{Var}}(Q \\cdot K) = {rhs} $$\n")
    assert _claims(text)[-2:] == ["holds", status]


@pytest.mark.parametrize("rhs,status", [("d_k", "holds-given"), ("d_k^2", "fails")])
def test_capitals_listed_as_the_components_of_the_families(rhs: str, status: str) -> None:
    text = (_IID + "Let $Q=(q_1,q_2,\\ldots,q_{d_k})$ and $K=(k_1,k_2,\\ldots,k_{d_k})$.\n\n"
            "$$ E[q_i k_i] = E[q_i]E[k_i] $$\n\n"
            f"$$ \\operatorname{{Var}}(Q\\cdot K) = {rhs} $$\n")
    r = verify_text(text, "n.md", numeric=False)
    assert [s.status.value for s in r.steps if s.kind == "claim"][-1] == status
    # the listing is a definition of the name, not a claim about a vector
    assert not [s for s in r.steps if "q_1" in s.rhs_source and s.kind == "claim"]


def test_a_list_with_a_length_of_its_own_is_not_the_family() -> None:
    # A = [a_1, a_2] is 2-dimensional: A·B = a_1b_1 + a_2b_2 is not Σ_{i=1}^{d} a_i b_i
    text = ("$$ A = [a_1, a_2] $$ and $$ B = [b_1, b_2] $$\n\n"
            "$$ Y = A \\cdot B = a_1 b_1 + a_2 b_2 $$\n\n"
            "$$ Var[a_1 b_1] = Var[a_1] Var[b_1] $$\n")
    assert "fails" not in _claims(text)


@pytest.mark.parametrize("lead,status", [
    ("For the cross terms, since the means are 0:", "holds"),
    ("对于交叉项，由于期望为0：", "holds"),
    ("Since the means are 0:", "fails"),  # i = j is not excluded: E[q²k²] ≠ E[qk]²
])
def test_cross_terms_are_the_case_of_two_different_indices(lead: str, status: str) -> None:
    text = (_IID + f"{lead}\n\n"
            "$$ \\mathbb{E}[q_i k_i q_j k_j] = \\mathbb{E}[q_i k_i] \\mathbb{E}[q_j k_j] $$\n")
    statuses = _claims(text)
    assert statuses[-1].startswith(status), statuses


@pytest.mark.parametrize("factor,status", [("2", "holds"), ("", "fails")])
def test_a_sum_over_pairs_i_less_than_j(factor: str, status: str) -> None:
    text = ("$$ \\left(\\sum_{i=1}^{d} q_i k_i\\right)^2 = \\sum_{i=1}^{d} q_i^2 k_i^2 + "
            f"{factor} \\sum_{{1 \\le i < j \\le d}} q_i k_i q_j k_j $$\n")
    assert _claims(text) == [status]


def test_a_sum_over_pairs_of_an_unsymmetric_summand_is_refused() -> None:
    text = "$$ \\sum_{1 \\le i < j \\le d} q_i k_j = \\sum_{i=1}^{d} q_i k_i $$\n"
    r = verify_text(text, "n.md", numeric=False)
    assert [s.status.value for s in r.steps] == ["not-read"]
    assert "not symmetric" in r.steps[0].note


_SIGMA = ("The components are i.i.d.:\n\n"
          "$$ q_i, k_i \\sim \\mathcal{N}(0, \\sigma^2) $$\n\n"
          "$$ s = q \\cdot k = \\sum_{i=1}^{d} q_i k_i $$\n\n")


@pytest.mark.parametrize("rhs,status", [
    ("d \\sigma^4", "holds-given"), ("d \\sigma^2", "fails"), ("d", "fails")])
def test_a_general_variance_sigma_squared(rhs: str, status: str) -> None:
    r = verify_text(_SIGMA + f"$$ \\mathrm{{Var}}(s) = {rhs} $$\n", "n.md")
    step = [s for s in r.steps if s.kind == "claim"][-1]
    assert step.status.value == status
    # the numbers are drawn at σ = 1.3 (not 1, where σ⁴ = σ² = 1) and agree with the verdict
    assert step.evidence is not None and step.evidence.consistent is True
    assert f"{float(PARAMETER_VALUE):g}²" in step.evidence.point


@pytest.mark.parametrize("rhs,status", [("\\sigma^2", "holds"), ("\\sigma", "fails")])
def test_a_standard_deviation_by_its_name(rhs: str, status: str) -> None:
    # √(σ⁴) = σ² needs σ ≥ 0: a standard deviation is; \text{SD}(…) is the square root of Var
    text = _SIGMA + f"$$ \\sqrt{{\\sigma^4}} = {rhs} $$\n"
    assert _claims(text)[-1] == status
    text = _SIGMA + f"$$ \\text{{SD}}(s) = \\sqrt{{d}} {rhs} $$\n"
    assert _claims(text)[-1].startswith(status)


def test_a_variance_named_for_one_family_only_is_not_the_others() -> None:
    # "Var(q_i) = σ²" says nothing of k: Var(q_i k_i) = σ²·σ² needs Var(k_i) = σ² as well
    text = ("Components are independent with zero mean. Since "
            "$\\text{Var}(q_i) = E[q_i^2] = \\sigma^2$:\n\n"
            "$$ \\text{Var}(q_i k_i) = \\sigma^2 \\times \\sigma^2 $$\n")
    r = verify_text(text, "n.md", numeric=False)
    (step,) = [s for s in r.steps if s.kind == "claim" and "times" in s.rhs_source]
    assert step.status.value == "needs-undeclared"
    assert "Var(k_i) = σ²" in " ".join(str(h) for h in step.undeclared).replace("sigma**2", "σ²")


@pytest.mark.parametrize("rhs,status", [("1", "holds"), ("2", "fails")])
def test_a_value_given_for_sigma_squared(rhs: str, status: str) -> None:
    text = ("Each component has mean $\\mu = 0$ and variance $\\sigma^2 = 1$, independently.\n\n"
            f"$$ \\text{{Var}}(q_i k_i) = \\sigma^4 = {rhs} $$\n")
    assert _claims(text)[-1] == status


def test_sigma_as_a_softmax_is_not_a_spread() -> None:
    text = ("$$ \\sigma(z)_i = \\frac{e^{z_i}}{\\sum_j e^{z_j}} $$\n\n"
            "$$ \\frac{\\partial \\sigma(z)_i}{\\partial z_i} = \\sigma(z)_i (1 - \\sigma(z)_i) $$\n")
    assert _claims(text) == ["holds"]


def test_an_unknown_function_named_in_text_is_not_dropped() -> None:
    # \text{MSE}(a, b) read without its name would be the pair (a, b)
    text = "$$ \\text{MSE}(q_1) = \\mathbb{E}[q_1^2] $$\n"
    r = verify_text(text, "n.md", numeric=False)
    # a function the note names by a word and defines here: kept whole, never judged as q_1
    assert [s.kind for s in r.steps] == ["definition"]
    assert "MSE" in str(r.steps[0].lhs)


_SOFTMAX_A = "$$ a_i = \\frac{e^{z_i}}{\\sum_{k=1}^{n} e^{z_k}} $$\n\n"


@pytest.mark.parametrize("rhs,status", [("\\hat{y}_i(1-\\hat{y}_i)", "holds"),
                                        ("\\hat{y}_i^2", "fails")])
def test_another_name_for_the_output_given_in_words(rhs: str, status: str) -> None:
    text = (_SOFTMAX_A + "输出层的 $a_i$，即 $\\hat{y}_i$，是预测的概率。\n\n"
            f"$$ \\frac{{\\partial \\hat{{y}}_i}}{{\\partial z_i}} = {rhs} $$\n")
    assert _claims(text) == [status]


@pytest.mark.parametrize("rhs,status", [("p_i(1-p_i)", "holds"), ("p_i", "fails")])
def test_the_output_softmax_gives_named_in_words(rhs: str, status: str) -> None:
    text = ("$$ \\text{softmax}(x_i) = \\frac{e^{x_i}}{\\sum_{j=1}^n e^{x_j}} $$\n\n"
            "Applying softmax to the scores gives $p$, the predicted distribution.\n\n"
            f"$$ \\frac{{\\partial p_i}}{{\\partial x_i}} = {rhs} $$\n")
    assert _claims(text) == [status]


def test_a_name_in_words_never_merges_two_letters() -> None:
    # y_c is the label here and ŷ what softmax gives: reading ŷ as y would make
    # −y_c/ŷ_c = −1/ŷ_c (true for y_c = 1) a failure 1 ≠ 1/y_c
    text = ("$$ \\text{softmax}(x_i) = \\frac{e^{x_i}}{\\sum_{j=1}^n e^{x_j}} $$\n\n"
            "对输出进行softmax计算，得到 $\\hat{y}$。其中 $y_c=1$。\n\n"
            "$$ \\frac{\\partial L}{\\partial \\hat{y}_c} = -\\frac{y_c}{\\hat{y}_c} "
            "= -\\frac{1}{\\hat{y}_c} $$\n")
    assert "fails" not in _claims(text)


@pytest.mark.parametrize("rhs,status", [("-y_2 \\log \\hat{y}_2", "holds"),
                                        ("-y_1 \\log \\hat{y}_1", "fails")])
def test_the_label_a_worked_example_writes_out(rhs: str, status: str) -> None:
    text = ("$$ \\hat{y}_i = \\frac{e^{z_i}}{\\sum_{k=1}^{4} e^{z_k}} $$\n\n"
            "$$ y = \\begin{bmatrix} 0 \\\\ 1 \\\\ 0 \\\\ 0 \\end{bmatrix} $$\n\n"
            "$$ L = -\\sum_{j=1}^{4} y_j \\log \\hat{y}_j $$\n\n"
            f"$$ L = {rhs} $$\n")
    assert _claims(text)[-1].startswith(status)


@pytest.mark.parametrize("last,status", [("(p_i - 1) y_i", "holds"), ("(p_i + 1) y_i", "fails")])
def test_a_sum_without_limits_runs_to_the_notes_number_of_classes(last: str, status: str) -> None:
    # ten classes written in every limit: Σ_{j≠i} runs to 10 as well, not to a symbol n
    text = ("$$ p_j = \\frac{e^{z_j}}{\\sum_{k=1}^{10} e^{z_k}} $$\n\n"
            "$$ L = -\\sum_{j=1}^{10} y_j \\log p_j $$\n\n"
            "$$ \\sum_{j=1}^{10} \\frac{\\partial L}{\\partial p_j}\\frac{\\partial p_j}{\\partial z_i}"
            f" = \\sum_{{j\\neq i}} p_i y_j + {last} $$\n")
    assert _claims(text) == [status]


_Y = "$$ y_i = \\frac{e^{x_i}}{\\sum_k e^{x_k}} $$\n\n"
_DYDX = "\\frac{\\partial \\mathbf{y}}{\\partial \\mathbf{x}}"


@pytest.mark.parametrize("rhs,status", [
    ("\\text{diag}(\\mathbf{y}) - \\mathbf{y}\\mathbf{y}^T", "holds"),
    ("\\operatorname{diag}(\\mathbf{y}) - \\mathbf{y}^\\top\\mathbf{y}", "holds"),  # row vectors
    ("\\text{diag}(\\mathbf{y}) + \\mathbf{y}\\mathbf{y}^T", "fails"),
    ("\\mathbf{y}\\mathbf{y}^T - \\text{diag}(\\mathbf{y})", "fails"),
    ("\\text{diag}(\\mathbf{y}) - \\mathbf{x}\\mathbf{y}^T", "fails"),
])
def test_the_softmax_jacobian_in_vector_form(rhs: str, status: str) -> None:
    r = verify_text(_Y + f"$$ {_DYDX} = {rhs} $$\n", "n.md")
    (step,) = [s for s in r.steps if s.kind == "claim"]
    assert step.status.value == status
    # its numbers: every entry at a softmax point, by complex step, agrees with the verdict
    assert step.evidence is not None and step.evidence.consistent is True


@pytest.mark.parametrize("corner,status", [("y_1(1-y_1)", "holds"), ("y_1(1+y_1)", "fails")])
def test_a_written_jacobian_against_its_vector_form(corner: str, status: str) -> None:
    text = (_Y + f"$$ \\begin{{bmatrix}} {corner} & -y_1 y_2 & \\cdots \\\\ -y_2 y_1 & "
            "y_2(1-y_2) & \\cdots \\\\ \\vdots & \\vdots & \\ddots \\end{bmatrix} = "
            "\\text{diag}(\\mathbf{y}) - \\mathbf{y}\\mathbf{y}^T $$\n")
    assert _claims(text) == [status]


@pytest.mark.parametrize("rhs,status", [("\\sum_k y_k^2", "holds"), ("\\sum_k y_k", "fails")])
def test_y_transpose_y_alone_is_a_dot_product(rhs: str, status: str) -> None:
    assert _claims(_Y + f"$$ \\mathbf{{y}}^T\\mathbf{{y}} = {rhs} $$\n") == [status]


@pytest.mark.parametrize("rhs,status", [
    ("\\text{diag}(\\mathbf s) - \\mathbf s^\\top \\mathbf s", "holds"),
    ("\\text{diag}(\\mathbf s) - 2\\mathbf s^\\top \\mathbf s", "fails")])
def test_a_jacobian_named_j_by_its_variable(rhs: str, status: str) -> None:
    # J_𝐱(𝐬): the Jacobian of s by x, in the note that writes s as a row vector
    text = ("$$ s(\\mathbf x)_i = \\frac{e^{x_i}}{\\sum e^{x_j}} $$\n\n"
            f"$$ \\mathbf J_{{\\mathbf x}}(\\mathbf s) = {rhs} $$\n")
    assert _claims(text) == [status]


@pytest.mark.parametrize("words,rhs,status", [
    ("Softmax is invariant to shifting $\\mathbf x$ by a constant $c$.", "y_i", "holds"),
    ("Softmax is invariant to shifting $\\mathbf x$ by a constant $c$.", "e^{c} y_i", "fails"),
    ("对任意常数 $c$，有：", "y_i", "holds"),
])
def test_a_constant_the_words_name(words: str, rhs: str, status: str) -> None:
    text = (_Y + f"{words}\n\n"
            f"$$ \\frac{{e^{{x_i + c}}}}{{\\sum_k e^{{x_k + c}}}} = {rhs} $$\n")
    r = verify_text(text, "n.md")
    (step,) = [s for s in r.steps if s.kind == "claim"]
    assert step.status.value == status
    assert step.evidence is not None and step.evidence.consistent is True


def test_a_letter_the_words_do_not_call_constant_is_not_one() -> None:
    # c also the class index of y_c: never a free constant (a letter only ever added to the
    # scores, and never an index, is the shift: test_a_letter_only_added_to_the_scores_…)
    text = _Y + "$$ L = -\\log y_c $$\n\n$$ \\frac{e^{x_i + c}}{\\sum_k e^{x_k + c}} = y_i $$\n"
    assert _claims(text)[-1:] != ["holds"]


@pytest.mark.parametrize("text,status", [
    ("[0.098, 0.659, 0.242] - [0, 1, 0] = [0.098, -0.341, 0.242]", "holds"),
    ("[0.098, 0.659, 0.242] - [0, 1, 0] = [0.098, 0.341, 0.242]", "fails"),
    ("[-0.8, 1.1, 0.1] - 1.1 = [-1.9, 0, -1.0]", "holds"),  # a number goes to every entry
    ("[-0.8, 1.1, 0.1] - 1.1 = [-1.9, 0, 1.0]", "fails"),
])
def test_a_worked_examples_vectors_entry_by_entry(text: str, status: str) -> None:
    assert _claims(f"$$ {text} $$\n") == [status]


def test_vectors_of_different_lengths_are_not_added() -> None:
    r = verify_text("$$ [1, 2] - [0, 1, 0] = [1, 1, 0] $$\n", "n.md", numeric=False)
    assert [s.status.value for s in r.steps] == ["not-read"]
    assert "lengths 3 and 2" in r.steps[0].note or "lengths 2 and 3" in r.steps[0].note


@pytest.mark.parametrize("rhs,status", [("\\sqrt{d_k}", "holds-given"), ("d_k", "fails")])
def test_sigma_of_a_random_score_is_its_standard_deviation(rhs: str, status: str) -> None:
    # z = QKᵀ (not read), then z = Σ q_i k_i defines z again; σ(z) is its standard deviation
    text = (_IID + "$$ z = QK^\\top $$\n\n$$ z = \\sum_{i=1}^{d_k} q_i k_i $$\n\n"
            "$$ \\text{Var}(z) = d_k $$\n\n因此标准差为：\n\n"
            f"$$ \\sigma(z) = {rhs} $$\n")
    assert _claims(text)[-2:] == ["holds-given", status]


@pytest.mark.parametrize("rhs,status", [("y_i(1 - y_i)", "holds"), ("y_i(1 + y_i)", "fails")])
def test_a_boxed_result_is_a_claim(rhs: str, status: str) -> None:
    # a display that is only \boxed{a = b}: the note's result, checked like any other
    text = _Y + f"$$\\boxed{{\\frac{{\\partial y_i}}{{\\partial x_i}} = {rhs}}}.$$\n"
    assert _claims(text) == [status]


@pytest.mark.parametrize("rhs,status", [("1", "holds"), ("C", "fails")])
def test_a_layer_written_up_is_not_a_power(rhs: str, status: str) -> None:
    # a_i^{[L]}: the output layer's a_i (Ng's notation), not a_i to the power L
    text = ("$$ a_i^{[L]}=\\frac{e^{z_i^{[L]}}}{\\sum_{k=1}^{C}e^{z_k^{[L]}}} $$\n\n"
            f"$$ \\sum_{{i=1}}^{{C}}a_i^{{[L]}} = {rhs} $$\n")
    assert _claims(text) == [status]


def test_another_layer_and_a_gradient_name_stay_names() -> None:
    # a^{[L-1]} is not a^{[L]}, and dZ^{[L]} is a gradient's name, not d·Z: not judged
    text = ("$$ a_i^{[L]}=\\frac{e^{z_i^{[L]}}}{\\sum_{k=1}^{C}e^{z_k^{[L]}}} $$\n\n"
            "$$ a_1^{[L-1]} = a_1^{[L]} $$\n\n$$ dZ^{[L]} = A^{[L]} - Y $$\n")
    assert all(s in ("not-checked", "not-read") for s in _claims(text))


def test_a_reason_in_words_with_a_little_math_inside() -> None:
    # \text{（当 }X,Y\text{ 独立时）}: the reason of the row, its X, Y included
    text = "$$\\boxed{E[XY]=E[X]E[Y]\\quad\\text{（当 }X,Y\\text{ 独立时）}}$$\n"
    r = verify_text(text, "n.md", numeric=False)
    (step,) = r.steps
    assert step.status.value in ("holds-given", "needs-undeclared")
    assert step.reason == "当 X,Y 独立时"


@pytest.mark.parametrize("rhs,status", [("a_i (1-a_i)", "holds"), ("a_i (1+a_i)", "fails")])
def test_a_sum_named_but_never_defined_is_the_softmax_denominator(rhs: str, status: str) -> None:
    # Σ_C in e^{z_i}/Σ_C, never defined: the sum of the exponentials it divides
    text = ("$$ a_i = \\frac{e^{z_i}}{\\sum_{k=1}^{C} e^{z_k}} $$\n\n"
            "$$ \\frac{e^{z_i}\\cdot \\sum_C-e^{z_i}\\cdot e^{z_i}}{(\\sum_C)^2} = "
            f"{rhs} $$\n")
    assert _claims(text) == [status]


_S = "$$ S_i = \\frac{e^{a_i}}{\\sum_k e^{a_k}} $$\n\n"


@pytest.mark.parametrize("cases,status", [
    ("\\left\\{ \\begin{matrix} S_i(1-S_j) & i=j\\\\ -S_j S_i & i \\neq j \\end{matrix} \\right.",
     ["holds", "holds"]),
    ("\\left\\{ \\begin{array}{ll} S_i(1+S_j) & i=j\\\\ -S_j S_i & i \\neq j \\end{array} \\right.",
     ["fails", "holds"]),
    ("\\left\\{\\begin{aligned}S_i-S_i S_j\\qquad(i=j)\\\\ -S_iS_j\\qquad(i\\neq j)\\end{aligned}"
     "\\right.", ["holds", "holds"]),
])
def test_cases_drawn_with_a_brace_by_hand(cases: str, status: list[str]) -> None:
    assert _claims(_S + f"$$ \\frac{{\\partial S_i}}{{\\partial a_j}} = {cases} $$\n") == status


def test_a_double_equals_sign_in_a_case() -> None:
    # "对于 $i==j$ 的情况": the case i = j, as code writes it
    text = (_S + "对于 $i==j$ 的情况：\n\n"
            "$$ \\frac{\\partial S_i}{\\partial a_j} = S_i(1-S_j) $$\n")
    assert _claims(text) == ["holds"]


@pytest.mark.parametrize("rhs,status", [("-\\sigma_2(z)\\sigma_1(z)", "holds"),
                                        ("\\sigma_2(z)(1-\\sigma_1(z))", "fails")])
def test_sigma_with_an_index_is_the_softmax_output(rhs: str, status: str) -> None:
    # σ_i(z) inside a cross-entropy: the i-th softmax output of z, never σ_i·z
    text = ("$$ L = -\\sum_{i=1}^{n} y_i \\log \\sigma_i(z) $$\n\n"
            f"$$ \\frac{{\\partial \\sigma_2(z)}}{{\\partial z_1}} = {rhs} $$\n")
    assert _claims(text) == [status]


def test_e_to_a_number_beside_the_scores_is_an_example() -> None:
    # σ_1(z) = e^1/Σ_j e^{z_j} with z = (1, 2, 3) said in words: not failed for a general z
    text = ("$$ \\sigma_i(z) = \\frac{e^{z_i}}{\\sum_{j=1}^{3} e^{z_j}} $$\n\n"
            "$$ \\sigma_1(z) = \\frac{e^1}{\\sum_{j=1}^{3} e^{z_j}} $$\n")
    assert _claims(text) == ["not-checked"]


@pytest.mark.parametrize("rhs,status", [("-\\log \\sigma_2(z)", "holds"),
                                        ("-\\log \\sigma_1(z)", "fails")])
def test_a_label_written_in_parentheses_for_the_example(rhs: str, status: str) -> None:
    text = ("$$ \\sigma_i(z) = \\frac{e^{z_i}}{\\sum_{j} e^{z_j}} $$\n\n"
            "真实标签为 $y = (0, 1)$。\n\n"
            "$$ L = -\\sum_{i=1}^{n} y_i \\log \\sigma_i(z) $$\n\n"
            f"$$ L = - (0 \\cdot \\log \\sigma_1(z) + 1 \\cdot \\log \\sigma_2(z)) = {rhs} $$\n")
    first, last = _claims(text)[-2:]
    assert first.startswith("holds") and last.startswith(status)


@pytest.mark.parametrize("row,status", [
    ("\\sum_{j=1}^{3} e^{z_j} = 2.718 + 7.389 + 20.086", "holds"),
    ("\\sum_{j=1}^{3} e^{z_j} = 2.718 + 7.389 + 21.086", "fails"),
    ("\\sigma_2(z) = \\frac{e^2}{\\sum_{j=1}^{3} e^{z_j}} = 0.245", "holds"),
    ("\\sigma_2(z) = \\frac{e^2}{\\sum_{j=1}^{3} e^{z_j}} = 0.345", "fails"),
])
def test_a_worked_example_at_the_scores_it_gives(row: str, status: str) -> None:
    # z = (1, 2, 3) given in a sentence: the example's numbers are checked at those scores
    text = ("$$ \\sigma_i(z) = \\frac{e^{z_i}}{\\sum_{j=1}^{3} e^{z_j}} $$\n\n"
            "Take $z = (1, 2, 3)$.\n\n"
            f"$$ {row} $$\n")
    assert _claims(text)[-1] == status


def test_a_general_step_is_not_put_at_the_example_scores() -> None:
    # z = (1, 2, 3) given, but ∂σ_i/∂z_i = 0.5 has no entry of the example: not judged true
    text = ("$$ \\sigma_i(z) = \\frac{e^{z_i}}{\\sum_{j=1}^{3} e^{z_j}} $$\n\n"
            "Take $z = (1, 2, 3)$.\n\n"
            "$$ \\frac{\\partial \\sigma_i(z)}{\\partial z_i} = \\sigma_i(z)(1 - \\sigma_i(z)) $$\n")
    assert _claims(text) == ["holds"]


@pytest.mark.parametrize("rhs,status", [("y_i (1 - y_i)", "holds"), ("y_i (1 + y_i)", "fails")])
def test_a_sum_without_limits_runs_over_the_letter_that_is_not_free(rhs: str, status: str) -> None:
    # Σ e^{x_d} · e^{x_i}: i is the step's own index; the sum runs over d
    text = (_Y + "If $i = j$:\n\n"
            "$$ \\frac{\\sum e^{x_d} \\cdot e^{x_i} - e^{x_i} \\cdot e^{x_i}}{(\\sum e^{x_d})^2}"
            f" = {rhs} $$\n")
    assert _claims(text) == [status]
