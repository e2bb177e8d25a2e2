"""The playground's layout and languages in a real browser (headless Chromium).

Every lesson fits 1024×768 and 1400×900 without a horizontal scroll bar or a cut
trace column; the Chinese page shows no English word beyond the books' own symbols;
errors read in both languages; the language switches while a run streams.
"""

import re

import pytest

from .test_browser import TIMEOUT, _open, _rows, _run_to_end
from .test_browser_teaching import _settle, _wait_rows

pytest.importorskip("playwright")


LESSONS = [("perceptron", "example-2.1", {}), ("svm", "example-2.1", {}),
           ("svm", "watermelon-3.0alpha", {"kernel": "rbf"}), ("svm", "sine", {}),
           ("tree", "watermelon-3.0", {}), ("tree", "split-4.2", {"pruning": "post"}),
           ("bp", "xor", {}), ("linear", None, {}),
           ("perceptron", "watermelon-3.0alpha", {"variant": "kernel_perceptron"}),
           ("tree", "loan", {}), ("bp", "watermelon-3.0", {})]


@pytest.mark.parametrize("width, height", [(1024, 768), (1400, 900)])
def test_no_horizontal_overflow_and_no_cut_trace_columns(browser, live_server, width, height):
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    page.base_url, page.errors = live_server, []
    try:
        for learner, dataset, params in LESSONS:
            _open(page, learner, dataset, **params)
            if learner == "svm" and dataset == "watermelon-3.0alpha":
                _run_to_end(page)       # the last row holds α of all 17 samples
            elif learner != "linear":
                for _ in range(3):
                    page.get_by_test_id("step-button").click()
                page.wait_for_function("document.querySelectorAll('#trace tbody tr').length "
                                       ">= 1", timeout=TIMEOUT)
                _settle(page)
            for lang in ("zh", "en"):
                page.get_by_test_id("lang-select").select_option(lang)
                overflow = page.evaluate("document.documentElement.scrollWidth - innerWidth")
                assert overflow <= 0, (learner, dataset, lang, overflow)
                cut = page.evaluate("""() => { const t = document.getElementById('trace');
                    return t.offsetWidth - t.parentElement.clientWidth; }""")
                assert cut <= 0, (learner, dataset, lang, cut, page.evaluate("[document.getElementById('trace').offsetWidth, document.getElementById('trace').parentElement.clientWidth, innerWidth, document.getElementById('right').offsetWidth]"))
                # the teaching panels are not cut either
                panels = page.evaluate("""() => ['model-summary', 'pseudocode', 'tree-drawing', 'validation']
                    .map((id) => document.getElementById(id))
                    .filter((e) => !e.hidden)
                    .map((e) => [e.id, e.scrollWidth - e.clientWidth])""")
                assert all(over <= 0 for _, over in panels), (learner, dataset, lang, panels)
            page.get_by_test_id("lang-select").select_option("zh")
    finally:
        context.close()


#: ASCII words allowed in 中文: symbols and names the books print as they are, the
#: library's name, the file kind and the language menu's "English"
ALLOWED = {"SVR", "SMO", "KKT", "RBF", "Gain", "Gini", "Ent", "NaN", "inf", "Novikoff", "Gram",
           "Fisher", "ratio", "index", "CART", "poly", "XOR", "hyperplane", "CSV", "UTF",
           "JSON",
           "English",
           # the books' own pseudocode: 周志华 图4.2 and 图5.8 write if/then/for/do/return/
           # repeat/until, 李航 算法7.5 α^new,unc; the SMO note cites LIBSVM's WSS3 (Fan,
           # Chen & Lin 2005)
           "TreeGenerate", "node", "then", "else", "end", "for", "all", "return", "repeat",
           "until", "new", "unc", "max", "LIBSVM", "WSS", "Fan", "Chen", "Lin",
           # LIBSVM's names of its duals (the SVM page's formulation menu): C-SVC, ν-SVC
           "SVC"}


def _english_words(text):
    return sorted({w for w in re.findall(r"[A-Za-z]{3,}", text) if w not in ALLOWED})


def page_text(page):
    """Every text the page shows: the HTML's, the tree drawing's and the figures' (SVG)."""
    return page.evaluate("""() => document.body.innerText + "\\n" +
        [...document.querySelectorAll("svg text")].map((t) => t.textContent).join("\\n")""")


@pytest.mark.parametrize("learner, dataset, params", [
    ("perceptron", "example-2.1", {}), ("perceptron", "example-2.1", {"variant": "dual"}),
    ("svm", "example-2.1", {}), ("svm", "sine", {}),
    ("tree", "watermelon-2.0", {}), ("tree", "split-4.2", {"pruning": "post"}),
    ("tree", "split-4.2", {"pruning": "pre"}), ("tree", "watermelon-2.0alpha", {}),
    ("perceptron", "watermelon-3.0alpha", {"max_epochs": "5"}),
    ("perceptron", "watermelon-3.0alpha", {"variant": "kernel_perceptron", "max_epochs": "5"}),
    ("svm", "watermelon-3.0alpha", {"kernel": "poly"}), ("tree", "loan", {}),
    ("tree", "watermelon-3.0", {"criterion": "gain_ratio"}),
    ("bp", "watermelon-3.0", {"max_epochs": "20"}),
    ("svm", "watermelon-3.0alpha", {"kernel": "rbf"}), ("bp", "xor", {"max_epochs": "30"}),
    ("svm", "watermelon-3.0alpha", {"formulation": "nu_svm", "kernel": "rbf"}),
    ("svm", "watermelon-3.0alpha", {"formulation": "one_class", "kernel": "rbf"}),
    ("svm", "sine", {"formulation": "nu_svm"}),
    ("linear", None, {})])
def test_no_english_word_in_the_chinese_status_and_trace(page, learner, dataset, params):
    typed = {k: params.pop(k) for k in ("max_epochs",) if k in params}
    _open(page, learner, dataset, **params)
    for key, value in typed.items():
        page.get_by_test_id(f"param-{key}").fill(value)
        page.get_by_test_id(f"param-{key}").dispatch_event("change")
        _settle(page)
    seen = []
    if learner != "linear":
        page.get_by_test_id("step-button").click()
        _wait_rows(page, 1)
        _settle(page)
        seen.append(page.get_by_test_id("status").inner_text())
        _run_to_end(page)
        _settle(page)
    # the whole page: status, trace, summary, pseudocode, tree drawing, figures, notes
    for text in seen + [page_text(page)]:
        assert _english_words(text) == [], text
    # the switch writes the status and the trace again, in English, and back
    page.get_by_test_id("lang-select").select_option("en")
    english = page.get_by_test_id("status").inner_text() + \
        page.get_by_test_id("trace-table").inner_text()
    assert _english_words(english), english
    assert not re.search(r"[\u4e00-\u9fff]", page.get_by_test_id("status").inner_text())
    # no data in these panels (the tree's notes name its attributes): no 中文 left at all
    for panel in ("model-summary",) + (("pseudocode",) if learner != "tree" else ()):
        assert not re.search(r"[\u4e00-\u9fff]", page.get_by_test_id(panel).inner_text()), panel
    page.get_by_test_id("lang-select").select_option("zh")
    assert _english_words(page_text(page)) == []
    assert not page.errors


def test_errors_in_both_languages(page):
    _open(page, "perceptron")
    page.get_by_test_id("param-eta").fill("-1")
    page.get_by_test_id("param-eta").dispatch_event("change")
    page.wait_for_function("document.getElementById('status').className === 'error'",
                           timeout=TIMEOUT)
    assert page.get_by_test_id("status").inner_text() == "学习率 η: 须大于 0, 收到 -1.0"
    page.get_by_test_id("lang-select").select_option("en")
    assert page.get_by_test_id("status").inner_text() == \
        "learning rate η: must be > 0; got -1.0"
    assert not page.errors


def test_language_switch_while_a_run_streams(page):
    """中文 → English while the steps of a long run arrive: the table, the
    pseudocode and the run's final status end up in English."""
    _open(page, "perceptron", "watermelon-3.0alpha")
    page.get_by_test_id("param-max_epochs").fill("300")
    page.get_by_test_id("param-max_epochs").dispatch_event("change")
    _settle(page)
    page.get_by_test_id("run-button").click()
    page.wait_for_function("document.body.dataset.running "
                           "&& document.querySelectorAll('#trace tbody tr').length > 0",
                           timeout=TIMEOUT)
    switched_while_running = page.evaluate("""() => {
        const running = !!document.body.dataset.running;
        const select = document.querySelector("[data-testid=lang-select]");
        select.value = "en";
        select.dispatchEvent(new Event("change"));
        return running; }""")
    assert switched_while_running
    page.wait_for_function("!document.body.dataset.running", timeout=TIMEOUT)
    _settle(page)
    status = page.get_by_test_id("status").inner_text()
    assert "not converged" in status and "300 epochs" in status, status
    cjk = re.compile(r"[\u4e00-\u9fff]")
    assert not cjk.search(status), status
    header = page.get_by_test_id("trace-table").locator("thead").inner_text()
    assert "misclassified" in header and not cjk.search(header), header
    assert not cjk.search(_rows(page).last.inner_text())
    assert "Algorithm 2.1" in page.get_by_test_id("pseudocode").inner_text()
    assert not page.errors
