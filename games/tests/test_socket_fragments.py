"""A game socket sends only the fragments that changed since it last sent them.

Each socket still draws its own user's view (docs/architecture.md); a fragment that would
show the same as the one the page has (a hand nobody touched, a spectator's
note) is neither drawn nor sent again. A fragment with forms posts its version,
so it is sent with every new version.
"""

import re

import pytest
from asgiref.sync import sync_to_async

from games import rules
from games.tests.test_consumer import connect, receive

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def still_clock(traveller):
    """Stop the clock: a test that crossed a half-minute (games.table.memo.moment) saw every
    status drawn again, its clock's words aged (a flake of the full run, found by its seed)."""


def fragments(html):
    """Return the ids of the elements `html` swaps (out of band)."""
    return set(re.findall(r'<\w+ id="([\w-]+)"[^>]* hx-swap-oob="true"', html))


async def test_it_sends_only_the_fragments_that_changed(table_game, alice, bob, charlie):
    game = table_game
    state = await sync_to_async(game.state)()
    mover, waiter = state.current, 1 - state.current
    sockets = {}
    try:
        for name, user in (("alice", alice), ("bob", bob), ("charlie", charlie)):
            socket, connected = await connect(game, user)
            assert connected
            assert fragments(await receive(socket)) == {"status", "board", "hand", "log"}
            sockets[name] = socket
        by_seat = [sockets["alice"], sockets["bob"]]
        bank = next(m for m in rules.legal_moves(state, mover) if m.kind == "bank")

        await sync_to_async(game.play)(mover, bank, version=game.version)

        # The mover's hand lost a card; the other player's hand and the spectator's note
        # did not change, and hold no forms: they are not sent again. Nor is their status:
        # the plays left, which changed, show only on the mover's. Of the board, only the
        # mover's table changed (its bank, its hand's backs): the piles and the other
        # player's table are not sent again.
        mover_table = f"player-{mover}"
        assert fragments(await receive(by_seat[mover])) == {"status", mover_table, "hand", "log"}
        assert fragments(await receive(by_seat[waiter])) == {mover_table, "log"}
        assert fragments(await receive(sockets["charlie"])) == {mover_table, "log"}

        await sync_to_async(game.play)(mover, rules.Move.end(), version=game.version)

        # Now the other player's hand has moves to make, posting the new version.
        assert "hand" in fragments(await receive(by_seat[waiter]))
        assert "hand" in fragments(await receive(by_seat[mover]))  # no longer its turn
        assert "hand" not in fragments(await receive(sockets["charlie"]))
    finally:
        for socket in sockets.values():
            await socket.disconnect()
