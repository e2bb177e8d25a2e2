"""Growing a tree: the data layout, the node-by-node grower, the expansion of a node
and the compiled subtree grower (周志华 图4.2).
"""
