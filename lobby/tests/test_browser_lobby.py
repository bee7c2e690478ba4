"""The lobby in real browsers: a join and a start reach the other players over the socket."""

import re

import pytest
from playwright.sync_api import expect

from conftest import open_page, screenshot


def page_for(browser, server, user, path):
    return open_page(browser, server, user, path, viewport=(1000, 800))


@pytest.mark.django_db(transaction=True)
def test_it_seats_players_and_starts_the_game_live(
    live_asgi_server, browser, screenshot_dir, alice, bob, charlie
):
    alice_page, alice_errors = page_for(browser, live_asgi_server, alice, "/")
    alice_page.click("text=Create a table")
    alice_page.fill("#id_seat_count", "3")
    alice_page.click("text=Create the table")
    alice_page.wait_for_selector("#room >> text=1 of 3 seats taken")
    room_path = alice_page.url.removeprefix(live_asgi_server)

    bob_page, bob_errors = page_for(browser, live_asgi_server, bob, "/")
    bob_page.click("#open-tables >> text=Join")  # a plain form: the page moves to the room
    bob_page.wait_for_selector("#room >> text=2 of 3 seats taken")
    assert bob_page.url.endswith(room_path)

    # Alice's waiting room hears of bob over the socket, without reloading.
    alice_page.wait_for_selector("#room >> text=2 of 3 seats taken", timeout=10_000)
    assert alice_page.is_visible("#room >> text=bob")
    screenshot(alice_page, path=screenshot_dir / "waiting-room.png", full_page=True)

    # An invitation declined shows in the host's list without reloading either.
    alice_page.fill("#id_username", "charlie")
    alice_page.click("#invite >> text=Invite")
    alice_page.wait_for_selector("#invited >> text=Invited: charlie")
    charlie_page, charlie_errors = page_for(browser, live_asgi_server, charlie, "/")
    charlie_page.click("text=Decline")
    charlie_page.wait_for_selector("text=The invitation is declined.")
    alice_page.wait_for_selector("#invited >> text=charlie (declined)", timeout=10_000)
    assert charlie_errors == []
    charlie_page.context.close()

    alice_page.click("text=Start with 2 players")
    # Alice may be sent twice (her own post, then her socket): follow the URL
    # rather than one navigation.
    game_url = re.compile(r"/games/[a-z0-9]+/$")
    for page in (alice_page, bob_page):
        expect(page).to_have_url(game_url, timeout=10_000)
        page.wait_for_selector(".game-page", timeout=10_000)
    assert alice_errors == [] and bob_errors == []
    alice_page.context.close()
    bob_page.context.close()


@pytest.mark.django_db(transaction=True)
def test_it_lists_a_new_table_live(live_asgi_server, browser, alice, bob):
    bob_page, bob_errors = page_for(browser, live_asgi_server, bob, "/tables/")
    bob_page.wait_for_selector("text=No open tables right now")
    alice_page, alice_errors = page_for(browser, live_asgi_server, alice, "/tables/new/")

    alice_page.click("text=Create the table")

    bob_page.wait_for_selector("#open-tables >> text=Alice Liddell", timeout=10_000)
    assert bob_page.is_visible("#open-tables >> text=1 / 4")
    assert alice_errors == [] and bob_errors == []
    alice_page.context.close()
    bob_page.context.close()


@pytest.mark.django_db(transaction=True)
def test_it_adds_and_removes_rows_live(live_asgi_server, browser, screenshot_dir, alice, bob):
    from lobby.tests.conftest import open_table

    older = open_table(bob)
    bob_page, bob_errors = page_for(browser, live_asgi_server, bob, "/tables/")
    bob_page.wait_for_selector(f"#table-{older.code}")
    alice_page, alice_errors = page_for(browser, live_asgi_server, alice, "/tables/new/")
    alice_page.on("dialog", lambda dialog: dialog.accept())

    alice_page.click("text=Create the table")
    alice_page.wait_for_selector("#room")
    code = alice_page.url.rstrip("/").split("/")[-1]

    # The new row comes alone, above bob's own, with a working Join form.
    bob_page.wait_for_selector(f"#table-{code}", timeout=10_000)
    rows = bob_page.locator("#open-tables-rows > tr")
    expect(rows).to_have_count(2)
    expect(rows.nth(0)).to_contain_text("Alice Liddell")
    expect(rows.nth(1)).to_contain_text("Your table")
    screenshot(bob_page, path=screenshot_dir / "tables-live-row.png", full_page=True)

    alice_page.click("text=Cancel the table")
    expect(bob_page.locator(f"#table-{code}")).to_have_count(0, timeout=10_000)
    expect(rows).to_have_count(1)

    alice_page.goto(live_asgi_server + "/tables/new/")
    alice_page.click("text=Create the table")
    alice_page.wait_for_selector("#room")
    expect(rows).to_have_count(2, timeout=10_000)
    bob_page.click("#open-tables-rows > tr:first-child >> text=Join")
    bob_page.wait_for_selector("#room >> text=2 of 4 seats taken")
    assert alice_errors == [] and bob_errors == []
    alice_page.context.close()
    bob_page.context.close()
