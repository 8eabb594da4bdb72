"""An exact solver written apart from the CP-SAT engine: the project's oracle.

It answers one question exactly -- how few points (or cards) can be left in the hand
after one legal play -- by exhaustive search with memoization, in pure Python and
without any solver library, so that the hint engine can be cross-checked against
something that shares none of its modelling tricks (no 3-5 card sequence
restriction, no integer program, no catalogue of candidate melds).

Method
------
*Jokers.*  A table joker declared X is freed when a real X ends on the table
(RULES.md's counting rule).  A freed joker is a wildcard: it may take any
declaration, its old one included, so freeing as many jokers as the rule allows
never loses a play, and the freed jokers are fixed by how many real X cards end on
the table.  That only depends on the hand when the hand holds an X and the table
has more jokers declared X than real X cards; those few hand cards are enumerated
up front as *configurations* (play exactly 0, 1, ... of them, or enough to free every
such joker and the rest freely).  A joker that stays locked behaves as a card of its
declared kind that does not count as real.  Freed jokers must all be used; hand
jokers are optional wildcards (with ``keep_jokers`` a second configuration plays
them all and the whole hand).

*Partition search.*  A configuration leaves, per card kind, mandatory real cards
(table cards and forced hand cards), optional real cards (hand cards that may stay
in the hand) and locked jokers.  The search takes the lowest remaining item (cards
in index order, rank-major) and either leaves it in the hand (an optional card, at
its cost) or tries every legal meld that contains it: every group of its rank and
every sequence of any length 3..14 through its position (an ace at 1 or at 14),
every other slot filled by a remaining item of that kind or by a wildcard.  Every
lower item is gone already, so slots below the lowest item can only hold wildcards,
which keeps the branching small.  The least cost of the rest is memoized on the
exact remaining counts, the wildcards left, whether a hand card was played yet and,
for a Rummikub opening, the opening value still needed.

Two symmetries are broken without loss: of two copies of one card a mandatory one
is placed before an optional one, and a freed joker before a hand joker (in both
cases the other choice leaves the same pieces with a stricter obligation).

The memo keeps the best move of every state, so the winning table is rebuilt and
can be judged by ``solver.referee.check_play``: every answer of the oracle comes
with a play the referee accepts.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import product
from typing import Literal

from solver.cards import ACE_HIGH_POSITION, CARD_KINDS, Card, Joker, Piece
from solver.melds import Meld
from solver.position import Position, Table
from solver.variants import Variant

__all__ = ["ExactPlay", "best_play", "best_value"]

Objective = Literal["points", "cards"]

_INF = 1 << 40
"""Cost of an infeasible state; larger than any hand."""

# How an item fills a slot of a meld (also the block of the state it is counted in).
_MAND = 0
"""A mandatory real card: a table card, or a hand card the configuration plays."""
_OPT = 1
"""An optional real card: a hand card that may also stay in the hand."""
_LOCK = 2
"""A locked table joker, standing for its declared card."""
_WILD = 3
"""A freed table joker, declared as the slot it fills; it must be used."""
_JOKER = 4
"""A hand joker, declared as the slot it fills; it may stay in the hand."""

_Fill = tuple[int, int, int]
"""One slot of a meld: (card index of the slot, how it is filled, index in the state)."""
_Move = tuple[int, int, tuple[_Fill, ...]]
"""A step: (compact kind of the lowest item, its fill or -1 when left in hand, other slots)."""
_Key = tuple[bytes, int, int]
_Meld = tuple[tuple[_Fill, ...], bool, int]
"""A meld around the lowest item: (other slots, whether it plays a hand piece, its value)."""


@dataclass(frozen=True, slots=True)
class ExactPlay:
    """The optimum found by the exact search and one table that reaches it."""

    value: int
    """Points (or cards) left in the hand."""
    table: Table
    """The table after the play; ``check_play(position, table, variant=...)`` accepts it."""


@dataclass(frozen=True, slots=True)
class _Config:
    """One way to fix the freed jokers: items per compact kind and the fixed cost."""

    mandatory: tuple[int, ...]
    optional: tuple[int, ...]
    locked: tuple[int, ...]
    wildcards: int
    """Wildcards that must be used: freed table jokers (and hand jokers going out)."""
    jokers: int
    """Hand jokers that may be played or kept."""
    played: int
    """1 when the configuration already plays a hand piece."""
    cost: int
    """Cost of the hand pieces this configuration keeps in the hand by force."""


class _Search:
    """Memoized partition search over the items of one position.

    The state is one mutable ``bytearray``: mandatory counts, optional counts and
    locked counts (one byte per compact kind each), then the freed wildcards left and
    the hand jokers left.  Moves are applied in place and undone; the memo key is a
    snapshot of the state with the played flag and the opening value still needed.
    """

    def __init__(self, variant: Variant, kinds: list[int], costs: list[int], joker_cost: int) -> None:
        n = len(kinds)
        self.kinds = kinds
        self.n = n
        self.costs = costs
        self.joker_cost = joker_cost
        self.offset = (0, n, 2 * n, 3 * n, 3 * n + 1)
        """Where each fill kind is counted in the state (wildcards: one counter each)."""
        self.compact = [-1] * CARD_KINDS
        for i, card_index in enumerate(kinds):
            self.compact[card_index] = i
        self.top = variant.max_position
        self.ace_high = variant.ace_high
        self.value_of = [variant.tile_value(Card.from_index(index)) for index in range(CARD_KINDS)]
        self.opening = variant.opening_points > 0
        self.state = bytearray(3 * n + 2)
        self.memo: dict[_Key, tuple[int, _Move | None]] = {}
        self._prepare_support()

    def _prepare_support(self) -> None:
        """Tables for the quick dead-end test (see ``_stranded``): per compact kind, the
        kinds of its rank in other suits and the pairs of other slots of the
        three-card sequences through it; per card, the compact kinds whose support
        it is part of."""
        compact = self.compact
        self.mates: list[list[int]] = []
        self.windows: list[list[tuple[int, int]]] = []
        self.neighbours: list[list[int]] = [[] for _ in range(CARD_KINDS)]
        for i, card_index in enumerate(self.kinds):
            rank, suit = card_index // 4 + 1, card_index % 4
            mates = [(rank - 1) * 4 + other for other in range(4) if other != suit]
            self.mates.append([compact[mate] for mate in mates if compact[mate] >= 0])
            windows: list[tuple[int, int]] = []
            slots: set[int] = set(mates)
            for at in (1, ACE_HIGH_POSITION) if rank == 1 else (rank,):
                if at > self.top:
                    continue
                for start in range(max(1, at - 2), min(at, self.top - 2) + 1):
                    other = [_card_at(p, suit) for p in range(start, start + 3) if p != at]
                    windows.append((compact[other[0]], compact[other[1]]))
                    slots.update(other)
            self.windows.append(windows)
            for slot in slots:
                self.neighbours[slot].append(i)

    def _supported(self, kind: int) -> bool:
        """Whether one item of ``kind`` could still sit in some meld: a group or a
        three-card sequence whose other slots hold remaining items or wildcards.
        A necessary condition only, cheap enough to test after every move."""
        state, n = self.state, self.n
        wild = state[3 * n] + state[3 * n + 1]
        if wild >= 2:
            return True
        present = 0
        for mate in self.mates[kind]:
            if state[mate] or state[n + mate] or state[2 * n + mate]:
                present += 1
                if present + wild >= 2:
                    return True
        for first, second in self.windows[kind]:
            missing = 0
            if first < 0 or not (state[first] or state[n + first] or state[2 * n + first]):
                missing += 1
            if second < 0 or not (state[second] or state[n + second] or state[2 * n + second]):
                missing += 1
            if missing <= wild:
                return True
        return False

    def _stranded(self, card_index: int, fills: tuple[_Fill, ...]) -> bool:
        """Whether the move just made leaves a table card or a locked joker that no
        meld can take any more (only items that lost a neighbour are tested)."""
        state, n = self.state, self.n
        for slot in (card_index, *(fill[0] for fill in fills)):
            for kind in self.neighbours[slot]:
                if (state[kind] or state[2 * n + kind]) and not self._supported(kind):
                    return True
        return False

    def load(self, config: _Config) -> None:
        self.state[:] = bytes(
            config.mandatory + config.optional + config.locked + (config.wildcards, config.jokers)
        )

    def _lowest(self, start: int) -> int:
        state, n = self.state, self.n
        for i in range(start, n):
            if state[i] or state[n + i] or state[2 * n + i]:
                return i
        return n

    def _fills(self, kind: int) -> list[tuple[int, int]]:
        """The ways to fill a slot of compact kind ``kind`` (-1: no such card here),
        each as (fill, index in the state): a real card or a locked joker of that
        kind, or the next wildcard."""
        state, n = self.state, self.n
        found = []
        if kind >= 0:
            if state[kind]:
                found.append((_MAND, kind))
            elif state[n + kind]:
                found.append((_OPT, n + kind))
            if state[2 * n + kind]:
                found.append((_LOCK, 2 * n + kind))
        if state[3 * n]:
            found.append((_WILD, 3 * n))
        elif state[3 * n + 1]:
            found.append((_JOKER, 3 * n + 1))
        return found

    # -- melds through the lowest item ----------------------------------------

    def _melds(self, card_index: int, real: bool) -> list[_Meld]:
        """Every way to complete a legal meld around the lowest item (already taken
        from the state), without two ways that use the same pieces alike."""
        found: list[_Meld] = []
        rank, suit = card_index // 4 + 1, card_index % 4
        value = self.value_of[card_index]
        self._groups(rank, suit, int(real), value, found)
        if rank == 1:
            self._sequences(1, suit, int(real), value, found)
            if self.ace_high:
                self._sequences(ACE_HIGH_POSITION, suit, int(real), value, found)
        else:
            self._sequences(rank, suit, int(real), value, found)
        n = self.n
        if not (self.state[3 * n] or self.state[3 * n + 1]):
            return found  # without wildcards no two melds use the same pieces
        distinct: dict[tuple[int, ...], _Meld] = {}
        for meld in found:
            signature = (meld[2] if self.opening else 0, *sorted(where for _, _, where in meld[0]))
            distinct.setdefault(signature, meld)
        return list(distinct.values())

    def _groups(self, rank: int, suit: int, reals: int, value: int, found: list[_Meld]) -> None:
        """Groups of ``rank``: a real card or a locked joker for some of the other
        suits, then wildcards named after the first suits left free (which free suit
        a wildcard names does not matter)."""
        state, n, compact = self.state, self.n, self.compact
        others = [other for other in range(4) if other != suit]
        options: list[list[_Fill | None]] = []
        for other in others:
            card_index = (rank - 1) * 4 + other
            kind = compact[card_index]
            choice: list[_Fill | None] = [None]
            if kind >= 0:
                if state[kind]:
                    choice.append((card_index, _MAND, kind))
                elif state[n + kind]:
                    choice.append((card_index, _OPT, n + kind))
                if state[2 * n + kind]:
                    choice.append((card_index, _LOCK, 2 * n + kind))
            options.append(choice)
        freed, jokers = state[3 * n], state[3 * n + 1]
        rank_value = self.value_of[(rank - 1) * 4]
        for combo in product(*options):
            chosen = [fill for fill in combo if fill is not None]
            real_count = reals + sum(1 for _, fill, _ in chosen if fill <= _OPT)
            from_hand = any(fill == _OPT for _, fill, _ in chosen)
            free_suits = [other for other, fill in zip(others, combo, strict=True) if fill is None]
            size = 1 + len(chosen)
            for wildcards in range(min(len(free_suits), 4 - size, freed + jokers) + 1):
                if size + wildcards < 3 or not real_count:
                    continue
                fills = list(chosen)
                for step in range(wildcards):
                    fill, where = (_WILD, 3 * n) if step < freed else (_JOKER, 3 * n + 1)
                    fills.append(((rank - 1) * 4 + free_suits[step], fill, where))
                uses_hand = from_hand or wildcards > freed
                found.append((tuple(fills), uses_hand, value + rank_value * (size - 1 + wildcards)))

    def _sequences(self, at: int, suit: int, reals: int, value: int, found: list[_Meld]) -> None:
        """Sequences of ``suit`` through position ``at``, of every legal length.

        A sequence through the high ace that also starts at position 1 is skipped: it
        is found through the low ace (its other end) with the same pieces.
        """
        state, compact, value_of = self.state, self.compact, self.value_of
        lowest_start = 2 if at == ACE_HIGH_POSITION else 1
        below: list[_Fill] = []
        above: list[_Fill] = []

        def slot(position: int) -> int:
            return _card_at(position, suit)

        def right(end: int, start: int, reals: int, from_hand: bool, value: int) -> None:
            if end - start >= 3 and reals:
                found.append((tuple(below + above), from_hand, value))
            if end > self.top:
                return
            card_index = slot(end)
            for fill, where in self._fills(compact[card_index]):
                state[where] -= 1
                above.append((card_index, fill, where))
                right(
                    end + 1,
                    start,
                    reals + (fill <= _OPT),
                    from_hand or fill in (_OPT, _JOKER),
                    value + value_of[card_index],
                )
                above.pop()
                state[where] += 1

        def left(start: int, reals: int, from_hand: bool, value: int) -> None:
            right(at + 1, start, reals, from_hand, value)
            if start - 1 < lowest_start:
                return
            card_index = slot(start - 1)
            for fill, where in self._fills(compact[card_index]):
                state[where] -= 1
                below.append((card_index, fill, where))
                left(
                    start - 1,
                    reals + (fill <= _OPT),
                    from_hand or fill in (_OPT, _JOKER),
                    value + value_of[card_index],
                )
                below.pop()
                state[where] += 1

        left(at, reals, False, value)

    # -- the search -------------------------------------------------------------

    def solve(self, start: int, played: int, need: int, budget: int) -> int:
        """Least cost of the pieces left in the hand, from the current state on.

        Branch and bound: the answer is exact when it is below ``budget``; otherwise
        it is only a lower bound, at least ``budget``.  Every item below compact kind
        ``start`` is gone.
        """
        state, n = self.state, self.n
        lowest = self._lowest(start)
        if lowest == n:
            if state[3 * n] == 0 and played and need == 0:
                return state[3 * n + 1] * self.joker_cost
            return _INF
        if budget <= 0:
            return 0
        key = (bytes(state), played, need)
        known = self.memo.get(key)
        if known is not None and (known[1] is not None or known[0] >= budget):
            return known[0]
        dead = 0
        for kind in range(lowest, n):
            if state[n + kind] and not self._supported(kind):
                dead += state[n + kind] * self.costs[kind]
        if dead >= budget:
            # Hand cards that no meld can take any more stay in the hand: too costly.
            self.memo[key] = (dead, None)
            return dead
        bound, low, best_move = budget, _INF, None
        if state[2 * n + lowest]:
            own = _LOCK
        elif state[lowest]:
            own = _MAND
        else:
            own = _OPT
        where = self.offset[own] + lowest
        state[where] -= 1
        card_index = self.kinds[lowest]
        melds = self._melds(card_index, own != _LOCK)
        now_played = played or own == _OPT
        for fills, from_hand, value in melds:
            for _, _, spot in fills:
                state[spot] -= 1
            if self._stranded(card_index, fills):
                total = _INF
            else:
                total = self.solve(lowest, int(now_played or from_hand), max(0, need - value), bound)
            for _, _, spot in fills:
                state[spot] += 1
            low = min(low, total)
            if total < bound:
                bound, best_move = total, (lowest, own, fills)
                if total == 0:
                    break
        if own == _OPT and bound:
            # Leave the card in the hand.
            cost = self.costs[lowest]
            total = cost + self.solve(lowest, played, need, bound - cost)
            low = min(low, total)
            if total < bound:
                bound, best_move = total, (lowest, -1, ())
        state[where] += 1
        # Exact (with its move) when a play under the budget was found, else a bound.
        self.memo[key] = (bound, best_move) if best_move is not None else (low, None)
        return bound if best_move is not None else low

    def melds_of_best(self, played: int, need: int) -> list[Meld]:
        """Replay the memoized best moves from the loaded configuration."""
        state, n = self.state, self.n
        melds: list[Meld] = []
        while self._lowest(0) < n:
            move = self.memo[(bytes(state), played, need)][1]
            assert move is not None, "replay reached an infeasible state"
            kind, own, fills = move
            state[self.offset[_OPT if own < 0 else own] + kind] -= 1
            for _, _, where in fills:
                state[where] -= 1
            if own < 0:
                continue
            card_index = self.kinds[kind]
            pieces = [_piece(card_index, own), *(_piece(slot, fill) for slot, fill, _ in fills)]
            melds.append(Meld.of(pieces))
            if own == _OPT or any(fill in (_OPT, _JOKER) for _, fill, _ in fills):
                played = 1
            value = self.value_of[card_index] + sum(self.value_of[slot] for slot, _, _ in fills)
            need = max(0, need - value)
        return melds


def _card_at(position: int, suit: int) -> int:
    """The card index at sequence position 1..14 of a suit (14, the high ace, is the ace)."""
    return (0 if position == ACE_HIGH_POSITION else position - 1) * 4 + suit


def _piece(card_index: int, fill: int) -> Piece:
    card = Card.from_index(card_index)
    return card if fill in (_MAND, _OPT) else Joker(card)


@dataclass(frozen=True, slots=True)
class _Counts:
    """What the position holds, by card index."""

    hand: Counter[int]
    hand_jokers: int
    table_real: Counter[int]
    table_jokers: Counter[int]
    """Table jokers by declared card (empty for an opening: the table is left alone)."""


def _counts(position: Position, *, opening: bool) -> _Counts:
    hand = Counter(piece.index for piece in position.hand if isinstance(piece, Card))
    table_real: Counter[int] = Counter()
    table_jokers: Counter[int] = Counter()
    if not opening:
        for piece in position.table.pieces:
            if isinstance(piece, Card):
                table_real[piece.index] += 1
            elif piece.declared is not None:
                table_jokers[piece.declared.index] += 1
    return _Counts(hand, position.hand.joker_count, table_real, table_jokers)


def _configs(
    counts: _Counts, kinds: list[int], costs: list[int], joker_cost: int, *, keep_jokers: bool
) -> Iterator[_Config]:
    """Every configuration: how many hand cards that decide a freeing are played, and
    (with ``keep_jokers``) whether the hand jokers go out with the whole hand."""
    hand, table_real, table_jokers = counts.hand, counts.table_real, counts.table_jokers
    # Hand cards X with more table jokers declared X than real X on the table: how many
    # of them are played decides how many of those jokers are freed.
    short = {x: table_jokers[x] - table_real[x] for x in table_jokers if table_jokers[x] > table_real[x]}
    deciding = sorted(x for x in short if hand[x])
    levels = [range(min(hand[x], short[x]) + 1) for x in deciding]
    going_out_options = (False, True) if keep_jokers and counts.hand_jokers else (False,)
    for going_out in going_out_options:
        for chosen in product(*levels):
            forced = dict(zip(deciding, chosen, strict=True))
            mandatory, optional, locked = [], [], []
            wildcards, cost, played = 0, 0, 0
            feasible = True
            for i, card_index in enumerate(kinds):
                held = hand[card_index]
                must = table_real[card_index]
                may = held
                if card_index in forced:
                    level = forced[card_index]
                    must += level
                    played |= level > 0
                    may = held - level
                    if level < short[card_index]:
                        # Exactly ``level`` are played: one more would free one more joker.
                        cost += may * costs[i]
                        feasible &= not (going_out and may)
                        may = 0
                if going_out:
                    must, may = must + may, 0
                    played |= held > 0
                freed = min(table_jokers[card_index], table_real[card_index] + forced.get(card_index, 0))
                mandatory.append(must)
                optional.append(may)
                locked.append(table_jokers[card_index] - freed)
                wildcards += freed
            if not feasible:
                continue
            if going_out:
                wildcards += counts.hand_jokers
                jokers, played = 0, 1
            elif keep_jokers:
                jokers = 0
                cost += counts.hand_jokers * joker_cost
            else:
                jokers = counts.hand_jokers
            yield _Config(
                tuple(mandatory), tuple(optional), tuple(locked), wildcards, jokers, int(played), cost
            )


def best_play(
    position: Position,
    *,
    variant: Variant | None = None,
    objective: Objective = "points",
    keep_jokers: bool = False,
    opened: bool = True,
) -> ExactPlay | None:
    """The exact optimum and a table reaching it, or None when no legal play exists.

    Same arguments as ``best_value``; the table is what makes the answer checkable.
    """
    rules = variant or Variant.manipulation()
    opening = not opened and rules.opening_points > 0
    counts = _counts(position, opening=opening)
    kinds = sorted(set(counts.hand) | set(counts.table_real) | set(counts.table_jokers))
    if objective == "points":
        costs = [rules.card_points(Card.from_index(index)) for index in kinds]
        joker_cost = rules.joker_points
    else:
        costs, joker_cost = [1] * len(kinds), 1
    search = _Search(rules, kinds, costs, joker_cost)
    need = rules.opening_points if opening else 0
    best: tuple[int, _Config] | None = None
    for config in _configs(counts, kinds, costs, joker_cost, keep_jokers=keep_jokers):
        if best is not None and config.cost >= best[0]:
            continue
        search.load(config)
        budget = _INF if best is None else best[0] - config.cost
        total = config.cost + search.solve(0, config.played, need, budget)
        if total < _INF and (best is None or total < best[0]):
            best = (total, config)
    if best is None:
        return None
    value, config = best
    search.load(config)
    melds = search.melds_of_best(config.played, need)
    if opening:
        melds = [*position.table.melds, *melds]
    return ExactPlay(value, Table.of(melds))


def best_value(
    position: Position,
    *,
    variant: Variant | None = None,
    objective: Objective = "points",
    keep_jokers: bool = False,
    opened: bool = True,
) -> int | None:
    """The least points (``objective="points"``) or cards (``"cards"``) a legal play can
    leave in the hand, or None when no legal play exists.

    ``keep_jokers`` plays a hand joker only in a play that empties the hand;
    ``opened=False`` applies the variant's opening rule (Rummikub: a first meld worth
    at least ``opening_points`` from the hand alone, the table left as it was).  The
    position is assumed valid for the variant (``Position.validate``).
    """
    found = best_play(position, variant=variant, objective=objective, keep_jokers=keep_jokers, opened=opened)
    return None if found is None else found.value
