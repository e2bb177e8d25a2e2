"""``hyperplane tour``: every family on the shipped textbook datasets.

Each family contributes one section: a function that takes a
:class:`rich.console.Console` and prints what a student would check.
"""

from __future__ import annotations

from .tour_linear import linear_section
from .tour_neural import tour_neural
from .tour_perceptron import perceptron_section
from .tour_tree import tree_section

#: section name -> (title, function(console))
SECTIONS = {
    "perceptron": ("感知机 Perceptron (李航 ch.2)", perceptron_section),
    "linear": ("Least squares, Fisher and logistic regression (西瓜数据集3.0α)", linear_section),
    "neural": ("Neural networks: error backpropagation (周志华 ch. 5)", tour_neural),
    "tree": ("Decision trees (周志华 ch. 4)", tree_section),
}


def run_tour(console, sections=None):
    """Print the chosen tour sections (all of them by default)."""
    names = list(SECTIONS) if sections is None else sections
    unknown = [name for name in names if name not in SECTIONS]
    if unknown:
        raise ValueError(f"unknown tour section(s) {unknown}; choose from {list(SECTIONS)}")
    for name in names:
        title, section = SECTIONS[name]
        console.rule(f"[bold]{title}")
        section(console)
