"""Content-Security-Policy: every page says where scripts, styles and sockets may come from."""

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def directives(response):
    header = response.headers["Content-Security-Policy"]
    return {part.split()[0]: part.split()[1:] for part in header.split("; ")}


@pytest.mark.parametrize("name", ["lobby:home", "accounts:login", "accounts:leaderboard"])
def test_it_allows_only_the_site_itself(client, name):
    policy = directives(client.get(reverse(name)))

    for directive in ("default-src", "script-src", "style-src", "connect-src"):
        assert policy[directive] == ["'self'"], directive
    assert policy["object-src"] == ["'none'"]
    assert policy["frame-ancestors"] == ["'none'"]
    assert "'unsafe-inline'" not in str(policy) and "'unsafe-eval'" not in str(policy)


def test_the_table_page_has_no_inline_script_or_style(client, alice, table_game):
    client.force_login(alice)
    html = client.get(reverse("games:table", args=[table_game.code])).content.decode()

    # The policy forbids inline code: the page must not need any.
    assert "<style" not in html and " style=" not in html
    assert html.count("<script") == html.count("<script src=")
    assert " hx-on" not in html and "js:" not in html
