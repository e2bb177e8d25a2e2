"""A live playground server and a headless Chromium page for the browser tests.

Chromium is Debian's (``apt-get install -y chromium``; ``.ci/run`` installs it
when missing), driven by Playwright through ``executable_path``. A failed test
leaves a screenshot of its page in ``$PLAYGROUND_ARTIFACTS`` (default: a
folder in the system's temporary directory).
"""

import os
import shutil
import tempfile
import threading
from pathlib import Path

import pytest

CHROMIUM_FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                  "--disable-component-update", "--no-first-run"]


def chromium_path():
    for name in ("chromium", "chromium-browser"):
        path = shutil.which(name)
        if path:
            return path
    return None


def artifact_dir():
    folder = Path(os.environ.get("PLAYGROUND_ARTIFACTS",
                                 Path(tempfile.gettempdir()) / "hyperplane-playground-artifacts"))
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.hookimpl(tryfirst=True, hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    setattr(item, f"report_{report.when}", report)


@pytest.fixture(scope="session")
def live_server():
    pytest.importorskip("flask")
    pytest.importorskip("plotly")
    from werkzeug.serving import make_server

    from hyperplane.playground import create_app

    server = make_server("127.0.0.1", 0, create_app(), threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}/"
    server.shutdown()


@pytest.fixture(scope="session")
def browser():
    sync_api = pytest.importorskip("playwright.sync_api")
    path = chromium_path()
    if path is None:
        pytest.skip("Chromium is not installed (apt-get install -y chromium; .ci/run does it)")
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=path, headless=True,
                                              args=CHROMIUM_FLAGS)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser, live_server, request):
    context = browser.new_context(viewport={"width": 1400, "height": 950})
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.base_url = live_server
    page.errors = errors
    yield page
    report = getattr(request.node, "report_call", None)
    if report is not None and report.failed:
        page.screenshot(path=str(artifact_dir() / f"{request.node.name}.png"), full_page=True)
    context.close()
