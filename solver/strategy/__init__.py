"""The strategy: bots, rollouts, the search bot, advice and review, on ONE evaluator.

Built on the rules of ``solver.game``, which never import this package.  Modules:
``bots`` (the ``Bot`` base, ``RandomBot``, ``GreedyBot``, ``GreedyTilesBot``), ``expert``, ``hoarder``,
``rollout`` (playouts to the end of the round), ``opponents`` (what the other seats are
assumed to do), ``candidates`` (the actions worth weighing), ``evaluator`` (the one
evaluator the search bot, advice and review share), ``pimc`` (the search bot),
``registry`` (bots by name, or ``module:Class`` / ``path/to/file.py:Class``), ``stats``,
``advice`` (one turn's options ranked), ``review`` (a logged game's decisions against the
advice; ``review_plot`` draws it; ``mistakes`` gathers them), ``tournament`` and
``match`` (mirrored pairs, or a seat list of 3 or more in rotated deals; their games run
on ``solver.runs``; ``match_summary`` totals them), ``oracle`` (the search bot with the
hidden cards in view: a measurement bot, never a player).

The names below are loaded on first use (PEP 562), so that importing one module (say
``solver.strategy.stats``) does not load the hint engine.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from solver.strategy.advice import Advice, advise
    from solver.strategy.bots import Bot, GreedyBot, RandomBot
    from solver.strategy.expert import ExpertBot
    from solver.strategy.hoarder import HoarderBot
    from solver.strategy.match import MatchResult, run_match
    from solver.strategy.pimc import PimcBot
    from solver.strategy.registry import BOTS, make_bot, make_bots
    from solver.strategy.tournament import run_tournament

_HOMES: dict[str, str] = {
    **dict.fromkeys(("Advice", "advise"), "advice"),
    **dict.fromkeys(("Bot", "GreedyBot", "RandomBot"), "bots"),
    "ExpertBot": "expert",
    "HoarderBot": "hoarder",
    "PimcBot": "pimc",
    **dict.fromkeys(("MatchResult", "run_match"), "match"),
    **dict.fromkeys(("BOTS", "make_bot", "make_bots"), "registry"),
    "run_tournament": "tournament",
}
"""Each public name and the module it lives in."""

__all__ = [
    "BOTS",
    "Advice",
    "Bot",
    "ExpertBot",
    "GreedyBot",
    "HoarderBot",
    "MatchResult",
    "PimcBot",
    "RandomBot",
    "advise",
    "make_bot",
    "make_bots",
    "run_match",
    "run_tournament",
]


def __getattr__(name: str) -> object:
    """Load a public name from its module on first use."""
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'solver.strategy' has no attribute {name!r}")
    return getattr(import_module(f"solver.strategy.{home}"), name)
