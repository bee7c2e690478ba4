"""The words of a player's legal moves on the table, and the form fields that make each one."""

from django.utils.translation import gettext as _, ngettext

from games.rules.actions import MONEY_EFFECTS
from games.rules.cards import (
    BIRTHDAY,
    DEAL_BREAKER,
    DEBT_COLLECTOR,
    DOUBLE_RENT,
    DOUBLE_SLY_DEAL,
    FORCED_DEAL,
    HEIR,
    HOTEL,
    HOUSE,
    JAIL,
    KIND_BY_ID,
    PASS_GO,
    RENT,
    SLY_DEAL,
    SPEEDING,
)
from games.table.cardnames import colour_name


class Labels:
    """Readable labels for legal moves, and the form fields that make each one."""

    def __init__(self, view, names, cards, places, spots):
        self.view = view
        self.names = names
        self.cards = cards
        self.places = places
        self.spots = spots
        self.kinds = {c["id"]: c["kind"] for c in view["hand"] or ()}
        self.kinds.update({cid: c["kind"] for cid, c in cards.items()})
        me = view["seat"]
        self.rents = {}
        if me is not None:
            for s in view["players"][me]["sets"]:
                self.rents[s["colour"]] = max(self.rents.get(s["colour"], 0), s["rent"])

    def kind_of(self, card_id):
        return self.kinds[card_id]

    def name_of(self, card_id):
        """Return a card's name; on a table, with its set when the name alone is ambiguous.

        A wild names the set it stands in; a card in one of several sets of its colour
        names the set's number, as the set's header shows it.
        """
        name = self.cards[card_id]["name"]
        if card_id not in self.spots:
            return name
        _owner, colour, number = self.spots[card_id]
        if number:
            return _("%(card)s (%(colour)s set %(number)d)") % {
                "card": name,
                "colour": colour_name(colour),
                "number": number,
            }
        if KIND_BY_ID[self.kind_of(card_id)].is_wild:
            return _("%(card)s (%(colour)s set)") % {"card": name, "colour": colour_name(colour)}
        return name

    def where(self, card_id):
        """Return where a card to pay with lies: its set on the table, or the bank."""
        if card_id not in self.spots:
            return _("bank")
        _owner, colour, number = self.spots[card_id]
        if number:
            return _("%(colour)s set %(number)d") % {
                "colour": colour_name(colour),
                "number": number,
            }
        return _("%(colour)s set") % {"colour": colour_name(colour)}

    def distinct(self, moves):
        """Return `moves` less those that do the same as an earlier one.

        Two cards are the same to a move when they are of one kind and, on a table, in
        one set: taking either of two Red properties of one set changes nothing else.
        """
        seen = set()
        kept = []
        for move in moves:
            key = self._sameness(move)
            if key not in seen:
                seen.add(key)
                kept.append(move)
        return kept

    def _sameness(self, move):
        def same(card_id):
            return (self.kind_of(card_id), self.spots.get(card_id))

        chosen = [same(c) for c in move.get("cards", ())]
        targets = list(move.get("targets", ()))
        if move["kind"] == "play":
            effect = KIND_BY_ID[self.kind_of(move["card"])].effect
            if effect in (DOUBLE_SLY_DEAL, DOUBLE_RENT, RENT):
                chosen.sort(key=repr)  # the order of the chosen cards changes nothing
            if effect == SPEEDING:
                targets.sort()
        return (move["kind"], move.get("card"), move.get("colour"), tuple(targets), repr(chosen))

    def control(self, move, step="", label=None):
        """Return what draws `move` as a button: its label, fields and kind.

        `step`, when given, is the first of two steps the move is chosen in: the
        button sits under it in the card's menu and `label` says the second step.
        """
        return {
            "label": label or self.label(move),
            "fields": fields(move),
            "kind": move["kind"],
            "step": step,
        }

    def menu(self, moves, effect):
        """Return the controls of the menu of a card of `effect` for `moves` (distinct ones).

        Moves chosen from two lists at once (Forced Deal: what to take and what to
        give; Double Sly Deal: two cards) are offered in two steps, one step per card
        to take, as a table of four properties would make a list of 16 swaps. A
        Double Sly Deal's pair is under both its cards. The other moves come first.
        """
        if effect not in (FORCED_DEAL, DOUBLE_SLY_DEAL):
            return [self.control(move) for move in moves]
        plain, steps = [], {}
        for move in moves:
            if move["kind"] != "play":
                plain.append(self.control(move))
            elif effect == FORCED_DEAL:
                give, take = move["cards"]
                label = _("Give your %(give)s for it") % {"give": self.name_of(give)}
                self._add_step(steps, move, take, label)
            else:
                first, second = move["cards"]
                for card, other in ((first, second), (second, first)):
                    label = _("Also take %(card)s") % {"card": self.name_of(other)}
                    self._add_step(steps, move, card, label)
        return plain + [control for controls in steps.values() for control in controls]

    def _add_step(self, steps, move, take, label):
        name = self.names[move["targets"][0]]
        step = _("Take %(name)s's %(card)s") % {"name": name, "card": self.name_of(take)}
        controls = steps.setdefault(step, [])
        if all(control["label"] != label for control in controls):  # two of one kind and set
            controls.append(self.control(move, step, label))

    def label(self, move):
        kind = move["kind"]
        if kind == "end":
            return _("End turn")
        if kind == "bank":
            return _("Bank it (%(value)dM)") % {"value": self.cards[move["card"]]["value"]}
        if kind == "lay":
            if len(KIND_BY_ID[self.kind_of(move["card"])].colours) > 1:
                return _("Lay as %(colour)s") % {"colour": colour_name(move["colour"])}
            return _("Lay on your table")
        if kind == "move_wild":
            return _("Move to %(colour)s") % {"colour": colour_name(move["colour"])}
        if kind == "play":
            return self._play_label(move)
        if kind == "just_say_no":
            return _("Just Say No!")
        if kind == "transfer":
            return _("Rent Transfer: %(name)s pays instead") % {
                "name": self.names[move["targets"][0]]
            }
        if kind == "accept":
            return self._accept_label(move)
        return kind

    def _play_label(self, move):
        effect = KIND_BY_ID[self.kind_of(move["card"])].effect
        targets = [self.names[t] for t in move.get("targets", [])]
        chosen = move.get("cards", [])
        if effect == PASS_GO:
            return _("Play: draw 2 cards")
        if effect == BIRTHDAY:
            return _("Play: every other player pays you 2M")
        if effect == DEBT_COLLECTOR:
            return _("Collect 5M from %(name)s") % {"name": targets[0]}
        if effect == RENT:
            doubles = len(chosen)
            params = {
                "colour": colour_name(move["colour"]),
                "amount": self.rents.get(move["colour"], 0) << doubles,
            }
            if targets:
                params["name"] = targets[0]
                text = _("Charge %(name)s %(amount)dM %(colour)s rent") % params
            else:
                text = _("Charge everyone %(amount)dM %(colour)s rent") % params
            if doubles:
                text += " " + ngettext(
                    "(with %(count)d Double the Rent)",
                    "(with %(count)d Double the Rent cards)",
                    doubles,
                ) % {"count": doubles}
            return text
        if effect == SLY_DEAL:
            return _("Take %(card)s from %(name)s") % {
                "card": self.name_of(chosen[0]),
                "name": targets[0],
            }
        if effect == DOUBLE_SLY_DEAL:
            return _("Take %(card)s and %(other)s from %(name)s") % {
                "card": self.name_of(chosen[0]),
                "other": self.name_of(chosen[1]),
                "name": targets[0],
            }
        if effect == FORCED_DEAL:
            return _("Swap your %(give)s for %(name)s's %(take)s") % {
                "give": self.name_of(chosen[0]),
                "take": self.name_of(chosen[1]),
                "name": targets[0],
            }
        if effect == DEAL_BREAKER:
            _owner, colour, number = self.spots[chosen[0]]
            params = {"name": targets[0], "colour": colour_name(colour), "number": number}
            if number:
                return _("Take %(name)s's complete %(colour)s set %(number)d") % params
            return _("Take %(name)s's complete %(colour)s set") % params
        if effect in (HOUSE, HOTEL):
            _owner, colour, number = self.spots[chosen[0]]
            params = {"colour": colour_name(colour), "number": number}
            if number:
                return _("Build on your %(colour)s set %(number)d") % params
            return _("Build on your %(colour)s set") % params
        if effect == JAIL:
            return _("Send %(name)s to jail") % {"name": targets[0]}
        if effect == HEIR:
            return _("Take a random card from %(name)s's hand") % {"name": targets[0]}
        if effect == SPEEDING:
            if len(targets) == 2:
                return _("Make %(name)s and %(other)s discard a card") % {
                    "name": targets[0],
                    "other": targets[1],
                }
            return _("Make %(name)s discard a card") % {"name": targets[0]}
        return _("Play it")

    def _accept_label(self, move):
        pending = self.view["pending"]
        share = next(s for s in pending["shares"] if s["origin"] == move["share"])
        if share["just_say_nos"] % 2:
            return _("Accept the Just Say No")
        chosen = move.get("cards", [])
        effect = pending["effect"]
        if effect in MONEY_EFFECTS:
            if chosen:
                total = sum(self.cards[c]["value"] for c in chosen)
                return _("Pay everything you can (%(total)dM)") % {"total": total}
            return _("Accept (you have nothing to pay)")
        if effect == SPEEDING:
            if chosen:
                return _("Discard %(card)s") % {"card": self.name_of(chosen[0])}
            return _("Accept (your hand is empty)")
        return _("Accept")


def fields(move):
    """Return the form fields (name, value) that post `move` (its JSON, field by field)."""
    found = [("kind", move["kind"])]
    if "card" in move:
        found.append(("card", move["card"]))
    if move.get("colour"):
        found.append(("colour", move["colour"]))
    found.extend(("targets", t) for t in move.get("targets", ()))
    found.extend(("cards", c) for c in move.get("cards", ()))
    if "share" in move:
        found.append(("share", move["share"]))
    return found
