"""Puzzles: every difficulty generates verified puzzles (checked again independently: the
referee, the exact oracle, and an exhaustive search of every way out), the same seed gives
the same puzzles, the checks catch non-unique and non-rearranging positions, decoys,
layouts, the partition model, the CLI and the JSON shape."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from puzzle_oracle import goes_out_untouched, going_out_layouts
from typer.testing import CliRunner

from solver.cards import Card, Joker
from solver.cli import app
from solver.engine import hint
from solver.exact import best_value
from solver.position import Position, Table
from solver.puzzles import (
    BANDS,
    DIFFICULTIES,
    MAX_COUNT,
    Difficulty,
    Features,
    GenerationError,
    Layout,
    Puzzle,
    decoys,
    generate_puzzles,
    parse_difficulty,
    verify,
)
from solver.puzzles import generate as generate_module
from solver.puzzles.checks import all_pieces_problem, second_solution
from solver.puzzles.grade import band_of, jokers_involved
from solver.puzzles.keeping import can_go_out
from solver.puzzles.partition import PartitionProblem, partition
from solver.referee import check_play
from solver.variants import Variant

MANIPULATION = Variant.manipulation()
NOT_UNIQUE = "5s 6s 7s 8s | 5d 6d 7d 8d / 5h 5c"
"""The hand goes out only by taking a 5 from a sequence, but from either one (3 layouts)."""

_CACHE: dict[tuple[Difficulty, str, int], list[Puzzle]] = {}


def _puzzles(
    difficulty: Difficulty, variant: Variant = MANIPULATION, *, count: int = 2, seed: int = 5
) -> list[Puzzle]:
    key = (difficulty, variant.name, seed)
    if key not in _CACHE or len(_CACHE[key]) < count:
        _CACHE[key] = generate_puzzles(count, difficulty, rng=random.Random(seed), variant=variant)
    return _CACHE[key][:count]


def _all_pieces(position: Position) -> Counter[object]:
    pieces = position.table.pieces + position.hand.pieces
    return Counter(Joker() if isinstance(piece, Joker) else piece for piece in pieces)


# --- generated puzzles pass verification, checked again independently -------------------


@pytest.mark.parametrize("difficulty", DIFFICULTIES)
def test_generated_puzzles_are_verified_and_graded(difficulty: Difficulty) -> None:
    for puzzle in _puzzles(difficulty):
        position, solution = puzzle.position, puzzle.solution
        assert puzzle.verification.ok and puzzle.difficulty == difficulty
        low, high = BANDS[difficulty]
        assert low <= puzzle.score and (high is None or puzzle.score <= high)
        # The checks again, from scratch.
        assert verify(position, solution, MANIPULATION).ok
        # The referee, which uses no solver, accepts the solution, and it holds every piece.
        assert check_play(position, solution, variant=MANIPULATION).ok
        assert _all_pieces(position) == Counter(
            Joker() if isinstance(piece, Joker) else piece for piece in solution.pieces
        )
        # The exact oracle (no CP-SAT) agrees that the whole hand can be played.
        assert best_value(position, variant=MANIPULATION, objective="cards") == 0
        # The features are what they say.
        found = hint(position, variant=MANIPULATION)
        features = puzzle.features
        assert found.goes_out and features.broken == found.melds_broken >= 1
        assert features.hand == len(position.hand)
        assert features.moved == puzzle.plan.moved - len(position.hand)
        assert features.jokers == jokers_involved(position, solution)
        assert features.decoys == sum(d.copies for d in puzzle.decoys)
        assert features.tangle == puzzle.plan.flow().tangle >= 0
        assert puzzle.plan.replay().table == solution


@pytest.mark.parametrize("difficulty", ["easy", "medium", "hard"])
def test_exhaustive_search_confirms_uniqueness_and_rearranging(difficulty: Difficulty) -> None:
    """An exhaustive search of every way out, sharing no model with the checks."""
    for puzzle in _puzzles(difficulty):
        layouts = going_out_layouts(puzzle.position, MANIPULATION)
        assert list(layouts) == [Layout.of(puzzle.solution, MANIPULATION)]
        assert not goes_out_untouched(puzzle.position, MANIPULATION)


@pytest.mark.parametrize("variant", [Variant.machiavelli(), Variant.rummikub()])
def test_other_variants_generate_verified_puzzles(variant: Variant) -> None:
    (puzzle,) = _puzzles("medium", variant, count=1)
    assert puzzle.variant == variant and puzzle.verification.ok
    assert check_play(puzzle.position, puzzle.solution, variant=variant).ok
    assert list(going_out_layouts(puzzle.position, variant)) == [Layout.of(puzzle.solution, variant)]
    if variant.jokers == 0:
        assert not any(
            isinstance(p, Joker) for p in puzzle.position.table.pieces + puzzle.position.hand.pieces
        )


# --- reproducibility ----------------------------------------------------------------------


def test_same_seed_same_puzzles_and_a_longer_run_extends_a_shorter_one() -> None:
    first = [p.to_dict() for p in generate_puzzles(3, "hard", rng=random.Random(7))]
    again = [p.to_dict() for p in generate_puzzles(3, "hard", rng=random.Random(7))]
    shorter = [p.to_dict() for p in generate_puzzles(2, "hard", rng=random.Random(7))]
    other = [p.to_dict() for p in generate_puzzles(3, "hard", rng=random.Random(8))]
    assert first == again
    assert shorter == first[:2]
    assert [p["position"] for p in other] != [p["position"] for p in first]
    assert len({p["position"] for p in first}) == 3


# --- the checks catch what they must --------------------------------------------------------


def test_uniqueness_check_finds_a_second_solution() -> None:
    position = Position.parse(NOT_UNIQUE)
    found = hint(position)
    assert found.goes_out and found.melds_broken == 1
    verdict = verify(position, found.table, MANIPULATION)
    assert verdict.legal and verdict.needs_rearranging == "no"
    assert verdict.unique == "yes" and not verdict.ok
    assert verdict.witness is not None and any("another solution" in r for r in verdict.reasons)
    assert Layout.of(verdict.witness, MANIPULATION) != Layout.of(found.table, MANIPULATION)
    assert check_play(position, verdict.witness, variant=MANIPULATION).ok
    assert len(going_out_layouts(position, MANIPULATION)) == 3  # the exhaustive search agrees


def test_worked_example_is_a_unique_puzzle() -> None:
    position = Position.parse("Kh Kd Kc | Qh Qd Qc | Jh Jd Jc / Ac")
    solution = Table.parse("Jh Qh Kh | Jd Qd Kd | Jc Qc Kc Ac")
    assert verify(position, solution, MANIPULATION).ok
    assert second_solution(position, solution, MANIPULATION) == ("no", None)


def test_a_hand_that_goes_out_by_laying_off_needs_no_rearranging() -> None:
    position = Position.parse("5h 6h 7h | 9s 9d 9c / 8h 9h 10h")
    solution = Table.parse("5h 6h 7h 8h 9h 10h | 9s 9d 9c")
    verdict = verify(position, solution, MANIPULATION)
    assert verdict.legal and verdict.needs_rearranging == "yes" and not verdict.ok
    assert goes_out_untouched(position, MANIPULATION)


def test_an_illegal_or_incomplete_solution_fails_the_referee_check() -> None:
    position = Position.parse("Kh Kd Kc | Qh Qd Qc | Jh Jd Jc / Ac")
    illegal = verify(position, Table.parse("Jh Qh Kh | Jd Qd Kd | Jc Qc Kc | Ac"), MANIPULATION)
    assert not illegal.legal and any("referee" in r for r in illegal.reasons)
    stays = verify(position, position.table, MANIPULATION)
    assert not stays.legal


def test_locked_table_jokers_keep_their_card_in_the_uniqueness_check() -> None:
    # No real Qh exists, so the joker stays Qh: only 10h Jh *Qh | Qd Qs Qc goes out.
    position = Position.parse("*Qh Qd Qs Qc / 10h Jh")
    problem = all_pieces_problem(position)
    assert problem.joker_min[Card.parse("Qh").index] == 1
    solution = Table.parse("10h Jh *Qh | Qs Qd Qc")
    assert second_solution(position, solution, MANIPULATION) == ("no", None)
    # With the real Qh in the hand the joker is free, and more ways out open up.
    free = Position.parse("*Qh Qd Qs Qc / 10h Jh Qh")
    assert all_pieces_problem(free).joker_min == (0,) * 52


# --- decoys ---------------------------------------------------------------------------------


def test_a_card_that_fits_a_meld_but_cannot_stay_there_is_a_decoy() -> None:
    position = Position.parse("4s 5s 6s 7s | 5d 6d 7d | 4c 5c 6c / 3s 7h 7d")
    (decoy,) = decoys(position, MANIPULATION) or ()
    assert decoy.card == Card.parse("3s") and decoy.melds == (1,) and decoy.copies == 1
    # Laying 3s on 4s-7s leaves 7h 7d without a third seven; the way out takes 7s.
    assert can_go_out(position, MANIPULATION, keep=[0], attach=[(0, Card.parse("3s"))]) == "no"
    assert can_go_out(position, MANIPULATION) == "yes"


def test_a_card_laid_where_it_fits_in_a_way_out_is_no_decoy() -> None:
    position = Position.parse("5s 6s 7s 8s | 5d 6d 7d 8d / 5h 5c 9s")
    assert decoys(position, MANIPULATION) == ()
    assert can_go_out(position, MANIPULATION, keep=[0], attach=[(0, Card.parse("9s"))]) == "yes"


def test_attaching_counts_a_meld_continued_by_a_new_sequence() -> None:
    # 8h on 5h 6h 7h, then 9h 10h after it: one sequence 5h..10h.
    position = Position.parse("5h 6h 7h | 9s 9d 9c / 8h 9h 10h")
    assert can_go_out(position, MANIPULATION, keep=[0, 1], attach=[(0, Card.parse("8h"))]) == "yes"


def test_can_go_out_refuses_bad_requests() -> None:
    position = Position.parse("5h 6h 7h | 9s 9d 9c / 8h 9h 10h")
    with pytest.raises(ValueError, match="out of range"):
        can_go_out(position, MANIPULATION, keep=[2])
    with pytest.raises(ValueError, match="not in the hand"):
        can_go_out(position, MANIPULATION, attach=[(0, Card.parse("4h"))])
    with pytest.raises(ValueError, match="does not fit"):
        can_go_out(position, MANIPULATION, attach=[(1, Card.parse("8h"))])
    with pytest.raises(ValueError, match="hand is empty"):
        can_go_out(Position.parse("5h 6h 7h /"), MANIPULATION)


# --- layouts and the partition model -------------------------------------------------------


def test_layout_forgets_sequence_cuts_and_joker_copies_only() -> None:
    def layout(text: str) -> Layout:
        return Layout.of(Table.parse(text), MANIPULATION)

    assert layout("3h 4h 5h 6h 7h 8h") == layout("3h 4h 5h | 6h 7h 8h")
    assert layout("Ah 2h 3h 4h 5h | 3h 4h 5h 6h 7h 8h") == layout("Ah 2h 3h 4h 5h 6h 7h 8h | 3h 4h 5h")
    assert layout("7s 7d *7h | 5h 6h 7h") == layout("7s 7d 7h | 5h 6h *7h")
    assert layout("Qh Kh Ah | 2h 3h 4h") != layout("Ah 2h 3h 4h | Qh Kh *Ah")
    assert layout("7h 8h *9h") != layout("*6h 7h 8h")
    assert layout("7s 7h 7d | 7s 7h 7d") != layout("7s 7h 7d 7c | 7s 7h 7d")
    with pytest.raises(ValueError, match="illegal"):
        Layout.of(Table.parse("7s 7h 8d"), MANIPULATION)


def test_partition_leaves_spare_pieces_off_and_refuses_bad_problems() -> None:
    position = Position.parse("/ 3h 4h 5h 6h 9c *")
    problem = all_pieces_problem(position)
    assert partition(problem, MANIPULATION).answer == "no"
    spare = PartitionProblem(problem.real, problem.jokers, spare=1)
    found = partition(spare, MANIPULATION)
    assert found.answer == "yes" and found.spare == (Card.parse("9c"),)
    with pytest.raises(ValueError, match="spare 0"):
        partition(spare, MANIPULATION, exclude=[Layout.of(Table.parse("3h 4h 5h"), MANIPULATION)])
    with pytest.raises(ValueError, match="0-2 jokers"):
        PartitionProblem(problem.real, 3)
    with pytest.raises(ValueError, match="one count per card"):
        PartitionProblem((1, 2), 0)


# --- grading ----------------------------------------------------------------------------------


def test_score_formula_and_bands() -> None:
    features = Features(broken=3, moved=5, hand=4, decoys=1, jokers=1, tangle=0)
    assert features.score == 3 * 3 + 5 + 4 + 2 * 1 + 2 * 1 == 22
    assert features.difficulty == "expert"
    # The tangle (cycle rank of the solution's card flow) counts one point per independent cycle.
    tangled = Features(broken=2, moved=4, hand=2, decoys=0, jokers=0, tangle=2)
    assert tangled.score == 3 * 2 + 4 + 2 + 2 == 14 and tangled.difficulty == "medium"
    assert tangled.to_dict()["tangle"] == 2
    assert [band_of(score) for score in (0, 8, 9, 14, 15, 21, 22, 90)] == [
        "easy",
        "easy",
        "medium",
        "medium",
        "hard",
        "hard",
        "expert",
        "expert",
    ]
    assert parse_difficulty(" Hard ") == "hard"
    with pytest.raises(ValueError, match="unknown difficulty"):
        parse_difficulty("impossible")


def test_jokers_in_melds_left_whole_do_not_count() -> None:
    position = Position.parse("5c 6c 7c *8c 9c | 4d 5d 6d / 4h *")
    assert jokers_involved(position, Table.parse("5c 6c 7c *8c 9c | 4d 5d 6d | 4h *4s 4c")) == 1


def test_generate_refuses_bad_counts_and_gives_up_on_unreachable_bands(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with pytest.raises(ValueError, match="count must be"):
        generate_puzzles(0, "easy", rng=random.Random(1))
    with pytest.raises(ValueError, match="count must be"):
        generate_puzzles(MAX_COUNT + 1, "easy", rng=random.Random(1))
    with pytest.raises(ValueError, match="unknown difficulty"):
        generate_puzzles(1, "brutal", rng=random.Random(1))  # type: ignore[arg-type]
    monkeypatch.setattr(generate_module, "MAX_TRIES", 3)
    monkeypatch.setattr(generate_module, "_evaluate", lambda *_: 0)
    with pytest.raises(GenerationError, match="no easy"):
        generate_puzzles(1, "easy", rng=random.Random(1))


# --- JSON shape and the command line ------------------------------------------------------


PUZZLE_KEYS = {
    "number",
    "seed",
    "variant",
    "difficulty",
    "score",
    "features",
    "position",
    "table",
    "hand",
    "decoys",
    "solution",
    "verification",
}


def test_cli_json_prints_one_verified_puzzle_per_line() -> None:
    outcome = CliRunner().invoke(
        app, ["puzzle", "--count", "2", "--difficulty", "easy", "--seed", "3", "--json", "--solutions"]
    )
    assert outcome.exit_code == 0, outcome.output
    lines = outcome.stdout.splitlines()
    assert len(lines) == 2
    for number, line in enumerate(lines, start=1):
        record = json.loads(line)
        assert set(record) == PUZZLE_KEYS
        assert record["number"] == number and record["seed"] == 3 and record["difficulty"] == "easy"
        assert set(record["features"]) == {"broken", "moved", "hand", "decoys", "jokers", "tangle"}
        assert set(record["solution"]) == {"table", "melds", "moves", "rearrangements"}
        assert record["solution"]["rearrangements"] and all(
            group["text"] for group in record["solution"]["rearrangements"]
        )
        assert all(move["text"] for move in record["solution"]["moves"])
        assert record["verification"]["ok"] is True
        position = Position.parse(record["position"])
        assert check_play(position, Table.parse(record["solution"]["table"]), variant=MANIPULATION).ok
    again = CliRunner().invoke(
        app, ["puzzle", "--count", "2", "--difficulty", "easy", "--seed", "3", "--json", "--solutions"]
    )
    assert again.stdout == outcome.stdout


def test_cli_human_output_shows_features_solution_and_steps() -> None:
    outcome = CliRunner().invoke(app, ["puzzle", "--difficulty", "hard", "--seed", "7", "--solutions"])
    assert outcome.exit_code == 0, outcome.output
    text = outcome.stdout
    for part in (
        "seed 7",
        # The deck it is dealt from: two 2s on a table are no 2-player (one deck) puzzle.
        "Puzzle 1 of 1: hard (manipulation, 2 decks, 2 jokers: the deck of 3-5 players)",
        "Position: ",
        "score ",
        "broken",
        "Solution",
        "Steps",
        "take out",
        "Rearrangements",
        "trade cards into new melds",
        " tangle",
        "Verified",
    ):
        assert part in text


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--difficulty", "brutal"], "unknown difficulty"),
        (["--count", "0"], "--count must be"),
        (["--count", str(MAX_COUNT + 1)], "--count must be"),
        (["--variant", "canasta"], "unknown variant"),
    ],
)
def test_cli_bad_input_exits_2(args: list[str], message: str) -> None:
    outcome = CliRunner().invoke(app, ["puzzle", *args])
    assert outcome.exit_code == 2
    assert message in outcome.stderr


# --- long randomized cross-check (pytest -m slow) -------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize(
    "variant",
    [Variant.manipulation(), Variant.manipulation(players=2), Variant.machiavelli(), Variant.rummikub()],
    ids=["manipulation", "manipulation-2p", "machiavelli", "rummikub"],
)
@pytest.mark.parametrize("difficulty", DIFFICULTIES)
def test_many_puzzles_agree_with_the_exhaustive_search(variant: Variant, difficulty: Difficulty) -> None:
    for puzzle in generate_puzzles(12, difficulty, rng=random.Random(2026), variant=variant):
        assert puzzle.difficulty == difficulty
        assert list(going_out_layouts(puzzle.position, variant)) == [Layout.of(puzzle.solution, variant)]
        assert not goes_out_untouched(puzzle.position, variant)
        assert best_value(puzzle.position, variant=variant, objective="cards") == 0


@pytest.mark.parametrize("seed", ["-5", "-1"])
def test_a_negative_seed_is_refused_as_every_command_refuses_it(seed: str) -> None:
    """``--seed=-5`` gave the puzzles of seed 5."""
    done = CliRunner().invoke(app, ["puzzle", f"--seed={seed}"])
    assert done.exit_code == 2
    assert done.stderr == f"error: --seed must be 0 or more, not {seed}\n"


def test_a_puzzle_names_the_deck_of_its_player_count() -> None:
    from solver.cli.puzzle import deck_words

    assert deck_words(Variant.manipulation(players=2)) == "1 deck, 1 joker: the deck of 2 players"
    assert deck_words(Variant.named("manipulation")) == "2 decks, 2 jokers: the deck of 3-5 players"
    assert deck_words(Variant.named("rummikub")) == "2 decks, 2 jokers"  # every count's deck
    assert deck_words(Variant.named("machiavelli")) == "2 decks, no jokers"
