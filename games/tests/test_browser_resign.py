"""Leaving a game in a real browser: resign with the confirmation, then a rematch."""

import pytest

from conftest import open_page, screenshot
from games import rules
from games.models import Game, Seat
from games.play.bots import bot_account

PHONE = (390, 844)


@pytest.fixture
def bot_game(alice, without_broadcasts):
    """A started live game of alice against a basic computer player (no worker runs)."""
    with without_broadcasts():
        game = Game.objects.create(host=alice, seat_count=2)
        Seat.objects.create(game=game, user=alice, position=0)
        Seat.objects.create(game=game, user=bot_account("basic", 1), position=1)
        return game.start()


@pytest.mark.django_db(transaction=True)
def test_it_resigns_with_a_confirmation_and_plays_a_rematch(
    live_asgi_server, browser, screenshot_dir, alice, bot_game
):
    page, errors = open_page(browser, live_asgi_server, alice, f"/games/{bot_game.code}/")
    # The confirmation page (the control without JavaScript, or a link) at phone width.
    confirm, confirm_errors = open_page(
        browser, live_asgi_server, alice, f"/games/{bot_game.code}/resign/", viewport=PHONE
    )
    assert "Resign this game?" in confirm.inner_text("main")
    screenshot(confirm, path=screenshot_dir / "resign-page-phone.png", full_page=True)
    confirm.goto(f"{live_asgi_server}/games/{bot_game.code}/")
    screenshot(confirm, path=screenshot_dir / "resign-control-phone.png", full_page=True)
    assert confirm_errors == []
    confirm.context.close()

    assert page.is_visible("#table-hints")  # a first game: the hints are shown while it lasts
    page.click("#status details.resign > summary")
    page.wait_for_selector("#status .resign-form >> text=Yes, resign")
    screenshot(page, path=screenshot_dir / "resign-confirm.png", full_page=True)
    page.click("#status .resign-form button")

    page.wait_for_selector("#game-over", timeout=10_000)
    assert "Basic bot 1 won: alice resigned" in page.inner_text("#status")
    assert page.is_hidden("#table-hints")  # the game is over: no hints about playing cards
    assert page.url.endswith(f"/games/{bot_game.code}/")  # htmx: no page load
    page.wait_for_selector("#log >> text=alice resigned")
    screenshot(page, path=screenshot_dir / "resign-game-over.png", full_page=True)
    phone, phone_errors = open_page(
        browser, live_asgi_server, alice, f"/games/{bot_game.code}/", viewport=PHONE
    )
    phone.wait_for_selector("#game-over")
    screenshot(phone, path=screenshot_dir / "resign-game-over-phone.png", full_page=True)

    page.click("#game-over >> text=Rematch")

    page.wait_for_url(lambda url: bot_game.code not in url, timeout=10_000)
    rematch = Game.objects.get(pk=bot_game.pk).rematch
    assert page.url.endswith(f"/games/{rematch.code}/")
    page.wait_for_selector("#status details.resign")
    rematch.refresh_from_db()
    assert rematch.status == Game.Status.ACTIVE, "the computer player accepted at once"
    screenshot(page, path=screenshot_dir / "resign-rematch.png", full_page=True)
    # The old table, opened again, points to the rematch and stays where it is.
    phone.goto(f"{live_asgi_server}/games/{bot_game.code}/")
    phone.wait_for_selector("#game-over >> text=Go to the rematch")
    screenshot(phone, path=screenshot_dir / "resign-rematch-started-phone.png", full_page=True)
    assert phone.url.endswith(f"/games/{bot_game.code}/")
    assert errors == [] and phone_errors == []
    page.context.close()
    phone.context.close()


@pytest.mark.django_db(transaction=True)
def test_it_follows_the_player_who_asked_to_the_rematch_when_it_starts(
    live_asgi_server, browser, screenshot_dir, alice, bob, without_broadcasts
):
    with without_broadcasts():
        game = Game.objects.create(host=alice, seat_count=2)
        Seat.objects.create(game=game, user=alice, position=0)
        Seat.objects.create(game=game, user=bob, position=1)
        game.start()
        game.play(1, rules.Move.resign())
    alice_page, alice_errors = open_page(browser, live_asgi_server, alice, f"/games/{game.code}/")
    bob_page, bob_errors = open_page(
        browser, live_asgi_server, bob, f"/games/{game.code}/", viewport=PHONE
    )
    alice_page.click("#game-over >> text=Rematch")
    bob_page.wait_for_selector("#game-over >> text=alice wants a rematch.", timeout=10_000)
    screenshot(bob_page, path=screenshot_dir / "rematch-offer-phone.png", full_page=True)
    alice_page.wait_for_selector("#game-over >> text=Waiting for: bob.")
    screenshot(alice_page, path=screenshot_dir / "rematch-waiting.png", full_page=True)

    bob_page.click("#game-over >> text=Accept the rematch")

    rematch = Game.objects.get(pk=game.pk).rematch
    for page in (bob_page, alice_page):  # bob by his answer, alice by her socket
        page.wait_for_url(f"**/games/{rematch.code}/", timeout=10_000)
    assert alice_errors == [] and bob_errors == []
    alice_page.context.close()
    bob_page.context.close()
