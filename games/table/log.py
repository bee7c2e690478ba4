"""A game's moves in words (its last ones, or a page of them), from the move log and public card data.

A sentence is made from the move's JSON, the card kinds of its public card
ids and, for answers, the action being answered (the latest "play" move
before it). The cards of a discard to the bottom of the draw pile stay
secret: only their number is told. What depends on the position a move was
made in is kept with the move as it is played (Move.details): a rent's
amount, the colour a wild was moved from. Older games' moves lack them and
are told from the engine state before them: a review's checkpoint, the
table's earlier versions, or a replay.
"""

from copy import copy

from django.db.models import Count, Subquery
from django.utils import translation
from django.utils.translation import gettext as _, ngettext

from games import rules
from games.models import Move
from games.rules.cards import (
    BIRTHDAY,
    DEAL_BREAKER,
    DEBT_COLLECTOR,
    DOUBLE_SLY_DEAL,
    FORCED_DEAL,
    HEIR,
    HOTEL,
    HOUSE,
    JAIL,
    MONEY,
    PASS_GO,
    RENT,
    SLY_DEAL,
    SPEEDING,
)
from games.table.cardnames import colour_name, kind_name, listed
from games.table.memo import Memo

MONEY_EFFECTS = (RENT, BIRTHDAY, DEBT_COLLECTOR)


# Moves that answer the latest action played: told with that action (see _Teller._accept).
ANSWERS = ("accept", "just_say_no", "transfer")


def move_log(game, names, deck, length=15, before=None, keep=None, state_before=None):
    """Return the last `length` moves of `game` in words, oldest first (see `_Teller.line`).

    `names` lists the players' names by seat, `deck` the card kinds by id;
    with `before` (a move number) the last moves are those numbered below it.
    `keep`, a list, is given the teller that told them. `state_before`, a
    function, returns the engine state just before the first of those moves,
    for a caller that has it cheaper than a replay from the deal (a review,
    from its checkpoint); it is called only if a move needs it (`_needs_state`).
    """
    # Numbered as the review numbers them: by position in the log (move numbers `n` may skip),
    # from the count of the moves up to them (an index's count, not a number for every move).
    told = game.moves.all() if before is None else game.moves.filter(n__lt=before)
    count = told.order_by().values("game").annotate(count=Count("pk")).values("count")
    moves = list(told.annotate(count=Subquery(count)).order_by("-n")[:length])[::-1]
    if moves:
        for index, m in enumerate(moves, moves[0].count - len(moves) + 1):
            m.index = index
    return _tell(game, names, deck, moves, keep, state_before, last=before is None)


# A long log is shown a page of this many moves at a time (the review's move list, the log
# page). Most games fit on one page; a game made long on purpose (wild switches are unlimited,
# docs/rules.md section 2) costs a page a request, as a short one does.
MOVES_PER_PAGE = 500


def move_page(n, total):
    """Return (first, last), the positions of the page of a log of `total` moves holding move `n`."""
    first = (max(n, 1) - 1) // MOVES_PER_PAGE * MOVES_PER_PAGE + 1
    return first, min(total, first + MOVES_PER_PAGE - 1)


def log_page(game, names, deck, first, count, state_before=None):
    """Return `count` moves of `game` in words from its `first` (1: the first move), oldest first.

    Moves are numbered by their position in the log, as the review numbers
    them; `state_before` as for move_log (a finished game's checkpoint before
    the page). Only the page's moves are read and told, and a few more when
    the page opens on answers to an action played before it: a page costs
    the same on the first move of a game as on its ten-thousandth.
    """
    rows = list(game.moves.order_by("n")[first - 1 : first + count])
    for index, m in enumerate(rows, first):
        m.index = index
    return _tell(game, names, deck, rows[:count], None, state_before, last=len(rows) <= count)


def _tell(game, names, deck, moves, keep, state_before, last):
    """Return the lines of `moves` (consecutive Move rows, in order); see move_log and log_page.

    `last` says that `moves` end with the game's latest. The engine state is
    read only for a move whose words need it and were not kept with it (an
    older game's rent or wild), and followed from there.
    """
    if not moves:
        return []
    teller = _Teller(names, deck)
    if keep is not None:
        keep.append(teller)
    earlier = _answered(game, moves)
    told = earlier + moves
    needing = [i for i, m in enumerate(moves, len(earlier)) if _needs_state(m, deck)]
    if last and needing and _is_rent(told[needing[-1]].move, deck):
        # The rent waiting for answers now says its amount in the game's state.
        pending = _pending_rent(game)
        newest = told[needing[-1]]
        if pending and pending[0] == newest.move["card"]:
            teller.amounts[newest.n] = pending[1]
            needing.pop()
    first = needing[0] if needing else None
    lines = []
    for i, m in enumerate(told):
        if i == first:
            if state_before is None:
                teller.state = _state_before(game, told, i)
            else:
                state = state_before()
                teller.state = None if state is None else _advance(state, told[len(earlier) : i])
        if i < len(earlier):
            teller.tell(m.seat, m.move)
        else:
            lines.append(teller.line(m))
    return lines


def _answered(game, moves):
    """Return the Move rows from the latest play before `moves` to them, if `moves` need it.

    Answers are told with the action they answer; when `moves` (consecutive
    rows) open on answers to an action played before them, the teller is told
    that action first. Answers follow their action at once, so this reads
    only the chain's few moves, wherever the rows are in the log.
    """
    played = next((i for i, m in enumerate(moves) if m.move.get("kind") == "play"), len(moves))
    if not any(m.move.get("kind") in ANSWERS for m in moves[:played]):
        return []
    start = game.moves.filter(n__lt=moves[0].n, move__kind="play").order_by("-n").first()
    if start is None:
        return []
    return list(game.moves.filter(n__gte=start.n, n__lt=moves[0].n).order_by("n"))


def _pending_rent(game):
    """Return (card, amount) of the rent `game` waits for answers to now, or None."""
    if game.snapshot is None or not game.snapshot.get("pending"):
        return None
    pending = rules.GameState.from_json(game.snapshot).pending
    return (pending.card, pending.amount) if pending.effect == RENT else None


def _needs_state(m, deck):
    """Whether Move row `m` is told from the state before it: an older game's rent or wild.

    A rent's amount and a wild's former colour are kept with the move now
    (Game._record); older games' moves have neither.
    """
    details = m.details or {}
    if m.move.get("kind") == "move_wild":
        return "from" not in details
    return _is_rent(m.move, deck) and "amount" not in details


def _is_rent(move, deck):
    card = move.get("card", -1)
    return move.get("kind") == "play" and 0 <= card < len(deck) and deck[card].effect == RENT


# The engine state after a move, by game and move number, as JSON: a rent's sentence needs
# the state the rent was charged in. The table keeps the state of each version it draws
# (see recent_moves), so in play the state before a new rent is at hand without reading
# the log; a process that has not drawn the earlier versions replays the log from the deal.
_states = Memo(512)


def _state_key(game, n):
    return (game.pk, game.code, n)


def _state_before(game, rows, i):
    """Return the engine state just before rows[i] (told Move rows in order), or None."""
    for j in range(i - 1, -1, -1):
        known = _states.find(_state_key(game, rows[j].n))
        if known is not None:
            return _advance(rules.GameState.from_json(known), rows[j + 1 : i])
    before = game.moves.filter(n__lt=rows[i].n).order_by("n").only("seat", "move")
    return _advance(dealt_state(game), before)


def _advance(state, rows):
    """Return `state` with the moves of `rows` applied; None if the log does not fit it."""
    try:
        for row in rows:
            rules.apply(state, row.seat, rules.Move.from_json(row.move))
    except (rules.IllegalMove, ValueError, KeyError, IndexError, TypeError):
        return None  # A position set by hand (tests) is not its log's: no amounts then.
    return state


def dealt_state(game):
    """Return the engine state `game` was dealt in (before its first move), or None."""
    if game.snapshot is None:
        return None
    try:
        return rules.new_game(game.snapshot["seats"], game.seed, game.options)
    except (ValueError, KeyError, TypeError):
        return None


# The last moves of a game at a version, in a language: every socket of a table redraws
# the same ones after a move. The log of a version never changes (moves are only added,
# each with a new version), so it is remembered in this process, the latest ones only;
# with the teller that told them, so that the next version tells only its new moves.
_recent = Memo(512)

# How far back a version's log is looked for to continue from (a move with forced answers
# after it advances the version by a few).
CONTINUE_FROM = 6


def recent_moves(game, names, deck, length=15):
    """Return move_log(game, names, deck, length), remembered per version and language."""
    lines, _teller = _recent.get(
        _recent_key(game, game.version, names, deck, length),
        lambda: _continued(game, names, deck, length) or _told(game, names, deck, length),
    )
    # The game's state now is the state after its last move, unless a version without a
    # move (a player taking their seat back) came after it: kept for the next rents.
    if lines and lines[-1]["n"] == game.version - 1 and game.snapshot is not None:
        _states.put(_state_key(game, lines[-1]["n"]), game.snapshot)
    return lines


# The moves a transaction just recorded, by game and (first move's number, version after them):
# handed over after the commit (games.table.board.remember), so the log goes on without reading them.
_made = Memo(256)


def remember_moves(game, rows):
    """Remember `rows`, the moves that brought `game` to its version (consecutive, in order)."""
    numbers = [m.n for m in rows]
    if numbers and numbers == list(range(game.version - len(rows), game.version)):
        _made.put((game.pk, game.code, rows[0].n, game.version), rows)


def _recent_key(game, version, names, deck, length):
    language = translation.get_language()
    return (game.pk, game.code, version, tuple(names), len(deck), length, language)


def _told(game, names, deck, length):
    """Return (the last moves of `game` in words, the teller that told them)."""
    kept = []
    lines = move_log(game, names, deck, length, keep=kept)
    return lines, (kept[0] if kept else None)


def _continued(game, names, deck, length):
    """Return (lines, teller) of `game` told on from an earlier version's, or None.

    Only the moves made since that version are read and told, by a copy of the
    teller that told its lines (which knows the action being answered). A new
    rent's amount is the one the game waits for answers to; any other new rent
    is told from the whole log instead (its amount needs the state before it).
    """
    for version in range(game.version - 1, max(game.version - CONTINUE_FROM, 0) - 1, -1):
        found = _recent.find(_recent_key(game, version, names, deck, length))
        if found is not None:
            break
    else:
        return None
    lines, teller = found
    if not lines:
        teller = _Teller(names, deck)  # no move yet: none to answer
    elif teller is None:
        return None
    made = _made.find((game.pk, game.code, version, game.version))
    if made is None:
        rows = list(game.moves.filter(n__gte=version).order_by("n"))
    else:
        rows = [copy(m) for m in made]  # told (given an index) apart from other languages' copies
    if rows and lines and rows[0].n <= lines[-1]["n"]:
        return None
    teller = teller.copy()
    needing = [m for m in rows if _needs_state(m, deck)]
    if needing:
        # Only the rent waiting for answers is told here (its amount the game's now).
        pending = _pending_rent(game)
        if len(needing) > 1 or pending is None or pending[0] != needing[0].move.get("card"):
            return None
        teller.amounts[needing[0].n] = pending[1]
    last = lines[-1].get("index", 0) if lines else 0
    told = []
    for index, m in enumerate(rows, last + 1):
        m.index = index
        told.append(teller.line(m))
    return (lines + told)[-length:], teller


def full_log(moves, names, deck, dealt=None):
    """Return every move of `moves`, a game's whole log in order, in words (see `_Teller.line`).

    With `dealt`, the state the game was dealt in (`dealt_state`), rents tell their amounts.
    """
    teller = _Teller(names, deck, dealt)
    return [teller.line(m) for m in moves]


def tell_alternatives(game, names, deck, first, last, state_before, alternatives):
    """Return {index: sentence} for `alternatives`, {index: move JSON} of moves that could have been.

    Each is told as if made instead of the move at that position in the log
    (by its seat, in the position before it), with the same words as the log.
    Only the moves from `first` to `last` (positions, from 1) are read and
    told, with the state `state_before()` returns for the position before
    `first` (a finished game's checkpoint).
    """
    rows = list(game.moves.order_by("n")[first - 1 : last])
    teller = _Teller(names, deck)
    for m in _answered(game, rows):
        teller.tell(m.seat, m.move)
    teller.state = state_before()
    told = {}
    for index, m in enumerate(rows, first):
        if index in alternatives:
            other = teller.copy()
            if teller.state is not None:
                other.state = rules.GameState.from_json(teller.state.to_json())
            told[index] = other.tell(m.seat, alternatives[index])
        teller.line(m)
    return told


class _Teller:
    """Turn moves into sentences, remembering the action being answered."""

    def __init__(self, names, deck, state=None):
        self.names = names
        self.deck = deck
        self.action = None  # (seat, move) of the latest action played
        self.just_say_nos = {}  # share -> Just Say Nos played in its chain
        self.state = state  # the engine state before the next move told, when known
        self.amount = None  # the amount the move being told charges, when known
        self.amounts = {}  # move number -> the amount it charged, known beforehand
        self.wild_from = None  # the colour the wild being told was moved from, when known

    def copy(self):
        """Return a teller that goes on from here without changing this one."""
        other = _Teller(self.names, self.deck)
        other.action = self.action
        other.just_say_nos = dict(self.just_say_nos)
        return other

    def name(self, seat):
        if 0 <= seat < len(self.names):
            return self.names[seat]
        return "?"

    def card(self, card_id):
        if 0 <= card_id < len(self.deck):
            return kind_name(self.deck[card_id].id)
        return "?"

    def cards(self, card_ids):
        return listed(self.card(c) for c in card_ids)

    def line(self, m):
        """Return a Move row as {"n", "seat", "text", "at", "cause"}; the text marks timeouts.

        A row numbered by its position in the log (`index`, as the review numbers moves)
        keeps that number.
        """
        details = getattr(m, "details", None) or {}
        amount = self.amounts.get(m.n, details.get("amount"))
        text = self.tell(m.seat, m.move, amount, details.get("from"))
        if m.move.get("kind") == "resign" and m.cause == Move.Cause.ABSENT:
            # The site counted an absent player out: one player was left (Game._settle).
            text = _("%(player)s went absent and is out of the game") % {
                "player": self.name(m.seat)
            }
        elif m.cause == Move.Cause.TIMEOUT:
            text = _("%(text)s (out of time)") % {"text": text}
        elif m.cause == Move.Cause.ABSENT:
            text = _("%(text)s (absent)") % {"text": text}
        elif m.cause == Move.Cause.STANDING:
            # Chosen by the player in advance (their standing answers), made by the site.
            text = _("%(text)s (standing answer)") % {"text": text}
        line = {"n": m.n, "seat": m.seat, "text": text, "at": m.created_at, "cause": m.cause}
        if hasattr(m, "index"):
            line["index"] = m.index
        return line

    def tell(self, seat, move, amount=None, wild_from=None):
        """Return `move` of `seat` in words; `wild_from`: the colour a wild moved showed before."""
        self.wild_from = wild_from
        followed = self._follow(seat, move)
        self.amount = followed if followed is not None else amount
        kind = move.get("kind")
        player = self.name(seat)
        teller = getattr(self, f"_{kind}", None)
        try:
            if teller is not None:
                return teller(seat, player, move)
        except (KeyError, IndexError, TypeError):
            pass  # A log entry this code cannot read must not break the table.
        return _("%(player)s made a move") % {"player": player}

    def _follow(self, seat, move):
        """Apply `move` to the state followed, if any; return the amount of a rent it charges."""
        if self.state is None:
            return None
        try:
            _state, events = rules.apply(self.state, seat, rules.Move.from_json(move))
        except (rules.IllegalMove, ValueError, KeyError, IndexError, TypeError):
            self.state = None  # The log does not fit the state: tell the rest without it.
            return None
        moved = (e["from"] for e in events if e["type"] == "move_wild")
        self.wild_from = next(moved, self.wild_from)  # a game's older moves keep none
        rents = (e for e in events if e["type"] == "play" and e["effect"] == RENT)
        return next((e["amount"] for e in rents), None)

    def _resign(self, seat, player, move):
        return _("%(player)s resigned") % {"player": player}

    def _end(self, seat, player, move):
        return _("%(player)s ended the turn") % {"player": player}

    def _bank(self, seat, player, move):
        kind = self.deck[move["card"]]
        if kind.category == MONEY:
            return _("%(player)s banked %(card)s") % {
                "player": player,
                "card": self.card(move["card"]),
            }
        return _("%(player)s banked %(card)s as %(value)dM") % {
            "player": player,
            "card": self.card(move["card"]),
            "value": kind.value,
        }

    def _lay(self, seat, player, move):
        params = {"player": player, "card": self.card(move["card"])}
        if len(self.deck[move["card"]].colours) > 1:
            params["colour"] = colour_name(move["colour"])
            return _("%(player)s laid %(card)s as %(colour)s") % params
        return _("%(player)s laid %(card)s") % params

    def _move_wild(self, seat, player, move):
        params = {
            "player": player,
            "card": self.card(move["card"]),
            "colour": colour_name(move["colour"]),
        }
        if self.wild_from:
            params["from"] = colour_name(self.wild_from)
            return _("%(player)s moved %(card)s from %(from)s to %(colour)s") % params
        return _("%(player)s moved %(card)s to %(colour)s") % params

    def _discard(self, seat, player, move):
        count = len(move.get("cards", ()))
        return ngettext(
            "%(player)s put %(count)d card on the bottom of the draw pile",
            "%(player)s put %(count)d cards on the bottom of the draw pile",
            count,
        ) % {"player": player, "count": count}

    def _play(self, seat, player, move):
        kind = self.deck[move["card"]]
        effect = kind.effect
        if effect not in (PASS_GO, HOUSE, HOTEL):
            self.action = (seat, move)
            self.just_say_nos = {}
        targets = move.get("targets", [])
        chosen = move.get("cards", [])
        params = {"player": player, "card": self.card(move["card"])}
        if targets:
            params["target"] = self.name(targets[0])
        if effect == PASS_GO:
            return _("%(player)s played Pass Go and drew 2 cards") % params
        if effect == BIRTHDAY:
            return _("%(player)s played It's My Birthday: every other player pays 2M") % params
        if effect == DEBT_COLLECTOR:
            return _("%(player)s played Debt Collector on %(target)s for 5M") % params
        if effect == RENT:
            params["colour"] = colour_name(move["colour"])
            params["amount"] = self.amount
            if targets and self.amount is not None:
                text = _("%(player)s charged %(target)s %(amount)dM %(colour)s rent") % params
            elif self.amount is not None:
                text = _("%(player)s charged everyone %(amount)dM %(colour)s rent") % params
            elif targets:
                text = _("%(player)s charged %(target)s %(colour)s rent") % params
            else:
                text = _("%(player)s charged everyone %(colour)s rent") % params
            if chosen:
                text += " " + ngettext("(doubled)", "(doubled %(count)d times)", len(chosen)) % {
                    "count": len(chosen)
                }
            return text
        if effect == SLY_DEAL:
            params["taken"] = self.card(chosen[0])
            return _("%(player)s played Sly Deal on %(target)s for %(taken)s") % params
        if effect == DOUBLE_SLY_DEAL:
            params["taken"] = self.cards(chosen)
            return _("%(player)s played Double Sly Deal on %(target)s for %(taken)s") % params
        if effect == FORCED_DEAL:
            params["give"], params["take"] = self.card(chosen[0]), self.card(chosen[1])
            return _("%(player)s played Forced Deal on %(target)s: %(give)s for %(take)s") % params
        if effect == DEAL_BREAKER:
            colours = self.deck[chosen[0]].colours if chosen else ()
            if len(colours) == 1:
                params["colour"] = colour_name(colours[0])
                return (
                    _("%(player)s played Deal Breaker on %(target)s for a %(colour)s set") % params
                )
            return _("%(player)s played Deal Breaker on %(target)s") % params
        if effect in (HOUSE, HOTEL):
            colours = self.deck[chosen[0]].colours if chosen else ()
            if len(colours) == 1:
                params["colour"] = colour_name(colours[0])
                return _("%(player)s built a %(card)s on %(colour)s") % params
            return _("%(player)s built a %(card)s") % params
        if effect == JAIL:
            return _("%(player)s played Jail on %(target)s") % params
        if effect == HEIR:
            return _("%(player)s played Heir on %(target)s") % params
        if effect == SPEEDING:
            params["target"] = listed(self.name(t) for t in targets)
            return _("%(player)s played Speeding on %(target)s") % params
        return _("%(player)s played %(card)s") % params

    def _just_say_no(self, seat, player, move):
        share = move.get("share", -1)
        self.just_say_nos[share] = self.just_say_nos.get(share, 0) + 1
        return _("%(player)s said Just Say No") % {"player": player}

    def _transfer(self, seat, player, move):
        # A transferred share starts a new chain (the engine resets its Just Say Nos).
        self.just_say_nos[move.get("share", -1)] = 0
        return _("%(player)s used Rent Transfer: %(target)s pays instead") % {
            "player": player,
            "target": self.name(move["targets"][0]),
        }

    def _accept(self, seat, player, move):
        share = move.get("share", -1)
        if self.just_say_nos.get(share, 0) % 2:
            return _("%(player)s accepted the Just Say No") % {"player": player}
        if self.action is None:
            return _("%(player)s accepted") % {"player": player}
        actor, action = self.action
        effect = self.deck[action["card"]].effect
        chosen = move.get("cards", [])
        params = {"player": player, "actor": self.name(actor)}
        if effect in MONEY_EFFECTS:
            if not chosen:
                return _("%(player)s had nothing to pay %(actor)s") % params
            params["total"] = sum(self.deck[c].value for c in chosen)
            params["cards"] = self.cards(chosen)
            return _("%(player)s paid %(actor)s %(total)dM (%(cards)s)") % params
        if effect == SPEEDING:
            if not chosen:
                return _("%(player)s had no card to discard") % params
            params["card"] = self.card(chosen[0])
            return _("%(player)s discarded %(card)s") % params
        taken = action.get("cards", [])
        if effect in (SLY_DEAL, DOUBLE_SLY_DEAL):
            params["taken"] = self.cards(taken)
            return _("%(actor)s took %(taken)s from %(player)s") % params
        if effect == FORCED_DEAL:
            params["give"], params["take"] = self.card(taken[0]), self.card(taken[1])
            return _("%(actor)s swapped %(give)s for %(player)s's %(take)s") % params
        if effect == DEAL_BREAKER:
            return _("%(actor)s took a complete set from %(player)s") % params
        if effect == JAIL:
            return _("%(player)s went to jail") % params
        if effect == HEIR:
            return _("%(actor)s took a random card from %(player)s's hand") % params
        return _("%(player)s accepted") % params
