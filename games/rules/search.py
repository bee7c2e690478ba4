"""The strong computer player: flat Monte Carlo search over deals sampled from its view.

For one decision, the player lists a few candidate moves (the basic player's
best plays, every answer, a few payments), then, for each of `budget` deals
sampled by `determinize` from its view (other hands and the draw order
guessed), plays every candidate followed by basic play for all seats, and
keeps the candidate that wins most often. It never sees the real hidden
cards: its only input is the view.
"""

from .actions import MONEY_EFFECTS
from .basic import Table, basic_move, play_scores, progress
from .cards import FULL_SET
from .determinize import determinize
from .engine import HAND_LIMIT, apply, awaiting, legal_moves
from .moves import END, Move
from .payment import least_overpay
from .state import DISCARD, OVER, PLAY, RESPOND, GameState, Pending, Player, PropertySet, Rng, Share

DEFAULT_BUDGET = 6000  # decisions simulated per move
MAX_DEALS = 256  # sampled deals per move at most
BATCH = 4  # deals between two prunings of the candidates
PRUNE_AFTER = 16  # deals before the first pruning
SPREAD_FLOOR = 0.02  # the least variance assumed of a paired difference
CANDIDATES = 6  # play-phase moves searched, besides ending the turn
ROLLOUT_TURNS = 12
CONFIDENCE = 1.0  # standard errors by which a move must beat the basic move to be chosen  # turns played out before a position is judged by `evaluate`


def clone(state):
    """Return an independent copy of `state` (faster than the JSON round trip)."""
    new = GameState.__new__(GameState)
    new.options = state.options
    new.seats = state.seats
    new.deck = state.deck
    new.players = [
        Player(
            list(p.hand),
            list(p.bank),
            [PropertySet(s.colour, list(s.cards), s.house, s.hotel) for s in p.sets],
            p.jailed,
        )
        for p in state.players
    ]
    new.draw = list(state.draw)
    new.discard = list(state.discard)
    new.current = state.current
    new.plays_left = state.plays_left
    new.phase = state.phase
    pending = state.pending
    if pending is not None:
        shares = {
            o: Share(s.origin, s.debtor, s.jsn, s.transferred_by)
            for o, s in pending.shares.items()
        }
        pending = Pending(
            pending.effect,
            pending.actor,
            pending.card,
            pending.colour,
            pending.amount,
            pending.cards,
            shares,
        )
    new.pending = pending
    new.rng = Rng(state.rng.state)
    new.turns = state.turns
    new.quiet = state.quiet
    new.active = state.active
    new.winner = state.winner
    new.end_reason = state.end_reason
    return new


def _signature(state, move, colours):
    """Return what makes `move` different from others: cards by kind (and table colour)."""
    deck = state.deck
    card = deck[move.card].id if move.card >= 0 else ""
    cards = tuple((deck[c].id, colours.get(c, "")) for c in move.cards)
    return (move.kind, card, colours.get(move.card, ""), move.colour, move.targets, cards)


def candidate_moves(state, seat):
    """Return the moves worth searching for `seat`'s next decision (the basic move first)."""
    basic = basic_move(state, seat)
    if basic is None:
        return []
    phase = state.phase
    if phase == DISCARD:
        hand = state.players[seat].hand
        deck = state.deck
        lowest = sorted(hand, key=lambda c: (deck[c].value, c))[: len(hand) - HAND_LIMIT]
        found = [basic, Move.discard(lowest)]
    elif phase == PLAY:
        scored = play_scores(state, seat)
        scored.sort(key=lambda pair: -pair[0])
        found = [basic]
        found += [m for score, m in scored if m.kind != END and score > 0]
    elif phase == RESPOND:
        found = [basic]
        share = state.pending.shares[basic.share]
        for move in legal_moves(state, seat):
            if move.share == basic.share:
                found.append(move)
        if share.jsn % 2 == 0 and state.pending.effect in MONEY_EFFECTS:
            # Payments are choices, not listed moves: try the default one too.
            amount = state.pending.amount
            found.append(Move.accept(share.origin, least_overpay(state, seat, amount)))
    else:
        return [basic]
    colours = {}
    for player in state.players:
        for s in player.sets:
            for c in s.cards:
                colours[c] = s.colour
    unique = []
    seen = set()
    for move in found:
        key = _signature(state, move, colours)
        if key not in seen:
            seen.add(key)
            unique.append(move)
    if phase == PLAY:
        unique = [m for m in unique if m.kind != END][:CANDIDATES] + [Move.end()]
    return unique


def evaluate(state, seat):
    """Return `seat`'s chance of winning as judged from the tables: complete sets above all."""
    if state.phase == OVER:
        if state.winner < 0:
            return 1.0 / len(state.seats)
        return 1.0 if state.winner == seat else 0.0
    scores = []
    need = 4 if state.options.enhanced else 3
    for other in range(len(state.seats)):
        table = Table(state, other)
        score = 100.0 * min(len(table.winning), need)
        partial = sorted(
            (progress(k, FULL_SET[c]) for c, k in table.counts.items() if c not in table.complete),
            reverse=True,
        )
        score += sum(partial[: max(0, need - len(table.winning))])
        scores.append(score / 40.0)
    top = max(scores)
    weights = [2.718281828 ** (s - top) for s in scores]
    return weights[seat] / sum(weights)


def rollout(state, seat, turns=ROLLOUT_TURNS):
    """Play `state` on with the basic player at every seat for `turns` turns.

    Return `seat`'s value of the result (`evaluate`) and the number of decisions played.
    """
    stop = state.turns + turns
    steps = 0
    while state.phase != OVER and state.turns <= stop and steps < 2000:
        who = awaiting(state)[0][0]
        apply(state, who, basic_move(state, who))
        steps += 1
    return evaluate(state, seat), steps


def _play_out(deal, seat, move):
    trial = clone(deal)
    apply(trial, seat, move)
    value, steps = rollout(trial, seat)
    return value, steps + 1


def strong_move(view, rng, budget=None):
    """Return the strong player's move for the seat whose `view` this is.

    `budget` is the number of decisions simulated for this move (DEFAULT_BUDGET
    when None); deals are sampled until it is spent, at least one.
    """
    seat = view["seat"]
    root = determinize(view, rng)
    candidates = candidate_moves(root, seat)
    if len(candidates) <= 1:
        return candidates[0] if candidates else None
    basic = candidates[0]
    trial = clone(root)
    apply(trial, seat, basic)
    if trial.phase == OVER and trial.winner == seat:
        return basic
    budget = DEFAULT_BUDGET if budget is None else budget
    # Every candidate is compared with the basic move on the same deals (paired samples).
    diffs = [[] for _ in candidates]
    active = list(range(1, len(candidates)))
    spent = 0
    deals = 0
    while active and spent < budget and deals < MAX_DEALS:
        deal = determinize(view, rng)
        base, steps = _play_out(deal, seat, basic)
        spent += steps
        for i in active:
            value, steps = _play_out(deal, seat, candidates[i])
            spent += steps
            diffs[i].append(value - base)
        deals += 1
        if deals >= PRUNE_AFTER and deals % BATCH == 0:
            # Drop what is surely no better than the basic move, to sample the rest more.
            active = [i for i in active if _bound(diffs[i], CONFIDENCE) > 0]
    best, best_bound = 0, 0.0
    for i in range(1, len(candidates)):
        if diffs[i]:
            bound = _bound(diffs[i], -CONFIDENCE)
            if bound > best_bound:
                best, best_bound = i, bound
    return candidates[best]


def _bound(diffs, z):
    """Return the mean of `diffs` plus `z` standard errors."""
    count = len(diffs)
    mean = sum(diffs) / count
    spread = sum((d - mean) ** 2 for d in diffs) / max(1, count - 1)
    return mean + z * (max(spread, SPREAD_FLOOR) / count) ** 0.5
