"""The playground in a real browser (headless Chromium via Playwright).

The page's tables must show the books' worked examples: 李航 表2.1, 表2.2 and
例7.1, 周志华's root split table of 西瓜数据集2.0 and the 表4.2 pruning.
"""

import functools
import re

import pytest

pytest.importorskip("playwright")

#: how long a page may take to answer a request (ms); a learner's first numba
#: compile is not in it (:func:`warm`)
TIMEOUT = 60_000


@functools.cache
def warm(learner):
    """Compile ``learner``'s kernels before its page asks, as the playground's
    warm-up does when it starts (``prepare_learner``; the live server runs in
    this process): a first compile takes tens of CPU seconds, over a minute on a
    busy 2-core machine, and would otherwise fall inside a page's wait."""
    from hyperplane.playground._server import prepare_learner

    prepare_learner(learner)


def _open(page, learner, dataset=None, **params):
    warm(learner)
    page.goto(page.base_url + "#" + learner)
    page.get_by_test_id("learner-select").wait_for()
    page.wait_for_function("document.getElementById('status').textContent.length > 1 "
                           "&& document.getElementById('status').textContent !== '…'",
                           timeout=TIMEOUT)
    changed = False
    for key, value in params.items():
        page.get_by_test_id(f"param-{key}").select_option(value)
        changed = True
    if dataset is not None:
        page.get_by_test_id("dataset-select").select_option(dataset)
        changed = True
    if changed:
        _wait_started(page)


def _wait_started(page):
    """Wait until every run the page's controls asked for has started (the page
    marks ``data-starting`` from a reset until its run's start has answered)."""
    page.wait_for_function("!document.body.dataset.starting "
                           "&& !document.getElementById('status').textContent.startsWith('…')",
                           timeout=TIMEOUT)


def _rows(page):
    return page.get_by_test_id("trace-table").locator("tbody tr")


def _last_row(page):
    return _rows(page).last.inner_text()


def _run_to_end(page):
    page.get_by_test_id("run-button").click()
    page.wait_for_function("!document.body.dataset.running "
                           "&& document.querySelectorAll('#trace tbody tr').length > 0",
                           timeout=TIMEOUT)


def test_example_2_1_seven_steps(page):
    _open(page, "perceptron")
    for k in range(1, 8):
        page.get_by_test_id("step-button").click()
        page.wait_for_function(f"document.querySelectorAll('#trace tbody tr').length === {k}",
                               timeout=TIMEOUT)
    cells = _last_row(page).split("\t")
    assert cells[:4] == ["7", "x3", "(1, 1)", "-3"]
    assert "x(1)+x(2)-3" in cells[4]
    assert "117" in page.get_by_test_id("novikoff").inner_text()
    assert not page.errors


def test_example_2_2_ends_with_alpha(page):
    _open(page, "perceptron", variant="dual")
    page.get_by_test_id("lang-select").select_option("en")
    _run_to_end(page)
    rows = [r.split("\t") for r in _rows(page).all_inner_texts()]
    assert rows[-1][2] == "(2, 0, 5)" and rows[-1][3] == "-3"
    assert "converged" in page.get_by_test_id("status").inner_text()
    assert page.get_by_test_id("gram").inner_text().split() == \
        ["18", "21", "6", "21", "25", "7", "6", "7", "2"]
    assert not page.errors


def test_watermelon_2_0_root_split_table(page):
    _open(page, "tree", "watermelon-2.0")
    page.get_by_test_id("step-button").click()
    chosen = page.get_by_test_id("split-table").locator("tr[data-chosen=true]")
    chosen.wait_for(timeout=TIMEOUT)
    assert chosen.inner_text().split("\t")[:2] == ["纹理", "0.381"]
    assert not page.errors


def test_watermelon_3_0_candidate_cuts_and_2_0_alpha_branch_weights(page):
    _open(page, "tree", "watermelon-3.0")
    page.get_by_test_id("step-button").click()
    density = page.get_by_test_id("cuts-密度").locator("tr[data-chosen=true]")
    density.wait_for(timeout=TIMEOUT)
    assert density.inner_text().split("\t") == ["0.3815", "0.262"]
    sugar = page.get_by_test_id("cuts-含糖率").locator("tr[data-chosen=true]")
    assert sugar.inner_text().split("\t") == ["0.126", "0.349"]
    _open(page, "tree", "watermelon-2.0alpha")
    page.get_by_test_id("step-button").click()
    branches = page.get_by_test_id("branch-table")
    branches.wait_for(timeout=TIMEOUT)
    assert "ρ = 0.8824" in branches.inner_text()
    assert [r.split("\t")[1] for r in branches.locator("tr").all_inner_texts()[1:]] == \
        ["0.4667", "0.3333", "0.2"]
    assert not page.errors


def test_table_4_2_post_pruning_ends_at_71_4(page):
    _open(page, "tree", "split-4.2", pruning="post")
    page.get_by_test_id("lang-select").select_option("en")
    _run_to_end(page)
    assert page.get_by_test_id("status").inner_text() == "validation accuracy 71.4%"
    pruning = [r for r in _rows(page).all_inner_texts() if "\tpost-pruning\t" in r]
    assert pruning[0].split("\t")[3] == "42.9% → 57.1%"
    page.get_by_test_id("lang-select").select_option("zh")
    assert page.get_by_test_id("status").inner_text() == "验证精度 71.4%"
    assert sum("\t后剪枝\t" in r for r in _rows(page).all_inner_texts()) == 5
    assert not page.errors


def test_example_7_1_run_to_end(page):
    _open(page, "svm", "example-2.1")
    page.get_by_test_id("lang-select").select_option("en")
    _run_to_end(page)
    cells = _last_row(page).split("\t")
    assert cells[1] == "α = (0.25, 0, 0.25)" and cells[-1] == "-2"
    assert "2 support vectors" in page.get_by_test_id("status").inner_text()
    assert not page.errors


def test_long_run_streams(page):
    """1,000+ steps on 10,000 points arrive in batches while the page stays live.

    The row counts are recorded by the page itself at every change of the
    table, so a run faster than any polling clock is still seen in parts."""
    _open(page, "perceptron", "separable-10000")
    page.evaluate("""() => {
        const body = document.querySelector('#trace tbody');
        window.rowCounts = [];
        new MutationObserver(() => window.rowCounts.push(body.rows.length))
            .observe(body, {childList: true});
    }""")
    page.get_by_test_id("run-button").click()
    page.wait_for_function("!document.body.dataset.running "
                           "&& document.getElementById('status').textContent.includes('已收敛')",
                           timeout=TIMEOUT)
    final = page.evaluate("document.querySelectorAll('#trace tbody tr').length")
    assert final > 1000
    counts = page.evaluate("window.rowCounts")
    partial = [c for c in counts if 0 < c < final]
    assert partial, f"the page only showed the rows once the run had ended: {counts}"
    assert not page.errors


def test_language_switch(page):
    _open(page, "perceptron")
    header = page.get_by_test_id("trace-table").locator("thead")
    assert "迭代次数" in header.inner_text()
    page.get_by_test_id("lang-select").select_option("en")
    assert "step" in header.inner_text() and "misclassified" in header.inner_text()
    assert page.get_by_test_id("step-button").inner_text() == "step"


def test_bp_page_steps_both_rules(page):
    _open(page, "bp")
    page.get_by_test_id("step-button").click()
    page.wait_for_function("document.querySelectorAll('#trace tbody tr').length === 1",
                           timeout=TIMEOUT)
    cells = _last_row(page).split("\t")
    assert cells[1] == "1" and all(re.fullmatch(r"[0-9.e-]+", c) for c in cells[2:])
    assert page.locator("#hidden table").count() == 2
    assert not page.errors


def test_linear_page_drag_moves_boundaries(page):
    _open(page, "linear")
    before = page.get_by_test_id("trace-table").inner_text()
    shape = page.locator("#plot .shapelayer path").first
    shape.wait_for(timeout=TIMEOUT)
    box = shape.bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + 40, y - 60, steps=8)
    page.mouse.up()
    page.wait_for_function(f"document.getElementById('trace').innerText !== {before!r}",
                           timeout=TIMEOUT)
    assert not page.errors
