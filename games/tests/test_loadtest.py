"""The load test command, on a tiny configuration against the live test server."""

import json
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
        stdout=out,
    )

    result = json.loads(out.getvalue().strip().splitlines()[-1])
    assert FIGURES <= result.keys()
    assert result["tables"] == 2 and result["sockets"] == 4
    assert result["moves"] == 6
    assert result["lost_updates"] == 0
    assert result["duplicated_updates"] == 0
    assert result["errors"] == 0, result["error_kinds"]
    for key in ("p50", "p95", "p99"):
        assert result["round_trip_ms"][key] > 0
        assert result["echo_baseline_ms"][key] > 0
    assert result["peak_server_memory_mb"] > 0


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
