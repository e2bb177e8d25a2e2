"""Where a test run's time goes: an opt-in pytest plugin and its report.

Per test it records the wall seconds, the worker's own CPU seconds, the CPU
seconds of the subprocesses it waited for (the CLI's end-to-end tests) and the
CPU seconds numba spent compiling (the outermost ``numba:compile`` events, so
that a callee compiled inside its caller counts once), with the number of
functions compiled. Usage, from the repository root (every ``*.nbi/*.nbc``
deleted first for a cold run)::

    TEST_COST_OUT=/tmp/cost/linear PYTHONPATH=src:. python -m pytest -n 1 \\
        -p no:randomly -p tests._test_cost tests/linear
    python -m tests._test_cost /tmp/cost/linear          # per file, then the slowest tests

Each xdist worker writes ``$TEST_COST_OUT.<worker>.json``; the report sums them.
"""

from __future__ import annotations

import glob
import json
import os
import resource
import sys
import time
from collections import defaultdict
from typing import NamedTuple

import pytest


class TestCost(NamedTuple):
    nodeid: str
    wall: float
    cpu: float
    children: float
    compile: float
    compiled: int


class _Compiling:
    """CPU seconds inside outermost numba compilations, and their count."""

    def __init__(self):
        self.depth, self.started, self.seconds, self.count = 0, 0.0, 0.0, 0

    def on_start(self, ev):
        if self.depth == 0:
            self.started = time.process_time()
        self.depth += 1
        self.count += 1

    def on_end(self, ev):
        self.depth -= 1
        if self.depth == 0:
            self.seconds += time.process_time() - self.started


_compiling = _Compiling()
_costs: list[TestCost] = []


def pytest_configure(config):
    from numba.core import event

    listener = type("Listener", (event.Listener,), {
        "on_start": lambda self, ev: _compiling.on_start(ev),
        "on_end": lambda self, ev: _compiling.on_end(ev)})
    event.register("numba:compile", listener())


def _children_cpu():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    wall, cpu, children = time.perf_counter(), time.process_time(), _children_cpu()
    compiling, compiled = _compiling.seconds, _compiling.count
    yield
    _costs.append(TestCost(item.nodeid, time.perf_counter() - wall, time.process_time() - cpu,
                           _children_cpu() - children, _compiling.seconds - compiling,
                           _compiling.count - compiled))


def pytest_sessionfinish(session):
    out = os.environ.get("TEST_COST_OUT")
    if out:
        worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
        with open(f"{out}.{worker}.json", "w") as f:
            json.dump([cost._asdict() for cost in _costs], f)


def report(out, slowest=25):
    """Per file (slowest first) and the ``slowest`` tests, from ``out``'s JSON files."""
    costs = [TestCost(**row) for path in glob.glob(f"{out}.*.json")
             for row in json.load(open(path))]
    files = defaultdict(list)
    for cost in costs:
        files[cost.nodeid.split("::")[0]].append(cost)
    columns = ("wall", "cpu", "children", "compile")
    print(f"{'file':58s}" + "".join(f"{c:>9s}" for c in columns) + f"{'compiled':>9s}{'tests':>6s}")
    for name, group in sorted(files.items(), key=lambda kv: -sum(c.wall for c in kv[1])):
        print(f"{name:58s}" + "".join(f"{sum(getattr(c, k) for c in group):9.1f}" for k in columns)
              + f"{sum(c.compiled for c in group):9d}{len(group):6d}")
    print(f"{'total':58s}" + "".join(f"{sum(getattr(c, k) for c in costs):9.1f}" for k in columns)
          + f"{sum(c.compiled for c in costs):9d}{len(costs):6d}")
    print(f"\nthe {slowest} slowest tests: wall, cpu, children, compile, compiled")
    for cost in sorted(costs, key=lambda c: -c.wall)[:slowest]:
        print("".join(f"{getattr(cost, k):7.1f}" for k in columns) + f"{cost.compiled:5d}  {cost.nodeid}")


if __name__ == "__main__":
    report(sys.argv[1], *map(int, sys.argv[2:3]))
