"""The fewest points a hand can keep after one play, for a position and its draws at once.

The draw-or-meld analysis asks one question per unseen card: drawn, how few points can
the hand keep?  It needs no play, only the number, and the number does not depend on
how the old melds lie: every meld may be taken apart, so only the cards count (and the
table jokers, through RULES.md's counting rule).  ``solver/fastpath/_points.c``
answers it exactly by dynamic programming over the card positions (see its header),
all the draws of an analysis in one call (a draw starts from the position's saved
states before its card), in a few milliseconds where each best play costs a search or a
CP-SAT call.

It covers a position when every card and joker is worth points (so the least total
says whether a play exists), the opening rule does not apply, and there are at most two
jokers in all with the drawn one.  The answers are cross-checked in the tests against
``solver.exact`` and CP-SAT like every other backend.  A backend: it imports neither
the engine nor CP-SAT.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from solver.cards import CARD_KINDS, Card, Joker, Piece
from solver.fastpath import _costs, _Counts, _points
from solver.position import Hand, Position
from solver.solution import Objective
from solver.variants import Variant

__all__ = [
    "MAX_COUNT_CANDIDATES",
    "MAX_JOKERS",
    "PointsAnswer",
    "covers",
    "fewest_points",
    "optimal_play_count",
    "playable_cards",
]

MAX_JOKERS = 2
"""Jokers in all (hand, table and the drawn one) the program handles."""

_JOKER_INDEX = CARD_KINDS
"""How the C module names a drawn joker."""

_MAX_COPIES = 3
"""Copies of one card the C module counts, on the table and in the hand."""

_PLAYED_CODE = 100
"""How the C module names "with one hand copy of card k played": 100 + k."""

MAX_COUNT_CANDIDATES = 16
"""Hands left that ``optimal_play_count`` checks one by one (each a question of its own,
up to a millisecond) before it leaves the count to another backend."""


@dataclass(frozen=True, slots=True)
class PointsAnswer:
    """The fewest points left after one play with ``drawn`` added to the hand (None: as
    it is), and whether that takes a play (fewer points than the whole hand)."""

    drawn: Piece | None
    points: int
    has_play: bool


def covers(
    position: Position, variant: Variant, *, opened: bool = True, objective: Objective = "points"
) -> bool:
    """Whether ``fewest_points`` answers this validated position as it is (a draw may
    still add a joker too many: a drawn joker is answered only within two in all)."""
    if not opened and variant.opening_points > 0:
        return False
    costs, joker_cost = _costs(variant, objective)
    if min(costs) <= 0 or (variant.jokers and joker_cost <= 0):
        return False
    counts = _Counts.of(position, opening=False)
    if sum(counts.table_jokers) + counts.hand_jokers > MAX_JOKERS:
        return False
    return all(
        counts.table_real[k] <= _MAX_COPIES and counts.hand[k] < _MAX_COPIES for k in range(CARD_KINDS)
    )


def fewest_points(
    position: Position,
    variant: Variant,
    draws: Sequence[Piece | None],
    *,
    objective: Objective = "points",
    bound: int | None = None,
) -> list[PointsAnswer | None]:
    """For each of ``draws`` (None: the position as it is; a card; ``Joker()``), the fewest
    points (or cards, ``objective="cards"``) the hand keeps after one play with it added.
    An entry is None where the program does not answer (a joker past two in all, or a
    layer too big): ask another backend.  The position must be validated and ``covers``
    must accept it.

    ``bound`` is what some legal play of the position as it is leaves in the hand (the
    caller's best play, in the objective's units), or None.  A position too big for the
    program under the limit every draw needs is then tried again under the bound, which
    it often fits: it answers the position itself and the draws that leave no more than
    it (most of them), and None for the others."""
    counts = _Counts.of(position, opening=False)
    costs, joker_cost = _costs(variant, objective)
    jokers = counts.hand_jokers + sum(counts.table_jokers)
    codes: list[int] = []
    asked: list[int] = []
    for at, piece in enumerate(draws):
        if piece is None:
            code = -1
        elif isinstance(piece, Joker):
            if jokers + 1 > MAX_JOKERS:
                continue
            code = _JOKER_INDEX
        else:
            code = piece.index
        codes.append(code)
        asked.append(at)
    found = _ask(counts, variant, costs, joker_cost, codes, bound=bound)
    hand_cost = sum(costs[k] * counts.hand[k] for k in range(CARD_KINDS)) + joker_cost * counts.hand_jokers
    answers: list[PointsAnswer | None] = [None] * len(draws)
    for at, code, value in zip(asked, codes, found, strict=True):
        if value < 0:
            continue  # _points.UNKNOWN (INFEASIBLE cannot happen for a valid table)
        drawn = draws[at]
        whole = hand_cost + (0 if code < 0 else joker_cost if code == _JOKER_INDEX else costs[code])
        answers[at] = PointsAnswer(drawn, value, value < whole)
    return answers


def playable_cards(
    position: Position, variant: Variant, *, known: Iterable[Piece] = ()
) -> tuple[list[Card], list[Card]] | None:
    """The distinct hand cards some legal play uses, and the others (in hand order), by
    asking for each card whether the table can be laid out with one of its hand copies
    on it; ``known`` cards are playable already (e.g. the best play's) and not asked
    about.  None where the program does not answer: a hand with a joker (whether a hand
    joker can be played is not a question it asks), a position it does not cover, or a
    question past its state budget.  The position must be validated."""
    if position.hand.joker_count or not covers(position, variant):
        return None
    counts = _Counts.of(position, opening=False)
    if any(counts.table_real[k] + 1 > _MAX_COPIES for k in range(CARD_KINDS) if counts.hand[k]):
        return None
    distinct = list(dict.fromkeys(piece for piece in position.hand.pieces if isinstance(piece, Card)))
    settled = set(known)
    asked = [card for card in distinct if card not in settled]
    if not asked:
        return distinct, []
    costs, joker_cost = _costs(variant, "points")
    found = _ask(counts, variant, costs, joker_cost, [_PLAYED_CODE + card.index for card in asked])
    if any(value == _points.UNKNOWN for value in found):
        return None
    never = {card for card, value in zip(asked, found, strict=True) if value < 0}
    return [card for card in distinct if card not in never], [card for card in distinct if card in never]


def optimal_play_count(
    position: Position, variant: Variant, *, best_points: int, never: Iterable[Card], cap: int
) -> tuple[int, bool] | None:
    """How many distinct sets of played cards leave exactly ``best_points`` (the fewest
    points, from the best play), counted up to ``cap``: (count, more than ``cap`` exist).
    ``never`` are the hand cards no legal play uses (``playable_cards``).

    Every play leaves the ``never`` copies, and every card costs points, so a best play
    leaves them and playable cards worth exactly the rest of ``best_points``: the
    candidates are the sets of playable hand copies worth that much, and a candidate
    counts when the table can be laid out with every other hand copy on it (a question
    to the program with those copies as the hand: none left).  None where the program
    does not answer: a hand joker, a position it does not cover, more than
    ``MAX_COUNT_CANDIDATES`` candidates or a question past its state budget.  The
    position must be validated and have a play leaving ``best_points``."""
    if cap < 1:
        raise ValueError(f"the play count cap must be at least 1, not {cap}")
    if position.hand.joker_count or not covers(position, variant):
        return None
    kept = set(never)
    hand = position.hand.pieces
    target = best_points - sum(variant.piece_points(piece) for piece in hand if piece in kept)
    if target < 0:
        return None
    playable = Counter(piece for piece in hand if isinstance(piece, Card) and piece not in kept)
    candidates = _worth(sorted(playable.items(), key=lambda item: item[0].index), target, variant)
    if candidates is None:
        return None
    costs, joker_cost = _costs(variant, "points")
    found = 0
    for left in candidates:
        played = playable - left
        if not played:
            continue  # leaving every playable card too is no play
        if len(candidates) > 1:
            sub = Position(position.table, Hand.of(played.elements()))
            answer = _ask(_Counts.count(sub, opening=False), variant, costs, joker_cost, [-1])[0]
            if answer == _points.UNKNOWN:
                return None
            if answer != 0:
                continue
        # A single candidate is the best play's own hand left: a play, known.
        found += 1
        if found > cap:
            return cap, True
    return found, False


def _worth(kinds: list[tuple[Card, int]], target: int, variant: Variant) -> list[Counter[Card]] | None:
    """Every multiset of the counted cards worth exactly ``target`` points, or None past
    ``MAX_COUNT_CANDIDATES`` of them."""
    found: list[Counter[Card]] = []
    chosen: Counter[Card] = Counter()

    def extend(at: int, left: int) -> bool:
        if left == 0:
            found.append(+chosen)  # the unary plus drops the zero counts
            return len(found) <= MAX_COUNT_CANDIDATES
        if at == len(kinds) or left < 0:
            return True
        card, copies = kinds[at]
        worth = variant.piece_points(card)
        for take in range(copies + 1):
            if take * worth > left:
                break
            chosen[card] = take
            if not extend(at + 1, left - take * worth):
                return False
        del chosen[card]
        return True

    return found if extend(0, target) else None


def _ask(
    counts: _Counts,
    variant: Variant,
    costs: Sequence[int],
    joker_cost: int,
    codes: list[int],
    *,
    bound: int | None = None,
) -> list[int]:
    """The C module's answers to ``codes`` about the position ``counts`` describes
    (``bound``: see ``fewest_points``)."""
    table_jokers = [k for k in range(CARD_KINDS) for _ in range(counts.table_jokers[k])]
    hand_jokers = counts.hand_jokers
    return _points.fewest_points(
        variant.ace_high,
        counts.table_real,
        counts.hand,
        costs,
        hand_jokers,
        joker_cost,
        table_jokers,
        codes,
        -1 if bound is None else bound,
    )
