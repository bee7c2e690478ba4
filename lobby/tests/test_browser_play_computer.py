"""A signed-in player clicks Play the computer on the home page and is at a table in play."""

import re

import pytest
from playwright.sync_api import expect

from conftest import open_page, screenshot
from games.models import Game


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("width, height", [(1100, 900), (390, 844)])
def test_it_takes_a_player_from_the_home_page_to_a_game_against_the_computer(
    live_asgi_server, browser, screenshot_dir, alice, width, height
):
    page, errors = open_page(browser, live_asgi_server, alice, "/", viewport=(width, height))
    screenshot(page, path=screenshot_dir / f"home-signed-in-{width}.png", full_page=True)
    computer = page.locator("#play-computer")

    computer.locator("label.chip", has_text="Strong").click()
    computer.locator("label.chip", has_text=re.compile(r"^3$")).click()
    computer.locator("label.chip", has_text="120 seconds").click()
    computer.get_by_role("button", name="Play the computer").click()

    expect(page).to_have_url(re.compile(r"/games/[a-z0-9]+/$"), timeout=10_000)
    page.wait_for_selector("#board", timeout=10_000)
    game = Game.objects.get()
    assert page.url.endswith(game.get_absolute_url())
    assert game.status == Game.Status.ACTIVE and game.pace_seconds == 120
    assert sorted(seat.user.bot_level for seat in game.seats.select_related("user")) == [
        "",
        "strong",
        "strong",
    ]
    expect(page.locator("#hand")).to_be_visible()
    screenshot(page, path=screenshot_dir / f"play-computer-table-{width}.png", full_page=True)
    assert errors == []
    page.context.close()
