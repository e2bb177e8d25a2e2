import subprocess
import sys

from rich.console import Console

from hyperplane.cli.tour_perceptron import _hyperplane_text, perceptron_section


def test_hyperplane_text_reads_like_the_book():
    assert _hyperplane_text([3, 3], 1) == "3x(1)+3x(2)+1"
    assert _hyperplane_text([1, 1], -3) == "x(1)+x(2)-3"
    assert _hyperplane_text([0, 0], -2) == "-2"
    assert _hyperplane_text([0, 0], 0) == "0"


def test_perceptron_section_prints_the_book_tables():
    console = Console(record=True, width=400)
    perceptron_section(console)
    text = console.export_text()
    assert "x(1)+x(2)-3" in text
    assert "[[18, 21, 6], [21, 25, 7], [6, 7, 2]]" in text
    assert "α = ['2', '0', '5'], b = -3" in text
    assert "training accuracy 1.000" in text


def test_tour_command_runs_in_a_subprocess():
    result = subprocess.run([sys.executable, "-m", "hyperplane", "tour", "-s", "perceptron"],
                            capture_output=True, text=True, encoding="utf-8", timeout=300)
    assert result.returncode == 0, result.stderr
    assert "表2.1" in result.stdout and "表2.2" in result.stdout
