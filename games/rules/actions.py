"""Action cards: playing them for their effect, and the answers they wait for.

Every handler validates the whole move before it changes anything.
"""

from .cards import (
    BIRTHDAY,
    DEAL_BREAKER,
    DEBT_COLLECTOR,
    DOUBLE_RENT,
    DOUBLE_SLY_DEAL,
    FORCED_DEAL,
    FULL_SET,
    HEIR,
    HOTEL,
    HOUSE,
    JAIL,
    JUST_SAY_NO,
    MONEY,
    PASS_GO,
    RENT,
    RENT_TRANSFER,
    SLY_DEAL,
    SPEEDING,
    UNBUILDABLE,
    rent_for,
)
from .moves import (
    ACCEPT,
    JUST_SAY_NO as JSN_MOVE,
    PLAY as PLAY_MOVE,
    TRANSFER,
    IllegalMove,
    Move,
    _,
)
from .payment import check_payment, pay, payable_cards, worth
from .state import (
    DISCARD,
    OVER,
    PLAY,
    RESPOND,
    Pending,
    Share,
)
from .table import (
    add_property,
    can_build,
    check_win,
    draw_cards,
    first_held,
    holds,
    loose_properties,
    others_in_order,
    set_of,
    table_card_owner,
    tidy_sets,
)

MONEY_EFFECTS = frozenset((RENT, BIRTHDAY, DEBT_COLLECTOR))
ANY_RENT = "rent:any"


def action_moves(state, seat, plays, cards, moves):
    deck = state.deck
    player = state.players[seat]
    others = [t for t in range(len(state.seats)) if t != seat]
    doubles = sorted(c for c in player.hand if deck[c].effect == DOUBLE_RENT)
    max_doubles = min(len(doubles), plays - 1)
    my_colours = {s.colour for s in player.sets}
    for card in cards:
        kind = deck[card]
        effect = kind.effect
        if effect == RENT:
            any_colour = kind.id == ANY_RENT
            for colour in kind.colours:
                if colour not in my_colours:
                    continue
                for d in range(max_doubles + 1):
                    used = tuple(doubles[:d])
                    if any_colour:
                        for t in others:
                            moves.append(Move(PLAY_MOVE, card, colour, (t,), used))
                    else:
                        moves.append(Move(PLAY_MOVE, card, colour, (), used))
        elif effect == SLY_DEAL:
            for t in others:
                for take in loose_properties(state, t):
                    moves.append(Move(PLAY_MOVE, card, "", (t,), (take,)))
        elif effect == FORCED_DEAL:
            mine = loose_properties(state, seat)
            if mine:
                for t in others:
                    theirs = loose_properties(state, t)
                    for give in mine:
                        for take in theirs:
                            moves.append(Move(PLAY_MOVE, card, "", (t,), (give, take)))
        elif effect == DEAL_BREAKER:
            for t in others:
                for s in state.players[t].sets:
                    if len(s.cards) == FULL_SET[s.colour]:
                        moves.append(Move(PLAY_MOVE, card, "", (t,), (s.cards[0],)))
        elif effect == DOUBLE_SLY_DEAL:
            for t in others:
                theirs = loose_properties(state, t)
                for i, a in enumerate(theirs):
                    for b in theirs[i + 1 :]:
                        moves.append(Move(PLAY_MOVE, card, "", (t,), (a, b)))
        else:  # House or Hotel
            for s in player.sets:
                if can_build(s, effect):
                    moves.append(Move(PLAY_MOVE, card, "", (), (s.cards[0],)))


def response_moves(state, seat):
    pending = state.pending
    deck = state.deck
    player = state.players[seat]
    moves = []
    has_jsn = None
    for origin, share in pending.shares.items():
        if pending.awaited(share) != seat:
            continue
        if has_jsn is None:
            has_jsn = any(deck[c].effect == JUST_SAY_NO for c in player.hand)
        if has_jsn:
            moves.append(Move(JSN_MOVE, share=origin))
        if share.jsn % 2:
            moves.append(Move(ACCEPT, share=origin))
            continue
        effect = pending.effect
        if effect in MONEY_EFFECTS:
            if effect == RENT and share.transferred_by < 0 and holds(state, seat, RENT_TRANSFER):
                for t in range(len(state.seats)):
                    if t != seat and t != pending.actor:
                        moves.append(Move(TRANSFER, targets=(t,), share=origin))
            payable = payable_cards(state, player)
            if worth(state, payable) <= pending.amount:
                moves.append(Move(ACCEPT, cards=tuple(payable), share=origin))
        elif effect == SPEEDING and player.hand:
            for card in player.hand:
                moves.append(Move(ACCEPT, cards=(card,), share=origin))
        else:
            moves.append(Move(ACCEPT, share=origin))
    return moves


def require_turn(state, seat):
    if state.phase == RESPOND:
        raise IllegalMove(_("The game is waiting for answers to an action."))
    if seat != state.current:
        raise IllegalMove(_("It is not your turn."))
    if state.phase == DISCARD:
        raise IllegalMove(_("Put your cards over 7 on the bottom of the draw pile first."))


def require_plays(state, count):
    if state.plays_left < count:
        if state.plays_left == 0:
            raise IllegalMove(_("You have no plays left this turn."))
        raise IllegalMove(
            _("You have only %(plays)d plays left this turn."), plays=state.plays_left
        )


def require_in_hand(state, seat, card):
    if card not in state.players[seat].hand:
        raise IllegalMove(_("You do not hold that card."))
    return state.deck[card]


def no_extras(move, colour=True, targets=True, cards=True):
    if (
        (colour and move.colour)
        or (targets and move.targets)
        or (cards and move.cards)
        or move.share != -1
    ):
        raise IllegalMove(_("That move has choices that do not belong to it."))


def play_action(state, seat, move, events):
    require_turn(state, seat)
    if move.share != -1:
        raise IllegalMove(_("That move has choices that do not belong to it."))
    kind = require_in_hand(state, seat, move.card)
    if kind.category == MONEY:
        raise IllegalMove(_("Money cards can only be banked."))
    if kind.is_property:
        raise IllegalMove(_("Lay property cards on your table."))
    effect = kind.effect
    if effect == JUST_SAY_NO or effect == RENT_TRANSFER:
        raise IllegalMove(_("%(card)s is only played in answer to an action."), card=kind.name_en)
    if effect == DOUBLE_RENT:
        raise IllegalMove(_("Double the Rent is played together with a rent card."))
    _EFFECTS[effect](state, seat, move, kind, events)


def _spend(state, seat, card, plays=1):
    """Take a played action card from the hand to the discard pile."""
    state.players[seat].hand.remove(card)
    state.discard.append(card)
    state.plays_left -= plays
    state.active = True


def _one_target(state, seat, move):
    if len(move.targets) != 1:
        raise IllegalMove(_("Choose one player."))
    target = move.targets[0]
    if target == seat or not 0 <= target < len(state.seats):
        raise IllegalMove(_("Choose another player."))
    return target


def _begin(state, pending, targets, events, **details):
    """Put a targeted action in play: every target answers, in any order."""
    pending.shares = {t: Share(t, t) for t in targets}
    state.pending = pending
    state.phase = RESPOND
    event = {
        "type": "play",
        "seat": pending.actor,
        "card": pending.card,
        "effect": pending.effect,
        "targets": list(targets),
    }
    event.update(details)
    events.append(event)


def _play_pass_go(state, seat, move, kind, events):
    no_extras(move)
    require_plays(state, 1)
    if state.options.pass_go_discards_first:  # a game begun before the ruling: its own rule
        _spend(state, seat, move.card)
        events.append(
            {"type": "play", "seat": seat, "card": move.card, "effect": PASS_GO, "targets": []}
        )
        draw_cards(state, seat, 2, events)
        return
    # Ruling (Pass Go, docs/rules.md section 7): the 2 cards are drawn before the Pass Go goes
    # to the discard pile, so that a reshuffle of an empty draw pile never draws it back.
    state.players[seat].hand.remove(move.card)
    state.plays_left -= 1
    state.active = True
    events.append(
        {"type": "play", "seat": seat, "card": move.card, "effect": PASS_GO, "targets": []}
    )
    draw_cards(state, seat, 2, events)
    state.discard.append(move.card)


def _play_birthday(state, seat, move, kind, events):
    no_extras(move)
    require_plays(state, 1)
    _spend(state, seat, move.card)
    _begin(
        state,
        Pending(BIRTHDAY, seat, move.card, amount=2),
        others_in_order(state, seat),
        events,
        amount=2,
    )


def _play_debt_collector(state, seat, move, kind, events):
    no_extras(move, targets=False)
    target = _one_target(state, seat, move)
    require_plays(state, 1)
    _spend(state, seat, move.card)
    _begin(state, Pending(DEBT_COLLECTOR, seat, move.card, amount=5), (target,), events, amount=5)


def _play_rent(state, seat, move, kind, events):
    colour = move.colour
    if colour not in kind.colours:
        raise IllegalMove(_("This rent card does not charge that colour."))
    player = state.players[seat]
    sets = [s for s in player.sets if s.colour == colour]
    if not sets:
        raise IllegalMove(_("You need a property of that colour on your table to charge its rent."))
    doubles = move.cards
    if len(set(doubles)) != len(doubles) or move.card in doubles:
        raise IllegalMove(_("Each card can be played only once."))
    for card in doubles:
        if card not in player.hand or state.deck[card].effect != DOUBLE_RENT:
            raise IllegalMove(
                _("Only Double the Rent cards from your hand can go with a rent card.")
            )
    if kind.id == ANY_RENT:
        targets = (_one_target(state, seat, move),)
    elif move.targets:
        raise IllegalMove(_("This rent card charges every other player."))
    else:
        targets = others_in_order(state, seat)
    require_plays(state, 1 + len(doubles))
    enhanced = state.options.enhanced
    rent = max(rent_for(colour, len(s.cards), s.house >= 0, s.hotel >= 0, enhanced) for s in sets)
    amount = rent << len(doubles)
    _spend(state, seat, move.card, 1 + len(doubles))
    for card in doubles:
        player.hand.remove(card)
        state.discard.append(card)
    pending = Pending(RENT, seat, move.card, colour=colour, amount=amount)
    _begin(state, pending, targets, events, colour=colour, amount=amount, doubles=list(doubles))


def _play_sly_deal(state, seat, move, kind, events):
    """Sly Deal takes one property, Double Sly Deal two, from one player's incomplete sets."""
    no_extras(move, targets=False, cards=False)
    count = 2 if kind.effect == DOUBLE_SLY_DEAL else 1
    if len(move.cards) != count or len(set(move.cards)) != count:
        if count == 1:
            raise IllegalMove(_("Choose one property to take."))
        raise IllegalMove(_("Choose two properties to take."))
    owners = {_loose_card_owner(state, seat, move, card, kind) for card in move.cards}
    if len(owners) > 1:
        raise IllegalMove(_("Both properties must belong to the same player."))
    require_plays(state, 1)
    _spend(state, seat, move.card)
    pending = Pending(kind.effect, seat, move.card, cards=move.cards)
    _begin(state, pending, tuple(owners), events, cards=list(move.cards))


def _play_forced_deal(state, seat, move, kind, events):
    no_extras(move, targets=False, cards=False)
    if len(move.cards) != 2:
        raise IllegalMove(_("Choose one of your properties to give and one to take."))
    give, take = move.cards
    own = set_of(state.players[seat], give)
    if own is None:
        raise IllegalMove(_("The property you give must be on your table."))
    if len(own.cards) == FULL_SET[own.colour]:
        raise IllegalMove(_("Forced Deal cannot give away a card from a complete set."))
    target = _loose_card_owner(state, seat, move, take, kind)
    require_plays(state, 1)
    _spend(state, seat, move.card)
    _begin(
        state,
        Pending(FORCED_DEAL, seat, move.card, cards=move.cards),
        (target,),
        events,
        cards=[give, take],
    )


def _play_deal_breaker(state, seat, move, kind, events):
    no_extras(move, targets=False, cards=False)
    if len(move.cards) != 1:
        raise IllegalMove(_("Choose one complete set to take."))
    target, found = table_card_owner(state, move.cards[0])
    if target < 0 or target == seat:
        raise IllegalMove(_("Choose a set on another player's table."))
    if move.targets != (target,):
        raise IllegalMove(_("That set belongs to another player."))
    if len(found.cards) != FULL_SET[found.colour]:
        raise IllegalMove(_("Deal Breaker only takes a complete set."))
    require_plays(state, 1)
    _spend(state, seat, move.card)
    _begin(
        state,
        Pending(DEAL_BREAKER, seat, move.card, cards=move.cards),
        (target,),
        events,
        cards=list(found.cards),
        colour=found.colour,
    )


def _play_building(state, seat, move, kind, events):
    no_extras(move, cards=False)
    if len(move.cards) != 1:
        raise IllegalMove(_("Choose the set to build on."))
    found = set_of(state.players[seat], move.cards[0])
    if found is None:
        raise IllegalMove(_("Build only on a set on your own table."))
    if len(found.cards) != FULL_SET[found.colour]:
        raise IllegalMove(_("Houses and Hotels go only on complete sets."))
    if found.colour in UNBUILDABLE:
        raise IllegalMove(_("Houses and Hotels cannot go on railroads or utilities."))
    if kind.effect == HOUSE and found.house >= 0:
        raise IllegalMove(_("That set already has a House."))
    if kind.effect == HOTEL:
        if found.house < 0:
            raise IllegalMove(_("A Hotel needs a House on the set first."))
        if found.hotel >= 0:
            raise IllegalMove(_("That set already has a Hotel."))
    require_plays(state, 1)
    state.players[seat].hand.remove(move.card)
    state.plays_left -= 1
    state.active = True
    if kind.effect == HOUSE:
        found.house = move.card
    else:
        found.hotel = move.card
    events.append(
        {
            "type": "build",
            "seat": seat,
            "card": move.card,
            "effect": kind.effect,
            "colour": found.colour,
        }
    )
    check_win(state, (seat,), events)


def _play_at_one_player(state, seat, move, kind, events):
    """Jail and Heir: aimed at one other player, with nothing else to choose."""
    no_extras(move, targets=False)
    target = _one_target(state, seat, move)
    require_plays(state, 1)
    _spend(state, seat, move.card)
    _begin(state, Pending(kind.effect, seat, move.card), (target,), events)


def _play_speeding(state, seat, move, kind, events):
    no_extras(move, targets=False)
    targets = move.targets
    if not 1 <= len(targets) <= 2 or len(set(targets)) != len(targets):
        raise IllegalMove(_("Choose one or two other players."))
    n = len(state.seats)
    if any(t == seat or not 0 <= t < n for t in targets):
        raise IllegalMove(_("Choose other players."))
    require_plays(state, 1)
    _spend(state, seat, move.card)
    _begin(state, Pending(SPEEDING, seat, move.card), targets, events)


def _loose_card_owner(state, seat, move, card, kind):
    """Return the seat owning `card`, a property it may take: on another table, not in a complete set."""
    owner, found = table_card_owner(state, card)
    if owner < 0 or owner == seat:
        raise IllegalMove(_("Choose a property on another player's table."))
    if move.targets != (owner,):
        raise IllegalMove(_("That property belongs to another player."))
    if len(found.cards) == FULL_SET[found.colour]:
        raise IllegalMove(_("%(card)s cannot take a card from a complete set."), card=kind.name_en)
    return owner


# --- answering actions ---------------------------------------------------------------------


def _awaited_share(state, seat, move):
    if state.phase != RESPOND:
        raise IllegalMove(_("Nothing is waiting for an answer."))
    if move.card != -1 or move.colour:
        raise IllegalMove(_("That move has choices that do not belong to it."))
    share = state.pending.shares.get(move.share)
    if share is None:
        raise IllegalMove(_("There is no such action waiting for an answer."))
    if state.pending.awaited(share) != seat:
        raise IllegalMove(_("It is not your turn to answer that."))
    return share


def answer_just_say_no(state, seat, move, events):
    share = _awaited_share(state, seat, move)
    if move.targets or move.cards:
        raise IllegalMove(_("That move has choices that do not belong to it."))
    card = first_held(state, seat, JUST_SAY_NO)
    if card < 0:
        raise IllegalMove(_("You hold no Just Say No."))
    state.players[seat].hand.remove(card)
    state.discard.append(card)
    state.active = True
    share.jsn += 1
    events.append(
        {
            "type": "just_say_no",
            "seat": seat,
            "card": card,
            "share": share.origin,
            "count": share.jsn,
        }
    )


def answer_transfer(state, seat, move, events):
    share = _awaited_share(state, seat, move)
    pending = state.pending
    if move.cards:
        raise IllegalMove(_("That move has choices that do not belong to it."))
    if pending.effect != RENT:
        raise IllegalMove(_("Rent Transfer only answers rent."))
    if share.jsn % 2 or share.debtor != seat:
        raise IllegalMove(_("Rent Transfer only answers a rent charged to you."))
    if share.transferred_by >= 0:
        raise IllegalMove(_("A transferred rent cannot be transferred again."))
    card = first_held(state, seat, RENT_TRANSFER)
    if card < 0:
        raise IllegalMove(_("You hold no Rent Transfer."))
    if len(move.targets) != 1:
        raise IllegalMove(_("Choose one player."))
    to = move.targets[0]
    if to == seat or to == pending.actor or not 0 <= to < len(state.seats):
        raise IllegalMove(_("Choose a player other than yourself and the collector."))
    state.players[seat].hand.remove(card)
    state.discard.append(card)
    state.active = True
    share.debtor = to
    share.transferred_by = seat
    share.jsn = 0
    events.append({"type": "transfer", "seat": seat, "card": card, "share": share.origin, "to": to})


def answer_accept(state, seat, move, events):
    share = _awaited_share(state, seat, move)
    if move.targets:
        raise IllegalMove(_("That move has choices that do not belong to it."))
    pending = state.pending
    effect = pending.effect
    if share.jsn % 2:
        if move.cards:
            raise IllegalMove(_("That move has choices that do not belong to it."))
        events.append({"type": "cancelled", "seat": seat, "share": share.origin, "effect": effect})
    elif effect in MONEY_EFFECTS:
        check_payment(state, share.debtor, pending.amount, move.cards)
        pay(state, share.debtor, pending.actor, move.cards, pending.amount, events)
        check_win(state, (pending.actor,), events)
    elif effect == SPEEDING:
        hand = state.players[seat].hand
        if hand and (len(move.cards) != 1 or move.cards[0] not in hand):
            raise IllegalMove(_("Choose one card from your hand to discard."))
        if not hand and move.cards:
            raise IllegalMove(_("Your hand is empty: there is nothing to discard."))
        if hand:
            hand.remove(move.cards[0])
            state.discard.append(move.cards[0])
        events.append({"type": "speeding_discard", "seat": seat, "cards": list(move.cards)})
    else:
        if move.cards:
            raise IllegalMove(_("That move has choices that do not belong to it."))
        _RESOLVE[effect](state, pending, share.debtor, events)
    del pending.shares[share.origin]
    if state.phase == OVER:
        return
    if not pending.shares:
        state.pending = None
        state.phase = PLAY


def _resolve_sly_deal(state, pending, target, events):
    _take_properties(state, target, pending.actor, pending.cards, events)
    check_win(state, (pending.actor,), events)


def _resolve_forced_deal(state, pending, target, events):
    give, take = pending.cards
    _take_properties(state, target, pending.actor, (take,), events)
    _take_properties(state, pending.actor, target, (give,), events)
    # Ruling: if the swap completes the goal for both players, the player who played it wins.
    check_win(state, (pending.actor, target), events)


def _resolve_deal_breaker(state, pending, target, events):
    victim = state.players[target]
    found = set_of(victim, pending.cards[0])
    victim.sets.remove(found)
    # A complete set arrives whole, buildings and all, and merges with nothing.
    state.players[pending.actor].sets.append(found)
    cards = list(found.cards) + [b for b in (found.house, found.hotel) if b >= 0]
    events.append(
        {
            "type": "take",
            "seat": pending.actor,
            "from": target,
            "cards": cards,
            "colour": found.colour,
        }
    )
    check_win(state, (pending.actor,), events)


def _resolve_jail(state, pending, target, events):
    state.players[target].jailed += 1
    events.append({"type": "jailed", "seat": target})


def _resolve_heir(state, pending, target, events):
    hand = state.players[target].hand
    if not hand:
        events.append({"type": "heir", "seat": pending.actor, "from": target, "count": 0})
        return
    card = hand.pop(state.rng.below(len(hand)))
    state.players[pending.actor].hand.append(card)
    events.append(
        {
            "type": "heir",
            "seat": pending.actor,
            "from": target,
            "count": 1,
            "secret": {"card": card},
            "secret_to": [pending.actor, target],
        }
    )


def _take_properties(state, source, receiver, cards, events):
    """Move properties between tables; each keeps the colour it showed."""
    giver = state.players[source]
    moved = []
    for card in cards:
        found = set_of(giver, card)
        found.cards.remove(card)
        moved.append((card, found.colour))
    tidy_sets(state, source, {colour for _card, colour in moved}, events)
    taker = state.players[receiver]
    for card, colour in moved:
        add_property(taker, card, colour)
    events.append({"type": "take", "seat": receiver, "from": source, "cards": list(cards)})


_EFFECTS = {
    PASS_GO: _play_pass_go,
    BIRTHDAY: _play_birthday,
    DEBT_COLLECTOR: _play_debt_collector,
    RENT: _play_rent,
    SLY_DEAL: _play_sly_deal,
    DOUBLE_SLY_DEAL: _play_sly_deal,
    FORCED_DEAL: _play_forced_deal,
    DEAL_BREAKER: _play_deal_breaker,
    HOUSE: _play_building,
    HOTEL: _play_building,
    JAIL: _play_at_one_player,
    HEIR: _play_at_one_player,
    SPEEDING: _play_speeding,
}

_RESOLVE = {
    SLY_DEAL: _resolve_sly_deal,
    DOUBLE_SLY_DEAL: _resolve_sly_deal,
    FORCED_DEAL: _resolve_forced_deal,
    DEAL_BREAKER: _resolve_deal_breaker,
    JAIL: _resolve_jail,
    HEIR: _resolve_heir,
}
