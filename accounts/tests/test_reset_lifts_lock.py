"""A successful password reset lifts the login lock of its account, from every address."""

import re

from django.urls import reverse

from accounts.tests.conftest import PASSWORD

LOGIN = reverse("accounts:login")
RESET = reverse("accounts:password_reset")
NEW_PASSWORD = "boardwalk-hotel-2024"


def log_in(client, username, password, address):
    return client.post(LOGIN, {"username": username, "password": password}, REMOTE_ADDR=address)


def lock(client, username, address):
    for _ in range(5):
        log_in(client, username, "not-it", address)
    assert log_in(client, username, PASSWORD, address).status_code == 429


def reset_password(client, mailoutbox, password=NEW_PASSWORD):
    client.post(RESET, {"email": "alice@example.com"}, REMOTE_ADDR="198.51.100.9")
    [link] = re.findall(
        r"http://testserver(/accounts/password/reset/\S+/\S+/)", mailoutbox[-1].body
    )
    set_password_url = client.get(link).url
    return client.post(set_password_url, {"new_password1": password, "new_password2": password})


def test_it_lets_the_new_password_in_after_a_reset(client, alice, mailoutbox):
    lock(client, "alice", "192.0.2.1")
    lock(client, "ALICE", "203.0.113.5")

    assert reset_password(client, mailoutbox).status_code == 302
    client.logout()

    assert log_in(client, "alice", NEW_PASSWORD, "192.0.2.1").status_code == 302
    client.logout()
    assert log_in(client, "alice", NEW_PASSWORD, "203.0.113.5").status_code == 302


def test_it_forgets_the_failures_before_the_reset(client, alice, mailoutbox):
    for _ in range(4):
        log_in(client, "alice", "not-it", "192.0.2.1")
    reset_password(client, mailoutbox)
    client.logout()

    # Four old failures and one new one: the pair is not locked yet.
    log_in(client, "alice", "not-it", "192.0.2.1")
    assert log_in(client, "alice", NEW_PASSWORD, "192.0.2.1").status_code == 302


def test_it_keeps_the_lock_when_the_reset_fails(client, alice, mailoutbox):
    lock(client, "alice", "192.0.2.1")

    response = reset_password(client, mailoutbox, password="short")

    assert response.status_code == 200
    assert log_in(client, "alice", PASSWORD, "192.0.2.1").status_code == 429


def test_it_leaves_the_lock_of_another_user(client, alice, bob, mailoutbox):
    lock(client, "bob", "192.0.2.1")

    reset_password(client, mailoutbox)

    assert log_in(client, "bob", PASSWORD, "192.0.2.1").status_code == 429


def test_it_locks_again_after_the_reset(client, alice, mailoutbox):
    lock(client, "alice", "192.0.2.1")
    reset_password(client, mailoutbox)
    client.logout()

    lock(client, "alice", "192.0.2.1")
