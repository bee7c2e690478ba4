"""Games, their seats and their move logs; the rules live in games/rules/ (no Django)."""

import secrets
from datetime import timedelta
from functools import cache

from django.conf import settings
from django.db import models, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

import games.models.broadcasts as broadcasts
from accounts.models import PayRule, User, Vacation
from accounts.stats import record_result
from config.links import link
from config.statements import insert, joined, save_fields
from games import rules
from games.models.notification import Notification
from games.models.signals import game_ending, move_committed
from games.rules.cards import RENT
from games.rules.state import DISCARD, PLAY, RESPOND

CODE_ALPHABET = "abcdefghijkmnopqrstuvwxyz23456789"


def new_code():
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(10))


def new_token():
    return secrets.token_urlsafe(16)


# Where new games' seeds come from: the system's randomness (the tests put a seeded
# generator here, so that every deal of a test can be dealt again: conftest.py).
SEEDS = secrets.SystemRandom()


def new_seed():
    return SEEDS.getrandbits(63)


# Timeouts in a row after which a player is marked absent and their seat played by defaults.
ABSENT_AFTER = 3
# A turn's play taken up again after the others answered one of its actions has what was left
# of its clock, and at least this share of a period (so that an answer that came late does
# not leave no time at all): held by Game._set_deadlines.
PAUSED_AT_LEAST = 0.1


class StaleBoard(Exception):
    """A move was made from a board on which its player's question has changed since.

    docs/rules.md section 11 (answers at once): a move carries the version of the
    board it was made from, and is stale only if its seat's question
    (rules.questions) changed after that version (Game.asked_versions): other
    players' answers to the same action leave it standing.
    """


class SeatingError(Exception):
    """A seat cannot be taken or given up; the message tells the player why."""


class GameQuerySet(models.QuerySet):
    def open(self):
        return self.filter(status=Game.Status.OPEN)

    def listed(self):
        """Return the open tables shown in the lobby (private ones are reached by invitation)."""
        return self.open().filter(private=False)


# What a move may change of its game's row (Game._settle saves only these).
MOVE_FIELDS = ("version", "last_move_at", "snapshot", "turn_number", "turn_deadline")
MOVE_FIELDS += ("status", "ended_at", "end_reason", "winner", "summary", "asked_versions")


class Game(models.Model):
    # The end_reason of an open table closed because nobody sat down for long
    # (games.play.clocks.close_idle_tables); the host's own cancel leaves it blank.
    IDLE = "idle"

    class Status(models.TextChoices):
        OPEN = "open", _("Open")
        ACTIVE = "active", _("In play")
        FINISHED = "finished", _("Finished")
        CANCELLED = "cancelled", _("Cancelled")

    class Pace(models.TextChoices):
        LIVE = "live", _("Live")
        CORRESPONDENCE = "correspondence", _("Correspondence")

    code = models.CharField(max_length=12, unique=True, default=new_code, editable=False)
    # PROTECT (and the seats' and chat messages'): deleting an account would take the other
    # players' games with it; an account is closed instead (games/play/closing.py).
    host = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="hosted_games"
    )
    status = models.CharField(max_length=12, choices=Status, default=Status.OPEN, db_index=True)
    seat_count = models.PositiveSmallIntegerField(default=2)
    options = models.JSONField(default=dict)  # docs/rules.md section 9
    pace = models.CharField(max_length=16, choices=Pace, default=Pace.LIVE)
    pace_seconds = models.PositiveIntegerField(default=60)  # live: per decision
    pace_days = models.PositiveSmallIntegerField(default=3)  # correspondence: per decision
    # Correspondence: extra days per player per game, spent when a deadline passes.
    reserve_days = models.PositiveSmallIntegerField(default=3)
    # Not listed in the lobby; join by invitation or link.
    private = models.BooleanField(default=False)
    share_token = models.CharField(max_length=32, default=new_token, editable=False)
    # Secret: with the options, seating and move log it reproduces the whole game.
    seed = models.BigIntegerField(default=new_seed, editable=False)
    snapshot = models.JSONField(null=True, blank=True, editable=False)
    version = models.PositiveIntegerField(default=0)
    # By seat, the version at which the seat's question (rules.questions: its decisions and
    # the cards it decides from) last changed. A move posts a version; one older than its
    # seat's is stale (Game.play), and a seat's forms are drawn again only when it changes.
    # Kept on the game's row, which every move saves anyway: no seat is written for it.
    asked_versions = models.JSONField(default=list, editable=False)
    created_at = models.DateTimeField(default=timezone.now, db_index=True)
    started_at = models.DateTimeField(null=True, blank=True)
    last_move_at = models.DateTimeField(null=True, blank=True, db_index=True)
    ended_at = models.DateTimeField(null=True, blank=True, db_index=True)
    # The earliest deadline of the decisions the game waits for (each seat has its own).
    turn_deadline = models.DateTimeField(null=True, blank=True, db_index=True)
    turn_number = models.PositiveIntegerField(default=0)  # turns begun, as in the engine
    winner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="won_games",
    )
    end_reason = models.CharField(max_length=16, blank=True)
    # Filled when the game ends: what happened, per player (games/rules/summary.py).
    summary = models.JSONField(null=True, blank=True, editable=False)
    # The table of the rematch its players asked for once it ended (see ask_rematch).
    rematch = models.OneToOneField(
        "self",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="rematch_of",
        editable=False,
    )

    objects = GameQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["status", "ended_at", "id"], name="game_end_order")]

    def __str__(self):
        return self.code

    def get_absolute_url(self):
        return link("games:table", self.code)

    # --- seating -----------------------------------------------------------------------------

    def seat_of(self, user):
        """Return the engine seat (position) of `user`, or None for a spectator."""
        if not user.is_authenticated:
            return None
        for seat in self.seats.all():
            if seat.user_id == user.id:
                return seat.position
        return None

    def join(self, user):
        """Seat `user` at the first free place; start the game when that fills the table.

        The row is locked so that two players racing for the last seat cannot
        both sit down, and nobody sits down while the table starts or closes.
        """
        with transaction.atomic():
            game = locked_game(self.pk)
            if game.status == Game.Status.CANCELLED:
                raise SeatingError(_("This table was cancelled."))
            if game.status != Game.Status.OPEN:
                raise SeatingError(_("This game has already started."))
            taken = set(game.seats.values_list("position", flat=True))
            if game.seats.filter(user=user).exists():
                return self
            if len(taken) >= game.seat_count:
                raise SeatingError(_("This table is full."))
            previous = game.rematch_of_game()
            if previous is not None and not previous.seats.filter(user=user).exists():
                raise SeatingError(_("Only the players of the previous game can join its rematch."))
            position = min(set(range(game.seat_count)) - taken)
            Seat.objects.create(game=game, user=user, position=position)
            if len(taken) + 1 == game.seat_count:
                game.start()  # broadcasts to the lobby itself
            else:
                game.seating_changed()
        self.refresh_from_db()
        return self

    def rematch_of_game(self):
        """Return the finished game this table is the rematch of (ask_rematch), or None."""
        return Game.objects.filter(rematch=self).first()

    def leave(self, user):
        """Give up `user`'s seat at a table that has not started (the host cancels instead)."""
        with transaction.atomic():
            game = locked_game(self.pk)
            if game.status != Game.Status.OPEN:
                raise SeatingError(_("The game has started: its seats can no longer be left."))
            if user.pk == game.host_id:
                raise SeatingError(_("The host cannot leave the table; cancel it instead."))
            deleted = game.seats.filter(user=user).delete()[0]
            if deleted:
                game.seating_changed(also=user.pk)
        return self

    def cancel(self, reason="", idle_since=None):
        """Close a table that has not started; `reason` is IDLE when nobody sat down for long.

        `idle_since`: the worker found nobody sat down after it, before this lock; someone
        who sat down since keeps the table open.
        """
        with transaction.atomic():
            game = locked_game(self.pk)
            if game.status != Game.Status.OPEN:
                raise SeatingError(_("Only a table that has not started can be cancelled."))
            if idle_since is not None and game.seats.filter(joined_at__gte=idle_since).exists():
                raise SeatingError(_("Someone sat down at this table meanwhile."))
            game.status = Game.Status.CANCELLED
            game.ended_at = timezone.now()
            game.end_reason = reason
            game.save(update_fields=["status", "ended_at", "end_reason"])
            game.seating_changed()
        self.refresh_from_db()
        return self

    def seating_changed(self, also=None):
        """After the commit, tell the lobby and the seated players' own pages (My tables)."""
        users = (set(self.seats.values_list("user_id", flat=True)) | {also}) - {None}
        transaction.on_commit(lambda: broadcasts.broadcast_seating(users))

    def state(self):
        """Return the engine state of a game in play (or ended)."""
        return rules.GameState.from_json(self.snapshot)

    # --- the path of one move ----------------------------------------------------------------

    @property
    def decision_time(self):
        """Return the time a player has for each decision the game waits for."""
        if self.pace == Game.Pace.CORRESPONDENCE:
            return timedelta(days=self.pace_days)
        return timedelta(seconds=self.pace_seconds)

    @property
    def starting_reserve(self):
        if self.pace == Game.Pace.CORRESPONDENCE:
            return timedelta(days=self.reserve_days)
        return timedelta(0)

    def start(self):
        """Deal the cards and begin the first turn; seats are filled in join order."""
        with transaction.atomic():
            game = locked_game(self.pk)
            if game.status != Game.Status.OPEN:
                raise ValueError("This game has already started.")
            seats = list(game.seats.order_by("position"))
            if len(seats) < 2:
                raise ValueError("A game needs at least 2 players.")
            for position, seat in enumerate(seats):
                if seat.position != position:
                    seat.position = position
                    seat.save(update_fields=["position"])
            events = []
            state = rules.new_game(
                [seat.user_id for seat in seats], game.seed, game.options, events
            )
            now = timezone.now()
            for seat in seats:
                seat.reserve = game.starting_reserve
            game.status = Game.Status.ACTIVE
            game.seat_count = len(seats)
            game.started_at = game.last_move_at = now
            game.version += 1
            game._settle(state, seats, now, _Before(None), events, fields=None)
            transaction.on_commit(broadcasts.broadcast_lobby)
        self.refresh_from_db()
        return self

    def play(self, seat, move, version=None):
        """Apply `seat`'s move (a rules.Move or its JSON) and record it; return the events.

        The game row is locked for the whole move so that two moves (two tabs, a
        timeout racing a player) are applied one after the other, each against
        the state the other left. A move made from an out-of-date board (its
        `version` older than the seat's question, `asked_at`: a seat answering
        with others at once may answer from a version they moved on from)
        raises StaleBoard and changes nothing;
        an illegal one raises rules.IllegalMove and changes nothing.
        """
        if not isinstance(move, rules.Move):
            move = rules.Move.from_json(move)
        with transaction.atomic():
            game = locked_game(self.pk)
            seats = table_seats(game)  # with their users, for the sockets' redraw
            if version is not None and not game.asked_at(seat) <= version <= game.version:
                raise StaleBoard()
            if game.status != Game.Status.ACTIVE:
                raise rules.IllegalMove(_("This game is not in play."))
            state = game.state()
            before = _Before(state)
            _state, events = rules.apply(state, seat, move)
            now = timezone.now()
            seats[seat].timeouts_in_row = 0
            if move.kind == rules.RESIGN:
                # Ruling (resign): the seat plays on as absent, for good (see come_back).
                seats[seat].absent = True
            game._record(seat, move, Move.Cause.PLAYER, now, events)
            game._settle(state, seats, now, before, events)
        self._take_fields(game)
        return events

    def asked_at(self, position):
        """Return the version at which seat `position`'s question last changed (0: never)."""
        asked = self.asked_versions or ()
        return asked[position] if position < len(asked) else 0

    def _take_fields(self, saved):
        """Become `saved`, this game's row as just saved: refresh_from_db without reading it."""
        for field in self._meta.concrete_fields:
            setattr(self, field.attname, getattr(saved, field.attname))
        self._state.fields_cache = {}
        self.__dict__.pop("_prefetched_objects_cache", None)

    def enforce_deadline(self, position, now=None):
        """Play the default move for `position` if its time (and reserve) has run out.

        Idempotent: under the game lock the deadline is read again, so a
        deadline enforced twice, or one that a player's move has just met,
        applies nothing. Return whether a move was applied.

        The clock is read under the lock (unless `now` is given): the
        deadlines this move starts count from the moment it is made and
        broadcast, not from before the moves the worker made ahead of it.
        """
        with transaction.atomic():
            game = locked_game(self.pk)
            now = now or timezone.now()
            if game.status != Game.Status.ACTIVE:
                return False
            seats = list(game.seats.all())
            seat = seats[position]
            if seat.timeout_at is None or seat.timeout_at > now:
                return False
            if game.pace == Game.Pace.CORRESPONDENCE and (
                Vacation.objects.current(now).filter(user_id=seat.user_id).exists()
            ):
                return False  # the game waits for a player on vacation
            state = game.state()
            before = _Before(state)
            events = []
            seat.timeouts_in_row += 1
            if seat.timeouts_in_row >= ABSENT_AFTER:
                seat.absent = True
            # The whole decision is defaulted, and only it (docs/rules.md section 11): a turn
            # that ends over 7 cards discards too, but an answer to a Just Say No that times
            # out does not end the turn that goes on after it.
            timed_out = _decisions(state).get(position, set())
            while not state.over and _decisions(state).get(position, set()) & timed_out:
                move = rules.default_move(state, position)
                if move is None:
                    break
                _state, more = rules.apply(state, position, move)
                events.extend(more)
                game._record(position, move, Move.Cause.TIMEOUT, now, more)
                if move.kind == "end":
                    timed_out |= _decisions(state).get(position, set())  # the discard
            game._settle(state, seats, now, before, events)
            if game.pace == Game.Pace.CORRESPONDENCE and game.status == Game.Status.ACTIVE:
                # Told, as the turn was: days later the log alone would say it. (A live
                # game's player sees it at the table; a game it ended is told as ended.)
                Notification.objects.create(
                    user_id=seat.user_id,
                    game=game,
                    kind=Notification.Kind.TIMED_OUT,
                    data={"absent": seat.absent},
                )
        self.refresh_from_db()
        return True

    def come_back(self, user, check_share=None):
        """Give an absent player their seat back: the game waits for them again.

        `check_share`, if given, is called under the game's lock before an absent seat is
        taken back, and refuses it (SeatingError) when the player holds their share.
        """
        with transaction.atomic():
            game = locked_game(self.pk)
            if game.status != Game.Status.ACTIVE:
                raise SeatingError(_("This game is not in play."))
            seat = game.seats.filter(user=user).first()
            if seat is None:
                raise SeatingError(_("You have no seat at this table."))
            if seat.position in game.state().resigned:
                raise SeatingError(
                    _("You resigned: your seat is played by the defaults to the end.")
                )
            if seat.absent:
                if check_share is not None:
                    check_share()
                seat.absent = False
                seat.timeouts_in_row = 0
                seat.save(update_fields=["absent", "timeouts_in_row"])
                game.version += 1
                game.save(update_fields=["version"])
                transaction.on_commit(game.broadcast)
        self.refresh_from_db()
        return self

    def set_standing_answers(self, user, **choices):
        """Set `user`'s standing answers for this game (None, "": as in their settings).

        `choices` are Seat fields: accept_without_jsn, pay_rule, jsn_deal_breaker.
        An answer that now applies to a decision waiting for the player is made at
        once, under the lock, so that it and the player's own click never both apply.
        Return whether one was made.
        """
        with transaction.atomic():
            game = locked_game(self.pk)
            if game.status != Game.Status.ACTIVE:
                raise SeatingError(_("This game is not in play."))
            seat = game.seats.filter(user=user).first()
            if seat is None:
                raise SeatingError(_("You have no seat at this table."))
            for name, value in choices.items():
                setattr(seat, name, value)
            seat.save(update_fields=list(choices))
            applied = game._answer_now()
        self.refresh_from_db()
        return applied

    def apply_standing_answers(self):
        """Make the answers the players' standing answers now give (after a setting changed)."""
        with transaction.atomic():
            game = locked_game(self.pk)
            applied = game._answer_now()
        self.refresh_from_db()
        return applied

    # --- inside the lock ---------------------------------------------------------------------

    def _answer_now(self):
        """Settle the game if a standing answer applies to a decision waiting now."""
        if self.status != Game.Status.ACTIVE:
            return False
        state = self.state()
        seats = list(self.seats.all())
        players = self._players(seats)
        if not any(
            rules.standing_answer(state, p, seats[p].standing(players[p]))
            for p, _decision, _share in rules.awaiting(state)
            if not (seats[p].absent or players[p].is_bot)
        ):
            return False
        self._settle(state, seats, timezone.now(), _Before(state), [])
        return True

    def _record(self, seat, move, cause, now, events):
        # The version counts the start and every move: move n is made from version n.
        row = Move(game=self, n=self.version, seat=seat, move=move.to_json(), created_at=now)
        row.cause = cause
        moved = [e for e in events if e["type"] == "move_wild"]
        if moved:
            row.details = {"from": moved[-1]["from"]}
        charged = [e for e in events if e["type"] == "play" and e["effect"] == RENT]
        if charged:
            # Its log line tells the amount without the state it was charged in.
            row.details = {"amount": charged[-1]["amount"]}
        insert(row)
        self.__dict__.setdefault("recorded", []).append(
            row
        )  # for the log (games.table.board.remember)
        self.version += 1
        self.last_move_at = now

    def _settle(self, state, seats, now, before, events, fields=MOVE_FIELDS):
        """Play what nobody needs to wait for, set the deadlines, and save the game.

        Decisions whose single legal answer shows from public cards are made at
        once (rules.public_forced_move), and so are the players' standing
        answers and the decisions of absent and resigned players (their seats play the defaults of docs/rules.md section 11);
        a game whose players are all absent ends with no winner. The game's `fields`
        are saved (None: all of them).
        """
        absent = {seat.position for seat in seats if seat.absent}
        while not state.over:
            out = absent | set(state.resigned)
            if len(out) == len(seats):
                rules.abandon(state, events)
                break
            if len(out) == len(seats) - 1:
                # Ruling (resign): one player is left who has not resigned or gone absent, and
                # wins (docs/rules.md section 7), whether the others resigned or timed out.
                # The absent are counted out by a resign move of their own, so that the log
                # replays to this end (the engine ends the game when one seat is left).
                position = min(out - set(state.resigned))
                move = rules.Move.resign()
                _state, more = rules.apply(state, position, move)
                events.extend(more)
                self._record(position, move, Move.Cause.ABSENT, now, more)
                continue
            found = None
            for position, _decision, _share in rules.awaiting(state):
                move, cause = rules.public_forced_move(state, position), Move.Cause.FORCED
                if move is None and position in out:
                    # Said "absent" whatever the hand holds: "the only possible answer" would
                    # tell the table that it holds no Just Say No (docs/rules.md section 10).
                    move = rules.forced_move(state, position) or rules.default_move(state, position)
                    cause = Move.Cause.ABSENT
                elif move is None and state.phase == RESPOND:
                    # An answer forced by the hand waits for its player (a person's standing
                    # answer, a bot's worker), exactly as a real choice would: its speed must
                    # not tell the table what the hand holds (docs/rules.md section 10). A bot
                    # answers through the worker after the same pause and thinking time
                    # whatever it holds (games.play.bots.THINKING_SECONDS).
                    user = self._players(seats)[position]
                    if not user.is_bot:
                        standing = seats[position].standing(user)
                        move = rules.standing_answer(state, position, standing)
                        cause = Move.Cause.STANDING
                if move is not None:
                    found = (position, move, cause)
                    break
            if found is None:
                break
            position, move, cause = found
            _state, more = rules.apply(state, position, move)
            events.extend(more)
            self._record(position, move, cause, now, more)
        newly_awaited = self._set_deadlines(state, seats, now, before.decisions)
        moved = {row.seat for row in self.__dict__.get("recorded", ())}
        asked = [self.asked_at(position) for position in range(len(seats))]
        for position, question in enumerate(rules.questions(state)):
            # A seat's own move changes its question too: a second click, another tab's
            # copy of the same move, is stale (docs/rules.md section 11, answers at once).
            if position in moved or before.questions.get(position) != question:
                asked[position] = self.version
        self.asked_versions = asked
        for position in newly_awaited:
            # A new decision may be reminded of again (the worker claims reminders as it
            # sends, never for a seat not yet awaited): saved with the clocks, below.
            seats[position].remind_again()
        self.snapshot = state.to_json()
        self.turn_number = state.turns
        if state.over:
            self._finish(state, seats, now)
        if fields:
            save_fields(self, fields)
        else:
            self.save()
        for seat in seats:
            seat.save_clock()
        told = Notification.for_move(self, state, seats, events, newly_awaited)
        # Whose turns or notifications changed: their pages' headers are told with the table.
        # A header's "Your turn" follows the seat's deadline (lobby.context_processors): a seat
        # still awaited, as the mover is between plays, sees no change and is not told.
        changed = {seats[p].user_id for p in newly_awaited} | told
        changed |= {
            s.user_id for s in seats if s.position in before.decisions and s.deadline is None
        }
        if state.over:
            changed |= {seat.user_id for seat in seats}
            transaction.on_commit(broadcasts.broadcast_lobby)
        transaction.on_commit(lambda: self._hand_over(seats, state, changed))

    def _hand_over(self, seats, state, users):
        """After the commit: hand the move's data to this process's sockets, then tell them.

        The handing over is games.table.board's, which listens for move_committed.
        The table's sockets and the headers of `users` (user ids) are told together.
        """
        try:
            move_committed.send(sender=Game, game=self, seats=seats, state=state)
        finally:
            self.broadcast(users)  # the sockets are told even if handing over failed

    def _players(self, seats):
        """Return {position: user} of `seats`, read once per move and only when needed."""
        players = getattr(self, "_players_cache", None)
        if players is None:
            users = {s.user_id: s.user for s in seats if Seat.user.is_cached(s)}
            if len(users) < len(seats):
                users = User.objects.in_bulk([seat.user_id for seat in seats])
            players = self._players_cache = {s.position: users[s.user_id] for s in seats}
        return players

    def _set_deadlines(self, state, seats, now, before):
        """Give each newly awaited seat a deadline; return their positions.

        A seat keeps its deadline while the decisions waiting for it were all
        waiting before (moves within one turn do not reset the clock); one that
        is new (a second Just Say No to answer) starts a fresh period. A
        decision that ends after its deadline spends the overrun from the
        seat's reserve. A turn is one decision even when the others answer one
        of its actions in between: its clock is held while they do
        (Seat.paused_left) and goes on with the time that was left when the
        turn's play resumes, never a fresh period (a tenth of a period at least,
        PAUSED_AT_LEAST); so does the discard that ends it. In a correspondence
        game, a decision that arrives while its player is on vacation starts
        when the vacation ends, and the time left of one held meanwhile is
        counted from there (a vacation pushed its deadline).
        """
        waiting = _decisions(state)
        turn_play = (state.turns, PLAY)  # the start of a decision key (_decisions)
        turn_discard = (state.turns, DISCARD)
        fresh = []
        for seat in seats:
            mine = waiting.get(seat.position, set())
            was = before.get(seat.position, set())
            if mine and seat.deadline is not None and mine <= was:
                continue
            if seat.deadline is not None:
                if any(key[:2] == turn_play for key in was) and (
                    state.phase == RESPOND or any(key[:2] == turn_discard for key in mine)
                ):
                    # The turn's play waits for the others' answers, or ends over 7 cards:
                    # hold its clock for the play to resume, or for the discard.
                    seat.paused_turn = state.turns
                    seat.paused_left = self._time_left(seat, now)
                seat.stop_clock(now)
            if mine:
                fresh.append(seat)
        back = self._back_from_vacation([seat.user_id for seat in fresh], now)
        for seat in fresh:
            period = self.decision_time
            if seat.paused_turn is not None and seat.paused_turn != state.turns:
                seat.paused_turn = seat.paused_left = None  # a turn that ended meanwhile
            elif seat.paused_turn is not None and any(
                key[:2] in (turn_play, turn_discard) for key in waiting[seat.position]
            ):
                # The turn's play resumes, or its end asks for the discard.
                period = max(seat.paused_left, period * PAUSED_AT_LEAST)
                seat.paused_turn = seat.paused_left = None
            seat.start_clock(back.get(seat.user_id, now), period)
        deadlines = [seat.deadline for seat in seats if seat.deadline is not None]
        self.turn_deadline = min(deadlines, default=None)
        return [seat.position for seat in fresh]

    def _time_left(self, seat, now):
        """Return what is left of `seat`'s running clock at `now`, a vacation's days not counted.

        A vacation pushed the deadline by its length (shift_for_vacation): while it
        lasts, the time left counts from its end.
        """
        start = self._back_from_vacation([seat.user_id], now).get(seat.user_id, now)
        return max(seat.deadline - max(now, start), timedelta(0))

    def _back_from_vacation(self, user_ids, now):
        """Return {user id: end of the vacation} of those of `user_ids` on vacation at `now`."""
        if self.pace != Game.Pace.CORRESPONDENCE or not user_ids:
            return {}  # live games are not affected by vacations
        return Vacation.objects.current(now).ends_of(user_ids)

    def shift_for_vacation(self, user, delta):
        """Move `user`'s clock in this correspondence game by `delta`, and redraw the table.

        A vacation that starts pushes the deadline of the decision the game
        waits for from the user by the vacation's length (the clock stops, the
        reserve is not spent); one ended early takes the unused part back. The
        table is redrawn either way: it shows who is on vacation. Locked like a
        move, so that no move saves a clock it read before. Return whether the
        game was changed.
        """
        with transaction.atomic():
            game = locked_game(self.pk)
            if game.status != Game.Status.ACTIVE or game.pace != Game.Pace.CORRESPONDENCE:
                return False
            seats = list(game.seats.all())
            seat = next((s for s in seats if s.user_id == user.pk), None)
            if seat is None:
                return False
            if seat.deadline is not None:
                seat.shift_clock(delta)
                seat.save_clock()
                game.turn_deadline = min(s.deadline for s in seats if s.deadline is not None)
            game.version += 1
            game.save(update_fields=["turn_deadline", "version"])
            transaction.on_commit(game.broadcast)
        self.refresh_from_db()
        return True

    def _finish(self, state, seats, now):
        self.status = Game.Status.FINISHED
        self.ended_at = now
        self.end_reason = state.end_reason
        self.turn_deadline = None
        for seat in seats:
            seat.stop_clock(now)
            seat.ended_at = now  # a player's finished games, newest first, from the seat index
            if seat.position in state.resigned:
                seat.result = Seat.Result.LOSS  # Ruling (resign): a loss, however the game ends
            elif seat.absent and seat.position != state.winner:
                # An absent player's result is a loss, even when nobody wins; but the seat is
                # still in the game (docs/rules.md section 7), and wins when the game says so:
                # the others resigned, or its sets were completed (by another's Forced Deal).
                seat.result = Seat.Result.LOSS
            elif state.winner < 0:
                seat.result = Seat.Result.DRAW
            else:
                seat.result = Seat.Result.WIN if seat.position == state.winner else Seat.Result.LOSS
            if seat.result == Seat.Result.WIN:
                self.winner_id = seat.user_id
        # The review's summary (games.history.review listens): None if nobody gives one.
        summaries = game_ending.send(sender=Game, game=self, state=state)
        self.summary = next((s for _receiver, s in summaries if s is not None), None)
        # Totals and ratings change once, with the result, in this transaction. A player who
        # resigned is absent too (Ruling (resign)), but did not abandon the game.
        chose = self.moves.filter(move__kind=rules.RESIGN, cause=Move.Cause.PLAYER)
        record_result(self, seats, resigned=set(chose.values_list("seat", flat=True)))

    def broadcast(self, users=()):
        """Tell every socket of this game that a new version exists (ids only, no cards).

        And the pages of `users` (user ids) that their turns or notifications changed.
        """
        game = (broadcasts.group_name(self.code), {"type": "game.updated", "version": self.version})
        broadcasts.send_to_groups([game, *broadcasts.user_updates(users)])

    # --- after the game ------------------------------------------------------------------------

    def ask_rematch(self, user):
        """Ask for a rematch of this finished game, or accept one asked for; return its table.

        The first player to ask opens a private table with the same seat count,
        options and pace, which they host; every player who asks (accepts) takes
        a seat there, and the computer players of this game accept at once. The
        table starts when it is full (Game.join), and only this game's players
        may sit at it. This game's row is locked so that two players asking at
        once open one table, not two.
        """
        with transaction.atomic():
            game = locked_game(self.pk)
            if game.status != Game.Status.FINISHED:
                raise SeatingError(_("A rematch can be asked for only once the game is over."))
            seats = list(game.seats.select_related("user"))
            if user.pk not in {seat.user_id for seat in seats}:
                raise SeatingError(_("Only the players of this game can ask for a rematch."))
            table = game.rematch
            joining = [user]
            opened = table is None or table.status == Game.Status.CANCELLED
            if opened:
                table = Game.objects.create(
                    host=user,
                    seat_count=game.seat_count,
                    options=rules.new_table_options(game.options),
                    pace=game.pace,
                    pace_seconds=game.pace_seconds,
                    pace_days=game.pace_days,
                    reserve_days=game.reserve_days,
                    private=True,
                )
                game.rematch = table
                joining += [seat.user for seat in seats if seat.user.bot_level]
            seated = set() if opened else set(table.seats.values_list("user_id", flat=True))
            if table.status != Game.Status.OPEN:
                joining = []  # the rematch has started: nobody sits down any more
            joining = [player for player in joining if player.pk not in seated]
            for player in joining:
                table.join(player)  # the last one to sit down starts the game
            # The game-over area of every player shows who accepted: draw it again, but
            # only when someone did (asking again changes nothing and tells nobody).
            if opened or joining:
                game.version += 1
                game.save(update_fields=["rematch", "version"])
                transaction.on_commit(game.broadcast)
        table.refresh_from_db()
        self.refresh_from_db()
        return table

    def counted_out(self):
        """Return the seats the site counted out as absent (not resigned by their player).

        The engine knows them as resigned (Ruling (resign), docs/rules.md section 7): the
        log tells them apart, by the cause of their resign move. Empty unless the game
        ended so.
        """
        if self.end_reason != rules.RESIGNED:
            return frozenset()
        return frozenset(
            self.moves.filter(cause=Move.Cause.ABSENT, move__kind=rules.RESIGN).values_list(
                "seat", flat=True
            )
        )

    def replay(self):
        """Rebuild the game from its seed, options, seating and move log."""
        seats = [seat.user_id for seat in self.seats.order_by("position")]
        moves = [(m.seat, rules.Move.from_json(m.move)) for m in self.moves.order_by("n")]
        state = rules.replay(seats, self.seed, self.options, moves)
        if self.end_reason == "abandoned":
            rules.abandon(state)  # every player went absent: no move records that
        return state


class _Before:
    """What a game waited for, and what each seat was asked, before a move's changes."""

    __slots__ = ("decisions", "questions")

    def __init__(self, state):
        self.decisions = _decisions(state) if state is not None else {}
        self.questions = dict(enumerate(rules.questions(state))) if state is not None else {}


def _decisions(state):
    """Return {seat: {decision keys}} of what the game waits for.

    A key names one decision: the turn, its kind, the share it answers and the
    number of Just Say No on that share, so that a new decision never keeps
    the clock of an old one.
    """
    found = {}
    for seat, decision, share in rules.awaiting(state):
        jsn = state.pending.shares[share].jsn if share >= 0 else 0
        found.setdefault(seat, set()).add((state.turns, decision, share, jsn))
    return found


_DEFERRED = object()


class Seat(models.Model):
    class Result(models.TextChoices):
        WIN = "win", _("Won")
        LOSS = "loss", _("Lost")
        DRAW = "draw", _("No winner")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="seats"
    )
    position = models.PositiveSmallIntegerField()
    result = models.CharField(max_length=8, choices=Result, blank=True)
    joined_at = models.DateTimeField(default=timezone.now)
    # The clock of the decision the game waits for from this seat (all None when none).
    awaited_since = models.DateTimeField(null=True, blank=True)
    deadline = models.DateTimeField(null=True, blank=True, db_index=True)
    timeout_at = models.DateTimeField(null=True, blank=True, db_index=True)  # with the reserve
    reserve = models.DurationField(default=timedelta(0))
    ended_at = models.DateTimeField(null=True, blank=True)  # the game's, once finished: lists
    timeouts_in_row = models.PositiveSmallIntegerField(default=0)
    absent = models.BooleanField(default=False)
    # The turn clock held while the others answer an action of this seat's turn: the
    # turn (engine's count) and the time that was left, taken up again when its play resumes.
    paused_turn = models.PositiveIntegerField(null=True, blank=True)
    paused_left = models.DurationField(null=True, blank=True)
    # Emails: the last time the player opened the table, and what they were told.
    seen_at = models.DateTimeField(null=True, blank=True)
    reminded = models.BooleanField(default=False)
    emailed_turn = models.PositiveIntegerField(null=True, blank=True)
    # This game's standing answers, overriding the player's settings (None, "": as set there).
    accept_without_jsn = models.BooleanField(null=True, blank=True)
    pay_rule = models.CharField(max_length=8, choices=PayRule, blank=True, default="")
    jsn_deal_breaker = models.BooleanField(null=True, blank=True)

    # What a move may change, saved by save_clock. seen_at and the email fields are written
    # by conditional updates elsewhere (the table view, the worker) and never here.
    CLOCK_FIELDS = [
        "awaited_since",
        "deadline",
        "timeout_at",
        "reserve",
        "timeouts_in_row",
        "absent",
        "result",
        "ended_at",
        "reminded",
        "paused_turn",
        "paused_left",
    ]

    class Meta:
        ordering = ["position"]
        constraints = [
            models.UniqueConstraint(fields=["game", "user"], name="one_seat_per_user"),
            models.UniqueConstraint(fields=["game", "position"], name="one_user_per_seat"),
        ]
        indexes = [models.Index(fields=["user", "ended_at", "game"], name="seat_history")]

    def __str__(self):
        return f"{self.game_id}:{self.position}"

    @classmethod
    def from_db(cls, db, field_names, values, **kwargs):
        seat = super().from_db(db, field_names, values, **kwargs)
        seat._loaded_clock = seat._clock()
        return seat

    def _clock(self):
        # Read from __dict__: a deferred field is not fetched (and never counts as changed).
        return {name: self.__dict__.get(name, _DEFERRED) for name in self.CLOCK_FIELDS}

    def save_clock(self):
        """Write the clock fields changed since the seat was read, in one query (none if none).

        A move changes the clocks of one or two seats: updating only those is much
        cheaper than a bulk_update of every seat's every clock field.
        """
        loaded = getattr(self, "_loaded_clock", None)
        now = self._clock()
        changed = {
            name: value
            for name, value in now.items()
            if value is not _DEFERRED and (loaded is None or loaded[name] != value)
        }
        if changed:
            save_fields(self, list(changed))
        self._loaded_clock = now

    def remind_again(self):
        """Let the worker remind of this seat's new decision: `reminded` is written even if it
        was read False, since the worker may have claimed the last decision's reminder (its
        UPDATE does not wait for the game's lock) after this seat was read."""
        self.reminded = False
        if getattr(self, "_loaded_clock", None) is not None:
            self._loaded_clock = {**self._loaded_clock, "reminded": None}

    def start_clock(self, now, period):
        self.awaited_since = now
        self.deadline = now + period
        self.timeout_at = self.deadline + self.reserve

    def shift_clock(self, delta):
        """Move the clock of the decision waiting for this seat by `delta` (a vacation)."""
        self.awaited_since += delta
        self.deadline += delta
        self.timeout_at += delta

    def stop_clock(self, now):
        """End the clock of a decision; time past the deadline comes out of the reserve."""
        if self.deadline is not None and now > self.deadline:
            self.reserve = max(self.reserve - (now - self.deadline), timedelta(0))
        self.awaited_since = self.deadline = self.timeout_at = None

    def standing(self, user):
        """Return this seat's standing answers: the game's own choices, else `user`'s settings."""
        return rules.Standing(
            accept_without_jsn=user.accept_without_jsn
            if self.accept_without_jsn is None
            else self.accept_without_jsn,
            pay_rule=self.pay_rule or user.pay_rule,
            jsn_deal_breaker=user.jsn_deal_breaker
            if self.jsn_deal_breaker is None
            else self.jsn_deal_breaker,
        )

    @property
    def in_reserve(self):
        """Return whether the regular time has run out and the reserve is being spent."""
        return self.deadline is not None and timezone.now() > self.deadline


class Move(models.Model):
    """One entry of a game's move log: enough, with the seed, to rebuild the game."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="moves")
    n = models.PositiveIntegerField()
    seat = models.PositiveSmallIntegerField()

    class Cause(models.TextChoices):
        PLAYER = "", _("Played")
        FORCED = "forced", _("Only possible answer")
        TIMEOUT = "timeout", _("Timed out")
        ABSENT = "absent", _("Absent player")
        STANDING = "standing", _("Standing answer")

    move = models.JSONField()
    # What the move's log line tells that its JSON does not hold, public when it was made:
    # a wild's colour before it was moved ({"from": colour}), a rent's amount ({"amount": M}).
    # None for most moves.
    details = models.JSONField(null=True, blank=True, default=None)
    # Who chose the move: the player, or the site for them (docs/rules.md section 11).
    cause = models.CharField(max_length=8, choices=Cause, blank=True, default=Cause.PLAYER)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["n"]
        constraints = [models.UniqueConstraint(fields=["game", "n"], name="one_move_per_number")]

    def __str__(self):
        return f"{self.game_id}#{self.n}"


class Checkpoint(models.Model):
    """The engine state of a finished game before move `n`, every few moves, for its review."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="checkpoints")
    n = models.PositiveIntegerField()  # the number of moves applied (0: the deal)
    state = models.JSONField()

    class Meta:
        ordering = ["n"]
        constraints = [models.UniqueConstraint(fields=["game", "n"], name="one_checkpoint_per_n")]

    def __str__(self):
        return f"{self.game_id}@{self.n}"


class Invitation(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="invitations")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="invitations"
    )
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    # The invitee said no (lobby.views.decline): off their home page, and not sent again.
    declined_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "user"], name="one_invitation_per_user")
        ]

    def __str__(self):
        return f"{self.game_id}:{self.user_id}"


# --- a move's reads, each statement written once per process (config/statements.py) -------------
# Through the ORM, building and compiling them cost several times what running
# them does (0.5 ms of CPU for the game's row against 0.1; the seats and users
# of a table of four, 1.3 ms). The move's writes are config.statements'
# `save_fields` and `insert`, which write a row as the ORM's save does.


@cache
def column_names(model, leave=()):
    """The names of `model`'s columns but `leave`'s (read once: the statements are compiled once)."""
    return tuple(f.name for f in model._meta.concrete_fields if f.name not in leave)


def locked_game(pk):
    """Return game `pk` locked for the move's transaction (select_for_update), or DoesNotExist."""
    found = joined(
        "a move's locked game",
        lambda pk: Game.objects.select_for_update().filter(pk=pk),
        (pk,),
        Game,
        column_names(Game),
        {},
    )
    if not found:
        raise Game.DoesNotExist("Game matching query does not exist.")
    return found[0]


def table_seats(game):
    """Return `game`'s seats in order, each with its user and `game` cached, as game.seats gives."""
    seats = joined(
        "a table's seats",
        lambda game_id: Seat.objects.filter(game_id=game_id).order_by("position"),
        (game.pk,),
        Seat,
        column_names(Seat),
        {"user": (User, column_names(User))},
    )
    for seat in seats:
        Seat.game.field.set_cached_value(seat, game)
    return seats
