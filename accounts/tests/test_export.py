"""A player downloads what the site keeps about them (accounts.views.export_data)."""

import json

import pytest
from django.urls import reverse

from accounts import views
from accounts.blocks import block
from games.models import ChatMessage, Game, Seat

pytestmark = pytest.mark.django_db

URL = reverse("accounts:export_data")


def test_it_gives_the_player_their_account_games_chat_and_blocks(client, alice, bob, charlie):
    game = Game.objects.create(host=alice, seat_count=2)
    Seat.objects.create(game=game, user=alice, position=0)
    Seat.objects.create(game=game, user=bob, position=1)
    game.start()
    ChatMessage.objects.create(game=game, user=alice, room="players", text="good luck")
    ChatMessage.objects.create(game=game, user=bob, room="players", text="bob's own words")
    block(alice, charlie)
    client.force_login(alice)

    response = client.get(URL)

    assert response.status_code == 200
    assert response["Content-Disposition"] == f'attachment; filename="fullset-{alice.pk}.json"'
    data = json.loads(response.content)
    assert data["account"]["username"] == "alice"
    assert data["account"]["email"] == "alice@example.com"
    assert data["settings"]["display_name"] == "Alice Liddell"
    [played] = data["games"]
    assert (played["code"], played["status"], played["my_seat"]) == (game.code, "active", 0)
    assert played["players"] == ["Alice Liddell", "bob"]
    assert [m["text"] for m in data["chat_messages"]] == ["good luck"]
    assert data["blocked"] == ["charlie"]
    # No card: a game's moves are on its review once it has ended, never in a file.
    assert "hand" not in response.content.decode() and "snapshot" not in response.content.decode()


def test_it_is_the_asking_players_alone(client, alice, bob):
    client.force_login(bob)

    data = json.loads(client.get(URL).content)

    assert data["account"]["username"] == "bob" and data["games"] == []


def test_it_is_bounded_an_hour(client, alice, monkeypatch):
    monkeypatch.setattr(views, "DATA_EXPORTS_AN_HOUR", 2)
    client.force_login(alice)

    answers = [client.get(URL) for _ in range(3)]

    assert [answer.status_code for answer in answers] == [200, 200, 302]
    assert "try again later" in client.get(answers[2].url).text
