"""Lists build their rows from values read by statements compiled once (games/history/lists.py)."""

import pytest
from django.contrib.auth import get_user_model

from config.statements import joined
from games.history.lists import PLAYER_NAMES, TABLE_FIELDS, seated, seats_with_games
from games.models import Game, Invitation, Seat
from games.tools.management.commands.page_bench import finished_history

pytestmark = pytest.mark.django_db


def loaded(obj):
    return {k: v for k, v in vars(obj).items() if not k.startswith("_")}


def by_player(user_id):
    return Seat.objects.filter(user_id=user_id).order_by("-ended_at", "-game_id")


def test_it_builds_the_seats_and_games_select_related_builds(alice, bob, charlie):
    finished_history(alice, [bob, charlie], 4)
    orm = list(
        by_player(alice.pk)
        .select_related("game")
        .only("game", "ended_at", "result", *(f"game__{name}" for name in TABLE_FIELDS))
    )

    seats = seats_with_games("test seats", by_player, alice.pk)

    assert seats == orm
    assert [s.game for s in seats] == [s.game for s in orm]
    assert all(s.game.pk == s.game_id for s in seats)
    assert [loaded(s.game) for s in seats] == [loaded(s.game) for s in orm]
    assert loaded(seats[0])["ended_at"] == orm[0].ended_at


def test_it_follows_relations_of_relations_and_leaves_none_for_no_row(alice, bob, charlie):
    finished_history(alice, [bob, charlie], 3)
    Game.objects.filter(pk=by_player(alice.pk)[0].game_id).update(winner=None)
    User = get_user_model()

    seats = joined(
        "test winners",
        by_player,
        (alice.pk,),
        Seat,
        ("game",),
        {"game": (Game, ("winner",)), "game__winner": (User, PLAYER_NAMES)},
    )

    orm = list(by_player(alice.pk).select_related("game__winner"))
    assert [s.game.winner for s in seats] == [s.game.winner for s in orm]
    assert seats[0].game.winner is None and seats[1].game.winner is not None
    assert seats[1].game.winner.name == orm[1].game.winner.name
    assert "password" not in vars(seats[1].game.winner)  # only the names were read


def test_it_reads_each_games_players_in_seat_order(alice, bob, charlie):
    game = Game.objects.create(host=charlie, seat_count=3)
    for position, user in enumerate((charlie, alice, bob)):
        Seat.objects.create(game=game, user=user, position=position)
    Invitation.objects.create(game=game, user=bob, invited_by=charlie)
    bob.display_name = "Bobby"
    bob.save()

    players = seated([game.pk])[game.pk]

    assert [(p.pk, p.name) for p in players] == [
        (charlie.pk, "charlie"),
        (alice.pk, "alice"),
        (bob.pk, "Bobby"),
    ]
    assert players[2].url == bob.get_absolute_url()
