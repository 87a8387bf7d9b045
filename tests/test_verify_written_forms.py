r"""Forms the seventh corpus batch met on first contact, each read in general: an entry
written with an upper index (Z_2^{(i)}, Y_{\text{pred}}^{(j)}), a shift m = \max_k z_k, a
worked example's decimals on one side only, units after numbers, words inside an HTML <div>,
\mathbb{V}ar, \left|…\right|, an error term δ_i, an aligned block wrapped in braces, and
"lna" typed without a space.  Each true reading has a wrong twin that must be rejected (or,
where the note's meaning cannot be read, is not judged at all)."""

from __future__ import annotations

import pytest

from attncheck.verify import verify_text


def _steps(text: str) -> list[tuple[str, str]]:
    r = verify_text(text, "n.md", numeric=False)
    return [(s.status.value, s.note or s.reason) for s in r.steps if s.kind == "claim"]


def _claims(text: str) -> list[str]:
    return [status for status, _ in _steps(text)]


_UPPER = ("$$\nY_{\\text{pred}}^{(j)} = \\frac{e^{Z_2^{(j)}}}{\\sum_{c=1}^{C} e^{Z_2^{(c)}}}\n$$\n\n"
          "$$\n\\frac{\\partial Y_{\\text{pred}}^{(j)}}{\\partial Z_2^{(i)}} = {rhs}\n$$\n")


@pytest.mark.parametrize("rhs,status", [
    ("Y_{\\text{pred}}^{(j)} \\left( \\delta_{ij} - Y_{\\text{pred}}^{(i)} \\right)", "holds"),
    ("Y_{\\text{pred}}^{(j)} \\cdot \\left( \\delta_{ij} - Y_{\\text{pred}}^{(i)} \\right)", "holds"),
    ("Y_{\\text{pred}}^{(j)} \\left( \\delta_{ij} - Y_{\\text{pred}}^{(j)} \\right)", "fails"),
    # the Jacobian is symmetric: the entries' roles may swap
    ("Y_{\\text{pred}}^{(i)} \\left( \\delta_{ij} - Y_{\\text{pred}}^{(j)} \\right)", "holds"),
    ("Y_{\\text{pred}}^{(j)} \\left( \\delta_{ij} + Y_{\\text{pred}}^{(i)} \\right)", "fails"),
])
def test_entries_written_with_an_upper_index(rhs: str, status: str) -> None:
    # (j) and (i) are two entries of layer 2's vector: never one quantity; and a bracket
    # with a \text label in it is a factor, not the row's reason
    assert _claims(_UPPER.replace("{rhs}", rhs)) == [status]


_SHIFT = ("Let $p_i = \\frac{{e^{{z_i}}}}{{\\sum_k e^{{z_k}}}}$ and $m = \\max_k z_k$.\n\n"
          "$$\n{claim}\n$$\n")


@pytest.mark.parametrize("claim,status", [
    ("p_i = \\frac{e^{z_i - m}}{\\sum_k e^{z_k - m}}", "holds"),
    ("p_i = \\frac{e^{z_i - m}}{\\sum_k e^{z_k}}", "fails"),
    ("\\log p_i = z_i - m - \\log \\sum_k e^{z_k - m}", "holds"),
    ("\\log p_i = z_i - \\log \\sum_k e^{z_k - m}", "fails"),
    # under a derivative the largest entry moves with z: not taken for a constant
    ("\\frac{\\partial}{\\partial z_j} (z_i - m) = \\delta_{ij}", "not-checked"),
])
def test_a_shift_by_the_largest_score(claim: str, status: str) -> None:
    assert _claims(_SHIFT.format(claim=claim)) == [status]


_EXAMPLE = ("$$ \\begin{{aligned}} e^{{2.0}} &= 7.389, & e^{{1.0}} &= 2.718 \\end{{aligned}} $$\n\n"
            "$$ p_{{\\text{{dog}}}} = \\tfrac{{2.718}}{{7.389 + 2.718}} $$\n\n"
            "$$ {claim} $$\n")


@pytest.mark.parametrize("claim,status", [
    # 2.718/10.107 = 0.26892…: 0.269 is its rounding, wherever the decimal stands
    ("-\\log p_{\\text{dog}} = -\\log(0.269)", "holds"),
    ("-\\log p_{\\text{dog}} = -\\log(0.279)", "fails"),
    # both sides written: −log(0.269) = 1.31302…, so 1.313 holds and 1.318 does not
    ("-\\log(0.269) = 1.313", "holds"),
    ("-\\log(0.269) = 1.318", "fails"),
])
def test_a_worked_examples_decimals(claim: str, status: str) -> None:
    assert _claims(_EXAMPLE.format(claim=claim))[-1] == status


@pytest.mark.parametrize("text,status", [
    ("$$ \\text{Memory} = 2 \\times 1024 \\times 1024 \\text{ Bytes} = 2 \\text{ MB} $$\n",
     "not-read"),
    ("$$ \\text{Memory} = 2 \\times 1024 \\times 1024 = 2097152 $$\n", "holds"),
    ("$$ \\text{Memory} = 2 \\times 1024 \\times 1024 = 2 $$\n", "fails"),
])
def test_numbers_with_units_are_not_compared_bare(text: str, status: str) -> None:
    steps = _steps(text)
    assert [s for s, _ in steps] == [status]
    if status == "not-read":
        assert "units" in steps[0][1]


@pytest.mark.parametrize("words,status", [
    ("When $y$ is one-hot on the true class $c$, every term but one vanishes.", "holds-given"),
    ("Every term is kept.", "fails"),
])
def test_words_inside_an_html_block_are_read(words: str, status: str) -> None:
    text = ("$$ p_i = \\frac{e^{z_i}}{\\sum_k e^{z_k}} $$\n\n"
            '<div class="definition">\n'
            "The loss is\n"
            "$$ L = -\\sum_{i=1}^{K} y_i \\log p_i . $$\n"
            f"{words}\n</div>\n\n$$ L = -\\log p_c $$\n")
    assert _claims(text) == [status]


def test_an_entry_named_by_a_word_beside_a_sum_is_not_judged() -> None:
    # which index "dog" is, and so where the label's 1 stands, the note says in words
    text = ("$$ p_i = \\frac{e^{z_i}}{\\sum_k e^{z_k}} $$\n\n"
            "$$ L = -\\sum_{i=1}^{K} y_i \\log p_i $$\n\n$$ L = -\\log p_{\\text{dog}} $$\n")
    steps = _steps(text)
    assert steps[-1][0] == "not-checked" and "dog" in steps[-1][1]


@pytest.mark.parametrize("rhs,status", [("d", "holds-given"), ("d^2", "fails")])
def test_a_double_struck_v_before_ar(rhs: str, status: str) -> None:
    text = ("Assume the components are independent, with mean 0 and variance 1.\n\n"
            f"$$ \\mathbb{{V}}ar[q \\cdot k] = {rhs} $$\n")
    assert _claims(text) == [status]


@pytest.mark.parametrize("rhs,status", [("0", "holds-given"), ("1", "fails")])
def test_an_absolute_value_written_with_left_and_right(rhs: str, status: str) -> None:
    # \left| … \right| closes what it opened: |E[q_i k_i]|, not a bar of evaluation
    text = ("Assume the components are independent, with mean 0 and variance 1.\n\n"
            f"$$ \\left| E[q_i k_i] \\right| = {rhs} $$\n")
    assert _claims(text) == [status]


@pytest.mark.parametrize("rhs,status", [("y_1(a_1 - 1)", "holds"), ("y_1(1 - a_1)", "fails")])
def test_an_aligned_block_wrapped_in_braces(rhs: str, status: str) -> None:
    text = ("$$ a_i = \\frac{e^{z_i}}{\\sum_k e^{z_k}} $$\n\n"
            "$${\\begin{aligned}\n"
            "-y_1+a_1 y_1 & = a_1 y_1 - y_1 \\\\\\\\\n"
            f"& = {rhs}\n"
            "\\end{aligned}}$$\n")
    assert _claims(text) == ["holds", status]


@pytest.mark.parametrize("rhs,status", [("-\\frac{y_1}{a_1}", "holds"),
                                        ("\\frac{y_1}{a_1}", "fails")])
def test_ln_typed_against_its_argument(rhs: str, status: str) -> None:
    # "y_1lna_1" is y_1 ln a_1, as the note's reader sees it — not y_1·l·n·a_1
    text = ("$$ a_i = \\frac{e^{z_i}}{\\sum_k e^{z_k}} $$\n\n"
            "$$ loss = -(y_1lna_1 + y_2lna_2) $$\n\n"
            f"$$ \\frac{{\\partial loss}}{{\\partial a_1}} = {rhs} $$\n")
    assert _claims(text) == [status]


@pytest.mark.parametrize("rhs,status", [("y_i - a_i", "holds"), ("a_i - y_i", "fails")])
def test_an_error_term_with_one_index_is_a_name(rhs: str, status: str) -> None:
    text = ("$$ a_i = \\frac{e^{z_i}}{\\sum_k e^{z_k}} $$\n\n$$ \\delta_i = -(a_i - y_i) $$\n\n"
            f"$$ \\delta_i = {rhs} $$\n")
    assert _claims(text) == [status]


@pytest.mark.parametrize("rhs,status", [("y_1(a_1 - 1)", "holds"), ("y_1(1 - a_1)", "fails")])
def test_entry_one_alone_does_not_make_a_vector_of_length_one(rhs: str, status: str) -> None:
    # a_1 y_1 − y_1 writes entry 1 only: the softmax still has n entries (at n = 1 every
    # output is 1, and the wrong twin would "hold")
    text = "$$ a_i = \\frac{e^{z_i}}{\\sum_k e^{z_k}} $$\n\n" f"$$ a_1 y_1 - y_1 = {rhs} $$\n"
    assert _claims(text) == [status]


@pytest.mark.parametrize("rhs,status", [("1", "holds"), ("a_1", "fails")])
def test_entries_one_to_three_written_out_make_the_length_three(rhs: str, status: str) -> None:
    text = ("$$ a_1 = \\frac{e^{z_1}}{e^{z_1} + e^{z_2} + e^{z_3}} $$\n\n"
            f"$$ a_1 + a_2 + a_3 = {rhs} $$\n")
    assert _claims(text) == [status]


@pytest.mark.parametrize("rhs,status", [("\\hat y_{i} - y_{i}", "holds-given"),
                                        ("y_{i} - \\hat y_{i}", "fails")])
def test_the_loss_names_the_softmax_output_with_a_hat(rhs: str, status: str) -> None:
    # the softmax is σ(z)_{i}; the loss writes ŷ, never defined: the prediction is σ(z)
    text = ("$$ \\sigma(\\mathbf{z})_{i} = \\frac{e^{z_{i}}}{\\sum_{j=1}^{K} e^{z_{j}}} $$\n\n"
            "$$ L = - \\sum_{i} y_{i} \\log(\\hat y_{i}) $$\n\nThe label is one-hot.\n\n"
            f"$$ \\frac{{\\partial L}}{{\\partial z_i}} = {rhs} $$\n")
    assert _claims(text) == [status]


@pytest.mark.parametrize("tag,status", [("mathjax", "holds"), ("nomath", None)])
def test_hexo_math_tags_are_displays(tag: str, status: str | None) -> None:
    text = ("<div>\n\t{% " + tag + " %}\n\t\\displaylines{\\frac{e^{z_1}}{e^{z_1}+e^{z_2}} "
            "&= \\frac{1}{1+e^{z_2-z_1}}}\n\t{% end" + tag + " %}\n</div>\n")
    r = verify_text(text, "n.md", numeric=False)
    assert [s.status.value for s in r.steps if s.kind == "claim"] == ([status] if status else [])


def test_a_shape_before_a_definition_does_not_make_it_a_claim() -> None:
    # K ∈ ℝ^{n×d_k} says what K is; K = XW^K after it defines K (a claim would "fail")
    text = ("其中 $Q \\in \\mathbb{R}^{n \\times d_k}$，$K \\in \\mathbb{R}^{n \\times d_k}$。\n\n"
            "$$\nQ = XW^Q, \\quad K = XW^K\n$$\n")
    r = verify_text(text, "n.md", numeric=False)
    assert [s.kind for s in r.steps] == ["definition", "definition"]


@pytest.mark.parametrize("second,status", [
    ("## 3.4 Another cost\n\n$$ \\delta_i = a_i (1-a_i) (y_i - a_i) $$\n", "not-checked"),
    ("$$ \\delta_i = a_i (1-a_i) (y_i - a_i) $$\n", "fails"),  # same section: a claim
])
def test_a_name_defined_again_under_a_new_heading(second: str, status: str) -> None:
    text = ("## 3.3 Cross-entropy\n\n$$ a_i = \\frac{e^{z_i}}{\\sum_k e^{z_k}} $$\n\n"
            "$$ \\delta_i = -(a_i - y_i) $$\n\n" + second)
    assert _claims(text) == [status]


def test_a_function_applied_is_not_a_name_to_define() -> None:
    # log(C) = −max(z) says what C is chosen to be; it does not redefine log
    text = ("$$ p_i = \\frac{e^{z_i}}{\\sum_k e^{z_k}} $$\n\nWe choose $log(C) = -max(z)$.\n\n"
            "$$ -\\log p_i = -z_i + \\log \\sum_k e^{z_k} $$\n")
    assert _claims(text)[-1] == "holds"


@pytest.mark.parametrize("claim,status", [
    ("p_k^{(i)} - p_k^{(j)} = 0", "not-checked"),  # two samples read as one: never "holds"
    ("p_k^{(i)} = \\frac{e^{z_k^{(i)}}}{\\sum_j e^{z_j^{(i)}}}", "holds"),
    ("p_k^{(i)} = \\frac{e^{z_k^{(i)}}}{\\sum_j e^{z_j^{(i)}}} + 1", "fails"),
])
def test_entries_of_two_samples_are_never_one(claim: str, status: str) -> None:
    text = ("$$ p_k^{(i)} = \\frac{e^{z_k^{(i)}}}{\\sum_j e^{z_j^{(i)}}} $$\n\n"
            f"$$ {claim} $$\n")
    assert _claims(text) == [status]


@pytest.mark.parametrize("wrapped", [
    "{{< texd `\\begin{aligned} y_1 + y_2 &= 1 - y_3 \\end{aligned}` >}}",
    "`$$\ny_1 + y_2 = 1 - y_3\n$$`",
])
@pytest.mark.parametrize("sign,status", [("-", "holds"), ("+", "fails")])
def test_hugo_displays(wrapped: str, sign: str, status: str) -> None:
    # a Hugo shortcode, or $$ in backticks (the theme's way to keep Markdown off the TeX)
    text = ("$$ y_1 = \\frac{e^{x_1}}{e^{x_1} + e^{x_2} + e^{x_3}} $$\n\n" +
            wrapped.replace("1 - y_3", f"1 {sign} y_3") + "\n")
    assert _claims(text)[-1] == status


@pytest.mark.parametrize("rhs,status", [("1 - y_i", "holds"), ("1 + y_i", "fails")])
def test_substack_limits(rhs: str, status: str) -> None:
    text = ("$$ y_i = \\frac{e^{x_i}}{\\sum_j e^{x_j}} $$\n\n"
            f"$$ \\sum_{{\\substack{{j=1 \\\\ j \\neq i}}}}^n y_j = {rhs} $$\n")
    assert _claims(text) == [status]


@pytest.mark.parametrize("rhs,status", [("\\frac{1}{1 + e^{-20}}", "holds"),
                                        ("\\frac{1}{1 + e^{-21}}", "fails")])
def test_numbers_with_powers_of_e(rhs: str, status: str) -> None:
    # e^{20}/(e^{20} + e^0) = 1/(1 + e^{-20}): equal once the powers of e are combined
    assert _claims(f"$$ \\frac{{e^{{20}}}}{{e^{{20}} + e^{{0}}}} = {rhs} $$\n") == [status]


@pytest.mark.parametrize("case,rhs,status", [
    ("1. $y_i = j$:", "\\frac{e^{s_j}}{\\sum_k e^{s_k}} - 1", "holds"),
    ("1. $y_i = j$:", "\\frac{e^{s_j}}{\\sum_k e^{s_k}}", "fails"),
    ("2. $y_i \\neq j$", "\\frac{e^{s_j}}{\\sum_k e^{s_k}}", "holds"),
])
def test_a_case_on_the_class_as_a_list_item(case: str, rhs: str, status: str) -> None:
    text = ("$$ L_i = -\\log \\frac{e^{s_{y_i}}}{\\sum_k e^{s_k}} $$\n\n"
            f"{case}\n\n   $$\n   \\frac{{\\partial L_i}}{{\\partial s_j}} = {rhs}\n   $$\n")
    assert _claims(text) == [status]


@pytest.mark.parametrize("rhs,status", [("-\\log(P_i)", "holds"), ("\\log(P_i)", "fails")])
def test_words_before_a_colon_label_the_row(rhs: str, status: str) -> None:
    text = ("$$ Softmax: P_i = \\frac{e^{s_i}}{\\sum_j e^{s_j}} $$\n\n"
            "$$ Cross Entropy Loss: L_i = -\\log(P_i) $$\n\n"
            f"$$ L_i = {rhs} $$\n")
    assert _claims(text) == [status]


def test_a_clause_in_words_after_a_comma_is_not_math() -> None:
    text = ("$$ y_i = \\frac{e^{x_i}}{\\sum_j e^{x_j}} $$\n\n"
            "$$ H = -\\sum_i t_i \\log y_i, 其中t_i是one-hot向量 $$\n")
    r = verify_text(text, "n.md", numeric=False)
    assert [s.status.value for s in r.steps] == ["definition", "definition"]


@pytest.mark.parametrize("claim,status", [
    ("\\frac{\\text{Var}(q \\cdot k)}{\\text{scale}^2} \\cdot \\text{scale}^2 = d", "holds-given"),
    ("\\frac{\\text{Var}(q \\cdot k)}{\\text{scale}^2} \\cdot \\text{scale}^2 = d^2", "fails"),
])
def test_a_word_with_a_power_is_a_name(claim: str, status: str) -> None:
    text = ("Assume the components are independent, with mean 0 and variance 1.\n\n"
            f"$$ {claim} $$\n")
    assert _claims(text) == [status]


@pytest.mark.parametrize("claim,status", [
    ("p^{\\text{new}} - p^{\\text{old}} = 0", "not-checked"),  # two names, never one p
    ("m^{(new)} - m^{(old)} = 0", "not-checked"),
    ("2a - (a - y^{*}) = a + y^*", "holds"),
    ("2a - (a - y^{*}) = a + y^* + 1", "fails"),
])
def test_labels_written_up_are_names(claim: str, status: str) -> None:
    assert _claims(f"$$ {claim} $$\n") == [status]


def test_kl_divergence_is_not_a_variance() -> None:
    # D_{KL}(p‖q): Chinese notes' D(X) is the variance, but not with KL under it
    text = ("$$ H(p, q) = -\\sum_i p_i \\log q_i $$\n\n"
            "$$ D_{KL}(p||q) = \\sum_i p_i \\log \\frac{p_i}{q_i} $$\n")
    r = verify_text(text, "n.md", numeric=False)
    assert not any(s.status.wrong for s in r.steps)
    assert "Var" not in " ".join(str(s.lhs) for s in r.steps)


@pytest.mark.parametrize("rhs,status", [("\\frac{e^{a_i}}{\\sum_k e^{a_k}}", "definition"),
                                        ("\\frac{e^{a_i}}{\\sum_k e^{a_i}}", "definition")])
def test_a_name_used_before_is_defined_where_first_given_a_value(rhs: str, status: str) -> None:
    # ŷ_i in the loss first, its value written later: a definition (even a mistyped one),
    # never a claim "failing" against nothing
    text = ("$$ L = -\\sum_i t_i \\log \\hat{y}_i $$\n\n" f"$$ \\hat{{y}}_i = {rhs} $$\n")
    r = verify_text(text, "n.md", numeric=False)
    assert [s.status.value for s in r.steps] == ["definition", status]


_IID_ZH = "假设 $Q$ 和 $K$ 的每个元素都是独立同分布的随机变量，均值为 0，方差为 1。\n\n"


@pytest.mark.parametrize("rhs,status", [("d_k", "holds-given"), ("d_k^2", "fails")])
def test_an_obsidian_display_opened_at_the_end_of_a_line(rhs: str, status: str) -> None:
    # "对于点积 …：$$⏎…$$由于 …": MathJax shows a display whatever words touch its $$
    text = (_IID_ZH + "对于点积 $QK^T = \\sum_{i=1}^{d_k} q_i k_i$：$$\n"
            f"\\text{{Var}}(QK^T) = {rhs}$$由于 $q_i$ 和 $k_i$ 独立。\n")
    assert _claims(text)[-1] == status


@pytest.mark.parametrize("rhs,status", [
    ("\\frac{\\text{Var}(QK^T)}{\\text{scale}^2}", "holds"),
    ("\\text{Var}(QK^T)", "not-checked"),  # dropping the word would make this "hold"
])
def test_a_word_in_a_denominator_is_a_name(rhs: str, status: str) -> None:
    text = (_IID_ZH + "对于点积 $QK^T = \\sum_{i=1}^{d_k} q_i k_i$。\n\n"
            f"$$ \\text{{Var}}\\left(\\frac{{QK^T}}{{\\text{{scale}}}}\\right) = {rhs} $$\n")
    assert _claims(text) == [status]


def test_a_name_rescaled_in_place_is_not_judged_after() -> None:
    # step 2 of an algorithm, S = S/√d_k, then "S = QK^T" in the explanation: which S?
    text = (_IID_ZH + "对于点积 $QK^T = \\sum_{i=1}^{d_k} q_i k_i$。\n\n"
            "$$ \\text{Var}(q_i k_i) = 1 $$\n\n"
            "1. **打分**：$S = QK^T$\n\n2. **缩放**：$S = S / \\sqrt{d_k}$\n\n"
            "**解释**\n- **$S = QK^T$**：相似度矩阵。\n")
    r = verify_text(text, "n.md", numeric=False, inline=True)
    steps = [(s.kind, s.status.value, s.note) for s in r.steps]
    assert steps[-2][0] == "definition"  # the update is an assignment, not S = S/√d_k
    assert steps[-1][1] == "not-checked" and "anew in place" in steps[-1][2], steps


@pytest.mark.parametrize("factor,status", [("", "holds-given"), ("2", "fails")])
def test_a_sum_running_over_d(factor: str, status: str) -> None:
    # Σ_{d=1}^{d_k} q_d k_d: the letter d runs over the components, whatever else d may be
    text = ("Assume the components are independent, with mean 0 and variance 1.\n\n"
            f"$$ \\text{{Var}}[q \\cdot k] = {factor}\\text{{Var}}\\left[\\sum_{{d=1}}^{{d_k}}"
            "q_dk_d\\right] $$\n")
    assert _claims(text)[-1].startswith(status.split("-")[0])


@pytest.mark.parametrize("said,status", [
    ("Assume the components of $q$ and $k$ are independent, with mean 0 and variance 1.",
     "holds"),
    ("Let $X, Y$ be uncorrelated random variables.", "not-checked"),
])
def test_the_variance_of_a_sum_splits_only_where_the_note_says_so(said: str, status: str) -> None:
    text = f"{said}\n\n$$ \\text{{Var}}\\left[\\sum_{{i=1}}^{{d}} q_i k_i\\right] = " \
           "\\sum_{i=1}^{d}\\text{Var}[q_i k_i] $$\n"
    assert _claims(text)[-1].startswith(status)


@pytest.mark.parametrize("claim,status", [
    ("\\frac{22026.4658}{22027.4725} = 0.9999543", "holds"),
    ("\\frac{22026.4658}{22027.4725} = 0.9999545", "fails"),  # off by 2 in its 7th place
])
def test_a_result_is_held_to_its_own_places(claim: str, status: str) -> None:
    assert _claims(f"$$ {claim} $$\n") == [status]


def test_an_example_with_scores_in_a_table_is_not_judged_against_every_score() -> None:
    text = ("$$ P(x_k) = \\frac{e^{x_k}}{\\sum_j e^{x_j}} $$\n\n"
            "$$ P_1 = \\frac{e^{7.09}}{e^{7.09} + e^{4.96} + e^{3.54}} $$\n")
    steps = _steps(text)
    assert steps[-1][0] == "not-checked" and "numbers for the scores" in steps[-1][1]


@pytest.mark.parametrize("root,status", [("\\sqrt{d_k}", "holds"), ("d_k", "fails")])
def test_a_constant_solved_for_after_an_example_named_it(root: str, status: str) -> None:
    # "令 c = q_3 k_3" in an example, then "除以常数 c": the scale c is solved for, not q_3 k_3
    text = ("令 $a=q_1k_1,\\ c=q_3k_3$。\n\n先记住：**除以常数 $c$，方差除以 $c^2$**。\n\n"
            f"$$ \\frac{{d_k}}{{c^2}}=1 \\;\\Longrightarrow\\; c^2=d_k \\;\\Longrightarrow\\; c={root} $$\n")
    r = verify_text(text, "n.md", numeric=False)
    # the equation solved is imposed (a condition); each ⟹ step is checked as following
    assert [(s.kind, s.status.value) for s in r.steps] == [
        ("condition", "condition"), ("follows", "holds"), ("follows", status)]


def test_an_underbrace_is_part_of_the_formula_as_written() -> None:
    text = "$$ (a+b)^2 = \\underbrace{a^2+b^2}_{\\text{squares}} + 2ab $$\n"
    r = verify_text(text, "n.md", numeric=False)
    assert r.steps[-1].rhs_source.startswith("\\underbrace{a^2+b^2}")


@pytest.mark.parametrize("rhs,status", [("-\\frac{t_i}{y_i}", "holds"),
                                        ("-\\frac{y_i}{t_i}", "fails")])
def test_the_label_t_is_never_merged_with_the_output_y(rhs: str, status: str) -> None:
    # y = σ(x) in words, L = −Σ t log y: y is the prediction, t the label
    text = ("$$ \\sigma(x)_i = \\frac{e^{x_i}}{\\sum_k e^{x_k}} $$\n\n"
            "其中 $L = -\\sum_i t_i\\log y_i$，$y = \\sigma(x)$。\n\n"
            f"$$ \\frac{{\\partial L}}{{\\partial y_i}} = {rhs} $$\n")
    assert _claims(text)[-1] == status


@pytest.mark.parametrize("rhs,status", [("p_i - y_i", "holds-given"), ("y_i - p_i", "fails")])
def test_scores_named_only_by_the_derivative(rhs: str, status: str) -> None:
    # p_j = e^{a_j}/Σ e^{a_k}, then ∂L/∂o_i with o written nowhere else: o is the scores
    text = ("$$ p_j = \\frac{e^{a_j}}{\\sum_k e^{a_k}} $$\n\nThe label $y$ is one-hot.\n\n"
            f"$$\n\\begin{{align}}\nL &= - \\sum_i y_i \\log(p_i) \\\\\n"
            f"\\frac{{\\partial L}}{{\\partial o_i}} &= {rhs}\n\\end{{align}}\n$$\n")
    assert _claims(text)[-1] == status


@pytest.mark.parametrize("rhs,status", [("- {y_i \\over p_i }", "holds"),
                                        ("- {p_i \\over y_i }", "fails")])
def test_plain_tex_derivatives_in_escaped_brackets(rhs: str, status: str) -> None:
    # \\[ … \\] for Markdown (MathJax then reads \[ … \]), {\rm d} … \over {\rm d} p_i, and
    # a d that takes the whole product after it
    text = ("Let \\\\( p_i = {e^{o_i} \\over \\sum_k e^{o_k}} \\\\).\n\n"
            "\\\\[\n    {\\rm Loss} = - \\sum_{i} y_i \\log p_i,\n\\\\]\n\nwith gradient:\n"
            f"\\\\[\n    - {{{{\\rm d}} y_i \\log p_i \\over {{\\rm d}} p_i}} = {rhs}.\n\\\\]\n")
    assert _claims(text)[-1] == status


@pytest.mark.parametrize("rhs,status", [("d_k", "holds-given"), ("d_k^2", "fails")])
def test_an_array_drawn_as_an_align(rhs: str, status: str) -> None:
    text = ("Assume the components of $q$ and $k$ are independent, with mean 0 and variance 1.\n\n"
            "$$ \\begin{array}{rcl}\nVar(q \\cdot k) & = & \\sum_{i=1}^{d_k}Var(q_i k_i) \\\\ \\\\\n"
            f"             & = & {rhs}\n\\end{{array}} $$\n")
    assert _claims(text)[-1] == status


@pytest.mark.parametrize("lead,status", [("独立变量求和的方差", "holds-given"),
                                         ("变量求和的方差", "needs-undeclared")])
def test_independence_said_just_before_a_lemma(lead: str, status: str) -> None:
    text = ("$$ Var(q_i k_i) = 1 $$\n\n" f"- {lead}\n$$ Var(X+Y) = Var(X) + Var(Y) $$\n")
    assert _claims(text)[-1] == status


@pytest.mark.parametrize("words,status", [("常数乘积的方差(C 为常数)", "holds"),
                                          ("乘积的方差", "fails")])
def test_a_constant_named_in_parentheses(words: str, status: str) -> None:
    text = (f"- {words}\n$$ Var(C X) = C^2 Var(X) $$\n")
    assert _claims(text)[-1].startswith(status.split("-")[0])


@pytest.mark.parametrize("case,status", [("if $$i=j:$$", "holds"), ("if $$i \\neq j:$$", "fails")])
def test_a_kramdown_case_label_with_a_colon(case: str, status: str) -> None:
    text = ("$$ \\sigma(\\mathbf{z})_{i} = \\frac{e^{z_i}}{\\sum_k e^{z_k}} $$\n\n"
            f"{case}\n\n$$ \\frac{{\\partial \\sigma(\\mathbf{{z}})_{{i}}}}{{\\partial z_j}} = "
            "\\sigma(\\mathbf{z})_{i}(1 - \\sigma(\\mathbf{z})_{i}) $$\n")
    assert _claims(text)[-1] == status


@pytest.mark.parametrize("claim,status", [
    ("\\frac{\\partial S(x_i)}{\\partial x_j} = S(x_i)(\\delta_{ij} - S(x_j))", "holds"),
    ("\\frac{\\partial S(x_i)}{\\partial x_j} = S(x_i)(1 - S(x_j))", "fails"),
    ("\\frac{\\partial \\log S(x_i)}{\\partial x_j} = \\delta_{ij} - S(x_j)", "holds"),
    ("\\frac{\\partial \\log S(x_i)}{\\partial x_j} = 1 - S(x_j)", "fails"),
])
def test_the_softmax_written_as_a_function_of_one_score(claim: str, status: str) -> None:
    # S(x_i) = exp(x_i)/Σ_j exp(x_j): S is the softmax, S(x_i) its output at score i
    text = ("$$ S(x_i) = \\frac{\\exp(x_i)}{\\sum_j \\exp(x_j)} $$\n\n" f"$$ {claim} $$\n")
    assert _claims(text) == [status]
