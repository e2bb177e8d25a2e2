"""The playground as a teaching tool, in a real browser (headless Chromium).

Controls (back, play/pause at a speed, keys, a preset link in the URL hash,
reset keeping clicked points), the model summary (李航 例7.1: w = (1/2, 1/2),
b = −2, margin 2/‖w‖ = 2√2), the books' pseudocode with the current line
marked, the tree drawn as it grows (周志华 图4.4 on 西瓜数据集2.0; 图4.5 → 4.7's
pruned nodes).
"""

import math
import re

import pytest

from .test_browser import TIMEOUT, _open, _rows, _run_to_end, warm

pytest.importorskip("playwright")


def _row_count(page):
    return page.evaluate("document.querySelectorAll('#trace tbody tr').length")


def _wait_rows(page, n):
    page.wait_for_function(f"document.querySelectorAll('#trace tbody tr').length === {n}",
                           timeout=TIMEOUT)


def _settle(page):
    page.evaluate("async () => { await state.queue; }")


# ------------------------------------------------------------------ controls
def test_back_steps_to_every_earlier_step_and_forward_replays_them(page):
    _open(page, "perceptron")
    for k in range(1, 6):
        page.get_by_test_id("step-button").click()
        _wait_rows(page, k)
    table = _rows(page).all_inner_texts()
    requests = []
    page.on("request", lambda r: requests.append(r.url) if "/api/" in r.url else None)
    for k in range(4, -1, -1):
        page.get_by_test_id("back-button").click()
        _wait_rows(page, k)
        _settle(page)
        assert _rows(page).all_inner_texts() == table[:k]
        if k:   # the summary and the status are those of step k
            assert page.get_by_test_id("status").inner_text() == f"步: {k}"
            w = table[k - 1].split("\t")[2]
            assert f"w = {w}" in page.get_by_test_id("model-summary").inner_text()
    assert "w = 0, b = 0" in page.get_by_test_id("model-summary").inner_text()
    for k in range(1, 6):
        page.get_by_test_id("step-button").click()
        _wait_rows(page, k)
    _settle(page)
    assert _rows(page).all_inner_texts() == table
    assert requests == []          # stepping back and forth again asks the server nothing
    page.get_by_test_id("step-button").click()   # step 6 is new: the server's
    _wait_rows(page, 6)
    assert _rows(page).nth(5).inner_text().split("\t")[:2] == ["6", "x3"]
    assert any("/api/step" in url for url in requests)
    assert not page.errors


def test_keyboard_steps_back_and_plays(page):
    _open(page, "perceptron")
    page.locator("body").click(position={"x": 5, "y": 300})
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    _wait_rows(page, 2)
    page.keyboard.press("ArrowLeft")
    _wait_rows(page, 1)
    page.get_by_test_id("speed-input").fill("20")
    page.get_by_test_id("speed-input").dispatch_event("change")
    page.locator("body").click(position={"x": 5, "y": 300})
    page.keyboard.press(" ")
    assert page.evaluate("document.body.dataset.playing") == "true"
    # 表2.1 has 7 updates and a last row without one: playing stops at the end
    page.wait_for_function("!document.body.dataset.playing", timeout=TIMEOUT)
    assert _row_count(page) == 8
    assert [r.split("\t")[1] for r in _rows(page).all_inner_texts()] == \
        ["x1", "x3", "x3", "x3", "x1", "x3", "x3", "0"]
    # space with the focus on a button plays or pauses, and does not press the button
    page.get_by_test_id("back-button").click()
    _wait_rows(page, 7)
    page.keyboard.press(" ")
    assert page.evaluate("document.body.dataset.playing") == "true"
    page.keyboard.press(" ")
    _settle(page)
    assert page.evaluate("document.body.dataset.playing") is None
    assert _row_count(page) >= 7
    assert not page.errors


def test_play_and_pause_at_a_speed(page):
    _open(page, "svm", "watermelon-3.0alpha", kernel="rbf")
    page.get_by_test_id("param-C").fill("1")
    page.get_by_test_id("param-C").dispatch_event("change")
    page.wait_for_timeout(500)
    page.get_by_test_id("speed-input").fill("10")
    page.get_by_test_id("speed-input").dispatch_event("change")
    page.get_by_test_id("play-button").click()
    page.wait_for_function("document.querySelectorAll('#trace tbody tr').length >= 4",
                           timeout=TIMEOUT)
    assert page.get_by_test_id("play-button").is_disabled()
    page.get_by_test_id("pause-button").click()
    _settle(page)
    paused = _row_count(page)
    page.wait_for_timeout(600)      # six more ticks at 10 steps/s, had it gone on
    assert _row_count(page) == paused
    assert page.get_by_test_id("pause-button").is_disabled()
    assert "speed=10" in page.evaluate("location.hash")
    assert not page.errors


def test_the_url_hash_reopens_the_same_page(page):
    warm("svm")
    page.goto(page.base_url + "#learner=svm&dataset=watermelon-3.0alpha&kernel=rbf&C=10"
              "&sigma=0.3&lang=en")
    page.wait_for_function("document.getElementById('status').textContent.includes('SVM')",
                           timeout=TIMEOUT)
    assert page.get_by_test_id("learner-select").input_value() == "svm"
    assert page.get_by_test_id("dataset-select").input_value() == "watermelon-3.0alpha"
    assert page.get_by_test_id("param-kernel").input_value() == "rbf"
    assert page.get_by_test_id("param-C").input_value() == "10"
    assert page.get_by_test_id("param-sigma").input_value() == "0.3"
    assert page.get_by_test_id("step-button").inner_text() == "step"
    # a changed parameter goes into the hash: the link now names it
    page.get_by_test_id("param-epsilon").fill("0.2")
    page.get_by_test_id("param-epsilon").dispatch_event("change")
    page.wait_for_function("location.hash.includes('epsilon=0.2')", timeout=TIMEOUT)
    link = page.evaluate("location.href")
    page.goto("about:blank")
    page.goto(link)
    page.wait_for_function("document.getElementById('status').textContent.includes('SVM')",
                           timeout=TIMEOUT)
    assert page.get_by_test_id("param-epsilon").input_value() == "0.2"
    assert page.get_by_test_id("param-kernel").input_value() == "rbf"
    # the old form, #learner, still opens a learner's page
    page.goto("about:blank")
    warm("tree")
    page.goto(page.base_url + "#tree")
    page.wait_for_function("document.getElementById('learner').value === 'tree'",
                           timeout=TIMEOUT)
    assert not page.errors


def test_reset_keeps_the_clicked_points(page):
    _open(page, "perceptron", "clicked")
    plot = page.locator("#plot .nsewdrag").first
    plot.wait_for(timeout=TIMEOUT)
    box = plot.bounding_box()
    for fx, fy, label in [(0.2, 0.2, "1"), (0.3, 0.3, "1"), (0.8, 0.8, "-1")]:
        page.get_by_test_id("param-click_class").select_option(label)
        page.mouse.click(box["x"] + fx * box["width"], box["y"] + fy * box["height"])
        page.wait_for_timeout(200)
    _settle(page)
    assert page.evaluate("state.clicked.length") == 3
    page.get_by_test_id("step-button").click()
    _wait_rows(page, 1)
    page.get_by_test_id("reset-button").click()
    _wait_rows(page, 0)
    _settle(page)
    assert page.evaluate("state.clicked.length") == 3
    assert page.evaluate("state.info.points.x.length") == 3
    page.get_by_test_id("clear-points-button").click()
    _settle(page)
    assert page.evaluate("state.clicked.length") == 0
    assert not page.errors


# ------------------------------------------------------------- model summary
def test_example_7_1_model_summary_at_every_step(page):
    _open(page, "svm", "example-2.1")
    summary = page.get_by_test_id("model-summary")
    for k in range(1, 4):
        page.get_by_test_id("step-button").click()
        _wait_rows(page, k)
        _settle(page)
        text = summary.inner_text()
        assert re.search(r"w = \(.+\)", text) and "b = " in text and "2/‖w‖ = " in text, text
    page.get_by_test_id("step-button").click()
    _wait_rows(page, 4)
    _settle(page)
    text = summary.inner_text()
    # 李航 例7.1: w = (1/2, 1/2), b = -2, margin 2/‖w‖ = 2√2
    assert "w = (0.5, 0.5)" in text and "b = -2" in text
    margin = float(re.search(r"2/‖w‖ = ([0-9.]+)", text).group(1))
    assert margin == pytest.approx(2 * math.sqrt(2), abs=1e-4)
    assert not page.errors


def test_a_kernel_s_w_is_not_written_out(page):
    _open(page, "perceptron", "watermelon-3.0alpha", variant="kernel_perceptron")
    page.get_by_test_id("step-button").click()
    _wait_rows(page, 1)
    _settle(page)
    b = _rows(page).first.inner_text().split("\t")[-1]
    assert page.get_by_test_id("summary-text").inner_text() == \
        f"w 在核函数的特征空间中, 不显式写出; b = {b}"
    assert "K(xⱼ, xᵢ)" in page.get_by_test_id("pseudocode").inner_text()
    assert not page.errors


def test_linear_page_summary_per_model(page):
    _open(page, "linear")
    text = page.get_by_test_id("model-summary").inner_text()
    assert text.count("2/‖w‖") == 3 and "Fisher" in text
    assert not page.errors


# ---------------------------------------------------------------- pseudocode
def _current(page):
    return page.get_by_test_id("pseudocode").locator(".current")


def test_pseudocode_marks_the_line_each_step_executes(page):
    _open(page, "perceptron")
    code = page.get_by_test_id("pseudocode")
    assert "算法2.1" in code.inner_text() and _current(page).count() == 0
    page.get_by_test_id("step-button").click()
    _wait_rows(page, 1)
    _settle(page)
    line = _current(page)
    assert line.get_attribute("data-line") == "update"
    assert "x1" in line.inner_text() and "w = (3, 3), b = 1" in line.inner_text()
    page.get_by_test_id("lang-select").select_option("en")
    assert "Algorithm 2.1" in code.inner_text()
    assert "misclassified x1: w = (3, 3), b = 1" in _current(page).inner_text()
    _run_to_end(page)
    assert _current(page).get_attribute("data-line") == "stop"

    _open(page, "perceptron", variant="dual")
    page.get_by_test_id("step-button").click()
    _wait_rows(page, 1)
    _settle(page)
    assert "Algorithm 2.2" in code.inner_text()
    assert "α = (1, 0, 0), b = 1" in _current(page).inner_text()
    assert not page.errors


def test_pseudocode_of_the_linear_closed_forms(page):
    """周志华 式3.11, 3.39 and 3.29–3.31 with 西瓜3.0α's numbers; a drag refits
    and refills them."""
    _open(page, "linear")
    code = page.get_by_test_id("pseudocode")
    assert code.get_attribute("data-algorithm") == "linear"
    assert "式3.11" in code.inner_text() and "S_w⁻¹(μ₀ − μ₁)" in code.inner_text()
    lines = [_current(page).nth(k).get_attribute("data-line")
             for k in range(_current(page).count())]
    assert lines == ["ls_gram", "ls_solve", "lda_means", "lda_scatter", "lda_solve",
                     "lr_gradient", "lr_hessian", "lr_step"]
    scatter = code.locator("[data-line=lda_scatter]").inner_text()
    assert re.search(r"S_w = \[\([-\d.]+, [-\d.]+\); \([-\d.]+, [-\d.]+\)\]", scatter), scatter
    # 西瓜3.0α has 8 good and 9 bad melons: X̂ᵀy's last entry counts the good ones
    assert re.search(r"X̂ᵀy = \([-\d.]+, [-\d.]+, 8\)",
                     code.locator("[data-line=ls_gram]").inner_text())
    page.get_by_test_id("lang-select").select_option("en")
    assert "chapter 3" in code.inner_text() and "within-class scatter" in code.inner_text()
    assert "plus a small ridge term" in code.locator("[data-line=lr_step]").inner_text()
    assert not page.errors


def test_pseudocode_of_smo_tree_and_bp(page):
    _open(page, "svm", "example-2.1")
    page.get_by_test_id("step-button").click()
    _wait_rows(page, 1)
    _settle(page)
    code = page.get_by_test_id("pseudocode")
    assert "算法7.5" in code.inner_text() and "二阶" in code.inner_text() \
        and "max |E₁ − E₂|" in code.inner_text()
    assert [line.get_attribute("data-line") for line in _current(page).all()] == \
        ["select", "clip"]
    assert "(x2, x3)" in _current(page).first.inner_text()
    # 李航 算法7.5 on 例2.1's points from α = 0, b = 0: E₂ = −y₂ = −1, E₃ = −y₃ = 1,
    # η = K₂₂ + K₃₃ − 2K₂₃ = 25 + 2 − 14 = 13; α₂ = α₃ = 2/13, so 式7.115-7.116 give
    # b₁ = 1 − (25 − 7)·2/13 = −23/13 and b₂ = −1 − (7 − 2)·2/13 = −23/13
    assert "E_i = -1, E_j = 1, η = 13" in _current(page).first.inner_text()
    assert "b₁ = -1.7692, b₂ = -1.7692" in _current(page).last.inner_text()
    assert "b = -1.7692" in _current(page).last.inner_text()

    _open(page, "tree", "watermelon-2.0")
    for k in (1, 2, 3):
        page.get_by_test_id("step-button").click()
        _wait_rows(page, k)
    _settle(page)
    assert "图4.2" in code.inner_text()
    assert _current(page).get_attribute("data-line") == "leaf_class"   # 根蒂 = 蜷缩: 是
    assert "是" in _current(page).inner_text()
    page.get_by_test_id("back-button").click()
    _wait_rows(page, 2)
    _settle(page)
    assert _current(page).get_attribute("data-line") == "choose"
    assert "a* = 根蒂" in _current(page).inner_text()

    _open(page, "bp")
    page.get_by_test_id("step-button").click()
    _wait_rows(page, 1)
    _settle(page)
    assert "图5.8" in code.inner_text()
    assert _current(page).get_attribute("data-line") == "until"
    assert "第 1 轮" in _current(page).inner_text()
    assert not page.errors


# -------------------------------------------------------------- tree drawing
#: 周志华 图4.4 (ID3 on 西瓜数据集2.0), numbered in the order TreeGenerate makes the nodes
FIGURE_4_4 = {1: "纹理 = ?", 2: "根蒂 = ?", 3: "是", 4: "色泽 = ?", 5: "是", 6: "触感 = ?",
              7: "是", 8: "否", 9: "是", 10: "否", 11: "触感 = ?", 12: "否", 13: "是", 14: "否"}


def _nodes(page):
    drawing = page.get_by_test_id("tree-drawing")
    return {int(n.get_attribute("data-node")): n for n in drawing.locator("[data-node]").all()}


def _node_text(node):
    return node.locator("text").first.text_content()


def test_figure_4_4_drawn_as_it_grows(page):
    _open(page, "tree", "watermelon-2.0")
    for k in (1, 2):
        page.get_by_test_id("step-button").click()
        _wait_rows(page, k)
    _settle(page)
    nodes = _nodes(page)
    assert sorted(nodes) == [1, 2]
    assert "current" in nodes[2].get_attribute("class")
    assert "current" not in nodes[1].get_attribute("class")
    _run_to_end(page)
    nodes = _nodes(page)
    assert {k: _node_text(n) for k, n in nodes.items()} == FIGURE_4_4
    assert all("pruned" not in n.get_attribute("class") for n in nodes.values())
    branches = page.get_by_test_id("tree-drawing").locator(".edge text").all_text_contents()
    assert branches[:3] == ["清晰", "蜷缩", "稍蜷"]
    page.get_by_test_id("back-button").click()      # back into the growth: node 14 current
    _settle(page)
    assert "current" in _nodes(page)[14].get_attribute("class")
    assert not page.errors


def test_table_4_2_post_pruning_greys_the_pruned_subtrees(page):
    _open(page, "tree", "split-4.2", pruning="post")
    _run_to_end(page)
    nodes = _nodes(page)
    assert _node_text(nodes[1]) == "脐部 = ?"
    pruned = sorted(k for k, n in nodes.items() if "pruned" in n.get_attribute("class"))
    cut = sorted(k for k, n in nodes.items() if "cut" in n.get_attribute("class"))
    # 图4.7: 纹理 (node 10) and 色泽 under 凹陷 (node 2) become leaves, their children grey
    assert cut == [2, 10] and pruned == [3, 4, 5, 11, 12, 13]
    assert _node_text(nodes[2]) == "是"
    assert not page.errors


def _edge_weights(page, rule):
    return page.evaluate(f"""() => [...document.querySelectorAll(
        "[data-testid=bp-network] svg[data-rule={rule}] line")].map((l) => +l.dataset.weight)""")


def test_bp_network_drawn_with_its_weights_at_every_step(page):
    """周志华 图5.7 on XOR (2-4-1): every edge v_ih, w_hj drawn with its weight
    (width: size, colour: sign), every unit with its threshold, redrawn at each
    step and on stepping back; the weights are those of the same network trained
    here with MLPClassifier (the book's init, seed 0) for as many epochs."""
    import numpy as np

    from hyperplane.neural import MLPClassifier
    from hyperplane.playground._data import dataset_by_name

    X, y = dataset_by_name("xor", {})
    X = np.asarray(X, dtype=float)
    nets = {rule: MLPClassifier(hidden_layer_sizes=(4,), bp=rule, loss="squared_error",
                                activation="sigmoid", init="book", learning_rate=1.0,
                                shuffle=False, random_state=0) for rule in ("standard", "accumulated")}
    _open(page, "bp")
    seen = []
    for k in (1, 2):
        page.get_by_test_id("step-button").click()
        _wait_rows(page, k)
        _settle(page)
        drawing = page.get_by_test_id("bp-network")
        for rule, net in nets.items():
            net.partial_fit(X, y, classes=np.unique(y))
            expected = np.concatenate([net.coefs_[0].ravel(), net.coefs_[1].ravel()])
            np.testing.assert_allclose(_edge_weights(page, rule), expected, atol=1e-4)
            units = drawing.locator(f"svg[data-rule={rule}] g")
            assert [units.nth(i).get_attribute("data-layer") for i in range(units.count())] == \
                ["0", "0", "1", "1", "1", "1", "2"]
            theta = drawing.locator(f"svg[data-rule={rule}] g[data-layer='2'] text").text_content()
            assert theta == f"θ1={round(-float(net.intercepts_[1][0]), 4):g}"
        seen.append(_edge_weights(page, "standard"))
    assert seen[0] != seen[1]
    assert page.locator("#plot3 .scatterlayer .trace").count() == 2     # the error curves
    page.get_by_test_id("back-button").click()
    _wait_rows(page, 1)
    _settle(page)
    assert _edge_weights(page, "standard") == seen[0]
    assert not page.errors


# ------------------------------------------------- 表4.2's validation rows
def _step_to_validation(page):
    """Step until the first pruning decision shows 表4.2's validation rows."""
    table = page.get_by_test_id("validation-table")
    for _ in range(40):
        page.get_by_test_id("step-button").click()
        _settle(page)
        if table.is_visible():
            return table
    raise AssertionError("no pruning decision showed the validation rows")


def _validation_rows(table):
    rows = table.locator("tbody tr")
    return {r.get_attribute("data-row"): r for r in rows.all()}


def test_table_4_2_post_pruning_marks_the_row_node_6_makes_right(browser, live_server):
    context = browser.new_context(viewport={"width": 1024, "height": 768})
    page = context.new_page()
    page.base_url, page.errors = live_server, []
    try:
        _open(page, "tree", "split-4.2", pruning="post")
        table = _step_to_validation(page)
        rows = _validation_rows(table)
        assert list(rows) == ["4", "5", "8", "9", "11", "12", "13"]
        # 周志华 p. 82: 纹理 (the book's node ⑥, node 10 here) as a leaf 好瓜 makes 编号 8
        # right, 3/7 → 4/7; nothing else changes
        assert [k for k, r in rows.items() if "flipped" in (r.get_attribute("class") or "")] \
            == ["8"]
        assert rows["8"].locator("td").all_text_contents() == ["8", "是", "否", "✗", "是", "✓"]
        assert "10" in table.inner_text() and "3/7 → 4/7" in table.inner_text()
        # the next decision, 色泽 (⑤): no row changes, 4/7 stays
        page.get_by_test_id("step-button").click()
        _settle(page)
        rows = _validation_rows(table)
        assert not [k for k, r in rows.items() if "flipped" in (r.get_attribute("class") or "")]
        assert "4/7 → 4/7" in table.inner_text()
        for lang in ("en", "zh"):
            page.get_by_test_id("lang-select").select_option(lang)
            header = table.locator("th").all_text_contents()
            assert header[0] == {"zh": "编号", "en": "no."}[lang]
            assert page.evaluate("document.documentElement.scrollWidth - innerWidth") <= 0
            assert page.evaluate("""() => { const e = document.getElementById('validation');
                return e.scrollWidth - e.clientWidth; }""") <= 0
        assert not page.errors
    finally:
        context.close()


def test_table_4_2_pre_pruning_root_marks_rows_11_and_12(page):
    _open(page, "tree", "split-4.2", pruning="pre")
    rows = _validation_rows(_step_to_validation(page))
    # 图4.6: the root as a leaf 好瓜 is right on 4, 5, 8; split on 脐部 also on 11, 12
    assert [k for k, r in rows.items() if "flipped" in (r.get_attribute("class") or "")] \
        == ["11", "12"]
    right = [k for k, r in rows.items() if r.locator("td").nth(5).inner_text() == "✓"]
    assert right == ["4", "5", "8", "11", "12"]
    assert not page.errors
