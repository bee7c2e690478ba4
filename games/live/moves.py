"""Moves sent over the game socket (mixed into games.live.consumers.GameConsumer).

A page with its socket open sends its move forms over it (htmx-ext-ws's
`ws-send`: the form's fields as JSON) instead of posting them: no HTTP
parsing, middleware or session read, and no answer drawn besides the
broadcast's. The move takes the path of the POST (games/views.py `move`):
the same seat lookup, `parse_move` and `Game.play`, so everything behind
`Game.play` (notifications, standing answers, the worker, the broadcast after
commit) happens alike. A move made sends nothing more: the broadcast redraws
every socket, this one included. A refused one is told to this socket alone,
in the page's flash (the fragment the POST's answer fills with its messages).

Every move reads the socket's session again (games/live/sockets.py session_lasts):
a session that ended (a logout, a password changed elsewhere) makes no move,
and its socket is closed with SESSION_ENDED at once.

A hostile page may send anything: a message over MAX_MESSAGE_CHARS, not JSON
or not an object is ignored; over settings.MOVES_PER_SECOND a user's
messages are dropped before they cost a query (games.views.over_move_bound: a
sliding window per user in the process's memory, shared by all of the user's
sockets there and their posted moves), and the refusal is told once per flood
on each socket.
"""

import json
import logging

from django.contrib.messages import constants
from django.contrib.messages.storage.base import Message
from django.db import InterfaceError, OperationalError
from django.utils import translation
from django.utils.datastructures import MultiValueDict
from django.utils.translation import gettext as _

from config.middleware import database_unavailable_message
from games import rules
from games.live.sockets import SESSION_ENDED, session_lasts
from games.models import Game, StaleBoard
from games.table.board import flash_fragment
from games.views import BadMove, find_seat, illegal_move_message, over_move_bound, parse_move

log = logging.getLogger(__name__)

MAX_MESSAGE_CHARS = 8 * 1024


class SocketMoves:
    flashed = False  # the page's flash shows a refusal, to be emptied by the next move made
    throttled = False  # the refusal of this flood was told
    # (game id, seat position) of this socket's user, kept once the game has started: until
    # then the seat may be left, taken by another or renumbered (Game.start closes the gaps).
    mover = None

    def receive(self, text_data=None, bytes_data=None):
        """Make the move a page sent; ignore anything that is not one."""
        if not self.group or text_data is None or len(text_data) > MAX_MESSAGE_CHARS:
            return
        if self.flooding():
            return
        try:
            data = json.loads(text_data)
        except ValueError:
            return
        if not isinstance(data, dict):
            return
        data.pop("HEADERS", None)  # htmx's request headers: the socket knows who is asking
        with translation.override(self.language()):
            try:
                self.make_move(data)
            except (OperationalError, InterfaceError):
                # The database restarting: the move's transaction was rolled back whole.
                log.warning("A socket's move found the database unavailable", exc_info=True)
                self.flash(database_unavailable_message())

    def flooding(self):
        """Count this message; tell the refusal once if it is over MOVES_PER_SECOND."""
        # Only a logged-in user's socket is open (GameConsumer.connect).
        if over_move_bound(self.user.pk):
            if not self.throttled:
                self.throttled = True
                with translation.override(self.language()):
                    self.flash(_("Too many moves at once: wait a moment, then try again."))
            return True
        self.throttled = False
        return False

    def make_move(self, data):
        if not session_lasts(self.scope):
            # Logged out, or the password changed elsewhere: no move is taken from the
            # session that ended, not even before the socket's next check closes it.
            self.close(code=SESSION_ENDED)
            return
        mover = self.mover
        if mover is None:
            found = find_seat(self.code, self.user)
            if found is None:
                self.flash(_("Only the players at this table can make moves."))
                return
            mover = (found.game_id, found.position)
            if found.game.status != Game.Status.OPEN:
                # A started game's seats are its players' to the end: found once per socket.
                self.mover = mover
        game_id, position = mover
        try:
            chosen, version = parse_move(posted_fields(data))
        except BadMove as e:
            self.flash(str(e))
            return
        try:
            # Game.play reads (and locks) the row itself: the game is known by its id alone.
            Game.from_db(None, ["id"], [game_id]).play(position, chosen, version=version)
        except StaleBoard:
            self.shown = None  # the whole board, as the POST's answer draws it
            self.send_board()
            self.flash(
                _("The board has changed since you saw it; here is the current one."),
                constants.WARNING,
            )
        except rules.IllegalMove as e:
            self.flash(illegal_move_message(e))
        else:
            if self.flashed:
                self.flash(None)

    def flash(self, text, level=constants.ERROR):
        """Show `text` in this page's flash (None: empty it)."""
        shown = [] if text is None else [Message(level, text)]
        self.flashed = bool(shown)
        self.send(text_data=flash_fragment(shown))


def posted_fields(data):
    """Return a message's fields as a form's: each value a string, a list for a repeated field."""
    fields = MultiValueDict()
    for name, value in data.items():
        for item in value if isinstance(value, list) else [value]:
            fields.appendlist(str(name), item if isinstance(item, str) else json.dumps(item))
    return fields
