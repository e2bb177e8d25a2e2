"""Hostile and unusual ARFF and LIBSVM files: read as Weka/LIBSVM read them,
or refused with a message naming the line and attribute, in linear time."""


import numpy as np
import pytest

from hyperplane.datasets import load_arff, load_svmlight
from tests._deadline import Deadline


@pytest.fixture
def write(tmp_path):
    def _write(name, content):
        path = tmp_path / name
        path.write_bytes(content.encode() if isinstance(content, str) else content)
        return path
    return _write


@pytest.mark.parametrize("n_values", [26, 40, 200])
def test_an_unclosed_nominal_declaration_is_refused_at_once(write, n_values):
    values = ",".join(f"v{i}" for i in range(n_values))
    path = write("open.arff", f"@relation r\n@attribute colour {{{values}\n"
                              "@attribute x numeric\n@data\nv1,1\n")
    with Deadline(20), pytest.raises(ValueError, match=r"line 2: attribute colour.*not closed"):
        load_arff(path)


def test_braces_inside_quoted_nominal_values_are_values(write):
    path = write("q.arff", "@relation r\n@attribute 'a b' {'x}', \"y{\"}\n"
                           "@attribute c numeric\n@data\n'x}',3\n\"y{\",4\n")
    X, y = load_arff(path)
    assert list(X["a b"]) == ["x}", "y{"]
    assert y.tolist() == [3.0, 4.0]


def test_an_empty_nominal_declaration_is_refused(write):
    path = write("e.arff", "@relation r\n@attribute a {}\n@attribute b {x,y}\n@data\n1,x\n")
    with pytest.raises(ValueError, match=r"line 2: attribute a declares no nominal values"):
        load_arff(path)


@pytest.mark.parametrize("kind", ['date "yyyy-MM-dd"', "date", "relational"])
def test_date_and_relational_attributes_are_named_as_unsupported(write, kind):
    path = write("d.arff", f"@relation r\n@attribute when {kind}\n@attribute b {{x,y}}\n"
                           "@data\n1,x\n")
    with pytest.raises(ValueError, match=r"attribute when is of type (date|relational), which"):
        load_arff(path)


def test_tabs_separate_the_parts_of_a_declaration(write):
    path = write("t.arff", "@relation r\n@attribute\ta\tnumeric\n@attribute\tb\t{x,\ty}\n"
                           "@data\n1.5,y\n")
    X, y = load_arff(path)
    assert X["a"].tolist() == [1.5]
    assert y.tolist() == ["y"]


def test_integer_attributes_keep_their_fraction_as_weka_reads_them(write):
    path = write("i.arff", "@relation r\n@attribute a integer\n@attribute b {x,y}\n"
                           "@data\n1.7,x\n-2,y\n?,x\n")
    X, _ = load_arff(path)
    np.testing.assert_array_equal(X["a"].to_numpy(), [1.7, -2.0, np.nan])


def test_a_nan_integer_does_not_switch_off_the_nominal_check_of_its_row(write):
    path = write("n.arff", "@relation r\n@attribute a integer\n@attribute b {x,y}\n"
                           "@attribute c {p,q}\n@data\n1,x,p\nnan,zzz,q\n")
    # line 7: the second data row
    with pytest.raises(ValueError, match=r"line 7, attribute b: 'zzz' is not one of its "
                                         r"declared values \['x', 'y'\]"):
        load_arff(path)


@pytest.mark.parametrize("row, line, name, value", [
    ("1,x,r", 6, "c", "r"), ("{0 1, 2 r}", 6, "c", "r"), ("'1',\"x y\",p", 6, "b", "x y")])
def test_a_value_outside_its_nominal_declaration_names_line_and_attribute(write, row, line,
                                                                            name, value):
    path = write("v.arff", "@relation r\n@attribute a numeric\n@attribute b {x,y}\n"
                           f"@attribute c {{p,q}}\n@data\n{row}\n")
    with pytest.raises(ValueError, match=rf"line {line}, attribute {name}: '{value}' is not one"):
        load_arff(path)


def test_a_libsvm_file_with_a_byte_order_mark_is_read(write):
    X, y = load_svmlight(write("bom.svm", b"\xef\xbb\xbf+1 1:0.5\n-1 2:1\n"))
    assert X.toarray().tolist() == [[0.5, 0.0], [0.0, 1.0]]
    assert y.tolist() == [1.0, -1.0]


def test_a_feature_index_beyond_int32_is_refused_naming_the_file_and_line(write):
    path = write("big.svm", "-1 1:1\n+1 3000000000:1\n")
    with pytest.raises(ValueError, match=r"big.svm, line 2: feature index 3000000000 is too "):
        load_svmlight(path)


@pytest.mark.parametrize("content, words", [
    (b"+1 1:1\n-1 2:x\n", r"line 2: the value 'x' of feature 2 is not a number"),
    (b"+1 1:1\n# comment\n\n-1 3:1 2:1\n", r"line 4: feature index 2 follows 3"),
    (b"+1 1:1 1:2\n", r"line 1: feature index 1 follows 1"),
    (b"+1 1:1\nabc 1:1\n", r"line 2: the label 'abc' is not a number"),
    (b"+1 0:1\n", r"line 1: feature index 0 is below 1"),
    (b"\xef\xbb\xbf+1 1:1\n-1 1\n", r"line 2: '1' is not index:value"),
    (b"+1 1:1\n-1 :1\n", r"line 2: the feature index '' is not an integer"),
    (b"+1 1:1 qid:3\n", r"line 1: the feature index 'qid' is not an integer"),
    (b"+1 qid 1:1\n", r"line 1: 'qid' is not qid:value"),
    (b"+1 1:1\n-1 99999999999999999999:1\n", r"line 2: feature index 99999999999999999999 "),
])
def test_a_malformed_libsvm_line_is_named_by_its_number(write, content, words):
    # scikit-learn's reader refuses these without naming a line
    with pytest.raises(ValueError, match=words):
        load_svmlight(write("bad.svm", content))


def test_an_index_beyond_n_features_is_named_by_its_line(write):
    path = write("test.svm", b"+1 1:1\n-1 14:1\n")
    with pytest.raises(ValueError, match=r"line 2: feature index 14 is beyond n_features=13"):
        load_svmlight(path, n_features=13)


def test_libsvm_features_have_32_bit_indices_as_scikit_learn_wrappers_need(write):
    from sklearn.svm import LinearSVC

    X, y = load_svmlight(write("x.svm", "+1 1:0.5 3:1\n-1 2:1\n+1 1:0.7\n-1 2:0.2 3:0.1\n"))
    assert X.indices.dtype == np.int32 and X.indptr.dtype == np.int32
    LinearSVC().fit(X, y)  # refused int64 indices


@pytest.mark.parametrize("row", ["0%", "0%:", "1,%d,%s"])
def test_a_bad_row_holding_a_percent_sign_is_named_by_its_line(write, row):
    # liac-arff formats its message with '%' and the row: str() of it failed
    path = write("p.arff", f"@relation r\n@attribute a numeric\n@attribute b {{x,y}}\n"
                           f"@data\n1,x\n{row}\n")
    with pytest.raises(ValueError, match=r"p.arff: not a valid ARFF file: .*line 6"):
        load_arff(path)


def test_a_relation_without_a_name_is_named_by_its_line(write):
    path = write("r.arff", "@relation\n@attribute a numeric\n@data\n1\n")
    with pytest.raises(ValueError, match=r"r.arff: line 1: @relation needs a name"):
        load_arff(path)


def test_a_nominal_value_declared_twice_is_refused_naming_the_attribute(write):
    # Weka: "A nominal attribute (b) cannot have duplicate labels"
    path = write("d.arff", "@relation r\n@attribute b {x,y,x}\n@attribute c numeric\n"
                           "@data\nx,1\n")
    with pytest.raises(ValueError, match=r"d.arff: attribute 'b' declares the nominal value "
                                         r"'x' twice"):
        load_arff(path)


def test_an_unknown_escape_in_a_quoted_value_is_named_by_its_line(write):
    # liac-arff's "Unsupported escape sequence" named no line
    path = write("esc.arff", "@relation r\n@attribute s string\n@attribute b {x,y}\n"
                             "@data\n'ok',x\n'\\a b',y\n")
    with pytest.raises(ValueError, match=r"esc.arff: line 6: Unsupported escape sequence"):
        load_arff(path)


@pytest.mark.parametrize("content", ["", "\n\n", "% only a comment\n\n"])
def test_an_empty_arff_file_is_called_empty(write, content):
    # liac-arff: "Invalid layout of the ARFF file, at line 0"
    with pytest.raises(ValueError, match=r"empty.arff: the file is empty"):
        load_arff(write("empty.arff", content))
