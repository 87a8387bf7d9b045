r"""Beamer decks that tell the lecture's story, every step printed with the checker's verdict.

The deck goes: the attention formula; the setting and the hypotheses, in words;
E(q·k) = 0; Var(q_i k_i) = 1 beside the general Var(XY); Var(q·k) = d_k; the scaling
D(aX) = a²D(X); the experiments as figures; softmax saturating; the softmax Jacobian
and the cross-entropy gradient derived step by step; the common mistakes with the
numbers that refute them (the checker's exact value at a point beside the sample
value from the same seeded draws as the figures); a summary.

A derivation slide shows a :class:`Chain`: each step as its author wrote it (never
SymPy's simplification of it), the rule it uses, and its verdict — a ✓ one overlay
after the step (a class can guess first), a ✗ with the step.  Chains come from the
catalogue's checked derivations (:func:`chain_from_derivation`), from any checked
steps (:func:`chain_from_verdicts`) or from a note that verify has read
(:func:`chain_from_notes`); :func:`chain_frame` and :func:`document` turn a list of
them into a deck.

Chinese decks use ctexbeamer under xelatex; every word comes from attncheck.i18n,
so a deck is in one language only.

>>> [m.claimed for m in mistakes(run_experiments())][:2]
[8, 4096]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import pairwise
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import NDArray
from sympy import Derivative, Eq, Expr, KroneckerDelta, Sum, exp, limit, log, oo

from attncheck.catalogue import CATALOGUE
from attncheck.i18n import Texts, Words
from attncheck.notetex import literal, math_source, relation, text_source, unmarked
from attncheck.output import OutputDir
from attncheck.plots import Experiments, run_experiments, write_plots
from attncheck.softmax.claims import checked
from attncheck.tex import COLORS
from attncheck.verdicts import note_detail, step_failure, step_rule
from derivations import (
    Derivation,
    DerivationError,
    DerivationVerdict,
    Hypothesis,
    Model,
    StepVerdict,
    evaluate,
)
from derivations import softmax as sm
from derivations.checking import apply_hypotheses
from derivations.lecture import (
    D_K,
    e_dot,
    var_dot,
    var_product_general,
    var_qk_single,
    var_scaled_dot,
)
from derivations.lecture import written as w
from derivations.model import Family
from derivations.printing import escape, hypothesis_order
from derivations.softmax import saturation as sat
from numeric.softmax.attention import max_abs_jacobian

if TYPE_CHECKING:  # verify's results are read; imported where needed (slides loads light)
    from attncheck.verify.result import DerivationResult, StepResult

__all__ = [
    "Chain",
    "Deck",
    "Mistake",
    "Row",
    "chain_frame",
    "chain_from_derivation",
    "chain_from_notes",
    "chain_from_verdicts",
    "deck_file",
    "deck_source",
    "deck_texts",
    "document",
    "mistakes",
    "softmax_verdicts",
    "variance_with_error",
    "write_deck",
]

_MARKS = (r"\textcolor{ok}{\checkmark}", r"\textcolor{bad}{\times}")


def deck_texts(lang: str, notation: str | None = None, dot: str = "cdot", overlays: bool = False) -> Texts:
    """The words and printer of a deck: ✓ and ✗ in the verdict colours, Σ with its limits at
    the side, two hypotheses a line (what fits a slide)."""
    return Texts(lang, notation, dot, marks=_MARKS, overlays=overlays, layout="stacked",
                 sum_limits="side", hypotheses_per_line=2)


# -- the mistakes frame --------------------------------------------------------------------
@dataclass(frozen=True)
class Mistake:
    """A wrong twin of the catalogue, refuted at a point: claimed, exact and sampled values."""

    key: str  # i18n title of the mistake
    twin: Derivation
    point: dict[Expr, Expr]
    claimed: Expr
    true: Expr
    sample: str  # "estimate ± standard error" of the same draws as the figures


def _at(d: Derivation, side: Expr, point: dict[Expr, Expr]) -> Expr:
    value = apply_hypotheses(evaluate(side, d.model), d.hypotheses, d.model).subs(point)
    if not value.is_number:
        raise DerivationError(f"mistake {d.title!r}: value {value} still has free symbols at {point}")
    return value


def mistakes(ex: Experiments) -> tuple[Mistake, ...]:
    """The notes' classic mistakes, each with the numbers that refute it."""
    entries = {e.key: e for e in CATALOGUE}
    q, k = Family("q"), Family("k")
    at_d = {D_K: ex.sample.d}
    at_means = {q.mean: 1, k.mean: 1, q.std: 1, k.std: 1}
    scores = ex.sample.scores
    specs: Sequence[tuple[str, str, int, dict[Expr, Expr], NDArray[np.float64]]] = (
        ("mistake-sqrt", "var-dot", 0, at_d, scores),
        ("mistake-square", "var-dot", 1, at_d, scores),
        ("mistake-divide", "var-scaled-dot", 0, at_d, scores / ex.sample.d),
        ("mistake-means", "var-qk-single", 0, at_means, ex.products),
    )
    out = []
    for key, entry, n, point, sampled in specs:
        twin = entries[entry].twins[n]
        lhs, rhs = twin.steps[0].expr, twin.steps[-1].expr
        out.append(Mistake(key, twin, point, _at(twin, rhs, point), _at(twin, lhs, point), _estimate(sampled)))
    return tuple(out)


@lru_cache(maxsize=64)
def _verdict(d: Derivation) -> DerivationVerdict:
    """A derivation checked once per process: both languages' decks print the same verdicts."""
    return d.check()


def _number(x: float) -> str:
    return f"{x:.4g}"


def _scientific(x: float) -> str:
    """3 significant digits, as m \\times 10^{e} when small: 9.08 \\times 10^{-5}."""
    if x == 0 or 1e-2 <= abs(x) < 1e4:
        return f"{x:.3g}"
    mant, power = f"{x:.2e}".split("e")
    return rf"{mant} \times 10^{{{int(power)}}}"


def _mistakes_frame(t: Texts, ex: Experiments) -> str:
    lines = [rf"\begin{{frame}}{{{t.title('mistakes')}}}", r"\small", r"\begin{itemize}"]
    for m in mistakes(ex):
        v = _verdict(m.twin).steps[0]
        point = r",\ ".join(t.latex(Eq(s, val, evaluate=False)) for s, val in m.point.items())
        lines += [
            (rf"\item \textbf{{{t.title(m.key)}}}: ${t.latex(m.twin.conclusion)}$"
             rf" \hfill ${t.printer.verdict_mark(v, m.twin.hypotheses, m.twin.model)}$\\"),
            (rf"{{\footnotesize {t.title('at')} ${point}$: \quad "
             rf"{t.title('claimed-value')} ${t.latex(m.claimed)}$, \quad "
             rf"{t.title('true-value')} ${t.latex(m.true)}$, \quad "
             rf"{t.title('sample-value')} ${m.sample}$}}"),
        ]
    lines += [r"\end{itemize}", r"\end{frame}"]
    return "\n".join(lines)


# -- chains: what a derivation slide shows ------------------------------------------------------
@dataclass(frozen=True)
class Row:
    """One step of a chain on a slide: the right side as LaTeX math, as its author wrote it;
    the rule it uses (text-mode LaTeX); its verdict mark (math) and whether it holds.

    A note's step carries more (:func:`chain_from_notes`): its left side and relation (a
    chain split over frames starts a frame with them), what the mark says in words
    (``says``, text-mode: the hypotheses used, what the right side should be, why it was
    not read), a ``remark`` in small grey type (the note's own reason, a case, a side shown
    as source text), whether the mark is a verdict (a ✓ comes one overlay after its step)
    or a record shown with it (≔, ?), and the speaker's note for the step.
    """

    rhs: str
    rule: str
    mark: str
    holds: bool
    lhs: str = ""
    relation: str = "="
    says: str = ""
    remark: str = ""
    verdict: bool = True
    speaker: str = ""


@dataclass(frozen=True)
class Chain:
    """A checked chain ready for a slide: a title (text-mode LaTeX), the first expression and
    the rows.  Built from the catalogue's derivations here, or from any checked chain — a
    note's chains as verify read them, with the note's own LaTeX for each side (then
    ``condition`` is the case every step is under, text-mode, if they share one)."""

    title: str
    lhs: str
    rows: tuple[Row, ...]
    condition: str = ""

    def align(self, t: Texts) -> str:
        """The chain as an align*, revealed one step per overlay when the texts' printer has
        overlays (a ✓ one overlay after its step, a ✗ with it)."""
        cells = [(r.rhs, r.rule, r.mark, r.holds) for r in self.rows]
        return t.printer._environment(t.printer.rows(self.lhs, cells))


def chain_from_verdicts(t: Texts, title: str, lhs: Expr, verdicts: Sequence[StepVerdict],
                        model: Model | None = None, declared: Sequence[Hypothesis] = ()) -> Chain:
    """A chain from the checker's verdicts on consecutive steps, each side printed as written."""
    p = t.printer
    rows = tuple(Row(p._with_hypotheses(declared, lambda v=v: p.doprint(v.rhs)),
                     p.step_reason(v, model), p.verdict_mark(v, declared, model), v.holds)
                 for v in verdicts)
    return Chain(title, p.doprint(lhs), rows)


def chain_from_derivation(t: Texts, title: str, d: Derivation) -> Chain:
    v = _verdict(d)
    return chain_from_verdicts(t, title, d.steps[0].expr, v.steps, d.model, d.hypotheses)


def _source(t: Texts, latex: str) -> tuple[str, str]:
    """A side as the note wrote it (math), and the remark when it had to be shown as text."""
    shown = math_source(latex)
    why = "" if shown.as_written else t.notes(f"source-{shown.why}", detail=rf"\texttt{{{escape(shown.detail)}}}")
    return shown.latex, why


def _records(t: Texts, s: StepResult) -> tuple[str, str, str]:
    """The mark, its word and the detail (for the grey remark) of a step that is recorded,
    not judged: ≔ a definition, ⊢ an assumption, | a condition, or ? not read or not
    checked, and why (verify's words)."""
    from attncheck.verify.result import StepStatus

    unread = r"\textcolor{unread}{\mathbf{?}}"
    mark, word = {
        StepStatus.DEFINITION: (r"\coloneqq", "definition"),
        StepStatus.ASSUMPTION: (r"\vdash", "assumption"),
        StepStatus.CONDITION: (r"\mid", "condition"),
        StepStatus.NOT_READ: (unread, "not-read"),
    }.get(s.status, (unread, "not-checked"))
    shown = s.status in (StepStatus.NOT_READ, StepStatus.NOT_CHECKED)
    # verify's reason in the deck's language (Chinese where a translation is known)
    return mark, t.notes(word), literal(Words(t.lang).note(note_detail(s.note))) if shown else ""


def _judged(t: Texts, s: StepResult, d: DerivationResult) -> tuple[str, str, str]:
    """The mark, its words and the rule of a judged step: ✓ with the hypotheses it uses and
    its rule, or ✗ with what is wrong — what the right side should be, as the terminal says."""
    p = t.printer
    ok, fail = p._settings["marks"]

    def math(e: Expr) -> str:
        return "$" + p._with_hypotheses(d.declared, lambda: p.doprint(e)) + "$"

    def hyps(h: frozenset[Hypothesis]) -> str:  # text: a long set breaks after a comma
        ordered = sorted(h, key=hypothesis_order(d.declared))
        return r"$\{$" + ", ".join(f"${p.doprint(x)}$" for x in ordered) + r"$\}$"

    from attncheck.verify.result import StepStatus

    if s.status.ok:
        use = step_rule(s, d)
        return ok, hyps(s.used) if s.used else "", t.rule(use) if use is not None else ""
    if s.status is StepStatus.NEEDS_UNDECLARED:
        alts = t.notes("or").join(hyps(n) for n in s.needs) if len(s.needs) > 1 else hyps(s.used)
        return fail, t.notes("needs-undeclared", hypotheses=alts, missing=hyps(s.undeclared)), ""
    f = step_failure(s, d)
    if f is not None and f.should_be is not None:
        says = t.notes("should-be", value=math(f.should_be))
        if f.would_hold_given:
            says += t.notes("would-hold-given", hypotheses=hyps(f.would_hold_given[0]))
        return fail, says, ""
    key = "mean-square-residual" if s.mean_square else "residual"
    return fail, t.notes(key, residual=math(s.residual)), ""


def chain_from_notes(t: Texts, d: DerivationResult, title: str | None = None) -> Chain:
    """A chain that ``attncheck verify`` checked in a note: each side in the note's own LaTeX
    (:func:`attncheck.notetex.math_source`: changed only where it cannot stand alone), the
    rule named from the parsed steps, ✓ with the hypotheses used or ✗ with what is wrong;
    definitions, assumptions and conditions for what they are; a step verify could not read
    as written, with ? and why.  ``title`` (text-mode LaTeX) defaults to the chain's own."""
    conditions = {s.condition for s in d.steps}
    shared = conditions.pop() if len(conditions) == 1 else ""
    rows = []
    for s in d.steps:
        lhs, lhs_why = _source(t, s.lhs_source)
        rhs, rhs_why = _source(t, s.rhs_source)
        if s.status.judged:
            mark, says, rule = _judged(t, s, d)
            verdict = True
        else:
            (mark, says, why), rule, verdict = _records(t, s), "", False
        remarks = [why] if not s.status.judged and why else []
        remarks += [t.notes("the-note-says", reason=text_source(s.reason))] if s.reason else []
        if s.condition and not shared:
            remarks.append(t.notes("when-row", condition=f"${unmarked(math_source(s.condition).latex)}$"))
        remarks += [w for w in dict.fromkeys((lhs_why, rhs_why)) if w]
        rows.append(Row(rhs, rule, mark, s.holds, lhs=lhs, relation=relation(s.relation), says=says,
                        remark=t.notes("semicolon").join(remarks), verdict=verdict,
                        speaker=_speaker(t, s, d, rule, says)))
    if title is None:
        title = text_source(d.title) if d.title else t.notes("chain", n=d.number)
    condition = f"${unmarked(math_source(shared).latex)}$" if shared else ""
    return Chain(title, rows[0].lhs if rows else "", tuple(rows), condition)


def _speaker(t: Texts, s: StepResult, d: DerivationResult, rule: str, says: str) -> str:
    """What the lecturer's note says about a step: where it is, its rule, the hypotheses
    it uses, the verdict in words."""
    parts = [t.notes("step-at", n=s.number, line=s.location.line)]
    if rule:
        parts.append(t.notes("speaker-rule", rule=rule))
    if s.status.ok and s.used:
        parts.append(t.notes("speaker-uses", hypotheses=_judged(t, s, d)[1]))
    elif s.status.ok:
        parts.append(t.notes("speaker-holds"))
    elif says:
        parts.append(says)
    if s.reason:
        parts.append(t.notes("the-note-says", reason=text_source(s.reason)))
    return t.notes("semicolon").join(parts)


# -- the other frames ----------------------------------------------------------------------
def _frame(title: str, *body: str) -> str:
    return "\n".join([rf"\begin{{frame}}{{{title}}}", *body, r"\end{frame}"])


def chain_frame(t: Texts, chain: Chain, *after: str, legend: bool = True) -> str:
    """A frame with one chain, what follows it, and the legend of the marks."""
    foot = [r"\vfill", r"{\footnotesize " + t.title("legend") + "}"] if legend else []
    return _frame(chain.title, r"\small", chain.align(t), *after, *foot)


def _derivation_frame(t: Texts, key: str, d: Derivation, *after: str) -> str:
    return chain_frame(t, chain_from_derivation(t, t.title(key), d), *after)


def _figure(name: str, width: str = r"\textwidth", height: str = r"0.7\textheight") -> str:
    return rf"\begin{{center}}\includegraphics[width={width},height={height},keepaspectratio]{{{name}}}\end{{center}}"


def _title_frame(t: Texts) -> str:
    return r"\begin{frame}\titlepage\end{frame}"


def _setting_frame(t: Texts) -> str:
    items = [rf"\item {t.title(key)}" for key in ("hyp-means", "hyp-variances", "hyp-independence")]
    return _frame(
        t.title("setting"),
        t.title("setting-text"),
        r"\par\medskip",
        r"\textbf{" + t.title("hypotheses") + "}",
        r"\begin{itemize}", *items, r"\end{itemize}",
        r"{\small " + t.title("hypotheses-note") + "}",
    )


def _var_single_frame(t: Texts) -> str:
    """Var(q_i k_i) = 1, and beside it the general Var(XY) of independent factors: the zero
    means the regrouping needs are what removes its last two terms."""
    general = _verdict(var_product_general())
    v, d = general.steps[0], general.derivation
    mark = t.printer.verdict_mark(v, d.hypotheses, d.model)
    formula = rf"\[ {t.latex(v.lhs)} = {t.latex(v.rhs)} \qquad {mark} \]"
    return _derivation_frame(
        t, "var-single", var_qk_single(),
        r"\begin{block}{" + t.title("var-general") + "}", formula, t.title("var-general-note"), r"\end{block}",
    )


def variance_with_error(x: NDArray[np.float64]) -> tuple[float, float]:
    """Sample variance and its standard error, √(Var((x − x̄)²)/n), from the sample itself.

    >>> v, se = variance_with_error(np.array([-1.0, 1.0] * 50))
    >>> round(v, 4), round(se, 4)
    (1.0101, 0.0)
    """
    dev2 = (x - x.mean()) ** 2
    return float(x.var(ddof=1)), float(np.sqrt(dev2.var(ddof=1) / x.size))


def _estimate(x: NDArray[np.float64]) -> str:
    """"65.31 \\pm 0.66": the error to two significant digits, the estimate to the same place."""
    v, se = variance_with_error(x)
    if not se > 0:
        return _number(v)
    places = max(0, 1 - int(np.floor(np.log10(se))))
    return rf"{v:.{places}f} \pm {se:.{places}f}"


def _experiment_frame(t: Texts, ex: Experiments, lang: str) -> str:
    s = ex.sample
    return _frame(
        t.title("histograms"),
        _figure(f"histograms-{lang}.pdf", height=r"0.62\textheight"),
        t.title("histograms-text")
        + rf"${_estimate(s.scores)}$ ($d_{{k}} = {s.d}$), ${_estimate(s.scaled)}$.",
    )


def deck_source(lang: str, ex: Experiments, notation: str | None = None, dot: str = "cdot") -> str:
    """The deck's LaTeX; figures are referenced as ``NAME-LANG.pdf`` beside the .tex."""
    t = deck_texts(lang, notation, dot, overlays=True)
    frames = [
        _title_frame(t),
        _setting_frame(t),
        _derivation_frame(t, "e-dot", e_dot()),
        _var_single_frame(t),
        _derivation_frame(t, "var-dot", var_dot()),
        _derivation_frame(t, "var-scaled", var_scaled_dot(), r"\medskip", t.title("var-scaled-text")),
        _experiment_frame(t, ex, lang),
        *_softmax_frames(t, lang),
        _mistakes_frame(t, ex),
        _softmax_mistakes_frame(t),
        _summary_frame(t),
    ]
    return document(t, frames)


_ATTENTION = r"\operatorname{softmax}\left(\frac{Q K^{\top}}{\sqrt{d_{k}}}\right) V"


def document(t: Texts, frames: Sequence[str], title: str | None = None, plain_title: str | None = None,
             subtitle: str | None = None, formula: bool = True) -> str:
    """A Beamer document (ctexbeamer for Chinese) around frames: 16:9, the verdict colours, and
    the settings that let a seven-row chain fit one frame."""
    cls = (r"\documentclass[aspectratio=169,11pt,UTF8]{ctexbeamer}" if t.lang == "zh"
           else r"\documentclass[aspectratio=169,11pt]{beamer}")
    title = t.title("deck-title") if title is None else title
    plain_title = t.title("deck-title-plain") if plain_title is None else plain_title
    subtitle = t.title("deck-subtitle") if subtitle is None else subtitle
    return "\n".join([
        cls,
        r"\usepackage{amsmath,amssymb,graphicx}",
        r"\usefonttheme[onlymath]{serif}",  # one math font in both decks (ctex changes the operator font)
        r"\setbeamertemplate{navigation symbols}{}",
        r"\setbeamersize{text margin left=0.7cm, text margin right=0.7cm}",  # room for the rules
        r"\setlength{\jot}{2pt}",  # seven rows of a derivation fit one frame
        r"\setbeamertemplate{footline}[frame number]",
        COLORS,
        r"\title{\texorpdfstring{" + title + "}{" + plain_title + "}}",
        r"\subtitle{" + subtitle + "}",
        # the title page's last line: the formula the whole deck explains
        r"\date{" + (t.title("attention") + rf"$\displaystyle {_ATTENTION}$" if formula else "") + "}",
        r"\begin{document}",
        "\n\n".join(frames),
        r"\end{document}",
        "",
    ])


def _saturation_formula(t: Texts) -> str:
    """y₃ of softmax([a, a, 2a]), its closed form and limit, and J₃₃'s leading term
    (derivations.softmax.saturation derives and checks them)."""
    y3 = sat.softmax_at()[2]
    closed = 1 / (1 + 2 * exp(-sat.A))
    if not sat.closed_form_holds(closed):
        raise DerivationError(f"saturation frame: y_3 = {closed} does not hold")
    j33_limit, j33_lead = sat.limits_of_jacobian()[(3, 3)]
    return (rf"\[ y_{{3}} = {t.latex(y3)} = {t.latex(closed)}"
            rf" \xrightarrow{{a \to \infty}} {t.latex(limit(y3, sat.A, oo))}, \qquad"
            rf" J_{{33}} \approx {t.latex(j33_lead)} \xrightarrow{{a \to \infty}} {t.latex(j33_limit)} \]")


def _jacobian_numbers() -> str:
    """max |J_ij| of softmax([a, a, 2a]) for growing a: the Jacobian collapses with saturation."""
    cells = [rf"a = {a}: {_scientific(float(max_abs_jacobian(np.array([a, a, 2.0 * a]))))}"
             for a in (1, 5, 10, 20)]
    return r"\[ \max_{ij} |J_{ij}|:\quad " + r",\quad ".join(cells) + r" \]"


# -- the softmax derivations, written as a lecture writes them and checked step by step ---------
def _softmax_steps() -> tuple[list[Expr], list[Expr]]:
    """The Jacobian ∂y_i/∂x_j and the gradient ∂L/∂x_i, each a chain of written steps."""
    y, x, t, i, j, k, n = sm.y, sm.x, sm.t, sm.i, sm.j, sm.k, sm.n
    total = Sum(exp(x[k]), (k, 1, n))
    e_i, e_j, d_ij, d_ki = exp(x[i]), exp(x[j]), KroneckerDelta(i, j), KroneckerDelta(k, i)
    jacobian = [
        Derivative(y[i], x[j]),
        w.frac(w.add(w.mul(d_ij, e_i, total), w.neg(w.mul(e_i, e_j))), w.pow(total, 2)),
        w.add(w.frac(w.mul(d_ij, e_i), total), w.neg(w.mul(w.frac(e_i, total), w.frac(e_j, total)))),
        w.add(w.mul(d_ij, y[i]), w.neg(w.mul(y[i], y[j]))),
        w.mul(y[i], w.add(d_ij, w.neg(y[j]))),
    ]
    targets = Sum(t[k], (k, 1, n))
    gradient = [
        Derivative(sm.L, x[i]),
        w.neg(Sum(w.mul(t[k], Derivative(log(y[k]), x[i])), (k, 1, n))),
        w.neg(Sum(w.mul(w.frac(t[k], y[k]), Derivative(y[k], x[i])), (k, 1, n))),
        w.neg(Sum(w.mul(w.frac(t[k], y[k]), y[k], w.add(d_ki, w.neg(y[i]))), (k, 1, n))),
        w.add(w.neg(Sum(w.mul(t[k], d_ki), (k, 1, n))), w.mul(y[i], targets)),
        w.add(w.neg(t[i]), w.mul(y[i], targets)),
        w.add(y[i], w.neg(t[i])),
    ]
    return jacobian, gradient


@lru_cache(maxsize=4)
def softmax_verdicts() -> tuple[tuple[StepVerdict, ...], tuple[StepVerdict, ...]]:
    """Every step of the two softmax chains, checked (derivations.softmax derives both sides)."""
    return tuple(  # type: ignore[return-value]
        tuple(sm.check_softmax_equality(a, b, hypotheses=(sm.TARGET_SUMS_TO_ONE,)) for a, b in pairwise(chain))
        for chain in _softmax_steps())


def _softmax_frames(t: Texts, lang: str) -> list[str]:
    y, tt, i, k, n = sm.y, sm.t, sm.i, sm.k, sm.n
    definition = Eq(y[i], sm.softmax_entry(), evaluate=False)
    loss = Eq(sm.L, -Sum(tt[k] * log(y[k]), (k, 1, n)), evaluate=False)
    jacobian, gradient = _softmax_steps()
    jac_v, grad_v = softmax_verdicts()
    return [
        _frame(t.title("softmax-saturation"), t.title("saturation-setup"),
               _saturation_formula(t), _figure(f"saturation-{lang}.pdf", height=r"0.5\textheight")),
        chain_frame(t, chain_from_verdicts(t, t.title("jacobian-derivation"), jacobian[0], jac_v),
                    legend=False).replace(r"\small", r"\small" + "\n" + t.title("softmax-definition")
                                          + rf"$\displaystyle {t.latex(definition)}$", 1),
        _frame(t.title("jacobian-collapse"),
               t.title("jacobian-matrix"),
               r"\[ J = \operatorname{diag}(y) - y y^{\top} \]",
               t.title("jacobian-text"), _jacobian_numbers()),
        _frame(t.title("vanishing"), _figure(f"vanishing-{lang}.pdf")),
        chain_frame(t, chain_from_verdicts(t, t.title("cross-entropy-derivation"), gradient[0], grad_v),
                    legend=False).replace(r"\small", r"\small" + "\n" + t.title("cross-entropy-definition")
                                          + rf"$\displaystyle {t.latex(loss)}$", 1),
    ]


def _softmax_mistakes_frame(t: Texts) -> str:
    """The wrong twins of the softmax results, each ✗ with what it should be — from the start."""
    lines = [rf"\begin{{frame}}{{{t.title('mistakes-softmax')}}}", r"\begin{itemize}"]
    for key, name in (("mistake-delta", "softmax-jacobian~1"), ("mistake-sign", "cross-entropy-gradient~1")):
        v = checked(name)
        lines += [rf"\item \textbf{{{t.title(key)}}}\\",
                  rf"$\displaystyle {t.latex(v.lhs)} = {t.latex(v.rhs)}$ \quad ${t.printer.verdict_mark(v)}$"]
    lines += [r"\end{itemize}", r"\end{frame}"]
    return "\n".join(lines)


def _summary_frame(t: Texts) -> str:
    items = [rf"\item {t.title(key)}" for key in
             ("summary-moments", "summary-scaling", "summary-softmax", "summary-mistakes")]
    return _frame(t.title("summary"), r"\begin{itemize}", "\n\\medskip\n".join(items), r"\end{itemize}")


@dataclass(frozen=True)
class Deck:
    tex: Path
    figures: dict[str, list[Path]]


def deck_file(lang: str) -> str:
    """The deck's file name: ``attention-zh.tex``."""
    return f"attention-{lang}.tex"


def write_deck(outdir: Path | OutputDir, lang: str, notation: str | None = None, dot: str = "cdot",
               experiments: Experiments | None = None) -> Deck:
    """Write ``attention-LANG.tex`` and its figures (PDF for the deck, PNG for screens)."""
    ex = experiments or run_experiments()
    out = OutputDir.open(outdir)
    figures = write_plots(out, lang, ("pdf", "png"), ex)
    tex = out.write(deck_file(lang), deck_source(lang, ex, notation, dot).encode("utf-8"))
    return Deck(tex, figures)

