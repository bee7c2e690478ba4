"""Colours told without colour, and cards and sets named for screen readers (issue 18)."""

import re
from pathlib import Path

import pytest
from django.urls import reverse

from games.rules.cards import COLOURS
from games.tests.helpers import set_position

TABLE_CSS = Path(__file__).resolve().parents[2] / "static" / "css" / "table.css"
MARKS = {
    "brown": "Br",
    "light_blue": "LB",
    "pink": "Pk",
    "orange": "Or",
    "red": "Rd",
    "yellow": "Ye",
    "green": "Gr",
    "dark_blue": "DB",
    "railroad": "RR",
    "utility": "Ut",
}
EVERY_COLOUR = """
players: alice bob
alice hand: red/yellow rent:pink/orange
alice table: brown: brown; light_blue: light_blue; pink: pink; orange: orange; red: red red
bob table: yellow: yellow; green: green; dark_blue: dark_blue; railroad: railroad; utility: utility
"""


def luminance(hex_colour):
    def channel(value):
        c = value / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (int(hex_colour[i : i + 2], 16) for i in (1, 3, 5))
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)


def contrast(one, other):
    light, dark = sorted((luminance(one), luminance(other)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def palette(selector):
    """Return the colour variables set by the CSS rule for `selector` in table.css."""
    css = TABLE_CSS.read_text()
    block = re.search(re.escape(selector) + r"\s*\{(.*?)\}", css, re.S).group(1)
    return dict(re.findall(r"--(\w+):\s*(#[0-9a-fA-F]{6});", block))


def table_html(client, user, game):
    client.force_login(user)
    return client.get(reverse("games:table", args=[game.code])).text


def test_it_marks_every_property_colour_on_its_set_header_and_cards(client, alice, table_game):
    set_position(table_game, EVERY_COLOUR)
    html = table_html(client, alice, table_game)
    for colour, mark in MARKS.items():
        assert re.search(rf'set-head c-{colour}"><span class="mark">{mark}</span>', html), colour
        assert re.search(rf'class="band c-{colour}"><span class="mark">{mark}</span>', html), colour
    # The wild and the rent card: a mark for each of their colours.
    for colour in ("red", "yellow", "pink", "orange"):
        assert re.search(rf'c-{colour}"><span class="mark">{MARKS[colour]}</span>', html)


def test_it_gives_every_property_colour_3_to_1_against_the_card_face_in_both_palettes():
    for selector in (":root", "body.palette-cb"):
        colours = palette(selector)
        assert set(COLOURS) <= set(colours), selector
        weak = {c: round(contrast(colours[c], "#ffffff"), 2) for c in COLOURS}
        assert {c: ratio for c, ratio in weak.items() if ratio < 3} == {}, selector


def test_it_names_cards_hands_and_sets_for_screen_readers(client, alice, table_game):
    set_position(table_game, EVERY_COLOUR)
    html = table_html(client, alice, table_game)
    assert "Red property, worth 3M, in a set of 2 of 3" in html
    assert 'aria-label="Red set: 2 of 3 cards, rent 3M"' in html
    assert 'aria-label="Railroad set: 1 of 4 cards, rent 1M"' in html
    assert "Wild red/yellow, worth 3M" in html
    assert '<ul class="hand" aria-labelledby="hand-title">' in html
    assert re.search(r'id="hand-title"[^>]*>Your hand: 2 cards<', html)
    # The drawn faces are hidden from screen readers, who hear the names instead.
    assert html.count('class="card-face" aria-hidden="true"') == html.count('card-label"')


def test_it_marks_the_colours_in_chinese_too(client, alice, table_game):
    alice.language = "zh-hans"
    alice.save(update_fields=["language"])
    set_position(table_game, EVERY_COLOUR)
    html = table_html(client, alice, table_game)
    assert '<span class="mark">红</span>' in html
    assert '<span class="mark">Rd</span>' not in html


@pytest.mark.parametrize("chosen", [True, False])
def test_it_draws_the_colour_blind_palette_when_chosen_in_the_settings(
    client, alice, table_game, chosen
):
    client.force_login(alice)
    data = {"display_name": "", "language": "", "email_notifications": "on"}
    if chosen:
        data["colour_blind_palette"] = "on"
    client.post(reverse("accounts:settings"), data)
    alice.refresh_from_db()
    assert alice.colour_blind_palette is chosen
    html = table_html(client, alice, table_game)
    body = re.search(r"<body[^>]*>", html).group(0)
    assert ('class="palette-cb"' in body) is chosen


def test_it_offers_the_colour_blind_palette_off_by_default(client, alice):
    client.force_login(alice)
    page = client.get(reverse("accounts:settings")).text
    assert re.search(r'<input type="checkbox" name="colour_blind_palette"[^>]*>', page)
    assert 'name="colour_blind_palette" id="id_colour_blind_palette" checked' not in page
    assert "palette-cb" not in page
