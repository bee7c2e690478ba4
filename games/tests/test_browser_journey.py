"""Two new people sign up in two browsers, meet at a table and play: every move shows up live."""

import pytest
from playwright.sync_api import expect

from conftest import screenshot
from games.models import Game
from games.rules.position import card_in
from games.tests.helpers import set_position
from games.tests.test_browser_table import open_table


def sign_up(browser, server, username):
    context = browser.new_context(viewport={"width": 1100, "height": 900})
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(server + "/")
    page.click("text=Sign up")
    page.fill("#id_username", username)
    page.fill("#id_email", f"{username}@example.com")
    page.fill("#id_password1", "a long pass phrase 42")
    page.fill("#id_password2", "a long pass phrase 42")
    page.click("text=Create account")
    expect(page.locator("header")).to_contain_text(username)
    return page, errors


def version_of(game):
    game.refresh_from_db()
    return game.version


def wait_for_version(pages, version):
    for page in pages:
        page.wait_for_selector(f'#board[data-version="{version}"]', timeout=10_000)


@pytest.mark.django_db(transaction=True)
def test_it_takes_two_new_players_from_sign_up_through_several_turns(
    live_asgi_server, browser, screenshot_dir
):
    alice, alice_errors = sign_up(browser, live_asgi_server, "alice")
    bob, bob_errors = sign_up(browser, live_asgi_server, "bob")

    alice.click("text=Create a table")
    alice.fill("#id_seat_count", "2")
    alice.click("text=Create the table")
    alice.wait_for_selector("#room >> text=1 of 2 seats taken")
    code = alice.url.rstrip("/").rsplit("/", 1)[1]

    bob.goto(live_asgi_server + "/tables/")
    bob.click("#open-tables >> text=Join")  # the table is full: it starts by itself
    for page in (alice, bob):
        expect(page).to_have_url(f"{live_asgi_server}/games/{code}/", timeout=10_000)
        page.wait_for_selector(".game-page")

    game = Game.objects.get(code=code)
    pages = {
        seat.user.username: (seat.position, page)
        for seat, page in zip(game.seats.select_related("user").order_by("position"), (alice, bob))
    }
    by_seat = {position: page for position, page in pages.values()}
    assert set(pages) == {"alice", "bob"} and set(by_seat) == {0, 1}

    # Three turns: each player ends the turn; the third must put cards back (9 in hand).
    for _turn in range(3):
        game.refresh_from_db()
        state = game.state()
        player, other = by_seat[state.current], by_seat[1 - state.current]
        version = version_of(game)
        player.click("#hand >> text=End turn")
        wait_for_version((player, other), version + 1)
        game.refresh_from_db()
        state = game.state()
        if state.phase == "discard":
            form = player.locator(".discard-form")
            boxes = form.locator("input[type=checkbox]")
            for i in range(len(state.players[state.current].hand) - 7):
                boxes.nth(i).check()
            form.locator("button[type=submit]").click()
            wait_for_version((player, other), version + 2)
        # Both pages moved on without a reload: the other player now has the turn.
        expect(other.locator("#status")).to_contain_text("Your turn", timeout=10_000)
        expect(player.locator("#status")).not_to_contain_text("Your turn")
    game.refresh_from_db()
    assert game.moves.count() == 4  # three ends of turn and one discard
    assert game.state().turns == 4
    screenshot(
        by_seat[game.state().current], path=screenshot_dir / "table-in-play.png", full_page=True
    )
    assert alice_errors == [] and bob_errors == []


@pytest.mark.django_db(transaction=True)
def test_it_plays_a_just_say_no_and_a_payment_through_the_pages(
    live_asgi_server, browser, screenshot_dir, alice, bob
):
    game = Game.objects.create(host=alice, seat_count=2)
    game.seats.create(user=alice, position=0)
    game.seats.create(user=bob, position=1)
    Game.objects.filter(pk=game.pk).update(status=Game.Status.ACTIVE, version=1)
    game.refresh_from_db()
    state = set_position(
        game,
        """
        alice hand: debt_collector just_say_no 1M
        bob hand: just_say_no
        bob bank: 3M 2M 1M
        """,
    )
    collector = card_in(state, "alice", "hand", "debt_collector")
    alice_page, alice_errors = open_table(browser, live_asgi_server, alice, game)
    bob_page, bob_errors = open_table(browser, live_asgi_server, bob, game)
    pages = (alice_page, bob_page)

    alice_page.click(f'details[data-card-menu="{collector}"] > summary')
    alice_page.click("text=Collect 5M from")
    wait_for_version(pages, 2)
    bob_page.click("#hand >> text=Just Say No!")
    wait_for_version(pages, 3)
    alice_page.click("#hand >> text=Just Say No!")  # alice cancels bob's cancellation
    wait_for_version(pages, 4)

    pay = bob_page.locator(".pay-form")
    for kind in ("3M", "2M"):
        card = card_in(state, "bob", "bank", kind)
        pay.locator(f'input[value="{card}"]').check()
    expect(pay.locator(".js-owed")).to_have_text("0")
    pay.locator("text=Pay 5M").click()
    wait_for_version(pages, 5)

    for page in pages:
        expect(page.locator("#log")).to_contain_text("paid", timeout=10_000)
    game.refresh_from_db()
    final = game.state()
    assert sorted(final.deck[c].id for c in final.players[0].bank) == ["2M", "3M"]
    assert [final.deck[c].id for c in final.players[1].bank] == ["1M"]
    assert final.phase == "play" and final.pending is None
    assert len([c for c in final.discard if final.deck[c].id == "just_say_no"]) == 2
    screenshot(alice_page, path=screenshot_dir / "table-after-payment.png", full_page=True)
    assert alice_errors == [] and bob_errors == []
