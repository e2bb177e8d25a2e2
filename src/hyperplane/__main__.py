"""``python -m hyperplane`` runs the command line."""

from hyperplane.cli import run

run()
