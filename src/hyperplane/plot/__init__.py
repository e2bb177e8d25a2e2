"""Pictures of how the learners learned (matplotlib).

* :func:`plot_decision_regions` -- any classifier on 2-D data;
* :func:`plot_perceptron_updates`, :func:`animate_perceptron_updates` --
  the perceptron's updates step by step from ``trace_`` (李航 例2.1);
* :func:`plot_svm_margins` -- separating hyperplane, margins, support vectors;
* :func:`plot_tree` -- a decision tree with the data's own (Chinese) names;
* :func:`plot_loss_curves` -- ``loss_curve_`` of iterative learners;
* :func:`plot_model` -- whichever of these fits a model.

Chinese text is rendered with a CJK font (see :mod:`hyperplane.plot._fonts`);
use :func:`cjk_rc` / :func:`apply_cjk_font` for figures of your own.
"""

from ._dispatch import plot_model
from ._fonts import apply_cjk_font, cjk_font_name, cjk_rc
from ._loss import plot_loss_curves
from ._perceptron import animate_perceptron_updates, plot_perceptron_updates
from ._regions import plot_decision_regions
from ._svm import plot_svm_margins
from ._tree import parse_dot, plot_tree

__all__ = ["plot_decision_regions", "plot_perceptron_updates", "animate_perceptron_updates",
           "plot_svm_margins", "plot_tree", "parse_dot", "plot_loss_curves", "plot_model",
           "cjk_font_name", "cjk_rc", "apply_cjk_font"]
