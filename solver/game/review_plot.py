"""The plot of a review: each reviewed seat's expected score along the game, as a PNG.

For every reviewed decision (``solver.game.review``), in game order, the plot draws
the advised option's expected value and the move made's expected value (the same
evaluator, the same deals: the gap between the two lines is the decision's expected
loss), marks the mistakes and blunders, and separates the rounds with dotted lines.
One panel per reviewed seat; its title gives the decisions' total cost and the luck
of the measured draws.

matplotlib is an optional dependency (the ``plot`` extra): it is imported only here,
on first use, and a missing matplotlib is a ``PlotError`` that says how to get it.
"""

from __future__ import annotations

from itertools import pairwise
from pathlib import Path
from typing import TYPE_CHECKING

from solver.game.review import Review

if TYPE_CHECKING:
    from matplotlib.axes import Axes

__all__ = ["PlotError", "plot_review"]

MARKS = {"mistake": ("tab:orange", "mistake"), "blunder": ("tab:red", "blunder")}
"""The bands marked on the plot: colour and legend label."""


class PlotError(RuntimeError):
    """The plot cannot be drawn (matplotlib missing, or no decision to draw)."""


def _panel(axes: Axes, found: Review, seat: int) -> None:
    from matplotlib.ticker import MaxNLocator  # plot_review checked that matplotlib is there

    decisions = [decision for decision in found.decisions if decision.seat == seat]
    summary = next(summary for summary in found.summaries if summary.seat == seat)
    steps = list(range(1, len(decisions) + 1))
    axes.plot(steps, [d.value for d in decisions], "-o", color="tab:blue", markersize=3, label="advised")
    axes.plot(steps, [d.made_value for d in decisions], "--", color="tab:gray", label="move made")
    for band, (colour, label) in MARKS.items():
        marked = [(step, d.made_value) for step, d in zip(steps, decisions, strict=True) if d.band == band]
        if marked:
            xs, ys = zip(*marked, strict=True)
            axes.scatter(xs, ys, color=colour, s=40, zorder=3, label=label)
    for step, (previous, current) in enumerate(pairwise(decisions), start=1):
        if current.round_number != previous.round_number:
            axes.axvline(step + 0.5, color="lightgray", linestyle=":")
    axes.axhline(0, color="black", linewidth=0.5)
    axes.set_title(
        f"seat {seat} ({summary.player}): {summary.decisions} decisions, "
        f"cost {summary.total_loss:.1f}, luck {summary.luck:+.1f} over {summary.draws} draws",
        fontsize=10,
    )
    axes.set_ylabel("expected value")
    axes.xaxis.set_major_locator(MaxNLocator(integer=True))  # decisions are counted
    axes.legend(loc="best", fontsize=8)


def plot_review(found: Review, path: Path) -> Path:
    """Write the review's plot to ``path`` as a PNG and return the path.  ``PlotError``
    when matplotlib is missing or no seat has a reviewed decision; ``OSError`` when the
    file cannot be written."""
    try:
        import matplotlib

        matplotlib.use("Agg")  # files only: no display needed
        import matplotlib.pyplot as plt
    except ImportError:
        raise PlotError(
            "--plot needs matplotlib: pip install 'manipulation-rummy[plot]' (or pip install matplotlib)"
        ) from None
    seats = [summary.seat for summary in found.summaries if summary.decisions]
    if not seats:
        raise PlotError("no decision with a choice was reviewed: nothing to plot")
    figure, panels = plt.subplots(len(seats), 1, figsize=(9, 3.2 * len(seats)), squeeze=False)
    try:
        for row, seat in enumerate(seats):
            _panel(panels[row][0], found, seat)
        panels[-1][0].set_xlabel("decision (game order; dotted lines between rounds)")
        figure.tight_layout()
        figure.savefig(path, format="png", dpi=100)
    finally:
        plt.close(figure)
    return path
