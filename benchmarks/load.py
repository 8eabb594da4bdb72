"""Load benchmark of the HTTP service: throughput and latency at 1, 8 and 64 clients.

    python -m benchmarks.load            # 1500 hints or 45 s per level, whichever ends first
    python -m benchmarks.load --quick    # 300 hints or 15 s per level

It starts ``rummy serve`` as a subprocess on a free port of 127.0.0.1 (every request
goes to this machine only), waits for ``/healthz``, and runs each concurrency level
with ``httpx`` async clients: each simulated client, on its own connection, sends
``POST /v1/hint`` for the next seeded mid-size position (about 40 table cards, 10 in
hand; Manipulation Rummy, two decks) as soon as its previous answer arrives.  A 503 is the server's deliberate
back-pressure: the client counts it and waits the ``Retry-After`` seconds, as a real
client would.  Every other failure (a status other than 200 or 503, a transport
error, an answer without a hint status) is an error, and any error makes the exit
status 1.  Latency is measured per successful request, from send to full answer.

The client shares the machine with the server, so its own CPU time counts against
the figures: they are a floor for a server with the machine to itself.  Other work on
the machine lowers them too, so the load average before and after the run is recorded,
and CPU milliseconds per hint (server processes and client, measured from /proc) are
reported beside the wall-clock figures: those hold however busy the machine was.
Results go to ``benchmarks/results/load.json``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import platform
import random
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date
from importlib import metadata
from pathlib import Path
from typing import Any

import httpx

from benchmarks.speed import RESULTS, percentile
from benchmarks.suite import random_big_position
from solver.variants import Variant

LEVELS = (1, 8, 64)
TABLE_CARDS = 40
HAND_CARDS = 10
HINT_STATUSES = {"optimal", "feasible", "no_play", "timeout"}
STARTUP_SECONDS = 90.0
ADVISE_CLIENTS = 8
"""Advice clients in the last row: more than the long lane admits (1 worker, 4 waiting)."""
ADVISE_BUDGET = 2.0
"""Each advice request's budget_seconds."""
ADVISE_HEAD_START = 3.0
"""Seconds the advice load runs before the hints are measured (the long lane fills)."""


@dataclass
class Level:
    """What happened at one concurrency level."""

    clients: int
    endpoint: str = "POST /v1/hint"
    condition: str = ""
    """What else ran meanwhile ("" for nothing)."""
    background: dict[str, Any] | None = None
    """The other load's own figures (answered, refused, errors, latencies)."""
    latencies: list[float] = field(default_factory=list)
    rejected: int = 0
    errors: list[str] = field(default_factory=list)
    statuses: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0
    server_cpu: tuple[float, float] | None = None
    """CPU seconds of the server process and of its workers during the level."""
    client_cpu: float = 0.0

    def _per_hint(self, seconds: float) -> float | None:
        return round(seconds * 1000 / len(self.latencies), 2) if self.latencies else None

    def summary(self) -> dict[str, Any]:
        ordered = sorted(self.latencies)
        done = len(ordered)
        return {
            "endpoint": self.endpoint,
            "condition": self.condition,
            "background": self.background,
            "clients": self.clients,
            "hints": done,
            "rejected_503": self.rejected,
            "errors": len(self.errors),
            "error_samples": self.errors[:5],
            "seconds": round(self.seconds, 2),
            "hints_per_s": round(done / self.seconds, 1) if self.seconds else 0.0,
            "p50_ms": round(percentile(ordered, 50), 1),
            "p90_ms": round(percentile(ordered, 90), 1),
            "p99_ms": round(percentile(ordered, 99), 1),
            "max_ms": round(ordered[-1], 1) if ordered else float("nan"),
            "hint_statuses": dict(sorted(self.statuses.items())),
            "server_cpu_ms_per_hint": self._per_hint(sum(self.server_cpu)) if self.server_cpu else None,
            "server_main_cpu_ms_per_hint": self._per_hint(self.server_cpu[0]) if self.server_cpu else None,
            "server_workers_cpu_ms_per_hint": self._per_hint(self.server_cpu[1]) if self.server_cpu else None,
            "client_cpu_ms_per_hint": round(self.client_cpu * 1000 / done, 2) if done else None,
        }


@dataclass(frozen=True)
class Workload:
    """The request bodies of each endpoint, for the same positions."""

    hints: list[str]
    analyses: list[str]
    checks: list[str]
    advice: list[str]


def workload(texts: list[str], *, checks: bool = True) -> Workload:
    """Bodies for every endpoint; a check asks about the engine's own best play (found here,
    before the server starts), so every answer should be ``ok``."""
    from solver.engine import hint
    from solver.position import Position

    variant = Variant.manipulation()
    afters = []
    if checks:
        for text in texts:
            found = hint(Position.parse(text), variant=variant)
            if found.has_play:
                afters.append(json.dumps({"position": text, "after": str(found.table)}))
    return Workload(
        hints=[json.dumps({"position": text}) for text in texts],
        analyses=[json.dumps({"position": text}) for text in texts],
        checks=afters,
        advice=[json.dumps({"position": text, "budget_seconds": ADVISE_BUDGET, "seed": 1}) for text in texts],
    )


def positions(seed: int, count: int) -> list[str]:
    """Seeded mid-size Manipulation positions in notation."""
    rng = random.Random(seed)
    variant = Variant.manipulation()
    return [
        str(random_big_position(rng, variant, table_cards=TABLE_CARDS, hand_cards=HAND_CARDS))
        for _ in range(count)
    ]


def _process_tree(pid: int) -> list[int]:
    """``pid`` and its descendants, from /proc (Linux); just ``pid`` elsewhere."""
    found, todo = [], [pid]
    while todo:
        current = todo.pop()
        found.append(current)
        for task in Path(f"/proc/{current}/task").glob("*/children"):
            with contextlib.suppress(OSError):
                todo.extend(int(child) for child in task.read_text().split())
    return found


def server_cpu_seconds(pid: int) -> tuple[float, float] | None:
    """CPU seconds (user + system) used so far by the server process itself and by its
    worker processes, from /proc (None where there is no /proc)."""
    ticks = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
    own = workers = 0
    try:
        for member in _process_tree(pid):
            fields = Path(f"/proc/{member}/stat").read_text().rsplit(")", 1)[1].split()
            used = int(fields[11]) + int(fields[12])  # utime, stime
            if member == pid:
                own = used
            else:
                workers += used
    except (OSError, IndexError, ValueError):
        return None
    return own / ticks, workers / ticks


def library_cpu_ms(texts: list[str]) -> tuple[float, float]:
    """CPU milliseconds per position in this process, no HTTP: ``hint()`` alone, and
    ``hint_payload(hint())`` (the hint and its step-by-step plan, what /v1/hint returns).
    The floor under any server: the rest of a request's cost is the service's."""
    from solver.engine import hint
    from solver.position import Position
    from solver.report import hint_payload

    variant = Variant.manipulation()
    parsed = [Position.parse(text) for text in texts]
    for position in parsed[:10]:  # warm the caches of the engine and the planner
        hint_payload(hint(position, variant=variant))
    before = time.process_time()
    found = [hint(position, variant=variant) for position in parsed]
    middle = time.process_time()
    for result in found:
        hint_payload(result)
    after = time.process_time()
    count = len(parsed)
    return (middle - before) * 1000 / count, (after - before) * 1000 / count


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def rummy_command() -> list[str]:
    """The ``rummy`` console script next to this interpreter, or the module as a fallback."""
    script = Path(sys.executable).with_name("rummy")
    if script.exists():
        return [str(script)]
    found = shutil.which("rummy")
    return [found] if found else [sys.executable, "-c", "from solver.cli import main; main()"]


def start_server(port: int, extra: list[str], env: dict[str, str] | None = None) -> subprocess.Popen[bytes]:
    """``rummy serve`` on 127.0.0.1:``port`` with ``extra`` options, quiet (warnings only, no
    access log); ``env``: the environment (this process's when None)."""
    command = [*rummy_command(), "serve", "--host", "127.0.0.1", "--port", str(port)]
    command += ["--log-level", "warning", "--no-access-log", *extra]
    return subprocess.Popen(command, stdout=subprocess.DEVNULL, env=env)


async def wait_healthy(base: str, server: subprocess.Popen[bytes]) -> dict[str, Any]:
    deadline = time.monotonic() + STARTUP_SECONDS
    async with httpx.AsyncClient(base_url=base, timeout=5.0) as client:
        while time.monotonic() < deadline:
            if server.poll() is not None:
                raise RuntimeError(f"rummy serve exited with status {server.returncode}")
            try:
                answer = await client.get("/healthz")
                if answer.status_code == 200:
                    result: dict[str, Any] = answer.json()
                    return result
            except httpx.TransportError:
                pass
            await asyncio.sleep(0.2)
    raise RuntimeError(f"rummy serve did not answer /healthz within {STARTUP_SECONDS:.0f} s")


def hint_status(answer: dict[str, Any]) -> str | None:
    """A hint's status, or None when the answer is not a hint."""
    status = answer.get("status")
    return str(status) if status in HINT_STATUSES else None


def analysis_status(answer: dict[str, Any]) -> str | None:
    """An analysis's best play's status, or None when the answer is not an analysis."""
    best = answer.get("best")
    return hint_status(best) if isinstance(best, dict) and "playable" in answer else None


def check_status(answer: dict[str, Any]) -> str | None:
    """``legal`` for a play the referee accepts (every check sent is the engine's own play)."""
    return "legal" if answer.get("ok") is True else None


async def run_level(
    base: str,
    bodies: list[str],
    clients: int,
    max_requests: int,
    max_seconds: float,
    timeout: float,
    server_pid: int | None = None,
    *,
    path: str = "/v1/hint",
    status_of: Callable[[dict[str, Any]], str | None] = hint_status,
) -> Level:
    """``clients`` independent clients, each with its own connection, each sending the next
    body to ``path`` as soon as its last answer is in, until ``max_requests`` answers (503s
    not counted) or ``max_seconds``; ``status_of`` names a good answer (None: an error)."""
    level = Level(clients, endpoint=f"POST {path}")
    headers = {"content-type": "application/json"}
    # One client, one connection: a connection pool shared by all the simulated clients
    # queues requests inside httpx and adds its own latency at 64 clients.  Idle
    # connections expire on the client before uvicorn closes them (after 5 s), so that no
    # request goes out on a connection the server is closing just then.  The clients are
    # made and connected before the clock starts (making one costs the client tens of ms).
    limits = httpx.Limits(max_connections=1, max_keepalive_connections=1, keepalive_expiry=2.0)
    pool = [httpx.AsyncClient(base_url=base, limits=limits, timeout=timeout) for _ in range(clients)]
    await asyncio.gather(*(client.get("/healthz") for client in pool))
    server_before = server_cpu_seconds(server_pid) if server_pid else None
    client_before = time.process_time()
    next_index = 0
    answered = 0
    started = time.perf_counter()
    deadline = started + max_seconds

    async def one_client(client: httpx.AsyncClient) -> None:
        nonlocal next_index, answered
        while answered < max_requests and time.perf_counter() < deadline:
            body = bodies[next_index % len(bodies)]
            next_index += 1
            sent = time.perf_counter()
            try:
                answer = await client.post(path, content=body, headers=headers)
            except httpx.HTTPError as error:
                answered += 1
                level.errors.append(f"{type(error).__name__}: {error}")
                continue
            elapsed = (time.perf_counter() - sent) * 1000
            if answer.status_code == 503:
                level.rejected += 1
                await asyncio.sleep(float(answer.headers.get("retry-after", "1")))
                continue
            answered += 1
            status = status_of(answer.json()) if answer.status_code == 200 else None
            if status is None:
                level.errors.append(f"HTTP {answer.status_code}: {answer.text[:200]}")
                continue
            level.statuses[str(status)] = level.statuses.get(str(status), 0) + 1
            level.latencies.append(elapsed)

    try:
        await asyncio.gather(*(one_client(client) for client in pool))
    finally:
        await asyncio.gather(*(client.aclose() for client in pool))
    level.seconds = time.perf_counter() - started
    level.client_cpu = time.process_time() - client_before
    server_after = server_cpu_seconds(server_pid) if server_pid else None
    if server_before is not None and server_after is not None:
        level.server_cpu = (server_after[0] - server_before[0], server_after[1] - server_before[1])
    return level


def report(level: Level) -> None:
    """One line per level."""
    summary = level.summary()
    what = level.endpoint.removeprefix("POST /v1/") + (f" ({level.condition})" if level.condition else "")
    print(
        f"{what:<26} {level.clients:>3} clients: {summary['hints']:>5} answers "
        f"in {summary['seconds']:>5.1f} s = "
        f"{summary['hints_per_s']:>6.1f}/s, p50 {summary['p50_ms']:>6.1f} ms, "
        f"p99 {summary['p99_ms']:>6.1f} ms, "
        f"503s {summary['rejected_503']}, errors {summary['errors']}; CPU ms/answer: server "
        f"{summary['server_cpu_ms_per_hint']} (main {summary['server_main_cpu_ms_per_hint']}, "
        f"workers {summary['server_workers_cpu_ms_per_hint']}), "
        f"client {summary['client_cpu_ms_per_hint']}",
        flush=True,
    )
    if level.background:
        print(f"{'':<26} meanwhile: {level.background}", flush=True)


async def advise_load(base: str, bodies: list[str], clients: int, stop: asyncio.Event) -> dict[str, Any]:
    """``clients`` clients asking for advice back to back (a 503: wait its Retry-After) until
    ``stop``: the long work the hints must not be starved by."""
    answered = refused = 0
    errors: list[str] = []
    latencies: list[float] = []
    refusal_ms: list[float] = []
    turn = 0

    async def one_client() -> None:
        nonlocal answered, refused, turn
        async with httpx.AsyncClient(base_url=base, timeout=120.0) as client:
            while not stop.is_set():
                body = bodies[turn % len(bodies)]
                turn += 1
                sent = time.perf_counter()
                try:
                    answer = await client.post(
                        "/v1/advise", content=body, headers={"content-type": "application/json"}
                    )
                except httpx.HTTPError as error:
                    errors.append(f"{type(error).__name__}: {error}")
                    continue
                elapsed = (time.perf_counter() - sent) * 1000
                if answer.status_code == 503:
                    refused += 1
                    refusal_ms.append(elapsed)
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(stop.wait(), float(answer.headers.get("retry-after", "1")))
                elif answer.status_code == 200 and "options" in answer.json():
                    answered += 1
                    latencies.append(elapsed)
                else:
                    errors.append(f"HTTP {answer.status_code}: {answer.text[:200]}")

    await asyncio.gather(*(one_client() for _ in range(clients)))
    return {
        "endpoint": "POST /v1/advise",
        "clients": clients,
        "answered": answered,
        "refused_503": refused,
        "errors": len(errors),
        "error_samples": errors[:3],
        "p50_ms": round(percentile(latencies, 50), 1) if latencies else None,
        "max_ms": round(max(latencies), 1) if latencies else None,
        "refusal_max_ms": round(max(refusal_ms), 1) if refusal_ms else None,
    }


async def measure(args: argparse.Namespace, base: str, work: Workload, server_pid: int) -> list[Level]:
    # Warm up: connections, worker processes and the engine's caches.
    await run_level(base, work.hints, 2, 2 * args.warmup, 30.0, 30.0)
    levels = []
    for clients in args.levels:
        level = await run_level(base, work.hints, clients, args.requests, args.seconds, 60.0, server_pid)
        report(level)
        levels.append(level)
    if args.hint_only:
        return levels
    others: list[tuple[str, list[str], Callable[[dict[str, Any]], str | None]]] = [
        ("/v1/analyze", work.analyses, analysis_status),
        ("/v1/check", work.checks, check_status),
    ]
    for path, bodies, status_of in others:
        level = await run_level(
            base, bodies, 8, args.requests, args.seconds, 60.0, server_pid, path=path, status_of=status_of
        )
        report(level)
        levels.append(level)
    # Hints while advice keeps the long lane full (more advice clients than it admits).
    stop = asyncio.Event()
    background = asyncio.create_task(advise_load(base, work.advice, ADVISE_CLIENTS, stop))
    await asyncio.sleep(ADVISE_HEAD_START)
    level = await run_level(base, work.hints, 8, args.requests, args.seconds, 60.0, server_pid)
    stop.set()
    level.condition = f"{ADVISE_CLIENTS} advising"
    level.background = await background
    report(level)
    levels.append(level)
    return levels


TARGET_RATE = 500.0
"""Hints a second at 8 clients on 2 cores (issue #35), with ``TARGET_P99_8`` ms at most."""
TARGET_P99_8 = 50.0
TARGET_P99_64 = 150.0
"""p99 (ms) at 64 clients, with load shedding."""


def _level(levels: list[Level], clients: int, condition: str = "") -> Level | None:
    return next(
        (
            level
            for level in levels
            if level.endpoint == "POST /v1/hint" and level.clients == clients and level.condition == condition
        ),
        None,
    )


def verdicts(levels: list[Level]) -> list[str]:
    """The issue's targets, each met or missed with the figure, and where a target is missed
    the measured limit: the CPU a hint costs in all (client, server main, workers) and the
    hints a second the machine's cores allow at that cost."""
    lines = []
    eight, many = _level(levels, 8), _level(levels, 64)
    if eight is not None:
        summary = eight.summary()
        rate, p99 = summary["hints_per_s"], summary["p99_ms"]
        met = rate >= TARGET_RATE and p99 <= TARGET_P99_8
        lines.append(
            f"target: >= {TARGET_RATE:g} hints/s at 8 clients with p99 < {TARGET_P99_8:g} ms: "
            f"{'met' if met else 'missed'} ({rate}/s, p99 {p99} ms)"
        )
        server = summary["server_cpu_ms_per_hint"]
        client = summary["client_cpu_ms_per_hint"]
        if not met and server is not None and client is not None:
            total = server + client
            cores = os.cpu_count() or 1
            main_ms, workers_ms = (
                summary["server_main_cpu_ms_per_hint"],
                summary["server_workers_cpu_ms_per_hint"],
            )
            lines.append(
                f"  measured limit: {total:.2f} CPU ms a hint in all (client {client}, server main "
                f"{main_ms}, workers {workers_ms}): {cores} cores allow at most "
                f"{cores * 1000 / total:.0f} hints/s"
            )
    if many is not None:
        p99 = many.summary()["p99_ms"]
        lines.append(
            f"target: p99 < {TARGET_P99_64:g} ms at 64 clients with load shedding: "
            f"{'met' if p99 < TARGET_P99_64 else 'missed'} (p99 {p99} ms, {many.rejected} deliberate 503s)"
        )
    busy = _level(levels, 8, f"{ADVISE_CLIENTS} advising")
    if busy is not None and eight is not None:
        alone, shared = eight.summary(), busy.summary()
        kept = shared["hints_per_s"] / alone["hints_per_s"] if alone["hints_per_s"] else 0.0
        background = busy.background or {}
        refused, slowest = background.get("refused_503", 0), background.get("refusal_max_ms")
        lines.append(
            f"advice saturated: hints keep {100 * kept:.0f}% of their rate ({shared['hints_per_s']}/s), "
            f"p99 {shared['p99_ms']} ms (alone {alone['p99_ms']}); advice refused at once "
            f"{refused} times (slowest refusal {slowest} ms)"
        )
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="300 hints or 15 s per level.")
    parser.add_argument("--requests", type=int, help="Hints per level (default 1500; 300 with --quick).")
    parser.add_argument("--seconds", type=float, help="Seconds per level at most (default 45; 15 --quick).")
    parser.add_argument("--levels", type=lambda s: [int(x) for x in s.split(",")], default=list(LEVELS))
    parser.add_argument("--positions", type=int, default=400, help="Distinct positions, sent in turn.")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--warmup", type=int, default=20, help="Requests per worker before measuring.")
    parser.add_argument(
        "--hint-only",
        action="store_true",
        help="Only the hint levels (no analyze, check, or hints under advice).",
    )
    parser.add_argument("--out", type=Path, default=RESULTS / "load.json")
    parser.add_argument("serve_args", nargs="*", help="Extra options for rummy serve (after --).")
    args = parser.parse_args(argv)
    args.requests = args.requests or (300 if args.quick else 1500)
    args.seconds = args.seconds or (15.0 if args.quick else 45.0)

    load_before = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
    texts = positions(args.seed, args.positions)
    work = workload(texts, checks=not args.hint_only)
    hint_ms, payload_ms = library_cpu_ms(texts[:100])
    print(f"library, no HTTP: hint() {hint_ms:.2f} CPU ms, with its plan {payload_ms:.2f} CPU ms", flush=True)
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = start_server(port, args.serve_args)
    try:
        health = asyncio.run(wait_healthy(base, server))
        print(f"rummy serve on {base}: {health['executor']} pool, {health['pool']}", flush=True)
        levels = asyncio.run(measure(args, base, work, server.pid))
    finally:
        server.terminate()
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()

    result = {
        "date": date.today().isoformat(),
        "machine": {
            "cpus": os.cpu_count(),
            "python": platform.python_version(),
            "system": platform.system(),
            "load_average_before": load_before,
            "load_average_after": os.getloadavg()[0] if hasattr(os, "getloadavg") else None,
        },
        "versions": {name: metadata.version(name) for name in ("ortools", "fastapi", "uvicorn", "httpx")},
        "server": {
            "command": "rummy serve --no-access-log " + " ".join(args.serve_args),
            "executor": health["executor"],
            "pool": {"workers": health["pool"]["workers"], "queue": health["pool"]["queue"]},
        },
        "workload": {
            "endpoint": "POST /v1/hint (and /v1/analyze, /v1/check, /v1/advise on the same positions)",
            "advise": {
                "clients": ADVISE_CLIENTS,
                "budget_seconds": ADVISE_BUDGET,
                "head_start_s": ADVISE_HEAD_START,
            },
            "variant": "manipulation",
            "table_cards": TABLE_CARDS,
            "hand_cards": HAND_CARDS,
            "positions": args.positions,
            "seed": args.seed,
            "max_requests_per_level": args.requests,
            "max_seconds_per_level": args.seconds,
        },
        "library_cpu_ms_per_hint": {"hint": round(hint_ms, 2), "hint_and_plan": round(payload_ms, 2)},
        "levels": [level.summary() for level in levels],
    }
    result["targets"] = verdicts(levels)
    for line in result["targets"]:
        print(line, flush=True)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    print(f"wrote {args.out}")
    failures = sum(len(level.errors) for level in levels)
    if failures:
        print(f"FAILED: {failures} error(s) other than deliberate 503s", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
