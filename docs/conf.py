"""Sphinx configuration of the hyperplane documentation.

Build (warnings are errors)::

    python -m sphinx -W --keep-going -b html docs docs/_build/html

Before Sphinx starts, this file writes two kinds of pages that must follow the code and
the data rather than be kept by hand:

* ``api/<subpackage>.rst``: one page per public subpackage listing its ``__all__``,
  so every public name is documented, including names added later;
* ``_generated/book_map_{en,zh}.rst``: the book <-> code map, rendered from
  ``book_map.csv``, the same rows ``tests/docs`` checks.
"""

import os
import sys
from pathlib import Path

DOCS = Path(__file__).resolve().parent
sys.path.insert(0, str(DOCS / "_ext"))
os.environ.setdefault("MPLBACKEND", "Agg")

import hyperplane  # noqa: E402
from docs_pages import write_api_pages, write_book_map_pages  # noqa: E402

write_api_pages(DOCS / "api")
write_book_map_pages(DOCS / "book_map.csv", DOCS / "_generated")

project = "hyperplane"
author = "the hyperplane authors"
copyright = "the hyperplane authors"  # noqa: A001
version = release = hyperplane.__version__
language = "en"
smartquotes = False  # the book map test compares the page with book_map.csv character for character

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.mathjax",
    "sphinx-mathjax-offline",  # MathJax 3 copied into _static: the math renders with no network
    "sphinx.ext.viewcode",
    "numpydoc",
    "sphinx_gallery.gen_gallery",
]

source_suffix = {".rst": "restructuredtext"}
exclude_patterns = ["_build", "_ext", "_templates", "_generated", "exercises",
                    "auto_examples/*.ipynb", "auto_exercises/*.ipynb"]
templates_path = ["_templates"]
# furo: self-contained (no font, script or stylesheet from the network) and responsive, so wide
# tables and code scroll inside their own box instead of being cut at a fixed page width
html_theme = "furo"
html_title = f"hyperplane {release}"
# _static/playground/*.png: the screenshots of Getting started, which link to themselves at full
# size, so the files must be served beside the pages
html_static_path = ["_static"]

autosummary_generate = True
autodoc_default_options = {"member-order": "bysource"}
autodoc_typehints = "none"
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False

sphinx_gallery_conf = {
    "examples_dirs": ["../examples", "exercises"],
    "gallery_dirs": ["auto_examples", "auto_exercises"],
    "filename_pattern": r".*\.py$",  # run every script, not only plot_*.py
    "ignore_pattern": r"(__init__|_helpers)\.py$",
    "reset_modules": ("matplotlib", "gallery_hooks.set_example_file"),
    "within_subsection_order": "FileNameSortKey",
    "download_all_examples": False,
    "write_computation_times": False,
    "remove_config_comments": True,
    "show_signature": False,
}


def _skip_inherited_sklearn_member(app, what, name, obj, skip, options):
    """Leave out the members scikit-learn generates (set_fit_request, ...): their docs are sklearn's."""
    module = getattr(obj, "__module__", None) or ""
    return True if module.startswith("sklearn") else None


def _describe_instances(app, what, name, obj, options, lines):
    """A module-level instance (the CLI's Typer app) says what it is, not its class's docstring."""
    if what == "data" and lines and obj.__doc__ == type(obj).__doc__:
        lines[:] = [f"The ``{type(obj).__module__}.{type(obj).__qualname__}`` instance ``{name}``."]


def setup(app):
    from gallery_hooks import link_gallery_figures, title_example_page

    app.connect("source-read", title_example_page)
    app.connect("doctree-resolved", link_gallery_figures)
    app.connect("autodoc-skip-member", _skip_inherited_sklearn_member)
    app.connect("autodoc-process-docstring", _describe_instances)
