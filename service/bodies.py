"""What is really wrong with a request body that is not a readable JSON object.

FastAPI reports every such body in its own terms ("Input should be a valid dictionary",
"Field required", "There was an error parsing the body"), which name the symptom, not
the cause.  These functions look at the request itself (its content type and
encoding, and the body as ``service.limits`` read it) and name the cause: a content
type that is not JSON, a compressed body, bytes that are not UTF-8, nesting too deep
for the parser, an empty body, or JSON that is not an object.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from email.message import Message
from typing import Any

__all__ = [
    "BODY_KEY",
    "BodyProblem",
    "compressed_body",
    "duplicate_key",
    "not_an_object",
    "not_utf8_json",
    "unreadable",
]

BODY_KEY = "rummy.body"
"""Scope key of the request's body, as ``service.limits`` read it."""

_EXAMPLE = '{"position": "Kh Kd Kc | Qh Qd Qc | Jh Jd Jc / Ac"}'
_GZIP_MAGIC = b"\x1f\x8b"


@dataclass(frozen=True)
class BodyProblem:
    """An error answer for the body: status, type and one line."""

    status: int
    kind: str
    message: str


def _is_json(content_type: str | None) -> bool:
    if not content_type:
        return False
    message = Message()
    message["content-type"] = content_type
    if message.get_content_maintype() != "application":
        return False
    subtype = message.get_content_subtype()
    return subtype == "json" or subtype.endswith("+json")


def _encoding(headers: Mapping[str, str]) -> str | None:
    encoding = headers.get("content-encoding", "").strip().lower()
    return encoding if encoding and encoding != "identity" else None


def _media_type(headers: Mapping[str, str]) -> BodyProblem | None:
    """A 415 when the body is not declared as plain JSON."""
    content_type = headers.get("content-type")
    if not _is_json(content_type):
        got = f"content-type {content_type!r}" if content_type else "no content-type"
        return BodyProblem(
            415,
            "unsupported_media_type",
            f"the body must be JSON sent with 'content-type: application/json'; this request has {got}",
        )
    return _compressed(headers)


def _compressed(headers: Mapping[str, str]) -> BodyProblem | None:
    """A 415 when the body is declared compressed (``content-encoding`` other than identity)."""
    encoding = _encoding(headers)
    if encoding is None:
        return None
    return BodyProblem(
        415,
        "unsupported_media_type",
        f"content-encoding {encoding!r} is not supported: send the JSON body uncompressed",
    )


class _DuplicateKey(Exception):
    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def _refuse_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    found: dict[str, Any] = {}
    for key, value in pairs:
        if key in found:
            raise _DuplicateKey(key)
        found[key] = value
    return found


def duplicate_key(headers: Mapping[str, str], body: bytes) -> BodyProblem | None:
    """A 422 for a JSON body whose object names a key twice, else None.  JSON parsers keep
    the last value (``{"position": "/ Ac", "position": "/ Kc"}`` was answered for ``/ Kc``),
    so the service would answer a question the client may not have meant to ask; a body
    that does not parse is left to the parser's own error."""
    if not body or not _is_json(headers.get("content-type")):
        return None
    try:
        json.loads(body, object_pairs_hook=_refuse_duplicates)
    except _DuplicateKey as duplicate:
        return BodyProblem(422, "validation", f"the body names the key {duplicate.key!r} twice: give it once")
    except (ValueError, RecursionError):
        return None
    return None


def compressed_body(headers: Mapping[str, str], body: bytes, *, send: str = "it plain") -> BodyProblem | None:
    """A 415 for a body declared compressed (``content-encoding`` other than identity) or
    sent gzip-compressed without saying so, whatever its content type (the game import
    read a plain body that said "br" as it came, and called a gzip body not UTF-8); the
    message ends by asking to ``send`` the body so."""
    encoding = _encoding(headers)
    if encoding is None and not body.startswith(_GZIP_MAGIC):
        return None
    named = f"content-encoding {encoding!r}" if encoding else "gzip-compressed data"
    return BodyProblem(
        415, "unsupported_media_type", f"the body is {named}, which is not supported: send {send}"
    )


def _json_kind(value: Any) -> str:
    if isinstance(value, list):
        return "an array"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, int | float):
        return "a number"
    if value is None:
        return "null"
    return type(value).__name__


def _not_utf8(body: bytes) -> BodyProblem | None:
    """A 400 naming the first byte of ``body`` that is not UTF-8, else None."""
    try:
        body.decode("utf-8")
    except UnicodeDecodeError as error:
        byte = body[error.start]
        return BodyProblem(
            400,
            "unreadable_body",
            f"the body is not valid UTF-8: byte 0x{byte:02x} at offset {error.start}; JSON must be UTF-8",
        )
    return None


def not_utf8_json(headers: Mapping[str, str], body: bytes) -> BodyProblem | None:
    """A 415 for a JSON body declared compressed (``content-encoding`` other than identity),
    a 400 for a JSON body that is not UTF-8 text, else None.  The JSON parser would guess
    UTF-16 or UTF-32 from the NUL bytes of such text and read it; JSON sent over the wire
    must be UTF-8 (RFC 8259), and a NUL byte is never part of valid UTF-8 JSON (a string
    holds it escaped), so one names the encoding mistake."""
    if not body or not _is_json(headers.get("content-type")):
        return None
    # Declared compressed: refused whatever the bytes (a plain body that says "br" was read
    # as it came, and answered 200, where the README promises 415).
    compressed = _compressed(headers)
    if compressed is not None:
        return compressed
    if body.startswith(_GZIP_MAGIC):
        return None  # compressed without saying so: ``unreadable`` names it (415)
    bad_bytes = _not_utf8(body)
    if bad_bytes is not None:
        return bad_bytes
    nul = body.find(b"\x00")
    if nul >= 0:
        return BodyProblem(
            400,
            "unreadable_body",
            f"the body holds a NUL byte at offset {nul} (UTF-16 or UTF-32 text?); JSON must be UTF-8",
        )
    return None


_GAME_EXAMPLES = {
    "act": '{"turn": 4, "action": {"type": "draw"}}',
    "help": '{"turn": 4, "level": 1}',
    "advise": '{"turn": 4}',
}
"""Example bodies of the game endpoints, by the last part of their path (``/v1/games/{id}/act``)."""


def example_body(path: str) -> str:
    """An example of the body ``path`` takes, for an error that asks for one."""
    if path.rstrip("/") == "/v1/games":
        return '{"variant": "manipulation", "players": 2, "opponents": ["pimc"]}'
    if path.startswith("/v1/games/"):
        return _GAME_EXAMPLES.get(path.rsplit("/", 1)[-1], '{"turn": 4}')
    return _EXAMPLE


def not_an_object(headers: Mapping[str, str], body: bytes | None, value: Any, path: str = "") -> BodyProblem:
    """The body as a whole failed validation: say why it is not a JSON object (with an
    example of what ``path`` takes)."""
    example = example_body(path)
    if not body or not body.strip():
        message = f"the request body is empty: send a JSON object, e.g. {example}"
        return BodyProblem(422, "empty_body", message)
    media = _media_type(headers)
    if media is not None:
        return media
    return BodyProblem(
        422, "validation", f"the body must be a JSON object, e.g. {example}, not {_json_kind(value)}"
    )


def unreadable(headers: Mapping[str, str], body: bytes | None) -> BodyProblem:
    """The body could not be parsed as JSON at all (not a syntax error): say why."""
    compressed = compressed_body(headers, body or b"", send="plain JSON")
    if compressed is not None:
        return compressed
    if body is None:
        return BodyProblem(400, "unreadable_body", "the request body could not be read as JSON")
    bad_bytes = _not_utf8(body)
    if bad_bytes is not None:
        return bad_bytes
    try:
        json.loads(body)
    except RecursionError:
        return BodyProblem(
            400, "unreadable_body", "the JSON body is nested too deeply for this server to read"
        )
    except ValueError as error:
        if "int_max_str_digits" in str(error):  # valid JSON, but a number longer than Python reads
            most = sys.get_int_max_str_digits()
            return BodyProblem(
                400,
                "unreadable_body",
                f"a number in the body has more than {most} digits: this server reads no longer ones",
            )
        return BodyProblem(400, "unreadable_body", f"the body is not valid JSON: {error}")
    return BodyProblem(400, "unreadable_body", "the request body could not be read as JSON")
