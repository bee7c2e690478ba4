from django.contrib.auth import get_user
from django.test import Client
from django.urls import reverse

URL = reverse("accounts:logout")


def test_it_logs_out_on_post(client, alice):
    client.force_login(alice)

    response = client.post(URL)

    assert response.status_code == 302
    assert response.url == "/"
    assert not get_user(client).is_authenticated


def test_it_refuses_get(client, alice):
    client.force_login(alice)

    response = client.get(URL)

    assert response.status_code == 405
    assert get_user(client) == alice


def test_it_needs_the_csrf_token(alice):
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)

    response = client.post(URL)

    assert response.status_code == 403
    assert get_user(client) == alice
