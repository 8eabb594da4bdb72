"""Types of the C module ``solver.fastpath._search`` (see _search.c)."""

from collections.abc import Sequence
from typing import Final

PLAY: Final[int]
"""A play was found: ``(PLAY, primary, broken, melds)``."""
NO_PLAY: Final[int]
"""No legal play exists (below ``cap``): ``(NO_PLAY, -1, -1, None)``."""
OVER_BUDGET: Final[int]
"""The search needed more expansions than its budget: ``(OVER_BUDGET, -1, -1, None)``."""
MAX_COST: Final[int]
"""The dearest card or joker cost the search accepts."""

def search(
    ace_high: bool,
    hand: Sequence[int],
    costs: Sequence[int],
    jokers: int,
    joker_cost: int,
    blocks: Sequence[tuple[int, int, int, int] | tuple[int, int, int, int, int]],
    budget: int,
    *,
    forced: Sequence[int] | None = None,
    free: Sequence[int] | None = None,
    wild: int = 0,
    played: bool = False,
    values: Sequence[int] | None = None,
    need: int = 0,
    cap: int = -1,
    lp_after: int = -1,
    resolve_work: int = 20,
    points_floor: bool = True,
) -> tuple[int, int, int, list[tuple[int, ...]] | None]: ...
def last_expansions() -> int: ...
def last_freed() -> tuple[int, ...]:
    """The cards of the table jokers the last search's play freed (one per joker)."""
def last_splits() -> int:
    """How many states the last search split into independent parts (see _search.c)."""
def last_priced() -> bool:
    """Whether the last search bounded its states with the linear relaxation's prices."""
def last_points_asked() -> int:
    """How many questions the last search asked the points program (see _search.c)."""
def last_resolves() -> int:
    """How many times the last search re-solved its prices for a state (see _search.c)."""
def last_settled() -> int:
    """How many state bounds the last search raised with the prices of the program
    without wildcards (states whose jokers are settled; see _lp_bound.h)."""

def set_lp_library(path: str) -> None:
    """Open HiGHS's shared library for the prices' bound (OSError when it cannot be used)."""
