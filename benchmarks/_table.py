"""Rows of the result tables the benchmark scripts print (markdown, or
``label: value`` fields joined by ``|``), so that each script states only
its columns."""

from __future__ import annotations


def row(*cells, edges=True):
    """The cells joined by ``" | "``, between ``"| "`` and ``" |"`` when ``edges``."""
    line = " | ".join(str(c) for c in cells)
    return f"| {line} |" if edges else line


def header(columns, align):
    """A markdown header row of ``columns`` and its rule line; ``align[i]`` is
    ``"-"`` (left) or ``"-:"`` (right) for column i."""
    return row(*columns) + "\n" + "|" + "|".join(f"--{a}" for a in align) + "|"


def joined(values, keys, spec):
    """One cell of several figures: ``values[k]`` for ``k`` in ``keys``,
    formatted by ``spec`` and joined by ``" / "``."""
    return " / ".join(format(values[k], spec) for k in keys)


def shape(X):
    """``"n x d (nonzeros per row)"`` of a sparse matrix."""
    return f"{X.shape[0]}x{X.shape[1]} ({X.nnz / X.shape[0]:.0f})"


def labelled(fields):
    """``"label: value"`` of each item of the dict ``fields``, in order."""
    return [f"{label}: {value}" for label, value in fields.items()]


def md5_table(label, sources, digests):
    """The md5 comparison the ``*_bits`` scripts print: one row per case of
    ``digests[0]`` (a dict per source, case -> md5), each source's first 12
    hex digits and "yes" when every source has the same digest, else "NO"."""
    lines = [f"| {label} | " + " | ".join(sources) + " | same |",
             "|---|" + "---|" * len(sources) + "---|"]
    for case in digests[0]:
        values = [d.get(case, "-") for d in digests]
        lines.append(f"| {case} | " + " | ".join(v[:12] for v in values)
                     + f" | {'yes' if len(set(values)) == 1 else 'NO'} |")
    return "\n".join(lines)
