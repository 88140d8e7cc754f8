"""``memory_tools``: LangChain tools with which an agent remembers, recalls, updates and forgets facts itself.

>>> agent = create_agent(model, tools=memory_tools(engine))
>>> agent.invoke({"messages": [...]}, config={"configurable": {"entity_id": "user-1"}})

Whose memory a tool touches is never an argument the model sees: it comes from the
run (``config["configurable"]["entity_id"]`` / ``["user_id"]``, or the agent's runtime context's
``entity_id`` / ``user_id``, injected through LangChain's ``ToolRuntime``), else
from ``memory_tools(entity_id=...)``. A tool call whose arguments name an entity
(or anything else the tool does not take, ``config`` included) is refused with an error the model reads;
in an agent, a ``runtime`` argument the model writes is replaced by LangChain's own ``ToolRuntime``.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any

from langchain.tools import ToolRuntime
from langchain_core.runnables import RunnableConfig
from langchain_core.tools import BaseTool, StructuredTool, ToolException
from pydantic import BaseModel, ConfigDict, ValidationError, model_validator

from memori_core.adapter_args import check_adapter_args, check_flag
from memori_core.engine import RecallEngine
from memori_core.failopen import STRICT_DEFAULT
from memori_core.memory_tools import DESCRIPTIONS, TOOL_NAMES, MemoryToolError, MemoryTools, validation_problems
from memori_core.tool_arguments import argument_models

from ._messages import state_said_at, state_zone
from ._recall import entity_of_run, logger, thread_of_run

_INJECTED = frozenset({"runtime"})
"""Arguments LangChain itself puts into a tool call's input (in an agent its ``ToolRuntime`` replaces one the
model wrote). ``config`` is not one of them: LangChain hands the run config to the function outside the
input, so a ``config`` argument always comes from the model and is refused."""

_LISTINGS = frozenset({"recall", "list"})
"""The operations whose answers list facts with when each was stated."""

_DATED = frozenset({"remember", "cancel", "update", "forget", "restore"})
"""The operations dated by the turn they run in (its last human message's time): a fact remembered, updated, forgotten
or restored then, a change called off then."""

_ENTITY_WORDS = frozenset({"entity_id", "entity", "user_id", "user", "namespace", "thread_id", "config"})


class _ToolArgs(BaseModel):
    """The arguments a model may pass: only the declared fields; one naming an entity is refused."""

    model_config = ConfigDict(extra="forbid")

    @model_validator(mode="before")
    @classmethod
    def _no_foreign_arguments(cls, data: Any) -> Any:
        if not isinstance(data, Mapping):
            return data
        unknown = sorted(k for k in data if k not in cls.model_fields and k not in _INJECTED)
        if any(k in _ENTITY_WORDS for k in unknown):
            raise ValueError(
                f"{', '.join(unknown)}: whose memory this tool uses is set by the application, "
                "not by a tool call; call the tool with only its own arguments")
        if unknown:
            raise ValueError(f"unexpected argument(s) {', '.join(unknown)}; this tool takes "
                             f"{', '.join(cls.model_fields)}")
        return {k: v for k, v in data.items() if k not in _INJECTED}


_ARGS: dict[str, type[_ToolArgs]] = argument_models(_ToolArgs)
"""Each operation's argument schema (:data:`~memori_core.tool_arguments.TOOL_ARGUMENTS`), refusing foreign
arguments as :class:`_ToolArgs` does."""


class _Bound:
    """The four operations over one engine, each finding its entity in the run that calls it."""

    def __init__(self, ops: MemoryTools, entity_id: str | None) -> None:
        self.ops, self.entity_id = ops, entity_id

    def entity(self, config: RunnableConfig | None, runtime: ToolRuntime | None) -> str:
        """The run's entity: its config, else its runtime context, else ``memory_tools(entity_id=...)``."""
        if runtime is not None and not isinstance(runtime, ToolRuntime):  # a tool call's own "runtime" argument
            raise ToolException("runtime: set by LangChain, not by a tool call; nothing was done")
        if runtime is not None and not config:
            config = runtime.config
        context = runtime.context if runtime is not None else None
        return entity_of_run("memory_tools", self.entity_id, config, context)

    @staticmethod
    def zoned(op: str, config: RunnableConfig | None, runtime: ToolRuntime | None,
              kwargs: dict[str, Any]) -> dict[str, Any]:
        """``kwargs``, and for a listing (recall, list) the zone of the turn the agent answers (its state's last
        human message), which the ``<memori_context>`` block writes its times in too; UTC without one. A
        ``remember`` (and an ``update_memory``, ``forget_memory``, ``restore_memory`` and ``cancel_plan``) is dated
        when that message says it was said, as capture dates the turn's facts; a ``remember`` is stored in the run's
        thread (its session), as capture stores the turn's facts."""
        state = getattr(runtime, "state", None)
        if op == "remember":
            return {**kwargs, "said_at": state_said_at(state),
                    "session_id": thread_of_run(config or getattr(runtime, "config", None), runtime)}
        if op in _DATED:
            return {**kwargs, "said_at": state_said_at(state)}
        return {**kwargs, "tz": state_zone(state)} if op in _LISTINGS else kwargs

    def sync(self, op: str) -> Callable[..., str]:
        method = getattr(self.ops, op)

        def run(*given: str, config: RunnableConfig, runtime: ToolRuntime = None,  # type: ignore[assignment]
                **kwargs: Any) -> str:
            entity = self.entity(config, runtime)
            try:
                return method(entity, **self.zoned(op, config, runtime, _by_name(op, given, kwargs)))
            except MemoryToolError as exc:
                raise ToolException(str(exc)) from exc

        return _signed(run, op)

    def asynchronous(self, op: str) -> Callable[..., Awaitable[str]]:
        method = getattr(self.ops, "a" + op)

        async def run(*given: str, config: RunnableConfig, runtime: ToolRuntime = None,  # type: ignore[assignment]
                      **kwargs: Any) -> str:
            entity = self.entity(config, runtime)
            try:
                return await method(entity, **self.zoned(op, config, runtime, _by_name(op, given, kwargs)))
            except MemoryToolError as exc:
                raise ToolException(str(exc)) from exc

        return _signed(run, op)


def _by_name(op: str, given: tuple[str, ...], kwargs: dict[str, Any]) -> dict[str, Any]:
    """The tool's arguments by name: LangChain hands a tool invoked with a plain string (``tool.invoke("snacks")``)
    that string by position, once its schema has checked it as the tool's first argument."""
    if not given:
        return kwargs
    return {next(iter(_ARGS[op].model_fields)): given[0], **kwargs}


def _signed(fn: Any, op: str) -> Any:
    """``fn`` with the annotations LangChain reads to inject ``config`` and ``runtime``."""
    fn.__annotations__ = {"config": RunnableConfig, "runtime": ToolRuntime, "return": str}
    fn.__name__ = TOOL_NAMES[op]
    return fn


def _error_message(exc: ToolException) -> str:
    """What the model reads when its input was refused (nothing was written)."""
    return f"Error: {exc}"


def _validation_message(exc: ValidationError) -> str:
    """What the model reads when its arguments do not fit the tool (each problem, without pydantic's links)."""
    return "Error: invalid arguments, nothing was done: " + validation_problems(exc)


def memory_tools(
    engine: RecallEngine,
    entity_id: str | None = None,
    *,
    k: int | None = None,
    strict: bool = STRICT_DEFAULT,
    include: Sequence[str] = ("remember", "recall", "list", "update", "forget", "restore", "cancel"),
    timeout: float | None = None,
) -> list[BaseTool]:
    """LangChain tools over ``engine`` to remember, recall, update and forget one user's facts.

    The tools, in the order of ``include``: ``remember(text, core=None)`` stores a fact and
    answers with its id (a model's write, :mod:`memori_core.tool_writes`: a fact a valid one already says is
    not stored again, its id is the answer; a change ends the fact it replaces, kept as history and named in
    the answer; a care fact is core unless ``core`` says otherwise); ``recall_memory(query)`` answers with the relevant facts
    and their ids, best first, at most ``k`` recalled facts (``None``: the engine's ``config.limit``)
    plus up to the engine's ``config.core_limit`` core facts,
    or says plainly that nothing relevant is stored when no fact passes the
    relevance gate, and lists the user's facts for a question about what memory holds ("What do you know about
    me?": :func:`~memori_core.meta_questions.asks_what_memory_holds`); ``list_memories(offset=0, limit=20)``
    pages through the user's facts, newest first; ``update_memory(fact_id, text)`` replaces a fact's text;
    ``forget_memory(fact_id)`` deletes one fact (never every fact of the user), its earlier versions and the
    other facts saying the same; ``restore_memory(fact_id)`` makes a fact a newer one replaced valid again;
    ``cancel_plan(fact_id)`` calls off a change told ahead before its start (by its id, or that of the fact that told
    it; what it was to replace holds on), answering what was called off, or that nothing matched (an error).

    The entity is the run's, in order: ``config["configurable"]["entity_id"]`` (else ``["user_id"]``),
    the agent's runtime context (``entity_id``, else ``user_id``), ``entity_id``
    here; none -> ``ValueError`` (an application bug, raised). The model's
    arguments never name it: a tool call that tries is refused.

    A mistake in the model's input (blank or over-long text, an id this user has
    no fact with, an unknown argument) is answered with an error message the
    model reads, and nothing is written. A memory failure is logged and answered
    with "Memory is unavailable right now ..." (``strict=True``: raised). Every
    tool has a sync and an async implementation (``engine.aadd`` ...).

    ``timeout`` (seconds; default ``None``: no limit but the store's per request) bounds each whole recall of
    ``recall_memory``, as :class:`MemoriRecall`'s does: past it the tool answers that memory is unavailable for
    now (``strict=True``: raises ``RecallTimedOut``, a ``TimeoutError``) while the recall finishes in the
    background and serves the next call.
    """
    engine, entity_id, k = check_adapter_args("memory_tools", engine, entity_id, k)
    check_flag(strict, "memory_tools", "strict")
    unknown = [op for op in include if op not in TOOL_NAMES]
    if unknown or not include:
        raise ValueError(f"memory_tools: include must name some of {', '.join(TOOL_NAMES)}, got {list(include)!r}")
    bound = _Bound(MemoryTools(engine, k=k, strict=strict, owner="memory_tools", log=logger,
                                 timeout=timeout), entity_id)
    return [
        StructuredTool(
            name=TOOL_NAMES[op],
            description=DESCRIPTIONS[op],
            args_schema=_ARGS[op],
            func=bound.sync(op),
            coroutine=bound.asynchronous(op),
            handle_tool_error=_error_message,
            handle_validation_error=_validation_message,
        )
        for op in dict.fromkeys(include)
    ]
