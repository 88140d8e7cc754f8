"""``LLMFactExtractor``: a LlamaIndex LLM decides what of a turn is worth remembering."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from llama_index.core.base.llms.types import ChatMessage, MessageRole

from memori_core.extraction import DEFAULT_MAX_FACT_CHARS, Message, PromptedFactExtractor

from ._common import message_said_at, message_text, to_core_message

__all__ = ["LLMFactExtractor"]


class LLMFactExtractor(PromptedFactExtractor[ChatMessage]):
    """Fact extraction by a LlamaIndex LLM (any provider, or a ``CustomLLM`` / mock in tests).

    >>> block = MemoriMemoryBlock(engine=engine, entity_id="user-1", capture=True,
    ...                           extractor=LLMFactExtractor(OpenAI(model="gpt-4o-mini", temperature=0)))

    The LLM gets one user chat message, the prompt of
    :class:`memori_core.extraction.PromptedFactExtractor` (which documents the
    reply it reads, supersedes and ``"core"``); ``extract`` also takes
    LlamaIndex chat messages. LLM errors propagate (capture logs them and goes on).
    """

    def __init__(
        self, llm: Any, *, max_facts: int = 10, max_chars: int = DEFAULT_MAX_FACT_CHARS, mark_core: bool = True
    ) -> None:
        """``llm``: a ``llama_index.core.llms.LLM`` (``chat`` / ``achat``); ``max_facts`` per turn and ``max_chars``
        per fact bound a reply. With ``mark_core`` the LLM is asked to flag allergies, medication, conditions and dietary
        restrictions ``"core": true`` (stored with ``core=True``: recalled on every turn); ``False`` neither
        asks nor reads it."""
        if not callable(getattr(llm, "chat", None)):
            raise TypeError(f"llm must be a LlamaIndex LLM, got {type(llm).__name__}")
        super().__init__(max_facts=max_facts, max_chars=max_chars, mark_core=mark_core)
        self.llm = llm

    def framework_message(self, message: object) -> Message | None:
        """A LlamaIndex chat message as a core ``Message`` (its text parts, and when it was said from its
        ``additional_kwargs["created_at"]``; ``None`` for anything else)."""
        if not isinstance(message, ChatMessage):
            return None
        return replace(to_core_message(message), created_at=message_said_at(message))

    def ask(self, prompt: str) -> str:
        """``llm.chat`` with the prompt as one user message; the reply's text."""
        return message_text(self.llm.chat([ChatMessage(role=MessageRole.USER, content=prompt)]).message)

    async def aask(self, prompt: str) -> str:
        """``llm.achat`` with the prompt as one user message; the reply's text."""
        return message_text((await self.llm.achat([ChatMessage(role=MessageRole.USER, content=prompt)])).message)
