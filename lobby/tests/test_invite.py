import pytest
from django.urls import reverse

from accounts.blocks import block
from games.models import Invitation, Notification

pytestmark = pytest.mark.django_db


def invite(game):
    return reverse("lobby:invite", args=[game.code])


def test_it_invites_a_player_by_username(client, alice, bob, private_table):
    client.force_login(alice)

    response = client.post(invite(private_table), {"username": "Bob"}, follow=True)

    invitation = Invitation.objects.get()
    assert (invitation.game, invitation.user, invitation.invited_by) == (private_table, bob, alice)
    assert "bob is invited" in response.text


def test_it_lets_the_invitee_see_the_invitation_and_join(client, alice, bob, private_table):
    client.force_login(alice)
    client.post(invite(private_table), {"username": "bob"})
    client.force_login(bob)

    home = client.get(reverse("lobby:home"))
    join_url = reverse("lobby:join", args=[private_table.code])
    assert f'action="{join_url}"' in home.text
    client.post(join_url)

    assert private_table.seat_of(bob) == 1
    home = client.get(reverse("lobby:home"))
    assert home.context["invitations"] == []  # seated: no longer an invitation
    assert home.context["waiting_room"] == [private_table]


def test_it_explains_an_unknown_username(client, alice, private_table):
    client.force_login(alice)

    response = client.post(invite(private_table), {"username": "nobody"})

    assert response.status_code == 200
    assert "There is no player called nobody." in response.text
    assert 'value="nobody"' in response.text
    assert not Invitation.objects.exists()


def test_it_explains_a_player_already_seated(client, alice, bob, private_table):
    private_table.seats.create(user=bob, position=1)
    client.force_login(alice)

    response = client.post(invite(private_table), {"username": "bob"})

    assert "bob already has a seat at this table." in response.text
    assert not Invitation.objects.exists()


def test_it_refuses_a_player_who_is_not_the_host(client, bob, charlie, table):
    table.seats.create(user=bob, position=1)
    client.force_login(bob)

    response = client.post(invite(table), {"username": "charlie"})

    assert response.status_code == 403
    assert not Invitation.objects.exists()


def test_it_answers_htmx_with_the_invite_form(client, alice, bob, private_table):
    client.force_login(alice)

    response = client.post(
        invite(private_table), {"username": "bob"}, headers={"HX-Request": "true"}
    )

    assert response.text.lstrip().startswith('<div id="invite">')
    assert "bob is invited" in response.text
    assert "Invited: bob" in response.text


def test_it_answers_htmx_with_the_form_errors(client, alice, private_table):
    client.force_login(alice)

    response = client.post(
        invite(private_table), {"username": "nobody"}, headers={"HX-Request": "true"}
    )

    assert response.text.lstrip().startswith('<div id="invite">')
    assert "There is no player called nobody." in response.text


def test_it_notifies_the_invitee_once_and_live(
    client, alice, bob, private_table, monkeypatch, django_capture_on_commit_callbacks
):
    told = []
    monkeypatch.setattr("lobby.views.broadcast_users", told.append)
    client.force_login(alice)

    with django_capture_on_commit_callbacks(execute=True):
        client.post(invite(private_table), {"username": "bob"})
        client.post(invite(private_table), {"username": "bob"})  # asked twice: told once

    note = Notification.objects.get()
    assert (note.user, note.game, note.kind, note.actor) == (
        bob,
        private_table,
        Notification.Kind.INVITED,
        alice,
    )
    assert note.read_at is None
    assert told == [{bob.pk}]


def decline(game):
    return reverse("lobby:decline", args=[game.code])


def test_the_invitee_declines_and_the_host_cannot_send_it_again(client, alice, bob, private_table):
    client.force_login(alice)
    client.post(invite(private_table), {"username": "bob"})
    client.force_login(bob)
    home = client.get(reverse("lobby:home"))
    assert f'action="{decline(private_table)}"' in home.text

    response = client.post(decline(private_table), follow=True)

    assert "The invitation is declined." in response.text
    assert response.context["invitations"] == []
    assert not Notification.objects.filter(user=bob).exists()
    client.force_login(alice)
    response = client.post(invite(private_table), {"username": "bob"})
    assert "bob declined your invitation to this table." in response.text
    assert (
        "Invited: bob (declined)"
        in client.get(reverse("lobby:table", args=[private_table.code])).text
    )
    assert not Notification.objects.filter(user=bob).exists()  # not sent again
    assert Invitation.objects.get().declined_at is not None


def test_declining_changes_only_ones_own_invitation(client, alice, bob, charlie, private_table):
    client.force_login(alice)
    client.post(invite(private_table), {"username": "bob"})
    client.force_login(charlie)

    assert client.get(decline(private_table)).status_code == 405
    client.post(decline(private_table))

    assert Invitation.objects.get().declined_at is None
    client.force_login(bob)
    assert len(client.get(reverse("lobby:home")).context["invitations"]) == 1


def test_it_tells_the_host_who_blocked_the_player_to_unblock_them_first(
    client, alice, bob, private_table
):
    block(alice, bob)
    client.force_login(alice)

    response = client.post(invite(private_table), {"username": "bob"})

    assert "You have blocked bob: unblock them on their profile to invite them." in response.text
    assert not Invitation.objects.exists() and not Notification.objects.exists()


def test_a_declined_invitation_no_longer_opens_the_private_table(client, alice, bob, private_table):
    client.force_login(alice)
    client.post(invite(private_table), {"username": "bob"})
    client.force_login(bob)
    assert client.get(reverse("lobby:table", args=[private_table.code])).status_code == 200

    client.post(decline(private_table))

    assert client.get(reverse("lobby:table", args=[private_table.code])).status_code == 404
    client.post(reverse("lobby:join", args=[private_table.code]))
    assert private_table.seat_of(bob) is None
