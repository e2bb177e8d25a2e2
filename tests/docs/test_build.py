"""The documentation site builds with warnings as errors, runs every gallery script and exercise,
and documents every public name.

The site is built once per test session (one build shared by the pytest-xdist workers through a
file lock) from a copy of docs/ and examples/ in a temporary folder, with the README's command.
"""

import json
from html import escape
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from filelock import FileLock

import hyperplane

ROOT = Path(__file__).resolve().parents[2]
SRC = str(Path(hyperplane.__file__).resolve().parents[1])
sys.path.insert(0, str(ROOT / "docs" / "_ext"))

from docs_pages import EXERCISES, public_subpackages, read_book_map  # noqa: E402

GENERATED = ("_build", "api", "auto_examples", "auto_exercises", "_generated", "out",
             "sg_execution_times.rst", "__pycache__")


def _build(workdir):
    for folder in ("docs", "examples"):
        shutil.copytree(ROOT / folder, workdir / folder, ignore=shutil.ignore_patterns(*GENERATED))
    env = dict(os.environ, MPLBACKEND="Agg", PYTHONIOENCODING="utf-8",
               PYTHONPATH=SRC + os.pathsep + os.environ.get("PYTHONPATH", ""))
    command = [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-b", "html", "docs",
               "docs/_build/html"]
    result = subprocess.run(command, cwd=workdir, env=env, capture_output=True, text=True,
                            encoding="utf-8", timeout=1500)
    return {"returncode": result.returncode, "log": (result.stdout + result.stderr)[-8000:],
            "html": str(workdir / "docs" / "_build" / "html")}


@pytest.fixture(scope="session")
def site(tmp_path_factory, worker_id):
    """The built site: one build, whichever xdist worker gets here first."""
    if worker_id == "master":
        return _build(tmp_path_factory.mktemp("site"))
    shared = tmp_path_factory.getbasetemp().parent
    record = shared / "docs_site.json"
    with FileLock(str(record) + ".lock"):
        if not record.is_file():
            record.write_text(json.dumps(_build(shared / "docs_site")), encoding="utf-8")
    return json.loads(record.read_text(encoding="utf-8"))


@pytest.fixture(scope="session")
def html(site):
    assert site["returncode"] == 0, site["log"]
    return Path(site["html"])


def test_the_site_builds_with_warnings_as_errors(site):
    assert site["returncode"] == 0, site["log"]
    assert "build succeeded" in site["log"]


def test_every_public_name_is_in_the_api_reference(html):
    from sphinx.util.inventory import InventoryFile

    with open(html / "objects.inv", "rb") as handle:
        inventory = InventoryFile.load(handle, "", os.path.join)
    documented = {name for domain, entries in inventory.items() if domain.startswith("py:")
                  for name in entries}
    missing = [f"{module}.{name}" for module, names in public_subpackages().items()
               for name in names if f"{module}.{name}" not in documented]
    assert not missing, f"not in the API reference: {missing}"
    for module in public_subpackages():
        assert module in documented


def _page_with_figures_and_output(page):
    assert page.is_file(), f"{page.name} was not generated"
    text = page.read_text(encoding="utf-8")
    assert "sphx-glr-single-img" in text or "sphx-glr-multi-img" in text, f"{page.name}: no figure"
    return text


def test_every_gallery_script_runs_with_its_figure(html):
    scripts = sorted((ROOT / "examples").glob("*.py"))
    assert scripts
    for script in scripts:
        _page_with_figures_and_output(html / "auto_examples" / f"{script.stem}.html")


def test_every_exercise_runs_and_draws(html):
    scripts = sorted((ROOT / "docs" / "exercises").glob("*.py"))
    authors = {"李航": "li", "周志华": "zhou"}
    expected = {f"{authors[book]}_{exercise.removeprefix('习题').replace('.', '_')}"
                for book, exercise in EXERCISES}
    assert len(expected) == 51
    assert expected <= {"_".join(script.stem.split("_")[:3]) for script in scripts}
    for script in scripts:
        text = _page_with_figures_and_output(html / "auto_exercises" / f"{script.stem}.html")
        assert "sphx-glr-script-out" in text, f"{script.name}: no printed result"
        assert "题目" in text and "Question" in text, f"{script.name}: not in both languages"


def test_the_book_map_pages_show_every_row_in_english_and_chinese(html):
    rows = read_book_map(ROOT / "docs" / "book_map.csv")
    for page, column in ((html / "book_map.html", "what_en"), (html / "zh" / "book_map.html", "what_zh")):
        text = page.read_text(encoding="utf-8")
        for row in rows:
            assert row["test"] in text, f"{page.name} lacks {row['test']}"
            assert escape(row[column], quote=False) in text, f"{page.name} lacks {row[column]}"
    assert (html / "zh" / "exercises.html").is_file()


_RESOURCE = re.compile(r"<(?:script|img|iframe|source)\b[^>]*\bsrc=\"([^\"]+)\""
                       r"|<link\b[^>]*\bhref=\"([^\"]+)\"[^>]*>")
_CSS_URL = re.compile(r"(?:url\(\s*['\"]?|@import\s+['\"])([^'\")\s]+)")


def _remote(url):
    return url.startswith(("http://", "https://", "//"))


def test_no_page_loads_anything_from_the_network(html):
    """Scripts, stylesheets, images and fonts all come from the site itself, so the
    site reads the same offline (a CDN MathJax showed raw TeX without a network)."""
    remote = []
    for page in html.rglob("*.html"):
        for match in _RESOURCE.finditer(page.read_text(encoding="utf-8")):
            tag = match.group(0)
            url = match.group(1) or match.group(2)
            if match.group(2) and not re.search(r"rel=\"(?:stylesheet|preload|icon|modulepreload)\"", tag):
                continue  # a <link rel="next"> or canonical link is a link, not a download
            if _remote(url):
                remote.append(f"{page.relative_to(html)}: {url}")
    for sheet in html.rglob("*.css"):
        remote += [f"{sheet.relative_to(html)}: {url}"
                   for url in _CSS_URL.findall(sheet.read_text(encoding="utf-8")) if _remote(url)]
    assert not remote, remote[:10]


def test_math_is_rendered_by_a_local_mathjax(html):
    page = (html / "user_guide" / "svm.html").read_text(encoding="utf-8")
    # Sphinx may add a checksum query (?v=...) for cache busting
    assert re.search(r'src="\.\./_static/mathjax/tex-chtml\.js(\?v=[0-9a-f]+)?"', page)
    assert (html / "_static" / "mathjax" / "tex-chtml.js").is_file()
    fonts = list((html / "_static" / "mathjax" / "output" / "chtml" / "fonts").rglob("*.woff*"))
    assert fonts, "MathJax's CHTML fonts were not copied beside it"


_HREF = re.compile(r"<a\b[^>]*\bhref=\"([^\"]+)\"")


def _local_target(page, href):
    """The file a relative link of ``page`` points at (None for a remote, mailto or in-page link)."""
    if _remote(href) or href.startswith(("#", "mailto:")):
        return None
    return (page.parent / href.split("#")[0].split("?")[0]).resolve()


def test_every_figure_opens_at_full_size(html):
    """Gallery figures and the screenshots of Getting started are links to their image file."""
    def linked_images(text):
        """(href of the link right around the image or None, src) of every <img>; an alt text
        may hold a '>' (sphinx-gallery writes it unescaped), so src is read from the tag's start."""
        found = []
        for match in re.finditer(r"<img\b", text):
            src = re.search(r"\bsrc=\"([^\"]+)\"", text[match.start():match.start() + 4000]).group(1)
            link = re.search(r"<a\b[^>]*\bhref=\"([^\"]+)\"[^>]*>\s*$", text[:match.start()][-600:])
            found.append((link.group(1) if link else None, src))
        return found

    pages = [page for folder in ("auto_examples", "auto_exercises")
             for page in sorted((html / folder).glob("*.html")) if page.name != "index.html"]
    figures = 0
    for page in pages:
        for href, src in linked_images(page.read_text(encoding="utf-8")):
            if "sphx_glr_" not in src or "thumb" in src:
                continue
            assert href == src, f"{page.name}: the figure {src} is not a link to itself"
            assert _local_target(page, href).is_file(), (page.name, href)
            figures += 1
    assert figures >= len(pages)
    page = html / "getting_started.html"
    screenshots = [href for href, src in linked_images(page.read_text(encoding="utf-8"))
                   if src.startswith("_images/")]
    assert None not in screenshots, "a screenshot of Getting started is not a link"
    assert len(screenshots) >= 4
    for href in screenshots:
        assert _local_target(page, href).is_file(), f"getting_started.html: {href} is not in the build"


def test_the_book_map_links_each_row_to_its_api_entry_page_and_preset(html):
    from docs_pages import PLAYGROUND_ADDRESS

    rows = read_book_map(ROOT / "docs" / "book_map.csv")
    for page in (html / "book_map.html", html / "zh" / "book_map.html"):
        text = page.read_text(encoding="utf-8")
        hrefs = _HREF.findall(text)
        broken = [href for href in hrefs
                  if (target := _local_target(page, href)) is not None and not target.is_file()]
        assert not broken, f"{page.name}: links to nothing: {broken[:5]}"
        for row in rows:
            api = f"api/generated/{row['object']}.html#{row['object']}"
            assert any(href.endswith(api) for href in hrefs), f"{page.name}: no API link {api}"
            if row["gallery"]:
                folder, _, script = row["gallery"].partition("/")
                assert any(href.endswith(f"auto_{folder}/{script}.html") for href in hrefs), \
                    f"{page.name}: no link to {row['gallery']}"
            if row["playground"]:
                preset = escape(f"{PLAYGROUND_ADDRESS}#{row['playground']}")
                assert f'href="{preset}"' in text, f"{page.name}: no link to the preset {preset}"
