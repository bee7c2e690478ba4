"""The table and the review with the keyboard alone, and told in live regions (issue 18)."""

import time
from datetime import timedelta
from pathlib import Path

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from conftest import COUNT_BOARDS, open_live_table, open_page, screenshot
from games import rules
from games.models import Game, Seat
from games.play import bots
from games.play.bots import fill_with_bots, play_bot_moves
from games.rules.position import card_in
from games.tests.helpers import set_position
from games.tests.review_helpers import stored_game

SHOTS = Path("/tmp/shots-a11y")


@pytest.fixture
def quick_socket_checks(settings):
    """Let the server's sockets catch up within a moment with moves made in the test's process.

    The test's moves (the computer's) broadcast on the test's own in-memory channel
    layer, which the forked server does not share: its sockets' checks find them.
    Requested before live_asgi_server, whose process inherits the setting.
    """
    settings.GAME_SOCKET_CHECK_SECONDS = 0.3


def focused(page):
    """Describe the element that has the focus: its tag, class and text."""
    return page.evaluate(
        """() => {
            const a = document.activeElement;
            return a ? (a.tagName + "." + a.className + " " + a.textContent.trim()).slice(0, 120) : "";
        }"""
    )


def wait_for_version(page, version):
    page.wait_for_selector(f'#board[data-version="{version}"]', timeout=10_000)


def announced(page):
    return page.inner_text("#announcer")


def no_body_focus(page):
    page.wait_for_function(
        "() => document.activeElement && document.activeElement !== document.body", timeout=5_000
    )


@pytest.mark.django_db(transaction=True)
def test_it_walks_the_hand_and_its_menus_with_the_keyboard(
    quick_socket_checks, live_asgi_server, browser, alice, without_broadcasts
):
    SHOTS.mkdir(exist_ok=True)
    with without_broadcasts():
        game = Game.objects.create(host=alice, seat_count=2)
        Seat.objects.create(game=game, user=alice, position=0)
        fill_with_bots(game, "basic")
        game.refresh_from_db()
        assert game.status == Game.Status.ACTIVE
        bot = game.seats.get(position=1).user
        state = set_position(
            game,
            f"""
            players: alice {bot.username}
            turn: alice
            plays: 3
            alice hand: 5M red green
            alice table: brown: brown brown; dark_blue: dark_blue dark_blue; green: green green
            {bot.username} hand: 1M 2M
            draw: 1M 2M 3M 4M 1M 2M
            """,
        )
        game.refresh_from_db()
    five = card_in(state, "alice", "hand", "5M")
    green = card_in(state, "alice", "hand", "green")
    page, errors = open_live_table(browser, live_asgi_server, alice, game)
    page.wait_for_selector("#announcer", state="attached")
    # The socket's first message redraws the hand: a key press before it may go to a card
    # about to be replaced (the first move failed so, once in a loaded full run).
    page.wait_for_function("() => window.wholeBoards > 0", timeout=30_000)
    start = game.version

    # The first card of the hand: its menu opens with Enter, the arrows move in it.
    page.keyboard.press("1")
    assert page.evaluate("() => document.activeElement.matches('#hand summary')")
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.activeElement.matches('#hand .menu button')")
    menu = page.locator(f'#hand details[data-card-menu="{five}"]')
    expect(menu).to_have_attribute("open", "")
    assert "Bank it (5M)" in focused(page)
    page.keyboard.press("Escape")
    expect(menu).not_to_have_attribute("open", "")
    assert page.evaluate(
        "id => document.activeElement === document.querySelector("
        "`#hand details[data-card-menu='${id}'] > summary`)",
        five,
    )
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.activeElement.matches('#hand .menu button')")
    page.keyboard.press("Enter")  # "Bank it (5M)"
    wait_for_version(page, start + 1)
    expect(page.locator("#announcer")).to_contain_text("alice banked 5M")
    no_body_focus(page)

    # The arrows walk the hand; L lays the red card that has the focus.
    page.keyboard.press("Home")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowLeft")
    assert "Red property" in focused(page)
    page.keyboard.press("l")
    wait_for_version(page, start + 2)
    expect(page.locator("#announcer")).to_contain_text("alice")
    no_body_focus(page)
    screenshot(page, path=SHOTS / "keyboard-turn-1100.png", full_page=True)

    page.keyboard.press("e")
    wait_for_version(page, start + 3)
    no_body_focus(page)

    # The computer plays its turn; its moves reach the page over the socket.
    later = timezone.now() + timedelta(seconds=5)
    for _ in range(20):
        game.refresh_from_db()
        if game.state().current == 0:
            break
        play_bot_moves(now=later)
        later += timedelta(seconds=5)
    game.refresh_from_db()
    assert game.state().current == 0
    wait_for_version(page, game.version)
    expect(page.locator("#announcer")).to_contain_text(bot.name)

    # Back to alice: the green card completes her third set.
    place = page.evaluate(
        """id => Array.from(document.querySelectorAll('#hand .hand > li'))
            .findIndex(li => li.querySelector(`[data-card-menu='${id}']`))""",
        green,
    )
    assert 0 <= place < 9
    page.keyboard.press(str(place + 1))
    page.keyboard.press("l")
    page.wait_for_selector("#status .result", timeout=10_000)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert game.winner_id == alice.id
    expect(page.locator("#announcer")).to_contain_text("alice")
    no_body_focus(page)
    screenshot(page, path=SHOTS / "keyboard-won-1100.png", full_page=True)
    assert errors == []
    page.context.close()


@pytest.mark.django_db(transaction=True)
def test_it_makes_a_forced_deal_in_two_steps_with_the_keyboard(
    live_asgi_server, browser, alice, started_game
):
    game = started_game
    state = set_position(
        game,
        """
        turn: alice
        plays: 3
        alice hand: forced_deal 1M
        alice table: railroad: railroad; utility: utility
        bob table: red: red; green: green
        """,
    )
    forced_deal = card_in(state, "alice", "hand", "forced_deal")
    utility = card_in(state, "alice", "table", "utility")
    green = card_in(state, "bob", "table", "green")
    start = game.version
    page, errors = open_live_table(browser, live_asgi_server, alice, game)
    step = "#hand .menu-step:has(> summary:focus)"

    # The menu lists the cards to take; Enter on one opens what to give for it.
    go_to_card(page, forced_deal)
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.activeElement.matches('#hand .menu button')")
    assert "Bank it (3M)" in focused(page)
    page.keyboard.press("ArrowDown")
    assert "Take bob's Red property" in focused(page)
    page.keyboard.press("ArrowDown")
    assert "Take bob's Green property" in focused(page)
    page.keyboard.press("Enter")
    expect(page.locator(step)).to_have_attribute("open", "")
    page.keyboard.press("ArrowDown")
    assert "Give your Railroad property for it" in focused(page)
    screenshot(page, path=SHOTS / "forced-deal-steps-1100.png", full_page=True)

    # Escape goes back to the first step, closed, and the menu stays open.
    page.keyboard.press("Escape")
    assert "Take bob's Green property" in focused(page)
    expect(page.locator(step)).not_to_have_attribute("open", "")
    expect(page.locator(f'#hand details[data-card-menu="{forced_deal}"]')).to_have_attribute(
        "open", ""
    )
    page.keyboard.press("Enter")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    assert "Give your Utility property for it" in focused(page)
    page.keyboard.press("Enter")
    # bob has no Just Say No: the swap is made at once.
    expect(page.locator("#announcer")).to_contain_text(
        "alice swapped Utility property for bob's Green property"
    )
    game.refresh_from_db()
    assert game.version == start + 2
    players = game.state().players
    assert green in [c for s in players[0].sets for c in s.cards]
    assert utility in [c for s in players[1].sets for c in s.cards]
    assert errors == []
    page.context.close()


@pytest.mark.django_db(transaction=True)
def test_it_announces_a_move_that_arrives_over_the_socket(
    live_asgi_server, browser, alice, bob, started_game
):
    game = started_game
    state = set_position(game, "alice hand: 5M red")
    five = card_in(state, "alice", "hand", "5M")
    alice_page, alice_errors = open_live_table(browser, live_asgi_server, alice, game)
    bob_page, bob_errors = open_live_table(browser, live_asgi_server, bob, game)
    assert announced(bob_page) == ""  # the moves before the page opened are not read out

    alice_page.keyboard.press("1")
    alice_page.keyboard.press("b")
    bob_page.wait_for_selector("#log >> text=alice banked 5M", timeout=10_000)
    expect(bob_page.locator("#announcer")).to_have_text("alice banked 5M")
    expect(alice_page.locator("#announcer")).to_have_text("alice banked 5M")
    assert bob_page.locator("#announcer").get_attribute("aria-live") == "polite"
    assert not alice_page.locator(f'#hand [data-card="{five}"]').count()
    assert alice_errors == [] and bob_errors == []
    alice_page.context.close()
    bob_page.context.close()


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("width", [1100, 390, 320])
def test_it_lists_the_shortcuts_and_fits_narrow_screens(
    live_asgi_server, browser, alice, bob, started_game, width
):
    SHOTS.mkdir(exist_ok=True)
    game = started_game
    set_position(
        game,
        """
        alice hand: 5M red/yellow sly_deal rent:pink/orange any
        alice table: light_blue: light_blue light_blue; utility: utility; yellow: yellow
        bob table: orange: orange pink/orange; green: green; railroad: railroad
        """,
    )
    page, errors = open_live_table(browser, live_asgi_server, alice, game, viewport=(width, 844))
    overflow = page.evaluate(
        "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )
    assert overflow <= 0, f"{overflow}px of horizontal scrolling at {width}px"
    screenshot(page, path=SHOTS / f"table-{width}.png", full_page=True)

    page.keyboard.press("?")
    dialog = page.locator("#shortcuts")
    expect(dialog).to_be_visible()
    assert "End your turn" in dialog.inner_text()
    screenshot(page, path=SHOTS / f"shortcuts-{width}.png")
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    assert errors == []
    page.context.close()


@pytest.mark.django_db(transaction=True)
def test_it_announces_the_prompt_that_waits_for_me_and_pays_with_the_keyboard(
    live_asgi_server, browser, alice, bob, started_game
):
    game = started_game
    state = set_position(
        game,
        """
        turn: bob
        bob hand: debt_collector 1M
        alice hand: 1M red
        alice bank: 5M 2M
        """,
    )
    five = card_in(state, "alice", "bank", "5M")
    alice_page, alice_errors = open_live_table(browser, live_asgi_server, alice, game)
    bob_page, bob_errors = open_live_table(browser, live_asgi_server, bob, game)
    alice_page.keyboard.press("1")  # alice looks at her hand meanwhile
    assert "1M" in focused(alice_page)

    bob_page.keyboard.press("1")
    bob_page.keyboard.press("p")  # a single way to play it: at once
    alice_page.wait_for_selector("#prompt", timeout=10_000)
    expect(alice_page.locator("#announcer")).to_contain_text("bob played Debt Collector on alice")
    expect(alice_page.locator("#announcer")).to_contain_text("You owe 5M")
    alice_page.wait_for_function("() => document.activeElement.id === 'prompt'")
    screenshot(alice_page, path=SHOTS / "prompt-focused-1100.png", full_page=True)

    alice_page.keyboard.press("Tab")
    while alice_page.evaluate("() => document.activeElement.value") != str(five):
        alice_page.keyboard.press("Tab")
    alice_page.keyboard.press("Space")
    expect(alice_page.locator("#prompt .js-owed")).to_have_text("0")
    alice_page.keyboard.press("a")
    expect(alice_page.locator("#announcer")).to_contain_text("alice paid", timeout=10_000)
    expect(bob_page.locator("#announcer")).to_contain_text("alice paid", timeout=10_000)
    assert alice_page.locator("#prompt").count() == 0
    no_body_focus(alice_page)
    assert alice_errors == [] and bob_errors == []
    alice_page.context.close()
    bob_page.context.close()


def go_to_card(page, card):
    """Put the focus on `card` of the hand with its number key."""
    place = page.evaluate(
        """id => Array.from(document.querySelectorAll('#hand .hand > li'))
            .findIndex(li => li.querySelector(`[data-card-menu='${id}']`))""",
        card,
    )
    assert 0 <= place < 9, f"card {card} is not among the first 9 of the hand"
    page.keyboard.press(str(place + 1))


def wait_for_prompt_focus(page):
    page.wait_for_function("() => document.activeElement.id === 'prompt'", timeout=10_000)


@pytest.mark.django_db(transaction=True)
def test_it_announces_and_focuses_the_just_say_no_prompts_on_both_sides(
    live_asgi_server, browser, alice, bob, started_game
):
    game = started_game
    position = "turn: bob\nbob hand: sly_deal 1M\nalice hand: 1M just_say_no\nalice table: red: red"
    state = set_position(game, position)
    sly_deal = card_in(state, "bob", "hand", "sly_deal")
    alice_page, alice_errors = open_live_table(browser, live_asgi_server, alice, game)
    bob_page, bob_errors = open_live_table(browser, live_asgi_server, bob, game)
    alice_page.keyboard.press("1")  # alice looks at her hand meanwhile

    go_to_card(bob_page, sly_deal)
    bob_page.keyboard.press("p")
    if bob_page.evaluate("() => !!document.activeElement.closest('#hand .menu')"):
        bob_page.keyboard.press("Enter")  # the first card to take
    # alice is asked, in words, and the question takes the focus from her hand.
    wait_for_prompt_focus(alice_page)
    expect(alice_page.locator("#announcer")).to_contain_text("bob takes Red property from alice")
    expect(alice_page.locator("#prompt .move-just_say_no")).to_be_visible()
    screenshot(alice_page, path=SHOTS / "prompt-jsn-1100.png", full_page=True)
    alice_page.keyboard.press("n")

    # bob is told his action was cancelled, and asked whether to accept it.
    wait_for_prompt_focus(bob_page)
    expect(bob_page.locator("#announcer")).to_contain_text(
        "Your action was answered with Just Say No"
    )
    screenshot(bob_page, path=SHOTS / "prompt-counter-1100.png", full_page=True)
    bob_page.keyboard.press("a")
    for page in (alice_page, bob_page):
        expect(page.locator("#prompt")).to_have_count(0, timeout=10_000)
        no_body_focus(page)
    game.refresh_from_db()
    assert [s.colour for s in game.state().players[0].sets] == ["red"]  # the Red stayed
    assert alice_errors == [] and bob_errors == []
    for page in (alice_page, bob_page):
        page.context.close()


@pytest.mark.django_db(transaction=True)
def test_it_asks_for_the_cards_over_seven_and_takes_them_from_the_keyboard(
    live_asgi_server, browser, alice, started_game
):
    game = started_game
    set_position(game, "alice hand: 1M 1M 2M 2M 3M 3M 4M 5M 10M")
    page, errors = open_live_table(browser, live_asgi_server, alice, game)
    page.keyboard.press("1")
    page.keyboard.press("e")
    wait_for_prompt_focus(page)
    expect(page.locator("#announcer")).to_contain_text("choose 2 cards to put on the bottom")
    assert answer_the_prompt(page) == "discard"
    expect(page.locator("#prompt")).to_have_count(0, timeout=10_000)
    no_body_focus(page)
    game.refresh_from_db()
    assert len(game.state().players[0].hand) == 7
    assert errors == []
    page.context.close()


# The deal of the whole game below: with the first sensible move each turn against a
# Random computer it ends in about ten rounds (some deals take twenty). The computer's
# moves still vary from run to run (its seed counts the game's versions).
SEED = 19
GAME_SECONDS = 300

# What the hand offers, read from the page as a person reads it: the place in the hand of
# the first card that can be laid, else played, else banked, and which of the three.
FIRST_SENSIBLE_MOVE = """() => {
    const items = Array.from(document.querySelectorAll('#hand .hand > li'));
    for (const kind of ['lay', 'play', 'bank']) {
        const place = items.findIndex(li => li.querySelector('.move-' + kind));
        if (place >= 0) return [place, kind];
    }
    return null;
}"""


class Always:
    """A source of seeds that deals every game from SEED (see games.models.game.SEEDS)."""

    def getrandbits(self, _bits):
        return SEED


@pytest.fixture
def fixed_deal(monkeypatch):
    """Deal every new game from SEED; requested before live_asgi_server, which inherits it."""
    from games.models import game as models

    monkeypatch.setattr(models, "SEEDS", Always())


def tab_to(page, selector, limit=80):
    """Press Tab until the focus is on an element matching `selector`; fail after `limit`."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        if page.evaluate("s => document.activeElement.matches(s)", selector):
            return
    raise AssertionError(f"Tab never reached {selector}; the focus is on {focused(page)}")


def answer_the_prompt(page):
    """Answer what waits for me with keys only: tick cards to pay or put back, or accept."""
    assert page.evaluate("() => !!document.activeElement.closest('#prompt')"), (
        f"the prompt did not take the focus: {focused(page)}"
    )
    if page.locator("#prompt .discard-form").count():
        count = int(page.get_attribute("#prompt .discard-form", "data-count"))
        for _ in range(count):
            tab_to(page, "#prompt .discard-form input[type=checkbox]:not(:checked)")
            page.keyboard.press("Space")
        tab_to(page, "#prompt .discard-form button[type=submit]")
        page.keyboard.press("Enter")
        return "discard"
    if page.locator("#prompt .pay-form").count():
        while page.inner_text("#prompt .js-owed").strip() not in ("0", "-0"):
            tab_to(page, "#prompt .pay-form input[type=checkbox]:not(:checked)")
            page.keyboard.press("Space")
        page.keyboard.press("a")
        return "pay"
    page.keyboard.press("a")
    return "accept"


def play_my_turn(page):
    """Make the first sensible move of my turn with keys only, or end the turn.

    Return what it tried (for a failure's message): the move, and the versions shown.
    """
    found = page.evaluate(FIRST_SENSIBLE_MOVE)
    shown = page.evaluate(
        "() => ['#board', '#hand'].map(s => document.querySelector(s).dataset.version)"
    )
    tried = f"{found or 'end the turn'} from board and hand versions {shown}"
    if found is None:
        page.keyboard.press("e")
        return tried
    place, kind = found
    page.keyboard.press(str(min(place, 8) + 1))
    for _ in range(place - 8):
        page.keyboard.press("ArrowRight")
    page.keyboard.press(kind[0])
    # More than one way (a wild's colour, whom to charge): the menu opens on its first; a
    # move chosen in two steps (Forced Deal) on its first step, which opens its moves.
    if page.evaluate("() => document.activeElement.matches('#hand .menu-step > summary')"):
        page.keyboard.press("Enter")
        page.keyboard.press("ArrowDown")
    if page.evaluate("() => !!document.activeElement.closest('#hand .menu')"):
        page.keyboard.press("Enter")
    return tried


@pytest.mark.django_db(transaction=True)
def test_it_plays_a_whole_game_against_the_computer_with_the_keyboard_only(
    fixed_deal,
    quick_socket_checks,
    live_asgi_server,
    browser,
    alice,
    monkeypatch,
    without_broadcasts,
):
    """From the home page to the end screen with key presses only: no click, no fill."""
    SHOTS.mkdir(exist_ok=True)
    monkeypatch.setattr(bots, "THINKING_SECONDS", 0)  # the computer answers in the test process
    # Counting the socket's whole boards on every page of the context (open_live_table's wait).
    page, errors = open_page(browser, live_asgi_server, alice, "/", init_script=COUNT_BOARDS)

    # Play the computer: the Random level, two players, from the keyboard.
    tab_to(page, "#play-computer input[name=level]")
    page.keyboard.press("ArrowUp")
    assert page.evaluate("() => document.activeElement.value") == "random"
    tab_to(page, "#play-computer button[type=submit]")
    page.keyboard.press("Enter")
    page.wait_for_url("**/games/*/")
    game = Game.objects.get(host=alice)
    assert game.status == Game.Status.ACTIVE and game.seed == SEED
    assert game.seats.get(position=1).user.bot_level == "random"
    page.wait_for_selector("#announcer", state="attached")
    screenshot(page, path=SHOTS / "keyboard-game-deal-1100.png", full_page=True)

    later = timezone.now()
    deadline = time.monotonic() + GAME_SECONDS
    mine = 0
    answered = []
    while True:
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            break
        assert time.monotonic() < deadline, (
            f"the game did not end in {GAME_SECONDS} s: round {game.state().round}, "
            f"{mine} moves of alice (answers: {answered}), version {game.version}"
        )
        waiting = {seat for seat, _, _ in rules.awaiting(game.state())}
        if 0 not in waiting:
            later += timedelta(seconds=5)  # past the computer's pause after each move
            with without_broadcasts():  # the page's socket finds them by its checks
                play_bot_moves(now=later)
            continue
        wait_for_version(page, game.version)
        if mine:  # after each move the focus stays somewhere useful
            no_body_focus(page)
        tried = "an answer"
        if page.locator("#prompt").count():
            answered.append(answer_the_prompt(page))
        else:
            tried = play_my_turn(page)
        mine += 1
        before = game.version
        for _ in range(100):
            game.refresh_from_db()
            if game.version > before:
                break
            time.sleep(0.1)
        assert game.version > before, (
            f"alice's key presses made no move at version {before} ({tried}): {focused(page)}"
        )

    assert game.status == Game.Status.FINISHED
    # The end is read out, and the focus goes to it: the review and the rematch follow.
    result = page.locator("#status .result")
    expect(result).to_contain_text(" won ", timeout=10_000)
    expect(page.locator("#announcer")).to_contain_text(result.inner_text())
    page.wait_for_function("() => document.activeElement.matches('#status .result')")
    page.keyboard.press("Tab")
    assert "Review the game" in focused(page)
    screenshot(page, path=SHOTS / "keyboard-game-end-1100.png", full_page=True)
    page.set_viewport_size({"width": 390, "height": 844})
    screenshot(page, path=SHOTS / "keyboard-game-end-390.png", full_page=True)
    assert errors == []
    page.context.close()


@pytest.mark.django_db(transaction=True)
def test_it_steps_through_the_review_with_enter_keeping_the_focus_and_reading_each_position(
    live_asgi_server, browser, alice, bob
):
    game = stored_game([alice, bob], seed=9)
    path = f"/games/{game.code}/review/?move=10"
    page, errors = open_page(browser, live_asgi_server, alice, path)
    announcer = page.locator("#review-announcer")
    total = game.moves.count()
    page.wait_for_selector('#review-position[data-move="10"]')
    assert announcer.get_attribute("aria-live") == "polite"

    for _ in range(30):
        page.keyboard.press("Tab")
        if page.evaluate("() => document.activeElement.matches('a[data-nav=next]')"):
            break
    page.keyboard.press("Enter")
    page.wait_for_selector('#review-position[data-move="11"]')
    current = page.inner_text("#review-position .review-current strong")
    expect(announcer).to_have_text(f"Move 11 of {total}: {current}")
    page.wait_for_function("() => document.activeElement.matches('a[data-nav=next]')")
    page.keyboard.press("Enter")  # again, from where the focus was put back
    page.wait_for_selector('#review-position[data-move="12"]')
    expect(announcer).to_contain_text(f"Move 12 of {total}")

    # At the last move "Next" is gone: the focus goes to "Last", not to the top of the page.
    page.keyboard.press("End")
    page.wait_for_selector(f'#review-position[data-move="{total}"]')
    page.wait_for_function("() => document.activeElement.matches('a[data-nav=last]')")
    expect(announcer).to_contain_text(f"Move {total} of {total}")
    screenshot(page, path=SHOTS / "review-focus-1100.png")
    page.set_viewport_size({"width": 390, "height": 844})
    screenshot(page, path=SHOTS / "review-focus-390.png")
    assert errors == []
    page.context.close()
