"""The login cookie: someone sharing a player's address cannot lock them out of their account.

A school's network or a mobile carrier's NAT puts many people behind one
address. The address's and the pair's locks (test_login_throttle.py) must not
let one of them keep the others out: a browser that logged in as a username
before is trusted for it, and only its own failures count against it.
"""

import pytest
from django.contrib.auth import get_user
from django.test import Client
from django.urls import reverse

from accounts import throttle
from accounts.tests.conftest import PASSWORD

URL = reverse("accounts:login")
SHARED = "203.0.113.9"  # one address for everyone behind the NAT


def log_in(client, username, password, address=SHARED):
    return client.post(URL, {"username": username, "password": password}, REMOTE_ADDR=address)


def log_in_and_out(client, username):
    assert log_in(client, username, PASSWORD).status_code == 302
    client.post(reverse("accounts:logout"), REMOTE_ADDR=SHARED)
    assert not get_user(client).is_authenticated


@pytest.fixture
def neighbour():
    """Someone else behind the same address, with a browser of their own."""
    return Client()


def lock_the_address_and_the_pair(neighbour, username):
    for n in range(throttle.FAILURES_PER_ADDRESS - throttle.FAILURES_PER_PAIR):
        log_in(neighbour, f"someone{n}", "guess")
    for _ in range(throttle.FAILURES_PER_PAIR):
        log_in(neighbour, username, "guess")
    assert log_in(neighbour, "nobody", "guess").status_code == 429, "the address is locked"


def test_a_neighbour_cannot_lock_a_player_out_of_a_browser_that_logged_in_before(
    client, neighbour, alice
):
    log_in_and_out(client, "alice")
    lock_the_address_and_the_pair(neighbour, "alice")

    back = log_in(client, "alice", PASSWORD)
    guesser = log_in(neighbour, "alice", PASSWORD)

    assert back.status_code == 302
    assert get_user(client) == alice
    assert guesser.status_code == 429, "the neighbour is still refused, right password or not"
    assert not get_user(neighbour).is_authenticated


def test_a_browser_is_trusted_only_for_the_username_it_logged_in_as(client, neighbour, alice, bob):
    log_in_and_out(client, "alice")
    lock_the_address_and_the_pair(neighbour, "bob")

    response = log_in(client, "bob", PASSWORD)

    assert response.status_code == 429
    assert not get_user(client).is_authenticated


def test_a_cookie_not_signed_by_the_site_is_not_trusted(client, neighbour, alice):
    log_in_and_out(client, "alice")
    # The cookie's value, its timestamp and signature taken off.
    value = client.cookies[throttle.DEVICE_COOKIE].value.split(":")[0]
    assert value.startswith(f"{alice.pk}.")
    lock_the_address_and_the_pair(neighbour, "alice")
    # The neighbour copies the cookie's value but cannot sign it.
    neighbour.cookies[throttle.DEVICE_COOKIE] = value

    assert log_in(neighbour, "alice", PASSWORD).status_code == 429
    assert log_in(client, "alice", PASSWORD).status_code == 302


def test_a_trusted_browser_gets_no_more_guesses_than_any_other(client, alice):
    log_in_and_out(client, "alice")
    for _ in range(throttle.FAILURES_PER_DEVICE):
        assert log_in(client, "alice", "guess").status_code == 200

    response = log_in(client, "alice", PASSWORD)

    assert response.status_code == 429, "the browser's lock, and then the pair's"
    assert not get_user(client).is_authenticated


def test_failures_from_a_trusted_browser_leave_the_address_alone(client, neighbour, alice, bob):
    log_in_and_out(client, "alice")
    for _ in range(throttle.FAILURES_PER_DEVICE):
        log_in(client, "alice", "guess")
    for n in range(throttle.FAILURES_PER_ADDRESS - 1):
        log_in(neighbour, f"someone{n}", "guess")

    assert log_in(neighbour, "bob", PASSWORD).status_code == 302


def test_a_successful_login_forgets_the_browsers_failures(client, alice):
    log_in_and_out(client, "alice")
    for _ in range(throttle.FAILURES_PER_DEVICE - 1):
        log_in(client, "alice", "guess")
    log_in_and_out(client, "alice")
    for _ in range(throttle.FAILURES_PER_DEVICE - 1):
        log_in(client, "alice", "guess")

    assert log_in(client, "alice", PASSWORD).status_code == 302


def test_a_browser_that_signed_up_is_trusted_for_its_new_account(client, neighbour, db):
    response = client.post(
        reverse("accounts:signup"),
        {
            "username": "dora",
            "email": "dora@example.com",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
        REMOTE_ADDR=SHARED,
    )
    assert response.status_code == 302
    client.post(reverse("accounts:logout"), REMOTE_ADDR=SHARED)
    lock_the_address_and_the_pair(neighbour, "dora")

    assert log_in(client, "dora", PASSWORD).status_code == 302


def test_the_cookie_is_out_of_scripts_reach_and_sent_by_this_site_only(client, alice):
    log_in(client, "alice", PASSWORD)

    cookie = client.cookies[throttle.DEVICE_COOKIE]

    assert cookie["httponly"] is True
    assert cookie["samesite"] == "Lax"
    assert int(cookie["max-age"]) == throttle.DEVICE_AGE


def test_a_browser_is_not_trusted_for_a_name_equal_in_another_case_or_form(client, neighbour, db):
    # "strasse" and "straße" are one name casefolded, two accounts: the cookie of one
    # must not skip the locks of the other.
    from accounts.models import User

    User.objects.create_user("straße", "victim@example.com", PASSWORD)
    User.objects.create_user("strasse", "guesser@example.com", PASSWORD)
    log_in_and_out(client, "strasse")
    lock_the_address_and_the_pair(neighbour, "straße")

    assert log_in(client, "straße", PASSWORD).status_code == 429


def test_a_browser_is_not_trusted_for_a_later_account_of_the_same_name(client, neighbour, db):
    from accounts.models import User

    User.objects.create_user("erin", "erin@example.com", PASSWORD)
    log_in_and_out(client, "erin")
    User.objects.filter(username="erin").delete()
    User.objects.create_user("erin", "new-erin@example.com", PASSWORD)
    lock_the_address_and_the_pair(neighbour, "erin")

    assert log_in(client, "erin", PASSWORD).status_code == 429
