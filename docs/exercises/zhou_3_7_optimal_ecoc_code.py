r"""
周志华 习题3.7 / Zhou Zhihua, exercise 3.7: the optimal ECOC code of length 9 for 4 classes
===========================================================================================

**题目**：令码长为 9，类别数为 4，试给出海明距离意义下理论最优的 ECOC 二元码并证明之。

**Question**: with code length 9 and 4 classes, give an ECOC binary code that is optimal in the
sense of Hamming distance, and prove it.

**答案 / Answer**: the best achievable minimum Hamming distance between two codewords is 6, for
example (one row per class :math:`C_1..C_4`, one column per binary learner :math:`f_1..f_9`)

.. math::

   \begin{array}{c|ccccccccc}
   C_1&+&+&+&+&+&+&+&+&+\\ C_2&+&+&+&-&-&-&-&-&-\\
   C_3&-&-&-&+&+&+&-&-&-\\ C_4&-&-&-&-&-&-&+&+&+\end{array}

in which every pair of classes differs in exactly 6 places. *Proof of the bound.* A column that
puts :math:`k` classes on one side and :math:`4-k` on the other separates :math:`k(4-k)\le4`
of the :math:`\binom42=6` pairs (4 for a 2–2 split, 3 for a 1–3 split, 0 for a constant column).
The six pairwise distances therefore sum to at most :math:`9\times4=36`, so the smallest is at
most :math:`36/6=6`. The code above reaches 6 (each of the three 2–2 splits used three times,
each pair separated by two of them), so it is optimal.

Repeated columns train the same binary problem three times, which adds no information for a
deterministic learner; with 4 classes only :math:`2^{4-1}-1=7` different non-constant columns
exist, so 9 columns must repeat some. If we also require all 7 different columns (the exhaustive
code, distance 4 between every pair) plus two more, the best minimum distance is 5: the page
checks both claims by enumerating every code of 9 columns up to the order of columns and the
sign of each column (5005 multisets of the 7 column types).

hyperplane has no ECOC estimator; the page decodes by Hamming distance (the rule of §3.5, 图3.5)
with nine binary Gaussian-kernel :class:`hyperplane.svm.SVC` learners on four Gaussian classes (the
column C1, C4 vs C2, C3 is an XOR of the four centres, which a linear learner cannot learn), and shows a
corrupted bit being corrected.

**答案（中文）**：海明距离意义下最优的最小码距为 6。例如四个类的码字取 C₁ = (+++ +++ +++)、C₂ = (+++ −−− −−−)、C₃ = (−−− +++ −−−)、C₄ = (−−− −−− +++)，任意两类恰好相差 6 位。上界的证明：一列把 k 个类分在一侧、4 − k 个类在另一侧，至多区分 k(4 − k) ≤ 4 对类别，9 列至多贡献 36，故 6 对类别的距离之和不超过 36，最小者不超过 6；上面的码达到 6。

**与公开解答比较 / Compared with public solutions**

公开解答（han1057578619 的习题集）按 Dietterich 与 Bakiri (1995) 的穷举码取出 4 类的 7 个不同且互不为反码的列（两两海明距离为 4），再任意加两列，并认为最小距离仍为 4、不会再增加。这与本页不同，本页是对的：题目只问海明距离意义下的最优，列可以重复；本页的码最小距离为 6，且 6 是上界。即使保留全部 7 个不同的列，第一节的穷举也表明再加两列可把最小距离提高到 5，而不是停在 4。公开解答所说的“列分离”（列之间不相关、不互为反码）是 ECOC 的另一条要求，不是本题所问。

The public solution set of han1057578619 takes the 7 distinct, non-complementary columns of
Dietterich & Bakiri's (1995) exhaustive code for 4 classes (every pair of classes at distance 4),
appends any two more columns and states that the minimum distance stays 4. This page differs and is
right: the question asks for the optimum in Hamming distance, where columns may repeat; the code
above reaches 6, which is the bound. Even keeping all 7 distinct columns, the search in the first
section finds two more columns that raise the minimum distance to 5, not 4. The column separation
the solution set invokes (uncorrelated, non-complementary columns) is ECOC's other requirement, not
what the question asks.
"""

import itertools

import matplotlib.pyplot as plt
import numpy as np

from hyperplane.plot import apply_cjk_font
from hyperplane.svm import SVC

# the 7 non-constant columns for 4 classes, up to sign: class 1 always on the + side
columns = [np.array((1,) + bits) for bits in itertools.product((1, -1), repeat=3) if bits != (1, 1, 1)]
assert len(columns) == 7


def min_distance(code):
    return min(np.sum(code[i] != code[j]) for i, j in itertools.combinations(range(4), 2))


best, best_exhaustive = 0, 0
for chosen in itertools.combinations_with_replacement(range(7), 9):
    code = np.column_stack([columns[k] for k in chosen])
    d = min_distance(code)
    best = max(best, d)
    if set(chosen) == set(range(7)):
        best_exhaustive = max(best_exhaustive, d)
print("largest minimum distance over all 9-column codes:", best)
print("... among the codes that contain all 7 different columns:", best_exhaustive)
assert best == 6 and best_exhaustive == 5

code = np.array([[1] * 9, [1, 1, 1, -1, -1, -1, -1, -1, -1],
                 [-1, -1, -1, 1, 1, 1, -1, -1, -1], [-1, -1, -1, -1, -1, -1, 1, 1, 1]])
distances = {(i + 1, j + 1): int(np.sum(code[i] != code[j])) for i, j in itertools.combinations(range(4), 2)}
print("the code's pairwise distances:", distances)
assert min_distance(code) == 6

# %%
# 用它分类 / Using it: nine binary SVMs, Hamming decoding
# -------------------------------------------------------
rng = np.random.default_rng(0)
centres = np.array([[0, 0], [3, 0], [0, 3], [3, 3]])
X = np.vstack([rng.normal(c, 0.8, size=(40, 2)) for c in centres])
y = np.repeat(np.arange(4), 40)
learners = [SVC(kernel="rbf", gamma=1.0, C=10.0).fit(X, code[y, k]) for k in range(9)]
bits = np.column_stack([m.predict(X) for m in learners])
hamming = (bits[:, None, :] != code[None, :, :]).sum(axis=2)
prediction = hamming.argmin(axis=1)
print(f"ECOC training accuracy: {np.mean(prediction == y):.3f}")
flipped = bits.copy()
flipped[:, 0] *= -1  # one binary learner wrong on every sample
corrected = (flipped[:, None, :] != code[None, :, :]).sum(axis=2).argmin(axis=1)
print(f"with learner f1 flipped on every sample: {np.mean(corrected == y):.3f}")
assert np.mean(corrected == prediction) > 0.95  # distance 6 corrects any 2 wrong bits

figure, axes = plt.subplots(1, 2, figsize=(9, 3.5))
axes[0].imshow(code, cmap="coolwarm", vmin=-1, vmax=1)
axes[0].set_yticks(range(4), ["C1", "C2", "C3", "C4"])
axes[0].set_xticks(range(9), [f"f{k + 1}" for k in range(9)])
axes[0].set_title("最优 ECOC 码 (最小海明距离 6)")
axes[1].scatter(*X.T, c=prediction, cmap="tab10", s=10)
axes[1].set_title("ECOC 解码结果")
apply_cjk_font(figure)
plt.show()
