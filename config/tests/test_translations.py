"""The Chinese catalogues: every marked string translated, every compiled catalogue current.

The catalogues are kept by hand (docs/languages.md), and the compiled `.mo`
files are committed: a `.po` edited without `compilemessages` would show the
old words, or English, to every reader of Chinese, and no page test would see
it.
"""

import gettext
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CATALOGUES = sorted(ROOT.glob("*/locale/zh_Hans/LC_MESSAGES/django.po"))

pytestmark = pytest.mark.one_database


def test_there_is_a_catalogue_for_each_app():
    assert [p.relative_to(ROOT).parts[0] for p in CATALOGUES] == ["accounts", "games", "lobby"]


def test_every_string_marked_for_translation_is_translated():
    found = subprocess.run(
        [sys.executable, "scripts/untranslated.py"], cwd=ROOT, capture_output=True, text=True
    )
    assert found.returncode == 0, found.stdout + found.stderr


@pytest.mark.parametrize("po", CATALOGUES, ids=lambda p: p.relative_to(ROOT).parts[0])
def test_the_compiled_catalogue_is_the_one_its_text_compiles_to(po, tmp_path):
    fresh = tmp_path / "django.mo"
    subprocess.run(["msgfmt", "--check-format", "-o", fresh, po], check=True)
    with fresh.open("rb") as f:
        expected = gettext.GNUTranslations(f)._catalog
    with po.with_suffix(".mo").open("rb") as f:
        committed = gettext.GNUTranslations(f)._catalog
    stale = sorted(str(k) for k in expected.keys() ^ committed.keys()) or sorted(
        str(k) for k in expected if expected[k] != committed[k]
    )
    assert not stale, f"compile {po.relative_to(ROOT)} again (compilemessages): {stale[:5]}"
