"""config.links: the links lists draw in every row, reversed once per process."""

from django.urls import reverse, set_script_prefix

from config.links import link


def test_it_gives_what_reverse_gives():
    assert link("games:review", "abc123") == reverse("games:review", args=["abc123"])
    assert link("accounts:profile", "a.b+c@d") == reverse("accounts:profile", args=["a.b+c@d"])


def test_it_follows_the_script_prefix():
    try:
        set_script_prefix("/fullset/")
        assert link("games:table", "abc123") == "/fullset/games/abc123/"
    finally:
        set_script_prefix("/")
    assert link("games:table", "abc123") == "/games/abc123/"
