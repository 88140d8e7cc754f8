"""The embedding model the LlamaIndex examples index documents with, offline (an app uses its own, e.g.
``HuggingFaceEmbedding("sentence-transformers/all-MiniLM-L6-v2")`` or a hosted model)."""

from __future__ import annotations

from typing import Any

import numpy as np
from llama_index.core.base.embeddings.base import BaseEmbedding
from llama_index.core.bridge.pydantic import PrivateAttr


class MiniLMEmbedding(BaseEmbedding):
    """The engine's local MiniLM as a LlamaIndex embedding model."""

    _embedder: Any = PrivateAttr()

    def __init__(self, embedder: Any) -> None:
        super().__init__(model_name="all-MiniLM-L6-v2")
        self._embedder = embedder

    def _get_query_embedding(self, query: str) -> list[float]:
        return np.asarray(self._embedder.embed_query(query), dtype=float).tolist()

    def _get_text_embedding(self, text: str) -> list[float]:
        return np.asarray(self._embedder.embed_documents([text])[0], dtype=float).tolist()

    async def _aget_query_embedding(self, query: str) -> list[float]:
        return self._get_query_embedding(query)
