"""Warm latency of the ``hyperplane`` commands, against the floors under them.

Usage (from the repository root)::

    PYTHONPATH=src python benchmarks/cli_latency.py                  # this tree
    python benchmarks/cli_latency.py --src /tmp/before/src --src src  # A/B, same run

Each command runs in a fresh Python process (``python -m hyperplane ...``,
in-process: ``HYPERPLANE_WORKER=off``) ``--repeats`` times after one untimed
run that fills numba's cache; the table gives the median wall seconds and the median CPU seconds (user + system, from
``os.wait4``) of each. The source trees of ``--src`` take turns run by run, so
that a change of the machine's load touches both alike. Each command runs
again through a warm kept-warm worker (``cli/_worker.py``, rows "(warm
worker)"; its worker started by the untimed first run, in a private
``XDG_RUNTIME_DIR``): CPU seconds there are the client's plus what the worker
and the command's child (reaped by the worker) spent meanwhile, from the
worker's status; and ``fit svc heart_scale`` once more as the first call that
starts the worker (its workers stopped before each run). The floors are the
same measurement of a process that only imports: nothing (the interpreter's
start), ``sklearn.base`` (what any scikit-learn estimator costs), ``numba``,
the two together (with NumPy and SciPy's sparse matrices: the floor of an
estimator with compiled kernels) and ``skops.io`` (which walks every
scikit-learn estimator when imported), and of the floor that every command
fitting or predicting with a compiled kernel stands on: those imports and
numba's first dispatch of a cached function; each floor's process ends
without the interpreter's teardown, as the commands' do. LIBSVM's
``svm-train`` and ``svm-predict`` (``--libsvm``, default the folder of the
``svm-train`` on ``PATH``; left out when there is none, or with ``--libsvm
""``) run on the same heart_scale file in the same turns, as the peer.

``--phases`` instead times the steps of ``fit svc heart_scale`` inside one
process (CPU seconds of each, median of ``--repeats`` processes): the imports
the command line makes in the order ``fit`` makes them (the model file's
writer, skops, imports scikit-learn, SciPy and pandas; ``import sklearn.base``
above is their floor), numba, resolving the model,
reading the data, the fit (numba's first dispatch of each cached kernel
included), writing the model file and scoring; loading with the cyclic
collector paused, as the commands do (``cli/_heap.py: loading``, where the tree
has it); then the CPU seconds the cyclic collector took over all steps and
how many full collections it ran.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

from _table import header, row

#: floor name -> the Python statement its process runs
FLOORS = {
    "python": "pass",
    "import sklearn.base": "import sklearn.base",
    "import numba": "import numba",
    "import sklearn.base, numba, numpy, scipy.sparse":
        "import sklearn.base, numba, numpy, scipy.sparse",
    "import skops.io": "import skops.io",
}

#: a cached kernel of one addition, the least a command's first dispatch loads
FLOOR_KERNEL = """
import numba


@numba.njit(cache=True)
def add_one(x):
    return x + 1.0
"""


def with_fast_exit(statements):
    """The floors' statements, each ending its process as the commands do
    (``cli/_entry.py: run``): ``os._exit`` without the interpreter's teardown,
    which frees every object of the imported modules (0.4-0.8 CPU s after
    ``import sklearn.base, numba`` on a 2-core machine) and which the
    commands do not pay."""
    return {name: f"{code}\nimport os; os._exit(0)" for name, code in statements.items()}


def floors(tmp):
    """Floor name -> the Python statement its process runs; the last floor
    imports what ``fit`` and ``predict`` cannot do without and calls a cached
    kernel (from a module written to ``tmp``), as a fit's first dispatch does."""
    with open(os.path.join(tmp, "floor_kernel.py"), "w") as handle:
        handle.write(FLOOR_KERNEL)
    imports = (f"import sys; sys.path.insert(0, {tmp!r}); import sklearn.base, skops.io, numba; "
               "import floor_kernel; floor_kernel.add_one(1.0)")
    return {**FLOORS, "import sklearn.base, skops.io, numba; 1st call": imports,
            # as the commands load (cli/_heap.py): no cyclic collection of what
            # the imports make
            "the same, collector paused": "import gc; gc.disable(); " + imports}


#: LIBSVM's copy of heart_scale, shipped with hyperplane
HEART_SCALE = os.path.join(os.path.dirname(__file__), os.pardir, "src", "hyperplane",
                           "datasets", "data", "heart_scale")


def libsvm_folder(asked):
    """The folder of LIBSVM's ``svm-train`` and ``svm-predict``: ``asked``
    (``--libsvm``; "" leaves them out) or, when not asked, the folder of the
    ``svm-train`` on ``PATH`` if ``svm-predict`` is there too, else "" (the
    table then has no peer rows)."""
    if asked is not None:
        return asked
    found = shutil.which("svm-train")
    folder = os.path.dirname(found) if found else ""
    if folder and shutil.which("svm-predict", path=folder):
        return folder
    print("(no svm-train and svm-predict on PATH: LIBSVM's rows left out)", file=sys.stderr)
    return ""


def libsvm_commands(tmp, libsvm):
    """Name -> argv of LIBSVM's own tools on heart_scale (C-SVC, RBF, C=1,
    gamma=1/13: the defaults of ``hyperplane fit svc``)."""
    model = os.path.join(tmp, "heart_scale.model")
    return {
        "svm-train heart_scale": [os.path.join(libsvm, "svm-train"), "-q", HEART_SCALE, model],
        "svm-predict heart_scale": [os.path.join(libsvm, "svm-predict"), HEART_SCALE, model,
                                    os.path.join(tmp, "heart_scale.out")],
    }


def commands(tmp):
    """Command name -> the ``hyperplane`` arguments, in the order they run
    (``fit`` writes the model file the later commands read)."""
    model = os.path.join(tmp, "m.skops")
    return {
        "--help": ["--help"],
        "models": ["models"],
        "fit svc heart_scale": ["fit", "svc", "heart_scale", "-o", model],
        "predict": ["predict", model, "heart_scale", "-o", os.path.join(tmp, "p.csv")],
        "show": ["show", model],
        "evaluate svc heart_scale": ["evaluate", "svc", "heart_scale"],
    }


#: run in the child for --phases: each step's CPU seconds, one JSON line
PHASES = r"""
import contextlib, gc, json, os, sys, time
marks = [("start", time.process_time())]
def mark(name):
    marks.append((name, time.process_time()))
collecting = [0.0, 0]
def timed_collection(phase, info):  # CPU seconds of the cyclic collector
    collecting[0] += time.process_time() * (1 if phase == "stop" else -1)
    collecting[1] += info["generation"] == 2 and phase == "stop"
gc.callbacks.append(timed_collection)
try:  # the command's policy: load with the collector paused, then freeze
    from hyperplane.cli._heap import loading
except ImportError:  # a tree from before it
    loading = contextlib.nullcontext
heap = loading()
heap.__enter__()
mark("hyperplane.cli._heap")
import hyperplane.cli._app
mark("typer, rich, cli._app")
import typer._adapters  # Typer coerces each option with pydantic when it parses
mark("pydantic (Typer's parse)")
import numpy
mark("numpy")
from hyperplane.io._skops import skops_io
skops_io()
mark("skops.io (scikit-learn, SciPy, pandas)")
from hyperplane.cli._data import build_model, estimator_input, read_table, split_target
mark("cli._data")
from hyperplane._threads import fit_threads
import hyperplane._numba
mark("numba (hyperplane._numba)")
from hyperplane.cli._params import configured_estimator
estimator, _ = configured_estimator("svc", [])
mark("resolve svc (hyperplane.svm)")
table = read_table("heart_scale")
X, y = split_target(table, None, "heart_scale")
model = estimator_input(build_model(estimator, X), X)
heap.__exit__(None, None, None)
mark("read heart_scale")
with fit_threads(None):
    fitted = estimator.fit(X, y)
mark("fit (first dispatch)")
from hyperplane.io import save
save(fitted, sys.argv[1], metadata={})
mark("save")
fitted.score(X, y)
mark("score")
steps = [(b[0], b[1] - a[1]) for a, b in zip(marks, marks[1:])]
steps += [("(of all steps: cyclic GC)", collecting[0]), ("(full collections)", collecting[1])]
print("PHASES " + json.dumps(steps))
"""


def phases(src, repeats, out):
    """Median CPU seconds of each step of ``fit`` over ``repeats`` processes."""
    argv = [sys.executable, "-c", PHASES, out]
    runs = []
    for _ in range(repeats + 1):
        done = subprocess.run(argv, env=environment(src), capture_output=True, text=True,
                              check=True)
        line = next(x for x in done.stdout.splitlines() if x.startswith("PHASES "))
        runs.append(json.loads(line.removeprefix("PHASES ")))
    runs = runs[1:]  # the first run filled numba's cache
    return [(name, statistics.median(run[i][1] for run in runs))
            for i, (name, _) in enumerate(runs[0])]


def worker_client(src):
    """The kept-warm worker's client module (``cli/_client.py``, standard
    library only) of the source tree ``src`` (None: as installed), or None
    for a tree from before the worker."""
    import importlib.util

    folder = os.path.abspath(src) if src else os.path.dirname(os.path.dirname(
        importlib.util.find_spec("hyperplane").origin))
    path = os.path.join(folder, "hyperplane", "cli", "_client.py")
    if not os.path.exists(path):
        return None
    spec = importlib.util.spec_from_file_location(f"_client_{abs(hash(folder))}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def workers_cpu(client, runtime):
    """CPU seconds of every worker under ``runtime`` and of the children they reaped."""
    folder = os.path.join(runtime, "hyperplane")
    if not os.path.isdir(folder):
        return 0.0
    return sum(reply["worker_cpu_s"] + reply["children_cpu_s"]
               for reply in client.ask_all("status", folder))


def stop_workers(client, runtime):
    folder = os.path.join(runtime, "hyperplane")
    if os.path.isdir(folder):
        client.ask_all("stop", folder)


def timed(argv, env, worker=None):
    """``(wall s, CPU s)`` of one process running ``argv``; with ``worker``
    (``(client module, runtime folder)``), the CPU seconds the worker and the
    command's child spent meanwhile are added (from the worker's status)."""
    before = workers_cpu(*worker) if worker else 0.0
    start = time.perf_counter()
    child = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE)
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    child.returncode = os.waitstatus_to_exitcode(status)
    err = child.stderr.read().decode(errors="replace")
    child.stderr.close()
    if child.returncode != 0:
        raise RuntimeError(f"{' '.join(argv)} failed ({child.returncode}): {err[-2000:]}")
    after = workers_cpu(*worker) if worker else 0.0
    return wall, usage.ru_utime + usage.ru_stime + after - before


def environment(src, runtime=None):
    """The commands' environment: in-process (``HYPERPLANE_WORKER=off``), or
    through the worker whose socket is under ``runtime``."""
    env = dict(os.environ, HYPERPLANE_WORKER="off")
    if runtime is not None:
        env.update(HYPERPLANE_WORKER="on", XDG_RUNTIME_DIR=runtime)
    if src is not None:
        env["PYTHONPATH"] = os.path.abspath(src)
    return env


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5, help="timed runs (median kept)")
    parser.add_argument("--src", action="append", default=None,
                        help="a source tree to time (repeatable: the trees take turns)")
    parser.add_argument("--only", nargs="*", default=None,
                        help="command names to time (default: all)")
    parser.add_argument("--libsvm", default=None,
                        help="folder of svm-train and svm-predict (default: where PATH has "
                             "them; empty: leave them out)")
    parser.add_argument("--phases", action="store_true",
                        help="time the steps of fit svc heart_scale in one process instead")
    args = parser.parse_args()
    sources = args.src or [None]
    if args.phases:
        with tempfile.TemporaryDirectory() as tmp:
            steps = {src: phases(src, args.repeats, os.path.join(tmp, "m.skops"))
                     for src in sources}
        print(f"## steps of `fit svc heart_scale` ({os.cpu_count()} cores, load "
              f"{os.getloadavg()[0]:.1f}, median CPU s of {args.repeats} processes)\n")
        print(header(["step", *(src or "installed" for src in sources)],
                     ["-", *["-:"] * len(sources)]))
        for i, (name, _) in enumerate(steps[sources[0]]):
            print(row(name, *(f"{steps[src][i][1]:g}" if name == "(full collections)"
                              else f"{steps[src][i][1]:.3f}" for src in sources)))
        return
    print(f"## warm latency of the command line ({os.cpu_count()} cores, "
          f"load {os.getloadavg()[0]:.1f}, {args.repeats} runs, medians)\n")
    with tempfile.TemporaryDirectory() as tmp:
        runs = {}  # (name, source) -> [(wall, cpu)]
        cases = [(f"`{name}`", [sys.executable, "-c", code], None)
                 for name, code in with_fast_exit(floors(tmp)).items()]
        libsvm = libsvm_folder(args.libsvm)
        if libsvm:
            cases += [(f"`{name}`", argv, None)
                      for name, argv in libsvm_commands(tmp, libsvm).items()]
        # each source writes and reads its own model file: a newer source may
        # write a format an older one refuses
        per_source = {}
        for i, src in enumerate(sources):
            os.mkdir(os.path.join(tmp, str(i)))
            per_source[src] = commands(os.path.join(tmp, str(i)))
        # the kept-warm worker of each source (one private runtime folder each)
        workers = {}
        for i, src in enumerate(sources):
            client = worker_client(src)
            if client is not None:
                runtime = os.path.join(tmp, f"r{i}")
                os.mkdir(runtime, 0o700)
                workers[src] = (client, runtime)
        for name in per_source[sources[0]]:
            if args.only is None or name in args.only:
                for src in sources:
                    argv = [sys.executable, "-m", "hyperplane", *per_source[src][name]]
                    cases.append((f"`hyperplane {name}`", argv, src))
                    if src in workers:
                        cases.append((f"`hyperplane {name}` (warm worker)", argv, src))
                    if src in workers and name == "fit svc heart_scale":
                        cases.append((f"`hyperplane {name}` (starts the worker)", argv, src))

        def measure(name, argv, src):
            if "worker)" not in name:
                return timed(argv, environment(src))
            client, runtime = workers[src]
            if "starts the worker" in name:
                stop_workers(client, runtime)
                time.sleep(0.5)  # let the stopped worker's exit pass
            return timed(argv, environment(src, runtime), workers[src])

        try:
            for case in cases:  # fill numba's cache, write the model file, start the workers
                measure(*case)
            for _ in range(args.repeats):
                for name, argv, src in cases:
                    runs.setdefault((name, src), []).append(measure(name, argv, src))
        finally:
            for client, runtime in workers.values():
                stop_workers(client, runtime)
        floor = statistics.median(cpu for _, cpu in runs[("`import sklearn.base`", None)])
        print(header(["command", "source", "wall s", "CPU s", "CPU s above sklearn.base"],
                     ["-", "-", "-:", "-:", "-:"]))
        for (name, src), figures in runs.items():
            wall = statistics.median(w for w, _ in figures)
            cpu = statistics.median(c for _, c in figures)
            print(row(name, src or "installed" if name.startswith("`hyperplane") else "",
                      f"{wall:.2f}", f"{cpu:.2f}", f"{cpu - floor:+.2f}"))
    print(f"\nload at the end: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
