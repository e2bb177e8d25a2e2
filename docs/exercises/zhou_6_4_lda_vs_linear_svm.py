r"""
周志华 习题6.4 / Zhou Zhihua, exercise 6.4: when LDA and the linear SVM are equivalent
======================================================================================

**题目**：试讨论线性判别分析与线性核支持向量机在何种条件下等价。

**Question**: discuss under which conditions linear discriminant analysis and the linear-kernel
support vector machine are equivalent.

**答案 / Answer**. Both give a linear rule :math:`\operatorname{sign}(w^Tx+b)`; compare their
:math:`w`. LDA (式3.39): :math:`w\propto S_w^{-1}(\mu_1-\mu_0)`, fixed by the class means and the
pooled within-class scatter of *all* samples. The soft-margin SVM (式6.37–6.40):
:math:`w=\sum_i\alpha_iy_ix_i` with :math:`0\le\alpha_i\le C`, :math:`\sum_i\alpha_iy_i=0`, fixed by the
support vectors only. In general they differ (the SVM ignores the samples far from the boundary,
LDA weighs all). They coincide when:

1. *Every sample is a bounded support vector* (:math:`\alpha_i=C` for all :math:`i`). This happens
   for a small enough :math:`C` when the classes are of equal size (then :math:`\sum_i\alpha_iy_i=0`
   allows all :math:`\alpha_i=C`), and gives
   :math:`w=C\sum_iy_ix_i=C\,\frac m2(\mu_1-\mu_0)\propto\mu_1-\mu_0`, the direction of the mean
   difference;
2. *and the mean difference is LDA's direction*: :math:`S_w^{-1}(\mu_1-\mu_0)\propto\mu_1-\mu_0`,
   i.e. :math:`\mu_1-\mu_0` is an eigenvector of :math:`S_w`, e.g. isotropic within-class scatter
   :math:`S_w\propto I` — or after whitening the data by :math:`S_w^{-1/2}`, which turns LDA into
   the mean difference. The thresholds then agree too when the projected class means are placed
   symmetrically about the boundary (equal sizes, as above).

Under 1 and 2 the SVM's :math:`w` is parallel to LDA's. (Another view: LDA is least squares
regression on class targets, 式3.11 with targets :math:`\pm m/m_\pm`; an SVM with the squared
hinge and every sample inside the margin is the same least squares problem plus a penalty.)

The page checks both directions with :class:`hyperplane.linear.FisherDiscriminant` and
:class:`hyperplane.svm.SVC` on balanced Gaussian classes. With anisotropic scatter and every :math:`\alpha_i=C` the SVM's
:math:`w` is the mean difference, far from LDA's (cosine 0.55); at other :math:`C` it can come close
to LDA's direction by chance (here at :math:`C=1`), with no guarantee. After whitening, once every
:math:`\alpha_i=C` the two directions coincide.

**答案（中文）**：两者都给出线性规则 sign(wᵀx + b)，比较它们的 w。LDA（式3.39）：w ∝ S_w⁻¹(μ₁ − μ₀)，由类均值与全部样本的类内散度决定；软间隔 SVM（式6.37–6.40）：w = Σ α_i y_i x_i，0 ≤ α_i ≤ C，只由支持向量决定。一般二者不同。它们在以下条件下一致：(1) 每个样本都是取到上界的支持向量（α_i = C，例如 C 很小且两类样本数相等），此时 w = C Σ y_i x_i ∝ μ₁ − μ₀；(2) 且均值差正是 LDA 的方向，即 μ₁ − μ₀ 是 S_w 的特征向量（例如 S_w ∝ I，或用 S_w^(−1/2) 白化之后）。两类样本数相等时阈值也一致。满足 1 和 2 时 SVM 的 w 平行于 LDA 的 w。

**与公开解答比较 / Compared with public solutions**

公开解答（han1057578619 的习题集）没有给出明确答案：它把“等价”理解为决策边界重合，并认为当 SVM 的 w 与 LDA 的投影方向 w 垂直、且边界过两类中心投影的中点时二者等价。“垂直”是错的：LDA 的决策边界垂直于其投影方向 w，SVM 的边界垂直于其 w，所以边界重合要求两个 w 平行（同向或反向）且阈值相同。本页给出了在什么数据条件下这种情形成立，并用库中的两个模型检验。

The public solution set of han1057578619 gives no definite answer: it reads "equivalent" as "the
same decision boundary" and says this happens when the SVM's w is perpendicular to LDA's projection
direction and the boundary passes through the midpoint of the projected class means. "Perpendicular"
is wrong: LDA's boundary is perpendicular to its direction w and the SVM's boundary to its own w, so
the boundaries coincide when the two w are parallel (same or opposite sign) with the same threshold.
This page states data conditions under which that happens and checks them with the library's two
models.
"""

import matplotlib.pyplot as plt
import numpy as np

from hyperplane.linear import FisherDiscriminant
from hyperplane.plot import apply_cjk_font
from hyperplane.svm import SVC

rng = np.random.default_rng(0)
cov = np.array([[3.0, 1.2], [1.2, 0.8]])
X = np.vstack([rng.multivariate_normal([0, 0], cov, 60), rng.multivariate_normal([2.0, 1.5], cov, 60)])
y = np.r_[np.zeros(60), np.ones(60)]


def cosine(a, b):
    return abs(a @ b) / np.linalg.norm(a) / np.linalg.norm(b)


def compare(X, label):
    lda = FisherDiscriminant().fit(X, y).coef_[0]
    rows = []
    for C in (100.0, 1.0, 0.01, 1e-4):
        svm = SVC(kernel="linear", C=C, tol=1e-8).fit(X, y)
        all_bounded = np.all(np.isclose(svm.alpha_, C, rtol=1e-6))
        rows.append((C, cosine(svm.coef_[0], lda), all_bounded))
        print(f"{label}, C = {C:g}: cos(w_SVM, w_LDA) = {rows[-1][1]:.6f}, every alpha_i = C: {all_bounded}")
    return lda, rows


lda_raw, raw = compare(X, "raw data")
Xc = X - X.mean(0)
within = sum((Xc[y == c] - Xc[y == c].mean(0)).T @ (Xc[y == c] - Xc[y == c].mean(0)) for c in (0, 1))
values, vectors = np.linalg.eigh(within)
whiten = vectors @ np.diag(values ** -0.5) @ vectors.T   # S_w^(-1/2)
lda_white, white = compare(X @ whiten, "whitened")
mean_difference = (X @ whiten)[y == 1].mean(0) - (X @ whiten)[y == 0].mean(0)
print(f"whitened: cos(w_LDA, mu1 - mu0) = {cosine(lda_white, mean_difference):.6f}")
assert raw[-1][2] and raw[-1][1] < 0.9                   # raw, all bounded: the mean difference, not LDA
assert white[-1][2] and white[-1][1] > 1 - 1e-6          # whitened, all bounded: LDA's direction

figure, ax = plt.subplots(figsize=(5.5, 3.5))
for rows, label in ((raw, "raw"), (white, "whitened")):
    ax.semilogx([C for C, _, _ in rows], [1 - c for _, c, _ in rows], "o-", label=label)
ax.set_yscale("symlog", linthresh=1e-8)
ax.set_xlabel("C")
ax.set_ylabel("1 - cos(w_SVM, w_LDA)")
ax.set_title("习题6.4: 线性 SVM 何时等价于 LDA")
ax.legend()
apply_cjk_font(figure)
plt.show()
