"""The deck as data: colours, card kinds, and the physical cards of a game."""

from dataclasses import dataclass
from functools import cache

BROWN = "brown"
LIGHT_BLUE = "light_blue"
PINK = "pink"
ORANGE = "orange"
RED = "red"
YELLOW = "yellow"
GREEN = "green"
DARK_BLUE = "dark_blue"
RAILROAD = "railroad"
UTILITY = "utility"

COLOURS = (BROWN, LIGHT_BLUE, PINK, ORANGE, RED, YELLOW, GREEN, DARK_BLUE, RAILROAD, UTILITY)

# colour: (English name, seed name, rent by number of cards, property value)
COLOUR_TABLE = {
    BROWN: ("brown", "啡色", (1, 2), 1),
    LIGHT_BLUE: ("light blue", "浅蓝色", (1, 2, 3), 1),
    PINK: ("pink", "粉红色", (1, 2, 4), 2),
    ORANGE: ("orange", "橙色", (1, 3, 5), 2),
    RED: ("red", "红色", (2, 3, 6), 3),
    YELLOW: ("yellow", "黄色", (2, 4, 6), 3),
    GREEN: ("green", "绿色", (2, 4, 7), 4),
    DARK_BLUE: ("dark blue", "蓝色", (3, 8), 4),
    RAILROAD: ("railroad", "黑色(车站)", (1, 2, 3, 4), 2),
    UTILITY: ("utility", "青色(公共事业)", (1, 2), 2),
}
RENT_TABLE = {c: row[2] for c, row in COLOUR_TABLE.items()}
FULL_SET = {c: len(row[2]) for c, row in COLOUR_TABLE.items()}
# Houses and Hotels never stand on these (docs/rules.md section 3).
UNBUILDABLE = frozenset((RAILROAD, UTILITY))

# Card categories: what a card can be used for.
MONEY = "money"
PROPERTY = "property"  # plain property or two-colour wild
WILD_ANY = "wild_any"  # multicolour wild
ACTION = "action"
RENT_CARD = "rent"

# Action effects, chosen by card kind.
DEAL_BREAKER = "deal_breaker"
JUST_SAY_NO = "just_say_no"
SLY_DEAL = "sly_deal"
FORCED_DEAL = "forced_deal"
DEBT_COLLECTOR = "debt_collector"
BIRTHDAY = "birthday"
DOUBLE_RENT = "double_rent"
HOUSE = "house"
HOTEL = "hotel"
PASS_GO = "pass_go"
RENT = "rent"
JAIL = "jail"
DOUBLE_SLY_DEAL = "double_sly_deal"
SPEEDING = "speeding"
RENT_TRANSFER = "rent_transfer"
HEIR = "heir"


@dataclass(frozen=True, slots=True)
class CardKind:
    """One kind of card: what it is worth and what it does."""

    id: str
    category: str
    value: int
    name_en: str
    name_zh: str
    colours: tuple[str, ...] = ()
    effect: str = ""  # the action effect for action and rent cards
    base_count: int = 0  # copies in one base deck
    enhanced_count: int = 0  # copies added by the enhanced edition

    @property
    def is_wild(self):
        return self.category == WILD_ANY or len(self.colours) > 1 and self.category == PROPERTY

    @property
    def is_property(self):
        return self.category in (PROPERTY, WILD_ANY)


def _kinds():
    kinds = []
    for value, count, extra in ((1, 6, 1), (2, 5, 1), (3, 3, 1), (4, 3, 1), (5, 2, 1), (10, 1, 0)):
        kinds.append(
            CardKind(
                f"{value}M",
                MONEY,
                value,
                f"{value}M",
                f"{value}百万" if value < 10 else "1千万",
                (),
                "",
                count,
                extra,
            )
        )
    property_counts = {
        BROWN: 2,
        LIGHT_BLUE: 3,
        PINK: 3,
        ORANGE: 3,
        RED: 3,
        YELLOW: 3,
        GREEN: 3,
        DARK_BLUE: 2,
        RAILROAD: 4,
        UTILITY: 2,
    }
    for colour, count in property_counts.items():
        en, zh, _rent, value = COLOUR_TABLE[colour]
        kinds.append(
            CardKind(
                colour,
                PROPERTY,
                value,
                f"{en.capitalize()} property",
                f"{zh}物业",
                (colour,),
                "",
                count,
            )
        )
    wilds = (
        ((LIGHT_BLUE, BROWN), 1, 1, 1),
        ((LIGHT_BLUE, RAILROAD), 4, 1, 0),
        ((PINK, ORANGE), 2, 2, 1),
        ((RED, YELLOW), 3, 2, 1),
        ((DARK_BLUE, GREEN), 4, 1, 1),
        ((GREEN, RAILROAD), 4, 1, 0),
        ((RAILROAD, UTILITY), 2, 1, 0),
    )
    for colours, value, count, extra in wilds:
        a, b = (COLOUR_TABLE[c] for c in colours)
        kinds.append(
            CardKind(
                "/".join(colours),
                PROPERTY,
                value,
                f"Wild {a[0]}/{b[0]}",
                f"{a[1]}+{b[1]}双色多功能物业",
                colours,
                "",
                count,
                extra,
            )
        )
    kinds.append(
        CardKind("any", WILD_ANY, 0, "Multicolour wild", "彩色多功能物业", COLOURS, "", 2, 2)
    )
    actions = (
        (DEAL_BREAKER, 5, "Deal Breaker", "物业接管", 2, 0),
        (JUST_SAY_NO, 4, "Just Say No", "作出反对", 3, 0),
        (SLY_DEAL, 3, "Sly Deal", "盗取", 3, 0),
        (FORCED_DEAL, 3, "Forced Deal", "强制交易", 3, 0),
        (DEBT_COLLECTOR, 3, "Debt Collector", "收取债务", 3, 0),
        (BIRTHDAY, 2, "It's My Birthday", "我的生日", 3, 0),
        (DOUBLE_RENT, 1, "Double the Rent", "双倍租金", 2, 0),
        (HOUSE, 3, "House", "房子", 3, 4),
        (HOTEL, 4, "Hotel", "酒店", 2, 1),
        (PASS_GO, 1, "Pass Go", "通行证", 10, 0),
        (JAIL, 3, "Jail", "即时入狱", 0, 1),
        (DOUBLE_SLY_DEAL, 4, "Double Sly Deal", "双重盗取", 0, 1),
        (SPEEDING, 2, "Speeding", "超速行驶", 0, 1),
        (RENT_TRANSFER, 3, "Rent Transfer", "租金转移", 0, 1),
        (HEIR, 2, "Heir", "继承者", 0, 1),
    )
    for effect, value, en, zh, count, extra in actions:
        kinds.append(CardKind(effect, ACTION, value, en, zh, (), effect, count, extra))
    for colours in (
        (LIGHT_BLUE, BROWN),
        (PINK, ORANGE),
        (RED, YELLOW),
        (DARK_BLUE, GREEN),
        (RAILROAD, UTILITY),
    ):
        a, b = (COLOUR_TABLE[c] for c in colours)
        kinds.append(
            CardKind(
                "rent:" + "/".join(colours),
                RENT_CARD,
                1,
                f"Rent {a[0]}/{b[0]}",
                f"{a[1]}+{b[1]}租金",
                colours,
                RENT,
                2,
            )
        )
    kinds.append(
        CardKind("rent:any", RENT_CARD, 3, "Rent, any colour", "彩色租金", COLOURS, RENT, 3)
    )
    return tuple(kinds)


CARD_KINDS = _kinds()
KIND_BY_ID = {kind.id: kind for kind in CARD_KINDS}

assert sum(k.base_count for k in CARD_KINDS) == 106
assert sum(k.enhanced_count for k in CARD_KINDS) == 21


def decks_for(players):
    """Return how many decks a table of this size uses."""
    return 1 if players <= 5 else 2


@cache
def build_deck(decks, enhanced):
    """Return the physical cards of a game as a tuple of kinds; a card's id is its index."""
    cards = []
    for _ in range(decks):
        for kind in CARD_KINDS:
            cards.extend([kind] * (kind.base_count + (kind.enhanced_count if enhanced else 0)))
    return tuple(cards)


def rent_for(colour, cards, house, hotel, enhanced):
    """Return the rent of one set of `colour` holding `cards` cards."""
    table = RENT_TABLE[colour]
    rent = table[min(cards, len(table)) - 1]
    if cards >= len(table):
        if house:
            rent += 4 if enhanced else 3
        if hotel:
            rent += 5 if enhanced else 4
    return rent
