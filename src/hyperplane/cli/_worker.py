"""The kept-warm worker of the command line (its client: :mod:`~._client`).

``python -m hyperplane.cli._worker SOCKET`` imports what every command stands
on (NumPy, SciPy's sparse matrices, scikit-learn, numba, skops, pandas, Typer,
Rich), listens on ``SOCKET`` and, for each request, forks a child that takes
the client's standard streams, working directory, environment, ``sys.argv`` and
``sys.path``, runs the command exactly as :func:`~._entry.run` does in-process
(numba compiles and caches kernels in the child as it would there) and exits;
the worker reaps it and sends its exit status (``128 + N`` after signal N) and
CPU seconds back to the client.

The worker imports no hyperplane module that reads the terminal or the
environment at import time (the command line's consoles are made in each
child), runs no compiled kernel and starts no thread pool, so that every
child starts from the state a fresh process would have. It serves only peers
of its own uid, and exits after ``HYPERPLANE_WORKER_IDLE`` seconds (default
300) without a command, or on ``hyperplane worker stop``.

A client that goes away before its command ends (killed, or its terminal
closed while the command was stopped by Ctrl-Z) can forward nothing more: its
connection reads end-of-file, and the worker does what a shell does to its
jobs when the terminal hangs up, SIGHUP and then SIGCONT (a stopped process
acts on a signal only once continued), and SIGKILL after
:data:`HANG_UP_GRACE` seconds if the command still runs. So no orphaned
command runs on unseen, and none stopped for ever keeps its worker from
exiting.
"""

from __future__ import annotations

import json
import os
import selectors
import signal
import socket
import struct
import sys
import time

from ._client import MAGIC

#: seconds a command whose client went away has to end after SIGHUP
HANG_UP_GRACE = 5.0
#: third-party modules every command imports (the floor the worker pays once)
PRELOAD = ("numpy", "scipy.sparse", "sklearn.base", "numba", "skops.io", "pandas",
           "typer", "typer._adapters", "rich.console", "rich.table")


def preload():
    """Import :data:`PRELOAD` with the cyclic collector paused, then freeze
    what they made (``cli/_heap.py``): forked children share those pages."""
    import importlib

    from ._heap import loading

    with loading():
        for name in PRELOAD:
            importlib.import_module(name)


def receive(conn):
    """One request frame: ``(message, fds)``."""
    head, fds, _, _ = socket.recv_fds(conn, len(MAGIC) + 4, 3)
    while len(head) < len(MAGIC) + 4:
        more = conn.recv(len(MAGIC) + 4 - len(head))
        if not more:
            raise ConnectionError("short request")
        head += more
    if head[:len(MAGIC)] != MAGIC:
        raise ConnectionError("not a hyperplane request")
    (size,) = struct.unpack("!I", head[len(MAGIC):])
    payload = bytearray()
    while len(payload) < size:
        more = conn.recv(min(65536, size - len(payload)))
        if not more:
            raise ConnectionError("short request")
        payload += more
    return json.loads(payload), fds


def peer_uid(conn):
    """The uid of the process at the other end (``SO_PEERCRED``), or ``None``
    where the platform cannot tell (the directory's 0700 then guards alone)."""
    if not hasattr(socket, "SO_PEERCRED"):
        return None
    _, uid, _ = struct.unpack("3i", conn.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED,
                                                    struct.calcsize("3i")))
    return uid


def reply(conn, message):
    try:
        conn.sendall(json.dumps(message).encode() + b"\n")
    except OSError:  # the client is gone
        pass


class Worker:
    """The accept loop: a listening socket, the running children and their
    clients' connections, the idle clock."""

    def __init__(self, path, idle):
        self.path, self.idle = path, idle
        self.started, self.served, self.children_cpu = time.time(), 0, 0.0
        self.children = {}  # pid -> client connection
        self.hung_up = {}  # pid -> when SIGKILL follows the SIGHUP (its client went away)
        self.selector = selectors.DefaultSelector()
        self.stopping = False
        self.wake_r, self.wake_w = socket.socketpair()
        self.wake_w.setblocking(False)
        signal.set_wakeup_fd(self.wake_w.fileno())
        signal.signal(signal.SIGCHLD, lambda *_: None)
        signal.signal(signal.SIGTERM, lambda *_: self.stop())
        self.listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        os.chdir(os.path.dirname(path))  # a relative name: 5 bytes more than the client's
        staging = f"{os.path.basename(path)}.{os.getpid()}"
        self.listener.bind(staging)
        self.listener.listen(16)
        os.replace(staging, path)  # clients only ever see a listening socket
        self.inode = os.stat(path).st_ino
        self.last = time.monotonic()

    def serve(self):
        self.selector.register(self.listener, selectors.EVENT_READ)
        self.selector.register(self.wake_r, selectors.EVENT_READ)
        while not (self.stopping and not self.children):
            events = self.selector.select(self.timeout())
            if not events and not self.children and not self.stopping:
                self.stop()  # idle
            for key, _ in events:
                if key.fileobj is self.wake_r:
                    self.wake_r.recv(4096)
                elif key.data is not None:  # a running command's client
                    self.client_readable(key.data, key.fileobj)
                elif not self.stopping:
                    self.accept()
            self.reap()
            self.kill_overdue()
        self.listener.close()

    def timeout(self):
        """Seconds the accept loop may wait: until the idle exit, or until the
        next hung-up command is overdue; ``None`` while commands run."""
        if self.hung_up:
            return max(0.0, min(self.hung_up.values()) - time.monotonic())
        if self.children or self.stopping:
            return None
        return max(0.0, self.last + self.idle - time.monotonic())

    def client_readable(self, pid, conn):
        """A client sends nothing after its request: readable means it went
        away (end-of-file), so its command is hung up."""
        try:
            gone = conn.recv(4096) == b""
        except OSError:
            gone = True
        if gone:
            self.selector.unregister(conn)
            self.hang_up(pid)

    def hang_up(self, pid):
        """End the command of a vanished client as a closing terminal ends a
        shell's job: SIGHUP, SIGCONT, and SIGKILL if it is still there after
        :data:`HANG_UP_GRACE` seconds (:meth:`kill_overdue`)."""
        for signum in (signal.SIGHUP, signal.SIGCONT):
            try:
                os.kill(pid, signum)
            except ProcessLookupError:
                return
        self.hung_up[pid] = time.monotonic() + HANG_UP_GRACE

    def kill_overdue(self):
        now = time.monotonic()
        for pid, deadline in list(self.hung_up.items()):
            if deadline <= now:
                del self.hung_up[pid]
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass

    def stop(self):
        """Stop taking commands: the socket goes (if still ours); running
        children finish and report."""
        if self.stopping:
            return
        self.stopping = True
        if self.listener in self.selector.get_map():  # connections still queued are refused
            self.selector.unregister(self.listener)
        self.listener.close()
        try:
            if os.stat(self.path).st_ino == self.inode:
                os.unlink(self.path)
        except FileNotFoundError:
            pass

    def accept(self):
        conn, _ = self.listener.accept()
        fds = []
        try:
            conn.settimeout(10)
            if peer_uid(conn) not in (None, os.getuid()):
                return conn.close()
            message, fds = receive(conn)
            if message.get("op") == "run" and len(fds) == 3:
                return self.fork(conn, message, fds)
            if message.get("op") == "stop":
                self.stop()
            reply(conn, self.status())
        except (OSError, ValueError) as why:
            print(f"bad request: {why!r}", file=sys.stderr, flush=True)
        for fd in fds:
            os.close(fd)
        conn.close()

    def status(self):
        usage = os.times()
        return {"pid": os.getpid(), "socket": self.path, "python": sys.executable,
                "uptime_s": round(time.time() - self.started, 1), "served": self.served,
                "running": len(self.children), "idle_s": self.idle,
                "worker_cpu_s": usage.user + usage.system, "children_cpu_s": self.children_cpu,
                "stopping": self.stopping}

    def fork(self, conn, message, fds):
        pid = os.fork()
        if pid == 0:
            self.listener.close()
            signal.set_wakeup_fd(-1)
            self.selector.close()
            self.wake_r.close()
            self.wake_w.close()
            for other in self.children.values():  # other clients see EOF when the worker dies
                other.close()
            conn.settimeout(None)
            child(message, fds, conn)  # never returns
        for fd in fds:
            os.close(fd)
        self.served += 1
        self.children[pid] = conn
        reply(conn, {"pid": pid})
        self.selector.register(conn, selectors.EVENT_READ, pid)

    def reap(self):
        while self.children:
            try:
                pid, status, usage = os.wait4(-1, os.WNOHANG)
            except ChildProcessError:
                return
            if pid == 0:
                return
            self.children_cpu += usage.ru_utime + usage.ru_stime
            self.hung_up.pop(pid, None)
            conn = self.children.pop(pid, None)
            if conn is not None:
                if conn in self.selector.get_map():
                    self.selector.unregister(conn)
                code = os.waitstatus_to_exitcode(status)
                reply(conn, {"status": code if code >= 0 else 128 - code,
                             "cpu_s": usage.ru_utime + usage.ru_stime})
                conn.close()
            self.last = time.monotonic()


def child(message, fds, conn):
    """Become the command's process and run it; ends with ``os._exit``."""
    status = 1
    try:
        conn.close()
        for signum in (signal.SIGCHLD, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT):
            signal.signal(signum, signal.SIG_DFL)
        signal.signal(signal.SIGINT, signal.default_int_handler)
        for target, fd in enumerate(fds):
            os.dup2(fd, target)
            os.close(fd)
        adopt(message)
        from ._entry import command_status, exit_now

        try:
            status = command_status()
        except BaseException as uncaught:  # as the interpreter would end on it
            import traceback

            traceback.print_exc()
            status = 130 if isinstance(uncaught, KeyboardInterrupt) else 1
        exit_now(status, in_child=True)
    except BaseException:  # a failure of the worker's own code
        import traceback

        traceback.print_exc()
    finally:  # only reached when exit_now itself failed
        os._exit(status if isinstance(status, int) else 1)


def adopt(message):
    """Take the client's working directory, environment, command line, module
    path, ``__main__`` package (for "Usage: python -m hyperplane") and standard
    streams (remade on the new descriptors, as the interpreter makes them), and
    re-seed NumPy's global random state (a forked child would share it)."""
    import types

    import numpy

    os.chdir(message["cwd"])
    os.environ.clear()
    os.environ.update(message["env"])
    sys.argv = list(message["argv"])
    sys.path[:] = message["path"]
    main = types.ModuleType("__main__")
    main.__package__ = message.get("main_package")
    sys.modules["__main__"] = main
    for name, fd, mode in (("stdin", 0, "r"), ("stdout", 1, "w"), ("stderr", 2, "w")):
        old = getattr(sys, f"__{name}__")
        line_buffered = name == "stderr" or (mode == "w" and os.isatty(fd))
        stream = open(fd, mode, buffering=1 if line_buffered else -1, encoding=old.encoding,
                      errors=old.errors, closefd=False)
        setattr(sys, name, stream)
        setattr(sys, f"__{name}__", stream)
    numpy.random.seed()


def run_worker():
    path = sys.argv[1]
    idle = float(os.environ.get("HYPERPLANE_WORKER_IDLE", "300"))
    preload()
    worker = Worker(path, idle)
    print(f"worker {os.getpid()} listening on {path} (idle exit after {idle:g} s)",
          file=sys.stderr, flush=True)
    worker.serve()
    print(f"worker {os.getpid()} stopped after {worker.served} commands", file=sys.stderr,
          flush=True)


if __name__ == "__main__":
    run_worker()
