"""The fields of a playground request, read with the checks that name them.

A request carries numbers, names and CSV text from a web page (or from any
program that can reach the port). Every field is read here: a value of the
wrong kind or out of its range is a :class:`FieldError`, which the server
answers with HTTP 400 and ``{"error": ..., "field": ...}``, so the page can
say which control is wrong, instead of a Python message such as
``invalid literal for int() with base 10: '1e5'``.
"""

from __future__ import annotations

import math


class FieldError(ValueError):
    """A request field of the wrong kind or out of range; ``field`` names it,
    ``code`` and ``args`` let the page say it in its own language."""

    def __init__(self, field, message, code=None, **args):
        super().__init__(f"{field}: {message}")
        self.field, self.code, self.args_ = field, code, args


def _float_field(params, name, default):
    """``params[name]`` (or ``default``) as a float, or a :class:`FieldError` naming it."""
    value = params.get(name, default)
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        raise FieldError(name, f"must be a number; got {value!r}", "number", got=repr(value))
    try:
        return float(value)
    except ValueError:
        raise FieldError(name, f"must be a number; got {value!r}", "number",
                         got=repr(value)) from None


def real(params, name, default, *, low=None, high=None, above=None):
    """``params[name]`` (or ``default``) as a finite float in ``[low, high]``
    (``above``: strictly greater than it).

    Examples
    --------
    >>> real({"eta": "0.5"}, "eta", 1.0, above=0)
    0.5
    >>> real({"eta": "abc"}, "eta", 1.0, above=0)
    Traceback (most recent call last):
    ...
    hyperplane.playground._fields.FieldError: eta: must be a number; got 'abc'
    """
    x = _float_field(params, name, default)
    if not math.isfinite(x):
        raise FieldError(name, f"must be finite; got {x}", "finite", got=str(x))
    if above is not None and not x > above:
        raise FieldError(name, f"must be > {above}; got {x}", "above", low=str(above), got=str(x))
    if (low is not None and x < low) or (high is not None and x > high):
        raise FieldError(name, f"must be in [{low}, {high}]; got {x}", "range",
                         low=str(low), high=str(high), got=str(x))
    return x


def integer(params, name, default, *, low, high):
    """``params[name]`` (or ``default``) as an integer in ``[low, high]``; a
    whole number written as ``"1e3"`` or ``3.0`` counts.

    Examples
    --------
    >>> integer({"max_epochs": "1e3"}, "max_epochs", 10, low=1, high=100_000)
    1000
    >>> integer({"max_epochs": 2.5}, "max_epochs", 10, low=1, high=100_000)
    Traceback (most recent call last):
    ...
    hyperplane.playground._fields.FieldError: max_epochs: must be a whole number; got 2.5
    """
    x = _float_field(params, name, default)
    if not math.isfinite(x) or x != math.floor(x):
        raise FieldError(name, f"must be a whole number; got {params.get(name, default)!r}",
                         "whole", got=repr(params.get(name, default)))
    if not low <= x <= high:
        raise FieldError(name, f"must be in {low}..{high}; got {int(x)}", "range",
                         low=str(low), high=str(high), got=str(int(x)))
    return int(x)


def choice(params, name, default, options):
    """``params[name]`` (or ``default``), which must be one of ``options``.

    Examples
    --------
    >>> choice({}, "kernel", "linear", ("linear", "rbf"))
    'linear'
    """
    value = params.get(name, default)
    if value not in options:
        raise FieldError(name, f"must be one of {list(options)}; got {value!r}", "one_of",
                         options=", ".join(map(str, options)), got=repr(value))
    return value
