"""A book's Markdown as bookchat reads it: answer units and page outlines, in the forms ingest
stores and query time reads back (no stage reads them from ingest at query time)."""
