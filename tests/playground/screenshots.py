"""Screenshots of each playground page for the documentation.

    PYTHONPATH=src python tests/playground/screenshots.py docs/_static/playground
    PYTHONPATH=src python tests/playground/screenshots.py /tmp/shots --all

Starts the server in this process and drives headless Chromium (Debian's,
as the browser tests do) through one scene per page, the teaching panels
included (the model summary with 例7.1's w, b and margin, the pseudocode
with its current line, the tree drawing of 图4.4). ``--all`` takes every
scene at 1024×768 (a projector) and 1400×900, in 中文 and in English, each
set in its own folder (``1024x768-zh`` ...), to look at before a release.
"""

import sys
import threading
from pathlib import Path

from playwright.sync_api import sync_playwright
from werkzeug.serving import make_server

sys.path.insert(0, str(Path(__file__).resolve().parent))
from conftest import CHROMIUM_FLAGS, chromium_path  # noqa: E402

from hyperplane.playground import create_app  # noqa: E402


def _ready(page):
    page.wait_for_function("document.getElementById('status').textContent.length > 1 "
                           "&& !document.getElementById('status').textContent.startsWith('…')")
    page.wait_for_timeout(400)


def _run(page):
    page.get_by_test_id("run-button").click()
    page.wait_for_function("!document.body.dataset.running "
                           "&& document.querySelectorAll('#trace tbody tr').length > 0",
                           timeout=300_000)
    page.wait_for_timeout(800)


def _scene(page, base, learner, dataset=None, params=None, lang=None):
    page.goto("about:blank")      # a fresh page, not a jump to another #learner
    page.goto(base + "#" + learner)
    _ready(page)
    lang = page.lang or lang or "zh"
    if lang != "zh":
        page.get_by_test_id("lang-select").select_option(lang)
    for key, value in (params or {}).items():
        control = page.get_by_test_id(f"param-{key}")
        if control.evaluate("e => e.tagName") == "SELECT":
            control.select_option(value)
        else:
            control.fill(str(value))
            control.dispatch_event("change")
        _ready(page)
    if dataset is not None:
        page.get_by_test_id("dataset-select").select_option(dataset)
        _ready(page)


def scenes(page, base, out):
    _scene(page, base, "perceptron")
    for _ in range(7):
        page.get_by_test_id("step-button").click()
        page.wait_for_timeout(150)
    page.wait_for_timeout(600)
    page.screenshot(path=out / "perceptron.png")

    _scene(page, base, "perceptron", "watermelon-3.0alpha",
           {"variant": "kernel_perceptron", "sigma": 0.15, "max_epochs": 20}, lang="en")
    _run(page)
    page.screenshot(path=out / "kernel_perceptron.png")

    _scene(page, base, "svm", "example-2.1")
    for _ in range(2):
        page.get_by_test_id("step-button").click()
        page.wait_for_timeout(300)
    page.screenshot(path=out / "svm_smo_step.png")

    _scene(page, base, "svm", "watermelon-3.0alpha", {"kernel": "rbf", "C": "10",
                                                      "sigma": 0.3})
    _run(page)
    page.screenshot(path=out / "svm.png")

    _scene(page, base, "svm", "sine", {"kernel": "rbf", "C": "10", "epsilon": 0.2})
    _run(page)
    page.screenshot(path=out / "svr.png")

    _scene(page, base, "svm", "example-2.1")        # 例7.1 solved: w, b and the margin
    _run(page)
    page.screenshot(path=out / "svm_example_7_1_summary.png", full_page=True)

    _scene(page, base, "tree", "watermelon-2.0")     # 图4.4 grown, 图4.2's last line marked
    _run(page)
    page.get_by_test_id("back-button").click()
    page.wait_for_timeout(600)
    page.screenshot(path=out / "tree_drawing.png", full_page=True)

    _scene(page, base, "tree", "watermelon-3.0")   # the root: 4.4.1's candidate cuts
    page.get_by_test_id("step-button").click()
    page.wait_for_timeout(900)
    page.screenshot(path=out / "tree_split_table.png", full_page=True)

    _scene(page, base, "tree", "split-4.2", {"pruning": "post"})
    _run(page)
    page.screenshot(path=out / "tree_post_pruning.png", full_page=True)

    _scene(page, base, "bp", "xor", {"max_epochs": 1500})
    _run(page)
    page.screenshot(path=out / "bp.png", full_page=True)

    _scene(page, base, "linear")
    page.wait_for_timeout(800)
    page.screenshot(path=out / "linear.png", full_page=True)


#: (width, height, language or None: each scene's own) of the sets ``--all`` takes
EVERY_SET = [(1024, 768, "zh"), (1024, 768, "en"), (1400, 900, "zh"), (1400, 900, "en")]


def main(out, every=False):
    out = Path(out)
    server = make_server("127.0.0.1", 0, create_app(), threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_port}/"
    sets = EVERY_SET if every else [(1400, 900, None)]
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium_path(), headless=True,
                                             args=CHROMIUM_FLAGS)
        for width, height, lang in sets:
            folder = out / f"{width}x{height}-{lang}" if every else out
            folder.mkdir(parents=True, exist_ok=True)
            page = browser.new_page(viewport={"width": width, "height": height})
            page.lang = lang
            scenes(page, base, folder)
            page.close()
        browser.close()
    server.shutdown()


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if a != "--all"]
    main(args[0] if args else "docs/_static/playground", every="--all" in sys.argv[1:])
