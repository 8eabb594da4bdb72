"""Mid- and late-game positions sampled from seeded bot games, for ``benchmarks.speed``.

The synthetic suites (``benchmarks.suite``) spread tables evenly over every size; real
games look different: tables of 30-100 cards grown meld by meld, often with a joker or
two that a player laid and that a real card in some hand or on the table could free.
This module plays seeded games with the built-in bots (``greedy`` and ``random``, whose
plays are the hint engine's) and, at each meld decision, keeps the position when its
table holds 30-100 cards and one or two jokers, at least one of them freeable by a card
in the hand or on the table.  At most ``PER_GAME`` positions are kept per game, spread
over its turns, so no single game dominates.

    python -m benchmarks.midgame --write    # regenerate benchmarks/suites/*-midgame.jsonl
    python -m benchmarks.midgame --check    # exit 1 if a file differs from its generator

Everything is seeded: the same seed plays the same games and keeps the same positions.
"""

from __future__ import annotations

import argparse
import random
import sys
from dataclasses import dataclass

from benchmarks.suite import SuiteEntry, WrittenSuite
from solver.cards import Card, Joker
from solver.game import Action, GameSettings, PlayerView, play_game
from solver.position import Position
from solver.strategy import make_bot
from solver.strategy.bots import Bot
from solver.variants import Variant

__all__ = ["MIDGAME_SUITES", "MidgameSpec", "freeable", "sample_games"]

TABLE_RANGE = (30, 100)
"""Table cards a kept position holds (inclusive)."""
PER_GAME = 4
"""Positions kept per game at most."""
MAX_GAMES = 2_000
"""A guard: generation stops after this many games even if the suite is short."""


def freeable(position: Position) -> bool:
    """Whether a table joker's card has a real copy on the table or in the hand."""
    declared = {piece.declared for piece in position.table.pieces if isinstance(piece, Joker)}
    real = {piece for piece in (*position.table.pieces, *position.hand.pieces) if isinstance(piece, Card)}
    return bool(declared & real)


def wanted(position: Position) -> bool:
    """A mid- or late-game position with one or two table jokers, one of them freeable."""
    cards = len(position.table.pieces)
    jokers = sum(isinstance(piece, Joker) for piece in position.table.pieces)
    return TABLE_RANGE[0] <= cards <= TABLE_RANGE[1] and 1 <= jokers <= 2 and freeable(position)


class _Sampler:
    """A bot that notes every meld decision it is asked before it acts."""

    def __init__(self, bot: Bot, seen: list[Position]) -> None:
        self.bot = bot
        self.seen = seen

    def act(self, view: PlayerView) -> Action:
        if view.phase == "meld" and len(view.hand):
            position = view.position
            if wanted(position):
                self.seen.append(position)
        return self.bot.act(view)


@dataclass(frozen=True, slots=True)
class MidgameSpec(WrittenSuite):
    """A named suite of positions from bot games: ``benchmarks/suites/NAME.jsonl``."""

    name: str
    settings: GameSettings
    bots: tuple[str, ...]
    seed: int = 2026
    count: int = 300

    @property
    def variant(self) -> Variant:
        return self.settings.variant

    def generate(self) -> list[SuiteEntry]:
        return [SuiteEntry.of(position) for position in sample_games(self)]


def sample_games(spec: MidgameSpec) -> list[Position]:
    """Play seeded games until ``spec.count`` positions are kept, ordered by table size."""
    rng = random.Random(spec.seed)
    kept: list[Position] = []
    for _ in range(MAX_GAMES):
        if len(kept) >= spec.count:
            break
        game_seed = rng.randrange(1 << 30)
        seen: list[Position] = []
        players = [
            _Sampler(make_bot(name, rng=random.Random(game_seed * 31 + seat)), seen)
            for seat, name in enumerate(spec.bots)
        ]
        play_game(spec.settings, players, seed=game_seed)
        unique = list(dict.fromkeys(seen))
        if len(unique) > PER_GAME:
            unique = rng.sample(unique, PER_GAME)
        kept.extend(unique[: spec.count - len(kept)])
    return sorted(kept, key=lambda position: (len(position.table.pieces), str(position)))


MIDGAME_SUITES: tuple[MidgameSpec, ...] = (
    MidgameSpec(
        "manipulation-midgame", GameSettings.manipulation(4), ("greedy", "random", "greedy", "random")
    ),
    MidgameSpec("rummikub-midgame", GameSettings.rummikub(4), ("greedy", "random", "greedy", "random")),
)
"""Mid-game suites: Manipulation Rummy and Rummikub (two decks, two jokers), four players,
two greedy and two random bots (the random bot declines half its chances, so hands grow)."""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--write", action="store_true", help="regenerate the suite files")
    group.add_argument("--check", action="store_true", help="exit 1 if a file differs from its generator")
    args = parser.parse_args(argv)
    status = 0
    for spec in MIDGAME_SUITES:
        text = spec.text()
        if args.write:
            spec.path.write_text(text)
            print(f"wrote {spec.path} ({text.count(chr(10))} positions)")
        elif not spec.path.exists() or spec.path.read_text() != text:
            print(f"{spec.path} differs from its generator", file=sys.stderr)
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
