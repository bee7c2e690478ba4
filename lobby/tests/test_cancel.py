import pytest
from django.template.loader import render_to_string
from django.urls import reverse

from games.models import Game
from lobby.tests.conftest import open_table
from lobby.views import room_context

pytestmark = pytest.mark.django_db


def cancel(game):
    return reverse("lobby:cancel", args=[game.code])


def test_it_cancels_the_table(client, alice, bob, django_capture_on_commit_callbacks):
    game = open_table(alice, bob)
    client.force_login(alice)

    with django_capture_on_commit_callbacks() as callbacks:
        response = client.post(cancel(game), follow=True)

    game.refresh_from_db()
    assert game.status == Game.Status.CANCELLED
    assert game.ended_at is not None
    assert response.redirect_chain == [(reverse("lobby:home"), 302)]
    assert "The table is cancelled." in response.text
    assert response.context["open_tables"] == []
    assert len(callbacks) == 1


def test_it_refuses_a_player_who_is_not_the_host(client, alice, bob):
    game = open_table(alice, bob)
    client.force_login(bob)

    assert client.post(cancel(game)).status_code == 403
    game.refresh_from_db()
    assert game.status == Game.Status.OPEN


def test_it_refuses_a_started_game(client, alice, bob):
    game = open_table(alice, bob, seat_count=2).start()
    client.force_login(alice)

    client.post(cancel(game))

    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE


def test_it_answers_htmx_with_a_redirect_home(client, alice, table):
    client.force_login(alice)

    response = client.post(cancel(table), headers={"HX-Request": "true"})

    assert response["HX-Redirect"] == reverse("lobby:home")


def test_a_players_room_drawn_again_hides_the_stale_share_link(alice, bob, rf):
    # The lobby socket redraws only the room: "room-alone" hides the panels after it
    # (lobby.css), which the page drew while the table was open.
    game = open_table(alice, bob)
    request = rf.get("/")
    request.user = bob

    def room():
        context = room_context(request, game) | {"oob": True}
        return render_to_string("lobby/table.html#room", context, request=request)

    assert "room-alone" not in room()
    game.cancel()
    assert "room-alone" in room()
