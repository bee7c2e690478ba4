"""Player totals and ratings, updated once when a game ends, in the transaction of its result.

Ratings are OpenSkill's Plackett-Luce model, one per edition: the winner ranks
first, the other players share second place and a player marked absent ranks
last. A game without a winner (stalemate, round limit, everybody absent)
changes no rating.

Nor does a game that was not played, so that nobody can farm a rating from
a second account that loses on purpose: one that ended in its first round
(a resignation at once), or one whose winner has had PAIR_GAMES_PER_DAY
rated games in the 24 hours before it ended with each of the other people at
its table (a rematch loop; second accounts taking turns to lose at a table
of three). The computer players do not count: a player may climb the bot
ladder all day. People who played together often do not stop a game that
someone else wins from being rated: they must not take a rating from the
others at their table.

A player who resigned in the first round loses rating all the same, as if
the game had been played (the others gain nothing): otherwise resigning
every poor deal at once would keep a rating from ever falling. The totals
count every game.
"""

import math
from datetime import timedelta

from django.db.models import Count
from openskill.models import PlackettLuce

from accounts.models import (
    Edition,
    GameTogether,
    HeadToHead,
    PlayerStats,
    Rating,
    RatingChange,
)
from config.statements import save_many

MODEL = PlackettLuce()

WIN, LOSS = "win", "loss"

PAIR_GAMES_PER_DAY = 5


def edition_of(game):
    return Edition.ENHANCED if (game.options or {}).get("enhanced") else Edition.CLASSIC


def record_result(game, seats, resigned=()):
    """Count `game` (just finished, results on its seats) in its players' stats and ratings.

    `resigned`: the positions whose players resigned (their seats are marked absent
    too): a loss, not a game abandoned.
    """
    edition = edition_of(game)
    _count_totals(game, seats, edition, resigned)
    _count_pairs(game, seats)
    if any(seat.result == WIN for seat in seats):
        changed = _rated(game, seats, resigned)
        if changed:
            _rate(game, seats, edition, changed)


def _rated(game, seats, resigned):
    """Return the seats whose ratings `game` changes (see the module's docstring).

    All of them in a game played past its first round by no pair at its bound;
    in one that ended in its first round, those who resigned.
    """
    first_round = game.turn_number <= len(seats)
    if first_round and not resigned:
        return []
    if _at_pair_bound(game, seats):
        return []
    return [seat for seat in seats if seat.position in resigned] if first_round else seats


def _at_pair_bound(game, seats):
    """Whether the winner of `game` has had PAIR_GAMES_PER_DAY rated games in the 24 hours
    before it with every other person at its table (computer players aside; one query).

    Two people in a rematch loop, or one with two second accounts that take turns
    losing at a table of three: the winner gains no more rating from them that day.
    """
    winner = next(seat for seat in seats if seat.result == WIN)
    others = {seat.user_id for seat in seats if seat is not winner and not seat.user.bot_level}
    if winner.user.bot_level or not others:
        return False
    since = game.ended_at - timedelta(days=1)
    counts = (
        RatingChange.objects.filter(
            user_id=winner.user_id,
            created_at__gt=since,
            game__rating_changes__user_id__in=others,
        )
        .values("game__rating_changes__user_id")
        .annotate(games=Count("game", distinct=True))
    )
    at_bound = {
        row["game__rating_changes__user_id"] for row in counts if row["games"] >= PAIR_GAMES_PER_DAY
    }
    return at_bound == others


def _count_totals(game, seats, edition, resigned):
    users = [seat.user_id for seat in seats]
    PlayerStats.objects.bulk_create([PlayerStats(user_id=u) for u in users], ignore_conflicts=True)
    # Locked in user order, so that two games ending at once cannot deadlock.
    stats = {
        s.user_id: s
        for s in PlayerStats.objects.select_for_update()
        .filter(user_id__in=users)
        .order_by("user_id")
    }
    rounds = math.ceil(game.turn_number / len(seats)) if seats else 0
    players = str(len(seats))
    per_seat = (game.summary or {}).get("players", [])
    for seat in seats:
        totals = stats[seat.user_id]
        won = seat.result == WIN
        totals.games += 1
        if won:
            totals.wins += 1
            totals.current_streak += 1
            totals.longest_streak = max(totals.longest_streak, totals.current_streak)
            totals.turns_to_win += rounds
        else:
            totals.current_streak = 0
            if seat.result == LOSS:
                totals.losses += 1
            else:
                totals.draws += 1
        if seat.absent and seat.position not in resigned:
            totals.abandoned += 1
        _tally(totals.by_players, players, won)
        _tally(totals.by_edition, edition, won)
        if seat.position < len(per_seat):
            mine = per_seat[seat.position]
            for kind, count in mine.get("actions", {}).items():
                totals.actions[kind] = totals.actions.get(kind, 0) + count
            totals.rent_collected += mine.get("rent_collected", 0)
    save_many(
        stats.values(),
        [
            "games",
            "wins",
            "losses",
            "draws",
            "abandoned",
            "current_streak",
            "longest_streak",
            "turns_to_win",
            "by_players",
            "by_edition",
            "actions",
            "rent_collected",
        ],
    )


def _count_pairs(game, seats):
    """Count `game` in the head-to-head record of every two of its players, both ways."""
    users = [seat.user_id for seat in seats]
    pairs = [(u, v) for u in users for v in users if u != v]
    HeadToHead.objects.bulk_create(
        [HeadToHead(user_id=u, opponent_id=v) for u, v in pairs], ignore_conflicts=True
    )
    # Locked in one order, as the totals are, so that two games ending at once cannot deadlock.
    records = list(
        HeadToHead.objects.select_for_update()
        .filter(user_id__in=users, opponent_id__in=users)
        .order_by("user_id", "opponent_id")
    )
    for record in records:
        record.games += 1
        record.won += record.user_id == game.winner_id
        record.lost += record.opponent_id == game.winner_id
    save_many(records, ["games", "won", "lost"])
    GameTogether.objects.bulk_create(
        [
            GameTogether(user_id=u, opponent_id=v, game=game, ended_at=game.ended_at)
            for u, v in pairs
        ]
    )


def _tally(table, key, won):
    played, wins = table.get(key, [0, 0])
    table[key] = [played + 1, wins + int(won)]


def _rate(game, seats, edition, changed):
    """Rate `game` among all its `seats`; change the ratings of the `changed` ones."""
    users = [seat.user_id for seat in seats]
    start = MODEL.rating()
    Rating.objects.bulk_create(
        [
            Rating(
                user_id=seat.user_id,
                edition=edition,
                mu=start.mu,
                sigma=start.sigma,
                ordinal=start.ordinal(),
            )
            for seat in changed
        ],
        ignore_conflicts=True,
    )
    ratings = {
        r.user_id: r
        for r in Rating.objects.select_for_update()
        .filter(user_id__in=users, edition=edition)
        .order_by("user_id")
    }
    teams = [
        [MODEL.rating(mu=ratings[u].mu, sigma=ratings[u].sigma) if u in ratings else start]
        for u in users
    ]
    ranks = [1 if seat.result == WIN else 3 if seat.absent else 2 for seat in seats]
    rated = MODEL.rate(teams, ranks=ranks)
    changes = []
    for seat, [after] in zip(seats, rated, strict=True):
        if seat not in changed:
            continue
        rating = ratings[seat.user_id]
        before = rating.ordinal
        rating.mu, rating.sigma = after.mu, after.sigma
        rating.ordinal = after.ordinal()
        rating.games += 1
        rating.updated_at = game.ended_at
        changes.append(
            RatingChange(
                user_id=seat.user_id,
                game=game,
                edition=edition,
                before=before,
                after=rating.ordinal,
                delta=rating.ordinal - before,
                created_at=game.ended_at,
            )
        )
    save_many(
        [ratings[seat.user_id] for seat in changed],
        ["mu", "sigma", "ordinal", "games", "updated_at"],
    )
    RatingChange.objects.bulk_create(changes)
