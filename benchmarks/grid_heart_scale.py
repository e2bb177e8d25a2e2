"""``hyperplane grid svc heart_scale`` against LIBSVM's grid.py (Debian's
``svm-grid`` with ``svm-train``, package libsvm-tools) on the same grid: log2 C
from -5 to 15 by 2, log2 gamma from 3 to -15 by -2 (110 points), 5-fold CV.

Each tool runs pinned to the first k cores (``taskset``) with k workers:
``--jobs k`` for hyperplane (joblib), grid.py's ``nr_local_worker = k`` (a
copy of the script with that one line changed). Wall time of the whole
command, interpreter start and imports included, best of ``--repeat`` runs,
the two tools alternating (the machine may be shared: compare the ratios).

    PYTHONPATH=src python benchmarks/grid_heart_scale.py --cores 1 2 --repeat 3

Each figure is also given as CPU seconds (user + system of the command and
its children, from ``getrusage``), which a busy machine inflates far less
than the wall time. ``--baseline-src DIR`` also times ``hyperplane grid``
from another source tree (e.g. the main checkout) in the same alternation,
for before/after figures of one run.

``--fits`` also times, in this process, the 110 fits of the grid on all 270
rows, hyperplane's SVC against scikit-learn's (LIBSVM), to separate the
solvers from the cross-validation machinery around them.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from importlib import resources
from pathlib import Path

SRC = str(Path(__file__).resolve().parents[1] / "src")


def heart_scale(directory):
    path = Path(directory) / "heart_scale"
    path.write_text(resources.files("hyperplane.datasets").joinpath("data", "heart_scale")
                    .read_text())
    return path


def grid_py(directory, workers):
    """Debian's svm-grid with ``nr_local_worker = workers``."""
    source = Path(shutil.which("svm-grid") or "/usr/bin/svm-grid").read_text()
    path = Path(directory) / f"grid{workers}.py"
    path.write_text(re.sub(r"(?m)^nr_local_worker = \d+", f"nr_local_worker = {workers}",
                           source))
    return path


def children_cpu():
    """CPU seconds (user + system) of every finished child process so far."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed(command, env=None):
    """(wall seconds, CPU seconds, last line of output) of one run of ``command``."""
    cpu = children_cpu()
    start = time.perf_counter()
    result = subprocess.run(command, capture_output=True, text=True, env=env)
    elapsed = time.perf_counter() - start
    if result.returncode != 0:
        raise SystemExit(f"{command} failed:\n{result.stderr}")
    return elapsed, children_cpu() - cpu, result.stdout.strip().splitlines()[-1]


def single_fits():
    """Seconds for the grid's 110 fits on all rows: (hyperplane, LIBSVM)."""
    import numpy as np
    import scipy.sparse as sp
    from sklearn.svm import SVC as LibSVC

    from hyperplane.datasets import load_heart_scale
    from hyperplane.svm import SVC

    X, y = load_heart_scale()
    X = sp.csr_matrix(X.toarray())                # int32 indices, as LIBSVM takes them
    SVC().fit(X, y)                               # compiled kernels loaded
    totals = np.zeros(2)
    for log2c in range(-5, 16, 2):
        for log2g in range(3, -16, -2):
            for k, cls in enumerate((SVC, LibSVC)):
                start = time.perf_counter()
                cls(C=2.0 ** log2c, gamma=2.0 ** log2g).fit(X, y)
                totals[k] += time.perf_counter() - start
    return totals


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cores", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--fits", action="store_true")
    parser.add_argument("--backend", default="threading", choices=["threading", "loky"])
    parser.add_argument("--baseline-src", default=None,
                        help="another source tree whose hyperplane grid is timed too")
    args = parser.parse_args()
    if args.fits:
        ours, theirs = single_fits()
        print(f"110 fits on all rows (this process): hyperplane {ours:.2f} s, "
              f"LIBSVM {theirs:.2f} s")
    svm_train = shutil.which("svm-train")
    if svm_train is None:
        raise SystemExit("svm-train not found: apt-get install -y libsvm-tools")
    # in-process: a kept-warm worker would run the grid outside the taskset pin
    env = dict(os.environ, PYTHONPATH=SRC, MPLBACKEND="Agg", HYPERPLANE_WORKER="off")
    with tempfile.TemporaryDirectory() as directory:
        data = heart_scale(directory)
        print(f"load: {os.getloadavg()}")
        for cores in args.cores:
            pin = ["taskset", "-c", ",".join(map(str, range(cores)))]
            ours = pin + [sys.executable, "-m", "hyperplane", "grid", "svc", str(data),
                          "--jobs", str(cores), "--backend", args.backend]
            theirs = pin + [sys.executable, str(grid_py(directory, cores)), "-svmtrain",
                            svm_train, "-gnuplot", "null", "-out", "null", str(data)]
            tools = {"hyperplane": (ours, env), "grid.py": (theirs, env)}
            if args.baseline_src:
                tools["baseline"] = (ours, dict(env, PYTHONPATH=args.baseline_src))
            times = {name: [] for name in tools}
            cpus = {name: [] for name in tools}
            last = {}
            for _ in range(args.repeat):
                for name, (command, variables) in tools.items():
                    elapsed, cpu, line = timed(command, variables)
                    times[name].append(elapsed)
                    cpus[name].append(cpu)
                    last[name] = line
            best = {name: min(t) for name, t in times.items()}
            least = {name: min(c) for name, c in cpus.items()}
            for name in tools:
                print(f"{cores} core(s): {name:10s} wall {best[name]:6.2f} s, CPU {least[name]:6.2f} s "
                      f"(grid.py / this {best['grid.py'] / best[name]:.2f}x; all runs: "
                      f"{', '.join(f'{t:.2f}' for t in times[name])})")
            for name in tools:
                print(f"  {name:10s}: {last[name]}")
        print(f"load: {os.getloadavg()}")


if __name__ == "__main__":
    main()
