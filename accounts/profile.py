"""What the profile, head-to-head and leaderboard pages show: a bounded number of queries each."""

from functools import partial

from django.contrib.auth import get_user_model
from django.shortcuts import get_object_or_404

from accounts.models import (
    BotStrength,
    Edition,
    GameTogether,
    HeadToHead,
    PlayerStats,
    Rating,
    RatingChange,
)
from config import statements
from config.dates import date_text
from config.links import link
from games.history.lists import RESULTS, Row, seated
from games.models import Seat
from games.table.cardnames import kind_name

HISTORY_POINTS = 200  # rating history drawn per edition
LEADERBOARD_MIN_GAMES = Rating.SETTLED_AFTER_GAMES
LEADERBOARD_SIZE = 100


def user_named(request, username, **active):
    """Return the user a page names, or raise Http404; the one asking costs no query.

    `active`: is_active=True to 404 on a closed account as on an unknown one.
    """
    if request.user.is_authenticated and request.user.get_username() == username:
        return request.user  # signed in: active
    return get_object_or_404(get_user_model(), username=username, **active)


def profile_stats(user):
    """Return the numbers of `user`'s profile (5 queries, 6 for a player of both editions)."""
    # Every query here is a statement compiled once (config.statements): 0.5 ms each less.
    totals = statements.models("player stats", _stats, user.pk)
    totals = totals[0] if totals else PlayerStats(user=user)
    ratings = {r.edition: r for r in statements.models("ratings", _ratings, user.pk)}
    history = {}
    for edition in Edition:  # one step down the rating_history index each edition played
        if totals.by_edition.get(edition.value, [0, 0])[0]:
            # Only the ratings the chart draws: 200 dates read from text cost 0.5 ms.
            history[edition.value] = statements.values(
                ("rating history", edition.value), partial(_history, edition.value), user.pk
            )
    best = _change(statements.values("best game", _best, user.pk))
    worst = _change(statements.values("worst game", _worst, user.pk))
    editions = []
    for edition in Edition:
        played, won = totals.by_edition.get(edition.value, [0, 0])
        rating = ratings.get(edition.value)
        points = list(reversed(history.get(edition.value, [])[:HISTORY_POINTS]))
        editions.append(
            {
                "edition": edition,
                "played": played,
                "won": won,
                "rate": _rate(won, played),
                "rating": rating,
                "chart": rating_chart(points) if points else None,
            }
        )
    by_players = [
        {"players": int(n), "played": p, "won": w, "rate": _rate(w, p)}
        for n, (p, w) in sorted(totals.by_players.items(), key=lambda item: int(item[0]))
    ]
    favourite = [
        (kind_name(kind), count)
        for kind, count in sorted(totals.actions.items(), key=lambda item: (-item[1], item[0]))[:3]
    ]
    return {
        "totals": totals,
        "win_rate": _rate(totals.wins, totals.games),
        "editions": editions,
        "by_players": by_players,
        "best": best,
        "worst": worst,
        "average_turns_to_win": totals.turns_to_win / totals.wins if totals.wins else None,
        "rent_per_game": totals.rent_collected / totals.games if totals.games else None,
        "favourite_actions": favourite,
    }


def _stats(user_id):
    return PlayerStats.objects.filter(user_id=user_id).order_by("pk")[:1]


def _ratings(user_id):
    return Rating.objects.filter(user_id=user_id)


def _history(edition, user_id):
    changes = RatingChange.objects.filter(user_id=user_id, edition=edition)
    return changes.order_by("-created_at", "-id").values_list("after", flat=True)[:HISTORY_POINTS]


def _changes(user_id):
    # Of the game, only its code (the link to its review): never its engine state.
    return RatingChange.objects.filter(user_id=user_id).values_list(
        "game__code", "delta", "created_at"
    )


def _best(user_id):
    return _changes(user_id).filter(delta__gt=0).order_by("-delta")[:1]


def _worst(user_id):
    return _changes(user_id).filter(delta__lt=0).order_by("delta")[:1]


def _change(found):
    """Return a best or worst game's [(code, delta, created_at)] as the profile draws it, or None."""
    if not found:
        return None
    code, delta, created_at = found[0]
    return Row(game=Row(code=code), delta=delta, created_at=created_at)


def _rate(won, played):
    """Return the percentage of games won, never 0 or 100 unless none or all were won."""
    if not played:
        return None
    return min(max(round(100 * won / played), 1 if won else 0), 99 if won < played else 100)


def recent_games(user, count=10):
    """Return `user`'s last finished games with their players (2 queries), as plain values."""
    # The seat_history index (user, ended_at, game) holds them newest first.
    seats = statements.values(
        ("profile recent games", count), partial(_last_seats, count=count), user.pk
    )
    everyone = seated([game_id for game_id, *_ in seats])
    return [
        {
            "game": Row(code=code, ended_at=ended_at),
            "review_url": link("games:review", code),
            "ended_text": date_text(ended_at, "DATE_FORMAT"),
            "result": RESULTS.get(result, result),
            "opponents": [seat for seat in everyone[game_id] if seat.pk != user.pk],
        }
        for game_id, code, ended_at, result in seats
    ]


def _last_seats(user_id, count):
    return (
        Seat.objects.filter(user_id=user_id, ended_at__isnull=False)
        .order_by("-ended_at", "-game_id")
        .values_list("game_id", "game__code", "game__ended_at", "result")[:count]
    )


def games_together(user, other):
    """Return the finished games of `user` with `other`, as GameTogether rows (together_history).

    Read newest first by (ended_at, game) a page at a time (games.history.keyset).
    """
    return GameTogether.objects.filter(user=user, opponent=other)


def head_to_head(user, other):
    """Return `user`'s record against `other` (stored: HeadToHead)."""
    stored = statements.models("head to head", _head_to_head, user.pk, other.pk)
    stored = stored[0] if stored else None
    record = {
        "games": stored.games if stored else 0,
        "won": stored.won if stored else 0,
        "lost": stored.lost if stored else 0,
    }
    record["others"] = record["games"] - record["won"] - record["lost"]
    return record


def _head_to_head(user_id, other_id):
    return HeadToHead.objects.filter(user_id=user_id, opponent_id=other_id).order_by("pk")[:1]


def leaderboard(edition):
    """Return the rated players of `edition` who are no longer provisional, best first."""
    return (
        Rating.objects.filter(
            edition=edition,
            sigma__lte=Rating.PROVISIONAL_SIGMA,
            games__gte=LEADERBOARD_MIN_GAMES,
            user__is_active=True,
        )
        .select_related("user")
        .order_by("-ordinal", "user__username")[:LEADERBOARD_SIZE]
    )


def rating_chart(values, width=480, height=120, pad=8):
    """Return what an SVG line chart of `values` needs: points, range and the zero line.

    The scale runs from the lowest value to the highest (one point either side of a
    flat line); the zero line is drawn only when zero is within it (`zero` None).
    """
    lowest, highest = min(values), max(values)
    low, high = (lowest, highest) if highest > lowest else (lowest - 1.0, highest + 1.0)
    span = high - low
    step = (width - 2 * pad) / max(len(values) - 1, 1)

    def y(v):
        return round(height - pad - (v - low) / span * (height - 2 * pad), 1)

    points = " ".join(f"{round(pad + i * step, 1)},{y(v)}" for i, v in enumerate(values))
    return {
        "width": width,
        "height": height,
        "points": points,
        "zero": y(0.0) if low <= 0.0 <= high else None,
        "low": low,
        "high": high,
        "lowest": lowest,
        "highest": highest,
        "last": values[-1],
        "count": len(values),
    }


def bot_strength(level, count=12):
    """Return the latest stored figures of computer `level` against the others, newest first."""
    return list(BotStrength.objects.filter(level=level)[:count])
