"""Who may open what: every URL and every socket, for every role, in one table each.

The routes are walked from the URL resolver (and the socket routes from
config.asgi), so a new route fails `test_it_classifies_every_route` until a
row of ACCESS (or SOCKETS) says who may use it. The admin is left out: it
has its own staff-only login and is Django's, not ours.

Roles:
    anonymous  not logged in
    outsider   charlie, logged in, neither seated nor invited. In a game he is
               the spectator: the game pages treat every logged-in user who has
               no seat as a spectator, so "spectator" is this same column.
    player     bob, seated (not the host)
    host       alice, seated in seat 0, host of the table

Games (the <code> of the URL):
    open       a public table not started (alice and bob seated, a free seat)
    private    the same table, private: only its host, players and invitees see it
    active     a game in play (alice seat 0, bob seat 1)
    secret     the same game, private: only its players and invitees see it in play
    finished   a finished game of alice and bob
    missing    a code no game has
    -          the route takes no code

A cell is "GET/POST": the status code, with "login" for a redirect to the
login page, "302" for any other redirect and "-" where the method is not tried.
POSTs carry no fields: the point is who gets past the door, not what the
form does (test_move_fuzz.py posts real and junk fields). Each request runs
in its own savepoint, rolled back after it, so one request never changes
what the next one sees.
"""

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.db import transaction
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from games.chat.messages import ChatMessage
from games.live.sockets import SESSION_ENDED
from games.models import Game, Seat
from games.tests.helpers import card_ids
from games.tests.review_helpers import stored_game

ROLES = ("anonymous", "outsider", "player", "host")

# route                            game      anonymous    outsider     player       host
ACCESS = """
lobby:home                         -         200/200      200/200      200/200      200/200
lobby:tables                       -         200/200      200/200      200/200      200/200
lobby:create                       -         login/login  200/200      200/200      200/200
lobby:play_computer                -         login/login  302/200      302/200      302/200
lobby:quick_game                   -         login/login  302/302      302/302      302/302
lobby:your_turn                    -         login/login  200/200      200/200      200/200
lobby:notifications                -         login/login  200/200      200/200      200/200
lobby:read_notifications           -         login/login  302/302      302/302      302/302

lobby:table                        open      200/200      200/200      200/200      200/200
lobby:table                        private   404/404      404/404      200/200      200/200
lobby:table                        active    302/302      302/302      302/302      302/302
lobby:table                        secret    404/404      404/404      302/302      302/302
lobby:table                        finished  302/302      302/302      302/302      302/302
lobby:table                        missing   404/404      404/404      404/404      404/404
lobby:join                         open      login/login  302/302      302/302      302/302
lobby:join                         private   login/login  404/404      302/302      302/302
lobby:join                         active    login/login  302/302      302/302      302/302
lobby:join                         secret    login/login  404/404      302/302      302/302
lobby:join                         finished  login/login  302/302      302/302      302/302
lobby:join                         missing   login/login  404/404      404/404      404/404
lobby:share                        open      login/login  302/302      302/302      302/302
lobby:share                        private   login/login  302/302      302/302      302/302
lobby:share                        active    login/login  302/302      302/302      302/302
lobby:share                        secret    login/login  302/302      302/302      302/302
lobby:share                        finished  login/login  302/302      302/302      302/302
lobby:share                        missing   login/login  404/404      404/404      404/404
lobby:leave                        open      login/login  302/302      302/302      302/302
lobby:leave                        private   login/login  404/404      302/302      302/302
lobby:leave                        active    login/login  302/302      302/302      302/302
lobby:leave                        secret    login/login  404/404      302/302      302/302
lobby:leave                        finished  login/login  302/302      302/302      302/302
lobby:leave                        missing   login/login  404/404      404/404      404/404
lobby:remove                       open      login/login  403/403      403/403      302/302
lobby:remove                       private   login/login  404/404      403/403      302/302
lobby:remove                       active    login/login  403/403      403/403      302/302
lobby:remove                       secret    login/login  404/404      403/403      302/302
lobby:remove                       finished  login/login  403/403      403/403      302/302
lobby:remove                       missing   login/login  404/404      404/404      404/404
lobby:start                        open      login/login  403/403      403/403      302/302
lobby:start                        private   login/login  404/404      403/403      302/302
lobby:start                        active    login/login  403/403      403/403      302/302
lobby:start                        secret    login/login  404/404      403/403      302/302
lobby:start                        finished  login/login  403/403      403/403      302/302
lobby:start                        missing   login/login  404/404      404/404      404/404
lobby:cancel                       open      login/login  403/403      403/403      302/302
lobby:cancel                       private   login/login  404/404      403/403      302/302
lobby:cancel                       active    login/login  403/403      403/403      302/302
lobby:cancel                       secret    login/login  404/404      403/403      302/302
lobby:cancel                       finished  login/login  403/403      403/403      302/302
lobby:cancel                       missing   login/login  404/404      404/404      404/404
lobby:fill_with_bots               open      login/login  403/403      403/403      302/302
lobby:fill_with_bots               private   login/login  404/404      403/403      302/302
lobby:fill_with_bots               active    login/login  403/403      403/403      302/302
lobby:fill_with_bots               secret    login/login  404/404      403/403      302/302
lobby:fill_with_bots               finished  login/login  403/403      403/403      302/302
lobby:fill_with_bots               missing   login/login  404/404      404/404      404/404
lobby:invite                       open      login/login  403/403      403/403      302/200
lobby:invite                       private   login/login  404/404      403/403      302/200
lobby:invite                       active    login/login  403/403      403/403      302/302
lobby:invite                       secret    login/login  404/404      403/403      302/302
lobby:invite                       finished  login/login  403/403      403/403      302/302
lobby:invite                       missing   login/login  404/404      404/404      404/404
lobby:decline                      open      login/login  405/302      405/302      405/302
lobby:decline                      private   login/login  405/302      405/302      405/302
lobby:decline                      active    login/login  405/302      405/302      405/302
lobby:decline                      secret    login/login  405/302      405/302      405/302
lobby:decline                      finished  login/login  405/302      405/302      405/302
lobby:decline                      missing   login/login  405/302      405/302      405/302

favicon                            -         302/302      302/302      302/302      302/302
set_language                       -         302/302      302/302      302/302      302/302

accounts:signup                    -         200/200      302/302      302/302      302/302
accounts:login                     -         200/200      302/302      302/302      302/302
accounts:logout                    -         405/302      405/302      405/302      405/302
accounts:password_change           -         login/login  200/200      200/200      200/200
accounts:password_change_done      -         login/login  200/405      200/405      200/405
accounts:password_reset            -         200/200      200/200      200/200      200/200
accounts:password_reset_done       -         200/405      200/405      200/405      200/405
accounts:password_reset_confirm    -         200/200      200/200      200/200      200/200
accounts:password_reset_complete   -         200/405      200/405      200/405      200/405
accounts:settings                  -         login/login  200/302      200/302      200/302
accounts:email_change              -         login/login  200/200      200/200      200/200
accounts:close_account              -         login/login  200/200      200/200      200/200
accounts:export_data                -         login/login  200/405      200/405      200/405
accounts:send_confirmation         -         login/login  405/302      405/302      405/302
accounts:confirm_email             -         400/400      400/400      400/400      400/400
accounts:profile                   -         200/200      200/200      200/200      200/200
accounts:versus                    -         200/200      200/200      200/200      200/200
accounts:leaderboard               -         200/200      200/200      200/200      200/200
accounts:hide_table_hints          -         login/login  405/302      405/302      405/302
accounts:take_vacation             -         login/login  405/302      405/302      405/302
accounts:end_vacation              -         login/login  405/302      405/302      405/302
accounts:block                     -         login/login  405/302      405/302      405/302
how_to_play                        -         200/405      200/405      200/405      200/405

games:finished                     -         login/login  200/200      200/200      200/200
games:recent                       -         login/login  200/200      200/200      200/200
games:table                        open      login/login  302/302      302/302      302/302
games:table                        private   login/login  302/302      302/302      302/302
games:table                        active    login/login  200/200      200/200      200/200
games:table                        secret    login/login  404/404      200/200      200/200
games:table                        finished  login/login  200/200      200/200      200/200
games:table                        missing   login/login  404/404      404/404      404/404
games:move                         open      login/login  405/403      405/400      405/400
games:move                         private   login/login  405/403      405/400      405/400
games:move                         active    login/login  405/403      405/400      405/400
games:move                         secret    login/login  405/403      405/400      405/400
games:move                         finished  login/login  405/403      405/400      405/400
games:move                         missing   login/login  405/404      405/404      405/404
games:come_back                    open      login/login  405/403      405/302      405/302
games:come_back                    private   login/login  405/403      405/302      405/302
games:come_back                    active    login/login  405/403      405/302      405/302
games:come_back                    secret    login/login  405/403      405/302      405/302
games:come_back                    finished  login/login  405/403      405/302      405/302
games:come_back                    missing   login/login  405/404      405/404      405/404
games:resign                       open      login/login  403/403      302/302      302/302
games:resign                       private   login/login  403/403      302/302      302/302
games:resign                       active    login/login  403/403      200/302      200/302
games:resign                       secret    login/login  403/403      200/302      200/302
games:resign                       finished  login/login  403/403      302/302      302/302
games:resign                       missing   login/login  404/404      404/404      404/404
games:standing_answers             open      login/login  405/403      405/302      405/302
games:standing_answers             private   login/login  405/403      405/302      405/302
games:standing_answers             active    login/login  405/403      405/302      405/302
games:standing_answers             secret    login/login  405/403      405/302      405/302
games:standing_answers             finished  login/login  405/403      405/302      405/302
games:standing_answers             missing   login/login  405/404      405/404      405/404
games:rematch                      open      login/login  405/403      405/302      405/302
games:rematch                      private   login/login  405/403      405/302      405/302
games:rematch                      active    login/login  405/403      405/302      405/302
games:rematch                      secret    login/login  405/403      405/302      405/302
games:rematch                      finished  login/login  405/403      405/302      405/302
games:rematch                      missing   login/login  405/404      405/404      405/404
games:computer                     open      login/login  405/403      405/302      405/302
games:computer                     private   login/login  405/403      405/302      405/302
games:computer                     active    login/login  405/403      405/302      405/302
games:computer                     secret    login/login  405/403      405/302      405/302
games:computer                     finished  login/login  405/403      405/302      405/302
games:computer                     missing   login/login  405/404      405/404      405/404
games:log                          open      login/login  403/403      200/200      200/200
games:log                          private   login/login  403/403      200/200      200/200
games:log                          active    login/login  403/403      200/200      200/200
games:log                          secret    login/login  403/403      200/200      200/200
games:log                          finished  login/login  200/200      200/200      200/200
games:log                          missing   login/login  404/404      404/404      404/404
games:review                       open      login/login  403/403      403/403      403/403
games:review                       private   login/login  403/403      403/403      403/403
games:review                       active    login/login  403/403      403/403      403/403
games:review                       secret    login/login  403/403      403/403      403/403
games:review                       finished  login/login  200/200      200/200      200/200
games:review                       missing   login/login  404/404      404/404      404/404
games:analysis                     open      login/login  403/403      403/403      403/403
games:analysis                     private   login/login  403/403      403/403      403/403
games:analysis                     active    login/login  403/403      403/403      403/403
games:analysis                     secret    login/login  403/403      403/403      403/403
games:analysis                     finished  login/login  302/302      302/302      302/302
games:analysis                     missing   login/login  404/404      404/404      404/404
games:export                       open      login/login  403/403      403/403      403/403
games:export                       private   login/login  403/403      403/403      403/403
games:export                       active    login/login  403/403      403/403      403/403
games:export                       secret    login/login  403/403      403/403      403/403
games:export                       finished  login/login  200/200      200/200      200/200
games:export                       missing   login/login  404/404      404/404      404/404

games:chat_post                    open      login/login  405/302      405/302      405/302
games:chat_post                    private   login/login  405/404      405/302      405/302
games:chat_post                    active    login/login  405/302      405/302      405/302
games:chat_post                    secret    login/login  405/404      405/302      405/302
games:chat_post                    finished  login/login  405/302      405/302      405/302
games:chat_post                    missing   login/login  405/404      405/404      405/404
games:chat_switch                  open      login/login  405/302      405/302      405/302
games:chat_switch                  private   login/login  405/404      405/302      405/302
games:chat_switch                  active    login/login  405/302      405/302      405/302
games:chat_switch                  secret    login/login  405/404      405/302      405/302
games:chat_switch                  finished  login/login  405/302      405/302      405/302
games:chat_switch                  missing   login/login  405/404      405/404      405/404
games:chat_report                  open      login/login  405/302      405/302      405/302
games:chat_report                  private   login/login  405/404      405/302      405/302
games:chat_report                  active    login/login  405/302      405/302      405/302
games:chat_report                  secret    login/login  405/404      405/302      405/302
games:chat_report                  finished  login/login  405/302      405/302      405/302
games:chat_report                  missing   login/login  405/404      405/404      405/404
"""

# What a socket does for each role. For the game socket: "hand" is accepted and sends
# the board with that player's own hand (and no other), "watch" is accepted and sends the
# board with no hand at all, "silent" is accepted and sends nothing (a table not started
# has no board; the waiting room has its own socket). For the lobby sockets: "tables" is the
# open tables list, "room" the waiting room's seats, "badges" the header's counts.
# "echo" sends nothing on connect and sends back what it receives (the load test's
# baseline). "refused" is closed before it is accepted; "ended" is accepted and closed at
# once with SESSION_ENDED, sending nothing: only a logged-in user's page opens these
# sockets, so one without a session is a page whose session ended, told to reload.
#
# path                   game      anonymous  outsider   player     host
SOCKETS = """
ws/games/<code>/         open      ended      silent     silent     silent
ws/games/<code>/         private   ended      refused    silent     silent
ws/games/<code>/         active    ended      watch      hand       hand
ws/games/<code>/         secret    ended      refused    hand       hand
ws/games/<code>/         finished  ended      watch      hand       hand
ws/games/<code>/         missing   ended      refused    refused    refused
ws/lobby/                -         ended      tables     tables     tables
ws/lobby/<code>/         open      ended      room       room       room
ws/lobby/<code>/         private   ended      refused    room       room
ws/lobby/<code>/         active    ended      room       room       room
ws/lobby/<code>/         secret    ended      refused    room       room
ws/lobby/<code>/         finished  ended      room       room       room
ws/lobby/<code>/         missing   ended      refused    refused    refused
ws/me/                   -         ended      badges     badges     badges
ws/echo/                 -         refused    echo       echo       echo
"""

SOCKET_SIGNS = {
    "tables": 'id="open-tables"',
    "room": 'id="room"',
    "badges": 'id="nav-badges"',
}


def table_rows(text):
    """Return {(route, game): {role: cell}} from one of the tables above."""
    rows = {}
    for line in text.strip().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        route, game, *cells = line.split()
        assert len(cells) == len(ROLES), f"Row {line!r} needs one cell per role."
        assert (route, game) not in rows, f"Row {route} {game} is given twice."
        rows[route, game] = dict(zip(ROLES, cells))
    return rows


EXPECTED = table_rows(ACCESS)
EXPECTED_SOCKETS = table_rows(SOCKETS)


def all_routes(patterns=None, prefix="", namespace=""):
    """Yield (name, pattern) of every URL the project serves, "namespace:name" as reversed."""
    if patterns is None:
        patterns = get_resolver().url_patterns
    for entry in patterns:
        if isinstance(entry, URLResolver):
            inner = ":".join(n for n in (namespace, entry.namespace or "") if n)
            yield from all_routes(entry.url_patterns, prefix + str(entry.pattern), inner)
        elif isinstance(entry, URLPattern):
            name = f"{namespace}:{entry.name}" if namespace else str(entry.name)
            yield name, prefix + str(entry.pattern)


def served_routes():
    # The admin is excluded: Django's own app behind its own staff-only login.
    return {name: pattern for name, pattern in all_routes() if not pattern.startswith("admin/")}


def socket_routes():
    from config.asgi import websocket_urlpatterns

    return {str(entry.pattern) for entry in websocket_urlpatterns}


def test_it_classifies_every_route():
    routes = served_routes()
    classified = {route for route, _game in EXPECTED}
    assert set(routes) - classified == set(), "Add these routes to ACCESS"
    assert classified - set(routes) == set(), "ACCESS names routes that do not exist"
    for name, pattern in routes.items():
        games = {game for route, game in EXPECTED if route == name}
        wanted = {"open", "private", "active", "secret", "finished", "missing"}
        if "<slug:code>" not in pattern:
            wanted = {"-"}
        assert games == wanted, f"{name} needs exactly the rows {sorted(wanted)}"


def test_it_classifies_every_socket_route():
    paths = {path for path, _game in EXPECTED_SOCKETS}
    routes = {route.replace("<slug:code>", "<code>") for route in socket_routes()}
    assert routes == paths


# --- the games each row is about -------------------------------------------------------------


def make_game(kind, alice, bob):
    if kind in ("open", "private"):
        game = Game.objects.create(host=alice, seat_count=3, private=kind == "private")
        Seat.objects.create(game=game, user=alice, position=0)
        Seat.objects.create(game=game, user=bob, position=1)
        return game
    if kind in ("active", "secret"):
        game = Game.objects.create(host=alice, seat_count=2, private=kind == "secret")
        Seat.objects.create(game=game, user=alice, position=0)
        Seat.objects.create(game=game, user=bob, position=1)
        return game.start()
    if kind == "finished":
        return stored_game([alice, bob], seed=7)
    return None


def url_for(route, pattern, game):
    """Return the URL of `route` about `game` (None: a missing code)."""
    code = game.code if game is not None else "nosuchgame"
    if route == "lobby:share":
        token = game.share_token if game is not None else "nosuchtoken"
        return reverse(route, args=[code, token])
    if route == "accounts:password_reset_confirm":
        return reverse(route, args=["MQ", "not-a-token"])
    if route == "accounts:confirm_email":
        return reverse(route, args=["not-a-token"])
    if route == "accounts:profile":
        return reverse(route, args=["bob"])
    if route == "accounts:block":
        return reverse(route, args=["bob"])
    if route == "games:chat_report":
        # A message of alice's in the players' chat: whoever may read it may report it.
        message_id = 999_999
        if game is not None:
            message_id = ChatMessage.objects.get_or_create(
                game=game, user=game.host, room="players", defaults={"text": "hello"}
            )[0].pk
        return reverse(route, args=[code, message_id])
    if route == "accounts:versus":
        return reverse(route, args=["alice", "bob"])
    if "<slug:code>" in pattern:
        return reverse(route, args=[code])
    return reverse(route)


def client_for(role, users):
    client = Client()
    if role != "anonymous":
        client.force_login(users[role])
    return client


def outcome(response):
    if response.status_code in (301, 302):
        if response["Location"].startswith(settings.LOGIN_URL):
            return "login"
        return "302"
    return str(response.status_code)


def attempt(role, users, method, url):
    """Make one request as `role` in a savepoint rolled back after it; return its outcome."""
    client = client_for(role, users)
    with transaction.atomic():
        response = client.get(url) if method == "GET" else client.post(url)
        transaction.set_rollback(True)
    return outcome(response)


# Who may do what is decided by the views' code, not by the database that holds the rows:
# the SQLite run only. The sockets' table below runs on both (the Redis layer carries them).
@pytest.mark.one_database
@pytest.mark.django_db
@pytest.mark.parametrize(("route", "game_kind"), list(EXPECTED), ids=lambda v: v)
def test_it_answers_each_role_as_the_table_says(route, game_kind, alice, bob, charlie):
    users = {"outsider": charlie, "player": bob, "host": alice}
    game = make_game(game_kind, alice, bob)
    url = url_for(route, served_routes()[route], game)
    wrong = []
    for role, cell in EXPECTED[route, game_kind].items():
        for method, wanted in zip(("GET", "POST"), cell.split("/")):
            if wanted == "-":
                continue
            got = attempt(role, users, method, url)
            if got != wanted:
                wrong.append(f"{method} {url} as {role}: {got}, the table says {wanted}")
    assert wrong == []


@pytest.mark.django_db
def test_it_refuses_every_post_without_a_csrf_token(alice, bob):
    # The table above posts with Django's test client, which skips the CSRF check. A real
    # browser's POST without the token is refused on every route, before any view runs.
    games = {kind: make_game(kind, alice, bob) for kind in ("active", "-")}
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)
    answered = {}
    for name, pattern in served_routes().items():
        url = url_for(name, pattern, games["active" if "<slug:code>" in pattern else "-"])
        answered[name] = client.post(url).status_code
    assert {name: status for name, status in answered.items() if status != 403} == {}


# --- sockets ---------------------------------------------------------------------------------


def socket_headers(user):
    headers = [(b"origin", b"http://localhost")]
    if user is not None:
        client = Client()
        client.force_login(user)
        cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
        headers.append((b"cookie", f"{settings.SESSION_COOKIE_NAME}={cookie}".encode()))
    return headers


async def socket_outcome(path, user, game, wanted):
    """Connect to `path` as `user`; return (what happened, the first message or None).

    A socket `wanted` to send something is given 5 seconds to (a loaded machine is slow);
    one wanted silent, 0.3 s to show it is not.
    """
    from config.asgi import application

    headers = await sync_to_async(socket_headers)(user)
    communicator = WebsocketCommunicator(application, path, headers)
    connected, _code = await communicator.connect(timeout=5)
    try:
        if not connected:
            return "refused", None
        quiet = wanted in ("silent", "echo")
        if quiet and await communicator.receive_nothing(timeout=0.3):
            # Nothing on connect: a socket that speaks only when spoken to echoes.
            await communicator.send_to(text_data="ping")
            if await communicator.receive_nothing(timeout=0.3):
                return "silent", None
            return ("echo" if await communicator.receive_from() == "ping" else "answered"), None
        try:
            first = await communicator.receive_output(timeout=5)
        except TimeoutError:
            return "silent", None
        if first["type"] == "websocket.close":
            code = first.get("code")
            return ("ended" if code == SESSION_ENDED else f"closed with {code}"), None
        return "accepted", first.get("text")
    finally:
        await communicator.disconnect()


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(("path", "game_kind"), list(EXPECTED_SOCKETS), ids=lambda v: v)
async def test_it_lets_each_role_use_each_socket_as_the_table_says(
    path, game_kind, alice, bob, charlie
):
    users = {"anonymous": None, "outsider": charlie, "player": bob, "host": alice}
    game = await sync_to_async(make_game)(game_kind, alice, bob)
    code = game.code if game is not None else "nosuchgame"
    state = await sync_to_async(game.state)() if game is not None and game.snapshot else None
    url = path.replace("<code>", code)
    wrong = []
    for role, wanted in EXPECTED_SOCKETS[path, game_kind].items():
        got, html = await socket_outcome(url, users[role], game, wanted)
        if got == "accepted":
            got = what_was_sent(wanted, html, role, state)
        if got != wanted:
            wrong.append(f"{url} as {role}: {got}, the table says {wanted}")
    assert wrong == []


def what_was_sent(wanted, html, role, state):
    """Name what an accepted socket sent first, checking the hands it shows."""
    if wanted in SOCKET_SIGNS:
        return wanted if SOCKET_SIGNS[wanted] in html else f"not {wanted}: {html[:80]!r}"
    if wanted not in ("hand", "watch") or 'id="board"' not in html:
        return f"something else: {html[:80]!r}"
    seat = {"player": 1, "host": 0}.get(role)
    shown = card_ids(html)
    for other, player in enumerate(state.players):
        if other != seat and shown & set(player.hand):
            return f"another player's hand (seat {other})"
    if seat is None:
        return "watch" if "You are watching this game" in html else "a spectator with a hand?"
    return "hand" if set(state.players[seat].hand) <= shown else "a board without the own hand"
