"""The site at 200% zoom: a 1280x900 window zoomed twice is 640x450 CSS pixels (issue 18).

Nothing may scroll sideways, and what opens on the table (a card's menu, the
shortcuts) stays inside the window.
"""

from pathlib import Path

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError, expect

from conftest import open_live_table, open_page, screenshot
from games.models import Game
from games.tests.review_helpers import stored_game
from games.tests.test_browser_axe import MID_GAME, playing_game, settled

SHOTS = Path("/tmp/shots-a11y")
ZOOMED = (640, 450)

SIDEWAYS = "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"

# The horizontal extent of the element that has the focus and of its open menu or dialog.
FOCUSED_BOX = """() => {
    const box = (document.activeElement.closest('.menu, dialog') || document.activeElement)
        .getBoundingClientRect();
    return [box.left, box.right, box.top, box.bottom];
}"""


def opened_menu(page):
    """Whether the focused card's menu opens (the focus moves into it a moment after Enter)."""
    try:
        page.wait_for_function(
            "() => !!document.activeElement.closest('#hand .menu')", timeout=3_000
        )
    except PlaywrightTimeoutError:
        return False
    return True


def zoomed(browser, server, user, path):
    return open_page(browser, server, user, path, viewport=ZOOMED, scale=2)


@pytest.mark.django_db(transaction=True)
def test_it_fits_the_main_pages_at_200_percent_zoom(
    live_asgi_server, browser, alice, bob, without_broadcasts
):
    SHOTS.mkdir(exist_ok=True)
    table = playing_game(alice, bob, without_broadcasts, MID_GAME)
    with without_broadcasts():
        finished = stored_game([alice, bob], seed=9)
    pages = {
        "home": "/",
        "lobby": "/tables/",
        "create": "/tables/new/",
        "table": f"/games/{table.code}/",
        "review": f"/games/{finished.code}/review/?move=12",
        "profile": "/accounts/u/bob/",
        "leaderboard": "/accounts/leaderboard/",
        "settings": "/accounts/settings/",
        "your-turn": "/turn/",
        "notifications": "/notifications/",
        "how-to-play": "/how-to-play/",
    }
    sideways = {}
    for name, path in pages.items():
        page, errors = zoomed(browser, live_asgi_server, alice, path)
        settled(page)
        overflow = page.evaluate(SIDEWAYS)
        if overflow > 0:
            sideways[name] = overflow
        screenshot(page, path=SHOTS / f"zoom-{name}.png", full_page=True)
        assert errors == [], (name, errors)
        page.context.close()
    assert sideways == {}, f"pixels of horizontal scrolling at 200% zoom: {sideways}"


@pytest.mark.django_db(transaction=True)
def test_it_keeps_the_table_menus_and_shortcuts_inside_the_window_at_200_percent_zoom(
    live_asgi_server, browser, alice, bob, without_broadcasts
):
    SHOTS.mkdir(exist_ok=True)
    table = playing_game(alice, bob, without_broadcasts, MID_GAME)
    assert table.status == Game.Status.ACTIVE
    # Pressing keys before the socket's first board is drawn would lose the focus to the redraw.
    page, errors = open_live_table(browser, live_asgi_server, alice, table, ZOOMED, scale=2)
    settled(page)
    width, height = ZOOMED

    # Each card's menu of the hand, opened from the keyboard, shows whole in the window.
    count = page.locator("#hand .hand > li").count()
    menus = 0
    for place in range(1, min(count, 9) + 1):
        page.keyboard.press(str(place))
        page.keyboard.press("Enter")
        if opened_menu(page):
            menus += 1
            left, right, top, bottom = page.evaluate(FOCUSED_BOX)
            assert 0 <= left and right <= width, f"card {place}'s menu spans {left}..{right}"
            assert 0 <= top and bottom <= height, f"card {place}'s menu spans {top}..{bottom}"
            assert page.evaluate(SIDEWAYS) <= 0
            if menus == 1:
                screenshot(page, path=SHOTS / "zoom-table-menu.png")
        page.keyboard.press("Escape")
    assert menus >= 3

    # The shortcuts: inside the window, and its last control reachable with Tab.
    page.keyboard.press("?")
    dialog = page.locator("#shortcuts")
    expect(dialog).to_be_visible()
    left, right, top, bottom = page.evaluate(FOCUSED_BOX)
    assert 0 <= left and right <= width and 0 <= top and bottom <= height, (
        left,
        right,
        top,
        bottom,
    )
    for _ in range(5):
        if page.evaluate("() => document.activeElement.matches('#shortcuts button')"):
            break
        page.keyboard.press("Tab")
    close = page.locator("#shortcuts button")
    expect(close).to_be_focused()
    expect(close).to_be_in_viewport()
    screenshot(page, path=SHOTS / "zoom-table-shortcuts.png")
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    assert errors == []
    page.context.close()


# How many lines each header and each one-word cell of the finished lists takes.
LINES_OF_WORDS = """() => [...document.querySelectorAll(
    '.finished-list th, .finished-list td:nth-child(4), .finished-list td:nth-child(5)'
)].filter((cell) => cell.innerText.trim() && !cell.querySelector('.visually-hidden')).map((cell) => {
    const range = document.createRange();
    range.selectNodeContents(cell);
    return [cell.innerText.trim(), new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size];
})"""


@pytest.mark.django_db(transaction=True)
def test_it_keeps_the_finished_lists_words_whole_on_a_phone(
    live_asgi_server, browser, alice, bob, without_broadcasts
):
    from accounts.models import User

    long_named = User.objects.create_user("averyveryverylongusernameforsure", password=None)
    with without_broadcasts():
        for seed in (3, 4):
            stored_game([alice, bob, long_named], seed=seed)
    for path in ("/games/finished/", "/games/recent/"):
        page, errors = open_page(browser, live_asgi_server, alice, path, viewport=(390, 844))
        cells = page.evaluate(LINES_OF_WORDS)
        screenshot(page, path=SHOTS / f"phone-{path.strip('/').replace('/', '-')}.png")

        assert len(cells) >= 6, cells  # the headers, the turns and the review links
        assert [text for text, lines in cells if lines > 1] == [], cells
        assert page.evaluate(SIDEWAYS) <= 0  # a table too wide scrolls in its own box
        assert errors == []
        page.context.close()
