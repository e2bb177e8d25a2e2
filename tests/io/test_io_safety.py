"""Corrupt, truncated, foreign and malicious files are refused with a ValueError."""

import functools
import io
import json
import os
import pickle
import zipfile

import numpy as np
import pytest
import skops.io as sio
from hypothesis import given
from hypothesis import strategies as st
from sklearn.linear_model import Perceptron

from hyperplane.io import FORMAT_VERSION, load, save

X = np.array([[3.0, 3.0], [4.0, 3.0], [1.0, 1.0]])
Y = np.array([1, 1, -1])


@pytest.fixture(scope="module")
def good_bytes(tmp_path_factory):
    path = tmp_path_factory.mktemp("good") / "m.hyperplane"
    save(Perceptron().fit(X, Y), path)
    return path.read_bytes()


def _refused(path, match=None):
    with pytest.raises(ValueError) as info:
        load(path)
    message = str(info.value)
    assert str(path) in message and "\n" not in message
    if match:
        assert match in message
    return message


@given(cut=st.integers(min_value=0, max_value=10**9))
def test_truncated_file_is_refused(tmp_path_factory, good_bytes, cut):
    path = tmp_path_factory.mktemp("cut") / "m.hyperplane"
    path.write_bytes(good_bytes[:cut % len(good_bytes)])
    _refused(path)


@given(flips=st.lists(st.tuples(st.integers(0, 10**9), st.integers(1, 255)),
                      min_size=1, max_size=8))
def test_corrupted_file_is_refused_or_loads_the_same_model(tmp_path_factory, good_bytes, flips):
    data = bytearray(good_bytes)
    for position, mask in flips:
        data[position % len(data)] ^= mask
    path = tmp_path_factory.mktemp("flip") / "m.hyperplane"
    path.write_bytes(bytes(data))
    try:
        model = load(path)
    except ValueError as exc:
        assert str(path) in str(exc)
    else:  # bytes the format does not check (timestamps, padding) may change harmlessly
        np.testing.assert_array_equal(model.predict(X), Perceptron().fit(X, Y).predict(X))


@pytest.mark.parametrize("content", [b"", b"hello, world\n", "编号,色泽\n1,青绿\n".encode(),
                                     b"PK\x03\x04garbage"])
def test_foreign_files_are_refused(tmp_path, content):
    path = tmp_path / "foreign.hyperplane"
    path.write_bytes(content)
    _refused(path, "not a hyperplane model file")


def test_plain_zip_and_plain_skops_files_are_foreign(tmp_path):
    plain = tmp_path / "plain.zip"
    with zipfile.ZipFile(plain, "w") as archive:
        archive.writestr("readme.txt", "hi")
    _refused(plain, "not a hyperplane model file")
    skops_only = tmp_path / "model.skops"
    sio.dump(Perceptron().fit(X, Y), skops_only)
    _refused(skops_only, "not a hyperplane model file")


def test_missing_file_and_directory_are_refused(tmp_path):
    _refused(tmp_path / "nowhere.hyperplane", "no such model file")
    _refused(tmp_path, "no such model file")


def test_newer_format_version_is_refused(tmp_path, good_bytes):
    path = tmp_path / "m.hyperplane"
    _rewrite_member(good_bytes, path, "hyperplane.json",
                    lambda text: text.replace(f'"format_version": {FORMAT_VERSION}',
                                              '"format_version": 99'))
    _refused(path, "upgrade hyperplane")


class _Exploit:
    def __init__(self, marker):
        self.marker = marker

    def __reduce__(self):
        return os.system, (f"touch {self.marker}",)


def test_pickle_payload_is_refused_without_running(tmp_path):
    marker = tmp_path / "pwned"
    path = tmp_path / "evil.hyperplane"
    path.write_bytes(pickle.dumps(_Exploit(marker)))
    _refused(path, "not a hyperplane model file")
    assert not marker.exists()


@pytest.mark.parametrize("payload, named", [
    (functools.partial(os.system, "touch {marker}"), f"{os.system.__module__}.system"),
    (eval, "builtins.eval"),
])
def test_file_naming_dangerous_callables_is_refused(tmp_path, payload, named):
    marker = tmp_path / "pwned"
    if isinstance(payload, functools.partial):
        payload = functools.partial(payload.func, payload.args[0].format(marker=marker))
    model = Perceptron().fit(X, Y)
    model.hook_ = payload
    path = tmp_path / "evil.hyperplane"
    with pytest.raises(TypeError, match=named):      # save never writes such a file ...
        save(model, path)
    assert not path.exists()
    _forge(model, path)                               # ... but someone else may
    message = _refused(path, "refused to load")
    assert named in message
    assert not marker.exists()


def _forge(model, path):
    """A model file as another program could write it: skops' archive plus a
    hyperplane header, without the checks of :func:`save`."""
    from hyperplane.io._files import FORMAT_NAME, FORMAT_VERSION, HEADER_MEMBER, class_name

    sio.dump(model, path)
    header = {"format": FORMAT_NAME, "format_version": FORMAT_VERSION,
              "model": class_name(model), "metadata": {}}
    with zipfile.ZipFile(path, "a") as archive:
        archive.writestr(HEADER_MEMBER, json.dumps(header))


def _rewrite_member(data, path, member, edit):
    """Copy the archive ``data`` to ``path`` with one member's text edited."""
    with zipfile.ZipFile(io.BytesIO(data)) as source, zipfile.ZipFile(path, "w") as target:
        for info in source.infolist():
            content = source.read(info)
            if info.filename == member:
                content = edit(content.decode("utf-8")).encode("utf-8")
            target.writestr(info, content)


@pytest.mark.parametrize("module, name", [("os", "system"), ("builtins", "eval"),
                                          ("subprocess", "Popen")])
def test_schema_edited_to_name_code_is_refused(tmp_path, good_bytes, module, name):
    path = tmp_path / "evil.hyperplane"

    def swap(text):
        schema = json.loads(text)
        schema["__module__"], schema["__class__"] = module, name
        return json.dumps(schema)

    _rewrite_member(good_bytes, path, "schema.json", swap)
    assert f"{module}.{name}" in _refused(path, "refused to load")


def test_garbage_schema_is_refused(tmp_path, good_bytes):
    path = tmp_path / "bad.hyperplane"
    _rewrite_member(good_bytes, path, "schema.json", lambda text: text[: len(text) // 2])
    _refused(path, "corrupt")


def test_only_plain_data_classes_of_hyperplane_are_trusted():
    from hyperplane.io._files import restores_as_plain_data

    def make(name, body, bases=()):
        return type(name, bases, {"__module__": "hyperplane.somefamily._state", **body})

    plain = make("State", {"__init__": lambda self: None, "step": lambda self: 1})
    assert restores_as_plain_data(plain)
    assert restores_as_plain_data(make("Child", {}, (plain,)))
    for hook in ("__setstate__", "__reduce__", "__reduce_ex__", "__new__", "__getattr__"):
        hooked = make("Hooked", {hook: lambda *args: None})
        assert not restores_as_plain_data(hooked), hook
        assert not restores_as_plain_data(make("Child", {}, (hooked,))), hook
    assert not restores_as_plain_data(make("Oops", {}, (ValueError,)))
    assert not restores_as_plain_data(type("Foreign", (), {}))  # not hyperplane's own


@pytest.mark.parametrize("edit, words", [
    (lambda text: text.replace(f'"format_version": {FORMAT_VERSION},', ''),
     "has no format_version"),
    (lambda text: text.replace(f'"format_version": {FORMAT_VERSION}', '"format_version": "1"'),
     "is not a positive integer"),
    (lambda text: text.replace(f'"format_version": {FORMAT_VERSION}', '"format_version": -3'),
     "is not a positive integer"),
    (lambda text: text.replace(f'"format_version": {FORMAT_VERSION}', '"format_version": true'),
     "is not a positive integer"),
])
def test_a_missing_or_mistyped_format_version_is_called_damaged_not_newer(tmp_path, good_bytes,
                                                                         edit, words):
    path = tmp_path / "m.hyperplane"
    _rewrite_member(good_bytes, path, "hyperplane.json", edit)
    with pytest.raises(ValueError, match=words) as caught:
        load(path)
    assert "newer" not in str(caught.value)
