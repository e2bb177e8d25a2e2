"""No two functions of one name doing different things in src/hyperplane.

A name defined at the top level of more than one module (a function, a
class, or a compiled chooser or record made by ``by_layout``,
``by_first_type``, ``by_none`` or ``namedtuple``) reads as one thing and is
two: a reader who knows one misreads the other, and an import of the wrong
one still runs. Each such name is renamed to what it does, or the two are
merged when they are the same rule. The names below are the exceptions, each
with its reason. Methods are not collected (an estimator's ``fit`` or
``predict`` is an interface, defined once per class by design), nor the
command functions of the command line (``@app.command()``: the function's
name is the command's).
"""

from __future__ import annotations

import ast
import collections
import pathlib

import pytest

SRC = pathlib.Path(__file__).resolve().parents[1] / "src" / "hyperplane"

#: calls whose result, assigned to a top-level name, is a function or a record type
MAKERS = {"by_layout", "by_first_type", "by_none", "namedtuple"}

#: name -> (the modules that may define it, relative to src/hyperplane; why)
ALLOWED = {
    # one rule, two layers: a checked Python entry (it converts and checks its
    # arguments) that calls the compiled function of the same name
    "added_errors": ({"tree/_prune/_kinds.py", "tree/_prune/_pessimistic_kernels.py"},
                     "the checked Python entry of the compiled C4.5 charge"),
    "create_app": ({"playground/__init__.py", "playground/_server.py"},
                   "the package's lazy entry point of the Flask application it builds"),
    # an interface: the playground's server calls module.start of each lesson module
    "start": ({"playground/_bp.py", "playground/_linear.py", "playground/_perceptron.py",
               "playground/_svm.py", "playground/_tree.py"},
              "each lesson module's entry point, called by the server"),
}


def _is_command(node):
    """Whether a function is decorated as a command of the command line."""
    return any(isinstance(d, ast.Call) and isinstance(d.func, ast.Attribute)
               and d.func.attr == "command" for d in node.decorator_list)


def _maker(value):
    """The name of the function called by a top-level assignment's value, if any."""
    if isinstance(value, ast.Call):
        func = value.func
        return func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
    return None


def top_level_names(path):
    """The functions, classes and made functions or records defined at the top of ``path``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            if not _is_command(node):
                yield node.name
        elif isinstance(node, ast.ClassDef):
            yield node.name
        elif isinstance(node, ast.Assign) and _maker(node.value) in MAKERS:
            yield from (t.id for t in node.targets if isinstance(t, ast.Name))


def defined_in():
    """name -> the modules (relative paths) that define it at their top level."""
    where = collections.defaultdict(set)
    for path in sorted(SRC.rglob("*.py")):
        for name in top_level_names(path):
            where[name].add(path.relative_to(SRC).as_posix())
    return where


def test_no_name_is_defined_in_two_modules_unless_allowed():
    repeated = {name: modules for name, modules in defined_in().items() if len(modules) > 1}
    unexplained = {name: sorted(modules) for name, modules in repeated.items()
                   if name not in ALLOWED or not modules <= ALLOWED[name][0]}
    assert not unexplained, (
        "names defined in more than one module: rename each to what it does, or merge "
        f"them if they are one rule: {unexplained}")


@pytest.mark.parametrize("name", sorted(ALLOWED))
def test_allowed_names_name_existing_modules(name):
    """Every allowed module exists (an entry cannot silently cover a moved file)."""
    modules, _ = ALLOWED[name]
    missing = [m for m in modules if not (SRC / m).is_file()]
    assert not missing, f"{name}: no such modules {missing}"


def test_the_check_sees_a_repeated_name(tmp_path):
    """The collector finds functions, classes and made records, and skips commands."""
    source = ("import typer\napp = typer.Typer()\n"
              "def f():\n    pass\nclass C:\n    def fit(self):\n        pass\n"
              "R = namedtuple('R', 'a b')\n@app.command()\ndef grid():\n    pass\n")
    path = tmp_path / "m.py"
    path.write_text(source)
    assert sorted(top_level_names(path)) == ["C", "R", "f"]
