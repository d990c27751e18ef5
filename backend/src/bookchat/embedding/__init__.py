"""Embedding: the MiniLM model and the dense vectors that ingest and retrieval both compute."""
