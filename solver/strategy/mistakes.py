"""Learn from your mistakes: a review's clear mistakes and blunders as puzzles to retry.

``mistake_puzzles(review, ...)`` takes each reviewed decision in the mistake or blunder
band whose advised option is *clearly* better (the lower end of the loss's 95% interval
at or above the mistake band's floor, 15, measured on at least ``PUZZLE_MIN_DEALS``
deals: a t interval over a handful of deals of heavy-tailed values can look narrow by
chance), so a puzzle never asks for an answer the deals could not tell apart from the
move made.  The loss a puzzle reports is measured again on deals of its own
(``Decision.confirmed``, ``review(confirm=True)``): the review's loss chose the puzzles,
and among many decisions the clearest are those whose estimate came out high by chance
(a puzzle once said 98.1 where ``rummy advise`` measured 35.7).  A decision whose
advice is not better on those deals too (the interval reaches 0) is not a puzzle.  Each
puzzle is the decision's position and public facts (the other hands' sizes, the stock,
the scores, the draws left), the move the player made, the advised answer (a play with
its table and steps, or draw, pass, knock), the expected loss (the measure again, with
its band), and where it came from (the game's seed and players, the round, the action's
index, the seat).

The file format is JSON lines, one puzzle an object with ``"kind": "mistake"`` beside
the generated puzzles' fields that apply (``variant``, ``position``, ``table``, ``hand``,
``solution``); ``read_puzzles`` reads it back and names the line of any fault.
``judge`` says whether an answer (``draw``, ``pass``, ``knock``, or the table after a
play, with or without ``play``) is the advised one; a play is judged by the referee
first, then by the cards it plays (the same cards leave the same hand).
"""

from __future__ import annotations

import json
import math
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from solver.game.actions import Play, parse_action
from solver.game.deck import unseen_pieces
from solver.game.settings import GameSettings
from solver.position import Position, Table
from solver.referee import check_play, played_pieces
from solver.strategy.review import PUZZLE_MIN_DEALS, Review, band_of, clearly_a_mistake
from solver.strategy.stats import Interval
from solver.variants import PEER_VARIANT, Variant

__all__ = [
    "FORMAT",
    "PUZZLE_MIN_DEALS",
    "MistakePuzzle",
    "PuzzleFileError",
    "Verdict",
    "judge",
    "mistake_puzzles",
    "read_puzzles",
]

FORMAT = 2
"""The version of the mistake-puzzle records written: 2 names the peer's game
``rummikub-peer`` (1 named it ``rummikub``; ``_variant_of`` reads those back)."""

READ_FORMATS = (1, 2)
"""The versions this one reads."""


class PuzzleFileError(ValueError):
    """A puzzle file that cannot be read: the message names the line."""


@dataclass(frozen=True, slots=True)
class MistakePuzzle:
    """One decision to retry: the situation, the move made and the advised answer."""

    variant: Variant
    position: Position
    phase: str
    """``meld`` (play or decline) or ``knock`` (knock or pass)."""
    facts: dict[str, Any]
    made: str
    answer_kind: str
    answer: str
    """The advised answer in words."""
    answer_table: Table | None
    loss: Interval
    band: str
    game: dict[str, Any]
    """Where it came from: the log's name, the game's seed and players, round, action, seat."""

    def question(self) -> str:
        if self.phase == "knock":
            return "Your turn is over and your hand may knock: knock, or pass?"
        left = self.facts.get("draws_left", 0)
        decline = "draw" if left else "pass"
        return f"Your move: play (give the table after it), or {decline}?"

    def link(self) -> str:
        """The page's address for this position and its facts (the Advice button weighs
        them), opening with no answer shown: a meld decision with its draws left, a knock
        decision as one (``decision=knock``: the page's Advice weighs knock or pass)."""
        query = {"p": str(self.position), "v": self.variant.name, "players": str(self.facts["players"])}
        if self.variant.preset != self.variant.name:
            # The page knows the variants, not the presets: a preset's own deck (the peer's
            # has no jokers) travels as the cards the player cannot see.
            unseen = unseen_pieces(self.variant, (*self.position.table.pieces, *self.position.hand))
            query["unseen"] = " ".join(str(piece) for piece in unseen)
        sizes = self.facts.get("hand_sizes", [])
        if len(sizes) > 1:
            query["hand_sizes"] = ",".join(map(str, sizes[1:]))
        query["stock"] = str(self.facts["stock"])
        query["scores"] = ",".join(map(str, self.facts["scores"]))
        if self.phase == "meld":
            query["draws_left"] = str(self.facts["draws_left"])
        else:
            query["decision"] = "knock"
        if self.facts.get("opened") is False:
            query["opened"] = "0"  # Rummikub's opening is still to make: the page's box says so
        query["show"] = "none"  # a puzzle: the page opens without an answer
        return "/?" + urlencode(query)

    def to_dict(self) -> dict[str, Any]:
        solution: dict[str, Any] = {"action": self.answer_kind, "description": self.answer}
        if self.answer_table is not None:
            from solver.plan import plan_play

            plan = plan_play(self.position, self.answer_table, variant=self.variant)
            solution.update(
                table=str(self.answer_table),
                melds=[[str(piece) for piece in meld.pieces] for meld in self.answer_table],
                moves=plan.to_dicts(),
            )
        return {
            "kind": "mistake",
            "format": FORMAT,
            "variant": self.variant.preset,
            "players": self.facts["players"],
            "position": str(self.position),
            "table": str(self.position.table),
            "hand": [str(piece) for piece in self.position.hand],
            "phase": self.phase,
            "facts": {
                **self.facts,
                "hand_sizes": list(self.facts["hand_sizes"]),
                "scores": list(self.facts["scores"]),
            },
            "question": self.question(),
            "made": self.made,
            "solution": solution,
            "loss": self.loss.to_dict(2),
            "band": self.band,
            "game": self.game,
            "link": self.link(),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> MistakePuzzle:
        """Read a record of ``to_dict``; ValueError naming what is wrong."""
        if data.get("kind") != "mistake":
            kind = f"its kind is {data['kind']!r}" if "kind" in data else "it has no kind"
            raise ValueError(f'not a mistake puzzle ({kind}, not "mistake")')
        if data.get("format") not in READ_FORMATS:
            known = ", ".join(map(str, READ_FORMATS))
            raise ValueError(f"unknown format {data.get('format')!r} (this version reads {known})")
        try:
            facts = _facts(data["facts"])
            parsed = Position.parse(str(data["position"]))
            variant = _variant_of(data, facts, parsed)
            position = parsed.validate(variant)
            solution = data["solution"]
            if not isinstance(solution, dict):
                raise ValueError("solution must be an object")
            kind = str(solution["action"])
            table = solution.get("table")
            answer_table = None if table is None else Table.parse(str(table))
            loss = data["loss"]
            if not isinstance(loss, dict):
                raise ValueError("loss must be an object")
            estimate = _bound(loss["estimate"], math.nan)
            interval = Interval(
                estimate, _bound(loss.get("low"), -math.inf), _bound(loss.get("high"), math.inf)
            )
            phase = str(data["phase"])
            game = data.get("game") or {}
            if not isinstance(game, dict):
                raise ValueError("game must be an object")
        except KeyError as missing:
            raise ValueError(f"missing field {missing}") from None
        except (TypeError, AttributeError) as error:
            raise ValueError(f"a field has the wrong type ({error})") from None
        if phase not in ("meld", "knock"):
            raise ValueError(f"phase must be meld or knock, not {phase!r}")
        if kind not in ("play", "draw", "pass", "knock"):
            raise ValueError(f"unknown answer {kind!r}")
        if (kind == "play") != (answer_table is not None):
            raise ValueError("a play's answer needs its table, and only a play has one")
        _check_situation(variant, position, phase, facts, kind)
        if answer_table is not None:
            verdict = check_play(position, answer_table, variant=variant, opened=bool(facts["opened"]))
            if not verdict.ok:
                raise ValueError("the answer is not a legal play: " + "; ".join(verdict.reasons))
        return cls(
            variant=variant,
            position=position,
            phase=phase,
            facts=facts,
            made=str(data.get("made", "")),
            answer_kind=kind,
            answer=str(solution.get("description", kind)),
            answer_table=answer_table,
            loss=interval,
            band=str(data.get("band", "")),
            game=dict(game),
        )


def _variant_of(data: dict[str, Any], facts: dict[str, Any], position: Position) -> Variant:
    """The puzzle's rules: its variant or preset for its player count.  A format-1 record
    named the peer's jokerless game ``rummikub``; such a record's hands and stock hold
    exactly the unseen tiles of the peer's deck (two fewer than Rummikub's), so they say
    which it was."""
    variant = GameSettings.named(str(data["variant"]), facts["players"]).variant
    if data.get("format") != 1 or variant.preset != "rummikub" or facts["players"] != 2:
        return variant
    peer = Variant.named(PEER_VARIANT)
    seen = len(position.table.pieces) + len(position.hand)
    hidden = sum(facts["hand_sizes"][1:]) + facts["stock"]
    return peer if hidden == peer.deck_size - seen else variant


_ANSWERS = {"knock": ("knock", "pass"), "meld": ("play", "draw", "pass")}
"""The answers each phase allows."""


def _check_situation(
    variant: Variant, position: Position, phase: str, facts: dict[str, Any], kind: str
) -> None:
    """ValueError unless the puzzle is a situation a game can reach: its facts fit the
    position and the variant as the advice checks them (``game_facts``: hand sizes, stock,
    draws left, an empty hand), and its answer is one the phase allows (a draw only while
    a draw is left, a pass only in a final turn)."""
    from solver.strategy.advice import game_facts

    if kind not in _ANSWERS[phase]:
        *first, last = _ANSWERS[phase]
        raise ValueError(f"a {phase} decision is answered {', '.join(first)} or {last}, not {kind}")
    settings = GameSettings.named(variant.preset, facts["players"])
    draws_left = facts["draws_left"] if phase == "meld" else None
    game_facts(
        position,
        settings,
        hand_sizes=facts["hand_sizes"],
        stock=facts["stock"],
        scores=facts["scores"],
        draws_left=draws_left,
    )
    if phase == "meld" and settings.turn == "draw_first":
        decline = "draw" if facts["draws_left"] else "pass"
        if kind in ("draw", "pass") and kind != decline:
            left = facts["draws_left"]
            raise ValueError(f"with {left} draw(s) left the decline is {decline}, not {kind}")


def _whole(value: object, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"facts.{name} must be a whole number, 0 or more, not {value!r}")
    return value


def _facts(value: object) -> dict[str, Any]:
    """A puzzle's facts, checked: players, hand sizes, stock, scores, draws left, opened."""
    if not isinstance(value, dict):
        raise ValueError("facts must be an object")
    facts: dict[str, Any] = {}
    for name in ("players", "stock", "draws_left"):
        if name not in value:
            raise ValueError(f"missing field 'facts.{name}'")
        facts[name] = _whole(value[name], name)
    for name in ("hand_sizes", "scores"):
        numbers = value.get(name)
        if not isinstance(numbers, list) or len(numbers) != facts["players"]:
            raise ValueError(f"facts.{name} must list {facts['players']} whole numbers, not {numbers!r}")
        facts[name] = [_whole(number, name) for number in numbers]
    facts["opened"] = bool(value.get("opened", True))
    return facts


def _bound(value: object, missing: float) -> float:
    """An interval's figure as written (null: ``missing``, unbounded for an end)."""
    if value is None and not math.isnan(missing):
        return missing
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ValueError(f"loss must hold numbers, not {value!r}")
    return float(value)


def mistake_puzzles(found: Review, variant: Variant, *, game: dict[str, Any]) -> list[MistakePuzzle]:
    """The review's clear mistakes and blunders as puzzles (module docstring), from a
    review that confirmed them (``review(confirm=True)``); ``game`` says where the log
    came from (its name, seed)."""
    puzzles: list[MistakePuzzle] = []
    for decision in found.decisions:
        if not clearly_a_mistake(decision) or decision.advised_kind == "":
            continue
        confirmed = decision.confirmed
        if confirmed is None or confirmed.low <= 0:
            continue  # not measured again, or the advice not better on deals of its own
        puzzles.append(
            MistakePuzzle(
                variant=variant,
                position=Position.parse(decision.position),
                phase=decision.phase,
                facts=dict(decision.facts),
                made=decision.made,
                answer_kind=decision.advised_kind,
                answer=decision.advised,
                answer_table=None if decision.advised_table is None else Table.parse(decision.advised_table),
                loss=confirmed,
                band=band_of(confirmed),
                game={
                    **game,
                    "players": list(found.players),
                    "round": decision.round_number,
                    "turn": decision.turn,
                    "action": decision.action,
                    "seat": decision.seat,
                    "player": found.players[decision.seat],
                },
            )
        )
    return puzzles


def read_puzzles(lines: Iterable[str]) -> list[MistakePuzzle]:
    """Every puzzle of a mistake-puzzle file (blank lines skipped); PuzzleFileError naming
    the first bad line."""
    puzzles: list[MistakePuzzle] = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            data = json.loads(line)
            if not isinstance(data, dict):
                raise ValueError("a line must be a JSON object")
            puzzles.append(MistakePuzzle.from_dict(data))
        except json.JSONDecodeError as error:
            raise PuzzleFileError(f"line {number}: not JSON ({error.msg})") from None
        except ValueError as error:
            raise PuzzleFileError(f"line {number}: {error}") from None
    return puzzles


@dataclass(frozen=True, slots=True)
class Verdict:
    """Whether an answer is the advised one, and why not."""

    right: bool
    legal: bool
    message: str


def _played(position: Position, table: Table) -> Counter[str]:
    real, jokers = played_pieces(position, table)
    counts: Counter[str] = Counter(str(card) for card in real.elements())
    counts["*"] += jokers
    return +counts


def _moves(puzzle: MistakePuzzle) -> tuple[str, ...]:
    """The kinds of move the puzzle's decision allows: knock or pass after a turn's melds,
    else a play or a draw (a pass in a final turn, no draw left)."""
    if puzzle.phase == "knock":
        return ("knock", "pass")
    return ("play", "draw") if puzzle.facts.get("draws_left", 0) else ("play", "pass")


def _how_to_answer(allowed: Sequence[str]) -> str:
    """How to write an answer, naming only the moves the decision allows (a Rummikub
    puzzle says nothing of knocking)."""
    words = [kind for kind in allowed if kind != "play"]
    said = f"answer with {' or '.join(words)}"
    return f"{said}, or the table after a play (play 7h 8h 9h | ...)" if "play" in allowed else said


def judge(puzzle: MistakePuzzle, text: str) -> Verdict:
    """Judge an answer (``draw``, ``pass``, ``knock``, ``play TABLE`` or a bare table)."""
    words = text.strip()
    allowed = _moves(puzzle)
    how = _how_to_answer(allowed)
    if not words:
        return Verdict(False, False, f"no answer given: {how}")
    first = words.split()[0].lower()
    try:
        action = parse_action(words if first in ("play", "draw", "pass", "knock") else f"play {words}")
    except ValueError as error:
        return Verdict(False, False, f"not an answer ({error}): {how}")
    if action.kind not in allowed:
        return Verdict(False, False, f"{action.kind} is not a move here, only {' or '.join(allowed)}")
    if isinstance(action, Play):
        verdict = check_play(
            puzzle.position,
            action.table,
            variant=puzzle.variant,
            opened=bool(puzzle.facts.get("opened", True)),
        )
        if not verdict.ok:
            return Verdict(False, False, "not a legal play: " + "; ".join(verdict.reasons))
        if puzzle.answer_table is not None and _played(puzzle.position, action.table) == _played(
            puzzle.position, puzzle.answer_table
        ):
            return Verdict(True, True, f"that plays the advised cards ({puzzle.answer})")
        return Verdict(False, True, f"a legal play, but the advice is: {puzzle.answer}")
    if action.kind == puzzle.answer_kind:
        return Verdict(True, True, f"that is the advice ({puzzle.answer})")
    return Verdict(False, True, f"the advice is: {puzzle.answer}")
