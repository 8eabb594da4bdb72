"""A game played on the page as the JSON-lines log of ``rummy replay`` and ``rummy review``, and back.

``export_log`` replays the session's actions on a fresh ``Game`` with the log writer of
``solver.game.log`` listening, so the log is exactly what ``rummy play --log`` writes for
the same game: the header (settings, seed, the players' names), every deal, action,
round and the end; a game left ends with its ``quit`` line.  Help and advice entries are
the page's and have no line in the log.

``import_log`` reads such a log (``read_log``: every line against the strict schema)
and replays it (``replay``: the deals, rounds and end must be what the seed and the
actions produce), so a log that is not valid JSON lines, breaks a rule or was edited
is refused with the line and the problem (``CorruptGame``), and a log that stops early
(a game not finished) is a game that stops there.  The human's seat is the seat named
``you`` or ``human`` (as ``rummy play`` names it), else seat 0.
"""

from __future__ import annotations

import io
from collections.abc import Sequence

from solver.game.actions import action_from_dict
from solver.game.game import Game
from solver.game.log import LogError, LogWriter, read_log, replay
from solver.game.settings import GameSettings
from solver.play.errors import BadSetup, CorruptGame
from solver.play.session import HUMAN, MAX_SEED, Entry, GameSetup, Session

__all__ = ["MAX_NAME_CHARS", "export_log", "import_log", "log_records"]

HUMAN_NAMES = (HUMAN, "human")
"""Names that mark the human's seat in a log (``rummy play`` writes ``human``)."""
MAX_NAME_CHARS = 100
"""The longest player name an imported log may give (a bot's ``module:Class`` fits): each
name is in every state and review of the game, and drawn on the review's plot."""


def export_log(session: Session) -> str:
    """The game so far as a JSON-lines log (one line per record, each ending in a newline)."""
    setup = session.setup
    buffer = io.StringIO()
    writer = LogWriter(buffer, setup.settings, seed=setup.seed, players=setup.players)
    game = Game(setup.settings, seed=setup.seed, listeners=[writer])
    for turn in session.turns:
        ms = session.entries[turn.place][1].get("ms")
        game.apply(turn.action, ms=None if ms is None else float(ms))
    if session.left is not None:
        writer.quit(session.left)
    return buffer.getvalue()


def log_records(session: Session) -> list[dict[str, object]]:
    """The exported log's records, parsed (what ``solver.strategy.review.review`` reads)."""
    return read_log(export_log(session).splitlines())


def _human_seat(players: Sequence[str]) -> int:
    lowered = [name.strip().lower() for name in players]
    return next((seat for seat, name in enumerate(lowered) if name in HUMAN_NAMES), 0)


def import_log(text: str) -> tuple[GameSetup, list[Entry]]:
    """The game a log records: its setup and its entries (module docstring);
    ``CorruptGame`` naming the line and the problem when the log does not replay clean."""
    try:
        records = read_log(text.splitlines())
        if not records:
            raise LogError("the log is empty: a log starts with a 'game' line")
        report = replay(records)
    except LogError as error:
        raise CorruptGame(f"bad log: {error}") from None
    if report.mismatches:
        raise CorruptGame(f"the log does not replay: {report.mismatches[0]}", report.mismatches)
    header = records[0]
    described, seed, names = header["settings"], header["seed"], header["players"]
    assert isinstance(described, dict) and isinstance(seed, int) and isinstance(names, list)  # replay checked
    if not 0 <= seed <= MAX_SEED:
        raise CorruptGame(f"bad log: line 1: seed {seed} is out of range (0 to 2^53-1)")
    players = tuple(str(name) for name in names)
    for seat, name in enumerate(players):
        if len(name) > MAX_NAME_CHARS:
            too_long = f"the name of seat {seat} has {len(name)} characters (at most {MAX_NAME_CHARS})"
            raise CorruptGame(f"bad log: line 1: {too_long}")
    try:
        setup = GameSetup(GameSettings.from_description(described), seed, players, _human_seat(players))
    except BadSetup as error:
        raise CorruptGame(f"bad log: line 1: {error}") from None
    entries: list[Entry] = []
    for record in records[1:]:
        if record["type"] == "action":
            action = record["action"]
            assert isinstance(action, dict)
            entries.append(
                (
                    "action",
                    {
                        "seat": record["seat"],
                        "action": action_from_dict(action).to_dict(),
                        "ms": record["ms"],
                    },
                )
            )
        elif record["type"] == "quit":
            entries.append(("quit", {"seat": record["seat"]}))
    return setup, entries
