"""The logger, message text, the recall query, the turns to capture and the zone they were said in, shared by the
LlamaIndex adapters."""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from datetime import datetime, tzinfo

from llama_index.core.base.llms.types import ChatMessage, MessageRole, TextBlock
from llama_index.core.schema import NodeWithScore

from memori_core.capture import said_as_of, said_at_in, said_zone
from memori_core.extraction import Message
from memori_core.query import DEFAULT_CONTEXT_TURNS, query_and_context, recent_turns
from memori_core.tool_queries import is_courtesy_turn

logger = logging.getLogger("memori_llamaindex")


def message_text(message: ChatMessage) -> str:
    """The text parts of a chat message, joined by newlines (images, tool calls etc. are skipped)."""
    return "\n".join(b.text for b in message.blocks if isinstance(b, TextBlock) and b.text).strip()


def user_query_and_context(
    messages: Sequence[ChatMessage] | None, turns: int = DEFAULT_CONTEXT_TURNS,
    courtesy: Callable[[str], bool] = is_courtesy_turn,
) -> tuple[str, list[str]]:
    """(the recall query, its context): the text of the last user message that has text, and the text of up
    to ``turns`` user messages with text before it, oldest first (``[]`` for a single user turn).

    Only user messages are read (their text blocks): assistant, system and tool messages are not context. A
    user turn without text (only an image) is skipped, as on the provider-SDK path
    (:func:`memori_core.query.query_and_context`): a photo of a menu is answered with the memory the question
    before it recalls. A courtesy turn ("thanks", "ok great") does not count against ``turns``: it pushes no
    question out; ``courtesy`` tells one (the engine's test: :func:`memori_core.tool_queries.courtesy_test`).
    """
    texts = [message_text(m) for m in (messages or []) if m.role == MessageRole.USER]
    query, earlier = query_and_context(texts, len(texts))
    # ``Memory.aget(input=...)`` appends the input to a history that may already end with it (an agent's
    # calls after a tool result): the same turn read twice is not an earlier turn.
    while earlier and earlier[-1] == query:
        earlier.pop()
    return query, recent_turns(earlier, turns, courtesy)


def without_input_echo(messages: Sequence[ChatMessage] | None) -> list[ChatMessage]:
    """``messages`` without the copy of the latest user message that ``Memory.aget(input=...)`` appends to a history
    already holding it: an agent reads its memory so after each tool result, and that copy carries neither the
    assistant message the user answered nor the message's ``additional_kwargs`` (its time and zone). The turn
    being answered is the original one.

    A trailing user message is such a copy when it repeats the previous user message's text with no assistant
    text between them (only tool calls and tool results, or nothing): the same words said again after an answer
    are a turn of their own ("Yes." to another question).
    """
    messages = list(messages or [])
    if len(messages) < 2 or messages[-1].role != MessageRole.USER:
        return messages
    text = message_text(messages[-1])
    for earlier in reversed(messages[:-1]):
        if earlier.role == MessageRole.USER:
            return messages[:-1] if text and message_text(earlier) == text else messages
        if earlier.role == MessageRole.ASSISTANT and message_text(earlier):
            return messages
    return messages


_ROLES = {MessageRole.USER: "user", MessageRole.ASSISTANT: "assistant", MessageRole.SYSTEM: "system",
          MessageRole.TOOL: "tool"}


def to_core_message(message: ChatMessage) -> Message:
    """A LlamaIndex chat message as :class:`memori_core.extraction.Message` (its text parts only)."""
    role = _ROLES.get(message.role, str(getattr(message.role, "value", message.role)))
    return Message(role, message_text(message))


def message_said_at(message: ChatMessage) -> datetime | None:
    """When ``message`` was said: its ``additional_kwargs["created_at"]`` (:data:`memori_core.capture.SAID_AT_KEY`; a
    timezone-aware datetime or an ISO 8601 string with a UTC offset, as ``Memory``'s chat store writes a datetime
    back; without a zone, UTC, with a ``NaiveTimeWarning``), or ``None``. An unreadable time raises ``ValueError``
    (another type ``TypeError``) naming it."""
    role = str(getattr(message.role, "value", message.role))
    return said_at_in(message.additional_kwargs, f"the {role} message's additional_kwargs")


def turn_zone(messages: Sequence[ChatMessage] | None) -> tzinfo | None:
    """The conversation's zone: that of the time the last user message says it was said
    (:func:`~memori_core.capture.said_zone`), which the block writes its "Stated at" times in; ``None`` when it
    says none."""
    users = [m for m in (messages or []) if m.role == MessageRole.USER]
    return said_zone(users[-1].additional_kwargs) if users else None


def turn_as_of(messages: Sequence[ChatMessage] | None) -> datetime | None:
    """When to read memory for the last user message's turn (:func:`~memori_core.capture.said_as_of`: the time it
    says it was said, when that is more than a minute ago, a replayed chat; ``None``: now)."""
    users = [m for m in (messages or []) if m.role == MessageRole.USER]
    return said_as_of(users[-1].additional_kwargs) if users else None


def user_turns(messages: Sequence[ChatMessage]) -> list[tuple[ChatMessage, list[Message]]]:
    """Each user message with text, with the turn to extract from: the assistant message just before it
    (context for a short reply) and the user message itself."""
    out: list[tuple[ChatMessage, list[Message]]] = []
    previous: ChatMessage | None = None
    for message in messages:
        if message.role == MessageRole.USER and message_text(message):
            turn = [to_core_message(message)]
            if previous is not None and previous.role == MessageRole.ASSISTANT and message_text(previous):
                turn.insert(0, to_core_message(previous))
            out.append((message, turn))
        previous = message
    return out


def check_nodes(nodes: Sequence[object], owner: str) -> None:
    """``TypeError`` naming ``owner`` and the first item of ``nodes`` that is not a ``NodeWithScore`` (what a
    retriever returns): a caller's mistake, raised whatever ``strict`` says, as every adapter raises for one,
    where the fail-open policy would only have hidden it behind a warning."""
    for i, node in enumerate(nodes):
        if not isinstance(node, NodeWithScore):
            raise TypeError(f"{owner} takes a list of NodeWithScore (what a retriever returns), got "
                            f"{type(node).__name__} at #{i}")
