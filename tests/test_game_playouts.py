"""Invariants over seeded random playouts, in each variant.

After every action: each card of the deck is in the stock, a hand or the table exactly
once; the table is legal; what a player's view calls unseen is exactly the stock and
the other hands.  After every round and game: the scores follow from the hands.  Now
and then an illegal action is tried and must change nothing.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from gamescript import snapshot

from solver.cards import Card
from solver.game import Action, Draw, Game, GameSettings, IllegalActionError, Knock, Pass, Play
from solver.game.deck import full_deck, piece_counts
from solver.game.game import GameEvent, RoundEnded
from solver.game.scoring import game_bonuses, score_round, winners_of
from solver.game.state import RoundState
from solver.position import Hand, Position, Table
from solver.strategy import make_bots


def check_round(state: RoundState) -> None:
    settings = state.settings
    assert state.piece_counts() == piece_counts(full_deck(settings.variant))
    assert Position(state.table, Hand()).problems(settings.variant) == []
    seat = state.to_move
    view = state.view(seat)
    hidden: Counter[Card | None] = piece_counts(state.stock)
    for other, hand in enumerate(state.hands):
        if other != seat:
            hidden.update(piece_counts(hand))
    assert piece_counts(view.unseen()) == hidden
    assert view.hand_sizes == tuple(len(hand) for hand in state.hands)
    assert view.stock_size == len(state.stock)


def try_illegal(state: RoundState, rng: random.Random) -> None:
    """An action the rules forbid now must raise and leave the state as it was."""
    view = state.view(state.to_move)
    candidates: list[Action] = [Draw(), Knock(), Pass(), Play(state.table)]
    if len(view.hand) >= 2:
        # Two hand cards alone on the table: never a legal meld.
        two = view.hand.pieces[:2]
        if all(isinstance(piece, Card) for piece in two):
            candidates.append(
                Play(Table.parse(" | ".join(filter(None, [str(state.table), f"{two[0]} {two[1]}"]))))
            )
    illegal = [action for action in candidates if view.problems(action)]
    assert Play(state.table) in illegal  # a play must add a hand card
    action = rng.choice(illegal)
    before = snapshot(state)
    with pytest.raises(IllegalActionError) as caught:
        state.apply(action)
    assert caught.value.reasons == view.problems(action)
    assert snapshot(state) == before


def playout(settings: GameSettings, bots: list[str], seed: int) -> tuple[int, int]:
    """Play one seeded game with invariant checks; return (rounds, actions)."""
    rounds: list[RoundEnded] = []

    def listen(event: GameEvent) -> None:
        if isinstance(event, RoundEnded):
            rounds.append(event)

    players = make_bots(bots, seed)
    game = Game(settings, seed=seed, listeners=[listen])
    rng = random.Random(seed)
    actions = 0
    check_round(game.round)
    while game.result is None:
        if rng.random() < 0.05:
            try_illegal(game.round, rng)
        seat = game.to_move
        game.apply(players[seat].act(game.view(seat)))
        actions += 1
        if game.result is None:
            check_round(game.round)
    result = game.result
    totals = [0] * settings.players
    won = [0] * settings.players
    for event in rounds:
        record = event.record
        assert record.end.hand_points == tuple(Hand(hand).points(settings.variant) for hand in record.hands)
        assert record.score == score_round(record.end, settings)
        if record.end.out is not None:
            assert record.hands[record.end.out] == ()
        totals = [total + gained for total, gained in zip(totals, record.score.scores, strict=True)]
        for seat in record.score.winners:
            won[seat] += 1
        assert record.totals == tuple(totals)
    assert result.totals == tuple(totals)
    assert result.bonuses == game_bonuses(totals, won, settings)
    assert result.final == tuple(t + b for t, b in zip(totals, result.bonuses, strict=True))
    assert result.winners == winners_of(result.final)
    if settings.plays_to_target:
        assert max(totals) >= 150
        assert all(max(record.totals) < 150 for record in result.rounds[:-1])
    else:
        assert len(result.rounds) == 1
        assert sum(result.final) >= 0
    return len(result.rounds), actions


@pytest.mark.parametrize(
    ("settings", "bots", "seed"),
    [
        (GameSettings.manipulation(2), ["random", "random"], 1),
        (GameSettings.manipulation(2, knock_only_after_meld=True), ["greedy", "random"], 2),
        (GameSettings.manipulation(3, round_bonus_to_all=True), ["random", "greedy", "random"], 3),
        (GameSettings.manipulation(5), ["random"] * 5, 4),
        (GameSettings.manipulation(2), ["expert", "random"], 5),
    ],
    ids=["2p", "2p-knock-after-meld", "3p-bonus-to-all", "5p", "2p-expert"],
)
def test_manipulation_playouts(settings: GameSettings, bots: list[str], seed: int) -> None:
    rounds, actions = playout(settings, bots, seed)
    assert rounds >= 1 and actions > 10


@pytest.mark.parametrize("players", [2, 3, 4])
def test_rummikub_playouts(players: int) -> None:
    for seed in range(2):
        playout(
            GameSettings.rummikub(players),
            ["random", "greedy", "random", "random"][:players],
            10 * players + seed,
        )


@pytest.mark.parametrize("players", [2, 3, 6])
def test_machiavelli_playouts(players: int) -> None:
    bots = (["greedy", "random", "expert"] * 2)[:players]
    for seed in range(2):
        playout(GameSettings.machiavelli(players), bots, 20 * players + seed)


def test_same_seed_same_game() -> None:
    settings = GameSettings.manipulation(3)
    first = Game(settings, seed=7)
    second = Game(settings, seed=7)
    assert [list(hand) for hand in first.round.hands] == [list(hand) for hand in second.round.hands]
    assert first.round.stock == second.round.stock and first.dealer == second.dealer
    assert [list(hand) for hand in Game(settings, seed=8).round.hands] != [list(h) for h in first.round.hands]
