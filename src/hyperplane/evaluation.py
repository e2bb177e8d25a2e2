"""Weka's evaluation summary of a classifier or regressor, on scikit-learn's metrics.

A Weka user reads, after every run, the numbers of
``weka.classifiers.Evaluation``: correctly and incorrectly classified
instances, Cohen's kappa, the mean absolute and root mean squared error of
the class probabilities and both relative to the class prior, per class the
TP and FP rate, precision, recall, F-measure, MCC, ROC and PRC area with
their weighted averages, and the confusion matrix; for a numeric class the
correlation, MAE, RMSE and the errors relative to predicting the training
mean (Witten, Frank & Hall, *Data Mining*, 4th ed., §5.8-5.9). This module
computes them with :mod:`sklearn.metrics` and :mod:`sklearn.model_selection`
and prints them in Weka's layout; :func:`cross_validate_report` runs the
cross-validation (stratified for a classifier, as Weka's ``-x``).

The conventions are Weka's: the probability errors average over the
classes (``Σ_k |p_k − t_k| / K`` per instance), a classifier without
probabilities counts as putting probability 1 on its prediction, the prior
of the relative errors is the training part's class frequencies with one
added to every count (Weka's Laplace start) or, for a numeric class, the
training part's mean; the averages are weighted by the classes' instance
counts. The PRC area is scikit-learn's average precision (Weka integrates
the interpolated curve, so the two can differ in the third digit).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np

from ._weka_folds import JavaRandom, weka_folds

__all__ = ["ClassMeasures", "ClassificationReport", "RegressionReport",
           "classification_report", "regression_report", "cross_validate_report",
           "JavaRandom", "weka_folds"]


class ClassMeasures(NamedTuple):
    """Weka's "Detailed Accuracy By Class" row of one class (or their weighted average).

    Examples
    --------
    >>> row = classification_report([0, 0, 1], [0, 1, 1]).per_class[1]
    >>> row.label, row.tp_rate, row.fp_rate, row.precision, row.support
    (1, 1.0, 0.5, 0.5, 1)
    """

    label: object
    tp_rate: float
    fp_rate: float
    precision: float
    recall: float
    f_measure: float
    mcc: float
    roc_area: float
    prc_area: float
    support: int


@dataclass(frozen=True)
class ClassificationReport:
    """The numbers of Weka's summary for a classifier; ``str()`` prints it.

    ``confusion[i, j]`` counts the instances of class ``labels[i]`` classified
    as ``labels[j]``.

    Examples
    --------
    >>> report = classification_report(["no", "yes", "yes"], ["no", "yes", "no"])
    >>> report.correct, report.n, report.as_dict()["confusion"]
    (2, 3, [[1, 0], [1, 1]])
    >>> for line in str(report).splitlines()[-3:]:
    ...     print(line)
     a b   <-- classified as
     1 0 | a = no
     1 1 | b = yes
    """

    title: str
    labels: list
    confusion: np.ndarray
    kappa: float
    mean_absolute_error: float
    root_mean_squared_error: float
    relative_absolute_error: float
    root_relative_squared_error: float
    per_class: list = field(default_factory=list)
    weighted: ClassMeasures | None = None

    @property
    def n(self):
        """Total number of instances."""
        return int(self.confusion.sum())

    @property
    def correct(self):
        """Correctly classified instances."""
        return int(np.trace(self.confusion))

    @property
    def accuracy(self):
        """Fraction of correctly classified instances."""
        return self.correct / self.n

    def as_dict(self):
        """The report as JSON-ready data (``labels`` and ``confusion`` in the same order)."""
        def measures(m):
            return {k: (_plain(v)) for k, v in m._asdict().items()}
        return {"title": self.title, "n": self.n, "correct": self.correct,
                "accuracy": self.accuracy, "kappa": self.kappa,
                "mean_absolute_error": self.mean_absolute_error,
                "root_mean_squared_error": self.root_mean_squared_error,
                "relative_absolute_error": self.relative_absolute_error,
                "root_relative_squared_error": self.root_relative_squared_error,
                "labels": [_plain(v) for v in self.labels],
                "confusion": self.confusion.astype(int).tolist(),
                "per_class": [measures(m) for m in self.per_class],
                "weighted": measures(self.weighted)}

    def __str__(self):
        n, correct = self.n, self.correct
        lines = [f"=== {self.title} ===", "", "=== Summary ===", "",
                 _summary_line("Correctly Classified Instances", f"{correct}",
                               f"{_weka_number(100 * correct / n)} %"),
                 _summary_line("Incorrectly Classified Instances", f"{n - correct}",
                               f"{_weka_number(100 * (n - correct) / n)} %"),
                 _summary_line("Kappa statistic", _weka_number(self.kappa)),
                 _summary_line("Mean absolute error", _weka_number(self.mean_absolute_error)),
                 _summary_line("Root mean squared error",
                               _weka_number(self.root_mean_squared_error)),
                 _summary_line("Relative absolute error",
                               f"{_weka_number(self.relative_absolute_error)} %"),
                 _summary_line("Root relative squared error",
                               f"{_weka_number(self.root_relative_squared_error)} %"),
                 _summary_line("Total Number of Instances", f"{n}"), "",
                 "=== Detailed Accuracy By Class ===", "",
                 " " * 17 + "TP Rate  FP Rate  Precision  Recall   F-Measure  MCC      "
                 "ROC Area  PRC Area  Class"]
        for m in self.per_class:
            lines.append(" " * 17 + _measure_cells(m) + f"{m.label}")
        lines.append("Weighted Avg.    " + _measure_cells(self.weighted).rstrip())
        lines += ["", "=== Confusion Matrix ===", ""]
        letters = [_letter(i) for i in range(len(self.labels))]
        width = max(len(str(int(self.confusion.max()))), max(map(len, letters))) + 1
        lines.append("".join(f"{a:>{width}}" for a in letters) + "   <-- classified as")
        for i, label in enumerate(self.labels):
            row = "".join(f"{int(c):>{width}}" for c in self.confusion[i])
            lines.append(f"{row} | {letters[i]:>{width - 1}} = {label}")
        return "\n".join(lines)


@dataclass(frozen=True)
class RegressionReport:
    """The numbers of Weka's summary for a numeric class; ``str()`` prints it.

    Examples
    --------
    >>> report = regression_report([0.0, 1.0, 2.0], [0.0, 1.0, 2.0])
    >>> report.correlation, report.root_mean_squared_error
    (1.0, 0.0)
    """

    title: str
    n: int
    correlation: float
    mean_absolute_error: float
    root_mean_squared_error: float
    relative_absolute_error: float
    root_relative_squared_error: float

    def as_dict(self):
        """The report as JSON-ready data."""
        return {k: _plain(v) for k, v in self.__dict__.items()}

    def __str__(self):
        return "\n".join([
            f"=== {self.title} ===", "", "=== Summary ===", "",
            _summary_line("Correlation coefficient", _weka_number(self.correlation)),
            _summary_line("Mean absolute error", _weka_number(self.mean_absolute_error)),
            _summary_line("Root mean squared error", _weka_number(self.root_mean_squared_error)),
            _summary_line("Relative absolute error",
                          f"{_weka_number(self.relative_absolute_error)} %"),
            _summary_line("Root relative squared error",
                          f"{_weka_number(self.root_relative_squared_error)} %"),
            _summary_line("Total Number of Instances", f"{self.n}")])


def _weka_number(value):
    """``value`` as Weka's summary prints it (``Utils.doubleToString(value, 4)``):
    rounded to four decimals, trailing zeros and a bare point dropped (``12.887``)."""
    text = f"{value:.4f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def _plain(value):
    """A NumPy scalar as the Python number JSON writes; NaN (undefined) as None."""
    value = value.item() if isinstance(value, np.generic) else value
    return None if isinstance(value, float) and np.isnan(value) else value


def _label(value):
    """A class label as Python holds it (a NumPy scalar made plain)."""
    return value.item() if isinstance(value, np.generic) else value


def _summary_line(name, value, percent=""):
    """Weka's summary line: the name in 35 columns, then each number as
    ``Utils.doubleToString(x, 12, 4)`` (decimal points aligned: missing
    decimals are blanks), a percentage followed by ``" %"``."""
    def cell(text):
        percent_sign = text.endswith(" %")
        text = text[:-2] if percent_sign else text
        decimals = len(text) - text.index(".") - 1 if "." in text else -1
        return f"{text + ' ' * (4 - decimals):>12}" + (" %" if percent_sign else "")

    return f"{name:<35}{cell(value)}" + (f"     {cell(percent)}" if percent else "")


def _measure_cells(m):
    values = (m.tp_rate, m.fp_rate, m.precision, m.recall, m.f_measure, m.mcc, m.roc_area,
              m.prc_area)
    return "".join(f"{'?' if np.isnan(v) else f'{v:.3f}':<{w}}"
                   for v, w in zip(values, (9, 9, 11, 9, 11, 9, 10, 10)))


def _letter(i):
    """Weka's names of the confusion matrix's columns: a, b, …, z, aa, ab, …"""
    name = ""
    i += 1
    while i > 0:
        i, r = divmod(i - 1, 26)
        name = chr(ord("a") + r) + name
    return name


def _one_hot(y, labels):
    return (np.asarray(y)[:, None] == np.asarray(labels)[None, :]).astype(float)


def _per_class(y_true, y_pred, proba, labels, k):
    from sklearn.metrics import average_precision_score, matthews_corrcoef, roc_auc_score

    truth, said = y_true == labels[k], y_pred == labels[k]
    tp, fp = np.sum(truth & said), np.sum(~truth & said)
    fn, tn = np.sum(truth & ~said), np.sum(~truth & ~said)
    precision = tp / (tp + fp) if tp + fp else np.nan
    recall = tp / (tp + fn) if tp + fn else np.nan
    f = 2 * precision * recall / (precision + recall) if precision + recall > 0 else np.nan
    two_kinds = 0 < truth.sum() < truth.size
    roc = roc_auc_score(truth, proba[:, k]) if two_kinds else np.nan
    prc = average_precision_score(truth, proba[:, k]) if truth.any() else np.nan
    mcc = matthews_corrcoef(truth, said) if two_kinds else np.nan
    rates = (recall, fp / (fp + tn) if fp + tn else np.nan, precision, recall, f, mcc, roc, prc)
    return ClassMeasures(_label(labels[k]), *map(float, rates), int(truth.sum()))


def _weighted(rows):
    support = np.array([m.support for m in rows], dtype=float)

    def mean(name):
        values = np.array([getattr(m, name) for m in rows], dtype=float)
        ok = ~np.isnan(values)
        return float(np.sum(values[ok] * support[ok]) / support[ok].sum()) if ok.any() else np.nan
    return ClassMeasures("Weighted Avg.", *(mean(n) for n in ClassMeasures._fields[1:-1]),
                         int(support.sum()))


def classification_report(y_true, y_pred, proba=None, *, labels=None, prior=None,
                          title="Evaluation on test data"):
    """Weka's summary of a classifier's predictions.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n,)
        True and predicted classes.
    proba : array-like of shape (n, K), optional
        Class probabilities in ``labels`` order; default the one-hot of
        ``y_pred`` (Weka's reading of a classifier without probabilities).
    labels : array-like of shape (K,), optional
        The classes, in the order of ``proba``'s columns; default the sorted
        classes of ``y_true`` and ``y_pred``.
    prior : array-like of shape (n, K), optional
        The prior class distribution each instance is measured against for
        the relative errors (its training part's class frequencies, each
        count plus one); default that of ``y_true`` itself.
    title : str
        The first line (Weka: "Stratified cross-validation", "Evaluation on
        test split").

    Returns
    -------
    ClassificationReport

    Examples
    --------
    >>> report = classification_report(["a", "a", "b", "b"], ["a", "b", "b", "b"])
    >>> report.correct, report.kappa, report.confusion.tolist()
    (3, 0.5, [[1, 1], [0, 2]])
    >>> print(str(report).splitlines()[4])
    Correctly Classified Instances           3               75      %
    """
    from sklearn.metrics import cohen_kappa_score, confusion_matrix

    y_true, y_pred = np.asarray(y_true), np.asarray(y_pred)
    labels = np.unique(np.concatenate([y_true, y_pred])) if labels is None else np.asarray(labels)
    K = labels.size
    proba = _one_hot(y_pred, labels) if proba is None else np.asarray(proba, dtype=float)
    target = _one_hot(y_true, labels)
    if prior is None:
        counts = target.sum(axis=0) + 1.0
        prior = np.broadcast_to(counts / counts.sum(), target.shape)
    error = np.abs(proba - target)
    prior_error = np.abs(np.asarray(prior) - target)
    per_class = [_per_class(y_true, y_pred, proba, labels, k) for k in range(K)]
    return ClassificationReport(
        title=title, labels=list(labels),
        confusion=confusion_matrix(y_true, y_pred, labels=labels),
        kappa=float(cohen_kappa_score(y_true, y_pred, labels=labels)),
        mean_absolute_error=float(error.sum() / error.size),
        root_mean_squared_error=float(np.sqrt((error ** 2).sum() / error.size)),
        relative_absolute_error=float(100 * error.sum() / prior_error.sum()),
        root_relative_squared_error=float(100 * np.sqrt((error ** 2).sum()
                                                        / (prior_error ** 2).sum())),
        per_class=per_class, weighted=_weighted(per_class))


def regression_report(y_true, y_pred, prior=None, *, title="Evaluation on test data"):
    """Weka's summary of a regressor's predictions.

    ``prior``: the prediction each instance's errors are relative to (its
    training part's mean; default the mean of ``y_true``).

    Examples
    --------
    >>> r = regression_report([1.0, 2.0, 3.0, 4.0], [1.5, 2.0, 3.0, 3.5])
    >>> r.mean_absolute_error, r.relative_absolute_error
    (0.25, 25.0)
    """
    y_true, y_pred = np.asarray(y_true, dtype=float), np.asarray(y_pred, dtype=float)
    prior = np.full_like(y_true, y_true.mean()) if prior is None else np.asarray(prior, float)
    error, prior_error = y_pred - y_true, prior - y_true
    spread = np.std(y_true) * np.std(y_pred)
    correlation = float(np.corrcoef(y_true, y_pred)[0, 1]) if spread > 0 else 0.0
    return RegressionReport(
        title=title, n=int(y_true.size), correlation=correlation,
        mean_absolute_error=float(np.mean(np.abs(error))),
        root_mean_squared_error=float(np.sqrt(np.mean(error ** 2))),
        relative_absolute_error=float(100 * np.abs(error).sum() / np.abs(prior_error).sum()),
        root_relative_squared_error=float(100 * np.sqrt((error ** 2).sum()
                                                        / (prior_error ** 2).sum())))


#: the labels an outlier detector's predictions are read against (LIBSVM's
#: one-class convention: +1 inside the estimated support, -1 outside)
OUTLIER_LABELS = (-1, 1)


def predicts_classes(model, y=None):
    """Whether ``model``'s predictions are classes (a classifier, or an outlier
    detector such as :class:`~hyperplane.svm.OneClassSVM` predicting +1 inlier
    / -1 outlier, which svm-predict scores as a classification) rather than
    numbers. For a detector the true labels ``y`` (when given) must be +1/-1.

    Examples
    --------
    >>> from hyperplane.svm import OneClassSVM, SVR
    >>> predicts_classes(OneClassSVM(), [1, -1, 1]), predicts_classes(SVR())
    (True, False)
    """
    from sklearn.base import is_classifier, is_outlier_detector

    if is_classifier(model):
        return True
    if not is_outlier_detector(model):
        return False
    if y is not None:
        found = sorted(set(np.asarray(y).tolist()) - set(OUTLIER_LABELS), key=str)
        if found:
            raise ValueError(
                f"{type(model).__name__} predicts +1 (inlier) and -1 (outlier): the labels it "
                f"is evaluated against must be +1/-1 too; found {found[:5]}")
    return True


def cross_validate_report(model, X, y, *, folds=10, seed=1, cv="stratified"):
    """Weka's ``-x folds -s seed`` run: the report of ``model`` cross-validated on ``(X, y)``.

    The folds are scikit-learn's :class:`~sklearn.model_selection.StratifiedKFold`
    (a classifier; :class:`~sklearn.model_selection.KFold` for a regressor),
    shuffled with ``seed``; with ``cv="weka"`` they are Weka's own partition
    (:func:`weka_folds`), so a learner equal to a Weka classifier gives Weka's
    numbers exactly (its predictions are then, as in Weka's ``Evaluation``,
    the first largest class probability). Each fold's model is a fresh clone fitted on the other
    folds, and the report counts every instance once, as Weka's does.

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> from hyperplane.tree import DecisionTreeClassifier
    >>> X, y = load_iris(return_X_y=True)
    >>> report = cross_validate_report(DecisionTreeClassifier(), X, y, folds=5, seed=0)
    >>> report.n, report.confusion.shape
    (150, (3, 3))
    """
    from sklearn.base import clone
    from sklearn.model_selection import KFold, StratifiedKFold

    declared = getattr(getattr(y, "cat", None), "categories", None)
    y = np.asarray(y)
    classify = predicts_classes(model, y)
    if cv == "weka":
        splits = weka_folds(y, folds, seed, stratify=classify)
    elif cv == "stratified":
        splitter = (StratifiedKFold if classify else KFold)(n_splits=folds, shuffle=True,
                                                           random_state=seed)
        splits = splitter.split(np.zeros((y.size, 1)), y)
    else:
        raise ValueError(f"cv must be 'stratified' or 'weka'; got {cv!r}")
    labels = np.unique(y) if classify else None
    if classify and declared is not None:  # Weka counts every declared class, even an empty one
        labels = np.asarray(list(declared), dtype=y.dtype)
    predicted = np.empty(y.shape, dtype=object if classify else float)
    proba = np.zeros((y.size, labels.size)) if classify else None
    prior = np.zeros((y.size, labels.size)) if classify else np.zeros(y.size)
    for train, test in splits:
        fitted = clone(model).fit(_rows(X, train), y[train])
        predicted[test] = fitted.predict(_rows(X, test))
        if not classify:
            prior[test] = y[train].mean()
            continue
        counts = _one_hot(y[train], labels).sum(axis=0) + 1.0
        prior[test] = counts / counts.sum()
        proba[test] = class_probabilities(fitted, _rows(X, test), labels, predicted[test])
        if cv == "weka" and hasattr(fitted, "predict_proba"):
            # Weka's Evaluation predicts Utils.maxIndex(distributionForInstance): the
            # first largest probability in the declared class order
            predicted[test] = labels[np.argmax(proba[test], axis=1)]
    title = "Stratified cross-validation" if classify else "Cross-validation"
    if classify:
        return classification_report(y, predicted.astype(y.dtype), proba, labels=labels,
                                     prior=prior, title=title)
    return regression_report(y, predicted, prior, title=title)


def _rows(X, index):
    return X.iloc[index] if hasattr(X, "iloc") else X[index]


def class_probabilities(model, X, labels, predicted):
    """``model``'s class probabilities of the rows of ``X`` in ``labels`` order
    (a class the model never saw gets 0), or, for a model without them, the
    one-hot of its predictions ``predicted`` (Weka's reading)."""
    if not hasattr(model, "predict_proba"):
        return _one_hot(predicted, labels)
    try:
        p = model.predict_proba(X)
    except (AttributeError, NotImplementedError):
        return _one_hot(predicted, labels)
    out = np.zeros((p.shape[0], labels.size))
    classes = list(getattr(model, "classes_", labels))
    for j, c in enumerate(classes):
        out[:, int(np.flatnonzero(labels == c)[0])] = p[:, j]
    return out
