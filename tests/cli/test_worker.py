"""The kept-warm worker (cli/_worker.py, cli/_client.py), through the real
entry point in subprocesses: each command gives the same stdout, stderr and
exit status with the worker on as with it off, and the worker's life
(reuse, fingerprints, stale sockets, unsafe directories, signals, idle exit,
``worker stop``) is as documented."""

import os
import pathlib
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import time

import pytest

from .conftest import SRC

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork: always in-process")


def environment(runtime, worker="on", **extra):
    env = dict(os.environ, PYTHONPATH=SRC + os.pathsep + os.environ.get("PYTHONPATH", ""),
               MPLBACKEND="Agg", PYTHONIOENCODING="utf-8", COLUMNS="200",
               XDG_RUNTIME_DIR=str(runtime), HYPERPLANE_WORKER=worker, **extra)
    env.pop("HYPERPLANE_DEBUG", None)
    return env


def hyperplane(env, *args, cwd=None, **kwargs):
    return subprocess.run([sys.executable, "-m", "hyperplane", *map(str, args)], cwd=cwd,
                          env=env, capture_output=True, text=True, encoding="utf-8",
                          timeout=300, **kwargs)


def worker_pids(env):
    done = hyperplane(env, "worker", "status")
    assert done.returncode == 0, done.stderr
    return [int(line.split()[1].rstrip(":")) for line in done.stdout.splitlines()
            if line.startswith("worker ")]


@pytest.fixture
def runtime():
    """A private ``XDG_RUNTIME_DIR`` whose workers are stopped at the end (a
    short name: a socket's path has at most ~100 bytes)."""
    folder = pathlib.Path(tempfile.mkdtemp(prefix="hpw"))
    yield folder
    hyperplane(environment(folder), "worker", "stop")
    shutil.rmtree(folder, ignore_errors=True)


def same(on, off):
    assert (on.returncode, on.stdout, on.stderr) == (off.returncode, off.stdout, off.stderr)


def test_every_command_is_the_same_with_the_worker_on_and_off(runtime, tmp_path):
    on, off = environment(runtime), environment(runtime, worker="off")
    for name in ("on", "off"):
        (tmp_path / name).mkdir()
    fits = {name: hyperplane(env, "fit", "svc", "heart_scale", "-o", "m.skops",
                             cwd=tmp_path / name) for name, env in (("on", on), ("off", off))}
    same(fits["on"], fits["off"])
    assert fits["on"].returncode == 0, fits["on"].stderr
    # each fitted model predicts the same (through the worker and without)
    same(hyperplane(on, "predict", tmp_path / "on" / "m.skops", "heart_scale"),
         hyperplane(off, "predict", tmp_path / "off" / "m.skops", "heart_scale"))
    model = tmp_path / "off" / "m.skops"
    for args in (["predict", model, "heart_scale"], ["show", model],
                 ["evaluate", "svc", "heart_scale"], ["--help"], ["fit", "--help"],
                 ["fit", "svc", tmp_path / "missing.csv", "-o", tmp_path / "x.skops"],
                 ["fit", "svc", "heart_scale", "--bogus"]):
        same(hyperplane(on, *args), hyperplane(off, *args))
    failed = hyperplane(on, "fit", "svc", tmp_path / "missing.csv", "-o", tmp_path / "x.skops")
    assert failed.returncode == 1 and failed.stderr.startswith("error:")
    assert hyperplane(on, "fit", "svc", "heart_scale", "--bogus").returncode == 2
    assert len(worker_pids(on)) == 1


def test_stdin_and_a_closed_pipe_are_the_clients(runtime, tmp_path):
    on, off = environment(runtime), environment(runtime, worker="off")
    assert hyperplane(off, "fit", "svc", "heart_scale", "-o", tmp_path / "m.skops").returncode == 0
    from hyperplane.datasets import __file__ as datasets

    text = open(os.path.join(os.path.dirname(datasets), "data", "heart_scale")).read()
    args = ["predict", tmp_path / "m.skops", "/dev/stdin", "--format", "libsvm"]
    same(hyperplane(on, *args, input=text), hyperplane(off, *args, input=text))
    head = f"{sys.executable} -m hyperplane predict {tmp_path / 'm.skops'} heart_scale | head -2"
    runs = [subprocess.run(["bash", "-c", head], env=env, capture_output=True, text=True,
                           timeout=300) for env in (on, off)]
    same(*runs)
    assert len(runs[0].stdout.splitlines()) == 2


def test_a_second_call_is_served_by_the_same_worker(runtime):
    env = environment(runtime)
    assert hyperplane(env, "models").returncode == 0
    first = worker_pids(env)
    assert hyperplane(env, "models").returncode == 0
    assert worker_pids(env) == first and len(first) == 1


def test_a_changed_fingerprint_variable_starts_a_second_worker(runtime):
    assert hyperplane(environment(runtime), "models").returncode == 0
    assert hyperplane(environment(runtime, NUMBA_OPT="2"), "models").returncode == 0
    assert len(worker_pids(environment(runtime))) == 2


def test_a_stale_socket_is_replaced(runtime):
    env = environment(runtime)
    assert hyperplane(env, "models").returncode == 0
    [pid] = worker_pids(env)
    os.kill(pid, signal.SIGKILL)  # its socket file stays behind
    time.sleep(0.2)
    assert any(name.endswith(".sock") for name in os.listdir(runtime / "hyperplane"))
    done = hyperplane(env, "models")
    assert done.returncode == 0 and done.stderr == ""
    [again] = worker_pids(env)
    assert again != pid


def test_a_directory_open_to_others_is_refused(runtime):
    env = environment(runtime)
    (runtime / "hyperplane").mkdir(mode=0o700)
    os.chmod(runtime / "hyperplane", 0o770)
    done = hyperplane(env, "models")
    assert done.returncode == 0
    assert done.stderr.startswith("hyperplane: running in-process (unsafe worker directory")
    assert os.listdir(runtime / "hyperplane") == []
    os.chmod(runtime / "hyperplane", 0o700)


SLEEPY = '''
import sys, time
from sklearn.base import BaseEstimator, ClassifierMixin

class Sleepy(ClassifierMixin, BaseEstimator):
    def fit(self, X, y):
        print("sleeping", file=sys.stderr, flush=True)
        for _ in range(1200):
            time.sleep(0.1)
        return self
'''
"""A command that sleeps for two minutes, in short naps: CPython handles a
signal between bytecodes, and one that lands after the last check but before
``time.sleep`` enters the kernel does not end a long sleep (the suite once
waited out ``time.sleep(120)`` under load); a short nap ends, and the next
check raises ``KeyboardInterrupt``."""


def sleeping_client(runtime, tmp_path, **extra):
    """A client whose command (a fit of :data:`SLEEPY`) runs in a worker's
    child and sleeps: ``(env, worker pid, client Popen)``."""
    env = environment(runtime, **extra)
    (tmp_path / "sleepy.py").write_text(SLEEPY)
    assert hyperplane(env, "models").returncode == 0
    [pid] = worker_pids(env)
    client = subprocess.Popen([sys.executable, "-m", "hyperplane", "fit", "sleepy:Sleepy",
                               "heart_scale", "-o", "m.skops"], cwd=tmp_path, env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert client.stderr.readline().strip() == "sleeping"
    return env, pid, client


def test_sigint_ends_the_command_and_not_the_worker(runtime, tmp_path):
    env, pid, client = sleeping_client(runtime, tmp_path)
    client.send_signal(signal.SIGINT)
    assert client.wait(timeout=60) == 130
    assert client.stderr.read() == ""  # as in-process: Typer ends a KeyboardInterrupt with 130
    client.stdout.close()
    client.stderr.close()
    assert worker_pids(env) == [pid]


def process_state(pid):
    """The one-letter state of ``pid`` in ``/proc`` ("T": stopped)."""
    return pathlib.Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]


def wait_for_state(pid, states):
    for _ in range(300):
        if process_state(pid) in states:
            return True
        time.sleep(0.05)
    return False


def parent_of(pid):
    try:
        return int(pathlib.Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
    except (FileNotFoundError, ProcessLookupError):  # it ended meanwhile
        return None


def command_of(worker):
    """The pid of the one command ``worker`` runs (its child)."""
    [command] = [int(name) for name in os.listdir("/proc")
                 if name.isdigit() and parent_of(name) == worker]
    return command


def gone(pid, seconds=30):
    """Whether ``pid`` has ended within ``seconds`` (reaped, or a zombie: a
    worker whose starter has exited waits for an init that may not reap)."""
    for _ in range(int(seconds / 0.05)):
        try:
            if process_state(pid) == "Z":
                return True
        except (FileNotFoundError, ProcessLookupError):
            return True
        time.sleep(0.05)
    return False


def kill_all(*pids):
    for pid in pids:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


@pytest.mark.skipif(not os.path.exists("/proc/self/stat"), reason="no /proc")
def test_ctrl_z_stops_the_command_and_fg_continues_it(runtime, tmp_path):
    env, worker, client = sleeping_client(runtime, tmp_path)
    command = command_of(worker)
    try:
        client.send_signal(signal.SIGTSTP)
        assert wait_for_state(command, "T") and wait_for_state(client.pid, "T")
        client.send_signal(signal.SIGCONT)
        assert wait_for_state(command, "SR") and wait_for_state(client.pid, "SR")
        client.send_signal(signal.SIGINT)
        assert client.wait(timeout=60) == 130
    except BaseException:  # a failed check leaves no stopped command holding its worker
        kill_all(command, client.pid)
        raise
    finally:
        client.wait()
        client.stdout.close()
        client.stderr.close()


@pytest.mark.skipif(not os.path.exists("/proc/self/stat"), reason="no /proc")
@pytest.mark.parametrize("stopped", [True, False], ids=["stopped", "running"])
def test_a_killed_clients_command_is_hung_up_and_the_worker_idles_out(runtime, tmp_path,
                                                                      stopped):
    """A client killed while its command is stopped (Ctrl-Z, then the
    terminal closed) or running can forward nothing: the worker hangs the
    command up as a shell would, and still exits when idle."""
    env, worker, client = sleeping_client(runtime, tmp_path, HYPERPLANE_WORKER_IDLE="3")
    command = command_of(worker)
    try:
        if stopped:
            client.send_signal(signal.SIGTSTP)
            assert wait_for_state(command, "T") and wait_for_state(client.pid, "T")
        client.kill()
        client.wait(timeout=60)
        assert gone(command)  # SIGHUP (and SIGCONT) ended it
        assert gone(worker)  # no command holds it past its idle exit
    finally:
        kill_all(command, client.pid)
        client.stdout.close()
        client.stderr.close()
    log = next((runtime / "hyperplane").glob("*.log")).read_text()
    assert f"worker {worker} stopped after 2 commands" in log


def test_a_big_log_is_rotated_and_old_fingerprints_are_forgotten(tmp_path):
    from hyperplane.cli import _client

    log = tmp_path / "w-a.log"
    log.write_bytes(b"x" * (_client.LOG_LIMIT + 1))
    _client.rotate_log(str(log))
    assert not log.exists() and (tmp_path / "w-a.log.1").stat().st_size == _client.LOG_LIMIT + 1
    _client.rotate_log(str(log))  # no log yet: nothing to do
    small = tmp_path / "w-b.log"
    small.write_text("started\n")
    _client.rotate_log(str(small))
    assert small.read_text() == "started\n"
    for name in ("w-old.lock", "w-old.log", "w-old.log.1", "w-live.lock", "w-live.sock",
                 "w-binding.lock", "w-binding.sock.123", "w-new.lock", "w-mine.lock", "notes.txt"):
        (tmp_path / name).touch()
    week = time.time() - _client.FORGET_AFTER - 60
    for name in os.listdir(tmp_path):
        if not name.startswith("w-new"):
            os.utime(tmp_path / name, (week, week))
    _client.forget_old(str(tmp_path), keep="w-mine")
    assert sorted(os.listdir(tmp_path)) == [
        "notes.txt", "w-binding.lock", "w-binding.sock.123",
        "w-live.lock", "w-live.sock", "w-mine.lock", "w-new.lock"]


def test_an_idle_worker_exits(runtime):
    env = environment(runtime, HYPERPLANE_WORKER_IDLE="2")
    assert hyperplane(env, "models").returncode == 0
    [pid] = worker_pids(env)
    for _ in range(300):
        if not worker_pids(env):
            break
        time.sleep(0.1)
    assert worker_pids(env) == []
    assert not any(name.endswith(".sock") for name in os.listdir(runtime / "hyperplane"))
    [log] = (runtime / "hyperplane").glob("*.log")
    assert f"worker {pid} stopped" in log.read_text()


def test_worker_stop(runtime):
    env = environment(runtime)
    assert hyperplane(env, "models").returncode == 0
    [pid] = worker_pids(env)
    done = hyperplane(env, "worker", "stop")
    assert done.returncode == 0 and done.stdout.startswith(f"stopped worker {pid}")
    assert hyperplane(env, "worker", "status").stdout == "no worker running\n"


def test_the_worker_directory_is_private(runtime):
    assert hyperplane(environment(runtime), "models").returncode == 0
    assert stat.S_IMODE(os.stat(runtime / "hyperplane").st_mode) == 0o700
