"""The table chat over HTTP: who may write where, what is shown to whom, limits, review, reports."""

import threading
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.blocks import block
from games import rules
from games.chat import messages as chat
from games.chat.messages import REPORTS_A_DAY, SHOWN, ChatMessage, Report
from games.models import Game
from games.play.bots import fill_with_bots
from games.tests.review_helpers import stored_game

pytestmark = pytest.mark.django_db


def post(client, game, **fields):
    return client.post(reverse("games:chat_post", args=[game.code]), fields, follow=True)


def table(client, game):
    return client.get(reverse("games:table", args=[game.code])).text


def test_it_stores_a_players_message_and_shows_it_to_the_other_player(
    client, table_game, alice, bob
):
    client.force_login(alice)
    response = post(client, table_game, text="Hello Bob", room="players")

    message = ChatMessage.objects.get()
    assert (message.user, message.room, message.text) == (alice, "players", "Hello Bob")
    assert response.redirect_chain[-1][0].endswith("#chat")
    client.force_login(bob)
    assert "Hello Bob" in table(client, table_game)


def test_it_refuses_an_outsider_of_a_private_game(client, alice, bob, charlie):
    game = Game.objects.create(host=alice, seat_count=2, private=True)
    game.seats.create(user=alice, position=0)
    game.seats.create(user=bob, position=1)
    game.start()
    client.force_login(charlie)

    response = client.post(reverse("games:chat_post", args=[game.code]), {"text": "psst"})

    assert response.status_code == 404
    assert not ChatMessage.objects.exists()


def test_it_refuses_an_anonymous_writer(client, table_game):
    response = client.post(reverse("games:chat_post", args=[table_game.code]), {"text": "hi"})

    assert response.status_code == 302 and "login" in response["Location"]
    assert not ChatMessage.objects.exists()


def test_it_keeps_spectators_out_of_the_players_chat(client, table_game, charlie):
    client.force_login(charlie)

    response = post(client, table_game, text="play the rent!", room="players")

    assert "Only the players can write in the players" in response.text
    assert not ChatMessage.objects.exists()
    post(client, table_game, text="nice game so far", room="spectators")
    assert ChatMessage.objects.get().room == "spectators"


def test_it_hides_the_spectators_chat_from_the_players_until_the_game_ends(
    client, table_game, alice, charlie
):
    client.force_login(charlie)
    post(client, table_game, text="bob holds a deal breaker")
    assert "bob holds a deal breaker" in table(client, table_game)

    client.force_login(alice)
    page = table(client, table_game)
    assert "bob holds a deal breaker" not in page
    assert "Spectators&#x27; chat" not in page

    Game.objects.filter(pk=table_game.pk).update(status=Game.Status.FINISHED)
    assert "bob holds a deal breaker" in table(client, table_game)


@pytest.mark.parametrize(
    "hostile, shown",
    [
        ("<script>alert(1)</script>", "&lt;script&gt;alert(1)&lt;/script&gt;"),
        ("see https://evil.example/x", "see https://evil.example/x"),
        ("\u202eevil\u202c text\u2066\u200f", "evil text"),
        ("nul\x00 bell\x07 c1\x85 kept", "nul bell c1 kept"),
        ("two\r\nlines", "two\nlines"),
        # Invisible or direction-changing though no bidi override: the display names' rule.
        ("a\u061cb\u200bc\ufeffd\u2028e\u00adf\u034fg\u180eh\u3164i", "abcdefghi"),
        ("a\u180bb\ufe00c\ufe0fd\U000e0100e\u2800f \u2764\ufe0f", "abcdef \u2764\ufe0f"),
    ],
)
def test_it_neutralises_hostile_text(client, table_game, alice, hostile, shown):
    client.force_login(alice)

    response = post(client, table_game, text=hostile)

    assert response.status_code == 200
    page = table(client, table_game)
    assert shown in page
    assert "<script>alert" not in page
    assert '<a href="https://evil' not in page
    stored = ChatMessage.objects.get().text
    assert not any(c in stored for c in "\x00\x07\x85\u202e\u202c\u2066\u200f\r")
    assert not any(c in stored for c in "\u061c\u200b\ufeff\u2028\u00ad\u034f\u180e\u3164")


@pytest.mark.parametrize("text", ["x" * 10_000, "x" * 501, "\x00\u202e ", ""])
def test_it_refuses_too_long_or_empty_text_readably(client, table_game, alice, text):
    client.force_login(alice)

    response = post(client, table_game, text=text)

    assert response.status_code == 200
    assert "at most 500 characters" in response.text or "Write a message first" in response.text
    assert not ChatMessage.objects.exists()


def test_it_takes_a_message_of_exactly_500_characters(client, table_game, alice):
    client.force_login(alice)
    post(client, table_game, text="y" * 500)
    assert len(ChatMessage.objects.get().text) == 500


def test_it_limits_each_writer_to_five_messages_in_ten_seconds(
    client, table_game, alice, bob, traveller
):
    client.force_login(alice)
    for n in range(5):
        post(client, table_game, text=f"message {n}")

    refused = post(client, table_game, text="one too many")

    assert "You are writing too fast" in refused.text
    assert ChatMessage.objects.count() == 5
    client.force_login(bob)  # the limit is alice's alone
    assert "too fast" not in post(client, table_game, text="hi").text
    assert ChatMessage.objects.count() == 6
    traveller.shift(timedelta(seconds=11))
    client.force_login(alice)
    post(client, table_game, text="later")
    assert ChatMessage.objects.filter(user=alice).count() == 6


def test_it_answers_htmx_with_the_form_and_its_error(client, table_game, alice):
    client.force_login(alice)

    response = client.post(
        reverse("games:chat_post", args=[table_game.code]),
        {"text": "z" * 600},
        headers={"HX-Request": "true"},
    )

    assert response.status_code == 200
    assert 'id="chat-form"' in response.text
    assert "at most 500 characters" in response.text
    assert "<html" not in response.text


def test_it_shows_a_quick_phrase_in_each_readers_language(client, table_game, alice, bob):
    client.force_login(alice)
    post(client, table_game, phrase="good_luck")
    bob.language = "zh-hans"
    bob.save()

    assert "Good luck</span>" in table(client, table_game)
    client.force_login(bob)
    assert "祝你好运</span>" in table(client, table_game)


def test_it_refuses_an_unknown_phrase(client, table_game, alice):
    client.force_login(alice)
    assert "Choose one of the offered phrases" in post(client, table_game, phrase="rude").text
    assert not ChatMessage.objects.exists()


def test_it_hides_a_blocked_users_messages_from_the_blocker(client, table_game, alice, bob):
    block(alice, bob)
    client.force_login(bob)
    post(client, table_game, text="from the blocked one")

    client.force_login(alice)
    assert "from the blocked one" not in table(client, table_game)


def test_it_switches_the_chat_off_in_one_game(client, table_game, alice, bob):
    client.force_login(bob)
    post(client, table_game, text="are you there?")
    client.force_login(alice)

    client.post(reverse("games:chat_switch", args=[table_game.code]), {"off": "1"})

    page = table(client, table_game)
    assert "are you there?" not in page
    assert "Your chat is off in this game." in page
    assert "switch it on to write" in post(client, table_game, text="hi").text
    client.post(reverse("games:chat_switch", args=[table_game.code]), {"off": "0"})
    assert "are you there?" in table(client, table_game)


def test_it_switches_the_chat_off_in_every_game_from_the_settings(client, table_game, alice, bob):
    client.force_login(bob)
    post(client, table_game, text="hello?")
    alice.chat_off = True
    alice.save()
    client.force_login(alice)

    page = table(client, table_game)

    assert "hello?" not in page
    assert "Your chat is off in all games" in page


def test_it_records_a_report_listed_in_the_admin(client, table_game, alice, bob):
    client.force_login(alice)
    post(client, table_game, text="something rude")
    message = ChatMessage.objects.get()
    client.force_login(bob)

    response = client.post(
        reverse("games:chat_report", args=[table_game.code, message.pk]), follow=True
    )

    assert "The message is reported" in response.text
    assert Report.objects.get().reporter == bob
    bob.is_staff = bob.is_superuser = True
    bob.save()
    admin = client.get(reverse("admin:games_report_changelist")).text
    assert "something rude" in admin and table_game.code in admin


def test_it_does_not_let_a_player_report_a_spectator_message_they_cannot_read(
    client, table_game, bob, charlie
):
    client.force_login(charlie)
    post(client, table_game, text="spectating")
    message = ChatMessage.objects.get()
    client.force_login(bob)

    response = client.post(reverse("games:chat_report", args=[table_game.code, message.pk]))

    assert response.status_code == 404
    assert not Report.objects.exists()


def test_it_shows_both_chats_in_the_review_stepping_with_the_moves(client, alice, bob, charlie):
    game = stored_game([alice, bob], seed=7)
    ChatMessage.objects.create(game=game, user=alice, room="players", text="glhf", after_move=0)
    ChatMessage.objects.create(
        game=game, user=charlie, room="spectators", text="what a deal", after_move=5
    )
    client.force_login(bob)

    at_deal = client.get(reverse("games:review", args=[game.code]) + "?move=0").text
    later = client.get(
        reverse("games:review", args=[game.code]) + "?move=5", headers={"HX-Request": "true"}
    ).text

    assert "glhf" in at_deal and "what a deal" not in at_deal
    assert "glhf" in later and "what a deal" in later


def test_it_closes_a_games_chat_an_hour_after_the_game_ends(
    client, traveller, table_game, alice, charlie
):
    table_game.play(1, rules.Move.resign())
    client.force_login(charlie)
    post(client, table_game, text="well played", room="spectators")
    assert ChatMessage.objects.count() == 1
    traveller.shift(timedelta(minutes=61))

    response = post(client, table_game, text="and again", room="spectators")

    assert "chat closed an hour after the game ended" in response.text
    assert ChatMessage.objects.count() == 1
    client.force_login(alice)
    page = table(client, table_game)
    assert "well played" in page and 'id="chat-form"' not in page


def test_a_review_shows_the_newest_messages_of_each_room(client, alice, bob):
    game = stored_game([alice, bob], seed=7)
    ChatMessage.objects.bulk_create(
        ChatMessage(game=game, user=alice, room="players", text=f"line {n}.", after_move=0)
        for n in range(SHOWN + 5)
    )
    client.force_login(bob)

    review = client.get(reverse("games:review", args=[game.code]) + "?move=0").text

    assert f"line {SHOWN + 4}." in review and "line 5." in review and "line 4." not in review


def test_it_shows_when_each_player_of_a_correspondence_game_was_last_seen(
    client, alice, bob, traveller
):
    game = Game.objects.create(host=alice, seat_count=2, pace=Game.Pace.CORRESPONDENCE)
    game.seats.create(user=alice, position=0)
    game.seats.create(user=bob, position=1)
    game.start()
    client.force_login(bob)
    table(client, game)
    traveller.shift(timedelta(hours=3))
    client.force_login(alice)

    page = table(client, game)

    assert "last seen 3\xa0hours ago" in page


def test_it_shows_a_computer_player_always_at_its_table(client, alice):
    game = Game.objects.create(host=alice, seat_count=2)
    game.seats.create(user=alice, position=0)
    fill_with_bots(game, "basic")
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    client.force_login(alice)

    page = table(client, game)

    presence = page[page.index('id="presence"') :]
    bot_line = presence.split("Basic bot 1</span>")[0].rsplit("<li", 1)[1]
    assert 'class="here"' in bot_line


@pytest.mark.parametrize(
    "ago, words",
    [
        (timedelta(seconds=20), "last seen just now"),
        (timedelta(minutes=5), "last seen 5\xa0minutes ago"),
    ],
)
def test_it_says_when_a_correspondence_player_was_last_seen(client, table_game, alice, ago, words):
    table_game.pace = Game.Pace.CORRESPONDENCE
    table_game.save(update_fields=["pace"])
    table_game.seats.filter(position=1).update(seen_at=timezone.now() - ago)
    client.force_login(alice)

    assert words in client.get(table_game.get_absolute_url()).text


def test_nobody_reports_their_own_message(table_game, alice):
    message = chat.post(table_game, alice, 0, text="hello")
    with pytest.raises(chat.ChatError):
        chat.report(message, alice)


@pytest.mark.django_db(transaction=True)
def test_reports_sent_at_once_are_counted_one_after_the_other(table_game, alice, bob):
    said = [
        ChatMessage.objects.create(game=table_game, user=alice, room="players", text=f"m{n}")
        for n in range(REPORTS_A_DAY + 9)
    ]
    for message in said[: REPORTS_A_DAY - 1]:
        Report.objects.create(message=message, reporter=bob)
    login = Client()
    login.force_login(bob)
    at_once = threading.Barrier(10)

    def report(message):
        client = Client()
        client.cookies[settings.SESSION_COOKIE_NAME] = login.cookies[settings.SESSION_COOKIE_NAME]
        url = reverse("games:chat_report", args=[table_game.code, message.pk])
        at_once.wait(timeout=30)
        return client.post(url, headers={"HX-Request": "true"}).status_code

    with ThreadPoolExecutor(10) as pool:
        list(pool.map(report, said[REPORTS_A_DAY - 1 :]))

    assert Report.objects.filter(reporter=bob).count() == REPORTS_A_DAY
