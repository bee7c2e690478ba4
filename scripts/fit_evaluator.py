"""Fit the strong player's evaluator (games/rules/search.py `evaluate`) to game outcomes.

    python scripts/fit_evaluator.py --games 16000 --players 2 --seed 1

Plays games between basic players with the engine (pure Python), records
`search.features` of every seat at the start of every turn and the winner,
fits a conditional logit (P(seat wins) proportional to exp(w . features)) by
maximum likelihood and prints the weights, with the held-out log-loss of the
weights in search.py beside it (the last fifth of the games is held out).
Fitting needs numpy, which the site does not: run it with a scratch
environment, e.g. `python -m venv /tmp/fit && /tmp/fit/bin/pip install numpy
&& /tmp/fit/bin/python scripts/fit_evaluator.py`.
"""

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.rules import search  # noqa: E402
from games.rules.basic import basic_move  # noqa: E402
from games.rules.engine import apply, awaiting, new_game  # noqa: E402
from games.rules.state import OVER, PLAY, Options  # noqa: E402


def positions(players, seed, options, feature_fn):
    """Play one basic game; return ([features of every seat at each turn start], winner)."""
    state = new_game(players, seed, options)
    rows = []
    seen = -1
    while state.phase != OVER:
        if state.phase == PLAY and state.turns != seen:
            seen = state.turns
            rows.append([feature_fn(state, i) for i in range(players)])
        who = awaiting(state)[0][0]
        apply(state, who, basic_move(state, who))
    return rows, state.winner


def collect(games, players_choice, seed, options, feature_fn):
    rng = random.Random(seed)
    data = []
    for _ in range(games):
        players = rng.choice(players_choice)
        rows, winner = positions(players, rng.getrandbits(63), options, feature_fn)
        if winner >= 0 and rows:
            data.append((rows, winner))
    return data


def arrays(data, np):
    """Return {player count: (features of every seat at every position, winners)}."""
    groups = {}
    for rows, winner in data:
        x, y = groups.setdefault(len(rows[0]), ([], []))
        x.extend(rows)
        y.extend([winner] * len(rows))
    return {n: (np.array(x, float), np.array(y)) for n, (x, y) in groups.items()}


def log_loss(w, groups, np):
    total = count = 0.0
    for x, y in groups.values():
        s = x @ w
        s -= s.max(axis=1, keepdims=True)
        logp = s - np.log(np.exp(s).sum(axis=1, keepdims=True))
        total -= logp[np.arange(len(y)), y].sum()
        count += len(y)
    return total / count


def fit(groups, size, np, ridge=1e-3, steps=60):
    """Return the maximum-likelihood weights (Newton's method, a little ridge)."""
    w = np.zeros(size)
    for _ in range(steps):
        grad = ridge * w
        hess = ridge * np.eye(size)
        count = 0
        for x, y in groups.values():
            s = x @ w
            s -= s.max(axis=1, keepdims=True)
            p = np.exp(s)
            p /= p.sum(axis=1, keepdims=True)
            mean = np.einsum("ij,ijk->ik", p, x)
            chosen = x[np.arange(len(y)), y]
            grad -= (chosen - mean).sum(axis=0)
            second = np.einsum("ij,ijk,ijl->kl", p, x, x)
            hess += second - mean.T @ mean
            count += len(y)
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-7:
            break
    return w


def main(argv=None):
    import numpy as np

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=16000)
    parser.add_argument("--players", default="2", help="player counts, e.g. 2 or 3,4,5")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--enhanced", action="store_true")
    args = parser.parse_args(argv)
    players = [int(p) for p in args.players.split(",")]
    options = Options(enhanced=args.enhanced)
    data = collect(args.games, players, args.seed, options, search.features)
    cut = len(data) * 4 // 5
    train, test = arrays(data[:cut], np), arrays(data[cut:], np)
    size = len(search.FEATURES)
    w = fit(train, size, np)
    if args.enhanced:
        current = search.WEIGHTS_ENHANCED
    else:
        current = search.WEIGHTS_TWO if players == [2] else search.WEIGHTS_MANY
    current = np.array(current, float)
    print(f"games {len(data)}, positions {sum(len(r) for r, _w in data)}")
    if len(current) == size:
        print(f"held-out log-loss, weights in search.py: {log_loss(current, test, np):.4f}")
    print(f"held-out log-loss, fitted weights:       {log_loss(w, test, np):.4f}")
    print(f"held-out log-loss, no knowledge:         {log_loss(np.zeros(size), test, np):.4f}")
    print("(" + ", ".join(f"{v:.3g}" for v in w) + ")")


if __name__ == "__main__":
    main()
