"""The header's badges in real browsers: a move elsewhere changes them without a reload."""

import pytest
from playwright.sync_api import expect

from conftest import open_page, screenshot
from lobby.tests.test_user_socket import correspondence_game

# Set before the page loads: tells the test that the page's ws/me/ socket is open.
WATCH_USER_SOCKET = """
document.addEventListener("htmx:wsOpen", function (event) {
  if (event.target.getAttribute("ws-connect").startsWith("/ws/me/")) {
    window.userSocketOpen = true;
  }
});
"""


@pytest.fixture
def waiting_for_alice(alice, bob, without_broadcasts):
    """A correspondence game waiting for alice, nobody notified."""
    with without_broadcasts():
        return correspondence_game(alice, bob)


def open_watched(browser, server, user, path):
    """Open `path` for `user` and wait until its header's socket is open."""
    page, errors = open_page(browser, server, user, path)
    page.context.add_init_script(WATCH_USER_SOCKET)
    page.reload()
    # A function, not an expression: Playwright evals an expression again at every
    # poll, which the Content-Security-Policy (no unsafe-eval) refuses once the first
    # poll fails; a function is evaled once, inside the DevTools call, then called.
    page.wait_for_function("() => window.userSocketOpen === true", timeout=10_000)
    return page, errors


@pytest.mark.django_db(transaction=True)
def test_it_updates_the_badge_live_when_it_becomes_my_turn(
    live_asgi_server, browser, screenshot_dir, alice, bob, waiting_for_alice
):
    game = waiting_for_alice
    bob_page, bob_errors = open_watched(browser, live_asgi_server, bob, "/")
    alice_page, alice_errors = open_watched(
        browser, live_asgi_server, alice, game.get_absolute_url()
    )
    expect(bob_page.locator("#nav-your-turn")).to_have_text("Your turn")
    expect(alice_page.locator("#nav-your-turn .badge")).to_have_text("1")
    bob_page.evaluate("window.notReloaded = true")

    alice_page.click("button.move-end")  # through the table, whose own socket is open too

    expect(bob_page.locator("#nav-your-turn .badge")).to_have_text("1", timeout=10_000)
    expect(bob_page.locator("#nav-notifications .badge")).to_have_text("1")
    assert bob_page.evaluate("window.notReloaded") is True
    # Alice's table page keeps both sockets: the board moves on and her badge goes.
    alice_page.wait_for_selector("#status:not(.my-turn)", timeout=10_000)
    expect(alice_page.locator("#nav-your-turn .badge")).to_have_count(0)
    screenshot(bob_page, path=screenshot_dir / "nav-badges.png")

    bob_page.click("#nav-your-turn")
    expect(bob_page.locator("#waiting-for-me")).to_contain_text("Alice Liddell")
    assert bob_errors == [] and alice_errors == []
    alice_page.context.close()
    bob_page.context.close()


@pytest.mark.django_db(transaction=True)
def test_it_moves_a_game_to_your_move_on_the_home_page_without_a_reload(
    live_asgi_server, browser, screenshot_dir, alice, bob, waiting_for_alice
):
    game = waiting_for_alice
    bob_page, bob_errors = open_watched(browser, live_asgi_server, bob, "/")
    alice_page, alice_errors = open_watched(
        browser, live_asgi_server, alice, game.get_absolute_url()
    )
    mine = bob_page.locator("#my-tables")
    expect(mine.get_by_role("heading", name="In play")).to_be_visible()
    expect(mine.get_by_role("heading", name="Your move")).to_have_count(0)
    bob_page.evaluate("window.notReloaded = true")

    alice_page.click("button.move-end")  # bob's turn

    your_move = mine.locator("section.your-move")
    expect(your_move.get_by_role("heading", name="Your move")).to_be_visible(timeout=10_000)
    expect(your_move.get_by_role("link", name="Alice Liddell, bob")).to_be_visible()
    expect(mine.get_by_role("heading", name="In play")).to_have_count(0)
    expect(bob_page.locator("#nav-your-turn .badge")).to_have_text("1")
    assert bob_page.evaluate("window.notReloaded") is True
    screenshot(bob_page, path=screenshot_dir / "home-my-tables-live.png")
    assert bob_errors == [] and alice_errors == []
    alice_page.context.close()
    bob_page.context.close()
