"""``MemoriRecall``: long-term memory for direct provider SDK calls (find the question, recall, inject)."""

from __future__ import annotations

import hashlib
import logging
import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timezone, tzinfo
from types import TracebackType
from typing import Any

from ..adapter_args import check_adapter_args, check_flag, renamed_k, renamed_k_attribute, resolve_entity_id
from ..capture import DEFAULT_MAX_PENDING_CAPTURES, OUTAGE_TURNS_KEPT, WaitsForCaptures, check_extractor
from ..capture.outcomes import FlushResult
from ..capture_failures import EntityCaptures
from ..context import format_context
from ..engine import RecallEngine
from ..extraction.types import FactExtractor, as_messages, last_said_at
from ..facts import RecalledFact
from ..failopen import STRICT_DEFAULT, FailOpenRecall, check_timeout
from ..lanes import ERASURES
from ..placement import SYSTEM, check_placement
from ..query import context_turns, extract_query_and_context, field_of, recent_turns
from ..tool_queries import courtesy_test
from ..validate import check_context, check_query, check_said_at, repair_text, repair_turns, turn_as_of
from .system_prompt import check_injectable, inject_context, normalize_provider
from .turn_capture import BegunTurns, CapturedTurns, conversation_digest, turn_with_reply

__all__ = ["MemoriRecall"]

logger = logging.getLogger(__name__)

TURN_KEY = "turn"
"""Metadata key of a fact :meth:`MemoriRecall.capture` stored: a digest of its turn and said-at time, by which a turn
held after an outage is looked for before it is captured again."""

_WITHOUT_MEMORY = "calling the model without memory"
"""What a failed recall's warning says happens instead."""


def _per_call(value: str | None, default: str | None, check: Callable[[str], str], missing: str) -> str:
    """A per-call ``value`` (checked), else the instance's ``default``; ``ValueError(missing)`` when neither is set."""
    if value is not None:
        return check(value)
    if default is None:
        raise ValueError(missing)
    return default


def _read_at(said_at: datetime | str | None) -> datetime | None:
    """The recall's ``as_of`` for a call's ``said_at`` (checked as capture checks a turn's time;
    :func:`~memori_core.validate.turn_as_of`): ``None`` for a live turn or no time."""
    return turn_as_of(check_said_at(said_at, "said_at"))


CONVERSATIONS_KEPT = 1024
"""How many (user, Responses API conversation) pairs a :class:`MemoriRecall` remembers the last question of, for
the calls that continue a conversation on OpenAI's server with no question of their own; the least recently used
go first."""


def _conversation_of(kwargs: Mapping[str, Any]) -> str | None:
    """The id of the OpenAI conversation a Responses call belongs to (``conversation="conv_..."`` or
    ``{"id": ...}``), or ``None``."""
    conversation = kwargs.get("conversation")
    if conversation is None:
        return None
    cid = conversation if isinstance(conversation, str) else field_of(conversation, "id")
    return cid if isinstance(cid, str) and cid else None


def _instant(when: datetime) -> str:
    """``when`` as the UTC instant it is: one turn's time written in two offsets keys it once."""
    return when.astimezone(timezone.utc).isoformat()


def _messages_of(kwargs: Mapping[str, Any]) -> Any:
    """The call's messages as its ``capture`` is handed them: ``messages``, else a Responses API ``input``."""
    messages = kwargs.get("messages")
    return kwargs.get("input") if messages is None else messages


def _is_responses_call(kwargs: Mapping[str, Any]) -> bool:
    """A Responses API call: ``input`` and no ``messages`` (which the question would be read from instead)."""
    return "input" in kwargs and kwargs.get("messages") is None


def _continues_on_server(kwargs: Mapping[str, Any]) -> bool:
    """A Responses call whose earlier turns OpenAI keeps: it names ``previous_response_id`` or a ``conversation``."""
    return bool(kwargs.get("previous_response_id")) or _conversation_of(kwargs) is not None


class _LastQuestions:
    """The last question (and the earlier turns read with it) of each (user, conversation), the most recent
    :data:`CONVERSATIONS_KEPT`; thread-safe. The user is part of the key: one user's question is never
    another's."""

    def __init__(self, kept: int = CONVERSATIONS_KEPT) -> None:
        self._kept = kept
        self._lock = threading.Lock()
        self._last: OrderedDict[tuple[str, str | None], tuple[str, tuple[str, ...]]] = OrderedDict()

    def remember(self, key: tuple[str, str | None], query: str, context: Sequence[str]) -> None:
        with self._lock:
            self._last[key] = (query, tuple(context))
            self._last.move_to_end(key)
            while len(self._last) > self._kept:
                self._last.popitem(last=False)

    def last(self, key: tuple[str, str | None]) -> tuple[str, list[str]] | None:
        with self._lock:
            found = self._last.get(key)
        return None if found is None else (found[0], list(found[1]))


@dataclass(frozen=True)
class _Request:
    """One recall for an SDK call: whose facts, the call's question, and its earlier turns (``[]``: none)."""

    entity_id: str
    query: str
    context: list[str]


@dataclass(frozen=True)
class _Turn:
    """One ``apply``: when the turn was said (``None``: now), the provider's kwargs name, and the turn begun for its
    capture (:meth:`MemoriRecall._begin_turn`)."""

    when: datetime | None
    name: str
    begun: tuple[str, int, datetime]

class MemoriRecall(WaitsForCaptures):
    """Recall a user's facts for a provider SDK call and write them into its system prompt; capture what the user
    said after it, in the background.

    >>> memory = MemoriRecall(engine, entity_id="user-1")
    >>> kwargs = {"model": "gpt-4o-mini", "messages": [{"role": "user", "content": "What should I cook?"}]}
    >>> client.chat.completions.create(**memory.apply(kwargs, provider="openai"))

    The query is the call's last user turn; up to ``engine.config.context_turns``
    user turns before it go to recall as ``context`` (assistant replies, system
    prompts and tool messages are not read), so a follow-up such as "What should
    I order there?" is recalled with the turn that named the place. ``query=``
    and ``context=`` given to a call replace what is read from its kwargs
    (an app whose earlier turns live elsewhere, such as OpenAI's server with
    ``previous_response_id``, passes them).

    A Responses API call that continues a conversation OpenAI keeps
    (``previous_response_id``, or a ``conversation``) and whose input holds no
    user text (only tool outputs: the call that reads a tool's result) is
    recalled for the last question this ``MemoriRecall`` saw for the same user
    in that conversation (the same ``conversation`` id; with
    ``previous_response_id`` alone, the user's last Responses call), read with
    the same earlier turns: the last :data:`CONVERSATIONS_KEPT`, in this
    process only. OpenAI does not carry ``instructions`` over to the next
    response, so without it that call would reach the model without memory. A continuing call with user text
    (a follow-up) is read with that conversation's remembered questions as ``context`` unless its input holds
    earlier user turns or ``context=`` is given.

    ``placement="last_user"`` writes the block into the latest user turn instead of the system prompt, so the
    system prompt and the earlier conversation stay a cacheable prefix (:mod:`memori_core.placement`,
    :func:`~memori_core.sdk.system_prompt.inject_context`).

    Recall never blocks the model call: if the store or the embedder fails (or
    ``timeout`` seconds pass), a warning is logged and the kwargs come back
    without memory; ``strict=True`` raises instead. Usage errors (no entity,
    an unknown provider, a kwargs shape the provider cannot take) always raise.

    :meth:`capture` (after the model answered: the call's messages and its reply) hands the newest turn to
    ``extractor`` in the background, as the framework adapters' ``capture=True`` does
    (:class:`~memori_core.capture.BackgroundCapture`): it returns at once, at most ``max_pending_captures``
    wait (more are dropped with a warning and counted in :attr:`capture_stats`), a failure is logged (under
    ``strict``, raised by the next :meth:`flush` or the same user's next ``apply`` / ``capture``), and a turn a
    store outage kept from the store is held (the user's last :data:`~memori_core.capture.OUTAGE_TURNS_KEPT`)
    and captured once it answers: at the next ``capture`` while the store answers, or at :meth:`flush`.
    :meth:`flush` / :meth:`aflush` wait for the captures; :meth:`close` (or leaving a ``with`` block) waits for
    them and ends capture; ``engine.close()`` waits for them at shutdown.
    """

    limit = renamed_k_attribute("MemoriRecall", "limit")

    def __init__(
        self,
        engine: RecallEngine,
        entity_id: str | None = None,
        k: int | None = None,
        strict: bool = STRICT_DEFAULT,
        *,
        provider: str | None = None,
        timeout: float | None = None,
        placement: str = SYSTEM,
        limit: int | None = None,
        extractor: FactExtractor | None = None,
        max_pending_captures: int = DEFAULT_MAX_PENDING_CAPTURES,
    ) -> None:
        """``entity_id`` and ``provider`` are defaults that each call may override; ``k`` (how many facts)
        defaults to the engine's ``config.limit`` (``limit=`` is its deprecated name); ``timeout`` (seconds)
        bounds one recall; ``placement`` is where the block goes: ``"system"`` (the system prompt) or
        ``"last_user"`` (the latest user turn); ``extractor`` (default: the rules,
        :class:`~memori_core.extraction.RuleBasedFactExtractor`) and ``max_pending_captures`` apply to
        :meth:`capture`. The arguments mean what they mean for the framework adapters
        (:mod:`memori_core.adapter_args`, :mod:`memori_core.failopen`, :mod:`memori_core.placement`,
        :mod:`memori_core.capture.arguments`)."""
        k = renamed_k("MemoriRecall", k, "limit", limit)
        self.engine, self.entity_id, self.k = check_adapter_args("MemoriRecall", engine, entity_id, k)
        self.strict = check_flag(strict, "MemoriRecall", "strict")  # "no" read as bool would turn it on
        self.provider = None if provider is None else normalize_provider(provider)
        self.timeout = check_timeout(timeout, "MemoriRecall")
        self.placement = check_placement(placement, "MemoriRecall")
        self.extractor = check_extractor(extractor, owner="MemoriRecall")
        self._captures = EntityCaptures("MemoriRecall", logger, strict=self.strict, max_pending=max_pending_captures,
                                        hold=OUTAGE_TURNS_KEPT)
        self._captured = CapturedTurns()
        self._begun = BegunTurns()
        self._closed = False
        self._questions = _LastQuestions()
        self._unknown_told = False  # a continuing call with no remembered question was warned about

    # -- resolution ---------------------------------------------------------

    def _entity(self, entity_id: str | None) -> str:
        return resolve_entity_id("MemoriRecall", self.entity_id, explicit=entity_id,
                                 ways=["apply(..., entity_id=...)"])

    def _provider(self, provider: str | None) -> str:
        return _per_call(provider, self.provider, normalize_provider,
                         "MemoriRecall needs a provider: pass apply(kwargs, provider=...) or "
                         "MemoriRecall(..., provider=...)")

    def _request(
        self, kwargs: Mapping[str, Any], entity_id: str | None, query: str | None, context: Sequence[str] | None
    ) -> _Request | None:
        """Whose facts to recall for the call, its question and recall's keyword arguments (``context`` when
        there are earlier user turns); ``None`` when the call has no user question."""
        entity = self._entity(entity_id)
        # End-user text: half an emoji (a lone surrogate) is replaced, not refused, so the call goes on.
        query, context = repair_turns(query, context)
        given_query = None if query is None else check_query(query)
        given_context = None if context is None else check_context(context)
        found, found_context = extract_query_and_context(kwargs, context_turns(self.engine), courtesy_test(self.engine))
        found, found_context = repair_text(found), [repair_text(t) for t in found_context]
        question = found if given_query is None else given_query
        turns = found_context if given_context is None else given_context
        key = (entity, _conversation_of(kwargs)) if _is_responses_call(kwargs) else None
        continues = key is not None and _continues_on_server(kwargs)
        if continues and given_query is None and not found:
            last = self._questions.last(key)  # type: ignore[arg-type]
            if last is not None:  # a tool-loop call: its question is the one the conversation last asked
                question = last[0]
                turns = last[1] if given_context is None else turns
                logger.debug("no user text in a continuing Responses call; recalling for its last question")
            elif not self._unknown_told:
                self._unknown_told = True
                logger.warning(
                    "MemoriRecall: a Responses call continuing a conversation (previous_response_id / conversation) "
                    "holds no user text, and no question of entity %r was seen for it in this process (another "
                    "worker asked it, or the process restarted): it is sent without memory; pass apply(..., "
                    "query=the user's question) (warned once per MemoriRecall; later ones at DEBUG)", entity)
            else:
                logger.debug("no question remembered for a continuing Responses call of entity %r", entity)
        elif continues and found and given_context is None and not found_context:
            # A follow-up whose earlier turns live on OpenAI's server: read it with the turns this process saw
            # in that conversation (its question and the turns read with it), as a stateless call's input holds.
            last = self._questions.last(key)  # type: ignore[arg-type]
            keep = context_turns(self.engine)
            if last is not None and keep > 0:
                turns = recent_turns([*last[1], last[0]], keep, courtesy_test(self.engine))
        if not question.strip():
            logger.debug("no user query in the call's kwargs; nothing to recall")
            return None
        if key is not None:
            self._questions.remember(key, question, turns)
        return _Request(entity, question, list(turns))

    def _plan(
        self, kwargs: Mapping[str, Any], entity_id: str | None, query: str | None, context: Sequence[str] | None,
        said_at: datetime | str | None,
    ) -> FailOpenRecall | None:
        """The call's recall, planned once for :meth:`recall_for` and :meth:`arecall_for`, failing open as every
        adapter's does (:class:`~memori_core.failopen.FailOpenRecall`): its question and earlier turns
        (:meth:`_request`), read as of ``said_at`` (:func:`_read_at`); ``None`` when the call has no user question."""
        as_of = _read_at(said_at)
        request = self._request(kwargs, entity_id, query, context)
        if request is None:
            return None
        return FailOpenRecall(self.engine, request.query, request.entity_id, self.k, self.strict, "MemoriRecall",
                              logger, request.context, self.timeout, as_of, _WITHOUT_MEMORY)

    def _inject(self, kwargs: Mapping[str, Any], facts: list[RecalledFact], provider: str,
                tz: tzinfo | None = None) -> dict[str, Any]:
        block = format_context(facts, zone=self.engine.config.time_zone_label, tz=tz)
        return inject_context(kwargs, block, provider, placement=self.placement)

    def _begin_turn(self, entity_id: str | None, said_at: datetime | None) -> tuple[str, int, datetime]:
        """A model call begins (``apply``): the user's failed ``strict`` capture is raised first; the user, the
        erase generation and the turn's time, for :meth:`_note_turn`."""
        entity = self._entity(entity_id)
        self._captures.raise_failure(entity)
        return entity, ERASURES.generation(entity), said_at or datetime.now(timezone.utc)

    def _note_turn(self, begun: tuple[str, int, datetime], kwargs: Mapping[str, Any], sent: Mapping[str, Any]) -> None:
        """Note the call begun for the ``capture`` that follows the answer, by its conversation's digest: of the
        messages as given and as sent (the block may be written into the user's turn)."""
        digests = [conversation_digest(_messages_of(k)) for k in (kwargs, sent)]
        self._begun.note(begun[0], digests, begun[1], begun[2])

    # -- sync ---------------------------------------------------------------

    def recall_for(
        self,
        kwargs: Mapping[str, Any],
        *,
        entity_id: str | None = None,
        query: str | None = None,
        context: Sequence[str] | None = None,
        said_at: datetime | str | None = None,
    ) -> list[RecalledFact]:
        """The facts recalled for the call's last user turn, read with the user turns before it
        (``[]`` when there is no query or recall fails). A malformed message (no ``role``, a user message
        without ``content``, content of another type) raises ``TypeError`` naming it, ``strict`` or not.

        ``query`` (a str; blank recalls nothing) replaces the question read from ``kwargs``, ``context``
        (the earlier user turns, oldest first: a list of str, ``[]`` for none) the turns read before it; what
        is not given is read from ``kwargs``. Another type raises ``TypeError`` naming the argument. ``said_at``
        (when the turn was said, as in :meth:`apply`): a turn said over a minute ago reads memory as of then.
        """
        plan = self._plan(kwargs, entity_id, query, context, said_at)
        return [] if plan is None else plan.run()

    def apply(
        self,
        kwargs: Mapping[str, Any],
        provider: str | None = None,
        *,
        entity_id: str | None = None,
        query: str | None = None,
        context: Sequence[str] | None = None,
        said_at: datetime | str | None = None,
    ) -> dict[str, Any]:
        """A copy of ``kwargs`` with the user's recalled facts in the system prompt (or the latest user turn,
        ``placement="last_user"``).

        Unchanged (a plain copy) when there is no user query, nothing passes
        the relevance threshold, or recall fails without ``strict``. Malformed
        messages raise ``TypeError`` (:meth:`recall_for`), as capture does.
        ``query`` and ``context`` replace the question and the earlier turns read from ``kwargs``
        (:meth:`recall_for`). ``said_at`` is when the user's turn was said (a timezone-aware ``datetime`` or an
        ISO 8601 string with a UTC offset, what ``capture_facts(created_at=...)`` takes; provider messages carry
        no time): the block's "Stated at" times are written in its zone (``2026-11-09 21:00 -05:00``), the
        calendar capture wrote the facts' days in, and a turn said over a minute ago (a replayed chat) reads
        memory as of then (:func:`~memori_core.validate.turn_as_of`); without it they are UTC, and memory is read
        now. One without a zone is UTC (with a :class:`~memori_core.NaiveTimeWarning`); an unreadable one raises
        ``ValueError`` (another type ``TypeError``) naming ``said_at``.
        """
        turn = self._open_turn(kwargs, provider, entity_id, said_at)
        facts = self.recall_for(kwargs, entity_id=entity_id, query=query, context=context, said_at=turn.when)
        return self._close_turn(turn, kwargs, facts)

    def _open_turn(self, kwargs: Mapping[str, Any], provider: str | None, entity_id: str | None,
                   said_at: datetime | str | None) -> _Turn:
        """What :meth:`apply` and :meth:`aapply` check and note before the recall: ``said_at`` (once: the recall
        reads the aware time it gives), the provider's injectable kwargs, and the turn begun for its capture."""
        when = check_said_at(said_at, "said_at")
        name = check_injectable(kwargs, self._provider(provider), self.placement)
        return _Turn(when, name, self._begin_turn(entity_id, when))

    def _close_turn(self, turn: _Turn, kwargs: Mapping[str, Any], facts: list[RecalledFact]) -> dict[str, Any]:
        """The kwargs sent, with the block of ``facts``; the turn noted with them for its capture."""
        sent = self._inject(kwargs, facts, turn.name, None if turn.when is None else turn.when.tzinfo)
        self._note_turn(turn.begun, kwargs, sent)
        return sent

    # -- async --------------------------------------------------------------

    async def arecall_for(
        self,
        kwargs: Mapping[str, Any],
        *,
        entity_id: str | None = None,
        query: str | None = None,
        context: Sequence[str] | None = None,
        said_at: datetime | str | None = None,
    ) -> list[RecalledFact]:
        """Async :meth:`recall_for`."""
        plan = self._plan(kwargs, entity_id, query, context, said_at)
        return [] if plan is None else await plan.arun()

    async def aapply(
        self,
        kwargs: Mapping[str, Any],
        provider: str | None = None,
        *,
        entity_id: str | None = None,
        query: str | None = None,
        context: Sequence[str] | None = None,
        said_at: datetime | str | None = None,
    ) -> dict[str, Any]:
        """Async :meth:`apply` (the recall runs in a worker thread)."""
        turn = self._open_turn(kwargs, provider, entity_id, said_at)
        facts = await self.arecall_for(kwargs, entity_id=entity_id, query=query, context=context, said_at=turn.when)
        return self._close_turn(turn, kwargs, facts)

    # -- capture ------------------------------------------------------------

    def capture(
        self,
        messages: Any,
        reply: Any = None,
        *,
        entity_id: str | None = None,
        said_at: datetime | str | None = None,
        session_id: str | None = None,
    ) -> bool:
        """Hand the newest turn of a model call to ``extractor`` in the background, after the model answered; returns
        at once: ``True`` when a capture was queued, ``False`` when there was nothing to capture (no user
        message, or this turn was handed over already: a tool loop's later calls) or it was dropped
        (``max_pending_captures`` are pending; counted in :attr:`capture_stats`).

        ``messages`` are the call's messages as sent (``kwargs["messages"]``, or a Responses API ``input`` list or
        string): dicts or the SDK's own message objects, as :meth:`apply` reads them; the newest turn is the user's
        last message(s) with the assistant message before them (:func:`~memori_core.capture.newest_turn`).
        ``reply`` is the model's answer as the SDK gives it: ``resp.choices[0].message`` or the whole
        ``ChatCompletion``, Anthropic's ``Message``, a Responses API ``Response``, a Google GenAI response, a dict,
        or its text (``None``: none, or already the last of ``messages``). Only the user's words become facts.

        ``entity_id`` as for :meth:`apply`. ``said_at`` is when the user said the turn (what :meth:`apply` takes,
        checked the same way: an unreadable one raises ``ValueError`` naming ``said_at``); default: the
        ``said_at`` of the :meth:`apply` of this call (the one handed the same conversation, up to its last user
        message), else when it ran, else now. A ``forget`` of the user after that ``apply`` makes the capture write
        nothing; a capture matching no ``apply`` is erased by a ``forget`` after any call of the user still
        answering (begun within :data:`~memori_core.sdk.turn_capture.BEGUN_WITHIN` seconds). ``session_id`` (a
        non-empty str) keeps the turns of one conversation together as a session. Facts' metadata says ``source="sdk"``.

        Never raises for a store or extractor failure (a warning, or under ``strict`` the next :meth:`flush` or
        this user's next ``apply`` / ``capture`` raises it); bad arguments raise ``TypeError`` / ``ValueError``
        naming them, and a closed ``MemoriRecall`` (:meth:`close`) raises ``RuntimeError``.
        """
        if self._closed:
            raise RuntimeError("MemoriRecall.capture: this MemoriRecall was closed (close()); make a new one")
        entity = self._entity(entity_id)
        when = check_said_at(said_at, "said_at")
        if session_id is not None and (not isinstance(session_id, str) or not session_id.strip()):
            raise TypeError(f"MemoriRecall.capture: session_id must be a non-empty str or None, got {session_id!r}")
        turn, digest = turn_with_reply(messages, reply)
        self._captures.raise_failure(entity)
        begun = self._begun.take(entity, digest)
        if not turn:
            return False
        key = (entity, digest, None if when is None else _instant(when))
        if not self._captured.claim(key):
            return False
        if when is None:
            when = last_said_at(as_messages(turn)) or (begun[1] if begun and begun[1] else datetime.now(timezone.utc))
        tag = hashlib.sha256(f"{digest}\0{_instant(when)}".encode()).hexdigest()[:32]
        engine, where = self.engine, {TURN_KEY: tag}
        return self._captures.submit(
            engine, entity, turn, self.extractor, metadata={"source": "sdk", "role": "user", TURN_KEY: tag},
            session_id=session_id, on_failure=lambda: self._captured.release(key),
            since=begun[0] if begun else None, created_at=when,
            landed=lambda: bool(engine.list(entity, where=where, limit=1, include_invalid=True)))

    def close(self, timeout: float | None = None) -> FlushResult:
        """Wait for the captures handed over so far (:meth:`flush`, at most ``timeout`` seconds) and end capture:
        a later :meth:`capture` raises. Recall (:meth:`apply`) goes on; the engine stays open
        (``engine.close()`` closes it). A second call only flushes."""
        self._closed = True
        return self.flush(timeout)

    async def aclose(self, timeout: float | None = None) -> FlushResult:
        """Async :meth:`close` (the event loop is not blocked)."""
        self._closed = True
        return await self.aflush(timeout)

    def __enter__(self) -> MemoriRecall:
        """``with MemoriRecall(...) as memory:``: :meth:`close` at the end of the block."""
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self.close()
