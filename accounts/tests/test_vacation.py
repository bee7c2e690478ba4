"""Taking and ending a vacation from the settings page (issue 15, part 3); the clocks are
tested in games/tests/test_vacation.py."""

from datetime import datetime, timedelta

import pytest
import time_machine
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import Vacation

TAKE = reverse("accounts:take_vacation")
END = reverse("accounts:end_vacation")
SETTINGS = reverse("accounts:settings")
NOW = datetime(2026, 6, 1, 8, 0, tzinfo=timezone.UTC)

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def frozen():
    with time_machine.travel(NOW, tick=False) as traveller:
        yield traveller


def messages_of(response):
    return [str(m) for m in response.context["messages"]]


def test_it_requires_login(client):
    for url in (TAKE, END):
        response = client.post(url, {"days": 3})
        assert response.status_code == 302
        assert response.url.startswith(reverse("accounts:login"))
    assert not Vacation.objects.exists()


def test_it_accepts_only_posts(client, alice):
    client.force_login(alice)
    assert client.get(TAKE, {"days": 3}).status_code == 405
    assert not Vacation.objects.exists()


def test_it_refuses_a_post_without_the_csrf_token(alice):
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)
    assert client.post(TAKE, {"days": 3}).status_code == 403
    assert not Vacation.objects.exists()


def test_it_shows_the_days_used_and_left_on_the_settings_page(client, alice):
    client.force_login(alice)

    response = client.get(SETTINGS)

    assert "Vacation days in 2026: 0 used of 30, 30 left." in response.text
    assert f'action="{TAKE}"' in response.text


def test_it_takes_a_vacation_of_whole_days_starting_now(client, alice):
    client.force_login(alice)

    response = client.post(TAKE, {"days": 4, "next": SETTINGS}, follow=True)

    vacation = Vacation.objects.get(user=alice)
    assert (vacation.starts_at, vacation.ends_at, vacation.days) == (NOW, NOW + timedelta(4), 4)
    assert response.redirect_chain == [(SETTINGS, 302)]
    # In a <time> the page's script puts in the reader's time zone, as the page's own.
    assert messages_of(response) == [
        "Your vacation has begun: your correspondence games wait for you until "
        '<time data-local-time datetime="2026-06-05T08:00:00+00:00">June 5, 2026, 8 a.m. UTC'
        "</time>."
    ]
    assert "Vacation days in 2026: 4 used of 30, 26 left." in response.text
    assert "You are on vacation until" in response.text
    assert f'action="{END}"' in response.text and f'action="{TAKE}"' not in response.text


@pytest.mark.parametrize(
    ("days", "error"),
    [
        ("0", "A vacation lasts at least one day."),
        ("-2", "A vacation lasts at least one day."),
        ("", "Enter a number of days."),
        ("1.5", "Enter a whole number of days."),
        ("lots", "Enter a whole number of days."),
        ("31", "You have 30 days of vacation left this year."),
    ],
)
def test_it_refuses_bad_numbers_of_days_with_a_readable_error(client, alice, days, error):
    client.force_login(alice)

    response = client.post(TAKE, {"days": days}, follow=True)

    assert messages_of(response) == [error]
    assert response.redirect_chain == [(SETTINGS, 302)]
    assert not Vacation.objects.exists()


def test_it_refuses_a_second_vacation_while_one_is_under_way(client, alice):
    client.force_login(alice)
    client.post(TAKE, {"days": 2}, follow=True)

    response = client.post(TAKE, {"days": 1}, follow=True)

    assert messages_of(response) == [
        'You are already on vacation until <time data-local-time datetime="2026-06-03T08:00:00'
        '+00:00">June 3, 2026, 8 a.m. UTC</time>. End it before taking another.'
    ]
    assert Vacation.objects.get().days == 2


def test_it_ends_a_vacation_early_giving_back_the_days_not_begun(client, alice, frozen):
    client.force_login(alice)
    client.post(TAKE, {"days": 10}, follow=True)
    frozen.shift(timedelta(days=2, hours=5))

    response = client.post(END, {"next": reverse("lobby:your_turn")}, follow=True)

    assert response.redirect_chain == [(reverse("lobby:your_turn"), 302)]
    assert messages_of(response) == [
        "Your vacation has ended: it counted 3 days. Your clocks run again."
    ]
    vacation = Vacation.objects.get()
    assert vacation.days == 3 and vacation.ends_at == timezone.now()
    assert "Vacation days in 2026: 3 used of 30, 27 left." in response.text


def test_it_says_so_when_there_is_no_vacation_to_end(client, alice):
    client.force_login(alice)

    response = client.post(END, follow=True)

    assert messages_of(response) == ["You are not on vacation."]


def test_it_ends_only_my_own_vacation(client, alice, charlie):
    client.force_login(alice)
    client.post(TAKE, {"days": 5})
    outsider = Client()
    outsider.force_login(charlie)

    response = outsider.post(END, follow=True)

    assert messages_of(response) == ["You are not on vacation."]
    assert Vacation.objects.get(user=alice).days == 5


def test_it_comes_back_only_to_a_page_of_this_site(client, alice):
    client.force_login(alice)

    response = client.post(TAKE, {"days": 1, "next": "https://evil.example/"})

    assert response.url == "/"


@pytest.mark.parametrize("junk", ["0", "home", "settings", "javascript:alert(1)"])
def test_it_goes_home_from_a_next_that_is_no_path(client, alice, junk):
    """A word was taken for a URL's name by redirect(): a 500 (found by test_junk_posts.py)."""
    client.force_login(alice)

    response = client.post(END, {"next": junk})

    assert response.status_code == 302 and response.url == "/"


def test_it_answers_htmx_with_a_redirect_of_the_whole_page(client, alice):
    client.force_login(alice)
    client.post(TAKE, {"days": 1})

    response = client.post(END, {"next": "/games/abc/"}, headers={"HX-Request": "true"})

    assert response.status_code == 200
    assert response["HX-Redirect"] == "/games/abc/"


def test_it_shows_the_vacation_in_chinese(client, alice):
    alice.language = "zh-hans"
    alice.save()
    client.force_login(alice)
    client.post(TAKE, {"days": 2})

    response = client.get(SETTINGS)

    assert "2026 年的休假天数：共 30 天，已用 2 天，剩余 28 天。" in response.text
    assert "立即结束休假" in response.text
