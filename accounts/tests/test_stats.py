"""Totals and OpenSkill ratings, counted once when a game ends (issue 5)."""

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone
from openskill.models import PlackettLuce

from accounts.models import PlayerStats, Rating, RatingChange
from accounts.stats import PAIR_GAMES_PER_DAY, record_result
from games import rules
from games.models import Game, Seat
from games.play.bots import bot_account
from games.rules.position import card_in
from games.tests.helpers import set_position

pytestmark = pytest.mark.django_db

T0 = timezone.datetime(2026, 11, 1, 12, 0, tzinfo=timezone.UTC)


def finished(users, results, enhanced=False, absent=(), turns=12, when=0, resigned=()):
    """Make a finished game with the given results ("win", "loss", "draw"), counted in the stats.

    `resigned`: the positions of the players who resigned in it (absent too).
    """
    absent = set(absent) | set(resigned)
    game = Game.objects.create(
        host=users[0],
        seat_count=len(users),
        status=Game.Status.FINISHED,
        options={"enhanced": enhanced},
        turn_number=turns,
        ended_at=T0 + timedelta(hours=when),
    )
    seats = [
        Seat.objects.create(
            game=game,
            user=u,
            position=p,
            result=results[p],
            absent=p in absent,
            ended_at=game.ended_at,
        )
        for p, u in enumerate(users)
    ]
    winners = [u for u, result in zip(users, results, strict=True) if result == "win"]
    game.winner = winners[0] if winners else None
    game.save(update_fields=["winner"])
    record_result(game, seats, resigned=set(resigned))
    return game


def stats(user):
    return PlayerStats.objects.get(user=user)


def rating(user, edition="classic"):
    return Rating.objects.get(user=user, edition=edition)


def test_it_counts_wins_losses_draws_and_streaks(alice, bob):
    for n, alice_result in enumerate(["win", "win", "loss", "win", "win", "win", "draw"]):
        other = {"win": "loss", "loss": "win", "draw": "draw"}[alice_result]
        finished([alice, bob], [alice_result, other], when=n)
    mine = stats(alice)
    assert (mine.games, mine.wins, mine.losses, mine.draws) == (7, 5, 1, 1)
    assert (mine.current_streak, mine.longest_streak) == (0, 3)
    theirs = stats(bob)
    assert (theirs.wins, theirs.losses, theirs.longest_streak) == (1, 5, 1)


def test_it_counts_games_by_number_of_players_and_edition(alice, bob, charlie):
    finished([alice, bob], ["win", "loss"])
    finished([alice, bob, charlie], ["loss", "win", "loss"], enhanced=True)
    finished([charlie, alice, bob], ["loss", "win", "loss"], enhanced=True)
    mine = stats(alice)
    assert mine.by_players == {"2": [1, 1], "3": [2, 1]}
    assert mine.by_edition == {"classic": [1, 1], "enhanced": [2, 1]}


def test_it_averages_turns_to_win_in_rounds(alice, bob):
    finished([alice, bob], ["win", "loss"], turns=20)  # 10 rounds
    finished([alice, bob], ["win", "loss"], turns=13)  # 7 rounds (the 7th begun)
    assert stats(alice).turns_to_win == 17


def test_it_rates_the_winner_first_and_the_others_shared_second(alice, bob, charlie):
    finished([alice, bob, charlie], ["win", "loss", "loss"])
    model = PlackettLuce()
    expected = model.rate([[model.rating()] for _ in range(3)], ranks=[1, 2, 2])
    assert rating(alice).mu == pytest.approx(expected[0][0].mu)
    assert rating(bob).mu == pytest.approx(expected[1][0].mu)
    assert rating(bob).ordinal == rating(charlie).ordinal < 0 < rating(alice).ordinal
    change = RatingChange.objects.get(user=alice)
    assert change.before == pytest.approx(0.0) and change.delta == pytest.approx(change.after)


def test_it_ranks_an_absent_player_last(alice, bob, charlie):
    finished([alice, bob, charlie], ["win", "loss", "loss"], absent={2})
    assert rating(alice).ordinal > rating(bob).ordinal > rating(charlie).ordinal
    assert stats(charlie).abandoned == 1 and stats(bob).abandoned == 0


def test_it_changes_no_rating_without_a_winner(alice, bob):
    finished([alice, bob], ["draw", "draw"])
    assert not Rating.objects.exists() and not RatingChange.objects.exists()
    assert stats(alice).draws == 1


def test_it_rates_each_edition_apart(alice, bob):
    finished([alice, bob], ["win", "loss"])
    finished([alice, bob], ["loss", "win"], enhanced=True)
    assert rating(alice, "classic").ordinal > 0 > rating(alice, "enhanced").ordinal
    assert rating(alice, "classic").games == rating(alice, "enhanced").games == 1


def test_it_keeps_a_rating_provisional_until_its_uncertainty_is_low(alice, bob):
    games = 0
    while rating_or_none(alice) is None or rating(alice).provisional:
        finished([alice, bob], ["win", "loss"] if games % 2 else ["loss", "win"], when=24 * games)
        games += 1
        assert games < 40
    assert 5 <= games <= 20
    assert rating(alice).sigma <= Rating.PROVISIONAL_SIGMA


def rating_or_none(user):
    return Rating.objects.filter(user=user).first()


def test_it_counts_a_game_once_when_its_last_move_is_played(alice, bob):
    game = Game.objects.create(host=alice, seat_count=2)
    Seat.objects.create(game=game, user=alice, position=0)
    Seat.objects.create(game=game, user=bob, position=1)
    game.start()
    state = set_position(
        game,
        """
        alice hand: green 1M
        alice table: red: red red red; dark_blue: dark_blue dark_blue; green: green green
        """,
    )
    state.turns = 3  # the second round: a game played, so rated
    game.snapshot = state.to_json()
    game.save(update_fields=["snapshot"])
    game.play(0, rules.Move.lay(card_in(state, "alice", "hand", "green"), "green"))
    assert (stats(alice).wins, stats(bob).losses) == (1, 1)
    assert rating(alice).games == 1 and RatingChange.objects.count() == 2
    with pytest.raises(rules.IllegalMove):
        game.play(1, rules.Move.end())
    assert stats(alice).games == 1, "a finished game is counted once"


def test_it_rates_no_game_that_ended_in_its_first_round(alice, bob, charlie):
    # A second account that resigns at once: a win, not a rating.
    finished([alice, bob], ["win", "loss"], turns=2)
    finished([alice, charlie, bob], ["win", "loss", "loss"], turns=3, when=1)
    assert not RatingChange.objects.exists()
    assert stats(alice).wins == 2 and stats(bob).losses == 2

    finished([alice, bob], ["win", "loss"], turns=3, when=2)
    assert RatingChange.objects.filter(user=alice).count() == 1


def test_a_player_who_resigns_in_the_first_round_loses_rating_and_nobody_gains(alice, bob, charlie):
    # Resigning every poor deal at once must not keep a rating from falling.
    finished([alice, bob], ["win", "loss"], turns=2, resigned=[1])
    [change] = RatingChange.objects.all()
    assert change.user == bob and change.delta < 0
    assert rating(bob).games == 1
    assert not Rating.objects.filter(user=alice).exists(), "the winner gains nothing"

    finished([alice, charlie, bob], ["win", "loss", "loss"], turns=3, when=1, resigned=[2])
    assert sorted(RatingChange.objects.values_list("user__username", flat=True)) == ["bob", "bob"]
    assert rating(bob).games == 2


def test_it_rates_a_few_games_of_two_people_a_day(alice, bob, charlie):
    # A rematch loop with a second account: the first games count, not the next.
    for hour in range(PAIR_GAMES_PER_DAY + 2):
        finished([alice, bob], ["win", "loss"], when=hour)
    assert RatingChange.objects.filter(user=alice).count() == PAIR_GAMES_PER_DAY
    assert stats(alice).wins == PAIR_GAMES_PER_DAY + 2

    finished([alice, charlie], ["win", "loss"], when=PAIR_GAMES_PER_DAY + 2)
    assert RatingChange.objects.filter(user=alice).count() == PAIR_GAMES_PER_DAY + 1
    # A game of three people is rated: two who played often must not take charlie's rating.
    finished([charlie, alice, bob], ["win", "loss", "loss"], when=PAIR_GAMES_PER_DAY + 3)
    assert RatingChange.objects.filter(user=charlie, game__seats__user=bob).exists()
    finished([alice, bob], ["win", "loss"], when=PAIR_GAMES_PER_DAY + 24)  # the next day
    assert RatingChange.objects.filter(user=alice).count() == PAIR_GAMES_PER_DAY + 3


def test_it_bounds_a_winner_against_second_accounts_taking_turns_to_lose(alice, bob, charlie):
    # alice wins every game of three against bob and charlie, who resign in turn.
    for hour in range(PAIR_GAMES_PER_DAY + 2):
        finished([alice, bob, charlie], ["win", "loss", "loss"], when=hour)
    assert RatingChange.objects.filter(user=alice).count() == PAIR_GAMES_PER_DAY

    # Someone new who wins at their table is rated: the three's games are not theirs.
    dave = get_user_model().objects.create_user("dave", "dave@example.com", "x-dave-42")
    finished([dave, alice, bob], ["win", "loss", "loss"], when=PAIR_GAMES_PER_DAY + 2)
    assert RatingChange.objects.filter(user=dave).count() == 1
    # and alice's win at a table with someone new is rated again
    finished([alice, bob, dave], ["win", "loss", "loss"], when=PAIR_GAMES_PER_DAY + 3)
    assert RatingChange.objects.filter(user=alice).count() == PAIR_GAMES_PER_DAY + 2


def test_it_rates_every_game_against_a_computer_player(alice):
    bot = bot_account("basic", 1)
    for hour in range(PAIR_GAMES_PER_DAY + 2):
        finished([alice, bot], ["win", "loss"], when=hour)
    assert RatingChange.objects.filter(user=alice).count() == PAIR_GAMES_PER_DAY + 2


def test_a_game_changes_the_rating_of_its_own_edition_only(alice, bob):
    finished([alice, bob], ["win", "loss"])  # classic: the older rating rows
    finished([alice, bob], ["win", "loss"], enhanced=True, when=1)
    enhanced = Rating.objects.filter(edition="enhanced")
    before_enhanced = {r.user_id: (r.mu, r.sigma, r.games) for r in enhanced}
    before = Rating.objects.get(user=alice, edition="classic").ordinal

    game = finished([alice, bob], ["win", "loss"], when=2)  # classic again

    assert {r.user_id: (r.mu, r.sigma, r.games) for r in enhanced.all()} == before_enhanced
    classic = Rating.objects.get(user=alice, edition="classic")
    assert classic.games == 2
    change = RatingChange.objects.get(game=game, user=alice)
    assert change.before == before and change.after == classic.ordinal


def test_a_resignation_is_not_counted_as_an_abandoned_game(alice, bob):
    finished([alice, bob], ["loss", "win"], resigned=[0])
    assert PlayerStats.objects.get(user=alice).abandoned == 0
    finished([alice, bob], ["loss", "win"], absent=[0], when=1)
    assert PlayerStats.objects.get(user=alice).abandoned == 1


def test_every_loss_to_a_computer_player_is_rated(alice):
    # The daily bound on a pair is for two people, not for a person and a computer player.
    bot = bot_account("basic", 1)
    for hour in range(PAIR_GAMES_PER_DAY + 2):
        finished([bot, alice], ["win", "loss"], when=hour)
    assert RatingChange.objects.filter(user=alice).count() == PAIR_GAMES_PER_DAY + 2
