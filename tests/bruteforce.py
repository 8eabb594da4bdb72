"""A deliberately naive second oracle for tiny positions.

It shares nothing with ``solver.exact`` but the value types: every subset of the
hand, every partition of the pieces into blocks of three or more, every joker
declaration that makes a block a legal meld, and the referee judges each complete
table.  Exponential on purpose; use it on a handful of pieces only.

``brute_force_best`` also settles the engine's tie-break: among the plays with the best
value, the fewest old melds broken, where an old meld is unbroken when all of its pieces
lie in one meld of the new table, its table jokers included whatever they are declared
as there (RULES.md's counting rule still holds for every joker: one declared X that ends
declared otherwise needs a real X on the new table).  Pieces are tracked one by one here
(two copies of a card are two items, and so are two jokers), so every way of telling
copies and jokers apart is tried.
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


def _legal_melds(pieces: Sequence[Piece], variant: Variant) -> list[tuple[Meld, tuple[Piece, ...]]]:
    """Every legal meld the pieces make, over every joker declaration, each with the
    pieces as declared there (in the order of ``pieces``).

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
            found.append((meld, combo))
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
) -> Iterator[tuple[dict[int, int], dict[int, Piece]]]:
    """Every partition of ``pieces`` into legal melds that the referee accepts as the new
    table: which block each piece went to, and each piece as declared there."""
    for blocks in _partitions(list(range(len(pieces)))):
        options = [_legal_melds([pieces[i] for i in block], variant) for block in blocks]
        if not all(options):
            continue
        block_of = {item: b for b, block in enumerate(blocks) for item in block}
        for chosen in product(*options):
            melds = [meld for meld, _ in chosen]
            final = [*position.table.melds, *melds] if opening else melds
            if check_play(position, Table.of(final), variant=variant, opened=opened).ok:
                declared = {
                    item: piece
                    for block, (_, combo) in zip(blocks, chosen, strict=True)
                    for item, piece in zip(block, combo, strict=True)
                }
                yield block_of, declared


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
    for block_of, declared in _legal_tables(position, variant, pieces, opened=opened, opening=opening):
        if not _jokers_freed(table_pieces, declared):
            continue  # this way of telling the jokers apart breaks the counting rule
        broken = 0
        for m in range(old_melds):
            places = {block_of[i] for i in range(len(table_pieces)) if origin[i] == m}
            broken += len(places) != 1
        if fewest is None or broken < fewest:
            fewest = broken
    return fewest


def _jokers_freed(table_pieces: list[Piece], declared: dict[int, Piece]) -> bool:
    """Whether every table joker (item by item) that changed its declaration is covered
    by a real copy of its old card on the new table (RULES.md's counting rule, read for
    these very jokers)."""
    changed = Counter(
        piece.declared
        for i, piece in enumerate(table_pieces)
        if isinstance(piece, Joker) and declared[i] != piece
    )
    real = Counter(piece for piece in declared.values() if isinstance(piece, Card))
    return all(real[card] >= count for card, count in changed.items() if card is not None)


def broken_in(before: Table, after: Table, *, moves: bool = True) -> int:
    """Old melds of ``before`` whose pieces cannot all be found in one meld of ``after``,
    choosing the best way to tell copies and jokers apart: every table piece goes to a
    piece of ``after`` (a real card to a copy of itself, a table joker to any joker), and
    the table jokers that change their declarations need real copies of their old cards
    on ``after`` (RULES.md's counting rule).  ``moves=False`` counts as before issue
    #34: a table joker goes only to a joker of its own declaration."""
    old = [(m, piece) for m, meld in enumerate(before) for piece in meld.pieces]
    slots = [(j, piece) for j, meld in enumerate(after) for piece in meld.pieces]
    real_after = Counter(piece for _, piece in slots if isinstance(piece, Card))
    used = [False] * len(slots)
    where = [0] * len(old)
    best = len(before)

    def assign(k: int) -> None:
        nonlocal best
        if k == len(old):
            changed = Counter(
                piece.declared
                for (_, piece), at in zip(old, where, strict=True)
                if isinstance(piece, Joker) and slots[at][1] != piece
            )
            if any(real_after[card] < count for card, count in changed.items() if card is not None):
                return
            homes: dict[int, set[int]] = {}
            for (m, _), at in zip(old, where, strict=True):
                homes.setdefault(m, set()).add(slots[at][0])
            best = min(best, sum(len(places) != 1 for places in homes.values()))
            return
        piece = old[k][1]
        for at, (_, there) in enumerate(slots):
            fits = there == piece if isinstance(piece, Card) or not moves else isinstance(there, Joker)
            if fits and not used[at]:
                used[at] = True
                where[k] = at
                assign(k + 1)
                used[at] = False

    assign(0)
    return best
