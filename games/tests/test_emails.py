"""Emails about correspondence games, sent by the worker: your move, reminders, the digest.

Time is moved with time_machine, never slept through.
"""

import logging
import smtplib
from datetime import timedelta

import pytest
from django.core import mail
from django.core.mail.backends.locmem import EmailBackend
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games import rules
from games.models import Game, Seat
from games.play import emails
from games.play.emails import send_due_emails

from .conftest import START
from .helpers import set_position

pytestmark = pytest.mark.django_db

DAY = timedelta(days=1)


@pytest.fixture(autouse=True)
def site_url(settings):
    settings.SITE_URL = "https://fullset.example"


def make_game(users, pace="correspondence"):
    """Start a game of `users` (3 days a decision); the first of them is waited for."""
    game = Game.objects.create(host=users[0], seat_count=len(users), pace=pace, pace_days=3, seed=7)
    for position, user in enumerate(users):
        Seat.objects.create(game=game, user=user, position=position)
    game.start()
    if awaited(game).user != users[0]:
        end_turn(game)
    return game


def awaited(game):
    return Seat.objects.select_related("user").get(game=game, deadline__isnull=False)


@pytest.fixture(autouse=True)
def no_turn_email_delay(monkeypatch):
    """Send "your move" at once in these tests; one test below checks the real delay."""
    monkeypatch.setattr(emails, "TURN_EMAIL_DELAY", timedelta(0))


def test_it_waits_a_moment_before_emailing_a_player_who_may_be_at_the_table(
    traveller, alice, bob, monkeypatch
):
    monkeypatch.setattr(emails, "TURN_EMAIL_DELAY", timedelta(minutes=2))
    make_game([alice, bob])
    assert send(traveller, timedelta(minutes=1)) == []
    assert addressees(send(traveller, timedelta(minutes=1))) == ["alice@example.com"]


def end_turn(game):
    """End the awaited player's turn (discarding down to 7 cards if need be)."""
    position = awaited(game).position
    while awaited(game).position == position:
        game.play(position, rules.default_move(game.state(), position))
        game.refresh_from_db()


def send(traveller=None, after=timedelta(0)):
    """Run one worker round `after` from now; return the emails it sent."""
    if traveller is not None:
        traveller.shift(after)
    mail.outbox.clear()
    count = send_due_emails(timezone.now())
    assert count == len(mail.outbox)
    return list(mail.outbox)


def addressees(messages):
    return sorted(address for message in messages for address in message.to)


def test_it_tells_the_awaited_player_it_is_their_move(traveller, alice, bob):
    bob.display_name = "Bob Builder"
    bob.save()
    game = make_game([alice, bob])

    [message] = send()

    assert message.to == ["alice@example.com"]
    assert message.subject == "Full Set: your move against Bob Builder"
    assert f"https://fullset.example/games/{game.code}/" in message.body
    assert "Hello alice," in message.body
    assert "Please decide by Nov. 5, 2026, 9 a.m. UTC (3\xa0days from now)." in message.body
    assert "https://fullset.example/accounts/settings/" in message.body
    assert message.extra_headers["Auto-Submitted"] == "auto-generated"


def test_it_writes_to_a_closed_account_no_more(traveller, alice, bob):
    # Closed by the database's is_active alone (games/play/closing.py also resigns its games).
    make_game([alice, bob])
    type(alice).objects.filter(pk=alice.pk).update(is_active=False)

    assert send() == []


def test_it_names_every_opponent(traveller, alice, bob, charlie):
    make_game([alice, bob, charlie])

    [message] = send()

    assert message.subject == "Full Set: your move against bob and charlie"


def test_it_sends_the_turn_email_once_per_turn(traveller, alice, bob):
    game = make_game([alice, bob])

    assert addressees(send()) == ["alice@example.com"]
    assert send(traveller, timedelta(hours=1)) == [], "a second round sends nothing"

    end_turn(game)
    assert addressees(send()) == ["bob@example.com"]
    assert send() == []

    end_turn(game)
    assert addressees(send()) == ["alice@example.com"], "a new turn is told again"


def test_it_sends_nothing_for_live_games(traveller, alice, bob):
    make_game([alice, bob], pace="live")

    assert send() == []
    assert send(traveller, timedelta(seconds=50)) == [], "nor a reminder"


def test_it_sends_nothing_for_a_finished_game(traveller, alice, bob):
    game = make_game([alice, bob])
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)

    assert send() == []


def test_it_sends_nothing_to_players_who_turned_notifications_off(traveller, alice, bob):
    alice.email_notifications = False
    alice.save()
    make_game([alice, bob])

    assert send() == []
    assert send(traveller, 3 * DAY) == [], "nor a reminder"


def test_it_sends_nothing_to_players_without_an_email_address(traveller, alice, bob):
    alice.email = ""
    alice.save()
    make_game([alice, bob])

    assert send() == []
    assert send(traveller, 3 * DAY) == [], "nor a reminder"


def test_it_sends_nothing_to_absent_players(traveller, alice, bob):
    game = make_game([alice, bob])
    Seat.objects.filter(game=game, user=alice).update(absent=True)

    assert send() == []
    assert send(traveller, 3 * DAY) == [], "nor a reminder"


def test_it_reminds_a_player_after_80_percent_of_their_time(traveller, alice, bob):
    game = make_game([alice, bob])
    send()  # the turn email

    assert send(traveller, timedelta(days=2.4) - timedelta(minutes=1)) == []
    [message] = send(traveller, timedelta(minutes=1))

    assert message.to == ["alice@example.com"]
    assert message.subject == "Full Set: your time against bob is running out"
    assert "waiting for your move since Nov. 2, 2026, 9 a.m. UTC, and you have not" in message.body
    assert "Only 14\xa0hours, 24\xa0minutes left: please decide by Nov. 5" in message.body
    assert f"https://fullset.example/games/{game.code}/" in message.body
    assert send(traveller, timedelta(hours=1)) == [], "once"


def test_it_reminds_a_player_spending_their_reserve(traveller, alice, bob):
    make_game([alice, bob])
    send()

    [message] = send(traveller, 4 * DAY)  # the worker was away

    assert "Your time is up and your reserve time is being spent" in message.body


def test_it_does_not_remind_a_player_who_opened_the_game_since(traveller, alice, bob):
    game = make_game([alice, bob])
    send()
    Seat.objects.filter(game=game, user=alice).update(seen_at=START + timedelta(hours=1))

    assert send(traveller, 2.5 * DAY) == []


def test_it_reminds_a_player_who_last_opened_the_game_before_the_decision(traveller, alice, bob):
    game = make_game([alice, bob])
    traveller.shift(timedelta(hours=1))
    Seat.objects.filter(game=game, user=alice).update(seen_at=timezone.now())
    end_turn(game)
    traveller.shift(timedelta(hours=1))
    end_turn(game)  # alice decides again, and has not looked since
    send()

    assert addressees(send(traveller, 2.5 * DAY)) == ["alice@example.com"]


def test_it_reminds_again_for_the_next_decision(traveller, alice, bob):
    game = make_game([alice, bob])
    send()
    send(traveller, 2.5 * DAY)
    end_turn(game)
    end_turn(game)  # bob ends at once: alice decides again

    messages = send(traveller, 2.5 * DAY)

    assert [m.subject for m in messages] == [
        "Full Set: your move against bob",
        "Full Set: your time against bob is running out",
    ]


def test_it_sends_the_daily_digest_once_a_day(traveller, alice, bob, charlie):
    alice.email_digest = True
    alice.email_notifications = False
    alice.save()
    with_bob = make_game([alice, bob])
    traveller.shift(timedelta(hours=1))
    with_charlie = make_game([alice, charlie])
    make_game([bob, alice])  # waits for bob

    [digest] = [m for m in send() if m.to == ["alice@example.com"]]

    assert digest.subject == "Full Set: 2 games are waiting for you"
    assert "These correspondence games are waiting for your move:" in digest.body
    first = digest.body.index("Against bob, by Nov. 5, 2026, 9 a.m. UTC:")
    second = digest.body.index("Against charlie, by Nov. 5, 2026, 10 a.m. UTC:")
    assert first < digest.body.index(with_bob.code) < second < digest.body.index(with_charlie.code)
    assert "daily digest" in digest.body
    alice.refresh_from_db()
    assert alice.digest_sent_at == START + timedelta(hours=1)

    assert send(traveller, timedelta(hours=23, minutes=59)) == []
    [again] = send(traveller, timedelta(minutes=1))
    assert again.to == ["alice@example.com"]


def test_it_sends_the_digest_only_to_players_who_asked_for_it(traveller, alice, bob):
    alice.email_notifications = bob.email_notifications = False
    alice.save()
    bob.save()
    make_game([alice, bob])

    assert send() == []


def test_it_sends_no_digest_when_no_game_waits(traveller, alice, bob):
    alice.email_digest = True
    alice.email_notifications = bob.email_notifications = False
    alice.save()
    bob.save()
    game = make_game([bob, alice])

    assert send() == []
    alice.refresh_from_db()
    assert alice.digest_sent_at is None

    end_turn(game)
    [digest] = send(traveller, timedelta(hours=1))
    assert digest.subject == "Full Set: 1 game is waiting for you"
    assert "This correspondence game is waiting for your move:" in digest.body


def test_it_writes_in_the_players_language(traveller, alice, bob):
    alice.language = "zh-hans"
    alice.email_digest = True
    alice.save()
    make_game([alice, bob])

    first = {m.subject: m for m in send()}
    later = {m.subject: m for m in send(traveller, 2.5 * DAY)}

    turn = first["Full Set：轮到你对 bob 出牌了"]
    digest = first["Full Set：有 1 局游戏在等你"]
    reminder = later["Full Set：你与 bob 的对局快要超时了"]
    assert "alice，你好：" in turn.body
    assert "2026年11月5日 09:00 UTC" in turn.body
    assert "（还有 3\xa0日）做出决定" in turn.body
    assert "你好" in digest.body
    for message in (turn, reminder, digest):
        assert "Hello" not in message.body


def test_it_writes_in_english_when_no_language_is_saved(traveller, alice, bob):
    alice.language = ""
    alice.save()
    make_game([alice, bob])

    [message] = send()

    assert message.subject == "Full Set: your move against bob"


class FailingForAlice(EmailBackend):
    def send_messages(self, messages):
        if any("alice@example.com" in m.to for m in messages):
            raise smtplib.SMTPRecipientsRefused({"alice@example.com": (550, b"No such user")})
        return super().send_messages(messages)


def test_it_logs_a_failing_send_and_goes_on(traveller, settings, caplog, alice, bob, charlie):
    settings.MAILERS = {"default": {"BACKEND": f"{__name__}.FailingForAlice"}}
    make_game([alice, bob])
    make_game([charlie, bob])

    with caplog.at_level(logging.ERROR, logger="games.play.emails"):
        messages = send()

    assert addressees(messages) == ["charlie@example.com"]
    [record] = caplog.records
    assert record.getMessage().startswith("Sending games/emails/your_turn to user")
    assert record.exc_info[0] is smtplib.SMTPRecipientsRefused
    assert send() == [], "a claimed email is not sent twice"


def test_it_reads_a_bounded_number_of_queries(traveller, alice, bob, charlie):
    def queries_per_round():
        with CaptureQueriesContext(connection) as queries:
            sent = len(send(traveller, 2.5 * DAY))
        return len(queries) - sent  # one claim per email sent

    for user in (alice, bob, charlie):
        user.email_digest = True
        user.save()
    make_game([alice, bob])
    one_game = queries_per_round()
    make_game([bob, charlie])
    make_game([charlie, alice, bob])
    make_game([alice, charlie])

    assert queries_per_round() == one_game


@pytest.mark.django_db(transaction=True)  # the worker closes old connections between rounds
def test_it_sends_the_emails_from_the_worker(traveller, alice, bob):
    make_game([alice, bob])

    call_command("worker", "--once")

    assert addressees(mail.outbox) == ["alice@example.com"]


def test_no_turn_email_goes_to_an_unconfirmed_address(traveller, alice, bob):
    alice.email_confirmed = False
    alice.save()
    make_game([alice, bob])
    assert send(traveller, timedelta(minutes=3)) == []


def test_no_digest_goes_to_an_unconfirmed_address(traveller, alice, bob):
    alice.email_confirmed = False
    alice.email_digest = True
    alice.email_notifications = False
    alice.save()
    make_game([alice, bob])
    assert send() == []


def test_a_reminder_claimed_during_a_move_leaves_the_next_decision_remindable(
    alice, bob, monkeypatch
):
    # The worker's claim does not wait for the game's lock: it may land between the move's
    # reading of the seats and its writing of their clocks (here, in the move's transaction).
    game = make_game([alice, bob])
    set_position(game, "alice hand: 5M 1M 2M 3M 4M 10M red red red\nbob hand: 1M")
    game.refresh_from_db()
    before = Seat.objects.get(game=game, position=0)
    apply = rules.apply

    def claimed_meanwhile(state, seat, move):
        Seat.objects.filter(
            pk=before.pk, reminded=False, awaited_since=before.awaited_since
        ).update(reminded=True)  # as emails._send_reminders claims it
        return apply(state, seat, move)

    monkeypatch.setattr(rules, "apply", claimed_meanwhile)
    game.play(0, rules.Move.end())  # over 7 cards: alice's discard is a new decision

    after = Seat.objects.get(pk=before.pk)
    assert after.awaited_since != before.awaited_since
    assert after.reminded is False
