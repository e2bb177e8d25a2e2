"""The linear section of ``hyperplane tour``."""

import re

from rich.console import Console

from hyperplane.cli._tour import SECTIONS


def test_linear_section_prints_models_accuracy_and_direction():
    console = Console(record=True, width=140)
    title, section = SECTIONS["linear"]
    section(console)
    text = console.export_text()
    for name in ("least squares", "Fisher", "logistic regression", "S_W⁻¹(m_是 − m_否)"):
        assert name in text
    accuracies = [float(a) for a in re.findall(r"│ (0\.\d{3}|1\.000)\s+│", text)]
    assert len(accuracies) == 3 and all(0.6 < a <= 1.0 for a in accuracies)
    assert "+0.1465, +0.7387" in text



def test_tour_command_runs_the_linear_section():
    import os
    import subprocess
    import sys
    env = dict(os.environ, COLUMNS="140")
    result = subprocess.run([sys.executable, "-m", "hyperplane", "tour", "--section", "linear"],
                            capture_output=True, text=True, timeout=300, env=env)
    assert result.returncode == 0, result.stderr
    assert "Fisher" in result.stdout and "0.706" in result.stdout
