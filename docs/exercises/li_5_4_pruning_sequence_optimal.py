r"""
李航 习题5.4 / Li Hang, exercise 5.4: each T_i of CART pruning is optimal on [α_i, α_{i+1})
===========================================================================================

**题目**：证明 CART 剪枝算法中求出的子树序列 :math:`\{T_0,T_1,\cdots,T_n\}` 分别是区间
:math:`\alpha\in[\alpha_i,\alpha_{i+1})` 的最优子树 :math:`T_\alpha`，这里 :math:`i=0,1,\cdots,n`，
:math:`0=\alpha_0<\alpha_1<\cdots<\alpha_n<+\infty`。

**Question**: prove that the subtrees :math:`T_0, T_1, \dots, T_n` found by CART pruning (算法5.7)
are the optimal subtrees :math:`T_\alpha` for :math:`\alpha\in[\alpha_i,\alpha_{i+1})`, where
:math:`0=\alpha_0<\alpha_1<\dots<\alpha_n<+\infty`.

**答案 / Answer**. Write :math:`T_\alpha` for the unique smallest minimiser of
:math:`C_\alpha(T)=C(T)+\alpha|T|` (习题5.3) and, for an internal node :math:`t` of a tree
:math:`T`, :math:`g(t)=\frac{C(t)-C(T_t)}{|T_t|-1}` (式5.31).

*1. Nesting.* For a node :math:`t`, collapsing it is optimal at :math:`\alpha` when
:math:`\varphi_t(\alpha)=\min_S\big[C(S)-C(t)+\alpha(|S|-1)\big]\ge0`, the minimum over prunings
:math:`S` of :math:`T_t` that split at :math:`t` (so :math:`|S|\ge2`). Each term grows with
:math:`\alpha`, so :math:`\varphi_t` is non-decreasing: a node collapsed at :math:`\alpha` stays
collapsed at every :math:`\beta>\alpha`. By the recursion of 习题5.3, :math:`T_\beta\subseteq T_\alpha`.

*2. No proper pruning of T_i is better before α_{i+1}.* Any proper pruning :math:`T'` of
:math:`T_i` collapses some disjoint internal nodes :math:`t_1,\dots,t_m` of :math:`T_i`, and by
additivity

.. math::

   C_\alpha(T')-C_\alpha(T_i)=\sum_k\big(C(t_k)+\alpha-C(T_{i,t_k})-\alpha|T_{i,t_k}|\big)
   =\sum_k(|T_{i,t_k}|-1)\big(g_i(t_k)-\alpha\big),

which is :math:`>0` when :math:`\alpha<\alpha_{i+1}=\min_t g_i(t)` (step (3) of 算法5.7), and
:math:`\ge0` with equality exactly for the nodes of minimal :math:`g` at
:math:`\alpha=\alpha_{i+1}`.

*3. Induction.* :math:`T_0` (the grown tree, every split lowering :math:`C`) is :math:`T_{\alpha_0}`.
If :math:`T_i=T_{\alpha_i}`, then for :math:`\alpha\in[\alpha_i,\alpha_{i+1})` nesting gives
:math:`T_\alpha\subseteq T_i` and step 2 shows no proper pruning of :math:`T_i` does as well, so
:math:`T_\alpha=T_i`. At :math:`\alpha_{i+1}` the minimisers inside :math:`T_i` are the prunings
of the minimal-:math:`g` nodes, and the smallest of them, pruning all of them (step (4)), is
:math:`T_{i+1}=T_{\alpha_{i+1}}`. The :math:`\alpha_i` strictly increase because after pruning,
every remaining :math:`g` is at least the previous minimum (pruning below :math:`t` replaces
branches whose :math:`g` was :math:`\le g(t)`), and ties are pruned together.

The page checks the statement on a Gini tree of :class:`hyperplane.tree.DecisionTreeClassifier`:
it runs 算法5.7 by hand (g(t) of 式5.31 from the class counts), compares the :math:`\alpha_i` with
the library's ``cost_complexity_pruning_path``, and verifies by enumerating every pruning that
:math:`T_i` minimises :math:`C_\alpha` at 25 values of :math:`\alpha` in each interval.

**答案（中文）**：记 T_α 为 C_α(T) = C(T) + α·(T 的叶结点数) 的唯一最小的最优子树（习题5.3），g(t) = (C(t) − C(T_t))/(T_t 的叶结点数 − 1)（式5.31）。(1) 嵌套：某个结点在 α 处收缩为最优，则在任何更大的 β 处也收缩为最优，所以 T_β ⊆ T_α。(2) 在 α_{i+1} 之前，T_i 的任何真剪枝都不更好：由可加性，剪去互不相交的内部结点 t_1, …, t_m 使 C_α 改变 Σ_k (T_{i,t_k} 的叶结点数 − 1)(g_i(t_k) − α)，当 α < α_{i+1} = min g_i(t) 时大于 0。因此算法5.7 得到的子树序列 T₀ ⊃ T₁ ⊃ … 中，T_i 正是区间 [α_i, α_{i+1}) 上的最优子树。

**与公开解答比较 / Compared with public solutions**

datawhale 的《统计学习方法》习题解答（statistical-learning-method-solutions-manual）：它同样依据 Breiman 等人的定理 10.7 与 10.9(i) 证明第 1 步，第 2 步则直接引用 Breiman 等人（第 368 页）而未证明；本页给出了这一步的证明。

The datawhale solutions manual proves it the same way from Breiman et al.'s Theorems 10.7 and
10.9(i) (the nesting of step 1); step 2 it takes from Breiman et al. (p. 368) without proof.
"""

import itertools

import matplotlib.pyplot as plt
import numpy as np

from hyperplane.plot import apply_cjk_font
from hyperplane.tree import DecisionTreeClassifier

rng = np.random.default_rng(3)
X = rng.uniform(-1, 1, size=(80, 2))
y = np.where(X[:, 0] + 0.5 * np.sin(3 * X[:, 1]) > 0, 1, -1)
y[rng.random(80) < 0.15] *= -1
tree = DecisionTreeClassifier(criterion="gini", max_depth=4).fit(X, y)
nodes = tree.tree_
N = nodes.weight[0]


def leaf_cost(t):
    counts = nodes.value[t]
    return counts.sum() / N * (1.0 - ((counts / counts.sum()) ** 2).sum())


def branch(t, kept):
    """C(T_t) and |T_t| of the branch below t in the tree whose internal nodes are `kept`."""
    if t not in kept:
        return leaf_cost(t), 1
    parts = [branch(c, kept) for c in nodes.kids(t)]
    return sum(p[0] for p in parts), sum(p[1] for p in parts)


def under(t, kept):
    """t and the internal nodes below it."""
    return {t}.union(*(under(c, kept) for c in nodes.kids(t) if c in kept))


# %%
# 算法5.7 by hand
# ---------------
kept = frozenset(t for t in range(nodes.n_nodes) if nodes.feature[t] >= 0)
sequence, alphas = [kept], [0.0]
while kept:
    g = {t: (leaf_cost(t) - branch(t, kept)[0]) / (branch(t, kept)[1] - 1) for t in kept}
    alpha = min(g.values())
    cut = {t for t, value in g.items() if value <= alpha + 1e-12}
    kept = kept - set().union(*(under(t, kept) for t in cut))  # step (4): prune them
    sequence.append(kept)
    alphas.append(alpha)
library = tree.cost_complexity_pruning_path(X, y).ccp_alphas
print("alpha_i by hand:   ", np.round(alphas, 5))
print("alpha_i by library:", np.round(library, 5))
np.testing.assert_allclose(alphas, library, atol=1e-12)


# %%
# Every T_i is optimal on its interval
# ------------------------------------
def prunings(t):
    options = [(leaf_cost(t), 1, frozenset())]
    if nodes.feature[t] >= 0:
        for parts in itertools.product(*(prunings(c) for c in nodes.kids(t))):
            options.append((sum(p[0] for p in parts), sum(p[1] for p in parts),
                            frozenset({t}).union(*(p[2] for p in parts))))
    return options


every = prunings(0)
ends = alphas[1:] + [alphas[-1] * 2]
for i, (low, high) in enumerate(zip(alphas, ends)):
    for alpha in np.linspace(low, high, 26)[:-1]:
        losses = np.array([c + alpha * n for c, n, _ in every])
        best = [every[k] for k in np.flatnonzero(losses <= losses.min() + 1e-12)]
        smallest = min(best, key=lambda p: p[1])
        assert smallest[2] == sequence[i], (i, alpha)
    upper = f"{high:.5f})" if i < len(sequence) - 1 else "+inf), checked to " + f"{high:.5f}"
    print(f"T_{i}: {len(sequence[i]) + 1:2d} leaves, optimal for alpha in [{low:.5f}, {upper}")

figure, ax = plt.subplots(figsize=(6, 3.5))
grid = np.linspace(0, ends[-1], 300)
for i, kept_i in enumerate(sequence):
    cost, size = branch(0, kept_i)
    ax.plot(grid, cost + grid * size, label=f"T_{i} ({size} leaves)")
ax.set_xlabel("alpha")
ax.set_ylabel("C_alpha(T_i)")
ax.set_title("习题5.4: 子树序列与区间 [α_i, α_{i+1})")
ax.legend(fontsize=7)
apply_cjk_font(figure)
plt.show()
