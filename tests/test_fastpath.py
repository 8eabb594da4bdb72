"""The fast path's search (solver.fastpath) against the CP-SAT model on larger positions.

The cross-check and tie-break tests hold both engines to independent oracles on small
positions; the oracles are exponential, so here the two engines are held to each other
on tables of up to 70 cards and hands of up to 15 (80 and 18 under ``-m slow``): the
same status, the same value and the same number of old melds broken, every play judged
by the referee.  Also: which
positions the fast path takes, the fall back to CP-SAT when a search runs past its
budget, and the C module's own input checks.
"""

from __future__ import annotations

import gc
import random

import pytest
from randpos import random_position
from search_spy import searches

import solver.fastpath
from solver.cards import Card, Joker
from solver.engine import hint
from solver.fastpath import _search, applies, search
from solver.position import Position
from solver.referee import check_play
from solver.variants import Variant

VARIANTS = {
    "manipulation": Variant.manipulation(),
    "machiavelli": Variant.machiavelli(),
    "rummikub": Variant.rummikub(),
    "manipulation-2p": Variant.manipulation(players=2),
}


def _covered(rng: random.Random, variant: Variant, max_table_cards: int, max_hand: int) -> Position:
    """A random position the fast path covers (table jokers, freeable or not, included)."""
    while True:
        position = random_position(rng, variant, max_table_cards=max_table_cards, max_hand=max_hand)
        if applies(position, variant, keep_jokers=False, opened=True):
            return position


PRICED_BUDGET = 20_000
"""Expansions the search with prices from the start may make on a larger position in
these checks (past it the check is skipped for that position, and counted)."""


def _agree(position: Position, variant: Variant, objective: str) -> tuple[str, bool]:
    """Both engines on one position must give equal answers, and so must the search with
    the linear relaxation's prices from the start where it finishes within
    ``PRICED_BUDGET``; returns the fast path's engine and whether the priced search
    answered."""
    fast = hint(position, variant=variant, objective=objective)  # type: ignore[arg-type]
    model = hint(position, variant=variant, objective=objective, fast_path=False)  # type: ignore[arg-type]
    priced = (
        search(
            position,
            variant,
            objective=objective,  # type: ignore[arg-type]
            started=0.0,
            budget=PRICED_BUDGET,
            prices_after=0,
        )
        if len(position.hand) and applies(position, variant, keep_jokers=False, opened=True)
        else None
    )
    where = (str(position), objective)
    assert model.engine == "cp-sat" and model.status in ("optimal", "no_play"), where
    assert fast.status == model.status, (*where, fast.status, model.status)
    if priced is not None:
        assert priced.status == model.status, (*where, "priced", priced.status)
    if fast.status == "no_play":
        return fast.engine, priced is not None

    def value(found: object) -> int:
        return len(found.hand) if objective == "cards" else found.hand.points(variant)  # type: ignore[attr-defined]

    assert (value(fast), fast.melds_broken) == (value(model), model.melds_broken), (
        *where,
        str(fast.table),
        str(model.table),
    )
    if priced is not None:
        assert (value(priced), priced.melds_broken) == (value(model), model.melds_broken), (
            *where,
            "priced",
            str(priced.table),
            str(model.table),
        )
        verdict = check_play(position, priced.table, variant=variant)
        assert verdict.ok, (*where, "priced", str(priced.table), verdict.reasons)
    verdict = check_play(position, fast.table, variant=variant)
    assert verdict.ok, (*where, str(fast.table), verdict.reasons)
    assert sorted(map(str, fast.played + fast.hand.pieces)) == sorted(map(str, position.hand.pieces))
    return fast.engine, priced is not None


def _freeable(position: Position) -> bool:
    """Whether a real copy of a table joker's card is on the table or in the hand."""
    declared = {piece.declared for piece in position.table.pieces if isinstance(piece, Joker)}
    real = {piece for piece in position.table.pieces + position.hand.pieces if isinstance(piece, Card)}
    return bool(declared & real)


def _suite(
    seed: int, count: int, variant: Variant, max_table_cards: int, max_hand: int
) -> tuple[int, int, int]:
    """Both engines on ``count`` positions; how many the search answered, how many of
    those had a table joker that could be freed, and how many the search with prices
    from the start answered within its budget."""
    rng = random.Random(seed)
    if variant.decks == 1:  # 53 cards: leave room for the hand
        max_table_cards, max_hand = min(max_table_cards, 30), min(max_hand, 10)
    searched = freeable = priced = 0
    for _ in range(count):
        position = _covered(rng, variant, max_table_cards, max_hand)
        engine, answered = _agree(position, variant, rng.choice(("points", "cards")))
        priced += answered
        if engine == "search":
            searched += 1
            freeable += _freeable(position)
    return searched, freeable, priced


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_search_agrees_with_cp_sat_on_larger_positions(name: str) -> None:
    searched, freeable, priced = _suite(
        700 + sum(map(ord, name)), 60, VARIANTS[name], max_table_cards=70, max_hand=15
    )
    assert searched > 30  # most of these are the search's, not the fall back's
    assert priced > 50  # and nearly all are answered with prices from the start
    if VARIANTS[name].jokers:
        assert freeable > 5  # and table jokers that can be freed are among them


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(VARIANTS))
@pytest.mark.parametrize("block", range(5))
def test_search_agrees_with_cp_sat_on_many_positions(name: str, block: int) -> None:
    _suite(90_000 + 1000 * block + sum(map(ord, name)), 300, VARIANTS[name], max_table_cards=80, max_hand=18)


def test_the_prices_of_the_linear_relaxation_are_available() -> None:
    # HiGHS ships inside OR-Tools, a dependency: the search must be able to open it.
    assert solver.fastpath.prices_available()


NINE_D_UNPLAYABLE = (
    "3s 4s 5s | 7s 8s 9s 10s Js Qs | Qs Ks As | 2h 3h 4h 5h | 6h 7h 8h 9h 10h | 2d 3d 4d"
    " | 9d 10d Jd Qd Kd | *Qd Kd Ad | Ac 2c 3c 4c 5c | 8c 9c 10c Jc | 10c Jc Qc Kc"
    " | As Ah Ac | 2s 2h 2d 2c | 4s 4h 4d | 5h 5d 5c | 6h 6d 6c | 7s 7h 7d | 8s 8h 8c / Jh 9d"
)
"""67 table cards and a 9d no meld can take: the cheap bound cannot prove it (the plain
search needs over 100,000 expansions), the relaxation's prices can."""


def test_a_hand_card_no_play_can_take_is_proved_with_prices() -> None:
    # The 9d fits no meld however the 67 table cards are laid out; the cheap bound sees a
    # meld for it (9s, 9h and 9c are on the table), and the plain search took about
    # 150,000 expansions to prove it.  The relaxation's prices prove it at once.
    position = Position.parse(NINE_D_UNPLAYABLE)
    variant = Variant.manipulation()
    assert search(position, variant, objective="points", started=0.0, budget=2_000, prices_after=-1) is None
    with searches() as made:
        found = hint(position)
    assert found.engine == "search" and made[-1].priced
    assert str(found.hand) == "9d" and found.melds_broken == 0
    assert check_play(position, found.table, variant=variant).ok
    model = hint(position, fast_path=False)
    assert str(model.hand) == "9d" and model.melds_broken == 0


def test_the_points_floor_settles_a_points_level_the_relaxation_cannot() -> None:
    # 19 cards in hand: no play leaves fewer than 7 points (3d 2c 2c), but the relaxation
    # allows a little under 6 after every way of breaking up to 13 of the old melds, and
    # the search without the points program's floor spends its whole budget proving that
    # 6 points cannot be reached (over 200,000 expansions).  With the floor it finishes.
    position = Position.parse(
        "As 2s 3s | 2s 3s 4s | 4s 5s 6s 7s | 9s 10s Js Qs Ks | 10s Js Qs | 9h 10h Jh Qh Kh"
        " | Ad 2d 3d 4d | 5d 6d 7d | 8d 9d 10d | Jd Qd Kd | 5c 6c 7c 8c | 9c 10c Jc Qc Kc"
        " | 10c Jc Qc / As 5s 6s Ks 5h 8h Ad 3d 5d 6d 7d 9d Ac 2c 2c 4c 7c 8c Kc"
    )
    variant = Variant.machiavelli()
    assert search(position, variant, objective="points", started=0.0, points_floor=False) is None
    with searches() as made:
        found = hint(position, variant=variant)
    assert found.engine == "search" and made[-1].points_asked > 0
    model = hint(position, variant=variant, fast_path=False)
    assert (found.hand_points, found.melds_broken) == (model.hand_points, model.melds_broken) == (7, 4)
    assert check_play(position, found.table, variant=variant).ok


@pytest.mark.parametrize(
    "text",
    [
        # A kept run grown to both aces, and a run from ace to ace broken: each column
        # names the ace's row twice (HiGHS refused such programs, silently unpriced).
        "2h 3h 4h 5h 6h 7h 8h 9h 10h Jh Qh Kh | 5s 5d 5c / Ah 9c",
        "Ah 2h 3h 4h 5h 6h 7h 8h 9h 10h Jh Qh Kh Ah | 5s 5d 5c / 9c 9s 9d",
    ],
)
def test_runs_reaching_both_aces_are_priced(text: str) -> None:
    position = Position.parse(text)
    variant = Variant.manipulation()
    with searches() as made:
        found = search(position, variant, objective="points", started=0.0, budget=10**6, prices_after=0)
    assert found is not None and made[-1].priced
    model = hint(position, fast_path=False)
    assert (found.hand.points(variant), found.melds_broken) == (model.hand_points, model.melds_broken)
    assert check_play(position, found.table, variant=variant).ok


def test_worked_example_is_the_searchs() -> None:
    found = hint(Position.parse("Kh Kd Kc | Qh Qd Qc | Jh Jd Jc / Ac"))
    assert found.engine == "search" and found.goes_out and found.melds_broken == 3
    assert str(found.table) == "Jh Qh Kh | Jd Qd Kd | Jc Qc Kc Ac"


def test_independent_parts_of_a_table_are_searched_apart() -> None:
    # The court cards and the low runs share no meld once the ace is played (no joker can
    # bridge them): each part is solved on its own, and the costs add up.
    position = Position.parse(
        "Kh Kd Kc | Qh Qd Qc | Jh Jd Jc | 3s 4s 5s 6s | 3h 4h 5h 6h | 3d 4d 5d 6d / Ac 3c"
    )
    with searches() as made:
        found = hint(position)
    assert found.engine == "search" and made[-1].splits > 0
    # Three melds broken for Jc Qc Kc Ac, two for a group of threes with the 3c.
    assert found.goes_out and found.melds_broken == 5
    assert check_play(position, found.table, variant=Variant.manipulation()).ok
    model = hint(position, fast_path=False)
    assert model.goes_out and model.melds_broken == 5


def test_positions_the_search_leaves_to_cp_sat() -> None:
    manipulation, rummikub = Variant.manipulation(), Variant.rummikub()
    # An opening worth more than the search can count.
    dear = rummikub.with_options(opening_points=64)
    assert hint(Position.parse("/ 10s 11s 12s"), variant=dear, opened=False).engine == "cp-sat"
    assert hint(Position.parse("/ 10s 11s 12s"), variant=rummikub).engine == "search"
    # An empty hand has no play, and needs no search.
    empty = hint(Position.parse("4s 5s 6s /"), variant=manipulation)
    assert empty.status == "no_play" and empty.engine == "cp-sat"


def test_a_table_joker_that_can_never_be_freed_is_the_searchs() -> None:
    # No real 5s on the table or in the hand: the joker stands for 5s for good.
    found = hint(Position.parse("4s *5s 6s | 7h 8h 9h / 7s 10h"))
    assert found.engine == "search" and found.goes_out and found.melds_broken == 0
    assert str(found.table) == "4s *5s 6s 7s | 7h 8h 9h 10h"
    # Broken up, the joker still stands for 5s, in a group now.
    found = hint(Position.parse("4s *5s 6s 7s | 8h 9h 10h / 5h 5d 8s 4h 4d"))
    assert found.engine == "search" and found.goes_out and found.melds_broken == 1
    assert str(found.table) == "6s 7s 8s | 8h 9h 10h | 4s 4h 4d | *5s 5h 5d"
    assert check_play(found.position, found.table, variant=Variant.manipulation()).ok


@pytest.mark.parametrize(
    ("text", "table", "broken"),
    [
        # RULES.md's worked examples: the real 9h frees the joker, which takes 10h in the
        # same meld: nothing breaks (issue #34).
        ("7h 8h *9h / 9h Jh", "7h 8h 9h *10h Jh", 0),
        ("2h 3h 4h | 10c Jc *Qc Kc | *10c Jc Qc Kc / Kh", None, 2),
        # A real 5s on the table frees the joker: the run keeps it (nothing breaks).
        ("4s *5s 6s | 5s 5h 5d / 7s", "4s *5s 6s 7s | 5s 5h 5d", 0),
        # The hand's 5s frees it; kept as 5s the 5s could not be played.  The joker moves
        # along its meld to 7s: nothing breaks (issue #34).
        ("4s *5s 6s / 5s", "4s 5s 6s *7s", 0),
        # The freed joker leaves its meld for a run of hand cards (the meld is broken to
        # free it, and its other cards take the real 5s).
        ("4s *5s 6s 7s / 5s 9c 10c", None, 1),
        # Two jokers of one card, one real copy on the table: one joker may be freed.
        ("4s *5s 6s | *5s 5h 5d | 5s 5c 5d / 8c 9c", None, None),
        # Two jokers declared 10h and a real 10h from the hand: the sequence keeps its
        # joker and the group's joker is freed for Qh.  A kept meld's joker does not use
        # up the freeing (the search once counted it, and broke the sequence as well).
        (
            "9h *10h Jh | 10s *10h 10d 10c / 10s 10h Kh 10c",
            "9h *10h Jh *Qh Kh | 10s 10d 10c | 10s 10h 10c",
            1,
        ),
        # Two jokers declared 4c and one real 4c: one joker leaves its group still a 4c
        # (locked), the other is freed for 5c, and 6c is played.  Freeing the first one
        # too (as the search once did whenever the rule allowed) would use up the only
        # freeing and leave 6c in the hand.
        (
            "2c 3c 4c 5c 6c | 4s 4h 4d *4c | 4s 4h 4d *4c / 10d 6c",
            "2c 3c 4c 5c 6c | *4c *5c 6c | 4s 4h 4d | 4s 4h 4d",
            2,
        ),
        # The real As goes low, and the joker standing for As stays at the top: a run from
        # ace to ace.  The search once marked a kept run's joker by its card, and read the
        # real ace back as a second joker (an illegal table).
        (
            "2s 3s 4s 5s 6s 7s 8s 9s 10s Js Qs Ks *As / As",
            "As 2s 3s 4s 5s 6s 7s 8s 9s 10s Js Qs Ks *As",
            0,
        ),
    ],
)
def test_table_jokers_that_can_be_freed_are_the_searchs(
    text: str, table: str | None, broken: int | None
) -> None:
    position = Position.parse(text)
    variant = Variant.manipulation()
    found = hint(position)
    assert found.engine == "search"
    if table is not None:
        assert str(found.table) == table
    if broken is not None:
        assert found.melds_broken == broken
    assert _agree(position, variant, "points") == ("search", True)
    assert _agree(position, variant, "cards") == ("search", True)


@pytest.mark.parametrize(
    ("text", "table", "left"),
    [
        # The joker would play 7s now; kept, 7s waits (7 points rather than 25).
        ("4s 5s 6s / 7s 9d *", "4s 5s 6s 7s", "9d *"),
        # Going out with the joker is allowed.
        ("4s 5s 6s / 7s 9s", "4s 5s 6s 7s", "9s"),
        ("4s 5s 6s / 7s 9s *", "4s 5s 6s | 7s *8s 9s", ""),
        # A freed table joker is no hand joker: it may be used without going out.
        ("7h 8h *9h / 9h Jh Kc *", "7h 8h 9h *10h Jh", "Kc *"),
    ],
)
def test_keep_jokers_is_the_searchs(text: str, table: str, left: str) -> None:
    position = Position.parse(text)
    found = hint(position, keep_jokers=True)
    assert found.engine == "search"
    assert (str(found.table), str(found.hand)) == (table, left)
    model = hint(position, keep_jokers=True, fast_path=False)
    assert (found.hand_points, found.melds_broken) == (model.hand_points, model.melds_broken)


@pytest.mark.parametrize(
    ("text", "table", "left"),
    [
        # 10 + 11 + 12 = 33: enough to open.
        ("/ 10s 11s 12s", "10s Js Qs", ""),
        # 1 + 2 + 3 = 6 is not: no play, though the run is legal.
        ("/ 1s 2s 3s", "", "As 2s 3s"),
        # Both runs together open (6 + 27); the table is left as it is, though 4s would
        # extend it otherwise.
        ("5h 6h 7h / As 2s 3s 8s 9s 10s 4h", "As 2s 3s | 8s 9s 10s | 5h 6h 7h", "4h"),
        # A joker counts as the tile it stands for: *13s makes 11 + 12 + 13.
        ("/ 11s 12s *", "Js Qs *Ks", ""),
    ],
)
def test_the_opening_rule_is_the_searchs(text: str, table: str, left: str) -> None:
    rummikub = Variant.rummikub()
    position = Position.parse(text)
    found = hint(position, variant=rummikub, opened=False)
    assert found.engine == "search"
    assert (str(found.table), str(found.hand)) == (table, left)
    assert found.melds_broken == 0
    model = hint(position, variant=rummikub, opened=False, fast_path=False)
    assert (found.status, found.hand_points) == (model.status, model.hand_points)
    if found.has_play:
        assert check_play(position, found.table, variant=rummikub, opened=False).ok


def test_a_search_past_its_budget_falls_back_to_cp_sat(monkeypatch: pytest.MonkeyPatch) -> None:
    position = Position.parse("5h 6h 7h | 9s 9d 9c | 2c 3c 4c / 8h 9h 5c")
    searched = hint(position)
    assert searched.engine == "search" and searched.goes_out
    assert search(position, Variant.manipulation(), objective="points", started=0.0, budget=1) is None
    monkeypatch.setattr(solver.fastpath, "STATE_BUDGET", 1)
    found = hint(position)
    assert found.engine == "cp-sat" and found.goes_out
    assert found.melds_broken == searched.melds_broken


def test_a_card_that_needs_broken_melds_is_settled_first() -> None:
    # Qs fits only the group Qs Qh Qc, which breaks Jh Qh Kh and Jc Qc Kc and strands
    # their jacks and kings; the search settles Qs before the lower cards (it stays in
    # the hand), so it needs a handful of expansions, not tens of thousands.
    position = Position.parse(
        "7s 8s 9s 10s | Ah 2h 3h | 7h 8h 9h 10h | 8h 9h 10h | Jh Qh Kh | Ad 2d 3d 4d 5d | 6d 7d 8d"
        " | 7d 8d 9d | 9d 10d Jd | 4c 5c 6c 7c 8c | 7c 8c 9c 10c | Jc Qc Kc | 6s 6h 6d 6c / 8s Qs"
    )
    machiavelli = Variant.machiavelli()
    found = search(position, machiavelli, objective="points", started=0.0, budget=200)
    assert found is not None and str(found.hand) == "Qs" and found.melds_broken == 2
    assert _agree(position, machiavelli, "points") == ("search", True)


def test_no_play_from_the_search() -> None:
    found = hint(Position.parse("5h 6h 7h / Kc"))
    assert found.engine == "search" and found.status == "no_play"
    assert found.played == () and str(found.hand) == "Kc" and str(found.table) == "5h 6h 7h"


def test_the_search_module_checks_its_input() -> None:
    costs = [1] * 52
    with pytest.raises(ValueError, match="one entry per card index"):
        _search.search(False, [0] * 51, costs, 0, 1, [], 100)
    with pytest.raises(ValueError, match="0 to 3 copies"):
        _search.search(False, [4] + [0] * 51, costs, 0, 1, [], 100)
    with pytest.raises(ValueError, match="at most 3 hand jokers"):
        _search.search(False, [0] * 52, costs, 5, 1, [], 100)
    with pytest.raises(ValueError, match="table meld 0"):
        _search.search(False, [0] * 52, costs, 0, 1, [(1, 0, 12, 14)], 100)  # past 13 without ace-high
    with pytest.raises(ValueError, match="table meld 0"):
        _search.search(False, [0] * 52, costs, 0, 1, [(0, 5, 0b0011, 0)], 100)  # a group of two
    with pytest.raises(ValueError, match="too many table melds"):
        _search.search(False, [0] * 52, costs, 0, 1, [(0, 5, 0b0111, 0)] * 64, 100)
    with pytest.raises(TypeError, match="table meld 0 must be a tuple of 4 or 5 ints"):
        _search.search(False, [0] * 52, costs, 0, 1, [[0, 5, 0b0111, 0]], 100)  # type: ignore[list-item]
    with pytest.raises(ValueError, match="table meld 0"):  # a joker for a card not in the meld
        _search.search(False, [0] * 52, costs, 0, 1, [(0, 5, 0b0111, 0, 1)], 100)
    with pytest.raises(ValueError, match="forced: entry 0 must be 0 to 3"):
        _search.search(False, [0] * 52, costs, 0, 1, [], 100, forced=[4] + [0] * 51)
    with pytest.raises(ValueError, match="free needs one entry per card index"):
        _search.search(False, [0] * 52, costs, 0, 1, [], 100, free=[0])
    with pytest.raises(ValueError, match="wild must be 0 to 3"):
        _search.search(False, [0] * 52, costs, 0, 1, [], 100, wild=4)
    with pytest.raises(ValueError, match="at most 3 jokers in all"):
        _search.search(False, [0] * 52, costs, 2, 1, [], 100, wild=2)
    with pytest.raises(ValueError, match="more than 3 copies"):
        _search.search(
            False, [0] * 52, costs, 0, 1, [(0, 5, 0b0111, 0)] * 3, 100, forced=[0] * 16 + [1] + [0] * 35
        )
    with pytest.raises(ValueError, match="cost of card 3 must be 0 to 1000000"):
        _search.search(False, [0] * 52, [1, 1, 1, 2**62] + [1] * 48, 0, 1, [], 100)
    with pytest.raises(ValueError, match="cost of card 0 must be 0 to 1000000"):
        _search.search(False, [0] * 52, [-1] + [1] * 51, 0, 1, [], 100)
    with pytest.raises(ValueError, match="joker cost must be 0 to 1000000"):
        _search.search(False, [0] * 52, costs, 0, 2**62, [], 100)
    assert _search.MAX_COST == 1_000_000
    # A hand card alone makes no meld: no play.
    assert _search.search(False, [1] + [0] * 51, costs, 0, 1, [], 100) == (_search.NO_PLAY, -1, -1, None)


def test_the_search_reports_primary_cost_and_melds_broken_apart() -> None:
    # Kh Kd Kc | Qh Qd Qc | Jh Jd Jc / Ac with the high ace: all three melds break, the
    # hand goes out (primary 0).  With Ac dear and a spare 2c (cost 2) it stays 2.
    costs = [1] * 52
    hand = [0] * 52
    hand[Card.parse("Ac").index] = 1
    hand[Card.parse("2c").index] = 1
    costs[Card.parse("2c").index] = 2
    blocks = [(0, 13, 0b1110, 0), (0, 12, 0b1110, 0), (0, 11, 0b1110, 0)]
    status, primary, broken, melds = _search.search(True, hand, costs, 0, 25, blocks, 10_000)
    assert (status, primary, broken) == (_search.PLAY, 2, 3)
    assert melds is not None and len(melds) == 3
    # No table and a lone card: nothing to break, no play.
    assert _search.search(True, hand, costs, 0, 25, [], 100)[:3] == (_search.NO_PLAY, -1, -1)


def _outer_search_problem() -> tuple[list[int], list[int]]:
    """A hand whose search makes a few melds (its result builds Python objects)."""
    hand = [0] * 52
    for card in ("2s", "3s", "4s", "9h", "9d", "9c", "Qs", "Qh", "Qd"):
        hand[Card.parse(card).index] += 1
    return hand, [1] * 52


def _work(result: _search.SearchResult) -> tuple[object, ...]:
    """A result with every work counter, to compare two searches whole."""
    return (*result, result.freed, result.expansions, result.splits, result.priced, result.resolves)


def test_a_search_entered_again_mid_call_answers_as_if_alone() -> None:
    # Building its result, a search makes Python objects; a garbage collection then may
    # run Python code (here a gc callback) that calls the search again.  Each call has a
    # context of its own: the inner calls answer as they would alone, and so does the
    # outer one.  (Before contexts the inner call segfaulted, then got "past the budget".)
    hand, costs = _outer_search_problem()
    alone_outer = _search.search(True, hand, costs, 0, 25, [], 2000)
    alone_inner = _search.search(True, [0] * 52, [1] * 52, 0, 25, [], 2000)
    inner: list[_search.SearchResult] = []

    def again(phase: str, info: dict[str, int]) -> None:
        if phase == "start" and len(inner) < 10:
            inner.append(_search.search(True, [0] * 52, [1] * 52, 0, 25, [], 2000))

    thresholds = gc.get_threshold()
    gc.collect()  # so that the next collections come from the search's own objects
    gc.callbacks.append(again)
    gc.set_threshold(1)
    try:
        outer = _search.search(True, hand, costs, 0, 25, [], 2000)
    finally:
        gc.set_threshold(*thresholds)
        gc.callbacks.remove(again)
    assert inner and all(_work(found) == _work(alone_inner) for found in inner)
    assert _work(outer) == _work(alone_outer)
    assert outer[0] == _search.PLAY and outer[3] is not None and len(outer[3]) == 3


class _Reentering:
    """A card count whose ``__index__`` runs another search while the outer one reads its hand."""

    def __init__(self, count: int, seen: list[_search.SearchResult]) -> None:
        self.count = count
        self.seen = seen

    def __index__(self) -> int:
        hand, costs = _outer_search_problem()
        self.seen.append(_search.search(True, hand, costs, 0, 25, [], 2000))
        return self.count


def test_a_search_entered_again_while_reading_its_arguments_is_not_disturbed() -> None:
    # Reading the hand calls Python code (``__index__``) that searches another position
    # with the same module: that inner search fills a context of its own, so the outer
    # problem, half read, is untouched.
    position = Position.parse("5h 6h 7h | 9s 9d 9c / 8h 4h Kc Ks Kd 2c")
    hand = [0] * 52
    for card in position.hand.pieces:
        assert isinstance(card, Card)
        hand[card.index] += 1
    costs = [min(card.rank, 10) for card in (Card.from_index(k) for k in range(52))]
    blocks = [(1, int(Card.parse("5h").suit), 5, 7), (0, 9, 0b1101, 0)]
    alone = _search.search(False, hand, costs, 0, 25, blocks, 2000)
    seen: list[_search.SearchResult] = []
    hostile: list[object] = [_Reentering(count, seen) if count else 0 for count in hand]
    found = _search.search(False, hostile, costs, 0, 25, blocks, 2000)  # type: ignore[arg-type]
    assert len(seen) == sum(1 for count in hand if count)
    assert _work(found) == _work(alone)
    hand_alone, costs_alone = _outer_search_problem()
    assert all(
        _work(inner) == _work(_search.search(True, hand_alone, costs_alone, 0, 25, [], 2000))
        for inner in seen
    )


def test_two_threads_search_at_once_and_get_the_answers_of_one() -> None:
    # Every search has a context of its own and runs without the GIL: the calls the
    # hints of some mid-game positions make, replayed in two threads at once, give the
    # same answers and do the same work as one after the other.
    from concurrent.futures import ThreadPoolExecutor

    from benchmarks.midgame import MIDGAME_SUITES
    from benchmarks.threads import record_calls, replay

    positions = [(entry.position, spec.variant) for spec in MIDGAME_SUITES for entry in spec.load()[::15]]
    calls = record_calls(positions)
    serial = [replay(call) for call in calls]
    assert any(work[0] == _search.PLAY for work in serial)
    with ThreadPoolExecutor(max_workers=2) as pool:
        for _ in range(3):
            assert list(pool.map(replay, calls)) == serial


def test_the_search_lets_other_threads_run() -> None:
    # A long search (the 9d proof without prices: over 100,000 expansions) in a thread;
    # meanwhile this thread counts.  With the GIL held through the search it could count
    # only before and after; released, it counts all along.
    import threading

    position = Position.parse(NINE_D_UNPLAYABLE)
    variant = Variant.manipulation()
    with searches() as made:
        worker = threading.Thread(
            target=search,
            args=(position, variant),
            kwargs={"objective": "points", "started": 0.0, "budget": 400_000, "prices_after": -1},
        )
        counted = 0
        worker.start()
        while worker.is_alive():
            counted += 1
        worker.join()
    assert made and made[-1].expansions > 50_000
    assert counted > 10_000


class _Emptying:
    """A count whose ``__index__`` empties the list it is read from."""

    def __init__(self, into: list[object]) -> None:
        self.into = into

    def __index__(self) -> int:
        self.into.clear()
        return 1


def test_a_hand_emptied_while_it_is_read_is_read_as_given() -> None:
    # Reading a count runs Python code; that code empties the very list being read.  The
    # search reads a copy taken first, so it neither reads freed items nor sees the change
    # (before the copy: a read of freed memory).
    hand: list[object] = [0] * 52
    hand[Card.parse("7h").index] = _Emptying(hand)
    for card in ("8h", "9h"):
        hand[Card.parse(card).index] = 1
    found = _search.search(False, hand, [1] * 52, 0, 25, [], 2000)  # type: ignore[arg-type]
    assert tuple(found)[:3] == (_search.PLAY, 0, 0)
    forced: list[object] = [0] * 52
    forced[3] = _Emptying(forced)
    plain = [0, 0, 0, 1] + [0] * 48
    assert tuple(_search.search(False, [0] * 52, [1] * 52, 0, 25, [], 2000, forced=forced)) == tuple(  # type: ignore[arg-type]
        _search.search(False, [0] * 52, [1] * 52, 0, 25, [], 2000, forced=plain)
    )


def test_a_meld_that_already_costs_the_best_step_is_left_unfinished() -> None:
    # A table of 25 old melds and a hand joker: a run's slot can take the joker or a card
    # of any of several blocks broken for it, so an expansion tries thousands of runs.
    # Once a step of cost c is found, a run whose slots already cost c or more (each
    # block broken costs 1) can only end in steps that ``leaf`` would cut: the search
    # leaves it unfinished.  Before, the 306 expansions finished 138,524 steps (about
    # 40 ms); now 2,849, with the same expansions, states and answer.
    position = Position.parse(
        "As 2s 3s | As 2s 3s 4s 5s | 6s 7s 8s 9s | 6s 7s 8s 9s | Js Qs Ks | Ah 2h 3h 4h"
        " | 5h 6h 7h 8h 9h | 6h 7h 8h *9h | Jh Qh Kh | Qh Kh Ah | Ad 2d 3d | Ad 2d 3d 4d 5d"
        " | 6d 7d 8d 9d | 6d 7d 8d 9d | Jd Qd Kd | Ac 2c 3c 4c | 5c 6c 7c 8c 9c | 6c 7c 8c 9c"
        " | Jc Qc Kc | Qc Kc Ac | 4s 4h 4d 4c | 5s 5h 5d | 10h 10d 10c | 10s 10h 10d 10c"
        " | Js Jh Jd Jc / 10s Qs 2h 3h 9h Qd 3c *"
    )
    with searches() as made:
        found = hint(position)
    assert found.engine == "search" and len(made) == 1
    assert made[0].expansions == 306 and made[0].visits == 1018
    assert made[0].steps < 5_000
    model = hint(position, fast_path=False)
    assert (found.hand_points, found.melds_broken) == (model.hand_points, model.melds_broken)
    assert check_play(position, found.table, variant=Variant.manipulation()).ok


def test_a_round_past_the_round_budget_gives_the_position_to_cp_sat() -> None:
    # A search that is not converging: after its first rounds it spends the rest of the
    # whole budget (over 9,000 expansions) in one round and still goes to CP-SAT.  The
    # round budget gives it up at the first 5,000 expansions of a round instead; CP-SAT's
    # answer is the same either way.
    position = Position.parse(
        "2s 3s 4s 5s | 10s Js Qs Ks | 10s Js Qs Ks | 2h 3h 4h 5h | 10h Jh Qh Kh | 10h Jh Qh Kh"
        " | 2d 3d 4d 5d | 10d Jd Qd Kd | 10d Jd Qd Kd | 2c 3c 4c 5c | 10c Jc Qc Kc | 10c Jc Qc Kc"
        " | As Ah Ad Ac | 3s 3h 3d 3c | 6s 6d 6c | 6s 6d 6c | 8s 8h 8c | 9s 9d 9c | 9s 9h 9d 9c"
        " / As 4s 5s 7s 7s Ah 2h 5h 7h 9h 5d 7d 8d 8d Ac 2c 4c 5c 7c 8c"
    )
    variant = Variant.machiavelli()
    assert solver.fastpath.ROUND_BUDGET == _search.ROUND_BUDGET == 5000
    with searches() as made:
        assert search(position, variant, objective="points", started=0.0, round_budget=-1) is None
    assert made[-1].expansions > 10_000 - 1 and made[-1][0] == _search.OVER_BUDGET
    with searches() as made:
        found = hint(position, variant=variant)
    assert found.engine == "cp-sat"
    assert made[-1][0] == _search.OVER_BUDGET and made[-1].expansions < 6_000
    assert (found.hand_points, found.melds_broken) == (0, 4)
