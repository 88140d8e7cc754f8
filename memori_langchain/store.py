"""``MemoriStore``: LangGraph's long-term memory store (``BaseStore``) over a :class:`~memori_core.RecallEngine`.

>>> store = MemoriStore(engine, namespace=("memories", "{user_id}"))
>>> store.put(("memories", "alice"), "diet", {"content": "Alice is vegetarian."})
>>> store.search(("memories", "alice"), query="what should I cook tonight?")
>>> agent = create_agent(model, tools, store=store)        # runtime.store in tools and middleware

What goes where:

- **Namespaces are users.** The store is given one namespace template: literal labels and
  ``{placeholders}`` (``("memories", "{user_id}")``, LangMem's spelling). A namespace of that shape is one
  entity of the engine, named by the placeholders' values (one placeholder: its value, so
  ``("memories", "alice")`` is the entity ``"alice"`` that the retriever, the middleware and
  ``engine.recall`` read too). Any other shape is refused with ``InvalidNamespaceError``, and so is a search
  or ``list_namespaces`` whose prefix does not name every placeholder: one call reads one user's memory,
  never several users' merged. Several stores of other shapes over one engine (``("profile", "{user_id}")``
  and ``("memories", "{user_id}")``) keep their items apart: an item is its namespace and its key. Each item
  records its namespace (:data:`NAMESPACE_KEY`: the template's :attr:`~NamespaceTemplate.kind`); a store
  reads its own items and the facts of no namespace (``engine.add``, capture, and items written before
  namespaces were recorded, which every store reads as it did).
- **Items are facts.** ``put(namespace, key, value, index=..., ttl=...)`` stores one fact: its id is the
  key (or ``<kind>:<key>`` when the user's fact with that id is another namespace's item), its text the
  indexed fields of the value (``index``, else the store's ``fields``; the whole value by default), its
  expiry ``ttl`` minutes from now; the value itself travels in the fact's metadata under :data:`ITEM_KEY`,
  so ``get`` returns a value equal to it (object keys sorted, as a JSON column keeps them) and filters read
  every field of it. A second put of a key keeps ``created_at`` and moves ``updated_at``; ``value=None``
  deletes. A put over an existing fact keeps what it does not say: the ``core`` mark, capture's and the app's
  own metadata, and an expiry set outside the store (a put's ``ttl`` replaces only a TTL a put gave). Facts
  that were not written through the store (``engine.add``, capture) are items too, with the value
  ``{"content": text}`` (the text at the store's first ``fields`` path when that is a plain one, e.g.
  ``{"text": ...}`` for ``fields=["text"]``): put back as read, or edited, the fact keeps its text (the
  edited field) and its metadata. A key is a ``str``: ``put`` / ``get`` / ``delete`` take another key's
  ``str()`` (LangGraph's ``BaseStore`` does, for every store), an operation built by hand with one raises
  ``TypeError`` naming ``key``. A value with a secret in any of its strings
  (:func:`~memori_core.capture.secret_in`: a password or PIN with its value, a card, SSN, IBAN or ID document
  number, an API key) or prompt markup in any of its strings or keys (:func:`~memori_core.capture.prompt_markup_in`:
  a ``<memori_context>`` tag or a chat-template token, a role label such as "SYSTEM:", an instruction to the
  model) is refused with a ``ValueError`` naming the field and what it carries, never the value, as an agent's
  ``remember`` tool refuses it (model-driven memory tools write through a store too, and an item's text is
  recalled into later prompts); other angle brackets (``<b>``, ``a < b``) are stored as they are. An item whose text
  is a care fact (:func:`~memori_core.extraction.core_facts.is_core_fact`, the rule capture marks ``core`` by) is
  stored ``core``: recalled on every turn.
- **A key follows its fact.** When a newer fact supersedes an item's fact (capture hears "I moved to Porto"
  and replaces the item ``city``, "User lives in Lisbon."), the key reads the newer fact: ``get`` returns the
  item's value with the field its text came from holding the new text (the app's other fields kept), a search
  shows the newer fact under the key, a put of the key edits it and a delete deletes it (and the item's
  superseded facts). The same holds for a text edited outside the store (``engine.update``, the agent's
  ``update_memory`` tool, MCP ``update``); a value whose text was several fields or its JSON, which the new
  text no longer matches, reads back as ``{"content": text}``.
- **A put of a new key that states a change ends the fact it replaces.** LangMem's ``manage_memory`` "create",
  and any app that keeps one memory per key, puts "User moved to Porto." under a new key after "User lives in
  Lisbon.": the put's text is read by the change rules of the agent's ``remember`` tool
  (:func:`memori_core.tool_writes.ended_by`: a change or an ending told as such, a denial, a plain statement of a
  home, job or age said the way the stored one is), over the searchable facts this store reads that rank
  nearest the text and the newest of its slots of the same person. What it ends is superseded, kept as history
  (``engine.history``, ``engine.restore``), and its key reads nothing. A put of an existing key is an update of
  that fact and ends nothing else; a put with ``index=False`` ends nothing and is never ended; nothing is judged
  (a put stores its text as given, without capture's filters). ``supersede=False`` turns this off.
- **``index=False`` is kept out of search**, as LangGraph means it: the fact (its text the whole value) is
  marked ``"searchable": False`` (:data:`memori_core.facts.SEARCHABLE_KEY`), so ``engine.recall``, and with
  it the middleware, the graph node, the retriever and the tools, never returns it nor puts it in a prompt.
  ``get`` reads it and a search without a query lists it, but a search with a query never returns it, as
  LangGraph's ``PostgresStore`` does (its semantic search reads only items with a vector): an item kept out of
  prompts is not handed to a tool that feeds one. (LangGraph's ``InMemoryStore`` fills a page it cannot fill
  with scored items with such items, unscored; with the relevance gate that would hand them to every
  off-topic search, so this store does not.) A value with no text at its indexed fields (each missing,
  ``None`` or blank; a whole value with no text in it) is stored the same way, as LangGraph's own stores embed
  nothing for it. A later put with text, and without
  ``index=False``, makes it searchable again.
- **Search is recall.** With a query, the engine ranks (dense + BM25, the relevance gate; ``gate=False``
  returns the best ``limit`` whatever their relevance, as the engine with ``gate="off"`` would) and each
  ``SearchItem``'s ``score`` is the fact's ``rank_score``; without one, the items are listed oldest first.
  "The user" in the query that reads as the memory's user is read in the first person
  (:func:`~memori_core.tool_queries.the_user_in_first_person`: a model's "where does the user live" is "where
  do I live", "the user's diet" is "my diet"); anything else is searched as written ("thanks", "my user's
  password reset", "where does the user get redirected after login"). Write ``q1`` for ``q`` so read.
  A page is a slice of one recall: ``search(ns, query=q, offset=o, limit=n)`` is items ``o`` to ``o + n`` of
  ``engine.recall(q1, entity, o + n)`` (the recall reads the facts the store reads: a user with items of
  another namespace has them left out). The gate judges the top ``o + n`` candidates together, so the ranked
  items of the first page (``offset=0``) are exactly ``engine.recall(q1, entity, n)``, but a later page is not
  always the continuation of an earlier one: with a
  larger ``o + n`` the gate may keep a fact that a smaller request dropped (or the reverse), so pages may
  overlap or skip an item. To read a ranked list whole, search once with the ``limit`` you need.
  ``filter`` is LangGraph's (``{"kind": "note", "rating": {"$gte": 3}}``; ``$eq $ne $gt $gte $lt $lte``),
  applied before ranking; it reads the values put through the store.
- **TTLs are refreshed by get.** A get of an item with a TTL starts it again (once :data:`REFRESH_AFTER` of it
  has passed), with one write. A search refreshes nothing: LangGraph's ``PostgresStore`` refreshes what a
  search returns in one statement, but the engine writes one fact at a time, so a listing of many items would
  cost a write each.

``batch`` / ``abatch`` check every operation before running any (a bad one raises and nothing is written),
then run them in order; ``abatch`` awaits the engine's async methods, running consecutive reads together.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from langgraph.store.base import BaseStore, Op, Result, TTLConfig

from memori_core.adapter_args import check_engine
from memori_core.engine import RecallEngine
from memori_core.failopen import STRICT_DEFAULT, FailOpenCall, check_timeout

from ._store_calls import adrive, drive
from ._store_namespaces import DEFAULT_NAMESPACE, NamespaceTemplate
from ._store_operations import StoreOperations
from ._store_plans import (
    DeletePlan,
    GetPlan,
    ListNamespacesPlan,
    Plan,
    PutPlan,
    SearchPlan,
    StorePlanning,
    check_fields,
    check_ttl_config,
)
from ._store_values import ITEM_KEY, NAMESPACE_KEY, REFRESH_AFTER, item_metadata, item_text

__all__ = [
    "DEFAULT_MAX_VALUE_BYTES",
    "DEFAULT_NAMESPACE",
    "ITEM_KEY",
    "NAMESPACE_KEY",
    "REFRESH_AFTER",
    "MemoriStore",
    "NamespaceTemplate",
    "item_metadata",
    "item_text",
]

DEFAULT_MAX_VALUE_BYTES = 16384

_SIMPLE_PATH = re.compile(r"^[^.\[\]{}*$]+(\.[^.\[\]{}*$]+)*$")

_NOT_DONE: dict[type, str] = {GetPlan: "read", SearchPlan: "read", ListNamespacesPlan: "read", PutPlan: "written",
                              DeletePlan: "deleted"}
logger = logging.getLogger(__name__)


class MemoriStore(StorePlanning, StoreOperations, BaseStore):
    """LangGraph's ``BaseStore`` over a :class:`~memori_core.RecallEngine`: one namespace per user, one
    fact per item, search ranked by the engine (module docstring: :mod:`memori_langchain.store`).

    - ``namespace``: the template, literal labels and ``{placeholders}`` (default ``("memories", "{user_id}")``);
      ``entity``: how the placeholders' values name the engine's entity (:class:`NamespaceTemplate`). Stores of
      several shapes may share an engine: their items are apart, by namespace and key.
    - ``fields``: the value's fields that make a fact's text, as LangGraph's ``IndexConfig.fields`` paths
      (``["content"]``, ``["memory.text", "tags[*]"]``; several texts are joined by newlines); default
      ``None``, the whole value (``"$"``): its one str field when it has just one, else its JSON. ``put(...,
      index=[...])`` overrides them per item. A value with no text at them (each missing, ``None`` or blank) is
      stored as ``index=False`` stores it: whole, kept out of search (module docstring).
    - ``gate``: ``True`` (default) ranks as ``engine.recall`` does, relevance gate (or judge) and all, so a
      search may return fewer than ``limit`` items, or none; ``False`` returns the ``limit`` best whatever their
      relevance, as the same engine with ``RecallConfig(gate="off")`` (no judge is asked).
    - ``supersede``: ``True`` (default): a put of a new key that states a change of a fact this store reads ends
      that fact, as the agent's ``remember`` tool does (module docstring); ``False``: a put never ends another
      item's fact, each key holds until it is put again or deleted.
    - ``ttl``: LangGraph's ``TTLConfig``: ``default_ttl`` (minutes) for puts without ``ttl=``, and
      ``refresh_on_read`` (default ``True``: a get that returns an item with a TTL starts its TTL again, once
      :data:`REFRESH_AFTER` of it has passed; a search never does). Expired items are never returned; like every
      expired fact, they stay stored until deleted.
    - ``max_value_bytes``: the largest value (as JSON) a put accepts; a larger one raises ``ValueError``
      and nothing is written.
    - ``timeout``: seconds the recall of a search with a query may take in all (default ``None``: no limit but
      the store's per request), as an adapter's ``timeout=``: past it the search fails open (below), while the
      recall finishes in the background and serves the next search. Gets, puts and listings are not bounded by it.
    - ``strict``: ``False`` (default): a search with a query fails open as recall does on every adapter (it
      feeds a prompt): when memory fails it returns no items, with the adapters' one warning, and while the
      engine's outage breaker is open it returns none at once. Every other operation raises, as a store must
      (a lost write must not pass silently, and a get answering ``None`` would read as "no such item"), but
      while the breaker is open it raises :class:`~memori_core.failopen.MemorySkipped` (a ``ConnectionError``)
      at once, without waiting for the store again; its outage errors open the breaker for the other surfaces.
      ``True``: every operation goes to the store and raises its error, as ``strict=True`` adapters do.
    - ``said_at_field``: a value field that says when the memory was said (``"said_at"``: ``{"content": ...,
      "said_at": "2026-10-05T09:30:00+01:00"}``, an ISO 8601 string with its UTC offset; without one it is read as
      UTC, with a ``NaiveTimeWarning``), for an imported or replayed chat: a put of a new key dates its fact then
      (its ``created_at``, "Stated at", and a change it states ends the fact it replaces at that time, or lands in
      that fact's past when said before it), a put of a key moves ``updated_at`` to it; the field stays in the
      value. Default ``None``: every put is dated when it runs, as a value without the field is, except inside a
      tool call of an agent run with ``MemoriMiddleware``: there, a put is dated by the time of the turn the run
      answers (its last human message's ``created_at``), the clock the memory tools' ``remember`` of the same run
      reads (:func:`memori_core.capture.said_during` sets it for other runs). A put made outside any dated run is
      dated now, so a replayed chat's later change of it lands in its past; ``remember`` then says so. A bad time
      raises ``ValueError`` / ``TypeError`` naming the key and the field, and nothing is written.
    - ``index``: refused with a ``TypeError`` saying what to pass instead. It is LangGraph's own stores' setting
      (``{"dims": ..., "embed": ..., "fields": [...]}``); here the engine embeds, and ``fields`` names the value
      fields to embed.

    A put is dated when it is made (or at the run's turn, above) unless ``said_at_field`` says otherwise, and a
    search reads memory as it is now: ``BaseStore`` gives a search no time (``engine.recall(as_of=...)`` takes one).
    """

    supports_ttl = True
    __slots__ = ("engine", "template", "fields", "gate", "supersede", "ttl_config", "max_value_bytes", "timeout",
                 "strict", "said_at_field", "_ungated", "_scope", "_text_field")

    def __init__(
        self,
        engine: RecallEngine,
        *,
        namespace: Sequence[str] = DEFAULT_NAMESPACE,
        entity: str | None = None,
        fields: Sequence[str] | None = None,
        gate: bool = True,
        supersede: bool = True,
        ttl: TTLConfig | None = None,
        max_value_bytes: int = DEFAULT_MAX_VALUE_BYTES,
        timeout: float | None = None,
        strict: bool = STRICT_DEFAULT,
        said_at_field: str | None = None,
        index: Any = None,
    ) -> None:
        if index is not None:
            raise TypeError(_index_refused(index))
        self.engine = check_engine(engine, "MemoriStore")
        if not isinstance(strict, bool):
            raise TypeError(f"MemoriStore: strict must be True or False, got {strict!r}")
        self.strict = strict
        self.timeout = check_timeout(timeout, "MemoriStore")
        self.template = NamespaceTemplate.parse(namespace, entity)
        self.fields = check_fields(fields, "fields")
        if not isinstance(gate, bool):
            raise TypeError(f"MemoriStore: gate must be a bool, got {type(gate).__name__}")
        self.gate = gate
        if not isinstance(supersede, bool):
            raise TypeError(f"MemoriStore: supersede must be a bool, got {type(supersede).__name__}")
        self.supersede = supersede
        self.ttl_config = check_ttl_config(ttl)
        if isinstance(max_value_bytes, bool) or not isinstance(max_value_bytes, int) or max_value_bytes < 1:
            raise ValueError(f"MemoriStore: max_value_bytes must be an int >= 1, got {max_value_bytes!r}")
        self.max_value_bytes = max_value_bytes
        if said_at_field is not None and (not isinstance(said_at_field, str) or not said_at_field.strip()):
            raise TypeError(f"MemoriStore: said_at_field must be a value's field name (a non-empty str) or None, "
                            f"got {said_at_field!r}")
        self.said_at_field = said_at_field
        self._ungated: tuple[Any, RecallEngine] | None = None  # (the config it was made from, the twin)
        # The facts this store reads: its namespace's items, and the facts no namespace holds (engine.add, capture).
        self._scope: dict[str, Any] = {NAMESPACE_KEY: {"$in": [self.template.kind, None]}}
        first = self.fields[0] if self.fields else None
        self._text_field: tuple[str, ...] = (
            tuple(first.split(".")) if first is not None and _SIMPLE_PATH.match(first) else ("content",))

    def __repr__(self) -> str:
        return f"MemoriStore(namespace={self.template.labels!r}, entity={self.template.entity!r}, gate={self.gate})"

    # -- public helpers ---------------------------------------------------------------------------------

    def entity_id(self, namespace: Sequence[str]) -> str:
        """The engine entity a namespace names (``("memories", "alice")`` -> ``"alice"``)."""
        return self.template.resolve(tuple(namespace))[0]

    def namespace_for(self, **values: str) -> tuple[str, ...]:
        """The namespace of the placeholders' values (``namespace_for(user_id="alice")``)."""
        slots = self.template.slots
        if set(values) != set(slots.values()):
            raise TypeError(f"namespace_for takes exactly the placeholders {sorted(slots.values())}")
        ns = tuple(values[slots[i]] if i in slots else label for i, label in enumerate(self.template.labels))
        return self.template.resolve(ns)[1]

    # -- running: batch (sync) and abatch (async) drive the same operations ------------------------------

    def batch(self, ops: Iterable[Op]) -> list[Result]:
        """Run ``ops`` in order (each sees the writes of those before it), after checking them all."""
        plans = [self._plan(op) for op in ops]
        return [self._run(plan) for plan in plans]

    async def abatch(self, ops: Iterable[Op]) -> list[Result]:
        """Run ``ops`` in order over the engine's async methods; consecutive reads run together."""
        plans = [self._plan(op) for op in ops]
        results: list[Result] = [None] * len(plans)
        i = 0
        while i < len(plans):
            if isinstance(plans[i], (PutPlan, DeletePlan)):
                results[i] = await self._arun(plans[i])
                i += 1
                continue
            j = i
            while j < len(plans) and not isinstance(plans[j], (PutPlan, DeletePlan)):
                j += 1
            results[i:j] = await asyncio.gather(*(self._arun(p) for p in plans[i:j]))
            i = j
        return results

    # -- failures: a search with a query fails open, every other operation raises (module docstring) ---------

    def _failopen(self, plan: Plan) -> FailOpenCall:
        what = type(plan).__name__.removesuffix("Plan").lower()
        if isinstance(plan, SearchPlan):
            what = "search" if plan.query is not None else "listing"
        return FailOpenCall(self.engine, strict=self.strict, owner="MemoriStore", logger=logger, what=what,
                            entity_id=getattr(plan, "entity", None))

    def _run(self, plan: Plan) -> Result:
        call = self._failopen(plan)
        if isinstance(plan, SearchPlan) and plan.query is not None:
            if call.skipped:
                return []
            return call.run(lambda: drive(self._operation(plan)), [], instead="returning no items")
        if call.skipped:
            raise call.skipped_error(_NOT_DONE[type(plan)])
        try:
            result = drive(self._operation(plan))
        except Exception as exc:
            call.raised(exc)
            raise
        call.succeeded()
        return result

    async def _arun(self, plan: Plan) -> Result:
        call = self._failopen(plan)
        if isinstance(plan, SearchPlan) and plan.query is not None:
            if call.skipped:
                return []
            return await call.arun(lambda: adrive(self._operation(plan)), [], instead="returning no items")
        if call.skipped:
            raise call.skipped_error(_NOT_DONE[type(plan)])
        try:
            result = await adrive(self._operation(plan))
        except Exception as exc:
            call.raised(exc)
            raise
        call.succeeded()
        return result


def _index_refused(index: Any) -> str:
    """Why ``MemoriStore(index=...)``, LangGraph's ``InMemoryStore`` / ``PostgresStore`` setting, is refused, and what
    to pass instead (its ``fields``, when it names some)."""
    fields = index.get("fields") if isinstance(index, Mapping) else None
    instead = f"fields={list(fields)!r}" if isinstance(fields, (list, tuple)) else 'fields=["content"]'
    return ("MemoriStore: index= is LangGraph's own stores' setting (dims, embed, fields), not MemoriStore's: it "
            "embeds with its engine's embedder (RecallEngine(embedder=...), whose dimension the store checks); pass "
            f"the value fields to embed as MemoriStore(engine, {instead})")
