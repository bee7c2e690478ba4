"""Login throttling: 5 failures lock a username from one address, 20 an address, for 15 minutes."""

import logging
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


def test_it_counts_a_username_whatever_its_case(client, alice):
    fail(client, "Alice", 3)
    fail(client, "ALICE", 2)

    response = log_in(client, "alice", PASSWORD)

    assert response.status_code == 429


def test_it_never_locks_a_player_out_from_another_address(client, alice, traveller):
    # Someone tries 5 wrong passwords for alice every 15 minutes, for an hour.
    for _ in range(4):
        fail(client, "alice", 5, address="192.0.2.1")
        traveller.shift(timedelta(minutes=15, seconds=1))
    fail(client, "alice", 5, address="192.0.2.1")

    from_there = log_in(client, "alice", PASSWORD, address="192.0.2.1")
    from_home = log_in(client, "alice", PASSWORD, address="198.51.100.7")

    assert from_there.status_code == 429, "the guesser is still slowed down"
    assert from_home.status_code == 302
    assert get_user(client) == alice


def test_it_counts_an_ipv6_network_as_one_address(client, alice):
    for n in range(5):
        log_in(client, "alice", "not-it", address=f"2001:db8:1:2::{n + 1}")

    from_the_same_network = log_in(client, "alice", PASSWORD, address="2001:db8:1:2::99")
    from_another = log_in(client, "alice", PASSWORD, address="2001:db8:1:3::1")

    assert from_the_same_network.status_code == 429
    assert from_another.status_code == 302


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


@pytest.fixture
def cache_down(settings):
    """A Redis cache with no server behind it: every call raises ConnectionError."""
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": "redis://127.0.0.1:1/1",
            "OPTIONS": {"socket_connect_timeout": 1},
        }
    }


def test_it_lets_players_in_when_its_cache_is_down(client, alice, cache_down, caplog):
    with caplog.at_level(logging.WARNING, logger="accounts.throttle"):
        response = log_in(client, "alice", PASSWORD)

    assert response.status_code == 302
    assert get_user(client) == alice
    assert "Throttle: the cache failed" in caplog.text


def test_it_still_counts_in_the_process_while_its_cache_is_down(client, alice, cache_down):
    fail(client, "alice", 5)

    response = log_in(client, "alice", PASSWORD)

    assert response.status_code == 429
    assert REFUSED in response.text


def test_it_survives_a_cache_that_raises_anything(client, alice, monkeypatch):
    from accounts import throttle

    class Broken:
        def __getattr__(self, name):
            def fail(*args, **kwargs):
                raise RuntimeError("cache on fire")

            return fail

    monkeypatch.setattr(throttle.counts, "shared", Broken())

    wrong = log_in(client, "alice", "not-it")
    right = log_in(client, "alice", PASSWORD)

    assert wrong.status_code == 200 and "Please enter a correct username" in wrong.text
    assert right.status_code == 302
