"""Compiled kernels take a few named tuples, not long positional lists.

A kernel with many positional arrays is easy to call with two of them
swapped (numba accepts any arrays of the right dtype); grouping them into
named tuples (rows, running sums, traces) keeps every list short. The scan
reads the source with :mod:`ast`: a function counts as compiled when one of
its decorators names a ``jit`` decorator of :mod:`hyperplane._numba`.
"""

import ast
from pathlib import Path

import pytest

import hyperplane

ROOT = Path(hyperplane.__file__).parent
MAX_PARAMETERS = 8


def decorator_name(node):
    if isinstance(node, ast.Call):
        node = node.func
    return ast.unparse(node)


def compiled_functions(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and any(
                "jit" in decorator_name(d) for d in node.decorator_list):
            yield node


def n_parameters(fn):
    a = fn.args
    return (len(a.posonlyargs) + len(a.args) + len(a.kwonlyargs)
            + (a.vararg is not None) + (a.kwarg is not None))


KERNEL_FILES = sorted(p for p in ROOT.rglob("*.py") if "__pycache__" not in p.parts)


def test_the_scan_finds_kernels():
    assert sum(1 for p in KERNEL_FILES for _ in compiled_functions(p)) > 20


@pytest.mark.parametrize("path", KERNEL_FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_compiled_function_takes_more_than_eight_parameters(path):
    too_long = {fn.name: n_parameters(fn) for fn in compiled_functions(path)
                if n_parameters(fn) > MAX_PARAMETERS}
    assert not too_long, f"{path.relative_to(ROOT)}: {too_long}"


MAX_UNNAMED = 3


def unnamed_returns(fn):
    """The sizes of the tuple literals ``fn`` returns (a named record is a call)."""
    return sorted({len(node.value.elts) for node in ast.walk(fn)
                   if isinstance(node, ast.Return) and isinstance(node.value, ast.Tuple)})


def test_the_bundle_scan_sees_a_tuple_literal():
    fn = ast.parse("@jit\ndef f(a, b, c, d):\n    return a, b, c, d\n").body[0]
    assert unnamed_returns(fn) == [4]


@pytest.mark.parametrize("path", KERNEL_FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_compiled_function_returns_an_unnamed_bundle_of_more_than_three_values(path):
    """What the parameter limit was meant to protect: results that travel by
    position. More than three values go back as a named record."""
    too_many = {fn.name: unnamed_returns(fn) for fn in compiled_functions(path)
                if any(k > MAX_UNNAMED for k in unnamed_returns(fn))}
    assert not too_many, f"{path.relative_to(ROOT)}: {too_many}"
