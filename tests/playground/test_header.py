"""The header (title, learner, dataset, upload, language) stays on one row on a
projector's 1024×768 and on 1400×900, in 中文 and in English, on every page."""

import pytest

pytest.importorskip("playwright")

TIMEOUT = 60_000
LEARNERS = ("perceptron", "svm", "tree", "bp", "linear")

#: the vertical extent of each of the header's items, and the header's height
ROWS = """() => {
  const header = document.querySelector('header');
  const items = [...header.children].filter((e) => e.offsetParent !== null)
    .map((e) => { const r = e.getBoundingClientRect(); return [e.tagName + '.' + e.className,
                                                               r.top, r.bottom]; });
  return {items, height: header.getBoundingClientRect().height};
}"""


def one_row(layout):
    """Whether every item of the header shares a horizontal line with every other."""
    tops = [top for _, top, _ in layout["items"]]
    bottoms = [bottom for _, _, bottom in layout["items"]]
    return max(tops) < min(bottoms)


@pytest.mark.parametrize("width, height", [(1024, 768), (1400, 900)])
def test_the_header_is_one_row(browser, live_server, width, height):
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    try:
        for learner in LEARNERS:
            page.goto("about:blank")
            page.goto(live_server + "#" + learner)
            page.wait_for_function("document.getElementById('status').textContent.length > 1 "
                                   "&& !document.getElementById('status').textContent"
                                   ".startsWith('…')", timeout=TIMEOUT)
            for lang in ("zh", "en"):
                page.get_by_test_id("lang-select").select_option(lang)
                layout = page.evaluate(ROWS)
                assert one_row(layout), (learner, lang, layout)
                overflow = page.evaluate("document.documentElement.scrollWidth - innerWidth")
                assert overflow <= 0, (learner, lang, overflow)
    finally:
        context.close()
