"""The statistics on a profile, head-to-head records and the leaderboard (issue 5)."""

import importlib
import re

import pytest
from django.apps import apps as django_apps
from django.contrib.auth import get_user_model
from django.urls import reverse

from accounts.models import GameTogether, HeadToHead, PlayerStats, Rating
from accounts.profile import LEADERBOARD_MIN_GAMES, _rate, rating_chart
from accounts.tests.test_stats import finished

pytestmark = pytest.mark.django_db


def test_it_shows_results_rates_streaks_and_ratings(client, alice, bob, charlie):
    finished([alice, bob], ["win", "loss"], turns=20, when=1)
    finished([alice, bob, charlie], ["win", "loss", "loss"], turns=9, when=2)
    finished([alice, bob], ["loss", "win"], enhanced=True, when=3)

    response = client.get(alice.get_absolute_url())

    context = response.context
    assert (context["totals"].wins, context["totals"].losses, context["win_rate"]) == (2, 1, 67)
    assert context["average_turns_to_win"] == (10 + 3) / 2
    assert [(x["players"], x["played"], x["won"]) for x in context["by_players"]] == [
        (2, 2, 1),
        (3, 1, 1),
    ]
    classic, enhanced = context["editions"]
    assert (classic["played"], classic["won"], classic["rate"]) == (2, 2, 100)
    assert classic["rating"].provisional and "provisional" in response.text
    assert classic["chart"]["count"] == 2 and "<polyline" in response.text
    assert enhanced["rating"].ordinal < 0
    assert context["best"].delta > 0 and context["worst"].delta < 0
    assert context["best"].game.code in response.text
    assert [line["game"].ended_at.hour for line in context["recent_games"]] == [15, 14, 13]
    # Her opponents only, whatever her seat: no separator left hanging after the last of them.
    assert [[s.name for s in line["opponents"]] for line in context["recent_games"]] == [
        [bob.name],
        [bob.name, charlie.name],
        [bob.name],
    ]
    bobs = client.get(bob.get_absolute_url()).text  # bob sat last in two of them
    assert bobs.count(f">{alice.name}</a>\n    </li>") == 2
    assert not re.search(r"</a>, \s*</li>", bobs)


def test_it_shows_the_favourite_action_cards_and_rent_per_game(client, alice):
    PlayerStats.objects.create(
        user=alice,
        games=4,
        actions={"sly_deal": 3, "pass_go": 7, "deal_breaker": 1, "birthday": 3},
        rent_collected=18,
    )
    response = client.get(alice.get_absolute_url())
    assert response.context["favourite_actions"] == [
        ("Pass Go", 7),
        ("It's My Birthday", 3),
        ("Sly Deal", 3),
    ]
    assert "Pass Go: played 7 times" in response.text
    assert "4.5M" in response.text


def test_it_shows_a_visitor_their_record_against_the_player(client, alice, bob, charlie):
    finished([alice, bob], ["win", "loss"])
    finished([bob, alice], ["win", "loss"])
    finished([alice, bob, charlie], ["loss", "loss", "win"])
    finished([alice, charlie], ["win", "loss"])
    client.force_login(alice)

    response = client.get(bob.get_absolute_url())

    assert response.context["versus"] == {"games": 3, "won": 1, "lost": 1, "others": 1}
    assert "You against bob: 1 won, 1 lost in 3 games" in response.text


def test_it_lists_the_games_two_players_played_together(client, alice, bob, charlie):
    together = [finished([alice, bob], ["win", "loss"], when=n) for n in range(3)]
    finished([alice, charlie], ["win", "loss"])

    response = client.get(reverse("accounts:versus", args=["bob", "alice"]))

    assert response.context["record"] == {"games": 3, "won": 0, "lost": 3, "others": 0}
    assert [g.code for g in response.context["page"].object_list] == [
        g.code for g in reversed(together)
    ]


def test_it_ranks_settled_players_on_the_leaderboard(client, alice, bob, charlie):
    for n in range(3 * LEADERBOARD_MIN_GAMES):
        finished([alice, bob], ["win", "loss"] if n % 3 else ["loss", "win"], when=24 * n)
    finished([charlie, alice], ["win", "loss"])

    response = client.get(reverse("accounts:leaderboard"))

    ranked = [r.user.username for r in response.context["ratings"]]
    assert ranked == ["alice", "bob"], "charlie is provisional and has too few games"
    assert Rating.objects.get(user=charlie, edition="classic").provisional
    empty = client.get(reverse("accounts:leaderboard") + "?edition=enhanced")
    assert list(empty.context["ratings"]) == []
    assert "Nobody has played enough games" in empty.text


@pytest.mark.parametrize("games", [2, 12])
def test_it_costs_a_bounded_number_of_queries(
    client, alice, bob, charlie, django_assert_max_num_queries, games
):
    for n in range(games):
        finished([alice, bob, charlie][: 2 + n % 2], ["win", "loss", "loss"][: 2 + n % 2], when=n)
    client.force_login(bob)
    # The session, the user, the header's badges, 9 of its own, the block link.
    with django_assert_max_num_queries(13):
        assert client.get(alice.get_absolute_url()).status_code == 200
    with django_assert_max_num_queries(5):
        assert client.get(reverse("accounts:leaderboard")).status_code == 200
    # Bob asks: his own record is not read again (accounts.profile.user_named).
    with django_assert_max_num_queries(6):
        assert client.get(reverse("accounts:versus", args=["alice", "bob"])).status_code == 200


def test_it_draws_the_rating_chart_within_its_box():
    chart = rating_chart([-3.0, 1.5, 4.0], width=100, height=50, pad=5)
    points = [tuple(map(float, p.split(","))) for p in chart["points"].split()]
    assert [x for x, _y in points] == [5.0, 50.0, 95.0]
    ys = [y for _x, y in points]
    assert ys[0] == 45.0 and ys[2] == 5.0, "lowest at the bottom, highest at the top"
    assert 5.0 < chart["zero"] < 45.0


@pytest.mark.parametrize(
    "values, lowest, highest, zero",
    [([-1.5, -2.8, -3.6], -3.6, -1.5, False), ([5.0, 9.0, 12.0], 5.0, 12.0, False)],
)
def test_it_tells_the_lowest_and_highest_rating_the_player_had(values, lowest, highest, zero):
    chart = rating_chart(values)
    # Once the range took 0.0 in, as if the player had been rated 0.0 in these games.
    assert (chart["lowest"], chart["highest"]) == (lowest, highest)
    assert (chart["low"], chart["high"]) == (lowest, highest), "the scale's ends"
    assert (chart["zero"] is not None) == zero


def test_it_draws_a_flat_rating_in_the_middle_of_its_scale():
    chart = rating_chart([4.0, 4.0])
    assert (chart["lowest"], chart["highest"], chart["low"], chart["high"]) == (4, 4, 3, 5)
    assert {point.split(",")[1] for point in chart["points"].split()} == {"60.0"}


@pytest.mark.parametrize(
    "won, played, rate",
    [(199, 200, 99), (1, 201, 1), (200, 200, 100), (0, 5, 0), (2, 3, 67), (0, 0, None)],
)
def test_it_shows_a_win_rate_of_0_or_100_only_for_none_or_all_won(won, played, rate):
    assert _rate(won, played) == rate


def test_it_404s_for_a_head_to_head_with_nobody(client, alice):
    response = client.get(reverse("accounts:versus", args=["alice", "nobody"]))
    assert response.status_code == 404


def test_it_counts_the_records_of_the_games_finished_before_the_migration(alice, bob, charlie):
    finished([alice, bob], ["win", "loss"])
    finished([alice, bob, charlie], ["loss", "loss", "win"])
    HeadToHead.objects.all().delete()
    migration = importlib.import_module("accounts.migrations.0013_page_aggregates")

    migration.count_pairs(django_apps, None)

    records = {
        (r.user.username, r.opponent.username): (r.games, r.won, r.lost)
        for r in HeadToHead.objects.select_related("user", "opponent")
    }
    assert records[("alice", "bob")] == (2, 1, 0)
    assert records[("bob", "alice")] == (2, 0, 1)
    assert records[("charlie", "alice")] == (1, 1, 0)
    assert len(records) == 6


def test_it_fills_the_games_two_players_finished_together_for_the_games_before(alice, bob, charlie):
    two = finished([alice, bob], ["win", "loss"])
    three = finished([alice, bob, charlie], ["loss", "loss", "win"], when=1)
    GameTogether.objects.all().delete()
    migration = importlib.import_module("accounts.migrations.0014_speed")

    migration.fill(django_apps, None)

    rows = {
        (r.user.username, r.opponent.username, r.game_id, r.ended_at)
        for r in GameTogether.objects.select_related("user", "opponent")
    }
    assert ("alice", "bob", two.pk, two.ended_at) in rows
    assert ("bob", "alice", two.pk, two.ended_at) in rows
    assert ("charlie", "bob", three.pk, three.ended_at) in rows
    assert len(rows) == 2 + 6


def test_it_takes_the_resignations_counted_before_out_of_the_games_abandoned(alice, bob, charlie):
    from games import rules
    from games.tests.review_helpers import started_game

    game = started_game([alice, bob], seed=7)
    game.play(1, rules.Move.resign())  # counted as abandoned too before the migration
    PlayerStats.objects.filter(user=bob).update(abandoned=1)
    PlayerStats.objects.update_or_create(user=charlie, defaults={"abandoned": 2})  # timeouts
    migration = importlib.import_module("accounts.migrations.0017_abandoned_without_resignations")

    migration.recount(django_apps, None)

    assert PlayerStats.objects.get(user=bob).abandoned == 0
    assert PlayerStats.objects.get(user=bob).losses == 1
    assert PlayerStats.objects.get(user=charlie).abandoned == 2


def test_the_games_played_column_is_not_the_cards_played_word_in_chinese(client, alice, bob):
    # "Played" is also a move's cause ("已出牌", a card played): a context tells them apart.
    finished([alice, bob], ["win", "loss"], when=1)

    response = client.get(alice.get_absolute_url(), headers={"accept-language": "zh-hans"})

    assert "<th>局数</th>" in response.text
    assert "已出牌" not in response.text


def test_the_leaderboard_leaves_out_closed_accounts_and_uncertain_ratings(client, alice, bob):
    for n in range(3 * LEADERBOARD_MIN_GAMES):
        finished([alice, bob], ["win", "loss"] if n % 3 else ["loss", "win"], when=24 * n)
    Rating.objects.filter(user=bob).update(sigma=Rating.PROVISIONAL_SIGMA + 1)
    gone = get_user_model().objects.create_user("gone", "gone@example.com", "x")
    Rating.objects.create(user=gone, edition="classic", mu=60, sigma=1, ordinal=57, games=50)
    gone.is_active = False
    gone.save()

    ranked = [r.user for r in client.get(reverse("accounts:leaderboard")).context["ratings"]]

    assert ranked == [alice]


def test_the_leaderboard_ranks_a_player_from_exactly_the_minimum_games(client, alice):
    Rating.objects.create(
        user=alice, edition="classic", mu=30, sigma=1, ordinal=27, games=LEADERBOARD_MIN_GAMES
    )
    ranked = [r.user for r in client.get(reverse("accounts:leaderboard")).context["ratings"]]
    assert ranked == [alice]
