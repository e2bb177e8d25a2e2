"""Saving and loading a model needs none of the optional extras.

The classes a model file may name are found by walking the package
(:func:`hyperplane.utils.hyperplane_classes`); a module that imports an extra
(Flask, Plotly, Dask) must not be on that walk, or ``save``/``load`` would fail
for a user who installed hyperplane alone. The check runs in a fresh
interpreter in which importing any extra fails.
"""

import subprocess
import sys
import textwrap

SCRIPT = textwrap.dedent("""
    import sys, tempfile, os
    for extra in ("flask", "plotly", "dask", "distributed"):
        sys.modules[extra] = None          # importing it now raises ImportError
    import numpy as np
    from hyperplane.io import load, save
    from hyperplane.linear import Perceptron
    from hyperplane.utils import hyperplane_classes
    assert "hyperplane.linear._perceptron.Perceptron" in hyperplane_classes()
    X = np.array([[3.0, 3.0], [4.0, 3.0], [1.0, 1.0]]); y = np.array([1, 1, -1])
    model = Perceptron().fit(X, y)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "model.skops")
        save(model, path)
        assert np.array_equal(load(path).predict(X), model.predict(X))
    print("ok")
""")


def test_save_and_load_without_the_optional_extras():
    done = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip().endswith("ok")
