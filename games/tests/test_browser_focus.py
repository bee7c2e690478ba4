"""Where the focus goes, and what is read out, as the table is redrawn (static/js/keys.js).

Found by playing whole games with the keyboard alone: a prompt that did not take the focus of
a page left alone, my turn's start and my drawn cards never read out, a card's whole rules text
read as its name, and the focus lost to <body> from the log, the header and the resign box.
"""

import re

import pytest
from playwright.sync_api import expect

from conftest import open_live_table
from games.tests.helpers import set_position
from games.tests.test_browser_keyboard import focused, tab_to

pytestmark = pytest.mark.django_db(transaction=True)


def focus_id(page):
    return page.evaluate("() => document.activeElement.id")


def test_a_prompt_takes_the_focus_of_a_page_left_alone(
    live_asgi_server, browser, alice, bob, started_game
):
    set_position(
        started_game,
        "turn: bob\nbob hand: debt_collector 1M 2M\nalice hand: 1M red\nalice bank: 5M 2M",
    )
    alice_page, alice_errors = open_live_table(browser, live_asgi_server, alice, started_game)
    bob_page, bob_errors = open_live_table(browser, live_asgi_server, bob, started_game)
    assert alice_page.evaluate("() => document.activeElement === document.body")

    bob_page.keyboard.press("1")
    bob_page.keyboard.press("p")

    expect(alice_page.locator("#announcer")).to_contain_text("You owe 5M", timeout=10_000)
    alice_page.wait_for_function("() => document.activeElement.id === 'prompt'", timeout=5_000)
    assert alice_errors == [] and bob_errors == []
    alice_page.context.close()
    bob_page.context.close()


def test_the_focus_stays_in_the_log_and_the_header_and_my_turn_is_read_out(
    live_asgi_server, browser, alice, bob, started_game
):
    set_position(started_game, "turn: bob\nbob hand: 1M 2M\nalice hand: 3M")
    alice_page, alice_errors = open_live_table(browser, live_asgi_server, alice, started_game)
    bob_page, bob_errors = open_live_table(browser, live_asgi_server, bob, started_game)
    tab_to(alice_page, "#log a")
    link = focused(alice_page)

    bob_page.keyboard.press("1")
    bob_page.keyboard.press("b")  # the log is drawn again
    expect(alice_page.locator("#announcer")).to_contain_text("bob banked", timeout=10_000)
    alice_page.wait_for_timeout(200)
    assert focused(alice_page) == link

    alice_page.locator("#nav-your-turn").focus()
    bob_page.keyboard.press("e")  # my turn: the header's badge is drawn again too
    expect(alice_page.locator("#nav-your-turn .badge")).to_have_text("1", timeout=10_000)
    announcer = alice_page.locator("#announcer")
    expect(announcer).to_contain_text("Your turn: 3 plays left")
    # My own draw, in no line of the log: the two cards by name.
    expect(announcer).to_contain_text(re.compile(r"New in your hand: \S[^;]*; \S"))
    alice_page.wait_for_timeout(200)
    assert focus_id(alice_page) == "nav-your-turn"
    assert alice_errors == [] and bob_errors == []
    alice_page.context.close()
    bob_page.context.close()


def test_a_cards_name_is_its_label_and_its_text_its_description(
    live_asgi_server, browser, alice, started_game
):
    set_position(started_game, "turn: alice\nalice hand: sly_deal\nbob table: orange: orange")
    page, errors = open_live_table(browser, live_asgi_server, alice, started_game)

    page.keyboard.press("1")

    card = page.locator(":focus")
    expect(card).to_have_accessible_name("Sly Deal, worth 3M")
    expect(card).to_have_accessible_description(re.compile("Take one property"))
    assert errors == []
    page.context.close()


def test_the_resign_boxs_confirmation_keeps_the_focus_through_a_redraw(
    live_asgi_server, browser, alice, bob, started_game
):
    set_position(started_game, "turn: bob\nbob hand: 1M 2M")
    alice_page, alice_errors = open_live_table(browser, live_asgi_server, alice, started_game)
    bob_page, bob_errors = open_live_table(browser, live_asgi_server, bob, started_game)
    tab_to(alice_page, "details.resign > summary")
    alice_page.keyboard.press("Enter")
    alice_page.keyboard.press("Tab")
    assert "Yes, resign" in focused(alice_page)

    bob_page.keyboard.press("1")
    bob_page.keyboard.press("b")
    expect(alice_page.locator("#announcer")).to_contain_text("bob banked", timeout=10_000)
    alice_page.wait_for_timeout(200)

    assert "Yes, resign" in focused(alice_page)
    assert alice_errors == [] and bob_errors == []
    alice_page.context.close()
    bob_page.context.close()


# Records every text the announcer was given.
RECORD = """
window.told = [];
new MutationObserver(() => {
  const a = document.getElementById('announcer');
  if (a && a.textContent.trim()) window.told.push(a.textContent.trim());
}).observe(document, {subtree: true, childList: true, characterData: true});
"""


def test_a_second_prompt_takes_the_focus_after_the_first_was_answered(
    live_asgi_server, browser, alice, bob, started_game
):
    set_position(
        started_game,
        "turn: bob\nbob hand: debt_collector debt_collector 1M\nalice hand: 1M red\n"
        "alice bank: 5M 5M",
    )
    alice_page, alice_errors = open_live_table(browser, live_asgi_server, alice, started_game)
    bob_page, bob_errors = open_live_table(browser, live_asgi_server, bob, started_game)
    bob_page.keyboard.press("1")
    bob_page.keyboard.press("p")
    expect(alice_page.locator("#prompt")).to_be_visible(timeout=10_000)
    alice_page.locator("#prompt input[type=checkbox]").first.focus()
    alice_page.keyboard.press("Space")
    alice_page.keyboard.press("a")
    alice_page.wait_for_function("() => !document.getElementById('prompt')", timeout=10_000)
    alice_page.wait_for_timeout(300)  # the focus on the hand's heading, its text unchanged

    bob_page.keyboard.press("1")
    bob_page.keyboard.press("p")

    expect(alice_page.locator("#prompt")).to_be_visible(timeout=10_000)
    alice_page.wait_for_function("() => document.activeElement.id === 'prompt'", timeout=5_000)
    assert alice_errors == [] and bob_errors == []
    alice_page.context.close()
    bob_page.context.close()


def test_my_turn_is_read_out_once_not_again_after_each_answer(
    live_asgi_server, browser, alice, bob, started_game
):
    set_position(
        started_game, "turn: alice\nalice hand: debt_collector 1M\nbob hand: 1M\nbob bank: 5M"
    )
    alice_page, alice_errors = open_live_table(browser, live_asgi_server, alice, started_game)
    alice_page.evaluate(RECORD)
    bob_page, bob_errors = open_live_table(browser, live_asgi_server, bob, started_game)
    alice_page.keyboard.press("1")
    alice_page.keyboard.press("p")
    expect(bob_page.locator("#prompt")).to_be_visible(timeout=10_000)
    boxes = bob_page.locator("#prompt input[type=checkbox]")
    for n in range(boxes.count()):
        boxes.nth(n).focus()
        bob_page.keyboard.press("Space")
    bob_page.keyboard.press("a")

    expect(alice_page.locator("#announcer")).to_contain_text("bob paid", timeout=10_000)
    alice_page.wait_for_timeout(300)
    assert not [text for text in alice_page.evaluate("() => window.told") if "Your turn" in text]
    assert alice_errors == [] and bob_errors == []
    alice_page.context.close()
    bob_page.context.close()


def test_a_prompt_takes_the_focus_without_scrolling_a_reader_away(
    live_asgi_server, browser, alice, bob, started_game
):
    set_position(
        started_game,
        "turn: bob\nbob hand: debt_collector 1M 2M\nalice hand: 1M red\nalice bank: 5M 2M",
    )
    alice_page, alice_errors = open_live_table(
        browser, live_asgi_server, alice, started_game, viewport=(390, 800)
    )
    bob_page, bob_errors = open_live_table(browser, live_asgi_server, bob, started_game)
    alice_page.locator("#chat").scroll_into_view_if_needed()
    alice_page.mouse.click(5, 400)  # on no control: the focus stays on <body>
    chat_top = "() => Math.round(document.getElementById('chat').getBoundingClientRect().top)"
    before = alice_page.evaluate(chat_top)
    assert alice_page.evaluate("() => document.activeElement.tagName") == "BODY"

    bob_page.keyboard.press("1")
    bob_page.keyboard.press("p")

    expect(alice_page.locator("#announcer")).to_contain_text("You owe 5M", timeout=10_000)
    alice_page.wait_for_function("() => document.activeElement.id === 'prompt'", timeout=5_000)
    # The chat stays about where the reader had it (the status above may change by a line);
    # the focus put on the prompt without scrolling scrolled the page to the top before.
    assert abs(alice_page.evaluate(chat_top) - before) < 100
    assert alice_errors == [] and bob_errors == []
    alice_page.context.close()
    bob_page.context.close()
