"""``LLMFactExtractor``: a LangChain chat model decides what of a turn is worth remembering."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage, ToolMessage

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

from ._messages import message_text

_ROLES: tuple[tuple[type[BaseMessage], str], ...] = (
    (HumanMessage, "user"),
    (AIMessage, "assistant"),
    (SystemMessage, "system"),
    (ToolMessage, "tool"),
)


def to_core_messages(messages: Sequence[BaseMessage | MessageLike]) -> list[Message]:
    """LangChain messages (and ``Message`` / ``(role, text)`` items) as :class:`memori_core.extraction.Message`."""
    out: list[Message] = []
    for message in messages:
        if isinstance(message, BaseMessage):
            role = next((r for cls, r in _ROLES if isinstance(message, cls)), message.type)
            out.append(Message(role, message_text(message)))
        else:
            out.extend(as_messages([message]))
    return out


class LLMFactExtractor:
    """Fact extraction by a LangChain chat model (any provider, or LangChain's fake models in tests).

    >>> extractor = LLMFactExtractor(ChatOpenAI(model="gpt-4o-mini", temperature=0))
    >>> agent = create_agent(model, tools, middleware=[MemoriMiddleware(engine=engine, capture=True,
    ...                                                                 extractor=extractor)])

    The model gets one human message: :func:`memori_core.extraction.build_extraction_prompt`
    (the turn, and the user's most similar stored facts under short ids) and
    answers with JSON text, read by :func:`memori_core.extraction.parse_extraction_reply`
    (fenced or bare JSON; anything unreadable gives no facts). Plain text is
    used on purpose rather than tool calling / ``with_structured_output``: it
    works with every chat model, fake ones included, and the parser is
    tolerant. Supersede ids name only the facts shown to the model; facts it
    flags ``"core"`` (allergies, medication, diet) are stored core. Model
    errors propagate (capture logs them and goes on). Use a small, cheap model
    with ``temperature=0``; it is called once per captured turn, in the background.
    """

    uses_existing_facts = True
    """Capture shows the model the user's most similar stored facts, so it can say which a new fact replaces."""

    def __init__(
        self, model: BaseChatModel, *, max_facts: int = 10, max_chars: int = DEFAULT_MAX_FACT_CHARS,
        mark_core: bool = True,
    ) -> None:
        """``max_facts`` per turn and ``max_chars`` per fact bound what a reply can store. With ``mark_core``
        the model is asked to flag allergies, medication and dietary restrictions ``"core": true`` (stored
        with ``core=True``: recalled on every turn); ``False`` neither asks nor reads the flag."""
        if not callable(getattr(model, "invoke", None)):
            raise TypeError(f"model must be a LangChain chat model, got {type(model).__name__}")
        self.model = model
        self.max_facts = check_max_facts(max_facts)
        self.max_chars = max_chars
        self.mark_core = bool(mark_core)

    def _prompt(
        self, messages: Sequence[BaseMessage | MessageLike], existing: Sequence[KnownFact]
    ) -> list[HumanMessage]:
        text = build_extraction_prompt(to_core_messages(messages), existing, max_facts=self.max_facts,
                                       core=self.mark_core)
        return [HumanMessage(content=text)]

    def _parse(self, reply: Any, existing: Sequence[KnownFact]) -> list[ExtractedFact]:
        text = message_text(reply) if isinstance(reply, BaseMessage) else str(reply)
        return parse_extraction_reply(text, existing, max_chars=self.max_chars, max_facts=self.max_facts,
                                      core=self.mark_core)

    def extract(
        self, messages: Sequence[BaseMessage | MessageLike], existing: Sequence[KnownFact] = ()
    ) -> list[ExtractedFact]:
        """Ask the model for the facts of ``messages`` (``existing``: stored facts it may supersede)."""
        existing = list(existing)
        reply = self.model.invoke(self._prompt(messages, existing), config={"run_name": "memori_fact_extraction"})
        return self._parse(reply, existing)

    async def aextract(
        self, messages: Sequence[BaseMessage | MessageLike], existing: Sequence[KnownFact] = ()
    ) -> list[ExtractedFact]:
        """Async :meth:`extract` (``model.ainvoke``)."""
        existing = list(existing)
        reply = await self.model.ainvoke(
            self._prompt(messages, existing), config={"run_name": "memori_fact_extraction"}
        )
        return self._parse(reply, existing)
