"""load_arff against hand-written files and against Weka's own files and writer."""

import re
import subprocess
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from hyperplane.datasets import load_arff

WEKA_EXAMPLES = Path("/usr/share/doc/weka/examples")

TRICKY = """% a comment line before the header
@relation 'tricky relation'
% a comment between declarations
@attribute 'colour name' {'dark green', "it's", plain, '50%', 'a,b'}
@attribute size REAL
@attribute count integer % a trailing comment, as Weka allows
@attribute note string
@attribute class {yes, no}
@data
'dark green', 1.5, 3, 'hello, world', yes
"it's", ?, 4, x, no
% a comment inside the data
?, 3, ?, ?, yes
'50%',2,5,'a b',no
'a,b',-1e3,0,"q'uote",?
"""


def write(tmp_path, text, name="data.arff", encoding="utf-8"):
    path = tmp_path / name
    path.write_bytes(text.encode(encoding))
    return path


def test_quoted_values_comments_missing_and_types(tmp_path):
    X, y = load_arff(write(tmp_path, TRICKY))
    assert list(X.columns) == ["colour name", "size", "count", "note"]
    colour = X["colour name"]
    assert isinstance(colour.dtype, pd.CategoricalDtype)
    assert list(colour.cat.categories) == ["dark green", "it's", "plain", "50%", "a,b"]
    assert colour.tolist()[:2] == ["dark green", "it's"] and pd.isna(colour[2])
    assert colour.tolist()[3:] == ["50%", "a,b"]
    np.testing.assert_array_equal(X["size"], [1.5, np.nan, 3.0, 2.0, -1000.0])
    assert X["size"].dtype == np.float64 and X["count"].dtype == np.float64
    assert X["note"].dtype == object
    assert X["note"][0] == "hello, world" and X["note"][4] == "q'uote" and pd.isna(X["note"][2])
    assert all(isinstance(v, str) for v in X["note"].dropna())
    assert y.name == "class" and list(y.cat.categories) == ["yes", "no"]
    assert y.tolist()[:4] == ["yes", "no", "yes", "no"] and pd.isna(y[4])


def test_declared_order_kept_even_when_unseen(tmp_path):
    text = "@relation r\n@attribute a {z, y, x}\n@attribute c {b, a}\n@data\nx, a\n"
    X, y = load_arff(write(tmp_path, text))
    assert list(X["a"].cat.categories) == ["z", "y", "x"]
    assert list(y.cat.categories) == ["b", "a"]


def test_utf8_byte_order_mark_is_skipped(tmp_path):
    plain = load_arff(write(tmp_path, TRICKY, "plain.arff"))
    bom = load_arff(write(tmp_path, TRICKY, "bom.arff", encoding="utf-8-sig"))
    pd.testing.assert_frame_equal(plain[0], bom[0])


def test_truncated_file_is_refused_or_short(tmp_path):
    text = TRICKY[:TRICKY.index("'50%'") + 3]          # cut inside a quoted value
    with pytest.raises(ValueError, match="not a valid ARFF|values {...} are not closed"):
        load_arff(write(tmp_path, text))


def test_target_by_name(tmp_path):
    X, y = load_arff(write(tmp_path, TRICKY), target="size")
    assert y.name == "size" and list(X.columns) == ["colour name", "count", "note", "class"]
    with pytest.raises(ValueError, match="target='nope'.*colour name"):
        load_arff(write(tmp_path, TRICKY), target="nope")


def test_sparse_rows_equal_dense_rows(tmp_path):
    header = "@relation s\n@attribute a numeric\n@attribute b {x, y, z}\n" \
             "@attribute c numeric\n@attribute class {p, q}\n@data\n"
    sparse = "{0 1.5, 3 q}\n{1 z, 2 2}\n{}\n{2 ?, 3 p}\n"
    # an absent sparse value is 0: for a nominal attribute its first value
    dense = "1.5, x, 0, q\n0, z, 2, p\n0, x, 0, p\n0, x, ?, p\n"
    Xs, ys = load_arff(write(tmp_path, header + sparse, "s.arff"))
    Xd, yd = load_arff(write(tmp_path, header + dense, "d.arff"))
    pd.testing.assert_frame_equal(Xs, Xd)
    pd.testing.assert_series_equal(ys, yd)
    assert Xs["b"].tolist() == ["x", "z", "x", "x"]


@pytest.mark.parametrize("text, match", [
    ("@relation r\n@attribute a numeric\n@data\nhello\n", "not a valid ARFF"),
    ("@relation r\n@attribute a {u, v}\n@data\nw\n", "not a valid ARFF"),
    ("@relation r\n@attribute a numeric\n@attribute b numeric\n@data\n1,2,3\n",
     "not a valid ARFF"),
    ("@relation r\n@attribute d date\n@data\n2020-01-01\n", "attribute d is of type date"),
    ("just text\n", "not a valid ARFF"),
])
def test_bad_files_are_named(tmp_path, text, match):
    path = write(tmp_path, text)
    with pytest.raises(ValueError, match=match) as info:
        load_arff(path)
    assert str(path) in str(info.value)


def test_wrong_encoding_names_it_and_how_to_convert(tmp_path):
    text = "@relation r\n@attribute 色泽 {青绿, 乌黑}\n@attribute c {是, 否}\n@data\n青绿, 是\n"
    path = write(tmp_path, text, encoding="gb18030")
    with pytest.raises(ValueError, match="utf-8.*encoding=.*iconv"):
        load_arff(path)
    X, y = load_arff(path, encoding="gb18030")
    assert list(X["色泽"].cat.categories) == ["青绿", "乌黑"] and y.tolist() == ["是"]


# ----------------------------------------------------------------- Weka's files
def weka(jar, *args):
    done = subprocess.run(["java", "-Dfile.encoding=UTF-8", "-cp", str(jar), *args],
                          capture_output=True, text=True, timeout=300, check=True)
    return done.stdout


def weka_summary(jar, path):
    """Weka's own reading of a file: instances, and per attribute its kind,
    missing count and number of distinct values (``weka.core.Instances``)."""
    text = weka(jar, "weka.core.Instances", str(path))
    n = int(re.search(r"Num Instances:\s+(\d+)", text).group(1))
    rows = re.findall(r"^\s*\d+ (.*?)\s+(Nom|Num|Str)\s+\d+%\s+\d+%\s+\d+%\s+(\d+)\s*/\s*\d+%"
                      r"\s+\d+\s*/\s*\d+%\s+(\d+)\s*$", text, flags=re.M)
    return n, [(kind, int(missing), int(distinct)) for _, kind, missing, distinct in rows]


SHIPPED = ["weather.nominal", "weather.numeric", "contact-lenses", "vote", "soybean",
           "credit-g", "labor", "iris", "breast-cancer", "diabetes", "glass",
           "ionosphere", "segment-challenge", "cpu.with.vendor", "supermarket",
           "ReutersCorn-test"]


@pytest.mark.parametrize("name", SHIPPED)
def test_weka_shipped_file_reads_as_weka_reads_it(weka_jar, name):
    path = WEKA_EXAMPLES / f"{name}.arff"
    X, y = load_arff(path)
    n, attributes = weka_summary(weka_jar, path)
    frame = pd.concat([X, y], axis=1)
    assert len(frame) == n and len(attributes) == frame.shape[1]
    for (kind, missing, distinct), name_ in zip(attributes, frame.columns):
        column = frame[name_]
        expected_dtype = {"Nom": pd.CategoricalDtype, "Num": np.dtype("float64").__class__,
                          "Str": np.dtype(object).__class__}[kind]
        assert isinstance(column.dtype, expected_dtype), name_
        assert int(column.isna().sum()) == missing, name_
        assert column.nunique() == distinct, name_


def test_weka_declared_orders(weka_jar):
    X, y = load_arff(WEKA_EXAMPLES / "credit-g.arff")
    assert list(X["checking_status"].cat.categories) == [
        "<0", "0<=X<200", ">=200", "no checking"]
    assert list(y.cat.categories) == ["good", "bad"] and (y == "good").sum() == 700
    X, y = load_arff(WEKA_EXAMPLES / "iris.arff")
    assert y.value_counts().to_dict() == {
        "Iris-setosa": 50, "Iris-versicolor": 50, "Iris-virginica": 50}
    X, y = load_arff(WEKA_EXAMPLES / "glass.arff")
    assert "build wind float" in y.cat.categories    # a quoted class with spaces


@pytest.mark.parametrize("name", ["vote", "labor", "soybean", "credit-g"])
def test_weka_written_sparse_file_equals_dense(weka_jar, tmp_path, name):
    """Weka's NonSparseToSparse writes the same data as sparse ``{...}`` rows."""
    dense = WEKA_EXAMPLES / f"{name}.arff"
    sparse = tmp_path / f"{name}.sparse.arff"
    weka(weka_jar, "weka.filters.unsupervised.instance.NonSparseToSparse",
         "-i", str(dense), "-o", str(sparse))
    assert "{" in sparse.read_text(encoding="utf-8").split("@data", 1)[1]
    Xd, yd = load_arff(dense)
    Xs, ys = load_arff(sparse)
    pd.testing.assert_frame_equal(Xs, Xd)
    pd.testing.assert_series_equal(ys, yd)


def test_weka_csv_loader_output(weka_jar, tmp_path):
    """An ARFF written by Weka's CSVLoader from values that need quoting."""
    csv = tmp_path / "odd.csv"
    csv.write_text('name,x,label\n"dark green",1.5,yes\n"it\'s",2,no\n'
                   '"50%",?,yes\n"a,b",4,no\n', encoding="utf-8")
    out = tmp_path / "odd.arff"
    out.write_text(weka(weka_jar, "weka.core.converters.CSVLoader", str(csv)),
                   encoding="utf-8")
    X, y = load_arff(out)
    assert X["name"].tolist() == ["dark green", "it's", "50%", "a,b"]
    np.testing.assert_array_equal(X["x"], [1.5, 2.0, np.nan, 4.0])
    assert y.tolist() == ["yes", "no", "yes", "no"]
