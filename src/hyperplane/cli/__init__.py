"""The ``hyperplane`` command line (Typer + Rich)."""

from ._app import app
from ._entry import main, run

__all__ = ["app", "main", "run"]
