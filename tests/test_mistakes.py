"""Mistakes as puzzles: only clear ones are kept, the file reads back, answers are judged
by the referee and the advice, and ``rummy review --puzzles`` / ``rummy puzzle --from``
work end to end."""

from __future__ import annotations

import dataclasses
import io
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from solver.cli import app
from solver.game import GameSettings, play_game
from solver.game.log import LogWriter, read_log
from solver.position import Position
from solver.strategy import make_bots
from solver.strategy.mistakes import MistakePuzzle, PuzzleFileError, judge, mistake_puzzles, read_puzzles
from solver.strategy.review import Decision, Review, review
from solver.strategy.stats import Interval
from solver.variants import Variant

POSITION = "10d Jd Qd | 4s 4d 4c / 9d Kd 3s 8s"
# 43 unseen cards (one deck and a joker, less the table's 6 and the hand's 4): 9 in the
# other hand, 34 in the stock (no discard pile: every unseen card is in one of them).
FACTS = {"players": 2, "hand_sizes": [4, 9], "stock": 34, "scores": [0, 0], "draws_left": 2, "opened": True}


def decision(
    loss: Interval,
    band: str,
    *,
    kind: str = "play",
    table: str | None = "9d 10d Jd Qd Kd | 4s 4d 4c",
    samples: int = 16,
    confirmed: Interval | str | None = "same",
) -> Decision:
    """A reviewed decision; ``confirmed`` its loss measured again (by default ``loss``)."""
    return Decision(
        round_number=1,
        seat=0,
        phase="meld",
        position=POSITION,
        made="draw",
        advised="play 9d Kd",
        loss=loss,
        band=band,  # type: ignore[arg-type]
        options=3,
        samples=samples,
        action=5,
        turn=4,
        advised_kind=kind,
        advised_table=table,
        facts=FACTS,
        confirmed=loss if confirmed == "same" else confirmed,  # type: ignore[arg-type]
    )


def a_review(*decisions: Decision) -> Review:
    return Review(players=("me", "you"), decisions=decisions, summaries=(), seconds=0.0)


def test_only_clear_mistakes_become_puzzles() -> None:
    found = a_review(
        decision(Interval(40.0, 20.0, 60.0), "blunder"),
        decision(Interval(30.0, 2.0, 58.0), "mistake"),  # not clear: could be an inaccuracy
        decision(Interval(10.0, 6.0, 14.0), "inaccuracy"),
        decision(Interval(20.0, 15.0, 25.0), "mistake"),
        # Clear on 8 deals only: too few to trust the interval (PUZZLE_MIN_DEALS).
        decision(Interval(70.0, 40.0, 100.0), "blunder", samples=8),
    )
    puzzles = mistake_puzzles(found, Variant.manipulation(players=2), game={"log": "g.jsonl", "seed": 3})
    assert [p.loss.low for p in puzzles] == [20.0, 15.0]
    assert puzzles[0].game == {
        "log": "g.jsonl",
        "seed": 3,
        "players": ["me", "you"],
        "round": 1,
        "turn": 4,
        "action": 5,
        "seat": 0,
        "player": "me",
    }


def test_a_puzzle_reports_its_loss_measured_again_and_needs_it() -> None:
    """The review's loss chooses the puzzles; the one measured again on deals of its own
    is what a puzzle reports (with its band), and a decision not measured again, or whose
    advice is not better on those deals, is no puzzle."""
    found = a_review(
        decision(Interval(40.0, 20.0, 60.0), "blunder", confirmed=Interval(12.0, 3.0, 21.0)),
        decision(Interval(50.0, 30.0, 70.0), "blunder", confirmed=Interval(4.0, -6.0, 14.0)),
        decision(Interval(50.0, 30.0, 70.0), "blunder", confirmed=None),
    )
    (puzzle,) = mistake_puzzles(found, Variant.manipulation(players=2), game={})
    assert puzzle.loss == Interval(12.0, 3.0, 21.0) and puzzle.band == "inaccuracy"


def test_a_puzzle_reads_back_and_judges_answers() -> None:
    (puzzle,) = mistake_puzzles(
        a_review(decision(Interval(40.0, 20.0, 60.0), "blunder")), Variant.manipulation(players=2), game={}
    )
    data = puzzle.to_dict()
    assert data["kind"] == "mistake" and data["solution"]["moves"]
    assert data["link"].startswith("/?p=") and "hand_sizes=9" in data["link"]
    assert "opened=0" not in data["link"]
    unopened = MistakePuzzle.from_dict({**data, "facts": {**data["facts"], "opened": False}})
    assert "opened=0" in unopened.link()  # the page's "not opened yet" box
    (again,) = read_puzzles([json.dumps(data)])
    assert again.to_dict() == data
    assert judge(again, "play 9d 10d Jd Qd Kd | 4s 4d 4c").right
    assert judge(again, "4s 4d 4c | 9d 10d Jd Qd Kd").right, "a bare table in any order"
    wrong = judge(again, "draw")
    assert wrong.legal and not wrong.right and "9d Kd" in wrong.message
    illegal = judge(again, "play 9d 10d Jd Qd Kd | 4s 4d 4c 3s")
    assert not illegal.legal and "not a legal play" in illegal.message
    assert not judge(again, "knock").legal


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("{", "line 1: not JSON"),
        ('{"kind": "puzzle"}', "line 1: not a mistake puzzle"),
        ('{"kind": "mistake", "format": 1}', "line 1: missing field"),
    ],
)
def test_a_bad_puzzle_file_names_the_line(line: str, message: str) -> None:
    with pytest.raises(PuzzleFileError, match=message):
        read_puzzles([line])


@pytest.mark.parametrize(
    ("spoil", "message"),
    [
        (lambda d: d["facts"].pop("stock"), "missing field 'facts.stock'"),
        (lambda d: d["facts"].__setitem__("scores", 3), "facts.scores must list 2"),
        (lambda d: d["facts"].__setitem__("players", "two"), "facts.players must be a whole number"),
        (lambda d: d["loss"].pop("estimate"), "missing field 'estimate'"),
        (lambda d: d.__setitem__("loss", 5), "loss must be an object"),
        (lambda d: d["loss"].__setitem__("low", "x"), "loss must hold numbers"),
        (lambda d: d.__setitem__("solution", [1]), "solution must be an object"),
        (lambda d: d.__setitem__("game", 7), "game must be an object"),
        (lambda d: d.__setitem__("phase", "draw"), "phase must be meld or knock"),
    ],
)
def test_every_bad_field_is_named_not_a_traceback(
    spoil: Callable[[dict[str, Any]], object], message: str
) -> None:
    (puzzle,) = mistake_puzzles(
        a_review(decision(Interval(40.0, 20.0, 60.0), "blunder")), Variant.manipulation(players=2), game={}
    )
    data = puzzle.to_dict()
    spoil(data)
    with pytest.raises(PuzzleFileError, match=message):
        read_puzzles([json.dumps(data)])


def test_only_the_moves_of_the_turn_are_answers() -> None:
    (puzzle,) = mistake_puzzles(
        a_review(decision(Interval(40.0, 20.0, 60.0), "mistake", kind="draw", table=None)),
        Variant.manipulation(players=2),
        game={},
    )
    assert judge(puzzle, "draw").right
    refused = judge(puzzle, "pass")
    assert not refused.legal and "only play or draw" in refused.message, "draws are left: no pass"
    # A final turn (no draw left) comes once the stock is empty; its decline is a pass.
    final_turn = {**FACTS, "draws_left": 0, "stock": 0, "hand_sizes": [4, 43]}
    final = MistakePuzzle.from_dict(
        {**puzzle.to_dict(), "facts": final_turn, "solution": {"action": "pass", "description": "pass"}}
    )
    assert not judge(final, "draw").legal and judge(final, "pass").legal
    # A wrong answer is told the moves of this decision only (a Rummikub puzzle used to
    # be told to answer with a knock).
    assert "answer with draw, or the table after a play" in judge(puzzle, "foo").message
    assert "answer with pass, or the table after a play" in judge(final, "").message
    knock = MistakePuzzle.from_dict({**puzzle.to_dict(), "phase": "knock", "solution": {"action": "knock"}})
    told = judge(knock, "foo").message
    assert "answer with knock or pass" in told and "table after a play" not in told


def test_an_illegal_advised_play_is_refused() -> None:
    (puzzle,) = mistake_puzzles(
        a_review(decision(Interval(40.0, 20.0, 60.0), "blunder")), Variant.manipulation(players=2), game={}
    )
    data = puzzle.to_dict()
    data["solution"]["table"] = "9d 10d Jd Qd Kd | 4s 4d 4c 3s"
    with pytest.raises(ValueError, match="not a legal play"):
        MistakePuzzle.from_dict(data)


@pytest.fixture(scope="module")
def game_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Greedy against the hoarder, seed 5, its first two rounds: a game with clear mistakes."""
    settings = GameSettings.manipulation(2)
    stream = io.StringIO()
    writer = LogWriter(stream, settings, seed=5, players=["greedy", "hoarder"])
    play_game(settings, make_bots(["greedy", "hoarder"], 5), seed=5, listeners=[writer])
    lines = stream.getvalue().splitlines()
    deals = [i for i, line in enumerate(lines) if '"type": "deal"' in line]
    path = tmp_path_factory.mktemp("log") / "game.jsonl"
    path.write_text("\n".join(lines[: deals[2] + 1]) + "\n", encoding="utf-8")
    return path


def test_review_puzzles_then_puzzle_from(game_log: Path, tmp_path: Path) -> None:
    runner = CliRunner()
    puzzles = tmp_path / "p.jsonl"
    done = runner.invoke(app, ["review", str(game_log), "--no-luck", "--puzzles", str(puzzles)])
    assert done.exit_code == 0, done.output
    lines = puzzles.read_text(encoding="utf-8").splitlines()
    assert lines, "the game has clear mistakes"
    assert f"{len(lines)} puzzle(s) written to {puzzles}" in done.stdout
    records = read_log(game_log.read_text(encoding="utf-8").splitlines())
    found = review(records, luck=False, confirm=True)
    plain = review(records, luck=False)
    # Measuring again changes no verdict: only the clear mistakes gain their second measure.
    assert [dataclasses.replace(d, confirmed=None) for d in found.decisions] == list(plain.decisions)
    chosen = [
        d
        for d in found.decisions
        if d.band in ("mistake", "blunder") and d.loss.low >= 15 and d.samples >= 16
    ]
    assert all(d.confirmed is not None for d in chosen)
    assert all(d.confirmed is None for d in found.decisions if d not in chosen)
    clear = [d for d in chosen if d.confirmed is not None and d.confirmed.low > 0]
    assert len(lines) == len(clear)
    for line, source in zip(lines, clear, strict=True):
        data = json.loads(line)
        assert source.confirmed is not None and data["loss"] == source.confirmed.to_dict(2)
        assert data["position"] == source.position and data["game"]["action"] == source.action
        assert data["game"]["turn"] == source.turn  # the number the review's table shows
        assert Position.parse(data["position"])
    hidden = runner.invoke(app, ["puzzle", "--from", str(puzzles)])
    assert hidden.exit_code == 0, hidden.output
    assert "Puzzle 1 of" in hidden.stdout and "Advised:" not in hidden.stdout  # the answer is hidden
    earliest = clear[0]
    assert f"(round {earliest.round_number}, turn {earliest.turn}, seat {earliest.seat})" in hidden.stdout
    assert f"run: rummy puzzle --from {puzzles} --solutions" in hidden.stdout
    shown = runner.invoke(app, ["puzzle", "--from", str(puzzles), "--solutions"])
    assert shown.exit_code == 0, shown.output
    assert "Puzzle 1 of" in shown.stdout and "Advised:" in shown.stdout
    first = read_puzzles(lines)[0]
    answer = "draw" if first.answer_kind == "draw" else f"play {first.answer_table}"
    played = runner.invoke(app, ["puzzle", "--from", str(puzzles), "--play"], input=f"{answer}\n")
    assert played.exit_code == 0, played.output
    assert "Right: " in played.stdout and "1 of 1 answered right" in played.stdout


def test_review_puzzles_need_the_default_deals(game_log: Path, tmp_path: Path) -> None:
    puzzles = tmp_path / "p.jsonl"
    asked = ["review", str(game_log), "--no-luck", "--samples", "4", "--puzzles", str(puzzles)]
    refused = CliRunner().invoke(app, asked)
    assert refused.exit_code == 2 and "--puzzles needs --samples 16 or more, not 4" in refused.output
    assert not puzzles.exists()


def test_puzzle_from_a_bad_file_is_one_line_exit_2(tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"kind": "mistake", "format": 1}\n', encoding="utf-8")
    runner = CliRunner()
    for path in (bad, tmp_path / "missing.jsonl"):
        done = runner.invoke(app, ["puzzle", "--from", str(path)])
        assert done.exit_code == 2
        assert done.stderr.count("\n") == 1 and str(path) in done.stderr


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"facts": {**FACTS, "stock": 9999}}, "unseen"),
        ({"facts": {**FACTS, "draws_left": 9}}, "draws left must be 0 to 2"),
        ({"facts": {**FACTS, "hand_sizes": [4, 0]}}, "gone out"),
        ({"position": "10d Jd Qd | 4s 4d 4c /", "facts": {**FACTS, "hand_sizes": [0, 9]}}, "hand is empty"),
        ({"variant": "machiavelli"}, "draws left must be 1 (a draw ends the turn) in machiavelli"),
        ({"phase": "knock"}, "a knock decision is answered knock or pass, not play"),
        ({"solution": {"action": "knock"}}, "a meld decision is answered play, draw or pass, not knock"),
        ({"solution": {"action": "pass"}}, "with 2 draw(s) left the decline is draw, not pass"),
        ({"facts": {**FACTS, "draws_left": 0}}, "final turn"),
    ],
)
def test_a_puzzle_no_game_can_reach_is_refused(change: dict[str, object], message: str) -> None:
    """A puzzle file's facts were read as written: a stock of 9999, draws left 9, an empty
    hand asked for a move, a knock decision answered with a draw."""
    (puzzle,) = mistake_puzzles(
        a_review(decision(Interval(40.0, 20.0, 60.0), "mistake")), Variant.manipulation(players=2), game={}
    )
    record = {**puzzle.to_dict(), **change}
    with pytest.raises(ValueError, match=re.escape(message)):
        MistakePuzzle.from_dict(record)


def test_a_hand_written_puzzle_without_its_game_reads_cleanly(tmp_path: Path) -> None:
    """Without ``game`` and ``made`` the header said "(round None, action None, seat None)"
    and an empty "In the game:" line."""
    (puzzle,) = mistake_puzzles(
        a_review(decision(Interval(40.0, 20.0, 60.0), "mistake")), Variant.manipulation(players=2), game={}
    )
    record = puzzle.to_dict()
    del record["game"], record["made"], record["band"]
    written = tmp_path / "mine.jsonl"
    written.write_text(json.dumps(record) + "\n", encoding="utf-8")
    done = CliRunner().invoke(app, ["puzzle", "--from", str(written)])
    assert done.exit_code == 0, done.output
    assert "Puzzle 1 of 1: a decision\n" in done.stdout
    assert "None" not in done.stdout and "In the game:" not in done.stdout


def test_a_puzzle_of_the_peer_game_keeps_its_deck() -> None:
    """The peer's Rummikub has no jokers: its puzzles say ``rummikub-peer`` (read back with
    that deck, whose unseen tiles the hands and the stock hold exactly), and their link,
    for a page that knows the variants but not the presets, carries the unseen tiles."""
    from urllib.parse import parse_qs, urlsplit

    from solver.game.settings import GameSettings
    from solver.strategy.advice import advise

    peer = GameSettings.rummikub_peer().variant
    position = "10d Jd Qd | 4s 4d 4c / 9d Kd 3s 8s"  # 104 tiles less 10: 94 unseen
    facts = {
        "players": 2,
        "hand_sizes": [4, 14],
        "stock": 80,
        "scores": [0, 0],
        "draws_left": 1,
        "opened": True,
    }
    made = dataclasses.replace(
        decision(Interval(40.0, 20.0, 60.0), "blunder"), position=position, facts=facts
    )
    (puzzle,) = mistake_puzzles(a_review(made), peer, game={})
    data = puzzle.to_dict()
    assert data["variant"] == "rummikub-peer"
    (again,) = read_puzzles([json.dumps(data)])
    assert again.variant == peer and again.to_dict() == data
    query = parse_qs(urlsplit(data["link"]).query)
    assert query["v"] == ["rummikub"]
    unseen = query["unseen"][0].split()
    assert len(unseen) == 94 and "*" not in unseen
    # What the page's Advice button then asks: the facts fit the peer's deck.
    found = advise(
        position,
        variant="rummikub",
        players=2,
        hand_sizes=[14],
        stock=80,
        unseen=query["unseen"][0],
        samples=2,
    )
    assert found.facts.unseen == 94
    # The Rummikub deck's two jokers would be nowhere: that puzzle is refused...
    assert data["format"] == 2
    with pytest.raises(PuzzleFileError, match="2 would be nowhere"):
        read_puzzles([json.dumps({**data, "variant": "rummikub"})])
    # ... unless format 1 wrote it, which named the peer's game "rummikub": its facts say so.
    (old,) = read_puzzles([json.dumps({**data, "variant": "rummikub", "format": 1})])
    assert old.variant == peer
    with pytest.raises(PuzzleFileError, match="unknown format 3"):
        read_puzzles([json.dumps({**data, "format": 3})])


def test_a_review_without_clear_mistakes_writes_no_puzzle_file(tmp_path: Path) -> None:
    """No puzzle: the output says why, and an earlier file of that name is left alone (it
    used to be emptied, and the output suggested a `rummy puzzle --from` that then failed)."""
    from solver.cli.common import out
    from solver.cli.review import write_puzzles

    earlier = tmp_path / "p.jsonl"
    earlier.write_text("kept\n", encoding="utf-8")
    with out.capture() as captured:
        write_puzzles([], earlier, quiet=False)
    said = captured.get()
    assert "No puzzle: no mistake or blunder was clear enough" in said and "was not written" in said
    assert "rummy puzzle --from" not in said
    assert earlier.read_text(encoding="utf-8") == "kept\n"


@pytest.mark.parametrize(
    ("extra", "named"),
    [
        (["--variant", "rummikub"], "--variant and --players choose the game of new puzzles"),
        (["--players", "3"], "--variant and --players choose the game of new puzzles"),
        (["--jobs", "2"], "go with new puzzles, not --from"),
    ],
)
def test_puzzle_from_refuses_the_options_of_new_puzzles(tmp_path: Path, extra: list[str], named: str) -> None:
    """They were silently ignored (a Manipulation file played under --variant rummikub)."""
    path = tmp_path / "p.jsonl"
    path.write_text("", encoding="utf-8")
    refused = CliRunner().invoke(app, ["puzzle", "--from", str(path), *extra])
    assert refused.exit_code == 2 and named in refused.stderr
    assert len(refused.stderr.strip().splitlines()) == 1
