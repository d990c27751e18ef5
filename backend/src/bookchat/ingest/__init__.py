"""Ingestion: Markdown pages → sections → chunks → vectors in the store."""
