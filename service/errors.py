"""One error shape for every 4xx and 5xx answer, and the handlers that produce it.

Every error body is ``{"error": {"type", "message", "field", "problems"}}``:

- ``type``: a stable machine-readable kind (``notation``, ``position``, ``variant``,
  ``validation``, ``limit``, ``empty_body``, ``unreadable_body``, ``unsupported_media_type``,
  ``body_too_large``, ``request_timeout``, ``headers_too_many``, ``bad_request`` (a request
  the HTTP parser cannot read: ``service.server``), ``busy``, ``not_found``,
  ``empty_hand`` (a turn asked of a hand that has gone out), ...);
- ``message``: one line a person can act on;
- ``field``: the request field at fault (``position``, ``after``, ``time_limit``,
  ``melds.0`` ...), or null when the request as a whole is at fault;
- ``problems``: every problem found, when there are several (an impossible position
  lists each card over its count), else a list of the one message.

Domain errors from the library (``NotationError``, ``PositionError``) and the
service's own (``ServiceError``) are mapped to HTTP here and nowhere else; FastAPI's
request validation errors and Starlette's HTTP errors are reshaped to match.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from http import HTTPStatus
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field
from starlette.exceptions import HTTPException as StarletteHTTPException

from service.bodies import BODY_KEY, BodyProblem, not_an_object, unreadable
from solver.cards import NotationError
from solver.position import PositionError

__all__ = [
    "ERROR_RESPONSES",
    "Busy",
    "ErrorDetail",
    "ErrorResponse",
    "InputError",
    "ServiceError",
    "error_response",
    "install_error_handlers",
]

logger = logging.getLogger("service")


class ErrorDetail(BaseModel):
    """What went wrong, in a form a program can branch on and a person can read.

    Every field is always sent (``field`` may be null), and nothing else: the error shape
    is part of the contract like the answers."""

    model_config = ConfigDict(extra="forbid")

    type: str = Field(description="Kind of error: notation, position, variant, validation, limit, busy, ...")
    message: str = Field(description="One line naming the problem.")
    field: str | None = Field(
        description="The request field at fault (dotted path), or null for the whole request."
    )
    problems: list[str] = Field(description="Every problem found (at least the one of the message).")


class ErrorResponse(BaseModel):
    """The body of every error answer."""

    error: ErrorDetail

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [
                {
                    "error": {
                        "type": "notation",
                        "message": "bad card 'Xh': unknown rank 'X' (table meld 1)",
                        "field": "position",
                        "problems": ["bad card 'Xh': unknown rank 'X' (table meld 1)"],
                    }
                }
            ]
        },
    )


class ServiceError(Exception):
    """A request the service refuses, with the HTTP status and error body to answer."""

    status: int = 422
    kind: str = "invalid"

    def __init__(
        self,
        message: str,
        *,
        field: str | None = None,
        problems: Sequence[str] | None = None,
        kind: str | None = None,
        status: int | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.field = field
        self.problems = list(problems) if problems else [message]
        self.kind = kind or self.kind
        self.status = status or self.status
        self.headers = dict(headers or {})


class InputError(ServiceError):
    """Well-formed JSON whose content the rules or the limits reject (422)."""


class Busy(ServiceError):
    """Every worker is busy and the queue is full: come back after ``Retry-After`` seconds (503)."""

    status = 503
    kind = "busy"

    def __init__(self, message: str, *, retry_after: int) -> None:
        super().__init__(message, headers={"Retry-After": str(retry_after)})


MAX_PROBLEMS = 50
"""The most problems an error body lists (the last one counting the rest)."""


def error_response(
    status: int,
    kind: str,
    message: str,
    *,
    field: str | None = None,
    problems: Sequence[str] | None = None,
    headers: Mapping[str, str] | None = None,
) -> JSONResponse:
    """A JSON error answer in the one shape; past ``MAX_PROBLEMS`` problems the rest are
    counted in a last one (6,000 unknown keys in a 64 KB body made a 239 KB answer)."""
    listed = list(problems or [message])
    if len(listed) > MAX_PROBLEMS:
        more = len(listed) - (MAX_PROBLEMS - 1)
        listed = [*listed[: MAX_PROBLEMS - 1], f"and {more:,} more problems of the same request"]
    detail = ErrorDetail(type=kind, message=message, field=field, problems=listed)
    return JSONResponse(
        status_code=status,
        content=ErrorResponse(error=detail).model_dump(),
        headers=dict(headers or {}),
    )


def _service_error(_: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, ServiceError)
    return error_response(
        exc.status, exc.kind, exc.message, field=exc.field, problems=exc.problems, headers=exc.headers
    )


def _notation_error(_: Request, exc: Exception) -> JSONResponse:
    return error_response(422, "notation", str(exc))


def _position_error(_: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, PositionError)
    return error_response(422, "position", f"impossible position: {exc}", problems=exc.problems)


def _location(loc: Sequence[Any]) -> str | None:
    """``("body", "melds", 0)`` -> ``"melds.0"``; the body as a whole -> None."""
    parts = [str(part) for part in loc]
    if parts and parts[0] in ("body", "query", "path", "header", "cookie"):
        parts = parts[1:]
    return ".".join(parts) or None


def _validation_message(error: Mapping[str, Any]) -> str:
    message = str(error.get("msg", "invalid value"))
    message = message.removeprefix("Value error, ")
    if error.get("type") == "json_invalid":
        reason = (error.get("ctx") or {}).get("error")
        message = f"malformed JSON: {reason}" if reason else "malformed JSON"
    field = _location(error.get("loc", ()))
    return f"{field}: {message}" if field and error.get("type") != "json_invalid" else message


_WHOLE_BODY_TYPES = frozenset({"missing", "model_attributes_type", "dict_type", "model_type"})
"""Validation error types that, at the location ``("body",)``, mean the body is no JSON object."""


def _body_problem(problem: BodyProblem) -> JSONResponse:
    return error_response(problem.status, problem.kind, problem.message, field="body")


def _validation_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    errors = list(exc.errors())
    for error in errors:
        if tuple(error.get("loc", ())) == ("body",) and error.get("type") in _WHOLE_BODY_TYPES:
            body = request.scope.get(BODY_KEY)
            return _body_problem(not_an_object(request.headers, body, error.get("input"), request.url.path))
    problems = [_validation_message(error) for error in errors] or ["invalid request"]
    first = errors[0] if errors else {}
    kind = "malformed_json" if first.get("type") == "json_invalid" else "validation"
    field = None if kind == "malformed_json" else _location(first.get("loc", ()))
    return error_response(422, kind, problems[0], field=field, problems=problems)


def _http_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, StarletteHTTPException)
    if exc.status_code == 400:  # FastAPI could not parse the body: say why
        return _body_problem(unreadable(request.headers, request.scope.get(BODY_KEY)))
    try:
        phrase = HTTPStatus(exc.status_code).phrase
    except ValueError:
        phrase = "error"
    detail = exc.detail if isinstance(exc.detail, str) else phrase
    kind = phrase.lower().replace(" ", "_").replace("-", "_")
    return error_response(exc.status_code, kind, detail, headers=exc.headers)


def _unexpected(request: Request, exc: Exception) -> JSONResponse:
    logger.exception("unexpected error on %s %s", request.method, request.url.path, exc_info=exc)
    return error_response(500, "internal", "internal error: the service failed on this request")


def install_error_handlers(app: FastAPI) -> None:
    """Register the handlers that give every error the one shape."""
    app.add_exception_handler(ServiceError, _service_error)
    app.add_exception_handler(NotationError, _notation_error)
    app.add_exception_handler(PositionError, _position_error)
    app.add_exception_handler(RequestValidationError, _validation_error)
    app.add_exception_handler(StarletteHTTPException, _http_error)
    app.add_exception_handler(Exception, _unexpected)


def _documented(description: str) -> dict[str, Any]:
    return {"model": ErrorResponse, "description": description}


ERROR_RESPONSES: dict[int | str, dict[str, Any]] = {
    400: _documented("The body could not be read as JSON: not UTF-8, or nested too deeply."),
    413: _documented("The request body is larger than the server's limit (RUMMY_MAX_BODY_BYTES)."),
    408: _documented("The request body did not arrive within RUMMY_BODY_TIMEOUT seconds."),
    415: _documented("The body is not sent as plain JSON (content-type application/json, uncompressed)."),
    431: _documented("The request has more header lines than RUMMY_MAX_HEADERS."),
    422: _documented(
        "Bad input: malformed notation, an impossible position, an unknown variant, "
        "a time limit out of range, or a field of the wrong type. `field` names the culprit."
    ),
    503: _documented(
        "Every solver worker is busy and the queue is full; retry after the `Retry-After` header's seconds."
    ),
}
"""Error answers documented on every solving endpoint."""
