"""CSRF: a POST without the token is refused at every URL of the site, and changes nothing.

The URLs are walked from the resolver, so a view added later is covered
without editing this test (a new kind of URL argument needs a value below).
"""

import pytest
from django.apps import apps
from django.contrib.auth import get_user
from django.test import Client
from django.urls import URLResolver, get_resolver, reverse

from lobby.tests.conftest import open_table

# Django's CSRF middleware refuses before any view or query runs: the same on either database
# (the SQLite run only).
pytestmark = pytest.mark.one_database


def routes(resolver=None, namespace=""):
    """Yield (view name, URL argument names) for every named URL of the project."""
    resolver = resolver or get_resolver()
    for entry in resolver.url_patterns:
        if isinstance(entry, URLResolver):
            if entry.app_name == "admin":
                # Django's admin checks CSRF itself, and its tests are Django's.
                continue
            inner = f"{namespace}{entry.namespace}:" if entry.namespace else namespace
            yield from routes(entry, inner)
        else:
            assert entry.name, f"unnamed URL pattern {entry.pattern}: name it"
            yield f"{namespace}{entry.name}", sorted(entry.pattern.converters)


ROUTES = sorted(routes())


def url_arguments(game, names):
    values = {
        "code": game.code,
        "token": game.share_token,
        "username": "alice",
        "other": "bob",
        "uidb64": "MQ",
        "message_id": 1,
    }
    missing = set(names) - set(values)
    assert not missing, f"give test_csrf.py a value for the URL arguments {missing}"
    return {name: values[name] for name in names}


def everything():
    """Return every row of the project's own models."""
    return {
        model.__name__: list(model.objects.order_by("pk").values())
        for app in ("accounts", "games", "lobby")
        for model in apps.get_app_config(app).get_models()
    }


@pytest.mark.parametrize("route", ROUTES, ids=[name for name, _ in ROUTES])
def test_it_refuses_a_post_without_the_csrf_token(route, alice, bob, charlie, table_game):
    name, argument_names = route
    open_game = open_table(alice, bob, seat_count=3)
    clients = {}
    for user in (alice, charlie):  # seated (and the host) and an outsider who could join
        clients[user] = Client(enforce_csrf_checks=True)
        clients[user].force_login(user)
    before = everything()

    for user, client in clients.items():
        for game in (open_game, table_game):
            url = reverse(name, kwargs=url_arguments(game, argument_names))
            data = {"version": game.version, "kind": "end", "username": "charlie"}

            response = client.post(url, data)

            assert response.status_code == 403, f"POST {url} as {user}"
            assert "CSRF verification failed" in response.text, f"POST {url} as {user}"
        assert get_user(client) == user, "still logged in"

    assert everything() == before


def test_it_walks_the_views_that_change_things():
    names = {name for name, _ in ROUTES}

    assert {
        "games:move",
        "lobby:join",
        "lobby:start",
        "accounts:logout",
        "accounts:login",
        "accounts:settings",
    } <= names
    assert not any(name.startswith("admin:") for name in names)
