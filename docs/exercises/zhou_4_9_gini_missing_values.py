r"""
周志华 习题4.9 / Zhou Zhihua, exercise 4.9: the missing-value rules of §4.4.2 for the Gini index
================================================================================================

**题目**：试将 4.4.2 节对缺失值的处理机制推广到基尼指数的计算中去。

**Question**: extend the handling of missing values of §4.4.2 to the computation of the Gini index.

**答案 / Answer**. Keep §4.4.2's notation: sample weights :math:`w_x` (1 at the root),
:math:`\tilde D` the samples whose value of :math:`a` is known, and (式4.9–4.11)
:math:`\rho=\frac{\sum_{x\in\tilde D}w_x}{\sum_{x\in D}w_x}`,
:math:`\tilde p_k=\frac{\sum_{x\in\tilde D_k}w_x}{\sum_{x\in\tilde D}w_x}`,
:math:`\tilde r_v=\frac{\sum_{x\in\tilde D^v}w_x}{\sum_{x\in\tilde D}w_x}`. Then, as 式4.12 does for
the information gain,

.. math::

   \operatorname{Gini}(\tilde D)=1-\sum_k\tilde p_k^2,\qquad
   \operatorname{Gini\_index}(\tilde D,a)=\sum_v\tilde r_v\operatorname{Gini}(\tilde D^v),

.. math::

   \Delta\operatorname{Gini}(D,a)=\rho\times\big(\operatorname{Gini}(\tilde D)-\operatorname{Gini\_index}(\tilde D,a)\big),

and the attribute with the largest :math:`\Delta\operatorname{Gini}` is chosen (all class
proportions weighted by :math:`w_x`). Note that the weighting by :math:`\rho` must act on the
*decrease* of impurity: multiplying 式4.6's Gini_index itself by :math:`\rho` and taking the
smallest would favour attributes with *more* missing values. The second question, how a sample with
a missing value is divided, is answered exactly as in §4.4.2: it enters every branch
:math:`\tilde D^v` with weight :math:`\tilde r_v\cdot w_x`.

:class:`hyperplane.tree.DecisionTreeClassifier` (``criterion="gini"``) and
:func:`hyperplane.tree.split_table` use these rules. The page recomputes, on 西瓜数据集2.0α
(表4.4), the root's :math:`\rho`, Gini_index and :math:`\Delta\operatorname{Gini}` by hand and,
one level down in the branch 纹理 = 清晰 (where the melons with an unknown 纹理 enter with weight
7/15), the weighted values, and compares them with ``split_table``. In that branch the rule matters: 脐部 has the
smallest Gini_index (0, on its known rows) but only 75% of the weight is known, and
:math:`\Delta\operatorname{Gini}` chooses 根蒂 (known for every melon) instead; minimising
:math:`\rho\times\operatorname{Gini\_index}` would choose 脐部.

**答案（中文）**：沿用 §4.4.2 的记号：样本权重 w_x，D̃ 为属性 a 上无缺失的样本，ρ、p̃_k、r̃_v 如式4.9–4.11。仿照式4.12，令 Gini(D̃) = 1 − Σ_k p̃_k²，Gini_index(D̃, a) = Σ_v r̃_v Gini(D̃^v)，ΔGini(D, a) = ρ × (Gini(D̃) − Gini_index(D̃, a))，选 ΔGini 最大的属性。ρ 必须乘在不纯度的减少量上：若把式4.6 的 Gini_index 本身乘以 ρ 再取最小，缺失越多的属性反而越占便宜。缺失值样本的划分与 §4.4.2 相同：以权重 r̃_v · w_x 进入每个分支 D̃^v。库中的 DecisionTreeClassifier（criterion="gini"）与 split_table 使用这些规则，本页在西瓜数据集 2.0α（表4.4）上手算核对。

**与公开解答比较 / Compared with public solutions**

公开解答（han1057578619 的习题集）给出 Gini_index(D, a) = ρ × Gini_index(D̃, a) 并取最小者。这与本页不同，本页是对的：ρ 乘在加权不纯度上再取最小，缺失越多的属性 ρ 越小、得分越低，反而越容易被选中，与 §4.4.2 的本意（缺失多的属性应受惩罚）相反；书中式4.12 把 ρ 乘在增益上，相应地本页把 ρ 乘在基尼指数的减少量 Gini(D̃) - Gini_index(D̃, a) 上再取最大。本页在 纹理 = 清晰 分支中算出了区别：最小化 ρ × Gini_index 会选已知部分不纯度为 0、但只有 75% 权重已知的 脐部，本页的规则选每个瓜都已知的 根蒂。

The public solution set of han1057578619 gives Gini_index(D, a) = ρ × Gini_index(D̃, a) and picks
the smallest. This page differs and is right: multiplying the weighted impurity by ρ and minimising
favours the attribute with the most missing values (the smaller ρ, the smaller its score), the
opposite of §4.4.2's intent that missing values count against an attribute; 式4.12 multiplies the
gain by ρ, and accordingly this page multiplies the decrease Gini(D̃) - Gini_index(D̃, a) by ρ and
takes the largest. The page shows
the difference in the branch 纹理 = 清晰: minimising ρ × Gini_index would choose 脐部 (impurity 0 on its
known rows, but only 75% of the weight known), this page's rule chooses 根蒂, known for every melon.
"""

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from hyperplane.datasets import load_watermelon
from hyperplane.plot import apply_cjk_font, cjk_rc, plot_tree
from hyperplane.tree import DecisionTreeClassifier, split_table

X, y = load_watermelon("2.0alpha")


def gini_scores(X, y, w):
    """(rho, Gini_index, Delta Gini) of every attribute, by 式4.9-4.11 with the Gini index."""
    def gini(labels, weights):
        p = weights.groupby(labels).sum() / weights.sum()
        return 1.0 - (p ** 2).sum()
    out = {}
    for a in X.columns:
        known = X[a].notna()
        rho = w[known].sum() / w.sum()
        Xk, yk, wk = X.loc[known, a], y[known], w[known]
        index = sum(wk[Xk == v].sum() / wk.sum() * gini(yk[Xk == v], wk[Xk == v]) for v in Xk.unique())
        out[a] = (rho, index, rho * (gini(yk, wk) - index))
    return pd.DataFrame(out, index=["rho", "Gini_index", "Delta Gini"]).T


# %%
# 根结点 / The root
# -----------------
w = pd.Series(1.0, index=X.index)
ours = gini_scores(X, y, w)
library = split_table(X, y, criterion="gini")
ours["split_table gini_index"], ours["split_table gini_gain"] = library["gini_index"], library["gini_gain"]
print(ours.round(4).to_string())
np.testing.assert_allclose(ours["Gini_index"], ours["split_table gini_index"], atol=1e-12)
np.testing.assert_allclose(ours["Delta Gini"], ours["split_table gini_gain"], atol=1e-12)
print("largest Delta Gini:", ours["Delta Gini"].idxmax(),
      " | smallest rho * Gini_index (the wrong extension):", (ours["rho"] * ours["Gini_index"]).idxmin())
assert ours["Delta Gini"].idxmax() == "纹理"

# %%
# 纹理 = 清晰: the rows with an unknown 纹理 come in with weight r_v
# ------------------------------------------------------------------
known = X["纹理"].notna()
r = (X.loc[known, "纹理"] == "清晰").mean()
child = (X["纹理"] == "清晰") | ~known
w_child = pd.Series(np.where(known[child], 1.0, r), index=X.index[child])
print(f"r_清晰 = {r:.4f}; {int((~known).sum())} melons enter with that weight")
rest = [a for a in X.columns if a != "纹理"]
ours_child = gini_scores(X.loc[child, rest], y[child], w_child)
library_child = split_table(X.loc[child, rest], y[child], criterion="gini", sample_weight=w_child.to_numpy())
ours_child["split_table gini_gain"] = library_child["gini_gain"]
print(ours_child.round(4).to_string())
np.testing.assert_allclose(ours_child["Delta Gini"], ours_child["split_table gini_gain"], atol=1e-12)
wrong = (ours_child["rho"] * ours_child["Gini_index"]).idxmin()
print("largest Delta Gini:", ours_child["Delta Gini"].idxmax(), " | smallest rho * Gini_index:", wrong)
assert ours_child["Delta Gini"].idxmax() == "根蒂" and wrong == "脐部"

tree = DecisionTreeClassifier(criterion="gini").fit(X, y)
print("training accuracy of the Gini tree on 2.0α:", round(tree.score(X, y), 3))
with cjk_rc():
    figure, ax = plt.subplots(figsize=(10, 5))
    plot_tree(tree, ax=ax, title="习题4.9: 基尼指数 + 缺失值处理, 西瓜数据集2.0α")
apply_cjk_font(figure)
plt.show()
