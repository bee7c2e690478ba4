import pytest
from django.conf import settings
from django.urls import reverse

from accounts.models import User


def test_it_applies_the_saved_language_on_a_new_device(client, alice):
    alice.language = "zh-hans"
    alice.save()
    client.force_login(alice)

    # No language cookie here, and a browser that asks for English.
    response = client.get("/", headers={"accept-language": "en"})

    assert settings.LANGUAGE_COOKIE_NAME not in client.cookies
    assert '<html lang="zh-hans">' in response.text


def test_it_prefers_the_saved_language_to_the_cookie(client, alice):
    alice.language = "zh-hans"
    alice.save()
    client.force_login(alice)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"

    response = client.get("/")

    assert '<html lang="zh-hans">' in response.text


def test_it_leaves_the_browser_language_without_a_saved_one(client, bob):
    client.force_login(bob)

    response = client.get("/", headers={"accept-language": "zh-CN,zh;q=0.9"})

    assert '<html lang="zh-hans">' in response.text


def test_it_ignores_a_language_no_longer_offered(client, alice):
    alice.language = "tlh"
    alice.save()
    client.force_login(alice)

    response = client.get("/", headers={"accept-language": "en"})

    assert response.status_code == 200
    assert '<html lang="en">' in response.text


def test_it_uses_the_browser_language_for_anonymous_visitors(client, db):
    response = client.get("/", headers={"accept-language": "zh-Hans"})

    assert '<html lang="zh-hans">' in response.text


def test_it_ends_the_form_labels_with_a_chinese_colon(client, alice):
    alice.language = "zh-hans"
    alice.save()
    client.force_login(alice)

    page = client.get(reverse("accounts:settings")).text

    assert "显示名称：</label>" in page and "显示名称:</label>" not in page


@pytest.mark.parametrize(("browser", "chosen"), [("zh-CN,zh;q=0.9", "zh-hans"), ("en-GB", "en")])
def test_signing_up_chooses_the_language_the_page_was_read_in(client, db, browser, chosen):
    # A newcomer who never opens the settings gets their game emails in it too.
    password = "x9!Long-enough-pw"
    response = client.post(
        reverse("accounts:signup"),
        {"username": "li", "email": "li@example.com", "password1": password, "password2": password},
        HTTP_ACCEPT_LANGUAGE=browser,
    )

    assert response.status_code == 302
    assert User.objects.get(username="li").language == chosen
