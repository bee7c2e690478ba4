"""Post-game analysis: the queue of finished games to analyse, and what was found.

The engine judges each decision from its seat's view (games/rules/analysis.py);
this module keeps one Analysis row per game: its place in the queue and its
verdicts (one JSON document, by move number). The queue lives in the
database, so it survives restarts: the worker (games/play/worker.py) runs
`analyse_next` every round, which queues the games that ended lately, claims
one game (the one it was on first: one game at a time per worker) and judges
its decisions for ANALYSIS_SECONDS_PER_ROUND seconds, so that the round's
other jobs (timeouts, bot moves) wait little. A worker that dies mid-analysis
stops refreshing its claim; after STALE_AFTER another worker takes the game
over from the last decision saved.

An analysis exists only for a finished game: nothing here is read or queued
while a game is played.
"""

import logging
import os
import socket
import time
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Min, Q
from django.db.models.functions import Coalesce
from django.utils import timezone
from django.utils.translation import gettext_lazy as _, ngettext

from games import rules
from games.models import Analysis, Game, Move
from games.play.limits import TakingTurns, lock_account
from games.rules.analysis import analyse

log = logging.getLogger(__name__)

STALE_AFTER = timedelta(minutes=2)  # a claim not refreshed for this long is a dead worker's


class AnalysisRefused(Exception):
    """An analysis that cannot be asked for; the message says why."""


def decisions_to_judge(game, rows=None):
    """Return the move numbers of `game` that its people chose themselves.

    `rows`, (seat, cause, move JSON) of every move in order, when the caller read them.
    """
    people = set(game.seats.filter(user__bot_level="").values_list("position", flat=True))
    if rows is None:
        rows = game.moves.order_by("n").values_list("seat", "cause", "move")
    return [
        n
        for n, (seat, cause, move) in enumerate(rows, 1)
        if seat in people and cause == Move.Cause.PLAYER and move.get("kind") != rules.RESIGN
    ]


def request_analysis(game, user):
    """Queue finished `game` for analysis at `user`'s request; return its Analysis row.

    Raise AnalysisRefused for a game not finished, or once `user` asked for
    ANALYSIS_REQUESTS_PER_DAY analyses in a day (staff are exempt). A game
    already queued or analysed is left as it is; a failed one is tried again.
    """
    if game.status != Game.Status.FINISHED:
        raise AnalysisRefused(_("A game can be analysed only once it has ended."))
    with transaction.atomic():
        # Counted under the account's row lock, as the fair shares are: two requests at
        # once cannot both take the day's last place.
        lock_account(user)
        return _request(game, user)


def _request(game, user):
    found = Analysis.objects.filter(game=game).first()
    if found is not None and found.status != Analysis.Status.FAILED:
        return found
    limit = settings.ANALYSIS_REQUESTS_PER_DAY
    if limit and not user.is_staff:
        since = timezone.now() - timedelta(days=1)
        if Analysis.objects.filter(requested_by=user, requested_at__gt=since).count() >= limit:
            raise AnalysisRefused(
                ngettext(
                    "You have asked for %(count)d analysis in the last day, the most one "
                    "player may. Please try again tomorrow.",
                    "You have asked for %(count)d analyses in the last day, the most one "
                    "player may. Please try again tomorrow.",
                    limit,
                )
                % {"count": limit}
            )
    fresh = {
        "status": Analysis.Status.QUEUED,
        "requested_by": user,
        "requested_at": timezone.now(),
        "worker": "",
        "claimed_at": None,
        "reached": 0,
        "judged": 0,
        "seconds": 0.0,
        "verdicts": {},
    }
    analysis, _created = Analysis.objects.update_or_create(game=game, defaults=fresh)
    return analysis


def queue_finished_games(now=None):
    """Queue the games that ended in the last ANALYSIS_AUTO_HOURS and have no analysis yet."""
    now = now or timezone.now()
    since = now - timedelta(hours=settings.ANALYSIS_AUTO_HOURS)
    games = Game.objects.filter(
        status=Game.Status.FINISHED, ended_at__gte=since, analysis__isnull=True
    ).values_list("pk", "ended_at")
    rows = [Analysis(game_id=pk, requested_at=ended_at) for pk, ended_at in games]
    Analysis.objects.bulk_create(rows, ignore_conflicts=True)
    return len(rows)


def worker_name():
    return f"{socket.gethostname()}:{os.getpid()}"[:80]


def claim(worker, now=None):
    """Return the Analysis `worker` is to work on now, claimed for it, or None.

    Its own running analysis first (one game at a time), then one whose worker
    went silent, then a queued one: of the FAIR_AMONG oldest, the one whose
    owner (who asked for it, else the game's host) this worker served longest
    ago, the oldest among equals; so one account's many games hold another's
    back by one analysis of each other account at most, as the bots' moves
    are served (games.play.bots.due_bot_seats). A claim is a conditional
    update, so two workers never take the same game.
    """
    now = now or timezone.now()
    running = Analysis.objects.filter(status=Analysis.Status.RUNNING)
    choices = [
        running.filter(worker=worker).order_by("requested_at", "pk")[:5],
        running.filter(Q(claimed_at__lt=now - STALE_AFTER) | Q(claimed_at=None)).order_by(
            "requested_at", "pk"
        )[:5],
        sorted(_firsts_queued(), key=lambda found: _turns.last_served(found.owner)),
    ]
    for choice in choices:
        for found in choice:
            taken = Analysis.objects.filter(
                pk=found.pk, status=found.status, worker=found.worker, claimed_at=found.claimed_at
            ).update(status=Analysis.Status.RUNNING, worker=worker, claimed_at=now)
            if taken:
                if found.status == Analysis.Status.QUEUED:
                    _turns.serve(found.owner)
                found.refresh_from_db()
                return found
    return None


# The queued analyses a claim chooses among, and when this worker last claimed one of each
# owner's.
FAIR_AMONG = 50
_turns = TakingTurns()


def _firsts_queued():
    """Return the oldest queued analysis of each of the FAIR_AMONG owners queued longest ago.

    An owner's many queued games take one place among the choices, not all of
    them: a claim serves every owner waiting in turn.
    """
    # Its owner: who asked for it, else the game's host (not the game's row: a game's
    # snapshot is no part of choosing).
    queued = Analysis.objects.filter(status=Analysis.Status.QUEUED).annotate(
        owner=Coalesce("requested_by_id", "game__host_id")
    )
    firsts = queued.values("owner").annotate(first=Min("requested_at")).order_by("first", "owner")
    chosen = Q(pk__in=[])
    for found in firsts[:FAIR_AMONG]:
        chosen |= Q(owner=found["owner"], requested_at=found["first"])
    return queued.filter(chosen).order_by("requested_at", "pk")


def analyse_next(now=None, worker=None, seconds=None):
    """Queue the games that ended lately, then work on one analysis for a while.

    The worker's job: return 1 if it judged anything (more may be due at
    once), else 0. `worker` names this worker (default: host and process),
    `seconds` defaults to ANALYSIS_SECONDS_PER_ROUND.
    """
    now = now or timezone.now()
    queue_finished_games(now)
    analysis = claim(worker or worker_name(), now)
    if analysis is None:
        return 0
    try:
        work_on(analysis, settings.ANALYSIS_SECONDS_PER_ROUND if seconds is None else seconds)
    except (rules.IllegalMove, ValueError, KeyError) as error:
        # The log does not replay (a position set by hand): nothing to analyse.
        log.warning("Analysis of game %s failed: %s", analysis.game_id, error)
        Analysis.objects.filter(pk=analysis.pk).update(
            status=Analysis.Status.FAILED, finished_at=timezone.now()
        )
    return 1


def work_on(analysis, seconds):
    """Judge the next decisions of `analysis` for about `seconds`; save what was found.

    Once the game's ANALYSIS_SECONDS_PER_GAME are spent its analysis is done,
    with the decisions judged so far (the first ones) and the rest unjudged.
    """
    # The round's time is all of it: a long game's log read and replayed to its next
    # decision counts as its judging does.
    start = time.perf_counter()
    game = analysis.game
    rows = list(game.moves.order_by("n").values_list("seat", "cause", "move"))
    wanted = decisions_to_judge(game, rows)
    todo = [n for n in wanted if n > analysis.reached]
    verdicts = dict(analysis.verdicts)
    reached, judged = analysis.reached, analysis.judged
    left = max(0.0, settings.ANALYSIS_SECONDS_PER_GAME - analysis.seconds)
    if todo and left:
        moves = [(seat, rules.Move.from_json(move)) for seat, _cause, move in rows]
        per_decision = min(settings.ANALYSIS_SECONDS_PER_DECISION, left / len(todo))
        heard = []

        def keep(n, verdict):
            heard.append(n)
            if verdict is not None:
                verdicts[str(n)] = verdict

        players = list(game.seats.order_by("position").values_list("user_id", flat=True))
        analyse(
            players,
            game.seed,
            game.options,
            moves,
            todo,
            game.code,
            seconds=per_decision,
            on_verdict=keep,
            stop_after=min(seconds, left) - (time.perf_counter() - start),
        )
        if heard:
            reached = heard[-1]
            judged += len(heard)
    # The game's time is a bound, not a share: a game made as long as its players liked (wild
    # switches are unlimited) is judged as far as its time goes, and the queue moves on.
    spent = time.perf_counter() - start
    out_of_time = analysis.seconds + spent >= settings.ANALYSIS_SECONDS_PER_GAME
    done = not todo or reached >= todo[-1] or out_of_time
    Analysis.objects.filter(pk=analysis.pk).update(
        status=Analysis.Status.DONE if done else Analysis.Status.RUNNING,
        decisions=len(wanted),
        reached=reached,
        judged=judged,
        verdicts=verdicts,
        seconds=analysis.seconds + spent,
        claimed_at=timezone.now(),
        finished_at=timezone.now() if done else None,
    )
