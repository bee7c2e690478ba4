"""Games, their seats and their move logs; the rules live in games/rules/ (no Django)."""

import secrets

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import models, transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games import rules

CODE_ALPHABET = "abcdefghijkmnopqrstuvwxyz23456789"


def new_code():
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(10))


def new_token():
    return secrets.token_urlsafe(16)


def new_seed():
    return secrets.randbits(63)


def group_name(code):
    """Return the channel-layer group of one game's sockets."""
    return f"game-{code}"


LOBBY_GROUP = "lobby"


class StaleBoard(Exception):
    """A move was made from a board that has changed since it was drawn."""


class SeatingError(Exception):
    """A seat cannot be taken or given up; the message tells the player why."""


class GameQuerySet(models.QuerySet):
    def open(self):
        return self.filter(status=Game.Status.OPEN)

    def for_user(self, user):
        return self.filter(seats__user=user)

    def listed(self):
        """Return the open tables shown in the lobby (private ones are reached by invitation)."""
        return self.open().filter(private=False)


class Game(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", _("Open")
        ACTIVE = "active", _("In play")
        FINISHED = "finished", _("Finished")
        CANCELLED = "cancelled", _("Cancelled")

    class Pace(models.TextChoices):
        LIVE = "live", _("Live")
        CORRESPONDENCE = "correspondence", _("Correspondence")

    code = models.CharField(max_length=12, unique=True, default=new_code, editable=False)
    host = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="hosted_games"
    )
    status = models.CharField(max_length=12, choices=Status, default=Status.OPEN, db_index=True)
    seat_count = models.PositiveSmallIntegerField(default=2)
    options = models.JSONField(default=dict)  # RULES.md section 9
    pace = models.CharField(max_length=16, choices=Pace, default=Pace.LIVE)
    pace_seconds = models.PositiveIntegerField(default=60)  # live: per decision
    pace_days = models.PositiveSmallIntegerField(default=3)  # correspondence: per decision
    private = models.BooleanField(
        default=False
    )  # not listed in the lobby; join by invitation or link
    share_token = models.CharField(max_length=32, default=new_token, editable=False)
    # Secret: with the options, seating and move log it reproduces the whole game.
    seed = models.BigIntegerField(default=new_seed, editable=False)
    snapshot = models.JSONField(null=True, blank=True, editable=False)
    version = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(default=timezone.now, db_index=True)
    started_at = models.DateTimeField(null=True, blank=True)
    last_move_at = models.DateTimeField(null=True, blank=True, db_index=True)
    ended_at = models.DateTimeField(null=True, blank=True, db_index=True)
    turn_deadline = models.DateTimeField(null=True, blank=True, db_index=True)
    winner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="won_games",
    )
    end_reason = models.CharField(max_length=16, blank=True)

    objects = GameQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at"]

    def __str__(self):
        return self.code

    def get_absolute_url(self):
        return reverse("games:table", args=[self.code])

    # --- seating -----------------------------------------------------------------------------

    def seat_of(self, user):
        """Return the engine seat (position) of `user`, or None for a spectator."""
        if not user.is_authenticated:
            return None
        for seat in self.seats.all():
            if seat.user_id == user.id:
                return seat.position
        return None

    @property
    def is_full(self):
        return self.seats.count() >= self.seat_count

    def join(self, user):
        """Seat `user` at the first free place; start the game when that fills the table.

        The row is locked so that two players racing for the last seat cannot
        both sit down, and nobody sits down while the table starts or closes.
        """
        with transaction.atomic():
            game = Game.objects.select_for_update().get(pk=self.pk)
            if game.status == Game.Status.CANCELLED:
                raise SeatingError(_("This table was cancelled."))
            if game.status != Game.Status.OPEN:
                raise SeatingError(_("This game has already started."))
            taken = set(game.seats.values_list("position", flat=True))
            if game.seats.filter(user=user).exists():
                return self
            if len(taken) >= game.seat_count:
                raise SeatingError(_("This table is full."))
            position = min(set(range(game.seat_count)) - taken)
            Seat.objects.create(game=game, user=user, position=position)
            if len(taken) + 1 == game.seat_count:
                game.start()  # broadcasts to the lobby itself
            else:
                transaction.on_commit(broadcast_lobby)
        self.refresh_from_db()
        return self

    def leave(self, user):
        """Give up `user`'s seat at a table that has not started (the host cancels instead)."""
        with transaction.atomic():
            game = Game.objects.select_for_update().get(pk=self.pk)
            if game.status != Game.Status.OPEN:
                raise SeatingError(_("The game has started: its seats can no longer be left."))
            if user.pk == game.host_id:
                raise SeatingError(_("The host cannot leave the table; cancel it instead."))
            deleted = game.seats.filter(user=user).delete()[0]
            if deleted:
                transaction.on_commit(broadcast_lobby)
        return self

    def cancel(self):
        """Close a table that has not started."""
        with transaction.atomic():
            game = Game.objects.select_for_update().get(pk=self.pk)
            if game.status != Game.Status.OPEN:
                raise SeatingError(_("Only a table that has not started can be cancelled."))
            game.status = Game.Status.CANCELLED
            game.ended_at = timezone.now()
            game.save(update_fields=["status", "ended_at"])
            transaction.on_commit(broadcast_lobby)
        self.refresh_from_db()
        return self

    def state(self):
        """Return the engine state of a game in play (or ended)."""
        return rules.GameState.from_json(self.snapshot)

    # --- the path of one move ----------------------------------------------------------------

    def start(self):
        """Deal the cards and begin the first turn; seats are filled in join order."""
        with transaction.atomic():
            game = Game.objects.select_for_update().get(pk=self.pk)
            if game.status != Game.Status.OPEN:
                raise ValueError("This game has already started.")
            seats = list(game.seats.order_by("position"))
            if len(seats) < 2:
                raise ValueError("A game needs at least 2 players.")
            for position, seat in enumerate(seats):
                if seat.position != position:
                    seat.position = position
                    seat.save(update_fields=["position"])
            state = rules.new_game([seat.user_id for seat in seats], game.seed, game.options)
            now = timezone.now()
            game.snapshot = state.to_json()
            game.status = Game.Status.ACTIVE
            game.seat_count = len(seats)
            game.started_at = game.last_move_at = now
            game.version += 1
            game.save()
            transaction.on_commit(game.broadcast)
            transaction.on_commit(broadcast_lobby)
        self.refresh_from_db()
        return self

    def play(self, seat, move, version=None, timeout=False):
        """Apply `seat`'s move (a rules.Move or its JSON) and record it; return the events.

        The game row is locked for the whole move so that two moves (two tabs, a
        timeout racing a player) are applied one after the other, each against
        the state the other left. A move made from an out-of-date board (its
        `version` is not the current one) raises StaleBoard and changes nothing;
        an illegal one raises rules.IllegalMove and changes nothing.
        """
        if not isinstance(move, rules.Move):
            move = rules.Move.from_json(move)
        with transaction.atomic():
            game = Game.objects.select_for_update().get(pk=self.pk)
            if version is not None and version != game.version:
                raise StaleBoard()
            if game.status != Game.Status.ACTIVE:
                raise rules.IllegalMove(_("This game is not in play."))
            state = game.state()
            _state, events = rules.apply(state, seat, move)
            now = timezone.now()
            # The version counts the start and every move: move n is made from version n.
            game.moves.create(
                n=game.version,
                seat=seat,
                move=move.to_json(),
                timeout=timeout,
                created_at=now,
            )
            game.snapshot = state.to_json()
            game.version += 1
            game.last_move_at = now
            if state.over:
                game._finish(state, now)
            game.save()
            transaction.on_commit(game.broadcast)
            if state.over:
                transaction.on_commit(broadcast_lobby)
        self.refresh_from_db()
        return events

    def _finish(self, state, now):
        self.status = Game.Status.FINISHED
        self.ended_at = now
        self.end_reason = state.end_reason
        seats = list(self.seats.all())
        for seat in seats:
            if state.winner < 0:
                seat.result = Seat.Result.DRAW
            else:
                seat.result = Seat.Result.WIN if seat.position == state.winner else Seat.Result.LOSS
            seat.save(update_fields=["result"])
            if seat.position == state.winner:
                self.winner_id = seat.user_id

    def broadcast(self):
        """Tell every socket of this game that a new version exists (ids only, no cards)."""
        layer = get_channel_layer()
        async_to_sync(layer.group_send)(
            group_name(self.code), {"type": "game.updated", "version": self.version}
        )

    def replay(self):
        """Rebuild the game from its seed, options, seating and move log."""
        seats = [seat.user_id for seat in self.seats.order_by("position")]
        moves = [(m.seat, rules.Move.from_json(m.move)) for m in self.moves.order_by("n")]
        return rules.replay(seats, self.seed, self.options, moves)


def broadcast_lobby():
    layer = get_channel_layer()
    async_to_sync(layer.group_send)(LOBBY_GROUP, {"type": "lobby.updated"})


class Seat(models.Model):
    class Result(models.TextChoices):
        WIN = "win", _("Won")
        LOSS = "loss", _("Lost")
        DRAW = "draw", _("No winner")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="seats"
    )
    position = models.PositiveSmallIntegerField()
    result = models.CharField(max_length=8, choices=Result, blank=True)
    joined_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["position"]
        constraints = [
            models.UniqueConstraint(fields=["game", "user"], name="one_seat_per_user"),
            models.UniqueConstraint(fields=["game", "position"], name="one_user_per_seat"),
        ]

    def __str__(self):
        return f"{self.game_id}:{self.position}"


class Move(models.Model):
    """One entry of a game's move log: enough, with the seed, to rebuild the game."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="moves")
    n = models.PositiveIntegerField()
    seat = models.PositiveSmallIntegerField()
    move = models.JSONField()
    timeout = models.BooleanField(default=False)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["n"]
        constraints = [models.UniqueConstraint(fields=["game", "n"], name="one_move_per_number")]

    def __str__(self):
        return f"{self.game_id}#{self.n}"


class Invitation(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="invitations")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="invitations"
    )
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "user"], name="one_invitation_per_user")
        ]

    def __str__(self):
        return f"{self.game_id}:{self.user_id}"
