"""Moves in a real browser go over the open game socket, not an HTTP POST."""

import re

import pytest
from django.contrib.sessions.models import Session
from playwright.sync_api import expect

from conftest import open_live_table, screenshot
from games import rules
from games.rules.position import card_in
from games.tests.helpers import set_position

COUNT_SENDS = (
    "() => { window.movesSent = 0; "
    "document.addEventListener('htmx:wsAfterSend', () => { window.movesSent += 1; }); }"
)


def posts_to(page, path):
    """Return the list, filled as the page goes, of the POST requests to `path`."""
    posts = []
    page.on(
        "request",
        lambda request: (
            posts.append(request.url)
            if request.method == "POST" and request.url.endswith(path)
            else None
        ),
    )
    return posts


@pytest.mark.django_db(transaction=True)
def test_it_sends_a_click_s_move_over_the_socket_and_posts_nothing(
    live_asgi_server, browser, screenshot_dir, alice, bob, started_game
):
    state = set_position(started_game, "alice hand: 5M red")
    five = card_in(state, "alice", "hand", "5M")
    alice_page, alice_errors = open_live_table(browser, live_asgi_server, alice, started_game)
    bob_page, bob_errors = open_live_table(browser, live_asgi_server, bob, started_game)
    posts = posts_to(alice_page, f"/games/{started_game.code}/move/")
    alice_page.evaluate(COUNT_SENDS)
    # A message from before, as a POST's answer leaves it: the move puts it away.
    alice_page.evaluate(
        "() => { const p = document.createElement('p'); p.textContent = 'Old news';"
        " document.getElementById('flash').replaceChildren(p); }"
    )

    alice_page.click(f'details[data-card-menu="{five}"] > summary')
    alice_page.click("text=Bank it (5M)")

    expect(alice_page.locator("#flash")).not_to_contain_text("Old news")
    for page in (alice_page, bob_page):
        page.wait_for_selector('#board[data-version="2"]', timeout=10_000)
        page.wait_for_selector("#log >> text=alice banked 5M", timeout=10_000)
    assert posts == []
    assert alice_page.evaluate("() => window.movesSent") == 1
    assert alice_page.url.endswith(f"/games/{started_game.code}/")
    screenshot(alice_page, path=screenshot_dir / "socket-move.png", full_page=True)
    assert alice_errors == [] and bob_errors == []
    alice_page.context.close()
    bob_page.context.close()


@pytest.mark.django_db(transaction=True)
def test_it_posts_the_move_while_the_socket_is_not_open(
    live_asgi_server, browser, alice, bob, started_game
):
    state = set_position(started_game, "alice hand: 5M red")
    five = card_in(state, "alice", "hand", "5M")
    page, errors = open_live_table(browser, live_asgi_server, alice, started_game)
    posts = posts_to(page, f"/games/{started_game.code}/move/")
    page.evaluate(COUNT_SENDS)
    # As the extension tells a closed socket (it reconnects after a pause).
    page.evaluate(
        "() => htmx.trigger(document.querySelector('.game-page'), 'htmx:wsClose',"
        " { event: { code: 1006 } })"
    )

    page.click(f'details[data-card-menu="{five}"] > summary')
    page.click("text=Bank it (5M)")

    page.wait_for_selector("#log >> text=alice banked 5M", timeout=10_000)
    assert len(posts) == 1
    assert page.evaluate("() => window.movesSent") == 0
    assert page.url.endswith(f"/games/{started_game.code}/")  # htmx's POST: no page load
    assert errors == []
    page.context.close()


@pytest.mark.django_db(transaction=True)
def test_it_sends_a_form_submitted_twice_at_once_a_single_time(
    live_asgi_server, browser, alice, bob, started_game
):
    set_position(started_game, "alice hand: 5M red")
    page, errors = open_live_table(browser, live_asgi_server, alice, started_game)
    page.evaluate(COUNT_SENDS)

    # A double click on End turn: the second submit comes before the socket answers.
    page.evaluate(
        "() => { const form = document.querySelector('#hand .move-end').form;"
        " form.requestSubmit(); form.requestSubmit(); }"
    )

    page.wait_for_selector("#log >> text=alice ended the turn", timeout=10_000)
    # Both submits ran within the one evaluate above: a second send would be counted already.
    assert page.evaluate("() => window.movesSent") == 1
    assert page.inner_text("#flash").strip() == ""  # no "the board has changed"
    assert errors == []
    page.context.close()


@pytest.mark.django_db(transaction=True)
def test_it_posts_a_move_the_socket_has_not_answered_once_and_only_once(
    live_asgi_server, browser, alice, bob, started_game
):
    """A socket that looks open but is dead (a dropped network): the move is posted after a pause."""
    state = set_position(started_game, "alice hand: 5M red")
    five = card_in(state, "alice", "hand", "5M")
    dead = {"now": False}
    dropped = []

    def route(socket):
        server = socket.connect_to_server()
        socket.on_message(lambda m: dropped.append(m) if dead["now"] else server.send(m))
        server.on_message(lambda m: None if dead["now"] else socket.send(m))

    page, errors = open_live_table(
        browser,
        live_asgi_server,
        alice,
        started_game,
        prepare=lambda page: page.route_web_socket(re.compile(r"/ws/games/"), route),
    )
    posts = posts_to(page, f"/games/{started_game.code}/move/")
    dead["now"] = True  # from here on nothing passes either way, and the socket stays open

    page.click(f'details[data-card-menu="{five}"] > summary')
    page.click("text=Bank it (5M)")

    page.wait_for_selector("#log >> text=alice banked 5M", timeout=15_000)
    assert len(dropped) == 1  # the move went into the dead socket first
    assert len(posts) == 1  # one resend timer, spent: no second post can follow
    started_game.refresh_from_db()
    assert started_game.moves.count() == 1  # made once
    assert errors == []
    page.context.close()


# A game socket opened while window.refuseSockets is set asks for a table that does not
# exist: the server refuses it, and the page sees it closed (1006) without ever opening, as
# when a process is restarting or Redis is away. window.dropGameSocket() ends the open game
# socket as a server process's end does.
REFUSING = """
window.refuseSockets = false;
const RealSocket = window.WebSocket;
window.WebSocket = function (url, protocols) {
  const refused = url.replace(/\\/ws\\/games\\/[^/]+\\//, "/ws/games/refused/");
  const socket = new RealSocket(window.refuseSockets ? refused : url, protocols);
  if (url.includes("/ws/games/")) window.gameSocket = socket;
  return socket;
};
window.WebSocket.prototype = RealSocket.prototype;
Object.assign(window.WebSocket, { CONNECTING: 0, OPEN: 1, CLOSING: 2, CLOSED: 3 });
window.dropGameSocket = function (code) {
  const socket = window.gameSocket;
  const told = socket.onclose;
  socket.onclose = null;
  socket.close();
  told(new CloseEvent("close", { code: code || 1006 }));
};
"""


def open_refusable_table(browser, server, user, game):
    """Open `game`'s table with REFUSING's controls over its sockets."""
    prepare = lambda page: page.add_init_script(REFUSING)  # noqa: E731
    return open_live_table(browser, server, user, game, prepare=prepare)


@pytest.mark.django_db(transaction=True)
def test_a_table_whose_socket_is_refused_says_so_and_catches_up_soon_after(
    live_asgi_server, browser, alice, started_game
):
    """A server process restarting, or Redis away (new sockets refused): the page says it is
    reconnecting, and tries again every few seconds at most, not htmx-ext-ws's 64."""
    state = set_position(started_game, "alice hand: 5M red")
    five = card_in(state, "alice", "hand", "5M")
    page, errors = open_refusable_table(browser, live_asgi_server, alice, started_game)
    # The longest wait of each try: Math.random() at its top.
    longest = page.evaluate(
        "() => { const random = Math.random; Math.random = () => 1;"
        " try { return [...Array(40).keys()].map(htmx.config.wsReconnectDelay); }"
        " finally { Math.random = random; } }"
    )
    assert longest[:4] == [1000, 2000, 4000, 4000]
    assert set(longest[4:15]) == {4000}  # about half a minute of quick tries
    assert longest[15:19] == [8000, 16000, 32000, 64000]  # then slower, to htmx-ext-ws's most
    assert set(longest[19:]) == {64000}
    page.evaluate("() => { window.refuseSockets = true; window.dropGameSocket(); }")

    status = page.locator("#live-status")
    expect(status).to_contain_text("Reconnecting", timeout=10_000)
    started_game.play(0, rules.Move.bank(five))  # made meanwhile (as from another tab)
    page.wait_for_timeout(6_000)  # some tries refused: their waits grow, up to 4 s
    page.evaluate("() => { window.refuseSockets = false; }")

    page.wait_for_selector("#log >> text=alice banked 5M", timeout=9_000)
    expect(status).to_be_hidden()
    assert errors == []
    page.context.close()


@pytest.mark.django_db(transaction=True)
def test_a_table_whose_socket_ends_for_good_says_to_reload(
    live_asgi_server, browser, alice, started_game
):
    """A close that is not tried again (4401: the session ended) is no "Reconnecting".

    Here the session ends while the socket is down (a logout in another tab): the
    socket it opens again has no session, and the server closes it with 4401.
    """
    page, errors = open_refusable_table(browser, live_asgi_server, alice, started_game)

    Session.objects.all().delete()
    page.evaluate("() => window.dropGameSocket()")

    expect(page.locator("#live-status")).to_have_text(
        "This page no longer follows the game: reload it.", timeout=2_000
    )
    page.wait_for_timeout(4_000)  # no "Reconnecting" after the quiet time either
    expect(page.locator("#live-status")).to_have_text(
        "This page no longer follows the game: reload it."
    )
    assert errors == []
    page.context.close()


@pytest.mark.django_db(transaction=True)
def test_a_table_reconnecting_for_long_says_what_may_help(
    live_asgi_server, browser, alice, started_game
):
    """After the quick tries, the site or its database may be away for long: reload, perhaps log in."""

    def prepare(page):
        page.clock.install()
        page.add_init_script(REFUSING)

    page, errors = open_live_table(browser, live_asgi_server, alice, started_game, prepare=prepare)
    page.evaluate("() => { window.refuseSockets = true; window.dropGameSocket(); }")
    status = page.locator("#live-status")

    page.clock.run_for(3_500)
    expect(status).to_contain_text("Reconnecting")
    page.clock.run_for(40_000)
    expect(status).to_have_text(
        "Still reconnecting: if this lasts, reload the page (you may need to log in again)."
    )
    assert errors == []
    page.context.close()
