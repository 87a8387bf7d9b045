r"""Forms the eleventh corpus batch met on first contact, each read in general: a vector the
note never defines (the upstream gradient grad_i, g_i) beside the softmax, a softmax named
as a function S(x_i) used twice in one product, ….  Each true reading has a wrong twin that
must be rejected (or, where the note's meaning cannot be read, is not judged at all)."""

from __future__ import annotations

import pytest

from attncheck.verify import verify_text


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
