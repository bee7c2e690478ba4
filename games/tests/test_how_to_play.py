"""The How to play page: every card of the engine's deck, its count, value and effect."""

import re

from django.urls import reverse

from games.rules.cards import CARD_KINDS, COLOUR_TABLE, COLOURS
from games.table.cardtexts import CARD_TEXTS

KIND_ROW = re.compile(
    r'<li class="kind" data-kind="([^"]+)" data-count="(\d+)" data-enhanced="(\d+)" '
    r'data-value="(\d+)">(.*?)</li>',
    re.S,
)


def kinds_on(html):
    return {m[0]: (int(m[1]), int(m[2]), int(m[3]), m[4]) for m in KIND_ROW.findall(html)}


def test_it_lists_every_kind_with_the_engines_count_and_value(client, db):
    response = client.get(reverse("how_to_play"))
    assert response.status_code == 200
    shown = kinds_on(response.content.decode())
    assert set(shown) == {kind.id for kind in CARD_KINDS}
    for kind in CARD_KINDS:
        count, extra, value, body = shown[kind.id]
        assert (count, extra, value) == (kind.base_count, kind.enhanced_count, kind.value)
        # What a reader sees says the same numbers.
        if kind.base_count:
            word = "card" if kind.base_count == 1 else "cards"
            assert f"{kind.base_count} {word} in a deck" in body, kind.id
        if kind.enhanced_count and kind.base_count:
            assert f"+{kind.enhanced_count} in the enhanced edition" in body, kind.id
        if not kind.base_count:
            assert "enhanced edition only" in body, kind.id
        if kind.value:
            assert f"Value {kind.value}M" in body, kind.id
        else:
            assert "No money value" in body, kind.id
        # Drawn by the table's own card partial, with the card's full effect.
        assert 'class="card card-' in body and 'class="card-tip"' in body
        assert str(CARD_TEXTS[kind.id].full).replace("'", "&#x27;") in body, kind.id


def test_it_adds_up_the_decks_from_the_engine(client, db):
    html = client.get(reverse("how_to_play")).content.decode()
    base = sum(kind.base_count for kind in CARD_KINDS)
    extra = sum(kind.enhanced_count for kind in CARD_KINDS)
    assert f"A deck holds {base} cards; the enhanced edition adds {extra} more" in html
    assert f"({base + extra} in all)" in html


def test_it_shows_the_rent_table_of_every_colour(client, db):
    html = client.get(reverse("how_to_play")).content.decode()
    rows = dict(re.findall(r'<tr data-colour="([a-z_]+)">(.*?)</tr>', html, re.S))
    assert list(rows) == list(COLOURS)
    for colour, (_en, _zh, rents, value) in COLOUR_TABLE.items():
        row = re.sub(r"<[^>]+>", " ", rows[colour])
        assert f"{len(rents)} cards" in row
        for cards, rent in enumerate(rents, start=1):
            word = "card" if cards == 1 else "cards"
            assert re.search(rf"{cards} {word}:\s+{rent}M", row), (colour, cards)
        assert f"{value}M" in row


def test_it_speaks_chinese(client, db):
    response = client.get(reverse("how_to_play"), headers={"Accept-Language": "zh-hans"})
    html = response.content.decode()
    assert "<h1>玩法</h1>" in html
    assert "盗取一张物业" in html  # Sly Deal's effect line
    assert "从另一位玩家那里拿走一张不属于完整套的物业。" in html
    assert "Steal a property" not in html


def test_it_is_linked_from_the_header_for_everyone(client, alice):
    link = f'href="{reverse("how_to_play")}"'
    assert link in client.get(reverse("lobby:tables")).content.decode()
    client.force_login(alice)
    assert link in client.get(reverse("lobby:tables")).content.decode()


def test_it_is_linked_from_the_table_and_the_waiting_room(client, alice, bob, table_game):
    from games.models import Game

    link = f'href="{reverse("how_to_play")}"'
    client.force_login(alice)
    table = client.get(reverse("games:table", args=[table_game.code])).content.decode()
    assert table.count(link) >= 2  # the header and the table's own link
    room = Game.objects.create(host=alice, seat_count=2)
    room.join(alice)
    html = client.get(reverse("lobby:table", args=[room.code])).content.decode()
    assert html.count(link) >= 2


def test_the_page_is_drawn_once_per_language(client, db, monkeypatch):
    # 45 ms of CPU a request, anonymous and the same for everyone: drawn once, then kept.
    from games.table import howto

    drawn = []
    real = howto.deck_groups
    monkeypatch.setattr(howto, "deck_groups", lambda: drawn.append(1) or real())

    def article(language):
        page = client.get("/how-to-play/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
        return page[page.index('<article class="how-to-play">') : page.index("</article>")]

    first, again, chinese = article("en"), article("en"), article("zh-hans")

    assert first == again and chinese != first
    assert len(drawn) <= 2  # once per language at most (once in all if another test drew it)
