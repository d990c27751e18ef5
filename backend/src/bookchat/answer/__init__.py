"""Extractive answers with citations, abstention and confidence."""
