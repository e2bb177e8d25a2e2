"""Compile each learner's kernels while the playground starts.

numba compiles a kernel on its first call (or loads it from its cache), so
the first step of each learner once waited tens of seconds behind "…". The
server runs every learner's default lesson for one step in a background
thread as soon as it listens: by the time a student clicks, the kernels are
compiled, and the terminal and ``/api/warmup`` say how far it has got.
"""

from __future__ import annotations

import threading
import time
from typing import NamedTuple


class Prepared(NamedTuple):
    """One learner's warm-up: how long its first step took, or why it failed."""
    learner: str
    seconds: float
    error: str | None


class WarmUp:
    """The learners prepared so far; ``run`` prepares them in order.

    Examples
    --------
    >>> from hyperplane.playground._warmup import WarmUp
    >>> warm = WarmUp(["perceptron"], prepare=lambda learner: None)
    >>> warm.state()["pending"]
    ['perceptron']
    >>> warm.run()
    >>> [p.learner for p in warm.done], warm.state()["pending"]
    (['perceptron'], [])
    """

    def __init__(self, learners, prepare, report=None):
        self.learners = list(learners)
        self.prepare = prepare
        self.report = report
        self.done = []
        self._lock = threading.Lock()

    def run(self):
        for learner in self.learners:
            started = time.perf_counter()
            try:
                self.prepare(learner)
                error = None
            except Exception as exc:  # noqa: BLE001 - a warm-up failure must not stop the server
                error = f"{type(exc).__name__}: {exc}"
            prepared = Prepared(learner, time.perf_counter() - started, error)
            with self._lock:
                self.done.append(prepared)
            if self.report is not None:
                self.report(prepared, len(self.done), len(self.learners))

    def start(self):
        """Run in a daemon thread (the server does not wait for it)."""
        thread = threading.Thread(target=self.run, name="playground-warm-up", daemon=True)
        thread.start()
        return thread

    def state(self):
        """``{"ready": [...], "pending": [...], "failed": {...}}`` for the page."""
        with self._lock:
            done = list(self.done)
        names = {p.learner for p in done}
        return {"ready": [p.learner for p in done if p.error is None],
                "pending": [name for name in self.learners if name not in names],
                "failed": {p.learner: p.error for p in done if p.error is not None}}


def terminal_report(print_line):
    """A ``report`` that prints one line per learner, e.g.
    ``compiled svm (2/5) in 12.3 s``."""
    def report(prepared, k, n):
        if prepared.error is None:
            print_line(f"compiled {prepared.learner} ({k}/{n}) in {prepared.seconds:.1f} s")
        else:
            print_line(f"could not prepare {prepared.learner} ({k}/{n}): {prepared.error}")
    return report
