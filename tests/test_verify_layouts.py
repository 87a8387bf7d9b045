"""What the notes of the real-notes corpus still taught in the fourth round: layouts
(\\displaylines, a first row alone, ``= \\\\ =``), names a note invents (☆, a softmax it only
differentiates, scores it leaves unnamed), braces that hide a sum's scope, prose set in
math, and the class a note calls incorrect.  Each true reading has a wrong twin."""

from __future__ import annotations

import pytest

from attncheck.verify import verify_text
from attncheck.verify.terminal import print_result


def _claims(text: str, numeric: bool = False) -> list[str]:
    r = verify_text(text, "n.md", numeric=numeric)
    return [s.status.value for s in r.steps if s.kind == "claim"]


@pytest.mark.parametrize("rhs,status", [("-S_i S_j", "holds"), ("S_i S_j", "fails")])
def test_a_softmax_the_note_only_differentiates_is_a_softmax(rhs: str, status: str) -> None:
    # S is never defined; ∂S_i/∂a_j = ∂(e^{a_i}/Σ_k e^{a_k})/∂a_j says what it is
    text = ("$$ \\frac{\\partial S_i}{\\partial a_j} = \\frac{\\partial}{\\partial a_j} "
            "\\frac{e^{a_i}}{\\sum_{k=1}^n e^{a_k}} $$\n\n"
            "When $i \\neq j$:\n\n"
            f"$$ \\frac{{\\partial S_i}}{{\\partial a_j}} = {rhs} $$\n")
    assert _claims(text)[1:] == [status]


@pytest.mark.parametrize("inner,status", [("e^{x_1}", "holds"), ("e^{x_1} + e^{x_3}", "fails")])
def test_two_written_indices_do_not_fix_the_length(inner: str, status: str) -> None:
    # ∂y_1/∂x_2 = ∂/∂x_2 (e^{x_1}/Σ_k e^{x_k}) holds for every length, and its numbers agree
    # (the sum used to be cut to two terms, and the symbolic and numeric routes disagreed)
    text = ("$$ y_i = \\frac{e^{x_i}}{\\sum_k e^{x_k}} $$\n\n"
            "$$ \\frac{\\partial y_1}{\\partial x_2} = \\frac{\\partial}{\\partial x_2} "
            f"\\frac{{{inner}}}{{\\sum_k e^{{x_k}}}} $$\n")
    r = verify_text(text, "n.md")
    (step,) = [s for s in r.steps if s.kind == "claim"]
    assert step.status.value == status
    assert step.evidence is not None and step.evidence.consistent is True


@pytest.mark.parametrize("text,status", [
    # braces are invisible: Σ_k{e^{z_k} − e^{z_1}e^{z_1}} is Σ_k e^{z_k} − e^{2 z_1}
    (r"\frac{e^{x_1}\sum_k{e^{x_k}-e^{x_1} e^{x_1}}}{(\sum_k e^{x_k})^2} = y_1 - y_1^2", "holds"),
    (r"\frac{e^{x_1}\sum_k{e^{x_k}-e^{x_1} e^{x_1}}}{(\sum_k e^{x_k})^2} = y_1 - y_1^3", "fails"),
    # …but kept where the sum runs over the whole group: Σ_k{y_k + t_k}
    (r"\sum_{k=1}^n{y_k + t_k} = \sum_{k=1}^n y_k + \sum_{k=1}^n t_k", "holds"),
    (r"\sum_{k=1}^n{y_k + t_k} = \sum_{k=1}^n y_k + t_k", "fails"),
])
def test_braces_after_a_sum_are_read_as_a_reader_sees_them(text: str, status: str) -> None:
    defs = "$$ y_i = \\frac{e^{x_i}}{\\sum_k e^{x_k}} $$\n\n"
    assert _claims(defs + f"$$ {text} $$\n") == [status]


@pytest.mark.parametrize("rhs,status", [("y_i - y_i^2", "holds"), ("y_i - y_i^3", "fails")])
def test_a_symbol_the_note_types_is_a_name(rhs: str, status: str) -> None:
    text = ("$$ y_i = \\frac{e^{x_i}}{\\sum_k e^{x_k}} $$\n\n"
            "$$ ☆ = \\sum_{k=1}^n e^{x_k} $$\n\n"
            f"$$ \\frac{{e^{{x_i}} ☆ - e^{{x_i}}e^{{x_i}}}}{{☆^2}} = {rhs} $$\n")
    assert _claims(text) == [status]


@pytest.mark.parametrize("last,status", [("3", "holds"), ("4", "fails")])
def test_displaylines_and_a_first_row_alone(last: str, status: str) -> None:
    # the first row alone starts the chain the "= …" rows continue; "… = \\ = …" is one
    # relation written twice; the condition in the prose before is not the chain's start
    text = ("CASE 1 : $$ i = j $$\n\n$$\n\\displaylines{\n   1 + 2\n   \\\\ = 2 + 1 =\n"
            f"   \\\\ = {last}\n}}\n$$\n")
    assert _claims(text) == ["holds", status]


def test_prose_set_in_math_is_not_read_as_a_formula() -> None:
    # e^{\text{neuron j input}} is not e, nor "(a_i) changes when a_j" a product: neither
    # is judged, and the note is told why
    text = ("$$ S_j = \\frac{e^{a_j}}{\\sum_{k=1}^n e^{a_k}} = "
            "\\frac{e^{\\text{neuron j input}}}{\\text{sum } e^{\\text{neuron input}}} $$\n\n"
            "$$ D_jS_i = \\text{how softmax}(a_i) \\text{ changes when }a_j \\text{ changes} "
            "= -S_iS_j $$\n\n$$ p_i - y_i = \\text{predicted - actual} $$\n")
    r = verify_text(text, "n.md", numeric=False)
    assert not [s for s in r.steps if s.status.value in ("holds", "fails") and
                "text" in (s.lhs_source + s.rhs_source)]
    assert any("words in place of math" in s.note for s in r.steps)


@pytest.mark.parametrize("rhs,status", [("p_k - 1", "holds"), ("p_k", "fails")])
def test_a_softmax_whose_scores_are_unnamed(rhs: str, status: str) -> None:
    # p_j = e^j/Σ_i e^i names no scores; the note differentiates by o, its scores elsewhere
    text = ("$$ p_j = \\dfrac{e^j}{\\displaystyle\\sum_{i} e^i} $$\n\n"
            "$$ -\\frac{\\partial}{\\partial o_k} \\log \\frac{e^{o_k}}{\\sum_i e^{o_i}} = "
            f"{rhs} $$\n\n$$ \\frac{{\\partial}}{{\\partial o_k}}(-\\log p_k) = {rhs} $$\n")
    assert _claims(text) == [status, status]


@pytest.mark.parametrize("rhs,status", [("p_k - 1", "holds-given"), ("0", "fails")])
def test_the_examples_value_of_the_loss_is_not_differentiated(rhs: str, status: str) -> None:
    # L = −log 0.245 = 1.406 at the example's point; ∂L/∂o_k is still p_k − 1, not ∂(1.406)
    text = ("$$ p_j = \\frac{e^{o_j}}{\\sum_i e^{o_i}} $$\n\n"
            "$$ L = -\\sum_i y_i \\log p_i $$\n\nThe correct class is $k$:\n\n"
            "$$ L = -\\log p_k $$\n\n$$ L = -\\log(0.245) = 1.406 $$\n\n"
            f"$$ \\frac{{\\partial L}}{{\\partial o_k}} = {rhs} $$\n")
    assert _claims(text)[-1] == status


@pytest.mark.parametrize("rhs,status", [("p_j", "holds-given"), ("p_j - 1", "fails")])
def test_an_incorrect_class_is_the_case_j_not_k(rhs: str, status: str) -> None:
    text = ("$$ p_j = \\frac{e^{o_j}}{\\sum_i e^{o_i}} $$\n\n$$ L = -\\sum_i y_i \\log p_i $$\n\n"
            "The correct class is $k$.\n\nFor incorrect class $j$:\n\n"
            f"$$ \\frac{{\\partial L}}{{\\partial o_j}} = {rhs} $$\n")
    r = verify_text(text, "n.md", numeric=False)
    (step,) = [s for s in r.steps if s.kind == "claim"]
    assert step.status.value == status
    assert "δ_3" not in str(step.needs)  # the hypothesis in the note's letters, not the case's


@pytest.mark.parametrize("consistent,word", [(True, "confirmation"), (False, "CONTRADICTION")])
def test_the_evidence_line_follows_the_numbers(consistent: bool, word: str) -> None:
    # a symbolic "holds" whose numbers differ is not a "confirmation"
    from dataclasses import replace

    from rich.console import Console

    r = verify_text("$$ y_i = \\frac{e^{x_i}}{\\sum_k e^{x_k}} $$\n\n"
                    "$$ \\frac{\\partial y_1}{\\partial x_2} = -y_1 y_2 $$\n", "n.md")
    d = r.derivations[-1]
    (step,) = d.steps
    assert step.evidence is not None and step.evidence.consistent
    ev = replace(step.evidence, reference=step.evidence.estimate + 0.2, agree=consistent,
                 consistent=consistent)
    d = replace(d, steps=(replace(step, evidence=ev),))
    r = replace(r, derivations=r.derivations[:-1] + (d,))
    console = Console(width=100, record=True, color_system=None)
    print_result(r, console)
    line = next(x for x in console.export_text().splitlines() if "numeric" in x)
    assert word in line and ("sides agree" in line) == consistent, line


@pytest.mark.parametrize("step,status", [
    # ∂L/∂a_1 takes the outputs as the variables: the numbers move a_1 alone
    (r"\frac{\partial L}{\partial a_1} = -\frac{y_1}{a_1}", "holds"),
    (r"\frac{\partial L}{\partial a_1} = \frac{y_1}{a_1}", "fails"),
    # a three-class example written out is a vector of length three, numerically too
    (r"\frac{\partial a_1}{\partial z_2} = -\frac{e^{z_1}e^{z_2}}{(e^{z_1}+e^{z_2}+e^{z_3})^2}",
     "holds"),
    (r"\frac{\partial a_1}{\partial z_2} = \frac{e^{z_1}e^{z_2}}{(e^{z_1}+e^{z_2}+e^{z_3})^2}",
     "fails"),
])
def test_the_numbers_take_the_variables_and_the_length_the_step_does(step: str,
                                                                       status: str) -> None:
    text = ("$$ a_j = \\frac{e^{z_j}}{\\sum_{i=1}^m e^{z_i}} $$\n\n"
            "$$ L = -\\sum_{i=1}^m y_i \\ln a_i $$\n\n"
            f"$$ {step} $$\n")
    r = verify_text(text, "n.md")
    (s,) = [s for s in r.steps if s.kind == "claim"]
    assert s.status.value == status
    assert s.evidence is not None and s.evidence.consistent is True, s.evidence


@pytest.mark.parametrize("rhs,status", [("o_b - o_b^2", "holds"), ("o_b - o_b^3", "fails")])
def test_a_sum_of_a_whole_vector_runs_over_its_entries(rhs: str, status: str) -> None:
    # Σ e^{z} with no index: over the entries of z
    text = ("$$ o_b = \\frac{e^{z_b}}{\\sum_j e^{z_j}} $$\n\n"
            f"$$ \\frac{{e^{{z_b}}\\sum e^z - (e^{{z_b}})^2}}{{(\\sum_j e^{{z_j}})^2}} = {rhs} $$\n")
    assert _claims(text) == [status]


@pytest.mark.parametrize("rhs,status", [(r"-y_i + \sum y_k p_i", "holds"),
                                        (r"-y_i + \sum y_k p_k", "fails")])
def test_a_sum_without_limits_runs_over_k_before_i(rhs: str, status: str) -> None:
    text = ("$$ p_j = \\frac{e^{z_j}}{\\sum_k e^{z_k}} $$\n\n"
            f"$$ -y_i + y_i p_i + \\sum_{{k \\neq i}} y_k p_i = {rhs} $$\n")
    assert _claims(text) == [status]


def test_a_sum_of_entries_named_by_letters_is_not_judged() -> None:
    # z_a, z_b, z_c: three classes named by letters; the length of z is not said
    text = ("$$ o_b = \\frac{e^{z_b}}{\\sum_j e^{z_j}} = "
            "\\frac{e^{z_b}}{e^{z_a}+e^{z_b}+e^{z_c}} $$\n")
    r = verify_text(text, "n.md", numeric=False)
    assert [s.status.value for s in r.steps if s.kind == "claim"] == ["not-checked"]


@pytest.mark.parametrize("rhs,status", [(r"\frac{e^{x_i}}{\Sigma} - \frac{e^{2x_i}}{\Sigma^2}",
                                         "holds"),
                                        (r"\frac{e^{x_i}}{\Sigma} - \frac{e^{x_i}}{\Sigma^2}",
                                         "fails")])
def test_a_name_given_to_part_of_a_formula_is_that_part(rhs: str, status: str) -> None:
    # y_i = e^{x_i}/Σ_k e^{x_k} = e^{x_i}/Σ: Σ is the sum of the exponentials from here on
    text = ("$$ y_i = \\frac{e^{x_i}}{\\sum_k e^{x_k}} = \\frac{e^{x_i}}{\\Sigma} $$\n\n"
            f"$$ y_i - y_i^2 = {rhs} $$\n")
    assert _claims(text)[-1] == status


@pytest.mark.parametrize("rhs,status", [(r"-\frac{y_2}{a_2}", "holds"),
                                        (r"-\frac{y_2}{a_1}", "fails")])
def test_a_definition_written_out_for_an_example_is_the_examples(rhs: str, status: str) -> None:
    # loss(w,b) = −Σ_{i=1}^m y_i ln a_i, then "= −(y_1 ln a_1 + y_2 ln a_2 + y_3 ln a_3)" for the
    # three-class example: a definition there (m is 3), and the chain rule over three terms
    # holds with it; loss(w,b) is the loss L with its parameters
    text = ("$$ a_j = \\frac{e^{z_j}}{\\sum_{i=1}^m e^{z_i}} $$\n\n"
            "$$ loss(w,b)=-\\sum_{i=1}^m y_i \\ln a_i $$\n\n"
            "$$ J(w,b) =- \\sum_{j=1}^n \\sum_{i=1}^m y_{ji} \\log a_{ji} $$\n\n"
            "$$ loss(w,b)=-(y_1 \\ln a_1 + y_2 \\ln a_2 + y_3 \\ln a_3) $$\n\n"
            "$$ \\frac{\\partial{loss}}{\\partial{z_1}}= \\frac{\\partial{loss}}{\\partial{a_1}}"
            "\\frac{\\partial{a_1}}{\\partial{z_1}} + \\frac{\\partial{loss}}{\\partial{a_2}}"
            "\\frac{\\partial{a_2}}{\\partial{z_1}} + \\frac{\\partial{loss}}{\\partial{a_3}}"
            "\\frac{\\partial{a_3}}{\\partial{z_1}} $$\n\n"
            f"$$ \\frac{{\\partial loss}}{{\\partial a_2}} = {rhs} $$\n")
    r = verify_text(text, "n.md", numeric=False)
    assert [s.kind for s in r.steps][:4] == ["definition"] * 4
    assert [s.status.value for s in r.steps if s.kind == "claim"] == ["holds", status]


def test_markdown_escapes_leave_a_heading() -> None:
    r = verify_text("### 1\\. Softmax $x_1$\n\n$$ 1 + 1 = 2 $$\n", "n.md", numeric=False)
    assert r.derivations[0].title == "1. Softmax $x_1$"


@pytest.mark.parametrize("rhs,status", [("a_i(\\delta_{ij} - a_j)", "holds"),
                                        ("a_i(\\delta_{ij} - a_i)", "fails")])
def test_the_axis_of_a_softmax_is_not_its_scores(rhs: str, status: str) -> None:
    # A = softmax_j(S): j says along which axis; the scores are S (s), and j stays an index
    text = ("$$A = \\text{softmax}_j(S)$$\n\n$$a_i = \\frac{e^{s_i}}{\\sum_k e^{s_k}}$$\n\n"
            f"$$\\frac{{\\partial a_i}}{{\\partial s_j}} = {rhs}$$\n")
    assert _claims(text) == [status]


@pytest.mark.parametrize("rhs,status", [("-p_i p_j", "holds"), ("p_j(1 - p_i)", "fails")])
def test_a_heading_names_the_case_of_its_section(rhs: str, status: str) -> None:
    # "#### When $j \neq i$", then a paragraph, then the display: still the case j ≠ i
    text = ("$$p_j = \\frac{e^{x_j}}{\\sum_k e^{x_k}}$$\n\n#### When $j \\neq i$\n\n"
            "Taking the results from the equations above, we found that\n\n"
            f"$$\\frac{{\\partial p_j}}{{\\partial x_i}} = {rhs}$$\n\n#### Next\n\nText.\n\n"
            "$$\\frac{\\partial p_j}{\\partial x_i} = p_j(\\delta_{ij} - p_i)$$\n")
    assert _claims(text) == [status, "holds"]


@pytest.mark.parametrize("words,status", [
    ("only 1 class can be activated in the $\\mathbf{t}$", "holds-given"),
    ("exactly one of the $t_i$s is 1 and the rest are zeros", "holds-given"),
    ("$t_i$ is 1 if and only if the sample belongs to class $i$", "holds-given"),
    ("因为$\\bm{t}$为$one$-$hot$向量", "holds-given"),
    ("each $t_c$ is dependent on the full $\\mathbf{z}$", "needs-undeclared"),
])
def test_a_one_hot_label_said_in_words(words: str, status: str) -> None:
    text = ("$$y_i = \\frac{e^{z_i}}{\\sum_d e^{z_d}}$$\n\n"
            f"Since {words}, we can write\n\n$$-t_i + y_i \\sum_{{j = 1}}^C t_j = y_i - t_i$$\n")
    assert _claims(text) == [status]


def test_a_value_after_where_is_the_case_not_a_claim() -> None:
    text = ("$$p_i = \\frac{e^{x_i}}{\\sum_k e^{x_k}}$$\n\nThe variable $\\mathbf{y}$ is one-hot, "
            "where $y_i=1$ if the actual class is $i$.\n\n$$\nL = - \\sum_i \\log p_i "
            "\\text{ where } y_i = 1\n$$\n")
    r = verify_text(text, "n.md", numeric=False)
    assert [(s.kind, s.condition) for s in r.steps] == [("definition", ""),
                                                        ("definition", "y_i = 1")]


def test_a_loss_of_the_softmax_does_not_make_the_loss_its_output() -> None:
    # L_i = −log(e^{f_{y_i}}/Σ_j e^{f_j}) is a loss; p_k = e^{f_k}/Σ_j e^{f_j} is the softmax
    text = ("$$L_i = -\\log\\left(\\frac{e^{f_{y_i}}}{ \\sum_j e^{f_j} }\\right)$$\n\n"
            "$$p_k = \\frac{e^{f_k}}{ \\sum_j e^{f_j} }$$\n\n"
            "$$\\frac{\\partial p_k}{\\partial f_k} = p_k(1 - p_k)$$\n")
    r = verify_text(text, "n.md", numeric=False)
    assert [(s.kind, s.status.value) for s in r.steps][1:] == [("definition", "definition"),
                                                               ("claim", "holds")]


@pytest.mark.parametrize("rhs,status", [("-\\frac{1}{u}", "holds"), ("\\frac{1}{u}", "fails")])
def test_a_function_named_with_an_index(rhs: str, status: str) -> None:
    # 令 L = g_1(u) = −log(u): g_1 is a function, so ∂g_1(u)/∂u is −1/u, not g_1 times u
    text = f"令 $L=g_1(u)=-\\log(u)$\n\n$$\\frac{{\\partial g_1(u)}}{{\\partial u}}={rhs}$$\n"
    assert _claims(text) == [status]


@pytest.mark.parametrize("last,status", [("e^{x_n}", "holds"), ("e^{x_n} + 1", "fails")])
def test_a_written_out_sum_with_a_generic_middle_term(last: str, status: str) -> None:
    text = ("$$ y_i = \\frac{e^{x_i}}{\\sum_{k=1}^n e^{x_k}} $$\n\n"
            f"$$ \\sum_{{k=1}}^n e^{{x_k}} = e^{{x_1}} + e^{{x_2}} + ... + e^{{x_j}} + ... + {last} $$\n")
    assert _claims(text) == [status]


@pytest.mark.parametrize("rhs,status", [("a_1(1 - a_1)", "holds"), ("a_1(1 - a_2)", "fails")])
def test_a_softmax_written_out_for_three_classes(rhs: str, status: str) -> None:
    # a_1 = e^{z_1}/(e^{z_1} + e^{z_2} + e^{z_3}): the example's softmax, of length three
    text = ("$$ a_1 = \\frac{e^{z_1}}{e^{z_1} + e^{z_2} + e^{z_3}} $$\n\n"
            "$$\\frac{\\partial a_1}{\\partial z_1} = \\frac{e^{z_1}(e^{z_1} + e^{z_2} + e^{z_3}) - "
            f"e^{{z_1}}e^{{z_1}}}}{{(e^{{z_1}} + e^{{z_2}} + e^{{z_3}})^2}} = {rhs}$$\n")
    assert _claims(text) == ["holds", status]


def test_a_capital_subscript_is_a_layer_not_an_entry() -> None:
    text = ("$$ a_j = \\frac{e^{z_j}}{\\sum_k e^{z_k}} $$\n\n$$ L = -\\sum_k y_k \\log a_k $$\n\n"
            "$$\\frac{\\partial L}{\\partial z_L} = \\frac{\\partial L}{\\partial a_L} "
            "\\frac{\\partial a_L}{\\partial z_L}$$\n")
    assert _claims(text) == ["not-checked"]


def test_a_sum_to_k_beside_an_expectation_is_not_a_crash() -> None:
    # Σ_{i=1}^{k} p_i counts classes to k; E(X) beside it made the placeholder family k
    r = verify_text("$$ A = E(X) + \\sum_{i=1}^{k} p_i $$\n\n$$ E(X + X) = 2E(X) $$\n", "n.md",
                    numeric=False)
    assert [s.status.value for s in r.steps if s.kind == "claim"] == ["holds"]


@pytest.mark.parametrize("rhs,status", [(r"\delta_{is} e^{z_s}", "holds"),
                                        (r"\delta_{is} e^{z_i} e^{z_s}", "fails")])
def test_a_letter_written_as_an_index_stays_an_index(rhs: str, status: str) -> None:
    # y_i = e^{s_i}/Σ_c e^{s_c} makes s scores, but z_s and δ_{is} write s as an index
    text = ("$$ \\sigma_i(z) = \\frac{e^{z_i}}{\\sum_j e^{z_j}} $$\n\n"
            "$$ y_i = \\frac{e^{s_i}}{\\sum_c e^{s_c}} $$\n\n"
            f"$$ \\frac{{\\partial}}{{\\partial z_{{s}}}} e^{{z_i}} = {rhs} $$\n")
    assert _claims(text)[-1] == status


@pytest.mark.parametrize("sign,status", [("-", "holds"), ("+", "fails")])
def test_a_written_times_ends_what_a_derivative_takes(sign: str, status: str) -> None:
    # ∂/∂z_s e^{z_i} * (Σ) is (∂e^{z_i}/∂z_s)·Σ, the quotient rule's f'g
    text = ("$$ p_i = \\frac{e^{z_i}}{\\sum_{j=1}^n e^{z_j}} $$\n\n"
            "$$ \\frac{\\partial}{\\partial z_{s}} \\frac{e^{z_{i}}}{\\sum_{j=1}^n e^{z_{j}}} = "
            "\\frac{ \\frac{\\partial}{\\partial z_{s}} e^{z_{i}} * (\\sum_{j=1}^n e^{z_{j}}) "
            f"{sign} \\frac{{\\partial}}{{\\partial z_{{s}}}} (\\sum_{{j=1}}^n e^{{z_{{j}}}}) * e^{{z_{{i}}}} }}"
            "{(\\sum_{j=1}^n e^{z_{j}})^2} $$\n")
    assert _claims(text) == [status]


@pytest.mark.parametrize("rhs,status", [("p_i - p_i^2", "holds"), ("-p_i p_s", "fails")])
def test_a_case_written_inside_the_display(rhs: str, status: str) -> None:
    text = ("$$ p_i = \\frac{e^{z_i}}{\\sum_{j=1}^n e^{z_j}} $$\n\n"
            "$$ \\frac{\\partial p_i}{\\partial z_s} = p_i(\\delta_{is} - p_s) $$\n\n"
            f"$$\nif \\  s = i,  \\\\\n= {rhs}\n$$\n")
    assert _claims(text) == ["holds", status]


@pytest.mark.parametrize("rhs,status", [("-a_i a_j", "holds"), ("a_i a_j", "fails")])
def test_an_expression_cited_by_its_number(rhs: str, status: str) -> None:
    # "\qquad(1)" numbers the row; "(1)式" later is that expression, not the number 1
    text = ("$$ a_j = \\frac{e^{z_j}}{\\sum_k e^{z_k}} $$\n\n"
            "$$\\begin{aligned}\\frac{\\partial a_j}{\\partial z_i}&=\\frac{\\frac{\\partial e^{z_j}}"
            "{\\partial z_i}\\cdot\\sum_k e^{z_k}-e^{z_i}\\cdot e^{z_j}}{(\\sum_k e^{z_k})^2}"
            "\\ \\qquad(1)\\end{aligned}$$\n\n**当$i\\not ={}j$时，有：**\n\n"
            f"$$\\begin{{aligned}}(1)式&={rhs}\\end{{aligned}}$$\n")
    assert _claims(text) == ["holds", status]


@pytest.mark.parametrize("rhs,status", [("(1 - p_i) p_i", "holds"), ("p_i", "fails")])
def test_a_sum_with_a_start_and_an_exclusion_is_one_sum(rhs: str, status: str) -> None:
    # Σ_{j=1, j≠i}^N p_j is 1 − p_i, never a double sum over j
    text = ("$$ p_i = \\frac{e^{z_i}}{\\sum_{k=1}^N e^{z_k}} $$\n\n"
            f"$$ p_i \\sum_{{j=1,j\\not ={{i}}}}^N p_j = {rhs} $$\n")
    assert _claims(text) == [status]


def test_a_hat_over_an_indexed_letter_is_that_letter_hatted() -> None:
    # \hat{y_i} is ŷ_i (the output), not the label y_i
    text = ("$$a_i=\\frac{e^{z_i}}{\\sum_k e^{z_k}}$$\n\n$$C=-\\sum_iy_i\\log\\hat{y_i}$$\n\n"
            "其中$\\hat{y_i}$就对应了输出$a_i$。\n\n因为$\\bm{y}$为$one$-$hot$向量，假设仅$y_k=1$，"
            "那么：\n\n$$C=-\\sum_i y_i\\log a_i=-y_k\\log a_k$$\n")
    r = verify_text(text, "n.md", numeric=False)
    assert [s.status.value for s in r.steps if s.kind == "claim"][-1] == "holds-given"


def test_a_display_inside_an_html_block_is_read() -> None:
    text = ("$$y_i = \\frac{e^{x_i}}{\\sum_k e^{x_k}}$$\n\n<div class=\"long-math\">\n$$\n"
            "\\frac{\\partial y_i}{\\partial x_j} = y_i (\\delta_{ij} - y_j) = 5\n$$\n</div>\n\n"
            "<!-- $$ 1 = 2 $$ -->\n")
    assert _claims(text) == ["holds", "fails"]


def test_an_indented_paragraph_of_words_is_prose() -> None:
    # CommonMark makes a tab-indented paragraph code; the author's renderer showed words
    text = ("\t\t假设 $q$ 和 $k$ 的每个元素都是独立的0均值、单位方差的随机变量，\n\n"
            "$$\n\\mathrm{Var}(q_ik_i)=\\mathrm{Var}(q_i)\\mathrm{Var}(k_i)=1\n$$\n")
    assert _claims(text) == ["holds-given", "holds-given"]


@pytest.mark.parametrize("label,status", [
    (r"y=\begin{bmatrix} 0 \\ 1 \\ 0 \\ 0 \end{bmatrix}", "holds-given"),
    (r"y=\begin{bmatrix} 0 \\ 1 \\ 1 \\ 0 \end{bmatrix}", "needs-undeclared")])
def test_a_label_written_out_with_one_1_is_one_hot(label: str, status: str) -> None:
    text = ("$$ a_i = \\frac{e^{z_i}}{\\sum_k e^{z_k}} $$\n\n$$ L = -\\sum_j y_j \\log a_j $$\n\n"
            f"$$ {label} $$\n\n$$ -y_i+a_i\\cdot\\sum_{{j}}y_j=a_i-y_i $$\n")
    assert _claims(text)[-1] == status


@pytest.mark.parametrize("rhs,status", [("y_i (1 - y_i)", "holds"), ("y_i", "fails")])
def test_a_sigma_with_nothing_to_sum_is_a_name(rhs: str, status: str) -> None:
    # "If we define $\Sigma_C = \sum_{d=1}^C e^{z_d}$ so that $y_c = e^{z_c}/\Sigma_C$"
    text = ("If we define $\\Sigma_C = \\sum_{d=1}^C e^{z_d}$ so that $y_c = e^{z_c} / \\Sigma_C$, "
            "then\n\n$$ \\frac{\\partial y_i}{\\partial z_i} = \\frac{e^{z_i}\\Sigma_C - e^{z_i}e^{z_i}}"
            f"{{\\Sigma_C^2}} = {rhs} $$\n")
    assert _claims(text) == ["holds", status]


@pytest.mark.parametrize("rhs,status", [("-y_i y_j", "holds"), ("y_i y_j", "fails")])
def test_a_case_in_the_left_cell_of_an_align_row(rhs: str, status: str) -> None:
    # \text{if} \; i \neq j :& …: the case of the row, never a factor j
    text = ("$$y_i = \\frac{e^{z_i}}{\\sum_{d=1}^C e^{z_d}}$$\n\n$$\n\\begin{split}\n"
            "\\text{if} \\; i = j :& \\frac{\\partial y_i}{\\partial z_i} = y_i (1 - y_i)\\\\\n"
            f"\\text{{if}} \\; i \\neq j :& \\frac{{\\partial y_i}}{{\\partial z_j}} = {rhs}\n"
            "\\end{split}$$\n")
    assert _claims(text) == ["holds", status]


def test_labels_in_text_subscripts_are_two_names() -> None:
    # y_{\text{true}} and y_{\text{pred}} are not one y
    r = verify_text("$$ y_{\\text{pred}} - y_{\\text{true}} = 0 $$\n", "n.md", numeric=False)
    assert [s.status.value for s in r.steps] == ["not-checked"]


def test_upper_indices_are_not_powers() -> None:
    r = verify_text("$$ O^{ib} = A^{ij} V^{jb} $$\n\n$$ x^{2} = x \\cdot x $$\n", "n.md",
                    numeric=False)
    assert [s.status.value for s in r.steps] == ["not-read", "holds"]
    assert "index notation" in r.steps[0].note


@pytest.mark.parametrize("lhs,status", [("x_i", "holds"), ("p_i", "fails")])
def test_the_chain_rule_written_out_term_by_term(lhs: str, status: str) -> None:
    # ∂L/∂p_1 ∂p_1/∂x_i + ∂L/∂p_2 ∂p_2/∂x_i + ⋯ + ∂L/∂p_n ∂p_n/∂x_i is Σ_j ∂L/∂p_j ∂p_j/∂x_i
    text = ("$$p_j = \\frac{e^{x_j}}{\\sum_k e^{x_k}}$$\n\n$$ L = -\\sum_j y_j \\log p_j $$\n\n"
            f"$$\\frac{{\\partial L}}{{\\partial {lhs}}} = \\frac{{\\partial L}}{{\\partial p_1}} "
            "\\frac{\\partial p_1}{\\partial x_i} + \\frac{\\partial L}{\\partial p_2} "
            "\\frac{\\partial p_2}{\\partial x_i} + \\dots + \\frac{\\partial L}{\\partial p_n} "
            "\\frac{\\partial p_n}{\\partial x_i} $$\n")
    assert _claims(text)[-1] == status


def test_words_after_an_operator_are_its_operand() -> None:
    r = verify_text("$$ \\Delta W = -0.1 \\cdot \\text{W update} $$\n", "n.md", numeric=False)
    assert "words in place of math" in r.steps[-1].note


@pytest.mark.parametrize("rhs,status", [("-\\frac{2}{u_2^2}", "holds"), ("\\frac{2}{u_2^2}", "fails")])
def test_a_chain_through_named_functions_of_a_notes_own_variables(rhs: str, status: str) -> None:
    # 令 u_1 = g_2(u_2) = 2/u_2, u_2 = g_3(u_3) = e^{u_3}: u_2 is a variable of its own here
    # (putting e^{u_3} where ∂/∂u_2 needs a variable used to be an internal error)
    text = ("令 $u_1=g_2(u_2)=\\frac{2}{u_2}$\n\n令 $u_2=g_3(u_3)=e^{u_3}$\n\n"
            f"$$\\frac{{\\partial g_2(u_2)}}{{\\partial u_2}}={rhs}$$\n")
    r = verify_text(text, "n.md", numeric=False, inline=True)
    assert [s.status.value for s in r.steps if s.kind == "claim"] == [status]


@pytest.mark.parametrize("words,status", [
    ("Each $q_i$ and $k_i$ are independent, with $E[q_i] = E[k_i] = 0$ and $Var(q_i) = Var(k_i) = 1$.",
     "holds-given"),
    ("Each $q_i$ and $k_i$ has $E[q_i] = E[k_i] = 0$ and $Var(q_i) = Var(k_i) = 1$.",
     "needs-undeclared")])
def test_independence_of_q_i_and_k_i_said_in_words(words: str, status: str) -> None:
    assert _claims(f"{words}\n\n$$ Var(q_i k_i) = E[q_i^2] E[k_i^2] $$\n") == [status]


@pytest.mark.parametrize("rhs,status", [("p_i(\\delta_{ij} - p_j)", "holds"), ("p_i(1 - p_j)", "fails")])
def test_a_definition_with_if_is_not_a_case_label(rhs: str, status: str) -> None:
    # "where: $$δ_ij = 1$$ if $$i = j$$, otherwise $$0$$": δ is defined, no case is opened
    text = ("$$ p_i = \\frac{e^{z_i}}{\\sum_k e^{z_k}} $$\n\nwith $y$ one-hot, and where: "
            "$$\\delta_{ij} = 1$$ if $$i = j$$, otherwise $$0$$.\n\n"
            f"$$ \\frac{{\\partial p_i}}{{\\partial z_j}} = {rhs} $$\n")
    assert _claims(text) == [status]


@pytest.mark.parametrize("premise,rhs,status", [("1", "p_j - 1", "holds-given"),
                                                ("1", "p_j", "fails"),
                                                ("0", "p_j", "not-checked")])
def test_a_value_of_the_label_before_implies_is_the_case(premise: str, rhs: str,
                                                         status: str) -> None:
    text = ("$$\n\\mathcal{L} = -\\sum_i y_i \\log(p_i), \\qquad p_i = \\frac{e^{z_i}}{\\sum_k e^{z_k}}"
            f"\n$$\n\nFor a one-hot label $y$:\n\n$$\ny_j = {premise} \\Rightarrow "
            f"\\frac{{\\partial \\mathcal{{L}}}}{{\\partial z_j}} = {rhs}\n$$\n")
    r = verify_text(text, "n.md", numeric=False)
    assert [s.status.value for s in r.steps if s.kind in ("claim", "follows")] == [status]
    assert not any(s.status.value == "fails" and s.kind == "assumption" for s in r.steps)


@pytest.mark.parametrize("rhs,status", [("e^{z_j}(\\sum_l e^{z_l} - e^{z_j})", "holds"),
                                        ("e^{z_j}\\sum_l e^{z_l}", "fails")])
def test_an_expression_shown_alone_is_an_aside(rhs: str, status: str) -> None:
    # the quotient rule, then "$$∂/∂z_k e^{z_j}$$ is a different case", then "In the case of
    # j = k: $$= …$$": the chain goes on from the quotient rule, in the case j = k
    text = ("$$ S_j = \\frac{e^{z_j}}{\\sum_l e^{z_l}} $$\n\n$$\n\\frac{\\partial S_{j}}{\\partial z_{k}} = "
            "\\frac{\\frac{\\partial}{\\partial z_{k}} e^{z_{j}} \\cdot \\sum_{l} e^{z_{l}} - e^{z_{j}} "
            "\\cdot \\frac{\\partial}{\\partial z_{k}} \\sum_{l} e^{z_{l}}}{\\left[ \\sum_{l} e^{z_{l}} "
            "\\right]^2}\n$$\n\nThe derivative on the left is a different case:\n\n$$\n"
            "\\frac{\\partial}{\\partial z_{k}} e^{z_{j}}\n$$\n\nIn the case of \\( j = k \\), we "
            f"substitute:\n\n$$\n= \\frac{{{rhs}}}{{\\left[ \\sum_{{l}} e^{{z_{{l}}}} \\right]^2}}\n$$\n")
    assert _claims(text) == ["holds", status]


def test_a_product_of_two_sums() -> None:
    text = ("$$ y_i = \\frac{e^{x_i}}{\\sum_l e^{x_l}} $$\n\n$$ \\frac{e^{x_i}(\\sum_l e^{x_l} - "
            "e^{x_i})}{\\sum_{l} e^{x_l} \\cdot \\sum_{l} e^{x_l}} = y_i(1 - y_i) $$\n\n"
            "$$ \\frac{e^{x_i}}{\\sum_{l} e^{x_l} \\cdot \\sum_{l} e^{x_l}} = y_i $$\n")
    assert _claims(text) == ["holds", "fails"]


@pytest.mark.parametrize("rhs,status", [("\\sigma_i(\\mathbf{z})(\\delta_{ij} - \\sigma_j(\\mathbf{z}))",
                                         "holds"),
                                        ("\\sigma_i(\\mathbf{z})", "fails")])
def test_a_softmax_written_with_its_argument(rhs: str, status: str) -> None:
    text = ("$$ \\sigma_i(\\mathbf{z}) = \\frac{e^{z_i}}{\\sum_j e^{z_j}} $$\n\n"
            f"$$ \\frac{{\\partial \\sigma_i(\\mathbf{{z}})}}{{\\partial z_j}} = {rhs} $$\n")
    assert _claims(text) == [status]


@pytest.mark.parametrize("last,status", [("20.086", "holds"), ("21.086", "fails")])
def test_numbers_for_an_examples_scores_given_in_words(last: str, status: str) -> None:
    # the scores are read from the sentence now: the example's sum is checked at z = (1, 2, 3)
    text = ("$$ \\sigma_i(z) = \\frac{e^{z_i}}{\\sum_{k=1}^{n} e^{z_k}} $$\n\n"
            "假设我们有一个包含三个元素的向量 $z = (1, 2, 3)$：\n\n"
            f"$$ \\sum_{{j=1}}^{{3}} e^{{z_j}} = 2.718 + 7.389 + {last} $$\n")
    assert _claims(text) == [status]


@pytest.mark.parametrize("rhs,status", [("\\mathbb{E}[(q \\cdot k)^2] - (\\mathbb{E}[q \\cdot k])^2",
                                         "holds"),
                                        ("2\\mathbb{E}[(q \\cdot k)^2]", "fails")])
def test_a_blackboard_var(rhs: str, status: str) -> None:
    # \mathbb{Var}[…] is the variance, as \mathbb{E}[…] the mean (it was dropped, leaving q·k)
    text = ("假设 $q$ 和 $k$ 的各个元素独立同分布且均值为0，方差为1，那么：\n$$\n"
            f"\\mathbb{{Var}}[q \\cdot k] = {rhs}\n$$\n")
    assert _claims(text) == [status]


@pytest.mark.parametrize("rhs,status", [("\\sigma_j - y_j", "holds-given"),
                                        ("\\sigma_j", "fails")])
def test_the_true_class_named_without_a_verb(rhs: str, status: str) -> None:
    text = ("$$ \\sigma_j = \\frac{e^{z_j}}{\\sum_k e^{z_k}} $$\n\nWhen softmax is followed by "
            "cross-entropy loss with true class $c$:\n\n$$\\mathcal{L} = -\\log \\sigma_c$$\n\n"
            f"$$\\frac{{\\partial \\mathcal{{L}}}}{{\\partial z_j}} = \\sigma_j - \\mathbb{{1}}[j = c] = {rhs}$$\n")
    assert _claims(text)[-1] == status


def test_a_case_after_long_inline_math_in_the_same_sentence() -> None:
    # 即 $E[q_i]=…$、$\operatorname{Var}(q_i)=…$、当 $i\ne j$ 时，$E[k_ik_j]=0$: the case is i ≠ j
    text = ("假设各维度相互独立，均值为 0、方差为 1。\n\n即 $E[q_i]=E[k_i]=0$、"
            "$\\operatorname{Var}(q_i)=\\operatorname{Var}(k_i)=1$、当 $i\\ne j$ 时，$E[k_ik_j]=0$。\n")
    r = verify_text(text, "n.md", numeric=False, inline=True)
    assert not [s for s in r.steps if s.status.value == "fails"]


@pytest.mark.parametrize("last,status", [("p_j(1 - p_j)", "holds"), ("p_j", "fails")])
def test_a_relation_ending_one_display_begins_the_next(last: str, status: str) -> None:
    text = ("$$ p_j = \\frac{e^{z_j}}{\\sum_k e^{z_k}} $$\n\n$$\n\\frac{\\partial p_j}{\\partial z_j} =\n"
            f"$$\n\n$$\n= {last}\n$$\n")
    assert _claims(text) == [status]


def test_a_definition_of_delta_and_a_word_with_an_index() -> None:
    text = ("$$ \\delta_{ij} = \\begin{cases} 1 & i = j \\\\ 0 & i \\neq j \\end{cases} $$\n\n"
            "$$ \\text{score}_{ij} = \\frac{q_i k_j}{2} $$\n")
    r = verify_text(text, "n.md", numeric=False)
    assert [s.kind for s in r.steps][-1] == "definition"
    assert not [s for s in r.steps if s.status.value in ("fails", "not-read")]
