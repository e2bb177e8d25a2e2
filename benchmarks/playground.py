"""How fast the playground answers: every step of each lesson on the shipped data,
the pictures of steps a stream sent undrawn (a step back after a run asks for
them: the lesson is replayed to that step), and a streamed run of 1,000 steps
on 10,000 points.

Each request goes through the Flask app (routing, the library's fit or trace,
JSON), timed as wall and process CPU time; the first request of a lesson,
which fits, is reported apart as "start". Every lesson runs twice: the table
is the second run; the first run's slowest step (numba compiling on first
use, once per server process) is its last column. BLAS runs on one thread,
as in ``hyperplane playground``.

    PYTHONPATH=src python benchmarks/playground.py
"""

from __future__ import annotations

import json
import time

import numpy as np
from hyperplane.playground import create_app, keep_blas_on_one_thread

#: (label, learner, dataset, params): the lessons on the shipped datasets
LESSONS = [
    ("perceptron 例2.1 primal", "perceptron", "example-2.1", {"variant": "primal"}),
    ("perceptron 例2.2 dual", "perceptron", "example-2.1", {"variant": "dual"}),
    ("perceptron 西瓜3.0α primal", "perceptron", "watermelon-3.0alpha", {"max_epochs": 200}),
    ("kernel perceptron 西瓜3.0α", "perceptron", "watermelon-3.0alpha",
     {"variant": "kernel", "sigma": 0.1, "max_epochs": 50}),
    ("SVM 例7.1 (C=∞)", "svm", "example-2.1", {"kernel": "linear", "C": "inf"}),
    ("SVM 西瓜3.0α RBF", "svm", "watermelon-3.0alpha", {"kernel": "rbf", "C": "10",
                                                        "sigma": 0.3}),
    ("SVR sine", "svm", "sine", {"kernel": "rbf", "C": "10"}),
    ("tree 西瓜2.0 ID3", "tree", "watermelon-2.0", {}),
    ("tree 西瓜3.0 C4.5", "tree", "watermelon-3.0", {"criterion": "gain_ratio"}),
    ("tree 西瓜2.0α (missing)", "tree", "watermelon-2.0alpha", {}),
    ("tree 表4.2 post-pruning", "tree", "split-4.2", {"pruning": "post"}),
    ("tree 表4.2 pre-pruning", "tree", "split-4.2", {"pruning": "pre"}),
    ("tree loan CART", "tree", "loan", {"criterion": "gini"}),
    ("BP XOR", "bp", "xor", {"max_epochs": 200}),
    ("BP 西瓜3.0", "bp", "watermelon-3.0", {"max_epochs": 200}),
]


def _timed(call):
    wall, cpu = time.perf_counter(), time.process_time()
    result = call()
    return result, 1000 * (time.perf_counter() - wall), 1000 * (time.process_time() - cpu)


def lesson(client, learner, dataset, params):
    body = {"learner": learner, "dataset": dataset, "params": params}
    start, start_wall, _ = _timed(lambda: client.post("/api/start", json=body).get_json())
    walls, cpus = [], []
    while True:
        reply, wall, cpu = _timed(lambda: client.post(
            "/api/step", json={"run": start["run"], "mode": "step"}).get_json())
        if not reply["steps"]:
            break
        walls.append(wall)
        cpus.append(cpu)
    return start_wall, np.array(walls), np.array(cpus)


def linear_drag(client):
    base = client.post("/api/linear", json={}).get_json()
    points = [[x, y] for x, y in zip(base["points"]["x"], base["points"]["y"])]
    walls, cpus = [], []
    for k in range(20):
        points[k % len(points)][1] += 0.01
        _, wall, cpu = _timed(lambda: client.post("/api/linear", json={"points": points}))
        walls.append(wall)
        cpus.append(cpu)
    return np.array(walls), np.array(cpus)


def stream(client, max_steps=1000):
    body = {"learner": "perceptron", "dataset": "separable-10000", "params": {}}
    start = client.post("/api/start", json=body).get_json()
    wall, cpu = time.perf_counter(), time.process_time()
    response = client.get(f"/api/stream/{start['run']}?max_steps={max_steps}", buffered=False)
    arrivals, steps = [], 0
    for chunk in response.response:
        text = chunk.decode() if isinstance(chunk, bytes) else chunk
        if text.startswith("data: {\"steps\""):
            steps += len(json.loads(text[6:])["steps"])
            arrivals.append(1000 * (time.perf_counter() - wall))
    return steps, arrivals, 1000 * (time.perf_counter() - wall), 1000 * (time.process_time() - cpu)


def undrawn_pictures(client, learner, dataset, params):
    """A streamed run, then ``/api/picture`` of undrawn steps (what a step back
    after the stream asks): the replay of the lesson to step k, timed."""
    body = {"learner": learner, "dataset": dataset, "params": params}
    start = client.post("/api/start", json=body).get_json()
    text = client.get(f"/api/stream/{start['run']}").get_data(as_text=True)
    steps = [s for line in text.splitlines() if line.startswith("data: {\"steps\"")
             for s in json.loads(line[6:])["steps"]]
    undrawn = [s["k"] for s in steps if s.get("undrawn")]
    out = []
    for k in (undrawn[0], undrawn[len(undrawn) // 2], undrawn[-1]) if undrawn else ():
        _, wall, cpu = _timed(lambda k=k: client.post(
            "/api/picture", json={"run": start["run"], "k": k}).get_json())
        out.append((k, wall, cpu))
    return len(steps), len(undrawn), out


#: (label, learner, dataset, params) of the streamed runs whose undrawn steps are asked for
PICTURE_LESSONS = [
    ("BP XOR, 3000 epochs", "bp", "xor", {}),
    ("kernel perceptron 西瓜3.0α, 50 epochs", "perceptron", "watermelon-3.0alpha",
     {"variant": "kernel", "sigma": 0.1, "max_epochs": 50}),
]


def main():
    client = create_app().test_client()
    keep_blas_on_one_thread()   # as ``serve`` does
    cold = {label: lesson(client, *rest) for label, *rest in LESSONS}
    print("| lesson | steps | start ms wall | step median ms wall / CPU | step max ms wall / CPU "
          "| steps over 100 ms wall | first run: step max ms wall / CPU |")
    print("|---|---|---|---|---|---|---|")
    for label, learner, dataset, params in LESSONS:
        start, walls, cpus = lesson(client, learner, dataset, params)
        _, cold_walls, cold_cpus = cold[label]
        print(f"| {label} | {len(walls)} | {start:.0f} | {np.median(walls):.1f} / "
              f"{np.median(cpus):.1f} | {walls.max():.1f} / {cpus.max():.1f} | "
              f"{int(np.sum(walls > 100))} | {cold_walls.max():.0f} / {cold_cpus.max():.0f} |")
    walls, cpus = linear_drag(client)
    print(f"| linear 西瓜3.0α: refit after a drag (3 models) | {len(walls)} | – | "
          f"{np.median(walls):.1f} / {np.median(cpus):.1f} | {walls.max():.1f} / "
          f"{cpus.max():.1f} | {int(np.sum(walls > 100))} |")
    print("\n| streamed run | steps | undrawn | /api/picture of step k: ms wall / CPU |")
    print("|---|---|---|---|")
    for label, *rest in PICTURE_LESSONS:
        n, undrawn, timed = undrawn_pictures(client, *rest)
        cells = ", ".join(f"k={k}: {wall:.0f} / {cpu:.0f}" for k, wall, cpu in timed)
        print(f"| {label} | {n} | {undrawn} | {cells} |")
    steps, arrivals, total, cpu = stream(client)
    gaps = np.diff([0.0] + arrivals)
    print(f"\nstream: {steps} perceptron steps on 10,000 points in {len(arrivals)} batches; "
          f"first batch after {arrivals[0]:.0f} ms, longest gap between batches "
          f"{gaps.max():.0f} ms, all in {total:.0f} ms wall / {cpu:.0f} ms CPU")


if __name__ == "__main__":
    main()
