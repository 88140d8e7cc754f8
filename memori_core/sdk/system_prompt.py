"""Write a ``<memori_context>`` block where each provider SDK expects the system prompt, or into the latest
user turn (``placement="last_user"``, :mod:`memori_core.placement`).

:func:`inject_context` returns a new kwargs dict and never mutates the
caller's: every dict, list or typed object on the path to the changed field
is copied, everything else is shared. The block always goes *after* the
caller's own instructions or the user turn's own content (in a new text part
when they are a list), so a cached prompt prefix stays a prefix. A shape it
does not know raises ``ValueError`` naming that shape: the block is never
dropped silently.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..context import OPEN_TAG, append_block, is_block
from ..placement import SYSTEM, check_placement, place_in_turns
from ..query import field_of, is_google_content, part_text
from ..validate import check_str

__all__ = [
    "PROVIDERS",
    "append_to_content",
    "can_hold_block",
    "check_injectable",
    "content_has_block",
    "inject_context",
    "normalize_provider",
]

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
    check_str(provider, "provider")
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
    if callable(getattr(obj, "model_copy", None)):  # pydantic v2 (OpenAI, Anthropic, Google, LlamaIndex types)
        if name in getattr(type(obj), "model_fields", {name: None}):
            return obj.model_copy(update={name: value})
        # Not a field but a property (LlamaIndex ChatMessage.content writes its ``blocks``): model_copy(update=)
        # would store a value the property never reads, dropping the block silently, so set it on a copy.
        new = obj.model_copy()
        try:
            setattr(new, name, value)
        except (AttributeError, TypeError, ValueError) as exc:
            raise ValueError(f"cannot add memory context to {what} of type {_kind(obj)}: "
                             f"setting its {name!r} failed ({type(exc).__name__}: {exc})") from exc
        if field_of(new, name) != value:
            raise ValueError(f"cannot add memory context to {what} of type {_kind(obj)}: "
                             f"its {name!r} does not keep the value written to it")
        return new
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return dataclasses.replace(obj, **{name: value})
    raise ValueError(f"cannot add memory context to {what} of type {_kind(obj)}: expected a dict or a pydantic model")


def _system_message(messages: Sequence[Any], content: str) -> Any:
    """A new system message of the type the other messages have when that type takes ``role`` and ``content``
    (a list of LlamaIndex ``ChatMessage`` objects stays one), else an OpenAI-style dict."""
    first = messages[0] if messages else None
    if first is not None and not isinstance(first, Mapping) and callable(getattr(first, "model_copy", None)):
        try:
            message = type(first)(role="system", content=content)
        except (TypeError, ValueError):  # a type that cannot be built this way gets the plain dict
            message = None
        if message is not None and field_of(message, "role") == "system" and field_of(message, "content") == content:
            return message
    return {"role": "system", "content": content}


# -- OpenAI chat completions ------------------------------------------------

_SYSTEM_ROLES = ("system", "developer")


def without_block_parts(parts: Sequence[Any]) -> list[Any]:
    """``parts`` without the text parts that are a block an earlier turn wrote (:func:`memori_core.context.without_block`;
    an app that sends a call's messages again as its history sends that turn's facts again)."""
    return [p for p in parts if not ((text := part_text(p)) is not None and is_block(text))]


def _text_part(text: str) -> dict[str, str]:
    return {"type": "text", "text": text}


def append_to_content(
    content: Any, block: str, what: str = "message", text_part: Callable[[str], Any] = _text_part
) -> Any:
    """Message content with ``block`` added last: after a blank line in a string, as a new text part in a list
    (``text_part(text)``, ``{"type": "text", "text": ...}`` by default; starting with a blank line when a text
    part comes before it: a provider may join the parts as they are).
    A block an earlier turn wrote is replaced (an empty ``block`` only removes it)."""
    if content is None or isinstance(content, str):
        return append_block(content, block)
    if _is_list(content):
        parts = without_block_parts(content)
        if not block:
            return parts
        after_text = any((text := part_text(p)) is not None and text.strip() for p in parts)
        return [*parts, text_part(f"\n\n{block}" if after_text else block)]
    raise ValueError(
        f"cannot add memory context to {what} content of type {_kind(content)}: expected a str or a list of parts"
    )


def content_has_block(content: Any) -> bool:
    """Whether message content (a string or a list of parts) holds a ``<memori_context>`` block's tag."""
    if isinstance(content, str):
        return OPEN_TAG in content
    return _is_list(content) and any(OPEN_TAG in (part_text(p) or "") for p in content)


def can_hold_block(content: Any) -> bool:
    """Whether a user turn's content can take the block under ``placement="last_user"``: a string, or a list
    of parts holding something besides tool results (Anthropic ``tool_result`` blocks, Bedrock Converse
    ``toolResult`` parts): a question, or an image. A turn of tool results only is a tool-loop step, not
    the user's turn."""
    if isinstance(content, str):
        return True
    return _is_list(content) and any(
        not (field_of(p, "type") == "tool_result" or (isinstance(p, Mapping) and "toolResult" in p))
        for p in content)


def _in_user_turns(
    turns: Sequence[Any], block: str, placement: str, *, text_part: Callable[[str], Any], where: str,
) -> tuple[Any, bool]:
    """``place_in_turns`` over provider messages: role ``"user"``, the block in their ``content``."""

    def with_block(message: Any, text: str) -> Any:
        content = append_to_content(field_of(message, "content"), text, f"{where}'s user message", text_part)
        return _replace(message, "content", content, f"a user message of {where}")

    out, placed = place_in_turns(
        turns, block, placement,
        is_user=lambda message: field_of(message, "role") == "user",
        can_hold=lambda message: can_hold_block(field_of(message, "content")),
        has_block=lambda message: content_has_block(field_of(message, "content")),
        with_block=with_block,
    )
    return _unchanged_or(turns, out), placed


def _unchanged_or(original: Any, new: list[Any]) -> Any:
    """``original`` itself when ``new`` holds the same objects (nothing to copy), else ``new``."""
    if len(new) == len(original) and all(a is b for a, b in zip(new, original)):
        return original
    return new


def _refuse_another_providers_system(kwargs: Mapping[str, Any], provider: str) -> None:
    """``ValueError`` naming ``provider`` for kwargs that carry the other family's system prompt: a top-level
    ``system`` (Anthropic, Bedrock) for ``"openai"``, whose SDK refuses it, or a ``system`` / ``developer``
    message for ``"anthropic"`` / ``"bedrock"``, whose API refuses one. Written into as they are, the block
    would land beside the app's own system prompt instead of after it, in a request the API rejects."""
    if provider == "openai":
        if kwargs.get("system") is not None:
            raise ValueError("kwargs has a top-level 'system', the Anthropic / Bedrock shape, which provider "
                             "'openai' does not take: pass provider='anthropic' (or 'bedrock'), or put the system "
                             "prompt in a leading system message")
        return
    messages = kwargs.get("messages")
    roles = [field_of(m, "role") for m in messages] if _is_list(messages) else []
    found = next((role for role in roles if role in _SYSTEM_ROLES), None)
    if found is not None:
        raise ValueError(f"kwargs['messages'] holds a {found!r} message, the OpenAI shape, which provider "
                         f"{provider!r} does not take (its system prompt is kwargs['system']): pass "
                         "provider='openai', or move that message's text to system=...")


def _inject_openai(kwargs: dict[str, Any], block: str, placement: str = SYSTEM) -> dict[str, Any]:
    messages = kwargs.get("messages")
    if messages is None:
        raise ValueError(
            "provider 'openai' writes into kwargs['messages'], which is missing; "
            "for the Responses API (input / instructions) use provider='openai-responses'"
        )
    if not _is_list(messages):
        raise ValueError(f"kwargs['messages'] must be a list of messages, got {_kind(messages)}")
    messages, placed = _in_user_turns(messages, block, placement, text_part=_text_part, where="kwargs['messages']")
    messages = list(messages)
    if placed:
        block = ""
    if messages and field_of(messages[0], "role") in _SYSTEM_ROLES:
        first = messages[0]
        content = append_to_content(field_of(first, "content"), block, "the leading system message's")
        messages[0] = _replace(first, "content", content, "the leading system message")
    elif block:
        messages.insert(0, _system_message(messages, block))
    kwargs["messages"] = messages
    return kwargs


# -- OpenAI Responses --------------------------------------------------------


def _input_text_part(text: str) -> dict[str, str]:
    return {"type": "input_text", "text": text}


def _responses_input(kwargs: dict[str, Any], block: str, placement: str) -> bool:
    """Remove earlier blocks from ``kwargs['input']``'s user turns and, for ``last_user``, write ``block`` into
    the latest one; whether it was written there. Only a call with ``store=False`` is written into: OpenAI
    keeps the input of a stored response, and a later call naming it (``previous_response_id``) would send
    that turn's facts again, where no later turn could replace them."""
    if "input" not in kwargs:
        return False
    if kwargs.get("store") is not False:
        placement = SYSTEM
    value = kwargs["input"]
    if isinstance(value, str):
        if placement != SYSTEM and block:
            kwargs["input"] = append_block(value, block)
            return True
        if OPEN_TAG in value:
            kwargs["input"] = append_block(value, "")
        return False
    if not _is_list(value):  # not a shape the Responses API takes: the block goes to instructions
        return False
    kwargs["input"], placed = _in_user_turns(value, block, placement, text_part=_input_text_part,
                                             where="kwargs['input']")
    return placed


def _inject_openai_responses(kwargs: dict[str, Any], block: str, placement: str = SYSTEM) -> dict[str, Any]:
    instructions = kwargs.get("instructions")
    if instructions is not None and not isinstance(instructions, str):
        raise ValueError(f"kwargs['instructions'] must be a str or absent, got {_kind(instructions)}")
    if _responses_input(kwargs, block, placement):
        block = ""
    if instructions is not None or block:
        kwargs["instructions"] = append_block(instructions, block)
    return kwargs


# -- Anthropic / Bedrock -----------------------------------------------------


def _is_converse_block_list(blocks: Sequence[Any]) -> bool:
    """Bedrock Converse system blocks are ``{"text": ...}`` without a ``type`` key."""
    return bool(blocks) and all(isinstance(b, Mapping) and "type" not in b for b in blocks)


def _converse_text_part(text: str) -> dict[str, str]:
    return {"text": text}


def _inject_system(kwargs: dict[str, Any], block: str, placement: str = SYSTEM, *, converse: bool) -> dict[str, Any]:
    messages = kwargs.get("messages")
    if _is_list(messages):  # another type is refused where the question is read (memori_core.query)
        kwargs["messages"], placed = _in_user_turns(
            messages, block, placement, text_part=_converse_text_part if converse else _text_part,
            where="kwargs['messages']")
        if placed:
            block = ""
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


def _is_function_part(part: Any) -> bool:
    """A Google part that is a function call or a function's response (tool traffic, not the user's words)."""
    if isinstance(part, Mapping):
        return any(key in part for key in ("function_response", "functionResponse", "function_call", "functionCall"))
    return getattr(part, "function_response", None) is not None or getattr(part, "function_call", None) is not None


def _google_item_is_user(item: Any) -> bool:
    """A user turn of ``contents``: a ``Content`` whose role is ``user`` (or unset), or a bare part / string
    (google-genai makes each run of them one user ``Content``)."""
    return field_of(item, "role") in (None, "user") if is_google_content(item) else True


def _google_item_can_hold(item: Any) -> bool:
    if is_google_content(item):
        parts = field_of(item, "parts") or []
        return _is_list(parts) and any(not _is_function_part(p) for p in parts)
    return part_text(item) is not None and not _is_function_part(item)


def _google_item_has_block(item: Any) -> bool:
    if is_google_content(item):
        return content_has_block(field_of(item, "parts"))
    return OPEN_TAG in (part_text(item) or "")


def _google_item_with_block(item: Any, block: str) -> Any:
    """``item`` with ``block`` after its content (a new part of a ``Content``; appended to a bare text part's
    text), an earlier block removed; ``None`` for a bare part that was only a block."""
    if is_google_content(item):
        parts = field_of(item, "parts") or []
        like = parts[-1] if parts else ({} if isinstance(item, Mapping) else None)

        def text_part(text: str) -> Any:
            return _google_text_part(like, text) if like is not None else _google_typed_part(item, text)

        new = append_to_content(list(parts), block, "a Google Content's parts", text_part)
        return _replace(item, "parts", new, "a Google Content")
    text = append_block(part_text(item), block)
    if not text.strip():
        return None
    return text if isinstance(item, str) else _replace(item, "text", text, "a Google Part")


def _google_contents(kwargs: dict[str, Any], block: str, placement: str) -> bool:
    """Remove earlier blocks from ``kwargs['contents']``'s user turns and, for ``last_user``, write ``block``
    into the latest one; whether it was written there. A chat's ``send_message`` (``message``) is never
    written into: the chat keeps the message in its own history, where no later turn could replace it."""
    if "contents" not in kwargs:
        return False
    value = kwargs["contents"]
    single = not _is_list(value)
    items = [value] if single else list(value)
    out, placed = place_in_turns(items, block, placement, is_user=_google_item_is_user,
                                 can_hold=_google_item_can_hold, has_block=_google_item_has_block,
                                 with_block=_google_item_with_block)
    if single:
        kwargs["contents"] = out[0] if out else ""
    else:
        kwargs["contents"] = _unchanged_or(value, out)
    return placed


def _inject_google(kwargs: dict[str, Any], block: str, placement: str = SYSTEM) -> dict[str, Any]:
    if _google_contents(kwargs, block, placement):
        block = ""
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


_INJECTORS: dict[str, Callable[[dict[str, Any], str, str], dict[str, Any]]] = {
    "openai": _inject_openai,
    "openai-responses": _inject_openai_responses,
    "anthropic": lambda kw, block, placement: _inject_system(kw, block, placement, converse=False),
    "bedrock": lambda kw, block, placement: _inject_system(kw, block, placement, converse=False),
    "bedrock-converse": lambda kw, block, placement: _inject_system(kw, block, placement, converse=True),
    "google": _inject_google,
}


def inject_context(
    kwargs: Mapping[str, Any], block: str, provider: str = "openai", *, placement: str = SYSTEM
) -> dict[str, Any]:
    """A copy of ``kwargs`` with ``block`` appended to the system prompt where ``provider`` reads it, or, with
    ``placement="last_user"``, to the latest user turn (:mod:`memori_core.placement`).

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

    With ``placement="last_user"`` the block is appended to the content of
    the latest user turn that is not only tool results (a string gets it
    after a blank line, a list of parts a new text part: ``input_text`` for
    the Responses API, ``{"text": ...}`` for Bedrock Converse, a ``Part``
    for Google), so the system prompt and the earlier conversation stay a
    cacheable prefix. The system prompt is used instead when there is no
    such turn (a tool-loop call whose input holds only tool outputs), for a
    Google chat's ``send_message`` (the chat keeps the message in its
    history) and for a Responses call not made with ``store=False`` (OpenAI
    keeps a stored response's input, and a later ``previous_response_id``
    would send the block again): the block must never land where a later
    turn cannot replace it.

    A block an earlier turn wrote into the system prompt or a user turn (an
    app that sends the messages a call was sent with again, as its history)
    is replaced, so the model reads one block, this turn's, never an earlier
    turn's facts, which may have been deleted since; an empty ``block`` only
    removes it (else a plain copy). The caller's dicts, lists and config
    objects are never mutated. Raises ``ValueError`` for an unknown
    provider, an unknown ``placement`` or a shape it cannot write into,
    naming it.
    """
    if not isinstance(kwargs, Mapping):
        raise TypeError(f"kwargs must be a mapping of the SDK call's keyword arguments, got {_kind(kwargs)}")
    if not isinstance(block, str):
        raise TypeError(f"block must be a str, got {_kind(block)}")
    name = normalize_provider(provider)
    placement = check_placement(placement)
    if name in ("openai", "anthropic", "bedrock", "bedrock-converse"):
        _refuse_another_providers_system(kwargs, name)
    return _INJECTORS[name](dict(kwargs), block if block.strip() else "", placement)


_PROBE = "<memori_context>\nprobe\n</memori_context>"


def check_injectable(kwargs: Mapping[str, Any], provider: str, placement: str = SYSTEM) -> str:
    """Raise exactly as :func:`inject_context` would for these kwargs; return the canonical provider name.

    Lets a caller reject an unsupported shape before doing any recall work.
    """
    name = normalize_provider(provider)
    inject_context(kwargs, _PROBE, name, placement=placement)
    return name
