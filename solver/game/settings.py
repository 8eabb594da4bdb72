"""Game settings: how a variant's turns run and how its rounds are scored, as one object.

``solver.variants.Variant`` says which cards exist and which melds are legal; a game
also needs the shape of a turn, the scoring and the bonuses.  ``GameSettings`` holds
both, built from a preset (``GameSettings.manipulation(players=3)``), so the rule code
reads settings and never tests a variant's name (OpenSpiel-style game parameters).

Turn styles:

- ``draw_first`` (Manipulation Rummy): draw a card, then meld or not; without a meld,
  draw again, up to ``draws_per_turn`` cards; after the last draw the turn ends
  without a meld.  Knocking at the end of a turn, an exhausted stock gives every
  player one final turn without drawing.
- ``meld_or_draw`` (Machiavelli, Rummikub): meld, or draw one card; either ends the
  turn.  With the stock empty, drawing draws nothing (a pass).

Scoring styles:

- ``lowest_hand`` (Manipulation Rummy): the lowest hand wins the round; undercut, ties,
  going out, and a game played to ``variant.target_score`` with end-of-game bonuses.
- ``first_out`` (Machiavelli, Rummikub): a game is one round; see ``solver.game.scoring``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Literal

from solver.variants import Variant, VariantName, preset_named

__all__ = ["GAME_PRESETS", "GameSettings", "PresetOptions", "ScoringStyle", "TurnStyle"]

_DESCRIPTION_TYPES: dict[str, type] = {
    "variant": str,
    "players": int,
    "turn": str,
    "scoring": str,
    "draws_per_turn": int,
    "hand_size": int,
    "knock_only_after_meld": bool,
    "round_bonus_to_all": bool,
}
"""The keys of ``describe()`` and each one's JSON type."""

TurnStyle = Literal["draw_first", "meld_or_draw"]
ScoringStyle = Literal["lowest_hand", "first_out"]

MACHIAVELLI_MAX_PLAYERS = 8
MACHIAVELLI_LARGE_TABLE_HAND = 10
"""With more than 5 players the Machiavelli dealer may deal fewer cards; we deal 10
(8 players x 10 cards leaves 24 of the 104 in the stock)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class GameSettings:
    """Everything the game flow and the scoring read: the variant, the players, the turn."""

    variant: Variant
    players: int
    turn: TurnStyle
    scoring: ScoringStyle
    draws_per_turn: int = 1
    """Most cards drawn in one ``draw_first`` turn (3 in Manipulation Rummy)."""
    undercut_bonus: int = 10
    going_out_bonus: int = 25
    game_bonus: int = 100
    """Added at the end of a game to each player who reached the target score."""
    round_win_bonus: int = 25
    """Added at the end of a game for each round won (see ``variant.round_bonus_to_all``)."""

    def __post_init__(self) -> None:
        if self.players < 2:
            raise ValueError(f"a game needs at least 2 players, not {self.players}")
        dealt = self.players * self.variant.hand_size
        if dealt > self.variant.deck_size:
            raise ValueError(
                f"{self.players} hands of {self.variant.hand_size} need {dealt} cards, "
                f"but the {self.variant.name} deck holds {self.variant.deck_size}"
            )
        if self.draws_per_turn < 1:
            raise ValueError(f"draws per turn must be at least 1, not {self.draws_per_turn}")

    @classmethod
    def manipulation(
        cls,
        players: int = 2,
        *,
        knock_only_after_meld: bool = False,
        round_bonus_to_all: bool = False,
    ) -> GameSettings:
        """Manipulation Rummy for 2-5 players: the deck follows the player count."""
        variant = Variant.manipulation(
            players=players,
            knock_only_after_meld=knock_only_after_meld,
            round_bonus_to_all=round_bonus_to_all,
        )
        return cls(
            variant=variant, players=players, turn="draw_first", scoring="lowest_hand", draws_per_turn=3
        )

    @classmethod
    def machiavelli(cls, players: int = 2, *, hand_size: int | None = None) -> GameSettings:
        """Machiavelli for 2-8 players: 15 cards each, 10 with more than 5 players."""
        if not 2 <= players <= MACHIAVELLI_MAX_PLAYERS:
            raise ValueError(
                f"Machiavelli is played here by 2-{MACHIAVELLI_MAX_PLAYERS} players, not {players}"
            )
        size = hand_size if hand_size is not None else (15 if players <= 5 else MACHIAVELLI_LARGE_TABLE_HAND)
        variant = Variant.machiavelli(players=players, hand_size=size)
        return cls(variant=variant, players=players, turn="meld_or_draw", scoring="first_out")

    @classmethod
    def rummikub(cls, players: int = 2) -> GameSettings:
        """Rummikub for 2-4 players: 14 tiles each, a 30-point opening from the rack."""
        variant = Variant.rummikub(players=players)
        return cls(variant=variant, players=players, turn="meld_or_draw", scoring="first_out")

    @classmethod
    def named(
        cls,
        name: str,
        players: int = 2,
        *,
        knock_only_after_meld: bool = False,
        round_bonus_to_all: bool = False,
        hand_size: int | None = None,
    ) -> GameSettings:
        """The preset called ``name`` (``GAME_PRESETS``, any case and spacing); each
        preset reads its own options and ignores the others' (``PresetOptions``).  A
        ValueError lists the known names."""
        options = PresetOptions(
            knock_only_after_meld=knock_only_after_meld,
            round_bonus_to_all=round_bonus_to_all,
            hand_size=hand_size,
        )
        return preset_named(GAME_PRESETS, name)(players, options)

    @classmethod
    def from_description(cls, data: dict[str, object]) -> GameSettings:
        """Rebuild settings from ``describe()`` output (a game log's header).

        The description must be exactly what ``describe()`` gives for the settings it
        names: keys, JSON types and values (a ``hand_size`` or ``turn`` that the preset
        does not have is a ValueError, not silently replaced).
        """
        expected = _DESCRIPTION_TYPES
        unknown = sorted(set(data) - set(expected))
        if unknown:
            raise ValueError(f"unknown settings key(s): {', '.join(unknown)}")
        for key, kind in expected.items():
            if key not in data:
                raise ValueError(f"settings need {key!r}")
            value = data[key]
            if type(value) is not kind:  # exact: True is not a player count, "yes" not a bool
                raise ValueError(f"settings {key!r} must be a {kind.__name__}, not {value!r}")
        name, players = str(data["variant"]), int(str(data["players"]))
        settings = cls.named(
            name,
            players,
            knock_only_after_meld=data["knock_only_after_meld"] is True,
            round_bonus_to_all=data["round_bonus_to_all"] is True,
            hand_size=int(str(data["hand_size"])),
        )
        described = settings.describe()
        differing = [key for key in described if described[key] != data[key]]
        if differing:
            problems = ", ".join(
                f"{key} {data[key]!r} (the preset has {described[key]!r})" for key in differing
            )
            raise ValueError(f"settings do not match the {name} preset for {players} players: {problems}")
        return settings

    @property
    def stock_size(self) -> int:
        """Cards left face down after the deal."""
        return self.variant.deck_size - self.players * self.variant.hand_size

    @property
    def plays_to_target(self) -> bool:
        """Whether a game runs over several rounds up to ``variant.target_score``."""
        return self.scoring == "lowest_hand" and self.variant.target_score is not None

    def describe(self) -> dict[str, object]:
        """Plain data for logs and JSON output."""
        return {
            "variant": self.variant.name,
            "players": self.players,
            "turn": self.turn,
            "scoring": self.scoring,
            "draws_per_turn": self.draws_per_turn,
            "hand_size": self.variant.hand_size,
            "knock_only_after_meld": self.variant.knock_only_after_meld,
            "round_bonus_to_all": self.variant.round_bonus_to_all,
        }


@dataclass(frozen=True, slots=True, kw_only=True)
class PresetOptions:
    """The options a preset may take; each preset reads its own and ignores the rest."""

    knock_only_after_meld: bool = False
    """Manipulation Rummy's (``Variant.knock_only_after_meld``)."""
    round_bonus_to_all: bool = False
    """Manipulation Rummy's (``Variant.round_bonus_to_all``)."""
    hand_size: int | None = None
    """Machiavelli's deal (None: the preset's for the player count)."""


GAME_PRESETS: Mapping[VariantName, Callable[[int, PresetOptions], GameSettings]] = {
    "manipulation": lambda players, options: GameSettings.manipulation(
        players,
        knock_only_after_meld=options.knock_only_after_meld,
        round_bonus_to_all=options.round_bonus_to_all,
    ),
    "machiavelli": lambda players, options: GameSettings.machiavelli(players, hand_size=options.hand_size),
    "rummikub": lambda players, _options: GameSettings.rummikub(players),
}
"""Each variant's name and its game preset for a player count and the options, in
``VARIANT_NAMES``'s order: the one table ``GameSettings.named`` reads."""
