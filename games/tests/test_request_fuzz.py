"""Junk in, no harm done: posted fields, socket frames and query strings chosen by hypothesis.

What the move view answers (games/views.py `move`), and what these tests hold it to:

- A malformed move, one whose fields make no move at all (no version or not a
  number, a card, share or player that is not a whole number, an unknown kind,
  too many cards): 400 Bad Request, with the reason as a short plain-text
  message ("Cards, players and shares are given by number."). A real form of
  the table never sends one, so there is no board to redraw.
- A well-formed move the rules refuse, or one made from a board that has
  changed since it was drawn (its version is not the current one): the
  normal answer to a move, with the reason as a message. Without htmx a
  302 back to the table, the message shown there; with htmx a 200 with the
  redrawn board and the message in its flash fragment. These are the
  mistakes a real player makes (two tabs, a slow click): they see the board
  as it is now and why their move did not count.
- Never a 500, and a move that is refused changes nothing: the snapshot, the
  version and the number of Move rows are as they were.

Each example runs in a savepoint that is rolled back after it, so a move
that happens to be legal is undone before the next example; the before and
after of a refused move are compared explicitly, never assumed.
"""

from urllib.parse import quote, urlencode

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings as django_settings
from django.contrib.messages import get_messages
from django.db import transaction
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, event, given, settings, strategies as st

from games.models import Game, Move
from games.rules import COLOURS, legal_moves
from games.rules.moves import KINDS
from games.rules.position import position
from games.table.labels import fields as fields_of
from games.tests.helpers import set_position, snapshot_of
from games.tests.review_helpers import stored_game
from lobby.tests.conftest import open_table

FUZZ = settings(
    max_examples=120,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

# Alice to play, with cards for most kinds of move, so that some junk is close to legal.
POSITION = """
players: alice bob
turn: alice
plays: 3
alice hand: 5M red red/yellow sly_deal rent:red/yellow just_say_no double_rent
alice table: red: red
bob hand: 1M
bob bank: 2M
bob table: yellow: yellow
"""

# --- what junk looks like ----------------------------------------------------------------

numbers = st.one_of(
    st.integers(min_value=-5, max_value=130),
    st.integers(min_value=-(10**30), max_value=10**30),
).map(str)
odd_numbers = st.sampled_from(
    [
        "9" * 5000,  # more digits than int() reads
        "-0",
        "+1",
        " 7 ",
        "1_000",
        "1e3",
        "0x10",
        "NaN",
        "inf",
        "١٢",  # Arabic-Indic digits, which int() accepts
        "１",  # a fullwidth one
        "²",
        "",
    ]
)
json_junk = st.sampled_from(
    ['{"kind": "end"}', "[1, 2]", "null", "true", "\x00", "' OR 1=1 --", "<script>", "%00"]
)
# Lone surrogates cannot be encoded by any client: everything else can be sent.
words = st.text(st.characters(exclude_categories=["Cs"]), max_size=40)
values = st.one_of(
    numbers,
    odd_numbers,
    json_junk,
    words,
    st.sampled_from([*KINDS, "END", "resign", "bank "]),
    st.sampled_from([*COLOURS, "purple", "RED"]),
)
names = st.one_of(
    st.sampled_from(
        ["kind", "card", "cards", "targets", "share", "colour", "version", "cards[]", "targets[]"]
    ),
    words,
)
pairs = st.lists(st.tuples(names, values), max_size=12)


small = st.integers(min_value=-2, max_value=120).map(str)
# Fields as the table's forms send them, with values that are numbers but mostly wrong ones.
plausible = st.tuples(
    st.lists(st.tuples(st.sampled_from(["card", "share", "targets", "cards"]), small), max_size=5),
    st.lists(st.tuples(st.just("colour"), st.sampled_from([*COLOURS, "any"])), max_size=1),
).map(lambda both: both[0] + both[1])


# Alice's legal moves as her forms post them; junk pairs may be added to them.
LEGAL = [
    [(k, str(v)) for k, v in fields_of(m.to_json())] for m in legal_moves(position(POSITION), 0)
]
legal = st.tuples(st.sampled_from(LEGAL), pairs).map(lambda both: both[0] + both[1][:2])


@st.composite
def move_posts(draw):
    """Return (fields as (name, value) pairs, how to send them, body, htmx?, who posts)."""
    fields = list(draw(st.one_of(pairs, plausible, legal)))
    # Most posts name a kind and the current version, to get past the first checks.
    if draw(st.integers(0, 4)) and not any(name == "kind" for name, _value in fields):
        fields.append(("kind", draw(st.sampled_from(KINDS))))
    version = draw(st.sampled_from(["current"] * 4 + ["stale", "none", "junk"]))
    if version == "junk":
        fields.append(("version", draw(values)))
    elif version != "none":
        fields.insert(draw(st.integers(0, len(fields))), ("version", version))
    encoding = draw(st.sampled_from(["form"] * 6 + ["multipart", "json", "bytes"]))
    body = draw(st.binary(max_size=200)) if encoding == "bytes" else None
    return fields, encoding, body, draw(st.booleans()), draw(st.sampled_from(["alice", "bob"]))


def post(client, url, fields, encoding, body, htmx):
    headers = {"HX-Request": "true"} if htmx else {}
    if encoding == "form":
        data = urlencode(fields)
        return client.post(url, data, "application/x-www-form-urlencoded", headers=headers)
    if encoding == "multipart":
        grouped = {}
        for name, value in fields:
            grouped.setdefault(name, []).append(value)
        return client.post(url, grouped, headers=headers)
    if encoding == "json":
        return client.post(url, dict(fields), "application/json", headers=headers)
    return client.post(url, body, "application/x-www-form-urlencoded", headers=headers)


def messages_of(response):
    return [str(m) for m in get_messages(response.wsgi_request)]


@pytest.fixture
def clients(alice, bob):
    """Return a function giving a new logged-in client: no messages left from an earlier example."""

    def client_of(username):
        client = Client()
        client.force_login(alice if username == "alice" else bob)
        return client

    return client_of


@pytest.mark.django_db
@FUZZ
@given(move_posts())
def test_it_answers_any_posted_move_with_a_reason_and_changes_nothing_it_refuses(
    table_game, clients, example
):
    fields, encoding, body, htmx, poster = example
    set_position(table_game, POSITION)
    table_game.refresh_from_db()
    current = str(table_game.version)
    fields = [
        (name, {"current": current, "stale": "0"}.get(value, value) if name == "version" else value)
        for name, value in fields
    ]
    url = reverse("games:move", args=[table_game.code])
    before = snapshot_of(table_game)
    with transaction.atomic():
        response = post(clients(poster), url, fields, encoding, body, htmx)
        after = snapshot_of(table_game)
        played = after != before
        if played:
            # A legal move from the current board: applied once, by the one who posted it.
            assert after[1] > before[1] and after[2] > before[2]
            first = Move.objects.get(game=table_game, n=before[1])
            assert first.seat == (0 if poster == "alice" else 1)
        transaction.set_rollback(True)

    event(f"{response.status_code}, {'played' if played else 'refused'}")
    assert response.status_code in (200, 302, 400), response.status_code
    if response.status_code == 400:
        assert not played
        assert response["Content-Type"].startswith("text/plain")
        assert len(response.content.decode()) > 10  # a sentence, not a bare code
        return
    if response.status_code == 302:
        assert response["Location"] == table_game.get_absolute_url()
        told = messages_of(response)
    else:
        assert htmx and 'id="board"' in response.content.decode()
        told = [] if 'role="alert"' not in response.content.decode() else ["a flash message"]
    # A refused move always says why; a played one is not reported as refused.
    assert played or told, f"refused in silence: {fields}"
    if played:
        assert not told


# --- the sockets ------------------------------------------------------------------------------

frames = st.lists(
    st.one_of(
        st.one_of(words, json_junk).map(lambda text: ("text", text)),
        st.binary(max_size=300).map(lambda data: ("bytes", data)),
    ),
    min_size=1,
    max_size=6,
)


def session_headers(user):
    client = Client()
    client.force_login(user)
    cookie = client.cookies[django_settings.SESSION_COOKIE_NAME].value
    return [
        (b"origin", b"http://localhost"),
        (b"cookie", f"{django_settings.SESSION_COOKIE_NAME}={cookie}".encode()),
    ]


# A frame the game socket always answers, and how: sent after the junk, its answer shows
# that every frame before it was handled and that the socket still takes moves.
SENTINEL = '{"kind": "end"}'
SENTINEL_ANSWER = "The move does not say which board it was made from."


async def send_junk(path, user, sent):
    """Open `path` as `user`, send `sent`; return what came back after the first message.

    The game socket is read up to its answer to SENTINEL; the others, which answer
    nothing (the echo socket each frame), until they are quiet.
    """
    from config.asgi import application

    headers = await sync_to_async(session_headers)(user)
    socket = WebsocketCommunicator(application, path, headers)
    connected, _code = await socket.connect(timeout=5)
    assert connected, path
    try:
        if not path.startswith("/ws/echo/"):
            await socket.receive_from(timeout=5)  # every app socket starts with a render
        answers = []
        for kind, frame in sent:
            await socket.send_input({"type": "websocket.receive", kind: frame})
        if path.startswith("/ws/games/"):
            await socket.send_to(text_data=SENTINEL)
            while True:
                answer = await socket.receive_output(timeout=5)
                if SENTINEL_ANSWER in answer.get("text", ""):
                    return answers
                answers.append(answer)
        # The echo socket answers each frame; the others answer nothing and stay open.
        while not await socket.receive_nothing(timeout=0.1):
            answers.append(await socket.receive_output(timeout=1))
        return answers
    finally:
        await socket.disconnect()


@pytest.mark.django_db(transaction=True)
@settings(
    max_examples=10,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(frames)
def test_it_ignores_anything_sent_on_a_socket(table_game, alice, sent):
    before = snapshot_of(table_game)
    for path in ("/ws/lobby/", f"/ws/lobby/{table_game.code}/"):
        assert async_to_sync(send_junk)(path, alice, sent) == []
    # The game socket takes moves (games/live/moves.py): a JSON object that makes no move
    # gets a readable refusal in the page's flash; anything else (not JSON, not an object,
    # too long, bytes) is dropped without a word, and the socket still answers what follows.
    for answer in async_to_sync(send_junk)(f"/ws/games/{table_game.code}/", alice, sent):
        text = answer["text"]
        assert text.lstrip().startswith('<div id="flash"') and 'role="alert"' in text
    assert async_to_sync(send_junk)("/ws/me/", alice, sent) == []
    echoed = async_to_sync(send_junk)("/ws/echo/", alice, sent)
    assert [(k, m.get(k)) for (k, _f), m in zip(sent, echoed)] == sent, "echoes each frame"
    assert snapshot_of(table_game) == before


# --- the lobby's forms and the other posts -----------------------------------------------------

table_fields = st.lists(
    st.tuples(
        st.one_of(
            st.sampled_from(
                [
                    "seat_count",
                    "enhanced",
                    "built_sets",
                    "wild_moves_cost_a_play",
                    "pace",
                    "pace_seconds",
                    "pace_days",
                    "reserve_days",
                    "private",
                    "with_bots",
                    "bot_level",
                    "level",
                    "username",
                ]
            ),
            words,
        ),
        st.one_of(
            values, st.sampled_from(["on", "live", "correspondence", "60", "3", "4", "basic"])
        ),
    ),
    max_size=14,
)

LOBBY_POSTS = [
    "create",
    "play_computer",
    "quick_game",
    "invite",
    "join",
    "leave",
    "start",
    "cancel",
    "read_notifications",
]


@pytest.mark.django_db
@FUZZ
@given(st.sampled_from(LOBBY_POSTS), table_fields, st.booleans(), st.sampled_from(["alice", "bob"]))
def test_it_answers_any_lobby_post_without_an_error(alice, bob, clients, view, fields, htmx, who):
    client = clients(who)
    with transaction.atomic():
        table = open_table(alice, bob)  # alice's, bob seated, a seat free
        urls = {
            "create": reverse("lobby:create"),
            "play_computer": reverse("lobby:play_computer"),
            "quick_game": reverse("lobby:quick_game"),
            "read_notifications": reverse("lobby:read_notifications"),
        }
        url = urls.get(view) or reverse(f"lobby:{view}", args=[table.code])
        games = Game.objects.count()
        response = post(client, url, fields, "form", None, htmx)
        created = Game.objects.count() - games
        transaction.set_rollback(True)

    assert response.status_code in (200, 302, 403), response.status_code
    if response.status_code == 403:
        assert who == "bob" and view in ("invite", "start", "cancel")  # the host's buttons
    if view == "create" and response.status_code == 200:
        assert "errorlist" in response.content.decode() and not created
    if view == "play_computer" and response.status_code == 200:
        assert 'role="alert"' in response.content.decode() and not created
    if view == "invite" and response.status_code == 200:
        page = response.content.decode()
        assert "errorlist" in page or "is invited" in page


GET_QUERIES = st.sampled_from(
    [
        ("games:review", True, ["move", "as"]),
        ("games:finished", False, ["player", "opponent", "page"]),
        ("games:recent", False, ["page"]),
        ("accounts:leaderboard", False, ["edition"]),
        ("lobby:tables", False, []),
        ("lobby:your_turn", False, []),
    ]
)


@pytest.mark.django_db
@FUZZ
@given(GET_QUERIES, st.lists(st.tuples(names, values), max_size=6), st.booleans(), st.data())
def test_it_answers_any_query_string_without_an_error(
    alice, bob, clients, finished_game, page, junk, htmx, data
):
    route, about_game, known = page
    args = [finished_game.code] if about_game else []
    query = [(data.draw(st.sampled_from(known)), value) for _name, value in junk if known]
    query += junk
    headers = {"HX-Request": "true"} if htmx else {}
    response = clients("bob").get(
        reverse(route, args=args) + "?" + urlencode(query), headers=headers
    )

    # An unknown player in ?player= is a 404; everything else falls back to a default.
    assert response.status_code in (200, 404), response.status_code
    if response.status_code == 404:
        assert route == "games:finished"


@pytest.fixture
def finished_game(alice, bob):
    return stored_game([alice, bob], seed=11)


@pytest.mark.django_db
@FUZZ
@given(st.lists(words, min_size=1, max_size=2), st.sampled_from(["alice", "bob", "nobody"]))
def test_it_answers_any_username_in_a_path_without_an_error(alice, bob, clients, typed, known):
    names = [name.replace("/", "") or known for name in typed]
    if len(names) == 1:
        url = f"/accounts/u/{quote(names[0])}/"
    else:
        url = f"/accounts/u/{quote(names[0])}/vs/{quote(names[1])}/"
    response = clients("bob").get(url)

    assert response.status_code in (200, 404), response.status_code


@pytest.mark.django_db
@pytest.mark.parametrize(
    "url",
    [
        "/games/finished/?player=%00",
        "/games/finished/?player=bob&opponent=al%00ice",
        "/accounts/u/%00/",
        "/accounts/u/bob/vs/%00/",
    ],
)
def test_it_answers_a_nul_in_a_username_with_not_found(alice, bob, clients, url):
    # PostgreSQL refuses a NUL in a query: it once made these pages fail with a 500.
    assert clients("bob").get(url).status_code == 404
