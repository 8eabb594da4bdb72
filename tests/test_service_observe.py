"""What the service tells its operators: GET /v1/version, GET /metrics (Prometheus text) and
the structured access log, with each solving request's time split."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
import threading
from collections.abc import Iterator
from importlib import metadata

import pytest
from fastapi.testclient import TestClient
from prometheus_client import generate_latest
from prometheus_client.parser import text_string_to_metric_families
from service_kit import wait_for
from starlette.types import Message, Receive, Scope, Send

from service import create_app
from service.observe import ACCESS_LOGGER, ObserveMiddleware, Observer
from service.pool import SolvePool
from service.server import _access_log
from service.settings import Settings
from solver import fastpath

WORKED = {"position": "Kh Kd Kc | Qh Qd Qc | Jh Jd Jc / Ac"}


@pytest.fixture()
def client() -> Iterator[TestClient]:
    with TestClient(create_app(Settings(executor="thread", workers=1, queue=0))) as made:
        yield made


def samples(client: TestClient) -> dict[tuple[str, frozenset[tuple[str, str]]], float]:
    """Every sample of GET /metrics, by name and labels."""
    answer = client.get("/metrics")
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("text/plain; version=0.0.4")
    found = {}
    for family in text_string_to_metric_families(answer.text):
        for sample in family.samples:
            found[(sample.name, frozenset(sample.labels.items()))] = sample.value
    return found


def value(found: dict[tuple[str, frozenset[tuple[str, str]]], float], name: str, **labels: str) -> float:
    return found.get((name, frozenset(labels.items())), 0.0)


def test_version_names_the_package_ortools_and_the_engine_build(client: TestClient) -> None:
    answer = client.get("/v1/version")
    assert answer.status_code == 200
    body = answer.json()
    assert set(body) == {"package", "ortools", "python", "engine"}
    assert body["package"] == metadata.version("manipulation-rummy")
    assert body["ortools"] == metadata.version("ortools")
    assert re.fullmatch(r"3\.\d+\.\d+", body["python"])
    engine = body["engine"]
    assert re.fullmatch(r"[0-9a-f]{16}", engine["search"]) and re.fullmatch(r"[0-9a-f]{16}", engine["points"])
    assert engine["search"] != engine["points"]
    assert engine["prices"] is fastpath.prices_available()


def test_metrics_count_requests_by_route_and_status(client: TestClient) -> None:
    assert client.post("/v1/hint", json=WORKED).status_code == 200
    assert client.post("/v1/hint", json=WORKED).status_code == 200
    assert client.post("/v1/hint", json={"position": "/ Zc"}).status_code == 422
    assert client.get("/no/such/path/42").status_code == 404
    found = samples(client)
    total = "rummy_http_requests_total"
    assert value(found, total, method="POST", route="/v1/hint", status="200") == 2
    assert value(found, total, method="POST", route="/v1/hint", status="422") == 1
    assert value(found, total, method="GET", route="other", status="404") == 1  # the raw path is no label
    assert not any("/no/such" in str(labels) for _, labels in found)
    count = "rummy_http_request_duration_seconds_count"
    assert value(found, count, method="POST", route="/v1/hint") == 3
    # the solving jobs' time split: the wait for a worker, and the round trip
    phase = "rummy_job_phase_seconds_count"
    for name in ("queue", "transfer", "engine", "plan", "encode"):
        assert value(found, phase, lane="short", phase=name) == 2, name


def test_metrics_show_the_lanes_their_load_and_the_requests_shed(client: TestClient) -> None:
    pool: SolvePool = client.app.state.pool  # type: ignore[attr-defined]
    release = threading.Event()
    blocker = threading.Thread(target=pool.run, args=(30.0, release.wait, 30.0))
    blocker.start()
    try:
        wait_for(lambda: pool.stats()["running"] == 1)
        assert client.post("/v1/hint", json=WORKED).status_code == 503
        found = samples(client)
        assert value(found, "rummy_pool_workers", lane="short") == 1
        assert value(found, "rummy_pool_workers", lane="long") == 1
        assert value(found, "rummy_pool_running", lane="short") == 1
        assert value(found, "rummy_pool_waiting", lane="short") == 0
        assert value(found, "rummy_pool_refused_total", lane="short", reason="full") == 1
        assert value(found, "rummy_pool_refused_total", lane="long", reason="full") == 0
        assert value(found, "rummy_http_requests_total", method="POST", route="/v1/hint", status="503") == 1
        assert value(found, "rummy_worker_restarts_total", lane="short") == 0
    finally:
        release.set()
        blocker.join()


def test_the_access_log_is_one_json_line_per_request_with_the_time_split(
    client: TestClient, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.INFO, logger=ACCESS_LOGGER):
        assert client.post("/v1/hint", json=WORKED).status_code == 200
        assert client.post("/v1/hint", json={"position": "/ Zc"}).status_code == 422
    lines = [json.loads(record.getMessage()) for record in caplog.records if record.name == ACCESS_LOGGER]
    assert len(lines) == 2
    solved, refused = lines
    assert solved["method"] == "POST" and solved["path"] == "/v1/hint" and solved["status"] == 200
    assert solved["lane"] == "short"
    for field in ("ms", "queue_ms", "worker_ms", "transfer_ms", "engine_ms", "plan_ms", "encode_ms"):
        assert solved[field] >= 0
    assert solved["worker_ms"] <= solved["ms"]
    phases = solved["engine_ms"] + solved["plan_ms"] + solved["encode_ms"]
    assert phases <= solved["worker_ms"] + 0.01  # the job's phases are within its time in the worker
    assert refused["status"] == 422 and "lane" not in refused  # refused before it reached a worker


def test_serve_writes_the_access_log_only_when_asked() -> None:
    logger = logging.getLogger(ACCESS_LOGGER)
    try:
        _access_log(True, "info")
        assert len(logger.handlers) == 1 and logger.isEnabledFor(logging.INFO)
        _access_log(True, "warning")
        assert not logger.handlers and not logger.isEnabledFor(logging.INFO)
        _access_log(False, "debug")
        assert not logger.handlers and not logger.isEnabledFor(logging.INFO)
        _access_log(True, "trace")
        assert len(logger.handlers) == 1 and logger.isEnabledFor(logging.INFO)
    finally:
        for handler in list(logger.handlers):
            logger.removeHandler(handler)
        logger.setLevel(logging.NOTSET)
        logger.propagate = True


def _observed_status(behaviour: str) -> str:
    """The status ``ObserveMiddleware`` records for an app that answers 200, returns
    without answering (its client left, its work cancelled), is cancelled, or fails."""

    async def app(scope: Scope, receive: Receive, send: Send) -> None:
        if behaviour == "answers":
            await send({"type": "http.response.start", "status": 200, "headers": []})
            await send({"type": "http.response.body", "body": b""})
        elif behaviour == "cancelled":
            raise asyncio.CancelledError
        elif behaviour == "fails":
            raise RuntimeError("a bug")

    async def sent(message: Message) -> None:
        return None

    async def received() -> Message:
        return {"type": "http.disconnect"}

    observer = Observer({})
    middleware = ObserveMiddleware(app, observer=observer, paths=frozenset({"/v1/advise"}))
    scope: Scope = {"type": "http", "method": "POST", "path": "/v1/advise", "headers": [], "client": None}
    raised = {"cancelled": asyncio.CancelledError, "fails": RuntimeError}.get(behaviour)
    with pytest.raises(raised) if raised else contextlib.nullcontext():
        asyncio.run(middleware(scope, received, sent))
    text = generate_latest(observer.registry).decode()
    statuses = [
        sample.labels["status"]
        for family in text_string_to_metric_families(text)
        for sample in family.samples
        if sample.name == "rummy_http_requests_total"
    ]
    assert len(statuses) == 1, statuses
    return statuses[0]


def test_a_client_that_left_is_counted_as_499_not_as_a_server_error() -> None:
    """An advice abandoned by its client (its job cancelled, nothing sent) was counted as a
    500: alerts on the error rate fired on ordinary client timeouts."""
    assert _observed_status("answers") == "200"
    assert _observed_status("leaves") == "499"
    assert _observed_status("cancelled") == "499"
    assert _observed_status("fails") == "500"
