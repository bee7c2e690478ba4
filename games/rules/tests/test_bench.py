"""The rollout benchmark: the same games for the same seed, with either policy."""

import pytest

from games.rules.bench import run
from games.rules.state import Options


@pytest.mark.parametrize("policy", ["random", "basic"])
def test_it_plays_the_same_games_for_the_same_seed(policy):
    first = run(2, 3, 4, Options(), policy)
    again = run(2, 3, 4, Options(), policy)

    assert first["policy"] == policy
    assert first["winners_digest"] == again["winners_digest"]
    assert first["mean_turns"] == again["mean_turns"] > 0
    assert first["turns_per_s"] > 0 and first["turns_per_cpu_s"] > 0


def test_it_plays_basic_games_shorter_than_random_ones():
    assert run(2, 10, 4, Options(), "basic")["mean_turns"] < run(2, 10, 4, Options())["mean_turns"]
