"""A newcomer's first minute, with visible labels only, on the site as `make run` starts it.

Sign up, Play the computer, play a card and end the turn, see the computer's reply within
2 s of its move (answering its actions as they come), resign, Rematch. The site is the real thing: the command
lines of the Makefile's `run` target on a scratch SQLite file, one process
with the worker inside it, so the computer moves as it does for a person
who has just installed Full Set.
"""

import re
import subprocess
import time

import pytest
from django.conf import settings
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from conftest import CHROMIUM, CHROMIUM_ARGS, screenshot
from games.tests.running_site import (
    START_TIMEOUT,
    make_run_commands,
    manage_shell,
    printed,
    server_env,
)
from games.tools.load import free_port, wait_for_port

BOUND = 2.0  # seconds from the computer's move to its line on the newcomer's page
TABLE_URL = re.compile(r"/games/([a-z0-9]+)/$")

# The computer's moves of one game made after move `since`: (number, time made).
BOT_MOVES = """
import json
from games.models import Game, Move

game = Game.objects.get(code={code!r})
moves = Move.objects.filter(game=game, n__gte={since}, seat=1, cause="")
print("BOT " + json.dumps([[m.n, m.created_at.timestamp()] for m in moves.order_by("n")]))
"""

VERSION = """
from games.models import Game

print("VERSION " + str(Game.objects.get(code={code!r}).version))
"""


@pytest.fixture
def site(sites, tmp_path):
    """The site started as `make run` starts it; return (base URL, the environment it runs in)."""
    port = free_port()
    env = server_env(SQLITE_PATH=str(tmp_path / "run.sqlite3"), DATABASE_URL=None, REDIS_URL=None)
    *setup, serve = make_run_commands(port)
    for command in setup:  # migrate
        subprocess.run(command, shell=True, check=True, cwd=settings.BASE_DIR, env=env)
    running = sites(serve, env)
    wait_for_port(port, START_TIMEOUT, running.process)
    running.wait_for(r"Worker: inside this server")
    return f"http://127.0.0.1:{port}", env


@pytest.fixture
def page():
    """A fresh headless Chromium page; what the page reports as broken is collected."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1100, "height": 900})
        page.errors = []
        page.on("pageerror", lambda error: page.errors.append(str(error)))
        # What the Content-Security-Policy refuses, and a missing file (a 404), show on the
        # console only.
        page.on(
            "console",
            lambda m: (
                page.errors.append(m.text)
                if "Content Security Policy" in m.text or "Failed to load resource" in m.text
                else None
            ),
        )
        yield page
        browser.close()


def log_lines(page):
    """Return the recent moves the page shows, as (move number, text)."""
    return [
        (int(n), text)
        for n, text in page.eval_on_selector_all(
            "#log li", "items => items.map(item => [item.value, item.textContent])"
        )
    ]


def my_turn_again(page, timeout=90):
    """Wait for my turn, answering on the way what the computer's actions ask of me.

    The deal is random: the computer may charge a Debt Collector or a rent, or steal,
    and the game then waits for the newcomer's answer (they would accept, and pay with
    what they have, as far as it goes), not for the computer.
    """
    end_turn = page.get_by_role("button", name="End turn")
    prompt = page.locator("#prompt")
    deadline = time.monotonic() + timeout
    while not end_turn.is_visible():
        assert time.monotonic() < deadline, "my turn never came back"
        if not prompt.is_visible():
            time.sleep(0.1)
            continue
        version = page.get_attribute("#hand", "data-version")
        pay = prompt.locator(".pay-form")
        if pay.count():
            for box in pay.locator("input[type=checkbox]").all():
                if int(pay.locator(".js-owed").inner_text()) <= 0:
                    break
                box.check()
            pay.locator("button[type=submit]").click()
        else:
            prompt.locator("button.move-accept").first.click()
        try:  # until the answer is drawn (a refused one changes nothing: look again)
            page.wait_for_function(
                "version => document.querySelector('#hand').dataset.version !== version",
                arg=version,
                timeout=10_000,
            )
        except PlaywrightTimeout:
            pass


def shell(code, env, tag):
    return printed(manage_shell(code, env), tag)


def test_it_takes_a_newcomer_from_sign_up_to_a_rematch_against_the_computer(
    site, page, screenshot_dir
):
    base, env = site
    page.goto(base + "/")
    page.get_by_role("link", name="Sign up").first.click()
    page.get_by_label("Username").fill("newcomer")
    page.get_by_label("Email").fill("newcomer@example.com")
    page.get_by_label(re.compile(r"^Password:?$")).fill("purple-rent-deal-42")
    page.get_by_label("Password confirmation").fill("purple-rent-deal-42")
    page.get_by_role("button", name="Create account").click()

    # One click from the home page: a live table against one Basic computer player, in play.
    page.get_by_role("button", name="Play the computer").click()
    page.wait_for_url(TABLE_URL)
    code = TABLE_URL.search(page.url).group(1)
    my_turn_again(page)  # the computer may start
    screenshot(page, path=screenshot_dir / "newcomer-first-turn.png", full_page=True)

    # A move: play a card from the hand (bank it, or lay a property), as the menu offers.
    playing = re.compile(r"^(Bank it|Lay )")
    card = (
        page.locator("#hand details.card-menu")
        .filter(has=page.get_by_role("button", name=playing, include_hidden=True))
        .first
    )
    card.locator("summary").click()
    card.get_by_role("button", name=playing).first.click()
    page.locator("#log li").filter(has_text=re.compile(r"newcomer (banked|laid) ")).wait_for()

    # Then end the turn. The computer's reply shows as soon as it is made.
    since = int(shell(VERSION.format(code=code), env, "VERSION"))
    last = max(log_lines(page), default=(0, ""))[0]
    page.get_by_role("button", name="End turn").click()
    deadline = time.monotonic() + 30
    while not any(n > last and "Basic bot 1" in text for n, text in log_lines(page)):
        assert time.monotonic() < deadline, "the computer's reply never showed"
        time.sleep(0.05)
    seen = time.time()
    made = shell(BOT_MOVES.format(code=code, since=since), env, "BOT")
    assert made, "the page shows a computer move the database does not have"
    first_made = made[0][1]
    assert seen - first_made <= BOUND, f"the computer's move showed {seen - first_made:.2f} s late"

    # Resign, with the confirmation, and ask for a rematch: the computer accepts at once.
    my_turn_again(page)
    page.get_by_text("Resign", exact=True).first.click()
    page.get_by_role("button", name="Yes, resign").click()
    page.locator("#status").get_by_text("Basic bot 1 won: newcomer resigned").wait_for(
        timeout=10_000
    )
    screenshot(page, path=screenshot_dir / "newcomer-resigned.png", full_page=True)
    page.get_by_role("button", name="Rematch").click()
    page.wait_for_url(lambda url: code not in url and TABLE_URL.search(url) is not None)
    page.get_by_text("Resign", exact=True).first.wait_for()  # the rematch is in play
    screenshot(page, path=screenshot_dir / "newcomer-rematch.png", full_page=True)
    assert page.errors == []
