import pytest
from django.utils import translation

from games.models import Game
from lobby.templatetags.tables import options_in_words, pace

# The SQLite run only: options put in words: no database.
pytestmark = pytest.mark.one_database


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


def test_it_describes_a_live_pace():
    assert pace(Game(pace=Game.Pace.LIVE, pace_seconds=60)) == "Live, 60 s per decision"


def test_it_describes_a_correspondence_pace():
    game = Game(pace=Game.Pace.CORRESPONDENCE, pace_days=1, reserve_days=0)
    assert pace(game) == "Correspondence, 1 day per move"
    game.pace_days = 14
    assert pace(game) == "Correspondence, 14 days per move"
    game.reserve_days = 3
    assert pace(game) == "Correspondence, 14 days per move, reserve 3 days"


def test_it_describes_the_options():
    assert options_in_words(Game(options={})) == "Standard rules"
    assert (
        options_in_words(Game(options={"wild_moves_cost_a_play": True}))
        == "Standard rules, wild moves cost a play"
    )
    assert (
        options_in_words(Game(options={"enhanced": True, "built_sets": True}))
        == "Enhanced edition, built sets"
    )
