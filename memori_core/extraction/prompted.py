"""The one base of the LLM extractors: prompt a model for the turn's facts and read its reply.

The framework adapters' ``LLMFactExtractor`` classes subclass :class:`PromptedFactExtractor` and say
only how one prompt reaches their framework's model; the prompt, the reply parsing and the limits
live here once. Any other model client works the same way:

>>> class OpenAIExtractor(PromptedFactExtractor[object]):
...     def ask(self, prompt: str) -> str:
...         reply = client.chat.completions.create(model="gpt-4o-mini", temperature=0,
...                                                messages=[{"role": "user", "content": prompt}])
...         return reply.choices[0].message.content or ""
...
...     async def aask(self, prompt: str) -> str:
...         return await asyncio.to_thread(self.ask, prompt)
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from datetime import datetime
from typing import Generic, TypeVar, cast

from .prompt import build_extraction_prompt, check_max_chars, check_max_facts, parse_extraction_reply, turn_said_at
from .types import DEFAULT_MAX_FACT_CHARS, ExtractedFact, KnownFact, Message, MessageLike, as_messages

__all__ = ["PromptedFactExtractor"]

FrameworkMessage = TypeVar("FrameworkMessage")
"""The message type of the framework an extractor serves (accepted by ``extract`` next to ``MessageLike``)."""


class PromptedFactExtractor(ABC, Generic[FrameworkMessage]):
    """Fact extraction by a model: one prompt per turn, plain JSON text back.

    The model is sent :func:`~memori_core.extraction.build_extraction_prompt`
    (the turn, and the user's most similar stored facts under short ids) and
    answers with JSON text, read by :func:`~memori_core.extraction.parse_extraction_reply`
    (fenced or bare JSON; anything unreadable gives no facts). Plain text is
    used on purpose rather than tool calling or structured output: it works
    with every model, fake ones included, and the parser is tolerant.
    Supersede ids name only the facts shown to the model; facts it flags
    ``"core"`` (allergies, medication, diet) are stored core. The prompt says
    when the turn was said (its last user message's ``created_at``, which
    capture sets to the turn's time; else now), with the weekday, and asks for
    an ``"expires_at"`` on a fact that stops being true at a known time (an
    appointment, a trip): it becomes the fact's expiry. Model errors
    propagate (capture logs them and goes on).

    A subclass implements :meth:`ask` and :meth:`aask` (send one prompt, return
    the reply's text) and, when ``extract`` should take its framework's message
    objects, :meth:`framework_message`.
    """

    uses_existing_facts = True
    """Capture shows the model the user's most similar stored facts, so it can say which a new fact replaces."""

    def __init__(
        self, *, max_facts: int = 10, max_chars: int = DEFAULT_MAX_FACT_CHARS, mark_core: bool = True
    ) -> None:
        """``max_facts`` per turn and ``max_chars`` per fact bound what a reply can store (the prompt states both;
        a longer fact is cut at a clause end or word boundary, with a warning). With ``mark_core``
        the model is asked to flag allergies, medication, conditions and dietary restrictions ``"core": true`` (stored
        with ``core=True``: recalled on every turn); ``False`` neither asks nor reads the flag."""
        self.max_facts = check_max_facts(max_facts)
        self.max_chars = check_max_chars(max_chars)
        self.mark_core = bool(mark_core)

    # -- what a subclass provides -------------------------------------------

    @abstractmethod
    def ask(self, prompt: str) -> str:
        """Send ``prompt`` to the model as one user message; the text of its reply."""

    @abstractmethod
    async def aask(self, prompt: str) -> str:
        """Async :meth:`ask`."""

    def framework_message(self, message: object) -> Message | None:
        """``message`` as a :class:`~memori_core.extraction.Message` when it is one of the framework's message
        objects, else ``None`` (it is then read as a ``Message`` or a ``(role, text)`` pair). The base knows none."""
        return None

    # -- the prompt and the reply -------------------------------------------

    def core_messages(self, messages: Sequence[FrameworkMessage | MessageLike]) -> list[Message]:
        """``messages`` as core :class:`~memori_core.extraction.Message` objects, framework messages included."""
        out: list[Message] = []
        for message in messages:
            converted = self.framework_message(message)
            if converted is None:
                converted = as_messages([cast(MessageLike, message)])[0]
            out.append(converted)
        return out

    def prompt(
        self, messages: Sequence[FrameworkMessage | MessageLike], existing: Sequence[KnownFact] = (),
        *, now: datetime | None = None,
    ) -> str:
        """The prompt the model is sent for ``messages``, ``existing`` listed as the facts it may supersede; it
        says the turn was said at its last user message's ``created_at``, else ``now`` (default: the current
        time in UTC)."""
        return build_extraction_prompt(
            self.core_messages(messages), existing, max_facts=self.max_facts, core=self.mark_core,
            max_chars=self.max_chars, now=now,
        )

    def read_reply(
        self, reply: str, existing: Sequence[KnownFact] = (), *, now: datetime | None = None
    ) -> list[ExtractedFact]:
        """The facts in the model's ``reply`` to :meth:`prompt` (``[]`` for a reply that cannot be read);
        ``now``: when the turn was said, the zone a date-time expiry without one is read in."""
        return parse_extraction_reply(
            reply, existing, max_chars=self.max_chars, max_facts=self.max_facts, core=self.mark_core, now=now
        )

    # -- the FactExtractor protocol -----------------------------------------

    def extract(
        self, messages: Sequence[FrameworkMessage | MessageLike], existing: Sequence[KnownFact] = ()
    ) -> list[ExtractedFact]:
        """Ask the model for the facts of ``messages`` (``existing``: stored facts it may supersede)."""
        existing = list(existing)
        turn = self.core_messages(messages)
        said_at = turn_said_at(turn)
        return self.read_reply(self.ask(self.prompt(turn, existing, now=said_at)), existing, now=said_at)

    async def aextract(
        self, messages: Sequence[FrameworkMessage | MessageLike], existing: Sequence[KnownFact] = ()
    ) -> list[ExtractedFact]:
        """Async :meth:`extract` (:meth:`aask`)."""
        existing = list(existing)
        turn = self.core_messages(messages)
        said_at = turn_said_at(turn)
        return self.read_reply(await self.aask(self.prompt(turn, existing, now=said_at)), existing, now=said_at)
