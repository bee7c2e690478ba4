import re

import pytest
from django.contrib.auth import get_user
from django.urls import reverse

from accounts.models import User

URL = reverse("accounts:signup")


def _form(**overrides):
    data = {
        "username": "dora",
        "email": "dora@example.com",
        "password1": "tabletop-banker-77",
        "password2": "tabletop-banker-77",
    }
    return {**data, **overrides}


@pytest.mark.django_db
def test_it_shows_the_form(client):
    response = client.get(URL)

    assert response.status_code == 200
    assert 'name="username"' in response.text
    assert 'name="email"' in response.text
    assert 'name="password2"' in response.text


@pytest.mark.django_db
def test_it_creates_the_account_and_logs_in(client):
    response = client.post(URL, _form())

    assert response.status_code == 302
    assert response.url == "/"
    dora = User.objects.get(username="dora")
    assert dora.email == "dora@example.com"
    assert dora.check_password("tabletop-banker-77")
    assert dora.email_notifications is True
    assert get_user(client).pk == dora.pk


@pytest.mark.django_db
def test_it_redirects_to_a_safe_next(client):
    response = client.post(URL + "?next=/games/abc123/", _form())

    assert response.status_code == 302
    assert response.url == "/games/abc123/"


@pytest.mark.django_db
def test_it_carries_next_through_the_form(client):
    page = client.get(URL + "?next=/games/abc123/")
    response = client.post(URL, _form(next="/games/abc123/"))

    assert '<input type="hidden" name="next" value="/games/abc123/">' in page.text
    assert response.url == "/games/abc123/"


@pytest.mark.django_db
def test_it_ignores_a_next_on_another_site(client):
    response = client.post(URL, _form(next="https://evil.example.com/"))

    assert response.status_code == 302
    assert response.url == "/"


@pytest.mark.django_db
def test_it_rejects_a_taken_username_and_keeps_the_input(client, alice):
    response = client.post(URL, _form(username="Alice", email="other@example.com"))

    assert response.status_code == 200
    assert "A user with that username already exists." in response.text
    assert 'value="Alice"' in response.text
    assert 'value="other@example.com"' in response.text
    assert not User.objects.filter(email="other@example.com").exists()
    assert not get_user(client).is_authenticated


@pytest.mark.django_db
def test_it_rejects_a_taken_email(client, alice):
    response = client.post(URL, _form(email="ALICE@example.com"))

    assert response.status_code == 200
    assert "Another account already uses this email address." in response.text
    assert not User.objects.filter(username="dora").exists()


@pytest.mark.django_db
def test_it_rejects_mismatched_passwords_and_keeps_the_input(client):
    response = client.post(URL, _form(password2="tabletop-banker-78"))

    assert response.status_code == 200
    assert "The two password fields didn’t match." in response.text
    assert 'value="dora"' in response.text
    assert 'value="dora@example.com"' in response.text
    # Passwords are never sent back to the browser.
    assert "tabletop-banker-77" not in response.text
    assert not User.objects.filter(username="dora").exists()


@pytest.mark.django_db
def test_it_rejects_a_weak_password_and_keeps_the_input(client):
    response = client.post(URL, _form(password1="12345678", password2="12345678"))

    assert response.status_code == 200
    assert "This password is too common." in response.text
    assert "This password is entirely numeric." in response.text
    assert 'value="dora"' in response.text
    assert 'value="dora@example.com"' in response.text
    assert not User.objects.filter(username="dora").exists()


@pytest.mark.django_db
def test_it_rejects_a_password_like_the_username(client):
    response = client.post(
        URL,
        _form(username="tabletopbanker", password1="tabletopbanker", password2="tabletopbanker"),
    )

    assert response.status_code == 200
    assert "The password is too similar to the username." in response.text


@pytest.mark.django_db
def test_it_requires_an_email(client):
    response = client.post(URL, _form(email=""))

    assert response.status_code == 200
    assert response.context["form"].errors["email"] == ["This field is required."]
    assert 'value="dora"' in response.text


@pytest.mark.django_db
def test_it_sends_a_logged_in_user_on(client, alice):
    client.force_login(alice)

    response = client.get(URL)

    assert response.status_code == 302
    assert response.url == "/"


@pytest.mark.django_db
@pytest.mark.parametrize(
    "username", ["bot-strong-2", "BOT-basic-1", "Bot_random_3", "bot", "bot.x"]
)
def test_it_keeps_the_computer_players_names(client, username):
    response = client.post(URL, _form(username=username))

    assert response.status_code == 200
    assert "Names starting with “bot” are kept for computer players." in response.text
    assert not User.objects.filter(username=username).exists()


@pytest.mark.django_db
@pytest.mark.parametrize("username", ["Strong_bot_1", "Basic.bot.1", "Randombot2", "strongbotl"])
def test_it_keeps_what_a_username_reads_as_for_the_computer_players(client, username):
    # Without a display name a player is shown by their username: "Strong_bot_1" would
    # read as Strong bot 1.
    response = client.post(URL, _form(username=username))

    assert response.status_code == 200
    assert "This name is kept for computer players." in response.text
    assert not User.objects.filter(username=username).exists()


@pytest.mark.django_db
@pytest.mark.parametrize("username", ["admin", "Moderator", "full_set", "Staff."])
def test_it_keeps_the_names_that_pass_for_the_site(client, username):
    response = client.post(URL, _form(username=username))

    assert response.status_code == 200
    assert "This name would pass for the site" in response.text
    assert not User.objects.filter(username=username).exists()


@pytest.mark.django_db
def test_it_lets_a_name_that_only_starts_like_bot(client):
    response = client.post(URL, _form(username="bottlecap"))

    assert response.status_code == 302


def test_it_refuses_a_username_another_player_goes_by(client, alice):
    response = client.post(URL, _form(username="alice_liddell"))
    assert response.status_code == 302, "a different name"
    client.logout()

    alice.display_name = "Queenie"
    alice.save()
    response = client.post(URL, _form(username="QUEENIE", email="q@example.com"))

    assert response.status_code == 200
    assert "Another player already goes by this name." in response.text


@pytest.fixture
def checks_pass_too_early(monkeypatch):
    """Let the form's checks miss the account another sign-up saves just before this one."""
    from django.contrib.auth.forms import BaseUserCreationForm

    from accounts import forms

    monkeypatch.setattr(
        BaseUserCreationForm,
        "clean_username",
        lambda self: self.cleaned_data["username"],
        raising=False,
    )
    monkeypatch.setattr(
        forms.SignupForm,
        "clean_username",
        lambda self: self.cleaned_data["username"],
        raising=False,
    )
    monkeypatch.setattr(forms, "_check_email_is_free", lambda email, user=None: None)
    monkeypatch.setattr(forms.SignupForm, "validate_unique", lambda self: None)


@pytest.mark.django_db
def test_it_lets_the_database_decide_between_two_sign_ups_with_one_username(
    client, checks_pass_too_early
):
    User.objects.create_user("dora", "first@example.com", "tabletop-banker-77")

    response = client.post(URL, _form(username="Dora"))

    assert response.status_code == 200
    assert "A user with that username already exists." in response.text
    assert list(User.objects.values_list("username", flat=True)) == ["dora"]
    assert not get_user(client).is_authenticated


@pytest.mark.django_db
def test_it_lets_the_database_decide_between_two_sign_ups_with_one_email(
    client, checks_pass_too_early
):
    User.objects.create_user("first", "dora@example.com", "tabletop-banker-77")

    response = client.post(URL, _form(email="DORA@example.com"))

    assert response.status_code == 200
    assert "Another account already uses this email address." in response.text
    assert not User.objects.filter(username="dora").exists()


def _sign_up(client, n, address):
    client.logout()
    return client.post(
        URL, _form(username=f"player{n}", email=f"player{n}@example.com"), REMOTE_ADDR=address
    )


@pytest.mark.django_db
def test_it_makes_at_most_five_accounts_an_hour_from_one_address(client):
    for n in range(5):
        assert _sign_up(client, n, "192.0.2.7").status_code == 302

    refused = _sign_up(client, 5, "192.0.2.7")

    assert refused.status_code == 429
    assert "Too many accounts were made from your network" in refused.text
    # The form as a whole was refused: no "errors below" beside fields that have none.
    assert "Please correct the errors below." not in refused.text
    assert re.search(r'role="alert">Too many accounts were made from your network', refused.text)
    assert not User.objects.filter(username="player5").exists()
    assert not get_user(client).is_authenticated
    assert _sign_up(client, 6, "198.51.100.1").status_code == 302  # another address is not held up


@pytest.mark.django_db
def test_a_form_with_mistakes_uses_none_of_the_addresss_accounts(client):
    for n in range(6):
        response = client.post(
            URL, _form(username=f"p{n}", password2="other"), REMOTE_ADDR="192.0.2.8"
        )
        assert response.status_code == 200
    assert _sign_up(client, 1, "192.0.2.8").status_code == 302


MIXED = (
    "A name cannot mix Latin letters with Cyrillic or Greek ones: it could pass for another "
    "player&#x27;s."
)


@pytest.mark.django_db
@pytest.mark.parametrize("username", ["\u0430lice", "b\u03bfb"])  # Cyrillic а, Greek ο
def test_it_refuses_a_username_that_passes_for_another(client, username):
    response = client.post(URL, _form(username=username))

    assert response.status_code == 200
    assert MIXED in response.text
    assert not User.objects.filter(username=username).exists()


LOOKS_LIKE = "This name looks like another player&#x27;s: its Cyrillic or Greek letters pass for"


@pytest.mark.parametrize(
    "username",
    # alice in Cyrillic letters alone (а, palochka, і, с, е; then in capitals); bob and
    # kevin in Greek (β ο β; κ ε ν ι η, whose ν reads as v)
    [
        "\u0430\u04cf\u0456\u0441\u0435",
        "\u03b2\u03bf\u03b2",
        "\u0410\u04cf\u0406\u0421\u0415",
        "\u03ba\u03b5\u03bd\u03b9\u03b7",
    ],
)
def test_it_refuses_a_username_in_one_script_that_reads_as_anothers(client, alice, bob, username):
    User.objects.create_user("kevin", "kevin@example.com", "x-kevin-42")
    response = client.post(URL, _form(username=username))

    assert response.status_code == 200
    assert LOOKS_LIKE in response.text
    assert not User.objects.filter(username=username).exists()


@pytest.mark.django_db
def test_it_keeps_the_computer_players_names_in_look_alike_letters_too(client):
    response = client.post(URL, _form(username="\u0412\u041e\u0422-1"))  # Cyrillic В, О, Т

    assert response.status_code == 200
    assert "are kept for computer players" in response.text


@pytest.mark.django_db
@pytest.mark.parametrize("username", ["\u0410\u043b\u0438\u0441\u0430", "Zo\u00eb", "Tom\u5f20"])
def test_it_lets_names_in_one_script_through(client, username):
    assert client.post(URL, _form(username=username)).status_code == 302


TAKEN = "Another account already uses this email address."
SIGNUPS_WAIT = "Too many sign-up attempts from your network in the last hour."


def test_it_tells_one_address_of_a_few_taken_emails_an_hour_at_most(client, alice):
    def sign_up(n, email, address="198.51.100.4"):
        form = _form(username=f"prober{n}", email=email)
        return client.post(URL, form, REMOTE_ADDR=address)

    told = [sign_up(n, "alice@example.com") for n in range(5)]
    assert all(TAKEN in answer.text for answer in told)

    # Then nothing about any address: neither a taken one nor a free one is answered.
    for n, email in enumerate(["alice@example.com", "free@example.com"], start=5):
        answer = sign_up(n, email)
        assert answer.status_code == 429
        assert SIGNUPS_WAIT in answer.text and TAKEN not in answer.text
    assert not User.objects.filter(email="free@example.com").exists()
    assert TAKEN in sign_up(7, "alice@example.com", address="203.0.113.50").text
