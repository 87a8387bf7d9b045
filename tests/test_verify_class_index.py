r"""The correct class written as an index, as softmax-classifier notes write it: CS231n's
f_{y_i} (sample i's class y_i), \mathbb{1}(y_i = k), a case "(j \neq y_i)", a word index
(p_{\text{target}}, \mathbb{1}_{k=\text{ix}}), the per-sample loss L_i beside the mean L, and
two formulas side by side in one display (\hspace).  Each true reading has a wrong twin that
must be rejected."""

from __future__ import annotations

import pytest

from attncheck.verify import verify_text


def _claims(text: str) -> list[str]:
    r = verify_text(text, "n.md", numeric=False)
    return [s.status.value for s in r.steps if s.kind == "claim"]


_CS231N = ("$$\nL_i = -\\log\\left(\\frac{{e^{{f_{{y_i}}}}}}{{\\sum_j e^{{f_j}}}}\\right)"
           " = {rhs}\n$$\n")


@pytest.mark.parametrize("rhs,status", [
    ("-f_{y_i} + \\log\\sum_j e^{f_j}", "holds"),
    ("f_{y_i} + \\log\\sum_j e^{f_j}", "fails"),
])
def test_the_score_of_sample_is_class(rhs: str, status: str) -> None:
    assert _claims(_CS231N.format(rhs=rhs)) == [status]


@pytest.mark.parametrize("rhs,status", [
    ("p_k - \\mathbb{1}(y_i = k)", "holds"),
    ("p_k + \\mathbb{1}(y_i = k)", "fails"),
    ("p_k - \\mathbb{1}(y_i \\neq k)", "fails"),
])
def test_the_gradient_with_an_indicator_of_the_class(rhs: str, status: str) -> None:
    text = ("With $p_k = \\frac{e^{f_k}}{\\sum_j e^{f_j}}$ and "
            "$L_i = -\\log\\left(\\frac{e^{f_{y_i}}}{\\sum_j e^{f_j}}\\right)$:\n\n"
            f"$$\n\\frac{{\\partial L_i}}{{\\partial f_k}} = {rhs}\n$$\n")
    assert _claims(text) == [status]


@pytest.mark.parametrize("rhs,status", [
    ("\\frac{e^{s_j}}{\\sum_k e^{s_k}} \\quad (j \\neq y_i)", "holds"),
    ("\\frac{e^{s_j}}{\\sum_k e^{s_k}} - 1 \\quad (j \\neq y_i)", "fails"),
    ("\\frac{e^{s_j}}{\\sum_k e^{s_k}} - 1 \\quad (j = y_i)", "holds"),
    ("\\frac{e^{s_j}}{\\sum_k e^{s_k}} \\quad (j = y_i)", "fails"),
])
def test_a_case_on_the_class_of_the_sample(rhs: str, status: str) -> None:
    # no softmax output is named: the scores s are read from the loss itself
    text = ("$$\nL_i = -\\log \\frac{e^{s_{y_i}}}{\\sum_j e^{s_j}}\n$$\n\n"
            f"$$\n\\frac{{\\partial L_i}}{{\\partial s_j}} = {rhs}\n$$\n")
    assert _claims(text) == [status]


@pytest.mark.parametrize("rhs,status", [
    ("p_k - \\mathbb{1}_{k=\\text{ix}}", "holds"),
    ("p_k - \\mathbb{1}_{k \\neq \\text{ix}}", "fails"),
    ("\\hat{y}_k - \\mathbb{1}[k = \\text{target}]", "holds"),
    ("\\hat{y}_k + \\mathbb{1}[k = \\text{target}]", "fails"),
])
def test_a_word_for_the_correct_class(rhs: str, status: str) -> None:
    out = "p" if rhs.startswith("p") else "\\hat{y}"
    word = "ix" if "ix" in rhs else "target"
    text = (f"Let ${out}_k = \\frac{{e^{{z_k}}}}{{\\sum_j e^{{z_j}}}}$ and "
            f"$L = -\\log {out}_{{\\text{{{word}}}}}$.\n\n"
            f"$$\n\\frac{{\\partial L}}{{\\partial z_k}} = {rhs}\n$$\n")
    assert _claims(text) == [status]


@pytest.mark.parametrize("rhs,status", [("-\\log\\left(p_{y_i}\\right)", "holds"),
                                        ("\\log\\left(p_{y_i}\\right)", "fails")])
def test_two_formulas_side_by_side_and_the_loss_of_one_sample(rhs: str, status: str) -> None:
    # L is the mean of the L_i plus a penalty: L_i is its own name, not L with a label; and
    # \hspace between two formulas separates them as \quad does
    text = ("$$\nL_i = -\\log\\left(\\frac{e^{f_{y_i}}}{ \\sum_j e^{f_j} }\\right)\n$$\n\n"
            "$$\nL = \\frac{1}{N} \\sum_i L_i + \\frac{1}{2} \\lambda \\sum_k\\sum_l W_{k,l}^2\n$$\n\n"
            f"$$\np_k = \\frac{{e^{{f_k}}}}{{ \\sum_j e^{{f_j}} }} \\hspace{{1in}} L_i = {rhs}\n$$\n")
    assert _claims(text) == [status]


@pytest.mark.parametrize("rhs,status", [
    ("\\frac{e^{Z_i-\\max(Z_i)}}{\\sum_j e^{Z_j-\\max(Z_i)}}", "holds"),
    ("\\frac{e^{Z_i-\\max(Z_i)}}{\\sum_j e^{Z_j}}", "fails"),
])
def test_the_largest_score_is_not_an_entry_a_case_can_touch(rhs: str, status: str) -> None:
    # max(Z_i) runs over every i: under the case i = target it stays the largest score
    text = ("Let $p_i = \\frac{e^{Z_i}}{\\sum_j e^{Z_j}}$.\n\n当 $i = target$ 时\n\n"
            f"$$\np_i = {rhs}\n$$\n")
    assert _claims(text)[-1:] == [status]


@pytest.mark.parametrize("words,label", [
    ("真实标签为 $y = (0, 1, 0)$。", None),  # the label's value, not the class's letter
    ("正确类别为 $k$。", "t_m = δ_mk"),
])
def test_a_class_named_in_words_is_a_letter_not_a_vector(words: str, label: str | None) -> None:
    text = ("$$ p_i = \\frac{e^{z_i}}{\\sum_k e^{z_k}} $$\n\n" f"{words}\n\n"
            "$$ L = -\\sum_i y_i \\log p_i $$\n\n$$ \\frac{\\partial L}{\\partial z_i} = p_i - y_i $$\n")
    r = verify_text(text, "n.md", numeric=False)
    declared = {str(h) for s in r.steps if s.kind == "claim" for h in s.declared}
    assert (label in declared) if label else not any("δ" in h for h in declared), declared
