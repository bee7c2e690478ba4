"""Reports and blocks at the chat: what a blocker still reads, how many reports one reader files."""

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.urls import reverse

from accounts.blocks import block
from games import rules
from games.chat import messages as chat
from games.chat.messages import ChatMessage, Report
from games.models import Game

pytestmark = pytest.mark.django_db


@pytest.fixture
def dave(db):
    return get_user_model().objects.create_user("dave", "dave@example.com", "pw-dave-12345")


def table(client, game):
    return client.get(reverse("games:table", args=[game.code])).text


def say(game, user, text):
    return chat.post(game, user, chat.seat_of(game, user), text=text)


def report(client, game, message, htmx=False):
    headers = {"HX-Request": "true"} if htmx else {}
    return client.post(
        reverse("games:chat_report", args=[game.code, message.pk]), headers=headers, follow=True
    )


def test_it_hides_a_blocked_spectators_messages_from_a_spectator_who_blocked_them(
    client, table_game, charlie, dave
):
    block(charlie, dave)
    say(table_game, dave, "from the blocked spectator")
    say(table_game, charlie, "my own words")

    client.force_login(charlie)
    page = table(client, table_game)

    assert "from the blocked spectator" not in page
    assert "my own words" in page
    client.force_login(dave)
    assert "from the blocked spectator" in table(
        client, table_game
    )  # the blocked one sees no change


def test_it_hides_a_blocked_spectators_messages_from_a_player_once_the_game_ends(
    client, table_game, alice, bob, charlie
):
    block(alice, charlie)
    say(table_game, charlie, "spectator words")
    say(table_game, alice, "player words")
    table_game.play(1, rules.Move.resign())
    assert Game.objects.get(pk=table_game.pk).status == Game.Status.FINISHED

    client.force_login(alice)
    alice_page = table(client, table_game)
    client.force_login(bob)
    bob_page = table(client, table_game)

    assert "spectator words" not in alice_page and "player words" in alice_page
    assert "spectator words" in bob_page


def test_it_keeps_a_blockers_own_messages_on_their_page(client, table_game, alice, bob):
    block(alice, bob)
    say(table_game, alice, "still talking")
    say(table_game, bob, "not heard")

    client.force_login(alice)
    page = table(client, table_game)

    assert "still talking" in page and "not heard" not in page


def test_it_records_one_report_per_message_and_reader(client, table_game, alice, bob):
    message = say(table_game, alice, "rude words")
    client.force_login(bob)

    for _ in range(3):
        response = report(client, table_game, message)

    assert response.status_code == 200
    assert Report.objects.filter(message=message, reporter=bob).count() == 1


def test_it_refuses_a_21st_report_in_a_day_readably(client, table_game, alice, bob, traveller):
    client.force_login(bob)
    messages = [
        ChatMessage.objects.create(game=table_game, user=alice, room="players", text=f"m{n}")
        for n in range(22)
    ]
    for message in messages[:20]:
        report(client, table_game, message)

    refused = report(client, table_game, messages[20])
    htmx = report(client, table_game, messages[21], htmx=True)

    assert "You have sent 20 reports today: try again tomorrow." in refused.text
    assert 'role="alert">You have sent 20 reports today' in htmx.text
    assert "<html" not in htmx.text  # the button's place gets the reason, not a whole page
    assert Report.objects.filter(reporter=bob).count() == 20
    traveller.shift(timedelta(days=1, minutes=1))
    report(client, table_game, messages[20])
    assert Report.objects.filter(reporter=bob).count() == 21


def test_it_answers_an_htmx_report_with_the_mark_in_the_buttons_place(
    client, table_game, alice, bob
):
    message = say(table_game, alice, "rude words")
    client.force_login(bob)

    response = report(client, table_game, message, htmx=True)

    assert response.text.strip() == '<span class="chat-reported">Reported</span>'


def test_it_shows_a_message_already_reported_as_reported(client, table_game, alice, bob):
    rude = say(table_game, alice, "rude words")
    say(table_game, alice, "kind words")
    client.force_login(bob)
    report(client, table_game, rude)

    page = table(client, table_game)

    rude_line = page.split("rude words")[1].split("</li>")[0]
    kind_line = page.split("kind words")[1].split("</li>")[0]
    assert "Reported" in rude_line and "chat-report" not in rude_line.replace("chat-reported", "")
    assert "Report this message" in kind_line


# --- what a moderator does with a report (games/admin.py) ------------------------------------


def moderator(client):
    admin = get_user_model().objects.create_superuser("root", "root@example.com", "pw-root-12345")
    client.force_login(admin)
    return client


def test_a_moderator_reads_a_report_with_the_conversation_around_it(client, table_game, alice, bob):
    earlier = say(table_game, bob, "you always win")
    message = say(table_game, alice, "rude words")
    say(table_game, bob, "please stop")
    report_row = Report.objects.create(message=message, reporter=bob)

    page = moderator(client).get(reverse("admin:games_report_change", args=[report_row.pk]))

    text = page.text
    assert text.index(earlier.text) < text.index("\u25b6 ") < text.index("please stop")
    assert "<b>alice</b>: rude words" in text


def test_a_removed_message_is_shown_to_nobody_and_cannot_be_reported(
    client, table_game, alice, bob
):
    message = say(table_game, alice, "rude words")
    kept = say(table_game, alice, "good game")
    report_row = Report.objects.create(message=message, reporter=bob)

    moderator(client).post(
        reverse("admin:games_report_changelist"),
        {"action": "remove_messages", "_selected_action": [report_row.pk]},
    )

    message.refresh_from_db()
    assert message.removed_at is not None
    client.force_login(bob)
    page = table(client, table_game)
    assert "rude words" not in page and kept.text in page
    assert report(client, table_game, message).status_code == 404
    found = chat.messages_for(table_game, bob, [ChatMessage.Room.PLAYERS], upto_move=10**6)
    assert [m.text for m in found[ChatMessage.Room.PLAYERS]] == ["good game"]  # the review's


def test_a_moderator_closes_a_reported_author_s_account(client, table_game, alice, bob):
    message = say(table_game, alice, "rude words")
    report_row = Report.objects.create(message=message, reporter=bob)

    moderator(client).post(
        reverse("admin:games_report_changelist"),
        {"action": "close_authors", "_selected_action": [report_row.pk]},
    )

    alice.refresh_from_db()
    assert not alice.is_active
    assert Game.objects.get(pk=table_game.pk).state().resigned == (0,)


def staff_who_may_only(client, *codenames):
    staff = get_user_model().objects.create_user("viewer", "v@example.com", "pw-view-12345")
    staff.is_staff = True
    staff.save()
    staff.user_permissions.set(Permission.objects.filter(codename__in=codenames))
    client.force_login(staff)
    return client


@pytest.mark.parametrize(
    ("may", "closes", "removes"),
    [
        (["view_report"], False, False),
        (["view_report", "change_report"], False, True),
        (["view_report", "change_report", "change_user"], True, True),
    ],
)
def test_acting_on_reports_takes_the_right_to_change_them_and_users(
    client, table_game, alice, bob, may, closes, removes
):
    message = say(table_game, alice, "rude words")
    row = Report.objects.create(message=message, reporter=bob)
    staff = staff_who_may_only(client, *may)

    for action in ("close_authors", "remove_messages"):
        staff.post(
            reverse("admin:games_report_changelist"),
            {"action": action, "_selected_action": [row.pk]},
        )

    alice.refresh_from_db()
    message.refresh_from_db()
    assert (not alice.is_active, message.removed_at is not None) == (closes, removes)
