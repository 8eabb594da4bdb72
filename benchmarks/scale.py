"""Scaling of batch work: tournament games per second on each backend of ``solver.runs``.

    python -m benchmarks.scale             # 120 games of greedy against random per backend
    python -m benchmarks.scale --quick     # 40 games
    python -m benchmarks.scale --games 200 --bots greedy,expert

The same seeded tournament is played in this process, in a local pool of 1 and 2
processes, on a Dask ``LocalCluster`` of 1 and 2 worker processes, and on a ``dask
scheduler`` with two ``dask worker`` processes started as separate programs on
127.0.0.1, as a user would start them on other machines.  Every backend must give the
results of the in-process run (the script stops otherwise).  A Dask cluster is started
and warmed up (each worker imports the engine) before the timed run; the seconds that
took are reported apart, since a cluster serves many runs.  Speed-up is against the
in-process run (the mean of one run first and one last); efficiency is speed-up per
worker.  CPU time is summed over this process and every process under it (workers,
scheduler): CPU efficiency (in-process CPU over the backend's CPU) is the share of the
work that is games rather than the layer's overhead, which holds on a busy machine where
wall-clock speed-up cannot show.  Results go to
``benchmarks/results/scale.json``.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager, suppress
from functools import partial
from importlib import metadata
from pathlib import Path
from typing import Any

import psutil
from distributed import Client, LocalCluster

from benchmarks.speed import RESULTS, machine
from solver.game import GameSettings
from solver.strategy.tournament import TournamentResult, run_tournament

Row = dict[str, object]
SEED = 2026


def play(bots: list[str], games: int, **where: Any) -> TournamentResult:
    return run_tournament(
        bots, games=games, settings=GameSettings.manipulation(len(bots)), seed=SEED, **where
    )


def results_of(result: TournamentResult) -> list[dict[str, object]]:
    return [entry.results() for entry in result.entries]


@contextmanager
def local_cluster(workers: int) -> Iterator[Client]:
    cluster = LocalCluster(
        n_workers=workers,
        threads_per_worker=1,
        processes=True,
        dashboard_address=None,
        silence_logs=logging.ERROR,
    )
    try:
        with Client(cluster, set_as_default=False) as client:
            yield client
    finally:
        cluster.close()


@contextmanager
def separate_cluster(workers: int) -> Iterator[Client]:
    """``dask scheduler`` and ``workers`` ``dask worker`` programs on 127.0.0.1."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    dask = str(Path(sys.executable).parent / "dask")
    address = f"tcp://127.0.0.1:{port}"

    def quiet(command: list[str]) -> subprocess.Popen[bytes]:
        return subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    programs = [quiet([dask, "scheduler", "--host", "127.0.0.1", "--port", str(port), "--no-dashboard"])]
    try:
        for _ in range(workers):
            programs.append(quiet([dask, "worker", address, "--nthreads", "1", "--no-dashboard"]))
        with Client(address, timeout=60, set_as_default=False) as client:
            client.wait_for_workers(workers, timeout=120)
            yield client
    finally:
        for program in reversed(programs):
            program.terminate()
        for program in programs:
            try:
                program.wait(timeout=15)
            except subprocess.TimeoutExpired:
                program.kill()


def cpu_seconds() -> float:
    """CPU time of this process and every process under it, live or already reaped (the
    pool's workers, a LocalCluster's workers, the dask scheduler and worker programs)."""
    mine = os.times()
    total = mine.user + mine.system + mine.children_user + mine.children_system
    for process in psutil.Process().children(recursive=True):
        with suppress(psutil.Error):
            times = process.cpu_times()
            total += times.user + times.system + times.children_user + times.children_system
    return total


def timed(
    label: str, workers: int, run: Callable[[], TournamentResult], setup_s: float | None = None
) -> tuple[Row, TournamentResult]:
    started, cpu = time.perf_counter(), cpu_seconds()
    result = run()
    seconds, cpu = time.perf_counter() - started, cpu_seconds() - cpu
    row: Row = {
        "backend": label,
        "workers": workers,
        "seconds": round(seconds, 3),
        "cpu_s": round(cpu, 3),
        "setup_s": setup_s,
    }
    print(f"  {label}: {seconds:.2f} s, {cpu:.2f} s of CPU", file=sys.stderr, flush=True)
    return row, result


def on_cluster(
    label: str,
    workers: int,
    start: Callable[[int], AbstractContextManager[Client]],
    bots: list[str],
    games: int,
) -> tuple[Row, TournamentResult]:
    begun = time.perf_counter()
    with start(workers) as client:
        play(bots, max(2, workers * 2), scheduler=client)  # warm-up: every worker imports the engine
        setup = round(time.perf_counter() - begun, 2)
        return timed(label, workers, lambda: play(bots, games, scheduler=client), setup)


def measure(bots: list[str], games: int) -> list[Row]:
    measured: list[tuple[Row, TournamentResult]] = []
    play(bots, 2)  # warm imports and caches here as the workers do
    measured.append(timed("in-process", 1, lambda: play(bots, games)))
    for workers in (1, 2):
        measured.append(timed("local pool", workers, partial(play, bots, games, jobs=workers)))
    for workers in (1, 2):
        measured.append(on_cluster("dask LocalCluster", workers, local_cluster, bots, games))
    measured.append(on_cluster("dask scheduler + workers", 2, separate_cluster, bots, games))
    measured.append(timed("in-process, again", 1, lambda: play(bots, games)))
    # The baseline is the mean of the first and the last run: on a shared machine the
    # load drifts, and the two in-process runs show by how much.
    base = measured[0][1]
    base_seconds = (float(str(measured[0][0]["seconds"])) + float(str(measured[-1][0]["seconds"]))) / 2
    base_cpu = (float(str(measured[0][0]["cpu_s"])) + float(str(measured[-1][0]["cpu_s"]))) / 2
    rows = []
    for row, result in measured:
        if results_of(result) != results_of(base):
            raise SystemExit(f"{row['backend']} with {row['workers']} worker(s) gave other results")
        seconds = float(str(row["seconds"]))
        speedup = base_seconds / seconds
        rows.append(
            row
            | {
                "games_per_s": round(games / seconds, 2),
                "speedup": round(speedup, 2),
                "efficiency": round(speedup / int(str(row["workers"])), 2),
                "cpu_ms_per_game": round(1000 * float(str(row["cpu_s"])) / games, 1),
                "cpu_efficiency": round(base_cpu / float(str(row["cpu_s"])), 2),
                "same_results": True,
            }
        )
    return rows


def markdown(rows: list[Row]) -> str:
    lines = [
        "| backend | workers | games/s | speed-up | efficiency | CPU ms/game | CPU efficiency"
        " | cluster start s |",
        "|---|--:|--:|--:|--:|--:|--:|--:|",
    ]
    for row in rows:
        setup = "" if row["setup_s"] is None else f"{row['setup_s']}"
        lines.append(
            f"| {row['backend']} | {row['workers']} | {row['games_per_s']} | {row['speedup']}x"
            f" | {row['efficiency']} | {row['cpu_ms_per_game']} | {row['cpu_efficiency']} | {setup} |"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=120, help="games per backend (default 120)")
    parser.add_argument(
        "--bots", default="greedy,random", help="bots, comma-separated (default greedy,random)"
    )
    parser.add_argument("--quick", action="store_true", help="40 games per backend")
    args = parser.parse_args(argv)
    games = 40 if args.quick else args.games
    bots = [name.strip() for name in args.bots.split(",") if name.strip()]
    print(f"{games} games of {', '.join(bots)} per backend", file=sys.stderr)
    rows = measure(bots, games)
    info = machine() | {"cores_used": "all", "distributed": metadata.version("distributed")}
    report = {"machine": info, "games": games, "bots": bots, "seed": SEED, "rows": rows}
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / "scale.json").write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    print(markdown(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
