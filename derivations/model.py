"""The Model: which symbols are random, how they are distributed, and their moments.

A Model declares i.i.d. *families* of random components over an index of length d
(q_i, k_i for i = 1..d).  Components with different indices are independent; two
families at the *same* index are independent too unless the pair is declared
``dependent`` (then a correlation ρ and, for non-Gaussian pairs, symbolic mixed
moments appear).  Each family is ``X_i = μ_X + σ_X Z_i`` with Z standardized; the
distribution fixes Z's higher moments (normal: (n−1)!!, uniform, Rademacher) or
leaves them symbolic ("moments": skewness γ, kurtosis κ, m_n beyond).

The symbolic and the numeric side read the same Model: the numeric side samples
Z from ``Family.dist`` and maps it through μ and σ.

>>> m = Model((Family("q", "normal"), Family("k")))
>>> m.joint_moment((("q", 2),))
mu_q**2 + sigma_q**2
>>> Family("q", "normal").standardized_moment(4), Family("k").standardized_moment(4)
(3, kappa_k)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Iterable, Literal, Mapping

from sympy import (
    Expr,
    Function,
    IndexedBase,
    Integer,
    Rational,
    Symbol,
    binomial,
    expand,
    factorial2,
    sqrt,
)

from derivations.errors import InvalidModel

__all__ = [
    "DISTRIBUTIONS",
    "Family",
    "MixedMoment",
    "Model",
    "StdMoment",
    "dimension_symbol",
]

Distribution = Literal["moments", "normal", "uniform", "rademacher"]
DISTRIBUTIONS: tuple[str, ...] = ("moments", "normal", "uniform", "rademacher")


def dimension_symbol(name: str = "d") -> Symbol:
    """The symbol for a vector length: a positive integer, so Σ_{i=1}^{d} 1 = d."""
    return Symbol(name, integer=True, positive=True)


class StdMoment(Function):
    """E[Z^n] of a family's standardized component, left symbolic in a moments-only model.

    Printed as γ_q (n = 3, skewness), κ_q (n = 4, kurtosis) or m_{q,n}.
    """

    nargs = 2
    is_real = True

    def _eval_is_positive(self) -> bool | None:
        return True if int(self.args[1]) % 2 == 0 else None

    def _sympystr(self, printer: object) -> str:
        name, n = self.args
        return {3: f"gamma_{name}", 4: f"kappa_{name}"}.get(int(n), f"m{n}_{name}")

    def _latex(self, printer: object) -> str:
        name, n = self.args
        return {3: rf"\gamma_{{{name}}}", 4: rf"\kappa_{{{name}}}"}.get(
            int(n), rf"m_{{{name},{n}}}"
        )


class MixedMoment(Function):
    """E[Z_a^m Z_b^n] of a dependent, non-Gaussian pair of standardized components."""

    nargs = 4
    is_real = True

    def _sympystr(self, printer: object) -> str:
        a, b, m, n = self.args
        return f"E[Z_{a}^{m} Z_{b}^{n}]"

    def _latex(self, printer: object) -> str:
        a, b, m, n = self.args
        return rf"\mathbb{{E}}[Z_{{{a}}}^{{{m}}} Z_{{{b}}}^{{{n}}}]"


@dataclass(frozen=True)
class Family:
    """An i.i.d. family of random components X_1, …, X_d, X_i = μ + σ Z_i.

    ``dist`` names the law of Z: "moments" (only mean and variance are known),
    "normal", "uniform" (on [−√3, √3]) or "rademacher" (±1).
    """

    name: str
    dist: Distribution = "moments"

    def __post_init__(self) -> None:
        if not self.name.isidentifier():
            raise InvalidModel(f"family name {self.name!r} is not an identifier")
        if self.dist not in DISTRIBUTIONS:
            raise InvalidModel(
                f"family {self.name}: unknown distribution {self.dist!r}; "
                f"expected one of {', '.join(DISTRIBUTIONS)}"
            )

    @property
    def base(self) -> IndexedBase:
        return IndexedBase(self.name)

    @property
    def mean(self) -> Symbol:
        return Symbol(f"mu_{self.name}", real=True)

    @property
    def std(self) -> Symbol:
        return Symbol(f"sigma_{self.name}", positive=True)

    def __getitem__(self, index: object) -> Expr:
        return self.base[index]

    def standardized_moment(self, n: int) -> Expr:
        """E[Z^n] for this family's law (Z has mean 0 and variance 1)."""
        if n < 0:
            raise InvalidModel(f"moment order must be ≥ 0, got {n}")
        if n <= 2:
            return Integer((1, 0, 1)[n])
        if self.dist == "moments":
            return StdMoment(Symbol(self.name), n)
        if n % 2:  # the three named laws are symmetric about 0
            return Integer(0)
        if self.dist == "normal":
            return factorial2(n - 1)
        if self.dist == "uniform":  # Z ~ U(−√3, √3): E Z^n = 3^{n/2} / (n + 1)
            return Rational(3 ** (n // 2), n + 1)
        return Integer(1)  # Rademacher


@dataclass(frozen=True)
class Model:
    """Random families over i = 1..dim, with the same-index pairs that may be dependent.

    >>> Model((Family("q"), Family("k")), dependent=(("q", "k"),)).rho("q", "k")
    rho_qk
    """

    families: tuple[Family, ...]
    dim: Symbol = field(default_factory=dimension_symbol)
    dependent: tuple[tuple[str, str], ...] = ()

    def __post_init__(self) -> None:
        names = [f.name for f in self.families]
        if not names:
            raise InvalidModel("a Model needs at least one random family")
        if len(set(names)) != len(names):
            raise InvalidModel(f"duplicate family names in {names}")
        if not (self.dim.is_integer and self.dim.is_positive):
            raise InvalidModel(f"dimension {self.dim} must be a positive integer symbol")
        seen: set[str] = set()
        for a, b in self.dependent:
            for n in (a, b):
                if n not in names:
                    raise InvalidModel(f"dependent pair ({a}, {b}): unknown family {n!r}")
            if a == b or a in seen or b in seen:
                raise InvalidModel(
                    f"dependent pair ({a}, {b}): each family may be in one pair with another"
                )
            seen.update((a, b))

    # -- lookup ---------------------------------------------------------------
    def family(self, name: str) -> Family:
        for f in self.families:
            if f.name == name:
                return f
        raise InvalidModel(f"unknown random family {name!r}; the model has "
                           f"{', '.join(f.name for f in self.families)}")

    def is_random_base(self, base: IndexedBase) -> bool:
        return any(f.name == str(base.label) for f in self.families)

    def partner(self, name: str) -> str | None:
        for a, b in self.dependent:
            if name in (a, b):
                return b if name == a else a
        return None

    def rho(self, a: str, b: str) -> Symbol:
        """Correlation of the pair (a_i, b_i) — a symbol only for a declared dependent pair."""
        pair = (a, b) if (a, b) in self.dependent else (b, a)
        if pair not in self.dependent:
            raise InvalidModel(f"families {a} and {b} are independent in this model")
        return Symbol(f"rho_{pair[0]}{pair[1]}", real=True)

    def parameters(self) -> tuple[Symbol, ...]:
        """The free symbols a point must fix: dimension, means, standard deviations, ρ."""
        out: list[Symbol] = [self.dim]
        for f in self.families:
            out += [f.mean, f.std]
        out += [self.rho(a, b) for a, b in self.dependent]
        return tuple(out)

    # -- moments ----------------------------------------------------------------
    def joint_moment(self, powers: Iterable[tuple[str, int]]) -> Expr:
        """E[Π_f X_{f,i}^{n_f}] at one index i (all factors share the index).

        >>> Model((Family("q"), Family("k"))).joint_moment((("q", 1), ("k", 1)))
        mu_k*mu_q
        """
        key = tuple(sorted((n, p) for n, p in powers if p))
        return _joint_moment(self, key)

    def standardized_mixed(self, powers: Mapping[str, int]) -> Expr:
        """E[Π_f Z_f^{n_f}] of standardized components at one index."""
        powers = {name: n for name, n in powers.items() if n}
        result: Expr = Integer(1)
        done: set[str] = set()
        for name, n in powers.items():
            if name in done:
                continue
            other = self.partner(name)
            m = powers.get(other, 0) if other else 0
            if other is None or m == 0:
                result *= self.family(name).standardized_moment(n)
                done.add(name)
                continue
            result *= self._pair_moment(name, n, other, m)
            done.update((name, other))
        return result

    def _pair_moment(self, a: str, m: int, b: str, n: int) -> Expr:
        fa, fb = self.family(a), self.family(b)
        rho = self.rho(a, b)
        if fa.dist == fb.dist == "normal":
            # Z_b = ρ Z_a + √(1−ρ²) W with W ⟂ Z_a, both standard normal.
            s = sqrt(1 - rho**2)
            total = sum(
                binomial(n, j) * rho**j * s ** (n - j)
                * fa.standardized_moment(m + j) * fb.standardized_moment(n - j)
                for j in range(n + 1)
            )
            return expand(total)
        if m == n == 1:
            return rho
        first, second = (a, b) if (a, b) in self.dependent else (b, a)
        p, r = (m, n) if first == a else (n, m)
        return MixedMoment(Symbol(first), Symbol(second), Integer(p), Integer(r))


@lru_cache(maxsize=4096)
def _joint_moment(model: Model, key: tuple[tuple[str, int], ...]) -> Expr:
    # X = μ + σZ, so E[Π X_f^{n_f}] = Σ_{j ≤ n} Π C(n_f, j_f) μ_f^{n_f−j_f} σ_f^{j_f} · E[Π Z_f^{j_f}].
    terms: list[tuple[Expr, dict[str, int]]] = [(Integer(1), {})]
    for name, n in key:
        fam = model.family(name)
        terms = [
            (c * binomial(n, j) * fam.mean ** (n - j) * fam.std**j, {**pw, name: j})
            for c, pw in terms
            for j in range(n + 1)
        ]
    return expand(sum(c * model.standardized_mixed(pw) for c, pw in terms))
