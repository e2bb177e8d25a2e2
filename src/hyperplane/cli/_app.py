"""The ``hyperplane`` Typer application and its commands."""

from __future__ import annotations

import typer
from rich.console import Console

from ._tour import run_tour

app = typer.Typer(
    name="hyperplane",
    help="The classic supervised learners, as the textbooks define them.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


@app.callback()
def _root():
    """The classic supervised learners, as the textbooks define them."""


@app.command()
def tour(
    section: list[str] = typer.Option(
        None, "--section", "-s",
        help="Run only these sections (repeatable); default: all."),
):
    """Train every family on the shipped textbook data and show how it learned."""
    run_tour(Console(), sections=section or None)


def main():
    """Entry point of the ``hyperplane`` console script."""
    app()
