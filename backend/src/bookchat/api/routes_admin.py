"""POST /api/admin/ingest: lets `bookchat ingest` run while the server holds the store."""

from __future__ import annotations

import asyncio
import secrets
from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, Depends
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from bookchat.api.admin_errors import AdminDisabled, AdminForbidden, AdminUnauthorized, BadDocsDir
from bookchat.api.dependencies import services
from bookchat.api.models import IngestRequest
from bookchat.api.responses import ADMIN
from bookchat.api.services import Services
from bookchat.ingest.manifest import read_site_routes
from bookchat.ingest.run import SiteSource, run_ingest
from bookchat.vectorstore import StoreUnavailable

router = APIRouter(tags=["operator"])
# Declares the bearer scheme in the OpenAPI document; `authorised` answers for it (auto_error off,
# so a missing token gets our 401 and our detail).
bearer = HTTPBearer(
    auto_error=False, description="The token `bookchat serve` writes to <data>/server.json."
)


async def authorised(
    found: Annotated[Services, Depends(services)],
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)],
) -> Services:
    """The app's Services once the bearer token checks out; raises the Admin* errors otherwise."""
    # A dependency runs before the body is validated: a caller without the token learns nothing
    # about the endpoint beyond its 401. A missing token is 401 on every server, even one
    # without an admin token, so clients learn to authenticate first.
    if credentials is None:
        raise AdminUnauthorized
    if found.admin_token is None:
        raise AdminDisabled
    if not secrets.compare_digest(credentials.credentials.encode(), found.admin_token.encode()):
        raise AdminForbidden
    return found


@router.post("/api/admin/ingest", responses=ADMIN)
async def admin_ingest(
    body: IngestRequest, found: Annotated[Services, Depends(authorised)]
) -> dict[str, Any]:
    """Run an ingest in this process (bearer token from <data>/server.json); returns its report."""
    docs = Path(body.docs_dir)
    site = None
    if body.site_dir is not None:
        site = SiteSource(Path(body.site_dir), Path(body.build_dir) if body.build_dir else None)
        # Reads the manifests now, so a site without one gets its 400 before the lock is taken.
        await asyncio.to_thread(read_site_routes, site.site_dir, site.build_dir)
    elif not await asyncio.to_thread(docs.is_dir):
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
            None if site else docs,
            site=site,
            dry_run=body.dry_run,
            full=body.full,
        )
        # Queries must see the new index at once, not at the next periodic refresh.
        await asyncio.to_thread(catalog.refresh)
    if not body.dry_run:
        found.start_warming()
    return report.to_json()
