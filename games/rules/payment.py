"""Paying debts (docs/rules.md section 4) and the least-overpaying default payment."""

from .cards import FULL_SET, WILD_ANY
from .moves import (
    IllegalMove,
    _,
)
from .table import add_property, set_of, tidy_sets

# --- paying --------------------------------------------------------------------------------


def payable_cards(state, player):
    """Return what a debtor can pay with: bank, then table properties and buildings."""
    deck = state.deck
    cards = list(player.bank)
    for s in player.sets:
        for card in s.cards:
            if deck[card].category != WILD_ANY:
                cards.append(card)
        if s.house >= 0:
            cards.append(s.house)
        if s.hotel >= 0:
            cards.append(s.hotel)
    return cards


def worth(state, cards):
    deck = state.deck
    return sum(deck[c].value for c in cards)


def check_payment(state, debtor, amount, cards):
    """Raise IllegalMove unless `cards` is a payment of `amount` that docs/rules.md section 4
    allows."""
    _check_payment(state, debtor, amount, tuple(cards))


def _check_payment(state, debtor, amount, cards):
    player = state.players[debtor]
    deck = state.deck
    payable = payable_cards(state, player)
    if len(set(cards)) != len(cards):
        raise IllegalMove(_("Each card can be paid only once."))
    allowed = set(payable)
    for card in cards:
        if card not in allowed:
            if (
                0 <= card < len(deck)
                and deck[card].category == WILD_ANY
                and set_of(player, card) is not None
            ):
                raise IllegalMove(_("A multicolour wild has no money value and cannot pay a debt."))
            raise IllegalMove(_("You can only pay with cards from your bank and your table."))
    total = worth(state, payable)
    if total <= amount:
        if len(cards) != len(payable):
            raise IllegalMove(
                _("You cannot cover %(amount)dM, so you pay with everything you can: %(total)dM."),
                amount=amount,
                total=total,
            )
    else:
        paid = worth(state, cards)
        if paid < amount:
            raise IllegalMove(
                _("That is %(paid)dM; you owe %(amount)dM."), paid=paid, amount=amount
            )
        # Ruling: no card that could be left out while still covering the amount.
        if paid - min(deck[c].value for c in cards) >= amount:
            raise IllegalMove(
                _(
                    "You could leave a card out and still pay %(amount)dM: choose only the cards you need."
                ),
                amount=amount,
            )
    chosen = set(cards)
    for s in player.sets:
        if s.hotel >= 0 and s.house in chosen and s.hotel not in chosen:
            raise IllegalMove(_("A Hotel must be paid before the House of the same set."))


def pay(state, debtor, receiver, cards, amount, events):
    payer = state.players[debtor]
    payee = state.players[receiver]
    properties = []
    broken = set()
    for card in cards:
        if card in payer.bank:
            payer.bank.remove(card)
            payee.bank.append(card)
            continue
        for s in payer.sets:
            if s.house == card:
                s.house = -1
                payee.bank.append(card)  # Ruling: buildings paid arrive as money.
                break
            if s.hotel == card:
                s.hotel = -1
                payee.bank.append(card)
                break
            if card in s.cards:
                s.cards.remove(card)
                properties.append((card, s.colour))
                broken.add(s.colour)
                break
    events.append(
        {
            "type": "pay",
            "seat": debtor,
            "to": receiver,
            "cards": list(cards),
            "amount": amount,
            "paid": worth(state, cards),
        }
    )
    tidy_sets(state, debtor, broken, events)
    for card, colour in properties:
        add_property(payee, card, colour)


def least_overpay(state, debtor, amount):
    """Return the payment of docs/rules.md section 11: the valid selection that overpays least.

    Among selections that overpay equally: fewer table cards (bank cards first),
    then fewer properties (a House or Hotel taken off a set leaves it complete),
    then fewer properties from complete sets, then fewer cards.
    """
    player = state.players[debtor]
    deck = state.deck
    payable = payable_cards(state, player)
    if worth(state, payable) <= amount:
        return tuple(payable)
    # Each item is a list of alternatives (cards, value, (table cards, properties, properties
    # of complete sets)); a House and the Hotel above it form one item, since the Hotel must
    # be paid before the House.
    items = [[((c,), deck[c].value, (0, 0, 0))] for c in player.bank]
    for s in player.sets:
        whole = int(len(s.cards) >= FULL_SET[s.colour])
        for c in s.cards:
            if deck[c].category != WILD_ANY:
                items.append([((c,), deck[c].value, (1, 1, whole))])
        if s.hotel >= 0:
            hotel = deck[s.hotel].value
            items.append(
                [
                    ((s.hotel,), hotel, (1, 0, 0)),
                    ((s.hotel, s.house), hotel + deck[s.house].value, (2, 0, 0)),
                ]
            )
        elif s.house >= 0:
            items.append([((s.house,), deck[s.house].value, (1, 0, 0))])
    cap = amount + max(alt[1] for item in items for alt in item)
    # best[total] = (table cards, properties, of complete sets, cards, chosen): the costs add up
    # item by item and compare in that order, so the cheapest way to each total is kept.
    best = {0: (0, 0, 0, 0, ())}
    for item in items:
        grown = dict(best)
        for total, (table, properties, whole, count, chosen) in best.items():
            if total >= amount:
                continue
            for cards, value, (on_table, props, from_whole) in item:
                reached = total + value
                if reached > cap:
                    continue
                candidate = (table + on_table, properties + props, whole + from_whole)
                candidate += (count + len(cards),)
                known = grown.get(reached)
                if known is None or candidate < known[:4]:
                    grown[reached] = (*candidate, chosen + cards)
        best = grown
    return best[min(t for t in best if t >= amount)][4]


def money_first(state, debtor, amount):
    """Return the "money first" payment: keep complete sets whole, then properties, if possible.

    Among the valid selections, the first found by these preferences wins: fewest
    cards taken from complete sets (a building leaves its set complete), then fewest
    table cards (money and banked actions first), then the least overpay, then the
    fewest cards. Such a selection never holds a card that could be left out.
    """
    player = state.players[debtor]
    deck = state.deck
    payable = payable_cards(state, player)
    if worth(state, payable) <= amount:
        return tuple(payable)
    # Each item is a list of alternatives (cards, value, (from complete sets, table cards)).
    items = [[((c,), deck[c].value, (0, 0))] for c in player.bank]
    for s in player.sets:
        whole = int(len(s.cards) >= FULL_SET[s.colour])
        for c in s.cards:
            if deck[c].category != WILD_ANY:
                items.append([((c,), deck[c].value, (whole, 1))])
        if s.hotel >= 0:
            hotel = deck[s.hotel].value
            items.append(
                [
                    ((s.hotel,), hotel, (0, 1)),
                    ((s.hotel, s.house), hotel + deck[s.house].value, (0, 2)),
                ]
            )
        elif s.house >= 0:
            items.append([((s.house,), deck[s.house].value, (0, 1))])
    # best[total] = (from complete sets, table cards, cards, chosen): a 0/1 knapsack whose
    # lexicographic cost adds up item by item, so the cheapest way to each total is kept.
    best = {0: (0, 0, 0, ())}
    for item in items:
        grown = dict(best)
        for total, (whole, table, count, chosen) in best.items():
            if total >= amount:
                continue
            for cards, value, (item_whole, item_table) in item:
                reached = total + value
                candidate = (whole + item_whole, table + item_table, count + len(cards))
                known = grown.get(reached)
                if known is None or candidate < known[:3]:
                    grown[reached] = (*candidate, chosen + cards)
        best = grown
    totals = [t for t in best if t >= amount]
    found = min(totals, key=lambda t: (best[t][0], best[t][1], t, best[t][2]))
    return best[found][3]
