"""``review`` and ``rummy review``: every decision with a choice judged, bands by the documented
thresholds, summaries that add up, reproducible by seed, bad logs refused in one line."""

from __future__ import annotations

import io
import json
import re
import struct
from pathlib import Path

import pytest
from typer.testing import CliRunner

from solver.cards import parse_piece
from solver.cli import app
from solver.game import GameSettings, play_game
from solver.game.log import LogError, LogWriter, read_log
from solver.position import Hand, Position
from solver.strategy import make_bots
from solver.strategy.review import BANDS, MORE_SAMPLES, Review, SeatSummary, band_of, review
from solver.strategy.stats import Interval

QUICK = {"samples": 2, "budget_seconds": 600.0}


@pytest.fixture(scope="module")
def log_text() -> str:
    settings = GameSettings.manipulation(2)
    stream = io.StringIO()
    writer = LogWriter(stream, settings, seed=3, players=["expert", "greedy"])
    play_game(settings, make_bots(["expert", "greedy"], 3), seed=3, listeners=[writer])
    # The first round (up to the second deal) keeps the default run fast; such a cut log
    # replays clean, as a game still in progress does.
    lines = stream.getvalue().splitlines()
    deals = [i for i, line in enumerate(lines) if '"type": "deal"' in line]
    return "\n".join(lines[: deals[1] + 1]) + "\n"


@pytest.mark.slow
def test_a_whole_game_is_reviewed() -> None:
    settings = GameSettings.manipulation(2)
    stream = io.StringIO()
    writer = LogWriter(stream, settings, seed=4, players=["greedy", "random"])
    play_game(settings, make_bots(["greedy", "random"], 4), seed=4, listeners=[writer])
    found = review(read_log(stream.getvalue().splitlines()), seats=[1], samples=2, budget_seconds=0.001)
    assert found.summaries[0].decisions == len(found.decisions) > 0
    rounds = {decision.round_number for decision in found.decisions}
    assert len(rounds) > 1


@pytest.fixture(scope="module")
def reviewed(log_text: str) -> Review:
    return review(read_log(log_text.splitlines()), seats=[0], **QUICK)  # type: ignore[arg-type]


def test_bands_follow_the_documented_thresholds() -> None:
    assert [band for band, _ in BANDS] == ["blunder", "mistake", "inaccuracy", "ok"]
    assert band_of(0) == "ok" and band_of(4.99) == "ok"
    assert band_of(5) == "inaccuracy" and band_of(14.9) == "inaccuracy"
    assert band_of(15) == "mistake" and band_of(34.9) == "mistake"
    assert band_of(35) == "blunder" and band_of(500) == "blunder"


def test_only_the_chosen_seat_is_reviewed_and_every_decision_is_banded(reviewed: Review) -> None:
    assert reviewed.decisions, "a whole game has decisions with a choice"
    for decision in reviewed.decisions:
        assert decision.seat == 0
        assert decision.band == band_of(decision.loss)
        assert decision.options >= 2 and 2 <= decision.samples <= 2 * MORE_SAMPLES
        assert decision.loss.low <= decision.loss.estimate <= decision.loss.high
        knocks = ("", ", then knock", ", then do not knock")
        if decision.advised in {decision.made + after for after in knocks}:
            # The move was the advice (the advice may name the knock after the play; the
            # move made is the play, its knock a decision of its own): nothing lost, no
            # more deals.
            assert decision.loss == Interval(0.0, 0.0, 0.0) and decision.samples == 2, decision
            continue
        # Otherwise the loss is measured on fresh deals (at least 2 more), and may be
        # below 0 (the move did better there) only with an interval reaching 0.
        assert decision.samples >= 4, decision
        if decision.loss.estimate < 0:
            assert decision.loss.low < 0 and decision.band == "ok", decision
        if decision.samples < 2 * MORE_SAMPLES:
            # Sequential sampling stops early only once the question is settled: the
            # loss is resolved, or under the inaccuracy floor.
            assert decision.loss.low > 0 or decision.loss.estimate < 5, decision
    phases = {decision.phase for decision in reviewed.decisions}
    assert "meld" in phases
    assert any(decision.samples > 2 for decision in reviewed.decisions), "some call needed more deals"


def test_the_summary_adds_up(reviewed: Review) -> None:
    (summary,) = reviewed.summaries
    assert summary.player == "expert"
    assert summary.decisions == len(reviewed.decisions)
    assert sum(summary.bands.values()) == summary.decisions
    assert summary.total_loss == pytest.approx(sum(d.loss.estimate for d in reviewed.decisions))
    assert summary.error_rate == pytest.approx(
        sum(d.band != "ok" for d in reviewed.decisions) / len(reviewed.decisions)
    )


def test_reproducible_by_seed(log_text: str, reviewed: Review) -> None:
    again = review(read_log(log_text.splitlines()), seats=[0], **QUICK)  # type: ignore[arg-type]
    first, second = reviewed.to_dict(), again.to_dict()
    first.pop("seconds"), second.pop("seconds")
    assert first == second


def test_the_same_verdicts_and_luck_whatever_else_is_reviewed(log_text: str, reviewed: Review) -> None:
    """Deals come from the decision's place, position and facts: reviewing every seat, or
    without the luck, changes nothing for seat 0's decisions (they used to shift with the
    number of decisions and draws reviewed before them)."""
    records = read_log(log_text.splitlines())
    every_seat = review(records, **QUICK)  # type: ignore[arg-type]
    mine = [d.to_dict() for d in every_seat.decisions if d.seat == 0]
    assert mine == [d.to_dict() for d in reviewed.decisions]
    assert [d.to_dict() for d in every_seat.draws if d.seat == 0] == [d.to_dict() for d in reviewed.draws]
    assert every_seat.summaries[0].to_dict() == reviewed.summaries[0].to_dict()
    no_luck = review(records, seats=[0], luck=False, **QUICK)  # type: ignore[arg-type]
    assert [d.to_dict() for d in no_luck.decisions] == [d.to_dict() for d in reviewed.decisions]


def test_cli_review_is_the_same_with_a_plot(log_text: str, tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    log = tmp_path / "game.jsonl"
    log.write_text(log_text, encoding="utf-8")
    runner = CliRunner()
    plain = runner.invoke(app, ["review", str(log), "--samples", "2"])
    plotted = runner.invoke(app, ["review", str(log), "--samples", "2", "--plot", str(tmp_path / "r.png")])
    assert plain.exit_code == 0 and plotted.exit_code == 0, plotted.output
    assert plotted.stdout.replace(f"Plot written to {tmp_path / 'r.png'}\n", "") == plain.stdout
    # The log is cut after round 1: the review says its decisions stop there, as replay does.
    assert "Note: the log stops before the end of the game: the decisions up to there" in plain.stdout


def test_a_log_that_does_not_replay_is_refused(log_text: str) -> None:
    lines = log_text.splitlines()
    index = next(i for i, line in enumerate(lines) if '"type": "action"' in line and '"seat": 0' in line)
    record = json.loads(lines[index])
    record["seat"] = 1
    lines[index] = json.dumps(record)
    with pytest.raises(LogError, match="does not replay"):
        review(read_log(lines), **QUICK)  # type: ignore[arg-type]


def test_a_seat_outside_the_game_is_refused(log_text: str) -> None:
    with pytest.raises(ValueError, match="seat 2 is not in this 2-player game"):
        review(read_log(log_text.splitlines()), seats=[2], **QUICK)  # type: ignore[arg-type]


def test_cli_prints_each_decisions_band_and_the_summary(log_text: str, tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    path.write_text(log_text)
    runner = CliRunner()
    done = runner.invoke(app, ["review", str(path), "--seat", "1", "--samples", "2", "--budget", "600"])
    assert done.exit_code == 0, done.stderr
    assert "Decisions" in done.stdout and "Summary" in done.stdout and "greedy" in done.stdout
    assert any(band in done.stdout for band in ("ok", "inaccuracy", "mistake", "blunder"))
    done = runner.invoke(
        app, ["review", str(path), "--seat", "1", "--samples", "2", "--budget", "600", "--json"]
    )
    data = json.loads(done.stdout)
    assert [summary["seat"] for summary in data["summary"]] == [1]
    assert all(decision["seat"] == 1 for decision in data["decisions"])
    assert data["summary"][0]["draws"] == len(data["draws"]) > 0
    done = runner.invoke(
        app, ["review", str(path), "--seat", "1", "--samples", "2", "--budget", "600", "--json", "--no-luck"]
    )
    data = json.loads(done.stdout)
    assert data["draws"] == [] and data["summary"][0]["luck"] == 0


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--seat", "4"], "seat 4 is not in this 2-player game"),
        (["--budget", "0"], "--budget must be"),
        (["--samples", "1"], "--samples must be"),
        (["--seed", "-3"], "--seed must be"),
    ],
)
def test_cli_bad_input_is_one_line_exit_2(
    log_text: str, tmp_path: Path, args: list[str], message: str
) -> None:
    path = tmp_path / "g.jsonl"
    path.write_text(log_text)
    done = CliRunner().invoke(app, ["review", str(path), "--samples", "2", *args])
    assert done.exit_code == 2
    assert done.stderr.startswith("error: ") and message in done.stderr and done.stderr.count("\n") == 1


def test_cli_refuses_a_missing_or_malformed_log(tmp_path: Path) -> None:
    runner = CliRunner()
    done = runner.invoke(app, ["review", str(tmp_path / "none.jsonl")])
    assert done.exit_code == 2 and done.stderr.startswith("error: cannot read")
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"type": "nonsense"}\n')
    done = runner.invoke(app, ["review", str(bad)])
    assert done.exit_code == 2 and done.stderr.startswith("error: bad log")
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    done = runner.invoke(app, ["review", str(empty)])
    assert done.exit_code == 2 and "empty" in done.stderr


# -- the luck of the draws -------------------------------------------------------------


LUCKY_SEED = 31
"""Greedy against greedy, seed 31: in round 1 seat 0 draws 6h to a hand of 8s 9s 5h, which
has no play without it, and goes out with it (checked below): a lucky draw."""


@pytest.fixture(scope="module")
def lucky_review() -> Review:
    settings = GameSettings.manipulation(2)
    stream = io.StringIO()
    writer = LogWriter(stream, settings, seed=LUCKY_SEED, players=["greedy", "greedy"])
    play_game(settings, make_bots(["greedy", "greedy"], LUCKY_SEED), seed=LUCKY_SEED, listeners=[writer])
    lines = stream.getvalue().splitlines()
    deals = [i for i, line in enumerate(lines) if '"type": "deal"' in line]
    return review(read_log(lines[: deals[1] + 1]), seats=[0], samples=16)


def test_the_lucky_draw_is_known_lucky() -> None:
    from solver.engine import hint
    from solver.game.game import Game

    settings = GameSettings.manipulation(2)
    bots = make_bots(["greedy", "greedy"], LUCKY_SEED)
    game = Game(settings, seed=LUCKY_SEED)
    while not (game.view(game.to_move).drawn and hint(game.view(game.to_move).position).goes_out):
        game.apply(bots[game.to_move].act(game.view(game.to_move)))
    view = game.view(game.to_move)
    assert view.seat == 0 and view.drawn[-1] == parse_piece("6h")
    pieces = list(view.hand.pieces)
    pieces.remove(parse_piece("6h"))
    assert not hint(Position(view.table, Hand.of(pieces))).has_play


def test_before_the_draw_puts_the_card_back_among_the_unseen() -> None:
    from solver.game.game import Game
    from solver.strategy.review import _before_draw, _just_drew

    game = Game(GameSettings.manipulation(2), seed=LUCKY_SEED)
    view = game.view(game.to_move)
    assert _just_drew(view) and view.draws == 1  # the turn's forced first draw
    card = view.drawn[-1]
    before = _before_draw(view)
    assert len(before.hand) == len(view.hand) - 1 and before.stock_size == view.stock_size + 1
    assert before.draws == 0 and before.drawn == ()
    assert before.hand_sizes[view.seat] == view.hand_sizes[view.seat] - 1
    assert list(before.unseen()).count(card) == list(view.unseen()).count(card) + 1
    rummikub = Game(GameSettings.named("rummikub", 2), seed=1)
    assert not _just_drew(rummikub.view(rummikub.to_move)), "a draw ends the turn there: not measured"


def test_a_draw_that_lets_the_player_go_out_shows_positive_luck(lucky_review: Review) -> None:
    last = lucky_review.draws[-1]
    assert (last.round_number, last.seat, last.card) == (1, 0, "6h")
    assert last.after > last.before
    assert last.luck.estimate == pytest.approx(last.after - last.before)
    assert last.luck.low > 0, "going out at once beats the average draw beyond the sampling noise"


def test_going_out_is_a_decision_made_right(lucky_review: Review) -> None:
    """The play that goes out with the lucky 6h counts as a decision: nothing beats it."""
    last = lucky_review.decisions[-1]
    assert last.action == lucky_review.draws[-1].action, "the decision right after the lucky draw"
    assert last.made == last.advised and last.made.startswith("play")
    assert (last.loss.estimate, last.loss.low, last.loss.high) == (0.0, 0.0, 0.0) and last.band == "ok"
    assert last.options == 1 and last.value == last.made_value > 0


def test_the_luck_is_summed_per_seat_apart_from_the_decisions_cost(lucky_review: Review) -> None:
    (summary,) = lucky_review.summaries
    assert summary.draws == len(lucky_review.draws) > len(lucky_review.decisions)
    assert summary.luck == pytest.approx(sum(draw.luck.estimate for draw in lucky_review.draws))
    assert summary.total_loss == pytest.approx(sum(d.loss.estimate for d in lucky_review.decisions))
    data = lucky_review.to_dict()
    assert data["summary"][0]["draws"] == summary.draws
    assert {"card", "before", "after", "luck"} <= set(data["draws"][0])
    for decision in lucky_review.decisions:
        assert decision.made_value == pytest.approx(decision.value - decision.loss.estimate)
    actions = [d.action for d in lucky_review.decisions]
    assert actions == sorted(set(actions)), "one decision per logged action, in game order"
    assert [d.action for d in lucky_review.draws] == sorted(d.action for d in lucky_review.draws)


def test_luck_can_be_left_out(log_text: str) -> None:
    found = review(read_log(log_text.splitlines()), seats=[0], luck=False, **QUICK)  # type: ignore[arg-type]
    assert found.draws == () and found.summaries[0].draws == 0 and found.summaries[0].luck == 0


# -- the plot ----------------------------------------------------------------------------


PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def test_cli_writes_the_plot_and_says_where(lucky_review: Review, log_text: str, tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    path.write_text(log_text)
    picture = tmp_path / "review.png"
    done = CliRunner().invoke(
        app, ["review", str(path), "--seat", "0", "--samples", "2", "--budget", "600", "--plot", str(picture)]
    )
    assert done.exit_code == 0, done.stderr
    assert f"Plot written to {picture}" in done.stdout
    data = picture.read_bytes()
    assert data.startswith(PNG_SIGNATURE)
    width, height = struct.unpack(">II", data[16:24])  # the IHDR chunk
    assert 400 <= width <= 2000 and 200 <= height <= 2000
    assert 5_000 < len(data) < 2_000_000


def test_cli_plot_with_json_keeps_stdout_json(log_text: str, tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    path.write_text(log_text)
    picture = tmp_path / "review.png"
    args = ["review", str(path), "--seat", "0", "--samples", "2", "--budget", "600"]
    done = CliRunner().invoke(app, [*args, "--json", "--plot", str(picture)])
    assert done.exit_code == 0, done.stderr
    json.loads(done.stdout)
    assert f"Plot written to {picture}" in done.stderr
    assert picture.read_bytes().startswith(PNG_SIGNATURE)


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("missing/out.png", "does not exist"),
        ("out.txt", "ending in .png"),
        ("folder.png", "is a directory"),
    ],
)
def test_cli_bad_plot_path_is_one_line_exit_2(log_text: str, tmp_path: Path, name: str, message: str) -> None:
    path = tmp_path / "g.jsonl"
    path.write_text(log_text)
    (tmp_path / "folder.png").mkdir()
    done = CliRunner().invoke(app, ["review", str(path), "--samples", "2", "--plot", str(tmp_path / name)])
    assert done.exit_code == 2
    assert done.stderr.startswith("error: ") and message in done.stderr and done.stderr.count("\n") == 1


def test_plot_module_reports_a_missing_matplotlib(
    reviewed: Review, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import builtins

    from solver.strategy.review_plot import PlotError, plot_review

    real_import = builtins.__import__

    def no_matplotlib(name: str, *args: object, **kwargs: object) -> object:
        if name.startswith("matplotlib"):
            raise ImportError(name)
        return real_import(name, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(builtins, "__import__", no_matplotlib)
    with pytest.raises(PlotError, match="needs matplotlib"):
        plot_review(reviewed, tmp_path / "x.png")


def test_cli_reviews_a_folder_alike_on_every_backend(log_text: str, tmp_path: Path) -> None:
    """A folder of logs: one review per log in name order, the same in this process and
    on a local pool, and each the same as the log reviewed alone."""
    folder = tmp_path / "logs"
    folder.mkdir()
    lines = log_text.splitlines()
    (folder / "game-00002.jsonl").write_text(log_text, encoding="utf-8")
    short = [i for i, line in enumerate(lines) if '"type": "action"' in line][6]
    (folder / "game-00001.jsonl").write_text("\n".join(lines[: short + 1]) + "\n", encoding="utf-8")
    runner = CliRunner()
    options = ["--samples", "2", "--no-luck", "--json"]

    def reviews(*extra: str) -> list[dict[str, object]]:
        done = runner.invoke(app, ["review", str(folder), *options, *extra])
        assert done.exit_code == 0, done.output
        found = [json.loads(line) for line in done.stdout.splitlines()]
        for one in found:
            one.pop("seconds")
        return found

    here = reviews()
    assert [one["log"] for one in here] == ["game-00001.jsonl", "game-00002.jsonl"]
    assert reviews("--jobs", "2") == here
    alone = runner.invoke(app, ["review", str(folder / "game-00002.jsonl"), *options])
    single = json.loads(alone.stdout)
    single.pop("seconds")
    assert {**single, "log": "game-00002.jsonl"} == here[1]


def test_cli_folder_errors_are_one_line_exit_2(tmp_path: Path, log_text: str) -> None:
    runner = CliRunner()
    empty = runner.invoke(app, ["review", str(tmp_path)])
    assert empty.exit_code == 2 and "no game logs" in empty.stderr
    (tmp_path / "a.jsonl").write_text(log_text, encoding="utf-8")
    plot = runner.invoke(app, ["review", str(tmp_path), "--plot", str(tmp_path / "p.png")])
    assert plot.exit_code == 2 and "one log" in plot.stderr
    jobs = runner.invoke(app, ["review", str(tmp_path / "a.jsonl"), "--jobs", "2"])
    assert jobs.exit_code == 2 and "folder" in jobs.stderr
    (tmp_path / "b.jsonl").write_text("not json\n", encoding="utf-8")
    bad = runner.invoke(app, ["review", str(tmp_path)])
    assert bad.exit_code == 2 and "b.jsonl" in bad.stderr and bad.stderr.count("\n") == 1


def test_a_player_who_could_go_out_and_did_not_is_judged() -> None:
    """Going out is a decision made right (its only option is itself: nothing beats it);
    not going out when one could is judged against it."""
    from gamescript import scripted

    from solver.engine import hint
    from solver.game import Draw, Play
    from solver.strategy.review import _decision_candidates

    state = scripted(GameSettings.manipulation(2), ["Kh Kd", "As"], "Kc 5d 9d", dealer=1)
    view = state.view(0)
    out = hint(view.position)
    assert out.goes_out
    went = _decision_candidates(view, Play(out.table), 5.0)
    assert went is not None
    alone, labels = went
    assert len(alone) == 1 and alone[0].found is not None and alone[0].found.goes_out and labels == ["made"]
    judged = _decision_candidates(view, Draw(), 5.0)
    assert judged is not None
    candidates, made = judged
    assert made == ["draw"] and any(c.found is not None and c.found.goes_out for c in candidates)


def test_the_plot_draws_the_same_round_lines_on_every_panel() -> None:
    """Round boundaries come from every seat's decisions and draws, not each panel's own
    points (a seat without a decision in a round used to put its line elsewhere)."""
    from solver.strategy.review import Decision, DrawLuck
    from solver.strategy.review_plot import _round_boundaries
    from solver.strategy.stats import Interval

    def decision(seat: int, action: int, round_number: int) -> Decision:
        zero = Interval(0.0, 0.0, 0.0)
        return Decision(round_number, seat, "meld", "/ 2c", "draw", "draw", zero, "ok", 2, 2, action=action)

    luck = DrawLuck(2, 0, "5h", 0.0, 0.0, Interval(0.0, 0.0, 0.0), action=11)
    found = Review(
        players=("a", "b"),
        decisions=(decision(0, 1, 1), decision(1, 6, 1), decision(0, 14, 2)),
        summaries=(),
        seconds=0.0,
        draws=(luck,),
    )
    assert _round_boundaries(found) == [(7 + 12) / 2]


def test_each_row_names_its_turn_as_the_replay_does(log_text: str, reviewed: Review, tmp_path: Path) -> None:
    """Issue 37: a review row names its round and turn, and ``rummy replay --show`` numbers
    the turns the same way, so the moment a row means can be found in the replay."""
    log = tmp_path / "game.jsonl"
    log.write_text(log_text, encoding="utf-8")
    shown = CliRunner().invoke(app, ["replay", "--show", str(log)])
    # the log is cut after round 1: the replay says it stops before the game's end (exit 1)
    assert shown.exit_code == 1 and "stops before the end of the game" in shown.output, shown.output
    seat_turns = {
        int(turn): int(seat)
        for seat, turn in re.findall(r"\(seat (\d)\): (?:final turn \()?turn (\d+)", shown.stdout)
    }
    assert reviewed.decisions
    turns = [decision.turn for decision in reviewed.decisions]
    assert turns == sorted(turns) and turns[0] >= 1
    for decision in reviewed.decisions:
        # the seat whose turn the replay says it is made the decision (seat 0's own turns
        # are announced too: the replay narrates every seat)
        assert seat_turns.get(decision.turn, decision.seat) == decision.seat, decision
        assert decision.to_dict()["turn"] == decision.turn
    table = CliRunner().invoke(app, ["review", str(log), "--seat", "0", "--samples", "2", "--no-luck"])
    assert table.exit_code == 0, table.output
    assert "turn" in table.stdout.split("Summary", 1)[0]


def test_the_plot_draws_no_line_across_a_round(tmp_path: Path) -> None:
    """Issue 37: the advised and made lines were drawn from a round's last decision to the
    next round's first; each round is its own segment now."""
    pytest.importorskip("matplotlib")
    from matplotlib.axes import Axes

    from solver.strategy.review import Decision
    from solver.strategy.review_plot import _score_panel
    from solver.strategy.stats import Interval

    def decision(action: int, round_number: int) -> Decision:
        zero = Interval(0.0, 0.0, 0.0)
        return Decision(round_number, 0, "meld", "/ 2c", "draw", "draw", zero, "ok", 2, 2, action=action)

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    summary = SeatSummary(0, "a", 4, {"ok": 4}, 0.0)
    found = Review(
        players=("a",),
        decisions=(decision(1, 1), decision(3, 1), decision(9, 2), decision(12, 2)),
        summaries=(summary,),
        seconds=0.0,
        draws=(),
    )
    figure, axes = plt.subplots()
    try:
        assert isinstance(axes, Axes)
        _score_panel(axes, found, 0, [6.0])
        drawn = [line for line in axes.get_lines() if line.get_color() in ("tab:blue", "tab:gray")]
        segments = [[float(x) for x in line.get_xdata()] for line in drawn]  # type: ignore[union-attr, arg-type]
    finally:
        plt.close(figure)
    # advised and made: one line each per round, none from x=4 (round 1) to x=10 (round 2)
    assert sorted(segments) == [[2.0, 4.0], [2.0, 4.0], [10.0, 13.0], [10.0, 13.0]], segments


@pytest.mark.parametrize("name", ["$\\frac{$", "a $x$ b", "$$", "pay $5 or $6"])
def test_the_plot_draws_any_player_name_as_written(name: str) -> None:
    """A player's name comes from the log (an imported one on the page): a name with
    dollar signs made matplotlib read it as mathematics, and a bad formula failed the
    whole review (a 500 on the page's review)."""
    pytest.importorskip("matplotlib")
    from solver.strategy.review import Decision
    from solver.strategy.review_plot import review_svg
    from solver.strategy.stats import Interval

    zero = Interval(0.0, 0.0, 0.0)
    decisions = tuple(
        Decision(1, 0, "meld", "/ 2c", "draw", "draw", zero, "ok", 2, 2, action=action) for action in (1, 3)
    )
    found = Review(
        players=(name,),
        decisions=decisions,
        summaries=(SeatSummary(0, name, 2, {"ok": 2}, 0.0),),
        seconds=0.0,
        draws=(),
    )
    svg = review_svg(found)
    assert f"({name})" in svg  # the title's text, as written, in the SVG's comment


def test_the_plot_of_one_review_is_the_same_svg_every_time() -> None:
    """The page shows the plot inline and keeps the review: matplotlib draws its SVG
    element ids from a random salt and writes the date unless told otherwise, so the same
    review gave a different document on each call."""
    pytest.importorskip("matplotlib")
    from solver.strategy.review import Decision
    from solver.strategy.review_plot import review_svg
    from solver.strategy.stats import Interval

    loss = Interval(3.0, -1.0, 7.0)
    decisions = tuple(
        Decision(1, 0, "meld", "/ 2c", "draw", "play", loss, "ok", 2, 2, action=action) for action in (1, 3)
    )
    found = Review(
        players=("ann",),
        decisions=decisions,
        summaries=(SeatSummary(0, "ann", 2, {"ok": 2}, 0.0),),
        seconds=0.0,
        draws=(),
    )
    first = review_svg(found)
    assert "clip" in first and review_svg(found) == first


@pytest.mark.skipif(not Path("/proc/self").is_dir(), reason="needs /proc (Linux)")
@pytest.mark.parametrize("option", ["--plot", "--puzzles"])
def test_an_output_the_system_refuses_is_found_before_the_review(
    log_text: str, tmp_path: Path, option: str
) -> None:
    """/proc takes no new files: the review ran to the end, printed, and only then failed."""
    path = tmp_path / "g.jsonl"
    path.write_text(log_text)
    target = "/proc/review-out.png" if option == "--plot" else "/proc/review-out.jsonl"
    done = CliRunner().invoke(app, ["review", str(path), "--samples", "2", option, target])
    assert done.exit_code == 2
    assert done.stdout == ""  # nothing reviewed
    assert done.stderr.startswith(f"error: {option} {target} cannot be written")
    assert done.stderr.count("\n") == 1


def test_the_move_made_is_the_play_alone_not_the_knock_it_was_weighed_with() -> None:
    """A play followed by no knock (the game left at the knock prompt) was reported as
    "play 4d 6d 7s, then knock": the option with the same cards that knocks stood for the
    move, and its words were printed; the knock is a decision of its own."""
    from solver.engine import hint
    from solver.strategy.advice import Option
    from solver.strategy.candidates import Candidate
    from solver.strategy.review import _made_words
    from solver.strategy.stats import Interval

    found = hint("5h 6h 7h / 8h 2c")
    nowhere = Interval(0.0, 0.0, 0.0)
    knocking = Candidate("best+knock", "play", (), found=found, knock=True)
    option = Option(candidate=knocking, value=nowhere, points=nowhere, win=nowhere, loss=nowhere)
    assert option.describe() == "play 8h, then knock"
    assert _made_words(option) == "play 8h"


def test_a_seat_without_a_decision_shows_no_accuracy(capsys: pytest.CaptureFixture[str]) -> None:
    """A seat with no decision to judge printed accuracy 100 and 0% errors: figures of nothing."""
    from solver.cli.review import print_review

    found = Review(
        players=("ann", "bob"),
        decisions=(),
        summaries=(SeatSummary(0, "ann", 0, {}, 0.0), SeatSummary(1, "bob", 0, {}, 0.0)),
        seconds=0.0,
        draws=(),
    )
    print_review(found)
    rows = [
        line
        for line in capsys.readouterr().out.splitlines()
        if line.startswith("│") and (" ann " in line or " bob " in line)
    ]
    assert rows and all("100" not in row and "%" not in row for row in rows), rows
