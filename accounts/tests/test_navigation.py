import pytest
from django.urls import reverse


@pytest.mark.django_db
def test_it_offers_log_in_and_sign_up_when_logged_out(client):
    response = client.get("/")

    assert f'href="{reverse("accounts:login")}"' in response.text
    assert f'href="{reverse("accounts:signup")}"' in response.text
    assert reverse("accounts:logout") not in response.text


def test_it_shows_name_settings_and_log_out_when_logged_in(client, alice):
    client.force_login(alice)

    response = client.get("/")

    assert '<a class="account-name" href="/accounts/u/alice/">Alice Liddell</a>' in response.text
    assert f'href="{reverse("accounts:settings")}"' in response.text
    assert f'href="{reverse("accounts:login")}"' not in response.text


def test_it_logs_out_through_a_post_form_with_csrf(client, alice):
    client.force_login(alice)

    response = client.get("/")

    form_start = response.text.index(f'<form method="post" action="{reverse("accounts:logout")}">')
    form = response.text[form_start : response.text.index("</form>", form_start)]
    assert 'name="csrfmiddlewaretoken"' in form
    assert "Log out" in form


def test_it_shows_the_username_without_a_display_name(client, bob):
    client.force_login(bob)

    response = client.get("/")

    assert '<a class="account-name" href="/accounts/u/bob/">bob</a>' in response.text


def test_it_speaks_the_users_language(client, alice):
    alice.language = "zh-hans"
    alice.save()
    client.force_login(alice)

    response = client.get("/")

    assert "设置" in response.text
    assert "注销" in response.text
    assert "Log out" not in response.text
