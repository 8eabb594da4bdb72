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

*Tie-break* (``best_play(..., tie_break=True)``).  Among the plays of the optimum, the
fewest old melds broken (docs/rules.md): an old meld is unbroken when all of its pieces
end in one meld of the new table, its table jokers included, whatever they are
declared as there.  A branch and bound over the old melds in table order decides each
one: *broken* (its pieces join the items above), or *kept*, by every way to complete a
meld around it from the state: a sequence through its real cards or a group of their
rank (a single real card may take either), each of its table jokers on a slot of that
meld (a locked one on a slot of its own card; a freed one, counted against the
jokers of its card that the configuration frees, anywhere: the joker moving along its
meld), the other slots filled like any slot above (at most two beyond the outermost
real card or joker at each end: three more are a meld of their own).  A joker moving
along its meld may pass another old meld of the suit, which then lies whole inside the
same meld: a sequence may hold later old melds too (their real cards on places of their
own, their jokers pinned like its own), where a joker lies beyond each; melds with
table jokers are decided first, so those are still open then.  A completion is taken
only when the items left can still reach the optimum (the partition search above, with
its memo); a node's proven floor of further melds broken is memoized on the state.
Every configuration that can reach the optimum is tried.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Generator, Iterator
from contextlib import closing
from dataclasses import dataclass
from itertools import combinations, permutations, product
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
    melds_broken: int | None = None
    """With ``tie_break=True``: the fewest old melds a play of ``value`` breaks, and
    ``table`` breaks that many (``solver.referee.melds_broken``); else None."""


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


@dataclass(frozen=True, slots=True)
class _Shape:
    """A meld that can hold an old meld whole: a sequence of ``suit`` with the real cards
    at ``at`` (sequence positions), or a group (``suit`` -1) of rank ``rank`` with the
    real cards' suits ``at``."""

    suit: int
    rank: int
    at: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class _OldMeld:
    """An old meld as the tie-break reads it: its real cards, its table jokers' cards
    (card indices) and the shapes that can hold it."""

    reals: tuple[int, ...]
    jokers: tuple[int, ...]
    shapes: tuple[_Shape, ...]


def _old_meld(meld: Meld, variant: Variant) -> _OldMeld:
    """Real cards of one suit and different ranks fit only a sequence, of one rank and
    different suits only a group; a single real card fits either (an ace at either end
    of a sequence where ace-high is allowed)."""
    pieces, cards = meld.pieces, meld.cards
    reals = [(i, piece) for i, piece in enumerate(pieces) if isinstance(piece, Card)]
    jokers = tuple(card.index for piece, card in zip(pieces, cards, strict=True) if isinstance(piece, Joker))
    shapes: list[_Shape] = []
    first = reals[0][1]
    if meld.kind(variant) == "sequence":
        low = 1 if cards[0].rank == 1 else int(cards[0].rank)
        shapes.append(_Shape(int(first.suit), 0, tuple(low + i for i, _ in reals)))
    else:
        shapes.append(_Shape(-1, int(first.rank), tuple(sorted(int(card.suit) for _, card in reals))))
    if len(reals) == 1:
        places = [int(first.rank)]
        if first.rank == 1 and variant.ace_high:
            places.append(ACE_HIGH_POSITION)
        shapes.extend(_Shape(int(first.suit), 0, (p,)) for p in places)
        shapes.append(_Shape(-1, int(first.rank), (int(first.suit),)))
    unique = tuple(dict.fromkeys(shapes))
    return _OldMeld(tuple(piece.index for _, piece in reals), jokers, unique)


class _TieBreak:
    """The fewest old melds broken among the plays that leave ``target`` (see the module
    docstring), by branch and bound over the old melds, on a loaded ``_Search``."""

    def __init__(self, search: _Search, olds: list[_OldMeld], target: int) -> None:
        self.search = search
        # Melds with table jokers first: only they can hold another old meld besides their
        # own (a joker passing it), and that one is still to be decided then.
        self.olds = sorted(olds, key=lambda old: not old.jokers)
        self.target = target
        self.best = len(olds) + 1
        """Fewest melds broken found so far (more than all: none yet)."""
        self.best_melds: list[Meld] = []
        self.freed: dict[int, int] = {}
        """Table jokers freed per card index, not yet placed as a kept meld's own joker."""
        self.nested = [False] * len(olds)
        """Old melds already kept inside a meld decided before."""
        self.cost = 0
        self.floor: dict[tuple[object, ...], int] = {}
        """Per node (old meld, state, played, configuration cost, freed jokers, nested
        melds): a proven floor of the melds broken among the old melds from there on."""

    def run(self, config: _Config, freed: dict[int, int]) -> None:
        """Search the plays of one configuration (already loaded into the search)."""
        self.freed = dict(freed)
        self.cost = config.cost
        if self._reaches(config.played):
            self._place(0, config.played, 0, [])

    def _reaches(self, played: int) -> bool:
        """Whether the items left can still make a play that leaves ``target``."""
        budget = self.target - self.cost + 1
        return budget > 0 and self.cost + self.search.solve(0, played, 0, budget) <= self.target

    def _place(self, i: int, played: int, broken: int, kept: list[Meld]) -> None:
        if broken >= self.best:
            return
        search = self.search
        if i == len(self.olds):
            saved = bytes(search.state)
            self._reaches(played)  # the memo holds the rest's best moves again
            rest = search.melds_of_best(played, 0)
            search.state[:] = saved
            self.best, self.best_melds = broken, [*kept, *rest]
            return
        if self.nested[i]:
            self._place(i + 1, played, broken, kept)
            return
        freed = tuple(sorted(self.freed.items()))
        key = (i, bytes(search.state), played, self.cost, freed, tuple(self.nested))
        floor = self.floor.get(key, 0)
        if broken + floor >= self.best:
            return
        before = self.best
        with closing(self._completions(i, played)) as completions:
            # Closing the generator puts the state back when the loop stops early.
            for pieces, now_played in completions:
                if self._reaches(now_played):
                    self._place(i + 1, now_played, broken, [*kept, Meld.of(pieces)])
                    if self.best <= broken:
                        break
        if broken + 1 < self.best:
            self._place(i + 1, played, broken + 1, kept)
        # Below this node nothing beats ``before`` (if nothing was found) or the new best.
        self.floor[key] = max(floor, (before if self.best == before else self.best) - broken)

    # -- completions of a kept meld -------------------------------------------

    def _completions(self, i: int, played: int) -> Generator[tuple[list[Piece], int]]:
        """Every way to complete a meld that holds old meld ``i`` whole from the state
        (with, where its jokers pass them, later old melds of its suit whole inside it):
        yields its pieces and the played flag with the state (the freed jokers, the
        nested melds) changed to match; they are restored when the generator resumes."""
        old = self.olds[i]
        with closing(self._take_reals(old.reals, played)) as own:
            for now in own:
                for shape in old.shapes:
                    for guests in self._guests(i, shape):
                        yield from self._with_guests(shape, old, guests, now)

    def _take_reals(self, reals: tuple[int, ...], played: int) -> Generator[int]:
        """Take real cards from the state (yields the played flag once, restores after).

        They are table cards (mandatory items); where a meld kept before took a mandatory
        copy that a hand copy could have given (``_fills`` offers the mandatory copy
        first), the hand copy stands in: the same table."""
        search = self.search
        state, n, compact = search.state, search.n, search.compact
        taken: list[tuple[int, int]] = []
        for kind, count in Counter(compact[index] for index in reals).items():
            mandatory = min(count, state[kind])
            optional = count - mandatory
            if optional > state[n + kind]:
                return  # a copy of its cards went to a meld kept before
            taken += [(kind, mandatory), (n + kind, optional)]
        for where, count in taken:
            state[where] -= count
        try:
            yield played | any(count for where, count in taken if where >= n)
        finally:
            for where, count in taken:
                state[where] += count

    def _guests(self, i: int, shape: _Shape) -> Iterator[list[tuple[int, _Shape]]]:
        """The sets of later old melds (each with its sequence shape in ``shape``'s suit)
        that a sequence holding old meld ``i`` may hold too: their real cards on places
        of their own.  Just the empty set for a group or a meld without jokers."""
        yield []
        if shape.suit < 0 or not self.olds[i].jokers:
            return
        options = [
            (j, other)
            for j in range(i + 1, len(self.olds))
            if not self.nested[j]
            for other in self.olds[j].shapes
            if other.suit == shape.suit and not set(other.at) & set(shape.at)
        ]
        for size in range(1, len(options) + 1):
            for chosen in combinations(options, size):
                melds = [j for j, _ in chosen]
                places = [p for _, other in chosen for p in other.at]
                if len(set(melds)) == size and len(set(places)) == len(places):
                    yield list(chosen)

    def _with_guests(
        self, shape: _Shape, old: _OldMeld, guests: list[tuple[int, _Shape]], played: int
    ) -> Iterator[tuple[list[Piece], int]]:
        """The completions of ``shape`` holding ``old`` and ``guests`` (nested melds)."""
        reals = tuple(index for j, _ in guests for index in self.olds[j].reals)
        jokers = old.jokers + tuple(joker for j, _ in guests for joker in self.olds[j].jokers)
        at = tuple(sorted(shape.at + tuple(p for _, other in guests for p in other.at)))
        spans = [(min(other.at), max(other.at)) for _, other in guests]
        whole = _Shape(shape.suit, shape.rank, at)
        for j, _ in guests:
            self.nested[j] = True
        try:
            with closing(self._take_reals(reals, played)) as taken:
                for now in taken:
                    for pieces, after in self._shape_completions(whole, jokers, now, (shape.at, spans)):
                        guest_cards: list[Piece] = [Card.from_index(index) for index in reals]
                        own_cards: list[Piece] = [Card.from_index(index) for index in old.reals]
                        yield own_cards + guest_cards + pieces, after
        finally:
            for j, _ in guests:
                self.nested[j] = False

    def _shape_completions(
        self,
        shape: _Shape,
        jokers: tuple[int, ...],
        played: int,
        nesting: tuple[tuple[int, ...], list[tuple[int, int]]] = ((), []),
    ) -> Iterator[tuple[list[Piece], int]]:
        """The pieces besides the real cards: the jokers pinned to slots, the other slots
        filled from the state.  ``nesting``: the host's own real places and the spans of
        the melds nested in it, each of which needs a joker beyond it (else the meld
        could be cut in two, each old meld kept in its own: found without nesting)."""
        if shape.suit < 0:
            slots = [(shape.rank - 1) * 4 + suit for suit in range(4) if suit not in shape.at]
            for used in range(len(slots) + 1):
                if not 3 <= len(shape.at) + used <= 4 or used < len(jokers):
                    continue
                for chosen in combinations(slots, used):
                    for pins in combinations(range(used), len(jokers)):
                        pinned = [chosen[k] for k in pins]
                        others = [slot for k, slot in enumerate(chosen) if k not in pins]
                        yield from self._pinned(pinned, list(jokers), others, played)
            return
        top, suit, at = self.search.top, shape.suit, set(shape.at)
        free = [p for p in range(1, top + 1) if p not in at]
        own, spans = nesting
        for pins in combinations(free, len(jokers)):
            if spans and not all(_passed(span, own, pins) for span in spans):
                continue
            core = sorted(at | set(pins))
            low, high = core[0], core[-1]
            for start in range(max(1, low - 2), low + 1):
                for end in range(high, min(top, high + 2) + 1):
                    positions = [p for p in range(start, end + 1) if p not in at]
                    pinned = [_card_at(p, suit) for p in pins]
                    others = [_card_at(p, suit) for p in positions if p not in pins]
                    yield from self._pinned(pinned, list(jokers), others, played)

    def _pinned(
        self, pinned: list[int], jokers: list[int], others: list[int], played: int
    ) -> Iterator[tuple[list[Piece], int]]:
        """The old meld's jokers on the slots ``pinned`` (each pairing of jokers and slots,
        each joker locked on a slot of its own card or freed), then ``others`` filled."""
        seen: set[tuple[tuple[int, int, bool], ...]] = set()
        for order in permutations(range(len(jokers))):
            pairs = [(pinned[k], jokers[order[k]]) for k in range(len(pinned))]
            for kinds in product((True, False), repeat=len(pairs)):
                chosen = tuple(
                    sorted((slot, joker, locked) for (slot, joker), locked in zip(pairs, kinds, strict=True))
                )
                if chosen in seen:
                    continue
                seen.add(chosen)
                yield from self._apply_pins(list(chosen), others, played)

    def _apply_pins(
        self, pins: list[tuple[int, int, bool]], others: list[int], played: int
    ) -> Iterator[tuple[list[Piece], int]]:
        """Take the pinned jokers from the state: a locked one of its card, or one of the
        jokers its card frees (from the wildcards; where a meld kept before took the last
        wildcard that a hand joker could have given, ``_fills`` offering the wildcard
        first, the hand joker stands in)."""
        search = self.search
        state, n, compact = search.state, search.n, search.compact
        done: list[tuple[int, int]] = []
        try:
            for slot, joker, locked in pins:
                if locked:
                    where = 2 * n + compact[joker]
                    if slot != joker or not state[where]:
                        return
                else:
                    if not self.freed.get(joker):
                        return
                    where = 3 * n if state[3 * n] else 3 * n + 1
                    if not state[where]:
                        return
                    self.freed[joker] -= 1
                    played |= where == 3 * n + 1
                state[where] -= 1
                done.append((where, -1 if locked else joker))
            pieces: list[Piece] = [Joker(Card.from_index(slot)) for slot, _, _ in pins]
            yield from self._fill_slots(others, 0, pieces, played)
        finally:
            for where, joker in done:
                state[where] += 1
                if joker >= 0:
                    self.freed[joker] += 1

    def _fill_slots(
        self, slots: list[int], k: int, pieces: list[Piece], played: int
    ) -> Iterator[tuple[list[Piece], int]]:
        """Fill ``slots[k:]`` from the state in every way ``_Search._fills`` allows."""
        if k == len(slots):
            yield list(pieces), played
            return
        search = self.search
        state = search.state
        slot = slots[k]
        for fill, where in search._fills(search.compact[slot]):
            state[where] -= 1
            pieces.append(_piece(slot, fill))
            try:
                yield from self._fill_slots(slots, k + 1, pieces, played | (fill in (_OPT, _JOKER)))
            finally:  # also when the generator is closed while it waits here
                pieces.pop()
                state[where] += 1


def best_play(
    position: Position,
    *,
    variant: Variant | None = None,
    objective: Objective = "points",
    keep_jokers: bool = False,
    opened: bool = True,
    tie_break: bool = False,
) -> ExactPlay | None:
    """The exact optimum and a table reaching it, or None when no legal play exists.

    Same arguments as ``best_value``; the table is what makes the answer checkable.
    ``tie_break=True`` also finds the fewest old melds broken among the plays of the
    optimum (``ExactPlay.melds_broken``), and the table is then one that breaks that few.
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
    if tie_break and not opening:
        return _tie_break(position, rules, counts, search, kinds, value, keep_jokers=keep_jokers)
    search.load(config)
    melds = search.melds_of_best(config.played, need)
    if opening:
        melds = [*position.table.melds, *melds]
    return ExactPlay(value, Table.of(melds), 0 if tie_break else None)


def _passed(span: tuple[int, int], own: tuple[int, ...], pins: tuple[int, ...]) -> bool:
    """Whether some joker lies beyond a nested meld's ``span``, seen from its host's own
    real places ``own``."""
    low, high = span
    if low > max(own):
        return any(p > high for p in pins)
    if high < min(own):
        return any(p < low for p in pins)
    return False


def _tie_break(
    position: Position,
    rules: Variant,
    counts: _Counts,
    search: _Search,
    kinds: list[int],
    value: int,
    *,
    keep_jokers: bool,
) -> ExactPlay:
    """The play of ``value`` that breaks the fewest old melds, over every configuration."""
    breaker = _TieBreak(search, [_old_meld(meld, rules) for meld in position.table], value)
    for config in _configs(counts, kinds, search.costs, search.joker_cost, keep_jokers=keep_jokers):
        if config.cost > value:
            continue
        search.load(config)
        freed = {
            card_index: counts.table_jokers[card_index] - config.locked[i]
            for i, card_index in enumerate(kinds)
            if counts.table_jokers[card_index]
        }
        breaker.run(config, freed)
        if breaker.best == 0:
            break
    assert breaker.best <= len(breaker.olds), "the optimum's own play breaks at most every meld"
    return ExactPlay(value, Table.of(breaker.best_melds), breaker.best)


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
