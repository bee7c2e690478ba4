"""The How to play page: the goal, a turn, paying, and every card with what it does.

Counts, values, colours, set sizes and rents are read from the engine's deck
(games/rules/cards.py); the cards are drawn by the table's own card partial
and described by games/table/cardtexts.py, so the page and the table cannot drift
apart.
"""

from django.shortcuts import render
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_safe

from games.rules.cards import (
    ACTION,
    CARD_KINDS,
    COLOUR_TABLE,
    COLOURS,
    FULL_SET,
    KIND_BY_ID,
    MONEY,
    PROPERTY,
    RENT_CARD,
    WILD_ANY,
)
from games.table.cardnames import colour_name
from games.table.cardtexts import building_bonus
from games.table.drawn_cards import card

GROUPS = (
    ("money", _("Money"), lambda kind: kind.category == MONEY),
    (
        "properties",
        _("Properties"),
        lambda kind: kind.category == PROPERTY and len(kind.colours) == 1,
    ),
    (
        "wilds",
        _("Wild properties"),
        lambda kind: kind.category == WILD_ANY or kind.category == PROPERTY and kind.is_wild,
    ),
    ("actions", _("Action cards"), lambda kind: kind.category == ACTION),
    ("rents", _("Rent cards"), lambda kind: kind.category == RENT_CARD),
)


def deck_groups():
    """Return the deck's kinds by group, each with its card drawn as on the table."""
    groups = []
    for slug, title, belongs in GROUPS:
        kinds = []
        for index, kind in enumerate(CARD_KINDS):
            if belongs(kind):
                kinds.append(
                    {
                        "kind": kind.id,
                        "card": card({"id": index, "kind": kind.id, "value": kind.value}),
                        "count": kind.base_count,
                        "extra": kind.enhanced_count,
                        "value": kind.value,
                    }
                )
        groups.append({"slug": slug, "title": title, "kinds": kinds})
    return groups


def rent_rows():
    """Return the rent table: one row per colour."""
    rows = []
    for colour in COLOURS:
        _en, _zh, rents, value = COLOUR_TABLE[colour]
        rows.append(
            {
                "colour": colour,
                "name": colour_name(colour),
                "size": FULL_SET[colour],
                "rents": rents,
                "value": value,
                "properties": KIND_BY_ID[colour].base_count,
            }
        )
    return rows


@require_safe
def how_to_play(request):
    # The page's content is drawn once per language ({% once %}): what it shows is
    # handed over as functions, which the template calls only when it draws it.
    house, hotel = building_bonus(False)
    enhanced_house, enhanced_hotel = building_bonus(True)
    context = {
        "groups": deck_groups,
        "rent_rows": rent_rows,
        "max_set": max(FULL_SET.values()),
        "base_total": sum(kind.base_count for kind in CARD_KINDS),
        "enhanced_total": sum(kind.base_count + kind.enhanced_count for kind in CARD_KINDS),
        "enhanced_extra": sum(kind.enhanced_count for kind in CARD_KINDS),
        "house": house,
        "hotel": hotel,
        "enhanced_house": enhanced_house,
        "enhanced_hotel": enhanced_hotel,
    }
    return render(request, "games/how_to_play.html", context)
