"""Turn alerts in real browsers: the tab title, the icon, and the optional sound and notification."""

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError, expect

from conftest import open_page
from games.tests.helpers import set_position
from lobby.tests.test_user_socket import correspondence_game

TURN_MARK = "● Your turn · "  # before the page's own title

# Set before the page loads: tells the test which of the page's sockets are open.
WATCH_SOCKETS = """
window.socketsOpen = [];
document.addEventListener("htmx:wsOpen", function (event) {
  window.socketsOpen.push(event.target.getAttribute("ws-connect").split("?")[0]);
});
"""

# A page in a background tab, and a browser whose notifications and sound only record
# what they are asked to do.
HIDDEN_AND_RECORDING = """
Object.defineProperty(Document.prototype, "hidden", {configurable: true, get: () => true});
Object.defineProperty(Document.prototype, "visibilityState", {
  configurable: true, get: () => "hidden",
});
window.alertsSeen = {notifications: [], tones: 0, permissionAsked: 0};
window.Notification = function (title, options) {
  window.alertsSeen.notifications.push(title);
  this.close = function () {};
};
window.Notification.permission = "granted";
window.Notification.requestPermission = function () {
  window.alertsSeen.permissionAsked += 1;
  window.Notification.permission = "granted";
  return Promise.resolve("granted");
};
window.AudioContext = function () {
  const param = {setValueAtTime() {}, exponentialRampToValueAtTime() {}};
  const node = {connect() {}};
  this.state = "running";
  this.currentTime = 0;
  this.destination = {};
  this.resume = function () {};
  this.createGain = () => Object.assign({gain: param}, node);
  this.createOscillator = () => Object.assign({
    frequency: param, start() { window.alertsSeen.tones += 1; }, stop() {},
  }, node);
};
"""

# Set before the page loads: counts the timers alerts.js has set that have not run yet. An
# alert it gathers waits in one (GATHER_MS): while none is left, no tone or notification is
# on its way.
ALERT_TIMERS = """
window.alertTimersSet = 0;
(() => {
  const pending = new Set();
  const setTimeout_ = window.setTimeout;
  const clearTimeout_ = window.clearTimeout;
  window.setTimeout = function (callback, delay, ...args) {
    if (!String(new Error().stack).includes("/js/alerts.js")) {
      return setTimeout_(callback, delay, ...args);
    }
    const id = setTimeout_(function () {
      pending.delete(id);
      return callback.apply(this, arguments);
    }, delay, ...args);
    pending.add(id);
    window.alertTimersSet += 1;
    return id;
  };
  window.clearTimeout = function (id) {
    pending.delete(id);
    return clearTimeout_(id);
  };
  window.alertTimersPending = () => pending.size;
})();
"""

# The move's news all shown: on a table the game's socket says it awaits me
# (#status[data-awaiting-me]) and /ws/me/ draws the header's badge; the home tab has only the
# badge. With both in, alerts.js has called for an alert for each: a second call within
# GATHER_MS joins the first, a later one falls in the QUIET_MS after it. So once the tone has
# played (when the alerts are on) and no timer of alerts.js is left, no other alert can come
# from this move.
ALL_NEWS_TOLD = """([table, sounding]) =>
  (!table || !!document.querySelector('#status[data-awaiting-me="true"]'))
  && !!document.querySelector('#nav-your-turn .badge')
  && (!sounding || window.alertsSeen.tones > 0)
  && window.alertTimersPending() === 0"""


def all_news_told(page, table, sounding):
    page.wait_for_function(ALL_NEWS_TOLD, arg=[table, sounding], timeout=10_000)


@pytest.fixture
def waiting_for_alice(alice, bob, without_broadcasts):
    """A correspondence game waiting for alice, nobody notified; short hands: no discards."""
    with without_broadcasts():
        game = correspondence_game(alice, bob)
    set_position(game, "turn: alice\nalice hand: 1M 2M\nbob hand: 3M")
    return game


def open_watched(browser, server, user, path, sockets, init_script=""):
    """Open `path` for `user` (a new context) and wait until its `sockets` are open."""
    page, errors = open_page(browser, server, user, path)
    page.context.add_init_script(WATCH_SOCKETS + init_script)
    page.reload()
    page.wait_for_function(
        "sockets => sockets.every(s => window.socketsOpen.includes(s))",
        arg=sockets,
        timeout=10_000,
    )
    return page, errors


def open_table(browser, server, user, game, init_script=""):
    sockets = ["/ws/me/", f"/ws/games/{game.code}/"]
    return open_watched(browser, server, user, game.get_absolute_url(), sockets, init_script)


def table_title(game):
    return f"Table {game.code} · Full Set"


@pytest.mark.django_db(transaction=True)
def test_it_says_in_the_tab_title_when_the_game_waits_for_me(
    live_asgi_server, browser, screenshot_dir, alice, bob, waiting_for_alice
):
    game = waiting_for_alice
    alice_page, alice_errors = open_table(browser, live_asgi_server, alice, game)
    bob_page, bob_errors = open_table(browser, live_asgi_server, bob, game)
    expect(alice_page).to_have_title(TURN_MARK + table_title(game))
    expect(bob_page).to_have_title(table_title(game))
    assert alice_page.get_attribute('link[rel="icon"]', "href").endswith("favicon-turn.svg")

    alice_page.click("button.move-end")  # bob's turn

    expect(bob_page).to_have_title(TURN_MARK + table_title(game), timeout=10_000)
    expect(alice_page).to_have_title(table_title(game), timeout=10_000)
    assert alice_page.get_attribute('link[rel="icon"]', "href").endswith("favicon.svg")

    bob_page.click("button.move-end")  # alice's turn again

    expect(bob_page).to_have_title(table_title(game), timeout=10_000)
    expect(alice_page).to_have_title(TURN_MARK + table_title(game), timeout=10_000)
    assert alice_errors == [] and bob_errors == []
    alice_page.context.close()
    bob_page.context.close()


@pytest.mark.django_db(transaction=True)
def test_it_says_so_on_other_pages_from_the_header_badge(
    live_asgi_server, browser, alice, bob, waiting_for_alice
):
    game = waiting_for_alice
    alice_page, alice_errors = open_table(browser, live_asgi_server, alice, game)
    bob_page, bob_errors = open_watched(browser, live_asgi_server, bob, "/", ["/ws/me/"])
    home_title = bob_page.title()
    assert not home_title.startswith(TURN_MARK)

    alice_page.click("button.move-end")

    expect(bob_page).to_have_title(TURN_MARK + home_title, timeout=10_000)
    expect(bob_page.locator("#nav-your-turn .badge")).to_have_text("1")
    assert alice_errors == [] and bob_errors == []
    alice_page.context.close()
    bob_page.context.close()


def loaded_with_its_icon(page, navigate):
    """Run `navigate` (a reload or goto: they return after the load event, by when every file
    the page names has come); return once the browser has fetched the page's icon, which it
    asks for after that event (as a navigation starts it may ask for the last page's again:
    that one does not count).

    A browser does not ask again for an icon it found missing: then nothing comes, and the
    test's assertions say what was missing.
    """
    loaded, navigated = [], []
    page.once("load", lambda _: loaded.append(True))
    icon = page.expect_response(
        lambda response: bool(loaded) and "favicon" in response.url, timeout=10_000
    )
    try:
        with icon:
            navigate()
            navigated.append(True)
    except PlaywrightTimeoutError:
        if not navigated:
            raise


@pytest.mark.django_db(transaction=True)
def test_it_finds_the_icon_and_no_missing_file(
    live_asgi_server, browser, alice, bob, waiting_for_alice
):
    game = waiting_for_alice
    page, errors = open_page(browser, live_asgi_server, alice, "/")
    failed = []
    page.on("console", lambda m: failed.append(m.text) if m.type == "error" else None)
    # A request the next navigation cancels (the turn icon, swapped in as the page
    # loads) is not a missing file: that shows as a 4xx response below.
    page.on(
        "requestfailed",
        lambda request: (
            None
            if request.failure == "net::ERR_ABORTED"
            else failed.append(f"failed {request.url} {request.failure}")
        ),
    )
    page.on(
        "response",
        lambda response: (
            failed.append(f"{response.status} {response.url}") if response.status >= 400 else None
        ),
    )
    icons = []
    page.on("response", lambda r: icons.append(r.status) if "favicon" in r.url else None)

    loaded_with_its_icon(page, page.reload)
    loaded_with_its_icon(page, lambda: page.goto(live_asgi_server + game.get_absolute_url()))
    icon = page.request.get(live_asgi_server + "/favicon.ico")

    assert failed == []
    assert icons and set(icons) == {200}, icons
    assert icon.ok and icon.headers["content-type"].startswith("image/svg+xml")
    assert errors == []
    page.context.close()


@pytest.mark.django_db(transaction=True)
def test_it_plays_a_sound_and_notifies_once_when_a_hidden_page_starts_waiting(
    live_asgi_server, browser, alice, bob, waiting_for_alice
):
    game = waiting_for_alice
    bob.turn_sound = bob.turn_browser_notification = True
    bob.save()
    alice_page, alice_errors = open_table(browser, live_asgi_server, alice, game)
    bob_table, table_errors = open_table(
        browser, live_asgi_server, bob, game, HIDDEN_AND_RECORDING + ALERT_TIMERS
    )
    bob_home = bob_table.context.new_page()  # the same browser, another tab
    bob_home.goto(live_asgi_server + "/")
    bob_home.wait_for_function("() => window.socketsOpen.includes('/ws/me/')", timeout=10_000)

    alice_page.click("button.move-end")  # bob's turn: both of his tabs are told, once each

    expect(bob_table).to_have_title(TURN_MARK + table_title(game), timeout=10_000)
    all_news_told(bob_table, table=True, sounding=True)
    all_news_told(bob_home, table=False, sounding=True)
    assert bob_table.evaluate("window.alertTimersSet") > 0  # the tone came from a timer counted
    table_seen = bob_table.evaluate("window.alertsSeen")
    home_seen = bob_home.evaluate("window.alertsSeen")
    assert table_seen == {
        "notifications": [f"Your turn at table {game.code}"],
        "tones": 1,
        "permissionAsked": 0,
    }
    assert home_seen == {
        "notifications": ["A game is waiting for you"],
        "tones": 1,
        "permissionAsked": 0,
    }
    assert alice_errors == [] and table_errors == []
    alice_page.context.close()
    bob_table.context.close()


@pytest.mark.django_db(transaction=True)
def test_it_stays_silent_when_the_alerts_are_off(
    live_asgi_server, browser, alice, bob, waiting_for_alice
):
    game = waiting_for_alice
    alice_page, alice_errors = open_table(browser, live_asgi_server, alice, game)
    bob_page, bob_errors = open_table(
        browser, live_asgi_server, bob, game, HIDDEN_AND_RECORDING + ALERT_TIMERS
    )

    alice_page.click("button.move-end")

    expect(bob_page).to_have_title(TURN_MARK + table_title(game), timeout=10_000)
    all_news_told(bob_page, table=True, sounding=False)
    assert bob_page.evaluate("window.alertsSeen") == {
        "notifications": [],
        "tones": 0,
        "permissionAsked": 0,
    }
    assert alice_errors == [] and bob_errors == []
    alice_page.context.close()
    bob_page.context.close()


@pytest.mark.django_db(transaction=True)
def test_it_asks_for_permission_only_from_a_click_on_the_settings_page(
    live_asgi_server, browser, screenshot_dir, bob
):
    bob.turn_browser_notification = True
    bob.save()
    page, errors = open_page(browser, live_asgi_server, bob, "/accounts/settings/")
    page.context.add_init_script(HIDDEN_AND_RECORDING.replace('"granted";', '"default";', 1))
    page.reload()
    button = page.get_by_role("button", name="Allow notifications in this browser")

    expect(button).to_be_visible()
    assert page.evaluate("window.alertsSeen.permissionAsked") == 0
    button.click()

    expect(page.get_by_text("This browser shows your turn notifications.")).to_be_visible()
    assert page.evaluate("window.alertsSeen.permissionAsked") == 1
    expect(button).to_be_hidden()
    assert errors == []
    page.context.close()
