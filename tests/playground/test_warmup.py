"""The playground compiles each learner's kernels while it starts: the terminal
prints a line per learner and ``/api/warmup`` tells the page how far it is."""

import os
import subprocess
import sys
import time
import urllib.request

import pytest

pytest.importorskip("flask")

from hyperplane.playground import create_app  # noqa: E402
from hyperplane.playground._server import LESSONS, prepare_learner  # noqa: E402
from hyperplane.playground._warmup import WarmUp, terminal_report  # noqa: E402


@pytest.mark.parametrize("learner", list(LESSONS))
def test_each_learner_prepares_its_default_lesson(learner):
    prepare_learner(learner)


def test_a_failing_learner_is_reported_and_the_rest_still_prepare():
    def prepare(learner):
        if learner == "svm":
            raise ValueError("no kernel")

    lines = []
    warm = WarmUp(["perceptron", "svm", "tree"], prepare, report=terminal_report(lines.append))
    assert warm.state() == {"ready": [], "pending": ["perceptron", "svm", "tree"], "failed": {}}
    warm.run()
    assert warm.state() == {"ready": ["perceptron", "tree"], "pending": [],
                            "failed": {"svm": "ValueError: no kernel"}}
    assert lines[0].startswith("compiled perceptron (1/3) in ")
    assert lines[1] == "could not prepare svm (2/3): ValueError: no kernel"


def test_the_page_can_ask_how_far_the_warm_up_is():
    warm = WarmUp(["perceptron", "svm"], lambda learner: None)
    client = create_app(warm_up=warm).test_client()
    assert client.get("/api/warmup").get_json()["pending"] == ["perceptron", "svm"]
    warm.run()
    assert client.get("/api/warmup").get_json() == {"ready": ["perceptron", "svm"],
                                                    "pending": [], "failed": {}}
    assert create_app().test_client().get("/api/warmup").get_json()["pending"] == []


def test_hyperplane_playground_prints_each_learner_as_it_is_compiled(tmp_path):
    env = dict(os.environ, PYTHONIOENCODING="utf-8")
    process = subprocess.Popen([sys.executable, "-m", "hyperplane", "playground", "--no-browser",
                                "--port", "0"], stderr=subprocess.PIPE, stdout=subprocess.DEVNULL,
                               text=True, encoding="utf-8", env=env)
    lines = []
    try:
        deadline = time.monotonic() + 900
        while time.monotonic() < deadline:
            line = process.stderr.readline()
            if not line:
                break
            lines.append(line.strip())
            if f"({len(LESSONS)}/{len(LESSONS)})" in line:
                break
        url = lines[0].split(" at ")[1].split(" ")[0]
        with urllib.request.urlopen(url + "api/warmup", timeout=30) as response:
            state = response.read().decode()
    finally:
        process.terminate()
        process.wait(timeout=30)
    assert "compiling each learner's kernels" in lines[0], lines
    compiled = [line.split()[1] for line in lines[1:] if line.startswith("compiled ")]
    assert compiled == list(LESSONS), lines
    assert '"pending":[]' in state.replace(" ", ""), state


def test_the_page_says_when_its_learner_is_still_compiling(page):
    """While /api/warmup lists the page's learner as pending, the status says
    the kernels are compiling until the run starts."""
    pytest.importorskip("playwright")
    held = []
    page.route("**/api/warmup", lambda route: route.fulfill(
        json={"ready": [], "pending": list(LESSONS), "failed": {}}))
    page.route("**/api/start", lambda route: held.append(route))   # held until released
    page.goto(page.base_url + "#perceptron")
    page.wait_for_function("document.getElementById('status').textContent.includes('编译内核')",
                           timeout=60_000)
    assert "感知机" in page.get_by_test_id("status").inner_text()
    while not held:
        page.wait_for_timeout(50)
    for route in held:
        route.continue_()
    page.wait_for_function("!document.getElementById('status').textContent.includes('编译')",
                           timeout=60_000)
    assert not page.errors
