"""A decision tree drawn as a tree, in the data's own attribute and value names.

The drawing reads the tree's Graphviz DOT text (``export_graphviz`` of
:mod:`hyperplane.tree`, or of scikit-learn for its trees), so it depends on
no estimator's internals: nodes are DOT nodes with a ``label``, branches are
DOT edges whose ``label`` (or ``headlabel``) is the branch value. Leaves are
placed left to right in depth-first order and every parent is centred over
its children.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ._fonts import apply_cjk_font, cjk_rc

_ID = r'"(?:[^"\\]|\\.)*"|[\w.]+'
_ATTRS = r'\[((?:[^\]"]|"(?:[^"\\]|\\.)*")*)\]'
_EDGE = re.compile(rf"\s*({_ID})\s*->\s*({_ID})\s*(?:{_ATTRS})?")
_NODE = re.compile(rf"\s*({_ID})\s*{_ATTRS}")
_ATTR = re.compile(r'(\w+)\s*=\s*("(?:[^"\\]|\\.)*"|[^,\s\]]+)')
_KEYWORDS = {"node", "edge", "graph", "digraph", "subgraph"}


@dataclass
class _Node:
    label: str
    children: list = field(default_factory=list)  # [(edge label, node id)]
    x: float = 0.0
    depth: int = 0


def _unquote(text):
    if text.startswith('"') and text.endswith('"'):
        text = text[1:-1]
    text = re.sub(r"\\[nlr]", "\n", text)
    return text.replace('\\"', '"').strip()


def _attrs(text):
    return {key: _unquote(value) for key, value in _ATTR.findall(text or "")}


def _statements(dot):
    """Split DOT text at ``;``, newlines and braces outside quotes and brackets."""
    statements, current, quoted, bracket = [], [], False, 0
    for k, char in enumerate(dot):
        if char == '"' and (k == 0 or dot[k - 1] != "\\"):
            quoted = not quoted
        elif not quoted and char in "[]":
            bracket += 1 if char == "[" else -1
        elif not quoted and not bracket and char in ";\n{}":
            statements.append("".join(current))
            current = []
            continue
        current.append(char)
    statements.append("".join(current))
    return [s.strip() for s in statements if s.strip()]


def parse_dot(dot):
    """``(nodes, root)`` from DOT text: ``{id: _Node}`` and the root's id.

    Each node has its ``label`` and its ``children`` as ``(branch label,
    child id)`` pairs, in the order of the DOT edges.

    Examples
    --------
    >>> from hyperplane.plot import parse_dot
    >>> dot = ('digraph { 0 [label="纹理"]; 1 [label="好瓜"]; 2 [label="坏瓜"];'
    ...        ' 0 -> 1 [label="清晰"]; 0 -> 2 [label="模糊"]; }')
    >>> nodes, root = parse_dot(dot)
    >>> root, nodes[root].label, nodes[root].children
    ('0', '纹理', [('清晰', '1'), ('模糊', '2')])
    >>> [nodes[child].label for _, child in nodes[root].children]
    ['好瓜', '坏瓜']
    >>> parse_dot("digraph { 0 -> 1; 2 -> 3; }")
    Traceback (most recent call last):
    ...
    ValueError: the DOT text does not describe one tree
    """
    nodes, targets, edges = {}, set(), []
    for statement in _statements(dot):
        edge = _EDGE.match(statement)
        if edge:
            edges.append(edge)
            continue
        node = _NODE.match(statement)
        if node and _unquote(node.group(1)) not in _KEYWORDS:
            nodes[_unquote(node.group(1))] = _Node(_attrs(node.group(2)).get("label",
                                                                          node.group(1)))
    for match in edges:
        parent, child = _unquote(match.group(1)), _unquote(match.group(2))
        attrs = _attrs(match.group(3))
        label = attrs.get("label", attrs.get("headlabel", attrs.get("taillabel", "")))
        nodes.setdefault(parent, _Node(parent)).children.append((label, child))
        nodes.setdefault(child, _Node(child))
        targets.add(child)
    roots = [name for name in nodes if name not in targets]
    if not nodes or len(roots) != 1:
        raise ValueError("the DOT text does not describe one tree")
    return nodes, roots[0]


def _layout(nodes, root):
    """Assign x (leaf order, parents centred) and depth; return (n_leaves, max depth)."""
    next_leaf, deepest = 0.0, 0
    stack = [(root, 0, False)]
    while stack:  # iterative post-order: deep trees do not hit the recursion limit
        name, depth, done = stack.pop()
        node = nodes[name]
        node.depth = depth
        deepest = max(deepest, depth)
        if not node.children:
            node.x, next_leaf = next_leaf, next_leaf + 1
        elif done:
            node.x = sum(nodes[c].x for _, c in node.children) / len(node.children)
        else:
            stack.append((name, depth, True))
            stack.extend((child, depth + 1, False) for _, child in reversed(node.children))
    return int(next_leaf), deepest


def _dot_of(model):
    """DOT text of a fitted tree, through the exporter of the tree's own library."""
    module = type(model).__module__
    if module.startswith("hyperplane."):
        from hyperplane.tree import export_graphviz
        return export_graphviz(model)
    if module.startswith("sklearn.tree"):
        from sklearn.tree import export_graphviz
        names = getattr(model, "feature_names_in_", None)
        return export_graphviz(model, out_file=None, impurity=False,
                               feature_names=None if names is None else [str(n) for n in names],
                               class_names=[str(c) for c in model.classes_])
    raise TypeError(f"plot_tree draws hyperplane and scikit-learn trees, not "
                    f"{type(model).__name__}; pass dot= text instead")


def plot_tree(model=None, *, dot=None, ax=None, title=None, fontsize=10):
    """Draw a fitted decision tree (or DOT text) with its attribute and value names.

    Parameters
    ----------
    model : fitted tree, optional
        A ``hyperplane.tree`` or scikit-learn tree.
    dot : str, optional
        Graphviz DOT text of a tree, instead of ``model``.
    ax : matplotlib Axes, optional
    fontsize : float

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> dot = 'digraph { 0 [label="纹理"]; 1 [label="是"]; 2 [label="否"];' \\
    ...       ' 0 -> 1 [label="清晰"]; 0 -> 2 [label="模糊"]; }'
    >>> ax = plot_tree(dot=dot)
    """
    import matplotlib.pyplot as plt

    if (model is None) == (dot is None):
        raise ValueError("give either a fitted tree or dot= text")
    nodes, root = parse_dot(dot if dot is not None else _dot_of(model))
    n_leaves, depth = _layout(nodes, root)
    with cjk_rc():
        if ax is None:
            _, ax = plt.subplots(figsize=(max(4.0, 1.5 * n_leaves), max(3.0, 1.6 * (depth + 1))))
        for node in nodes.values():
            for label, child in node.children:
                target = nodes[child]
                ax.plot([node.x, target.x], [-node.depth, -target.depth], color="#555555",
                        linewidth=1.0, zorder=1)
                if label:
                    ax.text((node.x + target.x) / 2, -(node.depth + target.depth) / 2, label,
                            ha="center", va="center", fontsize=fontsize * 0.9, zorder=2,
                            bbox={"boxstyle": "round,pad=0.15", "fc": "white", "ec": "none"})
        for node in nodes.values():
            leaf = not node.children
            ax.text(node.x, -node.depth, node.label, ha="center", va="center",
                    fontsize=fontsize, zorder=3,
                    bbox={"boxstyle": "round,pad=0.4" if leaf else "square,pad=0.4",
                          "fc": "#e8f4e8" if leaf else "#fff4d6", "ec": "#333333"})
        ax.set_xlim(-0.7, max(n_leaves - 1, 0) + 0.7)
        ax.set_ylim(-depth - 0.6, 0.6)
        ax.axis("off")
        if title or model is not None:
            ax.set_title(title or f"{type(model).__name__}: {n_leaves} leaves")
    apply_cjk_font(ax.figure)
    return ax
