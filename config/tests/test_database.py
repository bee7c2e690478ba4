"""The database under concurrent writers: they wait for each other instead of failing."""

import threading
import time

import pytest
from django.db import connection, transaction
from django.db.backends.sqlite3.base import DatabaseWrapper as SQLiteWrapper

from accounts.models import User


def test_it_opens_sqlite_connections_in_wal_mode(tmp_path, settings, django_db_blocker):
    # The embedded default's options on a scratch file, whichever database this run uses.
    fresh = SQLiteWrapper(
        {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": str(tmp_path / "wal.sqlite3"),
            "OPTIONS": settings.SQLITE_OPTIONS,
            "TIME_ZONE": None,
            "CONN_MAX_AGE": 0,
            "CONN_HEALTH_CHECKS": False,
            "AUTOCOMMIT": True,
            "ATOMIC_REQUESTS": False,
            "TEST": {},
            "USER": "",
            "PASSWORD": "",
            "HOST": "",
            "PORT": "",
        }
    )
    try:
        with django_db_blocker.unblock(), fresh.cursor() as cursor:
            cursor.execute("PRAGMA journal_mode")
            [(journal_mode,)] = cursor.fetchall()
            cursor.execute("PRAGMA synchronous")
            [(synchronous,)] = cursor.fetchall()
    finally:
        fresh.close()

    assert journal_mode == "wal"
    assert synchronous == 1  # NORMAL


@pytest.mark.django_db(transaction=True)
def test_it_makes_a_second_writer_wait_for_the_first(alice):
    holding = threading.Event()
    errors = []
    waited = []

    def first():
        try:
            with transaction.atomic():
                User.objects.filter(pk=alice.pk).update(display_name="First")
                holding.set()
                time.sleep(0.5)
        except Exception as error:
            errors.append(error)
        finally:
            holding.set()
            connection.close()

    def second():
        holding.wait(timeout=30)
        started = time.monotonic()
        try:
            # Locks, reads, then writes, as Game.play does. PostgreSQL waits
            # at the row lock; SQLite (which ignores it) at BEGIN IMMEDIATE,
            # where a deferred transaction would fail with "database is locked".
            with transaction.atomic():
                name = User.objects.select_for_update().get(pk=alice.pk).display_name
                User.objects.filter(pk=alice.pk).update(display_name=name + ", then second")
        except Exception as error:
            errors.append(error)
        finally:
            waited.append(time.monotonic() - started)
            connection.close()

    threads = [threading.Thread(target=first), threading.Thread(target=second)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert errors == []
    assert waited[0] > 0.3
    alice.refresh_from_db()
    assert alice.display_name == "First, then second"
