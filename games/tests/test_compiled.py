"""A move's reads and writes, each written once (games/models/game.py, games/table/compiled.py, config/statements.py)."""

import random
from datetime import timedelta

import pytest
from django.db import connection, transaction
from django.utils import timezone

from accounts.models import PlayerStats
from config.statements import insert, save_fields, save_many
from games import rules
from games.models import Game, Move, Seat
from games.models.game import locked_game, table_seats
from games.rules.bots import random_move
from games.table.compiled import seat_at
from games.tests.review_helpers import started_game


def fields(instance):
    return {f.attname: getattr(instance, f.attname) for f in instance._meta.concrete_fields}


@pytest.fixture
def game(alice, bob, charlie, without_broadcasts):
    with without_broadcasts():
        game = started_game([alice, bob, charlie])
    Seat.objects.filter(game=game, position=1).update(reserve=timedelta(days=2), absent=True)
    return game


def test_it_reads_the_game_as_the_orm_does(game):
    with transaction.atomic():
        read = locked_game(game.pk)

    assert fields(read) == fields(Game.objects.get(pk=game.pk))
    assert isinstance(read.snapshot, dict) and read.started_at.tzinfo is not None
    assert read._state.adding is False and read._state.db == "default"


def test_it_reads_the_seats_with_their_users_in_order_and_no_query_more(
    game, django_assert_num_queries
):
    expected = list(game.seats.select_related("user"))

    with django_assert_num_queries(1):
        seats = table_seats(game)
        users = [seat.user for seat in seats]
        games = [seat.game for seat in seats]

    assert [fields(s) for s in seats] == [fields(s) for s in expected]
    assert [fields(u) for u in users] == [fields(s.user) for s in expected]
    assert games == [game] * 3 and all(g is game for g in games)
    assert seats[1].reserve == timedelta(days=2) and seats[1].absent is True
    assert seats[1]._loaded_clock == seats[1]._clock()  # Seat.from_db's, for save_clock


def test_the_same_statement_serves_every_value(game, alice, bob, without_broadcasts):
    with without_broadcasts():
        other = started_game([alice, bob])

    assert [s.user for s in table_seats(other)] == [alice, bob]
    assert len(table_seats(game)) == 3


def test_a_missing_row_raises_does_not_exist(db):
    with pytest.raises(Game.DoesNotExist), transaction.atomic():
        locked_game(-1)
    assert table_seats(Game(pk=-1)) == []


def test_a_move_saves_every_field_it_changes_to_the_end_of_the_game(game):
    rng = random.Random(3)
    game.refresh_from_db()
    while game.status == Game.Status.ACTIVE:
        state = game.state()
        seat = rng.choice(rules.awaiting(state))[0]
        game.play(seat, random_move(state, seat, rng))

        # What the move left in memory is what a fresh read finds: nothing left unsaved.
        assert fields(game) == fields(Game.objects.get(pk=game.pk))
    assert game.winner_id is not None or game.end_reason
    assert game.summary and game.ended_at


def test_it_finds_a_players_seat_with_the_game_and_its_large_columns_left(
    game, bob, django_user_model, django_assert_num_queries
):
    outsider = django_user_model.objects.create_user("dave")
    expected = Seat.objects.select_related("game").get(game=game, user=bob)

    with django_assert_num_queries(1):
        seat = seat_at(game.code, bob.pk)
        read = fields(seat), seat.game.code, seat.game.version

    assert read == (fields(expected), game.code, expected.game.version)
    assert seat.game.get_deferred_fields() == {"snapshot", "summary"}
    assert seat_at(game.code, outsider.pk) is None
    assert seat_at("no-such", bob.pk) is None


def test_it_saves_the_named_fields_alone_as_the_orm_would(game, alice):
    seat = Seat.objects.get(game=game, position=0)
    seat.deadline = seat.timeout_at = None
    seat.reserve = timedelta(hours=5)
    seat.absent = True
    seat.result = "win"  # changed, not named: not saved
    Seat.objects.filter(pk=seat.pk).update(seen_at=game.started_at)  # changed meanwhile

    save_fields(seat, ["deadline", "reserve", "absent"])

    saved = Seat.objects.get(pk=seat.pk)
    assert (saved.deadline, saved.reserve, saved.absent) == (None, timedelta(hours=5), True)
    assert saved.result == "" and saved.seen_at == game.started_at
    other = Seat.objects.get(game=game, position=1)
    assert other.reserve == timedelta(days=2)  # the row named alone

    game.snapshot = {"a": [1, "b"]}
    game.winner = alice
    save_fields(game, ["snapshot", "winner"])
    game = Game.objects.get(pk=game.pk)
    assert (game.snapshot, game.winner_id) == ({"a": [1, "b"]}, alice.pk)


def test_it_saves_the_named_fields_of_many_rows_at_once_as_bulk_update_would(alice, bob):
    rows = [PlayerStats.objects.create(user=user) for user in (alice, bob)]
    for n, row in enumerate(rows):
        row.games = 10 + n
        row.by_players = {"2": [n, 1]}  # a JSON column
        row.wins = 5  # changed, not named: not saved
    save_many(rows, ["games", "by_players"])
    save_many([], ["games"])  # nothing to save: no statement

    saved = [PlayerStats.objects.get(pk=row.pk) for row in rows]
    assert [(s.games, s.by_players, s.wins) for s in saved] == [
        (10, {"2": [0, 1]}, 0),
        (11, {"2": [1, 1]}, 0),
    ]


# PostgreSQL always returns an inserted key; SQLite can also tell the last one, which a
# database that cannot return it is asked for.
WAYS = [True, False] if connection.vendor == "sqlite" else [True]


@pytest.mark.parametrize("returning", WAYS, ids=["returning", "last id"][: len(WAYS)])
def test_it_inserts_a_row_and_gives_it_its_key(game, returning, monkeypatch):
    monkeypatch.setattr(connection.features, "can_return_columns_from_insert", returning)
    before = Move.objects.filter(game=game).count()
    made = timezone.now() - timedelta(minutes=3)

    row = insert(Move(game=game, n=99, seat=1, move={"kind": "end"}, created_at=made))

    assert row.pk is not None and row._state.adding is False
    assert fields(Move.objects.get(pk=row.pk)) == fields(row)
    assert Move.objects.filter(game=game).count() == before + 1
    assert Move.objects.get(pk=row.pk).created_at == made
