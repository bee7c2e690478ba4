"""Answers that may be given without asking the player (issue 15).

Other players' hands are hidden (docs/rules.md section 10), and so is whether a
player holds a Just Say No: an answer that is "forced" only because of what
the hand lacks must wait for the player exactly as a real choice would, or
the speed of the answer tells the table. `public_forced_move` finds the
forced answers everyone could work out from public cards alone.

A standing answer is an answer the player chose in advance (`Standing`);
`standing_answer` says which one applies to a decision awaited now.
"""

from dataclasses import dataclass

from .actions import MONEY_EFFECTS, response_moves
from .cards import DEAL_BREAKER, JUST_SAY_NO, RENT, RENT_TRANSFER
from .engine import choices, forced_move
from .moves import ACCEPT, Move
from .payment import least_overpay, money_first
from .state import RESPOND
from .table import holds

# How a player's debts are paid without asking them ("Pay for me").
ASK = "ask"
LEAST_OVERPAY = "least"  # the default move of docs/rules.md section 11
MONEY_FIRST = "money"  # payment.money_first
PAY_RULES = {LEAST_OVERPAY: least_overpay, MONEY_FIRST: money_first}


@dataclass(frozen=True)
class Standing:
    """The answers a player gives in advance; the defaults ask for everything."""

    accept_without_jsn: bool = False  # accept at once when holding no Just Say No
    pay_rule: str = ASK  # pay at once by this rule whenever money is owed
    jsn_deal_breaker: bool = False  # answer a Deal Breaker with Just Say No while holding one


def public_forced_move(state, seat):
    """Return `seat`'s forced move if anyone can tell it is forced from public cards, else None.

    A turn's moves and a payment's cards are public; an answer to an action is
    forced by the hand (no Just Say No, no Rent Transfer), which is public only
    when the hand is empty or no such card is left unseen (in a hand or the
    draw pile).
    """
    move = forced_move(state, seat)
    if move is None or state.phase != RESPOND or not state.players[seat].hand:
        return move
    answers = {JUST_SAY_NO, RENT_TRANSFER} if state.pending.effect == RENT else {JUST_SAY_NO}
    deck = state.deck
    unseen = [*state.draw, *(c for player in state.players for c in player.hand)]
    if any(deck[c].effect in answers for c in unseen):
        return None
    return move


def standing_answer(state, seat, standing):
    """Return the move `seat`'s standing answers make for a decision awaited now, or None.

    Each applies only where it leaks nothing the player did not agree to: a
    Just Say No is played openly; a payment by rule is made whatever the hand
    holds (even a Just Say No); "accept at once" tells the table that no Just
    Say No was held, which the player accepted when choosing it.
    """
    if state.phase != RESPOND:
        return None
    pending = state.pending
    holds_jsn = holds(state, seat, JUST_SAY_NO)
    moves = response_moves(state, seat)
    to_choose = {choice.share for choice in choices(state, seat)}
    for origin, share in pending.shares.items():
        if pending.awaited(share) != seat:
            continue
        answered = share.jsn % 2 == 0  # the action stands against `seat`
        if answered and pending.effect == DEAL_BREAKER and standing.jsn_deal_breaker:
            if holds_jsn:
                return Move.just_say_no(origin)
        if answered and pending.effect in MONEY_EFFECTS and standing.pay_rule in PAY_RULES:
            cards = PAY_RULES[standing.pay_rule](state, seat, pending.amount)
            return Move.accept(origin, cards)
        if standing.accept_without_jsn and not holds_jsn and origin not in to_choose:
            mine = [m for m in moves if m.share == origin]
            if len(mine) == 1 and mine[0].kind == ACCEPT:
                return mine[0]
    return None
