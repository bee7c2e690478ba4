from django.contrib.auth import get_user
from django.urls import reverse

from accounts.tests.conftest import PASSWORD

URL = reverse("accounts:password_change")
NEW_PASSWORD = "railroad-monopoly-31"


def test_it_requires_login(client, db):
    response = client.get(URL)

    assert response.status_code == 302
    assert response.url == f"{reverse('accounts:login')}?next={URL}"


def test_it_changes_the_password_and_keeps_the_user_logged_in(client, alice):
    client.force_login(alice)

    response = client.post(
        URL,
        {"old_password": PASSWORD, "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )

    assert response.status_code == 302
    assert response.url == reverse("accounts:password_change_done")
    alice.refresh_from_db()
    assert alice.check_password(NEW_PASSWORD)
    assert get_user(client) == alice


def test_it_rejects_a_wrong_old_password(client, alice):
    client.force_login(alice)

    response = client.post(
        URL,
        {"old_password": "wrong", "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )

    assert response.status_code == 200
    assert "Your old password was entered incorrectly." in response.text
    alice.refresh_from_db()
    assert alice.check_password(PASSWORD)


def test_it_rejects_a_weak_new_password(client, alice):
    client.force_login(alice)

    response = client.post(
        URL, {"old_password": PASSWORD, "new_password1": "short", "new_password2": "short"}
    )

    assert response.status_code == 200
    assert "This password is too short." in response.text
    alice.refresh_from_db()
    assert alice.check_password(PASSWORD)


def test_it_shows_the_done_page(client, alice):
    client.force_login(alice)

    response = client.get(reverse("accounts:password_change_done"))

    assert response.status_code == 200
    assert "Password changed" in response.text


def test_it_refuses_to_check_the_old_password_after_five_wrong_ones(client, alice):
    client.force_login(alice)
    wrong = {"old_password": "wrong", "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD}
    for _ in range(5):
        assert client.post(URL, wrong).status_code == 200

    response = client.post(URL, wrong | {"old_password": PASSWORD})

    assert response.status_code == 429
    assert "Too many wrong passwords. Please try again in 15 minutes." in response.text
    alice.refresh_from_db()
    assert alice.check_password(PASSWORD)
