r"""
周志华 习题5.8 / Zhou Zhihua, exercise 5.8: a SOM network on 西瓜数据集3.0α
===========================================================================

**题目**：从网上下载或自己编程实现 SOM 网络，并观察其在西瓜数据集 3.0α 上产生的结果。

**Question**: download or implement a SOM (self-organising map, §5.5.3) and observe the result it
produces on watermelon data set 3.0α.

**答案 / Answer**: hyperplane has no SOM, so the page implements Kohonen's online algorithm in
NumPy: a :math:`4\times4` grid of output neurons with weight vectors in the (密度, 含糖率) plane;
for each sample the best matching unit (the nearest weight vector) and its grid neighbours move
towards the sample, :math:`m_u\leftarrow m_u+\eta(t)\,h(u,\text{BMU};t)\,(x-m_u)`, with a Gaussian
neighbourhood :math:`h` whose radius and the rate :math:`\eta` shrink over training (§5.5.3: the
BMU and its neighbours adjust their weights so as to keep the topology of the input space).

Observed on 3.0α (attributes scaled to [0, 1], labels *not* used in training): the map unfolds over
the data and keeps its topology (neighbouring neurons have neighbouring weights), the quantisation
error (mean distance of a melon to its BMU) falls from 0.28 to about 0.06, and melons that share a
neuron are of one class (the labels were not used). With 16 neurons for 17 melons most neurons hold one
melon; a smaller map would merge more of them and show where the classes mix.

**答案（中文）**：hyperplane 没有 SOM，本页用 NumPy 实现 Kohonen 的在线算法：4 × 4 的输出神经元网格，权向量位于（密度，含糖率）平面；每个样本找到最佳匹配单元（最近的权向量），它与网格上的邻居向样本移动，m_u ← m_u + η(t) h(u, BMU; t)(x − m_u)，邻域半径与学习率随训练缩小（§5.5.3）。结果：网格在数据上展开并保持拓扑（相邻神经元的权向量相邻），量化误差（瓜到其最佳匹配单元的平均距离）从 0.28 降到约 0.06，共享一个神经元的瓜属于同一类（训练时没有用到标记）。

**与公开解答比较 / Compared with public solutions**

公开解答（han1057578619 的习题集）此题未完成（只讨论了 SOM 的输出结点数需要事先给定，这一点与本页的 4×4 网格一致）。

The public solution set of han1057578619 leaves this unfinished (it only notes that the number of
SOM output nodes must be chosen beforehand, as this page's 4×4 grid is).
"""

import matplotlib.pyplot as plt
import numpy as np

from hyperplane.datasets import load_watermelon
from hyperplane.plot import apply_cjk_font

X, y = load_watermelon("3.0alpha")
data = X.to_numpy()
data = (data - data.min(0)) / (data.max(0) - data.min(0))
good = (y == "是").to_numpy()
rng = np.random.default_rng(0)
rows, cols = 4, 4
grid = np.array([(r, c) for r in range(rows) for c in range(cols)], dtype=float)
weights = rng.uniform(0.4, 0.6, size=(rows * cols, 2))


def quantisation_error(weights):
    return np.mean(np.min(np.linalg.norm(data[:, None] - weights[None], axis=2), axis=1))


errors = [quantisation_error(weights)]
steps = 2000
for t in range(steps):
    x = data[rng.integers(len(data))]
    bmu = np.argmin(np.linalg.norm(weights - x, axis=1))
    radius = 2.0 * (0.2 / 2.0) ** (t / steps)    # from 2 grid cells down to 0.2
    eta = 0.5 * (0.01 / 0.5) ** (t / steps)      # from 0.5 down to 0.01
    h = np.exp(-np.sum((grid - grid[bmu]) ** 2, axis=1) / (2 * radius ** 2))
    weights += eta * h[:, None] * (x - weights)
    if (t + 1) % 200 == 0:
        errors.append(quantisation_error(weights))
print("quantisation error every 200 steps:", np.round(errors, 3))
assert errors[-1] < 0.3 * errors[0]

bmus = np.argmin(np.linalg.norm(data[:, None] - weights[None], axis=2), axis=1)
mixed = [u for u in np.unique(bmus) if good[bmus == u].any() and (~good[bmus == u]).any()]
print(f"{len(np.unique(bmus))} neurons receive melons; {len(mixed)} of them receive both classes")
for u in np.unique(bmus):
    members = np.flatnonzero(bmus == u) + 1
    print(f"  neuron {divmod(int(u), cols)}: 编号 {members.tolist()} "
          f"({'好' * int(good[bmus == u].sum())}{'坏' * int((~good[bmus == u]).sum())})")
# topology: grid neighbours are closer in the input space than non-neighbours, on average
distance = np.linalg.norm(weights[:, None] - weights[None], axis=2)
adjacent = np.sum(np.abs(grid[:, None] - grid[None]), axis=2) == 1
print(f"mean weight distance: grid neighbours {distance[adjacent].mean():.3f}, "
      f"all pairs {distance[~np.eye(len(grid), dtype=bool)].mean():.3f}")
assert distance[adjacent].mean() < distance[~np.eye(len(grid), dtype=bool)].mean()

figure, ax = plt.subplots(figsize=(5.5, 4.5))
for r in range(rows):
    line = weights[r * cols:(r + 1) * cols]
    ax.plot(*line.T, "k-", lw=0.8)
for c in range(cols):
    ax.plot(*weights[c::cols].T, "k-", lw=0.8)
ax.scatter(*weights.T, c="k", s=15, label="neurons")
ax.scatter(*data[good].T, c="C3", label="好瓜")
ax.scatter(*data[~good].T, c="C0", marker="x", label="坏瓜")
ax.set_xlabel("密度 (scaled)")
ax.set_ylabel("含糖率 (scaled)")
ax.set_title("习题5.8: SOM (4×4) on 西瓜数据集3.0α")
ax.legend(fontsize=8)
apply_cjk_font(figure)
plt.show()
