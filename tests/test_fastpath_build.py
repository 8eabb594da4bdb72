"""The fast path's shortcuts around the C search give what the general path gives.

``solver.fastpath`` counts a position from its melds' cached codes, reads the search's
melds as small-integer codes, reuses old melds and cached new ones by those codes, skips
``join_sequences`` when no two new runs meet, and orders the table by cached sort keys.
Each is checked here on random positions against the plain way of doing the same work
(count the pieces, build every meld with ``Meld.of``, join every run, ``Table.of``).
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from randpos import random_options, random_position, twin_joker_position

import solver.fastpath as fastpath
from solver.cards import CARD_KINDS, Card, Joker, Piece, Rank, Suit, effective_card
from solver.engine import hint
from solver.melds import Meld, join_sequences, position_card
from solver.position import Position, Table
from solver.variants import Variant

VARIANTS = [
    Variant.manipulation(),
    Variant.rummikub(),
    Variant.machiavelli(),
    Variant.manipulation(players=2),
]


def _positions(seed: int, count: int) -> list[tuple[Position, Variant]]:
    """Random positions, some with twin table jokers (the locked-joker marking)."""
    rng = random.Random(seed)
    found: list[tuple[Position, Variant]] = []
    while len(found) < count:
        variant = rng.choice(VARIANTS)
        twin = twin_joker_position(rng, variant) if variant.decks == 2 and variant.jokers == 2 else None
        found.append((twin or random_position(rng, variant, max_table_cards=40, max_hand=10), variant))
    return found


def _plain_counts(position: Position, *, opening: bool) -> tuple[list[int], int, list[int], list[int]]:
    """Hand copies, hand jokers, real table copies and table jokers by their card, counted
    piece by piece."""
    hand = Counter(piece.index for piece in position.hand if isinstance(piece, Card))
    table = () if opening else position.table.pieces
    real = Counter(piece.index for piece in table if isinstance(piece, Card))
    jokers = Counter(p.declared.index for p in table if isinstance(p, Joker) and p.declared is not None)
    hand_jokers = sum(isinstance(piece, Joker) for piece in position.hand)
    return (
        [hand[x] for x in range(CARD_KINDS)],
        hand_jokers,
        [real[x] for x in range(CARD_KINDS)],
        [jokers[x] for x in range(CARD_KINDS)],
    )


def test_counts_from_cached_melds_are_the_pieces_counts() -> None:
    for position, _ in _positions(1, 300):
        for opening in (False, True):
            counts = fastpath._Counts.count(position, opening=opening)
            hand, hand_jokers, real, jokers = _plain_counts(position, opening=opening)
            assert (list(counts.hand), counts.hand_jokers) == (hand, hand_jokers)
            assert (list(counts.table_real), list(counts.table_jokers)) == (real, jokers)
            assert counts.most == max(hand[x] + real[x] + jokers[x] for x in range(CARD_KINDS))
            table = () if opening else position.table.melds
            assert [meld.block for meld in counts.melds] == [fastpath._block(meld) for meld in table]
            assert [meld.sort_key for meld in counts.melds] == [meld.sort_key() for meld in table]
            pieces = [tuple(fastpath._PIECES[code] for code in meld.codes) for meld in counts.melds]
            assert pieces == [meld.pieces for meld in table]


def _plain_table(position: Position, melds: list[tuple[bool, tuple[int, ...]]], *, opening: bool) -> Table:
    """The new table built the plain way: every meld by ``Meld.of``, every new run through
    ``join_sequences``, the whole by ``Table.of``."""
    built: list[Meld] = list(position.table.melds) if opening else []
    runs: list[tuple[Piece, ...]] = []
    for kept, codes in melds:
        pieces = tuple(fastpath._PIECES[code] for code in codes)
        first, last = effective_card(pieces[0]), effective_card(pieces[-1])
        assert first is not None and last is not None
        if not kept and first.rank != last.rank:
            runs.append(pieces)
        else:
            built.append(Meld.of(pieces))
    return Table.of(built + join_sequences(runs))


@pytest.mark.parametrize("seed", range(3))
def test_the_answer_is_built_as_the_plain_way_builds_it(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every table the search's answer becomes, and the marking of its locked jokers,
    checked against the plain way on the spot (the search runs as it always does)."""
    new_table, piece_codes = fastpath._new_table, fastpath._piece_codes
    seen = {"tables": 0, "joined": 0, "unmarked": 0}

    def checked_table(
        position: Position, counts: Any, melds: list[tuple[bool, tuple[int, ...]]], *, opening: bool
    ) -> Table:
        table = new_table(position, counts, melds, opening=opening)
        assert table == _plain_table(position, melds, opening=opening)
        seen["tables"] += 1
        seen["joined"] += fastpath._runs_meet([codes for kept, codes in melds if not kept])
        return table

    def checked_codes(found: Any, counts: Any, freed: tuple[int, ...]) -> list[tuple[bool, tuple[int, ...]]]:
        melds = piece_codes(found, counts, freed)
        if not any(counts.table_jokers):
            assert melds == fastpath._marked_codes(found, counts, freed)
            seen["unmarked"] += 1
        return melds

    monkeypatch.setattr(fastpath, "_new_table", checked_table)
    monkeypatch.setattr(fastpath, "_piece_codes", checked_codes)
    rng = random.Random(seed)
    for position, variant in _positions(100 + seed, 150):
        hint(position, variant=variant, **random_options(rng, variant))  # type: ignore[arg-type]
    assert seen["tables"] > 60 and seen["unmarked"] > 30
    assert seen["joined"] > 0  # the general join is among them


def _run(suit: Suit, start: int, length: int, joker_at: int | None = None) -> tuple[int, ...]:
    """A sequence as piece codes, a joker in place ``joker_at`` if given."""
    cards = [position_card(p, suit) for p in range(start, start + length)]
    return tuple(card.index + (fastpath._JOKER_FLAG if i == joker_at else 0) for i, card in enumerate(cards))


def test_runs_that_do_not_meet_stay_as_join_sequences_leaves_them() -> None:
    rng = random.Random(7)
    joined = 0
    for _ in range(2000):
        runs = []
        for _ in range(rng.randint(0, 5)):
            length = rng.randint(3, 6)
            joker = rng.randrange(length) if rng.random() < 0.3 else None
            runs.append(_run(Suit(rng.randrange(4)), rng.randint(1, 15 - length), length, joker))
        pieces = [tuple(fastpath._PIECES[code] for code in run) for run in runs]
        plain = sorted(join_sequences(pieces), key=Meld.sort_key)
        alone = sorted((Meld.of(run) for run in pieces), key=Meld.sort_key)
        if not fastpath._runs_meet(runs):
            assert plain == alone
        joined += plain != alone
    assert joined > 100  # runs that meet are among them, and do join
    assert fastpath._runs_meet([_run(Suit.HEARTS, 5, 3), _run(Suit.HEARTS, 8, 3)])
    assert not fastpath._runs_meet([_run(Suit.HEARTS, 5, 3), _run(Suit.SPADES, 8, 3)])
    # Q-K-A ends at the high ace, where nothing starts.
    assert not fastpath._runs_meet([_run(Suit.HEARTS, 12, 3), _run(Suit.HEARTS, 1, 3)])


def test_melds_cached_by_codes_are_the_melds_of_their_pieces() -> None:
    for rank in Rank:
        codes = tuple(Card(rank, suit).index for suit in (Suit.CLUBS, Suit.SPADES, Suit.HEARTS))
        key, meld = fastpath._meld_of(codes)
        plain = Meld.of(fastpath._PIECES[code] for code in codes)
        assert (key, meld) == (plain.sort_key(), plain)
