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

Presets beyond a variant's standard rules (``preset``): ``rummikub-peer`` is the game of
the published Rummikub bot iky1025/aid_rummikub, so that our strength figures read beside
its own: 2 players, no jokers, a 30-point opening from the rack, the first to empty the
rack wins, and a turn limit of 100 turns a player (``turn_limit`` 200 turns in all) at
which the game ends with no winner; an empty stock never ends it (``blocked_ends`` off:
a draw from it is a pass, and play goes on to the limit).  README, "The peer's game",
says where it matches theirs and where it differs.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Literal

from solver.variants import PEER_VARIANT, VARIANT_NAMES, Variant, preset_named

__all__ = ["GAME_PRESETS", "GameSettings", "PresetOptions", "ScoringStyle", "TurnStyle"]

PEER_PRESET = PEER_VARIANT
"""The preset of the published peer's game (module docstring)."""

PEER_TURN_LIMIT = 200
"""Turns in all (100 a player) after which the peer's game ends without a winner."""

PRESET_NAMES: tuple[str, ...] = (*VARIANT_NAMES, PEER_PRESET)
"""Every name ``GameSettings.named`` knows: the variants, then the presets beyond them."""

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

_PRESET_KEY = "preset"
"""The key ``describe()`` adds for a preset beyond the variant's standard rules (only then,
so the description of a standard game, and every log of one, is as it always was)."""

TurnStyle = Literal["draw_first", "meld_or_draw"]
ScoringStyle = Literal["lowest_hand", "first_out"]

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
    turn_limit: int | None = None
    """Turns in all (every player's counted) after which a round still running ends as
    ``limit``: no winner in a first-out game.  None: no limit."""
    blocked_ends: bool = True
    """Whether a ``meld_or_draw`` round ends as ``blocked`` when every player in a row
    found the stock empty without a play; off, play goes on (to the turn limit)."""
    preset: str | None = None
    """The preset's name when it is not the variant's standard one (``rummikub-peer``)."""

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
        if self.turn_limit is not None and self.turn_limit < 1:
            raise ValueError(f"a turn limit must be at least 1, not {self.turn_limit}")
        if not self.blocked_ends and self.turn_limit is None:
            raise ValueError("a game that a blocked stock does not end needs a turn limit")

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
        """Machiavelli for 2-8 players (``Variant.machiavelli`` checks the count): 15 cards
        each, 10 with more than 5 players."""
        size = hand_size if hand_size is not None else (15 if players <= 5 else MACHIAVELLI_LARGE_TABLE_HAND)
        variant = Variant.machiavelli(players=players, hand_size=size)
        return cls(variant=variant, players=players, turn="meld_or_draw", scoring="first_out")

    @classmethod
    def rummikub(cls, players: int = 2) -> GameSettings:
        """Rummikub for 2-4 players: 14 tiles each, a 30-point opening from the rack."""
        variant = Variant.rummikub(players=players)
        return cls(variant=variant, players=players, turn="meld_or_draw", scoring="first_out")

    @classmethod
    def rummikub_peer(cls) -> GameSettings:
        """The published peer's game (module docstring): 2-player Rummikub without jokers,
        first out wins, 100 turns a player at most, an empty stock ends nothing."""
        variant = Variant.named(PEER_PRESET, players=2)
        return cls(
            variant=variant,
            players=2,
            turn="meld_or_draw",
            scoring="first_out",
            turn_limit=PEER_TURN_LIMIT,
            blocked_ends=False,
            preset=PEER_PRESET,
        )

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
        data = {key: value for key, value in data.items() if not (key == _PRESET_KEY and value is None)}
        expected = _DESCRIPTION_TYPES
        unknown = sorted(set(data) - set(expected) - {_PRESET_KEY})
        if unknown:
            raise ValueError(f"unknown settings key(s): {', '.join(unknown)}")
        for key, kind in expected.items():
            if key not in data:
                raise ValueError(f"settings need {key!r}")
            value = data[key]
            if type(value) is not kind:  # exact: True is not a player count, "yes" not a bool
                raise ValueError(f"settings {key!r} must be a {kind.__name__}, not {value!r}")
        preset = data.get(_PRESET_KEY)
        if preset is not None and not isinstance(preset, str):
            raise ValueError(f"settings {_PRESET_KEY!r} must be a str, not {preset!r}")
        name, players = str(data["variant"]), int(str(data["players"]))
        if preset is not None:
            settings = cls.named(preset, players)
        else:
            settings = cls.named(
                name,
                players,
                knock_only_after_meld=data["knock_only_after_meld"] is True,
                round_bonus_to_all=data["round_bonus_to_all"] is True,
                hand_size=int(str(data["hand_size"])),
            )
        described = settings.describe()
        keys = [*described, *(key for key in data if key not in described)]
        differing = [key for key in keys if described.get(key) != data.get(key)]
        if differing:
            problems = ", ".join(
                f"{key} {data.get(key)!r} (the preset has {described.get(key)!r})" for key in differing
            )
            raise ValueError(
                f"settings do not match the {preset or name} preset for {players} players: {problems}"
            )
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
            **({_PRESET_KEY: self.preset} if self.preset is not None else {}),
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


def _peer_game(players: int) -> GameSettings:
    """The peer's game, which two play."""
    if players != 2:
        raise ValueError(f"the {PEER_PRESET} game is played by 2 players, not {players}")
    return GameSettings.rummikub_peer()


GAME_PRESETS: Mapping[str, Callable[[int, PresetOptions], GameSettings]] = {
    "manipulation": lambda players, options: GameSettings.manipulation(
        players,
        knock_only_after_meld=options.knock_only_after_meld,
        round_bonus_to_all=options.round_bonus_to_all,
    ),
    "machiavelli": lambda players, options: GameSettings.machiavelli(players, hand_size=options.hand_size),
    "rummikub": lambda players, _options: GameSettings.rummikub(players),
    PEER_PRESET: lambda players, _options: _peer_game(players),
}
"""Each variant's name and its game preset for a player count and the options, in
``VARIANT_NAMES``'s order, then the peer's game: the one table ``GameSettings.named``
reads (its keys are ``PRESET_NAMES``)."""
