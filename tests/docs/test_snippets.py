"""Every Python snippet of the documentation runs as pasted into a script.

A reader copies a ``.. code-block:: python`` block into a file and runs it; the Dask snippets once
failed that way ("Nanny failed to start": a LocalCluster's workers re-import the script, which
needs the ``if __name__ == "__main__":`` guard) and one named a parquet folder nobody has.
"""

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import hyperplane

ROOT = Path(__file__).resolve().parents[2]
SRC = str(Path(hyperplane.__file__).resolve().parents[1])
PAGES = sorted((ROOT / "docs").glob("*.rst")) + sorted((ROOT / "docs" / "user_guide").glob("*.rst"))


def python_blocks(page):
    """The bodies of the page's ``.. code-block:: python`` directives, dedented."""
    blocks, body, inside = [], [], False
    for line in page.read_text(encoding="utf-8").splitlines() + [""]:
        if line.strip() == ".. code-block:: python":
            inside, body = True, []
        elif inside and line and not line.startswith(" "):
            blocks.append(textwrap.dedent("\n".join(body)).strip() + "\n")
            inside = False
        elif inside:
            body.append(line)
    if inside:
        blocks.append(textwrap.dedent("\n".join(body)).strip() + "\n")
    return blocks


SNIPPETS = [pytest.param(code, id=f"{page.stem}-{k}")
            for page in PAGES for k, code in enumerate(python_blocks(page))]


def test_the_getting_started_and_dask_pages_have_snippets():
    ids = {param.id.rsplit("-", 1)[0] for param in SNIPPETS}
    assert {"getting_started", "dask"} <= ids


@pytest.mark.parametrize("code", SNIPPETS)
def test_snippet_runs_as_a_script(code, tmp_path):
    script = tmp_path / "snippet.py"
    script.write_text(code, encoding="utf-8")
    env = dict(os.environ, MPLBACKEND="Agg", PYTHONIOENCODING="utf-8",
               PYTHONPATH=SRC + os.pathsep + os.environ.get("PYTHONPATH", ""))
    result = subprocess.run([sys.executable, str(script)], cwd=tmp_path, env=env,
                            capture_output=True, text=True, encoding="utf-8", timeout=600)
    assert result.returncode == 0, code + "\n" + result.stderr[-4000:]
