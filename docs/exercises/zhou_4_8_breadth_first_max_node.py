r"""
周志华 习题4.8* / Zhou Zhihua, exercise 4.8*: breadth-first generation with MaxNode
===================================================================================

**题目**：试将决策树生成的深度优先搜索过程修改为广度优先搜索，以参数 MaxNode 控制树的最大结点数，将题 4.7 中基于队列的决策树算法进行改写。
对比题 4.7 中的算法，试析哪种方式更易于控制决策树所需存储不超出内存。

**Question**: change the depth-first search of tree generation into a breadth-first search, with a
parameter MaxNode bounding the number of nodes, by rewriting the queue-based algorithm of
习题4.7. Compared with 习题4.7's algorithm, which is easier to keep within memory?

**答案 / Answer**: in 习题4.7's loop, take nodes from the front of the queue (FIFO: breadth
first; taking them from the back, LIFO, is the recursion's depth-first order) and count the nodes
created; a node is split only if its children still fit under MaxNode, otherwise it becomes a leaf
of its majority class, and so does every node still waiting once the budget is spent::

    n_nodes ← 1; Q ← [(root, D, A)]
    while Q not empty:
        (node, D, A) ← Q.pop_front()
        if leaf conditions of 图4.2 hold, or n_nodes + |values of a*| > MaxNode:
            node is a leaf (its class or D's majority); continue
        split on a*; n_nodes ← n_nodes + |values of a*|; push the non-empty children

*Which bounds memory better.* The memory of a tree is its number of nodes (plus the pending
nodes' sample sets, which together are at most :math:`|D|` per level). MaxDepth (习题4.7) bounds
the depth, but a tree of depth :math:`d` with branching :math:`b` can have :math:`b^d` nodes, so the
memory is not known in advance; MaxNode bounds it exactly. With MaxNode, breadth first spends the
budget evenly, level by level, on the splits nearest the root, and yields a balanced tree; depth
first spends it on the first branches down to their leaves and leaves the later branches unsplit
(on the page's data neither order wins on held-out accuracy at every budget). Breadth first's queue can be wider than depth first's stack (the
widest level against depth × branching), but with MaxNode both are bounded by MaxNode. So
breadth first with MaxNode is the easier way to keep a tree within memory.

hyperplane's trees bound the depth (``max_depth``) and grow subtrees in parallel, not with this
budget; the page implements both orders with MaxNode in Python (attributes chosen by
:func:`hyperplane.tree.split_table`), checks that with an ample budget both give exactly the
unbounded tree of :class:`hyperplane.tree.DecisionTreeClassifier`, and compares node counts,
peak pending nodes and held-out accuracy under small budgets on a synthetic table of 600 rows
with 6 three-valued attributes (and 300 test rows).

**答案（中文）**：在习题4.7 的循环中从队首取结点（先进先出，即广度优先；从队尾取是后进先出，即递归的深度优先），并记录已建的结点数：只有子结点数加上已有结点数不超过 MaxNode 时才划分，否则该结点成为多数类叶结点，预算用完后所有等待的结点也都成为叶结点。哪种更易控制内存：树的内存就是结点数，MaxDepth 只限深度，深度为 d、分支数为 b 的树可有 b^d 个结点，事先不知道；MaxNode 直接限定结点数。广度优先把预算按层均匀地花在靠近根的划分上，得到平衡的树；深度优先把预算花在最先的分支上。两种顺序的队列或栈都受 MaxNode 约束，所以以 MaxNode 控制的广度优先更容易把树控制在内存之内。

**与公开解答比较 / Compared with public solutions**

公开解答（han1057578619 的习题集）指出 4.7 的队列算法本来就是广度优先，其 MaxNode 版本在划分后才计数，结点数可能超过 MaxNode（它说最多 MaxNode+2）；并认为属性取值多（树宽）时广度优先更省内存、取值少时深度优先更省。本页在划分前检查预算，结点数从不超过 MaxNode；至于内存，MaxNode 对两种顺序都给出同一个上界，区别只在预算花在何处，所以本页认为以 MaxNode 控制的广度优先更容易控制内存，与公开解答“视树形而定”的说法不同。

The public solution set of han1057578619 notes that 习题4.7's queue algorithm is already breadth
first; its MaxNode version counts after splitting, so the tree can exceed MaxNode (by up to two
nodes, it says), and it holds that breadth first saves memory on wide trees (many values per
attribute) and depth first on narrow ones. This page checks the budget before a split, so the count
never exceeds MaxNode; and since MaxNode bounds both orders by the same number, the orders differ
only in where the budget goes, so this page finds breadth first with MaxNode the easier to keep
within memory, where the solution set says it depends on the tree's shape.
"""

from collections import deque

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from hyperplane.plot import apply_cjk_font
from hyperplane.tree import DecisionTreeClassifier, split_table

rng = np.random.default_rng(0)
values = np.array(["p", "q", "r"])
codes = rng.integers(0, 3, size=(900, 6))
label = np.where((codes[:, 0] == 0) ^ (codes[:, 1] == codes[:, 2]) | (codes[:, 3] == 2), "是", "否")
label = np.where(rng.random(900) < 0.1, np.where(label == "是", "否", "是"), label)
data = pd.DataFrame(values[codes], columns=[f"a{k}" for k in range(6)])
X, y, X_test, y_test = data[:600], pd.Series(label[:600]), data[600:], pd.Series(label[600:])
domain = {a: list(values) for a in X.columns}
seen = list(dict.fromkeys(y))  # the classes in order of first appearance


def majority(labels):
    """The most frequent class; a tie goes to the class seen first in the training set."""
    counts = labels.value_counts()
    return max(seen, key=lambda c: (counts.get(c, 0), -seen.index(c)))


def generate(X, y, order, max_nodes=np.inf):
    """图4.2 without recursion; order 'bfs' pops the front of the queue, 'dfs' the back."""
    root, n_nodes = {}, 1
    pending, peak = deque([(root, X.index, list(X.columns))]), 1
    while pending:
        node, rows, attributes = pending.popleft() if order == "bfs" else pending.pop()
        D, labels = X.loc[rows], y.loc[rows]
        if labels.nunique() == 1:
            node["leaf"] = labels.iloc[0]
            continue
        if not attributes or len(D[attributes].drop_duplicates()) == 1 \
                or n_nodes + len(domain[attributes[0]]) > max_nodes:
            node["leaf"] = majority(labels)
            continue
        gains = split_table(D[attributes], labels, criterion="info_gain")["info_gain"]
        best = attributes[int(np.argmax(gains.to_numpy()))]
        node.update(attribute=best, children={})
        n_nodes += len(domain[best])
        children = []
        for value in domain[best]:
            child = node["children"][value] = {}
            subset = D.index[D[best] == value]
            if len(subset) == 0:
                child["leaf"] = majority(labels)
            else:
                children.append((child, subset, [a for a in attributes if a != best]))
        pending.extend(children if order == "bfs" else children[::-1])  # dfs: first branch on top
        peak = max(peak, len(pending))
    return root, n_nodes, peak


def predict(node, row):
    while "leaf" not in node:
        node = node["children"][row[node["attribute"]]]
    return node["leaf"]


def depth(node):
    return 0 if "leaf" in node else 1 + max(depth(c) for c in node["children"].values())


def accuracy(root, X, y):
    return np.mean([predict(root, row) == t for (_, row), t in zip(X.iterrows(), y)])


library = DecisionTreeClassifier(criterion="info_gain").fit(X, y)
for order in ("bfs", "dfs"):
    root, n_nodes, peak = generate(X, y, order)
    same = np.mean(np.array([predict(root, row) for _, row in X_test.iterrows()]) == library.predict(X_test))
    print(f"{order}, no budget: {n_nodes} nodes, depth {depth(root)}, peak pending {peak}; "
          f"same predictions as the library's tree on {same:.0%} of the test rows")
    assert same == 1.0

# %%
# 结点预算 / With a node budget
# -----------------------------
rows = []
for budget in (10, 25, 50, 100):
    for order in ("bfs", "dfs"):
        root, n_nodes, peak = generate(X, y, order, budget)
        rows.append({"MaxNode": budget, "order": order, "nodes": n_nodes, "depth": depth(root),
                     "peak pending": peak, "test accuracy": accuracy(root, X_test, y_test)})
        assert n_nodes <= budget
table = pd.DataFrame(rows)
print(table.round(3).to_string(index=False))
deep = table.pivot(index="MaxNode", columns="order", values="depth")
assert (deep["bfs"] <= deep["dfs"]).all()  # breadth first spends the budget evenly

figure, ax = plt.subplots(figsize=(5.5, 3.5))
for order, style in (("bfs", "o-"), ("dfs", "s--")):
    part = table[table["order"] == order]
    ax.plot(part["MaxNode"], part["test accuracy"], style, label=order)
ax.set_xlabel("MaxNode")
ax.set_ylabel("test accuracy")
ax.set_title("习题4.8: 广度优先 vs 深度优先 (MaxNode)")
ax.legend()
apply_cjk_font(figure)
plt.show()
