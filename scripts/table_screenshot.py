"""Take the home page's picture of a table in mid-game: static/img/table.webp.

Plays a three-player game some turns in with the basic bots, in a scratch
SQLite database, serves the site on a free loopback port, and photographs the
table page as one of the players with the Debian Chromium (Playwright). The
WebP is encoded by Chromium itself, so no image library is needed. Run it
again whenever the card faces or the table page change:

    .venv/bin/python scripts/table_screenshot.py
"""

import argparse
import base64
import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUTPUT = ROOT / "static" / "img" / "table.webp"
VIEWPORT = {"width": 1100, "height": 1300}
QUALITY = 0.8
TURNS = 9  # deep enough into the game for sets, banks and a busy log
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run"]
PLAYERS = [("ada", "Ada"), ("ben", "Ben"), ("chloe", "Chloé")]


def play_into_the_game(game):
    """Play basic-bot moves for everyone until the viewer (seat 0) starts a turn past TURNS."""
    from games import rules
    from games.rules.bots import bot_move

    for step in range(2000):
        game.refresh_from_db()
        state = game.state()
        waiting = rules.awaiting(state)
        if game.status != game.Status.ACTIVE or not waiting:
            raise SystemExit("The game ended before the picture: try another seed.")
        seat, decision = waiting[0][0], waiting[0][1]
        if state.turns >= TURNS and seat == 0 and decision == "play" and state.plays_left == 3:
            return
        move = bot_move(state, seat, "basic", step)
        game.play(seat, move, version=game.version)
    raise SystemExit("The game never reached the picture's turn.")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def main():
    scratch = tempfile.mkdtemp(prefix="table-shot-")
    os.environ["SQLITE_PATH"] = str(Path(scratch) / "db.sqlite3")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.test import Client

    from games.models import Game

    call_command("migrate", verbosity=0)
    User = get_user_model()
    users = [
        User.objects.create_user(name, f"{name}@example.com", display_name=shown)
        for name, shown in PLAYERS
    ]
    User.objects.update(show_table_hints=False)
    game = Game.objects.create(host=users[0], seat_count=len(users), seed=20261201)
    for user in users:
        game.join(user)  # the last one starts the game
    play_into_the_game(game)

    client = Client()
    client.force_login(users[0])
    cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "manage.py", "runserver", f"127.0.0.1:{port}", "--noreload"],
        cwd=ROOT,
        env=os.environ.copy(),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        url = f"http://127.0.0.1:{port}"
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.1)
        OUTPUT.parent.mkdir(parents=True, exist_ok=True)
        OUTPUT.write_bytes(photograph(url, cookie, game.get_absolute_url()))
    finally:
        server.terminate()
        server.wait(10)
    print(f"{OUTPUT.relative_to(ROOT)}: {OUTPUT.stat().st_size // 1024} KB")


def photograph(url, cookie, path):
    """Return the table page as WebP bytes, drawn by Chromium and encoded by its canvas."""
    from django.conf import settings
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        context = browser.new_context(viewport=VIEWPORT)
        context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": url}])
        page = context.new_page()
        page.goto(url + path)
        page.wait_for_selector("#board")
        page.wait_for_load_state("networkidle")
        png = page.locator(".game-page").screenshot()
        page.goto("about:blank")
        data, width, height = page.evaluate(
            """async ([png, quality]) => {
                const image = new Image();
                image.src = "data:image/png;base64," + png;
                await image.decode();
                const canvas = document.createElement("canvas");
                canvas.width = image.width;
                canvas.height = image.height;
                canvas.getContext("2d").drawImage(image, 0, 0);
                return [canvas.toDataURL("image/webp", quality), image.width, image.height];
            }""",
            [base64.b64encode(png).decode(), QUALITY],
        )
        browser.close()
    print(f"{width}x{height}: the width and height of the home page's <img>")
    return base64.b64decode(data.split(",", 1)[1])


if __name__ == "__main__":
    # No options: --help tells what it does, and overwrites nothing.
    argparse.ArgumentParser(description=__doc__.split("\n\n")[0]).parse_args()
    main()
