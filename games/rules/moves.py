"""Moves, the choices a player fills in, and the error a rejected move raises."""

from typing import NamedTuple


def _(message):
    """Mark a message for translation; the Django layer translates it when shown."""
    return message


class IllegalMove(ValueError):
    """A move the rules do not allow; its text is for the player who tried it."""

    def __init__(self, template, **params):
        self.template = template
        self.params = params
        super().__init__(template % params if params else template)


# Move kinds.
END = "end"  # end the turn
BANK = "bank"  # put a money or action card in the bank
LAY = "lay"  # lay a property on the table in one of its colours
MOVE_WILD = "move_wild"  # move a wild on the table to another of its colours
PLAY = "play"  # play an action or rent card for its effect
DISCARD = "discard"  # put cards over 7 at the bottom of the draw pile
JUST_SAY_NO = "just_say_no"  # answer an action (or a Just Say No) with a Just Say No
ACCEPT = "accept"  # let it happen: pay, discard the card asked for, or let a cancellation stand
TRANSFER = "transfer"  # Rent Transfer: another player pays my share
RESIGN = "resign"  # leave the game for good: a loss (docs/rules.md 7, Ruling (resign))

KINDS = (END, BANK, LAY, MOVE_WILD, PLAY, DISCARD, JUST_SAY_NO, ACCEPT, TRANSFER, RESIGN)


class Move(NamedTuple):
    """One decision of one player.

    `card` is the card played, `colour` a colour chosen, `targets` the seats
    aimed at, `cards` other cards named (cards taken or given, the set built on,
    Double the Rent cards, a payment, a discard), `share` the seat whose share
    of a pending action a response is about.
    """

    kind: str
    card: int = -1
    colour: str = ""
    targets: tuple = ()
    cards: tuple = ()
    share: int = -1

    @classmethod
    def end(cls):
        return cls(END)

    @classmethod
    def bank(cls, card):
        return cls(BANK, card)

    @classmethod
    def lay(cls, card, colour):
        return cls(LAY, card, colour)

    @classmethod
    def move_wild(cls, card, colour):
        return cls(MOVE_WILD, card, colour)

    @classmethod
    def play(cls, card, targets=(), colour="", cards=()):
        return cls(PLAY, card, colour, tuple(targets), tuple(cards))

    @classmethod
    def discard(cls, cards):
        return cls(DISCARD, cards=tuple(cards))

    @classmethod
    def just_say_no(cls, share):
        return cls(JUST_SAY_NO, share=share)

    @classmethod
    def accept(cls, share, cards=()):
        return cls(ACCEPT, cards=tuple(cards), share=share)

    @classmethod
    def transfer(cls, share, to):
        return cls(TRANSFER, targets=(to,), share=share)

    @classmethod
    def resign(cls):
        return cls(RESIGN)

    def to_json(self):
        data = {"kind": self.kind}
        if self.card != -1:
            data["card"] = self.card
        if self.colour:
            data["colour"] = self.colour
        if self.targets:
            data["targets"] = list(self.targets)
        if self.cards:
            data["cards"] = list(self.cards)
        if self.share != -1:
            data["share"] = self.share
        return data

    @classmethod
    def from_json(cls, data):
        """Build a move from its JSON form; raise IllegalMove on anything malformed."""
        if not isinstance(data, dict) or data.get("kind") not in KINDS:
            raise IllegalMove(_("That is not a move."))
        if set(data) - {"kind", "card", "colour", "targets", "cards", "share"}:
            raise IllegalMove(_("That is not a move."))
        card = data.get("card", -1)
        share = data.get("share", -1)
        colour = data.get("colour", "")
        targets = data.get("targets", [])
        cards = data.get("cards", [])
        if not (_is_int(card) and _is_int(share) and isinstance(colour, str)):
            raise IllegalMove(_("That is not a move."))
        if not (isinstance(targets, list) and isinstance(cards, list)):
            raise IllegalMove(_("That is not a move."))
        if not all(_is_int(x) for x in targets) or not all(_is_int(x) for x in cards):
            raise IllegalMove(_("That is not a move."))
        if len(targets) > 16 or len(cards) > 300 or len(colour) > 20:
            raise IllegalMove(_("That is not a move."))
        return cls(data["kind"], card, colour, tuple(targets), tuple(cards), share)


def _is_int(value):
    return type(value) is int


def is_well_formed(move):
    """Return whether `move` has the shape of a Move, whatever its meaning."""
    if type(move) is not Move or move.kind not in KINDS:
        return False
    if type(move.card) is not int or type(move.share) is not int or type(move.colour) is not str:
        return False
    if type(move.targets) is not tuple or type(move.cards) is not tuple:
        return False
    for x in move.targets:
        if type(x) is not int:
            return False
    for x in move.cards:
        if type(x) is not int:
            return False
    return True


class Choice(NamedTuple):
    """A combinatorial decision the engine describes instead of enumerating.

    kind "pay": choose cards from `eligible` worth at least `amount` (all of
    them if they are worth less), answered with Move.accept(share, cards).
    kind "discard": choose exactly `count` cards of `eligible` (the hand),
    answered with Move.discard(cards).
    """

    kind: str
    eligible: tuple
    amount: int = 0
    count: int = 0
    share: int = -1

    def to_json(self):
        return {
            "kind": self.kind,
            "eligible": list(self.eligible),
            "amount": self.amount,
            "count": self.count,
            "share": self.share,
        }
