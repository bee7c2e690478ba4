"""Vacation on the "Your turn" page (issue 15, part 3): taking it there, and who is away."""

from datetime import datetime, timedelta

import pytest
import time_machine
from django.urls import reverse
from django.utils import timezone

from accounts.models import Vacation
from games.models import Game
from games.play.vacation import take_vacation
from lobby.tests.conftest import open_table

pytestmark = pytest.mark.django_db

URL = reverse("lobby:your_turn")
NOW = datetime(2026, 3, 10, 12, 0, tzinfo=timezone.UTC)


@pytest.fixture(autouse=True)
def frozen():
    with time_machine.travel(NOW, tick=False) as traveller:
        yield traveller


def started(host, *players, **fields):
    return open_table(host, *players, seat_count=len(players) + 1, **fields).start()


def test_it_tells_opponents_who_is_on_vacation_until_when(client, alice, bob):
    started(alice, bob, pace=Game.Pace.CORRESPONDENCE)
    started(alice, bob, pace=Game.Pace.LIVE)
    take_vacation(alice, 2)
    client.force_login(bob)

    page = client.get(URL).text

    until = (NOW + timedelta(days=2)).isoformat()
    line = f'Alice Liddell is on vacation until <time data-local-time datetime="{until}">'
    assert page.count(line) == 1, "in the correspondence game only"


def test_it_shows_nobody_away_when_nobody_is(client, alice, bob):
    started(alice, bob, pace=Game.Pace.CORRESPONDENCE)
    client.force_login(bob)

    assert "is on vacation" not in client.get(URL).text


def test_it_lets_me_take_a_vacation_from_the_page_and_come_back_to_it(client, alice, bob):
    started(alice, bob, pace=Game.Pace.CORRESPONDENCE)
    client.force_login(alice)
    page = client.get(URL).text
    assert f'action="{reverse("accounts:take_vacation")}"' in page
    assert f'name="next" value="{URL}"' in page

    response = client.post(reverse("accounts:take_vacation"), {"days": 3, "next": URL}, follow=True)

    assert response.redirect_chain == [(URL, 302)]
    assert Vacation.objects.get(user=alice).days == 3
    assert "You are on vacation until" in response.text
    assert f'action="{reverse("accounts:end_vacation")}"' in response.text
