"""The review of a finished game: its positions, what it reveals, who may see it, its record."""

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from games import rules
from games.history import review as reviews
from games.history.review import CHECKPOINT_EVERY
from games.models import Checkpoint, Game, Seat
from games.rules.position import card_in
from games.tests.helpers import card_ids, set_position
from games.tests.review_helpers import play_to_the_end, started_game, stored_game

pytestmark = pytest.mark.django_db

ALICE, BOB = 0, 1


def review_url(game, **query):
    url = reverse("games:review", args=[game.code])
    return url + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")


@pytest.fixture
def finished(alice, bob):
    """A game of alice and bob played to its end through Game.play."""
    return play_to_the_end(started_game([alice, bob]), seed=3)


def hands(state):
    return [set(player.hand) for player in state.players]


# --- positions ----------------------------------------------------------------------------------


# The stored moves and checkpoints are read the same way at any table size: the two-player
# game on both databases, the longer games (the replay's own arithmetic) on SQLite only.
@pytest.mark.parametrize(
    ("players", "seed"),
    [
        (2, 1),
        pytest.param(3, 2, marks=pytest.mark.one_database),
        pytest.param(4, 7, marks=pytest.mark.one_database),
    ],
)
def test_it_shows_at_each_position_the_state_the_engine_had_after_that_move(
    monkeypatch, players, seed
):
    users = [
        get_user_model().objects.create_user(f"player{i}", password="pw-review-1")
        for i in range(players)
    ]
    after = []  # the engine's state after each move, as the real game applied them
    real_apply = rules.apply

    def recording(state, seat, move):
        result = real_apply(state, seat, move)
        after.append(state.to_json())
        return result

    with monkeypatch.context() as patch:
        patch.setattr(rules, "apply", recording)
        game = play_to_the_end(started_game(users), seed)

    assert game.status == Game.Status.FINISHED and game.summary is not None
    total = game.moves.count()
    assert game.summary["moves"] == total == len(after)
    deal = rules.new_game([u.id for u in users], game.seed, game.options).to_json()
    for n in range(total + 1):
        state, current = reviews.state_at(game, n)
        assert state.to_json() == (after[n - 1] if n else deal), f"position {n}"
        assert (current.n if current else None) == (
            list(game.moves.values_list("n", flat=True))[n - 1] if n else None
        )
    assert state == game.state()
    stored = list(game.checkpoints.values_list("n", flat=True))
    assert stored == sorted({*range(0, total + 1, CHECKPOINT_EVERY), total})


def test_it_replays_fewer_moves_than_the_checkpoint_spacing(finished, monkeypatch):
    applied = []
    real_apply = rules.apply
    monkeypatch.setattr(rules, "apply", lambda *args: applied.append(1) or real_apply(*args))
    total = finished.summary["moves"]
    for n in range(total + 1):
        applied.clear()
        reviews.state_at(finished, n)
        assert len(applied) < CHECKPOINT_EVERY


def test_it_shows_every_hand_and_the_move_that_led_there(client, charlie, finished):
    n = finished.summary["moves"] // 2
    state, current = reviews.state_at(finished, n)
    client.force_login(charlie)

    response = client.get(review_url(finished, move=n))

    assert response.status_code == 200
    html = response.content.decode()
    shown = card_ids(html)
    assert hands(state)[ALICE] | hands(state)[BOB] <= shown
    assert not shown & set(state.draw), "the draw pile stays hidden"
    assert response.context["current"]["n"] == current.n
    assert f"Move {n} of {finished.summary['moves']}" in html
    assert 'aria-current="step"' in html
    assert 'name="kind"' not in html, "a review has no move forms"


def test_it_shows_a_position_as_one_player_saw_it_with_only_their_hand(client, charlie, finished):
    n = finished.summary["moves"] // 2
    state, _current = reviews.state_at(finished, n)
    client.force_login(charlie)

    response = client.get(review_url(finished, move=n, **{"as": BOB}))

    html = response.content.decode()
    shown = card_ids(html)
    assert hands(state)[BOB] <= shown
    assert not shown & hands(state)[ALICE]
    assert response.context["table"]["me"]["hand"] is not None
    assert "(you)" not in html


def test_it_renders_only_the_position_for_htmx(client, alice, finished):
    client.force_login(alice)

    response = client.get(review_url(finished, move=1), headers={"HX-Request": "true"})

    html = response.content.decode()
    assert html.lstrip().startswith('<section id="review-position"')
    assert 'data-move="1"' in html and "move-list" not in html
    assert response.context["current"]["text"]


def test_it_starts_at_the_end_and_keeps_positions_within_the_game(client, alice, finished):
    client.force_login(alice)
    total = finished.summary["moves"]

    for asked, shown in [("", total), ("abc", total), ("-4", 0), (str(total + 50), total)]:
        response = client.get(review_url(finished, move=asked))
        assert response.context["n"] == shown


def test_it_needs_as_few_queries_for_a_long_game_as_for_a_short_one(
    client, alice, bob, charlie, django_assert_max_num_queries
):
    dave = get_user_model().objects.create_user("dave", password="pw-review-1")
    # Played as Game.play keeps moves: no line needs the state before it (older games' do).
    short = stored_game([alice, bob], seed=9, details=True)
    long = stored_game([alice, bob, charlie, dave], seed=12, details=True)
    assert long.moves.count() > 2 * short.moves.count()
    client.force_login(alice)
    counts = []
    for game in (short, long):
        client.get(review_url(game))  # the first visit builds the review of an old game
        url = review_url(game, move=game.moves.count() - 1)
        for headers in ({}, {"HX-Request": "true"}):
            # session, user, game, seats, checkpoint, moves, analysis, blocks, the two chats
            with django_assert_max_num_queries(14) as queries:
                assert client.get(url, headers=headers).status_code == 200
            counts.append(len(queries))
    assert counts[:2] == counts[2:], "the page and its fragment: as many queries for both games"


# --- who may see it -----------------------------------------------------------------------------


def test_it_refuses_to_review_a_game_in_progress_even_to_its_players(client, alice, table_game):
    client.force_login(alice)

    for url in (review_url(table_game), reverse("games:export", args=[table_game.code])):
        response = client.get(url)
        assert response.status_code == 403
        html = response.content.decode()
        assert "still being played" in html
        assert not card_ids(html) and "seed" not in html


def test_it_refuses_to_review_open_and_cancelled_tables(client, alice):
    opened = Game.objects.create(host=alice)
    cancelled = Game.objects.create(host=alice, status=Game.Status.CANCELLED)
    client.force_login(alice)

    for game in (opened, cancelled):
        response = client.get(review_url(game))
        assert response.status_code == 403
        assert "never played" in response.content.decode()


def test_it_sends_a_logged_out_visitor_to_log_in(client, finished):
    response = client.get(review_url(finished))

    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_it_answers_404_for_an_unknown_game(client, alice):
    client.force_login(alice)

    assert client.get(reverse("games:review", args=["nosuchgame"])).status_code == 404


# --- building reviews ---------------------------------------------------------------------------


def test_it_builds_the_review_of_a_game_that_ended_before_reviews_existed(client, alice, bob):
    game = stored_game([alice, bob], seed=5)
    assert game.summary is None and not game.checkpoints.exists()
    client.force_login(alice)

    assert client.get(review_url(game, move=3)).status_code == 200
    game.refresh_from_db()
    assert game.summary["moves"] == game.moves.count()
    count = game.checkpoints.count()
    game.summary = None  # as if two first visits had raced
    game.save(update_fields=["summary"])
    assert reviews.ensure_summary(game)["moves"] == game.moves.count()
    assert game.checkpoints.count() == count


def test_it_reviews_a_game_its_players_abandoned(alice, bob):
    game = started_game([alice, bob])
    Seat.objects.filter(game=game).update(absent=True)
    game.play(game.state().current, rules.Move.end())
    game.refresh_from_db()

    assert game.end_reason == "abandoned" and game.summary["end_reason"] == "abandoned"
    state, _current = reviews.state_at(game, game.summary["moves"])
    assert state == game.state()


def test_it_finishes_a_game_its_log_cannot_replay_without_a_review(client, alice, table_game):
    state = set_position(
        table_game,
        """
        players: alice bob
        alice hand: green
        alice table: brown: brown brown; dark_blue: dark_blue dark_blue; green: green green
        """,
    )
    table_game.play(ALICE, rules.Move.lay(card_in(state, "alice", "hand", "green"), "green"))
    table_game.refresh_from_db()
    assert table_game.status == Game.Status.FINISHED and table_game.summary is None
    assert not Checkpoint.objects.filter(game=table_game).exists()
    client.force_login(alice)

    response = client.get(review_url(table_game))

    assert response.status_code == 403
    assert "cannot be replayed" in response.content.decode()


# --- the summary and the record -----------------------------------------------------------------


def test_it_sums_up_the_game_beside_the_board(client, alice, finished):
    client.force_login(alice)

    response = client.get(review_url(finished))

    summary = response.context["summary"]
    assert [p["name"] for p in summary["players"]] == ["alice", "bob"]
    assert summary["turns"] == finished.state().turns
    html = response.content.decode()
    assert "Rent collected" in html and "Properties stolen" in html
    winner = finished.summary["winner"]
    if winner is not None:
        assert summary["result"].startswith(["alice", "bob"][winner] + " won with ")


def test_it_exports_a_record_that_replays_to_the_game(client, charlie, finished):
    client.force_login(charlie)

    response = client.get(reverse("games:export", args=[finished.code]))

    assert response.status_code == 200 and response["Content-Type"] == "application/json"
    record = response.json()
    assert record["seats"] == ["alice", "bob"]
    moves = [(m["seat"], rules.Move.from_json(m["move"])) for m in record["moves"]]
    state = rules.replay(record["seats"], record["seed"], record["options"], moves)
    expected = finished.state().to_json()
    expected["seats"] = record["seats"]  # the record names players; the game numbers them
    assert state.to_json() == expected
    assert record["result"]["end_reason"] == finished.end_reason
    assert [m["n"] for m in record["moves"]] == list(finished.moves.values_list("n", flat=True))


def test_a_rents_position_says_its_amount_from_the_checkpoint_not_the_deal(
    client, alice, finished, monkeypatch
):
    from games.table import log

    moves = list(finished.moves.order_by("n"))
    deck = finished.state().deck
    rents = [n for n, m in enumerate(moves, 1) if log._is_rent(m.move, deck)]
    assert rents, "the game has rents"
    client.force_login(alice)
    said = {
        line["index"]: line["text"] for line in client.get(review_url(finished)).context["lines"]
    }

    def replayed(*args):
        pytest.fail("a position's rent was told by replaying the game from the deal")

    monkeypatch.setattr(log, "_state_before", replayed)
    for n in rents:
        position = client.get(review_url(finished, move=n), headers={"HX-Request": "true"})

        assert position.context["current"]["text"] == said[n]


def test_a_damaged_log_is_unreplayable_on_the_review_and_still_read_on_the_log_page(
    client, alice, bob
):
    game = stored_game([alice, bob], seed=9)
    third = game.moves.order_by("n")[2]
    third.move = {"kind": "no such move"}
    third.save()
    client.force_login(alice)

    review = client.get(review_url(game))
    log = client.get(reverse("games:log", args=[game.code]))

    assert review.status_code == 403 and "cannot be replayed" in review.content.decode()
    assert log.status_code == 200 and "made a move" in log.content.decode()


def test_a_user_s_downloads_of_records_are_bounded_a_minute(client, alice, bob, settings):
    settings.EXPORTS_PER_MINUTE = 2
    game = stored_game([alice, bob], seed=9)
    url = reverse("games:export", args=[game.code])
    client.force_login(alice)

    answers = [client.get(url) for _ in range(3)]

    assert [a.status_code for a in answers] == [200, 200, 429]
    assert "Too many downloads in a minute" in answers[2].content.decode()
    assert answers[2]["Retry-After"] == "60"
    client.force_login(bob)  # another user's downloads are their own
    assert client.get(url).status_code == 200


def test_the_bound_on_downloads_holds_while_the_shared_cache_fails(
    client, alice, bob, settings, monkeypatch, request
):
    from accounts.tests.test_ratelimit import Broken
    from games import views

    settings.EXPORTS_PER_MINUTE = 1
    monkeypatch.setattr(views.EXPORTS, "shared", Broken())
    views.EXPORTS.forget()
    request.addfinalizer(views.EXPORTS.forget)  # this process's counts: for this test only
    game = stored_game([alice, bob], seed=9)
    url = reverse("games:export", args=[game.code])
    client.force_login(alice)

    answers = [client.get(url).status_code for _ in range(3)]

    assert answers == [200, 429, 429]  # counted in this process meanwhile
