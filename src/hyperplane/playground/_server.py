"""The playground's web server: pages, JSON endpoints and a stream of steps.

A thin layer over the library: each lesson module turns a fitted model's own
traces and attributes into rows and pictures; the server only routes.
Requests carry numbers, names and CSV text, never code or model files.
"""

from __future__ import annotations

import ipaddress
import itertools
import json
import threading
import time
from importlib import resources
from urllib.parse import urlsplit

from flask import Flask, Response, jsonify, render_template, request

from ..cli._models import UserError
from . import _bp, _data, _linear, _perceptron, _svm, _tree
from ._fields import FieldError
from ._runs import Run, RunStore
from ._warmup import WarmUp

#: learner key -> (lesson module, whether it draws two numeric columns)
LESSONS = {
    "perceptron": (_perceptron, True),
    "svm": (_svm, False),
    "tree": (_tree, False),
    "bp": (_bp, False),
    "linear": (_linear, True),
}

#: learner key -> the datasets its page offers, first the default
CATALOG = {
    "perceptron": ["example-2.1", "watermelon-3.0alpha", "separable-10000", "clicked"],
    "svm": ["example-2.1", "watermelon-3.0alpha", "sine", "clicked"],
    "tree": ["watermelon-2.0", "watermelon-3.0", "watermelon-2.0alpha", "split-4.2", "loan"],
    "bp": ["xor", "watermelon-3.0alpha", "watermelon-3.0"],
    "linear": ["watermelon-3.0alpha"],
}

#: learner key -> the most rows a run takes (each fits and replays a whole model
#: per request; the SMO and BP lessons record every step)
ROW_LIMITS = {"perceptron": 200_000, "svm": 5_000, "tree": 100_000, "bp": 20_000,
              "linear": 100_000}
#: seconds of steps one stream request produces before it stops and says so
STREAM_SECONDS = 60.0


def is_loopback_name(host):
    """Whether ``host`` (a Host header's name, no port) names this machine."""
    name = host.strip("[]").lower()
    if name == "localhost":
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def _host_name(netloc):
    """The name part of ``host[:port]`` (IPv6 in brackets kept whole)."""
    if netloc.startswith("["):
        return netloc[:netloc.find("]") + 1]
    return netloc.rsplit(":", 1)[0]


def refusal(allow_remote):
    """Why a request may not be served, as ``(status, field, message)``, or None.

    A page the student visits on another site can make the browser send
    requests here (a ``text/plain`` POST needs no permission), and a DNS name
    rebound to 127.0.0.1 would even read the answers. So: the Host header
    must be a loopback name (unless ``allow_remote``), an ``Origin`` header,
    when the browser sends one, must be this very host, and a POST other
    than an upload must declare JSON (which a foreign page cannot send
    without the browser asking this server first, and it never agrees).
    """
    host = request.host
    if not allow_remote and not is_loopback_name(_host_name(host)):
        return 403, "Host", (f"this playground answers only to loopback names (localhost, "
                             f"127.0.0.1, [::1]); the request named {host!r}")
    origin = request.headers.get("Origin")
    if origin is not None and urlsplit(origin).netloc != host:
        return 403, "Origin", (f"requests from another origin ({origin!r}) are refused; "
                               "open the playground's own page")
    if (request.method == "POST" and request.path != "/api/upload"
            and request.mimetype != "application/json"):
        return 415, "Content-Type", (f"the request must be JSON (Content-Type: application/"
                                     f"json); got {request.mimetype or 'none'!r}")
    return None


def json_body():
    """The request's JSON object, or a :class:`FieldError` naming the body."""
    body = request.get_json(silent=True)
    if not isinstance(body, dict):
        raise FieldError("body", "must be a JSON object", "object")
    return body


def check_rows(learner, X):
    """Refuse a dataset larger than :data:`ROW_LIMITS` allows ``learner``."""
    limit = ROW_LIMITS[learner]
    if len(X) > limit:
        raise FieldError("dataset", f"the {learner} lesson takes at most {limit} rows; the "
                                    f"data has {len(X)}: upload a sample", "too_many_rows",
                         limit=limit, rows=len(X))


def _plotly_js():
    """plotly.min.js as shipped inside the plotly wheel (MIT licence): no CDN."""
    return resources.files("plotly").joinpath("package_data", "plotly.min.js").read_bytes()


class _Uploads:
    """Parsed uploads by id, the oldest forgotten beyond ``capacity``."""

    def __init__(self, capacity=16):
        self.capacity, self.items, self.lock = capacity, {}, threading.Lock()
        self._ids = itertools.count(1)  # never reused: a forgotten id stays forgotten

    def add(self, X, y):
        with self.lock:
            key = f"upload:{next(self._ids)}"
            self.items[key] = (X, y)
            while len(self.items) > self.capacity:
                self.items.pop(next(iter(self.items)))
        return key


def _dataset(learner, body, uploads):
    name = body.get("dataset")
    if name == "clicked":
        return _data.clicked(body.get("points"))
    if name == "split-4.2" and learner == "tree":
        return _data.dataset_by_name("watermelon-2.0", {})
    return _data.dataset_by_name(name, uploads.items)


def prepare_learner(learner):
    """One step of ``learner``'s default lesson, as the page's first click
    asks for it: compiles (or loads from numba's cache) the kernels it runs."""
    module, plane = LESSONS[learner]
    X, y = _dataset(learner, {"dataset": CATALOG[learner][0]}, _Uploads())
    if plane:
        X, y = _data.numeric_plane(X, y, learner)
    info, steps = module.start(X, y, {"dataset": CATALOG[learner][0]})
    Run(info, steps).step()


def create_app(allow_remote=False, warm_up=None):
    """The Flask application (one process, runs kept in memory); requests are
    served only as :func:`refusal` allows (``allow_remote``: any Host name).
    ``warm_up``: the :class:`~._warmup.WarmUp` whose progress ``/api/warmup``
    reports (none: every learner reported ready)."""
    app = Flask(__name__, template_folder="templates", static_folder="static")
    app.config["MAX_CONTENT_LENGTH"] = _data.MAX_UPLOAD_BYTES + 16 * 1024
    app.json.ensure_ascii = False
    runs, uploads = RunStore(), _Uploads()
    plotly_js = {}

    @app.before_request
    def same_origin_only():
        refused = refusal(allow_remote)
        if refused is not None:
            status, field, message = refused
            return jsonify({"error": message, "field": field}), status
        return None

    @app.get("/")
    def index():
        return render_template("index.html")

    @app.get("/favicon.ico")
    def favicon():
        return Response(status=204)

    @app.get("/vendor/plotly.min.js")
    def plotly():
        if "js" not in plotly_js:
            plotly_js["js"] = _plotly_js()
        return Response(plotly_js["js"], mimetype="text/javascript",
                        headers={"Cache-Control": "max-age=86400"})

    @app.get("/api/warmup")
    def warmup():
        if warm_up is None:
            return jsonify({"ready": list(LESSONS), "pending": [], "failed": {}})
        return jsonify(warm_up.state())

    @app.get("/api/catalog")
    def catalog():
        return jsonify({"learners": list(LESSONS), "datasets": CATALOG,
                        "uploads": list(uploads.items)})

    @app.post("/api/start")
    def start():
        body = json_body()
        learner = body.get("learner")
        if learner not in LESSONS:
            raise FieldError("learner", f"must be one of {list(LESSONS)}; got {learner!r}",
                             "one_of", options=", ".join(LESSONS), got=repr(learner))
        module, plane = LESSONS[learner]
        X, y = _dataset(learner, body, uploads)
        check_rows(learner, X)
        if plane:
            X, y = _data.numeric_plane(X, y, learner)
        params = body.get("params") or {}
        if not isinstance(params, dict):
            raise FieldError("params", "must be a JSON object", "object")
        params = dict(params, dataset=body.get("dataset"))
        info, steps = module.start(X, y, params)
        run_id = runs.add(Run(info, steps, replay=lambda: module.start(X, y, params)[1]))
        return jsonify({"run": run_id, "info": info})

    @app.post("/api/step")
    def step():
        body = json_body()
        run = runs.get(body.get("run"))
        mode = body.get("mode", "step")
        moves = {"step": run.step, "epoch": run.epoch}
        if mode not in moves:
            raise FieldError("mode", f"must be one of {list(moves)}; got {mode!r}", "one_of",
                             options=", ".join(moves), got=repr(mode))
        started = time.perf_counter()
        steps = moves[mode]()
        return jsonify({"steps": steps, "done": run.done,
                        "ms": round(1000 * (time.perf_counter() - started), 2)})

    @app.post("/api/picture")
    def picture():
        """The pictures of a step a stream or an epoch sent undrawn (the page
        asks when it shows that step, e.g. after stepping back)."""
        body = json_body()
        run = runs.get(body.get("run"))
        k = body.get("k")
        if isinstance(k, bool) or not isinstance(k, int):
            raise FieldError("k", f"must be a step number; got {k!r}", "whole", got=repr(k))
        step = run.picture(k)
        if step is None:
            return jsonify({"k": k, "picture": None})
        keep = {key: step[key] for key in ("plot", "hidden", "regions") if key in step}
        return jsonify({"k": k, "picture": keep})

    @app.get("/api/stream/<run_id>")
    def stream(run_id):
        run = runs.get(run_id)
        limit = request.args.get("max_steps", type=int)
        deadline = time.perf_counter() + STREAM_SECONDS

        def events():
            try:
                for batch in run.stream(max_steps=limit, deadline=deadline):
                    yield f"data: {json.dumps({'steps': batch}, ensure_ascii=False)}\n\n"
            except (ValueError, TypeError, ArithmeticError) as exc:  # e.g. BP diverged
                reason = json.dumps({"error": " ".join(str(exc).split()), "code": "run_failed",
                                     "args": {"k": run.cursor}}, ensure_ascii=False)
                yield f"event: failure\ndata: {reason}\n\n"
                return
            if not run.done and limit is None:
                reason = json.dumps({"error": f"stopped after {STREAM_SECONDS:.0f} s of steps "
                                              "(the playground's time budget for one run "
                                              "request): not converged yet; press run to go on",
                                     "stopped": {"reason": "time_budget",
                                                 "seconds": int(STREAM_SECONDS)}})
                yield f"event: failure\ndata: {reason}\n\n"
                return
            yield f"event: end\ndata: {json.dumps({'done': run.done})}\n\n"

        return Response(events(), mimetype="text/event-stream",
                        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})

    @app.post("/api/upload")
    def upload():
        file = request.files.get("file")
        if file is None:
            raise FieldError("file", "no file in the upload (field 'file')", "upload_no_file")
        content = file.stream.read(_data.MAX_UPLOAD_BYTES + 1)
        X, y = _data.parse_upload(content, file.filename or "upload.csv",
                                  request.form.get("target"))
        key = uploads.add(X, y)
        return jsonify({"dataset": key, "rows": len(X), "features": list(map(str, X.columns)),
                        "target": str(y.name)})

    @app.post("/api/linear")
    def linear():
        body = json_body()
        X, y = _data.numeric_plane(*_data.dataset_by_name("watermelon-3.0alpha", {}), "linear")
        if body.get("points") is not None:
            X = _linear.moved_points(X, body["points"])
        return jsonify(_linear.fit_all(X, y))

    @app.errorhandler(413)
    def too_large(_):
        return jsonify({"error": f"the upload is larger than {_data.MAX_UPLOAD_BYTES} "
                                 "bytes", "field": "file", "code": "upload_too_large",
                        "args": {"limit": _data.MAX_UPLOAD_BYTES}}), 413

    @app.errorhandler(KeyError)
    @app.errorhandler(ValueError)
    @app.errorhandler(TypeError)
    @app.errorhandler(UserError)
    def bad_request(exc):
        text = exc.args[0] if isinstance(exc, KeyError) and exc.args else str(exc)
        answer = {"error": " ".join(str(text).split())}
        if isinstance(exc, FieldError):
            answer["field"] = exc.field
            if exc.code is not None:
                answer["code"], answer["args"] = exc.code, exc.args_
        return jsonify(answer), 400

    return app
