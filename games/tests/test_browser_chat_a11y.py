"""The table with its chat panel full of messages: axe in English and Chinese, 320 px, 200% zoom."""

from pathlib import Path

import pytest

from conftest import open_page, screenshot
from games.chat.messages import ChatMessage, Report
from games.tests.test_browser_axe import (
    MID_GAME,
    NARROW,
    SOCKETS_HEARD,
    playing_game,
    settled,
    severe_violations,
)

SHOTS = Path("/tmp/shots-chat2")
SIDEWAYS = "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
LONG_WORD = "Unbreakable" * 40  # 440 characters with no space to wrap at


def table_with_chat(alice, bob, charlie, without_broadcasts):
    game = playing_game(alice, bob, without_broadcasts, MID_GAME)
    said = [
        (alice, "players", "Good luck, and mind my red set!", ""),
        (bob, "players", "", "thanks"),
        (bob, "players", "https://example.com/ <b>not bold</b>\nsecond line", ""),
        (alice, "players", LONG_WORD, ""),
        (charlie, "spectators", "bob should bank the 5M", ""),
        # Only the spectator's own words, no control in them: the list scrolls all the same.
        (charlie, "spectators", LONG_WORD, ""),
        (charlie, "spectators", LONG_WORD, ""),
    ]
    for user, room, text, phrase in said:
        ChatMessage.objects.create(game=game, user=user, room=room, text=text, phrase=phrase)
    Report.objects.create(message=ChatMessage.objects.get(text__startswith="https"), reporter=alice)
    return game


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_it_finds_no_serious_axe_violation_on_a_table_with_chat(
    live_asgi_server, browser, alice, bob, charlie, without_broadcasts, language
):
    SHOTS.mkdir(exist_ok=True)
    type(alice).objects.update(language=language)
    game = table_with_chat(alice, bob, charlie, without_broadcasts)
    found = {}
    for name, user in (("player", alice), ("spectator", charlie)):
        page, errors = open_page(
            browser, live_asgi_server, user, f"/games/{game.code}/", init_script=SOCKETS_HEARD
        )
        settled(page)
        assert page.locator("#chat .chat-message").count() >= 4
        assert page.locator("html").get_attribute("lang") == language
        found[name] = severe_violations(page)
        screenshot(page, path=SHOTS / f"axe-table-chat-{name}-{language}.png", full_page=True)
        # Narrow: nothing scrolls sideways, the long words of the chat included.
        page.set_viewport_size({"width": 320, "height": 700})
        page.wait_for_function(NARROW)  # resized: reading scrollWidth lays the page out anew
        found[name]["sideways-at-320px"] = page.evaluate(SIDEWAYS) > 0 or None
        page.locator("#chat").scroll_into_view_if_needed()
        screenshot(page, path=SHOTS / f"table-chat-320-{name}-{language}.png")
        assert errors == [], (name, errors)
        page.context.close()
    wrong = {name: {k: v for k, v in got.items() if v} for name, got in found.items()}
    assert wrong == {"player": {}, "spectator": {}}, __import__("pprint").pformat(wrong)


@pytest.mark.django_db(transaction=True)
def test_it_fits_the_chat_panel_at_200_percent_zoom(
    live_asgi_server, browser, alice, bob, charlie, without_broadcasts
):
    SHOTS.mkdir(exist_ok=True)
    game = table_with_chat(alice, bob, charlie, without_broadcasts)
    page, errors = open_page(
        browser,
        live_asgi_server,
        alice,
        f"/games/{game.code}/",
        viewport=(640, 450),
        scale=2,
        init_script=SOCKETS_HEARD,
    )
    settled(page)
    page.locator("#chat-text").focus()
    page.keyboard.type("typed at 200%")
    page.locator("#chat").scroll_into_view_if_needed()

    assert page.evaluate(SIDEWAYS) <= 0
    left, right = page.evaluate(
        "() => { const b = document.querySelector('#chat').getBoundingClientRect();"
        " return [b.left, b.right]; }"
    )
    assert 0 <= left and right <= 640
    # caret="initial": hiding the caret leaves style="" on every input, which htmx then copies.
    screenshot(page, path=SHOTS / "table-chat-zoom-200.png", caret="initial")
    page.keyboard.press("Enter")
    page.wait_for_selector("#chat-players >> text=typed at 200%", timeout=10_000)
    assert errors == []
    page.context.close()
