"""Time from ``hyperplane playground`` to the first answered step, cold and warm.

Starts the real command (``--no-browser --port 0``) and, as a student would,
asks for the first step of the default page (the perceptron on 例2.1) the
moment the server prints its URL; then waits for ``/api/warmup`` to report
every learner compiled. "cold" runs with an empty ``NUMBA_CACHE_DIR`` (a fresh
install), "warm" with the cache the cold run filled (every later start).

    PYTHONPATH=src python benchmarks/playground_start.py
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request


def post(url, body):
    request = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=900) as response:
        return json.loads(response.read())


def one_start(cache_dir):
    """Seconds from launch to: the URL printed, the first step answered, every
    learner compiled; and the terminal's per-learner lines."""
    env = dict(os.environ, NUMBA_CACHE_DIR=cache_dir, PYTHONIOENCODING="utf-8")
    launched = time.perf_counter()
    process = subprocess.Popen([sys.executable, "-m", "hyperplane", "playground", "--no-browser",
                                "--port", "0"], stderr=subprocess.PIPE,
                               stdout=subprocess.DEVNULL, text=True, env=env)
    # the server logs every request to stderr: read it all the time, or a full pipe
    # (a long cold start's /api/warmup polls) blocks the server on its next log line
    output = []
    first_line = threading.Event()

    def drain():
        for line in process.stderr:
            output.append(line)
            first_line.set()
        first_line.set()

    threading.Thread(target=drain, daemon=True).start()
    try:
        first_line.wait()
        listening = time.perf_counter() - launched
        url = output[0].split(" at ")[1].split(" ")[0]
        run = post(url + "api/start", {"learner": "perceptron", "dataset": "example-2.1"})["run"]
        post(url + "api/step", {"run": run, "mode": "step"})
        first_step = time.perf_counter() - launched
        while True:
            with urllib.request.urlopen(url + "api/warmup", timeout=900) as response:
                if not json.loads(response.read())["pending"]:
                    break
            time.sleep(0.2)
        all_ready = time.perf_counter() - launched
    finally:
        process.terminate()
        process.wait(timeout=60)
    lines = [line.strip() for line in output if line.startswith(("compiled", "could not"))]
    return listening, first_step, all_ready, lines


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.parse_args()
    with tempfile.TemporaryDirectory() as cache:
        rows = [("cold", *one_start(cache)), ("warm", *one_start(cache))]
    print("| start | server listening s | first step answered s | every learner compiled s |")
    print("|---|---:|---:|---:|")
    for label, listening, first_step, all_ready, _ in rows:
        print(f"| {label} | {listening:.1f} | {first_step:.1f} | {all_ready:.1f} |")
    for label, *_, lines in rows:
        print(f"{label}: " + "; ".join(lines))


if __name__ == "__main__":
    main()
