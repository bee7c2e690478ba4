"""Deadlines, the correspondence reserve, timeouts and absent players (issue 4).

Time is moved with time_machine, never slept through.
"""

import threading
from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.core.management import call_command
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from games import rules
from games.models import Game, Move, Notification, Seat, StaleBoard, game as game_module
from games.models.game import _Before
from games.play.clocks import enforce_deadlines
from games.rules.position import card_in
from lobby.templatetags.notifications import in_words

from .conftest import START
from .helpers import set_position, state_of

pytestmark = pytest.mark.django_db

DAY = timedelta(days=1)


def make_game(users, pace="live", **fields):
    fields.setdefault("seed", 7)
    game = Game.objects.create(host=users[0], seat_count=len(users), pace=pace, **fields)
    for position, user in enumerate(users):
        Seat.objects.create(game=game, user=user, position=position)
    return game.start()


@pytest.fixture
def live(traveller, alice, bob):
    return make_game([alice, bob], pace_seconds=60)


@pytest.fixture
def live_trio(traveller, alice, bob, charlie):
    return make_game([alice, bob, charlie], pace_seconds=60)


@pytest.fixture
def slow(traveller, alice, bob):
    """A correspondence game: 3 days a decision, 3 days of reserve."""
    return make_game([alice, bob], pace="correspondence", pace_days=3, reserve_days=3)


def seat(game, position):
    return Seat.objects.get(game=game, position=position)


def current(game):
    return state_of(game).current


def test_it_gives_the_awaited_player_one_decision_time(live, slow):
    for game, period in ((live, timedelta(seconds=60)), (slow, 3 * DAY)):
        turn = current(game)
        waiting = seat(game, turn)
        assert waiting.deadline == START + period
        assert waiting.awaited_since == START
        assert seat(game, 1 - turn).deadline is None
        game.refresh_from_db()
        assert game.turn_deadline == START + period


def test_it_gives_correspondence_players_a_reserve_and_live_players_none(live, slow):
    assert seat(slow, 0).reserve == seat(slow, 1).reserve == 3 * DAY
    turn = current(slow)
    assert seat(slow, turn).timeout_at == START + 6 * DAY
    assert seat(live, 0).reserve == timedelta(0)
    assert seat(live, current(live)).timeout_at == START + timedelta(seconds=60)


def test_it_keeps_the_clock_running_through_the_moves_of_one_turn(traveller, slow):
    turn = current(slow)
    state = state_of(slow)
    play = next(m for m in rules.legal_moves(state, turn) if m.kind in ("bank", "lay"))
    traveller.shift(DAY)
    slow.play(turn, play)
    assert seat(slow, turn).deadline == START + 3 * DAY, "a play within the turn is no new decision"


def hold_turn(game, text):
    """Put `text` on `game`, its first player waited for with 3 days from START."""
    state = set_position(game, text)
    game.seats.update(awaited_since=None, deadline=None, timeout_at=None)
    game.seats.filter(position=0).update(
        awaited_since=START, deadline=START + 3 * DAY, timeout_at=START + 6 * DAY
    )
    game.refresh_from_db()
    return state


def debt_collector_turn(traveller, game, waited):
    """alice, 3 Debt Collectors in hand, plays one at bob after `waited`; bob pays a day later."""
    state = hold_turn(
        game,
        """
        players: alice bob
        turn: alice
        alice hand: debt_collector debt_collector debt_collector 1M
        bob bank: 5M 5M 4M 4M 3M 3M
        """,
    )
    traveller.shift(waited)
    game.play(0, rules.Move.play(card_in(state, "alice", "hand", "debt_collector"), [1]))
    assert seat(game, 0).deadline is None, "her clock is held while bob answers"
    traveller.shift(DAY)
    answering = state_of(game)
    game.play(1, rules.default_move(answering, 1))  # by hand: a move of his own
    assert state_of(game).phase == "play" and current(game) == 0


def test_a_turn_goes_on_with_the_time_it_had_left_after_the_others_answer(traveller, slow):
    debt_collector_turn(traveller, slow, DAY)

    alice = seat(slow, 0)
    now = START + 2 * DAY
    assert alice.deadline == now + 2 * DAY, "two days were left, not a fresh three"
    assert alice.reserve == 3 * DAY, "bob's day of answering cost her nothing"
    assert (alice.paused_turn, alice.paused_left) == (None, None)
    slow.play(0, rules.Move.end())
    traveller.shift(DAY)
    slow.play(1, rules.Move.end())
    assert seat(slow, 0).deadline == now + DAY + 3 * DAY, "her next turn: a fresh period"


def test_a_turn_resumed_near_its_end_gets_a_tenth_of_a_period(traveller, slow):
    debt_collector_turn(traveller, slow, 3 * DAY - timedelta(minutes=1))

    now = START + 4 * DAY - timedelta(minutes=1)
    assert seat(slow, 0).deadline == now + 3 * DAY / 10
    assert seat(slow, 0).reserve == 3 * DAY


def test_a_just_say_no_answered_by_the_clock_leaves_the_turn_to_go_on(traveller, slow):
    state = hold_turn(
        slow,
        """
        players: alice bob
        turn: alice
        plays: 3
        alice hand: debt_collector just_say_no 1M red
        bob hand: just_say_no 2M
        bob bank: 5M 4M
        """,
    )
    slow.play(0, rules.Move.play(card_in(state, "alice", "hand", "debt_collector"), [1]))
    traveller.shift(DAY)
    slow.play(1, rules.Move.just_say_no(1))
    traveller.shift(6 * DAY)  # her answer's time and reserve are spent

    assert enforce_deadlines() == 1
    after = state_of(slow)
    timed_out = [m.move["kind"] for m in slow.moves.filter(cause=Move.Cause.TIMEOUT)]
    assert timed_out == ["accept"], "the answer alone is defaulted, not the turn after it"
    assert (after.phase, after.current, after.plays_left) == ("play", 0, 2)
    assert seat(slow, 0).deadline == START + 7 * DAY + 3 * DAY, "the 3 days her turn had left"


def test_a_second_just_say_no_to_answer_starts_its_own_clock(traveller, alice, bob, charlie):
    game = make_game([alice, bob, charlie], pace="correspondence", pace_days=3, reserve_days=3)
    state = hold_turn(
        game,
        """
        players: alice bob charlie
        turn: alice
        plays: 3
        alice hand: birthday just_say_no 1M
        bob hand: just_say_no pass_go
        bob bank: 2M 5M
        charlie hand: just_say_no pass_go
        charlie bank: 2M 3M
        """,
    )
    game.play(0, rules.Move.play(card_in(state, "alice", "hand", "birthday")))
    traveller.shift(timedelta(hours=1))
    game.play(1, rules.Move.just_say_no(1))
    bob_said_no = timezone.now()
    assert seat(game, 0).deadline == bob_said_no + 3 * DAY
    traveller.shift(3 * DAY - timedelta(hours=2))  # charlie waits nearly all his time

    game.play(2, rules.Move.just_say_no(2))

    assert seat(game, 0).deadline == timezone.now() + 3 * DAY, "not the hour left of bob's"


@pytest.mark.parametrize(
    "waited, left",
    [(2 * DAY, DAY), (3 * DAY - timedelta(minutes=1), 3 * DAY / 10)],
    ids=["a day left", "its last minute: a tenth of a period"],
)
def test_the_discard_that_ends_a_turn_has_what_was_left_of_the_turn(traveller, slow, waited, left):
    hold_turn(
        slow,
        """
        players: alice bob
        turn: alice
        alice hand: 1M 1M 1M 2M 2M 2M 3M 3M 4M
        """,
    )
    traveller.shift(waited)

    slow.play(0, rules.Move.end())

    assert state_of(slow).phase == "discard"
    assert seat(slow, 0).deadline == timezone.now() + left, "one decision, not a fresh period"
    assert seat(slow, 0).reserve == 3 * DAY


def test_a_turn_that_ends_itself_after_the_answers_keeps_its_time_for_the_discard(traveller, slow):
    # Her last play is an action, with an hour of her turn left and 9 cards in hand: when
    # bob has paid the turn ends by itself, and the discard has that hour, not 3 days.
    state = hold_turn(
        slow,
        """
        players: alice bob
        turn: alice
        plays: 1
        alice hand: debt_collector 1M 1M 1M 2M 2M 2M 3M 3M 4M
        bob bank: 5M 3M 2M
        """,
    )
    traveller.shift(3 * DAY - timedelta(hours=1))
    slow.play(0, rules.Move.play(card_in(state, "alice", "hand", "debt_collector"), [1]))
    traveller.shift(DAY)

    assert seat(slow, 0).deadline is None, "held while bob chooses how to pay"
    slow.play(1, rules.default_move(state_of(slow), 1))  # bob pays

    assert state_of(slow).phase == "discard"
    assert seat(slow, 0).deadline == timezone.now() + 3 * DAY / 10, "an hour, a tenth at least"
    assert (seat(slow, 0).paused_turn, seat(slow, 0).paused_left) == (None, None)


def test_it_starts_a_fresh_clock_for_the_next_decision(traveller, slow):
    turn = current(slow)
    traveller.shift(DAY)
    slow.play(turn, rules.Move.end())
    assert seat(slow, turn).deadline is None
    assert seat(slow, 1 - turn).deadline == START + DAY + 3 * DAY
    assert seat(slow, turn).reserve == 3 * DAY, "a move in time costs no reserve"


def test_it_applies_the_default_move_when_the_time_runs_out(traveller, live):
    turn = current(live)
    traveller.shift(timedelta(seconds=59))
    assert enforce_deadlines() == 0
    assert not live.moves.exists()
    traveller.shift(timedelta(seconds=2))
    assert enforce_deadlines() == 1
    move = live.moves.get()
    assert (move.seat, move.move, move.cause) == (turn, {"kind": "end"}, Move.Cause.TIMEOUT)
    assert current(live) == 1 - turn
    assert seat(live, turn).timeouts_in_row == 1
    assert seat(live, 1 - turn).deadline == START + timedelta(seconds=61 + 60)


def test_it_finishes_a_timed_out_turn_by_discarding_the_lowest_cards(traveller, live, alice):
    set_position(live, "alice hand: 10M 5M any deal_breaker pass_go 3M red green 4M")
    Seat.objects.filter(game=live).update(deadline=None, timeout_at=None)
    Seat.objects.filter(game=live, position=0).update(
        deadline=START, timeout_at=START, awaited_since=START
    )
    traveller.shift(timedelta(seconds=1))
    assert enforce_deadlines() == 1
    kinds = [m.move["kind"] for m in live.moves.all()]
    assert kinds == ["end", "discard"]
    assert set(live.moves.values_list("cause", flat=True)) == {Move.Cause.TIMEOUT}
    after = state_of(live)
    assert after.current == 1 and len(after.players[0].hand) == 7
    assert seat(live, 0).timeouts_in_row == 1, "one timeout, however many moves it takes"


def test_it_spends_the_reserve_before_a_timeout(traveller, slow):
    turn = current(slow)
    traveller.shift(4 * DAY)
    assert enforce_deadlines() == 0, "one day into the reserve"
    page = Seat.objects.get(game=slow, position=turn)
    assert page.timeout_at == START + 6 * DAY
    traveller.shift(2 * DAY)
    assert enforce_deadlines() == 1
    timed_out = seat(slow, turn)
    assert timed_out.reserve == timedelta(0)
    assert slow.moves.get().cause == Move.Cause.TIMEOUT


def test_it_takes_a_late_moves_overrun_out_of_the_reserve(traveller, slow):
    turn = current(slow)
    traveller.shift(3 * DAY + timedelta(hours=10))
    slow.play(turn, rules.Move.end())
    mover = seat(slow, turn)
    assert mover.reserve == 3 * DAY - timedelta(hours=10)
    assert mover.timeouts_in_row == 0
    other = seat(slow, 1 - turn)
    assert other.timeout_at == other.deadline + 3 * DAY, "the other player's reserve is whole"


def play_until_turn_of(game, position):
    """Let the other players answer in time (with the default moves) until `position` plays."""
    state = state_of(game)
    while not (state.current == position and state.phase == "play"):
        awaited = rules.awaiting(state)[0][0]
        game.play(awaited, rules.default_move(state, awaited))
        state = state_of(game)


def end_the_turn(game):
    """Let the awaited players make the default moves until the turn passes."""
    turns = state_of(game).turns
    while state_of(game).turns == turns:
        state = state_of(game)
        awaited = rules.awaiting(state)[0][0]
        game.play(awaited, rules.default_move(state, awaited))


def play_out_timeouts(traveller, game, times, loser=None):
    """Let a player's time (by default the awaited one's) run out `times` times in a row.

    Return that player's seat.
    """
    loser = current(game) if loser is None else loser
    for _ in range(times):
        play_until_turn_of(game, loser)
        traveller.shift(timedelta(seconds=61))
        assert enforce_deadlines() >= 1
    return loser


def test_a_correspondence_player_is_told_each_time_their_time_ran_out(
    traveller, alice, bob, charlie, live_trio
):
    # Days later the log alone would say it: a notification, as their turn had.
    game = make_game([alice, bob, charlie], pace="correspondence", pace_days=3, reserve_days=3)
    loser = current(game)
    for _ in range(3):
        play_until_turn_of(game, loser)
        traveller.shift(7 * DAY)  # past the deadline and the whole reserve
        assert enforce_deadlines() >= 1
    user = seat(game, loser).user

    told = Notification.objects.filter(user=user, kind=Notification.Kind.TIMED_OUT)
    assert [note.data["absent"] for note in told.order_by("pk")] == [False, False, True]
    assert not Notification.objects.filter(kind=Notification.Kind.TIMED_OUT).exclude(user=user)
    newest, oldest = in_words(told.order_by("-pk")[0]), in_words(told.order_by("pk")[0])
    assert newest.startswith("Your time ran out again in the game with ")
    assert "you are marked absent" in newest
    assert oldest.endswith(": the default move was made for you")
    # A live game's player sees it at the table: no notification.
    play_out_timeouts(traveller, live_trio, 1)
    assert not Notification.objects.filter(game=live_trio, kind=Notification.Kind.TIMED_OUT)


def test_a_timeout_that_ends_the_game_is_told_as_its_end_alone(traveller, alice, bob):
    # At a table of two the third timeout in a row ends the game: no seat to take back.
    game = make_game([alice, bob], pace="correspondence", pace_days=3, reserve_days=3)
    loser = current(game)
    for _ in range(3):
        play_until_turn_of(game, loser)
        traveller.shift(7 * DAY)
        assert enforce_deadlines() >= 1
    game.refresh_from_db()
    user = seat(game, loser).user

    assert game.status == Game.Status.FINISHED
    kinds = Notification.objects.filter(user=user).values_list("kind", flat=True)
    assert list(kinds.filter(kind=Notification.Kind.TIMED_OUT)) == ["timed_out"] * 2
    assert Notification.Kind.ENDED in kinds


def test_it_marks_a_player_absent_after_three_timeouts_in_a_row(traveller, live_trio):
    game = live_trio
    loser = play_out_timeouts(traveller, game, 2)
    assert not seat(game, loser).absent
    play_out_timeouts(traveller, game, 1, loser)
    absent = seat(game, loser)
    assert absent.absent and absent.timeouts_in_row == 3
    # The absent seat is played by the defaults at once: the game waits for the others only.
    for _ in range(4):  # two turns of each other player
        assert current(game) != loser and seat(game, loser).deadline is None
        end_the_turn(game)
    assert Move.Cause.ABSENT in set(game.moves.filter(seat=loser).values_list("cause", flat=True))
    assert Game.objects.get(pk=game.pk).status == Game.Status.ACTIVE


def test_it_ends_when_the_only_other_player_goes_absent(traveller, live, alice, bob):
    # Ruling (resign), docs/rules.md section 7: the one player left who has neither
    # resigned nor gone absent wins at once, whether the others resigned or timed out.
    loser = play_out_timeouts(traveller, live, 3)
    game = Game.objects.get(pk=live.pk)
    assert game.status == Game.Status.FINISHED and game.end_reason == "resigned"
    assert game.winner == [alice, bob][1 - loser]
    assert {s.position: s.result for s in game.seats.all()} == {loser: "loss", 1 - loser: "win"}
    last = game.moves.order_by("n").last()
    assert (last.seat, last.move, last.cause) == (loser, {"kind": "resign"}, Move.Cause.ABSENT)
    assert seat(game, loser).absent
    assert game.replay() == game.state(), "the log rebuilds the ending"


def test_it_tells_who_went_absent_not_that_they_resigned(client, traveller, live, alice, bob):
    loser = play_out_timeouts(traveller, live, 3)
    gone, winner = [("alice", "bob"), ("bob", "alice")][loser]
    client.force_login([alice, bob][1 - loser])

    table = client.get(live.get_absolute_url()).text
    log = client.get(reverse("games:log", args=[live.code])).text
    review = client.get(reverse("games:review", args=[live.code])).text

    assert f"{winner} won: {gone} went absent" in table
    assert f"{winner} won: {gone} went absent" in review  # the summary and the last position
    assert ">Absent<" in review and ">Resigned<" not in review
    assert f"{gone} went absent and is out of the game" in log
    assert "resigned" not in table.lower() and "resigned" not in log.lower()


def test_it_counts_only_timeouts_in_a_row(traveller, live):
    loser = play_out_timeouts(traveller, live, 2)
    play_until_turn_of(live, loser)
    live.play(loser, rules.default_move(state_of(live), loser))
    assert seat(live, loser).timeouts_in_row == 0
    play_out_timeouts(traveller, live, 2, loser)
    assert not seat(live, loser).absent


def test_it_lets_an_absent_player_take_the_seat_back(client, traveller, live_trio):
    live = live_trio
    loser = play_out_timeouts(traveller, live, 3)
    user = seat(live, loser).user
    client.force_login(user)
    page = client.get(live.get_absolute_url()).content.decode()
    assert "Take my seat back" in page
    version = Game.objects.get(pk=live.pk).version

    response = client.post(reverse("games:come_back", args=[live.code]))

    assert response.status_code == 302
    back = seat(live, loser)
    assert not back.absent and back.timeouts_in_row == 0
    assert Game.objects.get(pk=live.pk).version == version + 1
    play_until_turn_of(live, loser)
    assert seat(live, loser).deadline is not None, "the game waits for the player again"


def test_taking_a_seat_back_takes_a_seat_of_the_players_share(
    client, traveller, live_trio, settings
):
    # An absent seat frees its share (limits.seated_games): whoever sat down elsewhere
    # meanwhile up to the bound cannot hold one more table up by coming back.
    live = live_trio
    loser = play_out_timeouts(traveller, live, 3)
    user = seat(live, loser).user
    settings.LIVE_GAMES_PER_USER = 1
    elsewhere = Game.objects.create(host=user, seat_count=2)
    elsewhere.join(user)
    client.force_login(user)

    response = client.post(reverse("games:come_back", args=[live.code]), follow=True)

    assert "You already sit at 1 live table" in response.content.decode()
    assert seat(live, loser).absent
    Game.objects.filter(pk=elsewhere.pk).update(status=Game.Status.CANCELLED)
    client.post(reverse("games:come_back", args=[live.code]))
    assert not seat(live, loser).absent


def test_a_seat_marked_absent_while_its_player_comes_back_still_takes_a_share(
    client, traveller, live_trio, settings, monkeypatch
):
    # The seat's absence is read under the game's lock: a timeout that marks it absent
    # just before (here: as the lock is taken) cannot let it past the share.
    live = live_trio
    user = seat(live, 1).user
    settings.LIVE_GAMES_PER_USER = 1
    elsewhere = Game.objects.create(host=user, seat_count=2)
    elsewhere.join(user)
    real_lock = game_module.locked_game

    def lock_after_a_timeout(pk):
        Seat.objects.filter(game_id=pk, user=user).update(absent=True)
        return real_lock(pk)

    monkeypatch.setattr(game_module, "locked_game", lock_after_a_timeout)
    client.force_login(user)

    response = client.post(reverse("games:come_back", args=[live.code]), follow=True)

    assert "You already sit at 1 live table" in response.content.decode()
    # The refusal rolls back the whole request, the stand-in timeout with it.
    assert Game.objects.get(pk=live.pk).version == live.version


def test_it_refuses_to_give_back_a_seat_to_an_outsider(client, live, charlie):
    client.force_login(charlie)
    response = client.post(reverse("games:come_back", args=[live.code]))
    assert response.status_code == 403


def test_it_counts_an_absent_players_result_as_a_loss(traveller, live_trio):
    loser = play_out_timeouts(traveller, live_trio, 3)
    game = Game.objects.get(pk=live_trio.pk)
    assert game.status == Game.Status.ACTIVE
    state = game.state()
    state.end_reason, state.winner, state.phase = "stalemate", -1, "over"
    seats = list(game.seats.all())
    game._finish(state, seats, timezone.now())
    others = {p: "draw" for p in range(3) if p != loser}
    assert {s.position: s.result for s in seats} == {loser: "loss", **others}


def test_an_absent_player_whose_sets_another_completes_wins(traveller, live_trio, charlie):
    # The seat is still in the game (docs/rules.md section 7): the game and its record agree.
    game = live_trio
    state = set_position(
        game,
        """
        players: alice bob charlie
        turn: alice
        plays: 3
        alice hand: forced_deal
        alice table: red: red
        charlie table: brown: brown brown; dark_blue: dark_blue dark_blue; red: red red; \
light_blue: light_blue
        """,
    )
    Seat.objects.filter(game=game, position=2).update(absent=True)
    game.refresh_from_db()
    swap = rules.Move.play(
        card_in(state, "alice", "hand", "forced_deal"),
        [2],
        cards=[
            card_in(state, "alice", "table", "red"),
            card_in(state, "charlie", "table", "light_blue"),
        ],
    )

    game.play(0, swap)

    game.refresh_from_db()
    assert (game.status, game.end_reason, game.state().winner) == ("finished", "win", 2)
    assert game.winner == charlie
    assert {s.position: s.result for s in game.seats.all()} == {0: "loss", 1: "loss", 2: "win"}


def test_it_ends_with_no_winner_when_every_player_is_absent(live):
    # Once one player is left the game ends (above), so every player absent at once is a
    # game that reaches _settle so, as a game marked before that ruling could.
    Seat.objects.filter(game=live).update(absent=True)
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=live.pk)
        state = game.state()
        game._settle(state, list(game.seats.all()), timezone.now(), _Before(state), [])
    game = Game.objects.get(pk=live.pk)
    assert game.status == Game.Status.FINISHED and game.end_reason == "abandoned"
    assert game.winner is None
    assert set(game.seats.values_list("result", flat=True)) == {"loss"}
    assert game.replay() == game.state(), "the log and the end reason rebuild the game"


def test_it_applies_a_deadline_once_when_enforced_twice(traveller, live):
    turn = current(live)
    traveller.shift(timedelta(seconds=61))
    assert live.enforce_deadline(turn) is True
    assert live.enforce_deadline(turn) is False
    assert enforce_deadlines() == 0
    assert live.moves.count() == 1


@pytest.mark.django_db(transaction=True)  # the worker closes old connections between rounds
def test_it_catches_up_with_overdue_deadlines_when_the_worker_starts(
    traveller, alice, bob, charlie
):
    games = [make_game([alice, bob]), make_game([bob, charlie]), make_game([charlie, alice])]
    waiting = [current(g) for g in games]
    traveller.shift(timedelta(hours=5))  # the worker was down all that time

    call_command("worker", "--once")

    for game, turn in zip(games, waiting, strict=True):
        assert game.moves.get().cause == Move.Cause.TIMEOUT
        assert current(game) == 1 - turn
        assert seat(game, 1 - turn).deadline == START + timedelta(hours=5, seconds=60)


def test_it_plays_an_answer_with_no_choice_at_once(traveller, live):
    state = set_position(
        live,
        """
        alice hand: debt_collector 1M
        bob bank: 1M 2M
        """,
    )
    live.play(0, rules.Move.play(card_in(state, "alice", "hand", "debt_collector"), [1]))
    moves = list(live.moves.values_list("seat", "cause"))
    assert moves == [(0, Move.Cause.PLAYER), (1, Move.Cause.FORCED)]
    after = state_of(live)
    assert after.phase == "play" and len(after.players[0].bank) == 2
    assert seat(live, 1).deadline is None, "nobody waited for bob"


def test_it_waits_for_an_answer_with_a_choice(traveller, live):
    state = set_position(
        live,
        """
        alice hand: debt_collector 1M
        bob bank: 5M 2M
        """,
    )
    traveller.shift(timedelta(seconds=5))
    live.play(0, rules.Move.play(card_in(state, "alice", "hand", "debt_collector"), [1]))
    assert state_of(live).phase == "respond"
    assert seat(live, 1).deadline == START + timedelta(seconds=65)


@pytest.mark.django_db(transaction=True)
def test_it_applies_exactly_one_move_when_a_timeout_races_a_players_move(alice, bob):
    with time_machine.travel(START, tick=False) as traveller:
        game = make_game([alice, bob])
        turn = current(game)
        traveller.shift(timedelta(seconds=61))
        outcomes = []
        barrier = threading.Barrier(2)

        def human():
            barrier.wait(timeout=30)
            try:
                Game.objects.get(pk=game.pk).play(turn, rules.Move.end(), version=1)
                outcomes.append("human")
            except StaleBoard:
                outcomes.append("stale")

        def worker():
            barrier.wait(timeout=30)
            outcomes.append("timeout" if enforce_deadlines() else "nothing")

        threads = [threading.Thread(target=human), threading.Thread(target=worker)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    assert sorted(outcomes) in (["human", "nothing"], ["stale", "timeout"])
    assert game.moves.count() == 1
    assert current(game) == 1 - turn


def test_it_tells_the_players_by_notifications(traveller, slow, alice, bob):
    state = set_position(
        slow,
        """
        alice hand: sly_deal 1M
        bob hand: just_say_no
        bob table: red: red
        """,
    )
    red = card_in(state, "bob", "table", "red")
    slow.play(0, rules.Move.play(card_in(state, "alice", "hand", "sly_deal"), [1], cards=[red]))
    targeted = Notification.objects.get(user=bob, kind="targeted")
    assert (targeted.actor, targeted.data) == (alice, {"card": "sly_deal"})
    assert Notification.objects.filter(user=bob, kind="your_turn").count() == 1
    slow.play(1, rules.Move.just_say_no(1))  # alice has no Just Say No: she accepts at once
    assert Notification.objects.filter(user=bob, kind="your_turn").count() == 1, "one unread"


def test_it_tells_nothing_but_the_end_in_live_games(traveller, live, alice, bob):
    state = set_position(
        live,
        """
        alice hand: sly_deal 1M
        bob hand: just_say_no
        bob table: red: red
        """,
    )
    red = card_in(state, "bob", "table", "red")
    live.play(0, rules.Move.play(card_in(state, "alice", "hand", "sly_deal"), [1], cards=[red]))
    assert not Notification.objects.exists()


def test_it_marks_a_games_notifications_read_when_its_table_is_opened(client, slow, alice, bob):
    turn_user = seat(slow, current(slow)).user
    assert Notification.objects.filter(user=turn_user, read_at=None).exists()
    client.force_login(turn_user)
    client.get(slow.get_absolute_url())
    assert not Notification.objects.filter(user=turn_user, read_at=None).exists()
    assert seat(slow, current(slow)).seen_at == START


def test_it_tells_everyone_when_the_game_ends(traveller, live, alice, bob):
    state = set_position(
        live,
        """
        alice hand: green
        alice table: red: red red red; dark_blue: dark_blue dark_blue; green: green green
        """,
    )
    live.play(0, rules.Move.lay(card_in(state, "alice", "hand", "green"), "green"))
    assert set(Notification.objects.filter(kind="ended").values_list("user", flat=True)) == {
        alice.id,
        bob.id,
    }
    assert all(s.deadline is None for s in live.seats.all())


def test_it_shows_the_clocks_on_the_table(client, traveller, slow, alice, bob):
    turn_user = seat(slow, current(slow)).user
    client.force_login(turn_user)
    traveller.shift(timedelta(hours=1))
    html = client.get(slow.get_absolute_url()).content.decode()
    deadline = (START + 3 * DAY).isoformat()
    assert f'data-deadline="{deadline}"' in html
    assert "Your time to decide:" in html
    assert "2\xa0days, 23\xa0hours left" in html
    assert html.count("Reserve: 3\xa0days") == 2
    traveller.shift(4 * DAY)
    html = client.get(slow.get_absolute_url()).content.decode()
    assert "spending your reserve" in html
    assert f'data-deadline="{(START + 6 * DAY).isoformat()}"' in html


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", ("2\xa0hours, 30\xa0minutes left", "Jan. 5, 2026, noon UTC")),
        ("zh-hans", ("剩余 2\xa0小时、30\xa0分钟", "2026年1月5日 12:00 UTC")),
    ],
)
def test_it_writes_a_countdown_in_the_players_language(traveller, language, words):
    from django.utils import translation

    from games.templatetags.clock import countdown

    deadline = datetime(2026, 1, 5, 12, 0, tzinfo=UTC)
    traveller.move_to(deadline - timedelta(hours=2, minutes=30))
    with translation.override(language):
        html = countdown(deadline)
    left, until = words
    iso = "2026-01-05T12:00:00+00:00"
    assert html.startswith(f'\n<span class="countdown" data-deadline="{iso}">{left}</span>\n')
    assert f'<time data-local-time datetime="{iso}">{until}</time>)</span>' in html


def test_it_counts_a_game_left_by_timeouts_as_abandoned_and_a_resignation_not(traveller, live_trio):
    # Both seats end up absent (a resignation plays on as absent, Ruling (resign)), but
    # only the player who stopped answering abandoned the game; the other resigned it.
    from accounts.models import PlayerStats

    game = live_trio
    loser = play_out_timeouts(traveller, game, 3)
    quitter = (loser + 1) % 3  # a player may resign at any time
    game.play(quitter, rules.Move.resign())

    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    by_position = {s.position: PlayerStats.objects.get(user=s.user) for s in game.seats.all()}
    assert by_position[loser].abandoned == 1 and by_position[loser].losses == 1
    assert by_position[quitter].abandoned == 0 and by_position[quitter].losses == 1


def test_a_player_who_resigned_is_told_so_not_of_the_share(client, live_trio, settings):
    game = live_trio
    user = game.seats.get(position=1).user
    game.play(1, rules.Move.resign())
    settings.LIVE_GAMES_PER_USER = 1  # the resigned game no longer counts: one more would
    elsewhere = Game.objects.create(host=user, seat_count=2)
    elsewhere.join(user)
    client.force_login(user)

    response = client.post(reverse("games:come_back", args=[game.code]), follow=True)

    assert "You resigned: your seat is played by the defaults to the end." in response.text
    assert "You already sit at" not in response.text
