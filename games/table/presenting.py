"""A seat's view of a game as the table templates' data: names, cards, moves in words.

`present` turns `rules.view_for(state, seat)` (the only data that leaves the
engine) and the players' names into what games/table.html draws; games.table.board
draws it. The GameState itself never reaches a template, so another player's
hand or the order of the draw pile cannot leak into a page, an htmx response
or a socket message.
"""

import marshal

from django.utils import translation
from django.utils.translation import gettext as _, ngettext

from games.rules.cards import (
    BIRTHDAY,
    DEAL_BREAKER,
    DEBT_COLLECTOR,
    DOUBLE_RENT,
    DOUBLE_SLY_DEAL,
    FORCED_DEAL,
    HEIR,
    JAIL,
    JUST_SAY_NO,
    KIND_BY_ID,
    RENT,
    RENT_TRANSFER,
    SLY_DEAL,
    SPEEDING,
    build_deck,
    decks_for,
)
from games.table.cardnames import colour_name, listed
from games.table.drawn_cards import card, set_numbers
from games.table.labels import Labels
from games.table.memo import Memo


def shown_key(data):
    """Return a key of `data` (the view's plain data): equal for equal data, else different.

    The keys of what a player's table and its sets show: marshal's version 2 (it
    writes no references, so equal data is always written alike) costs a third
    of repr. Data it cannot write (a str subclass, say) is told by its repr.
    """
    try:
        return marshal.dumps(data, 2)
    except ValueError:
        return ("repr", repr(data))


def view_deck(view):
    """Return the card kinds by card id: public knowledge, the same for every game of this size."""
    return build_deck(decks_for(len(view["players"])), view["options"]["enhanced"])


# --- the whole table -------------------------------------------------------------------------


def present(view, user_names, at=None, absent=()):
    """Return the template data of one view; `user_names` maps player ids to names.

    `at`, a table's (code, version), has what every viewer sees alike (the cards on
    the table, the players but the viewer's own) drawn once for all the viewers
    of that version. `absent`: the seats counted out as absent at a game's end
    (Game.counted_out), which the engine knows as resigned.
    """
    names = [
        user_names[p["player"]]
        if p["player"] in user_names
        else _("Player %(n)d") % {"n": p["seat"] + 1}
        for p in view["players"]
    ]
    me = view["seat"]
    language = translation.get_language()
    if at is None:
        public = _public_part(view, names, language)
    else:
        key = (*at, tuple(names), language)
        public = _public.get(key, lambda: _public_part(view, names, language))
    places, spots, table_cards, public_players = public
    cards = dict(table_cards)
    for c in view["hand"] or ():
        cards[c["id"]] = card(c, "", language)
    helper = Labels(view, names, cards, places, spots)
    moves_by_card = {}
    other_moves = []
    for move in view["moves"]:
        if move["kind"] in ("bank", "lay", "play"):
            moves_by_card.setdefault(move["card"], []).append(move)
        else:
            other_moves.append(move)

    # Copies: the table's context adds each player's clock and article to its own.
    players = [dict(p) for p in public_players]
    if me is not None:
        players[me] = _player(view, view["players"][me], names, cards, helper)
    for seat in absent:  # counted out: tagged "Absent", not "Resigned"
        players[seat]["resigned"] = False
        players[seat]["went_absent"] = True
    opponents = players[me + 1 :] + players[:me] if me is not None else players
    hand = None
    if view["hand"] is not None:
        hand = []
        for c in view["hand"]:
            drawn = cards[c["id"]]
            effect = KIND_BY_ID[drawn["kind"]].effect
            moves = helper.distinct(moves_by_card.get(c["id"], ()))
            entry = {"card": drawn, "controls": helper.menu(moves, effect), "note": ""}
            if view["moves"] and effect == DOUBLE_RENT:
                entry["note"] = _("Played together with a rent card: see the rent card.")
            elif effect in (JUST_SAY_NO, RENT_TRANSFER):
                entry["note"] = _("Played in answer to an action aimed at you.")
            hand.append(entry)
    discard = view["discard"]
    my_turn = me is not None and view["current"] == me and view["phase"] == "play"
    return {
        # What the hand shows, from the view's plain data (see fragment_marks).
        "hand_key": shown_key((view["hand"], my_turn)),
        "names": names,
        "me": players[me] if me is not None else None,
        "opponents": opponents,
        "players": players,
        "hand": hand,
        "hand_count": len(hand or ()),
        "draw_count": view["draw_count"],
        "discard_top": card(discard[-1]) if discard else None,
        "discard_count": len(discard),
        "sets_to_win": view["sets_to_win"],
        "round": view["round"],
        "turn": view["turn"],  # which turn of the game: my turn's start is read out once
        "plays_left": view["plays_left"],
        "current_name": names[view["current"]],
        "my_turn": my_turn,
        # Whether the game waits for any decision of mine (public: the tab title says so).
        "awaiting_me": me is not None and any(a["seat"] == me for a in view["awaiting"]),
        "over": view["outcome"] is not None,
        "outcome": _outcome(view, names, absent),
        "pending": _pending(view, names, cards, places),
        "waiting": _waiting(view, names),
        "prompt": _prompt(view, names, cards, helper, other_moves),
    }


_public = Memo(256)  # what every viewer of a table's version sees alike (present)


def _public_part(view, names, language):
    """Return (places, spots, cards, players) of `view` as every viewer sees them.

    `places` maps a table card's id to (owner seat, colour it stands for);
    `spots` to (owner seat, colour, set number: see set_numbers); `cards` holds
    every card on the table drawn; `players` each player as others see them.
    """
    places = {}
    spots = {}
    cards = {}
    for p in view["players"]:
        for s, number in zip(p["sets"], set_numbers(p["sets"])):
            for c in s["cards"]:
                places[c["id"]] = (p["seat"], s["colour"])
                spots[c["id"]] = (p["seat"], s["colour"], number)
                cards[c["id"]] = card(c, s["colour"], language)
            for building in (s["house"], s["hotel"]):
                if building:
                    cards[building["id"]] = card(building, "", language)
        for c in p["bank"]:
            cards[c["id"]] = card(c, "", language)
    players = [_player(view, p, names, cards) for p in view["players"]]
    return places, spots, cards, players


def _player(view, p, names, cards, helper=None):
    """Return player `p` as the viewer sees them: with `helper`, as their own (with their moves)."""
    seat = p["seat"]
    mine = helper is not None
    wild_moves = {}
    for m in view["moves"] if mine else ():
        if m["kind"] == "move_wild":
            wild_moves.setdefault(m["card"], []).append(m)
    sets = []
    for s, number in zip(p["sets"], set_numbers(p["sets"])):
        set_cards = []
        for c in s["cards"]:
            controls = [helper.control(m) for m in wild_moves.get(c["id"], ())]
            set_cards.append({"card": cards[c["id"]], "controls": controls})
        sets.append(
            {
                "key": shown_key((s, number)),  # what it shows: its controls come from the version
                "colour": s["colour"],
                "colour_name": colour_name(s["colour"]),
                "number": number,
                "cards": set_cards,
                "count": len(s["cards"]),
                "size": s["size"],
                "complete": s["complete"],
                "rent": s["rent"],
                "house": cards[s["house"]["id"]] if s["house"] else None,
                "hotel": cards[s["hotel"]["id"]] if s["hotel"] else None,
            }
        )
    # A player deciding outside their own play phase: answering, paying, discarding.
    awaited = [a for a in view["awaiting"] if a["seat"] == seat and a["decision"] != "play"]
    # What the article shows, from the view's plain data (cheaper than the drawn cards').
    wilds = [m for m in view["moves"] if m["kind"] == "move_wild"] if mine else ()
    shown = (p, names[seat], mine, view["sets_to_win"], bool(awaited), view["current"] == seat)
    shown += (view["outcome"], view["hands"][seat] if "hands" in view else None, wilds)
    return {
        "content_key": hash(shown_key(shown)),
        "seat": seat,
        "name": names[seat],
        "is_me": mine,
        "hand_count": p["hand_count"],
        "hand_backs": range(min(p["hand_count"], 12)),
        "bank": [cards[c["id"]] for c in p["bank"]],
        "bank_total": p["bank_total"],
        "sets": sets,
        "complete_count": len(p["complete_colours"]),
        "sets_to_win": view["sets_to_win"],
        "jailed": p["jailed"],
        "resigned": p.get("resigned", False),
        # Only a review shows hands on the players (view["hands"]: rules.review_view).
        "hand": [card(c) for c in view["hands"][seat]] if "hands" in view else None,
        "is_current": view["current"] == seat and view["outcome"] is None,
        "awaited": bool(awaited),
        "winner": (view["outcome"] or {}).get("winner") == seat,
    }


def resigned_text(winner, resigned, absent):
    """Tell a game won by the last player left: who resigned, and who went absent."""
    values = {"name": winner, "resigned": listed(resigned), "absent": listed(absent)}
    if not absent:
        return _("%(name)s won: %(resigned)s resigned") % values
    if not resigned:
        return _("%(name)s won: %(absent)s went absent") % values
    return _("%(name)s won: %(resigned)s resigned and %(absent)s went absent") % values


def _outcome(view, names, absent):
    outcome = view["outcome"]
    if outcome is None:
        return ""
    winner = outcome["winner"]
    if winner is not None and outcome["reason"] == "resigned":
        out = [p["seat"] for p in view["players"] if p.get("resigned")]
        return resigned_text(
            names[winner],
            [names[s] for s in out if s not in absent],
            [names[s] for s in out if s in absent],
        )
    if winner is not None:
        count = len(view["players"][winner]["complete_colours"])
        return ngettext(
            "%(name)s won with %(count)d complete set",
            "%(name)s won with %(count)d complete sets",
            count,
        ) % {"name": names[winner], "count": count}
    return no_winner_text(outcome["reason"])


def no_winner_text(reason):
    """Return why a game ended with no winner, in words."""
    if reason == "stalemate":
        return _("No winner: stalemate")
    if reason == "round_limit":
        return _("No winner: the round limit was reached")
    if reason == "abandoned":
        return _("No winner: the players left the table")
    return _("No winner")


def _waiting(view, names):
    """Return who the game waits for, in words, one line per decision.

    The player on turn playing is not a line: the status says whose turn it is.
    """
    lines = []
    for a in view["awaiting"]:
        name = names[a["seat"]]
        if a["decision"] == "play":
            continue
        if a["decision"] == "discard":
            text = _("%(name)s is choosing cards to put back (hand limit 7)") % {"name": name}
        elif a["decision"] == "counter":
            text = _("%(name)s may answer the Just Say No") % {"name": name}
        else:
            text = _("%(name)s must answer") % {"name": name}
        lines.append({"seat": a["seat"], "text": text, "is_me": a["seat"] == view["seat"]})
    return lines


def _pending(view, names, cards, places):
    """Return the action waiting for answers, one line per player it aims at."""
    pending = view["pending"]
    if pending is None:
        return None
    actor = names[pending["actor"]]
    taken = [cards.get(c["id"]) or card(c) for c in pending["cards"]]
    shares = []
    for share in pending["shares"]:
        debtor = names[share["debtor"]]
        text = _pending_text(pending, actor, debtor, taken, places)
        notes = []
        if share["transferred_by"] is not None:
            notes.append(
                _("%(name)s passed it on with Rent Transfer")
                % {"name": names[share["transferred_by"]]}
            )
        if share["just_say_nos"]:
            notes.append(
                ngettext(
                    "%(count)d Just Say No played",
                    "%(count)d Just Say Nos played",
                    share["just_say_nos"],
                )
                % {"count": share["just_say_nos"]}
            )
            if share["just_say_nos"] % 2:
                notes.append(_("the action is cancelled unless answered"))
        sentence = text
        for note in notes:
            sentence = _("%(text)s; %(note)s") % {"text": sentence, "note": note}
        shares.append(
            {
                "origin": share["origin"],
                "text": text,
                "notes": notes,
                "sentence": _("%(text)s.") % {"text": sentence},
                "awaiting": names[share["awaiting"]],
            }
        )
    return {
        "card": card(pending["card"]),
        "actor": actor,
        "effect": pending["effect"],
        "shares": shares,
    }


def _pending_text(pending, actor, debtor, taken, places):
    effect = pending["effect"]
    params = {"actor": actor, "debtor": debtor, "amount": pending["amount"]}
    if effect == RENT:
        params["colour"] = colour_name(pending["colour"])
        return _("%(actor)s charges %(debtor)s %(amount)dM rent for %(colour)s") % params
    if effect == BIRTHDAY:
        return _("It is %(actor)s's birthday: %(debtor)s pays %(amount)dM") % params
    if effect == DEBT_COLLECTOR:
        return _("%(actor)s collects a %(amount)dM debt from %(debtor)s") % params
    if effect == SLY_DEAL:
        params["card"] = taken[0]["name"]
        return _("%(actor)s takes %(card)s from %(debtor)s") % params
    if effect == DOUBLE_SLY_DEAL:
        params["card"], params["other"] = taken[0]["name"], taken[1]["name"]
        return _("%(actor)s takes %(card)s and %(other)s from %(debtor)s") % params
    if effect == FORCED_DEAL:
        params["give"], params["take"] = taken[0]["name"], taken[1]["name"]
        return _("%(actor)s swaps their %(give)s for %(debtor)s's %(take)s") % params
    if effect == DEAL_BREAKER:
        _owner, colour = places.get(taken[0]["id"], (None, ""))
        params["colour"] = colour_name(colour) if colour else ""
        return _("%(actor)s takes %(debtor)s's complete %(colour)s set") % params
    if effect == JAIL:
        return _("%(actor)s sends %(debtor)s to jail") % params
    if effect == HEIR:
        return _("%(actor)s takes a random card from %(debtor)s's hand") % params
    if effect == SPEEDING:
        return _("%(actor)s makes %(debtor)s discard a card") % params
    return _("%(actor)s played an action against %(debtor)s") % params


def _prompt(view, names, cards, helper, other_moves):
    """Return the decisions the viewer faces now, each with its controls."""
    me = view["seat"]
    if me is None or view["outcome"] is not None:
        return None
    prompt = {"end_turn": None, "discard": None, "answers": []}
    for move in other_moves:
        if move["kind"] == "end":
            prompt["end_turn"] = helper.control(move)
    for choice in view["choices"]:
        if choice["kind"] == "discard":
            prompt["discard"] = {
                "count": choice["count"],
                "cards": [cards[c] for c in choice["eligible"]],
            }
    pending = view["pending"]
    for a in view["awaiting"]:
        if a["seat"] != me or a["share"] is None:
            continue
        share = next(s for s in pending["shares"] if s["origin"] == a["share"])
        answer = {
            "share": a["share"],
            "counter": a["decision"] == "counter",
            # The player's own Just Say No was answered with another: the action stands again.
            "countered": a["decision"] != "counter" and share["just_say_nos"] > 0,
            "text": _pending_text(
                pending,
                names[pending["actor"]],
                names[share["debtor"]],
                [cards.get(c["id"]) or card(c) for c in pending["cards"]],
                helper.places,
            ),
            "card": card(pending["card"]),
            "controls": [
                helper.control(m)
                for m in helper.distinct(
                    m
                    for m in other_moves
                    if m.get("share") == a["share"] and m["kind"] != "move_wild"
                )
            ],
            "pay": None,
        }
        for choice in view["choices"]:
            if choice["kind"] == "pay" and choice["share"] == a["share"]:
                answer["pay"] = {
                    "amount": choice["amount"],
                    "cards": [dict(cards[c], where=helper.where(c)) for c in choice["eligible"]],
                    "available": sum(cards[c]["value"] for c in choice["eligible"]),
                }
        prompt["answers"].append(answer)
    if not (prompt["end_turn"] or prompt["discard"] or prompt["answers"]):
        return None
    return prompt
