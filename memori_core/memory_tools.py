"""What an agent's memory tools do, without a framework: remember, recall, update and forget one fact.

The LangChain tools (``memori_langchain.memory_tools``), the LlamaIndex tool
spec (``memori_llamaindex.MemoriToolSpec``) and the MCP server
(``memori mcp``) all call :class:`MemoryTools`, so a tool means the same thing
and answers in the same words on every surface. Every method takes the entity
from its caller, never from the model: the surfaces find it in the run's
config, their construction or the server's configuration, and a tool's
arguments have no field that names one.

Answers are plain text written for a model to read. A mistake in what the
model passed (blank text, a text over :data:`MAX_TOOL_TEXT` characters, an id
this user has no fact with, the id ``<id>@v<n>`` of an earlier version of a
fact to update or forget: history is not the model's to change) raises :class:`MemoryToolError`, whose message
says what to do; nothing is written then. A failure of the memory itself
(store down, embedder error) is, unless ``strict``, logged and answered with
:data:`UNAVAILABLE`, so the agent goes on without memory, as every adapter does
(:mod:`memori_core.failopen`); so is every call while an outage of the store is waited out.

A write (remember, update, forget) that failed after it may have reached the store (its reply lost to a
timeout, a connection dropped mid-reply: the change may well have landed) is never answered "nothing was
changed" on trust: the fact is read back from the store, within the store's request time limit
(:data:`READ_BACK_SECONDS` for a store without one), and the answer says what is stored now (the change
landed, or it did not as of that read), or, when that read fails too, that the outcome is unknown and how to
check (:data:`OUTCOME_UNKNOWN`). Only a write that never reached the store (skipped during an outage, or that
could not send its first request in time) is answered :data:`UNAVAILABLE` without reading back.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import re
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, timezone, tzinfo
from typing import Any, TypeVar

from .capture.called_off import plans_of, told_it
from .capture.refusal import SECRET, refused_because
from .capture.repeats import asettle_repeats, settle_repeats
from .capture.statements import STATEMENTS
from .context import clip_fact, format_timestamp, sanitize_fact
from .engine import NothingToCancelError, NothingToRestoreError, RecallEngine, ReplacedFactError, derived_fact_id, version_of
from .engine.plans import is_to_come, not_to_come
from .extraction.rewrite import rewrite
from .facts import RecalledFact, StoredFact
from .failopen import STRICT_DEFAULT, FailOpenCall, arecall_within, awithin, check_timeout, is_outage, within
from .store.base import WriteOutcomeUnknown
from .store.deadline import NotReached
from .text import normalize_fact_text, user_subject
from .validate import iso_to_ts
from .meta_questions import asks_what_memory_holds
from .tool_queries import as_the_user_asks
from .unexpired import HeldPage, anewest_unexpired, newest_unexpired
from .tool_writes import (ToolWrite, acopies_of, aheld_instead, aplan_write, astore_plan, copies_of, dated_as_told, edit_dated,
                          held_instead, is_core, plan_write, said_before_now, store_plan, told_late)

logger = logging.getLogger("memori_core.memory_tools")

T = TypeVar("T")

MAX_TOOL_TEXT = 2000
"""The longest fact text (in characters) a tool takes: a fact is one statement, not a document."""

NOTHING_RELEVANT = "No stored memory about this user is relevant to that query."
"""The recall tool's answer when no fact passes the relevance gate (or the user has none)."""

UNAVAILABLE = "Memory is unavailable right now ({error}); nothing was {done}. Continue without it."
"""The answer when the memory itself failed (``strict=False``) before anything could reach the store."""

OUTCOME_UNKNOWN = ("Memory did not confirm the {what} ({error}), and reading it back could not tell: it may or "
                   "may not have been {done}. Tell the user it is not confirmed (not that it failed), and call "
                   "recall_memory later to see what is stored.")
"""The answer when a write failed after it may have reached the store and the fact could not be read back."""

MAY_STILL_LAND = " A request that timed out may still land: call recall_memory before trying again."
"""Added to an answer that read back no change, when the write's error was a timeout or a lost connection."""

READ_BACK_SECONDS = 10.0
"""Seconds a failed write's read-back may take over a store without a request time limit of its own."""

TOOL_NAMES: dict[str, str] = {
    "remember": "remember",
    "recall": "recall_memory",
    "list": "list_memories",
    "update": "update_memory",
    "forget": "forget_memory",
    "restore": "restore_memory",
    "cancel": "cancel_plan",
}
"""Each operation's tool name as the model sees it (the LangChain tools and the LlamaIndex tool spec)."""

DEFAULT_PAGE = 20
"""How many facts one ``list_memories`` call shows unless told otherwise."""

MAX_PAGE = 200
"""The most facts one list call shows; the MCP server's bound too: the most one ``list`` or ``recall`` call returns,
and one ``add``, ``get`` or ``delete`` call takes."""

DESCRIPTIONS: dict[str, str] = {
    "remember": "Save one fact about the user to long-term memory, written as a short statement "
    "(e.g. 'User is allergic to peanuts.'). Returns the fact's id, or the id of the stored fact that already says "
    "it; a fact that changes a stored one (a new home, job, diet) replaces it, and the answer names the replaced "
    "fact. Allergies, medication and diets are kept core (recalled on every turn) unless core is given.",
    "recall": "Search the user's long-term memory for facts relevant to a query. Returns the relevant facts "
    "with their ids, best first, or says plainly that nothing relevant is stored. Asked what memory holds about "
    "the user ('What do you know about me?'), it lists their facts; list_memories pages through all of them.",
    "list": "List the facts stored about the user, newest first, with their ids, a page at a time (offset, "
    "limit): for 'what do you remember about me?' or to find every fact to forget.",
    "update": "Replace the text of one remembered fact, by the id that recall or remember returned. A fact a "
    "newer one replaced is history and is not changed: the answer names the fact that holds now.",
    "forget": "Delete one remembered fact from the user's long-term memory, by its id, with the earlier versions "
    "it replaced (e.g. the address the user had before) and any other copy saying the same.",
    "restore": "Make a fact that a newer one replaced valid again (its id, as remember named it when it "
    "replaced it), when both hold; the newer fact stays.",
    "cancel": "Call off a change the user told ahead that has not started yet (a new job from Nov 1, a move next "
    "month) when the user says it is off: by the id remember named for it ('From <day> on, it is fact <id>') or "
    "the id of the fact that told it. What it was to replace holds on. Answers what was called off, or that "
    "nothing matched (a plan the user simply dropped is remembered instead: 'User cancelled the trip.').",
}
"""What each tool does, as the model reads it (the tool's description; its arguments:
:data:`~memori_core.tool_arguments.TOOL_ARGUMENTS`)."""


class MemoryToolError(ValueError):
    """A tool was called with input it cannot take; the message says why, and nothing was written."""


def check_tool_text(text: Any, name: str = "text") -> str:
    """``text`` stripped, if it is a non-blank ``str`` of at most :data:`MAX_TOOL_TEXT` characters."""
    if not isinstance(text, str):
        raise MemoryToolError(f"{name} must be a string, got {type(text).__name__}")
    text = text.strip()
    if not text:
        raise MemoryToolError(f"{name} must not be blank")
    if len(text) > MAX_TOOL_TEXT:
        hint = ("search with a short query, such as the user's question" if name == "query"
                else "save one short statement per fact")
        raise MemoryToolError(f"{name} is {len(text)} characters long, over the limit of {MAX_TOOL_TEXT}, so nothing "
                              f"was done: {hint}")
    return text


def check_fact_text(text: Any, name: str = "text") -> str:
    """``text`` checked as :func:`check_tool_text`, with a leading "The user" written "User", as capture writes
    the user (:func:`~memori_core.text.user_subject`): "The user is vegan." from a model and "User is vegan."
    from capture are then one fact, stored once. A plain first-person statement (a model passing on the user's
    words) is written of the user as capture's extractor writes it (:func:`~memori_core.extraction.rewrite.rewrite`:
    "I am vegan." -> "User is vegan.", "My sister lives in Rome." -> "User's sister lives in Rome."), or else kept
    as given: its "I" may be the model's ("I promised the user ..."), or another clause may need it ("I think I'm
    allergic"). A text carrying a secret (a password with its value, a card,
    Social Security or bank account number, an API key: :func:`~memori_core.capture.secret_in`) is refused, as
    capture refuses it: a model asked to "remember my PIN" must not put it in every later prompt. So is a text
    carrying prompt markup or an instruction to a model (a ``</memori_context>`` tag, a "SYSTEM:" label, "ignore
    previous instructions": :func:`~memori_core.capture.prompt_markup_in`), as capture refuses it: both checks are
    :func:`~memori_core.capture.refused_because`, the one check capture refuses by."""
    text = user_subject(check_tool_text(text, name))
    if not _NAMES_THE_USER.search(text):
        text = rewrite(text) or text
    refusal = refused_because(text)
    if refusal is not None:
        advice = "tell the user it was not remembered" if refusal.kind == SECRET else "save the statement alone"
        raise MemoryToolError(f"{name} carries {refusal.carries}; {refusal.not_kept}, so nothing was saved: {advice}")
    return text


_NAMES_THE_USER = re.compile(r"\buser\b", re.IGNORECASE)  # a text naming the user whose "I" is someone else


def check_tool_id(fact_id: Any, name: str = "fact_id") -> str:
    """``fact_id`` stripped, if it is a non-blank ``str`` (``name``: the argument, as the error names it)."""
    if not isinstance(fact_id, str) or not fact_id.strip():
        raise MemoryToolError(f"{name} must be the non-blank id of a remembered fact (from recall or remember)")
    return fact_id.strip()


def check_editable_id(fact_id: Any, name: str = "fact_id") -> str:
    """``fact_id`` (:func:`check_tool_id`), unless it is the id of an earlier version of a fact (``<id>@v<n>``,
    :func:`~memori_core.engine.is_version_id`): history the model reads but neither edits nor deletes."""
    fact_id = check_tool_id(fact_id, name)
    current = version_of(fact_id)
    if current is not None:
        raise MemoryToolError(f"{name} {fact_id!r} is an earlier version of fact {current!r}, kept as its history, "
                              f"which tools do not change: use the fact's own id {current!r}")
    return fact_id


def validation_problems(exc: Exception) -> str:
    """A pydantic ``ValidationError`` as the model reads it: each problem as ``field: message``, ``; ``-joined,
    without pydantic's links, input echoes or ``Value error,`` prefixes (the LangChain tools, the MCP server)."""
    problems = []
    for error in exc.errors(include_url=False, include_input=False):  # type: ignore[attr-defined]
        # a list item as the tools' own checks name it: facts[1], not pydantic's facts.1
        where = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in error.get("loc", ())).lstrip(".")
        message = str(error.get("msg", "")).removeprefix("Value error, ")
        problems.append(f"{where}: {message}" if where else message)
    return "; ".join(problems)


def replaced_error(exc: ReplacedFactError, names: dict[str, str] = TOOL_NAMES) -> MemoryToolError:
    """What a model reads when it gave a new text to a fact a newer one replaced (``engine.update`` raised ``exc``):
    nothing was changed, the fact that holds now (its id and text), and which tool to call (``names``: the
    surface's tool names by operation, :data:`TOOL_NAMES` or the MCP server's)."""
    when = format_timestamp(exc.ended_at) or exc.ended_at
    old, current = exc.fact_id, exc.current
    if current is None:
        return MemoryToolError(
            f"fact_id {old!r} is no longer valid: it was replaced on {when} by a fact deleted since. Nothing was "
            f"updated (a replaced fact is history). Call {names['remember']} with the new text, or "
            f"{names['restore']} with fact_id {old!r} to make it valid again first.")
    return MemoryToolError(
        f"fact_id {old!r} is no longer valid: fact {current.id} replaced it on {when} and holds now: "
        f"{clip_fact(sanitize_fact(current.content))} Nothing was updated (a replaced fact is history). To change "
        f"what holds now, call {names['update']} with fact_id {current.id!r}; if the old fact holds again too, "
        f"call {names['restore']} with fact_id {old!r} first.")


def _unknown(fact_id: str) -> MemoryToolError:
    return MemoryToolError(f"this user has no remembered fact with id {fact_id!r}: call recall to find the id")


def _when_notes(fact: RecalledFact | StoredFact, tz: tzinfo | None) -> list[str]:
    """``stated TIME`` (when the current text was stated) and, for a change told ahead, ``holds from START``."""
    notes = [f"stated {when}"] if (when := format_timestamp(fact.stated_at, tz=tz)) else []
    if fact.starts_at and (start := format_timestamp(fact.starts_at, tz=tz)):
        notes.append(f"holds from {start}")
    return notes


def format_recalled(facts: list[RecalledFact], tz: tzinfo | None = None) -> str:
    """The recall tool's answer: one line per fact, ``- [id] text (stated TIME)``, best first (TIME: when the
    current text was stated, :attr:`~memori_core.RecalledFact.stated_at`, in UTC, or in the turn's zone ``tz``
    as the ``<memori_context>`` block writes it: :func:`~memori_core.context.format_timestamp`); a change told
    ahead adds ``; holds from START`` (:attr:`~memori_core.RecalledFact.starts_at`)."""
    if not facts:
        return NOTHING_RELEVANT
    lines = ["Relevant memories about the user, best first:"]
    for fact in facts:
        notes = _when_notes(fact, tz)
        said = f" ({'; '.join(notes)})" if notes else ""
        lines.append(f"- [{fact.id}] {clip_fact(sanitize_fact(fact.content))}{said}")
    return "\n".join(lines)


@dataclass(frozen=True)
class MemoryTools:
    """The four memory operations of an agent's tools over ``engine``, for the entity each call names.

    ``k`` caps the facts recall returns (``None``: the engine's ``config.limit``);
    ``timeout`` (seconds; default ``None``: no limit but the store's per request) bounds each whole recall, as
    an adapter's ``timeout=`` does (:func:`~memori_core.time_limit.check_timeout`): past it recall answers
    :data:`UNAVAILABLE` (``strict=True`` raises :class:`~memori_core.time_limit.RecallTimedOut`) while the recall
    finishes in the background and serves the next call; writes are not bounded by it;
    ``strict=False`` answers a memory failure with :data:`UNAVAILABLE` (logged as a
    warning on ``owner``'s behalf), or, for a write that may have reached the store,
    with what reading the fact back finds (:data:`OUTCOME_UNKNOWN` when that read fails
    too); ``strict=True`` raises it (the caller then reads back). Each method has an
    ``a``-prefixed async twin over the engine's async methods.
    """

    engine: RecallEngine
    k: int | None = None
    strict: bool = STRICT_DEFAULT
    owner: str = "memory tools"
    log: logging.Logger = field(default=logger, repr=False)
    timeout: float | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "timeout", check_timeout(self.timeout, self.owner))

    # -- the failure policy, one place for the sync and the async calls ----------------------------
    # ``call`` is given the attempt, so that work outliving ``timeout`` can settle it (FailOpenCall.outlived).
    def _guard(self, entity_id: str, what: str, done: str, call: Callable[[FailOpenCall], T],
               answer: Callable[[T], str],
               read_back: Callable[[Exception], str] | None = None) -> str:
        attempt = self._attempt(entity_id, what)
        if attempt.skipped:
            return UNAVAILABLE.format(error=attempt.error, done=done)
        try:
            with attempt.reaching():
                result = call(attempt)
        except Exception as exc:
            answered = self._failed(attempt, done, exc, read_back)
            if isinstance(answered, str):
                return answered
            try:  # the write may have landed: what the store holds now is the answer
                return within(answered, self._read_back_limit(attempt))
            except Exception as again:  # noqa: BLE001 - the store failed the read too: say so, not a guess
                return self._unknown_outcome(attempt, what, done, exc, again)
        attempt.succeeded()
        return answer(result)

    async def _aguard(self, entity_id: str, what: str, done: str, call: Callable[[FailOpenCall], Awaitable[T]],
                      answer: Callable[[T], str], read_back: Callable[[Exception], str] | None = None) -> str:
        attempt = self._attempt(entity_id, what)
        if attempt.skipped:
            return UNAVAILABLE.format(error=attempt.error, done=done)
        try:
            with attempt.reaching():
                result = await call(attempt)
        except Exception as exc:
            answered = self._failed(attempt, done, exc, read_back)
            if isinstance(answered, str):
                return answered
            try:  # the write may have landed: what the store holds now is the answer
                return await awithin(answered, self._read_back_limit(attempt))
            except Exception as again:  # noqa: BLE001 - the store failed the read too: say so, not a guess
                return self._unknown_outcome(attempt, what, done, exc, again)
        attempt.succeeded()
        return answer(result)

    @staticmethod
    def _read_back_limit(attempt: FailOpenCall) -> float:
        return attempt.limit if attempt.limit is not None else READ_BACK_SECONDS

    def _unknown_outcome(self, attempt: FailOpenCall, what: str, done: str, exc: Exception,
                         again: Exception) -> str:
        self.log.warning("%s: reading back the %s for entity %r after it failed (%s) failed too (%s); the outcome "
                         "is unknown", self.owner, what, attempt.entity_id, _name(exc), _name(again))
        return OUTCOME_UNKNOWN.format(what=what, error=_name(exc), done=done)

    def _attempt(self, entity_id: str, what: str) -> FailOpenCall:
        """The call through the engine's outage breaker: skipped at once while an outage is waited out."""
        return FailOpenCall(self.engine, strict=self.strict, owner=self.owner, logger=self.log, what=what,
                            entity_id=entity_id)

    def _failed(self, attempt: FailOpenCall, done: str, exc: Exception,
                read_back: Callable[[Exception], str] | None) -> str | Callable[[], str]:
        """What a call that raised ``exc`` answers: the agent's mistake (a :class:`MemoryToolError`, or the
        ``KeyError`` of an id the user has no fact with) is raised as it is; any other failure says that memory
        is unavailable (raised when strict), but for a write (a call with a ``read_back``) that may have reached
        the store: ``read_back`` of ``exc``, the read of its outcome, for the guard to run within its limit."""
        if isinstance(exc, (MemoryToolError, KeyError)):
            attempt.ended()
            raise exc
        if read_back is None or isinstance(exc, NotReached):  # NotReached: its first request was never sent
            attempt.failed(exc, instead="answered that memory is unavailable")  # raises when strict
            return UNAVAILABLE.format(error=_name(exc), done=done)
        attempt.failed(exc, instead="read back what the store holds")  # raises when strict
        return functools.partial(read_back, exc)

    # -- remember ---------------------------------------------------------------------------------
    def remember(self, entity_id: str, text: Any, core: Any = None, *, said_at: datetime | None = None,
                 session_id: str | None = None) -> str:
        """Store ``text`` as one of ``entity_id``'s facts (a leading "The user" written "User", as capture writes
        it: :func:`check_fact_text`), as a model's write (:mod:`memori_core.tool_writes`): not again when a valid
        fact says it already (answered with that fact's id), ending the facts it replaces (named in the answer),
        core when it is a care fact unless ``core`` (``True`` / ``False``) says otherwise. ``said_at``: when the
        turn the tool runs in was said, when its caller knows it (the LangChain tools read it from the agent's
        state), the fact's ``created_at`` as capture dates the same turn's facts; ``None`` (or a time to come):
        now. ``session_id``: the conversation it runs in (the LangChain tools give the run's thread), stored as the
        fact's session as capture stores the same turn's facts."""
        text, core, when = check_fact_text(text), check_core_arg(core), said_before_now(said_at)
        return self._guard(entity_id, "remember", "saved",
                           lambda _: self._write(entity_id, text, core, when, session_id),
                           _remembered, lambda exc: self._remembered_after(entity_id, text, exc, when))

    async def aremember(self, entity_id: str, text: Any, core: Any = None, *, said_at: datetime | None = None,
                        session_id: str | None = None) -> str:
        """Async :meth:`remember`."""
        text, core, when = check_fact_text(text), check_core_arg(core), said_before_now(said_at)
        return await self._aguard(entity_id, "remember", "saved",
                                  lambda _: self._awrite(entity_id, text, core, when, session_id),
                                  _remembered, lambda exc: self._remembered_after(entity_id, text, exc, when))

    def _write(self, entity_id: str, text: str, core: bool | None, said_at: datetime | None = None,
               session_id: str | None = None) -> tuple[ToolWrite, str]:
        # One writer of the user's statements at a time: a capture of the same fact, running meanwhile, is seen
        # by the plan or sees this write (memori_core.capture.statements).
        with STATEMENTS.held(entity_id):
            plan = replace(plan_write(self.engine, entity_id, text, core, said_at), session_id=session_id)
            if plan.same is not None and plan.to_come is None:
                if _recore(plan, core):
                    self.engine.update(entity_id, plan.same.id, core=plan.core)
                return plan, plan.same.id
            began = time.time_ns()
            plan, ids = store_plan(self.engine, entity_id, plan, said_at)
            plan, fid = plan.stored_as(ids), ids[0]
            if plan.ends:  # read back: another process may have ended them too, or they were stated after said_at
                plan = replace(plan, instead=held_instead(self.engine, entity_id, fid))
            return _settled(plan, fid, settle_repeats(self.engine, entity_id, [fid], began))

    async def _awrite(self, entity_id: str, text: str, core: bool | None, said_at: datetime | None = None,
                      session_id: str | None = None) -> tuple[ToolWrite, str]:
        async with STATEMENTS.aheld(entity_id):
            plan = replace(await aplan_write(self.engine, entity_id, text, core, said_at), session_id=session_id)
            if plan.same is not None and plan.to_come is None:
                if _recore(plan, core):
                    await self.engine.aupdate(entity_id, plan.same.id, core=plan.core)
                return plan, plan.same.id
            began = time.time_ns()
            plan, ids = await astore_plan(self.engine, entity_id, plan, said_at)
            plan, fid = plan.stored_as(ids), ids[0]
            if plan.ends:
                plan = replace(plan, instead=await aheld_instead(self.engine, entity_id, fid))
            return _settled(plan, fid, await asettle_repeats(self.engine, entity_id, [fid], began))

    def _remembered_after(self, entity_id: str, text: str, exc: Exception, said_at: datetime | None = None) -> str:
        """After a failed remember: whether the store holds ``text`` now (as a plan is stored, its day written
        out as of the write's time ``said_at``, ``None``: now: :func:`~memori_core.tool_writes.dated_as_told`),
        read under its derived id."""
        text = dated_as_told(text, said_at)[0]
        fid = derived_fact_id(text)
        found = self.engine.store.get(entity_id, [fid])
        if found and normalize_fact_text(found[0].content) == normalize_fact_text(text):
            return f"Remembered as fact {fid}: {text} (confirmed by reading it back after an error: {_name(exc)})"
        if found:  # the id holds a fact since updated to another text: this one went under another id, or not
            return OUTCOME_UNKNOWN.format(what="remember", error=_name(exc), done="saved")
        return f"Not saved ({_name(exc)}): read back just now, memory does not hold it.{_hint(exc)}"

    # -- list -------------------------------------------------------------------------------------
    def list(self, entity_id: str, offset: Any = 0, limit: Any = DEFAULT_PAGE, *, tz: tzinfo | None = None) -> str:
        """A page of ``entity_id``'s valid facts, newest first, with their ids (:func:`format_listed`; ``tz``: the
        zone of the turn the tool answers, its times' zone, ``None``: UTC)."""
        offset, limit = check_page(offset, limit)
        return self._guard(entity_id, "list", "listed",
                           lambda _: self.engine.list(entity_id, limit=limit + 1, offset=offset),
                           lambda page: format_listed(page, offset, limit, tz))

    async def alist(self, entity_id: str, offset: Any = 0, limit: Any = DEFAULT_PAGE, *,
                    tz: tzinfo | None = None) -> str:
        """Async :meth:`list`."""
        offset, limit = check_page(offset, limit)
        return await self._aguard(entity_id, "list", "listed",
                                  lambda _: self.engine.alist(entity_id, limit=limit + 1, offset=offset),
                                  lambda page: format_listed(page, offset, limit, tz))

    # -- restore ----------------------------------------------------------------------------------
    def restore(self, entity_id: str, fact_id: Any, *, said_at: datetime | None = None) -> str:
        """Make ``entity_id``'s fact ``fact_id``, which a newer fact replaced, valid again (``engine.restore``).
        ``said_at``: when the turn was said (as :meth:`remember`'s), the time of the restore; ``None``: now."""
        fact_id, at = check_tool_id(fact_id), said_before_now(said_at)
        try:
            return self._guard(entity_id, "restore", "restored",
                               lambda _: _restoring(lambda: self.engine.restore(entity_id, fact_id, at=at), entity_id,
                                                    fact_id, lambda: self.engine.history(entity_id, fact_id)),
                               _restored)
        except KeyError:
            raise _unknown(fact_id) from None

    async def arestore(self, entity_id: str, fact_id: Any, *, said_at: datetime | None = None) -> str:
        """Async :meth:`restore`."""
        fact_id, at = check_tool_id(fact_id), said_before_now(said_at)

        async def run(_: FailOpenCall) -> StoredFact:
            try:
                return await self.engine.arestore(entity_id, fact_id, at=at)
            except ValueError as exc:
                rows = await self.engine.ahistory(entity_id, fact_id) if isinstance(exc, NothingToRestoreError) else []
                raise restore_refusal(exc, entity_id, fact_id, lambda: rows) from None

        try:
            return await self._aguard(entity_id, "restore", "restored", run, _restored)
        except KeyError:
            raise _unknown(fact_id) from None

    # -- cancel -----------------------------------------------------------------------------------
    def cancel(self, entity_id: str, fact_id: Any, *, said_at: datetime | None = None) -> str:
        """Call off ``entity_id``'s change told ahead ``fact_id`` before its start (``engine.cancel``: the facts it
        was to replace hold on), or the changes still to come the fact ``fact_id`` told
        (:func:`~memori_core.capture.called_off.told_it`: "User got a job at Deloitte, starting Nov 1."), with the
        facts that told them (:func:`~memori_core.capture.called_off.plans_of`), as capture calls one off. A fact
        that is no change to come and told none: :class:`MemoryToolError`, nothing written. ``said_at``: when the
        turn was said (as :meth:`remember`'s), the time it is called off; ``None``: now."""
        fact_id, at = check_editable_id(fact_id), said_before_now(said_at)
        planned: list[str] = []
        try:
            return self._guard(entity_id, "cancel", "called off", lambda _: self._call_off(entity_id, fact_id, at,
                                                                                           planned),
                               _called_off, lambda exc: self._called_off_after(entity_id, fact_id, planned, exc))
        except KeyError:
            raise _unknown(fact_id) from None

    async def acancel(self, entity_id: str, fact_id: Any, *, said_at: datetime | None = None) -> str:
        """Async :meth:`cancel` (its reads and writes on a thread of their own, which runs to its end even when the
        caller is cancelled, as the engine's writes do)."""
        fact_id, at = check_editable_id(fact_id), said_before_now(said_at)
        planned: list[str] = []

        async def run(_: FailOpenCall) -> list[_CalledOff]:
            return await asyncio.to_thread(self._call_off, entity_id, fact_id, at, planned)

        try:
            return await self._aguard(entity_id, "cancel", "called off", run, _called_off,
                                      lambda exc: self._called_off_after(entity_id, fact_id, planned, exc))
        except KeyError:
            raise _unknown(fact_id) from None

    def _call_off(self, entity_id: str, fact_id: str, at: datetime | None, planned: list[str]) -> list[_CalledOff]:
        now = (at or datetime.now(timezone.utc)).timestamp()
        got = self.engine.get(entity_id, [fact_id])
        if not got:
            raise KeyError(fact_id)
        named = got[0]
        changes = [named] if is_to_come(named, now) else [
            c for c in self.engine.list(entity_id, include_invalid=True, limit=10_000,
                                        where={"valid_from": {"$gt": datetime.fromtimestamp(now, timezone.utc)
                                                              .isoformat()}})
            if is_to_come(c, now) and told_it(named, c)]
        if not changes:
            raise _nothing_to_cancel(named)
        planned[:] = [c.id for c in changes]
        out = []
        for change in changes:
            plans = plans_of(self.engine, entity_id, change)
            olds = self.engine.get(entity_id, list(change.supersedes)) if change.supersedes else []
            told = self.engine.get(entity_id, plans) if plans else []
            try:
                ended = self.engine.cancel(entity_id, change.id, told_by=plans, at=at)
            except ValueError as exc:  # started meanwhile, or the turn's time is before the change was told
                raise MemoryToolError(f"{str(exc).replace(f' of entity {entity_id!r}', '')}; nothing was called "
                                      "off") from None
            out.append(_CalledOff(ended, tuple(o for o in olds if o.superseded_by == change.id),
                                  tuple(t for t in told if t.valid_to is None)))
        return out

    def _called_off_after(self, entity_id: str, fact_id: str, planned: Sequence[str], exc: Exception) -> str:
        """After a failed cancel: whether the changes it was to call off (``planned``) are ended now (none found
        yet: it failed before any write)."""
        if not planned:
            return UNAVAILABLE.format(error=_name(exc), done="called off")
        found = self.engine.store.get(entity_id, list(planned)) if planned else []
        if found and all(f.valid_to is not None for f in found):
            ids = ", ".join(f.id for f in found)
            return f"Called off fact {ids} (confirmed by reading it back after an error: {_name(exc)})."
        return (f"Nothing was called off for fact {fact_id} ({_name(exc)}): read back just now, the change still "
                f"holds from its start.{_hint(exc)}")

    # -- recall -----------------------------------------------------------------------------------
    def recall(self, entity_id: str, query: Any, *, tz: tzinfo | None = None) -> str:
        """``entity_id``'s facts relevant to ``query`` (:func:`format_recalled`; ``tz`` as :meth:`list`), or
        :data:`NOTHING_RELEVANT`; for a question about what memory holds ("What do you know about me?":
        :func:`~memori_core.meta_questions.asks_what_memory_holds`), the first page of :meth:`list`. A query that
        names "the user" (a model's "user allergies") is read as the user would ask it ("my allergies":
        :func:`~memori_core.tool_queries.as_the_user_asks`, a courtesy turn read with the engine's analyzer)."""
        query = self._as_the_user_asks(check_tool_text(query, "query"))
        if asks_what_memory_holds(query):
            return self._guard(entity_id, "recall", "recalled",
                               lambda _: newest_unexpired(self.engine, entity_id, self._meta_page()),
                               lambda held: format_held(held, tz))
        return self._guard(entity_id, "recall", "recalled",
                           lambda attempt: list(within(lambda: self.engine.recall(query, entity_id, self.k),
                                                       self.timeout, attempt.outlived)),
                           lambda facts: format_recalled(facts, tz))

    async def arecall(self, entity_id: str, query: Any, *, tz: tzinfo | None = None) -> str:
        """Async :meth:`recall`."""
        query = self._as_the_user_asks(check_tool_text(query, "query"))
        if asks_what_memory_holds(query):
            return await self._aguard(entity_id, "recall", "recalled",
                                      lambda _: anewest_unexpired(self.engine, entity_id, self._meta_page()),
                                      lambda held: format_held(held, tz))
        return await self._aguard(entity_id, "recall", "recalled",
                                  lambda attempt: arecall_within(self.engine, query, entity_id, self.k, {},
                                                                 self.timeout, attempt.outlived),
                                  lambda facts: format_recalled(facts, tz))

    def _as_the_user_asks(self, query: str) -> str:
        """:func:`~memori_core.tool_queries.as_the_user_asks` of ``query``, a courtesy turn read with the engine's
        analyzer (its config's ``tokenizer`` and ``stemmer``)."""
        config = self.engine.config
        return as_the_user_asks(query, tokenizer=config.tokenizer, stemmer=config.stemmer)

    def _meta_page(self) -> int:
        """How many facts recall lists for a question about what memory holds: :data:`DEFAULT_PAGE`, or ``k``
        when larger."""
        return min(MAX_PAGE, max(DEFAULT_PAGE, self.k or 0))

    # -- update -----------------------------------------------------------------------------------
    def update(self, entity_id: str, fact_id: Any, text: Any, *, said_at: datetime | None = None) -> str:
        """Replace the text of ``entity_id``'s fact ``fact_id`` (an unknown id, or a fact a newer one replaced:
        :class:`MemoryToolError`, the latter naming the fact that holds now: :func:`replaced_error`). The new text
        is dated as :meth:`remember` dates one (:func:`~memori_core.tool_writes.edit_dated`): a plan's day written
        out and its expiry set to it; a plain text keeps the fact's expiry. ``said_at``: when the turn was said (as
        :meth:`remember`'s), from when the new text holds; ``None``: now."""
        fact_id, at = check_editable_id(fact_id), said_before_now(said_at)
        text, expiry = edit_dated(check_fact_text(text), at)

        def run(_: FailOpenCall) -> StoredFact:
            try:
                return self.engine.update(entity_id, fact_id, text=text, at=at, **expiry)
            except ReplacedFactError as exc:
                raise replaced_error(exc) from None
            except ValueError as exc:  # the turn's time is before the fact was stated
                raise MemoryToolError(f"{exc}; nothing was changed") from None

        try:
            return self._guard(entity_id, "update", "changed", run, _updated,
                               lambda exc: self._updated_after(entity_id, fact_id, text, exc))
        except KeyError:
            raise _unknown(fact_id) from None

    async def aupdate(self, entity_id: str, fact_id: Any, text: Any, *, said_at: datetime | None = None) -> str:
        """Async :meth:`update`."""
        fact_id, at = check_editable_id(fact_id), said_before_now(said_at)
        text, expiry = edit_dated(check_fact_text(text), at)

        async def run(_: FailOpenCall) -> StoredFact:
            try:
                return await self.engine.aupdate(entity_id, fact_id, text=text, at=at, **expiry)
            except ReplacedFactError as exc:
                raise replaced_error(exc) from None
            except ValueError as exc:  # the turn's time is before the fact was stated
                raise MemoryToolError(f"{exc}; nothing was changed") from None

        try:
            return await self._aguard(entity_id, "update", "changed", run, _updated,
                                      lambda exc: self._updated_after(entity_id, fact_id, text, exc))
        except KeyError:
            raise _unknown(fact_id) from None

    def _updated_after(self, entity_id: str, fact_id: str, text: str, exc: Exception) -> str:
        """After a failed update: what fact ``fact_id`` says now, read from the store."""
        found = self.engine.store.get(entity_id, [fact_id])
        if not found:
            return (f"The update of fact {fact_id} failed ({_name(exc)}), and read back just now, memory holds no "
                    f"fact {fact_id} any more. Call recall_memory to see what is stored.")
        now = clip_fact(sanitize_fact(found[0].content))
        if normalize_fact_text(found[0].content) == normalize_fact_text(text):
            return f"Updated fact {fact_id}: {now} (confirmed by reading it back after an error: {_name(exc)})"
        return (f"Fact {fact_id} was not updated ({_name(exc)}): read back just now, it still says: {now}"
                f"{_hint(exc)}")

    # -- forget -----------------------------------------------------------------------------------
    def forget(self, entity_id: str, fact_id: Any, *, said_at: datetime | None = None) -> str:
        """Delete ``entity_id``'s fact ``fact_id`` and its earlier versions (:func:`with_earlier_versions`), and the
        other valid facts that say the same (:func:`~memori_core.tool_writes.copies_of`: recall showed them as
        one) with theirs (an unknown id: :class:`MemoryToolError`). A change told ahead forgotten before its start
        never starts: the facts it was to end hold on, and the facts that told it
        (:func:`~memori_core.capture.called_off.plans_of`) are ended, as :meth:`cancel` ends them. ``said_at``: when
        the turn was said (as :meth:`remember`'s), the time of the delete; ``None``: now."""
        fact_id, at = check_editable_id(fact_id), said_before_now(said_at)
        planned: list[str] = []  # the ids the delete was for, once known
        copies: list[str] = []

        def erase(_: FailOpenCall) -> list[str]:
            try:
                history = self.engine.history(entity_id, fact_id)
            except KeyError:
                return []
            copies[:] = copies_of(self.engine, entity_id, fact_id, _current_text(history, fact_id))
            planned[:] = with_earlier_versions(history, fact_id, now=at)
            for copy in copies:
                planned.extend(with_earlier_versions(self.engine.history(entity_id, copy), copy, now=at))
            change = _to_come(history, fact_id)
            plans = [p for p in plans_of(self.engine, entity_id, change) if p not in planned] if change else []
            try:
                return self.engine.delete(entity_id, list(dict.fromkeys(planned)), told_by=plans, at=at)
            except NothingToCancelError:
                raise
            except ValueError as exc:  # the turn's time is before a fact it deletes was stated
                raise MemoryToolError(f"{exc}; nothing was deleted") from None

        return self._guard(entity_id, "forget", "deleted", erase, lambda ids: _forgot(ids, fact_id, copies),
                           lambda exc: self._forgotten_after(entity_id, fact_id, planned, exc))

    async def aforget(self, entity_id: str, fact_id: Any, *, said_at: datetime | None = None) -> str:
        """Async :meth:`forget`."""
        fact_id, at = check_editable_id(fact_id), said_before_now(said_at)
        planned: list[str] = []
        copies: list[str] = []

        async def erase(_: FailOpenCall) -> list[str]:
            try:
                history = await self.engine.ahistory(entity_id, fact_id)
            except KeyError:
                return []
            copies[:] = await acopies_of(self.engine, entity_id, fact_id, _current_text(history, fact_id))
            planned[:] = with_earlier_versions(history, fact_id, now=at)
            for copy in copies:
                planned.extend(with_earlier_versions(await self.engine.ahistory(entity_id, copy), copy, now=at))
            change = _to_come(history, fact_id)
            told = await asyncio.to_thread(plans_of, self.engine, entity_id, change) if change else []
            plans = [p for p in told if p not in planned]
            try:
                return await self.engine.adelete(entity_id, list(dict.fromkeys(planned)), told_by=plans, at=at)
            except NothingToCancelError:
                raise
            except ValueError as exc:  # the turn's time is before a fact it deletes was stated
                raise MemoryToolError(f"{exc}; nothing was deleted") from None

        return await self._aguard(entity_id, "forget", "deleted", erase, lambda ids: _forgot(ids, fact_id, copies),
                                  lambda exc: self._forgotten_after(entity_id, fact_id, planned, exc))

    def _forgotten_after(self, entity_id: str, fact_id: str, planned: Sequence[str], exc: Exception) -> str:
        """After a failed forget: which of the ids it was to delete (``planned``; just ``fact_id`` when its history
        was never read) the store still holds."""
        ids = planned or [fact_id]
        left = set(self.engine.store.present(entity_id, ids))
        if fact_id in left:
            return (f"Fact {fact_id} was not deleted ({_name(exc)}): read back just now, memory still holds it."
                    f"{_hint(exc)}")
        earlier = len(ids) - 1
        if not left:
            of = f" and {earlier} earlier version{'s' * (earlier != 1)} of it" if earlier else ""
            return f"Forgot fact {fact_id}{of} (confirmed by reading it back after an error: {_name(exc)})."
        return (f"Forgot fact {fact_id}, but {len(left)} of its {earlier} earlier versions are still stored after an "
                f"error ({_name(exc)}); they are history recall does not show.")


def with_earlier_versions(history: Sequence[StoredFact], fact_id: str, now: datetime | None = None) -> list[str]:
    """``fact_id`` and the ids of the versions of its ``history`` (``engine.history``) no longer valid: what the
    agent tools and the MCP server delete for it. A user who asks to forget where they live means the address they
    had before too (``User lives in Lisbon.``, superseded by ``User lives in Madrid.``), which recall never shows a
    model, so a model could not delete it itself. A fact that holds still, to be ended by a change told ahead at
    its start ("User works at Bosch." until the job at Siemens begins), is no earlier version and stays, and so
    does the history behind it: after "Lisbon" -> "Lisbon with Sam" -> "Porto" and a restore of "Lisbon with Sam",
    forgetting "Porto" leaves "Lisbon", which "Lisbon with Sam" replaced, and the period "Porto" replaced it for,
    as that fact's history (the links are followed from ``fact_id`` through facts no longer valid only).
    ``now``: the time the delete is told at (a replayed chat's), judged as the engine judges it; ``None``: now."""
    at = time.time() if now is None else now.timestamp()
    holding = {f.id for f in history if f.id != fact_id and (f.valid_to is None or iso_to_ts(f.valid_to) > at)}
    # a version row of a fact that holds (the period a restore kept) is that fact's history, not this one's
    ended = {f.id for f in history if f.id != fact_id and f.id not in holding and version_of(f.id) not in holding}
    links: dict[str, set[str]] = {}
    for f in history:
        others = [f.superseded_by, *f.supersedes, version_of(f.id)]
        for other in filter(None, others):
            links.setdefault(f.id, set()).add(other)
            links.setdefault(other, set()).add(f.id)
    reached, todo = [fact_id], [fact_id]
    while todo:
        for other in sorted(links.get(todo.pop(), ())):
            if other in ended and other not in reached:
                reached.append(other)
                todo.append(other)
    return [fact_id, *(f.id for f in history if f.id in reached and f.id != fact_id)]


def _to_come(history: Sequence[StoredFact], fact_id: str) -> StoredFact | None:
    """Fact ``fact_id`` from its ``history`` when it is a change told ahead whose start has not come, else ``None``."""
    fact = next((f for f in history if f.id == fact_id), None)
    return fact if fact is not None and is_to_come(fact, time.time()) else None


def _name(exc: BaseException) -> str:
    """What failed, for a model: the store's own error behind a :class:`WriteOutcomeUnknown` (a ``ReadTimeout``)."""
    if isinstance(exc, WriteOutcomeUnknown) and exc.__cause__ is not None:
        exc = exc.__cause__
    return type(exc).__name__


def _hint(exc: Exception) -> str:
    """:data:`MAY_STILL_LAND` when ``exc`` may have left the write in flight (a timeout, a dropped connection)."""
    return MAY_STILL_LAND if is_outage(exc) else ""


def _updated(fact: StoredFact) -> str:
    return f"Updated fact {fact.id}: {fact.content}"


def _forgot(deleted: list[str], fact_id: str, copies: Sequence[str] = ()) -> str:
    if not deleted:
        raise _unknown(fact_id)
    gone = set(deleted)
    erased = [c for c in copies if c in gone]
    earlier = len(deleted) - (fact_id in gone) - len(erased)
    said = f"Forgot fact {fact_id}" + (f" and {earlier} earlier version{'s' * (earlier != 1)} of it" if earlier else "")
    if erased:
        said += f", and {len(erased)} other fact{'s' * (len(erased) != 1)} saying the same ({', '.join(erased)})"
    return said + "."


def _current_text(history: Sequence[StoredFact], fact_id: str) -> str:
    """The text fact ``fact_id`` says now, from its ``history`` (oldest first, the fact itself among them)."""
    return next((f.content for f in reversed(history) if f.id == fact_id), history[-1].content if history else "")


def check_core_arg(core: Any) -> bool | None:
    """``core`` of a remember call: ``None`` (capture's rule decides) or a bool."""
    if core is not None and not isinstance(core, bool):
        raise MemoryToolError(f"core must be true or false (or left out), got {type(core).__name__}")
    return core


def check_page(offset: Any, limit: Any) -> tuple[int, int]:
    """``offset`` (>= 0) and ``limit`` (1 to :data:`MAX_PAGE`) of a list call, as ints."""
    for name, value, low in (("offset", offset, 0), ("limit", limit, 1)):
        too_many = name == "limit" and isinstance(value, int) and value > MAX_PAGE
        if isinstance(value, bool) or not isinstance(value, int) or value < low or too_many:
            bounds = f"1 to {MAX_PAGE}" if name == "limit" else ">= 0"
            raise MemoryToolError(f"{name} must be an integer {bounds}, got {value!r}")
    return offset, limit


NOTHING_STORED = "No facts about this user are stored."
"""The list tool's answer when the user has no (more) facts."""


def format_listed(page: Sequence[StoredFact], offset: int, limit: int, tz: tzinfo | None = None) -> str:
    """The list tool's answer: one line per fact, newest first, and how to see the next page. ``page`` is up to
    ``limit + 1`` facts from ``offset`` (one more than shown: whether another page follows). Times are in UTC, or
    in the turn's zone ``tz``; a change told ahead says when it holds from (:func:`format_recalled`)."""
    shown = list(page[:limit])
    if not shown:
        return NOTHING_STORED if offset == 0 else f"No more facts about this user (offset {offset})."
    lines = [f"Facts stored about the user, newest first ({offset + 1} to {offset + len(shown)}):"]
    now = time.time()
    lines += [_listed_line(fact, tz, now) for fact in shown]
    if len(page) > limit:
        lines.append(f"More are stored: call list_memories with offset={offset + len(shown)}.")
    return "\n".join(lines)


def _listed_line(fact: StoredFact, tz: tzinfo | None, now: float | None = None) -> str:
    """One listed fact: its id, text and times."""
    # an expired fact is still stored (and listed, so it can be forgotten), but no longer holds: a trip that
    # ended reads as history, not as a plan
    notes = _when_notes(fact, tz)
    if fact.is_expired(time.time() if now is None else now):
        notes.append(f"expired {format_timestamp(fact.expires_at, tz=tz)}, no longer current")
    said = f" ({'; '.join(notes)})" if notes else ""
    return f"- [{fact.id}] {clip_fact(sanitize_fact(fact.content))}{said}"


def format_held(held: HeldPage, tz: tzinfo | None = None) -> str:
    """The answer to a question about what memory holds: the user's newest unexpired facts, one line each as
    :func:`format_listed` gives them, and where the list goes on when more unexpired facts are stored."""
    if not held.facts:
        return NOTHING_STORED
    lines = [f"Facts stored about the user, newest first (1 to {len(held.facts)}):"]
    lines += [_listed_line(f, tz) for f in held.facts]
    if held.next_offset is not None:
        lines.append(f"More are stored: call list_memories with offset={held.next_offset}.")
    return "\n".join(lines)


def _remembered(done: tuple[ToolWrite, str]) -> str:
    plan, fid = done
    if plan.same is not None:
        said = f"Already remembered as fact {fid}: {clip_fact(sanitize_fact(plan.same.content))} (not stored again)"
        if plan.to_come_id is None:
            return said
    else:
        said = f"Remembered as fact {fid}: {plan.text}"
    if told_late(plan.ends, plan.instead):  # stated before the fact it was to end: it landed in that one's past
        assert plan.instead is not None
        when = format_timestamp(plan.instead.stated_at)
        return (f"{said}\nBut it was said before fact {plan.instead.id}: "
                f"{clip_fact(sanitize_fact(plan.instead.content))} (stated {when or 'later'}), which therefore "
                f"holds now; fact {fid} is kept as its history, not current (if fact {fid} is the one that holds "
                f"now, call restore_memory with fact_id {fid}, then forget_memory with fact_id {plan.instead.id})")
    if plan.instead is not None:  # a racing write of another process ended the same facts, and its fact stayed
        return (f"{said}\nBut at the same moment another write replaced "
                f"{', '.join(f'fact {old.id}' for old in plan.ends)} with fact {plan.instead.id}: "
                f"{clip_fact(sanitize_fact(plan.instead.content))}, which holds now; fact {fid} is kept as history "
                f"(if it is the one that holds, call restore_memory with fact_id {fid})")
    for old in plan.ends:
        said += (f"\nIt replaces fact {old.id}: {clip_fact(sanitize_fact(old.content))} (kept as history; if both "
                 f"still hold, call restore_memory with fact_id {old.id})")
    if plan.to_come is not None and plan.to_come_id is not None:
        start = plan.to_come.start.date().isoformat()
        said += f"\nFrom {start} on, it is fact {plan.to_come_id}: {clip_fact(sanitize_fact(plan.to_come.fact))}"
        for old in plan.to_come_ends:
            said += (f"\nThat ends fact {old.id} on {start}: {clip_fact(sanitize_fact(old.content))} (it holds "
                     f"until then; kept as history after)")
    for kid, kept in zip(plan.kept_ids, plan.keeps):  # the part of an ended compound that stays true
        said += f"\nWhat of it still holds stays remembered as fact {kid}: {clip_fact(sanitize_fact(kept))}"
    return said


def _recore(plan: ToolWrite, core: bool | None) -> bool:
    """Whether the stored fact that already says a remembered text changes its core mark: to what the call says,
    or to core when capture's rule makes the text core (a repeat never unmarks on its own)."""
    assert plan.same is not None
    now = is_core(plan.same)
    return now != core if core is not None else plan.core and not now


def _settled(plan: ToolWrite, fid: str, gone: dict[str, StoredFact]) -> tuple[ToolWrite, str]:
    """The write of ``plan`` as fact ``fid``, or, when another process stored the statement in other words at the
    same moment and that fact stayed (``gone``: :func:`~memori_core.capture.repeats.settle_repeats`), the stored
    fact that already says it."""
    keeper = gone.get(fid)
    return (plan, fid) if keeper is None else (ToolWrite(plan.text, plan.core, same=keeper), keeper.id)


def _not_restorable(exc: ValueError, entity_id: str) -> MemoryToolError:
    """A restore the fact does not need (valid already, or a version whose text it has), said without the entity."""
    return MemoryToolError(str(exc).replace(f" of entity {entity_id!r}", ""))


def _restoring(run: Callable[[], StoredFact], entity_id: str, fact_id: str,
               history: Callable[[], Sequence[StoredFact]]) -> StoredFact:
    try:
        return run()
    except ValueError as exc:
        raise restore_refusal(exc, entity_id, fact_id, history) from None


def restore_refusal(exc: ValueError, entity_id: str, fact_id: str, history: Callable[[], Sequence[StoredFact]],
                    names: dict[str, str] = TOOL_NAMES,
                    forget_call: str = "forget_memory with fact_id {fid!r}") -> MemoryToolError:
    """What a model reads when ``engine.restore`` refused (``exc``). A restore of a fact that is valid already is
    most often a model undoing a wrong replacement by the id it sees, the new fact's: the answer then names the
    facts this one replaced (``history()``: the fact's versions and linked facts, as ``engine.history`` reads them)
    and how to undo that replacement, and only the earlier versions whose text differs from the current one, since
    restoring a version with the same text is refused too (``names``: the surface's tool names by operation,
    :data:`TOOL_NAMES` or the MCP server's; ``forget_call``: how the surface deletes the one fact ``{fid}``)."""
    plain = _not_restorable(exc, entity_id)
    if not isinstance(exc, NothingToRestoreError) or version_of(fact_id) is not None:
        return plain
    rows = history()
    current = next((f for f in rows if f.id == fact_id and f.valid_to is None), None)
    if current is None:
        return plain
    fid = current.id
    replaced = [f for f in rows if f.superseded_by == fid and f.valid_to is not None and version_of(f.id) is None]
    versions = [f.id for f in rows if version_of(f.id) == fid and f.content != current.content]
    parts = [f"fact {fid!r} is valid: there is nothing to restore."]
    now = time.time()
    for old in replaced:
        when = format_timestamp(old.valid_to) or old.valid_to
        text = clip_fact(sanitize_fact(old.content))
        if iso_to_ts(old.valid_to) > now:  # a change told ahead: the old fact holds until then
            parts.append(
                f"It is to replace fact {old.id} on {when}: {text} (which holds until then). To call that change "
                f"off, call {names['cancel']} with fact_id {fid!r}.")
        else:
            parts.append(f"It replaced fact {old.id} on {when}: {text} (kept as history). To undo that "
                         f"replacement, call {names['restore']} with fact_id {old.id!r}.")
    if any(iso_to_ts(old.valid_to) <= now for old in replaced):
        # forget deletes a fact with the facts it replaced that are history then (with_earlier_versions): advised
        # per replaced fact, it would delete the next one before its restore
        parts.append(f"Restore every replaced fact that still holds first; fact {fid} stays valid too, and if it "
                     f"does not hold, call {forget_call.format(fid=fid)} after that: forgetting it deletes the "
                     "facts it replaced that are still history.")
    if versions:
        parts.append(f"To undo an update of its text, restore its earlier version: {', '.join(map(repr, versions))}.")
    if len(parts) == 1:
        parts.append("It replaced no fact that is still history, and no earlier version of it says anything else.")
    return MemoryToolError(" ".join(parts))


@dataclass(frozen=True)
class _CalledOff:
    """One change called off: the change, ended; the facts it was to replace, which hold on; the facts that told it,
    ended with it."""

    change: StoredFact
    holds_on: tuple[StoredFact, ...]
    told_by: tuple[StoredFact, ...]


def _called_off(done: Sequence[_CalledOff]) -> str:
    lines = []
    for off in done:
        start = (off.change.valid_from or "")[:10]
        lines.append(f"Called off fact {off.change.id}: {clip_fact(sanitize_fact(off.change.content))} (it was to "
                     f"hold from {start}; it never takes effect, kept as history)")
        lines += [f"Fact {o.id} holds on: {clip_fact(sanitize_fact(o.content))}" for o in off.holds_on]
        lines += [f"Fact {t.id}, which told it, is ended too: {clip_fact(sanitize_fact(t.content))}"
                  for t in off.told_by]
    return "\n".join(lines)


def _nothing_to_cancel(fact: StoredFact) -> MemoryToolError:
    why = not_to_come(fact) if fact.valid_from or fact.valid_to else "it tells no change still to come"
    return MemoryToolError(
        f"nothing matched, so nothing was called off: fact {fact.id} is no change told ahead still to come ({why}). "
        "A plan the user dropped is recorded with remember ('User cancelled the trip to Tokyo.'), which ends it; "
        "a fact a newer one replaced is made valid again with restore_memory.")


def _restored(fact: StoredFact) -> str:
    return f"Restored fact {fact.id}, valid again: {clip_fact(sanitize_fact(fact.content))}"
