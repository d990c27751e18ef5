"""Retrieval: embed questions, search the store, shape the candidates."""
