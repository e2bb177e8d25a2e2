r"""
周志华 习题3.8* / Zhou Zhihua, exercise 3.8*: are ECOC's bit errors equal and independent?
==========================================================================================

**题目**：ECOC 编码能起到理想纠错作用的重要条件是：在每一位编码上出错的概率相当且独立。试析多分类任务经 ECOC
编码后产生的二类分类器满足该条件的可能性及由此产生的影响。

**Question**: ECOC corrects errors ideally when the errors on the code bits are equally likely and
independent. Analyse how likely the binary classifiers produced by ECOC coding of a multi-class
task are to meet this condition, and what follows from it.

**答案 / Answer**: unlikely on both counts.

* *Not equally likely.* Each column groups the classes differently, and the resulting binary
  problems differ in difficulty: a column whose two super-classes are each compact is easy, one
  that pairs distant classes against each other (here an XOR of four clusters) may be impossible
  for the chosen learner. Error rates therefore range from near 0 to near 50%.
* *Not independent.* Every learner sees the same samples and features; a sample that is atypical
  of its class (near another class, mislabelled, noisy) tends to be misclassified by every column
  that separates those two classes, so errors are positively correlated.

Consequences: the number of errors a code "can correct", :math:`\lfloor(d-1)/2\rfloor` for
minimum distance :math:`d`, overstates the real protection; correlated errors fall on the same
samples and exceed it together. A long code with hard columns may do worse than a short one
with easy columns, so in practice codes are designed or pruned with the data in mind (choosing
columns that are learnable, data-dependent codes), learners are made diverse, and decoding uses
the learners' confidences rather than hard bits.

The page measures both on four Gaussian classes at the corners of a square, with all 7 different
columns of the exhaustive code learned by a linear :class:`hyperplane.svm.SVC`: the per-column
test error rates and the correlation between the error indicators of the columns.

**答案（中文）**：两条都不太可能满足。各列把类别分组的方式不同，得到的二分类问题难度不同，错误率可以从接近 0 到接近 50%，所以出错概率并不“相当”；所有学习器看到同样的样本与属性，一个不典型（靠近别的类、标错或有噪声）的样本会被所有区分这两类的列同时分错，错误正相关，并不“独立”。后果是：按码的最小距离 d 计算的纠错能力高估了实际的保护，相关的错误会落在同一个码字的多个位上。

**与公开解答比较 / Compared with public solutions**

公开解答（han1057578619 的习题集）把条件拆成“出错概率相当”与“相互独立”两条，认为前者取决于各列二分类问题的难度、实际上很难满足，后者在类别少时难以满足；与本页的结论一致（本页还用实验给出各列错误率的差别与错误的相关性）。

The public solution set of han1057578619 splits the condition into equal error rates and
independence, and finds the first hard to meet because the columns' binary problems differ in
difficulty, the second hard with few classes; this agrees with this page, which also measures the
spread of the columns' error rates and the correlation of their errors.
"""

import itertools

import matplotlib.pyplot as plt
import numpy as np

from hyperplane.plot import apply_cjk_font
from hyperplane.svm import SVC

rng = np.random.default_rng(1)
centres = np.array([[0, 0], [3, 0], [0, 3], [3, 3]])


def sample(n):
    return np.vstack([rng.normal(c, 1.0, size=(n, 2)) for c in centres]), np.repeat(np.arange(4), n)


X, y = sample(50)
X_test, y_test = sample(250)
code = np.array([(1,) + bits for bits in itertools.product((1, -1), repeat=3) if bits != (1, 1, 1)]).T
errors = np.column_stack([SVC(kernel="linear", C=1.0).fit(X, code[y, k]).predict(X_test) != code[y_test, k]
                          for k in range(7)])
rates = errors.mean(axis=0)
for k in range(7):
    split = "".join("+" if s > 0 else "-" for s in code[:, k])
    print(f"column f{k + 1} (C1..C4 = {split}): test error {rates[k]:.3f}")
correlation = np.corrcoef(errors.T)
off_diagonal = correlation[~np.eye(7, dtype=bool)]
easy = rates < 0.4
easy_pairs = correlation[np.ix_(easy, easy)][~np.eye(easy.sum(), dtype=bool)]
print(f"error rates range from {rates.min():.3f} to {rates.max():.3f}")
print(f"correlation of error indicators between the learnable columns: mean {easy_pairs.mean():.3f}, "
      f"max {easy_pairs.max():.3f}")
assert rates.max() - rates.min() > 0.3       # far from 'equally likely'
assert easy_pairs.max() > 0.2                # far from independent

figure, axes = plt.subplots(1, 2, figsize=(9, 3.5))
axes[0].bar([f"f{k + 1}" for k in range(7)], rates)
axes[0].set_title("每一位的错误率")
image = axes[1].imshow(correlation, cmap="coolwarm", vmin=-1, vmax=1)
axes[1].set_title("各位错误之间的相关系数")
figure.colorbar(image, ax=axes[1])
apply_cjk_font(figure)
plt.show()
