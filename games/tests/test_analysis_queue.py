"""The queue of post-game analyses: what it takes, one game at a time, across restarts."""

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.utils import timezone

from games.history import analysis as analysis_module
from games.history.analysis import (
    STALE_AFTER,
    Analysis,
    AnalysisRefused,
    analyse_next,
    claim,
    decisions_to_judge,
    queue_finished_games,
    request_analysis,
)
from games.models import Game, Move
from games.play.limits import TakingTurns
from games.tests.review_helpers import started_game, stored_game

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def small_budget(settings):
    settings.ANALYSIS_SECONDS_PER_DECISION = 0.002
    settings.ANALYSIS_SECONDS_PER_GAME = 60  # a bound no test game reaches (a busy machine)


def run_to_the_end(worker="w1", slices=500):
    for _ in range(slices):
        if not analyse_next(worker=worker, seconds=0.2):
            return
    raise AssertionError("the analysis never ended")


def test_it_queues_a_game_that_ended_and_analyses_it_in_slices(alice, bob):
    game = stored_game([alice, bob], seed=3)
    assert analyse_next(worker="w1", seconds=0) == 1
    analysis = Analysis.objects.get(game=game)
    assert analysis.status == Analysis.Status.RUNNING
    assert 0 < analysis.judged < analysis.decisions == len(decisions_to_judge(game))
    run_to_the_end()
    analysis.refresh_from_db()
    assert analysis.status == Analysis.Status.DONE and analysis.finished_at is not None
    assert analysis.judged == analysis.decisions
    assert analysis.verdicts
    for n, verdict in analysis.verdicts.items():
        assert verdict["seat"] == game.moves.get(n=int(n)).seat
        assert verdict["mark"] in ("", "inaccuracy", "mistake", "blunder")


def test_it_works_on_one_game_at_a_time_and_another_worker_takes_the_next(alice, bob):
    first = stored_game([alice, bob], seed=3)
    second = stored_game([alice, bob], seed=2)
    Game.objects.filter(pk=second.pk).update(ended_at=first.ended_at + timedelta(seconds=1))
    analyse_next(worker="w1", seconds=0)
    assert Analysis.objects.get(game=first).worker == "w1"
    analyse_next(worker="w1", seconds=0)
    assert Analysis.objects.get(game=first).status == Analysis.Status.RUNNING
    assert Analysis.objects.get(game=second).status == Analysis.Status.QUEUED
    analyse_next(worker="w2", seconds=0)
    assert Analysis.objects.get(game=second).worker == "w2"
    assert Analysis.objects.get(game=first).worker == "w1"


def test_it_serves_each_owner_in_turn_not_the_oldest_first(alice, bob, charlie, monkeypatch):
    monkeypatch.setattr(analysis_module, "_turns", TakingTurns())
    hers = [stored_game([alice, bob], seed=seed) for seed in (3, 2, 5)]
    his = stored_game([charlie, bob], seed=4)  # ended last
    for n, game in enumerate([*hers, his]):
        Game.objects.filter(pk=game.pk).update(ended_at=timezone.now() + timedelta(seconds=n))
    queue_finished_games(timezone.now() + timedelta(seconds=5))

    order = [claim(f"w{n}").game_id for n in range(4)]

    assert order == [hers[0].pk, his.pk, hers[1].pk, hers[2].pk]


def test_one_owner_s_many_queued_games_take_one_place_among_the_choices(
    alice, bob, charlie, monkeypatch
):
    # More of alice's games queued than a claim chooses among: charlie's, queued last,
    # is still served second, not after all of hers.
    monkeypatch.setattr(analysis_module, "_turns", TakingTurns())
    monkeypatch.setattr(analysis_module, "FAIR_AMONG", 2)
    hers = [stored_game([alice, bob], seed=seed) for seed in (3, 2, 5, 6)]
    his = stored_game([charlie, bob], seed=4)
    for n, game in enumerate([*hers, his]):
        Game.objects.filter(pk=game.pk).update(ended_at=timezone.now() + timedelta(seconds=n))
    queue_finished_games(timezone.now() + timedelta(seconds=6))

    order = [claim(f"w{n}").game_id for n in range(5)]

    assert order == [hers[0].pk, his.pk, hers[1].pk, hers[2].pk, hers[3].pk]


def test_it_goes_on_after_a_restart_from_the_last_decision_saved(alice, bob):
    game = stored_game([alice, bob], seed=3)
    analyse_next(worker="w1", seconds=0)
    saved = Analysis.objects.get(game=game)
    # w1 died. A new worker leaves the claim alone while it is fresh, then takes it over.
    assert claim("w9") is None
    later = timezone.now() + STALE_AFTER * 2
    taken = claim("w9", now=later)
    assert taken.pk == saved.pk and taken.worker == "w9"
    assert taken.reached == saved.reached and taken.verdicts == saved.verdicts
    run_to_the_end("w9")
    taken.refresh_from_db()
    assert taken.status == Analysis.Status.DONE
    assert taken.judged == taken.decisions  # no decision judged twice


def test_it_never_queues_or_analyses_a_game_in_play(alice, bob):
    game = started_game([alice, bob])
    assert queue_finished_games() == 0
    assert analyse_next(worker="w1") == 0
    with pytest.raises(AnalysisRefused, match="once it has ended"):
        request_analysis(game, alice)
    assert not Analysis.objects.exists()


def test_it_judges_only_the_decisions_people_made_themselves(alice, bob):
    game = stored_game([alice, bob], seed=3)
    get_user_model().objects.filter(pk=bob.pk).update(bot_level="basic")
    forced = game.moves.filter(seat=0).order_by("n")[3]
    Move.objects.filter(pk=forced.pk).update(cause=Move.Cause.TIMEOUT)
    wanted = decisions_to_judge(game)
    assert wanted and forced.n not in wanted
    assert {game.moves.get(n=n).seat for n in wanted} == {0}


def test_it_refuses_more_requests_than_a_player_may_make_in_a_day(settings, alice, bob, charlie):
    settings.ANALYSIS_REQUESTS_PER_DAY = 1
    first = stored_game([alice, bob], seed=3)
    second = stored_game([alice, bob], seed=2)
    Game.objects.filter(pk__in=[first.pk, second.pk]).update(ended_at=timezone.now())
    assert request_analysis(first, charlie).status == Analysis.Status.QUEUED
    assert request_analysis(first, charlie).requested_by == charlie  # the same row again
    with pytest.raises(AnalysisRefused, match="1 analysis in the last day"):
        request_analysis(second, charlie)
    assert not Analysis.objects.filter(game=second).exists()


def test_it_counts_a_players_requests_under_their_accounts_lock(monkeypatch, alice, bob, charlie):
    # As the fair shares are counted (games/play/limits.py): two requests at once cannot
    # both take the day's last place. The lock is held while the day's requests are counted.
    game = stored_game([alice, bob], seed=3)
    counted_under = []
    real_filter = Analysis.objects.filter

    def lock_account(user):
        counted_under.append(("lock", user, len(connection.atomic_blocks)))

    def filter_(*args, **kwargs):
        if "requested_by" in kwargs:
            counted_under.append(("count", kwargs["requested_by"], len(connection.atomic_blocks)))
        return real_filter(*args, **kwargs)

    monkeypatch.setattr(analysis_module, "lock_account", lock_account)
    monkeypatch.setattr(Analysis.objects, "filter", filter_)

    outside = len(connection.atomic_blocks)  # the test's own transaction
    request_analysis(game, charlie)

    inside = outside + 1  # one transaction of its own, the lock's
    assert counted_under == [("lock", charlie, inside), ("count", charlie, inside)]


@pytest.mark.parametrize("count, options", [(3, {"enhanced": True}), (10, {})])
def test_it_analyses_games_of_many_players_in_either_edition(alice, bob, count, options):
    users = [alice, bob] + [
        get_user_model().objects.create_user(f"player{i}") for i in range(count - 2)
    ]
    game = stored_game(users, seed=6, options=options)
    analyse_next(worker="w1", seconds=0)
    analysis = Analysis.objects.get(game=game)
    assert analysis.judged >= 1
    (verdict,) = analysis.verdicts.values()
    assert len(verdict["chances"]) == count
    assert sum(verdict["chances"]) == pytest.approx(1, abs=0.01)


def test_a_game_s_time_bounds_its_analysis_however_long_the_game(client, settings, alice, bob):
    # Wild switches are unlimited: a game can be made long enough to hold a worker for hours
    # at one deal a decision. Its time is spent, then its analysis is done with what it found.
    settings.ANALYSIS_SECONDS_PER_GAME = 0.05  # a few decisions' time, on any machine
    game = stored_game([alice, bob], seed=3)
    wanted = decisions_to_judge(game)

    run_to_the_end()

    analysis = Analysis.objects.get(game=game)
    assert analysis.status == Analysis.Status.DONE and analysis.finished_at is not None
    assert 0 < analysis.judged < len(wanted) == analysis.decisions
    assert analysis.reached < wanted[-1]  # the first decisions, in order; none after
    assert analysis.verdicts and {int(n) for n in analysis.verdicts} <= set(
        wanted[: analysis.judged]
    )
    # No decision is begun past the bound (one begun before it may run on past it).
    assert analysis.seconds < 0.05 + 1
    client.force_login(alice)
    html = client.get(f"/games/{game.code}/review/").content.decode()
    assert (
        f"Analysed: the first {analysis.judged} of {len(wanted)} decisions judged, each from its "
        "player's own view; this game's time for analysis ran out before the others." in html
    )
