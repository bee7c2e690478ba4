import subprocess
import sys

import pytest
from django.conf import settings

# The SQLite run only: the engine imported without Django.
pytestmark = pytest.mark.one_database

# The rules engine must stay plain Python: importing it may not pull in Django.
CHECK = (
    "import games.rules, sys; "
    "assert not any(m == 'django' or m.startswith('django.') for m in sys.modules)"
)


def test_it_imports_the_rules_engine_without_django():
    result = subprocess.run(
        [sys.executable, "-c", CHECK],
        cwd=settings.BASE_DIR,
        capture_output=True,
        text=True,
        check=False,
    )

    assert result.returncode == 0, result.stderr
