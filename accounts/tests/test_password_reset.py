import re

from django.contrib.auth import get_user
from django.urls import reverse

from accounts.models import User
from accounts.tests.conftest import PASSWORD

URL = reverse("accounts:password_reset")
NEW_PASSWORD = "boardwalk-hotel-2024"


def _reset_link(message):
    [link] = re.findall(r"http://testserver(/accounts/password/reset/\S+/\S+/)", message.body)
    return link


def test_it_emails_a_reset_link(client, alice, mailoutbox):
    response = client.post(URL, {"email": "alice@example.com"})

    assert response.status_code == 302
    assert response.url == reverse("accounts:password_reset_done")
    [message] = mailoutbox
    assert message.to == ["alice@example.com"]
    assert message.subject == "Reset your Full Set password"
    assert "Hello Alice Liddell," in message.body
    assert "alice" in message.body
    assert _reset_link(message)


def test_it_writes_in_the_accounts_language_not_the_browsers(client, alice, bob, mailoutbox):
    alice.language = "en"
    alice.save(update_fields=["language"])

    client.post(URL, {"email": "alice@example.com"}, headers={"accept-language": "zh-hans"})
    client.post(URL, {"email": "bob@example.com"}, headers={"accept-language": "zh-hans"})
    alice.language = "zh-hans"
    alice.save(update_fields=["language"])
    client.post(URL, {"email": "alice@example.com"}, headers={"accept-language": "en"})

    chosen_english, browsers_chinese, chosen_chinese = mailoutbox
    assert chosen_english.subject == "Reset your Full Set password"
    assert browsers_chinese.subject == "重置你的 Full Set 密码"  # bob chose no language
    assert chosen_chinese.subject == "重置你的 Full Set 密码"
    assert "Hello" not in chosen_chinese.body


def test_it_sets_a_new_password_through_the_link(client, alice, mailoutbox):
    client.post(URL, {"email": "alice@example.com"})
    link = _reset_link(mailoutbox[0])

    # The token moves into the session and the browser lands on a URL without it.
    form_page = client.get(link, follow=True)
    [(set_password_url, _status)] = form_page.redirect_chain
    response = client.post(
        set_password_url, {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD}
    )

    assert 'name="new_password1"' in form_page.text
    assert response.status_code == 302
    assert response.url == reverse("accounts:password_reset_complete")
    alice.refresh_from_db()
    assert alice.check_password(NEW_PASSWORD)
    assert not alice.check_password(PASSWORD)
    assert client.login(username="alice", password=NEW_PASSWORD)


def test_it_refuses_a_used_link(client, alice, mailoutbox):
    client.post(URL, {"email": "alice@example.com"})
    link = _reset_link(mailoutbox[0])
    set_password_url = client.get(link).url
    client.post(set_password_url, {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD})

    response = client.get(link, follow=True)

    assert "<title>This link does not work · Full Set</title>" in response.text  # as its h1
    assert "This link does not work</h1>" in response.text
    assert 'name="new_password1"' not in response.text


def test_it_keeps_the_password_on_a_mismatch(client, alice, mailoutbox):
    client.post(URL, {"email": "alice@example.com"})
    set_password_url = client.get(_reset_link(mailoutbox[0])).url

    response = client.post(
        set_password_url, {"new_password1": NEW_PASSWORD, "new_password2": "something-else-9"}
    )

    assert response.status_code == 200
    assert "The two password fields didn’t match." in response.text
    alice.refresh_from_db()
    assert alice.check_password(PASSWORD)
    assert not get_user(client).is_authenticated


def test_it_sends_nothing_for_an_unknown_address_but_says_the_same(client, alice, mailoutbox):
    response = client.post(URL, {"email": "nobody@example.com"}, follow=True)

    assert mailoutbox == []
    assert "Check your email" in response.text


REFUSED = (
    "Too many password reset requests. Please try again in an hour. "
    "A link in an email we sent in the last 3 days still works."
)


def test_it_sends_three_emails_an_hour_to_one_address_at_most(client, alice, mailoutbox):
    answers = [
        client.post(URL, {"email": "ALICE@example.com"}, REMOTE_ADDR=f"192.0.2.{n}")
        for n in range(1, 21)
    ]

    assert len(mailoutbox) == 3
    assert [a.status_code for a in answers] == [302] * 3 + [429] * 17
    assert REFUSED in answers[3].text
    assert 'name="email"' in answers[3].text


def test_a_player_whose_resets_someone_used_up_can_still_reset(client, alice, mailoutbox):
    # Someone else asks for alice's resets until they are refused...
    for _ in range(3):
        client.post(URL, {"email": "alice@example.com"}, REMOTE_ADDR="203.0.113.66")
    # ...then alice asks, and is refused too, but told of the emails she has.
    refused = client.post(URL, {"email": "alice@example.com"}, REMOTE_ADDR="198.51.100.7")
    assert refused.status_code == 429
    assert REFUSED in refused.text

    form_page = client.get(_reset_link(mailoutbox[0]), follow=True)
    [(set_password_url, _status)] = form_page.redirect_chain
    client.post(set_password_url, {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD})

    alice.refresh_from_db()
    assert alice.check_password(NEW_PASSWORD)


def test_it_answers_the_same_whether_the_account_exists_or_not(client, alice, mailoutbox):
    def ask(email):
        return [client.post(URL, {"email": email}).status_code for _ in range(4)]

    assert ask("alice@example.com") == ask("nobody@example.com") == [302, 302, 302, 429]
    assert len(mailoutbox) == 3


def test_it_sends_ten_emails_an_hour_from_one_client_at_most(client, db, mailoutbox):
    from accounts.models import User

    for n in range(12):
        User.objects.create_user(f"player{n}", f"player{n}@example.com", PASSWORD)

    answers = [
        client.post(URL, {"email": f"player{n}@example.com"}, REMOTE_ADDR="192.0.2.1")
        for n in range(12)
    ]

    assert len(mailoutbox) == 10
    assert [a.status_code for a in answers[9:]] == [302, 429, 429]
    # No email went to those addresses: the refusal does not speak of links sent.
    assert "Too many password reset requests from your network." in answers[10].text
    assert "still works" not in answers[10].text


def test_it_sends_again_an_hour_later(client, alice, mailoutbox, settings):
    import time_machine
    from django.utils import timezone

    # The count's window is the cache entry's lifetime: a cache whose clock travels with the
    # test's (local memory), not Redis's own.
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

    with time_machine.travel(timezone.datetime(2026, 11, 2, 9, 0, tzinfo=timezone.UTC)) as t:
        for _ in range(4):
            client.post(URL, {"email": "alice@example.com"})
        t.shift(3601)
        response = client.post(URL, {"email": "alice@example.com"})

    assert response.status_code == 302
    assert len(mailoutbox) == 4


def test_it_counts_the_emails_to_one_address_whatever_its_case(client, alice, mailoutbox):
    cases = ["alice@example.com", "ALICE@example.com", "Alice@Example.com", "aLiCe@example.COM"]
    for n, email in enumerate([*cases, "alice@EXAMPLE.com"]):
        client.post(URL, {"email": email}, REMOTE_ADDR=f"192.0.2.{n + 1}")
    assert len(mailoutbox) == 3


def test_it_counts_the_requests_from_one_ipv6_network_together(client, db, mailoutbox):
    for n in range(12):
        User.objects.create_user(f"player{n}", f"player{n}@example.com", "x-long-pass-1")
    answers = [
        client.post(URL, {"email": f"player{n}@example.com"}, REMOTE_ADDR=f"2001:db8::{n + 1:x}")
        for n in range(12)
    ]
    assert len(mailoutbox) == 10
    assert [a.status_code for a in answers[10:]] == [429, 429]
