"""Analysis of a position: playable cards, the number of best plays, draw-or-meld, outs.

In Manipulation Rummy the real decision of most turns is whether to meld now or to draw
another card first.  ``draw_or_meld`` answers it exactly; ``analyze`` adds which hand
cards can ever be played and how many different best plays there are.

Definitions (every figure is exact unless a time limit stopped a solve, see ``exact``):

- *Unseen cards*: the variant's full deck minus the table and the hand (or the cards
  given).  The next card is one of them, each copy equally likely: a kind with ``n``
  unseen copies out of ``N`` is drawn with probability ``n / N``.  An unseen joker is a
  possible draw.
- *Meld now*: ``meld_now_points`` is the fewest points the hand can keep after one
  legal play now, or the hand's points when no play exists.
- *Draw*: the card is drawn, then the player makes the best play of the new hand, or
  none (playing never adds points, so this is the fewest points reachable).
  ``draw_expected_points`` is the exact expectation of those points over the draw.
- *Lets the player knock*: after the draw and the best play the hand holds at most
  ``variant.knock_threshold`` points; with ``knock_only_after_meld`` a play must also
  have been made.  Never, in a variant without knocking.
- *Lets the player go out*: some legal play after the draw empties the hand.
- *Advice*: ``draw`` when no play exists now, or when drawing is expected to leave
  strictly fewer points than melding now; otherwise ``meld``.  With no unseen card the
  draw changes nothing (RULES.md: an empty stock draws nothing), so the figures are
  those of the current position.

Each "draw card X, then play at best" is an independent best-play question; they are
answered together by ``solver.cpsat.draws`` (one model, exact bounds, few searches).
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from solver.cards import ALL_CARDS, Card, Joker, Piece, piece_sort_key
from solver.engine import (
    DEFAULT_TIME_LIMIT,
    MAX_JOKERS,
    DrawResults,
    Hint,
    best_after_draws,
    best_play_count,
    hint,
    usable_pieces,
)
from solver.facts import EmptyHandError, variant_for
from solver.position import Hand, Position, as_position, deck_problems
from solver.variants import Variant, as_variant

__all__ = [
    "DEFAULT_PLAY_COUNT_CAP",
    "Analysis",
    "DrawAdvice",
    "DrawOutcome",
    "UnseenError",
    "analyze",
    "draw_or_meld",
    "unseen_counts",
]

DEFAULT_PLAY_COUNT_CAP = 50

Advice = Literal["meld", "draw"]


class UnseenError(ValueError):
    """Unseen cards that the deck cannot hold next to the table and the hand."""


@dataclass(frozen=True, slots=True)
class DrawOutcome:
    """What drawing one kind of card leads to."""

    piece: Piece
    """The card, or ``Joker()`` for a joker."""
    copies: int
    """Unseen copies of it: the draw's weight."""
    points: int
    """Hand points after the draw and the best play (or no play)."""
    has_play: bool
    knocks: bool
    goes_out: bool

    def to_dict(self) -> dict[str, object]:
        return {
            "card": str(self.piece),
            "copies": self.copies,
            "points": self.points,
            "has_play": self.has_play,
            "knocks": self.knocks,
            "goes_out": self.goes_out,
        }


@dataclass(frozen=True, slots=True)
class DrawAdvice:
    """Meld now, or draw one more card and then play at best (see the module docstring):
    in the same turn in Manipulation Rummy, at the next turn on the table as it is now where
    the draw ends the turn (``Variant.draw_ends_turn``: Machiavelli, Rummikub)."""

    meld_now_points: int
    """Fewest hand points after one legal play now; the hand's points when there is none."""
    draw_expected_points: float
    """Exact expectation (as a float) of the hand points after drawing one unseen card and
    then making the best play, or none."""
    knock_probability: float
    """Chance that after the draw and the best play the hand may knock: at most
    ``knock_threshold`` points (and, with ``knock_only_after_meld``, a play was made)."""
    out_probability: float
    """Chance that after the draw some legal play empties the hand."""
    advice: Advice
    """``draw`` when no play exists now or drawing is expected to leave strictly fewer points."""
    go_out_cards: list[Card]
    """Unseen real cards that would let the player go out."""
    knock_cards: list[Card]
    """Unseen real cards that would let the player knock (going out included)."""
    joker_goes_out: bool = False
    """An unseen joker, if drawn, would let the player go out."""
    joker_knocks: bool = False
    can_meld_now: bool = False
    unseen_cards: int = 0
    """Unseen copies in all."""
    outcomes: tuple[DrawOutcome, ...] = ()
    exact: bool = True
    elapsed_ms: float = 0.0
    draw_expected_fraction: Fraction = Fraction(0)
    """``draw_expected_points`` as the exact fraction it is rounded from."""

    def to_dict(self) -> dict[str, object]:
        """JSON form; the outs lists name a joker as ``*`` when one qualifies."""
        joker = [str(Joker())]
        return {
            "meld_now_points": self.meld_now_points,
            "draw_expected_points": self.draw_expected_points,
            "draw_expected_fraction": str(self.draw_expected_fraction),
            "knock_probability": self.knock_probability,
            "out_probability": self.out_probability,
            "advice": self.advice,
            "can_meld_now": self.can_meld_now,
            "outs": {
                "go_out": [str(c) for c in self.go_out_cards] + (joker if self.joker_goes_out else []),
                "knock": [str(c) for c in self.knock_cards] + (joker if self.joker_knocks else []),
            },
            "unseen_cards": self.unseen_cards,
            "draws": [outcome.to_dict() for outcome in self.outcomes],
            "exact": self.exact,
            "stats": {"ms": round(self.elapsed_ms, 3)},
        }


@dataclass(frozen=True, slots=True)
class Analysis:
    """Everything ``analyze`` finds about one position."""

    position: Position
    variant: Variant
    best: Hint
    playable: tuple[Piece, ...]
    """Distinct hand pieces that some legal play uses (a joker as ``*``)."""
    never_playable: tuple[Piece, ...]
    optimal_plays: int
    """Distinct sets of played cards among the best plays (at most the cap)."""
    optimal_plays_capped: bool
    """More best plays exist than ``optimal_plays`` says: the cap stopped the count."""
    draw: DrawAdvice
    exact: bool
    elapsed_ms: float
    players_assumed: bool = False
    """The player count (and so the deck) was not given: ``solver.facts.implied_players``."""

    def to_dict(self) -> dict[str, object]:
        return {
            "position": str(self.position),
            "variant": self.variant.preset,
            "facts": {
                "players": self.variant.players,
                "decks": self.variant.decks,
                "jokers": self.variant.jokers,
                "unseen": self.draw.unseen_cards,
                "assumed": ["players"] if self.players_assumed else [],
            },
            "hand_points": self.position.hand.points(self.variant),
            "best": _payload(self.best),
            "playable": [str(p) for p in self.playable],
            "never_playable": [str(p) for p in self.never_playable],
            "optimal_plays": self.optimal_plays,
            "optimal_plays_capped": self.optimal_plays_capped,
            **{key: value for key, value in self.draw.to_dict().items() if key != "stats"},
            "exact": self.exact,
            "stats": {"ms": round(self.elapsed_ms, 3), "draw_ms": round(self.draw.elapsed_ms, 3)},
        }


def unseen_counts(
    position: Position, variant: Variant, unseen: Sequence[Piece] | None = None
) -> Counter[Piece]:
    """Unseen copies per kind (jokers under ``Joker()``): the deck minus the table and the
    hand, or the ``unseen`` pieces given, checked against the deck (UnseenError)."""
    seen = [*position.table.pieces, *position.hand.pieces]
    if unseen is None:
        counts: Counter[Piece] = Counter({card: variant.decks for card in ALL_CARDS})
        counts[Joker()] = variant.jokers
        for piece in seen:
            counts[Joker() if isinstance(piece, Joker) else piece] -= 1
        return +counts
    declared = sorted({str(p) for p in unseen if isinstance(p, Joker) and p.declared is not None})
    if declared:
        raise UnseenError(f"an unseen joker is written * without a card, not {', '.join(declared)}")
    problems = deck_problems([*seen, *unseen], variant)
    if problems:
        raise UnseenError("unseen cards impossible next to the table and the hand: " + "; ".join(problems))
    return Counter(unseen)


def as_unseen(unseen: Sequence[Piece] | str | None) -> tuple[Piece, ...] | None:
    """Unseen cards as pieces: given as pieces (``Card`` or ``Joker``) or their notation
    (``"2h 3h *"``); None stays None.  A TypeError says what to pass for anything else
    (a string is not read as a sequence of one-letter cards)."""
    if unseen is None:
        return None
    if isinstance(unseen, str):
        return Hand.parse(unseen, label="unseen card").pieces
    wrong = (
        unseen
        if not isinstance(unseen, Sequence)
        else next((p for p in unseen if not isinstance(p, Card | Joker)), None)
    )
    if wrong is not None:
        raise TypeError(
            "unseen must be pieces (Card or Joker) or their notation such as '2h 3h *'; "
            f"got {type(wrong).__name__} {wrong!r}"
        )
    return tuple(unseen)


def _inputs(
    position: Position | str, variant: Variant | str | None, unseen: Sequence[Piece] | str | None
) -> tuple[Position, Variant, Sequence[Piece] | None]:
    """The arguments as objects: notation parsed, a preset's name looked up, as ``hint``
    accepts them (a TypeError says what to pass for anything else)."""
    unseen = as_unseen(unseen)
    parsed = as_position(position)
    if variant is None or isinstance(variant, str):
        # The deck a position implies when no player count is given (solver.facts).
        name = as_variant(variant).name
        return parsed, variant_for(name, None, parsed, unseen or ())[0], unseen
    return parsed, as_variant(variant), unseen


def _check(position: Position, variant: Variant, time_limit: float) -> Position:
    """The position in canonical order, once it and the options are checked."""
    if not len(position.hand):
        raise EmptyHandError
    position = position.validate(variant)
    if not time_limit > 0:
        raise ValueError(f"time limit must be a positive number of seconds, not {time_limit}")
    if variant.jokers > MAX_JOKERS:
        raise ValueError(f"the hint engine supports at most {MAX_JOKERS} jokers, not {variant.jokers}")
    lowest = min(variant.card_points(card) for card in ALL_CARDS)
    if lowest <= 0 or (variant.jokers and variant.joker_points <= 0):
        raise ValueError("the analysis needs every card and joker to count points in a hand")
    return position


def _advice(found: DrawResults, unseen: Counter[Piece], variant: Variant, started: float) -> DrawAdvice:
    """Weigh the draw outcomes by their unseen copies."""
    outcomes = [
        DrawOutcome(
            d.piece,
            unseen[d.piece],
            d.points,
            d.has_play,
            variant.may_knock(d.points, melded=d.has_play),
            d.has_play and d.points == 0,
        )
        for d in found.draws
    ]
    outcomes.sort(key=lambda o: piece_sort_key(o.piece))
    total = sum(o.copies for o in outcomes)
    meld_now = found.now_points
    if total:
        expected = Fraction(sum(o.copies * o.points for o in outcomes), total)
        knock = Fraction(sum(o.copies for o in outcomes if o.knocks), total)
        out = Fraction(sum(o.copies for o in outcomes if o.goes_out), total)
    else:  # nothing left to draw: drawing changes nothing
        expected = Fraction(meld_now)
        knock = Fraction(int(variant.may_knock(meld_now, melded=found.now_has_play)))
        out = Fraction(int(found.now_has_play and meld_now == 0))
    advice: Advice = "draw" if not found.now_has_play or expected < meld_now else "meld"
    return DrawAdvice(
        meld_now_points=meld_now,
        draw_expected_points=float(expected),
        knock_probability=float(knock),
        out_probability=float(out),
        advice=advice,
        go_out_cards=[o.piece for o in outcomes if o.goes_out and isinstance(o.piece, Card)],
        knock_cards=[o.piece for o in outcomes if o.knocks and isinstance(o.piece, Card)],
        joker_goes_out=any(o.goes_out and isinstance(o.piece, Joker) for o in outcomes),
        joker_knocks=any(o.knocks and isinstance(o.piece, Joker) for o in outcomes),
        can_meld_now=found.now_has_play,
        unseen_cards=total,
        outcomes=tuple(outcomes),
        exact=found.now_exact and all(d.exact for d in found.draws),
        elapsed_ms=(time.perf_counter() - started) * 1000,
        draw_expected_fraction=expected,
    )


def draw_or_meld(
    position: Position | str,
    *,
    variant: Variant | str | None = None,
    unseen: Sequence[Piece] | str | None = None,
    time_limit: float = DEFAULT_TIME_LIMIT,
) -> DrawAdvice:
    """Meld now or draw first: exact expected points, knock and go-out chances, outs.

    ``position`` is a ``Position`` or its notation, ``variant`` a ``Variant``, a preset's
    name or None for Manipulation Rummy (as for ``hint``).  ``unseen`` defaults to the
    deck minus the table and the hand; given, it is a sequence of pieces (jokers written
    ``Joker()``) or their notation (``"2h 3h *"``).  ``time_limit`` bounds each solve.
    Raises NotationError for malformed notation, PositionError for an impossible
    position, UnseenError for impossible unseen cards and TypeError for arguments of
    the wrong kind.
    """
    started = time.perf_counter()
    where, rules, pieces = _inputs(position, variant, unseen)
    where = _check(where, rules, time_limit)
    counts = unseen_counts(where, rules, pieces)
    return _draw_advice(where, rules, counts, time_limit, started)


def _draw_advice(
    position: Position,
    variant: Variant,
    unseen: Counter[Piece],
    time_limit: float,
    started: float,
    *,
    now: Hint | None = None,
) -> DrawAdvice:
    """The draw-or-meld answer for a checked position and its unseen counts; ``now`` is
    the position's best play when the caller has it (``best_after_draws``)."""
    found = best_after_draws(
        position, variant, sorted(unseen, key=piece_sort_key), time_limit=time_limit, now=now
    )
    return _advice(found, unseen, variant, started)


def analyze(
    position: Position | str,
    *,
    variant: Variant | str | None = None,
    unseen: Sequence[Piece] | str | None = None,
    time_limit: float = DEFAULT_TIME_LIMIT,
    play_count_cap: int = DEFAULT_PLAY_COUNT_CAP,
) -> Analysis:
    """The best play, which hand pieces can ever be played, how many best plays there
    are (distinct sets of played cards, up to ``play_count_cap``), and ``draw_or_meld``.

    The arguments are as for ``draw_or_meld``; ``time_limit`` bounds each solve.  Raises
    NotationError, PositionError, UnseenError, ValueError or TypeError for bad input.
    """
    started = time.perf_counter()
    position, rules, unseen = _inputs(position, variant, unseen)
    position = _check(position, rules, time_limit)
    if play_count_cap < 1:
        raise ValueError(f"the play count cap must be at least 1, not {play_count_cap}")
    counts = unseen_counts(position, rules, unseen)
    best = hint(position, variant=rules, time_limit=time_limit)
    # draw_or_meld, given the best play just found (the draws need it, not again).
    draw = _draw_advice(position, rules, counts, time_limit, time.perf_counter(), now=best)
    exact = draw.exact and best.status in ("optimal", "no_play")
    if best.has_play:
        usable = usable_pieces(position, rules, known=best.played, time_limit=time_limit)
        playable, never = usable.playable, usable.never
        counted = best_play_count(
            position,
            rules,
            best_points=best.hand_points,
            never=never if usable.by_points else None,
            cap=play_count_cap,
            time_limit=time_limit,
        )
        count, capped = counted.count, counted.capped
        exact = exact and usable.exact and counted.exact
    else:
        distinct = {Joker() if isinstance(p, Joker) else p for p in position.hand.pieces}
        playable, never = (), tuple(sorted(distinct, key=piece_sort_key))
        count, capped = 0, False
    return Analysis(
        players_assumed=not isinstance(variant, Variant),
        position=position,
        variant=rules,
        best=best,
        playable=playable,
        never_playable=never,
        optimal_plays=count,
        optimal_plays_capped=capped,
        draw=draw,
        exact=exact,
        elapsed_ms=(time.perf_counter() - started) * 1000,
    )


def _payload(found: Hint) -> dict[str, object]:
    """The hint JSON with its steps (the plan is imported when an analysis is printed, not
    when this module is: the CLI imports it for every command)."""
    from solver.report import hint_payload

    return hint_payload(found)
