"""Where the turns of a conversation begin and end, for capture.

A turn is a run of the user's messages, with the assistant message right before it (the question a short reply
answers: "Rex" after "What's your dog called?"). A provider-SDK app's ``messages`` hold the whole conversation, so
capture after each call reads only its newest turn (:func:`newest_turn`); a list of several turns given to
:func:`~memori_core.capture.capture_facts` at once (an imported chat) is captured turn by turn, in order
(:func:`turn_spans`), so "I just moved to Porto." ends the "I live in Lisbon." of an earlier turn. A user-role
message holding only tool results (an Anthropic tool loop's) reads as the tool's
(:func:`~memori_core.extraction.as_messages`), so a tool loop stays in the turn of the question that began it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from ..extraction.types import USER_ROLES, Message, as_messages

__all__ = ["newest_turn", "turn_spans"]

T = TypeVar("T")


def turn_spans(messages: Sequence[Message]) -> list[tuple[int, int]]:
    """The ``(start, end)`` slices of ``messages`` that are turns, in order: each run of user messages with the
    assistant message right before it; the last turn runs to the end of the list (a reply after it goes with it,
    as a single turn given to capture always has). Empty when no message is the user's.

    >>> roles = ["system", "user", "assistant", "user", "user", "assistant"]
    >>> turn_spans([Message(r, "hi") for r in roles])
    [(1, 2), (2, 6)]
    """
    starts: list[int] = []
    for i, message in enumerate(messages):
        if message.role in USER_ROLES and (i == 0 or messages[i - 1].role not in USER_ROLES):
            before = i - 1 if i > 0 and messages[i - 1].role == "assistant" else i
            starts.append(before)
    if not starts:
        return []
    return [(start, _run_end(messages, start) if k + 1 < len(starts) else len(messages))
            for k, start in enumerate(starts)]


def _run_end(messages: Sequence[Message], start: int) -> int:
    """The end of the run of user messages of the turn starting at ``start``."""
    i = start + (1 if messages[start].role not in USER_ROLES else 0)
    while i < len(messages) and messages[i].role in USER_ROLES:
        i += 1
    return i


def newest_turn(messages: Sequence[T]) -> list[T]:
    """The newest turn of a conversation, as the items of ``messages`` it is made of (dicts, ``(role, text)``
    pairs or :class:`~memori_core.extraction.Message` objects, as given): what to capture after each model call
    of an app that sends the whole conversation each time. ``[]`` when no message is the user's.

    >>> newest_turn([("user", "I live in Lisbon."), ("assistant", "Nice!"), ("user", "I just moved to Porto.")])
    [('assistant', 'Nice!'), ('user', 'I just moved to Porto.')]
    """
    if isinstance(messages, str):  # one text: the user's message (a Responses API ``input`` string)
        return [messages] if messages.strip() else []  # type: ignore[list-item]
    spans = turn_spans(as_messages(messages))
    if not spans:
        return []
    start, end = spans[-1]
    return list(messages[start:end])
