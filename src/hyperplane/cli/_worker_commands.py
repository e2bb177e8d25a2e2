"""``hyperplane worker status`` and ``hyperplane worker stop``: this user's
kept-warm workers (:mod:`~._worker`). Both always run in-process."""

from __future__ import annotations

import typer

from ._client import Unsafe, ask_all
from ._options import err_console

worker_app = typer.Typer(
    name="worker", no_args_is_help=True,
    help="This user's kept-warm workers (HYPERPLANE_WORKER=off runs commands without one).")


def _replies(op):
    try:
        return ask_all(op)
    except FileNotFoundError:  # no worker directory: no worker ever ran
        return []
    except Unsafe as why:
        err_console.print(f"error: unsafe worker directory: {why}", markup=False)
        raise typer.Exit(1) from None


@worker_app.command()
def status():
    """List the running workers: pid, socket, uptime, commands served."""
    replies = _replies("status")
    for reply in replies:
        typer.echo(f"worker {reply['pid']}: {reply['socket']} (python {reply['python']}), "
                   f"up {reply['uptime_s']:g} s, {reply['served']} commands served, "
                   f"{reply['running']} running, idle exit after {reply['idle_s']:g} s")
    if not replies:
        typer.echo("no worker running")


@worker_app.command()
def stop():
    """Stop every worker of this user: each takes no new command and exits once
    its running commands end (a command whose client was killed is hung up)."""
    replies = _replies("stop")
    for reply in replies:
        typer.echo(f"stopped worker {reply['pid']} ({reply['served']} commands served)")
    if not replies:
        typer.echo("no worker running")
