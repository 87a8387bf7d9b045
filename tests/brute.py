"""An independent route to expectations: concrete d, explicit expansion, sympy.stats moments.

It shares nothing with the engine's partition counting or its moment expansion:
the sum is written out for a concrete d, expanded into monomials in q_1..q_d,
k_1..k_d, and each monomial's expectation is the product of raw moments that
sympy.stats computes for each (independent) component's law.
"""

from __future__ import annotations

from functools import lru_cache

from sympy import Expr, Indexed, Integer, Poly, Rational, Symbol, expand, sqrt
from sympy.stats import FiniteRV, Normal, Uniform, moment

from derivations import Family


@lru_cache(maxsize=None)
def raw_moment(name: str, dist: str, n: int) -> Expr:
    fam = Family(name, dist)  # type: ignore[arg-type]
    mu, s = fam.mean, fam.std
    if dist == "normal":
        rv = Normal(f"X_{name}", mu, s)
    elif dist == "uniform":
        rv = Uniform(f"X_{name}", mu - sqrt(3) * s, mu + sqrt(3) * s)
    elif dist == "rademacher":
        rv = FiniteRV(f"X_{name}", {mu - s: Rational(1, 2), mu + s: Rational(1, 2)})
    else:
        raise ValueError(dist)
    return expand(moment(rv, n))


def brute_expectation(expr: Expr, dists: dict[str, str]) -> Expr:
    """E[expr] for a polynomial in concrete components q[1], k[2] … of independent families."""
    expr = expand(expr.doit())
    atoms = sorted(
        (a for a in expr.atoms(Indexed) if str(a.base.label) in dists), key=str
    )
    if not atoms:
        return expr
    total: Expr = Integer(0)
    for powers, coeff in Poly(expr, *atoms).terms():
        term = coeff
        for atom, p in zip(atoms, powers):
            if p:
                term *= raw_moment(str(atom.base.label), dists[str(atom.base.label)], p)
        total += term
    return expand(total)


def concrete(expr: Expr, dim: Symbol, n: int) -> Expr:
    return expr.subs(dim, n)
