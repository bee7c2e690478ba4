"""The card faces and the How to play page in a real browser, at desktop and phone width."""

from pathlib import Path

import pytest

from conftest import open_live_table, open_page, screenshot
from games.models import Game, Seat
from games.rules.position import card_in
from games.tests.helpers import set_position

SHOTS = Path("/tmp/shots-cards")
DESKTOP, PHONE = (1100, 900), (390, 844)

EVERY_ACTION = (
    "deal_breaker just_say_no sly_deal forced_deal debt_collector birthday "
    "double_rent house hotel pass_go jail double_sly_deal speeding rent_transfer heir "
    "rent:light_blue/brown rent:pink/orange rent:red/yellow rent:dark_blue/green "
    "rent:railroad/utility rent:any"
)

# Every kind of card visible to alice: her hand, both tables, her bank, the discard pile.
POSITION = f"""
options: enhanced
alice hand: {EVERY_ACTION} any light_blue/railroad 10M brown yellow orange
alice bank: 1M 2M sly_deal
alice table: red: red red/yellow any; light_blue: light_blue light_blue/brown; railroad: railroad railroad/utility green/railroad; utility: utility
bob table: dark_blue: dark_blue dark_blue/green +house; pink: pink pink/orange; green: green
discard: pass_go
"""

# Every text element of every card whose content is wider than its box: a word cut off.
OVERFLOWING = """() => Array.from(
    document.querySelectorAll(".card-name, .card-effect, .card-colours, .set-head")
).filter(el => el.scrollWidth > el.clientWidth + 1).map(el => el.textContent.trim())"""


def open_table(browser, server, user, game, viewport=DESKTOP, touch=False):
    return open_live_table(browser, server, user, game, viewport, touch)


@pytest.fixture
def started_game(alice, bob, without_broadcasts):
    with without_broadcasts():
        game = Game.objects.create(host=alice, seat_count=2, options={"enhanced": True})
        Seat.objects.create(game=game, user=alice, position=0)
        Seat.objects.create(game=game, user=bob, position=1)
        return game.start()


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_it_draws_every_kind_of_card_without_cutting_a_word(
    live_asgi_server, browser, alice, started_game, language
):
    SHOTS.mkdir(exist_ok=True)
    alice.language = language
    alice.save()
    set_position(started_game, POSITION)
    for label, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
        page, errors = open_table(browser, live_asgi_server, alice, started_game, viewport)
        screenshot(page, path=SHOTS / f"table-{language}-{label}.png", full_page=True)
        screenshot(page.locator("#hand"), path=SHOTS / f"hand-{language}-{label}.png")
        screenshot(page.locator("#board"), path=SHOTS / f"board-{language}-{label}.png")
        assert page.evaluate(OVERFLOWING) == [], label
        effect = page.locator("#hand .card.face-sly_deal .card-effect").inner_text()
        assert effect == {"en": "Steal a property", "zh-hans": "盗取一张物业"}[language]
        assert errors == []
        page.context.close()


@pytest.mark.django_db(transaction=True)
def test_it_shows_a_cards_full_effect_on_hover_focus_and_long_press(
    live_asgi_server, browser, alice, started_game
):
    state = set_position(started_game, POSITION)
    jail = card_in(state, "alice", "hand", "jail")
    page, errors = open_table(browser, live_asgi_server, alice, started_game)
    tip = page.locator(f'#hand .card[data-card="{jail}"] .card-tip')
    assert tip.bounding_box()["width"] <= 1  # visually hidden until asked for
    page.hover(f'#hand .card[data-card="{jail}"]')
    assert tip.bounding_box()["width"] > 100
    assert "skip their next turn" in tip.inner_text()
    screenshot(page, path=SHOTS / "tooltip-hover.png")
    # A redraw under the still mouse (a prompt pushing the hand down) opens no tooltip over
    # what it drew; the mouse moving again does.
    page.evaluate(
        """() => {
            const hand = document.getElementById("hand");
            const detail = {target: hand, elt: hand};
            hand.dispatchEvent(new CustomEvent("htmx:oobAfterSwap", {bubbles: true, detail}));
        }"""
    )
    assert tip.bounding_box()["width"] <= 1
    box = page.locator(f'#hand .card[data-card="{jail}"]').bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2 + 3, box["y"] + box["height"] / 2 + 3)
    assert tip.bounding_box()["width"] > 100
    page.mouse.move(0, 0)
    discard = page.locator("#board .pile .card[data-card]")
    discard.focus()  # a card outside any control takes the focus itself
    assert discard.locator(".card-tip").bounding_box()["width"] > 100
    assert errors == []
    page.context.close()

    # A phone: no hover; holding a card opens its text at the bottom of the screen.
    page, errors = open_table(browser, live_asgi_server, alice, started_game, PHONE, touch=True)
    card = page.locator(f'#hand .card[data-card="{jail}"]')
    card.dispatch_event("touchstart")
    page.wait_for_selector(f'#hand .card.tip-open[data-card="{jail}"]', timeout=2_000)
    card.dispatch_event("touchend")
    page.locator(f'details[data-card-menu="{jail}"] > summary').dispatch_event("click")
    box = card.locator(".card-tip").bounding_box()
    assert box["width"] > 300 and box["y"] > 600, box  # a sheet at the bottom
    # The click that ends the long press opened the text, not the card's menu.
    assert page.locator(f'details[data-card-menu="{jail}"]').get_attribute("open") is None
    screenshot(page, path=SHOTS / "tooltip-long-press-phone.png")
    page.locator("h2").first.dispatch_event("touchstart")
    assert page.locator(".card.tip-open").count() == 0
    assert errors == []
    page.context.close()


@pytest.mark.django_db(transaction=True)
def test_it_hides_the_hints_without_reloading_the_table(
    live_asgi_server, browser, alice, started_game
):
    page, errors = open_table(browser, live_asgi_server, alice, started_game)
    assert page.locator("#table-hints").is_visible()
    page.click("text=Got it, hide the hints")
    page.wait_for_selector("#table-hints", state="detached", timeout=5_000)
    alice.refresh_from_db()
    assert alice.show_table_hints is False
    assert page.url.endswith(f"/games/{started_game.code}/")
    assert errors == []
    page.context.close()


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_it_shows_the_how_to_play_page_at_desktop_and_phone_width(
    live_asgi_server, browser, alice, language
):
    alice.language = language
    alice.save()
    for label, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
        page, errors = open_page(browser, live_asgi_server, alice, "/how-to-play/", viewport)
        screenshot(page, path=SHOTS / f"how-to-play-{language}-{label}.png", full_page=True)
        for part in ("cards-wilds", "cards-actions", "rents"):
            page.locator(f"#{part}").evaluate("el => el.scrollIntoView()")
            screenshot(page, path=SHOTS / f"how-to-play-{language}-{label}-{part}.png")
        assert page.evaluate(OVERFLOWING) == [], label
        assert page.locator(".kind").count() == 45
        assert errors == []
        page.context.close()
