"""Cold start and warm latency of ``hyperplane fit``, per family, with numba's compile events.

Usage (from the repository root)::

    PYTHONPATH=src python benchmarks/cold_start.py                 # the issue's six families
    PYTHONPATH=src python benchmarks/cold_start.py --families svc tree
    python benchmarks/cold_start.py --src /tmp/before/src --src src   # A/B, same run
    PYTHONPATH=src python benchmarks/cold_start.py --families tree tree-hist tree-regressor
    PYTHONPATH=src python benchmarks/cold_start.py --families svc svr nusvc nusvr one-class-svm

For every family it runs ``hyperplane fit MODEL DATA`` in a fresh Python process
twice: first with an empty numba cache (``NUMBA_CACHE_DIR`` pointing at a new
folder: every kernel the command needs is compiled), then again with that
cache filled (what a user sees from the second run on: it should compile
nothing, the last column). Each run reports wall
seconds, the process's CPU seconds, the CPU seconds spent inside numba's
outermost compilations (``numba:compile`` events; CPU, not wall, so that a
loaded machine does not inflate them) and how many functions were compiled. ``--repeats`` takes the best warm run.
``--detail N`` then lists, per cold fit, the N compilations that cost the
most CPU of their own (a function's compilation less that of the callees
compiled inside it) and the functions compiled for several signatures.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections import Counter

from _table import header, row

#: family -> (CLI model name, shipped dataset, further CLI arguments) as the issue
#: measured them, the tree's other first fits (numeric hist, regression), the
#: SMO's other fits (SVR, NuSVC, NuSVR, OneClassSVM) and every other model's first
#: fit (kernel forms, LinearSVC's L1 and Crammer-Singer solvers, L1 logistic)
FAMILIES = {
    "perceptron": ("perceptron", "watermelon-3.0alpha"),
    "logistic": ("logistic", "watermelon-3.0alpha"),
    "least-squares": ("least-squares", "watermelon-3.0alpha"),
    "tree": ("tree", "watermelon-2.0"),
    "tree-hist": ("tree", "watermelon-3.0", "-p", "criterion=gini", "-p", "splitter=hist"),
    "tree-regressor": ("tree-regressor", "watermelon-3.0", "--target", "含糖率"),
    "tree-regressor-mae": ("tree-regressor", "watermelon-3.0", "--target", "含糖率",
                           "-p", "criterion=absolute_error"),
    "tree-regressor-hist": ("tree-regressor", "watermelon-3.0", "--target", "含糖率",
                            "-p", "splitter=hist"),
    "svc": ("svc", "heart_scale"),
    "svr": ("svr", "heart_scale"),
    "nusvc": ("nusvc", "heart_scale"),
    "nusvr": ("nusvr", "heart_scale"),
    "one-class-svm": ("one-class-svm", "heart_scale"),
    "mlp": ("mlp", "watermelon-3.0alpha"),
    "mlp-regressor": ("mlp-regressor", "watermelon-3.0alpha", "--target", "含糖率"),
    "dual-perceptron": ("dual-perceptron", "watermelon-3.0alpha"),
    "dual-perceptron-rbf": ("dual-perceptron", "watermelon-3.0alpha", "-p", "kernel=rbf"),
    "fisher": ("fisher", "watermelon-3.0alpha"),
    "fisher-rbf": ("fisher", "watermelon-3.0alpha", "-p", "kernel=rbf"),
    "adaline": ("adaline", "watermelon-3.0alpha"),
    "logistic-l1": ("logistic", "watermelon-3.0alpha", "-p", "penalty=l1"),
    "oblique-tree": ("oblique-tree", "watermelon-3.0alpha"),
    "linear-svc": ("linear-svc", "heart_scale"),
    "linear-svc-l1": ("linear-svc", "heart_scale", "-p", "penalty=l1"),
    "linear-svc-cs": ("linear-svc", "heart_scale", "-p", "multi_class=crammer_singer"),
    "linear-svr": ("linear-svr", "watermelon-3.0alpha", "--target", "含糖率"),
}
#: the families measured when none is named (the issue's)
DEFAULT_FAMILIES = ["perceptron", "logistic", "least-squares", "tree", "svc", "mlp"]

#: run in the child: count numba's compilations, run the CLI, print one JSON line
CHILD = r"""
import json, sys, time, resource
start = time.perf_counter()
from numba.core import event

# outermost compilations (CPU s), and per compiled (function, signature) its
# own CPU seconds: its compilation less that of the callees compiled inside it
class Compiles(event.Listener):
    def __init__(self):
        self.stack = []
        self.functions = 0
        self.seconds = 0.0
        self.each = []
    def on_start(self, ev):
        func = getattr(ev.data["dispatcher"], "py_func", None)
        name = f"{func.__module__}.{func.__qualname__}" if func else str(ev.data["dispatcher"])
        self.stack.append([name, str(ev.data["args"]), time.process_time(), 0.0])
        self.functions += 1
    def on_end(self, ev):
        name, args, t0, inner = self.stack.pop()
        spent = time.process_time() - t0
        if self.stack:
            self.stack[-1][3] += spent
        else:
            self.seconds += spent
        self.each.append((round(spent - inner, 3), name, args))

compiles = Compiles()
event.register("numba:compile", compiles)
from hyperplane.cli import main
sys.argv = ["hyperplane", "fit", *sys.argv[1:]]
try:
    main()
except SystemExit as stop:
    if stop.code not in (0, None):
        raise
usage = resource.getrusage(resource.RUSAGE_SELF)
print("COLD_START " + json.dumps({
    "wall": time.perf_counter() - start, "cpu": usage.ru_utime + usage.ru_stime,
    "compile": compiles.seconds, "functions": compiles.functions,
    "each": sorted(compiles.each, reverse=True)}))
"""


def run_fit(command, cache, out, src):
    """One ``hyperplane fit *command`` in a fresh process (``src``: the source tree on
    its ``PYTHONPATH``, None: as installed): its JSON figures."""
    env = dict(os.environ, NUMBA_CACHE_DIR=cache, HYPERPLANE_WORKER="off")  # a fresh process
    if src is not None:
        env["PYTHONPATH"] = os.path.abspath(src)
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", CHILD, *command, "-o", out],
                          env=env, capture_output=True, text=True)
    if done.returncode != 0:
        # the child's traceback, not only CalledProcessError's exit status
        sys.stderr.write(done.stdout[-4000:] + done.stderr)
        raise SystemExit(f"`hyperplane fit {' '.join(command)}` ({src or 'installed'}) "
                         f"failed with exit status {done.returncode}; its output is above")
    outer = time.perf_counter() - start
    line = next(x for x in done.stdout.splitlines() if x.startswith("COLD_START "))
    figures = json.loads(line.removeprefix("COLD_START "))
    figures["process"] = outer  # interpreter start included
    return figures


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--families", nargs="*", default=DEFAULT_FAMILIES, choices=list(FAMILIES))
    parser.add_argument("--repeats", type=int, default=2, help="warm runs (best kept)")
    parser.add_argument("--src", action="append", default=None,
                        help="a source tree to time (repeatable: the trees take turns)")
    parser.add_argument("--detail", type=int, default=0, metavar="N",
                        help="after the table, the N costliest compilations of each cold "
                             "fit: own CPU s, function, signature, and the functions "
                             "compiled for more than one signature")
    args = parser.parse_args()
    details = []
    sources = args.src or [None]
    print(f"## cold start of `hyperplane fit` ({os.cpu_count()} cores, "
          f"load {os.getloadavg()[0]:.1f})\n")
    print(header(["family", "source", "command", "cold wall s", "cold CPU s",
                  "compiling CPU s", "functions compiled", "warm wall s", "warm CPU s",
                  "warm functions compiled"],
                 ["-", "-", "-", "-:", "-:", "-:", "-:", "-:", "-:", "-:"]))
    for family in args.families:
        command = FAMILIES[family]
        for src in sources:
            with tempfile.TemporaryDirectory() as tmp:
                cache = os.path.join(tmp, "numba-cache")
                out = os.path.join(tmp, "model.hyperplane")
                cold = run_fit(command, cache, out, src)
                warm = min((run_fit(command, cache, out, src)
                            for _ in range(args.repeats)), key=lambda f: f["process"])
            print(row(family, src or "installed", f"`hyperplane fit {' '.join(command)}`",
                      f"{cold['process']:.1f}", f"{cold['cpu']:.1f}", f"{cold['compile']:.1f}",
                      cold["functions"], f"{warm['process']:.2f}", f"{warm['cpu']:.2f}",
                      warm["functions"]),
                  flush=True)
            details.append((family, src or "installed", cold["each"]))
    for family, src, each in details[:len(details) if args.detail else 0]:
        print(f"\n### {family} ({src}): {len(each)} compilations, own CPU s\n")
        for seconds, name, signature in each[:args.detail]:
            print(f"    {seconds:6.2f}  {name} {signature[:160]}")
        names = Counter(name for _, name, _ in each)
        repeated = {name: n for name, n in names.items() if n > 1}
        print(f"    compiled for several signatures: {repeated or 'none'}")


if __name__ == "__main__":
    main()
