"""What numba's LLVM passes cost a cold ``hyperplane fit``, per stage and per pass, and what a
cheaper pipeline saves.

Usage (from the repository root)::

    python benchmarks/llvm_passes.py --families svc tree tree-hist --src src
    python benchmarks/llvm_passes.py --families svc --src /tmp/before/src --src src --top 20
    python benchmarks/llvm_passes.py --families svc --src src --variant base --variant opt2

Each fit runs in a fresh Python process with an empty numba cache and numba's
``NUMBA_LLVM_PASS_TIMINGS=1``: numba then records LLVM's pass timings of every
library it finalises (numba's "Notes on Numba's LLVM pass timings"). The
records are summed per stage: the function passes numba runs on each lowered
module (``Function passes on ...``), the final module's cheap pass (``Module
passes (cheap ...)``) and full pass (``Module passes (full ...)``) after a
library links its callees in, and the machine code (``Finalize object``, LLVM's
code generation passes under MCJIT). The table gives user+system seconds per
stage and the ``--top`` passes over all stages; ``compiling CPU s`` is the CPU of
numba's outermost compilations (``numba:compile`` events), ``instructions`` the
instructions of every final module, both as ``benchmarks/cold_start.py`` and
``benchmarks/compile_own.py`` count them. Timing the passes costs some CPU itself.

``--variant`` runs the fit under a pipeline changed in the child before the first
compile (:data:`VARIANTS`; the default runs ``base``, the source's own pipeline).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from collections import Counter

from _table import header, row
from cold_start import FAMILIES

def _pass_manager_option(manager, final_only=False, **options):
    """Python that wraps numba's ``CPUCodegen.<manager>`` to default each of
    ``options`` (``final_only``: not for the cheap round, which passes ``cost``)."""
    unless_cheap = 'if kw.get("cost") is None:\n        ' if final_only else ""
    return f"""
from numba.core import codegen
_made = codegen.CPUCodegen.{manager}
def {manager}(self, **kw):
    {unless_cheap}kw.update({{**{options!r}, **kw}})
    return _made(self, **kw)
codegen.CPUCodegen.{manager} = {manager}
"""


def _machine_code_opt(level):
    """Python that sets LLVM's code generation level of numba's target machine."""
    return f"""
from numba.core import codegen
_tmo = codegen.JITCPUCodegen._customize_tm_options
def _customize_tm_options(self, options):
    _tmo(self, options)
    options["opt"] = {level}
codegen.JITCPUCodegen._customize_tm_options = _customize_tm_options
"""


#: variant -> Python run in the child before hyperplane is imported (numba's codegen
#: reads its target machine's options when it is created, at the first compile; the
#: pass builders read ``numba.core.config`` at every pass manager they make)
VARIANTS = {
    "base": "",
    # every pass manager at -O2 (the function passes, the final module's full pass)
    "opt2": "from numba.core import config; config.OPT = config._OptLevel(2)",
    # no loop vectorizer anywhere
    "novec": "from numba.core import config; config.LOOP_VECTORIZE = 0",
    # the final module's full pass at -O2 / -O1, the function passes at -O3
    "final-opt2": _pass_manager_option("_module_pass_manager", final_only=True, opt=2),
    "final-opt1": _pass_manager_option("_module_pass_manager", final_only=True, opt=1),
    # the final module's full pass at -O2 without LLVM's loop vectorizer
    "final-opt2-novec": _pass_manager_option("_module_pass_manager", final_only=True, opt=2,
                                             loop_vectorize=False),
    # the function passes at -O1 / -O2 (the final module's full pass at -O3 over everything)
    "func-opt1": _pass_manager_option("_function_pass_manager", opt=1),
    "func-opt2": _pass_manager_option("_function_pass_manager", opt=2),
    # no vectorizer in the function passes (the final module's full pass keeps it)
    "func-novec": _pass_manager_option("_function_pass_manager", loop_vectorize=False),
    # machine code at LLVM's -O2 / -O1 code generation level (the target machine's opt)
    "mc-opt2": _machine_code_opt(2),
    "mc-opt1": _machine_code_opt(1),
}

#: run in the child: collect every pass timing record, run the CLI, print one JSON line
CHILD = r"""
import json, re, sys, time, resource
exec(sys.argv[1])
from numba.core import event
from numba.misc import llvm_pass_timings as lpt

records = []
_append = lpt.PassTimingsCollection._append
def _collect(self, name, timings):
    records.append((name, timings))
    _append(self, name, timings)
lpt.PassTimingsCollection._append = _collect

class Compiles(event.Listener):
    def __init__(self):
        self.depth = 0
        self.seconds = 0.0
    def on_start(self, ev):
        if self.depth == 0:
            self.t0 = time.process_time()
        self.depth += 1
    def on_end(self, ev):
        self.depth -= 1
        if self.depth == 0:
            self.seconds += time.process_time() - self.t0

compiles = Compiles()
event.register("numba:compile", compiles)
from numba.core import codegen
instructions = [0]
_fin = codegen.CPUCodeLibrary._finalize_final_module
def _count(self):
    instructions[0] += sum(1 for f in self._final_module.functions for b in f.blocks
                           for _ in b.instructions)
    return _fin(self)
codegen.CPUCodeLibrary._finalize_final_module = _count

from hyperplane.cli import main
sys.argv = ["hyperplane", "fit", *sys.argv[2:]]
try:
    main()
except SystemExit as stop:
    if stop.code not in (0, None):
        raise

def stage(name):
    if name.startswith("Function passes"):
        return "function"
    if name.startswith("Module passes (cheap"):
        return "final cheap"
    if name.startswith("Module passes (full"):
        return "final full"
    return "machine code"

stages, passes = {}, {}
for name, timings in records:
    s = stage(name)
    for rec in timings.list_records():
        if rec.pass_name == "Total":
            stages[s] = stages.get(s, 0.0) + rec.user_system_time
            continue
        key = (s, re.sub(r" #\d+$", "", rec.pass_name))  # LLVM numbers a legacy pass's runs
        passes[key] = passes.get(key, 0.0) + rec.user_system_time
usage = resource.getrusage(resource.RUSAGE_SELF)
print("LLVM_PASSES " + json.dumps({
    "cpu": usage.ru_utime + usage.ru_stime, "compile": compiles.seconds,
    "instructions": instructions[0], "stages": stages,
    "passes": [[s, p, t] for (s, p), t in passes.items()]}))
"""

STAGES = ["function", "final cheap", "final full", "machine code"]


def run_fit(command, src, variant):
    """One cold ``hyperplane fit *command`` of ``src`` under ``variant``: its JSON figures."""
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, NUMBA_CACHE_DIR=os.path.join(tmp, "numba-cache"),
                   NUMBA_LLVM_PASS_TIMINGS="1", PYTHONPATH=os.path.abspath(src))
        done = subprocess.run([sys.executable, "-c", CHILD, VARIANTS[variant], *command,
                               "-o", os.path.join(tmp, "model.hyperplane")],
                              env=env, capture_output=True, text=True)
    if done.returncode != 0:
        sys.stderr.write(done.stdout[-4000:] + done.stderr)
        raise SystemExit(f"`hyperplane fit {' '.join(command)}` ({src}, {variant}) failed")
    line = next(x for x in done.stdout.splitlines() if x.startswith("LLVM_PASSES "))
    return json.loads(line.removeprefix("LLVM_PASSES "))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--families", nargs="*", default=["svc", "tree", "tree-hist"],
                        choices=list(FAMILIES))
    parser.add_argument("--src", action="append", default=None,
                        help="a source tree (repeatable: the trees take turns)")
    parser.add_argument("--variant", action="append", default=None, choices=list(VARIANTS))
    parser.add_argument("--top", type=int, default=0, help="then the N costliest passes")
    args = parser.parse_args()
    sources = args.src or ["src"]
    variants = args.variant or ["base"]
    print(f"## LLVM passes of a cold `hyperplane fit` ({os.cpu_count()} cores, "
          f"load {os.getloadavg()[0]:.1f})\n")
    print(header(["family", "source", "variant", "compiling CPU s", "process CPU s",
                  "instructions", *[f"{s} s" for s in STAGES], "LLVM s"],
                 ["-", "-", "-", *["-:"] * (4 + len(STAGES))]))
    tops = []
    for family in args.families:
        for src in sources:
            for variant in variants:
                got = run_fit(FAMILIES[family], src, variant)
                stages = got["stages"]
                print(row(family, src, variant, f"{got['compile']:.2f}", f"{got['cpu']:.2f}",
                          got["instructions"], *[f"{stages.get(s, 0.0):.2f}" for s in STAGES],
                          f"{sum(stages.values()):.2f}"), flush=True)
                tops.append((family, src, variant, got["passes"]))
    for family, src, variant, passes in tops[:len(tops) if args.top else 0]:
        print(f"\n### {family} ({src}, {variant}): the {args.top} costliest passes, "
              "user+system s\n")
        total = Counter()
        for s, p, t in passes:
            total[p] += t
        by_stage = {(s, p): t for s, p, t in passes}
        print(header(["pass", "all s", *[f"{s} s" for s in STAGES]],
                     ["-", "-:", *["-:"] * len(STAGES)]))
        for p, t in total.most_common(args.top):
            print(row(p, f"{t:.3f}", *[f"{by_stage.get((s, p), 0.0):.3f}" for s in STAGES]))


if __name__ == "__main__":
    main()
