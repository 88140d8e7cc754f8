"""LlamaIndex test doubles shared by several test modules (LlamaIndex ships no scripted LLM)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

from llama_index.core.base.llms.types import CompletionResponse, CompletionResponseGen, LLMMetadata
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


def _example_module(name: str) -> ModuleType:
    """``examples/<name>.py`` imported as a module (once), as the examples import it: the tests use what the
    examples ship rather than a copy of it."""
    if name not in sys.modules:
        path = Path(__file__).resolve().parents[1] / "examples" / f"{name}.py"
        spec = importlib.util.spec_from_file_location(name, path)
        assert spec is not None and spec.loader is not None
        sys.modules[name] = module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    return sys.modules[name]


class HashLlamaEmbedding(_example_module("_minilm_embedding").MiniLMEmbedding):  # type: ignore[misc]
    """The tests' hashing embedder through the examples' LlamaIndex embedding adapter
    (``examples/_minilm_embedding.py``), so an index's cosines equal the engine's."""

    def __init__(self, inner: Any) -> None:
        super().__init__(inner)
        self.model_name = "hash-embedder"
