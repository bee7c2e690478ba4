"""Card and colour names, marked for translation.

The engine names things in English only (cards.CardKind.name_en); these
msgids are the same English names, so the catalogues can translate them.
"""

from django.utils.translation import gettext_lazy as _, pgettext, pgettext_lazy

from games.rules.cards import KIND_BY_ID

COLOUR_NAMES = {
    "brown": pgettext_lazy("colour", "brown"),
    "light_blue": pgettext_lazy("colour", "light blue"),
    "pink": pgettext_lazy("colour", "pink"),
    "orange": pgettext_lazy("colour", "orange"),
    "red": pgettext_lazy("colour", "red"),
    "yellow": pgettext_lazy("colour", "yellow"),
    "green": pgettext_lazy("colour", "green"),
    "dark_blue": pgettext_lazy("colour", "dark blue"),
    "railroad": pgettext_lazy("colour", "railroad"),
    "utility": pgettext_lazy("colour", "utility"),
}

# A mark for each colour that is not colour (issue 18): a short code on the card's band and
# on the set's header, for players who cannot tell the colours apart.
COLOUR_MARKS = {
    "brown": pgettext_lazy("colour mark", "Br"),
    "light_blue": pgettext_lazy("colour mark", "LB"),
    "pink": pgettext_lazy("colour mark", "Pk"),
    "orange": pgettext_lazy("colour mark", "Or"),
    "red": pgettext_lazy("colour mark", "Rd"),
    "yellow": pgettext_lazy("colour mark", "Ye"),
    "green": pgettext_lazy("colour mark", "Gr"),
    "dark_blue": pgettext_lazy("colour mark", "DB"),
    "railroad": pgettext_lazy("colour mark", "RR"),
    "utility": pgettext_lazy("colour mark", "Ut"),
}

KIND_NAMES = {
    "1M": _("1M"),
    "2M": _("2M"),
    "3M": _("3M"),
    "4M": _("4M"),
    "5M": _("5M"),
    "10M": _("10M"),
    "brown": _("Brown property"),
    "light_blue": _("Light blue property"),
    "pink": _("Pink property"),
    "orange": _("Orange property"),
    "red": _("Red property"),
    "yellow": _("Yellow property"),
    "green": _("Green property"),
    "dark_blue": _("Dark blue property"),
    "railroad": _("Railroad property"),
    "utility": _("Utility property"),
    "light_blue/brown": _("Wild light blue/brown"),
    "light_blue/railroad": _("Wild light blue/railroad"),
    "pink/orange": _("Wild pink/orange"),
    "red/yellow": _("Wild red/yellow"),
    "dark_blue/green": _("Wild dark blue/green"),
    "green/railroad": _("Wild green/railroad"),
    "railroad/utility": _("Wild railroad/utility"),
    "any": _("Multicolour wild"),
    "deal_breaker": _("Deal Breaker"),
    "just_say_no": _("Just Say No"),
    "sly_deal": _("Sly Deal"),
    "forced_deal": _("Forced Deal"),
    "debt_collector": _("Debt Collector"),
    "birthday": _("It's My Birthday"),
    "double_rent": _("Double the Rent"),
    "house": _("House"),
    "hotel": _("Hotel"),
    "pass_go": _("Pass Go"),
    "jail": _("Jail"),
    "double_sly_deal": _("Double Sly Deal"),
    "speeding": _("Speeding"),
    "rent_transfer": _("Rent Transfer"),
    "heir": _("Heir"),
    "rent:light_blue/brown": _("Rent light blue/brown"),
    "rent:pink/orange": _("Rent pink/orange"),
    "rent:red/yellow": _("Rent red/yellow"),
    "rent:dark_blue/green": _("Rent dark blue/green"),
    "rent:railroad/utility": _("Rent railroad/utility"),
    "rent:any": _("Rent, any colour"),
}

_BY_ENGLISH = {KIND_BY_ID[kind].name_en: name for kind, name in KIND_NAMES.items()}


def kind_name(kind):
    """Return the translated name of a card kind (by id)."""
    return KIND_NAMES[kind]


def colour_name(colour):
    """Return the translated name of a colour (by engine id, e.g. "light_blue")."""
    return COLOUR_NAMES[colour]


def colour_mark(colour):
    """Return the short code that marks a colour (by engine id) without colour, e.g. "LB"."""
    return COLOUR_MARKS[colour]


def translate_english_name(text):
    """Return the translated name of a card the engine named in English, else `text`."""
    return _BY_ENGLISH.get(text, text)


def listed(words):
    """Join `words` as a list is written in the active language: "a, b" in English, "a、b" in Chinese."""
    return pgettext("between the items of a list", ", ").join(str(word) for word in words)
