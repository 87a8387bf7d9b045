"""Assumptions a note states in words: "各分量独立同分布，均值为0，方差为1", "standard normal".

Lecture notes rarely write ``E(q_i) = 0`` as a formula before using it; they say it in a
sentence.  This module reads those sentences, in Chinese and English, and returns the
hypotheses they state, each with the phrase it was read from — the report shows them
as "read from the text: …" so the author sees what was understood.  Only what is said
about the random vectors' components is read; a sentence is never evaluated.

>>> [(str(f.hypothesis), f.phrase) for f in read_assumptions(
...     "假设 q 和 k 的各分量独立同分布，均值为0，方差为1。", ("q", "k"))]  # doctest: +NORMALIZE_WHITESPACE
[('q ⟂ k', '独立同分布'), ('E(q_i) = 0', '均值为0'), ('E(k_i) = 0', '均值为0'),
 ('Var(q_i) = 1', '方差为1'), ('Var(k_i) = 1', '方差为1')]
>>> [str(f.hypothesis) for f in read_assumptions("components are i.i.d. standard normal", ("q", "k"))]
['q ⟂ k', 'q_i ~ normal', 'k_i ~ normal', 'E(q_i) = 0', 'E(k_i) = 0', 'Var(q_i) = 1', 'Var(k_i) = 1']
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from sympy import Integer

from derivations import DistributedAs, Hypothesis, Independent, MeanIs, VarianceIs

__all__ = ["INDEPENDENT_WORDS", "Found", "independence_of_others", "read_assumptions"]


@dataclass(frozen=True)
class Found:
    """A hypothesis read from a sentence: the phrase that states it and where it starts."""

    hypothesis: Hypothesis
    phrase: str
    offset: int


_NUM0 = r"(?:0|零|zero|0\s*\.?)"
_NUM1 = r"(?:1|一|one|unit)"
_SEP = r"[\s:：=为是都均皆了的\$\{\}\\,，]*"

INDEPENDENT_WORDS = _INDEPENDENT = re.compile(
    r"独立同分布|獨立同分佈|獨立同分布|相互独立|相互獨立|彼此独立|彼此獨立|互相独立|互相獨立|是独立的|是獨立的|独立的|獨立的|独立|獨立|i\.\s?i\.\s?d\.?|\biid\b|"
    r"\bindependent(?:ly)?\b|\bindependence\b|不相关|不相關|\buncorrelated\b", re.I)
_MEAN0 = re.compile(
    rf"(?:均值|期望|平均值|平均數|数学期望|數學期望|\bmeans?\b|\bexpectations?\b|\bexpected values?\b)"
    rf"(?:\s*(?:of|为|為|是|都|均|皆|等于|等於|equals?|is|are|being|=|:|：|\$|\\|mu|μ|\{{|\}}|\s))*"
    rf"\s*{_NUM0}(?![\d.]*[1-9])"
    rf"|零均值|0\s*均值|\bzero[- ]mean\b|\bmean[- ]zero\b|\bcentered\b|\bcentred\b|中心化",
    re.I)
_VAR1 = re.compile(
    rf"(?:方差|變異數|变异数|\bvariances?\b)"
    rf"(?:\s*(?:of|为|為|是|都|均|皆|等于|等於|equals?|is|are|being|=|:|：|\$|\\|sigma|σ|\^|2|\{{|\}}|\s))*"
    rf"\s*{_NUM1}(?![\d.]*\d)"
    r"|单位方差|\bunit[- ]variance\b",
    re.I)
_STD_NORMAL = re.compile(
    r"标准(?:多元|多维)?正态|標準(?:多元|多維)?正態|標準常態|标准高斯|標準高斯|"
    r"\b(?:standard|unit)[- ](?:multivariate |multi-variate )?(?:normal|gaussian)\b|N\s*\(\s*0\s*,\s*1\s*\)|"
    r"\\mathcal\s*\{?\s*N\s*\}?\s*\(\s*0\s*,\s*1\s*\)|"
    # N(0, I_{d_k}), \mathcal{N}(\mathbf{0}, \mathbf{I}): mean 0, identity covariance
    r"(?:\\mathcal\s*\{?\s*N\s*\}?|\bN)\s*\(\s*(?:\\(?:mathbf|boldsymbol|vec)\s*\{?\s*)?0\s*\}?\s*,"
    r"\s*(?:\\(?:mathbf|boldsymbol|mathrm|mathbb)\s*\{?\s*)?I\s*\}?\s*(?:_\s*\{?[\w\\ ]{1,8}\}?)?\s*\)",
    re.I)
_NORMAL = re.compile(r"正态分布|高斯分布|\bnormal(?:ly)? distribut|\bgaussian\b|\\mathcal\s*\{?\s*N", re.I)
_NEGATED = re.compile(r"不独立|不獨立|不是独立|不是獨立|not independent|dependent on|非独立|不一定独立|"
                      r"not (?:necessarily )?(?:zero|0)|不为0|不为零|非零", re.I)


#: Words that make a sentence a conclusion ("因此点积的均值为0"), not an assumption.
_CONCLUSION = re.compile(r"因此|所以|于是|於是|故而|可得|得到|可知|可以看到|结果|結果|这样|這樣|从而|從而|"
                         r"\b(?:thus|hence|therefore|so that|it follows|we get|we obtain|"
                         r"this gives|which gives|as a result|consequently)\b", re.I)
#: Words that say what a sentence is about: the vectors' components, or an assumption.
_ABOUT = re.compile(r"分量|元素|随机变量|隨機變數|隨機變量|向量|维|維|假设|假設|假定|设|設|若|如果|服从|服從|"
                    r"\b(?:components?|entries|entry|elements?|coordinates?|random variables?|"
                    r"vectors?|assum\w*|suppose|let|given|if|where|drawn|sampled|distributed|"
                    r"initiali[sz]\w*)\b|\b[qk](?:_\w+)?\b|\bquer(?:y|ies)\b|\bkeys?\b|"
                    # "From independence $$E[XW] = E[X]E[W]$$": the reason the note gives is
                    # its assumption (a sentence with no subject but the step that follows)
                    r"\b(?:from|by|using|because of|due to)\s+(?:the\s+)?independence\b|"
                    r"由于?独立性?|由於?獨立性?|根据独立性|根據獨立性|利用独立性|利用獨立性", re.I)


#: A remark in parentheses: "（因为 qkv 是 layer norm 后得到的）" explains, it does not conclude.
#: "if …, then …": the "then" (after a supposition) that starts a consequence.
_THEN = re.compile(r"(?:如果|若|假如|倘若|\b(?:if|when)\b)[^。；;]*?(?P<then>[，,]\s*(?:则|那么|就有|便有)|"
                   r"\bthen\b)", re.I)
_ASIDE = re.compile(r"（[^（）]*）|\([^()]*\)")


def read_assumptions(text: str, families: tuple[str, ...], scalars: tuple[str, ...] = (),
                     *, context: bool = False, scalars_are_components: bool = True
                     ) -> list[Found]:
    """The hypotheses ``text`` states about the components of ``families`` and the scalar
    random variables ``scalars`` (see the module doc).

    A sentence that denies (不独立, "not independent", 均值不为0) states nothing here.
    ``context``: the text before was about the components, so a sentence without a
    subject ("均值为 0" as the next item of a list) is about them too.

    >>> [str(f.hypothesis) for f in read_assumptions(
    ...     "X, Y are two independent random variables. E[X] = 0, Var(Y) = 1.", (), ("X", "Y"))]
    ['X ⟂ Y', 'E(X) = 0', 'Var(Y) = 1']
    """
    out: list[Found] = []
    for sentence, at in _sentences(text):
        if _NEGATED.search(sentence) or _CONCLUSION.search(_ASIDE.sub("", sentence)):
            continue
        then = _THEN.search(sentence)
        if then:
            # "如果 $X \sim N(\mu, \sigma^2)$，则 $Z = … \sim N(0, 1)$": what follows "then" is
            # the consequence, about another quantity — no assumption of the note's
            sentence = sentence[:then.start("then")]
        if scalars:
            out += _scalar_facts(sentence, at, scalars, scalars_are_components)
        if not (_ABOUT.search(sentence) or context):
            continue
        out += _one(sentence, at, families)
    seen: set[Hypothesis] = set()
    unique = []
    for f in out:
        if f.hypothesis not in seen:
            seen.add(f.hypothesis)
            unique.append(f)
    return unique


_MOMENT_OF = re.compile(r"(?P<op>\\mathbb\s*\{?\s*E\s*\}?|E|Var|\\operatorname\s*\{Var\}|"
                        r"\\mathrm\s*\{Var\}|\\text\s*\{Var\}|D)\s*(?:\\left)?\s*[\[(]\s*"
                        r"(?P<x>[A-Z])\s*(?:\\right)?\s*[\])]\s*=\s*(?P<v>\d+)(?!\.?\d)")


_RANDOM_VARIABLES = re.compile(r"随机变量|\brandom variables?\b", re.I)
#: Words that put a sentence about both of the two scalars it names ("当二者期望都为0时").
_BOTH = re.compile(r"二者|两者|兩者|\bboth\b", re.I)
#: Words that put a sentence about the vectors' components (not the note's scalars X, Y).
_OF_THE_VECTORS = re.compile(r"\b(?:quer(?:y|ies)|keys?|components?|elements?|entries|vectors?)\b|"
                             r"元素|分量|向量|查询|键", re.I)


#: Words that make the formula after them a case, not a fact: "If $Var(X) = 0$, …".
_IF_BEFORE = re.compile(r"(?:\b(?:if|when|whenever|suppose)|如果|若|假如|当)\s*\$*\s*$", re.I)


def _scalar_facts(sentence: str, at: int, scalars: tuple[str, ...],
                  are_components: bool = True) -> list[Found]:
    """What a sentence says of scalar random variables X, Y: "X and Y are independent",
    "E[X] = 0", "Var(Y) = 1" written in the prose (notes state them so before using them)."""
    out: list[Found] = []
    named = [x for x in scalars if re.search(rf"(?<![A-Za-z\\]){x}(?![A-Za-z])", sentence)]
    m = _INDEPENDENT.search(sentence)
    about_both = len(named) == 2 and bool(_RANDOM_VARIABLES.search(sentence) or
                                          _BOTH.search(sentence))
    if not named and len(scalars) == 2 and _RANDOM_VARIABLES.search(sentence) and \
            (are_components or not _OF_THE_VECTORS.search(sentence)):
        # "independent random variables with mean 0, variance 1": the note's two, X and Y
        # (not "Query 和 Key 的每个元素都是…的独立随机变量" where the formulas write q_i k_i:
        # that is about the vectors' components, and X, Y are a lemma's own)
        named, about_both = list(scalars), True
    if about_both:
        # also "两个独立随机变量…的方差(当二者期望都为0时): $var[XY] = …$": the two it names
        for pattern, make in ((_MEAN0, MeanIs), (_VAR1, VarianceIs)):
            w = pattern.search(sentence)
            if w:
                out += [Found(make(x, Integer(int(pattern is _VAR1)), scalar=True),
                              w.group(0).strip(), at + w.start()) for x in named]
    if m and len(named) >= 2:
        out.append(Found(Independent(named[0], named[1]), m.group(0).strip(), at + m.start()))
    for m in _MOMENT_OF.finditer(sentence):
        x, value = m.group("x"), Integer(m.group("v"))
        if x not in scalars:
            continue
        mean = m.group("op").rstrip("}").rstrip().endswith("E")
        if (not mean and value <= 0) or _IF_BEFORE.search(sentence[:m.start()]):
            continue  # "If $Var(X) = 0$, all values are equal": a case, not an assumption
        h: Hypothesis = MeanIs(x, value, scalar=True) if mean else \
            VarianceIs(x, value, scalar=True)
        out.append(Found(h, m.group(0).strip(), at + m.start()))
    return out


def _sentences(text: str) -> list[tuple[str, int]]:
    out, pos = [], 0
    for part in re.split(r"(?<=[。；;！？!?])|(?<=\.)\s+(?=[A-Z])|\n\s*\n", text):
        if part is None:
            continue
        at = text.find(part, pos)
        out.append((part, max(at, 0)))
        pos = max(at, 0) + len(part)
    return out


def independence_of_others(text: str, families: tuple[str, ...]) -> bool:
    r"""Whether every sentence of ``text`` (prose with its $…$ math) that says "independent"
    names, in the math of that clause, letters none of which is a family's ("we assume $A$
    and $V$ are independent": the attention weights and the values, not q and k).

    >>> independence_of_others("Since we assume $A$ and $V$ are independent, "
    ...                        "$E(A_{ij} V_{jk}) = 0$.", ("q", "k"))
    True
    >>> independence_of_others(r"For independent $q_i, k_i \sim N(0,1)$:", ("q", "k"))
    False
    >>> independence_of_others("The components are independent.", ("q", "k"))
    False
    """
    said = False
    for sentence, _ in _sentences(text):
        maths = re.findall(r"\$+[^$]*\$+", sentence)
        held = re.sub(r"\$+[^$]*\$+", "\0", sentence)  # (a comma inside the math splits nothing)
        spans = iter(maths)
        for part in re.split(r"[,，;；:：]", held):
            mine = [next(spans) for _ in range(part.count("\0"))]
            if not _INDEPENDENT.search(part):
                continue
            letters = set(re.findall(r"(?<![A-Za-z\\])([A-Za-z])(?![A-Za-z])", " ".join(mine)))
            named = letters - set("ijlmnd")  # indices and the dimension name nothing
            if not named or named & ({f for f in families} | {f.upper() for f in families}):
                return False
            said = True
    return said


#: "X = q_i, Y = k_i": a capital the sentence names a component by.
_COMPONENT_NAME = re.compile(r"(?<![A-Za-z\\])([A-Z])\s*=\s*([a-z])_\{?[a-z]\}?(?![A-Za-z])")
#: "E(X) = E(Y) = 0", "D(X) = D(Y) = 1": one moment of several letters, then its value.
_MOMENT_CHAIN = re.compile(r"(?P<op>E|D|Var)\s*[(\[]\s*[A-Z]\s*[)\]](?:\s*=\s*(?P=op)\s*[(\[]\s*"
                           r"[A-Z]\s*[)\]])*\s*=\s*(?P<v>[01])(?!\.?\d)")


def _named_components(sentence: str, families: tuple[str, ...]
                      ) -> list[tuple[Hypothesis, re.Match[str]]]:
    """``X = q_i, Y = k_i … E(X) = E(Y) = 0, D(X) = D(Y) = 1`` in one sentence: the moments
    of the components the capitals name (words in plain text, no $ around them)."""
    named = {m.group(1): m.group(2) for m in _COMPONENT_NAME.finditer(sentence)
             if m.group(2) in families}
    out: list[tuple[Hypothesis, re.Match[str]]] = []
    for m in _MOMENT_CHAIN.finditer(sentence) if named else ():
        letters = re.findall(r"[(\[]\s*([A-Z])\s*[)\]]", m.group(0))
        for x in letters:
            if x in named:
                value = Integer(int(m.group("v")))
                if m.group("op") != "E" and value <= 0:
                    continue  # D(X) = 0 is no variance a note assumes of its components
                h: Hypothesis = MeanIs(named[x], value) if m.group("op") == "E" else \
                    VarianceIs(named[x], value)
                out.append((h, m))
    return out


#: A single letter in a sentence (not part of a word or a macro's name).
_MATH_LETTER = re.compile(r"(?<![\\A-Za-z])[A-Za-z](?![A-Za-z])")


def _about_another(sentence: str, families: tuple[str, ...]) -> bool:
    """The sentence's math names a capital letter of its own and no family's ("验证标准化后的
    随机变量 $Z$ 的期望为 0"): its moments are that variable's, not the components'."""
    # (the math comes with its dollars or without them; "A" and "I" may be English words)
    letters = {m.group(0) for m in _MATH_LETTER.finditer(sentence)} - {"A", "I", "a"}
    fams = {f.lower() for f in families}
    return bool(letters) and not {c.lower() for c in letters} & fams and \
        any(c.isupper() for c in letters)


def _one(sentence: str, at: int, families: tuple[str, ...]) -> list[Found]:
    out: list[Found] = []
    if _about_another(sentence, families):
        return out

    def add(h: Hypothesis, m: re.Match[str]) -> None:
        out.append(Found(h, m.group(0).strip(), at + m.start()))

    for h, m in _named_components(sentence, families):
        add(h, m)

    m = _INDEPENDENT.search(sentence)
    if m and len(families) >= 2:
        add(Independent(families[0], families[1]), m)
    m = _STD_NORMAL.search(sentence)
    if m:
        for f in families:
            add(DistributedAs(f, "normal"), m)
        for f in families:
            add(MeanIs(f, Integer(0)), m)
        for f in families:
            add(VarianceIs(f, Integer(1)), m)
    else:
        m = _NORMAL.search(sentence)
        if m:
            for f in families:
                add(DistributedAs(f, "normal"), m)
    m = _MEAN0.search(sentence)
    if m:
        for f in families:
            add(MeanIs(f, Integer(0)), m)
    m = _VAR1.search(sentence)
    if m:
        for f in families:
            add(VarianceIs(f, Integer(1)), m)
    return out
