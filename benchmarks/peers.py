"""Side by side with ``rummikub-solver`` (PyPI, M. Pieters) on the same Rummikub positions.

    pip install -e .[bench]               # installs rummikub-solver and its HiGHS backend
    python -m benchmarks.peers            # every position of the rummikub-free suite (400)
    python -m benchmarks.peers --quick    # every 2nd position, a minute or two

What is compared
----------------
Both solvers answer "how many tiles can the player lay off in one turn?" on the same
positions, in the same process, one core, one position at a time, in a seeded random
order per position (ours first or the peer first):

- ours: ``hint(position, variant=Variant.rummikub(), objective="cards", opened=True)``
  (the fast path's exact search where it applies, else CP-SAT; the run also times
  CP-SAT alone, ``fast_path=False``, for comparison, after the pair);
- the peer: ``RuleSet().solve(state, SolverMode.TILE_COUNT)`` on a ``GameState`` holding
  the same tiles, with ``state.initial = False`` (the player has opened).

Each timing covers everything a caller pays per position: ours validates, then searches
(or builds the instance and the CP-SAT model, solves and extracts); the peer builds its ``GameState``,
validates it, fills the cvxpy parameters and solves (cvxpy compiles the model once per
``RuleSet``; that one-time setup is timed and reported apart, like our first call that
builds the meld catalogue).  Converting a position to the peer's tile numbers is done
before the clock starts, as our parsing is.  Both sides are warmed up first, what the
process holds then is frozen (``benchmarks.speed.freeze_startup``: the collection before
each position walks only the garbage of the positions before, not the whole heap, which
would leave every call with cold caches), and the garbage collector is paused during
each timed call.

Positions come from the ``rummikub-free`` suite: no jokers on the table, because the
peer treats every table joker as free to move while ours are locked to their declared
tile (RULES.md).  Hand jokers are kept: both sides let a joker from the rack stand for
any tile.  One known difference remains: the peer's catalogue leaves out sets where a
joker is redundant (a group longer than three with a joker, a run longer than three
that starts or ends with a joker), so with a joker in the rack it can play fewer tiles
than the rules allow (``5 6 7 *`` of one colour: the peer lays 3 tiles, we lay 4).

Tiles: a card of rank r (A = 1, J/Q/K = 11/12/13) in suit number c (s h d c = 0 1 2 3,
the peer's black, blue, orange, red) is the peer's tile ``13 * c + r``; the joker is
tile 53.  "No play" on our side and "0 tiles" (``None``) on the peer's side are equal.

Every disagreement is printed with its position and settled by ``solver.exact``, the
independent exhaustive search, in a child process with a time limit (it is exponential
in the hand size; past the limit the verdict is "unsettled").  Both sides' plays are
also checked by our referee: the peer's sets are given joker declarations and judged
like ours, so an illegal answer from either side is counted.

Results go to ``benchmarks/results/peers.json``; ``python -m benchmarks.report`` turns
them into the README section.
"""

from __future__ import annotations

import argparse
import gc
import json
import multiprocessing
import multiprocessing.connection
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

from benchmarks.speed import (
    BANDS,
    GC_FROZEN,
    GC_WHOLE_HEAP,
    RESULTS,
    add_collect_all_option,
    freeze_startup,
    machine,
    percentile,
    pin_one_core,
    pyplot,
)
from benchmarks.speed import _version as package_version
from benchmarks.suite import SuiteEntry, suite_named
from solver.cards import Card, Joker, Piece, Rank, Suit
from solver.engine import hint
from solver.melds import Meld
from solver.position import Position, Table
from solver.referee import check_play
from solver.variants import Variant

RUMMIKUB = Variant.rummikub()
SUITE = "rummikub-free"
QUICK_STRIDE = 2
JOKER_TILE = 53
GOAL_RATIO = 10.0
"""The hint engine's goal: at least this many times faster than the peer at the median."""


# --- the peer, behind a small adapter -------------------------------------------------


def card_tile(card: Card) -> int:
    """The peer's tile number of a card: 13 per colour, colours in our suit order."""
    return 13 * int(card.suit) + int(card.rank)


def piece_tile(piece: Piece) -> int:
    return JOKER_TILE if isinstance(piece, Joker) else card_tile(piece)


def tile_card(tile: int) -> Card | None:
    """The card of a peer tile, None for the joker."""
    if tile == JOKER_TILE:
        return None
    return Card(Rank((tile - 1) % 13 + 1), Suit((tile - 1) // 13))


@dataclass(frozen=True, slots=True)
class PeerAnswer:
    played: int
    tiles: tuple[int, ...]
    sets: tuple[tuple[int, ...], ...]


class Peer:
    """``rummikub_solver`` set up once for standard Rummikub rules (13 numbers, 4 colours,
    2 copies, 2 jokers, runs and groups of 3 or more), on the chosen MILP backend."""

    def __init__(self, backend: str) -> None:
        import rummikub_solver as rs

        self._rs = rs
        supported = {str(b) for b in rs.MILPSolver.supported()}
        if backend == "auto":
            backend = "HIGHS" if "HIGHS" in supported else "SCIPY"
            if backend == "SCIPY" and package_version("highspy"):
                print(
                    f"note: highspy {package_version('highspy')} cannot load next to OR-Tools' own HiGHS "
                    "(see the bench extra in pyproject.toml): the peer runs on its SciPy backend",
                    file=sys.stderr,
                )
        if backend not in supported:
            raise SystemExit(f"MILP backend {backend} is not available here (available: {sorted(supported)})")
        started = time.perf_counter()
        self.ruleset = rs.RuleSet(solver_backend=rs.MILPSolver(backend))
        self.backend = backend
        self.solve([], [1, 2, 3])  # cvxpy compiles the tile-count model on its first solve
        self.setup_ms = (time.perf_counter() - started) * 1000
        """The one-time cost: building the rule set and compiling the model."""
        self.version = str(rs.__version__)

    def solve(self, table: Sequence[int], rack: Sequence[int]) -> PeerAnswer:
        """Tile-count mode for a player who has opened.  This is the timed call."""
        state = self.ruleset.new_game()
        state.add_table(*table)
        state.add_rack(*rack)
        state.initial = False
        found = self.ruleset.solve(state, self._rs.SolverMode.TILE_COUNT)
        if found is None:
            return PeerAnswer(0, (), ())
        return PeerAnswer(
            len(found.tiles),
            tuple(int(t) for t in found.tiles),
            tuple(tuple(int(t) for t in s) for s in found.sets),
        )


def peer_table(sets: Sequence[Sequence[int]]) -> Table | None:
    """The peer's sets as our melds, each joker declared as a tile it can stand for
    (groups: the missing colours; runs: the gaps, then the ends); None if a set is
    neither a group nor a run."""
    melds: list[Meld] = []
    for tiles in sets:
        cards = [card for tile in tiles if (card := tile_card(tile)) is not None]
        jokers = len(tiles) - len(cards)
        declared = _declare_group(cards, jokers)
        if declared is None:
            declared = _declare_run(cards, jokers)
        if declared is None:
            return None
        melds.append(Meld.of([*cards, *(Joker(card) for card in declared)]))
    return Table.of(melds)


def _declare_group(cards: list[Card], jokers: int) -> list[Card] | None:
    ranks = {card.rank for card in cards}
    suits = [card.suit for card in cards]
    if len(ranks) != 1 or len(set(suits)) != len(suits) or len(cards) + jokers > 4:
        return None
    rank = next(iter(ranks))
    missing = [suit for suit in Suit if suit not in suits]
    return [Card(rank, suit) for suit in missing[:jokers]]


def _declare_run(cards: list[Card], jokers: int) -> list[Card] | None:
    suits = {card.suit for card in cards}
    ranks = sorted(int(card.rank) for card in cards)
    if len(suits) != 1 or len(set(ranks)) != len(ranks):
        return None
    suit, length = next(iter(suits)), len(cards) + jokers
    for start in range(max(1, ranks[-1] - length + 1), min(ranks[0], 14 - length) + 1):
        gaps = [r for r in range(start, start + length) if r not in ranks]
        if len(gaps) == jokers:
            return [Card(Rank(r), suit) for r in gaps]
    return None


# --- settling a disagreement with the exact oracle -----------------------------------


def _oracle_loop(connection: multiprocessing.connection.Connection) -> None:
    """Child process: answer positions with the exact oracle's cards left (None: no play)
    until the pipe closes."""
    from solver.exact import best_value

    connection.send(("ready", None))
    while True:
        try:
            text = connection.recv()
        except EOFError:
            return
        try:
            left = best_value(Position.parse(text), variant=RUMMIKUB, objective="cards", opened=True)
            connection.send(("ok", left))
        except Exception as error:  # report any failure to the parent, which marks it unsettled
            connection.send(("error", f"{type(error).__name__}: {error}"))


class Oracle:
    """``solver.exact`` in a child process, so that a search past the time limit can be
    stopped (it is exponential in the hand size).  The child is spawned, not forked, since
    the solvers' native threads do not survive a fork, and it is kept between positions;
    after a timeout it is ended and a fresh one starts on the next question."""

    def __init__(self, limit: float) -> None:
        self.limit = limit
        self._child: multiprocessing.process.BaseProcess | None = None
        self._connection: multiprocessing.connection.Connection | None = None
        try:
            import solver.exact  # noqa: F401

            self.available = True
        except ImportError:
            self.available = False

    def _start(self) -> multiprocessing.connection.Connection:
        context = multiprocessing.get_context("spawn")
        mine, theirs = context.Pipe()
        self._child = context.Process(target=_oracle_loop, args=(theirs,), daemon=True)
        self._child.start()
        theirs.close()
        self._connection = mine
        if mine.poll(120.0):  # imports are not part of a search's time limit
            mine.recv()
        return mine

    def played(self, position: Position) -> tuple[int | None, str]:
        """Tiles the exact oracle plays (0 when there is no play), or None and the reason
        it could not settle."""
        if not self.available:
            return None, "unsettled: solver.exact is not available"
        connection = self._connection or self._start()
        connection.send(str(position))
        if not connection.poll(self.limit):
            self.close()
            return None, f"unsettled: the exact search passed {self.limit:g} s"
        try:
            kind, value = connection.recv()
        except EOFError:
            self.close()
            return None, "unsettled: the exact search died"
        if kind != "ok":
            return None, f"unsettled: the exact search failed ({value})"
        return (0 if value is None else len(position.hand) - int(value)), "exact"

    def close(self) -> None:
        """End the child (the one this oracle started) and forget it."""
        if self._connection is not None:
            self._connection.close()
        if self._child is not None:
            if self._child.is_alive():
                self._child.terminate()
            self._child.join()
        self._child, self._connection = None, None


# --- the run --------------------------------------------------------------------------


@dataclass(slots=True)
class Result:
    """One position, both answers, both times."""

    n: int
    """Line of the position in its suite file (from 0)."""
    position: str
    table_cards: int
    hand_cards: int
    hand_jokers: int
    ours_played: int
    ours_status: str
    ours_ms: float
    ours_engine: str
    """What answered ours: ``search`` (the fast path) or ``cp-sat``."""
    cp_sat_ms: float
    """Ours with ``fast_path=False`` (CP-SAT alone), timed after the pair."""
    peer_played: int
    peer_ms: float
    ours_first: bool
    ours_legal: bool
    peer_legal: bool | None
    """The referee's verdict on the peer's play (None when it plays nothing)."""
    exact_played: int | None = None
    settlement: str = ""
    notes: list[str] = field(default_factory=list)

    @property
    def agree(self) -> bool:
        return self.ours_played == self.peer_played

    @property
    def ours_lose(self) -> bool:
        """A disagreement our side loses: the oracle sides with the peer, or our play is
        illegal, or we stopped at the time limit with less than the peer."""
        if not self.ours_legal:
            return True
        if self.agree:
            return False
        if self.exact_played is not None:
            return self.ours_played != self.exact_played
        return self.ours_played < self.peer_played


def _timed(call: Callable[[], Any]) -> tuple[Any, float]:
    gc.disable()
    try:
        started = time.perf_counter()
        answer = call()
        return answer, (time.perf_counter() - started) * 1000
    finally:
        gc.enable()


def compare(
    entries: list[tuple[int, SuiteEntry]],
    peer: Peer,
    oracle: Oracle,
    *,
    seed: int,
    budget: float,
    audit: bool,
) -> tuple[list[Result], int]:
    """Run both sides on every entry, in a seeded random order and with a seeded choice of
    which side goes first, until the time budget runs out; settle every disagreement (every
    position with ``audit``) with the oracle, outside the timings.  Returns the results and
    how many positions the budget left out."""
    rng = random.Random(seed)
    entries = list(entries)
    rng.shuffle(entries)  # a random order, so that a budget cut still samples every table size
    results: list[Result] = []
    started = time.monotonic()
    for number, entry in entries:
        if time.monotonic() - started > budget:
            print(f"  time budget of {budget:g} s spent: stopping after {len(results)} positions", flush=True)
            break
        position = entry.position
        table = [card_tile(p) for p in position.table.pieces if isinstance(p, Card)]
        rack = [piece_tile(p) for p in position.hand.pieces]
        ours_first = rng.random() < 0.5
        gc.collect()

        def run_ours(position: Position = position) -> Any:
            return hint(position, variant=RUMMIKUB, objective="cards", opened=True)

        def run_peer(table: list[int] = table, rack: list[int] = rack) -> Any:
            return peer.solve(table, rack)

        if ours_first:
            ours, ours_ms = _timed(run_ours)
            theirs, peer_ms = _timed(run_peer)
        else:
            theirs, peer_ms = _timed(run_peer)
            ours, ours_ms = _timed(run_ours)

        def run_cp_sat(position: Position = position) -> Any:
            return hint(position, variant=RUMMIKUB, objective="cards", opened=True, fast_path=False)

        alone, cp_sat_ms = _timed(run_cp_sat)
        if len(alone.played) != len(ours.played) or alone.melds_broken != ours.melds_broken:
            raise AssertionError(f"our two engines disagree on {position}")  # the tests forbid it
        ours_played = len(ours.played) if ours.status in ("optimal", "feasible") else 0
        ours_legal = not ours.played or check_play(position, ours.table, variant=RUMMIKUB).ok
        peer_legal: bool | None = None
        if theirs.played:
            arranged = peer_table(theirs.sets)
            peer_legal = arranged is not None and check_play(position, arranged, variant=RUMMIKUB).ok
        result = Result(
            n=number,
            position=str(position),
            table_cards=entry.table_cards,
            hand_cards=entry.hand_cards,
            hand_jokers=entry.hand_jokers,
            ours_played=ours_played,
            ours_status=ours.status,
            ours_ms=round(ours_ms, 3),
            ours_engine=ours.engine,
            cp_sat_ms=round(cp_sat_ms, 3),
            peer_played=theirs.played,
            peer_ms=round(peer_ms, 3),
            ours_first=ours_first,
            ours_legal=ours_legal,
            peer_legal=peer_legal,
        )
        if ours.status not in ("optimal", "no_play"):
            result.notes.append(f"our status {ours.status}")
        if not ours_legal:
            result.notes.append("the referee rejects our play")
        if peer_legal is False:
            result.notes.append("the referee rejects the peer's play")
        if audit or not result.agree:
            result.exact_played, result.settlement = oracle.played(position)
        if not result.agree:
            _print_disagreement(result)
        elif result.settlement.startswith("unsettled"):
            print(f"  AUDIT UNSETTLED #{number}: {result.settlement}\n    {result.position}", flush=True)
        elif result.exact_played is not None and result.exact_played != result.ours_played:
            result.notes.append(f"both sides play {result.ours_played}, the oracle {result.exact_played}")
            print(f"  BOTH WRONG #{number}: {result.notes[-1]}\n    {result.position}", flush=True)
        results.append(result)
        if (len(results)) % 50 == 0:
            print(f"  {len(results)}/{len(entries)} positions", flush=True)
    return results, len(entries) - len(results)


def _print_disagreement(result: Result) -> None:
    exact = "?" if result.exact_played is None else str(result.exact_played)
    if result.exact_played is None:
        verdict = result.settlement
    elif result.exact_played == result.ours_played:
        verdict = "ours is right"
    elif result.exact_played == result.peer_played:
        verdict = "the peer is right: OUR SIDE LOSES"
    else:
        verdict = "neither is right: OUR SIDE LOSES"
    jokers = f", {result.hand_jokers} joker(s) in the rack" if result.hand_jokers else ""
    print(
        f"  DISAGREEMENT #{result.n}: ours {result.ours_played}, peer {result.peer_played}, "
        f"exact {exact} tiles -> {verdict}{jokers}\n    {result.position}",
        flush=True,
    )


def summarize(results: list[Result]) -> dict[str, Any]:
    """The figures: agreement, both sides' times, and the ratios at the median and p99."""
    ours = [r.ours_ms for r in results]
    theirs = [r.peer_ms for r in results]

    def figures(times: list[float]) -> dict[str, float]:
        return {
            "p50": round(percentile(times, 50), 2),
            "p90": round(percentile(times, 90), 2),
            "p99": round(percentile(times, 99), 2),
            "max": round(max(times), 2),
            "mean": round(statistics.fmean(times), 2),
        }

    disagreements = [r for r in results if not r.agree]
    ours_figures, peer_figures = figures(ours), figures(theirs)
    per_position = [p / o for o, p in zip(ours, theirs, strict=True) if o > 0]
    bands: dict[str, Any] = {}
    for low, high in BANDS:
        chosen = [r for r in results if low <= r.table_cards <= high]
        if chosen:
            o = percentile([r.ours_ms for r in chosen], 50)
            p = percentile([r.peer_ms for r in chosen], 50)
            bands[f"{low}-{high}"] = {"n": len(chosen), "ours_p50": round(o, 2), "peer_p50": round(p, 2)}
    ratio_p50 = peer_figures["p50"] / ours_figures["p50"]
    lost = [r for r in results if r.ours_lose]
    return {
        "positions": len(results),
        "agreements": len(results) - len(disagreements),
        "disagreements": len(disagreements),
        "ours_right": sum(r.exact_played == r.ours_played for r in disagreements),
        "peer_right": sum(r.exact_played == r.peer_played for r in disagreements),
        "unsettled": sum(r.exact_played is None for r in disagreements),
        "disagreements_with_rack_jokers": sum(r.hand_jokers > 0 for r in disagreements),
        "ours_lose": len(lost),
        "settled_by_oracle": sum(r.exact_played is not None for r in results),
        "oracle_unsettled": sum(r.settlement.startswith("unsettled") for r in results),
        "ours_differs_from_oracle": sum(r.exact_played not in (None, r.ours_played) for r in results),
        "peer_differs_from_oracle": sum(r.exact_played not in (None, r.peer_played) for r in results),
        "ours_illegal": sum(not r.ours_legal for r in results),
        "peer_illegal": sum(r.peer_legal is False for r in results),
        "ours_not_optimal": sum(r.ours_status not in ("optimal", "no_play") for r in results),
        "ours_ms": ours_figures,
        "ours_by_search": sum(r.ours_engine == "search" for r in results),
        "cp_sat_alone_ms": figures([r.cp_sat_ms for r in results]),
        "peer_ms": peer_figures,
        "ratio_p50": round(ratio_p50, 2),
        "ratio_p99": round(peer_figures["p99"] / ours_figures["p99"], 2),
        "ratio_per_position_p50": round(percentile(per_position, 50), 2),
        "bands": bands,
        "goal": {
            "ratio_p50_at_least": GOAL_RATIO,
            "speed_met": ratio_p50 >= GOAL_RATIO,
            "no_loss_met": not lost,
        },
    }


def print_summary(summary: dict[str, Any], peer: Peer, ours_setup_ms: float) -> None:
    ours, theirs = summary["ours_ms"], summary["peer_ms"]
    print()
    print(
        f"positions compared {summary['positions']}, agree {summary['agreements']}, "
        f"disagree {summary['disagreements']} (ours right {summary['ours_right']}, peer right "
        f"{summary['peer_right']}, unsettled {summary['unsettled']}; with rack jokers "
        f"{summary['disagreements_with_rack_jokers']})"
    )
    print(
        f"illegal plays: ours {summary['ours_illegal']}, peer {summary['peer_illegal']}; "
        f"our answers short of proven optimal: {summary['ours_not_optimal']}"
    )
    print(
        f"exact oracle: {summary['settled_by_oracle']} positions settled "
        f"({summary['oracle_unsettled']} left unsettled), ours differs on "
        f"{summary['ours_differs_from_oracle']}, the peer on {summary['peer_differs_from_oracle']}"
    )
    print(f"{'':<24}{'p50':>9}{'p90':>9}{'p99':>9}{'max':>9}   (ms per position)")
    print(f"{'ours (hint)':<24}{ours['p50']:>9}{ours['p90']:>9}{ours['p99']:>9}{ours['max']:>9}")
    alone = summary["cp_sat_alone_ms"]
    print(f"{'ours, CP-SAT alone':<24}{alone['p50']:>9}{alone['p90']:>9}{alone['p99']:>9}{alone['max']:>9}")
    label = f"rummikub-solver ({peer.backend})"
    print(f"{label:<24}{theirs['p50']:>9}{theirs['p90']:>9}{theirs['p99']:>9}{theirs['max']:>9}")
    print(
        f"ratio peer/ours: median {summary['ratio_p50']}x, p99 {summary['ratio_p99']}x "
        f"(median of per-position ratios {summary['ratio_per_position_p50']}x); "
        f"one-time setup: ours {ours_setup_ms:.0f} ms, peer {peer.setup_ms:.0f} ms"
    )
    print(
        f"the fast path's search answered {summary['ours_by_search']} of {summary['positions']} "
        f"positions (CP-SAT the rest)"
    )
    goal = summary["goal"]
    print(
        f"goal: >= {GOAL_RATIO:g}x at the median: {'met' if goal['speed_met'] else 'NOT met'}; "
        f"no disagreement our side loses: {'met' if goal['no_loss_met'] else 'NOT met'}"
    )


def plot(results: list[Result], path: Path, title: str) -> bool:
    """Both sides' times against table size (log scale), one point per position and side."""
    plt = pyplot()
    if plt is None:
        return False
    figure, axis = plt.subplots(figsize=(8, 5))
    xs = [r.table_cards for r in results]
    axis.scatter(xs, [r.peer_ms for r in results], s=10, alpha=0.5, c="tab:orange", label="rummikub-solver")
    axis.scatter(xs, [r.ours_ms for r in results], s=10, alpha=0.5, c="tab:blue", label="ours (hint)")
    axis.set_yscale("log")
    axis.set_xlabel("table tiles")
    axis.set_ylabel("time per position, ms (log scale)")
    axis.set_title(title)
    axis.legend()
    figure.tight_layout()
    figure.savefig(path, dpi=110)
    plt.close(figure)
    return True


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--quick", action="store_true", help=f"every {QUICK_STRIDE}nd position, budget 240 s")
    parser.add_argument("--stride", type=int, default=None, help="compare every N-th position of the suite")
    parser.add_argument("--limit", type=int, default=None, help="compare at most this many positions")
    parser.add_argument(
        "--backend", default="auto", help="peer MILP backend: auto (HIGHS, else SCIPY), HIGHS, SCIPY"
    )
    parser.add_argument("--seed", type=int, default=2026, help="seed of the ours-first / peer-first order")
    parser.add_argument(
        "--budget", type=float, default=None, help="stop starting positions after this many s"
    )
    parser.add_argument("--settle-limit", type=float, default=60.0, help="seconds per exact settlement")
    parser.add_argument(
        "--audit",
        action="store_true",
        help="settle every position with the exact oracle, not only disagreements",
    )
    add_collect_all_option(parser)
    args = parser.parse_args(argv)
    stride = args.stride or (QUICK_STRIDE if args.quick else 1)
    budget = args.budget or (240.0 if args.quick else 3600.0)
    pin_one_core()
    # Our first call builds the meld catalogue: the one-time cost on our side.  It also
    # loads OR-Tools before the peer loads highspy (both ship a libhighs.so.1; see the
    # note on the bench extra in pyproject.toml).
    started = time.perf_counter()
    hint(Position.parse("/ 5s 6s 7s"), variant=RUMMIKUB, objective="cards")
    ours_setup_ms = (time.perf_counter() - started) * 1000
    try:
        peer = Peer(args.backend)
    except ImportError:
        print("rummikub-solver is not installed: pip install -e .[bench]", file=sys.stderr)
        return 2
    spec = suite_named(SUITE)
    loaded = spec.load()
    entries = [(n, e) for n, e in enumerate(loaded) if e.table_jokers == 0][::stride]
    if args.limit:
        entries = entries[: args.limit]
    print(
        f"ours (hint, objective cards) against rummikub-solver {peer.version} ({peer.backend}) on "
        f"{len(entries)} positions of {spec.name}, one core, {date.today()}"
    )
    for entry in (loaded[-1], loaded[len(loaded) // 2], loaded[len(loaded) // 4]):  # warm up both sides
        hint(entry.position, variant=RUMMIKUB, objective="cards")
        peer.solve(
            [card_tile(p) for p in entry.position.table.pieces if isinstance(p, Card)],
            [piece_tile(p) for p in entry.position.hand.pieces],
        )
    freeze_startup(collect_all=args.collect_all)
    oracle = Oracle(args.settle_limit)
    try:
        results, skipped = compare(entries, peer, oracle, seed=args.seed, budget=budget, audit=args.audit)
    finally:
        oracle.close()
    if not results:
        print("no position compared", file=sys.stderr)
        return 1
    summary = summarize(results)
    summary["skipped_for_budget"] = skipped
    print_summary(summary, peer, ours_setup_ms)
    meta = {
        **machine(),
        "quick": stride != 1,
        "stride": stride,
        "suite": spec.name,
        "suite_seed": spec.seed,
        "order_seed": args.seed,
        "gc": GC_WHOLE_HEAP if args.collect_all else GC_FROZEN,
        "peer": "rummikub-solver",
        "peer_version": peer.version,
        "peer_backend": peer.backend,
        "peer_setup_ms": round(peer.setup_ms, 1),
        "ours_setup_ms": round(ours_setup_ms, 1),
        "cvxpy": package_version("cvxpy-base") or package_version("cvxpy"),
        "highspy": package_version("highspy"),
        "scipy": package_version("scipy"),
    }
    RESULTS.mkdir(exist_ok=True)
    rows = [{**asdict(r), "agree": r.agree, "ours_lose": r.ours_lose} for r in results]
    path = RESULTS / "peers.json"
    path.write_text(json.dumps({"meta": meta, "summary": summary, "rows": rows}, indent=1))
    title = f"ours against rummikub-solver {peer.version} ({peer.backend}), one core, {date.today()}"
    if plot(results, RESULTS / "peers.png", title):
        print(f"wrote {path} and {RESULTS / 'peers.png'}")
    else:
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
