"""Runs: a lesson's steps, produced lazily by the library and replayed to the page.

A run holds the generator of a lesson's steps; ``step``, ``epoch`` and
``stream`` hand the page the next step, the rest of the current epoch, or
everything in timed batches, so a long fit never freezes the page.

A step may carry ``"draw"``: a function giving its pictures (decision regions,
hidden outputs), which cost far more than its table row. Only the last step
of each reply is drawn, since the page shows only that one; ``draw`` is
called before the lesson moves on, while its models are still at that step.
"""

from __future__ import annotations

import itertools
import math
import threading
import time
from collections import OrderedDict

from ._fields import FieldError

#: how many finished or abandoned runs the server keeps
MAX_RUNS = 32
#: the most steps and seconds one "epoch" request takes: an epoch of a 200,000-row
#: upload would otherwise send 200,000 rows in one answer; the next click goes on
EPOCH_MAX_STEPS, EPOCH_SECONDS = 5000, 10.0
#: the most seconds a replay to an undrawn step's pictures takes
PICTURE_SECONDS = 20.0


def drawn(step):
    """``step`` with its pictures merged in (``plot`` entries into ``plot``)."""
    draw = step.pop("draw", None)
    if draw is not None:
        pictures = draw()
        step.setdefault("plot", {}).update(pictures.pop("plot", {}))
        step.update(pictures)
    return step


def undrawn(step):
    """``step`` without its pictures: the row and the curves stay; a step that
    had pictures says so (``"undrawn": True``), for the page to ask
    :meth:`Run.picture` when it shows that step."""
    if step.pop("draw", None) is not None:
        step["undrawn"] = True
    return step


class Run:
    """The steps of one lesson on one dataset, produced on demand."""

    def __init__(self, info, steps, replay=None):
        self.info = info
        self._steps = iter(steps)
        self._replay = replay
        self.done = False
        self.cursor = 0
        self.lock = threading.Lock()

    def picture(self, k, seconds=None):
        """The pictures of step ``k`` that a batch left undrawn, drawn now.

        The lessons are deterministic, so ``replay()`` (a fresh generator of the
        same steps) walked to step ``k`` has its models in that step's state.
        None when step ``k`` has no pictures, is not reached, or the walk takes
        longer than ``seconds`` (default :data:`PICTURE_SECONDS`).
        """
        if self._replay is None or not 1 <= k <= self.cursor:
            return None
        deadline = time.perf_counter() + (PICTURE_SECONDS if seconds is None else seconds)
        for position, step in enumerate(self._replay(), start=1):
            if position == k:
                return drawn(step) if "draw" in step else None
            step.pop("draw", None)
            if time.perf_counter() >= deadline:
                return None
        return None

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
            return [] if step is None else [drawn(step)]

    def epoch(self, max_steps=EPOCH_MAX_STEPS, seconds=EPOCH_SECONDS):
        """Steps up to and including the end of the current epoch, the last one
        drawn; at most ``max_steps`` of them or ``seconds`` of work (the rest of a
        long epoch comes with the next request)."""
        out = []
        deadline = time.perf_counter() + seconds
        with self.lock:
            while (step := self._next()) is not None:
                if out:  # superseded before it was drawn
                    undrawn(out[-1])
                out.append(step)
                if (step.get("epoch_end") or len(out) >= max_steps
                        or time.perf_counter() >= deadline):
                    break
            if out:  # drawn before the lesson moves on (or after it ended)
                drawn(out[-1])
        return out

    def stream(self, batch_seconds=0.1, max_steps=None, deadline=None):
        """Batches of steps, one at least every ``batch_seconds`` of work; the
        last step of each batch drawn. The first step goes out alone at once,
        so the page shows that the run has begun however fast the rest is.
        Stops after ``max_steps`` steps, or at the ``time.perf_counter()``
        value ``deadline`` (the run goes on from there at the next request)."""
        budget = itertools.count() if max_steps is None else range(max_steps)
        batch, started = [], -math.inf
        for _ in budget:
            if deadline is not None and time.perf_counter() >= deadline:
                break
            with self.lock:
                if batch and time.perf_counter() - started >= batch_seconds:
                    drawn(batch[-1])
                    yield batch
                    batch, started = [], time.perf_counter()
                try:
                    step = self._next()
                except Exception:
                    if batch:  # the steps made before the failure still reach the page
                        yield [undrawn(s) for s in batch]
                    raise
                if step is None:
                    break
                if batch:  # superseded before it was drawn
                    undrawn(batch[-1])
            batch.append(step)
        if batch:
            yield [drawn(batch[-1]) if i == len(batch) - 1 else step
                   for i, step in enumerate(batch)]


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
            raise FieldError("run", f"no run {run_id!r} (it ended or the server restarted); "
                                    "press reset", "run_gone")
        return run
