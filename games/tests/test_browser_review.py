"""The review in a real browser: the keys and autoplay step through a finished game."""

import pytest
from playwright.sync_api import expect

from conftest import open_page, screenshot
from games.tests.review_helpers import stored_game, verdicts_at

# Set before the page's scripts: counts the intervals review.js has running (autoplay's).
AUTOPLAY_INTERVALS = """
(() => {
  const running = new Set();
  const setInterval_ = window.setInterval;
  const clearInterval_ = window.clearInterval;
  window.setInterval = function (...args) {
    const id = setInterval_(...args);
    if (String(new Error().stack).includes("/js/review.js")) running.add(id);
    return id;
  };
  window.clearInterval = function (id) {
    running.delete(id);
    return clearInterval_(id);
  };
  window.autoplayIntervals = () => running.size;
})();
"""

# Paused and still: the button offers to play again (review.js's stop() clears the interval and
# then says so), and no step is on its way (htmx swaps a response in before it takes the
# htmx-request class away).
PAUSED = """() => {
  const button = document.querySelector(".js-autoplay");
  return button.textContent === button.dataset.play && !document.querySelector(".htmx-request");
}"""


def shown_move(page):
    return int(page.get_attribute("#review-position", "data-move"))


@pytest.mark.django_db(transaction=True)
def test_it_steps_through_a_finished_game_with_the_keys_and_autoplay(
    live_asgi_server, browser, screenshot_dir, alice, bob
):
    game = stored_game([alice, bob], seed=9)
    total = game.moves.count()
    page, errors = open_page(
        browser,
        live_asgi_server,
        alice,
        f"/games/{game.code}/review/?move=10",
        init_script=AUTOPLAY_INTERVALS,
    )
    page.wait_for_selector('#review-position[data-move="10"]')
    board = page.inner_html("#board")

    page.keyboard.press("ArrowRight")
    page.wait_for_selector('#review-position[data-move="11"]')
    expect(page).to_have_url(f"{live_asgi_server}/games/{game.code}/review/?move=11")
    assert page.inner_html("#board") != board
    assert page.get_attribute(".move-list li.current", "data-move") == "11"

    page.keyboard.press("ArrowLeft")
    page.wait_for_selector('#review-position[data-move="10"]')
    assert page.inner_html("#board") == board
    expect(page).to_have_url(f"{live_asgi_server}/games/{game.code}/review/?move=10")

    page.keyboard.press("End")
    page.wait_for_selector(f'#review-position[data-move="{total}"]')
    expect(page).to_have_url(f"{live_asgi_server}/games/{game.code}/review/?move={total}")
    assert page.locator(".player .tag.win").count() == (1 if game.winner_id else 0)
    screenshot(page, path=screenshot_dir / "review-end.png", full_page=True)

    page.keyboard.press("Home")
    page.wait_for_selector('#review-position[data-move="0"]')
    page.select_option(".js-speed", "400")
    page.click(".js-autoplay")
    page.wait_for_function(
        "() => Number(document.getElementById('review-position').dataset.move) >= 3",
        timeout=10_000,
    )
    assert page.evaluate("window.autoplayIntervals()") == 1
    page.click(".js-autoplay")  # pause
    paused = shown_move(page)
    page.wait_for_function(PAUSED, timeout=10_000)
    assert page.evaluate("window.autoplayIntervals()") == 0  # nothing steps on
    assert shown_move(page) in (paused, paused + 1)  # at most the request in flight lands
    assert errors == []
    page.context.close()


@pytest.mark.django_db(transaction=True)
def test_the_links_to_each_players_view_follow_the_steps(live_asgi_server, browser, alice, bob):
    game = stored_game([alice, bob], seed=9)
    page, errors = open_page(
        browser, live_asgi_server, alice, f"/games/{game.code}/review/?move=10"
    )
    page.wait_for_selector('#review-position[data-move="10"]')

    page.click("a[data-nav=next]")
    page.wait_for_selector('#review-position[data-move="11"]')

    expect(page).to_have_url(f"{live_asgi_server}/games/{game.code}/review/?move=11")
    views = page.locator("#review-perspectives a")
    expect(views.nth(1)).to_have_attribute("href", f"/games/{game.code}/review/?move=11&as=0")
    views.nth(1).click()
    page.wait_for_selector('#review-position[data-move="11"]')
    expect(page).to_have_url(f"{live_asgi_server}/games/{game.code}/review/?move=11&as=0")
    assert errors == []
    page.context.close()


@pytest.fixture
def short_pages(monkeypatch):
    """Pages of 20 moves in the move list; set before the live server forks, which keeps it."""
    from games.table import log

    monkeypatch.setattr(log, "MOVES_PER_PAGE", 20)


@pytest.mark.django_db(transaction=True)
def test_the_move_list_follows_a_step_onto_another_page(
    short_pages, live_asgi_server, browser, screenshot_dir, alice, bob
):
    game = stored_game([alice, bob], seed=9)
    assert game.moves.count() > 41
    page, errors = open_page(
        browser, live_asgi_server, alice, f"/games/{game.code}/review/?move=20"
    )
    page.wait_for_selector('#review-position[data-move="20"]')
    assert page.get_attribute("#review-move-list", "data-first") == "1"

    page.keyboard.press("ArrowRight")
    page.wait_for_selector('#review-move-list[data-first="21"]')
    assert page.get_attribute(".move-list li.current", "data-move") == "21"
    assert page.locator(".move-list li").count() == 20
    expect(page.locator(".move-pages")).to_contain_text("Moves 21 to 40 of")
    screenshot(page, path=screenshot_dir / "review-second-page.png", full_page=True)

    page.keyboard.press("ArrowLeft")
    page.wait_for_selector('#review-move-list[data-first="1"]')
    assert page.get_attribute(".move-list li.current", "data-move") == "20"

    page.focus(".move-pages a[data-page='later']")
    page.keyboard.press("Enter")
    page.wait_for_selector('#review-position[data-move="21"]')
    page.wait_for_selector('#review-move-list[data-first="21"]')
    expect(page).to_have_url(f"{live_asgi_server}/games/{game.code}/review/?move=21")
    # The link used was replaced with its page: the focus is on the new page's own.
    expect(page.locator(".move-pages a[data-page='later']")).to_be_focused()
    page.keyboard.press("Enter")
    page.wait_for_selector('#review-move-list[data-first="41"]')
    expect(page.locator(".move-pages a[data-page='later']")).to_be_focused()
    page.keyboard.press("Enter")  # onto the last page, which has no later one
    page.wait_for_selector('#review-move-list[data-first="61"]')
    expect(page.locator(".move-list li.current a")).to_be_focused()
    assert errors == []
    page.context.close()


@pytest.mark.django_db(transaction=True)
def test_the_open_decisions_table_stays_open_on_another_page(
    short_pages, live_asgi_server, browser, alice, bob
):
    from games.models import Analysis

    game = stored_game([alice, bob], seed=9)
    verdicts = verdicts_at(game, (5, 25))
    Analysis.objects.create(game=game, status=Analysis.Status.DONE, verdicts=verdicts)
    page, errors = open_page(
        browser, live_asgi_server, alice, f"/games/{game.code}/review/?move=20"
    )
    page.click("#review-decisions summary")
    expect(page.locator("#review-decisions details")).to_have_attribute("open", "")

    page.keyboard.press("ArrowRight")
    page.wait_for_selector('#review-move-list[data-first="21"]')

    expect(page.locator("#review-decisions summary")).to_contain_text("moves 21 to 40")
    expect(page.locator("#review-decisions details")).to_have_attribute("open", "")
    expect(page.locator("#review-decisions table a")).to_have_text(["25"])
    assert errors == []
    page.context.close()


@pytest.mark.django_db(transaction=True)
def test_the_current_move_is_whole_in_the_list_in_chinese(live_asgi_server, browser, alice, bob):
    # Chinese text laid out with its font makes the moves taller after the first scroll:
    # the last move was left cut off at the list's foot.
    alice.language = "zh-hans"
    alice.save()
    game = stored_game([alice, bob], seed=9)
    page, errors = open_page(
        browser, live_asgi_server, alice, f"/games/{game.code}/review/", viewport=(390, 900)
    )
    page.wait_for_load_state("load")
    page.wait_for_selector(".move-list li.current")

    below = page.evaluate(
        "() => { const list = document.querySelector('.move-list');"
        " const item = list.querySelector('li.current');"
        " return item.getBoundingClientRect().bottom - list.getBoundingClientRect().bottom; }"
    )

    assert below <= 1
    assert errors == []
    page.context.close()
