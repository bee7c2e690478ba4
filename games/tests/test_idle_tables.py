"""Open live tables nobody sat down at for OPEN_LIVE_TABLE_MINUTES close by themselves."""

from datetime import timedelta

import pytest
import time_machine
from asgiref.sync import sync_to_async
from django.core.cache import cache
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
        assert "The table closes if nobody sits down at it for 30 minutes while its host" in room
        private_room = client.get(reverse("lobby:table", args=[private.code])).text
        assert "The table closes if nobody" not in private_room
        traveller.shift(timedelta(hours=2))

        assert clocks.close_idle_tables() == 1

    assert status(private) == Game.Status.OPEN and status(public) == Game.Status.CANCELLED


def test_a_host_waiting_in_the_room_keeps_the_table_open(alice):
    with time_machine.travel(T0, tick=False) as traveller:
        game = open_table(alice, seat_count=3)
        traveller.shift(timedelta(hours=1))
        clocks.host_waiting(game.code, 70)  # the room's socket notes it at every check

        assert clocks.close_idle_tables() == 0
        cache.delete(f"host-waiting:{game.code}")  # the host left the room
        assert clocks.close_idle_tables() == 1


@pytest.mark.django_db(transaction=True)
async def test_the_hosts_waiting_room_socket_says_the_host_is_there(alice, bob):
    from games.tests.test_socket_bounds import open_socket

    game = await sync_to_async(open_table)(alice, seat_count=3)
    key = f"host-waiting:{game.code}"
    guest, connected, _code = await open_socket(f"/ws/lobby/{game.code}/", bob)
    await guest.receive_from(timeout=5)
    assert connected and await sync_to_async(cache.get)(key) is None, "not for a guest"

    host, connected, _code = await open_socket(f"/ws/lobby/{game.code}/", alice)
    await host.receive_from(timeout=5)
    await guest.disconnect()
    await host.disconnect()

    assert connected and await sync_to_async(cache.get)(key) == 1


def test_a_player_sitting_down_while_the_worker_looks_keeps_the_table_open(alice, bob, monkeypatch):
    # The worker finds the table idle, then bob sits down before its cancel takes the lock.
    with time_machine.travel(T0, tick=False) as traveller:
        game = open_table(alice, seat_count=3)
        traveller.shift(timedelta(minutes=31))
        real_cancel = Game.cancel

        def sat_down_first(table, **fields):
            Game.objects.get(pk=game.pk).join(bob)
            return real_cancel(table, **fields)

        monkeypatch.setattr(Game, "cancel", sat_down_first)

        assert clocks.close_idle_tables() == 0

    assert status(game) == Game.Status.OPEN and game.seat_of(bob) == 1
