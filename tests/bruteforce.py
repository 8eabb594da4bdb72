"""A deliberately naive second oracle for tiny positions.

It shares nothing with ``solver.exact`` but the value types: every subset of the
hand, every partition of the pieces into blocks of three or more, every joker
declaration that makes a block a legal meld, and the referee judges each complete
table.  Exponential on purpose; use it on a handful of pieces only.

``brute_force_best`` also settles the engine's tie-break: among the plays with the best
value, the fewest old melds broken, where an old meld is unbroken when all of its pieces
lie in one meld of the new table, its jokers with their old declarations.  Pieces are
tracked one by one here (two copies of a card are two items), so every way of telling
copies apart is tried.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from itertools import combinations, product
from typing import Literal

from solver.cards import Card, Joker, Piece, Rank, Suit
from solver.melds import Meld
from solver.position import Hand, Position, Table
from solver.referee import check_play
from solver.variants import Variant

__all__ = ["broken_in", "brute_force_best", "brute_force_ranked", "brute_force_value"]

_CARDS = tuple(Card(rank, suit) for rank in Rank for suit in Suit)


def _partitions(items: Sequence[int]) -> Iterator[list[tuple[int, ...]]]:
    """Partitions of ``items`` into blocks of at least three."""
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for size in range(2, len(rest) + 1):
        for companions in combinations(rest, size):
            left = [item for item in rest if item not in companions]
            for tail in _partitions(left):
                yield [(first, *companions), *tail]


def _legal_melds(pieces: Sequence[Piece], variant: Variant) -> list[Meld]:
    """Every legal meld the pieces make, over every joker declaration.

    A joker may be declared as any card sharing a rank or a suit with a real card of
    the block (no other declaration can fit), or keep its table declaration."""
    reals = [piece for piece in pieces if isinstance(piece, Card)]
    if not reals:
        return []
    fitting = [card for card in _CARDS if any(card.rank == r.rank or card.suit == r.suit for r in reals)]
    choices: list[list[Piece]] = []
    for piece in pieces:
        if isinstance(piece, Card):
            choices.append([piece])
        else:
            options: list[Piece] = [Joker(card) for card in fitting]
            if piece.declared is not None and piece not in options:
                options.append(piece)
            choices.append(options)
    found = []
    for combo in product(*choices):
        meld = Meld.of(combo)
        if meld.is_legal(variant):
            found.append(meld)
    return found


def brute_force_value(
    position: Position,
    variant: Variant,
    *,
    objective: Literal["points", "cards"] = "points",
    keep_jokers: bool = False,
    opened: bool = True,
) -> int | None:
    """Least points (or cards) left after a play the referee accepts, or None."""
    opening = not opened and variant.opening_points > 0
    table_pieces: list[Piece] = [] if opening else list(position.table.pieces)
    best: int | None = None
    for value, played in _plays(position, variant, objective, keep_jokers):
        if best is not None and value >= best:
            continue
        if _playable(position, variant, table_pieces, played, opened=opened, opening=opening):
            best = value
    return best


def _plays(
    position: Position, variant: Variant, objective: Literal["points", "cards"], keep_jokers: bool
) -> list[tuple[int, list[Piece]]]:
    """Every non-empty selection of hand pieces with the value it leaves, best first."""
    hand = list(position.hand)
    found: list[tuple[int, list[Piece]]] = []
    for size in range(1, len(hand) + 1):
        for chosen in combinations(range(len(hand)), size):
            played = [hand[i] for i in chosen]
            if keep_jokers and size < len(hand) and any(isinstance(p, Joker) for p in played):
                continue
            left = Hand.of(hand[i] for i in range(len(hand)) if i not in chosen)
            found.append((left.points(variant) if objective == "points" else len(left), played))
    return sorted(found, key=lambda play: play[0])


def _playable(
    position: Position,
    variant: Variant,
    table_pieces: list[Piece],
    played: list[Piece],
    *,
    opened: bool,
    opening: bool,
) -> bool:
    tables = _legal_tables(position, variant, table_pieces + played, opened=opened, opening=opening)
    return next(tables, None) is not None


def _legal_tables(
    position: Position, variant: Variant, pieces: list[Piece], *, opened: bool, opening: bool
) -> Iterator[tuple[dict[int, int], tuple[Meld, ...]]]:
    """Every partition of ``pieces`` into legal melds that the referee accepts as the new
    table: which block each piece went to, and the melds (block order)."""
    for blocks in _partitions(list(range(len(pieces)))):
        options = [_legal_melds([pieces[i] for i in block], variant) for block in blocks]
        if not all(options):
            continue
        block_of = {item: b for b, block in enumerate(blocks) for item in block}
        for melds in product(*options):
            final = [*position.table.melds, *melds] if opening else list(melds)
            if check_play(position, Table.of(final), variant=variant, opened=opened).ok:
                yield block_of, melds


def brute_force_best(
    position: Position,
    variant: Variant,
    *,
    objective: Literal["points", "cards"] = "points",
    keep_jokers: bool = False,
    opened: bool = True,
) -> tuple[int, int] | None:
    """(Least points or cards left, fewest old melds broken among those plays), or None."""
    opening = not opened and variant.opening_points > 0
    table_pieces: list[Piece] = [] if opening else list(position.table.pieces)
    origin: list[int] = [] if opening else [i for i, meld in enumerate(position.table) for _ in meld.pieces]
    best: tuple[int, int] | None = None
    for value, played in _plays(position, variant, objective, keep_jokers):
        if best is not None and value > best[0]:
            break
        broken = _fewest_broken(
            position, variant, table_pieces, origin, played, opened=opened, opening=opening
        )
        if broken is not None and (best is None or (value, broken) < best):
            best = (value, broken)
    return best


def brute_force_ranked(
    position: Position,
    variant: Variant,
    *,
    objective: Literal["points", "cards"] = "points",
    keep_jokers: bool = False,
    opened: bool = True,
) -> list[tuple[int, int, tuple[Piece, ...]]]:
    """Every legal play's played multiset (sorted pieces) with its value and the fewest
    old melds broken by a table that plays exactly it, best first."""
    opening = not opened and variant.opening_points > 0
    table_pieces: list[Piece] = [] if opening else list(position.table.pieces)
    origin: list[int] = [] if opening else [i for i, meld in enumerate(position.table) for _ in meld.pieces]
    ranked: dict[tuple[Piece, ...], tuple[int, int]] = {}
    for value, played in _plays(position, variant, objective, keep_jokers):
        key = tuple(sorted(played, key=str))
        if key in ranked:
            continue
        broken = _fewest_broken(
            position, variant, table_pieces, origin, played, opened=opened, opening=opening
        )
        if broken is not None:
            ranked[key] = (value, broken)
    return sorted(((value, broken, key) for key, (value, broken) in ranked.items()), key=lambda r: r[:2])


def _fewest_broken(
    position: Position,
    variant: Variant,
    table_pieces: list[Piece],
    origin: list[int],
    played: list[Piece],
    *,
    opened: bool,
    opening: bool,
) -> int | None:
    """The fewest old melds broken by a legal table of the table pieces and ``played``."""
    old_melds = 0 if opening else len(position.table)
    fewest: int | None = None
    pieces = table_pieces + played
    for block_of, melds in _legal_tables(position, variant, pieces, opened=opened, opening=opening):
        broken = 0
        for m in range(old_melds):
            items = [i for i in range(len(table_pieces)) if origin[i] == m]
            places = {block_of[i] for i in items}
            kept = len(places) == 1 and all(
                _keeps_declaration(table_pieces[i], melds[block_of[i]]) for i in items
            )
            broken += not kept
        if fewest is None or broken < fewest:
            fewest = broken
    return fewest


def _keeps_declaration(piece: Piece, meld: Meld) -> bool:
    """Whether a table joker keeps its declaration in ``meld`` (real cards always do).
    Jokers differ only by declaration, so the meld holding a joker declared as this one
    was is the same table as this one keeping it."""
    return isinstance(piece, Card) or piece in meld.pieces


def broken_in(before: Table, after: Table) -> int:
    """Old melds of ``before`` whose pieces cannot all be found in one meld of ``after``
    (jokers with their declarations), choosing the best way to tell copies apart."""
    old = list(before)
    capacity = [Counter(meld.pieces) for meld in after]
    best = len(old)

    def place(m: int, kept: int) -> None:
        nonlocal best
        if m == len(old):
            best = min(best, len(old) - kept)
            return
        if len(old) - m + kept <= len(old) - best:
            return  # cannot beat the best found
        need = Counter(old[m].pieces)
        for room in capacity:
            if all(room[piece] >= count for piece, count in need.items()):
                room.subtract(need)
                place(m + 1, kept + 1)
                room.update(need)
        place(m + 1, kept)

    place(0, 0)
    return best
