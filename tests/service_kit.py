"""What the service's tests share: waiting for a condition, and reading an error answer.

Each test file used to carry its own copy of these (with small differences: a poll
interval, how much of the error shape was checked); one place now says how the service's
error shape is checked, the strictest way.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

__all__ = ["ERROR_KEYS", "error_of", "wait_for"]

ERROR_KEYS = {"type", "message", "field", "problems"}
"""The keys of every error object the service answers with."""


def wait_for(condition: Callable[[], bool], seconds: float = 10.0) -> float:
    """Wait until ``condition`` holds (a failed assertion after ``seconds``); the seconds it took."""
    start = time.monotonic()
    while not condition():
        assert time.monotonic() - start < seconds, "condition not reached in time"
        time.sleep(0.005)
    return time.monotonic() - start


def error_of(answer: Any, status: int) -> dict[str, Any]:
    """The error object of an answer, after checking its status and the one error shape
    (a JSON body ``{"error": {type, message, field, problems}}``)."""
    assert answer.status_code == status, answer.text
    assert answer.headers["content-type"] == "application/json"
    body = answer.json()
    assert set(body) == {"error"} and set(body["error"]) == ERROR_KEYS, body
    error: dict[str, Any] = body["error"]
    assert isinstance(error["message"], str) and error["message"]
    assert error["problems"] and all(isinstance(p, str) and p for p in error["problems"])
    return error
