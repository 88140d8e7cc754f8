"""Find the user's question in the keyword arguments of a provider SDK call.

Shapes read (dicts and typed SDK objects alike):

- ``messages``: OpenAI chat completions, Anthropic / Bedrock messages,
  Bedrock Converse. Content is a string or a list of parts; text parts are
  kept, images, tool results and other parts are ignored.
- ``input``: OpenAI Responses API, a string or a list of items; user items
  carry a string or ``input_text`` parts.
- ``contents`` (and ``message`` of a Google chat's ``send_message``): Google
  GenAI, a string, a ``Content`` / ``Part`` / string, or a list of them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

__all__ = ["extract_user_query", "field_of", "part_text"]

# Part types whose ``text`` is something the user wrote.
_TEXT_PART_TYPES = frozenset({"text", "input_text"})


def field_of(obj: Any, name: str) -> Any:
    """``obj[name]`` for mappings, ``obj.name`` for other objects; ``None`` when absent."""
    if isinstance(obj, Mapping):
        return obj.get(name)
    return getattr(obj, name, None)


def _is_list(value: Any) -> bool:
    return isinstance(value, Sequence) and not isinstance(value, (str, bytes, bytearray))


def part_text(part: Any) -> str | None:
    """The text of one content part, or ``None`` for a non-text part (image, tool result, thought...)."""
    if isinstance(part, str):
        return part
    kind = field_of(part, "type")
    if kind is not None and kind not in _TEXT_PART_TYPES:
        return None
    if field_of(part, "thought") is True:  # Google "thinking" parts are the model's, not the user's
        return None
    text = field_of(part, "text")
    return text if isinstance(text, str) else None


def content_text(content: Any) -> str:
    """Text of a message's content: a string, or the text parts of a list joined by newlines."""
    if isinstance(content, str):
        return content.strip()
    if _is_list(content):
        texts = [t.strip() for t in (part_text(p) for p in content) if t and t.strip()]
        return "\n".join(texts)
    return ""


def _last_user_text(items: Any, content_key: str) -> str:
    """Walk ``items`` from the end; the first item with role ``user`` and some text wins."""
    if not _is_list(items):
        return ""
    for item in reversed(items):
        if field_of(item, "role") != "user":
            continue
        text = content_text(field_of(item, content_key))
        if text:
            return text
    return ""


def _from_input(value: Any) -> str:
    if isinstance(value, str):
        return value.strip()
    return _last_user_text(value, "content")


def _is_google_content(item: Any) -> bool:
    """A ``Content`` (has ``parts`` / ``role``) as opposed to a bare part or string."""
    if isinstance(item, Mapping):
        return "parts" in item or "role" in item
    return not isinstance(item, str) and hasattr(item, "parts")


def _google_content_text(content: Any) -> str:
    """Text of a user ``Content``; ``""`` for the model's turns. A missing role means user."""
    if field_of(content, "role") not in (None, "user"):
        return ""
    return content_text(field_of(content, "parts"))


def _from_contents(value: Any) -> str:
    if isinstance(value, str):
        return value.strip()
    if not _is_list(value):
        if _is_google_content(value):
            return _google_content_text(value)
        return (part_text(value) or "").strip()
    # google-genai turns each run of consecutive bare parts / strings into one
    # user Content; group them the same way, then read the turns from the end.
    turns: list[str] = []
    run: list[Any] = []
    for item in value:
        if _is_google_content(item):
            if run:
                turns.append(content_text(run))
                run = []
            turns.append(_google_content_text(item))
        else:
            run.append(item)
    if run:
        turns.append(content_text(run))
    for text in reversed(turns):
        if text:
            return text
    return ""


def extract_user_query(kwargs: Mapping[str, Any]) -> str:
    """The text of the last user turn in a provider SDK call's keyword arguments; ``""`` if there is none.

    Looks at ``messages`` (OpenAI chat, Anthropic, Bedrock), then ``input``
    (OpenAI Responses), then ``contents`` / ``message`` (Google GenAI). A
    user turn without text (only an image, or only tool results) is skipped,
    so the question of a tool-calling loop is still found. Text parts of one
    turn are joined with newlines.

    >>> extract_user_query({"messages": [{"role": "user", "content": "What should I cook?"}]})
    'What should I cook?'
    """
    if not isinstance(kwargs, Mapping):
        raise TypeError(f"kwargs must be a mapping of the SDK call's keyword arguments, got {type(kwargs).__name__}")
    text = _last_user_text(kwargs.get("messages"), "content")
    if not text and "input" in kwargs:
        text = _from_input(kwargs["input"])
    if not text and "contents" in kwargs:
        text = _from_contents(kwargs["contents"])
    if not text and "message" in kwargs:
        text = _from_contents(kwargs["message"])
    return text
