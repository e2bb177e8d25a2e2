"""Adversarial pass over the file readers (issue #30): hypothesis mutates valid
ARFF and LIBSVM files line by line; every outcome is either a read or a
ValueError that names the file and the line, attribute or feature at fault --
never another exception, never a hang."""

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hyperplane.datasets import load_arff, load_svmlight
from tests._deadline import Deadline

_WEATHER = [
    "% the weather data",
    "@relation weather",
    "@attribute outlook {sunny, overcast, 'light rain'}",
    "@attribute temperature numeric",
    "@attribute humidity integer",
    "@attribute windy {TRUE, FALSE}",
    "@attribute note string",
    "@attribute play {yes, no}",
    "@data",
    "sunny,85,85,FALSE,'a b',no",
    "'light rain',?,70,TRUE,x,yes",
    "{0 overcast, 1 64, 5 yes}",
]
_LIBSVM = ["+1 1:0.5 3:-1", "-1 2:2 # a comment", "", "+1 qid:3 1:1e-3 4:7"]

#: the characters that matter to either format, and a few that should not
_HOSTILE = st.text(alphabet="@{}',\"\\%? \t#:0123456789.-+eEnaixyz{}qid\x00é",
                   max_size=30)
_TOKENS = st.sampled_from(["@attribute", "@data", "@relation", "{", "}", "'", '"', ",",
                           "numeric", "integer", "date", "string", "?", "nan", "1e400",
                           "qid:", "1:", ":", "3000000000", "-1", "0", "\t"])


@st.composite
def _mutated(draw, lines):
    """``lines`` with a few lines replaced, inserted, cut or spliced."""
    lines = list(lines)
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, len(lines)))
        junk = "".join(draw(st.lists(st.one_of(_HOSTILE, _TOKENS), max_size=6)))
        how = draw(st.sampled_from(["replace", "insert", "cut", "splice"]))
        if how == "insert" or at == len(lines):
            lines.insert(at, junk)
        elif how == "replace":
            lines[at] = junk
        elif how == "cut":
            lines[at] = lines[at][:draw(st.integers(0, len(lines[at])))]
        else:
            cut = draw(st.integers(0, len(lines[at])))
            lines[at] = lines[at][:cut] + junk + lines[at][cut:]
    return "\n".join(lines) + "\n"


_NAMES_A_PLACE = re.compile(r"line \d+|attribute|target=|no attribute|file is empty")


def _assert_read_or_refused_clearly(read, path):
    with Deadline(10):
        try:
            read(path)
        except ValueError as exc:
            message = str(exc)
            assert str(path) in message, message
            assert _NAMES_A_PLACE.search(message), message


@settings(max_examples=150)
@given(text=_mutated(_WEATHER))
def test_a_mutated_arff_file_is_read_or_refused_naming_the_place(tmp_path_factory, text):
    path = tmp_path_factory.mktemp("arff") / "m.arff"
    path.write_text(text, encoding="utf-8")
    _assert_read_or_refused_clearly(load_arff, path)


@settings(max_examples=150)
@given(text=_mutated(_LIBSVM))
def test_a_mutated_libsvm_file_is_read_or_refused_naming_the_line(tmp_path_factory, text):
    path = tmp_path_factory.mktemp("svm") / "m.svm"
    path.write_text(text, encoding="utf-8")
    _assert_read_or_refused_clearly(load_svmlight, path)


@settings(max_examples=60)
@given(data=st.binary(max_size=200))
@pytest.mark.parametrize("read, suffix", [(load_arff, ".arff"), (load_svmlight, ".svm")])
def test_random_bytes_are_read_or_refused_with_a_value_error(tmp_path_factory, read, suffix,
                                                             data):
    path = tmp_path_factory.mktemp("bytes") / f"b{suffix}"
    path.write_bytes(data)
    with Deadline(10):
        try:
            read(path)
        except ValueError as exc:
            assert str(path) in str(exc)
