"""The service's routers, one module per endpoint family."""

from service.routes import analyze, check, hint, meta, puzzles

__all__ = ["analyze", "check", "hint", "meta", "puzzles"]
