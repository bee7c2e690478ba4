"""SQLite's statements are turned into its own style once each (config/sqlite.py)."""

import pytest
from django.db import connection
from django.db.backends.sqlite3.base import SQLiteCursorWrapper

from accounts.models import User
from config import sqlite


def test_a_statement_is_turned_once_and_gives_what_djangos_gives(db, monkeypatch):
    monkeypatch.setattr(sqlite, "_turned", {})
    wrapper = SQLiteCursorWrapper.__new__(SQLiteCursorWrapper)
    query = "SELECT a FROM t WHERE b = %s AND c LIKE '%%x' AND d IN (%s, %s)"

    first = wrapper.convert_query(query)
    assert first == "SELECT a FROM t WHERE b = ? AND c LIKE '%x' AND d IN (?, ?)"
    assert sqlite._turned == {query: first}
    assert wrapper.convert_query(query) is first
    named = wrapper.convert_query("SELECT %(a)s", param_names=["a"])
    assert named == "SELECT :a" and len(sqlite._turned) == 1


@pytest.mark.skipif(connection.vendor != "sqlite", reason="runs SQLite's backend")
def test_queries_run_with_the_statements_remembered(db, monkeypatch):
    monkeypatch.setattr(sqlite, "_turned", {})
    User.objects.create(username="ann")

    assert User.objects.filter(username="ann").count() == 1
    assert User.objects.filter(username="ann").count() == 1
    assert any("?" in turned for turned in sqlite._turned.values())


def test_it_keeps_no_more_than_most(db, monkeypatch):
    monkeypatch.setattr(sqlite, "_turned", {})
    monkeypatch.setattr(sqlite, "MOST", 2)
    wrapper = SQLiteCursorWrapper.__new__(SQLiteCursorWrapper)

    turned = [wrapper.convert_query(f"SELECT {n} WHERE x = %s") for n in range(3)]

    assert turned[2] == "SELECT 2 WHERE x = ?" and len(sqlite._turned) == 2
