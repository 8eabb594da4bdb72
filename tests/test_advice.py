"""Advice for one turn: legal options, ranked by value, reproducible by seed, defaults stated."""

from __future__ import annotations

import dataclasses

import pytest

from solver.cards import Card, NotationError, Piece
from solver.facts import EmptyHandError
from solver.game.view import PlayerView
from solver.position import Hand, Position
from solver.referee import check_play
from solver.strategy.advice import Advice, AdviceError, Option, advise
from solver.strategy.candidates import Candidate
from solver.strategy.evaluator import Deal
from solver.strategy.stats import Interval

DONE_WHEN = "5s 6s 7s | 9h 9d 9c | Jd Qd Kd / 8s 9s 2c 2d *"
MID_GAME = "Kh Kd Kc | 4s 5s 6s / 2h 3h 9c 9d 9s Ks 3s 7c"


def quick(position: str, **options: object) -> Advice:
    """A small, machine-independent run: a fixed number of deals and a budget that never binds."""
    settings: dict[str, object] = {"samples": 4, "budget_seconds": 600, "seed": 1}
    settings.update(options)
    return advise(position, **settings)  # type: ignore[arg-type]


@pytest.fixture(scope="module")
def done_when() -> Advice:
    return quick(DONE_WHEN, players=2)


def test_every_advised_play_is_legal(done_when: Advice) -> None:
    plays = [option for option in done_when.options if option.hint is not None]
    assert plays, "the position has plays"
    for option in plays:
        assert option.hint is not None
        verdict = check_play(done_when.position, option.hint.table, variant=option.hint.variant)
        assert verdict.ok, (option.label, verdict.reasons)


def test_options_are_ranked_by_value_best_first(done_when: Advice) -> None:
    values = [option.value.estimate for option in done_when.options]
    assert values == sorted(values, reverse=True)
    assert done_when.best.loss.estimate == 0
    assert all(option.loss.estimate >= 0 for option in done_when.options)
    # Going out with the whole hand wins every deal: it must come first.
    assert done_when.best.hint is not None and done_when.best.hint.goes_out
    assert done_when.best.win.estimate == 1


def test_hold_backs_are_weighed() -> None:
    labels = [option.label for option in quick(MID_GAME).options]
    assert any(label.startswith("hold:") for label in labels), labels


def test_options_cover_draw_and_distinct_plays(done_when: Advice) -> None:
    kinds = [option.kind for option in done_when.options]
    assert kinds.count("draw") == 1
    played = {
        (tuple(sorted(map(str, option.played))), option.knock)
        for option in done_when.options
        if option.hint is not None
    }
    assert len(played) == kinds.count("play"), "no play weighed twice"


def test_knock_and_pass_both_weighed_when_the_play_may_knock(done_when: Advice) -> None:
    # Playing 8s 9s * leaves 2c 2d (4 points): the hand may knock, so both come up.
    knocks = {
        option.knock for option in done_when.options if option.hint is not None and not option.hint.goes_out
    }
    assert {True, False} <= knocks


def test_reproducible_by_seed() -> None:
    first = quick(MID_GAME, seed=7).to_dict()
    second = quick(MID_GAME, seed=7).to_dict()
    for data in (first, second):
        data.pop("seconds")
    assert first == second


def test_intervals_contain_their_estimates(done_when: Advice) -> None:
    for option in done_when.options:
        for interval in (option.value, option.points, option.win, option.loss):
            assert interval.low <= interval.estimate <= interval.high
        assert 0 <= option.win.low <= option.win.high <= 1


def test_defaults_are_stated() -> None:
    found = quick(MID_GAME)
    facts = found.to_dict()["facts"]
    assert facts["assumed"] == ["players", "hand_sizes", "stock", "scores", "draws_left", "unseen"]
    assert facts["players"] == 2
    assert facts["hand_sizes"] == [8, 8]
    assert facts["draws_left"] == 2
    assert facts["scores"] == [0, 0]
    # The stock is what the other hand leaves of the unseen cards: 53 - 6 - 8 - 8.
    assert facts["unseen"] == 39 and facts["stock"] == 31


def test_given_facts_are_used_and_not_listed_as_assumed() -> None:
    # A final turn: the stock is empty, so the two other hands hold every unseen card.
    unseen = list(Hand.parse("4h 4d 4c 10s 10h 10d Qs Qh 2s 2d").pieces)
    found = quick(
        MID_GAME, players=3, hand_sizes=[4, 6], stock=0, scores=[100, 30, 140], draws_left=0, unseen=unseen
    )
    facts = found.to_dict()["facts"]
    assert facts["assumed"] == []
    assert facts["hand_sizes"] == [8, 4, 6] and facts["stock"] == 0
    # A final turn has no draw: the decline is a pass.
    assert [o.kind for o in found.options].count("pass") == 1
    assert "draw" not in [o.kind for o in found.options]


def test_given_unseen_cards_are_the_only_ones_dealt() -> None:
    unseen: list[Piece] = list(Hand.parse("4h 4d 4c 10s 10h").pieces)
    found = quick(MID_GAME, unseen=unseen, hand_sizes=[3], stock=2)
    assert found.facts.unseen == 5
    assert "unseen" not in found.to_dict()["facts"]["assumed"]


def test_given_hands_and_stock_hold_every_unseen_card() -> None:
    """There is no discard pile: hand sizes and a stock that leave unseen cards nowhere
    are refused, and a stock given alone leaves the rest of the unseen cards to the other
    hands (39 unseen in 2-player Manipulation here: 5 in the stock, 34 in the other hand)."""
    with pytest.raises(AdviceError, match="25 would be nowhere") as raised:
        quick(MID_GAME, players=2, hand_sizes=[9], stock=5)
    assert raised.value.field == "stock"
    found = quick(MID_GAME, players=2, stock=5)
    assert found.facts.unseen == 39 and found.facts.hand_sizes == (8, 34) and found.facts.stock == 5
    assert found.to_dict()["facts"]["assumed"] == ["hand_sizes", "scores", "draws_left", "unseen"]
    shared = quick(MID_GAME, players=3, stock=80)
    assert shared.facts.hand_sizes == (8, 6, 6) and shared.facts.stock == 80
    with pytest.raises(AdviceError, match="give the hand sizes or the unseen cards"):
        quick(MID_GAME, players=2, stock=39)


def test_budget_bounds_the_samples() -> None:
    found = advise(MID_GAME, budget_seconds=0.01, samples=10_000, seed=3)
    assert found.stopped_by_budget
    assert 2 <= found.samples < 10_000


def test_no_play_leaves_the_decline_alone() -> None:
    found = quick("/ 2h 9c", samples=2)
    assert [option.kind for option in found.options] == ["draw"]


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"hand_sizes": [60]}, "unseen"),
        ({"hand_sizes": [3, 4, 5]}, "hand sizes"),
        ({"hand_sizes": [7, 3]}, "player's"),
        ({"stock": -1}, "negative"),
        ({"stock": 100}, "unseen"),
        ({"scores": [1]}, "scores"),
        ({"draws_left": 3}, "draws left"),
        # Two players hold one deck: an unseen Kh beside the table's is one too many.
        ({"unseen": list(Hand.parse("Kh").pieces), "players": 2}, "more copies"),
        ({"budget_seconds": 0}, "budget"),
        ({"samples": 0}, "samples"),
        ({"samples": 1}, "samples must be 2"),
        ({"seed": -1}, "seed"),
    ],
)
def test_bad_facts_are_refused(options: dict[str, object], message: str) -> None:
    with pytest.raises(AdviceError, match=message):
        quick(MID_GAME, **options)


def test_unseen_cards_that_need_two_decks_imply_more_players() -> None:
    """Without a player count the facts follow the cards: a second Kh means two decks."""
    found = quick(MID_GAME, unseen=list(Hand.parse("Kh 4h 4d").pieces), hand_sizes=[1, 1], stock=1)
    assert (found.facts.players, found.facts.decks) == (3, 2)
    assert "players" in found.to_dict()["facts"]["assumed"]


def test_an_empty_hand_is_refused() -> None:
    # The one answer an empty hand gets everywhere (solver.facts): it has gone out.
    with pytest.raises(EmptyHandError, match="hand is empty: the player has gone out"):
        quick("5s 6s 7s /")


def test_other_variants_are_advised() -> None:
    found = quick("/ 3h 4h 5h 9c 9d 9s Kc", variant="machiavelli", samples=2)
    assert found.facts.draws_left == 1
    assert found.options[0].kind in {"play", "draw"}
    assert {option.kind for option in found.options} == {"play", "draw"}
    assert Position.parse("/ 3h 4h 5h 9c 9d 9s Kc").canonical() == found.position


def test_benchmark_positions_are_mid_game_decisions_with_a_play() -> None:
    import sys
    from pathlib import Path

    root = str(Path(__file__).resolve().parents[1])
    if root not in sys.path:
        sys.path.insert(0, root)
    from benchmarks.advise_speed import mid_game_views
    from solver.engine import hint

    views = mid_game_views(5, 2, 4)
    assert len(views) == 2
    for view in views:
        assert view.phase == "meld" and view.draws_left == 2
        assert hint(view.position, variant=view.variant).has_play
    assert [str(v.position) for v in views] == [str(v.position) for v in mid_game_views(5, 2, 4)]


def test_the_looks_of_sequential_sampling_share_the_confidence() -> None:
    """Bonferroni over the looks: the advice reads its deals at 64, 128 and 192, a review
    at 16, 32 and 64 (98.3% each); one look keeps 95%."""
    from solver.strategy.advice import looks, looks_confidence

    assert looks(64, 128) == 2 and looks_confidence(64, 128) == pytest.approx(0.975)
    assert looks(16, 64) == 3 and looks_confidence(16, 64) == pytest.approx(1 - 0.05 / 3)
    assert looks(16, None) == 1 and looks_confidence(16, None) == pytest.approx(0.95)
    assert looks(3, 6) == 2
    found = quick(MID_GAME)  # 4 deals, then up to 16 for undecided options: three looks
    assert found.confidence == pytest.approx(1 - 0.05 / 3) and found.to_dict()["confidence"] == 0.9833


def test_nothing_is_about_as_good_as_going_out() -> None:
    found = quick(DONE_WHEN, players=2, samples=8)
    assert found.best.hint is not None and found.best.hint.goes_out
    assert not any(option.about_as_good for option in found.options[1:])
    assert found.best.describe().endswith("to go out")
    # It wins the round on every deal, for certain: its win chance has no interval.
    assert found.best.win == Interval(1.0, 1.0, 1.0)
    # In Machiavelli a play that keeps one card back is worth about as much (it goes out
    # next turn on most deals: a loss interval around 0), and still is not marked.
    machiavelli = quick("5s 6s 7s | 9h 9d 9c | Jd Qd Kd / 8s 9s 2c 2d 2h", variant="machiavelli", samples=8)
    assert machiavelli.best.hint is not None and machiavelli.best.hint.goes_out
    assert any(option.loss.low <= 0 for option in machiavelli.options[1:])
    assert not any(option.about_as_good for option in machiavelli.options[1:])


def test_option_labels_name_one_option_each() -> None:
    labels = [option.label for option in quick(MID_GAME).options]
    assert len(labels) == len(set(labels)), labels


def _mid_game_weighing() -> tuple[PlayerView, list[Candidate], Deal]:
    """The view, candidates and deals of ``MID_GAME`` as ``advise`` builds them."""
    from solver.game.settings import GameSettings
    from solver.strategy.advice import deal_key, game_facts, player_view
    from solver.strategy.candidates import COACH_SET, meld_candidates
    from solver.strategy.evaluator import deal_from_key

    position = Position.parse(MID_GAME).canonical()
    settings = GameSettings.manipulation(2)
    facts, hidden = game_facts(position, settings, players_given=True)
    view = player_view(position, settings, facts, hidden)
    candidates = meld_candidates(view, COACH_SET, time_limit=1.0)
    return view, candidates, deal_from_key(view, deal_key(position, facts, 1))


def test_later_looks_play_on_only_the_options_named_open() -> None:
    """Sequential sampling may go on for some options alone (the review's best option and
    move made): those play the later deals, the others keep the first ones, every option's
    values on the first deals are what a run without later looks gives, and each loss is
    paired over the deals both options played."""
    from solver.strategy.advice import evaluate

    view, candidates, deal = _mid_game_weighing()
    plain, played, _ = evaluate(view, candidates, deal, samples=4, budget_seconds=None)
    assert played == 4
    chosen = {plain[-1].label, plain[1].label}
    looked: list[int] = []

    def more(options: tuple[Option, ...]) -> list[str]:
        looked.append(1)
        return sorted(chosen)

    focused, played, _ = evaluate(
        view,
        candidates,
        deal,
        samples=4,
        budget_seconds=None,
        more=more,
        most=16,
    )
    assert played == 16 and len(looked) == 2  # read at 4 and 8 deals; 16 is the last look
    first = {option.label: option.lines for option in plain}
    for option in focused:
        # An option played on goes on with its best continuation alone.
        deals = [len(line) for line in option.lines]
        assert sorted(deals) == ([4, 16] if option.label in chosen else [4, 4]), option.label
        assert option.deals == option.to_dict()["deals"] == max(deals)
        assert tuple(line[:4] for line in option.lines) == first[option.label]
    top = focused[0]
    assert top.label in chosen, "the best is among the options with the most deals"

    def values(lines: tuple[tuple[float, ...], ...]) -> tuple[float, ...]:
        """The best continuation's values, as ``weigh`` keeps: the one that went on, else
        the best mean (the first of equals)."""
        return max(lines, key=lambda line: (len(line), sum(line) / len(line), -lines.index(line)))

    best = values(top.lines)
    for option in focused[1:]:
        own = values(option.lines)
        paired = [a - b for a, b in zip(best, own, strict=False)]
        assert len(paired) == len(own)
        assert option.loss.estimate == pytest.approx(sum(paired) / len(paired)), option.label
    values_shown = [o.value.estimate for o in focused[1:]]
    assert values_shown == sorted(values_shown, reverse=True), "the rest by their values"


def test_default_hand_sizes_that_would_leave_another_hand_empty_are_refused() -> None:
    """With no unseen card, the default "as many as yours" gave the other player 0 cards
    (a round already over) where the same sizes given were refused."""
    with pytest.raises(AdviceError, match="no card to hold") as raised:
        quick(MID_GAME, unseen=[])
    assert raised.value.field == "hand_sizes"
    # An unseen Kh beside the table's takes the assumed game to 3 players (two decks): the
    # error says so, and names the unseen cards that made it.
    with pytest.raises(AdviceError, match="3 players assumed") as raised:
        quick(MID_GAME, unseen=list(Hand.parse("Kh").pieces))
    assert raised.value.field == "unseen"


def test_a_final_turn_assumes_the_stock_has_run_out() -> None:
    """Draws left 0 in Manipulation Rummy is a final turn, which comes once the stock is
    empty: the default stock was the whole rest of the unseen cards (41), and the advice
    ranked passing first, the opposite of what the same turn with an empty stock says."""
    position = "5h 6h 7h | Kc Kd Ks / 8h 2c 9d"
    final = quick(position, draws_left=0)
    assert final.facts.stock == 0 and "stock" not in final.facts.given
    # No discard pile: with the stock empty the other hand holds every unseen card (44).
    assert final.facts.hand_sizes == (3, 44) and "hand_sizes" not in final.facts.given
    given = quick(position, draws_left=0, stock=0)
    assert given.facts == dataclasses.replace(final.facts, given=given.facts.given)
    assert [option.label for option in final.options] == [option.label for option in given.options]
    with pytest.raises(AdviceError, match="final turn") as raised:
        quick(position, draws_left=0, stock=5)
    assert raised.value.field == "stock"


def test_unseen_cards_may_be_given_as_notation_and_the_variant_as_none() -> None:
    """``unseen="4s 10s Ks"`` was read one character at a time (a "joker" too many), and
    ``variant=None`` raised AttributeError where ``hint`` reads None as Manipulation Rummy."""
    position = "5s 6s 7s | 9h 9d 9c | Jd Qd Kd / 8s 9s 2c 2d"
    given = quick(position, unseen="4s 10s Ks", hand_sizes=[1], stock=2)
    assert given.facts.unseen == 3
    pieces = [Card.parse(text) for text in ("4s", "10s", "Ks")]
    assert quick(position, unseen=pieces, hand_sizes=[1], stock=2).options == given.options
    assert quick(position, variant=None).facts.variant == "manipulation"
    with pytest.raises(NotationError, match="unseen card 1"):
        quick(position, unseen="Zz")
    with pytest.raises(TypeError, match="expected a Position"):
        quick(None)  # type: ignore[arg-type]


KNOCK_TURN = (
    "3s 4s 5s 6s *7s | 9s 10s Js Qs | 2h 3h 4h 5h | 6h 7h 8h 9h 10h Jh | 7d 8d 9d 10d Jd Qd | "
    "Ac 2c 3c | 4c 5c 6c 7c 8c | 9c 10c Jc Qc | As Ah Ad | Ks Kh Kd / 3d"
)
"""A review's knock decision (a greedy game of seed 7): after melding, a hand of 3 points
that may knock, the other hand of 2 cards, 7 in the stock."""


def test_the_knock_decision_weighs_knock_against_pass() -> None:
    """``decision="knock"``: the decision once the turn's melds and draws are done, as the
    review judges it: knock or pass only, no draws left (a fact of the decision, not an
    assumption), the same answer for the same seed; the facts checked as for a meld."""
    found = quick(
        KNOCK_TURN, players=2, hand_sizes=[2], stock=7, scores=[56, 141], decision="knock", samples=8
    )
    assert found.decision == "knock" and found.to_dict()["decision"] == "knock"
    assert sorted(option.candidate.kind for option in found.options) == ["knock", "pass"]
    assert found.facts.draws_left == 0 and "draws_left" not in found.to_dict()["facts"]["assumed"]
    # Passing leaves a 2-card hand its turn to go out: knocking is clearly better.
    assert found.best.candidate.kind == "knock" and found.options[1].loss.low > 0
    again = quick(
        KNOCK_TURN, players=2, hand_sizes=[2], stock=7, scores=[56, 141], decision="knock", samples=8
    )
    assert again.options == found.options
    # Draws left 0 is what a knock decision has: given, it is no final turn (the stock stays).
    zero = quick(KNOCK_TURN, players=2, hand_sizes=[2], stock=7, decision="knock", samples=8, draws_left=0)
    assert zero.facts.stock == 7 and [o.label for o in zero.options] == ["knock", "pass"]
    # An empty stock: the knock of a final turn, whose pass ends the player's round.
    final = quick(KNOCK_TURN, players=2, hand_sizes=[9], stock=0, decision="knock", samples=8)
    assert final.facts.stock == 0 and final.best.candidate.kind == "knock"
    with pytest.raises(AdviceError, match="meld or knock") as raised:
        quick(KNOCK_TURN, players=2, decision="maybe")
    assert raised.value.field == "decision"
    for options, field, message in (
        ({"variant": "machiavelli"}, "decision", "no knocking"),
        ({"draws_left": 1}, "draws_left", "draws left is 0, not 1"),
        ({"stock": 0, "hand_sizes": [1]}, "stock", "would be nowhere"),
    ):
        position = "5s 6s 7s / 3d" if options.get("variant") == "machiavelli" else KNOCK_TURN
        with pytest.raises(AdviceError, match=message) as raised:
            quick(position, players=2, decision="knock", **options)
        assert raised.value.field == field
    with pytest.raises(AdviceError, match="over the 5 a knock allows") as raised:
        quick(MID_GAME, players=2, decision="knock")
    assert raised.value.field == "decision"
