"""An email address gets nothing about games until its owner follows the link sent to it."""

import re
from datetime import timedelta

import pytest
import time_machine
from django.urls import reverse
from django.utils import timezone

from accounts.email import confirm
from accounts.models import User
from accounts.tests.conftest import PASSWORD
from games.models import Game, Seat
from games.play.emails import send_due_emails

pytestmark = pytest.mark.django_db

SIGNUP = reverse("accounts:signup")


def link_in(message):
    [path] = re.findall(r"http://testserver(/accounts/email/confirm/\S+/)", message.body)
    return path


@pytest.fixture(autouse=True)
def site_url(settings):
    settings.SITE_URL = "http://testserver"


def sign_up(client, username="dora", email="dora@example.com"):
    form = {"username": username, "email": email, "password1": PASSWORD, "password2": PASSWORD}
    assert client.post(SIGNUP, form).status_code == 302
    return User.objects.get(username=username)


def test_a_sign_up_sends_the_link_and_nothing_else(client, mailoutbox):
    dora = sign_up(client)

    [message] = mailoutbox
    assert message.to == ["dora@example.com"]
    assert message.subject == "Confirm your email address for Full Set"
    assert link_in(message)
    assert not dora.email_confirmed
    page = client.get(reverse("accounts:settings")).text
    assert "Your email address is not confirmed yet" in page


def test_the_link_opens_a_page_and_its_button_confirms(client, mailoutbox):
    sign_up(client)
    path = link_in(mailoutbox[0])
    client.logout()  # the link opened in another browser: no login needed

    page = client.get(path)
    assert page.status_code == 200 and "Confirm my address" in page.text
    assert not User.objects.get(username="dora").email_confirmed, "opening it confirms nothing"

    response = client.post(path, follow=True)

    assert "Your email address is confirmed." in response.text
    assert User.objects.get(username="dora").email_confirmed


def test_a_link_for_an_address_changed_since_confirms_nothing(client, mailoutbox):
    dora = sign_up(client)
    path = link_in(mailoutbox[0])
    User.objects.filter(pk=dora.pk).update(email="other@example.com")

    assert client.get(path).status_code == 400
    client.post(path)

    assert not User.objects.get(pk=dora.pk).email_confirmed


@pytest.mark.parametrize("token", ["not-a-token", "eyJ1IjoxfQ:1abc:forged"])
def test_a_link_not_signed_by_the_site_confirms_nothing(client, alice, token):
    response = client.post(reverse("accounts:confirm_email", args=[token]))

    assert response.status_code == 400
    assert "This link is not valid" in response.text


def test_a_link_expires(client, mailoutbox):
    with time_machine.travel(timezone.datetime(2026, 12, 1, 9, 0, tzinfo=timezone.UTC)) as t:
        dora = sign_up(client)
        path = link_in(mailoutbox[0])
        t.shift(timedelta(days=confirm.CONFIRM_DAYS, seconds=1))
        client.post(path)

    assert not User.objects.get(pk=dora.pk).email_confirmed


def test_changing_the_address_asks_to_confirm_the_new_one(client, alice, mailoutbox):
    User.objects.filter(pk=alice.pk).update(email_confirmed=True)
    client.force_login(alice)
    url = reverse("accounts:email_change")

    client.post(url, {"email": "alice@new.example.com", "current_password": PASSWORD})

    alice.refresh_from_db()
    assert alice.email == "alice@new.example.com" and not alice.email_confirmed
    [told_old, link] = mailoutbox
    assert told_old.to == ["alice@example.com"] and link.to == ["alice@new.example.com"]
    client.post(link_in(link))
    alice.refresh_from_db()
    assert alice.email_confirmed


def test_the_link_is_sent_again_a_few_times_an_hour(client, alice, mailoutbox):
    User.objects.filter(pk=alice.pk).update(email_confirmed=False)
    client.force_login(alice)
    url = reverse("accounts:send_confirmation")

    answers = [client.post(url, follow=True).text for _ in range(confirm.RESENDS.count + 1)]

    assert len(mailoutbox) == confirm.RESENDS.count
    assert "A new link is on its way to alice@example.com." in answers[0]
    assert "The link was sent several times in the last hour." in answers[-1]


def test_no_email_about_games_goes_to_an_unconfirmed_address(alice, bob, mailoutbox):
    # An address nobody confirmed: the turn emails, reminders and digests wait for its owner.
    User.objects.filter(pk__in=[alice.pk, bob.pk]).update(email_digest=True, email_confirmed=False)
    game = Game.objects.create(host=alice, seat_count=2, pace="correspondence", pace_days=3)
    Seat.objects.create(game=game, user=alice, position=0)
    Seat.objects.create(game=game, user=bob, position=1)
    game.start()
    awaited = game.seats.get(deadline__isnull=False).user
    later = timezone.now() + timedelta(days=2, hours=12)

    send_due_emails(now=later)
    assert mailoutbox == []

    User.objects.filter(pk=awaited.pk).update(email_confirmed=True)
    send_due_emails(now=later)
    assert mailoutbox and all(message.to == [awaited.email] for message in mailoutbox)


def test_an_address_changed_while_the_link_is_followed_stays_unconfirmed(
    client, monkeypatch, mailoutbox
):
    dora = sign_up(client)
    path = link_in(mailoutbox[0])
    read = confirm.user_for

    def read_then_change(token):
        user = read(token)  # the link is read, then the address changes
        User.objects.filter(pk=dora.pk).update(email="victim@example.org")
        return user

    monkeypatch.setattr(confirm, "user_for", read_then_change)

    assert client.post(path).status_code == 400
    assert not User.objects.get(pk=dora.pk).email_confirmed


def test_changing_the_address_back_and_forth_floods_nobody(client, mailoutbox):
    dora = sign_up(client)  # never confirmed: the address may be someone else's
    mailoutbox.clear()
    url = reverse("accounts:email_change")
    addresses = [f"victim{n}@example.org" for n in range(6)]
    answers = [
        client.post(url, {"email": email, "current_password": PASSWORD}) for email in addresses
    ]

    assert [a.status_code for a in answers] == [302, 302, 302, 429, 429, 429]
    assert "You changed your email address several times" in answers[3].text
    # A link to each new address; no word to an old address nobody confirmed.
    assert [m.to for m in mailoutbox] == [[email] for email in addresses[:3]]
    assert User.objects.get(pk=dora.pk).email == addresses[2]


def test_the_address_change_tells_of_a_few_taken_addresses_an_hour(client, alice, bob):
    client.force_login(bob)
    url = reverse("accounts:email_change")

    def ask(email):
        return client.post(url, {"email": email, "current_password": PASSWORD})

    told = [ask("alice@example.com") for _ in range(5)]
    assert all("Another account already uses this email address." in a.text for a in told)
    refused = ask("alice@example.com")
    assert refused.status_code == 429
    assert "Too many addresses that other accounts use" in refused.text
    assert "Another account already uses" not in refused.text


def test_a_password_reset_confirms_the_address(client, mailoutbox):
    dora = sign_up(client)
    client.logout()
    client.post(reverse("accounts:password_reset"), {"email": "dora@example.com"})
    [reset] = [m for m in mailoutbox if "password" in m.subject.lower()]
    [path] = re.findall(r"http://testserver(/accounts/password/reset/\S+/\S+/)", reset.body)
    form_page = client.get(path, follow=True)
    [(set_url, _status)] = form_page.redirect_chain
    new = "boardwalk-hotel-2024"
    client.post(set_url, {"new_password1": new, "new_password2": new})

    assert User.objects.get(pk=dora.pk).email_confirmed


def test_an_account_without_an_address_is_told_so(client, db):
    nobody = User.objects.create_user("nomail", "", PASSWORD)
    client.force_login(nobody)

    page = client.post(reverse("accounts:send_confirmation"), follow=True).text

    assert "Your account has no email address." in page


def test_an_address_the_admin_changes_is_confirmed_anew(client, alice, bob):
    User.objects.filter(pk=alice.pk).update(is_staff=True, is_superuser=True)
    client.force_login(alice)
    url = reverse("admin:accounts_user_change", args=[bob.pk])
    page = client.get(url)
    assert page.status_code == 200 and "Email confirmed" in page.text
    form = page.context["adminform"].form
    data = {name: value for name, value in form.initial.items() if value is not None}
    data.update(email="bob@new.example.com", date_joined_0="2026-12-01", date_joined_1="09:00:00")
    data.pop("date_joined", None)
    data.pop("last_login", None)
    data.pop("groups", None)
    data.pop("user_permissions", None)

    response = client.post(url, data)

    assert response.status_code == 302, response.context["adminform"].form.errors
    bob.refresh_from_db()
    assert bob.email == "bob@new.example.com" and not bob.email_confirmed
