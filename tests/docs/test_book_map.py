"""Every row of the book <-> code map (docs/book_map.csv, the rows the site shows) points at an
object that imports, a test, a gallery page and a playground learner that exist; the map has a row
and a page for every exercise of the covered chapters, and the Chinese exercise list links them all."""

import ast
import importlib
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
sys.path.insert(0, str(DOCS / "_ext"))

from docs_pages import EXERCISES, STATUSES, read_book_map  # noqa: E402

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


#: every numbered algorithm and example of the covered chapters (李航 ch. 2, 5, 7; 周志华 ch. 3-6
#: numbers no algorithms or examples but gives two algorithms as pseudocode figures)
BOOK_ITEMS = ([("李航", f"算法2.{n}") for n in (1, 2)] + [("李航", f"例2.{n}") for n in (1, 2)]
              + [("李航", f"算法5.{n}") for n in range(1, 8)] + [("李航", f"例5.{n}") for n in range(1, 5)]
              + [("李航", f"算法7.{n}") for n in range(1, 6)] + [("李航", f"例7.{n}") for n in range(1, 4)]
              + [("周志华", "图4.2"), ("周志华", "图5.8")])


@pytest.mark.parametrize("book, item", BOOK_ITEMS, ids=[item for _, item in BOOK_ITEMS])
def test_every_algorithm_and_example_of_the_covered_chapters_has_a_row(book, item):
    pattern = re.compile(re.escape(item) + r"(?![0-9])")
    rows = [row for row in ROWS if row["book"] == book and pattern.search(row["ref"])]
    assert rows, f"{book} {item} has no row in book_map.csv"


@pytest.mark.parametrize("row", ROWS, ids=[f"{r['book']}-{r['ref']}-{n}" for n, r in enumerate(ROWS)])
def test_row_points_at_an_object_and_a_test_that_exist(row):
    for column in ("book", "ref", "what_en", "what_zh", "object", "test"):
        assert row[column].strip(), f"empty {column}"
    assert row["book"] in ("李航", "周志华")
    if row["status"] == "in progress":  # being added on another branch: its package imports
        importlib.import_module(row["object"].rpartition(".")[0])
    else:
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


def _playground():
    """The playground page's learners, each with its parameter names and select options (PARAMS in
    app.js), and the datasets each learner offers (CATALOG in the server)."""
    static = ROOT / "src" / "hyperplane" / "playground"
    script = (static / "static" / "app.js").read_text(encoding="utf-8")
    block = script[script.index("const PARAMS = {"):]
    block = block[:block.index("\n};")]
    learners = {}
    for name, body in re.findall(r"^\s*(\w+): \[(.*?)\],?$(?=\n\s*\w+: \[|\s*\Z)", block,
                                 flags=re.MULTILINE | re.DOTALL):
        params = {}
        for key, kind, rest in re.findall(r'\["(\w+)", "(\w+)", ([^\]]*(?:\[[^\]]*\])?)\]', body):
            options = re.findall(r'"([^"]*)"', rest.split("[", 1)[1]) if kind == "select" else None
            params[key] = options
        learners[name] = params
    server = ast.parse((static / "_server.py").read_text(encoding="utf-8"))
    catalog = next(ast.literal_eval(node.value) for node in server.body if isinstance(node, ast.Assign)
                   and any(getattr(t, "id", None) == "CATALOG" for t in node.targets))
    return learners, catalog


PLAYGROUND = _playground()


def _check_preset(value):
    """A bare learner (#svm) or a preset (#learner=svm&dataset=...&kernel=rbf) the page accepts."""
    learners, catalog = PLAYGROUND
    if "=" not in value:
        assert value in learners, value
        return
    query = dict(part.split("=", 1) for part in value.split("&"))
    learner = query.pop("learner")
    assert learner in learners, value
    dataset = query.pop("dataset", None)
    assert dataset is None or dataset in catalog[learner], (value, catalog[learner])
    for key, setting in query.items():
        assert key in learners[learner], (value, key)
        options = learners[learner][key]
        assert options is None or setting in options, (value, key, options)


@pytest.mark.parametrize("row", ROWS, ids=[f"{r['book']}-{r['ref']}-{n}" for n, r in enumerate(ROWS)])
def test_row_status_page_and_playground_exist(row):
    assert row["status"] in STATUSES
    if row["status"] != "implemented":
        assert row["why_en"].strip() and row["why_zh"].strip(), "a row not implemented says why"
    if row["gallery"]:
        folder, _, script = row["gallery"].partition("/")
        directory = {"exercises": DOCS / "exercises", "examples": ROOT / "examples"}[folder]
        assert (directory / f"{script}.py").is_file(), row["gallery"]
    if row["playground"]:
        _check_preset(row["playground"])


def test_the_playground_learners_are_read_from_the_page():
    learners, catalog = PLAYGROUND
    assert {"perceptron", "svm", "tree", "bp", "linear"} <= set(learners) == set(catalog)
    assert learners["tree"]["criterion"] == ["info_gain", "gain_ratio", "gini"]
    assert learners["svm"]["C"] is None and "loan" in catalog["tree"]
    with pytest.raises(AssertionError):
        _check_preset("learner=tree&dataset=loan&criterion=entropy")


def test_every_exercise_of_the_covered_chapters_has_a_row_and_a_page():
    pages = {script.stem for script in (DOCS / "exercises").glob("*.py")}
    assert len(EXERCISES) == 3 + 4 + 4 + 4 * 10
    for book, exercise in EXERCISES:
        rows = [row for row in ROWS if (row["book"], row["ref"]) == (book, exercise)]
        assert rows, f"{book} {exercise} has no row"
        assert any(row["gallery"].startswith("exercises/") for row in rows), f"{exercise}: no page"
        for row in rows:
            if row["gallery"].startswith("exercises/"):
                stem = row["gallery"].partition("/")[2]
                assert stem in pages
                author = {"李航": "li", "周志华": "zhou"}[book]
                chapter, number = exercise.removeprefix("习题").split(".")
                assert stem.startswith(f"{author}_{chapter}_{number}_"), (exercise, stem)


def test_the_chinese_exercise_list_links_every_page():
    text = (DOCS / "zh" / "exercises.rst").read_text(encoding="utf-8")
    for script in sorted((DOCS / "exercises").glob("*.py")):
        assert f":doc:`../auto_exercises/{script.stem}`" in text, f"zh/exercises.rst lacks {script.stem}"
