"""Vacation in a real browser: taken on "Your turn", seen by the opponent, ended at the table."""

import pytest

from accounts.models import Vacation
from conftest import open_page, screenshot
from games.models import Game, Seat

PHONE = (390, 844)


@pytest.fixture
def slow_game(alice, bob, without_broadcasts):
    """A started correspondence game of alice and bob."""
    with without_broadcasts():
        game = Game.objects.create(
            host=alice, seat_count=2, pace=Game.Pace.CORRESPONDENCE, pace_days=3, seed=7
        )
        Seat.objects.create(game=game, user=alice, position=0)
        Seat.objects.create(game=game, user=bob, position=1)
        return game.start()


@pytest.mark.django_db(transaction=True)
def test_it_takes_a_vacation_shows_it_to_the_opponent_and_ends_it(
    live_asgi_server, browser, screenshot_dir, alice, bob, slow_game
):
    table = f"/games/{slow_game.code}/"
    page, errors = open_page(browser, live_asgi_server, alice, "/turn/")
    screenshot(page, path=screenshot_dir / "vacation-your-turn.png", full_page=True)
    page.fill("#vacation-days", "3")
    page.click("#vacation >> text=Take vacation")

    page.wait_for_selector(".messages >> text=Your vacation has begun")
    assert "You are on vacation until" in page.inner_text("#vacation")
    # The message's end and the page's, both in the reader's time zone: one moment, one text.
    assert page.inner_text(".messages time") == page.inner_text("#vacation time")
    assert Vacation.objects.get(user=alice).days == 3
    screenshot(page, path=screenshot_dir / "vacation-your-turn-taken.png", full_page=True)
    phone, phone_errors = open_page(browser, live_asgi_server, alice, "/turn/", viewport=PHONE)
    screenshot(phone, path=screenshot_dir / "vacation-your-turn-taken-phone.png", full_page=True)

    for viewport, name in (((1100, 900), "opponent"), (PHONE, "opponent-phone")):
        other, other_errors = open_page(browser, live_asgi_server, bob, table, viewport=viewport)
        assert "On vacation until" in other.inner_text('.player[data-seat="0"]')
        screenshot(other, path=screenshot_dir / f"vacation-table-{name}.png", full_page=True)
        assert other_errors == []
        other.context.close()
    turn, turn_errors = open_page(browser, live_asgi_server, bob, "/turn/", viewport=PHONE)
    assert "alice is on vacation until" in turn.inner_text("main")
    screenshot(turn, path=screenshot_dir / "vacation-your-turn-opponent-phone.png", full_page=True)

    page.goto(live_asgi_server + table)
    screenshot(page, path=screenshot_dir / "vacation-table-mine.png", full_page=True)
    page.click("#status >> text=End my vacation now")
    page.wait_for_selector(".messages >> text=Your vacation has ended")
    assert page.url.endswith(table)
    assert Vacation.objects.get(user=alice).days == 1

    settings_page, settings_errors = open_page(
        browser, live_asgi_server, alice, "/accounts/settings/", viewport=PHONE
    )
    assert "1 used of 30, 29 left" in settings_page.inner_text("#vacation")
    settings_page.locator("#vacation").scroll_into_view_if_needed()
    screenshot(settings_page, path=screenshot_dir / "vacation-settings-phone.png", full_page=True)
    assert errors == [] and phone_errors == [] and turn_errors == [] and settings_errors == []
    for opened in (page, phone, turn, settings_page):
        opened.context.close()
