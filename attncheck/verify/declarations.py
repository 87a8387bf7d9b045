"""Declarations: what the notes assume, written in comments that TeX and Markdown ignore.

A declaration is a comment line starting with ``attncheck:`` — ``% attncheck: …`` in
LaTeX (and inside math), ``<!-- attncheck: … -->`` in Markdown.  They apply to every
derivation below them, in file order:

=============================================  ===============================================
``attncheck: random q, k, v``                  the random families (vectors with i.i.d.
                                               components); default ``q, k``.  The first two
                                               may be dependent unless ``q \\perp k`` is assumed
``attncheck: dim d_k``                         the dimension symbol; default ``d_k`` if the
                                               file writes ``d_k`` or ``d_{k}``, else ``d``
``attncheck: assume E(q_i)=0, D(k_i)=1``       hypotheses, comma-separated, in the notes' own
                                               LaTeX: ``E(X_i)=c``, ``Var(X_i)=c`` (or ``D``),
                                               ``Cov(q_i,k_i)=0``, ``q \\perp k``,
                                               ``q_i \\sim N(0,1)``, ``q_i \\sim normal``
``attncheck: reset``                           forget the hypotheses declared so far
``attncheck: skip``                            do not check the next display block
``attncheck: title Var(q·k) = d_k``            a title for the next derivation
=============================================  ===============================================

With no declaration at all, q and k are random, moments-only, possibly dependent,
with any means and variances: every step's needs are then *found*, and a step
that needs an undeclared hypothesis is reported as such.

>>> from attncheck.verify.blocks import Directive
>>> s = State().apply(Directive(0, "assume E(q_i) = 0, D(k_i) = 1, q \\\\perp k"), "x.tex")
>>> [str(h) for h in s.hypotheses]
['E(q_i) = 0', 'Var(k_i) = 1', 'q ⟂ k']
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from sympy import Expr, Indexed, Integer

from attncheck.text import quote
from attncheck.verify.blocks import Directive
from attncheck.verify.errors import Location, VerifyError
from attncheck.verify.files import Source
from attncheck.verify.lexer import LexError, tokenize
from attncheck.verify.parse import Notation, ParseProblem, Parser
from derivations import (
    CorrelationIs,
    Cov,
    DistributedAs,
    E,
    Hypothesis,
    Independent,
    InvalidModel,
    MeanIs,
    Model,
    Var,
    VarianceIs,
)
from derivations.expectation import is_random
from derivations.hypotheses import check_consistent

__all__ = ["KEYWORDS", "MAX_FAMILIES", "State", "default_dimension", "hypotheses_of"]

#: The words a declaration may start with.
KEYWORDS = ("random", "dim", "assume", "reset", "skip", "title")
#: Minimal hypothesis sets are searched over subsets: 2^(3·families) of them.
MAX_FAMILIES = 3

_PERP = re.compile(
    r"^\s*(?:\\mathbf\s*\{)?([a-zA-Z])\}?(?:_\{?[a-z]\}?)?\s*"
    r"(?:\\perp\s*(?:\\!\s*)*\\perp|\\perp|\\bot|\\indep|⟂|⊥|⫫)\s*"
    r"(?:\\mathbf\s*\{)?([a-zA-Z])\}?(?:_\{?[a-z]\}?)?\s*$"
)
_LAW = re.compile(r"^\s*([a-zA-Z])(?:_\{?[a-z]\}?)?\s*(?:\\sim|~)\s*(.+?)\s*$")
_NORMAL = re.compile(r"^(?:\\mathcal\s*\{\s*N\s*\}|N)\s*\((.*),(.*)\)$")


def default_dimension(blocks_text: str) -> str:
    """``d_k`` when the notes write d_k (or d_{k}) anywhere in their math, else ``d``.

    >>> default_dimension(r"\\frac{q^\\top k}{\\sqrt{d_{k}}}"), default_dimension("q_i k_i")
    ('d_k', 'd')
    """
    return "d_k" if re.search(r"d_\s*(\{\s*k\s*\}|k)(?![a-zA-Z])", blocks_text) else "d"


def _split_top(text: str) -> list[tuple[int, str]]:
    """Comma- or semicolon-separated pieces outside brackets, with their offsets."""
    out: list[tuple[int, str]] = []
    depth, start = 0, 0
    for i, c in enumerate(text):
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        elif c in ",;" and depth == 0:
            out.append((start, text[start:i]))
            start = i + 1
    out.append((start, text[start:]))
    return [(a + len(p) - len(p.lstrip()), p.strip()) for a, p in out if p.strip()]


@dataclass(frozen=True)
class State:
    """The declarations in force at a point of the file."""

    families: tuple[str, ...] | None = None
    dim: str | None = None
    hypotheses: tuple[Hypothesis, ...] = ()
    skip_next: bool = False
    title: str = ""

    def model(self, default_dim: str) -> Model:
        """Moments-only families; the first two may be dependent (independence is a hypothesis)."""
        return self.notation(Notation(dim=default_dim)).model()

    def notation(self, found: Notation) -> Notation:
        """The note's notation as read from its math, with what the declarations fix."""
        fams = self.families or found.families
        pair = ((fams[0], fams[1]),) if len(fams) >= 2 else ()
        # scalar random variables keep their pairs: each may depend on the others
        scalar_pairs = tuple(p for p in found.dependent if p[0] in found.scalars)
        return replace(found, families=fams, dim=self.dim or found.dim,
                       dependent=pair + scalar_pairs)

    def apply(self, d: Directive, path: str, source: Source | None = None,
              default_dim: str = "d", found: Notation | None = None) -> State:
        """This state after directive ``d`` (errors located in ``source`` when given)."""

        def where(offset: int = 0) -> Location:
            return source.location(d.start + offset) if source else Location(path)

        head, _, rest = d.text.strip().partition(" ")
        lead = len(d.text) - len(d.text.lstrip())
        body_at = lead + len(head) + 1
        key = head.lower()
        if key not in KEYWORDS:
            raise VerifyError(f"unknown declaration (expected one of {', '.join(KEYWORDS)}): "
                              f"{quote(head, 60)}", where(lead))
        rest = rest.strip()
        if key == "reset":
            return replace(self, hypotheses=())
        if key == "skip":
            return replace(self, skip_next=True)
        if key == "title":
            return replace(self, title=rest)
        if key == "dim":
            if not re.fullmatch(r"[a-zA-Z](_\{?[a-zA-Z0-9]\}?)?", rest):
                raise VerifyError(f"dim {rest!r}: expected a symbol such as d or d_k",
                                  where(body_at))
            return replace(self, dim=re.sub(r"[{}]", "", rest))
        if key == "random":
            names = tuple(n.strip() for n in rest.split(","))
            if not names or not all(re.fullmatch(r"[a-zA-Z]", n) for n in names):
                raise VerifyError(f"random {rest!r}: expected single letters such as q, k",
                                  where(body_at))
            if len(set(names)) != len(names) or len(names) > MAX_FAMILIES:
                raise VerifyError(f"random {rest!r}: expected 1 to {MAX_FAMILIES} distinct "
                                  "families", where(body_at))
            if set(names) & {"e", "E", "D"}:
                raise VerifyError("e, E and D are reserved (Euler's number, expectation, "
                                  "variance)", where(body_at))
            return replace(self, families=names)
        # assume
        notation = self.notation(found or Notation(dim=default_dim))
        model = notation.model()
        parser = Parser(notation)
        hyps = list(self.hypotheses)
        if not rest:
            raise VerifyError("assume: expected hypotheses such as E(q_i)=0, q \\perp k",
                              where(body_at))
        for off, piece in _split_top(rest):
            try:
                for h in _hypotheses(piece, parser, model):
                    if h not in hyps:
                        # E(q_i)=0 then E(q_i)=1: both would "hold" — an input error, located
                        check_consistent((*hyps, h), model)
                        hyps.append(h)
            except ParseProblem as p:
                raise VerifyError(f"cannot read the declaration {quote('assume ' + piece, 60)}: "
                                  f"{p.message}",
                                  where(body_at + off + min(p.offset, len(piece)))) from None
            except InvalidModel as exc:
                raise VerifyError(f"the declaration {quote('assume ' + piece, 60)}: {exc}",
                                  where(body_at + off)) from None
        return replace(self, hypotheses=tuple(hyps))


def _family_component(x: Expr, model: Model, what: str) -> str:
    if isinstance(x, Indexed) and model.is_random_base(x.base) and len(x.indices) == 1:
        return str(x.base.label)
    raise ParseProblem(f"{what}: expected a component such as q_i inside", 0)


def _constant(x: Expr, model: Model) -> Expr:
    if is_random(x, model) or x.has(E, Var, Cov):
        raise ParseProblem("the right side must be a constant", 0)
    return x


def _sides(text: str, parser: Parser) -> tuple[Expr, str, Expr]:
    """``lhs REL rhs`` (one relation at the top level) parsed in the parser's notation."""
    try:
        toks = tokenize(text)
    except LexError as exc:
        raise ParseProblem(exc.message, exc.offset) from None
    rels = [n for n, t in enumerate(toks) if t.kind == "REL"]
    if len(rels) != 1:
        raise ParseProblem("expected one relation, as in E(q_i) = 0", 0)
    k = rels[0]
    return (parser.tokens_expression(toks[:k]), toks[k].value,
            parser.tokens_expression(toks[k + 1:]))


def hypotheses_of(lhs: Expr, rel: str, rhs: Expr, model: Model) -> list[Hypothesis]:
    """The hypotheses an equation about one component states: E(q_i) = c, Var(q_i) = c,
    Cov(q_i, k_i) = 0 (ParseProblem for anything else)."""
    if rel != "=":
        raise ParseProblem(f"relation {rel!r}: a hypothesis is an equation", 0)
    value = _constant(rhs, model)
    x = lhs
    if isinstance(x, E):
        return [MeanIs(_family_component(x.args[0], model, "E(…)"), value)]
    if isinstance(x, Var):
        return [VarianceIs(_family_component(x.args[0], model, "Var(…)"), value)]
    if isinstance(x, Cov) and value == 0:
        a = _family_component(x.args[0], model, "Cov(…)")
        b = _family_component(x.args[1], model, "Cov(…)")
        model.rho(a, b)  # InvalidModel when the pair is independent in the model anyway
        return [CorrelationIs(a, b, Integer(0))]
    raise ParseProblem("expected E(X_i) = c, Var(X_i) = c, Cov(q_i, k_i) = 0, "
                       "q \\perp k or q_i \\sim N(0, 1)", 0)


def _hypotheses(text: str, parser: Parser, model: Model) -> list[Hypothesis]:
    """The hypotheses one piece of an ``assume`` list states."""
    m = _PERP.match(text)
    if m:
        for n in m.groups():
            model.family(n)
        return [Independent(m.group(1), m.group(2))]
    m = _LAW.match(text)
    if m:
        fam, law = m.group(1), m.group(2).strip()
        model.family(fam)
        if law.lower() in ("normal", "uniform", "rademacher"):
            return [DistributedAs(fam, law.lower())]  # type: ignore[arg-type]
        n = _NORMAL.match(law)
        if not n:
            raise ParseProblem(f"unknown law {law!r}; expected N(μ, σ²), normal, uniform "
                               "or rademacher", 0)
        mean = _constant(parser.expression(n.group(1)), model)
        var = _constant(parser.expression(n.group(2)), model)
        return [DistributedAs(fam, "normal"), MeanIs(fam, mean), VarianceIs(fam, var)]
    lhs, rel, rhs = _sides(text, parser)
    return hypotheses_of(lhs, rel, rhs, model)
