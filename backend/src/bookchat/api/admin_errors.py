"""Why the admin ingest endpoint refuses a call."""

from __future__ import annotations


class AdminUnauthorized(Exception):
    """No bearer token was sent."""


class AdminForbidden(Exception):
    """The bearer token is wrong."""


class AdminDisabled(Exception):
    """This server has no admin token (it was not started by `bookchat serve`)."""


class BadDocsDir(Exception):
    """The docs folder to ingest does not exist on the server."""
