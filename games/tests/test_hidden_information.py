"""Hidden information never leaves the server: a whole game scanned page by page and socket by socket.

docs/rules.md section 10: each player sees their own hand and the public table;
nobody sees another player's hand, the order of the draw pile or the seed.
Three players (alice, bob, charlie) play a whole enhanced-edition game (the
edition with every action card) with random legal moves; dave watches. Every
move is posted through the move view as htmx does, and its response is
scanned; every SCAN_EVERY moves, and at the end, every page and fragment each
of them can fetch is scanned too (and must show the viewer's own hand where
it shows the board), and so are the emails sent meanwhile. A second test
reads every frame of every game socket after every move at a table of four
with two spectators, the moves made by POST, over the socket, by the worker
(a computer player, timeouts) and by a standing answer.

A scan fails a response shown to user U that holds:
  - the id of a card U may not see (another player's hand, the draw pile),
    wherever a card id is written: any `...card...="N"` attribute
    (data-card, data-card-menu) and the value of an input named card or cards;
  - the draw pile in order (its top cards in a row, as JSON or joined);
  - the seed or the generator's state, in decimal or hex;
  - the snapshot JSON (its "hand", "draw", "rng" keys, as JSON or a Python repr).
Card ids are only one way to leak a card: a name could too. So at each scan
point the cards U may not see are also dealt out again at random (the same
number in each hand and in the draw pile) and U's pages fetched once more:
they must not change at all.

After the game the review may show everything (docs/rules.md 10); the table and
the log stay as each player sees them, and are scanned to the end.
"""

import asyncio
import copy
import gc
import json
import random
import re
from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from games import rules
from games.models import Game
from games.play.emails import send_due_emails
from games.rules.bots import random_move
from games.rules.cards import HEIR, SPEEDING
from games.table.labels import fields
from games.table.memo import Memo
from games.tests.conftest import PASSWORD, START
from games.tests.review_helpers import started_game

# The game's seed (a full-size one, as new_seed makes) and the random players' seed: a game
# of about 260 decisions with payments, discards to the draw pile, Just Say Nos, Heir and
# Speeding (hands taken from).
GAME_SEED = 6917533193035088694
PLAYERS_SEED = 528
SCAN_EVERY = 25  # moves between scans of every page
DEAL_AGAIN_EVERY = 50  # moves between checks that pages do not change with hidden cards

CARD_ATTRIBUTE = re.compile(r'[\w-]*card[\w-]*="(\d+)"')
CARD_INPUT = re.compile(r"<input\b[^>]*>")
INPUT_NAME = re.compile(r'\bname="cards?"')
INPUT_VALUE = re.compile(r'\bvalue="(\d+)"')
SNAPSHOT_KEYS = ('"hand":', "'hand':", '"draw":', "'draw':", '"rng":', "'rng':", '"seed":')
CSRF_TOKEN = re.compile(r"\b[A-Za-z0-9]{64}\b")


def shown_card_ids(text):
    """Return every card id written into `text`, however a page writes one."""
    ids = {int(n) for n in CARD_ATTRIBUTE.findall(text)}
    for tag in CARD_INPUT.findall(text):
        value = INPUT_VALUE.search(tag)
        if INPUT_NAME.search(tag) and value:
            ids.add(int(value.group(1)))
    return ids


def hidden_from(state, seat):
    """Return the card ids `seat` (None: a spectator) may not see."""
    hidden = set(state.draw)
    for position, player in enumerate(state.players):
        if position != seat:
            hidden |= set(player.hand)
    return hidden


def draw_orders(draw):
    """Return ways the top of the draw pile could be written, in order (top first)."""
    top = [str(c) for c in reversed(draw[-4:])]
    if len(top) < 4:
        return []
    found = []
    for order in (top, top[::-1]):
        found += [", ".join(order), ",".join(order), " ".join(order), json.dumps(order)]
    return found


def leaks(text, state, seat, seed):
    """Return what `text`, shown to `seat`, tells that it must not."""
    found = []
    cards = shown_card_ids(text) & hidden_from(state, seat)
    if cards:
        found.append(f"hidden cards {sorted(cards)}")
    for secret in (seed, state.rng.state):
        for written in (str(secret), f"{secret:x}", f"{secret:X}"):
            # A 64-bit secret this short (1 in billions) could turn up by chance: not looked for.
            if len(written) >= 8 and written in text:
                found.append(f"the seed or generator state ({written})")
    found += [f"the draw pile in order ({o})" for o in draw_orders(state.draw) if o in text]
    found += [f"snapshot JSON ({key})" for key in SNAPSHOT_KEYS if key in text]
    return found


class Viewers:
    """The three players and the spectator, each with a logged-in client."""

    def __init__(self, game, users, spectator):
        self.game = game
        self.seats = {}
        for user in [*users, spectator]:
            client = Client()
            client.force_login(user)
            seat = game.seat_of(user)
            self.seats[user.username] = (user, seat, client)

    def __iter__(self):
        return iter(self.seats.values())

    def client_of(self, seat):
        return next(client for _user, s, client in self if s == seat)


def post_move(client, game, move):
    data = {"version": game.version}
    for name, value in fields(move.to_json()):
        data.setdefault(name, []).append(value)
    return client.post(
        reverse("games:move", args=[game.code]), data, headers={"HX-Request": "true"}
    )


def text_of(response):
    parts = [response.content.decode(errors="replace")]
    parts += [f"{name}: {value}" for name, value in response.headers.items()]
    return "\n".join(parts)


def game_pages(game):
    """Return (name, method, url, htmx) of what a user can fetch about `game` and themselves."""
    code = game.code
    return [
        ("table", "GET", reverse("games:table", args=[code]), False),
        ("table (htmx)", "GET", reverse("games:table", args=[code]), True),
        ("stale move (htmx)", "POST", reverse("games:move", args=[code]), True),
        ("take the seat back (htmx)", "POST", reverse("games:come_back", args=[code]), True),
        ("log", "GET", reverse("games:log", args=[code]), False),
        ("waiting room", "GET", reverse("lobby:table", args=[code]), False),
        ("your turn", "GET", reverse("lobby:your_turn"), False),
        ("notifications", "GET", reverse("lobby:notifications"), False),
        ("home", "GET", reverse("lobby:home"), False),
    ]


# The pages that show the board, the viewer's own hand included.
BOARD_PAGES = ("table", "table (htmx)", "stale move (htmx)", "take the seat back (htmx)")


def other_pages(users):
    """Return the pages about players rather than one game."""
    alice, bob, *_ = users
    return [
        ("tables", "GET", reverse("lobby:tables"), False),
        ("profile", "GET", reverse("accounts:profile", args=[bob.username]), False),
        ("versus", "GET", reverse("accounts:versus", args=[alice.username, bob.username]), False),
        ("leaderboard", "GET", reverse("accounts:leaderboard"), False),
        ("finished games", "GET", reverse("games:finished") + f"?player={bob.username}", False),
        ("recent games", "GET", reverse("games:recent"), False),
    ]


def fetch(client, method, url, htmx):
    headers = {"HX-Request": "true"} if htmx else {}
    if method == "POST":
        # A move from version 0: always stale, so it shows the board and changes nothing.
        return client.post(url, {"version": 0, "kind": "end"}, headers=headers)
    return client.get(url, headers=headers)


def scan_pages(viewers, pages, where):
    game = viewers.game
    game.refresh_from_db()
    state = game.state()
    version = game.version
    found = []
    for user, seat, client in viewers:
        for name, method, url, htmx in pages:
            response = fetch(client, method, url, htmx)
            assert response.status_code < 500, f"{name} as {user}: {response.status_code}"
            text = text_of(response)
            found += [
                f"{where}, {name} as {user}: {leak}" for leak in leaks(text, state, seat, game.seed)
            ]
            # An error page or a redirect shows nothing either: the board must be there.
            own = set(state.players[seat].hand) if seat is not None else set()
            if name in BOARD_PAGES and not own <= shown_card_ids(text):
                found.append(f"{where}, {name} as {user}: their own hand is not shown")
    game.refresh_from_db()
    assert game.version == version, "Fetching pages must not change the game"
    return found


def shuffled_hidden(snapshot, seat, rng):
    """Return `snapshot` with the cards `seat` may not see dealt out again at random."""
    data = copy.deepcopy(snapshot)
    pools = [p["hand"] for i, p in enumerate(data["players"]) if i != seat] + [data["draw"]]
    cards = [card for pool in pools for card in pool]
    rng.shuffle(cards)
    for pool in pools:
        pool[:], cards = cards[: len(pool)], cards[len(pool) :]
    return data


def forget_drawn():
    """Empty every Memo of the process, so that the next pages are drawn from the game as it is.

    What the table draws is kept by game and version (games/table/memo.py): a snapshot changed
    under the same version would otherwise be answered with the first drawing, whatever the
    new one would show.
    """
    for memo in [o for o in gc.get_objects() if isinstance(o, Memo)]:
        with memo._lock:
            memo._entries.clear()


def same_pages_whatever_is_hidden(viewers, rng, where, deal=shuffled_hidden):
    """Return the pages of each viewer that change when what they may not see is dealt again."""
    game = viewers.game
    game.refresh_from_db()
    snapshot = game.snapshot
    pages = [p for p in game_pages(game) if p[0] in ("table", "table (htmx)", "log", "your turn")]
    changed = []
    try:
        for user, seat, client in viewers:
            # The first visit reads notifications, which the header counts: fetch once before.
            fetch(client, *pages[0][1:])
            forget_drawn()
            before = [normal(fetch(client, m, url, h)) for _n, m, url, h in pages]
            Game.objects.filter(pk=game.pk).update(snapshot=deal(snapshot, seat, rng))
            forget_drawn()
            after = [normal(fetch(client, m, url, h)) for _n, m, url, h in pages]
            Game.objects.filter(pk=game.pk).update(snapshot=snapshot)
            changed += [
                f"{where}, {page[0]} as {user} changes with cards they cannot see"
                for page, one, other in zip(pages, before, after)
                if one != other
            ]
    finally:
        Game.objects.filter(pk=game.pk).update(snapshot=snapshot)
    return changed


def normal(response):
    """Return a response's body without what differs on every request (CSRF tokens)."""
    return CSRF_TOKEN.sub("TOKEN", response.content.decode())


def scan_emails(outbox, users, game):
    state = game.state()
    seats = {user.email: game.seat_of(user) for user in users}
    found = []
    for message in outbox:
        text = f"{message.subject}\n{message.body}\n{message.extra_headers}"
        for recipient in message.to:
            found += [
                f"email to {recipient}: {leak}"
                for leak in leaks(text, state, seats[recipient], game.seed)
            ]
    return found


@pytest.fixture
def dave(db):
    return get_user_model().objects.create_user("dave", "dave@example.com", PASSWORD)


@pytest.fixture
def three_player_game(alice, bob, charlie):
    return started_game(
        [alice, bob, charlie],
        pace=Game.Pace.CORRESPONDENCE,
        options={"enhanced": True},
        seed=GAME_SEED,
    )


@pytest.mark.one_database
@pytest.mark.django_db
def test_the_check_by_dealing_again_sees_a_change_of_what_a_viewer_may_see(
    three_player_game, alice, bob, charlie, dave
):
    """The check can fail: dealt again with their own hand, every player's table changes."""
    viewers = Viewers(three_player_game, [alice, bob, charlie], dave)

    def with_own_hand(snapshot, seat, rng):
        return shuffled_hidden(snapshot, None, rng)  # no seat: every hand is dealt again

    changed = same_pages_whatever_is_hidden(viewers, random.Random(0), "test", with_own_hand)

    for player in ("alice", "bob", "charlie"):
        assert f"test, table as {player} changes with cards they cannot see" in changed


# The pages are drawn from the game's state, the same on either database: the SQLite run only.
# The sockets' test below runs on both, the Redis layer being what carries their frames.
@pytest.mark.one_database
@pytest.mark.django_db
def test_it_shows_no_one_what_they_may_not_see_through_a_whole_game(
    three_player_game, alice, bob, charlie, dave, traveller, mailoutbox
):
    game = three_player_game
    users = [alice, bob, charlie]
    viewers = Viewers(game, users, dave)
    rng = random.Random(PLAYERS_SEED)
    dealer = random.Random(0)  # deals the hidden cards again; apart, so the game stays the same
    found = scan_pages(viewers, game_pages(game) + other_pages(users), "at the deal")
    moves = 0
    seen_kinds = set()
    while game.status == Game.Status.ACTIVE:
        state = game.state()
        seat = rng.choice(rules.awaiting(state))[0]
        move = random_move(state, seat, rng)
        version = game.version
        response = post_move(viewers.client_of(seat), game, move)
        game.refresh_from_db()
        assert response.status_code == 200 and game.version > version, f"{move} was not played"
        moves += 1
        seen_kinds.add(move.kind)
        effect = state.deck[move.card].effect if move.kind == "play" else None
        seen_kinds.add(effect)
        where = f"after move {moves} ({move.kind} {effect or ''})"
        found += [
            f"{where}, move response: {leak}"
            for leak in leaks(text_of(response), game.state(), seat, game.seed)
        ]
        if game.status != Game.Status.ACTIVE:
            break
        if moves % SCAN_EVERY == 0:
            found += scan_pages(viewers, game_pages(game), where)
            send_due_emails(now=START + timedelta(days=2, hours=12))
        elif effect in (HEIR, SPEEDING):
            # A hand is being taken from: every board, as each viewer sees it.
            found += scan_pages(viewers, game_pages(game)[:3], where)
        if moves % DEAL_AGAIN_EVERY == 0:
            found += same_pages_whatever_is_hidden(viewers, dealer, where)
        if moves == 5 * SCAN_EVERY:
            found += scan_pages(viewers, other_pages(users), where)
    found += scan_pages(viewers, game_pages(game) + other_pages(users), "after the end")
    found += same_pages_whatever_is_hidden(viewers, dealer, "after the end")
    found += scan_emails(mailoutbox, users, game)

    assert found == []
    # The game went through what hides cards: payments, discards to the draw pile, answers.
    assert {"accept", "discard", "just_say_no", HEIR, SPEEDING} <= seen_kinds
    assert mailoutbox, "the correspondence game sent emails to scan"


# --- sockets ---------------------------------------------------------------------------------


def session_headers(user):
    client = Client()
    client.force_login(user)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
    return [
        (b"origin", b"http://localhost"),
        (b"cookie", f"{settings.SESSION_COOKIE_NAME}={cookie}".encode()),
    ]


async def open_sockets(paths_by_user):
    from config.asgi import application

    sockets = []
    for user, path in paths_by_user:
        headers = await sync_to_async(session_headers)(user)
        socket = WebsocketCommunicator(application, path, headers)
        connected, _code = await socket.connect(timeout=5)
        assert connected, f"{path} as {user}"
        sockets.append((user, socket))
    return sockets


@pytest.fixture
def erin(db):
    return get_user_model().objects.create_user("erin", "erin@example.com", PASSWORD)


@pytest.fixture
def four_seats_with_a_computer(alice, bob, charlie):
    """An enhanced-edition game of alice, bob, charlie and a basic computer player.

    Alice pays by her standing answer (the site pays for her at once).
    """
    from games.play.bots import bot_account

    get_user_model().objects.filter(pk=alice.pk).update(pay_rule="least")
    bot = bot_account("basic", 1)
    return started_game([alice, bob, charlie, bot], options={"enhanced": True}, seed=GAME_SEED)


VERSION_ATTRIBUTE = re.compile(r'data-version="(\d+)"')


def states_since(state, rows):
    """Return {version: engine state} from `state` through the Move `rows` made after it."""
    states = {}
    state = rules.GameState.from_json(state.to_json())
    for row in rows:
        rules.apply(state, row.seat, rules.Move.from_json(row.move))
        states[row.n + 1] = rules.GameState.from_json(state.to_json())
    return states


def socket_message(move, version):
    """Return a move form's fields as htmx-ext-ws sends them over the socket."""
    data = {"version": str(version), "HEADERS": {"HX-Request": "true"}}
    for name, value in fields(move.to_json()):
        data.setdefault(name, []).append(value)
    return json.dumps(data)


@pytest.mark.django_db(transaction=True)
async def test_it_sends_no_socket_what_its_user_may_not_see_after_any_move(
    traveller, four_seats_with_a_computer, alice, bob, charlie, dave, erin, monkeypatch
):
    """Every frame each socket receives, after every move, however it was made.

    Four seats (three people and a computer player) and two spectators. Moves
    are posted (htmx), sent over the mover's socket, made by the worker for
    the computer player, and made for a player whose time ran out; alice's
    payments are made by her standing answer. After each, every socket is
    read until it shows the game's new version, and each frame is judged
    against the state at the version it was drawn from.
    """
    from games.play import bots
    from games.play.clocks import enforce_deadlines

    monkeypatch.setattr(bots, "THINKING_SECONDS", 0)
    game = four_seats_with_a_computer
    rng = random.Random(PLAYERS_SEED)
    users = [alice, bob, charlie]
    watchers = [*users, dave, erin]
    clients = {}
    for user in users:
        clients[user.pk] = Client()
        await sync_to_async(clients[user.pk].force_login)(user)
    seats = {user.pk: await sync_to_async(game.seat_of)(user) for user in watchers}
    bot_seat = 3
    sockets = await open_sockets([(u, f"/ws/games/{game.code}/") for u in watchers])
    socket_of = {user.pk: socket for user, socket in sockets}
    found = []
    made = {}

    async def read_until(version, states, where):
        for user, socket in sockets:
            while True:
                html = await socket.receive_from(timeout=10)
                shown = [int(v) for v in VERSION_ATTRIBUTE.findall(html)]
                state = states.get(max(shown, default=version), states[version])
                found.extend(
                    f"{where}, socket as {user}: {leak}"
                    for leak in leaks(html, state, seats[user.pk], game.seed)
                )
                if shown and max(shown) >= version:
                    break

    def step():
        game.refresh_from_db()
        before, state = game.version, game.state()
        seat = rng.choice(rules.awaiting(state))[0]
        move = bots.bot_move(state, seat, "basic", rng.randrange(2**32))
        choice = rng.random()
        if seat == bot_seat:
            how = "worker (computer player)"
            traveller.shift(bots.PAUSE)
            assert bots.play_bot_moves() == 1
        elif choice < 0.1:
            how = "worker (timeout)"
            traveller.shift(timedelta(minutes=2))  # a live game's 60 seconds, and more
            assert enforce_deadlines() >= 1
        elif choice < 0.55:
            how = "POST"
            user = next(u for u in users if seats[u.pk] == seat)
            response = post_move(clients[user.pk], game, move)
            assert response.status_code == 200
        else:
            how = "socket"
            user = next(u for u in users if seats[u.pk] == seat)
            return how, before, state, (user, socket_message(move, before))
        return how, before, state, None

    async def settled(before, state):
        version = await sync_to_async(lambda: Game.objects.get(pk=game.pk).version)()
        rows = await sync_to_async(lambda: list(game.moves.filter(n__gte=before).order_by("n")))()
        return version, {before: state, **states_since(state, rows)}, rows

    try:
        game_state = await sync_to_async(game.state)()
        await read_until(game.version, {game.version: game_state}, "at the deal")
        moves = 0
        while True:
            how, before, state, send = await sync_to_async(step)()
            if send is not None:
                user, message = send
                await socket_of[user.pk].send_to(text_data=message)
                for _ in range(100):  # the move is made in the consumer's thread
                    version, states, rows = await settled(before, state)
                    if version > before:
                        break
                    await asyncio.sleep(0.05)
            version, states, rows = await settled(before, state)
            assert version > before, f"move {moves} ({how}) was not made"
            moves += 1
            made[how] = made.get(how, 0) + 1
            for row in rows:
                effect = None
                if row.move["kind"] == "play":
                    effect = state.deck[row.move["card"]].effect
                made.setdefault(effect or row.move["kind"], 0)
            await read_until(version, states, f"after move {moves} ({how})")
            if not await sync_to_async(
                lambda: Game.objects.filter(pk=game.pk, status=Game.Status.ACTIVE).exists()
            )():
                break
        # The other sockets of its players and watchers: the header's and the waiting room's.
        others = await open_sockets(
            [(u, "/ws/me/") for u in watchers] + [(u, f"/ws/lobby/{game.code}/") for u in watchers]
        )
        sockets += others
        final = await sync_to_async(game.state)()
        for user, socket in others:
            html = await socket.receive_from(timeout=10)
            found += [
                f"at the end, {user}'s other socket: {leak}"
                for leak in leaks(html, final, seats[user.pk], game.seed)
            ]
    finally:
        for _user, socket in sockets:
            await socket.disconnect()

    assert found == []
    # Every way a move is made, and the moves that hide or take cards, were scanned.
    ways = {"POST", "socket", "worker (computer player)", "worker (timeout)"}
    assert ways <= set(made), made
    assert {"accept", "discard", "just_say_no"} <= set(made), made
