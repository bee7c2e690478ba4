"""Simple players: the default player of docs/rules.md section 11 and a uniformly random one."""

import random

from .basic import basic_move
from .determinize import determinize
from .engine import apply, awaiting, choices, legal_moves
from .moves import Move
from .observe import view_for
from .search import strong_move
from .state import OVER


def random_payment(state, choice, rng):
    """Return a random valid selection for a "pay" choice."""
    deck = state.deck
    amount = choice.amount
    player = state.players[state.pending.shares[choice.share].debtor]
    pool = list(choice.eligible)
    rng.shuffle(pool)
    chosen = []
    paid = 0
    for card in pool:
        if paid >= amount:
            break
        chosen.append(card)
        paid += deck[card].value
    hotel_of = {}
    for s in player.sets:
        if s.hotel >= 0:
            hotel_of[s.house] = s.hotel
            # A Hotel must be paid before the House of its set.
            if s.house in chosen and s.hotel not in chosen:
                chosen.append(s.hotel)
                paid += deck[s.hotel].value
    rng.shuffle(chosen)
    changed = True
    while changed:
        changed = False
        for card in list(chosen):
            value = deck[card].value
            if paid - value < amount:
                continue
            if card in hotel_of.values() and any(
                h in chosen and hotel_of[h] == card for h in hotel_of
            ):
                continue
            chosen.remove(card)
            paid -= value
            changed = True
    return tuple(chosen)


def random_discard(state, choice, rng):
    return tuple(rng.sample(choice.eligible, choice.count))


def random_move(state, seat, rng):
    """Return a uniformly random legal move of `seat`, a choice counting as one move."""
    moves = legal_moves(state, seat)
    open_choices = choices(state, seat)
    pick = rng.randrange(len(moves) + len(open_choices))
    if pick < len(moves):
        return moves[pick]
    choice = open_choices[pick - len(moves)]
    if choice.kind == "discard":
        return Move.discard(random_discard(state, choice, rng))
    return Move.accept(choice.share, random_payment(state, choice, rng))


def play_random_game(state, rng, on_move=None):
    """Play `state` to its end with random moves; return the number of decisions made.

    When several players are awaited at once, a random one of them answers first.
    """
    decisions = 0
    while state.phase != OVER:
        waiting = awaiting(state)
        seat = waiting[rng.randrange(len(waiting))][0] if len(waiting) > 1 else waiting[0][0]
        move = random_move(state, seat, rng)
        _state, events = apply(state, seat, move)
        decisions += 1
        if on_move is not None:
            on_move(state, seat, move, events)
    return decisions


# --- computer players: one interface over what a seat may see ---------------------------------

LEVELS = ("random", "basic", "strong")


def choose(level, view, rng, budget=None):
    """Return the move of a computer player of `level` for the seat whose `view` this is.

    `view` is `observe.view_for(state, seat)`: the bot sees nothing else, so it
    cannot peek at other hands or the draw order. `rng` is a random.Random or
    an integer seed; the same view, level, budget and seed give the same move.
    `budget` is the number of decisions the strong player simulates for this
    move (search.DEFAULT_BUDGET when None); the other levels ignore it. Return
    None if the view's seat has nothing to decide.
    """
    if level not in LEVELS:
        raise ValueError(f"Unknown level {level!r}: choose one of {', '.join(LEVELS)}.")
    if not isinstance(rng, random.Random):
        rng = random.Random(rng)
    seat = view["seat"]
    if not any(a["seat"] == seat for a in view["awaiting"]):
        return None
    if level == "strong":
        return strong_move(view, rng, budget)
    state = determinize(view, rng)
    if level == "basic":
        return basic_move(state, seat)
    return random_move(state, seat, rng)


def bot_move(state, seat, level, seed, budget=None):
    """Return `level`'s move for `seat` in `state`, computed from `seat`'s view alone."""
    return choose(level, view_for(state, seat), seed, budget)
