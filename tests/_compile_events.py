"""Source of a probe that records every function numba compiles, for tests that
run a fit in a fresh process: prefix a script with :data:`RECORD_COMPILATIONS`
and read ``compiled`` (``module.qualname`` per compilation) at its end."""

RECORD_COMPILATIONS = r'''
from numba.core import event

compiled = []


class Listener(event.Listener):
    def on_start(self, ev):
        func = ev.data["dispatcher"].py_func
        compiled.append(f"{func.__module__}.{func.__qualname__}")

    def on_end(self, ev):
        pass


event.register("numba:compile", Listener())
'''
