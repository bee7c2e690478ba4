"""The strong computer player: flat Monte Carlo search over deals sampled from its view.

For one decision, the player first looks for a sure win this turn (laying
properties and moving wilds, which no hidden card can stop), and plays a
Pass Go at once when the basic player would and plays are left to use what
it draws (`draws_first`). Otherwise it lists a few candidate moves (the
basic player's best plays, wild moves that raise its sets' progress, every
answer, a few payments), then, for deals sampled by `guess` from its view
(other hands dealt by how likely a basic player keeps each kind of card, the
draw order shuffled), plays every candidate followed by basic play for all
seats for ROLLOUT_TURNS turns, judges the result with `evaluate`, and keeps
the candidate that beats the basic move by most on the same deals. It never
sees the real hidden cards: its only input is the view.
"""

import math
import time
from collections import deque

from .actions import MONEY_EFFECTS
from .basic import (
    Table,
    basic_move,
    cheapest_payment,
    payment_costs,
    play_scores,
    progress,
)
from .cards import (
    DEAL_BREAKER,
    DOUBLE_SLY_DEAL,
    FORCED_DEAL,
    FULL_SET,
    JUST_SAY_NO,
    MONEY,
    PASS_GO,
    RENT,
    SLY_DEAL,
    rent_for,
)
from .determinize import determinize
from .engine import HAND_LIMIT, apply, awaiting, legal_moves
from .moves import END, LAY, MOVE_WILD, PLAY as PLAY_CARD, Move
from .payment import least_overpay
from .state import DISCARD, OVER, PLAY, RESPOND, GameState, Pending, Player, PropertySet, Rng, Share
from .table import sets_to_win

DEFAULT_BUDGET = 15000  # decisions simulated per move
TIME_LIMIT = 0.7  # seconds of sampling per move at most, whatever the budget
MAX_DEALS = 256  # sampled deals per move at most
BATCH = 4  # deals between two prunings of the candidates
PRUNE_AFTER = 16  # deals before the first pruning
SPREAD_FLOOR = 0.02  # the least variance assumed of a paired difference
CANDIDATES = 6  # play-phase moves searched, besides ending the turn
WILD_CANDIDATES = 3  # wild rearrangements searched besides
ROLLOUT_TURNS = 4  # turns played out before a position is judged by `evaluate`
CONFIDENCE = 0.5  # standard errors by which a move must beat the basic move to be chosen
WIN_SEARCH_NODES = 400  # positions looked at when looking for a win this turn


# How much likelier each kind of card is to be in a basic opponent's hand than anywhere else
# unseen, measured at the decisions of 1,500 two-player and 600 four-player games between basic
# players: they lay properties and bank money at once and keep Just Say Nos, Deal Breakers,
# Double the Rents, buildings and rents for later. Kinds not listed weigh 1.
HAND_WEIGHTS_TWO = {
    "10M": 0.34, "1M": 1.65, "2M": 1.46, "3M": 1.06, "4M": 0.99, "5M": 0.85, "any": 0.14,
    "birthday": 1.18, "brown": 0.33, "dark_blue": 0.32, "dark_blue/green": 0.18,
    "deal_breaker": 1.76, "debt_collector": 0.37, "double_rent": 2.25, "forced_deal": 2.02,
    "green": 0.39, "green/railroad": 0.34, "hotel": 2.19, "house": 1.66, "just_say_no": 2.07,
    "light_blue": 0.59, "light_blue/brown": 0.29, "light_blue/railroad": 0.49, "orange": 0.63,
    "pass_go": 0.17, "pink": 0.61, "pink/orange": 0.57, "railroad": 0.72,
    "railroad/utility": 0.29, "red": 0.37, "red/yellow": 0.36, "rent:any": 0.92,
    "rent:dark_blue/green": 1.39, "rent:light_blue/brown": 1.9, "rent:pink/orange": 1.73,
    "rent:railroad/utility": 1.89, "rent:red/yellow": 1.44, "sly_deal": 1.72, "utility": 0.35,
    "yellow": 0.4,
}  # fmt: skip
HAND_WEIGHTS_MANY = {
    "10M": 0.51, "1M": 1.61, "2M": 1.63, "3M": 1.38, "4M": 1.38, "5M": 1.31, "any": 0.22,
    "birthday": 0.46, "brown": 0.46, "dark_blue": 0.37, "dark_blue/green": 0.26,
    "deal_breaker": 0.73, "debt_collector": 0.36, "double_rent": 1.55, "forced_deal": 1.51,
    "green": 0.63, "green/railroad": 0.56, "hotel": 1.77, "house": 1.42, "just_say_no": 1.08,
    "light_blue": 0.87, "light_blue/brown": 0.44, "light_blue/railroad": 0.85, "orange": 0.93,
    "pass_go": 0.21, "pink": 0.95, "pink/orange": 0.85, "railroad": 1.15,
    "railroad/utility": 0.43, "red": 0.58, "red/yellow": 0.54, "rent:any": 1.19,
    "rent:dark_blue/green": 0.98, "rent:light_blue/brown": 1.26, "rent:pink/orange": 1.21,
    "rent:railroad/utility": 1.34, "rent:red/yellow": 1.01, "sly_deal": 1.31, "utility": 0.44,
    "yellow": 0.65,
}  # fmt: skip


def guess(view, rng):
    """Return a deal agreeing with `view` (as `determinize`), other hands dealt by likelihood.

    The unseen cards go to the other hands with the odds of HAND_WEIGHTS_TWO or
    HAND_WEIGHTS_MANY (weighted sampling without replacement), the rest to the
    draw pile in random order. A hand that has only shrunk since its owner ended
    a turn with plays left (`held_back`) is dealt first, Just Say Nos and Deal
    Breakers HELD_ODDS times likelier: a basic player keeps nothing else.
    """
    state = determinize(view, rng)
    seat = view["seat"]
    others = [i for i, p in enumerate(state.players) if i != seat and p.hand]
    if not others:
        return state
    weights = HAND_WEIGHTS_TWO if len(state.seats) == 2 else HAND_WEIGHTS_MANY
    deck = state.deck
    pool = list(state.draw)
    for i in others:
        pool.extend(state.players[i].hand)
    random = rng.random
    held = [i for i in others if held_back(view, i)]
    for i in held:
        hand = state.players[i].hand
        keyed = sorted(
            pool,
            key=lambda c: (
                -(
                    random()
                    ** (1.0 / (weights.get(deck[c].id, 1.0) * HELD_ODDS.get(deck[c].effect, 1.0)))
                )
            ),
        )
        hand[:] = keyed[: len(hand)]
        pool = keyed[len(hand) :]
    keyed = sorted(pool, key=lambda c: -(random() ** (1.0 / weights.get(deck[c].id, 1.0))))
    start = 0
    for i in others:
        if i in held:
            continue
        p = state.players[i]
        count = len(p.hand)
        p.hand = keyed[start : start + count]
        start += count
    rest = keyed[start:]
    rng.shuffle(rest)
    state.draw = rest
    return state


HELD_ODDS = {JUST_SAY_NO: 200.0, DEAL_BREAKER: 200.0}


def held_back(view, seat):
    """Return whether `seat`'s hand is all cards it chose to keep, by the view's public history.

    It is if its last turn ended with plays left (the view's `held`) and its hand
    has not grown since: no turn of its own began, and nothing was added to it.
    """
    player = view["players"][seat]
    held = player.get("held")
    if held is None or player["resigned"] or seat == view["current"]:
        return False
    return 0 < player["hand_count"] <= held


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
            o: Share(s.origin, s.debtor, s.jsn, s.transferred_by) for o, s in pending.shares.items()
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
    new.resigned = state.resigned
    new.held = list(state.held)
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
            # And paying from the bank above all, and paying blind to what the receiver needs.
            actor = state.pending.actor
            bank = set(state.players[seat].bank)
            costs = payment_costs(state, seat, actor)
            costs = {c: cost if c in bank else cost + 1000.0 for c, cost in costs.items()}
            found.append(
                Move.accept(share.origin, cheapest_payment(state, seat, amount, actor, costs))
            )
            found.append(Move.accept(share.origin, cheapest_payment(state, seat, amount)))
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
        unique = [m for m in unique if m.kind != END][:CANDIDATES]
        wilds = [
            (wild_gain(state, seat, m), m) for m in legal_moves(state, seat) if m.kind == MOVE_WILD
        ]
        wilds = [pair for pair in wilds if pair[0] > 0]
        wilds.sort(key=lambda pair: -pair[0])
        unique += [m for _gain, m in wilds[:WILD_CANDIDATES] if m not in unique]
        unique.append(Move.end())
    return unique


def wild_gain(state, seat, move):
    """Return how much moving a wild as `move` says raises the `progress` of `seat`'s sets.

    Only rearrangements that raise it are searched: as the sum can only grow, the
    player cannot move wilds back and forth for ever.
    """
    player = state.players[seat]
    old = None
    for s in player.sets:
        if move.card in s.cards:
            old = s
            break
    if old is None or old.colour == move.colour:
        return -1.0
    joined = 0
    for s in player.sets:
        if s.colour == move.colour and len(s.cards) < FULL_SET[s.colour]:
            joined = len(s.cards)
    full_old, full_new = FULL_SET[old.colour], FULL_SET[move.colour]
    left = len(old.cards)
    gained = progress(joined + 1, full_new) - progress(joined, full_new)
    return gained - (progress(left, full_old) - progress(left - 1, full_old))


def winning_line(state, seat, limit=WIN_SEARCH_NODES):
    """Return the first move of a sure win this turn by laying properties and moving wilds.

    Such moves need no hidden card, so the line wins in every deal; None if none is found.
    The search is breadth first: the line is a shortest one, so the next decision finds
    a line one move shorter and the player cannot go round in circles.
    """
    if state.phase != PLAY or state.current != seat:
        return None
    seen = set()
    queue = deque([(state, None)])
    while queue and len(seen) < limit:
        node, first = queue.popleft()
        for move in legal_moves(node, seat):
            if move.kind != LAY and move.kind != MOVE_WILD:
                continue
            child = clone(node)
            apply(child, seat, move)
            start = first if first is not None else move
            if child.phase == OVER:
                if child.winner == seat:
                    return start
                continue
            player = child.players[seat]
            key = (
                tuple(sorted(player.hand)),
                tuple(sorted((s.colour, tuple(sorted(s.cards))) for s in player.sets)),
                child.plays_left,
            )
            if key not in seen:
                seen.add(key)
                queue.append((child, start))
    return None


# A conditional logit model: P(seat wins) is proportional to exp(weights . features(seat)),
# fitted by maximum likelihood on the positions at the start of every turn of games between
# basic players: 16,000 two-player games (WEIGHTS_TWO), 8,000 of 3 to 5 players (WEIGHTS_MANY)
# and 5,000 of the enhanced edition at 2 and 4 players (WEIGHTS_ENHANCED). FEATURES says what
# is weighed. scripts/fit_evaluator.py refits them (with numpy, outside the site's environment).
FEATURES = (
    "complete sets that count",
    "one set to go",
    "progress of the best incomplete sets",
    "sets one card short",
    "bank, per 10M, up to 30M",
    "hand size, per 7 cards",
    "Just Say Nos in hand",
    "Deal Breakers in hand",
    "property value on the table, per 10M",
    "whose turn it is",
    "best rent, per 10M",
    "Sly Deals and Forced Deals in hand",
    "rent cards in hand for a colour on the table",
    "money in hand, per 10M",
    "properties in hand",
    "property value in incomplete sets, per 10M",
    "whole bank, per 10M",
)
WEIGHTS_TWO = (
    0.943, 0.559, 0.747, 0.1, 0.338, -0.515, 0.649, 1.472, 0.103,
    0.403, 0.167, 0.309, 0.103, -0.177, 0.068, 0.498, -0.221,
)  # fmt: skip
WEIGHTS_MANY = (
    0.844, 0.614, 0.352, 0.155, 0.638, 0.031, 0.362, 1.164, 0.136,
    0.375, 0.18, 0.268, 0.241, -0.369, 0.021, 0.426, -0.469,
)  # fmt: skip
WEIGHTS_ENHANCED = (
    0.779, 0.54, 0.586, 0.117, 0.215, -0.42, 0.32, 1.083, 0.129,
    0.348, 0.157, 0.258, 0.137, -0.196, 0.083, 0.348, -0.076,
)  # fmt: skip
STEALS = frozenset((SLY_DEAL, FORCED_DEAL, DOUBLE_SLY_DEAL))


def features(state, seat):
    """Return the features of `seat`'s position that `evaluate` weighs (see FEATURES)."""
    enhanced = state.options.enhanced
    need = sets_to_win(state)
    table = Table(state, seat)
    player = state.players[seat]
    deck = state.deck
    done = min(len(table.winning), need)
    counts = table.counts
    partial = sorted(
        ((k / FULL_SET[c], c) for c, k in counts.items() if c not in table.complete),
        reverse=True,
    )[: max(0, need - done)]
    advance = sum(progress(counts[c], FULL_SET[c]) for _f, c in partial) / 100
    near = sum(1 for _f, c in partial if counts[c] == FULL_SET[c] - 1)
    bank = sum(deck[c].value for c in player.bank)
    jsn = deal_breakers = steals = rents = money = properties = 0
    for c in player.hand:
        kind = deck[c]
        effect = kind.effect
        if effect == JUST_SAY_NO:
            jsn += 1
        elif effect == DEAL_BREAKER:
            deal_breakers += 1
        elif effect in STEALS:
            steals += 1
        elif effect == RENT:
            rents += table.owns_any(kind.colours)
        elif kind.category == MONEY:
            money += kind.value
        elif kind.is_property:
            properties += 1
    value = exposed = 0
    rent = 0
    for s in player.sets:
        worth = 0
        for c in s.cards:
            worth += deck[c].value
        value += worth
        if len(s.cards) < FULL_SET[s.colour]:
            exposed += worth
        rent = max(rent, rent_for(s.colour, len(s.cards), s.house >= 0, s.hotel >= 0, enhanced))
    return (
        done,
        1.0 if done == need - 1 else 0.0,
        advance,
        near,
        min(bank, 30) / 10,
        len(player.hand) / 7,
        jsn,
        deal_breakers,
        value / 10,
        1.0 if state.current == seat else 0.0,
        rent / 10,
        steals,
        rents,
        money / 10,
        properties,
        exposed / 10,
        bank / 10,
    )


def evaluate(state, seat):
    """Return `seat`'s chance of winning from here (1 or 0 once the game is won)."""
    if state.phase == OVER:
        if state.winner < 0:
            return 1.0 / len(state.seats)
        return 1.0 if state.winner == seat else 0.0
    n = len(state.seats)
    if state.options.enhanced:
        weights = WEIGHTS_ENHANCED
    else:
        weights = WEIGHTS_TWO if n == 2 else WEIGHTS_MANY
    scores = [sum(w * f for w, f in zip(weights, features(state, i))) for i in range(n)]
    top = max(scores)
    odds = [math.exp(s - top) for s in scores]
    return odds[seat] / sum(odds)


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
    when None); deals are sampled until it is spent, at least one, or until
    TIME_LIMIT seconds went by (on a machine that slow, the same seed may give
    another move).
    """
    deadline = time.perf_counter() + TIME_LIMIT
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
    line = winning_line(root, seat)
    if line is not None:
        return line
    if draws_first(root, seat, basic):
        return basic
    budget = DEFAULT_BUDGET if budget is None else budget
    # Every candidate is compared with the basic move on the same deals (paired samples).
    diffs = [[] for _ in candidates]
    active = list(range(1, len(candidates)))
    spent = 0
    deals = 0
    late = False
    while active and spent < budget and deals < MAX_DEALS and not late:
        if deals and time.perf_counter() > deadline:
            break
        deal = guess(view, rng)
        base, steps = _play_out(deal, seat, basic)
        spent += steps
        for i in active:
            # Looked at after every playout, not only every deal: a deal plays out every
            # candidate, and how long that takes tells how many the hand offers (the move
            # is made THINKING_SECONDS after the search began, games/play/bots.py, unless
            # the search overran them). Each difference is paired with this deal's base,
            # so a deal cut short still counts; the first one too.
            if time.perf_counter() > deadline:
                late = True
                break
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


def draws_first(state, seat, move):
    """Return whether `move` is a Pass Go that leaves plays to use the cards it draws.

    Drawing first means deciding the other plays knowing two more cards. The
    search cannot see that worth: it judges each play by the basic play that
    follows it, which knows the drawn cards whatever came first, so it finds
    other first plays as good and picks them on noise.
    """
    return (
        move.kind == PLAY_CARD and state.plays_left >= 2 and state.deck[move.card].effect == PASS_GO
    )


def _bound(diffs, z):
    """Return the mean of `diffs` plus `z` standard errors."""
    count = len(diffs)
    mean = sum(diffs) / count
    spread = sum((d - mean) ** 2 for d in diffs) / max(1, count - 1)
    return mean + z * (max(spread, SPREAD_FLOOR) / count) ** 0.5
