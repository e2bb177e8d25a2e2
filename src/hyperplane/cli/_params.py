"""``--param key=value``: typed values, checked against the estimator's parameters."""

from __future__ import annotations

import ast

from ._models import UserError

#: words a shell user types for Python constants (case-insensitive)
_WORDS = {"true": True, "false": False, "none": None, "null": None,
          "inf": float("inf"), "+inf": float("inf"), "-inf": float("-inf"),
          "nan": float("nan")}


def parse_value(text):
    """Turn the text of a parameter into int, float, bool, None, tuple/list,
    dict (e.g. ``class_weight={1: 5}``, LIBSVM's ``-w1 5``) or str.

    Examples
    --------
    >>> [parse_value(t) for t in ["3", "0.5", "1e-3", "True", "none", "(10, 5)", "rbf"]]
    [3, 0.5, 0.001, True, None, (10, 5), 'rbf']
    >>> parse_value("{1: 5, -1: 0.5}")
    {1: 5, -1: 0.5}
    """
    stripped = text.strip()
    if stripped.lower() in _WORDS:
        return _WORDS[stripped.lower()]
    try:
        value = ast.literal_eval(stripped)  # literals only: never runs code
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return stripped
    if isinstance(value, (bool, int, float, str, tuple, list, dict, type(None))):
        return value
    return stripped


def parse_params(items, estimator, model_name):
    """``["k=v", ...]`` -> dict, each key a parameter of ``estimator``."""
    valid = estimator.get_params(deep=True)
    params = {}
    for item in items or ():
        key, sep, text = item.partition("=")
        key = key.strip()
        if not sep or not key:
            raise UserError(f"bad --param {item!r}: expected KEY=VALUE, e.g. eta=0.5")
        if key not in valid:
            names = ", ".join(sorted(k for k in valid if "__" not in k))
            raise UserError(f"unknown parameter {key!r} for model {model_name!r}; "
                            f"its parameters are: {names}")
        params[key] = parse_value(text)
    return params
