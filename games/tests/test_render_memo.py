"""The sockets of a table share what is the same for all of them at one version.

After a move every socket redraws the table for its own user. The other
players' tables (public) and the last moves in words are drawn once per
version in a process, and each player's table once until it changes; a user's
own fragments once per version (the htmx answer to their move and their
socket). Nobody is ever given another user's fragments.
"""

import re
import threading

import pytest
from django.template.loader import render_to_string
from django.utils import translation

from games import rules
from games.models import Game
from games.rules.position import card_in
from games.table import board, memo as memo_module, presenting
from games.table.board import render_fragments, table_context
from games.table.memo import Memo
from games.tests.helpers import set_position
from games.tests.review_helpers import started_game

pytestmark = pytest.mark.django_db

# Three "basic" bots picking with games.tools.load.pick_move play 124 moves from this seed,
# whatever the players' ids: long enough for the tests that play 60 or 80 of them.
LONG_GAME_SEED = 2


@pytest.fixture
def drawn(monkeypatch):
    """Count the templates drawn by games.table.board, by fragment name."""
    counts = {}
    real = board.render_to_string

    def counting(name, *args, **kwargs):
        fragment = name.split("#")[-1]
        counts[fragment] = counts.get(fragment, 0) + 1
        return real(name, *args, **kwargs)

    monkeypatch.setattr(board, "render_to_string", counting)
    # Nothing drawn by an earlier test: what is drawn once is shared by every game that
    # shows it so (a table's pieces, the piles, the frames around them).
    for memo in ("_players", "_pieces", "_sets", "_entries", "_frames", "_logs"):
        monkeypatch.setattr(board, memo, Memo(100))
    return counts


def redraw(game, users):
    game = Game.objects.get(pk=game.pk)
    with translation.override("en"):
        return {user.username: render_fragments(table_context(game, user)) for user in users}


def test_each_players_table_is_drawn_once_until_it_changes(alice, bob, charlie, drawn):
    users = [alice, bob, charlie]
    game = started_game(users)

    first = redraw(game, users)
    # Each table twice: as its owner sees it (with "(you)") and as the two others see it.
    assert drawn["player"] == 6
    # Every user's own board and hand, in frames drawn once for all who see them alike:
    # one board's, and one hand's for the player on turn and one for the two others.
    assert drawn["board"] == 1 and drawn["hand"] == 2
    assert drawn["middle"] == 1  # the piles and the pending action, the same for all three

    again = redraw(game, users)
    assert again == first
    assert drawn["player"] == 6 and drawn["board"] == 1  # nothing drawn twice
    assert drawn["middle"] == 1

    state = game.state()
    ender, third = state.current, (state.current + 2) % 3
    game.play(ender, {"kind": "end"})
    redraw(game, users)
    # The turn passed: the tables of the player who ended it and of the next one changed
    # (their turn marks, the next one's cards drawn); the third player's did not.
    assert drawn["player"] == 10 and drawn["board"] == 1
    third_name = users[third].username
    assert first[third_name].count(f'data-seat="{third}"') == 1


def test_a_move_draws_only_the_set_it_changed(alice, bob, drawn, monkeypatch):
    monkeypatch.setattr(board, "_sets", Memo(100))  # sets are shared by games: start afresh
    game = started_game([alice, bob])
    state = set_position(
        game,
        """
        players: alice bob
        turn: alice
        plays: 3
        alice hand: red 1M
        alice table: brown: brown; green: green green
        bob hand: 2M
        bob table: yellow: yellow
        """,
    )
    redraw(game, [alice, bob])
    assert drawn["set"] == 3  # brown, green and yellow: each the same for every viewer

    game.play(0, rules.Move.lay(card_in(state, 0, "hand", "red"), "red"), version=game.version)
    redraw(game, [alice, bob])
    assert drawn["set"] == 4  # the new red set; the others were drawn already
    game.play(0, rules.Move.bank(card_in(state, 0, "hand", "1M")), version=game.version)
    html = redraw(game, [alice, bob])
    assert drawn["set"] == 4  # the bank changed, no set
    assert len(re.findall(r'<div class="set[ "]', html["bob"])) == 4
    assert "Red set: 1 of 3 cards" in html["bob"]


def alices_turn(alice, bob, *lines):
    """Return (game, state): alice to play, 3 plays left, with `lines` of the position; bob 4M."""
    game = started_game([alice, bob])
    text = "\n".join(["players: alice bob", "turn: alice", "plays: 3", *lines, "bob hand: 4M"])
    return game, set_position(game, text)


def test_a_hands_cards_are_drawn_once_and_post_the_version_they_are_shown_at(
    alice, bob, drawn, monkeypatch
):
    monkeypatch.setattr(board, "_entries", Memo(100))
    game, state = alices_turn(alice, bob, "alice hand: red 1M 2M 3M")
    first = redraw(game, [alice])["alice"]
    assert drawn["hand_entry"] == 4

    game.play(0, rules.Move.bank(card_in(state, 0, "hand", "1M")), version=game.version)
    html = redraw(game, [alice])["alice"]

    assert drawn["hand_entry"] == 4  # the three cards left offer what they offered
    versions = set(re.findall(r'name="version" value="([^"]*)"', html))
    assert versions == {str(game.version)}  # not the version they were first drawn at
    assert str(game.version - 1) in re.findall(r'name="version" value="([^"]*)"', first)
    assert "<@version@>" not in html and "<@version@>" not in first


def test_an_owners_set_with_forms_is_drawn_once_and_posts_the_version_shown(
    alice, bob, drawn, monkeypatch
):
    monkeypatch.setattr(board, "_sets", Memo(100))
    game, state = alices_turn(alice, bob, "alice hand: 1M 2M", "alice table: red: red red/yellow")
    redraw(game, [alice, bob])
    assert drawn["set"] == 2  # the red set as alice sees it (its wild's moves), and as bob does

    game.play(0, rules.Move.bank(card_in(state, 0, "hand", "1M")), version=game.version)
    html = redraw(game, [alice, bob])

    assert drawn["set"] == 2  # the same set, the same moves: only their version is new
    menu = re.search(
        r'<details class="card-menu" name="table-card".*?</details>', html["alice"], re.S
    )
    assert "Move to yellow" in menu.group(0)
    assert re.findall(r'name="version" value="([^"]*)"', menu.group(0)) == [str(game.version)]
    assert "<@version@>" not in html["alice"] + html["bob"]


def test_a_table_put_together_in_its_article_is_the_table_its_template_draws(alice, bob, charlie):
    game = started_game([alice, bob, charlie])
    set_position(
        game,
        """
        players: alice bob charlie
        turn: alice
        plays: 2
        alice hand: 1M
        alice table: red: red red/yellow; green: green green
        alice bank: 2M
        bob table: brown: brown
        """,
    )
    game = Game.objects.get(pk=game.pk)
    articles = 0
    for user in (alice, bob, charlie):
        with translation.override("en"):
            context = table_context(game, user)
            for player in context["table"]["players"]:
                part = {"asked": board.ASKED_MARK, "move_url": board.URL_MARK}
                sets = [dict(s, html=board.set_html(s, part)) for s in player["sets"]]
                pieces = board._player_pieces(player)
                whole = dict(player, sets=sets, pieces=pieces)
                drawn = render_to_string("games/table.html#player", dict(part, player=whole))
                expected = board.with_asked(drawn, context["asked"], context["move_url"])
                assert player["html"] == expected
                articles += 1
    assert articles == 9  # with sets and without, own and others', on turn and not
    assert "No properties yet." in context["table"]["players"][2]["html"]


def test_the_players_as_others_see_them_are_worked_out_once_per_version(
    alice, bob, charlie, monkeypatch
):
    worked = []
    real = presenting._public_part
    monkeypatch.setattr(presenting, "_public", Memo(100))
    monkeypatch.setattr(presenting, "_public_part", lambda *a: worked.append(1) or real(*a))
    game, _state = alices_turn(alice, bob, "alice hand: 1M", "alice table: red: red red/yellow")
    game = Game.objects.get(pk=game.pk)

    with translation.override("en"):
        tables = {u.username: table_context(game, u)["table"] for u in (alice, bob, charlie)}

    assert len(worked) == 1  # for alice, bob and the spectator charlie alike
    alice_seen_by = {name: table["players"][0] for name, table in tables.items()}
    # alice's own table offers her wild's moves; as the others see it, nothing of them.
    wild = alice_seen_by["alice"]["sets"][0]["cards"][1]
    assert [c["kind"] for c in wild["controls"]] == ["move_wild"]
    for name in ("bob", "charlie"):
        assert alice_seen_by[name]["is_me"] is False
        assert not any(c["controls"] for s in alice_seen_by[name]["sets"] for c in s["cards"])
    assert tables["bob"]["players"][1]["is_me"] is True  # bob's own table is his, not shared
    assert tables["charlie"]["players"][1]["is_me"] is False


def test_a_countdown_is_drawn_once_for_the_status_and_tables_showing_it(alice, bob, monkeypatch):
    from games.templatetags import clock

    drawn = []
    real = clock._countdown
    monkeypatch.setattr(clock, "_countdowns", Memo(100))
    monkeypatch.setattr(
        clock, "_countdown", lambda deadline: drawn.append(deadline) or real(deadline)
    )
    game = started_game([alice, bob])

    html = redraw(game, [alice, bob])

    awaited = game.seats.exclude(deadline=None).select_related("user").get()
    deadline = awaited.deadline
    assert drawn == [deadline]  # one deadline
    # Shown three times: in the status of the player on turn, and on their table as they
    # and as the other player see it.
    shown = f'<span class="countdown" data-deadline="{deadline.isoformat()}">'
    other = "bob" if awaited.user == alice else "alice"
    assert html[awaited.user.username].count(shown) == 2 and html[other].count(shown) == 1


def test_a_move_redraws_only_the_pieces_of_a_table_it_changed(alice, bob, drawn, monkeypatch):
    monkeypatch.setattr(board, "_pieces", Memo(100))
    monkeypatch.setattr(board, "moment", lambda: 1)  # no half-minute passes meanwhile
    game, state = alices_turn(alice, bob, "alice hand: 1M 2M 3M 4M", "alice table: red: red")
    # A first move gives alice the clock (the position was set without moving it).
    game.play(0, rules.Move.bank(card_in(state, 0, "hand", "4M")), version=game.version)
    redraw(game, [alice, bob])
    before = dict(drawn)

    game.play(0, rules.Move.bank(card_in(state, 0, "hand", "1M")), version=game.version)
    html = redraw(game, [alice, bob])

    new = {name: drawn.get(name, 0) - before.get(name, 0) for name in drawn}
    # The articles around the pieces (alice's table as she and as bob sees it) are drawn
    # once per kind of table, the pieces put in: neither is drawn again.
    assert new.get("player", 0) == 0
    assert new["player_bank"] == 1  # her bank, the same for both
    assert new["player_hand"] == 1  # her hand's backs, as bob sees them
    assert new.get("player_head", 0) == new.get("player_clock", 0) == 0
    assert new.get("middle", 0) == 0  # the piles did not change: not drawn again
    assert 'title="2 cards in hand"' in html["bob"] and "Bank 5M" in html["bob"]
    banked = card_in(Game.objects.get(pk=game.pk).state(), 0, "bank", "1M")
    assert f'data-card="{banked}"' in html["alice"] and f'data-card="{banked}"' in html["bob"]


def test_a_move_form_is_drawn_once_and_posts_the_version_it_is_shown_at(alice, bob, monkeypatch):
    from games.templatetags import moves

    drawn = []
    real = moves.render_to_string
    monkeypatch.setattr(moves, "_forms", Memo(100))
    # No hand's card, nor hand's frame (with its end-turn form), drawn by another test.
    monkeypatch.setattr(board, "_entries", Memo(100))
    monkeypatch.setattr(board, "_frames", Memo(100))
    monkeypatch.setattr(moves, "render_to_string", lambda *a: drawn.append(a[1]) or real(*a))
    game, state = alices_turn(alice, bob, "alice hand: 1M 2M sly_deal", "bob table: red: red")
    redraw(game, [alice])
    first = len(drawn)
    assert first >= 4  # bank 1M, bank 2M, the Sly Deal's (bank it, take bob's red), end turn

    game.play(0, rules.Move.bank(card_in(state, 0, "hand", "1M")), version=game.version)
    html = redraw(game, [alice])["alice"]

    assert len(drawn) == first  # the same moves on offer: no form drawn again
    forms = re.findall(
        r'<form method="post" action="[^"]*" ws-send class="move-form">.*?</form>', html, re.S
    )
    assert len(forms) == first - 1  # all but the 1M's
    for form in forms:
        assert re.findall(r'name="version" value="([^"]*)"', form) == [str(game.version)]
        assert f'action="/games/{game.code}/move/"' in form

    # Another game offering the same moves draws none of them again: they post to its table.
    other, _state = alices_turn(alice, bob, "alice hand: 1M 2M sly_deal", "bob table: red: red")
    html = redraw(other, [alice])["alice"]
    assert len(drawn) == first
    assert html.count(f'action="/games/{other.code}/move/"') >= first
    assert f"/games/{game.code}/" not in html and "<@" not in html


def test_a_status_is_drawn_from_pieces_shared_by_the_players_who_see_them_so(
    alice, bob, drawn, monkeypatch
):
    monkeypatch.setattr(board, "_pieces", Memo(100))
    monkeypatch.setattr(board, "moment", lambda: 1)  # no half-minute passes meanwhile
    game, state = alices_turn(alice, bob, "alice hand: 1M 2M 3M")
    game.play(0, rules.Move.bank(card_in(state, 0, "hand", "3M")), version=game.version)
    html = redraw(game, [alice, bob])
    assert drawn["status_turn"] == 2  # "Your turn: 2 plays left"; "alice's turn", bob's
    assert drawn["status_facts"] == 1  # the round, the same for both

    game.play(0, rules.Move.bank(card_in(state, 0, "hand", "2M")), version=game.version)
    again = redraw(game, [alice, bob])

    assert drawn["status_turn"] == 3  # alice's plays left, not bob's line
    assert drawn["status_mine"] == 2 and drawn["status_facts"] == 1  # as they were
    assert "Your turn: 2 plays left" in html["alice"] and "Your turn: 1 play left" in again["alice"]
    assert "alice's turn" in again["bob"] and "Your turn" not in again["bob"]


def test_nobody_gets_another_users_fragments(alice, bob):
    game = started_game([alice, bob])

    html = redraw(game, [alice, bob])

    hands = set(game.state().players[0].hand)
    assert html["alice"] != html["bob"]
    assert "(you)" in html["alice"] and "(you)" in html["bob"]
    assert "alice (you)" in html["alice"] and "bob (you)" not in html["alice"]
    assert hands  # alice's cards are drawn in her hand only
    for card in hands:
        assert f'data-card="{card}"' in html["alice"]
        assert f'data-card="{card}"' not in html["bob"]


def test_an_opponent_holding_one_card_and_ones_own_table_are_drawn_apart(
    alice, bob, charlie, django_user_model, drawn
):
    """A table's pieces are shared by every game: one card in hand is not one's own table."""
    dave = django_user_model.objects.create_user("dave", "dave@example.com", "x")
    mine, theirs = started_game([alice, bob]), started_game([charlie, dave])
    set_position(mine, "turn: alice\nalice hand: 5M red\nbob hand: 1M 2M 3M")
    set_position(
        theirs, "players: charlie dave\nturn: charlie\ncharlie hand: 5M red\ndave hand: 1M"
    )

    # alice's own table first (no hand on it), then dave's as charlie sees it, and back.
    own = _article(redraw(mine, [alice])["alice"], 0)
    daves = _article(redraw(theirs, [charlie])["charlie"], 1)
    own_again = _article(redraw(mine, [alice])["alice"], 0)

    assert "1 card in hand" in daves and daves.count("mini-back") == 1
    assert "in hand" not in own and own_again == own


def test_the_piles_show_the_card_of_their_own_edition(alice, bob, charlie, drawn):
    """The same card id is another card in the enhanced deck: the discard pile shows its own."""
    classic = started_game([alice, bob])
    enhanced = started_game([alice, bob], options={"enhanced": True})
    faces = []
    for game in (classic, enhanced):
        state = game.state()
        assert CARD_SIX[bool(game.options)] == state.deck[6].id
        for player in state.players:
            player.hand = [c for c in player.hand if c != 6]
        # The same counts in both games: only the card on top differs.
        state.draw, state.discard = [c for c in state.draw if c != 6][:20], [6]
        game.snapshot = dict(state.to_json(), seats=game.snapshot["seats"])
        game.save(update_fields=["snapshot"])
        middle = re.search(
            r'<div id="middle".*?</figure>.*?</figure>', redraw(game, [charlie])["charlie"], re.S
        )[0]
        faces.append(re.findall(r'class="card card-\w+ face-([\w-]+)', middle))

    assert faces == [["2M"], ["1M"]]


CARD_SIX = {False: "2M", True: "1M"}  # card 6 of each edition's deck


def _article(html, seat):
    return re.search(rf'<article id="player-{seat}".*?</article>', html, re.S)[0]


def test_the_sockets_redraw_a_move_without_a_query(
    alice, bob, charlie, django_capture_on_commit_callbacks, django_assert_num_queries
):
    """The move hands its game row, seats, state and move rows over to the process's sockets."""
    users = [alice, bob, charlie]
    game = started_game(users)
    game.play(game.state().current, {"kind": "end"})  # the log has a move to go on from
    shown = {}
    with translation.override("en"):
        for user in users:  # the sockets opened: each drew the table once
            shown[user.pk] = board.board_update(board.game_at(game.code), user, None)[1]
    ender = game.state().current
    with django_capture_on_commit_callbacks(execute=True):
        game.play(ender, {"kind": "end"}, version=game.version)

    with django_assert_num_queries(0), translation.override("en"):
        for user in users:
            html, _marks = board.board_update(
                board.game_at(game.code, game.version), user, shown[user.pk]
            )
            assert f'data-version="{game.version}"' in html
            assert f"{users[ender].username} ended the turn" in html


def test_the_memo_keeps_the_latest_entries_only():
    memo = Memo(2)
    computed = []

    def value(key):
        return memo.get(key, lambda: computed.append(key) or key.upper())

    assert [value("a"), value("b"), value("a"), value("c")] == ["A", "B", "A", "C"]
    assert computed == ["a", "b", "c"]
    value("a")  # still there: used more lately than "b"
    value("b")  # gone: computed again
    assert computed == ["a", "b", "c", "b"]


def test_it_computes_a_value_once_when_two_threads_ask_for_it_at_once():
    # The move's answer and the mover's socket draw the same board at the same moment.
    memo = Memo(4)
    computing, release = threading.Event(), threading.Event()
    computed, results = [], []

    def slow():
        computed.append("first")
        computing.set()
        release.wait(5)
        return "board"

    first = threading.Thread(target=lambda: results.append(memo.get("k", slow)))
    first.start()
    assert computing.wait(5)
    second = threading.Thread(
        target=lambda: results.append(memo.get("k", lambda: computed.append("second") or "x"))
    )
    second.start()
    second.join(0.2)
    assert second.is_alive()  # it waits for the first
    release.set()
    first.join(5)
    second.join(5)
    assert computed == ["first"]
    assert results == ["board", "board"]


def test_it_computes_again_when_the_thread_computing_fails():
    memo = Memo(4)

    def broken():
        raise RuntimeError("the database went away")

    with pytest.raises(RuntimeError):
        memo.get("k", broken)
    assert memo.get("k", lambda: "board") == "board"


def test_a_value_nobody_waits_for_is_computed_without_an_event(monkeypatch):
    # Most values are computed with nobody waiting for them: only a waiting thread makes one.
    made = []

    class CountedEvent(threading.Event):
        def __init__(self):
            made.append(self)
            super().__init__()

    monkeypatch.setattr(memo_module.threading, "Event", CountedEvent)
    memo = Memo(4)
    assert memo.get("k", lambda: "board") == "board"
    assert memo.find("k", wait=True) == "board"
    assert memo.find("other", wait=True) is None
    assert made == []


def test_a_dropped_value_is_freed_with_the_memo_open_to_other_threads():
    memo = Memo(1)
    locked_when_freed = []

    class Drawn:
        def __del__(self):
            locked_when_freed.append(memo._lock.locked())

    memo.put("old", Drawn())
    memo.get("new", lambda: "board")
    assert locked_when_freed == [False]


def test_the_sockets_are_told_of_a_move_even_if_handing_it_over_fails(
    alice, bob, monkeypatch, django_capture_on_commit_callbacks
):
    game = started_game([alice, bob])
    told = []

    def broken(*args):
        raise RuntimeError("handing over failed")

    monkeypatch.setattr(board, "remember", broken)
    monkeypatch.setattr(Game, "broadcast", lambda self, users=(): told.append(self.version))
    with pytest.raises(RuntimeError), django_capture_on_commit_callbacks(execute=True):
        game.play(game.state().current, {"kind": "end"})

    assert told == [game.version]  # the sockets redraw from the database at this version
    assert Game.objects.get(pk=game.pk).version == game.version  # the move was kept


def _element(html, element_id):
    """Return (start, end) of the element of `html` with `element_id`, or None."""
    found = re.search(rf'<(\w+) id="{element_id}"', html)
    if found is None:
        return None
    tag, depth = found.group(1), 0
    for tag_found in re.finditer(rf"<(/?){tag}\b[^>]*>", html[found.start() :]):
        depth += -1 if tag_found.group(1) else 1
        if depth == 0:
            return found.start(), found.start() + tag_found.end()
    raise AssertionError(f"{element_id} is not closed")


def _swapped(page, html):
    """Return `page` with the out-of-band swaps of `html` made, as htmx makes them."""
    for element_id in re.findall(r'<\w+ id="([\w-]+)"[^>]* hx-swap-oob="true"', html):
        start, end = _element(html, element_id)
        incoming = html[start:end].replace(' hx-swap-oob="true"', "", 1)
        shown = _element(page, element_id)
        assert shown is not None, f"the page has no {element_id} to swap"
        page = page[: shown[0]] + incoming + page[shown[1] :]
    return page


def _board(html):
    start, end = _element(html, "board")
    return re.sub(r' data-version="\d+"| hx-swap-oob="true"', "", html[start:end])


def test_it_sends_the_parts_of_the_board_that_changed_and_the_board_is_as_if_drawn_whole(
    alice, bob, charlie
):
    """A page that swaps in the parts it is sent shows the board its player would be shown."""
    from games.tools.load import pick_move

    users = [alice, bob, charlie]
    game = started_game(users, seed=LONG_GAME_SEED)
    with translation.override("en"):
        pages, shown = {}, {}
        for user in users:
            html, shown[user.pk] = board.board_update(board.game_at(game.code), user, None)
            pages[user.pk] = html.replace(' hx-swap-oob="true"', "")
        parts_sent = whole_sent = 0
        for n in range(80):
            game = Game.objects.get(pk=game.pk)
            if game.status != Game.Status.ACTIVE:
                break
            seat, move = pick_move(game.snapshot, n, "basic")
            game.play(seat, move, version=game.version)
            # The game's end redraws the boards whole (a finished game's board is another).
            ended = Game.objects.get(pk=game.pk).status != Game.Status.ACTIVE
            for user in users:
                html, shown[user.pk] = board.board_update(
                    board.game_at(game.code, game.version), user, shown[user.pk]
                )
                whole_sent += 'id="board"' in html and not ended
                parts_sent += len(re.findall(r'<\w+ id="(?:player-\d|middle)" data-version', html))
                pages[user.pk] = _swapped(pages[user.pk], html)
                drawn_whole = board.board_update(game, user, None)[0]
                assert _board(pages[user.pk]) == _board(drawn_whole)
    assert n > 20 and parts_sent > n and whole_sent == 0


def test_the_fragments_put_together_in_their_frames_are_those_their_templates_draw(
    alice, bob, charlie, django_user_model
):
    """Each fragment drawn from its frame and pieces is what its template draws whole."""
    from django.utils.html import escape
    from django.utils.safestring import mark_safe

    from games.tools.load import pick_move

    users = [alice, bob, charlie]
    dave = django_user_model.objects.create_user("dave", "dave@example.com", "x")
    game = started_game(users, seed=LONG_GAME_SEED)
    checked = set()
    with translation.override("en"):
        for n in range(60):
            game = Game.objects.get(pk=game.pk)
            for user in [*users, dave]:  # dave watches
                context = dict(table_context(game, user), oob=True, flash=[])
                table = context["table"]
                for name in board.FRAGMENTS:
                    framed = board._fragment(name, context)  # the hand's cards drawn meanwhile
                    lines = reversed(table["log"] or ())
                    log = "".join(
                        f'<li value="{x["index"]}">{escape(x["text"])}</li>' for x in lines
                    )
                    whole = dict(context, log_lines=mark_safe(log))
                    assert framed == render_to_string(f"games/table.html#{name}", whole), name
                    checked.add((name, user.username, table["my_turn"], bool(table["hand"])))
            if game.status != Game.Status.ACTIVE:
                break
            seat, move = pick_move(game.snapshot, n, "basic")
            game.play(seat, move, version=game.version)
    assert n > 30
    assert ("hand", "alice", True, True) in checked and ("hand", "bob", False, True) in checked
    assert ("hand", "dave", False, False) in checked


def test_what_a_table_shows_is_keyed_alike_when_alike_and_apart_when_not():
    from copy import deepcopy

    from django.utils.safestring import mark_safe

    shown = ({"colour": "green", "cards": [{"id": 55, "kind": "green/railroad", "value": 4}]}, 1)
    key = presenting.shown_key

    assert key(deepcopy(shown)) == key(shown)  # equal data, other objects: one key
    # One string shown twice, or two equal strings: the same data, written alike.
    kind = "".join(["green/", "railroad"])
    twice = [{"kind": kind}, {"kind": kind}]
    apart = [{"kind": "".join(["green/", "railroad"])}, {"kind": "".join(["green/", "railroad"])}]
    assert key(twice) == key(apart)
    # Data that differs, if only by a type repr tells apart, has another key.
    for other in (
        ({**shown[0], "cards": [{"id": 55, "kind": "green/railroad", "value": 3}]}, 1),
        (shown[0], True),
        (shown[0], "1"),
        (shown[0], 1, None),
        [shown[0], 1],
    ):
        assert key(other) != key(shown), other
    # What marshal cannot write is told by its repr, apart from anything it writes.
    assert key(("alice", mark_safe("<b>"))) == key(("alice", mark_safe("<b>")))
    assert key(("alice", mark_safe("<b>"))) != key(("alice", mark_safe("<i>")))
    assert key(("alice", mark_safe("<b>"))) != key(("alice", "<b>"))


def test_a_hand_card_is_never_drawn_from_another_card_of_the_same_number(alice, bob, monkeypatch):
    # A card's number is its place in its game's deck: another edition or deck count gives
    # the same number to another card, which the kept drawing must not stand for.
    monkeypatch.setattr(board, "_entries", Memo(100))

    def hand_card(position):
        game = started_game([alice, bob])
        set_position(game, f"players: alice bob\nturn: bob\n{position}")
        with translation.override("en"):
            [entry] = table_context(Game.objects.get(pk=game.pk), alice)["table"]["hand"]
        return game, entry

    game, five = hand_card("alice hand: 5M")
    other, red = hand_card("alice hand: red")
    # A copy: the drawn card is shared, kept for every table that shows it (drawn_cards.card).
    red = dict(red, card=dict(red["card"], id=five["card"]["id"]))

    with translation.override("en"):
        first = board.hand_entry_html(five, game.version, game.get_absolute_url())
        second = board.hand_entry_html(red, other.version, other.get_absolute_url())

    assert first != second
    assert "Red" in second and "5M money" not in second
