"""The playground's JSON endpoints (Flask's test client, no browser).

Each lesson's numbers are checked against the books' worked examples; the
library computes them, the server only carries them.
"""

import io
import json

import numpy as np
import pytest

pytest.importorskip("flask")
pytest.importorskip("plotly")

from hyperplane.playground import check_host, create_app  # noqa: E402
from hyperplane.playground._data import MAX_UPLOAD_BYTES  # noqa: E402


@pytest.fixture(scope="module")
def client():
    return create_app().test_client()


def _start(client, learner, dataset, **params):
    body = {"learner": learner, "dataset": dataset, "params": params}
    if "points" in params:
        body["points"] = params.pop("points")
    response = client.post("/api/start", json=body)
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def _all_steps(client, run):
    steps = []
    while True:
        data = client.post("/api/step", json={"run": run, "mode": "epoch"}).get_json()
        steps += data["steps"]
        if data["done"]:
            return steps


def test_page_and_offline_plotly(client):
    page = client.get("/").get_data(as_text=True)
    for hook in ("learner-select", "dataset-select", "step-button", "epoch-button", "run-button",
                 "reset-button", "trace-table", "split-table", "status"):
        assert f'data-testid="{hook}"' in page
    assert "http" not in page.split("<body>")[0]          # no CDN in the head
    js = client.get("/vendor/plotly.min.js")
    assert js.status_code == 200 and js.data.startswith(b"/**\n* plotly.js")


def test_table_2_1(client):
    start = _start(client, "perceptron", "example-2.1", variant="primal")
    assert start["info"]["novikoff"]["bound"] == "117"
    steps = _all_steps(client, start["run"])
    rows = [s["row"] for s in steps]
    # 李航 表2.1: x1, x3, x3, x3, x1, x3, x3 and w = (1, 1), b = -3
    assert [r[0] for r in rows[:7]] == ["x1", "x3", "x3", "x3", "x1", "x3", "x3"]
    assert rows[6][1:3] == ["(1, 1)", "-3"]
    assert rows[-1][0] == "0"                             # the final row: no misclassified point


def test_table_2_2_and_gram(client):
    start = _start(client, "perceptron", "example-2.1", variant="dual")
    assert start["info"]["gram"] == [["18", "21", "6"], ["21", "25", "7"], ["6", "7", "2"]]
    rows = [s["row"] for s in _all_steps(client, start["run"])]
    assert rows[6][1:] == ["(2, 0, 5)", "-3"]


def test_kernel_perceptron_draws_regions_each_epoch(client):
    start = _start(client, "perceptron", "watermelon-3.0alpha", variant="kernel", sigma=0.2,
                   max_epochs=5)
    steps = _all_steps(client, start["run"])
    ends = [s for s in steps if s.get("epoch_end")]
    assert ends and all("regions" in s["plot"] for s in ends)


def test_example_7_1(client):
    start = _start(client, "svm", "example-2.1", kernel="linear", C="inf")
    final = _all_steps(client, start["run"])[-1]
    assert final["row"][0] == "α = (0.25, 0, 0.25)" and final["row"][-1] == "-2"
    assert final["plot"]["mark"] == [0, 2]                 # the support vectors x1, x3


def test_svr_tube(client):
    start = _start(client, "svm", "sine", kernel="rbf", C="10", epsilon=0.2)
    steps = _all_steps(client, start["run"])
    final = steps[-1]
    assert len(steps) > 1 and steps[0]["row"][0].startswith("(x")    # SMO steps first
    curve = final["plot"]["curve"]
    assert all(abs(u - f - 0.2) < 1e-4 for u, f in zip(curve["upper"], curve["f"]))


def test_watermelon_root_split_table(client):
    start = _start(client, "tree", "watermelon-2.0")
    step = client.post("/api/step", json={"run": start["run"]}).get_json()["steps"][0]
    table = step["split_table"]
    gains = {row[0]: row[1] for row in table["rows"]}
    assert gains["纹理"] == "0.381" and table["chosen"] == "纹理"


def _first_step(client, dataset, **params):
    start = _start(client, "tree", dataset, **params)
    return client.post("/api/step", json={"run": start["run"]}).get_json()["steps"][0]


@pytest.mark.parametrize("criterion", ["info_gain", "gain_ratio"])
def test_watermelon_3_0_root_candidate_cuts(client, criterion):
    cuts = {c["attribute"]: c for c in _first_step(client, "watermelon-3.0",
                                                   criterion=criterion)["candidates"]}
    assert set(cuts) == {"密度", "含糖率"}
    # 周志华 4.4.1: 16 midpoints each; 密度 best at 0.381 (0.3815) with Gain 0.262,
    # 含糖率 at 0.126 with Gain 0.349
    for name, cut, gain in [("密度", "0.3815", "0.262"), ("含糖率", "0.126", "0.349")]:
        assert cuts[name]["n"] == len(cuts[name]["rows"]) == 16
        assert cuts[name]["chosen"] == cut and dict(cuts[name]["rows"])[cut] == gain
        assert cuts[name]["score"] == "Gain"
    assert dict(cuts["密度"]["rows"])["0.244"] == "0.056"   # the first midpoint, (0.243+0.245)/2


def test_watermelon_2_0_alpha_root_branch_weights(client):
    step = _first_step(client, "watermelon-2.0alpha")
    # 周志华 4.4.2: 纹理 is known on 15 of the 17 rows, r̃ = 7/15, 5/15, 3/15
    assert step["branches"]["rho"] == "0.8824"
    assert [r[:2] for r in step["branches"]["rows"]] == [
        ["纹理 = 清晰", "0.4667"], ["纹理 = 稍糊", "0.3333"], ["纹理 = 模糊", "0.2"]]
    assert step["candidates"] == []                          # no continuous attribute


def test_post_pruned_tree_shows_the_grown_tree_s_branches(client):
    step = _first_step(client, "split-4.2", pruning="post")
    assert [r[0] for r in step["branches"]["rows"]] == \
        ["脐部 = 凹陷", "脐部 = 稍凹", "脐部 = 平坦"]


@pytest.mark.parametrize("pruning, decisions, accuracy", [
    ("none", [], "42.9%"),                                  # figure 4.5, unpruned
    ("pre", ["42.9% → 71.4%", "71.4% → 57.1%", "71.4% → 71.4%"], "71.4%"),   # figure 4.6
    ("post", ["42.9% → 57.1%", "57.1% → 57.1%", "57.1% → 57.1%", "57.1% → 71.4%",
              "71.4% → 42.9%"], "71.4%")])                 # figure 4.7
def test_table_4_2_pruning(client, pruning, decisions, accuracy):
    start = _start(client, "tree", "split-4.2", pruning=pruning)
    steps = _all_steps(client, start["run"])
    pruning_rows = [s["row"] for s in steps if s["row"][0] == {"t": pruning}]
    assert [r[2] for r in pruning_rows] == decisions
    assert steps[-1]["status"] == f"validation accuracy {accuracy}"
    assert steps[-1]["say"] == {"key": "valid_acc", "acc": accuracy}


def test_bp_side_by_side(client):
    start = _start(client, "bp", "xor", hidden=3, max_epochs=3)
    steps = _all_steps(client, start["run"])
    assert [s["row"][0] for s in steps] == ["1", "2", "3"]
    assert set(steps[-1]["regions"]) == {"standard", "accumulated"}
    assert len(steps[-1]["hidden"]["standard"]) == 4


def test_linear_refits_when_a_point_moves(client):
    before = client.post("/api/linear", json={}).get_json()
    points = [[x, y] for x, y in zip(before["points"]["x"], before["points"]["y"])]
    points[0][1] += 0.3
    after = client.post("/api/linear", json={"points": points}).get_json()
    assert [r[0] for r in after["rows"]] == ["least_squares", "fisher", "logistic"]
    assert after["rows"][0][1] != before["rows"][0][1]
    bad = client.post("/api/linear", json={"points": points[:3]})
    assert bad.status_code == 400 and "17" in bad.get_json()["error"]


def _numbers(text):
    """The numbers of a vector ``(a, b)`` or a matrix ``[(a, b); (c, d)]`` as printed."""

    rows = [r.strip("()[] ") for r in text.split(";")]
    return np.array([[float(v) for v in r.split(",")] for r in rows]).squeeze()


def test_linear_closed_forms_are_the_book_s_on_the_page_s_points(client):
    """周志华 式3.11, 3.33/3.39 and 3.30-3.31 re-stated sample by sample here
    (sums of outer products, least squares by lstsq), on the points as moved."""

    from hyperplane.linear import FisherDiscriminant

    data = client.post("/api/linear", json={}).get_json()
    points = [[x, y] for x, y in zip(data["points"]["x"], data["points"]["y"])]
    points[3][0] += 0.2
    data = client.post("/api/linear", json={"points": points}).get_json()
    forms = data["closed_forms"]
    X = np.array(points)
    good = np.array([label == "是" for label in data["points"]["label"]])
    t = good.astype(float)
    Xh = np.column_stack([X, np.ones(len(X))])
    gram = sum(np.outer(x, x) for x in Xh)
    np.testing.assert_allclose(_numbers(forms["ls_XtX"]), gram, atol=1e-4)
    np.testing.assert_allclose(_numbers(forms["ls_w"]), np.linalg.lstsq(Xh, t, rcond=None)[0],
                               atol=1e-4)
    mu0, mu1 = X[~good].mean(axis=0), X[good].mean(axis=0)
    S_w = sum(np.outer(x - mu0, x - mu0) for x in X[~good]) + sum(
        np.outer(x - mu1, x - mu1) for x in X[good])
    np.testing.assert_allclose(_numbers(forms["lda_mu0"]), mu0, atol=1e-4)
    np.testing.assert_allclose(_numbers(forms["lda_Sw"]), S_w, atol=1e-4)
    w = _numbers(forms["lda_w"])
    np.testing.assert_allclose(w, np.linalg.inv(S_w) @ (mu0 - mu1), rtol=1e-3)
    fisher = FisherDiscriminant().fit(X, np.where(good, "是", "否")).scalings_[:, 0]
    assert abs(w @ fisher) == pytest.approx(np.linalg.norm(w) * np.linalg.norm(fisher), rel=1e-3)
    beta = _numbers(forms["lr_beta"])
    p1 = 1 / (1 + np.exp(-(Xh @ beta)))
    gradient = -sum(x * (ti - pi) for x, ti, pi in zip(Xh, t, p1))
    np.testing.assert_allclose(_numbers(forms["lr_gradient"]), gradient, atol=1e-4)
    hessian = sum(np.outer(x, x) * pi * (1 - pi) for x, pi in zip(Xh, p1))
    np.testing.assert_allclose(_numbers(forms["lr_hessian"]), hessian, atol=1e-3)
    assert np.abs(_numbers(forms["lr_step"])).max() < 1e-2 * np.abs(beta).max()


def test_stream_sends_every_step_and_ends(client):
    start = _start(client, "perceptron", "separable-10000")
    response = client.get(f"/api/stream/{start['run']}?max_steps=1000")
    text = response.get_data(as_text=True)
    batches = [json.loads(line[6:]) for line in text.splitlines()
               if line.startswith("data: {\"steps\"")]
    ks = [s["k"] for b in batches for s in b["steps"]]
    assert ks == list(range(1, len(ks) + 1)) and len(ks) == 1000
    assert "event: end" in text


def test_clicked_points(client):
    points = [[0, 0, -1], [1, 0, -1], [3, 3, 1], [4, 2, 1]]
    start = _start(client, "perceptron", "clicked", points=points)
    assert _all_steps(client, start["run"])[-1]["status"].startswith("converged")
    one_class = client.post("/api/start", json={"learner": "perceptron", "dataset": "clicked",
                                                "points": [[0, 0, 1], [1, 1, 1]]})
    assert one_class.status_code == 400 and "both classes" in one_class.get_json()["error"]


def test_upload_is_parsed_like_the_cli(client):
    csv = "a,b,label\n1,2,yes\n3,1,no\n0,0,no\n4,4,yes\n".encode()
    response = client.post("/api/upload", data={"file": (io.BytesIO(csv), "mine.csv")})
    data = response.get_json()
    assert response.status_code == 200 and data["features"] == ["a", "b"]
    start = _start(client, "svm", data["dataset"], kernel="linear", C="10")
    assert _all_steps(client, start["run"])[-1]["final"]


@pytest.mark.parametrize("content, message", [
    (b"\xff\xfe\x00bad", "not UTF-8"),
    (b"", "empty"),
    (b"a,b,c\n", "no rows"),
    (b"a,b\n1,2\n", "no feature columns"),
])
def test_upload_errors_are_clear(client, content, message):
    if message == "no feature columns":
        content = b"a\n1\n"
    response = client.post("/api/upload", data={"file": (io.BytesIO(content), "x.csv")})
    assert response.status_code == 400
    assert message in response.get_json()["error"] and "/tmp" not in response.get_json()["error"]


def test_upload_size_limit(client):
    big = b"a,b\n" + b"1,2\n" * (MAX_UPLOAD_BYTES // 4 + 10)
    response = client.post("/api/upload", data={"file": (io.BytesIO(big), "big.csv")})
    assert response.status_code in (400, 413)
    assert str(MAX_UPLOAD_BYTES) in response.get_json()["error"]


@pytest.mark.parametrize("body, message", [
    ({"learner": "nope", "dataset": "xor"}, "learner: must be one of"),
    ({"learner": "perceptron", "dataset": "nope"}, "unknown dataset"),
    ({"learner": "perceptron", "dataset": "example-2.1", "params": {"eta": -1}}, "eta"),
    ({"learner": "svm", "dataset": "example-2.1", "params": {"C": "0"}}, "C: must be > 0"),
    ({"learner": "tree", "dataset": "loan", "params": {"pruning": "sideways"}}, "pruning"),
    ({"learner": "perceptron", "dataset": "watermelon-2.0"}, "two numeric columns"),
])
def test_bad_requests_answer_400_with_a_reason(client, body, message):
    response = client.post("/api/start", json=body)
    assert response.status_code == 400 and message in response.get_json()["error"]


def test_unknown_run(client):
    response = client.post("/api/step", json={"run": "999999"})
    assert response.status_code == 400 and "no run" in response.get_json()["error"]


def test_loopback_only_unless_allowed():
    assert check_host("127.0.0.1") == "127.0.0.1" and check_host("::1") == "::1"
    with pytest.raises(ValueError, match="--allow-remote"):
        check_host("0.0.0.0")
    with pytest.raises(ValueError, match="--allow-remote"):
        check_host("192.168.1.5")
    assert check_host("0.0.0.0", allow_remote=True) == "0.0.0.0"


def test_hard_margin_on_inseparable_data_says_why(client):
    # issue #29: the page's default C = inf on 西瓜3.0α is a run that ends saying why,
    # not a refused request (which the page showed as a raw Python message)
    start = _start(client, "svm", "watermelon-3.0alpha", kernel="linear", C="inf")
    last = _all_steps(client, start["run"])[-1]
    assert last["stopped"] == {"reason": "hard_margin", "kernel": "linear"}
    assert "separable" in last["status"] and "finite C" in last["status"]


def test_a_failing_run_reports_in_the_stream(client, monkeypatch):
    from hyperplane.playground import _bp

    def diverging(*args):
        yield {"row": ["1", "0.1", "0.1", "0.5", "0.5"], "epoch_end": True}
        raise ValueError("the training loss became inf in epoch 2: backpropagation diverged")

    monkeypatch.setattr(_bp, "bp_steps", diverging)
    start = _start(client, "bp", "xor")
    text = client.get(f"/api/stream/{start['run']}").get_data(as_text=True)
    assert '"k": 1' in text and "event: failure" in text and "diverged" in text
    assert "event: end" not in text


# ------------------------------------------------- what the teaching panels show
def test_example_7_1_summary_at_every_smo_step(client):
    steps = _all_steps(client, _start(client, "svm", "example-2.1")["run"])
    assert all("summary" in s for s in steps)
    final = steps[-1]["summary"]
    # 李航 例7.1: w = (1/2, 1/2), b = -2; the margin 2/‖w‖ = 2√2
    assert final["w"] == "(0.5, 0.5)" and final["b"] == "-2"
    assert float(final["margin"]) == pytest.approx(2 * 2 ** 0.5, abs=1e-4)
    assert [s.get("line") for s in steps] == [["select", "clip"]] * 3 + ["stop"]


def test_dual_perceptron_w_follows_table_2_1(client):
    """例2.2 makes the same updates as 例2.1, so w = Σ α_i y_i x_i of each dual step
    is 表2.1's w of that step."""
    primal = _all_steps(client, _start(client, "perceptron", "example-2.1")["run"])
    dual = _all_steps(client, _start(client, "perceptron", "example-2.1",
                                     variant="dual")["run"])
    assert [s["summary"]["w"] for s in dual] == [s["row"][1] for s in primal]
    assert [s["summary"]["b"] for s in dual] == [s["row"][2] for s in primal]
    assert [s["line"] for s in primal] == ["update"] * 7 + ["stop"]
    assert primal[-1]["say"]["key"] == "converged" and primal[-1]["say"]["updates"] == 7


def test_figure_4_4_nodes_in_generation_order(client):
    steps = _all_steps(client, _start(client, "tree", "watermelon-2.0")["run"])
    nodes = [s["node"] for s in steps if "node" in s]
    # 周志华 图4.4, depth first as TreeGenerate recurses
    assert [(n["id"], n["parent"], n["test"] or n["label"]) for n in nodes] == [
        (1, None, "纹理"), (2, 1, "根蒂"), (3, 2, "是"), (4, 2, "色泽"), (5, 4, "是"),
        (6, 4, "触感"), (7, 6, "是"), (8, 6, "否"), (9, 4, "是"), (10, 2, "否"),
        (11, 1, "触感"), (12, 11, "否"), (13, 11, "是"), (14, 1, "否")]
    assert [n["branch"] for n in nodes[1:4]] == ["纹理 = 清晰", "根蒂 = 蜷缩", "根蒂 = 稍蜷"]
    lines = [s.get("line") for s in steps]
    assert lines[:3] == ["choose", "choose", "leaf_class"] and lines[8] == "leaf_empty"


def test_table_4_2_pruning_names_its_nodes(client):
    steps = _all_steps(client, _start(client, "tree", "split-4.2", pruning="post")["run"])
    # 周志华 4.3.2: bottom-up over 图4.5's internal nodes 纹理, 色泽, 根蒂, 色泽, 脐部
    assert [s["pruning"]["node"] for s in steps if "pruning" in s] == [10, 8, 6, 2, 1]
    steps = _all_steps(client, _start(client, "tree", "split-4.2", pruning="pre")["run"])
    assert [s["pruning"]["node"] for s in steps if "pruning" in s] == [1, 2, 3]
    assert [s.get("prepruned") for s in steps if "node" in s] == [None, True, True, False]


def test_field_errors_carry_a_code_for_the_page(client):
    response = client.post("/api/start", json={"learner": "perceptron", "dataset": "example-2.1",
                                                "params": {"eta": "-1"}})
    answer = response.get_json()
    assert response.status_code == 400 and answer["field"] == "eta"
    assert answer["code"] == "above" and answer["args"] == {"low": "0", "got": "-1.0"}


def test_lesson_data_errors_carry_a_code_for_the_page(client):
    answer = client.post("/api/start", json={"learner": "perceptron",
                                             "dataset": "watermelon-2.0"}).get_json()
    assert answer["field"] == "dataset" and answer["code"] == "two_numeric"
    assert answer["args"]["columns"].startswith("色泽, 根蒂")


def test_nu_svc_on_the_plane_matches_scikit_learn(client):
    """formulation=nu_svm: ν-SVC's SMO steps, then the fitted α and b as
    scikit-learn's NuSVC (LIBSVM) gives them on the same points."""
    from sklearn.svm import NuSVC as LibNuSVC

    from hyperplane.datasets import load_watermelon

    X, y = load_watermelon("3.0alpha")
    start = _start(client, "svm", "watermelon-3.0alpha", formulation="nu_svm", nu=0.5,
                   kernel="rbf", sigma=1)
    steps = _all_steps(client, start["run"])
    assert steps[0]["row"][0].startswith("(x") and steps[-1]["final"]
    libsvm = LibNuSVC(nu=0.5, kernel="rbf", gamma=0.5, tol=1e-8).fit(np.asarray(X, float), y)
    assert steps[-1]["plot"]["mark"] == sorted(libsvm.support_.tolist())
    assert abs(float(steps[-1]["row"][-1]) - libsvm.intercept_[0]) < 1e-3
    assert steps[-1]["say"]["key"] == "svc_done"


def test_one_class_draws_the_support_and_counts_the_points_inside(client):
    from sklearn.svm import OneClassSVM as LibOneClassSVM

    from hyperplane.datasets import load_watermelon

    X, y = load_watermelon("3.0alpha")
    start = _start(client, "svm", "watermelon-3.0alpha", formulation="one_class", nu=0.2,
                   kernel="rbf", sigma=0.5)
    final = _all_steps(client, start["run"])[-1]
    libsvm = LibOneClassSVM(nu=0.2, gamma=2.0, tol=1e-8).fit(np.asarray(X, float))
    assert final["plot"]["levels"] == [0]
    assert final["plot"]["mark"] == libsvm.support_.tolist()
    say = final["say"]
    assert say["key"] == "one_class_done" and say["n"] == len(y)
    # the free support vectors lie on f(x) = 0 up to round-off: either side is right
    f = libsvm.decision_function(np.asarray(X, float))
    assert int(np.sum(f > 1e-6)) <= say["inside"] <= int(np.sum(f > -1e-6))


def test_nu_svr_on_the_sine_data(client):
    start = _start(client, "svm", "sine", formulation="nu_svm", nu=0.3, kernel="rbf", C="10")
    steps = _all_steps(client, start["run"])
    assert steps[0]["row"][0].startswith("(x") and "curve" in steps[-1]["plot"]


@pytest.mark.parametrize("params, code", [
    ({"formulation": "nu_svm", "nu": 0.95}, "nu_infeasible"),
    ({"formulation": "one_class", "nu": 0}, "above"),
    ({"formulation": "dual"}, "one_of"),
])
def test_formulation_errors_name_the_field(client, params, code):
    response = client.post("/api/start", json={"learner": "svm", "dataset": "watermelon-3.0alpha",
                                               "params": params})
    assert response.status_code == 400
    answer = response.get_json()
    assert answer["code"] == code and answer["field"] in ("nu", "formulation")


def test_smo_steps_carry_li_hang_s_E_eta_b1_b2(client):
    """Each C-SVC step carries 李航 算法7.5's numbers: E_k = g(x_k) − y_k before the step
    (re-stated here from the trace's α and the Gram matrix), η = K_ii + K_jj − 2K_ij,
    and b₁, b₂ of 式7.115-7.116, which agree whenever both new α lie inside (0, C)."""

    from hyperplane.datasets import load_watermelon

    X, y = load_watermelon("3.0alpha")
    X = np.asarray(X, float)
    C, gamma = 10.0, 1.0 / (2 * 0.5 ** 2)
    start = _start(client, "svm", "watermelon-3.0alpha", kernel="rbf", sigma=0.5, C=str(C))
    steps = [s for s in _all_steps(client, start["run"]) if "smo" in s]
    classes = np.unique(y)
    s = np.where(y == classes[1], 1.0, -1.0)
    K = np.exp(-gamma * ((X[:, None, :] - X[None, :, :]) ** 2).sum(axis=2))
    alpha, b, both_free = np.zeros(len(y)), 0.0, 0
    for step in steps:
        i, j = (int(t[1:]) - 1 for t in step["row"][0].strip("()").split(", "))
        E = K @ (alpha * s) + b - s
        numbers = step["smo"]
        assert abs(float(numbers["E_i"]) - E[i]) < 1e-3 and abs(float(numbers["E_j"]) - E[j]) < 1e-3
        assert abs(float(numbers["eta"]) - (K[i, i] + K[j, j] - 2 * K[i, j])) < 1e-3
        alpha[i], alpha[j] = float(step["row"][4]), float(step["row"][5])
        b = float(step["row"][6])
        if 1e-3 < alpha[i] < C - 1e-3 and 1e-3 < alpha[j] < C - 1e-3:
            both_free += 1
            assert abs(float(numbers["b1"]) - float(numbers["b2"])) < 2e-3 * max(1.0, abs(b))
    assert both_free > 0


def test_other_duals_do_not_pretend_to_have_the_book_s_b(client):
    start = _start(client, "svm", "sine", kernel="rbf", C="10")
    step = _all_steps(client, start["run"])[0]
    assert step["smo"]["b1"] == "—" and step["smo"]["E_i"] == "—"


# 表4.2's validation rows (西瓜数据集2.0 编号 4, 5, 8, 9, 11, 12, 13; 4, 5, 8 好瓜) at a
# pruning decision, worked out by hand from 西瓜数据集2.0 and 周志华 §4.3:
# * 图4.5 (unpruned) labels 4 (凹陷, 青绿) 是 ✓, 5 (凹陷, 浅白) 否 ✗, 8 (稍凹, 稍蜷, 乌黑,
#   纹理 清晰) 否 ✗, 9 (稍凹, 稍蜷, 乌黑, 稍糊) 是 ✗, 11 and 12 (平坦) 否 ✓, 13 (凹陷, 青绿)
#   是 ✗: 3/7 = 42.9%. Post-pruning's first decision, 纹理 (the book's node ⑥) as a leaf
#   好瓜 (p. 82), makes 8 是 ✓: 4/7 = 57.1%; then 色泽 under 稍蜷 (⑤) as a leaf 是
#   (training rows 6, 7, 15: two 好瓜) labels 8 and 9 是 as before: 57.1% stays.
# * Pre-pruning's root (图4.6): a leaf 是 (training 5:5, the book takes 好瓜) is right on
#   4, 5, 8 only (42.9%); split on 脐部, 凹陷 → 是 (1, 2, 3 vs 14), 稍凹 → 是 (6, 7 vs 15, 17),
#   平坦 → 否 (10, 16) is right on 4, 5, 8, 11, 12 (71.4%): 11 and 12 flip.


def test_novikoff_bound_of_a_large_upload(client):
    """10,000 separable points get their bound (the SMO behind it once capped
    it at 3,000); gamma is at least the margin of the generating line x + y = 0,
    every point of which lies 0.2 / sqrt(2) or more from it."""
    rng = np.random.default_rng(0)
    xy = rng.uniform(-1, 1, size=(10_000, 2))
    side = xy[:, 0] + xy[:, 1] > 0
    xy[:, 0] += 0.2 * (2 * side - 1)
    csv = "a,b,label\n" + "".join(f"{float(a)!r},{float(b)!r},{'yes' if c else 'no'}\n"
                                   for (a, b), c in zip(xy, side))
    upload = client.post("/api/upload", data={"file": (io.BytesIO(csv.encode()), "big.csv")})
    assert upload.status_code == 200, upload.get_json()
    novikoff = _start(client, "perceptron", upload.get_json()["dataset"])["info"]["novikoff"]
    assert "reason" not in novikoff, novikoff
    assert float(novikoff["gamma"]) >= 0.2 / 2 ** 0.5 - 1e-3
