"""Every text the playground's server and page write exists in 中文 and English.

The page's labels (``static/i18n.js``): the 中文 side has no English word
(beyond the books' symbols), the English side no Chinese character; every
error code the server can send (a :class:`FieldError`'s code, a stream's
``"code"``) has its label; uploads are refused with a code naming why.
"""

import ast
import re
from pathlib import Path

import pytest

from hyperplane.playground._data import parse_upload
from hyperplane.playground._fields import FieldError

from .test_browser_layout import _english_words

PLAYGROUND = Path(__file__).resolve().parents[2] / "src" / "hyperplane" / "playground"


def labels():
    text = (PLAYGROUND / "static" / "i18n.js").read_text(encoding="utf-8")
    entries = re.finditer(r'(?:"([^"]+)"|(\w+)):\s*\["((?:[^"\\]|\\.)*)",\s*'
                          r'"((?:[^"\\]|\\.)*)"\]', text)
    return {m.group(1) or m.group(2): (m.group(3), m.group(4)) for m in entries}


def server_codes():
    """The codes in the playground's sources: FieldError(field, message, code, ...)
    calls (and the helpers that build one) and ``"code": ...`` entries."""
    codes = set()
    for path in PLAYGROUND.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "FieldError":
                if len(node.args) > 2 and isinstance(node.args[2], ast.Constant):
                    codes.add(node.args[2].value)
            if isinstance(node, ast.Dict):
                for key, value in zip(node.keys, node.values):
                    if (isinstance(key, ast.Constant) and key.value == "code"
                            and isinstance(value, ast.Constant)):
                        codes.add(value.value)
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and \
                    re.fullmatch(r"upload_\w+|points(_\w+)?", node.value):
                codes.add(node.value)
    return codes - {None}


def test_every_error_code_has_both_languages():
    table, codes = labels(), server_codes()
    assert {"run_gone", "run_failed", "upload_unreadable", "points_one_class",
            "two_numeric", "too_many_rows"} <= codes
    missing = sorted(code for code in codes if f"err_{code}" not in table)
    assert missing == []


def test_the_chinese_labels_have_no_english_and_the_english_no_chinese():
    for key, (zh, en) in labels().items():
        if key.startswith("upload:"):
            continue
        bare = re.sub(r"\{\w+\}", "", zh)
        assert _english_words(bare) == [], (key, zh)
        assert not re.search(r"[\u4e00-\u9fff]", en), (key, en)


@pytest.mark.parametrize("content, target, code", [
    (b"a,b\n1,2,3\n", None, "upload_unreadable"), (b"a,b\n", None, "upload_no_rows"),
    (b"", None, "upload_empty"), (b"a,b\n1,2\n", "z", "upload_unknown_column"),
    (b"a,b\n1,\n2,1\n", None, "upload_missing_labels"), (b"a\n1\n2\n", None,
                                                          "upload_no_features"),
    (b"\xff\xfe\x00\x81\x30", None, "upload_encoding")])
def test_an_upload_is_refused_with_a_code_naming_why(content, target, code):
    with pytest.raises(FieldError) as refused:
        parse_upload(content, "f.csv", target)
    assert refused.value.code == code
    assert labels()[f"err_{code}"][0]
