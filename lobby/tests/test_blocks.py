"""Blocking: from a profile, and what it keeps the blocked user from (joining, inviting)."""

import pytest
from django.urls import reverse

from accounts.blocks import Block, block
from games.models import Invitation, Notification
from lobby.tests.conftest import open_table

pytestmark = pytest.mark.django_db


def test_it_blocks_and_unblocks_from_the_profile(client, alice, charlie):
    client.force_login(alice)
    url = reverse("accounts:block", args=["charlie"])
    profile = reverse("accounts:profile", args=["charlie"])
    assert "Block this player" in client.get(profile).text

    client.post(url, {"block": "1"})
    assert Block.objects.filter(blocker=alice, blocked=charlie).exists()
    assert "Unblock" in client.get(profile).text

    client.post(url, {"block": "0"})
    assert not Block.objects.exists()


def test_it_offers_no_block_on_ones_own_profile_nor_to_a_visitor(client, alice):
    assert "Block this player" not in client.get(reverse("accounts:profile", args=["alice"])).text
    client.force_login(alice)
    assert "Block this player" not in client.get(reverse("accounts:profile", args=["alice"])).text
    client.post(reverse("accounts:block", args=["alice"]), {"block": "1"})
    assert not Block.objects.exists()


def test_it_keeps_a_blocked_user_from_the_blockers_table(client, alice, bob, charlie):
    table = open_table(bob, alice)  # alice sits at bob's table
    block(alice, charlie)
    client.force_login(charlie)

    response = client.post(reverse("lobby:join", args=[table.code]), follow=True)

    assert table.seat_of(charlie) is None
    assert "You can&#x27;t join this table." in response.text
    assert "block" not in response.text.lower()


def test_it_lets_others_join_the_blockers_table(client, alice, bob, charlie):
    table = open_table(alice)
    block(alice, charlie)
    client.force_login(bob)
    client.post(reverse("lobby:join", args=[table.code]))
    assert table.seat_of(bob) == 1


def test_an_invitation_to_the_blocker_reads_as_any_other_and_reaches_nobody(
    client, alice, bob, charlie
):
    table = open_table(charlie, private=True)
    block(alice, charlie)
    client.force_login(charlie)

    to_alice = client.post(
        reverse("lobby:invite", args=[table.code]), {"username": "alice"}, follow=True
    ).text
    to_bob = client.post(
        reverse("lobby:invite", args=[table.code]), {"username": "bob"}, follow=True
    ).text

    assert f"{alice.name} is invited" in to_alice and f"{bob.name} is invited" in to_bob
    assert "block" not in to_alice.lower()
    assert Invitation.objects.filter(game=table).count() == 2  # both listed on the table
    assert not Notification.objects.filter(user=alice).exists()
    assert Notification.objects.filter(user=bob).count() == 1
    client.force_login(alice)
    assert table.code not in client.get(reverse("lobby:home")).text


def test_it_skips_the_blockers_table_in_a_quick_game(client, alice, bob, charlie):
    table = open_table(alice, seat_count=2)
    block(alice, charlie)
    client.force_login(charlie)

    client.post(reverse("lobby:quick_game"))

    assert table.seat_of(charlie) is None
    client.force_login(bob)  # the table a quick game would have given him
    client.post(reverse("lobby:quick_game"))
    assert table.seat_of(bob) == 1


def test_a_quick_game_never_seats_a_player_with_someone_they_blocked(client, alice, bob, charlie):
    table = open_table(alice, seat_count=2)
    block(charlie, alice)
    client.force_login(charlie)

    client.post(reverse("lobby:quick_game"))

    assert table.seat_of(charlie) is None
    client.force_login(bob)
    client.post(reverse("lobby:quick_game"))
    assert table.seat_of(bob) == 1
