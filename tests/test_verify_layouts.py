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
