"""No import cycles in hyperplane's own modules.

The graph has an edge A → B when module A imports module B (``import``,
``from B import name`` and ``from package import submodule``), read from the
source with :mod:`ast`, so nothing is executed. Imports inside functions
(lazy imports) count as edges too: a lazy import of a module that imports
you back is the same cycle, only deferred to the first call. Imports under
``if TYPE_CHECKING:`` count as well. The parent package a module lives in is
not an edge (Python imports it first by itself).
"""

import ast
import graphlib
from pathlib import Path

import pytest

import hyperplane

ROOT = Path(hyperplane.__file__).parent


def module_name(path):
    parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def module_files():
    return {module_name(p): p for p in sorted(ROOT.rglob("*.py"))}


def resolve(importer, is_package, node):
    """The absolute module named by a relative or absolute ``from`` import."""
    if node.level == 0:
        return node.module
    base = importer.split(".")
    if not is_package:
        base = base[:-1]
    base = base[:len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def imported_modules(name, path, known):
    """The hyperplane modules that module ``name`` imports, anywhere in its body."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    is_package = path.name == "__init__.py"
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            target = resolve(name, is_package, node)
            found.add(target)
            found.update(f"{target}.{alias.name}" for alias in node.names)
    ancestors = {name.rsplit(".", k)[0] for k in range(1, name.count(".") + 1)}
    return {m for m in found if m in known and m != name and m not in ancestors}


def import_graph():
    files = module_files()
    return {name: imported_modules(name, path, files) for name, path in files.items()}


def test_the_graph_sees_the_imports_it_should():
    """The parser under test: known edges, module-level and lazy, are found."""
    graph = import_graph()
    assert len(graph) > 60
    assert "hyperplane._validation" in graph["hyperplane.linear._perceptron"]
    assert "hyperplane.neural._backprop_kernels" in graph["hyperplane.neural._mlp"]  # from . import
    assert "hyperplane.distributed" in graph["hyperplane._base"]


#: the one cycle being removed elsewhere: the Dask tree growth (distributed/_tree)
#: moves into tree/; while that module exists, only this lazy edge is excused
PENDING = ("hyperplane.tree._classes", "hyperplane.distributed._tree")


def test_no_import_cycles_in_src():
    graph = import_graph()
    graph[PENDING[0]].discard(PENDING[1])
    try:
        tuple(graphlib.TopologicalSorter(graph).static_order())
    except graphlib.CycleError as exc:
        pytest.fail("import cycle: " + " → ".join(reversed(exc.args[1])))


def private_attribute_reads(path):
    """``name._attr`` reads in a module, where ``name`` is not ``self``/``cls``
    and not an imported module alias (e.g. ``np._x`` would be a module's)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    aliases = {alias.asname or alias.name.split(".")[0] for node in ast.walk(tree)
               if isinstance(node, (ast.Import, ast.ImportFrom)) for alias in node.names}
    return sorted({f"{node.value.id}.{node.attr}" for node in ast.walk(tree)
                   if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                   and node.attr.startswith("_") and not node.attr.startswith("__")
                   and node.value.id not in {"self", "cls"} | aliases})


def test_private_attribute_reads_are_found(tmp_path):
    snippet = tmp_path / "m.py"
    snippet.write_text("import numpy as np\n"
                       "def f(model, self):\n"
                       "    return model._fit_moments, self._x, np._NoValue, model.__dict__\n")
    assert private_attribute_reads(snippet) == ["model._fit_moments"]


def test_the_engine_reads_no_private_attribute_of_an_estimator():
    """distributed/ is handed statistics and merges; it never reaches into a model.
    The Dask tree growth (``_tree*.py``) is excused while it still lives there."""
    engine = [p for p in (ROOT / "distributed").glob("*.py") if not p.name.startswith("_tree")]
    assert {p.name for p in engine} >= {"_dask.py", "_chunks.py", "__init__.py"}
    assert {p.name: private_attribute_reads(p) for p in engine} == \
        {p.name: [] for p in engine}
