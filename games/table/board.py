"""The table drawn: one player's fragments of a game, drawn once and shared where alike.

games.table.presenting turns a seat's view into the templates' data (the only data
that leaves the engine is `rules.view_for(state, seat)`: another player's hand
or the order of the draw pile cannot leak into a page, an htmx response or a
socket message); this module draws it, remembering what is the same for many
viewers, versions and games (games/table/memo.py), and tells a socket which
fragments changed.
"""

from datetime import timedelta

from django.dispatch import receiver
from django.template.loader import render_to_string
from django.urls import get_script_prefix, reverse
from django.utils import timezone, translation
from django.utils.html import conditional_escape
from django.utils.safestring import mark_safe

from accounts.models import Vacation
from games import rules
from games.models import Game
from games.models.signals import move_committed
from games.table.game_over import game_over_context
from games.table.log import recent_moves, remember_moves
from games.table.memo import Memo, moment
from games.table.presenting import present, view_deck

# The fragments of the table page, by id: those that changed are sent after a move (of the
# board, the parts that changed: see _board_parts).
FRAGMENTS = ("status", "board", "hand", "log")


def player_name(user):
    """Return the name other players see."""
    return user.name


def table_context(game, user, log_length=15):
    """Return the template context of `game`'s table as `user` sees it."""
    seats = seats_at(game)
    names = {seat.user_id: player_name(seat.user) for seat in seats}
    own = next((s for s in seats if s.user_id == user.id), None)
    seat = own.position if own is not None else None
    context = {
        "code": game.code,
        "viewer": user.id,
        "version": game.version,
        # The version the viewer's move forms post: when their question last changed
        # (Game.asked_versions), so that other players' moves leave the forms as drawn.
        "asked": game.asked_at(own.position) if own is not None else game.version,
        "status": game.status,
        "seat": seat,
        **table_urls(game.code),
        "correspondence": game.pace == game.Pace.CORRESPONDENCE,
        "table": None,
    }
    if game.snapshot is None:
        return context
    view = rules.view_for(state_at(game), seat)
    table = present(view, names, at=(game.code, game.version), absent=game.counted_out())
    table["log"] = recent_moves(game, table["names"], view_deck(view), log_length)
    active = game.status == game.Status.ACTIVE
    away = {}
    if active and context["correspondence"]:
        away = Vacation.objects.current().ends_of([s.user_id for s in seats])
    clocks = {s.position: seat_clock(game, s, active, away.get(s.user_id)) for s in seats}
    for player in table["players"]:
        player["clock"] = clocks[player["seat"]]
    table["my_clock"] = clocks[seat] if seat is not None else None
    for player in table["players"]:
        player["html"] = player_html(game, player, context["asked"])
    # The piles and the action waiting: drawn again only when what they show changes.
    top, pending = table["discard_top"], table["pending"]
    # A card by what its face shows: a card's id is another card in the other edition.
    shown = (table["draw_count"], table["discard_count"], top and _face_key(top))
    if pending:  # its words, and its card (a card's drawing holds lazy texts)
        shown += (_face_key(pending["card"]), repr(pending["shares"]))
    table["middle_html"] = _logs.get(
        ("middle", shown, translation.get_language()),
        lambda: render_to_string("games/table.html#middle", {"table": table}),
    )
    context["table"] = table
    if seat is not None and game.status == game.Status.FINISHED:
        context["game_over"] = game_over_context(game, user, names)
    return context


def _face_key(card):
    return (card["id"], card["kind"], card["value"], card["as_colour"])


# A game's row and seats at a version, read once for all the sockets of its table in this
# process (and handed over by the move's answer): every change to either is a new version.
_games = Memo(256)
_seats = Memo(256)
_states = Memo(256)
_urls = Memo(1024)


def game_at(code, version=None):
    """Return game `code` at `version` if this process holds it, else as it is now (or None)."""
    if version is not None:
        game = _games.find((code, version))
        if game is not None:
            return game
    game = Game.objects.filter(code=code).first()
    if game is not None:
        _games.put((code, game.version), game)
    return game


def seats_at(game):
    """Return `game`'s seats with their users at its version, read once per version."""
    return _seats.get(
        (game.pk, game.code, game.version), lambda: list(game.seats.select_related("user"))
    )


def state_at(game):
    """Return `game`'s engine state at its version, read once for every viewer: not to change."""
    return _states.get((game.pk, game.code, game.version), game.state)


@receiver(move_committed)
def move_was_committed(sender, game, seats, state, **kwargs):
    remember(game, seats, state)


def remember(game, seats, state):
    """Hand what a move just saved (row, seats, state, moves) to the sockets: none reads it again.

    Called after the commit, before the broadcast. The seats are handed over
    only with their users loaded (a Seat.user read later, in another thread,
    would be a query on a shared object).
    """
    key = (game.pk, game.code, game.version)
    _games.put((game.code, game.version), game)
    if all(type(seat).user.is_cached(seat) for seat in seats):
        _seats.put(key, list(seats))
    _states.put(key, state)
    remember_moves(game, game.__dict__.pop("recorded", []))


def table_urls(code):
    """Return the addresses a table's fragments link and post to (built once per table)."""
    return _urls.get((code, get_script_prefix()), lambda: _table_urls(code))


def _table_urls(code):
    return {
        "review_url": reverse("games:review", args=[code]),
        "log_url": reverse("games:log", args=[code]),
        "move_url": reverse("games:move", args=[code]),
        "socket_url": f"/ws/games/{code}/",
        "come_back_url": reverse("games:come_back", args=[code]),
        "resign_url": reverse("games:resign", args=[code]),
    }


# Drawn tables remembered in this process (see games/table/memo.py). Their keys name the game's
# version and the language; and, since a clock's words ("4 minutes left") age without a
# new version, the half-minute they were drawn in (the page's script counts down anyway).
_players = Memo(2048)
_fragments = Memo(1024)
_logs = Memo(512)  # the last moves, and other fragments the same for every viewer
# Pieces with forms (an owner's table, a hand's cards, a move's form) are remembered with
# these in place of the version their forms post (the player's Game.asked_versions entry) and of
# the address they post to, put in as they are used: one piece for every version and every
# table. A fragment's own version (data-version) is VERSION_MARK in a frame. No player's
# text holds them: escaped text never holds "<".
VERSION_MARK = mark_safe("<@version@>")
ASKED_MARK = mark_safe("<@asked@>")
URL_MARK = mark_safe("<@move_url@>")


def with_asked(html, asked, move_url):
    """Return `html`, drawn with ASKED_MARK and URL_MARK, with `asked` and `move_url` in."""
    return mark_safe(html.replace(ASKED_MARK, str(asked)).replace(URL_MARK, move_url))


def player_html(game, player, asked):
    """Return the article of a player's table, drawn once for every viewer who sees it so.

    Its key is what it shows (its clock's state too), not the version: a move
    redraws only the tables it changed. Only the owner's own article holds
    forms (a wild's moves), which post `asked`, the version of the owner's
    question: it is remembered with ASKED_MARK (and URL_MARK) in their place,
    put in as it is used.
    """
    clock = player["clock"]
    reserve = clock["reserve"]
    clock_key = (clock["absent"], clock["in_reserve"], clock["deadline"], clock["timeouts"])
    clock_key += (clock["vacation_until"],)
    clock_key += (reserve // timedelta(minutes=1) if reserve is not None else None,)
    key = (player["content_key"], clock_key, translation.get_language(), moment())
    context = {"player": player, "asked": ASKED_MARK, "move_url": URL_MARK}
    html = _players.get(key, lambda: _player_html(context))
    if any(item["controls"] for s in player["sets"] for item in s["cards"]):
        return with_asked(html, asked, table_urls(game.code)["move_url"])
    return html


def _player_html(context):
    # Each set and each other piece is drawn once until it changes: a move changes one or
    # two pieces of a table. The article around them is drawn once per kind of table, with
    # marks where they go (MARKS), and they are put in as it is used (_framed).
    player = context["player"]
    sets = [set_html(s, context) for s in player["sets"]]
    pieces = _player_pieces(player)
    flags = tuple(player[k] for k in ("seat", "is_me", "is_current", "awaited"))
    frame = dict(player, pieces={name: MARKS[name] for name in pieces})
    frame["sets"] = [{"html": MARKS["sets"]}] if sets else []
    pieces["sets"] = "\n    ".join(sets)  # as the template's loop joins them
    return _framed("player", (*flags, bool(sets)), {"player": frame}, pieces)


# Drawn pieces go in the frames around them in place of these (escaped text holds no "<").
MARKS = {
    name: mark_safe(f"<@{name}@>")
    for name in ("head", "clock", "hand", "sets", "bank", "lines", "log_url")
    + ("opponents", "middle", "me", "entries", "turn", "mine", "facts")
}
MARKS.update(version=VERSION_MARK, asked=ASKED_MARK, move_url=URL_MARK)
_frames = Memo(1024)  # a few hundred kinds of frames in each language


def _framed(partial, key, context, pieces):
    """Return games/table.html's `partial` with `pieces` (name: html) in place of their MARKS.

    The frame around them is drawn once per `key` and language from `context`, which
    holds MARKS in the pieces' places: `key` must tell apart every frame it draws.
    """
    key = (partial, key, translation.get_language())
    html = _frames.get(key, lambda: render_to_string(f"games/table.html#{partial}", context))
    for name, piece in pieces.items():
        html = html.replace(MARKS[name], str(piece))
    return mark_safe(html)


_pieces = Memo(4096)


def _player_pieces(player):
    """Return the pieces of a player's table but its sets, each drawn once until it changes."""
    clock = player["clock"]
    language = translation.get_language()
    shown = {
        "head": (
            *(player[k] for k in ("name", "is_me", "is_current", "awaited", "resigned")),
            *(player[k] for k in ("jailed", "winner", "complete_count", "sets_to_win")),
            clock["absent"],
            bool(clock["vacation_until"]),
        ),
        "clock": (
            clock["vacation_until"],
            clock["deadline"],
            clock["in_reserve"],
            clock["reserve"] // timedelta(minutes=1) if clock["reserve"] is not None else None,
            moment(),
        ),
        # The hand's backs, or the hand a review shows (none on one's own table).
        # (Its own table's and one card's must differ: True == 1.)
        "hand": ("mine" if player["is_me"] else player["hand_count"], repr(player["hand"])),
        "bank": (player["bank_total"], tuple((c["id"], c["kind"]) for c in player["bank"])),
    }
    return {
        name: _pieces.get(
            (name, key, language),
            lambda name=name: render_to_string(
                f"games/table.html#player_{name}", {"player": player}
            ),
        )
        for name, key in shown.items()
    }


_sets = Memo(4096)


def set_html(s, context):
    """Return a set of a player's table drawn, once for every table that shows it so.

    Its key is what it shows; a set holding forms (an owner's wild moves) is
    drawn with its article's ASKED_MARK and URL_MARK.
    """
    has_forms = any(item["controls"] for item in s["cards"])
    key = (s["key"], translation.get_language(), has_forms)
    return _sets.get(key, lambda: render_to_string("games/table.html#set", dict(context, set=s)))


_entries = Memo(4096)


def hand_entry_html(entry, asked, move_url):
    """Return a card of a hand with its menu, drawn once for every version that shows it so.

    A player's turn redraws the hand at every move, and most of its cards offer
    the same moves as before: only the version their forms post (`asked`) is new
    (and the table they post to, from one game to the next).
    """
    card = entry["card"]
    controls = tuple(
        (c["kind"], c["step"], c["label"], tuple(c["fields"])) for c in entry["controls"]
    )
    key = (card["id"], card["kind"], card["value"], controls, entry["note"])
    key += (translation.get_language(),)
    context = {"entry": entry, "asked": ASKED_MARK, "move_url": URL_MARK}
    html = _entries.get(key, lambda: render_to_string("games/table.html#hand_entry", context))
    return with_asked(html, asked, move_url) if controls else html


def seat_clock(game, seat, active=True, vacation_until=None):
    """Return what the table shows of a seat's clock: deadline, reserve, absence, vacation.

    `deadline` is the moment the default move will be played: the regular
    deadline, or, once it has passed, the end of the reserve being spent.
    `vacation_until` is the end of the player's vacation under way, if any.
    """
    correspondence = game.pace == game.Pace.CORRESPONDENCE
    clock = {
        "absent": seat.absent,
        "reserve": seat.reserve if correspondence else None,
        "deadline": None,
        "in_reserve": False,
        "timeouts": seat.timeouts_in_row,
        "vacation_until": vacation_until,
    }
    if not active or seat.deadline is None:
        return clock
    now = timezone.now()
    if now > seat.deadline:
        clock["in_reserve"] = True
        clock["deadline"] = seat.timeout_at
        clock["reserve"] = max(seat.timeout_at - now, timedelta(0))
    else:
        clock["deadline"] = seat.deadline
    return clock


def render_fragments(context, messages=(), request=None):
    """Render the table's fragments as out-of-band swaps (htmx responses, socket messages).

    With a `request` (an htmx move's answer) the flash messages come last.
    """
    html = board_fragments(context)
    if request is None:
        return html
    return html + "\n" + flash_fragment(messages)


def flash_fragment(messages):
    """Render the flash messages as an out-of-band swap (most answers have none to show)."""
    flash = {"oob": True, "flash": list(messages)}
    if not flash["flash"]:
        key = ("no flash", translation.get_language())
        return _logs.get(key, lambda: render_to_string("games/table.html#flash", flash))
    return render_to_string("games/table.html#flash", flash)


def board_for(game, user):
    """Return `user`'s fragments of `game` at its version: drawn once, for the POST and the socket.

    The move's answer draws the mover's board, and the mover's socket then gets
    the same fragments without reading or drawing anything again (or waits for
    them while the answer draws them: see games/table/memo.py).
    """
    return _board(game, user)[0]


def _board(game, user):
    _games.put((game.code, game.version), game)
    key = _fragments_key(game.code, game.version, user.id)
    return _fragments.get(key, lambda: _draw(table_context(game, user)))


def board_update(game, user, shown):
    """Return (html, marks): `user`'s fragments of `game` that differ from those `shown`.

    `shown` maps each fragment a socket sent to its mark (fragment_marks): a fragment
    whose mark is the same shows the same now, and is neither drawn nor sent again.
    The board the move's answer drew (the mover's) is sent whole, as it was drawn.
    """
    found = _fragments.find(_fragments_key(game.code, game.version, user.id), wait=True)
    if found is not None:
        return found
    return _draw(table_context(game, user), shown)


def _fragments_key(code, version, viewer):
    return (code, version, viewer, translation.get_language(), moment())


def board_fragments(context):
    """Render a viewer's FRAGMENTS, once per version for the htmx answer and the sockets.

    Rendered without a request: the forms carry no CSRF field; htmx sends the
    page's token in a header (hx-headers on <body>), as for every socket update.
    """
    key = _fragments_key(context["code"], context["version"], context["viewer"])
    return _fragments.get(key, lambda: _draw(context))[0]


def _draw(context, shown=None):
    """Return (html, marks) of the fragments whose marks differ from `shown` (all without).

    A board the page shows already is not sent whole: only its parts that changed
    (a player's table, the piles in the middle) are, each swapped on its own.
    """
    oob = dict(context, oob=True, flash=[])
    marks = fragment_marks(context)
    drawn = []
    for name in FRAGMENTS:
        if shown is not None and marks[name] is not None and shown.get(name) == marks[name]:
            continue
        if name == "board" and shown is not None and shown.get(BOARD) == marks[BOARD] is not None:
            drawn.extend(_board_parts(context, marks, shown))
        else:
            drawn.append(_fragment(name, oob))
    return "\n".join(drawn), marks


# The mark of what the board holds (whose tables, in which order): a page showing it is
# sent the parts of the board that changed, not the board.
BOARD = "board parts"
# The ids of the players' tables, by seat (one string each for every socket's marks).
TABLES = tuple(f"player-{seat}" for seat in range(16))


def _board_parts(context, marks, shown):
    """Return the parts of the board whose marks differ from `shown`, as out-of-band swaps.

    Each carries the version it was drawn at (data-version): the page keeps the
    newest of a part and of the board around it (static/js/table.js).
    """
    table = context["table"]
    version = f' data-version="{context["version"]}" hx-swap-oob="true"'
    parts = [(TABLES[p["seat"]], p["html"], "article") for p in table["players"]]
    parts.append(("middle", table["middle_html"], "div"))
    return [
        html.replace(f'<{tag} id="{name}"', f'<{tag} id="{name}"{version}', 1)
        for name, html, tag in parts
        if shown.get(name) != marks[name]
    ]


def fragment_marks(context):
    """Return a mark of what each fragment shows, None for one always drawn.

    Two equal marks draw the same fragment but for its version (its data-version).
    Where a fragment holds forms, the version they post (the viewer's
    entry of Game.asked_versions) is in its mark: the hand of a player whose question
    did not change is not drawn again (what they ticked stays ticked).
    """
    table = context["table"]
    if table is None:
        return dict.fromkeys((*FRAGMENTS, BOARD))
    me = table["me"]
    common = (context["code"], context["seat"], context["status"], translation.get_language())
    # The board's parts: each player's table and the piles (see _board_parts).
    parts = {TABLES[p["seat"]]: hash((*common, p["html"])) for p in table["players"]}
    parts["middle"] = hash((*common, table["middle_html"]))
    status = (
        *common,
        moment(),
        repr(context.get("game_over")),
        repr([table[k] for k in ("my_turn", "over", "outcome", "current_name")]),
        table["plays_left"] if table["my_turn"] else None,  # shown to the player on turn only
        repr([table[k] for k in ("waiting", "my_clock", "round", "sets_to_win", "awaiting_me")]),
        me["resigned"] if me else None,
    )
    players = tuple(p["html"] for p in table["opponents"]) + ((me["html"],) if me else ())
    board = (*common, table["middle_html"], players)
    # The moves a hand and its prompt offer, and their targets (others' tables, seats).
    prompt = table["prompt"]
    offered = [c for entry in table["hand"] or () for c in entry["controls"]]
    offered += [c for answer in prompt["answers"] for c in answer["controls"]] if prompt else []
    controls = tuple((c["kind"], tuple(c["fields"])) for c in offered)
    hand_forms = bool(prompt) or bool(controls)
    hand = (*common, table["hand_key"], controls, context["asked"] if hand_forms else None)
    marks = {"status": hash(status), "board": hash(board), "hand": hash(hand), "log": None}
    marks[BOARD] = hash((*common, tuple(parts)))
    return dict(parts, **marks)


def _fragment(name, context):
    """Return fragment `name`: most of it drawn once, its frame (see _framed) with its pieces in."""
    table = context["table"]
    if table is None:
        return render_to_string(f"games/table.html#{name}", context)
    if name == "status":
        return _status_html(context)
    if name == "board":
        return _board_html(context)
    if name == "hand":
        return _hand_html(context)
    # The last moves are the same for every player (and for every spectator) at a version.
    more = context["seat"] is not None or context["status"] == "finished"
    key = (context["code"], context["version"], more, translation.get_language())
    return _logs.get(key, lambda: _log_html(context, more))


def _log_html(context, more):
    # The lines, newest first, joined here: the template's loop cost ten times as much.
    lines = [
        f'<li value="{line["index"]}">{conditional_escape(line["text"])}</li>'
        for line in reversed(context["table"]["log"] or ())
    ]
    frame = dict(context, version=MARKS["version"], log_lines=MARKS["lines"])
    frame["log_url"] = MARKS["log_url"]
    pieces = {"version": context["version"], "lines": "".join(lines)}
    pieces["log_url"] = context["log_url"]
    return _framed("log", (context.get("oob"), bool(lines), more), frame, pieces)


def _board_html(context):
    table = context["table"]
    me = table["me"]
    frame_table = {"opponents": [{"html": MARKS["opponents"]}], "middle_html": MARKS["middle"]}
    frame_table["me"] = {"html": MARKS["me"]} if me else None
    frame = {"table": frame_table, "version": MARKS["version"], "oob": context.get("oob")}
    pieces = {"version": context["version"], "middle": table["middle_html"]}
    pieces["opponents"] = "".join(p["html"] for p in table["opponents"])  # as the loop does
    pieces["me"] = me["html"] if me else ""
    return _framed("board", (context.get("oob"), me is not None), frame, pieces)


def _hand_html(context):
    table = context["table"]
    version, asked, move_url = context["version"], context["asked"], context["move_url"]
    hand = table["hand"]
    for entry in hand or ():
        entry["html"] = hand_entry_html(entry, asked, move_url)
    prompt = table["prompt"] or {}
    if prompt.get("answers") or prompt.get("discard"):
        return render_to_string("games/table.html#hand", context)  # drawn whole: seldom shown
    end_turn = prompt.get("end_turn")
    frame_table = {"prompt": {"end_turn": end_turn}, "my_turn": table["my_turn"]}
    frame_table["hand_count"] = table["hand_count"]
    if hand is None:  # a spectator's
        frame_table["hand"] = None
    else:
        frame_table["hand"] = [{"html": MARKS["entries"]}] if hand else []
    frame = dict(context, table=frame_table, version=MARKS["version"], move_url=MARKS["move_url"])
    frame["asked"] = MARKS["asked"]
    pieces = {"version": version, "asked": asked, "move_url": move_url}
    pieces["entries"] = "\n      ".join(entry["html"] for entry in hand or ())  # as the loop does
    control = end_turn and (end_turn["kind"], end_turn["label"], tuple(end_turn["fields"]))
    shape = (hand is None, len(hand or ()), table["my_turn"], control)
    return _framed("hand", (context.get("oob"), context["seat"] is None, *shape), frame, pieces)


def _status_html(context):
    table = context["table"]
    if context["status"] != "active" or table["over"]:
        return render_to_string("games/table.html#status", context)  # once a game
    frame_table = {k: table[k] for k in ("my_turn", "over", "awaiting_me")}
    frame = {"table": frame_table, "status": "active", "oob": context.get("oob")}
    frame["version"] = MARKS["version"]
    frame["status_pieces"] = {name: MARKS[name] for name in ("turn", "mine", "facts")}
    pieces = dict(_status_pieces(context), version=context["version"])
    key = (context.get("oob"), table["my_turn"], table["awaiting_me"])
    return _framed("status", key, frame, pieces)


def _status_pieces(context):
    """Return the pieces of a game's status in play, each drawn once until it changes.

    Most of a move changes one of them for a viewer, if any: whose turn it is and
    whom the game waits for, the viewer's own clock (and resigning), the round.
    """
    table = context["table"]
    me = table["me"]
    clock = table["my_clock"] or {}
    waiting = tuple((line["text"], line["is_me"]) for line in table["waiting"])
    shown = {
        "turn": (table["my_turn"], table["my_turn"] and table["plays_left"], table["current_name"])
        + (context["seat"] is None, waiting, table["my_turn"] and table["turn"]),
        "mine": (
            me is not None and (me["resigned"], context["code"], get_script_prefix()),
            *(clock.get(k) for k in ("absent", "vacation_until", "deadline", "in_reserve")),
            moment(),
        ),
        "facts": (table["round"], table["sets_to_win"]),
    }
    language = translation.get_language()
    return {
        name: _pieces.get(
            (f"status_{name}", key, language),
            lambda name=name: render_to_string(f"games/table.html#status_{name}", context),
        )
        for name, key in shown.items()
    }
