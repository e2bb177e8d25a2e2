"""The client of the kept-warm worker (:mod:`~._worker`): the first thing the
``hyperplane`` console script runs, before anything heavy is imported.

A command's floor is its third-party imports (scikit-learn, numba, NumPy,
SciPy, skops: ~2 CPU s), paid again by every process. As with Gradle's daemon,
Bazel's server or mypy's ``dmypy``, a long-lived worker of the same user
imports them once and forks a child per command; the client hands the child
its standard input, output and error (``SCM_RIGHTS``, :func:`socket.send_fds`),
its command line, working directory, environment and ``sys.path``, forwards
SIGINT/SIGTERM/SIGHUP and Ctrl-Z (SIGTSTP, then SIGCONT) to it and exits with its status. The command thus writes
to the user's terminal or pipe itself: colours, terminal width, ``| head`` and
reading stdin behave as in-process.

Safety, as a local server's should be: the socket lives in a per-user
directory (``$XDG_RUNTIME_DIR/hyperplane`` or ``<tmp>/hyperplane-<uid>``) that
must be owned by the user and closed to group and others (else the client says
why and runs in-process); the worker serves only peers of its own uid
(``SO_PEERCRED``). One worker serves one fingerprint (:func:`fingerprint`: the
interpreter, hyperplane's source files and the environment variables that
change imports or results); another fingerprint starts another worker.

``HYPERPLANE_WORKER=off`` runs every command in-process; ``on`` (the default)
uses the worker. ``playground`` and ``worker`` always run in-process, as does
every command where ``AF_UNIX``, ``fork`` or ``send_fds`` is missing (Windows).

Only the standard library is imported here.
"""

from __future__ import annotations

import json
import os
import socket
import struct
import sys

from .._sources import PACKAGE, newest_source_change

#: first bytes of every request; the frame's length follows (4 bytes)
MAGIC = b"HPW1"
#: commands that never go through the worker
IN_PROCESS = {"playground", "worker"}
#: environment variables (prefixes) that change imports or results
FINGERPRINT_PREFIXES = ("NUMBA_", "OMP_", "OPENBLAS_", "MKL_", "HYPERPLANE_", "LC_")
FINGERPRINT_NAMES = ("PYTHONPATH", "PYTHONHASHSEED", "PYTHONIOENCODING", "PYTHONUTF8", "LANG")
#: switches of the worker itself, not of what it runs
NOT_FINGERPRINT = ("HYPERPLANE_WORKER", "HYPERPLANE_WORKER_IDLE")
#: the longest socket path every platform binds (``sun_path``: 104 bytes on BSDs)
MAX_SOCKET_PATH = 100
#: seconds a starting worker may take to listen before the command runs in-process
START_TIMEOUT = 20.0
#: bytes of a worker's log past which a starting worker moves it to ``.log.1``
LOG_LIMIT = 1 << 20
#: seconds after which the lock and logs of a fingerprint without a socket are removed
FORGET_AFTER = 7 * 24 * 3600


class Unsafe(Exception):
    """The worker directory cannot be trusted."""


def enabled(argv, environ=os.environ):
    """Whether the command ``argv`` (``sys.argv``) should go through the worker."""
    if environ.get("HYPERPLANE_WORKER", "on").strip().lower() in ("off", "0", "no", "false"):
        return False
    if not (hasattr(socket, "AF_UNIX") and hasattr(os, "fork") and hasattr(socket, "send_fds")):
        return False
    command = next((arg for arg in argv[1:] if not arg.startswith("-")), None)
    return command not in IN_PROCESS


def directory(create=True):
    """The per-user worker directory, made 0700 when ``create``; raises
    :class:`Unsafe` when it is not the user's or group/other can reach it."""
    runtime = os.environ.get("XDG_RUNTIME_DIR")
    if runtime:
        path = os.path.join(runtime, "hyperplane")
    else:
        import tempfile

        path = os.path.join(tempfile.gettempdir(), f"hyperplane-{os.getuid()}")
    if create:
        try:
            os.mkdir(path, 0o700)
        except FileExistsError:
            pass
    info = os.lstat(path)
    if not os.path.isdir(path) or os.path.islink(path):
        raise Unsafe(f"{path} is not a directory")
    if info.st_uid != os.getuid():
        raise Unsafe(f"{path} belongs to uid {info.st_uid}, not to this user")
    if info.st_mode & 0o077:
        raise Unsafe(f"{path} is open to group or others (mode {info.st_mode & 0o777:04o})")
    return path


def fingerprint(environ=os.environ):
    """A short hash of what a worker's imports depend on: the interpreter,
    hyperplane's folder and the newest modification time of its source files
    (an editable install changes under a running worker, and an upgrade
    rewrites them), and the environment variables that change imports or
    results (``NUMBA_*``, ``OMP_*``, ``PYTHONPATH``, ...)."""
    import zlib

    newest = newest_source_change(PACKAGE)
    variables = sorted((name, value) for name, value in environ.items()
                       if (name.startswith(FINGERPRINT_PREFIXES) or name in FINGERPRINT_NAMES)
                       and name not in NOT_FINGERPRINT)
    text = json.dumps([sys.executable, PACKAGE, newest, variables])
    return f"{zlib.crc32(text.encode()):08x}{zlib.adler32(text.encode()):08x}"


def socket_path(folder, print_=None):
    """The socket of this fingerprint's worker in ``folder``."""
    return os.path.join(folder, f"w-{print_ or fingerprint()}.sock")


def connect(path):
    """A socket connected to the worker listening at ``path``, or ``None``; a
    socket file nobody listens on (a worker that died) is removed."""
    client = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        client.connect(path)
        return client
    except FileNotFoundError:
        client.close()
    except ConnectionRefusedError:
        client.close()
        try:
            os.unlink(path)
        except FileNotFoundError:
            pass
    return None


def send(client, message, fds=()):
    """Send one request frame (its JSON after the magic and length), with ``fds``."""
    payload = json.dumps(message).encode()
    socket.send_fds(client, [MAGIC + struct.pack("!I", len(payload))], list(fds))
    client.sendall(payload)


def start_worker(folder, path):
    """Connect to this fingerprint's worker, starting it first when none
    answers (one starter at a time: a ``flock`` on its lock file). Returns the
    connected socket, or a string saying why there is none."""
    import fcntl
    import subprocess
    import time

    stem = path[:-len(".sock")]
    with open(stem + ".lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        client = connect(path)
        if client is not None:  # another client started it meanwhile
            return client
        rotate_log(stem + ".log")
        forget_old(folder, keep=os.path.basename(stem))
        with open(stem + ".log", "ab") as log:
            worker = subprocess.Popen(
                [sys.executable, "-m", "hyperplane.cli._worker", path],
                stdin=subprocess.DEVNULL, stdout=log, stderr=log, start_new_session=True,
                close_fds=True)
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            client = connect(path)
            if client is not None:
                return client
            if worker.poll() is not None:
                return f"the worker exited at start ({worker.returncode}; see {log.name})"
            time.sleep(0.02)
        worker.kill()
        return f"the worker did not listen within {START_TIMEOUT:g} s"


def rotate_log(log):
    """Keep a worker's log bounded: one over :data:`LOG_LIMIT` bytes becomes
    ``.log.1`` (replacing the previous one) before a new worker starts."""
    try:
        if os.path.getsize(log) > LOG_LIMIT:
            os.replace(log, log + ".1")
    except FileNotFoundError:
        pass


def forget_old(folder, keep, now=None):
    """Remove the lock and logs of fingerprints (an upgrade or a source edit
    makes a new one) whose socket is gone and whose files are all older than
    :data:`FORGET_AFTER`; ``keep`` is the starting worker's own stem."""
    import time

    now = time.time() if now is None else now
    stems = {}
    for name in os.listdir(folder):
        stem, dot, _ = name.partition(".")
        if stem.startswith("w-") and dot and stem != keep:
            stems.setdefault(stem, []).append(name)
    for stem, names in stems.items():
        if any(name.endswith(".sock") or ".sock." in name for name in names):
            continue  # a worker listens, or is binding its socket
        paths = [os.path.join(folder, name) for name in names]
        try:
            if max(os.lstat(name).st_mtime for name in paths) > now - FORGET_AFTER:
                continue
            for name in paths:
                os.unlink(name)
        except FileNotFoundError:  # another starter forgot it first
            pass


def run_command(argv):
    """Run the command ``argv`` in a worker's child: its exit status, or
    ``None`` when it should run in-process (then the command has not started;
    a line on stderr says why, unless the worker is off or unsupported)."""
    if not enabled(argv):
        return None
    try:
        folder = directory()
        path = socket_path(folder)
        if len(os.fsencode(path)) > MAX_SOCKET_PATH:
            return _in_process(f"the worker's socket path is too long: {path}")
        client = connect(path) or start_worker(folder, path)
    except Unsafe as why:
        return _in_process(f"unsafe worker directory: {why}")
    except OSError as why:
        return _in_process(f"no worker: {why}")
    if isinstance(client, str):
        return _in_process(client)
    main = sys.modules.get("__main__")
    request = {"op": "run", "argv": list(argv), "cwd": os.getcwd(), "env": dict(os.environ),
               "path": list(sys.path), "main_package": getattr(main, "__package__", None)}
    with client:
        try:
            send(client, request, fds=(0, 1, 2))
        except OSError as why:  # a closed standard stream: nothing started
            return _in_process(f"cannot hand over the standard streams: {why}")
        replies = client.makefile("rb")
        started = _reply(replies)
        if started is None:  # the worker was ending: nothing started
            return _in_process("the worker closed the connection")
        _forward_signals(started["pid"])
        done = _reply(replies)
    if done is None:
        print("hyperplane: error: the worker went away before the command ended; "
              "it may have been partly done", file=sys.stderr)
        return 1
    return done["status"]


def _reply(replies):
    try:
        line = replies.readline()
    except OSError:
        return None
    return json.loads(line) if line else None


def _forward_signals(pid):
    import signal

    def forward(number, frame):
        try:
            os.kill(pid, number)
        except ProcessLookupError:
            pass

    def suspend(number, frame):
        """Ctrl-Z: the command stops, then the client as the shell expects;
        ``fg`` or ``bg`` continues the client, whose SIGCONT goes on to it.
        Both stop by SIGSTOP: the kernel drops SIGTSTP in an orphaned process
        group, which the worker's session is (and a client's may be)."""
        forward(signal.SIGSTOP, frame)
        os.kill(os.getpid(), signal.SIGSTOP)  # delivered even in an orphaned process group

    for name in ("SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT", "SIGCONT"):
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), forward)
    if hasattr(signal, "SIGTSTP"):
        signal.signal(signal.SIGTSTP, suspend)


def _in_process(why):
    print(f"hyperplane: running in-process ({why})", file=sys.stderr)
    return None


def ask_all(op, folder=None):
    """Send ``op`` ("status" or "stop") to every worker of this user: a list
    of their replies (dicts), in socket-name order; stale sockets are removed."""
    folder = folder or directory(create=False)
    replies = []
    for name in sorted(os.listdir(folder)):
        if not (name.startswith("w-") and name.endswith(".sock")):
            continue
        client = connect(os.path.join(folder, name))
        if client is None:
            continue
        with client:
            send(client, {"op": op})
            reply = _reply(client.makefile("rb"))
        if reply is not None:
            replies.append(reply)
    return replies
