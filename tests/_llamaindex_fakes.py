"""LlamaIndex test doubles shared by several test modules (LlamaIndex ships no scripted LLM)."""

from __future__ import annotations

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
