"""Everyone answers at once (docs/rules.md section 11): a move is judged against what its player was asked.

An action aimed at several players (It's My Birthday, an "everyone pays" rent)
is answered by each of them independently. An answer made from a board that
is older only by other targets' answers to the same action is applied; a move
whose own question changed since (its player answered already, in another
tab; the action was stopped by a Just Say No) is refused as stale.
"""

import asyncio
import random

import pytest
from asgiref.sync import sync_to_async
from django.contrib.auth import get_user_model
from django.test import Client

from games import rules
from games.models import Game, Seat
from games.rules.bots import bot_move
from games.rules.position import card_in
from games.tests.helpers import post_move, set_position, state_of
from games.tests.test_consumer import receive
from games.tests.test_socket_moves import answers_until, at_version, close, opened, send_move

STALE = "The board has changed since you saw it"

BIRTHDAY = """
players: alice bob charlie dave
turn: alice
plays: 3
alice hand: birthday 1M
bob hand: just_say_no pass_go
bob bank: 2M 5M
charlie hand: just_say_no pass_go
charlie bank: 2M 3M
dave hand: just_say_no 1M
dave bank: 2M 4M
"""
TARGETS = ("bob", "charlie", "dave")


@pytest.fixture
def four(alice, bob, charlie):
    dave = get_user_model().objects.create_user("dave", "dave@example.com", "x")
    game = Game.objects.create(host=alice, seat_count=4)
    for position, user in enumerate((alice, bob, charlie, dave)):
        Seat.objects.create(game=game, user=user, position=position)
    return game.start()


def client_of(user):
    client = Client()
    client.force_login(user)
    return client


def birthday(game, alice):
    """Put BIRTHDAY on `game` and play alice's Birthday; return (state as named, version)."""
    state = set_position(game, BIRTHDAY)
    card = card_in(state, "alice", "hand", "birthday")
    response = post_move(client_of(alice), game, kind="play", card=card, htmx=True)
    assert STALE not in response.content.decode()
    game.refresh_from_db()
    assert game.state().phase == "respond"
    return state, game.version


def two_million(state, name):
    return card_in(state, name, "bank", "2M")


def payment_fields(state, name):
    """Return the fields of `name`'s payment of their 2M, as a page sends them."""
    seat = state.seats.index(name)
    return {"kind": "accept", "share": str(seat), "cards": [str(two_million(state, name))]}


def pays_two(game, user, state, version):
    """Post `user`'s payment of their 2M from board `version` (htmx); return the response."""
    return post_move(client_of(user), game, version, True, **payment_fields(state, user.username))


@pytest.mark.django_db
def test_it_applies_every_targets_answer_made_from_the_board_they_all_saw(four, alice):
    state, version = birthday(four, alice)
    users = {seat.user.username: seat.user for seat in four.seats.select_related("user")}
    for name in TARGETS:
        response = pays_two(four, users[name], state, version)
        assert STALE not in response.content.decode(), name

    after = state_of(four)
    assert after.phase == "play"
    paid = {two_million(state, name) for name in TARGETS}
    assert paid <= set(after.players[0].bank)
    for name in TARGETS:
        assert two_million(state, name) not in after.players[state.seats.index(name)].bank
    assert four.moves.filter(move__kind="accept").count() == 3


@pytest.mark.django_db
def test_it_refuses_a_second_copy_of_an_answer_and_changes_nothing(four, alice, bob):
    state, version = birthday(four, alice)
    first = pays_two(four, bob, state, version)
    assert STALE not in first.content.decode()
    four.refresh_from_db()
    before = (four.snapshot, four.version, four.moves.count())

    second = pays_two(four, bob, state, version)  # another tab's copy

    assert STALE in second.content.decode()
    four.refresh_from_db()
    assert (four.snapshot, four.version, four.moves.count()) == before


@pytest.mark.django_db
def test_it_refuses_an_answer_whose_action_was_stopped_for_that_player(four, alice, bob, charlie):
    state, version = birthday(four, alice)
    users = {seat.user.username: seat.user for seat in four.seats.select_related("user")}
    # Bob says no from one tab; his payment from another tab, made from the board before, is
    # an answer to a question that is no longer asked of him.
    response = post_move(client_of(bob), four, version, True, kind="just_say_no", share=1)
    assert STALE not in response.content.decode()
    four.refresh_from_db()
    before = (four.snapshot, four.version, four.moves.count())
    stale = pays_two(four, bob, state, version)
    assert STALE in stale.content.decode()
    four.refresh_from_db()
    assert (four.snapshot, four.version, four.moves.count()) == before
    # Charlie's and Dave's questions did not change: their answers from the first board stand.
    for name in ("charlie", "dave"):
        paid = pays_two(four, users[name], state, version)
        assert STALE not in paid.content.decode(), name
    assert four.moves.filter(move__kind="accept").count() == 2


@pytest.mark.django_db
def test_it_refuses_a_move_from_a_board_newer_than_the_game(four, alice, bob):
    state, version = birthday(four, alice)
    response = pays_two(four, bob, state, version + 5)
    assert STALE in response.content.decode()
    assert state_of(four).phase == "respond"


@pytest.mark.django_db
def test_a_seats_question_is_kept_by_others_answers_and_moved_by_its_own(four, alice, bob):
    state, version = birthday(four, alice)
    assert four.asked_versions[1:] == [version] * 3
    pays_two(four, bob, state, version)
    four.refresh_from_db()
    assert four.asked_versions[1:] == [version + 1, version, version]


# --- over the game socket: all at once -------------------------------------------------------


@pytest.mark.django_db(transaction=True)
async def test_every_target_answering_over_its_socket_at_once_is_applied_once(four, alice):
    state, version = await sync_to_async(birthday)(four, alice)
    users = await sync_to_async(lambda: [s.user for s in four.seats.select_related("user")])()
    sockets = await opened(four, *users)
    try:
        await asyncio.gather(
            *(
                send_move(
                    sockets[state.seats.index(name)], four, version, **payment_fields(state, name)
                )
                for name in TARGETS
            )
        )
        # Each socket is read up to the board with every payment made (3 moves after the ask).
        answers = [await answers_until(socket, at_version(version + 3)) for socket in sockets]
    finally:
        await close(sockets)

    assert not any(STALE in html for messages in answers for html in messages)
    after = await sync_to_async(state_of)(four)
    paid = {two_million(state, name) for name in TARGETS}
    assert paid <= set(after.players[0].bank) and after.phase == "play"
    accepts = await sync_to_async(lambda: list(four.moves.filter(move__kind="accept")))()
    assert sorted(m.seat for m in accepts) == [1, 2, 3]  # each answer exactly once


@pytest.mark.django_db(transaction=True)
async def test_a_targets_hand_is_not_drawn_again_when_another_target_pays(four, alice):
    state, version = await sync_to_async(birthday)(four, alice)
    users = await sync_to_async(lambda: [s.user for s in four.seats.select_related("user")])()
    sockets = await opened(four, *users)
    try:
        await send_move(sockets[1], four, version, **payment_fields(state, "bob"))
        bob_board = await receive(sockets[1])
        charlie_board = await receive(sockets[2])
    finally:
        await close(sockets)

    assert 'id="hand"' in bob_board  # his question changed: his prompt goes
    assert 'id="hand"' not in charlie_board  # hers did not: what she ticked stays ticked
    assert 'id="status"' in charlie_board  # but she sees that Bob has paid


# --- whole games, every target answering from the board it was shown -------------------------


def play_whole_game(players, seed):
    """Play a game of `players` basic computer moves through the move URL; return it.

    When several seats are asked at once, a random one answers first, and
    each answers from the version at which its own decisions were first
    shown, as a person at a table would. Every move must apply.
    """
    User = get_user_model()
    users = [
        User.objects.create_user(f"p{seed}x{n}", f"p{seed}x{n}@example.com", "x")
        for n in range(players)
    ]
    game = Game.objects.create(host=users[0], seat_count=players, seed=seed)
    for position, user in enumerate(users):
        Seat.objects.create(game=game, user=user, position=position)
    game.start()
    clients = [client_of(user) for user in users]
    rng = random.Random(seed)
    shown = {}  # seat: (its decisions, the version at which they were first shown)
    older = 0  # moves made from a board older than the game's version
    for _step in range(3000):
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            break
        state = game.state()
        waiting = {}
        for seat, decision, share in rules.awaiting(state):
            waiting.setdefault(seat, []).append((decision, share))
        for seat, decisions in waiting.items():
            if shown.get(seat, (None,))[0] != decisions:
                shown[seat] = (decisions, game.version)
        seat = rng.choice(sorted(waiting))
        move = bot_move(state, seat, "basic", rng.randrange(2**32))
        current = game.version  # the next move is numbered so
        fields = move.to_json()
        _decisions, version = shown.pop(seat)  # its own move draws its board again
        older += version < current
        post_move(clients[seat], game, version, **fields)
        made = list(game.moves.filter(n__gte=current).order_by("n")[:1])
        assert made and made[0].seat == seat and made[0].move == fields, (
            f"seed {seed}: the move of seat {seat} from version {version} was refused"
        )
    assert game.status == Game.Status.FINISHED, f"seed {seed}"
    assert game.replay() == game.state(), f"seed {seed}: the log does not replay to the end"
    return game, older


@pytest.mark.django_db
@pytest.mark.parametrize(("players", "seed"), [(4, 36), (5, 37)])
def test_whole_games_where_every_target_answers_from_the_board_it_saw(players, seed):
    _game, older = play_whole_game(players, seed)
    # Answers made from an older board were indeed made (else the test proves nothing).
    assert older > 0


@pytest.mark.django_db
def test_a_computer_players_answer_between_a_persons_view_and_click_refuses_nothing(
    four, alice, charlie, traveller, monkeypatch
):
    from games.play import bots

    monkeypatch.setattr(bots, "THINKING_SECONDS", 0)
    get_user_model().objects.filter(username="dave").update(bot_level="basic")
    state, version = birthday(four, alice)
    traveller.shift(bots.PAUSE)
    assert bots.play_bot_moves() == 1  # dave's answer, after charlie's board was drawn
    assert four.moves.filter(seat=3).exists()

    response = pays_two(four, charlie, state, version)

    assert STALE not in response.content.decode()
    assert four.moves.filter(seat=2, move__kind="accept").exists()
