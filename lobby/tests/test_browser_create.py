"""Creating a table in a real browser with JavaScript off: only the chosen pace's fields show."""

import pytest
from django.conf import settings
from django.test import Client
from playwright.sync_api import expect

from conftest import screenshot
from games.models import Game


@pytest.mark.django_db(transaction=True)
def test_it_shows_only_the_chosen_paces_fields_without_javascript(
    live_asgi_server, browser, screenshot_dir, alice
):
    client = Client()
    client.force_login(alice)
    context = browser.new_context(
        java_script_enabled=False, viewport={"width": 1000, "height": 900}
    )
    cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
    context.add_cookies(
        [{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": live_asgi_server}]
    )
    page = context.new_page()
    page.goto(live_asgi_server + "/tables/new/")
    live_time = page.get_by_label("Live: time per decision")
    days = page.get_by_label("Correspondence: time per move")
    reserve = page.get_by_label("Correspondence: reserve")
    level = page.get_by_label("Computer level")

    expect(live_time).to_be_visible()
    expect(days).to_be_hidden()
    expect(reserve).to_be_hidden()
    expect(level).to_be_hidden()

    page.get_by_label("Correspondence", exact=True).check()
    page.get_by_label("Fill the empty seats with computer players").check()

    expect(live_time).to_be_hidden()
    expect(days).to_be_visible()
    expect(reserve).to_be_visible()
    expect(level).to_be_visible()
    screenshot(page, path=screenshot_dir / "create-correspondence-no-js.png", full_page=True)

    page.get_by_role("button", name="Create the table").click()
    page.wait_for_url("**/games/*/")
    game = Game.objects.get()
    assert game.pace == Game.Pace.CORRESPONDENCE
    assert game.status == Game.Status.ACTIVE
    context.close()
