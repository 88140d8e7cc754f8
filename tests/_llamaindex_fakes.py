"""LlamaIndex test doubles shared by several test modules (LlamaIndex ships no scripted LLM)."""

from __future__ import annotations

from typing import Any

import numpy as np
from llama_index.core.base.embeddings.base import BaseEmbedding
from llama_index.core.base.llms.types import CompletionResponse, CompletionResponseGen, LLMMetadata
from llama_index.core.bridge.pydantic import PrivateAttr
from llama_index.core.llms import CustomLLM


class FixedLLM(CustomLLM):
    """A CustomLLM that answers the replies of ``script`` in order, then always ``reply``, and keeps the prompts
    it got."""

    reply: str = "[]"
    script: list[str] = []
    prompts: list[str] = []

    @property
    def metadata(self) -> LLMMetadata:
        return LLMMetadata(model_name="fixed")

    def complete(self, prompt: str, formatted: bool = False, **kwargs: Any) -> CompletionResponse:
        self.prompts = [*self.prompts, prompt]
        if self.script:
            text, self.script = self.script[0], self.script[1:]
            return CompletionResponse(text=text)
        return CompletionResponse(text=self.reply)

    def stream_complete(self, prompt: str, formatted: bool = False, **kwargs: Any) -> CompletionResponseGen:
        yield self.complete(prompt, formatted=formatted, **kwargs)


class HashLlamaEmbedding(BaseEmbedding):
    """The tests' hashing embedder through LlamaIndex's embedding interface, so an index's cosines equal the
    engine's."""

    _inner: Any = PrivateAttr()

    def __init__(self, inner: Any) -> None:
        super().__init__(model_name="hash-embedder", embed_batch_size=64)
        self._inner = inner

    def _get_query_embedding(self, query: str) -> list[float]:
        return np.asarray(self._inner.embed_query(query), dtype=float).tolist()

    def _get_text_embedding(self, text: str) -> list[float]:
        return np.asarray(self._inner.embed_documents([text])[0], dtype=float).tolist()

    async def _aget_query_embedding(self, query: str) -> list[float]:
        return self._get_query_embedding(query)
