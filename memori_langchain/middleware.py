"""``MemoriMiddleware``: long-term memory for agents built with ``langchain.agents.create_agent``."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from langchain.agents.middleware import AgentMiddleware, ModelRequest, ModelResponse
from langchain_core.messages import HumanMessage
from langchain_core.runnables import RunnableConfig, ensure_config

from ._entity import acapture_fact, arecall_block, capture_fact, recall_block, resolve_entity_id
from ._messages import last_human_text, message_text, system_with_block

Handler = Callable[[ModelRequest], ModelResponse]
AsyncHandler = Callable[[ModelRequest], Awaitable[ModelResponse]]


class MemoriMiddleware(AgentMiddleware):
    """Recall the user's relevant facts before every model call of an agent.

    >>> agent = create_agent(model, tools, middleware=[MemoriMiddleware(engine=engine, entity_id="user-1")])

    Before each model call (tool-loop calls included) the facts relevant to
    the last human message are appended to the system message of that call
    only, through ``request.override(system_message=...)``: the block is
    never written into the agent's state or message history.

    With ``capture=True``, a user turn is stored as a fact once the model call
    that answers it succeeded (the model call whose last input message is that
    human message; tool-loop calls capture nothing). Its metadata records
    ``source``, ``role``, and ``thread_id`` / ``message_id`` when known; the
    thread id is also the fact's ``session_id``, so the turns of one
    conversation are kept in order as a session by the engine.
    A stored fact identical to the turn being answered is not injected back.

    The entity is, in order: ``config["configurable"]["entity_id"]``, the
    agent's runtime context (``entity_id``, else ``user_id``; a mapping or an
    object), the constructor's ``entity_id``; none -> ``ValueError``.
    Recall or capture errors are logged and the model is called without
    memory; ``strict=True`` raises them instead.
    """

    def __init__(
        self,
        engine: Any,
        entity_id: str | None = None,
        *,
        k: int | None = None,
        capture: bool = False,
        strict: bool = False,
    ) -> None:
        """``k`` caps the facts injected (default: the engine's limit)."""
        super().__init__()
        if k is not None and (isinstance(k, bool) or not isinstance(k, int) or k < 0):
            raise ValueError(f"k must be a non-negative int or None, got {k!r}")
        self.engine = engine
        self.entity_id = entity_id
        self.k = k
        self.capture = capture
        self.strict = strict
        self.tools = []

    # -- helpers ------------------------------------------------------------

    def _entity(self, request: ModelRequest, config: RunnableConfig) -> str:
        runtime = getattr(request, "runtime", None)
        context = getattr(runtime, "context", None)
        return resolve_entity_id(self.entity_id, config, context, owner="MemoriMiddleware")

    def _with_block(self, request: ModelRequest, block: str) -> ModelRequest:
        if not block:
            return request
        return request.override(system_message=system_with_block(request.system_message, block))

    def _skip(self, query: str) -> str | None:
        # With capture on, the turn being answered may already be stored (a
        # tool-loop call, or the same question asked before): not news to the model.
        return query if self.capture else None

    def _turn_to_capture(self, request: ModelRequest, config: RunnableConfig) -> tuple[str, dict[str, Any]] | None:
        if not self.capture or not request.messages or not isinstance(request.messages[-1], HumanMessage):
            return None
        message = request.messages[-1]
        metadata: dict[str, Any] = {"source": "langchain", "role": "user"}
        thread_id = (config.get("configurable") or {}).get("thread_id")
        if thread_id is None:
            info = getattr(getattr(request, "runtime", None), "execution_info", None)
            thread_id = getattr(info, "thread_id", None)
        if thread_id is not None:
            metadata["thread_id"] = str(thread_id)
        if message.id:
            metadata["message_id"] = str(message.id)
        return message_text(message), metadata

    # -- hooks --------------------------------------------------------------

    def wrap_model_call(self, request: ModelRequest, handler: Handler) -> ModelResponse:
        """Inject the block into this call's system message, call the model, then capture the turn."""
        config = ensure_config()
        entity = self._entity(request, config)
        query = last_human_text(request.messages)
        block = recall_block(
            self.engine, query, entity, self.k, strict=self.strict, owner=self.name, skip_text=self._skip(query)
        )
        response = handler(self._with_block(request, block))
        turn = self._turn_to_capture(request, config)
        if turn is not None:
            capture_fact(self.engine, turn[0], entity, turn[1], strict=self.strict, owner=self.name,
                         session_id=turn[1].get("thread_id"))
        return response

    async def awrap_model_call(self, request: ModelRequest, handler: AsyncHandler) -> ModelResponse:
        """Async :meth:`wrap_model_call` (``engine.arecall`` / ``engine.aadd``)."""
        config = ensure_config()
        entity = self._entity(request, config)
        query = last_human_text(request.messages)
        block = await arecall_block(
            self.engine, query, entity, self.k, strict=self.strict, owner=self.name, skip_text=self._skip(query)
        )
        response = await handler(self._with_block(request, block))
        turn = self._turn_to_capture(request, config)
        if turn is not None:
            await acapture_fact(self.engine, turn[0], entity, turn[1], strict=self.strict, owner=self.name,
                                session_id=turn[1].get("thread_id"))
        return response
