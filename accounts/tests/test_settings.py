import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import timezone

from accounts.forms import PasswordChangeForm, SettingsForm
from accounts.models import User
from accounts.tests.conftest import PASSWORD

URL = reverse("accounts:settings")


def _form(**overrides):
    data = {
        "display_name": "Alice L.",
        "email": "alice@example.com",
        "language": "",
        "email_notifications": "on",
    }
    return {**data, **overrides}


@pytest.mark.django_db
def test_it_requires_login(client):
    response = client.get(URL)

    assert response.status_code == 302
    assert response.url == f"{reverse('accounts:login')}?next={URL}"


def test_it_shows_the_current_settings(client, alice):
    client.force_login(alice)

    response = client.get(URL)

    assert response.status_code == 200
    assert 'value="Alice Liddell"' in response.text
    assert "Email address: alice@example.com" in response.text
    assert 'href="/accounts/settings/email/"' in response.text
    assert 'id="id_email_notifications" checked>' in response.text


def test_it_offers_each_language_in_its_own_name(client, alice):
    client.force_login(alice)

    response = client.get(URL)

    choices = response.context["form"].fields["language"].choices
    assert [code for code, _ in choices] == ["", "en", "zh-hans"]
    assert '<option value="en">English</option>' in response.text
    assert '<option value="zh-hans">简体中文</option>' in response.text


def test_it_saves_display_name_and_language(client, alice):
    client.force_login(alice)

    response = client.post(URL, _form(display_name="  Queen   of Hearts ", language="zh-hans"))

    assert response.status_code == 302
    assert response.url == URL
    alice.refresh_from_db()
    assert alice.display_name == "Queen of Hearts"
    assert alice.language == "zh-hans"
    assert alice.email_notifications is True


def test_it_turns_email_notifications_off(client, alice):
    client.force_login(alice)

    # An unticked checkbox is simply missing from the POST.
    data = _form()
    del data["email_notifications"]
    client.post(URL, data)

    alice.refresh_from_db()
    assert alice.email_notifications is False


def test_it_turns_the_daily_digest_on(client, alice):
    client.force_login(alice)

    page = client.get(URL)
    client.post(URL, _form(email_digest="on"))

    assert 'id="id_email_digest">' in page.text, "off by default"
    assert "Email me once a day a list of the games waiting for me." in page.text
    alice.refresh_from_db()
    assert alice.email_digest is True
    assert alice.email_notifications is True


def test_it_offers_the_daily_digest_in_chinese(client, alice):
    alice.language = "zh-hans"
    alice.save()
    client.force_login(alice)

    page = client.get(URL)

    assert '<label for="id_email_digest">每日摘要：</label>' in page.text


def test_it_confirms_the_save(client, alice):
    client.force_login(alice)

    response = client.post(URL, _form(), follow=True)

    assert "Your settings are saved." in response.text


def test_it_keeps_the_input_on_an_error(client, alice, bob):
    client.force_login(alice)

    response = client.post(URL, _form(display_name="BOB", language="zh-hans"))

    assert response.status_code == 200
    assert "Please correct the errors below." in response.text
    assert "Another player already goes by this name." in response.text
    assert 'value="BOB"' in response.text
    assert '<option value="zh-hans" selected>' in response.text
    # The header still shows the saved name, not the rejected one.
    assert '<a class="account-name" href="/accounts/u/alice/">Alice Liddell</a>' in response.text
    alice.refresh_from_db()
    assert alice.display_name == "Alice Liddell"
    assert alice.email == "alice@example.com"


def test_it_rejects_an_unknown_language(client, alice):
    client.force_login(alice)

    response = client.post(URL, _form(language="fr"))

    form = response.context["form"]
    assert "fr is not one of the available choices." in form.errors["language"][0]
    alice.refresh_from_db()
    assert alice.language == ""


def test_it_switches_the_next_response_to_the_chosen_language(client, alice):
    client.force_login(alice)

    response = client.post(URL, _form(language="zh-hans"))
    page = client.get(URL)

    assert response.cookies[settings.LANGUAGE_COOKIE_NAME].value == "zh-hans"
    assert '<html lang="zh-hans">' in page.text
    assert page["Content-Language"] == "zh-hans"
    assert "保存设置" in page.text


def test_it_confirms_in_the_language_just_chosen(client, alice):
    client.force_login(alice)

    response = client.post(URL, _form(language="zh-hans"), follow=True)

    assert "设置已保存。" in response.text
    assert "Your settings are saved." not in response.text


def test_it_keeps_the_language_after_logging_out(client, alice):
    client.force_login(alice)
    client.post(URL, _form(language="zh-hans"))

    client.post(reverse("accounts:logout"))
    response = client.get("/")

    assert '<html lang="zh-hans">' in response.text


def test_it_hands_the_language_back_to_the_browser(client, alice):
    alice.language = "zh-hans"
    alice.save()
    client.force_login(alice)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "zh-hans"

    response = client.post(URL, _form(language=""))
    page = client.get("/", headers={"accept-language": "en"})

    assert response.cookies[settings.LANGUAGE_COOKIE_NAME].value == ""
    assert '<html lang="en">' in page.text


def test_it_leaves_the_turn_alerts_off_by_default(client, alice):
    client.force_login(alice)

    page = client.get(URL)

    assert alice.turn_sound is False and alice.turn_browser_notification is False
    assert 'id="id_turn_sound">' in page.text
    assert 'id="id_turn_browser_notification">' in page.text
    assert "Play a short sound when a game starts waiting for me" in page.text
    assert 'id="notification-permission"' not in page.text


def test_it_saves_the_turn_sound_and_the_browser_notification(client, alice):
    client.force_login(alice)

    client.post(URL, _form(turn_sound="on", turn_browser_notification="on"))
    page = client.get(URL)

    alice.refresh_from_db()
    assert alice.turn_sound is True
    assert alice.turn_browser_notification is True
    assert 'id="id_turn_sound" checked>' in page.text
    # The browser is asked for permission only from a click, once the setting is saved.
    assert 'id="notification-permission" class="notification-permission" hidden>' in page.text
    assert "Allow notifications in this browser" in page.text


def test_it_turns_the_turn_alerts_off_again(client, alice):
    alice.turn_sound = alice.turn_browser_notification = True
    alice.save()
    client.force_login(alice)

    client.post(URL, _form())

    alice.refresh_from_db()
    assert alice.turn_sound is False
    assert alice.turn_browser_notification is False


def test_it_switches_the_table_hints(client, alice):
    client.force_login(alice)

    page = client.get(URL)
    client.post(URL, _form())
    alice.refresh_from_db()
    hidden = alice.show_table_hints
    client.post(URL, _form(show_table_hints="on"))
    alice.refresh_from_db()

    assert '<label for="id_show_table_hints">Show first-game hints on the table:</label>' in (
        page.text
    )
    assert 'id="id_show_table_hints" checked>' in page.text, "on by default"
    assert hidden is False
    assert alice.show_table_hints is True


def test_it_offers_the_turn_alerts_in_chinese(client, alice):
    alice.language = "zh-hans"
    alice.turn_browser_notification = True
    alice.save()
    client.force_login(alice)

    page = client.get(URL)

    assert '<label for="id_turn_sound">轮到我时播放提示音：</label>' in page.text
    assert "允许此浏览器显示通知" in page.text


def test_it_saves_standing_answers(client, alice):
    client.force_login(alice)

    response = client.post(
        URL, _form(accept_without_jsn="on", pay_rule="money", jsn_deal_breaker="on")
    )

    assert response.status_code == 302
    alice.refresh_from_db()
    assert (alice.accept_without_jsn, alice.pay_rule, alice.jsn_deal_breaker) == (
        True,
        "money",
        True,
    )


def test_it_keeps_asking_when_no_pay_rule_is_posted(client, alice):
    client.force_login(alice)
    alice.pay_rule = "least"
    alice.save()

    response = client.post(URL, _form())

    assert response.status_code == 302
    alice.refresh_from_db()
    assert (alice.accept_without_jsn, alice.pay_rule) == (False, "ask")


def test_it_says_that_accepting_at_once_tells_the_others(client, alice):
    client.force_login(alice)

    response = client.get(URL)

    assert "The other players can then tell" in response.text


def test_saving_the_settings_keeps_a_password_changed_meanwhile(client, alice, monkeypatch):
    # A stolen session saving the settings in a loop, while the owner changes the password:
    # the row read before the change must not write the old password back.
    client.force_login(alice)
    real = SettingsForm.is_valid

    def changed_meanwhile(form):
        owner = User.objects.get(pk=alice.pk)
        owner.set_password("a-new-password-42")
        owner.save(update_fields=["password"])
        return real(form)

    monkeypatch.setattr(SettingsForm, "is_valid", changed_meanwhile)
    client.post(URL, _form(display_name="Queen of Hearts"))

    alice.refresh_from_db()
    assert alice.check_password("a-new-password-42")
    assert alice.display_name == "Queen of Hearts"
    assert client.get(URL).status_code == 302  # the old session ends with the old password


def test_a_password_change_keeps_what_was_saved_meanwhile(client, alice, monkeypatch):
    # A daily digest claimed while the new password is hashed stays claimed.
    client.force_login(alice)
    claimed = timezone.now()
    real = PasswordChangeForm.clean_old_password

    def claimed_meanwhile(form):
        User.objects.filter(pk=alice.pk).update(digest_sent_at=claimed, turn_sound=True)
        return real(form)

    monkeypatch.setattr(PasswordChangeForm, "clean_old_password", claimed_meanwhile)
    client.post(
        reverse("accounts:password_change"),
        {
            "old_password": PASSWORD,
            "new_password1": "x-new-pw-2024",
            "new_password2": "x-new-pw-2024",
        },
    )

    alice.refresh_from_db()
    assert alice.check_password("x-new-pw-2024")
    assert alice.digest_sent_at == claimed and alice.turn_sound
