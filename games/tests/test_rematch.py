"""After a game: a rematch at the same seats and options, or a new game against the computer."""

import pytest
from django.urls import reverse

from games import rules
from games.models import Game, SeatingError
from games.play.bots import bot_account
from games.tests.review_helpers import started_game  # noqa: E402
from lobby.tests.conftest import open_table

pytestmark = pytest.mark.django_db

OPTIONS = {"enhanced": True, "built_sets": False, "wild_moves_cost_a_play": True}


def make_game(users, **fields):
    return started_game(users, **{"seed": 7, **fields})


@pytest.fixture
def finished(alice, bob):
    """A correspondence game with options, ended by bob resigning."""
    game = make_game([alice, bob], options=OPTIONS, pace="correspondence", pace_days=2)
    game.play(1, rules.Move.resign())
    return Game.objects.get(pk=game.pk)


def rematch_url(game):
    return reverse("games:rematch", args=[game.code])


def test_it_starts_the_rematch_with_the_same_options_when_both_accept(client, finished, alice, bob):
    client.force_login(alice)
    response = client.post(rematch_url(finished))
    assert response.status_code == 302 and response.url == finished.get_absolute_url()
    finished.refresh_from_db()
    table = finished.rematch
    assert table.status == Game.Status.OPEN and table.private and table.host == alice
    assert list(table.seats.values_list("user__username", flat=True)) == ["alice"]

    client.force_login(bob)
    page = client.get(finished.get_absolute_url()).content.decode()
    assert "alice wants a rematch." in page and "Accept the rematch" in page
    response = client.post(rematch_url(finished))

    table.refresh_from_db()
    assert response.status_code == 302 and response.url == table.get_absolute_url()
    assert table.status == Game.Status.ACTIVE
    assert table.options == OPTIONS and table.seat_count == 2
    assert (table.pace, table.pace_days) == ("correspondence", 2)
    assert set(table.seats.values_list("user__username", flat=True)) == {"alice", "bob"}
    page = client.get(finished.get_absolute_url()).content.decode()
    assert "The rematch has started." in page and table.get_absolute_url() in page


def test_it_opens_one_table_when_asked_twice(client, finished, alice, bob):
    client.force_login(alice)
    client.post(rematch_url(finished))
    client.post(rematch_url(finished))
    assert Game.objects.filter(host=alice, status=Game.Status.OPEN).count() == 1
    first = Game.objects.get(pk=finished.pk).rematch
    finished.ask_rematch(bob)
    assert Game.objects.get(pk=finished.pk).rematch == first
    assert Game.objects.exclude(pk=finished.pk).count() == 1


def test_it_tells_each_player_by_a_new_version(finished, alice):
    version = finished.version
    finished.ask_rematch(alice)
    assert Game.objects.get(pk=finished.pk).version == version + 1


def test_asking_again_changes_nothing_and_tells_nobody(
    finished, alice, bob, django_capture_on_commit_callbacks
):
    """Once a player has accepted, or the rematch has started, asking again is not news."""
    finished.ask_rematch(alice)
    version = Game.objects.get(pk=finished.pk).version

    def ask(player):
        with django_capture_on_commit_callbacks() as callbacks:
            finished.ask_rematch(player)
        return [c for c in callbacks if getattr(c, "__self__", None) == finished]

    assert ask(alice) == []  # already seated at the open table
    assert Game.objects.get(pk=finished.pk).version == version
    assert ask(bob) != []  # bob accepts: the rematch starts, and the finished game tells it
    assert Game.objects.get(pk=finished.pk).version == version + 1
    for player in (alice, bob, alice):  # the rematch has started
        assert ask(player) == []
    assert Game.objects.get(pk=finished.pk).version == version + 1


def test_it_seats_the_computer_players_at_once(alice):
    bot = bot_account("strong", 1)
    game = make_game([alice, bot])
    game.play(0, rules.Move.resign())
    table = Game.objects.get(pk=game.pk).ask_rematch(alice)
    assert table.status == Game.Status.ACTIVE, "the bot accepted: the table was full"
    assert set(table.seats.values_list("user__username", flat=True)) == {"alice", "bot-strong-1"}


def test_it_refuses_an_outsider(client, finished, charlie):
    client.force_login(charlie)
    assert client.post(rematch_url(finished)).status_code == 403
    assert Game.objects.get(pk=finished.pk).rematch is None


def test_it_lets_nobody_else_join_the_rematch(client, finished, alice, charlie):
    table = finished.ask_rematch(alice)
    with pytest.raises(SeatingError, match="Only the players of the previous game"):
        table.join(charlie)
    client.force_login(charlie)
    client.post(reverse("lobby:join", args=[table.code]))
    assert not table.seats.filter(user=charlie).exists()


def test_a_player_the_asker_blocked_cannot_accept(client, finished, alice, bob):
    from accounts.blocks import block

    table = finished.ask_rematch(alice)
    block(alice, bob)
    client.force_login(bob)

    response = client.post(rematch_url(finished), follow=True)

    assert "You can&#x27;t join this table." in response.content.decode()
    assert list(table.seats.values_list("user__username", flat=True)) == ["alice"]


def test_accepting_takes_a_seat_of_the_players_share(client, finished, alice, bob, settings):
    settings.CORRESPONDENCE_GAMES_PER_USER = 1
    elsewhere = Game.objects.create(host=bob, seat_count=2, pace="correspondence", pace_days=2)
    elsewhere.join(bob)
    table = finished.ask_rematch(alice)
    client.force_login(bob)

    response = client.post(rematch_url(finished), follow=True)

    assert "You already sit at 1 correspondence table" in response.content.decode()
    assert list(table.seats.values_list("user__username", flat=True)) == ["alice"]


def test_asking_first_takes_a_seat_of_the_players_share(client, finished, alice, settings):
    settings.CORRESPONDENCE_GAMES_PER_USER = 1
    elsewhere = Game.objects.create(host=alice, seat_count=2, pace="correspondence", pace_days=2)
    elsewhere.join(alice)
    client.force_login(alice)

    response = client.post(rematch_url(finished), follow=True)

    assert "You already sit at 1 correspondence table" in response.content.decode()
    assert Game.objects.get(pk=finished.pk).rematch is None


def test_it_refuses_a_rematch_of_a_game_not_over(client, table_game, alice):
    client.force_login(alice)
    response = client.post(rematch_url(table_game), follow=True)
    assert "A rematch can be asked for only once the game is over." in response.content.decode()
    assert Game.objects.get(pk=table_game.pk).rematch is None
    assert Game.objects.count() == 1


def test_it_refuses_a_get(client, finished, alice):
    client.force_login(alice)
    assert client.get(rematch_url(finished)).status_code == 405


def test_it_follows_an_htmx_player_to_the_rematch_when_it_starts(client, finished, alice, bob):
    finished.ask_rematch(alice)
    client.force_login(bob)
    response = client.post(rematch_url(finished), headers={"HX-Request": "true"})
    table = Game.objects.get(pk=finished.pk).rematch
    assert response.status_code == 200
    assert response["HX-Redirect"] == table.get_absolute_url()


def test_it_starts_a_new_game_against_the_computer_at_the_old_games_level(client, alice):
    game = make_game([alice, bot_account("random", 1)])
    game.play(0, rules.Move.resign())
    client.force_login(alice)
    response = client.post(reverse("games:computer", args=[game.code]))
    new = Game.objects.exclude(pk=game.pk).get()
    assert response.status_code == 302 and response.url == new.get_absolute_url()
    assert new.status == Game.Status.ACTIVE and new.pace == "live" and new.private
    players = list(new.seats.values_list("user__username", "user__bot_level"))
    assert sorted(players) == [("alice", ""), ("bot-random-1", "random")]


def test_it_starts_a_basic_computer_game_after_a_game_of_people(client, finished, bob, charlie):
    client.force_login(bob)
    client.post(reverse("games:computer", args=[finished.code]))
    new = Game.objects.exclude(pk=finished.pk).get()
    assert new.status == Game.Status.ACTIVE and new.options == OPTIONS
    assert new.seats.filter(user__bot_level="basic").count() == 1
    client.force_login(charlie)
    assert client.post(reverse("games:computer", args=[finished.code])).status_code == 403
    assert Game.objects.count() == 2


def test_it_offers_the_ways_out_only_to_the_players(client, finished, alice, charlie):
    client.force_login(alice)
    page = client.get(finished.get_absolute_url()).content.decode()
    assert "Rematch" in page and "New game against the computer" in page
    socket = f'ws-connect="/ws/games/{finished.code}/?here='
    assert "Back to the lobby" in page and socket in page
    client.force_login(charlie)
    page = client.get(finished.get_absolute_url()).content.decode()
    assert "New game against the computer" not in page
    assert socket not in page, "nothing changes for a spectator after the end"


def test_a_rematch_table_offers_no_invitation_link_or_computer_players(client, finished, alice):
    table = finished.ask_rematch(alice)
    client.force_login(alice)

    page = client.get(reverse("lobby:table", args=[table.code])).text

    assert "Fill the free seats with bots" not in page
    assert "Invite a player" not in page
    assert "Share this table" not in page
    other = open_table(alice, private=True)  # any other table of hers offers all three
    page = client.get(reverse("lobby:table", args=[other.code])).text
    assert "Fill the free seats with bots" in page and "Invite a player" in page
    assert "Share this table" in page


def test_nobody_else_can_be_invited_to_a_rematch(client, finished, alice, charlie):
    table = finished.ask_rematch(alice)
    client.force_login(alice)
    url = reverse("lobby:invite", args=[table.code])

    response = client.post(url, {"username": "charlie"}, follow=True)

    assert "Only the players of the previous game can join its rematch." in response.text
    assert not table.invitations.exists()
    assert not charlie.notifications.exists()
