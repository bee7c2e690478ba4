"""A correspondence game asks a target with no Just Say No to accept, until a standing answer does.

bob plays Sly Deal on alice's Red property; alice holds no Just Say No, yet her
page asks her ("Accept") as it would ask anyone: the game waits for her. She
then switches on "accept at once" for this game on the table, and bob's next
Sly Deal goes through without waiting, told in the log as a standing answer.
"""

import pytest
from playwright.sync_api import expect

from conftest import screenshot
from games.models import Game, Move, Seat
from games.tests.helpers import set_position
from games.tests.test_browser_cards import open_table

PHONE = (390, 844)


@pytest.fixture
def correspondence_game(alice, bob, without_broadcasts):
    with without_broadcasts():
        game = Game.objects.create(host=alice, seat_count=2, pace=Game.Pace.CORRESPONDENCE)
        Seat.objects.create(game=game, user=alice, position=0)
        Seat.objects.create(game=game, user=bob, position=1)
        return game.start()


def wait_for_version(page, version):
    page.wait_for_selector(f'#board[data-version="{version}"]', timeout=10_000)


def shoot(page, path):
    screenshot(page, path=path, full_page=True)
    page.set_viewport_size({"width": PHONE[0], "height": PHONE[1]})
    screenshot(page, path=str(path).replace(".png", "-phone.png"), full_page=True)
    page.set_viewport_size({"width": 1100, "height": 900})


@pytest.mark.django_db(transaction=True)
def test_it_asks_a_target_without_a_jsn_then_answers_for_her_once_she_chooses(
    live_asgi_server, browser, screenshot_dir, alice, bob, correspondence_game
):
    game = correspondence_game
    state = set_position(
        game,
        """
        turn: bob
        plays: 3
        bob hand: sly_deal sly_deal 1M
        alice hand: 1M green
        alice table: red: red; yellow: yellow
        """,
    )
    first, second = (c for c in state.players[1].hand if state.deck[c].id == "sly_deal")
    alice_page, alice_errors = open_table(browser, live_asgi_server, alice, game)
    bob_page, bob_errors = open_table(browser, live_asgi_server, bob, game)

    bob_page.click(f'details[data-card-menu="{first}"] > summary')
    bob_page.click(f'details[data-card-menu="{first}"] .menu >> text=/Take Red/')
    wait_for_version(alice_page, 2)
    answer = alice_page.locator("#hand .answer")
    expect(answer).to_contain_text("bob takes Red property from alice")
    expect(answer.locator("button.move-accept")).to_have_text("Accept")
    expect(answer.locator("button.move-just_say_no")).to_have_count(0)
    expect(bob_page.locator("#status")).to_contain_text("alice must answer")
    shoot(alice_page, screenshot_dir / "standing-accept-prompt.png")

    answer.locator("button.move-accept").click()
    wait_for_version(alice_page, 3)
    wait_for_version(bob_page, 3)
    assert list(game.moves.values_list("seat", "cause")) == [(1, ""), (0, "")]

    alice_page.click("#standing-answers > summary")
    alice_page.select_option("#id_accept_without_jsn", "on")
    shoot(alice_page, screenshot_dir / "standing-table-controls.png")
    alice_page.click("#standing-answers >> text=Save for this game")
    expect(alice_page.locator("#flash, .messages").first).to_be_attached()
    expect(alice_page.locator("#id_accept_without_jsn")).to_have_value("on")
    alice_page.wait_for_function("() => window.boardsReceived > 0", timeout=10_000)

    bob_page.click(f'details[data-card-menu="{second}"] > summary')
    bob_page.click(f'details[data-card-menu="{second}"] .menu >> text=/Take Yellow/')
    for page in (alice_page, bob_page):
        wait_for_version(page, 5)  # the Sly Deal and alice's standing answer, in one broadcast
        expect(page.locator("#log")).to_contain_text("(standing answer)")
    expect(alice_page.locator("#hand .answer")).to_have_count(0)
    moves = list(game.moves.values_list("seat", "cause"))
    assert moves[2:] == [(1, ""), (0, Move.Cause.STANDING)]
    shoot(bob_page, screenshot_dir / "standing-answered.png")

    assert alice_errors == [] and bob_errors == []
    alice_page.context.close()
    bob_page.context.close()
