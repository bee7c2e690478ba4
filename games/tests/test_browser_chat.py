"""The table chat in real browsers: live between two players, the spectators apart."""

from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client

from conftest import open_live_table, screenshot

SHOTS = Path("/tmp/shots-chat")


def empty_note(page, room):
    """Return what the list of `room` shows in place of messages: "none" once it holds one."""
    script = "id => getComputedStyle(document.getElementById(id), '::before').content"
    return page.evaluate(script, f"chat-{room}")


def send(page, text):
    page.fill("#chat-text", text)
    page.click("#chat-form button[type=submit]:not([name])")


@pytest.mark.django_db(transaction=True)
def test_it_brings_a_message_to_the_other_player_live(
    live_asgi_server, browser, alice, bob, charlie, started_game
):
    game = started_game
    alice_page, alice_errors = open_live_table(browser, live_asgi_server, alice, game)
    bob_page, bob_errors = open_live_table(browser, live_asgi_server, bob, game)
    charlie_page, charlie_errors = open_live_table(
        browser, live_asgi_server, charlie, game, viewport=(390, 844)
    )

    # Who has the table open: bob's arrival reaches alice's page without a reload.
    alice_page.wait_for_selector("#presence li.here >> text=bob", timeout=10_000)

    assert empty_note(bob_page, "players") == '"No messages yet."'
    send(alice_page, "Good luck <b>bob</b>")
    bob_page.wait_for_selector("#chat-players >> text=Good luck <b>bob</b>", timeout=10_000)
    assert empty_note(bob_page, "players") == "none"  # the message came over the socket
    charlie_page.wait_for_selector("#chat-players >> text=Good luck <b>bob</b>", timeout=10_000)
    assert bob_page.locator("#chat-players b").count() == 0  # shown as text

    send(charlie_page, "bob should bank it")
    charlie_page.wait_for_selector("#chat-spectators >> text=bob should bank it", timeout=10_000)
    bob_page.click("#chat-form button[name=phrase][value=thanks]")
    alice_page.wait_for_selector("#chat-players >> text=Thanks", timeout=10_000)
    assert "bob should bank it" not in alice_page.inner_text("body")
    assert "bob should bank it" not in bob_page.inner_text("body")
    assert alice_page.url.endswith(f"/games/{game.code}/")  # htmx: no page load

    SHOTS.mkdir(exist_ok=True)
    screenshot(alice_page, path=SHOTS / "table-chat-desktop.png", full_page=True)
    screenshot(charlie_page, path=SHOTS / "table-chat-phone-spectator.png", full_page=True)
    bob_page.set_viewport_size({"width": 390, "height": 844})
    bob_page.locator("#chat").scroll_into_view_if_needed()
    screenshot(bob_page, path=SHOTS / "table-chat-phone.png")
    bob_page.set_viewport_size({"width": 320, "height": 700})
    assert bob_page.evaluate("() => document.documentElement.scrollWidth <= 320")

    bob_page.context.close()
    alice_page.wait_for_selector("#presence li:not(.here) >> text=bob", timeout=10_000)
    assert alice_errors == [] and bob_errors == [] and charlie_errors == []
    alice_page.context.close()
    charlie_page.context.close()


@pytest.mark.django_db(transaction=True)
def test_it_sends_a_message_without_javascript(live_asgi_server, browser, alice, started_game):
    client = Client()
    client.force_login(alice)
    context = browser.new_context(
        java_script_enabled=False, viewport={"width": 1100, "height": 900}
    )
    context.add_cookies(
        [
            {
                "name": settings.SESSION_COOKIE_NAME,
                "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                "url": live_asgi_server,
            }
        ]
    )
    page = context.new_page()
    page.goto(f"{live_asgi_server}/games/{started_game.code}/")
    page.fill("#chat-text", "no script here")
    page.click("#chat-form button[type=submit]:not([name])")

    page.wait_for_selector("#chat-players >> text=no script here", timeout=10_000)
    assert page.url.endswith(f"/games/{started_game.code}/#chat")
    context.close()
