"""The session store (accounts/sessions.py): Django's database sessions, read with a statement compiled once."""

from datetime import timedelta

from django.conf import settings
from django.contrib.sessions.models import Session
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from accounts.sessions import SessionStore


def test_it_is_the_sites_session_store():
    assert settings.SESSION_ENGINE == "accounts.sessions"


def test_it_reads_what_was_saved(db):
    saved = SessionStore()
    saved["lobby_shared_tables"] = ["abc"]
    saved.save()

    read = SessionStore(saved.session_key)

    assert read["lobby_shared_tables"] == ["abc"]
    assert read.session_key == saved.session_key


def test_it_reads_the_session_in_one_query(db):
    saved = SessionStore()
    saved["x"] = 1
    saved.save()

    with CaptureQueriesContext(connection) as queries:
        assert SessionStore(saved.session_key).load() == {"x": 1}

    assert len(queries) == 1


def test_it_forgets_an_expired_session(db):
    saved = SessionStore()
    saved["x"] = 1
    saved.save()
    Session.objects.filter(pk=saved.session_key).update(expire_date=timezone.now() - timedelta(1))

    read = SessionStore(saved.session_key)

    assert read.load() == {}
    assert read.session_key is None  # saving it makes a new key, as Django's store does


def test_it_forgets_an_unknown_key(db):
    read = SessionStore("no-such-session-key-at-all-12345")

    assert read.load() == {}
    assert read.session_key is None


def test_it_keeps_alice_signed_in_and_signs_her_out(client, alice):
    client.force_login(alice)

    assert client.get(reverse("lobby:your_turn")).status_code == 200
    client.post(reverse("accounts:logout"))

    assert client.get(reverse("lobby:your_turn")).status_code == 302
    assert not Session.objects.exists()


def test_the_worker_deletes_expired_sessions_once_an_hour(db, monkeypatch):
    from accounts import sessions
    from games.play import worker

    monkeypatch.setattr(sessions, "_cleared_at", float("-inf"))
    expired, current = SessionStore(), SessionStore()
    for each in (expired, current):
        each["x"] = 1
        each.save()
    Session.objects.filter(pk=expired.session_key).update(expire_date=timezone.now() - timedelta(1))

    assert sessions.clear_expired_hourly in [job for job, _said in worker.JOBS]
    sessions.clear_expired_hourly()

    assert list(Session.objects.values_list("pk", flat=True)) == [current.session_key]
    gone_later = SessionStore()
    gone_later["x"] = 1
    gone_later.save()
    Session.objects.filter(pk=gone_later.session_key).update(
        expire_date=timezone.now() - timedelta(1)
    )
    sessions.clear_expired_hourly()  # within the hour: not yet
    assert Session.objects.filter(pk=gone_later.session_key).exists()
