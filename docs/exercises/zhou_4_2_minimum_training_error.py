r"""
周志华 习题4.2 / Zhou Zhihua, exercise 4.2: "minimum training error" as the split criterion
===========================================================================================

**题目**：试析使用“最小训练误差”作为决策树划分选择准则的缺陷。

**Question**: analyse the drawbacks of using "minimum training error" as the split selection
criterion of a decision tree.

**答案 / Answer**.

1. *It overfits.* Driving the training error down is exactly what a fully grown tree already does
   (习题4.1: zero error whenever no data conflict); choosing splits by it says nothing about
   generalisation, so it needs pruning on other grounds (§4.3) more than any criterion does.
2. *It is coarse and often flat.* The error of a node only changes when a child's majority class
   changes. A split that makes children much purer but keeps the same majority in each child
   lowers the error by nothing, so the criterion cannot see the progress that entropy or the Gini
   index see (both are strictly concave in the class proportions, so any split that changes the
   proportions lowers them). Many attributes then tie at zero improvement, and greedy growth stalls
   or chooses arbitrarily, even where two levels of splits would separate the classes (the XOR
   situation).
3. *It ignores the class distribution in the leaves*, which matters for probability estimates and
   for later splits.

The page counts, at the root of 西瓜数据集2.0 and then of the 表4.2 training set, the training
errors left by each attribute next to information gain and Gini gain from
:func:`hyperplane.tree.split_table` (and recomputes the error by hand), showing the ties and a
split with positive gain but no error decrease; on an XOR-like table no single split lowers the
error at all, while the tree grown by information gain reaches zero error.

**答案（中文）**：(1) 过拟合：降低训练误差正是完全生长的树本来就做到的（习题4.1：无冲突时误差为 0），以它为准则对泛化没有帮助，比其他准则更依赖剪枝（§4.3）。(2) 粗糙、常常持平：结点的训练误差只在某个子结点的多数类改变时才变化，使子结点更纯但多数类不变的划分毫无改进，许多属性并列为 0，贪心生长会停滞或随意选择；信息熵与基尼指数是类别比例的严格凹函数，任何改变比例的划分都使它们下降（异或型数据上，单次划分都不能降低误差）。(3) 它不管叶结点中的类别分布，而这对概率估计和之后的划分都重要。本页在西瓜数据集 2.0 与表4.2 的训练集上逐属性比较了训练误差与信息增益、基尼增益。

**与公开解答比较 / Compared with public solutions**

公开解答（han1057578619 的习题集）没有给出答案，只提到网上常见的“会过拟合”之说。那是本页的第 1 点；本页的第 2 点（训练误差只在子结点多数类改变时才变化，许多划分得分相同）才是它比信息增益、基尼指数更差的具体原因，本页用例子验证了这一点。

The public solution set of han1057578619 leaves this open and mentions only the common answer "it
overfits". That is point 1 of this page; point 2 (the training error changes only when a child's
majority changes, so many splits tie) is the specific reason it is worse than information gain or
the Gini index, and the page checks it on an example.
"""

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from hyperplane.datasets import load_watermelon
from hyperplane.plot import apply_cjk_font
from hyperplane.tree import DecisionTreeClassifier, split_table


def errors_after(X, y, attribute):
    """Training errors when each branch of the attribute predicts its majority class."""
    return int(sum(len(g) - g.value_counts().max() for _, g in y.groupby(X[attribute])))


X, y = load_watermelon("2.0")
tables = {}
for name, rows in (("西瓜数据集2.0", X.index), ("表4.2 training set", [1, 2, 3, 6, 7, 10, 14, 15, 16, 17])):
    Xs, ys = X.loc[rows], y.loc[rows]
    table = pd.DataFrame({
        "errors after": {a: errors_after(Xs, ys, a) for a in X.columns},
        "info gain": split_table(Xs, ys, criterion="info_gain")["info_gain"],
        "gini gain": split_table(Xs, ys, criterion="gini")["gini_gain"]})
    tables[name] = table
    print(f"{name}: {len(ys) - ys.value_counts().max()} errors before splitting")
    print(table.round(3).to_string(), "\n")
root, train = tables["西瓜数据集2.0"], tables["表4.2 training set"]
flat = train[train["errors after"] == train["errors after"].min()]
print("表4.2: attributes tied at the minimum error:", list(flat.index),
      "- information gain separates them:", flat["info gain"].round(3).tolist())
assert len(flat) >= 4
no_progress = root[(root["errors after"] == 8) & (root["info gain"] > 0)]
print("西瓜数据集2.0: positive information gain but no fewer errors:", list(no_progress.index))
assert list(no_progress.index) == ["触感"]

# %%
# XOR: no single split lowers the error
# -------------------------------------
xor = pd.DataFrame({"a": list("0011") * 5, "b": list("0101") * 5, "c": list("01") * 10})
label = pd.Series(np.where(xor["a"] != xor["b"], "是", "否"))
print({a: errors_after(xor, label, a) for a in xor.columns}, "errors after each split;",
      len(label) - label.value_counts().max(), "before")
assert all(errors_after(xor, label, a) == 10 for a in xor.columns)
tree = DecisionTreeClassifier().fit(xor, label)
print("information-gain tree on XOR: training accuracy", tree.score(xor, label))

figure, ax = plt.subplots(figsize=(6, 3.5))
root.sort_values("info gain").plot.barh(y=["info gain", "gini gain"], ax=ax)
for k, (a, e) in enumerate(root.sort_values("info gain")["errors after"].items()):
    ax.text(0.01, k, f"errors {e}", va="center", fontsize=8)
ax.set_title("习题4.2: 根结点各属性 (西瓜数据集2.0)")
apply_cjk_font(figure)
plt.show()
