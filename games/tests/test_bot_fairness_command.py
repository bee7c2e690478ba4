"""The bot fairness load test, on a tiny configuration: it times the honest bot's turns."""

import json
from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from games.models import Game
from games.play import bots
from games.play.limits import TakingTurns


@pytest.fixture(autouse=True)
def quick_bots(monkeypatch):
    monkeypatch.setattr(bots, "_turns", TakingTurns())
    # A fifth of the pause before each bot move: the turns are timed just the same, and the
    # test waits about 8 s instead of 33 (the pause is a real sleep between moves).
    monkeypatch.setattr(bots, "PAUSE", timedelta(seconds=0.2))


@pytest.mark.django_db(transaction=True)
def test_it_times_the_honest_bot_alone_and_beside_the_other_accounts_tables():
    out, err = StringIO(), StringIO()
    # A phase ends as soon as its 2 turns are timed (about 2 s each here); its limit is
    # only for a machine so busy that a turn takes far longer (60 s was once too short).
    call_command(
        "bot_fairness",
        *("--tables", "2", "--hostile-accounts", "2", "--turns", "2", "--hostile-level", "random"),
        *("--honest-level", "random", "--seconds", "240"),
        stdout=out,
        stderr=err,
    )

    result = json.loads(out.getvalue().strip().splitlines()[-1])
    assert (result["hostile_tables"], result["hostile_accounts"]) == (2, 2)
    assert result["alone_s"]["turns"] == result["loaded_s"]["turns"] == 2
    # Each turn holds at least one bot move, a PAUSE after the previous one.
    assert result["alone_s"]["min"] >= bots.PAUSE.total_seconds()
    assert result["hostile_moves_during_loaded_phase"] > 0
    assert "with 2 random tables of 2 account(s): bot turn 2:" in err.getvalue()
    assert not Game.objects.exists(), "its games are deleted afterwards"


@pytest.mark.django_db
def test_it_refuses_a_database_with_other_games_in_play(table_game):
    with pytest.raises(CommandError, match="scratch database"):
        call_command("bot_fairness", "--tables", "1", "--turns", "1")


@pytest.mark.django_db
def test_it_shares_the_hostile_tables_among_the_hostile_accounts(alice, bob):
    from games.tools.management.commands.bot_fairness import _keep_going

    _keep_going([alice, bob], 3, "random")

    hosts = sorted(Game.objects.filter(status=Game.Status.ACTIVE).values_list("host__username"))
    assert hosts == [("alice",), ("alice",), ("bob",)]
