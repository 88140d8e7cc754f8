"""A provider SDK's message read as a role and a text, the way :class:`~memori_core.MemoriRecall` reads it.

The shapes: a ``{"role": ..., "content": ...}`` mapping (OpenAI chat, Anthropic, Bedrock, Bedrock Converse), the
same as the SDK's own typed object (``resp.choices[0].message``, an Anthropic ``Message``, a LlamaIndex
``ChatMessage``), either one without ``content`` when it is not the user's (``model_dump(exclude_none=True)`` of
a tool call), and a Google ``Content`` (``role`` and ``parts``; the role ``model`` is the assistant's, no role
the user's).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..query import check_message_content, content_text, field_of

__all__ = ["sdk_role_and_text"]


def _has(item: Any, key: str) -> bool:
    return key in item if isinstance(item, Mapping) else hasattr(item, key)


def sdk_role_and_text(item: Any, name: str) -> tuple[Any, str] | None:
    """``(role, text)`` of a provider SDK message (a mapping or a typed object), ``None`` when ``item`` is none.

    A user message without ``content`` (or ``parts``) raises a ``TypeError`` naming ``name`` and its keys, as
    ``MemoriRecall.apply`` does; content that is not a string, ``None`` or a list of parts, one naming its
    ``content``."""
    if isinstance(item, (str, bytes, tuple)):
        return None
    role = field_of(item, "role")
    if _has(item, "parts") and not _has(item, "content"):  # a Google Content
        role = "user" if role is None else ("assistant" if role == "model" else role)
        content = check_message_content(field_of(item, "parts") or [], f"{name}['parts']")
    elif role is None:
        return None
    elif _has(item, "content"):
        content = check_message_content(field_of(item, "content"), f"{name}['content']")
    elif isinstance(role, str) and role.strip().lower() == "user":
        keys = f" (its keys: {', '.join(map(repr, item))})" if isinstance(item, Mapping) else ""
        raise TypeError(f"{name} is a user message without 'content'{keys}")
    else:
        content = None  # an assistant's tool call dumped without its None content
    if content is None or isinstance(content, str):
        return role, content or ""
    return role, content_text(content)
