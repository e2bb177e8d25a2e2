"""hyperplane evaluate and predict's svm-predict line, through the entry point."""

import json

from tests.cli.conftest import run_cli


def test_cross_validation_prints_weka_s_summary():
    result = run_cli("evaluate", "tree", "watermelon-2.0", "--folds", "3")
    assert result.returncode == 0, result.stderr
    for line in ("=== Stratified cross-validation ===", "Correctly Classified Instances",
                 "Kappa statistic", "Weighted Avg.", "<-- classified as"):
        assert line in result.stdout


def test_json_has_the_numbers_in_the_labels_order():
    result = run_cli("evaluate", "svc", "heart_scale", "--folds", "5", "--json")
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["labels"] == [-1, 1]
    confusion = report["confusion"]
    assert sum(map(sum, confusion)) == report["n"] == 270
    assert report["correct"] == confusion[0][0] + confusion[1][1]
    assert abs(report["accuracy"] - report["correct"] / 270) < 1e-12
    assert {"tp_rate", "fp_rate", "precision", "recall", "f_measure", "mcc", "roc_area",
            "prc_area"} <= set(report["per_class"][0])


def test_a_saved_model_is_evaluated_and_predict_prints_svm_predict_s_line(tmp_path):
    model = tmp_path / "m.hyperplane"
    assert run_cli("fit", "svc", "heart_scale", "-o", model, "-q").returncode == 0
    evaluated = run_cli("evaluate", model, "heart_scale", "--json")
    assert evaluated.returncode == 0, evaluated.stderr
    report = json.loads(evaluated.stdout)
    predicted = run_cli("predict", model, "heart_scale", "-o", tmp_path / "p.csv")
    assert predicted.returncode == 0, predicted.stderr
    line = f"Accuracy = {100 * report['accuracy']:.4f}% ({report['correct']}/270) (classification)"
    assert line in predicted.stderr


def test_train_on_one_table_and_test_on_another(tmp_path):
    rows = ["a,b,c"] + [f"{i},{i % 3},{'x' if i % 2 else 'y'}" for i in range(40)]
    (tmp_path / "train.csv").write_text("\n".join(rows[:31]) + "\n")
    (tmp_path / "test.csv").write_text("\n".join([rows[0]] + rows[31:]) + "\n")
    result = run_cli("evaluate", "tree", tmp_path / "train.csv", "-t", "c",
                     "--test", tmp_path / "test.csv", "--json")
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["n"] == 10 and report["title"] == "Evaluation on test split"


def test_a_regressor_gets_the_numeric_summary():
    result = run_cli("evaluate", "svr", "heart_scale", "--folds", "3")
    assert result.returncode == 0, result.stderr
    assert "Correlation coefficient" in result.stdout
    assert "Root relative squared error" in result.stdout


def test_cv_weka_prints_j48s_cross_validation_of_vote():
    """``J48 -C 0.25 -M 2 -x 10 -s 1`` on Weka's vote.arff (Weka 3.6 prints these;
    tests/tree/test_weka_cv.py checks them against Weka run there)."""
    import pytest

    from tests.tree._weka import WEKA_EXAMPLES

    vote = WEKA_EXAMPLES / "vote.arff"
    if not vote.exists():
        pytest.skip(f"no {vote}")
    result = run_cli("evaluate", "tree", vote, "--cv", "weka", "-p", "criterion=gain_ratio",
                     "-p", "pruning=pessimistic", "-p", "confidence=0.25",
                     "-p", "min_samples_leaf=2", "--json")
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["correct"] == 419 and report["n"] == 435
    assert round(report["kappa"], 4) == 0.9224
    assert report["confusion"] == [[259, 8], [8, 160]]


def test_cv_must_be_stratified_or_weka():
    result = run_cli("evaluate", "tree", "watermelon-2.0", "--cv", "loo")
    assert result.returncode != 0
    assert "--cv" in result.stderr
