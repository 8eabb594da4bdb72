"""Determinized rollouts: guess the hidden cards, play the round on with a fast policy, score it.

The search bot (``solver.strategy.pimc``) judges a candidate action by playing it in many
*determinizations*: complete rounds consistent with what the player has seen (its own
hand, the table, the other hands' sizes, the stock size), with the hidden cards dealt at
random.  This module builds such a round (``determinize``), applies actions to it
without asking the referee again (``Rollout.act``: the actions come from the hint
engine, whose plays the test suite checks against the referee), plays it on with a
fast policy per player up to a horizon (``play_out``: ``greedy_action`` by default,
``hoarder_action`` for a player the search bot models as a hoarder) and scores the
outcome for one player (``utility``).
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable, Collection, Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from solver.cards import Card, Joker, Piece
from solver.engine import Hint, PointsLeft, hint_of_valid, leaves_at_most, points_left
from solver.game.actions import Action, Draw, Knock, Pass, Play
from solver.game.scoring import EndReason, RoundEnd, RoundScore, score_round
from solver.game.state import RoundState
from solver.game.view import PlayerView
from solver.position import Hand, Position, Table
from solver.strategy.dead_cards import hopeless
from solver.variants import Variant

_T = TypeVar("_T")

__all__ = [
    "HOARD_MARGIN",
    "Policy",
    "Rollout",
    "RolloutError",
    "RolloutSettings",
    "clear_cache",
    "determinize",
    "greedy_action",
    "hoarder_action",
    "hoarding_action",
    "patient_hoarder_action",
    "play_out",
    "race_chances",
    "round_score",
    "settle",
    "utility",
]

GAME_WIN_WEIGHT = 100
"""Utility of winning the game (a one-round game, or a round that ends a game to 150),
on top of the points: a match counts games won, not margins."""

ROUND_WIN_WEIGHT = 25
"""Utility of winning a round of Manipulation Rummy: the end-of-game bonus per round won."""


RACE_SLOPE = 0.0
"""Log-odds of going out first per card fewer left after the best play (``race_chances``):
none; a small hand is no nearer to going out (``race_chances``)."""


@dataclass(frozen=True, slots=True)
class RolloutSettings:
    """How far and how fast a rollout plays: ``horizon`` turns after the current one, each
    hint within ``time_limit`` seconds; ``settle``: whether a round still running at the
    horizon is scored on the hands left after their best plays (``settle``)."""

    horizon: int = 4
    time_limit: float = 1.0
    settle: bool = False
    race: bool = False
    """First-out games (``first_out`` scoring): a round still running at the horizon is
    valued by the race to go out (``race_chances``) instead of counted as a blocked end;
    implies the settled count's hints.  No effect on Manipulation Rummy."""
    race_slope: float = RACE_SLOPE
    """The race's log-odds per card fewer left after the best play (``race_chances``)."""


@dataclass(frozen=True, slots=True)
class PlayedHint:
    """A play whose result (the table and the hand left) the hint engine already knows."""

    found: Hint


class Rollout(RoundState):
    """A round rebuilt from one player's view with guessed hidden cards (see ``determinize``).

    ``act`` applies an action without the referee's check: callers pass only the
    actions of the hint engine and the legal kinds of the view.  It does check what
    the referee would not: a knock only where the hand may knock, and that no step
    makes a card appear or disappear (every card dealt at the start is in exactly one
    of the table, the hands and the stock after it); ``RolloutError`` otherwise.
    """

    cards: Counter[Card | None]
    """The cards in play when the rollout was dealt (jokers under None)."""
    total: int
    """How many they are."""
    settled: tuple[int, ...] | None
    """Each hand's points after its best play, once ``settle`` has scored a round still
    running (the hands themselves are left as they are); None before."""
    race: tuple[float, ...] | None
    """Each player's chance to go out first, once ``settle`` has valued a first-out round
    still running by the race (``RolloutSettings.race``); None otherwise."""
    dealt: tuple[Piece, ...]
    """The stock as ``determinize`` dealt it, in its random order."""
    taken: bytearray
    """Which places of ``dealt`` have been drawn."""
    heads: list[int] | None
    """Where each seat reads ``dealt`` next (``_take_from_stock``), or None: the stock's own
    order (a rollout of a real round, ``of_state``)."""

    @classmethod
    def of_state(cls, state: RoundState) -> Rollout:
        """A rollout of the round exactly as it stands, hidden cards and stock order included
        (the ``oracle``'s one deal: ``solver.strategy.oracle``); ``state`` is not changed."""
        made = object.__new__(cls)
        made.__dict__.update(vars(state.snapshot()))
        made.cards = made.piece_counts()
        made.total = sum(made.cards.values())
        made.settled = None
        made.race = None  # as ``determinize`` sets it: no race valued yet (Manipulation never has one)
        made.heads = None
        return made

    def deal_stock(self, order: list[Piece]) -> None:
        """Make ``order`` the stock, each seat drawing from a stretch of it of its own
        (``_take_from_stock``); ``settings`` must be set."""
        players = self.settings.players
        self.stock = order
        self.dealt = tuple(order)
        self.taken = bytearray(len(order))
        self.heads = [seat * len(order) // players for seat in range(players)]

    def hand_points(self) -> tuple[int, ...]:
        return self.settled if self.settled is not None else super().hand_points()

    def act(self, action: Action | PlayedHint) -> None:
        if isinstance(action, PlayedHint):
            self._play_known(action.found)
        elif isinstance(action, Play):
            self.apply(action)
        elif isinstance(action, Draw):
            self._draw_instead_of_meld()
        elif isinstance(action, Knock):
            if self.phase != "knock":
                raise RolloutError(
                    f"a knock in phase {self.phase}: the hand of seat {self.to_move} may not knock"
                )
            self._end_round("knock", knocker=self.to_move)
        elif self.phase == "knock":
            self._finish_turn()
        else:
            self._end_of_turn()
        self.check_count()

    def _take_from_stock(self) -> Piece:
        """The card a draw takes, each seat reading the dealt stock from a place of its own.

        Every seat takes the next card not yet drawn from its own stretch of the dealt
        stock (seat ``s`` starts ``s / players`` of the way along it, and reads on past
        the end from the start).  Each draw is still a uniformly random card of the stock
        left: which place is read depends only on which places were read before, never on
        what the unread places hold, and those hold the cards left in a random order.
        What it buys: the candidates of a decision are played in the same deals, and with
        a shared top card a draw taken instead of a play would shift every later draw of
        every player by one card, so the two candidates' rollouts would share nothing
        after it; reading their own stretches, the other players draw the same cards
        whatever this player did, and this player draws its own cards in the same order,
        one turn earlier.  Candidates' differences then come from the candidates, not
        from whose turn took which card (common random numbers)."""
        if self.heads is None:
            return super()._take_from_stock()
        seat = self.to_move
        size = len(self.dealt)
        place = self.heads[seat]
        while self.taken[place]:
            place = (place + 1) % size
        self.taken[place] = 1
        self.heads[seat] = (place + 1) % size
        card = self.dealt[place]
        try:
            self.stock.remove(card)
        except ValueError:
            raise RolloutError(f"a rollout step lost {card} from the stock") from None
        return card

    def check_count(self) -> None:
        """RolloutError unless the table, hands and stock hold as many cards as were dealt
        (cheap: after every step; on a wrong count ``check_cards`` names the cards, as it
        does for every card at a rollout's end)."""
        if len(self.stock) + len(self.table.pieces) + sum(map(len, self.hands)) != self.total:
            self.check_cards()

    def check_cards(self) -> None:
        """RolloutError unless the table, hands and stock hold exactly the cards dealt."""
        now = self.piece_counts()
        # Neither count holds a zero, so the dicts' own (C) comparison is Counter's: a
        # twentieth of a review went into Counter.__eq__'s generator.
        if not dict.__eq__(now, self.cards):
            lost = self.cards - now
            made = now - self.cards
            raise RolloutError(f"a rollout step lost {_names(lost)} and made {_names(made)}")

    def _play_known(self, found: Hint) -> None:
        """A play found by the engine for this table: its cards leave the mover's hand
        (whatever hand the engine was asked about), its table is the new table."""
        seat = self.to_move
        if found.position.table != self.table:
            raise RolloutError("a play found for another table")
        hand = self.hands[seat]
        for piece in found.played:
            try:
                hand.remove(Joker() if isinstance(piece, Joker) else piece)
            except ValueError:
                raise RolloutError(f"seat {seat} plays {piece}, which its hand does not hold") from None
        self._played(seat, found.table)


class RolloutError(RuntimeError):
    """A rollout step that breaks the game's bookkeeping (a bug, never bad input)."""


def _names(counts: Counter[Card | None]) -> str:
    pieces = sorted(("joker" if card is None else str(card)) for card in counts.elements())
    return ", ".join(pieces) if pieces else "nothing"


def determinize(
    view: PlayerView,
    rng: random.Random,
    *,
    others_opened: bool = True,
    last_card_mine: bool = False,
    unseen: Sequence[Piece] | None = None,
    in_play: Counter[Card | None] | None = None,
    junk: Mapping[int, int] | None = None,
    stuck: Collection[int] = (),
) -> Rollout:
    """A round consistent with ``view``: the unseen cards dealt at random to the other hands
    (their sizes as seen) and the stock (its size as seen), mid-turn as the view is.
    In a real game the unseen cards are exactly those; cards beyond them (a hand-dealt
    test round) are left out of play.

    ``others_opened`` says whether the other players have made their opening meld
    (Rummikub); ``last_card_mine`` whether this player drew the stock's last card (then a
    final turn of this player is the last of the round).  A caller dealing the same view
    many times may pass ``view.unseen()`` as ``unseen`` and, when every unseen card is
    dealt, the cards in play (table, hand and unseen) as ``in_play``: both are the same
    for every deal.

    ``junk`` gives, for other seats, how many of their cards are known to have no play on
    the table (what a player who melds all it can keeps: ``OpponentModel.junk``): that
    many of the seat's guessed cards are dealt without a play (``_deal_junk``).  ``stuck``
    names other seats whose guessed hand, but for its last card (the card they last drew),
    must not go out on the view's table (``OpponentModel.stuck``; ``_deal_stuck``).
    """
    hidden = list(view.unseen() if unseen is None else unseen)
    rng.shuffle(hidden)
    settings = view.settings
    players = settings.players
    hands: list[list[Piece]] = []
    start = 0
    for seat in range(players):
        if seat == view.seat:
            hands.append(list(view.hand.pieces))
            continue
        size = view.hand_sizes[seat]
        hands.append(hidden[start : start + size])
        start += size
    stock = hidden[start : start + view.stock_size]
    if len(stock) != view.stock_size:
        raise ValueError(f"the view does not add up: {len(stock)} cards left, stock of {view.stock_size}")
    _deal_known(hands, stock, view, junk=junk or {}, stuck=stuck, others_opened=others_opened, rng=rng)
    state = Rollout.__new__(Rollout)
    state.settings = settings
    state.hands = hands
    state.deal_stock(stock)
    state.table = view.table
    state.dealer = (view.seat - 1) % players
    state.round_number = view.round_number
    state.totals = view.totals
    state.opened = [view.opened if seat == view.seat else others_opened for seat in range(players)]
    state.to_move = view.seat
    state.phase = view.phase
    state.draws = view.draws
    state.melded = view.melded
    state.drawn = list(view.drawn)
    state.turns = 0
    state.final_turns_left = None
    state.last_card_drawer = None
    state.idle_turns = 0
    state.end = None
    every = in_play is not None and start + view.stock_size == len(hidden)
    state.cards = in_play if in_play is not None and every else state.piece_counts()
    state.total = sum(state.cards.values())
    state.settled = None
    state.race = None
    if settings.turn == "draw_first" and not stock:
        if view.final_turn:
            state.final_turns_left = 1 if last_card_mine else players
            state.last_card_drawer = view.seat if last_card_mine else (view.seat - 1) % players
        else:
            state.last_card_drawer = view.seat
    return state


JUNK_ROUNDS = 6
"""Redraws of a guessed hand's cards that have a play (``_deal_junk``)."""


def _deal_known(
    hands: list[list[Piece]],
    stock: list[Piece],
    view: PlayerView,
    *,
    junk: Mapping[int, int],
    stuck: Collection[int],
    others_opened: bool,
    rng: random.Random,
) -> None:
    """Deal the other guessed hands what the opponent model knows of them (``determinize``'s
    ``junk`` and ``stuck``); the lists change in place, no card appears or disappears."""
    for seat, count in junk.items():
        if seat != view.seat and count >= 2 and stock:
            _deal_junk(hands[seat], min(count, len(hands[seat])), stock, view, opened=others_opened, rng=rng)
    if others_opened:
        for seat in stuck:
            if seat != view.seat:
                held = junk.get(seat, 0)
                _deal_stuck(hands[seat], held if held >= 2 else 0, stock, view, rng=rng)


def _deal_stuck(
    hand: list[Piece], junk: int, stock: list[Piece], view: PlayerView, *, rng: random.Random
) -> None:
    """Make a guessed ``hand`` but its last card unable to go out on the view's table, as far
    as ``JUNK_ROUNDS`` redraws get: while it can, its cards after the first ``junk`` (those
    ``_deal_junk`` made junk stay) go to random places of the guessed ``stock``, whose
    cards take their places.  Both lists change in place; no card appears or disappears."""
    if len(hand) < 2 or junk >= len(hand) - 1 or not stock:
        return
    for _ in range(JUNK_ROUNDS):
        if not _goes_out(view.table, hand[:-1], view.variant):
            return
        for index in range(junk, len(hand)):
            where = rng.randrange(len(stock))
            hand[index], stock[where] = stock[where], hand[index]


def _goes_out(table: Table, pieces: Sequence[Piece], variant: Variant) -> bool:
    """Whether an opened hand of ``pieces`` can go out on ``table`` in one play: the points
    program's number where it answers (``rollout_points``), else the best play's."""
    known = points_left(Position(table, Hand.of(pieces)), variant)
    if known is not None:
        return known.points == 0
    return rollout_hint(table, pieces, variant, opened=True, time_limit=1.0).goes_out


def _deal_junk(
    hand: list[Piece], count: int, stock: list[Piece], view: PlayerView, *, opened: bool, rng: random.Random
) -> None:
    """Make the first ``count`` cards of a guessed ``hand`` a part without a play on the
    view's table, as far as ``JUNK_ROUNDS`` redraws get: the cards its best play would lay
    go to random places of the guessed ``stock``, whose cards take their places.  A
    player who melds all it can keeps such a hand; dealing it uniform cards instead
    gives it plays it does not have (a greedy player's rollout then goes out far too
    soon).  Both lists change in place; no card appears or disappears."""
    for _ in range(JUNK_ROUNDS):
        found = rollout_hint(view.table, hand[:count], view.variant, opened=opened, time_limit=1.0)
        if not found.has_play:
            return
        taken: set[int] = set()
        for piece in found.played:
            card = Joker() if isinstance(piece, Joker) else piece
            index = next(i for i in range(count) if i not in taken and hand[i] == card)
            taken.add(index)
            where = rng.randrange(len(stock))
            hand[index], stock[where] = stock[where], hand[index]


Policy = Callable[[Rollout, RolloutSettings], Action | PlayedHint]
"""A rollout policy: the action of the player to move in a rollout."""

HOARD_MARGIN = 5
"""Cards above the dealt hand size at which a hoarder melds anyway (``HoarderBot``'s rule)."""


CACHE_SIZE = 20_000
"""Rollout hints kept per process (``rollout_hint``); the cache starts over when full."""
_cache: dict[tuple[int, Hand, str, bool, bool, bool], tuple[Table, Hint]] = {}


def clear_cache() -> None:
    """Forget the remembered rollout hints and points (benchmarks time a cold review with it)."""
    _cache.clear()
    _points_cache.clear()
    _reach_cache.clear()


def rollout_hint(
    table: Table, pieces: Sequence[Piece], variant: Variant, *, opened: bool, time_limit: float
) -> Hint:
    """The best play for a rollout's table and hand, remembered: the same deals are
    played once per candidate and continuation, so the same positions come back (a
    third of a review's hints).  The engine is exact and deterministic, so a
    remembered answer is the answer.  Tables are keyed by identity (hashing a whole
    table on every call cost more than the search): rollouts share their table objects
    (a remembered play's table is the next state's), and an entry whose table is
    another object is simply replaced."""
    hand = Hand.of(pieces)
    key = (id(table), hand, variant.name, variant.knock_only_after_meld, variant.round_bonus_to_all, opened)
    return _remembered(
        _cache,
        key,
        table,
        lambda: hint_of_valid(Position(table, hand), variant, opened=opened, time_limit=time_limit),
    )


def _remembered(
    cache: dict[Any, tuple[Table, _T]], key: Hashable, table: Table, work: Callable[[], _T]
) -> _T:
    """The answer ``cache`` keeps under ``key`` for this very ``table`` object, else
    ``work()``, kept (the caches of ``rollout_hint``, ``rollout_points`` and
    ``rollout_reaches``: keyed by the table's identity, emptied when full)."""
    entry = cache.get(key)
    if entry is not None and entry[0] is table:
        return entry[1]
    if len(cache) >= CACHE_SIZE:
        cache.clear()
    answer = work()
    cache[key] = (table, answer)
    return answer


_points_cache: dict[tuple[int, Hand, Variant], tuple[Table, PointsLeft | None]] = {}


def rollout_points(state: Rollout, seat: int) -> PointsLeft | None:
    """The fewest points ``seat``'s hand can keep after one play on the rollout's table,
    and whether that takes a play, without the play itself (``solver.engine.points_left``:
    the points program, exact, and cross-checked in the tests like every backend), remembered as
    ``rollout_hint`` remembers hints; None where the points program does not answer (the
    opening rule, three jokers or more, a layer too big) or is not asked (one deck).

    It is what a rollout needs where no play is made: a hoarder declines unless its best
    play goes out or lets it knock (or it must meld), and the settled count needs only
    each hand's points (and, in a first-out race with slope 0, whether it goes out).  With
    two decks (every first-out variant, and Manipulation Rummy for 3-5 players) the two
    copies of each card make the best play dear on a late table, and the number is
    cheaper: a third of the time on the rollout positions of a 4-player Manipulation game
    (0.46 s against 1.34 s over 1,086 positions, 2026-11-28), far less in first-out
    games (benchmarks/results/firstout-experiments.md, 2026-11-27).  With one deck
    (2-player Manipulation Rummy) the best play is the cheaper (1.26 s against 2.36 s
    over 6,747 positions), so the number is not asked there.  The answer is the
    best play's: its ``points`` are the hint's ``hand_points``, ``has_play`` its
    ``has_play``, and ``points == 0`` its ``goes_out`` (``covers`` accepts only positions
    where every card and joker is worth points, so no points means no cards), so no
    rollout plays otherwise.  (Where the engine's answer was not optimal, a CP-SAT call
    cut short by its time limit on a loaded machine, the old path decided from that
    answer and this one from the exact number.)"""
    pieces = state.hands[seat]
    if state.settings.variant.decks < 2 or not state.opened[seat] or not pieces:
        return None
    table, variant = state.table, state.settings.variant
    hand = Hand.of(pieces)
    key = (id(table), hand, variant)  # the whole variant: the points it counts are its own
    return _remembered(_points_cache, key, table, lambda: points_left(Position(table, hand), variant))


_reach_cache: dict[tuple[int, Hand, Variant, bool, int], tuple[Table, bool | None]] = {}


def rollout_reaches(state: Rollout, seat: int, points: int) -> bool | None:
    """Whether ``seat``'s hand has a play leaving at most ``points`` on the rollout's table
    (``solver.engine.leaves_at_most``: the search with its cost capped, exact), remembered
    as ``rollout_hint`` remembers hints; None where the search does not tell.  A player
    who melds only to go out or knock asks it where the points program does not answer
    (one deck): mostly the answer is no, proved for a fraction of the best play's cost."""
    pieces = state.hands[seat]
    table, variant, opened = state.table, state.settings.variant, state.opened[seat]
    hand = Hand.of(pieces)
    key = (id(table), hand, variant, opened, points)
    return _remembered(
        _reach_cache,
        key,
        table,
        lambda: leaves_at_most(Position(table, hand), variant, points, opened=opened),
    )


def _best(state: Rollout, settings: RolloutSettings) -> Hint:
    seat = state.to_move
    return rollout_hint(
        state.table,
        state.hands[seat],
        state.settings.variant,
        opened=state.opened[seat],
        time_limit=settings.time_limit,
    )


def _decline(state: Rollout) -> Action:
    return Pass() if state.final_turn else Draw()


def greedy_action(state: Rollout, settings: RolloutSettings) -> Action | PlayedHint:
    """The default rollout policy: the best play (fewest points) as soon as there is one;
    knock whenever allowed."""
    if state.phase == "knock":
        return Knock()
    found = _best(state, settings)
    return PlayedHint(found) if found.has_play else _decline(state)


def hoarder_action(state: Rollout, settings: RolloutSettings) -> Action | PlayedHint:
    """The rollout policy of a player who holds melds back (``HoarderBot``'s rules, without
    its undercut estimate): the best play only when it goes out, allows a knock, comes at
    the last chance (a final turn, an empty stock) or the hand holds ``HOARD_MARGIN``
    cards over the dealt size; knock whenever allowed."""
    return hoarding_action(state, settings, forced_by_size=True)


def patient_hoarder_action(state: Rollout, settings: RolloutSettings) -> Action | PlayedHint:
    """The searching player's own hoarding line (``solver.strategy.evaluator``'s second
    continuation): ``hoarder_action`` without the meld its hand's size forces.  A player who
    searches again at each decision is not bound by the hoarder's size rule, and with it the
    value of an option depended on where that forced meld fell against the rollout's
    horizon (one dead card more in a 10-card hand took a play from -13.4 to -41.6)."""
    return hoarding_action(state, settings, forced_by_size=False)


def hoarding_action(
    state: Rollout, settings: RolloutSettings, *, forced_by_size: bool
) -> Action | PlayedHint:
    """``hoarder_action``, with the meld its hand's size forces (``HOARD_MARGIN`` cards over
    the dealt size) only when ``forced_by_size`` (``patient_hoarder_action`` without it)."""
    if state.phase == "knock":
        return Knock()
    hand = state.hands[state.to_move]
    variant = state.settings.variant
    oversized = forced_by_size and len(hand) >= variant.hand_size + HOARD_MARGIN
    must = state.final_turn or not state.stock or oversized
    # Its dead cards alone keep it from going out and knocking: cheaper than the points
    # program (two decks); with one deck the capped search below is cheaper still.
    if not must and variant.decks > 1 and hopeless(state.table.pieces, hand, variant):
        return _decline(state)
    if not must:
        # The decision needs only the best play's points (the play itself only when made).
        known = rollout_points(state, state.to_move)
        if known is not None and not (
            known.has_play and (known.points == 0 or variant.may_knock(known.points, melded=True))
        ):
            return _decline(state)
        # Where the number is not asked: no play leaves few enough points to knock (or
        # none at all, to go out) means no play worth making.
        if known is None and rollout_reaches(state, state.to_move, variant.knock_threshold or 0) is False:
            return _decline(state)
    found = _best(state, settings)
    if not found.has_play:
        return _decline(state)
    return PlayedHint(found) if found.goes_out or found.can_knock or must else _decline(state)


def play_out(
    state: Rollout, settings: RolloutSettings, policies: Mapping[int, Policy] | None = None
) -> Rollout:
    """Play the round on until it ends or ``settings.horizon`` more turns have started,
    each seat with its policy in ``policies`` (``greedy_action`` for a seat not given);
    returns the same state."""
    chosen = policies or {}
    limit = state.turns + settings.horizon
    while state.end is None and state.turns <= limit:
        state.act(chosen.get(state.to_move, greedy_action)(state, settings))
    state.check_cards()
    if settings.settle or settings.race:
        settle(state, settings)
    return state


def settle(state: Rollout, settings: RolloutSettings) -> Rollout:
    """A round still running: score every hand at what its best play on the table as it
    stands would leave (each hand on its own, ``Rollout.settled``), so that ``utility``
    counts the points a hand cannot lay rather than every card it holds.  Counting whole
    hands takes the cards a hoarder keeps for one big play (or the search bot holds
    back) for a certain loss, and rewards emptying the own hand at once; the settled
    count sees both hands' potential.  The hands and the table are not changed.
    Returns the same state."""
    if state.end is not None:
        return state
    variant = state.settings.variant
    points: list[int] = []
    tiles: list[int] = []
    # With the race's slope 0 only going out counts of the cards left (every other hand
    # weighs the same), so the points program's number suffices where it answers.
    counted = not settings.race or settings.race_slope == 0
    for seat, hand in enumerate(state.hands):
        known = rollout_points(state, seat) if counted else None
        if known is not None:
            points.append(known.points)
            # Not the cards the best play leaves, but all the race reads of them at slope
            # 0: none (the hand goes out) or some.
            tiles.append(0 if known.points == 0 else len(hand))
            continue
        found = rollout_hint(
            state.table, hand, variant, opened=state.opened[seat], time_limit=settings.time_limit
        )
        points.append(found.hand_points if found.has_play else Hand.of(hand).points(variant))
        tiles.append(len(found.hand) if found.has_play else len(hand))
    state.settled = tuple(points)
    if settings.race and state.settings.scoring == "first_out":
        state.race = race_chances(tiles, state.to_move, slope=settings.race_slope)
    return state


def race_chances(tiles: Sequence[int], to_move: int, *, slope: float = RACE_SLOPE) -> tuple[float, ...]:
    """Each player's chance to go out first in a first-out round still running, from the
    cards each hand would keep after its best play on the table as it stands (``tiles``)
    and the player to move next.

    A hand whose best play empties it goes out at its next turn: the first such hand in
    turn order from ``to_move`` wins for certain.  Otherwise the chances follow the cards
    left: ``exp(-slope * tiles)`` shared out (``slope`` 0: even chances).  Measured on
    3,567 turns of greedy and hoarder Rummikub games (seed 1): a mover who could go out
    won every time (59 of 59), a mover facing a hand that could won none (0 of 31);
    otherwise the difference in cards left moved the mover's chance only from about 40%
    (1 to 3 cards more) to about 63% (3 to 6 fewer), and that is the styles talking (the
    hoarder's big hands win): a hoarder that also plays whenever its play leaves at most
    two tiles wins 27.5% against the plain hoarder (100 pairs, seed 101).  The search
    bot takes ``slope`` 0 (``evaluator.RACE_6``; benchmarks/results/firstout-experiments.md).
    """
    players = len(tiles)
    for step in range(players):
        seat = (to_move + step) % players
        if tiles[seat] == 0:
            return tuple(1.0 if other == seat else 0.0 for other in range(players))
    weights = [math.exp(-slope * count) for count in tiles]
    total = sum(weights)
    return tuple(weight / total for weight in weights)


def round_score(state: Rollout) -> RoundScore:
    """The round's score as it stands: its end's, or for a round still running the score of
    counting the hands now (the lowest hand wins the differences: an exhausted or blocked end)."""
    settings = state.settings
    end = state.end
    if end is None:
        reason: EndReason = "exhausted" if settings.scoring == "lowest_hand" else "blocked"
        end = RoundEnd(reason, state.hand_points())
    return score_round(end, settings)


def utility(state: Rollout, seat: int) -> float:
    """What the round as it stands is worth to ``seat``: its round score minus the best
    other player's, plus the bonus weights for winning the round and the game.

    A round still running is scored as if the hands were counted now (the lowest hand
    wins the differences: an exhausted or blocked end).
    """
    settings = state.settings
    if state.end is None and state.race is not None:
        return GAME_WIN_WEIGHT * (2 * state.race[seat] - 1)
    score = round_score(state)
    others = [s for s in range(settings.players) if s != seat]
    value = float(score.scores[seat] - max(score.scores[s] for s in others))
    won = seat in score.winners
    if settings.scoring == "lowest_hand":
        value += ROUND_WIN_WEIGHT * (won - any(s in score.winners for s in others))
        target = settings.variant.target_score
        totals = [total + gained for total, gained in zip(state.totals, score.scores, strict=True)]
        if target is not None and max(totals) >= target:
            best = max(totals)
            value += GAME_WIN_WEIGHT if totals[seat] == best else -GAME_WIN_WEIGHT
    elif score.winners:  # a game that reached its turn limit has no winner: no bonus either way
        value += GAME_WIN_WEIGHT if won else -GAME_WIN_WEIGHT
    return value


def mean(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else 0.0
