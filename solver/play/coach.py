"""The coach of a game played on the page: advice for the human's decision, the review at the end.

``give_advice`` weighs the options of the human's decision with ``solver.strategy.advise``
from the game's own facts (the other hands' sizes, the stock, the scores, the draws
left, whether the player has opened), seeded by a one-way hash of the game's seed and
turn (``advice_seed``: the answer names its seed, and the game's must stay hidden until
the end), so its answer is the ``/v1/advise`` payload for the same position, facts and
seed.  Asking is an entry of the game.  At a knock decision it weighs knock against pass
(``advise(decision="knock")``).

``review_game`` reviews the human seat's decisions once the game is over, exactly as
``rummy review --seat N`` reviews the exported log (``solver.strategy.review``, seed 0),
with the plot as an SVG (``review_svg``; null without matplotlib) and the clear mistakes
as puzzles to retry (``solver.strategy.mistakes``, the records of ``rummy review --puzzles``).
"""

from __future__ import annotations

import hashlib
from typing import Any

from solver.play.errors import NotOver
from solver.play.logs import log_records
from solver.play.session import MAX_SEED, Entry, Session
from solver.strategy.advice import DEFAULT_BUDGET, DEFAULT_SAMPLES, advise
from solver.strategy.mistakes import mistake_puzzles
from solver.strategy.review import DEFAULT_SAMPLES as REVIEW_SAMPLES
from solver.strategy.review import Decision, review
from solver.strategy.review_plot import PlotError, review_svg

__all__ = ["advice_seed", "give_advice", "review_game"]


def advice_seed(game_seed: int, turn: int) -> int:
    """The seed of the deals an advice samples at the game's ``turn``: drawn from the
    game's seed by a one-way hash, so the answer (which names its seed, for ``/v1/advise``
    to reproduce it) never tells the game's seed, which with the code gives every deal."""
    digest = hashlib.sha256(f"rummy-play-advice/{game_seed}/{turn}".encode()).digest()
    return int.from_bytes(digest[:8], "big") % (MAX_SEED + 1)


def give_advice(
    session: Session, *, budget_seconds: float = DEFAULT_BUDGET, samples: int = DEFAULT_SAMPLES
) -> tuple[Entry, dict[str, Any]]:
    """The ranked options of the human's decision (``Advice.to_dict()``): the turn's melds,
    or knock or pass once they are done; and the advice's entry (already added to the
    session)."""
    view = session.check_decision()
    knock = view.phase == "knock"
    seats = [(view.seat + k) % view.settings.players for k in range(view.settings.players)]
    found = advise(
        view.position,
        variant=view.variant,
        players=view.settings.players,
        hand_sizes=[view.hand_sizes[seat] for seat in seats],
        stock=view.stock_size,
        scores=[view.totals[seat] for seat in seats],
        draws_left=None if knock else view.draws_left,
        budget_seconds=budget_seconds,
        samples=samples,
        seed=advice_seed(session.setup.seed, session.turn),
        opened=view.opened,
        decision="knock" if knock else "meld",
    )
    entry = session.record("advice", {"turn": session.turn})
    return entry, found.to_dict()


def _decision(decision: Decision) -> dict[str, Any]:
    return {
        "round": decision.round_number,
        "turn": decision.turn,
        "phase": decision.phase,
        "played": decision.made,
        "best": decision.advised,
        "loss": round(decision.loss.estimate, 2),
        "about_as_good": decision.loss.low <= 0,
        "band": decision.band,
    }


def review_game(
    session: Session, *, samples: int = REVIEW_SAMPLES, budget_seconds: float | None = None
) -> dict[str, Any]:
    """The review of the human's decisions (module docstring); ``NotOver`` before the end."""
    if not session.over:
        raise NotOver("the review comes when the game is over")
    setup = session.setup
    found = review(
        log_records(session),
        seats=[session.human],
        samples=samples,
        budget_seconds=budget_seconds,
        confirm=True,  # its mistakes become puzzles, which report the loss measured again
    )
    summary = found.summaries[0]
    try:
        svg: str | None = review_svg(found)
    except PlotError:
        svg = None  # matplotlib missing, or no decision with a choice to draw
    puzzles = mistake_puzzles(found, setup.settings.variant, game={"seed": setup.seed})
    figures = summary.to_dict()
    return {
        "seat": session.human,
        "player": setup.players[session.human],
        "accuracy": figures["accuracy"],
        "bands": figures["bands"],
        "error_rate": figures["error_rate"],
        "loss_per_decision": figures["mean_loss"],
        "total_loss": figures["total_loss"],
        "luck": figures["luck"],
        "draws": figures["draws"],
        "decisions": [_decision(decision) for decision in found.decisions],
        "plot_svg": svg,
        "puzzles": [puzzle.to_dict() for puzzle in puzzles],
        "samples": samples,
        "seconds": round(found.seconds, 3),
    }
