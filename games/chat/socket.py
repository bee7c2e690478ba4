"""The chat's and presence's part of the game socket (mixed into games.live.consumers.GameConsumer).

Only ids travel through the channel layer: "chat.message" carries a message's
id, "presence.changed" nothing. Each socket reads the message and sends it
only if its own user may read it (games/chat/messages.py: the room, their blocks and
their switch): the players' sockets never receive the spectators' chat while
the game runs, and a blocker's socket never receives the blocked user's
messages.

A player's page shows only the players' chat while the game runs; when the
game ends (or the socket opens on an ended game, which the page may have
been drawn before) the socket sends that player both rooms at once, and a
message of a room the page does not show yet is never sent (htmx would find
no target for it).

Presence is counted per socket (games/chat/presence.py): a player is here while
one of their sockets on the game is open. A socket draws the presence list at
most once every PRESENCE_SECONDS, however many arrivals and departures it
hears meanwhile: a player closing and opening a socket again and again would
otherwise have every socket of the table read the list each time.
"""

import secrets
import time
from urllib.parse import parse_qs

from django.utils import timezone, translation

from games.chat import messages as chat, presence
from games.chat.panel import new_message_html, presence_html, rooms_html
from games.models import Game, Seat, group_send

PRESENCE_SECONDS = 1.0


class ChatSocket:
    presence_key = None
    presence_drawn = frozenset()
    presence_drawn_at = float("-inf")
    presence_due = False  # a drawing of the presence list is on its way
    chat_seat = None
    chat_seat_final = False  # the game had started: its seats are its players' to the end
    # The rooms the page shows (a new message of another room has no list to go into).
    chat_rooms = ()

    def websocket_connect(self, message):
        super().websocket_connect(message)
        if self.accepted and getattr(self, "group", None):
            self.chat_connect()

    def websocket_disconnect(self, message):
        self.chat_disconnect()
        super().websocket_disconnect(message)

    def socket_check(self, event):
        super().socket_check(event)
        if self.presence_key:
            presence.renew(self.presence_key, self.presence_token)

    def chat_connect(self):
        game = Game.objects.filter(code=self.code).first()
        self.chat_seat = self.seat_now()
        self.chat_seat_final = bool(game) and game.status != Game.Status.OPEN
        self.chat_rooms = chat.readable_rooms(game, self.chat_seat) if game else []
        if self.chat_seat is not None:
            if game.status == Game.Status.FINISHED:
                self.send_all_rooms(game)
            self.presence_token = secrets.token_hex(8)
            self.presence_key, arrived = presence.arrive(
                self.code, self.user.pk, self.presence_token
            )
            if arrived:  # another tab of a player already here changes nothing the others see
                self.announce_presence()
        if game:
            # The page was drawn with the others as they were then (its socket's ?here=): one
            # who arrived or left before this socket joined the game's group was announced
            # to the others only. Without it, the page is taken to show them as they are.
            here = self.players_here(game)
            self.presence_drawn = self.page_presence(here)
            if self.presence_drawn != here:
                self.presence_draw({})

    def page_presence(self, here):
        """Return the ids the page shows here (its socket's ?here=), else `here`."""
        query = parse_qs(self.scope.get("query_string", b"").decode("latin-1"))
        try:
            return {int(i) for i in query["here"][0].split(",") if i}
        except (KeyError, ValueError):
            return here

    def chat_disconnect(self):
        if not self.presence_key:
            return
        gone = presence.leave(self.code, self.user.pk, self.presence_key, self.presence_token)
        self.presence_key = None
        # "Last seen" of correspondence games: the moment the table was closed.
        Seat.objects.filter(game__code=self.code, user_id=self.user.pk).update(
            seen_at=timezone.now()
        )
        if gone:
            self.announce_presence()

    def board_sent(self, game):
        """Open the spectators' chat on a player's page once the game has ended."""
        if self.chat_seat is None or chat.ChatMessage.Room.SPECTATORS in self.chat_rooms:
            return
        if game.status == Game.Status.FINISHED:
            self.send_all_rooms(game)

    def send_all_rooms(self, game):
        """Send this socket's page every room its user reads now (the players' page at the end)."""
        self.chat_rooms = chat.readable_rooms(game, self.chat_seat)
        with translation.override(self.language()):
            html = rooms_html(game, self.user, self.chat_seat)
        if html:
            self.send(text_data=html)

    def announce_presence(self):
        group_send(self.group, {"type": "presence.changed"})

    def presence_heard(self):
        """On the event loop, for a "presence.changed": return False to have it drawn now.

        Drawn now (presence_changed, in its turn among the socket's messages) unless the
        list was drawn less than PRESENCE_SECONDS ago: then once that time is up, for
        every change heard meanwhile; return True.
        """
        if self.presence_due:
            return True
        wait = self.presence_drawn_at + PRESENCE_SECONDS - time.monotonic()
        if wait <= 0:
            return False
        self.presence_due = True
        self.after(wait, {"type": "presence.draw"})
        return True

    def presence_changed(self, event):
        self.presence_draw(event)

    def presence_draw(self, event):
        """Send the presence list if it has changed since this socket last drew it."""
        self.presence_due = False  # a change heard from now on is drawn again
        self.presence_drawn_at = time.monotonic()
        game = Game.objects.filter(code=self.code).first()
        if game is None or not self.still_allowed(game):  # GameConsumer's
            return
        here = self.players_here(game)
        if here == self.presence_drawn:
            return
        self.presence_drawn = here
        with translation.override(self.language()):
            self.send(text_data=presence_html(game, here))

    def reading_seat(self, game):
        """Return the user's seat at `game` now: before the start it may have been left or taken."""
        if not self.chat_seat_final:
            self.chat_seat = self.seat_now()
            self.chat_seat_final = game.status != Game.Status.OPEN
        return self.chat_seat

    def seat_now(self):
        return (
            Seat.objects.filter(game__code=self.code, user_id=self.user.pk)
            .values_list("position", flat=True)
            .first()
        )

    def players_here(self, game):
        return presence.present(game.code, game.seats.values_list("user_id", flat=True))

    def chat_message(self, event):
        message = (
            chat.ChatMessage.objects.select_related("game", "user")
            .filter(pk=event.get("id"), game__code=self.code)
            .first()
        )
        if message is None or message.room not in self.chat_rooms:
            return
        if not self.still_allowed(message.game):  # GameConsumer's: a private table left
            return
        if not chat.may_read(message, message.game, self.user, self.reading_seat(message.game)):
            return
        with translation.override(self.language()):
            self.send(text_data=new_message_html(message, self.user.pk))
