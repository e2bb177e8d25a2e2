"""Seconds from ``hyperplane playground`` starting to its first answered step.

For each lesson: start the command (``--no-browser``, a free port), wait until it
answers ``/api/catalog``, then ask ``/api/start`` and one ``/api/step``, each
timed from the moment the process was started. ``--cold`` first deletes the
numba caches (``*.nbi``, ``*.nbc``) of the imported ``hyperplane`` package, so
the first step includes compiling its kernels; each lesson then runs cold and
warm (caches as the cold run left them).

    PYTHONPATH=src python benchmarks/playground_first_step.py --cold
"""

from __future__ import annotations

import argparse
import json
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import hyperplane

LESSONS = [("perceptron", "example-2.1"), ("svm", "example-2.1"),
           ("tree", "watermelon-2.0"), ("bp", "xor")]


def clear_numba_caches():
    root = Path(hyperplane.__file__).parent
    for pattern in ("*.nbi", "*.nbc"):
        for path in root.rglob(pattern):
            path.unlink()


def _free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _post(url, body):
    request = urllib.request.Request(url, json.dumps(body).encode(),
                                     {"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=600) as answer:
        return json.loads(answer.read())


def first_step(learner, dataset):
    """(listening, started, first step) seconds after the process started."""
    port = _free_port()
    started = time.perf_counter()
    process = subprocess.Popen([sys.executable, "-m", "hyperplane", "playground", "--no-browser",
                                "--port", str(port)],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    try:
        while True:
            try:
                with urllib.request.urlopen(base + "/api/catalog", timeout=1):
                    break
            except OSError:
                time.sleep(0.02)
        listening = time.perf_counter() - started
        run = _post(base + "/api/start", {"learner": learner, "dataset": dataset,
                                          "params": {}})["run"]
        fitted = time.perf_counter() - started
        _post(base + "/api/step", {"run": run, "mode": "step"})
        return listening, fitted, time.perf_counter() - started
    finally:
        process.terminate()
        process.wait()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cold", action="store_true",
                        help="delete the numba caches before each lesson's first run")
    args = parser.parse_args()
    print(f"{'lesson':28s} {'run':5s} {'listening':>10s} {'started':>10s} {'first step':>11s}")
    for learner, dataset in LESSONS:
        runs = ["cold", "warm"] if args.cold else ["warm"]
        for kind in runs:
            if kind == "cold":
                clear_numba_caches()
            listening, fitted, step = first_step(learner, dataset)
            print(f"{learner + ' ' + dataset:28s} {kind:5s} {listening:9.2f}s {fitted:9.2f}s "
                  f"{step:10.2f}s")


if __name__ == "__main__":
    main()
