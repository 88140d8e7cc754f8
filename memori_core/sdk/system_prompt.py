"""Write a ``<memori_context>`` block where each provider SDK expects the system prompt.

:func:`inject_context` returns a new kwargs dict and never mutates the
caller's: every dict, list or typed object on the path to the changed field
is copied, everything else is shared. The block always goes *after* the
caller's own instructions (in a new text part when the instructions are a
list), so a cached prompt prefix stays a prefix. A shape it does not know
raises ``ValueError`` naming that shape: the block is never dropped silently.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..context import append_block, is_block
from ..query import field_of, part_text

__all__ = ["PROVIDERS", "append_to_content", "check_injectable", "inject_context", "normalize_provider"]

#: Provider names accepted by :func:`inject_context`.
PROVIDERS: tuple[str, ...] = ("openai", "openai-responses", "anthropic", "bedrock", "bedrock-converse", "google")

_ALIASES = {
    "openai_responses": "openai-responses",
    "responses": "openai-responses",
    "bedrock_converse": "bedrock-converse",
    "converse": "bedrock-converse",
    "gemini": "google",
    "google-genai": "google",
}


def normalize_provider(provider: str) -> str:
    """The canonical provider name (case-insensitive, a few aliases); ``ValueError`` for an unknown one."""
    if not isinstance(provider, str):
        raise TypeError(f"provider must be a str, got {type(provider).__name__}")
    name = provider.strip().lower()
    name = _ALIASES.get(name, name)
    if name not in PROVIDERS:
        raise ValueError(f"unknown provider {provider!r}; expected one of {', '.join(PROVIDERS)}")
    return name


def _kind(value: Any) -> str:
    return type(value).__name__


def _is_list(value: Any) -> bool:
    return isinstance(value, Sequence) and not isinstance(value, (str, bytes, bytearray))


def _replace(obj: Any, name: str, value: Any, what: str) -> Any:
    """A copy of ``obj`` (dict, pydantic model or dataclass) with ``name`` set to ``value``."""
    if isinstance(obj, Mapping):
        new = dict(obj)
        new[name] = value
        return new
    if callable(getattr(obj, "model_copy", None)):  # pydantic v2 (OpenAI, Anthropic, Google types)
        return obj.model_copy(update={name: value})
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return dataclasses.replace(obj, **{name: value})
    raise ValueError(f"cannot add memory context to {what} of type {_kind(obj)}: expected a dict or a pydantic model")


# -- OpenAI chat completions ------------------------------------------------

_SYSTEM_ROLES = ("system", "developer")


def without_block_parts(parts: Sequence[Any]) -> list[Any]:
    """``parts`` without the text parts that are a block an earlier turn wrote (:func:`memori_core.context.without_block`;
    an app that sends a call's messages again as its history sends that turn's facts again)."""
    return [p for p in parts if not ((text := part_text(p)) is not None and is_block(text))]


def append_to_content(content: Any, block: str, what: str = "message") -> Any:
    """Message content with ``block`` added last: after a blank line in a string, as a new text part in a list
    (starting with a blank line when a text part comes before it: a provider may join the parts as they are).
    A block an earlier turn wrote is replaced (an empty ``block`` only removes it)."""
    if content is None or isinstance(content, str):
        return append_block(content, block)
    if _is_list(content):
        parts = without_block_parts(content)
        if not block:
            return parts
        after_text = any((isinstance(p, str) and p.strip())
                         or (isinstance(p, Mapping) and p.get("type") == "text" and str(p.get("text") or "").strip())
                         for p in parts)
        return [*parts, {"type": "text", "text": f"\n\n{block}" if after_text else block}]
    raise ValueError(
        f"cannot add memory context to {what} content of type {_kind(content)}: expected a str or a list of parts"
    )


def _inject_openai(kwargs: dict[str, Any], block: str) -> dict[str, Any]:
    messages = kwargs.get("messages")
    if messages is None:
        raise ValueError(
            "provider 'openai' writes into kwargs['messages'], which is missing; "
            "for the Responses API (input / instructions) use provider='openai-responses'"
        )
    if not _is_list(messages):
        raise ValueError(f"kwargs['messages'] must be a list of messages, got {_kind(messages)}")
    messages = list(messages)
    if messages and field_of(messages[0], "role") in _SYSTEM_ROLES:
        first = messages[0]
        content = append_to_content(field_of(first, "content"), block, "the leading system message's")
        messages[0] = _replace(first, "content", content, "the leading system message")
    elif block:
        messages.insert(0, {"role": "system", "content": block})
    kwargs["messages"] = messages
    return kwargs


# -- OpenAI Responses --------------------------------------------------------


def _inject_openai_responses(kwargs: dict[str, Any], block: str) -> dict[str, Any]:
    instructions = kwargs.get("instructions")
    if instructions is not None and not isinstance(instructions, str):
        raise ValueError(f"kwargs['instructions'] must be a str or absent, got {_kind(instructions)}")
    if instructions is not None or block:
        kwargs["instructions"] = append_block(instructions, block)
    return kwargs


# -- Anthropic / Bedrock -----------------------------------------------------


def _is_converse_block_list(blocks: Sequence[Any]) -> bool:
    """Bedrock Converse system blocks are ``{"text": ...}`` without a ``type`` key."""
    return bool(blocks) and all(isinstance(b, Mapping) and "type" not in b for b in blocks)


def _inject_system(kwargs: dict[str, Any], block: str, *, converse: bool) -> dict[str, Any]:
    system = kwargs.get("system")
    if system is None or system == "":
        if block:
            kwargs["system"] = [{"text": block}] if converse else block
    elif isinstance(system, str):
        kwargs["system"] = append_block(system, block)
    elif _is_list(system):
        new_block = {"text": block} if converse or _is_converse_block_list(system) else {"type": "text", "text": block}
        kept = without_block_parts(system)
        kwargs["system"] = [*kept, new_block] if block else kept
    else:
        raise ValueError(f"kwargs['system'] must be a str, a list of content blocks or absent, got {_kind(system)}")
    return kwargs


# -- Google GenAI --------------------------------------------------------------


def _google_text_part(like: Any, block: str) -> Any:
    """A text part of the same flavour as ``like`` (dict, typed Part or plain string)."""
    if isinstance(like, Mapping):
        return {"text": block}
    fields = getattr(type(like), "model_fields", None)
    if isinstance(fields, Mapping) and "text" in fields:
        return type(like)(text=block)
    return block


def _google_typed_part(content: Any, block: str) -> Any:
    """A typed text part for a typed ``Content`` that has no parts to copy the type from."""
    try:
        from google.genai import types
    except ImportError:  # pragma: no cover - a typed Content without google-genai installed
        raise ValueError(f"cannot build a text part for {_kind(content)} without google-genai installed") from None
    return types.Part(text=block)


def _google_append(instruction: Any, block: str, where: str) -> Any:
    """A new system instruction: ``instruction`` followed by ``block``."""
    if instruction is None or instruction == "":
        return block or instruction
    if isinstance(instruction, str):
        return append_block(instruction, block)
    if _is_list(instruction):
        like = instruction[-1] if instruction else None
        kept = without_block_parts(instruction)
        return [*kept, _google_text_part(like, block)] if block else kept
    if isinstance(instruction, Mapping):
        if "parts" in instruction or "role" in instruction:  # a Content dict
            parts = instruction.get("parts") or []
            if not _is_list(parts):
                raise ValueError(f"{where}['parts'] must be a list, got {_kind(parts)}")
            like = parts[-1] if parts else {}
            kept = without_block_parts(parts)
            return {**instruction, "parts": [*kept, _google_text_part(like, block)] if block else kept}
        return [instruction, {"text": block}] if block else instruction  # a single Part dict
    if hasattr(instruction, "parts"):  # a typed Content
        parts = list(getattr(instruction, "parts", None) or [])
        new_part = _google_text_part(parts[-1], block) if parts else _google_typed_part(instruction, block)
        kept = without_block_parts(parts)
        return _replace(instruction, "parts", [*kept, new_part] if block else kept, where)
    if hasattr(instruction, "text"):  # a typed Part
        return [instruction, _google_text_part(instruction, block)] if block else instruction
    raise ValueError(
        f"{where} must be a str, a list of parts, a Content (dict or object) or a Part, got {_kind(instruction)}"
    )


def _inject_google(kwargs: dict[str, Any], block: str) -> dict[str, Any]:
    if "system_instruction" in kwargs:
        kwargs["system_instruction"] = _google_append(
            kwargs["system_instruction"], block, "kwargs['system_instruction']"
        )
        return kwargs
    config = kwargs.get("config")
    if config is None:
        if "request" in kwargs:
            raise ValueError(
                "provider 'google' does not rewrite proto request objects (kwargs['request']); "
                "pass contents and config instead"
            )
        if block:
            kwargs["config"] = {"system_instruction": block}
    elif isinstance(config, Mapping):
        where = "kwargs['config']['system_instruction']"
        kwargs["config"] = {
            **config,
            "system_instruction": _google_append(config.get("system_instruction"), block, where),
        }
    elif hasattr(config, "system_instruction"):
        where = "kwargs['config'].system_instruction"
        new = _google_append(config.system_instruction, block, where)
        kwargs["config"] = _replace(config, "system_instruction", new, "kwargs['config']")
    else:
        raise ValueError(
            f"kwargs['config'] must be a dict or a config object with a system_instruction field "
            f"(e.g. google.genai.types.GenerateContentConfig), got {_kind(config)}"
        )
    return kwargs


_INJECTORS: dict[str, Callable[[dict[str, Any], str], dict[str, Any]]] = {
    "openai": _inject_openai,
    "openai-responses": _inject_openai_responses,
    "anthropic": lambda kw, block: _inject_system(kw, block, converse=False),
    "bedrock": lambda kw, block: _inject_system(kw, block, converse=False),
    "bedrock-converse": lambda kw, block: _inject_system(kw, block, converse=True),
    "google": _inject_google,
}


def inject_context(kwargs: Mapping[str, Any], block: str, provider: str = "openai") -> dict[str, Any]:
    """A copy of ``kwargs`` with ``block`` appended to the system prompt where ``provider`` reads it.

    ``provider`` is one of :data:`PROVIDERS`:

    - ``"openai"``: chat completions ``messages``; appended to a leading
      system / developer message (string content, or a new text part for
      list content), else a system message is inserted first.
    - ``"openai-responses"``: Responses API ``instructions``.
    - ``"anthropic"`` / ``"bedrock"``: Messages API ``system`` (a string, or a
      new text block for a list of blocks); set when absent.
    - ``"bedrock-converse"``: boto3 Converse ``system`` list of ``{"text": ...}``.
    - ``"google"``: Google GenAI ``system_instruction`` (top level when given
      there, else ``config.system_instruction`` of a dict or
      ``GenerateContentConfig``): a string, a list of parts, a ``Content``
      dict / object, or a ``Part``.

    A block an earlier turn wrote into the system prompt (an app that sends
    the messages a call was sent with again, as its history) is replaced, so
    the model never reads that turn's facts, which may have been deleted
    since; an empty ``block`` only removes it (else a plain copy). The
    caller's dicts, lists and config objects are never mutated. Raises ``ValueError`` for an unknown
    provider or a shape it cannot write into, naming the shape.
    """
    if not isinstance(kwargs, Mapping):
        raise TypeError(f"kwargs must be a mapping of the SDK call's keyword arguments, got {_kind(kwargs)}")
    if not isinstance(block, str):
        raise TypeError(f"block must be a str, got {_kind(block)}")
    name = normalize_provider(provider)
    return _INJECTORS[name](dict(kwargs), block if block.strip() else "")


_PROBE = "<memori_context>\nprobe\n</memori_context>"


def check_injectable(kwargs: Mapping[str, Any], provider: str) -> str:
    """Raise exactly as :func:`inject_context` would for these kwargs; return the canonical provider name.

    Lets a caller reject an unsupported shape before doing any recall work.
    """
    name = normalize_provider(provider)
    inject_context(kwargs, _PROBE, name)
    return name
