r"""What a checked step of a note says beyond its status: the rule it uses, and for a failing
step what its right side should be — one place for every report that shows a note's steps
(verify's terminal report, the deck from a note).

The engine is asked as the terminal report always asked it: the rule only for a claim that
holds, named from its parsed sides (:func:`derivations.rules.name_rule`, with the note's model
for a moments step); the failure of a moments step from :func:`derivations.rules.explain_failure`
with at most one further hypothesis, of a softmax step from its residual (lhs − rhs written in
y and t, so the left side is residual + rhs).  The engine refusing an expression is no
reason to lose the report: the answer is then ``None`` and the caller shows the residual.

>>> from attncheck.verify.check import verify_text
>>> note = ("<!-- attncheck: assume E(q_i)=0, E(k_i)=0, Var(q_i)=1, Var(k_i)=1, q \\perp k -->\n"
...         "$$ \\operatorname{Var}(q^\\top k) = \\sqrt{d_k} $$")
>>> r = verify_text(note, "n.md", numeric=False)
>>> d = r.derivations[0]
>>> step_failure(d.steps[0], d).should_be
d_k
"""

from __future__ import annotations

import re
from typing import Protocol

from sympy import Expr, expand

from derivations import Hypothesis, Model
from derivations.errors import DerivationError
from derivations.rules import Failure, RuleUse, explain_failure, name_rule


class _Status(Protocol):
    @property
    def ok(self) -> bool: ...


class Step(Protocol):
    """What is read of a checked step (attncheck.verify.result.StepResult has it)."""

    @property
    def lhs(self) -> Expr: ...
    @property
    def rhs(self) -> Expr: ...
    @property
    def status(self) -> _Status: ...
    @property
    def is_claim(self) -> bool: ...
    @property
    def needs(self) -> tuple[frozenset[Hypothesis], ...]: ...
    @property
    def checker(self) -> str: ...
    @property
    def mean_square(self) -> bool: ...
    @property
    def residual(self) -> Expr: ...


class Chain(Protocol):
    """What is read of a checked chain (attncheck.verify.result.DerivationResult has it)."""

    @property
    def model(self) -> Model: ...
    @property
    def declared(self) -> tuple[Hypothesis, ...]: ...


__all__ = ["Chain", "Step", "note_detail", "step_failure", "step_rule"]

# verify's own notes begin with these words; a report in another language says them itself
_NOTE_PREFIX = re.compile(r"^(math not read|not read|not checked|cannot check|definition|assumption|"
                          r"condition): *")


def step_rule(s: Step, d: Chain) -> RuleUse | None:
    """The rule a claim that holds uses, as :func:`derivations.rules.name_rule` names it
    (None: the step does not hold, is not a claim, or no rule is known)."""
    if not s.status.ok or not s.is_claim:
        return None
    try:
        use = name_rule(s.lhs, s.rhs, s.needs, d.model if s.checker == "moments" else None)
    except (DerivationError, ValueError, TypeError):
        return None
    return use if use.known else None


def step_failure(s: Step, d: Chain) -> Failure | None:
    """What the right side of a failing step should be, and the smallest further hypothesis
    that would make it hold (None: no single value is known; show the residual)."""
    if any(type(a).__name__ == "VectorLiteral" for a in (s.lhs, s.rhs)):
        return None  # a matrix written out: the residual says which entries are wrong
    if any(type(a).__name__ in ("EntryVector", "EntryMatrix", "JacobianOf")
           for a in (s.lhs, s.rhs)):
        return None  # whole vectors compared at an entry: the residual is that entry's
    if s.lhs.is_number and s.rhs.is_number:  # arithmetic: the value itself, as decimals if
        value = expand(s.lhs)                  # either side is not a fraction
        if not (value.is_Rational and s.rhs.is_Rational):
            value = value.evalf(6)
        return Failure(s.rhs, value, ())
    if s.checker == "moments":
        try:
            f = explain_failure(s.lhs, s.rhs, d.model, d.declared, max_extra=1)
        except (DerivationError, ValueError, TypeError):
            return None
        return f if f.should_be is not None else None
    if s.mean_square:
        return None
    return Failure(s.rhs, expand(s.residual + s.rhs), ())


def note_detail(note: str) -> str:
    """verify's note on a step without its leading status word (``not read: …`` → ``…``).

    >>> note_detail("not read: a list where one value is expected")
    'a list where one value is expected'
    """
    return _NOTE_PREFIX.sub("", note)
