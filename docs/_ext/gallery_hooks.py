"""Hooks of the docs build, named by string in conf.py so that Sphinx can pickle its configuration."""

import builtins
from pathlib import Path

DOCS = Path(__file__).resolve().parents[1]
GALLERY_SOURCES = (DOCS.parent / "examples", DOCS / "exercises")


def set_example_file(gallery_conf, fname, when):
    """Give the next gallery script the ``__file__`` it has when run as ``python script.py``.

    sphinx-gallery runs a script without ``__file__``; the scripts of examples/
    save their figure next to themselves (``Path(__file__).parent / "out"``), so
    the name is supplied through builtins, where an unbound global is looked up.
    """
    if when != "before" or fname is None:
        return
    for folder in GALLERY_SOURCES:
        path = folder / Path(fname).name
        if path.is_file():
            builtins.__file__ = str(path)
            return


def _display_width(text):
    """Columns the text takes in a monospace font, wide (CJK) characters counting two."""
    import unicodedata

    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def title_example_page(app, docname, source):
    """Make the first line of a gallery script's docstring its page title.

    The scripts of examples/ open with a one-line summary (they are also run as
    plain scripts and read in a terminal), not an underlined reST title; the page
    sphinx-gallery writes from one needs a title to appear in the gallery's table
    of contents.
    """
    if not docname.startswith("auto_examples/") or docname.endswith("/index"):
        return
    label = f".. _sphx_glr_{docname.replace('/', '_')}.py:\n\n"
    text = source[0]
    start = text.find(label)
    if start < 0:
        return
    start += len(label)
    end = text.find("\n", start)
    title, rest = text[start:end], text[end + 1:]
    if rest.startswith(("=", "-", "~")):
        return
    source[0] = text[:end] + "\n" + "=" * _display_width(title) + "\n" + rest


def link_gallery_figures(app, doctree, docname):
    """Make every figure of a gallery page a link to the full-size image.

    sphinx-gallery writes its figures as ``image-sg`` nodes, which Sphinx's own
    "scaled image link" never wraps; a reader clicking a figure should get it at
    full size (``_images/<name>``, where sphinx-gallery copies it), as the
    screenshots of Getting started do.
    """
    import posixpath

    from docutils import nodes
    from sphinx.util.osutil import relative_uri
    from sphinx_gallery.directives import imgsgnode

    if app.builder.format != "html":
        return
    page = app.builder.get_target_uri(docname)
    for figure in list(doctree.findall(imgsgnode)):
        if isinstance(figure.parent, nodes.reference):
            continue
        name = posixpath.basename(figure["uri"])
        link = nodes.reference("", "", refuri=relative_uri(page, f"{app.builder.imagedir}/{name}"),
                               internal=True, classes=["image-reference"])
        # a link directly under a list item or section must hold a plain image in Sphinx's
        # HTML writer; inside a paragraph it may hold any inline content
        holder = nodes.paragraph("", "", link, classes=["sphx-glr-figure-link"])
        figure.replace_self(holder)
        link.append(figure)
