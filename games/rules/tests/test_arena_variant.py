"""scripts/arena_variant.py: the arena with some of the strong player's settings changed."""

import io

import pytest

from games.rules import arena, search
from games.rules.tests import helpers


def test_it_runs_the_arena_with_the_settings_in_force_and_restores_them(monkeypatch):
    variant = helpers.load_script("arena_variant")
    seen = []
    real_run = arena.run

    def spy(*args, **kwargs):
        seen.append((search.TIME_LIMIT, search.CANDIDATES))
        return real_run(*args, **kwargs)

    monkeypatch.setattr(arena, "run", spy)
    before = (search.TIME_LIMIT, search.CANDIDATES)
    out = io.StringIO()
    result = variant.main(
        ["--set", "TIME_LIMIT=0.25", "--set=CANDIDATES=2", "--a", "strong", "--b", "basic"]
        + ["--games", "2", "--budget", "1", "--quiet", "--jobs", "1"],
        out,
    )
    assert seen == [(0.25, 2)]
    assert (search.TIME_LIMIT, search.CANDIDATES) == before
    assert result["settings"] == {"TIME_LIMIT": 0.25, "CANDIDATES": 2}
    assert result["games"] == 2 and result["a"]["level"] == "strong"
    assert out.getvalue().count("\n") == 1 and '"settings"' in out.getvalue()


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--set", "NO_SUCH=1"], "constant of search.py"),
        (["--set", "guess=1"], "constant of search.py"),
        (["--set", "TIME_LIMIT"], "NAME=VALUE"),
        (["--set", "CANDIDATES=many"], "is not a whole number"),
        (["--set", "TIME_LIMIT=soon"], "is not a number"),
        (["--set", "HAND_WEIGHTS_TWO=1"], "is not a number"),
        (["--set", "CANDIDATES=2", "--jobs", "2"], "use --jobs 1"),
    ],
)
def test_it_refuses_a_bad_setting_with_a_readable_message(argv, message):
    variant = helpers.load_script("arena_variant")
    before = search.CANDIDATES
    with pytest.raises(SystemExit) as exit:
        variant.main(argv, io.StringIO())
    assert message in str(exit.value)
    assert search.CANDIDATES == before


def test_it_tells_the_time_per_decision_in_the_arena_progress_line():
    stats = {
        "a": {"wins": 3, "decisions": 4, "seconds": 2.0, "max": 0.9},
        "b": {"wins": 1, "decisions": 4, "seconds": 0.001, "max": 0.0005},
    }
    line = arena.progress_line(4, 200, stats, 0)
    assert line == "4/200 games: A 3 B 1 draws 0; A 500 ms a decision, 900 ms at most"
    empty = {side: {"wins": 0, "decisions": 0, "seconds": 0.0, "max": 0.0} for side in "ab"}
    assert arena.progress_line(0, 2, empty, 0).endswith("A 0 ms a decision, 0 ms at most")
