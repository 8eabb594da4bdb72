"""docs/rules.md is checked against the code: every ``rummy`` block in it is run.

Each block is a small script (the statements are listed at the end of docs/rules.md):
melds are judged by ``Meld.problem``, plays by the referee (the melds they break by
``solver.referee.melds_broken``), best plays and "no play" by the hint engine, round and
game scores by ``solver.game.scoring``.  A statement the
harness does not know fails the test, so the document cannot hold unchecked examples in
its blocks.  The README must link the document (issue 20: the rule book travels with
the project).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from solver import Hint, hint
from solver.cards import Joker
from solver.game import GameSettings
from solver.game.scoring import RoundEnd, game_bonuses, score_round
from solver.melds import Meld
from solver.position import Position, Table
from solver.referee import check_play, melds_broken, played_pieces
from solver.variants import Variant

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "docs" / "rules.md"


@dataclass
class Block:
    """One ``rummy`` block: where it starts in the file and its statement lines."""

    line: int
    statements: list[tuple[int, str]] = field(default_factory=list)

    @property
    def id(self) -> str:
        return f"rules.md:{self.line}"


def _blocks() -> list[Block]:
    blocks: list[Block] = []
    current: Block | None = None
    for number, line in enumerate(RULES.read_text(encoding="utf-8").splitlines(), start=1):
        if current is None and line.strip() == "```rummy":
            current = Block(number)
        elif current is not None and line.strip() == "```":
            blocks.append(current)
            current = None
        elif current is not None and line.strip():
            current.statements.append((number, line.strip()))
    assert current is None, "a rummy block is not closed"
    return blocks


BLOCKS = _blocks()


@dataclass
class State:
    """What the statements before the current one set up."""

    settings: GameSettings = field(default_factory=lambda: GameSettings.manipulation(3))
    variant: Variant = field(default_factory=Variant.manipulation)
    opened: bool = True
    keep_jokers: bool = False
    position: Position | None = None


def _split(text: str) -> tuple[str, str | None]:
    """A statement's argument and its ``# reason``, if any."""
    body, _, reason = text.partition("#")
    return body.strip(), (reason.strip() or None)


def _set_variant(state: State, text: str) -> None:
    name, *options = [part.strip() for part in text.split(",")]
    players: int | None = None
    flags = {"knock_only_after_meld": False, "round_bonus_to_all": False}
    for option in options:
        if match := re.fullmatch(r"(\d+) players", option):
            players = int(match.group(1))
        elif option in ("knock only after meld", "round bonus to all"):
            flags[option.replace(" ", "_")] = True
        else:
            raise AssertionError(f"unknown variant option {option!r}")
    state.variant = Variant.named(name, players=players)
    if name == "manipulation":
        state.variant = state.variant.with_options(**flags)
    state.settings = GameSettings.named(name, players or 2, **flags)


def _left_points(position: Position, after: Table, variant: Variant) -> int:
    """Points left in the hand after the play ``position`` -> ``after``."""
    real, jokers = played_pieces(position, after)
    left = Counter(piece for piece in position.hand.pieces if not isinstance(piece, Joker))
    left.subtract(real)
    return sum(variant.card_points(card) * count for card, count in left.items()) + variant.joker_points * (
        position.hand.joker_count - jokers
    )


def _position(state: State) -> Position:
    assert state.position is not None, "a play statement needs a position before it"
    return state.position


def _hint(state: State) -> Hint:
    return hint(_position(state), variant=state.variant, keep_jokers=state.keep_jokers, opened=state.opened)


def _run(state: State, statement: str) -> None:
    keyword, _, rest = statement.partition("  ")
    keyword, rest = keyword.strip(), rest.strip()
    if statement == "not opened":
        state.opened = False
    elif statement == "keep jokers":
        state.keep_jokers = True
    elif statement == "no play":
        found = _hint(state)
        assert found.status == "no_play", f"the engine plays {found.table}"
    elif keyword == "variant":
        _set_variant(state, rest)
    elif keyword == "position":
        state.position = Position.parse(rest).validate(state.variant)
    elif keyword == "meld":
        problem = Meld.parse(rest).problem(state.variant)
        assert problem is None, problem
    elif keyword == "bad meld":
        cards, reason = _split(rest)
        problem = Meld.parse(cards).problem(state.variant)
        assert problem is not None, f"{cards} is legal"
        assert reason is not None and reason in problem, problem
    elif keyword in ("legal", "illegal", "best", "kept"):
        table_text, reason = _split(rest)
        position, table = _position(state), Table.parse(table_text)
        verdict = check_play(position, table, variant=state.variant, opened=state.opened)
        if keyword == "illegal":
            assert not verdict.ok, f"the referee accepts {table}"
            assert reason is not None and any(reason in r for r in verdict.reasons), verdict.reasons
            return
        assert verdict.ok, verdict.reasons
        if keyword == "kept":
            assert melds_broken(position.table, table) == 0, f"{table} breaks an old meld"
        if keyword == "best":
            found = _hint(state)
            assert found.status == "optimal", found.status
            mine = (_left_points(position, table, state.variant), melds_broken(position.table, table))
            assert mine == (found.hand_points, found.melds_broken), f"the engine plays {found.table}"
    elif keyword == "round":
        _check_round(state, rest)
    elif keyword == "game":
        match = re.fullmatch(r"totals ([\d ]+), rounds won ([\d ]+) -> ([\d -]+)", rest)
        assert match, f"bad game statement {rest!r}"
        totals, won, bonuses = (tuple(int(x) for x in group.split()) for group in match.groups())
        assert game_bonuses(totals, won, state.settings) == bonuses
    else:
        raise AssertionError(f"unknown statement {statement!r}")


def _check_round(state: State, text: str) -> None:
    match = re.fullmatch(r"(knock|out|exhausted|blocked)(?: by (\d+))?, hands ([\d ]+) -> ([\d -]+)", text)
    assert match, f"bad round statement {text!r}"
    reason, seat, hands, scores = match.groups()
    points = tuple(int(x) for x in hands.split())
    who = int(seat) - 1 if seat else None
    settings = state.settings
    if len(points) != settings.players:
        name = settings.variant.name
        settings = GameSettings.named(
            name,
            len(points),
            knock_only_after_meld=settings.variant.knock_only_after_meld,
            round_bonus_to_all=settings.variant.round_bonus_to_all,
        )
    end = RoundEnd(
        reason,  # type: ignore[arg-type]
        points,
        knocker=who if reason == "knock" else None,
        out=who if reason == "out" else None,
    )
    assert score_round(end, settings).scores == tuple(int(x) for x in scores.split())


@pytest.mark.parametrize("block", BLOCKS, ids=[block.id for block in BLOCKS])
def test_every_worked_example_agrees_with_the_code(block: Block) -> None:
    state = State()
    for number, statement in block.statements:
        try:
            _run(state, statement)
        except AssertionError as error:
            raise AssertionError(f"docs/rules.md line {number}: {statement!r}: {error}") from None


def test_the_document_covers_every_kind_of_check() -> None:
    keywords = Counter(
        statement.partition("  ")[0].strip() for block in BLOCKS for _, statement in block.statements
    )
    checks = ("meld", "bad meld", "position", "legal", "illegal", "best", "kept", "no play", "round", "game")
    for keyword in checks:
        assert keywords[keyword] >= 1, keyword
    assert sum(keywords.values()) >= 60


def test_the_rulebook_examples_are_all_there() -> None:
    """The worked examples of the original rule book, each as a position in docs/rules.md."""
    positions = {
        _split(statement.partition("  ")[2])[0]
        for block in BLOCKS
        for _, statement in block.statements
        if statement.startswith("position")
    }
    for example in (
        "Kh Kd Kc | Qh Qd Qc | Jh Jd Jc / Ac",
        "10h 10d 10s | Jh Jd Js | Qh Qd Qc / 9s",
        "10h 10d 10s | Jh Jd Js | Qh Qd Qc / 9s Qs Qh",
        "7h 8h *9h / 9h Jh",
        "2h 3h 4h | 10c Jc *Qc Kc | *10c Jc Qc Kc / Kh",
        "*Qh Qd Qs Qc / 10d Jd",
        "*Qh Qd Qs Qc / 10h Jh",
    ):
        assert example in positions, example


def test_readme_links_the_rules_in_the_repository() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "](docs/rules.md)" in readme
    assert "../shared/" not in readme
