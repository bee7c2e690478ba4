"""Finished games for the review tests: played through Game.play, or stored straight from the engine."""

import random
from datetime import timedelta

from django.utils import timezone

from accounts.models import GameTogether
from games import rules
from games.models import Game, Move, Seat
from games.rules.bots import play_random_game, random_move


def started_game(users, **fields):
    game = Game.objects.create(host=users[0], seat_count=len(users), **fields)
    for position, user in enumerate(users):
        Seat.objects.create(game=game, user=user, position=position)
    return game.start()


def play_to_the_end(game, seed):
    """Play `game` to its end through Game.play, each awaited player making random moves."""
    rng = random.Random(seed)
    game.refresh_from_db()
    while game.status == Game.Status.ACTIVE:
        state = game.state()
        seat = rng.choice(rules.awaiting(state))[0]
        game.play(seat, random_move(state, seat, rng))
    return game


def stored_game(users, seed, options=None, details=False):
    """Return a finished game played by the engine alone and stored as Game.play stores one.

    It has no summary and no checkpoints, like the games that ended before reviews existed;
    nor, unless `details`, what Game.play keeps with a move for its log line (Move.details).
    """
    rng = random.Random(seed)
    state = rules.new_game([user.id for user in users], seed, options)
    moves = []

    def keep(_state, seat, move, events):
        kept = None
        if details:
            for e in events:
                if e["type"] == "move_wild":
                    kept = {"from": e["from"]}
                elif e["type"] == "play" and e["effect"] == "rent":
                    kept = {"amount": e["amount"]}
        moves.append((seat, move, kept))

    play_random_game(state, rng, keep)
    return store_finished(users, seed, options, state, moves)


def store_finished(users, seed, options, state, moves):
    """Store the game `state` ended in, with its `moves` ((seat, Move, details) in order)."""
    start = timezone.now() - timedelta(hours=1)
    winner = users[state.winner] if state.winner >= 0 else None
    game = Game.objects.create(
        host=users[0],
        seat_count=len(users),
        seed=seed,
        options=options or {},
        status=Game.Status.FINISHED,
        snapshot=state.to_json(),
        version=len(moves) + 1,
        started_at=start,
        ended_at=start + timedelta(seconds=len(moves)),
        turn_number=state.turns,
        winner=winner,
        end_reason=state.end_reason,
    )
    Seat.objects.bulk_create(
        Seat(
            game=game,
            user=user,
            position=position,
            result="win" if user == winner else "loss" if winner else "draw",
            ended_at=game.ended_at,
        )
        for position, user in enumerate(users)
    )
    GameTogether.objects.bulk_create(
        GameTogether(user=user, opponent=other, game=game, ended_at=game.ended_at)
        for user in users
        for other in users
        if other != user
    )
    Move.objects.bulk_create(
        Move(
            game=game,
            n=i,
            seat=seat,
            move=move.to_json(),
            details=kept,
            created_at=start + timedelta(seconds=i),
        )
        for i, (seat, move, kept) in enumerate(moves, 1)
    )
    return game


def verdicts_at(game, marks, mark="mistake", loss=12.0):
    """Return an analysis' verdicts for the moves of `game` numbered in `marks`, as the worker
    stores them: `marks` maps a move number to its mark, or is a collection given `mark`."""
    rows = list(game.moves.order_by("n"))
    marks = marks if isinstance(marks, dict) else dict.fromkeys(marks, mark)
    count = game.seat_count
    return {
        str(n): {
            "seat": rows[n - 1].seat,
            "mark": chosen,
            "loss": loss,
            "chances": [round(1 / count, 2)] * count,
            "best": None,
            "best_chance": 0.5,
        }
        for n, chosen in marks.items()
    }
