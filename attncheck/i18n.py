r"""Chinese and English texts for slides, standalone LaTeX and plots — one language per output.

Step reasons are the English strings the derivations give (derivations/lecture.py);
they are translated by a table keyed on them, never passed through, so a reason
without a translation stops the output with :class:`TranslationMissing` instead of
leaking English into a Chinese deck.  An entry is a tuple of fragments: a ``str``
is text-mode LaTeX, a SymPy expression is typeset as math in the deck's notation
(𝔼/Var for English, E/D as many Chinese notes write them, unless chosen otherwise).

>>> en, zh = Texts("en"), Texts("zh")
>>> en.reason("zero means")
'zero means'
>>> zh.reason("Var(X) = E(X²) − E²(X)")
'$\\operatorname{D}\\left(X\\right) = \\operatorname{E}\\left(X^{2}\\right) - \\operatorname{E}^{2}\\left(X\\right)$'
>>> zh.label("density")
'密度'
"""

from __future__ import annotations

from typing import Any, Literal, Sequence, Union

from sympy import Eq, Expr, IndexedBase, Integer, Sum, Symbol, sqrt

from derivations import (
    INDEX,
    CorrelationIs,
    DerivationError,
    DistributedAs,
    Dot,
    E,
    Hypothesis,
    Independent,
    MeanIs,
    Var,
    VarianceIs,
)
from derivations.lecture import D_K
from derivations.printing import AttnLatexPrinter

__all__ = [
    "LANGS",
    "Lang",
    "REASONS",
    "Texts",
    "TITLES",
    "TranslationMissing",
]

Lang = Literal["zh", "en"]
LANGS: tuple[Lang, ...] = ("zh", "en")
#: text-mode LaTeX (str) or an expression typeset as inline math
Fragment = Union[str, Expr]
Entry = dict[str, tuple[Fragment, ...]]


class TranslationMissing(DerivationError):
    """A reason, hypothesis, title or label has no text in the language asked for."""


X, a = Symbol("X"), Symbol("a")
q, k, i = IndexedBase("q"), IndexedBase("k"), INDEX
_VAR_FORMULA = Eq(Var(X), E(X**2) - E(X) ** 2, evaluate=False)


def _same(*fragments: Fragment) -> Entry:
    """A language-neutral entry (a formula alone)."""
    return {"zh": fragments, "en": fragments}


#: Step reasons, keyed on the English string the derivation gives.
REASONS: dict[str, Entry] = {
    "Var(X) = E(X²) − E²(X)": _same(_VAR_FORMULA),
    "q_i and k_i independent": {
        "en": (q[i], " and ", k[i], " independent"),
        "zh": (q[i], " 与 ", k[i], " 独立"),
    },
    "regroup": {"en": ("regroup",), "zh": ("重新组合",)},
    "unit variances, zero means": {"en": ("unit variances, zero means",), "zh": ("单位方差，零均值",)},
    "definition of the dot product": {"en": ("definition of the dot product",), "zh": ("点积的定义",)},
    "linearity of E": {"en": ("linearity of expectation",), "zh": ("期望的线性性",)},
    "zero means": {"en": ("zero means",), "zh": ("零均值",)},
    "terms with distinct i are independent": {
        "en": ("terms with distinct ", i, " are independent"),
        "zh": ("不同 ", i, " 的项相互独立"),
    },
    "zero means: E(X²) = Var(X)": {
        "en": ("zero means: ", Eq(E(X**2), Var(X), evaluate=False)),
        "zh": ("零均值：", Eq(E(X**2), Var(X), evaluate=False)),
    },
    "unit variances": {"en": ("unit variances",), "zh": ("单位方差",)},
    "Σ_{i=1}^{d_k} 1 = d_k": _same(Eq(Sum(Integer(1), (i, 1, D_K)), D_K, evaluate=False)),
    "Var(aX) = a² Var(X)": {
        "en": ("scaling ", Eq(Var(a * X), a**2 * Var(X), evaluate=False)),
        "zh": ("数乘 ", Eq(Var(a * X), a**2 * Var(X), evaluate=False)),
    },
    "Var(q·k) = d_k": {
        "en": ("by ", Eq(Var(Dot(q, k)), D_K, evaluate=False)),
        "zh": ("由 ", Eq(Var(Dot(q, k)), D_K, evaluate=False)),
    },
    "cancel": {"en": ("cancel",), "zh": ("约分",)},
    "claimed": {"en": ("claimed",), "zh": ("所称",)},
    "conclusion": {"en": ("conclusion",), "zh": ("结论",)},
}

#: Words of the verdicts (see derivations.printing.Texts.word).
WORDS: dict[str, Entry] = {
    "residual": {"en": ("residual",), "zh": ("残差",)},
    "mean square residual": {"en": ("mean-square residual",), "zh": ("均方残差",)},
}

_LAWS: dict[str, Entry] = {
    "normal": {"en": ("Gaussian",), "zh": ("正态分布",)},
    "uniform": {"en": ("uniform",), "zh": ("均匀分布",)},
    "rademacher": {"en": ("Rademacher ($\\pm 1$)",), "zh": ("Rademacher 分布（$\\pm 1$）",)},
    "moments": {"en": ("of any law",), "zh": ("任意分布",)},
}


def _hypothesis_entry(h: Hypothesis) -> Entry:
    """Words for a hypothesis; the formula beside them comes from the printer."""
    if isinstance(h, MeanIs):
        return {"en": ("the components of ", Symbol(h.family), " have mean ", h.value),
                "zh": (Symbol(h.family), " 的各分量均值为 ", h.value)}
    if isinstance(h, VarianceIs):
        return {"en": ("the components of ", Symbol(h.family), " have variance ", h.value),
                "zh": (Symbol(h.family), " 的各分量方差为 ", h.value)}
    if isinstance(h, Independent):
        return {"en": (Symbol(h.a), " and ", Symbol(h.b), " are independent"),
                "zh": (Symbol(h.a), " 与 ", Symbol(h.b), " 相互独立")}
    if isinstance(h, CorrelationIs):
        return {"en": ("the correlation of ", IndexedBase(h.a)[i], " and ",
                       IndexedBase(h.b)[i], " is ", h.value),
                "zh": (IndexedBase(h.a)[i], " 与 ", IndexedBase(h.b)[i], " 的相关系数为 ", h.value)}
    if isinstance(h, DistributedAs):
        law = _LAWS[h.dist]
        return {"en": ("the standardized components of ", Symbol(h.family), " are ", *law["en"]),
                "zh": (Symbol(h.family), " 的标准化分量服从", *law["zh"])}
    raise TranslationMissing(f"no words for the hypothesis {h} ({type(h).__name__}) in attncheck/i18n.py")


_DK = sqrt(D_K)
#: Titles and sentences of the deck.
TITLES: dict[str, Entry] = {
    "deck-title": {"en": ("Why attention divides ", Dot(q, k), " by ", _DK),
                   "zh": ("注意力为何将 ", Dot(q, k), " 除以 ", _DK)},
    # the PDF's metadata takes no math: the same title in Unicode
    "deck-title-plain": {"en": ("Why attention divides q·k by √dₖ",),
                         "zh": ("注意力为何将 q·k 除以 √dₖ",)},
    "deck-subtitle": {"en": ("every step checked symbolically by attncheck",),
                      "zh": ("每一步均由 attncheck 符号验证",)},
    "setting": {"en": ("The setting",), "zh": ("问题设定",)},
    "setting-text": {
        "en": ("Query ", q, " and key ", k, " have components ", q[i], ", ", k[i], ", ",
               "$i = 1, \\dots, d_k$", "; the attention score is ",
               Eq(Dot(q, k), Sum(q[i] * k[i], (i, 1, D_K)), evaluate=False), "."),
        "zh": ("查询向量 ", q, " 与键向量 ", k, " 的分量为 ", q[i], "、", k[i], "，",
               "$i = 1, \\dots, d_k$", "；注意力分数为 ",
               Eq(Dot(q, k), Sum(q[i] * k[i], (i, 1, D_K)), evaluate=False), "。"),
    },
    "hypotheses": {"en": ("The hypotheses of the lecture",), "zh": ("讲义中的假设",)},
    "hypotheses-note": {
        "en": ("The checker starts from components with any means, variances and law, "
               "possibly dependent, and reports which of these each step really uses.",),
        "zh": ("检验器从任意均值、方差与分布（且可能相关）的分量出发，指出每一步真正用到了哪些假设。",),
    },
    "legend": {
        "en": ("$\\checkmark$: the step holds, given the hypotheses shown; "
               "$\\times$: it fails, with the residual.",),
        "zh": ("$\\checkmark$：该步成立，所需假设列于其后；$\\times$：该步不成立，列出残差。",),
    },
    "e-dot": {"en": ("The mean of the score",), "zh": ("点积的均值",)},
    "var-single": {"en": ("The variance of one term",), "zh": ("单项乘积的方差",)},
    "var-dot": {"en": ("The variance of the score",), "zh": ("点积的方差",)},
    "var-scaled": {"en": ("Scaling by ", 1 / _DK), "zh": ("乘以 ", 1 / _DK, " 之后")},
    "var-scaled-text": {
        "en": ("The scaled score has unit variance for every ", D_K,
               ", so softmax sees inputs of the same spread at any width.",),
        "zh": ("缩放后的分数对任意 ", D_K, " 都具有单位方差，softmax 的输入尺度不再随维度增长。"),
    },
    "histograms": {"en": ("Experiment: the score with and without scaling",),
                   "zh": ("实验：缩放前后的分数分布",)},
    "histograms-text": {
        "en": ("Sample variances from the same draws: ",),
        "zh": ("同一组样本的方差：",),
    },
    "softmax-saturation": {"en": ("Softmax saturates",), "zh": ("softmax 的饱和",)},
    "softmax-saturation-text": {
        "en": ("Large inputs push softmax to a one-hot vector: ",),
        "zh": ("输入越大，softmax 越接近独热向量：",),
    },
    "jacobian": {"en": ("The softmax Jacobian",), "zh": ("softmax 的雅可比矩阵",)},
    "jacobian-text": {
        "en": ("At a one-hot ", Symbol("y"), " every entry of the Jacobian vanishes, "
               "so no gradient flows back to the scores.",),
        "zh": ("当 ", Symbol("y"), " 为独热向量时，雅可比矩阵的每个元素都为零，梯度无法传回分数。"),
    },
    "vanishing": {"en": ("Vanishing gradients without scaling",), "zh": ("不缩放时梯度消失",)},
    "cross-entropy": {"en": ("Cross-entropy",), "zh": ("交叉熵",)},
    "cross-entropy-text": {
        "en": ("Through softmax, the gradient of the cross-entropy with respect to the scores is ",),
        "zh": ("经过 softmax，交叉熵对分数的梯度为 ",),
    },
    "mistakes": {"en": ("Common mistakes, and the numbers that refute them",),
                 "zh": ("常见错误及反驳它们的数值",)},
    "mistake-sqrt": {"en": ("the standard deviation called the variance",),
                     "zh": ("把标准差当作方差",)},
    "mistake-square": {"en": ("variance squared",), "zh": ("方差多了一次平方",)},
    "mistake-means": {"en": ("a step that silently needs zero means",),
                      "zh": ("默认零均值的一步",)},
    "mistake-divide": {"en": ("dividing by the variance instead of the standard deviation",),
                       "zh": ("除以方差而非标准差",)},
    "claim": {"en": ("claim",), "zh": ("错误说法",)},
    "checker": {"en": ("checker",), "zh": ("检验结果",)},
    "at": {"en": ("at",), "zh": ("取",)},
    "claimed-value": {"en": ("claimed",), "zh": ("所称",)},
    "true-value": {"en": ("true",), "zh": ("真值",)},
    "sample-value": {"en": ("sample",), "zh": ("样本",)},
    "missing-softmax": {
        "en": ("The softmax results are not available in this build.",),
        "zh": ("本版本尚未包含 softmax 的结果。",),
    },
}

#: Plot labels: matplotlib mathtext ($…$), not LaTeX.
LABELS: dict[str, dict[str, str]] = {
    "a": {"en": "$a$", "zh": "$a$"},
    "y3": {"en": "$y_3$ of softmax$([a, a, 2a])$", "zh": "softmax$([a, a, 2a])$ 的 $y_3$"},
    "y1": {"en": "$y_1 = y_2$", "zh": "$y_1 = y_2$"},
    "saturation-title": {"en": "Softmax saturates as the inputs grow",
                         "zh": "输入增大时 softmax 饱和"},
    "density": {"en": "density", "zh": "密度"},
    "score": {"en": "$q\\cdot k$", "zh": "$q\\cdot k$"},
    "scaled-score": {"en": "$q\\cdot k/\\sqrt{d_k}$", "zh": "$q\\cdot k/\\sqrt{d_k}$"},
    "sample": {"en": "sample", "zh": "样本"},
    "normal-d": {"en": "$\\mathcal{N}(0, d_k)$", "zh": "$\\mathcal{N}(0, d_k)$"},
    "normal-1": {"en": "$\\mathcal{N}(0, 1)$", "zh": "$\\mathcal{N}(0, 1)$"},
    "histogram-title": {"en": "Scores of {n} random pairs, $d_k = {d}$",
                        "zh": "{n} 对随机向量的分数，$d_k = {d}$"},
    "d_k": {"en": "$d_k$", "zh": "$d_k$"},
    "max-jacobian": {"en": "$\\max_{ij} |J_{ij}|$ (median, quartiles)",
                     "zh": "$\\max_{ij} |J_{ij}|$（中位数与四分位数）"},
    "entropy": {"en": "entropy of softmax (nats)", "zh": "softmax 的熵（奈特）"},
    "scaled": {"en": "scores $/\\sqrt{d_k}$", "zh": "分数 $/\\sqrt{d_k}$"},
    "unscaled": {"en": "unscaled scores", "zh": "未缩放的分数"},
    "vanishing-title": {"en": "Softmax over {n} keys, $q$, $k$ standard normal",
                        "zh": "对 {n} 个键做 softmax，$q$、$k$ 为标准正态"},
    "uniform-entropy": {"en": "$\\ln n$ (uniform)", "zh": "$\\ln n$（均匀分布）"},
}


def _notation(lang: str) -> str:
    return "ED" if lang == "zh" else "mathbb"


class Texts:
    """Every word of one output in one language; implements derivations.printing.Texts.

    ``notation`` defaults to E/D for Chinese and 𝔼/Var for English.
    """

    def __init__(self, lang: str, notation: str | None = None, dot: str = "cdot", **settings: Any) -> None:
        if lang not in LANGS:
            raise TranslationMissing(f"unknown language {lang!r}; attncheck speaks {', '.join(LANGS)}")
        self.lang: Lang = lang  # type: ignore[assignment]
        self.printer = AttnLatexPrinter(
            {"notation": notation or _notation(lang), "dot": dot, "texts": self, **settings}
        )

    def _entry(self, table: dict[str, Entry], key: str, what: str) -> tuple[Fragment, ...]:
        try:
            return table[key][self.lang]
        except KeyError:
            raise TranslationMissing(
                f"no {self.lang} text for the {what} {key!r}; add it to attncheck/i18n.py"
            ) from None

    def render(self, fragments: Sequence[Fragment]) -> str:
        """Text-mode LaTeX: strings as they are, expressions as inline math."""
        return "".join(f if isinstance(f, str) else f"${self.printer.doprint(f)}$" for f in fragments)

    def latex(self, obj: object) -> str:
        """Math-mode LaTeX of an expression, hypothesis or derivation in this notation."""
        return self.printer.doprint(obj)

    def reason(self, reason: str) -> str:
        return self.render(self._entry(REASONS, reason, "step reason"))

    def word(self, key: str) -> str:
        return self.render(self._entry(WORDS, key, "word"))

    def title(self, key: str) -> str:
        return self.render(self._entry(TITLES, key, "title"))

    def hypothesis(self, h: Hypothesis) -> str:
        return self.render(_hypothesis_entry(h)[self.lang])

    def label(self, key: str, **fields: object) -> str:
        """A plot label (matplotlib mathtext) with ``{fields}`` filled in."""
        try:
            text = LABELS[key][self.lang]
        except KeyError:
            raise TranslationMissing(
                f"no {self.lang} plot label {key!r}; add it to attncheck/i18n.py"
            ) from None
        return text.format(**fields) if fields else text
