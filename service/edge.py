"""Request bodies to library values, with errors that name the field at fault.

The library already says precisely what is wrong with a card, a meld or a position;
this module only adds *where* in the request it was (``position``, ``table``,
``after``, ``time_limit``...) and turns the library's ``ValueError``s into
``InputError`` (422).  It parses and validates; it decides nothing about the game.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from typing import Protocol

from service.errors import InputError
from service.schemas import PositionRequest
from service.settings import Settings
from solver.analysis import UnseenError, unseen_counts
from solver.cards import NotationError, Piece
from solver.facts import variant_for
from solver.position import Hand, Position, PositionError, Table
from solver.variants import Variant

__all__ = [
    "cards_of",
    "entered_of",
    "implied_variant_of",
    "position_of",
    "seconds_text",
    "table_of",
    "time_limit_of",
    "unseen_of",
    "variant_of",
    "visible",
]


class NamesVariant(Protocol):
    """A request that names a variant and, optionally, the number of players."""

    @property
    def variant(self) -> str: ...

    @property
    def players(self) -> int | None: ...


def variant_of(body: NamesVariant) -> Variant:
    """The variant the request names, for its player count."""
    try:
        return Variant.named(body.variant, players=body.players)
    except ValueError as error:
        field = "players" if body.players is not None else "variant"
        raise InputError(str(error), kind="variant", field=field) from None


def implied_variant_of(
    body: NamesVariant, position: Position, unseen: Sequence[Piece] = ()
) -> tuple[Variant, bool]:
    """The variant for the request's player count or, without one, for the count the
    position implies (``solver.facts.implied_players``); and whether it was assumed."""
    if body.players is not None:
        return variant_of(body), False
    try:
        return variant_for(body.variant, None, position, unseen)
    except ValueError as error:
        raise InputError(str(error), kind="variant", field="variant") from None


def _notation(error: NotationError, field: str) -> InputError:
    return InputError(f"{field}: {error}", kind="notation", field=field)


def visible(text: str, field: str) -> str:
    """``text`` unless it holds a character that cannot be seen (zero-width space, byte-order
    mark, a control character): the parser would blame the card it sticks to, and the
    person reading the error could not see why."""
    for index, char in enumerate(text):
        if not _unseen(text, index):
            continue
        name = unicodedata.name(char, "a control character")
        raise InputError(
            f"{field}: invisible character U+{ord(char):04X} ({name}) at character {index + 1}; "
            "remove it and send the notation again",
            kind="notation",
            field=field,
        )
    return text


_FILLERS = frozenset("\u115f\u1160\u3164\uffa0\u180b\u180c\u180d\u180e\u180f")
"""Characters that print as nothing though Python calls them printable (the Hangul fillers,
Mongolian variation selectors)."""


def _unseen(text: str, index: int) -> bool:
    """Whether ``text[index]`` cannot be seen where it stands: a control or format character,
    a combining mark (it shows, if at all, on the character before it: U+034F, a variation
    selector) or a filler.  A text or emoji presentation selector after a suit symbol is
    part of how a phone writes ``K♥️``, which the notation reads as ``K♥``."""
    char = text[index]
    if char.isspace():
        return False
    if not char.isprintable() or char in _FILLERS:
        return True
    if unicodedata.category(char) not in ("Mn", "Me"):
        return False
    after_suit = index > 0 and text[index - 1] in "♠♥♦♣♤♡♢♧"
    return not (char in "\ufe0e\ufe0f" and after_suit)


def seconds_text(value: float) -> str:
    """A number of seconds exactly as given: 10.000001 stays 10.000001 (``:g`` would say 10)."""
    text = repr(float(value))
    return text.removesuffix(".0")


def table_of(text: str, field: str, *, keep_order: bool = False) -> Table:
    """Parse a table written in notation (``keep_order``: melds in the order written)."""
    visible(text, field)
    try:
        return Table.parse(text, keep_order=keep_order)
    except NotationError as error:
        raise _notation(error, field) from None


def cards_of(text: str, field: str) -> tuple[Piece, ...]:
    """Parse cards written like a hand (``7h 8h *``); a bad one is named by the field
    (``unseen card 2``)."""
    visible(text, field)
    try:
        return Hand.parse(text, label=f"{field} card").pieces
    except NotationError as error:
        raise _notation(error, field) from None


def position_of(body: PositionRequest, variant: Variant) -> Position:
    """The request's position, parsed and checked against the variant's deck."""
    if body.position is not None:
        if body.table is not None or body.hand is not None:
            raise InputError(
                "give 'position' ('table / hand'), or 'table' and 'hand', not both",
                kind="validation",
                field="position",
            )
        visible(body.position, "position")
        try:
            position = Position.parse(body.position)
        except NotationError as error:
            raise _notation(error, "position") from None
        field = "position"
    elif body.table is None and body.hand is None:
        raise InputError(
            "missing position: give 'position' ('table / hand'), or 'table' and 'hand'",
            kind="validation",
            field="position",
        )
    else:
        position = Position(table_of(body.table or "", "table"), Hand.of(cards_of(body.hand or "", "hand")))
        field = "table" if body.table is not None else "hand"
    try:
        return position.validate(variant)
    except PositionError as error:
        raise InputError(
            f"impossible position for {variant.name}: {error}",
            kind="position",
            field=field,
            problems=error.problems,
        ) from None


def entered_of(body: PositionRequest, position: Position) -> Position:
    """``position`` (already checked by ``position_of``) with its table melds in the order
    the request wrote them: the answer numbers old melds that way ("meld 1" is the first
    meld the user typed), whatever the canonical order the engine works in."""
    if body.position is not None:
        table = table_of(body.position.split("/")[0], "position", keep_order=True)
    else:
        table = table_of(body.table or "", "table", keep_order=True)
    return Position(table, position.hand)


def time_limit_of(requested: float | None, settings: Settings) -> float:
    """The request's time limit, or the server's default; above the server's cap is refused."""
    # The schemas already refuse anything but a finite number above 0.
    if requested is None:
        return settings.default_time_limit
    if requested > settings.max_time_limit:
        raise InputError(
            f"time_limit {seconds_text(requested)} s exceeds this server's cap of "
            f"{seconds_text(settings.max_time_limit)} s",
            kind="limit",
            field="time_limit",
        )
    return requested


def unseen_of(text: str | None, position: Position, variant: Variant) -> tuple[Piece, ...] | None:
    """The request's unseen cards, checked against the deck next to the table and the hand."""
    if text is None:
        return None
    pieces = cards_of(text, "unseen")
    try:
        unseen_counts(position, variant, pieces)
    except UnseenError as error:
        raise InputError(f"unseen: {error}", kind="unseen", field="unseen") from None
    return pieces
