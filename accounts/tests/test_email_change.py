"""Changing the email address takes the current password, and tells the old address."""

import pytest
from django.urls import reverse

from accounts.forms import EmailChangeForm
from accounts.models import User
from accounts.tests.conftest import PASSWORD
from accounts.throttle import EMAIL_CHANGES_PER_USER

URL = reverse("accounts:email_change")
SETTINGS = reverse("accounts:settings")


def test_it_requires_login(client, db):
    response = client.get(URL)

    assert response.status_code == 302
    assert response.url == f"{reverse('accounts:login')}?next={URL}"


def test_it_changes_the_address_with_the_password_and_tells_the_old_one(client, alice, mailoutbox):
    client.force_login(alice)

    response = client.post(URL, {"email": "queen@example.com", "current_password": PASSWORD})

    assert response.status_code == 302 and response.url == SETTINGS
    alice.refresh_from_db()
    assert alice.email == "queen@example.com"
    [notice, link] = mailoutbox  # the old address is told; the new one gets its link
    assert notice.to == ["alice@example.com"]
    assert link.to == ["queen@example.com"] and "/accounts/email/confirm/" in link.body
    assert notice.subject == "The email address of your Full Set account was changed"
    assert "Hello Alice Liddell," in notice.body
    assert "account alice was changed to queen@example.com" in notice.body
    assert "Your email address is changed." in client.get(SETTINGS).text


def test_it_refuses_a_wrong_password_and_changes_nothing(client, alice, mailoutbox):
    client.force_login(alice)

    response = client.post(URL, {"email": "thief@example.com", "current_password": "guess"})

    assert response.status_code == 200
    assert "Your current password was entered incorrectly." in response.text
    assert 'value="thief@example.com"' in response.text
    alice.refresh_from_db()
    assert alice.email == "alice@example.com"
    assert mailoutbox == []


def test_it_ignores_an_address_posted_to_the_settings(client, alice, mailoutbox):
    # A stolen session must not change the address where reset links go.
    client.force_login(alice)

    client.post(SETTINGS, {"display_name": "Alice", "email": "thief@example.com"})

    alice.refresh_from_db()
    assert alice.display_name == "Alice"
    assert alice.email == "alice@example.com"


def test_it_stops_checking_passwords_after_five_wrong_ones(client, alice):
    client.force_login(alice)
    for _ in range(5):
        client.post(URL, {"email": "thief@example.com", "current_password": "guess"})

    response = client.post(URL, {"email": "thief@example.com", "current_password": PASSWORD})

    assert response.status_code == 429
    assert "Too many wrong passwords. Please try again in 15 minutes." in response.text
    alice.refresh_from_db()
    assert alice.email == "alice@example.com"


@pytest.mark.parametrize(
    "email, error",
    [
        ("BOB@example.com", "Another account already uses this email address."),
        ("Alice@Example.com", "This is already your email address."),
        ("not-an-address", "Enter a valid email address."),
        ("", "This field is required."),
    ],
)
def test_it_refuses_an_address_it_cannot_take(client, alice, bob, email, error):
    client.force_login(alice)

    response = client.post(URL, {"email": email, "current_password": PASSWORD})

    assert response.status_code == 200
    assert error in response.text
    alice.refresh_from_db()
    assert alice.email == "alice@example.com"


def test_it_answers_with_the_form_when_another_account_takes_the_address_meanwhile(
    client, alice, bob, monkeypatch
):
    from accounts import forms

    # Both checks passed before bob's change was saved.
    monkeypatch.setattr(forms, "_check_email_is_free", lambda email, user=None: None)
    client.force_login(alice)

    response = client.post(URL, {"email": "Bob@Example.com", "current_password": PASSWORD})

    assert response.status_code == 200
    assert "Another account already uses this email address." in response.text
    alice.refresh_from_db()
    assert alice.email == "alice@example.com"


def test_it_speaks_chinese_to_a_chinese_player(client, alice, mailoutbox):
    alice.language = "zh-hans"
    alice.save()
    client.force_login(alice)

    page = client.get(URL)
    client.post(URL, {"email": "queen@example.com", "current_password": PASSWORD})

    assert "当前密码" in page.text
    assert mailoutbox[0].subject == "你的 Full Set 账户的电子邮件地址已更改"


def test_it_changes_the_address_a_few_times_an_hour_at_most(client, alice, mailoutbox):
    # Each change writes to two addresses: without a bound, to and fro floods a mailbox.
    client.force_login(alice)

    def change(n):
        return client.post(URL, {"email": f"queen{n}@example.com", "current_password": PASSWORD})

    answers = [change(n) for n in range(EMAIL_CHANGES_PER_USER)]
    sent = len(mailoutbox)
    refused = change(EMAIL_CHANGES_PER_USER)

    assert [a.status_code for a in answers] == [302] * EMAIL_CHANGES_PER_USER
    assert refused.status_code == 429
    assert "You changed your email address several times in the last hour." in refused.text
    alice.refresh_from_db()
    assert alice.email == f"queen{EMAIL_CHANGES_PER_USER - 1}@example.com"
    assert len(mailoutbox) == sent  # nothing written for the refused one


def test_it_keeps_what_was_saved_meanwhile(client, alice, monkeypatch):
    client.force_login(alice)
    real = EmailChangeForm.is_valid

    def changed_meanwhile(form):
        User.objects.filter(pk=alice.pk).update(turn_sound=True, display_name="Queen")
        return real(form)

    monkeypatch.setattr(EmailChangeForm, "is_valid", changed_meanwhile)
    client.post(URL, {"email": "queen@example.com", "current_password": PASSWORD})

    alice.refresh_from_db()
    assert alice.email == "queen@example.com"
    assert alice.turn_sound and alice.display_name == "Queen"
