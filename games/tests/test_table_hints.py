"""The first-game hint strip on the table: shown to seated players until they hide it."""

from django.test import Client
from django.urls import reverse

STRIP = 'id="table-hints"'


def table_page(client, user, game):
    client.force_login(user)
    return client.get(reverse("games:table", args=[game.code])).content.decode()


def hide(client, **kwargs):
    return client.post(reverse("accounts:hide_table_hints"), **kwargs)


def test_it_shows_the_hints_to_a_new_player(client, alice, table_game):
    html = table_page(client, alice, table_game)
    assert STRIP in html
    assert "a green dot marks the cards you can play now" in html
    assert f'action="{reverse("accounts:hide_table_hints")}"' in html


def test_it_does_not_show_the_hints_to_a_spectator(client, charlie, table_game):
    assert charlie.show_table_hints
    html = table_page(client, charlie, table_game)
    assert "You are watching" in html
    assert STRIP not in html


def test_it_hides_the_hints_for_that_player_only(client, alice, bob, table_game):
    table_url = reverse("games:table", args=[table_game.code])
    client.force_login(alice)
    response = hide(client, data={"next": table_url})
    assert response.status_code == 302 and response.url == table_url
    alice.refresh_from_db()
    bob.refresh_from_db()
    assert alice.show_table_hints is False and bob.show_table_hints is True
    assert STRIP not in table_page(client, alice, table_game)
    assert STRIP in table_page(Client(), bob, table_game)


def test_it_answers_htmx_with_nothing_to_swap_in(client, alice):
    client.force_login(alice)
    response = hide(client, headers={"HX-Request": "true"})
    assert response.status_code == 200 and response.content == b""
    alice.refresh_from_db()
    assert alice.show_table_hints is False


def test_it_never_sends_a_player_to_another_site(client, alice):
    client.force_login(alice)
    response = hide(client, data={"next": "https://evil.example/"})
    assert response.status_code == 302 and "evil" not in response.url


def test_it_refuses_a_get_and_an_anonymous_post(client, alice):
    response = hide(client)
    assert response.status_code == 302 and reverse("accounts:login") in response.url
    client.force_login(alice)
    assert client.get(reverse("accounts:hide_table_hints")).status_code == 405
    alice.refresh_from_db()
    assert alice.show_table_hints is True


def test_it_refuses_a_post_without_the_csrf_token(alice):
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)
    assert hide(client).status_code == 403
    alice.refresh_from_db()
    assert alice.show_table_hints is True
