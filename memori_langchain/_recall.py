"""What the LangChain adapters put into a prompt: the ``<memori_context>`` block, recalled failing open,
for the entity a run names."""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, tzinfo
from typing import Any

from memori_core.adapter_args import VIA_CONFIG, VIA_CONTEXT, resolve_entity_id
from memori_core.context import format_context
from memori_core.engine import RecallEngine
from memori_core.facts import RecalledFact
from memori_core.failopen import FailOpenRecall
from memori_core.text import normalize_fact_text

logger = logging.getLogger("memori_langchain")


def graph_runtime() -> Any:
    """The runtime of the LangGraph run the caller is part of (a graph's or a ``create_agent`` agent's: its
    nodes, middleware and tools all see it), or ``None`` outside a run."""
    try:
        from langgraph.runtime import get_runtime

        return get_runtime()
    except Exception:  # not inside a graph run
        return None


def graph_runtime_context() -> Any:
    """The runtime context of the LangGraph run the caller is part of, or ``None`` outside a run or without
    a context (:func:`graph_runtime`)."""
    return getattr(graph_runtime(), "context", None)


def thread_of_run(config: Mapping[str, Any] | None, runtime: Any = None) -> str | None:
    """The conversation thread of a run, the one rule the capturing adapters follow: the run ``config``'s
    ``configurable.thread_id``, else the thread LangGraph's runtime knows (``runtime.execution_info``; the
    runtime of the current graph run when ``runtime`` is not given), else ``configurable.session_id`` (the key
    ``RunnableWithMessageHistory`` names a chain's conversation by); ``None`` when none names one."""
    configurable = (config or {}).get("configurable") or {}
    thread_id = configurable.get("thread_id")
    if thread_id is None:
        info = getattr(runtime if runtime is not None else graph_runtime(), "execution_info", None)
        thread_id = getattr(info, "thread_id", None)
    if thread_id is None:
        # A chain's capture node sees no graph: without its conversation the captured facts get no session,
        # and recall ranks them unlike the same facts captured by the middleware in a thread.
        thread_id = configurable.get("session_id")
    return str(thread_id) if thread_id is not None else None


def entity_of_run(
    owner: str,
    default: str | None,
    config: Mapping[str, Any] | None = None,
    context: Any = None,
    *,
    explicit: str | None = None,
) -> str:
    """The entity of a call that may be part of an agent's or a graph's run, the one rule every LangChain
    adapter follows (``MemoriContextInjector``, middleware, graph nodes, ``memory_tools``, ``MemoriRetriever``):
    ``explicit`` (a per-call argument), the run ``config`` (``configurable.entity_id``, else
    ``configurable.user_id``), the runtime context (``entity_id``, else ``user_id``: ``context`` when the
    caller was handed it, else that of the LangGraph run it is part of, :func:`graph_runtime_context`), else
    the adapter's ``default`` (:func:`~memori_core.adapter_args.resolve_entity_id`)."""
    if context is None:
        context = graph_runtime_context()
    return resolve_entity_id(owner, default, explicit=explicit, config=config, context=context,
                             ways=(VIA_CONFIG, VIA_CONTEXT))


@dataclass(frozen=True)
class BlockRecall:
    """One recall for a prompt's ``<memori_context>`` block: :meth:`block` (``engine.recall``) or
    :meth:`ablock` (``engine.arecall``); "" when nothing passes. Fails open unless ``strict``.

    ``context`` (the human turns before ``query``, oldest first) is passed to recall when it holds any.
    The facts are exactly those of ``engine.recall(query, entity_id, limit, context=context)`` (``limit``
    recalled facts plus up to ``config.core_limit`` core facts), never more nor others: the adapter asks
    recall for ``limit`` itself, because the relevance gate judges the top ``limit`` candidates and a
    larger request could change what passes.
    When turns are captured, what the turn being answered already became is not news to the model: a
    recalled fact whose normalised text equals ``skip_text`` (that turn), or that was captured from the
    message ``skip_message_id`` of the thread ``skip_thread_id`` (its ``metadata["message_id"]`` and
    ``metadata["thread_id"]``, ``None`` when the run names no thread), is left out of those facts (its slot
    is not refilled): another thread's message with the same id is another turn.
    ``timeout`` (seconds, ``None``: no limit but the store's per request) bounds the whole recall: past it the
    block is "" (:func:`~memori_core.failopen.recall_or_empty`). ``tz`` (the zone of the turn being answered,
    ``None``: unknown) writes the block's times in it (:func:`~memori_core.context.format_context`); ``as_of``
    (a replayed turn's time: :func:`~memori_core.capture.said_as_of`; ``None``: now) is the time recall reads
    memory at.
    """

    engine: RecallEngine
    query: str
    entity_id: str
    limit: int | None
    strict: bool
    owner: str
    context: Sequence[str] = ()
    skip_text: str | None = None
    skip_message_id: str | None = None
    skip_thread_id: str | None = None
    timeout: float | None = None
    tz: tzinfo | None = None
    as_of: datetime | None = None

    def _skipping(self) -> bool:
        return self.skip_text is not None or self.skip_message_id is not None

    def _recall(self) -> FailOpenRecall:
        return FailOpenRecall(self.engine, self.query, self.entity_id, self.limit, self.strict, self.owner, logger,
                              self.context, self.timeout, self.as_of)

    def block(self) -> str:
        """The block, recalled with ``engine.recall``."""
        return self._format(self._recall().run())

    async def ablock(self) -> str:
        """The block, recalled with ``engine.arecall`` (with a ``timeout``, ``engine.recall`` in a thread the event
        loop waits for)."""
        return self._format(await self._recall().arun())

    def _format(self, facts: list[RecalledFact]) -> str:
        if self._skipping():
            key = normalize_fact_text(self.skip_text) if self.skip_text is not None else None
            facts = [
                f for f in facts
                if (key is None or normalize_fact_text(f.content) != key)
                and not self._captured_from_this_turn(f)
            ]
        return format_context(facts, zone=self.engine.config.time_zone_label, tz=self.tz)

    def _captured_from_this_turn(self, fact: RecalledFact) -> bool:
        return (self.skip_message_id is not None and fact.metadata.get("message_id") == self.skip_message_id
                and fact.metadata.get("thread_id") == self.skip_thread_id)
