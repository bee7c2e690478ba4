"""SQLite's statements are turned into its own style once each (config/sqlite.py)."""

from django.db.backends.sqlite3.base import SQLiteCursorWrapper

from config import sqlite


def test_a_statement_is_turned_once_and_gives_what_djangos_gives(monkeypatch):
    monkeypatch.setattr(sqlite, "_turned", {})
    wrapper = SQLiteCursorWrapper.__new__(SQLiteCursorWrapper)
    query = "SELECT a FROM t WHERE b = %s AND c LIKE '%%x' AND d IN (%s, %s)"

    first = wrapper.convert_query(query)
    assert first == "SELECT a FROM t WHERE b = ? AND c LIKE '%x' AND d IN (?, ?)"
    assert sqlite._turned == {query: first}
    assert wrapper.convert_query(query) is first
    named = wrapper.convert_query("SELECT %(a)s", param_names=["a"])
    assert named == "SELECT :a" and len(sqlite._turned) == 1


def test_a_sqlite_cursor_runs_the_statements_it_remembered(monkeypatch, django_db_blocker):
    """Through Django's SQLite backend, whichever database the suite runs on."""
    from django.db.utils import ConnectionHandler

    monkeypatch.setattr(sqlite, "_turned", {})
    handler = ConnectionHandler(
        {"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": ":memory:"}}
    )
    connection = handler["default"]  # a database of its own, in memory
    with django_db_blocker.unblock():
        try:
            with connection.cursor() as cursor:
                for _ in range(2):
                    cursor.execute("SELECT %s + %s, '100%%'", [40, 2])
                    assert cursor.fetchone() == (42, "100%")
        finally:
            connection.close()

    assert sqlite._turned == {"SELECT %s + %s, '100%%'": "SELECT ? + ?, '100%'"}


def test_it_keeps_no_more_than_most(monkeypatch):
    monkeypatch.setattr(sqlite, "_turned", {})
    monkeypatch.setattr(sqlite, "MOST", 2)
    wrapper = SQLiteCursorWrapper.__new__(SQLiteCursorWrapper)

    turned = [wrapper.convert_query(f"SELECT {n} WHERE x = %s") for n in range(3)]

    assert turned[2] == "SELECT 2 WHERE x = ?" and len(sqlite._turned) == 2
