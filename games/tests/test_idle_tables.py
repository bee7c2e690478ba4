"""Open live tables nobody sat down at for OPEN_LIVE_TABLE_MINUTES close by themselves."""

from datetime import timedelta

import pytest
import time_machine
from django.urls import reverse
from django.utils import timezone

from games.models import Game
from games.play import clocks
from lobby.tests.conftest import open_table

pytestmark = pytest.mark.django_db

T0 = timezone.datetime(2026, 12, 7, 9, 0, tzinfo=timezone.UTC)


@pytest.fixture(autouse=True)
def look_every_time(monkeypatch):
    monkeypatch.setattr(clocks, "IDLE_CHECK_EVERY", 0)


def status(game):
    return Game.objects.get(pk=game.pk).status


def test_it_closes_a_live_table_nobody_sat_down_at_for_half_an_hour(client, alice, bob):
    with time_machine.travel(T0, tick=False) as traveller:
        idle = open_table(alice, seat_count=3)
        traveller.shift(timedelta(minutes=20))
        filling = open_table(bob, seat_count=3)
        traveller.shift(timedelta(minutes=11))

        assert clocks.close_idle_tables() == 1

    assert status(idle) == Game.Status.CANCELLED and status(filling) == Game.Status.OPEN
    client.force_login(alice)
    page = client.get(reverse("lobby:table", args=[idle.code])).text
    assert "This table closed: nobody sat down for 30 minutes." in page
    home = client.get(reverse("lobby:quick_game"), follow=True)
    assert idle.code not in home.text


def test_a_player_sitting_down_keeps_the_table_open(alice, bob, charlie):
    with time_machine.travel(T0, tick=False) as traveller:
        game = open_table(alice, seat_count=3)
        traveller.shift(timedelta(minutes=25))
        game.join(bob)
        traveller.shift(timedelta(minutes=25))

        assert clocks.close_idle_tables() == 0
        traveller.shift(timedelta(minutes=6))
        assert clocks.close_idle_tables() == 1


def test_it_leaves_correspondence_tables_and_games_in_play_alone(alice, bob):
    with time_machine.travel(T0, tick=False) as traveller:
        slow = open_table(alice, seat_count=3, pace="correspondence", pace_days=2)
        playing = open_table(bob, alice, seat_count=2).start()
        traveller.shift(timedelta(days=3))

        assert clocks.close_idle_tables() == 0

    assert status(slow) == Game.Status.OPEN and status(playing) == Game.Status.ACTIVE


def test_the_hosts_own_cancel_says_so(client, alice):
    game = open_table(alice, seat_count=3)
    client.force_login(alice)

    client.post(reverse("lobby:cancel", args=[game.code]))

    page = client.get(reverse("lobby:table", args=[game.code])).text
    assert "This table was cancelled." in page


def test_it_can_be_switched_off(alice, settings):
    settings.OPEN_LIVE_TABLE_MINUTES = 0
    with time_machine.travel(T0, tick=False) as traveller:
        game = open_table(alice, seat_count=3)
        traveller.shift(timedelta(days=1))
        assert clocks.close_idle_tables() == 0
    assert status(game) == Game.Status.OPEN


def test_it_leaves_a_private_table_waiting_for_invited_friends(client, alice):
    with time_machine.travel(T0, tick=False) as traveller:
        private = open_table(alice, seat_count=3, private=True)
        public = open_table(alice, seat_count=3)
        client.force_login(alice)
        room = client.get(reverse("lobby:table", args=[public.code])).text
        assert "The table closes if nobody sits down at it for 30 minutes." in room
        private_room = client.get(reverse("lobby:table", args=[private.code])).text
        assert "The table closes if nobody" not in private_room
        traveller.shift(timedelta(hours=2))

        assert clocks.close_idle_tables() == 1

    assert status(private) == Game.Status.OPEN and status(public) == Game.Status.CANCELLED
