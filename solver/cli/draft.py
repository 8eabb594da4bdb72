"""The table a player is building at the prompt of ``rummy play``, one edit at a time.

A play in the game is one action (the whole new table), but a person builds it in
pieces: type the whole table, add a meld (``+ Qs Qh Qd``), lay off cards on a meld
(``3 + 8d``: add 8d to meld 3).  ``Draft`` holds the edits of one decision in the
player's own meld order, which is the order of the table shown (``solver.shown``):
``N + CARDS`` counts melds as shown and changes a meld in its place, ``+ MELD`` adds a
meld after the others, and a whole table typed keeps the order typed, so the numbers on
the screen stay put while editing.  It takes back the last edit on ``undo`` and gives
the table to play.

An edit that puts on the table a card the player does not hold is refused at once
(``NotHeldError``, naming those cards): no later edit could make it a legal play.
Whether the table is a legal play is otherwise the referee's question.  A meld that
lay-offs make illegal keeps the order the player saw and typed (``6♠ 6♥ 6♦ 5♣``, not
re-sorted), so the player recognises it; a legal one is shown in canonical order.  The
draft says what it did with suit symbols, as the screen shows cards.
"""

from __future__ import annotations

import re
from collections import Counter

from solver.cards import Card, Joker, Piece, parse_piece
from solver.melds import Meld
from solver.position import Hand, Table

__all__ = ["Draft", "NotHeldError"]

_LAY_OFF = re.compile(r"^\s*(\d+)\s*\+\s*(.*)$")


class NotHeldError(ValueError):
    """An edit puts on the table cards the player does not hold (``missing``), beyond the
    ones already there; the message names them."""

    def __init__(self, missing: list[Piece], *, on_table: bool) -> None:
        names = " ".join(piece.pretty for piece in missing)
        verb = "is" if len(missing) == 1 else "are"
        message = f"{names} {verb} not in your hand"
        if on_table:
            message += " (a card on the table moves only in a whole new table: type it)"
        super().__init__(message)
        self.missing = missing


class Draft:
    """Edits to the table, undoable one by one (see the module docstring).

    ``table`` is the table as shown to the player (its melds in the screen's order) and
    ``hand`` the player's hand, which every edit is checked against."""

    def __init__(self, table: Table, hand: Hand) -> None:
        self.melds: list[Meld] = list(table.melds)
        self.start = Table(tuple(table.melds))
        """The table the edits start from, as shown."""
        self._history: list[list[Meld]] = []
        self._supply = Counter(table.pieces) + Counter(hand.pieces)
        self._jokers = sum(isinstance(piece, Joker) for piece in (*table.pieces, *hand.pieces))

    @property
    def changed(self) -> bool:
        """Whether the table differs from the one the edits started from (edits undone,
        or a whole table typed as it was, leave it unchanged: no play in it yet)."""
        return Table.of(self.melds) != Table.of(self.start.melds)

    def table(self) -> Table:
        """The table as a play: its melds in canonical order (a legal play is then the
        canonical table the game records)."""
        return Table.of(self.melds)

    def shown(self) -> Table:
        """The table in the player's order, numbered as the player refers to it."""
        return Table(tuple(self.melds))

    def edit(self, command: str) -> str:
        """Apply one edit and say what it did; ValueError (nothing changed) for bad input.

        ``+ MELD`` adds a meld, ``N + CARDS`` adds cards to meld N, anything else is
        the whole new table (``play TABLE`` too).
        """
        lay_off = _LAY_OFF.match(command)
        if lay_off:
            number, cards = int(lay_off.group(1)), lay_off.group(2)
            if not self.melds:
                raise ValueError("the table is empty: start a meld with + MELD")
            if not 1 <= number <= len(self.melds):
                raise ValueError(f"there is no meld {number}: the table has melds 1-{len(self.melds)}")
            added = _pieces(cards)
            melds = list(self.melds)
            melds[number - 1] = _laid_off(melds[number - 1], added)
            self._push(melds, adding=True)
            return f"added {_text(added)} to meld {number}: {melds[number - 1].pretty}"
        if command.lstrip().startswith("+"):
            meld = Meld.parse(command.lstrip()[1:], where="the new meld")
            self._push([*self.melds, meld], adding=True)
            return f"new meld {len(self.melds)}: {meld.pretty}"
        text = command.strip()
        if text.lower().startswith("play "):
            text = text[5:]
        table = Table.parse(text, keep_order=True)
        self._push(list(table.melds), adding=False)
        return "the table as typed"

    def undo(self) -> bool:
        """Take back the last edit; False when there is none."""
        if not self._history:
            return False
        self.melds = self._history.pop()
        return True

    def _push(self, melds: list[Meld], *, adding: bool) -> None:
        """Make ``melds`` the draft, unless they need cards the player does not hold
        (``adding``: the edit only adds cards, so a table card in it is a copy too many)."""
        self._check_held(melds, adding=adding)
        self._history.append(self.melds)
        self.melds = melds

    def _check_held(self, melds: list[Meld], *, adding: bool) -> None:
        """NotHeldError naming the pieces ``melds`` hold beyond the table and the hand:
        real cards by count (two decks hold two of each), jokers by number (a joker's
        declaration may change, so any joker of the table or the hand may stand anywhere)."""
        pieces = [piece for meld in melds for piece in meld.pieces]
        cards = Counter(piece for piece in pieces if isinstance(piece, Card))
        missing: list[Piece] = []
        for card, count in cards.items():
            missing.extend([card] * (count - self._supply[card]))
        jokers = [piece for piece in pieces if isinstance(piece, Joker)]
        missing.extend(jokers[self._jokers :])
        if missing:
            on_table = adding and any(piece in self.start.pieces for piece in missing)
            raise NotHeldError(list(Hand.of(missing).pieces), on_table=on_table)


def _pieces(text: str) -> tuple[Piece, ...]:
    tokens = text.split()
    if not tokens:
        raise ValueError("give the cards to add, e.g. 3 + 8d")
    pieces = []
    for token in tokens:
        try:
            pieces.append(parse_piece(token))
        except ValueError as error:
            raise ValueError(f"bad card {token!r}: {error}") from None
    return tuple(pieces)


def _laid_off(meld: Meld, added: tuple[Piece, ...]) -> Meld:
    """``meld`` with ``added``: in canonical order when that makes a meld, else as the
    player saw the meld and typed the cards (re-sorted, it would not look like either)."""
    pieces = (*meld.pieces, *added)
    legal = Meld.of(pieces)
    return legal if legal.kind() is not None else Meld(pieces)


def _text(pieces: tuple[Piece, ...]) -> str:
    return " ".join(piece.pretty for piece in pieces)
