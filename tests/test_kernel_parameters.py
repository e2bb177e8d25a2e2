"""Compiled kernels take a few named tuples, not long positional lists.

A kernel with many positional arrays is easy to call with two of them
swapped (numba accepts any arrays of the right dtype); grouping them into
named tuples (rows, running sums, traces) keeps every list short. The scan
reads the source with :mod:`ast`: a function counts as compiled when one of
its decorators names a ``jit`` decorator of :mod:`hyperplane._numba` (for the
argument checks also when a ``by_layout`` / ``by_none`` / ``by_first_type`` /
``by_samples`` dispatcher chooses it). Results of more than three values come
back as named records, and arguments travel by name: no compiled function
unpacks a parameter by position, and no call hands one a tuple literal.
"""

import ast
from functools import cache
from pathlib import Path

import pytest

import hyperplane

ROOT = Path(hyperplane.__file__).parent
MAX_PARAMETERS = 8


def decorator_name(node):
    if isinstance(node, ast.Call):
        node = node.func
    return ast.unparse(node)


@cache
def parsed(path):
    """The syntax tree of a source file, parsed once per test run, when a test
    first asks (collection only lists the files)."""
    return ast.parse(path.read_text(encoding="utf-8"))


def compiled_functions(path):
    for node in ast.walk(parsed(path)):
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


# ---------------------------------------------------------------------------
# Arguments: no anonymous bundles in.
#
# A compiled function that unpacks a parameter by position (``y, weight =
# targets``) takes an unnamed record: its callers build it by position too, and
# swapping two arrays of one dtype type-checks. Likewise a call that hands a
# compiled function a tuple literal of values (``f((keep, r_keep))``). State
# travels as a NamedTuple whose fields the callee reads by name.

DISPATCHERS = {"by_layout", "by_none", "by_first_type", "by_samples"}


def module_name(path):
    parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def called_name(call):
    f = call.func
    if isinstance(f, ast.Attribute):
        return f.attr
    return f.id if isinstance(f, ast.Name) else None


class Package:
    """The compiled functions of every module and what each module's names
    refer to (its own functions, imported functions and imported modules)."""

    def __init__(self, paths):
        self.trees = {module_name(p): parsed(p) for p in paths}
        self.compiled = {m: self._compiled(t) for m, t in self.trees.items()}
        self.callable = {m: set(self.compiled[m]) | self._dispatchers(t)
                         for m, t in self.trees.items()}
        self.imports = {m: self._imports(m, t) for m, t in self.trees.items()}

    @staticmethod
    def _compiled(tree):
        """Functions decorated with a ``jit`` decorator or chosen by a
        ``by_layout`` / ``by_none`` / ``by_first_type`` / ``by_samples`` call."""
        defs = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}
        found = {k: fn for k, fn in defs.items()
                 if any("jit" in decorator_name(d) for d in fn.decorator_list)}
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and called_name(node) in DISPATCHERS:
                for arg in node.args:
                    found.update((n.id, defs[n.id]) for n in ast.walk(arg)
                                 if isinstance(n, ast.Name) and n.id in defs)
        return found

    @staticmethod
    def _dispatchers(tree):
        """Module-level names bound to a dispatcher (``row_dot = by_layout(...)``)."""
        return {target.id for node in tree.body
                if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call)
                and called_name(node.value) in DISPATCHERS
                for target in node.targets if isinstance(target, ast.Name)}

    def _imports(self, module, tree):
        """``{local name: (module, name or None for a module)}``."""
        package = module if is_package(module) else module.rpartition(".")[0]
        names = {}
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                base = package
                for _ in range(max(node.level - 1, 0)):
                    base = base.rpartition(".")[0]
                source = node.module
                if node.level:
                    source = f"{base}.{node.module}" if node.module else base
                for alias in node.names:
                    full = f"{source}.{alias.name}"
                    names[alias.asname or alias.name] = ((full, None) if full in self.trees
                                                         else (source, alias.name))
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.asname:
                        names[alias.asname] = (alias.name, None)
        return names

    def is_compiled(self, module, name, depth=0):
        """Whether ``name`` in ``module`` is a compiled function (following imports)."""
        if name in self.callable.get(module, ()):
            return True
        source = self.imports.get(module, {}).get(name)
        if source is None or source[1] is None or depth > 4:
            return False
        return self.is_compiled(source[0], source[1], depth + 1)

    def callee_is_compiled(self, module, call):
        f = call.func
        if isinstance(f, ast.Name):
            return self.is_compiled(module, f.id)
        if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name):
            source = self.imports[module].get(f.value.id)
            return source is not None and source[1] is None and self.is_compiled(source[0], f.attr)
        return False


def is_package(module):
    """Whether the dotted ``module`` is a package (its relative imports start there)."""
    return (ROOT.parent / module.replace(".", "/") / "__init__.py").exists()


@cache
def package():
    """The :class:`Package` of every source file, built by the first test that
    needs it."""
    return Package(KERNEL_FILES)


def unpacked_parameters(fn):
    """The parameters ``fn`` unpacks by position (``a, b = param``)."""
    params = {a.arg for a in fn.args.posonlyargs + fn.args.args + fn.args.kwonlyargs}
    return sorted({node.value.id for node in ast.walk(fn)
                   if isinstance(node, ast.Assign) and isinstance(node.value, ast.Name)
                   and node.value.id in params
                   and any(isinstance(t, (ast.Tuple, ast.List)) for t in node.targets)})


def is_anonymous_bundle(node):
    """A tuple literal of two or more values that are not all constants (a
    constant tuple is a shape or a choice, not state)."""
    return (isinstance(node, ast.Tuple) and len(node.elts) >= 2
            and not all(isinstance(e, ast.Constant) for e in node.elts))


def bundles_passed(module, tree):
    """The compiled functions that calls in ``tree`` hand a tuple literal."""
    return {called_name(node) for node in ast.walk(tree)
            if isinstance(node, ast.Call) and package().callee_is_compiled(module, node)
            and any(is_anonymous_bundle(a) for a in node.args + [k.value for k in node.keywords])}


def test_the_argument_scan_sees_unpacking_and_tuple_literals():
    source = ("from hyperplane._numba import jit\n"
              "@jit\ndef f(x, pair):\n    a, b = pair\n    return a\n"
              "def g(u, v):\n    return f(u, (u, v)) + f(u, (0, 1))\n")
    tree = ast.parse(source)
    assert unpacked_parameters(tree.body[1]) == ["pair"]
    scan = Package.__new__(Package)
    scan.trees = {"m": tree}
    scan.compiled = {"m": Package._compiled(tree)}
    scan.callable = {"m": set(scan.compiled["m"])}
    scan.imports = {"m": {}}
    calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call) and called_name(n) == "f"]
    assert all(scan.callee_is_compiled("m", c) for c in calls)
    assert [is_anonymous_bundle(c.args[1]) for c in sorted(calls, key=lambda c: c.col_offset)] == [
        True, False]


def test_the_argument_scan_resolves_imported_kernels():
    assert package().is_compiled("hyperplane.linear._perceptron_kernels", "row_dot_fast")
    assert package().is_compiled("hyperplane._row_kernels", "dense_row_dot")
    assert not package().is_compiled("hyperplane.linear._perceptron", "Perceptron")


def offenders(path):
    module = module_name(path)
    found = {f"{fn.name} unpacks {p}" for fn in package().compiled[module].values()
             for p in unpacked_parameters(fn)}
    found |= {f"passes a tuple to {c}" for c in bundles_passed(module, package().trees[module])}
    return found


@pytest.mark.parametrize("path", KERNEL_FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_compiled_function_takes_an_unnamed_bundle(path):
    """No compiled function unpacks a parameter by position, and no call hands
    one a tuple literal: arguments that travel together are a named record."""
    name = str(path.relative_to(ROOT))
    found = {f"{name}: {o}" for o in offenders(path)}
    assert not found, sorted(found)
