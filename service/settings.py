"""Service settings, read from ``RUMMY_*`` environment variables (pydantic-settings).

Every limit the service enforces lives here so that an operator can tune it without
code: how many solves run at once, how many requests may wait for one, how long a
solve may take, and how big a request may be.  The defaults suit the machine the
service starts on: one solve per core, a short queue, a ten-second cap.
"""

from __future__ import annotations

import os
from typing import Literal

from pydantic import Field, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

__all__ = ["ExecutorKind", "Settings"]

ExecutorKind = Literal["process", "thread"]


def _cores() -> int:
    return os.cpu_count() or 1


class Settings(BaseSettings):
    """Limits and pool sizes of one service instance.

    ``RUMMY_WORKERS=4 RUMMY_QUEUE=8 rummy serve`` runs four solves at once and lets eight
    more requests wait; a request beyond that gets 503 with ``Retry-After``.
    """

    model_config = SettingsConfigDict(env_prefix="RUMMY_", frozen=True, extra="ignore")

    workers: int = Field(default_factory=_cores, ge=1, le=256, description="Solves that run at once.")
    queue: int | None = Field(
        default=None,
        ge=0,
        le=10_000,
        description="Requests that may wait for a free worker (default: 4 per worker); more get 503.",
    )
    executor: ExecutorKind = Field(
        default="process",
        description=(
            "process: each worker is a process (model building is Python and holds the GIL, so "
            "processes scale with cores); thread: workers are threads of the server process."
        ),
    )
    max_time_limit: float = Field(
        default=10.0, gt=0, le=3600, description="Highest time_limit (seconds) a request may ask for."
    )
    default_time_limit: float = Field(
        default=3.0, gt=0, le=3600, description="time_limit (seconds) of a request that gives none."
    )
    max_analyze_seconds: float = Field(
        default=60.0,
        gt=0,
        le=3600,
        description="Seconds an analysis (many solves) may take before the request gets a 503.",
    )
    max_advise_seconds: float = Field(
        default=10.0,
        gt=0,
        le=600,
        description="Highest budget_seconds an advice request may ask for.",
    )
    long_workers: int = Field(
        default=1,
        ge=1,
        le=256,
        description=(
            "Long jobs (advice, puzzles: seconds each) that run at once, on workers of their own "
            "so that they never take a hint's worker."
        ),
    )
    long_queue: int = Field(default=4, ge=0, le=10_000, description="Long jobs that may wait; more get 503.")
    long_wait: float = Field(
        default=10.0,
        gt=0,
        le=3600,
        description=(
            "Seconds a long job may wait for a worker: one that the jobs ahead (counted at their "
            "budgets) would keep waiting longer is refused at once with 503 and Retry-After."
        ),
    )
    long_nice: int = Field(
        default=10,
        ge=0,
        le=19,
        description=(
            "Niceness steps of the long jobs' workers below the server's own priority (at most 19): "
            "the operating system runs hints first."
        ),
    )
    bot_workers: int = Field(
        default_factory=_cores,
        ge=1,
        le=256,
        description=(
            "Workers of the games' bot turns (a search bot's turn takes up to seconds), apart from "
            "the hints' and the help's, so that a help or a hint never waits behind a bot."
        ),
    )
    bot_queue: int | None = Field(
        default=None,
        ge=0,
        le=10_000,
        description="Bot turns that may wait for a worker (default: 4 per worker); more get 503.",
    )
    bot_nice: int = Field(
        default=5,
        ge=0,
        le=19,
        description=(
            "Niceness steps of the bot turns' workers below the server's own priority (at most 19): "
            "the operating system runs hints and help first."
        ),
    )
    max_body_bytes: int = Field(
        default=64 * 1024, ge=1024, le=64 * 1024 * 1024, description="Largest request body accepted (413)."
    )
    max_import_bytes: int = Field(
        default=4 * 1024 * 1024,
        ge=1024,
        le=256 * 1024 * 1024,
        description="Largest game log POST /v1/games/import accepts (413); a long game's log is tens of kB.",
    )
    retry_after: int = Field(default=1, ge=1, le=3600, description="Retry-After seconds sent with a 503.")
    wait_grace: float = Field(
        default=30.0,
        gt=0,
        le=3600,
        description="Seconds beyond its time limit that a request waits for its job before a 503.",
    )
    worker_watchdog: float = Field(
        default=5.0,
        gt=0,
        le=600,
        description=(
            "Seconds a worker process has to take a job or answer a ping (idle workers are pinged "
            "this often); one that does not (frozen, e.g. SIGSTOP) is killed and replaced."
        ),
    )
    worker_spares: int = Field(
        default=1,
        ge=0,
        le=64,
        description=(
            "Worker processes kept started in reserve, so that a worker stopped (its client left, "
            "its job overran) or lost (frozen, dead) is replaced at once, not after a start."
        ),
    )
    worker_start_timeout: float = Field(
        default=120.0, gt=0, le=3600, description="Seconds a new worker process may take to start."
    )
    max_header_bytes: int = Field(
        default=16 * 1024,
        ge=1024,
        le=1024 * 1024,
        description="Largest request head (request line and headers) accepted, in bytes (431).",
    )
    max_headers: int = Field(
        default=100, ge=8, le=10_000, description="Most header lines a request may have (431)."
    )
    header_timeout: float = Field(
        default=10.0,
        gt=0,
        le=3600,
        description="Seconds from a request's first byte until its head is complete (408, then closed).",
    )
    body_timeout: float = Field(
        default=10.0,
        gt=0,
        le=3600,
        description="Seconds from a request's head until its body is complete (408, then closed).",
    )
    keep_alive: float = Field(
        default=5.0,
        gt=0,
        le=3600,
        description="Seconds an idle connection (new, or between requests) stays open.",
    )
    max_connections: int = Field(
        default=512,
        ge=1,
        le=1_000_000,
        description="Open connections at most; one beyond gets 503 and is closed.",
    )

    db: str | None = Field(
        default=None,
        description=(
            "Where games are kept: a SQLite file path or sqlite:///PATH, or a postgresql://USER:PASSWORD@"
            "HOST:PORT/DATABASE URL that several servers share (unset: ~/.local/share/rummy/games.sqlite3)."
        ),
    )

    @model_validator(mode="after")
    def _default_within_cap(self) -> Settings:
        if self.default_time_limit > self.max_time_limit:
            raise ValueError(
                f"default_time_limit {self.default_time_limit} exceeds max_time_limit {self.max_time_limit}"
            )
        return self

    @property
    def queue_size(self) -> int:
        """Requests that may wait beyond the running ones."""
        # Four waiting per worker: a hint takes milliseconds, so a longer queue only makes
        # the waiting longer (benchmarks.load --quick at 64 clients, 2026-11-27: p99 177 ms
        # with 8 per worker, 130 ms with 4, 108 ms with 2, about the same answers per second).
        return 4 * self.workers if self.queue is None else self.queue

    @property
    def bot_queue_size(self) -> int:
        """Bot turns that may wait beyond the running ones."""
        return 4 * self.bot_workers if self.bot_queue is None else self.bot_queue
