r"""
李航 习题5.3 / Li Hang, exercise 5.3: the smallest optimal subtree T_α is unique
================================================================================

**题目**：证明 CART 剪枝算法中，当 :math:`\alpha` 确定时，存在唯一的最小子树 :math:`T_\alpha`
使损失函数 :math:`C_\alpha(T)` 最小。

**Question**: prove that in CART pruning, for a fixed :math:`\alpha` there is a unique smallest
subtree :math:`T_\alpha` minimising the loss :math:`C_\alpha(T)=C(T)+\alpha|T|` (式5.27).

**答案 / Answer**. The subtrees of :math:`T_0` are its prunings: keep the root and, at each kept
internal node, either collapse it to a leaf or keep all its children. :math:`C(T)` is a sum over
the leaves (the training error, or :math:`\sum_t N_tH_t`), so
:math:`C_\alpha(T)=\sum_{t\in\text{leaves}}(C(t)+\alpha)` is additive, and the best pruning of
the branch :math:`T_t` below a node :math:`t` is found from its children's:

.. math::

   \operatorname{opt}(t)=\min\Big(C(t)+\alpha,\ \sum_{c\in\text{children}(t)}\operatorname{opt}(c)\Big),
   \qquad \operatorname{opt}(\text{leaf } t)=C(t)+\alpha .

Define :math:`T^*(t)` as the leaf :math:`t` when :math:`C(t)+\alpha\le\sum_c\operatorname{opt}(c)`
(ties collapse), else :math:`t` joined to the :math:`T^*(c)`. By induction from the leaves,
:math:`T^*(t)` minimises :math:`C_\alpha` over the prunings of :math:`T_t`, and it is contained in
every minimiser :math:`T'`: if :math:`T'` is the leaf :math:`t` then :math:`C(t)+\alpha` is
optimal, so :math:`T^*(t)` is that leaf too; if :math:`T'` splits at :math:`t`, additivity makes
each of its branches optimal for its child :math:`c`, so it contains :math:`T^*(c)` (induction),
and :math:`T^*(t)\subseteq T'` whether or not :math:`T^*(t)` is split. A minimiser contained in
every minimiser is the unique smallest one: :math:`T_\alpha=T^*(\text{root})`. (Two different
minimisers of the same size cannot both be smallest, as each would contain the other.)

This is Breiman et al.'s Theorem 10.7 (*Classification and Regression Trees*, 1984, §10.2).

The page enumerates every pruning of a Gini tree grown by
:class:`hyperplane.tree.DecisionTreeClassifier` on noisy data, finds for many :math:`\alpha` all
the minimisers of :math:`C_\alpha` (with :math:`C` recomputed by hand from each leaf's class
counts), and checks that one of them lies inside all the others and that it is the tree the library
prunes to with ``pruning="cost_complexity", ccp_alpha=α`` (算法5.7's weakest-link pruning).

**答案（中文）**：T₀ 的子树就是它的各种剪枝：保留根结点，在每个保留的内部结点处或者把它收缩为叶结点，或者保留它的全部子结点。C(T) 是各叶结点之和，所以 C_α(T) = Σ_叶(C(t) + α) 可加，结点 t 以下分支的最优剪枝可以由其子结点的最优剪枝递归求得：opt(t) = min(C(t) + α, Σ_子结点 opt(c))。令 T*(t) 在 C(t) + α ≤ Σ opt(c) 时为叶结点 t（相等时收缩），否则为 t 连接各 T*(c)。由叶向根归纳可知，T*(t) 使 C_α 最小，并且包含于每一个使 C_α 最小的子树之中，所以最优子树中最小的一棵唯一。

**与公开解答比较 / Compared with public solutions**

datawhale 的《统计学习方法》习题解答（statistical-learning-method-solutions-manual）：它从两棵都最优的子树出发用反证法（每一棵都还能再剪），本页的递归同时给出了最小的那棵是哪一棵，以及为什么各最优子树是嵌套的。

The datawhale solutions manual quotes this theorem for 习题5.4; for 习题5.3 it argues by contradiction from two
optimal subtrees, each of which could be pruned further, whereas the recursion above also shows
which subtree is the smallest and why the minimisers are nested.
"""

import itertools

import matplotlib.pyplot as plt
import numpy as np

from hyperplane.plot import apply_cjk_font
from hyperplane.tree import DecisionTreeClassifier

rng = np.random.default_rng(3)
X = rng.uniform(-1, 1, size=(80, 2))
y = np.where(X[:, 0] + 0.5 * np.sin(3 * X[:, 1]) > 0, 1, -1)
y[rng.random(80) < 0.15] *= -1  # label noise, so that pruning has something to remove
tree = DecisionTreeClassifier(criterion="gini", max_depth=4).fit(X, y)
nodes = tree.tree_
N = nodes.weight[0]


def leaf_cost(t):
    """C(t) = N_t/N * Gini(t) from the node's class counts (式5.24)."""
    counts = nodes.value[t]
    return counts.sum() / N * (1.0 - ((counts / counts.sum()) ** 2).sum())


def prunings(t):
    """Every pruning of the branch below t: (C(T), |T|, the internal nodes kept)."""
    options = [(leaf_cost(t), 1, frozenset())]
    if nodes.feature[t] >= 0:
        for parts in itertools.product(*(prunings(c) for c in nodes.kids(t))):
            options.append((sum(p[0] for p in parts), sum(p[1] for p in parts),
                            frozenset({t}).union(*(p[2] for p in parts))))
    return options


every = prunings(0)
print(f"the tree has {tree.n_leaves_} leaves and {len(every)} prunings")
# a grid of alpha plus the breakpoints of the library's pruning path, where minimisers tie
path = tree.cost_complexity_pruning_path(X, y).ccp_alphas
alphas = np.union1d(np.linspace(0.0, 0.2, 201), path)
sizes = []
for alpha in alphas:
    losses = np.array([c + alpha * n for c, n, _ in every])
    best = [every[i] for i in np.flatnonzero(losses <= losses.min() + 1e-12)]
    smallest = min(best, key=lambda p: p[1])
    # one minimiser inside every other: the unique smallest
    assert all(smallest[2] <= other[2] for other in best)
    assert sum(p[1] == smallest[1] for p in best) == 1
    pruned = DecisionTreeClassifier(criterion="gini", max_depth=4, pruning="cost_complexity",
                                    ccp_alpha=alpha).fit(X, y)
    assert pruned.n_leaves_ == smallest[1], (alpha, pruned.n_leaves_, smallest[1])
    sizes.append((smallest[1], len(best)))
print("at the breakpoints alpha_k several subtrees are optimal, one of them inside all the others:")
for alpha, (size, count) in zip(alphas, sizes):
    if np.isin(alpha, path):
        print(f"  alpha = {alpha:.5f}: {count} minimisers, the smallest has {size} leaves")
assert max(count for _, count in sizes) >= 2

figure, ax = plt.subplots(figsize=(6, 3.5))
ax.step(alphas, [s for s, _ in sizes], where="post")
ax.set_xlabel("alpha")
ax.set_ylabel("|T_alpha| (leaves)")
ax.set_title("习题5.3: 每个 α 的唯一最小最优子树")
apply_cjk_font(figure)
plt.show()
