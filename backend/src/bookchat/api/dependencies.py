"""Small FastAPI dependencies handing the lifespan's objects to handlers."""

from __future__ import annotations

from starlette.requests import Request

from bookchat.answer.service import AnswerService
from bookchat.api.services import Services
from bookchat.retrieval.catalog import CatalogCache
from bookchat.vectorstore import StoreUnavailable


def services(request: Request) -> Services:
    """The app's Services (set by the lifespan)."""
    found: Services = request.app.state.services
    return found


def answer_service(request: Request) -> AnswerService:
    """The answer service; StoreUnavailable when the store could not be opened."""
    answers = services(request).answers
    if answers is None:
        raise StoreUnavailable("store not open")
    return answers


def catalog_cache(request: Request) -> CatalogCache:
    """The catalog cache; StoreUnavailable when the store could not be opened."""
    catalog = services(request).catalog
    if catalog is None:
        raise StoreUnavailable("store not open")
    return catalog
