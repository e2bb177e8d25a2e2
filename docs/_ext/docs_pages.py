"""Pages written from the code and from book_map.csv before each build (see conf.py)."""

import csv
import importlib
import pkgutil
from pathlib import Path

import hyperplane

BOOK_MAP_COLUMNS = ("book", "ref", "what_en", "what_zh", "object", "parameters", "test")
HEADERS = {
    "en": ("Book", "Item", "What", "Code", "Checked by"),
    "zh": ("书", "条目", "内容", "代码", "检验它的测试"),
}


def public_subpackages():
    """The public subpackages of hyperplane and their ``__all__``, in name order."""
    found = {}
    for info in pkgutil.iter_modules(hyperplane.__path__):
        if info.name.startswith("_") or not info.ispkg:
            continue
        module = importlib.import_module(f"hyperplane.{info.name}")
        found[module.__name__] = list(getattr(module, "__all__", []))
    return found


def read_book_map(path):
    """The rows of the book <-> code map, as dicts keyed by BOOK_MAP_COLUMNS."""
    with open(path, encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    for number, row in enumerate(rows, start=2):
        if tuple(row) != BOOK_MAP_COLUMNS:
            raise ValueError(f"book_map.csv line {number}: columns must be {BOOK_MAP_COLUMNS}")
    return rows


def _write_if_changed(path, text):
    path.parent.mkdir(parents=True, exist_ok=True)
    if not path.is_file() or path.read_text(encoding="utf-8") != text:
        path.write_text(text, encoding="utf-8")


def _api_page(module, names):
    lines = [module, "=" * len(module), "", f".. automodule:: {module}", "   :no-members:", "",
             f".. currentmodule:: {module}", "", ".. autosummary::", "   :toctree: generated",
             "   :nosignatures:", ""]
    lines += [f"   {name}" for name in names]
    return "\n".join(lines) + "\n"


def write_api_pages(folder):
    """One page per public subpackage, listing every name of its ``__all__``."""
    folder = Path(folder)
    modules = public_subpackages()
    for module, names in modules.items():
        _write_if_changed(folder / f"{module}.rst", _api_page(module, names))
    _remove_stale_pages(folder, modules)
    index = ["API reference", "=============", "",
             "Every public name of every subpackage (its ``__all__``), from the docstrings.", "",
             ".. toctree::", "   :maxdepth: 1", ""]
    index += [f"   {module}" for module in modules]
    _write_if_changed(folder / "index.rst", "\n".join(index) + "\n")


def _remove_stale_pages(folder, modules):
    """Delete the pages of names no longer public, left by an earlier build in the same folder."""
    pages = {f"{module}.rst" for module in modules} | {"index.rst"}
    stubs = {f"{module}.{name}.rst" for module, names in modules.items() for name in names}
    for page in folder.glob("*.rst"):
        if page.name not in pages:
            page.unlink()
    for stub in (folder / "generated").glob("*.rst"):
        if stub.name not in stubs:
            stub.unlink()


def _cell(text):
    return text.replace("\n", " ").strip() or "—"


def _table(rows, language):
    what = "what_en" if language == "en" else "what_zh"
    lines = [".. list-table::", "   :header-rows: 1", "   :widths: 8 10 34 26 22", ""]
    lines.append("   * - " + "\n     - ".join(HEADERS[language]))
    for row in rows:
        code = f":py:obj:`{row['object']}`"
        if row["parameters"].strip():
            code += f" ``{row['parameters'].strip()}``"
        cells = [row["book"], row["ref"], _cell(row[what]), code, f"``{row['test']}``"]
        lines.append("   * - " + "\n     - ".join(cells))
    return "\n".join(lines) + "\n"


def write_book_map_pages(csv_path, folder):
    """The map's table in English and in Chinese, included by book_map.rst and zh/book_map.rst."""
    rows = read_book_map(csv_path)
    for language in HEADERS:
        _write_if_changed(Path(folder) / f"book_map_{language}.rst", _table(rows, language))
