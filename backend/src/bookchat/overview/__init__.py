"""Overview questions ("summarize this chapter", "what are the main topics of this book?"),
answered from the book's own structure: the outline ingest stores beside the chunks."""
