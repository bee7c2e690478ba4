"""The analysis on the review page: chart, marks, totals, progress, requests, and never earlier."""

import re

import pytest
from asgiref.sync import sync_to_async
from django.urls import reverse

from games.history.analysis import Analysis, analyse_next
from games.models import Game
from games.tests.review_helpers import started_game, stored_game
from games.tests.test_consumer import connect, receive

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture(autouse=True)
def small_budget(settings):
    settings.ANALYSIS_SECONDS_PER_DECISION = 0.002
    settings.ANALYSIS_SECONDS_PER_GAME = 60  # a bound no test game reaches (a busy machine)


def review_url(game, query=""):
    return reverse("games:review", args=[game.code]) + query


def analysis_url(game):
    return reverse("games:analysis", args=[game.code])


@pytest.fixture
def finished(alice, bob):
    return stored_game([alice, bob], seed=3)


@pytest.fixture
def analysed(finished):
    """The finished game analysed, one of alice's moves made a blunder the engine would not make."""
    while analyse_next(worker="w1", seconds=1):
        pass
    analysis = Analysis.objects.get(game=finished)
    assert analysis.status == Analysis.Status.DONE
    n = next(
        int(n)
        for n, v in sorted(analysis.verdicts.items(), key=lambda item: int(item[0]))
        if v["seat"] == 0 and finished.moves.get(n=int(n)).move["kind"] != "end"
    )
    verdicts = {k: dict(v, mark="", loss=0.0, best=None) for k, v in analysis.verdicts.items()}
    verdicts[str(n)] = dict(verdicts[str(n)], mark="blunder", loss=25.0, best={"kind": "end"})
    Analysis.objects.filter(pk=analysis.pk).update(verdicts=verdicts)
    finished.blunder = n
    return finished


def test_it_shows_the_chart_the_marks_and_the_totals_once_analysed(client, charlie, analysed):
    client.force_login(charlie)

    html = client.get(review_url(analysed)).content.decode()

    assert 'class="win-chart"' in html
    assert html.count('<polyline class="seat-line') == 2
    assert f'?move={analysed.blunder}"' in html
    assert "Blunder: 25.0 points of win chance given up. Better: alice ended the turn." in html
    assert "1 blunder, average loss" in html and "no marked move, average loss 0.0 points" in html
    assert "Every judged decision, in words" in html  # the chart's text equivalent
    assert "Request analysis" not in html
    # A Tab stop on every point would put hundreds before the rest of the page.
    points = re.findall(r'<a [^>]*class="point[^>]*>', html)
    assert points and all('tabindex="-1"' in point for point in points)


def test_it_counts_the_decisions_it_shows_and_asking_again_says_it_is_done(
    client, charlie, analysed
):
    # A decision with one possible move gets no verdict: the count is of those judged.
    analysis = Analysis.objects.get(game=analysed)
    verdicts, decisions = len(analysis.verdicts), analysis.decisions
    assert verdicts < decisions
    client.force_login(charlie)

    response = client.post(analysis_url(analysed), follow=True)

    html = response.content.decode()
    assert f"Analysed: {verdicts} decisions judged, each from its player's own view." in html
    assert f"The others of the game's {decisions} decisions had only one possible move." in html
    assert "This game is analysed already: see below." in html
    assert "on its way" not in html


def test_it_highlights_the_current_move_on_the_chart_and_tells_its_verdict(client, alice, analysed):
    client.force_login(alice)

    html = client.get(review_url(analysed, f"?move={analysed.blunder}"), **HTMX).content.decode()

    assert 'class="point current mark-blunder"' in html
    assert "Seen from alice's view, this move left a win chance of" in html
    assert "The engine preferred: alice ended the turn" in html


def test_it_offers_to_request_an_analysis_and_queues_it(client, charlie, finished):
    client.force_login(charlie)
    assert "Request analysis" in client.get(review_url(finished)).content.decode()

    response = client.post(analysis_url(finished))

    assert response.status_code == 302 and response["Location"] == review_url(finished)
    analysis = Analysis.objects.get(game=finished)
    assert analysis.status == Analysis.Status.QUEUED and analysis.requested_by == charlie
    html = client.get(review_url(finished)).content.decode()
    assert "Analysis queued: 0 games before this one." in html
    assert 'hx-trigger="every 3s"' in html


def test_it_shows_progress_while_it_runs_and_reloads_the_page_when_done(client, alice, finished):
    client.force_login(alice)
    client.post(analysis_url(finished))
    analyse_next(worker="w1", seconds=0)

    running = client.get(analysis_url(finished), **HTMX)
    assert "Analysing:" in running.content.decode() and "<progress" in running.content.decode()
    assert "HX-Refresh" not in running

    while analyse_next(worker="w1", seconds=1):
        pass
    done = client.get(analysis_url(finished), **HTMX)
    assert done["HX-Refresh"] == "true"


def test_it_refuses_a_request_once_a_player_made_the_most_in_a_day(
    settings, client, charlie, finished, alice, bob
):
    settings.ANALYSIS_REQUESTS_PER_DAY = 1
    other = stored_game([alice, bob], seed=2)
    client.force_login(charlie)
    client.post(analysis_url(other))

    response = client.post(analysis_url(finished), follow=True)

    assert "You have asked for 1 analysis in the last day" in response.content.decode()
    assert not Analysis.objects.filter(game=finished).exists()


def test_it_puts_the_analysis_in_the_export(client, bob, analysed):
    client.force_login(bob)

    record = client.get(reverse("games:export", args=[analysed.code])).json()

    assert record["analysis"]["status"] == "done"
    verdict = record["analysis"]["verdicts"][str(analysed.blunder)]
    assert verdict["mark"] == "blunder" and verdict["best"] == {"kind": "end"}


def test_it_never_shows_or_queues_an_analysis_before_the_end(client, alice, bob):
    game = started_game([alice, bob])
    client.force_login(alice)

    assert client.post(analysis_url(game)).status_code == 403
    assert client.get(analysis_url(game), **HTMX).status_code == 403
    assert client.get(reverse("games:export", args=[game.code])).status_code == 403
    assert client.get(review_url(game)).status_code == 403
    assert not Analysis.objects.exists()
    # Even a row made by hand for a game in play shows nowhere on its table.
    Analysis.objects.create(game=game, status=Analysis.Status.DONE, verdicts={"1": {"seat": 0}})
    html = client.get(game.get_absolute_url()).content.decode()
    assert "win-chart" not in html and "Analys" not in html


@pytest.mark.django_db(transaction=True)
async def test_it_sends_no_analysis_through_the_socket_of_a_game_in_play(alice, bob):
    game = await sync_to_async(started_game)([alice, bob])
    await sync_to_async(Analysis.objects.create)(
        game=game, status=Analysis.Status.DONE, verdicts={"1": {"seat": 0, "mark": "blunder"}}
    )
    socket, connected = await connect(game, alice)
    try:
        assert connected
        html = await receive(socket)
    finally:
        await socket.disconnect()
    assert "win-chart" not in html and "blunder" not in html.lower() and "Analys" not in html
    assert await sync_to_async(Game.objects.filter(pk=game.pk, status="active").exists)()
