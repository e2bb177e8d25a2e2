"""The SVM lesson (李航 chapter 7, 周志华 chapter 6): SMO step by step, SVR's ε-tube.

Each SMO step is a row of ``SVC(record_trace=True).trace_``: the working pair
(i, j), its KKT violation, α_j before and after clipping, the new α_i and b
(two classes; with more, only the fitted one-vs-one models are shown). The last step shows
the fitted ``alpha_``, ``intercept_``, ``support_`` and ``decision_function``
(margins f(x) = ±1 and the separating line f(x) = 0).

The ``formulation`` field picks LIBSVM's other duals on the same SMO: ``nu_svm``
(ν-SVC on the plane, ν-SVR on the sine data; Schölkopf et al. 2000) and
``one_class`` (the one-class SVM of Schölkopf et al. 2001: the labels are not
used, f(x) = 0 bounds the estimated support).
"""

from __future__ import annotations

import numpy as np

from ..svm import SVC, SVR, NuSVC, NuSVR, OneClassSVM
from ._fields import FieldError, choice, integer, real
from ..kernels._kernels import linear_weights
from ._plane import GRID, box, hyperplane_picture, margin_summary, number, points, regions, vector

COLUMNS = ["k", "pair", "violation", "alpha_j_unclipped", "clip", "alpha_i", "alpha_j", "b"]
KERNELS = ("linear", "rbf", "poly")
#: SMO iterations a run may take (100,000 on a poly hard margin froze the page ~170 s)
MAX_SMO_ITER = 20_000
#: SMO steps sent to the page: the first TRACE_HEAD and the last TRACE_TAIL, with
#: one row counting the steps left out between them
TRACE_HEAD, TRACE_TAIL = 1000, 200
#: C of the SVR lesson when the field says inf (SVR has no hard-margin form)
SVR_C = 10.0
#: the duals the lesson solves: C-SVC / ε-SVR (the books'), ν-SVC / ν-SVR, one-class
FORMULATIONS = ("c_svm", "nu_svm", "one_class")


def _C(params, default):
    if params.get("C", default) in ("inf", "∞", None):
        return np.inf
    return real(params, "C", default, above=0)


def _estimator(cls, params, **extra):
    kernel = choice(params, "kernel", "linear", KERNELS)
    sigma = real(params, "sigma", 1.0, low=1e-6, high=1e6)
    return cls(kernel=kernel, gamma=1.0 / (2.0 * sigma ** 2),
               degree=integer(params, "degree", 2, low=1, high=10),
               tol=real(params, "tol", 1e-8, above=0, high=1.0), max_iter=MAX_SMO_ITER, **extra)


#: a step's book numbers where 李航's formulas do not apply (SVR, ν, one-class duals)
NO_BOOK_NUMBERS = {"E_i": "—", "E_j": "—", "eta": "—", "b1": "—", "b2": "—"}


def book_numbers(gram, signs, alpha, b_old, row):
    """李航 算法7.5's numbers of one SMO step on the pair (i, j) = (1, 2) of the
    book: E_k = g(x_k) − y_k with g(x) = Σ α_l y_l K(x_l, x) + b before the step
    (式7.105), η = K_ii + K_jj − 2K_ij (式7.107), and the two candidates for the
    new b (式7.115, 7.116)::

        b₁ = −E_i − y_i K_ii (α_i^new − α_i) − y_j K_ji (α_j^new − α_j) + b
        b₂ = −E_j − y_i K_ij (α_i^new − α_i) − y_j K_jj (α_j^new − α_j) + b

    ``alpha``: the multipliers before the step; ``b_old``: b before it (the
    previous step's, 0 at the start as α⁽⁰⁾ = 0). When both new multipliers are
    inside (0, C) the book shows b₁ = b₂; hyperplane's own b (the table's column)
    is LIBSVM's, from the KKT conditions of all free multipliers.

    Examples
    --------
    >>> gram = np.array([[18.0, 21.0], [21.0, 25.0]])
    >>> row = {"i": 0, "j": 1, "alpha_i": 0.5, "alpha_j": 0.5, "eta": 1.0}
    >>> book_numbers(gram, np.array([1.0, -1.0]), np.zeros(2), 0.0, row)["E_i"]
    '-1'
    """
    i, j = int(row["i"]), int(row["j"])
    y_i, y_j = signs[i], signs[j]
    g = gram @ (alpha * signs) + b_old
    E_i, E_j = g[i] - y_i, g[j] - y_j
    d_i, d_j = row["alpha_i"] - alpha[i], row["alpha_j"] - alpha[j]
    b1 = -E_i - y_i * gram[i, i] * d_i - y_j * gram[j, i] * d_j + b_old
    b2 = -E_j - y_i * gram[i, j] * d_i - y_j * gram[j, j] * d_j + b_old
    return {"E_i": number(E_i), "E_j": number(E_j), "eta": number(row["eta"]),
            "b1": number(b1), "b2": number(b2)}


def smo_rows(model, X=None, signs=None, gram=None, low=None, high=None):
    """One step per SMO iteration of ``model.trace_``: the pair, its KKT violation
    m(α) − M(α), α_j before and after clipping to [L, H], the new α_i and b.
    The α drawn on the plane are the trace's new α_i, α_j, carried forward;
    given the samples ``X`` and the labels' ``signs`` (±1) of a linear-kernel
    SVC, each step also has w = Σ α_i y_i x_i, b and the margin 2/‖w‖, and
    (given the drawing box's corners ``low`` and ``high``) its line and margins. Given
    the ``gram`` matrix and ``signs`` of a two-class C-SVC, each step carries
    李航 算法7.5's E_i, E_j, η, b₁, b₂ (:func:`book_numbers`) for the pseudocode."""
    alpha = {}
    dense = None if X is None else np.zeros(len(X))
    book_alpha = None if gram is None else np.zeros(gram.shape[0])
    b_old = 0.0
    trace = model.trace_
    omitted = len(trace) - TRACE_HEAD - TRACE_TAIL
    for position, (_, row) in enumerate(trace.iterrows()):
        i, j = int(row["i"]), int(row["j"])
        numbers = (NO_BOOK_NUMBERS if book_alpha is None
                   else book_numbers(gram, signs, book_alpha, b_old, row))
        if book_alpha is not None:
            book_alpha[i], book_alpha[j] = row["alpha_i"], row["alpha_j"]
            b_old = float(row["b"])
        alpha[i], alpha[j] = row["alpha_i"], row["alpha_j"]   # SVR: the multiplier that moved
        if dense is not None:
            dense[i], dense[j] = row["alpha_i"], row["alpha_j"]
        if omitted > 0 and TRACE_HEAD <= position < TRACE_HEAD + omitted:
            if position == TRACE_HEAD:
                yield {"row": [f"… {omitted} …", "", "", "", "", "", ""], "omitted": omitted}
            continue
        step = {"row": [f"(x{i + 1}, x{j + 1})", number(row["violation"]),
                        number(row["alpha_j_unclipped"]),
                        f"[{number(row['L'])}, {number(row['H'])}]",
                        number(row["alpha_i"]), number(row["alpha_j"]), number(row["b"])],
                "plot": {"mark": [i, j],
                         "labels": {t: f"α={number(a)}" for t, a in alpha.items() if a > 0}},
                "line": ["select", "clip"], "smo": numbers}
        if dense is not None:
            w = linear_weights([dense * signs], X)[0]
            step["summary"] = margin_summary(w, row["b"])
            if low is not None:
                step["plot"].update(hyperplane_picture(w, float(row["b"]), low, high,
                                                       margins=True))
        yield step


def svc_steps(model, X, y, low, high):
    linear = model.alpha_.ndim == 1 and model.kernel == "linear"
    if model.alpha_.ndim == 1:
        signs = np.where(y == model.classes_[1], 1.0, -1.0)
        # ν-SVC's steps move the unscaled α of its dual (LIBSVM divides them by r at the
        # end): w of a step is not the final model's, so only the final summary has it
        per_step = linear and not isinstance(model, NuSVC)
        # 李航's E, b₁, b₂ are those of the C-SVC dual (ν-SVC's α are unscaled)
        gram = None if isinstance(model, NuSVC) else np.asarray(model.kernel_(X, X))
        yield from smo_rows(model, X if per_step else None, signs, gram, low, high)
    alpha = np.ravel(model.alpha_)
    support = model.support_.tolist()
    labels = {int(i): f"α={number(alpha[i])}" for i in support}
    # the fitted f(x) = 0, ±1 are the regions' contour lines, over the points' box
    picture = {"regions": regions(model.decision_function, low, high), "levels": [-1, 0, 1],
               "mark": support, "labels": labels, "lines": [],
               "view": [low.tolist(), high.tolist()]}
    final = {"row": ["α = " + vector(alpha), "", "", "", "", "", number(model.intercept_[0])],
             "plot": picture, "epoch_end": True, "final": True, "line": "stop",
             "say": {"key": "svc_done", "sv": len(support), "iterations": int(model.n_iter_),
                     "b": number(model.intercept_[0])},
             **_ended(f"{len(support)} support vectors, {model.n_iter_} SMO iterations, "
                      f"b = {number(model.intercept_[0])}", iteration_cap(model))}
    if linear:
        final["summary"] = margin_summary(model.coef_[0], model.intercept_[0])
    yield final


def one_class_steps(model, X, low, high):
    """The SMO steps of a one-class SVM, then its support: f(x) = 0 drawn, the
    support vectors marked, and how many points it keeps inside."""
    yield from smo_rows(model)
    alpha = np.ravel(model.dual_coef_)
    support = model.support_.tolist()
    inside = int(np.sum(model.predict(X) == 1))
    picture = {"regions": regions(model.decision_function, low, high), "levels": [0],
               "mark": support,
               "labels": {int(i): f"α={number(a)}" for i, a in zip(support, alpha)}}
    yield {"row": ["α = " + vector(alpha), "", "", "", "", "", number(-model.offset_)],
           "plot": picture, "epoch_end": True, "final": True, "line": "stop",
           "say": {"key": "one_class_done", "sv": len(support), "inside": inside,
                   "n": len(X), "iterations": int(model.n_iter_),
                   "rho": number(model.offset_)},
           **_ended(f"{len(support)} support vectors, {inside} of {len(X)} points "
                    f"inside f(x) > 0, {model.n_iter_} SMO iterations, "
                    f"ρ = {number(model.offset_)}", iteration_cap(model))}


def iteration_cap(model):
    """``{"stopped": ..., "status": ...}`` when SMO stopped at :data:`MAX_SMO_ITER`
    with the KKT conditions still violated (e.g. a poly hard margin on 西瓜3.0α),
    else ``{}``. Read from the model, never from its ConvergenceWarning: catching
    it (``warnings.catch_warnings``) swaps the process's filters, which is not
    thread-safe, and the server answers requests in threads."""
    if model.n_iter_ < MAX_SMO_ITER:
        return {}
    return {"stopped": {"reason": "iteration_cap", "iterations": MAX_SMO_ITER},
            "status": f"not converged: SMO reached its cap of {MAX_SMO_ITER} iterations with "
                      "the KKT conditions still violated; set a finite C or use the RBF kernel"}


def hard_margin_steps(kernel, message):
    """The one step of a hard-margin run on data its kernel cannot separate."""
    yield {"row": ["—", "", "", "", "", "", ""], "epoch_end": True, "final": True, "line": "stop",
           "stopped": {"reason": "hard_margin", "kernel": kernel},
           "status": f"no solution: {message}"}


def svr_steps(model, x, y, note):
    grid = np.linspace(x.min(), x.max(), 4 * GRID)
    f = model.predict(grid[:, None])
    eps = model.epsilon_ if isinstance(model, NuSVR) else model.epsilon  # ν-SVR finds its tube
    curve = {"x": grid.round(5).tolist(), "f": f.round(5).tolist(),
             "upper": (f + eps).round(5).tolist(), "lower": (f - eps).round(5).tolist()}
    yield from smo_rows(model)
    yield {"row": ["SVR", "", "", "", "", "", number(model.intercept_[0])],
           "plot": {"curve": curve, "mark": model.support_.tolist()}, "epoch_end": True,
           "final": True, "line": "stop",
           "say": {"key": "svr_done", "sv": len(model.support_), "iterations": int(model.n_iter_)},
           **_ended(f"{len(model.support_)} support vectors outside or on the ε-tube, "
                    f"{model.n_iter_} SMO iterations", iteration_cap(model) or note)}


def _ended(summary, stop):
    """The status of a last step: the fit's summary, then why it stopped where it did."""
    if not stop:
        return {"status": summary}
    return {**stop, "status": f"{summary}; {stop['status']}"}


def _nu(params):
    return real(params, "nu", 0.5, above=0, high=1.0)


def start(X, y, params):
    """``(info, steps)`` of the SVM lesson: SVC on a plane, SVR on the sine data."""
    numeric = X.select_dtypes("number")
    formulation = choice(params, "formulation", "c_svm", FORMULATIONS)
    if params.get("dataset") == "sine" or numeric.shape[1] == 1:
        if formulation == "one_class":
            raise FieldError("formulation", "the one-class SVM needs two numeric columns",
                             "svm_one_class_plane")
        x = numeric.to_numpy(np.float64)
        C = _C(params, SVR_C)
        note = {}
        if not np.isfinite(C):   # the page's default C is inf, the SVC's hard margin
            C = SVR_C
            note = {"stopped": {"reason": "svr_hard", "C": SVR_C},
                    "status": f"SVR has no hard-margin form (C = inf); C = {SVR_C:g} was used"}
        tube = ({"nu": _nu(params)} if formulation == "nu_svm"
                else {"epsilon": real(params, "epsilon", 0.1, low=0.0)})
        model = _estimator(NuSVR if formulation == "nu_svm" else SVR, params, C=C,
                           record_trace=True, **tube)
        model = model.fit(x, np.asarray(y, dtype=np.float64))
        info = {"columns": COLUMNS, "svr": True,
                "points": {"x": x[:, 0].tolist(), "y": np.asarray(y, float).tolist()}}
        return info, svr_steps(model, x[:, 0], np.asarray(y), note)
    if numeric.shape[1] != 2 or numeric.isna().any().any():
        raise FieldError("dataset", "the SVM lesson needs two numeric columns (or one, for SVR)",
                         "svm_columns", columns=", ".join(map(str, X.columns)))
    X2, y = numeric.to_numpy(np.float64), np.asarray(y)
    low, high = box(X2)
    info = {"columns": COLUMNS, "points": points(X2, y, numeric.index),
            "box": [low.tolist(), high.tolist()]}
    if formulation == "one_class":
        model = _estimator(OneClassSVM, params, nu=_nu(params), record_trace=True).fit(X2, y)
        return info, one_class_steps(model, X2, low, high)
    if formulation == "nu_svm":
        nu = _nu(params)
        try:
            model = _estimator(NuSVC, params, nu=nu, record_trace=True).fit(X2, y)
        except ValueError as exc:
            if "infeasible" not in str(exc):
                raise
            raise FieldError("nu", " ".join(str(exc).split()), "nu_infeasible",
                             nu=number(nu)) from None
        return info, svc_steps(model, X2, y, low, high)
    estimator = _estimator(SVC, params, C=_C(params, "inf"), record_trace=True)
    try:
        model = estimator.fit(X2, y)
    except ValueError as exc:
        if np.isfinite(estimator.C) or "separable" not in str(exc):
            raise
        return info, hard_margin_steps(estimator.kernel, " ".join(str(exc).split()))
    return info, svc_steps(model, X2, y, low, high)
