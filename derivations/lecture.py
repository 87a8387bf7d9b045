"""The lecture's derivations about q·k, written as the notes write them, and their wrong twins.

The lecture model leaves everything open that the notes assume: q_i and k_i may be
dependent, have any means and variances and any law.  The hypotheses are declared
as the notes declare them, and the checker finds which step needs which.

>>> v = var_qk_single().check()
>>> [s.status.value for s in v.steps]
['holds in general', 'holds given', 'holds given', 'holds in general', 'holds given']
"""

from __future__ import annotations

from sympy import Expr, Integer, Sum, sqrt

from derivations.checking import INDEX, Derivation, Step
from derivations.hypotheses import DistributedAs, Hypothesis, Independent, MeanIs, VarianceIs
from derivations.model import Family, Model, dimension_symbol
from derivations.operators import Dot, E, Var

__all__ = [
    "D_K",
    "LECTURE",
    "TEXTBOOK",
    "claim",
    "e_dot",
    "lecture_derivations",
    "var_dot",
    "var_qk_single",
    "var_scaled_dot",
]

#: The key dimension d_k of the notes.
D_K = dimension_symbol("d_k")
Q, K = Family("q"), Family("k")
#: Moments-only q and k that may be dependent at the same index: the notes' assumptions
#: are hypotheses to be found, not built into the model.
LECTURE = Model((Q, K), dim=D_K, dependent=(("q", "k"),))
#: What the notes assume: zero means, unit variances, q ⟂ k.
TEXTBOOK: tuple[Hypothesis, ...] = (
    MeanIs("q"),
    MeanIs("k"),
    VarianceIs("q"),
    VarianceIs("k"),
    Independent("q", "k"),
)

q, k, i = Q.base, K.base, INDEX


def _sum(body: Expr) -> Sum:
    return Sum(body, (i, 1, D_K))


def claim(
    title: str,
    lhs: Expr,
    rhs: Expr,
    hypotheses: tuple[Hypothesis, ...] = TEXTBOOK,
    model: Model = LECTURE,
) -> Derivation:
    """A one-step derivation ``lhs = rhs``: how catalogue results and wrong twins are stated."""
    return Derivation(title, model, hypotheses, (Step(lhs), Step(rhs, "claimed")))


def var_qk_single() -> Derivation:
    """Var(q_i k_i) = 1, the notes' chain, including its step that needs both means zero."""
    Eq_, Ek = E(q[i] ** 2), E(k[i] ** 2)
    mq2, mk2 = E(q[i]) ** 2, E(k[i]) ** 2
    return Derivation(
        "Var(q_i k_i) = 1",
        LECTURE,
        TEXTBOOK,
        (
            Step(Var(q[i] * k[i])),
            Step(E(q[i] ** 2 * k[i] ** 2) - E(q[i] * k[i]) ** 2, "Var(X) = E(X²) − E²(X)"),
            Step(Eq_ * Ek - mq2 * mk2, "q_i and k_i independent"),
            Step((Eq_ - mq2) * (Ek - mk2) - mq2 * mk2, "regroup"),
            Step(Var(q[i]) * Var(k[i]) - mq2 * mk2, "Var(X) = E(X²) − E²(X)"),
            Step(Integer(1), "unit variances, zero means"),
        ),
    )


def e_dot() -> Derivation:
    """E(q·k) = 0."""
    return Derivation(
        "E(q·k) = 0",
        LECTURE,
        TEXTBOOK,
        (
            Step(E(Dot(q, k))),
            Step(E(_sum(q[i] * k[i])), "definition of the dot product"),
            Step(_sum(E(q[i] * k[i])), "linearity of E"),
            Step(_sum(E(q[i]) * E(k[i])), "q_i and k_i independent"),
            Step(Integer(0), "zero means"),
        ),
    )


def var_dot() -> Derivation:
    """Var(q·k) = d_k."""
    return Derivation(
        "Var(q·k) = d_k",
        LECTURE,
        TEXTBOOK,
        (
            Step(Var(Dot(q, k))),
            Step(Var(_sum(q[i] * k[i])), "definition of the dot product"),
            Step(_sum(Var(q[i] * k[i])), "terms with distinct i are independent"),
            Step(
                _sum(E(q[i] ** 2) * E(k[i] ** 2) - E(q[i]) ** 2 * E(k[i]) ** 2),
                "q_i and k_i independent",
            ),
            Step(_sum(Var(q[i]) * Var(k[i])), "zero means: E(X²) = Var(X)"),
            Step(_sum(Integer(1)), "unit variances"),
            Step(D_K, "Σ_{i=1}^{d_k} 1 = d_k"),
        ),
    )


def var_scaled_dot() -> Derivation:
    """Var(q·k/√d_k) = 1."""
    return Derivation(
        "Var(q·k/√d_k) = 1",
        LECTURE,
        TEXTBOOK,
        (
            Step(Var(Dot(q, k) / sqrt(D_K))),
            Step(Var(Dot(q, k)) / D_K, "Var(aX) = a² Var(X)"),
            Step(D_K / D_K, "Var(q·k) = d_k"),
            Step(Integer(1), "cancel"),
        ),
    )


def lecture_derivations() -> tuple[Derivation, ...]:
    return (var_qk_single(), e_dot(), var_dot(), var_scaled_dot())


_ = DistributedAs  # re-exported for catalogue authors via derivations.hypotheses
