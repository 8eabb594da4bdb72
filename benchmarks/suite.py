"""Seeded random positions of any size, for benchmarks (tables of 0 to 106 cards).

Each deck copy is laid out as a random legal table: some ranks become groups, the
rest of every suit is cut into sequences of 3-5 cards (ace low or high), and some
cards of melds become jokers declared as them.  A position takes a random subset of
these melds as its table and deals the hand from the cards left over.  Everything
goes through one ``random.Random(seed)``, so a suite is rebuilt exactly from its seed.

The named suites in ``SUITES`` are the ones the benchmark scripts measure.  They are
also kept as JSON Lines under ``benchmarks/suites/`` so that anyone can read, diff or
feed them to another solver; rebuild and verify them with

    python -m benchmarks.suite --write    # regenerate benchmarks/suites/*.jsonl
    python -m benchmarks.suite --check    # exit 1 if a file differs from its generator

Every suite spreads its tables over 0-106 cards (as far as the deck allows once the
hand is dealt) and its hands over 1-20 cards; each variant with jokers has one suite
with locked jokers (table jokers, declared, on every non-empty table) and one without
(hand jokers only), because locked jokers change the model the hint engine builds and
peers that do not lock jokers can only be compared on the second kind.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from solver.cards import ALL_CARDS, Card, Joker, Piece, Rank, Suit
from solver.melds import Meld, position_card
from solver.position import Hand, Position, Table
from solver.variants import Variant, VariantName

__all__ = [
    "HAND_RANGE",
    "SUITES",
    "SUITES_DIR",
    "JokerMode",
    "SuiteEntry",
    "SuiteSpec",
    "coverage_problems",
    "random_big_position",
    "suite",
    "suite_named",
]

JokerMode = Literal["any", "free", "locked"]
"""``any``: table jokers at random (the original mix); ``free``: no table jokers, hand
jokers at random; ``locked``: one or more table jokers whenever the table has a meld
that can hold one, hand jokers at random with the jokers left."""

SUITES_DIR = Path(__file__).resolve().parent / "suites"
HAND_RANGE = (1, 20)
"""Hand sizes a suite draws from (inclusive)."""
FREE_JOKER_RATE = 0.3
"""Chance that each joker not locked on the table goes to the hand (``free`` and
``locked`` suites): about half the hands of a two-joker deck hold one or two."""


def _deck_layout(rng: random.Random, variant: Variant) -> list[list[Piece]]:
    """One deck copy cut into legal melds; cards that fit no meld are dropped."""
    group_ranks = set(rng.sample(range(1, 14), rng.randint(0, 4)))
    melds: list[list[Piece]] = []
    for rank in sorted(group_ranks):
        suits = list(Suit)
        if rng.random() < 0.5:
            suits.remove(rng.choice(suits))
        melds.append([Card(Rank(rank), suit) for suit in suits])
    for suit in Suit:
        high = variant.ace_high and rng.random() < 0.3
        positions = [p for p in range(2, 15 if high else 14) if (p if p <= 13 else 1) not in group_ranks]
        if not high and 1 not in group_ranks:
            positions.insert(0, 1)
        if high and 1 in group_ranks:
            positions = [p for p in positions if p != 14]
        run: list[int] = []
        for p in [*positions, 99]:
            if run and p != run[-1] + 1:
                melds.extend(_cut_run(rng, run, suit))
                run = []
            run.append(p)
    return melds


def _cut_run(rng: random.Random, run: list[int], suit: Suit) -> list[list[Piece]]:
    pieces: list[list[Piece]] = []
    start = 0
    while len(run) - start >= 3:
        rest = len(run) - start
        length = rest if rest <= 5 else rng.randint(3, min(5, rest - 3))
        pieces.append([position_card(p, suit) for p in run[start : start + length]])
        start += length
    return pieces


@dataclass(frozen=True, slots=True)
class SuiteEntry:
    """One benchmark position and the sizes the reports group it by."""

    position: Position
    table_cards: int
    hand_cards: int
    """Pieces in the hand, hand jokers included."""
    table_jokers: int
    """Jokers on the table: declared and locked until a real card frees them."""
    hand_jokers: int = 0

    def to_json(self, number: int) -> str:
        """One JSON Lines record; keys in a fixed order so that files diff cleanly."""
        return json.dumps(
            {
                "n": number,
                "position": str(self.position),
                "table_cards": self.table_cards,
                "hand_cards": self.hand_cards,
                "table_jokers": self.table_jokers,
                "hand_jokers": self.hand_jokers,
            }
        )

    @classmethod
    def from_json(cls, line: str) -> SuiteEntry:
        record = json.loads(line)
        return cls(
            Position.parse(record["position"]),
            int(record["table_cards"]),
            int(record["hand_cards"]),
            int(record["table_jokers"]),
            int(record.get("hand_jokers", 0)),
        )

    @classmethod
    def of(cls, position: Position) -> SuiteEntry:
        table_jokers = sum(isinstance(p, Joker) for p in position.table.pieces)
        return cls(
            position, position.table.card_count(), len(position.hand), table_jokers, position.hand.joker_count
        )


def random_big_position(
    rng: random.Random,
    variant: Variant,
    *,
    table_cards: int,
    hand_cards: int,
    joker_rate: float = 0.5,
    table_jokers: int | None = None,
) -> Position:
    """A legal position with about ``table_cards`` on the table and ``hand_cards`` in hand.

    With ``table_jokers=None`` jokers go on the table at random and a hand may get one
    joker on top of its ``hand_cards`` (the original generator, kept draw for draw so
    old seeds still give the same positions).  With a number, exactly that many jokers
    are locked on the table (fewer only when no meld can take one: every meld keeps two
    real cards or more before a joker replaces one), each joker left goes to the hand
    with probability ``joker_rate``, and the hand holds exactly ``hand_cards`` pieces.
    """
    melds: list[list[Piece]] = []
    for _ in range(variant.decks):
        melds.extend(_deck_layout(rng, variant))
    rng.shuffle(melds)
    table: list[list[Piece]] = []
    size = 0
    loose: list[Piece] = []
    for meld in melds:
        if size + len(meld) <= table_cards:
            table.append(meld)
            size += len(meld)
        else:
            loose.extend(meld)
    if table_jokers is None:
        return _original_jokers(rng, variant, table, loose, hand_cards, joker_rate)
    jokers_left = variant.jokers - _lock_jokers(rng, table, loose, min(table_jokers, variant.jokers))
    loose = [card for card in loose if isinstance(card, Card)]
    loose.extend(_missing_copies(variant, table, loose))
    rng.shuffle(loose)
    hand_jokers = sum(rng.random() < joker_rate for _ in range(jokers_left))
    hand_jokers = min(hand_jokers, hand_cards - 1)  # at least one real card: a hand of jokers says little
    hand: list[Piece] = [*loose[: hand_cards - hand_jokers], *[Joker()] * hand_jokers]
    position = Position(Table.of(Meld.of(meld) for meld in table), Hand.of(hand))
    return position.validate(variant)


def _original_jokers(
    rng: random.Random,
    variant: Variant,
    table: list[list[Piece]],
    loose: list[Piece],
    hand_cards: int,
    joker_rate: float,
) -> Position:
    """The first generator's joker placement (each meld may get one, the hand at most one)."""
    jokers_left = variant.jokers
    for meld in table:
        if jokers_left and rng.random() < joker_rate / max(1, len(table)) * 4:
            slot = rng.randrange(len(meld))
            card = meld[slot]
            if isinstance(card, Card) and sum(isinstance(p, Card) for p in meld) > 1:
                meld[slot] = Joker(card)
                loose.append(card)
                jokers_left -= 1
    loose = [card for card in loose if isinstance(card, Card)]
    loose.extend(_missing_copies(variant, table, loose))
    rng.shuffle(loose)
    hand: list[Piece] = list(loose[:hand_cards])
    for _ in range(jokers_left):
        if len(hand) < hand_cards + 1 and rng.random() < joker_rate:
            hand.append(Joker())
    position = Position(Table.of(Meld.of(meld) for meld in table), Hand.of(hand))
    return position.validate(variant)


def _lock_jokers(rng: random.Random, table: list[list[Piece]], loose: list[Piece], count: int) -> int:
    """Replace ``count`` real cards of the table by jokers declared as them; the cards
    go back to the loose pile (so a hand may hold the card that frees a joker).
    Returns how many jokers were placed."""
    placed = 0
    for _ in range(count):
        slots = [
            (m, s)
            for m, meld in enumerate(table)
            if sum(isinstance(p, Card) for p in meld) > 1
            for s, piece in enumerate(meld)
            if isinstance(piece, Card)
        ]
        if not slots:
            break
        m, s = rng.choice(slots)
        card = table[m][s]
        assert isinstance(card, Card)
        table[m][s] = Joker(card)
        loose.append(card)
        placed += 1
    return placed


def _missing_copies(variant: Variant, table: list[list[Piece]], loose: list[Piece]) -> list[Card]:
    """Copies of the full deck that are neither on the table nor loose yet."""
    counts: dict[Card, int] = {}
    for piece in [*[p for meld in table for p in meld], *loose]:
        if isinstance(piece, Card):
            counts[piece] = counts.get(piece, 0) + 1
    missing: list[Card] = []
    for card in ALL_CARDS:
        missing.extend([card] * max(0, variant.decks - counts.get(card, 0)))
    return missing


def suite(
    seed: int, count: int, variant: Variant, *, max_table: int = 106, jokers: JokerMode = "any"
) -> Iterator[SuiteEntry]:
    """``count`` positions with table sizes spread evenly over 0..max_table and hands of
    1-20 cards (fewer table cards when the deck runs short).  ``jokers`` picks the
    joker mix (see ``JokerMode``); ``any`` reproduces the original suites."""
    if jokers == "locked" and variant.jokers == 0:
        raise ValueError(f"the {variant.name} deck has no jokers, so no suite with locked jokers")
    rng = random.Random(seed)
    for n in range(count):
        target = round(max_table * n / max(1, count - 1))
        hand_cards = rng.randint(*HAND_RANGE)
        target = min(target, variant.deck_size - hand_cards - variant.jokers)
        locked: int | None = None
        if jokers == "free":
            locked = 0
        elif jokers == "locked":
            locked = rng.randint(1, variant.jokers)
        rate = 0.5 if locked is None else FREE_JOKER_RATE
        position = random_big_position(
            rng, variant, table_cards=target, hand_cards=hand_cards, joker_rate=rate, table_jokers=locked
        )
        yield SuiteEntry.of(position)


class WrittenSuite:
    """A seeded suite written to ``benchmarks/suites/NAME.jsonl``: how it is read back and
    written, whatever makes its positions (``generate``; the synthetic suites here, the
    mid-game ones in ``benchmarks.midgame``)."""

    __slots__ = ()
    name: str

    def generate(self) -> list[SuiteEntry]:
        raise NotImplementedError

    @property
    def path(self) -> Path:
        return SUITES_DIR / f"{self.name}.jsonl"

    def load(self) -> list[SuiteEntry]:
        """The written suite, or a fresh generation when the file is missing."""
        if not self.path.exists():
            return self.generate()
        return [SuiteEntry.from_json(line) for line in self.path.read_text().splitlines() if line.strip()]

    def text(self, entries: list[SuiteEntry] | None = None) -> str:
        """The suite's file: one JSON line per position (``entries``, or a fresh generation)."""
        chosen = self.generate() if entries is None else entries
        return "".join(entry.to_json(number) + "\n" for number, entry in enumerate(chosen))


@dataclass(frozen=True, slots=True)
class SuiteSpec(WrittenSuite):
    """A named, seeded suite: what ``--write`` puts in ``benchmarks/suites/NAME.jsonl``."""

    name: str
    variant_name: VariantName
    jokers: JokerMode
    seed: int = 2026
    count: int = 400

    @property
    def variant(self) -> Variant:
        return Variant.named(self.variant_name)

    def generate(self) -> list[SuiteEntry]:
        return list(suite(self.seed, self.count, self.variant, jokers=self.jokers))


SUITES: tuple[SuiteSpec, ...] = (
    SuiteSpec("manipulation-free", "manipulation", "free"),
    SuiteSpec("manipulation-locked", "manipulation", "locked"),
    SuiteSpec("machiavelli", "machiavelli", "free"),
    SuiteSpec("rummikub-free", "rummikub", "free"),
    SuiteSpec("rummikub-locked", "rummikub", "locked"),
)
"""The benchmark suites: each variant with and without locked jokers (Machiavelli has
no jokers).  ``rummikub-free`` is the one ``benchmarks.peers`` compares on."""


def suite_named(name: str) -> SuiteSpec:
    for spec in SUITES:
        if spec.name == name:
            return spec
    raise ValueError(f"unknown suite {name!r}; choose one of {', '.join(s.name for s in SUITES)}")


def coverage_problems(spec: SuiteSpec, entries: list[SuiteEntry]) -> list[str]:
    """What a suite fails to cover: every hand size 1-20, tables from empty to within
    a few cards of the largest the deck allows, and the promised joker mix."""
    found: list[str] = []
    hands = {entry.hand_cards for entry in entries}
    missing = [size for size in range(HAND_RANGE[0], HAND_RANGE[1] + 1) if size not in hands]
    if missing:
        found.append(f"{spec.name}: no hand of {missing} cards")
    if max(hands, default=0) > HAND_RANGE[1]:
        found.append(f"{spec.name}: a hand of more than {HAND_RANGE[1]} cards")
    tables = [entry.table_cards for entry in entries]
    if min(tables, default=1) != 0:
        found.append(f"{spec.name}: no empty table")
    if max(tables, default=0) < 95:
        found.append(f"{spec.name}: largest table has {max(tables, default=0)} cards, fewer than 95")
    for low in range(0, 100, 10):
        if not any(low <= size < low + 10 for size in tables):
            found.append(f"{spec.name}: no table of {low}-{low + 9} cards")
    if spec.jokers == "free" and any(entry.table_jokers for entry in entries):
        found.append(f"{spec.name}: a table joker in a suite without locked jokers")
    if spec.jokers == "locked":
        bare = [n for n, entry in enumerate(entries) if entry.table_cards >= 6 and not entry.table_jokers]
        if bare:
            found.append(f"{spec.name}: positions {bare[:5]} have a table but no locked joker")
    if spec.variant.jokers and not any(entry.hand_jokers for entry in entries):
        found.append(f"{spec.name}: no hand joker anywhere")
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    action = parser.add_mutually_exclusive_group()
    action.add_argument("--write", action="store_true", help="regenerate benchmarks/suites/*.jsonl")
    action.add_argument(
        "--check", action="store_true", help="exit 1 if a written suite differs from its generator"
    )
    args = parser.parse_args(argv)
    status = 0
    for spec in SUITES:
        entries = spec.generate()
        text = spec.text(entries)
        problems = coverage_problems(spec, entries)
        for problem in problems:
            print(f"coverage: {problem}", file=sys.stderr)
        status |= bool(problems)
        tables = [e.table_cards for e in entries]
        locked = sum(e.table_jokers > 0 for e in entries)
        in_hand = sum(e.hand_jokers > 0 for e in entries)
        line = (
            f"{spec.name:<21} {spec.variant_name:<13} seed {spec.seed} x{spec.count}: tables "
            f"{min(tables)}-{max(tables)} cards, locked jokers in {locked}, hand jokers in {in_hand}"
        )
        if args.write:
            spec.path.parent.mkdir(exist_ok=True)
            spec.path.write_text(text)
            line += f" -> {spec.path}"
        elif args.check:
            same = spec.path.exists() and spec.path.read_text() == text
            line += ": matches" if same else ": DIFFERS (rebuild with --write)"
            status |= not same
        print(line)
    return status


if __name__ == "__main__":
    raise SystemExit(main())
