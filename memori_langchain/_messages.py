"""Message helpers: the query of a conversation, the turn to capture and its metadata, and the block written into
its system prompt."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import datetime, tzinfo
from typing import Any

from langchain_core.messages import (AIMessage, BaseMessage, ChatMessage, HumanMessage, SystemMessage,
                                     convert_to_messages)

from memori_core.capture import said_as_of, said_at_in, said_zone
from memori_core.extraction import Message
from memori_core.placement import SYSTEM, place_in_turns
from memori_core.query import DEFAULT_CONTEXT_TURNS, content_text, query_and_context
from memori_core.sdk.system_prompt import append_to_content, can_hold_block, content_has_block
from memori_core.tool_queries import is_courtesy_turn


def message_text(message: BaseMessage) -> str:
    """The text parts of a message's content, joined by newlines (images, audio, tool calls are skipped)."""
    return content_text(message.content)


_HUMAN_ROLES = frozenset({"user", "human"})
_AI_ROLES = frozenset({"assistant", "ai"})


def is_human(message: BaseMessage) -> bool:
    """A user turn: a ``HumanMessage``, or a ``ChatMessage`` whose role is ``"user"`` (or ``"human"``)."""
    return isinstance(message, HumanMessage) or (
        isinstance(message, ChatMessage) and message.role.lower() in _HUMAN_ROLES)


def is_ai(message: BaseMessage) -> bool:
    """An assistant turn: an ``AIMessage``, or a ``ChatMessage`` whose role is ``"assistant"`` (or ``"ai"``)."""
    return isinstance(message, AIMessage) or (isinstance(message, ChatMessage) and message.role.lower() in _AI_ROLES)


def last_human_message(messages: Sequence[BaseMessage]) -> BaseMessage | None:
    """The most recent human message (:func:`is_human`), or ``None``."""
    for message in reversed(messages):
        if is_human(message):
            return message
    return None


def last_human_text(messages: Sequence[BaseMessage]) -> str:
    """The text of the most recent human message ("" when there is none): the recall query."""
    message = last_human_message(messages)
    return message_text(message) if message is not None else ""


def human_query_and_context(
    messages: Sequence[BaseMessage], turns: int = DEFAULT_CONTEXT_TURNS,
    courtesy: Callable[[str], bool] = is_courtesy_turn,
) -> tuple[str, list[str]]:
    """(the recall query, its context): the text of the last human message that has text, and the text of up
    to ``turns`` human messages with text before it, oldest first (``[]`` for a single human turn).

    Only human messages (:func:`is_human`: ``ChatMessage(role="user")`` too) are read (their text parts):
    AI replies, system and tool messages are not context. A human turn without text (only an image) is
    skipped, so a photo sent after "here's the menu, what can I eat?" is answered with the memory that
    question recalls: the rule of the provider-SDK path, :func:`memori_core.query.query_and_context`. A courtesy
    turn ("thanks", "ok great") does not count against ``turns``: it pushes no question out; ``courtesy`` tells one
    (the engine's test: :func:`memori_core.tool_queries.courtesy_test`).
    """
    return query_and_context([message_text(m) for m in messages if is_human(m)], turns, courtesy)


def turn_to_capture(messages: Sequence[BaseMessage]) -> list[Message]:
    """The turn to extract facts from: the last message if it is a human one, after the assistant message
    it answers (context for a short reply like "Rex"); ``[]`` when the last message is not human."""
    if not messages or not is_human(messages[-1]):
        return []
    turn = [Message("user", message_text(messages[-1]))]
    if len(messages) > 1 and is_ai(messages[-2]) and message_text(messages[-2]).strip():
        turn.insert(0, Message("assistant", message_text(messages[-2])))
    return turn


def message_said_at(message: BaseMessage) -> datetime | None:
    """When ``message`` was said, from its own metadata: ``additional_kwargs["created_at"]``, else
    ``response_metadata["created_at"]`` (:data:`memori_core.capture.SAID_AT_KEY`; a timezone-aware datetime or an
    ISO 8601 string with a UTC offset; without one, UTC, with a ``NaiveTimeWarning``); ``None`` when neither
    holds one. An unreadable time raises ``ValueError`` (another type ``TypeError``) naming the field."""
    for field in ("additional_kwargs", "response_metadata"):
        said_at = said_at_in(getattr(message, field, None), f"the {message.type} message's {field}")
        if said_at is not None:
            return said_at
    return None


def turn_zone(messages: Sequence[BaseMessage]) -> tzinfo | None:
    """The conversation's zone: that of the time the last human message says it was said (its
    ``additional_kwargs``, else ``response_metadata``: :func:`~memori_core.capture.said_zone`), which the block
    writes its "Stated at" times in; ``None`` when it says none."""
    message = last_human_message(messages)
    if message is None:
        return None
    return said_zone(*_said_fields(message))


def turn_as_of(messages: Sequence[BaseMessage]) -> datetime | None:
    """When to read memory for the turn the last human message is (:func:`~memori_core.capture.said_as_of`: the
    time it says it was said, when that is more than a minute ago, a replayed chat; ``None``: now)."""
    message = last_human_message(messages)
    return None if message is None else said_as_of(*_said_fields(message))


def _said_fields(message: BaseMessage) -> tuple[Any, Any]:
    """The metadata a message's time is read from, in order: ``additional_kwargs``, then ``response_metadata``."""
    return getattr(message, "additional_kwargs", None), getattr(message, "response_metadata", None)


def _state_messages(state: Any) -> list[BaseMessage] | None:
    """The messages of a graph's ``state`` (a mapping's key or an attribute), or ``None`` when it holds none
    LangChain reads."""
    messages = state.get("messages") if isinstance(state, Mapping) else getattr(state, "messages", None)
    if not isinstance(messages, Sequence) or isinstance(messages, str):
        return None
    try:
        return convert_to_messages(messages)
    except (TypeError, ValueError, NotImplementedError):  # not messages LangChain reads: no zone, as without a time
        return None


def state_said_at(state: Any) -> datetime | None:
    """When the turn a graph's ``state`` is at was said: the time its last human message says (:func:`message_said_at`;
    ``None`` without one, or when it is unreadable: capture reports that)."""
    messages = _state_messages(state)
    message = last_human_message(messages) if messages else None
    if message is None:
        return None
    try:
        return message_said_at(message)
    except (TypeError, ValueError):
        return None


def state_zone(state: Any) -> tzinfo | None:
    """The zone of the turn a graph's ``state`` is at (its ``messages``, a mapping's key or an attribute:
    :func:`turn_zone`); ``None`` without a state, messages or a time."""
    messages = _state_messages(state)
    return turn_zone(messages) if messages is not None else None


def capture_metadata(source: str, message: BaseMessage, thread_id: Any) -> dict[str, Any]:
    """The metadata of the facts captured from the user ``message``: ``source``, ``role="user"``, then
    ``thread_id`` and ``message_id`` (as strings) when known; the thread id is also the capture's session."""
    metadata: dict[str, Any] = {"source": source, "role": "user"}
    if thread_id is not None:
        metadata["thread_id"] = str(thread_id)
    if message.id:
        metadata["message_id"] = str(message.id)
    return metadata


def captured_from(engine: Any, entity_id: str, metadata: Mapping[str, Any]) -> Callable[[], bool] | None:
    """Whether the store holds a fact captured from the turn whose capture ``metadata`` this is (by its
    ``message_id``, superseded facts included): asked before a turn held after an outage is captured again,
    when an attempt reached the store and may have stored it. ``None`` for a message without an id."""
    message_id = metadata.get("message_id")
    if not message_id:
        return None
    where = {"message_id": message_id}
    return lambda: bool(engine.list(entity_id, where=where, limit=1, include_invalid=True))


def system_with_block(system: SystemMessage | None, block: str) -> SystemMessage:
    """``system`` with ``block`` appended (a new text part for list content); a new message if ``None``.

    In list content the new part starts with a blank line when the message has text before it
    (:func:`~memori_core.sdk.system_prompt.append_to_content`): LangChain joins text parts without a separator
    (``message.text``), and the block must not run on from the prompt.
    The original message is not modified; its id and extra fields are kept.
    """
    if system is None:
        return SystemMessage(content=block)
    return system.model_copy(update={"content": append_to_content(system.content, block, "system message")})


def human_turns_with_block(
    messages: Sequence[BaseMessage], block: str, placement: str = SYSTEM
) -> tuple[list[BaseMessage], bool]:
    """(a copy of ``messages`` without the blocks earlier turns wrote into human messages and, with
    ``placement="last_user"``, ``block`` appended to the latest human message that is not only tool results;
    whether it was placed there): :func:`memori_core.placement.place_in_turns` over LangChain messages. When it
    was not, the block belongs in the system prompt."""

    def with_block(message: BaseMessage, text: str) -> BaseMessage:
        return message.model_copy(update={"content": append_to_content(message.content, text, "human message")})

    return place_in_turns(messages, block, placement, is_user=is_human,
                          can_hold=lambda message: can_hold_block(message.content),
                          has_block=lambda message: content_has_block(message.content), with_block=with_block)


def messages_with_block(messages: Sequence[BaseMessage], block: str, placement: str = SYSTEM) -> list[BaseMessage]:
    """A copy of ``messages`` with ``block`` in the first system message, or in a new one put first; with
    ``placement="last_user"``, appended to the latest human message instead (the system message when there is
    none). A block an earlier turn wrote into the system message or a human message (messages sent again as
    history) is replaced; an empty ``block`` only removes it."""
    out, placed = human_turns_with_block(messages, block, placement)
    if placed:
        block = ""
    for i, message in enumerate(out):
        if isinstance(message, SystemMessage):
            out[i] = system_with_block(message, block)
            return out
    return [system_with_block(None, block), *out] if block else out
