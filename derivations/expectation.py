"""The expectation engine: exact E, Var and Cov of polynomials in i.i.d. components, for symbolic d.

An expression is expanded into terms ``c · Σ_{j_1..j_m} Π X_{f,idx}^{n}``; the
expectation of one term sums, over the set partitions of its index slots (summation
indices and fixed indices such as i, j or 3), the number of index assignments with
exactly that pattern of equalities times the product of single-index joint moments
(components with distinct indices are independent).  A partition with c blocks of
summation indices only, beside f blocks holding a fixed index, counts
(d − f)(d − f − 1)…(d − f − c + 1); fixed indices in one block contribute δ_ij and
in distinct blocks (1 − δ_ij).

sympy.stats cannot do this: it has no i.i.d. families, and reuses one symbol for
every q_i, so ``variance(Sum(Q*K, (i, 1, d)))`` comes out as d².

>>> from sympy import Symbol, Sum
>>> from derivations.model import Family, Model
>>> from derivations.operators import Dot, Var
>>> m = Model((Family("q"), Family("k")))
>>> q, k = m.family("q").base, m.family("k").base
>>> evaluate(Var(Dot(q, k)), m)
d*mu_k**2*sigma_q**2 + d*mu_q**2*sigma_k**2 + d*sigma_k**2*sigma_q**2
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from itertools import combinations

from sympy import (
    Add,
    Dummy,
    Expr,
    Indexed,
    Integer,
    KroneckerDelta,
    Mul,
    Pow,
    Sum,
    Symbol,
    expand,
    ff,
)
from sympy.utilities.iterables import multiset_partitions

from derivations.errors import ExpressionTooLarge, UnsupportedExpression
from derivations.model import Model
from derivations.operators import Cov, Dot, E, Var

__all__ = ["evaluate", "expectation", "is_random", "MAX_TERMS", "MAX_POWER"]

#: Expanded terms allowed in one expectation: E[(Σ q_i k_i)^8] needs 1; a product of
#: a few sums of a few terms stays far below.  Beyond it the caller gets an error, not a hang.
MAX_TERMS = 20_000
#: Largest integer power of a random expression the engine expands.
MAX_POWER = 16
#: Index slots in one term: set partitions grow as the Bell numbers (B_10 = 115 975).
MAX_SLOTS = 10

Factors = tuple[tuple[str, Expr, int], ...]  # (family, index, power), sorted


@dataclass(frozen=True)
class _Term:
    coeff: Expr
    dummies: tuple[Dummy, ...]
    factors: Factors


def is_random(expr: Expr, model: Model) -> bool:
    """True when expr involves a random component of the model outside E/Var/Cov."""
    if isinstance(expr, (E, Var, Cov)):
        return False
    if isinstance(expr, Dot):
        return True
    if isinstance(expr, Indexed):
        return model.is_random_base(expr.base)
    return any(is_random(a, model) for a in expr.args)


def _merge(a: Factors, b: Factors) -> Factors:
    c: Counter[tuple[str, Expr]] = Counter()
    for name, idx, p in a + b:
        c[(name, idx)] += p
    return tuple(sorted(((n, i, p) for (n, i), p in c.items()), key=str))


def _times(xs: list[_Term], ys: list[_Term]) -> list[_Term]:
    if len(xs) * len(ys) > MAX_TERMS:
        raise ExpressionTooLarge(
            f"expanding this product needs {len(xs) * len(ys)} terms (limit {MAX_TERMS})"
        )
    return [
        _Term(x.coeff * y.coeff, x.dummies + y.dummies, _merge(x.factors, y.factors))
        for x in xs
        for y in ys
    ]


def _terms(expr: Expr, model: Model) -> list[_Term]:
    """Expand a random polynomial into terms; every Sum gets a fresh dummy index."""
    if not is_random(expr, model):
        return [_Term(expr, (), ())]
    if isinstance(expr, Add):
        out = [t for a in expr.args for t in _terms(a, model)]
        if len(out) > MAX_TERMS:
            raise ExpressionTooLarge(f"expression has more than {MAX_TERMS} terms")
        return out
    if isinstance(expr, Mul):
        out = [_Term(Integer(1), (), ())]
        for a in expr.args:
            out = _times(out, _terms(a, model))
        return out
    if isinstance(expr, Pow):
        base, n = expr.args
        if not (n.is_Integer and 0 <= int(n) <= MAX_POWER):
            if n.is_Integer and int(n) > MAX_POWER:
                raise ExpressionTooLarge(
                    f"power {n} of a random expression exceeds the limit {MAX_POWER}"
                )
            raise UnsupportedExpression(
                f"E of ({base})^({n}): only non-negative integer powers of random "
                "expressions have a value in terms of moments"
            )
        out = [_Term(Integer(1), (), ())]
        for _ in range(int(n)):
            out = _times(out, _terms(base, model))  # fresh dummies for each copy
        return out
    if isinstance(expr, Indexed):
        if len(expr.indices) != 1:
            raise UnsupportedExpression(f"{expr}: random components take exactly one index")
        return [_Term(Integer(1), (), ((str(expr.base.label), expr.indices[0], 1),))]
    if isinstance(expr, Dot):
        a, b = expr.vectors
        j = Dummy("j", integer=True, positive=True)
        return _terms(Sum(a[j] * b[j], (j, 1, model.dim)), model)
    if isinstance(expr, Sum):
        return _sum_terms(expr, model)
    raise UnsupportedExpression(
        f"E of {expr}: the engine evaluates polynomials in random components and their sums"
    )


def _sum_terms(expr: Sum, model: Model) -> list[_Term]:
    body = expr.function
    dummies: list[Dummy] = []
    for var, lo, hi in expr.limits:
        if lo != 1 or hi != model.dim:
            raise UnsupportedExpression(
                f"sum over {var} from {lo} to {hi}: random sums must run over 1..{model.dim}"
            )
        fresh = Dummy(str(var), integer=True, positive=True)
        body = body.xreplace({var: fresh})
        dummies.append(fresh)
    return [
        _Term(t.coeff, tuple(dummies) + t.dummies, t.factors) for t in _terms(body, model)
    ]


def _term_expectation(term: _Term, model: Model) -> Expr:
    d = model.dim
    slots_with_factors = {idx for _, idx, _ in term.factors}
    for idx in slots_with_factors:
        if not (idx.is_Symbol or idx.is_Integer):
            raise UnsupportedExpression(
                f"index {idx}: indices must be single symbols or integers"
            )
    # A summation index that no factor uses sums to d whatever the others do.
    free_dummies = [j for j in term.dummies if j not in slots_with_factors]
    summed = [j for j in term.dummies if j in slots_with_factors]
    fixed = sorted(slots_with_factors - set(summed), key=str)
    slots = fixed + summed
    if len(slots) > MAX_SLOTS:
        raise ExpressionTooLarge(f"a term with {len(slots)} distinct indices (limit {MAX_SLOTS})")
    by_slot: dict[Expr, list[tuple[str, int]]] = {}
    for name, idx, p in term.factors:
        by_slot.setdefault(idx, []).append((name, p))

    total: Expr = Integer(0)
    summed_set = set(summed)
    for blocks in multiset_partitions(slots) if slots else [[]]:
        weight: Expr = Integer(1)
        fixed_reps: list[Expr] = []
        n_summed_blocks = 0
        impossible = False
        for block in blocks:
            fx = [s for s in block if s not in summed_set]
            if not fx:
                n_summed_blocks += 1
            else:
                ints = {s for s in fx if s.is_Integer}
                if len(ints) > 1:
                    impossible = True
                    break
                for a in fx[1:]:
                    weight *= KroneckerDelta(fx[0], a)
                fixed_reps.append(fx[0])
            powers: Counter[str] = Counter()
            for s in block:
                for name, p in by_slot.get(s, []):
                    powers[name] += p
            weight *= model.joint_moment(tuple(powers.items()))
        if impossible or weight == 0:
            continue
        for a, b in combinations(fixed_reps, 2):
            weight *= 1 - KroneckerDelta(a, b)
        total += weight * ff(d - len(fixed_reps), n_summed_blocks)
    return term.coeff * d ** len(free_dummies) * total


def _canonical(expr: Expr) -> Expr:
    out = expand(expr)
    # δ_ij^n = δ_ij: expand leaves powers of KroneckerDelta from (1 − δ)δ products.
    out = out.replace(
        lambda e: isinstance(e, Pow) and isinstance(e.base, KroneckerDelta),
        lambda e: e.base,
    )
    return expand(out)


def expectation(expr: Expr, model: Model) -> Expr:
    """E[expr] for an expression whose operators have already been evaluated.

    >>> from derivations.model import Family, Model
    >>> m = Model((Family("q", "normal"),))
    >>> q = m.family("q").base
    >>> i, j = Symbol("i", integer=True), Symbol("j", integer=True)
    >>> expectation(q[i] * q[j], m)
    mu_q**2 + sigma_q**2*KroneckerDelta(i, j)
    """
    total = sum((_term_expectation(t, model) for t in _terms(expr, model)), Integer(0))
    return _canonical(total)


def evaluate(expr: Expr, model: Model) -> Expr:
    """Replace every E, Var and Cov in expr by its exact value in the model.

    Sums left without random components are carried out (Σ_{i=1}^{d} c = d c), so a
    chain's ``Σ_i E(q_i k_i)`` evaluates like ``E(Σ_i q_i k_i)``.  Random components
    outside any operator stay as they are.
    """
    if not expr.args or isinstance(expr, (Symbol, Indexed, Dot)):
        return expr
    args = [evaluate(a, model) for a in expr.args]
    if isinstance(expr, E):
        return expectation(args[0], model)
    if isinstance(expr, Var):
        x = args[0]
        return _canonical(expectation(x**2, model) - expectation(x, model) ** 2)
    if isinstance(expr, Cov):
        x, y = args
        return _canonical(
            expectation(x * y, model) - expectation(x, model) * expectation(y, model)
        )
    out = expr.func(*args)
    if isinstance(out, Sum) and not is_random(out, model):
        out = _canonical(out.doit())
    return out
