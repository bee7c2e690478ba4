"""The rules of RULES.md as functions over a GameState: legal moves and their effects.

`apply` validates a move completely before it changes anything, so a rejected
move (IllegalMove) leaves the state exactly as it was.
"""

from .cards import (
    ACTION,
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
    RENT_CARD,
    RENT_TRANSFER,
    SLY_DEAL,
    SPEEDING,
    UNBUILDABLE,
    WILD_ANY,
    rent_for,
)
from .moves import (
    ACCEPT,
    BANK,
    DISCARD as DISCARD_MOVE,
    END,
    JUST_SAY_NO as JSN_MOVE,
    LAY,
    MOVE_WILD,
    PLAY as PLAY_MOVE,
    TRANSFER,
    Choice,
    IllegalMove,
    Move,
    _,
    is_well_formed,
)
from .state import (
    ABANDONED,
    DISCARD,
    OVER,
    PLAY,
    RESPOND,
    ROUND_LIMIT,
    STALEMATE,
    WIN,
    GameState,
    Options,
    Pending,
    PropertySet,
    Rng,
    Share,
)

HAND_LIMIT = 7
PLAYS_PER_TURN = 3
STARTING_HAND = 5
ROUNDS = 200
MONEY_EFFECTS = frozenset((RENT, BIRTHDAY, DEBT_COLLECTOR))
ANY_RENT = "rent:any"


# --- creating and replaying games ---------------------------------------------------------


def new_game(players, seed, options=None, events=None):
    """Shuffle, deal and begin the first turn.

    `players` is a seat count or a list of player ids in seat order; `seed` an
    integer; `options` an Options or its JSON. Events of the deal and the
    first draw are appended to `events` when given.
    """
    seats = list(range(players)) if isinstance(players, int) else list(players)
    if not 2 <= len(seats) <= 10:
        raise ValueError("A game needs 2 to 10 players.")
    if len(set(seats)) != len(seats):
        raise ValueError("A player can take only one seat.")
    if type(seed) is not int:
        raise ValueError("The seed must be an integer.")
    if options is None:
        options = Options()
    elif isinstance(options, dict):
        options = Options.from_json(options)
    if options.built_sets and not options.enhanced:
        raise ValueError("The built sets option needs the enhanced edition.")
    state = GameState(options, seats, Rng(seed))
    state.draw = list(range(len(state.deck)))
    state.rng.shuffle(state.draw)
    for _round in range(STARTING_HAND):
        for player in state.players:
            player.hand.append(state.draw.pop())
    # Ruling: the generator picks the first player (the seed's "youngest" has no meaning here).
    state.current = state.rng.below(len(seats))
    log = events if events is not None else []
    log.append({"type": "start", "first": state.current})
    _start_turn(state, log)
    return state


def replay(players, seed, options, moves):
    """Rebuild a game from its seating, seed, options and (seat, move) list."""
    state = new_game(players, seed, options)
    for seat, move in moves:
        apply(state, seat, move)
    return state


def abandon(state, events=None):
    """End the game with no winner because its players have left."""
    log = events if events is not None else []
    if state.phase != OVER:
        _end(state, -1, ABANDONED, log)
    return log


# --- what the game waits for ---------------------------------------------------------------


def awaiting(state):
    """Return who must decide now: a list of (seat, decision, share) tuples.

    decision is "play", "discard", "answer" (an action stands against the
    player: Just Say No or comply) or "counter" (the player's action was
    cancelled: Just Say No back or accept).
    """
    if state.phase == PLAY:
        return [(state.current, "play", -1)]
    if state.phase == DISCARD:
        return [(state.current, "discard", -1)]
    if state.phase == RESPOND:
        pending = state.pending
        return [
            (pending.awaited(share), "counter" if share.jsn % 2 else "answer", origin)
            for origin, share in pending.shares.items()
        ]
    return []


def legal_moves(state, seat):
    """Return every legal move of `seat` except combinatorial choices (see `choices`)."""
    phase = state.phase
    if phase == RESPOND:
        return _response_moves(state, seat)
    if phase == PLAY and seat == state.current:
        return _turn_moves(state, seat)
    return []


def choices(state, seat):
    """Return the combinatorial decisions `seat` faces: payments and discards."""
    if state.phase == DISCARD and seat == state.current:
        hand = state.players[seat].hand
        return [Choice("discard", tuple(hand), count=len(hand) - HAND_LIMIT)]
    if state.phase != RESPOND or state.pending.effect not in MONEY_EFFECTS:
        return []
    pending = state.pending
    found = []
    for origin, share in pending.shares.items():
        if share.jsn % 2 == 0 and share.debtor == seat:
            payable = _payable(state, state.players[seat])
            if _worth(state, payable) > pending.amount:
                found.append(Choice("pay", tuple(payable), amount=pending.amount, share=origin))
    return found


def _turn_moves(state, seat):
    deck = state.deck
    player = state.players[seat]
    plays = state.plays_left
    n = len(state.seats)
    others = [t for t in range(n) if t != seat]
    moves = [Move(END)]
    if plays > 0:
        hand = player.hand
        doubles = sorted(c for c in hand if deck[c].effect == DOUBLE_RENT)
        max_doubles = min(len(doubles), plays - 1)
        my_colours = {s.colour for s in player.sets}
        for card in hand:
            kind = deck[card]
            category = kind.category
            if category == MONEY:
                moves.append(Move(BANK, card))
                continue
            if category != ACTION and category != RENT_CARD:
                for colour in kind.colours:
                    moves.append(Move(LAY, card, colour))
                continue
            moves.append(Move(BANK, card))
            effect = kind.effect
            if effect == PASS_GO or effect == BIRTHDAY:
                moves.append(Move(PLAY_MOVE, card))
            elif effect == RENT:
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
            elif effect == DEBT_COLLECTOR or effect == JAIL or effect == HEIR:
                for t in others:
                    moves.append(Move(PLAY_MOVE, card, "", (t,)))
            elif effect == SLY_DEAL:
                for t in others:
                    for take in _loose(state, t):
                        moves.append(Move(PLAY_MOVE, card, "", (t,), (take,)))
            elif effect == FORCED_DEAL:
                mine = _loose(state, seat)
                if mine:
                    for t in others:
                        theirs = _loose(state, t)
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
                    theirs = _loose(state, t)
                    for i, a in enumerate(theirs):
                        for b in theirs[i + 1 :]:
                            moves.append(Move(PLAY_MOVE, card, "", (t,), (a, b)))
            elif effect == HOUSE or effect == HOTEL:
                for s in player.sets:
                    if _can_build(s, effect):
                        moves.append(Move(PLAY_MOVE, card, "", (), (s.cards[0],)))
            elif effect == SPEEDING:
                for i, t in enumerate(others):
                    moves.append(Move(PLAY_MOVE, card, "", (t,)))
                    for u in others[i + 1 :]:
                        moves.append(Move(PLAY_MOVE, card, "", (t, u)))
    if plays > 0 or not state.options.wild_moves_cost_a_play:
        for s in player.sets:
            for card in s.cards:
                kind = deck[card]
                if len(kind.colours) > 1:
                    for colour in kind.colours:
                        if colour != s.colour:
                            moves.append(Move(MOVE_WILD, card, colour))
    return moves


def _response_moves(state, seat):
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
            if effect == RENT and share.transferred_by < 0 and _holds(state, seat, RENT_TRANSFER):
                for t in range(len(state.seats)):
                    if t != seat and t != pending.actor:
                        moves.append(Move(TRANSFER, targets=(t,), share=origin))
            payable = _payable(state, player)
            if _worth(state, payable) <= pending.amount:
                moves.append(Move(ACCEPT, cards=tuple(payable), share=origin))
        elif effect == SPEEDING and player.hand:
            for card in player.hand:
                moves.append(Move(ACCEPT, cards=(card,), share=origin))
        else:
            moves.append(Move(ACCEPT, share=origin))
    return moves


# --- applying a move -----------------------------------------------------------------------


def apply(state, seat, move):
    """Apply `seat`'s `move` to `state` in place and return (state, events).

    Raise IllegalMove, changing nothing, if the rules do not allow it.
    """
    if state.phase == OVER:
        raise IllegalMove(_("The game is over."))
    if not is_well_formed(move):
        raise IllegalMove(_("That is not a move."))
    if type(seat) is not int or not 0 <= seat < len(state.seats):
        raise IllegalMove(_("There is no such seat."))
    events = []
    _HANDLERS[move.kind](state, seat, move, events)
    return state, events


def _require_turn(state, seat):
    if state.phase == RESPOND:
        raise IllegalMove(_("The game is waiting for answers to an action."))
    if seat != state.current:
        raise IllegalMove(_("It is not your turn."))
    if state.phase == DISCARD:
        raise IllegalMove(_("Put your cards over 7 on the bottom of the draw pile first."))


def _require_plays(state, count):
    if state.plays_left < count:
        if state.plays_left == 0:
            raise IllegalMove(_("You have no plays left this turn."))
        raise IllegalMove(_("You have only %(plays)d plays left this turn."), plays=state.plays_left)


def _require_in_hand(state, seat, card):
    if card not in state.players[seat].hand:
        raise IllegalMove(_("You do not hold that card."))
    return state.deck[card]


def _no_extras(move, colour=True, targets=True, cards=True):
    if (colour and move.colour) or (targets and move.targets) or (cards and move.cards) or move.share != -1:
        raise IllegalMove(_("That move has choices that do not belong to it."))


def _end_turn(state, seat, move, events):
    _require_turn(state, seat)
    if move.card != -1:
        raise IllegalMove(_("That move has choices that do not belong to it."))
    _no_extras(move)
    events.append({"type": "end_turn", "seat": seat})
    over = len(state.players[seat].hand) - HAND_LIMIT
    if over > 0:
        state.phase = DISCARD
        events.append({"type": "must_discard", "seat": seat, "count": over})
    else:
        _next_turn(state, events)


def _discard(state, seat, move, events):
    if state.phase != DISCARD or seat != state.current:
        raise IllegalMove(_("You have no cards to discard now."))
    _no_extras(move, cards=False)
    if move.card != -1:
        raise IllegalMove(_("That move has choices that do not belong to it."))
    hand = state.players[seat].hand
    count = len(hand) - HAND_LIMIT
    cards = move.cards
    if len(cards) != count:
        raise IllegalMove(_("Choose exactly %(count)d cards to put on the bottom of the draw pile."), count=count)
    if len(set(cards)) != len(cards) or any(c not in hand for c in cards):
        raise IllegalMove(_("You can only discard cards from your hand."))
    for card in cards:
        hand.remove(card)
    # Seed rule: cards over 7 go to the bottom of the draw pile, not the discard pile.
    state.draw[0:0] = reversed(cards)
    events.append({"type": "discard", "seat": seat, "count": count, "secret": {"cards": list(cards)}, "secret_to": [seat]})
    _next_turn(state, events)


def _bank(state, seat, move, events):
    _require_turn(state, seat)
    _no_extras(move)
    kind = _require_in_hand(state, seat, move.card)
    if kind.is_property:
        raise IllegalMove(_("Property cards can never be banked."))
    _require_plays(state, 1)
    player = state.players[seat]
    player.hand.remove(move.card)
    player.bank.append(move.card)
    state.plays_left -= 1
    state.active = True
    events.append({"type": "bank", "seat": seat, "card": move.card})


def _lay(state, seat, move, events):
    _require_turn(state, seat)
    _no_extras(move, colour=False)
    kind = _require_in_hand(state, seat, move.card)
    if not kind.is_property:
        raise IllegalMove(_("Only property cards can be laid on the table."))
    if move.colour not in kind.colours:
        raise IllegalMove(_("That card cannot stand for that colour."))
    _require_plays(state, 1)
    player = state.players[seat]
    player.hand.remove(move.card)
    _add_property(player, move.card, move.colour)
    state.plays_left -= 1
    state.active = True
    events.append({"type": "lay", "seat": seat, "card": move.card, "colour": move.colour})
    _check_win(state, (seat,), events)


def _move_wild(state, seat, move, events):
    _require_turn(state, seat)
    _no_extras(move, colour=False)
    player = state.players[seat]
    old = _set_of(player, move.card)
    if old is None:
        raise IllegalMove(_("That card is not on your table."))
    kind = state.deck[move.card]
    if len(kind.colours) < 2:
        raise IllegalMove(_("Only wild cards can be moved to another colour."))
    if move.colour not in kind.colours:
        raise IllegalMove(_("That card cannot stand for that colour."))
    if move.colour == old.colour:
        raise IllegalMove(_("That wild already stands for that colour."))
    costs = state.options.wild_moves_cost_a_play
    if costs:
        _require_plays(state, 1)
    colour = old.colour
    old.cards.remove(move.card)
    _tidy(state, seat, (colour,), events)
    _add_property(player, move.card, move.colour)
    if costs:
        state.plays_left -= 1
    events.append({"type": "move_wild", "seat": seat, "card": move.card, "colour": move.colour, "from": colour})
    _check_win(state, (seat,), events)


def _play(state, seat, move, events):
    _require_turn(state, seat)
    if move.share != -1:
        raise IllegalMove(_("That move has choices that do not belong to it."))
    kind = _require_in_hand(state, seat, move.card)
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
    event = {"type": "play", "seat": pending.actor, "card": pending.card, "effect": pending.effect, "targets": list(targets)}
    event.update(details)
    events.append(event)


def _play_pass_go(state, seat, move, kind, events):
    _no_extras(move)
    _require_plays(state, 1)
    _spend(state, seat, move.card)
    events.append({"type": "play", "seat": seat, "card": move.card, "effect": PASS_GO, "targets": []})
    _draw(state, seat, 2, events)


def _play_birthday(state, seat, move, kind, events):
    _no_extras(move)
    _require_plays(state, 1)
    _spend(state, seat, move.card)
    _begin(state, Pending(BIRTHDAY, seat, move.card, amount=2), _others_in_order(state, seat), events, amount=2)


def _play_debt_collector(state, seat, move, kind, events):
    _no_extras(move, targets=False)
    target = _one_target(state, seat, move)
    _require_plays(state, 1)
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
            raise IllegalMove(_("Only Double the Rent cards from your hand can go with a rent card."))
    if kind.id == ANY_RENT:
        targets = (_one_target(state, seat, move),)
    elif move.targets:
        raise IllegalMove(_("This rent card charges every other player."))
    else:
        targets = _others_in_order(state, seat)
    _require_plays(state, 1 + len(doubles))
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
    _no_extras(move, targets=False, cards=False)
    if len(move.cards) != 1:
        raise IllegalMove(_("Choose one property to take."))
    target = _loose_card_owner(state, seat, move, move.cards[0], kind)
    _require_plays(state, 1)
    _spend(state, seat, move.card)
    _begin(state, Pending(SLY_DEAL, seat, move.card, cards=move.cards), (target,), events, cards=list(move.cards))


def _play_double_sly_deal(state, seat, move, kind, events):
    _no_extras(move, targets=False, cards=False)
    if len(move.cards) != 2 or move.cards[0] == move.cards[1]:
        raise IllegalMove(_("Choose two properties to take."))
    target = _loose_card_owner(state, seat, move, move.cards[0], kind)
    if _loose_card_owner(state, seat, move, move.cards[1], kind) != target:
        raise IllegalMove(_("Both properties must belong to the same player."))
    _require_plays(state, 1)
    _spend(state, seat, move.card)
    _begin(state, Pending(DOUBLE_SLY_DEAL, seat, move.card, cards=move.cards), (target,), events, cards=list(move.cards))


def _play_forced_deal(state, seat, move, kind, events):
    _no_extras(move, targets=False, cards=False)
    if len(move.cards) != 2:
        raise IllegalMove(_("Choose one of your properties to give and one to take."))
    give, take = move.cards
    own = _set_of(state.players[seat], give)
    if own is None:
        raise IllegalMove(_("The property you give must be on your table."))
    if len(own.cards) == FULL_SET[own.colour]:
        raise IllegalMove(_("Forced Deal cannot give away a card from a complete set."))
    target = _loose_card_owner(state, seat, move, take, kind)
    _require_plays(state, 1)
    _spend(state, seat, move.card)
    _begin(state, Pending(FORCED_DEAL, seat, move.card, cards=move.cards), (target,), events, cards=[give, take])


def _play_deal_breaker(state, seat, move, kind, events):
    _no_extras(move, targets=False, cards=False)
    if len(move.cards) != 1:
        raise IllegalMove(_("Choose one complete set to take."))
    target, found = _table_card_owner(state, move.cards[0])
    if target < 0 or target == seat:
        raise IllegalMove(_("Choose a set on another player's table."))
    if move.targets != (target,):
        raise IllegalMove(_("That set belongs to another player."))
    if len(found.cards) != FULL_SET[found.colour]:
        raise IllegalMove(_("Deal Breaker only takes a complete set."))
    _require_plays(state, 1)
    _spend(state, seat, move.card)
    _begin(state, Pending(DEAL_BREAKER, seat, move.card, cards=move.cards), (target,), events, cards=list(found.cards), colour=found.colour)


def _play_building(state, seat, move, kind, events):
    _no_extras(move, cards=False)
    if len(move.cards) != 1:
        raise IllegalMove(_("Choose the set to build on."))
    found = _set_of(state.players[seat], move.cards[0])
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
    _require_plays(state, 1)
    state.players[seat].hand.remove(move.card)
    state.plays_left -= 1
    state.active = True
    if kind.effect == HOUSE:
        found.house = move.card
    else:
        found.hotel = move.card
    events.append({"type": "build", "seat": seat, "card": move.card, "effect": kind.effect, "colour": found.colour})
    _check_win(state, (seat,), events)


def _play_jail(state, seat, move, kind, events):
    _no_extras(move, targets=False)
    target = _one_target(state, seat, move)
    _require_plays(state, 1)
    _spend(state, seat, move.card)
    _begin(state, Pending(JAIL, seat, move.card), (target,), events)


def _play_heir(state, seat, move, kind, events):
    _no_extras(move, targets=False)
    target = _one_target(state, seat, move)
    _require_plays(state, 1)
    _spend(state, seat, move.card)
    _begin(state, Pending(HEIR, seat, move.card), (target,), events)


def _play_speeding(state, seat, move, kind, events):
    _no_extras(move, targets=False)
    targets = move.targets
    if not 1 <= len(targets) <= 2 or len(set(targets)) != len(targets):
        raise IllegalMove(_("Choose one or two other players."))
    n = len(state.seats)
    if any(t == seat or not 0 <= t < n for t in targets):
        raise IllegalMove(_("Choose other players."))
    _require_plays(state, 1)
    _spend(state, seat, move.card)
    _begin(state, Pending(SPEEDING, seat, move.card), targets, events)


def _loose_card_owner(state, seat, move, card, kind):
    """Return the seat owning `card`, a property it may take: on another table, not in a complete set."""
    owner, found = _table_card_owner(state, card)
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


def _just_say_no(state, seat, move, events):
    share = _awaited_share(state, seat, move)
    if move.targets or move.cards:
        raise IllegalMove(_("That move has choices that do not belong to it."))
    card = _first_held(state, seat, JUST_SAY_NO)
    if card < 0:
        raise IllegalMove(_("You hold no Just Say No."))
    state.players[seat].hand.remove(card)
    state.discard.append(card)
    state.active = True
    share.jsn += 1
    events.append({"type": "just_say_no", "seat": seat, "card": card, "share": share.origin, "count": share.jsn})


def _transfer(state, seat, move, events):
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
    card = _first_held(state, seat, RENT_TRANSFER)
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


def _accept(state, seat, move, events):
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
        _check_payment(state, share.debtor, pending.amount, move.cards)
        _pay(state, share.debtor, pending.actor, move.cards, pending.amount, events)
        _check_win(state, (pending.actor,), events)
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
    _check_win(state, (pending.actor,), events)


def _resolve_forced_deal(state, pending, target, events):
    give, take = pending.cards
    _take_properties(state, target, pending.actor, (take,), events)
    _take_properties(state, pending.actor, target, (give,), events)
    # Ruling: if the swap completes the goal for both players, the player who played it wins.
    _check_win(state, (pending.actor, target), events)


def _resolve_deal_breaker(state, pending, target, events):
    victim = state.players[target]
    found = _set_of(victim, pending.cards[0])
    victim.sets.remove(found)
    # A complete set arrives whole, buildings and all, and merges with nothing.
    state.players[pending.actor].sets.append(found)
    cards = list(found.cards) + [b for b in (found.house, found.hotel) if b >= 0]
    events.append({"type": "take", "seat": pending.actor, "from": target, "cards": cards, "colour": found.colour})
    _check_win(state, (pending.actor,), events)


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
        {"type": "heir", "seat": pending.actor, "from": target, "count": 1, "secret": {"card": card}, "secret_to": [pending.actor, target]}
    )


def _take_properties(state, source, receiver, cards, events):
    """Move properties between tables; each keeps the colour it showed."""
    giver = state.players[source]
    moved = []
    for card in cards:
        found = _set_of(giver, card)
        found.cards.remove(card)
        moved.append((card, found.colour))
    _tidy(state, source, {colour for _card, colour in moved}, events)
    taker = state.players[receiver]
    for card, colour in moved:
        _add_property(taker, card, colour)
    events.append({"type": "take", "seat": receiver, "from": source, "cards": list(cards)})


# --- paying --------------------------------------------------------------------------------


def _payable(state, player):
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


def _worth(state, cards):
    deck = state.deck
    return sum(deck[c].value for c in cards)


def check_payment(state, debtor, amount, cards):
    """Raise IllegalMove unless `cards` is a payment of `amount` that RULES.md section 4 allows."""
    _check_payment(state, debtor, amount, tuple(cards))


def _check_payment(state, debtor, amount, cards):
    player = state.players[debtor]
    deck = state.deck
    payable = _payable(state, player)
    if len(set(cards)) != len(cards):
        raise IllegalMove(_("Each card can be paid only once."))
    allowed = set(payable)
    for card in cards:
        if card not in allowed:
            if 0 <= card < len(deck) and deck[card].category == WILD_ANY and _set_of(player, card) is not None:
                raise IllegalMove(_("A multicolour wild has no money value and cannot pay a debt."))
            raise IllegalMove(_("You can only pay with cards from your bank and your table."))
    total = _worth(state, payable)
    if total <= amount:
        if len(cards) != len(payable):
            raise IllegalMove(
                _("You cannot cover %(amount)dM, so you pay with everything you can: %(total)dM."), amount=amount, total=total
            )
    else:
        paid = _worth(state, cards)
        if paid < amount:
            raise IllegalMove(_("That is %(paid)dM; you owe %(amount)dM."), paid=paid, amount=amount)
        # Ruling: no card that could be left out while still covering the amount.
        if paid - min(deck[c].value for c in cards) >= amount:
            raise IllegalMove(_("You could leave a card out and still pay %(amount)dM: choose only the cards you need."), amount=amount)
    chosen = set(cards)
    for s in player.sets:
        if s.hotel >= 0 and s.house in chosen and s.hotel not in chosen:
            raise IllegalMove(_("A Hotel must be paid before the House of the same set."))


def _pay(state, debtor, receiver, cards, amount, events):
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
    events.append({"type": "pay", "seat": debtor, "to": receiver, "cards": list(cards), "amount": amount, "paid": _worth(state, cards)})
    _tidy(state, debtor, broken, events)
    for card, colour in properties:
        _add_property(payee, card, colour)


def least_overpay(state, debtor, amount):
    """Return the payment of RULES.md section 11: the valid selection that overpays least.

    Ties go to the selection with fewer table cards (bank before properties),
    then fewer cards.
    """
    player = state.players[debtor]
    deck = state.deck
    payable = _payable(state, player)
    if _worth(state, payable) <= amount:
        return tuple(payable)
    # Each item is a list of alternatives (cards, value, table cards); a House and the
    # Hotel above it form one item, since the Hotel must be paid before the House.
    items = [[((c,), deck[c].value, 0)] for c in player.bank]
    for s in player.sets:
        for c in s.cards:
            if deck[c].category != WILD_ANY:
                items.append([((c,), deck[c].value, 1)])
        if s.hotel >= 0:
            hotel = deck[s.hotel].value
            items.append([((s.hotel,), hotel, 1), ((s.hotel, s.house), hotel + deck[s.house].value, 2)])
        elif s.house >= 0:
            items.append([((s.house,), deck[s.house].value, 1)])
    cap = amount + max(alt[1] for item in items for alt in item)
    best = {0: (0, 0, ())}
    for item in items:
        grown = dict(best)
        for total, (table, count, chosen) in best.items():
            if total >= amount:
                continue
            for cards, value, on_table in item:
                reached = total + value
                if reached > cap:
                    continue
                candidate = (table + on_table, count + len(cards), chosen + cards)
                known = grown.get(reached)
                if known is None or candidate[:2] < known[:2]:
                    grown[reached] = candidate
        best = grown
    return best[min(t for t in best if t >= amount)][2]


# --- the table -----------------------------------------------------------------------------


def _add_property(player, card, colour):
    """Join the owner's incomplete set of `colour`, or start a new set."""
    full = FULL_SET[colour]
    for s in player.sets:
        if s.colour == colour and len(s.cards) < full:
            s.cards.append(card)
            return
    player.sets.append(PropertySet(colour, [card]))


def _tidy(state, seat, colours, events):
    """Restore the table's invariants after cards left sets of `colours`.

    Ruling: a set that stops being complete sends its buildings to its owner's
    bank; empty sets vanish; two incomplete sets of one colour merge.
    """
    player = state.players[seat]
    for colour in colours:
        full = FULL_SET[colour]
        incomplete = []
        for s in list(player.sets):
            if s.colour != colour or len(s.cards) >= full:
                continue
            buildings = [b for b in (s.hotel, s.house) if b >= 0]
            if buildings:
                s.house = s.hotel = -1
                player.bank.extend(buildings)
                events.append({"type": "buildings_to_bank", "seat": seat, "cards": buildings, "colour": colour})
            if not s.cards:
                player.sets.remove(s)
            else:
                incomplete.append(s)
        if len(incomplete) > 1:
            pool = [card for s in incomplete for card in s.cards]
            for s in incomplete[1:]:
                player.sets.remove(s)
            incomplete[0].cards = pool[:full]
            if len(pool) > full:
                player.sets.append(PropertySet(colour, pool[full:]))


def _set_of(player, card):
    for s in player.sets:
        if card in s.cards:
            return s
    return None


def _table_card_owner(state, card):
    for seat, player in enumerate(state.players):
        found = _set_of(player, card)
        if found is not None:
            return seat, found
    return -1, None


def _loose(state, seat):
    """Return the properties of `seat` not part of a complete set."""
    return [c for s in state.players[seat].sets if len(s.cards) < FULL_SET[s.colour] for c in s.cards]


def _can_build(s, effect):
    if len(s.cards) != FULL_SET[s.colour] or s.colour in UNBUILDABLE:
        return False
    if effect == HOUSE:
        return s.house < 0
    return s.house >= 0 and s.hotel < 0


def _holds(state, seat, effect):
    return _first_held(state, seat, effect) >= 0


def _first_held(state, seat, effect):
    deck = state.deck
    for card in state.players[seat].hand:
        if deck[card].effect == effect:
            return card
    return -1


def _others_in_order(state, seat):
    n = len(state.seats)
    return tuple((seat + i) % n for i in range(1, n))


def complete_colours(state, seat):
    """Return the colours in which `seat` holds a complete set that counts towards winning."""
    built = state.options.built_sets
    return {
        s.colour
        for s in state.players[seat].sets
        if len(s.cards) == FULL_SET[s.colour] and (not built or s.house >= 0)
    }


def sets_to_win(state):
    return 4 if state.options.enhanced else 3


def _check_win(state, seats, events):
    need = sets_to_win(state)
    for seat in seats:
        if len(complete_colours(state, seat)) >= need:
            _end(state, seat, WIN, events)
            return True
    return False


def _end(state, winner, reason, events):
    state.phase = OVER
    state.pending = None
    state.winner = winner
    state.end_reason = reason
    events.append({"type": "game_over", "winner": winner, "reason": reason})


# --- turns ---------------------------------------------------------------------------------


def _draw(state, seat, count, events):
    hand = state.players[seat].hand
    drawn = []
    for _i in range(count):
        if not state.draw:
            if not state.discard:
                break  # both piles are empty: draw what there is
            state.draw = state.discard
            state.discard = []
            state.rng.shuffle(state.draw)
            events.append({"type": "reshuffle", "count": len(state.draw)})
        drawn.append(state.draw.pop())
    hand.extend(drawn)
    if drawn:
        state.active = True
    events.append({"type": "draw", "seat": seat, "count": len(drawn), "secret": {"cards": drawn}, "secret_to": [seat]})


def _next_turn(state, events):
    n = len(state.seats)
    state.quiet = 0 if state.active else state.quiet + 1
    # Ruling (stalemate): a full round with no card drawn and no card played ends the game.
    if state.quiet >= n:
        _end(state, -1, STALEMATE, events)
        return
    state.current = (state.current + 1) % n
    _start_turn(state, events)


def _start_turn(state, events):
    n = len(state.seats)
    while True:
        # Ruling (round limit): after 200 turns each, the game ends with no winner.
        if state.turns >= ROUNDS * n:
            _end(state, -1, ROUND_LIMIT, events)
            return
        state.turns += 1
        seat = state.current
        player = state.players[seat]
        if player.jailed:
            player.jailed -= 1
            events.append({"type": "skip", "seat": seat})
            state.quiet += 1
            if state.quiet >= n:
                _end(state, -1, STALEMATE, events)
                return
            state.current = (seat + 1) % n
            continue
        state.active = False
        state.phase = PLAY
        state.plays_left = PLAYS_PER_TURN
        events.append({"type": "turn", "seat": seat, "turn": state.turns})
        _draw(state, seat, 2 if player.hand else STARTING_HAND, events)
        return


# --- defaults ------------------------------------------------------------------------------


def default_move(state, seat):
    """Return the move of RULES.md section 11 for `seat`, or None if nothing waits for it."""
    phase = state.phase
    if phase == PLAY:
        return Move(END) if seat == state.current else None
    if phase == DISCARD:
        if seat != state.current:
            return None
        hand = state.players[seat].hand
        deck = state.deck
        lowest = sorted(hand, key=lambda c: (deck[c].value, c))[: len(hand) - HAND_LIMIT]
        return Move.discard(lowest)
    if phase != RESPOND:
        return None
    pending = state.pending
    for origin, share in pending.shares.items():
        if pending.awaited(share) != seat:
            continue
        if share.jsn % 2:
            return Move.accept(origin)
        if pending.effect in MONEY_EFFECTS:
            return Move.accept(origin, least_overpay(state, seat, pending.amount))
        hand = state.players[seat].hand
        if pending.effect == SPEEDING and hand:
            deck = state.deck
            return Move.accept(origin, (min(hand, key=lambda c: (deck[c].value, c)),))
        return Move.accept(origin)
    return None


def outcome(state):
    """Return None while the game runs, else {"winner": seat or None, "reason": ...}."""
    if state.phase != OVER:
        return None
    return {"winner": state.winner if state.winner >= 0 else None, "reason": state.end_reason}


_HANDLERS = {
    END: _end_turn,
    DISCARD_MOVE: _discard,
    BANK: _bank,
    LAY: _lay,
    MOVE_WILD: _move_wild,
    PLAY_MOVE: _play,
    JSN_MOVE: _just_say_no,
    TRANSFER: _transfer,
    ACCEPT: _accept,
}

_EFFECTS = {
    PASS_GO: _play_pass_go,
    BIRTHDAY: _play_birthday,
    DEBT_COLLECTOR: _play_debt_collector,
    RENT: _play_rent,
    SLY_DEAL: _play_sly_deal,
    DOUBLE_SLY_DEAL: _play_double_sly_deal,
    FORCED_DEAL: _play_forced_deal,
    DEAL_BREAKER: _play_deal_breaker,
    HOUSE: _play_building,
    HOTEL: _play_building,
    JAIL: _play_jail,
    HEIR: _play_heir,
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
