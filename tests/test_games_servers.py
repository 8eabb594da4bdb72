"""Games kept across real ``rummy serve`` processes: ``kill -9`` right after an acknowledged
action loses nothing (SQLite), and two servers on different ports sharing one PostgreSQL
database play the same game alternately, request by request."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from playkit import human_choice

RUMMY = Path(sys.executable).with_name("rummy")
STARTUP_SECONDS = 90.0


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Server:
    """``rummy serve`` on a free port with games kept in ``db`` (thread workers: one process)."""

    def __init__(self, db: str, log: Path) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        env = {name: value for name, value in os.environ.items() if not name.startswith("RUMMY_")}
        env |= {"RUMMY_DB": db, "RUMMY_EXECUTOR": "thread", "RUMMY_WORKERS": "2"}
        command = [str(RUMMY), "serve", "--host", "127.0.0.1", "--port", str(self.port), "--no-access-log"]
        self.log = log
        with log.open("wb") as out:
            self.process = subprocess.Popen(command, env=env, stdout=out, stderr=subprocess.STDOUT)
        self.client = httpx.Client(base_url=self.base, timeout=60)
        deadline = time.monotonic() + STARTUP_SECONDS
        while True:
            assert self.process.poll() is None, log.read_text()
            assert time.monotonic() < deadline, f"rummy serve did not start:\n{log.read_text()}"
            try:
                if self.client.get("/healthz").status_code == 200:
                    break
            except httpx.TransportError:
                time.sleep(0.1)

    def stop(self, sig: int = signal.SIGTERM) -> None:
        self.client.close()
        if self.process.poll() is None:
            self.process.send_signal(sig)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    def post(self, path: str, body: dict[str, Any]) -> httpx.Response:
        return self.client.post(path, json=body)

    def act(self, game: str, state: dict[str, Any]) -> dict[str, Any]:
        answer = self.post(f"/v1/games/{game}/act", {"turn": state["turn"], "action": human_choice(state)})
        assert answer.status_code == 200, answer.text
        acted: dict[str, Any] = answer.json()
        return acted


@pytest.fixture
def servers(tmp_path: Path) -> Iterator[list[Server]]:
    """Where a test puts its servers, each stopped at its end."""
    started: list[Server] = []
    yield started
    for server in started:
        server.stop()


def test_kill_9_right_after_an_acknowledged_action_loses_nothing(
    tmp_path: Path, servers: list[Server]
) -> None:
    db = str(tmp_path / "games.sqlite3")
    first = Server(db, tmp_path / "first.log")
    servers.append(first)
    created = first.post(
        "/v1/games", {"variant": "rummikub", "players": 2, "opponents": ["greedy"], "seed": 6}
    )
    assert created.status_code == 201, created.text
    game, state = created.json()["id"], created.json()["state"]
    for _ in range(3):
        state = first.act(game, state)
    helped = first.post(f"/v1/games/{game}/help", {"turn": state["turn"], "level": 2})
    assert helped.status_code == 200
    state = first.act(game, {**state, "turn": state["turn"] + 1})
    os.kill(first.process.pid, signal.SIGKILL)  # the moment the answer is in: nothing else may be lost
    first.process.wait(timeout=30)
    second = Server(db, tmp_path / "second.log")
    servers.append(second)
    assert second.client.get(f"/v1/games/{game}").json() == state
    assert second.act(game, state)["turn"] > state["turn"]


def test_two_servers_sharing_postgresql_play_one_game_alternately(
    postgres_url: str, tmp_path: Path, servers: list[Server]
) -> None:
    one, two = Server(postgres_url, tmp_path / "one.log"), Server(postgres_url, tmp_path / "two.log")
    servers += [one, two]
    assert "PostgreSQL database" in one.log.read_text()
    created = one.post(
        "/v1/games", {"variant": "machiavelli", "players": 2, "opponents": ["expert"], "seed": 4}
    )
    assert created.status_code == 201, created.text
    game, state = created.json()["id"], created.json()["state"]
    for number in range(500):
        if state["over"]:
            break
        here, there = (one, two) if number % 2 else (two, one)
        assert there.client.get(f"/v1/games/{game}").json() == state  # each sees what the other kept
        if number % 5 == 2:  # the same turn sent to both: the second is stale and changes nothing
            first = here.post(f"/v1/games/{game}/help", {"turn": state["turn"], "level": 1})
            late = there.post(f"/v1/games/{game}/help", {"turn": state["turn"], "level": 1})
            assert (
                first.status_code == 200
                and late.status_code == 409
                and late.json()["error"]["type"] == "stale"
            )
            state = {**state, "turn": state["turn"] + 1}
        state = here.act(game, state)
    assert state["over"] and state["result"] is not None
    assert one.client.get(f"/v1/games/{game}").json() == two.client.get(f"/v1/games/{game}").json() == state


def test_the_play_load_benchmark_runs_end_to_end(tmp_path: Path) -> None:
    """A tiny run of ``python -m benchmarks.play_load``: a server, games played, figures and JSON."""
    out = tmp_path / "play_load.json"
    env = {name: value for name, value in os.environ.items() if not name.startswith("RUMMY_")}
    command = [
        sys.executable,
        "-m",
        "benchmarks.play_load",
        "--games",
        "3",
        "--seconds",
        "6",
        "--think",
        "0.05",
    ]
    command += ["--out", str(out), "--", "--workers", "1"]
    root = Path(__file__).resolve().parents[1]
    finished = subprocess.run(command, cwd=root, env=env, capture_output=True, timeout=180)
    assert finished.returncode == 0, finished.stderr.decode()
    result = json.loads(out.read_text())
    assert result["errors"] == 0 and result["games_started"] >= 3 and result["workload"]["opponent"] == "pimc"
    assert result["groups"]["no bot turn"]["count"] > 0 and result["groups"]["with bot turns"]["count"] > 0
    assert result["date"] and result["machine"]["cpus"]
    printed = finished.stdout.decode()
    assert "target: p99 < 300 ms for requests with no bot turn: " in printed and result["target"] in printed
