"""Rule variants as one settings object.

Everything that differs between Manipulation Rummy, Machiavelli and Rummikub lives
here: the deck, whether an ace may sit high in a sequence, the hand size, the
opening rule, the points table, knocking and the target score.  The rule code reads
a ``Variant``; it never tests a variant's name.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Literal, Protocol, TypeVar

from solver.cards import ACE_HIGH_POSITION, CARD_KINDS, KING_POSITION, Card, Joker, Piece, Rank

__all__ = [
    "MACHIAVELLI_MAX_PLAYERS",
    "PEER_VARIANT",
    "PRESETS",
    "RULE_PRESETS",
    "VARIANT_NAMES",
    "Preset",
    "Variant",
    "VariantName",
    "as_variant",
    "preset_named",
]

VariantName = Literal["manipulation", "machiavelli", "rummikub"]
VARIANT_NAMES: tuple[VariantName, ...] = ("manipulation", "machiavelli", "rummikub")


MACHIAVELLI_MAX_PLAYERS = 8
"""The most players of a Machiavelli game here: two decks (104 cards) deal 8 hands of 10."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Variant:
    """The rules of one game.  Build it with a preset: ``Variant.manipulation()``."""

    name: VariantName
    decks: int
    """Copies of each of the 52 cards."""
    jokers: int
    ace_high: bool
    """Whether an ace may end a sequence high (Q-K-A, and A-2-...-K-A)."""
    hand_size: int
    opening_points: int
    """Points a player's first meld must reach from the hand alone (0: no opening rule)."""
    joker_points: int
    face_points: int
    """Points of J, Q, K left in a hand (Rummikub counts tiles 11-13 at face value)."""
    ace_points: int
    knock_threshold: int | None
    """A hand worth this many points or fewer may knock; None: no knocking."""
    target_score: int | None
    knock_only_after_meld: bool = False
    round_bonus_to_all: bool = False
    players: int | None = None

    @classmethod
    def manipulation(
        cls,
        *,
        players: int | None = None,
        knock_only_after_meld: bool = False,
        round_bonus_to_all: bool = False,
    ) -> Variant:
        """Manipulation Rummy.  Two players use one deck and one joker; 3-5 players (and
        the hint engine, when no player count is given) use two decks and two jokers."""
        if players is not None and not 2 <= players <= 5:
            raise ValueError(f"Manipulation Rummy is for 2-5 players, not {players}")
        one_deck = players == 2
        return cls(
            name="manipulation",
            decks=1 if one_deck else 2,
            jokers=1 if one_deck else 2,
            ace_high=True,
            hand_size=10,
            opening_points=0,
            joker_points=25,
            face_points=10,
            ace_points=1,
            knock_threshold=5,
            target_score=150,
            knock_only_after_meld=knock_only_after_meld,
            round_bonus_to_all=round_bonus_to_all,
            players=players,
        )

    @classmethod
    def machiavelli(cls, *, players: int | None = None, hand_size: int = 15) -> Variant:
        """Machiavelli: two decks, no jokers, 15 cards each, first to empty the hand wins."""
        if players is not None and not 2 <= players <= MACHIAVELLI_MAX_PLAYERS:
            raise ValueError(
                f"Machiavelli is played here by 2-{MACHIAVELLI_MAX_PLAYERS} players, not {players}"
            )
        if not 3 <= hand_size <= 15:
            raise ValueError(f"a Machiavelli hand holds 3-15 cards, not {hand_size}")
        return cls(
            name="machiavelli",
            decks=2,
            jokers=0,
            ace_high=True,
            hand_size=hand_size,
            opening_points=0,
            joker_points=0,
            face_points=10,
            ace_points=1,
            knock_threshold=None,
            target_score=None,
            players=players,
        )

    @classmethod
    def rummikub(cls, *, players: int | None = None) -> Variant:
        """Rummikub with tiles written as cards (1 = A, 11-13 = J Q K): no ace-high,
        a 30-point opening from the rack, joker worth 30 in a rack."""
        if players is not None and not 2 <= players <= 4:
            raise ValueError(f"Rummikub is for 2-4 players, not {players}")
        return cls(
            name="rummikub",
            decks=2,
            jokers=2,
            ace_high=False,
            hand_size=14,
            opening_points=30,
            joker_points=30,
            face_points=0,
            ace_points=1,
            knock_threshold=None,
            target_score=None,
            players=players,
        )

    @classmethod
    def named(cls, name: str, *, players: int | None = None) -> Variant:
        """The preset called ``name`` (``RULE_PRESETS``: a variant, or the peer's
        Rummikub; any case and spacing); a ValueError lists the known names."""
        return preset_named(RULE_PRESETS, name)(players=players)

    @property
    def preset(self) -> str:
        """The name that ``Variant.named`` reads back into these rules' deck and scoring:
        ``rummikub-peer`` for the peer's Rummikub without jokers, else the variant's name
        (a puzzle file or a log names its rules by it)."""
        peer = self.name == "rummikub" and not self.jokers and self == _rummikub_peer(players=2)
        return PEER_VARIANT if peer else self.name

    @classmethod
    def from_description(cls, described: dict[str, object]) -> Variant:
        """The variant ``describe()`` wrote (its inverse): every rule field is read back,
        ``deck_size`` checked against the decks and jokers.  A ValueError names a field that
        is missing, unknown or of the wrong type."""
        fields = {field.name: field for field in dataclasses.fields(cls)}
        given = dict(described)
        deck_size = given.pop("deck_size", None)
        unknown = sorted(set(given) - set(fields))
        if unknown:
            raise ValueError(f"unknown variant field(s): {', '.join(unknown)}")
        missing = sorted(name for name, field in fields.items() if name not in given and _required(field))
        if missing:
            raise ValueError(f"a variant description needs {', '.join(missing)}")
        for name, value in given.items():
            if not _fits(fields[name].type, value):
                raise ValueError(f"variant field {name}: {value!r} is not {fields[name].type}")
        if given["name"] not in VARIANT_NAMES:
            raise ValueError(f"unknown variant {given['name']!r}; choose one of {', '.join(VARIANT_NAMES)}")
        made = cls(**given)  # type: ignore[arg-type]
        if deck_size is not None and deck_size != made.deck_size:
            raise ValueError(
                f"deck_size {deck_size!r} is not {made.deck_size} ({made.decks} decks, {made.jokers} jokers)"
            )
        return made

    def with_options(self, **changes: object) -> Variant:
        """A copy with some fields changed, e.g. ``with_options(knock_only_after_meld=True)``."""
        return replace(self, **changes)  # type: ignore[arg-type]

    @property
    def draw_ends_turn(self) -> bool:
        """Whether a turn is a meld *or* a draw (Machiavelli, Rummikub: the draw ends the
        turn, so a card drawn is played at the player's next turn at the earliest) rather
        than a draw, then a meld or another draw (Manipulation Rummy; RULES.md).  The game
        settings' ``turn`` follows it (tests/test_variants.py)."""
        return self.name != "manipulation"

    @property
    def deck_size(self) -> int:
        return CARD_KINDS * self.decks + self.jokers

    @property
    def max_position(self) -> int:
        """Highest sequence position: 14 (ace high) or 13."""
        return ACE_HIGH_POSITION if self.ace_high else KING_POSITION

    def card_points(self, card: Card) -> int:
        """Points a real card counts when left in a hand."""
        if card.rank == Rank.ACE:
            return self.ace_points
        if card.rank >= Rank.JACK and self.face_points:
            return self.face_points
        return int(card.rank)

    def piece_points(self, piece: Piece) -> int:
        """Points a card or a joker counts when left in a hand."""
        return self.joker_points if isinstance(piece, Joker) else self.card_points(piece)

    def may_knock(self, hand_points: int, *, melded: bool) -> bool:
        """Whether a hand worth ``hand_points`` may knock: at or under the threshold, and
        with ``knock_only_after_meld`` only in a turn with a meld (RULES.md)."""
        threshold = self.knock_threshold
        if threshold is None or hand_points > threshold:
            return False
        return melded or not self.knock_only_after_meld

    def tile_value(self, card: Card) -> int:
        """Value of a card (or a joker declared as it) toward an opening meld: its face value."""
        return int(card.rank)

    def describe(self) -> dict[str, object]:
        """Plain data for JSON output and the variants endpoint: every rule field (and the
        deck's size); ``from_description`` reads it back."""
        return {
            "name": self.name,
            "decks": self.decks,
            "jokers": self.jokers,
            "deck_size": self.deck_size,
            "ace_high": self.ace_high,
            "hand_size": self.hand_size,
            "opening_points": self.opening_points,
            "joker_points": self.joker_points,
            "face_points": self.face_points,
            "ace_points": self.ace_points,
            "knock_threshold": self.knock_threshold,
            "target_score": self.target_score,
            "knock_only_after_meld": self.knock_only_after_meld,
            "round_bonus_to_all": self.round_bonus_to_all,
            "players": self.players,
        }


class Preset(Protocol):
    """A variant's preset constructor: ``Variant.manipulation`` and the others."""

    def __call__(self, *, players: int | None = None) -> Variant: ...


PRESETS: Mapping[VariantName, Preset] = {
    "manipulation": Variant.manipulation,
    "machiavelli": Variant.machiavelli,
    "rummikub": Variant.rummikub,
}
"""Each variant's name and its preset, in ``VARIANT_NAMES``'s order."""

PEER_VARIANT = "rummikub-peer"
"""The published peer's Rummikub: two players, no jokers (``GameSettings.rummikub_peer``
adds its turn limit and first-out ending)."""


def _rummikub_peer(*, players: int | None = None) -> Variant:
    """The peer's deck and rules: Rummikub without its two jokers, for two players."""
    if players not in (None, 2):
        raise ValueError(f"the {PEER_VARIANT} game is played by 2 players, not {players}")
    return replace(Variant.rummikub(players=2), jokers=0)


RULE_PRESETS: Mapping[str, Preset] = {
    **{name: preset for name, preset in PRESETS.items()},
    PEER_VARIANT: _rummikub_peer,
}
"""The variants' presets, then the peer's Rummikub: the one table ``Variant.named`` reads."""

_T = TypeVar("_T")
_Name = TypeVar("_Name", bound=str)


def preset_named(presets: Mapping[_Name, _T], name: str) -> _T:
    """The entry of a table of presets for ``name`` in any case and spacing; a ValueError
    names the unknown name and lists the known ones (the table's keys)."""
    for known, preset in presets.items():
        if known == name.strip().lower():
            return preset
    raise ValueError(f"unknown variant {name!r}; choose one of {', '.join(presets)}")


def _required(field: dataclasses.Field[object]) -> bool:
    return field.default is dataclasses.MISSING and field.default_factory is dataclasses.MISSING


def _fits(annotation: object, value: object) -> bool:
    """Whether ``value`` is of a field's type as written in this module (``int``, ``bool``,
    ``str``, ``int | None``): JSON's own types, a bool never taken for an int."""
    text = str(annotation)
    if value is None:
        return "None" in text
    if isinstance(value, bool):
        return text.startswith("bool")
    if isinstance(value, int):
        return text.startswith("int")
    if isinstance(value, str):
        return text.startswith("str") or text.startswith("VariantName") or "Literal" in text
    return False


def as_variant(value: Variant | str | None) -> Variant:
    """A Variant as given, the preset of that name (``'rummikub'``), or Manipulation Rummy
    for None: library calls accept each.  A TypeError says what to pass otherwise."""
    if value is None:
        return Variant.manipulation()
    if isinstance(value, Variant):
        return value
    if isinstance(value, str):
        return Variant.named(value)
    raise TypeError(
        f"expected a Variant or one of the names {', '.join(VARIANT_NAMES)}, not {type(value).__name__}"
    )
