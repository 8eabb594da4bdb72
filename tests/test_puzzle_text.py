"""What ``rummy puzzle`` says about a puzzle must agree with the puzzle's solution.

Issue 20: a decoy was described as "8c fits meld 4 but is not played there", while the
solution's step 3 plays 8c among meld 4's cards (after 5c has left it).  The decoy text
now says what holds, and these tests check every claim of it against the solution table
on generated puzzles.
"""

from __future__ import annotations

import itertools
import json
import random
import shlex
from collections import Counter
from pathlib import Path

import pytest
from typer.testing import CliRunner

from solver.cli import app
from solver.cli.common import out
from solver.cli.puzzle import print_puzzle
from solver.puzzles import Puzzle, generate_puzzles, puzzle_stream
from solver.puzzles.describe import decoy_fates, decoy_text
from solver.puzzles.keeping import fits

_CACHE: dict[tuple[str, int], list[Puzzle]] = {}


def _puzzles(difficulty: str, seed: int, count: int = 5) -> list[Puzzle]:
    key = (difficulty, seed)
    if key not in _CACHE:
        _CACHE[key] = generate_puzzles(count, difficulty, rng=random.Random(seed))  # type: ignore[arg-type]
    return _CACHE[key]


@pytest.mark.parametrize(("difficulty", "seed"), [("hard", 7), ("expert", 3), ("medium", 11)])
def test_decoy_text_agrees_with_the_solution(difficulty: str, seed: int) -> None:
    puzzles = _puzzles(difficulty, seed)
    checked = 0
    for puzzle in puzzles:
        old_melds = puzzle.position.table.melds
        solution = puzzle.solution.melds
        for decoy in puzzle.decoys:
            checked += 1
            text = decoy_text(decoy, puzzle.position, puzzle.plan)
            assert "not played there" not in text
            for number in decoy.melds:
                meld = old_melds[number - 1]
                # "fits meld N as it stands": the card extends that meld as it lies ...
                assert fits(meld, decoy.card, puzzle.variant)
                # ... "but laying it off there with the meld kept whole leads to no way out":
                # no meld of the solution holds that whole meld with the card.
                wanted = Counter(meld.pieces) + Counter([decoy.card])
                assert not any(not wanted - Counter(new.pieces) for new in solution), (puzzle.position, text)
            fates = decoy_fates(decoy, puzzle.position, puzzle.plan)
            for fate in fates:
                # "the solution plays it in new meld K": it is there.
                assert decoy.card in solution[fate.new_meld - 1].pieces
                assert f"new meld {fate.new_meld}" in text
                if fate.left:
                    # "built on meld N after X leaves it": X was in meld N and is not in new meld K,
                    # which keeps the rest of meld N.
                    old = Counter(old_melds[fate.on_meld - 1].pieces)  # type: ignore[operator]
                    new = Counter(solution[fate.new_meld - 1].pieces)
                    assert Counter(fate.left) == old - new
                    assert old - Counter(fate.left) <= new
                    assert f"built on meld {fate.on_meld} after" in text
            assert sum(solution_meld.pieces.count(decoy.card) for solution_meld in solution) >= len(fates)
    if difficulty == "hard":
        assert checked, "the issue's puzzles have decoys"


def test_issue_puzzle_four_no_longer_contradicts_its_steps() -> None:
    # The issue's puzzle: the fourth of `rummy puzzle --count 5 --difficulty hard --seed 7`
    # as puzzles were made then, one stream from the seed (since solver.runs, puzzle i has
    # a stream of its own, so that seed gives other puzzles); printed as the command prints.
    stream = puzzle_stream("hard", rng=random.Random(7))
    issue = next(itertools.islice(stream, 3, None))
    with out.capture() as captured:
        print_puzzle(issue, 4, 5)
    fourth = captured.get()
    assert "Puzzle 4 of 5" in fourth
    assert "not played there" not in fourth
    decoy_line = next(line for line in fourth.splitlines() if line.startswith("Decoy: 8♣"))
    assert "fits meld 4 as it stands" in decoy_line
    assert "built on meld 4 after 5♣ leaves it" in decoy_line
    step = next(line for line in fourth.splitlines() if "8♣ from your hand" in line)
    assert "Meld 4 becomes new meld 3" in step


def test_decoy_json_carries_the_same_text() -> None:
    puzzle = next(p for p in _puzzles("hard", 7) if p.decoys)
    record = puzzle.to_dict()
    decoys = record["decoys"]
    assert isinstance(decoys, list)
    assert decoys[0]["text"] == decoy_text(puzzle.decoys[0], puzzle.position, puzzle.plan)


HIDE = ["puzzle", "--count", "2", "--difficulty", "hard", "--seed", "7", "--no-solutions"]


def _positions(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith("Position: ")]


def test_no_solutions_hides_them_and_says_how_to_see_them(tmp_path: Path) -> None:
    answers = tmp_path / "answers.txt"
    hidden = CliRunner().invoke(app, [*HIDE, "--solutions-to", str(answers)])
    assert hidden.exit_code == 0, hidden.output
    lines = hidden.stdout.splitlines()
    for secret in ("Solution", "Steps", "Decoy", "Verified"):
        assert not any(line.startswith(secret) and not line.startswith("Solutions hidden") for line in lines)
    assert len(_positions(hidden.stdout)) == 2
    last = hidden.stdout.strip().splitlines()[-1]
    assert last.startswith(f"Solutions hidden. To see them, read {answers}, or run: rummy puzzle ")
    # The command it gives prints the same puzzles, now with their solutions.
    again = shlex.split(last.split("or run: ", 1)[1])
    assert again[:2] == ["rummy", "puzzle"] and again[-1] == "--solutions"
    shown = CliRunner().invoke(app, again[1:])
    assert shown.exit_code == 0, shown.output
    assert _positions(shown.stdout) == _positions(hidden.stdout)
    assert shown.stdout.splitlines().count("Solution") == 2
    # The file holds the same text as the full output.
    saved = answers.read_text(encoding="utf-8")
    assert _positions(saved) == _positions(hidden.stdout)
    assert [line for line in saved.splitlines() if line.startswith(("  1. ", "Decoy"))] == [
        line for line in shown.stdout.splitlines() if line.startswith(("  1. ", "Decoy"))
    ]


def test_puzzles_hide_their_answers_unless_asked() -> None:
    """Issue 37: by default nothing gives the answer away, the score's make-up included
    (``3*2 broken + 2 moved`` says how many melds to break); ``--solutions`` shows it all."""
    args = ["puzzle", "--count", "5", "--difficulty", "hard", "--seed", "7"]
    hidden = CliRunner().invoke(app, args)
    assert hidden.exit_code == 0, hidden.output
    lines = hidden.stdout.splitlines()
    assert not any(line.startswith(("Solution", "Decoy", "Steps", "Verified")) for line in lines[:-1])
    assert lines[-1].startswith("Solutions hidden. To see them, run: ")
    assert " broken" not in hidden.stdout and " moved" not in hidden.stdout
    scores = [line for line in hidden.stdout.splitlines() if line.startswith("score ")]
    assert len(scores) == 5 and all(line.split() == ["score", line.split()[1]] for line in scores)
    shown = CliRunner().invoke(app, [*args, "--solutions"])
    assert shown.exit_code == 0, shown.output
    assert shown.stdout.splitlines().count("Solution") == 5
    assert sum(" broken + " in line for line in shown.stdout.splitlines()) == 5


def test_a_decoy_held_twice_is_said_to_be() -> None:
    """Issue 37: puzzle 5 of ``--difficulty hard --seed 7`` counts 2 decoys (two copies of one
    card) and printed one line that spoke of one card."""
    puzzle = _puzzles("hard", 7)[4]
    assert puzzle.features.decoys == sum(decoy.copies for decoy in puzzle.decoys) == 2
    with out.capture() as captured:
        print_puzzle(puzzle, 5, 5)
    decoys = [line for line in captured.get().splitlines() if line.startswith("Decoy: ")]
    assert len(decoys) == 1 and decoys[0].startswith("Decoy: each of the 2 copies of 10♠ fits meld")


def test_no_solutions_json_leaves_out_solution_and_decoys() -> None:
    outcome = CliRunner().invoke(app, [*HIDE, "--json"])
    assert outcome.exit_code == 0, outcome.output
    for line in outcome.stdout.splitlines():
        record = json.loads(line)
        assert "solution" not in record and "decoys" not in record
        assert "features" not in record  # how many melds to break and cards to move: a give-away
        assert record["position"] and record["score"]


def test_solutions_file_in_a_missing_directory_is_bad_input(tmp_path: Path) -> None:
    outcome = CliRunner().invoke(app, [*HIDE, "--solutions-to", str(tmp_path / "no" / "answers.txt")])
    assert outcome.exit_code == 2
    missing = tmp_path / "no"
    said = f"error: --solutions-to {missing / 'answers.txt'}: the directory {missing} does not exist\n"
    assert outcome.stderr == said
