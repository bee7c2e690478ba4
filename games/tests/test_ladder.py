"""The bot ladder: rated games among the computer levels and their figures on the bots' profiles."""

import io
import json

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse

from accounts.models import BotStrength, Rating
from games.models import Game
from games.play import ladder
from games.play.bots import bot_account
from games.rules import arena
from games.rules.state import Options

pytestmark = pytest.mark.django_db


def test_it_plays_rated_games_among_the_levels():
    rows = ladder.run_ladder(["random", "basic"], games=2, seed=3)

    games = Game.objects.filter(status=Game.Status.FINISHED)
    assert games.count() == 2
    assert all(game.private and game.seats.count() == 2 for game in games)
    assert [game.seats.first().user.username for game in games.order_by("pk")] == [
        "bot-random-1",
        "bot-basic-1",
    ]
    ratings = {r.user.username: r for r in Rating.objects.select_related("user")}
    assert set(ratings) == {"bot-random-1", "bot-basic-1"}
    assert ratings["bot-basic-1"].games == 2
    assert ratings["bot-basic-1"].ordinal > ratings["bot-random-1"].ordinal
    basic = next(row for row in rows if row.level == "basic")
    assert (basic.opponent, basic.players, basic.games) == ("random", 2, 2)
    assert basic.wins + next(row for row in rows if row.level == "random").wins + basic.draws == 2
    assert basic.source == BotStrength.Source.LADDER
    assert 0 <= basic.ci_low <= 100 * basic.wins / 2 <= basic.ci_high <= 100
    assert basic.mean_decision_ms > 0


def test_it_stores_the_figures_of_an_arena_run():
    result = arena.run("basic", "random", 2, 2, 5, Options())

    rows = ladder.record_arena(result)

    assert [(row.level, row.opponent, row.source) for row in rows] == [
        ("basic", "random", "arena"),
        ("random", "basic", "arena"),
    ]
    assert rows[0].wins == result["a"]["wins"]
    assert rows[0].mean_decision_ms == round(result["a"]["mean_decision_ms"], 1)
    assert BotStrength.objects.count() == 2


def test_it_shows_a_bots_measured_strength_on_its_profile(client, alice):
    bot = bot_account("strong", 1)
    BotStrength.objects.create(
        level="strong",
        opponent="basic",
        players=2,
        games=200,
        wins=131,
        ci_low=58.7,
        ci_high=71.8,
        mean_decision_ms=261.0,
        max_decision_ms=712.0,
        source=BotStrength.Source.ARENA,
    )

    page = client.get(reverse("accounts:profile", args=[bot.username])).text
    person = client.get(reverse("accounts:profile", args=[alice.username])).text

    assert "Measured strength" in page
    assert "131 of 200 (65.5%; fair share 50%)" in page
    assert "58.7–71.8%" in page
    assert "261.0 ms on average, 712.0 ms at most" in page
    assert "Measured strength" not in person


def test_it_says_when_a_level_is_not_measured_yet(client):
    bot = bot_account("basic", 1)

    page = client.get(reverse("accounts:profile", args=[bot.username])).text

    assert "Not measured yet." in page


def test_it_runs_the_ladder_from_the_command_line():
    out = io.StringIO()

    call_command(
        "bot_ladder", "--games", "2", "--levels", "random,basic", stdout=out, stderr=io.StringIO()
    )

    figures = json.loads(out.getvalue().strip().splitlines()[-1])
    assert [(f["level"], f["opponent"], f["games"]) for f in figures] == [
        ("random", "basic", 2),
        ("basic", "random", 2),
    ]


def test_it_refuses_unknown_levels_on_the_command_line():
    with pytest.raises(CommandError, match="at least two levels"):
        call_command("bot_ladder", "--levels", "basic,grandmaster")
    assert not Game.objects.exists()


def test_it_stores_an_arena_output_file_from_the_command_line(tmp_path):
    path = tmp_path / "arena.json"
    result = arena.run("basic", "random", 2, 2, 5, Options())
    path.write_text("progress line\n" + json.dumps(result) + "\n")

    call_command("bot_ladder", "--arena-json", str(path), stdout=io.StringIO())

    assert BotStrength.objects.filter(source="arena").count() == 2
