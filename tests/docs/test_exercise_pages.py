"""Every exercise page has the same parts, in the same order, in both languages.

A page of docs/exercises/ opens (its docstring, the text above the code) with the question in
Chinese (**题目**) and English (**Question**), the answer in English (**答案 / Answer**) and in
Chinese (**答案（中文）**), and a comparison with a public solution set in both languages. The
build test (test_build.py) runs the pages; this one reads them, so it is quick.
"""

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = sorted((ROOT / "docs" / "exercises").glob("*.py"))
PARTS = ("**题目**", "**Question**", "**答案 / Answer**", "**答案（中文）**：",
         "**与公开解答比较 / Compared with public solutions**")
CJK = re.compile(r"[\u4e00-\u9fff]")


def docstring(page):
    return ast.get_docstring(ast.parse(page.read_text(encoding="utf-8")), clean=False)


def paragraphs(text):
    return [block.strip() for block in re.split(r"\n\s*\n", text) if block.strip()]


def test_there_is_a_page_for_each_of_the_51_exercises():
    assert len({"_".join(page.stem.split("_")[:3]) for page in PAGES}) == 51


@pytest.mark.parametrize("page", PAGES, ids=[page.stem for page in PAGES])
def test_page_has_every_part_in_order(page):
    text = docstring(page)
    assert text, f"{page.name} has no docstring"
    book, exercise = {"li": "李航", "zhou": "周志华"}[page.stem.split("_")[0]], \
        "习题{}.{}".format(*page.stem.split("_")[1:3])
    assert f"{book} {exercise}" in paragraphs(text)[0], "the title names the book and exercise"
    where = [text.find(part) for part in PARTS]
    missing = [part for part, at in zip(PARTS, where) if at < 0]
    assert not missing, f"{page.name} lacks {missing}"
    assert where == sorted(where), f"{page.name}: parts out of order {PARTS}"
    for part in PARTS:
        assert text.count(part) == 1, f"{page.name}: {part} twice"


@pytest.mark.parametrize("page", PAGES, ids=[page.stem for page in PAGES])
def test_question_answer_and_comparison_are_in_both_languages(page):
    text = docstring(page)
    question = text[text.find("**题目**"):text.find("**Question**")]
    assert len(CJK.findall(question)) > 5, "题目 in Chinese"
    chinese_answer = text[text.find("**答案（中文）**："):].split("\n\n")[0]
    assert len(CJK.findall(chinese_answer)) > 20, "答案（中文） is a Chinese paragraph"
    comparison = paragraphs(text[text.find(PARTS[-1]) + len(PARTS[-1]):])
    assert any(len(CJK.findall(block)) > 5 for block in comparison), "comparison in Chinese"
    assert any(len(CJK.findall(block)) < len(block) / 10 for block in comparison), \
        "comparison in English"


def _page(prefix):
    return next(page for page in PAGES if page.stem.startswith(prefix))


def test_exercise_3_3_reports_the_unpenalised_model():
    text = docstring(_page("zhou_3_3_"))
    for value in ("3.1583", "12.5212", "4.4289"):
        assert text.count(value) >= 2, value    # in the English and the Chinese answer
    assert "C = 1e4" not in text.split("**答案 / Answer**")[1].split(".")[0]


def test_exercise_5_5_uses_the_books_error_updates_and_initialisation():
    page = _page("zhou_5_5_")
    text = docstring(page)
    assert "E_k" in text and "式5.4" in text and "式5.11–5.14" in text and "式5.16" in text
    code = page.read_text(encoding="utf-8").split('"""', 2)[2]
    assert 'loss="squared_error"' in code and 'init="book"' in code
    assert "glorot" not in code.lower() and "cross_entropy" not in code
