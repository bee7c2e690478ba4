"""The words of the prompt and of the action waiting for answers, in both languages."""

import re

import pytest
from django.utils import translation

from games.rules import Move
from games.rules.position import card_in
from games.table.cardtexts import rents_in_words
from games.table.presenting import resigned_text
from games.tests.helpers import set_position

pytestmark = pytest.mark.django_db


def countered_sly_deal(game):
    """alice's Sly Deal at bob, bob's Just Say No, and alice's answering it with her own."""
    state = set_position(
        game,
        """
        turn: alice
        plays: 3
        alice hand: sly_deal just_say_no
        bob hand: just_say_no 1M
        bob table: red: red
        """,
    )
    red = card_in(state, "bob", "table", "red")
    game.play(0, Move.play(card_in(state, "alice", "hand", "sly_deal"), [1], cards=[red]))
    game.play(1, Move.just_say_no(1))
    game.play(0, Move.just_say_no(1))


def test_it_tells_a_player_whose_just_say_no_was_answered_that_the_action_stands(
    client, bob, started_game
):
    countered_sly_deal(started_game)
    client.force_login(bob)

    page = client.get(started_game.get_absolute_url()).text

    assert (
        "Your Just Say No was answered with another, so the action stands unless you answer "
        "again: alice takes Red property from bob." in page
    )
    assert "alice takes Red property from bob; 2 Just Say Nos played. <em>" in page


def test_it_ends_the_prompts_sentences_with_chinese_full_stops(client, bob, started_game):
    bob.language = "zh-hans"
    bob.save(update_fields=["language"])
    countered_sly_deal(started_game)
    client.force_login(bob)

    page = client.get(started_game.get_absolute_url()).text

    prompt = page[page.index('id="prompt"') : page.index("</p>", page.index('id="prompt"'))]
    assert prompt.rstrip().endswith("。")
    pending = re.search(r'<div class="pending">.*?</div>\s*</div>', page, re.S)[0]
    assert "；" in pending and "。 <em>" in pending
    assert not re.search(r"[\u4e00-\u9fff]\.", prompt + pending), "no Latin full stop after Chinese"


def test_lists_in_chinese_use_the_enumeration_comma():
    with translation.override("zh-hans"):
        resigned = resigned_text("alice", ["bob", "charlie"], [])
        rents = rents_in_words("brown")
    with translation.override("en"):
        english = resigned_text("alice", ["bob", "charlie"], [])

    assert "bob、charlie" in resigned and ", " not in resigned
    assert rents == "1M、2M"
    assert "bob, charlie" in english
