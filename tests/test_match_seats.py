"""Matches of 3 or more seats: every deal once per seat rotation, shares per bot name with a
deal-clustered interval, the same results for any number of workers, the CLI."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from typer.testing import CliRunner

from solver.cli import app
from solver.game import Action, GameSettings, Play, PlayerView
from solver.strategy.bots import Bot
from solver.strategy.match import MatchSpec, play_pair, run_match, seating, win_shares
from solver.strategy.match_summary import share_stats
from solver.strategy.stats import Interval, clustered_share, clustered_wilson, wilson_interval

runner = CliRunner()


class SeatSpy(Bot):
    """Greedy, and counts the seat it is shown (its counters reach the match's records)."""

    name = "seat-spy"

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.counters: Counter[str] = Counter()

    def act(self, view: PlayerView) -> Action:
        self.counters[f"seat {view.seat}"] = 1
        found = self.best_play(view)
        return Play(found.table) if found.has_play else view.decline()


SPY = f"{Path(__file__).resolve()}:SeatSpy"


def _close(found: Interval, expected: Interval) -> bool:
    return (found.estimate, found.low, found.high) == pytest.approx(
        (expected.estimate, expected.low, expected.high)
    )


def _results(data: dict[str, object]) -> dict[str, object]:
    return {key: value for key, value in data.items() if key != "timing"}


def test_seating_rotates_the_whole_seat_list() -> None:
    assert seating(2, 0) == (0, 1) and seating(2, 1) == (1, 0)  # the mirrored pair
    games = [seating(4, rotation) for rotation in range(4)]
    assert [game.index(0) for game in games] == [0, 1, 2, 3]  # the focus in every seat
    for entry in range(4):  # and so is every other entry
        assert sorted(game.index(entry) for game in games) == [0, 1, 2, 3]
    assert games[1] == (3, 0, 1, 2)  # cyclic: the order around the table is kept


def test_every_entry_plays_every_seat_of_the_same_deal() -> None:
    spec = MatchSpec((SPY, SPY, SPY, SPY), GameSettings.machiavelli(4), seed=5)
    deal = play_pair(spec, 0)
    assert [game.a_seat for game in deal.games] == [0, 1, 2, 3]
    assert len({game.deals[0] for game in deal.games}) == 1  # one deal, four games
    for rotation, game in enumerate(deal.games):
        for entry in range(4):
            assert game.counters[entry] == {f"seat {(entry + rotation) % 4}": 1}
    for game in deal.games:
        assert sum(game.shares) == pytest.approx(1)
        assert game.score == game.shares[0]


def test_shares_split_ties_and_games_without_a_winner() -> None:
    assert win_shares((2,), 4) == (0.0, 0.0, 1.0, 0.0)
    assert win_shares((0, 1), 3) == (0.5, 0.5, 0.0)
    assert win_shares((), 4) == (0.25,) * 4


def test_a_seat_match_repeats_whatever_the_workers() -> None:
    settings = GameSettings.machiavelli(3)
    alone = run_match("greedy", "hoarder", "random", pairs=4, seed=9, settings=settings, jobs=1)
    pooled = run_match(
        "greedy", "hoarder", "random", pairs=4, seed=9, settings=settings, jobs=2, chunk_size=1
    )
    assert _results(alone.to_dict()) == _results(pooled.to_dict())
    assert [deal.index for deal in pooled.pairs] == [0, 1, 2, 3]
    other = run_match("greedy", "hoarder", "random", pairs=4, seed=10, settings=settings)
    assert [d.games[0].deals for d in other.pairs] != [d.games[0].deals for d in alone.pairs]


def test_a_seat_match_totals_per_name() -> None:
    result = run_match(
        "greedy", "hoarder", "hoarder", "hoarder", pairs=2, seed=1, settings=GameSettings.rummikub(4)
    )
    assert result.games == 8 and result.elo is None and result.sprt is None
    greedy, hoarder = result.shares
    assert (greedy.bot, greedy.seats, hoarder.bot, hoarder.seats) == ("greedy", 1, "hoarder", 3)
    assert greedy.won + hoarder.won == pytest.approx(8)
    assert greedy.share.estimate == pytest.approx(greedy.won / 8)
    assert hoarder.share.estimate == pytest.approx(hoarder.won / 24)  # per seat
    assert greedy.chance == hoarder.chance == 0.25
    assert result.score == greedy.share
    assert [entry.label for entry in result.entries] == ["greedy", "hoarder#1", "hoarder#2", "hoarder#3"]
    data = result.to_dict()
    json.dumps(data, allow_nan=False)
    assert data["deals"] == 2 and data["players"] == 4 and "shares" in data and "a_score" not in data


def test_seat_matches_refuse_what_needs_two_bots() -> None:
    with pytest.raises(ValueError, match="SPRT compares two bots"):
        run_match(
            "greedy", "random", "random", pairs=2, settings=GameSettings.machiavelli(3), sprt_elo=(0, 50)
        )
    with pytest.raises(ValueError, match="3 bots needs 3-player settings"):
        run_match("greedy", "random", "random", pairs=1, settings=GameSettings.machiavelli(2))
    with pytest.raises(ValueError, match="at least two bots"):
        run_match("greedy", pairs=1)


# -- the deal-clustered interval on constructed examples ---------------------------------


def test_two_seat_deals_give_the_pairs_interval() -> None:
    pairs = [0.0] * 30 + [2.0] * 40 + [1.0] * 30 + [0.5] * 3
    assert clustered_share([score / 2 for score in pairs], 2) == clustered_wilson(pairs)


def test_deals_spread_as_independent_games_give_the_plain_wilson_interval() -> None:
    # 256 deals of 4 games whose wins follow Binomial(4, 1/4) exactly: no clustering.
    counts = {0: 81, 1: 108, 2: 54, 3: 12, 4: 1}
    means = [wins / 4 for wins, deals in counts.items() for _ in range(deals)]
    assert _close(clustered_share(means, 4), wilson_interval(256, 1024))


def test_deals_won_whole_count_as_one_game_each() -> None:
    # Every deal won in all 4 games or in none: the 4 games are worth one.
    means = [1.0] * 30 + [0.0] * 70
    interval = clustered_share(means, 4)
    assert _close(interval, wilson_interval(30, 100))
    assert interval.high - interval.low > wilson_interval(120, 400).high - wilson_interval(120, 400).low


def test_the_cluster_interval_by_hand() -> None:
    # Means 0, 1/4, 1/2 (one deal each), 4 games a deal: p = 1/4, spread 1/24, binomial
    # variance 3/64, so the design effect is 1 and the 12 games count in full.
    assert _close(clustered_share([0.0, 0.25, 0.5], 4), wilson_interval(3, 12))
    # Means 0 and 1/2: p = 1/4, spread 1/16 > 3/64, deff 4/3: 8 games worth 6.
    assert _close(clustered_share([0.0, 0.5], 4), wilson_interval(1.5, 6))


@pytest.mark.parametrize(("means", "message"), [([], "no deals"), ([1.5], "between 0 and 1")])
def test_the_cluster_interval_refuses_impossible_input(means: list[float], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        clustered_share(means, 4)


@dataclass
class FakeGame:
    shares: tuple[float, ...]
    final: tuple[int, ...] = (0, 0, 0, 0)
    ms: tuple[tuple[float, ...], ...] = field(default_factory=lambda: ((1.0,), (2.0,), (3.0,), (4.0,)))


def test_a_name_entered_three_times_counts_per_seat() -> None:
    deals = [
        [FakeGame((1, 0, 0, 0)), FakeGame((0, 1, 0, 0)), FakeGame((0, 0, 1, 0)), FakeGame((0, 0, 0, 1))],
        [FakeGame((1, 0, 0, 0)), FakeGame((1, 0, 0, 0)), FakeGame((0.5, 0.5, 0, 0)), FakeGame((0, 0, 0, 1))],
    ]
    focus, crowd = share_stats(("pimc", "hoarder", "hoarder", "hoarder"), deals)  # type: ignore[arg-type]
    assert focus.won == 3.5 and crowd.won == 4.5
    assert focus.share == clustered_share([0.25, 0.625], 4)
    assert crowd.share == clustered_share([0.75 / 3, 0.375 / 3], 4)
    assert crowd.median_ms == 3.0 and focus.median_ms == 1.0


# -- the command ---------------------------------------------------------------------------


def test_cli_match_of_three_seats_prints_shares_against_chance() -> None:
    args = [
        "match",
        "greedy",
        "hoarder",
        "hoarder",
        "--deals",
        "2",
        "--variant",
        "machiavelli",
        "--seed",
        "3",
    ]
    first = runner.invoke(app, args)
    assert first.exit_code == 0, first.output
    assert (
        "win share" in first.output
        and "33.3% by chance" in first.output
        and "deals as clusters" in first.output
    )
    again = runner.invoke(app, args)
    lines = [line for line in first.output.splitlines() if "by chance" in line]
    assert lines == [line for line in again.output.splitlines() if "by chance" in line]
    data = json.loads(runner.invoke(app, [*args, "--json"]).output)
    assert data["deals"] == 2 and [share["bot"] for share in data["shares"]] == ["greedy", "hoarder"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["greedy"], "at least two bots"),
        (["greedy", "random", "random", "--sprt", "0,50"], "--sprt compares two bots"),
        (["greedy", "random", "random", "--players", "2"], "played by 3 players, not 2"),
        (["greedy", "random", "random", "--variant", "rummikub-peer"], "2 players, not 3"),
        (["greedy", "random", "random", "random", "random", "--variant", "rummikub"], "2-4 players"),
        (["greedy", "random", "random", "--deals", "0"], "between 1"),
    ],
)
def test_cli_seat_match_bad_input_is_one_line_and_exit_2(args: list[str], message: str) -> None:
    result = runner.invoke(app, ["match", *args])
    assert result.exit_code == 2, result.output
    assert message in result.output
    assert "Traceback" not in result.output
