r"""
周志华 习题3.4 / Zhou Zhihua, exercise 3.4: 10-fold cross-validation vs leave-one-out
=====================================================================================

**题目**：选择两个 UCI 数据集，比较 10 折交叉验证法和留一法所估计出的对率回归的错误率。

**Question**: choose two UCI data sets and compare the error rates of logistic regression
estimated by 10-fold cross-validation and by leave-one-out (§2.2.2).

**答案 / Answer**: on UCI's *Iris* (the two overlapping species versicolor and virginica, 100
rows) and UCI's *Wine* (178 rows, 3 cultivars; softmax logistic regression), the two estimates
are close: they differ by less than the spread of 10-fold cross-validation over its random
partitions, which the book's recommendation of "10 次 10 折交叉验证" (§2.2.2) is about. LOO is
deterministic (no partition to draw) and nearly unbiased (each model trains on m-1 rows) but
costs m fits instead of 10; its fold errors are 0/1, so its estimate is a multiple of 1/m.

The copies of the two UCI sets that ship with scikit-learn are used (the site builds offline).
:class:`hyperplane.linear.LogisticRegression` (``C=1``, standardised attributes) is the learner;
the folds are scikit-learn's ``StratifiedKFold`` and ``LeaveOneOut``, and the first partition's
estimate is also computed with scikit-learn's ``LogisticRegression`` (the same objective).

**答案（中文）**：在 UCI 的 Iris（versicolor 与 virginica 两类，100 行）与 Wine（178 行，3 类，softmax 对率回归）上，10 折交叉验证与留一法估计的错误率很接近，差别小于 10 折交叉验证在不同随机划分之间的波动，这正是 §2.2.2 建议“10 次 10 折交叉验证”的原因。留一法没有随机划分、几乎无偏（每个模型用 m − 1 个样本训练），但要训练 m 次；它的每一折错误为 0 或 1，估计值是 1/m 的整数倍。

**与公开解答比较 / Compared with public solutions**

公开解答（han1057578619 的习题集）的做法与本页相同（scikit-learn 的 10 折交叉验证与 LeaveOneOut，对率回归），但只用了一个 UCI 数据集（Blood Transfusion），题目要求两个；其结论（两种估计接近）与本页一致。

The public solution set of han1057578619 does what this page does (scikit-learn's 10-fold
cross-validation and LeaveOneOut around logistic regression) but on one UCI data set (Blood
Transfusion) where the question asks for two; its conclusion, that the two estimates are close,
agrees with this page.
"""

import matplotlib.pyplot as plt
import numpy as np
from sklearn.datasets import load_iris, load_wine
from sklearn.linear_model import LogisticRegression as SklearnLogisticRegression
from sklearn.model_selection import LeaveOneOut, StratifiedKFold

from hyperplane.linear import LogisticRegression
from hyperplane.plot import apply_cjk_font

iris = load_iris()
datasets = {"Iris (versicolor vs virginica)": (iris.data[50:], iris.target[50:]),
            "Wine (3 classes)": load_wine(return_X_y=True)}


def error_rate(X, y, splits, learner=LogisticRegression):
    """The fraction of rows misclassified when each fold is predicted by a model of the others."""
    wrong = 0
    for train, test in splits:
        mean, std = X[train].mean(axis=0), X[train].std(axis=0)
        Z = (X - mean) / std
        model = learner(C=1.0, tol=1e-8).fit(Z[train], y[train])
        wrong += np.sum(model.predict(Z[test]) != y[test])
    return wrong / len(y)


results = {}
for name, (X, y) in datasets.items():
    loo = error_rate(X, y, LeaveOneOut().split(X))
    folds = [list(StratifiedKFold(10, shuffle=True, random_state=seed).split(X, y)) for seed in range(10)]
    cv = np.array([error_rate(X, y, splits) for splits in folds])
    peer = error_rate(X, y, folds[0], learner=lambda **kw: SklearnLogisticRegression(max_iter=10000, **kw))
    results[name] = (loo, cv)
    print(f"{name}: m = {len(y)}")
    print(f"  leave-one-out error  {loo:.4f}")
    print(f"  10-fold CV error     {cv.mean():.4f} +- {cv.std():.4f} over 10 random partitions "
          f"(min {cv.min():.4f}, max {cv.max():.4f}); first partition {cv[0]:.4f}, "
          f"scikit-learn on it {peer:.4f}")
    assert abs(cv[0] - peer) <= 2 / len(y)  # the same model up to a borderline row or two
    assert abs(loo - cv.mean()) <= max(3 * cv.std(), 2 / len(y))

figure, ax = plt.subplots(figsize=(6, 3.5))
for k, (name, (loo, cv)) in enumerate(results.items()):
    ax.scatter(np.full(len(cv), k) + np.linspace(-0.1, 0.1, len(cv)), cv, label="10-fold (10 partitions)" if k == 0 else None, c="C0")
    ax.scatter([k], [loo], marker="*", s=200, c="C3", label="leave-one-out" if k == 0 else None)
ax.set_xticks(range(len(results)), list(results), fontsize=8)
ax.set_ylabel("estimated error rate")
ax.set_title("习题3.4: 10 折交叉验证与留一法")
ax.legend()
apply_cjk_font(figure)
plt.show()
