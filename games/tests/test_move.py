"""The move view: every kind of move posted from the table's forms, and the refusals."""

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.messages import get_messages
from django.urls import reverse

from games import views
from games.models import Game, Seat
from games.rules.position import card_in
from games.tests.helpers import ALICE, BOB, post_move, set_position, snapshot_of, state_of

pytestmark = pytest.mark.django_db


def messages_of(response):
    return [str(message) for message in get_messages(response.wsgi_request)]


@pytest.fixture
def alice_client(client, alice):
    client.force_login(alice)
    return client


@pytest.fixture
def bob_client(bob):
    from django.test import Client

    client = Client()
    client.force_login(bob)
    return client


def test_it_banks_a_card_and_redirects_to_the_table(alice_client, table_game):
    state = set_position(table_game, "alice hand: 5M red")
    five = card_in(state, "alice", "hand", "5M")

    response = post_move(alice_client, table_game, kind="bank", card=five)

    assert response.status_code == 302
    assert response["Location"] == reverse("games:table", args=[table_game.code])
    assert state_of(table_game).players[ALICE].bank == [five]
    assert table_game.version == 2
    assert list(table_game.moves.values_list("move", flat=True)) == [{"kind": "bank", "card": five}]
    page = alice_client.get(response["Location"]).content.decode()
    assert "alice banked 5M" in page


def test_it_lays_a_wild_in_the_chosen_colour(alice_client, table_game):
    state = set_position(table_game, "alice hand: red/yellow")
    wild = card_in(state, "alice", "hand", "red/yellow")

    post_move(alice_client, table_game, kind="lay", card=wild, colour="yellow")

    sets = state_of(table_game).players[ALICE].sets
    assert [(s.colour, s.cards) for s in sets] == [("yellow", [wild])]
    page = alice_client.get(reverse("games:table", args=[table_game.code])).content.decode()
    assert "alice laid Wild red/yellow as yellow" in page


def test_it_moves_a_wild_on_the_table(alice_client, table_game):
    state = set_position(table_game, "alice table: red: red/yellow")
    wild = card_in(state, "alice", "table", "red/yellow")

    post_move(alice_client, table_game, kind="move_wild", card=wild, colour="yellow")

    assert [s.colour for s in state_of(table_game).players[ALICE].sets] == ["yellow"]


def test_it_ends_the_turn(alice_client, table_game):
    set_position(table_game, "alice hand: 1M")

    post_move(alice_client, table_game, kind="end")

    state = state_of(table_game)
    assert state.current == BOB and state.phase == "play"


def test_it_charges_rent_and_takes_the_payment(alice_client, bob_client, table_game):
    state = set_position(
        table_game,
        """
        alice hand: rent:red/yellow double_rent
        alice table: red: red red
        bob bank: 1M 5M
        bob table: green: green
        """,
    )
    rent = card_in(state, "alice", "hand", "rent:red/yellow")
    double = card_in(state, "alice", "hand", "double_rent")

    post_move(alice_client, table_game, kind="play", card=rent, colour="red", cards=double)

    pending = state_of(table_game).pending
    assert pending.amount == 6 and pending.actor == ALICE
    page = bob_client.get(reverse("games:table", args=[table_game.code])).content.decode()
    assert "alice charges bob 6M rent for red" in page
    assert 'data-choice="pay"' in page  # bob chooses cards: he holds more than he owes
    five = card_in(state, "bob", "bank", "5M")
    green = card_in(state, "bob", "table", "green")

    post_move(bob_client, table_game, kind="accept", share=BOB, cards=[five, green])

    after = state_of(table_game)
    assert after.pending is None
    assert sorted(after.players[ALICE].bank) == [five]
    assert [s.colour for s in after.players[ALICE].sets] == ["red", "green"]
    page = alice_client.get(reverse("games:table", args=[table_game.code])).content.decode()
    assert "bob paid alice 9M (5M, Green property)" in page


def test_it_plays_just_say_no_and_accepts_the_cancellation(alice_client, bob_client, table_game):
    state = set_position(
        table_game,
        """
        alice hand: sly_deal just_say_no
        bob hand: just_say_no
        bob table: red: red
        """,
    )
    sly = card_in(state, "alice", "hand", "sly_deal")
    red = card_in(state, "bob", "table", "red")
    post_move(alice_client, table_game, kind="play", card=sly, targets=BOB, cards=red)
    page = bob_client.get(reverse("games:table", args=[table_game.code])).content.decode()
    assert "Just Say No!" in page

    post_move(bob_client, table_game, kind="just_say_no", share=BOB)
    page = alice_client.get(reverse("games:table", args=[table_game.code])).content.decode()
    assert "Accept the Just Say No" in page
    post_move(alice_client, table_game, kind="accept", share=BOB)

    after = state_of(table_game)
    assert after.pending is None
    assert [s.cards for s in after.players[BOB].sets] == [[red]]
    log = [
        line["text"]
        for line in alice_client.get(reverse("games:table", args=[table_game.code])).context[
            "table"
        ]["log"]
    ]
    assert log == [
        "alice played Sly Deal on bob for Red property",
        "bob said Just Say No",
        "alice accepted the Just Say No",
    ]


def test_it_puts_cards_over_seven_back(alice_client, table_game):
    state = set_position(table_game, "alice hand: 1M 1M 1M 1M 2M 2M 2M 2M 3M")
    ones = [card_in(state, "alice", "hand", "1M", n) for n in (0, 1)]
    post_move(alice_client, table_game, kind="end")
    table_game.refresh_from_db()
    assert state_of(table_game).phase == "discard"
    page = alice_client.get(reverse("games:table", args=[table_game.code])).content.decode()
    assert 'data-choice="discard"' in page
    assert ">Put them back</button>" in page

    post_move(alice_client, table_game, kind="discard", cards=ones)

    after = state_of(table_game)
    assert len(after.players[ALICE].hand) == 7 and after.current == BOB
    log = alice_client.get(reverse("games:table", args=[table_game.code])).context["table"]["log"]
    assert log[-1]["text"] == "alice put 2 cards on the bottom of the draw pile"


def test_it_asks_to_put_back_one_card_in_the_singular(alice_client, table_game):
    set_position(table_game, "alice hand: 1M 1M 1M 1M 2M 2M 2M 2M")
    post_move(alice_client, table_game, kind="end")

    page = alice_client.get(reverse("games:table", args=[table_game.code])).content.decode()

    assert "choose 1 card to put on the bottom of the draw pile." in page
    assert ">Put it back</button>" in page


def test_it_transfers_rent_to_a_third_player(alice):
    from django.test import Client

    User = get_user_model()
    bob = User.objects.create_user("bob", password="x")
    dave = User.objects.create_user("dave", password="x")
    game = Game.objects.create(host=alice, seat_count=3, options={"enhanced": True})
    for position, user in enumerate((alice, bob, dave)):
        Seat.objects.create(game=game, user=user, position=position)
    game.start()
    state = set_position(
        game,
        """
        players: alice bob dave
        options: enhanced
        alice hand: rent:any
        alice table: red: red
        bob hand: rent_transfer
        dave bank: 2M 1M
        """,
    )
    clients = {}
    for user in (alice, bob):
        clients[user.username] = Client()
        clients[user.username].force_login(user)
    post_move(
        clients["alice"],
        game,
        kind="play",
        card=card_in(state, "alice", "hand", "rent:any"),
        colour="red",
        targets=BOB,
    )
    page = clients["bob"].get(reverse("games:table", args=[game.code])).content.decode()
    assert "Rent Transfer: dave pays instead" in page

    post_move(clients["bob"], game, kind="transfer", share=BOB, targets=2)

    share = state_of(game).pending.shares[BOB]
    assert share.debtor == 2 and share.transferred_by == BOB


def test_it_answers_an_htmx_request_with_the_board_fragments(alice_client, table_game):
    state = set_position(table_game, "alice hand: 5M 1M")

    response = post_move(
        alice_client, table_game, htmx=True, kind="bank", card=card_in(state, "alice", "hand", "5M")
    )

    assert response.status_code == 200
    html = response.content.decode()
    for fragment in ("status", "board", "hand", "log", "flash"):
        assert f'id="{fragment}"' in html
    assert html.count('hx-swap-oob="true"') == 5
    assert 'data-version="2"' in html
    assert "<html" not in html


def test_it_refuses_malformed_input_and_changes_nothing(alice_client, table_game):
    set_position(table_game, "alice hand: 5M")
    before = snapshot_of(table_game)

    for fields in (
        {"kind": "explode"},
        {"kind": "bank", "card": "five"},
        {"kind": "bank", "card": "1", "version": "latest"},
        {"kind": "play", "targets": ["x"]},
    ):
        response = post_move(alice_client, table_game, **fields)
        assert response.status_code == 400
        assert response.content
        assert snapshot_of(table_game) == before
    response = alice_client.post(reverse("games:move", args=[table_game.code]), {"kind": "end"})
    assert response.status_code == 400
    assert b"which board" in response.content
    assert snapshot_of(table_game) == before


def test_it_refuses_an_illegal_move_with_its_message(alice_client, table_game):
    state = set_position(table_game, "alice hand: red")
    before = snapshot_of(table_game)

    response = post_move(
        alice_client, table_game, kind="bank", card=card_in(state, "alice", "hand", "red")
    )

    assert response.status_code == 302
    assert snapshot_of(table_game) == before
    assert messages_of(response) == ["Property cards can never be banked."]


def test_it_shows_an_illegal_move_message_in_the_htmx_fragments(bob_client, table_game):
    set_position(table_game, "alice hand: red")
    before = snapshot_of(table_game)

    response = post_move(bob_client, table_game, htmx=True, kind="end")

    assert response.status_code == 200
    assert "It is not your turn." in response.content.decode()
    assert snapshot_of(table_game) == before


def test_it_refuses_a_move_from_a_stale_board(alice_client, table_game):
    set_position(table_game, "alice hand: 5M")
    before = snapshot_of(table_game)

    response = post_move(alice_client, table_game, version=table_game.version - 1, kind="end")

    assert response.status_code == 302
    assert snapshot_of(table_game) == before
    assert messages_of(response) == [
        "The board has changed since you saw it; here is the current one."
    ]


def test_it_forbids_an_outsider_to_move(client, charlie, table_game):
    client.force_login(charlie)
    before = snapshot_of(table_game)

    response = post_move(client, table_game, kind="end")

    assert response.status_code == 403
    assert snapshot_of(table_game) == before


def test_it_sends_a_logged_out_visitor_to_login(client, table_game):
    before = snapshot_of(table_game)

    response = post_move(client, table_game, kind="end")

    assert response.status_code == 302
    assert response["Location"].startswith(settings.LOGIN_URL)
    assert snapshot_of(table_game) == before


def test_it_only_accepts_post(alice_client, table_game):
    assert alice_client.get(reverse("games:move", args=[table_game.code])).status_code == 405


def test_a_flood_of_posted_moves_is_refused_before_it_is_read(
    alice_client, table_game, settings, monkeypatch
):
    from games import views

    settings.MOVES_PER_SECOND = 3
    monkeypatch.setattr(views, "monotonic", lambda: 1000.0)  # all within one second
    set_position(table_game, "alice hand: red/yellow")
    url = reverse("games:move", args=[table_game.code])

    htmx = {"HTTP_HX_REQUEST": "true"}
    answers = [alice_client.post(url, {"kind": "junk"}, **htmx).status_code for _ in range(5)]

    assert answers == [400, 400, 400, 429, 429]
    refused = alice_client.post(url, {"kind": "junk"}, **htmx)
    assert "Too many moves at once" in refused.content.decode()
    assert refused["Retry-After"] == "1"
    # Without JavaScript: back to the table, which says why.
    posted = alice_client.post(url, {"kind": "junk"}, follow=True)
    assert posted.redirect_chain == [(table_game.get_absolute_url(), 302)]
    assert "Too many moves at once" in posted.content.decode()
    assert Game.objects.get(pk=table_game.pk).version == table_game.version


def test_moves_spread_over_one_second_still_count_against_the_bound(
    client, alice, table_game, settings, monkeypatch
):
    client.force_login(alice)
    settings.MOVES_PER_SECOND = 3
    ticks = iter([1000.0, 1000.2, 1000.4, 1000.6, 1001.5])
    monkeypatch.setattr(views, "monotonic", lambda: next(ticks))
    set_position(table_game, "alice hand: red/yellow")
    url = reverse("games:move", args=[table_game.code])

    answers = [
        client.post(url, {"kind": "junk"}, HTTP_HX_REQUEST="true").status_code for _ in range(5)
    ]

    assert answers == [400, 400, 400, 429, 400]  # the fourth within the second, the fifth after
