"""Every Examples section in the package runs and shows what it claims."""

import doctest
import importlib
import pkgutil

import pytest

import hyperplane

MODULES = sorted(m.name for m in pkgutil.walk_packages(hyperplane.__path__, "hyperplane.")
                 if not m.name.endswith("__main__"))


@pytest.mark.parametrize("name", MODULES)
def test_examples_run(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS,
                             report=False)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples of {name} failed"
