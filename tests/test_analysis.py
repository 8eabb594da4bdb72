"""Analysis: every figure against brute force with the exact oracle on small positions,
the fast draw machinery against plain per-draw hints on bigger ones, hand-worked cases,
and the errors of bad input.

Brute force here means: for every unseen kind, add it to the hand and ask
``solver.exact`` (which shares no code with the CP-SAT engine) for the best points and
whether the hand can be emptied; for playable cards and the count of best plays, every
sub-multiset of the hand that can be played out completely is a possible played set.
"""

from __future__ import annotations

import itertools
import json
import random
import subprocess
import sys
from collections import Counter
from fractions import Fraction

import pytest
from randpos import random_position

from solver.analysis import UnseenError, analyze, draw_or_meld, unseen_counts
from solver.cards import ALL_CARDS, Card, Joker, NotationError, Piece, piece_sort_key
from solver.engine import best_after_draws, hint
from solver.exact import best_value
from solver.position import Hand, Position, PositionError
from solver.variants import Variant

MANIP = Variant.manipulation()
VARIANTS = [
    MANIP,
    Variant.manipulation(players=2),
    Variant.manipulation(knock_only_after_meld=True),
    Variant.machiavelli(),
    Variant.rummikub(),
]


def _with(position: Position, piece: Piece) -> Position:
    return Position(position.table, Hand.of((*position.hand.pieces, piece)))


def _points(position: Position, variant: Variant) -> tuple[int, bool]:
    """Fewest points after the best play (or none), and whether a play exists, by the oracle."""
    best = best_value(position, variant=variant)
    return (position.hand.points(variant), False) if best is None else (best, True)


def _empties(position: Position, variant: Variant) -> bool:
    return best_value(position, variant=variant, objective="cards") == 0


def _knocks(variant: Variant, points: int, has_play: bool) -> bool:
    threshold = variant.knock_threshold
    if threshold is None or points > threshold:
        return False
    return has_play or not variant.knock_only_after_meld


def _brute_draws(position: Position, variant: Variant, unseen: Counter[Piece]) -> dict[str, object]:
    now, now_play = _points(position, variant)
    total = sum(unseen.values())
    expected = Fraction(0)
    knock = out = Fraction(0)
    knock_cards, out_cards = [], []
    for piece, copies in unseen.items():
        after = _with(position, piece)
        points, has_play = _points(after, variant)
        knocks = _knocks(variant, points, has_play)
        goes_out = _empties(after, variant)
        expected += Fraction(copies * points, total)
        knock += Fraction(copies * knocks, total)
        out += Fraction(copies * goes_out, total)
        if knocks:
            knock_cards.append(piece)
        if goes_out:
            out_cards.append(piece)
    return {
        "meld_now_points": now,
        "draw_expected_points": float(expected),
        "knock_probability": float(knock),
        "out_probability": float(out),
        "advice": "draw" if not now_play or expected < now else "meld",
        "knock": sorted(map(str, knock_cards)),
        "out": sorted(map(str, out_cards)),
    }


def _figures(advice: object) -> dict[str, object]:
    from solver.analysis import DrawAdvice

    assert isinstance(advice, DrawAdvice)
    jokers = [str(Joker())]
    return {
        "meld_now_points": advice.meld_now_points,
        "draw_expected_points": advice.draw_expected_points,
        "knock_probability": advice.knock_probability,
        "out_probability": advice.out_probability,
        "advice": advice.advice,
        "knock": sorted([str(c) for c in advice.knock_cards] + (jokers if advice.joker_knocks else [])),
        "out": sorted([str(c) for c in advice.go_out_cards] + (jokers if advice.joker_goes_out else [])),
    }


def _sub_hands(position: Position) -> set[tuple[Piece, ...]]:
    pieces = sorted(position.hand.pieces, key=piece_sort_key)
    found: set[tuple[Piece, ...]] = set()
    for size in range(1, len(pieces) + 1):
        found.update(itertools.combinations(pieces, size))
    return found


def _brute_plays(position: Position, variant: Variant) -> tuple[set[Piece], int]:
    """Playable pieces and the number of distinct best played sets: a set is played by
    some legal play exactly when the table plus that set can be played out."""
    playable: set[Piece] = set()
    best: int | None = None
    best_sets = 0
    hand_points = position.hand.points(variant)
    for played in _sub_hands(position):
        if not _empties(Position(position.table, Hand.of(played)), variant):
            continue
        playable.update(Joker() if isinstance(p, Joker) else p for p in played)
        left = hand_points - Hand.of(played).points(variant)
        if best is None or left < best:
            best, best_sets = left, 1
        elif left == best:
            best_sets += 1
    return playable, best_sets


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: f"{v.name}-{v.decks}-{v.knock_only_after_meld}")
def test_analysis_matches_brute_force_on_small_positions(variant: Variant) -> None:
    rng = random.Random(1000 + variant.decks + 7 * variant.knock_only_after_meld)
    for _ in range(7):
        position = random_position(rng, variant, max_table_cards=12, max_hand=4)
        found = analyze(position, variant=variant)
        assert found.exact
        unseen = unseen_counts(position, variant)
        # Both sides turn the same exact fractions into floats, so equality is exact.
        assert _figures(found.draw) == _brute_draws(position, variant, unseen), str(position)
        playable, best_sets = _brute_plays(position, variant)
        assert set(found.playable) == playable, str(position)
        assert (
            set(found.never_playable)
            == {Joker() if isinstance(p, Joker) else p for p in position.hand.pieces} - playable
        )
        assert found.optimal_plays == best_sets and not found.optimal_plays_capped, str(position)


def test_given_unseen_cards_against_brute_force() -> None:
    rng = random.Random(77)
    for _ in range(8):
        position = random_position(rng, MANIP, max_table_cards=15, max_hand=5)
        left = unseen_counts(position, MANIP)
        chosen = rng.sample(sorted(left, key=piece_sort_key), 6)
        unseen = [piece for piece in chosen for _ in range(rng.randint(1, left[piece]))]
        advice = draw_or_meld(position, unseen=unseen)
        assert advice.unseen_cards == len(unseen)
        assert {o.piece: o.copies for o in advice.outcomes} == Counter(unseen)
        assert _figures(advice) == _brute_draws(position, MANIP, Counter(unseen)), str(position)


def test_worked_draw_or_meld() -> None:
    position = Position.parse("Kh Kd Kc | Qh Qd Qc | Jh Jd Jc / Ac")
    advice = draw_or_meld(position, unseen=Hand.parse("Ah 10h 2c 2c *").pieces)
    # Ah, 10h and a joker join the sequences and go out; either 2c stays (2 points, knock).
    assert advice.meld_now_points == 0 and advice.can_meld_now
    assert advice.draw_expected_fraction == Fraction(4, 5) and advice.draw_expected_points == 0.8
    assert advice.to_dict()["draw_expected_fraction"] == "4/5"
    assert advice.knock_probability == 1.0
    assert advice.out_probability == pytest.approx(0.6)
    assert advice.advice == "meld"
    assert advice.go_out_cards == [Card.parse("Ah"), Card.parse("10h")]
    assert advice.knock_cards == [Card.parse("Ah"), Card.parse("10h"), Card.parse("2c")]
    assert advice.joker_goes_out and advice.joker_knocks
    outs = advice.to_dict()["outs"]
    assert outs == {"go_out": ["Ah", "10h", "*"], "knock": ["Ah", "10h", "2c", "*"]}


def test_no_play_now_means_draw_and_knock_needs_a_meld_when_asked() -> None:
    position = Position.parse("/ 2c")
    unseen = Hand.parse("Ac 3c Kd").pieces
    plain = draw_or_meld(position, unseen=unseen)
    assert not plain.can_meld_now and plain.advice == "draw"
    assert plain.meld_now_points == 2
    # Ac: 3 points, no play, knock allowed; 3c: 5 points; Kd: 12 points.
    assert plain.draw_expected_points == pytest.approx((3 + 5 + 12) / 3)
    assert plain.knock_cards == [Card.parse("Ac"), Card.parse("3c")] and not plain.go_out_cards
    strict = draw_or_meld(position, variant=Variant.manipulation(knock_only_after_meld=True), unseen=unseen)
    assert strict.knock_probability == 0.0 and strict.knock_cards == []


def test_machiavelli_never_knocks() -> None:
    position = Position.parse("5s 6s 7s / 8s 3c 4c")
    advice = draw_or_meld(position, variant=Variant.machiavelli())
    assert advice.knock_probability == 0.0 and advice.knock_cards == []
    assert advice.go_out_cards == [Card.parse("2c"), Card.parse("5c")]
    assert advice.out_probability == pytest.approx(4 / advice.unseen_cards)


def test_empty_stock_changes_nothing() -> None:
    position = Position.parse("5s 6s 7s / 8s Ac")
    advice = draw_or_meld(position, unseen=[])
    assert advice.unseen_cards == 0 and advice.outcomes == ()
    assert advice.meld_now_points == 1 and advice.draw_expected_points == 1.0
    assert (advice.knock_probability, advice.out_probability, advice.advice) == (1.0, 0.0, "meld")


def test_counting_best_plays_and_the_cap() -> None:
    # Take 10s for 10s 10h 10d, or Ks for Ks Kh Kd; taking both would leave Js Qs alone.
    position = Position.parse("10s Js Qs Ks / 10h 10d Kh Kd")
    found = analyze(position)
    assert found.best.hand_points == 20
    assert (found.optimal_plays, found.optimal_plays_capped) == (2, False)
    assert set(found.playable) == set(Hand.parse("10h 10d Kh Kd").pieces)
    capped = analyze(position, play_count_cap=1)
    assert (capped.optimal_plays, capped.optimal_plays_capped) == (1, True)
    assert analyze(position, play_count_cap=2).optimal_plays_capped is False
    assert analyze(Position.parse("Kh Kd Kc | Qh Qd Qc | Jh Jd Jc / Ac")).optimal_plays == 1
    nothing = analyze(Position.parse("10h 10d 10s | Jh Jd Js | Qh Qd Qc / 9s"))
    assert (nothing.optimal_plays, nothing.playable, nothing.never_playable) == (0, (), (Card.parse("9s"),))


def test_lp_screen_and_plain_searches_agree_with_hint_on_bigger_positions() -> None:
    rng = random.Random(5)
    for variant in (MANIP, Variant.rummikub()):
        for _ in range(2):
            position = random_position(rng, variant, max_table_cards=30, min_table_cards=24, max_hand=8)
            pieces = sorted(unseen_counts(position, variant), key=piece_sort_key)
            fast = best_after_draws(position, variant, pieces, time_limit=10.0)
            plain = best_after_draws(position, variant, pieces, time_limit=10.0, use_lp=False)
            assert [(d.points, d.has_play) for d in fast.draws] == [
                (d.points, d.has_play) for d in plain.draws
            ]
            assert fast.now_points == hint(position, variant=variant).hand_points
            for draw in fast.draws[::4]:
                reference = hint(_with(position, draw.piece), variant=variant)
                expected = (reference.hand_points, reference.has_play)
                assert (draw.points, draw.has_play) == expected, str(position)


def test_bad_input_is_refused() -> None:
    position = Position.parse("Kh Kd Kc / Ac")
    with pytest.raises(UnseenError, match="3 copies of Kh"):
        draw_or_meld(position, unseen=Hand.parse("Kh Kh").pieces)
    with pytest.raises(UnseenError, match="3 jokers"):
        draw_or_meld(position, unseen=Hand.parse("* * *").pieces)
    with pytest.raises(UnseenError, match="written \\*"):
        draw_or_meld(position, unseen=[Joker(Card.parse("7h"))])
    with pytest.raises(PositionError):
        analyze(Position.parse("Kh Kd / Ac"))
    with pytest.raises(ValueError, match="cap"):
        analyze(position, play_count_cap=0)
    with pytest.raises(ValueError, match="time limit"):
        draw_or_meld(position, time_limit=0)


def test_notation_and_preset_names_are_accepted_as_hint_accepts_them() -> None:
    # The same position, variant and unseen cards, given as objects and as text.
    text = "5s 6s 7s | 9h 9d 9c / 8s 9s 2c 2d 4h"
    unseen = "4s 10s 9s 2h 2h"
    # A name takes the player count the position implies (solver.facts): two players here.
    as_objects = analyze(
        Position.parse(text), variant=Variant.rummikub(players=2), unseen=Hand.parse(unseen).pieces
    )
    as_text = analyze(text, variant="rummikub", unseen=unseen)
    assert as_text.position == as_objects.position and as_text.variant == as_objects.variant
    assert as_text.best.table == as_objects.best.table and as_text.best.played == as_objects.best.played
    assert (as_text.playable, as_text.never_playable, as_text.optimal_plays) == (
        as_objects.playable,
        as_objects.never_playable,
        as_objects.optimal_plays,
    )
    assert _figures(as_text.draw) == _figures(as_objects.draw) and as_text.draw.unseen_cards == 5
    plain = draw_or_meld(Position.parse(text), variant=Variant.machiavelli())
    named = draw_or_meld(text, variant="machiavelli")
    assert _figures(named) == _figures(plain) and named.unseen_cards == plain.unseen_cards


def test_arguments_of_the_wrong_kind_raise_a_type_error_saying_what_to_pass() -> None:
    with pytest.raises(TypeError, match="expected a Position or its notation"):
        analyze(42)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="expected a Position or its notation"):
        draw_or_meld(None)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"unseen must be pieces .* got int 7"):
        draw_or_meld("Kh Kd Kc / Ac", unseen=7)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="got str '2h'"):
        analyze("Kh Kd Kc / Ac", unseen=["2h"])  # type: ignore[list-item]
    with pytest.raises(NotationError, match=r"'3x'.*\(unseen card 2\)"):
        draw_or_meld("Kh Kd Kc / Ac", unseen="2h 3x")
    with pytest.raises(ValueError, match="unknown variant 'nope'"):
        analyze("Kh Kd Kc / Ac", variant="nope")


def test_to_dict_shapes() -> None:
    found = analyze(Position.parse("7h 8h *9h / 9h Jh 2c"))
    data = found.to_dict()
    for key in (
        "meld_now_points",
        "draw_expected_points",
        "knock_probability",
        "out_probability",
        "advice",
        "outs",
        "playable",
        "never_playable",
        "optimal_plays",
        "optimal_plays_capped",
        "best",
        "draws",
    ):
        assert key in data
    assert data["playable"] == ["9h", "Jh"] and data["never_playable"] == ["2c"]
    assert data["meld_now_points"] == 2
    best = data["best"]
    assert isinstance(best, dict) and best["moves"]
    draws = data["draws"]
    assert isinstance(draws, list) and sum(d["copies"] for d in draws) == data["unseen_cards"]
    assert all(Card.parse(d["card"]) in ALL_CARDS for d in draws if d["card"] != "*")


def test_cli_analyze_json_and_human_output() -> None:
    from typer.testing import CliRunner

    from solver.cli import app

    runner = CliRunner()
    text = "Kh Kd Kc | Qh Qd Qc | Jh Jd Jc / Ac"
    outcome = runner.invoke(app, ["analyze", text, "--unseen", "Ah 10h 2c 2c *", "--json"])
    assert outcome.exit_code == 0, outcome.output
    data = json.loads(outcome.stdout)
    assert (data["meld_now_points"], data["draw_expected_points"], data["advice"]) == (0, 0.8, "meld")
    assert data["outs"] == {"go_out": ["Ah", "10h", "*"], "knock": ["Ah", "10h", "2c", "*"]}
    human = runner.invoke(app, ["analyze", text, "--unseen", "Ah 10h 2c 2c *", "--draws"])
    assert human.exit_code == 0
    for words in ("Meld now or draw?", "0.80 points expected", "60.0%", "MELD", "Every draw"):
        assert words in human.stdout


def test_cli_analyze_says_when_the_draw_ends_the_turn() -> None:
    """Rummikub and Machiavelli: a draw ends the turn, so the drawn card is played next turn
    and the advice is by points alone (it read "Draw, then play at best", Manipulation
    Rummy's turn, where the turn goes on after the draw)."""
    from typer.testing import CliRunner

    from solver.cli import app

    runner = CliRunner()
    for variant, position in (
        ("rummikub", "1s 2s 3s | 11h 12h 13h / 13s 4s 7d"),
        ("machiavelli", "5h 6h 7h / 8h Kc"),
    ):
        text = runner.invoke(app, ["analyze", position, "--variant", variant]).stdout
        assert "Draw, play next turn at best" in text and "(by points left)" in text, text
        assert "Draw, then play at best" not in text
        assert f"In {variant.capitalize()} a draw ends the turn" in text and "rummy advise" in text
    text = runner.invoke(app, ["analyze", "5h 6h 7h / 8h Kc"]).stdout
    assert "Draw, then play at best" in text and "next turn" not in text and "by points left" not in text


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["Kh Kd Kc / Ac", "--unseen", "9x"], "(unseen card 1)"),
        (["Kh Kd Kc / Ac", "--unseen", "Kh Kh"], "impossible"),
        (["Kh Kd / Ac"], "bad position"),
        (["Kh Kd Kc / Ac", "--cap", "0"], "--cap"),
    ],
)
def test_cli_analyze_bad_input_exits_2(args: list[str], message: str) -> None:
    from typer.testing import CliRunner

    from solver.cli import app

    outcome = CliRunner().invoke(app, ["analyze", *args])
    assert outcome.exit_code == 2
    assert message in outcome.output


@pytest.mark.slow
@pytest.mark.parametrize("variant", VARIANTS[:2] + VARIANTS[3:], ids=lambda v: f"{v.name}-{v.decks}")
def test_draw_outcomes_agree_with_hint_on_many_positions(variant: Variant) -> None:
    """Long run (pytest -m slow): sampled draws of 150 positions of every size."""
    rng = random.Random(31337 + variant.decks)
    for _ in range(150):
        table = rng.randint(0, 40 * variant.decks)  # one deck runs dry beyond about 40
        position = random_position(rng, variant, max_table_cards=table, max_hand=12)
        pieces = sorted(unseen_counts(position, variant), key=piece_sort_key)
        found = best_after_draws(position, variant, pieces, time_limit=10.0)
        for draw in rng.sample(found.draws, min(6, len(found.draws))):
            reference = hint(_with(position, draw.piece), variant=variant)
            expected = (reference.hand_points, reference.has_play)
            assert (draw.points, draw.has_play) == expected, (str(position), str(draw.piece))


def test_analyze_leaves_or_tools_unloaded_where_the_points_program_answers() -> None:
    """The playable pieces and the count of best plays fall back to CP-SAT's enumeration
    only where the points program does not answer: a small position never loads OR-Tools."""
    code = (
        "import sys\n"
        "from solver.analysis import analyze\n"
        "from solver.position import Position\n"
        "found = analyze(Position.parse('7h 8h 9h | Ks Kh Kd / 10h 2c Kc 5d'))\n"
        "assert found.exact and found.optimal_plays == 1, found\n"
        "print('ortools' in sys.modules)\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "False"
