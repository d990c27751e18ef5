"""GET /api/admin/insights: what readers asked, for the book's authors (the admin token)."""

from __future__ import annotations

from datetime import date
from typing import Annotated

from fastapi import APIRouter, Depends, Query
from slowapi import Limiter
from starlette.requests import Request
from starlette.responses import Response

from bookchat.api.rate_limit import INSIGHTS_SCOPE, query_limit
from bookchat.api.responses import INSIGHTS
from bookchat.api.routes_admin import authorised
from bookchat.api.services import Services
from bookchat.config import Settings
from bookchat.history.book_sections import BookSections
from bookchat.history.insight_records import Window
from bookchat.history.insight_rows import InsightsReport
from bookchat.history.insights_report import build_report

Since = Annotated[
    date | None, Query(description="First UTC day (YYYY-MM-DD); default: 29 days before `until`.")
]
Until = Annotated[date | None, Query(description="Last UTC day, included; default: today.")]
Version = Annotated[
    str | None,
    Query(min_length=1, max_length=100, description="Only questions asked on this docs version."),
]
Locale = Annotated[
    str | None,
    Query(min_length=1, max_length=50, description="Only questions asked in this site locale."),
]


def insights_router(limiter: Limiter, settings: Settings) -> APIRouter:
    """The insights route, rate-limited per client in a bucket of its own."""
    router = APIRouter(tags=["operator"])
    limited = query_limit(limiter, settings, scope=INSIGHTS_SCOPE)

    @router.get("/api/admin/insights", response_model=InsightsReport, responses=INSIGHTS)
    @limited
    async def insights(
        request: Request,
        response: Response,
        found: Annotated[Services, Depends(authorised)],
        since: Since = None,
        until: Until = None,
        version: Version = None,
        locale: Locale = None,
    ) -> InsightsReport:
        """Questions by day, chapter and outcome, gaps, rated-down answers (bearer token)."""
        window = Window.of_days(since, until, version=version, locale=locale)
        catalog = found.catalog.current if found.catalog is not None else None
        report = await build_report(
            found.history,
            window,
            found.question_vectors,
            BookSections(found.store, catalog, version, locale, found.closest_sections),
            found.settings.book_origin,
        )
        # Readers' questions: no shared cache or browser history keeps a copy.
        response.headers["Cache-Control"] = "no-store"
        return report

    return router
