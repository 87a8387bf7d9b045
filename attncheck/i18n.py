r"""Chinese and English texts for slides, standalone LaTeX and plots — one language per output.

A step's rule (derivations.rules.Rule, found by the checker's rule namer or given as
the step's reason) is named from the RULES table; other reasons and every title are
translated by tables keyed on them, never passed through, so a text without a
translation stops the output with :class:`TranslationMissing` instead of leaking
English into a Chinese deck.  An entry is a tuple of fragments: a ``str`` is
text-mode LaTeX (plain text in RULES), a SymPy expression is typeset as math in the
deck's notation (𝔼/Var for English, E/D as many Chinese notes write them, unless
chosen otherwise).  :class:`Words` has the terminal's sentences, with full-width
punctuation in Chinese.

>>> en, zh = Texts("en"), Texts("zh")
>>> en.reason("zero means")
'zero means'
>>> zh.reason("variance formula")
'$\\operatorname{D}\\left(X\\right) = \\operatorname{E}\\left(X^{2}\\right) - \\operatorname{E}^{2}\\left(X\\right)$'
>>> zh.label("density")
'密度'
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

from sympy import Eq, Expr, IndexedBase, KroneckerDelta, Mul, Sum, Symbol, sqrt

from attncheck.language import LANGS, Lang, default_lang
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
from derivations.printing import AttnLatexPrinter, escape
from derivations.rules import Rule, RuleUse

__all__ = [
    "LANGS",
    "NOTES",
    "REASONS",
    "RULES",
    "SENTENCES",
    "TITLES",
    "Lang",
    "Texts",
    "TranslationMissing",
    "Words",
    "default_lang",
    "rule_fragments",
]

#: text-mode LaTeX (str) or an expression typeset as inline math
Fragment = str | Expr
Entry = dict[str, tuple[Fragment, ...]]


class TranslationMissing(DerivationError):
    """A reason, hypothesis, title or label has no text in the language asked for."""


X, a = Symbol("X"), Symbol("a")
q, k, i = IndexedBase("q"), IndexedBase("k"), INDEX
_VAR_FORMULA = Eq(Var(X), E(X**2) - E(X) ** 2, evaluate=False)


def _same(*fragments: Fragment) -> Entry:
    """A language-neutral entry (a formula alone)."""
    return {"zh": fragments, "en": fragments}


class _Fact:
    """Stands in a rule's words for the formula the step applied the rule to (RuleUse.fact),
    or for its left side alone."""

    def __init__(self, side: str = "") -> None:
        self.side = side

    def of(self, fact: Eq) -> Expr:
        return fact.lhs if self.side == "lhs" else fact


FACT, FACT_LHS = _Fact(), _Fact("lhs")
RuleFragment = str | Expr | _Fact

Y, T = IndexedBase("y"), IndexedBase("t")
j, kk, n = (Symbol(s, integer=True, positive=True) for s in ("j", "k", "n"))
xb = IndexedBase("x")

_TARGETS = Eq(Sum(T[kk], (kk, 1, n)), 1, evaluate=False)
_XY = Mul(X, Symbol("Y"), evaluate=False)
_PRODUCT_RULE = Eq(E(_XY), Mul(E(X), E(Symbol("Y")), evaluate=False), evaluate=False)
_SCALING = Eq(Var(Mul(a, X, evaluate=False)), Mul(a**2, Var(X), evaluate=False), evaluate=False)

#: The rules of derivations.rules as a teacher names them: plain text (escaped for LaTeX)
#: and formulas in the output's notation.  A FACT is the formula the step used; entries
#: without one are used when the step has none.
RULES: dict[Rule, dict[str, tuple[RuleFragment, ...]]] = {
    Rule.ALGEBRA: {"en": ("simplify",), "zh": ("化简",)},
    Rule.EXPAND: {"en": ("expand",), "zh": ("展开",)},
    Rule.FACTOR: {"en": ("factor",), "zh": ("提取公因式",)},
    Rule.CANCEL: {"en": ("cancel",), "zh": ("约分",)},
    Rule.DEFINITION: {"en": ("definition of ", FACT_LHS), "zh": (FACT_LHS, " 的定义")},
    Rule.LINEARITY_E: {"en": ("linearity of E",), "zh": ("期望的线性性",)},
    Rule.INDEPENDENCE: {"en": ("independence: ", _PRODUCT_RULE), "zh": ("独立：", _PRODUCT_RULE)},
    Rule.VARIANCE_FORMULA: {"en": (_VAR_FORMULA,), "zh": (_VAR_FORMULA,)},
    Rule.VARIANCE_OF_SUM: {"en": ("variance of a sum of independent terms",), "zh": ("独立项之和的方差",)},
    Rule.VARIANCE_SCALING: {"en": ("scaling: ", _SCALING), "zh": ("数乘：", _SCALING)},
    Rule.REGROUP: {"en": ("regroup; zero means: ", Eq(E(X**2), Var(X), evaluate=False)),
                   "zh": ("重新组合；零均值时 ", Eq(E(X**2), Var(X), evaluate=False))},
    Rule.ZERO_MEANS: {"en": ("zero means",), "zh": ("零均值",)},
    Rule.UNIT_VARIANCES: {"en": ("unit variances",), "zh": ("单位方差",)},
    Rule.HYPOTHESES: {"en": ("the hypotheses",), "zh": ("代入假设",)},
    Rule.PREVIOUS_RESULT: {"en": ("by ", FACT), "zh": ("由 ", FACT)},
    Rule.SUM_OF_CONSTANT: {"en": (FACT,), "zh": (FACT,)},
    Rule.SUM_DELTA: {"en": (FACT,), "zh": (FACT,)},
    Rule.TARGETS_SUM_TO_ONE: {"en": (Symbol("t"), " is a distribution: ", _TARGETS),
                              "zh": (Symbol("t"), " 为概率分布：", _TARGETS)},
    Rule.SOFTMAX_SUMS_TO_ONE: {"en": (Eq(Sum(Y[kk], (kk, 1, n)), 1, evaluate=False),),
                               "zh": (Eq(Sum(Y[kk], (kk, 1, n)), 1, evaluate=False),)},
    Rule.LINEARITY_D: {"en": ("linearity of the derivative",), "zh": ("求导的线性性",)},
    Rule.QUOTIENT_RULE: {"en": ("quotient rule",), "zh": ("商的求导法则",)},
    Rule.CHAIN_RULE: {"en": ("chain rule",), "zh": ("链式法则",)},
    Rule.JACOBIAN: {"en": ("the softmax Jacobian",), "zh": ("softmax 的雅可比矩阵",)},
    Rule.UNKNOWN: {"en": (), "zh": ()},
}
#: Words for a rule whose FACT is missing (the plain name).
_RULES_WITHOUT_FACT: dict[Rule, dict[str, tuple[RuleFragment, ...]]] = {
    Rule.DEFINITION: {"en": ("by definition",), "zh": ("代入定义",)},
    Rule.PREVIOUS_RESULT: {"en": ("by the previous result",), "zh": ("由前面的结果",)},
    Rule.SUM_OF_CONSTANT: {"en": ("sum of a constant",), "zh": ("常数求和",)},
    Rule.SUM_DELTA: {"en": ("sum with a Kronecker delta",), "zh": ("含 ", KroneckerDelta(i, j), " 的求和")},
}
#: Between two rules of one step.
_RULE_SEPARATOR = {"en": "; ", "zh": "；"}


def rule_fragments(use: RuleUse, lang: str) -> tuple[str | Expr, ...]:
    """The words of a step's rules in one language: text and formulas, FACT filled in."""
    out: list[str | Expr] = []
    for rule in use.rules:
        entry = RULES[rule][lang]
        if use.fact is None and any(isinstance(f, _Fact) for f in entry):
            entry = _RULES_WITHOUT_FACT[rule][lang]
        if out and entry:
            out.append(_RULE_SEPARATOR[lang])
        out += [f.of(use.fact) if isinstance(f, _Fact) and use.fact is not None else f
                for f in entry]  # type: ignore[misc]
    return tuple(out)


#: Step reasons other than rule ids, keyed on the string the derivation gives.
REASONS: dict[str, Entry] = {
    "claimed": {"en": ("claimed",), "zh": ("所称",)},
    "conclusion": {"en": ("conclusion",), "zh": ("结论",)},
}

#: Words of the verdicts (see derivations.printing.Texts.word).
WORDS: dict[str, Entry] = {
    "residual": {"en": ("residual",), "zh": ("残差",)},
    "mean square residual": {"en": ("mean-square residual",), "zh": ("均方残差",)},
    "should be": {"en": ("should be",), "zh": ("应为",)},
    "rule": {"en": ("rule",), "zh": ("依据",)},
    "check": {"en": ("check",), "zh": ("检验",)},
    "holds given": {"en": ("holds given",), "zh": ("成立的条件",)},
}

#: The terminal's sentences (plain text, formatted with str.format).  Chinese ones use
#: full-width punctuation: no ASCII ":" "," ";" "(" in Chinese text.
SENTENCES: dict[str, dict[str, str]] = {
    "holds": {"en": "holds in general", "zh": "恒成立"},
    "holds-decimals": {"en": "holds to the decimal places written", "zh": "在所写的小数位数内成立"},
    "holds-example": {"en": "holds at the dimension the note gave", "zh": "在笔记给出的维数下成立"},
    "holds-given": {"en": "holds given {hypotheses}", "zh": "在 {hypotheses} 下成立"},
    "or": {"en": " or ", "zh": " 或 "},
    "colon": {"en": ": ", "zh": "："},
    "residual": {"en": "residual", "zh": "残差"},
    "mean square residual": {"en": "mean-square residual", "zh": "均方残差"},
    "fails-residual": {"en": "fails: {kind} {residual}", "zh": "不成立：{kind} {residual}"},
    "fails-entry": {"en": "fails at entry ({entry}) as written (counting ⋯ as one)",
                    "zh": "按所写位置（⋯ 算一个），第 ({entry}) 个元素不成立"},
    "fails-entry-plain": {"en": "fails at entry ({entry})", "zh": "第 ({entry}) 个元素不成立"},
    "should-be": {"en": "= {value}, not {claimed}", "zh": "应为 {value}，而非 {claimed}"},
    "would-hold-given": {"en": "; holds given {hypotheses}", "zh": "；在 {hypotheses} 下成立"},
    "would-hold-if": {"en": "; would hold if {condition}", "zh": "；当 {condition} 时成立"},
    # attncheck verify at the terminal (attncheck.verify.terminal)
    "needs-undeclared": {"en": "holds only given {hypotheses}; the note does not state {missing}",
                         "zh": "仅在 {hypotheses} 下成立；笔记未声明 {missing}"},
    "status-definition": {"en": "{note}", "zh": "定义：代入其后的步骤"},
    "status-assumption": {"en": "{note}", "zh": "笔记的假设：{note}"},
    "status-condition": {"en": "{note}", "zh": "条件：{note}"},
    "status-not-checked": {"en": "{note}", "zh": "未检查：{note}"},
    "status-not-read": {"en": "{note}", "zh": "未读：{note}"},
    "semicolon": {"en": "; ", "zh": "；"},
    "conclusion": {"en": "conclusion", "zh": "结论"},
    "chain": {"en": "chain {n}", "zh": "推导 {n}"},
    "declared": {"en": "declared: {hypotheses}", "zh": "声明：{hypotheses}"},
    "nothing": {"en": "nothing", "zh": "无"},
    "evidence": {"en": "numeric {text}", "zh": "数值{text}"},
    "evidence-derivative": {"en": "{kind}: {estimate} vs {reference}, {verdict} (complex step)",
                            "zh": "{kind}：{estimate} 对 {reference}，{verdict}（复步长求导）"},
    "evidence-sample": {"en": "{kind}: {estimate} ± {se} vs {reference}, {test}, {verdict} "
                              "(n = {n})",
                        "zh": "{kind}：{estimate} ± {se} 对 {reference}，{test}，{verdict}"
                              "（n = {n}）"},
    "evidence-exact": {"en": "{kind}: {estimate} vs {reference}, {verdict} (nothing random: "
                             "evaluated, not sampled)",
                       "zh": "{kind}：{estimate} 对 {reference}，{verdict}（没有随机量：直接求值，未抽样）"},
    "confirmation": {"en": "confirmation", "zh": "验证"},
    "counterexample": {"en": "counterexample", "zh": "反例"},
    "numbers-contradict": {"en": "CONTRADICTION", "zh": "数值矛盾"},
    "agree": {"en": "sides agree", "zh": "两边一致"},
    "differ": {"en": "sides differ", "zh": "两边不一致"},
    "read-from-text": {"en": "{where}: read from the text: {hypothesis}  ({text})",
                       "zh": "{where}：从正文读出：{hypothesis}（{text}）"},
    "not-read-at": {"en": "{where}: not read: {text}", "zh": "{where}：未读：{text}"},
    "step-at": {"en": "{where}: {step}: {verdict}", "zh": "{where}：{step}：{verdict}"},
    "contradiction": {"en": "WARNING {where}: the numeric evidence contradicts the symbolic "
                            "verdict ({status})",
                      "zh": "警告 {where}：数值验证与符号结论（{status}）矛盾"},
    "summary": {"en": "{state} {path}: {judged} of {claims} claims checked, {bad} do not hold",
                "zh": "{state} {path}：{claims} 个论断中检查了 {judged} 个，{bad} 个不成立"},
    "summary-unread": {"en": ", {unread} not read", "zh": "，{unread} 处未读"},
}

#: The words of a deck made from a note (``attncheck slides --from``): text-mode LaTeX with
#: ``{fields}`` filled in by :meth:`Texts.notes` (fields are LaTeX already: formulas in ``$…$``).
#: Chinese ones use full-width punctuation.
NOTES: dict[str, dict[str, str]] = {
    "subtitle": {"en": "every step checked by attncheck", "zh": "每一步均由 attncheck 检验"},
    "chain": {"en": "Derivation {n}", "zh": "推导 {n}"},
    "chains": {"en": "Derivations {first}--{last}", "zh": "推导 {first}--{last}"},
    "continued": {"en": "{title} (continued)", "zh": "{title}（续）"},
    "when": {"en": "When {condition}:", "zh": "当 {condition} 时："},
    "when-row": {"en": "when {condition}", "zh": "当 {condition} 时"},
    "definition": {"en": "definition", "zh": "定义"},
    "assumption": {"en": "assumption", "zh": "假设"},
    "condition": {"en": "condition", "zh": "条件"},
    "not-read": {"en": "not read", "zh": "未读"},
    "not-checked": {"en": "not checked", "zh": "未检查"},
    "needs-undeclared": {"en": "holds only given {hypotheses}; the note does not state {missing}",
                         "zh": "仅在 {hypotheses} 下成立；笔记未声明 {missing}"},
    "should-be": {"en": "should be {value}", "zh": "应为 {value}"},
    "would-hold-given": {"en": "; holds given {hypotheses}", "zh": "；在 {hypotheses} 下成立"},
    "residual": {"en": "residual {residual}", "zh": "残差 {residual}"},
    "mean-square-residual": {"en": "mean-square residual {residual}", "zh": "均方残差 {residual}"},
    "the-note-says": {"en": "the note: {reason}", "zh": "笔记：{reason}"},
    "source-dollar": {"en": "shown as written: a \\$ inside the maths",
                      "zh": "按原文显示：公式中含有 \\$"},
    "source-environment": {"en": "shown as written: the environment {detail} cannot stand in a row",
                           "zh": "按原文显示：环境 {detail} 无法单独成行"},
    "source-command": {"en": "shown as written: {detail} is a command, not maths",
                       "zh": "按原文显示：{detail} 是命令而非公式"},
    "source-unbalanced-braces": {"en": "shown as written: its braces do not balance",
                                 "zh": "按原文显示：括号不配对"},
    "assumptions": {"en": "What the note assumes", "zh": "笔记中的假设"},
    "read-from-text": {"en": "read from the text (line {line}): “{text}”",
                       "zh": "从正文读出（第 {line} 行）：“{text}”"},
    "stated": {"en": "stated in the note (a comment or a formula)", "zh": "笔记中声明（注释或公式）"},
    "problems": {"en": "What attncheck could not read", "zh": "attncheck 未能读取的内容"},
    "problem": {"en": "line {line}, column {column}: {text}", "zh": "第 {line} 行第 {column} 列：{text}"},
    "legend": {"en": ("{ok} the step holds, given the hypotheses shown \\quad {bad} it does not, "
                      "with what it should be \\quad ? not read or not checked, and why "
                      "\\quad {definition} a definition"),
               "zh": ("{ok} 该步成立（所需假设列于其后）\\quad {bad} 不成立，并给出应有的结果"
                      "\\quad ? 未读或未检查，并说明原因\\quad {definition} 定义")},
    "step-at": {"en": "Step {n} (line {line})", "zh": "第 {n} 步（第 {line} 行）"},
    "or": {"en": " or ", "zh": " 或 "},
    "semicolon": {"en": "; ", "zh": "；"},
    "speaker-rule": {"en": "rule: {rule}", "zh": "依据：{rule}"},
    "speaker-uses": {"en": "uses {hypotheses}", "zh": "用到 {hypotheses}"},
    "speaker-holds": {"en": "holds", "zh": "成立"},
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
_MEANS = Eq(E(q[i]), Eq(E(k[i]), 0, evaluate=False), evaluate=False)
_VARIANCES = Eq(Var(q[i]), Eq(Var(k[i]), 1, evaluate=False), evaluate=False)
_SCALED_ONE = Eq(Var(Mul(Dot(q, k), 1 / _DK, evaluate=False)), 1, evaluate=False)
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
    "hyp-means": {"en": ("every component has mean 0: ", _MEANS),
                  "zh": ("每个分量的均值为 0：", _MEANS)},
    "hyp-variances": {"en": ("every component has variance 1: ", _VARIANCES),
                      "zh": ("每个分量的方差为 1：", _VARIANCES)},
    "hyp-independence": {
        "en": ("all components ", "$q_1, \\dots, q_{d_k}, k_1, \\dots, k_{d_k}$",
               " are independent: of each other, and ", q, " of ", k,
               ". The checker writes this ", "$q \\perp k$", "."),
        "zh": ("所有分量 ", "$q_1, \\dots, q_{d_k}, k_1, \\dots, k_{d_k}$",
               " 相互独立：同一向量的各分量之间独立，", q, " 与 ", k, " 之间也独立。检验器记作 ",
               "$q \\perp k$", "。"),
    },
    "attention": {"en": ("Scaled dot-product attention: ",), "zh": ("缩放点积注意力：",)},
    "var-general": {"en": ("In general, for independent ", q[i], ", ", k[i], " with any means:"),
                    "zh": ("一般情形（", q[i], "、", k[i], " 独立，均值任意）：")},
    "var-general-note": {
        "en": ("Zero means remove the last two terms: that is the regrouping step above.",),
        "zh": ("零均值使后两项为零，这正是上面“重新组合”一步所需的条件。",),
    },
    "saturation-setup": {
        "en": ("Take three scores ", "$x = (a, a, 2a)$", " with ", "$a > 0$",
               ": the number ", "$a$", " sets their scale, as ", "$\\sqrt{d_k}$",
               " does for unscaled scores. As ", "$a$", " grows:"),
        "zh": ("取三个分数 ", "$x = (a, a, 2a)$", "，", "$a > 0$", "：", "$a$",
               " 决定分数的尺度，正如 ", "$\\sqrt{d_k}$", " 决定未缩放分数的尺度。", "$a$", " 增大时："),
    },
    "jacobian-derivation": {"en": ("The softmax Jacobian, step by step",),
                            "zh": ("逐步推导 softmax 的雅可比矩阵",)},
    "softmax-definition": {"en": ("Softmax: ",), "zh": ("softmax 的定义：",)},
    "jacobian-collapse": {"en": ("The Jacobian at saturation",), "zh": ("饱和时的雅可比矩阵",)},
    "jacobian-matrix": {"en": ("In matrix form, at the scores ", "$x = (a, a, 2a)$", ":"),
                        "zh": ("写成矩阵形式，在分数 ", "$x = (a, a, 2a)$", " 处：")},
    "cross-entropy-derivation": {"en": ("The cross-entropy gradient, step by step",),
                                 "zh": ("逐步推导交叉熵的梯度",)},
    "cross-entropy-definition": {"en": ("Cross-entropy of the softmax output ", Symbol("y"),
                                        " against a target distribution ", Symbol("t"), ": "),
                                 "zh": ("softmax 输出 ", Symbol("y"), " 相对目标分布 ", Symbol("t"),
                                        " 的交叉熵：")},
    "mistakes-softmax": {"en": ("Mistakes in the softmax derivatives",),
                         "zh": ("softmax 求导中的常见错误",)},
    "mistake-delta": {"en": ("the Kronecker delta ", KroneckerDelta(i, j), " dropped"),
                      "zh": ("漏掉克罗内克符号 ", KroneckerDelta(i, j))},
    "mistake-sign": {"en": ("the sign of the gradient flipped",), "zh": ("梯度的符号弄反",)},
    "summary": {"en": ("Summary",), "zh": ("小结",)},
    "summary-moments": {
        "en": ("With zero means, unit variances and independent components, ", E(Dot(q, k)),
               " = 0 and ", Eq(Var(Dot(q, k)), D_K, evaluate=False),
               ": every step checked, each hypothesis named where it is used."),
        "zh": ("在零均值、单位方差、分量独立的假设下，", Eq(E(Dot(q, k)), 0, evaluate=False), "，",
               Eq(Var(Dot(q, k)), D_K, evaluate=False), "：每一步都经过检验，每个假设都在用到它的那一步注明。"),
    },
    "summary-scaling": {
        "en": ("Dividing by ", _DK, " gives unit variance for every ", D_K, ": ", _SCALED_ONE, "."),
        "zh": ("除以 ", _DK, " 后，对任意 ", D_K, " 方差都为 1：", _SCALED_ONE, "。"),
    },
    "summary-softmax": {
        "en": ("Without it, softmax saturates as ", D_K, " grows: its Jacobian ",
               "$\\operatorname{diag}(y) - y y^{\\top}$", " and the gradient ", "$y - t$", " vanish."),
        "zh": ("不缩放时，softmax 随 ", D_K, " 增大而饱和：雅可比矩阵 ",
               "$\\operatorname{diag}(y) - y y^{\\top}$", " 与梯度 ", "$y - t$", " 都趋于零。"),
    },
    "summary-mistakes": {
        "en": ("The classic mistakes are refuted twice, symbolically and by the numbers.",),
        "zh": ("常见错误都被符号推导与数值实验两次否定。",),
    },
    "hypotheses-note": {
        "en": (("The checker starts from components with any means, variances and law, "
                "possibly dependent, and reports which of these each step really uses."),),
        "zh": ("检验器从任意均值、方差与分布（且可能相关）的分量出发，指出每一步真正用到了哪些假设。",),
    },
    "legend": {
        "en": (("$\\checkmark$: the step holds, given the hypotheses shown; "
                "$\\times$: it fails, with what it should be."),),
        "zh": ("$\\checkmark$：该步成立，所需假设列于其后；$\\times$：该步不成立，并给出正确结果。",),
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
        "en": ("At a one-hot ", Symbol("y"), (" every entry of the Jacobian vanishes, "
                                             "so no gradient flows back to the scores.")),
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


_RULE_IDS = {r.value: r for r in Rule}

#: Chinese titles of the claims ``attncheck check`` lists, keyed on their English titles.
CLAIMS: dict[str, str] = {
    "Var(q_i k_i) = 1": "D(q_i k_i) = 1",
    "Var(q_i k_i) = Var(q_i) Var(k_i) without zero means": "D(q_i k_i) = D(q_i) D(k_i)，但均值不为零",
    "E(q·k) = 0": "E(q·k) = 0",
    "E(q·k) = d_k": "E(q·k) = d_k",
    "E(q·k) = 0 without zero means": "E(q·k) = 0，但均值不为零",
    "Var(q·k) = d_k": "D(q·k) = d_k",
    "Var(q·k) = √d_k": "D(q·k) = √d_k",
    "Var(q·k) = d_k²": "D(q·k) = d_k²",
    "Var(q·k/√d_k) = 1": "D(q·k/√d_k) = 1",
    "Var(q·k/d_k) = 1": "D(q·k/d_k) = 1",
    "E(q·k) = d_k μ_q μ_k": "E(q·k) = d_k μ_q μ_k",
    "E(q·k) = μ_q μ_k": "E(q·k) = μ_q μ_k",
    "E(q·k) = d_k(μ_q μ_k + ρ σ_q σ_k)": "E(q·k) = d_k(μ_q μ_k + ρ σ_q σ_k)",
    "E(q·k) = d_k μ_q μ_k when correlated": "q、k 相关时 E(q·k) = d_k μ_q μ_k",
    "Var(q·k) = d_k(σ_q²σ_k² + μ_q²σ_k² + μ_k²σ_q²)": "D(q·k) = d_k(σ_q²σ_k² + μ_q²σ_k² + μ_k²σ_q²)",
    "Var(q·k) = d_k σ_q² σ_k² (μ terms dropped)": "D(q·k) = d_k σ_q² σ_k²（漏掉 μ 项）",
    "Var(q·k) = d_k(σ_q²σ_k²(1+ρ²) + μ_q²σ_k² + μ_k²σ_q² + 2ρμ_qμ_kσ_qσ_k), Gaussian":
        "D(q·k) = d_k(σ_q²σ_k²(1+ρ²) + μ_q²σ_k² + μ_k²σ_q² + 2ρμ_qμ_kσ_qσ_k)，正态分布",
    "Var(q·k) without the ρ terms, Gaussian": "D(q·k) 漏掉 ρ 项，正态分布",
    "Var(q·k/√d_k) = σ_q²σ_k² + μ_q²σ_k² + μ_k²σ_q²": "D(q·k/√d_k) = σ_q²σ_k² + μ_q²σ_k² + μ_k²σ_q²",
    "Var(q·k/√d_k) = σ_q² σ_k² (μ terms dropped)": "D(q·k/√d_k) = σ_q² σ_k²（漏掉 μ 项）",
    "Var(q·k) = d_k, moments components": "D(q·k) = d_k，任意分布的分量",
    "Var(q·k) = √d_k, moments components": "D(q·k) = √d_k，任意分布的分量",
    "Var(q·k) = d_k, normal components": "D(q·k) = d_k，正态分量",
    "Var(q·k) = √d_k, normal components": "D(q·k) = √d_k，正态分量",
    "Var(q·k) = d_k, uniform components": "D(q·k) = d_k，均匀分量",
    "Var(q·k) = √d_k, uniform components": "D(q·k) = √d_k，均匀分量",
    "Var(q·k) = d_k, rademacher components": "D(q·k) = d_k，Rademacher 分量",
    "Var(q·k) = √d_k, rademacher components": "D(q·k) = √d_k，Rademacher 分量",
    "E[(q·k)⁴] = 3d_k² + 6d_k, Gaussian": "E((q·k)⁴) = 3d_k² + 6d_k，正态分布",
    "E[(q·k)⁴] = 3d_k², Gaussian": "E((q·k)⁴) = 3d_k²，正态分布",
    "Var((q·k)²) = 2d_k² + 6d_k, Gaussian": "D((q·k)²) = 2d_k² + 6d_k，正态分布",
    "Var((q·k)²) = 2d_k², Gaussian": "D((q·k)²) = 2d_k²，正态分布",
    "E[(q·k)⁴] = d_k κ_q κ_k + 3d_k(d_k − 1)": "E((q·k)⁴) = d_k κ_q κ_k + 3d_k(d_k − 1)",
    "E[(q·k)⁴] = 3d_k² + 6d_k for any law": "E((q·k)⁴) = 3d_k² + 6d_k 对任意分布成立",
    "E[(q·k)⁴] = 3d_k² + 6d_k needs both laws Gaussian": "E((q·k)⁴) = 3d_k² + 6d_k 需要两者都服从正态分布",
    "E[(q·k)⁴] = 3d_k² + 6d_k, uniform components": "E((q·k)⁴) = 3d_k² + 6d_k，均匀分量",
    "scores √512·z_i with Var(z_i) = 1 have variance 512": "分数 √512·z_i（D(z_i) = 1）的方差为 512",
    "scores √512·z_i have variance √512 (a standard deviation called a variance)":
        "分数 √512·z_i 的方差为 √512（把标准差当作方差）",
    "scores √512·z_i have standard deviation √512": "分数 √512·z_i 的标准差为 √512",
    "scores √512·z_i have standard deviation 512 (a variance called a standard deviation)":
        "分数 √512·z_i 的标准差为 512（把方差当作标准差）",
    "∂y_i/∂x_j = y_i(δ_ij − y_j), any n": "∂y_i/∂x_j = y_i(δ_ij − y_j)，任意 n",
    "∂y_i/∂x_j = −y_i(δ_ij − y_j) (sign flipped)": "∂y_i/∂x_j = −y_i(δ_ij − y_j)（符号相反）",
    "∂y_i/∂x_j = −y_i y_j (δ_ij dropped)": "∂y_i/∂x_j = −y_i y_j（漏掉 δ_ij）",
    "∂y_i/∂x_j = y_i(δ_ij + y_j) (diag(y) + y yᵀ)": "∂y_i/∂x_j = y_i(δ_ij + y_j)（即 diag(y) + y yᵀ）",
    "J = diag(y) − y yᵀ, derived for n = 2..32": "J = diag(y) − y yᵀ，对 n = 2..32 逐一推导",
    "J = y yᵀ − diag(y), n = 2..32": "J = y yᵀ − diag(y)，n = 2..32",
    "J = −y yᵀ, n = 2..32": "J = −y yᵀ，n = 2..32",
    "J = diag(y) + y yᵀ, n = 2..32": "J = diag(y) + y yᵀ，n = 2..32",
    "∂L/∂x_i = y_i − t_i, L = −Σ t_k log y_k, any n": "∂L/∂x_i = y_i − t_i，L = −Σ t_k log y_k，任意 n",
    "∂L/∂x_i = t_i − y_i (sign flipped)": "∂L/∂x_i = t_i − y_i（符号相反）",
    "∂L/∂x_i = −t_i/y_i (that is ∂L/∂y_i)": "∂L/∂x_i = −t_i/y_i（那是 ∂L/∂y_i）",
    "x=[a,a,2a], a→∞: y − t → 0 for the correct target e_3": "x = [a, a, 2a]，a → ∞：正确目标 e_3 时 y − t → 0",
    "x=[a,a,2a], a→∞: y − t → (−1, 0, 1) for a wrong target e_1":
        "x = [a, a, 2a]，a → ∞：错误目标 e_1 时 y − t → (−1, 0, 1)",
    "x=[a,a,2a], a→∞: y − t → 0 for a wrong target too (vanishes)":
        "x = [a, a, 2a]，a → ∞：错误目标时 y − t 也 → 0（梯度消失）",
    "softmax([a,a,2a])_3 = 1/(1 + 2e^(−a))": "softmax([a, a, 2a])_3 = 1/(1 + 2e^(−a))",
    "softmax([a,a,2a])_3 = 1/(1 + e^(−a)) (the 2 forgotten)": "softmax([a, a, 2a])_3 = 1/(1 + e^(−a))（漏掉系数 2）",
    "y_3(a=10) = 0.99990920838434097818 (20 digits)": "y_3(a = 10) = 0.99990920838434097818（20 位）",
    "y_3(a=10) = 0.9999092083843412 in float64 (as printed)": "y_3(a = 10) = 0.9999092083843412（float64 打印值）",
    "a→∞: y → e_3, every J_ij → 0, the largest ~ 2e^(−a)": "a → ∞：y → e_3，每个 J_ij → 0，最大者 ~ 2e^(−a)",
    "a→∞: the largest J_ij ~ e^(−a)": "a → ∞：最大的 J_ij ~ e^(−a)",
    "a→∞: the largest J_ij ~ e^(−2a)": "a → ∞：最大的 J_ij ~ e^(−2a)",
    "Σ_j |J_ij| = 2y_i(1 − y_i) ≤ 1/2": "Σ_j |J_ij| = 2y_i(1 − y_i) ≤ 1/2",
    "Σ_j |J_ij| ≤ 1/4": "Σ_j |J_ij| ≤ 1/4",
    "max |J_ij| = max_i y_i(1 − y_i) ≤ 1/4": "max |J_ij| = max_i y_i(1 − y_i) ≤ 1/4",
    "max |J_ij| ≤ 1/8": "max |J_ij| ≤ 1/8",
    "naive exp(x)/Σexp(x) of [a,a,2a] is finite for a < 354 (float64)":
        "直接计算 exp(x)/Σexp(x)，[a, a, 2a] 在 a < 354 时有限（float64）",
    "naive exp(x)/Σexp(x) of [a,a,2a] is finite up to a = 1000":
        "直接计算 exp(x)/Σexp(x)，[a, a, 2a] 直到 a = 1000 都有限",
    "with 1/√d_k, max|J_ij| does not collapse as d_k grows": "乘以 1/√d_k 后，max|J_ij| 不随 d_k 增大而坍缩",
    "without 1/√d_k, max|J_ij| does not collapse as d_k grows": "不乘 1/√d_k，max|J_ij| 也不随 d_k 增大而坍缩",
    "max|J_ij| = 0.1698 is plausible for n=10 N(0,1) scores": "n = 10 个 N(0, 1) 分数时，max|J_ij| = 0.1698 是合理的",
    "max|J_ij| = 2.78e-8 is plausible for n=10 N(0,512) scores": "n = 10 个 N(0, 512) 分数时，max|J_ij| = 2.78e-8 是合理的",
    "max|J_ij| = 0.30 is plausible for n=10 N(0,1) scores": "n = 10 个 N(0, 1) 分数时，max|J_ij| = 0.30 是合理的",
}


#: verify's reasons for not judging a step, in Chinese (the English is verify's own text;
#: what is not in this table is shown in English rather than guessed).
NOTES_ZH: tuple[tuple[str, str], ...] = (
    ((r"^(.+) is a vector here: vector and matrix algebra is not checked \(write it by "
     r"components, as y_i\)$"), r"\1 在这里是向量：不检查向量与矩阵运算（请按分量写，如 y_i）"),
    ((r"^(\S+) is a random vector; (?:inside an operator|as a side of '='|here|as the body of "
      r"\\sum|in exp|in a sum|in log|in a denominator|under a derivative) a number is expected "
      r"\(a component (\S+) or a dot product such as (.+)\)$"),
     r"\1 是随机向量，这里应当是一个数（分量 \2，或点积如 \3）"),
    (r"^unknown vector (.+) \(use x, y, t\)$", r"不认识的向量 \1（softmax 的量请用 x、y、t，或在笔记里定义）"),
    (r"^unknown symbol (.+) \(use x, y, t, indices, the length (.*), L\)$",
     r"不认识的符号 \1（softmax 的量请用 x、y、t、指标、长度 \2、L）"),
    ((r"^(.+) inside an expectation is not random in this note: the random quantities are the "
     r"components of (.+)$"), r"期望里的 \1 在本笔记中不是随机量：随机量是 \2 的分量"),
    (r"^an approximation \(≈\) is not an identity$", "近似（≈）不是恒等式"),
    (r"^no numeric value: (.+)$", r"：没有数值可算（\1）"),
    ((r"^verify's own verdicts disagree here — the chain's other steps hold and so does its "
      r"first expression = its last, so this step must hold too; one of its sides was misread$"),
     "verify 自己的判断在此矛盾：链中其余各步成立，首尾也相等，这一步理应成立；它的某一边被读错了"),
    (r"^the whole output (.+) under ∂/∂ of one score: take an entry, as p_i$",
     r"对单个分数求导的是整个输出 \1：请取一个分量，如 p_i"),
    (r"^a proportionality \(∝\).*$", "正比（∝）不是恒等式"),
    (r"^inequalities are not decided by the engine$", "不等式不由引擎判定"),
    (r"^(.+) — verify did not read what (?:it is|they are) in this note$",
     r"\1：verify 没有读懂它在本笔记中的含义"),
    (r"^a matrix \(\\begin\{bmatrix\}\) is not checked as a whole here$",
     "整个矩阵（bmatrix）在这里不做检查"),
    (r"^\\sum without limits: cannot tell which index it runs over$",
     "没有上下限的求和：无法判断对哪个指标求和"),
    (r"^sums run to different upper limits \((.+)\): one vector length please$",
     r"求和上限不同（\1）：请用同一个向量长度"),
    (r"^a prime on something that is not a function$", "撇号（′）加在了不是函数的量上"),
    (r"^a whole vector \(p − y, ∂L/∂z\) inside an expression: vector algebra is not checked$",
     "表达式中出现整个向量（如 p − y、∂L/∂z）：不检查向量运算"),
    (r"^∂/∂ of an expression that the numerator does not contain$", "对分子中不含的表达式求偏导 ∂/∂"),
    (r"^\\cdots here is not part of a written-out sum$", r"这里的 \\cdots 不属于写出的求和"),
    (r"^a written-out sum needs its last term after \\cdots$", r"写出的求和在 \\cdots 之后需要最后一项"),
    (r"^softmax\(…\): expected softmax\(x\) or softmax\(x\)_i$",
     "softmax(…)：应写作 softmax(x) 或 softmax(x)_i"),
    (r"^(.+) applies to nothing here$", r"\1 在这里没有作用对象"),
    (r"^\\partial here is not part of a derivative$", r"这里的 \\partial 不构成导数"),
    (r"^⊙ \(elementwise product of vectors\) is not checked$", "不检查 ⊙（向量逐元素乘积）"),
    (r"^a sum of vectors is not checked$", "不检查向量之和"),
    (r"^a vector against something that is not a vector of the same length$",
     "向量与不是同长度向量的量相比"),
    (r"^a matrix plus something that is not a matrix$", "矩阵加上不是矩阵的量"),
    (r"^a matrix written out plus something that is not one$", "写出的矩阵加上不是矩阵的量"),
    (r"^a (\d+×\d+) matrix plus a (\d+×\d+) one$", r"\1 矩阵加上 \2 矩阵"),
    (r"^a (\d+×\d+) matrix times a (\d+×\d+) one: the shapes do not fit$",
     r"\1 矩阵乘以 \2 矩阵：形状不匹配"),
    (r"^a (\d+×\d+) by (\d+×\d+) product of written matrices is too large to check "
     r"\(over (\d+) multiplications\)$", r"写出的 \1 与 \2 矩阵之积太大，无法检查（超过 \3 次乘法）"),
    (r"^(.+) beside a number: its value in the note's example was not read \(not checked\)$",
     r"\1 与一个数并列：笔记例子中它的值没有读到（不检查）"),
    (r"^∂/∂(\w) beside (\w): one letter written in two cases, or two quantities\? \(not judged\)$",
     r"对 \1 求导，旁边却写着 \2：同一个字母的大小写，还是两个量？（不作判断）"),
    (r"^the label differentiated by the scores: here its letter means something else than the "
     r"label$", "对分数求导的是标签：这里这个字母指的不是标签"),
    (r"^a matrix whose rows and columns end at different letters \((.+)\): its size is not one "
     r"number$", r"矩阵的行和列止于不同的字母（\1）：它的大小不是一个数"),
    (r"^a/b c: \(a/b\)·c or a/\(b c\)\? the note does not say \(write \\frac\{a\}\{b c\} or "
     r"\(a/b\) c\)$", r"a/b c：是 (a/b)·c 还是 a/(b c)？笔记没有写明（请写 \\frac{a}{b c} 或 (a/b) c）"),
    (r"^\^\\top of something that is not a vector$", "对不是向量的量取转置（^⊤）"),
    (r"^(.+) — verify did not read what it is in this note, and the step does not hold for "
     r"every value of it$", r"\1：verify 没有读懂它在本笔记中的含义，而此步并非对它的任何取值都成立"),
    (r"^(.+): a function verify does not evaluate; a claim about its values is not checked$",
     r"\1：verify 不计算这个函数，关于它取值的断言不做检查"),
    (r"^∞ stands for a limit here, which is not checked$", "这里的 ∞ 表示极限，不做检查"),
    (r"^'=' after a part of an earlier expression was worked out on its own: which expression "
     r"it goes on from, the words say$", "先单独算了前式的一部分之后的 “=”：接着哪个式子，要看文字"),
    (r"^holds for (\w+) ≠ (\w+): the entry worked out beside \1 seems to be another \(not read "
     r"as a case\)$", r"在 \1 ≠ \2 时成立：与 \1 并列算出的这一项似乎是另一项（未作为分情况读取）"),
    (r"^holds for (\w+) ≠ (\w+); the display before took \1 = \2, and the note does not say "
     r"this is the other case \(not read as a case\)$",
     r"在 \1 ≠ \2 时成立；上一个公式取的是 \1 = \2，而笔记没有说这一式是另一种情况（未读作分情况）"),
    (r"^holds for (\w) ≠ (\w), which the words before it seem to say \(not read as a case\)$",
     r"在 \1 ≠ \2 时成立，前文似乎是这样说的（未读作分情况）"),
    (r"^(.+) = (.+): two names the note gave no values verify read$",
     r"\1 = \2：两个名字，笔记没有给出 verify 能读懂的值"),
    (r"^E \(or D\) as a letter beside the expectation E\[…\] \(or variance D\(…\)\): a typo, "
     r"or a name the note did not define\?$", "期望 E[…]（或方差 D(…)）旁边的字母 E（或 D）：是笔误，还是笔记没有定义的名字？"),
    (r"^'=' after a case split: which expression it goes on from \(the split's left side or "
     r"one branch\), the words say$", "分情况之后的 “=”：接着哪个式子（分情况的左边还是某一分支），要看文字"),
    (r"^its index is also the name of a vector of the note: (.+)$",
     r"它的下标同时是笔记中一个向量的名字：\1"),
    (r"^softmax\(…\) as a whole vector against something that is not one: vector algebra is "
     r"not checked$", "整个向量 softmax(…) 与不是向量的量相比：不检查向量运算"),
    (r"^the words before it speak of the sigmoid: the output here may not be the softmax's$",
     "前文说的是 sigmoid：这里的输出可能不是 softmax 的输出"),
    (r"^':' between two terms \(A:B, a Frobenius product\): matrix calculus is not checked$",
     "两项之间的 “:”（A:B，Frobenius 积）：不检查矩阵微积分"),
    (r"^q\^2 · k\^2: the squares' dot product or the product of squared norms\? \(not read\)$",
     "q^2 · k^2：是平方向量的点积，还是两个范数平方之积？（未读）"),
    (r"^the note's vectors are unit vectors \(at (.+)\): their components are not independent, "
     r"as verify's model takes them$", r"笔记中的向量是单位向量（见 \1）：其分量并不像 verify 的模型那样相互独立"),
    (r"^the left side of '=' is the word «(.+)», not math$", r"“=” 的左边是文字「\1」，不是公式"),
    (r"^a slice of a matrix \(S_\{:,:j\}\): matrix algebra is not checked$",
     "矩阵切片（S_{:,:j}）：不检查矩阵运算"),
    (r"^(.+) beside a column product x\^\\top y: an outer product \(a matrix\): matrix "
     r"algebra is not checked$", r"\1 与列向量积 xᵀy 并列：这是外积（矩阵），不检查矩阵运算"),
    (r"^the function (.+)\(…\) is not one verify knows$", r"verify 不认识函数 \1(…)"),
    (r"^J_(.+) in a product of matrices: vector and matrix algebra is not checked .*$",
     r"J_\1 出现在矩阵乘积中：不检查向量与矩阵运算（J_x(y) = diag(y) − y yᵀ 这种形式会检查）"),
    (r"^a matrix in vector form \(diag\(y\), y y\^T\) is checked only as a side of '='$",
     "向量形式的矩阵（diag(y)、y yᵀ）只在作为等式一边时检查"),
    (r"^vectors of lengths (\d+) and (\d+) added$", r"长度为 \1 和 \2 的向量相加"),
    (r"^\\sum over pairs i < j of a summand not symmetric in i and j: not checked$",
     "对 i < j 求和而被加项关于 i、j 不对称：不检查"),
    (r"^numbers for the scores of the note's example, whose values verify did not read "
     r"\(not checked\)$", "笔记例子中分数的数值（verify 没有读到这些值，不检查）"),
    (r"^unexpected (.+); expected (.+)$", r"意外的 \1；应为 \2"),
    (r"^the expression ends too early; expected (.+)$", r"表达式提前结束；应为 \1"),
    (r"^a list where one value is expected$", "这里需要一个值，却是一个列表"),
    (r"^one of alternatives joined by 'or'.*$", "用“或”连接的几种情形之一（笔记没说是哪一种）"),
    ((r"^a random quantity equal to a number: the note seems to use values of its own "
     r"\(not checked\)$"), "随机量等于一个数：笔记似乎代入了自己的数值（不检查）"),
    (r"^checking this step took longer than (.+) s$", r"检查这一步超过了 \1 秒"),
    (r"^a moment of this step took longer than (.+) s at (.+)$",
     r"这一步的一个矩在 \2 处已超过 \1 秒，不再重试"),
    (r"^time budget spent \(--timeout (.+) s\)$", r"时间预算已用完（--timeout \1 秒）"),
    (r"^a condition, not a claim$", "条件，不是论断"),
    (r"^read as a hypothesis$", "作为假设读入"),
    (r"^(.+): a function this step does not define$", r"\1：这一步没有定义的函数"),
    (r"^(.+) under d/d(.+): a constant or a function of (.+)\? \(write (.+) for a function\)$",
     r"d/d\2 下的 \1：是常数还是 \3 的函数？（函数请写成 \4）"),
    ((r"^the note says the components of (.+) are correlated \(at (.+)\); verify's model takes "
     r"them as independent$"), r"笔记（\2）说 \1 的各分量相关；verify 的模型假定分量相互独立"),
    (r"^cannot decide whether (.+) is 0$", r"无法判定 \1 是否为 0"),
    (r"^softmax\(…\) is a vector: take a component, softmax\(x\)_i$",
     "softmax(…) 是向量：请取一个分量，如 softmax(x)_i"),
    ((r"^'(\w+)' looks like \\(\w+) with its backslash and first letter lost \(a string escape "
      r"such as \\f or \\t took them\)$"),
     r"'\1' 像是丢了反斜杠和首字母的 \\\2（字符串转义如 \\f、\\t 吃掉了它们）"),
    (r"^a case on a real value \((.+)\) is not applied$", r"不应用关于实数值的分情况（\1）"),
    (r"^'otherwise' after a case verify does not apply$", "“否则”所对的分情况 verify 不应用"),
    (r"^\\cdots here is not part of a written-out vector$", r"这里的 \\cdots 不属于写出的向量"),
    ((r"^cannot read the written-out sum: at which index its singled-out term stands, its "
      r"letters do not say$"), "读不懂写开的求和：单独写出的那一项在哪个指标上，它的字母没有说明"),
    ((r"^cannot read the written-out vector: its entries are not one pattern from the first$"),
     "读不懂写开的向量：从第一项起各项不是同一个模式"),
    (r"^cannot read the written-out sum: no index runs from its first term to its last$",
     "读不懂写开的求和：没有一个指标从第一项走到最后一项"),
    (r"^no entry written out on both sides$", "两边没有共同写出的元素"),
    ((r"^a vector or matrix \(written out, or a Jacobian ∂p/∂z\) inside an expression: vector "
      r"and matrix algebra is not checked$"),
     "表达式中的向量或矩阵（写出的，或雅可比矩阵 ∂p/∂z）：不检查向量与矩阵运算"),
    ((r"^a definition written for particular entries \((.+)\) would be put into a step about "
     r"general ones$"), r"为具体分量（\1）写的定义会被代入关于一般分量的这一步"),
    (r"^a row of \\boxed\{…\} entries \(a vector drawn as boxes\)$",
     r"一排 \\boxed{…}（用方框画出的向量）"),
    (r"^words in place of math \((.+)\): prose, not a formula$", r"用文字代替了公式（\1）：是叙述，不是公式"),
    (r"^an index with a parenthesis, as i\(j\): not understood$", "带括号的下标，如 i(j)：读不懂"),
    (r"^upper indices \(A\^\{ij\}\): index notation is not checked$",
     "上标写的指标（A^{ij}）：不检查张量指标记法"),
    (r"^index 0: components are numbered from 1$", "下标 0：分量从 1 开始编号"),
    ((r"^a sum written out over entries named by letters \(z_a \+ z_b \+ z_c\): the vector's "
      r"length is not said$"), "用字母命名的分量写开的求和（z_a + z_b + z_c）：没有说明向量的长度"),
    (r"^(.+): a capital subscript names a layer \(a whole vector\), not an entry$",
     r"\1：大写下标表示一层（整个向量），不是一个分量"),
    (r"^entries of samples (.+) \(upper indices\) read as one$", r"样本 \1 的分量（上标）被读成了同一个量"),
    ((r"^the variance of a sum splits only for uncorrelated terms, which the note does not say "
      r"\(verify's model takes components as independent\)$"),
     "和的方差只有在各项不相关时才能拆开，而笔记没有这样说（verify 的模型默认分量相互独立）"),
    (r"^a quantity in units \((.+)\): units are not checked$", r"带单位的量（\1）：不检查单位"),
    (r"^(.+) names an entry by a word: which index it is, verify did not read$",
     r"\1 用一个词来指称分量：它是哪个下标，verify 没有读出"),
    ((r"^the note defined (.+) otherwise under an earlier heading \(line (\d+)\): a new meaning "
      r"here, or a claim\?$"), r"笔记在前面的标题下（第 \2 行）对 \1 另有定义：这里是新的含义，还是一个断言？"),
    ((r"^the note defined (.+) in other letters \(line (\d+)\): a new meaning here, or a "
      r"claim\?$"), r"笔记在第 \2 行用另一些字母定义过 \1：这里是新的含义，还是一个断言？"),
    ((r"^the note defined (.+) anew in place \(line (\d+)\): a new meaning here, or a claim\?$"),
     r"笔记在第 \2 行就地重新定义了 \1：这里是新的含义，还是一个断言？"),
    (r"^an expression is missing here$", "这里缺少表达式"),
    (r"^expected an expression after (.+)$", r"\1 之后应有表达式"),
)


class Words:
    """The terminal's words in one language (plain text; formulas through a text printer).

    >>> Words("zh").say("should-be", value="d_k", claimed="√d_k")
    '应为 d_k，而非 √d_k'
    """

    def __init__(self, lang: str) -> None:
        if lang not in LANGS:
            raise TranslationMissing(f"unknown language {lang!r}; attncheck speaks {', '.join(LANGS)}")
        self.lang: Lang = lang  # type: ignore[assignment]

    def say(self, key: str, **fields: object) -> str:
        try:
            sentence = SENTENCES[key][self.lang]
        except KeyError:
            raise TranslationMissing(f"no {self.lang} sentence {key!r}; add it to attncheck/i18n.py") from None
        return sentence.format(**fields) if fields else sentence

    def rule(self, use: RuleUse, math: Callable[[Expr], str]) -> str:
        """A step's rules in words, formulas written by ``math`` (the terminal's printer)."""
        return "".join(f if isinstance(f, str) else math(f) for f in rule_fragments(use, self.lang))

    def note(self, text: str) -> str:
        """verify's reason for not judging a step, in this language (see NOTES_ZH)."""
        if self.lang == "en":
            return text
        text = text.replace(" without an index", "（无下标）")  # inside lists of names too
        for pattern, replacement in NOTES_ZH:
            if re.match(pattern, text):
                return re.sub(pattern, replacement, text)
        return text

    def claim(self, title: str) -> str:
        """A catalogue claim's title in this language (the English title when no translation exists:
        the terminal shows it rather than stopping; tests require every title translated)."""
        return title if self.lang == "en" else CLAIMS.get(title, title)


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
        """A step's given reason: a rule id (derivations.rules.Rule) or one of REASONS."""
        rule = _RULE_IDS.get(reason)
        if rule is not None:
            return self.rule(RuleUse((rule,)))
        return self.render(self._entry(REASONS, reason, "step reason"))

    def rule(self, use: RuleUse) -> str:
        """The rules of a step as text-mode LaTeX (plain words escaped, formulas as math)."""
        return "".join(escape(f) if isinstance(f, str) else f"${self.printer.doprint(f)}$"
                       for f in rule_fragments(use, self.lang))

    def word(self, key: str) -> str:
        return self.render(self._entry(WORDS, key, "word"))

    def title(self, key: str) -> str:
        return self.render(self._entry(TITLES, key, "title"))

    def notes(self, key: str, **fields: object) -> str:
        """A word or sentence of a deck from a note (:data:`NOTES`), ``{fields}`` filled in."""
        try:
            text = NOTES[key][self.lang]
        except KeyError:
            raise TranslationMissing(f"no {self.lang} words {key!r} for a deck from a note; "
                                     "add them to attncheck/i18n.py") from None
        return text.format(**fields) if fields else text

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
