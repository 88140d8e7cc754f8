"""``MemoriContextInjector``: a Runnable that writes recalled facts into a prompt's system message."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from langchain_core.messages import BaseMessage, convert_to_messages
from langchain_core.prompt_values import ChatPromptValue
from langchain_core.runnables import RunnableConfig, RunnableSerializable
from pydantic import field_validator

from memori_core.adapter_args import named_by_class
from memori_core.placement import SYSTEM, check_placement
from memori_core.query import context_turns

from ._fields import MemoriFields
from ._messages import human_query_and_context, messages_with_block, turn_as_of, turn_zone
from ._recall import BlockRecall, entity_of_run

PromptInput = ChatPromptValue | list[BaseMessage] | dict[str, Any]


def _is_message_list(value: Any) -> bool:
    return isinstance(value, Sequence) and not isinstance(value, (str, bytes))


_PLACE = "; in a chain it goes between the prompt and the model: prompt | MemoriContextInjector(...) | model"
"""Said when the input looks like a chain's input (a dict of the prompt's variables) or a model's reply."""


def _messages_of(value: Any) -> list[BaseMessage]:
    if isinstance(value, ChatPromptValue):
        return list(value.messages)
    if isinstance(value, Mapping):
        if "messages" not in value:
            raise TypeError("MemoriContextInjector got a dict without a 'messages' key (a prompt's variables?)"
                            + _PLACE)
        if not _is_message_list(value["messages"]):
            raise TypeError("MemoriContextInjector: the dict's 'messages' must be a list of messages, "
                            f"got {type(value['messages']).__name__}")
        return convert_to_messages(value["messages"])
    if _is_message_list(value):
        return convert_to_messages(value)
    raise TypeError(
        "MemoriContextInjector takes a ChatPromptValue, a list of messages or a dict with 'messages'; "
        f"got {type(value).__name__}" + (" (a model's reply?)" + _PLACE if isinstance(value, BaseMessage) else "")
    )


def _rebuild(value: Any, messages: list[BaseMessage]) -> Any:
    if isinstance(value, ChatPromptValue):
        return ChatPromptValue(messages=messages)
    if isinstance(value, Mapping):
        return {**value, "messages": messages}
    return messages


def _with_block(value: Any, messages: list[BaseMessage], block: str, placement: str) -> Any:
    """``value`` with ``block`` in its system prompt (or its latest human message, ``placement="last_user"``),
    replacing a block an earlier turn wrote there (messages sent again as history); ``value`` itself when there
    is neither."""
    new = messages_with_block(messages, block, placement)
    return value if not block and new == messages else _rebuild(value, new)


class MemoriContextInjector(MemoriFields, RunnableSerializable[PromptInput, PromptInput]):
    """Put the user's relevant facts into the system prompt before the model sees it.

    >>> chain = prompt | MemoriContextInjector(engine=engine, entity_id="user-1") | model

    Input: a ``ChatPromptValue``, a list of messages, or a dict with
    ``"messages"``; the output has the same type. The query is the text of the
    last human message with text (an image-only turn is skipped, as on every memori surface), read with up
    to ``engine.config.context_turns`` human
    messages before it (so a follow-up recalls what an earlier turn named; AI,
    system and tool messages are not read); the ``<memori_context>`` block is appended to the first
    system message (as a new text part when its content is a list), or a new
    system message is put first. When nothing passes the relevance threshold,
    or the query is blank, the messages pass through unchanged.

    ``k``: at most this many recalled facts are injected, plus up to the engine's ``config.core_limit``
    core facts (``None``: the engine's ``config.limit``, 5 unless configured).
    The entity is ``config["configurable"]["entity_id"]`` (else its ``"user_id"``) when the run names
    one, else the runtime context of the LangGraph run the chain is part of (``entity_id``, else
    ``user_id``), else the constructor's ``entity_id``; none -> ``ValueError``
    (:func:`memori_core.adapter_args.resolve_entity_id`, as for every adapter).
    If recall fails the input passes through unchanged and a warning is logged
    (``strict=True`` raises instead). ``timeout`` (seconds; default ``None``: no limit but the store's per
    request) bounds the whole recall, as on every memori adapter: past it the input passes through unchanged
    (a user's first recall in a process over a server reads all their facts, which takes seconds for a large
    user; it runs on in the background and serves the next call).

    ``placement="last_user"`` appends the block to the latest human message instead of the system message
    (the system message when there is no human message), so the system prompt and the earlier conversation
    stay a prefix a provider's prompt cache keeps hitting on (:mod:`memori_core.placement`). Either way a
    block an earlier turn wrote into the messages is removed: the model reads one block, this turn's.
    """

    placement: str = SYSTEM
    """Where the block goes: ``"system"`` (the system message) or ``"last_user"`` (the latest human message)."""

    _check_placement = field_validator("placement", mode="before")(named_by_class(check_placement))

    def _prepare(self, value: Any, config: RunnableConfig) -> tuple[list[BaseMessage], BlockRecall]:
        owner = type(self).__name__
        messages = _messages_of(value)
        entity = entity_of_run(owner, self.entity_id, config)
        query, context = human_query_and_context(messages, context_turns(self.engine))
        return messages, BlockRecall(self.engine, query, entity, self.k, self.strict, owner, context,
                                     timeout=self.timeout, tz=turn_zone(messages), as_of=turn_as_of(messages))

    def _inject(self, value: Any, config: RunnableConfig) -> Any:
        messages, recall = self._prepare(value, config)
        return _with_block(value, messages, recall.block(), self.placement)

    async def _ainject(self, value: Any, config: RunnableConfig) -> Any:
        messages, recall = self._prepare(value, config)
        return _with_block(value, messages, await recall.ablock(), self.placement)

    def invoke(self, input: PromptInput, config: RunnableConfig | None = None, **kwargs: Any) -> PromptInput:
        """The input with the recalled facts in its system prompt."""
        return self._call_with_config(self._inject, input, config, **kwargs)

    async def ainvoke(
        self, input: PromptInput, config: RunnableConfig | None = None, **kwargs: Any
    ) -> PromptInput:
        """Async :meth:`invoke` (native: uses ``engine.arecall``)."""
        return await self._acall_with_config(self._ainject, input, config, **kwargs)
