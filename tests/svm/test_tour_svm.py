"""The SVM section of ``hyperplane tour`` shows the book's numbers."""

from rich.console import Console

from hyperplane.cli.tour_svm import svm_section


def test_tour_prints_example_7_1_and_watermelon_support_vectors():
    console = Console(record=True, width=120)
    svm_section(console)
    text = console.export_text()
    assert "0.5 x(1) + 0.5 x(2) - 2 = 0" in text
    assert text.count("0.2500") == 2                      # alpha1 = alpha3 = 1/4
    assert "(R/gamma)^2 = 117.00" in text
    assert "西瓜数据集3.0α" in text and "support vectors of 17 samples" in text


def test_tour_section_is_registered():
    from hyperplane.cli._tour import SECTIONS

    assert SECTIONS["svm"][1] is svm_section
