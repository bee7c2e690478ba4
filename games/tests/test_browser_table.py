"""The table in real browsers: a move made on one page reaches the other over the socket."""

import re

import pytest

from conftest import open_live_table, open_page, screenshot
from games import rules
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
    screenshot(bob_page, path=screenshot_dir / "table-live.png", full_page=True)
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
    screenshot(page, path=screenshot_dir / "table-countdown.png", full_page=True)
    assert errors == []
    page.context.close()


@pytest.mark.django_db(transaction=True)
def test_it_swaps_in_the_changed_table_alone_and_keeps_the_newest_version(
    live_asgi_server, browser, alice, bob, started_game
):
    state = set_position(started_game, "alice hand: 5M red")
    five = card_in(state, "alice", "hand", "5M")
    alice_page, alice_errors = open_live_table(browser, live_asgi_server, alice, started_game)
    bob_page, bob_errors = open_live_table(browser, live_asgi_server, bob, started_game)
    bob_page.evaluate("() => { document.getElementById('board').dataset.kept = 'yes'; }")

    alice_page.click(f'details[data-card-menu="{five}"] > summary')
    alice_page.click("text=Bank it (5M)")

    # Bob's page is sent alice's table alone: the board around it stays, at the new version.
    bob_page.wait_for_selector('#board[data-version="2"][data-kept="yes"]', timeout=10_000)
    assert "Bank 5M" in bob_page.inner_text("#player-0")
    assert bob_page.get_attribute("#player-0", "data-version") == "2"

    def swap(html):
        bob_page.evaluate("html => window.htmx.swap('#flash', html, {swapStyle: 'none'})", html)

    # A part older than the board (a late answer) is not swapped in; a newer one is.
    swap('<article id="player-0" class="player" data-version="1" hx-swap-oob="true">old</article>')
    assert "Bank 5M" in bob_page.inner_text("#player-0")
    # The piles did not change (a bank): they are as the board drew them, at no version of
    # their own, and an older drawing of them is not swapped in either.
    assert bob_page.get_attribute("#middle", "data-version") is None
    swap('<div id="middle" class="middle" data-version="1" hx-swap-oob="true">old</div>')
    assert "Draw pile" in bob_page.inner_text("#middle")
    swap('<article id="player-0" class="player" data-version="3" hx-swap-oob="true">new</article>')
    assert bob_page.inner_text("#player-0") == "new"
    assert bob_page.get_attribute("#board", "data-version") == "3"
    # Nor is a whole board older than the parts it holds.
    swap('<section id="board" data-version="2" hx-swap-oob="true">old board</section>')
    assert bob_page.inner_text("#player-0") == "new"
    assert alice_errors == [] and bob_errors == []
    alice_page.context.close()
    bob_page.context.close()


FLASH_IN_VIEW = """() => {
  const box = document.getElementById("flash").getBoundingClientRect();
  return box.height > 0 && box.top >= 0 && box.bottom <= window.innerHeight;
}"""


@pytest.mark.django_db(transaction=True)
def test_it_shows_why_a_move_was_refused_where_the_player_looks(
    live_asgi_server, browser, alice, bob, table_game
):
    # The prompt sits below the board: the sentence answering it must not be up at the
    # top of the page, out of sight.
    set_position(table_game, "alice hand: 1M 2M 3M 4M 5M red red green green")
    table_game.refresh_from_db()
    table_game.play(0, rules.Move.end())
    page, errors = open_live_table(
        browser, live_asgi_server, alice, table_game, viewport=(1100, 600)
    )
    form = page.locator(".discard-form")
    form.scroll_into_view_if_needed()

    form.locator("button[type=submit]").click()  # none chosen: two must go back

    page.wait_for_selector("#flash .message.error", timeout=10_000)
    assert page.evaluate(FLASH_IN_VIEW)
    screenshot(page, path="/tmp/shots-flash.png")
    page.click("#flash .message")
    assert page.locator("#flash .message").count() == 0
    assert errors == []
