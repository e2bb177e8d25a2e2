"""The neural section of ``hyperplane tour``."""

from rich.console import Console

from hyperplane.cli._tour import SECTIONS, run_tour


def test_tour_neural_shows_loss_curve_accuracy_and_xor():
    assert "neural" in SECTIONS
    console = Console(record=True, width=160)
    run_tour(console, sections=["neural"])
    text = console.export_text()
    assert "西瓜数据集3.0" in text and "E @ 10000" in text
    rows = {line.split("│")[1].strip(): line for line in text.splitlines()
            if line.startswith("│ standard") or line.startswith("│ accumulated")}
    assert set(rows) == {"standard", "accumulated"}
    assert all(row.rstrip(" │").endswith("1.000") for row in rows.values())  # train accuracy
    assert "network accuracy 1.00" in text and "perceptron 0.50" in text
