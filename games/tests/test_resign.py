"""Resigning a game (docs/rules.md section 7, "Ruling (resign)"): the views and the model."""

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from accounts.models import PlayerStats, RatingChange
from games import rules
from games.models import Game, Move, Seat
from games.play.clocks import enforce_deadlines
from games.rules.position import card_in
from games.tests.review_helpers import started_game  # noqa: E402

from .helpers import set_position, state_of

pytestmark = pytest.mark.django_db


def make_game(users, **fields):
    return started_game(users, **{"seed": 7, **fields})


@pytest.fixture
def carol(db):
    return get_user_model().objects.create_user("carol", "carol@example.com", "x-carol-42")


@pytest.fixture
def trio(alice, bob, carol):
    return make_game([alice, bob, carol])


def resign_url(game):
    return reverse("games:resign", args=[game.code])


def seat(game, position):
    return Seat.objects.get(game=game, position=position)


def test_it_shows_a_confirmation_before_resigning(client, table_game, alice):
    client.force_login(alice)
    response = client.get(resign_url(table_game))
    assert response.status_code == 200
    page = response.content.decode()
    assert "Resign this game?" in page and 'method="post"' in page
    assert state_of(table_game).resigned == (), "a GET changes nothing"


def test_it_ends_a_two_player_game_when_alice_resigns_and_bob_wins(client, table_game, alice, bob):
    client.force_login(alice)
    response = client.post(resign_url(table_game))
    assert response.status_code == 302
    game = Game.objects.get(pk=table_game.pk)
    assert game.status == Game.Status.FINISHED and game.end_reason == "resigned"
    assert game.winner == bob
    assert {s.user_id: s.result for s in game.seats.all()} == {alice.id: "loss", bob.id: "win"}
    last = game.moves.order_by("n").last()
    assert (last.seat, last.move, last.cause) == (0, {"kind": "resign"}, Move.Cause.PLAYER)
    # Totals are counted once, when the game ends; a game resigned in its first round
    # gives no rating (accounts/stats.py: nobody farms a rating from a second account),
    # but costs the player who resigned.
    assert PlayerStats.objects.get(user=alice).losses == 1
    assert PlayerStats.objects.get(user=bob).wins == 1
    [change] = RatingChange.objects.filter(game=game)
    assert change.user == alice and change.delta < 0
    assert game.replay() == game.state()
    page = client.get(game.get_absolute_url()).content.decode()
    assert "bob won: alice resigned" in page


def test_it_refuses_an_outsider(client, table_game, charlie):
    client.force_login(charlie)
    assert client.get(resign_url(table_game)).status_code == 403
    assert client.post(resign_url(table_game)).status_code == 403
    assert Game.objects.get(pk=table_game.pk).status == Game.Status.ACTIVE


def test_it_refuses_to_resign_twice(client, trio, alice):
    client.force_login(alice)
    client.post(resign_url(trio))
    before = (state_of(trio).to_json(), trio.moves.count())
    response = client.post(resign_url(trio), follow=True)
    assert "You have already resigned." in response.content.decode()
    assert (state_of(trio).to_json(), trio.moves.count()) == before
    # The confirmation page says so too.
    response = client.get(resign_url(trio), follow=True)
    assert "You have already resigned." in response.content.decode()


def test_it_refuses_to_resign_a_finished_game(client, table_game, alice, bob):
    table_game.play(1, rules.Move.resign())
    client.force_login(alice)
    response = client.post(resign_url(table_game), follow=True)
    assert "This game is not in play." in response.content.decode()
    assert Game.objects.get(pk=table_game.pk).winner == alice


def test_it_plays_on_with_defaults_for_a_resigned_seat_in_a_three_player_game(trio):
    turn = state_of(trio).current
    trio.play(turn, rules.Move.resign())
    game = Game.objects.get(pk=trio.pk)
    assert game.status == Game.Status.ACTIVE
    state = game.state()
    assert state.resigned == (turn,) and state.current == (turn + 1) % 3
    assert seat(game, turn).absent and seat(game, turn).deadline is None
    # The resigned turn was ended at once by the default move: nobody waits for its clock.
    causes = list(game.moves.filter(seat=turn).values_list("move", "cause"))
    assert causes[-1] == ({"kind": "end"}, Move.Cause.ABSENT)
    assert game.replay() == state


def test_it_hands_a_payment_waiting_for_a_resigning_player_to_the_defaults(alice, bob, carol):
    game = make_game([alice, bob, carol])
    state = set_position(
        game,
        """
        players: alice bob carol
        turn: alice
        alice hand: debt_collector
        bob bank: 2M 5M
        bob hand: just_say_no
        """,
    )
    game.play(0, rules.Move.play(card_in(state, "alice", "hand", "debt_collector"), (1,)))
    assert seat(game, 1).deadline is not None, "bob could answer with Just Say No"
    game.play(1, rules.Move.resign())
    after = state_of(game)
    assert after.pending is None and len(after.players[0].bank) == 1, "bob paid 5M at once"
    assert seat(game, 1).deadline is None


def test_it_ends_when_the_last_other_player_resigns(trio, alice, bob, carol):
    trio.play(0, rules.Move.resign())
    trio.play(2, rules.Move.resign())
    game = Game.objects.get(pk=trio.pk)
    assert game.end_reason == "resigned" and game.winner == bob
    assert list(game.seats.values_list("result", flat=True)) == ["loss", "win", "loss"]
    assert game.replay() == game.state()


def test_it_ends_when_the_only_other_player_left_goes_absent(traveller, trio, alice, bob, carol):
    trio.play(0, rules.Move.resign())
    # carol times out until she is marked absent: bob is the only player left, and wins.
    for _ in range(50):
        game = Game.objects.get(pk=trio.pk)
        if game.status != Game.Status.ACTIVE:
            break
        state = game.state()
        if state.current == 1:
            trio.play(1, rules.default_move(state, 1))
            if state_of(trio).phase == "discard":
                trio.play(1, rules.default_move(state_of(trio), 1))
            continue
        traveller.shift(timedelta(seconds=61))
        enforce_deadlines()
    game = Game.objects.get(pk=trio.pk)
    assert game.status == Game.Status.FINISHED
    assert game.end_reason == "resigned" and game.winner == bob
    last = game.moves.order_by("n").last()
    assert (last.seat, last.move, last.cause) == (2, {"kind": "resign"}, Move.Cause.ABSENT)
    assert list(game.seats.values_list("result", flat=True)) == ["loss", "win", "loss"]
    assert game.replay() == game.state()


def test_it_tells_who_resigned_and_who_went_absent(client, trio, alice, bob, carol):
    trio.play(0, rules.Move.resign())
    Seat.objects.filter(game=trio, position=2).update(absent=True)
    state = state_of(trio)
    awaited = rules.awaiting(state)[0][0]
    trio.play(awaited, rules.default_move(state, awaited))  # settled: carol is counted out

    game = Game.objects.get(pk=trio.pk)
    assert game.status == Game.Status.FINISHED and game.winner == bob
    assert game.counted_out() == {2}
    client.force_login(bob)
    table = client.get(game.get_absolute_url()).text
    assert "bob won: alice resigned and carol went absent" in table
    assert table.count(">Resigned<") == 1 and table.count(">Absent<") == 1


def test_it_refuses_to_give_a_resigned_player_their_seat_back(client, trio, alice):
    trio.play(0, rules.Move.resign())
    client.force_login(alice)
    page = client.get(trio.get_absolute_url()).content.decode()
    assert "You resigned" in page and "Take my seat back" not in page
    response = client.post(reverse("games:come_back", args=[trio.code]), follow=True)
    assert "You resigned: your seat is played by the defaults to the end." in (
        response.content.decode()
    )
    assert seat(trio, 0).absent


def test_it_counts_a_resigned_player_as_a_loss_when_nobody_wins(trio):
    trio.play(0, rules.Move.resign())
    game = Game.objects.get(pk=trio.pk)
    state = game.state()
    state.end_reason, state.winner, state.phase = "stalemate", -1, "over"
    seats = list(game.seats.all())
    game._finish(state, seats, game.last_move_at)
    assert [s.result for s in seats] == ["loss", "draw", "draw"]


def test_it_tells_the_resignation_in_the_log_and_the_review(client, table_game, alice, charlie):
    table_game.play(0, rules.Move.resign())
    client.force_login(charlie)
    log = client.get(reverse("games:log", args=[table_game.code])).content.decode()
    assert "alice resigned" in log
    review = client.get(reverse("games:review", args=[table_game.code])).content.decode()
    assert "alice resigned" in review
    assert "bob won: alice resigned" in review


def test_it_resigns_with_htmx_and_redraws_the_board(client, trio, alice):
    client.force_login(alice)
    response = client.post(resign_url(trio), headers={"HX-Request": "true"})
    assert response.status_code == 200
    html = response.content.decode()
    assert 'id="status"' in html and "You resigned" in html
    assert "Resigned" in html
