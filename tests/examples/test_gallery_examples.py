"""Every script of examples/ runs (Agg backend) and saves its figure under examples/out/.

Each script names the classes it needs on a ``# requires: module:Class ...``
line; every one of them must be importable.
"""

import importlib
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

import hyperplane

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "examples").glob("*.py"))
SRC = str(Path(hyperplane.__file__).resolve().parents[1])


def _requirements(script):
    match = re.search(r"^# requires:(.*)$", script.read_text(encoding="utf-8"), re.M)
    return match.group(1).split() if match else []


def _missing(requirements):
    missing = []
    for target in requirements:
        module, _, name = target.partition(":")
        try:
            getattr(importlib.import_module(module), name)
        except (ImportError, AttributeError):
            missing.append(target)
    return missing


def test_every_example_declares_what_it_needs_and_saves_a_figure():
    assert EXAMPLES, "examples/ has no scripts"
    for script in EXAMPLES:
        text = script.read_text(encoding="utf-8")
        assert _requirements(script), f"{script.name} has no '# requires:' line"
        assert 'matplotlib.use("Agg")' in text, f"{script.name} must use the Agg backend"
        assert f'"{script.stem}.png"' in text, f"{script.name} must save out/{script.stem}.png"


@pytest.mark.parametrize("script", EXAMPLES, ids=[s.stem for s in EXAMPLES])
def test_example_runs_and_saves_its_figure(script):
    missing = _missing(_requirements(script))
    assert not missing, f"{script.name} needs {', '.join(missing)}, which do not import"
    figure = ROOT / "examples" / "out" / f"{script.stem}.png"
    started = time.time()
    env = dict(os.environ, MPLBACKEND="Agg", PYTHONIOENCODING="utf-8",
               PYTHONPATH=SRC + os.pathsep + os.environ.get("PYTHONPATH", ""))
    result = subprocess.run([sys.executable, str(script)], cwd=ROOT, env=env,
                            capture_output=True, text=True, encoding="utf-8", timeout=600)
    assert result.returncode == 0, result.stderr[-3000:]
    assert "missing from font" not in result.stderr, "Chinese glyphs rendered as boxes"
    assert figure.is_file() and figure.stat().st_mtime >= started - 1
    assert figure.stat().st_size > 5000
