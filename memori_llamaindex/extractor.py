"""``LLMFactExtractor``: a LlamaIndex LLM decides what of a turn is worth remembering."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from llama_index.core.base.llms.types import ChatMessage, ChatResponse, MessageRole

from memori_core.extraction import (
    DEFAULT_MAX_FACT_CHARS,
    ExtractedFact,
    KnownFact,
    Message,
    MessageLike,
    as_messages,
    build_extraction_prompt,
    check_max_facts,
    parse_extraction_reply,
)

from ._common import message_text, to_core_message


def to_core_messages(messages: Sequence[ChatMessage | MessageLike]) -> list[Message]:
    """LlamaIndex chat messages (and ``Message`` / ``(role, text)`` pairs) as core extraction ``Message`` objects."""
    out: list[Message] = []
    for message in messages:
        if isinstance(message, ChatMessage):
            out.append(to_core_message(message))
        else:
            out.extend(as_messages([message]))
    return out


class LLMFactExtractor:
    """Fact extraction by a LlamaIndex LLM (any provider, or a ``CustomLLM`` / mock in tests).

    >>> block = MemoriMemoryBlock(engine=engine, entity_id="user-1", capture=True,
    ...                           extractor=LLMFactExtractor(OpenAI(model="gpt-4o-mini", temperature=0)))

    The LLM gets one user chat message: :func:`memori_core.extraction.build_extraction_prompt`
    (the turn, and the user's most similar stored facts under short ids) and
    answers with JSON text, read by :func:`memori_core.extraction.parse_extraction_reply`
    (fenced or bare JSON; anything unreadable gives no facts). Plain text is
    used rather than structured / function-calling output so that every LLM
    works, mocks included. Supersede ids name only the facts shown to the
    LLM; facts it flags ``"core"`` (allergies, medication, diet) are stored core. LLM errors
    propagate (capture logs them and goes on).
    """

    uses_existing_facts = True
    """Capture shows the LLM the user's most similar stored facts, so it can say which a new fact replaces."""

    def __init__(
        self, llm: Any, *, max_facts: int = 10, max_chars: int = DEFAULT_MAX_FACT_CHARS, mark_core: bool = True
    ) -> None:
        """``llm``: a ``llama_index.core.llms.LLM``; ``max_facts`` per turn and ``max_chars`` per fact bound a reply.
        With ``mark_core`` the LLM is asked to flag allergies, medication and dietary restrictions
        ``"core": true`` (stored with ``core=True``: recalled on every turn); ``False`` neither asks nor reads it."""
        if not callable(getattr(llm, "chat", None)):
            raise TypeError(f"llm must be a LlamaIndex LLM, got {type(llm).__name__}")
        self.llm = llm
        self.max_facts = check_max_facts(max_facts)
        self.max_chars = max_chars
        self.mark_core = bool(mark_core)

    def _prompt(
        self, messages: Sequence[ChatMessage | MessageLike], existing: Sequence[KnownFact]
    ) -> list[ChatMessage]:
        text = build_extraction_prompt(to_core_messages(messages), existing, max_facts=self.max_facts,
                                       core=self.mark_core)
        return [ChatMessage(role=MessageRole.USER, content=text)]

    def _parse(self, response: ChatResponse, existing: Sequence[KnownFact]) -> list[ExtractedFact]:
        return parse_extraction_reply(
            message_text(response.message), existing, max_chars=self.max_chars, max_facts=self.max_facts,
            core=self.mark_core,
        )

    def extract(
        self, messages: Sequence[ChatMessage | MessageLike], existing: Sequence[KnownFact] = ()
    ) -> list[ExtractedFact]:
        """Ask the LLM for the facts of ``messages`` (``existing``: stored facts it may supersede)."""
        existing = list(existing)
        return self._parse(self.llm.chat(self._prompt(messages, existing)), existing)

    async def aextract(
        self, messages: Sequence[ChatMessage | MessageLike], existing: Sequence[KnownFact] = ()
    ) -> list[ExtractedFact]:
        """Async :meth:`extract` (``llm.achat``)."""
        existing = list(existing)
        return self._parse(await self.llm.achat(self._prompt(messages, existing)), existing)
