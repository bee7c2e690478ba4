"""What every card does, in words: the one source of card texts.

`CARD_TEXTS[kind_id]` gives a card kind's face title, its short effect line
(printed on the card) and its full effect (the tooltip and the accessible
description on the table, and the How to play page). Counts, values, set
sizes and rents come from the engine's data (games/rules/cards.py), never
written here a second time; what the cards do follows docs/rules.md sections 4-8.
"""

from dataclasses import dataclass

from django.utils.functional import lazy
from django.utils.translation import gettext, gettext_lazy as _, gettext_noop, pgettext_lazy

from games.rules.cards import (
    ACTION,
    BROWN,
    CARD_KINDS,
    COLOUR_TABLE,
    FULL_SET,
    MONEY,
    PROPERTY,
    RENT_CARD,
    WILD_ANY,
    rent_for,
)
from games.table.cardnames import colour_name, kind_name, listed


@dataclass(frozen=True)
class CardText:
    """The words of one card kind (lazy: each is translated when it is drawn)."""

    name: str  # the card's full name
    title: str  # the name on its face (wilds and rents: a short word; colours are drawn)
    short: str  # the effect line on its face ("" for money)
    full: str  # everything it does


def _formatted(message, **params):
    """Return a lazy string: `message` translated when drawn, then filled with `params`."""

    def fill():
        return gettext(message) % {k: str(v) for k, v in params.items()}

    return lazy(fill, str)()


def rents_in_words(colour):
    """Return a colour's rents by number of cards, e.g. "1M, 2M, 4M"."""
    return listed(f"{rent}M" for rent in COLOUR_TABLE[colour][2])


def _money(kind):
    full = _formatted(
        gettext_noop(
            "Money: bank it. In your bank it pays %(value)sM of a debt; no change is given."
        ),
        value=kind.value,
    )
    return CardText(kind_name(kind.id), kind_name(kind.id), "", full)


def _property(kind):
    (colour,) = kind.colours
    short = _formatted(gettext_noop("Set of %(size)s"), size=FULL_SET[colour])
    full = _formatted(
        gettext_noop(
            "Property: lay it on your table. A complete %(colour)s set holds %(size)s cards; "
            "its rent by cards in the set: %(rents)s. Paid away, it is worth %(value)sM."
        ),
        colour=colour_name(colour),
        size=FULL_SET[colour],
        rents=rents_in_words(colour),
        value=kind.value,
    )
    return CardText(kind_name(kind.id), kind_name(kind.id), short, full)


def _wild(kind):
    a, b = (colour_name(c) for c in kind.colours)
    short = _formatted(gettext_noop("%(a)s or %(b)s"), a=a, b=b)
    full = _formatted(
        gettext_noop(
            "Wild property: lay it as %(a)s or %(b)s. On your turn you may move it to the "
            "other colour for free. Paid away, it is worth %(value)sM."
        ),
        a=a,
        b=b,
        value=kind.value,
    )
    return CardText(kind_name(kind.id), WILD_TITLE, short, full)


WILD_TITLE = pgettext_lazy("card face", "Wild")
RENT_TITLE = pgettext_lazy("card face", "Rent")

# The cards whose words are not made from the engine's numbers alone.
_ACTIONS = {
    "any": (
        _("Any colour"),
        _(
            "Multicolour wild: it stands for any colour, in any set, and you may move it on "
            "your turn. It has no money value: it can be neither banked nor paid."
        ),
    ),
    "deal_breaker": (
        _("Take a complete set"),
        _("Take one complete set from another player, with its House and Hotel."),
    ),
    "just_say_no": (
        _("Cancel an action"),
        _(
            "Play it when an action is aimed at you: it is cancelled for you. The player "
            "may cancel your card with a Just Say No of their own, and so on. It is not "
            "one of your 3 plays."
        ),
    ),
    "sly_deal": (
        _("Steal a property"),
        _("Take one property that is not part of a complete set from another player."),
    ),
    "forced_deal": (
        _("Swap a property"),
        _(
            "Swap one of your properties for one of another player's. Neither may be part "
            "of a complete set."
        ),
    ),
    "debt_collector": (
        _("One player pays 5M"),
        _("Choose another player: they pay you 5M."),
    ),
    "birthday": (
        _("Everyone pays 2M"),
        _("It's your birthday: every other player pays you 2M."),
    ),
    "double_rent": (
        _("Rent ×2"),
        _(
            "Play it together with a rent card: that rent is doubled (two of them: ×4). "
            "Each card counts as one of your 3 plays."
        ),
    ),
    "pass_go": (
        _("Draw 2 cards"),
        _("Draw 2 cards from the draw pile."),
    ),
    "jail": (
        _("A player skips a turn"),
        _("Choose another player: they skip their next turn entirely."),
    ),
    "double_sly_deal": (
        _("Steal 2 properties"),
        _("Take two properties, neither part of a complete set, from one other player."),
    ),
    "speeding": (
        _("Up to 2 players discard"),
        _(
            "Choose up to two other players: each puts one card of their choice from their "
            "hand on the discard pile."
        ),
    ),
    "rent_transfer": (
        _("Pass your rent on"),
        _(
            "Play it when you are charged rent: name another player (not the collector) who "
            "pays your share instead. They may answer with Just Say No, and then nobody "
            "pays that share."
        ),
    ),
    "heir": (
        _("Take a random card"),
        _("Take one card at random from another player's hand."),
    ),
    "rent:any": (
        _("One player pays"),
        _(
            "Choose one player: they pay you rent for one colour of your choice, the rent "
            "of your best set of that colour. You need a property of that colour."
        ),
    ),
}


def building_bonus(enhanced):
    """Return what a House and a Hotel add to a complete set's rent, from the engine's rule."""
    size = FULL_SET[BROWN]
    bare = rent_for(BROWN, size, False, False, enhanced)
    house = rent_for(BROWN, size, True, False, enhanced) - bare
    hotel = rent_for(BROWN, size, True, True, enhanced) - bare - house
    return house, hotel


def _building(kind):
    (house, hotel), (enhanced_house, enhanced_hotel) = building_bonus(False), building_bonus(True)
    if kind.id == "house":
        short = _("Build on a full set")
        full = _formatted(
            gettext_noop(
                "Put it on one of your complete sets (not railroad or utility), one per set: "
                "the set's rent goes up by %(amount)sM (%(enhanced)sM in the enhanced edition)."
            ),
            amount=house,
            enhanced=enhanced_house,
        )
    else:
        short = _("Build on a House")
        full = _formatted(
            gettext_noop(
                "Put it on a complete set that has a House, one per set: the set's rent goes "
                "up by %(amount)sM more (%(enhanced)sM in the enhanced edition)."
            ),
            amount=hotel,
            enhanced=enhanced_hotel,
        )
    return CardText(kind_name(kind.id), kind_name(kind.id), short, full)


def _rent(kind):
    if kind.id in _ACTIONS:
        short, full = _ACTIONS[kind.id]
    else:
        a, b = (colour_name(c) for c in kind.colours)
        short = _("Everyone pays")
        full = _formatted(
            gettext_noop(
                "Every other player pays you rent for %(a)s or %(b)s (your choice): the rent of "
                "your best set of that colour. You need a property of that colour."
            ),
            a=a,
            b=b,
        )
    return CardText(kind_name(kind.id), RENT_TITLE, short, full)


def _text(kind):
    if kind.category == MONEY:
        return _money(kind)
    if kind.category == PROPERTY and len(kind.colours) == 1:
        return _property(kind)
    if kind.category == PROPERTY:
        return _wild(kind)
    if kind.category == WILD_ANY:
        short, full = _ACTIONS[kind.id]
        return CardText(kind_name(kind.id), WILD_TITLE, short, full)
    if kind.category == RENT_CARD:
        return _rent(kind)
    assert kind.category == ACTION, kind
    if kind.id in ("house", "hotel"):
        return _building(kind)
    short, full = _ACTIONS[kind.id]
    return CardText(kind_name(kind.id), kind_name(kind.id), short, full)


CARD_TEXTS = {kind.id: _text(kind) for kind in CARD_KINDS}
