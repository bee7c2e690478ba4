"""The host takes a seat away at a table that has not started, or blocks its player."""

import pytest
from django.urls import reverse

from accounts.blocks import block
from lobby.tests.conftest import open_table

pytestmark = pytest.mark.django_db


def remove(client, game, player):
    url = reverse("lobby:remove", args=[game.code])
    return client.post(url, {"player": str(player.pk)}, follow=True)


def test_the_host_takes_a_players_seat_away(client, alice, bob):
    game = open_table(alice, bob)
    client.force_login(alice)

    response = remove(client, game, bob)

    assert game.seat_of(bob) is None
    assert game.seat_of(alice) == 0
    assert "bob no longer sits at your table." in response.text


def test_a_squatter_who_blocked_others_no_longer_keeps_them_out(client, alice, bob, charlie):
    # bob sat down, having blocked charlie: charlie cannot join while bob sits there.
    game = open_table(alice, bob)
    block(bob, charlie)
    client.force_login(charlie)
    client.post(reverse("lobby:join", args=[game.code]))
    assert game.seat_of(charlie) is None

    client.force_login(alice)
    remove(client, game, bob)
    client.force_login(charlie)
    client.post(reverse("lobby:join", args=[game.code]))

    assert game.seat_of(charlie) == 1


def test_only_the_host_may_remove(client, alice, bob, charlie):
    game = open_table(alice, bob, charlie)
    client.force_login(charlie)

    response = client.post(reverse("lobby:remove", args=[game.code]), {"player": str(bob.pk)})

    assert response.status_code == 403
    assert game.seat_of(bob) == 1


def test_the_host_cannot_remove_themselves(client, alice, bob):
    game = open_table(alice, bob)
    client.force_login(alice)

    response = remove(client, game, alice)

    assert game.seat_of(alice) == 0
    assert "The host cannot leave the table; cancel it instead." in response.text


def test_it_says_so_for_a_player_not_at_the_table(client, alice, bob, charlie):
    game = open_table(alice, bob)
    client.force_login(alice)

    # "²" reads as a digit to str.isdigit() but not to int().
    for player in (str(charlie.pk), "", "not a number", "\u00b2", "-1"):
        url = reverse("lobby:remove", args=[game.code])
        response = client.post(url, {"player": player}, follow=True)
        assert "That player is no longer at this table." in response.text
    assert game.seat_of(bob) == 1


def test_a_game_in_play_keeps_its_players(client, alice, bob):
    game = open_table(alice, bob, seat_count=2).start()
    client.force_login(alice)

    remove(client, game, bob)

    assert game.seat_of(bob) == 1


def test_only_the_host_sees_the_remove_buttons(client, alice, bob):
    game = open_table(alice, bob)
    url = reverse("lobby:remove", args=[game.code])

    client.force_login(alice)
    host_page = client.get(reverse("lobby:table", args=[game.code])).text
    client.force_login(bob)
    player_page = client.get(reverse("lobby:table", args=[game.code])).text

    assert host_page.count(f'action="{url}"') == 1, "one button: for bob, not for the host"
    assert 'aria-label="Remove bob from the table"' in host_page
    assert url not in player_page


def test_blocking_a_player_takes_their_seat_at_the_blockers_tables(client, alice, bob, charlie):
    mine = open_table(alice, bob)
    theirs = open_table(charlie, bob)
    client.force_login(alice)

    client.post(reverse("accounts:block", args=["bob"]), {"block": "1"})

    assert mine.seat_of(bob) is None
    assert theirs.seat_of(bob) == 1, "another host's table is theirs to keep"
    client.force_login(bob)
    client.post(reverse("lobby:join", args=[mine.code]))
    assert mine.seat_of(bob) is None, "and they cannot sit down again"
