"""Issue #29 in a real browser: one request at a time, and honest ends.

Seven quick clicks on "step" on 例2.1 gave steps 1, 1, 3, 4, 2, 5, 6: each
click sent a request and the answers were drawn in arrival order. Here the
page's ``fetch`` answers later requests first (as a loaded machine may), and
the table must still be 表2.1 in order, once per step. A run that cannot
converge (the poly hard margin on 西瓜3.0α; the perceptron on 西瓜3.0α) must
end within a bounded time saying so, in the page's language, and the page
must still answer.
"""

import time

import pytest

from .test_browser import TIMEOUT, _open, _rows

pytest.importorskip("playwright")

#: 李航 表2.1: the misclassified point chosen at steps 1..7
TABLE_2_1 = ["x1", "x3", "x3", "x3", "x1", "x3", "x3"]

#: later /api/step calls answer first: call k waits (8 - k) × 80 ms
REORDERING_FETCH = """() => {
  const original = window.fetch;
  let calls = 0;
  window.fetch = async (path, options) => {
    const response = await original(path, options);
    if (String(path).includes("/api/step")) {
      calls += 1;
      await new Promise((r) => setTimeout(r, Math.max(0, 8 - calls) * 80));
    }
    return response;
  };
}"""


def _rapid_clicks(page, n):
    page.evaluate(f"() => {{ for (let k = 0; k < {n}; k++) "
                  "document.querySelector('[data-testid=step-button]').click(); }")


def test_seven_rapid_clicks_give_table_2_1_in_order_once_per_step(page):
    _open(page, "perceptron")
    page.evaluate(REORDERING_FETCH)
    _rapid_clicks(page, 7)
    page.wait_for_function("document.querySelectorAll('#trace tbody tr').length >= 7",
                           timeout=TIMEOUT)
    page.wait_for_timeout(1500)   # any late or duplicate answer would land by now
    rows = [row.split("\t") for row in _rows(page).all_inner_texts()]
    assert [cells[0] for cells in rows] == [str(k) for k in range(1, 8)]
    assert [cells[1] for cells in rows] == TABLE_2_1
    assert rows[-1][2:4] == ["(1, 1)", "-3"]
    assert not page.errors


def test_clicks_after_a_reset_belong_to_the_new_run(page):
    _open(page, "perceptron")
    page.evaluate(REORDERING_FETCH)
    _rapid_clicks(page, 3)
    page.get_by_test_id("reset-button").click()
    _rapid_clicks(page, 2)
    page.evaluate("async () => { await state.queue; }")   # every queued call answered
    page.wait_for_timeout(500)
    rows = [row.split("\t") for row in _rows(page).all_inner_texts()]
    assert [cells[:2] for cells in rows] == [["1", "x1"], ["2", "x3"]]


def _wait_run_ended(page, seconds):
    page.get_by_test_id("run-button").click()
    started = time.perf_counter()
    page.wait_for_function("!document.body.dataset.running "
                           "&& document.querySelectorAll('#trace tbody tr').length > 0",
                           timeout=1000 * seconds)
    return time.perf_counter() - started


def test_the_poly_hard_margin_reports_non_convergence_and_the_page_still_answers(page):
    _open(page, "svm", "watermelon-3.0alpha", kernel="poly")
    elapsed = _wait_run_ended(page, 60)
    status = page.get_by_test_id("status").inner_text()
    assert "未收敛" in status and "20000" in status and "有限的 C" in status, status
    assert "not converged" not in status
    assert elapsed < 60
    # the trace is capped: its head, a row counting the rest, its tail, the result
    assert _rows(page).count() < 1500
    # the page still answers: a reset starts a new run at once
    page.get_by_test_id("reset-button").click()
    page.wait_for_function("document.querySelectorAll('#trace tbody tr').length === 0",
                           timeout=10_000)
    assert not page.errors


def test_the_perceptron_on_non_separable_data_says_so_in_english_too(page):
    _open(page, "perceptron", "watermelon-3.0alpha")
    page.get_by_test_id("lang-select").select_option("en")
    page.get_by_test_id("param-max_epochs").fill("100")
    page.get_by_test_id("param-max_epochs").dispatch_event("change")
    _wait_run_ended(page, 60)
    status = page.get_by_test_id("status")
    text = status.inner_text()
    assert "not converged" in text and "100 epochs" in text and "linearly separable" in text, text
    assert "error" in (status.get_attribute("class") or "")
