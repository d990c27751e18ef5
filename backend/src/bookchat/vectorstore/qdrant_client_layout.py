"""The `sentences` vector of a qdrant-client collection, and adding it to one made without it."""

from __future__ import annotations

import logging

from qdrant_client import QdrantClient, models

from bookchat.vectorstore.base import SENTENCES

logger = logging.getLogger("bookchat.vectorstore")


def sentences_params(dim: int) -> models.VectorParams:
    """One row per sentence of a chunk, read back by point id only: never searched."""
    # So no HNSW graph (m=0), half-size floats, on disk. (The local folder mode ignores all three;
    # a server honours them.)
    return models.VectorParams(
        size=dim,
        distance=models.Distance.COSINE,
        multivector_config=models.MultiVectorConfig(
            comparator=models.MultiVectorComparator.MAX_SIM
        ),
        datatype=models.Datatype.FLOAT16,
        hnsw_config=models.HnswConfigDiff(m=0),
        on_disk=True,
    )


def has_sentences(client: QdrantClient, collection: str) -> bool:
    """Whether an existing collection has the `sentences` vector (older ones do not)."""
    vectors = client.get_collection(collection).config.params.vectors
    found = isinstance(vectors, dict) and SENTENCES in vectors
    if not found:
        logger.warning(
            "The collection %s was built before sentence vectors were stored with each chunk: "
            "answers embed the sentences they need on the fly (slower) until the next "
            "`bookchat ingest` adds them.",
            collection,
        )
    return found


def add_sentences(client: QdrantClient, collection: str, dim: int) -> None:
    """Add the `sentences` vector in place (a server needs Qdrant 1.18+); points are kept."""
    params = sentences_params(dim)
    config = models.DenseVectorConfig(
        size=dim,
        distance=params.distance,
        multivector_config=params.multivector_config,
        datatype=models.VectorStorageDatatype.FLOAT16,
    )
    client.create_vector_name(collection, SENTENCES, models.DenseVectorNameConfig(dense=config))
    # Creating a vector name takes only what defines its space; the rest is set afterwards.
    diff = models.VectorParamsDiff(hnsw_config=params.hnsw_config, on_disk=params.on_disk)
    client.update_collection(collection, vectors_config={SENTENCES: diff})
    logger.warning(
        "Added the `sentences` vector to the collection %s; this ingest embeds the sentences of "
        "every chunk once (chunk vectors are kept).",
        collection,
    )
