"""Vacation of correspondence players: the clocks stop, the games wait (issue 15, part 3).

Time is moved with time_machine, never slept through.
"""

from datetime import timedelta

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import Vacation
from games import rules
from games.models import Game, Move, Seat
from games.play import emails
from games.play.clocks import enforce_deadlines
from games.play.emails import send_due_emails
from games.play.vacation import VacationError, allowance, end_vacation, take_vacation
from games.rules.position import card_in

from .conftest import START
from .helpers import set_position, state_of
from .test_clock import hold_turn

pytestmark = pytest.mark.django_db

DAY = timedelta(days=1)
HOUR = timedelta(hours=1)


def make_game(users, pace="correspondence", **fields):
    """Start a game of `users`; the first of them is waited for (their turn)."""
    fields.setdefault("seed", 7)
    game = Game.objects.create(host=users[0], seat_count=len(users), pace=pace, **fields)
    for position, user in enumerate(users):
        Seat.objects.create(game=game, user=user, position=position)
    game.start()
    if awaited(game).user != users[0]:
        game.play(awaited(game).position, rules.Move.end())
    game.refresh_from_db()
    return game


def awaited(game):
    return Seat.objects.select_related("user").get(game=game, deadline__isnull=False)


def seat_of(game, user):
    return Seat.objects.get(game=game, user=user)


@pytest.fixture
def slow(traveller, alice, bob):
    """A correspondence game waiting for alice: 3 days a decision, 3 days of reserve."""
    return make_game([alice, bob], pace_days=3, reserve_days=3)


def end_turn(game, user):
    game.play(seat_of(game, user).position, rules.Move.end())


def test_it_pushes_the_clock_of_a_decision_waiting_for_me_by_the_vacation(traveller, slow, alice):
    before = seat_of(slow, alice)
    version = slow.version
    traveller.shift(DAY)

    take_vacation(alice, 5)

    after = seat_of(slow, alice)
    assert after.deadline == before.deadline + 5 * DAY
    assert after.timeout_at == before.timeout_at + 5 * DAY
    assert after.awaited_since == before.awaited_since + 5 * DAY
    assert after.reserve == 3 * DAY
    slow.refresh_from_db()
    assert slow.turn_deadline == after.deadline
    assert slow.version == version + 1, "the table is drawn again: it shows the vacation"


def test_it_never_times_out_nor_spends_the_reserve_of_a_player_on_vacation(traveller, slow, alice):
    original_timeout = seat_of(slow, alice).timeout_at
    moves = slow.moves.count()
    take_vacation(alice, 10)
    traveller.move_to(original_timeout + DAY)

    assert enforce_deadlines() == 0
    assert slow.moves.count() == moves

    # Even a seat whose time has run out by the clock is not timed out while on vacation.
    Seat.objects.filter(pk=seat_of(slow, alice).pk).update(timeout_at=timezone.now() - HOUR)
    assert enforce_deadlines() == 0
    assert slow.enforce_deadline(seat_of(slow, alice).position) is False
    assert slow.moves.count() == moves
    assert seat_of(slow, alice).reserve == 3 * DAY


def test_it_keeps_the_reserve_whole_for_a_move_made_after_the_vacation(traveller, slow, alice):
    take_vacation(alice, 4)
    traveller.shift(4 * DAY + 2 * DAY)  # the vacation, then 2 of the 3 days of the decision

    end_turn(slow, alice)

    assert seat_of(slow, alice).reserve == 3 * DAY


def test_it_times_out_again_once_the_vacation_is_over(traveller, slow, alice):
    take_vacation(alice, 2)
    traveller.shift(2 * DAY + 6 * DAY - HOUR)
    assert enforce_deadlines() == 0
    traveller.shift(2 * HOUR)

    assert enforce_deadlines() == 1
    assert slow.moves.latest("n").cause == Move.Cause.TIMEOUT


def test_it_starts_a_decision_arriving_during_the_vacation_when_it_ends(traveller, slow, bob):
    # bob is not awaited when his vacation starts; alice's move makes it his turn.
    vacation = take_vacation(bob, 3)
    traveller.shift(DAY)

    end_turn(slow, slow.seats.get(position=1 - seat_of(slow, bob).position).user)

    waiting = seat_of(slow, bob)
    assert waiting.awaited_since == vacation.ends_at
    assert waiting.deadline == vacation.ends_at + 3 * DAY
    assert waiting.timeout_at == vacation.ends_at + 6 * DAY


def test_it_gives_back_the_unused_time_and_whole_days_when_ended_early(traveller, slow, alice):
    before = seat_of(slow, alice)
    take_vacation(alice, 10)
    traveller.shift(DAY + 3 * HOUR)

    ended = end_vacation(alice)

    assert ended.days == 2, "the whole days begun count"
    assert ended.ends_at == timezone.now()
    after = seat_of(slow, alice)
    assert after.deadline == before.deadline + DAY + 3 * HOUR, "frozen exactly while away"
    assert after.timeout_at == before.timeout_at + DAY + 3 * HOUR
    assert allowance(alice)["used"] == 2 and allowance(alice)["left"] == 28
    assert allowance(alice)["current"] is None


def test_it_counts_one_day_for_a_vacation_ended_within_its_first_day(traveller, slow, alice):
    take_vacation(alice, 3)
    traveller.shift(HOUR)

    assert end_vacation(alice).days == 1


def test_it_starts_a_decision_that_arrived_during_an_ended_vacation_from_its_end(
    traveller, slow, bob
):
    take_vacation(bob, 5)
    traveller.shift(DAY)
    end_turn(slow, slow.seats.get(position=1 - seat_of(slow, bob).position).user)
    traveller.shift(DAY)

    end_vacation(bob)

    assert seat_of(slow, bob).deadline == timezone.now() + 3 * DAY


@pytest.mark.parametrize("ended_early", [False, True], ids=["runs its course", "ended early"])
def test_a_turn_held_during_a_vacation_keeps_only_the_time_it_had(
    traveller, slow, alice, ended_early
):
    """A turn held while the others answer (Seat.paused_left) is measured without the
    vacation: it once kept the vacation's days, counted again when it resumed."""
    state = hold_turn(
        slow,
        """
        players: alice bob
        turn: alice
        alice hand: debt_collector debt_collector 1M
        bob bank: 5M 4M 3M
        bob hand: 2M
        """,
    )
    take_vacation(alice, 10)
    traveller.shift(HOUR)
    slow.play(0, rules.Move.play(card_in(state, "alice", "hand", "debt_collector"), [1]))
    if ended_early:
        traveller.shift(HOUR)
        assert end_vacation(alice).days == 1
    traveller.shift(DAY)

    slow.play(1, rules.default_move(state_of(slow), 1))  # bob pays

    # Her clock never ran: the 3 days of her turn are left, from the vacation's end.
    back = timezone.now() if ended_early else START + 10 * DAY
    assert seat_of(slow, alice).deadline == back + 3 * DAY


def test_it_leaves_live_games_alone(traveller, alice, bob):
    live = make_game([alice, bob], pace="live", pace_seconds=60)
    before = seat_of(live, alice)
    version = live.version

    take_vacation(alice, 3)

    assert seat_of(live, alice).deadline == before.deadline
    live.refresh_from_db()
    assert live.version == version
    traveller.shift(timedelta(seconds=61))
    assert enforce_deadlines() == 1, "a live game times out as always"


def test_it_refuses_less_than_a_day_more_than_are_left_and_overlaps(traveller, slow, alice):
    for days, words in ((0, "at least one day"), (31, "30 days of vacation left")):
        with pytest.raises(VacationError, match=words):
            take_vacation(alice, days)
    assert not Vacation.objects.exists()

    take_vacation(alice, 20)
    deadline = seat_of(slow, alice).deadline
    with pytest.raises(VacationError, match="already on vacation until"):
        take_vacation(alice, 1)
    assert Vacation.objects.count() == 1
    assert seat_of(slow, alice).deadline == deadline

    traveller.shift(20 * DAY)
    with pytest.raises(VacationError, match="not on vacation"):
        end_vacation(alice)
    with pytest.raises(VacationError, match="10 days of vacation left"):
        take_vacation(alice, 11)
    assert Vacation.objects.count() == 1


def test_it_counts_a_vacation_against_the_year_it_starts_in(traveller, alice, settings):
    settings.VACATION_DAYS_PER_YEAR = 10
    traveller.move_to(timezone.datetime(2026, 12, 28, 12, tzinfo=timezone.UTC))
    take_vacation(alice, 8)
    assert allowance(alice)["left"] == 2

    traveller.move_to(timezone.datetime(2027, 1, 5, 13, tzinfo=timezone.UTC))
    assert allowance(alice)["used"] == 0 and allowance(alice)["left"] == 10
    take_vacation(alice, 10)
    assert list(Vacation.objects.order_by("starts_at").values_list("year", flat=True)) == [
        2026,
        2027,
    ]


def test_it_sends_no_email_to_a_player_on_vacation(traveller, slow, alice, monkeypatch):
    monkeypatch.setattr(emails, "TURN_EMAIL_DELAY", timedelta(0))
    alice.email_digest = True
    alice.save()
    take_vacation(alice, 5)

    for _round in range(19):  # every 6 hours of the 5 days
        traveller.shift(6 * HOUR)
        mail.outbox.clear()
        send_due_emails(timezone.now())
        assert [m for m in mail.outbox if "alice@example.com" in m.to] == []

    traveller.shift(7 * HOUR)
    mail.outbox.clear()
    send_due_emails(timezone.now())
    assert any("alice@example.com" in m.to for m in mail.outbox), "after the vacation, as before"


def test_it_shows_on_the_table_who_is_on_vacation_until_when(traveller, client, slow, alice, bob):
    take_vacation(alice, 3)
    client.force_login(bob)

    page = client.get(slow.get_absolute_url()).text

    assert '<span class="tag vacation">On vacation</span>' in page
    until = (START + 3 * DAY).isoformat()
    assert f'On vacation until <time data-local-time datetime="{until}">' in page
    assert "End my vacation now" not in page, "only alice may end it"


def test_it_offers_me_to_end_my_vacation_at_the_table(traveller, client, slow, alice):
    take_vacation(alice, 3)
    client.force_login(alice)

    page = client.get(slow.get_absolute_url()).text

    assert "Your correspondence games wait for you: your clocks are stopped." in page
    assert "You are on vacation until" in page
    assert "End my vacation now" in page


def test_it_shows_no_vacation_at_a_live_table_nor_once_it_has_ended(traveller, client, alice, bob):
    live = make_game([alice, bob], pace="live", pace_seconds=60)
    slow = make_game([alice, bob], pace_days=3)
    take_vacation(alice, 1)
    client.force_login(bob)

    assert "On vacation" not in client.get(live.get_absolute_url()).text
    assert "On vacation" in client.get(slow.get_absolute_url()).text
    traveller.shift(DAY)
    assert "On vacation" not in client.get(slow.get_absolute_url()).text


def test_it_starts_a_game_begun_during_my_vacation_when_it_ends(traveller, alice, bob):
    vacation = take_vacation(alice, 2)
    traveller.shift(HOUR)

    game = make_game([alice, bob], pace_days=3)

    assert seat_of(game, alice).deadline == vacation.ends_at + 3 * DAY
    assert "On vacation" in client_page(game, bob)


def test_it_shows_the_vacation_on_the_table_in_chinese(traveller, slow, alice, bob):
    bob.language = "zh-hans"
    bob.save()
    take_vacation(alice, 3)

    page = client_page(slow, bob)

    assert '<span class="tag vacation">休假中</span>' in page
    assert "休假至 <time data-local-time" in page


def client_page(game, user):
    client = Client()
    client.force_login(user)
    return client.get(game.get_absolute_url()).text


def test_someone_elses_vacation_does_not_stop_my_games_timeouts(traveller, alice, bob, charlie):
    game = make_game([alice, bob], pace_days=1, reserve_days=0)
    take_vacation(charlie, 10)  # charlie plays no game here
    traveller.shift(2 * DAY)

    assert enforce_deadlines() == 1
    assert seat_of(game, alice).timeouts_in_row == 1


def test_a_vacation_does_not_hold_a_live_games_new_decision(traveller, alice, bob):
    game = make_game([alice, bob], pace="live", pace_seconds=60)
    take_vacation(bob, 5)  # vacations are for correspondence games only

    end_turn(game, alice)  # bob's turn begins now

    mine = seat_of(game, bob)
    assert mine.deadline - mine.awaited_since == timedelta(seconds=60)


BIRTHDAY = """
players: alice bob charlie
turn: alice
plays: 3
alice hand: birthday 1M
bob hand: pass_go
bob bank: 2M 5M
charlie hand: pass_go
charlie bank: 2M 3M
"""


def test_the_games_deadline_is_the_earliest_of_its_seats(traveller, alice, bob, charlie):
    game = make_game([alice, bob, charlie], pace_days=1)
    state = set_position(game, BIRTHDAY)
    take_vacation(charlie, 5)  # charlie's answer is awaited from the vacation's end

    game.play(0, rules.Move.play(card_in(state, "alice", "hand", "birthday")))

    game.refresh_from_db()
    deadlines = dict(game.seats.values_list("position", "deadline"))
    assert deadlines[1] < deadlines[2]
    assert game.turn_deadline == deadlines[1]


def test_the_days_field_is_described_by_its_help(client, alice):
    client.force_login(alice)

    page = client.get(reverse("accounts:settings")).text

    assert 'id="vacation-days"' in page and 'aria-describedby="vacation-days-help"' in page
    assert 'id="vacation-days-help"' in page
