"""The models the command line knows: CLI name -> ``module:Class``.

Each family adds one line when it lands. Classes are imported only when a
command uses them, so a family that is not installed makes only its own
names unavailable, with a clear message.
"""

from __future__ import annotations

import importlib
import importlib.util

#: CLI model name -> "module:Class"
MODELS = {
    "perceptron": "hyperplane.linear:Perceptron",
    "dual-perceptron": "hyperplane.linear:DualPerceptron",
    "least-squares": "hyperplane.linear:LeastSquaresClassifier",
    "fisher": "hyperplane.linear:FisherDiscriminant",
    "logistic": "hyperplane.linear:LogisticRegression",
    "adaline": "hyperplane.linear:Adaline",
    "tree": "hyperplane.tree:DecisionTreeClassifier",
    "tree-regressor": "hyperplane.tree:DecisionTreeRegressor",
    "oblique-tree": "hyperplane.tree:ObliqueTreeClassifier",
    "svc": "hyperplane.svm:SVC",
    "linear-svc": "hyperplane.svm:LinearSVC",
    "svr": "hyperplane.svm:SVR",
    "linear-svr": "hyperplane.svm:LinearSVR",
    "nusvc": "hyperplane.svm:NuSVC",
    "nusvr": "hyperplane.svm:NuSVR",
    "one-class-svm": "hyperplane.svm:OneClassSVM",
    "mlp": "hyperplane.neural:MLPClassifier",
    "mlp-regressor": "hyperplane.neural:MLPRegressor",
}

#: shipped datasets a DATA argument may name: CLI name -> (loader in hyperplane.datasets, args)
SHIPPED_DATASETS = {
    "watermelon-2.0": ("load_watermelon", "2.0"),
    "watermelon-2.0alpha": ("load_watermelon", "2.0alpha"),
    "watermelon-3.0": ("load_watermelon", "3.0"),
    "watermelon-3.0alpha": ("load_watermelon", "3.0alpha"),
    "loan": ("load_loan",),
    "heart_scale": ("load_heart_scale",),
}

#: what a DATA argument may be
SHIPPED_HELP = ("a CSV (UTF-8), ARFF or LIBSVM file, or a shipped dataset: "
                + ", ".join(SHIPPED_DATASETS))


class UserError(Exception):
    """A mistake in what the user asked for; printed as one line, no traceback."""


def one_line(exc):
    """The message of ``exc`` on one line (its class name when it has none),
    as the command line prints it after ``error:``.

    Examples
    --------
    >>> one_line(ValueError("Found array with 0 sample(s)\\n   while a minimum is 1"))
    'Found array with 0 sample(s) while a minimum is 1'
    >>> one_line(RuntimeError())
    'RuntimeError'
    """
    return " ".join(str(exc).split()) or type(exc).__name__


def _import(target):
    module_name, _, class_name = target.partition(":")
    module = importlib.import_module(module_name)
    return getattr(module, class_name)


def resolve_model(name):
    """The estimator class for a CLI model name (or an explicit ``module:Class``).

    Raises
    ------
    UserError
        Unknown name, or a model whose family is not installed.
    """
    if name in MODELS:
        target = MODELS[name]
    elif ":" in name:  # any scikit-learn compatible estimator, e.g. sklearn.svm:SVC
        target = name
    else:
        raise UserError(f"unknown model {name!r}; choose from {', '.join(MODELS)} "
                        "(or give module:Class)")
    try:
        cls = _import(target)
    except (ImportError, AttributeError) as exc:
        raise UserError(f"model {name!r} is unavailable: {target} cannot be imported "
                        f"({exc})") from None
    if not (isinstance(cls, type) and hasattr(cls, "fit") and hasattr(cls, "get_params")):
        raise UserError(f"model {name!r}: {target} is not a scikit-learn estimator")
    return cls


def availability():
    """``{name: (target, available)}`` for every registered model.

    A model is available when its module can be found; nothing is imported,
    so listing the models does not pay for scikit-learn's and numba's imports
    (``resolve_model`` still names a module that is found but fails to load).
    """
    status = {}
    for name, target in MODELS.items():
        module_name = target.partition(":")[0]
        try:
            found = importlib.util.find_spec(module_name) is not None
        except ModuleNotFoundError:  # a missing parent package
            found = False
        status[name] = (target, found)
    return status
