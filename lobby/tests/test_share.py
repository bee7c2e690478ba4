"""The private share link: /t/<code>/join/<share_token>/."""

import pytest
from django.urls import reverse

from lobby.tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db


def share(game, token=None):
    return reverse("lobby:share", args=[game.code, token or game.share_token])


def test_it_seats_the_user_after_login(client, bob, private_table):
    link = share(private_table)

    response = client.get(link)
    login_url = f"{reverse('accounts:login')}?next={link}"
    assert response.url == login_url

    response = client.post(login_url, {"username": "bob", "password": PASSWORD, "next": link})
    assert response.url == link

    response = client.get(link, follow=True)
    room = reverse("lobby:table", args=[private_table.code])
    assert response.redirect_chain == [(room, 302)]
    assert "You have been invited to this table" in response.text
    join_url = reverse("lobby:join", args=[private_table.code])
    assert f'action="{join_url}"' in response.text

    client.post(join_url)
    assert private_table.seat_of(bob) == 1


def test_it_refuses_a_wrong_token(client, charlie, private_table):
    client.force_login(charlie)

    assert client.get(share(private_table, "not-the-token")).status_code == 404
    assert client.get(reverse("lobby:table", args=[private_table.code])).status_code == 404


def test_it_sends_a_player_to_the_game_once_started(client, alice, bob, private_table):
    private_table.seats.create(user=bob, position=1)
    private_table.start()
    client.force_login(bob)

    response = client.get(share(private_table), follow=True)

    assert response.redirect_chain[-1][0] == private_table.get_absolute_url()
