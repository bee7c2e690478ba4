"""List queries compiled once per process (config/statements.py) return what the ORM returns."""

import pytest

from config import statements
from games.models import Game, Seat

pytestmark = pytest.mark.django_db


def seats_of(game_ids):
    return (
        Seat.objects.filter(game_id__in=game_ids)
        .order_by("game_id", "position")
        .values_list("game_id", "user__username", "joined_at", "deadline")
    )


def games_of(user_id):
    return Game.objects.filter(host_id=user_id).order_by("pk").values_list("code", flat=True)


@pytest.fixture
def tables(alice, bob, charlie):
    games = []
    for host, guest in ((alice, bob), (bob, charlie), (alice, charlie)):
        game = Game.objects.create(host=host, seat_count=2)
        Seat.objects.create(game=game, user=host, position=0)
        Seat.objects.create(game=game, user=guest, position=1)
        games.append(game)
    return games


def test_it_returns_the_rows_the_orm_returns(tables, alice, bob):
    ids = [game.pk for game in tables]
    for some in (ids, ids[:1], ids[1:]):
        rows = statements.values("test seats", seats_of, some)
        assert rows == list(seats_of(some))
        assert rows[0][2].tzinfo is not None  # the dates converted as the ORM converts them
    for user in (alice, bob):
        assert statements.values("test games", games_of, user.pk) == list(games_of(user.pk))


def test_a_list_as_long_as_a_user_makes_it_compiles_a_few_statements(tables, alice, bob):
    """Lists of 1 to 300 ids (an exclude, as a reader's blocked players): 10 statements, not 300."""
    ids = [game.pk for game in tables]
    built = []

    def others(game_ids):
        return Seat.objects.exclude(game_id__in=game_ids).order_by("pk").values_list("pk")

    def build(game_ids):
        built.append(len(game_ids))
        return others(game_ids)

    for length in range(1, 301):
        some = (ids[length % 3 :] + list(range(10**6, 10**6 + length)))[:length]
        rows = statements.values("test long list", build, some)
        assert rows == list(others(some)) and len(rows) < len(ids) * 2
    assert built == [1, 2, 4, 8, 16, 32, 64, 128, 256, 512]


def test_it_builds_and_compiles_a_statement_once(tables, alice, bob):
    built = []

    def build(user_id):
        built.append(user_id)
        return games_of(user_id)

    assert statements.values("test once", build, alice.pk) == list(games_of(alice.pk))
    assert statements.values("test once", build, bob.pk) == list(games_of(bob.pk))
    assert len(built) == 1 and built[0] < 0  # built once, with a stand-in id


def test_it_refuses_what_it_cannot_compile_once(alice):
    with pytest.raises(ValueError, match="values_list"):
        statements.values("test models", lambda user_id: Game.objects.filter(host_id=user_id), 1)
    with pytest.raises(ValueError, match="every argument"):
        statements.values("test ignored", lambda user_id: games_of(alice.pk), 1)


def hosted(user_id):
    return Game.objects.filter(host_id=user_id).only("code", "status").order_by("-pk")


def test_it_builds_the_models_the_orm_builds(tables, alice, bob):
    for user in (alice, bob):
        games = statements.models("test hosted", hosted, user.pk)
        orm = list(hosted(user.pk))
        assert games == orm
        assert [g.get_deferred_fields() for g in games] == [g.get_deferred_fields() for g in orm]
        assert [(g.code, g.status) for g in games] == [(g.code, g.status) for g in orm]


def test_it_refuses_models_with_their_relations(alice):
    with pytest.raises(ValueError, match="select_related"):
        statements.models("test related", lambda u: hosted(u).select_related("host"), alice.pk)


def test_it_takes_names_and_moments_as_the_orm_does(tables, alice):
    first = Game.objects.order_by("pk").first()

    def since(host_name, when):
        games = Game.objects.filter(host__username=host_name, created_at__gte=when)
        return games.order_by("pk").values_list("code", flat=True)

    for name, when in (
        ("alice", first.created_at),
        ("bob", first.created_at),
        ("alice", tables[2].created_at),
    ):
        assert statements.values("test since", since, name, when) == list(since(name, when))
    with pytest.raises(TypeError):
        statements.values("test since", since, None, first.created_at)


def test_joined_works_out_its_columns_once_and_reads_alike_each_time(tables, alice, monkeypatch):
    """The columns and each model's share of a row are worked out at the first call only."""
    from accounts.models import User

    def read(game_ids):
        return Seat.objects.filter(game_id__in=game_ids).order_by("game_id", "position")

    ids = [game.pk for game in tables]
    args = (read, (ids,), Seat, ("game", "position"))
    first = statements.joined("test joined once", *args, {"user": (User, ("username",))})
    worked_out = []
    columns = statements._columns
    monkeypatch.setattr(statements, "_columns", lambda *a: worked_out.append(a) or columns(*a))
    again = statements.joined("test joined once", *args, {"user": (User, ("username",))})
    assert worked_out == []
    names = ("username", "display_name")
    other = statements.joined("test joined other", *args, {"user": (User, names)})

    assert worked_out == [(Seat, ("game", "position")), (User, names)]
    expected = [(s.pk, s.game_id, s.position, s.user.username) for s in read(ids)]
    for seats in (first, again):
        assert [(s.pk, s.game_id, s.position, s.user.username) for s in seats] == expected
    assert [s.user.display_name for s in other] == [s.user.display_name for s in read(ids)]
