"""How an error line quotes what the user typed: whole when short, else shortened.

A pasted 8,000-character table, or a 5 MB line of a batch file, was echoed whole in
its one-line error (three times over in a batch: the line, and the meld that the
reason names).  ``echoed`` quotes the input; ``named_pieces`` names a meld or hand.
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["ECHO_LIMIT", "NAMED_PIECES", "echoed", "named_pieces"]

ECHO_LIMIT = 100
"""Characters of a bad input echoed in its error line; a longer one is shortened."""

NAMED_PIECES = 16
"""Pieces a reason names one by one (a meld holds at most 14 cards and jokers); a
longer run of them is named by its first few and its length."""


def echoed(text: str) -> str:
    """``text`` as an error line quotes it: whole when short, else its start and end with
    the length between."""
    if len(text) <= ECHO_LIMIT:
        return repr(text)
    return f"{text[:60]!r} ... {text[-30:]!r} ({len(text):,} characters)"


def named_pieces(pieces: Sequence[object]) -> str:
    """The pieces in notation, space-separated; past ``NAMED_PIECES`` the first six and
    the count (``Kh Kh Kh Kh Kh Kh ... (6,000 cards)``)."""
    if len(pieces) <= NAMED_PIECES:
        return " ".join(map(str, pieces))
    return " ".join(map(str, pieces[:6])) + f" ... ({len(pieces):,} cards)"
