"""``rummy serve`` as a new user runs it: a real server on 127.0.0.1, docs, and a hint
from the documented example request, then a clean shutdown."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from typer.testing import CliRunner

from solver.cli import app

RUMMY = Path(sys.executable).with_name("rummy")


@pytest.fixture(autouse=True)
def data_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The servers these tests start keep their games under the test's own folder (the
    default SQLite file is ``$XDG_DATA_HOME/rummy/games.sqlite3``), never in the user's."""
    home = tmp_path / "data"
    monkeypatch.setenv("XDG_DATA_HOME", str(home))
    return home


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_serve_help_names_the_options_and_the_environment() -> None:
    result = CliRunner().invoke(app, ["serve", "--help"], env={"COLUMNS": "200"})
    assert result.exit_code == 0
    for text in ("--host", "--port", "--workers", "--queue", "RUMMY_MAX_TIME_LIMIT", "/docs"):
        assert text in result.output


def test_rummy_serve_answers_the_example_request_and_stops_cleanly(data_home: Path) -> None:
    """The default set-up (worker processes), stopped with Ctrl-C as a user would."""
    port = free_port()
    env = {name: value for name, value in os.environ.items() if not name.startswith("RUMMY_")}
    command = [str(RUMMY), "serve", "--port", str(port), "--workers", "1", "--no-access-log"]
    server = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            assert server.poll() is None, server.communicate()[1].decode()
            assert time.monotonic() < deadline, "rummy serve did not start"
            try:
                health = httpx.get(f"{base}/healthz", timeout=2)
                break
            except httpx.TransportError:
                time.sleep(0.1)
        assert health.json()["pool"]["workers"] == 1
        assert "swagger" in httpx.get(f"{base}/docs").text.lower()
        spec = httpx.get(f"{base}/openapi.json").json()
        examples = spec["paths"]["/v1/hint"]["post"]["requestBody"]["content"]["application/json"]["examples"]
        answer = httpx.post(f"{base}/v1/hint", json=examples["worked example"]["value"], timeout=30)
        assert answer.status_code == 200
        assert answer.json()["table"] == "Jh Qh Kh | Jd Qd Kd | Jc Qc Kc Ac"
    finally:
        server.send_signal(signal.SIGINT)
        _, stderr = server.communicate(timeout=30)
    log = stderr.decode()
    assert server.returncode == 0, log
    assert f"http://127.0.0.1:{port}/docs" in log
    # With no RUMMY_DB, games are kept in the default SQLite file, and the server says where.
    assert f"games are kept in the SQLite file {data_home / 'rummy' / 'games.sqlite3'} (RUMMY_DB)" in log
    assert (data_home / "rummy" / "games.sqlite3").is_file()
    assert "Application shutdown complete" in log and "Traceback" not in log


def test_the_load_benchmark_runs_end_to_end(tmp_path: Path) -> None:
    """A tiny run of ``python -m benchmarks.load``: server up, levels measured, JSON written."""
    out = tmp_path / "load.json"
    env = {name: value for name, value in os.environ.items() if not name.startswith("RUMMY_")}
    command = [sys.executable, "-m", "benchmarks.load", "--levels", "1,8", "--requests", "8"]
    command += ["--positions", "8", "--warmup", "2", "--out", str(out), "--", "--workers", "1"]
    root = Path(__file__).resolve().parents[1]
    finished = subprocess.run(command, cwd=root, env=env, capture_output=True, timeout=120)
    assert finished.returncode == 0, finished.stderr.decode()
    result = json.loads(out.read_text())
    rows = [(level["endpoint"], level["clients"], level["condition"]) for level in result["levels"]]
    assert rows == [
        ("POST /v1/hint", 1, ""),
        ("POST /v1/hint", 8, ""),
        ("POST /v1/analyze", 8, ""),
        ("POST /v1/check", 8, ""),
        ("POST /v1/hint", 8, "8 advising"),  # hints while advice fills the long lane
    ]
    assert all(level["errors"] == 0 and level["hints"] >= 8 for level in result["levels"])
    advice = result["levels"][-1]["background"]
    assert advice["endpoint"] == "POST /v1/advise" and advice["errors"] == 0
    # the targets of issue #35, each said met or missed (with the limit where missed); 64
    # clients is not among this run's levels, so its target is not judged
    said = result["targets"]
    assert said[0].startswith("target: >= 500 hints/s at 8 clients with p99 < 50 ms: ")
    assert said[0].split(": ")[2].startswith(("met", "missed"))
    assert not any("64 clients" in line for line in said)
    assert said[-1].startswith("advice saturated: hints keep")
    assert all(line in finished.stdout.decode() for line in said)
    assert result["server"]["pool"]["workers"] == 1


# --- bad settings and options fail before the server claims to serve (issue 19) -------------


def serve_error(args: list[str], env: dict[str, str] | None = None) -> str:
    """Run ``rummy serve ARGS`` in-process (it must fail before serving): its one error line."""
    clean = {name: None for name in os.environ if name.startswith("RUMMY_")}
    result = CliRunner().invoke(app, ["serve", *args], env={**clean, **(env or {})})
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), lines
    assert "serving" not in lines[0] and "Traceback" not in lines[0]
    return lines[0]


@pytest.mark.parametrize(
    ("env", "named"),
    [
        ({"RUMMY_WORKERS": "0"}, "RUMMY_WORKERS=0: Input should be greater than or equal to 1"),
        ({"RUMMY_EXECUTOR": "fork"}, "RUMMY_EXECUTOR=fork"),
        ({"RUMMY_MAX_TIME_LIMIT": "nan"}, "RUMMY_MAX_TIME_LIMIT=nan"),
        ({"RUMMY_MAX_CONNECTIONS": "-3"}, "RUMMY_MAX_CONNECTIONS=-3"),
        ({"RUMMY_KEEP_ALIVE": "soon"}, "RUMMY_KEEP_ALIVE=soon: Input should be a valid number"),
        ({"RUMMY_MAX_TIME_LIMIT": "2", "RUMMY_DEFAULT_TIME_LIMIT": "3"}, "exceeds max_time_limit"),
    ],
)
def test_a_bad_rummy_setting_is_one_line_and_exit_2(env: dict[str, str], named: str) -> None:
    line = serve_error(["--port", str(free_port())], env)
    assert line.startswith("error: bad setting") and named in line


@pytest.mark.parametrize(
    ("setting", "named"),
    [
        ("mysql://somewhere/games", "unsupported kind of database 'mysql'"),
        ("postgresql:games", "looks like a URL without '//'"),
    ],
)
def test_a_game_store_that_cannot_be_used_is_one_line_and_exit_2(setting: str, named: str) -> None:
    line = serve_error(["--port", str(free_port())], {"RUMMY_DB": setting})
    assert line.startswith("error: cannot keep games: RUMMY_DB=") and named in line


def test_a_file_that_is_not_a_database_is_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "notes.txt"
    bad.write_text("not a database, just notes\n" * 100)
    line = serve_error(["--port", str(free_port())], {"RUMMY_DB": str(bad)})
    assert line.startswith("error: cannot keep games: ") and str(bad) in line


def test_bad_options_are_one_line_and_exit_2() -> None:
    assert "unknown log level 'loud'" in serve_error(["--log-level", "loud"])
    assert "--workers 0" in serve_error(["--workers", "0", "--port", str(free_port())])
    assert "--queue -1" in serve_error(["--queue", "-1", "--port", str(free_port())])


def test_a_port_in_use_is_one_line_before_claiming_to_serve() -> None:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        line = serve_error(["--port", str(port)])
    assert line == f"error: cannot listen on 127.0.0.1:{port}: address already in use"


def test_an_unknown_host_is_one_line() -> None:
    line = serve_error(["--host", "no-such-host.invalid"])
    assert line.startswith("error: cannot listen on no-such-host.invalid:8000: unknown host")


def test_the_real_command_prints_no_traceback_for_a_bad_setting() -> None:
    env = {name: value for name, value in os.environ.items() if not name.startswith("RUMMY_")}
    finished = subprocess.run(
        [str(RUMMY), "serve", "--port", str(free_port())],
        env={**env, "RUMMY_WORKERS": "0"},
        capture_output=True,
        timeout=60,
    )
    assert finished.returncode == 2 and finished.stdout == b""
    assert finished.stderr.decode().splitlines() == [
        "error: bad setting RUMMY_WORKERS=0: Input should be greater than or equal to 1"
    ]
