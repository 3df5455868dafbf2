"""The gettext catalogs: zh_CN translates every ``N_`` message, and ``translate`` uses it."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path
from types import ModuleType

import pytest

from tessera.core.i18n import translate

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "check_catalogs.py"
HAN = re.compile(r"[\u4e00-\u9fff]")


def _load_check_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("check_catalogs", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_zh_cn_catalog_translates_every_extracted_message(capsys: pytest.CaptureFixture[str]) -> None:
    status = _load_check_script().main([])
    out, err = capsys.readouterr()
    assert status == 0, err
    assert re.fullmatch(r"catalogs: \d+ messages, all translated\n", out)


def test_translate_uses_the_zh_cn_catalog() -> None:
    english = "This field is required."
    chinese = translate(english, locale="zh-CN")
    assert chinese != english
    assert HAN.search(chinese)

    too_long = translate("Must be at most {maxLength} characters.", locale="zh-CN", maxLength=5)
    assert "5" in too_long
    assert "{maxLength}" not in too_long
    assert HAN.search(too_long)

    assert translate(english, locale="en") == english
