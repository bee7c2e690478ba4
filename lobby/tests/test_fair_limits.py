"""Fair shares: one account cannot hold more open tables, computer games or invitations
than the settings allow (games/play/limits.py); staff are exempt."""

from datetime import timedelta

import pytest
import time_machine
from django.urls import reverse
from django.utils import timezone

from games import rules
from games.models import Game, Invitation, Notification
from lobby.tests.conftest import open_table

pytestmark = pytest.mark.django_db

TABLE = {"seat_count": "2", "pace": "live", "pace_seconds": "60", "pace_days": "3"}
TABLE |= {"reserve_days": "3", "bot_level": "basic"}


@pytest.fixture(autouse=True)
def small_limits(settings):
    settings.OPEN_TABLES_PER_USER = 2
    settings.COMPUTER_GAMES_PER_USER = 2
    settings.LIVE_GAMES_PER_USER = 3
    settings.CORRESPONDENCE_GAMES_PER_USER = 3
    settings.INVITATIONS_PER_HOUR = 3
    settings.INVITATIONS_PER_INVITEE_PER_DAY = 2


def play_computer(client):
    return client.post(reverse("lobby:play_computer"), {"level": "random", "seat_count": "2"})


# --- open tables ------------------------------------------------------------------------------


def test_it_refuses_a_third_open_table_saying_why(client, alice):
    client.force_login(alice)
    for _ in range(2):
        assert client.post(reverse("lobby:create"), TABLE).status_code == 302

    response = client.post(reverse("lobby:create"), TABLE)

    assert response.status_code == 200
    assert "You already host 2 tables that have not started" in response.text
    assert Game.objects.filter(host=alice).count() == 2


def test_it_counts_only_the_tables_not_started(client, alice, bob):
    client.force_login(alice)
    open_table(alice, seat_count=2).cancel()
    started = open_table(alice, seat_count=2)
    started.join(bob)
    open_table(alice)

    assert client.post(reverse("lobby:create"), TABLE).status_code == 302
    assert Game.objects.open().filter(host=alice).count() == 2


def test_it_refuses_a_quick_game_that_would_open_one_table_too_many(client, alice):
    client.force_login(alice)
    open_table(alice, private=True)
    open_table(alice, pace="correspondence")

    response = client.post(reverse("lobby:quick_game"), follow=True)

    assert "You already host 2 tables that have not started" in response.text
    assert Game.objects.filter(host=alice).count() == 2


def test_it_refuses_a_rematch_with_people_that_would_open_one_table_too_many(client, alice, bob):
    game = open_table(alice, bob, seat_count=2).start()
    game.play(game.seat_of(bob), rules.Move.resign())
    open_table(alice)
    open_table(alice)
    client.force_login(alice)

    response = client.post(reverse("games:rematch", args=[game.code]), follow=True)

    assert "You already host 2 tables that have not started" in response.text
    game.refresh_from_db()
    assert game.rematch is None
    assert Game.objects.open().filter(host=alice).count() == 2


def test_it_lets_staff_open_as_many_tables_as_they_like(client, alice):
    alice.is_staff = True
    alice.save()
    client.force_login(alice)

    for _ in range(3):
        assert client.post(reverse("lobby:create"), TABLE).status_code == 302
    assert Game.objects.filter(host=alice).count() == 3


def test_it_has_no_bound_when_the_setting_is_zero(client, alice, settings):
    settings.OPEN_TABLES_PER_USER = 0
    client.force_login(alice)

    for _ in range(3):
        assert client.post(reverse("lobby:create"), TABLE).status_code == 302


# --- seats at tables with people ----------------------------------------------------------------


def join(client, game):
    return client.post(reverse("lobby:join", args=[game.code]), follow=True)


def test_it_refuses_a_seat_at_a_fourth_live_table_saying_why(client, alice, bob):
    open_table(bob, alice)  # waiting for a third player
    open_table(bob, alice, seat_count=2).start()  # in play
    open_table(alice)  # her own, waiting
    another = open_table(bob)
    client.force_login(alice)

    response = join(client, another)

    assert "You already sit at 3 live tables, the most one player may at once" in response.text
    assert not another.seats.filter(user=alice).exists()
    assert "You already sit at 3 live tables" in (
        client.post(reverse("lobby:quick_game"), follow=True).text
    )
    assert not another.seats.filter(user=alice).exists()
    assert "You already sit at 3 live tables" in (
        client.post(reverse("lobby:create"), TABLE, follow=True).text
    )
    assert Game.objects.filter(host=alice).count() == 1


def test_it_counts_only_the_tables_a_player_still_plays_at(client, alice, bob, charlie):
    mine = open_table(bob, alice)
    gone = open_table(bob, alice, seat_count=2).start()
    gone.seats.filter(user=alice).update(absent=True)  # after three timeouts, or resigned
    finished = open_table(bob, alice, seat_count=2).start()
    finished.play(finished.seat_of(alice), rules.Move.resign())  # two seats: the game ends
    bots_table = open_table(charlie, alice)
    client.force_login(charlie)
    client.post(reverse("lobby:fill_with_bots", args=[bots_table.code]), {"level": "random"})
    open_table(bob, alice, pace="correspondence")
    open_table(bob, alice, pace="correspondence")
    open_table(bob, alice, pace="correspondence")  # the other pace has a share of its own
    another = open_table(bob)
    client.force_login(alice)

    assert join(client, mine).status_code == 200  # sitting there already: nothing to count
    assert another.seats.filter(user=alice).exists() is False
    join(client, another)
    join(client, open_table(bob))

    assert another.seats.filter(user=alice).exists()
    assert "You already sit at 3 live tables" in join(client, open_table(bob)).text
    late = open_table(bob, pace="correspondence")
    assert "You already sit at 3 correspondence tables" in join(client, late).text


# --- games against computer players -------------------------------------------------------------


def test_it_refuses_a_third_game_against_the_computer_saying_why(client, alice):
    client.force_login(alice)
    for _ in range(2):
        assert play_computer(client).status_code == 302

    response = play_computer(client)

    assert response.status_code == 200
    assert "You already play 2 games against the computer" in response.text
    assert Game.objects.filter(host=alice).count() == 2


def test_it_refuses_a_table_created_full_of_bots_too(client, alice):
    client.force_login(alice)
    play_computer(client)
    play_computer(client)

    response = client.post(reverse("lobby:create"), TABLE | {"with_bots": "on"})

    assert "You already play 2 games against the computer" in response.text
    assert Game.objects.filter(host=alice).count() == 2


def test_it_refuses_to_fill_a_waiting_room_with_bots_once_at_the_limit(client, alice):
    client.force_login(alice)
    play_computer(client)
    play_computer(client)
    table = open_table(alice)

    response = client.post(
        reverse("lobby:fill_with_bots", args=[table.code]), {"level": "basic"}, follow=True
    )

    assert "You already play 2 games against the computer" in response.text
    table.refresh_from_db()
    assert (table.status, table.seats.count()) == (Game.Status.OPEN, 1)


def test_it_refuses_a_new_computer_game_from_a_finished_one(client, alice):
    client.force_login(alice)
    play_computer(client)
    play_computer(client)
    first, second = Game.objects.filter(host=alice)
    first.play(first.seat_of(alice), rules.Move.resign())
    play_computer(client)

    response = client.post(reverse("games:computer", args=[first.code]), follow=True)

    assert "You already play 2 games against the computer" in response.text
    assert Game.objects.filter(host=alice).count() == 3


def test_it_refuses_a_rematch_against_the_computer_once_at_the_limit(client, alice):
    client.force_login(alice)
    play_computer(client)
    play_computer(client)
    first = Game.objects.filter(host=alice).first()
    first.play(first.seat_of(alice), rules.Move.resign())
    play_computer(client)

    response = client.post(reverse("games:rematch", args=[first.code]), follow=True)

    assert "You already play 2 games against the computer" in response.text
    first.refresh_from_db()
    assert first.rematch is None


def test_it_counts_a_game_against_the_computer_until_it_ends(client, alice):
    client.force_login(alice)
    play_computer(client)
    play_computer(client)
    game = Game.objects.filter(host=alice).first()
    game.play(game.seat_of(alice), rules.Move.resign())  # two seats: the game ends

    assert play_computer(client).status_code == 302


def test_a_table_another_host_fills_with_bots_uses_none_of_a_guests_share(client, alice, bob):
    """Bob hosts tables alice joined, then fills them with bots: alice may still play the computer."""
    for _ in range(2):
        table = open_table(bob, seat_count=3)
        table.join(alice)
        client.force_login(bob)
        client.post(reverse("lobby:fill_with_bots", args=[table.code]), {"level": "random"})
        table.refresh_from_db()
        assert table.status == Game.Status.ACTIVE

    client.force_login(alice)
    assert play_computer(client).status_code == 302
    assert Game.objects.filter(host=alice, status=Game.Status.ACTIVE).count() == 1


def test_it_lets_staff_play_as_many_computer_games_as_they_like(client, alice):
    alice.is_staff = True
    alice.save()
    client.force_login(alice)

    for _ in range(3):
        assert play_computer(client).status_code == 302


# --- invitations --------------------------------------------------------------------------------


def invite(client, game, username):
    return client.post(reverse("lobby:invite", args=[game.code]), {"username": username})


@pytest.fixture
def players(django_user_model):
    return [django_user_model.objects.create_user(f"player{n}") for n in range(4)]


def test_it_refuses_a_fourth_invitation_in_an_hour(client, settings, alice, players):
    settings.OPEN_TABLES_PER_USER = 0
    client.force_login(alice)
    table = open_table(alice, seat_count=5, private=True)
    for player in players[:3]:
        assert invite(client, table, player.username).status_code == 302

    response = invite(client, table, players[3].username)

    assert response.status_code == 200
    assert "You have sent 3 invitations in the last hour" in response.text
    assert Invitation.objects.count() == 3
    assert not Notification.objects.filter(user=players[3]).exists()


def test_it_allows_more_invitations_an_hour_later(client, alice, players):
    client.force_login(alice)
    table = open_table(alice, seat_count=5, private=True)
    with time_machine.travel(timezone.now() - timedelta(minutes=61)):
        for player in players[:3]:
            invite(client, table, player.username)

    assert invite(client, table, players[3].username).status_code == 302
    assert Invitation.objects.count() == 4


def test_it_refuses_a_third_invitation_of_one_player_in_a_day(client, settings, alice, bob):
    settings.OPEN_TABLES_PER_USER = 0
    client.force_login(alice)
    tables = [open_table(alice, private=True) for _ in range(3)]
    for table in tables[:2]:
        assert invite(client, table, "bob").status_code == 302

    response = invite(
        client,
        tables[2],
        "bob",
    )
    htmx = client.post(
        reverse("lobby:invite", args=[tables[2].code]), {"username": "bob"}, HTTP_HX_REQUEST="true"
    )

    assert "You have invited bob 2 times in the last day" in response.text
    assert "You have invited bob 2 times in the last day" in htmx.text
    assert Notification.objects.filter(user=bob).count() == 2


def test_it_does_not_count_inviting_the_same_player_to_the_same_table_again(client, alice, bob):
    client.force_login(alice)
    table = open_table(alice, private=True)
    for _ in range(4):
        assert invite(client, table, "bob").status_code == 302
    assert Notification.objects.filter(user=bob).count() == 1


def test_it_lets_staff_invite_as_often_as_they_like(client, settings, alice, bob):
    settings.OPEN_TABLES_PER_USER = 0
    alice.is_staff = True
    alice.save()
    client.force_login(alice)

    for _ in range(3):
        assert invite(client, open_table(alice, private=True), "bob").status_code == 302
    assert Notification.objects.filter(user=bob).count() == 3


def test_invitations_of_half_an_hour_ago_count_against_the_hours_bound(
    client, settings, alice, django_user_model
):
    settings.INVITATIONS_PER_HOUR = 3
    settings.OPEN_TABLES_PER_USER = 0
    players = [django_user_model.objects.create_user(f"player{n}") for n in range(4)]
    client.force_login(alice)
    table = open_table(alice, seat_count=5, private=True)
    with time_machine.travel(timezone.now() - timedelta(minutes=30)):
        for player in players[:3]:
            invite(client, table, player.username)

    response = invite(client, table, players[3].username)

    assert "You have sent 3 invitations in the last hour" in response.text
    assert Invitation.objects.count() == 3
