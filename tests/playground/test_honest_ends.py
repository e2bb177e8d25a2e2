"""Issue #29 "honest ends": every run of the playground ends within a budget, and
one that stops without converging says so (the reason and what to change),
instead of showing an iteration count as a result or a raw Python message.

Each case was a finding on main: the perceptron on 西瓜3.0α ended "done: 5751
steps" with no warning; SVR on the sine failed on its own default controls
("C must be finite"); the linear hard-margin SVM on 西瓜3.0α answered with the
raw error; the poly hard margin ran 100,000 SMO iterations, all sent to the page.
"""

import json

import pytest

from hyperplane.playground import create_app
from hyperplane.playground._server import CATALOG
from hyperplane.playground._svm import MAX_SMO_ITER, TRACE_HEAD, TRACE_TAIL

#: the controls' defaults as the page (static/app.js PARAMS) sends them
PAGE_DEFAULTS = {
    "perceptron": {"variant": "primal", "eta": "1", "sigma": "1", "max_epochs": "1000",
                   "click_class": "1"},
    "svm": {"kernel": "linear", "C": "inf", "sigma": "1", "epsilon": "0.1", "click_class": "1"},
    "tree": {"criterion": "info_gain", "pruning": "none"},
    "bp": {"hidden_units": "4", "hidden": "4", "eta": "1", "max_epochs": "3000"},
    "linear": {},
}
CLICKED = [[1, 1, 1], [2, 3, 1], [5, 4, -1], [6, 1, -1]]


@pytest.fixture(scope="module")
def client():
    return create_app().test_client()


def run_to_end(client, learner, dataset, **params):
    """Start a run as the page does and stream it to its end: ``(steps, events)``."""
    body = {"learner": learner, "dataset": dataset,
            "params": {**PAGE_DEFAULTS[learner], **params}}
    if dataset == "clicked":
        body["points"] = CLICKED
    started = client.post("/api/start", json=body)
    assert started.status_code == 200, started.get_json()
    if learner == "linear":
        return [], []
    text = client.get(f"/api/stream/{started.get_json()['run']}").get_data(as_text=True)
    steps, events = [], []
    for block in text.strip().split("\n\n"):
        lines = dict(line.split(": ", 1) for line in block.split("\n"))
        data = json.loads(lines["data"])
        if "event" in lines:
            events.append((lines["event"], data))
        else:
            steps.extend(data["steps"])
    return steps, events


def test_the_perceptron_on_non_separable_data_says_it_did_not_converge(client):
    steps, events = run_to_end(client, "perceptron", "watermelon-3.0alpha", max_epochs="50")
    assert events[-1][0] == "end"
    stopped = steps[-1]["stopped"]
    assert stopped["reason"] == "not_separable" and stopped["epochs"] == 50
    assert "not converged" in steps[-1]["status"]


def test_the_perceptron_on_example_2_1_converges_without_a_stop(client):
    steps, _ = run_to_end(client, "perceptron", "example-2.1")
    assert [s["row"][0] for s in steps] == ["x1", "x3", "x3", "x3", "x1", "x3", "x3", "0"]  # 表2.1
    assert not any("stopped" in s for s in steps)


def test_the_linear_hard_margin_on_non_separable_data_ends_with_its_reason(client):
    steps, events = run_to_end(client, "svm", "watermelon-3.0alpha")
    assert events[-1][0] == "end"
    assert steps[-1]["stopped"]["reason"] == "hard_margin"
    assert "finite C" in steps[-1]["status"]


def test_svr_runs_on_the_page_s_default_c(client):
    steps, events = run_to_end(client, "svm", "sine")
    assert events[-1][0] == "end"
    assert steps[-1]["stopped"] == {"reason": "svr_hard", "C": 10.0}
    assert "support vectors" in steps[-1]["status"]


def test_the_poly_hard_margin_stops_at_its_cap_and_says_so(client):
    steps, events = run_to_end(client, "svm", "watermelon-3.0alpha", kernel="poly")
    assert events[-1][0] == "end"
    last = steps[-1]
    assert last["stopped"] == {"reason": "iteration_cap", "iterations": MAX_SMO_ITER}
    assert "not converged" in last["status"] and "finite C" in last["status"]
    # the trace sent is capped: its head, one row counting the rest, its tail, the result
    assert len(steps) == TRACE_HEAD + 1 + TRACE_TAIL + 1
    assert steps[TRACE_HEAD]["omitted"] == MAX_SMO_ITER - TRACE_HEAD - TRACE_TAIL


@pytest.mark.parametrize("learner, dataset", [(learner, dataset) for learner, datasets
                                              in CATALOG.items() for dataset in datasets])
def test_every_learner_runs_on_every_dataset_with_the_page_s_defaults(monkeypatch, learner,
                                                                     dataset):
    """Each pair starts, and its stream ends: done, or stopped by the (here 15 s) time
    budget with that reason, never a 4xx or another failure."""
    from hyperplane.playground import _server

    monkeypatch.setattr(_server, "STREAM_SECONDS", 15.0)
    steps, events = run_to_end(create_app().test_client(), learner, dataset)
    for kind, data in events:
        assert kind == "end" or data.get("stopped", {}).get("reason") == "time_budget", events
    if learner != "linear":
        assert steps


def test_a_stream_past_its_time_budget_says_why_in_a_reason_the_page_translates(monkeypatch):
    from hyperplane.playground import _server

    monkeypatch.setattr(_server, "STREAM_SECONDS", 0.0)
    client = create_app().test_client()
    steps, events = run_to_end(client, "perceptron", "separable-10000")
    kind, data = events[-1]
    assert kind == "failure" and data["stopped"] == {"reason": "time_budget", "seconds": 0}
    assert "press run to go on" in data["error"]


def test_an_epoch_request_is_capped_in_steps_and_seconds_and_goes_on_at_the_next():
    from hyperplane.playground._runs import Run

    run = Run({}, ({"row": [k]} for k in range(12)))   # one epoch with no end mark
    assert [s["row"][0] for s in run.epoch(max_steps=5)] == [0, 1, 2, 3, 4]
    assert [s["row"][0] for s in run.epoch(max_steps=5)] == [5, 6, 7, 8, 9]
    assert len(run.epoch(max_steps=5, seconds=0.0)) == 1   # past its deadline: one step
    assert [s["row"][0] for s in run.epoch()] == [11] and run.done


def test_two_concurrent_runs_each_learn_their_own_end_without_touching_warning_filters():
    """The server answers in threads: a poly hard margin that hits the SMO cap and
    a linear one that converges, started at the same moment, each report their
    own end, read from the models; no lesson swaps the process's warning filters
    (``warnings.catch_warnings`` is not thread-safe: overlapping requests restored
    each other's filters)."""
    import inspect
    import threading
    import warnings

    from hyperplane.playground import _bp, _linear, _perceptron, _server, _svm, _tree

    before = list(warnings.filters)
    app = create_app()
    cases = {"poly": ("watermelon-3.0alpha", {"kernel": "poly"}),
             "linear": ("example-2.1", {"kernel": "linear"})}
    barrier = threading.Barrier(len(cases))
    results, failures = {}, []

    def one(name):
        dataset, params = cases[name]
        try:
            barrier.wait(timeout=30)
            results[name] = run_to_end(app.test_client(), "svm", dataset, **params)
        except BaseException as exc:  # noqa: BLE001 - reported by the main thread
            failures.append((name, exc))

    threads = [threading.Thread(target=one, args=(name,)) for name in cases]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=300)
    assert not failures, failures
    poly_final = results["poly"][0][-1]
    assert poly_final["stopped"] == {"reason": "iteration_cap", "iterations": MAX_SMO_ITER}
    linear_final = results["linear"][0][-1]
    assert linear_final.get("final") and "stopped" not in linear_final
    assert linear_final["say"]["key"] == "svc_done"
    assert list(warnings.filters) == before
    # (pandas itself uses catch_warnings, so the lessons' own source is what is checked)
    for module in (_bp, _linear, _perceptron, _svm, _tree, _server):
        assert "catch_warnings(" not in inspect.getsource(module), module.__name__
