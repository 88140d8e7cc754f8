"""``MemoriRecall``: long-term memory for direct provider SDK calls (find the question, recall, inject)."""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from ..adapter_args import check_adapter_args, renamed_k, renamed_k_attribute, resolve_entity_id
from ..context import format_context
from ..engine import RecallEngine
from ..facts import RecalledFact
from ..failopen import STRICT_DEFAULT, FailOpenCall
from ..query import context_turns, extract_query_and_context
from .system_prompt import check_injectable, inject_context, normalize_provider

__all__ = ["MemoriRecall"]

logger = logging.getLogger(__name__)

T = TypeVar("T")


def _in_daemon_thread(fn: Callable[[], T]) -> concurrent.futures.Future[T]:
    """Run ``fn`` in a daemon thread, so a recall that never returns cannot hold up interpreter exit."""
    future: concurrent.futures.Future[T] = concurrent.futures.Future()

    def run() -> None:
        if not future.set_running_or_notify_cancel():
            return
        try:
            future.set_result(fn())
        except BaseException as exc:  # handed to the waiting caller
            future.set_exception(exc)

    threading.Thread(target=run, name="memori-recall", daemon=True).start()
    return future


def _per_call(value: str | None, default: str | None, check: Callable[[str], str], missing: str) -> str:
    """A per-call ``value`` (checked), else the instance's ``default``; ``ValueError(missing)`` when neither is set."""
    if value is not None:
        return check(value)
    if default is None:
        raise ValueError(missing)
    return default


@dataclass(frozen=True)
class _Request:
    """One recall for an SDK call: whose facts, the call's question, and ``context`` when there are earlier turns."""

    entity_id: str
    query: str
    extra: dict[str, Any]


class MemoriRecall:
    """Recall a user's facts for a provider SDK call and write them into its system prompt.

    >>> memory = MemoriRecall(engine, entity_id="user-1")
    >>> kwargs = {"model": "gpt-4o-mini", "messages": [{"role": "user", "content": "What should I cook?"}]}
    >>> client.chat.completions.create(**memory.apply(kwargs, provider="openai"))

    The query is the call's last user turn; up to ``engine.config.context_turns``
    user turns before it go to recall as ``context`` (assistant replies, system
    prompts and tool messages are not read), so a follow-up such as "What should
    I order there?" is recalled with the turn that named the place.

    Recall never blocks the model call: if the store or the embedder fails (or
    ``timeout`` seconds pass), a warning is logged and the kwargs come back
    without memory; ``strict=True`` raises instead. Usage errors (no entity,
    an unknown provider, a kwargs shape the provider cannot take) always raise.
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
        limit: int | None = None,
    ) -> None:
        """``entity_id`` and ``provider`` are defaults that each call may override; ``k`` (how many facts)
        defaults to the engine's ``config.limit`` (``limit=`` is its deprecated name); ``timeout`` (seconds)
        bounds one recall. The arguments mean what they mean for the framework adapters
        (:mod:`memori_core.adapter_args`, :mod:`memori_core.failopen`)."""
        k = renamed_k("MemoriRecall", k, "limit", limit)
        self.engine, self.entity_id, self.k = check_adapter_args("MemoriRecall", engine, entity_id, k)
        self.strict = bool(strict)
        self.provider = None if provider is None else normalize_provider(provider)
        if timeout is not None and (isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or timeout <= 0):
            raise ValueError(f"timeout must be a positive number of seconds or None, got {timeout!r}")
        self.timeout = timeout

    # -- resolution ---------------------------------------------------------

    def _entity(self, entity_id: str | None) -> str:
        return resolve_entity_id("MemoriRecall", self.entity_id, explicit=entity_id,
                                 ways=["apply(..., entity_id=...)"])

    def _provider(self, provider: str | None) -> str:
        return _per_call(provider, self.provider, normalize_provider,
                         "MemoriRecall needs a provider: pass apply(kwargs, provider=...) or "
                         "MemoriRecall(..., provider=...)")

    def _request(self, kwargs: Mapping[str, Any], entity_id: str | None) -> _Request | None:
        """Whose facts to recall for the call, its question and recall's keyword arguments (``context`` when
        there are earlier user turns); ``None`` when the call has no user question."""
        entity = self._entity(entity_id)
        query, context = extract_query_and_context(kwargs, context_turns(self.engine))
        if not query:
            logger.debug("no user query in the call's kwargs; nothing to recall")
            return None
        return _Request(entity, query, {"context": context} if context else {})

    def _recall(self, request: _Request) -> list[RecalledFact]:
        return self.engine.recall(request.query, request.entity_id, self.k, **request.extra)

    def _call(self, request: _Request) -> FailOpenCall:
        """The recall through the engine's outage breaker: skipped at once while an outage is waited out."""
        return FailOpenCall(self.engine, strict=self.strict, owner="MemoriRecall", logger=logger, what="recall",
                            entity_id=request.entity_id)

    def _failed(self, exc: BaseException, call: FailOpenCall) -> None:
        if not self.strict and isinstance(exc, (TimeoutError, concurrent.futures.TimeoutError, asyncio.TimeoutError)):
            exc = TimeoutError(f"no answer within {self.timeout} s")
        call.failed(exc, instead="calling the model without memory")  # raises when strict

    def _inject(self, kwargs: Mapping[str, Any], facts: list[RecalledFact], provider: str) -> dict[str, Any]:
        block = format_context(facts, zone=self.engine.config.time_zone_label)
        return inject_context(kwargs, block, provider)

    # -- sync ---------------------------------------------------------------

    def recall_for(self, kwargs: Mapping[str, Any], *, entity_id: str | None = None) -> list[RecalledFact]:
        """The facts recalled for the call's last user turn, read with the user turns before it
        (``[]`` when there is no query or recall fails). A malformed message (no ``role``, a user message
        without ``content``, content of another type) raises ``TypeError`` naming it, ``strict`` or not."""
        request = self._request(kwargs, entity_id)
        if request is None:
            return []
        call = self._call(request)
        if call.skipped:
            return []
        try:
            if self.timeout is None:
                facts = self._recall(request)
            else:
                facts = _in_daemon_thread(lambda: self._recall(request)).result(timeout=self.timeout)
        except Exception as exc:
            self._failed(exc, call)
            return []
        call.succeeded()
        return facts

    def apply(
        self, kwargs: Mapping[str, Any], provider: str | None = None, *, entity_id: str | None = None
    ) -> dict[str, Any]:
        """A copy of ``kwargs`` with the user's recalled facts in the system prompt.

        Unchanged (a plain copy) when there is no user query, nothing passes
        the relevance threshold, or recall fails without ``strict``. Malformed
        messages raise ``TypeError`` (:meth:`recall_for`), as capture does.
        """
        name = check_injectable(kwargs, self._provider(provider))
        return self._inject(kwargs, self.recall_for(kwargs, entity_id=entity_id), name)

    # -- async --------------------------------------------------------------

    async def arecall_for(self, kwargs: Mapping[str, Any], *, entity_id: str | None = None) -> list[RecalledFact]:
        """Async :meth:`recall_for`."""
        request = self._request(kwargs, entity_id)
        if request is None:
            return []
        call = self._call(request)
        if call.skipped:
            return []
        try:
            if self.timeout is None:
                facts = await self.engine.arecall(request.query, request.entity_id, self.k, **request.extra)
            else:
                future = _in_daemon_thread(lambda: self._recall(request))
                facts = await asyncio.wait_for(asyncio.wrap_future(future), self.timeout)
        except Exception as exc:
            self._failed(exc, call)
            return []
        call.succeeded()
        return facts

    async def aapply(
        self, kwargs: Mapping[str, Any], provider: str | None = None, *, entity_id: str | None = None
    ) -> dict[str, Any]:
        """Async :meth:`apply` (the recall runs in a worker thread)."""
        name = check_injectable(kwargs, self._provider(provider))
        return self._inject(kwargs, await self.arecall_for(kwargs, entity_id=entity_id), name)
