from pathlib import Path

import pytest
from django.contrib.staticfiles import finders
from django.urls import reverse


def test_it_renders_the_home_page(client):
    response = client.get(reverse("lobby:home"))

    assert response.status_code == 200
    assert "home.html" in [t.name for t in response.templates]
    assert "Full Set" in response.text
    assert "coming soon" in response.text.lower()


def test_it_puts_the_csrf_token_in_htmx_headers(client):
    response = client.get("/")

    token = response.context["csrf_token"]
    assert f'hx-headers=\'{{"X-CSRFToken": "{token}"}}\'' in response.text


@pytest.mark.parametrize("path", ["vendor/htmx.min.js", "vendor/htmx-ext-ws.js", "css/site.css"])
def test_it_links_static_files_that_exist(client, path):
    response = client.get("/")

    assert f"/static/{path}" in response.text
    assert finders.find(path) is not None


def test_it_vendors_htmx_2_and_its_ws_extension():
    htmx = Path(finders.find("vendor/htmx.min.js")).read_text()
    ws = Path(finders.find("vendor/htmx-ext-ws.js")).read_text()

    assert 'version:"2.0.' in htmx
    assert "htmx.defineExtension('ws'" in ws
