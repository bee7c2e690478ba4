"""Helpers shared by the scenario tests of the rules engine."""

import pytest

from games.rules import IllegalMove, apply


def assert_rejected(state, seat, move, words):
    """Assert that `move` is refused with a message holding `words`, changing nothing.

    `words` is one phrase or a list of phrases, matched case-insensitively.
    Return the message.
    """
    before = state.to_json()
    with pytest.raises(IllegalMove) as caught:
        apply(state, seat, move)
    message = str(caught.value)
    for word in [words] if isinstance(words, str) else words:
        assert word.lower() in message.lower(), f"{word!r} not in {message!r}"
    assert state.to_json() == before, "a rejected move changes nothing"
    return message
