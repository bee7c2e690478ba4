"""The analysis in a real browser: the chart's points lead to moves, progress turns into the chart."""

from pathlib import Path

import pytest

from conftest import open_page, screenshot
from games.history.analysis import Analysis, analyse_next
from games.tests.review_helpers import stored_game

SHOTS = Path("/tmp/shots-analysis")


@pytest.fixture(autouse=True)
def small_budget(settings):
    settings.ANALYSIS_SECONDS_PER_DECISION = 0.002
    settings.ANALYSIS_SECONDS_PER_GAME = 60  # a bound no test game reaches (a busy machine)


def analyse_all():
    while analyse_next(worker="test", seconds=1):
        pass


@pytest.mark.django_db(transaction=True)
def test_it_steps_to_a_move_from_the_chart_and_shows_the_analysis_when_it_ends(
    live_asgi_server, browser, alice, bob, monkeypatch
):
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    SHOTS.mkdir(exist_ok=True)
    game = stored_game([alice, bob], seed=3)
    page, errors = open_page(browser, live_asgi_server, alice, f"/games/{game.code}/review/")
    page.click("text=Request analysis")
    page.wait_for_selector("#review-analysis[hx-trigger]")
    screenshot(page, path=SHOTS / "review-queued-desktop.png")
    analyse_all()
    # The poll sees the end and loads the page again, now with the chart.
    page.wait_for_selector(".win-chart svg", timeout=30_000)
    assert page.locator(".move-list .move-mark").count() == len(
        [v for v in Analysis.objects.get(game=game).verdicts.values() if v["mark"]]
    )
    screenshot(page, path=SHOTS / "review-analysis-desktop.png", full_page=True)

    point = page.locator(".win-chart a.point").nth(3)
    target = point.get_attribute("href").split("move=")[1]
    # Points of close moves overlap (where depends on the analysis's figures): go by keyboard.
    point.focus()
    page.keyboard.press("Enter")
    page.wait_for_selector(f'#review-position[data-move="{target}"]')
    assert page.locator(".win-chart a.point.current").count() == 1
    assert page.locator(".review-verdict").count() == 1
    assert errors == []
    page.context.close()

    phone, errors = open_page(
        browser,
        live_asgi_server,
        bob,
        f"/games/{game.code}/review/?move={target}",
        viewport=(390, 844),
    )
    phone.wait_for_selector(".win-chart svg")
    screenshot(phone, path=SHOTS / "review-analysis-phone.png")
    screenshot(phone.locator(".review-summary"), path=SHOTS / "review-summary-phone.png")
    phone.click("text=Every judged decision, in words")
    screenshot(phone.locator(".analysis-details"), path=SHOTS / "review-details-phone.png")
    assert errors == []
    phone.context.close()
