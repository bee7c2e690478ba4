"""The review of a finished game: its summary, its checkpoints and any of its positions.

A game is replayed once, when it ends (`finish`, called by Game._finish in
the game's lock), to count its summary (games/rules/summary.py) and to store
the engine state every CHECKPOINT_EVERY moves and at the end (Checkpoint
rows). A position of the review is then the nearest checkpoint at or before
it plus fewer than CHECKPOINT_EVERY moves: a click never replays the whole
game. Games that ended before reviews existed get theirs on the first visit
(`ensure_summary`).

Everything is revealed in a review (docs/rules.md section 10), so its board shows
every hand (`rules.review_view`), or exactly what one player saw
(`rules.view_for`), drawn by the table's own code (games/table/board.py).
"""

import logging

from django.db import transaction
from django.dispatch import receiver
from django.urls import reverse
from django.utils.timesince import timesince
from django.utils.translation import gettext as _, gettext_lazy, ngettext

from games import rules
from games.history.analysis import Analysis
from games.models import Checkpoint, Game
from games.models.signals import game_ending
from games.rules.state import ABANDONED, RESIGNED
from games.table.board import player_name
from games.table.cardnames import colour_name, kind_name, listed
from games.table.log import dealt_state, log_page, move_page, tell_alternatives
from games.table.presenting import no_winner_text, present, resigned_text

log = logging.getLogger(__name__)

# `manage.py review_bench`: in a 687-move random game of 10 players, rendering a late
# position takes about 15 ms and replaying 49 moves from a checkpoint about 1.5 ms more
# (the whole game from the deal: 3 to 4 ms more). 50 keeps that share small while storing
# 2.4 times less than 20 (35 KB against 84 KB of checkpoints for that game).
CHECKPOINT_EVERY = 50


class Unreplayable(Exception):
    """The move log does not reproduce the game (a position set by hand, as tests do)."""


# --- building the review when a game ends -------------------------------------------------------


@receiver(game_ending)
def game_is_ending(sender, game, state, **kwargs):
    return finish(game, state)


def finish(game, state):
    """Store the checkpoints of `game`, which has just ended in `state`; return its summary.

    A game its log does not reproduce gets no review (None): its last move
    must not fail for that.
    """
    try:
        summary, checkpoints = _replay(game, state)
    except Unreplayable:
        log.warning("The move log of game %s does not reproduce it: no review", game.code)
        return None
    Checkpoint.objects.bulk_create(checkpoints, ignore_conflicts=True)
    return summary


def ensure_summary(game):
    """Return the summary of finished `game`, building it and its checkpoints on first use.

    For games that ended before reviews existed. The game row is locked so
    that two first visitors build it once; the checkpoints are inserted
    ignoring conflicts all the same. Raise Unreplayable if it cannot be built.
    """
    if game.summary is None:
        with transaction.atomic():
            locked = Game.objects.select_for_update().get(pk=game.pk)
            if locked.summary is None:
                summary, checkpoints = _replay(locked, locked.state())
                Checkpoint.objects.bulk_create(checkpoints, ignore_conflicts=True)
                Game.objects.filter(pk=game.pk).update(summary=summary)
                locked.summary = summary
        game.summary = locked.summary
    return game.summary


def _replay(game, final):
    """Replay `game` from its log; return (summary, Checkpoint rows). `final` is its end."""
    try:
        moves = [
            (seat, rules.Move.from_json(move))
            for seat, move in game.moves.order_by("n").values_list("seat", "move")
        ]
    except rules.IllegalMove as e:
        raise Unreplayable(f"a move that is not one: {e}") from e
    summary, states = checkpoint_states(game.seed, game.options, moves, final)
    return summary, [Checkpoint(game=game, n=n, state=s) for n, s in states.items()]


def checkpoint_states(seed, options, moves, final, every=CHECKPOINT_EVERY):
    """Replay a game that ended in `final`; return (summary, {n: state JSON after move n}).

    The states are kept every `every` moves and at the end. Raise
    Unreplayable unless the replay of `moves`, (seat, Move) pairs, ends in `final`.
    """
    states = {}

    def keep(n, state):
        states["last"] = state  # the replay's own state: at the end, the final one
        if n % every == 0:
            states[n] = state.to_json()

    try:
        summary = rules.summarize(
            final.seats,  # the player ids, in seat order
            seed,
            options,
            moves,
            abandoned=final.end_reason == ABANDONED,
            on_position=keep,
        )
    except (rules.IllegalMove, ValueError, KeyError, IndexError, TypeError) as e:
        raise Unreplayable(str(e)) from e  # a log set by hand (tests), or damaged
    end = states.pop("last").to_json()
    if end != final.to_json():
        raise Unreplayable("the replay ends elsewhere")
    # The end is a checkpoint too: the last position (shown first) needs no replay, and an
    # abandoned game's end, which no move records, is stored as it was.
    states[len(moves)] = end
    return summary, states


# --- positions ----------------------------------------------------------------------------------


def state_at(game, n):
    """Return (state, current) after move `n` (0: the deal); current is the Move row of move n.

    The state is the nearest checkpoint at or before n with the moves after it
    applied: only those rows are read.
    """
    checkpoint = _checkpoint(game, n)
    first = min(checkpoint.n, n - 1) if n else 0  # move n itself is wanted for its sentence
    rows = list(game.moves.order_by("n")[first:n])
    state = advance(checkpoint.state, rows[checkpoint.n - first :])
    return state, (rows[-1] if n else None)


def state_after(game, n):
    """Return the state after move `n`, as state_at does; no move is read at a checkpoint."""
    if n == 0:
        return dealt_state(game)  # the deal, dealt again: cheaper than its checkpoint read
    checkpoint = _checkpoint(game, n)
    return advance(checkpoint.state, game.moves.order_by("n")[checkpoint.n : n])


def _checkpoint(game, n):
    checkpoint = game.checkpoints.filter(n__lte=n).order_by("-n").only("n", "state").first()
    if checkpoint is None:
        raise Unreplayable("no checkpoint")
    return checkpoint


def advance(state_json, rows):
    """Return the state `state_json` with the moves of `rows` (Move rows) applied."""
    state = rules.GameState.from_json(state_json)
    for row in rows:
        rules.apply(state, row.seat, rules.Move.from_json(row.move))
    return state


def board(state, user_names, seat=None, absent=()):
    """Return the table data of a review position: every hand, or exactly what `seat` saw.

    `absent`: the seats the game's end counted out as absent (Game.counted_out).
    """
    view = rules.review_view(state) if seat is None else rules.view_for(state, seat)
    view["moves"] = view["choices"] = []  # a review makes no moves
    table = present(view, user_names, absent=absent)
    for player in table["players"]:
        player["clock"] = None
        player["is_me"] = False  # nobody's own table: no "(you)"
    if table["me"] is not None:
        table["me"]["hand"] = [entry["card"] for entry in table["hand"]]
    return table


def parse_position(value, total):
    """Return the move number asked for by `?move=`; the end when absent or unreadable."""
    try:
        return min(max(int(value), 0), total)
    except (TypeError, ValueError):
        return total


def parse_seat(value, count):
    """Return the seat asked for by `?as=`, or None (every hand)."""
    try:
        seat = int(value)
    except (TypeError, ValueError):
        return None
    return seat if 0 <= seat < count else None


def review_url(code, n, seat=None):
    url = f"{reverse('games:review', args=[code])}?move={n}"
    return url if seat is None else f"{url}&as={seat}"


def review_context(game, n, seat, whole_page=True, move_list=None):
    """Return the template context of the review of `game` at move `n` as `seat` saw it.

    `whole_page` adds what the page shows around the board (the move list's
    page holding move `n` and the summary); without it only the position
    fragment's data is made, and the move list's page too when `move_list`.
    """
    summary = ensure_summary(game)
    total = summary["moves"]
    seats = list(game.seats.select_related("user"))
    user_names = {s.user_id: player_name(s.user) for s in seats}
    names = [user_names[s.user_id] for s in seats]
    state, current = state_at(game, n)
    first, last = move_page(n, total)
    move_list = whole_page or move_list
    lines = []
    if move_list and total:
        lines = log_page(
            game,
            names,
            state.deck,
            first,
            last - first + 1,
            state_before=lambda: state_after(game, first - 1),
        )
    if current is None:
        line = None
    elif lines:
        line = lines[n - first]
    else:
        # Told as the move list tells it (an older game's rent or wild from the state before).
        line = log_page(game, names, state.deck, n, 1, lambda: state_after(game, n - 1))[0]
    absent = game.counted_out()  # told at the end: in the last position and the summary
    context = position_context(
        game.code,
        n,
        total,
        seat,
        board(state, user_names, seat, absent if n == total else ()),
        line,
    )
    analysis = Analysis.objects.filter(game=game).first()
    verdicts = verdicts_of(analysis)
    context["chart"] = chart(game.code, verdicts, names, n, total, seat)
    shown = (first, last) if move_list else (n, n)
    wanted = {k: v for k, v in verdicts.items() if shown[0] <= k <= shown[1]}
    marks = present_marks(game, wanted, names, state.deck)
    context["verdict"] = marks.get(n)
    code = game.code
    if move_list:
        context["lines"] = [
            dict(line, url=review_url(code, line["index"], seat), verdict=marks.get(line["index"]))
            for line in lines
        ]
        context["move_page"] = move_page_context(code, first, last, total, seat)
        # The judged decisions in words, of the list's page (the chart's text equivalent).
        context["decisions_table"] = [line for line in context["lines"] if line["verdict"]]
        context["analysed"] = bool(verdicts)
    # The views of this position: drawn with every step (games.views.review), not only the page.
    context["perspectives"] = [
        {"label": _("Every hand"), "url": review_url(code, n), "chosen": seat is None}
    ] + [
        {
            "label": _("As %(name)s saw it") % {"name": name},
            "url": review_url(code, n, i),
            "chosen": seat == i,
        }
        for i, name in enumerate(names)
    ]
    if whole_page:
        context["analysis"] = analysis_status(game, analysis)
        context["summary"] = present_summary(game, summary, seats, names, absent)
        for player, totals in zip(context["summary"]["players"], analysis_totals(verdicts, names)):
            player["analysis"] = totals
        context["export_url"] = reverse("games:export", args=[code])
        context["table_url"] = game.get_absolute_url()
    return context


def move_page_context(code, first, last, total, seat):
    """Return the move list's page: its bounds, and links to the pages either side (or None)."""
    return {
        "first": first,
        "last": last,
        "total": total,
        "paged": (first, last) != (1, total),
        "deal_url": review_url(code, 0, seat) if first == 1 else None,
        "earlier_url": review_url(code, first - 1, seat) if first > 1 else None,
        "later_url": review_url(code, last + 1, seat) if last < total else None,
    }


def position_context(code, n, total, seat, table, line):
    """Return the context of the position fragment: the board `table` after move n, told by `line`."""
    return {
        "code": code,
        "n": n,
        "total": total,
        "seat": seat,
        "current": line,
        "table": table,
        "nav": {
            "first": review_url(code, 0, seat),
            "previous": review_url(code, n - 1, seat) if n > 0 else None,
            "next": review_url(code, n + 1, seat) if n < total else None,
            "last": review_url(code, total, seat),
        },
    }


# --- the summary panel --------------------------------------------------------------------------


def present_summary(game, summary, seats, names, absent):
    """Return the template data of the summary panel; `absent`: Game.counted_out."""
    winner = summary["winner"]
    if summary["end_reason"] == RESIGNED and winner is not None:
        out = summary.get("resigned", ())
        result = resigned_text(
            names[winner],
            [names[s] for s in out if s not in absent],
            [names[s] for s in out if s in absent],
        )
    elif winner is not None:
        colours = [str(colour_name(c)) for c in summary["winning_sets"]]
        result = _("%(name)s won with %(sets)s.") % {
            "name": names[winner],
            "sets": listed(colours),
        }
    else:
        result = no_winner_text(summary["end_reason"])
    finished_url = reverse("games:finished")
    players = []
    for seat, numbers in zip(seats, summary["players"]):
        actions = sorted(numbers["actions"].items(), key=lambda item: (-item[1], item[0]))
        players.append(
            dict(
                numbers,
                name=names[seat.position],
                result=seat.get_result_display(),
                games_url=f"{finished_url}?player={seat.user.get_username()}",
                actions=[{"name": kind_name(kind), "count": count} for kind, count in actions],
                actions_count=sum(numbers["actions"].values()),
            )
        )
    duration = ""
    if game.started_at and game.ended_at:
        duration = timesince(game.started_at, game.ended_at)
    return {
        "result": result,
        "duration": duration,
        "turns": summary["turns"],
        "rounds": summary["rounds"],
        "moves": summary["moves"],
        "players": players,
    }


# --- the analysis ---------------------------------------------------------------------------

MARK_NAMES = {
    "inaccuracy": gettext_lazy("Inaccuracy"),
    "mistake": gettext_lazy("Mistake"),
    "blunder": gettext_lazy("Blunder"),
}
MARK_SIGNS = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}
CHART_WIDTH, CHART_HEIGHT, CHART_PAD = 600, 160, 8
# A long game's chart draws one decision for each of this many equal spans of its moves.
CHART_MOST_POINTS = 200
MARK_WEIGHTS = {"inaccuracy": 1, "mistake": 2, "blunder": 3}


def verdicts_of(analysis):
    """Return the verdicts of `analysis` (None: not analysed) by move number."""
    if analysis is None:
        return {}
    return {int(n): verdict for n, verdict in analysis.verdicts.items()}


def analysis_status(game, analysis):
    """Return the template data of the analysis' state: absent, queued, running, done, failed."""
    code = game.code
    data = {"state": "absent", "url": reverse("games:analysis", args=[code])}
    if analysis is None:
        return data
    data["state"] = analysis.status
    data["judged"] = analysis.judged
    data["decisions"] = analysis.decisions
    # Of those judged, the decisions that had more than one possible move: the others get no
    # verdict (games/rules/analysis.py), and the page's counts are of what it shows.
    data["with_choice"] = len(analysis.verdicts)
    if analysis.status == Analysis.Status.QUEUED:
        data["place"] = analysis.place()
    return data


def percent(chance):
    return round(100 * chance)


def charted(verdicts, n, total):
    """Return the move numbers of the decisions the chart draws, in order.

    Every one judged, up to CHART_MOST_POINTS; beyond, a game's moves are cut
    into that many equal spans and each span's worst-marked decision (its
    first of the worst) is drawn, and decision `n` too: a point a few pixels
    wide, whatever the game's length.
    """
    if len(verdicts) <= CHART_MOST_POINTS:
        return sorted(verdicts)
    worst = {}
    for i in sorted(verdicts):
        span = (i - 1) * CHART_MOST_POINTS // max(total, 1)
        kept = worst.get(span)
        weight = MARK_WEIGHTS.get(verdicts[i]["mark"], 0)
        if kept is None or weight > MARK_WEIGHTS.get(verdicts[kept]["mark"], 0):
            worst[span] = i
    return sorted(set(worst.values()) | ({n} & verdicts.keys()))


def chart(code, verdicts, names, n, total, seat):
    """Return the data of the win-chance chart: a line per player, a point per decision drawn.

    Each decision's point is the win chance every player had after its move, as
    the deciding seat estimated it from its own view. A long game's chart draws
    some of its decisions (`charted`).
    """
    if not verdicts:
        return None
    width, height, pad = CHART_WIDTH, CHART_HEIGHT, CHART_PAD

    def x(i):
        return round(pad + (width - 2 * pad) * i / max(total, 1), 1)

    def y(chance):
        return round(pad + (height - 2 * pad) * (1 - chance), 1)

    count = len(names)
    lines = [[(x(0), y(1 / count))] for _ in names]
    decisions = []
    for i in charted(verdicts, n, total):
        verdict = verdicts[i]
        points = []
        for p, chance in enumerate(verdict["chances"][:count]):
            lines[p].append((x(i), y(chance)))
            points.append({"player": p, "x": x(i), "y": y(chance)})
        mover = verdict["seat"]
        decisions.append(
            {
                "n": i,
                "url": review_url(code, i, seat),
                "current": i == n,
                "mark": verdict["mark"],
                "points": points,
                "mover": {"x": x(i), "y": y(verdict["chances"][mover])},
                "title": _("Move %(n)d, %(name)s: %(chances)s")
                % {
                    "n": i,
                    "name": names[mover],
                    "chances": listed(
                        f"{names[p]} {percent(c)}%" for p, c in enumerate(verdict["chances"])
                    ),
                },
            }
        )
    return {
        "width": width,
        "height": height,
        "now_x": x(n),
        "grid": [{"y": y(level / 4), "label": f"{25 * level}%"} for level in (1, 2, 3)],
        "players": [
            {"index": p, "name": names[p], "points": " ".join(f"{a},{b}" for a, b in line)}
            for p, line in enumerate(lines)
        ],
        "decisions": decisions,
    }


def present_marks(game, verdicts, names, deck):
    """Return {n: template data} of `verdicts`: chances, loss, mark and the engine's move in words.

    Only the moves from the first verdict's to the last one's are told again.
    """
    if not verdicts:
        return {}
    better = {n: v["best"] for n, v in verdicts.items() if v["best"] is not None}
    told = {}
    if better:
        first = min(better)
        told = tell_alternatives(
            game, names, deck, first, max(better), lambda: state_after(game, first - 1), better
        )
    found = {}
    for n, verdict in verdicts.items():
        mover = verdict["seat"]
        found[n] = {
            "mark": verdict["mark"],
            "mark_name": MARK_NAMES.get(verdict["mark"], ""),
            "sign": MARK_SIGNS.get(verdict["mark"], ""),
            "loss": verdict["loss"],
            "chance": percent(verdict["chances"][mover]),
            "best_chance": percent(verdict["best_chance"]),
            "name": names[mover],
            "chances": [
                {"name": names[p], "percent": percent(c)} for p, c in enumerate(verdict["chances"])
            ],
            "alternative": told.get(n, ""),
        }
    return found


def analysis_totals(verdicts, names):
    """Return per player the summary of the analysis: "3 mistakes, average loss 4 points"."""
    totals = []
    for seat in range(len(names)):
        mine = [v for v in verdicts.values() if v["seat"] == seat]
        if not mine:
            totals.append("")
            continue
        parts = []
        for mark, words in (
            ("blunder", lambda k: ngettext("%(count)d blunder", "%(count)d blunders", k)),
            ("mistake", lambda k: ngettext("%(count)d mistake", "%(count)d mistakes", k)),
            (
                "inaccuracy",
                lambda k: ngettext("%(count)d inaccuracy", "%(count)d inaccuracies", k),
            ),
        ):
            count = sum(1 for v in mine if v["mark"] == mark)
            if count:
                parts.append(words(count) % {"count": count})
        if not parts:
            parts.append(_("no marked move"))
        average = sum(v["loss"] for v in mine) / len(mine)
        parts.append(_("average loss %(points).1f points") % {"points": average})
        totals.append(listed(parts))
    return totals


# --- the record ---------------------------------------------------------------------------------


def export(game):
    """Return the whole record of a finished game as JSON data.

    `rules.replay(seats, seed, options, [(m["seat"], Move.from_json(m["move"])) ...])`
    rebuilds the game (with `rules.abandon` after it when the end reason is
    "abandoned": no move records that the players left).
    """
    seats = list(game.seats.select_related("user"))
    end = rules.outcome(game.state()) or {}
    analysis = Analysis.objects.filter(game=game).first()
    return {
        "code": game.code,
        "seed": game.seed,
        "options": game.options,
        "seats": [seat.user.get_username() for seat in seats],
        "moves": [
            {
                "n": m.n,
                "seat": m.seat,
                "move": m.move,
                "cause": m.cause,
                "created_at": m.created_at.isoformat(),
            }
            for m in game.moves.order_by("n")
        ],
        "result": {
            "winner": end.get("winner"),  # a seat, or None
            "end_reason": game.end_reason,
            "results": [seat.result for seat in seats],
            "started_at": game.started_at.isoformat() if game.started_at else None,
            "ended_at": game.ended_at.isoformat() if game.ended_at else None,
        },
        # Each decision judged from its seat's view: "chances" of every seat after the move
        # (0 to 1), "best" the engine's move, "loss" the points of win chance given up.
        "analysis": analysis.export() if analysis is not None else None,
    }
