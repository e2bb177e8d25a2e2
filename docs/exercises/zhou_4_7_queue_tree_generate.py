r"""
周志华 习题4.7 / Zhou Zhihua, exercise 4.7: TreeGenerate with a queue and MaxDepth, no recursion
================================================================================================

**题目**：图 4.2 是一个递归算法，若面临巨量数据，则决策树的层数会很深，使用递归方法易导致“栈”溢出。试使用“队列”数据结构，
以参数 MaxDepth 控制树的最大深度，写出与图 4.2 等价、但不使用递归的决策树生成算法。

**Question**: 图4.2 is recursive; on huge data the tree gets deep and recursion may overflow the
stack. Using a queue, with a parameter MaxDepth bounding the depth, write a tree-generation
algorithm equivalent to 图4.2 that does not recurse.

**答案 / Answer**: keep the pending nodes, each with its sample set :math:`D`, its remaining
attributes :math:`A` and its depth, in a queue. ::

    输入: 训练集 D, 属性集 A, MaxDepth
    root ← new node; Q ← [(root, D, A, 0)]
    while Q not empty:
        (node, D, A, depth) ← Q.pop_front()
        if all of D in one class C:            node is a leaf of class C; continue     (图4.2 line 2-4)
        if A = ∅ or D same on A or depth = MaxDepth:
                                               node is a leaf of D's majority; continue  (line 5-7, MaxDepth)
        a* ← the best attribute of A on D (information gain, 式4.2)                   (line 8)
        for each value a*_v of a*:
            child ← new branch of node; D_v ← {x ∈ D : x[a*] = a*_v}
            if D_v = ∅: child is a leaf of D's majority                                (line 12-14)
            else: Q.push_back((child, D_v, A \ {a*}, depth + 1))                       (line 16)
    return root

Each node's decision depends only on its own :math:`(D, A)`, never on the order in which nodes
are expanded, so the queue builds exactly the tree of the recursion (which is the same algorithm
with the call stack as a LIFO); the queue expands it level by level (breadth first) and holds the
pending nodes of at most two adjacent levels, with no call stack at all. MaxDepth makes every node at that depth
a leaf with its majority class.

hyperplane grows its trees without recursion too (a compiled loop over a node list,
:class:`hyperplane.tree.DecisionTreeClassifier`), but not with this exact queue, so the page
writes the queue version in Python, choosing attributes with the library's
:func:`hyperplane.tree.split_table`, and checks that for MaxDepth = 1, 2, 3 and unlimited it makes
the same predictions as the library's tree with ``max_depth`` on every one of the
:math:`3^5\times2=486` combinations of 西瓜数据集2.0's attribute values (so empty branches count).

**答案（中文）**：用一个队列保存待处理的结点，每个结点带着它的样本集 D、剩余属性集 A 与深度。每次从队首取出结点：样本同属一类时成为该类叶结点；A 为空、D 在 A 上取值相同或深度达到 MaxDepth 时成为多数类叶结点；否则按信息增益选最优属性 a*，为它的每个取值建子结点（样本为空的子结点取父结点的多数类），把非空的子结点连同深度加 1 放入队尾。这样生成的树与图4.2 的递归完全相同（递归就是以调用栈为后进先出的同一算法），只是按层展开，不用调用栈。本页在西瓜数据集 2.0 的全部 486 种属性取值组合上验证，MaxDepth = 1、2、3 与不限时，它与库中带 max_depth 的树预测相同。

**与公开解答比较 / Compared with public solutions**

公开解答（han1057578619 的习题集）用三个队列（结点、数据、属性集）逐层处理，并用计数记录每层结点数以得到深度；本页把深度与结点一起放进队列。两者等价，都与图4.2 生成同一棵树。

The public solution set of han1057578619 keeps three queues (nodes, data, attribute sets) and
processes one level at a time, counting each level's nodes to know the depth; this page stores the
depth with each queued node. The two are equivalent and both give 图4.2's tree.
"""

import itertools
from collections import deque

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from hyperplane.datasets import load_watermelon
from hyperplane.plot import apply_cjk_font
from hyperplane.tree import DecisionTreeClassifier, split_table

X, y = load_watermelon("2.0")
domain = {a: list(dict.fromkeys(X[a])) for a in X.columns}  # each attribute's values over all of D
seen = list(dict.fromkeys(y))  # the classes in order of first appearance


def majority(labels):
    """The most frequent class; a tie goes to the class seen first in the training set."""
    counts = labels.value_counts()
    return max(seen, key=lambda c: (counts.get(c, 0), -seen.index(c)))


def tree_generate(X, y, max_depth=None):
    """图4.2 with a FIFO queue instead of recursion. A node is a dict; returns (root, peak queue)."""
    root = {}
    queue, peak = deque([(root, X.index, list(X.columns), 0)]), 1
    while queue:
        node, rows, attributes, depth = queue.popleft()
        D, labels = X.loc[rows], y.loc[rows]
        if labels.nunique() == 1:
            node["leaf"] = labels.iloc[0]
            continue
        if not attributes or len(D[attributes].drop_duplicates()) == 1 or depth == max_depth:
            node["leaf"] = majority(labels)
            continue
        gains = split_table(D[attributes], labels, criterion="info_gain")["info_gain"]
        best = attributes[int(np.argmax(gains.to_numpy()))]
        node.update(attribute=best, majority=majority(labels), children={})
        for value in domain[best]:
            child = node["children"][value] = {}
            subset = D.index[D[best] == value]
            if len(subset) == 0:
                child["leaf"] = majority(labels)
            else:
                queue.append((child, subset, [a for a in attributes if a != best], depth + 1))
        peak = max(peak, len(queue))
    return root, peak


def predict(node, row):
    while "leaf" not in node:
        node = node["children"][row[node["attribute"]]]
    return node["leaf"]


def count(node):
    return 1 if "leaf" in node else sum(count(c) for c in node["children"].values())


grid = pd.DataFrame(list(itertools.product(*domain.values())), columns=X.columns)
sizes = {}
for max_depth in (1, 2, 3, None):
    root, peak = tree_generate(X, y, max_depth)
    ours = np.array([predict(root, row) for _, row in grid.iterrows()])
    library = DecisionTreeClassifier(criterion="info_gain", max_depth=max_depth).fit(X, y)
    agree = np.mean(ours == library.predict(grid))
    sizes[str(max_depth)] = count(root)
    print(f"MaxDepth = {max_depth}: {count(root)} leaves, at most {peak} nodes waiting in the queue; "
          f"same prediction as the library on {agree:.0%} of the {len(grid)} value combinations")
    assert agree == 1.0

figure, ax = plt.subplots(figsize=(5, 3.5))
ax.bar(list(sizes), list(sizes.values()))
ax.set_xlabel("MaxDepth")
ax.set_ylabel("leaves")
ax.set_title("习题4.7: 基于队列的 TreeGenerate (西瓜数据集2.0)")
apply_cjk_font(figure)
plt.show()
