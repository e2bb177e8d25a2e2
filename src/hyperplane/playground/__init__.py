"""The playground: watch the books' learners learn, step by step, in the browser.

``hyperplane playground`` serves a local web page (Flask, with Plotly.js from
the ``plotly`` wheel, so it works offline) with one lesson per family:
the perceptron's 表2.1/表2.2, SMO steps, trees node by node and pruning,
standard vs accumulated BP, and the linear models. Every number shown is the
library's own: its traces, split tables and fitted attributes.
"""

from __future__ import annotations

import ipaddress
import socket
import threading
import webbrowser

__all__ = ["create_app", "serve", "check_host"]


def create_app(allow_remote=False, warm_up=None):
    """The playground's Flask application (see :mod:`._server`): it answers only
    requests naming a loopback host (any host with ``allow_remote``), from its
    own page's origin, with JSON bodies.

    Examples
    --------
    Flask's test client asks the JSON endpoints without a server:

    >>> from hyperplane.playground import create_app
    >>> client = create_app().test_client()
    >>> response = client.get("/api/catalog")
    >>> response.status_code, response.get_json()["learners"]
    (200, ['perceptron', 'svm', 'tree', 'bp', 'linear'])
    >>> response = client.post("/api/start", json={"learner": "adaboost"})
    >>> response.status_code, response.get_json()["error"]
    (400, "learner: must be one of ['perceptron', 'svm', 'tree', 'bp', 'linear']; got 'adaboost'")
    >>> client.post("/api/start", data="{}", content_type="text/plain").status_code
    415
    >>> client.get("/api/catalog", headers={"Origin": "http://evil.example"}).status_code
    403
    """
    try:
        import flask  # noqa: F401
        import plotly  # noqa: F401
    except ImportError as exc:
        raise ImportError(f"the playground needs Flask and plotly ({exc.name} is missing): "
                          "pip install 'hyperplane[playground]'") from None
    from ._server import create_app as _create

    return _create(allow_remote, warm_up)


def check_host(host, allow_remote=False):
    """``host`` if it is a loopback address, or if ``allow_remote`` says so.

    Raises
    ------
    ValueError
        A non-loopback host without ``allow_remote``: the playground runs the
        learners on request, so it answers other machines only when asked to.

    Examples
    --------
    >>> check_host("127.0.0.1")
    '127.0.0.1'
    >>> check_host("0.0.0.0")
    Traceback (most recent call last):
    ...
    ValueError: host '0.0.0.0' is not a loopback address; pass --allow-remote to serve other machines
    """
    if host == "localhost":
        return host
    try:
        loopback = ipaddress.ip_address(host).is_loopback
    except ValueError:
        loopback = False
    if not loopback and not allow_remote:
        raise ValueError(f"host {host!r} is not a loopback address; pass --allow-remote to "
                         "serve other machines")
    return host


def free_port(host):
    """A port the operating system reports free on ``host``."""
    with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as sock:
        sock.bind((host, 0))
        return sock.getsockname()[1]


def keep_blas_on_one_thread():
    """Run BLAS on one thread for the rest of this process (unlike
    :func:`hyperplane._threads.one_blas_thread`, which limits the body of a
    ``with`` and restores the pool after it): the lessons' data are small, and
    a BLAS thread pool only oversubscribes the cores (a 3-parameter logistic
    fit took 60 ms of CPU with two OpenBLAS threads, 4 ms with one).

    Loads scipy's optimiser first, so that its own OpenBLAS is limited too.
    """
    import scipy.optimize  # noqa: F401
    from threadpoolctl import threadpool_limits

    threadpool_limits(limits=1, user_api="blas")


def quiet_convergence():
    """Keep the lessons' ConvergenceWarnings out of the terminal, for the whole
    process, once before the server's threads start: a lesson fits on purpose
    with small iteration caps (the dual perceptron refits with ``max_iter`` one
    epoch higher each epoch) and tells the page from the models' own
    ``converged_`` / ``n_iter_`` whether a run converged. A filter set per
    request (``warnings.catch_warnings``) is not thread-safe: two overlapping
    requests restore each other's filters.
    """
    import warnings

    from .._validation import ConvergenceWarning

    warnings.filterwarnings("ignore", category=ConvergenceWarning)


def serve(host="127.0.0.1", port=None, *, open_browser=True, allow_remote=False, ready=None,
          progress=None):
    """Serve the playground until interrupted.

    Parameters
    ----------
    host : str
        Address to bind; anything but loopback needs ``allow_remote=True``.
    port : int or None
        None picks a free port.
    open_browser : bool
        Open the page in the default browser once the server listens.
    allow_remote : bool
        Allow a non-loopback ``host``.
    ready : callable, optional
        Called with the page's URL once the server listens.
    progress : callable, optional
        Called with one line of text as each learner's kernels finish
        compiling; they compile in a background thread from the moment the
        server listens (``/api/warmup`` tells the page the same).

    Examples
    --------
    A host other than loopback is refused before anything is bound:

    >>> from hyperplane.playground import serve
    >>> serve("0.0.0.0", open_browser=False)
    Traceback (most recent call last):
    ...
    ValueError: host '0.0.0.0' is not a loopback address; pass --allow-remote to serve other machines

    On loopback it prints the page's URL and serves until Ctrl-C (blocking,
    so not run here):

    >>> serve(port=8765, open_browser=False, ready=print)  # doctest: +SKIP
    http://127.0.0.1:8765/
    """
    from werkzeug.serving import make_server

    check_host(host, allow_remote)
    port = free_port(host) if port is None else int(port)
    from ._server import LESSONS, prepare_learner
    from ._warmup import WarmUp, terminal_report

    warm_up = WarmUp(LESSONS, prepare_learner,
                     report=None if progress is None else terminal_report(progress))
    server = make_server(host, port, create_app(allow_remote, warm_up), threaded=True)
    keep_blas_on_one_thread()
    quiet_convergence()
    url = f"http://{'[' + host + ']' if ':' in host else host}:{server.server_port}/"
    if ready is not None:
        ready(url)
    if open_browser:
        threading.Timer(0.5, webbrowser.open, args=(url,)).start()
    warm_up.start()
    try:
        server.serve_forever()
    finally:
        server.server_close()
