r"""The verify pipeline: file → blocks → rows → chains → checked steps → result.

Each stage is a module (:mod:`~attncheck.verify.files`, :mod:`~attncheck.verify.blocks`,
:mod:`~attncheck.verify.rows`, :mod:`~attncheck.verify.parse`,
:mod:`~attncheck.verify.notation`, :mod:`~attncheck.verify.chains`); this one joins them
and judges every claim:

* a step is checked by the project's exact engine (:func:`derivations.check_equality`)
  over the hypotheses the note states — in ``attncheck:`` comments, in its prose
  ("均值为0"), or as formulas (``E(q_i) = 0``) — *plus* the standard ones it might have
  left unsaid, so a step that silently relies on E(q_i) = 0 is found and reported;
* steps about softmax (∂y_i/∂x_j, δ_ij, y, x, t, the loss) go to the softmax checker;
* the note's definitions (``s = q\cdot k``, ``L = -\sum_k t_k\log p_k``) are substituted into
  the steps after them;
* what cannot be read, checked or decided is reported at its place, and the rest of the
  file goes on; time is bounded per step and per file (``timeout``).

>>> r = verify_text(r"$$ D(q_i k_i) = E(q_i^2 k_i^2) - E^2(q_i k_i) $$", "demo.md")
>>> [s.status.value for s in r.steps], r.exit_code
(['holds'], 0)
"""

from __future__ import annotations

import re
from fractions import Fraction
import signal
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
from sympy import (
    Add,
    Derivative,
    Dummy,
    Expr,
    Float,
    Function,
    Indexed,
    IndexedBase,
    KroneckerDelta,
    Integer,
    Mul,
    Piecewise,
    Rational,
    Pow,
    S,
    Sum,
    Symbol,
    exp,
    log,
    numer,
    diff,
    simplify,
    together,
)
from sympy.core.function import AppliedUndef

from attncheck.text import GREEK, text
from attncheck.verify.blocks import Directive, Heading, Math, Problem, Prose, scan
from attncheck.verify.chains import (
    CORRECT_CLASS,
    Assumed,
    Chain,
    Link,
    Step,
    build_chains,
    class_letter,
    is_condition_block,
    is_value,
    names_a_case,
    std_of_random,
    rows_of,
    substitute,
    without_variables,
    writes_out,
)
from attncheck.verify.declarations import State, default_dimension, hypotheses_of
from attncheck.verify.errors import Location, VerifyError
from attncheck.verify.evidence import (
    PARAMETER_VALUE,
    attach_evidence,
    counted_length,
    free_vectors,
    given_parameters,
    letters_as_lengths,
    without_evidence,
    written_length,
)
from attncheck.verify.files import Format, Source, decode, guess_format, read_source
from attncheck.verify.notation import (
    linear_layer,
    prose_aliases,
    prose_constants,
    prose_jacobian,
    survey,
)
from attncheck.verify.parse import (
    DOTS,
    LENGTH,
    LOSS,
    PRIME,
    SOFTMAX_BASES,
    XI,
    EntryMatrix,
    EntryVector,
    JacobianOf,
    Notation,
    ParseProblem,
    VectorLiteral,
    index_symbol,
    matrix_entries,
)
from attncheck.verify.prose import INDEPENDENT_WORDS, independence_of_others, read_assumptions
from attncheck.verify.result import (
    DerivationResult,
    ReadNote,
    StepResult,
    StepStatus,
    VerifyResult,
)
from attncheck.verify.rows import Row
from derivations import (
    DerivationError,
    ExpressionTooLarge,
    Hypothesis,
    Independent,
    MeanIs,
    Model,
    UnsupportedExpression,
    VarianceIs,
    check_equality,
)
from derivations.checking import apply_hypotheses
from derivations.expectation import MAX_TERMS, _canonical
from derivations.operators import Cov, Dot, E, Var

__all__ = ["MAX_STEPS", "NUMERIC_SECONDS", "STEP_SECONDS", "TIMEOUT", "Reading", "Settings",
           "candidates", "check_source", "read_note", "verify", "verify_text"]

#: Wall-clock limit for checking one step; the exact engine takes well under a second
#: for anything in lecture notes, so a step past this is refused rather than waited for.
STEP_SECONDS = 20.0
#: Whole-file budget: after it, the remaining steps are "not checked: time budget spent".
TIMEOUT = 120.0
#: Steps per file: a long lecture has a few hundred; checking takes up to a second each.
MAX_STEPS = 1000
#: Monte Carlo budget per step: at d = 16 it buys a test that catches a 5% error.
NUMERIC_SECONDS = 1.0


@dataclass(frozen=True)
class Settings:
    """How a file is checked (the CLI's options)."""

    seed: int = 20261121
    numeric: bool = True
    numeric_seconds: float = NUMERIC_SECONDS
    timeout: float = TIMEOUT
    inline: bool = False


def candidates(model: Model, declared: tuple[Hypothesis, ...], variance: Expr = Integer(1)
               ) -> tuple[Hypothesis, ...]:
    """The declared hypotheses and the standard ones the notes left open, in the order
    they must be applied; ``variance`` is the one the note's components have when it
    names one (σ²), else 1.

    >>> from derivations.lecture import LECTURE
    >>> [str(h) for h in candidates(LECTURE, (MeanIs("q"),))]
    ['q ⟂ k', 'E(q_i) = 0', 'E(k_i) = 0', 'Var(q_i) = 1', 'Var(k_i) = 1']
    """
    means = {h.family for h in declared if isinstance(h, MeanIs)}
    variances = {h.family for h in declared if isinstance(h, VarianceIs)}
    pool = list(declared)
    pool += [MeanIs(f.name, scalar=f.scalar) for f in model.families if f.name not in means]
    pool += [VarianceIs(f.name, variance if not f.scalar else Integer(1), scalar=f.scalar)
             for f in model.families if f.name not in variances]
    pool += [Independent(a, b) for a, b in model.dependent]
    return tuple(sorted(dict.fromkeys(pool), key=lambda h: h.rank))


def _expansion_bound(e: Expr, cap: int) -> int:
    """An upper bound (capped) on the terms the engine expands e into."""
    if isinstance(e, Add):
        return min(cap, sum(_expansion_bound(a, cap) for a in e.args))
    if isinstance(e, Mul):
        n = 1
        for a in e.args:
            n = min(cap, n * _expansion_bound(a, cap))
        return n
    if isinstance(e, Pow) and e.exp.is_Integer and e.exp > 0:
        base, n = _expansion_bound(e.base, cap), 1
        for _ in range(int(e.exp)):
            n = min(cap, n * base)
            if n == cap:
                break
        return n
    if isinstance(e, Var):
        return min(cap, _expansion_bound(e.args[0], cap) ** 2)
    if isinstance(e, Cov):
        return min(cap, _expansion_bound(e.args[0], cap) * _expansion_bound(e.args[1], cap))
    if isinstance(e, Sum):
        return _expansion_bound(e.function, cap)
    if e.args and not isinstance(e, Indexed):
        return max(_expansion_bound(a, cap) for a in e.args)
    return 1


@contextmanager
def _time_limit(seconds: float, what: str) -> Iterator[None]:
    """Raise ExpressionTooLarge after ``seconds`` (main thread only; elsewhere no limit)."""
    if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "SIGALRM"):
        yield
        return

    active = True

    def expire(signum: int, frame: object) -> None:
        if active:
            raise ExpressionTooLarge(f"checking {what} took longer than {seconds:g} s")

    old = signal.signal(signal.SIGALRM, expire)
    # re-armed every 50 ms: a raise that lands where Python drops exceptions (a gc callback,
    # a __del__) is raised again until one stops the step — once, it let an expansion run on
    # for minutes past its 0.2 s
    signal.setitimer(signal.ITIMER_REAL, max(seconds, 0.001), 0.05)
    try:
        yield
    finally:
        while True:  # (an alarm due as the step ends raises here once; then it is off)
            try:
                active = False
                signal.setitimer(signal.ITIMER_REAL, 0)
                signal.signal(signal.SIGALRM, old)
                break
            except ExpressionTooLarge:
                continue


def _is_softmax(e: Expr, model: Model | None = None) -> bool:
    """A step about softmax: a derivative, y/x/t components, the loss (δ alone is a moment's;
    E, Var, Cov make it a moments step, and so do x, y when the note's random vectors)."""
    if e.has(E, Var, Cov):
        return False
    families = {f.name for f in model.families} if model is not None else set()
    return bool(
        e.has(Derivative) or e.has(LOSS)
        or any(str(x.base.label) in SOFTMAX_BASES and str(x.base.label) not in families
               for x in e.atoms(Indexed))
    )


_BOUND_LETTERS = ("k", "l", "m", "j", "i", "p", "r", "s", "u", "v")


#: A Greek letter's name as SymPy spells a symbol (alpha), said as the note wrote it (α).
_GREEK_NAME = re.compile(r"(?<![A-Za-z\\])(alpha|beta|gamma|lambda|mu|nu|tau|theta|phi|psi|omega|"
                         r"eta|kappa|rho|xi|zeta|epsilon|varepsilon|varphi)(?![A-Za-z])")


#: An entry as SymPy prints an Indexed (y[t], g[i, j]) — not E[…], an expectation.
#: (with a letter inside: "ŷ[2]" may be the name of a layer's ŷ^{[2]}, not its entry 2)
_SYMPY_ENTRY = re.compile(r"(?<![\w\\])([^\W\d_]\u0302?)\[(?=[^\]]*[a-z])([a-z0-9][a-z0-9, +\-]{0,7})\]")


def _entry(m: re.Match[str]) -> str:
    if m.group(1) in "EDPV":
        return m.group(0)
    inner = m.group(2).replace(" ", "")
    return f"{m.group(1)}_{inner}" if len(inner) == 1 else f"{m.group(1)}_{{{inner}}}"


def _greek_letter(m: re.Match[str]) -> str:
    return GREEK[m.group(1).removeprefix("var")]


def _in_note_letters(message: str, notation: Notation | None) -> str:
    """A message in the note's own letters: z where verify calls the logits x (its head only,
    up to the first ':' or '(' — what follows may name verify's conventions on purpose)."""
    message = _GREEK_NAME.sub(_greek_letter, message)  # "unknown symbol alpha": α
    message = _SYMPY_ENTRY.sub(_entry, message)  # the engine's y[t]: y_t, as notes write it
    if notation is None or not notation.rename:
        return message
    back: dict[str, str] = {}
    for note_letter, convention in notation.rename.items():
        if len(note_letter) <= 2 and note_letter.isalpha():
            back.setdefault(convention, note_letter)
    cut = min((i for i in (message.find(":"), message.find("(")) if i >= 0), default=len(message))
    head = re.sub(r"(?<![A-Za-z\\])([xytL])(?![A-Za-z])",
                  lambda m: back.get(m.group(1), m.group(1)), message[:cut])
    return head + message[cut:]


def model_notation(ctx: _Context) -> Notation | None:
    return ctx.notation


def _unknown_quantities(lhs: Expr, rhs: Expr, model: Model,
                        notation: Notation | None = None, *, only_vectors: bool = False,
                        declared: Sequence[Hypothesis] = ()) -> list[str]:
    """Names in a step that verify has no meaning for: vectors that are neither random
    families nor softmax's y, x, t (S_i, ŷ_1, g_i), and names of several letters, Greek
    letters or letters with a digit (Σ, sum, c1) that the note did not define.  A single
    Latin letter (a in Var(aX)) is a constant, as lecture notes use it — unless the note
    writes it with an index elsewhere or in A·B: then, alone, it is a whole vector
    (``only_vectors``: just those, for derivatives ∂L/∂o beside o_k).  A letter a declared
    hypothesis gives as a value (μ in E(q_i) = μ) is the note's parameter."""
    vectors: set[str] = set()
    if notation is not None:
        vectors = set(notation.indexed) | {notation.rename.get(v, v) for v in notation.indexed}
    both = (lhs - rhs).xreplace({s: Symbol(s.name) for s in _variables_of_derivatives(lhs, rhs)})
    both = both.replace(lambda e: isinstance(e, JacobianOf), lambda e: S.Zero)  # ∂y/∂x's y, x
    both = both.xreplace({DOTS: S.Zero})  # a matrix's ⋯ is not a name
    # x in x_j is not a name of its own — but a bare y differentiated beside y_i is (∂y/∂x_j
    # with y the note's own scalar, y_i its label: not ∂(label)/∂x_j = 0)
    bare = {d.expr for e in (lhs, rhs) for d in e.atoms(Derivative) if isinstance(d.expr, Symbol)}
    labels = {x.base.label for x in both.atoms(Indexed)} - bare
    if only_vectors:
        return sorted({f"{s.name} without an index" for s in both.free_symbols
                       if isinstance(s, Symbol) and s.name in vectors and not s.is_integer
                       and s not in labels})
    families = {f.name for f in model.families}
    # the note's linear layer (notation.linear_layer): its weights, input and bias are read
    layer = {"W", "h", "bias"} & set(notation.rename.values()) if notation is not None else set()
    out = sorted({str(x.base.label) + "_" + ",".join(map(str, x.indices))
                  for x in both.atoms(Indexed)
                  if str(x.base.label) not in families | set(SOFTMAX_BASES) | layer})
    params = {str(p) for p in model.parameters()} | ({notation.spread} if notation else set()) | \
        {str(x) for x in given_parameters(declared)}
    if both.has(Piecewise):  # Σ_j e^{jz} summed as a geometric series: not the note's meaning
        out.append("a sum SymPy could only split into cases")
    for s in sorted(both.free_symbols, key=str):  # sorted: the same words on every run
        if not isinstance(s, Symbol) or s.is_integer or str(s) in params or s in (LOSS, LENGTH) \
                or s in labels:
            continue
        name = s.name
        if name in SOFTMAX_BASES and name not in families:
            out.append(f"{name} without an index")  # softmax's y, x, t are vectors
            continue
        if name in vectors:
            out.append(f"{name} without an index")
            continue
        if s == model.dim or re.fullmatch(r"[A-Za-z]", name) or name.startswith(("mu_", "sigma_",
                                                                                   "rho_")):
            continue
        out.append(name)
    return out


def _independent_by_lead(step: Step, lhs: Expr, rhs: Expr, model: Model,
                         declared: tuple[Hypothesis, ...]) -> tuple[Hypothesis, ...]:
    """"独立变量求和的方差： Var(X+Y) = Var(X) + Var(Y)", "for independent X, Y: …": the words
    just before a formula about two scalar random variables make them independent there."""
    if not INDEPENDENT_WORDS.search(step.lead or ""):
        return ()
    names = sorted({f.name for f in model.families if f.scalar} &
                   {str(s) for e in (lhs, rhs) for s in e.free_symbols})
    if len(names) != 2:
        return ()
    pair = tuple(names)
    if not any(tuple(sorted(p)) == pair for p in model.dependent):
        return ()
    h = Independent(*pair)
    return () if h in declared else (h,)


#: A step's reason that the label's entries sum to 1: "since Σ y_i = 1", "∑_k t_k = 1".
_SUM_IS_ONE = re.compile(r"(?:\bsum|Σ|∑)\s*(?:_\s*\{?\s*\w\s*\}?\s*)?(?:\^\s*\{?\s*\w+\s*\}?\s*)?"
                         r"([A-Za-z])\s*_\s*\{?\s*\w\s*\}?\s*=\s*1(?![\d.])")


def _label_sums_to_one_by_reason(reason: str, notation: Notation | None) -> bool:
    """Whether a step's reason says the label's entries sum to 1 (or that it is one-hot).

    >>> from attncheck.verify.parse import Notation
    >>> n = Notation(rename={"y": "t", "p": "y"})
    >>> _label_sums_to_one_by_reason("( since sum y _ i = 1 )", n)
    True
    >>> _label_sums_to_one_by_reason("since Σ_i p_i = 1", n)  # the output's, not the label's
    False
    """
    rename = notation.rename if notation is not None else {}
    if _TARGET_WORDS.search(reason):
        return True
    return any(rename.get(m.group(1), m.group(1)) == "t" for m in _SUM_IS_ONE.finditer(reason))


def _pair_sums(lhs: Expr, rhs: Expr) -> tuple[Expr, Expr]:
    """(Σ_i q_i k_i)² = Σ_i (q_i k_i)² + Σ_{i≠j} q_i k_i q_j k_j: where j is free on one side
    only and stands there just in a Σ_{i≠j} (read Σ_i f(i, j) − f(j, j)), the sum is over the
    pairs i ≠ j — j runs too (Σ_j), as in a square's cross terms."""
    sides = [lhs, rhs]
    for n, side in enumerate(sides):
        other = sides[1 - n]
        for j in sorted((s for s in side.free_symbols if s.is_integer and not
                         _free_in(other, s) and _free_in(side, s)), key=str):
            terms = list(Add.make_args(side))
            with_j = [t for t in terms if t.has(j)]
            sums = [t for t in with_j if isinstance(t, Sum) and len(t.limits) == 1 and
                    t.limits[0][0] != j]
            if len(sums) != 1 or len(with_j) != 2:
                continue
            (total,) = sums
            var, lo, hi = total.limits[0]
            diagonal = total.function.xreplace({var: j})
            rest = next(t for t in with_j if t is not total)
            if (rest + diagonal).expand() != 0:
                continue  # not Σ_i f(i, j) − f(j, j)
            others = Add(*(t for t in terms if not t.has(j)))
            sides[n] = others + Sum(total + rest, (j, lo, hi))
    return sides[0], sides[1]


#: Words that set an index apart from another: "for not $i$", "another index $z$", "其他".
_APART = re.compile(r"\bnot\b|\bother\b|\banother\b|\bdifferent\b|\\neq?\b|≠|不|另|其他|其余|非",
                    re.IGNORECASE)


#: Words that say a derivative splits into two cases, without naming them.
_TWO_CASES = re.compile(r"[两二2]\s*种\s*情[况形]|分\s*[两二]\s*种|\btwo\s+cases\b|\b2\s+cases\b",
                        re.IGNORECASE)


#: Words that join the cases again ("将两种情况进行统一", "combining both cases"): after them a
#: step is about every case, and one that holds only apart fails.
_UNIFIED = re.compile(r"统一|综上|合并|combin|together|in general|general form|summar",
                      re.IGNORECASE)


#: A matrix's shape written in parentheses: (m × n).
_SHAPE = r"\(\s*(\w+)\s*(?:\\times|×|x)\s*(\w+)\s*\)"


def _shapes_multiplied(lhs: str, rhs: str) -> bool:
    r"""``(4 \times 64) \times (64 \times 4) = (4 \times 4)``: shapes whose inner sizes meet,
    the product's shape on the right.

    >>> _shapes_multiplied(r"(4 \times 64) \times (64 \times 4)", r"(4 \times 4)")
    True
    >>> _shapes_multiplied(r"(4 \times 64) \times (4 \times 64)", r"(4 \times 4)")
    False
    """
    m = re.fullmatch(rf"\s*{_SHAPE}\s*(?:\\times|×|\\cdot)?\s*{_SHAPE}\s*", lhs)
    r = re.fullmatch(rf"\s*{_SHAPE}\s*", rhs)
    return m is not None and r is not None and m.group(2) == m.group(3) and \
        (r.group(1), r.group(2)) == (m.group(1), m.group(4))


def _only_delta(residual: Expr, letters: bool = False) -> KroneckerDelta | None:
    """The one δ_ab ``residual`` is a multiple of (it vanishes wherever a ≠ b), else None
    (with ``letters``, among the δ of two letters only)."""
    deltas = [d for d in residual.atoms(KroneckerDelta)
              if not letters or all(isinstance(x, Symbol) for x in d.args)]
    if len(deltas) != 1 or residual.xreplace({deltas[0]: 0}) != 0:
        return None
    return deltas[0]


def _told_apart(lead: str, residual: Expr, context: str = "") -> tuple[Symbol, Symbol] | None:
    """(a, b) when ``residual`` vanishes wherever a ≠ b (a multiple of δ_ab) and the last
    sentence before the step names both letters in math with words that set one apart."""
    delta = _only_delta(residual, letters=True)
    if delta is None:
        return None
    a, b = delta.args
    last = re.split(r"(?<=[.。;；!?！？])\s", lead.strip())[-1] if lead.strip() else ""
    named = {m.strip() for m in re.findall(r"\$+\s*([a-z])\s*\$+", last)}
    if {str(a), str(b)} <= named and _APART.search(re.sub(r"\$[^$]*\$", " ", last)):
        return a, b
    if _TWO_CASES.search(context[-300:]) and not _UNIFIED.search(context[-300:]):
        # "对 $z_i$ 求导，有两种情况。" then ∂a_i/∂z_i = …, ∂a_k/∂z_i = −a_k a_i: the second
        # case, which the note counts without naming it
        return a, b
    return None


def _other_case_of(before: Expr | None, lhs: Any, residual: Expr) -> tuple[Symbol, Symbol] | None:
    """(a, b) when ``residual`` vanishes wherever a ≠ b and the step's left side, with a and
    b made one letter, is ``before``, the previous display's: its diagonal twin."""
    delta = _only_delta(residual, letters=True)
    if before is None or delta is None or not isinstance(lhs, Expr) or lhs == before:
        return None
    a, b = delta.args
    if lhs.xreplace({b: a}) == before or lhs.xreplace({a: b}) == before:
        return (b, a) if b in lhs.free_symbols and a not in before.free_symbols else (a, b)
    return None


def _both_cases_of_a_variable(lhs: Expr, rhs: Expr) -> str:
    """The letter of a variable differentiated by (w) when the step also writes it in the
    other case (W) and never as itself outside the derivatives' variables, else ""."""
    sides = (lhs, rhs)  # (each side apart: ∂C/∂w may cancel in lhs − rhs)
    derivatives = [d for e in sides for d in e.atoms(Derivative)]
    by = {v.name for d in derivatives for v, _ in d.variable_count
          if isinstance(v, Symbol) and len(v.name) == 1}
    names = {s.name for e in sides for s in e.free_symbols if isinstance(s, Symbol)} | \
        {str(x.base.label) for e in sides for x in e.atoms(Indexed)}
    bodies = {s.name for d in derivatives for s in d.expr.free_symbols if isinstance(s, Symbol)}
    return next((v for v in sorted(by) if v.swapcase() in names and v not in bodies), "")


def _entry_beside_letter(residual: Expr, written: str = "") -> tuple[Expr, Expr] | None:
    """(j, 1) when ``residual`` vanishes wherever j ≠ 1 (a multiple of δ_{j1}): ∂ŷ_j/∂z_1 =
    (0 − e^{z_j} e^{z_1})/(Σ)² works out the entry z_1 as another than z_j, one of a row
    written entry by entry — wrong only where the letter meets the number."""
    delta = _only_delta(residual)
    if delta is None:
        return None
    ends = {lim[2] for total in residual.atoms(Sum) for lim in total.limits}
    for letter, number in (delta.args, delta.args[::-1]):
        # the number: 1, 2, … or the last entry's d (z_d, d where the sums end), never another
        # index letter or the class a label names
        if isinstance(letter, Symbol) and letter.name in _ENTRY_LETTERS and (
                number.is_Integer or number in ends or number == LENGTH and
                not re.search(rf"_\{{?\s*{number}\b", written)):
            # (n the vector's length — unless the step writes n as an index itself: z_n)
            return letter, number
    return None


_ENTRY_LETTERS = ("i", "j", "k", "l", "m", "c")


def _splits_a_variance(lhs: Expr, rhs: Expr) -> bool:
    """One side holds Var(Σ …) and the other Σ Var(…): the variance of a sum split.  (Var(q·k)
    = Σ_i Var(q_i k_i) is the lecture's own step, whose model — components independent
    across indices — the corpus takes as read unless the note says otherwise.)"""
    def var_of_sum(e: Expr) -> bool:
        return any(v.args[0].has(Sum) for v in e.atoms(Var))

    def sum_of_vars(e: Expr) -> bool:
        return any(s.function.has(Var) for s in e.atoms(Sum))

    return (var_of_sum(lhs) and sum_of_vars(rhs)) or (var_of_sum(rhs) and sum_of_vars(lhs))


def _worded_entries(step: Step, residual: Expr, notation: Notation | None) -> list[str]:
    """Names such as p_dog, z_cat (an entry of a vector named by a word) in a step whose
    residual also holds entries by index or a sum — the two cannot be matched up."""
    if not (residual.has(Indexed) or residual.has(Sum)):
        return []
    vectors = set(notation.rename) | set(notation.indexed) if notation else set()
    vectors |= {"x", "y", "t"}
    written = [v for v in (step.lhs.value, step.rhs.value) if isinstance(v, Expr)]
    bases = {x.base.label for v in written for x in v.atoms(Indexed)}  # Y_pred^{(j)}: indexed
    return sorted({s.name for v in written for s in v.free_symbols if isinstance(s, Symbol)
                   and s not in bases and re.fullmatch(r"[A-Za-z]+_[A-Za-z]{2,}", s.name)
                   and s.name.split("_")[0] in vectors})


def _particular_entries(step: Step, lhs: Expr, rhs: Expr) -> list[str]:
    """Entries with a number for index (x_1, x_2) that the note's definitions brought into a
    step written with general indices (x_i) only."""
    written = [v for v in (step.lhs.value, step.rhs.value) if isinstance(v, Expr)]
    bound = {lim[0] for v in written for sm in v.atoms(Sum) for lim in sm.limits}
    if not any(isinstance(a, Symbol) and a not in bound
               for v in written for x in v.atoms(Indexed) for a in x.indices):
        return []  # ∂L/∂x_3 = y_3 − 1: a step about particular entries itself
    before = {x for v in written for x in v.atoms(Indexed)}
    brought = {x for x in (lhs - rhs).atoms(Indexed)
               if x.indices and all(a.is_Integer for a in x.indices)} - before
    return sorted(str(x.base.label) + "_" + ",".join(map(str, x.indices)) for x in brought)


def _example_values_under_derivative(step: Step) -> list[str]:
    """The names a worked example gave a number (a = σ(−2), z = −2) that a step with a
    derivative reaches through the note's definitions (L = −[y log a + …]); [] for none."""
    written = [v for v in (step.lhs.value, step.rhs.value) if isinstance(v, Expr)]
    if not any(v.has(Derivative) for v in written):
        return []
    # (not the variable differentiated by, nor the quantity differentiated: their numbers
    # are kept out of the step already — see chains.without_variables)
    taken = {x for v in written for d in v.atoms(Derivative) for x in (*d.variables, d.expr)}
    numbers = {n for n, v in step.aliases if isinstance(n, Symbol) and not n.is_integer
               and isinstance(v, Expr) and v.is_number and n not in taken}
    if not numbers:
        return []
    def bare(v: Expr) -> set[Symbol]:  # the names alone, not the letters of t_i, h_j
        return {s for s in v.xreplace({x: Dummy() for x in v.atoms(Indexed)}).free_symbols
                if isinstance(s, Symbol) and not isinstance(s, Dummy)}

    # the names the step reaches: its own, and those of the definitions it names, in turn
    reached = {s for v in written for s in bare(v)}
    for _ in range(3):
        more = {s for n, v in step.aliases if n in reached and isinstance(v, Expr)
                for s in bare(v)}
        if more <= reached:
            break
        reached |= more
    return sorted(str(n) for n in numbers & reached)


def _at_each_entry(lhs: Expr, rhs: Expr, particular: Sequence[str]
                   ) -> list[tuple[Expr, Expr]] | None:
    """The step at every value its free index can take when the note's definition wrote its
    entries out (y_1, y_2: two classes, so k ∈ {1, 2}); None where that is not one free index
    over at most 9 entries."""
    top = max((int(p.rsplit("_", 1)[1]) for p in particular
               if re.fullmatch(r"\d+", p.rsplit("_", 1)[1])), default=0)
    both = lhs - rhs
    bound = {lim[0] for sm in both.atoms(Sum) for lim in sm.limits}
    free = {a for x in both.atoms(Indexed) for a in x.indices
            if isinstance(a, Symbol) and a.is_integer and a not in bound}
    if len(free) != 1 or not 2 <= top <= 9 or both.has(Sum):
        return None
    (k,) = free
    return [(lhs.xreplace({k: Integer(v)}), rhs.xreplace({k: Integer(v)}))
            for v in range(1, top + 1)]


def _variables_of_derivatives(*es: Expr) -> set[Symbol]:
    """o in ∂L/∂o: a variable even where the derivative has already been taken away."""
    return {v for e in es for d in e.atoms(Derivative) for v in d.variables
            if isinstance(v, Symbol)}


def _bound_names(expr: Expr, taken: set[str]) -> Expr:
    """Summation letters renamed by nesting depth (alpha-renaming: the value is unchanged),
    the depth-th letter of k, l, m, … that the step does not use freely."""
    letters = [x for x in _BOUND_LETTERS if x not in taken] or [f"k{n}" for n in range(9)]

    def walk(e: Expr, depth: int) -> Expr:
        if not e.args or isinstance(e, (Indexed, Symbol)):
            return e
        if isinstance(e, Sum) and len(e.limits) == 1:
            var, lo, hi = e.limits[0]
            name = letters[depth] if depth < len(letters) else f"{letters[0]}{depth}"
            fresh = Symbol(name, integer=True, positive=True)
            return Sum(walk(e.function.xreplace({var: fresh}), depth + 1), (fresh, lo, hi))
        return e.func(*[walk(a, depth) for a in e.args])

    return walk(expr, 0)


def _implicit_functions(lhs: Expr, rhs: Expr) -> tuple[Expr, Expr]:
    """u' in a step makes u a function: every plain u of the step becomes u(ξ)."""
    names = {type(d.expr).__name__ for e in (lhs, rhs) for d in e.atoms(Derivative)
             if d.variables == (XI,) * len(d.variables) and isinstance(d.expr, AppliedUndef)}
    if not names:
        return lhs, rhs
    as_functions = {Symbol(n): Function(n)(XI) for n in names}
    return lhs.xreplace(as_functions), rhs.xreplace(as_functions)


def _entries_as_variables(lhs: Expr, rhs: Expr, model: Model) -> tuple[Expr, Expr]:
    """∂g_1(x_1)/∂x_1 = −1/x_1 about a note's own intermediate variables x_1, x_2, …: each
    entry is a plain variable of one-variable calculus (not softmax's, not random)."""
    both = lhs - rhs
    entries = both.atoms(Indexed)
    if not both.has(Derivative) or not entries or both.has(E, Var, Cov, LOSS, Sum) or any(
            str(x.base.label) in SOFTMAX_BASES or str(x.base.label) in {f.name for f in model.families}
            or not all(a.is_Integer for a in x.indices) for x in entries):
        return lhs, rhs
    plain = {x: Symbol(f"{x.base.label}_{'_'.join(map(str, x.indices))}") for x in entries}
    return lhs.xreplace(plain), rhs.xreplace(plain)


def _is_calculus(e: Expr) -> bool:
    """A rule of one-variable calculus the note recalls: d(e^x)/dx = e^x, d ln(x)/dx = 1/x —
    derivatives by a plain letter, nothing indexed, random or the loss."""
    ds = list(e.atoms(Derivative))
    return bool(ds) and all(isinstance(v, Symbol) and not v.is_integer
                            for d in ds for v in d.variables) and \
        not (e.has(Indexed) or e.has(E, Var, Cov) or e.has(LOSS) or e.has(PRIME))


#: how many random points a calculus residual that SymPy cannot simplify is tried at
_CALCULUS_POINTS = 3


def _calculus(lhs: Expr, rhs: Expr) -> tuple[StepStatus, Expr]:
    """Holds when SymPy's derivative makes the sides equal for positive letters (the notes'
    ln x means x > 0); fails when they differ at a random point; else cannot decide."""
    for d in (lhs - rhs).atoms(Derivative):
        others = sorted(str(x) for x in d.expr.free_symbols - set(d.variables))
        if others:  # f/g under d/dx: constants, or functions of x the note did not write f(x)?
            raise UnsupportedExpression(
                f"{', '.join(others)} under d/d{d.variables[0]}: a constant or a function of "
                f"{d.variables[0]}? (write {others[0]}({d.variables[0]}) for a function)")
    free = sorted((lhs - rhs).free_symbols, key=str)
    positive = {x: Dummy(x.name, positive=True) for x in free if isinstance(x, Symbol)}
    back = {v: k for k, v in positive.items()}
    both = (lhs - rhs).xreplace(positive)
    try:
        residual = simplify(both.doit())
    except (TypeError, ValueError, ArithmeticError, RecursionError) as exc:
        raise UnsupportedExpression(f"cannot evaluate this derivative: {exc}") from None
    if residual == 0:
        return StepStatus.HOLDS, S.Zero
    general = {f for f in residual.atoms(AppliedUndef)}
    sides = [{f for f in e.atoms(AppliedUndef)} for e in (lhs, rhs)]
    if general and not (sides[0] and sides[1]):
        # f'(x) = 2x about an f the note does not define here: not a rule for every f
        raise UnsupportedExpression(f"{', '.join(sorted({type(f).__name__ for f in general}))}"
                                    ": a function this step does not define")
    rng = np.random.default_rng(_CALCULUS_POINTS)  # a fixed probe: the verdict is reproducible
    for _ in range(_CALCULUS_POINTS):
        # u, v of a rule (the quotient rule): every function must do, so seeded ones are tried
        concrete = {f: Float(rng.uniform(0.5, 2.0)) * exp(Float(rng.uniform(-1, 1)) * f.args[0])
                    + Float(rng.uniform(1.0, 2.0)) for f in general if len(f.args) == 1}
        probe = residual.xreplace(concrete).doit()
        at = {x: Float(rng.uniform(0.5, 2.0)) for x in probe.free_symbols}
        value = complex(probe.evalf(30, subs=at))
        scale = 1 + abs(complex(both.doit().xreplace(concrete).doit().xreplace(at).evalf(30)))
        if abs(value) > 1e-12 * scale:
            return StepStatus.FAILS, residual.xreplace(back)
    raise UnsupportedExpression(f"cannot decide whether {text(residual.xreplace(back))} is 0")


def _one_row(lhs: Expr, rhs: Expr) -> tuple[Expr, Expr]:
    """A_{ic}, Y_{ic} (sample i, class c): in one row, the class alone is the index; entries
    of different rows (a row-wise softmax of a matrix) are not this checker's business."""
    both = [x for e in (lhs, rhs) for x in e.atoms(Indexed)
            if str(x.base.label) in SOFTMAX_BASES and len(x.indices) == 2]
    if not both:
        return lhs, rhs
    rows = {x.indices[0] for x in both}
    if len(rows) > 1:
        raise UnsupportedExpression("entries of different rows of a matrix (a row-wise "
                                    "softmax): not checked")
    one = {x: x.base[x.indices[1]] for x in both}
    return lhs.xreplace(one), rhs.xreplace(one)


def _softmax_conventions(sides: tuple[Expr, Expr], model: Model,
                         lengths: set[Symbol] = frozenset()) -> tuple[Expr, Expr]:
    """Sums as derivations.softmax writes them: bound index k, upper limit its length n —
    and the note's name for that length is n outside the sums too (Σ_{i=1}^{C} a_i = C)."""
    from derivations.softmax import n as length

    named: set[Expr] = set()

    def convert(s: Sum) -> Expr:
        (var, lo, hi), *rest = s.limits
        if rest:
            return s
        # the note's own name for the number of classes (n, C, K, N, d) is softmax's n
        if isinstance(hi, Symbol) and (not (hi.is_integer and hi.name in "ijklc")
                                       or hi in lengths):
            named.add(hi)
            hi = length
        return Sum(s.function, (var, lo, hi))

    out = [e.replace(lambda x: isinstance(x, Sum), convert) for e in sides]
    bare = {c: length for c in named if c.is_integer}
    return out[0].xreplace(bare), out[1].xreplace(bare)


# ---- one step ---------------------------------------------------------------------------

#: a moment this large (SymPy operations) that ran out of a step's time is not retried
_HEAVY_OPS = 16


@dataclass
class _Context:
    """What checking a file needs along the way."""

    source: Source
    settings: Settings
    deadline: float
    number: int = 0
    #: moments whose step ran out of time, and where: a later step with one is not retried
    too_slow: dict[Expr, str] = field(default_factory=dict)
    #: the note's letters, to say things in them (z, not verify's x)
    notation: Notation | None = None
    seeds: dict[int, int] = field(default_factory=dict)
    #: families whose components the note says are correlated, and where it says so
    correlated: dict[str, str] = field(default_factory=dict)
    #: the class of the one-hot label the note writes out for its example (y = [0, 1, 0, 0]:
    #: 2), for the steps that write that example's entries (−y_2 log ŷ_2)
    example_label: int | None = None
    #: the scores of the note's worked example (z = (1, 2, 3)), for the steps about it alone
    example_scores: tuple[Expr, ...] = ()
    #: the note says its components are independent (see _independence_said)
    independence_said: bool = True
    #: where the note says its random vectors are unit vectors (see _unit_vectors)
    unit_vectors: str = ""
    #: verify's letters and the note's (see _letters), the same for every derivation
    letters: tuple[tuple[str, str], ...] = ()
    #: the left side of the previous display's first step (∂ log p_i/∂z_i): a step that
    #: writes it again by another index is likely its other case (see _other_case_of)
    before: Expr | None = None

    def number_of(self, step: StepResult) -> int:
        """The seed number of a step: its position in the file (stable across reruns)."""
        return self.seeds.get(id(step), step.number)


#: "b_1 and b_2 are correlated by ρ", "分量之间彼此相关" — but not "uncorrelated", "不相关".
_CORRELATED = re.compile(r"(?<![Uu]n)(?<!not )correlat(?:ed|ion)|"
                         r"(?<![不无非])(?:相关系数|彼此相关|相互相关|是相关的|存在相关|有相关)")
#: Words that make what follows a supposition, not the note's statement.
_SUPPOSING = re.compile(r"如果|若|假如|倘若|要是|\b(?:if|when|unless|were)\b", re.IGNORECASE)
_COMPONENT_WORDS = re.compile(r"\b(?:elements?|components?|entries|coordinates?)\b|分量|元素|維|维",
                              re.IGNORECASE)


def _independence_said(events: Sequence[Any], notation: Notation) -> bool:
    """Whether a sentence of the note says its vectors' components are independent (i.i.d.,
    uncorrelated): independence words beside component words or a family's letter — not
    "let X, Y be uncorrelated" about a formula's own variables."""
    families = {f for f in notation.families} | {f.upper() for f in notation.families}
    for e in events:
        if isinstance(e, Directive):
            return True  # the lecturer's declarations state the model
        if not isinstance(e, (Prose, Heading)):
            continue
        # (a full stop ends a sentence before a space only: "i.i.d." is one word)
        for sentence in re.split(r"(?<=[.;!?])\s+|(?<=[。；！？])\s*", e.text):
            words = re.sub(r"\$+[^$]*\$+", " ", sentence)
            math = " ".join(re.findall(r"\$+([^$]*)\$+", sentence))
            if _IDENTITY_LAW.search(math) or (_ASSUMED.search(words) and "Cov" in math):
                return True  # q, k ~ N(0, I_d); "we assume Cov(q_i k_i, q_j k_j) [= 0]"
            if not INDEPENDENT_WORDS.search(words):
                continue
            # (Var(q_i × k_i) written in plain words names its letters too)
            letters = set(re.findall(r"(?<![A-Za-z\\])([A-Za-z])(?![A-Za-z])", math)) | set(
                re.findall(r"(?<![A-Za-z\\])([A-Za-z])(?=_)", words))
            if _COMPONENT_WORDS.search(sentence) or re.search(r"dimension", sentence) or \
                    letters & families:
                return True
    return False


#: A normal law with an identity covariance, N(0, I_{d_k}), N(μ, σ²I): independent components.
_IDENTITY_LAW = re.compile(r"\\mathcal\s*\{?N\}?\s*\(\s*[^,()]*,[^(),]*?(?<![A-Za-z\\])I(?![A-Za-z])")
_ASSUMED = re.compile(r"\bassum|假设|假定", re.I)


#: Words saying the random vectors are of unit length: "uniformly distributed unit vectors",
#: "random, and normalized vectors", "单位向量", "均匀分布在单位球面上".
_UNIT_VECTORS = re.compile(r"\bunit[- ]vectors?\b|\bunit[- ]norm\b|\bnormali[sz]ed\s+(?:random\s+)?"
                           r"vectors?\b|\bon the unit (?:hyper)?sphere\b|单位向量|单位球面|"
                           r"模长?为\s*1", re.IGNORECASE)
_RANDOM_WORDS = re.compile(r"random|uniform|distributed|随机|均匀|分布", re.IGNORECASE)


def _unit_vectors(source: Source, events: Sequence[Any]) -> str:
    """Where a sentence says the note's random vectors are unit vectors, as "line:col";
    "" when none does."""
    for e in events:
        if not isinstance(e, Prose):
            continue
        for sentence in re.split(r"(?<=[.!?。！？；;])\s*", e.text):
            if _UNIT_VECTORS.search(sentence) and _RANDOM_WORDS.search(sentence):
                loc = source.location(e.offset(0))
                return f"{loc.line}:{loc.column}"
    return ""


def _correlated_components(source: Source, events: Sequence[Any], notation: Notation
                           ) -> tuple[tuple[str, str], ...]:
    """Families whose components the note says are correlated with each other (a sentence
    that says so, naming a component b_1 or the components in words), and where it says it.

    verify's families have independent components across indices; such a note asks for
    another model, so its steps that mix components are not judged in the i.i.d. one."""
    families = tuple(f.name for f in notation.model().families)
    out: dict[str, str] = {}
    for e in events:
        if not isinstance(e, Prose):
            continue
        text = re.sub(r"\$+([^$]*)\$+", lambda m: " " + m.group(1) + " ", e.text)
        for sentence in re.split(r"(?<=[.!?。！？；;])\s*", text):
            m = _CORRELATED.search(sentence)
            if not m or _SUPPOSING.search(sentence[:m.start()]):
                continue  # ("如果变量之间存在相关性，则…", "if they are correlated": a case aside)
            # two components of one family (b_1 and b_2), or "the components/分量" of the
            # one family the sentence names — not q_i beside k_i (a correlated pair, which
            # the model has: ρ between the families)
            subs = {f: set(re.findall(rf"(?<![A-Za-z\\]){f}_\{{?(\w+)", sentence))
                    for f in families}
            mentioned = [f for f in families if subs[f] or re.search(
                rf"(?<![A-Za-z\\]){f.upper()}(?![A-Za-z])|(?<![A-Za-z\\]){f}(?![A-Za-z_])",
                sentence)]
            named = [f for f in families if len(subs[f]) >= 2]
            if not named and _COMPONENT_WORDS.search(sentence) and len(mentioned) <= 1:
                named = mentioned or list(families)
            loc = source.location(e.offset(0))
            for f in named:
                out.setdefault(f, f"{loc.line}:{loc.column}")
    return tuple(out.items())


def _mixes_components(moment: Expr, family: str) -> bool:
    """Whether a moment involves two components of ``family`` (b_1 and b_2, or b_i summed)."""
    comps = {x for x in moment.atoms(Indexed) if str(x.base.label) == family}
    bound = {v for sm in moment.atoms(Sum) for v, *_ in sm.limits}
    return len(comps) > 1 or any(set(x.indices) & bound for x in comps)


def _loc(ctx: _Context, link: Link, offset: int | None = None) -> Location:
    at = link.start if offset is None else offset
    return ctx.source.location(link.block.offset(at))


def _free_in(e: Expr, sym: Expr) -> bool:
    """Whether ``sym`` occurs in e other than as a sum's own index (∂y_i/∂x_k has i and k)."""
    def unbind(s: Sum) -> Expr:
        return s.function.xreplace({v: Dummy() for v, *_ in s.limits})

    return bool(e.replace(lambda x: isinstance(x, Sum), unbind).has(sym))


def _under_condition(e: Expr, cond: Any) -> Expr:
    """e under a case condition ('=', i, j): j := i; ('≠', i, j): δ_ij := 0."""
    if not cond or cond[0] == "otherwise":
        return e
    rel, a, b = cond
    if rel == "=":  # subs, not xreplace: a sum's own index is not the condition's
        if isinstance(b, Symbol) and not b.is_Number:
            return e.subs(b, a)
        if isinstance(a, Symbol):
            return e.subs(a, b)
    if rel == "≠" and isinstance(a, Symbol) and isinstance(b, Symbol):
        # every assignment with a ≠ b is a relabelling of a = m+1, b = m+2 (m the largest
        # index written): the claim under a ≠ b is the claim at those two indices
        m = max((int(x) for x in e.atoms(Integer) if x.is_positive), default=0)
        return e.subs({a: Integer(m + 1), b: Integer(m + 2)}, simultaneous=True)
    return e


def _status_of(needs: tuple[frozenset[Hypothesis], ...], declared: frozenset[Hypothesis]
               ) -> tuple[StepStatus, tuple[frozenset[Hypothesis], ...]]:
    inside = tuple(s for s in needs if s <= declared)
    if needs and not needs[0]:
        return StepStatus.HOLDS, needs
    if inside:
        return StepStatus.HOLDS_GIVEN, inside + tuple(s for s in needs if s not in inside)
    if needs:
        return StepStatus.NEEDS_UNDECLARED, needs
    return StepStatus.FAILS, ()


def _moments(lhs: Expr, rhs: Expr, model: Model, declared: tuple[Hypothesis, ...],
             reason: str, variance: Expr = Integer(1)
             ) -> tuple[StepStatus, tuple[frozenset[Hypothesis], ...], Expr, bool]:
    bound = _expansion_bound(lhs, MAX_TERMS + 1) + _expansion_bound(rhs, MAX_TERMS + 1)
    if bound > MAX_TERMS:
        raise ExpressionTooLarge(f"the step expands into more than {MAX_TERMS} terms")
    pool = candidates(model, declared, variance)
    # Σ_c a_c and Σ_j a_j are one sum: bound letters renamed by depth before comparing
    both = lhs - rhs
    taken = {str(x) for x in both.free_symbols} | {str(x.base.label) for x in both.atoms(Indexed)} \
        | {f.name for f in model.families}
    lhs, rhs = _bound_names(lhs, taken), _bound_names(rhs, taken)
    v = check_equality(lhs, rhs, model, pool, reason)
    dset = frozenset(declared)
    status, needs = _status_of(v.needs, dset)
    residual = _canonical(apply_hypotheses(v.residual, tuple(h for h in pool if h in dset), model))
    return status, needs, residual, v.mean_square


def _softmax(lhs: Expr, rhs: Expr, model: Model, declared: tuple[Hypothesis, ...], reason: str
             ) -> tuple[StepStatus, tuple[frozenset[Hypothesis], ...], Expr]:
    """A softmax step, with the target statements the note made (and Σ_k t_k = 1 tried:
    a step that uses it without the note saying so needs it, undeclared)."""
    from derivations.checking import Status
    from derivations.softmax import TARGET_SUMS_TO_ONE, check_softmax_equality
    from derivations.softmax import g as FREE_VECTOR
    from derivations.softmax.hypotheses import SoftmaxHypothesis

    lhs, rhs = _one_row(lhs, rhs)
    label = IndexedBase("t")
    if any(isinstance(d.expr, Indexed) and d.expr.base == label
           for e in (lhs, rhs) for d in e.atoms(Derivative)):
        # ∂y_i/∂z_j = y_i(1 − y_i) where the note's y is elsewhere its label: no label moves
        # with the scores, so here the letter means something else (the output, as once before)
        raise UnsupportedExpression("the label differentiated by the scores: here its letter "
                                    "means something else than the label")
    layered = sorted({str(x) for e in (lhs, rhs) for x in e.atoms(Indexed)
                      if str(x.base.label) in SOFTMAX_BASES and any(
                          isinstance(a, Symbol) and a.name[:1].isupper() for a in x.indices)})
    if layered:  # z_L, a_L: the last layer's whole vector, not an entry of it
        raise UnsupportedExpression(f"{', '.join(layered)}: a capital subscript names a layer "
                                    "(a whole vector), not an entry")
    for a, b in ((lhs, rhs), (rhs, lhs)):
        if b.has(Sum) and _lettered_terms(a):
            raise UnsupportedExpression("a sum written out over entries named by letters "
                                        "(z_a + z_b + z_c): the vector's length is not said")
    lengths = letters_as_lengths(lhs, rhs)
    lhs, rhs = _softmax_conventions((lhs, rhs), model, lengths)
    count = counted_length(lhs, rhs)
    if count is not None:
        # L = −Σ_{i=1}^{C} … with the note's C = 10 beside Σ_{k≠i}, whose limits it left
        # out: the open sum runs over the same ten classes
        lhs, rhs = lhs.xreplace({LENGTH: count}), rhs.xreplace({LENGTH: count})
    lhs, rhs = through_layer(lhs), through_layer(rhs)
    free, touched = free_vectors(lhs, rhs)
    if touched or len(free) > 1:
        raise UnsupportedExpression(f"unknown vector {min(touched or free)} (use x, y, t)")
    if free:
        # grad_i in Σ_i y_i(δ_ij − y_j) grad_i, a vector the note never defined: the engine's
        # free vector g (no score moves it — no derivative here touches it).  Only a claim
        # true for every value of it is true of the note's: anything else is not judged
        (name,) = free
        lhs, rhs = (e.replace(lambda a: isinstance(a, IndexedBase) and str(a.label) == name,
                              lambda a: FREE_VECTOR) for e in (lhs, rhs))
    pool = tuple(h for h in declared if isinstance(h, SoftmaxHypothesis))
    pool += () if TARGET_SUMS_TO_ONE in pool else (TARGET_SUMS_TO_ONE,)
    v = check_softmax_equality(lhs, rhs, n=written_length(lhs, rhs), reason=reason,
                               hypotheses=pool)
    constants = {c for c in v.residual_given.free_symbols if isinstance(c, Symbol) and c.is_real
                 and not c.is_integer}
    if not v.decided and constants:
        # e^{x_i + c}/Σ_j e^{x_j + c} = e^c y_i, said of every constant c: one value of c
        # where it fails (c = 13/10) is a counterexample to the claim
        at = {c: PARAMETER_VALUE for c in constants}
        w = check_softmax_equality(lhs.xreplace(at), rhs.xreplace(at),
                                   n=written_length(lhs, rhs), reason=reason, hypotheses=pool)
        if w.decided and not w.needs:
            v = w
    if free and v.status is Status.FAILS and free != {"h"}:
        # (the layer's input h is the note's: a claim that fails for some input fails)
        raise UnsupportedExpression(f"{name} — verify did not read what it is in this note, and "
                                    "the step does not hold for every value of it")
    if not v.decided:
        raise UnsupportedExpression(f"cannot decide whether {text(v.residual_given)} is 0")
    status, needs = _status_of(v.needs, frozenset(declared))
    return status, needs, v.residual_given


def through_layer(e: Expr) -> Expr:
    """∂f/∂W_{kd} → (∂f/∂x_k)·h_d and ∂f/∂bias_k → ∂f/∂x_k: the weights and the bias of the
    note's linear layer (x_k = Σ_d W_{kd} h_d + bias_k, see notation.linear_layer) reach f
    only through the scores — the chain rule, for an f written in x, y, t.

    >>> from sympy import Derivative, IndexedBase, Symbol
    >>> from attncheck.verify.parse import index_symbol
    >>> k, d = index_symbol("k"), index_symbol("d")
    >>> W, x, h = IndexedBase("W"), IndexedBase("x"), IndexedBase("h")
    >>> through_layer(Derivative(Symbol("L"), W[k, d]))
    Derivative(L, x[k])*h[d]
    """
    if not e.has(IndexedBase("W"), IndexedBase("bias")):
        return e

    def reach(d: Derivative) -> Expr:
        (var, count), = d.variable_count
        label = str(var.base.label) if isinstance(var, Indexed) else ""
        if label not in ("W", "bias"):
            return d
        if count != 1 or d.expr.has(IndexedBase("W"), IndexedBase("bias")):
            raise UnsupportedExpression(f"a derivative by {text(var)} of an expression with the "
                                        "weights in it: only through the scores is checked")
        through = Derivative(d.expr, IndexedBase("x")[var.indices[0]])
        return through * IndexedBase("h")[var.indices[1]] if label == "W" else through

    out = e.replace(lambda a: isinstance(a, Derivative), reach)
    if out.has(IndexedBase("W"), IndexedBase("bias")):
        raise UnsupportedExpression("the weights or the bias of the layer outside a derivative "
                                    "by them: not checked")
    return out


def _lettered_terms(e: Expr) -> bool:
    """e^{z_a} + e^{z_b} + e^{z_c}: a written-out sum whose terms are entries named by
    three or more different letters — a vector of those entries, of a length not said."""
    for a in e.atoms(Add):
        letters = [ix.indices[-1] for t in a.args for ix in t.atoms(Indexed)
                   if str(ix.base.label) in SOFTMAX_BASES and isinstance(ix.indices[-1], Symbol)]
        if len(a.args) >= 3 and len(set(letters)) >= 3 and len(letters) == len(a.args):
            return True
    return False


def _worked_example(lhs: Expr, rhs: Expr, aliases: Sequence[tuple[Expr, Expr]],
                    written: tuple[Expr, Expr]) -> tuple[Expr, Expr]:
    """Σ_{k=1}^{C} f(k) written out as f(1) + f(2) + f(3) on the other side: in this worked
    example C is 3 — the sum is expanded so the example's values (Y_{11} = 1) apply.

    The loss L beside such a side is the example's loss too: −Σ_k t_k log y_k over the
    entries the example gives values for (Y = [1, 0, 0]: three), so those values apply."""
    for a, b, as_written in ((lhs, rhs, written[1]), (rhs, lhs, written[0])):
        sums = list(a.atoms(Sum))
        if not sums or b.has(Sum):
            continue
        uppers = {s.limits[0][2] for s in sums}
        ints = [int(x) for ix in b.atoms(Indexed) for x in ix.indices if x.is_Integer]
        if len(uppers) != 1 or not ints or max(ints) < 2:
            continue
        # the example's length: the terms the other side writes out, or else the entries
        # its values are given for (t = [1, 0, 0]: 3) — never the largest index alone
        # (∂y_1/∂x_2 says nothing of how many entries y has)
        size = max(ints) if writes_out(as_written, max(ints)) else _example_size(aliases)
        upper = next(iter(uppers))
        if size < max(ints) or not isinstance(upper, Symbol) or b.has(upper):
            continue
        m = Integer(size)
        concrete = a.xreplace({upper: m}).replace(
            lambda s: isinstance(s, Sum), lambda s: Add(*(s.function.xreplace(
                {s.limits[0][0]: Integer(v)}) for v in range(int(s.limits[0][1]),
                                                          int(s.limits[0][2]) + 1))))
        expanded = substitute(concrete, aliases)
        lhs, rhs = (expanded, b) if a is lhs else (b, expanded)
        break
    return _example_loss(lhs, rhs, aliases)


def _example_size(aliases: Sequence[tuple[Expr, Expr]]) -> int:
    """The most entries 1 … m of one vector a worked example gives numbers for (t_1 = 1,
    t_2 = 0, t_3 = 0: 3) — the length of the example's vectors."""
    valued = {(str(k.base.label), k.indices[-1]) for k, v in aliases
              if isinstance(k, Indexed) and k.indices[-1].is_Integer and v.is_number}
    sizes = [0]
    for base in {b for b, _ in valued}:
        m = 0
        while (base, Integer(m + 1)) in valued:
            m += 1
        sizes.append(m)
    return max(sizes)


def _example_loss(lhs: Expr, rhs: Expr, aliases: Sequence[tuple[Expr, Expr]]
                  ) -> tuple[Expr, Expr]:
    """L written out over a worked example's target: when every target entry t_1 … t_m of
    the row the other side is about has a value (Y_{11} = 1, Y_{12} = 0, Y_{13} = 0)."""
    if not (lhs.has(LOSS) or rhs.has(LOSS)) or (lhs.has(LOSS) and rhs.has(LOSS)):
        return lhs, rhs
    a, b = (lhs, rhs) if lhs.has(LOSS) else (rhs, lhs)
    entries = [x for x in b.atoms(Indexed) if str(x.base.label) in SOFTMAX_BASES]
    if not entries or a.has(Sum) or b.has(Sum) \
            or not all(i.is_Integer for x in entries for i in x.indices):
        return lhs, rhs
    rows = {x.indices[:-1] for x in entries}
    if len(rows) != 1:
        return lhs, rhs
    row = next(iter(rows))
    valued = {k: v for k, v in aliases
              if isinstance(k, Indexed) and str(k.base.label) == "t"
              and k.indices[:-1] == row and k.indices[-1].is_Integer and v.is_number}
    m = 0
    while IndexedBase("t")[row + (Integer(m + 1),)] in valued:
        m += 1
    if m < 2 or any(int(x.indices[-1]) > m for x in entries):
        return lhs, rhs
    t, y = IndexedBase("t"), IndexedBase("y")
    loss = -Add(*(t[row + (Integer(c),)] * log(y[row + (Integer(c),)]) for c in range(1, m + 1)))
    a = substitute(a.xreplace({LOSS: loss}), aliases)
    return (a, b) if lhs.has(LOSS) else (b, a)


#: Statuses of a step that holds (given hypotheses or not).
_HOLDING = (StepStatus.HOLDS, StepStatus.HOLDS_GIVEN)


def _contradicted_failure(steps: list[StepResult], conclusion: StepResult, chain: Chain
                          ) -> list[StepResult]:
    """a = b = c = d with a = b, c = d and a = d holding: b = c must hold too, so its failure
    contradicts verify's own other verdicts — one side of it was misread (a limitless Σ_i
    given the wrong range, π(a_t) read as a product).  That one failure is not reported as
    the note's error: it is "cannot check", with the reason."""
    failed = [n for n, s in enumerate(steps) if s.status is StepStatus.FAILS]
    if conclusion.status not in _HOLDING or len(failed) != 1 or len(steps) < 3 or \
            any(s.status not in _HOLDING for n, s in enumerate(steps) if n != failed[0]) or \
            len({st.condition_value for st in chain.steps}) != 1:
        return steps
    at = failed[0]
    steps[at] = replace(steps[at], status=StepStatus.NOT_CHECKED, evidence=None, note=(
        "cannot check: verify's own verdicts disagree here — the chain's other steps hold and "
        "so does its first expression = its last, so this step must hold too; one of its "
        "sides was misread"))
    return steps


def _recorded(ctx: _Context, step: Step, status: StepStatus, note: str, n: int,
              declared: frozenset[Hypothesis], model: Model) -> StepResult:
    lhs = step.lhs.value if isinstance(step.lhs.value, Expr) else Symbol("?")
    rhs = step.rhs.value if isinstance(step.rhs.value, Expr) else Symbol("?")
    problem = None
    bad = step.lhs if step.lhs.problem else step.rhs if step.rhs.problem else None
    if bad is not None:
        problem = _loc(ctx, bad, bad.problem_at)
    return StepResult(n, _loc(ctx, step.rhs), lhs, rhs, step.reason, status, (), declared,
                      Symbol("?") if status is StepStatus.NOT_READ else lhs - rhs, False, "",
                      lhs_source=step.lhs.source, rhs_source=step.rhs.source, kind=step.kind,
                      relation=step.relation, note=note, condition=step.condition,
                      problem_location=problem)


_NOT_CHECKED = {
    "approximation": "not checked: an approximation (≈) is not an identity",
    "alternative": "not checked: one of alternatives joined by 'or' (the note does not say "
                   "in which case each holds)",
    "proportion": "not checked: a proportionality (∝)",
    "inequality": "not checked: inequalities are not decided by the engine",
}


def _unwritten(e: Expr) -> bool:
    """⋯, or a row of them: an entry the note does not write out."""
    return e == DOTS or (isinstance(e, VectorLiteral) and all(_unwritten(a) for a in e.args))


def _positions(entries: Sequence[Expr], size: int) -> list[Expr | None]:
    """The index each written entry of a row (or column) stands for: 1, 2, … before the ⋯
    and …, size−1, size after it, as a reader takes ``y_1 & y_2 & ⋯ & y_n`` (None: the ⋯)."""
    if DOTS not in entries:
        return [Integer(k + 1) for k in range(len(entries))]
    first = list(entries).index(DOTS)
    last = len(entries) - 1 - list(entries)[::-1].index(DOTS)
    # between two ⋮ (1, ⋮, j, ⋮, n): a general row j, at no place a reader can number
    return [Integer(k + 1) if k < first else None if k <= last else
            Integer(size + 1 - (len(entries) - 1 - k)) for k in range(len(entries))]


def _implicit_sum(lhs: Expr, rhs: Expr) -> tuple[Expr, Expr]:
    r"""``\frac{e^{z_i}}{\sum_C}`` where the note never says what Σ_C is: the sum of the
    exponentials of the scores it divides, Σ_k e^{x_k} — in a step about the softmax's
    exponentials only (a Σ the note defines was substituted before this)."""
    sigma = [s for s in (lhs - rhs).free_symbols if isinstance(s, Symbol) and s.name == "Sigma"]
    sigma += [x for x in (lhs - rhs).atoms(Indexed) if str(x.base.label) == "Sigma"]
    if not sigma or not any(e.has(IndexedBase("x")) for s in (lhs, rhs) for e in s.atoms(exp)):
        return lhs, rhs
    if any(str(x.base.label) not in SOFTMAX_BASES + ("Sigma",) for x in (lhs - rhs).atoms(Indexed)):
        return lhs, rhs  # ∂(e_j/Σ)/∂x_i: the row names its own shorthands, Σ among them
    k = next(index_symbol(c) for c in "kmlr" if index_symbol(c) not in (lhs - rhs).free_symbols)
    total = Sum(exp(IndexedBase("x")[k]), (k, 1, LENGTH))
    whole = {s: total for s in sigma}
    return lhs.xreplace(whole), rhs.xreplace(whole)


def _jacobian_entries(side: Expr, other: Expr) -> Expr:
    """∂y/∂x against a matrix written out: the matrix of ∂y_i/∂x_j at the entries' places.

    A matrix with ⋯ in its rows and ⋮ among them is read the way a reader does: the rows and
    columns before the dots are 1, 2, …, those after them end at n.  An entry depends on n
    only through which indices are equal, so n is taken one past the dots (y_1, y_2, ⋯, y_n
    as y_1, y_2, y_4): every pattern of equal and distinct indices the matrix shows is kept."""
    if not isinstance(side, (JacobianOf, EntryMatrix)) or not isinstance(other, VectorLiteral):
        return side
    entry = side.entry
    if not all(isinstance(r, VectorLiteral) for r in other.args):
        raise UnsupportedExpression("∂y/∂x against a list: write the Jacobian as a matrix")
    rows = [list(r.args) for r in other.args]
    size = max(len(rows), max(len(r) for r in rows))
    row_at = _positions([DOTS if all(e == DOTS for e in r) else Integer(0) for r in rows], size)
    out = []
    for r, i in zip(rows, row_at):
        col_at = _positions(r, size)
        out.append(VectorLiteral(*(DOTS if i is None or j is None or e == DOTS
                                   else entry(i, j) for e, j in zip(r, col_at))))
    return VectorLiteral(*out)


def _at_written_size(side: Expr, other: Expr) -> Expr:
    """The written matrix beside a Jacobian with ⋯ in it: its n at the size the dots imply."""
    # (beside another written matrix with dots too: ∂S_1/∂z_n against −S_1 S_n, n the last of
    # four written rows and columns — never 1, which a general n might be)
    if not (isinstance(other, (JacobianOf, EntryMatrix)) or (
            isinstance(other, VectorLiteral) and other.has(DOTS))) or \
            not (isinstance(side, VectorLiteral) and side.has(DOTS)):
        return side
    rows = [list(r.args) if isinstance(r, VectorLiteral) else [r] for r in side.args]
    end = Integer(max(len(rows), max(len(r) for r in rows)) + 1)
    # the last row and column the note writes by its own letter (ŷ_d, y_K): that length too
    def letters(entries: Sequence[Expr]) -> set[Symbol]:
        return {x for e in entries for a in e.atoms(Indexed) for x in a.indices
                if isinstance(x, Symbol) and x != LENGTH}

    # (the corners: the last row's first and last entries, the first row's last, against the
    # first entry of all — diag(s) writes its s_m only in the last)
    ends = letters([rows[-1][0], rows[-1][-1], rows[0][-1]]) - letters([rows[0][0]])
    if len(ends) > 1:
        # ∂ŷ_1/∂z_1 ⋯ ∂ŷ_1/∂z_n ⋮ ∂ŷ_m/∂z_1: rows to m, columns to n — the general layout of a
        # Jacobian, not the softmax's square one at a size verify could number
        raise UnsupportedExpression(f"a matrix whose rows and columns end at different letters "
                                    f"({', '.join(sorted(map(str, ends)))}): its size is not one "
                                    "number")
    return side.xreplace({LENGTH: end} | ({ends.pop(): end} if ends else {}))


def _variance(notation: Notation | None) -> Expr:
    """The variance the note gives its components' standard deviation σ (σ²), else 1."""
    if notation is None or not notation.spread:
        return Integer(1)
    return notation.spread_symbol() ** 2


def _numbers(lhs: Expr, rhs: Expr
             ) -> tuple[StepStatus, tuple[frozenset[Hypothesis], ...], Expr] | None:
    """Two numbers: equal, or not.  e^{20}/(e^{20} + e^0) = 1/(1 + e^{−20}) is 0 only once
    powers of e are combined, which simplify does; where it cannot, 60 digits decide — a
    difference a note's arithmetic leaves is far above 10^-45 of the sides' size."""
    d = lhs - rhs
    try:
        if simplify(d) == 0:
            return StepStatus.HOLDS, (frozenset(),), S.Zero
        gap = abs(complex(d.evalf(60)))
        size = max(1.0, abs(complex(lhs.evalf(30))), abs(complex(rhs.evalf(30))))
    except (TypeError, ValueError, ArithmeticError):
        return None
    if gap > 1e-45 * size:
        return StepStatus.FAILS, (), d
    return StepStatus.HOLDS, (frozenset(),), S.Zero


def _largest_as_constant(e: Expr) -> Expr:
    """max(x), min(x) as a real constant M where nothing is differentiated: an identity in x
    that holds for every real M holds at M = max(x) (softmax(x − max x) = softmax(x)).  Under
    a derivative M depends on x (its derivative is 1 at the argmax), so it is left alone."""
    if e.has(Derivative):
        return e
    return e.replace(lambda f: isinstance(f, AppliedUndef) and f.func.__name__ in ("max", "min")
                     and len(f.args) == 1 and isinstance(f.args[0], IndexedBase),
                     lambda f: Symbol(f"{f.func.__name__}({f.args[0]})", real=True))


def _judge(lhs: Expr, rhs: Expr, model: Model, declared: tuple[Hypothesis, ...], reason: str,
           variance: Expr = Integer(1), scores: tuple[Expr, ...] = ()
           ) -> tuple[StepStatus, tuple[frozenset[Hypothesis], ...], Expr, bool, str]:
    """One equality to the right engine: (status, needs, residual, mean square?, checker);
    ``variance`` is the components' variance the note names (σ²), else 1; ``scores`` the
    values of its worked example's scores, for a step with that example's numbers in it.

    Written-out vectors [a, b, c] = [d, e, f] are judged entry by entry: the verdict is
    the worst entry's."""
    lhs, rhs = _at_written_size(lhs, rhs), _at_written_size(rhs, lhs)
    lhs, rhs = _jacobian_entries(lhs, rhs), _jacobian_entries(rhs, lhs)
    lhs, rhs = matrix_entries(lhs, rhs)
    if isinstance(lhs, EntryVector) or isinstance(rhs, EntryVector):
        raise UnsupportedExpression("softmax(…) as a whole vector against something that is "
                                    "not one: vector algebra is not checked")
    for side in (lhs, rhs):
        if not isinstance(side, VectorLiteral) and side.has(VectorLiteral, JacobianOf,
                                                            EntryMatrix, EntryVector):
            raise UnsupportedExpression("a vector or matrix (written out, or a Jacobian ∂p/∂z) "
                                        "inside an expression: vector and matrix algebra is "
                                        "not checked")
    if isinstance(lhs, VectorLiteral) or isinstance(rhs, VectorLiteral):
        if not (isinstance(lhs, VectorLiteral) and isinstance(rhs, VectorLiteral)) or \
                len(lhs.args) != len(rhs.args):
            raise UnsupportedExpression("a vector against something that is not a vector of "
                                        "the same length")
        order = [StepStatus.FAILS, StepStatus.NEEDS_UNDECLARED, StepStatus.HOLDS_GIVEN,
                 StepStatus.HOLDS]
        worst = None
        written = [not (_unwritten(a) or _unwritten(b)) for a, b in zip(lhs.args, rhs.args)]
        if not any(written):
            raise UnsupportedExpression("no entry written out on both sides")
        residuals = []
        for a, b, w in zip(lhs.args, rhs.args, written):
            r = _judge(a, b, model, declared, reason, variance) if w else None
            residuals.append(r[2] if r is not None and not r[0].ok else S.Zero)
            if r is not None and (worst is None or order.index(r[0]) < order.index(worst[0])):
                worst = r
        assert worst is not None
        # the residual entry by entry: 0 where an entry holds (or is not written out)
        return worst[:2] + (VectorLiteral(*residuals),) + worst[3:]
    from derivations.expectation import is_random

    lhs, rhs = _largest_as_constant(lhs), _largest_as_constant(rhs)
    example = _at_example_scores(lhs, rhs, scores)
    if example is not None:  # Σ_j e^{z_j} = 2.718 + 7.389 + 20.086 at z = (1, 2, 3)
        a, b = example  # held to the places the step writes by _check_step
        # (equal as numbers, not only as written: −ln(e/(e + 1)) = ln(1 + 1/e))
        decided = (StepStatus.HOLDS, (frozenset(),), S.Zero) if a == b else _numbers(a, b)
        if decided is None:
            raise UnsupportedExpression(f"cannot decide whether {text(a - b)} is 0")
        return decided + (False, "decimals")
    scores_here = any(str(x.base.label) == "x" for x in (lhs - rhs).atoms(Indexed))
    if scores_here and any(side.has(S.Exp1) or any(f.args[0].is_number for f in side.atoms(exp))
                      for side in (lhs, rhs)):
        # σ_1(z) = e^1/Σ_j e^{z_j}: e^1 is e^{z_1} at the example's z = (1, 2, 3), said in
        # words and not read — for a general z the step says nothing
        raise UnsupportedExpression("numbers for the scores of the note's example, whose "
                                    "values verify did not read (not checked)")
    for a, b in ((lhs, rhs), (rhs, lhs)):
        if b.is_number and not b.is_Integer and not a.is_number and any(
                str(x.base.label) in ("x", "y") for x in a.atoms(Indexed)):
            # Σ_j e^{z_j} = 2.718 + 7.389 + 20.086, P_1 = e^{7.09}/(e^{7.09} + …): the
            # example's scores (given in words or a table) are not read; for every z the
            # numbers say nothing
            raise UnsupportedExpression("numbers for the scores of the note's example, whose "
                                        "values verify did not read (not checked)")
        if b.is_number and not isinstance(a, VectorLiteral) and is_random(a, model):
            # q·k = (1×1) + (−1×1) = 0: the note has put in values of its own example
            raise UnsupportedExpression("a random quantity equal to a number: the note "
                                        "seems to use values of its own (not checked)")
        unread = sorted(x.name for x in a.free_symbols if isinstance(x, Symbol) and
                        re.fullmatch(r"[A-Z]", x.name) and not x.is_integer and x != LOSS)
        if b.is_number and unread and len(unread) == len(a.free_symbols) and \
                not a.has(Function, Indexed, Sum, Derivative):
            # A V = [0.33 0.67][10; 20] = 16.7: a capital the note gave a matrix in its own
            # words ("attention weights A = …"), which verify did not read
            raise UnsupportedExpression(f"{', '.join(unread)} beside a number: its value in "
                                        "the note's example was not read (not checked)")
    if lhs.is_number and rhs.is_number and lhs != rhs:
        decided = _numbers(lhs, rhs)
        if decided is not None:
            return decided + (False, "numbers")
    if lhs == rhs:  # the same expression on both sides (a + 1 − 1 was already cancelled)
        checker = "softmax" if _is_softmax(lhs, model) else "moments"
        return StepStatus.HOLDS, (frozenset(),), S.Zero, False, checker
    lhs, rhs = _entries_as_variables(lhs, rhs, model)
    if _is_calculus(lhs) or _is_calculus(rhs):
        status, residual = _calculus(lhs, rhs)
        return status, (frozenset(),) if status.ok else (), residual, False, "calculus"
    if _is_softmax(lhs, model) or _is_softmax(rhs, model):
        status, needs, residual = _softmax(lhs, rhs, model, declared, reason)
        return status, needs, residual, False, "softmax"
    status, needs, residual, mean_square = _moments(lhs, rhs, model, declared, reason, variance)
    if status is StepStatus.FAILS and not mean_square and residual.has(log) and \
            not is_random(lhs - rhs, model) and simplify(exp(residual)) == 1:
        # log(e^a + e^b) = a + log(1 + e^{b−a}): a difference of logs SymPy leaves unsimplified;
        # its exponential is 1, and for real sides that makes the difference 0
        return StepStatus.HOLDS, (frozenset(),), S.Zero, False, "moments"
    unread = _parameters_of_a_law(lhs, rhs, residual, model, variance) \
        if status is StepStatus.FAILS else []
    if unread:
        # Σ_i E[X_i] = np, X_i a Bernoulli(p) trial in the words: p is a parameter of the
        # note's own law, which verify did not read — the step is false only for some p
        raise UnsupportedExpression(f"{', '.join(unread)} — verify did not read what it is in "
                                    "this note, and the step does not hold for every value of "
                                    "it")
    return status, needs, residual, mean_square, "moments"


def _parameters_of_a_law(lhs: Expr, rhs: Expr, residual: Expr, model: Model,
                         variance: Expr) -> list[str]:
    """The letters verify did not read that a failing moment claim sets its moments equal to
    (Σ_i E[X_i] = np: X_i Bernoulli(p) in the words): on the side without E, Var or Cov only,
    while the moments' value is still the model's open one (μ_X) — a parameter of a law of the
    note's own, for which the claim may hold.  A letter on both sides (Var(aX) = a Var(X)) is a
    constant the claim is about, for every value of it."""
    from derivations.expectation import is_random

    sides = [e for e in (lhs, rhs) if not e.has(E, Var, Cov)]
    moments = [e for e in (lhs, rhs) if e.has(E, Var, Cov)]
    if len(sides) != 1 or len(moments) != 1:
        return []
    # (letters the residual's numerator holds: 1/c² · Var(q·k) = d_k σ²/c² is about σ, not c)
    held = numer(together(residual)).free_symbols
    letters = {c for c in sides[0].free_symbols & held
               if isinstance(c, Symbol) and not c.is_integer and
               c not in variance.free_symbols | {_MU, model.dim} and not is_random(c, model)}
    if not letters or letters & moments[0].free_symbols or not held - letters - {model.dim} - {
            c for c in held if isinstance(c, Symbol) and c.is_integer}:
        return []
    return sorted(str(c) for c in letters)


def _check_step(ctx: _Context, step: Step, n: int, model: Model,
                declared: tuple[Hypothesis, ...], prev_cond: Any,
                variable: Expr | None = None, title: str = "") -> StepResult:
    """One step's verdict; ``title`` is the heading of its section."""
    variance = _variance(ctx.notation)
    if variance != 1 and any(isinstance(v, Expr) and v.has(*variance.free_symbols)
                             for v in (step.lhs.value, step.rhs.value)):
        # Var(q·k) = d_k σ⁴ in a note that also quotes "mean 0 and variance 1": a step written
        # in σ is about variance σ², the one its own sentence states
        declared = tuple(VarianceIs(h.family, variance)
                         if isinstance(h, VarianceIs) and h.value == 1 and not h.scalar else h
                         for h in declared)
    dset = frozenset(declared)
    if step.kind in ("definition", "assumption", "condition"):
        status = {"definition": StepStatus.DEFINITION, "assumption": StepStatus.ASSUMPTION,
                  "condition": StepStatus.CONDITION}[step.kind]
        note = {"definition": "definition: recorded (substituted in the steps after it)",
                "assumption": "assumption: read as a hypothesis",
                "condition": "a condition, not a claim"}[step.kind]
        return _recorded(ctx, step, status, note, n, dset, model)
    for side in (step.lhs, step.rhs):
        if side.problem:
            return _recorded(ctx, step, StepStatus.NOT_READ,
                             f"not read: {_in_note_letters(side.problem, model_notation(ctx))}", n,
                             dset, model)
    if step.kind in _NOT_CHECKED:
        return _recorded(ctx, step, StepStatus.NOT_CHECKED, _NOT_CHECKED[step.kind], n, dset,
                         model)
    remaining = ctx.deadline - time.monotonic()
    if remaining <= 0:
        return _recorded(ctx, step, StepStatus.NOT_CHECKED, "not checked: time budget spent "
                         f"(--timeout {ctx.settings.timeout:g} s)", n, dset, model)
    aliases = without_variables(step.aliases, step.lhs.value, step.rhs.value)
    lhs = std_of_random(substitute(step.lhs.value, aliases), model)
    rhs = std_of_random(substitute(step.rhs.value, aliases), model)
    lhs, rhs = _worked_example(lhs, rhs, aliases, (step.lhs.value, step.rhs.value))
    particular = _particular_entries(step, lhs, rhs)  # before a case's i ≠ j makes i, j numbers
    lhs, rhs = _implicit_functions(lhs, rhs)
    lhs, rhs = _implicit_sum(lhs, rhs)
    if (lhs.has(PRIME) or rhs.has(PRIME)):
        if variable is None and (lhs.has(XI) or rhs.has(XI)):
            variable = XI  # (u/v)' beside u', v': all by the note's unnamed variable
        if variable is None:
            return _recorded(ctx, step, StepStatus.NOT_CHECKED, "cannot check: a prime (f)' "
                             "without a derivative in the chain to say by which variable", n,
                             dset, model)
        lhs, rhs = lhs.xreplace({PRIME: variable}), rhs.xreplace({PRIME: variable})
    cond = step.condition_value
    if cond and cond[0] == "otherwise" and prev_cond and prev_cond[0] == "=":
        cond = ("≠",) + tuple(prev_cond[1:])
    conds = list(cond[1:]) if cond and cond[0] == "and" else [cond] if cond else []
    # "=" first (j := i), then each "≠" as a relabelling of both sides at once
    original = declared
    case: dict[Expr, Expr] = {}
    # the class a one-hot label marks is in every step about the loss, written or not
    labels = {h.label for h in declared if hasattr(h, "label")}
    # (x_i > 0 against k > 1: an entry of a vector, or a letter that is no index letter)
    otherwise = [prev_cond] if cond and cond[0] == "otherwise" and prev_cond else []
    real = next((c for c in conds + otherwise if c and c[0] in (">", "<", "≥", "≤") and any(
        isinstance(x, Expr) and (x.has(Indexed) or any(
            not s.is_integer or len(s.name) > 1 for s in x.free_symbols
            if isinstance(s, Symbol)))
        for x in c[1:])), None)
    if real is None and cond and cond[0] == "otherwise" and not prev_cond:
        # {∂L/∂y_i if x_i > 0; 0 otherwise}: the other branch's case was none verify reads as
        # an index relation, so "otherwise" names no case it can apply
        return _recorded(ctx, step, StepStatus.NOT_CHECKED, "cannot check: 'otherwise' after "
                         "a case verify does not apply", n, dset, model)
    if real is not None:
        # ReLU's ∂L/∂x_i = {∂L/∂y_i if x_i > 0, 0 otherwise}: a case on a real value, which
        # verify does not apply (its cases are indices' equalities)
        return _recorded(ctx, step, StepStatus.NOT_CHECKED, "cannot check: a case on a real "
                         f"value ({text(real[1])} {real[0]} {text(real[2])}) is not applied", n,
                         dset, model)
    for c in sorted(conds, key=lambda c: c[0] != "="):
        if c[0] == "otherwise" or not all(x.is_Integer or x in labels or _free_in(lhs - rhs, x)
                                          for x in c[1:]):
            continue  # "when j = c" about a sum's own index says nothing of this step
        if c[0] == "≠" and isinstance(c[1], Symbol) and isinstance(c[2], Symbol):
            m = max((int(x) for x in (lhs - rhs).atoms(Integer) if x.is_positive), default=0)
            sub = {c[1]: Integer(m + 1), c[2]: Integer(m + 2)}
            case.update(sub)
            lhs, rhs = lhs.subs(sub, simultaneous=True), rhs.subs(sub, simultaneous=True)
            # "for incorrect class j" (j ≠ k) with the label one-hot at k: the same k
            from derivations.softmax import OneHotTarget

            declared = tuple(replace(h, label=sub[h.label]) if isinstance(h, OneHotTarget)
                             and h.label in sub else h for h in declared)
        else:
            lhs, rhs = _under_condition(lhs, c), _under_condition(rhs, c)
            if c[0] == "=":  # the label one-hot at j, in the case i = j: one-hot at i
                from derivations.softmax import OneHotTarget

                gone, kept = (c[2], c[1]) if isinstance(c[2], Symbol) else (c[1], c[2])
                if any(isinstance(h, OneHotTarget) and h.label == gone for h in declared):
                    case[gone] = kept  # (the numeric check puts the label where the case does)
                declared = tuple(replace(h, label=kept) if isinstance(h, OneHotTarget) and
                                 h.label == gone else h for h in declared)
    declared = declared + _independent_by_lead(step, lhs, rhs, model, declared)
    if ctx.example_label is not None and _writes_label_entries(step):
        # −Σ_j y_j log ŷ_j = −y_2 log ŷ_2 just after y = [0, 1, 0, 0]: the example's label
        from derivations.softmax import OneHotTarget

        declared = declared + (OneHotTarget(ctx.example_label),)
    if step.kind == "follows" and step.premise is not None:
        given = _label_value(step.premise)
        if given is not None and given[1] == 1:
            # "y_j = 1 ⇒ ∂L/∂z_j = p_j − 1": the label is one-hot at j in this case
            from derivations.softmax import OneHotTarget

            declared = declared + (OneHotTarget(given[0].indices[-1]),)
        elif given is not None:
            return _recorded(ctx, step, StepStatus.NOT_CHECKED, "cannot check: under the case "
                             f"{text(given[0])} = {given[1]}, which the checker does not take "
                             "as a hypothesis", n, dset, model)
        lhs, rhs = _follows(lhs, rhs, step.premise, step.aliases)
    random = {f.name for f in model.families}
    if lhs.has(E, Var, Cov) or rhs.has(E, Var, Cov) or any(
            str(x.base.label) in random
            for x in (lhs - rhs).atoms(Indexed)):  # (softmax's Σ_{j≠i} keeps i free: no pairs)
        lhs, rhs = _pair_sums(lhs, rhs)
    if _splits_a_variance(lhs, rhs) and not ctx.independence_said:
        # Var(Σ_d q_d k_d) = Σ_d Var(q_d k_d) in a note that never says its components are
        # independent: the step needs uncorrelated terms, which verify's model (components
        # at different indices independent) would grant without the note saying so
        return _recorded(ctx, step, StepStatus.NOT_CHECKED, "cannot check: the variance of a "
                         "sum splits only for uncorrelated terms, which the note does not "
                         "say (verify's model takes components as independent)", n, dset, model)

    def refused(why: str) -> StepResult:
        """Not judged, for ``why``; the sides as verify read them go with it."""
        return replace(_recorded(ctx, step, StepStatus.NOT_CHECKED, f"cannot check: {why}", n,
                                 dset, model), lhs=lhs, rhs=rhs)

    if any(side.has(S.Infinity, S.NegativeInfinity, S.ComplexInfinity) for side in (lhs, rhs)):
        # M_ij = −∞ (a mask), e^{−∞} = 0: a limit said with ∞, which the engines do not take
        return refused("∞ stands for a limit here, which is not checked")
    if _shapes_multiplied(step.lhs.source, step.rhs.source):
        # (4 × 64) × (64 × 4) = (4 × 4): matrix shapes multiplied, not a product of numbers
        return refused("matrix shapes, (m × n)(n × p) = (m × p): not arithmetic")
    samples = sorted(set(step.lhs.dropped) | set(step.rhs.dropped))
    if len(samples) >= 2:
        # y_k^{(i)} and y_k^{(j)} both read as y_k: what tells them apart was not kept, and
        # the verdict either way would be about one sample where the note has two
        return refused(f"entries of samples {', '.join(samples)} (upper indices) read as one")
    moments = frozenset(lhs.atoms(E, Var, Cov) | rhs.atoms(E, Var, Cov))
    if ctx.unit_vectors and (moments or lhs.has(Dot) or rhs.has(Dot) or any(
            str(x.base.label) in random for x in (lhs - rhs).atoms(Indexed))):
        # "two uniform, random, and normalized vectors": on the unit sphere, a component's
        # square has mean 1/n and the components are not independent — another model
        return refused(f"the note's vectors are unit vectors (at {ctx.unit_vectors}): their "
                       "components are not independent, as verify's model takes them")
    mixed = next((f for f in ctx.correlated if any(_mixes_components(m, f) for m in moments)),
                 None)
    if mixed is not None:  # "b_1 and b_2 are correlated by ρ": not the model verify checks in
        return refused(f"the note says the components of {mixed} are correlated (at "
                       f"{ctx.correlated[mixed]}); verify's model takes them as independent")
    slow = next((where for m, where in ctx.too_slow.items() if m in moments), None)
    if slow is not None:  # the same moment cost a whole step's time before: not again
        return refused(f"a moment of this step took longer than {STEP_SECONDS:g} s at {slow}")
    try:
        with _time_limit(min(STEP_SECONDS, remaining), "this step"):
            status, needs, residual, mean_square, checker = _judge(
                lhs, rhs, model, declared, step.reason, _variance(ctx.notation),
                ctx.example_scores)
        # a hypothesis relabelled with the case (t_m = δ_m3 for k) is said as the note has it
        back = {h: o for h, o in zip(declared, original) if h != o}
        needs = tuple(frozenset(back.get(h, h) for h in s) for s in needs)
    except DerivationError as exc:
        if isinstance(exc, ExpressionTooLarge) and "took longer" in str(exc):
            where = _loc(ctx, step.rhs)
            # the heaviest moment is the likely cause; a small one (E(q_i)) is never blamed
            heavy = max(moments, key=lambda m: m.count_ops(), default=None)
            if heavy is not None and heavy.count_ops() >= _HEAVY_OPS:
                ctx.too_slow.setdefault(heavy, f"{where.line}:{where.column}")
        return refused(_in_note_letters(str(exc), model_notation(ctx)))
    except RecursionError:
        return _recorded(ctx, step, StepStatus.NOT_CHECKED, "cannot check: too deeply nested",
                         n, dset, model)
    rounded = _entries_rounded(lhs, rhs, step) if status is StepStatus.FAILS else None
    if status is StepStatus.FAILS and (rounded or (rounded is None and (
            _within_written_decimals(lhs, rhs, step) or (
                checker == "decimals" and _within_written_decimals(residual, S.Zero, step)) or (
                isinstance(residual, VectorLiteral) and _entries_within_decimals(residual, step))))):
        status, needs, checker = StepStatus.HOLDS, (frozenset(),), "decimals"
    elif status is StepStatus.FAILS and isinstance(residual, VectorLiteral):
        residual = _rounding_cleared(residual, step)  # the entry named is one that is wrong
    if status is StepStatus.FAILS and step.values and residual.free_symbols and \
            {str(s) for s in residual.free_symbols} <= {str(s) for s, _ in step.values}:
        # √d_k = 8 after "d_k = 64": false for a general d_k, true of the note's example
        at = {s: v for s in residual.free_symbols for n, v in step.values if str(s) == str(n)}
        if isinstance(residual, VectorLiteral):
            # QKᵀ/√d_k = (1/√2)[1 0; 1 1] after "d_k = 2": every entry at the example's d_k
            entries = _flat_entries(residual)
            decided = [_numbers(e.xreplace(at), S.Zero) for e in entries]
            exact = None if None in decided else decided[0]  # (decidable: said at d_k)
            holds_there = all((d is not None and d[0] is StepStatus.HOLDS) or
                              _within_written_decimals(e.xreplace(at), S.Zero, step)
                              for d, e in zip(decided, entries))
        else:
            exact = _numbers(residual.xreplace(at), S.Zero)
            holds_there = (exact is not None and exact[0] is StepStatus.HOLDS) or \
                _within_written_decimals(residual.xreplace(at), S.Zero, step)
        if not holds_there and exact is not None and not mean_square:
            # √d_k = 31 after d_k = 1024: wrong at the note's own d_k — said at it ("= 32,
            # not 31"), not sampled at another d
            residual, checker = residual.xreplace(at), "example"
        elif holds_there:
            status, needs = StepStatus.HOLDS, (frozenset(),)
            if checker == "moments" and not isinstance(residual, VectorLiteral):
                # Var(q·k) = 64: the hypotheses it took are those of Var(q·k) = d_k — the
                # step with the residual put back holds under exactly them
                try:
                    with _time_limit(min(STEP_SECONDS, remaining), "this step"):
                        status, needs, _, _, _ = _judge(lhs, rhs + residual, model, declared,
                                                        step.reason, _variance(ctx.notation))
                except DerivationError as exc:
                    return refused(_in_note_letters(str(exc), model_notation(ctx)))
            residual, checker = S.Zero, "example"
    if status is StepStatus.FAILS:
        # a step that fails as verify read it is not shown wrong where the reading is in doubt
        if worded := _worded_entries(step, lhs - rhs, ctx.notation):
            # L = −log p_dog after L = −Σ_i y_i log p_i: which index the word names (and so
            # where the label's 1 is) the note says in words verify does not read
            return refused(f"{', '.join(worded)} names an entry by a word: which index it is, "
                           "verify did not read")
        said = [w for w in (step.context[-200:], title) if _SIGMOID_WORDS.search(w)]
        if said and not re.search(r"softmax", said[0], re.IGNORECASE) and any(
                str(x.base.label) == "y" for x in (lhs - rhs).atoms(Indexed)):
            # "2. sigmoid + cross entropy：将 sigmoid 公式代入…", or a section headed "1.3
            # Sigmoid + 二元交叉熵": ŷ_i is the sigmoid's output in this part, not the softmax's
            # that verify read it as
            return refused("the words before it speak of the sigmoid: the output here may "
                           "not be the softmax's")
        if step.restates is not None:
            # δ_i := −(a_i − y_i) under one heading, δ_i = a_i(1 − a_i)(y_i − a_i) under
            # the next (another cost), or S rescaled in place before "S = QK^T": a name
            # given a new meaning, or a wrong claim — the words decide
            at = ctx.source.location(step.restates[0])
            how = {"heading": "otherwise under an earlier heading",
                   "letters": "in other letters"}.get(step.restates[1], "anew in place")
            return refused(f"the note defined {step.lhs.source.strip()} {how} (line {at.line}): "
                           "a new meaning here, or a claim?")
        valued = _example_values_under_derivative(step)
        if valued:
            # a = σ(−2) ≈ 0.1192 in the worked example, then L = −[y log a + …] and ∂L/∂z =
            # a − y: the definitions took a's number into L, and ∂/∂z of a number is 0 — the
            # note means the general a there
            return refused(f"the worked example gives {', '.join(valued)} a number; the "
                           "derivative here is of the general quantity, not judged at it")
        at_each = _at_each_entry(lhs, rhs, particular) if particular else None
        if at_each is not None:
            # L = −y_1 log p_1 − y_2 log p_2, then ∂L/∂p_k = −y_k/p_k: the note's two classes
            # are all the k there are — judged at k = 1 and at k = 2
            try:
                with _time_limit(min(STEP_SECONDS, remaining), "this step"):
                    judged = [_judge(a, b, model, declared, step.reason,
                                     _variance(ctx.notation)) for a, b in at_each]
            except DerivationError:
                judged = []
            if judged and all(j[0].ok for j in judged):
                given = [j for j in judged if j[0] is StepStatus.HOLDS_GIVEN]
                status, needs = given[0][:2] if given else (StepStatus.HOLDS, (frozenset(),))
                residual, checker = S.Zero, "example"
        if status is StepStatus.FAILS and particular:
            # E := e^{z_1} + e^{z_2} + e^{z_3} from the note's three-class example, put into
            # a step about a general z_i: the note meant its general E there, which it only
            # named
            said = _in_note_letters(", ".join(particular), model_notation(ctx))
            return refused(f"a definition written for particular entries ({said}) would be put "
                           "into a step about general ones")
        apart = _told_apart(step.lead, residual, step.context)
        if apart:
            # "For not $i$ th item, denote by $z$ … ∂y_z/∂x_i = −y_z y_i": wrong only where the
            # two indices meet, which the words before it seem to rule out (not read as a case)
            return refused(f"holds for {apart[0]} ≠ {apart[1]}, which the words before it seem "
                           "to say (not read as a case)")
        other = _other_case_of(ctx.before, step.lhs.value, residual) \
            if status is StepStatus.FAILS else None
        if other:
            # ∂ log p_i/∂z_i = 1 − p_i, then ∂ log p_i/∂z_j = 0 − p_j in the next display: the
            # off-diagonal case, by the look of it — which the note never says
            return refused(f"holds for {other[0]} ≠ {other[1]}; the display before took "
                           f"{other[0]} = {other[1]}, and the note does not say this is the "
                           "other case (not read as a case)")
        cased = _both_cases_of_a_variable(lhs, rhs)
        if cased:
            # ∂loss/∂w = ∂C/∂w + λW with loss = C + λ/2‖W‖²: w and W one weight in two cases
            return refused(f"∂/∂{cased} beside {cased.swapcase()}: one letter written in two "
                           "cases, or two quantities? (not judged)")
        labelled = _label_letter_as_index(lhs, rhs, ctx.notation)
        if labelled:
            # "true class $y$ (one-hot encoded)": −Σ_i y_i log p_i = −log p_y — p at the class
            # the label's letter names; which entry that is, is not read (a step that holds
            # at every index, a_y(1 − a_y)(−1/a_y) = a_y − 1, is judged all the same)
            return refused(f"its index is also the name of a vector of the note: {labelled}")
        beside = _entry_beside_letter(residual, step.lhs.source + step.rhs.source)
        if beside:
            return refused(f"holds for {beside[0]} ≠ {beside[1]}: the entry worked out beside "
                           f"{beside[0]} seems to be another (not read as a case)")
        if isinstance(lhs, Symbol) and isinstance(rhs, Symbol) and not (
                lhs.is_integer or rhs.is_integer):
            # "Z = X for self-attention": one name given as another, neither with a value
            # verify read — an identification, not a claim it could refute
            return refused(f"{lhs} = {rhs}: two names the note gave no values verify read")
        if moments and any(str(x) in ("E", "D") for x in (lhs - rhs).free_symbols):
            # Var(k) = Ep[k²] − (E[k])²: a letter E beside the expectation E[…] — a typo of
            # it (E_p[…]), or a name: which, the note does not say in a way verify reads
            return refused("E (or D) as a letter beside the expectation E[…] (or variance "
                           "D(…)): a typo, or a name the note did not define?")
        opaque = sorted({f.func.__name__ for f in (lhs - rhs).atoms(AppliedUndef)} -
                        {"max", "min"})  # the largest score: a constant (_largest_as_constant)
        if opaque and checker != "calculus":
            # SelfAttention(PX) = P SelfAttention(X): a function verify cannot evaluate (the
            # note's own, defined in matrices or not at all) — a claim about its values
            # could be true of it, whatever it is
            return refused(f"{', '.join(opaque)}: a function verify does not evaluate; a "
                           "claim about its values is not checked")
        # (whole vectors at their entries, as they were compared: softmax(2z) = p is about p_i)
        unknown = [_in_note_letters(u, model_notation(ctx)) for u in _unknown_quantities(
            *matrix_entries(lhs, rhs), model, ctx.notation, only_vectors=checker == "calculus",
            declared=declared)]
        if unknown:
            # with S_i, ŷ_1 whose meaning it never read: the note's definition was not understood
            return refused(f"{', '.join(unknown)} — verify did not read what "
                           f"{'it is' if len(unknown) == 1 else 'they are'} in this note")
    return StepResult(n, _loc(ctx, step.rhs), lhs, rhs, step.reason, status, needs, dset,
                      residual, mean_square, checker, lhs_source=step.lhs.source,
                      rhs_source=step.rhs.source, kind=step.kind, relation=step.relation,
                      condition=step.condition, case=tuple(case.items()))


def _label_letter_as_index(lhs: Expr, rhs: Expr, notation: Notation | None) -> str:
    """p_y (in the note's letters) where the step's index y is the letter of the note's label
    vector y (verify's t): "" where no index is."""
    if notation is None:
        return ""
    letters = {k for k, v in notation.rename.items() if v == "t" and len(k) == 1 and k != "t"}
    for x in sorted((lhs - rhs).atoms(Indexed), key=str):
        if any(isinstance(i, Symbol) and i.name in letters for i in x.indices):
            return f"{notation.written(str(x.base.label))}_{','.join(map(str, x.indices))}"
    return ""


#: A decimal as written: its digits after the point say how precisely it was meant.
_DECIMAL = re.compile(r"(?<![\d.])\d*\.(\d+)")


_SCORES = re.compile(r"(?:\\(?:mathbf|boldsymbol|bm|vec)\s*\{\s*([A-Za-z])\s*\}|(?<![\\\w{])([A-Za-z]))"
                     r"\s*=\s*(?:\\left\s*)?[(\[]\s*"
                     r"(-?\d+(?:\.\d+)?(?:\s*,\s*-?\d+(?:\.\d+)?){1,9})\s*(?:\\right\s*)?[)\]]")


def _example_scores(blocks: Sequence[Any], notation: Notation) -> tuple[Expr, ...]:
    """The values of the scores the note's worked example gives (z = (1, 2, 3), x = [2.0,
    1.0, 0.1]), in inline or displayed math: the first such list of the scores' letter."""
    for b in blocks:
        for m in _SCORES.finditer(b.math.text):
            # (the letter bold, \mathbf{z} = (2.0, 1.0, 0.1), or plain)
            letter = m.group(1) or m.group(2)
            if notation.rename.get(letter, letter) == "x":
                return tuple(Integer(f.numerator) / f.denominator for f in
                             (Fraction(v.strip()) for v in m.group(3).split(",")))
    return ()


def _at_example_scores(lhs: Expr, rhs: Expr, scores: tuple[Expr, ...]
                       ) -> tuple[Expr, Expr] | None:
    """Both sides as numbers at the example's scores, for a step that writes the example's
    own numbers (decimals, e^1) and only its particular entries (x_1, y_2, Σ_{j=1}^{3});
    None for any other step (a general one keeps its meaning for every z)."""
    if not scores or not any(a.has(S.Exp1) or any(r.q != 1 for r in a.atoms(Rational)) or
                             any(f.args[0].is_number for f in a.atoms(exp)) for a in (lhs, rhs)):
        return None
    n = len(scores)
    x, y = IndexedBase("x"), IndexedBase("y")
    j = Dummy("j", integer=True, positive=True)
    total = Sum(exp(x[j]), (j, 1, n))

    def at(e: Expr) -> Expr | None:
        if any(not lim[2].is_Integer or lim[2] != n for s in e.atoms(Sum) for lim in s.limits):
            return None
        e = e.doit()
        e = e.replace(lambda u: isinstance(u, Indexed) and u.base == y and u.indices[0].is_Integer,
                      lambda u: exp(x[u.indices[0]]) / total).doit()
        e = e.replace(lambda u: isinstance(u, Indexed) and u.base == x and u.indices[0].is_Integer
                      and 1 <= u.indices[0] <= n, lambda u: scores[int(u.indices[0]) - 1])
        return e if e.is_number else None

    a, b = at(lhs), at(rhs)
    return (a, b) if a is not None and b is not None else None


def _within_written_decimals(lhs: Expr, rhs: Expr, step: Step) -> bool:
    """Two numbers that differ by less than one unit in the last decimal the step writes.

    ``-\\log(0.245) = 1.406`` and ``1/\\sqrt 2 = 0.707`` are rounded (or cut) values: the
    author means them to the places written, so they hold when the exact sides differ by
    at most 10^-p, p the fewest places of a decimal in the step; ``= 1.46`` is still wrong.

    >>> from sympy import Float, log, Rational
    >>> from types import SimpleNamespace as N
    >>> st = N(lhs=N(source="-log(0.245)"), rhs=N(source="1.406"))
    >>> _within_written_decimals(-log(Rational(49, 200)), Rational(703, 500), st)
    True
    >>> st = N(lhs=N(source="-log(0.245)"), rhs=N(source="1.46"))
    >>> _within_written_decimals(-log(Rational(49, 200)), Rational(146, 100), st)
    False
    """
    if not (isinstance(lhs, Expr) and isinstance(rhs, Expr) and lhs.is_number
            and rhs.is_number):
        return False
    written = [[m for m in _DECIMAL.finditer(side.source or "")] for side in (step.lhs, step.rhs)]
    places = [len(m.group(1)) for ms in written for m in ms]
    if not places:
        # e^3 = 20 (a worked example's rounding): a whole number of two digits or more, written
        # for a value no whole number equals, holds to its units place — never π = 3
        return bool(rhs.is_Integer and abs(rhs) >= 10 and lhs.is_irrational and
                    re.fullmatch(r"\s*-?\d+\s*[.,，。]?\s*", step.rhs.source or "") and
                    abs(float(lhs - rhs)) <= 0.5)
    try:
        gap = abs(complex((lhs - rhs).evalf(30)))
    except (TypeError, ValueError):
        return False
    # 22026.4658/22027.4725 = 0.9999545: the side that is one decimal is the result, rounded
    # to its own places; the decimals of the computation are its exact inputs
    results = [len(ms[0].group(1)) for side, ms in zip((step.lhs, step.rhs), written)
               if len(ms) == 1 and _DECIMAL.fullmatch((side.source or "").strip().rstrip(".,，。"))]
    # A value cut or rounded to p places is off by less than 10^-p: where the other side
    # writes no decimals (X_22 = 0.4, the matrix's given 0.3), a whole unit off is no
    # rounding; where it writes rounded terms of its own (0.510 + 0.239 + 0.255 + 0.214 =
    # 1.217, their exact sum 1.2174) their roundings add up, to a unit at most
    def within(unit: float) -> bool:
        return gap <= unit if all(written) else gap < unit

    if results:
        return within(10.0 ** -max(results))
    if within(10.0 ** -min(places)):
        return True
    if bool(written[0]) != bool(written[1]):
        # −log p_dog = −log(0.242), p_dog = 2.718/11.212 = 0.24243…: decimals on one side only
        # are the rounded values of the exact other side — each may be off by a unit in its
        # last place, and the side moves by its slope in that decimal times the unit
        side, ms = (lhs, written[0]) if written[0] else (rhs, written[1])
        return gap <= _slack(side, ms)
    return False


#: Words naming the sigmoid (the logistic function), in English and Chinese.
_SIGMOID_WORDS = re.compile(r"sigmoid|logistic|逻辑回归|逻辑斯蒂|二分类", re.IGNORECASE)


def _entries_rounded(lhs: Expr, rhs: Expr, step: Step) -> bool | None:
    """softmax([2, 1, 0.1]) = [0.7, 0.2, 0.1]: exact entries against a list of decimals the
    note wrote — each written entry the exact one rounded or cut to its own places (0.6 for
    0.659 is cut; 0.3 for 0.242 is neither).  None where the sides are not such lists."""
    for exact, written, source in ((lhs, rhs, step.rhs.source), (rhs, lhs, step.lhs.source)):
        if not (isinstance(exact, VectorLiteral) and isinstance(written, VectorLiteral)) or \
                len(exact.args) != len(written.args) or not all(
                    isinstance(a, Expr) and a.is_number for a in exact.args + written.args) or \
                any(a.is_Rational for a in exact.args):
            continue
        decimals = [m for m in _DECIMAL.finditer(source or "")]
        if not decimals or not all(a.is_real for a in exact.args + written.args):
            continue
        ok = True
        for v, w in zip(exact.args, written.args):
            m = next((m for m in decimals if Rational(m.group(0)) == abs(w)), None)
            # (an entry written as a decimal is meant to its places; a 0 beside decimals is a
            # cut too — anything else, e^{0.707}/(2e^{0.707}), is meant exactly)
            unit = 10.0 ** -len(m.group(1)) if m is not None else 1.0 if w == 0 else 0.0
            try:
                gap = complex((v - w).evalf(30)).real
                size = complex(v.evalf(30)).real
            except (TypeError, ValueError):
                return None
            # rounded: within half a unit; cut: short of v by less than a unit, toward 0
            toward_zero = gap if size >= 0 else -gap
            ok = ok and (abs(gap) <= max(unit / 2 * (1 + 1e-9), 1e-20) or 0 <= toward_zero < unit)
        return ok
    return None


def _entries_within_decimals(residual: VectorLiteral, step: Step) -> bool:
    """A worked example's matrix, entry by entry (0.333·10 + 0.333·5 = 5.00, the author
    computing with 1/3): every entry that is off is a number within the decimals written."""
    off = [e for e in _flat_entries(residual) if e != 0]
    return bool(off) and all(isinstance(e, Expr) and e.is_number and
                             _within_written_decimals(e, S.Zero, step) for e in off)


def _flat_entries(v: VectorLiteral) -> list[Expr]:
    """A written vector's entries, or a matrix's row after row."""
    return [e for r in v.args for e in (r.args if isinstance(r, VectorLiteral) else (r,))]


def _rounding_cleared(residual: VectorLiteral, step: Step) -> VectorLiteral:
    """The residual with 0 where an entry is off by no more than its written decimals."""
    def cleared(e: Expr) -> Expr:
        if isinstance(e, VectorLiteral):
            return VectorLiteral(*map(cleared, e.args))
        return S.Zero if e.is_number and _within_written_decimals(e, S.Zero, step) else e

    return cleared(residual)


def _slack(side: Expr, decimals: Sequence[re.Match[str]]) -> float:
    """How far ``side`` moves when each written decimal in it moves by a unit in its last
    place (to first order; 0 where a decimal is not found as a number of the expression)."""
    total = 0.0
    for m in decimals:
        value = Rational(m.group(0))
        if not side.has(value) or any(p.exp == value for p in side.atoms(Pow)):
            continue  # (an exponent ½ is √, not the decimal 0.5)
        d = Dummy()
        try:
            slope = abs(complex(diff(side.xreplace({value: d}), d).subs(d, value).evalf(30)))
        except (TypeError, ValueError):
            return 0.0
        total += slope * 10.0 ** -len(m.group(1))
    return total


def _label_value(premise: tuple[Link, Link]) -> tuple[Indexed, Expr] | None:
    """(t_j, v) when the premise of ⇒ sets one entry of the label to a number."""
    a, b = (x.value for x in premise)
    if is_value(a, b) and str(a.base.label) == "t" and isinstance(a.indices[-1], Symbol):
        return a, b
    return None


def _follows(lhs: Expr, rhs: Expr, premise: tuple[Link, Link],
             aliases: Sequence[tuple[Expr, Expr]]) -> tuple[Expr, Expr]:
    """``A = B ⇒ c = v``: with c a symbol of A = B, the claim is that v solves it."""
    a, b = premise
    if not (isinstance(a.value, Expr) and isinstance(b.value, Expr)):
        return lhs, rhs
    pa, pb = substitute(a.value, aliases), substitute(b.value, aliases)
    if isinstance(lhs, Symbol) and (pa.has(lhs) or pb.has(lhs)):
        return pa.xreplace({lhs: rhs}), pb.xreplace({lhs: rhs})
    if isinstance(lhs, Pow) and isinstance(lhs.base, Symbol) and lhs.exp.is_Integer and \
            lhs.exp > 0 and (pa.has(lhs.base) or pb.has(lhs.base)):
        # d_k/c² = 1 ⇒ c² = d_k: the value of c² solves it (any root of it does)
        root = rhs ** Rational(1, int(lhs.exp))
        return pa.subs(lhs.base, root), pb.subs(lhs.base, root)
    return lhs, rhs


def _with_evidence(ctx: _Context, step: StepResult, model: Model, n: int,
                   left: int = 1) -> StepResult:
    """step with its numeric evidence, within the budget: ``numeric_seconds`` per step, and
    never more than this step's share of what is left of the file's time (``left`` steps
    still to go) — the verdicts were all reached before any sampling began."""
    budget = ctx.settings.numeric_seconds if ctx.settings.numeric else 0.0
    remaining = ctx.deadline - time.monotonic()
    if budget <= 0 or not step.status.judged:
        return step
    if remaining <= 0:
        return without_evidence(step, "no numeric estimate: the time budget is spent")
    budget = min(budget, remaining / max(left, 1))
    try:  # slow sampling costs the step its evidence, never the file its verdicts
        with _time_limit(min(STEP_SECONDS, remaining), "the numeric evidence"):
            return attach_evidence(step, model, seed=np.random.SeedSequence([ctx.settings.seed, n]),
                                   max_seconds=budget)
    except (ExpressionTooLarge, DerivationError) as exc:
        return without_evidence(step, str(exc))
    except MemoryError:
        return without_evidence(step, "no numeric estimate: it does not fit in memory")


# ---- the file ------------------------------------------------------------------------------

@dataclass(frozen=True)
class _Block:
    """A math block with what is in force where it stands."""

    math: Math
    state: State
    title: str
    lead: str


def _survey(source: Source, events: Sequence[Any], fmt: Format, settings: Settings
            ) -> tuple[Notation, State, list[ReadNote]]:
    """The note's notation (from all its math), its global declarations, what was read."""
    maths = [e for e in events if isinstance(e, Math)]
    rows: list[list[Row]] = [rows_of(m)[0] for m in maths]
    state = State()
    notes: list[ReadNote] = []
    for e in events:  # random and dim declarations fix the notation for the whole note
        if isinstance(e, Directive):
            head = e.text.strip().split(" ", 1)[0].lower()
            if head in ("random", "dim"):
                state = state.apply(e, source.path, source)
    default = default_dimension(" ".join(m.text for m in maths))
    found = survey(rows, default, state.families, state.dim)
    # "$a_i^{[L]}$，即 $\hat y$": names the words give the softmax output
    texts = [e.text for e in events if isinstance(e, Prose)]
    # "### Softmax Jacobian" then $$J = diag(s) − s sᵀ$$: a heading names it as well as words
    titles = [e.text for e in events if isinstance(e, Heading)]
    found = prose_constants(texts, prose_aliases(texts + titles, found))
    found = linear_layer(rows, prose_jacobian(rows, texts + titles, found))
    return state.notation(found), state, notes


def _components_before_scalars(chains: Sequence[Chain], notation: Notation) -> bool:
    """Whether the formulas write the vectors' components (q_i k_i, q·k) before they first
    use the scalars X, Y — then X, Y are a lemma's own, not names for those components."""
    families, scalars = set(notation.families), set(notation.scalars)
    for c in chains:
        for st in c.steps:
            for v in (st.lhs.value, st.rhs.value):
                if not isinstance(v, Expr):
                    continue
                if {str(s) for s in v.free_symbols} & scalars:
                    return False
                if any(str(x.base.label) in families for x in v.atoms(Indexed)) or \
                        v.has(Dot):
                    return True
    return False


def _assumptions(source: Source, events: Sequence[Any], notation: Notation,
                 assumed: Sequence[Assumed], components_written: bool = False,
                 chains: Sequence[Chain] = ()) -> tuple[list[Hypothesis], list[ReadNote]]:
    """Hypotheses stated in the note's words, and in its formulas about one component
    (``E(q_i) = 0``, ``D(X) = 1`` with X := q_i, ``q_i \\sim N(0,1)``), and in a step's
    reason ("(since Σ y_i = 1)": the note says it of its label, as words would).
    ``components_written``: the formulas write the vectors' components (q_i k_i), so words
    about "the components" are not about the note's scalars X, Y."""
    hyps: list[Hypothesis] = []
    notes: list[ReadNote] = []
    model = notation.model()

    def add(h: Hypothesis, where: Location, phrase: str) -> None:
        if h not in hyps and _fits(h, model):
            hyps.append(h)
            notes.append(ReadNote(where, phrase, _printed(h)))

    context = False  # the paragraph before was about the components: a list goes on
    for e in events:
        if isinstance(e, (Prose, Heading)):
            text = _math_as_words(e.text)
            found = read_assumptions(text, notation.families, notation.scalars, context=context,
                                     scalars_are_components=not components_written)
            if independence_of_others(e.text, notation.families):
                # "we assume $A$ and $V$ are independent": not the families' independence
                found = [f for f in found if not (isinstance(f.hypothesis, Independent) and
                                                  f.hypothesis.a in notation.families)]
            for f in found:
                add(f.hypothesis, source.location(e.offset(0)), f.phrase)
            # "* 各维度的 q_i, k_i 相互独立 / * 均值为 0 / * 方差为 1": items go on the subject
            context = bool(found) and isinstance(e, Prose)
            m = _TARGET_WORDS.search(_NEARLY_ONE_HOT.sub("", _without_argmax(text))) \
                or _one_hot_lists(text) \
                or _label_sums_to_one(e.text, notation)
            if m:
                add(_target_sums_to_one(), source.location(e.offset(0)), m.group(0))
            m = CORRECT_CLASS.search(text)
            if m:  # "the index of the correct class is k": the label is one-hot at k
                from derivations.softmax import OneHotTarget

                add(OneHotTarget(index_symbol(class_letter(m))),
                    source.location(e.offset(0)), m.group(0))
        if isinstance(e, Math):
            context = context and not e.display
            for h, at in _laws(e, model, notation):
                add(h, source.location(e.offset(at)), " ".join(e.text.split())[:60])
                # "$$q_i, k_i \sim (0, 1)$$ independently for $i = 1, …, d$": the words after
                # a law go on about its variables
                context = True
            label = _one_hot_value(e.text, notation)
            if label is not None:  # y = [0; 1; 0; 0]: the label, written out, is one-hot
                add(_target_sums_to_one(), source.location(e.offset(label.start())),
                    " ".join(label.group(0).split())[:60])
    for a in assumed:
        try:
            found = ([_target_sums_to_one()] if isinstance(a.lhs, Sum) or a.lhs.is_Add else
                     [_one_hot(a.lhs)] if isinstance(a.lhs, Indexed) else
                     hypotheses_of(a.lhs, "=", a.value, model))
        except (ParseProblem, DerivationError):
            continue
        for h in found:
            add(h, source.location(a.link.block.offset(a.link.start)), a.link.source[:60])
    for c in chains:
        for st in c.steps:
            if st.reason and _label_sums_to_one_by_reason(st.reason, notation):
                add(_target_sums_to_one(), source.location(st.rhs.block.offset(st.rhs.start)),
                    st.reason.strip("() ")[:60])
    # N(μ𝟏, σ²I), then "assume μ = 0": the number the note fixes stands for its parameter
    fixed = {h.family for h in hyps if isinstance(h, MeanIs) and h.value != _MU}
    gone = [n for n, h in enumerate(hyps) if isinstance(h, MeanIs) and h.value == _MU and
            h.family in fixed]
    return [h for n, h in enumerate(hyps) if n not in gone], \
        [r for n, r in enumerate(notes) if n not in gone]


#: A paragraph that is only a case: "$i \\neq j$".
_CONDITION_ONLY = re.compile(r"\$+\s*[a-z](?:_\{?[a-z]\}?)?\s*(=|≠|\\neq?|\\not\s*=)\s*"
                             r"[a-z](?:_\{?[a-z]\}?)?\s*\$+[\s:：,，]*")
#: "the attention weights are nearly one-hot" (a saturated softmax): not about the label.
_NEARLY_ONE_HOT = re.compile(r"(?:接近|近似|趋近|類似|类似|像|close to|approach\w*|nearly|almost|"
                             r"like|becomes?)\s*(?:一个|一個|a|an)?\s*`?one\s*-?\s*hot`?",
                             re.IGNORECASE)
#: What says the target is a probability vector: one-hot labels, a distribution.
_TARGET_WORDS = re.compile(
    r"one\s*-?\s*hot|独热|只有一个(?:类别|元素|分量|位置)?(?:为|是|等于)\s*1|only one (?:non-?zero|element)|"
    r"exactly one (?:of )?[^.。]{0,30}(?:is|equals?|=)\s*(?:1|one)\b|only (?:1|one) class|"
    r"(?:is|equals?|=)\s*1 if and only if|\b0\s*/\s*1 (?:target|label)|"
    r"(?:the )?(?:rest|others) (?:are|being) (?:0|zeros?)\b|有且(?:仅|只)有一个|"
    r"其[余他](?:的)?(?:都|均)?(?:为|是)\s*0|"
    r"(?:label|target|标签)[^.。]{0,40}(?:probability distribution|概率分布|sums? to (?:one|1)|和为\s*1)|"
    r"(?:probability distribution|概率分布)[^.。]{0,30}(?:label|target|标签)|"
    # "teacher 分布 $q$", "the teacher's distribution": distillation's target, a distribution
    r"(?:teacher|教师|老师|目标)\s*(?:的|'s)?\s*(?:概率)?\s*(?:分布|distribution)|"
    # "$y_j$ is the true label (1 if class $j$ is correct)", "1 for the true class": a label
    # that is 1 on one class (and so 0 on the others)
    r"\b(?:1|one)\s+(?:if|when)\s+(?:the\s+)?(?:class|label|category)\s*\$?\s*[a-z]\w*\s*\$?\s+"
    r"is\s+(?:the\s+)?(?:correct|true|right|target)\b|"
    r"\b(?:1|one)\s+for\s+the\s+(?:correct|true|right|target)\s+(?:class|label|category|"
    r"answer)\b",
    re.IGNORECASE)


#: A sentence about argmax's output ("softmax 不像 argmax 这样只选择唯一的一个，也就是所谓的
#: one-hot"): its "one-hot" says nothing of the label.
_ARGMAX = re.compile(r"(?<![A-Za-z])arg\s*max(?![A-Za-z])", re.IGNORECASE)
_SENTENCE_END = re.compile(r"[.。;；!?！？\n]")


def _without_argmax(text: str) -> str:
    """text without its sentences about argmax (found by the word, then cut at the sentence's
    ends: linear in the text, however long its sentences).

    >>> _without_argmax("One. Softmax is not argmax, which is one-hot. Two.")
    'One. Two.'
    """
    out, at = [], 0
    for m in _ARGMAX.finditer(text):
        if m.start() < at:
            continue
        start = max((e.end() for e in _SENTENCE_END.finditer(text, at, m.start())), default=at)
        end = _SENTENCE_END.search(text, m.end())
        out.append(text[at:start])
        at = end.end() if end else len(text)
    return "".join(out) + text[at:]


#: "the sum of the probabilities $p_j$ is equal to 1", "$y_k$ 之和为 1": entries that sum to one.
_SUM_TO_ONE = re.compile(
    r"(?:sum|total)\s+of\s+(?:the\s+|all\s+)?(?:probabilit(?:y|ies)|entries|components|elements)"
    r"[^.。]{0,80}?(?:equal\s+to|equals?|=|is)\s*(?:1|one)\b|\bsums?\s+(?:up\s+)?to\s+(?:1|one)\b|"
    r"(?:之和|的和|总和|加起来)\s*(?:等于|为|是)\s*1", re.IGNORECASE)


def _label_sums_to_one(text: str, notation: Notation) -> re.Match[str] | None:
    r"""A sentence saying that the label's entries sum to one, naming the label by its letter
    ("we use the sum of the probabilities $p_j$ is equal to $1$", p the loss's target) — not
    the softmax output's, whose entries always do.

    >>> n = Notation(rename={"p": "t", "q": "y"})
    >>> bool(_label_sums_to_one("the sum of the probabilities $p_j,1\\leq j\\leq n$ is "
    ...                         "equal to $1$.", n))
    True
    >>> bool(_label_sums_to_one("the probabilities $q_j$ sum to 1.", n))
    False
    """
    labels = {k for k, v in notation.rename.items() if v == "t"} or {"t"}
    outputs = ({k for k, v in notation.rename.items() if v == "y"} | {"y"}) - labels
    for sentence in re.split(r"(?<=[.。;；!?！？])\s+", text):
        words = re.sub(r"\$+([^$]*)\$+", lambda m: " " + m.group(1) + " ", sentence)
        m = _SUM_TO_ONE.search(words)
        letters = {x for math in re.findall(r"\$+([^$]*)\$+", sentence)
                   for x in re.findall(r"(?<![A-Za-z\\])([A-Za-z])(?![A-Za-z])", math)}
        if m and letters & labels and not letters & outputs:
            return m
    return None


_BIT_LIST = re.compile(r"\[\s*[01](?:\s*,\s*[01])+\s*\]")


#: A letter set to a written-out vector of 0s and 1s: y = \begin{bmatrix} 0 \\ 1 \end{bmatrix}, y = [0,1,0].
#: (y = (y_1, …, y_K) = (0, …, 1, …, 0): the entries written out first, then the value; the
#: value's dots stand for zeros — a general one-hot vector, not one example's)
_DOTS_01 = r"(?:[\s01,]|\.\.\.|…|\\[lc]?dots\b)"
_LABEL_VALUE = re.compile(r"(?<![\\\w])([A-Za-z])\}?\s*=\s*(?:\([^()=$]{0,80}\)\s*=\s*)?"
                          r"(?:\\begin\{[bpv]?matrix\}([\s01&\\]+)"
                          r"\\end\{[bpv]?matrix\}|(?:\\left)?\[([\s01,]+)(?:\\right)?\]|"
                          rf"(?:\\left)?\(({_DOTS_01}+)(?:\\right)?\))")


def _one_hot_value(text: str, notation: Notation) -> re.Match[str] | None:
    """The label letter (t, or the note's letter for it) set to a vector with a single 1."""
    for m in _LABEL_VALUE.finditer(text):
        letter = m.group(1)
        if notation.rename.get(letter, letter) != "t":
            continue
        entries = re.findall(r"[01]", m.group(2) or m.group(3) or m.group(4) or "")
        if len(entries) >= 2 and entries.count("1") == 1:
            return m
    return None


def _example_label(blocks: Sequence[Any], notation: Notation) -> int | None:
    """The class (1-based) of the first label the note writes out as a vector of 0s and a
    single 1, else None."""
    for b in blocks:
        m = _one_hot_value(b.math.text, notation)
        if m is not None and not re.search(r"\.\.\.|…|dots", m.group(0)):
            # ((0, …, 1, …, 0) is one-hot at no class in particular: no example's label)
            return re.findall(r"[01]", m.group(2) or m.group(3) or m.group(4) or "").index("1") + 1
    return None


def _writes_label_entries(step: Step) -> bool:
    """Whether a side as written has an entry of the label or the output with a number for
    index (t_2, y_2): a step about the worked example whose label the note wrote out."""
    return any(isinstance(v, Expr) and any(
        str(x.base.label) in ("t", "y") and all(a.is_Integer for a in x.indices)
        for x in v.atoms(Indexed)) for v in (step.lhs.value, step.rhs.value))


def _one_hot_lists(text: str) -> re.Match[str] | None:
    """"y_j 取值 [1,0,0] 或者 [0,1,0] 或者 [0,0,1]": the label's possible values listed, each
    with a single 1 — one-hot in all but name (one example value alone says less).

    >>> bool(_one_hot_lists("y takes [1,0,0] or [0,1,0] or [0,0,1]; together [1,1,1]"))
    True
    >>> bool(_one_hot_lists("y = [0, 1, 0] in this example"))
    False
    """
    lists = [m for m in _BIT_LIST.finditer(text) if m.group(0).count("1") == 1]
    if len({re.sub(r"\s", "", m.group(0)) for m in lists}) < 2:
        return None
    between = text[lists[0].end():lists[1].start()]
    return lists[0] if re.search(r"或|\bor\b|,|，|、", between) else None


def _one_hot(label: Indexed) -> Hypothesis:
    """t_c = 1 for the note's class c: the one-hot target t_k = δ_kc."""
    from derivations.softmax import OneHotTarget

    return OneHotTarget(label.indices[0])


def _printed(h: Hypothesis) -> str:
    """A hypothesis as the report shows it: σ², not SymPy's sigma**2."""
    return text(h)


def _target_sums_to_one() -> Hypothesis:
    from derivations.softmax import TARGET_SUMS_TO_ONE

    return TARGET_SUMS_TO_ONE


def _laws(m: Math, model: Model, notation: Notation) -> list[tuple[Hypothesis, int]]:
    """``q_i \\sim \\mathcal N(0, 1)`` (or ``N(0, σ²)``) in a formula: the law, mean 0 and
    the variance."""
    rows, _ = rows_of(m)
    out: list[tuple[Hypothesis, int]] = []
    for row in rows:
        if any(r.value == "~" for r in row.relations):
            out += _law(m, row, model, notation)
    return out


def _law(m: Math, row: Row, model: Model, notation: Notation) -> list[tuple[Hypothesis, int]]:
    from derivations import DistributedAs

    text = m.text[row.start:]
    at = next(n for n, r in enumerate(row.relations) if r.value == "~")
    left = row.pieces[at]
    if left is not None and any(t.kind in ("FRAC", "PLUS", "MINUS", "SLASH", "DIV")
                                for t in left.toks):
        # Z = (X − μ)/σ ~ N(0, 1): the law of an expression in X (here Z), not of X's
        return []
    fams = [f.name for f in model.families
            if re.search(rf"(^|[^a-zA-Z\\]){f.name}(?![A-Za-z])", text)]
    out: list[tuple[Hypothesis, int]] = []
    law = _NORMAL_LAW.search(text)
    if law and (law.group("var") == "1" or notation.spread == "sigma"):
        variance = Integer(1) if law.group("var") == "1" else notation.spread_symbol() ** 2
        # N(μ𝟏, σ²I): every component's mean is the note's μ (a parameter, not 0)
        mean = _MU if law.group("mu") else Integer(0)
        for f in fams:
            out += [(DistributedAs(f, "normal"), row.start), (MeanIs(f, mean), row.start),
                    (VarianceIs(f, variance), row.start)]
    elif re.search(r"\\sim\s*\(\s*0\s*,\s*1\s*\)", text):
        # q_i, k_i \sim (0, 1): a law given by its mean and variance only (no name, no shape)
        for f in fams:
            out += [(MeanIs(f), row.start), (VarianceIs(f, Integer(1)), row.start)]
    return out


#: The mean a law names (N(μ, σ²)): the note's μ, as its formulas read it.
_MU = Symbol("mu")
#: N(0, 1), N(0, σ²), N(μ, σ²) — and for vectors N(𝟎, I), N(μ𝟏, σ²I): i.i.d. components.
_NORMAL_LAW = re.compile(
    r"N\s*\}?\s*\(\s*(?:(?:\\mathbf\s*\{?\s*)?0\s*\}?|(?P<mu>\\mu)\s*(?:\\mathbf\s*\{?\s*1\s*\}?)?)"
    r"\s*,\s*(?P<var>1|\\sigma\s*\^\s*\{?\s*2\s*\}?)\s*(?:\\mathbf\s*\{?\s*I\s*\}?|I)?\s*\)")


@dataclass(frozen=True)
class Reading:
    """A note as read, nothing judged yet: its notation, blocks, chains, what its words
    state, and what could not be read (the stages before checking; slides from a note
    and the property tests start here)."""

    source: Source
    fmt: Format
    notation: Notation
    blocks: tuple[_Block, ...]
    chains: tuple[Chain, ...]
    hypotheses: tuple[Hypothesis, ...]
    notes: tuple[ReadNote, ...]
    skipped: int
    #: families whose components the note's words say are correlated, and where
    correlated: tuple[tuple[str, str], ...] = ()
    #: whether the note says its components are independent (or i.i.d., uncorrelated)
    independence_said: bool = False
    #: where the note says its random vectors are unit vectors ("" when it does not)
    unit_vectors: str = ""


def read_note(source: Source, fmt: Format, settings: Settings = Settings()) -> Reading:
    """Every stage of reading, without checking (see :class:`Reading`)."""
    events = scan(source, fmt)
    notes: list[ReadNote] = [ReadNote(source.location(e.start), e.message, problem=True)
                             for e in events if isinstance(e, Problem)]
    try:
        notation, _, _ = _survey(source, events, fmt, settings)
    except VerifyError as exc:  # a random/dim declaration that cannot be read
        notes.append(ReadNote(exc.location, exc.reason, problem=True))
        notation = Notation()
    blocks: list[_Block] = []
    state = State()
    title, lead, case = "", "", ""
    case_level = 0  # the level of the heading that named the case in force
    paragraph: Prose | None = None
    skipped = 0
    proved = ""  # the case a display's own sentence gave, for the proof that follows it
    for e, previous in zip(events, [None, *events[:-1]]):  # (the event before e)
        if isinstance(e, Directive):
            try:
                state = state.apply(e, source.path, source, notation.dim, notation)
            except VerifyError as exc:
                notes.append(ReadNote(exc.location, exc.reason, problem=True))
            continue
        if isinstance(e, Heading):  # a new section; its title may name a case ("i = j 时")
            title = " ".join(e.text.split())
            lead = title or "§"
            named = names_a_case(title)
            if named or not case or e.level <= case_level:
                # "## 当 $m \neq n$ 时 … ### 步骤1": a subsection stays in its section's case
                case, case_level = (f"{named}. " if named else ""), e.level
            if named and named != title:
                # "### 对错误类 $z_i$（$i \neq y$）求偏导" right above its display: the case
                # the heading names, said as words would
                lead = f"{named}. {lead}"
            continue
        if isinstance(e, Prose) and (_BOLD_LINE.fullmatch(e.text.strip()) or
                                     _CASE_LABEL_LINE.fullmatch(e.text.strip())):
            # **情况2：`i ≠ j` (非对角线元素)**: a bold line stands as a heading does, and so
            # does a line that is a numbered case's label alone ("情况2:$i \neq j$(…)")
            named = names_a_case(e.text.strip().strip("*_ "))
            if named:
                case = f"{named}. "
        if isinstance(e, Prose):
            said = _CASE_AFTER_DISPLAY.match(e.text)
            if said and blocks and blocks[-1].math.display and blocks[-1].math is previous:
                # "$$ ∂y_j/∂x_i = −y_j y_i $$⏎⏎where $j \neq i$.": the display's own case
                blocks[-1] = replace(blocks[-1], lead=blocks[-1].lead + _case_words(said))
            words = e.text.split("$$", 1)[0] if e.text.count("$$") >= 2 else e.text
            if not re.search(r"[^\W\d_]", re.sub(r"\$+[^$]*\$+", "", words)) and \
                    not _CONDITION_ONLY.fullmatch(words.strip()):
                continue  # a paragraph of math alone: the words before it still lead in
            # a display inside the paragraph ($$ in a list item): the words before it lead in,
            # unless that display is only a case (当$$k=j$$时)
            text = e.text
            if "$$" in text and not re.search(r"\$\$\s*[a-z]\s*(=|\\neq?|≠)\s*\{?[a-z]\}?\s*\$\$",
                                              text):
                text = text.split("$$", 1)[0]
            # the case a heading names goes on through its section's paragraphs (a
            # paragraph that names its own case, as its last, wins)
            lead = case + text[-400:]
            paragraph = e
            continue
        if isinstance(e, Math):
            here = lead
            if not e.display and paragraph is not None and \
                    paragraph.start <= e.start <= paragraph.start + len(paragraph.text):
                # inline math: the words of its paragraph before it lead in, not those after —
                # but for a case said right after it ("$\bar y_i = -1/y_t$ for $i = t$ and 0
                # otherwise"): what it says holds in that case only
                here = paragraph.text[:e.start - paragraph.start].rstrip("$ \n")[-400:]
                at = paragraph.text.find(e.text, max(0, e.start - paragraph.start - 2))
                said = _CASE_AFTER_INLINE.match(paragraph.text[at + len(e.text):][:80]) \
                    if at >= 0 else None
                if said:
                    here += _case_words(said)
            if e.display and paragraph is not None and \
                    paragraph.start <= e.start <= paragraph.start + len(paragraph.text):
                # "\\[ ∂a_j/∂z_i = −a_j a_i \\] where $j \neq i$.": the case said after it
                at = paragraph.text.find(e.text)
                after = paragraph.text[at + len(e.text):at + len(e.text) + 120] if at >= 0 else ""
                said = _CASE_AFTER_DISPLAY.match(after)
                if said:
                    proved = _case_words(said)
                    here += proved
                elif _PROOF.match(here):  # "**Proof:** \\[ … \\]": the case of what it proves
                    here += proved
                else:
                    proved = ""
            if state.skip_next and e.display:
                skipped += 1
            else:
                blocks.append(_Block(e, state, state.title or title, here))
            if e.display and is_condition_block(e):  # 当 $$k=j$$ 时: the case, in words
                lead += f" ${e.text.strip()}$ "
            elif e.display:  # inline math is part of the prose around it
                state = replace(state, skip_next=False, title="")
                lead = ""
    for b in blocks:
        if not (b.math.display or settings.inline):
            continue
        _, why = rows_of(b.math)
        if why:
            msg, _, at = why.rpartition("@")
            notes.append(ReadNote(source.location(b.math.offset(int(at or 0))),
                                  f"math not read: {msg}", problem=True))
    assumed: list[Assumed] = []
    failed: list[tuple[Math, str]] = []
    chains = build_chains([b.math for b in blocks], notation, inline=settings.inline,
                          leads=[b.lead for b in blocks], assumed=assumed,
                          correct=_correct_class(events),
                          headings=[e.offset(0) for e in events if isinstance(e, Heading)],
                          failed=failed)
    notes += [ReadNote(source.location(m.offset(0)), f"math not read: {why}", problem=True)
              for m, why in failed]
    written = _components_before_scalars(chains, notation)
    read_hyps, read_notes = _assumptions(source, events, notation, assumed, written, chains)
    notes += read_notes
    return Reading(source, fmt, notation, tuple(blocks), tuple(chains), tuple(read_hyps),
                   tuple(notes), skipped, _correlated_components(source, events, notation),
                   _independence_said(events, notation), _unit_vectors(source, events))


def _case_words(said: re.Match[str]) -> str:
    """A case said after a display, as words a lead names it in: " When $j \\neq i$:"."""
    return f" When ${said.group(1)}$:"


#: A paragraph that is one bold line (a heading in all but name).
_BOLD_LINE = re.compile(r"(\*\*|__)[^*\n]{1,200}\1[:：.]?")
#: A line that is a numbered case's label and no more: "情况2:$i \neq j$(自变量对其他元素求导)",
#: "Case 2: $i \neq j$".
_CASE_LABEL_LINE = re.compile(r"(?:\*\*|__)?(?:情况|情形|case)\s*(?:\d+|[一二三四五六七八九十]|[ivx]{1,4})"
                              r"\s*(?:\*\*|__)?\s*[:：.,，]"  # ("**情况一**, $$i=j$$": bold, a comma)
                              r"[^\n]{1,120}", re.IGNORECASE)
#: A paragraph that proves the statement before it.
_PROOF = re.compile(r"\W*(?:proof|证明|證明)\b", re.IGNORECASE)
#: The case a display's own sentence gives after it: "$$ … $$ where $j \neq i$."
_CASE_AFTER_DISPLAY = re.compile(r"\$*[ \t]*[,.，]?[ \t]*(?:where|for|with)\s*\$\s*"
                                 r"([a-z]\s*(?:\\neq?|≠|\\not\s*=)\s*\{?[a-z]\}?)\s*\$"
                                 r"(?!\s*(?:时|:|：|,\s*we))", re.IGNORECASE)


_CASE_AFTER_INLINE = re.compile(r"\$*[ \t]*[,，]?[ \t]*(?:for|if|when|当|若)\s*\$\s*"
                                r"([a-z]\s*(?:=|\\neq?|≠|\\not\s*=)\s*\{?[a-z]\}?)\s*\$", re.IGNORECASE)


def _correct_class(events: Sequence[Any]) -> str | None:
    """The letter the prose names the correct class by ("the correct class is k"), if any."""
    for e in events:
        if isinstance(e, (Prose, Heading)):
            m = CORRECT_CLASS.search(_math_as_words(e.text))
            if m:
                return class_letter(m)
    return None


def _math_as_words(text: str) -> str:
    """Prose with its inline math as plain words: "class is $k$" → "class is  k "."""
    return re.sub(r"\$+([^$]*)\$+", lambda m: " " + m.group(1) + " ", text)


def check_source(source: Source, fmt: Format, settings: Settings = Settings()) -> VerifyResult:
    """Check every derivation of an already-read source (see the module doc)."""
    start = time.monotonic()
    reading = read_note(source, fmt, settings)
    notes = list(reading.notes)
    shown = [c for c in reading.chains if not c.hidden]
    if sum(len(c.steps) for c in shown) > MAX_STEPS:
        notes.append(ReadNote(Location(source.path),
                              f"more than {MAX_STEPS} steps in one file: split it", problem=True))
        return VerifyResult(source.path, fmt, (), reading.skipped, tuple(notes), source.encoding)
    ctx = _Context(source, settings, start + settings.timeout, notation=reading.notation,
                   correlated=dict(reading.correlated),
                   independence_said=reading.independence_said,
                   unit_vectors=reading.unit_vectors,
                   example_label=_example_label(reading.blocks, reading.notation),
                   example_scores=_example_scores(reading.blocks, reading.notation),
                   letters=_letters(reading.notation))
    by_block = {id(b.math): b for b in reading.blocks}
    model = reading.notation.model()
    results: list[DerivationResult] = []
    for number, chain in enumerate(shown, 1):
        blk = by_block[id(chain.block)]
        declared = tuple(dict.fromkeys(blk.state.hypotheses + reading.hypotheses))
        declared = tuple(h for h in declared if _fits(h, model))
        results.append(_chain(ctx, chain, number, blk, model, declared))
        ctx.before = chain.steps[0].lhs.value if isinstance(chain.steps[0].lhs.value, Expr) \
            and chain.steps[0].condition_value is None else None
    results = _evidence(ctx, results)
    if not any(s.is_claim for d in results for s in d.steps) and \
            not any(n.problem for n in notes):
        notes.append(ReadNote(Location(source.path), "no derivation found: expected display "
                              "math with '=' ($$ … $$, \\[ … \\], equation or align)",
                              problem=True))
    return VerifyResult(source.path, fmt, tuple(results), reading.skipped, tuple(notes),
                        source.encoding)


def _evidence(ctx: _Context, results: list[DerivationResult]) -> list[DerivationResult]:
    """Numeric evidence for every judged step, after all verdicts (time goes to verdicts
    first: a file's budget never leaves a step unjudged for the sake of sampling)."""
    if not ctx.settings.numeric:
        return results
    todo = sum(1 for d in results for s in d.steps if s.status.judged)
    out = []
    for d in results:
        steps = []
        for s in d.steps:
            if s.status.judged:
                steps.append(_with_evidence(ctx, s, d.model, ctx.number_of(s), todo))
                todo -= 1
            else:
                steps.append(s)
        out.append(replace(d, steps=tuple(steps)))
    return out


def _fits(h: Hypothesis, model: Model) -> bool:
    try:
        h.check_against(model)
    except DerivationError:
        return False
    return True


def _chain(ctx: _Context, chain: Chain, number: int, blk: _Block, model: Model,
           declared: tuple[Hypothesis, ...]) -> DerivationResult:
    steps: list[StepResult] = []
    prev_cond: Any = None
    for n, step in enumerate(chain.steps, 1):
        ctx.number += 1
        variable = _chain_variable(chain, n - 1)
        try:
            r = _check_step(ctx, step, ctx.number, model, declared, prev_cond, variable,
                            blk.title)
        except (ValueError, TypeError, AttributeError, IndexError, KeyError,
                NotImplementedError) as exc:  # SymPy refusing something: this step only
            r = _recorded(ctx, step, StepStatus.NOT_CHECKED,
                          f"cannot check: {type(exc).__name__}: {exc}", ctx.number,
                          frozenset(declared), model)
        prev_cond = step.condition_value or prev_cond
        r = replace(r, number=n)
        ctx.seeds[id(r)] = ctx.number
        steps.append(r)
    first = chain.steps[0]
    conclusion = steps[0]
    claims = [s for s in steps if s.is_claim]
    if len(steps) > 1 and all(s.kind == "claim" for s in steps) and all(
            s.status.judged for s in steps):
        last = chain.steps[-1]
        # (with the names the chain's steps substituted: S = Σ_i q_i k_i said in the words
        # before it — without them Var(S) was a variance of nothing, "= 0, not d_k")
        whole = Step(first.lhs, last.rhs, "=", "claim", "conclusion", first.condition,
                     first.condition_value, aliases=last.aliases, values=last.values,
                     context=first.context)
        budget = replace(ctx.settings, numeric=False)
        saved = ctx.settings
        ctx.settings = budget
        try:
            conclusion = replace(_check_step(ctx, whole, 0, model, declared, None,
                                             title=blk.title), number=0)
        finally:
            ctx.settings = saved
        steps = _contradicted_failure(steps, conclusion, chain)
    elif claims:
        conclusion = claims[-1]
    loc = _loc(ctx, first.lhs) if first.lhs.end > first.lhs.start else _loc(ctx, first.rhs)
    return DerivationResult(number, loc, blk.title, model, declared, tuple(steps), conclusion,
                            ctx.letters)


def _letters(notation: Notation | None) -> tuple[tuple[str, str], ...]:
    """(verify's letter, the note's) for the softmax's letters the note names its own way."""
    if notation is None:
        return ()
    return tuple((c, notation.written(c)) for c in ("t", "x", "y") if notation.written(c) != c)


def _chain_variable(chain: Chain, upto: int | None = None) -> Expr | None:
    """The variable the chain differentiates by (for the primes of a quotient rule): the
    nearest derivative at or before step ``upto``."""
    steps = chain.steps if upto is None else chain.steps[:upto + 1][::-1]
    for step in steps:
        for link in (step.lhs, step.rhs):
            v = link.value
            if isinstance(v, Expr):
                for d in v.atoms(Derivative):
                    var = d.variables[0]
                    if var != PRIME:
                        return var
    return None


def _failed(source: Source, fmt: Format, exc: VerifyError) -> VerifyResult:
    return VerifyResult(source.path, fmt, (), 0,
                        (ReadNote(exc.location, exc.reason, problem=True),), source.encoding)


def verify(path: str, *, fmt: Format | None = None, seed: int = 20261121,
           numeric: bool = True, numeric_seconds: float = NUMERIC_SECONDS,
           timeout: float = TIMEOUT, inline: bool = False) -> VerifyResult:
    """Check the derivations of a .tex or .md file (the Python API behind `attncheck verify`).

    A file that cannot be read at all raises :class:`VerifyError`; anything inside it
    that cannot be read is reported in the result.
    """
    source = read_source(path)  # a missing file is reported before an unknown suffix
    return check_source(source, fmt or guess_format(path),
                        Settings(seed, numeric, numeric_seconds, timeout, inline))


def verify_text(text: str, name: str = "<text>", *, fmt: Format | None = None,
                seed: int = 20261121, numeric: bool = True,
                numeric_seconds: float = NUMERIC_SECONDS, timeout: float = TIMEOUT,
                inline: bool = False) -> VerifyResult:
    """Check derivations given as a string (a notebook cell); ``name`` appears in locations."""
    return check_source(decode(name, text.encode("utf-8")), fmt or guess_format(name),
                        Settings(seed, numeric, numeric_seconds, timeout, inline))
