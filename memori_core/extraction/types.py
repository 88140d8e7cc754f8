"""What extraction reads and returns: messages, extracted facts, and the :class:`FactExtractor` protocol."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from ..query import langchain_hint
from ..validate import check_said_at, clip_turn
from .sdk_messages import sdk_role_and_text

if TYPE_CHECKING:  # the rules' paths; importing them here would load the rules with every extractor
    from .provenance import FactPath

__all__ = [
    "DEFAULT_MAX_FACT_CHARS",
    "ExtractedFact",
    "FactExtractor",
    "KnownFact",
    "Message",
    "MessageLike",
    "USER_ROLES",
    "as_messages",
    "last_said_at",
]

DEFAULT_MAX_FACT_CHARS = 300
"""Longest fact (in characters) an extractor returns; longer text is a paste, not a fact."""


@dataclass(frozen=True)
class Message:
    """One conversation message: ``role`` is ``"user"``, ``"assistant"``, ``"system"`` or ``"tool"``; ``created_at``
    is when it was said, when known.

    ``created_at`` (a ``datetime`` or an ISO 8601 string, kept as a datetime; without a zone it is UTC, with a
    :class:`~memori_core.NaiveTimeWarning` naming it) is the "now" an extractor reads the message's relative dates
    against ("on Thursday", "next month"), in its own offset. ``None``: not known; capture then gives the turn's
    time (:func:`~memori_core.capture.capture_facts`), and an extractor called directly reads them against now.
    """

    role: str
    text: str
    created_at: datetime | None = None

    def __post_init__(self) -> None:
        if self.created_at is not None:
            object.__setattr__(self, "created_at", check_said_at(self.created_at, "Message created_at"))


MessageLike = Message | tuple[str, str] | Mapping[str, Any] | Any
"""A :class:`Message`, a ``(role, text)`` pair, or a provider SDK's message: ``{"role": ..., "content": ...}`` as the
OpenAI, Anthropic and Bedrock Converse SDKs write it, the SDK's own message object, a Google ``Content``, an
OpenAI Responses API item (one without a role is no one's turn), or a string: the user's message
(:mod:`~memori_core.extraction.sdk_messages`)."""


USER_ROLES = ("user", "human")
"""The roles of the user's own messages (:func:`as_messages` lower-cases a role): what capture reads facts from."""


def as_messages(items: Iterable[MessageLike], name: str = "messages") -> list[Message]:
    """``items`` as :class:`Message` objects (``(role, text)`` pairs and provider message mappings are converted;
    a string, given alone or as an item, is the user's message; roles are lower-cased; a ``Message`` keeps its ``created_at``). A text longer than
    :data:`~memori_core.validate.MAX_TURN_CHARS` (8,000) is cut to its first and last 4,000 characters
    (:func:`~memori_core.validate.clip_turn`): capture and every extractor read messages through here, so a
    pasted megabyte costs no more than a long chat turn. A bad item raises a ``TypeError`` naming it as
    ``name[i]``; bytes given where messages belong, one naming ``name``."""
    if isinstance(items, str):  # one text is the user's message, as a Responses API ``input`` string is
        items = [items]
    if isinstance(items, bytes):
        raise TypeError(f"{name} must be a sequence of messages, got bytes")
    out: list[Message] = []
    for i, item in enumerate(items):
        said_at = None
        if isinstance(item, Message):
            role, text, said_at = item.role, item.text, item.created_at
        elif isinstance(item, tuple) and len(item) == 2:
            role, text = item
        elif (read := sdk_role_and_text(item, f"{name}[{i}]")) is not None:
            role, text = read
        else:
            keys = f" with keys {', '.join(map(repr, item))}" if isinstance(item, Mapping) else ""
            raise TypeError(
                f"{name}[{i}]: expected a Message, a (role, text) pair or a provider SDK message (a mapping or an "
                f"object with a 'role' and its 'content'), got {type(item).__name__}{keys}{langchain_hint(item)}"
            )
        if not isinstance(role, str) or not isinstance(text, str):
            raise TypeError(f"{name}[{i}]: a message's role and text must be str")
        out.append(Message(role.strip().lower(), clip_turn(text), said_at))
    return out


def last_said_at(messages: Sequence[Message]) -> datetime | None:
    """The ``created_at`` of the last user message of ``messages`` that has one: when the turn was said
    (``None`` when no user message says)."""
    for message in reversed(messages):
        if message.role in USER_ROLES and message.created_at is not None:
            return message.created_at
    return None


@dataclass(frozen=True)
class ExtractedFact:
    """A fact to store, the ids of the user's stored facts it replaces (they stop being recalled), and
    whether it is a core fact (an allergy, a medication, a diet: stored with ``core=True``, injected on every turn)."""

    text: str
    supersedes: tuple[str, ...] = ()
    core: bool = False
    expires_at: datetime | None = field(default=None, repr=False)
    """When the fact stops being true (an appointment: "a meeting tomorrow at 3pm"); ``None``: durable."""
    valid_from: datetime | None = field(default=None, repr=False)
    """When the fact starts to hold, for a change told ahead ("User works at Siemens." from the day the new job
    starts): capture stores it with ``add(..., valid_from=...)``, and the facts it ``supersedes`` end then, not now;
    ``None``: it holds from when it was said."""
    path: FactPath | None = field(default=None, repr=False, compare=False)
    """Which rule path found the fact, when the extractor says (:class:`~memori_core.extraction.RuleBasedFactExtractor`:
    a :data:`~memori_core.extraction.provenance.FactPath` such as ``"rewrite"`` or ``"life_event"``); ``None``:
    not said (a model's fact). Provenance only: it is not stored, and two facts differing only here are equal."""


class KnownFact(Protocol):
    """A stored fact shown to an extractor: anything with an ``id`` and a ``content`` (e.g. a ``RecalledFact``)."""

    @property
    def id(self) -> str: ...

    @property
    def content(self) -> str: ...


@runtime_checkable
class FactExtractor(Protocol):
    """Turns the latest messages of a conversation into facts about the user.

    ``messages`` are the new turn(s), oldest first: facts come from the user
    messages; an assistant message is context only (what a short answer
    replies to). ``existing`` are the user's stored facts most similar to the
    turn (given only when ``uses_existing_facts`` is true); a returned fact may
    name some of their ids in ``supersedes``. Capture keeps only ids that were
    given, whatever an extractor returns.
    """

    uses_existing_facts: bool
    """Whether capture should look up the user's similar stored facts and pass them as ``existing``."""

    def extract(self, messages: Sequence[MessageLike], existing: Sequence[KnownFact] = ()) -> list[ExtractedFact]:
        """The facts worth keeping from ``messages`` (``[]`` when there are none)."""
        ...
