"""The ``hyperplane`` command line (Typer + Rich)."""

from ._app import app, main, run

__all__ = ["app", "main", "run"]
