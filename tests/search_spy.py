"""Watching the fast path's C search from a test: the results of every call it makes.

The C module keeps no state between calls (no "last search" to ask about), so a test
that wants to know how a search went (whether it used the prices, split a state into
parts, asked the points program) reads the work counters off the results the module
returned while the test's block ran.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

from solver.fastpath import _search


@contextlib.contextmanager
def searches() -> Iterator[list[_search.SearchResult]]:
    """Within the block, every ``_search.search`` result in call order (the fast path looks
    the function up on the module at each call, so it finds this spy)."""
    made: list[_search.SearchResult] = []
    real = _search.search

    def spy(*args: Any, **kwargs: Any) -> _search.SearchResult:
        result = real(*args, **kwargs)
        made.append(result)
        return result

    _search.search = spy
    try:
        yield made
    finally:
        _search.search = real
