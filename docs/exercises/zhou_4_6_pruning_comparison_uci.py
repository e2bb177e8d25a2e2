r"""
周志华 习题4.6 / Zhou Zhihua, exercise 4.6: unpruned, pre- and post-pruned trees on UCI data
============================================================================================

**题目**：试选择 4 个 UCI 数据集，对上述 3 种算法所产生的未剪枝、预剪枝、后剪枝决策树进行实验比较，并进行适当的统计显著性检验。

**Question**: choose 4 UCI data sets and compare, experimentally, the unpruned, pre-pruned and
post-pruned decision trees produced by the three algorithms above (习题4.3–4.5), with a suitable
test of statistical significance.

**答案 / Answer**: the page compares six learners, {information gain (习题4.3), Gini index
(习题4.4)} × {unpruned, pre-pruned, post-pruned}, of :class:`hyperplane.tree.DecisionTreeClassifier`
on four UCI data sets (the copies bundled with scikit-learn, so the site builds offline: *Iris*,
*Wine*, *Breast Cancer Wisconsin (Diagnostic)*, and 400 rows of *Optical Recognition of
Handwritten Digits*), by 5-fold cross-validation; in each fold a third of the training rows is the
validation set that pruning uses (§4.3), and every learner trains on the same two thirds.
The logistic-regression tree of 习题4.5 is left out: hyperplane has it only as the page's own code.

With :math:`k=6` learners on :math:`N=4` data sets, the Friedman test of §2.4.4 (式2.34–2.35) on
the average ranks decides whether the learners differ, and the Nemenyi critical difference
(式2.36, :math:`q_{0.05}=2.850` for :math:`k=6`) which pairs do. With only four data sets the
critical difference is large (:math:`CD\approx3.77` ranks), so the test can only separate learners
whose average ranks are far apart; the page prints whatever the data give, and checks its Friedman
statistic against scipy's ``friedmanchisquare`` (which also corrects for tied ranks: on Iris all
six learners tie).

**答案（中文）**：本页比较六种学习器：{信息增益（习题4.3），基尼指数（习题4.4）} × {未剪枝，预剪枝，后剪枝}，在四个 UCI 数据集（scikit-learn 自带的 Iris、Wine、Breast Cancer Wisconsin (Diagnostic) 与 Optical Recognition of Handwritten Digits 的 400 行）上做 5 折交叉验证，每折取训练集的三分之一作剪枝用的验证集。用 §2.4.4 的 Friedman 检验（式2.34–2.35）判断学习器是否有差别，再用 Nemenyi 临界值域（k = 6 时 q₀.₀₅ = 2.850，CD ≈ 3.77）看哪些学习器之间有差别；只有四个数据集时临界值域很大，只能区分平均序值相差很远的学习器。习题4.5 的对率回归树只有本页自己的代码，未列入。

**与公开解答比较 / Compared with public solutions**

公开解答（han1057578619 的习题集）只在 Iris 一个数据集上试了剪枝后的精度，没有做显著性检验。本页用四个 UCI 数据集、六种学习器并做了 Friedman 检验与 Nemenyi 后续检验，比公开解答完整。

The public solution set of han1057578619 tries pruning on Iris alone and does no significance test.
This page uses four UCI data sets and six learners with a Friedman test and the Nemenyi post-hoc
test, which the question asks for.
"""

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from scipy.stats import f as f_distribution
from scipy.stats import friedmanchisquare, rankdata
from sklearn.datasets import load_breast_cancer, load_digits, load_iris, load_wine
from sklearn.model_selection import StratifiedKFold, train_test_split

from hyperplane.plot import apply_cjk_font
from hyperplane.tree import DecisionTreeClassifier

digits = load_digits()
datasets = {"Iris": load_iris(return_X_y=True), "Wine": load_wine(return_X_y=True),
            "Breast Cancer": load_breast_cancer(return_X_y=True),
            "Digits (400)": (digits.data[:400], digits.target[:400])}
learners = [(criterion, pruning) for criterion in ("info_gain", "gini") for pruning in (None, "pre", "post")]
names = [f"{c}/{p or 'none'}" for c, p in learners]

accuracy = pd.DataFrame(index=list(datasets), columns=names, dtype=float)
for data_name, (X, y) in datasets.items():
    scores = {name: [] for name in names}
    for train, test in StratifiedKFold(5, shuffle=True, random_state=0).split(X, y):
        fit_rows, valid_rows = train_test_split(train, test_size=1 / 3, random_state=0, stratify=y[train])
        for (criterion, pruning), name in zip(learners, names):
            tree = DecisionTreeClassifier(criterion=criterion, pruning=pruning)
            tree.fit(X[fit_rows], y[fit_rows],
                     validation_data=(X[valid_rows], y[valid_rows]) if pruning else None)
            scores[name].append(tree.score(X[test], y[test]))
    accuracy.loc[data_name] = [np.mean(scores[name]) for name in names]
print(accuracy.round(3).to_string())

# %%
# Friedman 检验与 Nemenyi 后续检验 / Friedman and Nemenyi tests (§2.4.4)
# ----------------------------------------------------------------------
N, k = accuracy.shape
ranks = np.vstack([rankdata(-row) for row in accuracy.to_numpy()])  # 1 = best; ties share ranks
mean_rank = ranks.mean(axis=0)
chi2 = 12 * N / (k * (k + 1)) * (np.sum(mean_rank ** 2) - k * (k + 1) ** 2 / 4)   # 式2.34
tau_f = (N - 1) * chi2 / (N * (k - 1) - chi2)                                      # 式2.35
critical = f_distribution.ppf(0.95, k - 1, (k - 1) * (N - 1))
cd = 2.850 * np.sqrt(k * (k + 1) / (6 * N))                                        # 式2.36
print("average ranks:", dict(zip(names, mean_rank.round(2))))
print(f"chi2_F = {chi2:.3f}, tau_F = {tau_f:.3f}, F_0.05({k - 1}, {(k - 1) * (N - 1)}) = {critical:.3f}: "
      + ("the learners differ" if tau_f > critical else "no significant difference"))
print(f"Nemenyi CD = {cd:.3f}; pairs farther apart than CD:",
      [(names[i], names[j]) for i in range(k) for j in range(i + 1, k)
       if abs(mean_rank[i] - mean_rank[j]) > cd] or "none")
# scipy divides by a correction for tied ranks, 1 - sum(t^3 - t) / (N k (k^2 - 1)) over the ties
ties = sum(np.sum(counts ** 3 - counts) for counts in
           (np.unique(row, return_counts=True)[1] for row in ranks))
scipy_chi2 = friedmanchisquare(*accuracy.to_numpy().T).statistic
print(f"scipy's friedmanchisquare {scipy_chi2:.3f} = chi2_F / tie correction "
      f"{chi2 / (1 - ties / (N * k * (k * k - 1))):.3f}")
assert np.isclose(scipy_chi2, chi2 / (1 - ties / (N * k * (k * k - 1))))

figure, ax = plt.subplots(figsize=(6, 3.5))
order = np.argsort(mean_rank)
ax.errorbar(mean_rank[order], range(k), xerr=cd / 2, fmt="o", capsize=4)
ax.set_yticks(range(k), [names[i] for i in order])
ax.set_xlabel("average rank (Nemenyi: intervals that do not overlap differ)")
ax.set_title("习题4.6: Friedman 检验图 (图2.8 的画法)")
apply_cjk_font(figure)
plt.show()
