"""The points program (``solver.fastpath.points``) against the oracle and CP-SAT.

The program answers "how few points can the hand keep after one play" for a position
and every draw at once, without a play to show, so each answer is held to the
independent exhaustive search (``solver.exact``) on small positions (every variant,
both objectives, hand jokers, table jokers a real card could free, ace-high, draws of
cards and jokers) and to CP-SAT alone (``fast_path=False``) on mid-game positions the
oracle is too slow for.  The draw-or-meld analysis built on it is held to the CP-SAT
draws.  The default run makes about 3,000 oracle comparisons; ``pytest -m slow`` about
25,000 more.  Which hand cards can be played at all (a question the analysis asks, by
putting a hand copy of each on the table) is held to CP-SAT's enumeration.
"""

from __future__ import annotations

import random

import pytest
from randpos import random_position
from test_crosscheck import VARIANTS, _freeable

import solver.fastpath as fastpath
from solver.analysis import unseen_counts
from solver.cards import Card, Joker, Piece, piece_sort_key
from solver.cpsat.enumerate import count_optimal_plays, playable_pieces
from solver.engine import DrawResults, alternatives, best_after_draws, hint
from solver.exact import best_value
from solver.fastpath import _points
from solver.fastpath.points import covers, fewest_points, optimal_play_count, playable_cards
from solver.position import Hand, Position
from solver.referee import check_play
from solver.solution import Objective
from solver.variants import Variant


def _with(position: Position, piece: Piece | None) -> Position:
    return position if piece is None else Position(position.table, Hand.of((*position.hand.pieces, piece)))


def _oracle(position: Position, variant: Variant, objective: Objective) -> tuple[int, bool]:
    """The oracle's fewest points (or cards) and whether that takes a play."""
    found = best_value(position, variant=variant, objective=objective)
    if found is not None:
        return found, True
    whole = len(position.hand) if objective == "cards" else position.hand.points(variant)
    return whole, False


def oracle_check(seed: int, count: int, variant: Variant) -> int:
    """The program against the oracle on ``count`` positions, each as it is and with a few
    draws; every other position holds a table joker a real card could free.  Returns
    the comparisons made, and asks that the program answered nearly every question
    (it leaves a joker past two in all, and a question past its state budget, to the
    other backends)."""
    rng = random.Random(seed)
    compared = asked = 0
    settled_low = settled_high = 0  # draws answered under the program's first, lower limit, and past it
    for at in range(count):
        position = random_position(rng, variant, max_table_cards=20, max_hand=7, min_table_cards=3)
        while variant.jokers and at % 2 == 0 and not _freeable(position):
            position = random_position(rng, variant, max_table_cards=20, max_hand=7, min_table_cards=3)
        objective: Objective = "cards" if rng.random() < 0.2 else "points"
        assert covers(position, variant, objective=objective), str(position)
        unseen = sorted(unseen_counts(position, variant), key=piece_sort_key)
        draws: list[Piece | None] = [None, *rng.sample(unseen, min(4, len(unseen)))]
        answers = fewest_points(position, variant, draws, objective=objective)
        for piece, answer in zip(draws, answers, strict=True):
            drawn = _with(position, piece)
            asked += 1
            if answer is None:
                continue
            assert (answer.points, answer.has_play) == _oracle(drawn, variant, objective), (
                str(drawn),
                objective,
                answer,
            )
            compared += 1
            base = answers[0]
            if piece is not None and base is not None and base.has_play:
                if answer.points <= base.points:
                    settled_low += 1
                else:
                    settled_high += 1
    assert compared >= 0.9 * asked, (compared, asked)
    # A draw is asked first under the position's own fewest points as its limit, and
    # again under the full limit when nothing is found below it: both ways are checked.
    assert settled_low > 0 and settled_high > 0, (settled_low, settled_high)
    return compared


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_points_agree_with_the_oracle(name: str) -> None:
    assert oracle_check(500 + sum(map(ord, name)), 150, VARIANTS[name]) > 600


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(VARIANTS))
@pytest.mark.parametrize("block", range(4))
def test_points_agree_with_the_oracle_many(name: str, block: int) -> None:
    oracle_check(50_000 + 1000 * block + sum(map(ord, name)), 300, VARIANTS[name])


def test_aces_shared_between_both_ends() -> None:
    """One ace of spades, wanted low (A-2-3) and high (Q-K-A): it goes where it saves more."""
    manipulation = Variant.manipulation(players=2)
    position = Position.parse("/ As 2s 3s Qs Ks")
    [answer] = fewest_points(position, manipulation, [None])
    assert answer is not None
    assert (answer.points, answer.has_play) == _oracle(position, manipulation, "points") == (5, True)
    # A second ace (two decks) lets both runs out.
    two_decks = Variant.manipulation()
    [both] = fewest_points(position, two_decks, [Card.parse("As")])
    assert both is not None and (both.points, both.has_play) == (0, True)


def test_a_table_joker_is_freed_only_by_a_real_copy() -> None:
    """The joker stands for 5h; with 5h in the hand it is freed and completes 9c 10c."""
    variant = Variant.manipulation(players=2)
    position = Position.parse("4h *5h 6h / 9c 10c")
    [as_is, with_five] = fewest_points(position, variant, [None, Card.parse("5h")])
    assert as_is is not None and (as_is.points, as_is.has_play) == (19, False)
    assert with_five is not None and (with_five.points, with_five.has_play) == (0, True)
    five = _with(position, Card.parse("5h"))
    assert (with_five.points, with_five.has_play) == _oracle(five, variant, "points")


def test_what_it_covers() -> None:
    rummikub = Variant.rummikub()
    position = Position.parse("As 2s 3s / 4s * *")
    assert covers(position, rummikub)
    assert not covers(position, rummikub, opened=False)  # the opening rule: not here
    # A drawn joker past two in all is not answered; the rest is.
    answers = fewest_points(position, rummikub, [None, Joker(), Card.parse("5s")])
    assert answers[1] is None and answers[0] is not None and answers[2] is not None


def test_bad_input_to_the_module_is_refused() -> None:
    zeros = [0] * 52
    points = [1] * 52
    with pytest.raises(ValueError, match="52"):
        _points.fewest_points(False, [0] * 51, zeros, points, 0, 25, [], [-1])
    with pytest.raises(ValueError, match="two jokers"):
        _points.fewest_points(False, zeros, zeros, points, 2, 25, [5], [-1])
    with pytest.raises(ValueError, match="draw 53"):
        _points.fewest_points(False, zeros, zeros, points, 0, 25, [], [53])
    with pytest.raises(ValueError, match="must be 0 to 3"):
        _points.fewest_points(False, [4, *zeros[1:]], zeros, points, 0, 25, [], [-1])


def cpsat_check(seed: int, count: int, variant: Variant) -> int:
    """The program against CP-SAT alone on mid-game positions (24-60 table cards, 36 with
    one deck, up to 12 in hand); returns how many it answered."""
    rng = random.Random(seed)
    answered = 0
    for _ in range(count):
        largest = 60 if variant.decks > 1 else 36  # one deck: room left for the hand
        position = random_position(rng, variant, max_table_cards=largest, min_table_cards=24, max_hand=12)
        if not covers(position, variant):
            continue
        [answer] = fewest_points(position, variant, [None])
        if answer is None:
            continue  # past the state budget: the other backends answer
        reference = hint(position, variant=variant, fast_path=False)
        assert reference.status in ("optimal", "no_play")
        assert (answer.points, answer.has_play) == (reference.hand_points, reference.has_play), str(position)
        answered += 1
    return answered


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_points_agree_with_cpsat_on_bigger_positions(name: str) -> None:
    assert cpsat_check(900 + sum(map(ord, name)), 25, VARIANTS[name]) >= 5


def test_draws_agree_with_the_cpsat_draws() -> None:
    """The analysis's draws as users get them (points program first) against CP-SAT alone."""
    rng = random.Random(77)
    by_points = 0
    for variant in (VARIANTS["manipulation-2p"], VARIANTS["machiavelli"], VARIANTS["rummikub"]):
        for _ in range(2):
            position = random_position(rng, variant, max_table_cards=40, min_table_cards=24, max_hand=10)
            pieces = sorted(unseen_counts(position, variant), key=piece_sort_key)
            fast = best_after_draws(position, variant, pieces, time_limit=10.0)
            plain = best_after_draws(position, variant, pieces, time_limit=10.0, fast_path=False)
            assert [(d.piece, d.points, d.has_play) for d in fast.draws] == [
                (d.piece, d.points, d.has_play) for d in plain.draws
            ], str(position)
            assert (fast.now_points, fast.now_has_play) == (plain.now_points, plain.now_has_play)
            by_points += sum(d.settled_by == "points" for d in fast.draws)
    assert by_points > 100


def test_draws_agree_when_the_current_play_is_given_or_left_to_cpsat(monkeypatch: pytest.MonkeyPatch) -> None:
    """The current position's best play in the draw analysis comes from the caller
    (``now``, as ``analyze`` passes its hint), from the search, or, when the points
    program settled every draw and the search gives up, from CP-SAT's single-position
    model: each way the answer is CP-SAT's draws alone."""
    rng = random.Random(78)
    plain_answers = []
    for variant in (VARIANTS["manipulation-2p"], VARIANTS["machiavelli"], VARIANTS["rummikub"]):
        for _ in range(2):
            position = random_position(rng, variant, max_table_cards=40, min_table_cards=24, max_hand=10)
            pieces = sorted(unseen_counts(position, variant), key=piece_sort_key)
            plain = best_after_draws(position, variant, pieces, time_limit=10.0, fast_path=False)
            plain_answers.append((position, variant, pieces, plain))
            given = best_after_draws(
                position, variant, pieces, time_limit=10.0, now=hint(position, variant=variant)
            )
            assert _draw_figures(given) == _draw_figures(plain), str(position)
    monkeypatch.setattr(fastpath, "search", lambda *args, **kwargs: None)  # the module the engine calls
    by_points_alone = 0
    for position, variant, pieces, plain in plain_answers:
        found = best_after_draws(position, variant, pieces, time_limit=10.0)
        assert _draw_figures(found) == _draw_figures(plain), str(position)
        if all(d.settled_by == "points" for d in found.draws):
            by_points_alone += 1
            if found.now_has_play:
                assert check_play(position, found.now_table, variant=variant).ok, str(position)
    assert by_points_alone >= 3


def _draw_figures(found: DrawResults) -> tuple[object, ...]:
    return (
        found.now_points,
        found.now_has_play,
        [(d.piece, d.points, d.has_play) for d in found.draws],
    )


def test_the_current_play_given_must_be_about_the_position() -> None:
    variant = Variant.manipulation()
    position = Position.parse("3h 4h 5h / 6h 9c")
    other = hint(Position.parse("3h 4h 5h / 6h 9d"), variant=variant)
    with pytest.raises(ValueError, match="not hint"):
        best_after_draws(position, variant, [Card.parse("7h")], time_limit=10.0, now=other)


PAST_THE_BUDGET = (
    "4s 5s 6s | 5s 6s 7s 8s 9s | 7s 8s 9s | 10s Js Qs | 7h 8h 9h | 9h 10h Jh Qh | 7d 8d *9d | "
    "9d 10d Jd Qd | Qd Kd Ad | 4c 5c 6c | 7c 8c 9c | 3s 3d 3c / Ah 2h 8h 10h Kh 6d 9d 10d Ac 10c *"
)
"""A mid-game Manipulation position (from the analysis benchmark) whose states outgrow the
program's budget: a wild hand joker, a freeable table joker and aces at both ends."""


def test_a_position_past_the_budget_answers_no_draw_either() -> None:
    """When the position as it is outgrows the budget, every draw and playable-card
    question is answered "unknown" at once (each would spend the whole budget again)."""
    variant = Variant.manipulation()
    position = Position.parse(PAST_THE_BUDGET).validate(variant)
    assert covers(position, variant)
    pieces = sorted(unseen_counts(position, variant), key=piece_sort_key)
    assert fewest_points(position, variant, [None, *pieces]) == [None] * (len(pieces) + 1)


def test_a_bound_lets_the_program_answer_a_position_past_the_budget() -> None:
    """Given the points of a play of the position (the caller's best play), the program
    tries the position again under that bound: it answers the position, and the draws
    that leave no more than it, exactly as CP-SAT alone does; the other draws stay
    unanswered, and the analysis settles them elsewhere, with the same results."""
    variant = Variant.manipulation()
    position = Position.parse(PAST_THE_BUDGET).validate(variant)
    pieces = sorted(unseen_counts(position, variant), key=piece_sort_key)
    best = hint(position, variant=variant)
    plain = best_after_draws(position, variant, pieces, time_limit=10.0, fast_path=False)
    assert best.hand.points(variant) == plain.now_points
    answers = fewest_points(position, variant, [None, *pieces], bound=best.hand.points(variant))
    assert answers[0] is not None and answers[0].points == plain.now_points
    exact = {draw.piece: draw for draw in plain.draws}
    answered = 0
    for piece, answer in zip(pieces, answers[1:], strict=True):
        draw = exact[piece]
        if answer is None:
            assert draw.points > plain.now_points, (piece, draw)
            continue
        assert (answer.points, answer.has_play) == (draw.points, draw.has_play), (piece, answer, draw)
        answered += 1
    assert answered > len(pieces) // 2, (answered, len(pieces))
    fast = best_after_draws(position, variant, pieces, time_limit=10.0, now=best)
    assert [(d.piece, d.points, d.has_play) for d in fast.draws] == [
        (d.piece, d.points, d.has_play) for d in plain.draws
    ]
    assert sum(d.settled_by == "points" for d in fast.draws) == answered
    # Without the caller's play the analysis finds one itself, with the same results.
    alone = best_after_draws(position, variant, pieces, time_limit=10.0)
    assert [(d.piece, d.points, d.has_play) for d in alone.draws] == [
        (d.piece, d.points, d.has_play) for d in plain.draws
    ]


def test_a_bound_below_every_play_answers_nothing() -> None:
    """A bound no play reaches (the caller's mistake) leaves the position unanswered
    rather than giving a wrong value."""
    variant = Variant.manipulation()
    position = Position.parse(PAST_THE_BUDGET).validate(variant)
    best = hint(position, variant=variant).hand.points(variant)
    assert best > 0
    pieces = sorted(unseen_counts(position, variant), key=piece_sort_key)
    assert fewest_points(position, variant, [None, *pieces], bound=best - 1) == [None] * (len(pieces) + 1)


def test_playable_cards_agree_with_the_cpsat_enumeration() -> None:
    """Which hand cards some legal play uses: the program (a hand copy of each card put on
    the table) against CP-SAT's enumeration, and every card the best play lays counts."""
    rng = random.Random(4242)
    answered = 0
    for name in sorted(VARIANTS):
        variant = VARIANTS[name]
        for _ in range(12):
            largest = 40 if variant.decks > 1 else 30
            position = random_position(rng, variant, max_table_cards=largest, min_table_cards=12, max_hand=9)
            split = playable_cards(position, variant)
            if split is None:
                assert position.hand.joker_count or not covers(position, variant) or len(position.hand) == 0
                continue
            reference = playable_pieces(position, variant, time_limit=10.0)
            assert reference.exact
            expected = (set(reference.playable), set(reference.never))
            assert (set(split[0]), set(split[1])) == expected, str(position)
            best = hint(position, variant=variant)
            assert {piece for piece in best.played if isinstance(piece, Card)} <= set(split[0])
            # Told which cards the best play lays, it asks only about the others.
            assert playable_cards(position, variant, known=best.played) == split
            answered += 1
    assert answered > 20


@pytest.mark.parametrize("cap", [2, 50])
def test_the_count_of_best_plays_agrees_with_the_cpsat_enumeration(cap: int) -> None:
    """How many distinct sets of played cards leave the fewest points: the program (the
    candidate hands left, each asked about) against CP-SAT's enumeration, with the cap.
    Asked too for the points the next-best plays leave (any value some play leaves is a
    fair question to both), where several sets are common."""
    rng = random.Random(4343 + cap)
    answered = several = 0
    for name in sorted(VARIANTS):
        variant = VARIANTS[name]
        for _ in range(12):
            largest = 40 if variant.decks > 1 else 30
            position = random_position(rng, variant, max_table_cards=largest, min_table_cards=12, max_hand=9)
            plays = alternatives(position, variant=variant, count=3)
            split = playable_cards(position, variant, known=plays[0].played) if plays else None
            if split is None:
                continue
            for points in sorted({play.hand_points for play in plays}):
                counted = optimal_play_count(position, variant, best_points=points, never=split[1], cap=cap)
                if counted is None:
                    continue
                reference = count_optimal_plays(
                    position, variant, best_points=points, cap=cap, time_limit=10.0
                )
                assert reference.exact
                assert counted == (reference.count, reference.capped), (str(position), points)
                answered += 1
                several += counted[0] > 1
    assert answered > 40 and several > 5


def test_the_count_of_best_plays_on_a_worked_position() -> None:
    """Hand 5h 5d 9c 9s on a 6h 7h 8h / 6d 7d 8d table: each five extends a run, the nines
    never play.  Leaving 18 points (the nines) takes one set of played cards (both
    fives); leaving 23 takes two (either five), and a cap of 1 stops that count."""
    variant = Variant.manipulation()
    position = Position.parse("6h 7h 8h | 6d 7d 8d / 5h 5d 9c 9s").validate(variant)
    assert optimal_play_count(
        position, variant, best_points=18, never=[Card.parse("9c"), Card.parse("9s")], cap=5
    ) == (1, False)
    assert optimal_play_count(
        position, variant, best_points=23, never=[Card.parse("9c"), Card.parse("9s")], cap=5
    ) == (2, False)
    assert optimal_play_count(
        position, variant, best_points=23, never=[Card.parse("9c"), Card.parse("9s")], cap=1
    ) == (1, True)
    assert (
        optimal_play_count(Position.parse("As 2s 3s / 4s *"), variant, best_points=0, never=[], cap=5) is None
    )


def test_a_hand_joker_leaves_the_question_to_cpsat() -> None:
    assert playable_cards(Position.parse("As 2s 3s / 4s *"), Variant.rummikub()) is None
