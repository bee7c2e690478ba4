"""The table page: each user sees their own view of the game, and nothing hidden."""

import pytest
from django.conf import settings
from django.urls import reverse

from games.models import Game, Seat
from games.tests.helpers import ALICE, BOB, card_ids, set_position, text

pytestmark = pytest.mark.django_db


def table_url(game):
    return reverse("games:table", args=[game.code])


def test_it_shows_a_seated_player_their_hand_and_not_bob_s(client, alice, table_game):
    state = table_game.state()
    client.force_login(alice)

    response = client.get(table_url(table_game))

    assert response.status_code == 200
    html = response.content.decode()
    shown = card_ids(html)
    assert set(state.players[ALICE].hand) <= shown
    assert not shown & set(state.players[BOB].hand)
    assert not shown & set(state.draw)
    assert f'ws-connect="/ws/games/{table_game.code}/?here=' in html
    assert f'data-version="{table_game.version}"' in html


def test_it_never_puts_the_state_in_the_template(client, alice, table_game):
    client.force_login(alice)

    response = client.get(table_url(table_game))

    keys = response.context.keys()
    assert "game" not in keys and "state" not in keys and "view" not in keys
    assert set(response.context["table"]) >= {"hand", "players", "opponents", "log"}


def test_it_shows_the_spectator_view_to_an_outsider(client, charlie, table_game):
    state = table_game.state()
    client.force_login(charlie)

    response = client.get(table_url(table_game))

    assert response.status_code == 200
    html = response.content.decode()
    assert "You are watching" in html
    assert response.context["table"]["hand"] is None
    shown = card_ids(html)
    assert not shown & (set(state.players[ALICE].hand) | set(state.players[BOB].hand))
    assert 'name="kind"' not in html


def test_it_sends_a_logged_out_visitor_to_login(client, table_game):
    response = client.get(table_url(table_game))

    assert response.status_code == 302
    assert response["Location"].startswith(settings.LOGIN_URL)


def test_it_sends_an_open_table_to_the_lobby_waiting_room(client, alice):
    game = Game.objects.create(host=alice)
    Seat.objects.create(game=game, user=alice, position=0)
    client.force_login(alice)

    response = client.get(table_url(game))

    assert response.status_code == 302
    assert response["Location"].rstrip("/").endswith(f"/t/{game.code}")


def test_it_answers_404_for_an_unknown_table(client, alice):
    client.force_login(alice)

    assert client.get(reverse("games:table", args=["nosuchgame"])).status_code == 404


def test_it_draws_sets_bank_and_piles(client, alice, table_game):
    set_position(
        table_game,
        """
        players: alice bob
        alice hand: sly_deal red/yellow any
        alice bank: 5M pass_go
        alice table: red: red red; brown: brown brown +house
        bob hand: 1M 2M
        bob table: green: green
        bob bank: 3M
        jailed: bob
        discard: deal_breaker
        """,
    )
    client.force_login(alice)

    html = client.get(table_url(table_game)).content.decode()

    assert "2/3" in html  # the red set
    assert "Bank 6M" in html and "Bank 3M" in html
    assert "House" in html
    assert "In jail" in html
    assert "2 cards in hand" in html  # bob's hand, as a count
    assert "Deal Breaker" in html  # the discard pile's top card
    assert "Multicolour wild" in html and "rainbow" in html
    assert "Wild red/yellow" in html


def test_it_offers_only_the_legal_moves_of_each_card(client, alice, table_game):
    state = set_position(
        table_game,
        """
        players: alice bob
        alice hand: 5M red/yellow rent:red/yellow double_rent
        alice table: red: red
        bob table: green: green
        """,
    )
    client.force_login(alice)

    response = client.get(table_url(table_game))

    labels = [
        control["label"]
        for entry in response.context["table"]["hand"]
        for control in entry["controls"]
    ]
    assert "Bank it (5M)" in labels
    assert "Lay as red" in labels and "Lay as yellow" in labels
    assert "Charge everyone 2M red rent" in labels
    assert "Charge everyone 4M red rent (with 1 Double the Rent)" in labels
    assert not any("yellow rent" in label for label in labels)  # no yellow property
    assert "End turn" in response.content.decode()
    assert len(labels) == sum(1 for m in response.context["table"]["hand"] for _ in m["controls"])
    assert state.current == ALICE


def test_it_says_whose_turn_it_is_once(client, alice, bob, table_game):
    users = {ALICE: alice, BOB: bob}
    on_turn = users[table_game.state().current]  # the deal chose who begins
    other = bob if on_turn == alice else alice

    client.force_login(on_turn)
    status = status_text(client.get(table_url(table_game)).content.decode())
    assert status.startswith("Your turn: 3 plays left")
    assert on_turn.username not in status  # not "alice is playing" below "Your turn"

    client.force_login(other)
    status = status_text(client.get(table_url(table_game)).content.decode())
    assert status.startswith(f"{on_turn.username}'s turn")
    assert status.count(on_turn.username) == 1


def status_text(html):
    """Return the words of the page's status section."""
    section = html[html.index('<section id="status"') :]
    return text(section[: section.index("</section>")])


def test_it_shows_who_is_awaited_and_the_pending_action(client, bob, table_game):
    set_position(
        table_game,
        """
        players: alice bob
        turn: bob
        bob hand: debt_collector
        alice bank: 5M 1M
        """,
    )
    client.force_login(bob)
    from games.tests.helpers import post_move

    card = table_game.state().players[BOB].hand[0]
    post_move(client, table_game, kind="play", card=card, targets=ALICE)

    html = client.get(table_url(table_game)).content.decode()
    assert "bob collects a 5M debt from alice" in html
    assert "alice must answer" in html


def test_it_shows_the_result_and_the_review_link_when_finished(client, alice, table_game):
    state = set_position(
        table_game,
        """
        players: alice bob
        alice hand: green
        alice table: brown: brown brown; dark_blue: dark_blue dark_blue; green: green green
        """,
    )
    table_game.play(ALICE, {"kind": "lay", "card": state.players[ALICE].hand[0], "colour": "green"})
    client.force_login(alice)

    html = client.get(table_url(table_game)).content.decode()

    assert "alice won with 3 complete sets" in html
    assert f'href="/games/{table_game.code}/review/"' in html
    # The socket stays open for the players: a rematch offer reaches them live.
    assert f'ws-connect="/ws/games/{table_game.code}/?here=' in html


def test_it_says_so_when_the_game_ends_in_stalemate(client, alice, table_game):
    table_game.play(ALICE if table_game.state().current == ALICE else BOB, {"kind": "end"})
    snapshot = table_game.snapshot
    snapshot["phase"] = "over"
    snapshot["end_reason"] = "stalemate"
    table_game.snapshot = snapshot
    table_game.status = Game.Status.FINISHED
    table_game.save()
    client.force_login(alice)

    html = client.get(table_url(table_game)).content.decode()

    assert "No winner: stalemate" in html


def test_it_lets_a_debtor_pay_with_buildings(client, bob, table_game):
    state = set_position(
        table_game,
        """
        players: alice bob
        alice hand: debt_collector
        bob table: green: green green green +house +hotel
        bob bank: 1M
        """,
    )
    table_game.play(ALICE, {"kind": "play", "card": state.players[ALICE].hand[0], "targets": [BOB]})
    client.force_login(bob)

    response = client.get(table_url(table_game))

    pay = response.context["table"]["prompt"]["answers"][0]["pay"]
    assert {c["name"] for c in pay["cards"]} >= {"House", "Hotel", "1M"}
    assert pay["amount"] == 5
