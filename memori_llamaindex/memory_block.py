"""A ``llama_index.core.memory.Memory`` block that recalls the user's long-term facts."""

from __future__ import annotations

import hashlib
import re
import threading
import warnings
import weakref
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timezone
from functools import partial
from typing import Any

from llama_index.core.base.llms.types import ChatMessage, MessageRole
from llama_index.core.bridge.pydantic import Field, PrivateAttr, field_validator
from llama_index.core.memory import BaseMemoryBlock

from memori_core.adapter_args import renamed_k_attribute, resolve_entity_id
from memori_core.bounded import BoundedRecord
from memori_core.capture import (
    DEFAULT_MAX_PENDING_CAPTURES,
    OUTAGE_TURNS_KEPT,
    BackgroundCapture,
    WaitsForCaptures,
    check_extractor,
    check_max_pending,
)
from memori_core.capture.held import HeldTurns
from memori_core.context import PREAMBLE, format_fact_line
from memori_core.engine import RecallEngine
from memori_core.extraction import FactExtractor, Message
from memori_core.failopen import STRICT_DEFAULT, arecall_or_empty
from memori_core.lanes import ERASURES
from memori_core.query import context_turns
from memori_core.tool_queries import courtesy_test

from ._common import (
    logger,
    message_said_at,
    message_text,
    turn_as_of,
    turn_zone,
    user_query_and_context,
    user_turns,
    without_input_echo,
)
from ._fields import CountField, RecallFields, checked_flag
from ._react_check import REACT_DROPS_BLOCK, react_agent_drops_the_block

_OWNER = "MemoriMemoryBlock"

TURN_KEY = "turn"
"""Metadata key of a captured fact naming the turn it came from (a digest): the model call answering that turn
(an agent's calls after a tool, say) leaves such facts out."""
CAPTURED_TURNS_KEPT = 4096
"""How many captured user messages the blocks over one engine remember in a process (most recent first), so that
``Memory``'s later flush of a turn one of them captured (an unanswered one, or one whose capture failed) is
handled once."""

DEFAULT_BLOCK_NAME = "memori_context"
"""Memory renders a block as ``<name>...</name>``: with this name the system prompt carries memori's usual block."""


class MemoriMemoryBlock(WaitsForCaptures, RecallFields, CountField, BaseMemoryBlock[str]):
    """Long-term memory for ``Memory.from_defaults(memory_blocks=[...])``: agents and chat engines see recalled facts.

    >>> block = MemoriMemoryBlock(engine=engine, entity_id="user-1")
    >>> memory = Memory.from_defaults(session_id="s1", memory_blocks=[block])
    >>> agent = FunctionAgent(llm=llm, tools=tools)
    >>> await agent.run("What should I cook tonight?", memory=memory)

    On every ``Memory.get``/``aget`` the block recalls ``entity_id``'s facts
    for the latest user message with text (read with up to ``engine.config.context_turns``
    user messages of the chat history before it, so a follow-up recalls what an
    earlier turn named; assistant, system and tool messages are not read) and
    returns memori's preamble followed by one line per fact
    (``- {content}. Stated at {YYYY-MM-DD HH:MM} UTC``; in the zone of the latest user message's
    ``additional_kwargs["created_at"]`` when it has one: ``Stated at 2026-11-09 21:00 -05:00``). ``Memory`` wraps it in
    ``<memori_context>...</memori_context>`` (the block's ``name``) inside its ``<memory>`` section of the system message, so the
    model reads the same block as with memori's other adapters. Nothing
    passes the threshold -> the block is empty and ``Memory`` leaves it out.

    With ``capture=True``, every user turn is captured once, as the chat goes:
    when ``Memory`` asks the block for the turn's memory (``get`` / ``aget``,
    which agents and chat engines call before the LLM answers the turn), the
    latest user message goes to ``extractor`` (default
    :class:`~memori_core.extraction.RuleBasedFactExtractor`: the user's
    statements about themselves as "User ..." facts; questions, greetings and
    instructions are never stored), with the assistant message just before it
    as context, after the recall for that turn. A turn is captured once,
    whatever block or process sees it again: a later ``get`` of the same turn
    (an agent's calls after a tool result) skips it, and when ``Memory``
    flushes messages out of its short-term queue, a user message an answer
    follows is never captured (the ``get`` before that answer captured it:
    so a block made per request, or an app restarted over its persisted chat,
    brings back no fact a ``forget`` erased and revives no superseded fact);
    only user messages no answer follows (put without an LLM call) are
    captured then, and turns whose capture failed in this process (unless
    their user was forgotten since). A turn a store outage keeps from the store is held and captured
    again once it answers, as the LangChain adapters hold theirs (:mod:`memori_core.capture.held`): by
    the next ``get`` / ``put`` of a block over the same engine (any user's) whose recall or capture finds
    the store answering, before that turn's own capture, or by :meth:`flush`, with its session and time;
    once (an attempt whose facts reached the store after all is not written again), the user's last
    :data:`~memori_core.capture.OUTAGE_TURNS_KEPT` such turns (the blocks over one engine share what
    they hold, so a block made per request captures what the one before it held). The blocks over one
    engine share the last ``CAPTURED_TURNS_KEPT`` turns they captured, known by their user,
    session, user text and the assistant message before it. The
    facts are stored for ``entity_id`` in order, with the memory's
    ``session_id`` as their session (so recall can use a fact's neighbours in
    the conversation) and metadata ``{"source": "llamaindex"}``, dated when the user message was said: its
    ``additional_kwargs["created_at"]`` (a timezone-aware datetime or an ISO 8601 string with a UTC offset),
    else when the block hands it over; that time is also the "now" the extractor reads "on Thursday" against
    (a time without a zone is UTC, with a ``NaiveTimeWarning``; an unreadable one fails that turn's capture
    with a warning naming it). Extraction
    and storage run in the background (``Memory.get`` / ``put`` never wait for
    them), at most ``max_pending_captures`` at a time (more are dropped with a
    warning and counted, as a capture that fails otherwise: ``Memory``'s flush of such a turn captures it);
    :meth:`flush` / :meth:`aflush` wait for them.

    ``k`` is the number of facts, as on every memori adapter (``None``: the engine's ``config.limit``, 5
    unless configured; ``limit=``, its old name here, still works with a ``DeprecationWarning``).
    Recall or capture failures log a warning and the conversation goes on
    without memory, as for every memori adapter; ``strict=True`` raises recall failures, and the first
    capture failure is raised by the next :meth:`flush` / :meth:`aflush` or
    the block's next ``get`` / ``put``. ``timeout`` (seconds; default ``None``: no limit but the store's
    per request) bounds each turn's whole recall, as ``MemoriRecall(timeout=...)`` does: past it the turn
    gets no memory (the recall runs on in the background). ``priority`` defaults to 0 (never
    truncated); with a priority, truncation drops the lowest-ranked facts first.
    """

    OLD_K_NAME = "limit"

    name: str = Field(default=DEFAULT_BLOCK_NAME, description="The name of the memory block.")
    entity_id: str = Field(default=None, validate_default=True,  # missing: the same error as None
                           description="Whose facts to recall (and to capture into).")
    capture: bool = Field(default=False, description="Store the facts the user states, turn by turn.")
    strict: bool = Field(default=STRICT_DEFAULT, description="Raise on recall / capture failure instead of warning.")
    extractor: Any = Field(
        default=None,
        validate_default=True,
        description="FactExtractor turning captured turns into facts; None: the rule-based extractor.",
        exclude=True,
    )
    max_pending_captures: int = Field(
        default=DEFAULT_MAX_PENDING_CAPTURES, description="Background captures that may wait at a time."
    )

    limit = renamed_k_attribute(_OWNER, "limit")

    _captures: BackgroundCapture = PrivateAttr()
    _core_lines: frozenset[str] = PrivateAttr(default=frozenset())
    _warned_dropped: bool = PrivateAttr(default=False)

    def model_post_init(self, context: Any, /) -> None:
        """Set up the background captures (and the default extractor)."""
        super().model_post_init(context)
        self._captures = BackgroundCapture(_OWNER, logger, strict=self.strict, max_pending=self.max_pending_captures,
                                           hold=_captured_turns(self.engine).held)

    @field_validator("entity_id", mode="before")
    @classmethod
    def _check_entity(cls, value: Any) -> str:
        return resolve_entity_id(_OWNER, value)

    _check_flags = field_validator("capture", "strict", mode="before")(checked_flag)

    @field_validator("max_pending_captures", mode="before")
    @classmethod
    def _check_max_pending(cls, value: Any) -> int:
        return check_max_pending(value, cls.__name__)

    @field_validator("extractor", mode="before")
    @classmethod
    def _check_extractor(cls, value: Any) -> Any:
        return check_extractor(value, owner=cls.__name__)

    def __setattr__(self, name: str, value: Any) -> None:
        super().__setattr__(name, value)
        if name in ("strict", "max_pending_captures") and hasattr(self, "_captures"):  # the captures read them
            self._captures.strict, self._captures.max_pending = self.strict, self.max_pending_captures

    async def _aget(self, messages: list[ChatMessage] | None = None, **block_kwargs: Any) -> str:
        self._captures.raise_failure()
        messages = without_input_echo(messages)  # an agent's read after a tool result: the turn it answers
        query, context = user_query_and_context(messages, context_turns(self.engine), courtesy_test(self.engine))
        facts = await arecall_or_empty(self.engine, query, self.entity_id, self.k, strict=self.strict, owner=_OWNER,
                                       logger=logger, context=context, timeout=self.timeout,
                                       as_of=turn_as_of(messages))
        if self.capture:  # what the turn being answered became is not news to the model (an agent's later calls)
            this_turn = _latest_turn_tag(messages, block_kwargs.get("session_id"))
            facts = [f for f in facts if this_turn is None or f.metadata.get(TURN_KEY) != this_turn]
        tag = self._tag_pattern()
        zone, tz = self.engine.config.time_zone_label, turn_zone(messages)
        rendered = [
            (tag.sub(lambda m: f"&lt;{m.group(1)}&gt;",
                     format_fact_line(f.content, f.created_at, valid_from=f.valid_from, zone=zone, tz=tz,
                                      valid_to=f.valid_to)),
             f.metadata.get("core") is True)
            for f in facts
            if f.content.strip()
        ]
        self._core_lines = frozenset(line for line, core in rendered if core)
        if self.capture:
            self._capture_latest_turn(messages, block_kwargs.get("session_id"))
        if not rendered:
            return ""
        if not self._warned_dropped and react_agent_drops_the_block():
            self._warned_dropped = True
            warnings.warn(REACT_DROPS_BLOCK.format(owner=_OWNER, name=self.name), UserWarning, stacklevel=2)
        return "\n".join([PREAMBLE, *(line for line, _ in rendered)])

    def _capture_latest_turn(self, messages: Sequence[ChatMessage] | None, session_id: Any) -> None:
        """Capture the latest user message (the turn the LLM is about to answer), unless already captured."""
        messages = list(messages or [])
        turns = user_turns(messages)
        if turns:
            message, turn = turns[-1]
            self._submit_once(message, turn, session_id, answered=id(message) in _answered(messages))

    def _submit_once(self, message: ChatMessage, turn: list[Message], session_id: Any, *, answered: bool) -> None:
        """Queue the capture of one user message unless its turn was captured already, or was answered.

        A turn is known by the user's text and the assistant message before it (``"Yes."`` to two different
        questions is two turns). A turn read without that assistant message (the first message of a batch
        ``Memory`` flushes, or of its queue after a flush) matches any captured turn with the same user text.
        An ``answered`` turn (an assistant message follows it) was read by the ``Memory.get`` before that answer,
        which captured it, in this process or another: only a failed capture of it is tried again
        (:class:`_CapturedTurns`).
        """
        session = _session(session_id)
        ledger = _captured_turns(self.engine)
        text_key = (self.entity_id, session, _digest(message_text(message)))
        turn_key = (self.entity_id, session, _digest("\0".join(m.text for m in turn)))
        claimed = ledger.claim(turn_key, text_key, whole=len(turn) > 1, answered=answered)
        if claimed is None:
            return
        try:
            said_at = message_said_at(message) or datetime.now(timezone.utc)
        except (TypeError, ValueError) as exc:  # the app's bad time: the turn is not stored (claimed: once)
            self._captures.refuse(self.entity_id, exc)
            return
        self._submit(_Turn(self.entity_id, session, tuple(turn), turn_key, text_key, len(turn) > 1, said_at,
                           self.extractor), *claimed)

    def _submit(self, turn: _Turn, began: int, again: bool) -> None:
        """Queue the capture of a claimed turn (``began``: its user's erase generation when it began). One an
        outage keeps from the store is held by the capture and captured again once it answers; one not stored
        otherwise (failed, dropped, given up) is released, so that ``Memory``'s flush of it captures it. Before
        an attempt that follows one that may have reached the store (``again``: a released turn claimed anew; a
        held one), the store is asked whether its facts landed all the same."""
        engine, tag = self.engine, turn.tag

        def stored() -> bool:
            return bool(engine.list(turn.entity_id, where={TURN_KEY: tag}, limit=1, include_invalid=True))

        self._captures.submit(engine, turn.entity_id, list(turn.turn), turn.extractor,
                              metadata={"source": "llamaindex", TURN_KEY: tag}, session_id=turn.session,
                              on_failure=partial(_captured_turns(engine).release, turn, began), since=began,
                              created_at=turn.said_at, stored=stored if again else None, landed=stored)

    def _tag_pattern(self) -> re.Pattern[str]:
        """What in a fact reads like a tag of ``Memory``'s template or of this block (escaped before use)."""
        names = "|".join(re.escape(n) for n in dict.fromkeys(("memory", self.name)))
        return re.compile(rf"<(\s*/?\s*(?:{names})\b[^<>]*)>", re.IGNORECASE)

    async def _aput(self, messages: list[ChatMessage]) -> None:
        if not self.capture:
            return
        self._captures.raise_failure()
        answered = _answered(messages)
        for message, turn in user_turns(messages):
            self._submit_once(message, turn, message.additional_kwargs.get("session_id"),
                              answered=id(message) in answered)

    async def atruncate(self, content: str, tokens_to_truncate: int) -> str | None:
        """Drop the lowest-ranked fact lines until about ``tokens_to_truncate`` tokens (~4 chars each) are gone;
        core facts (always injected, listed last) go only after every other fact."""
        lines = content.split("\n")
        head, facts = lines[:1], lines[1:]
        budget = max(0, tokens_to_truncate) * 4
        while facts and budget > 0:
            others = [i for i, line in enumerate(facts) if line not in self._core_lines]
            budget -= len(facts.pop(others[-1] if others else -1)) + 1
        return "\n".join(head + facts) if facts else None


def _session(session_id: Any) -> str | None:
    return session_id if isinstance(session_id, str) and session_id.strip() else None


def _turn_tag(session: str | None, turn: Sequence[Any]) -> str:
    """The ``"turn"`` metadata of the facts captured from ``turn`` (its session, the assistant message before it
    and its text), by which the answer to that turn leaves them out."""
    return _digest("\0".join([session or "", *(m.text for m in turn)]))[:8].hex()


def _latest_turn_tag(messages: Sequence[ChatMessage] | None, session_id: Any) -> str | None:
    """The tag of the turn being answered: the last user message, when it has text (an image-only turn
    became no fact, and the facts of the turn before it are not its own)."""
    messages = list(messages or [])
    turns = user_turns(messages)
    last = next((m for m in reversed(messages) if m.role == MessageRole.USER), None)
    return _turn_tag(_session(session_id), turns[-1][1]) if turns and turns[-1][0] is last else None


def _digest(text: str) -> bytes:
    return hashlib.blake2b(text.encode("utf-8"), digest_size=16).digest()


def _answered(messages: Sequence[ChatMessage]) -> set[int]:
    """The ids of the user messages an answer follows: an assistant (or tool) message after it, before the next
    user message."""
    answered: set[int] = set()
    last_user: ChatMessage | None = None
    for message in messages:
        if message.role == MessageRole.USER:
            last_user = message
        elif last_user is not None and message.role not in (MessageRole.SYSTEM, MessageRole.DEVELOPER):
            answered.add(id(last_user))
            last_user = None
    return answered


_Key = tuple[str, str | None, bytes]  # (entity id, session, digest of the turn or of the user's text)


@dataclass(frozen=True)
class _Turn:
    """One user turn handed to capture, with what capturing it again takes."""

    entity_id: str
    session: str | None
    turn: tuple[Message, ...]  # the assistant message before the user's, if any, and the user's
    turn_key: _Key
    text_key: _Key
    whole: bool  # read with the assistant message before it
    said_at: datetime
    extractor: FactExtractor

    @property
    def tag(self) -> str:
        """The :data:`TURN_KEY` metadata of its facts."""
        return _turn_tag(self.session, self.turn)


class _CapturedTurns:
    """The turns the memory blocks over one engine claimed in this process, shared by all of them (a block made
    per request knows what the one before it captured), the turns whose capture failed or was dropped, and the
    turns an outage kept from the store (:attr:`held`, which every block's capture holds them in).

    A turn is captured when it is claimed: not when it was claimed already, nor when it was answered (read by
    the ``Memory.get`` before the answer, which captured it: in this process, or in another one before a
    restart, or before a ``forget`` that erased what it said), unless its capture failed here since; a failed
    turn that began before a ``forget`` of its entity is never tried again."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        # -> the entity's erase generation at the claim
        self._turns: BoundedRecord[_Key, int] = BoundedRecord(CAPTURED_TURNS_KEPT)
        self._texts: BoundedRecord[_Key, int] = BoundedRecord(CAPTURED_TURNS_KEPT)
        self._failed: BoundedRecord[_Key, int] = BoundedRecord(CAPTURED_TURNS_KEPT)
        # Held turns keep their engine (and so this record's key) alive until the store answers or the process
        # ends: a bounded wait for the store, as for the LangChain adapters' held turns.
        self.held = HeldTurns(_OWNER, logger, OUTAGE_TURNS_KEPT)

    def claim(self, turn_key: _Key, text_key: _Key, *, whole: bool, answered: bool) -> tuple[int, bool] | None:
        """Whether to capture this turn: ``(the entity's erase generation when it began, whether an attempt to
        capture it failed before)`` (then it is claimed: a concurrent claim of it gets ``None``), else ``None``.
        ``whole``: the turn was read with the assistant message before it (else it is known by the user's text
        only)."""
        entity = turn_key[0]
        with self._lock:
            if (turn_key in self._turns) if whole else (text_key in self._texts):
                return None
            failed = [g for g in (self._failed.pop(turn_key, None), self._failed.pop(text_key, None)) if g is not None]
            began = min(failed) if failed else ERASURES.generation(entity)
            if (answered and not failed) or ERASURES.erased_since(entity, began):
                return None
            self._turns.remember(turn_key, began)
            self._texts.remember(text_key, began)
        return began, bool(failed)

    def release(self, turn: _Turn, began: int) -> None:
        """The claimed ``turn`` was not stored (its capture failed, was dropped or given up): ``Memory``'s flush of
        it captures it."""
        with self._lock:
            self._turns.pop(turn.turn_key, None)
            self._texts.pop(turn.text_key, None)
            self._failed.remember(turn.turn_key, began)
            self._failed.remember(turn.text_key, began)


_LEDGERS: weakref.WeakKeyDictionary[RecallEngine, _CapturedTurns] = weakref.WeakKeyDictionary()
_LEDGERS_LOCK = threading.Lock()


def _captured_turns(engine: RecallEngine) -> _CapturedTurns:
    """The turns the blocks over ``engine`` captured in this process."""
    with _LEDGERS_LOCK:
        ledger = _LEDGERS.get(engine)
        if ledger is None:
            ledger = _LEDGERS[engine] = _CapturedTurns()
        return ledger

