"""The table chat's live parts in real browsers: the presence dots on the board, the end of a game."""

from pathlib import Path

import pytest

from conftest import open_live_table, screenshot

SHOTS = Path("/tmp/shots-chat2")

# The dot before a player's name on the board (static/css/chat.css), as the page draws it.
DOT = """(seat) => getComputedStyle(
    document.querySelector(`.player[data-seat="${seat}"] .player-head h2`), "::before"
).backgroundColor"""
FILLED = "rgb(61, 220, 132)"

# htmx reports a fragment whose target is missing only as an event: count them.
COUNT_NO_TARGETS = """() => {
    window.noTargets = [];
    document.body.addEventListener("htmx:oobErrorNoTarget", (event) => {
        window.noTargets.push(event.detail.content.id || event.detail.content.tagName);
    });
}"""


def send(page, text):
    page.fill("#chat-text", text)
    page.click("#chat-form button[type=submit]:not([name])")


def wait_for_dot(page, seat, filled):
    page.wait_for_function(
        f"() => ({DOT})({seat}) {'===' if filled else '!=='} '{FILLED}'", timeout=10_000
    )


@pytest.mark.django_db(transaction=True)
def test_it_shows_who_is_here_by_the_names_on_the_board_live(
    live_asgi_server, browser, alice, bob, started_game
):
    SHOTS.mkdir(exist_ok=True)
    alice_page, alice_errors = open_live_table(browser, live_asgi_server, alice, started_game)
    assert alice_page.evaluate(DOT, 0) == FILLED  # her own name: she is here
    assert alice_page.evaluate(DOT, 1) != FILLED

    bob_page, bob_errors = open_live_table(
        browser, live_asgi_server, bob, started_game, viewport=(390, 844)
    )
    wait_for_dot(alice_page, 1, filled=True)
    screenshot(alice_page, path=SHOTS / "board-presence-desktop.png")
    screenshot(bob_page, path=SHOTS / "board-presence-phone.png")

    # A move redraws the board: the dots stay as they are.
    pages = {0: alice_page, 1: bob_page}
    pages[started_game.state().current].click("#hand >> text=End turn")
    alice_page.wait_for_selector("#log li", timeout=10_000)
    assert alice_page.evaluate(DOT, 0) == FILLED and alice_page.evaluate(DOT, 1) == FILLED

    bob_page.context.close()
    wait_for_dot(alice_page, 1, filled=False)
    assert alice_errors == [] and bob_errors == []
    alice_page.context.close()


@pytest.mark.django_db(transaction=True)
def test_it_opens_both_chats_on_the_players_pages_when_the_game_ends(
    live_asgi_server, browser, alice, bob, charlie, started_game
):
    SHOTS.mkdir(exist_ok=True)
    alice_page, alice_errors = open_live_table(browser, live_asgi_server, alice, started_game)
    bob_page, bob_errors = open_live_table(browser, live_asgi_server, bob, started_game)
    charlie_page, charlie_errors = open_live_table(
        browser, live_asgi_server, charlie, started_game, viewport=(390, 844)
    )
    for page in (alice_page, bob_page, charlie_page):
        page.evaluate(COUNT_NO_TARGETS)
    send(charlie_page, "bob should bank it")
    charlie_page.wait_for_selector("#chat-spectators >> text=bob should bank it")
    send(alice_page, "good luck")
    bob_page.wait_for_selector("#chat-players >> text=good luck", timeout=10_000)
    assert alice_page.locator("#chat-spectators").count() == 0

    bob_page.click("#status details.resign > summary")
    bob_page.click("#status .resign-form button")

    for page in (alice_page, bob_page):
        page.wait_for_selector("#chat-spectators >> text=bob should bank it", timeout=10_000)
        assert "good luck" in page.inner_text("#chat-players")
    send(charlie_page, "well played")
    alice_page.wait_for_selector("#chat-spectators >> text=well played", timeout=10_000)
    send(alice_page, "gg")
    charlie_page.wait_for_selector("#chat-players >> text=gg", timeout=10_000)
    assert alice_page.url.endswith(f"/games/{started_game.code}/")  # no reload
    for page in (alice_page, bob_page, charlie_page):
        assert page.evaluate("() => window.noTargets") == []
    screenshot(alice_page, path=SHOTS / "game-end-chat-desktop.png", full_page=True)
    bob_page.set_viewport_size({"width": 390, "height": 844})
    bob_page.locator("#chat").scroll_into_view_if_needed()
    screenshot(bob_page, path=SHOTS / "game-end-chat-phone.png")
    assert alice_errors == [] and bob_errors == [] and charlie_errors == []
    for page in (alice_page, bob_page, charlie_page):
        page.context.close()


# Whether the last moves and the chat panel cover each other anywhere on the screen.
OVERLAP = """() => {
    const a = document.querySelector("#log").getBoundingClientRect();
    const b = document.querySelector("#chat").getBoundingClientRect();
    return !(a.bottom <= b.top || b.bottom <= a.top || a.right <= b.left || b.right <= a.left);
}"""


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("viewport", [(1100, 500), (1100, 900), (390, 844)])
def test_the_last_moves_never_slide_over_the_chat_as_the_page_scrolls(
    live_asgi_server, browser, alice, bob, started_game, viewport
):
    from games import rules

    for _ in range(16):  # a log longer than the window's share of it
        state = started_game.state()
        seat = rules.awaiting(state)[0][0]
        started_game.play(seat, rules.default_move(state, seat))
    SHOTS.mkdir(exist_ok=True)
    page, errors = open_live_table(browser, live_asgi_server, alice, started_game, viewport)
    height = page.evaluate("() => document.documentElement.scrollHeight")
    assert height > viewport[1]  # the page scrolls

    for y in range(0, height, 150):
        page.evaluate(f"() => window.scrollTo(0, {y})")
        page.wait_for_function(
            f"() => Math.abs(window.scrollY - Math.min({y}, document.documentElement.scrollHeight - innerHeight)) < 2"
        )
        assert not page.evaluate(OVERLAP), f"overlap at {y}"
    screenshot(page, path=SHOTS / f"side-{viewport[0]}x{viewport[1]}.png")
    assert errors == []
    page.context.close()
