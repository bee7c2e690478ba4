"""Every change to a table needs a logged-in user, and a POST carrying the CSRF token."""

import pytest
from django.test import Client
from django.urls import reverse

from games.models import Game

pytestmark = pytest.mark.django_db

ACTIONS = ["join", "leave", "start", "cancel", "invite"]


@pytest.mark.parametrize("name", ACTIONS)
def test_it_sends_logged_out_posts_to_the_login_page(client, table, name):
    url = reverse(f"lobby:{name}", args=[table.code])

    response = client.post(url, {"username": "bob"})

    assert response.status_code == 302
    assert response.url == f"{reverse('accounts:login')}?next={url}"
    table.refresh_from_db()
    assert table.status == Game.Status.OPEN
    assert table.seats.count() == 1


def test_it_sends_a_logged_out_create_to_the_login_page(client):
    response = client.post(reverse("lobby:create"), {"seat_count": "2"})

    assert response.url.startswith(reverse("accounts:login"))
    assert not Game.objects.exists()


@pytest.mark.parametrize("name", ACTIONS)
def test_it_changes_nothing_on_get(client, alice, table, name):
    client.force_login(alice)

    response = client.get(reverse(f"lobby:{name}", args=[table.code]))

    assert response.url == reverse("lobby:table", args=[table.code])
    table.refresh_from_db()
    assert table.status == Game.Status.OPEN


def test_it_refuses_a_post_without_the_csrf_token(bob, table):
    client = Client(enforce_csrf_checks=True)
    client.force_login(bob)

    response = client.post(reverse("lobby:join", args=[table.code]))

    assert response.status_code == 403
    assert table.seat_of(bob) is None
