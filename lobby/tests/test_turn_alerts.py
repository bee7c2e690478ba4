"""What the pages tell static/js/alerts.js: whether a game waits for me, and my alert settings."""

import re

import pytest
from django.templatetags.static import static

from games.models import Game
from lobby.tests.test_user_socket import correspondence_game

pytestmark = pytest.mark.django_db


def body_tag(response):
    return re.search(r"<body[^>]*>", response.text).group(0)


def status_tag(response):
    return re.search(r'<section id="status"[^>]*>', response.text).group(0)


def test_it_gives_the_script_the_words_but_no_alerts_by_default(client, alice):
    client.force_login(alice)

    body = body_tag(client.get("/"))

    assert 'data-turn-title="● Your turn"' in body
    assert 'data-turn-waiting-text="A game is waiting for you"' in body
    assert "data-turn-sound" not in body
    assert "data-turn-notification" not in body


def test_it_marks_the_alerts_switched_on(client, alice):
    alice.turn_sound = True
    alice.save()
    client.force_login(alice)

    body = body_tag(client.get("/"))
    alice.turn_sound, alice.turn_browser_notification = False, True
    alice.save()
    other_body = body_tag(client.get("/"))

    assert "data-turn-sound" in body and "data-turn-notification" not in body
    assert "data-turn-notification" in other_body and "data-turn-sound" not in other_body


def test_it_loads_no_alerts_for_visitors(client):
    response = client.get("/")

    assert "data-turn-" not in body_tag(response)
    assert "js/alerts.js" not in response.text


def test_it_translates_the_words_of_the_alerts(client, alice):
    alice.language = "zh-hans"
    alice.save()
    client.force_login(alice)

    body = body_tag(client.get("/"))

    assert 'data-turn-title="● 轮到你了"' in body
    assert 'data-turn-waiting-text="有对局在等你"' in body


def test_it_says_on_the_table_whether_the_game_awaits_me(client, alice, bob, charlie):
    game = correspondence_game(alice, bob)

    seen = {}
    for user in (alice, bob, charlie):
        client.force_login(user)
        seen[user.username] = client.get(game.get_absolute_url())

    assert 'data-awaiting-me="true"' in status_tag(seen["alice"])
    assert 'data-awaiting-me="false"' in status_tag(seen["bob"])
    assert 'data-awaiting-me="false"' in status_tag(seen["charlie"])  # watching
    assert f'data-turn-text="Your turn at table {game.code}"' in seen["alice"].text


def test_it_stops_saying_so_when_the_game_is_no_longer_played(client, alice, bob):
    game = correspondence_game(alice, bob)
    # Cancelled by an admin while waiting for alice: the state still says she is to play.
    Game.objects.filter(pk=game.pk).update(status=Game.Status.CANCELLED)
    client.force_login(alice)

    response = client.get(game.get_absolute_url())

    assert 'data-awaiting-me="false"' in status_tag(response)


def test_it_links_the_icon_on_every_page(client, alice):
    visitor = client.get("/accounts/login/")
    client.force_login(alice)
    signed_in = client.get("/")

    for response in (visitor, signed_in):
        assert f'<link rel="icon" href="{static("favicon.svg")}" type="image/svg+xml"' in (
            response.text
        )


def test_it_sends_the_old_icon_address_to_the_icon(client):
    response = client.get("/favicon.ico")

    assert response.status_code == 302
    assert response.url == static("favicon.svg")
