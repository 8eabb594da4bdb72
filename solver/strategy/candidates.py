"""Candidates: the one place that turns an action of the player to move into the state it produces.

The search bot (``solver.strategy.pimc``), the advice (``solver.strategy.advice``) and the review
(``solver.strategy.review``) weigh options by playing them in sampled deals.  An option is a
``Candidate``: a label, its kind, the play behind it (a ``Hint`` *on the real position*:
its hand is the player's whole hand minus the cards the play lays, its knock and
going-out flags those of that hand) and the rollout steps that carry it out.

Why one place: a smaller play that holds cards back is found by asking the engine for
the best play of *part* of the hand, and that answer's hand is the part's rest; taking it
as the player's hand made the held cards vanish from the evaluation (the held-back play
then looked as good as the best one, and a knock after it looked legal).  ``rebase``
puts such an answer back on the player's real position, and every candidate built here
goes through it.  The rollouts check the other half (``Rollout.act``): no step makes a
card appear or disappear.

What is offered at a meld decision (``meld_candidates``, its ``CandidateSet`` says how
many of each):

- ``best``: the best play (fewest points left), then ``alternatives`` more plays with
  distinct played cards (``alt1``, ``alt2``: ``solver.engine.alternatives``);
- ``hold:jokers``: the best play that keeps the hand's jokers back, and ``hold:meld``:
  for the ``holds`` largest groups of hand cards the best play lays in one meld, the
  best play without those cards;
- with ``knock_variants``, a play after which the hand may knock comes twice,
  ``+knock`` and ``+pass``; without, the rollout's policy decides the knock;
- the decline: ``draw`` (or ``pass`` in a final turn).

A play that goes out is going out: it ends the round at once, and the callers take it
without weighing (``goes_out``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Literal

from solver.cards import Card, Joker, Piece, piece_sort_key
from solver.engine import Hint, alternatives, hint
from solver.game.actions import Action, Draw, Knock, Pass, Play
from solver.game.view import PlayerView
from solver.position import Hand
from solver.referee import melds_broken, played_pieces
from solver.strategy.bots import best_play
from solver.strategy.rollout import PlayedHint

__all__ = [
    "BOT_SET",
    "COACH_SET",
    "REVIEW_SET",
    "Candidate",
    "CandidateKind",
    "CandidateSet",
    "decline_candidate",
    "goes_out",
    "hold_backs",
    "knock_candidates",
    "made_candidate",
    "meld_candidates",
    "play_candidates",
    "rebase",
]

CandidateKind = Literal["play", "draw", "pass", "knock", "continue"]
"""``continue``: no action of its own; the rollout's policy decides from here (the review's
luck measures what playing on is worth)."""


@dataclass(frozen=True, slots=True)
class Candidate:
    """One option of the turn: a label for the reports, its kind, the play behind it
    (rebased on the real position, so ``found.hand`` is the hand it really leaves),
    whether it knocks after the play (None: no such choice, or left to the policy) and
    the rollout steps that carry it out."""

    label: str
    kind: CandidateKind
    steps: tuple[Action | PlayedHint, ...]
    found: Hint | None = None
    knock: bool | None = None

    @property
    def action(self) -> Action:
        """The action the player takes now (the first step)."""
        if not self.steps:
            raise ValueError(f"the candidate {self.label!r} takes no action of its own")
        first = self.steps[0]
        return Play(first.found.table) if isinstance(first, PlayedHint) else first

    @property
    def played(self) -> tuple[Piece, ...]:
        return self.found.played if self.found is not None else ()

    @property
    def played_key(self) -> tuple[str, ...]:
        """The played cards in canonical order: two plays with equal keys leave equal hands."""
        return tuple(str(piece) for piece in sorted(self.played, key=piece_sort_key))

    def describe(self) -> str:
        """The option in words: what to do."""
        if self.found is None:
            return self.kind
        cards = " ".join(str(piece) for piece in self.played)
        after = {True: ", then knock", False: ", then do not knock", None: ""}[self.knock]
        out = " to go out" if self.found.goes_out else ""
        return f"play {cards}{out}{after}"


@dataclass(frozen=True, slots=True)
class CandidateSet:
    """How many options of each kind ``meld_candidates`` offers (module docstring)."""

    alternatives: int = 0
    """Plays besides the best one, with distinct played cards."""
    holds: int = 1
    """Groups of the best play's cards held back (largest first), one play each."""
    hold_jokers: bool = True
    knock_variants: bool = False
    """Offer a play that may knock twice (knock, and not); else the policy knocks."""


BOT_SET = CandidateSet(alternatives=0, holds=1, knock_variants=False)
"""What the search bot weighs (cheap: every decision of a game)."""
COACH_SET = CandidateSet(alternatives=2, holds=2, knock_variants=True)
"""What the advice weighs: the bot's options and more."""
REVIEW_SET = CandidateSet(alternatives=1, holds=1, knock_variants=True)
"""What the review weighs at each decision (besides the move made): the bot's options, one
more play and the knock as a choice of its own; fewer than the advice, since a game has
dozens of decisions."""


def _remove(pieces: Sequence[Piece], taken: Sequence[Piece]) -> list[Piece]:
    """``pieces`` less ``taken`` (as multisets); ValueError when ``taken`` is not in them."""
    left = list(pieces)
    for piece in taken:
        try:
            left.remove(Joker() if isinstance(piece, Joker) else piece)
        except ValueError:
            raise ValueError(f"the play lays {piece}, which is not in the hand {Hand.of(pieces)}") from None
    return left


def rebase(view: PlayerView, found: Hint) -> Hint:
    """``found`` (a play for the view's table and the whole hand or part of it) as the play
    of the view's real position: the hand it leaves is the whole hand minus the cards it
    lays, so held-back cards stay.  ValueError when it lays a card the hand lacks or was
    found for another table."""
    if found.position.table != view.table:
        raise ValueError("the play was found for another table")
    if not found.has_play:
        return replace(found, position=view.position, hand=view.hand)
    hand = Hand.of(_remove(view.hand.pieces, found.played))
    return replace(found, position=view.position, hand=hand)


def goes_out(found: Hint | None) -> bool:
    return found is not None and found.goes_out


def decline_candidate(view: PlayerView) -> Candidate:
    """Draw, or pass where no draw is due."""
    decline = view.decline()
    kind: CandidateKind = "draw" if isinstance(decline, Draw) else "pass"
    return Candidate(kind, kind, (decline,))


def knock_candidates() -> list[Candidate]:
    """The options of a knock decision."""
    return [Candidate("knock", "knock", (Knock(),)), Candidate("pass", "pass", (Pass(),))]


def play_candidates(view: PlayerView, label: str, found: Hint, *, knock_variants: bool) -> list[Candidate]:
    """The candidate(s) of one play: rebased on the real position; with
    ``knock_variants`` and a hand left that may knock, the play then knock and the play
    then pass."""
    real = rebase(view, found)
    step = PlayedHint(real)
    if knock_variants and not real.goes_out and real.can_knock:
        return [
            Candidate(label + "+knock", "play", (step, Knock()), real, True),
            Candidate(label + "+pass", "play", (step, Pass()), real, False),
        ]
    return [Candidate(label, "play", (step,), real)]


def hold_backs(
    view: PlayerView, best: Hint, *, holds: int, jokers: bool, time_limit: float
) -> list[tuple[str, Hint]]:
    """Smaller plays than ``best`` that keep some of its cards in the hand, labelled and
    rebased on the real position: the best play keeping the jokers back
    (``hold:jokers``), and the best play without the real cards ``best`` lays in one
    meld (``hold:meld``, the ``holds`` largest such groups first)."""
    found: list[tuple[str, Hint]] = []
    if jokers and best.hand.joker_count < view.hand.joker_count:
        kept_jokers = hint(
            view.position, variant=view.variant, keep_jokers=True, opened=view.opened, time_limit=time_limit
        )
        found.append(("hold:jokers", rebase(view, kept_jokers)))
    played = Counter(piece for piece in best.played if isinstance(piece, Card))
    groups: list[list[Card]] = []
    for meld in best.table:
        laid = Counter(piece for piece in meld.pieces if isinstance(piece, Card)) & played
        if laid:
            groups.append(sorted(laid.elements(), key=piece_sort_key))
            played -= laid
    groups.sort(key=lambda group: -len(group))
    for group in groups[:holds]:
        if len(group) == len(best.played):
            continue
        rest = Counter(view.hand.pieces)
        rest.subtract(group)
        part = best_play(view, hand=Hand.of(rest.elements()), time_limit=time_limit)
        found.append(("hold:meld", rebase(view, part)))
    kept = [(label, play) for label, play in found if play.has_play]
    # Labels name one option each: a second group held back is hold:meld2.
    seen: Counter[str] = Counter()
    labelled: list[tuple[str, Hint]] = []
    for label, play in kept:
        seen[label] += 1
        labelled.append((label if seen[label] == 1 else f"{label}{seen[label]}", play))
    return labelled


def meld_candidates(
    view: PlayerView,
    options: CandidateSet,
    *,
    time_limit: float,
    best: Hint | None = None,
    holds: bool = True,
) -> list[Candidate]:
    """The options of a meld decision (module docstring), plays with distinct played
    cards, the decline last.  ``best`` is the best play when the caller has it already;
    ``holds=False`` leaves the hold-backs out."""
    plays: list[Hint]
    if options.alternatives > 0:
        plays = list(
            alternatives(
                view.position,
                count=options.alternatives + 1,
                variant=view.variant,
                opened=view.opened,
                time_limit=time_limit,
            )
        )
    else:
        first = best if best is not None else best_play(view, time_limit=time_limit)
        plays = [first] if first.has_play else []
    labelled = [("best" if i == 0 else f"alt{i}", found) for i, found in enumerate(plays)]
    if plays and holds:
        labelled.extend(
            hold_backs(view, plays[0], holds=options.holds, jokers=options.hold_jokers, time_limit=time_limit)
        )
    candidates: list[Candidate] = []
    seen: set[tuple[str, ...]] = set()
    for label, found in labelled:
        for candidate in play_candidates(view, label, found, knock_variants=options.knock_variants):
            key = (*candidate.played_key, str(candidate.knock))
            if key not in seen:
                seen.add(key)
                candidates.append(candidate)
    candidates.append(decline_candidate(view))
    return candidates


def made_candidate(view: PlayerView, action: Action, label: str = "made") -> Candidate:
    """The candidate of an action a player took (a logged move): a play is rebased through
    the referee's count of what it lays, so it is the state that action really produced."""
    if isinstance(action, Play):
        real, jokers = played_pieces(view.position, action.table)
        played: list[Piece] = [*real.elements(), *([Joker()] * jokers)]
        hand = Hand.of(_remove(view.hand.pieces, played))
        found = Hint(
            status="feasible",
            position=view.position,
            variant=view.variant,
            objective="points",
            table=action.table,
            played=tuple(sorted(played, key=piece_sort_key)),
            hand=hand,
            melds_broken=melds_broken(view.table, action.table),
            build_ms=0.0,
            solve_ms=0.0,
        )
        return Candidate(label, "play", (PlayedHint(found),), found)
    kind: CandidateKind = action.kind
    return Candidate(label, kind, (action,))
