"""Everyone pays at once, in real browsers: what one target ticked survives another's payment."""

import pytest
from django.contrib.auth import get_user_model

from conftest import open_live_table, screenshot
from games.models import Game, Seat
from games.rules.position import card_in
from games.tests.helpers import set_position

# Row locks and transactions differ between the databases: answers at once run on both.
pytestmark = pytest.mark.every_database

RENT = """
players: alice bob charlie dave
turn: alice
plays: 3
alice hand: rent:red/yellow 1M
alice table: red: red
bob hand: just_say_no 1M
bob bank: 2M 5M
charlie hand: just_say_no 1M
charlie bank: 2M 3M
dave hand: just_say_no 1M
dave bank: 2M 4M
"""


@pytest.fixture
def four_game(alice, bob, charlie, without_broadcasts):
    dave = get_user_model().objects.create_user("dave", "dave@example.com", "x")
    with without_broadcasts():
        game = Game.objects.create(host=alice, seat_count=4)
        for position, user in enumerate((alice, bob, charlie, dave)):
            Seat.objects.create(game=game, user=user, position=position)
        return game.start()


def pay_box(page, card):
    return page.locator(f'form.pay-form input[name="cards"][value="{card}"]')


@pytest.mark.django_db(transaction=True)
def test_a_targets_ticks_stay_when_another_target_pays_and_then_apply(
    live_asgi_server, browser, screenshot_dir, alice, bob, charlie, four_game
):
    state = set_position(four_game, RENT)
    rent = card_in(state, "alice", "hand", "rent:red/yellow")
    bob_two, charlie_two = (card_in(state, name, "bank", "2M") for name in ("bob", "charlie"))
    pages = {}
    errors = {}
    for name, user in (("alice", alice), ("bob", bob), ("charlie", charlie)):
        pages[name], errors[name] = open_live_table(browser, live_asgi_server, user, four_game)

    pages["alice"].click(f'details[data-card-menu="{rent}"] > summary')
    pages["alice"].click("text=Charge everyone 2M red rent")
    for name in ("bob", "charlie"):
        pages[name].wait_for_selector("form.pay-form", timeout=10_000)

    bob_page = pages["bob"]
    pay_box(bob_page, bob_two).check(force=True)  # ticked, not yet paid
    assert bob_page.inner_text("form.pay-form .js-chosen") == "2"

    pay_box(pages["charlie"], charlie_two).check(force=True)
    pages["charlie"].click("form.pay-form button[type=submit]")
    bob_page.wait_for_selector("#log >> text=charlie paid alice 2M", timeout=10_000)

    # Bob's prompt was not drawn again: his tick and the running total are as he left them.
    assert pay_box(bob_page, bob_two).is_checked()
    assert bob_page.inner_text("form.pay-form .js-chosen") == "2"
    assert bob_page.inner_text("form.pay-form .js-owed") == "0"
    screenshot(bob_page, path=screenshot_dir / "answers-at-once-ticked.png", full_page=True)

    bob_page.click("form.pay-form button[type=submit]")
    bob_page.wait_for_selector("#log >> text=bob paid alice 2M", timeout=10_000)
    assert "The board has changed" not in bob_page.inner_text("#flash")
    paid = four_game.moves.filter(move__kind="accept").values_list("seat", "move__cards")
    assert sorted(paid) == [(1, [bob_two]), (2, [charlie_two])]
    assert all(found == [] for found in errors.values()), errors
    for page in pages.values():
        page.context.close()
