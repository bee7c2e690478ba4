"""Display names: one readable line, and no two players shown alike (issue 16, row 9)."""

import pytest
from django.urls import reverse

from accounts.models import User

URL = reverse("accounts:settings")
TAKEN = "Another player already goes by this name."
UNREADABLE = "A display name cannot hold line breaks, control characters or direction marks."


def save_name(client, user, name):
    client.force_login(user)
    return client.post(URL, {"display_name": name, "language": "", "email_notifications": "on"})


@pytest.mark.parametrize(
    "name",
    [
        "\u202egnp.exe\u202d Bob",  # right-to-left override, pop
        "Bob\u2066x\u2069",  # isolates
        "Al\nice",
        "Al\rice",
        "Al\tice",
        "Bo\u200bb",  # zero-width space
        "Bo\u2028b",  # line separator
        "Bob\x00",
        "Bo\u034fb",  # combining grapheme joiner: a mark that shows nothing
        "\u3164",  # Hangul filler: a letter that shows nothing
        "Bob\u2800",  # the blank braille pattern: a symbol that shows nothing
        # Variation selectors show nothing after a letter: each reads as "Bob".
        "Bob\u180b",
        "Bob\ufe00",
        "Bob\ufe0f",
        "Bob\U000e0100",
    ],
)
def test_it_refuses_control_and_direction_characters(client, alice, name):
    response = save_name(client, alice, name)

    assert response.status_code == 200
    assert UNREADABLE in response.text or "Null characters are not allowed." in response.text
    alice.refresh_from_db()
    assert alice.display_name == "Alice Liddell"


@pytest.mark.parametrize("name", ["Bob \u2764\ufe0f", "\u263a\ufe0e Bob"])
def test_it_keeps_the_emoji_selector_after_a_symbol(client, alice, name):
    save_name(client, alice, name)

    alice.refresh_from_db()
    assert alice.display_name == name


@pytest.mark.parametrize("name", ["bob", "BOB", " Bob "])
def test_it_refuses_another_players_username(client, alice, bob, name):
    response = save_name(client, alice, name)

    assert response.status_code == 200
    assert TAKEN in response.text
    alice.refresh_from_db()
    assert alice.display_name == "Alice Liddell"


def test_it_refuses_another_players_display_name_in_any_case_or_width(client, alice, bob):
    response = save_name(client, bob, "ＡＬＩＣＥ  liddell")  # fullwidth letters, two spaces

    assert response.status_code == 200
    assert TAKEN in response.text
    bob.refresh_from_db()
    assert bob.display_name == ""


def test_it_refuses_a_computer_players_name(client, alice):
    response = save_name(client, alice, "Strong bot 2")

    assert response.status_code == 200
    assert "This name is kept for computer players." in response.text


def test_it_lets_a_player_go_by_their_own_username(client, alice):
    response = save_name(client, alice, "ALICE")

    assert response.status_code == 302
    alice.refresh_from_db()
    assert alice.display_name == "ALICE"


def test_it_trims_the_name_and_keeps_an_unchanged_one(client, alice, bob):
    first = save_name(client, alice, "  Queen \u00a0 of   Hearts  ")
    again = save_name(client, alice, "Queen of Hearts")

    assert first.status_code == again.status_code == 302
    alice.refresh_from_db()
    assert alice.display_name == "Queen of Hearts"


def test_it_lets_chinese_names_through(client, alice):
    response = save_name(client, alice, "爱丽丝 · 梦游")

    assert response.status_code == 302
    alice.refresh_from_db()
    assert alice.display_name == "爱丽丝 · 梦游"


def test_it_lets_the_database_refuse_a_display_name_taken_meanwhile(alice, bob):
    from django.db import IntegrityError, transaction

    bob.display_name = "alice liddell"
    with pytest.raises(IntegrityError), transaction.atomic():
        bob.save()
    assert User.objects.filter(display_name__iexact="alice liddell").count() == 1


@pytest.fixture
def checks_pass_too_early(monkeypatch):
    """Let the form's checks miss the name another player saves just before this one."""
    from accounts import forms

    monkeypatch.setattr(User, "clean", lambda self: None)
    monkeypatch.setattr(forms.SettingsForm, "validate_unique", lambda self: None)
    monkeypatch.setattr(forms.SettingsForm, "validate_constraints", lambda self: None)


def test_it_answers_with_the_form_when_another_player_takes_the_name_meanwhile(
    client, alice, bob, checks_pass_too_early
):
    response = save_name(client, bob, "Alice Liddell")

    assert response.status_code == 200
    assert TAKEN in response.text
    bob.refresh_from_db()
    assert bob.display_name == ""


@pytest.mark.parametrize(
    "name",
    # A Cyrillic о; other separators; the names Chinese readers see the computer players by.
    ["Strong bot 2.", "Basic bot 1!", "Str\u043eng bot 1", "random bot", "Strong-bot 2"]
    + ["strong_bot_2", "\u57fa\u7840\u7535\u8111 1", "\u5f3a\u7535\u8111"]
    # Letters that pass for the number's digits.
    + ["Strong bot l", "Strong bot I", "Basic bot lO"],
)
def test_it_refuses_what_passes_for_a_computer_player(client, alice, name):
    response = save_name(client, alice, name)

    assert response.status_code == 200
    alice.refresh_from_db()
    assert alice.display_name == "Alice Liddell"


def test_it_refuses_a_name_in_greek_letters_alone_that_reads_as_anothers(client, alice, bob):
    response = save_name(client, alice, "\u03b2\u03bf\u03b2")  # β ο β: "bob"

    assert response.status_code == 200
    assert "This name looks like another player&#x27;s" in response.text
    alice.refresh_from_db()
    assert alice.display_name == "Alice Liddell"


def test_it_refuses_a_name_that_passes_for_another_players(client, alice, bob):
    response = save_name(client, bob, "\u0430lice Liddell")  # a Cyrillic а

    assert response.status_code == 200
    assert "it could pass for another player&#x27;s." in response.text
    bob.refresh_from_db()
    assert bob.display_name == ""


@pytest.mark.parametrize("name", ["Admin", "Full Set", "moderator!", "admin_2", "Staff 1"])
def test_it_refuses_a_name_that_passes_for_the_site(client, alice, name):
    response = save_name(client, alice, name)

    assert "This name would pass for the site" in response.text.replace("&#x27;", "'")
    alice.refresh_from_db()
    assert alice.display_name == "Alice Liddell"
