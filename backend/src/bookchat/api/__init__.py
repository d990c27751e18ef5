"""The HTTP API (FastAPI): the only package that imports FastAPI or slowapi."""
