"""Closing an account (games/play/closing.py): by its owner from the settings, or in the admin."""

import pytest
from django.contrib.auth import SESSION_KEY
from django.contrib.auth.models import Permission
from django.db.models import ProtectedError
from django.urls import reverse

from accounts.models import User
from accounts.tests.conftest import PASSWORD
from games.models import ChatMessage, Game, Invitation, Seat

pytestmark = pytest.mark.django_db

CLOSE = reverse("accounts:close_account")


def table(host, *players, seat_count=3, start=False, **fields):
    game = Game.objects.create(host=host, seat_count=seat_count, **fields)
    for position, user in enumerate([host, *players]):
        Seat.objects.create(game=game, user=user, position=position)
    return game.start() if start else game


@pytest.fixture
def dana(db):
    return User.objects.create_user("dana", "dana@example.com", PASSWORD, email_confirmed=True)


@pytest.fixture
def bobs_world(alice, bob, charlie, dana):
    """What bob holds: a table he hosts, a seat at alice's, a game of three and one of two in
    play, and an invitation to dana's private table."""
    hosted = table(bob, charlie)
    seated = table(alice, bob)
    trio = table(alice, bob, charlie, start=True)
    pair = table(charlie, bob, seat_count=2, start=True)
    private = table(dana, private=True)
    Invitation.objects.create(game=private, user=bob, invited_by=dana)
    return {"hosted": hosted, "seated": seated, "trio": trio, "pair": pair, "private": private}


def test_the_page_says_what_closing_does_to_the_players_games(client, bob, bobs_world):
    client.force_login(bob)

    page = client.get(CLOSE).text

    assert "your 2 games in play are resigned" in page
    assert "the 2 tables you sit at that have not started" in page
    assert f'href="{CLOSE}"' in client.get(reverse("accounts:settings")).text


def test_closing_resigns_cancels_and_leaves_and_logs_out(client, alice, bob, charlie, bobs_world):
    client.force_login(bob)

    response = client.post(CLOSE, {"current_password": PASSWORD, "understood": "on"}, follow=True)

    assert "Your account is closed. Thank you for playing." in response.text
    assert SESSION_KEY not in client.session
    assert not User.objects.get(pk=bob.pk).is_active
    assert not client.login(username="bob", password=PASSWORD)
    world = {name: Game.objects.get(pk=game.pk) for name, game in bobs_world.items()}
    assert world["hosted"].status == Game.Status.CANCELLED
    assert world["seated"].status == Game.Status.OPEN
    assert world["seated"].seat_of(bob) is None and world["seated"].seat_of(alice) == 0
    # The game of three plays on, bob's seat by the defaults; the game of two is charlie's.
    trio = world["trio"]
    assert trio.status == Game.Status.ACTIVE and trio.state().resigned == (1,)
    assert Seat.objects.get(game=trio, user=bob).absent
    assert world["pair"].status == Game.Status.FINISHED
    assert world["pair"].state().winner == 0
    assert not Invitation.objects.filter(user=bob).exists()
    # His games stay, under his name: nothing of the other players' is gone.
    assert Seat.objects.filter(user=bob).count() == 3


@pytest.mark.parametrize(
    ("fields", "error"),
    [
        ({"current_password": "not-it", "understood": "on"}, "entered incorrectly"),
        ({"current_password": PASSWORD}, "Tick the box to close your account."),
    ],
)
def test_closing_without_the_password_or_the_box_changes_nothing(
    client, bob, bobs_world, fields, error
):
    client.force_login(bob)

    response = client.post(CLOSE, fields)

    assert response.status_code == 200 and error in response.text
    assert User.objects.get(pk=bob.pk).is_active
    assert Game.objects.get(pk=bobs_world["hosted"].pk).status == Game.Status.OPEN
    assert Game.objects.get(pk=bobs_world["trio"].pk).state().resigned == ()
    assert client.get(reverse("accounts:settings")).status_code == 200  # still logged in


def test_a_closed_accounts_profile_is_gone_and_its_name_stays_taken(client, bob):
    client.force_login(bob)
    client.post(CLOSE, {"current_password": PASSWORD, "understood": "on"})

    assert client.get(reverse("accounts:profile", args=["bob"])).status_code == 404
    response = client.post(
        reverse("accounts:signup"),
        {"username": "Bob", "email": "new@example.com", "password1": "x9!Long-enough-pw"}
        | {"password2": "x9!Long-enough-pw"},
    )
    assert response.status_code == 200 and not User.objects.filter(email="new@example.com")


def admin_client(client):
    admin = User.objects.create_superuser("root", "root@example.com", PASSWORD)
    client.force_login(admin)
    return client


def test_unticking_active_in_the_admin_closes_the_account(client, bob, bobs_world):
    admin = admin_client(client)
    page = admin.get(reverse("admin:accounts_user_change", args=[bob.pk]))
    form = page.context["adminform"].form
    data = {
        name: value
        for name, value in form.initial.items()
        if value is not None and name not in ("is_active", "groups", "user_permissions")
    }
    data |= {"last_login_0": "", "last_login_1": "", "date_joined_0": "2026-01-01"}
    data |= {"date_joined_1": "00:00:00", "_save": "Save"}

    response = admin.post(reverse("admin:accounts_user_change", args=[bob.pk]), data)

    assert response.status_code == 302, response.context["adminform"].form.errors
    assert not User.objects.get(pk=bob.pk).is_active
    assert Game.objects.get(pk=bobs_world["hosted"].pk).status == Game.Status.CANCELLED
    assert Game.objects.get(pk=bobs_world["trio"].pk).state().resigned == (1,)


def test_the_admins_close_action_closes_each_chosen_account(client, bob, charlie, bobs_world):
    response = admin_client(client).post(
        reverse("admin:accounts_user_changelist"),
        {"action": "close_accounts", "_selected_action": [bob.pk, charlie.pk]},
    )

    assert response.status_code == 302
    assert not User.objects.filter(pk__in=[bob.pk, charlie.pk], is_active=True).exists()
    trio = Game.objects.get(pk=bobs_world["trio"].pk)
    # Two of three resigned: alice is the one left, and wins.
    assert trio.status == Game.Status.FINISHED and trio.state().winner == 0


def test_an_account_with_games_or_chat_cannot_be_deleted(client, alice, bob, charlie):
    game = table(alice, bob, seat_count=2, start=True)
    ChatMessage.objects.create(game=game, user=bob, room="players", text="hello")
    table(charlie)

    for user in (bob, alice, charlie):
        with pytest.raises(ProtectedError):
            user.delete()
    response = admin_client(client).post(
        reverse("admin:accounts_user_delete", args=[bob.pk]), {"post": "yes"}
    )

    assert "protected" in response.text
    assert User.objects.filter(pk=bob.pk).exists()
    assert Game.objects.filter(pk=game.pk, status=Game.Status.ACTIVE).exists()


def test_an_account_that_never_sat_down_can_be_deleted(dana):
    dana.delete()
    assert not User.objects.filter(username="dana").exists()


def test_a_chat_report_cannot_be_made_in_the_admin(client):
    assert admin_client(client).get(reverse("admin:games_report_add")).status_code == 403


def test_staff_who_may_only_view_users_cannot_close_one(client, bob):
    staff = User.objects.create_user("viewer", "v@example.com", PASSWORD, is_staff=True)
    staff.user_permissions.set(Permission.objects.filter(codename="view_user"))
    client.force_login(staff)

    client.post(
        reverse("admin:accounts_user_changelist"),
        {"action": "close_accounts", "_selected_action": [bob.pk]},
    )

    assert User.objects.get(pk=bob.pk).is_active
