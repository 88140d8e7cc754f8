"""A provider SDK's message read as a role and a text, the way :class:`~memori_core.MemoriRecall` reads it.

The shapes: a ``{"role": ..., "content": ...}`` mapping (OpenAI chat, Anthropic, Bedrock, Bedrock Converse), the
same as the SDK's own typed object (``resp.choices[0].message``, an Anthropic ``Message``, a LlamaIndex
``ChatMessage``), either one without ``content`` when it is not the user's (``model_dump(exclude_none=True)`` of
a tool call), and a Google ``Content`` (``role`` and ``parts``; the role ``model`` is the assistant's, no role
the user's).

A user-role message that holds only tool results (Anthropic's ``tool_result`` blocks, Bedrock Converse's
``toolResult``, Google's function responses) is the tool's, not the user's: it reads as role ``tool``, so the
user's turn goes on past it to the question that started the tool loop.

An OpenAI Responses API conversation (a call's ``input`` list with the items of each ``response.output`` added)
holds items that are no one's message and carry a ``type`` but no ``role``: a tool's call or its output
(``function_call``, ``function_call_output``, ``web_search_call`` ...), the model's ``reasoning``, a reference
to a stored item. They read as the tool's too, as a chat completion's ``tool`` message does, and so does a
``{"type": "message"}`` item without a ``role`` (OpenAI requires one; whose words they are is not known, so they
are not captured as the user's). A plain string item is the user's message, as a Responses ``input`` string is.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..query import check_message_content, content_text, field_of, part_text

__all__ = ["is_tool_result", "sdk_role_and_text"]

# How each provider marks a tool's result: a part's ``type``, or the key (the attribute of a typed part) holding it.
_TOOL_RESULT_TYPES = frozenset({"tool_result", "function_call_output", "mcp_tool_result"})
_TOOL_RESULT_KEYS = ("toolResult", "function_response", "functionResponse")

# Responses API items that are not messages: those ending so (function_call, function_call_output,
# tool_search_output, web_search_call ...) and these.
_ITEM_SUFFIXES = ("_call", "_output")
_ITEM_TYPES = frozenset({"reasoning", "compaction", "item_reference", "mcp_list_tools", "mcp_approval_request",
                         "mcp_approval_response"})

NOT_A_TURN = ("tool", "")
"""How an item that is no one's turn reads: a tool's message, which capture passes over."""


def is_tool_result(part: Any) -> bool:
    """Whether a content part is a tool's result (Anthropic, Bedrock Converse, Google)."""
    if isinstance(part, str):
        return False
    if field_of(part, "type") in _TOOL_RESULT_TYPES:
        return True
    return any(field_of(part, key) is not None for key in _TOOL_RESULT_KEYS)


def _is_responses_item(item: Any) -> bool:
    """A Responses API item without a ``role``: a tool call, its output, reasoning, or a message whose role is
    missing."""
    kind = field_of(item, "type")
    if not isinstance(kind, str) or field_of(item, "role") is not None:
        return False
    return kind == "message" or kind in _ITEM_TYPES or kind.endswith(_ITEM_SUFFIXES)


def _has(item: Any, key: str) -> bool:
    return key in item if isinstance(item, Mapping) else hasattr(item, key)


def _only_tool_results(content: Any) -> bool:
    if not isinstance(content, Sequence) or isinstance(content, str) or not content:
        return False
    return all(part_text(part) is None for part in content) and any(is_tool_result(part) for part in content)


def sdk_role_and_text(item: Any, name: str) -> tuple[Any, str] | None:
    """``(role, text)`` of a provider SDK message (a mapping or a typed object), ``None`` when ``item`` is none.

    A string is the user's message (a Responses API ``input`` string); a Responses API item without a role reads
    as :data:`NOT_A_TURN`. A user message without ``content`` (or ``parts``) raises a ``TypeError`` naming ``name`` and its keys, as
    ``MemoriRecall.apply`` does; content that is not a string, ``None`` or a list of parts, one naming its
    ``content``."""
    if isinstance(item, str):
        return "user", item
    if isinstance(item, (bytes, tuple)):
        return None
    if _is_responses_item(item):
        return NOT_A_TURN
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
    if _only_tool_results(content):
        return NOT_A_TURN
    if content is None or isinstance(content, str):
        return role, content or ""
    return role, content_text(content)
