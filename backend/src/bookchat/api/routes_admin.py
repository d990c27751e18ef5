"""POST /api/admin/ingest: lets `bookchat ingest` run while the server holds the store."""

from __future__ import annotations

import asyncio
import secrets
from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Header

from bookchat.api.admin_errors import AdminDisabled, AdminForbidden, AdminUnauthorized, BadDocsDir
from bookchat.api.dependencies import services
from bookchat.api.models import IngestRequest
from bookchat.api.services import Services
from bookchat.ingest.run import run_ingest
from bookchat.vectorstore import StoreUnavailable

router = APIRouter(tags=["operator"])


def _authorise(found: Services, authorization: str | None) -> None:
    if found.admin_token is None:
        raise AdminDisabled
    scheme, _, token = (authorization or "").partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise AdminUnauthorized
    if not secrets.compare_digest(token.strip().encode(), found.admin_token.encode()):
        raise AdminForbidden


@router.post("/api/admin/ingest")
async def admin_ingest(
    body: IngestRequest,
    found: Annotated[Services, Depends(services)],
    authorization: Annotated[str | None, Header()] = None,
) -> dict[str, Any]:
    """Run an ingest in this process (bearer token from <data>/server.json); returns its report."""
    _authorise(found, authorization)
    docs = Path(body.docs_dir)
    if not await asyncio.to_thread(docs.is_dir):
        raise BadDocsDir
    store, catalog = found.store, found.catalog
    if store is None or catalog is None:
        raise StoreUnavailable("store not open")
    async with found.ingest_lock:
        report = await asyncio.to_thread(
            run_ingest,
            found.settings,
            store,
            lambda: found.embedder,
            docs,
            dry_run=body.dry_run,
            full=body.full,
        )
        # Queries must see the new index at once, not at the next periodic refresh.
        await asyncio.to_thread(catalog.refresh)
    if not body.dry_run:
        found.start_warming()
    return report.to_json()
