"""FastAPI hint service: schemas at the edge, routes call the library, nothing else.

``create_app()`` builds the application; ``rummy serve`` runs it with uvicorn.  The
application is imported on first use, so that a solver worker process, which imports
only ``service.workers`` when it starts, does not load the web framework.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from service.app import create_app

__all__ = ["create_app"]


def __getattr__(name: str) -> Any:
    if name == "create_app":
        from service.app import create_app

        return create_app
    raise AttributeError(f"module 'service' has no attribute {name!r}")
