"""Numeric evidence for a checked step: the one place where the numeric side joins verify.

Both sides of a moments step are estimated by Monte Carlo (``numeric.compare``) at a
concrete point (``numeric.point_for``):

* a step that holds as declared is estimated at a point satisfying the declared
  hypotheses — a *confirmation*, which must agree;
* a step that needs an undeclared hypothesis is estimated at a point satisfying
  the declared ones and violating the missing ones, and a failing step at a point
  satisfying the declared ones — a *counterexample*, where the sides must differ by
  many standard errors.

The test is two-sided at the per-check false-fail rate α; ``min_detectable`` is the
smallest relative error it catches with probability ``power``.  Softmax steps have
no Monte Carlo side (they are exact identities of functions).

>>> from sympy import Add, Expr, Integer, Sum
>>> from derivations import MeanIs, Var
>>> from derivations.lecture import LECTURE
>>> from attncheck.verify.errors import Location
>>> from attncheck.verify.result import StepResult, StepStatus
>>> q = LECTURE.family("q").base
>>> from derivations import INDEX as i
>>> s = StepResult(1, Location("x"), Var(q[i]), Integer(1), "", StepStatus.NEEDS_UNDECLARED,
...                (frozenset({__import__("derivations").VarianceIs("q")}),), frozenset(),
...                Integer(0))
>>> e = attach_evidence(s, LECTURE, seed=1, max_seconds=0.2).evidence
>>> e.kind, e.agree, e.violated
('counterexample', False, ('Var(q_i) = 1',))
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
from sympy import Add, Expr, Integer, Sum

from attncheck.verify.result import StepResult, StepStatus
from derivations import Cov, DerivationError, E, Model, Var
from numeric import compare, point_for

__all__ = ["DIMENSION", "Evidence", "attach_evidence"]

#: The concrete dimension of the evidence points: large enough that a d versus √d
#: mistake is a factor 4, small enough that sampling is cheap.
DIMENSION = 16


@dataclass(frozen=True)
class Evidence:
    """Monte Carlo evidence for one step (see the module doc).

    ``estimate`` ± ``se`` estimates lhs (or lhs − rhs when both sides are random
    quantities estimated on the same samples), ``reference`` is what it is tested
    against; ``consistent`` says the numeric outcome matches the symbolic verdict.
    ``note`` explains a step the numeric side could not estimate (then agree is None).
    """

    kind: str
    point: str
    violated: tuple[str, ...]
    estimate: float
    se: float
    reference: float
    z: float
    critical: float
    agree: bool | None
    units: int
    design: str
    alpha: float
    power: float
    min_detectable: float
    consistent: bool | None
    note: str = ""

    def as_json(self) -> dict[str, Any]:
        out = dict(vars(self))
        out["violated"] = list(self.violated)
        for k in ("estimate", "se", "reference", "z", "critical", "min_detectable"):
            if not math.isfinite(out[k]):
                out[k] = None  # JSON has no inf/nan
        return out


def _unroll(expr: Expr, model: Model) -> Expr:
    """Sums of E/Var/Cov terms written out at d = DIMENSION (Σ_i Var(q_i k_i) → 16 terms).

    The sampler estimates operators of concrete components; a sum of operators is
    16 of them — no symbolic identity is used, only the dimension is made concrete.
    """
    def expand_sum(s: Sum) -> Expr:
        (var, lo, hi), *rest = s.limits
        lo, hi = (x.subs(model.dim, DIMENSION) for x in (lo, hi))
        if rest or not (lo.is_Integer and hi.is_Integer) or hi - lo > DIMENSION:
            return s
        return Add(*(s.function.xreplace({var: Integer(n)}) for n in range(int(lo), int(hi) + 1)))

    return expr.replace(lambda e: isinstance(e, Sum) and e.function.has(E, Var, Cov), expand_sum)


def attach_evidence(step: StepResult, model: Model, *, seed: int | np.random.SeedSequence,
                    alpha: float = 1e-6, power: float = 0.999, detect: float = 0.05,
                    max_seconds: float = 1.0) -> StepResult:
    """``step`` with its numeric evidence (softmax steps are returned unchanged)."""
    if step.checker != "moments":
        return step
    holds = step.status.ok
    kind = "confirmation" if holds else "counterexample"
    violate = tuple(sorted(step.undeclared, key=str)) if step.status is StepStatus.NEEDS_UNDECLARED else ()
    lhs, rhs = _unroll(step.lhs, model), _unroll(step.rhs, model)
    if step.mean_square:  # equal as random variables: test E[(lhs − rhs)²] = 0
        lhs, rhs = E((lhs - rhs) ** 2), Integer(0)
    try:
        point = point_for(model, tuple(step.declared), violate, d=DIMENSION)
        c = compare(lhs, rhs, point, seed=seed, alpha=alpha, power=power, detect=detect,
                    max_seconds=max_seconds)
    except (DerivationError, TypeError, ValueError, ArithmeticError) as exc:
        nan = math.nan
        ev = Evidence(kind, "", tuple(map(str, violate)), nan, nan, nan, nan, nan, None, 0, "",
                      alpha, power, nan, None, f"no numeric estimate: {exc}")
        return replace(step, evidence=ev)
    est = c.estimate
    ev = Evidence(kind, point.describe(), tuple(map(str, violate)), est.value, est.se,
                  c.reference, c.z, c.critical, c.agree, est.units, est.design, alpha, power,
                  c.min_detectable, c.agree == holds)
    return replace(step, evidence=ev)
