"""``MemoriMiddleware``: long-term memory for agents built with ``langchain.agents.create_agent``."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import datetime, timezone

from langchain.agents.middleware import AgentMiddleware, ModelRequest, ModelResponse
from langchain_core.messages import SystemMessage
from langchain_core.runnables import RunnableConfig, ensure_config

from memori_core.adapter_args import check_adapter_args
from memori_core.capture import DEFAULT_MAX_PENDING_CAPTURES, WaitsForCaptures, check_extractor
from memori_core.capture_failures import EntityCaptures
from memori_core.lanes import ERASURES
from memori_core.engine import RecallEngine
from memori_core.extraction import FactExtractor
from memori_core.failopen import STRICT_DEFAULT, check_timeout
from memori_core.placement import LAST_USER, SYSTEM, check_placement
from memori_core.query import context_turns

from ._messages import (
    capture_metadata,
    human_query_and_context,
    human_turns_with_block,
    is_human,
    last_human_text,
    message_said_at,
    messages_with_block,
    system_with_block,
    turn_to_capture,
)
from ._recall import BlockRecall, entity_of_run, logger, thread_of_run

Handler = Callable[[ModelRequest], ModelResponse]
AsyncHandler = Callable[[ModelRequest], Awaitable[ModelResponse]]


class MemoriMiddleware(WaitsForCaptures, AgentMiddleware):
    """Recall the user's relevant facts before every model call of an agent.

    >>> agent = create_agent(model, tools, middleware=[MemoriMiddleware(engine=engine, entity_id="user-1")])

    Before each model call (tool-loop calls included) the facts relevant to
    the last human message with text (an image-only turn is skipped), read with up to ``engine.config.context_turns``
    human messages before it (AI, system and tool messages are not read), are
    appended to the system message of that call only, through ``request.override(system_message=...)``: the block is
    never written into the agent's state or message history. An agent without a system prompt whose input
    messages hold the app's own ``SystemMessage`` gets the block appended to the first of them, after the
    app's instructions as :class:`MemoriContextInjector` puts it (in that call's copy of the messages,
    ``request.override(messages=...)``); with neither, the block is a new system message.

    With ``capture=True``, once the model call that answers a user turn has
    succeeded (the call whose last input message is that human message;
    tool-loop calls capture nothing), the turn is handed to ``extractor``
    (default :class:`~memori_core.extraction.RuleBasedFactExtractor`: only
    the user's statements about themselves, as "User ..." facts; questions,
    greetings and instructions are never stored) and what it returns is
    stored, in the background: the answer never waits for extraction or
    storage. At most ``max_pending_captures`` captures wait at a time; more
    are dropped with a warning, and counted (:attr:`capture_stats`). Call
    :meth:`flush` / :meth:`aflush` to wait for them (before reading what was
    captured; ``engine.close()`` waits for them at shutdown). A turn the
    model is answering when its user is forgotten (``engine.forget``) is not
    captured. The facts are dated when the turn was said: the human message's
    ``additional_kwargs["created_at"]`` (else ``response_metadata["created_at"]``; a timezone-aware
    datetime or an ISO 8601 string with a UTC offset), else when the model call answering it began; that
    time is also the "now" the extractor reads "on Thursday" against. A naive or unreadable time fails that
    turn's capture (a warning naming the field, or under ``strict`` the next call raises it). Facts'
    metadata records ``source``, ``role``, and ``thread_id`` / ``message_id``
    when known; the thread id is also their ``session_id``, so the turns of
    one conversation are kept in order as a session by the engine. An
    extractor with ``uses_existing_facts`` (``LLMFactExtractor``) is shown the
    user's most similar stored facts and may supersede some of them.
    Facts captured from the turn being answered (or identical to it) are not
    injected back into its own later model calls.

    What is injected does not depend on ``capture``: it is the facts of
    ``engine.recall(query, entity, k, context=...)`` (``k`` recalled facts, plus
    up to ``engine.config.core_limit`` core facts), minus, with ``capture=True``,
    those the turn being answered became (their slots are not refilled: recall
    is never asked for more than ``k``, since the relevance gate judges the top
    ``k`` candidates and a larger request could change what passes).

    Order matters: list ``MemoriMiddleware`` **after** any middleware that sets
    or replaces the system prompt (``@dynamic_prompt``, or one that calls
    ``request.override(system_message=...)``). Middleware listed first wraps
    the ones after it, so a prompt middleware listed later receives the request
    that already holds the block and, by replacing the system message, drops
    it: the model then gets no memory, and nothing can tell this middleware so.
    ``create_agent(..., system_prompt=...)`` needs no care.

    ``placement="last_user"`` appends the block to the latest human message of that call's copy of the
    messages instead (``request.override(messages=...)``; the system message when there is no human
    message), so the system prompt and the earlier conversation stay a prefix a provider's prompt cache keeps
    hitting on, tool-loop calls included (:mod:`memori_core.placement`). The state never holds the block.

    The entity is, in order: ``config["configurable"]["entity_id"]`` (else ``["user_id"]``), the
    agent's runtime context (``entity_id``, else ``user_id``; a mapping or an
    object), the constructor's ``entity_id``; none -> ``ValueError``.
    Recall or capture errors are logged and the model is called without
    memory; ``strict=True`` raises recall errors, and a capture failure is
    raised by the next :meth:`flush` / :meth:`aflush` or the next model call
    through this middleware for the same entity, whichever comes first: one
    middleware serving many users never raises one user's failure in another's
    call (:class:`memori_core.capture_failures.EntityCaptures`). ``timeout`` (seconds; default ``None``: no limit but the
    store's per request) bounds each model call's whole recall: past it the model is called without the block
    (a warning, or ``TimeoutError`` under ``strict``), while the recall finishes in the background and serves
    the next call.
    """

    def __init__(
        self,
        engine: RecallEngine,
        entity_id: str | None = None,
        *,
        k: int | None = None,
        capture: bool = False,
        strict: bool = STRICT_DEFAULT,
        extractor: FactExtractor | None = None,
        max_pending_captures: int = DEFAULT_MAX_PENDING_CAPTURES,
        placement: str = SYSTEM,
        timeout: float | None = None,
    ) -> None:
        """``k``: at most this many recalled facts are injected, plus up to the engine's ``config.core_limit``
        core facts (``None``: the engine's ``config.limit``, 5 unless configured);
        ``extractor`` and ``max_pending_captures`` apply with ``capture=True``; ``placement``: where the block
        goes, ``"system"`` (the system message) or ``"last_user"`` (the latest human message); ``timeout``:
        seconds one model call's whole recall may take (``None``: no limit but the store's per request)."""
        super().__init__()
        self.engine, self.entity_id, self.k = check_adapter_args("MemoriMiddleware", engine, entity_id, k)
        self.placement = check_placement(placement, "MemoriMiddleware")
        self.timeout = check_timeout(timeout, "MemoriMiddleware")
        self.capture = capture
        self.strict = strict
        self.extractor = check_extractor(extractor)
        self._captures = EntityCaptures(
            "MemoriMiddleware", logger, strict=strict, max_pending=max_pending_captures
        )
        self.tools = []

    # -- helpers ------------------------------------------------------------

    def _entity(self, request: ModelRequest, config: RunnableConfig) -> str:
        context = getattr(getattr(request, "runtime", None), "context", None)
        return entity_of_run("MemoriMiddleware", self.entity_id, config, context)

    def _recall(self, request: ModelRequest, config: RunnableConfig, entity: str) -> BlockRecall:
        query, context = human_query_and_context(request.messages, context_turns(self.engine))
        return BlockRecall(self.engine, query, entity, self.k, self.strict, self.name, context,
                           skip_text=self._skip(request), skip_message_id=self._skip_message(request),
                           skip_thread_id=self._thread(request, config), timeout=self.timeout)

    def _with_block(self, request: ModelRequest, block: str) -> ModelRequest:
        if not block:
            return request
        if self.placement == LAST_USER:
            messages, placed = human_turns_with_block(request.messages, block, LAST_USER)
            if placed:  # this call's copy of the messages; the agent's state keeps its own
                return request.override(messages=messages)
        if request.system_message is None and any(isinstance(m, SystemMessage) for m in request.messages):
            # No system prompt, but the app's own SystemMessage is in the messages: the block goes after its
            # instructions there, as MemoriContextInjector puts it (this call's copy; the state keeps its own).
            return request.override(messages=messages_with_block(request.messages, block))
        return request.override(system_message=system_with_block(request.system_message, block))

    def _skip(self, request: ModelRequest) -> str | None:
        # With capture on, the turn being answered may already be stored (the same
        # statement made before, or an older raw-turn capture): not news to the model.
        # That turn is the last human message, even when the query is an earlier one (an image-only turn).
        return (last_human_text(request.messages) or None) if self.capture else None

    def _skip_message(self, request: ModelRequest) -> str | None:
        # ... and so are the facts captured from it (a tool-loop call after capture finished).
        if not self.capture:
            return None
        for message in reversed(request.messages):
            if is_human(message):
                return str(message.id) if message.id else None
        return None

    def _thread(self, request: ModelRequest, config: RunnableConfig) -> str | None:
        return thread_of_run(config, getattr(request, "runtime", None))

    def _capture(self, request: ModelRequest, config: RunnableConfig, entity: str, since: int,
                 began: datetime) -> None:
        # ``since``: the entity's erase generation before the model was called, so that a forget while the
        # model answered makes the turn's capture write nothing (memori_core.lanes). ``began``: when that call
        # began, the turn's time unless its message says when it was said.
        if not self.capture:
            return
        turn = turn_to_capture(request.messages)
        if not turn:
            return
        message = request.messages[-1]
        try:
            said_at = message_said_at(message)
        except (TypeError, ValueError) as exc:  # the app's bad time: this turn is not stored, the answer stands
            self._captures.refuse(entity, exc)
            return
        metadata = capture_metadata("langchain", message, self._thread(request, config))
        self._captures.submit(self.engine, entity, turn, self.extractor, metadata=metadata,
                              session_id=metadata.get("thread_id"), since=since, created_at=said_at or began)

    # -- hooks --------------------------------------------------------------

    def wrap_model_call(self, request: ModelRequest, handler: Handler) -> ModelResponse:
        """Inject the block into this call's system message, call the model, then queue the turn's capture."""
        config = ensure_config()
        entity = self._entity(request, config)
        self._captures.raise_failure(entity)
        since, began = ERASURES.generation(entity), datetime.now(timezone.utc)
        response = handler(self._with_block(request, self._recall(request, config, entity).block()))
        self._capture(request, config, entity, since, began)
        return response

    async def awrap_model_call(self, request: ModelRequest, handler: AsyncHandler) -> ModelResponse:
        """Async :meth:`wrap_model_call` (``engine.arecall``; the capture is queued the same way)."""
        config = ensure_config()
        entity = self._entity(request, config)
        self._captures.raise_failure(entity)
        since, began = ERASURES.generation(entity), datetime.now(timezone.utc)
        response = await handler(self._with_block(request, await self._recall(request, config, entity).ablock()))
        self._capture(request, config, entity, since, began)
        return response
