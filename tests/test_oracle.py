"""The oracle: a measurement bot that sees the hidden cards through one explicit channel,
never offered as a player."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from gamescript import scripted
from typer.testing import CliRunner

from solver.cli import app
from solver.game import Action, GameSettings, PlayerView, RoundState, play_game
from solver.game.deck import full_deck, piece_counts
from solver.strategy import BOTS, make_bot, make_bots
from solver.strategy.bots import GreedyBot
from solver.strategy.match import run_match
from solver.strategy.oracle import HandsOracleBot, OracleBot
from solver.strategy.registry import MEASUREMENT_BOTS

runner = CliRunner()
ROOT = Path(__file__).resolve().parent.parent


def test_the_oracle_is_no_player() -> None:
    assert "oracle" not in BOTS and "oracle" in MEASUREMENT_BOTS
    with pytest.raises(ValueError, match="sees the hidden cards"):
        make_bot("oracle")
    with pytest.raises(ValueError, match="never a player"):
        make_bots(["greedy", "Oracle "], seed=1)
    assert isinstance(make_bot("oracle", measurement=True), OracleBot)


@pytest.mark.parametrize(
    "args",
    [
        ["play", "--bots", "oracle"],
        ["play", "--bots", "greedy,oracle", "--players", "3"],
        ["tournament", "--bots", "oracle,greedy", "--games", "1"],
    ],
)
def test_rummy_play_and_tournament_refuse_the_oracle(args: list[str]) -> None:
    result = runner.invoke(app, args, input="quit\n")
    assert result.exit_code == 2, result.output
    assert "sees the hidden cards" in result.output and "Traceback" not in result.output


def test_only_the_match_offers_the_oracle() -> None:
    assert "oracle" not in runner.invoke(app, ["play", "--help"]).output
    assert "oracle" not in runner.invoke(app, ["tournament", "--help"]).output
    assert "oracle" in runner.invoke(app, ["match", "--help"]).output


def test_the_service_knows_no_oracle() -> None:
    from service.app import create_app
    from service.settings import Settings

    schema = json.dumps(create_app(Settings(executor="thread", workers=1)).openapi())
    assert "oracle" not in schema.lower()
    for path in (ROOT / "service").rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        assert "MEASUREMENT_BOTS" not in text and "strategy.oracle" not in text, path


def test_the_oracle_plays_only_when_shown_the_round() -> None:
    state = scripted(GameSettings.rummikub_peer(), ["r1 r2 r3 k5", "b9 b10"], "o4 o5 o6", dealer=1)
    with pytest.raises(RuntimeError, match="hidden cards"):
        OracleBot().act(state.view(0))


class SeeingSpy:
    """Greedy, and checks what the seeing channel shows it; then spoils the copy it was given."""

    def __init__(self) -> None:
        self.greedy = GreedyBot()
        self.seen = 0

    def act(self, view: PlayerView) -> Action:
        raise AssertionError("a seeing seat is always shown the round")

    def act_seeing(self, view: PlayerView, state: RoundState) -> Action:
        assert list(state.hand(view.seat).pieces) == list(view.hand.pieces)
        assert tuple(len(hand) for hand in state.hands) == view.hand_sizes
        assert len(state.stock) == view.stock_size and state.table == view.table
        everything = [*state.stock, *state.table.pieces, *(piece for hand in state.hands for piece in hand)]
        assert piece_counts(everything) == piece_counts(full_deck(view.variant))
        self.seen += 1
        action = self.greedy.act(view)
        state.stock.clear()  # the game never reads the copy back
        for hand in state.hands:
            hand.clear()
        return action


def test_the_seeing_channel_shows_a_copy_of_the_whole_round() -> None:
    settings = GameSettings.machiavelli(2)
    spy = SeeingSpy()
    seen = play_game(settings, [spy, GreedyBot()], seed=4, seeing=[0])
    plain = play_game(settings, [GreedyBot(), GreedyBot()], seed=4)
    assert spy.seen > 0
    assert (seen.final, seen.winners, len(seen.rounds)) == (plain.final, plain.winners, len(plain.rounds))
    with pytest.raises(TypeError, match="cannot be shown the round"):
        play_game(settings, [GreedyBot(), GreedyBot()], seed=4, seeing=[1])


def test_the_oracles_one_deal_is_the_true_round_afresh() -> None:
    state = scripted(GameSettings.rummikub_peer(), ["r1 r2 r3 k5", "b9 b10 b11 o2"], "o4 o5 o6", dealer=1)
    oracle = OracleBot()
    oracle._state = state.snapshot()
    deal = oracle.deals(state.view(0), [7])
    first, second = deal(0), deal(0)
    assert first is not second and first.hands == state.hands and first.stock == state.stock
    first.hands[1].clear()
    assert second.hands[1] == state.hands[1]


def test_a_match_shows_the_oracle_the_round_and_repeats() -> None:
    settings = GameSettings.rummikub_peer()
    first = run_match("oracle", "greedy-tiles", pairs=1, seed=2, settings=settings)
    again = run_match("oracle", "greedy-tiles", pairs=1, seed=2, settings=settings)
    assert first.entries[0].counters["decisions"] > 0
    drop = {"timing"}
    assert {k: v for k, v in first.to_dict().items() if k not in drop} == {
        k: v for k, v in again.to_dict().items() if k not in drop
    }
    assert Counter(game.a_seat for game in first.pairs[0].games) == Counter({0: 1, 1: 1})


def test_the_oracle_plays_manipulation_rummy_too() -> None:
    """The README's `rummy match oracle hoarder` (Manipulation Rummy, the default) failed at
    the first rollout it valued: the true round's rollout had no ``race`` (it is set only
    for first-out games), so valuing it raised AttributeError."""
    result = run_match("oracle", "hoarder", pairs=1, seed=1)
    assert result.entries[0].counters["decisions"] > 0
    assert len(result.pairs[0].games) == 2


def test_oracle_others_sees_the_other_hands_but_deals_the_stock_afresh() -> None:
    """``oracle-others`` splits the oracle's lead: its deals hold the true hands and table,
    and the true stock's cards in an order of each deal's own seed."""
    state = scripted(
        GameSettings.rummikub_peer(), ["r1 r2 r3 k5", "b9 b10 b11 o2"], "o4 o5 o6 o7 o8 o9 b1 b2", dealer=1
    )
    bot = make_bot("oracle-others", measurement=True)
    assert isinstance(bot, HandsOracleBot) and "oracle-others" not in BOTS
    bot._state = state.snapshot()
    deal = bot.deals(state.view(0), list(range(8)))
    orders = set()
    for index in range(8):
        made = deal(index)
        assert made.hands == state.hands and made.table == state.table
        assert sorted(map(str, made.stock)) == sorted(map(str, state.stock))
        assert made.dealt == tuple(made.stock) and made.heads == [0, len(made.stock) // 2]
        assert [str(p) for p in deal(index).stock] == [str(p) for p in made.stock]  # the seed's order
        orders.add(tuple(map(str, made.stock)))
    assert len(orders) > 1  # the seeds deal different orders


def test_oracle_others_plays_a_match_and_is_no_player() -> None:
    with pytest.raises(ValueError, match="never a player"):
        make_bot("oracle-others")
    settings = GameSettings.rummikub_peer()
    result = run_match("oracle-others", "greedy-tiles", pairs=1, seed=2, settings=settings)
    assert result.entries[0].counters["decisions"] > 0
    again = run_match("oracle-others", "greedy-tiles", pairs=1, seed=2, settings=settings)

    def games(match: object) -> list[tuple[object, ...]]:
        return [(g.final, g.actions, g.counters, g.deals) for g in match.pairs[0].games]  # type: ignore[attr-defined]

    assert games(result) == games(again)  # the same seed, the same games
