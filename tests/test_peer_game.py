"""The published peer's game (``rummikub-peer``): no jokers, the first out wins, a 30-point
opening from the rack, a turn limit with no winner, an empty stock that ends nothing; and
``greedy-tiles``, which lays the most tiles it can."""

from __future__ import annotations

import dataclasses
import io
import json

import pytest
from gamescript import scripted, scripted_game
from typer.testing import CliRunner

from solver.cards import Joker
from solver.cli import app
from solver.engine import hint
from solver.game import Action, Draw, GameSettings, Play, PlayerView, play_game
from solver.game.game import Dealt, GameEvent
from solver.game.log import LogWriter, read_log, replay
from solver.position import Table
from solver.strategy.bots import GreedyBot, GreedyTilesBot
from solver.strategy.match import run_match
from solver.strategy.rollout import Rollout, RolloutSettings, play_out, utility

runner = CliRunner()
PEER = GameSettings.rummikub_peer()


class Drawer:
    """Never melds: draws (a pass once the stock is empty)."""

    def act(self, view: PlayerView) -> Action:
        return view.decline()


def test_the_preset_is_jokerless_two_player_rummikub_with_a_turn_limit() -> None:
    assert GameSettings.named("rummikub-peer") == PEER
    assert PEER.players == 2 and PEER.variant.name == "rummikub" and PEER.preset == "rummikub-peer"
    assert PEER.variant.jokers == 0 and PEER.variant.deck_size == 104 and PEER.variant.hand_size == 14
    assert PEER.variant.opening_points == 30 and PEER.scoring == "first_out" and PEER.turn == "meld_or_draw"
    assert PEER.turn_limit == 200 and not PEER.blocked_ends
    with pytest.raises(ValueError, match="2 players, not 3"):
        GameSettings.named("rummikub-peer", 3)
    assert GameSettings.rummikub(2).turn_limit is None and GameSettings.rummikub(2).blocked_ends


def test_no_joker_is_ever_dealt() -> None:
    dealt: list[Dealt] = []

    def listen(event: GameEvent) -> None:
        if isinstance(event, Dealt):
            dealt.append(event)

    for seed in range(5):
        play_game(PEER, [GreedyTilesBot(), Drawer()], seed=seed, listeners=[listen])
    for event in dealt:
        pieces = [*event.stock, *(piece for hand in event.hands for piece in hand)]
        assert len(pieces) == 104 and not any(isinstance(piece, Joker) for piece in pieces)


def test_the_first_to_empty_the_rack_wins() -> None:
    game = scripted_game(PEER, ["r1 r2 r3", "k5 k6 b9"], "o1 o2 o3 o4", dealer=1)
    assert game.to_move == 0
    game.apply(Draw())  # seat 0 has only 6 points: no opening yet
    game.apply(Draw())
    assert game.result is None
    found = hint(game.view(0).position, variant=PEER.variant, opened=False)
    assert not found.has_play  # r1 r2 r3 (and the o1 drawn) make 6 points, not 30
    game = scripted_game(PEER, ["r10 r11 r12", "k5 k6 b9"], "o1 o2 o3 o4", dealer=1)
    game.apply(Play(hint(game.view(0).position, variant=PEER.variant, opened=False).table))
    assert game.result is not None and game.result.winners == (0,)
    assert game.result.rounds[0].end.reason == "out" and game.result.final == (20, -20)


def test_the_opening_comes_from_the_rack_alone() -> None:
    # Unopened, r1 r2 r3 would extend the table's run, but an opening leaves the table
    # as it was and needs 30 points from the rack: no play.  Opened, it lays them off.
    state = scripted(PEER, ["r1 r2 r3 k5", "b9 b10 b11 o2"], "o4 o5 o6", dealer=1)
    state.table = Table.parse("r4 r5 r6")
    view = state.view(0)
    assert not view.opened
    assert GreedyTilesBot().act(view) == Draw()
    state.opened[0] = True
    played = GreedyTilesBot().act(state.view(0))
    assert isinstance(played, Play) and len(played.table.pieces) == 6
    big = scripted(PEER, ["r10 b10 k10 r1 r2 r3", "b9 b10"], "o4", dealer=1).view(0)
    opening = GreedyTilesBot().act(big)
    assert isinstance(opening, Play) and len(opening.table.pieces) == 6  # 36 points, all six


def test_greedy_tiles_lays_the_most_tiles_greedy_the_most_points() -> None:
    class Checked(GreedyTilesBot):
        def act(self, view: PlayerView) -> Action:
            action = super().act(view)
            most = hint(view.position, variant=view.variant, objective="cards", opened=view.opened)
            laid = len(action.table.pieces) - len(view.table.pieces) if isinstance(action, Play) else 0
            assert laid == (len(most.played) if most.has_play else 0)
            self.checked = getattr(self, "checked", 0) + 1
            return action

    checked = Checked()
    play_game(PEER, [checked, GreedyBot()], seed=3)
    assert checked.checked > 10


def test_the_turn_limit_ends_the_game_without_a_winner() -> None:
    short = dataclasses.replace(PEER, turn_limit=6)
    result = play_game(short, [Drawer(), Drawer()], seed=1)
    (only,) = result.rounds
    assert only.end.reason == "limit" and result.winners == () and only.score.scores == (0, 0)
    assert sum(map(len, only.hands)) == 28 + 6  # six turns, six draws
    data = run_match("greedy", "random", pairs=1, seed=1, settings=dataclasses.replace(PEER, turn_limit=2))
    assert data.timeouts == 2 and data.entries[0].won == data.entries[1].won == 1.0
    assert data.to_dict()["timeouts"] == 2


def test_an_empty_stock_ends_nothing_in_the_peers_game() -> None:
    hands = ["r1 r5 b9", "k2 k7 o11"]
    blocked = scripted_game(dataclasses.replace(GameSettings.rummikub(2)), hands, "o3", dealer=1)
    while blocked.result is None:
        blocked.apply(Draw())
    assert blocked.result.rounds[0].end.reason == "blocked" and blocked.result.winners == (0,)
    peer = scripted_game(dataclasses.replace(PEER, turn_limit=12), hands, "o3", dealer=1)
    turns = 0
    while peer.result is None:
        peer.apply(Draw())
        turns += 1
    assert peer.result.rounds[0].end.reason == "limit" and turns == 12 and peer.result.winners == ()


def test_a_peer_game_logs_and_replays() -> None:
    stream = io.StringIO()
    writer = LogWriter(stream, PEER, seed=2, players=["greedy-tiles", "greedy"])
    play_game(PEER, [GreedyTilesBot(), GreedyBot()], seed=2, listeners=[writer])
    records = read_log(stream.getvalue().splitlines())
    assert records[0]["settings"]["preset"] == "rummikub-peer"  # type: ignore[index]
    assert replay(records).ok
    assert GameSettings.from_description(PEER.describe()) == PEER
    old = {**GameSettings.rummikub(2).describe(), "preset": None}  # a log from before presets
    assert GameSettings.from_description(old) == GameSettings.rummikub(2)
    with pytest.raises(ValueError, match="preset"):
        GameSettings.from_description({**PEER.describe(), "hand_size": 14, "preset": "rummikub"})


def test_cli_match_in_the_peers_game_reports_timeouts() -> None:
    result = runner.invoke(
        app, ["match", "greedy-tiles", "greedy", "--pairs", "1", "--variant", "rummikub-peer"]
    )
    assert result.exit_code == 0, result.output
    assert "rummikub-peer" in result.output and "reached the limit of 200 turns" in result.output


def test_a_rollout_that_reaches_the_limit_gives_no_win_bonus() -> None:
    state = scripted(dataclasses.replace(PEER, turn_limit=3), ["r1 r5 b9", "k2 k7 o11"], "o3 o4 o8", dealer=1)
    rollout = Rollout.of_state(state)
    assert rollout.hands == state.hands and rollout.turns == state.turns == 1

    def draw(_state: Rollout, _settings: RolloutSettings) -> Action:
        return Draw()

    play_out(rollout, RolloutSettings(horizon=10), {0: draw, 1: draw})
    assert rollout.end is not None and rollout.end.reason == "limit"
    assert utility(rollout, 0) == utility(rollout, 1) == 0
    assert state.end is None and len(state.stock) == 3  # the round it copied is untouched


def test_a_position_of_the_peers_game_is_analysed_and_advised_with_its_deck() -> None:
    """``--variant rummikub-peer`` on the position commands: the jokerless deck (93 unseen
    tiles beside a table of 6 and a rack of 5, not Rummikub's 95), a joker refused, and
    the preset named in the output."""
    from solver.variants import Variant

    assert Variant.named("rummikub-peer") == PEER.variant and PEER.variant.preset == "rummikub-peer"
    assert Variant.rummikub(players=2).preset == "rummikub"
    runner = CliRunner()
    position = "1s 2s 3s | 5d 5c 5s / 4s 7h 8h 9h 11d"
    found = runner.invoke(app, ["analyze", position, "--variant", "rummikub-peer"])
    assert found.exit_code == 0, found.output
    assert "Game: rummikub-peer, 2 players" in found.output and "no jokers; 93 unseen tiles" in found.output
    advised = runner.invoke(
        app, ["advise", position, "--variant", "rummikub-peer", "--samples", "2", "--json"]
    )
    assert advised.exit_code == 0, advised.output
    facts = json.loads(advised.output)["facts"]
    assert facts["variant"] == "rummikub-peer" and facts["unseen"] == 93 and facts["jokers"] == 0
    hinted = runner.invoke(app, ["hint", position, "--variant", "rummikub-peer", "--json"])
    assert json.loads(hinted.output)["variant"] == "rummikub-peer"
    joker = runner.invoke(app, ["hint", position + " *", "--variant", "rummikub-peer"])
    assert joker.exit_code == 2 and "holds 0" in joker.output
    three = runner.invoke(app, ["analyze", position, "--variant", "rummikub-peer", "--players", "3"])
    assert three.exit_code == 2 and "played by 2 players, not 3" in three.output
