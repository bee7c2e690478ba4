"""The lobby in Simplified Chinese, over HTTP and over its socket."""

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.urls import reverse

from config.asgi import application
from games.models import Game
from lobby.tests.conftest import open_table
from lobby.tests.test_consumer import logged_in, socket_headers

ZH = {"Accept-Language": "zh-hans"}


@pytest.mark.django_db
def test_it_shows_the_home_page_in_chinese(client, alice, table):
    client.force_login(alice)

    response = client.get(reverse("lobby:home"), headers=ZH)

    assert "我的牌桌" in response.text
    assert "创建牌桌" in response.text
    assert "实时，每次决定 60 秒" in response.text


@pytest.mark.django_db
def test_it_refuses_in_chinese(client, alice, bob, charlie):
    game = open_table(alice, bob, seat_count=2)
    client.force_login(charlie)

    response = client.post(reverse("lobby:join", args=[game.code]), headers=ZH, follow=True)

    assert "这张牌桌已满。" in response.text


@pytest.mark.django_db(transaction=True)
async def test_it_renders_socket_fragments_in_the_browser_language(alice, charlie):
    await sync_to_async(open_table)(
        alice, pace=Game.Pace.CORRESPONDENCE, pace_days=2, options={"enhanced": True}
    )
    # charlie chose no language: the socket speaks the browser's, as his pages do.
    headers = await sync_to_async(socket_headers)(await sync_to_async(logged_in)(charlie))
    headers.append((b"accept-language", b"zh-CN,zh;q=0.9"))
    socket = WebsocketCommunicator(application, "/ws/lobby/", headers)
    connected, _code = await socket.connect()
    try:
        assert connected
        html = await socket.receive_from(timeout=5)
    finally:
        await socket.disconnect()

    assert "通信，每步 2 天" in html
    assert "增强版" in html


@pytest.mark.django_db
def test_a_visitor_switches_the_language_from_the_footer(client, alice):
    page = client.get(reverse("how_to_play"), headers=ZH).text
    assert 'action="/i18n/setlang/"' in page and 'value="en"' in page

    response = client.post(
        "/i18n/setlang/", {"language": "en", "next": reverse("how_to_play")}, headers=ZH
    )

    assert response.status_code == 302 and response.url == reverse("how_to_play")
    english = client.get(reverse("how_to_play"), headers=ZH).text  # the cookie, not the browser
    assert '<html lang="en">' in english
    assert 'value="en" lang="en" aria-pressed="true"' in english
    client.force_login(alice)  # a signed-in user's language is in their settings
    assert 'action="/i18n/setlang/"' not in client.get(reverse("how_to_play")).text


@pytest.mark.django_db
def test_it_lists_the_players_of_a_table_with_the_chinese_comma(client, alice, bob):
    game = open_table(alice, bob)
    client.force_login(alice)

    page = client.get(reverse("lobby:home"), headers=ZH).text

    row = page[page.index(f'href="{reverse("lobby:table", args=[game.code])}"') :]
    names = row[row.index(">") + 1 : row.index("</a>")]
    assert names == f"{alice.name}、{bob.name}"
