"""Computer players at tables (issue 7): the host seats them, the worker moves them."""

import pytest
from django.urls import reverse
from django.utils import timezone

from accounts.models import Rating
from games import rules
from games.models import Game, Move, Seat
from games.play import bots, worker

pytestmark = pytest.mark.django_db


def open_table(host, seats=4, **fields):
    game = Game.objects.create(host=host, seat_count=seats, **fields)
    Seat.objects.create(game=game, user=host, position=0)
    return game


def test_it_fills_the_free_seats_with_bots_and_starts(client, alice):
    game = open_table(alice)
    client.force_login(alice)

    response = client.post(reverse("lobby:fill_with_bots", args=[game.code]), {"level": "basic"})

    game.refresh_from_db()
    assert response.status_code == 302 and response.url == game.get_absolute_url()
    assert game.status == Game.Status.ACTIVE
    names = [s.user.username for s in game.seats.order_by("position")]
    assert sorted(names) == ["alice", "bot-basic-1", "bot-basic-2", "bot-basic-3"]
    bot = game.seats.get(user__username="bot-basic-2").user
    assert bot.is_bot and bot.bot_level == "basic" and not bot.has_usable_password()


def test_it_reuses_bot_accounts_across_tables(alice, bob):
    first, second = open_table(alice, seats=3), open_table(bob, seats=2)
    bots.fill_with_bots(first, "random")
    bots.fill_with_bots(second, "random")
    assert second.seats.get(position=1).user.username == "bot-random-1"


def test_it_never_seats_a_person_who_took_a_computers_name(client, alice):
    # Registered before such names were kept for computer players (sign-up refuses them now).
    User = alice.__class__
    squatter = User.objects.create_user("bot-strong-2", "squatter@example.com", "x-pass-12345")
    game = open_table(alice, seats=4, private=True)
    client.force_login(alice)

    client.post(reverse("lobby:fill_with_bots", args=[game.code]), {"level": "strong"})

    seated = [seat.user for seat in game.seats.select_related("user")]
    assert squatter not in seated
    assert [user.bot_level for user in seated if user != alice] == ["strong"] * 3
    assert sorted(u.username for u in seated) == [
        "alice",
        "bot-strong-1",
        "bot-strong-2-2",
        "bot-strong-3",
    ]
    assert not bots.bot_account("strong", 2).has_usable_password()
    assert bots.bot_account("strong", 2).username == "bot-strong-2-2", "the same bot each time"


def test_it_recognises_a_computer_by_its_level_not_its_name(alice):
    User = alice.__class__
    person = User.objects.create_user("bot-basic-1", "p@example.com", "x-pass-12345")

    bot = bots.bot_account("basic", 1)

    assert bot != person and bot.is_bot and not person.is_bot


def test_it_lets_only_the_host_seat_bots(client, alice, bob):
    game = open_table(alice)
    client.force_login(bob)
    response = client.post(reverse("lobby:fill_with_bots", args=[game.code]), {"level": "basic"})
    assert response.status_code == 403
    assert game.seats.count() == 1


def test_it_refuses_an_unknown_level_and_changes_nothing(client, alice):
    game = open_table(alice)
    client.force_login(alice)
    response = client.post(
        reverse("lobby:fill_with_bots", args=[game.code]), {"level": "cheater"}, follow=True
    )
    assert "Choose a computer level." in response.text
    assert game.seats.count() == 1 and Game.objects.get(pk=game.pk).status == "open"


@pytest.fixture
def against_a_bot(traveller, alice):
    """A live game of alice against a basic bot, waiting for the bot."""
    game = open_table(alice, seats=2, seed=11)
    bots.fill_with_bots(game, "basic")
    game.refresh_from_db()
    if game.state().current == 0:
        game.play(0, rules.Move.end())
        game.refresh_from_db()
    return game


def test_it_moves_a_bot_a_moment_after_the_previous_move(traveller, against_a_bot):
    game = against_a_bot
    before = game.version
    assert bots.play_bot_moves() == 0, "nobody could follow a move made at once"
    traveller.shift(bots.PAUSE)
    assert bots.play_bot_moves() == 1
    game.refresh_from_db()
    assert game.version > before
    made = game.moves.filter(n=before).get()
    assert made.seat == 1 and made.cause == Move.Cause.PLAYER


def test_it_never_moves_a_bot_inside_the_request_of_a_move(client, traveller, alice):
    game = open_table(alice, seats=2, seed=11)
    bots.fill_with_bots(game, "basic")
    game.refresh_from_db()
    while game.state().current != 0:
        traveller.shift(bots.PAUSE)
        bots.play_bot_moves()
        game.refresh_from_db()
    client.force_login(alice)
    moves = game.moves.count()
    client.post(reverse("games:move", args=[game.code]), {"kind": "end", "version": game.version})
    state = Game.objects.get(pk=game.pk).state()
    assert game.moves.count() > moves
    assert state.current == 1 or state.phase == "discard", "the bot has not moved yet"


def test_it_plays_a_whole_game_of_bots_through_the_worker_and_rates_them(traveller, alice):
    game = Game.objects.create(host=alice, seat_count=2, seed=5)
    game.join(bots.bot_account("basic", 1))
    game.join(bots.bot_account("random", 1))  # the table is full: the game starts
    for _round in range(3000):
        game.refresh_from_db()
        if game.status == Game.Status.FINISHED:
            break
        traveller.shift(bots.PAUSE)
        for job, _done in worker.JOBS:  # one round of the worker
            job(timezone.now())
    assert game.status == Game.Status.FINISHED
    assert game.replay() == game.state()
    if game.winner is not None:
        rated = set(Rating.objects.values_list("user__username", flat=True))
        assert rated == {"bot-basic-1", "bot-random-1"}
    causes = [
        (m.n, m.seat, m.cause, m.move) for m in game.moves.all() if m.cause not in ("", "forced")
    ]
    assert not causes, causes[:5]


def test_it_marks_bots_on_profiles_and_the_leaderboard(client, alice):
    bot = bots.bot_account("strong", 1)
    response = client.get(bot.get_absolute_url())
    assert "Computer player" in response.text
    assert "Strong" in response.text


def test_it_keeps_a_round_of_bot_moves_short(traveller, alice, bob, monkeypatch):
    tables = []
    for user in (alice, bob):
        game = open_table(user, seats=2, seed=11)
        bots.fill_with_bots(game, "basic")
        game.refresh_from_db()
        if game.state().current == 0:
            game.play(0, rules.Move.end())
        tables.append(game)
    traveller.shift(bots.PAUSE)
    monkeypatch.setattr(bots, "ROUND_SECONDS", 0)  # as if the first move took all the time

    assert bots.play_bot_moves() == 1  # one move, then the round ends
    assert bots.play_bot_moves() == 1  # the other table's bot, next round
    assert all(Game.objects.get(pk=t.pk).version > t.version for t in tables)
