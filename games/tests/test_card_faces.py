"""Card faces on the table: each says what the card does, to the eye and to screen readers."""

import re

import pytest
from django.urls import reverse
from django.utils import translation

from games.rules.cards import ACTION, CARD_KINDS, KIND_BY_ID
from games.rules.position import card_in
from games.table.cardtexts import CARD_TEXTS
from games.tests.helpers import set_position, text

ACTIONS = [kind.id for kind in CARD_KINDS if kind.category == ACTION]

POSITION = f"""
options: enhanced
alice hand: {" ".join(ACTIONS)} rent:red/yellow rent:any red/yellow any
alice table: red: red
bob hand: just_say_no
discard: pass_go
"""


def page(client, user, game):
    client.force_login(user)
    return client.get(reverse("games:table", args=[game.code])).content.decode()


def faces(html, card_id):
    """Return the HTML of card `card_id`'s face and of its tooltip."""
    match = re.search(
        rf'<span class="card [^"]*" data-card="{card_id}"[^>]*>(.*?)'
        r'<span class="card-tip" id="([^"]+)" role="tooltip"[^>]*>(.*?)</span>\s*</span>',
        html,
        re.S,
    )
    assert match, card_id
    return match[1], match[3]


@pytest.fixture
def dealt(table_game):
    return set_position(table_game, POSITION)


def test_it_gives_each_action_card_its_own_face(client, alice, table_game, dealt):
    html = page(client, alice, table_game)
    seen = set()
    for kind in ACTIONS:
        face, tip = faces(html, card_in(dealt, "alice", "hand", kind))
        assert f"face-{kind}" in html
        name, short = str(CARD_TEXTS[kind].name), str(CARD_TEXTS[kind].short)
        assert f'<span class="card-name">{name}</span>'.replace("'", "&#x27;") in face
        assert f'<span class="card-effect">{short}</span>' in face, kind
        assert str(CARD_TEXTS[kind].full) in text(tip), kind
        seen.add(short)
    assert len(seen) == len(ACTIONS), "every action has an effect line of its own"


def test_it_draws_both_colours_of_a_wild(client, alice, table_game, dealt):
    html = page(client, alice, table_game)
    face, _tip = faces(html, card_in(dealt, "alice", "hand", "red/yellow"))
    assert 'class="c-red"' in face and 'class="c-yellow"' in face
    assert "band-bottom c-yellow" in face  # the other colour again at the bottom
    assert "red or yellow" in text(face)
    face, _tip = faces(html, card_in(dealt, "alice", "hand", "any"))
    assert face.count("band-rainbow") == 2
    assert "Any colour" in text(face)


def test_it_draws_the_colours_of_a_rent_card(client, alice, table_game, dealt):
    html = page(client, alice, table_game)
    face, tip = faces(html, card_in(dealt, "alice", "hand", "rent:red/yellow"))
    assert 'class="c-red"' in face and 'class="c-yellow"' in face
    assert "red / yellow" in text(face) and "Everyone pays" in text(face)
    face, _tip = faces(html, card_in(dealt, "alice", "hand", "rent:any"))
    assert "band-rainbow" in face and "One player pays" in text(face)


def test_it_describes_every_card_for_screen_readers(client, alice, table_game, dealt):
    html = page(client, alice, table_game)
    cards = re.findall(r'<span class="card [^"]*" data-card="(\d+)"([^>]*)>', html)
    assert len(cards) >= len(ACTIONS) + 5
    tips = re.findall(r'<span class="card-tip" id="([^"]+)"', html)
    assert len(tips) == len(set(tips)) == len(cards), "one tooltip each, ids unique"
    for card_id, attributes in cards:
        described = re.search(r'aria-describedby="([^"]+)"', attributes)[1]
        assert described in tips
        _face, tip = faces(html, card_id)
        assert len(text(tip)) > 20


def test_it_lets_a_card_outside_a_menu_take_the_focus(client, alice, table_game, dealt):
    html = page(client, alice, table_game)
    piles = html.split('class="pile"')[2]  # the discard pile
    discard = re.search(r'<span class="card [^"]*" data-card="(\d+)"([^>]*)>', piles)
    assert 'tabindex="0"' in discard[2]
    # A card in its menu's summary: the summary takes the focus, not the card; the summary is
    # described by the card's full text, kept out of its name (aria-hidden, read by reference).
    sly = card_in(dealt, "alice", "hand", "sly_deal")
    summary = re.search(
        rf'<summary aria-describedby="tip-c-{sly}">\s*<span class="card [^"]*" data-card="{sly}"'
        r"([^>]*)>",
        html,
    )
    assert "tabindex" not in summary[1]
    assert f'id="tip-c-{sly}" role="tooltip" aria-hidden="true"' in html


def test_it_describes_no_card_the_viewer_may_not_see(client, alice, bob, table_game, dealt):
    html = page(client, bob, table_game)
    assert str(CARD_TEXTS["just_say_no"].full) in text(html)  # his own card
    for kind in ("jail", "heir", "rent_transfer"):  # in alice's hand only
        assert str(CARD_TEXTS[kind].full) not in text(html), kind
        assert f"face-{kind}" not in html


def test_it_has_words_for_every_kind_in_both_languages():
    assert set(CARD_TEXTS) == set(KIND_BY_ID)
    for kind, words in CARD_TEXTS.items():
        english = (str(words.title), str(words.short), str(words.full))
        assert english[0] and english[2], kind
        with translation.override("zh-hans"):
            chinese = (str(words.title), str(words.short), str(words.full))
        assert chinese[2] != english[2], kind
        if english[1]:
            assert chinese[1] != english[1], kind


def test_it_draws_faces_in_chinese(client, alice, table_game, dealt):
    client.force_login(alice)
    response = client.get(
        reverse("games:table", args=[table_game.code]), headers={"Accept-Language": "zh-hans"}
    )
    face, tip = faces(response.content.decode(), card_in(dealt, "alice", "hand", "sly_deal"))
    assert "盗取一张物业" in face and "盗取" in text(tip)


def test_it_names_a_card_with_the_progress_its_set_has_now(monkeypatch):
    """A card's face is drawn once, whatever its set holds; its label says what it holds now."""
    from django.template import Context, Template

    from games.templatetags import cards

    drawn = []
    real = cards.render_to_string
    monkeypatch.setattr(cards, "render_to_string", lambda *a, **k: drawn.append(1) or real(*a, **k))
    template = Template("{% load cards %}{% card_face c in_set=set %}")
    red = {"id": 9091, "kind": "red", "value": 3, "as_colour": "red", "category": "property"}
    red.update(name="Red property", colours=["red"], text={}, face="property", wild=False)
    with translation.override("en"):
        labels = [
            template.render(Context({"c": red, "set": {"count": count, "size": 3}}))
            for count in (1, 2, 3, 2)
        ]
    for count, html in zip((1, 2, 3, 2), labels, strict=True):
        assert f"Red property, worth 3M, in a set of {count} of 3" in html
        assert "<@" not in html
    assert len(drawn) == 1
