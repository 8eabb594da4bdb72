"""Bots by name, each with its own seeded generator.

``make_bot("greedy")`` builds a built-in bot; ``make_bot("package.module:Class")`` loads a
user's ``Bot`` subclass, so tournaments and ``rummy play`` take user bots by name.
Each bot of a game gets a generator derived from the game seed and its seat
(``bot_rng``), so the same seed and the same bots give the same game, whichever
process runs it and whatever ran before.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Sequence

from solver.game.bots import BOT_TIME_LIMIT, Bot, GreedyBot, RandomBot
from solver.game.expert import ExpertBot
from solver.game.hoarder import HoarderBot
from solver.game.pimc import PimcBot

__all__ = ["BOTS", "bot_rng", "make_bot", "make_bots"]

BOTS: dict[str, Callable[..., Bot]] = {
    RandomBot.name: RandomBot,
    GreedyBot.name: GreedyBot,
    ExpertBot.name: ExpertBot,
    HoarderBot.name: HoarderBot,
    PimcBot.name: PimcBot,
}
"""The built-in bots by name."""


def make_bot(spec: str, *, rng: random.Random | None = None, time_limit: float = BOT_TIME_LIMIT) -> Bot:
    """A bot from its name (``random``, ``greedy``, ``expert``, ``hoarder``, ``pimc``) or
    ``module.path:ClassName`` of a ``Bot`` subclass; a ValueError names the unknown bot."""
    key = spec.strip()
    if key.lower() in BOTS:
        return BOTS[key.lower()](rng, time_limit=time_limit)
    if ":" in key:
        module_name, _, class_name = key.partition(":")
        try:
            factory = getattr(importlib.import_module(module_name), class_name)
        except (ImportError, AttributeError) as error:
            raise ValueError(f"cannot load bot {spec!r}: {error}") from None
        if not (isinstance(factory, type) and issubclass(factory, Bot)):
            raise ValueError(f"bot {spec!r} is not a subclass of solver.game.Bot")
        bot: Bot = factory(rng, time_limit=time_limit)
        return bot
    raise ValueError(f"unknown bot {spec!r}; choose one of {', '.join(BOTS)} or give module:Class")


def bot_rng(seed: int, seat: int) -> random.Random:
    """The generator of the bot at ``seat`` in the game played with ``seed``."""
    return random.Random(f"rummy-bot/{seed}/{seat}")


def make_bots(specs: Sequence[str], seed: int, *, time_limit: float = BOT_TIME_LIMIT) -> list[Bot]:
    """One bot per spec, seat by seat, each with its own seeded generator."""
    return [make_bot(spec, rng=bot_rng(seed, seat), time_limit=time_limit) for seat, spec in enumerate(specs)]
