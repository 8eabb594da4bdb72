"""The points program (``solver.fastpath._points``) is re-entrant and thread-safe.

Every call evaluates in a context of its own, taken from the module's pool: a call made
while another is under way (a draw's ``__index__`` may run any Python, this module
included) and calls from several threads (the evaluations run without the GIL, and the
search asks through the capsule without it) must leave each other's answers alone (that
the module keeps no mutable static state is checked in its source by test_c_source.py).
"""

from __future__ import annotations

import ctypes
import os
import random
import subprocess
import sys
import threading
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import cast

import pytest
from randpos import random_position

from solver.analysis import unseen_counts
from solver.cards import Card, Piece, piece_sort_key
from solver.fastpath import _costs, _Counts, _points
from solver.fastpath.points import covers
from solver.position import Position
from solver.variants import Variant

FASTPATH = Path(__file__).resolve().parent.parent / "solver" / "fastpath"

Args = tuple[bool, list[int], list[int], list[int], int, int, list[int]]
"""``fewest_points``' arguments before the draws: the position."""


def _args(position: Position, variant: Variant) -> Args:
    """The C module's arguments for ``position``, as ``solver.fastpath.points`` makes them."""
    counts = _Counts.of(position, opening=False)
    costs, joker_cost = _costs(variant, "points")
    table_jokers = [k for k in range(52) for _ in range(counts.table_jokers[k])]
    return (
        variant.ace_high,
        list(counts.table_real),
        list(counts.hand),
        list(costs),
        counts.hand_jokers,
        joker_cost,
        table_jokers,
    )


def _ask(args: Args, draws: Sequence[object]) -> list[int]:
    """``fewest_points`` on the position ``args``: a draw may be any object with ``__index__``."""
    return _points.fewest_points(*args, cast("Sequence[int]", draws))


def _parsed(text: str, variant: Variant) -> Args:
    return _args(Position.parse(text).validate(variant), variant)


def _codes(*cards: str) -> list[int]:
    return [Card.parse(card).index for card in cards]


MANIPULATION = Variant.manipulation()
OUTER = _parsed("5h 6h 7h | 9c 10c Jc / 8h Qc 3s", MANIPULATION)
OUTER_DRAWS = [-1, *_codes("9h", "Kc", "10h", "8c")]
"""Draws of cards past the first position: their evaluations start from the position's
saved states."""
INNER = _parsed("2d 3d 4d | Ks Kd Kc / 9s 4s", MANIPULATION)
INNER_DRAWS = [-1, *_codes("5s", "Qs", "5d")]


class Reentering:
    """A draw whose ``__index__`` first asks the module about another position."""

    def __init__(self, code: int, ask: Callable[[], list[int]]) -> None:
        self.code = code
        self.ask = ask
        self.answers: list[list[int]] = []

    def __index__(self) -> int:
        self.answers.append(self.ask())
        return self.code


def test_a_draw_that_calls_again_leaves_the_outer_answers_alone() -> None:
    """The inner call, made between the outer's evaluations, once overwrote the outer's
    saved states: the outer's later draws gave [3, -1, -1, -1, -1] for [3, 3, 3, 13, 3]."""
    plain = _ask(OUTER, OUTER_DRAWS)
    inner = _ask(INNER, INNER_DRAWS)
    assert plain == [3, 3, 3, 13, 3]
    for at in range(len(OUTER_DRAWS)):
        draws: list[object] = list(OUTER_DRAWS)
        reentering = Reentering(OUTER_DRAWS[at], lambda: _ask(INNER, INNER_DRAWS))
        draws[at] = reentering
        assert _ask(OUTER, draws) == plain, at
        assert reentering.answers == [inner]


def test_calls_nested_twice_each_keep_their_answers() -> None:
    """The inner call's own draw calls again: three calls under way at once."""
    plain = _ask(OUTER, OUTER_DRAWS)
    inner = _ask(INNER, INNER_DRAWS)
    deepest = Reentering(INNER_DRAWS[2], lambda: _ask(OUTER, OUTER_DRAWS))
    middle = Reentering(OUTER_DRAWS[1], lambda: _ask(INNER, [*INNER_DRAWS[:2], deepest, *INNER_DRAWS[3:]]))
    assert _ask(OUTER, [OUTER_DRAWS[0], middle, *OUTER_DRAWS[2:]]) == plain
    assert middle.answers == [inner] and deepest.answers == [plain]


def test_draws_changed_while_they_are_read_are_answered_as_given() -> None:
    """A draw's ``__index__`` that empties the list of draws: the draws are those given."""
    plain = _ask(OUTER, OUTER_DRAWS)
    draws: list[object] = list(OUTER_DRAWS)

    def empty() -> list[int]:
        draws.clear()
        return []

    draws[1] = Reentering(OUTER_DRAWS[1], empty)
    assert _ask(OUTER, draws) == plain
    assert draws == []


def test_a_bad_draw_after_a_reentering_one_is_still_refused() -> None:
    reentering = Reentering(OUTER_DRAWS[1], lambda: _ask(INNER, INNER_DRAWS))
    with pytest.raises(ValueError, match="draw 53"):
        _ask(OUTER, [-1, reentering, 53])
    assert _ask(OUTER, OUTER_DRAWS) == [3, 3, 3, 13, 3]


def _mid_game(seed: int, count: int, variant: Variant = MANIPULATION) -> list[tuple[Args, list[int]]]:
    """Mid-game positions the program covers, each with ``-1`` and every unseen card as
    its questions (an analysis' call)."""
    rng = random.Random(seed)
    found: list[tuple[Args, list[int]]] = []
    while len(found) < count:
        position = random_position(rng, variant, max_table_cards=40, min_table_cards=20, max_hand=10)
        if not covers(position, variant):
            continue
        unseen: Sequence[Piece] = sorted(unseen_counts(position, variant), key=piece_sort_key)
        draws = [-1, *(piece.index for piece in unseen if isinstance(piece, Card))]
        found.append((_args(position, variant), draws))
    return found


def _concurrently(calls: Sequence[Callable[[], object]]) -> list[object]:
    """Each of ``calls`` in a thread of its own, all started at once; their results."""
    results: list[object] = [None] * len(calls)
    errors: list[BaseException] = []
    start = threading.Barrier(len(calls))

    def run(at: int) -> None:
        try:
            start.wait()
            results[at] = calls[at]()
        except BaseException as error:
            errors.append(error)

    threads = [threading.Thread(target=run, args=(at,)) for at in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if errors:
        raise errors[0]
    return results


@pytest.mark.parametrize(("threads", "rounds"), [(2, 60), (12, 4)])  # 12: more than the pool keeps
def test_threads_asking_at_once_get_the_serial_answers(threads: int, rounds: int) -> None:
    positions = _mid_game(3, threads)
    serial = [_ask(args, draws) for args, draws in positions]
    assert any(any(value >= 0 for value in answers[1:]) for answers in serial)  # draws answered
    calls = [partial(_ask, args, draws) for args, draws in positions]
    for _ in range(rounds):
        assert _concurrently(calls) == serial


FEWEST = ctypes.CFUNCTYPE(
    ctypes.c_int64,
    ctypes.c_void_p,
    ctypes.c_int,
    ctypes.POINTER(ctypes.c_int),
    ctypes.POINTER(ctypes.c_int),
    ctypes.POINTER(ctypes.c_int),
    ctypes.c_int64,
    ctypes.c_long,
)


class PointsApi(ctypes.Structure):
    """``PointsApi`` of ``_points_api.h``."""

    _fields_ = [("fewest", FEWEST), ("owner", ctypes.c_void_p)]


def _capsule_api() -> tuple[int, PointsApi]:
    """The address of the capsule's PointsApi, and the struct there."""
    get_pointer = ctypes.pythonapi.PyCapsule_GetPointer
    get_pointer.restype = ctypes.c_void_p
    get_pointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
    address = get_pointer(_points._api, b"solver.fastpath._points._api")  # type: ignore[attr-defined]
    assert address
    return address, PointsApi.from_address(address)


def test_the_capsule_answers_from_threads_without_the_gil() -> None:
    """The search's way in (``_points_api.h``), called as the search calls it: without the
    GIL (a ctypes call releases it), from several threads at once.  Without jokers, its
    answer under the limit ``fewest_points`` sets for the position is the position's
    (Machiavelli: no jokers)."""
    address, api = _capsule_api()
    assert api.owner
    asked: list[tuple[list[int], int]] = []
    for args, _ in _mid_game(5, 12, Variant.machiavelli()):
        ace_high, table, hand, points, _, joker_points, _ = args
        [answer] = _ask(args, [-1])
        if answer == _points.UNKNOWN:
            continue
        limit = sum(h * p for h, p in zip(hand, points, strict=True)) + max([joker_points, *points]) + 1
        asked.append(([int(ace_high), *table, *hand, *points, limit], answer))
    assert len(asked) >= 4

    def ask(given: list[int]) -> int:
        cards = ctypes.c_int * 52
        table, hand, points = (cards(*given[1 + 52 * i : 53 + 52 * i]) for i in range(3))
        return int(api.fewest(address, given[0], table, hand, points, given[-1], 10**7))

    serial = [ask(given) for given, _ in asked]
    assert serial == [answer for _, answer in asked]
    for _ in range(10):
        calls = [partial(ask, given) for given, _ in asked]
        assert _concurrently(calls) == serial


_SHORT_OF_MEMORY = """
import ctypes, resource
from test_points_reentry import OUTER, OUTER_DRAWS, _ask, _capsule_api
from solver.fastpath import _points

MB = 1 << 20


def address_space() -> int:
    with open("/proc/self/status") as status:
        return next(int(line.split()[1]) * 1024 for line in status if line.startswith("VmSize:"))


address, api = _capsule_api()
arrays = [(ctypes.c_int * 52)(*counts) for counts in OUTER[1:4]]
soft, hard = resource.getrlimit(resource.RLIMIT_AS)
base = address_space()  # no context yet: the pool is empty
resource.setrlimit(resource.RLIMIT_AS, (base + 2 * MB, hard))  # a layer fits, not two
refused = 0
for _ in range(20):
    try:
        _ask(OUTER, OUTER_DRAWS)
    except MemoryError:
        refused += 1
    assert api.fewest(address, OUTER[0], *arrays, 1000, 10**6) == _points.UNKNOWN
assert refused == 20, refused
# Nothing of the failed contexts was kept: one whole context (3.5 MB) fits now.
resource.setrlimit(resource.RLIMIT_AS, (base + 5 * MB, hard))
print(_ask(OUTER, OUTER_DRAWS))
"""


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads the address space from /proc")
@pytest.mark.skipif(
    "libasan" in os.environ.get("LD_PRELOAD", ""),
    reason="AddressSanitizer reserves terabytes of address space: a cap on it cannot work",
)
def test_a_context_that_cannot_be_allocated_is_refused_and_leaves_nothing() -> None:
    """Short of memory for a context (a layer allocated, the next not), a call raises
    MemoryError and the capsule answers "unknown", 20 times over, keeping none of what
    was allocated: afterwards a whole context fits in little more than its own size."""
    done = subprocess.run(
        [sys.executable, "-c", _SHORT_OF_MEMORY],
        cwd=Path(__file__).resolve().parent,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["[3,", "3,", "3,", "13,", "3]"]
