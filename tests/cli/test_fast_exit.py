"""``hyperplane`` ends its process without the interpreter's teardown
(``cli._entry.run``): the exit handlers still run, the output is complete, the
exit status is the command's, and a live thread falls back to Python's exit."""

import subprocess
import sys

import pytest

#: the console script's entry point, with an exit handler that must still run
PROBE = """
import atexit, sys
atexit.register(lambda: print("exit handler ran", file=sys.stderr))
from hyperplane.cli import run
sys.argv = ["hyperplane"] + sys.argv[1:]
run()
"""


def probe(*args, code=PROBE):
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True,
                          encoding="utf-8", timeout=300)


@pytest.mark.parametrize("args, status", [(["models"], 0),
                                          (["fit", "svc", "no-such-file", "-o", "m"], 1),
                                          (["fit"], 2)])
def test_status_and_exit_handlers(args, status):
    result = probe(*args)
    assert result.returncode == status, result.stderr
    assert result.stderr.rstrip().endswith("exit handler ran")


def test_output_written_to_a_pipe_is_complete(tmp_path):
    model = tmp_path / "m.hyperplane"
    assert probe("fit", "svc", "heart_scale", "-o", str(model), "-q").returncode == 0
    result = probe("predict", str(model), "heart_scale")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "label,predicted_label" and len(lines) == 1 + 270


def test_a_running_thread_gets_pythons_own_exit():
    """A non-daemon thread still running at the end is waited for, as Python does."""
    code = PROBE.replace("from hyperplane.cli import run", """from hyperplane.cli import run
import threading, time
threading.Thread(target=lambda: (time.sleep(0.5), print("thread done"))).start()""")
    result = probe("models", code=code)
    assert result.returncode == 0, result.stderr
    assert "thread done" in result.stdout
