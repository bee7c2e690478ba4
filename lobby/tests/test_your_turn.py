"""The "your turn" page: the games waiting for me, the games waiting for others, the last ones."""

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from games import rules
from games.models import Game, Seat
from lobby.tests.conftest import open_table

pytestmark = pytest.mark.django_db

URL = reverse("lobby:your_turn")


def words(response):
    """Return the page's text with Django's non-breaking spaces (in "2\xa0hours") as spaces."""
    return response.text.replace("\xa0", " ")


def started(host, *players, **fields):
    return open_table(host, *players, seat_count=len(players) + 1, **fields).start()


def turn_of(user, game):
    """Make it `user`'s turn in a game of two: the other player ends theirs if need be."""
    state = game.state()
    if state.current != game.seat_of(user):
        game.play(state.current, rules.Move.end())
    game.refresh_from_db()
    return game


def set_deadline(game, hours):
    """Move the running clock of `game` to end in `hours` from now."""
    deadline = timezone.now().replace(microsecond=0) + timedelta(hours=hours)
    Seat.objects.filter(game=game, deadline__isnull=False).update(
        deadline=deadline, timeout_at=deadline
    )
    Game.objects.filter(pk=game.pk).update(turn_deadline=deadline)
    return deadline


def finish(game, user, result, days_ago):
    ended = timezone.now() - timedelta(days=days_ago)
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED, ended_at=ended)
    Seat.objects.filter(game=game).update(
        deadline=None, timeout_at=None, result=Seat.Result.LOSS, ended_at=ended
    )
    Seat.objects.filter(game=game, user=user).update(result=result)


def test_it_lists_the_games_waiting_for_me_most_urgent_first(client, alice, bob, charlie):
    later = turn_of(alice, started(alice, bob, pace=Game.Pace.CORRESPONDENCE))
    sooner = turn_of(alice, started(charlie, alice))
    set_deadline(later, hours=40)
    deadline = set_deadline(sooner, hours=2)
    client.force_login(alice)

    response = client.get(URL)

    assert [seat.game for seat in response.context["waiting_for_me"]] == [sooner, later]
    text = words(response)
    section = text[text.index('id="waiting-for-me"') : text.index('id="waiting-for-others"')]
    assert section.index(sooner.get_absolute_url()) < section.index(later.get_absolute_url())
    assert "charlie" in section and "bob" in section
    assert "Correspondence, 3 days per move" in section
    assert f'<time datetime="{deadline.isoformat()}" data-local-time>' in section
    assert "1 hour, 59 minutes left" in section or "2 hours left" in section


def test_it_shows_a_deadline_passed_as_reserve_time(client, alice, bob):
    game = turn_of(alice, started(alice, bob, pace=Game.Pace.CORRESPONDENCE))
    now = timezone.now()
    passed, runs_out = now - timedelta(hours=1), now + timedelta(days=2, minutes=1)
    Seat.objects.filter(game=game, user=alice).update(deadline=passed, timeout_at=runs_out)
    client.force_login(alice)

    response = client.get(URL)

    assert "Time is up: 2 days of reserve left" in words(response)
    # The time shown is when the reserve runs out, as on the table, not the deadline passed.
    assert f'<time datetime="{runs_out.isoformat()}" data-local-time>' in words(response)
    assert passed.isoformat() not in words(response)


def test_it_lists_the_games_waiting_for_others_soonest_first(client, alice, bob, charlie):
    mine = turn_of(alice, started(alice, bob))
    later = turn_of(bob, started(alice, bob))
    sooner = turn_of(charlie, started(charlie, alice))
    set_deadline(later, hours=30)
    set_deadline(sooner, hours=3)
    client.force_login(alice)

    response = client.get(URL)

    assert [seat.game for seat in response.context["waiting_for_others"]] == [sooner, later]
    assert [seat.game for seat in response.context["waiting_for_me"]] == [mine]
    text = words(response)
    section = text[text.index('id="waiting-for-others"') : text.index('id="finished"')]
    assert section.index(sooner.get_absolute_url()) < section.index(later.get_absolute_url())
    assert "Waiting for charlie" in section
    assert "2 hours, 59 minutes left" in section or "3 hours left" in section


def test_it_lists_my_finished_games_last_ended_first_with_my_result(client, alice, bob):
    older = started(alice, bob)
    newer = started(bob, alice)
    drawn = started(alice, bob)
    finish(older, alice, Seat.Result.LOSS, days_ago=3)
    finish(newer, alice, Seat.Result.WIN, days_ago=1)
    finish(drawn, alice, Seat.Result.DRAW, days_ago=2)
    open_table(alice)  # a waiting room is in none of the lists
    client.force_login(alice)

    response = client.get(URL)

    assert [seat.game for seat in response.context["finished"]] == [newer, drawn, older]
    text = response.text[response.text.index('id="finished"') :]
    assert text.index("Won") < text.index("No winner") < text.index("Lost")
    assert newer.get_absolute_url() in text
    assert response.context["waiting_for_me"] == response.context["waiting_for_others"] == []


def test_it_shows_an_outsider_none_of_the_games_of_others(client, alice, bob, charlie):
    game = started(alice, bob)
    client.force_login(charlie)

    response = client.get(URL)

    assert response.status_code == 200
    assert game.get_absolute_url() not in response.text
    assert "No game is waiting for you." in response.text
    assert "No game is waiting for other players." in response.text
    assert "No finished games yet." in response.text


def test_it_sends_anonymous_visitors_to_log_in(client):
    response = client.get(URL)

    assert response.status_code == 302
    assert response.url == f"{reverse('accounts:login')}?next={URL}"


def test_it_reads_a_fixed_number_of_queries_however_many_games(client, alice, bob, charlie):
    def queries():
        with CaptureQueriesContext(connection) as captured:
            response = client.get(URL)
        assert response.status_code == 200
        return len(captured)

    def one_of_each():
        turn_of(alice, started(alice, bob))
        turn_of(charlie, started(charlie, alice))
        finish(started(alice, bob, charlie), alice, Seat.Result.WIN, days_ago=1)

    client.force_login(alice)
    one_of_each()
    few = queries()
    for _ in range(4):
        one_of_each()

    assert queries() == few <= 10


def test_it_speaks_chinese(client, alice, bob):
    game = turn_of(alice, started(alice, bob, pace=Game.Pace.CORRESPONDENCE))
    set_deadline(game, hours=5)
    client.force_login(alice)

    response = client.get(URL, headers={"Accept-Language": "zh-hans"})

    text = words(response)
    assert "等你行动" in text
    assert "还剩 4 小时" in text
    assert "没有等待其他玩家的对局。" in text
