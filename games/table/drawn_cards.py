"""A card of a player's view as the table's templates draw it (games/table/board.py).

Built once per card, the colour it stands for and the language in a process,
its names translated once: a table shows dozens of cards to every viewer.
"""

from collections import Counter

from django.utils import translation

from games.rules.cards import COLOURS, KIND_BY_ID
from games.table.cardnames import colour_name, kind_name
from games.table.cardtexts import CARD_TEXTS

# Cards as drawn, by card, the colour it stands for and the language: a few thousand at most.
# Shared by every table: whoever gets one copies it before changing it.
_cards = {}


def card(data, as_colour="", language=None):
    """Return a card of the view (id, kind, value) with what it takes to draw it.

    `language`: the active one (translation.get_language()), when the caller knows it.
    """
    language = language or translation.get_language()
    key = (data["id"], data["kind"], data["value"], as_colour, language)
    found = _cards.get(key)
    if found is None:
        found = _cards[key] = _card(data, as_colour)
    return found


def _card(data, as_colour):
    kind = KIND_BY_ID[data["kind"]]
    rainbow = len(kind.colours) == len(COLOURS)
    colours = [] if rainbow else list(kind.colours)
    if as_colour in colours:
        # A wild on the table shows the colour it stands for first.
        colours.remove(as_colour)
        colours.insert(0, as_colour)
    return {
        "id": data["id"],
        "kind": kind.id,
        "value": data["value"],
        "name": str(kind_name(kind.id)),
        "category": kind.category,
        "colours": colours,
        "colour_names": [str(colour_name(c)) for c in colours],
        "rainbow": rainbow,
        "wild": kind.is_wild,
        "as_colour": as_colour,
        "as_colour_name": str(colour_name(as_colour)) if as_colour else "",
        # What the card does (its face and its tooltip), and its face's CSS class.
        "text": CARD_TEXTS[kind.id],
        "face": kind.id.replace(":", "-").replace("/", "-"),
    }


def set_numbers(sets):
    """Return each set's number among its owner's sets of its colour (1, 2...); 0 when alone."""
    counts = Counter(s["colour"] for s in sets)
    seen = Counter()
    numbers = []
    for s in sets:
        seen[s["colour"]] += 1
        numbers.append(seen[s["colour"]] if counts[s["colour"]] > 1 else 0)
    return numbers
