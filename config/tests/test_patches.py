"""Each copy or patch of third-party code was read against the version installed (config/patches.py)."""

from importlib.metadata import version
from pathlib import Path

import pytest
from django.conf import settings

from config.patches import PIECES

# Installed packages and files: the same on either database.
pytestmark = pytest.mark.one_database


@pytest.mark.parametrize("piece", PIECES, ids=lambda piece: f"{piece.module}:{piece.package}")
def test_each_piece_was_read_against_the_version_installed(piece):
    installed = version(piece.package)
    assert installed == piece.version, (
        f"{piece.module} stands for {piece.copies} of {piece.package} {piece.version}, and "
        f"{installed} is installed: read that code again, mend the piece, then write "
        f"{installed} in config/patches.py"
    )


def test_each_piece_names_a_module_of_this_project():
    for piece in PIECES:
        path = Path(settings.BASE_DIR) / piece.module.split(" ")[0]
        assert path.is_file(), piece.module


def test_the_versions_written_are_those_requirements_txt_pins():
    pins = {}
    for line in (Path(settings.BASE_DIR) / "requirements.txt").read_text().splitlines():
        name, _, pinned = line.partition("==")
        pins[name.strip().lower()] = pinned.strip()
    for piece in PIECES:
        assert pins.get(piece.package.lower()) == piece.version, piece
