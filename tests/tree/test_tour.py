"""The tour's tree section prints the book's tree and pruning results."""

from rich.console import Console

from hyperplane.cli._tour import SECTIONS


def test_tree_tour_section():
    console = Console(record=True, width=100)
    title, section = SECTIONS["tree"]
    section(console)
    text = console.export_text()
    assert "0.381" in text and "Ent(D) = 0.998" in text
    assert "|   |   |   触感 = 软粘: 否" in text
    assert "pruning='pre' (figure 4.6): validation accuracy 71.4%" in text
    assert "pruning='post' (figure 4.7): validation accuracy 71.4%" in text
