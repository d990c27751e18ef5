"""The one table from our exceptions to HTTP status and reader-safe detail.

Details are written here, from the exceptions' typed attributes; `str(exc)` never reaches a
client, because exception texts can carry paths, hosts or library internals.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from fastapi import FastAPI
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from bookchat.answer.schema import IndexNotReady, MissingInput, UnknownChapter
from bookchat.api.admin_errors import AdminDisabled, AdminForbidden, AdminUnauthorized, BadDocsDir
from bookchat.history.errors import (
    BadWindow,
    HistoryUnavailable,
    UnknownConversation,
    UnknownMessage,
)
from bookchat.ingest.manifest import ManifestError
from bookchat.retrieval.editions import UnknownEdition
from bookchat.vectorstore import StoreUnavailable

log = logging.getLogger(__name__)

NOT_INDEXED = "The book has not been indexed yet: run bookchat ingest"
STORE_DOWN = "The search index is unavailable right now; try again shortly."
INTERNAL = "Internal server error."

# A fixed detail, or one written from the exception's typed attributes.
Detail = str | Callable[[Exception], str]


def _unknown_chapter(exc: Exception) -> str:
    key = exc.key if isinstance(exc, UnknownChapter) else ""
    return f"Unknown chapter {key[:200]!r}: GET /api/chapters lists the chapter keys."


def _unknown_edition(exc: Exception) -> str:
    if not isinstance(exc, UnknownEdition):
        return "Unknown version or locale."
    known = ", ".join(repr(k) for k in exc.known) or "none"
    return f"Unknown {exc.field} {exc.value[:100]!r}: this index holds {exc.field} {known}."


def _missing(exc: Exception) -> str:
    if not isinstance(exc, MissingInput):
        return "A required field is missing."
    return f"`{exc.field}` is required when `mode` is `{exc.mode}`."


ERRORS: dict[type[Exception], tuple[int, Detail]] = {
    IndexNotReady: (503, NOT_INDEXED),
    StoreUnavailable: (503, STORE_DOWN),
    UnknownChapter: (404, _unknown_chapter),
    # Like an unknown chapter: a well-formed value naming something the index does not hold.
    UnknownEdition: (404, _unknown_edition),
    MissingInput: (400, _missing),
    UnknownConversation: (
        404,
        "Unknown conversation: it may have been deleted; omit conversation_id to start a new one.",
    ),
    UnknownMessage: (404, "Unknown message: nothing to rate."),
    HistoryUnavailable: (503, "Conversations are unavailable right now; try again."),
    BadDocsDir: (400, "`docs_dir` is not a folder on the server."),
    BadWindow: (400, lambda exc: exc.reason if isinstance(exc, BadWindow) else "Bad period."),
    ManifestError: (
        400,
        "No usable bookchat-routes.json in the site's build: build the site with "
        "@bookchat/docusaurus-theme in its `themes` first.",
    ),
    AdminUnauthorized: (401, "Missing bearer token."),
    AdminForbidden: (403, "Invalid token."),
    AdminDisabled: (403, "The admin endpoint is disabled on this server."),
}


def error_response(exc: Exception) -> JSONResponse:
    """The response for a known exception (most specific table entry wins)."""
    for cls in type(exc).__mro__:
        if cls in ERRORS:
            status, detail = ERRORS[cls]
            headers = {"WWW-Authenticate": "Bearer"} if status == 401 else None
            text = detail if isinstance(detail, str) else detail(exc)
            return JSONResponse({"detail": text}, status_code=status, headers=headers)
    log.error("unexpected error", exc_info=exc)
    return JSONResponse({"detail": INTERNAL}, status_code=500)


def install_error_handlers(app: FastAPI) -> None:
    """Register the table's handlers and the generic last-resort 500."""

    async def handle(_request: Request, exc: Exception) -> Response:
        """Answer with the table's status and detail (or the generic 500)."""
        return error_response(exc)

    for cls in ERRORS:
        app.add_exception_handler(cls, handle)
    app.add_exception_handler(Exception, handle)
