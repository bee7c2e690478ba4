"""The table's card menus, status bar and set headers in a real browser, desktop and phone."""

from pathlib import Path

import pytest

from conftest import open_live_table, screenshot
from games.rules.position import card_in
from games.tests.helpers import set_position

SHOTS = Path("/tmp/shots-defects")
DESKTOP, PHONE = (1100, 900), (390, 844)
VIEWPORTS = pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])

# A hand that wraps at both widths, and sets whose colours have long names.
POSITION = """
players: alice bob
turn: alice
plays: 3
alice hand: 3M red/yellow 1M pass_go sly_deal 2M debt_collector birthday 4M
alice table: railroad: railroad railroad; dark_blue: dark_blue; light_blue: light_blue; \
utility: utility; green: green/railroad; pink: pink/orange
bob table: red: red; green: green; orange: orange
"""


def shoot(page, name):
    SHOTS.mkdir(exist_ok=True)
    screenshot(page, path=SHOTS / f"{name}.png", full_page=True)


def settle(page):
    """Wait two frames: a menu is placed on its toggle event, after it opens."""
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")


def outside_viewport(page, locator):
    """Return the box of `locator` if it is not wholly within the viewport, else None."""
    box = locator.bounding_box()
    size = page.viewport_size
    right, bottom = box["x"] + box["width"], box["y"] + box["height"]
    if box["x"] < 0 or box["y"] < 0 or right > size["width"] or bottom > size["height"]:
        return box
    return None


def open_at(browser, server, user, game, viewport):
    """Open the table at `viewport` once its socket has redrawn it (on connecting)."""
    return open_live_table(browser, server, user, game, viewport)


@pytest.mark.django_db(transaction=True)
@VIEWPORTS
def test_it_keeps_every_card_menu_within_the_viewport(
    live_asgi_server,
    browser,
    alice,
    started_game,  # noqa: F811
    viewport,
):
    set_position(started_game, POSITION)
    page, errors = open_at(browser, live_asgi_server, alice, started_game, viewport)
    menus = page.locator("details[data-card-menu]")
    count = menus.count()
    assert count >= 10  # nine hand cards and the wild on the table
    outside = {}
    for i in range(count):
        menu = menus.nth(i)
        menu.locator("summary").scroll_into_view_if_needed()
        menu.locator("summary").click()
        settle(page)
        assert menu.evaluate("m => m.open")
        box = outside_viewport(page, menu.locator(".menu"))
        if box:
            outside[menu.get_attribute("data-card-menu")] = box
        if i in (1, count - 1):
            shoot(page, f"menu-{i}-{viewport[0]}")
        page.keyboard.press("Escape")
    assert outside == {}
    assert errors == []
    page.context.close()


@pytest.mark.django_db(transaction=True)
def test_it_does_not_open_the_menu_of_a_wild_just_laid(
    live_asgi_server,
    browser,
    alice,
    started_game,  # noqa: F811
):
    state = set_position(started_game, POSITION)
    wild = card_in(state, "alice", "hand", "red/yellow")
    page, errors = open_at(browser, live_asgi_server, alice, started_game, DESKTOP)

    page.click(f'#hand details[data-card-menu="{wild}"] > summary')
    page.click("#hand >> text=Lay as yellow")
    page.wait_for_selector(f'#board details[data-card-menu="{wild}"]', timeout=10_000)
    settle(page)

    assert page.locator("details[data-card-menu][open]").count() == 0
    shoot(page, "wild-laid-1100")
    page.click(f'#board details[data-card-menu="{wild}"] > summary')
    assert page.locator(f'#board details[data-card-menu="{wild}"] .menu').is_visible()
    assert errors == []
    page.context.close()


@pytest.mark.django_db(transaction=True)
@VIEWPORTS
def test_it_keeps_set_names_readable_and_on_phones_the_status_bar_in_view(
    live_asgi_server,
    browser,
    alice,
    started_game,  # noqa: F811
    viewport,
):
    set_position(started_game, POSITION)
    page, errors = open_at(browser, live_asgi_server, alice, started_game, viewport)
    shoot(page, f"table-{viewport[0]}")

    page.evaluate("() => window.scrollTo(0, document.body.scrollHeight)")
    settle(page)
    screenshot(page, path=SHOTS / f"scrolled-{viewport[0]}.png")
    if viewport == PHONE:
        status = page.locator("#status")
        box = status.bounding_box()
        assert box["y"] >= 0 and box["y"] + box["height"] <= viewport[1] / 4, box
        assert "Your turn" in status.inner_text()
        assert page.locator("#hand .hand").is_visible()
    # A header shows its colour's name whole: on one line, or wrapped between words.
    cut = page.evaluate(
        """() => Array.from(document.querySelectorAll('.set-head')).filter(head => {
            const style = getComputedStyle(head);
            const context = document.createElement('canvas').getContext('2d');
            context.font = style.font;
            const room = head.clientWidth - parseFloat(style.paddingLeft)
                - parseFloat(style.paddingRight);
            const text = head.textContent.trim();
            const fits = word => context.measureText(word).width <= room + 0.5;
            const wraps = !style.whiteSpace.startsWith('nowrap') && style.whiteSpace !== 'pre';
            const shown = fits(text) || (wraps && text.split(/\\s+/).every(fits));
            return !shown || head.scrollHeight > head.clientHeight + 1;
        }).map(head => head.textContent.trim())"""
    )
    assert cut == []
    assert errors == []
    page.context.close()


PAYING = """
players: alice bob
turn: alice
plays: 3
options: enhanced
alice hand: rent:any
alice table: green: green green green +house
bob bank: 10M 1M
bob table: brown: brown brown; brown: any any; railroad: railroad railroad light_blue/railroad
"""


@pytest.mark.django_db(transaction=True)
@VIEWPORTS
def test_it_shows_which_set_each_card_to_pay_with_is_in(
    live_asgi_server,
    browser,
    alice,
    bob,
    started_game,  # noqa: F811
    without_broadcasts,
    viewport,
):
    state = set_position(started_game, PAYING)
    rent = card_in(state, "alice", "hand", "rent:any")
    with without_broadcasts():
        started_game.play(0, {"kind": "play", "card": rent, "colour": "green", "targets": [1]})
    page, errors = open_at(browser, live_asgi_server, bob, started_game, viewport)

    where = page.locator(".pay-form .pick-where").all_inner_texts()
    assert "brown set 1" in where and "railroad set" in where and "bank" in where
    assert "brown set 2" not in where  # multicolour wilds never pay
    # Each card says where it lies, the bank's too: their tick boxes stand in one line
    # (where the cards do: a phone's row of them wraps).
    if viewport == DESKTOP:
        boxes = page.locator(".pay-form .pick input").all()
        assert len({round(box.bounding_box()["y"]) for box in boxes}) == 1
    assert page.locator(".set-head .set-number").all_inner_texts() == ["1", "2"]
    assert "alice charged bob 11M green rent" in page.inner_text("#log")
    shoot(page, f"pay-{viewport[0]}")
    assert errors == []
    page.context.close()
