"""The leaderboard shows provisional players too, below the ranked ones (issue 14)."""

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from accounts.models import Rating
from accounts.profile import LEADERBOARD_MIN_GAMES
from accounts.tests.test_stats import finished

pytestmark = pytest.mark.django_db


def test_it_shows_provisional_players_when_nobody_is_ranked_yet(client, alice, bob):
    finished([alice, bob], ["win", "loss"])

    response = client.get(reverse("accounts:leaderboard"))

    assert list(response.context["ratings"]) == []
    assert [r.user for r in response.context["provisional"]] == [alice, bob]  # best first
    text = response.text
    assert "Nobody has played enough games in this edition yet." in text
    assert "Provisional ratings" in text
    assert text.index("Provisional ratings") < text.index("Alice Liddell") < text.index(">bob<")
    assert text.count('<span class="tag provisional">provisional</span>') == 2


def test_it_lists_provisional_players_below_the_ranked_ones(client, alice, bob, charlie):
    for n in range(3 * LEADERBOARD_MIN_GAMES):
        finished([alice, bob], ["win", "loss"] if n % 3 else ["loss", "win"], when=24 * n)
    finished([charlie, alice], ["win", "loss"])
    inactive = get_user_model().objects.create_user("gone", "gone@example.com", "x")
    finished([inactive, bob], ["win", "loss"])
    inactive.is_active = False
    inactive.save()

    response = client.get(reverse("accounts:leaderboard"))

    assert [r.user for r in response.context["ratings"]] == [alice, bob]
    assert [r.user for r in response.context["provisional"]] == [charlie]
    text = response.text
    assert text.index(">bob<") < text.index("Provisional ratings") < text.index(">charlie<")
    assert text.count('<span class="tag provisional">provisional</span>') == 1
    assert ">gone<" not in text


def test_it_keeps_a_player_with_a_settled_sigma_but_few_games_provisional(client, alice, bob):
    finished([alice, bob], ["win", "loss"])
    Rating.objects.filter(user=alice).update(sigma=1.0)

    response = client.get(reverse("accounts:leaderboard"))

    assert list(response.context["ratings"]) == []
    assert alice in [r.user for r in response.context["provisional"]]
    # and her profile says so too (it once went by the uncertainty alone)
    profile = client.get(alice.get_absolute_url())
    [classic, _enhanced] = profile.context["editions"]
    assert classic["rating"].provisional
    assert 'class="tag provisional"' in profile.text


def test_it_says_what_the_rating_means(client, alice):
    leaderboard = client.get(reverse("accounts:leaderboard")).text
    profile = client.get(alice.get_absolute_url()).text

    assert "OpenSkill" in leaderboard and "mu − 3 sigma" in leaderboard
    assert "OpenSkill" in profile and "mu − 3 sigma" in profile
    assert f"provisional until it settles, after about {LEADERBOARD_MIN_GAMES} games" in profile
