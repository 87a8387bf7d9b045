"""What the third batch of real notes taught: worked examples and rounded numbers beside the
general derivation, vectors written alone, the class a note names in words, components said
to be correlated.  Each true reading has a wrong twin that must still be caught."""

from __future__ import annotations

import pytest

from attncheck.verify import verify_text
from attncheck.verify.terminal import readable


def _claims(text: str) -> list[str]:
    r = verify_text(text, "n.md", numeric=False)
    return [s.status.value for s in r.steps if s.kind == "claim"]


@pytest.mark.parametrize("rhs,status", [("1.406", "holds"), ("1.46", "fails"),
                                        ("1.4065", "holds"), ("1.41", "holds"),
                                        ("1.39", "fails")])
def test_a_rounded_value_holds_to_the_places_written(rhs: str, status: str) -> None:
    # -ln 0.245 = 1.40650…: right to 3 or 4 places (rounded or cut: one unit of the last
    # place), wrong at 1.46 and, to 2 places, at 1.39
    assert _claims(f"$$ -\\log(0.245) = {rhs} $$") == [status]


def test_a_rounded_value_says_what_it_should_be_in_decimals() -> None:
    r = verify_text("$$ \\frac{1}{\\sqrt 2} = 0.71 $$\n\n$$ \\frac{1}{\\sqrt 2} = 0.77 $$", "n.md",
                    numeric=False)
    assert [s.status.value for s in r.steps] == ["holds", "fails"]
    from attncheck.verdicts import step_failure

    f = step_failure(r.steps[1], r.derivations[1])
    assert f is not None and abs(float(f.should_be) - 0.707107) < 1e-6


@pytest.mark.parametrize("rhs,status", [("2x", "holds"), ("x", "fails")])
def test_an_example_value_of_the_variable_is_not_put_into_its_derivative(
        rhs: str, status: str) -> None:
    # x = 2 in an example before; d/dx x^2 is still 2x (it used to crash: "derivative wrt 2")
    assert _claims(f"$$ x = 2 $$\n\n$$ \\frac{{d}}{{dx}} x^2 = {rhs} $$") == [status]


def test_a_row_of_boxes_is_a_vector_not_a_product() -> None:
    r = verify_text("$$ o = \\boxed{2}\\boxed{3}\\boxed{4} $$\n", "n.md", numeric=False)
    assert any("a row of \\boxed" in p.text for p in r.problems)
    assert not r.steps or all(s.status.value != "holds" for s in r.steps)


NOTE = ("Softmax: $$ p_j = \\frac{{e^{{o_j}}}}{{\\sum_i e^{{o_i}}}} $$\n\n"
        "$$ L = -\\sum_i y_i \\log(p_i) $$\n\n"
        "{prose}\n\n$$ L = -y_k \\log(p_k) $$\n")


@pytest.mark.parametrize("prose,status", [
    ("Assume the index of the correct class is k; for every other class y_i is 0.",
     "holds-given"),
    ("样本的正确类别为 k。", "holds-given"),
    ("Here k is any class.", "fails"),  # no class named: a sum is not one of its terms
])
def test_the_class_named_in_words_makes_the_label_one_hot(prose: str, status: str) -> None:
    assert _claims(NOTE.format(prose=prose))[-1] == status


def test_a_sum_over_the_named_class_letter_is_not_collapsed() -> None:
    # the class is called k, and so is a sum's letter: Σ_k t_k log y_k is still log y_k
    text = ("The correct class is k.\n\n$$ p_j = \\frac{e^{o_j}}{\\sum_i e^{o_i}} $$\n\n"
            "$$ L = -\\sum_k y_k \\log p_k = -\\log p_k $$\n\n"
            "$$ -\\sum_k y_k \\log p_k = -\\sum_k \\log p_k $$\n")
    r = verify_text(text, "n.md", numeric=False)
    assert [s.status.value for s in r.steps if s.kind == "claim"][-2:] == [
        "holds-given", "fails"]


@pytest.mark.parametrize("lists,status", [
    ("y takes the values [1,0,0] or [0,1,0] or [0,0,1].", "holds-given"),
    ("y = [0,1,0] in this example.", "needs-undeclared"),
])
def test_one_hot_labels_listed_as_their_values(lists: str, status: str) -> None:
    text = (lists + "\n\n$$ a_j = \\frac{e^{z_j}}{\\sum_k e^{z_k}} $$\n\n"
            "$$ -y_1 + a_1(y_1 + y_2 + y_3) = a_1 - y_1 $$\n")
    assert _claims(text)[-1] == status


CORRELATED = ("The vectors $a$ and $b$ are independent. {words}\n\n"
              "$$ Var(a_1 b_1 + a_2 b_2) = Var(a_1 b_1) + Var(a_2 b_2) $$\n")


@pytest.mark.parametrize("words,status", [
    ("However $b_1$ and $b_2$ are correlated by $\\rho$.", "not-checked"),
    ("b 的分量彼此相关。", "not-checked"),
    ("The components are uncorrelated.", "holds"),
])
def test_components_said_to_be_correlated_are_not_judged_as_independent(
        words: str, status: str) -> None:
    assert _claims(CORRELATED.format(words=words)) == [status]


@pytest.mark.parametrize("text", [
    "$$ A = [a_1, a_2] $$ and $$ B = [b_1, b_2] $$\n\n$$ A \\cdot B = a_1 b_1 + a_2 b_2 $$\n",
    ("$$ p_j = \\frac{e^{o_j}}{\\sum_i e^{o_i}} $$\n\n$$ L = -\\sum_i y_i \\log p_i $$\n\n"
     "$$ \\frac{\\partial L}{\\partial o} = p - y $$\n"),
])
def test_a_whole_vector_is_never_judged_as_a_number(text: str) -> None:
    # A·B read as the product of two numbers, ∂L/∂o as a derivative by a number: both used
    # to be "fails"; vector algebra is not checked, so they are reported as such
    r = verify_text(text, "n.md", numeric=False)
    assert "fails" not in [s.status.value for s in r.steps]
    assert len([m for m in r.derivations if m.steps]) >= 2  # both displays of line 1 are read


@pytest.mark.parametrize("tex,shown", [
    (r"\dfrac{\partial L}{\partial o} = p - y", "∂L/∂o = p − y"),
    (r"\tfrac{a+b}{c}", "(a+b)/c"),
])
def test_fractions_notes_write_are_readable(tex: str, shown: str) -> None:
    assert readable(tex) == shown


@pytest.mark.parametrize("row,status", [("- y_i y_j", "holds"), ("- y_i^2", "fails")])
def test_a_display_right_after_a_prose_line_is_read_whole(row: str, status: str) -> None:
    # "Now, we have⏎$$⏎\begin{align*}" with a row starting "- ": one display, as MathJax
    # shows it (it used to become a paragraph and a Markdown list: "never closed")
    text = ("Now, we have\n$$\n\\begin{align*}\n\\frac{\\partial y_i}{\\partial x_j} &= \\begin{cases}\n"
            "y_i(1 - y_i), & \\text{if $i = j$} \\\\\n" + row + ", & \\text{if $i \\ne j$}\n"
            "\\end{cases}\n\\end{align*}\n$$\n")
    r = verify_text(text, "n.md", numeric=False)
    assert not r.problems, [p.text for p in r.problems]
    assert [s.status.value for s in r.steps if s.kind == "claim"] == ["holds", status]


JACOBIAN = ("Let $$ \\mathbf{{y}} = \\mathrm{{softmax}}(\\mathbf{{x}}) $$\n\n$$\n"
            "\\frac{{\\partial \\mathbf{{y}}}}{{\\partial \\mathbf{{x}}}} = \\begin{{bmatrix}}\n"
            "y_1(1-y_1) & -y_1 y_2 & \\cdots & -y_1 y_n \\\\\n"
            "-y_2 y_1 & {entry} & \\cdots & -y_2 y_n \\\\\n"
            "\\vdots & \\vdots & \\ddots & \\vdots \\\\\n"
            "-y_n y_1 & -y_n y_2 & \\cdots & y_n(1-y_n)\n\\end{{bmatrix}}\n$$\n")


@pytest.mark.parametrize("entry,status", [("y_2(1-y_2)", "holds"), ("y_2(1-y_1)", "fails"),
                                          ("-y_2 y_2", "fails")])
def test_a_jacobian_written_out_is_checked_entry_by_entry(entry: str, status: str) -> None:
    # rows and columns 1, 2, ⋯, n as a reader takes them; ⋯ entries are not claims
    assert _claims(JACOBIAN.format(entry=entry)) == [status]


@pytest.mark.parametrize("rhs,status", [(r"\begin{bmatrix} 2 & 4 \end{bmatrix}", "holds"),
                                        (r"\begin{bmatrix} 2 & 5 \end{bmatrix}", "fails")])
def test_written_out_vectors_compare_entry_by_entry(rhs: str, status: str) -> None:
    assert _claims(f"$$ \\begin{{bmatrix}} 1 + 1 & 2 \\cdot 2 \\end{{bmatrix}} = {rhs} $$") == [
        status]


@pytest.mark.parametrize("rhs,status", [(r"s(\mathbf x)_i - s(\mathbf x)_i^2", "holds"),
                                        (r"s(\mathbf x)_i - s(\mathbf x)_i^3", "fails")])
def test_a_softmax_component_squared_is_read(rhs: str, status: str) -> None:
    text = ("$$ s(\\mathbf x)_i = \\frac{e^{x_i}}{\\sum_j e^{x_j}} $$\n\n"
            f"$$ \\frac{{\\partial s(\\mathbf x)_i}}{{\\partial x_i}} = {rhs} $$\n")
    assert _claims(text) == [status]


@pytest.mark.parametrize("rhs,status", [("p_k(1 - p_k)", "holds"), ("p_k", "fails")])
def test_a_partial_whose_denominator_lost_its_partial_is_read(rhs: str, status: str) -> None:
    # \dfrac{\partial}{o_k}(p_k): the ∂ of the variable left out; only ∂/∂o_k can be meant
    text = ("$$ p_j = \\frac{e^{o_j}}{\\sum_i e^{o_i}} $$\n\n"
            f"$$ \\dfrac{{\\partial}}{{o_k}}(p_k) = {rhs} $$\n")
    assert _claims(text) == [status]


def test_a_correlated_pair_of_families_is_not_correlated_components() -> None:
    # "q_i and k_i are correlated": the model's dependent pair, not components of one family
    text = ("The components are independent across i; $q_i$ and $k_i$ are correlated with "
            "coefficient $\\rho$.\n\n$$ Var(q_1 + q_2) = Var(q_1) + Var(q_2) $$\n")
    assert _claims(text) == ["holds"]
