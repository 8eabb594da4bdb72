"""What the service did: Prometheus metrics and a structured access log.

``Observer`` holds one application's metrics registry (``prometheus_client``): requests
by method, route and status, their latency, the time split of solving jobs (queue,
engine, plan, serialisation, transfer between processes), and, read from the pools when
scraped, the queue depth, the requests shed and the workers restarted, per lane.
``ObserveMiddleware`` is the outermost layer: it times every request, gives it a
``RequestTimes`` for its job (``service.timing``), and when the answer has been sent
records the metrics and writes one JSON line to the ``rummy.access`` logger.
Routes are labelled by their template, and a path no route has by ``other``, so the
labels stay few whatever clients send.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Iterable, Mapping
from datetime import UTC, datetime
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.registry import Collector
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from service.pool import SolvePool
from service.timing import RequestTimes, current_times

__all__ = ["ACCESS_LOGGER", "CONTENT_TYPE", "ObserveMiddleware", "Observer"]

ACCESS_LOGGER = "rummy.access"
CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"
"""The Prometheus text format's media type."""

LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0)
"""Seconds: a hint takes milliseconds, an advice seconds."""


class _PoolCollector(Collector):
    """The pools' state, read when the metrics are scraped."""

    def __init__(self, pools: Mapping[str, SolvePool]) -> None:
        self.pools = pools

    def collect(self) -> Iterable[Metric]:
        workers = GaugeMetricFamily("rummy_pool_workers", "Workers of the lane's pool.", labels=["lane"])
        running = GaugeMetricFamily(
            "rummy_pool_running", "Jobs running on the lane's workers.", labels=["lane"]
        )
        waiting = GaugeMetricFamily(
            "rummy_pool_waiting", "Jobs waiting for a worker (queue depth).", labels=["lane"]
        )
        refused = CounterMetricFamily(
            "rummy_pool_refused",
            "Requests shed with 503 before they ran: pool and queue full, or the wait too long.",
            labels=["lane", "reason"],
        )
        failed = CounterMetricFamily(
            "rummy_pool_failed",
            "Admitted jobs that ended in 503: past their time, their worker died, or stopped.",
            labels=["lane", "reason"],
        )
        restarts = CounterMetricFamily(
            "rummy_worker_restarts",
            "Worker processes started in place of one lost or stopped.",
            labels=["lane"],
        )
        for lane, pool in self.pools.items():
            stats = pool.stats()
            workers.add_metric([lane], stats["workers"])
            running.add_metric([lane], stats["running"])
            waiting.add_metric([lane], stats["waiting"])
            for reason, count in pool.refused.items():
                refused.add_metric([lane, reason], count)
            for reason, count in pool.failed.items():
                failed.add_metric([lane, reason], count)
            restarts.add_metric([lane], pool.replaced())
        return [workers, running, waiting, refused, failed, restarts]


class Observer:
    """One application's metrics and access log (``pools``: the pools by lane)."""

    def __init__(self, pools: Mapping[str, SolvePool]) -> None:
        self.registry = CollectorRegistry()
        self.requests = Counter(
            "rummy_http_requests",
            "HTTP requests answered, by method, route and status.",
            ["method", "route", "status"],
            registry=self.registry,
        )
        self.latency = Histogram(
            "rummy_http_request_duration_seconds",
            "Time from a request's start to its answer's last byte, by method and route.",
            ["method", "route"],
            buckets=LATENCY_BUCKETS,
            registry=self.registry,
        )
        self.job_phases = Histogram(
            "rummy_job_phase_seconds",
            "Where solving jobs spend their time: queue (waiting for a worker), the job's own "
            "phases (engine, plan, encode...) and transfer (between the processes).",
            ["lane", "phase"],
            buckets=LATENCY_BUCKETS,
            registry=self.registry,
        )
        self.registry.register(_PoolCollector(pools))
        self.log = logging.getLogger(ACCESS_LOGGER)

    def exposition(self) -> bytes:
        """The metrics in the Prometheus text format."""
        return generate_latest(self.registry)

    def record(self, scope: Scope, route: str, status: int, seconds: float, times: RequestTimes) -> None:
        """Count one answered request, and log it."""
        method = scope["method"]
        self.requests.labels(method, route, str(status)).inc()
        self.latency.labels(method, route).observe(seconds)
        if times.lane is not None:
            lane = times.lane
            for name, value in (("queue", times.queue_ms), ("transfer", times.transfer_ms)):
                if value is not None:
                    self.job_phases.labels(lane, name).observe(value / 1000)
            for name, value in times.phases.items():
                self.job_phases.labels(lane, name).observe(value / 1000)
        if self.log.isEnabledFor(logging.INFO):
            client = scope.get("client")
            line: dict[str, Any] = {
                "time": datetime.now(UTC).isoformat(timespec="milliseconds"),
                "client": f"{client[0]}:{client[1]}" if client else None,
                "method": method,
                "path": scope["path"],
                "route": route,
                "status": status,
                "ms": round(seconds * 1000, 3),
                **times.fields(),
            }
            self.log.info(json.dumps(line, separators=(",", ":")))


CLIENT_CLOSED = 499
"""The status recorded for a request whose client left before any answer (nginx's code):
an abandoned long advice was counted as a 500, which an alert on errors would page for."""


class ObserveMiddleware:
    """Times every HTTP request and hands it to ``observer`` once its answer is sent.

    A request answered before routing (shed, too large) is labelled by its path when that
    is one of ``paths``, else ``other``."""

    def __init__(self, app: ASGIApp, *, observer: Observer, paths: frozenset[str]) -> None:
        self.app = app
        self.observer = observer
        self.paths = paths

    def _route_of(self, scope: Scope) -> str:
        template = getattr(scope.get("route"), "path", None)
        if isinstance(template, str):
            return template
        return scope["path"] if scope["path"] in self.paths else "other"

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        start = time.perf_counter()
        times = RequestTimes()
        token = current_times.set(times)
        # No answer started: the client left first (nginx's 499, "client closed request":
        # its work was cancelled), unless the app failed, which the client sees as a 500.
        status = CLIENT_CLOSED

        async def send_observed(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = int(message["status"])
            await send(message)

        try:
            await self.app(scope, receive, send_observed)
        except Exception:
            if status == CLIENT_CLOSED:
                status = 500
            raise
        finally:
            current_times.reset(token)
            self.observer.record(scope, self._route_of(scope), status, time.perf_counter() - start, times)
