"""Game.start and Game.play: the locked path of one move."""

import pytest
from django.contrib.auth import get_user_model

from games import rules
from games.models import Game, Seat, StaleBoard
from games.rules.position import card_in, position

pytestmark = pytest.mark.django_db


@pytest.fixture
def game():
    User = get_user_model()
    alice = User.objects.create_user("alice", password="pw-alice-1")
    bob = User.objects.create_user("bob", password="pw-bob-1")
    game = Game.objects.create(host=alice, seat_count=2)
    Seat.objects.create(game=game, user=alice, position=0)
    Seat.objects.create(game=game, user=bob, position=1)
    return game.start()


def test_it_deals_and_starts(game):
    state = game.state()
    assert game.status == Game.Status.ACTIVE
    assert game.version == 1
    assert state.seats == [s.user_id for s in game.seats.all()]
    assert sum(len(p.hand) for p in state.players) == 12  # 5 each and the first player's 2
    assert game.replay() == state


def test_it_applies_a_move_and_logs_it(game, django_capture_on_commit_callbacks):
    seat = game.state().current
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        events = game.play(seat, rules.Move.end().to_json(), version=1)
    assert events[0] == {"type": "end_turn", "seat": seat}
    assert len(callbacks) == 1  # the table and the players' badges, told together after the commit
    game.refresh_from_db()
    assert game.version == 2
    assert list(game.moves.values_list("n", "seat", "move")) == [(1, seat, {"kind": "end"})]
    assert game.state().current == 1 - seat
    assert game.replay() == game.state()


def test_it_refuses_an_illegal_move_and_changes_nothing(game):
    before = (game.snapshot, game.version)
    other = 1 - game.state().current
    with pytest.raises(rules.IllegalMove, match="not your turn"):
        game.play(other, {"kind": "end"}, version=1)
    game.refresh_from_db()
    assert (game.snapshot, game.version) == before
    assert not game.moves.exists()


def test_it_refuses_a_move_from_a_stale_board(game):
    seat = game.state().current
    game.play(seat, {"kind": "end"}, version=1)
    with pytest.raises(StaleBoard):
        game.play(1 - seat, {"kind": "end"}, version=1)
    game.refresh_from_db()
    assert game.version == 2 and game.moves.count() == 1


def test_it_refuses_a_malformed_move(game):
    with pytest.raises(rules.IllegalMove):
        game.play(0, {"kind": "explode"}, version=1)
    assert not game.moves.exists()


def test_it_records_the_result_when_the_game_ends(game):
    alice, bob = (seat.user_id for seat in game.seats.all())
    state = position("""
        players: alice bob
        alice hand: green
        alice table: brown: brown brown; dark_blue: dark_blue dark_blue; green: green green
    """)
    state.seats = [alice, bob]
    game.snapshot = state.to_json()
    game.save()
    game.play(0, rules.Move.lay(card_in(state, 0, "hand", "green"), "green"))
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert game.ended_at is not None and game.end_reason == "win"
    assert game.winner_id == alice
    assert list(game.seats.values_list("result", flat=True)) == ["win", "loss"]
    with pytest.raises(rules.IllegalMove):
        game.play(1, {"kind": "end"})
