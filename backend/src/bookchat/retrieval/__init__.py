"""Retrieval: search the store with a question's vectors and words, and shape the candidates."""
