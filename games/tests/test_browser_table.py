"""The table in real browsers: a move made on one page reaches the other over the socket."""

import re

import pytest

from conftest import open_page
from games.rules.position import card_in
from games.tests.helpers import set_position


def open_table(browser, server, user, game):
    return open_page(browser, server, user, f"/games/{game.code}/")


@pytest.mark.django_db(transaction=True)
def test_it_brings_a_move_to_the_other_player_live(
    live_asgi_server, browser, screenshot_dir, alice, bob, started_game
):
    table_game = started_game
    state = set_position(table_game, "alice hand: 5M red")
    five = card_in(state, "alice", "hand", "5M")
    alice_page, alice_errors = open_table(browser, live_asgi_server, alice, table_game)
    bob_page, bob_errors = open_table(browser, live_asgi_server, bob, table_game)

    alice_page.click(f'details[data-card-menu="{five}"] > summary')
    alice_page.click("text=Bank it (5M)")

    for page in (alice_page, bob_page):
        page.wait_for_selector('#board[data-version="2"]', timeout=10_000)
        page.wait_for_selector("#log >> text=alice banked 5M", timeout=10_000)
    assert "Bank 5M" in bob_page.inner_text('.player[data-seat="0"]')
    assert alice_page.url.endswith(f"/games/{table_game.code}/")  # htmx: no page load
    bob_page.screenshot(path=screenshot_dir / "table-live.png", full_page=True)
    assert alice_errors == [] and bob_errors == []
    alice_page.context.close()
    bob_page.context.close()


@pytest.mark.django_db(transaction=True)
def test_it_counts_down_the_time_to_decide_in_the_browsers_time_zone(
    live_asgi_server, browser, screenshot_dir, alice, bob, started_game
):
    waiting = started_game.seats.get(deadline__isnull=False)
    page, errors = open_table(browser, live_asgi_server, waiting.user, started_game)
    countdown = page.locator("#status .my-clock .countdown")
    first = countdown.inner_text()
    assert re.fullmatch(r"0:0\d:\d\d", first), first  # 60 s a decision, ticking as H:MM:SS
    page.wait_for_function(
        "first => document.querySelector('#status .my-clock .countdown').textContent !== first",
        arg=first,
        timeout=5_000,
    )
    local = page.locator("#status .my-clock time[data-local-time]")
    assert "UTC" not in local.inner_text(), "the deadline is shown in the browser's own time"
    assert "Reserve" not in page.inner_text("#board"), "live games have no reserve"
    page.screenshot(path=screenshot_dir / "table-countdown.png", full_page=True)
    assert errors == []
    page.context.close()
