"""The rule a checked step uses, named from its two sides and the hypotheses it needed.

A lecturer says why a step holds in a few words: linearity of E, independence
(E(XY) = E(X)E(Y)), Var(X) = E(X²) − E(X)², the variance of an independent sum,
regrouping with zero means, Σ_i δ_ij f_i = f_j, the quotient rule, the chain rule,
Σ_k t_k = 1, a definition substituted … :func:`name_rule` finds those words for a
step ``lhs = rhs`` that the checker has already decided: it tries *rewrites* — each
one a rule applied everywhere it fits, to both sides — alone and then in pairs, and
names the first that makes the two sides the same polynomial (with E(·), Var(·),
Σ, ∂ kept as opaque atoms).  It never decides whether a step holds; the checker
does.  A step that no rule or pair of rules explains gets :attr:`Rule.UNKNOWN`.

:func:`explain_failure` says what the right-hand side of a failing step should be
(the engine's value of the left side under the declared hypotheses) and the
smallest set of further hypotheses that would make the step hold.

Inputs are deliberately plain — the two sides (as written or evaluated), the
minimal hypothesis sets of the verdict, the Model — so a reader of a user's notes
can call it for every step.  Rules are ids; their words (zh, en) live with the
application (attncheck/i18n.py).

>>> from sympy import Sum
>>> from derivations.lecture import LECTURE, q, k, i, D_K
>>> from derivations.operators import E, Dot
>>> name_rule(E(Sum(q[i] * k[i], (i, 1, D_K))), Sum(E(q[i] * k[i]), (i, 1, D_K)), model=LECTURE).rules
(<Rule.LINEARITY_E: 'linearity of expectation'>,)
>>> name_rule(E(q[i] * k[i]), E(q[i]) * E(k[i]), model=LECTURE).rules
(<Rule.INDEPENDENCE: 'independence'>,)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from enum import Enum
from functools import lru_cache
from itertools import combinations

from sympy import (
    Add,
    Derivative,
    Dummy,
    Eq,
    Expr,
    Indexed,
    IndexedBase,
    Integer,
    KroneckerDelta,
    Mul,
    Pow,
    Sum,
    Symbol,
    exp,
    expand,
    factor,
    log,
)

from derivations.checking import StepVerdict, apply_hypotheses, is_zero
from derivations.errors import DerivationError
from derivations.expectation import evaluate, is_random
from derivations.hypotheses import INDEX, Hypothesis, Independent, MeanIs, VarianceIs
from derivations.model import Model
from derivations.operators import Cov, Dot, E, Var

__all__ = ["Failure", "Rule", "RuleUse", "explain_failure", "explain_verdict", "name_rule"]


class Rule(Enum):
    """What a step does, as a teacher names it (the value is the plain English name)."""

    ALGEBRA = "simplify"
    EXPAND = "expand"
    FACTOR = "factor"
    CANCEL = "cancel"
    DEFINITION = "definition"
    LINEARITY_E = "linearity of expectation"
    INDEPENDENCE = "independence"
    VARIANCE_FORMULA = "variance formula"
    VARIANCE_OF_SUM = "variance of an independent sum"
    VARIANCE_SCALING = "scaling of the variance"
    REGROUP = "regroup"
    ZERO_MEANS = "zero means"
    UNIT_VARIANCES = "unit variances"
    HYPOTHESES = "the hypotheses"
    PREVIOUS_RESULT = "previous result"
    SUM_OF_CONSTANT = "sum of a constant"
    SUM_DELTA = "sum with a Kronecker delta"
    TARGETS_SUM_TO_ONE = "targets sum to one"
    SOFTMAX_SUMS_TO_ONE = "softmax sums to one"
    LINEARITY_D = "linearity of the derivative"
    QUOTIENT_RULE = "quotient rule"
    CHAIN_RULE = "chain rule"
    JACOBIAN = "softmax Jacobian"
    UNKNOWN = "unknown"


@dataclass(frozen=True)
class RuleUse:
    """The rules of one step (in the order they apply), the hypotheses it used, and —
    for :attr:`Rule.PREVIOUS_RESULT` — the result it used, e.g. Var(q·k) = d_k."""

    rules: tuple[Rule, ...]
    hypotheses: frozenset[Hypothesis] = frozenset()
    fact: Eq | None = None

    @property
    def known(self) -> bool:
        return bool(self.rules) and Rule.UNKNOWN not in self.rules


# -- the softmax vocabulary (the conventions of derivations.softmax, spelled here so that this
#    module does not depend on where the softmax checker lives) ----------------------------------
_X, _Y, _T = IndexedBase("x"), IndexedBase("y"), IndexedBase("t")
_L = Symbol("L")
_K = Symbol("k", integer=True, positive=True)
_N = Symbol("n", integer=True, positive=True)
_S = Dummy("S", positive=True)  # Σ_k e^{x_k} while a side is rewritten in y


def _is(e: Expr, base: IndexedBase) -> bool:
    return isinstance(e, Indexed) and e.base == base


# -- equality with operators as opaque atoms --------------------------------------------------
def _split_sums(expr: Expr) -> Expr:
    """Σ over an Add splits and factors free of the index come out; Σ of 0 is 0 (innermost first)."""

    def one(s: Sum) -> Expr:
        if len(s.limits) != 1:
            return s
        (var, lo, hi), body = s.limits[0], expand(s.function)
        out: Expr = Integer(0)
        for term in Add.make_args(body):
            inside = [f for f in Mul.make_args(term) if f.has(var)]
            outside = Mul(*[f for f in Mul.make_args(term) if not f.has(var)])
            out += outside * (Sum(Mul(*inside), (var, lo, hi)) if inside else Sum(1, (var, lo, hi)))
        return out

    return expr.replace(lambda e: isinstance(e, Sum), one)


def _bound_names(expr: Expr) -> Expr:
    """Summation indices renamed by nesting depth, so Σ_j q_j k_j and Σ_i q_i k_i compare equal."""

    def walk(e: Expr, depth: int) -> Expr:
        if not e.args:
            return e
        if isinstance(e, Sum) and len(e.limits) == 1:
            var, lo, hi = e.limits[0]
            fresh = Symbol(f"_s{depth}", integer=True, positive=True)
            return Sum(walk(e.function.xreplace({var: fresh}), depth + 1), (fresh, lo, hi))
        return e.func(*[walk(a, depth) for a in e.args])

    return walk(expr, 0)


def _canon(expr: Expr) -> Expr:
    out = expand(_split_sums(expand(expr)))
    out = out.replace(lambda e: isinstance(e, (E, Var)), lambda e: e.func(expand(e.args[0])))
    out = out.replace(lambda e: isinstance(e, Pow) and isinstance(e.base, KroneckerDelta), lambda e: e.base)
    return expand(_bound_names(out))


def _same(a: Expr, b: Expr) -> bool:
    try:
        return bool(expand(_canon(a) - _canon(b)) == 0)
    except (TypeError, ValueError, RecursionError):
        return False


# -- the rewrites -----------------------------------------------------------------------------
Rewrite = Callable[[Expr], Expr]


@dataclass(frozen=True)
class _Context:
    model: Model | None
    used: frozenset[Hypothesis]

    def random(self, e: Expr) -> bool:
        if self.model is not None:
            return is_random(e, self.model)
        if isinstance(e, (E, Var, Cov)):
            return False
        if isinstance(e, Dot):
            return True
        if isinstance(e, Indexed):
            return e.base not in (_X, _Y, _T)
        return any(self.random(a) for a in e.args)


def _split_constant(e: Expr, ctx: _Context) -> tuple[Expr, Expr]:
    """e = c · X with c the non-random factors."""
    const = [f for f in Mul.make_args(e) if not ctx.random(f)]
    rest = [f for f in Mul.make_args(e) if ctx.random(f)]
    return Mul(*const), Mul(*rest)


def _definitions(ctx: _Context) -> Rewrite:
    dim = ctx.model.dim if ctx.model is not None else None

    def run(e: Expr) -> Expr:
        if dim is not None:
            e = e.replace(lambda u: isinstance(u, Dot),
                          lambda u: Sum(u.vectors[0][INDEX] * u.vectors[1][INDEX], (INDEX, 1, dim)))
        # y_a = e^{x_a}/Σ_k e^{x_k}: both sides in y and S = Σ_k e^{x_k}
        e = e.xreplace({Sum(exp(_X[_K]), (_K, 1, _N)): _S})
        e = e.replace(lambda u: isinstance(u, exp) and _is(u.args[0], _X), lambda u: _Y[u.args[0].indices[0]] * _S)
        return e.xreplace({_L: -Sum(_T[_K] * log(_Y[_K]), (_K, 1, _N))})

    return run


def _variance_scaling(ctx: _Context) -> Rewrite:
    def one(v: Var) -> Expr:
        c, x = _split_constant(expand(v.args[0]) if not v.args[0].is_Add else v.args[0], ctx)
        return c**2 * Var(x) if c != 1 else v

    return lambda e: e.replace(lambda u: isinstance(u, Var), one)


def _variance_of_sum(ctx: _Context) -> Rewrite:
    def one(v: Var) -> Expr:
        a = v.args[0]
        if isinstance(a, Sum):
            return Sum(Var(a.function), *a.limits)
        if isinstance(a, Add):
            return Add(*[Var(t) for t in a.args])
        return v

    return lambda e: e.replace(lambda u: isinstance(u, Var), one)


def _variance_formula(ctx: _Context) -> Rewrite:
    def run(e: Expr) -> Expr:
        e = e.replace(lambda u: isinstance(u, Var), lambda u: E(u.args[0] ** 2) - E(u.args[0]) ** 2)
        return e.replace(lambda u: isinstance(u, Cov),
                         lambda u: E(u.args[0] * u.args[1]) - E(u.args[0]) * E(u.args[1]))

    return run


def _linearity_e(ctx: _Context) -> Rewrite:
    def one(u: E) -> Expr:
        a = expand(u.args[0])
        if isinstance(a, Sum):
            return Sum(E(a.function), *a.limits)
        if isinstance(a, Add):
            return Add(*[one(E(t)) for t in a.args])
        c, x = _split_constant(a, ctx)
        return c * (E(x) if x != 1 else Integer(1))

    return lambda e: e.replace(lambda u: isinstance(u, E), one)


def _independence(ctx: _Context) -> Rewrite:
    def family(f: Expr) -> str:
        names = sorted(str(b.label) for b in f.atoms(IndexedBase))
        return ",".join(names)

    def one(u: E) -> Expr:
        groups: dict[str, list[Expr]] = {}
        for f in Mul.make_args(expand(u.args[0])):
            groups.setdefault(family(f), []).append(f)
        if len(groups) < 2:
            return u
        return Mul(*[E(Mul(*fs)) if k else Mul(*fs) for k, fs in groups.items()])

    return lambda e: e.replace(lambda u: isinstance(u, E), one)


def _sum_of_constant(ctx: _Context) -> Rewrite:
    return lambda e: e.replace(
        lambda u: isinstance(u, Sum) and len(u.limits) == 1 and not u.function.has(u.limits[0][0]),
        lambda u: (u.limits[0][2] - u.limits[0][1] + 1) * u.function)


def _sum_delta(ctx: _Context) -> Rewrite:
    def one(s: Sum) -> Expr:
        (var, _lo, _hi), = s.limits
        for f in Mul.make_args(s.function):
            if isinstance(f, KroneckerDelta) and var in f.args:
                other = f.args[1] if f.args[0] == var else f.args[0]
                if not other.has(var):
                    return (s.function / f).xreplace({var: other})
        return s

    return lambda e: _split_sums(e).replace(lambda u: isinstance(u, Sum) and len(u.limits) == 1, one)


def _sums_to_one(base: IndexedBase) -> Callable[[_Context], Rewrite]:
    def make(ctx: _Context) -> Rewrite:
        return lambda e: _split_sums(e).replace(
            lambda u: isinstance(u, Sum) and len(u.limits) == 1 and u.function == base[u.limits[0][0]],
            lambda u: Integer(1))

    return make


def _linearity_d(ctx: _Context) -> Rewrite:
    def one(d: Derivative) -> Expr:
        f, v = d.expr, d.variables[0]
        if isinstance(f, Sum):
            return Sum(Derivative(f.function, v), *f.limits)
        if isinstance(f, Add):
            return Add(*[Derivative(t, v) for t in f.args])
        const = Mul(*[g for g in Mul.make_args(f) if not g.has(_Y, _X)])
        return const * Derivative(f / const, v) if const != 1 else d

    def run(e: Expr) -> Expr:
        for _ in range(4):  # ∂(−Σ t log y) → −∂Σ… → −Σ ∂(t log y) → −Σ t ∂log y
            out = e.replace(lambda u: isinstance(u, Derivative) and len(u.variables) == 1, one)
            if out == e:
                break
            e = out
        return e

    return run


def _chain_rule(ctx: _Context) -> Rewrite:
    def one(d: Derivative) -> Expr:
        f, v = d.expr, d.variables[0]
        inner = [a for a in f.atoms(Indexed) if _is(a, _Y)]
        if len(inner) != 1 or f == inner[0] or not f.is_Function and not f.is_Pow:
            return d
        w = Dummy("w")
        outer = f.xreplace({inner[0]: w})
        return outer.diff(w).xreplace({w: inner[0]}) * Derivative(inner[0], v)

    return lambda e: e.replace(lambda u: isinstance(u, Derivative) and len(u.variables) == 1, one)


def _jacobian(ctx: _Context) -> Rewrite:
    def one(d: Derivative) -> Expr:
        f, v = d.expr, d.variables[0]
        if _is(f, _Y) and _is(v, _X):
            a, b = f.indices[0], v.indices[0]
            return _Y[a] * (KroneckerDelta(a, b) - _Y[b])
        return d

    return lambda e: e.replace(lambda u: isinstance(u, Derivative) and len(u.variables) == 1, one)


def _hypotheses(ctx: _Context) -> Rewrite:
    """The used hypotheses' values put in for the operators they fix: E(q_a) = 0, Var(q_a) = 1,
    and E(q_a²) = Var + E² when both are known."""
    mean = {h.family: h.value for h in ctx.used if isinstance(h, MeanIs)}
    var = {h.family: h.value for h in ctx.used if isinstance(h, VarianceIs)}

    def component(u: Expr) -> tuple[str, int] | None:
        base, power = (u.base, u.exp) if isinstance(u, Pow) else (u, Integer(1))
        if isinstance(base, Indexed) and power.is_Integer:
            return str(base.base.label), int(power)
        return None

    def e_one(u: E) -> Expr:
        c = component(u.args[0])
        if c and c[1] == 1 and c[0] in mean:
            return mean[c[0]]
        if c and c[1] == 2 and c[0] in mean and c[0] in var:
            return var[c[0]] + mean[c[0]] ** 2
        return u

    def v_one(u: Var) -> Expr:
        c = component(u.args[0])
        return var[c[0]] if c and c[1] == 1 and c[0] in var else u

    def run(e: Expr) -> Expr:
        e = e.replace(lambda u: isinstance(u, Var), v_one)
        return e.replace(lambda u: isinstance(u, E), e_one)

    return run


#: The rewrites in the order they compose (definitions first, hypotheses last).
_REWRITES: tuple[tuple[Rule, Callable[[_Context], Rewrite]], ...] = (
    (Rule.DEFINITION, _definitions),
    (Rule.VARIANCE_SCALING, _variance_scaling),
    (Rule.VARIANCE_OF_SUM, _variance_of_sum),
    (Rule.VARIANCE_FORMULA, _variance_formula),
    (Rule.LINEARITY_E, _linearity_e),
    (Rule.INDEPENDENCE, _independence),
    (Rule.LINEARITY_D, _linearity_d),
    (Rule.CHAIN_RULE, _chain_rule),
    (Rule.JACOBIAN, _jacobian),
    (Rule.SUM_DELTA, _sum_delta),
    (Rule.TARGETS_SUM_TO_ONE, _sums_to_one(_T)),
    (Rule.SOFTMAX_SUMS_TO_ONE, _sums_to_one(_Y)),
    (Rule.SUM_OF_CONSTANT, _sum_of_constant),
    (Rule.HYPOTHESES, _hypotheses),
)


def _algebra(lhs: Expr, rhs: Expr) -> Rule:
    """Which algebra a step with equal sides does, read from the shapes of the sides."""

    def fractions(e: Expr) -> int:
        return sum(1 for p in e.atoms(Pow) if p.exp.is_negative)

    def bracketed(e: Expr) -> int:
        return sum(1 for m in e.atoms(Mul) if any(a.is_Add for a in m.args))

    if fractions(lhs) > fractions(rhs) and not bracketed(lhs) > bracketed(rhs):
        return Rule.CANCEL
    if bracketed(lhs) > bracketed(rhs):
        return Rule.EXPAND
    if bracketed(rhs) > bracketed(lhs):
        return Rule.FACTOR
    return Rule.ALGEBRA


def _hypothesis_rules(lhs: Expr, rhs: Expr, used: frozenset[Hypothesis], others: tuple[Rule, ...]) -> tuple[Rule, ...]:
    """Name a step that puts the hypotheses in: zero means, unit variances — or a regrouping
    that needs the zero means (Σ(E(q²)E(k²) − E²(q)E²(k)) = Σ D(q)D(k))."""
    kinds = {type(h) for h in used} - {Independent}
    if others == (Rule.VARIANCE_FORMULA,) and kinds == {MeanIs}:
        return (Rule.REGROUP,)
    zero = all(h.value == 0 for h in used if isinstance(h, MeanIs))
    if kinds == {MeanIs}:
        name = Rule.ZERO_MEANS if zero else Rule.HYPOTHESES
    elif kinds == {VarianceIs}:
        name = Rule.UNIT_VARIANCES if all(h.value == 1 for h in used if isinstance(h, VarianceIs)) else Rule.HYPOTHESES
    elif kinds == {MeanIs, VarianceIs}:
        unit = all(h.value == 1 for h in used if isinstance(h, VarianceIs))
        if not zero:  # E(q_i) = μ: the hypotheses, not "zero means"
            return (*others, Rule.HYPOTHESES)
        return (*others, Rule.ZERO_MEANS, Rule.UNIT_VARIANCES if unit else Rule.HYPOTHESES)
    else:
        name = Rule.HYPOTHESES
    return (*others, name)


def _previous_result(lhs: Expr, rhs: Expr, ctx: _Context) -> Eq | None:
    """An operator of the left side replaced by its value under the used hypotheses: 'by Var(q·k) = d_k'."""
    if ctx.model is None:
        return None
    model = ctx.model
    atoms = [a for a in lhs.atoms(E, Var, Cov) if not rhs.has(a)]
    for a in atoms:
        try:
            value = apply_hypotheses(evaluate(a, model), tuple(ctx.used), model)
        except DerivationError:
            continue
        if not value.has(E, Var, Cov) and _same(lhs.xreplace({a: value}), rhs):
            return Eq(a, value, evaluate=False)
    return None


def _fact(rules: tuple[Rule, ...], lhs: Expr, rhs: Expr, ctx: _Context) -> Eq | None:
    """The formula a rule was applied to, for its name: the definition (q·k = Σ q_i k_i),
    the sum (Σ_{i=1}^{d_k} 1 = d_k, Σ_k t_k δ_ki = t_i)."""
    sides = (lhs, rhs)
    for rule in rules:
        if rule is Rule.DEFINITION:
            for side in sides:
                dots = sorted(side.atoms(Dot), key=str)
                if dots and ctx.model is not None:
                    a, b = dots[0].vectors
                    return Eq(dots[0], Sum(a[INDEX] * b[INDEX], (INDEX, 1, ctx.model.dim)), evaluate=False)
                if side.has(_L):
                    return Eq(_L, -Sum(_T[_K] * log(_Y[_K]), (_K, 1, _N)), evaluate=False)
                if side.has(exp):
                    return Eq(_Y[INDEX], exp(_X[INDEX]) / Sum(exp(_X[_K]), (_K, 1, _N)), evaluate=False)
        if rule in (Rule.SUM_OF_CONSTANT, Rule.SUM_DELTA):
            rewrite = dict(_REWRITES)[rule](ctx)
            for side in sides:
                for s in sorted(side.atoms(Sum), key=str):
                    value = rewrite(s)
                    if value != s:
                        return Eq(s, value, evaluate=False)
    return None


@lru_cache(maxsize=4096)
def name_rule(
    lhs: Expr,
    rhs: Expr,
    needs: tuple[frozenset[Hypothesis], ...] = (frozenset(),),
    model: Model | None = None,
) -> RuleUse:
    """The rule(s) of the step ``lhs = rhs`` that the checker found to hold with the minimal
    hypothesis sets ``needs`` (a verdict's ``needs``; the first set is the one named).

    ``model`` tells random components from constants (without it every indexed symbol
    but the softmax x, y, t is random).  A failing step (``needs == ()``) is named by
    its shape only, with no hypothesis.

    >>> from derivations.lecture import LECTURE, q, i
    >>> from derivations.operators import Var, E
    >>> name_rule(Var(q[i]), E(q[i] ** 2) - E(q[i]) ** 2, model=LECTURE).rules
    (<Rule.VARIANCE_FORMULA: 'variance formula'>,)
    """
    used = needs[0] if needs else frozenset()
    ctx = _Context(model, used)
    if _same(lhs, rhs):
        return RuleUse((_algebra(lhs, rhs),), used)
    rewrites = [(rule, make(ctx)) for rule, make in _REWRITES]
    for size in (1, 2):
        for combo in combinations(rewrites, size):
            left, right = lhs, rhs
            try:
                for _rule, rw in combo:
                    left, right = rw(left), rw(right)
            except (TypeError, ValueError, AttributeError, DerivationError):
                continue
            if not _same(left, right):
                continue
            rules = tuple(rule for rule, _ in combo)
            if Rule.HYPOTHESES in rules:
                rules = _hypothesis_rules(lhs, rhs, used, rules[:-1])
            if set(rules) == {Rule.DEFINITION, Rule.JACOBIAN} and rhs.has(exp):
                rules = (Rule.QUOTIENT_RULE,)
            return RuleUse(rules, used, _fact(rules, lhs, rhs, ctx))
    fact = _previous_result(lhs, rhs, ctx)
    if fact is not None:
        return RuleUse((Rule.PREVIOUS_RESULT,), used, fact)
    return RuleUse((Rule.UNKNOWN,), used)


# -- failing steps -----------------------------------------------------------------------------
@dataclass(frozen=True)
class Failure:
    """What a failing step should say, and what would make it hold.

    ``should_be`` is the left side's value under the declared hypotheses (None when
    the left side is random, so it has no single value); ``would_hold_given`` the
    smallest sets of further hypotheses under which the step holds (empty: none of the
    usual ones — zero means, unit variances, independence — repairs it).
    """

    claimed: Expr
    should_be: Expr | None
    would_hold_given: tuple[frozenset[Hypothesis], ...]


def _candidates(model: Model, declared: Iterable[Hypothesis]) -> tuple[Hypothesis, ...]:
    out: list[Hypothesis] = []
    for f in model.families:
        out += [MeanIs(f.name), VarianceIs(f.name)]
    out += [Independent(a, b) for a, b in model.dependent]
    return tuple(h for h in out if h not in set(declared))


def _readable(value: Expr) -> Expr:
    """The shorter of the expanded and the factored form, with a leading minus moved into a bracket."""
    try:
        f = factor(value)
    except (TypeError, ValueError, RecursionError):
        return value
    if isinstance(f, Mul) and f.could_extract_minus_sign():
        coeff, rest = f.as_coeff_mul()
        brackets = [a for a in rest if a.is_Add]
        if len(brackets) == 1:  # −y_i(y_j − δ_ij) reads better as y_i(δ_ij − y_j)
            f = Mul(-coeff, *[expand(-a) if a is brackets[0] else a for a in rest])
    return f if len(str(f)) < len(str(value)) else value


@lru_cache(maxsize=1024)
def explain_failure(
    lhs: Expr,
    rhs: Expr,
    model: Model,
    declared: tuple[Hypothesis, ...] = (),
    max_extra: int = 3,
) -> Failure:
    """What the right side should be and the smallest further hypotheses that make the step hold.

    >>> from sympy import sqrt
    >>> from derivations.lecture import LECTURE, TEXTBOOK, D_K, q, k
    >>> from derivations.operators import Dot, Var
    >>> f = explain_failure(Var(Dot(q, k)), sqrt(D_K), LECTURE, TEXTBOOK)
    >>> f.should_be, f.would_hold_given
    (d_k, ())
    >>> from derivations.lecture import i
    >>> f = explain_failure(Var(q[i] * k[i]), Var(q[i]) * Var(k[i]), LECTURE, (Independent("q", "k"),))
    >>> [sorted(map(str, s)) for s in f.would_hold_given]
    [['E(k_i) = 0', 'E(q_i) = 0']]
    """
    should_be: Expr | None = None
    left = evaluate(lhs, model)
    if not is_random(left, model):
        should_be = _readable(apply_hypotheses(left, declared, model))
    residual = evaluate(lhs, model) - evaluate(rhs, model)
    if is_random(residual, model):
        return Failure(rhs, should_be, ())
    extra = _candidates(model, declared)
    found: list[frozenset[Hypothesis]] = []
    for size in range(1, min(max_extra, len(extra)) + 1):
        for combo in combinations(extra, size):
            s = frozenset(combo)
            if any(f <= s for f in found):
                continue
            if is_zero(apply_hypotheses(residual, declared + combo, model)):
                found.append(s)
        if found:
            break
    return Failure(rhs, should_be, tuple(found))


def explain_verdict(v: StepVerdict, model: Model | None = None, declared: tuple[Hypothesis, ...] = ()) -> Failure:
    """:func:`explain_failure` for a checker's verdict; without a model the verdict is the softmax
    checker's, whose residual is lhs − rhs written in y and t (``residual_given``: under the
    hypotheses it was checked with), so the left side is that residual + rhs."""
    if model is not None:
        return explain_failure(v.lhs, v.rhs, model, declared)
    softmax = all(not side.has(E, Var, Cov, Dot) and all(a.base in (_X, _Y, _T) for a in side.atoms(Indexed))
                  for side in (v.lhs, v.rhs))
    if not softmax or v.mean_square or v.rhs.has(Derivative, exp, _L, _S):
        return Failure(v.rhs, None, ())  # a moments step without its model: only the residual is known
    # residual_given: under the hypotheses the step was checked with (Σ_k t_k = 1)
    return Failure(v.rhs, _readable(expand(v.residual_given + v.rhs)), ())
