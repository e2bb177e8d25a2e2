"""Hyper-parameters: number and option checks, and the declared rules every
estimator lists in ``_parameter_rules`` and ``fit`` applies first
(:func:`validate_params`).

The rules are a small declarative table of our own rather than
scikit-learn's ``_parameter_constraints``: that machinery lives in a private
module (``sklearn.utils._param_validation``), accepts ``True`` as the number 1
and ``inf`` inside an unbounded interval, and its messages differ from the
ones this package documents; these rules reuse :func:`check_number` and
:func:`check_option`, so every message names the parameter as before.
"""

from __future__ import annotations

import functools
import numbers

import numpy as np


# --------------------------------------------------------------------------
# hyper-parameters
# --------------------------------------------------------------------------
def check_number(value, name, *, low=None, high=None, low_open=False,
                 high_open=False, integer=False, allow_inf=False):
    """Check that hyper-parameter ``name`` is a number inside an interval.

    Parameters
    ----------
    value : object
        The value given by the user.
    name : str
        The parameter's name, used in the error message.
    low, high : float or None
        Bounds of the interval (``None``: unbounded).
    low_open, high_open : bool
        Whether a bound itself is excluded.
    integer : bool
        Require an integral number (bool is never accepted).
    allow_inf : bool
        Accept ``numpy.inf`` (used for ``C=inf``, the hard margin).

    Returns
    -------
    number
        ``value`` unchanged.

    Examples
    --------
    >>> check_number(0.5, "eta", low=0, low_open=True)
    0.5
    """
    kind = numbers.Integral if integer else numbers.Real
    if isinstance(value, bool) or not isinstance(value, kind):
        what = "an integer" if integer else "a real number"
        raise TypeError(f"{name} must be {what}; got {value!r} of type "
                        f"{type(value).__name__}")
    if np.isnan(value) or (np.isinf(value) and not allow_inf):
        raise ValueError(f"{name} must be finite; got {value!r}")
    too_low = low is not None and (value < low or (low_open and value == low))
    too_high = high is not None and (value > high or (high_open and value == high))
    if too_low or too_high:
        left = "(" if low_open else "["
        right = ")" if high_open else "]"
        lo = "-inf" if low is None else low
        hi = "inf" if high is None else high
        raise ValueError(f"{name} must be in {left}{lo}, {hi}{right}; got {value!r}")
    return value


def check_option(value, name, options):
    """Check that ``value`` is one of ``options`` (a registry's keys).

    Examples
    --------
    >>> check_option("pocket", "variant", ("standard", "pocket", "averaged"))
    'pocket'
    """
    if not isinstance(value, str) or value not in options:
        raise ValueError(f"{name} must be one of {sorted(options)}; got {value!r}")
    return value


# --------------------------------------------------------------------------
# declared parameters: one rule per constructor parameter
# --------------------------------------------------------------------------
# Every estimator declares, next to its ``__init__``, a class attribute
# ``_parameter_rules = {name: rule}`` with one rule per constructor parameter;
# ``fit`` calls :func:`validate_params` first, before it reads any data (in
# memory or on Dask). The rules reuse :func:`check_number` and
# :func:`check_option` so that every message names the parameter.
class Rule:
    """A declared rule for one hyper-parameter (subclasses say which values)."""

    #: words for the accepted values, used when no alternative of :class:`Either` fits
    description = "a valid value"

    def claims(self, value):
        """Whether ``value`` has the type this rule is about (used by :class:`Either`)."""
        return True

    def check(self, value, name):
        """Raise ``TypeError``/``ValueError`` naming ``name`` unless ``value`` is allowed."""
        raise NotImplementedError

    def __repr__(self):
        return f"{type(self).__name__}({self.description})"


class Real(Rule):
    """A real number in an interval (:func:`check_number`'s arguments); bool is refused."""

    integer = False

    def __init__(self, low=None, high=None, *, low_open=False, high_open=False,
                 allow_inf=False):
        self.bounds = dict(low=low, high=high, low_open=low_open, high_open=high_open,
                           allow_inf=allow_inf)
        self.description = "an integer" if self.integer else "a real number"

    def claims(self, value):
        kind = numbers.Integral if self.integer else numbers.Real
        return isinstance(value, kind) and not isinstance(value, bool)

    def check(self, value, name):
        check_number(value, name, integer=self.integer, **self.bounds)


class Integer(Real):
    """An integer in an interval (numpy integers included; bool and 2.0 refused)."""

    integer = True


class Options(Rule):
    """One of a fixed set of strings (a registry's keys)."""

    def __init__(self, options):
        self.options = tuple(options)
        self.description = f"one of {sorted(self.options)}"

    def claims(self, value):
        return isinstance(value, str)

    def check(self, value, name):
        check_option(value, name, self.options)


class Boolean(Rule):
    """``True`` or ``False`` (``numpy.bool_`` too; 0/1 and strings are refused)."""

    description = "True or False"

    def claims(self, value):
        return isinstance(value, (bool, np.bool_))

    def check(self, value, name):
        if not self.claims(value):
            raise TypeError(f"{name} must be True or False; got {value!r} of type "
                            f"{type(value).__name__}")


class Constant(Rule):
    """Exactly one value, e.g. ``None`` for "not set"."""

    def __init__(self, value):
        self.value = value
        self.description = repr(value)

    def claims(self, value):
        return value is self.value

    def check(self, value, name):
        if value is not self.value:
            raise ValueError(f"{name} must be {self.value!r}; got {value!r}")


class Instance(Rule):
    """An instance of one of ``types``."""

    def __init__(self, *types, description=None):
        self.types = types
        self.description = description or " or ".join(t.__name__ for t in types)

    def claims(self, value):
        return isinstance(value, self.types)

    def check(self, value, name):
        if not self.claims(value):
            raise TypeError(f"{name} must be {self.description}; got {value!r}")


class RandomState(Rule):
    """What :func:`sklearn.utils.check_random_state` accepts: ``None``, an int
    in ``[0, 2**32 - 1]`` (numpy integers too) or a ``numpy.random.RandomState``."""

    description = "None, an int in [0, 2**32 - 1] or a numpy.random.RandomState"

    def check(self, value, name):
        if value is None or isinstance(value, np.random.RandomState):
            return
        if isinstance(value, numbers.Integral) and not isinstance(value, bool):
            check_number(value, name, low=0, high=2**32 - 1, integer=True)
            return
        # a ValueError, as scikit-learn's check_random_state raises
        raise ValueError(f"{name} must be {self.description}; got {value!r} of type "
                         f"{type(value).__name__}")


class Sizes(Rule):
    """A positive integer or a sequence of them (e.g. layer sizes)."""

    description = "a positive integer or a tuple of positive integers"

    def check(self, value, name):
        sizes = (value,) if isinstance(value, numbers.Integral) else value
        if isinstance(value, (str, bytes)) or not hasattr(sizes, "__iter__"):
            raise TypeError(f"{name} must be {self.description}; got {value!r}")
        for size in sizes:
            check_number(size, f"{name} entries", low=1, integer=True)


class NJobs(Rule):
    """scikit-learn's ``n_jobs``: ``None`` (the default thread count), ``-1``
    (every core), ``k >= 1`` threads, or ``k <= -2`` (all cores but ``-k - 1``);
    ``0`` is refused."""

    description = "None or a nonzero integer (-1: all cores)"

    def check(self, value, name):
        if value is None:
            return
        if not isinstance(value, numbers.Integral) or isinstance(value, bool):
            raise TypeError(f"{name} must be {self.description}; got {value!r} of type "
                            f"{type(value).__name__}")
        if value == 0:
            raise ValueError(f"{name} must be {self.description}; got 0 (use 1 for one "
                             "thread)")


class Either(Rule):
    """The first alternative whose type ``claims`` the value decides; if none
    does, the last one reports (e.g. ``Either(NONE, POSITIVE_INT)`` says
    "must be an integer")."""

    def __init__(self, *rules):
        self.rules = rules
        self.description = " or ".join(r.description for r in rules)

    def claims(self, value):
        return any(r.claims(value) for r in self.rules)

    def check(self, value, name):
        for rule in self.rules:
            if rule.claims(value):
                rule.check(value, name)
                return
        self.rules[-1].check(value, name)


def validate_params(estimator):
    """Check every constructor parameter of ``estimator`` against its
    class's ``_parameter_rules``, before any data is read.

    Raises
    ------
    TypeError, ValueError
        Naming the parameter; a parameter with no declared rule is a
        ``TypeError`` too (every parameter must be declared).

    Examples
    --------
    >>> from hyperplane.linear import Perceptron
    >>> validate_params(Perceptron(shuffle=1))
    Traceback (most recent call last):
    ...
    TypeError: shuffle must be True or False; got 1 of type int
    """
    rules = type(estimator)._parameter_rules
    for name in parameter_names(type(estimator)):
        if name not in rules:
            raise TypeError(f"{type(estimator).__name__} declares no rule for its "
                            f"parameter {name!r} in _parameter_rules")
        rules[name].check(getattr(estimator, name), name)
    return estimator


def keep_parameters(estimator, parameters):
    """Store an estimator's constructor arguments unchanged as attributes of
    the same names (scikit-learn's convention: ``__init__`` only records,
    ``fit`` validates); ``parameters`` is the constructor's ``locals()``.

    Examples
    --------
    >>> class Model:
    ...     def __init__(self, *, C=1.0, tol=1e-4):
    ...         keep_parameters(self, locals())
    >>> vars(Model(C=2.0))
    {'C': 2.0, 'tol': 0.0001}
    """
    for name, value in parameters.items():
        if name not in ("self", "__class__"):
            setattr(estimator, name, value)


@functools.lru_cache(maxsize=None)
def parameter_names(cls):
    """The constructor parameters of an estimator class, as
    ``get_params(deep=False)`` lists them (scikit-learn reads them from the
    signature on every call, a fixed cost of every fit; a class's signature
    does not change)."""
    return tuple(cls._get_param_names())


#: the rules most estimators share
POSITIVE = Real(low=0, low_open=True)
NON_NEGATIVE = Real(low=0)
POSITIVE_INT = Integer(low=1)
SEED = RandomState()
FLAG = Boolean()
NONE = Constant(None)
VERBOSE = Either(Boolean(), Integer(low=0))
N_JOBS = NJobs()


__all__ = [
    "check_number", "check_option", "validate_params", "Rule", "Real", "Integer", "Options",
    "Boolean", "Constant", "Instance", "RandomState", "Sizes", "Either", "POSITIVE",
    "NON_NEGATIVE", "POSITIVE_INT", "SEED", "FLAG", "NONE", "VERBOSE", "NJobs", "N_JOBS",
]
