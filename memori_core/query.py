"""Find the user's question in the keyword arguments of a provider SDK call.

Shapes read (dicts and typed SDK objects alike):

- ``messages``: OpenAI chat completions, Anthropic / Bedrock messages,
  Bedrock Converse. Content is a string or a list of parts; text parts are
  kept, images, tool results and other parts are ignored.
- ``input``: OpenAI Responses API, a string or a list of items; user items
  carry a string or ``input_text`` parts.
- ``contents`` (and ``message`` of a Google chat's ``send_message``): Google
  GenAI, a string, a ``Content`` / ``Part`` / string, or a list of them.

:func:`extract_query_and_context` also returns the user turns before the
question (the ``context`` of :meth:`~memori_core.RecallEngine.recall`), so a
follow-up ("What should I order there?") is recalled with the turn that named
its subject. Only user turns are read: assistant replies, system prompts and
tool messages are not context.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

__all__ = [
    "DEFAULT_CONTEXT_TURNS",
    "check_message_content",
    "context_turns",
    "extract_query_and_context",
    "extract_user_query",
    "field_of",
    "is_google_content",
    "part_text",
    "query_and_context",
    "recent_turns",
]

DEFAULT_CONTEXT_TURNS = 3
"""Earlier user turns passed as ``context`` when the engine does not say (``RecallConfig.context_turns``)."""

# Part types whose ``text`` is a message's words (a Responses API reply's are ``output_text``).
_TEXT_PART_TYPES = frozenset({"text", "input_text", "output_text"})


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


def check_message_content(content: Any, name: str = "a message's content") -> Any:
    """``content`` of a provider SDK message if it is a string, ``None`` (an assistant's tool call) or a list of
    parts; otherwise a ``TypeError`` naming ``name``. Capture (:func:`~memori_core.extraction.as_messages`) and
    :class:`~memori_core.MemoriRecall` refuse the same messages with it."""
    if content is None or isinstance(content, str) or _is_list(content):
        return content
    raise TypeError(f"{name} must be a string or a list of parts, got {type(content).__name__}")


def _checked_messages(messages: Any) -> Any:
    """``kwargs["messages"]`` checked: a list whose items each have a str ``role``, a user message a
    ``content``, and any content a string, ``None`` or a list of parts; ``TypeError`` naming the item otherwise
    (a missing ``role``, a ``text`` key instead of ``content``, an int content: an app's bug, not a turn to skip)."""
    if messages is None:
        return None
    if not _is_list(messages):
        raise TypeError(f"kwargs['messages'] must be a list of messages, got {type(messages).__name__}")
    for i, message in enumerate(messages):
        name = f"kwargs['messages'][{i}]"
        role = field_of(message, "role")
        if not isinstance(role, str):
            got = f"a {type(message).__name__} without 'role'" if role is None else f"role {role!r}"
            raise TypeError(f"{name} must be a message with a str 'role' and a 'content', got {got}"
                            f"{langchain_hint(message)}")
        has_content = "content" in message if isinstance(message, Mapping) else hasattr(message, "content")
        if role == "user" and not has_content:
            keys = f" (its keys: {', '.join(map(repr, message))})" if isinstance(message, Mapping) else ""
            raise TypeError(f"{name} is a user message without 'content'{keys}")
        check_message_content(field_of(message, "content"), f"{name}['content']")
    return messages


def langchain_hint(item: Any) -> str:
    """What to use instead, when ``item`` is a LangChain message given where a provider SDK's message belongs."""
    if not type(item).__module__.startswith("langchain"):
        return ""
    return (" (LangChain messages are read by memori_langchain: MemoriContextInjector or MemoriMiddleware recall for "
            "them, memori_capture_node captures a chain's or a graph's turns)")


def content_text(content: Any) -> str:
    """Text of a message's content: a string, or the text parts of a list joined by newlines."""
    if isinstance(content, str):
        return content.strip()
    if _is_list(content):
        texts = [t.strip() for t in (part_text(p) for p in content) if t and t.strip()]
        return "\n".join(texts)
    return ""


def context_turns(engine: Any) -> int:
    """How many earlier turns ``engine`` reads as context: its ``config.context_turns``
    (:data:`DEFAULT_CONTEXT_TURNS` for an engine without one)."""
    turns = getattr(getattr(engine, "config", None), "context_turns", DEFAULT_CONTEXT_TURNS)
    if isinstance(turns, bool) or not isinstance(turns, int):
        return DEFAULT_CONTEXT_TURNS
    return turns


def query_and_context(
    turns: Sequence[str], keep: int = DEFAULT_CONTEXT_TURNS, free: Callable[[str], bool] | None = None
) -> tuple[str, list[str]]:
    """(the last non-blank turn, up to ``keep`` non-blank turns before it, oldest first), all stripped; turns
    ``free`` tells carry nothing do not count against ``keep`` (:func:`recent_turns`).

    ``("", [])`` when no turn has text; the context is ``[]`` for a single turn or ``keep <= 0``.

    >>> query_and_context(["I'm going to a seafood restaurant.", " ", "What should I order there?"])
    ('What should I order there?', ["I'm going to a seafood restaurant."])
    """
    texts = recent_turns(turns, len(turns))
    if not texts:
        return "", []
    return texts[-1], recent_turns(texts[:-1], keep, free)


def recent_turns(
    turns: Sequence[str], keep: int = DEFAULT_CONTEXT_TURNS, free: Callable[[str], bool] | None = None
) -> list[str]:
    """The last ``keep`` non-blank ``turns``, stripped, oldest first (``[]`` for ``keep <= 0``).

    ``free`` tells a turn that carries nothing (a courtesy turn: "thanks", "ok great", "You're welcome!"):
    such a turn does not count against ``keep``, so the window reaches back past it to ``keep`` turns that
    count, holding the free ones between them (at most ``keep`` of those: a run of them is no reason to read
    the whole chat). Without it, every turn counts.

    >>> turns = ["Can I take ibuprofen?", "thanks", "ok great", "and with wine?"]
    >>> recent_turns(turns, 2)
    ['ok great', 'and with wine?']
    >>> recent_turns(turns, 2, free=lambda turn: turn in {"thanks", "ok great"})
    ['Can I take ibuprofen?', 'thanks', 'ok great', 'and with wine?']
    """
    if keep <= 0:
        return []
    texts = [t.strip() for t in turns if isinstance(t, str) and t.strip()]
    if free is None:
        return texts[-keep:]
    counted = skipped = 0
    start = len(texts)
    while start > 0 and counted < keep:
        if skipped < keep and free(texts[start - 1]):
            skipped += 1
        else:
            counted += 1
        start -= 1
    return texts[start:]


def _user_texts(items: Any, field: str) -> list[str]:
    """The text of each item with role ``user`` that has some, in order; a user item's content that is not a
    string, ``None`` or a list of parts raises ``TypeError`` naming ``kwargs[field][i]['content']``."""
    if not _is_list(items):
        return []
    texts = (content_text(check_message_content(field_of(item, "content"), f"kwargs[{field!r}][{i}]['content']"))
             for i, item in enumerate(items) if field_of(item, "role") == "user")
    return [text for text in texts if text]


def _from_input(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value.strip()] if value.strip() else []
    return _user_texts(value, "input")


def is_google_content(item: Any) -> bool:
    """A google-genai ``Content`` (has ``parts`` / ``role``) as opposed to a bare part or string."""
    if isinstance(item, Mapping):
        return "parts" in item or "role" in item
    return not isinstance(item, str) and hasattr(item, "parts")


def _google_content_text(content: Any) -> str:
    """Text of a user ``Content``; ``""`` for the model's turns. A missing role means user."""
    if field_of(content, "role") not in (None, "user"):
        return ""
    return content_text(field_of(content, "parts"))


def _from_contents(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value.strip()] if value.strip() else []
    if not _is_list(value):
        text = _google_content_text(value) if is_google_content(value) else (part_text(value) or "").strip()
        return [text] if text else []
    # google-genai turns each run of consecutive bare parts / strings into one
    # user Content; group them the same way (the model's turns read as "").
    turns: list[str] = []
    run: list[Any] = []
    for item in value:
        if is_google_content(item):
            if run:
                turns.append(content_text(run))
                run = []
            turns.append(_google_content_text(item))
        else:
            run.append(item)
    if run:
        turns.append(content_text(run))
    return [text for text in turns if text]


def _user_turns(kwargs: Mapping[str, Any]) -> list[str]:
    """The texts of the user turns of the first field that has one: ``messages``, ``input``, ``contents``,
    ``message``."""
    if not isinstance(kwargs, Mapping):
        raise TypeError(f"kwargs must be a mapping of the SDK call's keyword arguments, got {type(kwargs).__name__}")
    turns = _user_texts(_checked_messages(kwargs.get("messages")), "messages")
    for key, read in (("input", _from_input), ("contents", _from_contents), ("message", _from_contents)):
        if not turns and key in kwargs:
            turns = read(kwargs[key])
    return turns


def extract_user_query(kwargs: Mapping[str, Any]) -> str:
    """The text of the last user turn in a provider SDK call's keyword arguments; ``""`` if there is none.

    A malformed message (no ``role``, a user message without ``content``, content that is not a string,
    ``None`` or a list of parts) raises ``TypeError`` naming it: a mistake in the app, not a turn to skip.

    Looks at ``messages`` (OpenAI chat, Anthropic, Bedrock), then ``input``
    (OpenAI Responses), then ``contents`` / ``message`` (Google GenAI). A
    user turn without text (only an image, or only tool results) is skipped,
    so the question of a tool-calling loop is still found. Text parts of one
    turn are joined with newlines.

    >>> extract_user_query({"messages": [{"role": "user", "content": "What should I cook?"}]})
    'What should I cook?'
    """
    turns = _user_turns(kwargs)
    return turns[-1] if turns else ""


def extract_query_and_context(
    kwargs: Mapping[str, Any], turns: int = DEFAULT_CONTEXT_TURNS, free: Callable[[str], bool] | None = None
) -> tuple[str, list[str]]:
    """(the question, the user turns before it): ``query`` and ``context`` for ``engine.recall``.

    The question is :func:`extract_user_query`'s. The context is the text of
    up to ``turns`` earlier user turns with text, oldest first (``[]`` for a
    single turn or ``turns <= 0``), read from the same field as the question;
    those ``free`` tells carry nothing ("thanks") do not count (:func:`recent_turns`).
    Assistant / model turns, system and developer messages, tool messages and
    user turns holding only tool results or images are not context. A Google
    chat's ``send_message`` shows only the new message: its context is ``[]``.

    >>> kwargs = {"messages": [
    ...     {"role": "user", "content": "I'm going to a seafood restaurant tonight."},
    ...     {"role": "assistant", "content": "Enjoy!"},
    ...     {"role": "user", "content": "What should I order there?"}]}
    >>> extract_query_and_context(kwargs)
    ('What should I order there?', ["I'm going to a seafood restaurant tonight."])
    """
    return query_and_context(_user_turns(kwargs), turns, free)
