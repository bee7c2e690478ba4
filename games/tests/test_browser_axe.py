"""axe-core in a real browser on every page a player sees, in English and Chinese.

No serious or critical violation is allowed on any of them, nor horizontal
scrolling at 320 px (issue 18).
"""

from pathlib import Path

import pytest
from axe_playwright_python.sync_playwright import Axe

from conftest import open_page, screenshot
from games.history.analysis import Analysis
from games.models import Game, Notification, Seat
from games.tests.helpers import ALICE, BOB, set_position
from games.tests.review_helpers import stored_game

SHOTS = Path("/tmp/shots-a11y")
AXE = Axe()
SEVERE = {"serious", "critical"}


def severe_violations(page):
    """Return axe's serious and critical violations on `page`: {rule: [(impact, target)]}."""
    results = AXE.run(page)
    found = {}
    for violation in results.response["violations"]:
        if violation["impact"] in SEVERE:
            found[violation["id"]] = [
                (node["impact"], node["target"], node.get("failureSummary", "")[:200])
                for node in violation["nodes"][:4]
            ]
    return found


# Set before a page's scripts (open_page's init_script, or the context's): remembers each
# element whose socket (ws-connect) has sent a message. Every socket of the site sends its
# part of the page as it connects (games/live/consumers.py: the whole board; lobby/consumers.py:
# the badges at /ws/me/, the list or the waiting room at /ws/lobby/).
SOCKETS_HEARD = """
window.socketsHeard = new WeakSet();
document.addEventListener("htmx:wsAfterMessage", (event) => window.socketsHeard.add(event.target));
"""

DRAWN = """() => [...document.querySelectorAll("[ws-connect]")].every((e) => window.socketsHeard.has(e))
  && !document.querySelector(".htmx-request")"""

NARROW = "() => window.innerWidth === 320"


def settled(page):
    """Wait until the page has loaded, each of its sockets has drawn its part, and no htmx
    request is in flight.

    The sockets' first messages are known only on a page opened with SOCKETS_HEARD; on
    another (test_browser_zoom's) this still waits for the network to be idle.
    """
    page.wait_for_load_state("load")
    if page.evaluate("() => window.socketsHeard === undefined"):
        page.wait_for_load_state("networkidle")
        return
    page.wait_for_function(DRAWN, timeout=10_000)


def playing_game(alice, bob, without_broadcasts, text):
    with without_broadcasts():
        game = Game.objects.create(host=alice, seat_count=2)
        Seat.objects.create(game=game, user=alice, position=0)
        Seat.objects.create(game=game, user=bob, position=1)
        game = game.start()
        set_position(game, text)
    return game


MID_GAME = """
players: alice bob
turn: alice
plays: 2
alice hand: 3M red/yellow sly_deal rent:red/yellow any brown just_say_no
alice bank: 2M 1M
alice table: red: red red +house; railroad: railroad; utility: utility; light_blue: light_blue
bob hand: 1M 2M
bob bank: 5M
bob table: green: green green/railroad; dark_blue: dark_blue; pink: pink; orange: orange orange; \
yellow: yellow; brown: brown
"""


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("language", ["en", "zh-hans"])
@pytest.mark.parametrize("half", [0, 1])  # every other page: the halves run side by side
def test_it_finds_no_serious_axe_violation_on_any_page(
    live_asgi_server, browser, alice, bob, charlie, without_broadcasts, language, half
):
    SHOTS.mkdir(exist_ok=True)
    for user in (alice, bob, charlie):
        user.language = language
        user.save(update_fields=["language"])
    table = playing_game(alice, bob, without_broadcasts, MID_GAME)
    with without_broadcasts():
        paying = playing_game(
            alice, bob, without_broadcasts, "turn: bob\nbob hand: debt_collector\nalice bank: 5M 1M"
        )
        collector = paying.state().players[BOB].hand[0]
        paying.play(BOB, {"kind": "play", "card": collector, "targets": [ALICE]})
        waiting = Game.objects.create(host=alice, seat_count=3)
        Seat.objects.create(game=waiting, user=alice, position=0)
        finished = stored_game([alice, bob], seed=9)
        analysed = stored_game([alice, bob], seed=3)
        seats = dict(analysed.moves.values_list("n", "seat"))
        verdict = {"chances": [0.6, 0.4], "best": None, "best_chance": 0.6, "loss": 0.0, "mark": ""}
        verdicts = {str(n): dict(verdict, seat=seats[n]) for n in range(1, 40)}
        verdicts["12"].update(mark="blunder", loss=24.0, best={"kind": "end"}, best_chance=0.8)
        Analysis.objects.create(
            game=analysed, status=Analysis.Status.DONE, decisions=39, judged=39, verdicts=verdicts
        )
        Notification.objects.create(user=alice, game=finished, kind=Notification.Kind.ENDED)
        Notification.objects.create(
            user=alice,
            game=table,
            kind=Notification.Kind.TARGETED,
            actor=bob,
            data={"card": "sly_deal"},
        )
    pages = {
        "home": (alice, "/"),
        "lobby": (alice, "/tables/"),
        "create": (alice, "/tables/new/"),
        "waiting-room": (alice, f"/t/{waiting.code}/"),
        "table-player": (alice, f"/games/{table.code}/"),
        "table-spectator": (charlie, f"/games/{table.code}/"),
        "payment-prompt": (alice, f"/games/{paying.code}/"),
        "review": (alice, f"/games/{finished.code}/review/?move=12"),
        "review-analysed": (alice, f"/games/{analysed.code}/review/?move=12"),
        "profile": (alice, "/accounts/u/bob/"),
        "leaderboard": (alice, "/accounts/leaderboard/"),
        "settings": (alice, "/accounts/settings/"),
        "close-account": (alice, "/accounts/settings/close/"),
        "your-turn": (bob, "/turn/"),
        "notifications": (alice, "/notifications/"),
        "how-to-play": (alice, "/how-to-play/"),
        "finished-games": (alice, "/games/recent/"),
    }
    found = {}
    for name, (user, path) in list(pages.items())[half::2]:
        page, errors = open_page(browser, live_asgi_server, user, path, init_script=SOCKETS_HEARD)
        settled(page)
        assert page.locator("html").get_attribute("lang") == language, name
        violations = severe_violations(page)
        if violations:
            found[name] = violations
        screenshot(page, path=SHOTS / f"axe-{name}-{language}.png", full_page=True)
        page.set_viewport_size({"width": 320, "height": 700})
        page.wait_for_function(NARROW)  # resized: reading scrollWidth lays the page out anew
        overflow = page.evaluate(
            "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
        )
        if overflow > 0:
            found.setdefault(name, {})["horizontal-scrolling-at-320px"] = overflow
            screenshot(page, path=SHOTS / f"narrow-{name}-{language}.png", full_page=True)
        assert errors == [], (name, errors)
        page.context.close()

    # Home signed out, in the browser's language.
    locale = "zh-CN" if language == "zh-hans" else "en-GB"
    context = browser.new_context(locale=locale, viewport={"width": 1100, "height": 900})
    context.add_init_script(SOCKETS_HEARD)
    page = context.new_page()
    for name, path in (("home-signed-out", "/"), ("login", "/accounts/login/"))[half::2]:
        page.goto(live_asgi_server + path)
        settled(page)
        assert page.locator("html").get_attribute("lang") == language, name
        violations = severe_violations(page)
        if violations:
            found[name] = violations
    context.close()
    assert found == {}, __import__("pprint").pformat(found)
