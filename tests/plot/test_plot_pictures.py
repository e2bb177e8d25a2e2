"""Every picture is a non-empty PNG that changes with the model it shows.

scikit-learn models (or small fakes carrying the SPEC attributes) show that
the functions need only the SPEC attributes; the ``hyperplane_*`` cases run
the same checks on hyperplane's own estimators.
"""

import importlib
import io
import warnings

import matplotlib
import matplotlib.image
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
from sklearn.datasets import make_moons
from sklearn.linear_model import LogisticRegression, Perceptron
from sklearn.neighbors import KNeighborsClassifier
from sklearn.svm import SVC
from sklearn.tree import DecisionTreeClassifier

from hyperplane.datasets import load_perceptron_example, load_watermelon
from hyperplane.plot import (animate_perceptron_updates, cjk_font_name, plot_decision_regions,
                             plot_loss_curves, plot_model, plot_perceptron_updates,
                             plot_svm_margins, plot_tree)

matplotlib.use("Agg")
X_MOONS, Y_MOONS = make_moons(n_samples=60, noise=0.2, random_state=0)


def pixels(figure):
    """RGBA pixels of ``figure`` rendered to PNG (and closed); asserts a real picture."""
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=60)
    plt.close(figure)
    data = buffer.getvalue()
    assert data.startswith(b"\x89PNG") and len(data) > 2000
    image = matplotlib.image.imread(io.BytesIO(data), format="png")
    assert image.reshape(-1, image.shape[-1]).std(axis=0).max() > 0.05  # not a blank canvas
    return image


def assert_pictures_differ(first, second):
    a, b = pixels(first), pixels(second)
    assert a.shape != b.shape or np.abs(a - b).max() > 0.1


class _TracedPerceptron:
    """A fake fitted perceptron: the SPEC attributes of Perceptron(record_trace=True)."""

    def __init__(self, steps):
        self.classes_ = np.array([-1, 1])
        self.trace_ = pd.DataFrame({
            "step": np.arange(1, len(steps) + 1), "sample": [s for s, _, _ in steps],
            "w": [np.array(w, dtype=float) for _, w, _ in steps], "b": [b for _, _, b in steps]})


# the book's 例2.1 updates (x1, x3, x3, x3, x1, x3, x3) and a shorter, different run
BOOK_STEPS = [(0, (3, 3), 1), (2, (2, 2), 0), (2, (1, 1), -1), (2, (0, 0), -2),
              (0, (3, 3), -1), (2, (2, 2), -2), (2, (1, 1), -3)]
OTHER_STEPS = [(0, (3, 3), 1), (2, (2, 2), 0), (2, (1, 0.5), -2)]


def test_decision_regions_show_the_model():
    assert_pictures_differ(
        plot_decision_regions(LogisticRegression().fit(X_MOONS, Y_MOONS), X_MOONS, Y_MOONS).figure,
        plot_decision_regions(KNeighborsClassifier(3).fit(X_MOONS, Y_MOONS), X_MOONS,
                              Y_MOONS).figure)


def test_decision_regions_with_chinese_feature_names_and_labels():
    X, y = load_watermelon("3.0alpha")
    figure = plot_decision_regions(DecisionTreeClassifier(max_depth=2).fit(X, y), X, y).figure
    assert figure.axes[0].get_xlabel() == "密度"
    pixels(figure)


def test_chinese_names_render_on_axes_the_caller_created():
    if cjk_font_name() is None:
        pytest.skip("no CJK font: `pip install mplfonts` (a dependency) or fonts-noto-cjk")
    X, y = load_watermelon("3.0alpha")
    figure, axes = plt.subplots(1, 2)  # labels created before the plot function runs
    with warnings.catch_warnings():
        warnings.filterwarnings("error", message=".*missing from font")
        plot_decision_regions(DecisionTreeClassifier().fit(X, y), X, y, ax=axes[0])
        plot_svm_margins(SVC().fit(X, y), X, y, ax=axes[1], title="西瓜")
        pixels(figure)


def test_decision_regions_need_two_features():
    X, y = load_watermelon("3.0")
    with pytest.raises(ValueError, match="2 numeric features"):
        plot_decision_regions(Perceptron(), X.iloc[:, 6:].assign(z=1.0), y)


def test_perceptron_updates_grid_shows_each_update():
    X, y = load_perceptron_example()
    book = plot_perceptron_updates(_TracedPerceptron(BOOK_STEPS), X, y)
    assert sum(ax.get_visible() for ax in book.axes) == 7
    assert_pictures_differ(book, plot_perceptron_updates(_TracedPerceptron(OTHER_STEPS), X, y))


def test_perceptron_updates_animation(tmp_path):
    X, y = load_perceptron_example()
    animation = animate_perceptron_updates(_TracedPerceptron(BOOK_STEPS), X, y, interval=100)
    path = tmp_path / "updates.gif"
    animation.save(path, writer="pillow")
    plt.close("all")
    assert path.stat().st_size > 2000


def test_perceptron_updates_need_a_trace():
    X, y = load_perceptron_example()
    with pytest.raises(ValueError, match="record_trace=True"):
        plot_perceptron_updates(Perceptron().fit(X, y), X, y)


def test_svm_margins_show_the_model():
    X, y = X_MOONS, Y_MOONS
    assert_pictures_differ(plot_svm_margins(SVC(kernel="linear").fit(X, y), X, y).figure,
                           plot_svm_margins(SVC(kernel="rbf", C=10).fit(X, y), X, y).figure)


def test_tree_drawing_shows_the_model():
    X, y = load_watermelon("3.0alpha")
    assert_pictures_differ(plot_tree(DecisionTreeClassifier(max_depth=1).fit(X, y)).figure,
                           plot_tree(DecisionTreeClassifier(max_depth=3).fit(X, y)).figure)


BOOK_TREE = """digraph tree {
node [shape=box];
0 [label="纹理=?"]; 1 [label="根蒂=?"]; 2 [label="触感=?"]; 3 [label="坏瓜"];
4 [label="好瓜"]; 5 [label="坏瓜"]; 6 [label="好瓜"]; 7 [label="坏瓜"];
0 -> 1 [label="清晰"]; 0 -> 2 [label="稍糊"]; 0 -> 3 [label="模糊"];
1 -> 4 [label="蜷缩"]; 1 -> 5 [label="硬挺"]; 2 -> 7 [label="硬滑"]; 2 -> 6 [label="软粘"];
}"""


def test_tree_drawing_renders_chinese_without_boxes():
    if cjk_font_name() is None:
        pytest.skip("no CJK font: `pip install mplfonts` (a dependency) or fonts-noto-cjk")
    with warnings.catch_warnings():
        warnings.filterwarnings("error", message=".*missing from font")
        image = pixels(plot_tree(dot=BOOK_TREE).figure)
    assert image.size > 0


def test_dot_parsing_keeps_names_and_branches():
    from hyperplane.plot import parse_dot

    nodes, root = parse_dot(BOOK_TREE)
    assert nodes[root].label == "纹理=?"
    assert [label for label, _ in nodes[root].children] == ["清晰", "稍糊", "模糊"]
    with pytest.raises(ValueError, match="one tree"):
        parse_dot("digraph { a -> b; c -> d; }")


def test_loss_curves_show_the_model():
    class Net:
        def __init__(self, curve):
            self.loss_curve_ = curve

    assert_pictures_differ(plot_loss_curves(Net([1.0, 0.6, 0.4, 0.3])).figure,
                           plot_loss_curves(Net([1.0, 0.9, 0.2, 0.1, 0.05])).figure)
    with pytest.raises(TypeError, match="loss_curve_"):
        plot_loss_curves(Perceptron())


def test_plot_model_picks_a_picture():
    X, y = X_MOONS, Y_MOONS
    assert plot_model(SVC().fit(X, y), X, y).axes[0].get_title().startswith("SVC")
    assert "leaves" in plot_model(DecisionTreeClassifier().fit(X, y)).axes[0].get_title()
    assert "decision regions" in plot_model(Perceptron().fit(X, y), X, y).axes[0].get_title()
    with pytest.raises(ValueError, match="no picture"):
        plot_model(Perceptron().fit(X, y))
    plt.close("all")


def _hyperplane(path):
    module, _, name = path.partition(":")
    return getattr(importlib.import_module(module), name)


def test_hyperplane_perceptron_updates_of_example_2_1():
    Perceptron_ = _hyperplane("hyperplane.linear:Perceptron")
    X, y = load_perceptron_example()
    model = Perceptron_(record_trace=True).fit(X, y)
    assert_pictures_differ(plot_perceptron_updates(model, X, y),
                           plot_perceptron_updates(model, X, y, max_steps=3))


def test_hyperplane_svc_margins():
    SVC_ = _hyperplane("hyperplane.svm:SVC")
    assert_pictures_differ(
        plot_svm_margins(SVC_(kernel="linear").fit(X_MOONS, Y_MOONS), X_MOONS, Y_MOONS).figure,
        plot_svm_margins(SVC_(kernel="rbf").fit(X_MOONS, Y_MOONS), X_MOONS, Y_MOONS).figure)


def test_hyperplane_tree_of_watermelon_2_0():
    Tree = _hyperplane("hyperplane.tree:DecisionTreeClassifier")
    X, y = load_watermelon("2.0")
    with warnings.catch_warnings():
        warnings.filterwarnings("error", message=".*missing from font")
        assert_pictures_differ(plot_tree(Tree().fit(X, y)).figure,
                               plot_tree(Tree(max_depth=1).fit(X, y)).figure)


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
def test_hyperplane_mlp_loss_curves():
    MLP = _hyperplane("hyperplane.neural:MLPClassifier")
    a = MLP(random_state=0, max_iter=30).fit(X_MOONS, Y_MOONS)
    b = MLP(random_state=0, max_iter=30, learning_rate=0.5).fit(X_MOONS, Y_MOONS)
    assert_pictures_differ(plot_loss_curves(a).figure, plot_loss_curves(b).figure)


def test_without_any_cjk_font_plots_still_draw_and_say_how_to_fix(monkeypatch):
    from hyperplane.plot import _fonts

    monkeypatch.setattr(_fonts, "PACKAGED_FONTS", ())
    monkeypatch.setattr(_fonts, "SYSTEM_FAMILIES", ())
    _fonts.cjk_font_name.cache_clear()
    try:
        with pytest.warns(UserWarning, match="mplfonts"):
            assert _fonts.cjk_font_name() is None
        X, y = load_watermelon("3.0alpha")
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # the glyphs are missing: that is the point
            pixels(plot_decision_regions(DecisionTreeClassifier().fit(X, y), X, y).figure)
    finally:
        _fonts.cjk_font_name.cache_clear()
