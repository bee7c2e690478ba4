"""The 404 and 500 pages with DEBUG off: the site's own, in the visitor's language."""

import pytest
from django.test import RequestFactory, override_settings
from django.urls import reverse
from django.utils import translation
from django.views.defaults import server_error


@pytest.mark.django_db
@override_settings(DEBUG=False)
def test_a_missing_page_is_the_sites_own_and_translated(client):
    response = client.get("/no-such-page/", headers={"accept-language": "zh-hans"})

    assert response.status_code == 404
    assert '<html lang="zh-hans">' in response.text
    assert "<h1>页面没有找到</h1>" in response.text
    assert '<main id="main"' in response.text
    assert f'href="{reverse("lobby:home")}"' in response.text


@override_settings(DEBUG=False)
def test_a_server_error_stands_alone_translated():
    # Django renders it with no context: no user, no request, maybe no database.
    with translation.override("zh-hans"):
        response = server_error(RequestFactory().get("/"))

    assert response.status_code == 500
    html = response.content.decode()
    assert '<html lang="zh-hans">' in html
    assert "<h1>出错了</h1>" in html
    assert f'href="{reverse("lobby:home")}"' in html
