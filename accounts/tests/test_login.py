import pytest
from django.contrib.auth import get_user
from django.urls import reverse

from accounts.tests.conftest import PASSWORD

URL = reverse("accounts:login")


@pytest.mark.django_db
def test_it_shows_the_form_with_links_to_sign_up_and_reset(client):
    response = client.get(URL)

    assert response.status_code == 200
    assert 'name="username"' in response.text
    assert 'name="password"' in response.text
    assert reverse("accounts:signup") in response.text
    assert reverse("accounts:password_reset") in response.text


def test_it_logs_in_and_goes_home(client, alice):
    response = client.post(URL, {"username": "alice", "password": PASSWORD})

    assert response.status_code == 302
    assert response.url == "/"
    assert get_user(client) == alice


def test_it_logs_in_whatever_the_case_of_the_username(client, alice):
    # Usernames are unique in any case: "Alice" can only be alice.
    response = client.post(URL, {"username": "ALICE", "password": PASSWORD})

    assert response.status_code == 302
    assert get_user(client) == alice


def test_it_goes_to_a_safe_next(client, alice):
    response = client.post(
        URL, {"username": "alice", "password": PASSWORD, "next": "/accounts/settings/"}
    )

    assert response.url == "/accounts/settings/"


def test_it_ignores_a_next_on_another_site(client, alice):
    response = client.post(
        URL, {"username": "alice", "password": PASSWORD, "next": "//evil.example.com/"}
    )

    assert response.url == "/"


def test_it_rejects_a_wrong_password_and_keeps_the_username(client, alice):
    response = client.post(URL, {"username": "alice", "password": "not-it"})

    assert response.status_code == 200
    assert "Please enter a correct username and password." in response.text
    assert 'role="alert">Please enter a correct username and password.' in response.text
    assert "Please correct the errors below." not in response.text
    assert 'value="alice"' in response.text
    assert 'value="not-it"' not in response.text
    assert not get_user(client).is_authenticated


def test_it_carries_next_to_the_sign_up_link(client, db):
    response = client.get(URL + "?next=/games/abc123/")

    assert '<input type="hidden" name="next" value="/games/abc123/">' in response.text
    assert reverse("accounts:signup") + "?next=/games/abc123/" in response.text
