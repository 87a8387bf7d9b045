"""Symbolic and numeric sides agree on every catalogue result, and reject every wrong twin.

For each result (E, Var, scaled Var, the general μ/σ/ρ forms, the fourth moments) at
d ∈ {1, 2, 7, 64, 512}, for normal, uniform and Rademacher components, with zero and
non-zero means: the exact value from the expectation engine must agree with a Monte
Carlo estimate (two-sided test, false-fail rate α = 1e-6 per check), and each wrong twin
must be rejected by the *same* estimate wherever the twin is farther from the truth
than 1.5 × the smallest error the test catches with probability 0.999.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Callable

import numpy as np
import pytest
from sympy import Expr, sqrt

from derivations import Dot, E, Family, MeanIs, Model, Var, VarianceIs, evaluate
from derivations.lecture import D_K
from numeric import Comparison, Estimate, compare, judge, point_for

ALPHA = 1e-6
d = D_K
q, k = Family("q").base, Family("k").base


@dataclass(frozen=True)
class Result:
    name: str
    expr: Expr
    #: wrong twins as functions of the true value, the variance of q·k and d
    twins: dict[str, Callable[[Expr, Expr], Expr]]
    #: Relative error each check must catch w.p. 0.999: the twins sit 20% or more
    #: from the truth wherever they can be told apart at all.
    detect: float = 0.1
    #: Eighth moments at d = 512 cost ten times those at 64 and add nothing new.
    max_dim: int = 512


RESULTS = [
    Result("E(q·k)", E(Dot(q, k)), {"= d_k": lambda t, v: d, "d dropped": lambda t, v: t / d}),
    Result("Var(q·k)", Var(Dot(q, k)), {"= √(Var)": lambda t, v: sqrt(t), "= Var²": lambda t, v: t**2}),
    Result("Var(q·k/√d_k)", Var(Dot(q, k) / sqrt(d)), {"divided by d_k²": lambda t, v: t / d}),
    Result("E[(q·k)⁴]", E(Dot(q, k) ** 4), {"= 3 Var² (Gaussian score)": lambda t, v: 3 * v**2}, max_dim=64),
    Result("Var((q·k)²)", Var(Dot(q, k) ** 2), {"= 2 Var² (Gaussian score)": lambda t, v: 2 * v**2}, max_dim=64),
]
DIMS = [1, 2, 7, 64, 512]
LAWS = ["normal", "uniform", "rademacher"]


def _cases() -> list[tuple[Result, int, str, bool]]:
    out = []
    for r in RESULTS:
        for dim in DIMS:
            if dim > r.max_dim:
                continue
            for law in LAWS:
                for zero_means in (True, False):
                    out.append((r, dim, law, zero_means))
    return out


CASES = _cases()
REJECTED: Counter[str] = Counter()
_cache: dict[tuple[str, str], Estimate] = {}


def _model(law: str) -> Model:
    return Model((Family("q", law), Family("k", law)), dim=D_K)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("result", "dim", "law", "zero_means"),
    CASES,
    ids=[f"{r.name}-d{dim}-{law}-{'mean0' if z else 'mean≠0'}" for r, dim, law, z in CASES],
)
def test_symbolic_and_numeric_agree_and_twins_are_rejected(
    result: Result, dim: int, law: str, zero_means: bool
) -> None:
    model = _model(law)
    hyps = (MeanIs("q"), MeanIs("k"), VarianceIs("q"), VarianceIs("k")) if zero_means else ()
    point = point_for(model, hyps, d=dim)
    truth = evaluate(result.expr, model)
    var = evaluate(Var(Dot(q, k)), model)
    seed = np.random.SeedSequence([2026, CASES.index((result, dim, law, zero_means))])
    c = compare(result.expr, truth, point, seed=seed, alpha=ALPHA, detect=result.detect, cache=_cache)
    assert c.agree, f"{result.name} at {point.describe()}: {c}"
    for name, twin in result.twins.items():
        if _twin_rejected(c, point.value(twin(truth, var)), f"{result.name} {name}"):
            REJECTED[f"{result.name} {name}"] += 1


def _twin_rejected(c: Comparison, wrong: float, label: str) -> bool:
    """Assert the twin is rejected where the test can resolve it; say whether it could.

    Only a twin farther from the truth than 1.5 × the error caught with probability
    0.999 is asserted: nearer ones (√d = d at d = 1) are beyond any fixed sample size.
    """
    if abs(wrong - c.reference) <= 1.5 * c.min_detectable * c.estimate.scale:
        return False
    w = judge(c.estimate, wrong, c.point, alpha=ALPHA, scale=c.estimate.scale)
    assert not w.agree, f"wrong twin {label} accepted: {w}"
    return True


def test_every_wrong_twin_was_rejected_somewhere() -> None:
    # Runs after the matrix above (pytest keeps file order): each twin must have been
    # far enough from the truth, at some point, to be tested and rejected.
    expected = {f"{r.name} {n}" for r in RESULTS for n in r.twins}
    missing = expected - set(REJECTED)
    assert not missing, f"twins never rejected: {missing}"


@pytest.mark.parametrize("dim", [2, 64])
def test_correlated_gaussian_forms_agree(dim: int) -> None:
    resolved = 0
    model = Model((Family("q", "normal"), Family("k", "normal")), dim=D_K, dependent=(("q", "k"),))
    point = point_for(model, d=dim)
    for expr in (E(Dot(q, k)), Var(Dot(q, k))):
        truth = evaluate(expr, model)
        c = compare(expr, truth, point, seed=dim, alpha=ALPHA, detect=0.1)
        assert c.agree, f"{expr} at {point.describe()}: {c}"
        no_rho = point.value(truth.subs(model.rho("q", "k"), 0))
        resolved += _twin_rejected(c, no_rho, f"{expr} without ρ")
    assert resolved, "neither ρ-free twin was far enough to test"
