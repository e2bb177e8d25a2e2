"""Runs: a lesson's steps, produced lazily by the library and replayed to the page.

A run holds the generator of a lesson's steps and the steps produced so far;
``advance`` hands the page the next step, the rest of the current epoch, or
everything (streamed), so a long fit never freezes the page.
"""

from __future__ import annotations

import itertools
import threading
import time
from collections import OrderedDict

#: how many finished or abandoned runs the server keeps
MAX_RUNS = 32
#: pictures a streamed batch sends for its last step only (the page draws only that one)
HEAVY = ("regions", "hidden")


def lighten(step):
    """``step`` without its pictures: the rows and curves stay."""
    light = {k: v for k, v in step.items() if k not in HEAVY}
    if "plot" in step:
        light["plot"] = {k: v for k, v in step["plot"].items() if k not in HEAVY}
    return light


class Run:
    """The steps of one lesson on one dataset, produced on demand."""

    def __init__(self, info, steps):
        self.info = info
        self._steps = iter(steps)
        self.done = False
        self.cursor = 0
        self.lock = threading.Lock()

    def _next(self):
        if self.done:
            return None
        step = next(self._steps, None)
        if step is None:
            self.done = True
            return None
        self.cursor += 1
        step["k"] = self.cursor
        return step

    def step(self):
        """The next step (empty when the run has ended)."""
        with self.lock:
            step = self._next()
        return [] if step is None else [step]

    def epoch(self):
        """Steps up to and including the end of the current epoch."""
        out = []
        with self.lock:
            while (step := self._next()) is not None:
                out.append(step)
                if step.get("epoch_end"):
                    break
        return out

    def stream(self, batch_seconds=0.1, max_steps=None):
        """Batches of steps, one batch at least every ``batch_seconds`` of work."""
        budget = itertools.count() if max_steps is None else range(max_steps)
        batch, started = [], time.perf_counter()
        for _ in budget:
            with self.lock:
                step = self._next()
            if step is None:
                break
            batch.append(step)
            if time.perf_counter() - started >= batch_seconds:
                yield _last_drawn(batch)
                batch, started = [], time.perf_counter()
        if batch:
            yield _last_drawn(batch)


class RunStore:
    """The server's runs by id, the oldest forgotten past ``MAX_RUNS``."""

    def __init__(self, capacity=MAX_RUNS):
        self.capacity = capacity
        self._runs = OrderedDict()
        self._ids = itertools.count(1)
        self._lock = threading.Lock()

    def add(self, run):
        with self._lock:
            run_id = str(next(self._ids))
            self._runs[run_id] = run
            while len(self._runs) > self.capacity:
                self._runs.popitem(last=False)
        return run_id

    def get(self, run_id):
        with self._lock:
            run = self._runs.get(str(run_id))
        if run is None:
            raise KeyError(f"no run {run_id!r} (it ended or the server restarted); press reset")
        return run


def _last_drawn(batch):
    return [lighten(step) for step in batch[:-1]] + batch[-1:]
