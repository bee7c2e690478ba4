"""The basic computer player: greedy rules of thumb, one decision at a time.

`basic_move(state, seat)` reads only what `seat` may see (every table, bank
and the discard pile, its own hand, the counts of other hands), so it gives
the same move for a real state and for any state `determinize` guesses from
the seat's view. It is also the rollout policy of the strong player, so it
is written to be cheap.
"""

from .actions import MONEY_EFFECTS, response_moves
from .cards import (
    BIRTHDAY,
    DEAL_BREAKER,
    DEBT_COLLECTOR,
    DOUBLE_SLY_DEAL,
    FORCED_DEAL,
    FULL_SET,
    HEIR,
    HOTEL,
    HOUSE,
    JAIL,
    JUST_SAY_NO,
    MONEY,
    PASS_GO,
    RENT,
    RENT_CARD,
    SLY_DEAL,
    SPEEDING,
    UNBUILDABLE,
    WILD_ANY,
    rent_for,
)
from .engine import HAND_LIMIT, legal_moves
from .moves import BANK, END, JUST_SAY_NO as JSN_MOVE, LAY, MOVE_WILD, TRANSFER, Move
from .payment import check_payment, least_overpay
from .state import DISCARD, PLAY, RESPOND
from .table import sets_to_win

WIN_SCORE = 10_000


def progress(count, full):
    """Return how much `count` cards of a set of `full` are worth to their owner (100: complete)."""
    if count <= 0:
        return 0.0
    if count >= full:
        return 100.0
    return 60.0 * (count / full) ** 2


class Table:
    """One player's table summed up: the best incomplete count and the complete sets per colour."""

    __slots__ = ("counts", "complete", "winning")

    def __init__(self, state, seat):
        counts = {}
        complete = set()
        winning = set()
        built = state.options.built_sets
        for s in state.players[seat].sets:
            n = len(s.cards)
            if n >= FULL_SET[s.colour]:
                complete.add(s.colour)
                if not built or s.house >= 0:
                    winning.add(s.colour)
            elif n > counts.get(s.colour, 0):
                counts[s.colour] = n
        self.counts = counts
        self.complete = complete
        self.winning = winning

    def gain(self, colour):
        """Return what one more property of `colour` is worth here (WIN_SCORE-free)."""
        if colour in self.complete:
            return 2.0
        k = self.counts.get(colour, 0)
        full = FULL_SET[colour]
        return progress(k + 1, full) - progress(k, full)

    def owns_any(self, colours):
        """Return whether a set of any of `colours` is on this table (a rent card's colours)."""
        return any(c in self.counts or c in self.complete for c in colours)

    def completes(self, colour):
        k = self.counts.get(colour, 0)
        return colour not in self.complete and k + 1 >= FULL_SET[colour]

    def loss(self, colour, complete=False):
        """Return what losing one property of `colour` from its set costs here."""
        full = FULL_SET[colour]
        if complete:
            return 100.0
        k = self.counts.get(colour, 0)
        return progress(k, full) - progress(k - 1, full)


def payable_worth(state, seat):
    """Return the money value of everything `seat` could pay with."""
    deck = state.deck
    player = state.players[seat]
    total = 0
    for c in player.bank:
        total += deck[c].value
    for s in player.sets:
        for c in s.cards:
            total += deck[c].value
        if s.house >= 0:
            total += deck[s.house].value
        if s.hotel >= 0:
            total += deck[s.hotel].value
    return total


def _set_of(player, card):
    for s in player.sets:
        if card in s.cards:
            return s
    return None


def _jsn_count(state, seat):
    deck = state.deck
    return sum(1 for c in state.players[seat].hand if deck[c].effect == JUST_SAY_NO)


def _leader_weight(table):
    """Return how threatening a table looks: complete colours first, then properties."""
    return len(table.winning) * 10 + sum(table.counts.values())


# --- the play phase --------------------------------------------------------------------------


class _Turn:
    """What the scores of one play-phase decision need, computed once."""

    def __init__(self, state, seat):
        self.state = state
        self.seat = seat
        self.deck = state.deck
        self.player = state.players[seat]
        self.table = Table(state, seat)
        self.need = sets_to_win(state)
        self.enhanced = state.options.enhanced
        self.n = len(state.seats)
        self._worth = {}
        self._tables = {}
        self._where = None
        self._given = {}
        self._taken = {}
        self._lays = {}
        self._banks = {}
        bank = 0
        for c in self.player.bank:
            bank += self.deck[c].value
        self.bank = bank
        self.hand_colours = set()
        for c in self.player.hand:
            kind = self.deck[c]
            if kind.is_property:
                self.hand_colours.update(kind.colours if kind.category != WILD_ANY else ())

    def worth(self, seat):
        found = self._worth.get(seat)
        if found is None:
            found = self._worth[seat] = payable_worth(self.state, seat)
        return found

    def table_of(self, seat):
        found = self._tables.get(seat)
        if found is None:
            found = self._tables[seat] = Table(self.state, seat)
        return found

    def set_of(self, card):
        """Return the set holding table card `card`, on any table."""
        where = self._where
        if where is None:
            where = self._where = {
                c: s for player in self.state.players for s in player.sets for c in s.cards
            }
        return where.get(card)

    def wins_with(self, colour):
        """Return whether a new complete set of `colour` wins the game."""
        table = self.table
        if colour in table.winning:
            return False
        if self.state.options.built_sets:
            return False
        return len(table.winning) + 1 >= self.need

    def take_gain(self, colour):
        """Return the score of receiving a property of `colour`."""
        table = self.table
        if table.completes(colour):
            return WIN_SCORE if self.wins_with(colour) else 150.0 + 3 * FULL_SET[colour]
        return table.gain(colour)

    def score(self, move):
        kind = move.kind
        if kind == END:
            return 0.0
        if kind == LAY:
            # A lay's score depends on its colour only, a bank's on the card's kind only:
            # a hand's many equal moves are scored once per decision.
            found = self._lays.get(move.colour)
            if found is None:
                found = self._lays[move.colour] = self.lay_score(move.colour)
            return found
        card = self.deck[move.card]
        if kind == BANK:
            found = self._banks.get(card.id)
            if found is None:
                found = self._banks[card.id] = self.bank_score(card)
            return found
        if kind == MOVE_WILD:
            return self.move_wild_score(move)
        scorer = _PLAY_SCORES.get(card.effect)
        return getattr(self, scorer)(move, card) if scorer else -1.0

    def lay_score(self, colour):
        table = self.table
        if table.completes(colour):
            return WIN_SCORE if self.wins_with(colour) else 200.0 + FULL_SET[colour]
        if colour in table.complete:
            return 4.0
        k = table.counts.get(colour, 0)
        return 40.0 + 10.0 * (k + 1) / FULL_SET[colour] + rent_for(colour, k + 1, 0, 0, False) / 4

    def bank_score(self, card):
        if card.category == MONEY:
            return 35.0 + card.value
        effect = card.effect
        if effect == JUST_SAY_NO or effect == DEAL_BREAKER:
            return -1.0
        if effect == PASS_GO:
            return 3.0
        if card.category == RENT_CARD:
            if self.table.owns_any(card.colours):
                return 1.0
            return 8.0 + card.value if self.bank < 12 else 2.0
        if effect in (HOUSE, HOTEL):
            return 6.0 + card.value if not self.table.complete else 1.0
        # An action with nothing worth aiming at now: as money it protects the table.
        return (6.0 + card.value) if self.bank < 8 else 1.5

    def move_wild_score(self, move):
        old = self.set_of(move.card)
        if old is None or len(old.cards) >= FULL_SET[old.colour]:
            return -1.0
        colour = move.colour
        table = self.table
        # Only moves that complete a set: anything looser could go back and forth for ever.
        if table.completes(colour) and colour != old.colour:
            return WIN_SCORE if self.wins_with(colour) else 300.0
        return -1.0

    def rent_score(self, move, card):
        colour = move.colour
        sets = [s for s in self.player.sets if s.colour == colour]
        rent = max(
            rent_for(colour, len(s.cards), s.house >= 0, s.hotel >= 0, self.enhanced) for s in sets
        )
        amount = rent << len(move.cards)
        if move.targets:
            collected = min(amount, self.worth(move.targets[0]))
        else:
            collected = sum(min(amount, self.worth(t)) for t in range(self.n) if t != self.seat)
        if collected <= 0:
            return -1.0
        score = 30.0 + 4.0 * collected - 9.0 * len(move.cards)
        # Lay a property of the colour first: it raises the rent.
        if colour in self.hand_colours and self.state.plays_left >= 2 + len(move.cards):
            k = max(len(s.cards) for s in sets)
            if k < FULL_SET[colour]:
                score -= 100.0
        return score

    def sly_deal_score(self, move, card):
        target = move.targets[0]
        total = 0.0
        gained = {}
        victim = self.table_of(target)
        for taken in move.cards:
            s = self.set_of(taken)
            colour = s.colour
            extra = gained.get(colour, 0)
            if extra:
                k = self.table.counts.get(colour, 0) + extra
                full = FULL_SET[colour]
                total += progress(k + 1, full) - progress(k, full) if k < full else 2.0
            else:
                total += self.take_gain(colour)
            gained[colour] = extra + 1
            total += victim.loss(colour) * 0.3
        if total >= WIN_SCORE:
            return total
        return 10.0 + total if total >= 10 else 3.0 + total / 2

    def forced_deal_score(self, move, card):
        give, take = move.cards
        target = move.targets[0]
        # A Forced Deal in hand gives (mine x theirs) moves: score each side once.
        given = self._given.get((give, target))
        if given is None:
            mine = self.set_of(give)
            loss = self.table.loss(mine.colour) + self.table_of(target).gain(mine.colour) * 0.5
            if self.deck[give].category == WILD_ANY:
                loss += 10.0
            given = self._given[give, target] = (mine.colour, loss)
        taken = self._taken.get(take)
        if taken is None:
            theirs = self.set_of(take)
            gain = self.take_gain(theirs.colour) + self.table_of(target).loss(theirs.colour) * 0.3
            taken = self._taken[take] = (theirs.colour, gain)
        if given[0] == taken[0]:
            return -1.0
        net = taken[1] - given[1]
        return 10.0 + net if net > 5 else -1.0

    def deal_breaker_score(self, move, card):
        target = move.targets[0]
        s = self.set_of(move.cards[0])
        colour = s.colour
        bonus = (s.house >= 0) * 3 + (s.hotel >= 0) * 4
        if colour not in self.table.complete:
            if self.wins_with(colour):
                return WIN_SCORE
            return 250.0 + bonus + _leader_weight(self.table_of(target))
        return 60.0 + bonus + _leader_weight(self.table_of(target))

    def building_score(self, move, card):
        s = self.set_of(move.cards[0])
        colour = s.colour
        if self.state.options.built_sets and card.effect == HOUSE:
            if colour not in self.table.winning and len(self.table.winning) + 1 >= self.need:
                return WIN_SCORE
            return 150.0 + rent_for(colour, len(s.cards), 0, 0, False)
        return 45.0 + rent_for(colour, len(s.cards), 0, 0, False)

    def pass_go_score(self, move, card):
        if self.state.plays_left >= 2:
            return 150.0
        return 15.0 if len(self.player.hand) + 1 <= HAND_LIMIT else 0.5

    def birthday_score(self, move, card):
        collected = sum(min(2, self.worth(t)) for t in range(self.n) if t != self.seat)
        return 30.0 + 4.0 * collected if collected > 0 else -1.0

    def debt_collector_score(self, move, card):
        collected = min(5, self.worth(move.targets[0]))
        return 30.0 + 4.0 * collected if collected > 0 else -1.0

    def jail_score(self, move, card):
        return 30.0 + _leader_weight(self.table_of(move.targets[0]))

    def heir_score(self, move, card):
        return 20.0 + 3.0 * len(self.state.players[move.targets[0]].hand)

    def speeding_score(self, move, card):
        return 10.0 + sum(min(3, len(self.state.players[t].hand)) for t in move.targets)


_PLAY_SCORES = {
    RENT: "rent_score",
    SLY_DEAL: "sly_deal_score",
    DOUBLE_SLY_DEAL: "sly_deal_score",
    FORCED_DEAL: "forced_deal_score",
    DEAL_BREAKER: "deal_breaker_score",
    HOUSE: "building_score",
    HOTEL: "building_score",
    PASS_GO: "pass_go_score",
    BIRTHDAY: "birthday_score",
    DEBT_COLLECTOR: "debt_collector_score",
    JAIL: "jail_score",
    HEIR: "heir_score",
    SPEEDING: "speeding_score",
}


def play_scores(state, seat, moves=None):
    """Return [(score, move)] for the play-phase moves of `seat`; ending the turn scores 0."""
    if moves is None:
        moves = legal_moves(state, seat)
    turn = _Turn(state, seat)
    return [(turn.score(m), m) for m in moves]


def best_play(state, seat):
    """Return the best-scoring play of `seat`, or the end of the turn if none scores above 0."""
    best = None
    best_score = 0.0
    turn = _Turn(state, seat)
    table = turn.table
    for move in legal_moves(state, seat):
        kind = move.kind
        if kind == END:
            if best is None:
                best = move
            continue
        if kind == MOVE_WILD and not table.completes(move.colour):
            continue  # it would score below 0
        score = turn.score(move)
        if score > best_score:
            best, best_score = move, score
    return best


# --- keeping and discarding -----------------------------------------------------------------


def keep_value(state, seat, card, table=None):
    """Return how much `seat` wants to keep `card` in hand."""
    kind = state.deck[card]
    table = table or Table(state, seat)
    if kind.is_property:
        if kind.category == WILD_ANY:
            return 60.0
        return 40.0 + max(table.gain(c) for c in kind.colours)
    if kind.category == MONEY:
        return 10.0 + kind.value
    effect = kind.effect
    if effect == JUST_SAY_NO:
        return 100.0
    if effect == DEAL_BREAKER:
        return 90.0
    if effect == RENT:
        return (20.0 if table.owns_any(kind.colours) else 2.0) + kind.value
    if effect in (SLY_DEAL, FORCED_DEAL, DOUBLE_SLY_DEAL):
        return 30.0
    if effect in (HOUSE, HOTEL):
        return 25.0 if table.complete - UNBUILDABLE else 5.0
    return 10.0 + kind.value


def discard_cards(state, seat, count):
    """Return the `count` hand cards `seat` wants least."""
    table = Table(state, seat)
    hand = state.players[seat].hand
    ranked = sorted(hand, key=lambda c: (keep_value(state, seat, c, table), c))
    return tuple(ranked[:count])


# --- paying ----------------------------------------------------------------------------------


def payment_costs(state, debtor, receiver):
    """Return {card: cost} for what `debtor` could pay: money at face value, properties dearer.

    A property costs its value, what its set loses, and what the receiver's set
    would gain from it; a card of a complete set costs far more.
    """
    deck = state.deck
    player = state.players[debtor]
    mine = Table(state, debtor)
    theirs = Table(state, receiver) if receiver >= 0 else None
    costs = {}
    for c in player.bank:
        costs[c] = float(deck[c].value)
    for s in player.sets:
        full = FULL_SET[s.colour]
        complete = len(s.cards) >= full
        for c in s.cards:
            if deck[c].category == WILD_ANY:
                continue
            cost = deck[c].value + 3.0
            if complete:
                cost += 100.0 + (40.0 if s.colour in mine.winning else 0.0)
            else:
                cost += progress(len(s.cards), full) - progress(len(s.cards) - 1, full)
            if theirs is not None:
                cost += theirs.gain(s.colour) * 0.5
            costs[c] = cost
        if s.house >= 0:
            costs[s.house] = deck[s.house].value + 2.0
        if s.hotel >= 0:
            costs[s.hotel] = deck[s.hotel].value + 2.0
    return costs


def cheapest_payment(state, debtor, amount, receiver=-1, costs=None):
    """Return a valid payment of `amount` that costs `debtor` least (see payment_costs)."""
    deck = state.deck
    player = state.players[debtor]
    if costs is None:
        costs = payment_costs(state, debtor, receiver)
    total = sum(deck[c].value for c in costs)
    if total <= amount:
        return tuple(costs)
    # A House and the Hotel above it form one item: the Hotel goes first.
    items = [[((c,), deck[c].value, costs[c])] for c in player.bank]
    for s in player.sets:
        for c in s.cards:
            if c in costs:
                items.append([((c,), deck[c].value, costs[c])])
        if s.hotel >= 0:
            hotel = ((s.hotel,), deck[s.hotel].value, costs[s.hotel])
            both = (
                (s.hotel, s.house),
                deck[s.hotel].value + deck[s.house].value,
                costs[s.hotel] + costs[s.house],
            )
            items.append([hotel, both])
        elif s.house >= 0:
            items.append([((s.house,), deck[s.house].value, costs[s.house])])
    best = {0: (0.0, ())}
    for item in items:
        grown = dict(best)
        for reached, (cost, chosen) in best.items():
            if reached >= amount:
                continue
            for cards, value, extra in item:
                total = reached + value
                candidate = (cost + extra, chosen + cards)
                known = grown.get(total)
                if known is None or candidate[0] < known[0]:
                    grown[total] = candidate
        best = grown
    cost, chosen = min(v for t, v in best.items() if t >= amount)
    chosen = list(chosen)
    hotels = {s.house: s.hotel for s in player.sets if s.hotel >= 0}
    paid = sum(deck[c].value for c in chosen)
    # No card that could be left out while still covering the amount (docs/rules.md section 4).
    while True:
        removable = [
            c
            for c in chosen
            if paid - deck[c].value >= amount
            and not (c in hotels.values() and any(hotels[h] == c for h in chosen if h in hotels))
        ]
        if not removable:
            break
        drop = max(removable, key=lambda c: (costs[c], c))
        chosen.remove(drop)
        paid -= deck[drop].value
    try:
        check_payment(state, debtor, amount, chosen)
    except ValueError:
        return least_overpay(state, debtor, amount)
    return tuple(chosen)


# --- answering actions -----------------------------------------------------------------------


def _answer(state, seat, share, moves):
    """Return the basic answer of `seat` to the pending action's `share` from its `moves`."""
    pending = state.pending
    effect = pending.effect
    by_kind = {}
    for m in moves:
        by_kind.setdefault(m.kind, m)
    jsn = by_kind.get(JSN_MOVE)
    if share.jsn % 2:
        # My action was cancelled: insist only when it matters.
        if jsn is not None and _worth_insisting(state, seat, share):
            return jsn
        return Move.accept(share.origin)
    if effect in MONEY_EFFECTS:
        receiver = pending.actor
        costs = payment_costs(state, seat, receiver)
        payment = cheapest_payment(state, seat, pending.amount, receiver, costs)
        loss = sum(costs[c] for c in payment)
        if loss > 0 and TRANSFER in by_kind:
            transfers = [m for m in moves if m.kind == TRANSFER]
            return max(transfers, key=lambda m: (payable_worth(state, m.targets[0]), -m.targets[0]))
        if jsn is not None:
            threshold = 7.0 if _jsn_count(state, seat) > 1 else 12.0
            if loss >= threshold:
                return jsn
        return Move.accept(share.origin, payment)
    if jsn is None:
        if effect == SPEEDING and state.players[seat].hand:
            return Move.accept(share.origin, discard_cards(state, seat, 1))
        return Move.accept(share.origin)
    if effect == DEAL_BREAKER:
        return jsn
    mine = Table(state, seat)
    actor = Table(state, pending.actor)
    if effect in (SLY_DEAL, DOUBLE_SLY_DEAL):
        loss = 0.0
        for card in pending.cards:
            s = _set_of(state.players[seat], card)
            if s is not None:
                loss += mine.loss(s.colour) + (200.0 if actor.completes(s.colour) else 0.0)
                loss += actor.gain(s.colour) * 0.5
        return jsn if loss >= 20 else Move.accept(share.origin)
    if effect == FORCED_DEAL:
        give, take = pending.cards
        mine_set = _set_of(state.players[seat], take)
        theirs = _set_of(state.players[pending.actor], give)
        if mine_set is None or theirs is None:
            return Move.accept(share.origin)
        loss = mine.loss(mine_set.colour) - mine.gain(theirs.colour)
        loss += 200.0 if actor.completes(mine_set.colour) else actor.gain(mine_set.colour) * 0.5
        return jsn if loss >= 20 else Move.accept(share.origin)
    if effect == JAIL:
        return jsn if _jsn_count(state, seat) > 1 else Move.accept(share.origin)
    if effect == SPEEDING and state.players[seat].hand:
        return Move.accept(share.origin, discard_cards(state, seat, 1))
    return Move.accept(share.origin)


def _worth_insisting(state, seat, share):
    pending = state.pending
    effect = pending.effect
    if effect == DEAL_BREAKER:
        return True
    if effect in MONEY_EFFECTS:
        return min(pending.amount, payable_worth(state, share.debtor)) >= 5
    if effect in (SLY_DEAL, DOUBLE_SLY_DEAL, FORCED_DEAL):
        mine = Table(state, pending.actor)
        target = state.players[share.debtor]
        cards = pending.cards if effect != FORCED_DEAL else pending.cards[1:]
        for card in cards:
            s = _set_of(target, card)
            if s is not None and mine.completes(s.colour):
                return True
    return False


# --- the player ------------------------------------------------------------------------------


def basic_move(state, seat, rng=None):
    """Return the basic player's move for `seat`, or None if nothing waits for it.

    Reads only what `seat` may see. `rng` is accepted for a common interface and unused.
    """
    phase = state.phase
    if phase == PLAY:
        if seat != state.current:
            return None
        return best_play(state, seat)
    if phase == DISCARD:
        if seat != state.current:
            return None
        hand = state.players[seat].hand
        return Move.discard(discard_cards(state, seat, len(hand) - HAND_LIMIT))
    if phase != RESPOND:
        return None
    pending = state.pending
    for origin, share in pending.shares.items():
        if pending.awaited(share) != seat:
            continue
        moves = [m for m in response_moves(state, seat) if m.share == origin]
        return _answer(state, seat, share, moves)
    return None
