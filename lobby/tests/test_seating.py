"""Game.join, Game.leave and Game.cancel: seating under the game row's lock."""

import threading

import pytest
from django.contrib.auth import get_user_model
from django.db import connection

from games.models import Game, SeatingError
from lobby.tests.conftest import open_table


@pytest.mark.django_db(transaction=True)
def test_it_gives_the_last_seat_to_one_of_two_racing_players(alice, bob, charlie):
    dave = get_user_model().objects.create_user("dave")
    game = open_table(alice, bob, seat_count=3)
    barrier = threading.Barrier(2)
    outcomes = {}

    def take_seat(user):
        barrier.wait(timeout=30)
        try:
            Game.objects.get(pk=game.pk).join(user)
            outcomes[user.username] = "seated"
        except SeatingError as e:
            outcomes[user.username] = str(e)
        finally:
            connection.close()

    threads = [threading.Thread(target=take_seat, args=(u,)) for u in (charlie, dave)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert sorted(outcomes.values()) == ["This game has already started.", "seated"]
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    assert game.seats.count() == 3


@pytest.mark.django_db
def test_it_refuses_to_cancel_twice(alice):
    game = open_table(alice).cancel()

    with pytest.raises(SeatingError):
        game.cancel()
