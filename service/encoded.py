"""``EncodedJSON``: an answer a job has encoded already, sent as it is.

A solving endpoint's job (``service.jobs``) builds the endpoint's response model on the
worker and returns its JSON bytes: a few kilobytes cross the process boundary instead of
a pickled tree of dicts, and the server process neither validates nor encodes the
answer.  The route still declares ``response_model=...`` so that the OpenAPI document
states the body; returning a ``Response`` makes FastAPI send it untouched.
"""

from __future__ import annotations

from fastapi import Response

__all__ = ["EncodedJSON"]


class EncodedJSON(Response):
    """A JSON body already encoded (``application/json``, no charset: JSON is UTF-8)."""

    media_type = "application/json"
