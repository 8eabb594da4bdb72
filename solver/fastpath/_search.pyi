"""Types of the C module ``solver.fastpath._search`` (see _search.c)."""

from collections.abc import Sequence

def search(
    ace_high: bool,
    hand: Sequence[int],
    costs: Sequence[int],
    jokers: int,
    joker_cost: int,
    blocks: Sequence[tuple[int, int, int, int]],
    budget: int,
) -> tuple[int, int, list[tuple[int, ...]] | None]: ...
