"""Every response that shows a hand or a prompt says Cache-Control: no-store.

On a shared computer the back button (or any cache on the way) must not show
a player's cards once they have left the table.
"""

import pytest
from django.urls import reverse

from games import rules
from games.tests.helpers import post_move


def assert_no_store(response):
    assert "no-store" in response.headers.get("Cache-Control", ""), response.headers
    assert "private" in response.headers["Cache-Control"]


def test_it_keeps_the_table_page_out_of_caches(client, alice, table_game):
    client.force_login(alice)

    response = client.get(table_game.get_absolute_url())

    assert response.status_code == 200
    assert "data-card=" in response.text  # alice's hand is on it
    assert_no_store(response)


@pytest.mark.parametrize("htmx", [True, False])
def test_it_keeps_the_answers_to_a_move_out_of_caches(client, alice, table_game, htmx):
    client.force_login(alice)

    response = post_move(client, table_game, htmx=htmx, kind="end")

    assert response.status_code in (200, 302)
    assert_no_store(response)


def test_it_keeps_the_log_and_the_resign_prompt_out_of_caches(client, alice, table_game):
    client.force_login(alice)

    for name in ("games:log", "games:resign"):
        response = client.get(reverse(name, args=[table_game.code]))
        assert response.status_code == 200
        assert_no_store(response)


def test_it_keeps_coming_back_out_of_caches(client, alice, table_game):
    client.force_login(alice)

    response = client.post(reverse("games:come_back", args=[table_game.code]))

    assert_no_store(response)


def test_it_keeps_the_review_of_every_hand_out_of_caches(client, alice, charlie, table_game):
    table_game.play(0, rules.Move.resign())
    client.force_login(charlie)

    response = client.get(reverse("games:review", args=[table_game.code]))

    assert response.status_code == 200
    assert_no_store(response)


@pytest.mark.parametrize("name", ["games:resign", "games:come_back"])
def test_it_keeps_the_board_redrawn_after_a_post_out_of_caches(client, alice, table_game, name):
    client.force_login(alice)

    response = client.post(reverse(name, args=[table_game.code]), headers={"HX-Request": "true"})

    assert response.status_code == 200
    assert "data-card=" in response.text  # the board, with alice's hand
    assert_no_store(response)


def test_it_keeps_the_board_after_asking_for_a_rematch_out_of_caches(client, alice, table_game):
    table_game.play(1, rules.Move.resign())
    client.force_login(alice)

    response = client.post(
        reverse("games:rematch", args=[table_game.code]), headers={"HX-Request": "true"}
    )

    assert response.status_code == 200
    assert_no_store(response)


def test_it_keeps_the_record_of_every_hand_out_of_caches(client, alice, table_game):
    table_game.play(1, rules.Move.resign())
    client.force_login(alice)

    response = client.get(reverse("games:export", args=[table_game.code]))

    assert response.status_code == 200
    assert response.json()["seed"] == table_game.seed  # every hand can be dealt again from it
    assert_no_store(response)
