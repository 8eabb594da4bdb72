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
from typer.testing import CliRunner

from solver.cli import app

RUMMY = Path(sys.executable).with_name("rummy")


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_serve_help_names_the_options_and_the_environment() -> None:
    result = CliRunner().invoke(app, ["serve", "--help"], env={"COLUMNS": "200"})
    assert result.exit_code == 0
    for text in ("--host", "--port", "--workers", "--queue", "RUMMY_MAX_TIME_LIMIT", "/docs"):
        assert text in result.output


def test_rummy_serve_answers_the_example_request_and_stops_cleanly() -> None:
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
    assert "Application shutdown complete" in log and "Traceback" not in log


def test_the_load_benchmark_runs_end_to_end(tmp_path: Path) -> None:
    """A tiny run of ``python -m benchmarks.load``: server up, levels measured, JSON written."""
    out = tmp_path / "load.json"
    env = {name: value for name, value in os.environ.items() if not name.startswith("RUMMY_")}
    command = [sys.executable, "-m", "benchmarks.load", "--levels", "1,4", "--requests", "8"]
    command += ["--positions", "8", "--warmup", "2", "--out", str(out), "--", "--workers", "1"]
    root = Path(__file__).resolve().parents[1]
    finished = subprocess.run(command, cwd=root, env=env, capture_output=True, timeout=120)
    assert finished.returncode == 0, finished.stderr.decode()
    result = json.loads(out.read_text())
    assert [level["clients"] for level in result["levels"]] == [1, 4]
    assert all(level["errors"] == 0 and level["hints"] >= 8 for level in result["levels"])
    assert result["server"]["pool"]["workers"] == 1
