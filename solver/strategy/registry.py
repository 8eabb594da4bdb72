"""Bots by name, each with its own seeded generator.

``make_bot("greedy")`` builds a built-in bot; ``make_bot("package.module:Class")`` or
``make_bot("./cautious.py:Class")`` loads a user's ``Bot`` subclass, so tournaments and
``rummy play`` take user bots by name.  A module that is not importable is looked for in
the current directory too (as ``python -m`` would), so ``cautious:Cautious`` works
without ``PYTHONPATH=.``.
The ``oracle`` and ``oracle-others`` (``solver.strategy.oracle``), which see hidden cards, are
*measurement* bots: they are in ``MEASUREMENT_BOTS``, not in ``BOTS``, and ``make_bot`` builds
them only when asked with ``measurement=True`` (the match runner does; ``rummy play`` and
tournaments never do).
Each bot of a game gets a generator derived from the game seed and its seat
(``bot_rng``), so the same seed and the same bots give the same game, whichever
process runs it and whatever ran before.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import os
import random
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from types import ModuleType

from solver.strategy.bots import BOT_TIME_LIMIT, Bot, GreedyBot, GreedyTilesBot, RandomBot
from solver.strategy.expert import ExpertBot
from solver.strategy.hoarder import HoarderBot
from solver.strategy.oracle import HandsOracleBot, OracleBot
from solver.strategy.pimc import PimcBot

__all__ = ["BOTS", "MEASUREMENT_BOTS", "bot_rng", "is_measurement_bot", "make_bot", "make_bots"]

BOTS: dict[str, Callable[..., Bot]] = {
    RandomBot.name: RandomBot,
    GreedyBot.name: GreedyBot,
    GreedyTilesBot.name: GreedyTilesBot,
    ExpertBot.name: ExpertBot,
    HoarderBot.name: HoarderBot,
    PimcBot.name: PimcBot,
}
"""The built-in bots by name: every one a player may meet."""

MEASUREMENT_BOTS: dict[str, Callable[..., Bot]] = {
    OracleBot.name: OracleBot,
    HandsOracleBot.name: HandsOracleBot,
}
"""Bots for measurement only (they see hidden cards): never offered as players."""


def is_measurement_bot(spec: str) -> bool:
    """Whether ``spec`` names a measurement bot (``oracle``, ``oracle-others``)."""
    return spec.strip().lower() in MEASUREMENT_BOTS


def make_bot(
    spec: str,
    *,
    rng: random.Random | None = None,
    time_limit: float = BOT_TIME_LIMIT,
    measurement: bool = False,
) -> Bot:
    """A bot from its name (``random``, ``greedy``, ``greedy-tiles``, ``expert``, ``hoarder``,
    ``pimc``), or ``module.path:ClassName`` or ``path/to/file.py:ClassName`` of a ``Bot``
    subclass; with ``measurement=True`` also a measurement bot (``oracle``).  A ValueError
    names the bot that could not be made and why."""
    key = spec.strip()
    if is_measurement_bot(key):
        if not measurement:
            raise ValueError(
                f"bot {spec!r} sees the hidden cards: it is for measurements (rummy match, "
                f"benchmarks.strength), never a player; choose one of {', '.join(BOTS)}"
            )
        return MEASUREMENT_BOTS[key.lower()](rng, time_limit=time_limit)
    if key.lower() in BOTS:
        return BOTS[key.lower()](rng, time_limit=time_limit)
    if ":" in key:
        factory = _load_attribute(key)
        if not (isinstance(factory, type) and issubclass(factory, Bot)):
            raise ValueError(f"bot {spec!r} is not a subclass of solver.strategy.Bot")
        bot: Bot = factory(rng, time_limit=time_limit)
        return bot
    seers = f" (or, to measure, {', '.join(MEASUREMENT_BOTS)})" if measurement else ""
    raise ValueError(
        f"unknown bot {spec!r}; choose one of {', '.join(BOTS)}{seers}, "
        "or give module:Class or path/to/file.py:Class"
    )


def _load_attribute(spec: str) -> object:
    """The object ``Class`` of ``module.path:Class`` or ``path/to/file.py:Class``; a
    ValueError says what could not be loaded (a user's module may fail in any way)."""
    target, _, name = spec.rpartition(":")
    if not target or not name:
        raise ValueError(f"bad bot {spec!r}: give module:Class or path/to/file.py:Class")
    try:
        module = _module_from_file(Path(target)) if _is_path(target) else _import(target)
    except Exception as error:  # the user's module runs here: any error it raises is reported
        raise ValueError(f"cannot load bot {spec!r}: {type(error).__name__}: {error}") from None
    if not hasattr(module, name):
        raise ValueError(f"cannot load bot {spec!r}: {target} has no {name}")
    return getattr(module, name)


def _is_path(target: str) -> bool:
    return target.endswith(".py") or "/" in target or os.sep in target


def _module_from_file(path: Path) -> ModuleType:
    """Load a bot's source file as a module of its own (once per file)."""
    resolved = path.expanduser().resolve()
    if not resolved.is_file():
        raise FileNotFoundError(f"no file {resolved}")
    digest = hashlib.sha256(str(resolved).encode()).hexdigest()[:12]
    name = f"rummy_user_bot_{resolved.stem}_{digest}"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, resolved)
    if spec is None or spec.loader is None:
        raise ImportError(f"{resolved} is not a Python file")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[name]
        raise
    return module


def _import(target: str) -> ModuleType:
    """Import ``target``; when it cannot be found, look in the current directory too."""
    try:
        return importlib.import_module(target)
    except ModuleNotFoundError as error:
        missing = error.name or ""
        here = os.getcwd()
        if not (target == missing or target.startswith(missing + ".")) or here in sys.path:
            raise
    sys.path.insert(0, here)
    try:
        return importlib.import_module(target)
    finally:
        sys.path.remove(here)


def bot_rng(seed: int, seat: int) -> random.Random:
    """The generator of the bot at ``seat`` in the game played with ``seed``."""
    return random.Random(f"rummy-bot/{seed}/{seat}")


def make_bots(specs: Sequence[str], seed: int, *, time_limit: float = BOT_TIME_LIMIT) -> list[Bot]:
    """One bot per spec, seat by seat, each with its own seeded generator."""
    return [make_bot(spec, rng=bot_rng(seed, seat), time_limit=time_limit) for seat, spec in enumerate(specs)]
