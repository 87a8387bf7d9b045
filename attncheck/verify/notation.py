r"""What the note's letters mean, read off the whole note before any step is checked.

Notes name things their own way: the softmax output is p, a, s, σ or ŷ, its logits z, a,
x or θ, the label t or y, the loss L, 𝓛, J or C; the random vectors are q and k, or x
and y, or q_i^{(m)} with i numbering queries; the dimension is d, d_k or n.  This module
looks at every formula of the note once and returns a :class:`~attncheck.verify.parse.Notation`:

* a softmax definition (``p_i = \frac{e^{z_i}}{\sum_j e^{z_j}}``, ``\hat y = \mathrm{softmax}(z)``)
  renames its output to y and its logits to x — the conventions of derivations.softmax;
* a loss definition (``L = -\sum_k t_k \log p_k``, ``\mathcal L = -\log \hat y_c``) names the
  label (→ t) and the loss (→ L);
* the letters whose components appear inside E, Var, D, Cov (or in a dot product) are the
  random families; the upper limit of their sums is the dimension;
* letters applied to a parenthesis in a definition (``f(x) = …``) are functions.

>>> from attncheck.verify.lexer import tokenize
>>> from attncheck.verify.rows import split_rows
>>> rows = [split_rows(tokenize(t)) for t in (
...     r"p_i = \frac{e^{z_i}}{\sum_j e^{z_j}}", r"L = -\sum_k y_k \log p_k",
...     r"\mathrm{Var}(q\cdot k) = \sum_{i=1}^{d_k} \mathrm{Var}(q_i k_i)")]
>>> n = survey(rows)
>>> sorted(n.rename.items()), n.families, n.dim
([('L', 'L'), ('p', 'y'), ('y', 't'), ('z', 'x')], ('q', 'k'), 'd_k')
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import replace
from collections import Counter
from collections.abc import Iterator, Sequence
from itertools import pairwise
from typing import Any

from sympy import Expr, Rational

from attncheck.verify.lexer import BOLD, LexError, Tok, group_start, sum_limit_sup, tokenize
from attncheck.verify.parse import Notation, prepare
from attncheck.verify.rows import Row, lists_components

__all__ = ["LOSS_NAMES", "linear_layer", "prose_aliases", "prose_constants", "prose_jacobian",
           "survey"]

#: Letters notes use for a loss.
LOSS_NAMES = ("L", "calL", "J", "C", "ell", "H", "ℓ", "E", "Loss", "loss", "CE", "l")
#: Letters that are never a random family (operators, Euler's e, the dimension's d).
_NOT_FAMILIES = {"E", "D", "V", "e", "d", "i", "j", "n", "T", "N", "O", "P", "R"}
MAX_FAMILIES = 3
#: Letters that index components, never name a vector.
_INDICES = "ijkmnc"


def _letter(t: Tok) -> str | None:
    if t.kind == "LETTER":
        return t.value.replace(BOLD, "")
    if t.kind == "GREEK":
        return t.value.replace(BOLD, "")
    return None


def _name_of(toks: Sequence[Tok]) -> tuple[str, bool] | None:
    """``p_i``, ``\\hat y``, ``p``, ``\\mathbf{p}``: (the letter, has an index); else None."""
    toks = [t for t in toks if t.kind not in ("QUAD",)]
    if not toks:
        return None
    name = _letter(toks[0])
    if name is None:
        return None
    rest = toks[1:]
    if not rest:
        return name, False
    if rest[0].kind == "SUB" and (len(rest) == 2 or (rest[1].kind == "LBRACE" and
                                                      rest[-1].kind == "RBRACE")):
        return name, True
    if rest[0].kind == "LPAR" and rest[-1].kind == "RPAR":  # f(x)
        return name, False
    if rest[0].kind == "LPAR" and len(rest) >= 2 and rest[-2].kind == "SUB":  # s(x)_i
        return name, True
    if rest[0].kind == "LPAR" and len(rest) >= 5 and [t.kind for t in rest[-4:]] == \
            ["SUB", "LBRACE", "LETTER", "RBRACE"]:  # σ(𝐳)_{i}
        return name, True
    if rest[0].kind == "SUB" and len(rest) >= 4 and rest[2].kind == "LPAR" and \
            rest[-1].kind == "RPAR":  # σ_i(z): the i-th output, its argument named
        return name, True
    return None


def _own_variables(definitions: Sequence[tuple[Row, list[Any]]], rename: dict[str, str]
                   ) -> set[str]:
    """Letters x, y, t (softmax's own: scores, outputs, label) that the note defines entry by
    entry as something else — a function of another entry (x_1 = g_2(x_2)), not a value of
    a worked example (x_1 = 2) nor a softmax."""
    return {x for x in _chained(definitions) if x in ("x", "y", "t") and x not in rename
            and x not in rename.values()}


def _chained(definitions: Sequence[tuple[Row, list[Any]]]) -> set[str]:
    """Letters the note defines entry by entry through a function it names (x_1 = g_2(x_2)):
    intermediate variables of a chain rule, whatever the letter."""
    out: set[str] = set()
    for _, pieces in definitions:
        lhs = _name_of(pieces[0].toks) if pieces[0] is not None else None
        if lhs is not None and lhs[1] and any(_subscripted_call(p.toks) for p in pieces[1:]
                                              if p is not None):
            out.add(lhs[0])
    return out


def _subscripted_call(toks: Sequence[Tok]) -> str | None:
    """``g_1(x_1)``, ``g_{2}(x_2, x_3)``: the name g_1 of a function applied, else None."""
    t = [u for u in toks if u.kind not in ("LBRACE", "RBRACE")]
    if len(t) >= 5 and _letter(t[0]) and t[1].kind == "SUB" and \
            t[2].kind in ("NUMBER", "LETTER") and t[3].kind == "LPAR" and t[-1].kind == "RPAR" \
            and _letter(t[0]) not in ("E", "D", "σ", "sigma", "e", "delta"):
        return f"{_letter(t[0])}_{t[2].value}"
    return None


def _softmax_logits(toks: Sequence[Tok], named: bool = True) -> str | None:
    """The logits' letter when ``toks`` is a softmax: e^{z_i}/Σ_j e^{z_j}, softmax(z)(_i), σ(z)_i
    (with ``named`` False, only a softmax written out as a fraction)."""
    kinds = [t.kind for t in toks]
    for n, t in enumerate(toks):
        if named and t.kind == "WORD" and t.value.lower() == "softmax":
            after = list(toks[n + 1:])
            if after[:1] and after[0].kind == "SUB":  # softmax_j(S): j says along which axis
                after = after[2:] if len(after) > 1 and after[1].kind != "LBRACE" else \
                    after[next((m for m, u in enumerate(after) if u.kind == "RBRACE"), 0) + 1:]
            for u in after[:3]:
                if _letter(u) is not None:
                    return _letter(u)
    if "FRAC" in kinds or "SLASH" in kinds or "OVER" in kinds:
        # e ^ { z _ i } … SUM … e ^ { z _ j }, or \exp(z_i) … \exp(z_j)
        letters = []
        compound = 0  # exp(q_i·k_j/√d) … Σ_l exp(q_i·k_l/√d): scores that are no one letter
        for n, t in enumerate(toks):
            if t.kind == "LETTER" and t.value == "e" and n + 1 < len(toks) and \
                    toks[n + 1].kind == "SUP":
                # the exponent's letter: e^z or e^{z_i}, e^{-z_i} — not the e of "e^2 + e^1"
                at = next((m for m in range(n + 2, min(n + 5, len(toks))) if _letter(toks[m])),
                          None)
                if at is not None and (_letter(toks[at]) == "e" or at > n + 2 and any(
                        u.kind not in ("LBRACE", "MINUS") for u in toks[n + 2:at])):
                    at = None
                if at is not None and not _times_another(toks, at):
                    letters.append(_letter(toks[at]))
            if t.kind == "WORD" and t.value == "exp":
                at = next((m for m in range(n + 1, min(n + 4, len(toks))) if _letter(toks[m])),
                          None)
                # (exp(q_i · k_j/√d): the scores are q_i·k_j, no one letter's)
                if at is not None and _times_another(toks, at):
                    compound += 1
                elif at is not None:
                    letters.append(_letter(toks[at]))
        if len(letters) >= 2 and letters[0] == letters[-1] and "SUM" in kinds:
            return letters[0]
        if len(letters) >= 3 and len(set(letters)) == 1 and "PLUS" in kinds:
            # a_1 = e^{z_1}/(e^{z_1} + e^{z_2} + e^{z_3}): a worked example's softmax
            return letters[0]
        if len(letters) >= 2 and "SUM" in kinds and set(letters) <= set(_INDICES):
            return ""  # e^j/Σ_i e^i: a softmax whose scores the note leaves unnamed
        if compound >= 2 and not letters and "SUM" in kinds:
            return ""  # α_ij = exp(q_i·k_j/√d)/Σ_l exp(q_i·k_l/√d): a softmax of products
    return None


def _named_sums(definitions: Sequence[tuple[Row, list[Any]]]) -> dict[str, list[Tok]]:
    """``S = Σ_k e^{z_k}``, ``Z := Σ_j \\exp(z_j)``: the names a note gives softmax's
    denominator, with the tokens they stand for (a sum of exponentials, nothing divided)."""
    out: dict[str, list[Tok]] = {}
    for _, pieces in definitions:
        lhs = _name_of(pieces[0].toks) if pieces[0] is not None else None
        if lhs is None or lhs[1] or len(pieces) != 2 or pieces[1] is None:
            continue
        toks = [t for t in pieces[1].toks if t.kind != "QUAD"]
        kinds = {t.kind for t in toks}
        if toks and toks[0].kind == "SUM" and not kinds & {"FRAC", "SLASH", "OVER"} and \
                any((t.kind == "LETTER" and t.value == "e") or (t.kind == "WORD" and
                                                                t.value == "exp") for t in toks):
            out[lhs[0]] = toks
    return out


def _with_sums(toks: Sequence[Tok], sums: dict[str, list[Tok]]) -> list[Tok]:
    """``toks`` with each lone letter a named sum (:func:`_named_sums`) put back as its sum:
    p_i = e^{z_i}/S is a softmax once S = Σ_k e^{z_k} is."""
    out: list[Tok] = []
    for n, t in enumerate(toks):
        name = _letter(t)
        if name in sums and (n + 1 == len(toks) or toks[n + 1].kind not in ("SUB", "SUP")):
            out += [Tok("LPAR", "(", t.start, t.start), *sums[name], Tok("RPAR", ")", t.end, t.end)]
        else:
            out.append(t)
    return out


def _entry_by_own_index(lhs: Sequence[Tok], rhs: Sequence[Tok], logits: str) -> bool:
    """p_i … z_i: the left side's index letter is the index of the logits in the right side."""
    plain = [t for t in lhs if t.kind not in ("LBRACE", "RBRACE", "QUAD")]
    if len(plain) != 3 or plain[1].kind != "SUB" or plain[2].kind != "LETTER":
        return False
    at = plain[2].value
    body = [t for t in rhs if t.kind not in ("LBRACE", "RBRACE")]
    return any(_letter(a) == logits and b.kind == "SUB" and c.kind == "LETTER" and c.value == at
               for a, b, c in zip(body, body[1:], body[2:]))


def _times_another(toks: Sequence[Tok], at: int) -> bool:
    """Whether the letter at ``at`` (in an exponent) is transposed or multiplied by another
    letter: e^{w_k^T x} — the scores are w_kᵀx, no one letter's (w is weights, x the input)."""
    m = at + 1
    if m < len(toks) and toks[m].kind == "SUB":  # its index: _k or _{ik}
        m += 1
        if m < len(toks) and toks[m].kind == "LBRACE":
            while m < len(toks) and toks[m].kind != "RBRACE":
                m += 1
        m += 1
    # (a power or an upper label, z_2^{(j)}, is still that letter's)
    return m < len(toks) and toks[m].kind in ("TRANSPOSE", "LETTER", "GREEK", "CDOT")


def _loss_target(toks: Sequence[Tok], outputs: set[str] | None
                 ) -> tuple[bool, str | None]:
    """Whether ``toks`` is a cross-entropy in the softmax output, and the label's letter."""
    is_loss, target = False, None
    for n, t in enumerate(toks):
        if t.kind == "WORD" and t.value in ("log", "ln"):
            after = [u for u in toks[n + 1:n + 5] if _letter(u)]
            if after and (not outputs or _letter(after[0]) in outputs):
                is_loss = True
                # the label multiplies the log: the last letter before it that is not an
                # index or a superscript (T_k^{(i)} \ln P_k: T)
                m = n - 1
                while m >= max(0, n - 14):
                    u = toks[m]
                    if u.kind == "RBRACE":  # skip a {…} group and the _ or ^ before it
                        m = group_start(toks, m) - 1
                        if m >= 0 and toks[m].kind in ("SUB", "SUP"):
                            m -= 1
                        continue
                    if _letter(u) and not (m > 0 and toks[m - 1].kind in ("SUB", "SUP")):
                        if _letter(u) not in (outputs or set()) | {"e"}:
                            target = _letter(u)
                        break
                    m -= 1
    return is_loss, target


def _hatted_predictions(definitions: Sequence[tuple[Row, list[Any]]], output: str) -> set[str]:
    """ŷ in L = −Σ_i y_i log ŷ_i, where the note defined its softmax as σ(z)_i and never ŷ
    (or y in L = −Σ t_i log y_i beside y = σ(x)): the prediction is that softmax's output,
    under the name the loss gives it."""
    heads = [(n, pieces) for _, pieces in definitions
             for n in [_name_of(pieces[0].toks)] if n is not None]  # type: ignore[union-attr]
    defined = {n[0] for n, _ in heads}
    # y = σ(x): a name given to the output applied to the scores is the output
    applied = {n[0] for n, pieces in heads
               if len(pieces) == 2 and pieces[1] is not None and len(pieces[1].toks) >= 3
               and _letter(pieces[1].toks[0]) == output and pieces[1].toks[1].kind == "LPAR"}
    out: set[str] = set()
    for lhs, pieces in heads:
        if lhs[0] not in LOSS_NAMES:
            continue
        for p in pieces[1:]:
            toks = list(p.toks) if p is not None else []
            for n, t in enumerate(toks):
                if t.kind == "WORD" and t.value in ("log", "ln"):
                    after = [_letter(u) for u in toks[n + 1:n + 4] if _letter(u)]
                    if after and after[0] != output and (after[0] in applied or (
                            "\u0302" in unicodedata.normalize("NFD", after[0]) and
                            after[0] not in defined)):
                        out.add(after[0])
    return out


def _only_differentiated(rows: Sequence[Sequence[Row]]) -> set[str]:
    """Letters the note writes only as a derivative's variable, ∂o_i (never on their own)."""
    by: set[str] = set()
    elsewhere: set[str] = set()
    for toks in _every_piece(rows):
        kinds = [t for t in toks if t.kind != "LBRACE"]
        for n, t in enumerate(kinds):
            name = _letter(t)
            if name is None or len(name) != 1 or not name.islower():
                continue
            if n + 1 < len(kinds) and kinds[n + 1].kind == "SUB" and n >= 1 and \
                    kinds[n - 1].kind == "PARTIAL":
                by.add(name)
            elif not (n >= 1 and kinds[n - 1].kind == "SUB"):
                elsewhere.add(name)  # (an index letter is not the letter of a vector)
    return by - elsewhere


def _scores_differentiated_by(rows: Sequence[Sequence[Row]], scores: str) -> set[str]:
    """Letters the scores are differentiated by (∂z_i/∂w_i): the scores' own parameters,
    never another name for the scores."""
    out: set[str] = set()
    for toks in _every_piece(rows):
        marks = [n for n, t in enumerate(toks[:-1]) if t.kind == "PARTIAL"]
        for a, b in pairwise(marks):
            top = next((_letter(u) for u in toks[a + 1:a + 3] if _letter(u)), None)
            by = next((_letter(u) for u in toks[b + 1:b + 3] if _letter(u)), None)
            if top == scores and by is not None and by != scores:
                out.add(by)
    return out


def _labels_of(definitions: Sequence[tuple[Row, list[Any]]], prediction: str) -> set[str]:
    """The letters the note's losses multiply log(prediction) by (y in −Σ y_i log ŷ_i)."""
    return {t for _, pieces in definitions for p in pieces[1:] if p is not None
            for t in [_loss_target(p.toks, {prediction})[1]] if t is not None}


def survey(rows: Sequence[Sequence[Row]], default_dim: str | None = None,
           declared_families: tuple[str, ...] | None = None, declared_dim: str | None = None
           ) -> Notation:
    """The note's :class:`Notation` from the rows of all its math (see the module doc)."""
    rename: dict[str, str] = {}
    functions: set[str] = set()
    aliases: set[str] = set()
    output = logits = in_loss = None
    indexed = {_letter(t) for block in rows for r in block for p in r.pieces if p
               for t, nxt in zip(p.toks, p.toks[1:]) if nxt.kind == "SUB" and _letter(t)}
    definitions = [(r, [p for p in r.pieces]) for block in rows for r in block
                   if r.relations and r.pieces[0] is not None and r.relations[0].value in
                   ("=", ":=")]
    sums = _named_sums(definitions)
    for r, pieces in definitions:
        lhs = _name_of(pieces[0].toks)  # type: ignore[union-attr]
        if lhs is None:
            continue
        for p in pieces[1:]:
            if p is None:
                continue
            z = _softmax_logits(p.toks)
            if z is None and sums and lhs[0] not in sums:
                # p_i = e^{z_i}/S with S = Σ_k e^{z_k}: the i-th entry, by the same index (the
                # note's x_1 = e^{z_t}/sum in a chain of its own x's is a value, not the name)
                z = _softmax_logits(_with_sums(p.toks, sums))
                if z is not None and not _entry_by_own_index(pieces[0].toks, p.toks, z):
                    z = None
            if any(t.kind == "WORD" and t.value in ("log", "ln") for t in p.toks):
                # L_i = −log(e^{f_{y_i}}/Σ_j e^{f_j}): a loss of the softmax, not it — but f
                # is the scores all the same, where the note names no softmax output
                in_loss = in_loss or z
                z = None
            if z is not None and output is not None and lhs[0] not in (output, z) and lhs[1]:
                # a second softmax in the note's other letters (σ(A) first, then a_1 =
                # e^{z_1}/(e^{z_1} + e^{z_2} + e^{z_3}) in an example): the same output
                aliases.add(lhs[0])
            # Y = softmax(X) with capitals names whole matrices — unless the note also
            # writes P_k, a component of that letter
            if z is not None and output is None and lhs[0] != z and \
                    (lhs[1] or not lhs[0][:1].isupper() or lhs[0] in indexed):
                output, logits = lhs[0], z
                # ŷ_i = e^{z_i}/Σ_c e^{z_c} = p_i: p is another name of the same output
                last = pieces[-1]
                other = _name_of(last.toks) if last is not None and last is not p else None
                if other is not None and other[0] not in (output, logits):
                    aliases.add(other[0])
        if pieces[0] is not None and len(pieces[0].toks) > 1 and \
                pieces[0].toks[1].kind == "LPAR" and _letter(pieces[0].toks[0]) not in \
                ("E", "D", "σ", "sigma"):
            functions.add(lhs[0])
        for p in pieces[:-1]:  # L = g_1(x_1) = −log(x_1): g_1 is a function the note names
            called = _subscripted_call(p.toks) if p is not None else None
            if called is not None:
                functions.add(called)
    for name, z in _softmax_vectors(rows):  # [e^{z_1}/(…); …] = [a_1; a_2; a_3]
        if output is None:
            output, logits = name, z
        elif name not in (output, logits):
            aliases.add(name)
    if output is not None:
        # (not where the loss's label letter is itself a name of the output: y_1 = e^{z_1}/…
        # in an example, −Σ y_i log ŷ_i after it — two letters are never merged into one)
        aliases |= {h for h in _hatted_predictions(definitions, output)
                    if not _labels_of(definitions, h) & (aliases | {output})}
    target = loss = None
    outputs = {output} | aliases if output is not None else set()
    # y_i(z_i) = e^{z_i}/Σ_k e^{z_k}, σ_i(𝐳) = …: the softmax's own entries, not a function
    functions = {f for f in functions if f.split("_")[0] not in outputs}
    for r, pieces in definitions:
        lhs = _name_of(pieces[0].toks)  # type: ignore[union-attr]
        if lhs is None or lhs[0] == output:
            continue
        for p in pieces[1:]:
            if p is None:
                continue
            is_loss, t = _loss_target(p.toks, outputs)
            if is_loss and lhs[0] in LOSS_NAMES and loss is None:
                loss, target = lhs[0], t
    if target is None and outputs:  # −Σ y_i log p_i anywhere (argmin L_CE = …): y is the label
        for block in rows:
            for r in block:
                for p in r.pieces:
                    if p is not None and target is None:
                        target = _loss_target(p.toks, outputs)[1]
    if output is None:  # S(x_i) = e^{x_i}/Σ_j e^{x_j}: S is the softmax, written by entry
        for r, pieces in definitions:
            toks = [t for t in pieces[0].toks if t.kind not in ("LBRACE", "RBRACE")] \
                if pieces[0] is not None else []
            if len(toks) == 6 and _letter(toks[0]) and toks[1].kind == "LPAR" and \
                    _letter(toks[2]) and toks[3].kind == "SUB" and toks[5].kind == "RPAR" and \
                    len(pieces) == 2 and pieces[1] is not None and \
                    _softmax_logits(pieces[1].toks, named=False) == _letter(toks[2]):
                output, logits = _letter(toks[0]), _letter(toks[2])
                functions.discard(output)
                break
    if output is None:  # ∂S_i/∂a_j = ∂/∂a_j (e^{a_i}/Σ_k e^{a_k}): S is that softmax
        output, logits = _differentiated_softmax(rows, _chained(definitions)) or (None, None)
    # (ŷ = [ŷ_1, …, ŷ_C] only lists the letter's own entries: it says nothing of them)
    lone = _lone_jacobian(rows, {n[0] for _, pieces in definitions
                                 for n in [_name_of(pieces[0].toks)] if n is not None  # type: ignore[union-attr]
                                 and not _lists_itself(n[0], pieces)})
    if output is not None and lone is not None and (
            lone[0] in (output, *aliases) or lone[1] not in {logits} | _written_softmaxes(rows)):
        lone = None  # ∂α_i/∂e_j of the note's own softmax, or by other letters than its scores
    if output is None:
        if lone is not None and lone[1] in _written_softmaxes(rows):
            # softmax(z)_i = e^{z_i}/Σ_j e^{z_j} written as a function, then ∂p_i/∂z_j the
            # note's one Jacobian of one letter by those same scores: p is that softmax
            output, logits, lone = lone[0], lone[1], None
    if output is None and logits is None and in_loss and "x" not in _chained(definitions):
        logits = in_loss  # (not where the note's own x_1 = g(x_2) would take x's place)
    if output is None and _sigma_is_softmax(rows):
        output = "sigma"
        logits = _inside_sigma(rows)
        if logits is None and lone is not None and lone[0] == "sigma":
            logits, lone = lone[1], None  # ∂σ_i/∂z_j = σ_i(δ_ij − σ_j): σ's scores are z
    if output is None and logits is None:
        # ∂softmax(z_i)/∂z_j with no output letter named: softmax's argument is the scores
        logits = _softmax_argument(rows)
    more_logits: set[str] = set()
    if output is not None:  # e^{a_i}/Σ_k e^{a_k} anywhere: the scores, whatever the letter
        more_logits = _written_softmaxes(rows)
        if output == "sigma":
            more_logits |= _all_inside_sigma(rows)
        logits = logits or next(iter(sorted(more_logits)), None)
    if output is not None and output != "y":
        rename[output] = "y"
    elif output == "y" and logits not in (None, "x"):
        # y_i = e^{z_i}/Σ_k e^{z_k}: the note's y is the softmax's output by its own
        # definition — a whole vector beside its named scores, as a p would be
        rename["y"] = "y"
    for name in aliases:
        rename[name] = "y"
    # a letter the note also writes as an index (z_s) is not renamed as scores: its second
    # softmax (y_i = e^{s_i}/Σ_c e^{s_c}) is left unread rather than its indices misread
    as_indices = _index_letters(rows)
    for z in more_logits - {output, "x"} - set(aliases) - as_indices:
        rename.setdefault(z, "x")
    if output is not None and logits is not None:
        # p_j = e^{a_j}/Σ_k e^{a_k}, then ∂L/∂o_i with o written nowhere else: the scores,
        # under the name the derivative gives them
        for o in _only_differentiated(rows) - set(rename) - set(rename.values()) - {
                output, logits, "x", "y", "t"} - as_indices - _scores_differentiated_by(
                    rows, logits):
            rename[o] = "x"
    if logits and logits != "x" and logits not in as_indices:
        rename[logits] = "x"
        if logits.isupper() and logits.lower() in indexed and logits.lower() not in rename \
                and logits.lower() in _exponent_letters(rows):
            rename[logits.lower()] = "x"  # Y = [y_1, y_2, y_3], e^{y_1}: the vector, its entries
    if target is not None and target != "t" and (target in indexed or target not in as_indices):
        # (Σ_v π(v) log π(v): v, never written with an index of its own, numbers the classes)
        rename[target] = "t"
        low = target.lower()
        if target.isupper() and low in indexed and low not in rename and \
                low not in (output, logits) and low not in aliases:
            rename[low] = "t"  # L = −Σ Y_ik log P_ik, then y_c = 1: one sample's row of Y
    if loss is not None and (loss == "L" or not _sums_to(rows, "L")):
        # (C = −Σ_{j=1}^{L} Y_j ln S_j: the note's own L counts the classes — its loss C is
        # not renamed into that letter)
        rename[loss] = "L"
    if output is not None and "y" not in rename and output != "y" and target != "y" and \
            "y" in indexed:
        # a_j the softmax and y_j beside it: y is not the output that a becomes, and two
        # letters must never merge into one — the label, when the note names no other
        rename["y"] = "t" if target is None and "t" not in indexed else "υ"
    for letter in _own_variables(definitions, rename):
        # x_1 = g_2(x_2) = c_1/x_2: the note's x is a variable of its own, not softmax's scores
        rename[letter] = letter + "ʹ"
    softmax_letters = set(rename) | set(rename.values()) | ({output, logits} - {None})
    if any(t.kind in ("PARTIAL", "NABLA") or (t.kind == "WORD" and t.value.lower() in
                                              ("softmax", "log", "ln", "exp"))
           for block in rows for r in block for p in r.pieces if p for t in p.toks):
        softmax_letters |= {"x", "y", "t", "z", "p", "a", "s", "o"}
    families = declared_families or _families(rows, softmax_letters)
    if not declared_families and families == ("q", "k") and not {"q", "k"} & indexed and \
            "k" in as_indices and not any(_letter(t) in ("q", "Q", "K") for p in _every_piece(rows)
                                       for t in p):
        # E_{v∼π}[∂log π(v)/∂z_k] in a softmax note: its k is an index, and no q is written —
        # the lecture's pair is not in this note
        families = ()
    named = {n[0] for r, pieces in definitions for n in [_name_of(pieces[0].toks)]  # type: ignore[union-attr]
             if n is not None and not n[1]}
    # Q = (q_1, q_2, …, q_{d_k}) names the vector of q's components: Q is q, not a new name
    listed = {n[0] for r, pieces in definitions for n in [_name_of(pieces[0].toks)]  # type: ignore[union-attr]
              if n is not None and not n[1] and _lists_itself(n[0], pieces)}
    # (Σ_{k=1}^{K} p_k beside QKᵀ: K counts the classes there, and is no key vector)
    limits = {_limit_text(toks, sup + 1) for toks, sup in _limited_sums(rows)} - {None}
    capitals = _capital_vectors(rows, families, (named - listed) | set(functions) | set(rename)
                                | limits)
    rename.update(capitals)
    scalars = _scalars(rows, set(families) | named | set(functions) | set(capitals))
    for x in scalars:  # X in Var(X) is a random variable there, whatever softmax calls it
        rename.pop(x, None)
    dim = declared_dim or _dimension(rows, families) or default_dim or "d"
    if dim in families and not declared_families:
        # Σ_{i=1}^{k} p_i beside E(X): k counts the classes; the lecture's pair is not k here
        families = tuple(f for f in families if f != dim)
    # every pair may be dependent until the note says otherwise: independence is a hypothesis
    pairs = ((families[0], families[1]),) if len(families) >= 2 else ()
    pairs += tuple((a, b) for n, a in enumerate(scalars) for b in scalars[n + 1:])
    # m = max_k z_k, M = \max_j z_j: a shift the note names, a real number (never an index)
    heads = [(n, pieces) for _, pieces in definitions
             for n in [_name_of(pieces[0].toks)] if n is not None]  # type: ignore[union-attr]
    shifts = {n[0] for n, pieces in heads if not n[1] and len(n[0]) == 1 and any(
        t.kind == "WORD" and t.value in ("max", "min")
        for p in pieces[1:] if p is not None for t in p.toks)}
    losses = [n for n, _ in heads if n[0] in ("L", "calL") or rename.get(n[0]) == "L"]
    score_letters = {k for k, v in rename.items() if v == "x"} | (
        {"x"} if "x" not in rename else set())
    spread, square = _spread(rows, families, output)
    length = _length(rows, {k for k, v in rename.items() if v in ("x", "y", "t")} |
                     ({"x", "y", "t"} - set(rename)), families, dim)
    vectors, component_letters = _vector_indexed(rows, families)
    if "ell" not in rename and _ell_is_a_quantity(rows, families):
        rename["ell"] = "ell"
    return Notation(families=families, dim=dim, rename=rename, spread=spread, length=length,
                    spread_square=square,
                    functions=frozenset(functions - {"L"}), scalars=scalars,
                    dependent=pairs,
                    vectors=vectors, component_letters=component_letters,
                    indexed=frozenset((indexed | _in_products_of_vectors(rows))
                                      - set(families) - set(scalars) - set(capitals)
                                      - {"e", dim}),
                    matrices=_two_indexed(rows, families),
                    sample_loss=len({n[1] for n in losses}) == 2,
                    lone_jacobian=lone if output is not None or logits in (None, lone and lone[1])
                    else None,
                    constants=frozenset((shifts | (_shift_letters(rows, score_letters)
                                                   - as_indices - indexed - {"e", dim}))
                                        - set(families) - set(rename)),
                    softmax_in_conventions=output is not None and logits == "x" and
                    "x" not in rename and rename.get(output, output) == "y")


#: Words between two formulas that make them two names of one thing ("$a^{[L]}$，即 $\hat y$",
#: "$\hat{y}_i$ 对应输出 $a_i$", "$p$, i.e. $\hat y$").
_SAME = re.compile(r"即|也即|亦即|也就是|就是|对应|對應|\bi\.\s?e\.|\bthat is\b|\bnamely\b|"
                   r"\bcorresponds? to\b|\bstands? for\b|\bdenotes?\b", re.I)
#: Words after "softmax" that name its result: "对模型输出进行softmax计算，得到 $\hat y$".
_SOFTMAX_GIVES = re.compile(r"softmax[^.。;；!?！？]{0,40}?(?:得到|得出|记为|记作|gives|yields|produces|"
                            r"denoted(?: by)?|called)\s*$", re.I)
_INLINE = re.compile(r"\$([^$]{1,200})\$")
#: Words naming softmax's derivative: "softmax 的雅可比", "softmax 的输出对输入的雅可比",
#: "the Jacobian of the softmax", "derivative of softmax", "softmax 求导".
_SOFTMAX_JACOBIAN = re.compile(
    r"softmax\s*(?:函数)?\s*(?:的)?\s*(?:输出对输入的?\s*)?"
    r"(?:雅可比|雅克比|导数|偏导|梯度|求导|jacobian|derivative|gradient)|"
    r"(?:jacobian|derivative|gradient|partial derivatives?)\s+of\s+(?:the\s+)?softmax", re.I)


def _inline_name(tex: str) -> str | None:
    r"""The name an inline formula is, when it is one (ŷ, ŷ_i, a_i^{[L]}, \mathbf{p}); else None."""
    try:
        toks = [t for t in tokenize(tex) if t.kind not in ("QUAD", "SPACE")]
    except LexError:
        return None
    if not toks or _letter(toks[0]) is None or any(
            t.kind in ("REL", "PLUS", "MINUS", "FRAC", "SUM", "LPAR", "CDOT", "TIMES", "WORD",
                       "EXPECT", "PARTIAL", "COMMA") for t in toks):
        return None
    return _letter(toks[0])


def prose_aliases(texts: Sequence[str], notation: Notation) -> Notation:
    r"""Other names the note's words give softmax's output: a name set beside the output's
    as the same thing ("$a_i^{[L]}$，即 $\hat{y}$"), or the name of what softmax "gives"
    when no formula names it ("softmax … 得到 $\hat{y}$") — each only for a name that
    means nothing else in the note's formulas."""
    rename = dict(notation.rename)
    outputs = {k for k, v in rename.items() if v == "y"}
    taken = set(rename) | set(rename.values()) | set(notation.families) | \
        set(notation.scalars) | set(notation.functions) | {"x", "y", "t", "L", "e"}

    def free(name: str | None) -> bool:
        return name is not None and name not in taken and name not in _INDICES

    for text in texts:
        # a lone index ("第$i$个位置") is part of the words between two formulas
        found = [m for m in _INLINE.finditer(text) if m.group(1).strip() not in set(_INDICES)]
        names = [_inline_name(m.group(1)) for m in found]
        for (a, na), (b, nb) in pairwise(zip(found, names)):
            between = _INLINE.sub(lambda m: "" if m.group(1).strip() in set(_INDICES) else m.group(0),
                                  text[a.end():b.start()])
            if "$" in between or len(between) > 40 or not _SAME.search(between):
                continue
            for out, other in ((na, nb), (nb, na)):
                if out in outputs and free(other):
                    rename[other] = "y"  # type: ignore[index]
                    taken.add(other)  # type: ignore[arg-type]
        if not outputs:
            for m, name in zip(found, names):
                if free(name) and _SOFTMAX_GIVES.search(text[max(0, m.start() - 60):m.start()]):
                    rename[name] = "y"  # type: ignore[index]
                    outputs.add(name)  # type: ignore[arg-type]
                    taken.add(name)  # type: ignore[arg-type]
    lone = notation.lone_jacobian
    if lone and free(lone[0]) and (free(lone[1]) and not outputs or rename.get(lone[1]) == "x") \
            and any(_SOFTMAX_JACOBIAN.search(text) for text in texts):
        # "softmax 的雅可比矩阵：$$∂a_i/∂z_j = a_i(δ_ij − a_j)$$" with a, z named nowhere else;
        # "The Jacobian of softmax is ∂p_i/∂s_j = …" with s the note's scores: p its output
        rename[lone[0]], rename[lone[1]] = "y", "x"
    if rename == dict(notation.rename):
        return notation
    if "y" not in rename and "y" in notation.indexed:
        # ŷ the output and y_c beside it, whose meaning the formulas did not settle (a label
        # here, softmax's output there): two letters are never merged into one
        return notation
    return replace(notation, rename=rename)


#: Words that name a Jacobian matrix.
_JACOBIAN_WORD = re.compile(r"jacobian|雅可比|雅克比", re.I)
#: What a matrix of softmax's derivatives is written as: diag(·) or a matrix environment.
_MATRIX_START = ("diag", "Diag")


def _jacobian_key(toks: Sequence[Tok]) -> str | None:
    r"""``J``, ``\mathbf{J}``, ``J_\sigma``, ``J_{\text{softmax}}``: the piece's name for a
    Jacobian, as "J" or "J_<subscript>"; None for anything else."""
    toks = [t for t in toks if t.kind != "QUAD"]
    if not toks or toks[0].kind != "LETTER" or toks[0].value.replace(BOLD, "") != "J":
        return None
    rest = toks[1:]
    if not rest:
        return "J"
    if rest[0].kind != "SUB":
        return None
    inner = rest[1:]
    if len(inner) == 3 and inner[0].kind == "LBRACE" and inner[2].kind == "RBRACE":
        inner = inner[1:2]
    if len(inner) != 1 or inner[0].kind not in ("LETTER", "GREEK", "WORD"):
        return None
    return "J_" + inner[0].value.replace(BOLD, "")


def _writes_a_matrix(toks: Sequence[Tok], outputs: set[str]) -> bool:
    """diag(p) − p pᵀ, a matrix environment with the output's entries in it, or ∂𝐩/∂𝐳 (the
    whole output by the whole scores: no index on either)."""
    kinds = {(t.kind, t.value.replace(BOLD, "")) for t in toks}
    letters = {v for k, v in kinds if k in ("LETTER", "GREEK")}
    if not letters & outputs:
        return False
    if toks and toks[0].kind == "FRAC" and sum(t.kind == "PARTIAL" for t in toks) == 2 and \
            not any(t.kind == "SUB" for t in toks) and len(letters) == 2:
        return True
    return any(k == "WORD" and v in _MATRIX_START for k, v in kinds) or \
        any(k == "BEGIN" and v.endswith("matrix") for k, v in kinds)


def prose_jacobian(rows: Sequence[Sequence[Row]], texts: Sequence[str],
                   notation: Notation) -> Notation:
    r"""The name the note gives softmax's Jacobian: ``J_\sigma``, ``J_{\text{softmax}}`` (the
    subscript says whose), or a bare ``J`` where its words speak of a Jacobian — each only
    where a display sets it equal to diag(p) − p pᵀ or to a matrix of the output's entries
    (``J = diag(p) − ppᵀ`` is then a claim about ∂p/∂z, not a new name).  A J that is the
    note's loss, or that appears with other subscripts (J_f, J_g), is left alone."""
    outputs = {k for k, v in notation.rename.items() if v == "y"} | (
        {"y"} if "y" not in notation.rename and "y" in notation.indexed else set())
    if not outputs or notation.rename.get("J") or "J" in notation.functions:
        return notation
    said = any(_JACOBIAN_WORD.search(t) for t in texts)
    keys: set[str] = set()
    others: set[str] = set()
    for block in rows:
        for row in block:
            pieces = [p.toks if p is not None else () for p in row.pieces]
            for a, b in pairwise(pieces):
                key = _jacobian_key(a)
                if key is None:
                    continue
                sub = key[2:]
                whose = key == "J" and said or sub.lower() == "softmax" or sub in outputs
                if whose and _writes_a_matrix(b, outputs):
                    keys.add(key)
            for piece in pieces:
                key = _jacobian_key(piece) if piece else None
                if key is not None:
                    others.add(key)
    if len(keys) != 1:
        return notation
    key = next(iter(keys))
    if key == "J" and any(o.startswith("J_") and o[2:] not in outputs and
                          o[2:].lower() != "softmax" for o in others):
        return notation  # J_h = J_g J_f: the note's Jacobians are of other functions too
    return replace(notation, jacobian=key)


def _plain(toks: Sequence[Tok]) -> list[tuple[str, str]]:
    """(kind, value) of the tokens, bold dropped and spacing gone: the shapes matched below."""
    return [(t.kind, t.value.replace(BOLD, "")) for t in toks if t.kind not in ("QUAD", "SPACE")]


def _index_pair(p: list[tuple[str, str]], at: int) -> tuple[str, str, int] | None:
    """``_{kd}``, ``_{k,d}``, ``_{k d}`` at ``at`` (a SUB): the two index letters and the end."""
    if at + 1 >= len(p) or p[at][0] != "SUB" or p[at + 1][0] != "LBRACE":
        return None
    inner = []
    m = at + 2
    while m < len(p) and p[m][0] != "RBRACE":
        inner.append(p[m])
        m += 1
    letters = [v for k, v in inner if k == "LETTER"]
    if len(letters) != 2 or any(k not in ("LETTER", "COMMA") for k, _ in inner):
        return None
    return letters[0], letters[1], m + 1


def _one_index(p: list[tuple[str, str]], at: int) -> tuple[str, int] | None:
    """``_d`` or ``_{d}`` at ``at``: the index letter and the end."""
    if at + 1 < len(p) and p[at][0] == "SUB" and p[at + 1][0] == "LETTER":
        return p[at + 1][1], at + 2
    if at + 3 < len(p) and p[at][0] == "SUB" and p[at + 1][0] == "LBRACE" and \
            p[at + 2][0] == "LETTER" and p[at + 3][0] == "RBRACE":
        return p[at + 2][1], at + 4
    return None


def _bias(p: list[tuple[str, str]], at: int) -> str:
    """``+ b_k``, ``+ b``, ``+ w_b`` after the weighted sum: the bias's letter ("" if none)."""
    if at + 1 < len(p) and p[at][0] == "PLUS" and p[at + 1][0] == "LETTER" and \
            p[at + 1][1] != "e":
        return p[at + 1][1]
    return ""


def _layer_of(lhs: list[tuple[str, str]], rhs: list[tuple[str, str]]
              ) -> tuple[str, str, str, str, bool] | None:
    """(scores, weights, input, bias, input index first) when ``lhs = rhs`` defines a linear
    layer: z_k = Σ_d w_{kd} x_d + b_k (w_{dk}: the input's index first), z_k = w_kᵀx + b_k,
    z = Wx + b, z = Wᵀx."""
    if not lhs or lhs[0][0] != "LETTER":
        return None
    scores = lhs[0][1]
    out = _one_index(lhs, 1)
    if out is not None and out[1] == len(lhs):
        k = out[0]
        for n in range(len(rhs) - 2):  # Σ_d w_{kd} x_d
            if rhs[n][0] != "LETTER" or n + 1 >= len(rhs) or rhs[n + 1][0] != "SUB":
                continue
            pair = _index_pair(rhs, n + 1)
            if pair is None or k not in pair[:2] or pair[0] == pair[1] or \
                    not any(kind == "SUM" for kind, _ in rhs[:n]):
                continue
            a, b, end = pair
            if end >= len(rhs) or rhs[end][0] != "LETTER":
                continue
            inner = _one_index(rhs, end + 1)
            if inner is None or inner[0] != (b if a == k else a):
                continue
            return scores, rhs[n][1], rhs[end][1], _bias(rhs, inner[1]), a != k
        first = _one_index(rhs, 1) if len(rhs) >= 5 and rhs[0][0] == "LETTER" else None
        if first is not None:
            row, end = first
            if row == k and end + 1 < len(rhs) and rhs[end][0] in ("TRANSPOSE", "CDOT") and \
                    rhs[end + 1][0] == "LETTER" and (end + 2 == len(rhs) or
                                                     rhs[end + 2][0] == "PLUS"):
                return scores, rhs[0][1], rhs[end + 1][1], _bias(rhs, end + 2), False
        return None
    if len(lhs) == 1 and len(rhs) >= 2 and rhs[0][0] == "LETTER" and rhs[0][1].isupper():
        transposed = rhs[1][0] == "TRANSPOSE"
        at = 2 if transposed else 1
        if at < len(rhs) and rhs[at][0] == "LETTER" and rhs[at][1] != rhs[0][1] and \
                (at + 1 == len(rhs) or rhs[at + 1][0] == "PLUS"):
            return scores, rhs[0][1], rhs[at][1], _bias(rhs, at + 1), transposed
    return None


def linear_layer(rows: Sequence[Sequence[Row]], notation: Notation) -> Notation:
    r"""The note's scores as a linear layer of an input — ``z_k = \sum_d w_{kd} x_d + b_k``,
    ``z_k = w_k^T x + b_k``, ``z = Wx + b`` — where its scores are softmax's: the weights
    read as W (W_{kd}: class k, input entry d), the input as h, the bias as "bias", so that
    ∂L/∂w_{kd} and ∂L/∂b_k are derivatives through the scores (by the chain rule
    ∂L/∂W_{kd} = (∂L/∂z_k) h_d).  Only letters that mean nothing else in the note."""
    scores = {k for k, v in notation.rename.items() if v == "x"}
    if not scores or "x" in notation.families:
        return notation
    taken = set(notation.rename) | set(notation.families) | set(notation.functions) | {
        "e", "L", "t", "y"}
    found: set[tuple[str, str, str, bool]] = set()
    for block in rows:
        for row in block:
            if not row.relations or row.relations[0].value not in ("=", ":=") or \
                    row.pieces[0] is None or len(row.pieces) < 2 or row.pieces[1] is None:
                continue
            got = _layer_of(_plain(row.pieces[0].toks), _plain(row.pieces[1].toks))
            if got is not None and got[0] in scores:
                found.add(got[1:])
    if len(found) != 1:
        return notation
    weights, given, bias, in_first = next(iter(found))
    bias = "" if bias == weights else bias  # z_i = Σ_j w_{ij} x_j + w_b: a weight of its own
    if {weights, given, bias} & taken or len({weights, given, bias} - {""}) < 2 + bool(bias):
        return notation
    rename = dict(notation.rename)
    rename.update({weights: "W", given: "h"} | ({bias: "bias"} if bias else {}))
    return replace(notation, rename=rename, layer_in_first=in_first)


#: A letter the words call a constant: "by a constant $c$", "$C$ is any constant", "常数 $C$".
_CONSTANT = re.compile(
    r"(?:\bconstants?|常数|常量)(?:\s+(?:term|value|shift|offset))?\s*\$+\s*([A-Za-z])\s*\$+|"
    r"(?:\$+\s*([A-Za-z])\s*\$+|(?<![A-Za-z\\$])([A-Za-z])(?![A-Za-z$]))\s*"
    r"(?:is|be|为|是|表示)\s*(?:a |an |any |some |任意|一个|某个)?\s*"
    r"(?:real |scalar )?(?:constant|常数|常量)|"
    # "for any $c \in \mathbb{R}$", "对任意 $c\in\mathbb R$": a real number, said of every value
    r"(?:\bfor\s+(?:any|all|every|each)|任意|对任意|对于任意|对所有)\s*(?:real\s+|scalar\s+)?"
    r"\$+\s*([A-Za-z])\s*\\in\s*\\mathbb\s*\{?\s*R\s*\}?\s*\$|"
    # "for any scalar $c$", "for every real number $c$" (not "for any $i$": an index)
    r"\bfor\s+(?:any|all|every|each)\s+(?:real|scalar)\s+(?:numbers?\s+|values?\s+)?"
    r"\$+\s*([A-Za-z])\s*\$+", re.IGNORECASE)


def prose_constants(texts: Sequence[str], notation: Notation) -> Notation:
    """Letters the note's words call constants (softmax(x + c) = softmax(x) "for any constant
    $c$"): real numbers in its formulas — never a letter the formulas give another meaning."""
    taken = set(notation.rename) | set(notation.rename.values()) | set(notation.families) | \
        set(notation.functions) | {notation.dim, "e", "x", "y", "t", "L"}
    found = {next(g for g in m.groups() if g) for text in texts for m in _CONSTANT.finditer(text)}
    found -= taken
    if not found:
        return notation
    # Var(C X) = C² Var(X) "(C 为常数)": a letter read as random in Var(·) that the words call
    # a constant is one
    scalars = tuple(x for x in notation.scalars if x not in found)
    return replace(notation, constants=notation.constants | found, scalars=scalars,
                   dependent=tuple(p for p in notation.dependent if not set(p) & found))


def _two_indexed(rows: Sequence[Sequence[Row]], families: tuple[str, ...]) -> frozenset[str]:
    """Letters written with two index letters (A_{ic}, Y_{1k}) that are not random families."""
    out: set[str] = set()
    for block in rows:
        for row in block:
            for piece in row.pieces:
                toks = piece.toks if piece else ()
                for n, t in enumerate(toks[:-4]):
                    name = _letter(t)
                    if name is None or name in families or toks[n + 1].kind != "SUB" or \
                            toks[n + 2].kind != "LBRACE":
                        continue
                    inner = [u for u in toks[n + 3:n + 6]]
                    if len(inner) == 3 and inner[2].kind == "RBRACE" and \
                            inner[0].kind in ("LETTER", "NUMBER") and inner[1].kind == "LETTER" \
                            or len(inner) == 3 and inner[2].kind == "RBRACE" and \
                            inner[0].kind == "LETTER" and inner[1].kind == "NUMBER" and \
                            len(inner[1].value) == 1:
                        out.add(name)
    return frozenset(out)


def _vector_indexed(rows: Sequence[Sequence[Row]], families: tuple[str, ...]
                    ) -> tuple[frozenset[str], frozenset[str]]:
    """Families written q_i^{(m)} or q_{im}: there q_i is the i-th vector, m its component
    — the families, and the letters that number the components."""
    out: set[str] = set()
    letters: set[str] = set()
    for block in rows:
        for row in block:
            for piece in row.pieces:
                toks = piece.toks if piece else ()
                for n, t in enumerate(toks):
                    name = _letter(t)
                    if name not in families or n + 2 >= len(toks) or toks[n + 1].kind != "SUB":
                        continue
                    after = [u.kind for u in toks[n + 2:n + 8]]
                    if after[:1] == ["LETTER"] and after[1:4] == ["SUP", "LBRACE", "LPAR"]:
                        out.add(name)
                        if after[4:6] == ["LETTER", "RPAR"]:
                            letters.add(toks[n + 6].value)
                    if after[:4] == ["LBRACE", "LETTER", "LETTER", "RBRACE"]:
                        out.add(name)
                        letters.add(toks[n + 4].value)
                    if after[:5] == ["LBRACE", "LETTER", "COMMA", "LETTER", "RBRACE"]:
                        out.add(name)
                        letters.add(toks[n + 5].value)
    return frozenset(out), frozenset(letters)


def _matrix_entries(toks: Sequence[Tok]) -> list[list[Tok]] | None:
    """The entries of a piece that is one written-out matrix (bmatrix, pmatrix …)."""
    if len(toks) < 3 or toks[0].kind != "BEGIN" or toks[-1].kind != "END":
        return None
    entries: list[list[Tok]] = [[]]
    for t in toks[1:-1]:
        if t.kind in ("ROWSEP", "AMP"):
            entries.append([])
        elif t.kind in ("BEGIN", "END"):
            return None  # a matrix inside: not one vector
        else:
            entries[-1].append(t)
    return [e for e in entries if e]


def _softmax_vectors(rows: Sequence[Sequence[Row]]) -> list[tuple[str, str]]:
    """(output, logits) for each row that writes a softmax out as a vector and names its
    entries: ``[e^{z_1}/(e^{z_1}+e^{z_2}+e^{z_3}); …] = [a_1; a_2; a_3]``."""
    found = []
    for block in rows:
        for row in block:
            vectors = [_matrix_entries(p.toks) for p in row.pieces if p is not None]
            scores = {z for v in vectors if v for z in [_softmax_logits(v[0])] if z}
            for v in vectors:
                names = {n for e in v or () for n in [_name_of(e)] if n is not None and n[1]}
                if len(scores) == 1 and len(names) == 1 and len(v or ()) >= 2 and \
                        next(iter(names))[0] not in scores:  # [z_1; z_2; z_3] → …: the input
                    found.append((next(iter(names))[0], next(iter(scores))))
    return found


def _softmax_argument(rows: Sequence[Sequence[Row]]) -> str | None:
    """The one lower-case letter a note writes softmax of — ``softmax(z_i)``, ``softmax(z)``,
    ``\\mathrm{softmax}(\\mathbf z)_i`` — else None (``softmax(QK^T/√d)`` is of a matrix
    product and says nothing; two letters softmax is applied to: no guess)."""
    seen: set[str] = set()
    for toks in _every_piece(rows):
        t = [u for u in toks if u.kind not in ("LBRACE", "RBRACE")]
        for n, u in enumerate(t[:-2]):
            if not (u.kind == "WORD" and u.value.lower() == "softmax" and t[n + 1].kind == "LPAR"):
                continue
            z = _letter(t[n + 2])
            end = n + 5 if n + 4 < len(t) and t[n + 3].kind == "SUB" and \
                t[n + 4].kind == "LETTER" and t[n + 4].value in _INDICES else n + 3
            if z is None or end >= len(t) or t[end].kind != "RPAR":
                continue  # softmax of an expression (QK^T/√d_k): no letter's scores
            seen.add(z)
    letter = next(iter(seen)) if len(seen) == 1 else None
    return letter if letter and letter.islower() and letter not in _INDICES else None


def _every_piece(rows: Sequence[Sequence[Row]]) -> Iterator[Sequence[Tok]]:
    """The tokens of every readable piece of the note's math."""
    for block in rows:
        for row in block:
            for p in row.pieces:
                if p is not None:
                    yield p.toks


def _shift_letters(rows: Sequence[Sequence[Row]], scores: set[str]) -> set[str]:
    """Letters only ever added to the scores: c in softmax(z + c), e^{z_i − c}, x + c𝟏 — the
    shift softmax is invariant to, a real number (never an index: z_i + c adds a number)."""
    out: set[str] = set()
    for toks in _every_piece(rows):
        kinds = [t for t in toks if t.kind not in ("LBRACE", "RBRACE")]
        for n, t in enumerate(kinds[:-2]):
            if _letter(t) not in scores:
                continue
            m = n + 1
            if kinds[m].kind == "SUB" and m + 1 < len(kinds):
                m += 2  # z_i, z_{j}: one index letter or number
            if m + 1 >= len(kinds) or kinds[m].kind not in ("PLUS", "MINUS"):
                continue
            c = _letter(kinds[m + 1])
            after = kinds[m + 2].kind if m + 2 < len(kinds) else ""
            if c is not None and len(c) == 1 and c.isalpha() and c not in scores and \
                    after not in ("SUB", "LPAR", "SUP", "LETTER", "GREEK", "CDOT", "TIMES"):
                out.add(c)
    return out


def _index_letters(rows: Sequence[Sequence[Row]]) -> set[str]:
    """Letters written in a subscript anywhere (z_s, δ_{is}, y_{k}): indices."""
    out: set[str] = set()
    for toks in _every_piece(rows):
        for n, t in enumerate(toks[:-1]):
            if t.kind != "SUB" or (n and toks[n - 1].kind in ("NABLA", "PARTIAL")):
                continue  # (∇_z L, ∂_z L: by the vector z, not an index)
            if toks[n + 1].kind == "LETTER":
                out.add(toks[n + 1].value)
            elif toks[n + 1].kind == "LBRACE":
                inner = []
                for u in toks[n + 2:n + 6]:
                    if u.kind == "RBRACE":
                        break
                    inner.append(u)
                if inner and all(u.kind in ("LETTER", "COMMA") for u in inner):
                    out |= {u.value for u in inner if u.kind == "LETTER"}
    return out


def _exponent_letters(rows: Sequence[Sequence[Row]]) -> set[str]:
    """The letters written right after e^ anywhere (e^{y_1}, e^z): the notes' scores."""
    out: set[str] = set()
    for toks in _every_piece(rows):
        for n, t in enumerate(toks[:-2]):
            if t.kind == "LETTER" and t.value == "e" and toks[n + 1].kind == "SUP":
                nxt = next((u for u in toks[n + 2:n + 4] if _letter(u)), None)
                if nxt is not None:
                    out.add(_letter(nxt))  # type: ignore[arg-type]
    return out


def _differentiated_softmax(rows: Sequence[Sequence[Row]], defined: set[str]
                            ) -> tuple[str, str] | None:
    """(output, logits) when a row differentiates an indexed letter by a logit and writes out
    the softmax it differentiates in the same row — ``∂S_i/∂a_j = ∂(e^{a_i}/Σ_k e^{a_k})/∂a_j``
    says that S is the softmax of a, though the note never writes ``S_i = …``."""
    seen: Counter[tuple[str, str]] = Counter()
    for block in rows:
        for row in block:
            pieces = [p.toks for p in row.pieces if p is not None]
            logits = {z for toks in pieces for z in [_softmax_logits(toks, named=False)] if z}
            for toks in pieces:
                ds = [n for n, t in enumerate(toks[:-1]) if _is_d(t)]
                # ∂W_i/∂z_j: a numerator W with an index, then the variable of the next ∂
                for a, b in pairwise(ds):
                    w, z = _letter(toks[a + 1]), _letter(toks[b + 1])
                    if a + 2 < len(toks) and toks[a + 2].kind == "SUB" and z in logits and \
                            w is not None and w not in (z, "e") and w not in LOSS_NAMES and \
                            w not in defined:
                        seen[w, z] += 1  # type: ignore[index]
    return seen.most_common(1)[0][0] if seen else None


def _sums_to(rows: Sequence[Sequence[Row]], letter: str) -> bool:
    """Whether a sum of the note runs to ``letter`` (Σ_{j=1}^{L}: L counts its terms)."""
    return any(_limit_text(toks, sup + 1) == letter for toks, sup in _limited_sums(rows))


def _lists_itself(name: str, pieces: Sequence[Any]) -> bool:
    """Whether a definition's right side only lists the named letter's components."""
    return len(pieces) == 2 and pieces[1] is not None and \
        lists_components(pieces[1].toks, name.lower())


def _written_softmaxes(rows: Sequence[Sequence[Row]]) -> set[str]:
    """The scores of every softmax the note writes (e^{z_i}/Σ_j e^{z_j}, softmax(z)_i)."""
    return {z for toks in _every_piece(rows) for z in [_softmax_logits(toks)] if z}


def _ell_is_a_quantity(rows: Sequence[Sequence[Row]], families: Sequence[str]) -> bool:
    """``ℓ = qᵀk = Σ_i q_i k_i``: ℓ given a value in the random vectors — a quantity of the
    note's (the logit), not the index letter ℓ it is elsewhere."""
    for block in rows:
        for row in block:
            if not row.relations or row.relations[0].value not in ("=", ":=") or \
                    len(row.pieces) < 2 or row.pieces[0] is None or row.pieces[1] is None:
                continue
            left = [t for t in row.pieces[0].toks if t.kind != "QUAD"]
            if len(left) == 1 and left[0].kind == "GREEK" and left[0].value == "ell" and any(
                    _letter(t) in families for t in row.pieces[1].toks):
                return True
    return False


def _lone_jacobian(rows: Sequence[Sequence[Row]], named: set[str]) -> tuple[str, str] | None:
    """(a, z) when the note's one derivative of a letter's entries by another's is
    ``∂a_i/∂z_j`` and no formula says what a or z is — softmax's Jacobian, where the words
    say so (see :func:`prose_aliases`)."""
    seen: set[tuple[str, str]] = set()
    for toks in _every_piece(rows):
        ds = [n for n, t in enumerate(toks[:-2]) if _is_d(t)]
        for a, b in pairwise(ds):
            w, z = _letter(toks[a + 1]), _letter(toks[b + 1])
            over = (toks[b - 1].kind == "SLASH" and b == a + 4) or (
                a >= 2 and toks[a - 2].kind == "FRAC" and toks[b - 2].kind == "RBRACE")
            if w is None or z is None or not over or toks[a + 2].kind != "SUB" or \
                    toks[b + 2].kind != "SUB":
                continue  # (a numerator and its own denominator only)
            if w in LOSS_NAMES:
                continue  # ∂L/∂p_j: the loss's derivatives name no new letter
            if w == z or w in named or "e" in (w, z) or not (w.islower() and z.islower()):
                return None  # a letter defined (z_1 = 20 only gives z values), a capital
            seen.add((w, z))
    return next(iter(seen)) if len(seen) == 1 else None


def _is_d(t: Tok) -> bool:
    """∂, or δ written for ∂ (``\\frac{\\delta S_i}{\\delta a_j}``)."""
    return t.kind == "PARTIAL" or (t.kind == "GREEK" and t.value == "delta")


def _inside_sigma(rows: Sequence[Sequence[Row]]) -> str | None:
    """The letter σ is first applied to: σ(a)_i, σ(\\mathbf a)."""
    return next(iter(_all_inside_sigma(rows, first=True)), None)


def _all_inside_sigma(rows: Sequence[Sequence[Row]], first: bool = False) -> set[str]:
    out: list[str] = []
    for block in rows:
        for row in block:
            for p in row.pieces:
                toks = p.toks if p else ()
                for n, t in enumerate(toks[:-2]):
                    at = n + 1 if toks[n + 1].kind == "LPAR" else _indexed_call(toks, n)
                    # (σ_i(δ_ij − σ_j) is σ_i times a bracket; e in σ(e^2, …) Euler's)
                    if t.kind == "GREEK" and t.value == "sigma" and at is not None and \
                            at + 1 < len(toks) and _letter(toks[at + 1]) not in (None, "e",
                                                                                "delta"):
                        out.append(_letter(toks[at + 1]))  # type: ignore[arg-type]
                        if first:
                            return set(out)
    return set(out)


def _indexed_call(toks: Sequence[Tok], n: int) -> int | None:
    """Where the ( is in ``σ_i(z)``, ``σ_{2}(z)`` starting at toks[n]; else None."""
    if n + 3 >= len(toks) or toks[n + 1].kind != "SUB":
        return None
    m = n + 2
    if toks[m].kind == "LBRACE":
        if m + 2 >= len(toks) or toks[m + 2].kind != "RBRACE":
            return None
        m += 2
    ok = toks[n + 2 if toks[n + 2].kind != "LBRACE" else n + 3].kind in ("LETTER", "NUMBER")
    return m + 1 if ok and m + 1 < len(toks) and toks[m + 1].kind == "LPAR" else None


def _sigma_is_softmax(rows: Sequence[Sequence[Row]]) -> bool:
    """σ names softmax: σ(z)_i, [σ(z)]_i, σ_i = e^{z_i}/Σ…, or softmax(A) = σ(A)."""
    for block in rows:
        for row in block:
            words = {t.value.lower() for p in row.pieces if p for t in p.toks if t.kind == "WORD"}
            for p in row.pieces:
                toks = p.toks if p else ()
                for n, t in enumerate(toks):
                    if t.kind != "GREEK" or t.value != "sigma":
                        continue
                    if "softmax" in words or _indexed_call(toks, n) is not None:
                        return True  # σ_i(z): the i-th entry of a vector function of z
                    if n >= 1 and toks[n - 1].kind == "WORD" and toks[n - 1].value in \
                            ("log", "ln") and n + 1 < len(toks) and toks[n + 1].kind == "SUB":
                        return True  # −Σ y_i log σ_i: σ_i is a probability, σ the softmax
                    depth, m = 0, n + 1
                    while m < len(toks):  # σ( … )_i
                        depth += {"LPAR": 1, "RPAR": -1}.get(toks[m].kind, 0)
                        if depth <= 0:
                            break
                        m += 1
                    if m > n + 1 and m + 1 < len(toks) and toks[m + 1].kind == "SUB":
                        return True
                    if m + 2 < len(toks) and toks[m + 1].kind == "RSQB" and \
                            toks[m + 2].kind == "SUB":
                        return True
    return False


def _operator_walk(rows: Sequence[Sequence[Row]]
                   ) -> Iterator[tuple[Sequence[Tok], int, Tok, bool]]:
    """Every token of every readable piece, with its piece, its place, and whether it stands
    inside E(…), Var(…) or Cov(…) (the operator's own token included)."""
    for block in rows:
        for row in block:
            for piece in row.pieces:
                if piece is None:
                    continue
                try:
                    toks = prepare(piece.toks)
                except Exception:  # an unreadable piece says nothing about the letters
                    continue
                depth, inside = 0, []
                for n, t in enumerate(toks):
                    if t.kind == "EXPECT" or (t.kind == "WORD" and t.value in
                                              ("Var", "var", "Cov", "cov")):
                        inside.append(depth)
                    if t.kind in ("LPAR", "LSQB", "LBRACE"):
                        depth += 1
                    elif t.kind in ("RPAR", "RSQB", "RBRACE"):
                        depth -= 1
                        while inside and inside[-1] >= depth:
                            inside.pop()
                    yield toks, n, t, bool(inside)


def _families(rows: Sequence[Sequence[Row]], softmax: set[str]) -> tuple[str, ...]:
    """Letters whose components are inside E/Var/Cov, or that meet in a dot product."""
    counts: Counter[str] = Counter()
    order: list[str] = []
    capitals: list[str] = []
    any_moments = False

    def see(name: str | None) -> None:
        if name is not None:
            name = name.replace(BOLD, "")
        if name is None or name in _NOT_FAMILIES or name in softmax or len(name) != 1 or \
                not name.islower():
            return
        if name not in counts:
            order.append(name)
        counts[name] += 1

    for toks, n, t, inside in _operator_walk(rows):
        any_moments = any_moments or inside
        if inside and t.kind == "LETTER" and n + 1 < len(toks) and \
                toks[n + 1].kind in ("SUB", "TRANSPOSE", "CDOT", "SUP") and \
                not (n >= 1 and toks[n - 1].kind in ("SUB", "SUP")):  # (q_l^2: l the index)
            see(t.value)
        if inside and _capital_component(toks, n):
            # E[Q_i K_i]: the note's capital vectors Q, K are q, k; E(Σ_i Z_i) with z the
            # softmax's letter: Z is a random vector of its own
            low = t.value.lower()
            if low not in softmax and low not in _NOT_FAMILIES:
                see(low)
            elif t.value not in capitals:
                capitals.append(t.value)
        if t.kind in ("TRANSPOSE",) and n >= 1 and toks[n - 1].kind == "LETTER" and \
                n + 1 < len(toks) and toks[n + 1].kind == "LETTER":
            see(toks[n - 1].value)
            see(toks[n + 1].value)
        if t.kind == "CDOT" and 1 <= n < len(toks) - 1 and \
                toks[n - 1].kind == "LETTER" and toks[n + 1].kind == "LETTER" and \
                (n + 2 >= len(toks) or toks[n + 2].kind != "SUB") and \
                (n < 2 or toks[n - 2].kind not in ("SUB", "SUP")):  # (not e^c · e^{x_i})
            see(toks[n - 1].value)
            see(toks[n + 1].value)
    # capital vectors of their own (Z_i) come after the small letters: the first two
    # families are the pair that may be dependent
    if not counts:
        return tuple(capitals[:MAX_FAMILIES]) or (("q", "k") if any_moments else ())
    if set(counts) <= {"q", "k"}:
        # the lecture's pair, even where a note writes only one of them
        return ("q", "k") + tuple(capitals[:MAX_FAMILIES - 2])
    ranked = sorted(order, key=lambda c: -counts[c])[:MAX_FAMILIES]
    small = tuple(c for c in order if c in ranked)
    return small + tuple(capitals[:MAX_FAMILIES - len(small)])


def _capital_component(toks: Sequence[Tok], n: int) -> bool:
    """``Q_i``, ``K_{i}`` at toks[n]: a capital letter with one index letter (not a number:
    A_1 may be a worked example's entry, and E, D, V, P are operators or probabilities)."""
    t = toks[n]
    if t.kind != "LETTER" or len(t.value) != 1 or not t.value.isupper() or \
            t.value in _NOT_FAMILIES or n + 2 >= len(toks) or toks[n + 1].kind != "SUB":
        return False
    index = toks[n + 2:n + 5] if toks[n + 2].kind == "LBRACE" else toks[n + 2:n + 3]
    if index[:1] and index[0].kind == "LBRACE":
        index = index[1:]
        if len(index) < 2 or index[1].kind != "RBRACE":
            return False
    return bool(index) and index[0].kind == "LETTER" and index[0].value in "ijklmr"


def _capital_vectors(rows: Sequence[Sequence[Row]], families: tuple[str, ...],
                     taken: set[str]) -> dict[str, str]:
    """Capitals that name the random vectors, as attention notes often write them: Q and K
    with components Q_i inside E or Var, or Q·K (Q^T K) beside the components q_i, k_i of
    the families — each to its small letter.  A capital the note defines (S = Q·K) or whose
    small letter it uses for something else stays itself."""
    out: dict[str, str] = {}
    for toks, n, t, inside in _operator_walk(rows):
        if inside and _capital_component(toks, n) and t.value.lower() in families:
            out[t.value] = t.value.lower()
    for block in rows:
        for row in block:
            for piece in row.pieces:
                toks = [u for u in piece.toks if u.kind not in ("QUAD", "LBRACE", "RBRACE")] \
                    if piece else []
                for n in range(len(toks) - 2):
                    a, op, b = toks[n], toks[n + 1], toks[n + 2]
                    if op.kind == "LETTER" and b.kind == "TRANSPOSE":  # QK^T: rows, Q·K
                        a, op, b = toks[n], b, op
                    elif op.kind not in ("CDOT", "TRANSPOSE"):  # Q·K, Q^T K
                        continue
                    pair = [_letter(a), _letter(b)]
                    if all(x is not None and len(x) == 1 and x.isupper() and
                           x.lower() in families for x in pair) and \
                            (n + 3 >= len(toks) or toks[n + 3].kind != "SUB") and \
                            (n == 0 or toks[n - 1].kind != "SUB"):
                        out.update({x: x.lower() for x in pair if x is not None})
    return {c: f for c, f in out.items() if c not in taken}


def _spread(rows: Sequence[Sequence[Row]], families: tuple[str, ...], output: str | None
            ) -> tuple[str, Expr | None]:
    """σ when a note about random vectors writes σ², σ⁴ (q_i ~ N(0, σ²), Var(s) = dσ⁴):
    the standard deviation of the components — unless σ is the note's softmax or a function
    (σ(z)).  With it, the number the note gives for σ² (variance σ² = 1), if any."""
    if not families or output == "sigma":
        return "", None
    powered = False
    square: Expr | None = None
    for block in rows:
        for row in block:
            pieces = [p.toks if p else () for p in row.pieces]
            for toks in pieces:
                for n, t in enumerate(toks):
                    if t.kind != "GREEK" or t.value != "sigma":
                        continue
                    after = toks[n + 1].kind if n + 1 < len(toks) else ""
                    if after in ("LPAR", "SUB"):
                        return "", None  # σ(z), σ_i: a function or a vector, not a spread
                    powered = powered or after == "SUP"
            if len(pieces) == 2 and row.relations[0].value == "=" and square is None:
                value = _number(pieces[1])
                left = [(t.kind, t.value) for t in pieces[0] if t.kind not in ("LBRACE", "RBRACE")]
                if value is not None and left == [("GREEK", "sigma"), ("SUP", "^"), ("NUMBER", "2")]:
                    square = value
                elif value is not None and left == [("GREEK", "sigma")]:
                    square = value ** 2
    return ("sigma", square) if powered else ("", None)


def _number(toks: Sequence[Tok]) -> Expr | None:
    """A positive number written alone (1, 0.5), else None."""
    toks = [t for t in toks if t.kind not in ("QUAD", "LBRACE", "RBRACE")]
    if len(toks) != 1 or toks[0].kind != "NUMBER":
        return None
    value = Rational(toks[0].value)
    return value if value > 0 else None


def _scalars(rows: Sequence[Sequence[Row]], taken: set[str]) -> tuple[str, ...]:
    """Capital letters inside E/Var/D/Cov without an index (Var(X + Y), E[XY]): scalar random
    variables, as probability notes write them — a small letter there (Var(aX)) is a constant.
    Letters the note defines (X = q_i k_i) are their definitions, not new random variables."""
    order: list[str] = []
    vectors = _in_products_of_vectors(rows)
    for toks, n, t, inside in _operator_walk(rows):
        name = _letter(t)
        nxt = toks[n + 1].kind if n + 1 < len(toks) else ""
        if inside and t.kind == "LETTER" and name is not None and len(name) == 1 \
                and name.isupper() and name not in _NOT_FAMILIES \
                and name not in taken and nxt not in ("SUB", "LPAR", "PRIME") \
                and name not in vectors \
                and name not in order:
            order.append(name)
    return tuple(order[:MAX_FAMILIES])


def _in_products_of_vectors(rows: Sequence[Sequence[Row]]) -> set[str]:
    """Capitals in Q·K, QK^T, Q^T K anywhere in the note: matrices or vectors, not scalars."""
    out: set[str] = set()
    for block in rows:
        for row in block:
            for piece in row.pieces:
                toks = [t for t in piece.toks if t.kind != "QUAD"] if piece else []
                for n, t in enumerate(toks):
                    name = _letter(t)
                    if name is None or not name.isupper():
                        continue
                    after = [u.kind for u in toks[n + 1:n + 4]]
                    before = [u.kind for u in toks[max(n - 2, 0):n]]
                    # Q·K between two letters; X^2·Y^2 is a product of numbers, not vectors
                    dot_after = after[:2] == ["CDOT", "LETTER"] and after[2:3] != ["SUP"]
                    dot_before = before == ["LETTER", "CDOT"] and after[:1] != ["SUP"]
                    if dot_after or dot_before or after[:1] == ["TRANSPOSE"] or \
                            before[-1:] == ["TRANSPOSE"] or \
                            (after[:1] == ["LETTER"] and after[1:2] == ["TRANSPOSE"]):
                        out.add(name)
                        if after[:1] == ["LETTER"]:
                            out.add(_letter(toks[n + 1]) or "")
    return out


def _limited_sums(rows: Sequence[Sequence[Row]]) -> Iterator[tuple[Sequence[Tok], int]]:
    """Every \\sum written with an upper limit: its piece's tokens and where its ^ is."""
    for toks in _every_piece(rows):
        for n, t in enumerate(toks):
            if t.kind == "SUM":
                sup = sum_limit_sup(toks, n + 1)
                if sup is not None:
                    yield toks, sup


def _dimension(rows: Sequence[Sequence[Row]], families: tuple[str, ...]) -> str | None:
    """The upper limit of the sums over the families' components (d, d_k, n)."""
    found: Counter[str] = Counter()
    for toks, sup in _limited_sums(rows):
        # (the letters written as bases: in Σ_{k=1}^{K} ∂L/∂p_k, k is p's index, not the key)
        body = [u.value for m, u in enumerate(toks[sup + 1:sup + 12], sup + 1)
                if u.kind == "LETTER" and toks[m - 1].kind not in ("SUB", "SUP")]
        lim = _limit_text(toks, sup + 1)
        if lim and any(f in body for f in families):
            found[lim] += 1
    if not found:
        return None
    return found.most_common(1)[0][0]


def _length(rows: Sequence[Sequence[Row]], softmax: set[str], families: tuple[str, ...],
            dim: str) -> str:
    """The number of classes the note's softmax sums run to, when every sum of the scores,
    outputs or labels that writes its upper limit writes the same one (Σ_{j=1}^{K}, or
    Σ_{j=1}^{10} at least twice): a sum without limits (Σ_{j≠i}) runs there too.  Else n."""
    found: Counter[str] = Counter()
    for toks, sup in _limited_sums(rows):
        body = {_letter(u) for u in toks[sup + 1:sup + 14]}
        if not body & softmax or body & set(families):
            continue
        lim = _limit_text(toks, sup + 1)
        if lim is None:
            lim = _counted_from_zero(toks, sup)  # Σ_{j=0}^{K-1}: K of them
        if lim is None:  # ^{10}, ^10
            digits = [u for u in toks[sup + 1:sup + 4] if u.kind not in ("LBRACE", "RBRACE")][:1]
            if digits and digits[0].kind == "NUMBER" and (
                    toks[sup + 1].kind == "NUMBER" or
                    [u.kind for u in toks[sup + 2:sup + 4]] == ["NUMBER", "RBRACE"]):
                lim = digits[0].value
        if lim is None:
            return "n"  # a limit written otherwise (n−1, 2K): not one length
        found[lim] += 1
    if len(found) != 1:
        return "n"
    (lim, count), = found.items()
    if lim == dim or (lim.isdigit() and (count < 2 or int(lim) < 2)):
        return "n"
    return lim


def _counted_from_zero(toks: Sequence[Tok], sup: int) -> str | None:
    """Σ_{j=0}^{K-1} (the ^ at ``sup``): K, the number of entries a sum from 0 runs over;
    else None (the parser reads such a sum as Σ_{j=1}^{K}, see parse._sum)."""
    top = [t for t in toks[sup + 1:sup + 7] if t.kind not in ("LBRACE", "RBRACE")]
    at = max((n for n in range(sup) if toks[n].kind == "SUM"), default=None)
    if at is None or len(top) < 3 or top[0].kind != "LETTER" or top[1].kind != "MINUS" or \
            top[2].kind != "NUMBER" or top[2].value != "1":
        return None
    below = [t.kind for t in toks[at + 1:sup]]
    zero = any(t.kind == "NUMBER" and t.value == "0" for t in toks[at + 1:sup]) and "REL" in below
    return _letter(top[0]) if zero else None


def _limit_text(toks: Sequence[Tok], at: int) -> str | None:
    """``d``, ``d_k``, ``d_{k}``, ``n`` as the text of a superscript starting at toks[at]."""
    seq = toks[at:at + 6]
    if not seq:
        return None
    if seq[0].kind == "LBRACE":
        inner = []
        for t in seq[1:]:
            if t.kind == "RBRACE":
                break
            inner.append(t)
        seq = inner
    else:
        seq = seq[:3] if len(seq) >= 3 and seq[1].kind == "SUB" else seq[:1]
    text = "".join(t.value if t.kind != "SUB" else "_" for t in seq
                   if t.kind in ("LETTER", "SUB", "NUMBER", "LBRACE", "RBRACE"))
    text = re.sub(r"[{}]", "", text)
    return text if re.fullmatch(r"[a-zA-Z](_[a-zA-Z0-9])?", text) else None
