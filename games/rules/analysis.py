"""The analysis of a finished game: how each decision looked from the deciding seat's chair.

A decision is judged from the view of the seat that made it (observe.view_for:
its own hand, the public table, the counts of the other hands and of the
draw pile) and nothing else: `judge` takes only that view. It lists the
strong player's candidate moves (search.candidate_moves, the sure win of
search.winning_line and the move played), deals the unseen cards as the
strong player guesses them (search.guess) and plays every candidate out on
the same deals with the basic player at every seat (search.rollout), each
result judged by search.evaluate. The move with the best average is the
engine's choice; what the played move gave up against it is the loss, in
points of win chance (0 to 100), on which a move is marked.

`analyse` replays a game and judges the decisions it is asked about, within
a time budget per decision and per game.
"""

import random
import time

from .cards import FORCED_DEAL
from .determinize import determinize
from .engine import apply, new_game
from .moves import RESIGN, IllegalMove
from .observe import view_for
from .search import candidate_moves, clone, evaluate, guess, rollout, winning_line

SECONDS_PER_DECISION = 0.3  # the default time to judge one decision
MAX_DEALS = 64  # deals sampled per decision at most
# Marks, by the points of win chance a move gave up (at least).
INACCURACY, MISTAKE, BLUNDER = "inaccuracy", "mistake", "blunder"
MARKS = ((20.0, BLUNDER), (10.0, MISTAKE), (5.0, INACCURACY))


def mark_for(loss):
    """Return the mark of a move that gave up `loss` points of win chance ("" for none)."""
    for least, mark in MARKS:
        if loss >= least:
            return mark
    return ""


def _key(state, move):
    """Return what tells `move` apart from others: card kinds, not card ids.

    The order of the chosen cards matters only to a Forced Deal's (the card given,
    then the card taken); a payment's or a Double Sly Deal's are sorted.
    """
    deck = state.deck
    card = deck[move.card].id if move.card >= 0 else ""
    cards = tuple(deck[c].id for c in move.cards)
    if not (move.kind == "play" and deck[move.card].effect == FORCED_DEAL):
        cards = tuple(sorted(cards))
    return (move.kind, card, move.colour, move.targets, cards)


def candidates_for(state, seat, played):
    """Return the moves to compare for `seat`'s decision in `state`, `played` among them."""
    found = candidate_moves(state, seat)
    line = winning_line(state, seat)
    if line is not None:
        found.append(line)
    played_key = _key(state, played)
    unique, seen = [played], {played_key}
    for move in found:
        key = _key(state, move)
        if key not in seen:
            seen.add(key)
            unique.append(move)
    return unique


def judge(view, played, rng, seconds=SECONDS_PER_DECISION, deals=MAX_DEALS):
    """Return the verdict on `played`, the move made by the seat whose `view` this is.

    `rng` is a random.Random; with `seconds` None only `deals` bounds the work,
    and the same view, move and seed give the same verdict. The verdict is a
    dict: "seat", "chances" (every player's estimated win chance, 0 to 1, after
    the played move), "best" (the engine's move, JSON; None when the played
    move is as good), "best_chance" (the seat's chance with it), "loss"
    (points of win chance given up), "mark" and "deals". Return None when the
    seat had no choice.
    """
    seat = view["seat"]
    root = determinize(view, rng)
    moves = candidates_for(root, seat, played)
    if len(moves) <= 1:
        return None
    count = len(view["players"])
    deadline = None if seconds is None else time.perf_counter() + seconds
    sums = [[0.0] * count for _ in moves]
    diffs = [[] for _ in moves]  # the seat's chance with each move minus with the played one
    done = 0
    while done < deals:
        if done and deadline is not None and time.perf_counter() > deadline:
            break
        deal = guess(view, rng)
        mine = []
        for i, move in enumerate(moves):
            trial = clone(deal)
            apply(trial, seat, move)
            rollout(trial, seat)
            chances = [evaluate(trial, p) for p in range(count)]
            for p in range(count):
                sums[i][p] += chances[p]
            mine.append(chances[seat])
        for i in range(len(moves)):
            diffs[i].append(mine[i] - mine[0])
        done += 1
    best, best_gain = 0, 0.0
    for i in range(1, len(moves)):
        gain = _lower_bound(diffs[i])
        if gain > best_gain:
            best, best_gain = i, gain
    loss = round(100 * best_gain, 1)
    return {
        "seat": seat,
        "chances": [round(s / done, 3) for s in sums[0]],
        "best": moves[best].to_json() if best else None,
        "best_chance": round(sums[best][seat] / done, 3),
        "loss": loss,
        "mark": mark_for(loss),
        "deals": done,
    }


def _lower_bound(diffs):
    """Return the mean of `diffs` less one standard error: noise alone marks no move."""
    count = len(diffs)
    mean = sum(diffs) / count
    if count < 2:
        return mean
    spread = sum((d - mean) ** 2 for d in diffs) / (count - 1)
    return mean - (spread / count) ** 0.5


def analyse(
    players,
    seed,
    options,
    moves,
    wanted,
    sample_seed,
    seconds=SECONDS_PER_DECISION,
    total=None,
    deals=MAX_DEALS,
    on_verdict=None,
    stop_after=None,
):
    """Replay a game and judge the decisions numbered in `wanted`; return {n: verdict}.

    `moves` is the (seat, Move) list; move n (1-based) is decided in the
    position after move n - 1, from its seat's view only. Each decision gets
    `seconds` at most, and less when `total` seconds shared among the decisions
    left would be less. The sampling of decision n is seeded from `sample_seed`
    (public, e.g. the game's code) and n; `judge` sees only the view.
    `on_verdict(n, verdict)` hears each verdict as it comes (None: the seat had
    no choice). After `stop_after` seconds no new decision is begun (one at least is): the
    caller goes on later with the decisions left.
    """
    state = new_game(players, seed, options)
    left = sorted(n for n in wanted if 1 <= n <= len(moves))
    start = time.perf_counter()
    found = {}
    looked = 0
    for n, (seat, move) in enumerate(moves, 1):
        if not left:
            break
        if left[0] == n:
            if looked and stop_after is not None and time.perf_counter() - start > stop_after:
                break
            looked += 1
            left.pop(0)
            budget = seconds
            if total is not None:
                remaining = max(0.0, total - (time.perf_counter() - start))
                share = remaining / (len(left) + 1)
                budget = share if budget is None else min(budget, share)
            verdict = None
            if move.kind != RESIGN:
                rng = random.Random(f"{sample_seed}:{n}")
                try:
                    verdict = judge(view_for(state, seat), move, rng, budget, deals)
                except IllegalMove:
                    verdict = None  # a move its view cannot replay: left unjudged, not the game
            if verdict is not None:
                found[n] = verdict
            if on_verdict is not None:
                on_verdict(n, verdict)
        apply(state, seat, move)
    return found
