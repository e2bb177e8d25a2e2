"""The playground as a local server must be: only its own page drives it.

Each case is a finding of the adversarial run of issue #30 (9: cross-origin
and DNS-rebinding requests; 2: upload ids reused; 11: no row or time budget;
14: bad fields answered with Python's raw text or HTTP 500).
"""

import io

import numpy as np
import pytest

from hyperplane.playground import create_app
from hyperplane.playground._runs import Run
from hyperplane.playground._server import ROW_LIMITS


@pytest.fixture(scope="module")
def client():
    return create_app().test_client()


def test_a_text_plain_post_from_a_foreign_page_is_refused(client):
    # the CSRF a foreign page can send without asking: a "simple" text/plain POST
    response = client.post("/api/start", data='{"learner": "perceptron", "dataset": "xor"}',
                           content_type="text/plain",
                           headers={"Origin": "http://evil.example"})
    assert response.status_code == 403
    assert response.get_json()["field"] == "Origin"


def test_a_post_that_is_not_json_is_refused_even_from_no_origin(client):
    response = client.post("/api/start", data='{"learner": "perceptron"}',
                           content_type="text/plain")
    assert response.status_code == 415
    assert response.get_json()["field"] == "Content-Type"


def test_a_cross_origin_upload_is_refused(client):
    response = client.post("/api/upload", data={"file": (io.BytesIO(b"a,b\n1,x\n"), "x.csv")},
                           headers={"Origin": "https://evil.example"})
    assert response.status_code == 403


@pytest.mark.parametrize("host", ["evil.example", "evil.example:5000", "192.168.1.5:80",
                                  "attacker.rebind.example:8765"])
def test_a_foreign_host_name_is_refused_against_dns_rebinding(client, host):
    response = client.get("/api/catalog", headers={"Host": host})
    assert response.status_code == 403
    assert response.get_json()["field"] == "Host"


@pytest.mark.parametrize("host", ["localhost:8765", "127.0.0.1:8765", "[::1]:8765", "localhost"])
def test_loopback_names_and_the_page_s_own_origin_are_served(client, host):
    response = client.post("/api/start", json={"learner": "perceptron", "dataset": "example-2.1"},
                           headers={"Host": host, "Origin": f"http://{host}"})
    assert response.status_code == 200, response.get_json()


def test_allow_remote_serves_other_host_names_but_still_only_their_own_origin():
    client = create_app(allow_remote=True).test_client()
    assert client.get("/api/catalog", headers={"Host": "lab.example:8765"}).status_code == 200
    refused = client.get("/api/catalog", headers={"Host": "lab.example:8765",
                                                  "Origin": "http://evil.example"})
    assert refused.status_code == 403


def test_upload_ids_are_never_reused_after_old_uploads_are_forgotten():
    client = create_app().test_client()
    ids = []
    for k in range(20):  # the store keeps 16
        content = f"a,b,c\n{k},1,x\n{k + 1},2,y\n".encode()
        response = client.post("/api/upload", data={"file": (io.BytesIO(content), f"{k}.csv")})
        assert response.status_code == 200, response.get_json()
        ids.append(response.get_json()["dataset"])
    assert len(set(ids)) == 20
    listed = client.get("/api/catalog").get_json()["uploads"]
    assert listed == ids[-16:]


@pytest.mark.parametrize("params, field", [
    ({"max_epochs": "1e5x"}, "max_epochs"),
    ({"max_epochs": 2.5}, "max_epochs"),
    ({"max_epochs": [1]}, "max_epochs"),
    ({"eta": "nan"}, "eta"),
    ({"eta": True}, "eta"),
    ({"variant": "quantum"}, "variant"),
    ({"sigma": "0", "variant": "kernel"}, "sigma"),
])
def test_bad_fields_answer_400_naming_the_field(client, params, field):
    response = client.post("/api/start", json={"learner": "perceptron", "dataset": "example-2.1",
                                               "params": params})
    assert response.status_code == 400
    answer = response.get_json()
    assert answer["field"] == field and answer["error"].startswith(field)
    assert "invalid literal" not in answer["error"] and "Traceback" not in answer["error"]


def test_a_whole_number_written_in_exponent_form_is_read(client):
    response = client.post("/api/start", json={"learner": "perceptron", "dataset": "example-2.1",
                                               "params": {"max_epochs": "1e3"}})
    assert response.status_code == 200


@pytest.mark.parametrize("body", ["[1, 2]", "not json", '"text"'])
def test_a_body_that_is_not_a_json_object_is_a_400(client, body):
    response = client.post("/api/start", data=body, content_type="application/json")
    assert response.status_code == 400
    assert response.get_json()["field"] == "body"


def test_svm_params_bad_kinds_are_named(client):
    response = client.post("/api/start", json={"learner": "svm", "dataset": "example-2.1",
                                               "params": {"degree": "two"}})
    assert response.status_code == 400 and response.get_json()["field"] == "degree"


def _upload_rows(client, n):
    rng = np.random.default_rng(0)
    rows = "\n".join(f"{a:.3f},{b:.3f},{'x' if a + b > 0 else 'y'}"
                     for a, b in rng.normal(size=(n, 2)))
    response = client.post("/api/upload", data={
        "file": (io.BytesIO(("a,b,c\n" + rows + "\n").encode()), "rows.csv")})
    assert response.status_code == 200, response.get_json()
    return response.get_json()["dataset"]


def test_the_kernel_perceptron_refuses_a_gram_matrix_it_cannot_hold():
    client = create_app().test_client()
    dataset = _upload_rows(client, 6000)
    response = client.post("/api/start", json={"learner": "perceptron", "dataset": dataset,
                                               "params": {"variant": "kernel"}})
    assert response.status_code == 400
    assert response.get_json()["field"] == "dataset"
    assert "Gram" in response.get_json()["error"]


def test_the_svm_lesson_refuses_more_rows_than_its_budget():
    client = create_app().test_client()
    dataset = _upload_rows(client, ROW_LIMITS["svm"] + 1)
    response = client.post("/api/start", json={"learner": "svm", "dataset": dataset})
    assert response.status_code == 400
    assert response.get_json()["field"] == "dataset"
    assert str(ROW_LIMITS["svm"]) in response.get_json()["error"]


def test_a_stream_stops_at_its_deadline_and_the_run_goes_on_later():
    def endless():
        k = 0
        while True:
            k += 1
            yield {"row": k}

    run = Run({}, endless())
    batches = list(run.stream(batch_seconds=0.0, deadline=0.0))  # already past
    assert batches == [] and not run.done
    assert run.step()[0]["row"] == 1
