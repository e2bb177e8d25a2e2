"""The ``hyperplane`` command line (Typer + Rich).

Its names are imported on first use (PEP 562), so that importing one of its
modules (``hyperplane.cli._heap``, ``hyperplane.cli._data``) does not import
Typer, Rich and pydantic with the application.
"""

from hyperplane._lazy import lazy_exports

__all__ = ["app", "main", "run"]

__getattr__, __dir__ = lazy_exports(__name__, {
    "._app": ("app",),
    "._entry": ("main", "run"),
})
