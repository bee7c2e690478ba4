"""Junk posted to every form but the move's (which test_request_fuzz.py covers).

Chat, reports, standing answers, resign, come back, rematch, a new game against
the computer, fill with bots, settings, vacation and block, each posted junk
chosen by hypothesis, by a seated player, the host or an outsider, with and
without htmx. What every answer is held to:

- never a 5xx; a 4xx carries a reason a person can read;
- a refusal (a 4xx, an error or warning message, a form's errors) changes no
  row of the database (every row of the models below is compared, before and
  after). An answer that changes nothing without a refusal is a switch set to
  what it was (chat on, a player not blocked): its page shows the state.

Each example runs in a savepoint rolled back after it.
"""

from urllib.parse import urlencode

import pytest
from django.contrib.auth import get_user_model
from django.contrib.messages import constants, get_messages
from django.db import transaction
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, event, given, settings, strategies as st

from accounts.blocks import Block
from accounts.models import Vacation
from games.chat.messages import ChatMessage, ChatMute, Report
from games.models import Game, Invitation, Move, Notification, Seat
from games.tests.test_request_fuzz import values, words
from lobby.tests.conftest import open_table

FUZZ = settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

ROWS = (Game, Seat, Move, ChatMessage, ChatMute, Report, Notification, Vacation, Block, Invitation)

# What each form posts, by name: junk values for these, and junk names besides.
FORMS = {
    "chat": ("games:chat_post", "game", ["text", "phrase", "room"]),
    "chat switch": ("games:chat_switch", "game", ["off", "scope", "chat"]),
    "report": ("games:chat_report", "message", ["reason", "note"]),
    "standing answers": (
        "games:standing_answers",
        "game",
        ["accept_without_jsn", "pay_rule", "jsn_deal_breaker"],
    ),
    "resign": ("games:resign", "game", ["confirm"]),
    "come back": ("games:come_back", "game", []),
    "rematch": ("games:rematch", "game", []),
    "new computer game": ("games:computer", "game", ["level"]),
    "fill with bots": ("lobby:fill_with_bots", "open table", ["level", "bot_level"]),
    "settings": (
        "accounts:settings",
        None,
        ["display_name", "language", "email_notifications", "pay_rule", "colour_blind"],
    ),
    "vacation": ("accounts:take_vacation", None, ["days", "next"]),
    "end vacation": ("accounts:end_vacation", None, ["next"]),
    "block": ("accounts:block", "user", ["block"]),
}


@st.composite
def junk_posts(draw):
    form = draw(st.sampled_from(sorted(FORMS)))
    known = FORMS[form][2]
    names = st.one_of(st.sampled_from(known), words) if known else words
    fields = draw(st.lists(st.tuples(names, values), max_size=8))
    return form, fields, draw(st.booleans()), draw(st.sampled_from(["alice", "bob", "charlie"]))


def rows():
    """Return every row of ROWS and the users' own columns (what a form could change)."""
    found = [list(model.objects.order_by("pk").values()) for model in ROWS]
    users = get_user_model().objects.order_by("pk").values()
    found.append([{k: v for k, v in user.items() if k != "last_login"} for user in users])
    return found


def refused_in(response):
    """Whether an answer says it refused: a 4xx, an error or warning, a form's errors."""
    body = response.content.decode(errors="replace")
    levels = [m.level for m in get_messages(response.wsgi_request)]
    refused = response.status_code >= 400 or "errorlist" in body
    refused |= any(level >= constants.WARNING for level in levels)
    return refused or 'class="message error"' in body or 'class="message warning"' in body


@pytest.fixture
def cast(alice, bob, charlie, table_game):
    """Alice and bob at a game in play (alice wrote in its chat), alice's open table."""
    message = ChatMessage.objects.create(
        game=table_game, user=alice, room=ChatMessage.Room.PLAYERS, text="good luck"
    )
    return {"game": table_game, "message": message, "open table": open_table(alice, bob)}


def url_of(form, cast, users):
    route, about, _fields = FORMS[form]
    if about is None:
        return reverse(route)
    if about == "message":
        return reverse(route, args=[cast["game"].code, cast["message"].pk])
    if about == "user":
        return reverse(route, args=[users["bob"].username])
    return reverse(route, args=[cast[about].code])


@pytest.mark.django_db
@FUZZ
@given(junk_posts())
def test_it_answers_junk_on_every_form_with_a_reason_and_changes_nothing_it_refuses(
    alice, bob, charlie, cast, example
):
    form, fields, htmx, who = example
    users = {"alice": alice, "bob": bob, "charlie": charlie}
    client = Client()
    client.force_login(users[who])
    url = url_of(form, cast, users)
    headers = {"HX-Request": "true"} if htmx else {}
    with transaction.atomic():
        before = rows()
        response = client.post(
            url, urlencode(fields), "application/x-www-form-urlencoded", headers=headers
        )
        changed = rows() != before
        transaction.set_rollback(True)

    event(f"{form}: {response.status_code}, {'changed' if changed else 'unchanged'}")
    assert response.status_code in (200, 302, 400, 403, 404, 405), (form, response.status_code)
    refused = refused_in(response)
    if response.status_code >= 400:
        assert len(response.content.decode(errors="replace").strip()) > 10, "a reason"
    if refused:
        assert not changed, f"{form} refused {fields} but changed the database"
