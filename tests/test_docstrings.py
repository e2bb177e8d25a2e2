"""Every Examples section in the package runs and shows what it claims.

Each module runs under two different seeds of NumPy's global generator, so an
example whose output depends on unseeded randomness (``random_state=None``)
fails here every time instead of now and then. Every class and function a
public module exports has such a section.
"""

import doctest
import importlib
import inspect
import pkgutil

import numpy as np
import pytest
from numpydoc.docscrape import NumpyDocString

import hyperplane

MODULES = sorted(m.name for m in pkgutil.walk_packages(hyperplane.__path__, "hyperplane.")
                 if not m.name.endswith("__main__"))


@pytest.mark.parametrize("global_seed", [0, 1])
@pytest.mark.parametrize("name", MODULES)
def test_examples_run(name, global_seed):
    module = importlib.import_module(name)
    saved = np.random.get_state()
    np.random.seed(global_seed)
    try:
        result = doctest.testmod(module, report=False,
                                 optionflags=doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS)
    finally:
        np.random.set_state(saved)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples of {name} failed"


#: the public modules: no part of the dotted name starts with "_"
PUBLIC_MODULES = ["hyperplane"] + [name for name in MODULES
                                   if not any(part.startswith("_") for part in name.split("."))]

def has_examples(doc):
    """Whether a numpydoc docstring has an Examples section with a ``>>>`` line
    (the sections as numpydoc's own parser reads them)."""
    examples = NumpyDocString(inspect.cleandoc(doc or ""))["Examples"]
    return any(line.lstrip().startswith(">>>") for line in examples)


def test_has_examples_reads_numpydoc_sections():
    assert has_examples("Sum.\n\n    Examples\n    --------\n    >>> 1 + 1\n    2\n")
    assert not has_examples(None)
    assert not has_examples("Sum.\n\n    Examples\n    --------\n    None yet.\n")
    assert not has_examples("Examples\n--------\nSee below.\n\nNotes\n-----\n>>> 1\n1\n")


def test_every_public_class_and_function_has_examples():
    """A class or function in a public module's ``__all__`` has a runnable
    Examples section in its own docstring (the one doctest runs, where it is
    defined; a class does not inherit its base's)."""
    missing = []
    for module_name in PUBLIC_MODULES:
        module = importlib.import_module(module_name)
        for name in getattr(module, "__all__", ()):
            obj = getattr(module, name)
            if (inspect.isclass(obj) or inspect.isroutine(obj)) and not has_examples(obj.__doc__):
                missing.append(f"{module_name}.{name}")
    assert not missing, f"no Examples section with >>> in: {', '.join(missing)}"
