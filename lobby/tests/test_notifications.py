"""The notifications page: each notification as a sentence, marked read once shown."""

import pytest
from django.test import Client
from django.urls import reverse

from games import rules
from games.models import Game, Notification
from lobby.tests.conftest import open_table

pytestmark = pytest.mark.django_db

URL = reverse("lobby:notifications")
READ_ALL = reverse("lobby:read_notifications")


@pytest.fixture
def game(alice, bob):
    """A game in play between alice and bob, with the notifications of its start cleared."""
    game = open_table(alice, bob, seat_count=2).start()
    Notification.objects.all().delete()
    return game


def notify(user, game, kind, actor=None, **data):
    return Notification.objects.create(user=user, game=game, kind=kind, actor=actor, data=data)


def test_it_says_each_kind_of_notification_in_a_sentence(client, alice, bob, game):
    waiting_room = open_table(alice, seat_count=3)
    notify(bob, game, Notification.Kind.YOUR_TURN)
    notify(bob, game, Notification.Kind.TARGETED, alice, card="sly_deal")
    notify(bob, game, Notification.Kind.ENDED)
    notify(bob, waiting_room, Notification.Kind.INVITED, alice)
    client.force_login(bob)

    response = client.get(URL)

    text = response.text
    sentences = [
        "Alice Liddell invited you to a table",  # newest first
        "The game with Alice Liddell has ended",
        "Alice Liddell played Sly Deal on you",
        "It is your turn in the game with Alice Liddell",
    ]
    positions = [text.index(sentence) for sentence in sentences]
    assert positions == sorted(positions)
    assert f'<a href="{reverse("lobby:table", args=[waiting_room.code])}">Alice' in text
    assert text.count(f'<a href="{game.get_absolute_url()}">') == 3


def test_it_tells_whose_turn_after_a_real_move(client, alice, bob):
    game = open_table(alice, bob, seat_count=2, pace=Game.Pace.CORRESPONDENCE).start()
    state = game.state()
    game.play(state.current, rules.Move.end())
    waiting = bob if state.current == 0 else alice
    client.force_login(waiting)

    response = client.get(URL)

    other = "bob" if waiting == alice else "Alice Liddell"
    assert f"It is your turn in the game with {other}" in response.text


def test_it_draws_unread_notifications_once_then_marks_them_read(client, alice, bob, game):
    old = notify(bob, game, Notification.Kind.ENDED)
    Notification.objects.filter(pk=old.pk).update(read_at=game.started_at)
    new = notify(bob, game, Notification.Kind.TARGETED, alice, card="debt_collector")
    client.force_login(bob)

    first = client.get(URL)
    second = client.get(URL)

    assert first.text.count("notification unread") == 1
    assert first.text.index("notification unread") < first.text.index("played Debt Collector")
    assert 'id="nav-notifications" href="/notifications/">' in first.text  # no badge left
    new.refresh_from_db()
    assert new.read_at is not None
    assert "notification unread" not in second.text


def test_it_marks_all_read_on_post(client, alice, bob, game):
    for _ in range(3):
        notify(bob, game, Notification.Kind.YOUR_TURN)
    client.force_login(bob)

    response = client.post(READ_ALL)

    assert response.status_code == 302 and response.url == URL
    assert not Notification.objects.filter(read_at=None).exists()


def test_it_changes_nothing_on_a_get_of_mark_all_read(client, bob, game):
    notify(bob, game, Notification.Kind.YOUR_TURN)
    client.force_login(bob)

    response = client.get(READ_ALL)

    assert response.url == URL
    assert Notification.objects.filter(read_at=None).count() == 1


def test_it_refuses_mark_all_read_without_the_csrf_token(bob, game):
    notify(bob, game, Notification.Kind.YOUR_TURN)
    client = Client(enforce_csrf_checks=True)
    client.force_login(bob)

    response = client.post(READ_ALL)

    assert response.status_code == 403
    assert Notification.objects.filter(read_at=None).count() == 1


def test_it_tells_the_users_other_pages_when_it_marks_notifications_read(
    client, bob, game, monkeypatch, django_capture_on_commit_callbacks
):
    told = []
    monkeypatch.setattr("lobby.views.broadcast_users", told.append)
    notify(bob, game, Notification.Kind.YOUR_TURN)
    client.force_login(bob)

    with django_capture_on_commit_callbacks(execute=True):
        client.get(URL)
        client.get(URL)  # nothing left to mark: nobody to tell

    assert told == [{bob.pk}]


def test_it_shows_an_outsider_only_their_own_notifications(client, alice, bob, charlie, game):
    notify(bob, game, Notification.Kind.TARGETED, alice, card="sly_deal")
    client.force_login(charlie)

    response = client.get(URL)

    assert "Sly Deal" not in response.text
    assert "No notifications yet." in response.text
    assert Notification.objects.filter(read_at=None).count() == 1


@pytest.mark.parametrize("url", [URL, READ_ALL])
def test_it_sends_anonymous_visitors_to_log_in(client, url):
    response = client.post(url) if url == READ_ALL else client.get(url)

    assert response.status_code == 302
    assert response.url == f"{reverse('accounts:login')}?next={url}"


def test_it_marks_an_invitation_read_when_its_waiting_room_is_opened(client, alice, bob):
    table = open_table(alice, private=True)
    client.force_login(alice)
    client.post(reverse("lobby:invite", args=[table.code]), {"username": "bob"})
    client.force_login(bob)

    client.get(reverse("lobby:table", args=[table.code]))

    assert Notification.objects.get(user=bob).read_at is not None


def test_it_speaks_chinese(client, alice, bob, game):
    notify(bob, game, Notification.Kind.TARGETED, alice, card="sly_deal")
    client.force_login(bob)

    response = client.get(URL, headers={"Accept-Language": "zh-hans"})

    assert "通知" in response.text
    assert "Alice Liddell 对你打出了盗取" in response.text


def test_it_links_an_ended_game_to_its_table(client, bob, game):
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    notify(bob, game, Notification.Kind.ENDED)
    client.force_login(bob)

    response = client.get(URL)

    assert f'<a href="{game.get_absolute_url()}">The game with Alice Liddell has ended' in (
        response.text
    )
