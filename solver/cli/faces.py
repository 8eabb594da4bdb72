"""How the ``rummy`` command shows pieces and words for the game being played.

Rummikub is played with tiles numbered 1-13 in four colours and a rack, the card games
with cards of four suits and a hand.  The notation does not change (``7h`` is typed and
accepted in every game, and ``--json`` keeps it, so scripts and logs stay stable); only
what a person reads does, as on the web page (``service/static/terms.js``):

- a tile is its colour's letter and its number: ``k13`` black 13, ``r1`` red 1, ``b12``
  blue 12, ``o7`` orange 7, coloured in a terminal that shows colour.  The notation's suit
  letters are the colours (``s`` black, ``h`` red, ``d`` blue, ``c`` orange), ranks are
  numbers (A 1, J 11, Q 12, K 13).  A joker is ``★``, on the table ``★b12`` (the tile it
  stands for);
- "card" reads "tile", "hand" "rack" and "suit" "colour".

``FacesConsole`` is the rich console the commands print through.  With tile faces it
rewrites every text it prints (strings, rich ``Text``, tables and rules) before layout:
card names, whether in the library's pretty form (``Q♥``, ``★Q♥``, ``★``) or in notation
(``Qh``, ``*Qh``, ``*``), become tiles, and the words become the game's.  With card faces
it prints exactly what it is given.  ``Verbatim`` marks what must stay notation (a
position to paste back into a command).  Which faces a command uses is chosen by its
variant (``faces_for``); whether a variant knocks at all is the variant's own
``knock_threshold``, which the commands ask before they mention knocking.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from rich.console import Console
from rich.style import Style
from rich.table import Table as RichTable
from rich.text import Span, Text

from solver.cards import TILE_LETTERS, Card, Joker, Piece, Rank, Suit, piece_face, tile_text
from solver.variants import Variant

__all__ = ["CARDS", "TILES", "Faces", "FacesConsole", "Verbatim", "faces_for"]

_COLOUR_NAMES: dict[Suit, tuple[str, str]] = {
    Suit.SPADES: ("black", "bold"),
    Suit.HEARTS: ("red", "bold red"),
    Suit.DIAMONDS: ("blue", "bold bright_blue"),
    Suit.CLUBS: ("orange", "bold dark_orange"),
}
TILE_COLOURS: dict[Suit, tuple[str, str, str]] = {
    suit: (TILE_LETTERS[suit], *named) for suit, named in _COLOUR_NAMES.items()
}
"""Per suit letter of the notation: the tile's colour letter (``solver.cards.TILE_LETTERS``,
what is typed too), its name and its terminal style (black shows in the terminal's own
text colour, which every background can read)."""

JOKER_STYLE = "bold magenta"

_RANK = r"(?:10|[2-9AJQK])"
_TOKEN = re.compile(
    rf"(?P<pretty>(?P<pstar>★)?(?P<prank>{_RANK})(?P<psuit>[♠♥♦♣]))"
    rf"|(?<![\w.*])(?P<note>(?P<nstar>\*)?(?P<nrank>{_RANK})(?P<nsuit>[shdc]))(?!\w)"
    r"|(?P<star>★|(?<!\S)\*(?=[\s,;:.)]|$))"
)
"""A card name inside a text: pretty (``Q♥``, ``★Q♥``), notation (``Qh``, ``*Qh``, on
word boundaries), or a joker alone (``★``, or ``*`` standing as a word, a comma or stop
after it as in ``play 8h *, then knock``)."""

_WORDS = (
    (re.compile(r"card"), "tile"),
    (re.compile(r"Card"), "Tile"),
    (re.compile(r"CARD"), "TILE"),
    (re.compile(r"\bhand(s?)\b"), r"rack\1"),
    (re.compile(r"\bHand(s?)\b"), r"Rack\1"),
    (re.compile(r"\bsuit(s?)\b"), r"colour\1"),
)
"""The card games' words and Rummikub's, as the page's ``term()`` says them (plus rack)."""


def _card(rank_text: str, suit_text: str) -> Card:
    return Card(Rank.parse(rank_text), Suit.parse(suit_text))


def tile_name(card: Card) -> str:
    """A tile as printed: colour letter and number, e.g. ``b12`` for ``Qd`` (``solver.cards.tile_text``)."""
    return tile_text(card)


def tile_words(card: Card) -> str:
    """A tile in words, e.g. ``blue 12`` for ``Qd`` (as the page's tooltips say it)."""
    return f"{TILE_COLOURS[card.suit][1]} {int(card.rank)}"


class Verbatim:
    """A text printed as it is, also with tile faces (notation meant to be pasted back, or
    a text already said in the game's words)."""

    def __init__(self, text: str | Text) -> None:
        self.text = text

    def __rich__(self) -> Text:
        return Text(self.text) if isinstance(self.text, str) else self.text


@dataclass(frozen=True)
class Faces:
    """Card faces (``tiles`` False: the library's pretty cards, output unchanged) or tile
    faces (Rummikub); ``knocks`` says whether the game has knocking at all."""

    tiles: bool = False
    knocks: bool = True

    def piece(self, piece: Piece) -> str:
        """One piece as a person reads it: ``Q♥`` / ``★Q♥``, or ``r12`` / ``★r12``
        (``solver.cards.piece_face``)."""
        return piece_face(piece, tiles=self.tiles)

    def styled(self, piece: Piece) -> Text:
        """One piece with its colour (cards: red suits red; tiles: their colour)."""
        card = piece if isinstance(piece, Card) else piece.declared
        if isinstance(piece, Joker):
            style = JOKER_STYLE
        elif not self.tiles:
            style = "red" if card is not None and card.suit.is_red else ""
        else:
            style = TILE_COLOURS[piece.suit][2]
        return Text(self.piece(piece), style=style)

    def words(self, text: str) -> str:
        """The game's words in ``text`` (card -> tile, hand -> rack, suit -> colour)."""
        if not self.tiles:
            return text
        for pattern, replacement in _WORDS:
            text = pattern.sub(replacement, text)
        return text

    def text(self, text: str | Text) -> Text:
        """A text as this game says it: with tile faces, card names become styled tiles
        and the words the game's; the styles already in ``text`` stay on their parts."""
        rich = Text(text) if isinstance(text, str) else text
        if not self.tiles:
            return rich
        cuts = sorted({edge for span in rich.spans for edge in (span.start, span.end)} - {0, len(rich)})
        result = Text(style=rich.style, end=rich.end, justify=rich.justify)
        for part in rich.divide(cuts):
            # Each part has one style across its whole length; rewrite its words alone.
            styles = [span.style for span in part.spans if span.start == 0 and span.end >= len(part)]
            result.append_text(self._rewrite(part.plain, styles))
        return result

    def _rewrite(self, plain: str, styles: list[str | Style]) -> Text:
        result = Text()
        last = 0
        for match in _TOKEN.finditer(plain):
            result.append(self.words(plain[last : match.start()]))
            result.append_text(self._token(match))
            last = match.end()
        result.append(self.words(plain[last:]))
        # The part's own styles go under the tiles' colours (later spans win in rich).
        result.spans[:0] = [Span(0, len(result), style) for style in styles]
        return result

    def _token(self, match: re.Match[str]) -> Text:
        if match.group("star"):
            return self.styled(Joker())
        if match.group("pretty"):
            card = _card(match.group("prank"), match.group("psuit"))
            return self.styled(Joker(card) if match.group("pstar") else card)
        card = _card(match.group("nrank"), match.group("nsuit"))
        return self.styled(Joker(card) if match.group("nstar") else card)

    def pieces(self, text: str) -> Text:
        """A text the library wrote with pieces in notation (``play 10h Jh, then knock``)
        with each piece as this game shows it, styled: ``10♥ J♥`` (cards, red suits red) or
        ``r10 r11`` (tiles); its words stay as they are.  The one way of writing pieces of
        every command's human output (``--json`` keeps the notation)."""
        result = Text()
        last = 0
        for match in _TOKEN.finditer(text):
            result.append(text[last : match.start()])
            result.append_text(self._token(match))
            last = match.end()
        result.append(text[last:])
        return result

    def table(self, table: RichTable) -> RichTable:
        """A rich table with its title, headers and cells said as this game says them."""
        if not self.tiles:
            return table
        if isinstance(table.title, str | Text):
            table.title = self.text(table.title)
        for column in table.columns:
            if isinstance(column.header, str | Text):
                column.header = self.text(column.header)
            column._cells = [self.renderable(cell) for cell in column._cells]
        return table

    def renderable(self, thing: Any) -> Any:
        """Anything a console prints, rewritten when it is text or a table."""
        if not self.tiles or isinstance(thing, Verbatim):
            return thing
        if isinstance(thing, str | Text):
            return self.text(thing)
        if isinstance(thing, RichTable):
            return self.table(thing)
        return thing


CARDS = Faces()
TILES = Faces(tiles=True, knocks=False)


def faces_for(variant: Variant) -> Faces:
    """The faces of a variant: tiles for Rummikub (a game of tiles), cards otherwise;
    knocking only where the variant has it."""
    knocks = variant.knock_threshold is not None
    return Faces(tiles=variant.name == "rummikub", knocks=knocks)


class FacesConsole(Console):
    """A rich console that says everything it prints with its ``faces`` (see the module
    docstring).  Markup in plain strings is read first, as ``Console.print`` would."""

    def __init__(self, *args: Any, faces: Faces = CARDS, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.faces = faces

    def print(self, *objects: Any, **kwargs: Any) -> None:
        if self.faces.tiles:
            objects = tuple(self._said(thing, kwargs.get("markup")) for thing in objects)
        super().print(*objects, **kwargs)

    def _said(self, thing: Any, markup: bool | None) -> Any:
        if isinstance(thing, str):
            thing = self.render_str(thing, markup=markup)  # markup first, as print would read it
        return self.faces.renderable(thing)

    def rule(self, title: str | Text = "", *args: Any, **kwargs: Any) -> None:
        if self.faces.tiles and title:
            title = self.faces.text(title)
        super().rule(title, *args, **kwargs)
