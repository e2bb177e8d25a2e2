"""``--param key=value``: typed values, checked against the estimator's parameters."""

from __future__ import annotations

import ast

from ._models import UserError, one_line

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


def parameter_item(item, valid, *, bad, unknown):
    """``"name=text"`` -> ``(name, text)``, ``name`` one of ``valid`` (an
    estimator's parameters); else a UserError: ``bad`` is prefixed to the
    item when it has no ``=`` or no name, ``unknown`` to the unknown name's
    message listing ``valid``."""
    name, sep, text = item.partition("=")
    name = name.strip()
    if not sep or not name:
        raise UserError(bad.format(item=repr(item)))
    if name not in valid:
        names = ", ".join(sorted(k for k in valid if "__" not in k))
        raise UserError(unknown.format(name=repr(name), names=names))
    return name, text


def parse_params(items, estimator, model_name):
    """``["k=v", ...]`` -> dict, each key a parameter of ``estimator``."""
    valid = estimator.get_params(deep=True)
    params = {}
    for item in items or ():
        key, text = parameter_item(
            item, valid, bad="bad --param {item}: expected KEY=VALUE, e.g. eta=0.5",
            unknown=f"unknown parameter {{name}} for model {model_name!r}; "
                    "its parameters are: {names}")
        params[key] = parse_value(text)
    return params


def configured_estimator(model, items):
    """``(estimator, params)``: a new estimator of the CLI model name ``model``
    with the ``-p KEY=VALUE`` items ``items`` set (what ``fit``, ``evaluate``
    and ``grid`` start from); a bad name or value is a UserError naming the model."""
    from ._models import resolve_model

    estimator = resolve_model(model)()
    params = parse_params(items, estimator, model)
    try:
        estimator.set_params(**params)
    except ValueError as exc:
        raise UserError(f"bad parameter for {model!r}: {one_line(exc)}") from None
    return estimator, params
