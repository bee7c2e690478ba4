"""A long game costs a page: the review's move list and the log page show a page of its moves.

Wild switches are unlimited (docs/rules.md section 2), so a game can be made as long as its
players like. Each page is told from the nearest checkpoint (a finished game) in the same
words as the whole log told from the deal; here pages are made short so that a stored game
of a few hundred moves has many.
"""

import random
import re

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import translation

from games import rules
from games.history import review as reviews
from games.models import Analysis
from games.rules.bots import random_move
from games.rules.engine import OVER
from games.table import log
from games.table.log import ANSWERS, dealt_state, full_log, log_page
from games.tests.review_helpers import (
    play_to_the_end,
    started_game,
    store_finished,
    stored_game,
    verdicts_at,
)

pytestmark = pytest.mark.django_db

PAGE = 20


@pytest.fixture
def short_pages(monkeypatch):
    monkeypatch.setattr(log, "MOVES_PER_PAGE", PAGE)


@pytest.fixture
def long_game(alice, bob, charlie):
    """A finished game of three, stored as old games were (its review built on the first visit)."""
    game = stored_game([alice, bob, charlie], seed=4)
    reviews.ensure_summary(game)
    return game


def names_of(game):
    return [seat.user.username for seat in game.seats.order_by("position").select_related("user")]


def whole_log(game):
    """Every line of the game's log, told from the deal: what each page must agree with."""
    rows = list(game.moves.order_by("n"))
    with translation.override("en"):
        return full_log(rows, names_of(game), game.state().deck, dealt_state(game))


def page_lines(html):
    """Return [(position, text)] of the move list's lines in `html`."""
    found = re.findall(r'<li data-move="(\d+)"[^>]*>\s*<a [^>]*>([^<]*)</a>', html)
    return [(int(n), text.replace("&#x27;", "'")) for n, text in found]


def test_every_page_of_a_finished_game_is_told_as_the_whole_log_tells_it(long_game):
    every = whole_log(long_game)
    rows = list(long_game.moves.order_by("n"))
    # Pages that open on an answer must be told with the action played before them.
    assert any(m.move["kind"] in ANSWERS for m in rows)
    assert any(m.move["kind"] == "move_wild" for m in rows)
    names, deck = names_of(long_game), long_game.state().deck

    for count in (1, 7):
        for first in range(1, len(rows) + 1, count):
            with translation.override("en"):
                page = log_page(
                    long_game,
                    names,
                    deck,
                    first,
                    count,
                    state_before=lambda first=first: reviews.state_after(long_game, first - 1),
                )
            expected = every[first - 1 : first - 1 + count]
            assert [line["index"] for line in page] == list(range(first, first + len(expected)))
            assert [line["text"] for line in page] == [line["text"] for line in expected], first


def test_a_page_of_a_game_kept_as_game_play_keeps_it_reads_no_state(alice, bob, charlie):
    # A rent's amount and a wild's former colour are kept with their moves: no page, and no
    # step of the review, reads a checkpoint or replays anything to tell them.
    game = stored_game([alice, bob, charlie], seed=4, details=True)
    reviews.ensure_summary(game)
    every = whole_log(game)
    assert any(m.details and "amount" in m.details for m in game.moves.all())
    names, deck = names_of(game), game.state().deck

    def no_state():
        pytest.fail("the state was read")

    for first in range(1, len(every) + 1, 7):
        with translation.override("en"):
            page = log_page(game, names, deck, first, 7, state_before=no_state)
        assert [line["text"] for line in page] == [
            line["text"] for line in every[first - 1 : first + 6]
        ]


def test_every_page_of_a_game_in_play_is_told_as_the_whole_log_tells_it(alice, bob, charlie):
    # No checkpoints while a game is played: a rent's state comes from the table's memo or the
    # deal, and a wild's former colour from its move (kept as it is played).
    game = play_to_the_end(started_game([alice, bob, charlie]), seed=11)
    every = whole_log(game)
    names, deck = names_of(game), game.state().deck

    for first in range(1, len(every) + 1, 3):
        with translation.override("en"):
            page = log_page(game, names, deck, first, 3)
        assert [line["text"] for line in page] == [
            line["text"] for line in every[first - 1 : first + 2]
        ]


def test_the_engine_s_moves_are_told_on_a_page_as_from_the_deal(long_game):
    # Each decision's "better" move is the move made: told as the log tells it, with the
    # action answered and the rent's amount, from the page's checkpoint.
    every = whole_log(long_game)
    rows = list(long_game.moves.order_by("n"))
    names, deck = names_of(long_game), long_game.state().deck
    verdicts = {
        i: {"seat": m.seat, "mark": "", "loss": 0.0, "chances": [0.3] * 3, "best_chance": 0.3}
        | {"best": m.move}
        for i, m in enumerate(rows, 1)
    }

    for first in range(1, len(rows) + 1, PAGE):
        wanted = {i: v for i, v in verdicts.items() if first <= i < first + PAGE}
        with translation.override("en"):
            marks = reviews.present_marks(long_game, wanted, names, deck)
        assert {i: mark["alternative"] for i, mark in marks.items()} == {
            i: every[i - 1]["text"] for i in wanted
        }


def test_the_review_shows_the_page_of_its_position_with_the_pages_either_side(
    client, alice, long_game, short_pages
):
    every = whole_log(long_game)
    total = len(every)
    assert total > 3 * PAGE
    client.force_login(alice)
    url = reverse("games:review", args=[long_game.code])

    html = client.get(f"{url}?move=30").content.decode()

    assert page_lines(html) == [(i, every[i - 1]["text"]) for i in range(21, 41)]
    assert 'class="current " aria-current="step"' in html.split('data-move="30"')[2][:60]
    assert '<ol class="move-list" start="21">' in html
    assert "The deal</a>" not in html.split('id="review-move-list"')[1]
    assert f"Moves 21 to 40 of {total}" in html
    assert f'href="{url}?move=20"' in html and f'href="{url}?move=41"' in html

    first_page = client.get(f"{url}?move=0").content.decode()
    assert page_lines(first_page) == [(0, "The deal")] + [
        (i, every[i - 1]["text"]) for i in range(1, 21)
    ]
    assert "Earlier moves" not in first_page and f'href="{url}?move=21"' in first_page

    last = (total - 1) // PAGE * PAGE + 1
    last_page = client.get(url).content.decode()
    assert [n for n, _text in page_lines(last_page)] == list(range(last, total + 1))
    assert "Later moves" not in last_page


def test_a_step_off_the_page_shown_brings_the_new_page_out_of_band(
    client, alice, long_game, short_pages
):
    every = whole_log(long_game)
    client.force_login(alice)
    url = reverse("games:review", args=[long_game.code])
    htmx = {"HX-Request": "true", "Review-Move-Page": "21"}

    within = client.get(f"{url}?move=40", headers=htmx).content.decode()
    beyond = client.get(f"{url}?move=41&as=1", headers=htmx).content.decode()

    no_header = client.get(f"{url}?move=41", headers={"HX-Request": "true"}).content.decode()

    assert 'data-move="40"' in within and "review-move-list" not in within
    # Without the header (no review.js) the fragment is the position alone, as before.
    assert 'data-move="41"' in no_header and "review-move-list" not in no_header
    assert beyond.lstrip().startswith('<section id="review-position"')
    assert (
        '<div id="review-move-list" class="review-move-list" data-first="41" hx-swap-oob="true">'
        in beyond
    )
    assert page_lines(beyond) == [(i, every[i - 1]["text"]) for i in range(41, 61)]
    assert f'href="{url}?move=41&amp;as=1"' in beyond  # the list keeps the perspective


def test_the_log_page_shows_the_latest_page_and_any_other_asked_for(
    client, alice, long_game, short_pages
):
    every = whole_log(long_game)
    total = len(every)
    client.force_login(alice)
    url = reverse("games:log", args=[long_game.code])

    latest = client.get(url).content.decode()
    asked = client.get(f"{url}?move=25").content.decode()

    def lines(html):
        listed = html.split('<ol class="move-list"')[1]
        found = re.findall(r"<li[^>]*>\s*(.*?)\s*<time", listed, re.S)
        return [text.replace("&#x27;", "'") for text in found]

    last = (total - 1) // PAGE * PAGE + 1
    assert lines(latest) == [line["text"] for line in every[last - 1 :]]
    assert f'<ol class="move-list" start="{last}">' in latest
    assert f'href="{url}?move={last - 1}"' in latest and "Later moves" not in latest
    assert lines(asked) == [line["text"] for line in every[20:40]]
    assert f"Moves 21 to 40 of {total}" in asked
    assert f'href="{url}?move=20"' in asked and f'href="{url}?move=41"' in asked


def test_a_short_game_s_review_and_log_show_every_move_on_one_page(client, alice, long_game):
    every = whole_log(long_game)
    assert len(every) <= log.MOVES_PER_PAGE
    client.force_login(alice)

    review = client.get(reverse("games:review", args=[long_game.code])).content.decode()
    whole = client.get(reverse("games:log", args=[long_game.code])).content.decode()

    assert [n for n, _text in page_lines(review)] == list(range(len(every) + 1))
    for html in (review, whole):
        assert "Earlier moves" not in html and "Later moves" not in html
        assert "Moves 1 to" not in html


def test_an_analysed_page_marks_only_its_own_decisions(client, alice, long_game, short_pages):
    rows = list(long_game.moves.order_by("n"))
    verdicts = {
        str(i): {
            "seat": m.seat,
            "mark": "blunder",
            "loss": 30.0,
            "chances": [0.2, 0.4, 0.4],
            "best": m.move,
            "best_chance": 0.5,
        }
        for i, m in enumerate(rows, 1)
        if i in (5, 25, 26)
    }
    Analysis.objects.create(game=long_game, status=Analysis.Status.DONE, verdicts=verdicts)
    client.force_login(alice)

    html = client.get(reverse("games:review", args=[long_game.code]) + "?move=30").content.decode()

    table = html.split('class="analysis-table"')[1]
    assert re.findall(r'\?move=(\d+)">\1</a>', table) == ["25", "26"]
    assert html.count('class="move-mark mark-blunder"') == 2
    # The totals count the whole game's decisions, on every page.
    for seat, name in enumerate(names_of(long_game)):
        count = sum(1 for v in verdicts.values() if v["seat"] == seat)
        if count:
            words = f"{count} blunder{'s' if count > 1 else ''}, average loss 30.0 points"
            assert f"<strong>{name}</strong>: {words}" in html


def test_a_long_game_s_chart_draws_the_worst_decision_of_each_span(
    client, alice, long_game, monkeypatch
):
    monkeypatch.setattr(reviews, "CHART_MOST_POINTS", 10)
    rows = list(long_game.moves.order_by("n"))
    total = len(rows)
    worst = {7: "blunder", total // 2: "mistake", total: "inaccuracy"}
    verdicts = verdicts_at(long_game, {i: worst.get(i, "") for i in range(1, total + 1)})
    Analysis.objects.create(game=long_game, status=Analysis.Status.DONE, verdicts=verdicts)
    client.force_login(alice)
    url = reverse("games:review", args=[long_game.code])

    html = client.get(f"{url}?move=30", headers={"HX-Request": "true"}).content.decode()

    chart = html[html.index('<figure class="win-chart">') : html.index("</figure>")]
    drawn = [int(n) for n in re.findall(r'<a href="[^"]*\?move=(\d+)"', chart)]
    assert len(drawn) == 11 and drawn == sorted(drawn)  # a point a span, and the position's
    assert set(worst) | {30} <= set(drawn)
    assert 'class="point current"' in chart
    for line in re.findall(r'points="([^"]*)"', chart):
        assert len(line.split()) == 12  # the deal's, then the points drawn


def test_a_step_onto_another_page_brings_that_page_s_judged_decisions(
    client, alice, long_game, short_pages
):
    verdicts = verdicts_at(long_game, (25, 45))
    Analysis.objects.create(game=long_game, status=Analysis.Status.DONE, verdicts=verdicts)
    client.force_login(alice)
    url = reverse("games:review", args=[long_game.code])
    htmx = {"HX-Request": "true", "Review-Move-Page": "21"}

    page = client.get(f"{url}?move=30").content.decode()
    step = client.get(f"{url}?move=41", headers=htmx).content.decode()
    empty = client.get(f"{url}?move=61", headers=htmx).content.decode()

    def decisions(html):
        part = html[html.index('<div id="review-decisions"') :]
        return part, re.findall(r'\?move=(\d+)">\1</a>', part[: part.index("</details>")])

    part, listed = decisions(page)
    assert "Every judged decision of moves 21 to 40, in words" in part and listed == ["25"]
    part, listed = decisions(step)
    assert part.startswith('<div id="review-decisions" hx-swap-oob="true">')
    assert "Every judged decision of moves 41 to 60, in words" in part and listed == ["45"]
    chances = re.findall(r"<td>([^<]*%[^<]*)</td>", part[: part.index("</details>")])
    assert chances and all("%, " in c for c in chances)  # the list's separator, drawn alone too
    part, listed = decisions(empty)
    assert listed == [] and "No decision of these moves was judged." in part


def test_a_step_tells_its_move_as_the_move_list_does(client, alice, long_game):
    # An old game's wild moves keep no former colour: the line is told from the state.
    every = whole_log(long_game)
    assert not any((m.details or {}).get("from") for m in long_game.moves.all())
    client.force_login(alice)
    url = reverse("games:review", args=[long_game.code])

    for n in range(1, 61):
        with translation.override("en"):
            response = client.get(f"{url}?move={n}", headers={"HX-Request": "true"})
        assert response.context["current"]["text"] == every[n - 1]["text"], n


def chain_with_a_resignation(users, seed):
    """Return a finished game whose log has a resignation inside an answer chain.

    Played by the engine with random moves, except that at the first action with two
    or more targets waiting, one of them resigns before the others answer.
    """
    rng = random.Random(seed)
    state = rules.new_game([user.id for user in users], seed)
    moves, resigned = [], False
    while state.phase != OVER and len(moves) < 2000:
        waiting = rules.awaiting(state)
        if not resigned and len(waiting) >= 2 and state.pending is not None:
            seat, move, resigned = waiting[-1][0], rules.Move(rules.RESIGN), True
        else:
            seat = rng.choice(waiting)[0]
            move = random_move(state, seat, rng)
        rules.apply(state, seat, move)
        moves.append((seat, move))
    assert resigned and state.phase == OVER
    return store_finished(users, seed, None, state, [(seat, move, None) for seat, move in moves])


def test_a_page_opening_on_a_resignation_inside_a_chain_tells_the_answers_after_it(
    alice, bob, charlie
):
    dave = get_user_model().objects.create_user("dave")
    game = chain_with_a_resignation([alice, bob, charlie, dave], 5)
    reviews.ensure_summary(game)
    every = whole_log(game)
    rows = list(game.moves.order_by("n"))
    resigned = next(i for i, m in enumerate(rows, 1) if m.move["kind"] == "resign")
    assert rows[resigned].move["kind"] in ANSWERS  # an answer after it, in the same chain
    names, deck = names_of(game), game.state().deck

    for first in range(resigned - 1, resigned + 2):
        with translation.override("en"):
            page = log_page(
                game, names, deck, first, 3, lambda f=first: reviews.state_after(game, f - 1)
            )
        assert [line["text"] for line in page] == [
            line["text"] for line in every[first - 1 : first + 2]
        ]
