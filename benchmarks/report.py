"""The README's "Performance" section, rendered from the latest benchmark results.

    python -m benchmarks.speed && python -m benchmarks.peers    # measure (see each script)
    python -m benchmarks.report > /tmp/performance.md           # then paste into README.md

Only ``benchmarks/results/speed.json`` and ``benchmarks/results/peers.json`` are read, so
the section always states the figures of one recorded run, with its date, the machine
and the number of cores, rather than numbers typed by hand.  A missing results file is
named in the output instead of its table.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from benchmarks.speed import BANDS, GC_FROZEN, RESULTS, VARIANTS

__all__ = ["render"]


def _load(path: Path) -> dict[str, Any] | None:
    if not path.exists():
        return None
    data: dict[str, Any] = json.loads(path.read_text())
    return data


def _machine(meta: dict[str, Any]) -> str:
    quick = " (`--quick` run)" if meta.get("quick") else ""
    return (
        f"{meta.get('date', '?')}, {meta.get('cpu', 'unknown CPU')}, {meta.get('machine_cores', '?')} cores "
        f"(timed on {meta.get('cores_used', 1)}), Python {meta.get('python', '?')}, "
        f"OR-Tools {meta.get('ortools', '?')}{quick}"
    )


def _collection(meta: dict[str, Any]) -> str:
    """How the run handled garbage collection between timed calls (``freeze_startup``)."""
    if str(meta.get("gc", "")).startswith(GC_FROZEN):  # today's first speed run wrote a longer label
        return (
            "the process's start-up frozen out of garbage collection, and the garbage of the "
            "calls before collected before each call (with the collector off during it)"
        )
    return (
        "the whole heap collected before each call (so every call starts with cold caches), "
        "the collector off during it"
    )


def _speed(data: dict[str, Any], results: Path) -> list[str]:
    meta, summary = data["meta"], data["summary"]
    rows = data.get("rows", [])
    lines = [
        "### Speed of `hint()`",
        "",
        f"Measured {_machine(meta)}: {len(rows)} positions from the seeded suites in "
        "`benchmarks/suites/` (every variant with and without locked jokers, hands of 1-20 cards, and "
        "the two mid-game suites sampled from bot games, where every table holds a joker that can be freed), "
        "one `hint()` call at a time, the whole call timed (validation, then the fast path's search, "
        "or CP-SAT's model building, solving and extraction), every play checked by the referee; "
        + _collection(meta)
        + ".",
        "",
        "| variant | table cards | positions | p50 ms | p95 ms | p99 ms | max ms |",
        "|---|---|--:|--:|--:|--:|--:|",
    ]
    labels = [f"{low}-{high}" for low, high in BANDS] + ["all"]
    for name in VARIANTS:
        for label in labels:
            figures = summary.get(name, {}).get(label)
            if figures:
                shown = f"**{label}**" if label == "all" else label
                lines.append(
                    f"| {name} | {shown} | {figures['n']} | {figures['p50']} | {figures['p95']} "
                    f"| {figures['p99']} | {figures['max']} |"
                )
    by_jokers = summary.get("by_jokers", {})
    if by_jokers:
        lines += [
            "",
            "| variant | locked jokers on the table | positions | p50 ms | p95 ms | p99 ms | max ms |",
            "|---|---|--:|--:|--:|--:|--:|",
        ]
        for name in VARIANTS:
            for kind, label in (("free", "none"), ("locked", "one or more")):
                figures = by_jokers.get(name, {}).get(kind)
                if figures:
                    lines.append(
                        f"| {name} | {label} | {figures['n']} | {figures['p50']} | {figures['p95']} "
                        f"| {figures['p99']} | {figures['max']} |"
                    )
    statuses = summary.get("statuses", {})
    if statuses:
        lines += [
            "",
            "Statuses: " + ", ".join(f"{key} {value}" for key, value in sorted(statuses.items())) + ".",
        ]
    engines = summary.get("engines", {})
    if engines:
        lines.append(
            "Answered by: " + ", ".join(f"{key} {value}" for key, value in sorted(engines.items())) + "."
        )
    suites = summary.get("by_suite", {})
    if suites:
        lines += [
            "",
            "| suite | table cards | positions | by the search | search p50 ms | CP-SAT p50 ms "
            "| p50 ms | p99 ms |",
            "|---|---|--:|--:|--:|--:|--:|--:|",
        ]
        for suite_name, bands in suites.items():
            for label in labels:
                figures = bands.get(label)
                if figures:
                    shown = f"**{label}**" if label == "all" else label
                    lines.append(
                        f"| {suite_name} | {shown} | {figures['n']} | {figures['search']} "
                        f"| {_or_dash(figures['search_p50'])} | {_or_dash(figures['cp_sat_p50'])} "
                        f"| {figures['p50']} | {figures['p99']} |"
                    )
    if (results / "speed.png").exists():
        lines += ["", "![hint() time against table size](benchmarks/results/speed.png)"]
    return lines


def _or_dash(value: object) -> str:
    return "-" if value is None else str(value)


def _peers(data: dict[str, Any], results: Path) -> list[str]:
    meta, summary = data["meta"], data["summary"]
    ours, peer = summary["ours_ms"], summary["peer_ms"]
    goal = summary["goal"]
    backend = meta.get("peer_backend", "?")
    peer_name = f"rummikub-solver {meta.get('peer_version', '?')}"
    lines = [
        f"### Against {peer_name}",
        "",
        f"Measured {_machine(meta)}: the PyPI package `rummikub-solver` (den Hertog-Hulshof ILP through "
        f'cvxpy, {backend} backend) in its tile-count mode against our `hint(objective="cards")`, '
        f"on the {summary['positions']} positions of the `{meta.get('suite', '?')}` suite "
        "(Rummikub rules, player already opened, no table jokers since the peer does not lock "
        "them), in one process, one core, alternating which side goes first. Each time covers "
        "the whole call, model building included; the one-time setup "
        f"(ours {meta.get('ours_setup_ms', '?')} ms, the peer's {meta.get('peer_setup_ms', '?')} ms) "
        "is not in the figures; " + _collection(meta) + ".",
        "",
        "| | p50 ms | p90 ms | p99 ms | max ms |",
        "|---|--:|--:|--:|--:|",
        f"| ours (`hint`) | {ours['p50']} | {ours['p90']} | {ours['p99']} | {ours['max']} |",
        f"| {peer_name} ({backend}) | {peer['p50']} | {peer['p90']} | {peer['p99']} | {peer['max']} |",
        f"| **ratio peer / ours** | **{summary['ratio_p50']}x** | | **{summary['ratio_p99']}x** | |",
    ]
    alone = summary.get("cp_sat_alone_ms")
    if alone is not None:
        lines.append(
            f"| ours, CP-SAT alone (`fast_path=False`) | {alone['p50']} | {alone['p90']} | "
            f"{alone['p99']} | {alone['max']} |"
        )
        lines += [
            "",
            f"The fast path's exact search answered {summary['ours_by_search']} of "
            f"{summary['positions']} positions; CP-SAT the rest (table too tangled for the "
            "search's budget). CP-SAT alone was timed after each pair, on the same position.",
        ]
    lines.append("")
    settled = (
        f"ours right in {summary['ours_right']}, the peer right in {summary['peer_right']}, "
        f"unsettled {summary['unsettled']}"
    )
    count = summary["disagreements"]
    lines.append(
        f"Tiles played: the two sides agree on {summary['agreements']} of {summary['positions']} positions"
        + (
            f"; {count} disagreement{'s' if count != 1 else ''}, settled by the independent exact search "
            f"(`solver/exact.py`): {settled}."
            if count
            else "."
        )
    )
    if summary["disagreements_with_rack_jokers"]:
        lines.append(
            f"Of these, {summary['disagreements_with_rack_jokers']} have a joker in the rack: the peer's "
            "catalogue leaves out sets with a redundant joker (a run longer than three that starts or "
            "ends with a joker, a group of four with a joker), so it can lay fewer tiles than the "
            "rules allow."
        )
    audited = summary.get("settled_by_oracle", 0)
    if audited > count:
        lines.append(
            f"The exact search also checked {audited} positions in all (`--audit`): ours differs from it "
            f"on {summary['ours_differs_from_oracle']}, the peer on {summary['peer_differs_from_oracle']}."
        )
    lines.append(
        f"Illegal plays found by the referee: ours {summary['ours_illegal']}, "
        f"the peer's {summary['peer_illegal']}."
    )
    if summary.get("skipped_for_budget"):
        lines.append(f"{summary['skipped_for_budget']} positions were left out when the time budget ran out.")
    lines += [
        "",
        f"Goal for the hint engine: at least {goal['ratio_p50_at_least']:g}x faster than the peer at the "
        f"median — **{'met' if goal['speed_met'] else 'not met'}** ({summary['ratio_p50']}x); no "
        f"disagreement that our side loses — **{'met' if goal['no_loss_met'] else 'not met'}**.",
    ]
    if (results / "peers.png").exists():
        lines += ["", "![ours and rummikub-solver against table size](benchmarks/results/peers.png)"]
    bands = summary.get("bands", {})
    if bands:
        lines += [
            "",
            "| table cards | positions | ours p50 ms | peer p50 ms | ratio |",
            "|---|--:|--:|--:|--:|",
        ]
        for label, figures in bands.items():
            ratio = figures["peer_p50"] / figures["ours_p50"] if figures["ours_p50"] else float("nan")
            lines.append(
                f"| {label} | {figures['n']} | {figures['ours_p50']} | {figures['peer_p50']} | {ratio:.1f}x |"
            )
    return lines


def render(results: Path = RESULTS) -> str:
    """The markdown section from the results files in ``results``."""
    lines = [
        "## Performance",
        "",
        "Generated by `python -m benchmarks.report` from the files in `benchmarks/results/`; "
        "rebuild with `pip install -e .[bench]`, then `python -m benchmarks.speed` and "
        "`python -m benchmarks.peers` (`--quick` for a short run of each).",
        "",
    ]
    speed = _load(results / "speed.json")
    lines += (
        _speed(speed, results)
        if speed
        else ["(no `benchmarks/results/speed.json`: run `python -m benchmarks.speed`)"]
    )
    lines.append("")
    peers = _load(results / "peers.json")
    lines += (
        _peers(peers, results)
        if peers
        else ["(no `benchmarks/results/peers.json`: run `python -m benchmarks.peers`)"]
    )
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--results", type=Path, default=RESULTS, help="folder holding speed.json and peers.json"
    )
    args = parser.parse_args(argv)
    print(render(args.results), end="")


if __name__ == "__main__":
    main()
