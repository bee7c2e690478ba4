"""Card and colour names: every one marked for translation, and translated to Chinese."""

import pytest
from django.urls import reverse
from django.utils import translation

from games.rules.cards import CARD_KINDS, COLOUR_TABLE, COLOURS
from games.table.cardnames import COLOUR_NAMES, KIND_NAMES, colour_name, kind_name


def test_it_names_every_card_kind_in_english_as_the_engine_does():
    with translation.override("en"):
        assert set(KIND_NAMES) == {kind.id for kind in CARD_KINDS}
        for kind in CARD_KINDS:
            assert str(kind_name(kind.id)) == kind.name_en


def test_it_names_every_colour():
    with translation.override("en"):
        assert set(COLOUR_NAMES) == set(COLOURS)
        assert str(colour_name("light_blue")) == "light blue"


def test_it_has_the_chinese_names_of_the_rules():
    with translation.override("zh-hans"):
        for kind in CARD_KINDS:
            assert str(kind_name(kind.id)) == kind.name_zh, kind.id
        for colour in COLOURS:
            assert str(colour_name(colour)) == COLOUR_TABLE[colour][1]


@pytest.mark.django_db
def test_it_shows_the_table_in_chinese(client, alice, table_game):
    client.force_login(alice)

    response = client.get(
        reverse("games:table", args=[table_game.code]), headers={"Accept-Language": "zh-hans"}
    )

    html = response.content.decode()
    assert "你的手牌" in html and "最近的走法" in html
