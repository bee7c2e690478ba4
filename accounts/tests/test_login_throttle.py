"""Login throttling: 5 failures lock a username, 20 an address, for 15 minutes."""

from datetime import timedelta

import pytest
import time_machine
from django.contrib.auth import get_user
from django.urls import reverse
from django.utils import timezone, translation

from accounts.tests.conftest import PASSWORD

URL = reverse("accounts:login")
REFUSED = "Too many failed attempts to log in. Please try again in 15 minutes."


@pytest.fixture
def traveller():
    with time_machine.travel(timezone.datetime(2026, 11, 2, 9, 0, tzinfo=timezone.UTC)) as t:
        yield t


def log_in(client, username, password, address="192.0.2.1"):
    return client.post(URL, {"username": username, "password": password}, REMOTE_ADDR=address)


def fail(client, username, times, address="192.0.2.1"):
    for _ in range(times):
        response = log_in(client, username, "not-it", address)
        assert response.status_code == 200
        assert REFUSED not in response.text


def test_it_refuses_the_sixth_attempt_even_with_the_right_password(client, alice):
    fail(client, "alice", 5)

    response = log_in(client, "alice", PASSWORD)

    assert response.status_code == 429
    assert REFUSED in response.text
    assert 'name="password"' in response.text, "the page stays a login page"
    assert not get_user(client).is_authenticated


def test_it_counts_a_username_whatever_its_case_and_address(client, alice):
    fail(client, "Alice", 3, address="192.0.2.1")
    fail(client, "ALICE", 2, address="198.51.100.7")

    response = log_in(client, "alice", PASSWORD, address="203.0.113.9")

    assert response.status_code == 429


def test_it_says_the_same_for_a_username_that_does_not_exist(client, alice):
    fail(client, "nobody", 5)

    missing = log_in(client, "nobody", "whatever")
    fail(client, "alice", 5, address="198.51.100.7")
    existing = log_in(client, "alice", "whatever", address="198.51.100.7")

    assert missing.status_code == existing.status_code == 429
    assert REFUSED in missing.text and REFUSED in existing.text


def test_it_leaves_another_user_alone(client, alice, bob):
    fail(client, "alice", 5, address="192.0.2.1")

    response = log_in(client, "bob", PASSWORD, address="198.51.100.7")

    assert response.status_code == 302
    assert get_user(client) == bob


def test_it_locks_an_address_after_twenty_failures(client, alice, bob, charlie):
    for username in ["u1", "u2", "u3", "u4", "u5"]:
        fail(client, username, 4, address="192.0.2.1")

    from_there = log_in(client, "bob", PASSWORD, address="192.0.2.1")
    from_elsewhere = log_in(client, "charlie", PASSWORD, address="198.51.100.7")

    assert from_there.status_code == 429
    assert from_elsewhere.status_code == 302


def test_it_lets_a_locked_user_in_after_fifteen_minutes(client, alice, traveller):
    fail(client, "alice", 5)
    traveller.shift(timedelta(minutes=14))
    assert log_in(client, "alice", PASSWORD).status_code == 429

    traveller.shift(timedelta(minutes=1, seconds=1))
    response = log_in(client, "alice", PASSWORD)

    assert response.status_code == 302
    assert get_user(client) == alice


def test_it_forgets_the_failures_of_a_user_who_logs_in(client, alice):
    fail(client, "alice", 4)
    assert log_in(client, "alice", PASSWORD).status_code == 302
    client.logout()

    fail(client, "alice", 4)
    response = log_in(client, "alice", PASSWORD)

    assert response.status_code == 302


def test_it_throttles_the_admin_login_too(client, alice):
    alice.is_staff = True
    alice.save()
    fail(client, "alice", 5)

    response = client.post(
        reverse("admin:login"), {"username": "alice", "password": PASSWORD}, REMOTE_ADDR="192.0.2.1"
    )

    assert response.status_code == 200
    assert REFUSED in response.text
    assert not get_user(client).is_authenticated


def test_it_says_so_in_the_readers_language(client, alice):
    fail(client, "alice", 5)

    response = client.post(
        URL,
        {"username": "alice", "password": PASSWORD},
        REMOTE_ADDR="192.0.2.1",
        HTTP_ACCEPT_LANGUAGE="zh-hans",
    )
    translation.deactivate()

    assert "登录失败次数过多。请在 15 分钟后重试。" in response.text
