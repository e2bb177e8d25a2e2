"""Fail instead of hanging: a test's call under a SIGALRM deadline."""

import signal


class Deadline:
    """``with Deadline(seconds):`` raises TimeoutError in the block after ``seconds``."""

    def __init__(self, seconds):
        self.seconds = seconds

    def __enter__(self):
        def _expired(signum, frame):
            raise TimeoutError(f"still running after {self.seconds} s")
        self.old = signal.signal(signal.SIGALRM, _expired)
        signal.alarm(self.seconds)

    def __exit__(self, *exc):
        signal.alarm(0)
        signal.signal(signal.SIGALRM, self.old)
