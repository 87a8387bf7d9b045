r"""Forms the eleventh corpus batch met on first contact, each read in general: a vector the
note never defines (the upstream gradient grad_i, g_i) beside the softmax, a softmax named
as a function S(x_i) used twice in one product, ….  Each true reading has a wrong twin that
must be rejected (or, where the note's meaning cannot be read, is not judged at all)."""

from __future__ import annotations

import re

import pytest

from attncheck.verify import verify, verify_text


def _claims(text: str) -> list[str]:
    r = verify_text(text, "n.md", numeric=False)
    return [s.status.value for s in r.steps if s.kind == "claim"]


_BACKWARD = ("$$ y_i = \\frac{{e^{{x_i}}}}{{\\sum_k e^{{x_k}}}} $$\n\n"
             "$$ {claim} $$\n")


@pytest.mark.parametrize("claim,status", [
    ("\\sum_{i=1}^n y_i(\\delta_{ij} - y_j)\\,\\text{grad}_i = "
     "y_j\\Bigl(\\text{grad}_j - \\sum_{i=1}^n \\text{grad}_i y_i\\Bigr)", "holds"),
    # true for no value but some: what grad is, the note did not say — not judged either way
    ("\\sum_{i=1}^n y_i(\\delta_{ij} - y_j)\\,\\text{grad}_i = "
     "y_j\\Bigl(\\text{grad}_j - \\sum_{i=1}^n \\text{grad}_i\\Bigr)", "not-checked"),
    ("\\sum_i g_i y_i \\delta_{ij} = y_j g_j", "holds"),
    ("\\sum_i g_i y_i \\delta_{ij} = y_i g_j", "not-checked"),
    # under a derivative a name verify did not read may move with the scores: not judged
    ("\\frac{\\partial (g_i y_i)}{\\partial x_j} = g_i y_i (\\delta_{ij} - y_j)", "not-checked"),
])
def test_a_vector_the_note_never_defines(claim: str, status: str) -> None:
    assert _claims(_BACKWARD.format(claim=claim)) == [status]


_S_CALLS = ("$$\nS\\left(x_{i}\\right) = \\frac{\\exp\\left(x_{i}\\right)}{\\sum_{j}^{n}"
            "\\exp\\left(x_{j}\\right)}\n$$\n\n$$\n\\frac{\\partial S(x_i)}{\\partial x_j} = {rhs}\n$$\n")


@pytest.mark.parametrize("rhs,status", [
    ("S(x_i)\\delta_{ij} - S\\left(x_{i}\\right)S\\left(x_{j}\\right)", "holds"),
    ("S(x_i)\\delta_{ij} + S\\left(x_{i}\\right)S\\left(x_{j}\\right)", "fails"),
])
def test_the_softmax_called_twice_in_a_product(rhs: str, status: str) -> None:
    assert _claims(_S_CALLS.replace("{rhs}", rhs)) == [status]


_CASE_ROW = ("$$ p_i = \\frac{{e^{{z_i}}}}{{\\sum_k e^{{z_k}}}} $$\n\n"
             "$$\n\\begin{{aligned}}\n{case} 时：\\\\\n"
             "\\frac{{\\partial p_i}}{{\\partial z_j}} &= \\frac{{\\partial p_j}}{{\\partial z_j}} \\\\\n"
             "&= p_j(1-p_j)\n\\end{{aligned}}\n$$\n")


@pytest.mark.parametrize("case,status", [("i = j", ["holds", "holds"]),
                                         ("i \\neq j", ["fails", "holds"])])
def test_a_case_row_with_its_word_after_it(case: str, status: list[str]) -> None:
    # "i = j 时：" on a row of its own: the case of every row below it in the display
    assert _claims(_CASE_ROW.format(case=case)) == status


_AFTER_CASES = ("$$ p_i = \\frac{e^{z_i}}{\\sum_k e^{z_k}} $$\n\n"
                "$$ L = -\\sum_k y_k \\log p_k $$\n\n"
                "$$\n\\frac{\\partial L}{\\partial z_i} = \\begin{cases} p_i - 1, & y_i = 1 \\\\ "
                "p_i, & y_i = 0 \\end{cases}\n$$\n\n"
                "$$\n\\begin{split}\n所以带入 &= {rhs}\n\\end{split}\n$$\n")


@pytest.mark.parametrize("rhs", ["p_i - y_i", "p_i + y_i"])
def test_a_display_going_on_after_a_case_split(rhs: str) -> None:
    # which expression "= …" goes on from after the branches (the split's left side, or
    # one branch), the words say: never one branch's chain, and so never judged
    r = verify_text(_AFTER_CASES.replace("{rhs}", rhs), "n.md", numeric=False)
    last = [s for s in r.steps if s.kind == "claim"][-1]
    assert last.status.value == "not-read" and "p_i" in last.rhs_source


_SCORE = ("Assume the entries of $q_i$ and $k_j$ are independent with mean 0 and variance 1.\n\n"
          "$$\ne_{ij} = q_i^T k_j = \\sum_{m=1}^{d_k} q_{i,m} k_{j,m}\n$$\n\n"
          "$$\n\\text{Var}\\!\\left(\\frac{e_{ij}}{\\sqrt{d_k}}\\right) = {rhs}\n$$\n")


@pytest.mark.parametrize("rhs,status", [("1", "holds-given"), ("\\sqrt{d_k}", "fails")])
def test_e_with_two_indices_is_the_notes_name(rhs: str, status: str) -> None:
    # e_{ij}: the score of query i and key j, never Euler's number with indices
    assert _claims(_SCORE.replace("{rhs}", rhs))[-1] == status


@pytest.mark.parametrize("claim", ["\\mathrm{SelfAttention}(PX) = P \\, \\mathrm{SelfAttention}(X)",
                                   "\\mathrm{SelfAttention}(PX) = 2P \\, \\mathrm{SelfAttention}(X)"])
def test_a_function_verify_does_not_evaluate(claim: str) -> None:
    # permutation equivariance is true of self-attention; verify cannot evaluate it, so
    # neither this claim nor a wrong one about it is judged
    r = verify_text(f"$$ {claim} $$\n", "n.md", numeric=False)
    (step,) = [s for s in r.steps if s.kind == "claim"]
    assert step.status.value == "not-checked" and "SelfAttention" in step.note


_ADMONITION = ("Exercise: differentiate the softmax.\n\n{marker} success \"Solution\"\n\n"
               "    Let $p_i = e^{{z_i}}/\\sum_k e^{{z_k}}$.\n\n"
               "    $$\n    \\frac{{\\partial p_i}}{{\\partial z_i}} = {rhs}\n    $$\n")


@pytest.mark.parametrize("marker", ["???", "!!!", "???+"])
@pytest.mark.parametrize("rhs,status", [("p_i(1 - p_i)", "holds"), ("p_i(1 + p_i)", "fails")])
def test_a_display_in_an_mkdocs_admonition(marker: str, rhs: str, status: str) -> None:
    # the box's body is indented four spaces: Markdown inside it, as MkDocs renders it
    assert _claims(_ADMONITION.format(marker=marker, rhs=rhs)) == [status]


@pytest.mark.parametrize("rhs,status", [("d_k", "holds-given"), ("\\sqrt{d_k}", "fails")])
def test_githubs_inline_math(rhs: str, status: str) -> None:
    text = ("The entries of $`q`$ and $`k`$ are independent with mean 0 and variance 1.\n\n"
            f"So $`\\mathrm{{Var}}(q \\cdot k) = {rhs}`$.\n")
    r = verify_text(text, "n.md", numeric=False, inline=True)
    assert [s.status.value for s in r.steps if s.kind == "claim"] == [status]


@pytest.mark.parametrize("claim,status", [
    ("2^{10} = 1{,}024", "holds"), ("2^{10} = 1{,}042", "fails"),
    ("\\sqrt{d_k} = 32", "holds"), ("\\sqrt{d_k} = 31", "fails"),
    ("\\frac{1}{\\sqrt{d_k}} = 0.03125", "holds"), ("\\frac{1}{\\sqrt{d_k}} = 0.0313", "holds"),
    ("\\frac{1}{\\sqrt{d_k}} = 0.0315", "fails"),
])
def test_numbers_at_the_dimension_the_note_gives(claim: str, status: str) -> None:
    # "d_k = 1{,}024": a thousands separator, and the example's dimension — √d_k = 32 is
    # true of it, though not of every d_k
    text = f"Take $d_k = 1{{,}}024$.\n\n$$ {claim} $$\n"
    assert _claims(text) == [status]


@pytest.mark.parametrize("rhs,status", [("64", "holds-given"), ("8", "fails")])
def test_a_variance_at_the_dimension_the_note_gives(rhs: str, status: str) -> None:
    text = ("Assume the components of $q$ and $k$ are independent, mean 0 and variance 1, and "
            f"take $d_k = 64$.\n\n$$ \\mathrm{{Var}}(q \\cdot k) = {rhs} $$\n")
    r = verify_text(text, "n.md", numeric=True, seed=3)
    (step,) = [s for s in r.steps if s.kind == "claim"]
    assert step.status.value == status
    if status == "holds-given":  # sampled at another d, the estimate would say nothing here
        assert step.checker == "example" and step.evidence is None


_OTHER_CLASS = ("$$ \\hat{{y}}_{{c}} = \\frac{{e^{{z_{{c}}}}}}{{\\sum_{{c'}} e^{{z_{{c'}}}}}} $$\n\n"
                "$$ {claim} $$\n")


@pytest.mark.parametrize("claim,status", [
    ("\\log\\hat{y}_{c} = z_{c} - \\log\\sum_{c'}\\exp(z_{c'})", "holds"),
    ("\\log\\hat{y}_{c} = z_{c} + \\log\\sum_{c'}\\exp(z_{c'})", "fails"),
    ("\\frac{\\partial \\log\\hat{y}_{c}}{\\partial z_{c'}} = \\delta_{cc'} - \\hat{y}_{c'}", "holds"),
    ("\\frac{\\partial \\log\\hat{y}_{c}}{\\partial z_{c'}} = \\delta_{cc'} + \\hat{y}_{c'}", "fails"),
])
def test_an_index_with_a_prime(claim: str, status: str) -> None:
    # c' is another class, as an index: never a derivative
    assert _claims(_OTHER_CLASS.format(claim=claim)) == [status]


@pytest.mark.parametrize("rhs,status", [("-\\log \\hat{p}_2", "holds-given"),
                                        ("-\\log \\hat{p}_1", "fails")])
def test_a_bold_label_written_as_a_transposed_tuple(rhs: str, status: str) -> None:
    text = ("$$ \\hat{p}_k = \\frac{e^{z_k}}{\\sum_j e^{z_j}} $$\n\n"
            "$$ L = -\\sum_{k=1}^{4} y_k \\log \\hat{p}_k $$\n\n"
            "$$ \\mathbf{y} = (0, 1, 0, 0)^\\top $$\n\n"
            f"$$ L = {rhs} $$\n")
    assert _claims(text)[-1] == status


def test_a_name_defined_as_a_product_then_differentiated_by() -> None:
    # Y = AV, then "令 G_Y = ∂L/∂Y": Y cannot be put in where it is the variable — the
    # display is read as written, and the file goes on (this crashed the whole file)
    text = "$$\nY=AV\n$$\n\n反向令 $G_Y=\\partial L/\\partial Y$，则\n\n$$\nG_V=A^TG_Y\n$$\n"
    r = verify_text(text, "n.md", numeric=False)
    assert [s.kind for s in r.steps] == ["definition", "definition"]


def test_a_display_that_cannot_be_followed_is_reported_and_the_file_goes_on(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from attncheck.verify import chains

    real = chains._Builder.block

    def fragile(self: chains._Builder, block: chains.Math, *args: object, **kw: object) -> None:
        if "broken" in block.text:
            raise ValueError("Can't calculate derivative wrt V*y.")
        real(self, block, *args, **kw)

    monkeypatch.setattr(chains._Builder, "block", fragile)
    text = "$$ a = b \\text{broken} $$\n\n$$ (1 + 1)^2 = 4 $$\n"
    r = verify_text(text, "n.md", numeric=False)
    assert [s.status.value for s in r.steps] == ["holds"]
    assert any("ValueError: Can't calculate derivative" in n.text and n.location.line == 1
               for n in r.notes)


@pytest.mark.parametrize("claim,status", [
    ("p_i = \\frac{\\exp(x_i - \\max(\\mathbf{x}))}{\\sum_j \\exp(x_j - \\max(\\mathbf{x}))}", "holds"),
    ("p_i = \\frac{\\exp(x_i - \\mathrm{max}(\\mathbf{x}))}{\\sum_j \\exp(x_j)}", "fails"),
    ("\\log p_i = x_i - \\max(x) - \\log\\sum_j \\exp(x_j - \\max(\\mathbf{x}))", "holds"),
    ("\\log p_i = x_i + \\max(x) - \\log\\sum_j \\exp(x_j - \\max(\\mathbf{x}))", "fails"),
])
def test_the_largest_entry_of_a_whole_vector(claim: str, status: str) -> None:
    text = f"$$ p_i = \\frac{{e^{{x_i}}}}{{\\sum_j e^{{x_j}}}} $$\n\n$$ {claim} $$\n"
    assert _claims(text) == [status]


@pytest.mark.parametrize("rhs,status", [("-y_i + \\hat{y}_i\\sum_{k} y_k", "holds"),
                                        ("-y_i + \\sum_{k} y_k", "fails")])
def test_open_sums_beside_the_number_of_classes_the_note_gives(rhs: str, status: str) -> None:
    # C = 10: L sums over ten classes; Σ_k with no limits runs over the same ten
    text = ("There are $C = 10$ classes.\n\n"
            "$$ \\hat{y}_i = \\frac{e^{z_i}}{\\sum_{k=1}^{C} e^{z_k}} $$\n\n"
            "$$ L = -\\sum_{i=1}^{C} y_i \\log \\hat{y}_i $$\n\n"
            f"$$ \\frac{{\\partial L}}{{\\partial z_i}} = {rhs} $$\n")
    assert _claims(text) == [status]


@pytest.mark.parametrize("rhs", ["Ep[k_i^2]-(E[k_i])^2", "Ep[k_i^2]+(E[k_i])^2"])
def test_a_letter_e_beside_the_expectation(rhs: str) -> None:
    # "Ep[k²]": a typo of E_p[…] or a name — never judged on either reading
    text = ("The entries of $q$ and $k$ are independent with mean 0 and variance 1.\n\n"
            f"$$ Var(k_i) = {rhs} $$\n")
    assert _claims(text) == ["not-checked"]


@pytest.mark.parametrize("words,status", [
    # a remark in parentheses with 得到 in it explains; it does not make the sentence a
    # conclusion (which would state nothing)
    ("我们可以认为$Q$和$K$的元素是从均值为0，方差为1的正态分布中采样的（因为qkv在上一层中进行"
     "layer norm后得到的）。", "holds-given"),
    ("因此$Q$和$K$的元素均值为0，方差为1。", "needs-undeclared"),
])
def test_an_assumption_with_a_remark_in_parentheses(words: str, status: str) -> None:
    text = (f"{words}\n\n$$ \\operatorname{{var}}\\left[\\sum_{{i = 1}}^{{d_{{k}}}} q_{{i}} k_{{i}}\\right]"
            " = \\sum_{i = 1}^{d_{k}} \\operatorname{var}\\left[q_{i}\\right] \\times "
            "\\operatorname{var}\\left[k_{i}\\right] $$\n\n$$ \\sum_{i = 1}^{d_{k}} "
            "\\operatorname{var}[q_{i}] \\times \\operatorname{var}[k_{i}] = d_k $$\n")
    assert _claims(text)[-1] == status


def test_attention_nearly_one_hot_says_nothing_of_the_label() -> None:
    from attncheck.verify.check import _NEARLY_ONE_HOT, _TARGET_WORDS

    said = "经过`softmax`之后，Attention的分布非常接近一个`one hot`分布了"
    assert _TARGET_WORDS.search(said) and not _TARGET_WORDS.search(_NEARLY_ONE_HOT.sub("", said))
    label = "标签 $y$ 是 one hot 编码"
    assert _TARGET_WORDS.search(_NEARLY_ONE_HOT.sub("", label))


@pytest.mark.parametrize("rhs,status", [("a + \\log\\!\\big(1 + e^{b-a}\\big)", "holds"),
                                        ("a + \\log\\!\\big(1 + e^{a-b}\\big)", "fails")])
def test_a_log_sum_exp_identity_in_two_letters(rhs: str, status: str) -> None:
    assert _claims(f"$$ \\log(e^a + e^b) = {rhs} $$\n") == [status]


@pytest.mark.parametrize("claim", ["\\text{spread}(q \\cdot k) = \\sqrt{d}",
                                   "\\text{spread}(q \\cdot k) = d"])
def test_a_function_named_by_a_word_is_not_dropped(claim: str) -> None:
    # \text{spread}(q·k) is not q·k: the word names a function verify does not know
    text = ("The entries of $q$ and $k$ are independent with mean 0 and variance 1.\n\n"
            f"$$ {claim} $$\n")
    r = verify_text(text, "n.md", numeric=False)
    (step,) = [s for s in r.steps if s.kind == "claim"]
    assert step.status.value == "not-checked" and "spread" in step.note


@pytest.mark.parametrize("rhs", ["k^\\top (qq^\\top)k", "2\\,k^\\top (qq^\\top)k"])
def test_an_outer_product_beside_column_vectors(rhs: str) -> None:
    # beside kᵀq the vectors are columns: q qᵀ is a matrix, never the number q·q
    text = ("The entries of $q$ and $k$ are independent with mean 0 and variance 1.\n\n"
            f"$$ (k^\\top q)(q^\\top k) = {rhs} $$\n")
    r = verify_text(text, "n.md", numeric=False)
    (step,) = [s for s in r.steps if s.kind == "claim"]
    assert step.status.value == "not-read" and "outer product" in step.note


@pytest.mark.parametrize("rhs,status", [("(a_j - a_j^2) \\cdot (- \\frac{1}{a_j})", "holds-given"),
                                        ("(a_j - a_j^2) \\cdot \\frac{1}{a_j}", "fails")])
def test_a_one_hot_label_in_the_case_i_equals_j(rhs: str, status: str) -> None:
    # only y_j = 1; in the case i = j the label is one-hot at i as well
    text = ("$$ a_i = \\frac{e^{z_i}}{\\sum_k e^{z_k}} $$\n\n$$ L = -\\sum_i y_i \\ln a_i $$\n\n"
            "标签是 one-hot 的，只有 $y_j = 1$。\n\n当 $i = j$ 时：\n\n"
            f"$$ \\frac{{\\partial L}}{{\\partial z_i}} = {rhs} $$\n")
    assert _claims(text)[-1] == status


@pytest.mark.parametrize("rhs,status", [("\\hat{y}_i(\\delta_{ij} - \\hat{y}_j)", "holds"),
                                        ("\\hat{y}_i(\\delta_{ij} + \\hat{y}_j)", "fails")])
def test_double_struck_lower_case_letters_are_vectors(rhs: str, status: str) -> None:
    # \mathbb{\theta}, \mathbb{w}: a note's way to set vectors, not sets like ℝ
    text = ("$$ \\hat{y}_i = \\frac{\\exp(\\theta_i)}{\\sum_k \\exp(\\theta_k)} $$\n\n"
            f"$$ \\frac{{\\partial \\hat{{y}}_i}}{{\\partial \\theta_j}} = {rhs} $$\n\n"
            "$$ \\mathbb{\\theta} = \\mathbb{w}^T\\mathbb{x} + b, \\quad x \\in \\mathbb{R}^n $$\n")
    assert _claims(text)[0] == status


@pytest.mark.parametrize("claim,status", [("\\tfrac12 + \\frac12 = 1", "holds"),
                                          ("\\tfrac12 + \\frac12 = 6", "fails"),
                                          ("\\dfrac 1 4 = 0.25", "holds")])
def test_fractions_of_single_digits_without_braces(claim: str, status: str) -> None:
    assert _claims(f"$$ {claim} $$\n") == [status]


def test_a_matrix_with_an_empty_row_and_empty_cells() -> None:
    # ⋮ & ⋮ & & ⋮ and a row "& & &" are entries the note does not write, as ⋯ is
    text = ("$$\n\\left[\\begin{array}{ccc}1 & 0 & \\cdots \\\\ & & \\\\ \\vdots & & \\vdots"
            "\\end{array}\\right]-\\left[\\begin{array}{ccc}1 & 0 & \\cdots \\\\ & & \\\\ "
            "\\vdots & & \\vdots\\end{array}\\right]={rhs}\n$$\n")
    assert _claims(text.replace("{rhs}", "0")) == ["holds"]


@pytest.mark.parametrize("arrow", ["\\xrightarrow{\\ \\lambda \\to \\infty\\ }",
                                   "\\xrightarrow[\\lambda]{\\infty}"])
def test_an_arrow_with_words_over_it_is_a_limit_not_a_claim(arrow: str) -> None:
    r = verify_text(f"$$ \\tfrac{{1}}{{\\lambda}} f(\\lambda a) {arrow} \\max(a, b) $$\n", "n.md",
                    numeric=False)
    assert [s.kind for s in r.steps] == ["condition"]


@pytest.mark.parametrize("rhs,status", [("-\\sum_{j=1}^K \\frac{y_j}{\\hat{y}_j} "
                                         "\\frac{\\partial \\hat{y}_j}{\\partial \\theta_i}", "holds"),
                                        ("-\\sum_{j=1}^K \\frac{\\partial \\hat{y}_j}"
                                         "{\\partial \\theta_i}", "fails")])
def test_a_loss_over_three_classes_beside_sums_to_k(rhs: str, status: str) -> None:
    # J sums over the example's 3 classes, the step over K: the same classes — and the
    # numeric evidence is taken at that length, agreeing with the verdict
    text = ("$$ \\hat{y}_i = \\frac{\\exp(\\theta_i)}{\\sum_{k=1}^K \\exp(\\theta_k)} $$\n\n"
            "$$ J(\\theta) = -\\sum_{i=1}^3 y_i \\log(\\hat{y}_i) $$\n\n"
            f"$$ \\frac{{\\partial J(\\theta)}}{{\\partial \\theta_i}} = {rhs} $$\n")
    r = verify_text(text, "n.md", numeric=True, seed=5)
    (step,) = [s for s in r.steps if s.kind == "claim"]
    assert step.status.value == status
    assert step.evidence is not None and step.evidence.consistent is not False


_BOTH_CASES = ("$$ \\hat{y}_i = \\frac{e^{z_i}}{\\sum_j e^{z_j}} $$\n\n"
               "$$ E = -\\sum_{j=1}^{C} t_{j}\\log{\\hat{y}_{j}} $$\n\n"
               "Substituting the values for when $i = j$ and $i\\ne{j}$ we get:\n\n"
               "$$ \\frac{\\partial E}{\\partial z_i} = {rhs} $$\n")


@pytest.mark.parametrize("rhs,status", [
    # t_j outside the sum, j free: wrong for every i but the class — named cases do not fix j
    ("- t_{j}(1 - \\hat{y}_{i}) + \\sum_{j\\ne{i}} t_{j}\\hat{y}_{i}", "fails"),
    ("- t_{i}(1 - \\hat{y}_{i}) + \\sum_{j\\ne{i}} t_{j}\\hat{y}_{i}", "holds"),
])
def test_a_sentence_naming_both_cases_is_no_case(rhs: str, status: str) -> None:
    assert _claims(_BOTH_CASES.replace("{rhs}", rhs))[-1] == status


@pytest.mark.parametrize("rhs,status", [("- \\hat{y}_{i} \\hat{y}_{j}", "holds"),
                                        ("\\hat{y}_{i} \\hat{y}_{j}", "fails")])
def test_a_case_label_with_braces_around_an_index(rhs: str, status: str) -> None:
    text = ("$$ \\hat{y}_i = \\frac{e^{z_i}}{\\sum_k e^{z_k}} $$\n\n"
            f"When $i \\ne{{j}}$ (using the Quotient Rule):\n\n"
            f"$$ \\frac{{\\partial{{\\hat{{y}}_{{i}}}}}}{{\\partial{{z_{{j}}}}}} = {rhs} $$\n")
    assert _claims(text) == [status]


@pytest.mark.parametrize("rhs,status", [("-\\ln a_j", "holds-given"), ("-\\ln a_i", "fails")])
def test_the_class_named_as_the_index_of_the_hot_element(rhs: str, status: str) -> None:
    text = ("$$ a_i = \\frac{e^{z_i}}{\\sum_k e^{z_k}} $$\n\n$$ C = -\\sum_i y_i \\ln a_i $$\n\n"
            f"Since $y$ is one-hot,\n\n$$ C = {rhs} $$\n\nwhere $j$ is the index of the element "
            "in the vector $y$ that is \"hot\" (i.e. equal to $1$).\n")
    assert _claims(text)[-1] == status


@pytest.mark.parametrize("rhs,status", [("-a_j^L a_i^L", "holds"), ("a_j^L a_i^L", "fails")])
def test_a_case_said_after_the_display_and_the_proof_that_follows(rhs: str, status: str) -> None:
    # Nielsen's layer L written up (a_i^L: the output layer, not a power); "where j ≠ i"
    # after the display is its case, and the proof below it is under the same case
    text = ("$$ a_i^L = \\frac{e^{z_i^L}}{\\sum_k e^{z_k^L}} $$\n\n"
            f"The rate of change is \\\\[ \\frac{{\\partial a_j^L}}{{\\partial z_i^L}} = {rhs}, \\\\] "
            "where \\\\(j \\neq i\\\\).\n\n"
            "**Proof:** \\\\[ \\frac{\\partial a_j^L}{\\partial z_i^L} = \\frac{-e^{z_j^L} e^{z_i^L}}"
            "{\\left( \\sum_k e^{z_k^L} \\right) ^ 2} \\\\]\n")
    assert _claims(text.replace("$$", "\\\\[", 1).replace("$$", "\\\\]", 1)) == [status, "holds"]


@pytest.mark.parametrize("rhs,status", [("-y_j y_i", "holds"), ("y_j y_i", "fails")])
def test_a_case_in_the_paragraph_after_a_display(rhs: str, status: str) -> None:
    text = (f"$$ \\frac{{\\partial y_j}}{{\\partial x_i}} = {rhs} $$\n\nwhere $j \\neq i$.\n")
    assert _claims(text) == [status]


@pytest.mark.parametrize("rhs,status", [("0", "holds-given"), ("1", "fails")])
def test_inline_definitions_inside_html_paragraphs(rhs: str, status: str) -> None:
    # <p>… \(S = q \cdot k = Σ q_i k_i\) …</p>: the page shows inline math there; its
    # definition of S counts
    text = ("<p>\n  假设分量 \\(q_i\\) 与 \\(k_i\\) 相互独立，零均值、单位方差。\n"
            "  求点积 \\(S = q \\cdot k = \\sum_{i=1}^{d_k} q_i k_i\\) 的方差。\n</p>\n\n"
            "\\[ \\mathrm{Var}(S) = \\mathrm{Var}\\left( \\sum_{i=1}^{d_k} q_i k_i \\right) = d_k \\]\n\n"
            f"\\[ \\mathbb{{E}}[S] = {rhs} \\]\n")
    assert _claims(text) == ["holds", "holds-given", status]


def test_a_definition_by_cases_defines_in_every_branch() -> None:
    # M_ij = {0, i ≥ j; −∞, i < j}: two branches of one definition, never "0 = −∞"
    text = ("$$ M_{ij} = \\begin{cases} 0, & i \\ge j \\\\ -\\infty, & i < j \\end{cases} $$\n\n"
            "$$ M_{ij} + 1 = 1 $$\n")
    r = verify_text(text, "n.md", numeric=False)
    assert [s.kind for s in r.steps][:2] == ["definition", "definition"]
    assert r.steps[-1].status.value != "holds"  # M has no single value to put in


@pytest.mark.parametrize("rhs", ["0", "1"])
def test_infinity_is_not_judged(rhs: str) -> None:
    r = verify_text(f"$$ x - \\infty = {rhs} $$\n", "n.md", numeric=False)
    assert [s.status.value for s in r.steps] == ["not-checked"]


@pytest.mark.parametrize("rhs,status", [("\\frac{e^{x_i}}{\\sum_k e^{x_k}} \\cdot \\frac{e^{x_j}}"
                                         "{\\sum_k e^{x_k}} = y_i y_j", "holds"),
                                        ("\\frac{e^{x_i}}{\\sum_k e^{x_k}} \\cdot \\frac{e^{x_j}}"
                                         "{\\sum_k e^{x_k}} = y_i", "fails")])
def test_a_long_line_broken_after_its_relation(rhs: str, status: str) -> None:
    text = ("$$ y_i = \\frac{e^{x_i}}{\\sum_k e^{x_k}} $$\n\n"
            f"$$ \\frac{{e^{{x_i}} e^{{x_j}}}}{{(\\sum_k e^{{x_k}})^2}} = \\\\ {rhs} $$\n")
    assert _claims(text) == ["holds", status]


def test_a_wrong_step_at_the_dimension_the_note_gives_is_said_at_it() -> None:
    # √d_k = 31 after d_k = 1024: "= 32, not 31", with no sample drawn at another d
    r = verify_text("Take $d_k = 1024$.\n\n$$ \\sqrt{d_k} = 31 $$\n", "n.md", numeric=True, seed=2)
    (step,) = [s for s in r.steps if s.kind == "claim"]
    assert step.status.value == "fails" and step.checker == "example"
    assert step.residual == 1 and step.evidence is None


@pytest.mark.parametrize("rhs,status", [
    ("\\sum_{i=1}^d (q_i k_i)^2 + \\sum_{i \\ne j} q_i k_i q_j k_j", "holds"),
    ("\\sum_{i=1}^d (q_i k_i)^2 + 2\\sum_{i \\ne j} q_i k_i q_j k_j", "fails"),
])
def test_cross_terms_over_the_pairs_i_not_j(rhs: str, status: str) -> None:
    # j stands only in Σ_{i≠j}: the sum runs over the pairs, as a square's cross terms do
    text = ("Assume the components of $q$ and $k$ are independent with mean 0 and variance 1.\n\n"
            "$$ E[s] = \\sum_{i=1}^d E[q_i k_i] = 0 $$\n\n"
            f"$$ s^2 = \\Bigg( \\sum_{{i=1}}^d q_i k_i \\Bigg)^2 = {rhs} $$\n")
    assert _claims(text)[-1] == status


def test_a_free_index_without_a_pair_sum_stays_free() -> None:
    text = ("Assume the components of $q$ and $k$ are independent with mean 0 and variance 1.\n\n"
            "$$ E[q_i k_i q_j k_j] = 0 $$\n")
    r = verify_text(text, "n.md", numeric=False)
    (step,) = [s for s in r.steps if s.kind == "claim"]
    assert step.status.value == "fails" and "δ" in str(step.residual) or "Kronecker" in \
        str(step.residual)


@pytest.mark.parametrize("reason_math", ["\\sum_{i=1}^{n} y_i = 1", "\\sum_i y_i = 2"])
def test_a_reason_in_words_and_math_after_a_row(reason_math: str) -> None:
    # "&\text{ because } Σ y_i = 1": the reason, never a relation of the chain (either way)
    text = ("$$\n\\begin{align*}\na &= (1 + 1) + 1 &\\text{ because } " + reason_math +
            " \\\\\n&= 3\n\\end{align*}\n$$\n")
    r = verify_text(text, "n.md", numeric=False)
    assert [s.status.value for s in r.steps if s.kind == "claim"] == ["holds"]
    assert "because" in r.steps[0].reason


@pytest.mark.parametrize("second,status", [("-\\hat{y_i}\\hat{y_j}", "holds"),
                                           ("\\hat{y_i}\\hat{y_j}", "fails")])
def test_each_branch_of_a_split_goes_on_from_the_expression_before_it(second: str,
                                                                     status: str) -> None:
    text = ("$$ \\hat{y_i} = \\frac{e^{z_i}}{\\sum_l e^{z_l}} $$\n\n"
            "$$\n\\begin{align*}\n\\frac{\\partial \\hat{y_i}}{\\partial z_j} &= "
            "\\frac{\\frac{\\partial}{\\partial z_j} e^{z_i}}{\\sum_l e^{z_l}} - \\hat{y_i}\\hat{y_j}"
            " \\\\\n&= \\begin{cases} \\hat{y_i}(1-\\hat{y_i}) & \\text{if } i=j \\text{ because } "
            "\\frac{\\partial}{\\partial z_j} e^{z_i} = e^{z_i} \\\\\n" + second +
            " & \\text{if } i \\neq j \\text{ because } \\frac{\\partial}{\\partial z_j} e^{z_i} = 0"
            "\n\\end{cases}\n\\end{align*}\n$$\n")
    assert _claims(text)[-2:] == ["holds", status]


def test_a_case_in_a_bold_line_with_a_code_span() -> None:
    text = ("$$ y_i = \\frac{e^{x_i}}{\\sum_k e^{x_k}} $$\n\n**情况2：`i ≠ j` (非对角线元素)**\n\n"
            "求导，此时分子相对于 $x_j$ 是常数。\n\n$$ \\frac{\\partial y_i}{\\partial x_j} = "
            "-y_i y_j $$\n")
    assert _claims(text) == ["holds"]


@pytest.mark.parametrize("note", [
    "grad — verify did not read what it is in this note, and the step does not hold for every "
    "value of it",
    "SelfAttention: a function verify does not evaluate; a claim about its values is not checked",
    "∞ stands for a limit here, which is not checked",
    "Z = X: two names the note gave no values verify read",
    "'=' after a case split: which expression it goes on from (the split's left side or one "
    "branch), the words say",
    "a slice of a matrix (S_{:,:j}): matrix algebra is not checked",
    "^\\top of something that is not a vector",
    # batches 56–58
    "holds for i ≠ j; the display before took i = j, and the note does not say this is the "
    "other case (not read as a case)",
    "X is a random vector; inside an operator a number is expected (a component X_i or a dot "
    "product such as X^\\top k)",
    "'rac' looks like \\frac with its backslash and first letter lost (a string escape such as "
    "\\f or \\t took them)",
    "\\cdots here is not part of a written-out vector",
    "cannot read the written-out sum: at which index its singled-out term stands, its letters "
    "do not say",
    "cannot read the written-out vector: its entries are not one pattern from the first",
    "a case on a real value (x_i > 0) is not applied",
    "'otherwise' after a case verify does not apply",
])
def test_the_new_reasons_are_said_in_chinese(note: str) -> None:
    import re

    from attncheck.i18n import NOTES_ZH

    said = [re.sub(p, r, note) for p, r in NOTES_ZH if re.match(p, note)]
    assert said and re.search(r"[\u4e00-\u9fff]", said[0]), note


@pytest.mark.parametrize("words,status", [("For not $i$ th item, denote by $z$", "not-checked"),
                                          ("For the $i$ th item, with $z$ any index", "fails")])
def test_an_index_set_apart_in_words(words: str, status: str) -> None:
    # wrong only where z meets i, which the words rule out: not judged (never a fail); with
    # no such words, the dropped δ_iz y_z is the classic mistake, and fails
    text = ("$$ y_z = \\frac{e^{x_z}}{\\sum_j e^{x_j}} $$\n\n" + words + "\n\n"
            "$$ \\frac{\\partial y_z}{\\partial x_i} = - y_z y_i $$\n")
    assert _claims(text) == [status]


@pytest.mark.parametrize("rhs,status", [("-a_m a_n", "holds"), ("a_m a_n", "fails")])
def test_a_subsection_stays_in_its_sections_case(rhs: str, status: str) -> None:
    text = ("$$ a_m = \\frac{e^{z_m}}{\\sum_k e^{z_k}} $$\n\n## 当$m \\neq n$时，$J_{mn}$的推导\n\n"
            "### 步骤1：分析$z_n$对$a_m$的影响\n\n分母依赖于 $z_n$，导致微分如下：\n\n"
            f"$$ \\frac{{\\partial a_m}}{{\\partial z_n}} = {rhs} $$\n")
    assert _claims(text) == [status]


def test_a_new_section_at_the_same_level_ends_the_case() -> None:
    text = ("$$ a_m = \\frac{e^{z_m}}{\\sum_k e^{z_k}} $$\n\n## 当$m \\neq n$时\n\n"
            "$$ \\frac{\\partial a_m}{\\partial z_n} = -a_m a_n $$\n\n## 总结\n\n"
            "$$ \\frac{\\partial a_m}{\\partial z_n} = -a_m a_n $$\n")
    assert _claims(text) == ["holds", "fails"]


@pytest.mark.parametrize("rhs,status", [("1 - y_i", "holds"), ("1 + y_i", "fails")])
def test_not_equal_written_as_code_writes_it(rhs: str, status: str) -> None:
    text = f"$$ y_i = \\frac{{e^{{x_i}}}}{{\\sum_k e^{{x_k}}}} $$\n\n$$ \\sum_{{j!=i}} y_j = {rhs} $$\n"
    assert _claims(text) == [status]


@pytest.mark.parametrize("rhs", ["-y_i + y_i p_i + \\sum_{j \\neq i} y_j p_i",
                                 "-y_i + y_i p_i - \\sum_{j \\neq i} y_j p_i"])
def test_equals_after_a_part_worked_out_on_its_own(rhs: str) -> None:
    # (24) = a + Σ b;  b = y_j p_i (26);  "Combining: = …" — from (24) or from (26)? the
    # words say; neither reading is judged
    text = ("$$ p_i = \\frac{e^{z_i}}{\\sum_k e^{z_k}} $$\n\n$$ L = -\\sum_j y_j \\log p_j $$\n\n"
            "$$ \\frac{\\partial L}{\\partial z_i} = \\left(-\\frac{y_i}{p_i}\\right) p_i(1-p_i) + "
            "\\sum_{j \\neq i} \\left(-\\frac{y_j}{p_j}\\right) (-p_j p_i) $$\n\n"
            "Simplifying the off-diagonal terms:\n\n"
            "$$ \\left(-\\frac{y_j}{p_j}\\right) (-p_j p_i) = y_j p_i $$\n\nCombining:\n\n"
            f"$$ = {rhs} $$\n")
    r = verify_text(text, "n.md", numeric=False)
    last = [s for s in r.steps if s.kind == "claim"][-1]
    assert last.status.value == "not-read" and "worked out on its own" in last.note


# -- batch 18 ----------------------------------------------------------------------------

@pytest.mark.parametrize("rhs,status", [
    ("\\text{softmax}(z_i)(1 - \\text{softmax}(z_i))", "holds"),
    ("\\text{softmax}(z_i)(1 + \\text{softmax}(z_i))", "fails"),
])
def test_softmax_of_a_letter_names_the_scores(rhs: str, status: str) -> None:
    # no output letter is defined: softmax(z_i) itself says z holds the scores (beside the
    # attention formula's softmax of a matrix product, which names no letter)
    text = ("$$\\text{Attention}(Q,K,V) = \\text{softmax}\\left(\\frac{QK^T}{\\sqrt{d_k}}\\right)V$$"
            f"\n\n$$\\frac{{\\partial \\,\\text{{softmax}}(z_i)}}{{\\partial z_i}} = {rhs}$$\n")
    assert _claims(text) == [status]


def _inline_claims(text: str) -> list[tuple[str, str]]:
    r = verify_text(text, "n.md", numeric=False, inline=True)
    return [(s.rhs_source, s.status.value) for s in r.steps if s.kind == "claim"]


@pytest.mark.parametrize("words,status", [
    ("sum", "not-read"),        # the word is the left side: 1 = 3.0281 would be a false fail
    ("so", "fails"),            # "so $= …$" goes on from the value before: 1 ≠ 3.0281
    ("", "fails"),
])
def test_an_inline_equals_after_a_word(words: str, status: str) -> None:
    text = f"Row 2: $e^{{0.7071}}=2.0281$, $e^{{0}}=1$, {words} $=3.0281$. Weights follow.\n"
    assert _inline_claims(text)[-1] == ("3.0281", status)


@pytest.mark.parametrize("value,status", [("7.389/62.987", "holds"),
                                          ("54.598/62.987", "fails")])
def test_an_entry_named_by_a_class_letter_defines_that_entry(value: str, status: str) -> None:
    # p_A over the tokens {A, B, C} is one entry: p_B is not p_A's value under another name
    # (p_B = 7.389/62.987 was a false fail: "= 54598/62987"); what p_B is, is not read
    text = f"Normalize:\n\n- $p_A = 54.598/62.987 = 0.8668$\n- $p_B = {value} = 0.1173$\n"
    assert _inline_claims(text)[1:] == [(value, "not-checked"), ("0.1173", status)]


@pytest.mark.parametrize("rhs,status", [
    ("-\\log \\hat{y}_{y}", "not-read"),   # the class y the label's letter also names
    ("-\\sum_k y_k \\log y_k", "fails"),    # the label's own entropy: the wrong twin
    ("-\\sum_k y_k \\log \\hat{y}_k", "holds"),
])
def test_an_index_that_is_the_labels_own_letter(rhs: str, status: str) -> None:
    # ŷ_y with the one-hot label y: was a false fail "= −Σ t_k log y_k, not −log y_t"
    text = ("$$\\hat{y}_i = \\frac{\\exp(o_i)}{\\sum_{k}\\exp(o_k)}$$\n\n"
            f"$$l(y, \\hat{{y}}) = -\\sum_i y_i \\log \\hat{{y}}_i = {rhs}$$\n")
    assert _claims(text) == [status]


@pytest.mark.parametrize("math,kind", [("i=\\text{ix}", "condition"),
                                       ("k \\neq \\text{target}", "condition"),
                                       ("i = \\text{ix} + 1", "claim")])
def test_an_index_against_a_class_named_by_a_word(math: str, kind: str) -> None:
    # "只有 $i=\text{ix}$ 那一项非零": which term survives, not a claim that fails
    r = verify_text(f"求和式中只有 ${math}$ 那一项非零。\n", "n.md", numeric=False, inline=True)
    assert [s.kind for s in r.steps] == [kind]


@pytest.mark.parametrize("words,rhs,status", [
    ("而 softmax 的雅可比矩阵为", "a_i(\\delta_{ij} - a_j)", "holds"),
    ("而 softmax 的雅可比矩阵为", "a_i(\\delta_{ij} + a_j)", "fails"),
    ("The Jacobian of the softmax is", "a_j(\\delta_{ij} - a_i)", "holds"),
    # words that name no softmax: what a is, nothing says — not judged
    ("The Jacobian of the activation is", "a_i(\\delta_{ij} - a_j)", "not-checked"),
])
def test_a_lone_jacobian_the_words_call_softmaxs(words: str, rhs: str, status: str) -> None:
    # ∂a_i/∂z_j with a and z defined by no formula: the words before it say whose it is
    text = f"{words}\n\n$$\\frac{{\\partial a_i}}{{\\partial z_j}} = {rhs}$$\n"
    assert _claims(text) == [status]


@pytest.mark.parametrize("claim,status", [
    ("\\operatorname{Var}(S)=E[S^2]-(E[S])^2", "holds"),
    ("\\operatorname{Var}(S)=2E[S^2]", "fails"),
])
def test_inline_math_is_in_its_own_sentences_case(claim: str, status: str) -> None:
    # the case an earlier sentence named (当 i ≠ j 时) does not hold the definition of S in
    # the next one: under it, S := q·k was not recorded and Var(S) was not read
    text = ("各维度相互独立，均值为 0、方差为 1，即当 $i\\ne j$ 时，$E[q_iq_j]=0$。这些条件更宽松。\n"
            f"2. **正式证明**\n令 $S=q\\cdot k=\\sum_{{i=1}}^{{d}}q_i k_i$，则 ${claim}$。\n")
    r = verify_text(text, "n.md", numeric=False, inline=True)
    assert [s.status.value for s in r.steps if s.lhs_source.startswith("\\operatorname")] \
        == [status]


_TWO_J = ("Suppose we define\n\n$$q_i = \\frac{{e^{{z_i}}}}{{\\sum_i e^{{z_i}}}}$$\n\n"
          "and construct a cross-entropy loss $J = -\\sum_i p_i \\log{{q_i}}$. {slip}\n\n"
          "\\begin{{align*}} J&=-\\sum_{{j=1}}^np_jz_j+\\sum_{{j=1}}^np_j\\log\\left(\\sum_{{k=1}}^ne^{{z_k}}"
          "\\right)\\\\ &=-\\sum_{{j=1}}^np_jz_j+\\log\\left(\\sum_{{k=1}}^ne^{{z_k}}\\right) \\end{{align*}}\n")


@pytest.mark.parametrize("slip,status", [
    # "the derivative of $J = p_i log q_i$" (the asker's slip) names what is differentiated,
    # it gives J no new value (J built from the slip was a false fail)
    ("If we take the derivative of $J = p_i\\log{q_i}$, how?", ["holds", "needs-undeclared"]),
    ("Then we redefine $J = p_i\\log{q_i}$.", ["fails", "needs-undeclared"]),
    ("No slip here.", ["holds", "needs-undeclared"]),  # Σ p_j = 1 is needed and not said
    ("The sum of the probabilities $p_j$ is equal to $1$.", ["holds", "holds-given"]),
    ("The probabilities $q_j$ sum to 1.", ["holds", "needs-undeclared"]),  # softmax's: always
])
def test_a_name_the_prose_gives_two_values(slip: str, status: list[str]) -> None:
    r = verify_text(_TWO_J.format(slip=slip), "n.md", numeric=False)
    assert [s.status.value for s in r.steps if s.location.line == 7] == status


@pytest.mark.parametrize("words,status", [
    ("This code generates unit-normal inputs $Q, K$, independent of each other.",
     "holds-given"),
    ("This code generates unit-normal inputs $Q, K$. We assume $A$ and $V$ are independent.",
     "needs-undeclared"),  # A and V, not Q and K: q ⟂ k is not said (was a false hold)
    ("This code generates inputs $Q, K$, independent of each other.", "needs-undeclared"),
])
def test_unit_normal_and_whose_independence(words: str, status: str) -> None:
    text = f"$A = Q K^T$\n\n{words}\n\n$$\\mathbb{{E}}((Q_{{ij}} K_{{kj}})^2) = 1$$\n"
    r = verify_text(text, "n.md", numeric=False)
    assert [s.status.value for s in r.steps if s.kind == "claim"] == [status]


@pytest.mark.parametrize("last,status", [("q_i", "holds"), ("1-q_i", "fails")])
def test_an_environment_inside_a_paragraph(last: str, status: str) -> None:
    # "as: \begin{align*} … \end{align*} in accordance with the claim" (Math.SE): MathJax
    # shows the environment as a display, wherever in the paragraph it stands
    text = ("$$q_i = \\frac{e^{z_i}}{\\sum_k e^{z_k}}$$\n\n"
            "From (1) we obtain the derivation with respect to $z_i$ as: \\begin{align*} "
            "\\frac{d}{dz_i}\\log\\left(\\sum_{k=1}^ne^{z_k}\\right) &=\\frac{e^{z_i}}"
            f"{{\\sum_{{k=1}}^ne^{{z_k}}}}\\\\ &\\,\\,\\color{{blue}}{{={last}}} \\end{{align*}} "
            "in accordance with the claim.\n")
    assert _claims(text) == ["holds", status]



# -- batch 20 ----------------------------------------------------------------------------

_SHIFTED = ("$$p_i = \\frac{{e^{{z_i}}}}{{\\sum_j e^{{z_j}}}}$$\n\nFor any constant $c$:\n\n"
            "$${claim}$$\n")


@pytest.mark.parametrize("claim,status", [
    ("\\mathrm{softmax}(\\mathbf{z}) = \\mathrm{softmax}(\\mathbf{z} - c)", "holds"),
    ("\\mathrm{softmax}(\\mathbf{z}) = \\mathrm{softmax}(2\\mathbf{z} - c)", "fails"),
    ("\\text{softmax}(z - \\max(z))_i = p_i", "holds"),
    ("\\text{softmax}(z + c)_i = \\frac{e^{z_i}}{\\sum_j e^{z_j + c}}", "fails"),
    ("\\text{softmax}(z) = \\frac{e^{z - \\max(z)}}{\\sum_j e^{z_j - \\max(z)}}", "holds"),
    ("\\text{softmax}(z) = \\frac{e^{z}}{\\sum_j e^{z_j - \\max(z)}}", "fails"),
    # softmax(2z) was read as softmax(z) (a false hold); softmax(z/T) with T unsaid: unjudged
    ("\\text{softmax}(2\\mathbf{z})_i = \\frac{e^{z_i}}{\\sum_j e^{z_j}}", "fails"),
    ("\\text{softmax}(\\mathbf{z}/T)_i = p_i", "not-checked"),
    ("\\text{softmax}(z) = p_i", "not-checked"),  # a vector against an entry
])
def test_softmax_of_a_shifted_or_scaled_vector(claim: str, status: str) -> None:
    assert _claims(_SHIFTED.format(claim=claim)) == [status]


@pytest.mark.parametrize("first,second,status", [
    ("\\hat{y}_k(1-\\hat{y}_i)", "-\\hat{y}_i \\cdot \\hat{y}_k", ["holds", "holds"]),
    ("-\\hat{y}_i \\cdot \\hat{y}_k", "\\hat{y}_k(1-\\hat{y}_i)", ["fails", "fails"]),
])
def test_cases_in_braced_array_cells(first: str, second: str, status: list[str]) -> None:
    # {\text { if } k=i} (a converter's braces around every cell): each row's case
    text = ("$$\\hat{y} = \\text{softmax}(\\theta)$$\n\n$$\n\\frac{\\partial \\hat{y}_k}"
            "{\\partial \\theta_{i}}=\\left\\{\\begin{array}{ll}\n"
            f"{{{first}}} & {{\\text {{ if }} k=i}} \\\\\n{{{second}}} & {{\\text {{ if otherwise }}}}"
            "\n\\end{array}\\right.\n$$\n")
    assert _claims(text) == status


@pytest.mark.parametrize("last,status", [("= -\\sum_{i=1}^{n}y_{i}x_{i} + \\log\\sum_{j=1}^{n}"
                                          "e^{x_{j}}", "holds-given"),
                                         ("= -\\sum_{i=1}^{n}y_{i}x_{i}", "fails")])
def test_newline_breaks_rows(last: str, status: str) -> None:
    text = ("$$\\hat{y}_i = \\frac{e^{x_i}}{\\sum_j e^{x_j}}$$ with one-hot $y$.\n\n$$\n"
            "L=-\\sum_{i=1}^{n}y_{i}\\log\\hat{y}_{i}\\newline\n"
            "=-\\sum_{i=1}^{n}y_{i}\\log\\frac{e^{x_{i}}}{\\sum_{j=1}^{n}e^{x_{j}}} \\newline\n"
            f"{last}\n$$\n")
    assert _claims(text) == ["holds", status]


@pytest.mark.parametrize("words,status", [
    ("2. sigmoid+cross entropy：将sigmoid公式代入cross entropy，可得如下公式。", "not-checked"),
    ("将softmax公式代入cross entropy，可得如下公式。", "fails"),
])
def test_a_part_about_the_sigmoid(words: str, status: str) -> None:
    # ŷ_i is the sigmoid's output there: substituting 1/(1+e^{−x_i}) is no false step
    text = ("$$\\hat{y}_i = \\frac{e^{x_i}}{\\sum_j e^{x_j}}$$\n\n"
            f"{words}\n\n$$\nL=-\\sum_{{i=1}}^{{n}}y_{{i}}\\log\\hat{{y}}_{{i}}\\\\\n"
            " =-\\sum_{i=1}^{n}y_{i}\\log\\frac{1}{1+e^{-x_{i}}}\n$$\n")
    assert _claims(text)[-1:] == [status]


@pytest.mark.parametrize("value,status", [("5.00", "holds"), ("5.10", "fails")])
def test_a_worked_matrix_to_the_decimals_written(value: str, status: str) -> None:
    # 0.333·10 + 0.333·5 = 4.995: the author computed with 1/3 and wrote 5.00
    text = ("$$\nO = \\begin{pmatrix} 0.456(10) + 0.225(0) + 0.320(5) \\\\ 0.333(10) + 0.333(0)"
            f" + 0.333(5) \\end{{pmatrix}} = \\begin{{pmatrix}} 6.16 \\\\ {value} \\end{{pmatrix}}\n$$\n")
    assert _claims(text) == [status]


# -- batch 21 ----------------------------------------------------------------------------

def test_where_after_a_relation_defines() -> None:
    # softmax(s/√d_k) = softmax(s/T) where T = √d_k: T is defined there, though the first
    # relation of the row already wrote it (read as a claim, it "failed")
    text = ("$$\\text{softmax}\\left(\\frac{\\mathbf{s}}{\\sqrt{d_k}}\\right) = "
            "\\text{softmax}\\left(\\frac{\\mathbf{s}}{T}\\right) \\text{ where } T = \\sqrt{d_k}$$\n")
    r = verify_text(text, "n.md", numeric=False)
    assert [s.status.value for s in r.steps if s.lhs_source.strip() == "T"] == ["definition"]


@pytest.mark.parametrize("words,status", [
    ("For a single sample with true class $c$ (one-hot encoded as $\\mathbf{y}$):", "holds-given"),
    ("For a single sample with a one-hot label $\\mathbf{y}$:", "fails"),
])
def test_a_true_class_named_before_a_parenthesis(words: str, status: str) -> None:
    # "true class $c$ (one-hot …)": c is the class (the parenthesis is no function call)
    text = ("$$\\hat{\\pi}_k = \\frac{e^{z_k}}{\\sum_{j=1}^{K} e^{z_j}}$$\n\n"
            f"{words}\n\n$$\\mathcal{{L}} = -\\log \\hat{{\\pi}}_c = -\\sum_{{k=1}}^{{K}} y_k "
            "\\log \\hat{\\pi}_k$$\n")
    assert _claims(text) == [status]


_SAME_EXPRESSION = (
    "$$\\sigma(z_i) = \\frac{{e^{{z_i}}}}{{\\sum_{{k=1}}^n e^{{z_k}}}}$$\n\n"
    "2.当 $i \\neq j$时，这种情况指的是输入是$z_j$，但是对$z_i$求导。\n\n"
    "$$\\frac{{\\partial \\sigma(z_j)}}{{\\partial z_i}} (当i \\neq j)$$\n\n"
    "这种情况下，分子的导数为0。{words}\n\n"
    "$$\\frac{{\\partial \\sigma(z_j)}}{{\\partial{{z_i}}}} = - \\frac{{e^{{z_j}} \\cdot e^{{z_i}}}}"
    "{{(\\sum_{{k=1}}^n e^{{z_k}})^2}}$$\n")


@pytest.mark.parametrize("words,status", [
    ("代入公式：", "holds"),          # the expression of the case, worked out: in its case
    ("将两种情况进行统一：", "fails"),  # the split is over: the claim is for every i, j
])
def test_a_case_goes_on_for_its_expression(words: str, status: str) -> None:
    assert _claims(_SAME_EXPRESSION.format(words=words)) == [status]


# -- batch 22 ----------------------------------------------------------------------------

@pytest.mark.parametrize("law,status", [("标准多元正态分布", "holds-given"),
                                        ("多元正态分布", "needs-undeclared")])
def test_a_standard_multivariate_normal(law: str, status: str) -> None:
    # "标准多元正态分布": mean 0 and variance 1, as "标准正态" says
    text = (f"假设有两个随机向量 $q,k$，它们均为{law}，并且相互独立。\n\n"
            "$$\\mathrm{Var}(\\frac{q \\cdot k}{\\sqrt{d_k}}) = 1$$\n")
    assert _claims(text) == [status]


@pytest.mark.parametrize("exponent,status", [("w_{k}^{T}x", "not-checked"), ("z_{k}", "fails")])
def test_a_score_written_as_a_product_names_no_letter(exponent: str, status: str) -> None:
    # s_k = e^{w_kᵀx}/Σ_j e^{w_jᵀx}: the scores are w_kᵀx — reading w as the scores merged
    # the weights and the input into one letter (false fails)
    other = exponent.replace("k", "j")
    text = (f"With $s_k = \\frac{{e^{{{exponent}}}}}{{\\sum_{{j=1}}^{{K}} e^{{{other}}}}}$:\n\n"
            "$$\\frac{\\partial s_k}{\\partial " + ("w_{jz}" if "w" in exponent else "z_j") +
            "} = s_k(1 + s_k)$$\n")
    assert _claims(text) == [status]


def test_a_frobenius_colon_is_not_dropped() -> None:
    # 1:e read as "1 e" made the quotient rule of differentials fail ("= d")
    r = verify_text("$$dp = \\frac{de}{1:e} - \\frac{e(1:de)}{(1:e)^2}$$\n", "n.md", numeric=False)
    assert [s.status.value for s in r.steps] == ["not-read"]
    assert "Frobenius" in r.steps[0].note


@pytest.mark.parametrize("claim,status", [
    ("var(q \\cdot k) = E(q^2 \\cdot k^2) - (E(q \\cdot k))^2", "not-read"),
    ("var(q \\cdot k) = E((q \\cdot k)^2) - (E(q \\cdot k))^2", "holds"),
])
def test_squared_vectors_under_a_dot(claim: str, status: str) -> None:
    # q^2 · k^2: Σ q_i² k_i² or (q·q)(k·k)? read as the latter it was a false fail
    text = "Let $q, k$ be independent with mean 0 and variance 1.\n\n" f"$${claim}$$\n"
    assert _claims(text) == [status]



# -- batch 23 ----------------------------------------------------------------------------

@pytest.mark.parametrize("words,status", [
    # on the unit sphere E(a_1²) = 1/n and the components are not independent: not judged
    ("Take two uniform, random, and normalized vectors $a$ and $b$ of dimension $d$.",
     "not-checked"),
    ("Take two random vectors $a$ and $b$ of dimension $d$ with independent components of "
     "mean 0 and variance 1.", "holds-given"),
])
def test_unit_vectors_are_another_model(words: str, status: str) -> None:
    text = f"{words}\n\n$$\\mathrm{{Var}}(a \\cdot b) = d$$\n"
    assert _claims(text) == [status]


@pytest.mark.parametrize("claim,status", [("n \\sigma^2 = 1", "holds"),
                                          ("n \\sigma^2 = 2", "fails")])
def test_a_variance_given_by_its_square(claim: str, status: str) -> None:
    # "the variance is $\sigma^2 = \frac{1}{n}$": σ is √(1/n) after it
    text = ("The variance of the dot product is $\\sigma^2 = \\frac{1}{n}$ where $n$ is the "
            f"dimension.\n\n$${claim}$$\n")
    assert _claims(text) == [status]


@pytest.mark.parametrize("sign,status", [("-", "holds"), ("+", "fails")])
def test_markdown_escaped_underscores(sign: str, status: str) -> None:
    # Hexo and kramdown sources write \_ inside $$ so Markdown leaves it: MathJax sees _
    text = ("$$p\\_i = \\frac{e^{z\\_i}}{\\sum\\_{j} e^{z\\_j}}$$\n\n"
            f"$$\\frac{{\\partial p\\_i}}{{\\partial z\\_i}} = p\\_i(1 {sign} p\\_i)$$\n")
    assert _claims(text) == [status]


@pytest.mark.parametrize("rhs,status", [("d", "holds-given"), ("2d", "fails")])
def test_a_sum_with_an_upper_limit_only(rhs: str, status: str) -> None:
    # \sum^d a_i^2: from 1, over the index the summand names
    text = ("Let $a, b$ have independent components of mean 0 and variance 1.\n\n"
            f"$$\\sum^d\\mathbb{{E}}[a_i^2] = {rhs}$$\n")
    assert _claims(text) == [status]


def test_a_whole_vector_is_shown_at_its_entry() -> None:
    # the verdict names softmax's entry i, never the placeholder or the wrapper it is held in
    r = verify_text(_SHIFTED.format(claim="\\mathrm{softmax}(\\mathbf{z}) = "
                                          "\\mathrm{softmax}(2\\mathbf{z} - c)"), "n.md",
                    numeric=False)
    from attncheck.text import text
    shown = text(r.steps[-1].rhs)
    assert shown.startswith("[") and shown.endswith("]_i") and "row" not in shown


# -- batch 24 ----------------------------------------------------------------------------

@pytest.mark.parametrize("claim,status", [("e^3 = 20", "holds"), ("e^3 = 21", "fails"),
                                          ("e^{4} = 55", "holds"), ("\\pi = 3", "fails")])
def test_a_whole_number_rounded_in_a_worked_example(claim: str, status: str) -> None:
    # "e^3 = 20, e^1 = 2.7": a value no whole number equals, written to its units place
    assert _claims(f"$${claim}$$\n") == [status]


@pytest.mark.parametrize("last,status", [("d_k", "holds-given"), ("2 d_k", "fails")])
def test_a_reason_in_parentheses_after_quad(last: str, status: str) -> None:
    # \quad (\text{因為 } E[q_i] = E[k_i] = 0): the row's reason, math in it and all
    text = ("假設 $q, k$ 的各分量獨立，均值為 0，方差為 1。\n\n$$\n\\begin{aligned}\n"
            "\\text{Var}(q \\cdot k) &= \\sum_{i=1}^{d_k} \\mathbb{E}[q_i^2]\\mathbb{E}[k_i^2] "
            "\\quad (\\text{因為 } \\mathbb{E}[q_i] = \\mathbb{E}[k_i] = 0) \\\\\n"
            f"&= {last}\n\\end{{aligned}}\n$$\n")
    assert _claims(text)[-1:] == [status]


@pytest.mark.parametrize("before", ["<!-- kept: \\( \\) \\[ as written -->\n\n", ""])
def test_a_link_in_escaped_brackets_and_a_comment(before: str) -> None:
    # GitBook's \[[paper](url)\] is no display, and a \[ inside an HTML comment opens none:
    # the display below is read either way
    text = (f"{before}# Notes \\(2015\\)\n\n\\[[paper](http://arxiv.org/pdf/1503.02531)\\]\n\n"
            "Let $y_i = \\frac{e^{x_i}}{\\sum_k e^{x_k}}$.\n\n"
            "$$\\frac{\\partial y_i}{\\partial x_i} = y_i(1 - y_i)$$\n")
    r = verify_text(text, "n.md", numeric=False)
    assert [s.status.value for s in r.steps if s.kind == "claim"] == ["holds"]
    assert not [n for n in r.notes if n.problem]


# -- batch 25 ----------------------------------------------------------------------------

@pytest.mark.parametrize("rhs,status", [
    ("\\frac{e^{x_i - m}}{\\sum_j e^{x_j - m}}", "holds"),
    ("\\frac{e^{x_i - \\max(x)}}{\\sum_j e^{x_j - \\max(x)}}", "holds"),
    ("\\frac{e^{x_i - m}}{\\sum_j e^{x_j}}", "fails"),
    ("\\frac{e^{x_i}}{\\sum_j e^{x_j + m}}", "fails")])
def test_the_softmax_shifted_for_stability_is_a_claim(rhs: str, status: str) -> None:
    # written first, before any other formula for it: shift invariance, not a new definition
    text = ("For numerical stability subtract the maximum $m = \\max_j x_j$:\n\n"
            f"$$\\text{{softmax}}(x)_i = {rhs}$$\n")
    assert _claims(text) == [status]


def test_a_temperature_softmax_stays_a_definition() -> None:
    text = "$$\\text{softmax}(x)_i = \\frac{e^{x_i / T}}{\\sum_j e^{x_j / T}}$$\n"
    r = verify_text(text, "n.md", numeric=False)
    assert [s.kind for s in r.steps] == ["definition"]


@pytest.mark.parametrize("rhs,status", [("\\frac{e^{z_i}}{\\sum_j e^{z_j}}", "holds"),
                                        ("\\frac{e^{z_i}}{\\sum_j e^{2 z_j}}", "fails")])
def test_an_entry_called_with_the_scores(rhs: str, status: str) -> None:
    # S_i(z): the i-th output with the scores it is a function of named, never S_i·z
    text = ("$$S_i(z) = \\frac{e^{z_i}}{\\sum_{j=1}^K e^{z_j}}$$\n\n"
            f"$${rhs} = S_i(z)$$\n")
    assert _claims(text) == [status]


@pytest.mark.parametrize("words,status", [("From independence", "holds-given"),
                                          ("由独立性", "holds-given"),
                                          ("From linearity", "needs-undeclared")])
def test_independence_given_as_the_reason(words: str, status: str) -> None:
    # "From independence $$E[X_iW_i] = E[X_i]E[W_i]$$" (Math.SE): the reason is the note's
    # assumption; linearity of E is not independence
    text = ("Let $W$ and $X$ have entries sampled from $\\mathcal{N}(0, 1)$.\n\n"
            f"{words} $$E[X_iW_i]=E[X_i]E[W_i]$$\n")
    assert _claims(text) == [status]


@pytest.mark.parametrize("said,status", [("(当二者期望都为0时)", "holds-given"),
                                         ("", "needs-undeclared")])
def test_both_means_said_in_parentheses(said: str, status: str) -> None:
    text = (f"两个独立随机变量乘积的方差{said}: $var[XY]=var[X]\\cdot var[Y]$\n")
    r = verify_text(text, "n.md", numeric=False, inline=True)
    assert [s.status.value for s in r.steps if s.kind == "claim"] == [status]


@pytest.mark.parametrize("last,status", [("d_k", "needs-undeclared"), ("2d_k", "fails")])
def test_double_dollars_after_a_colon_inside_a_paragraph(last: str, status: str) -> None:
    # Math.SE as stored: "…is: $$α = Σ q_n k_n$$ We know …" — a display inside a paragraph
    text = ("Assume the keys $$K$$ and queries $$Q$$ have zero mean. The score between $$i$$ "
            "and $$j$$ is: $$\\alpha = q_i k_j^T = \\sum_{n=1}^{d_k} q_{in}k_{jn}$$ We know that "
            "the variance of a sum is the sum of the variances. Thus we get: "
            f"$$\\text{{Var}}(\\alpha) = {last},$$ since each term has variance one.\n")
    assert _claims(text) == ["holds", status]


def test_a_bare_environment_never_closed() -> None:
    text = ("From the article:\n\\begin{split} \\frac{\\partial L}{\\partial z_i} &= "
            "y_i - t_i \\end{spli\n")
    r = verify_text(text, "n.md", numeric=False)
    assert any("never closed" in n.text for n in r.notes if n.problem)


# -- softmax's Jacobian by name (unjudged in the corpus: J = diag(p) − ppᵀ) ----------------

_JACOBIAN = ("Let $p_i = \\frac{{e^{{z_i}}}}{{\\sum_j e^{{z_j}}}}$.\n\n"
             "{words}\n\n$${claim}$$\n")


@pytest.mark.parametrize("words,claim,status", [
    ("The Jacobian matrix $J$ is", "J = \\text{diag}(p) - p p^T", "holds"),
    ("The Jacobian matrix $J$ is", "J = \\text{diag}(p) + p p^T", "fails"),
    ("### Softmax Jacobian", "\\mathbf{J} = \\text{diag}(\\mathbf{p}) - \\mathbf{p}\\mathbf{p}^\\top",
     "holds"),
    ("In matrix form:", "J_{\\text{softmax}} = \\text{diag}(p) - p p^T", "holds"),
    ("In matrix form:", "J_{\\text{softmax}} = p p^T - \\text{diag}(p)", "fails"),
    ("雅可比矩阵 $J$ 为", "J = \\begin{bmatrix} p_1(1-p_1) & -p_1 p_2 \\\\ -p_2 p_1 & p_2(1-p_2) "
     "\\end{bmatrix}", "holds"),
    ("雅可比矩阵 $J$ 为", "J = \\begin{bmatrix} p_1(1-p_1) & p_1 p_2 \\\\ -p_2 p_1 & p_2(1-p_2) "
     "\\end{bmatrix}", "fails"),
    ("", "\\frac{\\partial p}{\\partial z} = \\text{diag}(p) - p p^T", "holds"),
    ("", "\\frac{\\partial p}{\\partial z} = \\text{diag}(p) - p^T p", "not-read"),
])
def test_the_jacobian_by_its_name(words: str, claim: str, status: str) -> None:
    # J (or J_σ, J_softmax) that the words call the Jacobian: a claim about ∂p/∂z, not a name
    assert _claims(_JACOBIAN.format(words=words, claim=claim)) == [status]


@pytest.mark.parametrize("rhs,status", [("p_i(\\delta_{ij} - p_j)", "holds"),
                                        ("p_i(\\delta_{ij} + p_j)", "fails")])
def test_an_entry_of_the_named_jacobian(rhs: str, status: str) -> None:
    text = _JACOBIAN.format(words="The Jacobian $J$ of the softmax:",
                            claim="J = \\text{diag}(p) - p p^T") + f"\n$$J_{{ij}} = {rhs}$$\n"
    assert _claims(text) == ["holds", status]


def test_a_jacobian_of_other_functions_is_left_alone() -> None:
    # J_h = J_g J_f: this note's J names other functions' Jacobians — J = … is a name given
    text = _JACOBIAN.format(words="The Jacobian of a composition:\n\n$$J_h = J_g J_f$$",
                            claim="J = \\text{diag}(p) - p p^T")
    r = verify_text(text, "n.md", numeric=False)
    assert [s.kind for s in r.steps][-1:] == ["definition"]


# -- batch 26 ----------------------------------------------------------------------------

@pytest.mark.parametrize("rhs,status", [("\\frac{1}{\\sum_k e^{a_k - a_i}}", "holds"),
                                        ("\\frac{e^{a_i}}{\\sum_k e^{2a_k}}", "fails")])
def test_an_exponent_with_its_index_after_it(rhs: str, status: str) -> None:
    # e^a_k (TeX: both scripts on e) is e^{a_k} — Euler's e has no entries
    text = ("$$p_i = \\frac{e^{a_i}}{\\sum_{k} e^a_k}$$\n\n"
            f"$$\\frac{{\\partial p_i}}{{\\partial a_i}} = p_i(1 - p_i)$$\n\n$$p_i = {rhs}$$\n")
    assert _claims(text) == ["holds", status]


@pytest.mark.parametrize("rhs,status", [("-p_i p_j", "holds"), ("p_i p_j", "fails")])
def test_a_case_in_double_dollars_with_a_braced_index(rhs: str, status: str) -> None:
    # kramdown: 当 $$i\neq{j}$$, then the display — the case of the display after it
    text = ("Let $p_i = \\frac{e^{a_i}}{\\sum_k e^{a_k}}$.\n\n当 $$i\\neq{j}$$,\n\n"
            f"$$\\frac{{\\partial p_i}}{{\\partial a_j}} = {rhs}$$\n")
    assert _claims(text) == [status]


@pytest.mark.parametrize("words,status", [
    ("where $y_j$ is the true label (1 if class $j$ is correct)", "holds-given"),
    ("where $y_j$ is the true label", "needs-undeclared")])
def test_a_label_that_is_one_on_the_correct_class(words: str, status: str) -> None:
    text = (f"$$L = -\\sum_j y_j \\log \\hat{{y}}_j$$\n\n{words}, "
            "$\\hat{y}_j = \\frac{e^{z_j}}{\\sum_k e^{z_k}}$.\n\n"
            "$$\\frac{\\partial L}{\\partial z_j} = \\hat{y}_j - y_j$$\n")
    assert _claims(text) == [status]


@pytest.mark.parametrize("lead,kind", [
    ("The goal: we want to find some factor $c$ so that the variance is one:", "condition"),
    ("We want to find the result of", "claim"),
    ("We want to show that the variance is one:", "claim")])
def test_an_equation_the_note_sets_out_to_solve(lead: str, kind: str) -> None:
    text = ("Let $q, k$ have independent components of mean 0 and variance 1.\n\n"
            f"{lead}\n\n$$\\mathrm{{Var}}(q \\cdot k) = 1$$\n")
    r = verify_text(text, "n.md", numeric=False)
    assert [s.kind for s in r.steps] == [kind]


@pytest.mark.parametrize("opening,closing", [("{% katex(block=true) %}", "{% end %}"),
                                             ("{{< katex display >}}", "{{< /katex >}}")])
@pytest.mark.parametrize("last,status", [("d_k", "holds-given"), ("2d_k", "fails")])
def test_a_static_site_shortcode_display(opening: str, closing: str, last: str,
                                         status: str) -> None:
    # Zola's and Hugo's KaTeX shortcodes: display math Markdown leaves as written
    text = ("Let $q, k$ have independent components of mean 0 and variance 1.\n\n"
            f"{opening}\n\\begin{{aligned}}\n\\mathrm{{Var}}(q \\cdot k) &= "
            f"\\sum_{{i=1}}^{{d_k}} \\mathrm{{Var}}(q_i k_i) \\\\\n&= {last}\n\\end{{aligned}}\n"
            f"{closing}\n")
    assert _claims(text)[-1:] == [status]


# -- gradients by the weights of a linear layer (unjudged in the corpus: ∂L/∂w_{kd}) --------

_LAYER = ("The scores are $${layer}$$ and $p_k = \\frac{{e^{{z_k}}}}{{\\sum_j e^{{z_j}}}}$, "
          "$L = -\\sum_k y_k \\log p_k$ with a one-hot label $y$.\n\n$${claim}$$\n")


@pytest.mark.parametrize("layer,claim,status", [
    ("z_k = \\sum_d w_{kd} x_d + b_k", "\\frac{\\partial L}{\\partial w_{kd}} = (p_k - y_k) x_d",
     "holds-given"),
    ("z_k = \\sum_d w_{kd} x_d + b_k", "\\frac{\\partial L}{\\partial w_{kd}} = (p_k - y_k) x_k",
     "fails"),
    ("z_k = \\sum_d w_{dk} x_d + b_k", "\\frac{\\partial L}{\\partial w_{dk}} = (p_k - y_k) x_d",
     "holds-given"),
    ("z_k = \\sum_d w_{dk} x_d + b_k", "\\frac{\\partial L}{\\partial w_{dk}} = (p_d - y_d) x_k",
     "fails"),
    ("z_k = w_k^T x + b_k", "\\frac{\\partial L}{\\partial b_k} = p_k - y_k", "holds-given"),
    ("z_k = w_k^T x + b_k", "\\frac{\\partial L}{\\partial b_k} = p_k", "fails"),
    ("z = Wx + b", "\\frac{\\partial z_k}{\\partial W_{kd}} = x_d", "holds"),
    ("z = Wx + b", "\\frac{\\partial z_k}{\\partial W_{kd}} = x_k", "fails"),
    ("z_k = \\sum_d w_{kd} x_d + b_k", "\\frac{\\partial L}{\\partial w_{kd}} = "
     "\\frac{\\partial L}{\\partial z_k} \\frac{\\partial z_k}{\\partial w_{kd}}", "holds"),
])
def test_a_gradient_by_the_weights_of_the_layer(layer: str, claim: str, status: str) -> None:
    # the weights reach the loss only through the scores: ∂L/∂w_{kd} = (∂L/∂z_k) x_d
    r = verify_text(_LAYER.format(layer=layer, claim=claim), "n.md", numeric=True)
    steps = [s for s in r.steps if s.kind == "claim"]
    assert [s.status.value for s in steps] == [status]
    # the complex step through the layer (x_k moved by x_d) agrees with the symbolic side
    assert steps[0].evidence is not None and steps[0].evidence.consistent


def test_weights_outside_a_derivative_are_not_judged() -> None:
    text = _LAYER.format(layer="z_k = \\sum_d w_{kd} x_d + b_k",
                         claim="w_{kd} = w_{kd} - \\eta (p_k - y_k) x_d")
    r = verify_text(text, "n.md", numeric=False)
    assert all(s.status.value not in ("holds", "fails") for s in r.steps)


@pytest.mark.parametrize("rhs,kind", [("-\\sum_i y_i \\ln(\\sigma_i)", "definition")])
def test_the_loss_named_by_a_word(rhs: str, kind: str) -> None:
    # \text{CE} = …: the note's loss, by its name (no function applied to nothing)
    r = verify_text(f"$$\\text{{CE}} = {rhs}$$\n", "n.md", numeric=False)
    assert [s.kind for s in r.steps] == [kind]


def test_a_primed_capital_is_a_new_name() -> None:
    # S' = S/√d_k: a matrix the note names, not the derivative of a function S
    r = verify_text("$$S' = \\frac{S}{\\sqrt{d_k}}$$\n", "n.md", numeric=False)
    assert [s.kind for s in r.steps] == ["definition"]


# -- ∂ that takes a fraction's whole top (unjudged in the corpus) ------------------------------

@pytest.mark.parametrize("claim,status", [
    ("\\frac{\\partial \\log(\\sum_{j=1}^n e^{x_j}) - x_i}{\\partial x_i} = "
     "\\frac{e^{x_i}}{\\sum_{j=1}^n e^{x_j}} - 1", "holds"),
    ("\\frac{\\partial \\log(\\sum_{j=1}^n e^{x_j}) - x_i}{\\partial x_i} = "
     "\\frac{e^{x_i}}{\\sum_{j=1}^n e^{x_j}}", "fails"),
    ("\\frac{- \\partial \\log p_i}{\\partial p_i} = -\\frac{1}{p_i}", "holds"),
    ("\\frac{- \\partial \\log p_i}{\\partial p_i} = \\frac{1}{p_i}", "fails"),
    ("\\frac{(\\partial -\\log p_i)}{\\partial p_i} = -\\frac{1}{p_i}", "holds"),
])
def test_the_partial_of_a_whole_numerator(claim: str, status: str) -> None:
    # \frac{\partial A - B}{\partial x}: ∂(A − B)/∂x, as the fraction's top is read
    text = "Let $p_i = \\frac{e^{x_i}}{\\sum_j e^{x_j}}$.\n\n" f"$${claim}$$\n"
    assert _claims(text) == [status]


# -- batch 28 and worked vectors in parentheses ---------------------------------------------

@pytest.mark.parametrize("rhs,status", [("p_k - [k=y]", "holds"), ("p_k + [k=y]", "fails"),
                                        ("p_k - \\mathbb{1}\\{y = k\\}", "holds")])
def test_an_indicator_of_the_labels_class(rhs: str, status: str) -> None:
    # [k = y], y the class the label names (as in p_y): the one-hot label's entry k
    text = ("Let $p_k = \\frac{e^{z_k}}{\\sum_i e^{z_i}}$ and, for the correct class $y$, "
            "$$L = -\\log p_y$$\n\n"
            f"$$\\frac{{\\partial L}}{{\\partial z_k}} = {rhs}$$\n")
    assert _claims(text) == [status]


@pytest.mark.parametrize("claim,status", [
    ("(0.40, 0.25, 0.15)/0.80 = (0.500, 0.3125, 0.1875)", "holds"),
    ("(0.40, 0.25, 0.15)/0.80 = (0.500, 0.3125, 0.3)", "fails"),
    ("0.5\\cdot(1,2) + 0.5\\cdot(3,4) = (2.0, 3.0)", "holds"),
    ("0.5\\cdot(1,2) + 0.5\\cdot(3,4) = (2.0, 3.5)", "fails"),
    ("(0.659-1,\\ 0.242-0) = (-0.341,\\ 0.242)", "holds"),
])
def test_a_worked_vector_in_parentheses(claim: str, status: str) -> None:
    # a worked example's numbers in parentheses: a vector, entry by entry
    assert _claims(f"$${claim}$$\n") == [status]


def test_a_tuple_of_letters_is_still_a_list() -> None:
    r = verify_text("$$(a, b) = (b, a)$$\n", "n.md", numeric=False)
    assert [s.status.value for s in r.steps] == ["not-read"]


@pytest.mark.parametrize("words,status", [
    ("由于softmax不像argmax这样只选择唯一的一个，也就是所谓的one-hot，因此得了soft的名字。",
     "needs-undeclared"),
    ("标签 $t$ 是 one-hot 向量。", "holds-given")])
def test_one_hot_said_of_argmax_is_not_the_label(words: str, status: str) -> None:
    # "one-hot" in a sentence about argmax's output says nothing of the label t
    text = (f"{words}\n\n$$-t_i + y_i \\sum_{{j=1}}^C t_j = y_i - t_i$$\n")
    assert _claims(text) == [status]


@pytest.mark.parametrize("rhs,status", [("-y_iy_j", "holds"), ("y_iy_j", "fails")])
def test_a_sum_over_a_letter_that_is_no_usual_index(rhs: str, status: str) -> None:
    # Σ_{t=1}^k e^{o_t}: t runs over the sum (never the label's letter)
    text = ("Let $y_j = \\frac{e^{o_j}}{\\sum_{t=1}^k e^{o_t}}$.\n\n当$i\\not= j$时：\n\n"
            f"$$\\frac{{-e^{{o_i}}e^{{o_j}}}}{{(\\sum_{{t=1}}^k e^{{o_t}})^2}} = {rhs}$$\n")
    assert _claims(text) == [status]


# -- batch 29 and whole-vector gradients ------------------------------------------------------

_GRADIENT = ("$$p_i = \\frac{{e^{{z_i}}}}{{\\sum_j e^{{z_j}}}}$$\n\n"
             "and $L = -\\sum_i y_i \\log p_i$ with a one-hot $y$.\n\n$${claim}$$\n")


@pytest.mark.parametrize("claim,status", [
    ("\\frac{\\partial L}{\\partial z} = p - y", "holds-given"),
    ("\\frac{\\partial L}{\\partial z} = y - p", "fails"),
    ("\\frac{\\partial L}{\\partial \\mathbf{z}} = \\mathbf{p} - \\mathbf{y}", "holds-given"),
    ("\\nabla_z L = p - y", "holds-given"),
    # p alone: the whole output, compared entry by entry (once not judged)
    ("\\nabla_z L = p", "fails"),
])
def test_the_gradient_by_the_whole_scores(claim: str, status: str) -> None:
    # ∂L/∂z = p − y: both sides whole vectors, compared at a general entry
    assert _claims(_GRADIENT.format(claim=claim)) == [status]


def test_a_calculus_rule_in_a_variable_of_its_own_is_no_gradient() -> None:
    # d ln(x)/dx = 1/x beside a softmax note: x is the rule's variable, not the scores
    text = _GRADIENT.format(claim="\\frac{d \\ln(x)}{d x} = \\frac{1}{x}")
    assert _claims(text) == ["holds"]


@pytest.mark.parametrize("words,status", [("对 $z_i$ 求导，有两种情况。", "not-checked"),
                                          # (the display before is the diagonal case: the
                                          # other one, by its look — batch 56)
                                          ("对 $z_i$ 求导。", "not-checked")])
def test_the_second_of_two_cases_the_note_counts(words: str, status: str) -> None:
    # "有两种情况" then ∂a_i/∂z_i = …, ∂a_k/∂z_i = −a_k a_i: true for k ≠ i, which the words
    # count without naming — not judged, never "fails" (alone, with no diagonal display
    # before it, it fails: test_a_lone_claim_by_another_index_still_fails)
    text = ("$$a_k=\\frac{e^{z_k}}{\\sum_j e^{z_j}}$$\n\n" f"{words}\n\n"
            "$$\\frac{\\partial a_i}{\\partial z_i} = a_i(1-a_i)$$\n\n"
            "$$\\frac{\\partial a_k}{\\partial z_i} = -a_k a_i$$\n")
    assert _claims(text) == ["holds", status]


@pytest.mark.parametrize("rhs,status", [("2.0", "holds"), ("1.0", "fails")])
def test_the_max_of_numbers(rhs: str, status: str) -> None:
    assert _claims(f"$$c = \\max(2.0, 1.0, -1.0) = {rhs}$$\n") == [status]


@pytest.mark.parametrize("fence", ["```proof", "```lemma[Variance]", "```{prf:proof}"])
@pytest.mark.parametrize("last,status", [("d_k", "holds-given"), ("2d_k", "fails")])
def test_a_theorem_fence_holds_markdown(fence: str, last: str, status: str) -> None:
    # a site's theorem box written as a fence: its $$ … $$ are the note's displays
    text = ("Let $q, k$ have independent components of mean 0 and variance 1.\n\n"
            f"{fence}\n$$\\mathrm{{Var}}(q \\cdot k) = {last}$$\n```\n")
    assert _claims(text) == [status]


def test_a_code_fence_stays_code() -> None:
    r = verify_text("```python\n# $$a = b$$\nx = 1\n```\n", "n.md", numeric=False)
    assert not [s for s in r.steps if s.kind == "claim"]


@pytest.mark.parametrize("last,status", [("d_k \\sigma^4", "holds-given"), ("d_k \\sigma^2", "fails")])
def test_a_step_in_sigma_takes_the_variance_sigma_squared(last: str, status: str) -> None:
    # the paper's "variance 1" quoted, then the note's own lemma with variance σ²
    text = ("The paper assumes the components are independent with mean 0 and variance 1.\n\n"
            "Let $q, k$ have independent entries with mean $0$ and variance $\\sigma^2$. Then\n\n"
            f"$$\\operatorname{{Var}}(q \\cdot k) = {last}$$\n")
    assert _claims(text) == [status]


def test_a_parameter_the_scores_are_differentiated_by() -> None:
    # ∂z_i/∂w_i: w is the scores' weight, never another name for the scores (read so, the
    # true ∂z_i/∂w_i = x_i failed as ∂z_i/∂z_i = 1 ≠ x_i)
    text = ("$$z_i = w_i x_i + b_i$$\n\n$$s_i = \\frac{e^{z_i}}{\\sum_j e^{z_j}}$$\n\n"
            "$$\\frac{\\partial z_i}{\\partial w_i} = x_i$$\n")
    assert "fails" not in _claims(text)


# -- batch 30 ----------------------------------------------------------------------------

@pytest.mark.parametrize("label,status", [("y = (y_1,...,y_K) = (0,...,1,...0)", "holds-given"),
                                          ("y = (y_1,...,y_K)", "needs-undeclared")])
def test_a_general_one_hot_label_written_with_dots(label: str, status: str) -> None:
    # (0, …, 1, …, 0): the label is one-hot (its entries sum to one), at no class in particular
    text = (f"$${label}$$\n\n$$\\hat{{y}}_i = \\frac{{e^{{z_i}}}}{{\\sum_k e^{{z_k}}}}$$\n\n"
            "$$L = -\\sum_k y_k \\log \\hat{y}_k$$\n\n"
            "$$\\hat{y_i}(\\sum^{K}_{k=1}y_k)-y_i = \\hat{y_i}-y_i$$\n")
    assert _claims(text)[-1:] == [status]


@pytest.mark.parametrize("words,kind", [
    ("\\text{Variance of Unscaled Dot Product} = \\text{Head Dimension } d_k", "definition")])
def test_a_formula_in_words_continues_no_chain(words: str, kind: str) -> None:
    # a long phrase as the left side names a quantity: never "1 = d_k" glued to the display
    # before it
    text = ("$$\\frac{1}{d_k} \\cdot d_k = 1$$\n\n" f"$${words}$$\n")
    r = verify_text(text, "n.md", numeric=False)
    assert [s.kind for s in r.steps][-1:] == [kind]


@pytest.mark.parametrize("rhs,status", [("\\frac{d_k}{d_k}", "not-read")])
def test_words_as_a_whole_operand_are_not_read(rhs: str, status: str) -> None:
    # \frac{\text{Variance of Raw Dot Product}}{(\sqrt{d_k})^2}: prose set as an operand
    text = f"$$\\frac{{\\text{{Variance of Raw Dot Product}}}}{{(\\sqrt{{d_k}})^2}} = {rhs}$$\n"
    assert _claims(text) == [status]


@pytest.mark.parametrize("rhs,status", [("\\mathrm{diag}(p) - p\\,p^\\top", "holds"),
                                        ("\\mathrm{diag}(p) + p\\,p^\\top", "fails")])
def test_a_shape_said_beside_the_formula(rhs: str, status: str) -> None:
    # J = diag(p) − ppᵀ \qquad (N \times N): the shape in parentheses is no part of it
    text = _JACOBIAN.format(words="The Jacobian $J$ of the softmax:",
                            claim=f"J = {rhs} \\qquad (N \\times N)")
    assert _claims(text) == [status]


# -- batch 31 ----------------------------------------------------------------------------

@pytest.mark.parametrize("words,status", [
    ("我们给定的结果$y_i$最终只有一个类别是1,其他是0，因此梯度等于：", "holds-given"),
    ("因此梯度等于：", "needs-undeclared")])
def test_only_one_class_is_one_the_others_zero(words: str, status: str) -> None:
    text = ("$$a_i = \\frac{e^{z_i}}{\\sum_k e^{z_k}}$$\n\n$$C = -\\sum_i y_i \\ln a_i$$\n\n"
            f"{words}\n\n$$\\frac{{\\partial C}}{{\\partial z_i}} = a_i - y_i$$\n")
    assert _claims(text) == [status]


# -- batch 32 ----------------------------------------------------------------------------

@pytest.mark.parametrize("claim,status", [
    ("(4 \\times 64) \\times (64 \\times 4) = (4 \\times 4)", "not-checked"),
    ("(4 \\times 64) \\times (4 \\times 64) = (4 \\times 4)", "fails")])
def test_matrix_shapes_multiplied_are_not_arithmetic(claim: str, status: str) -> None:
    # inner sizes that meet: shape bookkeeping; that do not: a product of numbers, and false
    assert _claims(f"$${claim}$$\n") == [status]


def test_words_that_take_an_operand_are_prose() -> None:
    # \text{Standard Deviation of } S = √d_k: never read as S = √d_k
    r = verify_text("$$\\text{Standard Deviation of } S = \\sqrt{d_k}$$\n", "n.md",
                    numeric=False)
    assert [(s.kind, s.status.value) for s in r.steps] == [("claim", "not-read")]


# -- batch 33 ----------------------------------------------------------------------------

@pytest.mark.parametrize("rhs,status", [("-p_k\\, p_j", "holds"), ("p_k\\, p_j", "fails")])
def test_a_case_label_with_an_aside_in_parentheses(rhs: str, status: str) -> None:
    # "Case $k \neq j$ (… through the denominator only):" — the aside is no remark on the case
    text = ("$$p_k = \\frac{e^{z_k}}{\\sum_i e^{z_i}}$$\n\nWrite $S = \\sum_i e^{z_i}$.\n\n"
            "Case $k \\neq j$ (raising $z_j$ steals probability from class $k$ through the\n"
            "denominator only):\n\n"
            f"$$\\frac{{\\partial p_k}}{{\\partial z_j}} = \\frac{{0 \\cdot S - e^{{z_k}} e^{{z_j}}}}{{S^2}}"
            f" = {rhs}.$$\n")
    assert _claims(text)[-1:] == [status]


@pytest.mark.parametrize("first,status", [("(1)当i=j时", "holds"), ("(1)当i\\neq j时", "fails")])
def test_a_numbered_case_row(first: str, status: str) -> None:
    # (1)当i=j时 \\ as the first row of an align: the case of the rows below, never a claim
    text = ("$$y_i = \\frac{e^{x_i}}{\\sum_k e^{x_k}}$$\n\n$$\n\\begin{align*}\n"
            f"{first}\\\\\\\\\n\\frac{{\\partial{{y_i}}}}{{\\partial{{x_j}}}} &= y_i(1-y_i)\n"
            "\\end{align*}\n$$\n")
    assert _claims(text) == [status]


@pytest.mark.parametrize("said,status", [
    ("X = q_i, Y = k_i, 有E(X) = E(Y) = 0, 以及D(X) = D(Y) = 1.", "holds-given"),
    ("X = q_i, Y = k_i.", "needs-undeclared")])
def test_moments_of_components_named_in_plain_words(said: str, status: str) -> None:
    # plain text (no $): the capitals name the components, their moments are the families'
    text = (f"假设向量q和k的各个分量是相互独立的随机变量, {said}\n\n"
            "$$D(\\frac{q\\cdot k}{\\sqrt{d_k}})=\\frac{d_k}{(\\sqrt{d_k})^2}$$\n")
    assert _claims(text) == [status]


# -- batch 34 ----------------------------------------------------------------------------

@pytest.mark.parametrize("rhs,status", [("\\hat{y}_i (\\delta_{ij} - \\hat{y}_j)", "holds"),
                                        ("\\hat{y}_i (1 - \\hat{y}_j)", "fails")])
def test_a_bold_hatted_name_is_the_hatted_letter(rhs: str, status: str) -> None:
    # g(𝐱) = [e^{x_1}/Σ, …] = \hat{\mathbf{y}}: the ŷ of ŷ_i, one letter (the accent composed
    # before the bold mark), so ŷ is softmax's output wherever the note writes it
    text = (f"$$\\frac{{\\partial \\hat{{y}}_i}}{{\\partial x_j}} = {rhs}$$\n\n"
            "$$g(\\mathbf{x}) = [\\frac{e^{x_1}}{\\sum_k e^{x_k}}, \\dots, "
            "\\frac{e^{x_n}}{\\sum_k e^{x_k}}] = \\hat{\\mathbf{y}}$$\n")
    assert _claims(text)[:1] == [status]


@pytest.mark.parametrize("rhs,status", [("p_j (\\delta_{ij} - p_i)", "holds"),
                                        ("p_j (\\delta_{ij} - p_j)", "fails")])
def test_the_one_jacobian_of_a_letter_by_the_softmax_scores(rhs: str, status: str) -> None:
    # Softmax(z_i) written as a function only, then ∂p_j/∂z_i the note's one Jacobian of one
    # letter by those scores: p is that softmax (ŷ = [ŷ_1, …] only lists a letter's entries)
    text = ("$$\\text{Softmax}(z_i) = \\frac{e^{z_i}}{\\sum_{j=1}^{C} e^{z_j}}$$\n\n"
            f"$$\\frac{{\\partial p_j}}{{\\partial z_i}} = {rhs}$$\n")
    assert _claims(text)[-1:] == [status]


@pytest.mark.parametrize("rhs,status", [("-p_i p_j", "holds"), ("p_i p_j", "fails")])
def test_a_short_label_with_its_case_in_parentheses(rhs: str, status: str) -> None:
    # "For off-diagonal ($i \neq j$):" — the parenthesis is the case of the display after it
    text = ("$$p_i = \\frac{e^{z_i}}{\\sum_k e^{z_k}}$$\n\nFor off-diagonal ($i \\neq j$):\n\n"
            f"$$\\frac{{\\partial p_i}}{{\\partial z_j}} = {rhs}$$\n")
    assert _claims(text) == [status]


@pytest.mark.parametrize("rhs,status", [("p_i - y_i", "holds-given"), ("p_i + y_i", "fails")])
def test_the_rows_of_a_capital_label_matrix(rhs: str, status: str) -> None:
    # L = −1/n Σ_i Σ_k Y_ik log P_ik, then "y_c = 1 and y_i = 0 for i ≠ c": y is a row of Y,
    # the label — not a third vector beside the output p
    text = ("$$\\text{softmax}(z)_i = \\frac{\\exp(z_i)}{\\sum_j \\exp(z_j)}$$\n\n"
            "$$\\mathcal{L} = -\\frac{1}{n} \\sum_i \\sum_k Y_{ik} \\log(P_{ik})$$\n\n"
            "For one sample, $\\mathcal{L} = -\\log(p_c)$ where $c$ is the true class.\n\n"
            "$$\\frac{\\partial p_i}{\\partial z_i} = p_i (1 - p_i)$$\n\n"
            "Combining both cases with one-hot encoding where $y_c = 1$ and $y_i = 0$ for "
            "$i \\neq c$:\n\n"
            f"$$\\frac{{\\partial \\mathcal{{L}}}}{{\\partial z_i}} = {rhs}$$\n")
    assert _claims(text)[-1:] == [status]


def test_a_bare_label_letter_beside_its_entries_is_not_a_constant() -> None:
    # y = 𝓛(g(𝐱)) names the loss y, while y_i is the label: ∂y/∂x_j is not ∂(label)/∂x_j = 0
    text = ("$$\\hat{y}_i = \\frac{e^{x_i}}{\\sum_k e^{x_k}}$$\n\n"
            "$$\\mathcal{L} = -\\sum_i y_i \\log \\hat{y}_i$$\n\n"
            "$$y = \\mathcal{L}(g(\\mathbf{x}))$$\n\n"
            "$$\\frac{\\partial y}{\\partial x_j} = -y_j + \\hat{y}_j$$\n")
    assert _claims(text)[-1:] == ["not-checked"]


@pytest.mark.parametrize("rhs,status", [("-1/n^2", "holds"), ("1/n - 1/n^2", "fails")])
def test_a_diagonal_entry_defined_is_not_every_entry(rhs: str, status: str) -> None:
    # J_ii := (n − 1)/n² says nothing of J_ij with j ≠ i (it was read as J_ij := … with i → j)
    text = ("$$J_{ii} = \\frac{n-1}{n^2}$$\n\n$$J_{ij} = -\\frac{1}{n^2}$$\n\n"
            f"$$J_{{ii}} - \\frac{{1}}{{n}} = {rhs}$$\n")
    assert _claims(text)[-1:] == [status]


def test_a_bare_name_after_its_entries_is_a_claim() -> None:
    # "So $J = 0$ identically" after J_ij = …: a claim about every entry, not J's definition
    r = verify_text("$$J_{ij} = p_i(\\delta_{ij} - p_j)$$\n\n$$J = 0$$\n", "n.md", numeric=False)
    assert [s.kind for s in r.steps] == ["definition", "claim"]


@pytest.mark.parametrize("claim,status", [
    ("(n-1)/n^2[(n-1)+1] = (n-1)/n", "not-read"),  # (a/b)c or a/(bc): the note does not say
    ("\\frac{n-1}{n^2}[(n-1)+1] = (n-1)/n", "holds"),
    ("\\frac{n-1}{n^2}[(n-1)+1] = (n-1)/n^2", "fails"),
    ("1/\\log(n) = \\frac{1}{\\log n}", "holds"),  # a function applied: one factor
])
def test_a_slash_before_a_juxtaposed_product(claim: str, status: str) -> None:
    assert _claims(f"$${claim}$$\n") == [status]


def test_the_slash_reason_is_said_in_chinese() -> None:
    from attncheck.i18n import Words

    r = verify_text("$$(n-1)/n^2[(n-1)+1] = (n-1)/n$$\n", "n.md", numeric=False)
    note = re.sub(r" \(\d+:\d+\)$", "", r.steps[0].note.removeprefix("not read: "))
    assert Words("zh").note(note).startswith("a/b c：是 (a/b)·c 还是 a/(b c)？")


# -- batch 35 ----------------------------------------------------------------------------

@pytest.mark.parametrize("law,status", [("\\mathcal{N}(0, I_{d_k})", "holds-given"),
                                        ("\\mathcal{N}(0, \\sigma^2 I)", "fails")])
def test_a_standard_multivariate_normal_gives_mean_0_and_variance_1(law: str, status: str
                                                                     ) -> None:
    # "Assume $q, k \sim \mathcal{N}(0, I_{d_k})$" (independent): N(0, I) is mean 0, variance 1
    text = (f"Assume $q, k \\sim {law}$ are independent.\n\n"
            "$$\\sum_{i=1}^{d_k} \\text{Var}(q_i k_i) = d_k$$\n")
    assert _claims(text) == [status]


@pytest.mark.parametrize("rhs,status", [("p_i([i{=}j] - p_j)", "holds"),
                                        ("p_i([i{=}j] - p_i)", "fails")])
def test_an_iverson_bracket_with_a_braced_relation(rhs: str, status: str) -> None:
    # [i{=}j]: the braces only set TeX's spacing around the relation
    text = ("$$p_i = \\frac{e^{z_i}}{\\sum_k e^{z_k}}$$\n\n"
            f"$$\\frac{{\\partial p_i}}{{\\partial z_j}} = {rhs}$$\n")
    assert _claims(text) == [status]


def test_a_layers_error_term_is_a_name() -> None:
    # δ_2 = (1/B)(p − y): the error of layer 2, defined — not a Kronecker delta missing an index
    r = verify_text("$$\\delta_2 = \\frac{1}{B}(p_2 - y_2)$$\n", "n.md", numeric=False)
    assert [(s.kind, s.status.value) for s in r.steps] == [("definition", "definition")]


@pytest.mark.parametrize("rhs,status", [("\\mathbf{y} - \\mathbf{t}", "holds-given"),
                                        ("\\mathbf{y} + \\mathbf{t}", "fails"),
                                        ("y - t", "not-checked")])
def test_the_whole_gradient_in_verifys_own_letters(rhs: str, status: str) -> None:
    # y_i = e^{x_i}/Σ_k e^{x_k} in verify's own letters: ∂L/∂𝐱 is the gradient, entry by entry
    # (bold: an unbolded y − t may be a sigmoid's scalars in the same note, not the vectors)
    text = ("$$y_i = \\frac{e^{x_i}}{\\sum_k e^{x_k}}$$\n\n$$L = -\\sum_i t_i \\log y_i$$\n\n"
            f"The label $t$ is one-hot.\n\n$$\\frac{{\\partial L}}{{\\partial \\mathbf{{x}}}} = {rhs}$$\n")
    assert _claims(text) == [status]


@pytest.mark.parametrize("rhs", ["y - t", "y + t"])
def test_a_sigmoid_beside_a_softmax_in_verifys_letters(rhs: str) -> None:
    # L = −t log y − (1 − t) log(1 − y) of a sigmoid's scalar y = σ(x): ∂L/∂x is by that x,
    # never the softmax's whole gradient (read so, the true y − t failed)
    text = ("$$ y_i = \\frac{e^{x_i}}{\\sum_k e^{x_k}} $$\n\n## Binary case\n\n"
            "$$ L = -t \\log y - (1 - t) \\log(1 - y) $$\n\n"
            f"$$ \\frac{{\\partial L}}{{\\partial x}} = {rhs} $$\n")
    assert _claims(text) == ["not-checked"]


def test_dy_dx_of_a_scalar_beside_a_softmax_in_verifys_letters() -> None:
    # y = 1/u in a calculus aside of the same note: dy/dx is a derivative of that scalar, not
    # softmax's Jacobian
    text = ("$$y_i = \\frac{e^{x_i}}{\\sum_k e^{x_k}}$$\n\n"
            "$$\\frac{dy}{dx} = -u^{-2} \\cdot \\frac{du}{dx}$$\n")
    assert "cannot check: a vector or matrix" not in (verify_text(text, "n.md", numeric=False)
                                                     .steps[-1].note or "")


@pytest.mark.parametrize("rhs,status", [("y_i - t_i", "holds-given"), ("y_i + t_i", "fails")])
def test_a_numpy_shape_beside_a_formula(rhs: str, status: str) -> None:
    # \quad (K,): NumPy's shape of a 1-D array, said beside the formula — not a tuple in it
    text = ("$$y_i = \\frac{e^{x_i}}{\\sum_k e^{x_k}}$$\n\n$$L = -\\sum_i t_i \\log y_i$$\n\n"
            "The label $t$ is one-hot.\n\n"
            f"$$\\frac{{\\partial L}}{{\\partial x_i}} = {rhs} \\quad (K,)$$\n")
    assert _claims(text) == [status]


# -- batch 36 ----------------------------------------------------------------------------

@pytest.mark.parametrize("rhs,status", [("p_i(1 - p_i)", "holds"), ("p_i(1 + p_i)", "fails")])
def test_eulers_e_in_a_worked_softmax_is_not_the_scores(rhs: str, status: str) -> None:
    # σ(z) = (e^2, e^1, e^0)/(e^2 + e^1 + e^0): the e of e^2 + e^1 is Euler's, never the scores
    # (read as a softmax of "e" it turned every e^{z_i} of the note into z^{…})
    text = ("$$\\sigma(z)_i = \\frac{e^{z_i}}{\\sum_{j=1}^{n} e^{z_j}}$$\n\n"
            "$$\\sigma(z) = \\frac{1}{e^2 + e^1 + e^0}(e^2, e^1, e^0)$$\n\n"
            "Let $p_i = \\sigma(z)_i$.\n\n"
            "$$\\frac{\\partial p_i}{\\partial z_i} = \\frac{e^{z_i} \\sum_j e^{z_j} - e^{z_i} "
            f"\\cdot e^{{z_i}}}}{{(\\sum_j e^{{z_j}})^2}} = {rhs}$$\n")
    assert _claims(text)[-1:] == [status]


@pytest.mark.parametrize("rhs,status", [("\\frac{e^{z_i}}{\\sum_j e^{z_j}}", "holds"),
                                        ("\\frac{e^{z_i + c}}{\\sum_j e^{z_j}}", "fails")])
def test_for_any_c_in_the_reals_is_a_constant(rhs: str, status: str) -> None:
    text = ("$$\\sigma(z)_i = \\frac{e^{z_i}}{\\sum_{j=1}^{n} e^{z_j}}$$\n\n"
            "**Claim.** $\\sigma(z + c\\mathbf{1}) = \\sigma(z)$ for any $c \\in \\mathbb{R}$.\n\n"
            f"$$\\frac{{e^{{z_i + c}}}}{{\\sum_j e^{{z_j + c}}}} = {rhs}$$\n")
    assert _claims(text) == [status]


@pytest.mark.parametrize("rhs,status", [("d_k", "holds-given"), ("d_k^2", "fails")])
def test_the_attention_weights_do_not_make_q_the_scores(rhs: str, status: str) -> None:
    # α_ij = exp(q_i·k_j/√d_k)/Σ_l exp(q_i·k_l/√d_k): the scores are q_i·k_j, and q stays the
    # random query of Var[q·k]
    text = ("$$\\alpha_{ij} = \\frac{\\exp(q_i \\cdot k_j / \\sqrt{d_k})}"
            "{\\sum_l \\exp(q_i \\cdot k_l / \\sqrt{d_k})}$$\n\n"
            "The components of $q$ and $k$ are independent with mean 0 and variance 1.\n\n"
            f"$$\\text{{Var}}[q \\cdot k] = {rhs}$$\n")
    assert _claims(text) == [status]


@pytest.mark.parametrize("rhs,status", [
    ("\\frac{e^{z_i} \\sum_{c=1}^{C} e^{z_c} - e^{z_i} e^{z_j}}{(\\sum_{c=1}^{C} e^{z_c})^2}",
     "holds"),
    ("\\frac{0 - e^{z_i} e^{z_j}}{(\\sum_{c=1}^{C} e^{z_c})^2}", "fails")])
def test_the_dui_shi_frame_names_a_case(rhs: str, status: str) -> None:
    # "对 $$j=i$$ 时，…": 对…时 names the case as 当…时 does (in the case j = i the second is
    # wrong: e^{z_i} is not constant in z_i)
    text = ("$$p_i = \\frac{e^{z_i}}{\\sum_{c=1}^{C} e^{z_c}}$$\n\n"
            "对 $$j=i$$ 时，Softmax 函数的偏导数可以展开为：\n\n"
            "$$\n\\frac{\\partial}{\\partial z_j}\\left( \\frac{e^{z_i}}{\\sum_{c=1}^{C} e^{z_c}}"
            f" \\right) = {rhs}\n$$\n")
    assert _claims(text)[-1:] == [status]


def test_the_label_differentiated_by_the_scores_is_not_judged() -> None:
    # y is the label of the loss, yet ∂y_i/∂z_j = y_i(1 − y_i): the letter means the output
    # here (a label does not move with the scores; judging it as one is a false fail)
    text = ("$$p_i = \\frac{e^{z_i}}{\\sum_c e^{z_c}}$$\n\n$$L = -\\sum_c y_c \\log(p_c)$$\n\n"
            "$$\\frac{\\partial y_i}{\\partial z_i} = y_i (1 - y_i)$$\n")
    assert _claims(text) == ["not-checked"]


@pytest.mark.parametrize("result,status", [("-\\sum_{c=1}^{3} y_c \\log(p_c)", "holds"),
                                           ("-\\log(p_1)", "fails")])
def test_a_result_said_in_a_sentence_is_a_claim(result: str, status: str) -> None:
    # "最终的结果为 $$L = …$$" of the L defined before: a claim about it, not a new L that the
    # display after it would then be checked against
    text = ("$$p_c = \\frac{e^{z_c}}{\\sum_k e^{z_k}}$$\n\n$$L = -\\sum_{c=1}^{3} y_c \\log(p_c)$$\n\n"
            "真实标签为第 2 类，$$y = [0,\\,1,\\,0]$$，正确类别位置上的 $$y_c$$ 值为 1，而其它位置为 0。\n\n"
            "最终的结果为 $$L = -\\log(p_1)$$，公式 1 只是对正确类别位置计算损失值：\n\n"
            f"$$\n{result} = L\n$$\n")
    assert _claims(text)[-1:] == [status]


@pytest.mark.parametrize("rhs,status", [
    ("\\frac{0 - e^{z_j} e^{z_1}}{(\\sum_{i=1}^d e^{z_i})^2}", "not-checked"),  # j ≠ 1 meant
    ("\\frac{0 + e^{z_j} e^{z_1}}{(\\sum_{i=1}^d e^{z_i})^2}", "fails")])
def test_an_entry_worked_out_beside_a_letter(rhs: str, status: str) -> None:
    # ∂ŷ_j/∂z_1 in a row worked out entry by entry: z_1 is another entry than z_j — true
    # except where j = 1, which the note's layout rules out without saying so
    text = ("$$\\hat{y}_j = \\frac{e^{z_j}}{\\sum_{i=1}^d e^{z_i}}$$\n\n"
            "$$\\frac{\\frac{\\partial}{\\partial z_1}(e^{z_j}) \\cdot \\sum_{i=1}^d e^{z_i} - "
            "e^{z_j} \\cdot \\frac{\\partial}{\\partial z_1}(\\sum_{i=1}^d e^{z_i})}"
            f"{{(\\sum_{{i=1}}^d e^{{z_i}})^2}} = {rhs}$$\n")
    assert _claims(text)[-1:] == [status]


@pytest.mark.parametrize("last,status", [("\\hat{y}_d-(\\hat{y}_d)^2", "holds"),
                                         ("\\hat{y}_d", "fails")])
def test_a_written_jacobian_whose_last_index_is_the_notes_letter(last: str, status: str
                                                                 ) -> None:
    # ŷ_1 … ⋯ … ŷ_d: the row and column after the dots are the d-th, by the note's own letter
    text = ("$$\\hat{y}_j = \\frac{e^{z_j}}{\\sum_{i=1}^d e^{z_i}}$$\n\n"
            "$$\\frac{\\partial \\mathbf{\\hat{y}}}{\\partial \\mathbf{z}}=\\begin{bmatrix}\n"
            "\\hat{y}_1-(\\hat{y}_1)^2 & -\\hat{y}_1 \\hat{y}_2 & \\cdots & -\\hat{y}_1 \\hat{y}_d \\\\\n"
            "-\\hat{y}_2 \\hat{y}_1 & \\hat{y}_2-(\\hat{y}_2)^2 & \\cdots & -\\hat{y}_2 \\hat{y}_d \\\\\n"
            "\\vdots & \\vdots & \\cdots & \\vdots \\\\\n"
            f"-\\hat{{y}}_d \\hat{{y}}_1 & -\\hat{{y}}_d \\hat{{y}}_2 & \\cdots & {last} \\\\\n"
            "\\end{bmatrix}$$\n")
    assert _claims(text) == [status]


@pytest.mark.parametrize("rhs,status", [("\\alpha_i(\\delta_{ij}-\\alpha_j)", "holds"),
                                        ("\\alpha_j(1-\\alpha_j)", "fails")])
def test_attention_weights_are_a_softmax_of_products(rhs: str, status: str) -> None:
    # α_ij = exp(q_i·k_j/√d)/Σ_l exp(q_i·k_l/√d): α is a softmax's output, its scores no one
    # letter (q stays the query)
    text = ("$$\\alpha_{ij} = \\frac{\\exp(q_i \\cdot k_j / \\sqrt{d_k})}"
            "{\\sum_l \\exp(q_i \\cdot k_l / \\sqrt{d_k})}$$\n\n"
            f"$$\\frac{{\\partial\\,\\text{{softmax}}(z)_i}}{{\\partial z_j}} = {rhs}$$\n")
    assert _claims(text) == [status]


@pytest.mark.parametrize("row_end,status", [("m", "not-checked"), ("K", "holds")])
def test_a_written_jacobian_of_two_sizes_is_not_numbered(row_end: str, status: str) -> None:
    # rows to m, columns to K: the general layout of a Jacobian, whose size is not one number;
    # rows and columns both to K: the softmax's square one
    text = ("$$\\hat{y}_j = \\frac{e^{z_j}}{\\sum_{i=1}^K e^{z_i}}$$\n\n"
            "$$\\frac{\\partial \\mathbf{\\hat{y}}}{\\partial \\mathbf{z}}=\\begin{bmatrix}\n"
            "\\frac{\\partial \\hat{y}_1}{\\partial z_1} & \\cdots & "
            "\\frac{\\partial \\hat{y}_1}{\\partial z_K} \\\\\n\\vdots & \\cdots & \\vdots \\\\\n"
            f"\\frac{{\\partial \\hat{{y}}_{row_end}}}{{\\partial z_1}} & \\cdots & "
            f"\\frac{{\\partial \\hat{{y}}_{row_end}}}{{\\partial z_K}} \\\\\n\\end{{bmatrix}}$$\n")
    assert _claims(text) == [status]


# -- batch 37 ----------------------------------------------------------------------------

@pytest.mark.parametrize("rhs,status", [("２", "holds"), ("３", "fails")])
def test_full_width_digits_and_letters(rhs: str, status: str) -> None:
    # typed with a Chinese input method: １, Ｗ, ＝ are 1, W, = (one character for one)
    assert _claims(f"$$\\frac{{d(２Ｗ)}}{{dＷ}} ＝ {rhs}$$\n") == [status]


@pytest.mark.parametrize("last,status", [("s_m - s_m^2", "holds"), ("s_m", "fails")])
def test_a_written_matrix_against_diag_minus_outer(last: str, status: str) -> None:
    # rows elided by a row of \ldots, the last row and column by the note's m: against
    # diag(s) − sᵀs (row vectors) as against ∂s/∂o
    text = ("$$s_i = \\frac{e^{o_i}}{\\sum_k e^{o_k}}$$\n\n$$\n"
            "\\begin{bmatrix} s_1 - s_1^2 & -s_1 s_2 & \\ldots & - s_1 s_m \\\\\n"
            "-s_2 s_1 & s_2 - s_2^2 & \\ldots & -s_2 s_m \\\\\n"
            "\\ldots & \\ldots & \\ldots & \\ldots \\\\\n"
            f"-s_m s_1 & -s_m s_2 & \\ldots & {last} \\end{{bmatrix}} = "
            "\\text{diag}\\left(\\mathbf{s}\\right) - \\mathbf{s}^{\\top} \\mathbf{s}\n$$\n")
    assert _claims(text) == [status]


@pytest.mark.parametrize("last,status", [("s_m", "holds"), ("s_1", "fails")])
def test_diag_written_out_to_the_notes_last_letter(last: str, status: str) -> None:
    # diag(s) writes its m-th entry only in the last corner (the other corners are 0)
    text = ("$$s_i = \\frac{e^{o_i}}{\\sum_k e^{o_k}}$$\n\n$$\n\\text{diag}\\left(\\mathbf{s}\\right) ="
            " \\begin{bmatrix} s_1 & 0 & \\ldots & 0 \\\\ 0 & s_2 & \\ldots & 0 \\\\ "
            "\\ldots & \\ldots & \\ldots & \\ldots \\\\ "
            f"0 & 0 & \\ldots & {last} \\end{{bmatrix}}\n$$\n")
    assert _claims(text) == [status]


@pytest.mark.parametrize("sign,status", [("-", "holds"), ("+", "fails")])
def test_an_indicator_whose_subscript_is_an_iverson_bracket(sign: str, status: str) -> None:
    # \mathbf{1}_{[j=c]}: the bracket already is the condition
    text = ("$$y_j = \\frac{e^{x_j}}{\\sum_k e^{x_k}}$$\n\n$$L = -\\log y_c$$\n\n"
            f"$$\\frac{{\\partial L}}{{\\partial x_j}} = y_j {sign} \\mathbf{{1}}_{{[j=c]}}$$\n")
    assert _claims(text)[-1:] == [status]


@pytest.mark.parametrize("words,status", [("for any scalar $c$", "holds"),
                                          ("for any $i$", "not-checked")])
def test_for_any_scalar_c_is_a_constant(words: str, status: str) -> None:
    # "for any scalar $c$": a real number; "for any $i$" names an index, not a constant (c
    # is the class of L = −log y_c too, so only the words could make it one)
    text = ("$$y_i = \\frac{e^{x_i}}{\\sum_j e^{x_j}}$$\n\n$$L = -\\log y_c$$\n\n"
            f"Translation invariance: $\\text{{softmax}}(\\mathbf{{x}} + c) = \\text{{softmax}}(\\mathbf{{x}})$ {words}.\n\n"
            "$$\\frac{\\exp(x_i + c)}{\\sum_j \\exp(x_j + c)} = \\frac{\\exp(x_i)}{\\sum_j \\exp(x_j)}$$\n")
    assert _claims(text)[-1:] == [status]


# -- batch 38 ----------------------------------------------------------------------------

@pytest.mark.parametrize("said,status", [("$g_i = 2$ for $i = t$ and 0 otherwise", "not-checked"),
                                         ("$g_i = 2$ for every entry", "holds")])
def test_an_inline_definition_said_for_one_case(said: str, status: str) -> None:
    # "$\bar y_i = -1/y_t$ for $i = t$ and 0 otherwise": the value of one entry, not of every
    # g_j (read for all of them it made a true step fail and could make a wrong one hold)
    text = ("$$y_i = \\frac{e^{x_i}}{\\sum_k e^{x_k}}$$\n\n"
            f"Here {said}.\n\n$$g_j y_j = 2 y_j$$\n")
    assert _claims(text)[-1:] == [status]


@pytest.mark.parametrize("case,status", [("i=j", "holds"), ("i\\neq j", "fails")])
def test_a_case_said_at_the_head_of_its_row(case: str, status: str) -> None:
    # & 1)当i=j时，∂S_i/∂f_j = ∂S_i/∂f_i: the case of the very row it begins
    text = ("$$S_i = \\frac{e^{f_i}}{\\sum_k e^{f_k}}$$\n\n$$\n\\begin{flalign}\n"
            f"& 1)当{case}时，\n\\frac{{\\partial S_i}}{{\\partial f_j}}=\\frac{{\\partial S_i}}{{\\partial f_i}}\n"
            "\\end{flalign}\n$$\n")
    assert _claims(text) == [status]


@pytest.mark.parametrize("weight,rhs,status", [("W", "3 W", "not-checked"), ("w", "3 w", "holds"),
                                               ("w", "6 w", "fails")])
def test_a_variable_written_in_two_cases(weight: str, rhs: str, status: str) -> None:
    # loss = C + λ/2 ‖W‖², then ∂loss/∂w = ∂C/∂w + λW: w and W one weight, or two? not judged
    # (read as two, ∂loss/∂w = 0 and a true step failed)
    text = (f"$$\\text{{loss}} = \\frac{{3}}{{2}} {weight}^2$$\n\n"
            f"$$\\frac{{\\partial\\, \\text{{loss}}}}{{\\partial w}} = {rhs}$$\n")
    assert _claims(text)[-1:] == [status]


def test_a_loss_beside_the_notes_own_l_keeps_its_letter() -> None:
    # C = −Σ_{j=1}^{L} Y_j ln S_j: the note's L counts the classes, so its loss C is not
    # renamed into L (read as L, "C = …" became a claim that failed while the numbers agreed)
    text = ("$$S_j = \\frac{e^{f_j}}{\\sum_{k=1}^{L} e^{f_k}}$$\n\n"
            "$$C = -\\sum_{j=1}^{L} (Y_{j} \\ln S_{j})$$\n")
    r = verify_text(text, "n.md", numeric=False)
    assert [s.status.value for s in r.steps] == ["definition", "definition"]


# -- batch 39 ----------------------------------------------------------------------------

def _verdicts(text: str) -> list[str]:
    """The claims' statuses, "holds given …" said as "holds" (the hypotheses are not the point)."""
    return [x.replace("holds-given", "holds") for x in _claims(text)]


_SOFTMAX_PZ = ("Let $p_i = \\frac{{e^{{z_i}}}}{{\\sum_j e^{{z_j}}}}$ and $L = -\\sum_i y_i \\log p_i$ "
               "with $y$ one-hot.\n\n$$\n{claim}\n$$\n")


@pytest.mark.parametrize("claim,status", [
    ("\\nabla_{\\mathbf z} L = \\mathbf p - \\mathbf y", "holds"),
    ("\\nabla_{\\mathbf z} L = \\mathbf y - \\mathbf p", "fails"),
    # ∇_{z_k} L: by the entry z_k (once read as a class's index, "z_k", and not judged)
    ("\\nabla_{z_k} L = p_k - y_k", "holds"),
    ("\\nabla_{z_k} L = p_k + y_k", "fails"),
])
def test_nabla_by_the_scores_in_the_notes_letters(claim: str, status: str) -> None:
    assert _verdicts(_SOFTMAX_PZ.format(claim=claim)) == [status]


@pytest.mark.parametrize("claim,status", [
    ("\\partial_{z_j}^2\\, L = p_j(1 - p_j)", "holds"),
    ("\\partial_{z_j}^2\\, L = p_j(1 + p_j)", "fails"),
    ("\\partial_{z_i}\\partial_{z_j} L = p_i(\\delta_{ij} - p_j)", "holds"),
    ("\\partial_{z_i}\\partial_{z_j} L = p_i(\\delta_{ij} + p_j)", "fails"),
])
def test_a_second_derivative_written_with_partial(claim: str, status: str) -> None:
    # ∂²_{o_j} l: the power on ∂ is how many times it applies (the power was dropped and a
    # second derivative compared with a first); ∂_{o_i}∂_{o_j} l: one ∂ after the other
    assert _verdicts(_SOFTMAX_PZ.format(claim=claim)) == [status]


@pytest.mark.parametrize("value,status", [("\\sqrt{d}", "holds"), ("d", "fails")])
def test_the_unknown_solved_for_in_the_display_before(value: str, status: str) -> None:
    # "D_k/s² = 1 ⇒ s² = D_k. Since the factor is positive, $$s = √D_k$$": s is the unknown
    # the note solved for — its value follows, it is not an identity in a free s (a false fail)
    text = ("Requiring the variance to equal $1$ gives\n\n$$\n\\frac{d}{s^2}=1\n\\quad\\Longrightarrow"
            "\\quad\ns^2=d.\n$$\n\nSince the scaling factor is positive,\n\n"
            f"$$\n\\boxed{{s={value}}}.\n$$\n")
    r = verify_text(text, "n.md", numeric=False)
    assert [s.status.value for s in r.steps if s.kind == "follows"][-1] == status


@pytest.mark.parametrize("lead,statuses", [
    ("Suppose we want", ["condition", "condition"]),
    ("We find", ["holds-given", "fails"]),
])
def test_a_display_the_words_say_is_wanted(lead: str, statuses: list[str]) -> None:
    # "Suppose we want $$E[X/s] = 0, Var(X/s) = 1$$": both equations are what is required of
    # s — not claims (Var(qᵀk/s) = 1 failed as a claim in a free s)
    text = ("Let $q_i, k_i$ be independent with mean 0 and variance 1, and $s > 0$.\n\n"
            f"{lead}\n\n$$\n\\mathbb{{E}}\\left[\\frac{{q_1 k_1}}{{s}}\\right]=0,\n\\qquad\n"
            "\\operatorname{Var}\\left(\\frac{q_1 k_1}{s}\\right)=1.\n$$\n")
    r = verify_text(text, "n.md", numeric=False)
    assert [s.status.value for s in r.steps] == statuses


@pytest.mark.parametrize("rhs,status", [("d\\mu^2", "holds"), ("d\\mu", "fails")])
def test_a_normal_law_with_a_mean_mu(rhs: str, status: str) -> None:
    # q, k ~ N(μ𝟏, σ²I): each component's mean is μ (not read, every step with μ was
    # refused as "μ — verify did not read what it is")
    text = ("Let $\\mathbf{q},\\mathbf{k}\\in\\mathbb{R}^{d}$ be independent, with\n\n$$\n"
            "\\mathbf{q},\\mathbf{k}\\overset{\\text{iid}}{\\sim}\\mathcal{N}(\\mu\\mathbf{1},"
            f"\\sigma^2\\mathbf{{I}}).\n$$\n\n$$\n\\mathbb{{E}}[\\mathbf{{q}}^\\top\\mathbf{{k}}]={rhs}\n$$\n")
    assert _verdicts(text) == [status]


def test_a_mean_mu_the_note_then_fixes_at_zero() -> None:
    # N(μ𝟏, σ²I), then "assume μ = 0": the number stands for the parameter (both kept, the
    # hypotheses contradicted each other and no step was judged)
    text = ("Let $\\mathbf{q},\\mathbf{k}$ be independent with\n\n$$\n\\mathbf{q},\\mathbf{k}"
            "\\sim\\mathcal{N}(\\mu\\mathbf{1},\\sigma^2\\mathbf{I}).\n$$\n\n"
            "Now assume the means are 0.\n\n$$\n\\mathbb{E}[q_i k_i] = 0\n$$\n")
    assert _verdicts(text) == ["holds"]


@pytest.mark.parametrize("off,status", [("-q_i q_j", "holds"), ("q_i q_j", "fails")])
def test_a_row_ended_by_one_backslash(off: str, status: str) -> None:
    # "-q_i q_j, & i \neq j \⏎": Markdown (kramdown) ate one backslash of \\ — the row break
    # is meant (the whole display was "not read: a lone backslash")
    text = ("$$q_i = \\frac{e^{h_i}}{\\sum_j e^{h_j}}$$\n\n$$\n\\frac{\\partial q_i}{\\partial h_j} =\n"
            f"\\begin{{cases}}\n{off}, & i \\neq j \\\nq_i (1 - q_i), & i = j\n\\end{{cases}}\n$$\n")
    assert _verdicts(text) == [status, "holds"]


@pytest.mark.parametrize("rhs,status", [("\\frac{1}{s^2}\\operatorname{Var}(X)", "holds"),
                                        ("\\frac{1}{s}\\operatorname{Var}(X)", "fails")])
def test_a_display_in_square_brackets(rhs: str, status: str) -> None:
    # $$ [ a = b ] $$: \[ a = b \] whose backslashes Markdown ate — the equation inside
    text = ("Let $X$ be a random variable and $s > 0$ a constant.\n\n$$\n[\n"
            f"\\operatorname{{Var}}\\left(\\frac{{X}}{{s}}\\right) = {rhs}\n]\n$$\n")
    assert _verdicts(text) == [status]


def test_head_alone_is_a_name() -> None:
    # \text{head} = softmax(QKᵀ/√d_k)V: a name given a value (it was "head applies to nothing")
    text = "$$\n\\text{head} = \\text{softmax}\\left(\\frac{QK^T}{\\sqrt{d_k}}\\right)V\n$$\n"
    r = verify_text(text, "n.md", numeric=False)
    assert [s.status.value for s in r.steps] == ["definition"]


@pytest.mark.parametrize("written,status", [
    ("e^{x_1}+e^{x_2}...+e^{x_n}", "holds"),
    ("e^{x_1}+e^{x_2}\\cdots+e^{x_n}", "holds"),
    ("e^{x_1}+e^{x_2}+\\cdots e^{x_n}", "holds"),
    ("e^{x_1}+e^{x_2}+\\cdots e^{x_n} + 1", "fails"),
    # terms of two patterns: not read, never a verdict
    ("e^{x_1}+e^{x_2}...+e^{2x_n}", "not-read"),
])
def test_dots_written_against_a_term(written: str, status: str) -> None:
    # e^{x_1}+e^{x_2}...+e^{x_k}: the dots with no sign before (or after) them still go on
    # with the written-out sum ("\cdots here is not part of a written-out sum")
    text = ("$$y_i = \\frac{e^{x_i}}{\\sum_{k=1}^{n} e^{x_k}}$$\n\n"
            f"$$\n\\sum_{{k=1}}^{{n}} e^{{x_k}} = {written}\n$$\n")
    assert _claims(text) == [status]


# -- batch 40 ----------------------------------------------------------------------------

@pytest.mark.parametrize("said,rhs,status", [
    ("where $k$ is the index of the correct class", "-\\log \\hat y_k", "holds"),
    ("where $k$ is the index of the correct class", "-\\log \\hat y_k + 1", "fails"),
    ("$y$ is 1 at the true class $t$ and 0 elsewhere", "-\\log \\hat y_t", "holds"),
    ("由于 $y$ 是 One-hot (只有正确类别 $t$ 的位置是 $1$，其余是 $0$)", "-\\log \\hat y_t", "holds"),
    ("由于 $y$ 是 One-hot (只有正确类别 $t$ 的位置是 $1$，其余是 $0$)", "-\\log \\hat y_t^2", "fails"),
])
def test_the_correct_class_named_after_its_letter(said: str, rhs: str, status: str) -> None:
    # "where $k$ is the index of the correct class" (the letter first), "1 at the true class
    # $t$", "只有正确类别 $t$ 的位置是 1": the label is one-hot at that class (else
    # −Σ y_i log ŷ_i = −log ŷ_k failed); ŷ_t with t only ever an index is that entry, not
    # "an index that is also the name of a vector" (the label, renamed t)
    text = ("$$\\hat y_i = \\frac{e^{z_i}}{\\sum_j e^{z_j}}$$\n\n"
            f"$$\n-\\sum_i y_i \\log \\hat y_i = {rhs}\n$$\n\n{said}.\n")
    assert _verdicts(text) == [status]


@pytest.mark.parametrize("rhs,status", [("\\hat y_k - 1", "holds"), ("\\hat y_k + 1", "fails")])
def test_a_subscript_typed_inside_braces(rhs: str, status: str) -> None:
    # \partial \theta{_k}: the subscript of θ, typed inside braces ("unexpected '_'")
    text = ("$$\\hat y_i = \\frac{e^{\\theta_i}}{\\sum_j e^{\\theta_j}}$$\n\n"
            "$$\\text{CE} = -\\log \\hat y_k$$\n\n"
            f"$$\\frac{{\\partial \\text{{CE}}}}{{\\partial \\theta{{_k}}}} = {rhs}$$\n")
    assert _verdicts(text)[-1:] == [status]


@pytest.mark.parametrize("rhs,status", [("\\frac{e^{x_i}}{\\sum_{j=1}^n e^{x_j}}", "holds"),
                                        ("\\frac{e^{x_i}}{\\sum_{j=1}^n e^{2x_j}}", "fails")])
def test_a_function_call_typed_as_text(rhs: str, status: str) -> None:
    # \text{softmax(x)}_i: the function and its argument inside \text (read as commentary,
    # the step was "… = _i")
    text = f"$$\n{rhs} = \\text{{softmax(x)}}_i\n$$\n"
    assert _verdicts(text) == [status]


@pytest.mark.parametrize("rhs,status", [
    ("\\frac{e^{x_i} \\cdot e^c}{e^c \\cdot \\sum_{j=1}^n e^{x_j}}", "holds"),
    ("\\frac{e^{x_i} \\cdot e^c}{\\sum_{j=1}^n e^{x_j}}", "fails"),
])
def test_a_letter_only_added_to_the_scores_is_a_constant(rhs: str, status: str) -> None:
    # softmax(x + c): c, added to the scores and never an index, is the shift softmax is
    # invariant to — a real number ("unknown symbol c" before)
    text = ("Softmax is invariant to constant offsets.\n\n"
            f"$$\n\\frac{{e^{{x_i+c}}}}{{\\sum_{{j=1}}^n e^{{x_j+c}}}} = {rhs}\n$$\n")
    assert _verdicts(text) == [status]


def test_a_letter_added_to_the_scores_that_is_also_an_index_stays_unknown() -> None:
    # c is the true class elsewhere (p_c): which c the shift is, is not read — not judged
    text = ("$$p_i = \\frac{e^{z_i}}{\\sum_j e^{z_j}}$$\n\n$$L = -\\log p_c$$\n\n"
            "$$\n\\frac{e^{z_i-c}}{\\sum_j e^{z_j-c}} = \\frac{e^{z_i}}{\\sum_j e^{z_j}}\n$$\n")
    assert _verdicts(text)[-1:] == ["not-checked"]


@pytest.mark.parametrize("rhs,status", [("-\\,p_i p_j", "holds"), ("p_i p_j", "fails")])
def test_a_case_after_control_spaces(rhs: str, status: str) -> None:
    # "= −p_i p_j \ \ (i \ne j)": control spaces in a row set the case apart as \quad does
    text = ("$$p_i = \\frac{e^{o_i}}{\\sum_k e^{o_k}}, \\quad l = -\\sum_k y_k \\log p_k$$\n\n"
            "The label $y$ is one-hot.\n\n"
            f"$$\\partial_{{o_i}}\\partial_{{o_j}}\\, l = {rhs} \\ \\ (i \\ne j)$$\n")
    assert _verdicts(text) == [status]


@pytest.mark.parametrize("tex,name,letter", [("\\alpha", "alpha", "α"), ("\\lambda", "lambda", "λ")])
def test_an_unknown_greek_letter_is_named_as_written(tex: str, name: str, letter: str) -> None:
    # "unknown symbol alpha": the note wrote α (SymPy's name for it is not the note's; λ,
    # whose Unicode name is spelt LAMDA, once made the message itself fail)
    text = ("$$p_i = \\frac{e^{h_i}}{\\sum_j e^{h_j}}, \\quad L = -\\sum_i t_i \\log p_i$$\n\n"
            f"$$\\frac{{\\partial L}}{{\\partial h_k}} = p_k - {tex}$$\n")
    r = verify_text(text, "n.md", numeric=False)
    assert letter in (r.steps[-1].note or "") and name not in (r.steps[-1].note or "")


# -- batch 41 ----------------------------------------------------------------------------

@pytest.mark.parametrize("rhs,status", [("\\hat{y}_j - y_j", "holds"), ("y_j - \\hat{y}_j", "fails")])
def test_ell_defined_as_the_loss(rhs: str, status: str) -> None:
    # \ell = −Σ_k y_k log ŷ_k: ℓ is the note's loss (it was read as an index, "unknown ℓ")
    text = ("$$\\hat y_k = \\frac{e^{z_k}}{\\sum_j e^{z_j}}$$\n\nFor one-hot encoded target "
            "$\\mathbf{y}$:\n\n$$\\ell = -\\sum_{k=1}^{K} y_k \\log(\\hat{y}_k)$$\n\n"
            f"$$\\frac{{\\partial \\ell}}{{\\partial z_j}} = {rhs}$$\n")
    assert _verdicts(text)[-1:] == [status]


def test_a_boxed_side_is_shown_as_written() -> None:
    # = \boxed{ŷ − y}: the side's source keeps its box (it was "{ŷ − y}", matching nothing)
    text = ("$$y_i = \\frac{e^{x_i}}{\\sum_j e^{x_j}}$$\n\n"
            "$$\\frac{\\partial L}{\\partial x_i} = \\boxed{y_i - t_i}$$\n")
    r = verify_text(text, "n.md", numeric=False)
    assert r.steps[-1].rhs_source == "\\boxed{y_i - t_i}"


_LOSS_AT_M = ("For a correct class index `m`:\n\n$$\\ell = -\\log(s_m), \\qquad "
              "s_m = \\frac{{e^{{y_m}}}}{{\\sum_{{k}} e^{{y_k}}}}$$\n\n{body}")


@pytest.mark.parametrize("label,rhs,status", [
    ("**Case i: j = m.**", "s_m - 1", "holds"),
    ("**Case ii: j ≠ m.**", "s_j", "holds"),
    ("**Case ii: j ≠ m.**", "s_j - 1", "fails"),
])
def test_cases_numbered_in_roman_numerals(label: str, rhs: str, status: str) -> None:
    # "**Case ii: j ≠ m.**": a case label numbered i, ii (only "Case 2:" was read)
    body = f"{label}\n\n$$\\frac{{\\partial \\ell}}{{\\partial y_j}} = {rhs}$$\n"
    assert _verdicts(_LOSS_AT_M.format(body=body))[-1:] == [status]


@pytest.mark.parametrize("rhs,status", [("s_j", "holds"), ("s_j - 1", "fails")])
def test_a_boxed_result_then_its_case(rhs: str, status: str) -> None:
    # \boxed{∂ℓ/∂y_j = s_j} \quad \text{if } j \neq m: the box, then the case it holds in
    body = (f"$$\\boxed{{\\frac{{\\partial \\ell}}{{\\partial y_j}} = {rhs}}} \\quad "
            "\\text{if } j \\neq m$$\n")
    assert _verdicts(_LOSS_AT_M.format(body=body))[-1:] == [status]


@pytest.mark.parametrize("rhs,status", [("0", "holds"), ("-\\frac{1}{y_j}", "fails")])
def test_a_list_items_title_names_the_case(rhs: str, status: str) -> None:
    # "2. **当求导目标是其他错误类别的概率 $y_j$ 时 ($j \neq t$)：**" then a paragraph: the
    # item's first line is the case of the display it ends with ("错误类别" names a class,
    # it is no remark that something is wrong)
    text = ("$$y_j = \\frac{e^{a_j}}{\\sum_k e^{a_k}}$$\n\n$$\\ell = -\\log(y_t)$$\n\n"
            "2.  **当求导目标是其他错误类别的概率 $y_j$ 时 ($j \\neq t$)：**\n"
            "    公式 $\\ell = -\\log(y_t)$ 里根本没有 $y_j$ 这个变量！常数求导等于 $0$：\n"
            f"    $$\\frac{{\\partial \\ell}}{{\\partial y_j}} = {rhs}$$\n")
    assert _verdicts(text)[-1:] == [status]


@pytest.mark.parametrize("rhs,status", [("\\frac{1}{s^2}\\operatorname{Var}(X)", "holds"),
                                        ("\\frac{1}{s}\\operatorname{Var}(X)", "fails")])
def test_a_comment_after_a_semicolon_in_chinese(rhs: str, status: str) -> None:
    # "… \quad; 两个单词y_{t}和x_{i}的对齐情况": after the semicolon, words with a little math
    # in them — the row's reason, never part of the expression the next row goes on from
    text = ("Let $X$ be a random variable and $s > 0$ a constant.\n\n$$\n\\begin{eqnarray}\n"
            "\\operatorname{Var}\\left(\\frac{X}{s}\\right)&=&\\operatorname{Var}\\left(\\frac{X}{s}"
            "\\right) \\quad; 缩放X_{1}和s_{1}的方差\\\\\n"
            f"&=&{rhs}\n\\end{{eqnarray}}\n$$\n")
    assert _verdicts(text)[-1:] == [status]


# -- batch 42 ----------------------------------------------------------------------------

@pytest.mark.parametrize("heading,status", [("### 1.3 Sigmoid + 二元交叉熵（BCE）", "not-checked"),
                                            ("### 1.3 另一个损失", "fails")])
def test_a_section_headed_sigmoid(heading: str, status: str) -> None:
    # p the softmax's output in one section, then "### Sigmoid + BCE" with p_i = σ(z_i): a
    # step that fails in the softmax's reading is not shown wrong there (a false fail was)
    text = ("## 1.2 Softmax\n\n$$p_{i} = \\frac{e^{z_{i}}}{\\sum_{k}e^{z_{k}}}$$\n\n"
            f"{heading}\n\n$$\n\\mathcal{{L}} = -\\sum_{{i}}\\left[y_i \\log(p_i) + (1-y_i)\\log(1-p_i)"
            "\\right], \\quad p_i = \\sigma(z_i)\n$$\n\n直接求导：\n\n"
            "$$\n\\frac{\\partial \\mathcal{L}}{\\partial z_i} = -\\left[\\frac{y_i}{p_i}p_i(1-p_i) + "
            "\\frac{1-y_i}{1-p_i}(-p_i(1-p_i))\\right]\n$$\n")
    assert _verdicts(text)[-1:] == [status]


@pytest.mark.parametrize("rhs,status", [("d", "holds"), ("d^2", "fails")])
def test_a_display_opening_its_line_then_a_remark(rhs: str, status: str) -> None:
    # "$$Var(q·k) = d$$（因為獨立隨機變數的方差相加）": the display of its line, with a remark
    # after it (read as inline math in a sentence, no step was made)
    text = ("各分量獨立，均值為 0、方差為 1，$q$ 與 $k$ 獨立。\n\n"
            f"$$\\text{{Var}}(q \\cdot k) = {rhs}$$（因為獨立隨機變數的方差相加）\n")
    assert _verdicts(text) == [status]


# -- batch 43 ----------------------------------------------------------------------------

@pytest.mark.parametrize("written,status", [
    ("[0.659, 0.242, 0.099]", "holds"),
    ("[0.7, 0.2, 0.1]", "holds"),   # rounded to one place
    ("[0.6, 0.2, 0.0]", "holds"),   # cut to one place
    ("[0.6, 0.3, 0.1]", "fails"),   # 0.242 is neither 0.3 rounded nor cut
    ("[0.659, 0.242, 0.1]", "holds"),
    ("[0.242, 0.659, 0.099]", "fails"),
])
def test_softmax_of_a_worked_examples_scores(written: str, status: str) -> None:
    # softmax([2, 1, 0.1]) = [0.7, 0.2, 0.1]: the probabilities of the numbers written, each
    # entry the exact one rounded or cut to its own places (once "softmax(…): expected
    # softmax(x)", and a tolerance of a unit in the last place would have passed 0.3)
    assert _verdicts(f"$$\n\\mathrm{{softmax}}([2, 1, 0.1]) = {written}\n$$\n") == [status]


def test_softmax_of_numbers_against_an_expression_is_exact() -> None:
    # [e^{0.707}/(2e^{0.707}), …]: entries written as expressions are meant exactly (the
    # denominator lacks e^0 = 1): not passed for being "within a unit"
    text = ("$$\n\\text{softmax}([0.707, 0, 0.707]) = \\left[\\frac{e^{0.707}}{2e^{0.707}}, "
            "\\frac{1}{2e^{0.707}}, \\frac{e^{0.707}}{2e^{0.707}}\\right]\n$$\n")
    assert _verdicts(text) == ["fails"]


@pytest.mark.parametrize("after,status", [
    ("the component representing the correct answer (index $c$) is $1$", "holds"),
    ("the vector $\\mathbf{y}$ is one-hot encoded", "fails"),
])
def test_the_correct_class_by_its_index_in_parentheses(after: str, status: str) -> None:
    text = ("$$a_i = \\frac{e^{z_i}}{\\sum_j e^{z_j}}$$\n\n$$\nC(\\mathbf{a})=-\\sum_i y_i\\ln a_i"
            f"=-\\ln a_c.\n$$\n\nIn our case, {after}.\n")
    assert _verdicts(text)[-1:] == [status]


@pytest.mark.parametrize("words,status", [("independently for $i=1,\\ldots,d$.", "holds"),
                                          ("for $i=1,\\ldots,d$.", "needs-undeclared")])
def test_a_law_by_its_mean_and_variance(words: str, status: str) -> None:
    # $$q_i,k_i \sim (0,1)$$ "independently for $i = 1, …, d$": mean 0, variance 1, and the
    # words after the law are about its variables
    text = (f"Assume:\n\n$$\nq_i,k_i \\sim (0,1)\n$$\n\n{words}\n\n"
            "$$\n\\operatorname{Var}(q^\\top k) = d\n$$\n")
    assert _verdicts(text) == [status]


@pytest.mark.parametrize("rhs,status", [("-\\frac{y_i}{a_i}", "holds"), ("-\\frac{1-y_i}{1-a_i}", "fails")])
def test_a_loss_defined_anew_under_its_own_heading(rhs: str, status: str) -> None:
    # "## Binary cross-entropy: C(a, y) = −[y ln a + (1 − y) ln(1 − a)]" … "## Categorical:
    # C(a, y) = −Σ y_i ln a_i": the later steps use the section's own C (the first was kept,
    # and a true step failed)
    text = ("## Binary\n\n$$C(a, y) = -[y\\ln (a) + (1-y)\\ln (1- a)]$$\n\n"
            "## Categorical\n\n$$a_i = \\frac{e^{z_i}}{\\sum_j e^{z_j}}$$\n\n"
            "$$C(a,y) = -\\sum_{i=1}^n y_i\\ln(a_i)$$\n\n"
            f"$$\\frac{{\\partial C}}{{\\partial a_i}} = {rhs}$$\n")
    assert _verdicts(text)[-1:] == [status]


@pytest.mark.parametrize("rhs,status", [("a_i - y_i", "holds"), ("y_i - a_i", "fails")])
def test_a_definition_read_from_its_written_out_form(rhs: str, status: str) -> None:
    # L(a, y) = ½‖a − y‖² = ½ Σ_i (a_i − y_i)²: the norm is not read, the sum after it is —
    # it is L's value from there on (L was taken for the cross-entropy, and a step failed)
    text = ("$$a_i = \\frac{e^{z_i}}{\\sum_j e^{z_j}}$$\n\n"
            "$$\nL(a,y) = \\frac{1}{2} \\lVert a-y \\rVert^2 = \\frac{1}{2}\\sum_{i=1}^n (a_i - y_i)^2\n$$\n\n"
            f"$$\\frac{{\\partial L}}{{\\partial a_i}} = {rhs}$$\n")
    assert _verdicts(text)[-1:] == [status]


@pytest.mark.parametrize("rhs,status", [
    ("\\frac{2}{2} \\text{diag}(p) - \\frac{2}{2} pp^T", "holds"),
    ("\\frac{1}{2} \\text{diag}(p) - \\frac{1}{2} pp^T", "fails"),
])
def test_a_number_times_the_outer_product(rhs: str, status: str) -> None:
    # (1/τ) diag(p) − (1/τ) p pᵀ: a number before p pᵀ keeps it the outer product ("a matrix
    # plus something that is not a matrix" before)
    text = ("$$p_i = \\frac{e^{z_i}}{\\sum_j e^{z_j}}$$\n\n"
            f"$$\n\\frac{{\\partial p}}{{\\partial z}} = {rhs}\n$$\n")
    assert _verdicts(text) == [status]


@pytest.mark.parametrize("lead,kind", [
    ("## Categorical", "definition"),
    ("## Categorical\n\nSince only $y_2 = 1$, the sum reduces to a single term:", "claim"),
])
def test_a_loss_restated_as_a_consequence_is_a_claim(lead: str, kind: str) -> None:
    # "the sum reduces to: L = −log p̂_2" under a new heading: a consequence of the L defined
    # before, not a new L (taken for one, the example's case became every later step's loss)
    rhs = "-\\log \\hat{p}_2" if "reduces" in lead else "-\\sum_{i=1}^n y_i\\ln(\\hat p_i)^2"
    text = ("## Binary\n\n$$\\hat p_i = \\frac{e^{z_i}}{\\sum_j e^{z_j}}$$\n\n"
            "$$L = -\\sum_{i=1}^n y_i\\ln(\\hat p_i)$$\n\n"
            f"{lead}\n\n$$L = {rhs}$$\n")
    r = verify_text(text, "n.md", numeric=False)
    assert r.steps[-1].kind == kind


@pytest.mark.parametrize("note", [
    "a whole vector (p − y, ∂L/∂z) inside an expression: vector algebra is not checked",
    "∂/∂ of an expression that the numerator does not contain",
    "\\cdots here is not part of a written-out sum",
    "a written-out sum needs its last term after \\cdots",
    "softmax(…): expected softmax(x) or softmax(x)_i",
    "d/d applies to nothing here",
    "\\partial here is not part of a derivative",
    "⊙ (elementwise product of vectors) is not checked",
    "a sum of vectors is not checked",
    "a vector against something that is not a vector of the same length",
    "a matrix plus something that is not a matrix",
    "the whole output p under ∂/∂ of one score: take an entry, as p_i",
    "verify's own verdicts disagree here — the chain's other steps hold and so does its first "
    "expression = its last, so this step must hold too; one of its sides was misread",
])
def test_the_commonest_unread_reasons_in_chinese(note: str) -> None:
    # the reasons the corpus leaves most steps unjudged for, said in Chinese in a Chinese
    # report (they were shown in English there)
    from attncheck.i18n import Words

    said = Words("zh").note(note)
    assert said != note and not re.search(r"\b(?:not|checked|expected|here|sum|vector)\b", said)


# -- batch 44 ----------------------------------------------------------------------------

@pytest.mark.parametrize("rhs,status", [("p_i(1-p_i)", "holds"), ("p_i(1+p_i)", "fails")])
def test_a_softmax_over_a_named_denominator(rhs: str, status: str) -> None:
    # S = Σ_k e^{z_k}, then p_i = e^{z_i}/S: a softmax once S is put back (z was "unknown
    # vector" in every step of the note, under a heading "当 i = j 时")
    text = ("##### 手算：\\(i=j\\) 时\n\n\\[\nS=\\sum_{k=1}^{K}e^{z_k}\n\\]\n\n那么：\n\n"
            "\\[\np_i=\\frac{e^{z_i}}{S}\n\\]\n\n\\[\n\\frac{\\partial S}{\\partial z_i}=e^{z_i}\n\\]\n\n"
            f"\\[\n\\frac{{\\partial p_i}}{{\\partial z_i}}={rhs}\n\\]\n")
    assert _verdicts(text) == ["holds", status]


def test_a_value_in_a_chain_of_the_notes_own_letters_is_no_softmax() -> None:
    # x_1 = e^{z_t}/sum (sum = Σ_i e^{z_i}) in a chain x_1 = g_2(x_2): a value of the note's
    # own x_1, by another index — not the softmax's name (x would have become its output)
    from attncheck.verify.lexer import tokenize
    from attncheck.verify.notation import survey
    from attncheck.verify.rows import split_rows

    rows = [split_rows(tokenize(t)) for t in (
        r"sum=\sum_{i=1}^n e^{z_i}", r"x_1=\frac{e^{z_t}}{sum}", r"p_i=\frac{e^{z_i}}{sum}")]
    assert survey(rows[:2]).rename.get("x") != "y"
    assert survey(rows).rename.get("p") == "y"


@pytest.mark.parametrize("rhs,status", [("-\\sigma_i\\sigma_j", "holds"), ("\\sigma_i(1-\\sigma_j)", "fails")])
def test_since_names_the_case(rhs: str, status: str) -> None:
    # "Since $i \neq j$: … Substituting:": the case of the display after it (read as no case,
    # the quotient rule's 0·S step failed)
    text = ("$$\\sigma_i = \\frac{e^{z_i}}{\\sum_k e^{z_k}}$$\n\n"
            "Since $i \\neq j$: $\\frac{\\partial}{\\partial z_j}(e^{z_i}) = 0$. Substituting:\n\n"
            f"$$\\frac{{\\partial \\sigma_i}}{{\\partial z_j}} = {rhs}$$\n")
    assert _verdicts(text) == [status]


@pytest.mark.parametrize("one,status", [("1", "holds"), ("2", "fails")])
def test_cases_between_two_relations(one: str, status: str) -> None:
    # ∂z_v/∂z_k = {1, v = k; 0, v ≠ k} = δ_vk: each branch is the chain under its condition
    # (the cases were read as a matrix, and "1," stopped it)
    text = ("Let $y_i = \\frac{e^{x_i}}{\\sum_k e^{x_k}}$.\n\n"
            f"$$\\frac{{\\partial x_v}}{{\\partial x_k}}=\\begin{{cases}}{one},&v=k\\\\0,&v\\ne k"
            "\\end{cases}=\\ \\boxed{\\delta_{vk}}$$\n")
    assert _verdicts(text) == [status, status, "holds", "holds"]


@pytest.mark.parametrize("rhs,status", [("\\pi(v)\\big(\\delta_{vk}-\\pi(k)\\big)", "holds"),
                                        ("\\pi(v)\\big(\\delta_{vk}+\\pi(k)\\big)", "fails")])
def test_a_softmax_written_as_a_function_of_its_class(rhs: str, status: str) -> None:
    # π(v) = e^{z_v}/Σ_u e^{z_u}: π the softmax, its entry at class v (π was the number π,
    # and π(v) a product; v, never written with an index, was renamed the label)
    text = ("$$\\pi(v)=\\frac{e^{z_v}}{\\sum_u e^{z_u}}$$\n\n"
            "$$\\log\\pi(v) = z_v - \\log\\sum_u e^{z_u}$$\n\n"
            f"$$\\frac{{\\partial\\pi(v)}}{{\\partial z_k}}={rhs}$$\n")
    assert _verdicts(text) == ["holds", status]


def test_k_an_index_in_a_softmax_note_is_no_key() -> None:
    # E_{v∼π}[…] in a note that writes no q: its k numbers the logits (every step with z_k
    # was "k is a random vector")
    text = ("$$p_v=\\frac{e^{z_v}}{\\sum_u e^{z_u}}$$\n\n"
            "$$\\mathbb E_{v\\sim p}[\\delta_{vk}] = p_k$$\n\n"
            "$$\\frac{\\partial p_v}{\\partial z_k}=p_v(\\delta_{vk}-p_k)$$\n")
    from attncheck.verify.check import read_note
    from attncheck.verify.files import Source

    assert read_note(Source("n.md", text), "md").notation.families == ()
    assert _verdicts(text)[-1:] == ["holds"]


@pytest.mark.parametrize("text,said", [
    ("Assume the entries of $q$ and $k$ are i.i.d. with mean 0 and variance 1.", True),
    ("Assume $q, k \\sim \\mathcal{N}(0, I_{d_k})$.", True),
    ("We assume that $Cov(q_i k_i, q_j k_j)$ due to being different index positions.", True),
    ("Assume $q_i, k_i \\sim \\mathcal{N}(0, 1)$.", False),
    ("Assume the entries of $q$ and $k$ have mean 0 and variance 1.", False),
])
def test_independence_said(text: str, said: bool) -> None:
    # "i.i.d." was cut into sentences at its full stops, and N(0, I) says independence with no
    # word for it: the variance of a sum split is then the note's own step
    from attncheck.verify.check import read_note
    from attncheck.verify.files import Source

    reading = read_note(Source("n.md", text + "\n\n$$\\mathrm{Var}(q_1 k_1) = 1$$\n"), "md")
    assert reading.independence_said is said


@pytest.mark.parametrize("rhs,status", [("d_k", "holds"), ("2 d_k", "fails")])
def test_plain_two_indices_after_a_parenthesis(rhs: str, status: str) -> None:
    # Var(QKᵀ)_ij: the entry (i, j) — TeX's reading, (…)_i times j, doubled the variance
    text = ("Entries of $q$ and $k$ are i.i.d. standard normal.\n\n"
            f"$$Var(q \\cdot k)_ij = {rhs}$$\n")
    assert _verdicts(text) == [status]


@pytest.mark.parametrize("rhs,status", [("y_i(\\delta_{ij}-y_j)", "holds"), ("y_i(\\delta_{ij}+y_j)", "fails")])
def test_a_remark_with_math_inside_its_words(rhs: str, status: str) -> None:
    # \qquad\text{(式 2 = 式 1}\times\pi(v)\text{)}: the parenthesis the words open and close
    # is the row's reason, the math inside it too (it stopped the row: "unexpected ','")
    text = ("$$y_i = \\frac{e^{x_i}}{\\sum_k e^{x_k}}$$\n\n"
            f"$$\\frac{{\\partial y_i}}{{\\partial x_j}}={rhs}\\qquad\\text{{(式 2 = 式 1}}"
            "\\times y_i\\text{)}$$\n")
    r = verify_text(text, "n.md", numeric=False)
    assert _verdicts(text) == [status] and r.steps[-1].reason == "式 2 = 式 1 × y_i"


@pytest.mark.parametrize("rhs,status", [("\\hat y_j - y_j", "holds"), ("y_j - \\hat y_j", "fails")])
def test_an_operator_on_the_loss_written_with_its_arguments(rhs: str, status: str) -> None:
    # ∂_{o_j} l(𝐲, ŷ) (d2l): the operator takes l, and (𝐲, ŷ) are l's arguments — not a list
    # multiplying the derivative ("a list where one value is expected")
    text = ("$$l(\\mathbf{y}, \\hat{\\mathbf{y}}) = - \\sum_{j=1}^q y_j \\log \\hat{y}_j$$\n\n"
            "$$\\hat{y}_j = \\frac{\\exp(o_j)}{\\sum_k \\exp(o_k)}$$\n\n"
            f"$$\\partial_{{o_j}} l(\\mathbf{{y}}, \\hat{{\\mathbf{{y}}}}) = {rhs}$$\n")
    assert [v.replace("needs-undeclared", "holds") for v in _verdicts(text)] == [status]


# -- batch 45 ----------------------------------------------------------------------------

@pytest.mark.parametrize("rhs,status", [("d_k", "holds"), ("2 d_k", "fails")])
def test_a_sum_without_limits_runs_where_the_rows_sums_run(rhs: str, status: str) -> None:
    # Σ_i E[q_i²]E[k_i²] = Σ_i 1·1 = d_k: the constant summand's Σ_i is over the components
    # (d_k), as the sum it came from — not over the softmax's n classes (a false fail twice)
    text = ("Suppose the entries of $q$ and $k$ are independent, with mean 0 and variance 1.\n\n"
            "$$p_i = \\frac{e^{s_i}}{\\sum_j e^{s_j}}$$\n\n"
            "$$\\mathrm{Var}(q\\cdot k) = \\sum_i \\mathbb{E}[q_i^2]\\,\\mathbb{E}[k_i^2] = "
            f"\\sum_i 1 \\cdot 1 = {rhs}$$\n")
    assert _verdicts(text)[-2:] == ["holds", status]


@pytest.mark.parametrize("rhs,status", [("-A_t(\\mathbf{1}[a_t=k]-\\pi(k))", "holds"),
                                        ("-A_t(\\mathbf{1}[a_t=k]+\\pi(k))", "fails")])
def test_the_softmax_at_a_class_named_by_an_entry(rhs: str, status: str) -> None:
    # ℓ_t = −A_t log π(a_t): π at the class a_t (read as π times a_t, the whole π a
    # constant under ∂/∂z_k — "= 0", a false fail)
    text = ("$$\\pi(i) = \\frac{e^{z_i}}{\\sum_j e^{z_j}}$$\n\n$$\\ell_t = -A_t \\log \\pi(a_t)$$\n\n"
            f"$$\\frac{{\\partial \\ell_t}}{{\\partial z_k}} = {rhs}$$\n")
    assert _verdicts(text) == [status]


def test_the_whole_output_under_a_derivative_by_one_score_is_refused() -> None:
    # ∂ log p/∂z_k with p the whole softmax output: p was a constant there, and "= 0" held
    text = ("$$p_i = \\frac{e^{z_i}}{\\sum_j e^{z_j}}$$\n\n"
            "$$\\frac{\\partial \\log p}{\\partial z_k} = 0$$\n")
    r = verify_text(text, "n.md", numeric=False)
    assert r.steps[-1].status.value == "not-read"
    assert "whole output p" in r.steps[-1].note


@pytest.mark.parametrize("rhs,status", [("z_i - \\mathrm{lse}(\\mathbf{z})", "holds"),
                                        ("z_i + \\mathrm{lse}(\\mathbf{z})", "fails"),
                                        ("z_i - \\operatorname{LSE}(\\boldsymbol z - c) - c", "holds"),
                                        ("z_i - \\operatorname{LSE}(\\boldsymbol z - c) + c", "fails")])
def test_log_sum_exp_of_the_scores(rhs: str, status: str) -> None:
    # LSE(𝐳), lse(𝐳), logsumexp(𝐳 − c): log Σ_k e^{z_k} of the whole scores ("z is a vector
    # here", or "LSE(x): only exp, log and δ are supported")
    text = f"$$p_i = \\frac{{e^{{z_i}}}}{{\\sum_j e^{{z_j}}}}$$\n\n$$\\log p_i = {rhs}$$\n"
    assert _verdicts(text) == [status]


@pytest.mark.parametrize("last,status", [("d_k", "holds"), ("2 d_k", "fails")])
def test_a_chains_conclusion_reads_the_names_its_steps_read(last: str, status: str) -> None:
    # "点积 $S = \sum q_i k_i$" in the words, then Var(S) = … = d_k: every step held and the
    # conclusion said "= 0, not d_k" — it was checked without the name S
    text = ("假设 $q_i, k_i$ 相互独立，均值为 0，方差为 1。点积 $S = \\sum_{i=1}^{d_k} q_i k_i$ 的方差：\n\n"
            f"$$\\text{{Var}}(S) = \\sum_{{i=1}}^{{d_k}} \\text{{Var}}(q_i k_i) = {last}$$\n")
    r = verify_text(text, "n.md", numeric=False)
    chain = r.derivations[-1]
    assert chain.conclusion.number == 0
    assert chain.conclusion.status.value.replace("holds-given", "holds") == status


_THREE_STEPS = ("$$y_i = \\frac{{e^{{x_i}}}}{{\\sum_k e^{{x_k}}}}$$\n\n"
                "$$\\frac{{\\partial y_i}}{{\\partial x_i}} = y_i - y_i^2 = {middle} = y_i(1 - y_i)$$\n")


def test_a_failure_the_chain_contradicts_is_not_reported_as_the_notes(monkeypatch: pytest.MonkeyPatch
                                                                      ) -> None:
    # a = b = c = d with a = b, c = d and a = d holding: b = c must hold, so a failure there
    # is verify's misreading (here forced on the middle step), not the note's error
    import attncheck.verify.check as check
    from attncheck.verify.result import StepStatus

    real = check._check_step

    def misread(ctx, step, n, *args, **kwargs):  # type: ignore[no-untyped-def]
        r = real(ctx, step, n, *args, **kwargs)
        return replace(r, status=StepStatus.FAILS) if step.lhs.source == "y_i - y_i^2" else r

    from dataclasses import replace
    monkeypatch.setattr(check, "_check_step", misread)
    text = _THREE_STEPS.format(middle="y_i(1 - y_i)")
    statuses = [s.status.value for s in verify_text(text, "n.md", numeric=False).steps][1:]
    assert statuses == ["holds", "not-checked", "holds"]


@pytest.mark.parametrize("middle,statuses", [
    ("y_i(1 - y_i)", ["holds", "holds", "holds"]),
    ("y_i(1 + y_i)", ["holds", "fails", "fails"]),
])
def test_a_real_failure_in_a_chain_stays_one(middle: str, statuses: list[str]) -> None:
    # one wrong step breaks the conclusion too: nothing contradicts it, it is reported
    text = _THREE_STEPS.format(middle=middle)
    assert [s.status.value for s in verify_text(text, "n.md", numeric=False).steps][1:] == statuses


# -- batch 46 ----------------------------------------------------------------------------

_JACOBIAN_NOTE = ("$$p_i = \\frac{{e^{{z_i}}}}{{\\sum_k e^{{z_k}}}}, \\quad L = -\\sum_k t_k \\log p_k$$\n\n"
                  "The Jacobian of the softmax is\n\n"
                  "$$J = \\frac{{\\partial \\mathbf{{p}}}}{{\\partial \\mathbf{{z}}}} = "
                  "\\mathrm{{diag}}(\\mathbf{{p}}) - \\mathbf{{p}}\\mathbf{{p}}^T$$\n\n$${claim}$$\n")


@pytest.mark.parametrize("claim,status", [
    ("J = J^T", "holds"),
    ("\\frac{\\partial \\mathbf{p}}{\\partial \\mathbf{z}} = "
     "\\left(\\frac{\\partial \\mathbf{p}}{\\partial \\mathbf{z}}\\right)^T", "holds"),
    ("\\nabla_{\\mathbf{z}} L = J^T \\nabla_{\\mathbf{p}} L", "holds"),
    ("\\nabla_{\\mathbf{z}} L = -J^T \\nabla_{\\mathbf{p}} L", "fails"),
    ("\\nabla_{\\mathbf{z}} L = (\\mathrm{diag}(\\mathbf{p}) - \\mathbf{p}\\mathbf{p}^T)"
     " \\nabla_{\\mathbf{p}} L", "holds"),
    ("\\nabla_{\\mathbf{z}} L = \\mathbf{p} \\odot \\nabla_{\\mathbf{p}} L + \\mathbf{p}", "holds"),
    ("\\nabla_{\\mathbf{z}} L = \\mathbf{p} \\odot \\nabla_{\\mathbf{p}} L - \\mathbf{p}", "fails"),
])
def test_products_with_the_softmax_jacobian(claim: str, status: str) -> None:
    # Jᵀ, J ∇_𝐩 L, (diag(𝐩) − 𝐩𝐩ᵀ) g, 𝐩 ⊙ g: matrix times vector and the transpose, entry by
    # entry (all "vector and matrix algebra is not checked"); ∇_𝐩 L is by the output (it was
    # read as ∇_𝐳 L — a false verdict either way)
    text = _JACOBIAN_NOTE.format(claim=claim)
    assert _verdicts(text)[-1:] == [status] or (
        status == "holds" and _verdicts(text)[-1] == "needs-undeclared")


@pytest.mark.parametrize("last,status", [("\\hat{y}_j - t_j", "holds"), ("\\hat{y}_j + t_j", "fails")])
def test_a_remark_holding_a_relation_is_no_step(last: str, status: str) -> None:
    # -t_j + ŷ_j \quad \text{(since } \sum_i t_i = 1\text{)} &= ŷ_j − t_j: the remark's
    # Σ_i t_i = 1 was a link of the chain, and the row after it went on from 1 (false fail)
    text = ("$$\\hat y_i = \\frac{e^{z_i}}{\\sum_k e^{z_k}}$$\n\n$$\\begin{align}"
            "\\frac{\\partial L}{\\partial z_j} &= -t_j + \\hat{y}_j \\sum_{i=1}^k t_i \\\\ "
            "&= -t_j + \\hat{y}_j \\quad \\text{(since } \\sum_i t_i = 1\\text{)} \\\\ "
            f"&= {last} \\end{{align}}$$\n")
    r = verify_text(text, "n.md", numeric=False)
    assert [s.lhs_source for s in r.steps[1:]][-1] == "-t_j + \\hat{y}_j"
    assert _verdicts(text)[-1] == status and r.steps[-2].reason == "since Σ_it_i = 1"


@pytest.mark.parametrize("line", [
    "**Case $i=j$:** $$\\frac{{\\partial y_i}}{{\\partial x_i}} = {rhs}$$",
    "Therefore: **$$\\frac{{\\partial y_i}}{{\\partial x_i}} = {rhs}$$**",
])
@pytest.mark.parametrize("rhs,status", [("y_i(1-y_i)", "holds"), ("y_i(1+y_i)", "fails")])
def test_a_display_after_a_label_with_inline_math(line: str, rhs: str, status: str) -> None:
    # "**Gradient w.r.t. $\mathbf{W}$:** $$…$$", "**$$…$$**": the $$…$$ that ends its line is
    # the display MathJax shows (an inline $…$ before it, or bold around it, hid it)
    text = "Let $y_i = \\frac{e^{x_i}}{\\sum_k e^{x_k}}$.\n\n" + line.format(rhs=rhs) + "\n"
    assert _verdicts(text) == [status]


@pytest.mark.parametrize("rhs,status", [("\\hat y_j - y_j", "holds"), ("\\hat y_j + y_j", "fails")])
def test_sums_counted_from_zero(rhs: str, status: str) -> None:
    # Σ_{k=0}^{C−1}: every entry, counted from 0 — "sums run to different upper limits (C,
    # C − 1)" beside the softmax's Σ_{j=0}^{C−1} and the label's sum
    text = ("$$\\hat y_k = \\frac{e^{z_k}}{\\sum_{j=0}^{C-1} e^{z_j}}, \\quad "
            "L = -\\sum_{k=0}^{C-1} y_k \\log \\hat y_k$$\n\n$$\\frac{\\partial L}{\\partial z_j} = "
            f"\\sum_{{k=0}}^{{C-1}} \\left( -\\frac{{y_k}}{{\\hat{{y}}_k}} \\right) \\hat{{y}}_k "
            f"(\\delta_{{kj}} - \\hat{{y}}_j) = {rhs}$$\n")
    assert [v.replace("needs-undeclared", "holds") for v in _verdicts(text)] == ["holds", status]


@pytest.mark.parametrize("rhs,status", [("p_i(\\delta_{ij} - p_j)", "holds"),
                                        ("p_i(\\delta_{ij} + p_j)", "fails")])
def test_the_softmax_jacobian_in_letters_of_its_own_beside_attention(rhs: str, status: str) -> None:
    # α_ij = softmax_j(q_i·k_j/√d_k), softmax(s)_i = e^{s_i}/Σ_j e^{s_j}, then "The Jacobian of
    # softmax is ∂p_i/∂s_j = …": p, named nowhere else, is the output of that softmax of s
    text = ("$$\\alpha_{ij} = \\text{softmax}_j\\left(\\frac{q_i^\\top k_j}{\\sqrt{d_k}}\\right)$$\n\n"
            "$$\\text{softmax}(s)_i = \\frac{e^{s_i}}{\\sum_j e^{s_j}}$$\n\n"
            f"The Jacobian of softmax is\n\n$$\\frac{{\\partial p_i}}{{\\partial s_j}} = {rhs}$$\n")
    assert _verdicts(text)[-1:] == [status]


# -- batch 47 ----------------------------------------------------------------------------

@pytest.mark.parametrize("last,status", [("p_i - y_i", "holds"), ("p_i + y_i", "fails")])
def test_a_remark_row_inside_a_chain(last: str, status: str) -> None:
    # "\text{note that } \sum_k y_k = 1" as a row of its own between two rows of a chain: the
    # row after it went on from 1 ("1 = p_i − y_i", a false fail)
    text = ("$$p_i = \\frac{e^{z_i}}{\\sum_j e^{z_j}}, \\quad L = -\\sum_k y_k \\log p_k$$\n\n"
            "$$\\begin{aligned} \\frac{\\partial L}{\\partial z_i} &= -y_i + p_i(\\sum_k y_k) \\\\ "
            "\\text{note that } \\sum_k y_k = 1 \\\\ "
            f"&= {last} \\end{{aligned}}$$\n")
    assert _verdicts(text)[-1] == status


@pytest.mark.parametrize("rhs,status", [("\\frac{-1}{\\hat{y}_{t}}", "holds"), ("\\frac{1}{\\hat{y}_{t}}", "fails")])
def test_a_loss_given_as_a_number_then_as_a_formula(rhs: str, status: str) -> None:
    # "The previous chapter ended with a single scalar: $$L = 2.08$$", then "the loss reduces
    # to $$L = −log ŷ_t$$": the formula is what L is (it was a claim about the number, and
    # ∂L/∂ŷ_k was taken of the general cross-entropy)
    text = ("Let $\\hat y_i = \\frac{e^{z_i}}{\\sum_k e^{z_k}}$.\n\n"
            "The previous chapter ended with a single scalar:\n\n$$L = 2.08$$\n\n"
            "The loss reduces to:\n\n$$L = -\\log(\\hat{y}_{t})$$\n\n"
            f"$$\\frac{{\\partial L}}{{\\partial \\hat{{y}}_t}} = {rhs}$$\n")
    r = verify_text(text, "n.md", numeric=False)
    assert r.steps[1].kind == "definition" and _verdicts(text)[-1] == status


def test_an_index_letter_as_the_quantity_of_an_expectation() -> None:
    # "the dot product $\ell = q^\top k = \sum_i q_i k_i$" said in words, then E[ℓ] = …: ℓ, read
    # as an index letter, was a number whose mean is itself ("= ℓ, not 0", a false fail)
    text = ("Let $q_i, k_i \\sim \\mathcal{N}(0, 1)$ be independent. The logit is "
            "$\\ell = q^\\top k = \\sum_{i=1}^{d_k} q_i k_i$.\n\n"
            "$$\\mathbb{E}[\\ell] = \\mathbb{E}\\left[\\sum_{i=1}^{d_k} q_i k_i\\right]$$\n")
    r = verify_text(text, "n.md", numeric=False)
    assert r.steps[-1].status.value in ("not-read", "not-checked", "holds", "holds-given")
    assert r.steps[-1].status.value != "fails"


# -- batch 48 ----------------------------------------------------------------------------

@pytest.mark.parametrize("written,index", [("\\delta_{jy}", "y"), ("\\delta_{j,y}", "y"),
                                           ("p_y", "y")])
def test_kronecker_indices_as_written_beside_the_label_letter(written: str, index: str) -> None:
    # −log p_y with the label y (renamed t) also the class index: δ_{jy} was δ_{jt} while p_y
    # kept y — two classes, and a false fail once the note's p was read
    from sympy import KroneckerDelta

    from attncheck.verify.lexer import tokenize
    from attncheck.verify.parse import Notation, Parser, index_symbol

    parser = Parser(Notation(rename={"y": "t", "p": "y", "z": "x"}))
    value = parser.tokens_expression(tokenize(written))
    got = value.args[1] if isinstance(value, KroneckerDelta) else value.indices[0]
    assert got == index_symbol(index)


# -- batch 49 ----------------------------------------------------------------------------

_SIGMA_JACOBIAN = ("The Jacobian of the softmax function $\\sigma(\\mathbf{{z}})$ is:\n\n"
                   "$$\\frac{{\\partial \\sigma_i}}{{\\partial z_j}} = {rhs}$$\n")


@pytest.mark.parametrize("rhs,status", [
    ("\\sigma_i (\\delta_{ij} - \\sigma_j)", "holds"),
    ("\\sigma_i (\\delta_{ij} + \\sigma_j)", "fails"),
])
def test_sigma_times_a_bracket_is_no_call(rhs: str, status: str) -> None:
    # σ_i(δ_ij − σ_j) was read as σ applied to δ: δ became the scores, z unknown
    assert _verdicts(_SIGMA_JACOBIAN.format(rhs=rhs)) == [status]


@pytest.mark.parametrize("rhs,status", [
    ("\\frac{0 \\cdot S - e^{x_i} e^{x_j}}{S^2}", "holds"),
    ("\\frac{S - e^{x_i} e^{x_j}}{S^2}", "fails"),
])
def test_a_case_label_line_names_the_case_of_what_follows(rhs: str, status: str) -> None:
    # a page whose case headings became plain lines: "情况2:\( i \neq j \)(…)", then a list
    # item, then the display — once judged for every i, j: a false fail
    text = ("设 $s_i = \\frac{e^{x_i}}{S}$，$S = \\sum_k e^{x_k}$\n\n"
            "情况2:\\( i \\neq j \\)(自变量对其他元素求导)\n"
            "- 此时 \\( x_j \\) 出现在分母 \\( S \\) 中:\n"
            f"$$\n\\frac{{\\partial s_i}}{{\\partial x_j}} = {rhs}\n$$\n")
    assert _verdicts(text) == [status]


_WHOLE_LAYER = ("$$z = W x + b$$\n\n$$p_i = \\frac{{e^{{z_i}}}}{{\\sum_k e^{{z_k}}}}$$\n\n"
                "$$L = -\\sum_i y_i \\ln(p_i)$$\n\nwith $y$ one-hot.\n\n$$\n{claim}\n$$\n")


@pytest.mark.parametrize("claim,status", [
    ("\\frac{\\partial L}{\\partial W} = (p - y) x^\\top", "holds"),
    ("\\frac{\\partial L}{\\partial W} = (p + y) x^\\top", "fails"),
    ("\\frac{\\partial L}{\\partial W} = (p - y) p^\\top", "fails"),
    ("\\frac{\\partial L}{\\partial b} = p - y", "holds"),
    ("\\frac{\\partial L}{\\partial b} = y - p", "fails"),
])
def test_gradients_by_the_whole_weights_and_bias(claim: str, status: str) -> None:
    # ∂L/∂W = (p − y)xᵀ through the note's linear layer: the (k, d) entry (p_k − y_k) x_d
    assert _verdicts(_WHOLE_LAYER.format(claim=claim)) == [status]


@pytest.mark.parametrize("claim,status", [
    ("\\nabla_{z}\\pi = \\mathrm{diag}(\\pi) - \\pi\\,\\pi^\\top", "holds"),
    ("\\nabla_{z}\\pi = \\mathrm{diag}(\\pi) + \\pi\\,\\pi^\\top", "fails"),
    ("\\operatorname{softmax}(z) = \\pi", "holds"),
    ("\\operatorname{softmax}(2z) = \\pi", "fails"),
])
def test_the_whole_output_against_whole_forms(claim: str, status: str) -> None:
    text = ("$$\\pi_i = \\frac{e^{z_i}}{\\sum_k e^{z_k}}$$\n\nNow we check:\n\n"
            f"$$\n{claim}\n$$\n\nfor every $z$.\n")
    assert _verdicts(text) == [status]


@pytest.mark.parametrize("claim,status", [
    ("\\text{Var}(aX) = a^2 \\text{Var}(X)", "holds"),
    ("\\text{Var}(aX) = a \\text{Var}(X)", "fails"),
])
def test_generic_variables_beside_an_indexed_capital(claim: str, status: str) -> None:
    # X in the variance rules, X_{ij} the embeddings later on: X alone is still a random
    # variable; "If Var(X) = 0, …" is a case, not an assumption (it once crashed the file)
    text = ("If $\\text{Var}(X) = 0$, all values are equal to the mean.\n\n"
            f"$$\n{claim}\n$$\n\n$$X_{{ij}} = 2$$\n")
    assert _verdicts(text)[:1] == [status]


def test_a_marimo_notebook_is_read_for_its_markdown_cells() -> None:
    notebook = ('import marimo\n\napp = marimo.App()\n\n\n@app.cell\ndef _(mo):\n    mo.md(\n'
                '        r"""\n        $$p_i = \\frac{e^{z_i}}{\\sum_k e^{z_k}}$$\n\n'
                '        $$\\frac{\\partial p_i}{\\partial z_i} = p_i(1 - p_i)$$\n\n'
                '        $$\\frac{\\partial p_i}{\\partial z_i} = p_i(1 + p_i)$$\n'
                '        """\n    )\n    return\n')
    r = verify_text(notebook, "n.py", numeric=False)
    claims = [(s.location.line, s.status.value) for s in r.steps if s.kind == "claim"]
    assert claims == [(12, "holds"), (14, "fails")]  # the lines of the .py file itself


def test_a_jupyter_notebook_is_read_for_its_markdown_cells() -> None:
    import json

    cells = [{"cell_type": "code", "source": ["x = 1  # $$a = b$$\n"]},
             {"cell_type": "markdown", "source": [
                 "$$p_i = \\frac{e^{z_i}}{\\sum_k e^{z_k}}$$\n", "\n",
                 "$$\\frac{\\partial p_i}{\\partial z_i} = p_i(1 + p_i)$$\n"]}]
    text = json.dumps({"cells": cells, "nbformat": 4}, indent=1, ensure_ascii=False)
    r = verify_text(text, "n.ipynb", numeric=False)
    claims = [(s.location.line, s.status.value) for s in r.steps if s.kind == "claim"]
    line = text.split("\n").index(next(x for x in text.split("\n") if "(1 + p_i)" in x)) + 1
    assert claims == [(line, "fails")]


def test_a_python_file_that_is_no_notebook_is_refused() -> None:
    from attncheck.verify.errors import VerifyError

    with pytest.raises(VerifyError, match="not a marimo notebook"):
        verify_text("print('$$a = b$$')\n", "n.py", numeric=False)


@pytest.mark.parametrize("claim,status", [
    ("\\mathrm{Var}(\\ell) = d_k", "holds"),
    ("\\mathrm{Var}(\\ell) = \\sqrt{d_k}", "fails"),
])
def test_ell_given_a_value_in_the_vectors_is_a_quantity(claim: str, status: str) -> None:
    # "the unscaled logit is the dot product $\ell = q^\top k = Σ q_i k_i$": ℓ is no index here
    text = ("Let $q_i, k_i \\sim \\mathcal{N}(0, 1)$ be independent. The unscaled logit is the "
            "dot product $\\ell = q^\\top k = \\sum_{i=1}^{d_k} q_i k_i$.\n\n"
            f"$$\n{claim}\n$$\n")
    assert _verdicts(text) == [status]


@pytest.mark.parametrize("claim,status", [
    ("-\\sum_i y_i \\ln(p_i) = -y^\\top \\ln(p)", "holds"),
    ("-\\sum_i y_i \\ln(p_i) = -p^\\top \\ln(y)", "fails"),
    ("-\\sum_i y_i \\ln(p_i) = -\\mathbf{y}^\\top \\log \\mathbf{p}", "holds"),
    ("-\\sum_i y_i \\ln(p_i) = -2\\mathbf{y}^\\top \\log \\mathbf{p}", "fails"),
])
def test_a_row_vector_times_the_log_of_a_vector(claim: str, status: str) -> None:
    text = ("$$p_i = \\frac{e^{z_i}}{\\sum_k e^{z_k}}$$\n\nwith $y$ one-hot.\n\n"
            f"$$\n{claim}\n$$\n")
    assert _verdicts(text) == [status]


@pytest.mark.parametrize("claim,status", [
    ("\\frac{\\partial L}{\\partial z_j^{(2)}} = \\hat{y}_j - t_j", "holds"),
    ("\\frac{\\partial L}{\\partial z_j^{(2)}} = t_j - \\hat{y}_j", "fails"),
])
def test_a_layer_label_after_the_index_is_no_power(claim: str, status: str) -> None:
    # z_j^{(2)}: layer 2's z, as z^{(2)}_j — once z_j squared, and the softmax's scores lost
    text = ("$$\\mathbf{z}^{(1)} = \\mathbf{W}^{(1)}\\mathbf{x}$$\n\n"
            "$$\\hat{y}_i = \\frac{\\exp(z_i^{(2)})}{\\sum_{j=1}^k \\exp(z_j^{(2)})}$$\n\n"
            "Given the one-hot label $\\mathbf{t}$: $$L = -\\sum_{i=1}^k t_i \\log(\\hat{y}_i)$$\n\n"
            f"$$\n{claim}\n$$\n")
    assert _verdicts(text) == [status]


@pytest.mark.parametrize("rows,status", [
    # one backslash for the row break: the branches run together — not read
    ("\\hat{y}_i(1 - \\hat{y}_i) & \\text{if } i = j \\ -\\hat{y}_i \\hat{y}_j & "
     "\\text{if } i \\neq j", "not-read"),
    # "& if & i = j": only the condition split in two cells — read
    ("\\hat{y}_i(1 - \\hat{y}_i) & if & i = j \\\\ -\\hat{y}_i \\hat{y}_j & if & i \\neq j",
     "holds"),
    ("\\hat{y}_i(1 + \\hat{y}_i) & if & i = j \\\\ -\\hat{y}_i \\hat{y}_j & if & i \\neq j",
     "fails"),
])
def test_a_case_row_with_a_lost_row_break(rows: str, status: str) -> None:
    text = ("$$\\hat{y}_i = \\frac{e^{z_i}}{\\sum_k e^{z_k}}$$\n\n"
            f"$$\\frac{{\\partial \\hat{{y}}_i}}{{\\partial z_j}} = \\begin{{cases}} {rows} "
            "\\end{cases}$$\n")
    got = set(_verdicts(text))
    assert got == {status} if status != "fails" else "fails" in got


# -- batch 50 ----------------------------------------------------------------------------

@pytest.mark.parametrize("result,status", [
    ("p_i - y_i", "holds"),
    ("y_i - p_i", "fails"),
])
def test_a_reason_in_the_proof_states_the_label_sums_to_one(result: str, status: str) -> None:
    # the result first, its proof after it with "(since Σ y_i = 1)": the note says it of its
    # label, as words would — once "needs Σ t = 1, undeclared" for both
    text = ("Given $p_i = \\frac{e^{z_i}}{\\sum_j e^{z_j}}$ and loss $L = -\\sum y_i \\log p_i$:"
            f"\n\n$$\n\\frac{{\\partial L}}{{\\partial z_i}} = {result}\n$$\n\n**Proof:**\n\n$$\n"
            "\\frac{\\partial L}{\\partial z_k} = p_k \\sum_i y_i - y_k \\\\\n"
            "= p_k - y_k \\quad (\\text{since } \\sum y_i = 1)\n$$\n")
    assert _verdicts(text)[0] == status
    assert "needs-undeclared" not in _verdicts(text)


@pytest.mark.parametrize("middle,status", [
    ("\\frac{1}{c^2} \\cdot \\text{Var}(q \\cdot k)", "holds"),
    ("\\frac{1}{c} \\cdot \\text{Var}(q \\cdot k)", "fails"),
])
def test_the_last_relation_after_we_want_is_the_requirement(middle: str, status: str) -> None:
    text = ("Assume the components of $q$ and $k$ are independent, with mean 0 and variance 1."
            "\n\nWe want the constant $c$ such that the variance stays at $1$:\n\n"
            f"$$\\text{{Var}}\\!\\left(\\frac{{q \\cdot k}}{{c}}\\right) = {middle} = 1$$\n\n"
            "Solving gives $c = \\sqrt{d_k}$.\n")
    r = verify_text(text, "n.md", numeric=False)
    kinds = [(s.kind, s.status.value.replace("holds-given", "holds")) for s in r.steps]
    assert kinds == [("claim", status), ("condition", "condition")]


@pytest.mark.parametrize("claim,status", [
    ("\\frac{\\partial L}{\\partial p_k} = -\\frac{y_k}{p_k}", "holds"),
    ("\\frac{\\partial L}{\\partial p_k} = \\frac{y_k}{p_k}", "not-checked"),
])
def test_a_general_index_over_the_written_out_classes(claim: str, status: str) -> None:
    # L written for two classes, then a claim for a general k: k = 1 and k = 2 are all there
    # is — judged at each (a claim that fails at one is not shown wrong: the note may have
    # meant its general L)
    text = ("With two classes the loss is\n\n$$L = -y_1 \\log(p_1) - y_2 \\log(p_2)$$\n\n"
            "and $p_k = \\frac{e^{z_k}}{\\sum_j e^{z_j}}$.\n\n"
            f"$$\n{claim}\n$$\n")
    assert _verdicts(text) == [status]


@pytest.mark.parametrize("rhs,status", [
    ("\\sum_{j=1}^{V} -y_j (\\delta_{ji} - a_i)", "holds"),
    ("\\sum_{j=1}^{V} -y_j (\\delta_{ji} + a_i)", "fails"),
])
def test_a_coloured_remark_at_the_end_of_a_row(rhs: str, status: str) -> None:
    # \color{gray}{\text{—— 消去！}}: the colour's braces hold a remark, no group of the formula
    text = ("$$a_i = \\frac{e^{z_i}}{\\sum_k e^{z_k}}$$\n\n$$\\begin{aligned}\n"
            "\\sum_{j=1}^{V} \\left(-\\frac{y_j}{a_j}\\right) \\cdot a_j (\\delta_{ji} - a_i) "
            f"&= {rhs} \\quad\\color{{gray}}{{\\text{{—— $a_j$ 消去！}}}}\n\\end{{aligned}}$$\n")
    assert _verdicts(text) == [status]


@pytest.mark.parametrize("rhs,agree", [("-\\ln(p_c)", True), ("-\\ln(p_1)", False)])
def test_numbers_for_a_step_beside_the_notes_class_letter(rhs: str, agree: bool) -> None:
    # the one-hot label said once, "y_c = 1 for the true class c": every softmax step's
    # numbers once stopped at "c has no value at a softmax point"; now c takes a class
    text = ("$$p_i = \\frac{e^{z_i}}{\\sum_k e^{z_k}}$$\n\nLet $y$ be one-hot, where $y_c = 1$ "
            "for the true class $c$ and $y_j = 0$ for all $j \\neq c$.\n\n"
            f"$$L = -\\sum_i y_i \\ln(p_i) = {rhs}$$\n")
    r = verify_text(text, "n.md", numeric=True)
    last = [s for s in r.steps if s.kind == "claim"][-1]
    assert last.evidence is not None and last.evidence.agree is agree, last.evidence


# -- batch 51 ----------------------------------------------------------------------------

@pytest.mark.parametrize("claim,status", [("x_1 = 1", "holds"), ("x_1 = 2", "fails")])
def test_a_display_listing_the_examples_values(claim: str, status: str) -> None:
    # "x_1 = 1, \quad x_2 = -1, \quad w_1 = 2": each a value of the example (x_2 = −1 was a
    # failing claim: x had been seen); x_1's value is kept where no softmax makes x its scores
    text = ("Pick values:\n\n$$\nx_1 = 1, \\quad x_2 = -1, \\quad w_1 = 2, \\quad w_2 = 3\n$$\n\n"
            f"$$\n{claim}\n$$\n")
    r = verify_text(text, "n.md", numeric=False)
    kinds = [s.kind for s in r.steps]
    assert kinds[:4] == ["definition"] * 4
    assert _verdicts(text) == [status]


@pytest.mark.parametrize("claim", ["\\frac{\\partial L}{\\partial z} = a - y",
                                   "\\frac{\\partial L}{\\partial a} = -\\frac{1}{0.1192}"])
def test_a_derivative_beside_the_worked_examples_numbers_is_not_failed(claim: str) -> None:
    # a = σ(−2) ≈ 0.1192 and y = 1 in the example, L = −[y log a + (1 − y) log(1 − a)]
    # after them: ∂L/∂z taken of L with a's number in it is 0 — the note means the general
    # a; once a false fail, now not judged
    text = ("$$z = -2$$\n\n$$a = \\sigma(-2) = \\frac{1}{1 + e^{2}} \\approx 0.1192$$\n\n"
            "Use $y = 1$.\n\n$$L = -\\big[ y \\log(a) + (1 - y) \\log(1 - a) \\big]$$\n\n"
            f"$$\n{claim}\n$$\n")
    assert "fails" not in _verdicts(text)


@pytest.mark.parametrize("claim,status", [("\\sqrt{d_k} = 8", "holds"), ("\\sqrt{d_k} = 16", "fails")])
def test_the_dimension_given_by_named_numbers(claim: str, status: str) -> None:
    # "设 d_model = 512, h = 8；每个 head 维度：d_k = d_model/h": the example's d_k, given
    # (once a failing claim about every d_k)
    text = ("$$\\text{Var}(q \\cdot k) = d_k$$\n\n设：\n\n$$\nd_{model}=512,\\quad h=8\n$$\n\n"
            "每个head维度：\n\n$$\nd_k = \\frac{d_{model}}{h}\n$$\n\n"
            f"$$\n{claim}\n$$\n")
    r = verify_text(text, "n.md", numeric=False)
    assert [s.kind for s in r.steps if "d_{model}}{h}" in s.rhs_source] == ["definition"]
    assert _verdicts(text)[-1:] == [status]


# -- batch 52 ----------------------------------------------------------------------------

_QK = "\\begin{bmatrix} 2 & 1 \\\\ 1 & 3 \\end{bmatrix}"
_KT = "\\begin{bmatrix} 1 & 2 \\\\ 1 & 3 \\end{bmatrix}"


@pytest.mark.parametrize("claim,status", [
    # Q Kᵀ of a worked example: the product in the note's order (SymPy's Mul would sort it)
    (f"{_QK} {_KT} = \\begin{{bmatrix}} 3 & 7 \\\\ 4 & 11 \\end{{bmatrix}}", "holds"),
    (f"{_KT} {_QK} = \\begin{{bmatrix}} 3 & 7 \\\\ 4 & 11 \\end{{bmatrix}}", "fails"),
    # S/√d_k to the written decimals (3/√2 = 2.1213…)
    ("\\frac{1}{\\sqrt{2}}\\begin{bmatrix} 3 & 7 \\\\ 4 & 11 \\end{bmatrix} = "
     "\\begin{bmatrix} 2.121 & 4.950 \\\\ 2.828 & 7.778 \\end{bmatrix}", "holds"),
    ("\\frac{1}{\\sqrt{2}}\\begin{bmatrix} 3 & 7 \\\\ 4 & 11 \\end{bmatrix} = "
     "\\begin{bmatrix} 2.121 & 4.950 \\\\ 2.828 & 7.788 \\end{bmatrix}", "fails"),
    # softmax of the scaled scores: row by row, each query's weights
    ("\\text{softmax}\\left(\\begin{bmatrix} 0 & 1 \\\\ 2 & 2 \\end{bmatrix}\\right) = "
     "\\begin{bmatrix} 0.269 & 0.731 \\\\ 0.5 & 0.5 \\end{bmatrix}", "holds"),
    ("\\text{softmax}\\left(\\begin{bmatrix} 0 & 1 \\\\ 2 & 2 \\end{bmatrix}\\right) = "
     "\\begin{bmatrix} 0.731 & 0.269 \\\\ 0.5 & 0.5 \\end{bmatrix}", "fails"),
    # weights times values: a row times a column is a number; a weighted sum of columns
    ("\\begin{bmatrix} 0.3302 & 0.6698 \\end{bmatrix} \\begin{bmatrix} 10 \\\\ 20 \\end{bmatrix}"
     " = 16.698", "holds"),
    ("\\begin{bmatrix} 0.3302 & 0.6698 \\end{bmatrix} \\begin{bmatrix} 10 \\\\ 20 \\end{bmatrix}"
     " = 16.302", "fails"),
    ("0.5 \\begin{bmatrix} 2 \\\\ 0 \\end{bmatrix} + 0.25 \\begin{bmatrix} 0 \\\\ 4 \\end{bmatrix}"
     " = \\begin{bmatrix} 1 \\\\ 1 \\end{bmatrix}", "holds"),
    ("0.5 \\begin{bmatrix} 2 \\\\ 0 \\end{bmatrix} - 0.25 \\begin{bmatrix} 0 \\\\ 4 \\end{bmatrix}"
     " = \\begin{bmatrix} 1 \\\\ 1 \\end{bmatrix}", "fails"),
    # a list beside a written column: that column's entries, in its shape
    ("[1, 2] - \\begin{bmatrix} 1 \\\\ 1 \\end{bmatrix} = \\begin{bmatrix} 0 \\\\ 1 \\end{bmatrix}",
     "holds"),
    ("[1, 2] - \\begin{bmatrix} 1 \\\\ 1 \\end{bmatrix} = \\begin{bmatrix} 0 \\\\ -1 \\end{bmatrix}",
     "fails"),
    ("\\begin{bmatrix} 1 \\\\ 2 \\end{bmatrix}^T = \\begin{bmatrix} 1 & 2 \\end{bmatrix}", "holds"),
    ("\\begin{bmatrix} 1 \\\\ 2 \\end{bmatrix}^T = \\begin{bmatrix} 2 & 1 \\end{bmatrix}", "fails"),
])
def test_a_worked_examples_matrices_multiply_in_order(claim: str, status: str) -> None:
    assert _verdicts(f"# Example\n\n$$\n{claim}\n$$\n") == [status]


def test_a_wrong_entry_of_a_worked_matrix_is_named() -> None:
    # the entries within their written decimals are not the wrong one (2.121 for 3/√2 is not)
    text = ("$$\n\\frac{1}{\\sqrt{2}}\\begin{bmatrix} 3 & 7 \\\\ 4 & 11 \\end{bmatrix} = "
            "\\begin{bmatrix} 2.121 & 4.950 \\\\ 2.828 & 7.788 \\end{bmatrix}\n$$\n")
    from rich.console import Console

    from attncheck.verify.terminal import print_result

    console = Console(width=100, record=True, color_system=None)
    print_result(verify_text(text, "n.md", numeric=False), console)
    shown = console.export_text()
    assert "fails at entry (2, 2)" in shown and "counting ⋯" not in shown


@pytest.mark.parametrize("claim,problem", [
    (f"{_QK} \\begin{{bmatrix}} 1 & 2 & 3 \\end{{bmatrix}} = 0",
     "a 2×2 matrix times a 1×3 one: the shapes do not fit"),
    (f"{_QK} + \\begin{{bmatrix}} 1 & 2 & 3 \\end{{bmatrix}} = 0", "a 2×2 matrix plus a 1×3 one"),
])
def test_written_matrices_whose_shapes_do_not_fit(claim: str, problem: str) -> None:
    r = verify_text(f"$$\n{claim}\n$$\n", "n.md", numeric=False)
    assert [s.status.value for s in r.steps] == ["not-read"]
    assert problem in r.steps[0].note


def test_a_product_of_written_matrices_too_large_to_check_is_refused() -> None:
    from attncheck.verify.grid import MAX_PRODUCT_TERMS

    # a column times a row: n² multiplications from 2n entries (the longest product a
    # display's token limit lets through)
    n = int(MAX_PRODUCT_TERMS ** 0.5) + 1
    column = "\\begin{bmatrix}" + " \\\\ ".join(["1"] * n) + "\\end{bmatrix}"
    row = "\\begin{bmatrix}" + " & ".join(["1"] * n) + "\\end{bmatrix}"
    r = verify_text(f"$$\n{column} {row} = 0\n$$\n", "n.md", numeric=False)
    assert [s.status.value for s in r.steps] == ["not-read"]
    assert "too large to check" in r.steps[0].note


@pytest.mark.parametrize("value,status", [("16.698", "holds"), ("16.302", "fails")])
def test_capitals_the_note_gave_matrices_in_words_are_not_judged(value: str, status: str) -> None:
    # "Attention weights A = [0.33 0.67]" in a sentence, then A V = [..][..] = 16.7: A and V
    # are matrices whose values verify did not read — A V = 16.698 was a false fail (AV is
    # no number for general A, V); the written product beside the number is still judged
    text = ("$$\\text{Output} = A V = \\begin{bmatrix} 0.3302 & 0.6698 \\end{bmatrix} "
            "\\begin{bmatrix} 10.0 \\\\ 20.0 \\end{bmatrix} = " + value + "$$\n")
    r = verify_text(text, "n.md", numeric=False)
    named = next(s for s in r.steps if s.lhs_source.strip() == "A V")
    assert named.status.value == "not-checked" and "A, V beside a number" in named.note
    assert _verdicts(text)[-1] == status


@pytest.mark.parametrize("rhs,status", [("-\\ln(y_i)", "holds"), ("-\\ln(y_j)", "fails")])
def test_one_for_the_right_answer_names_the_class(rhs: str, status: str) -> None:
    # "simply put 0 on the wrong answers and 1 for the right answer ($t_i$)", in a bullet
    # after the display: the label is one-hot at i (−Σ_j t_j ln y_j = −ln y_i was a false fail)
    text = ("$$C = - \\sum_j t_j \\ln(y_j) = " + rhs + "$$\n\n"
            "  + $t_j$: target values\n"
            "  + simply put 0 on the wrong answers and 1 for the right answer ($t_i$)\n")
    assert _verdicts(text)[-1:] == [status]


_GITHUB_MATH = ("Given the softmax $`y_i`$ of $`x`$:\n$`\ny_i = \\frac{e^{x_i}}{\\sum_{j=1}^{n} "
                "e^{x_j}}\n`$\n\nthen, for $`k = i`$,\n\n$`\n\\begin{aligned}\n"
                "\\frac{\\partial y_i}{\\partial x_k} &= y_i - (y_i)^2 \\\\\n&= {rhs}\n"
                "\\end{aligned}\n`$\n")


@pytest.mark.parametrize("rhs,status", [("y_i(1 - y_i)", "holds"), ("y_i(1 + y_i)", "fails")])
def test_githubs_math_spans_on_lines_of_their_own(rhs: str, status: str) -> None:
    # $`…`$ over several lines, standing alone: a display on GitHub's page (all 11 steps of a
    # note were unread); inline, $`x_k`$ is inline math as before
    text = _GITHUB_MATH.replace("{rhs}", rhs)
    r = verify_text(text, "n.md", numeric=False)
    assert [s.kind for s in r.steps][:1] == ["definition"]
    assert _verdicts(text)[-1:] == [status]


def test_a_ticked_display_is_not_githubs_math() -> None:
    # `$$ … $$` in backticks (a Hugo theme's way): the closing "$$`" and the next "`$$" are
    # not one $`…`$ span across the text between them
    from attncheck.verify.blocks import _containers

    text = "`$$\na = b\n$$`\nwords\n`$$\nc = d\n$$`\n"
    assert _containers(text) == text


@pytest.mark.parametrize("rhs,status", [("d_k", "holds"), ("d_k^2", "fails")])
def test_a_component_letter_of_indexed_vectors(rhs: str, status: str) -> None:
    # q_i · k_j = Σ_l q_{il} k_{jl}: q_i is the i-th query, l numbers the components — so
    # q_l^2 is a component squared (it was ‖q_l‖², and l itself a random vector)
    text = ("点积 $q_i \\cdot k_j = \\sum_{l=1}^{d_k} q_{il} k_{jl}$。假设 $q, k$ 各分量独立且均值"
            "为 0、方差为 1：\n\n$$\n\\text{Var}(q \\cdot k) = d_k \\cdot \\text{Var}(q_l k_l) = "
            "d_k \\cdot \\mathbb{E}[q_l^2 k_l^2] = " + rhs + "\n$$\n")
    assert _verdicts(text) == ["holds", "holds", status]


@pytest.mark.parametrize("rhs,status", [("(-\\frac{y_k}{p_k}) \\cdot p_k(\\delta_{ki} - p_i)", "holds"),
                                        ("(-\\frac{y_k}{p_k}) \\cdot p_k(\\delta_{ki} + p_i)", "fails")])
def test_a_class_count_beside_the_key_matrix(rhs: str, status: str) -> None:
    # Σ_{k=1}^{K} in the softmax section, QKᵀ in the attention one: K counts the classes
    # (it was read as the key vector k, and every such sum was unread)
    text = ("$$\\text{Attention}(Q, K, V) = \\text{softmax}\\left(\\frac{QK^T}{\\sqrt{d_k}}\\right)V"
            "$$\n\n交叉熵损失 $L = -\\sum_{k=1}^{K} y_k \\log p_k$，其中 $p_k = \\frac{e^{z_k}}"
            "{\\sum_{j=1}^{K} e^{z_j}}$：\n\n$$\n\\frac{\\partial L}{\\partial z_i} = \\sum_{k=1}^{K} "
            "\\frac{\\partial L}{\\partial p_k} \\cdot \\frac{\\partial p_k}{\\partial z_i} = "
            "\\sum_{k=1}^{K} " + rhs + "\n$$\n")
    assert _verdicts(text) == ["holds", status]


@pytest.mark.parametrize("rhs,status", [("0", "holds"), ("1", "fails")])
def test_a_tick_after_a_step(rhs: str, status: str) -> None:
    assert _verdicts(f"$$\\sum_{{i}} 0 = {rhs} \\quad \\checkmark$$\n") == [status]


# -- batch 53 ----------------------------------------------------------------------------

_QKV = ("Let\n\n$$Q = \\begin{bmatrix} 1 & 0 \\\\ 0 & 1 \\end{bmatrix}, \\quad K = \\begin{bmatrix}"
        " 1 & 0 \\\\ 1 & 1 \\end{bmatrix}, \\quad V = \\begin{bmatrix} 2 & 0 \\\\ 0 & 3 "
        "\\end{bmatrix}$$\n\n$$S = \\frac{QK^T}{\\sqrt{2}}$$\n\n$$A = \\text{softmax}(S)$$\n\n"
        "$$\n{claim}\n$$\n")


@pytest.mark.parametrize("claim,status", [
    ("QK^T = \\begin{bmatrix} 1 & 1 \\\\ 0 & 1 \\end{bmatrix}", "holds"),
    ("QK^T = \\begin{bmatrix} 1 & 0 \\\\ 1 & 1 \\end{bmatrix}", "fails"),  # that is Q K, no ᵀ
    ("A = \\begin{bmatrix} 0.5 & 0.5 \\\\ 0.330 & 0.670 \\end{bmatrix}", "holds"),
    ("A = \\begin{bmatrix} 0.5 & 0.5 \\\\ 0.670 & 0.330 \\end{bmatrix}", "fails"),
    ("AV = \\begin{bmatrix} 1.0 & 1.5 \\\\ 0.66 & 2.01 \\end{bmatrix}", "holds"),
    ("VA = \\begin{bmatrix} 1.0 & 1.5 \\\\ 0.66 & 2.01 \\end{bmatrix}", "fails"),
    ("A_{21} = 0.330", "holds"),
    ("A_{12} = 0.330", "fails"),
])
def test_the_letters_of_a_worked_example_are_its_matrices(claim: str, status: str) -> None:
    # Q = […], K = […], V = […] written out, then Q Kᵀ, S, softmax(S), A V in letters: the
    # whole worked example of attention is judged (each once "K is a vector here")
    text = _QKV.replace("{claim}", claim)
    r = verify_text(text, "n.md", numeric=False)
    assert [s.kind for s in r.steps][:5] == ["definition"] * 5
    assert _verdicts(text)[-1:] == [status]


def test_a_letter_given_a_matrix_keeps_its_general_entries() -> None:
    # A = [1 2; 3 4] in an example; A_{ij} with letters is the note's general A (not read
    # as an entry of the example's matrix, never refused for it)
    text = ("$$A = \\begin{bmatrix} 1 & 2 \\\\ 3 & 4 \\end{bmatrix}$$\n\n"
            "$$\\sum_j A_{ij} = A_{i1} + A_{i2}$$\n")
    assert _verdicts(text) == ["holds"]


_WHERE = ("$$p_i = \\frac{\\exp(z_i)}{\\sum_k \\exp(z_k)}$$\n\n**Case 1: $i = j$**\n\n"
          "$$\\frac{\\partial p_i}{\\partial z_i} = \\frac{\\partial}{\\partial z_i}\\left["
          "\\frac{\\exp(z_i)}{S}\\right] \\quad \\text{where } S = \\sum_k \\exp(z_k)$$\n\n"
          "By the quotient rule:\n\n$$= {rhs}$$\n")


@pytest.mark.parametrize("rhs,status", [
    ("\\frac{\\exp(z_i) \\cdot S - \\exp(z_i) \\cdot \\exp(z_i)}{S^2}", "holds"),
    ("\\frac{\\exp(z_i) \\cdot S + \\exp(z_i) \\cdot \\exp(z_i)}{S^2}", "fails"),
])
def test_a_name_explained_after_the_step_that_uses_it(rhs: str, status: str) -> None:
    # "… \quad \text{where } S = Σ_k exp(z_k)", then "$$= …$$": the next display goes on from
    # the derivative (it went on from S's definition, a false fail), and S is the first
    # step's too (it was "unknown symbol S")
    assert _verdicts(_WHERE.replace("{rhs}", rhs)) == ["holds", status]


@pytest.mark.parametrize("rhs", ["-\\log p_y", "\\log p_y"])
def test_the_labels_letter_as_an_index_is_not_read(rhs: str) -> None:
    # "for true class $y$ (one-hot encoded)": p_y is p at the class y names; which entry that
    # is, verify does not read — neither side is judged (−log p_y once failed as −log y_y)
    text = ("Cross-entropy loss for true class $y$ (one-hot encoded):\n\n"
            f"$$\\mathcal{{L}} = -\\sum_{{i}} y_i \\log p_i = {rhs}$$\n\n"
            "where $p = \\text{softmax}(z)$.\n")
    r = verify_text(text, "n.md", numeric=False)
    step = next(s for s in r.steps if "p_y" in s.rhs_source)
    assert step.status.value == "not-checked"
    assert step.note.endswith("the name of a vector of the note: p_y")


_BOLD_CASE = ("$$a_i = \\frac{{e^{{z_i}}}}{{\\sum_k e^{{z_k}}}}$$\n\n$$l = -\\sum_i y_i \\ln a_i"
              " = -\\ln a_j$$\n\n其中只有$$y_j=1$$, 其余的$$y_i=0$$.\n\n**情况{n}**, $${case}$$\n\n"
              "这一项比较特殊, 推导如下:\n\n$$\n\\frac{{\\partial l}}{{\\partial z_i}} = "
              "-\\frac{{\\partial}}{{\\partial z_i}}\\ln a_j = {rhs}\n$$\n")


@pytest.mark.parametrize("n,case,rhs,status", [
    ("一", "i=j", "-\\frac{\\partial}{\\partial z_i}\\ln a_i", "holds"),
    ("二", "i \\ne j", "-\\frac{\\partial}{\\partial z_i}\\ln a_i", "fails"),
])
def test_a_bold_case_label_with_its_case_in_display_dollars(n: str, case: str, rhs: str,
                                                             status: str) -> None:
    # "**情况一**, $$i=j$$" (GitBook writes inline math in $$), a sentence, then the display:
    # the case is the display's (∂/∂z_i ln a_j = ∂/∂z_i ln a_i failed for want of i = j)
    text = _BOLD_CASE.format(n=n, case=case, rhs=rhs)
    assert _verdicts(text)[-1:] == [status]


@pytest.mark.parametrize("sentence,judged", [
    ("如果 $q$ 的分量之间存在相关性，则和的方差需包含协方差项。", True),
    ("$q$ 的分量之间存在相关性。", False),
])
def test_a_supposition_of_correlation_is_no_statement(sentence: str, judged: bool) -> None:
    # "如果变量之间存在相关性，则…" (if they were correlated…): the note does not say they are
    text = ("设 $q, k$ 相互独立。\n\n$$\\text{Var}\\left(\\sum_{i=1}^{d} q_i k_i\\right) = "
            "\\sum_{i=1}^{d} \\text{Var}(q_i k_i)$$\n\n" + sentence + "\n")
    assert (_verdicts(text) == ["holds"]) == judged


def test_a_number_against_a_number_is_evaluated_not_sampled() -> None:
    from rich.console import Console

    from attncheck.verify.terminal import print_result

    console = Console(width=100, record=True, color_system=None)
    print_result(verify_text("$$2 \\cdot 3 + 5 = 11$$\n", "n.md"), console)
    shown = console.export_text()
    # (it read "11 ± 0 vs 11, |z| = 0.0 ≤ 4.9 … (n = 0)": a sample of nothing)
    assert "nothing random" in shown and "n = 0" not in shown


@pytest.mark.parametrize("claim,status", [
    ("\\text{softmax}(c \\cdot [1, 0]) = \\left[\\frac{e^c}{e^c + 1}, \\frac{1}{e^c + 1}\\right]",
     "holds"),
    ("\\text{softmax}(c \\cdot [1, 0]) = \\left[\\frac{1}{e^c + 1}, \\frac{e^c}{e^c + 1}\\right]",
     "fails"),
])
def test_a_written_vector_scaled_by_a_letter(claim: str, status: str) -> None:
    assert _verdicts(f"$$\n{claim}\n$$\n") == [status]


@pytest.mark.parametrize("root,status", [("2", "holds"), ("3", "fails")])
def test_a_written_matrix_over_the_examples_dimension(root: str, status: str) -> None:
    # "其中 $d_k = 2$", then QKᵀ/√d_k = (1/√2)[…]: every entry at the example's d_k (a false
    # fail at entry (1, 1) for a general d_k)
    text = ("其中 $d_k = 2$。\n\n$$Q = \\begin{bmatrix} 1 & 0 \\\\ 0 & 1 \\end{bmatrix}$$\n\n"
            f"$$\\frac{{Q}}{{\\sqrt{{d_k}}}} = \\frac{{1}}{{\\sqrt{{{root}}}}} "
            "\\begin{bmatrix} 1 & 0 \\\\ 0 & 1 \\end{bmatrix}$$\n")
    assert _verdicts(text)[-1:] == [status]


@pytest.mark.parametrize("rhs,status", [("\\begin{bmatrix} 1 & 5 \\end{bmatrix}", "holds"),
                                        ("\\begin{bmatrix} 5 & 1 \\end{bmatrix}", "fails")])
def test_a_gradient_written_as_a_column_before_a_matrix(rhs: str, status: str) -> None:
    # ∂L/∂a ∂a/∂z with ∂L/∂a written as a column: the row it stands for (a 2×1 times a 2×2
    # has no product as written — it was refused as "the shapes do not fit")
    text = ("$$\\begin{bmatrix} 1 \\\\ 1 \\end{bmatrix} \\begin{bmatrix} 1 & 2 \\\\ 0 & 3 "
            f"\\end{{bmatrix}} = {rhs}$$\n")
    assert _verdicts(text) == [status]


@pytest.mark.parametrize("last,status", [("0.707", "holds"), ("0.717", "fails")])
def test_a_worked_chain_concludes_at_the_examples_dimension(last: str, status: str) -> None:
    # Q/√d_k = (1/√2) Q = [0.707 0; 0 0.707] after "d_k = 2": its conclusion (first = last)
    # to the written decimals at that d_k (it read "fails at entry (1, 1)" beside holding steps)
    text = ("其中 $d_k = 2$。\n\n$$Q = \\begin{bmatrix} 1 & 0 \\\\ 0 & 1 \\end{bmatrix}$$\n\n"
            "$$\\frac{Q}{\\sqrt{d_k}} = \\frac{1}{\\sqrt{2}} \\begin{bmatrix} 1 & 0 \\\\ 0 & 1 "
            "\\end{bmatrix} = \\begin{bmatrix} " + last + " & 0 \\\\ 0 & 0.707 \\end{bmatrix}$$\n")
    r = verify_text(text, "n.md", numeric=False)
    assert r.derivations[-1].conclusion.status.value.replace("holds-given", "holds") == status


# -- batch 55 ----------------------------------------------------------------------------

_HEADING_CASE = ("## 设定\n\n- Softmax：$P_i = \\frac{{e^{{z_i}}}}{{\\sum_j e^{{z_j}}}}$，记分母 "
                 "$S = \\sum_j e^{{z_j}}$\n- 损失：$\\mathcal{{L}} = -\\log P_y$，其中 $y$ 是真实类别\n\n"
                 "$$\\mathcal{{L}} = -\\log P_y = -z_y + \\log S$$\n\n"
                 "### 对错误类 $z_i$（${case}$）求偏导\n\n"
                 "$$\\frac{{\\partial \\mathcal{{L}}}}{{\\partial z_i}} = 0 + \\frac{{1}}{{S}} \\cdot "
                 "\\frac{{\\partial S}}{{\\partial z_i}}$$\n")


@pytest.mark.parametrize("case,status", [("i \\neq y", "holds"), ("i = y", "fails")])
def test_a_heading_names_the_case_against_the_class_letter(case: str, status: str) -> None:
    # "### 对错误类 $z_i$（$i \neq y$）求偏导" with y the true class: the case of the display
    # right below it (the derivative without −δ_iy failed for want of it)
    assert _verdicts(_HEADING_CASE.format(case=case))[-1:] == [status]


_WHOLE = ("$$p_i = \\frac{e^{z_i}}{\\sum_j e^{z_j}}$$\n\n$$L = -\\sum_i y_i \\log p_i$$ with $y$ "
          "one-hot.\n\n$$\\frac{\\partial L}{\\partial \\mathbf{z}} = {rhs}$$\n")


# (bold, as the note's whole vectors; an unbolded p − y stays unread beside a softmax, since
# it may be a sigmoid's scalars — see test_the_whole_gradient_in_verifys_own_letters)
@pytest.mark.parametrize("rhs,status", [("\\mathbf{p} - \\mathbf{y}", "holds"),
                                        ("\\mathbf{y} - \\mathbf{p}", "fails"),
                                        # a scalar's formula is not a vector's, entry by entry
                                        ("\\frac{\\mathbf{p} - \\mathbf{y}}{\\mathbf{p}(1 - \\mathbf{p})}",
                                         "not judged")])
def test_the_gradient_as_whole_vectors_side_by_side(rhs: str, status: str) -> None:
    verdicts = _verdicts(_WHOLE.replace("{rhs}", rhs))
    assert verdicts == [status] or (status == "not judged" and verdicts[0] in ("not-read",
                                                                               "not-checked"))


_LAYER_PARENS = ("输出层：$$a_i^{(L)} = \\frac{e^{z_i^{(L)}}}{\\sum_{j=1}^{K} e^{z_j^{(L)}}}$$\n\n"
                 "$$\\frac{\\partial a_i^{(L)}}{\\partial z_i^{(L)}} = {rhs}$$\n")


@pytest.mark.parametrize("rhs,status", [("a_i^{(L)}(1 - a_i^{(L)})", "holds"),
                                        ("a_i^{(L)}(1 + a_i^{(L)})", "fails")])
def test_a_layer_written_in_parentheses(rhs: str, status: str) -> None:
    # a_i^{(L)}, z_i^{(L)}: the output layer's softmax, its layer in parentheses (it was "a
    # power of a vector" for 𝐚^{(L)}, and ∂a_i^{(L)}/∂z_i^{(L)} was not read)
    assert _verdicts(_LAYER_PARENS.replace("{rhs}", rhs)) == [status]


def test_a_component_in_parentheses_is_not_a_layer() -> None:
    # q_i^{(l)}: the l-th component of the i-th query, never a layer label
    text = ("假设各分量独立，均值为 0，方差为 1。\n\n"
            "$$\\text{Var}(q_i \\cdot k_j) = \\sum_{l=1}^{d_k} \\text{Var}(q_i^{(l)} k_j^{(l)}) = d_k$$\n")
    assert _verdicts(text) == ["holds", "holds"]


@pytest.mark.parametrize("rhs,status", [("-y_i + \\sum_{n} y_n \\hat{y}_i", "holds"),
                                        ("-y_i + \\sum_{n} y_n \\hat{y}_n", "fails")])
def test_a_sum_over_the_letter_that_counts_the_classes(rhs: str, status: str) -> None:
    # Σ_n y_n with n also the number of classes: its index is renamed, not its own upper
    # limit (the symbolic side held while the numbers put n = 5 into the index too)
    text = ("$$\\hat{y}_i = \\frac{e^{z_i}}{\\sum_k e^{z_k}}$$\n\n"
            f"$$\\sum_{{n}} \\left( - y_n (\\delta_{{ni}} - \\hat{{y}}_i) \\right) = {rhs}$$\n")
    r = verify_text(text, "n.md")
    step = r.steps[-1]
    assert step.status.value.replace("holds-given", "holds") == status
    assert step.evidence is None or step.evidence.agree is None or \
        step.evidence.agree == (status == "holds")


# -- batch 56 --

_BOLD_SCORES = ("$$ p_i = \\frac{e^{x_i}}{\\sum_j e^{x_j}} $$\n\n"
                "$$ L(\\mathbf{p}) = - \\sum_i y_i \\log p_i $$\n\n"
                "where $\\mathbf{y}$ is a one-hot encoded vector.\n\n"
                "$$ \\frac{\\partial L}{\\partial \\mathbf{x}} = {rhs} $$\n")


@pytest.mark.parametrize("rhs,status", [("\\mathbf{p} - \\mathbf{y}", "holds"),
                                        ("\\mathbf{p} + \\mathbf{y}", "fails"),
                                        ("\\mathbf{y} - \\mathbf{p}", "fails")])
def test_the_gradient_by_bold_scores_beside_an_output_of_its_own_letter(rhs: str,
                                                                        status: str) -> None:
    # p_i = e^{x_i}/Σ_j e^{x_j}: x is verify's own letter for the scores, p the note's for the
    # output — a bold 𝐱 is still the whole scores ("softmax(…) as a whole vector against
    # something that is not one" before)
    assert _verdicts(_BOLD_SCORES.replace("{rhs}", rhs)) == [status]


_TWIN = ("$$p_i = \\frac{e^{z_i}}{\\sum_j e^{z_j}}$$\n\n"
         "$$\\frac{\\partial \\log p_i}{\\partial z_i} = 1 - p_i$$\n\n"
         "$$\\frac{\\partial \\log p_i}{\\partial z_j} = {rhs}$$\n")


@pytest.mark.parametrize("rhs,status", [
    # right for j ≠ i only, which the note leaves to the display before it (the diagonal)
    ("0 - p_j", "not-checked"),
    # wrong in either case: still a fail
    ("0 - p_i", "fails"),
    ("1 - p_j", "fails"),
    ("\\delta_{ij} - p_j", "holds"),
])
def test_the_display_after_the_diagonal_case(rhs: str, status: str) -> None:
    r = verify_text(_TWIN.replace("{rhs}", rhs), "n.md", numeric=False)
    step = [s for s in r.steps if s.kind == "claim"][-1]
    assert step.status.value.replace("holds-given", "holds") == status
    if status == "not-checked":
        assert re.search(r"holds for i ≠ j; the display before took i = j", step.note)


def test_a_lone_claim_by_another_index_still_fails() -> None:
    # no diagonal display before it: the general claim, wrong where j = i
    text = ("$$p_i = \\frac{e^{z_i}}{\\sum_j e^{z_j}}$$\n\n"
            "$$\\frac{\\partial \\log p_i}{\\partial z_j} = 0 - p_j$$\n")
    assert _claims(text) == ["fails"]


_SOFTMAX_SUB = ("**已知：** $$\\frac{\\partial l}{\\partial o_j} = "
                "\\mathrm{softmax}(\\mathbf{o})_j - y_j$$\n\n"
                "$$\\frac{\\partial \\mathrm{softmax}(\\mathbf{o})_j}{\\partial o_j} = {rhs}$$\n")


@pytest.mark.parametrize("rhs,status", [
    ("\\mathrm{softmax}_j (1 - \\mathrm{softmax}_j)", "holds"),
    ("\\mathrm{softmax}_j (1 + \\mathrm{softmax}_j)", "fails"),
    ("\\mathrm{softmax}_j - \\mathrm{softmax}_j^2", "holds"),
    ("\\mathrm{softmax}_j - \\mathrm{softmax}_j^3", "fails"),
    ("\\text{softmax}_j(\\mathbf{o})(1 - \\text{softmax}_j(\\mathbf{o}))", "holds"),
])
def test_softmax_with_its_index_below_and_no_argument(rhs: str, status: str) -> None:
    # \mathrm{softmax}_j: the output's entry j, as softmax(𝐨)_j ("softmax applies to nothing
    # here" before, and softmax_j (1 − softmax_j) a softmax of 1 − softmax_j)
    assert _verdicts(_SOFTMAX_SUB.replace("{rhs}", rhs))[-1] == status


def test_front_matter_is_no_heading() -> None:
    # Jekyll's, Hugo's and Obsidian's header: metadata, not the title of the first derivation
    text = ("---\nid: log_softmax_gradient\ntags: []\n---\n\n"
            "$$p_i = \\frac{e^{z_i}}{\\sum_j e^{z_j}}$$\n\n"
            "$$\\frac{\\partial \\log p_i}{\\partial z_i} = 1 - p_i$$\n")
    r = verify_text(text, "n.md", numeric=False)
    assert [s.status.value for s in r.steps] == ["definition", "holds"]
    assert not any("log_softmax_gradient" in d.title for d in r.derivations)


# -- batch 57 --

_SINGLED = ("$$ p_i = \\frac{e^{x_i}}{\\sum_j e^{x_j}} $$\n\n"
            "$$ L = -\\sum_k y_k \\log p_k $$\n\n"
            "$$ \\frac{\\partial L}{\\partial x_i} = {rhs} $$\n")


@pytest.mark.parametrize("rhs,status", [
    # the i-th term written in place of the general p_i y_k: y_i(p_i − 1), as the truth is
    ("p_iy_1 + p_iy_2 + \\dots + (p_iy_i - y_i) + \\dots + p_i y_n", "holds"),
    # abangfarhan's slip: p_i − y_i in its place (right only where y_i = 1)
    ("p_iy_1 + p_iy_2 + \\dots + (p_i - y_i) + \\dots + p_i y_n", "fails"),
    ("p_iy_1 + p_iy_2 + \\dots + p_i y_n - y_i", "holds"),
])
def test_a_written_out_sum_with_one_term_singled_out(rhs: str, status: str) -> None:
    assert _verdicts(_SINGLED.replace("{rhs}", rhs)) == [status]


@pytest.mark.parametrize("rhs,status", [("e^{x_k}", "holds"), ("2 e^{x_k}", "fails")])
def test_zeros_around_the_one_term_that_depends(rhs: str, status: str) -> None:
    text = ("$$ \\frac{\\partial}{\\partial x_k} \\sum_{l=1}^{n} e^{x_l} = "
            f"0 + 0 + \\cdots + e^{{x_k}} + \\cdots + 0 + 0 = {rhs} $$\n")
    assert _verdicts(text) == ["holds", status]


def test_a_singled_out_term_whose_index_is_not_said_is_not_read() -> None:
    # e^{x_k} y_j in the middle of p_i y_1 + ⋯: at k or at j? refused by name, not guessed
    text = _SINGLED.replace("{rhs}", "p_iy_1 + p_iy_2 + \\dots + e^{x_k} p_j + \\dots + p_i y_n")
    r = verify_text(text, "n.md", numeric=False)
    step = [s for s in r.steps if s.kind == "claim"][-1]
    assert step.status.value == "not-read"
    assert re.search(r"at which index its singled-out term stands", step.note)


_ONE_HOT_J = ("我们不妨假设第j个类别是正确的，只有$y_j=1$，其余$y_i=0$，则 $L=-\\ln a_j$。\n\n"
              "$$ a_i = \\frac{e^{z_i}}{\\sum_k e^{z_k}} $$\n\n$$ {claim} $$\n")


@pytest.mark.parametrize("claim,status", [
    ("\\frac{\\partial L}{\\partial a} = [0,0,0,\\cdots,-\\frac{1}{a_j},\\cdots,0]", "holds"),
    ("\\frac{\\partial L}{\\partial a} = [0,0,0,\\cdots,\\frac{1}{a_j},\\cdots,0]", "fails"),
    ("\\frac{\\partial L}{\\partial z} = [a_1,a_2,\\cdots,a_j-1,\\cdots,a_n]", "holds"),
    ("\\frac{\\partial L}{\\partial z} = [a_1,a_2,\\cdots,a_j+1,\\cdots,a_n]", "fails"),
    ("\\frac{\\partial L}{\\partial z} = [a_1,a_2,\\cdots,a_n]", "fails"),
])
def test_a_written_out_vector_with_one_entry_singled_out(claim: str, status: str) -> None:
    # the gradient by the whole output a (or scores z), against the vector written with ⋯
    assert _verdicts(_ONE_HOT_J.replace("{claim}", claim)) == [status]


def test_a_vector_named_by_its_own_entries_defines_nothing() -> None:
    # "For $z = [z_1, \ldots, z_m]$" in the real note: z (the scores, as S is) is what it was —
    # S = QKᵀ, unread in the words, stays open to the worked example's matrix below it
    from pathlib import Path

    note = Path(__file__).with_name("corpus") / "en" / "sdpa-span-course-why-sqrt-dk.md"
    r = verify(str(note), numeric=False)
    at = {s.location.line: s.status.value for s in r.steps if s.kind == "claim"}
    assert at[114] == "holds"


@pytest.mark.parametrize("entry,status", [("0.3", "holds"), ("0.4", "fails")])
def test_tex_comments_inside_a_matrix(entry: str, status: str) -> None:
    # "0.2 & 0.5 \\  % The": the token's word after %, a comment to the line's end
    text = ("$$\nX = \\begin{bmatrix}\n0.2 & 0.5 \\\\  % The\n0.9 & 0.3 \\\\  % cat\n"
            "\\end{bmatrix}\n$$\n\n$$\nX_{22} = {e}\n$$\n").replace("{e}", entry)
    r = verify_text(text, "n.md", numeric=False)
    assert not r.problems
    assert [s.status.value for s in r.steps if s.kind == "claim"] == [status]


@pytest.mark.parametrize("mark", ['"', ".", "。", "，"])
def test_a_closing_display_with_a_mark_after_it(mark: str) -> None:
    # "$$\"" closed the display for MathJax; for the Markdown plugin (blank lines allowed in a
    # display) it did not, and every later pair of $$ went out of step
    text = (f"$$\nV = 3\n$${mark}\n\n---\n\n## 5\n\nwords\n\n$$\nS = V + 1\n$$\n\n"
            "more $S$ words.\n\n$$\nS - 1 = 3\n$$\n\n$$\nS - 1 = 2\n$$\n")
    r = verify_text(text, "n.md", numeric=False)
    assert not r.problems
    assert [s.status.value for s in r.steps if s.kind == "claim"] == ["holds", "fails"]


@pytest.mark.parametrize("claim,status", [
    # rounded terms of the exact products (0.2385 → 0.239, 0.2139 → 0.214): their sum may be a
    # unit off the exact one the note writes (1.2174 → 1.217)
    ("0.510 + 0.239 + 0.255 + 0.214 = 1.217", "holds"),
    ("0.510 + 0.239 + 0.255 + 0.214 = 1.215", "fails"),
    # a given entry against a value a whole unit off: no rounding makes 0.3 into 0.4
    ("X_{22} = 0.4", "fails"),
    ("X_{22} = 0.3", "holds"),
])
def test_a_unit_in_the_last_place(claim: str, status: str) -> None:
    text = ("$$ X = \\begin{bmatrix} 0.2 & 0.5 \\\\ 0.9 & 0.3 \\end{bmatrix} $$\n\n"
            f"$$ {claim} $$\n")
    assert _claims(text) == [status]


@pytest.mark.parametrize("given,claim,status", [
    ("logits $\\mathbf{z} = (2.0, 1.0, 0.1)$", "\\hat{y}_1 = \\frac{7.389}{11.212}", "holds"),
    ("logits $\\mathbf{z} = (2.0, 1.0, 0.1)$", "\\hat{y}_1 = \\frac{7.389}{12.212}", "fails"),
    ("输入向量 $\\mathbf{z} = [2.0, 1.0, 0.1]^T$", "e^{z_2} = e^{1.0}", "holds"),
    ("输入向量 $\\mathbf{z} = [2.0, 1.0, 0.1]^T$", "e^{z_2} = e^{2.0}", "fails"),
])
def test_a_worked_examples_bold_scores_in_the_words(given: str, claim: str, status: str) -> None:
    # the scores' values in bold inline math: the example's, for the displays after it
    text = (f"Compute softmax for {given}:\n\n"
            "$$ \\hat{y}_i = \\frac{e^{z_i}}{\\sum_j e^{z_j}} $$\n\n"
            f"$$ {claim} $$\n")
    assert _verdicts(text) == [status]


# -- batch 58 --

@pytest.mark.parametrize("rhs,status", [("0", "holds"), ("1", "fails"), ("d_k", "fails")])
def test_a_moment_in_a_letter_verify_did_not_read(rhs: str, status: str) -> None:
    # beside test_a_binomial_mean_in_the_real_note (a letter verify did not read, not judged):
    # numbers and the dimension are still judged either way
    text = ("设 $q$, $k$ 的分量相互独立，均值为 0，方差为 1。\n\n"
            f"$$ \\sum_{{i=1}}^{{d_k}} E[q_i] = {rhs} $$\n")
    assert _verdicts(text) == [status]


def test_a_binomial_mean_in_the_real_note() -> None:
    # prob-stats (batch 58): X_i Bernoulli(p) in the words; the standardisation's N(0, 1) (Z's
    # law, after "则") and "Z 的期望为 0" (a goal) once made X's mean 0: "= 0, not pn"
    from pathlib import Path

    note = Path(__file__).with_name("corpus") / "zh" / "prob-stats-ml-binomial-var-logreg-grad.md"
    r = verify(str(note), numeric=False)
    at = {(s.location.line, s.rhs_source.strip()): s for s in r.steps if s.kind == "claim"}
    for line, rhs in ((35, "np"), (36, "np(1-p)")):
        step = at[(line, rhs)]
        assert step.status.value == "not-checked"
        assert step.note.startswith("cannot check: p — verify did not read")


_STANDARDISE = ("**标准化**：如果 $X \\sim \\mathcal{N}(\\mu, \\sigma^2)$，则 "
                "$Z = \\frac{X-\\mu}{\\sigma} \\sim \\mathcal{N}(0, 1)$，即标准正态分布。\n\n"
                "**推导**：让我们验证标准化后的随机变量 $Z$ 的期望为 0，方差为 1。")


def test_a_law_after_then_is_the_consequences() -> None:
    from attncheck.verify.prose import read_assumptions

    found = [str(f.hypothesis) for f in read_assumptions(_STANDARDISE, ("X", "w"))]
    assert "E(X_i) = 0" not in found and "Var(X_i) = 1" not in found
    # a supposition whose "then" is the lecture's own result keeps its premises
    lemma = ("If the components of q and k are independent random variables with mean 0 and "
             "variance 1, then their dot product has mean 0 and variance d_k.")
    assert {"q ⟂ k", "E(q_i) = 0", "Var(k_i) = 1"} <= {
        str(f.hypothesis) for f in read_assumptions(lemma, ("q", "k"))}
    # the capitals of the families (Q, K) are the families
    said = "假设 $Q$ 和 $K$ 的各个元素是独立的随机变量，均值为 0，方差为 1。"
    assert "E(q_i) = 0" in {str(f.hypothesis) for f in read_assumptions(said, ("q", "k"))}


_TEACHER = ("由于 teacher 分布 $q$ 不依赖于 student 参数：\n\n"
            "$$ p_j = \\frac{e^{z_j}}{\\sum_k e^{z_k}} $$\n\n"
            "$$ \\ell = -\\sum_v q_v \\log p_v $$\n\n"
            "$$ \\frac{\\partial \\ell}{\\partial z_j} = {rhs} $$\n")


@pytest.mark.parametrize("rhs,status", [("p_j - q_j", "holds"), ("q_j - p_j", "fails")])
def test_the_teachers_distribution_sums_to_one(rhs: str, status: str) -> None:
    # forward KL's gradient p_j − q_j needs Σ q = 1: "teacher 分布 q" says so
    assert _verdicts(_TEACHER.replace("{rhs}", rhs)) == [status]


@pytest.mark.parametrize("math,lost", [
    ("\\text{Var}\\left( rac{q \\cdot k}{\\sqrt{d_k}} \\right) = 1", "frac"),
    ("\text{Var}(q \\cdot k) = d_k", "text"),   # a tab, then "ext": the string's \t
    ("a \\left( b \right) = a b", "right"),       # a carriage return, then "ight"
])
def test_a_macro_whose_backslash_a_string_escape_took(math: str, lost: str) -> None:
    # LaTeX kept in a string without its backslashes doubled: \f, \t, \r took them — said by
    # name, never read as the letters r·a·c (which once failed "rac{d_k}{d_k} = 1")
    r = verify_text(f"$$ {math} $$\n", "n.md", numeric=False)
    assert not [s for s in r.steps if s.kind == "claim" and s.status.judged]
    assert any(re.search(rf"looks like \\{lost} with its backslash and first letter lost",
                         p.text) for p in r.problems)


def test_letters_that_only_end_like_a_macro_are_letters() -> None:
    # "ext" not before a brace, "rac" in a longer word: the letters as they are
    assert _claims("$$ e x t = ext $$\n") == ["holds"]


# -- batch 59 --

def test_an_error_term_named_by_a_word_does_not_stop_the_file() -> None:
    # "$\delta_{\text{true}} = 0.999 - 1$" in the words: once an IndexException that stopped
    # the whole file; now a name of its own, and the display after it is checked
    text = ("用硬标签时 $\\delta_{\\text{true}} = 0.999 - 1 = -0.001$。\n\n"
            "$$ \\frac{\\partial \\log \\pi(v)}{\\partial z_k} = \\delta_{vk} - \\pi(k) $$\n\n"
            "$$ p_i = \\frac{e^{z_i}}{\\sum_j e^{z_j}} $$\n\n"
            "$$ \\frac{\\partial \\log p_i}{\\partial z_k} = \\delta_{ik} - p_k $$\n")
    assert _claims(text)[-1] == "holds"


@pytest.mark.parametrize("rhs,status", [("\\ln\\Big(1 + \\frac{1}{e}\\Big)", "holds"),
                                        ("\\ln\\Big(1 + \\frac{2}{e}\\Big)", "fails")])
def test_a_worked_examples_numbers_equal_as_numbers(rhs: str, status: str) -> None:
    # at the example's scores, −ln(e/(e + 1)) and ln(1 + 1/e) are one number written two ways
    # (compared as written, they "failed")
    text = ("Logits $\\mathbf{z} = (1000, 999, 998)$.\n\n"
            f"$$ -\\ln\\frac{{e}}{{e + 1}} = {rhs} $$\n")
    assert _claims(text) == [status]


_TWO_LOSSES = ("$$\\hat{p} = \\sigma(z) = \\frac{1}{1 + \\exp(-z)}$$\n\n"
               "$$L_{BCE} = -[y \\ln(\\hat{p}) + (1-y) \\ln(1-\\hat{p})]$$\n\n"
               "#### Multiclass\n\n"
               "$$p_i(\\mathbf{z}) = \\frac{\\exp(z_i)}{\\sum_{j=1}^{K} \\exp(z_j)}$$\n\n"
               "The label $\\mathbf{y}$ is one-hot. If the true class is indexed by $c$, then "
               "$y_c=1$ and all other $y_k=0$.\n\n"
               "$$L_{CE} = -\\sum_{k=1}^{K} y_k \\ln(p_k)$$\n\n"
               "$$\\frac{\\partial L_{CE}}{\\partial z_i} = {rhs}$$\n")


@pytest.mark.parametrize("rhs,status", [("p_i - y_i", "holds"), ("y_i - p_i", "fails")])
def test_two_losses_labelled_by_acronyms(rhs: str, status: str) -> None:
    # L_{BCE} and L_{CE}: the labels B, C, E were read as indices of one L (and E as the
    # note's loss letter), so L_CE's gradient was the sigmoid's loss
    assert _verdicts(_TWO_LOSSES.replace("{rhs}", rhs))[-1] == status


def test_the_true_class_indexed_by_a_letter() -> None:
    from attncheck.verify.chains import CORRECT_CLASS

    m = CORRECT_CLASS.search("If the true class is indexed by $c$, then $y_c=1$.")
    assert m and "c" in m.groups()
    assert not CORRECT_CLASS.search("the true class is indexed by $c_1$ here")


# -- batch 60 --

_RELU = ("### Softmax: $s_i = e^{z_i} / \\sum_j e^{z_j}$\n\n"
         "$$ s_i = \\frac{e^{z_i}}{\\sum_j e^{z_j}} $$\n\n"
         "$$ L = -\\sum_i y_i \\log s_i $$\n\n"
         "### ReLU: $y_i = \\max(0, x_i)$\n\n"
         "$$\\frac{\\partial L}{\\partial x_i} = \\begin{cases} {a} & \\text{if } x_i > 0 \\\\ "
         "{b} & \\text{otherwise} \\end{cases}$$\n")


@pytest.mark.parametrize("a,b", [("\\partial L / \\partial y_i", "0"), ("1", "1")])
def test_a_case_on_a_real_value_is_not_applied(a: str, b: str) -> None:
    # ReLU's derivative by cases on x_i > 0: neither branch is judged as if for every x_i
    # (both failed, with the note's L and x taken for the softmax's), right or wrong
    r = verify_text(_RELU.replace("{a}", a).replace("{b}", b), "n.md", numeric=False)
    steps = [s for s in r.steps if s.kind == "claim"][-2:]
    assert [s.status.value for s in steps] == ["not-checked", "not-checked"]
    assert "a case on a real value (x_i > 0)" in steps[0].note
    assert "'otherwise' after a case verify does not apply" in steps[1].note


def test_an_otherwise_after_an_index_case_still_is_one() -> None:
    text = ("$$ p_i = \\frac{e^{z_i}}{\\sum_k e^{z_k}} $$\n\n$$\\frac{\\partial p_i}{\\partial z_j} "
            "= \\begin{cases} p_i(1-p_i) & \\text{if } i = j \\\\ {b} & \\text{otherwise} "
            "\\end{cases}$$\n")
    assert _verdicts(text.replace("{b}", "-p_i p_j")) == ["holds", "holds"]
    assert _verdicts(text.replace("{b}", "p_i p_j")) == ["holds", "fails"]


_DOTTED = ("$$ S_i = \\frac{e^{z_i}}{\\sum_k e^{z_k}} $$\n\n$$\n\\left[\\begin{matrix}\n"
           "\\frac{\\partial S_1}{\\partial z_1} & \\frac{\\partial S_1}{\\partial z_2} & \\cdots "
           "& \\frac{\\partial S_1}{\\partial z_n}\\\\\n"
           "\\vdots & \\vdots & \\ddots & \\vdots \\\\\n"
           "\\frac{\\partial S_n}{\\partial z_1} & \\frac{\\partial S_n}{\\partial z_2} & \\cdots "
           "& \\frac{\\partial S_n}{\\partial z_n}\\\\\n\\end{matrix}\\right]\n=\n"
           "\\left[\\begin{matrix}\nS_1(1 - S_1) & -S_1S_2 & \\cdots & {e}\\\\\n"
           "\\vdots & \\vdots & \\ddots & \\vdots \\\\\n"
           "-S_nS_1 & -S_nS_2 & \\cdots & S_n(1 - S_n)\\\\\n\\end{matrix}\\right]\n$$\n")


@pytest.mark.parametrize("entry,status", [("-S_1S_n", "holds"), ("-S_1S_1", "fails")])
def test_two_written_matrices_with_dots(entry: str, status: str) -> None:
    # ∂S_1/∂z_n against −S_1 S_n: n is the last of the written rows and columns, never 1 (a
    # general n might be, and the step "failed at entry (1, 4)")
    assert _verdicts(_DOTTED.replace("{e}", entry)) == [status]
