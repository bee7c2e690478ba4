"""The rules of docs/rules.md as functions over a GameState: legal moves and their effects.

`apply` validates a move completely before it changes anything, so a rejected
move (IllegalMove) leaves the state exactly as it was.
"""

from .actions import (
    MONEY_EFFECTS,
    action_moves,
    answer_accept,
    answer_just_say_no,
    answer_transfer,
    no_extras,
    play_action,
    require_in_hand,
    require_plays,
    require_turn,
    response_moves,
)
from .cards import (
    ACTION,
    BIRTHDAY,
    DEAL_BREAKER,
    DEBT_COLLECTOR,
    DOUBLE_SLY_DEAL,
    FORCED_DEAL,
    HEIR,
    HOTEL,
    HOUSE,
    JAIL,
    MONEY,
    PASS_GO,
    RENT,
    RENT_CARD,
    SLY_DEAL,
    SPEEDING,
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
    RESIGN,
    TRANSFER,
    Choice,
    IllegalMove,
    Move,
    _,
    is_well_formed,
)
from .payment import least_overpay, payable_cards, worth
from .state import (
    ABANDONED,
    DISCARD,
    OVER,
    PLAY,
    RESIGNED,
    RESPOND,
    ROUND_LIMIT,
    STALEMATE,
    GameState,
    Options,
    Rng,
)
from .table import add_property, check_win, draw_cards, end_game, set_of, tidy_sets

HAND_LIMIT = 7
PLAYS_PER_TURN = 3
STARTING_HAND = 5
ROUNDS = 200


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
        end_game(state, -1, ABANDONED, log)
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


def questions(state):
    """Return, by seat, what that seat is asked now and the cards it decides from.

    docs/rules.md section 11 (answers at once): a move is judged against what its
    player was asked. Two equal questions ask the same thing: a move made while one was
    shown may still be made under the other. A question holds the seat's
    decisions (turn, kind, share, and the Just Say Nos on that share) and its
    hand; its bank and table too when it decides from them (its turn, or an
    action standing against it: paying, giving). So other targets' answers to
    the same action, and payments the actor receives while it only counters,
    leave a seat's question as it was.
    """
    decisions = [[] for _ in state.players]
    for seat, decision, share in awaiting(state):
        jsn = state.pending.shares[share].jsn if share >= 0 else 0
        decisions[seat].append((state.turns, decision, share, jsn))
    found = []
    for seat, player in enumerate(state.players):
        mine = tuple(sorted(decisions[seat]))
        question = (mine, tuple(player.hand))
        if any(decision in ("play", "answer") for _turn, decision, _share, _jsn in mine):
            sets = tuple((s.colour, tuple(s.cards), s.house, s.hotel) for s in player.sets)
            question += (tuple(player.bank), sets)
        found.append(question)
    return found


def legal_moves(state, seat):
    """Return every legal move of `seat` except combinatorial choices (see `choices`)."""
    phase = state.phase
    if phase == RESPOND:
        return response_moves(state, seat)
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
            payable = payable_cards(state, state.players[seat])
            if worth(state, payable) > pending.amount:
                found.append(Choice("pay", tuple(payable), amount=pending.amount, share=origin))
    return found


def _turn_moves(state, seat):
    player = state.players[seat]
    plays = state.plays_left
    hand_moves, dependent, wild_moves = _move_tables(state.deck, len(state.seats), seat)
    moves = [_END_MOVE]
    if plays > 0:
        dynamic = None
        for card in player.hand:
            moves += hand_moves[card]
            if dependent[card]:
                if dynamic is None:
                    dynamic = [card]
                else:
                    dynamic.append(card)
        if dynamic is not None:
            action_moves(state, seat, plays, dynamic, moves)
    if plays > 0 or not state.options.wild_moves_cost_a_play:
        for s in player.sets:
            colour = s.colour
            for card in s.cards:
                wild = wild_moves[card]
                if wild is not None:
                    moves += wild[colour]
    return moves


def _move_tables(deck, n, seat):
    """Return the moves that depend only on a card and the seat, by card id, built once.

    (hand moves per card, whether a card's plays also depend on the table, and
    per wild card {colour it stands for: its moves to the other colours}, None
    for other cards.) Legal-move generation is the rollouts' hot spot.
    """
    key = (id(deck), n, seat)
    found = _MOVE_CACHE.get(key)
    if found is None:
        hand = [_fixed_hand_moves(kind, card, seat, n) for card, kind in enumerate(deck)]
        dependent = [kind.effect in _STATE_DEPENDENT for kind in deck]
        wilds = [
            {
                colour: tuple(Move(MOVE_WILD, card, c) for c in kind.colours if c != colour)
                for colour in kind.colours
            }
            if len(kind.colours) > 1 and kind.is_property
            else None
            for card, kind in enumerate(deck)
        ]
        found = _MOVE_CACHE[key] = (hand, dependent, wilds)
    return found


# Keyed by the deck's id: decks are built once per (decks, edition) and kept (cards.build_deck).
_MOVE_CACHE = {}
_END_MOVE = Move(END)
_STATE_DEPENDENT = frozenset(
    (RENT, SLY_DEAL, FORCED_DEAL, DEAL_BREAKER, DOUBLE_SLY_DEAL, HOUSE, HOTEL)
)


def _fixed_hand_moves(kind, card, seat, n):
    """Return the moves of a hand card that depend only on the card and the seat."""
    category = kind.category
    if category == MONEY:
        return (Move(BANK, card),)
    if category != ACTION and category != RENT_CARD:
        return tuple(Move(LAY, card, colour) for colour in kind.colours)
    moves = [Move(BANK, card)]
    effect = kind.effect
    others = [t for t in range(n) if t != seat]
    if effect == PASS_GO or effect == BIRTHDAY:
        moves.append(Move(PLAY_MOVE, card))
    elif effect == DEBT_COLLECTOR or effect == JAIL or effect == HEIR:
        moves.extend(Move(PLAY_MOVE, card, "", (t,)) for t in others)
    elif effect == SPEEDING:
        for i, t in enumerate(others):
            moves.append(Move(PLAY_MOVE, card, "", (t,)))
            moves.extend(Move(PLAY_MOVE, card, "", (t, u)) for u in others[i + 1 :])
    return tuple(moves)


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


def _end_turn(state, seat, move, events):
    require_turn(state, seat)
    if move.card != -1:
        raise IllegalMove(_("That move has choices that do not belong to it."))
    no_extras(move)
    events.append({"type": "end_turn", "seat": seat})
    hand = len(state.players[seat].hand)
    state.held[seat] = hand if state.plays_left > 0 and hand else -1
    over = hand - HAND_LIMIT
    if over > 0:
        state.phase = DISCARD
        events.append({"type": "must_discard", "seat": seat, "count": over})
    else:
        _next_turn(state, events)


def _discard(state, seat, move, events):
    if state.phase != DISCARD or seat != state.current:
        raise IllegalMove(_("You have no cards to discard now."))
    no_extras(move, cards=False)
    if move.card != -1:
        raise IllegalMove(_("That move has choices that do not belong to it."))
    hand = state.players[seat].hand
    count = len(hand) - HAND_LIMIT
    cards = move.cards
    if len(cards) != count:  # neither fewer nor more: "until you hold 7" (docs/rules.md 2)
        if count == 1:
            raise IllegalMove(_("Choose exactly 1 card to put on the bottom of the draw pile."))
        raise IllegalMove(
            _("Choose exactly %(count)d cards to put on the bottom of the draw pile."), count=count
        )
    if len(set(cards)) != len(cards) or any(c not in hand for c in cards):
        raise IllegalMove(_("You can only discard cards from your hand."))
    for card in cards:
        hand.remove(card)
    # Seed rule: cards over 7 go to the bottom of the draw pile, not the discard pile.
    state.draw[0:0] = reversed(cards)
    events.append(
        {
            "type": "discard",
            "seat": seat,
            "count": count,
            "secret": {"cards": list(cards)},
            "secret_to": [seat],
        }
    )
    _next_turn(state, events)


def _bank(state, seat, move, events):
    require_turn(state, seat)
    no_extras(move)
    kind = require_in_hand(state, seat, move.card)
    if kind.is_property:
        raise IllegalMove(_("Property cards can never be banked."))
    require_plays(state, 1)
    player = state.players[seat]
    player.hand.remove(move.card)
    player.bank.append(move.card)
    state.plays_left -= 1
    state.active = True
    events.append({"type": "bank", "seat": seat, "card": move.card})


def _lay(state, seat, move, events):
    require_turn(state, seat)
    no_extras(move, colour=False)
    kind = require_in_hand(state, seat, move.card)
    if not kind.is_property:
        raise IllegalMove(_("Only property cards can be laid on the table."))
    if move.colour not in kind.colours:
        raise IllegalMove(_("That card cannot stand for that colour."))
    require_plays(state, 1)
    player = state.players[seat]
    player.hand.remove(move.card)
    add_property(player, move.card, move.colour)
    state.plays_left -= 1
    state.active = True
    events.append({"type": "lay", "seat": seat, "card": move.card, "colour": move.colour})
    check_win(state, (seat,), events)


def _move_wild(state, seat, move, events):
    require_turn(state, seat)  # between plays only (docs/rules.md section 2, step 3)
    no_extras(move, colour=False)
    player = state.players[seat]
    old = set_of(player, move.card)
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
        require_plays(state, 1)
    colour = old.colour
    old.cards.remove(move.card)
    tidy_sets(state, seat, (colour,), events)
    add_property(player, move.card, move.colour)
    if costs:
        state.plays_left -= 1
    events.append(
        {
            "type": "move_wild",
            "seat": seat,
            "card": move.card,
            "colour": move.colour,
            "from": colour,
        }
    )
    check_win(state, (seat,), events)


def _resign(state, seat, move, events):
    """Ruling (resign): a player may resign at any time, on their turn or not.

    The seat stays in the game and its decisions are made by the defaults of
    section 11 (by whoever runs the game: each default is a move of its own,
    so that the log replays); when one seat is left that has not resigned, it wins.
    """
    if seat in state.resigned:
        raise IllegalMove(_("You have already resigned."))
    if move.card != -1 or move.share != -1:
        raise IllegalMove(_("That move has choices that do not belong to it."))
    no_extras(move)
    state.resigned = tuple(sorted((*state.resigned, seat)))
    events.append({"type": "resign", "seat": seat})
    left = playing(state)
    if len(left) == 1:
        end_game(state, left[0], RESIGNED, events)


def playing(state):
    """Return the seats that have not resigned."""
    return [seat for seat in range(len(state.seats)) if seat not in state.resigned]


# --- turns ---------------------------------------------------------------------------------


def _next_turn(state, events):
    n = len(state.seats)
    state.quiet = 0 if state.active else state.quiet + 1
    # Ruling (stalemate): a full round with no card drawn and no card played ends the game.
    if state.quiet >= n:
        end_game(state, -1, STALEMATE, events)
        return
    state.current = (state.current + 1) % n
    _start_turn(state, events)


def _start_turn(state, events):
    n = len(state.seats)
    while True:
        # Ruling (round limit): after 200 turns each, the game ends with no winner.
        if state.turns >= ROUNDS * n:
            end_game(state, -1, ROUND_LIMIT, events)
            return
        state.turns += 1
        seat = state.current
        player = state.players[seat]
        if player.jailed:
            player.jailed -= 1
            events.append({"type": "skip", "seat": seat})
            state.quiet += 1
            if state.quiet >= n:
                end_game(state, -1, STALEMATE, events)
                return
            state.current = (seat + 1) % n
            continue
        state.active = False
        state.phase = PLAY
        state.plays_left = PLAYS_PER_TURN
        events.append({"type": "turn", "seat": seat, "turn": state.turns})
        draw_cards(state, seat, 2 if player.hand else STARTING_HAND, events)
        return


# --- defaults ------------------------------------------------------------------------------


def default_move(state, seat):
    """Return the move of docs/rules.md section 11 for `seat`, or None if nothing waits for it."""
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


def forced_move(state, seat):
    """Return `seat`'s answer when its decision has exactly one legal answer, else None.

    A decision with one answer (accept when there is no Just Say No or Rent
    Transfer to hand, a payment that must give everything payable, the end of
    a turn with nothing left to play) is made at once rather than waited for.
    Each share `seat` answers is a decision of its own.
    """
    if state.phase == RESPOND:
        chosen = {choice.share for choice in choices(state, seat)}
        answers = {}
        for move in response_moves(state, seat):
            answers.setdefault(move.share, []).append(move)
        for share, moves in answers.items():
            if len(moves) == 1 and share not in chosen:
                return moves[0]
        return None
    if choices(state, seat):
        return None
    moves = legal_moves(state, seat)
    return moves[0] if len(moves) == 1 else None


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
    PLAY_MOVE: play_action,
    JSN_MOVE: answer_just_say_no,
    TRANSFER: answer_transfer,
    ACCEPT: answer_accept,
    RESIGN: _resign,
}
