"""``memori mcp``: one entity's memory as an MCP server (the official ``mcp`` SDK), over stdio or streamable HTTP.

Tools: ``recall`` (``explain=true``: every candidate's scores), ``add``, ``list``,
``get``, ``update``, ``history``, ``restore``, ``cancel`` (a change told ahead called off before its start),
``delete`` and ``forget``. Whose memory they use is the
server's, never a tool argument: the entity given to :func:`build_server`
(``memori mcp --entity NAME``), or, over HTTP, the value of a request header the
operator names (``--entity-header X-Memori-Entity``: every request must carry
it exactly once, and one that carries it twice or with a comma-separated value is refused; a gateway in front
of the server sets it after authenticating the user, replacing any the client sent; its value is the entity id in
UTF-8, percent-encoded or raw: :func:`header_entity`). A
tool call with an argument the tool does not take (``entity_id`` ...) is
refused with an error, so a client cannot even ask for another entity, and so is
a value of the wrong JSON type: booleans must be ``true`` / ``false`` and
integers JSON integers (``"3"``, ``1.0`` or ``true`` for a ``limit`` are
refused, not converted). ``update`` and ``delete`` refuse the id of an earlier
version of a fact (``<id>@v<n>``, which ``history`` shows): a client edits and
deletes facts, not their history; ``restore`` undoes a supersede or an update
(:meth:`~memori_core.RecallEngine.restore`), keeping the switch back as history.
The facts ``list``, ``get`` and ``history`` return are export records
(:mod:`memori_core.records`) with ``expired``: whether the fact is past its
``expires_at`` (recall skips it; ``memori list`` marks it ``[expired]``).
Errors name the argument (an item of a list by its place: ``add: facts[1] must not be blank``) and say what to
do, without pydantic's links; every error a call's input caused reads ``<tool>: ...``.

Every tool call is bounded by the server's ``timeout`` (:data:`DEFAULT_TOOL_TIMEOUT`; ``memori mcp --tool-timeout``):
the store's request time limit bounds each request, but not a call made of many (a user's first recall loads all
their facts), nor a call queued behind others on the engine's threads, nor an embedder that calls a remote API.
Past it the client gets a tool error saying so (a write called may still be made: the engine runs it to its end),
and a store that does not answer (a stopped or unreachable Chroma server) is a tool error naming it, not a
traceback's last line.

The ``mcp`` package is imported only when a server is built: the engine works
without it, and :func:`build_server` says to install ``memori-recall[mcp]``
when it is missing.
"""

from __future__ import annotations

import contextlib
import asyncio
import inspect
import ipaddress
import logging
import re
import sys
import time
from collections.abc import Callable, Coroutine, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any, TypeVar
from urllib.parse import unquote_to_bytes

from .engine import NothingToCancelError, NothingToRestoreError, RecallEngine, ReplacedFactError
from .error_log import error_text
from .extras import install_hint
from .facts import RecalledFact, StoredFact
from .memory_tools import (
    DEFAULT_PAGE,
    MAX_PAGE,
    NOTHING_RELEVANT,
    MemoryToolError,
    check_editable_id,
    check_fact_text,
    check_tool_id,
    check_tool_text,
    replaced_error,
    restore_refusal,
    validation_problems,
    with_earlier_versions,
)
from .meta_questions import asks_what_memory_holds
from .metadata_keys import STORE_ITEM_KEY, STORE_NAMESPACE_KEY
from .outage import is_outage
from .records import to_record
from .store.base import PartialWriteError, WriteOutcomeUnknown
from .store.chroma_client import NoServerAnswers, ServerUnavailable
from .store.unreachable import StoreUnreachable
from .store.deadline import NotReached
from .time_limit import check_timeout
from .tool_queries import as_the_user_asks
from .tool_writes import awrite_facts, edit_dated, said_before_now, told_late
from .unexpired import anewest_unexpired
from .validate import check_entity_id, check_time

if TYPE_CHECKING:
    from mcp.server.fastmcp import FastMCP

T = TypeVar("T")

SERVER_NAME = "memori"
"""The MCP server's name, as clients list it."""

TOOL_NAMES: tuple[str, ...] = ("recall", "add", "list", "get", "update", "history", "restore", "cancel", "delete",
                               "forget")
"""The tools :func:`build_server` registers, in this order (``memori mcp --help`` lists them from here)."""

MCP_NAMES = {"remember": "add", "update": "update", "restore": "restore", "cancel": "cancel"}
"""The tools a model is told to call, by the operation of :data:`~memori_core.memory_tools.TOOL_NAMES` they do."""

DEFAULT_TOOL_TIMEOUT = 30.0
"""Seconds one tool call may take (``build_server(timeout=...)``, ``memori mcp --tool-timeout``): under the 60 s
MCP clients commonly wait for a request, so the client hears why the call failed rather than timing out itself,
and well above a large user's first recall over a server (about 11 s at 50,000 facts)."""

TOOL_HINTS: dict[str, dict[str, bool]] = {
    "recall": {"readOnlyHint": True}, "list": {"readOnlyHint": True}, "get": {"readOnlyHint": True},
    "history": {"readOnlyHint": True},
    # a fact added again is found, not stored twice; what add ends or update replaces is kept as history
    "add": {"readOnlyHint": False, "destructiveHint": False, "idempotentHint": True},
    "update": {"readOnlyHint": False, "destructiveHint": False, "idempotentHint": True},
    "restore": {"readOnlyHint": False, "destructiveHint": False},
    # the change is kept as history, valid at no time; what it was to end holds on
    "cancel": {"readOnlyHint": False, "destructiveHint": False},
    "delete": {"readOnlyHint": False, "destructiveHint": True, "idempotentHint": True},
    "forget": {"readOnlyHint": False, "destructiveHint": True, "idempotentHint": True},
}
"""Each tool's MCP annotations (``ToolAnnotations``; every tool also ``openWorldHint=false``: it touches this
memory only), for clients that gate approval on them: reads are read-only, ``delete`` and ``forget`` erase for
good."""

WRITE_TOOLS = frozenset({"add", "update", "delete", "restore", "cancel", "forget"})
"""The tools that change the user's memory: one that fails for want of an answer may still have been made."""

_LOOPBACK_NAMES = ("localhost",)

TRANSPORT_LOGGER = "mcp.server.streamable_http"
"""The MCP SDK's streamable-HTTP transport logger, which :class:`ClientGoneFilter` quiets."""


class ClientGoneFilter(logging.Filter):
    """Drops the MCP SDK's error for a client that went away: its streamable-HTTP transport logs every ordinary
    disconnect (a client closing its session while the server's event stream to it is open) as "Error in
    standalone SSE writer" with a ``ClosedResourceError`` / ``BrokenResourceError`` traceback, which is no error
    of the server's. Every other record passes. :func:`build_server` adds one to :data:`TRANSPORT_LOGGER`."""

    def filter(self, record: logging.LogRecord) -> bool:
        """False for a record whose exception is a stream closed because its client left."""
        exc = record.exc_info[1] if record.exc_info else None
        if exc is None:
            return True
        import anyio

        return not isinstance(exc, (anyio.ClosedResourceError, anyio.BrokenResourceError))


def quiet_client_disconnects() -> None:
    """Add a :class:`ClientGoneFilter` to :data:`TRANSPORT_LOGGER` once per process."""
    transport = logging.getLogger(TRANSPORT_LOGGER)
    if not any(isinstance(f, ClientGoneFilter) for f in transport.filters):
        transport.addFilter(ClientGoneFilter())


def _require_mcp() -> Any:
    try:
        import mcp.server.fastmcp as fastmcp
    except ImportError as exc:  # pragma: no cover - depends on what is installed
        raise RuntimeError(
            "memori mcp needs the MCP SDK (the mcp extra): " + install_hint("mcp")) from exc
    return fastmcp


def describe_tools(names: Sequence[str] = TOOL_NAMES) -> str:
    """The tools for people: ``"recall (with explain), add, ... and forget"``."""
    shown = [f"{n} (with explain)" if n == "recall" else n for n in names]
    return shown[0] if len(shown) == 1 else f"{', '.join(shown[:-1])} and {shown[-1]}"


def is_loopback(host: str) -> bool:
    """Whether ``host`` (a name or an address) is this machine only: ``localhost``, 127.0.0.0/8 or ``::1``."""
    if host.lower() in _LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


@dataclass(frozen=True)
class EntitySource:
    """Where the server finds whose memory a call uses: a fixed ``entity``, or a request ``header``."""

    entity: str | None = None
    header: str | None = None

    def __post_init__(self) -> None:
        if (self.entity is None) == (self.header is None):
            raise ValueError("give the server exactly one of an entity (--entity) or an entity header "
                             "(--entity-header, over HTTP)")
        if self.entity is not None:
            check_entity_id(self.entity)
        if self.header is not None and (not self.header.strip() or any(c in self.header for c in " :\r\n")):
            raise ValueError(f"not a header name: {self.header!r}")

    def of(self, request: Any) -> str:
        """The entity of one call (``request``: the HTTP request it came in, ``None`` over stdio)."""
        if self.entity is not None:
            return self.entity
        headers = getattr(request, "headers", None)
        values = _header_values(headers, self.header) if headers is not None else []
        if len(values) > 1 or (values and "," in values[0]):
            # A gateway that appends its header instead of replacing the client's (Envoy's default) sends two
            # (or, folded, one comma-joined value): serving either could be another user's memory.
            raise MemoryToolError(f"the request carries the {self.header} header more than once (or a "
                                  "comma-separated value); this server takes exactly one entity per request: the "
                                  "gateway in front of it must replace the client's header, not add to it")
        if not values or not values[0].strip():
            raise MemoryToolError(f"this server takes whose memory to use from the {self.header} header, and "
                                  "the request has none")
        return check_entity_id(header_entity(values[0].strip(), self.header))


_PERCENT = re.compile(r"%(?![0-9A-Fa-f]{2})")


def header_entity(value: str, header: str = "the entity header") -> str:
    """The entity id a header ``value`` carries: UTF-8, percent-encoded or sent as raw bytes.

    HTTP servers hand a header's bytes over as Latin-1 (ASGI), so raw UTF-8 (``josé``) arrives as ``josÃ©``: the
    value is taken back to its bytes and read as UTF-8. ``%XX`` escapes are then decoded, the way a client can send
    any id in ASCII (``jos%C3%A9``, ``a%2Cb`` for ``a,b``; a ``%`` of the id itself is ``%25``). A ``%`` with no two
    hex digits after it, or bytes that are not UTF-8, are refused: read otherwise, they would name another user.

    >>> header_entity("josÃ©"), header_entity("jos%C3%A9"), header_entity("ann")
    ('josé', 'josé', 'ann')
    """
    if _PERCENT.search(value):
        raise MemoryToolError(f"the {header} header has a '%' that starts no %XX escape: send the entity id "
                              "percent-encoded as UTF-8 (a '%' of the id itself as %25)")
    try:
        raw = value.encode("latin-1")
    except UnicodeEncodeError:  # already text, from a server that decoded it
        raw = value.encode("utf-8")
    try:
        return unquote_to_bytes(raw).decode("utf-8")
    except UnicodeDecodeError:
        raise MemoryToolError(f"the {header} header is not UTF-8: send the entity id as UTF-8, best "
                              "percent-encoded (josé as jos%C3%A9)") from None


def _header_values(headers: Any, name: str) -> list[str]:
    """Every value of header ``name`` a request carries (Starlette's ``getlist``; one ``get`` otherwise)."""
    getlist = getattr(headers, "getlist", None)
    if callable(getlist):
        return [str(v) for v in getlist(name)]
    value = headers.get(name)
    return [] if value is None else [str(value)]


def _shown(fact: RecalledFact | StoredFact, **scores: Any) -> dict[str, Any]:
    """A fact as ``recall`` answers it, for the client's model (``scores``: its ``valid_to`` and score parts): its
    metadata without a LangGraph store item (:data:`~memori_core.metadata_keys.STORE_ITEM_KEY`: the whole item
    again, its text and an internal digest) nor the item's namespace; ``get`` and ``list`` still show the stored
    record whole."""
    metadata = {k: v for k, v in fact.metadata.items() if k not in (STORE_ITEM_KEY, STORE_NAMESPACE_KEY)}
    return {"id": fact.id, "text": fact.content, "created_at": fact.created_at, "valid_from": fact.valid_from,
            "restored_at": fact.restored_at, **scores, "metadata": metadata}


def _fact(fact: RecalledFact) -> dict[str, Any]:
    """A recalled fact as ``recall`` answers it (:func:`_shown`), with its scores."""
    return _shown(fact, valid_to=fact.valid_to, score=fact.rank_score, cosine=fact.cosine, lexical=fact.lexical)


def _listed(fact: StoredFact) -> dict[str, Any]:
    """A listed fact in ``recall``'s shape (:func:`_shown`), for a question about what memory holds: no scores."""
    return _shown(fact, valid_to=None, score=None, cosine=None, lexical=None)


async def _everything(engine: RecallEngine, who: str, limit: int | None) -> dict[str, Any]:
    """``recall``'s answer to a question about what memory holds ("What do you remember about me?"), as the agent
    tools' ``recall_memory`` gives it: the newest page of the user's unexpired facts (``limit``, at least
    :data:`DEFAULT_PAGE`; :func:`~memori_core.unexpired.anewest_unexpired`), newest first, with ``more`` and a
    ``message`` pointing to ``list`` when more unexpired facts are stored."""
    held = await anewest_unexpired(engine, who, min(MAX_PAGE, max(DEFAULT_PAGE, limit or 0)))
    out: dict[str, Any] = {"facts": [_listed(f) for f in held.facts]}
    if not held.facts:
        out["message"] = NOTHING_RELEVANT
    if held.next_offset is not None:
        out["more"] = True
        out["message"] = (f"the user's {len(held.facts)} newest unexpired facts; more are stored: call list with "
                          f"offset={held.next_offset} for the rest")
    return out


def _records(facts: Sequence[StoredFact]) -> list[dict[str, Any]]:
    """Stored facts as ``list``, ``get``, ``history`` and ``restore`` answer: export records, each with ``expired``
    (past its ``expires_at`` now: recall skips it, as ``memori list`` marks it ``[expired]``)."""
    now = time.time()
    return [{**to_record(f), "expired": f.is_expired(now)} for f in facts]


def _texts(facts: Any) -> list[str]:
    """The facts of an ``add``, each checked; a bad one is named by its place (``facts[1]``), so that a client can
    drop or fix it and send the rest again (nothing of the call is stored)."""
    if isinstance(facts, str):
        facts = [facts]
    if not isinstance(facts, Sequence) or not facts or len(facts) > MAX_PAGE:
        raise MemoryToolError(f"facts must be a list of 1 to {MAX_PAGE} short statements")
    return [check_fact_text(f, f"facts[{i}]") for i, f in enumerate(facts)]


def _named_said_at(exc: ValueError) -> str:
    """The engine's error naming its ``at`` argument, as these tools name it: ``said_at``."""
    said = str(exc)
    return f"said_at {said[3:]}" if said.startswith("at ") else said


def _said_at(value: Any, name: str = "said_at") -> datetime | None:
    """An ``add``'s ``said_at`` or a ``recall``'s ``as_of`` (the tool argument ``name``): ``None``, or an ISO 8601
    time with its offset, read as every time memori is given (:func:`~memori_core.validate.check_time`); one without
    an offset is refused: the client should say the zone the user spoke in."""
    if value is None:
        return None
    if not isinstance(value, str):
        raise MemoryToolError(f"{name} must be an ISO 8601 time with its offset, e.g. 2026-03-01T18:30:00+01:00")
    try:
        return check_time(value, name, needs_zone=True)
    except ValueError as exc:
        said = str(exc)
        raise MemoryToolError(said if "(e.g." in said else f"{said} (e.g. 2026-03-01T18:30:00+01:00)") from None


def _as_of(value: Any) -> tuple[datetime | None, dict[str, str]]:
    """A ``recall``'s ``as_of``, read as ``memori recall --as-of`` and the Python API read it (one rule): an ISO 8601
    date or time, one without an offset taken as UTC (a date alone: its start), and the answer's ``note`` saying
    so; ``(time, {})`` for one with its offset or none given."""
    if value is None:
        return None, {}
    if not isinstance(value, str):
        raise MemoryToolError("as_of must be an ISO 8601 time, e.g. 2026-03-01T18:30:00+01:00")
    try:
        when = check_time(value, "as_of", warns=False)
    except ValueError as exc:
        raise MemoryToolError(f"{exc} (e.g. 2026-03-01T18:30:00+01:00)") from None
    try:
        check_time(value, "as_of", needs_zone=True)
    except ValueError:  # (it was read above: only the offset is missing)
        return when, {"note": f"as_of {value} has no offset, so it was read as UTC"}
    return when, {}


def _edit_said_at(value: Any) -> tuple[datetime | None, dict[str, str]]:
    """An edit's ``said_at`` (``update``, ``delete``, ``restore``, ``cancel``) read as ``add`` reads it: a time later
    than now (a client's clock ahead) is read as now, and the answer's ``note`` says so; else ``(time, {})``."""
    when = _said_at(value)
    if when is not None and said_before_now(when) is None:
        return None, {"note": f"said_at {value} is later than now, so the change is dated now"}
    return when, {}


MAX_CONTEXT_TURNS = 20
"""The most earlier turns a ``recall`` takes in ``context``; recall reads the newest
:attr:`~memori_core.config.RecallConfig.context_turns` of them (3 by default), each as long as a query may be."""


def _context(value: Any) -> list[str] | None:
    """A ``recall``'s ``context``: ``None``, or the user's earlier turns, oldest first (a single ``str`` is one
    turn), at most :data:`MAX_CONTEXT_TURNS`, each a non-blank text named by its place (``context[1]``)."""
    if value is None:
        return None
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, Sequence) or len(value) > MAX_CONTEXT_TURNS:
        raise MemoryToolError(f"context must be a list of at most {MAX_CONTEXT_TURNS} earlier user turns (str), "
                              "oldest first; pass the newest few")
    return [check_tool_text(turn, f"context[{i}]") for i, turn in enumerate(value)]


def _ids(ids: Any, *, editable: bool = False, name: str = "ids") -> list[str]:
    """The ids of a ``get`` (any, version ids included), a ``delete`` or a ``cancel``'s ``told_by`` (``editable``:
    no version ids), the argument ``name``d, a bad one by its place (``ids[0]``)."""
    if isinstance(ids, str):
        ids = [ids]
    if not isinstance(ids, Sequence) or not ids or len(ids) > MAX_PAGE:
        raise MemoryToolError(f"{name} must be a list of 1 to {MAX_PAGE} fact ids")
    check = check_editable_id if editable else check_tool_id
    return list(dict.fromkeys(check(fid, f"{name}[{i}]") for i, fid in enumerate(ids)))


def check_arguments(tool: Any, name: str, arguments: dict[str, Any] | None) -> None:
    """Refuse a call to the registered ``tool`` ``name`` whose ``arguments`` it does not take: unknown names, and
    values not of the declared JSON type, checked strictly (a boolean must be ``true`` / ``false``, an integer a
    JSON integer: not a string, a float or a boolean). Raises :class:`MemoryToolError` with each problem, no
    pydantic links. (A list given as a JSON string is read as the list, as the SDK reads it.)"""
    arguments = arguments or {}
    taken = sorted(tool.parameters.get("properties", {}))
    unknown = sorted(set(arguments) - set(taken))
    if unknown and any("entit" in u or "user" in u for u in unknown):
        raise MemoryToolError(f"{name}: unexpected argument(s) {', '.join(unknown)}; whose memory this server uses "
                              "is set by its operator, not by a tool call")
    if unknown:
        takes = f"it takes {', '.join(taken)}" if taken else "it takes no arguments"
        raise MemoryToolError(f"{name}: unexpected argument(s) {', '.join(unknown)}; {takes}")
    from pydantic import ValidationError

    meta = tool.fn_metadata
    try:
        meta.arg_model.model_validate(meta.pre_parse_json(arguments), strict=True)
    except ValidationError as exc:
        raise MemoryToolError(f"{name}: invalid arguments, nothing was done: {validation_problems(exc)}") from None


def _not_done(tool: str, sent: bool = True) -> str:
    """What a tool call that got no answer did: a read nothing, a write perhaps all of it (``sent``: it may have
    reached the store; a write that never did changed nothing)."""
    if tool in WRITE_TOOLS and sent:
        return "the change may still have been made: check with list or get before trying again"
    return "nothing was changed; try again later"


class NothingWritten(Exception):
    """A write tool's call that failed before any of its writes reached the store (its ``__cause__`` says why)."""


def _could_not_connect(exc: BaseException) -> bool:
    """Whether ``exc`` is a connection that was never made (refused, no route; a server that did not answer yet
    when the store was built, at its first call): no request was sent on it."""
    if isinstance(exc, (ConnectionRefusedError, NotReached, NoServerAnswers)):
        return True
    if isinstance(exc, StoreUnreachable) and not exc.sent and not isinstance(exc, TimeoutError):
        return True
    httpx = sys.modules.get("httpx")
    return httpx is not None and isinstance(exc, httpx.ConnectError)


def unanswered_call(tool: str, exc: BaseException, store: Any) -> str | None:
    """The tool error for a call the store did not answer (:func:`~memori_core.outage.is_outage`: a timeout, a
    refused or dropped connection, a gateway's 502/503/504), naming the server; ``None`` for another error. A
    connection that was never made is said so ("could not connect"), not as a store that did not answer; and a
    write that reached nothing (:class:`NothingWritten`: an ``add`` refused before any fact was stored, or any
    write given no time to send its first request) is said to have changed nothing."""
    seen: BaseException | None = exc
    unsent = False
    for _ in range(4):  # the SDK raises its own error from the tool's
        if seen is None or is_outage(seen):
            break
        unsent = unsent or isinstance(seen, NothingWritten)
        seen = seen.__cause__
    if seen is None or not is_outage(seen):
        return None
    sent = not (unsent or isinstance(seen, NotReached))
    if isinstance(seen, WriteOutcomeUnknown) and seen.__cause__ is not None:
        seen, sent = seen.__cause__, True  # named by what the store raised; the type says the change was sent
    where = getattr(store, "location", None)
    server = f"the Chroma server at {where}" if isinstance(where, str) and "://" in where else "the memory store"
    # A StoreUnreachable made of httpx's error (from_transport) already says what this message says: that error
    # is the detail worth adding. Any other (NoServerAnswers over chromadb's ValueError) says more itself.
    httpx = sys.modules.get("httpx")
    cause = seen.__cause__ if isinstance(seen, StoreUnreachable) else None
    detail = cause if httpx is not None and isinstance(cause, httpx.TransportError) else seen
    if isinstance(seen, ServerUnavailable):  # the address answered: a proxy's or Chroma's 502/503/504
        return f"{tool}: {server} is unavailable ({error_text(seen)}); {_not_done(tool, sent)}"
    if _could_not_connect(seen):
        return (f"{tool}: could not connect to {server} ({type(detail).__name__}: {error_text(detail)}); is it "
                f"running? {_not_done(tool, sent)}")
    limit = getattr(store, "request_timeout", None)
    within = f" within {limit:g} s" if isinstance(limit, (int, float)) and limit > 0 else ""
    return (f"{tool}: {server} did not answer{within} ({type(detail).__name__}: {error_text(detail)}); is it "
            f"stopped or overloaded? {_not_done(tool, sent)}")


_RUNNING: set[asyncio.Task[Any]] = set()  # writes run to their end after their call was given up on


async def _to_its_end(work: Coroutine[Any, Any, T]) -> T:
    """Await ``work`` as a task of its own that a cancelled caller does not cancel."""
    task = asyncio.ensure_future(work)
    _RUNNING.add(task)
    task.add_done_callback(_RUNNING.discard)
    return await asyncio.shield(task)


def build_server(
    engine: RecallEngine | None,
    *,
    open_engine: Callable[[], RecallEngine] | None = None,
    entity: str | None = None,
    entity_header: str | None = None,
    host: str = "127.0.0.1",
    port: int = 8000,
    name: str = SERVER_NAME,
    timeout: float | None = DEFAULT_TOOL_TIMEOUT,
) -> FastMCP:
    """An MCP server (the SDK's ``FastMCP``) over ``engine`` for one entity, or for the entity each HTTP
    request's ``entity_header`` names (exactly one of the two).

    ``host`` / ``port`` are where ``server.run("streamable-http")`` listens (the
    SDK turns on its DNS-rebinding protection for a loopback host). Run it with
    ``server.run()`` (stdio) or ``server.run("streamable-http")``. ``timeout``: seconds one tool call may take
    (``None``: no limit but the store's per request); past it the client gets a tool error saying so, as it
    does, naming the server, when the store does not answer (module docstring). The SDK's error log for an
    ordinary client disconnect is dropped (:class:`ClientGoneFilter`).

    ``open_engine`` (with ``engine=None``): the server starts without an engine and opens it at the first tool
    call, and again at each later call until it succeeds; until then every tool call answers the error it
    raised (``memori mcp`` uses it for a folder another process holds: the client shows the reason, and the
    server works once the folder is free, without a restart).
    """
    if (engine is None) == (open_engine is None):
        raise TypeError("build_server takes an engine, or engine=None and open_engine=")
    if engine is not None and not isinstance(engine, RecallEngine):
        raise TypeError(f"build_server: engine must be a memori_core.RecallEngine, got {type(engine).__name__}")
    fastmcp = _require_mcp()
    quiet_client_disconnects()
    source = EntitySource(entity, entity_header)
    limit = check_timeout(timeout, "build_server")
    import anyio
    from mcp.server.fastmcp.exceptions import ToolError

    opening = asyncio.Lock()

    async def opened() -> RecallEngine:
        """The engine, opened now by ``open_engine`` when it is not yet (one call at a time)."""
        nonlocal engine
        async with opening:
            if engine is None:
                assert open_engine is not None
                try:
                    engine = await anyio.to_thread.run_sync(open_engine)
                except Exception as exc:  # noqa: BLE001 - said to the client; tried again at the next call
                    raise ToolError(f"memory is not available: {exc} (this server tries again at each call)"
                                    ) from None
            return engine

    class _MemoriMCP(fastmcp.FastMCP):  # type: ignore[misc, name-defined]
        async def call_tool(self, name: str, arguments: dict[str, Any]) -> Any:
            tool = self._tool_manager.get_tool(name)
            if tool is not None:
                try:
                    check_arguments(tool, name, arguments)
                except MemoryToolError as exc:
                    raise ToolError(str(exc)) from None
                await opened()
            # A write cancelled here runs to its end on the engine's threads (engine/workers.py); a read
            # still waiting for a thread is not run.
            with anyio.move_on_after(limit):
                try:
                    return await super().call_tool(name, arguments)
                except ToolError as exc:
                    if isinstance(exc.__cause__, MemoryToolError):  # the client's mistake: "add: facts[1] ...", as
                        raise ToolError(f"{name}: {exc.__cause__}") from None  # check_arguments words its own
                    unanswered = unanswered_call(name, exc, engine.store if engine is not None else None)
                    if unanswered is None:
                        raise
                    raise ToolError(unanswered) from None
            raise ToolError(f"{name}: no answer within {limit:g} s (the memory store or the embedder is slow or "
                            f"unreachable, or busy with other calls); {_not_done(name)}")

    server = _MemoriMCP(
        name,
        instructions="Long-term memory about the user: recall relevant facts before answering, add what the user "
        "states about themselves, update or delete facts that changed; list pages through every fact (for 'what "
        "do you know about me?').",
        host=host, port=port, log_level="WARNING",
    )
    Context = fastmcp.Context

    def live() -> RecallEngine:
        """The engine (opened before any tool runs: ``call_tool``)."""
        assert engine is not None
        return engine

    def whose(ctx: Any) -> str:
        request = getattr(ctx.request_context, "request", None) if ctx is not None else None
        return source.of(request)

    async def recall(query: str, limit: int | None = None, explain: bool = False, context: list[str] | None = None,
                     as_of: str | None = None, ctx: Context = None) -> dict[str, Any]:
        """The user's stored facts relevant to `query`, best first (at most `limit`; default the server's).
        `explain=true` adds every candidate's score parts and fate. When no fact passes the relevance gate,
        `facts` is empty and `message` says so. Ask as the user would ("my allergies"; "the user" is read so).
        For a follow-up that leans on earlier turns ("What should I pack?", "And for dinner?"), pass the user's
        earlier turns in `context` (oldest first, newest last; the newest 3 are read by default), or make `query`
        self-contained ("what to pack for my trip to Japan"). `as_of` (ISO 8601; without an offset it is read as
        UTC, and `note` says so): recall the facts that were valid then (e.g. a replayed chat), default now. A question about what memory holds ("What
        do you remember about me?") gets the user's newest facts, as `list` gives them (`more`: there are more)."""
        config = live().config  # a courtesy turn read with the engine's analyzer
        who, query = whose(ctx), as_the_user_asks(check_tool_text(query, "query"), tokenizer=config.tokenizer,
                                                  stemmer=config.stemmer)  # "user allergies": "my ..."
        if limit is not None and not 1 <= limit <= MAX_PAGE:
            raise MemoryToolError(f"limit must be 1..{MAX_PAGE}")
        earlier, (when, note) = _context(context), _as_of(as_of)
        if not explain and when is None and asks_what_memory_holds(query):
            # "What do you remember about me?" asks for every fact, not the limit most relevant (recall_memory's)
            return await _everything(live(), who, limit)
        if explain:
            report = await live().aexplain(query, who, limit, context=earlier, as_of=when)
            facts, extra = list(report.facts), {"explain": report.to_dict()}
        else:
            facts, extra = list(await live().arecall(query, who, limit, context=earlier, as_of=when)), {}
        out: dict[str, Any] = {"facts": [_fact(f) for f in facts]}
        if not facts:
            out["message"] = NOTHING_RELEVANT
        return {**out, **note, **extra}

    async def add(facts: list[str], core: bool | None = None, said_at: str | None = None,
                  ctx: Context = None) -> dict[str, Any]:
        """Store facts about the user (short statements, e.g. "User is allergic to peanuts."); returns their ids,
        one per fact. A fact a stored one already says is not stored again: its id is that fact's, listed in
        `already`. A fact that changes a stored one (a new home, job or diet: "User lives in Porto." over "User
        lives in Lisbon.") ends it, kept as history: `replaced` lists each ended fact (`id`, `text`, `by`: the
        id of the fact that holds now: the new fact's, or another writer's that ended it at the same moment and
        stayed, the new fact then kept as history); `restore` undoes it. A fact said (`said_at`) before the stored fact
        it changes was stated ends nothing: it is kept as that fact's history, and `told_late` lists it (`id`; `by`,
        `text`: the later fact, which holds now). A change told ahead with its day ("User is starting at Deloitte
        on Nov 1.") is stored as told, and the state it brings beside it, valid from that day, when it ends what it
        replaces (not now): `to_come` lists it (`id`, `text`, `from`, `replaces`). When only part of an ended fact changed
        ("User switched from an insulin pump to injections." ends "User has type 1 diabetes and uses an insulin
        pump."), `kept` lists what still holds, stored as facts of their own (`id`, `text`). Allergies, medication and diets are core (recalled on every query);
        `core=true` / `false` marks every fact of the call so instead. `said_at` (ISO 8601 with its offset, e.g.
        "2026-03-01T18:30:00+01:00"): when the user said them, when you know it (an imported chat); default, or a
        time to come: now (`note` says so). A fact that cannot be stored (blank, too long,
        a password) is named by its place (`facts[1]`) and nothing of the call is stored: drop or fix it and send
        the facts again."""
        who, texts, when = whose(ctx), _texts(facts), _said_at(said_at)
        ahead = when is not None and said_before_now(when) is None  # written at now, as the answer's note says
        # Run to its end even when the call is given up on (the tool timeout): the write may have begun, as
        # the client is told; what it read first to plan it is part of it.
        landed: list[str] = []
        try:
            written = await _to_its_end(awrite_facts(live(), who, texts, core, landed,
                                                     said_at=None if ahead else when))
        except PartialWriteError:
            raise
        except Exception as exc:
            if not landed and _could_not_connect(exc):
                raise NothingWritten(str(exc)) from exc
            raise
        out = {"ids": [w.id for w in written], "already": list(dict.fromkeys(w.id for w in written if w.already)),
               "replaced": [{"id": f.id, "text": f.content, "by": (w.instead or w).id}
                            for w in written if not told_late(w.ended, w.instead) for f in w.ended]}
        late = [{"id": w.id, "by": w.instead.id, "text": w.instead.content}
                for w in written if w.instead is not None and told_late(w.ended, w.instead)]
        if late:
            out["told_late"] = late
        coming = [{"id": fid, "text": change.fact, "from": change.start.isoformat(),
                   "replaces": [{"id": f.id, "text": f.content} for f in ends]}
                  for w in written if w.to_come is not None for fid, change, ends in [w.to_come]]
        if coming:
            out["to_come"] = coming
        kept = [{"id": kid, "text": text} for w in written for kid, text in w.kept]
        if kept:
            out["kept"] = kept
        if ahead:
            out["note"] = f"said_at {said_at} is later than now, so the facts are dated now"
        return out

    async def list_(limit: int = 20, offset: int = 0, ctx: Context = None) -> dict[str, Any]:
        """A page of the user's stored facts, newest first; `more` says whether another page follows."""
        who = whose(ctx)
        if not 1 <= limit <= MAX_PAGE or offset < 0:
            raise MemoryToolError(f"limit must be 1..{MAX_PAGE} and offset >= 0")
        page = await live().alist(who, limit=limit + 1, offset=offset)
        return {"facts": _records(page[:limit]), "more": len(page) > limit}

    async def get(ids: list[str], ctx: Context = None) -> dict[str, Any]:
        """The user's stored facts with these ids; ids this user has no fact with are listed in `unknown`."""
        who, wanted = whose(ctx), _ids(ids)
        found = await live().aget(who, wanted)
        have = {f.id for f in found}
        return {"facts": _records(found), "unknown": [i for i in wanted if i not in have]}

    async def update(fact_id: str, text: str, said_at: str | None = None, ctx: Context = None) -> dict[str, Any]:
        """Replace the text of one of the user's facts (its id stays; its old text is kept as history under
        `<id>@v<n>`, which cannot be updated itself); returns the fact. A fact a newer one replaced is history too:
        nothing is changed, and the error names the fact that holds now (update that one, or `restore` the old
        one first). `said_at` (ISO 8601 with its offset, as `add` takes it): when the user told the change, when
        you know it (an imported chat); the new text holds from then, default now."""
        who, fid = whose(ctx), check_editable_id(fact_id)
        when, note = _edit_said_at(said_at)
        new, expiry = edit_dated(check_fact_text(text), when)
        try:
            return {"fact": _records([await live().aupdate(who, fid, text=new, at=when, **expiry)])[0], **note}
        except KeyError:
            raise MemoryToolError(f"this user has no fact with id {fid!r}") from None
        except ReplacedFactError as exc:
            raise replaced_error(exc, MCP_NAMES) from None
        except ValueError as exc:  # said_at before the fact was stated
            raise MemoryToolError(_named_said_at(exc)) from None

    async def delete(ids: list[str], told_by: list[str] | None = None, said_at: str | None = None,
                     ctx: Context = None) -> dict[str, Any]:
        """Delete some of the user's facts by id, with their history (the earlier versions each replaced: the
        address the user had before); returns the ids deleted and those this user has no fact with. (An id of one
        earlier version, `<id>@v<n>`, is refused.) A change told ahead deleted before its start never starts:
        what it was to replace holds on, and `told_by`, ids of the facts that told it (as `cancel` takes them),
        are ended, kept as history; `told_by` for a delete of no change to come is refused. `said_at` (ISO 8601
        with its offset): when the user asked, default now."""
        who, wanted = whose(ctx), _ids(ids, editable=True)
        plans = _ids(told_by, editable=True, name="told_by") if told_by else []
        when, note = _edit_said_at(said_at)
        every: list[str] = []
        for fid in wanted:
            try:
                every += with_earlier_versions(await live().ahistory(who, fid), fid, now=when)
            except KeyError:
                every.append(fid)  # reported as unknown below
        try:
            deleted = await live().adelete(who, list(dict.fromkeys(every)), told_by=plans, at=when)
        except NothingToCancelError as exc:
            raise MemoryToolError(str(exc).replace(f" of entity {who!r}", "")) from None
        except ValueError as exc:  # said_at before a fact it deletes was stated
            raise MemoryToolError(_named_said_at(exc)) from None
        return {"deleted": deleted, "unknown": [i for i in wanted if i not in set(deleted)], **note}

    async def history(fact_id: str, ctx: Context = None) -> dict[str, Any]:
        """The versions of one of the user's facts, oldest first (a superseded or updated fact keeps its old
        versions, no longer valid: `valid_to`, `superseded_by`); the valid one is last."""
        who, fid = whose(ctx), check_tool_id(fact_id)
        try:
            return {"versions": _records(await live().ahistory(who, fid))}
        except KeyError:
            raise MemoryToolError(f"this user has no fact with id {fid!r}") from None

    async def restore(fact_id: str, said_at: str | None = None, ctx: Context = None) -> dict[str, Any]:
        """Undo a wrong supersede or update of one of the user's facts; returns the restored fact. `fact_id` is a
        superseded fact (valid again as it was; the fact that replaced it stays), or an earlier version
        `<id>@v<n>` from `history` (fact `<id>` takes that text again from now on; its current text is kept as
        history). `said_at` (ISO 8601 with its offset): when the user said so, default now."""
        who, fid = whose(ctx), check_tool_id(fact_id)
        when, note = _edit_said_at(said_at)
        try:
            return {"fact": _records([await live().arestore(who, fid, at=when)])[0], **note}
        except KeyError:
            raise MemoryToolError(f"this user has no fact with id {fid!r}") from None
        except NothingToRestoreError as exc:  # valid already (what it replaced is named), or a version whose text
            # the fact has
            rows = await live().ahistory(who, fid)
            raise restore_refusal(exc, who, fid, lambda: rows, MCP_NAMES, "delete with ids [{fid!r}]") from None
        except ValueError as exc:  # said_at before what it undoes
            raise MemoryToolError(_named_said_at(ValueError(str(exc).replace(f" of entity {who!r}", "")))) from None

    async def cancel(fact_id: str, told_by: list[str] | None = None, said_at: str | None = None,
                     ctx: Context = None) -> dict[str, Any]:
        """Call off a change told ahead before its start ("actually I'm staying at Bosch" after "User works at
        Siemens." was stored valid from January); returns the change, ended (kept as history, valid at no time).
        The facts it was to replace hold on. `told_by`: ids of the facts that told it (the plan: "User got a job at
        Siemens, starting in January."), ended too in the same write. `said_at` (ISO 8601 with its offset, as the
        other edits take it): when it was called off (a replayed chat), default now. A change that started already, or a fact never told ahead, is
        refused: nothing is changed."""
        who, fid = whose(ctx), check_editable_id(fact_id)
        plans = _ids(told_by, editable=True, name="told_by") if told_by else []
        when, note = _edit_said_at(said_at)
        try:
            return {"fact": _records([await live().acancel(who, fid, told_by=plans, at=when)])[0], **note}
        except KeyError:
            raise MemoryToolError(f"this user has no fact with id {fid!r}") from None
        except NothingToCancelError as exc:
            raise MemoryToolError(str(exc).replace(f" of entity {who!r}", "")) from None
        except ValueError as exc:  # said_at before the change was told
            raise MemoryToolError(_named_said_at(exc)) from None

    async def forget(ctx: Context = None) -> dict[str, Any]:
        """Delete every fact of the user, with its history (there is no undo). Returns what was erased:
        `forgot`, the user's current facts, and `older_versions`, the stored rows no longer valid that went with
        them (earlier texts of updated facts, superseded facts)."""
        who = whose(ctx)
        with contextlib.suppress(Exception):  # the copy forget counts the older versions from; never stops the erase
            await live().acount(who)
        erased = await live().aforget(who)
        return {"forgot": erased.facts, "older_versions": erased.older_versions}

    tools = {"recall": recall, "add": add, "list": list_, "get": get, "update": update, "history": history,
             "restore": restore, "cancel": cancel, "delete": delete, "forget": forget}
    if list(tools) != list(TOOL_NAMES):  # pragma: no cover - a tool added here must be named in TOOL_NAMES
        raise AssertionError(f"TOOL_NAMES {TOOL_NAMES} does not match the tools built {tuple(tools)}")
    from mcp.types import ToolAnnotations

    for tool_name, fn in tools.items():
        fn.__annotations__["ctx"] = Context  # the SDK injects the request context by this annotation
        server.add_tool(fn, name=tool_name, description=inspect.cleandoc(fn.__doc__ or ""),
                        annotations=ToolAnnotations(**TOOL_HINTS[tool_name], openWorldHint=False))
    return server


def check_http_host(host: str, allow_remote: bool) -> None:
    """Refuse a non-loopback ``host`` unless ``allow_remote`` (``memori mcp --allow-remote``)."""
    if not allow_remote and not is_loopback(host):
        raise ValueError(f"--http {host}: not a loopback address; the server has no authentication of its own, "
                         "so it listens on this machine only unless --allow-remote is given (put it behind a "
                         "gateway that authenticates users and sets the entity header)")
