"""Types of the C module ``solver.fastpath._search`` (see search/search.h)."""

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
MAX_MELDS: Final[int]
"""The most table melds a search holds (the intact ones are one 64-bit mask)."""
JOKER_FLAG: Final[int]
"""Added to a card index in the melds: a wildcard declared as that card."""
LOCKED_FLAG: Final[int]
"""Added to a card index in the melds: a table joker kept in its old meld."""
MAX_JOKERS: Final[int]
"""The most jokers (table, hand and must-play) a search counts."""
MAX_COPIES: Final[int]
"""The most copies of one card a state counts (mandatory and optional each)."""
MAX_NEED: Final[int]
"""The largest opening value the search can track."""
CARD_KINDS: Final[int]
"""Card indices: 0..CARD_KINDS - 1."""
RESOLVE_WORK: Final[int]
"""The default of ``resolve_work``."""
ROUND_BUDGET: Final[int]
"""The default of ``round_budget``."""

class SearchResult(tuple[int, int, int, list[tuple[int, ...]] | None]):
    """A search's answer ``(status, primary, broken, melds)``, with its work as attributes."""

    @property
    def status(self) -> int: ...
    @property
    def primary(self) -> int: ...
    @property
    def broken(self) -> int: ...
    @property
    def melds(self) -> list[tuple[int, ...]] | None: ...
    @property
    def freed(self) -> tuple[int, ...]:
        """The cards of the table jokers the play freed (one entry per joker)."""
    @property
    def expansions(self) -> int:
        """The expansions the search made (the walk back's not counted)."""
    @property
    def splits(self) -> int:
        """States split into independent parts."""
    @property
    def priced(self) -> bool:
        """Whether the search bounded its states with the linear relaxation's prices."""
    @property
    def settled(self) -> int:
        """State bounds the prices of the program without wildcards raised."""
    @property
    def resolves(self) -> int:
        """Times the search re-solved its prices for a state."""
    @property
    def points_asked(self) -> int:
        """Questions the search asked the points program."""
    @property
    def visits(self) -> int:
        """States the search was asked about, memo hits included (its work between expansions)."""
    @property
    def steps(self) -> int:
        """Steps the search finished (melds laid or cards left), cut by a bound or solved on."""

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
    round_budget: int = 5000,
) -> SearchResult:
    """The best final table (see the module's ``search.__doc__``); runs without the GIL."""

def set_lp_library(path: str) -> None:
    """Open HiGHS's shared library for the prices' bound (OSError when it cannot be used)."""
