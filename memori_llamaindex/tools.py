"""``MemoriToolSpec``: tools with which a LlamaIndex agent remembers, recalls, updates and forgets one user's facts.

>>> spec = MemoriToolSpec(engine=engine, entity_id="user-1")
>>> agent = FunctionAgent(llm=llm, tools=spec.to_tool_list())

The entity is fixed when the spec is made (one spec per user, e.g. per request);
no tool takes an argument that names one, and a call that passes one is refused.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from llama_index.core.tools.tool_spec.base import BaseToolSpec
from llama_index.core.tools.types import ToolMetadata
from pydantic import BaseModel

from memori_core.adapter_args import CheckedAttribute, check_adapter_args, check_entity_default, check_flag
from memori_core.engine import RecallEngine
from memori_core.failopen import STRICT_DEFAULT
from memori_core.memory_tools import DEFAULT_PAGE, DESCRIPTIONS, TOOL_NAMES, MemoryToolError, MemoryTools
from memori_core.tool_arguments import argument_models
from memori_core.validate import check_time

from ._common import logger

_SCHEMAS: dict[str, type[BaseModel]] = argument_models(BaseModel)
"""Each operation's argument schema (:data:`~memori_core.tool_arguments.TOOL_ARGUMENTS`)."""


def _refuse(foreign: dict[str, Any]) -> None:
    """A call with arguments the tool does not take (e.g. an entity) is refused before anything is read."""
    if foreign:
        raise MemoryToolError(
            f"unexpected argument(s) {', '.join(sorted(foreign))}: whose memory this tool uses is set by the "
            "application, not by a tool call; call the tool with only its own arguments")


def _turn_time(value: Any, owner: str) -> datetime | None:
    """The spec's ``said_at``: ``None``, or a time read as every adapter reads a turn's time."""
    return check_time(value, f"{owner}.said_at")


def _required_entity(value: Any, owner: str) -> str:
    """The spec's ``entity_id``: required, checked as every adapter's."""
    if value is None:
        raise ValueError(f"{owner} needs entity_id=...: whose memory its tools use")
    entity = check_entity_default(value, owner)
    assert entity is not None
    return entity


class MemoriToolSpec(BaseToolSpec):
    """LlamaIndex tools over a :class:`~memori_core.RecallEngine` for one entity: ``remember(text, core=None)``,
    ``recall_memory(query)``, ``list_memories(offset, limit)``, ``update_memory(fact_id, text)``,
    ``forget_memory(fact_id)`` (one fact, never all of them), ``restore_memory(fact_id)`` and
    ``cancel_plan(fact_id)`` (a change told ahead called off before its start), as the LangChain
    ``memory_tools`` (:class:`~memori_core.memory_tools.MemoryTools`); the spec's methods are ``remember``,
    ``recall``, ``list``, ``update``, ``forget``, ``restore`` and ``cancel``.

    ``recall_memory`` answers with the relevant facts and their ids, best first, at most ``k``
    (``None``: the engine's ``config.limit``), or says plainly that nothing relevant
    is stored when no fact passes the relevance gate. A mistake in the agent's input
    (blank or over-long text, an id this user has no fact with, an argument the tool
    does not take) raises :class:`~memori_core.memory_tools.MemoryToolError`, which
    LlamaIndex's agents hand back to the model as the tool's error; nothing is
    written then. A memory failure is logged and answered with "Memory is unavailable
    right now ..." (``strict=True``: raised). Each tool has a sync and an async
    implementation (the engine's ``aadd`` ...). ``timeout`` (seconds; default ``None``: no limit but the
    store's per request) bounds each whole recall of ``recall_memory``, as :class:`MemoriRecall`'s does: past it
    the tool answers that memory is unavailable for now (``strict=True``: raises ``RecallTimedOut``) while the
    recall finishes in the background and serves the next call.

    The tools see no turn, so every write is dated now (``remember``'s fact, ``update``'s new text, the time of a
    ``forget``, ``restore`` or ``cancel_plan``), unless the app sets ``said_at`` (a ``datetime`` or ISO 8601
    string: when the turn the agent is answering was said; ``None``: now) before it runs the agent on that turn,
    as capture dates the same turn's facts and LangChain's tools date theirs from the agent's last message; the
    model cannot set it.
    """

    spec_functions = [("remember", "aremember"), ("recall", "arecall"), ("list", "alist"), ("update", "aupdate"),
                      ("forget", "aforget"), ("restore", "arestore"), ("cancel", "acancel")]

    entity_id = CheckedAttribute(_required_entity)  # checked whenever set, as by the constructor
    said_at = CheckedAttribute(_turn_time)  # the turn being answered, set by the app (class docstring)

    def __init__(self, engine: RecallEngine, entity_id: str, *, k: int | None = None,
                 strict: bool = STRICT_DEFAULT, timeout: float | None = None) -> None:
        """``entity_id`` is required: whose memory every tool of this spec reads and writes; ``timeout``: seconds
        one whole recall may take (``None``: no limit but the store's per request)."""
        engine, entity, k = check_adapter_args("MemoriToolSpec", engine, entity_id, k)
        check_flag(strict, "MemoriToolSpec", "strict")
        self.engine, self.entity_id, self.k = engine, entity, k
        self.said_at = None
        self._ops = MemoryTools(engine, k=k, strict=strict, owner="MemoriToolSpec", log=logger,
                                timeout=timeout)

    def get_metadata_from_fn_name(self, fn_name: str, spec_functions: Any = None) -> ToolMetadata | None:
        """Each tool's name, description and argument schema (no argument names an entity)."""
        name = fn_name.removeprefix("a") if fn_name.removeprefix("a") in _SCHEMAS else fn_name
        if name not in _SCHEMAS:
            return None
        return ToolMetadata(name=TOOL_NAMES[name], description=DESCRIPTIONS[name], fn_schema=_SCHEMAS[name])

    def _dated_edit(self, edit: Callable[..., Any], fact_id: str, foreign: dict[str, Any]) -> Any:
        """``edit`` (a :class:`MemoryTools` edit of one fact: restore, cancel, forget, sync or async) of this
        spec's user's ``fact_id``, dated by :attr:`said_at`; an argument the tool does not take refused first."""
        _refuse(foreign)
        return edit(self.entity_id, fact_id, said_at=self.said_at)

    def remember(self, text: str, core: bool | None = None, **foreign: Any) -> str:
        """Save one fact about the user; answers with its id (or that of the fact already saying it)."""
        _refuse(foreign)
        return self._ops.remember(self.entity_id, text, core, said_at=self.said_at)

    async def aremember(self, text: str, core: bool | None = None, **foreign: Any) -> str:
        """Async :meth:`remember`."""
        _refuse(foreign)
        return await self._ops.aremember(self.entity_id, text, core, said_at=self.said_at)

    def list(self, offset: int = 0, limit: int = DEFAULT_PAGE, **foreign: Any) -> str:
        """A page of the user's facts, newest first, with their ids."""
        _refuse(foreign)
        return self._ops.list(self.entity_id, offset, limit)

    async def alist(self, offset: int = 0, limit: int = DEFAULT_PAGE, **foreign: Any) -> str:
        """Async :meth:`list`."""
        _refuse(foreign)
        return await self._ops.alist(self.entity_id, offset, limit)

    def restore(self, fact_id: str, **foreign: Any) -> str:
        """Make the user's fact ``fact_id``, which a newer fact replaced, valid again."""
        return self._dated_edit(self._ops.restore, fact_id, foreign)

    async def arestore(self, fact_id: str, **foreign: Any) -> str:
        """Async :meth:`restore`."""
        return await self._dated_edit(self._ops.arestore, fact_id, foreign)

    def cancel(self, fact_id: str, **foreign: Any) -> str:
        """Call off the user's change told ahead ``fact_id`` (or the one the fact ``fact_id`` told) before its start."""
        return self._dated_edit(self._ops.cancel, fact_id, foreign)

    async def acancel(self, fact_id: str, **foreign: Any) -> str:
        """Async :meth:`cancel`."""
        return await self._dated_edit(self._ops.acancel, fact_id, foreign)

    def recall(self, query: str, **foreign: Any) -> str:
        """The user's facts relevant to ``query``, with their ids, or a plain "nothing relevant"."""
        _refuse(foreign)
        return self._ops.recall(self.entity_id, query)

    async def arecall(self, query: str, **foreign: Any) -> str:
        """Async :meth:`recall`."""
        _refuse(foreign)
        return await self._ops.arecall(self.entity_id, query)

    def update(self, fact_id: str, text: str, **foreign: Any) -> str:
        """Replace the text of the user's fact ``fact_id``."""
        _refuse(foreign)
        return self._ops.update(self.entity_id, fact_id, text, said_at=self.said_at)

    async def aupdate(self, fact_id: str, text: str, **foreign: Any) -> str:
        """Async :meth:`update`."""
        _refuse(foreign)
        return await self._ops.aupdate(self.entity_id, fact_id, text, said_at=self.said_at)

    def forget(self, fact_id: str, **foreign: Any) -> str:
        """Delete the user's fact ``fact_id``."""
        return self._dated_edit(self._ops.forget, fact_id, foreign)

    async def aforget(self, fact_id: str, **foreign: Any) -> str:
        """Async :meth:`forget`."""
        return await self._dated_edit(self._ops.aforget, fact_id, foreign)
