"""FastAPI hint service: schemas at the edge, routes call the library, nothing else.

``create_app()`` builds the application; ``rummy serve`` runs it with uvicorn.
"""

from service.app import create_app

__all__ = ["create_app"]
