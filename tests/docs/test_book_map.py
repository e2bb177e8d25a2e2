"""Every row of the book <-> code map (docs/book_map.csv, the rows the site shows) points at an
object that imports and at a test that exists; the map covers each exercise the site solves."""

import ast
import importlib
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
sys.path.insert(0, str(DOCS / "_ext"))

from docs_pages import read_book_map  # noqa: E402

ROWS = read_book_map(DOCS / "book_map.csv")


def _import_object(dotted):
    module_name, _, attribute = dotted.rpartition(".")
    return getattr(importlib.import_module(module_name), attribute)


def _test_functions(path):
    """Names of the module-level test functions and Class::method tests of a test file."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            names.add(node.name)
        elif isinstance(node, ast.ClassDef):
            names.update(f"{node.name}::{item.name}" for item in node.body
                         if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)))
    return {name for name in names if name.split("::")[-1].startswith("test")}


def test_the_map_covers_both_books_and_their_chapters():
    refs = {(row["book"], row["ref"]) for row in ROWS}
    assert len(ROWS) >= 40
    for book, item in [("李航", "算法2.1, 例2.1"), ("李航", "算法2.2, 例2.2"), ("李航", "式5.7–5.9, 例5.2"),
                       ("李航", "算法7.1, 例7.1, 例7.2"), ("周志华", "表4.2, 图4.5"),
                       ("周志华", "§3.4, 式3.39"), ("周志华", "式6.43–6.47")]:
        assert (book, item) in refs


@pytest.mark.parametrize("row", ROWS, ids=[f"{r['book']}-{r['ref']}-{n}" for n, r in enumerate(ROWS)])
def test_row_points_at_an_object_and_a_test_that_exist(row):
    for column in ("book", "ref", "what_en", "what_zh", "object", "test"):
        assert row[column].strip(), f"empty {column}"
    assert row["book"] in ("李航", "周志华")
    obj = _import_object(row["object"])
    assert callable(obj) or isinstance(obj, type), row["object"]
    path, _, function = row["test"].partition("::")
    assert (ROOT / path).is_file(), f"{path} does not exist"
    assert function in _test_functions(ROOT / path), f"{path} has no test {function}"


def test_each_exercise_page_has_a_row():
    books = {"li": "李航", "zhou": "周志华"}
    refs = {(row["book"], row["ref"]) for row in ROWS}
    for script in sorted((DOCS / "exercises").glob("*.py")):
        author, chapter, number = script.stem.split("_")[:3]  # li_2_2_... -> 李航 习题2.2
        assert (books[author], f"习题{chapter}.{number}") in refs, f"{script.name} has no row"
