"""Games begun before the Pass Go ruling keep their rule: their logs still replay and review."""

import copy
import importlib

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.urls import reverse

from games import rules
from games.models import Game
from games.tests.review_helpers import started_game, stored_game

pytestmark = pytest.mark.django_db

migration = importlib.import_module("games.migrations.0005_pass_go_ruling")
LEGACY = {"pass_go_discards_first": True}


@pytest.fixture
def five(alice, bob, charlie):
    User = get_user_model()
    more = [User.objects.create_user(name, f"{name}@example.com", "x-9-pass") for name in "de"]
    return [alice, bob, charlie, *more]


def as_before_the_ruling(game):
    """Forget the legacy option, as every game stored before the migration did."""
    game.options = {k: v for k, v in game.options.items() if k not in LEGACY}
    game.snapshot["options"].pop("pass_go_discards_first", None)
    game.save(update_fields=["options", "snapshot"])


def test_it_replays_and_reviews_a_game_whose_pass_go_drew_itself_back(client, five):
    # Seed 0 of a random 5-player game plays a Pass Go with fewer than 2 cards left to draw,
    # so the two rules give two different games.
    game = stored_game(five, 0, dict(LEGACY))
    played = copy.deepcopy(game.snapshot)
    as_before_the_ruling(game)
    moves = [(m.seat, rules.Move.from_json(m.move)) for m in game.moves.order_by("n")]
    try:
        differs = rules.replay(game.snapshot["seats"], game.seed, {}, moves).to_json() != played
    except rules.IllegalMove:
        differs = True
    assert differs, "this seed no longer tells the rules apart"

    migration.keep_the_old_rule(apps, None)

    game.refresh_from_db()
    assert game.options == LEGACY and game.snapshot == played
    assert game.replay().to_json() == played
    client.force_login(five[0])
    response = client.get(reverse("games:review", args=[game.code]))
    assert response.status_code == 200
    assert game.checkpoints.exists()
    assert all(c.state["options"]["pass_go_discards_first"] for c in game.checkpoints.all())


def test_it_leaves_tables_not_yet_dealt_and_rematches_to_the_ruling(alice, bob, charlie):
    waiting = Game.objects.create(host=charlie, seat_count=2)
    game = started_game([alice, bob], options={"enhanced": True})
    as_before_the_ruling(game)

    migration.keep_the_old_rule(apps, None)

    waiting.refresh_from_db()
    game.refresh_from_db()
    assert waiting.options == {}
    assert game.options == {"enhanced": True, **LEGACY}
    assert game.state().options.pass_go_discards_first
    game.play(0, rules.Move.resign())
    table = Game.objects.get(pk=game.pk).ask_rematch(bob)
    assert table.options == {"enhanced": True}

    migration.forget_the_old_rule(apps, None)
    game.refresh_from_db()
    assert game.options == {"enhanced": True} and "pass_go_discards_first" not in game.snapshot
