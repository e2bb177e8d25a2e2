"""``hyperplane playground``: loopback unless --allow-remote."""

import pytest
from typer.testing import CliRunner

from hyperplane.cli._app import app

pytest.importorskip("flask")


def test_refuses_a_remote_host_without_the_flag():
    result = CliRunner().invoke(app, ["playground", "--host", "0.0.0.0", "--no-browser"])
    assert result.exit_code == 1
    assert "--allow-remote" in result.output and "Traceback" not in result.output


def test_serves_loopback(monkeypatch):
    import hyperplane.playground as playground

    seen = {}

    def fake_serve(host, port, *, open_browser, allow_remote, ready, progress=None):
        seen.update(host=host, port=port, open_browser=open_browser, allow_remote=allow_remote)
        playground.check_host(host, allow_remote)

    monkeypatch.setattr(playground, "serve", fake_serve)
    result = CliRunner().invoke(app, ["playground", "--no-browser", "--port", "8123"])
    assert result.exit_code == 0, result.output
    assert seen == {"host": "127.0.0.1", "port": 8123, "open_browser": False,
                    "allow_remote": False}
