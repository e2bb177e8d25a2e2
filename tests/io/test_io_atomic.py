"""A save that fails for any reason leaves the file it would replace byte-for-byte."""

import functools
import io
import json
import os
import signal
import subprocess
import sys
import threading
import time
import zipfile
from pathlib import Path

import numpy as np
import pytest
from sklearn.linear_model import Perceptron
from sklearn.tree import DecisionTreeClassifier

import hyperplane
from hyperplane.io import load, read_header, save
from hyperplane.io import _files

SRC = str(Path(hyperplane.__file__).resolve().parents[1])


def fitted(**extra):
    model = Perceptron().fit([[3.0, 3.0], [4.0, 3.0], [1.0, 1.0]], [1, 1, -1])
    for name, value in extra.items():
        setattr(model, name, value)
    return model


@pytest.fixture
def good(tmp_path):
    """A directory holding one good model file; returns (path, its bytes)."""
    path = tmp_path / "model.hyperplane"
    save(fitted(), path)
    return path, path.read_bytes()


def assert_untouched(path, before):
    assert path.read_bytes() == before
    assert load(path).predict([[3.0, 3.0]]).tolist() == [1]
    assert sorted(p.name for p in path.parent.iterdir()) == [path.name]   # no temp left


@pytest.mark.parametrize("extra, named", [
    (threading.Lock(), "_thread.lock"),
    (functools.partial(max, 1), "functools.partial"),
    (DecisionTreeClassifier().fit([[0], [1]], [0, 1]), "sklearn.tree._tree.Tree"),
])
def test_untrusted_type_is_refused_before_the_target_is_touched(good, extra, named):
    path, before = good
    with pytest.raises(TypeError, match=named.replace(".", r"\.")) as info:
        save(fitted(extra_=extra), path)
    assert "not trust" in str(info.value)
    assert_untouched(path, before)


def test_attribute_skops_cannot_write(good):
    path, before = good
    with pytest.raises(TypeError, match="cannot save.*generator"):
        save(fitted(extra_=(i for i in range(3))), path)
    assert_untouched(path, before)


def test_exception_inside_the_writer(good, monkeypatch):
    path, before = good

    def half_then_fail(obj, file, **kwargs):
        file.write(b"PK\x03\x04 half an archive")
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(_files.skops_io(), "dump", half_then_fail)
    with pytest.raises(RuntimeError, match="disk on fire"):
        save(fitted(), path)
    monkeypatch.undo()
    assert_untouched(path, before)


def test_bad_metadata_leaves_the_file(good):
    path, before = good
    with pytest.raises(TypeError, match="JSON"):
        save(fitted(), path, metadata={"x": object()})
    assert_untouched(path, before)


KILL_INSIDE = """
import os, signal, sys
import numpy as np
import skops.io as sio
from sklearn.linear_model import Perceptron
from hyperplane.io import save

real_dump = sio.dump
def dump_then_die(obj, file, **kwargs):
    real_dump(obj, file, **kwargs)           # the archive is half written: no header yet
    file.flush()
    os.kill(os.getpid(), getattr(signal, sys.argv[2]))
sio.dump = dump_then_die
model = Perceptron().fit([[0.0], [1.0]], [0, 1])
model.extra_ = np.arange(1000.0)
save(model, sys.argv[1])
"""


def run_python(code, *args):
    env = dict(os.environ, PYTHONPATH=SRC + os.pathsep + os.environ.get("PYTHONPATH", ""))
    return subprocess.Popen([sys.executable, "-c", code, *map(str, args)], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)


@pytest.mark.parametrize("signame", ["SIGKILL", "SIGTERM"])
def test_process_killed_mid_write(good, signame):
    path, before = good
    process = run_python(KILL_INSIDE, path, signame)
    _, err = process.communicate(timeout=300)
    assert process.returncode == -getattr(signal, signame), err.decode()
    leftovers = [p for p in path.parent.iterdir() if p != path]
    assert len(leftovers) == 1 and leftovers[0].name.startswith(".model.hyperplane.")
    assert zipfile.is_zipfile(leftovers[0])       # the kill came after real writing
    leftovers[0].unlink()
    assert_untouched(path, before)


SLOW_SAVE = """
import sys
import numpy as np
from sklearn.linear_model import Perceptron
from hyperplane.io import save
model = Perceptron().fit([[0.0], [1.0]], [0, 1])
model.extra_ = np.random.default_rng(0).random(3_000_000)   # slow to deflate
print("saving", flush=True)
save(model, sys.argv[1])
"""


def test_process_killed_from_outside_while_the_temporary_file_grows(good):
    path, before = good
    process = run_python(SLOW_SAVE, path)
    assert process.stdout.readline().strip() == b"saving"
    deadline = time.monotonic() + 240
    seen = None
    while time.monotonic() < deadline and process.poll() is None:
        temporary = [p for p in path.parent.iterdir() if p.name.endswith(".tmp")]
        if temporary and temporary[0].stat().st_size > 0:
            seen = temporary[0]
            break
        time.sleep(0.001)
    process.send_signal(signal.SIGKILL)
    process.communicate(timeout=60)
    assert seen is not None, "the save ended before its temporary file was seen"
    seen.unlink()
    assert_untouched(path, before)


def test_success_replaces_through_a_symlink_and_keeps_the_mode(tmp_path):
    real = tmp_path / "real.hyperplane"
    save(fitted(), real)
    os.chmod(real, 0o640)
    link = tmp_path / "link.hyperplane"
    link.symlink_to(real)
    save(fitted(note_=np.ones(3)), link)
    assert link.is_symlink() and os.path.samefile(link, real)
    assert (real.stat().st_mode & 0o777) == 0o640
    assert load(real).note_.tolist() == [1.0, 1.0, 1.0]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.hyperplane", "real.hyperplane"]


def rewrite_header(path, **changes):
    """Copy of the archive at ``path`` with header fields changed."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(path) as source, zipfile.ZipFile(buffer, "w") as target:
        for item in source.infolist():
            data = source.read(item.filename)
            if item.filename == _files.HEADER_MEMBER:
                header = json.loads(data)
                header.update(changes)
                data = json.dumps(header).encode()
            target.writestr(item, data)
    path.write_bytes(buffer.getvalue())


def test_load_refuses_a_header_naming_another_class(good):
    path, _ = good
    rewrite_header(path, model="sklearn.svm._classes.SVC")
    with pytest.raises(ValueError, match=r"sklearn\.svm\._classes\.SVC.*"
                                         r"sklearn\.linear_model\._perceptron\.Perceptron"):
        load(path)


def test_header_names_the_saved_class(good):
    path, _ = good
    assert read_header(path)["model"] == "sklearn.linear_model._perceptron.Perceptron"


def test_a_directory_or_a_missing_directory_is_named(tmp_path):
    with pytest.raises(IsADirectoryError, match="is a directory"):
        save(fitted(), tmp_path)
    with pytest.raises(FileNotFoundError, match="no directory"):
        save(fitted(), tmp_path / "nowhere" / "m.hyperplane")
    assert list(tmp_path.iterdir()) == []
