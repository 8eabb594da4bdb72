"""The plot of a review: each reviewed seat's expected score along the game, as a PNG or an SVG.

Two panels per reviewed seat, along the game (the x axis counts the log's actions, so
both panels line up; dotted lines separate the rounds):

- the expected score: at each reviewed decision, the advised option's expected value
  and the move made's (the same evaluator, the same deals: the gap between the two
  lines is the decision's expected loss), mistakes and blunders marked;
- luck and decisions: the running sum of the measured draws' luck and the running sum
  of the decisions' cost (drawn below zero, as it is lost), the two parts of the seat's
  expected outcome that the review separates (``solver.strategy.review``).

matplotlib is an optional dependency (the ``plot`` extra): it is imported only here,
on first use, and a missing matplotlib is a ``PlotError`` that says how to get it.
"""

from __future__ import annotations

import io
from itertools import accumulate, groupby, pairwise
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from solver.strategy.review import Review

if TYPE_CHECKING:
    from matplotlib.axes import Axes

__all__ = ["PlotError", "plot_review", "review_svg"]

MARKS = {"mistake": ("tab:orange", "mistake"), "blunder": ("tab:red", "blunder")}
"""The bands marked on the plot: colour and legend label."""


class PlotError(RuntimeError):
    """The plot cannot be drawn (matplotlib missing, or no decision to draw)."""


def _round_boundaries(found: Review) -> list[float]:
    """Where rounds change, from every reviewed decision and measured draw of every seat
    (action, round), so that every panel draws the same lines."""
    events = sorted(
        {(d.action + 1, d.round_number) for d in found.decisions}
        | {(d.action + 1, d.round_number) for d in found.draws}
    )
    return [(action + later) / 2 for (action, one), (later, two) in pairwise(events) if one != two]


def _round_lines(axes: Axes, boundaries: list[float]) -> None:
    """Dotted lines between rounds, the same on every panel."""
    for where in boundaries:
        axes.axvline(where, color="lightgray", linestyle=":")


def _score_panel(axes: Axes, found: Review, seat: int, boundaries: list[float]) -> None:
    decisions = [decision for decision in found.decisions if decision.seat == seat]
    summary = next(summary for summary in found.summaries if summary.seat == seat)
    steps = [decision.action + 1 for decision in decisions]
    # One segment per round: a round's end resets the hands, so no line joins two rounds.
    for number, (_, group) in enumerate(groupby(decisions, key=lambda d: d.round_number)):
        part = list(group)
        xs = [d.action + 1 for d in part]
        first = number == 0  # one legend entry per line
        axes.plot(
            xs,
            [d.value for d in part],
            "-o",
            color="tab:blue",
            markersize=3,
            label="advised" if first else None,
        )
        axes.plot(
            xs, [d.made_value for d in part], "--", color="tab:gray", label="move made" if first else None
        )
    for band, (colour, label) in MARKS.items():
        marked = [(step, d.made_value) for step, d in zip(steps, decisions, strict=True) if d.band == band]
        if marked:
            where, values = zip(*marked, strict=True)
            axes.scatter(where, values, color=colour, s=40, zorder=3, label=label)
    _round_lines(axes, boundaries)
    axes.axhline(0, color="black", linewidth=0.5)
    axes.set_title(
        f"seat {seat} ({summary.player}): expected score at its {summary.decisions} decisions",
        fontsize=10,
        parse_math=False,  # the player's name is the log's: dollar signs are not mathematics
    )
    axes.set_ylabel("expected value")
    axes.legend(loc="best", fontsize=8)


def _luck_panel(axes: Axes, found: Review, seat: int, boundaries: list[float]) -> None:
    decisions = [decision for decision in found.decisions if decision.seat == seat]
    draws = [draw for draw in found.draws if draw.seat == seat]
    summary = next(summary for summary in found.summaries if summary.seat == seat)
    if draws:
        axes.step(
            [draw.action + 1 for draw in draws],
            list(accumulate(draw.luck.estimate for draw in draws)),
            where="post",
            color="tab:green",
            label="luck of the draws",
        )
    axes.step(
        [decision.action + 1 for decision in decisions],
        [-total for total in accumulate(decision.loss.estimate for decision in decisions)],
        where="post",
        color="tab:red",
        label="decisions' cost",
    )
    _round_lines(axes, boundaries)
    axes.axhline(0, color="black", linewidth=0.5)
    axes.set_title(
        f"running sums: luck {summary.luck:+.1f} over {summary.draws} draws, "
        f"cost {summary.total_loss:.1f} over {summary.decisions} decisions",
        fontsize=10,
    )
    axes.set_ylabel("expected value, summed")
    axes.legend(loc="best", fontsize=8)


def _pyplot() -> Any:
    """matplotlib's pyplot on the file-only backend, or ``PlotError`` saying how to get it."""
    try:
        import matplotlib

        matplotlib.use("Agg")  # files only: no display needed
        import matplotlib.pyplot as plt
    except ImportError:
        raise PlotError(
            "--plot needs matplotlib: pip install 'manipulation-rummy[plot]' (or pip install matplotlib)"
        ) from None
    return plt


def _save(found: Review, target: Path | IO[str], image_format: str) -> None:
    """Draw the review's panels and save them to ``target`` in ``image_format``."""
    plt = _pyplot()
    from matplotlib.ticker import MaxNLocator

    seats = [summary.seat for summary in found.summaries if summary.decisions]
    if not seats:
        raise PlotError("no decision with a choice was reviewed: nothing to plot")
    figure, panels = plt.subplots(
        2 * len(seats), 1, figsize=(9, 5.6 * len(seats)), squeeze=False, sharex=True
    )
    try:
        boundaries = _round_boundaries(found)
        for row, seat in enumerate(seats):
            _score_panel(panels[2 * row][0], found, seat, boundaries)
            _luck_panel(panels[2 * row + 1][0], found, seat, boundaries)
        last = panels[-1][0]
        last.set_xlabel("action in the log (game order; dotted lines between rounds)")
        last.xaxis.set_major_locator(MaxNLocator(integer=True))
        figure.tight_layout()
        # No date in the file and fixed element ids (matplotlib draws them from a random
        # salt by default): the same review draws the same image, byte for byte.
        metadata = {"Date": None} if image_format == "svg" else None
        with plt.rc_context({"svg.hashsalt": "rummy-review"}):
            figure.savefig(target, format=image_format, dpi=100, metadata=metadata)
    finally:
        plt.close(figure)


def plot_review(found: Review, path: Path) -> Path:
    """Write the review's plot to ``path`` as a PNG and return the path.  ``PlotError``
    when matplotlib is missing or no seat has a reviewed decision; ``OSError`` when the
    file cannot be written."""
    _save(found, path, "png")
    return path


def review_svg(found: Review) -> str:
    """The review's plot as an SVG document (the page shows it inline); ``PlotError`` as
    for ``plot_review``."""
    buffer = io.StringIO()
    _save(found, buffer, "svg")
    return buffer.getvalue()
