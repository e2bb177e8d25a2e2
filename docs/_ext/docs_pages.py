"""Pages written from the code and from book_map.csv before each build (see conf.py)."""

import csv
import importlib
import pkgutil
from pathlib import Path

import hyperplane

BOOK_MAP_COLUMNS = ("book", "ref", "what_en", "what_zh", "object", "parameters", "test",
                    "status", "why_en", "why_zh", "gallery", "playground")
#: the values of the ``status`` column and how each language writes them
STATUSES = {
    "implemented": {"en": "implemented", "zh": "已实现"},
    "not implemented": {"en": "not implemented", "zh": "未实现"},
    "in progress": {"en": "in progress", "zh": "开发中"},
}
#: every exercise of the covered chapters: 李航 chapters 2, 5, 7 and 周志华 chapters 3-6
EXERCISES = ([("李航", f"习题{c}.{n}") for c, last in ((2, 3), (5, 4), (7, 4)) for n in range(1, last + 1)]
             + [("周志华", f"习题{c}.{n}") for c in (3, 4, 5, 6) for n in range(1, 11)])
#: where ``hyperplane playground --port 8765`` serves the playground; the map's presets link there
PLAYGROUND_ADDRESS = "http://127.0.0.1:8765/"
HEADERS = {
    "en": ("Book", "Item", "What", "Status", "Code", "Page", "Playground", "Checked by"),
    "zh": ("书", "条目", "内容", "状态", "代码", "页面", "交互演示", "检验它的测试"),
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
        if row["status"] not in STATUSES:
            raise ValueError(f"book_map.csv line {number}: status must be one of {list(STATUSES)}; "
                             f"got {row['status']!r}")
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


def _status(row, language):
    """The status in the page's language; a row that is not implemented says why."""
    text = STATUSES[row["status"]][language]
    why = row[f"why_{language}"].strip()
    return f"{text}: {why}" if why else text


def _gallery(row):
    """A link to the gallery page (``exercises/<script>`` or ``examples/<script>``) of a row."""
    page = row["gallery"].strip()
    if not page:
        return "—"
    folder, _, script = page.partition("/")
    return f":doc:`/auto_{folder}/{script}`"


def _table(rows, language):
    what = "what_en" if language == "en" else "what_zh"
    lines = [".. list-table::", "   :header-rows: 1", "   :widths: 6 9 26 12 20 10 7 10", ""]
    lines.append("   * - " + "\n     - ".join(HEADERS[language]))
    for row in rows:
        code = f":py:obj:`{row['object']}`"
        if row["parameters"].strip():
            code += f" ``{row['parameters'].strip()}``"
        preset = row["playground"].strip()
        playground = f"`#{preset} <{PLAYGROUND_ADDRESS}#{preset}>`__" if preset else "—"
        cells = [row["book"], row["ref"], _cell(row[what]), _cell(_status(row, language)), code,
                 _gallery(row), playground, f"``{row['test']}``"]
        lines.append("   * - " + "\n     - ".join(cells))
    return "\n".join(lines) + "\n"


def write_book_map_pages(csv_path, folder):
    """The map's table in English and in Chinese, included by book_map.rst and zh/book_map.rst."""
    rows = read_book_map(csv_path)
    for language in HEADERS:
        _write_if_changed(Path(folder) / f"book_map_{language}.rst", _table(rows, language))
