"""The rules engine of Full Set: plain Python, no Django.

state = new_game(2, seed=7)
for move in legal_moves(state, seat): ...
state, events = apply(state, seat, move)
view_for(state, seat)
"""

from .cards import CARD_KINDS, COLOURS, FULL_SET, KIND_BY_ID, build_deck
from .engine import (
    abandon,
    apply,
    awaiting,
    choices,
    default_move,
    forced_move,
    legal_moves,
    new_game,
    outcome,
    questions,
    replay,
)
from .moves import RESIGN, Choice, IllegalMove, Move
from .observe import event_for, review_view, view_for
from .payment import check_payment, least_overpay, money_first
from .standing import Standing, public_forced_move, standing_answer
from .state import RESIGNED, GameState, Options, new_table_options
from .summary import summarize

__all__ = [
    "CARD_KINDS",
    "COLOURS",
    "FULL_SET",
    "KIND_BY_ID",
    "Choice",
    "GameState",
    "IllegalMove",
    "Move",
    "Options",
    "new_table_options",
    "RESIGN",
    "RESIGNED",
    "Standing",
    "abandon",
    "apply",
    "awaiting",
    "build_deck",
    "check_payment",
    "choices",
    "default_move",
    "event_for",
    "forced_move",
    "least_overpay",
    "money_first",
    "legal_moves",
    "new_game",
    "outcome",
    "public_forced_move",
    "questions",
    "replay",
    "review_view",
    "standing_answer",
    "summarize",
    "view_for",
]
