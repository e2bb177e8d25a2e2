"""The playground's 表4.2 pruning steps: the validation rows each decision shows
(周志华 4.3, figures 4.5 and 4.6), through the JSON endpoints.
"""

import pytest

pytest.importorskip("flask")
pytest.importorskip("plotly")

from .test_server import _all_steps, _start, client  # noqa: E402,F401  (client: the fixture)


VALIDATION_ROWS = ["4", "5", "8", "9", "11", "12", "13"]
TRUTH_42 = ["是", "是", "是", "否", "否", "否", "否"]


def _decisions(client, pruning):
    steps = _all_steps(client, _start(client, "tree", "split-4.2", pruning=pruning)["run"])
    return [s for s in steps if "pruning" in s]


def _column(rows, key):
    return [r[key] for r in rows]


def _flipped(rows):
    return [r["id"] for r in rows if r["correct_before"] != r["correct_after"]]


def test_table_4_2_post_pruning_rows_at_nodes_6_and_5_of_figure_4_5(client):
    decisions = _decisions(client, "post")
    textures, colours = decisions[0], decisions[1]
    assert textures["pruning"] == {"node": 10, "decision": "prune", "kind": "post"}
    rows = textures["validation"]
    assert _column(rows, "id") == VALIDATION_ROWS and _column(rows, "y") == TRUTH_42
    assert _column(rows, "before") == ["是", "否", "否", "是", "否", "否", "是"]
    assert _column(rows, "after") == ["是", "否", "是", "是", "否", "否", "是"]
    assert _column(rows, "correct_before") == [True, False, False, False, True, True, False]
    assert _flipped(rows) == ["8"]
    assert colours["pruning"] == {"node": 8, "decision": "keep", "kind": "post"}
    rows = colours["validation"]
    assert _column(rows, "before") == _column(rows, "after") == \
        ["是", "否", "是", "是", "否", "否", "是"]
    assert _flipped(rows) == []


def test_table_4_2_pre_pruning_root_rows_of_figure_4_6(client):
    root = _decisions(client, "pre")[0]
    assert root["pruning"] == {"node": 1, "decision": "split", "kind": "pre"}
    rows = root["validation"]
    assert _column(rows, "before") == ["是"] * 7
    assert _column(rows, "after") == ["是", "是", "是", "是", "否", "否", "是"]
    assert [r["id"] for r in rows if r["correct_after"]] == ["4", "5", "8", "11", "12"]
    assert _flipped(rows) == ["11", "12"]


@pytest.mark.parametrize("pruning", ["pre", "post"])
def test_table_4_2_validation_rows_agree_with_the_trace_s_accuracy(client, pruning):
    """The rows right before and after each decision are the accuracies the tree's own
    ``pruning_trace_`` reports (``"42.9% → 57.1%"``), counted another way."""
    for step in _decisions(client, pruning):
        rows = step["validation"]
        before, after = (f"{100 * sum(r[k] for r in rows) / len(rows):.1f}%"
                         for k in ("correct_before", "correct_after"))
        assert step["row"][2] == f"{before} → {after}"


def test_no_validation_rows_without_table_4_2(client):
    steps = _all_steps(client, _start(client, "tree", "watermelon-2.0", pruning="post")["run"])
    assert [s for s in steps if "pruning" in s]
    assert not any("validation" in s for s in steps)
