"""The load test command, on a tiny configuration against the live test server."""

import json
import random
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from accounts.models import User
from games.models import Game

FIGURES = {
    "tables",
    "sockets",
    "moves",
    "moves_per_second",
    "round_trip_ms",
    "lost_updates",
    "duplicated_updates",
    "errors",
    "peak_server_memory_mb",
    "echo_baseline_ms",
}


def test_it_plays_every_table_and_prints_its_figures_last(live_asgi_server):
    out = StringIO()
    call_command(
        "loadtest",
        *("--url", live_asgi_server, "--tables", "2", "--players", "2"),
        *("--moves-per-table", "3", "--think", "0.05", "--duration", "30"),
        *("--via", "post"),
        stdout=out,
    )

    result = json.loads(out.getvalue().strip().splitlines()[-1])
    assert FIGURES <= result.keys() and result["via"] == "post"
    assert result["tables"] == 2 and result["sockets"] == 4
    assert result["moves"] == 6
    assert result["lost_updates"] == 0
    assert result["duplicated_updates"] == 0
    assert result["errors"] == 0, result["error_kinds"]
    for key in ("p50", "p95", "p99"):
        assert result["round_trip_ms"][key] > 0
        assert result["echo_baseline_ms"][key] > 0
    assert result["peak_server_memory_mb"] > 0
    assert 0 < result["server_cpu_percent"] < 400


def test_it_sends_the_moves_over_the_players_sockets_and_posts_none(live_asgi_server, monkeypatch):
    from games.tools.load import Player

    posts, sent = [], []

    async def no_post(self, path, fields, base_url=None):
        posts.append(path)
        raise AssertionError("a move was posted")

    send = Player.send

    async def counted_send(self, text):
        sent.append(json.loads(text))
        await send(self, text)

    monkeypatch.setattr(Player, "post", no_post)
    monkeypatch.setattr(Player, "send", counted_send)
    out = StringIO()
    call_command(
        "loadtest",
        *("--url", live_asgi_server, "--tables", "2", "--players", "2", "--via", "socket"),
        *("--moves-per-table", "4", "--think", "0.05", "--duration", "30"),
        stdout=out,
    )

    result = json.loads(out.getvalue().strip().splitlines()[-1])
    assert result["via"] == "socket"
    assert result["moves"] == 8 and len(sent) == 8 and posts == []
    assert {"version", "kind", "HEADERS"} <= sent[0].keys()
    assert result["lost_updates"] == 0 and result["late_updates"] == 0
    assert result["errors"] == 0, result["error_kinds"]
    assert result["round_trip_ms"]["p50"] > 0


def test_it_counts_a_move_refused_over_the_socket_as_an_error(live_asgi_server, monkeypatch):
    from games.tools import load

    fields = load.move_fields

    def from_an_old_board(move, version):
        return fields(move, version - 1)

    monkeypatch.setattr("games.tools.management.commands.loadtest.move_fields", from_an_old_board)
    out = StringIO()
    call_command(
        "loadtest",
        *("--url", live_asgi_server, "--tables", "1", "--players", "2", "--via", "socket"),
        *("--moves-per-table", "2", "--think", "0", "--timeout", "5"),
        stdout=out,
    )

    result = json.loads(out.getvalue().strip().splitlines()[-1])
    assert result["moves"] == 0
    assert result["error_kinds"] == {"move not applied (socket flash)": 2}


def test_it_removes_the_users_and_games_it_made(live_asgi_server):
    call_command(
        "loadtest",
        *("--url", live_asgi_server, "--tables", "1", "--players", "2"),
        *("--moves-per-table", "1", "--think", "0"),
        stdout=StringIO(),
    )

    assert not User.objects.exists()
    assert not Game.objects.exists()


@pytest.mark.parametrize(
    "url", ["http://example.com:8000", "https://127.0.0.1:8000", "http://10.0.0.2"]
)
def test_it_refuses_servers_off_this_machine(db, url):
    with pytest.raises(CommandError, match="loopback|this machine"):
        call_command("loadtest", "--url", url, "--tables", "1", stdout=StringIO())


@pytest.mark.django_db
def test_its_players_play_like_the_basic_bot_by_default(table_game, alice, bob):
    from games.rules import Move
    from games.rules.position import card_in
    from games.tests.helpers import set_position
    from games.tools.load import choose_move

    state = set_position(
        table_game,
        """
        players: alice bob
        turn: alice
        plays: 3
        alice hand: 10M pass_go red birthday green
        alice table: red: red red; green: green
        bob bank: 5M 3M
        """,
    )
    completes = Move.lay(card_in(state, "alice", "hand", "red"), "red")

    # Every seed: a basic player completes the set first.
    for seed in range(5):
        seat, move, version = choose_move(table_game.code, random.Random(seed))
        assert (seat, move, version) == (0, completes, table_game.version)
    # A random player does not always.
    chosen = {choose_move(table_game.code, random.Random(s), "random")[1] for s in range(20)}
    assert chosen - {completes}


def test_it_floods_the_lobby_while_the_games_are_played(live_asgi_server):
    out = StringIO()
    call_command(
        "loadtest",
        *("--url", live_asgi_server, "--tables", "1", "--players", "2"),
        *("--moves-per-table", "6", "--think", "0.5", "--duration", "30"),
        *("--flood-sockets", "24", "--flood-anonymous", "3", "--flood-tables", "10"),
        stdout=out,
    )

    result = json.loads(out.getvalue().strip().splitlines()[-1])
    assert result["errors"] == 0 and result["lost_updates"] == 0
    flood = result["flood"]
    assert flood["idle_sockets_open"] == 24
    assert flood["anonymous_refused"] == 3 and flood["anonymous_open"] == 0
    assert flood["tables_created"] >= 10 and flood["table_errors"] == {}
    # Coalesced: far fewer lobby renders than tables made.
    assert flood["lobby_messages_per_idle_socket"]["max"] < flood["tables_created"] / 2
    # Only the rows that changed (well under a kB each), never the whole list again.
    assert flood["lobby_kb_per_idle_socket"]["max"] < flood["tables_created"]
    assert not User.objects.exists() and not Game.objects.exists()


def test_it_finds_the_server_while_the_server_closes_sockets(monkeypatch):
    """A descriptor that closes while the server's are listed does not hide the server."""
    import os
    import socket

    from games.tools import load

    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    others = [socket.socket() for _ in range(3)]  # descriptors listed before the listener's
    own = f"/proc/{os.getpid()}/fd/"
    readlink, closed = os.readlink, []

    def closing_first(path):
        if str(path).startswith(own) and not closed:
            closed.append(path)
            raise FileNotFoundError(path)
        return readlink(path)

    monkeypatch.setattr(load.os, "readlink", closing_first)
    try:
        assert os.getpid() in load.listening_pids(listener.getsockname()[1])
        assert closed
    finally:
        for sock in [listener, *others]:
            sock.close()
