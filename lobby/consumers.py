"""The lobby sockets: the open tables list, one waiting room, and a user's header badges.

Only logged-in users get a lobby socket: anonymous visitors see the lists as
the page drew them (a hostile visitor could otherwise open thousands, each
drawn again at every change).

The open tables list (ws/lobby/) is kept by this process's hub, on the event
loop, for all its sockets: at most once per LOBBY_RENDER_SECONDS (1 by
default; the first change at once, the rest of a burst at the end of the
interval) it reads the first page once, compares it with the page its
sockets show, draws the rows that changed once per language, and sends each
socket only those: new rows, rows to delete, rows whose seats changed
(`Listing`). A socket's user differs from the others only by the tables they
sit at ("Your table" instead of "Join") and their CSRF token, both put in as
the frame is sent, without drawing anything. Sending happens on the event
loop a batch at a time: a thousand sockets cost the process's one thread for
synchronous code (where the moves are made) one read and a few drawings, not
a thousand.

A waiting room (ws/lobby/<code>/) is drawn by its own socket, at most once
per interval.
"""

import asyncio
import contextvars
import logging
import re
import time
from dataclasses import dataclass
from functools import partial
from urllib.parse import parse_qs

from asgiref.sync import sync_to_async
from channels.generic.websocket import WebsocketConsumer
from channels.layers import get_channel_layer
from django.conf import settings
from django.http import HttpRequest
from django.middleware.csrf import get_token
from django.template.loader import render_to_string
from django.utils import translation

from games.live.sockets import LAYER_ERRORS, SelfChecking, check_period, slot_seconds
from games.models import LOBBY_GROUP, Game, Seat, user_group
from games.models.broadcasts import within_bound
from games.play.clocks import host_waiting
from lobby.context_processors import NavCounts
from lobby.views import invited, listed_tables, may_see, my_tables, room_context

log = logging.getLogger(__name__)

# Sockets sent to between two yields of the event loop, and the longest pause between two batches.
SEND_BATCH = 50
MAX_PAUSE = 0.02
# Frames a process's hub sends a second at most, on average: with more list sockets
# than this, a burst waits longer than LOBBY_RENDER_SECONDS (2 s for 1,000 sockets).
FRAMES_PER_SECOND = 500


def render_interval():
    return getattr(settings, "LOBBY_RENDER_SECONDS", 1.0)


class LobbyHub:
    """This process's one member of the lobby group: it hears each change once and tells its sockets.

    With one group member per socket, every change would be one channel-layer
    message per socket, and the in-memory layer scans all its channels at
    every message: a thousand lobby sockets made each move wait seconds. The
    hub joins the group again every GAME_SOCKET_CHECK_SECONDS (a Redis
    restart forgets memberships), and then reads the list again too, which
    heals a change lost meanwhile. It lives on the event loop.
    """

    def __init__(self):
        self.sockets = set()
        self.task = None
        self.flush_task = None
        # Changes heard while a flush was under way: another flush follows.
        self.heard_more = False
        self.flushed_at = float("-inf")

    def join(self, socket):
        if socket.is_gone:  # its thread asked after the socket was killed (SelfChecking.gone)
            return
        self.sockets.add(socket)
        loop = asyncio.get_running_loop()
        if self.task is None or self.task.done() or self.task.get_loop() is not loop:
            # A context of its own: not the one of the socket's thread that called
            # (asgiref would take the hub's calls for that thread's own).
            self.task = loop.create_task(self.listen(), context=contextvars.Context())

    def leave(self, socket):
        self.sockets.discard(socket)

    async def listen(self):
        layer = get_channel_layer()
        channel = reader = None
        try:
            while True:
                try:
                    if channel is None:
                        channel = await within_bound(layer.new_channel)
                        await within_bound(layer.group_add, LOBBY_GROUP, channel)
                    if reader is None:
                        # Never cancelled while waiting: Redis's pub/sub layer forgets a
                        # channel whose receive is cancelled, and every later group_add
                        # of it fails.
                        reader = asyncio.ensure_future(layer.receive(channel))
                    await asyncio.wait({reader}, timeout=check_period())
                    if not reader.done():
                        # A quiet while: join again (a Redis restart forgets
                        # memberships) and read the list again.
                        await within_bound(layer.group_add, LOBBY_GROUP, channel)
                        self.list_changed()
                        continue
                    message, reader = reader.result(), None
                except Exception:
                    log.warning("The lobby hub lost the channel layer; trying again", exc_info=True)
                    if reader is not None:
                        reader.cancel()
                    if channel is not None:
                        # Left behind in the group, its queue would fill with every change.
                        try:
                            await within_bound(layer.group_discard, LOBBY_GROUP, channel)
                        except Exception:
                            pass
                    channel = reader = None
                    await asyncio.sleep(1)
                    continue
                if message.get("type") == "lobby.updated":
                    self.list_changed()
                    for socket in list(self.sockets):
                        if socket.code:
                            socket.lobby_changed()
        finally:
            if reader is not None:
                reader.cancel()

    def list_changed(self):
        """Send the list's changes once the interval since the last sending has passed."""
        loop = asyncio.get_running_loop()
        task = self.flush_task
        if task is not None and not task.done() and task.get_loop() is loop:
            self.heard_more = True
            return
        self.heard_more = False
        self.flush_task = loop.create_task(self.flush())

    async def flush(self):
        while True:
            delay = self.flushed_at + self.interval() - time.monotonic()
            if delay > 0:
                await asyncio.sleep(delay)
            self.heard_more = False
            self.flushed_at = time.monotonic()
            listening = [s for s in self.sockets if not s.code]
            if listening:
                try:
                    change = await sync_to_async(LISTING.advance)({s.language for s in listening})
                except Exception:
                    log.exception("The lobby list could not be read")
                    change = None
                if change is not None:
                    await self.send(change, listening)
            if not self.heard_more:
                return

    def interval(self):
        """Return the seconds between two flushes: longer with many sockets, so the frames a second stay bounded."""
        listening = sum(1 for socket in self.sockets if not socket.code)
        return max(render_interval(), listening / FRAMES_PER_SECOND)

    async def send(self, change, sockets):
        # Many sockets: spread the batches over half the interval, so that a
        # board sent meanwhile waits behind one batch, not behind them all.
        batches = len(sockets) // SEND_BATCH
        pause = min(MAX_PAUSE, self.interval() / 2 / batches) if batches else 0
        for n, socket in enumerate(sockets):
            if n and n % SEND_BATCH == 0:
                await asyncio.sleep(pause)
            if socket.version == change.new_version:
                continue  # it connected after the change: its first frame had it
            try:
                if socket.version != change.old_version:
                    socket.after(0, {"type": "lobby.render"})  # it missed a change: all again
                    continue
                socket.version = change.new_version
                await socket.raw_send({"type": "websocket.send", "text": change.frame_for(socket)})
            except Exception:
                log.debug("A lobby socket closed while being sent to", exc_info=True)
                self.sockets.discard(socket)


HUB = LobbyHub()


class LobbyConsumer(SelfChecking, WebsocketConsumer):
    """Send the open tables (at ws/lobby/) or a table's seats (at ws/lobby/<code>/).

    Only a bare "lobby.updated" travels through the group, heard once per
    process by the hub. A waiting room's socket then sends the fragment for
    its own user, as the page would over HTTP; the list's sockets get what
    changed from the hub. Now and then a socket joins the group again and
    catches up (games/live/sockets.py): an update lost while Redis was down heals
    then.
    """

    # No channel of its own: the process's hub hears the group for all its sockets.
    channel_layer_alias = None
    sent = None
    rendered_at = float("-inf")
    render_waiting = False
    # The version of the list (Listing.version) this socket shows.
    version = None

    async def __call__(self, scope, receive, send):
        # The hub sends the list's changes on the event loop, not through this thread.
        self.raw_send = send
        return await super().__call__(scope, receive, send)

    def connect(self):
        self.code = self.scope["url_route"]["kwargs"].get("code")
        self.request = socket_request(self.scope)
        if not self.request.user.is_authenticated:
            self.end_session()
            return
        if self.code and self._table() is None:
            self.close()
            return
        self.language = language_of(self.request)
        self.user_id = self.request.user.pk
        # A masked token is good for as long as the cookie: one for every frame.
        self.csrf_token = get_token(self.request)
        self.accept()
        # Every (re)connect starts with a render: the socket may have missed
        # updates while it was down.
        self.send_fragment()
        self.loop.call_soon_threadsafe(HUB.join, self)

    def disconnect(self, code):
        self.loop.call_soon_threadsafe(HUB.leave, self)

    def gone(self):
        HUB.leave(self)  # also when Daphne killed the socket before its disconnect ran

    def lobby_changed(self):
        """Render once the interval since the last render has passed (on the event loop)."""
        now = time.monotonic()
        if self.render_waiting:
            return
        self.render_waiting = True
        self.after(max(0.0, self.rendered_at + render_interval() - now), {"type": "lobby.render"})

    def lobby_render(self, event):
        self.render_waiting = False
        self.send_fragment()

    def socket_check(self, event):
        super().socket_check(event)
        if self.code:
            self.send_fragment(if_changed=True)
        elif self.version != LISTING.version:
            self.send_fragment()

    def send_fragment(self, if_changed=False):
        self.rendered_at = time.monotonic()
        if not self.code:
            # Another socket of the list keeps the hub's page current; without one it may be old.
            alone = not any(not s.code and s is not self for s in list(HUB.sockets))
            self.version, html = LISTING.whole(self.user_id, self.language, fresh=alone)
            self.send(text_data=html.replace(CSRF_MARK, self.csrf_token))
            return
        game = self._table()
        if game is None:
            return
        if game.host_id == self.user_id and game.status == Game.Status.OPEN:
            host_waiting(game.code, slot_seconds())  # noted again at every check
        with translation.override(self.language):
            context = room_context(self.request, game) | {"oob": True}
            html = render_to_string("lobby/table.html#room", context, request=self.request)
            if context["is_host"] and game.status == Game.Status.OPEN and not context["is_rematch"]:
                context["invited"] = invited(game)
                html += render_to_string("lobby/table.html#invited", context)
        send_unless_same(self, html, if_changed)

    def _table(self):
        game = Game.objects.select_related("host").filter(code=self.code).first()
        if game is None or not may_see(self.request, game):
            return None
        return game


# Where each socket's CSRF token goes in a frame drawn for all.
CSRF_MARK = "csrf-token-of-this-socket"


class Drawing:
    """The list drawn in one language: the whole section, and rows as a guest and as a player see them.

    Drawn when first asked for, in the thread for synchronous code: `Listing`
    asks for what a change needs before the hub sends it from the event loop.
    """

    def __init__(self, games, more, language):
        self.games = {game.code: game for game in games}
        self.more = more
        self.language = language
        self.rows = {}
        self.whole = None

    def row(self, code, mine):
        if (code, mine) not in self.rows:
            game = self.games[code]
            game.is_mine = mine
            with translation.override(self.language):
                html = render_to_string(
                    "lobby/tables.html#table_row", {"game": game, "csrf_token": CSRF_MARK}
                )
            self.rows[code, mine] = html.strip()
        return self.rows[code, mine]

    def section(self):
        if self.whole is None:
            for game in self.games.values():
                game.is_mine = False
            context = {
                "open_tables": list(self.games.values()),
                "more_tables": self.more,
                "oob": True,
                "csrf_token": CSRF_MARK,
            }
            with translation.override(self.language):
                self.whole = render_to_string("lobby/tables.html#open_tables", context)
        return self.whole


@dataclass
class Change:
    """What a socket showing `old_version` needs to show `new_version`, per language."""

    old_version: int
    new_version: int
    # Codes of the rows sent and their seated users' ids.
    seated: dict
    # Per language: the frame for a user seated at none of them, and the
    # function drawing the frame of one who sits at some.
    frames: dict
    parts: dict

    def frame_for(self, socket):
        language = socket.language
        user_id = socket.user_id
        if any(user_id in users for users in self.seated.values()):
            frame = self.parts[language](user_id)
        else:
            frame = self.frames[language]
        return frame.replace(CSRF_MARK, socket.csrf_token)


class Listing:
    """The first page of open tables as this process's list sockets show it, at `version`.

    `advance` reads the page again and returns the Change from the last one:
    the rows to add (at the top, or at the end when one above went away),
    delete and replace, and the pager if it changed; the whole section when
    the list went from empty to not or the other way (or its order is not
    one a few row swaps can reach). Every row is drawn once per language, as
    a guest sees it (Join) and as a player at that table (Your table).
    Only the process's one thread for synchronous code calls it: no lock.
    """

    def __init__(self):
        self.forget()

    def forget(self):
        self.version = 0
        self.games = []
        self.more = False
        self.prints = {}
        self.seated = {}
        self.drawings = {}

    def read(self):
        games, more = listed_tables()
        seated = {game.code: set() for game in games}
        codes = {game.pk: game.code for game in games}
        for game_id, user_id in Seat.objects.filter(game__in=games).values_list(
            "game_id", "user_id"
        ):
            seated[codes[game_id]].add(user_id)
        prints = {game.code: fingerprint(game, seated[game.code]) for game in games}
        return games, more, prints, {code: frozenset(users) for code, users in seated.items()}

    def whole(self, user_id, language, fresh=False):
        """Return (version, the whole section for `user_id` in `language`) of the page as shown.

        `fresh`: read the page again first (when no socket of the process shows it).
        """
        if fresh or self.version == 0:
            self.games, self.more, self.prints, self.seated = self.read()
            self.version += 1
            self.drawings = {}
        drawing = self.drawing(language)
        return self.version, personal(drawing, self.seated, user_id)

    def drawing(self, language):
        if language not in self.drawings:
            self.drawings[language] = Drawing(self.games, self.more, language)
        return self.drawings[language]

    def advance(self, languages):
        """Read the page again; return the Change from the page shown, or None if it is the same."""
        if self.version == 0:
            self.whole(None, settings.LANGUAGE_CODE)
            return None
        games, more, prints, seated = self.read()
        if prints == self.prints and more == self.more:
            return None
        old_prints, old_more, old_version = self.prints, self.more, self.version
        self.games, self.more, self.prints, self.seated = games, more, prints, seated
        self.version += 1
        self.drawings = {}
        new_codes = list(prints)
        kept = [code for code in new_codes if code in old_prints]
        top = new_codes[: new_codes.index(kept[0])] if kept else []
        bottom = [code for code in new_codes if code not in old_prints and code not in top]
        # Rows keep their order (newest first); only these shapes are a few row swaps.
        if not kept or new_codes != top + kept + bottom:
            return self.change(old_version, languages, seated, self.whole_frames(languages))
        removed = [code for code in old_prints if code not in prints]
        changed = [code for code in kept if prints[code] != old_prints[code]]
        pager = more != old_more
        frames = {
            language: self.rows_frame(language, top, bottom, removed, changed, pager)
            for language in languages
        }
        touched = {code: seated[code] for code in top + bottom + changed}
        return self.change(old_version, languages, touched, frames)

    def change(self, old_version, languages, touched, frames):
        guest = {language: frames[language](None) for language in languages}
        return Change(old_version, self.version, touched, guest, frames)

    def whole_frames(self, languages):
        frames = {}
        for language in languages:
            drawing = self.drawing(language)
            drawing.section()
            for code in self.seated:
                for mine in (False, True):
                    drawing.row(code, mine)
            frames[language] = partial(personal, drawing, self.seated)
        return frames

    def rows_frame(self, language, top, bottom, removed, changed, pager):
        """Return a function of a user's id giving the frame with these rows, as that user sees them."""
        drawing = self.drawing(language)
        seated = self.seated
        if pager:
            with translation.override(language):
                pager_html = render_to_string(
                    "lobby/tables.html#pager", {"more_tables": self.more, "pager_oob": True}
                )
        else:
            pager_html = ""

        for code in top + bottom + changed:
            for mine in (False, True):
                drawing.row(code, mine)

        def frame(user_id):
            def row(code):
                return drawing.row(code, user_id in seated[code])

            parts = [f'<tr id="table-{code}" hx-swap-oob="delete"></tr>' for code in removed]
            for code in changed:
                parts.append(row(code).replace(f'id="table-{code}"', ROW_OOB.format(code), 1))
            if top:
                rows = "".join(row(code) for code in top)
                parts.append(f'<tbody hx-swap-oob="afterbegin:#open-tables-rows">{rows}</tbody>')
            if bottom:
                rows = "".join(row(code) for code in bottom)
                parts.append(f'<tbody hx-swap-oob="beforeend:#open-tables-rows">{rows}</tbody>')
            parts.append(pager_html)
            return "".join(parts)

        return frame


ROW_OOB = 'id="table-{}" hx-swap-oob="true"'


def personal(drawing, seated, user_id):
    """Return the whole section of `drawing` with the rows of the tables `user_id` sits at as theirs."""
    html = drawing.section()
    for code, users in seated.items():
        if user_id in users:
            html = html.replace(drawing.row(code, False), drawing.row(code, True))
    return html


def fingerprint(game, seated):
    """Return what the row of `game` shows, to tell whether it changed."""
    return (
        game.host.name,
        game.taken,
        game.seat_count,
        game.pace,
        game.pace_seconds,
        game.pace_days,
        game.reserve_days,
        repr(game.options),
        frozenset(seated),
    )


LISTING = Listing()


class UserConsumer(SelfChecking, WebsocketConsumer):
    """Send a logged-in user's header badges (at ws/me/): on connect and after every change.

    Only a bare "user.updated" travels through the user's group (see
    games.models.broadcast_users); the socket counts the games waiting for
    its user and their unread notifications itself, and counts again now and
    then (games/live/sockets.py), sending the badges if they changed. The home
    page's socket (ws/me/?page=home) also draws the user's tables and
    invitations again, so that "My tables" follows their games live.
    """

    sent = None
    home = False

    def connect(self):
        self.request = socket_request(self.scope)
        self.group = None
        if not self.request.user.is_authenticated:
            self.end_session()
            return
        self.group = user_group(self.request.user.pk)
        self.home = parse_qs(self.scope.get("query_string", b"").decode()).get("page") == ["home"]
        try:
            self.join_group(self.group)
        except LAYER_ERRORS:
            self.layer_failed()  # joined again once Redis is back (games/live/sockets.py)
        self.accept()
        # Counts may have changed while the socket was down: start with fresh ones.
        self.send_badges()

    def disconnect(self, code):
        if self.group:
            self.leave_group(self.group)

    def receive(self, text_data=None, bytes_data=None):
        """Ignore anything sent: the socket only speaks."""

    def user_updated(self, event):
        self.send_badges()

    def socket_check(self, event):
        super().socket_check(event)
        if self.group and not self.is_gone:  # gone: its groups are left (SelfChecking.gone)
            try:
                self.join_group(self.group)
            finally:  # after the join (nothing falls between), and when it fails too
                self.send_badges(if_changed=True)

    def send_badges(self, if_changed=False):
        context = {"nav": NavCounts(self.request.user), "oob": True}
        with translation.override(language_of(self.request)):
            html = render_to_string("base.html#nav_badges", context, request=self.request)
            if self.home:
                mine = my_tables(self.request.user) | {"oob": True}
                html += render_to_string("lobby/home.html#mine", mine, request=self.request)
        send_unless_same(self, html, if_changed)


# A CSRF token is masked afresh at every render: it does not make a fragment different.
CSRF_INPUT = re.compile(r'name="csrfmiddlewaretoken" value="[^"]*"')


def send_unless_same(consumer, html, if_changed):
    """Send `html` on `consumer`'s socket, unless `if_changed` and it is what was sent last."""
    same_as = CSRF_INPUT.sub("", html)
    if if_changed and same_as == consumer.sent:
        return
    consumer.sent = same_as
    consumer.send(text_data=html)


def socket_request(scope):
    """Return an HttpRequest with what the lobby templates use: user, session, cookies, CSRF.

    With it the fragments sent over the socket carry working forms (a CSRF
    token matching the browser's cookie) and the user's language.
    """
    request = HttpRequest()
    request.method = "GET"
    request.path = request.path_info = scope.get("path", "")
    request.user = scope["user"]
    request.session = scope["session"]
    request.COOKIES = scope.get("cookies", {})
    for name, value in scope.get("headers", []):
        if name == b"accept-language":
            request.META["HTTP_ACCEPT_LANGUAGE"] = value.decode("latin-1")
    csrf_secret = request.COOKIES.get(settings.CSRF_COOKIE_NAME, "")
    if len(csrf_secret) == 32 and csrf_secret.isalnum():
        request.META["CSRF_COOKIE"] = csrf_secret
    return request


def language_of(request):
    """Return the language the user's pages are in (see accounts.middleware)."""
    saved = getattr(request.user, "language", "")
    if saved:
        try:
            return translation.get_supported_language_variant(saved)
        except LookupError:
            pass
    return translation.get_language_from_request(request)
