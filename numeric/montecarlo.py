"""Monte Carlo estimates of E/Var/Cov expressions at a Point, with standard errors.

Every operator in the expression becomes a smooth function of the means of a few
per-sample statistics — E(X) of X − c, Var(X) of (X − c, (X − c)²), Cov(X, Y) of
(X − c, Y − c', (X − c)(Y − c')) — streamed through :class:`~numeric.streaming.Moments`.
The estimate is the expression at those means; its standard error is the delta
method with the statistics' full covariance matrix, so operators estimated on the
same samples are correctly dependent and a variance's error carries the fourth
moment.  The centres c come from a pilot chunk: only rounding depends on them.

Two designs:

* ``iid``: independent samples of all components.
* ``block``: for functionals of one score q·k, independent blocks of b queries × b keys
  using all b² products Q Kᵀ.  Products sharing a row are dependent, so a block's mean
  is one observation: the standard error comes from the spread between blocks (and a
  Student t critical value), never from b² "independent" products.

The design is chosen by the predicted cost of reaching the requested power (from a
pilot of each and the per-operation costs measured by bench/montecarlo.py).

>>> from derivations import Dot, Family, MeanIs, Model, Var, VarianceIs
>>> from numeric.points import point_for
>>> m = Model((Family("q", "normal"), Family("k", "normal")))
>>> q, k = m.family("q").base, m.family("k").base
>>> p = point_for(m, (MeanIs("q"), MeanIs("k"), VarianceIs("q"), VarianceIs("k")), d=64)
>>> est = estimate(Var(Dot(q, k)), p, seed=1, design="block", units=64)
>>> abs(est.value - 64) < 6 * est.se, est.design, est.products
(True, 'block 512×512', 16777216)
"""

from __future__ import annotations

import math
import os
from abc import ABC, abstractmethod
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from statistics import NormalDist
from typing import Callable, Sequence

import numpy as np
from numpy.typing import NDArray
from scipy.stats import t as student_t
from sympy import Dummy, Expr, Indexed, IndexedBase, Symbol, diff

from derivations import Dot, UnsupportedExpression
from derivations.operators import Cov, E, Var
from numeric.compile import RandomFunction, sum_depth
from numeric.points import Point
from numeric.samplers import draw
from numeric.streaming import Moments

__all__ = [
    "BLOCK",
    "COSTS",
    "Estimate",
    "critical_values",
    "estimate",
]

#: Queries (= keys) per block: large enough that the matmul is efficient and a block
#: mean is near-normal, small enough (2 MB of products) to stay in cache-sized tiles.
BLOCK = 512
#: Seconds per drawn number, per matmul multiply-add, per statistic per sample — what
#: bench/montecarlo.py measured on this 2-core machine.  Only the *ratio* of design
#: costs matters, so the choice is stable across machines of similar balance.
COSTS = {"draw": 9e-9, "mac": 1.5e-11, "stat": 3e-9}
#: Elements per sampled array chunk (samples × d^depth): 2 MB arrays are recycled by
#: the allocator, while 32 MB ones are mapped afresh each chunk and the page faults
#: cost 40% of the i.i.d. throughput (bench/montecarlo.py, measured here).
CHUNK_ELEMENTS = 1 << 18
#: At least this many blocks, so the between-block standard error has ≥ 63 degrees of
#: freedom and the t critical value at α = 1e-6 is within 8% of the normal one.
MIN_BLOCKS = 64
PILOT_SAMPLES = 4096
PILOT_BLOCKS = 8


@dataclass(frozen=True)
class Estimate:
    """An estimate with its standard error; ``units`` are samples (iid) or blocks.

    ``df`` is the degrees of freedom of the standard error (units − 1), used for the
    Student t critical value; ``products`` counts the sampled values (q·k products).
    """

    value: float
    se: float
    units: int
    products: int
    design: str
    df: int
    #: What relative errors are relative to: the quantity's magnitude, or — when it
    #: is 0, as E(q·k) is — its spread per sample.
    scale: float = 1.0

    def __str__(self) -> str:
        return f"{self.value:.6g} ± {self.se:.2g}"


def critical_values(alpha: float, power: float, df: int) -> tuple[float, float]:
    """Two-sided critical value at α and the one-sided quantile for the power."""
    if df >= 10**6:
        nd = NormalDist()
        return nd.inv_cdf(1 - alpha / 2), nd.inv_cdf(power)
    return float(student_t.ppf(1 - alpha / 2, df)), float(student_t.ppf(power, df))


_CENTRE = IndexedBase("centre")  # E(X) = c + E(X − c): the centre enters the value


@dataclass
class _Plan:
    """The expression as a function of statistic means, and how to compute the statistics."""

    f: Expr
    means: list[Symbol]
    columns: list[tuple[int, int | None]]  # (arg, arg) product of centred args; None: the arg alone
    args: list[Expr]
    centres: NDArray[np.float64]

    grad: list[Expr] = field(default_factory=list)

    def __post_init__(self) -> None:
        # Differentiated once: the delta method evaluates the gradient for every pilot
        # and every estimate, and SymPy's diff costs more than the evaluation.
        self.grad = [diff(self.f, s) for s in self.means]

    def value_and_grad(self, m: NDArray[np.float64]) -> tuple[float, NDArray[np.float64]]:
        subs: dict[Expr, float] = dict(zip(self.means, map(float, m)))
        subs.update({_CENTRE[a]: float(c) for a, c in enumerate(self.centres)})
        value = float(self.f.xreplace(subs))
        return value, np.array([float(g.xreplace(subs)) for g in self.grad])


def _plan(expr: Expr) -> _Plan:
    ops = sorted(expr.atoms(E, Var, Cov), key=str)
    args: list[Expr] = []

    def arg_index(a: Expr) -> int:
        if a not in args:
            args.append(a)
        return args.index(a)

    columns: list[tuple[int, int | None]] = []
    means: list[Symbol] = []

    def col(a: int, b: int | None) -> Symbol:
        key = (a, b) if b is None or a <= b else (b, a)
        if key not in columns:
            columns.append(key)
            means.append(Dummy(f"m{len(means)}"))
        return means[columns.index(key)]

    formulas = {}
    for op in ops:
        if isinstance(op, E):
            a = arg_index(op.args[0])
            formulas[op] = _CENTRE[a] + col(a, None)
        elif isinstance(op, Var):
            a = arg_index(op.args[0])
            formulas[op] = col(a, a) - col(a, None) ** 2
        else:
            a, b = arg_index(op.args[0]), arg_index(op.args[1])
            formulas[op] = col(a, b) - col(a, None) * col(b, None)
    f = expr.xreplace(formulas)
    if f.atoms(Indexed) - {_CENTRE[n] for n in range(len(args))} or f.has(Dot):
        raise UnsupportedExpression(f"{expr}: random components outside E/Var/Cov cannot be estimated")
    return _Plan(f, means, columns, args, np.zeros(len(args)))


def _stats(plan: _Plan, values: Sequence[NDArray[np.float64]]) -> NDArray[np.float64]:
    centred = [v - c for v, c in zip(values, plan.centres)]
    cols = [centred[a] if b is None else centred[a] * centred[b] for a, b in plan.columns]
    return np.stack(cols, axis=1)


class _Design(ABC):
    """A way of sampling: ``units`` independent observations of the statistics' means."""

    name: str
    plan: _Plan
    unit_cost: float  # predicted seconds per unit, from COSTS
    chunk: int  # units per task handed to a thread

    @abstractmethod
    def values(self, rng: np.random.Generator, n: int) -> list[NDArray[np.float64]]:
        """The operator arguments' values on freshly drawn samples."""

    @abstractmethod
    def unit_moments(self, seed: np.random.SeedSequence, units: int) -> Moments:
        """Streamed moments of ``units`` observations drawn from ``seed``."""


class _IID(_Design):
    def __init__(self, plan: _Plan, point: Point) -> None:
        self.plan = plan
        self.point = point
        fams = tuple(f.name for f in point.model.families)
        self.funcs = [RandomFunction(a, fams, point.d) for a in plan.args]
        self.used = sorted({n for fn in self.funcs for n in fn.used})
        depth = max((sum_depth(a) for a in plan.args), default=0)
        self.chunk = max(64, CHUNK_ELEMENTS // (point.d ** max(depth, 1)))
        self.name = "iid"
        self.unit_cost = (COSTS["draw"] * point.d * max(len(self.used), 1)
                          + COSTS["stat"] * (point.d ** max(depth, 1) + len(plan.columns)))

    def values(self, rng: np.random.Generator, n: int) -> list[NDArray[np.float64]]:
        data = draw(self.point, self.used, n, rng)
        return [fn(data) for fn in self.funcs]

    def unit_moments(self, seed: np.random.SeedSequence, units: int) -> Moments:
        return Moments.of(_stats(self.plan, self.values(np.random.default_rng(seed), units)))


class _Block(_Design):
    def __init__(self, plan: _Plan, point: Point, pair: tuple[str, str]) -> None:
        self.plan = plan
        self.point = point
        self.pair = pair
        score = IndexedBase("score")
        dot = Dot(IndexedBase(pair[0]), IndexedBase(pair[1]))
        self.score = score[1]
        self.funcs = [RandomFunction(a.xreplace({dot: self.score}), ("score",), 1) for a in plan.args]
        b, d = BLOCK, point.d
        self.name = f"block {b}×{b}"
        self.unit_cost = (COSTS["draw"] * 2 * b * d + COSTS["mac"] * b * b * d
                          + COSTS["stat"] * b * b * len(plan.columns))
        self.chunk = 1

    def values(self, rng: np.random.Generator, blocks: int) -> list[NDArray[np.float64]]:
        data = draw(self.point, self.pair, BLOCK, rng)
        scores = (data[self.pair[0]] @ data[self.pair[1]].T).reshape(-1, 1)
        return [scores[:, 0] if fn.expr == self.score else fn({"score": scores})
                for fn in self.funcs]

    def unit_moments(self, seed: np.random.SeedSequence, units: int) -> Moments:
        rows = []
        for child in seed.spawn(units):
            values = self.values(np.random.default_rng(child), 1)
            rows.append(_column_means(self.plan, values))  # one observation per block
        return Moments.of(np.array(rows))


def _column_means(plan: _Plan, values: Sequence[NDArray[np.float64]]) -> NDArray[np.float64]:
    """The statistics' means over one block, without materialising the statistics."""
    centred = [v - c for v, c in zip(values, plan.centres)]
    n = len(centred[0]) if centred else 1
    return np.array([
        centred[a].sum() / n if b is None else float(np.dot(centred[a], centred[b])) / n
        for a, b in plan.columns
    ])


def _block_pair(plan: _Plan, point: Point) -> tuple[str, str] | None:
    """The (q, k) pair when every operator argument is a function of that one score."""
    dots = {d for a in plan.args for d in a.atoms(Dot)}
    if len(dots) != 1 or any(a.atoms(Indexed) for a in plan.args):
        return None
    (dot,) = dots
    a, b = (str(v.label) for v in dot.vectors)
    if a == b or point.model.partner(a) == b:
        # A block pairs query a with key b ≠ a: only the diagonal would carry the
        # correlation of a dependent pair, so its products are not the model's scores.
        return None
    return (a, b)


def _run(design: _Design, seed: np.random.SeedSequence, units: int,
         progress: Callable[[float], None] | None, threads: int) -> Moments:
    chunk = design.chunk
    sizes = [chunk] * (units // chunk) + ([units % chunk] if units % chunk else [])
    seeds = seed.spawn(len(sizes))
    total = Moments.empty(len(design.plan.columns))

    def work(job: tuple[np.random.SeedSequence, int]) -> Moments:
        return design.unit_moments(*job)

    # Chunks are seeded by position and merged in order, so the result does not
    # depend on how many threads ran them; numpy releases the GIL while it fills
    # arrays and multiplies matrices, so two threads use both cores.
    with ThreadPoolExecutor(max_workers=threads) as pool:
        for (s, n), m in zip(zip(seeds, sizes), pool.map(work, zip(seeds, sizes))):
            total = total.merge(m)
            if progress:
                progress(n / units)
    return total


def _summarise(design: _Design, moments: Moments) -> tuple[float, float]:
    value, grad = design.plan.value_and_grad(moments.mean)
    var = float(grad @ moments.cov @ grad) / moments.n
    return value, math.sqrt(max(var, 0.0))


def estimate(
    expr: Expr,
    point: Point,
    *,
    seed: int | np.random.SeedSequence = 0,
    alpha: float = 1e-6,
    power: float = 0.999,
    detect: float = 0.02,
    max_seconds: float = 4.0,
    design: str = "auto",
    threads: int | None = None,
    units: int | None = None,
    scale: float | None = None,
    progress: Callable[[float], None] | None = None,
) -> Estimate:
    """Estimate an expression of E/Var/Cov at ``point``.

    The number of samples (or blocks) is chosen so that an error of ``detect`` times
    ``scale`` (by default the quantity's magnitude from a pilot, or its spread per
    sample when that is 0) is caught with probability ``power`` by a two-sided test at
    false-fail rate ``alpha`` — capped by ``max_seconds`` of predicted work; ``units``
    fixes the number instead.
    """
    ss = seed if isinstance(seed, np.random.SeedSequence) else np.random.SeedSequence(seed)
    centre_seed, iid_seed, block_seed, main_seed = ss.spawn(4)
    plan = _plan(point.substitute(expr))
    threads = threads or min(2, os.cpu_count() or 1)
    if not plan.args:  # nothing random: the expression is a number
        return Estimate(float(plan.f), 0.0, 0, 0, "exact", 10**9, abs(float(plan.f)))

    iid = _IID(plan, point)
    pair = _block_pair(plan, point)
    if design == "block" and pair is None:
        raise UnsupportedExpression(f"{expr}: the block design needs a function of one score q·k")
    candidates: list[tuple[_Design, np.random.SeedSequence, int]] = []
    if design in ("auto", "iid") or pair is None:
        candidates.append((iid, iid_seed, PILOT_SAMPLES))
    if design in ("auto", "block") and pair is not None:
        candidates.append((_Block(plan, point, pair), block_seed, PILOT_BLOCKS))

    # Pilot: centres for the statistics, the size of the quantity (its magnitude, or
    # its spread per sample when it is 0) and the spread per unit of each design.
    plan.centres = np.array([float(np.mean(v)) for v in
                             iid.values(np.random.default_rng(centre_seed), PILOT_SAMPLES)])
    value0, se0 = _summarise(iid, _run(iid, iid_seed, PILOT_SAMPLES, None, threads))
    sd_sample = se0 * math.sqrt(PILOT_SAMPLES)
    za, zp = critical_values(alpha, power, 10**9)
    # A pilot value within its own noise of 0 says nothing about the size: then errors
    # are measured against the spread per sample (√d for E(q·k) = 0).
    size = scale or (abs(value0) if abs(value0) > za * se0 else sd_sample) or 1.0

    best: tuple[float, _Design, int] | None = None
    for dsg, pilot_seed, pilot_units in candidates:
        if dsg is iid:
            sd_unit = sd_sample
        else:
            sd_unit = _summarise(dsg, _run(dsg, pilot_seed, pilot_units, None, threads))[1]
            sd_unit *= math.sqrt(pilot_units)
        floor = MIN_BLOCKS if isinstance(dsg, _Block) else PILOT_SAMPLES
        if units is not None:
            need = units
        else:
            need = math.ceil(((za + zp) * sd_unit / (detect * size)) ** 2)
            need = min(max(need, floor), max(floor, int(max_seconds / dsg.unit_cost)))
        cost = need * dsg.unit_cost
        if best is None or cost < best[0]:
            best = (cost, dsg, need)
    assert best is not None
    _, chosen, need = best
    moments = _run(chosen, main_seed, need, progress, threads)
    value, se = _summarise(chosen, moments)
    products = need * (BLOCK * BLOCK if isinstance(chosen, _Block) else 1)
    return Estimate(value, se, need, products, chosen.name, need - 1, size)


def gaussian_block_variance(n: int, d: int) -> tuple[float, float]:
    """Var(V̂/d) of the variance estimate V̂ = mean of (q_a·k_b)² over one n × n block,
    for standard Gaussian components: the correct value and the naive i.i.d. one.

    Products sharing a query (or a key) are dependent: Cov((q·k)², (q·k')²) = 2d, so
    Var(V̂/d) = [(2 + 6/d) + 4(n − 1)/d] / n², while treating the n² products as
    independent gives (2 + 6/d)/n².  At the lecture's n = 10⁴, d = 100 the naive
    standard error is ≈ 14× too small.

    >>> right, naive = gaussian_block_variance(10_000, 100)
    >>> round(math.sqrt(right / naive), 1)
    14.0
    """
    naive = (2 + 6 / d) / n**2
    return naive + 4 * (n - 1) / d / n**2, naive
