"""Pruning a grown tree: pre and post (周志华 §4.3), pessimistic with subtree raising
(Quinlan 1993 ch. 4), cost complexity (Breiman et al. 1984 ch. 3).
"""
