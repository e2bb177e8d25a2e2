"""``pruning_trace_``: reduced-error pruning decision by decision (周志华 4.3, figures 4.6, 4.7).

On the 表4.2 split of 西瓜数据集2.0 the book prunes with validation accuracy
42.9% → 71.4%: pre-pruning splits the root on 脐部 (42.9% → 71.4%) and
forbids 色泽 (71.4% → 57.1%) and 根蒂 (71.4% → 71.4%); post-pruning turns
纹理 (42.9% → 57.1%) and then 色泽 at node ② (57.1% → 71.4%) into leaves.
"""

import numpy as np
import pandas as pd
import pytest

from hyperplane.datasets import load_watermelon
from hyperplane.tree import DecisionTreeClassifier

TRAIN = [1, 2, 3, 6, 7, 10, 14, 15, 16, 17]
VALID = [4, 5, 8, 9, 11, 12, 13]
COLUMNS = ["脐部", "色泽", "根蒂", "敲声", "纹理", "触感"]


def _split():
    X, y = load_watermelon("2.0")
    return (X.loc[TRAIN, COLUMNS], y.loc[TRAIN]), (X.loc[VALID, COLUMNS], y.loc[VALID])


def _fit(pruning):
    (X, y), validation = _split()
    return DecisionTreeClassifier(pruning=pruning).fit(X, y, validation_data=validation)


def _decisions(model):
    trace = model.pruning_trace_
    return [(a, round(b * 7), round(c * 7), d) for a, b, c, d in
            trace[["attribute", "accuracy_before", "accuracy_after", "decision"]]
            .itertuples(index=False)]


def test_pre_pruning_matches_figure_4_6():
    model = _fit("pre")
    # in sevenths of the 7 validation melons: 3/7 = 42.9%, 5/7 = 71.4%, 4/7 = 57.1%
    assert _decisions(model) == [("脐部", 3, 5, "split"), ("色泽", 5, 4, "leaf"),
                                 ("根蒂", 5, 5, "leaf")]
    assert list(model.pruning_trace_["kind"]) == ["pre"] * 3


def test_post_pruning_matches_figure_4_7():
    model = _fit("post")
    decisions = _decisions(model)
    assert decisions[0] == ("纹理", 3, 4, "prune")
    assert [d for d in decisions if d[3] == "prune"] == [("纹理", 3, 4, "prune"),
                                                         ("色泽", 4, 5, "prune")]
    assert decisions[-1][0] == "脐部" and decisions[-1][3] == "keep"   # the root stays


@pytest.mark.parametrize("pruning", ["pre", "post"])
def test_trace_ends_at_the_pruned_trees_validation_accuracy(pruning):
    (_, _), (X_val, y_val) = _split()
    model = _fit(pruning)
    trace = model.pruning_trace_
    adopted = trace[trace["decision"].isin(["split", "prune"])]
    final = adopted["accuracy_after"].iloc[-1]
    assert final == pytest.approx(model.score(X_val, y_val)) == pytest.approx(5 / 7)
    # each decision starts where the previous adopted one left the tree
    before = trace["accuracy_before"].to_numpy()
    expected = np.where(trace["decision"].isin(["split", "prune"]),
                        trace["accuracy_after"], trace["accuracy_before"]).astype(float)
    np.testing.assert_allclose(before[1:], expected[:-1])


def test_post_trace_accuracies_match_refitted_pruned_subtrees():
    """Brute force: the accuracy after the first post-pruning decision is that of
    the unpruned tree with that one subtree replaced by a leaf, scored directly."""
    (X, y), (X_val, y_val) = _split()
    full = DecisionTreeClassifier().fit(X, y)
    post = _fit("post")
    assert post.pruning_trace_["accuracy_before"].iloc[0] == pytest.approx(
        full.score(X_val, y_val))


def test_no_trace_without_reduced_error_pruning():
    (X, y), _ = _split()
    assert not hasattr(DecisionTreeClassifier().fit(X, y), "pruning_trace_")
    assert not hasattr(DecisionTreeClassifier(pruning="pessimistic").fit(X, y),
                       "pruning_trace_")


def test_hold_out_validation_also_traced():
    X, y = load_watermelon("2.0")
    model = DecisionTreeClassifier(pruning="post", random_state=0).fit(X, y)
    assert isinstance(model.pruning_trace_, pd.DataFrame)
    assert model.pruning_trace_["accuracy_before"].between(0, 1).all()
