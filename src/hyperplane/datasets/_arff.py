"""ARFF files (Weka's Attribute-Relation File Format) as pandas frames.

Parsing is liac-arff's (the reader scikit-learn vendors for OpenML): it reads
quoted names and nominal values with spaces, commas, ``%`` and escaped quotes,
``%`` comment lines, ``?`` for missing and sparse ``{index value, ...}`` rows,
where an absent value is 0 -- for a nominal attribute its first declared value,
as Weka reads it. This module only turns its decoded rows into typed columns.
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd

# an unquoted "%" after a declaration starts a comment, as in Weka's tokenizer;
# liac-arff accepts comments on lines of their own only
_TRAILING_COMMENT = re.compile(
    r"""^((?:[^%'"]|'(?:\\.|[^'\\])*'|"(?:\\.|[^"\\])*")*?)\s*%.*$""")
_NUMERIC_TYPES = ("NUMERIC", "REAL", "INTEGER")


#: an ``@attribute`` declaration: the keyword, the name (quoted or a bare
#: token) and the rest, its type; tabs separate as spaces do (Weka's tokenizer)
_ATTRIBUTE = re.compile(
    r"""^\s*(@attribute)\s+('(?:\\.|[^'\\])*'|"(?:\\.|[^"\\])*"|[^\s'"]+)\s*(.*)$""",
    re.IGNORECASE)
#: nominal values: ``{`` … ``}``, quoted values may hold braces
_NOMINAL = re.compile(r"""^\{((?:[^{}'"]|'(?:\\.|[^'\\])*'|"(?:\\.|[^"\\])*")*)\}$""")
#: attribute types Weka has that hyperplane does not read
_UNSUPPORTED_TYPES = ("DATE", "RELATIONAL")


def _checked_attribute(line, number):
    """An ``@attribute`` line as liac-arff reads it, or a ValueError naming the
    line and the attribute: every check is one pass over the line (liac-arff's
    own pattern backtracks exponentially on an unclosed ``{``).

    ``integer`` attributes are declared ``real`` to liac-arff, which would
    truncate their values to integers and skip the nominal checks of a row
    holding ``nan`` (Weka and scipy read ``integer`` as a number).
    """
    match = _ATTRIBUTE.match(line)
    if match is None:
        raise ValueError(f"line {number}: an @attribute needs a name and a type: {line.strip()!r}")
    keyword, name, kind = match.groups()
    kind = kind.strip()
    if kind.startswith("{"):
        values = _NOMINAL.match(kind)
        if values is None:
            raise ValueError(f"line {number}: attribute {name}: the nominal values "
                             "{...} are not closed by '}' (or hold an unquoted brace)")
        if not values.group(1).strip():
            raise ValueError(f"line {number}: attribute {name} declares no nominal values ({{}})")
    else:
        word = kind.split(None, 1)[0].upper() if kind else ""
        if word in _UNSUPPORTED_TYPES:
            raise ValueError(f"line {number}: attribute {name} is of type {word.lower()}, "
                             "which hyperplane does not read (numeric, real, integer, string "
                             "and nominal attributes are read); convert or remove it")
        if word == "INTEGER":
            kind = "REAL" + kind[len(word):]
    return f"{keyword} {name} {kind}"


def _header_without_comments(lines, where=None):
    """Yield the file's lines with trailing comments cut from the header and
    its ``@attribute`` lines checked (:func:`_checked_attribute`); ``where[0]``
    is kept at the number of the line last yielded."""
    in_data = False
    where = [0] if where is None else where
    for number, line in enumerate(lines, start=1):
        where[0] = number
        if not in_data:
            stripped = line.strip()
            in_data = stripped.upper().startswith("@DATA")
            if stripped.startswith("@"):
                line = _TRAILING_COMMENT.sub(r"\1", line.rstrip("\r\n"))
                if stripped[:10].upper() == "@ATTRIBUTE":
                    line = _checked_attribute(line, number)
                elif stripped[:9].upper() == "@RELATION" and len(line.split()) < 2:
                    raise ValueError(f"line {number}: @relation needs a name")
        yield line


def _decode(path, encoding):
    """Header and rows of an ARFF file, every parse error naming the file."""
    import arff

    utf8 = encoding.lower().replace("_", "-") in ("utf-8", "utf8")
    where = [0]
    try:
        with open(path, encoding="utf-8-sig" if utf8 else encoding) as handle:
            return arff.load(_header_without_comments(handle, where))
    except UnicodeDecodeError as exc:
        raise ValueError(
            f"{path}: not readable as {encoding} ({exc.reason} at byte {exc.start}); "
            "pass the file's encoding as encoding=..., or convert it to UTF-8 "
            f"(for a GBK/GB18030 file: iconv -f GB18030 -t UTF-8 {path} > out.arff)") from None
    except arff.BadNominalValue as exc:
        raise ValueError(f"{path}: {_bad_nominal_message(path, encoding, exc)}") from None
    except arff.ArffException as exc:
        if _holds_nothing(path, encoding):
            raise ValueError(f"{path}: the file is empty (no @relation, @attribute "
                             "or @data)") from None
        raise ValueError(f"{path}: not a valid ARFF file: {_arff_message(exc)}") from None
    except ValueError as exc:
        # liac-arff raises plain ValueErrors too (an unknown escape such as
        # '\\a' in a quoted value) without the line, which is the one it read last
        message = str(exc)
        if not message.startswith("line "):
            message = f"line {where[0]}: {message}"
        raise ValueError(f"{path}: {message}") from None


def _holds_nothing(path, encoding):
    """Whether ``path`` has only blank and ``%`` comment lines."""
    utf8 = encoding.lower().replace("_", "-") in ("utf-8", "utf8")
    with open(path, encoding="utf-8-sig" if utf8 else encoding) as handle:
        return all(not line.strip() or line.lstrip().startswith("%") for line in handle)


def _bad_nominal_message(path, encoding, exc):
    """liac-arff's "value not found in nominal declaration" with the attribute
    named: the header is decoded again and the offending row split as
    liac-arff splits it; its own message when that fails."""
    import arff

    utf8 = encoding.lower().replace("_", "-") in ("utf-8", "utf8")
    try:
        with open(path, encoding="utf-8-sig" if utf8 else encoding) as handle:
            lines = handle.read().split("\n")
        start = next(i for i, line in enumerate(lines) if line.strip().upper().startswith("@DATA"))
        attributes = arff.loads("\n".join(_header_without_comments(lines[:start + 1])))[
            "attributes"]
        values = arff._parse_values(lines[exc.line - 1].strip())
        cells = values.items() if isinstance(values, dict) else enumerate(values)
        for j, value in cells:
            name, kind = attributes[j]
            if isinstance(kind, list) and value is not None and value not in kind:
                return (f"not a valid ARFF file: line {exc.line}, attribute {name}: "
                        f"{value!r} is not one of its declared values {kind}")
    except (ValueError, IndexError, KeyError, StopIteration, TypeError, OSError,
            arff.ArffException):  # the row did not split: liac-arff's message is all there is
        pass
    return f"not a valid ARFF file: {_arff_message(exc)}"


def _arff_message(exc):
    """liac-arff's message for ``exc``: its ``str`` formats the message with
    ``%``, which fails when the quoted row itself holds a ``%``."""
    try:
        return str(exc)
    except (TypeError, ValueError):
        return str(exc.message).replace("%d", str(exc.line), 1)


def _typed_column(values, kind, name):
    """One attribute's decoded values (``None`` = missing) as a typed Series."""
    if isinstance(kind, list):
        repeated = pd.Index(kind)[pd.Index(kind).duplicated()]
        if len(repeated):
            raise ValueError(f"attribute {name!r} declares the nominal value "
                             f"{repeated[0]!r} twice (Weka refuses duplicate labels)")
        return pd.Series(pd.Categorical(values, categories=kind), name=name)
    if kind.upper() in _NUMERIC_TYPES:
        return pd.Series(np.array([np.nan if v is None else v for v in values],
                                  dtype=np.float64), name=name)
    if kind.upper() == "STRING":
        return pd.Series([np.nan if v is None else str(v) for v in values],
                         dtype=object, name=name)
    raise ValueError(f"attribute {name!r}: type {kind!r} is not supported")


def load_arff(path, target=None, *, encoding="utf-8"):
    """Read an ARFF file into a feature frame and a target series.

    Parameters
    ----------
    path : str or path-like
        The ``.arff`` file (dense or sparse rows).
    target : str, optional
        Name of the target attribute; default the last attribute, Weka's
        default class.
    encoding : str, default "utf-8"
        Text encoding of the file (Weka writes UTF-8; a byte-order mark is
        skipped).

    Returns
    -------
    X : pandas.DataFrame
        The other attributes in file order: a nominal attribute as a pandas
        ``Categorical`` whose categories are its declared values in declared
        order, numeric (``numeric``/``real``/``integer``) as float64, ``string``
        as ``str`` cells; a missing value ``?`` is ``NaN``.
    y : pandas.Series
        The target, typed the same way (a nominal class keeps its declared
        order; a row with a missing class has ``NaN``).

    Raises
    ------
    ValueError
        If the file is not valid ARFF or not in ``encoding`` (the message
        names the file and line), uses an unsupported attribute type
        (``date``, ``relational``), or has no attribute named ``target``.

    Examples
    --------
    >>> import tempfile, os
    >>> text = '''@relation weather
    ... @attribute outlook {sunny, overcast, 'light rain'}
    ... @attribute temperature numeric
    ... @attribute play {yes, no}
    ... @data
    ... sunny, 85, no
    ... 'light rain', ?, yes
    ... '''
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = os.path.join(folder, "weather.arff")
    ...     with open(path, "w", encoding="utf-8") as handle:
    ...         _ = handle.write(text)
    ...     X, y = load_arff(path)
    >>> list(X["outlook"].cat.categories)
    ['sunny', 'overcast', 'light rain']
    >>> X["temperature"].tolist(), y.tolist()
    ([85.0, nan], ['no', 'yes'])
    """
    decoded = _decode(path, encoding)
    try:
        columns = {name: _typed_column([row[j] for row in decoded["data"]], kind, name)
                   for j, (name, kind) in enumerate(decoded["attributes"])}
    except ValueError as exc:
        raise ValueError(f"{path}: {exc}") from None
    names = [name for name, _ in decoded["attributes"]]
    target = names[-1] if target is None else target
    if target not in names:
        raise ValueError(f"target={target!r} is not an attribute of {path}; "
                         f"attributes: {names}")
    y = columns.pop(target)
    X = pd.DataFrame(columns)
    return X, y
