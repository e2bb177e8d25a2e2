"""Pictures and messages in a real browser (headless Chromium).

The plane at one scale on both axes with the separating line always in view
(李航 例2.1's first line passes below the points), the SVM's margins
w·x + b = ±1 at every SMO step (李航 例7.1), the tree drawing inside its
SVG (周志华 图4.4 and 图4.7), a step's own picture after a streamed run, and
upload and mid-run errors written in the page's language.
"""

import re

import numpy as np
import pytest

from .test_browser import TIMEOUT, _open, _run_to_end, _wait_started
from .test_browser_layout import _english_words, page_text
from .test_browser_teaching import _settle, _wait_rows

pytest.importorskip("playwright")

CJK = re.compile(r"[\u4e00-\u9fff]")


# ------------------------------------------------------------------- the plane
#: per trace of the plane: its points inside the axes' ranges, and the units per pixel
PLANE = """() => {
  const gd = document.getElementById('plot'), L = gd._fullLayout;
  const xr = L.xaxis.range, yr = L.yaxis.range;
  const inside = (x, y) => x >= Math.min(...xr) && x <= Math.max(...xr)
                        && y >= Math.min(...yr) && y <= Math.max(...yr);
  const lines = gd.data.filter((d) => d.mode === 'lines').map((d) => {
    let seen = 0;            // points of the segment, 1/2000 apart, that are in view
    for (let s = 0; s <= 2000; s++) {
      const x = d.x[0] + (d.x[1] - d.x[0]) * s / 2000, y = d.y[0] + (d.y[1] - d.y[0]) * s / 2000;
      if (inside(x, y)) seen += 1;
    }
    // the length in view, as a share of the view's diagonal
    const length = Math.hypot(d.x[1] - d.x[0], d.y[1] - d.y[0]) * seen / 2000;
    const seenShare = length / Math.hypot(xr[1] - xr[0], yr[1] - yr[0]);
    return { name: d.name, seen: seenShare, dash: (d.line || {}).dash || null };
  });
  return { lines,
           xPerPixel: Math.abs(xr[1] - xr[0]) / L.xaxis._length,
           yPerPixel: Math.abs(yr[1] - yr[0]) / L.yaxis._length };
}"""


def test_example_2_1_first_line_is_in_view_at_one_scale(page):
    # 表2.1's first update: 3x(1) + 3x(2) + 1 = 0, below and left of all three points
    _open(page, "perceptron")
    page.get_by_test_id("step-button").click()
    _wait_rows(page, 1)
    _settle(page)
    plane = page.evaluate(PLANE)
    assert plane["xPerPixel"] == pytest.approx(plane["yPerPixel"], rel=0.02)
    (line,) = plane["lines"]
    assert line["seen"] > 0.1, plane       # a tenth of the view's diagonal at least
    # the points stay in view as well: 3 is the largest coordinate of x1 = (3, 3)
    ranges = page.evaluate("[document.getElementById('plot')._fullLayout.xaxis.range, "
                           "document.getElementById('plot')._fullLayout.yaxis.range]")
    assert max(ranges[0]) > 4 and max(ranges[1]) > 3 and min(ranges[1]) < -1 / 3
    assert not page.errors


@pytest.fixture
def own_server_page(page):
    """``page`` on a server of its own: an upload adds a dataset to every later
    page of the session's server."""
    import threading

    from werkzeug.serving import make_server

    from hyperplane.playground import create_app

    server = make_server("127.0.0.1", 0, create_app(), threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    page.base_url = f"http://127.0.0.1:{server.server_port}/"
    yield page
    server.shutdown()


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_large_dataset_after_example_2_1_is_drawn_whole(own_server_page, lang):
    """An upload of 10,000 points after 例2.1's three: the points become WebGL
    markers, and Plotly.react then kept 例2.1's x range (most of the new points
    drawn outside it), so every point must lie inside the axes, before and after
    quick steps."""
    page = own_server_page
    page.set_viewport_size({"width": 1024, "height": 768})
    _open(page, "perceptron")
    page.get_by_test_id("lang-select").select_option(lang)
    rng = np.random.default_rng(0)
    xy = rng.uniform(-1, 1, size=(10_000, 2))              # left of and below 例2.1's view
    side = xy[:, 0] + xy[:, 1] > 0
    csv = "a,b,label\n" + "".join(f"{float(a)!r},{float(b)!r},{'yes' if c else 'no'}\n"
                                   for (a, b), c in zip(xy, side))
    page.get_by_test_id("upload-file").set_input_files(
        files=[{"name": "plane.csv", "mimeType": "text/csv", "buffer": csv.encode()}])
    page.locator("#upload-form button").click()
    page.wait_for_function("state.info && state.info.points.x.length === 10000", timeout=TIMEOUT)
    _wait_started(page)
    for clicks in (0, 5):
        for _ in range(clicks):
            page.get_by_test_id("step-button").click(delay=0)
        if clicks:
            _wait_rows(page, clicks)
        _settle(page)
        outside = page.evaluate("""() => {
          const gd = document.getElementById('plot'), L = gd._fullLayout, pts = state.info.points;
          const [x0, x1] = L.xaxis.range, [y0, y1] = L.yaxis.range;
          return pts.x.filter((x, i) => x < x0 || x > x1 || pts.y[i] < y0 || pts.y[i] > y1).length;
        }""")
        assert outside == 0, (clicks, outside)
    assert not page.errors


def test_smo_steps_draw_the_line_and_both_margins(page):
    _open(page, "svm", "example-2.1")
    for k in (1, 2):
        page.get_by_test_id("step-button").click()
        _wait_rows(page, k)
    _settle(page)
    plane = page.evaluate(PLANE)
    assert plane["xPerPixel"] == pytest.approx(plane["yPerPixel"], rel=0.02)
    names = sorted(line["name"] for line in plane["lines"])
    assert names == ["w·x+b=+1", "w·x+b=-1", "w·x+b=0"], plane
    assert all(line["seen"] > 0 for line in plane["lines"]), plane
    assert sorted(str(line["dash"]) for line in plane["lines"]) == ["None", "dash", "dash"]
    assert not page.errors


# ---------------------------------------------------------- the tree drawing
@pytest.mark.parametrize("dataset, params", [("watermelon-2.0", {}), ("watermelon-3.0", {}),
                                             ("split-4.2", {"pruning": "post"})])
def test_every_tree_node_is_inside_the_drawing(page, dataset, params):
    _open(page, "tree", dataset, **params)
    page.get_by_test_id("step-button").click()       # the root alone: its number too
    _wait_rows(page, 1)
    _settle(page)
    for stage in ("root", "grown"):
        outside = page.evaluate("""() => {
          const svg = document.querySelector('[data-testid=tree-svg]').getBoundingClientRect();
          return [...document.querySelectorAll('[data-testid=tree-drawing] [data-node]')]
            .flatMap((g) => [g, ...g.querySelectorAll('text, rect')]).map((e) => {
              const r = e.getBoundingClientRect();
              return { node: e.closest('[data-node]').dataset.node, tag: e.tagName,
                       out: Math.max(svg.left - r.left, r.right - svg.right,
                                     svg.top - r.top, r.bottom - svg.bottom) };
            }).filter((e) => e.out > 0.5); }""")
        assert outside == [], (stage, outside)
        if stage == "root":
            assert page.get_by_test_id("tree-drawing").locator("[data-node]").count() == 1
            _run_to_end(page)
            _settle(page)
    assert not page.errors


# --------------------------------------------- a step's picture after a stream
PICTURE = """() => JSON.stringify([document.getElementById('plot').data.map((d) => d.z || null),
                                   document.getElementById('hidden').innerText])"""


#: the last step of the run but one that the stream sent without its picture
LAST_UNDRAWN = """() => { for (let k = state.steps.length - 1; k >= 1; k--)
                            if (state.steps[k - 1].undrawn) return k;
                          return 0; }"""


def _stream_bp(page, epochs):
    """BP on XOR streamed to the end: every step is an epoch with its regions and
    hidden outputs; a stream draws only the last step of each batch (0.1 s)."""
    _open(page, "bp", "xor")
    page.get_by_test_id("param-max_epochs").fill(str(epochs))
    page.get_by_test_id("param-max_epochs").dispatch_event("change")
    _settle(page)
    _run_to_end(page)
    _settle(page)
    assert page.evaluate("state.steps.length") == epochs
    k = page.evaluate(LAST_UNDRAWN)
    assert k > 0, "every batch held one step: nothing undrawn to test"
    page.evaluate(f"async () => {{ for (let i = 0; i < {epochs - k}; i++) await back(); }}")
    _settle(page)
    assert page.evaluate("state.view") == k
    return k


def test_back_after_a_stream_shows_the_step_s_own_picture(page, browser, live_server):
    k = _stream_bp(page, 200)
    assert "undrawn" not in page.evaluate(f"Object.keys(state.steps[{k - 1}])")
    streamed = page.evaluate(PICTURE)

    # the same step reached one request at a time: each answer drawn
    context = browser.new_context(viewport={"width": 1400, "height": 950})
    stepped = context.new_page()
    stepped.base_url = live_server
    try:
        _open(stepped, "bp", "xor")
        stepped.get_by_test_id("param-max_epochs").fill("200")
        stepped.get_by_test_id("param-max_epochs").dispatch_event("change")
        _settle(stepped)
        stepped.evaluate(f"async () => {{ for (let i = 0; i < {k}; i++) "
                         "await advance('step'); }")
        _settle(stepped)
        assert stepped.evaluate("state.view") == k
        assert streamed == stepped.evaluate(PICTURE)
    finally:
        context.close()
    # and forward again: the kept steps after it get their own pictures too
    page.get_by_test_id("step-button").click()
    _settle(page)
    assert page.evaluate("state.view") == k + 1
    assert "undrawn" not in page.evaluate(f"Object.keys(state.steps[{k}])")
    assert not page.errors


# ------------------------------------------------------------ errors, 中文 and English
def _status_error(page):
    page.wait_for_function("document.getElementById('status').className === 'error'",
                           timeout=TIMEOUT)
    return page.get_by_test_id("status").inner_text()


@pytest.mark.parametrize("content, target, zh, en", [
    (b"a,b\n1,2,3\n", "", "不是可读的 CSV 表格", "line 2: 3 fields"),
    (b"a,b\n", "", "只有表头", "has a header but no rows"),
    (b"a,b\n1,2\n", "z", "没有名为 z 的列; 列为 a, b",
     "no column named z; the columns are a, b"),
    (b"a,b\n1,\n2,1\n", "", "标签列 b 有缺失值 (行 1)", "missing values (rows 1)"),
    (b"\xff\xfe\x00\x81\x30", "", "不是 UTF-8", "is not text in UTF-8"),
])
def test_upload_errors_in_both_languages(page, content, target, zh, en):
    _open(page, "tree")
    page.get_by_test_id("upload-file").set_input_files(
        files=[{"name": "数据.csv", "mimeType": "text/csv", "buffer": content}])
    page.locator("#upload-target").fill(target)
    page.locator("#upload-form button").click()
    text = _status_error(page)
    assert zh in text, text
    assert _english_words(text.replace("数据.csv", "")) == [], text
    assert _english_words(page_text(page).replace("数据.csv", "")) == []
    page.get_by_test_id("lang-select").select_option("en")
    text = page.get_by_test_id("status").inner_text()
    assert en in text and not CJK.search(text.replace("数据", "")), text
    assert not page.errors


def test_a_failure_in_the_middle_of_a_run_in_both_languages(page, monkeypatch):
    from hyperplane.playground import _bp

    def diverging(*args):
        yield {"row": ["1", "0.1", "0.1", "0.5", "0.5"], "epoch_end": True, "line": "until"}
        raise ValueError("the training loss became inf in epoch 2: backpropagation diverged")

    monkeypatch.setattr(_bp, "bp_steps", diverging)
    _open(page, "bp", "xor")
    page.get_by_test_id("run-button").click()
    text = _status_error(page)
    assert "运行在第 1 步之后出错" in text, text
    assert _english_words(page_text(page)) == []
    page.get_by_test_id("lang-select").select_option("en")
    text = page.get_by_test_id("status").inner_text()
    assert text == ("the run failed after step 1: the training loss became inf in epoch 2: "
                    "backpropagation diverged"), text
    assert not page.errors


def test_a_run_the_server_forgot_says_so_in_both_languages(page):
    _open(page, "perceptron")
    # 32 newer runs push this page's run out of the server's memory
    page.evaluate("""async () => { for (let i = 0; i < 33; i++)
        await api('/api/start', { learner: 'perceptron', dataset: 'example-2.1',
                                  params: {} }); }""")
    page.get_by_test_id("step-button").click()
    text = _status_error(page)
    assert "这次运行已不在服务器上" in text and "重置" in text, text
    assert _english_words(page_text(page)) == []
    page.get_by_test_id("lang-select").select_option("en")
    assert "no longer on the server" in page.get_by_test_id("status").inner_text()
    page.get_by_test_id("reset-button").click()        # and reset starts a new one
    page.get_by_test_id("step-button").click()
    _wait_rows(page, 1)
    assert not page.errors


def test_a_picture_the_server_cannot_replay_in_time_is_not_faked(page, monkeypatch):
    from hyperplane.playground import _runs

    monkeypatch.setattr(_runs, "PICTURE_SECONDS", 0.0)    # every replay past its budget
    k = _stream_bp(page, 60)
    # no earlier step's regions or hidden outputs pass for step k's; the status says why
    assert page.evaluate("(document.getElementById('plot').data || []).length") == 0
    assert page.locator("#hidden").inner_text() == ""
    status = page.get_by_test_id("status").inner_text()
    assert "此步的图未重算" in status and str(k) in status, status
    page.get_by_test_id("lang-select").select_option("en")
    assert "picture is not shown" in page.get_by_test_id("status").inner_text()
    assert not page.errors
