"""The expectation engine against pinned results and against an independent brute-force route."""

from __future__ import annotations

import random

import pytest
from brute import brute_expectation
from sympy import (
    Expr,
    IndexedBase,
    Integer,
    KroneckerDelta,
    Sum,
    Symbol,
    exp,
    expand,
    sqrt,
    symbols,
)

from derivations import (
    INDEX,
    Cov,
    Dot,
    E,
    ExpressionTooLarge,
    Family,
    InvalidModel,
    Model,
    UnsupportedExpression,
    Var,
    dimension_symbol,
    evaluate,
)
from derivations.model import StdMoment

d = dimension_symbol("d")
q, k = IndexedBase("q"), IndexedBase("k")
i, j = INDEX, Symbol("j", integer=True, positive=True)
mq, mk = Family("q").mean, Family("k").mean
sq, sk = Family("q").std, Family("k").std
kq, kk = StdMoment(Symbol("q"), 4), StdMoment(Symbol("k"), 4)


def model(dist: str = "moments", dependent: bool = False) -> Model:
    return Model(
        (Family("q", dist), Family("k", dist)),  # type: ignore[arg-type]
        dim=d,
        dependent=(("q", "k"),) if dependent else (),
    )


STANDARD = {mq: 0, mk: 0, sq: 1, sk: 1}
rho = model(dependent=True).rho("q", "k")
var_general = d * (sq**2 * sk**2 + mq**2 * sk**2 + mk**2 * sq**2)


@pytest.mark.parametrize(
    ("name", "expr", "dist", "dependent", "standard", "expected", "wrong"),
    [
        ("E(q·k)", E(Dot(q, k)), "moments", False, False, d * mq * mk, d),
        ("E(q·k), correlated", E(Dot(q, k)), "moments", True, False,
         d * mq * mk + d * rho * sq * sk, d * mq * mk),
        ("E(q·k), zero means", E(Dot(q, k)), "moments", False, True, Integer(0), d),
        ("Var(q·k)", Var(Dot(q, k)), "moments", False, False, var_general, d * sq**2 * sk**2),
        ("Var(q·k), textbook", Var(Dot(q, k)), "moments", False, True, d, sqrt(d)),
        ("Var(q·k/√d), textbook", Var(Dot(q, k) / sqrt(d)), "moments", False, True, Integer(1), 1 / d),
        ("Var(q·k/√d)", Var(Dot(q, k) / sqrt(d)), "moments", False, False, var_general / d, sq**2 * sk**2),
        ("Var(q·k), Gaussian ρ", Var(Dot(q, k)), "normal", True, False,
         d * (sq**2 * sk**2 * (1 + rho**2) + mq**2 * sk**2 + mk**2 * sq**2 + 2 * rho * mq * mk * sq * sk),
         var_general),
        ("E[(q·k)^4], Gaussian", E(Dot(q, k) ** 4), "normal", False, True, 3 * d**2 + 6 * d, 3 * d**2),
        ("Var((q·k)^2), Gaussian", Var(Dot(q, k) ** 2), "normal", False, True, 2 * d**2 + 6 * d, 2 * d**2),
        ("E[(q·k)^4], moments", E(Dot(q, k) ** 4), "moments", False, True,
         d * kq * kk + 3 * d * (d - 1), 3 * d**2 + 6 * d),
        ("Var((q·k)^2), moments", Var(Dot(q, k) ** 2), "moments", False, True,
         d * kq * kk + 3 * d * (d - 1) - d**2, 2 * d**2 + 6 * d),
        ("E[(q·k)^4], uniform", E(Dot(q, k) ** 4), "uniform", False, True,
         d * Integer(81) / 25 + 3 * d * (d - 1), 3 * d**2 + 6 * d),
        ("E[(q·k)^4], Rademacher", E(Dot(q, k) ** 4), "rademacher", False, True,
         d + 3 * d * (d - 1), 3 * d**2 + 6 * d),
        ("Var(q·k), uniform", Var(Dot(q, k)), "uniform", False, True, d, d**2),
        ("Var(q·k), Rademacher", Var(Dot(q, k)), "rademacher", False, True, d, d**2),
        ("Cov(q_i, q_j)", Cov(q[i], q[j]), "moments", False, False,
         sq**2 * KroneckerDelta(i, j), sq**2),
    ],
)
def test_pinned_results_and_their_wrong_twins(
    name: str, expr: Expr, dist: str, dependent: bool, standard: bool, expected: Expr, wrong: Expr
) -> None:
    got = evaluate(expr, model(dist, dependent))
    if standard:
        got = got.subs(STANDARD)
    assert expand(got - expected) == 0, f"{name}: engine {got}, expected {expected}"
    assert expand(got - wrong) != 0, f"{name}: the wrong twin {wrong} was not told apart"


@pytest.mark.parametrize("dist", ["normal", "uniform", "rademacher"])
@pytest.mark.parametrize("n", [1, 2, 3, 4])
@pytest.mark.parametrize(
    "expr",
    [E(Dot(q, k)), Var(Dot(q, k)), E(Dot(q, k) ** 3), E(Dot(q, k) ** 4), Var(Dot(q, q) + Dot(q, k))],
    ids=["E", "Var", "E3", "E4", "Var-qq-qk"],
)
def test_general_d_matches_concrete_d_expansion(expr: Expr, n: int, dist: str) -> None:
    m = model(dist)
    general = evaluate(expr, m).subs(d, n)
    arg = expr.args[0].replace(lambda e: isinstance(e, Dot), lambda e: Sum(e.args[0][j] * e.args[1][j], (j, 1, n)))
    dists = {"q": dist, "k": dist}
    if isinstance(expr, Var):
        brute = brute_expectation(arg**2, dists) - brute_expectation(arg, dists) ** 2
    else:
        brute = brute_expectation(arg, dists)
    assert expand(general - brute) == 0, f"symbolic: {general}  brute force d={n}: {brute}"


def _random_polynomial(rng: random.Random) -> Expr:
    """Sums over j, fixed components q_1, k_2 and a free index i, mixed at random."""
    atoms = [q[j], k[j], q[1], k[2], q[i]]
    terms = []
    for _ in range(rng.randint(1, 3)):
        mono = Integer(rng.randint(-3, 3) or 1)
        for _ in range(rng.randint(1, 3)):
            mono *= rng.choice(atoms)
        if mono.has(j):
            mono = Sum(mono, (j, 1, d))
        terms.append(mono)
    return sum(terms, Integer(0))


@pytest.mark.parametrize("seed", range(12))
def test_random_polynomials_agree_with_brute_force(seed: int) -> None:
    rng = random.Random(seed)
    x = _random_polynomial(rng)
    power = rng.choice([1, 2])
    m = model("normal")
    n, i_value = 3, 3  # concrete d, and a value for the free index distinct from 1 and 2
    general = evaluate(E(x**power), m).subs({d: n}).subs(i, i_value)
    brute = brute_expectation((x**power).subs(d, n).subs(i, i_value), {"q": "normal", "k": "normal"})
    assert expand(general - brute) == 0, f"{x}^{power}: symbolic {general}  brute {brute}"


def test_free_indices_give_kronecker_deltas() -> None:
    got = evaluate(E(q[i] * q[j] * k[i] * k[j]), model("normal")).subs(STANDARD)
    assert expand(got - KroneckerDelta(i, j)) == 0


def test_sympy_stats_pitfall_is_avoided() -> None:
    # sympy.stats reuses one symbol for every q_i, so Var(Σ q_i k_i) comes out d²; ours is d.
    assert evaluate(Var(Dot(q, k)), model("normal")).subs(STANDARD) == d


@pytest.mark.parametrize(
    ("expr", "error", "match"),
    [
        (E(exp(q[i])), UnsupportedExpression, "polynomials"),
        (E(1 / q[i]), UnsupportedExpression, "non-negative integer powers"),
        (E((q[i] + k[i]) ** 100000), ExpressionTooLarge, "power 100000"),
        (E(Sum(q[j], (j, 0, d))), UnsupportedExpression, "must run over 1..d"),
        (E(Sum(q[j], (j, 1, 5))), UnsupportedExpression, "must run over 1..d"),
        (E(q[i + 1]), UnsupportedExpression, "single symbols or integers"),
    ],
)
def test_unsupported_expressions_get_clear_errors(expr: Expr, error: type, match: str) -> None:
    with pytest.raises(error, match=match):
        evaluate(expr, model())


@pytest.mark.parametrize(
    ("build", "match"),
    [
        (lambda: Family("q", "cauchy"), "unknown distribution 'cauchy'"),
        (lambda: Family("2q"), "not an identifier"),
        (lambda: Model(()), "at least one random family"),
        (lambda: Model((Family("q"), Family("q"))), "duplicate family"),
        (lambda: Model((Family("q"),), dim=Symbol("n")), "positive integer"),
        (lambda: Model((Family("q"),), dim=symbols("n", integer=True, negative=True)), "positive integer"),
        (lambda: Model((Family("q"),), dependent=(("q", "v"),)), "unknown family 'v'"),
        (lambda: model().rho("q", "k"), "independent in this model"),
    ],
)
def test_invalid_models_are_refused(build: object, match: str) -> None:
    with pytest.raises(InvalidModel, match=match):
        build()  # type: ignore[operator]
