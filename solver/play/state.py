"""The game as its human player sees it, as plain data for the page (``game_state``).

Pieces are written as people read them (``solver.cards.piece_face``: ``7♥``, ``★7♥`` with
cards; ``r7``, ``★r7`` with Rummikub's tiles), which the page's parser reads back; beside
them the table and the hand in the notation (``table_text``, ``hand_text``) for a play's
submission.  The table is in the order the page shows it (``solver.shown``).

``bot_turns`` tells the bots' actions since the human's last action (all of them before
the human's first), each play with the steps from the table before it to the table
after it as the hint view writes them (``Plan.lines_of_another``: in notation, "from
their hand"), numbered as the page showed those tables.  What a bot drew is never
told, only how many cards its hand holds.  ``round_end`` is the last round that ended
since then (the human's own last action included), ``result`` the game's when it is over.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from solver.cards import Piece, piece_face
from solver.game.game import RoundRecord
from solver.plan import plan_play
from solver.play.session import Session, Turn
from solver.position import Position, Table

__all__ = ["faces", "game_state", "melds_of", "uses_tiles"]


def uses_tiles(session: Session) -> bool:
    """Whether the game is shown with tiles (Rummikub) rather than cards."""
    return session.setup.settings.variant.name == "rummikub"


def faces(pieces: Iterable[Piece], *, tiles: bool) -> list[str]:
    """Pieces as people read them (``solver.cards.piece_face``)."""
    return [piece_face(piece, tiles=tiles) for piece in pieces]


def melds_of(table: Table, *, tiles: bool) -> list[list[str]]:
    """A table's melds, in its order, each as people read its pieces."""
    return [faces(meld.pieces, tiles=tiles) for meld in table]


def _last_human_action(session: Session) -> int:
    """The entry of the human's last action, or -1 before the first."""
    return max((turn.place for turn in session.turns if turn.seat == session.human), default=-1)


def _bot_turn(session: Session, turn: Turn, tiles: bool) -> dict[str, Any]:
    steps: list[str] = []
    if turn.action.kind == "play":
        before = Position(turn.before, turn.view.hand)
        steps = plan_play(before, turn.after, variant=session.setup.settings.variant).lines_of_another()
    return {
        "seat": turn.seat,
        "name": session.setup.players[turn.seat],
        "round": turn.round_number,
        "kind": turn.action.kind,
        "steps": steps,
        "table": melds_of(turn.after, tiles=tiles),
        "table_text": str(turn.after),
        "cards_after": turn.cards_after,
    }


def _round_end(record: RoundRecord, tiles: bool) -> dict[str, Any]:
    end, score = record.end, record.score
    return {
        "round": record.number,
        "reason": end.reason,
        "knocker": end.knocker,
        "out": end.out,
        "hands": [faces(hand, tiles=tiles) for hand in record.hands],
        "points": list(end.hand_points),
        "scores": list(score.scores),
        "winners": list(score.winners),
        "undercut": list(score.undercut),
        "totals": list(record.totals),
    }


def _result(session: Session) -> dict[str, Any] | None:
    result = session.game.result
    if result is None:
        return None
    return {
        "winners": list(result.winners),
        "totals": list(result.totals),
        "bonuses": list(result.bonuses),
        "final": list(result.final),
        "rounds": len(result.rounds),
    }


def game_state(session: Session) -> dict[str, Any]:
    """The game as the human sees it now (the module docstring; the service adds the ids)."""
    game, view, tiles = session.game, session.view, uses_tiles(session)
    table = session.shown.of(view.table)
    last = _last_human_action(session)
    ended = [e.record for e in session.ended if e.place >= last]
    phase = "over" if session.over else view.phase
    return {
        "variant": session.setup.settings.variant.name,
        "seat": session.human,
        "turn": session.turn,
        "round": game.round.round_number,
        "over": session.over,
        "to_move": None if session.over else game.to_move,
        "phase": phase,
        "can": [] if session.over else list(view.legal_kinds()),
        "opened": view.opened,
        "final_turn": view.final_turn,
        "table": melds_of(table, tiles=tiles),
        "table_text": str(table),
        "hand": faces(view.hand.pieces, tiles=tiles),
        "hand_text": " ".join(str(piece) for piece in view.hand.pieces),
        "hand_points": view.hand_points,
        "drawn": faces(view.drawn, tiles=tiles),
        "players": [
            {"seat": seat, "name": name, "cards": view.hand_sizes[seat], "total": game.totals[seat]}
            for seat, name in enumerate(session.setup.players)
        ],
        "stock": view.stock_size,
        "bot_turns": [_bot_turn(session, turn, tiles) for turn in session.turns if turn.place > last],
        "round_end": _round_end(ended[-1], tiles) if ended else None,
        "result": _result(session),
        "help_used": [{"turn": use.place, "level": use.level} for use in session.helps],
    }
