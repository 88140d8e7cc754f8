"""``LLMFactExtractor``: a LangChain chat model decides what of a turn is worth remembering."""

from __future__ import annotations

from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage, ToolMessage

from memori_core.extraction import DEFAULT_MAX_FACT_CHARS, Message, PromptedFactExtractor

from ._messages import message_said_at, message_text

__all__ = ["LLMFactExtractor"]

_ROLES: tuple[tuple[type[BaseMessage], str], ...] = (
    (HumanMessage, "user"),
    (AIMessage, "assistant"),
    (SystemMessage, "system"),
    (ToolMessage, "tool"),
)
_RUN = {"run_name": "memori_fact_extraction"}


def _reply_text(reply: Any) -> str:
    return message_text(reply) if isinstance(reply, BaseMessage) else str(reply)


class LLMFactExtractor(PromptedFactExtractor[BaseMessage]):
    """Fact extraction by a LangChain chat model (any provider, or LangChain's fake models in tests).

    >>> extractor = LLMFactExtractor(ChatOpenAI(model="gpt-4o-mini", temperature=0))
    >>> agent = create_agent(model, tools, middleware=[MemoriMiddleware(engine=engine, capture=True,
    ...                                                                 extractor=extractor)])

    The model gets one human message, the prompt of
    :class:`memori_core.extraction.PromptedFactExtractor` (which documents the
    reply it reads, supersedes and ``"core"``); ``extract`` also takes
    LangChain messages. Model errors propagate (capture logs them and goes
    on). Use a small, cheap model with ``temperature=0``; it is called once
    per captured turn, in the background.
    """

    def __init__(
        self, model: BaseChatModel, *, max_facts: int = 10, max_chars: int = DEFAULT_MAX_FACT_CHARS,
        mark_core: bool = True,
    ) -> None:
        """``model``: the chat model asked (``invoke`` / ``ainvoke``). ``max_facts`` per turn and ``max_chars``
        per fact bound what a reply can store. With ``mark_core`` the model is asked to flag allergies,
        medication and dietary restrictions ``"core": true`` (stored with ``core=True``: recalled on every
        turn); ``False`` neither asks nor reads the flag."""
        if not callable(getattr(model, "invoke", None)):
            raise TypeError(f"model must be a LangChain chat model, got {type(model).__name__}")
        super().__init__(max_facts=max_facts, max_chars=max_chars, mark_core=mark_core)
        self.model = model

    def framework_message(self, message: object) -> Message | None:
        """A LangChain message as a core ``Message`` (its text, and when it was said from its
        ``additional_kwargs["created_at"]`` or ``response_metadata["created_at"]``; ``None`` for anything else)."""
        if not isinstance(message, BaseMessage):
            return None
        role = next((r for cls, r in _ROLES if isinstance(message, cls)), message.type)
        return Message(role, message_text(message), message_said_at(message))

    def ask(self, prompt: str) -> str:
        """``model.invoke`` with the prompt as one human message; the reply's text."""
        return _reply_text(self.model.invoke([HumanMessage(content=prompt)], config=_RUN))

    async def aask(self, prompt: str) -> str:
        """``model.ainvoke`` with the prompt as one human message; the reply's text."""
        return _reply_text(await self.model.ainvoke([HumanMessage(content=prompt)], config=_RUN))
