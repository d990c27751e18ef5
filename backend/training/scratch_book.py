"""A book ingested into a scratch index, searched as the service searches it (training only)."""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from bookchat.config import Settings
from bookchat.embedding.embedder import Embedder
from bookchat.ingest.run import run_ingest
from bookchat.retrieval.search import Retriever
from bookchat.vectorstore import open_store


def add_data_option(parser: argparse.ArgumentParser) -> None:
    """`--data DIR`: the folder a script's ScratchBooks keep their indexes in (`data`)."""
    parser.add_argument(
        "--data",
        type=Path,
        help="keep the scratch indexes here, so that a re-run ingests incrementally",
    )


class ScratchBook:
    """`docs` ingested into a temporary folder, or into `data/<book>` to be kept for re-runs."""

    def __init__(self, docs: Path, embedder: Embedder, data: Path | None) -> None:
        # A kept data folder makes the next run's ingest incremental: seconds, not minutes.
        self._tmp = None if data else tempfile.TemporaryDirectory()
        folder = data / docs.parent.name if data else Path(self._tmp.name)  # type: ignore[union-attr]
        self.settings = Settings(BOOKCHAT_DATA_DIR=folder)  # type: ignore[call-arg]
        self.store = open_store(self.settings)
        report = run_ingest(self.settings, self.store, lambda: embedder, docs)
        print(f"  {docs}: {report.summary()}", file=sys.stderr)
        self.retriever = Retriever(self.store)

    def close(self) -> None:
        """Release the store and the scratch folder."""
        self.store.close()
        if self._tmp:
            self._tmp.cleanup()
