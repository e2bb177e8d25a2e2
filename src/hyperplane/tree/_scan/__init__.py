"""Scanning a node: impurities, class tables and moments, the ordered cut scans and
the scoring of every attribute of a node (周志华 §4.2, §4.4.1; 李航 §5.2, §5.5).
"""
