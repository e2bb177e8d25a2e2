"""Looking at a fitted tree: export as text and DOT, the growth trace, a node's
candidate cuts.
"""
