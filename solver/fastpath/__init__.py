"""The hint engine's fast path: an exact search in C that answers most hints without CP-SAT.

CP-SAT spends about a millisecond loading a model of this size and solving its root LP
before it searches at all; ``solver/fastpath/search/`` instead searches the
partitions of the table and hand directly, memoizing each state (see the file's
header for the method), and on typical positions answers in a fraction of that.  It
finds the same optimum as the CP-SAT model: the fewest points (or most cards) left,
then the fewest old melds broken.

It covers positions with table jokers, freeable or not: a table joker that stays in
its kept meld keeps its declaration; one whose meld breaks is freed (a wildcard that
must be used) while RULES.md's counting rule allows, else it stays locked (a card of its
declared kind; where two jokers of one card compete for one freeing, either may stay
locked); how many real copies of a joker's card the hand adds to the table is
fixed per search by ``solver.fastpath.configs``, one search per configuration.
``keep_jokers`` is two configurations: the hand jokers stay in the hand, or the play
goes out with them (wildcards that must be used).  The opening rule searches the hand
alone (the table stays as it is) for new melds worth the opening points.  A search
still running after ``LP_AFTER`` expansions also bounds its states with the prices of the
position's linear relaxation (``search/lp_bound.c``, solved by HiGHS from the OR-Tools wheel,
opened without importing OR-Tools' Python side).  A search that outgrows
``STATE_BUDGET`` expansions in all, or ``ROUND_BUDGET`` in one round of its deepening once
it has the prices, goes to CP-SAT: ``search`` returns None and the engine
(``solver.engine``) carries on there.  ``leaves_at_most`` asks the same search a yes/no
question (some play leaves at most so many points?) with its cost capped there, which
a hoarding rollout player asks every turn.

A backend: it returns the neutral ``solver.solution.Solution`` and never imports the
other backend (``solver.cpsat``) or the engine.
"""

from __future__ import annotations

import functools
import importlib.util
import itertools
import operator
import os
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TypedDict

from solver.cards import ALL_CARDS, CARD_KINDS, Joker, Piece
from solver.fastpath import _search
from solver.fastpath.configs import Config, configurations
from solver.melds import Meld, join_sequences, sequence_position
from solver.position import Hand, Position, Table
from solver.solution import Objective, Solution
from solver.variants import Variant

__all__ = [
    "LP_AFTER",
    "ROUND_BUDGET",
    "STATE_BUDGET",
    "applies",
    "leaves_at_most",
    "prices_available",
    "search",
]

STATE_BUDGET = 10_000
"""Expansions the search may make, over all its configurations, before it gives the
position to CP-SAT (each re-solve of its prices counts as the 40 or 80 expansions it
costs in time; about 20-35 ms in all on this machine).

Measured on the mid-game suites (2026-11-26, ``benchmarks.speed`` with the
budget set): the search answers 522 of the 600 positions within 2,000, 567 within 5,000,
590 within 10,000 (98.3%, the issue's 98%) and 593 within 12,000; most of them take a
few hundred expansions (about 2 microseconds each).  A larger budget makes the positions
left to CP-SAT wait longer for it: over all 2,600 suite positions the p99 was 21 ms with
2,000 and 30 ms with 10,000 (max 39 and 63 ms)."""

LP_AFTER = 600
"""Expansions a search makes before it also bounds its states with the prices of the
position's linear relaxation (``solver/fastpath/search/lp_bound.c``, solved by HiGHS in about
0.8 ms): most positions are settled before that and never pay for the program; the
others usually are soon after.  Measured on the speed suites (2026-11-26, budget 10,000,
``python -m benchmarks.speed --prices-after N``): at once the search answers 2,562 of
2,600 positions at a p50 of 1.44 ms; after 300 expansions 2,563 (0.34 ms); after 600
2,564 (0.34 ms); after 1,000 2,560 (0.33 ms); never 2,229 (0.35 ms)."""

ROUND_BUDGET = _search.ROUND_BUDGET
"""Expansions one deepening round of a search may take once it has the prices (the C
module's default, 5,000): a round that takes more gives the position to CP-SAT as one
past ``STATE_BUDGET`` does.  Measured on the suites (2026-11-27): every round of a
search that finished took at most 4,899 expansions but one (7,870, on a position
CP-SAT answers in a third of the time), while 12 of the 31 positions past the budget
spent 5,000 or more in one round; with the round budget those give up at 5,600-9,300
expansions instead of 10,000, and the mid-game suites keep their 588 of 600
(``benchmarks/results/tail-experiments.md``)."""

_HIGHS_LIBRARY = os.path.join(".libs", "libhighs.so.1")
"""HiGHS as OR-Tools ships it, inside the ``ortools`` package (opened by the search's C
module, without importing OR-Tools' Python side)."""

_MAX_MELDS = _search.MAX_MELDS
"""The search keeps the intact old melds in one 64-bit mask (the C module's constant)."""

_JOKER_FLAG = _search.JOKER_FLAG
"""Added to a card index in the search's melds: a wildcard (a hand joker or a freed
table joker) declared as that card."""

_LOCKED_FLAG = _search.LOCKED_FLAG
"""Added to a card index in the search's melds: a table joker kept in its old meld."""

_MAX_JOKERS = _search.MAX_JOKERS
"""The search counts up to 3 jokers."""

_MAX_NEED = _search.MAX_NEED
"""The largest opening value the search can track."""

_ACE_BITS = 0b1111
"""The four aces' bits in a card mask (card indices 0-3)."""

_ACE_HIGH = 14
"""An ace's position at the top of a run (ace-high)."""

_SortKey = tuple[int, int, int, int, str]
"""``Meld.sort_key``'s value: tables are ordered by it."""

_PIECES: dict[int, Piece] = {card.index: card for card in ALL_CARDS} | {
    card.index + _JOKER_FLAG: Joker(card) for card in ALL_CARDS
}
"""Pieces by piece code: a card's index, or its index + ``_JOKER_FLAG`` for a joker
declared as it (jokers are immutable, so the answers share these)."""

_RANKS: dict[int, int] = {code: int(ALL_CARDS[code % _JOKER_FLAG].rank) for code in _PIECES}
"""The rank a piece code counts as."""


@functools.cache
def prices_available() -> bool:
    """Whether the search can bound its states with the linear relaxation's prices: HiGHS
    found (in the ``ortools`` package) and opened, once per process.  Without it the
    search is the same exact search without that bound (slower on hard positions)."""
    spec = importlib.util.find_spec("ortools")
    if spec is None or not spec.submodule_search_locations:
        return False
    for folder in spec.submodule_search_locations:
        path = os.path.join(folder, _HIGHS_LIBRARY)
        if os.path.exists(path):
            try:
                _search.set_lp_library(path)
            except OSError:
                return False
            return True
    return False


def applies(position: Position, variant: Variant, *, keep_jokers: bool, opened: bool) -> bool:
    """Whether the fast path can answer this (validated, non-empty-handed) position."""
    if not opened and variant.opening_points > _MAX_NEED:
        return False
    if variant.decks > 3:  # a state counts up to 3 copies of a card
        return False
    if len(position.table.melds) > _MAX_MELDS:
        return False
    counts = _Counts.of(position, opening=_opening(variant, opened))
    if sum(counts.table_jokers) + counts.hand_jokers > _MAX_JOKERS:
        return False
    if variant.ace_high and any(counts.table_jokers[:4]):
        # The search reads a table meld's jokers by the card they stand for, which does
        # not say which end of a run from ace to ace a joker standing for its ace fills
        # (the real ace fills the other): such a table goes to CP-SAT.  (An opening
        # counts no table meld.)
        for meld in counts.melds:
            block = meld.block
            if block[0] == 1 and block[2] == 1 and block[3] == _ACE_HIGH and block[4] & _ACE_BITS:
                return False
    # A state holds at most 3 copies of a card that must be placed: the table's real
    # copies, its jokers standing for the card, and hand copies a configuration forces.
    return counts.most <= 3


_last_counts: list[tuple[Position, bool, _Counts] | None] = [None]
"""The counts of the position asked last (see ``_Counts.of``)."""


@dataclass(frozen=True, slots=True)
class _TableMeld:
    """A table meld as the search reads it and as its answer names it, worked out once
    per meld (``_table_meld``): a game's table melds come back turn after turn."""

    block: tuple[int, int, int, int, int]
    """The search's block (see ``_block``)."""
    codes: tuple[int, ...]
    """Its pieces in order as piece codes (see ``_PIECES``)."""
    sort_key: _SortKey
    """``Meld.sort_key``: where it sits in a table."""


@dataclass(frozen=True, slots=True)
class _Counts:
    """A position by card index: hand copies, hand jokers, real table copies, and table
    jokers by the card they stand for; and the table melds as the search reads them."""

    hand: tuple[int, ...]
    hand_jokers: int
    table_real: tuple[int, ...]
    table_jokers: tuple[int, ...]
    melds: tuple[_TableMeld, ...]
    """The table's melds in order (none for an opening, which leaves the table as it is)."""
    most: int
    """The most copies of one card a state holds: real table copies, table jokers
    standing for it and hand copies."""

    @staticmethod
    def of(position: Position, *, opening: bool) -> _Counts:
        """The counts; an opening leaves the table as it is, so it counts no table piece.
        The engine asks ``applies`` and then ``search`` about one position object: the
        last answer is kept for that object (positions are immutable)."""
        last = _last_counts[0]
        if last is not None and last[0] is position and last[1] == opening:
            return last[2]
        counts = _Counts.count(position, opening=opening)
        _last_counts[0] = (position, opening, counts)
        return counts

    @staticmethod
    def count(position: Position, *, opening: bool) -> _Counts:
        """The counts, worked out: the table from its melds' codes (cached per meld)."""
        hand = [0] * CARD_KINDS
        hand_jokers = 0
        for piece in position.hand.pieces:
            if isinstance(piece, Joker):
                hand_jokers += 1
            else:
                hand[piece.index] += 1
        laid = [0] * (_JOKER_FLAG + CARD_KINDS)  # by piece code
        melds = () if opening else tuple(_table_meld(meld.pieces) for meld in position.table.melds)
        for meld in melds:
            for code in meld.codes:
                laid[code] += 1
        real, jokers = laid[:CARD_KINDS], laid[_JOKER_FLAG:]
        placed = map(operator.add, hand, real)
        most = max(map(operator.add, placed, jokers) if any(jokers) else placed)
        return _Counts(tuple(hand), hand_jokers, tuple(real), tuple(jokers), melds, most)


_Best = tuple[int, Config, list[tuple[int, ...]], tuple[int, ...]]
"""The best play of ``search`` so far: its total cost, configuration, melds and jokers freed."""


def search(
    position: Position,
    variant: Variant,
    *,
    objective: Objective,
    started: float,
    budget: int | None = None,
    keep_jokers: bool = False,
    opened: bool = True,
    prices_after: int | None = None,
    resolve_work: int | None = None,
    points_floor: bool = True,
    round_budget: int | None = None,
) -> Solution | None:
    """The best play by the exact search, or None when it needed more than ``budget``
    expansions in all (``STATE_BUDGET`` by default).

    For a position the caller has validated and ``applies`` accepts (the engine checks
    both); ``started`` is when the caller's clock started, for ``Solution.build_ms``.
    One search runs per configuration (``solver.fastpath.configs``): each needs only to
    beat the best found so far.  ``opened=False`` applies the variant's opening rule: the
    search sees an empty table and the hand's new melds must be worth the opening points;
    the old melds are put back unchanged.  ``prices_after``: expansions before the
    search also bounds its states with the linear relaxation's prices (``LP_AFTER`` by
    default; 0 at once; -1 never), where ``prices_available``; ``resolve_work``: the prices
    are re-solved for a state the search comes back to whose last expansion took this
    many expansions (the C module's default, 20, when None; -1 never); ``points_floor``:
    in a position without jokers, the points program bounds those states too;
    ``round_budget``: a round's expansions once it has the prices (``ROUND_BUDGET``)."""
    problem = _Problem.of(
        position, variant, objective, opened, _tuning(prices_after, resolve_work, round_budget, points_floor)
    )
    weight = problem.weight
    solve_start = time.perf_counter()
    left = STATE_BUDGET if budget is None else budget
    best: _Best | None = None
    for config in problem.configurations(keep_jokers):
        base = config.cost * weight
        if best is not None and base >= best[0]:
            continue
        if left <= 0:
            return None
        result = problem.run(config, left, cap=-1 if best is None else best[0] - base)
        status, primary, broken, found = result
        left -= result.expansions
        if status == _search.OVER_BUDGET:
            return None
        if status == _search.PLAY:
            assert found is not None
            total = base + primary * weight + broken
            if best is None or total < best[0]:
                best = (total, config, found, result.freed)
    counts, opening = problem.counts, problem.opening
    return _solution(position, counts, best, weight, opening, started, solve_start, time.perf_counter())


def leaves_at_most(
    position: Position, variant: Variant, points: int, *, opened: bool = True, budget: int | None = None
) -> bool | None:
    """Whether some play leaves the hand at most ``points`` (the fewest-points objective),
    for a position ``applies`` accepts: True at the first such play found, False when no
    play does (none at all included), None when the search needed more than ``budget``
    expansions (``STATE_BUDGET`` by default).  The same search as ``search``, its cost
    capped above ``points`` (``cap``: the deepening stops there), and no play built: a
    player who melds only to go out or knock asks this every turn, and the answer is
    mostly no, which the cap proves far sooner than the best play's least cost."""
    problem = _Problem.of(position, variant, "points", opened, _tuning(None, None, None, True))
    bound = (points + 1) * problem.weight  # a total below it leaves at most ``points``
    left = STATE_BUDGET if budget is None else budget
    for config in problem.configurations(False):
        base = config.cost * problem.weight
        if base >= bound:
            continue
        if left <= 0:
            return None
        result = problem.run(config, left, cap=bound - base)
        left -= result.expansions
        if result[0] == _search.OVER_BUDGET:
            return None
        if result[0] == _search.PLAY:
            return True
    return False


@dataclass(frozen=True, slots=True)
class _Problem:
    """A position as every configuration's search reads it (``search``, ``leaves_at_most``)."""

    variant: Variant
    counts: _Counts
    opening: bool
    costs: tuple[int, ...]
    joker_cost: int
    blocks: list[tuple[int, int, int, int, int]]
    values: tuple[int, ...] | None
    need: int
    tuning: _Tuning

    @staticmethod
    def of(
        position: Position, variant: Variant, objective: Objective, opened: bool, tuning: _Tuning
    ) -> _Problem:
        opening = _opening(variant, opened)
        counts = _Counts.of(position, opening=opening)
        costs, joker_cost = _costs(variant, objective)
        blocks = [meld.block for meld in counts.melds]  # none for an opening
        values, need = (_values(variant), variant.opening_points) if opening else (None, 0)
        return _Problem(variant, counts, opening, costs, joker_cost, blocks, values, need, tuning)

    @property
    def weight(self) -> int:
        """The search's: cost = primary * weight + broken."""
        return len(self.blocks) + 1

    def configurations(self, keep_jokers: bool) -> Iterator[Config]:
        counts = self.counts
        return configurations(
            counts.hand,
            counts.hand_jokers,
            counts.table_real,
            counts.table_jokers,
            self.costs,
            self.joker_cost,
            keep_jokers=keep_jokers,
        )

    def run(self, config: Config, left: int, *, cap: int) -> _search.SearchResult:
        """One configuration's search with ``left`` expansions, counting costs below ``cap``
        only (-1: every cost)."""
        return _search.search(
            self.variant.ace_high,
            config.optional,
            self.costs,
            config.jokers,
            self.joker_cost,
            self.blocks,
            left,
            forced=config.forced,
            free=config.free,
            wild=config.wild,
            played=config.played,
            values=self.values,
            need=self.need,
            cap=cap,
            **self.tuning,
        )


class _Tuning(TypedDict, total=False):
    """The keywords of ``_search.search`` that tune it (see ``search``)."""

    lp_after: int
    resolve_work: int
    round_budget: int
    points_floor: bool


def _tuning(
    prices_after: int | None, resolve_work: int | None, round_budget: int | None, points_floor: bool
) -> _Tuning:
    """``search``'s tuning as ``_search.search`` takes it: the prices only where
    ``prices_available``, and the C module's own defaults where None is given (so that a
    search's recorded arguments name only what its caller chose)."""
    lp_after = LP_AFTER if prices_after is None else prices_after
    tuning = _Tuning(lp_after=lp_after if prices_available() else -1)
    if resolve_work is not None:
        tuning["resolve_work"] = resolve_work
    if round_budget is not None:
        tuning["round_budget"] = round_budget
    tuning["points_floor"] = points_floor
    return tuning


def _solution(
    position: Position,
    counts: _Counts,
    best: _Best | None,
    weight: int,
    opening: bool,
    started: float,
    solve_start: float,
    solve_end: float,
) -> Solution:
    """The ``Solution`` of ``search``: the table and hand of the ``best`` play found (its
    melds broken are its total cost modulo ``weight``), or the position as it was when
    none was; the build time counts this translation, the solve time the searches."""
    table = position.table
    played: tuple[Piece, ...] = ()
    hand = position.hand.pieces
    broken = 0
    if best is not None:
        total, _, found, freed = best
        broken = total % weight
        melds = _piece_codes(found, counts, freed)
        table = _new_table(position, counts, melds, opening=opening)
        played, hand = _split_hand(counts, melds)
    done = time.perf_counter()
    return Solution(
        status="optimal" if best is not None else "no_play",
        table=table,
        played=played,
        hand=Hand.of(hand),
        melds_broken=broken,
        build_ms=(solve_start - started) * 1000 + (done - solve_end) * 1000,
        solve_ms=(solve_end - solve_start) * 1000,
    )


def _opening(variant: Variant, opened: bool) -> bool:
    return not opened and variant.opening_points > 0


@functools.lru_cache(maxsize=8)
def _values(variant: Variant) -> tuple[int, ...]:
    """Each card's value toward the opening (a joker counts as the card it stands for)."""
    return tuple(variant.tile_value(card) for card in ALL_CARDS)


@functools.lru_cache(maxsize=32)
def _costs(variant: Variant, objective: Objective) -> tuple[tuple[int, ...], int]:
    """What leaving each card, and a joker, costs: its points, or 1 for the cards objective
    (the same for every hint of a variant, so worked out once)."""
    if objective == "cards":
        return (1,) * CARD_KINDS, 1
    return tuple(variant.card_points(card) for card in ALL_CARDS), variant.joker_points


@functools.lru_cache(maxsize=4096)
def _table_meld(pieces: tuple[Piece, ...]) -> _TableMeld:
    """A table meld's ``_TableMeld`` (cached by its pieces: a game's table melds come back
    turn after turn, and the cache keeps the per-piece work to one lookup per meld)."""
    meld = Meld(pieces)
    codes = []
    for piece in pieces:
        if isinstance(piece, Joker):
            assert piece.declared is not None  # a valid table declares every joker
            codes.append(piece.declared.index + _JOKER_FLAG)
        else:
            codes.append(piece.index)
    return _TableMeld(_block(meld), tuple(codes), meld.sort_key())


def _block(meld: Meld) -> tuple[int, int, int, int, int]:
    """A table meld as the search reads it: (1, suit, first, last, jokers) or
    (0, rank, suits, 0, jokers), ``jokers`` a bit per card a table joker stands for.
    A joker counts as the card it stands for."""
    cards = meld.cards
    jokers = 0
    for piece, card in zip(meld.pieces, cards, strict=True):
        if isinstance(piece, Joker):
            jokers |= 1 << card.index
    if cards[0].rank == cards[1].rank:
        suits = 0
        for card in cards:
            suits |= 1 << card.suit
        return (0, int(cards[0].rank), suits, 0, jokers)
    # Canonical order puts a sequence's cards by position; an ace is first only at position 1.
    first = int(cards[0].rank)
    return (1, int(cards[0].suit), first, first + len(cards) - 1, jokers)


def _piece_codes(
    found: list[tuple[int, ...]], counts: _Counts, freed: tuple[int, ...]
) -> list[tuple[bool, tuple[int, ...]]]:
    """The search's melds as piece codes (``_PIECES``), each with its kept flag.

    Codes +64 are wildcards (hand jokers, freed table jokers) and +128 table jokers kept
    in their old melds: both are jokers.  A table joker that left its meld but stayed
    locked comes back as a plain card of its kind, and is told apart here: of the table
    jokers declared X, some stayed in kept melds, those in ``freed`` (the search's
    result's ``freed``) were freed, and the others are locked copies of X among the plain X
    the search placed (outside kept melds first, so kept old melds keep their real cards)."""
    if not any(counts.table_jokers):  # no +128 code, and no plain card is a table joker
        return [(bool(meld[0]), meld[1:]) for meld in found]
    return _marked_codes(found, counts, freed)


def _marked_codes(
    found: list[tuple[int, ...]], counts: _Counts, freed: tuple[int, ...]
) -> list[tuple[bool, tuple[int, ...]]]:
    """``_piece_codes`` worked out in full: locked table jokers marked as jokers."""
    locked = list(counts.table_jokers)
    for card in freed:
        locked[card] -= 1
    melds: list[tuple[bool, list[int]]] = []
    for kept, *codes in found:
        for code in codes:
            if code >= _LOCKED_FLAG:
                locked[code - _LOCKED_FLAG] -= 1
        melds.append((bool(kept), [_piece_code(code) for code in codes]))
    for want_kept in (False, True):
        for kept, codes in melds:
            if kept != want_kept:
                continue
            for i, code in enumerate(codes):
                if code < _JOKER_FLAG and locked[code]:
                    locked[code] -= 1
                    codes[i] = code + _JOKER_FLAG
    return [(kept, tuple(codes)) for kept, codes in melds]


def _piece_code(code: int) -> int:
    """A search's code as a piece code: any joker (+64 or +128) as +64."""
    return code % _JOKER_FLAG + _JOKER_FLAG if code >= _JOKER_FLAG else code


def _new_table(
    position: Position, counts: _Counts, melds: list[tuple[bool, tuple[int, ...]]], *, opening: bool
) -> Table:
    """The table the search's melds make, in canonical order (as ``Table.of`` orders it,
    by ``Meld.sort_key``): the old melds first when the play is an opening."""
    if opening:  # the table stays; the search saw none of it
        placed = [(meld.sort_key(), meld) for meld in position.table.melds] + _joined(melds, {})
    else:
        old = zip(counts.melds, position.table.melds, strict=True)
        placed = _joined(melds, {meld.codes: (meld.sort_key, same) for meld, same in old})
    placed.sort(key=operator.itemgetter(0))
    return Table(tuple(map(operator.itemgetter(1), placed)))


def _joined(
    melds: list[tuple[bool, tuple[int, ...]]], old: dict[tuple[int, ...], tuple[_SortKey, Meld]]
) -> list[tuple[_SortKey, Meld]]:
    """The melds as Melds, each with its sort key.  New sequences of one suit that meet
    end to end are joined into one by ``join_sequences``, as CP-SAT's extraction does
    (the search lays long runs in pieces); melds that keep an old meld stay as they are,
    and one left exactly as it was is the old ``Meld`` itself (``old``, by its codes, with
    its sort key: no need to order them again)."""
    out: list[tuple[_SortKey, Meld]] = []
    new_runs: list[tuple[int, ...]] = []
    for kept, codes in melds:
        if kept:
            same = old.get(codes)
            out.append(same if same is not None else _meld_of(codes))
        elif _RANKS[codes[0]] != _RANKS[codes[-1]]:
            new_runs.append(codes)  # a new sequence (two ranks)
        else:
            out.append(_meld_of(codes))
    if _runs_meet(new_runs):
        joined = join_sequences([tuple(_PIECES[code] for code in codes) for codes in new_runs])
        return out + [(meld.sort_key(), meld) for meld in joined]
    return out + [_meld_of(codes) for codes in new_runs]


def _runs_meet(runs: list[tuple[int, ...]]) -> bool:
    """Whether one of these sequences (piece codes in order) starts where another of its
    suit ends (``join_sequences`` would join them): else each stays as it is, and the
    table's order does not depend on the order they come in."""
    if len(runs) < 2:
        return False
    ends = set()
    for codes in runs:
        last = ALL_CARDS[codes[-1] % _JOKER_FLAG]
        ends.add((last.suit, sequence_position(last, last=len(codes) > 1)))
    for codes in runs:
        first = ALL_CARDS[codes[0] % _JOKER_FLAG]
        if (first.suit, int(first.rank) - 1) in ends:
            return True
    return False


@functools.lru_cache(maxsize=4096)
def _meld_of(codes: tuple[int, ...]) -> tuple[_SortKey, Meld]:
    """The meld of these piece codes in canonical order, with its sort key (cached by the
    codes, small integers: the same melds come back from position to position)."""
    meld = Meld.of(_PIECES[code] for code in codes)
    return meld.sort_key(), meld


def _split_hand(
    counts: _Counts, melds: list[tuple[bool, tuple[int, ...]]]
) -> tuple[tuple[Piece, ...], tuple[Piece, ...]]:
    """Which hand pieces the new table uses: real cards beyond the table's, and jokers
    beyond the table's (table jokers never leave the table)."""
    laid = [0] * (_JOKER_FLAG + CARD_KINDS)  # by piece code
    for _, codes in melds:
        for code in codes:
            laid[code] += 1
    played: list[Piece] = []
    left: list[Piece] = []
    for index in itertools.compress(range(CARD_KINDS), counts.hand):
        used = laid[index] - counts.table_real[index]
        played.extend([ALL_CARDS[index]] * used)
        left.extend([ALL_CARDS[index]] * (counts.hand[index] - used))
    jokers_played = sum(laid[_JOKER_FLAG:]) - sum(counts.table_jokers)
    played.extend([Joker()] * jokers_played)
    left.extend([Joker()] * (counts.hand_jokers - jokers_played))
    return tuple(played), tuple(left)
