"""What a :class:`~memori_langchain.MemoriStore` operation does over the engine: which fact a key names (and the
newer facts it follows), get, put, delete, search and ``list_namespaces`` as generators of engine calls
(:mod:`memori_langchain._store_calls`), so that ``batch`` and ``abatch`` share them (module docstring of
:mod:`memori_langchain.store`: a key follows its fact, search is recall, TTLs are refreshed by get)."""

from __future__ import annotations

import copy as _copy
from collections.abc import Mapping, Sequence
from dataclasses import replace
from datetime import datetime, timedelta, timezone
from typing import Any

from langgraph.store.base import Item, Result, SearchItem

from memori_core.capture.shown_facts import SLOT_SCAN_LIMIT
from memori_core.engine import RecallEngine, version_of
from memori_core.facts import StoredFact, is_searchable
from memori_core.slots import slot_keys
from memori_core.tool_writes import NEAREST_LIMIT, ended_by

from ._store_calls import BoundedRecall, EngineCall, Program
from ._store_namespaces import NamespaceTemplate
from ._store_plans import DeletePlan, GetPlan, ListNamespacesPlan, Plan, PutPlan, SearchPlan
from ._store_values import (
    NAMESPACE_KEY,
    OWN_KEYS,
    copy_json,
    due_for_refresh,
    edited_value,
    expired,
    item_layout,
    stored_time,
    text_digest,
    ttl_of,
    updated_at_of,
    with_text,
)

_MAX_CHAIN = 32
"""How many supersedes a key follows (or a search walks back) before it gives up: a guard against a cycle written
by hand, never reached by real memory."""


class StoreOperations:
    """The running half of :class:`~memori_langchain.MemoriStore`: each checked plan as the engine calls it takes."""

    __slots__ = ()
    engine: RecallEngine
    template: NamespaceTemplate
    gate: bool
    supersede: bool
    timeout: float | None
    _ungated: tuple[Any, RecallEngine] | None
    _scope: dict[str, Any]
    _text_field: tuple[str, ...]

    def _call(self, name: str, *args: Any, **kwargs: Any) -> EngineCall:
        return EngineCall(self.engine, name, args, kwargs)

    def _operation(self, plan: Plan) -> Program[Result]:
        if isinstance(plan, GetPlan):
            return self._get(plan)
        if isinstance(plan, PutPlan):
            return self._put(plan)
        if isinstance(plan, DeletePlan):
            return self._delete(plan)
        if isinstance(plan, SearchPlan):
            return self._search(plan)
        return self._list_namespaces(plan)

    # -- which fact a key names ---------------------------------------------------------------------------

    def _visible(self, metadata: Mapping[str, Any]) -> bool:
        """Whether a fact is read by this store: an item of its namespace, or a fact of none (``engine.add``,
        capture, a store before namespaces were recorded)."""
        kind = metadata.get(NAMESPACE_KEY)
        return kind is None or kind == self.template.kind

    def _key_of(self, fact: Any) -> str:
        """The key of the item a fact holds: the one its put recorded, else the fact's id."""
        layout = item_layout(fact.metadata)
        key = layout.get("key") if layout is not None else None
        return key if isinstance(key, str) else fact.id

    def _secondary(self, key: str) -> str:
        """The fact id of this namespace's item ``key`` when the fact with id ``key`` is another namespace's item."""
        return f"{self.template.kind}:{key}"

    def _pick(self, found: Sequence[StoredFact], key: str) -> tuple[StoredFact | None, str]:
        """Of the facts with ids ``key`` and :meth:`_secondary`, the one that is this namespace's item ``key``
        (``None``: there is none), and the id a new value of the key takes."""
        by_id = {f.id: f for f in found}
        secondary = self._secondary(key)
        if secondary in by_id:
            return by_id[secondary], secondary
        primary = by_id.get(key)
        if primary is None:
            return None, key
        if self._visible(primary.metadata):
            return primary, key
        return None, secondary

    def _follows(self, fact: StoredFact, key: str) -> bool:
        """Whether key ``key`` may read ``fact``, a newer fact that superseded the one it names: one of no
        namespace, or this namespace's item of that key (a put over the newer fact made it so)."""
        return self._visible(fact.metadata) and (item_layout(fact.metadata) is None or self._key_of(fact) == key)

    def _resolve(self, entity: str, key: str) -> Program[tuple[StoredFact | None, StoredFact | None, list[str], str]]:
        """What item ``key`` is: (the fact stored under the key; the fact it reads now, that one while it is valid,
        else the newest fact of its supersede chain, ``None`` when the chain ends in nothing the key may read; the
        chain's ids; the id a new value of the key takes)."""
        found = yield self._call("get", entity, [key, self._secondary(key)])
        fact, fid = self._pick(found, key)
        if fact is None:
            return None, None, [], fid
        chain = [fact.id]
        current = fact
        while not current.is_valid():
            newer = current.superseded_by
            if (not newer or newer in chain or len(chain) > _MAX_CHAIN
                    or version_of(current.id) == newer):  # an earlier text kept as history, not a supersede
                return fact, None, chain, fid
            got = yield self._call("get", entity, [newer])
            if not got or not self._follows(got[0], key):
                return fact, None, chain, fid
            current = got[0]
            chain.append(current.id)
        return fact, current, chain, fid

    def _parts(self, base: Any, head: Any) -> tuple[dict[str, Any], datetime, datetime, float | None]:
        """An item's (value, created, updated, TTL in minutes): ``base`` is the fact its key names, ``head`` the
        fact it reads (``base`` itself, or the newest fact of its supersede chain)."""
        created = stored_time(base.created_at)
        written = max(created, stored_time(updated_at_of(head) or head.created_at))
        own = item_layout(head.metadata)
        if own is not None:
            value = copy_json(own["value"])
            updated = stored_time(own.get("updated_at") or head.created_at)
            digest = own.get("text")
            if digest not in (None, text_digest(head.content)):
                value, updated = edited_value(value, head.content, digest), written
            return value, created, updated, ttl_of(own)
        put = item_layout(base.metadata) if base is not head else None
        if put is not None:
            return edited_value(copy_json(put["value"]), head.content, put.get("text")), created, written, None
        return with_text({}, self._text_field, head.content), created, written, None

    # -- the operations -----------------------------------------------------------------------------------

    def _get(self, plan: GetPlan) -> Program[Item | None]:
        base, head, _, _ = yield from self._resolve(plan.entity, plan.key)
        now = datetime.now(timezone.utc)
        if base is None or head is None or expired(head.expires_at, now):
            return None
        value, created, updated, ttl = self._parts(base, head)
        if plan.refresh and ttl is not None and due_for_refresh(head, ttl, now):
            try:
                yield self._call("update", plan.entity, head.id, expires_at=timedelta(minutes=ttl))
            except KeyError:
                pass  # deleted meanwhile
        return Item(value=value, key=plan.key, namespace=plan.namespace, created_at=created, updated_at=updated)

    def _put(self, plan: PutPlan) -> Program[None]:
        _, head, _, fid = yield from self._resolve(plan.entity, plan.key)
        if head is not None and not expired(head.expires_at, datetime.now(timezone.utc)):
            try:
                yield self._call("update", plan.entity, head.id, **self._edit(plan, head))
                return None
            except KeyError:
                pass  # deleted meanwhile: stored anew
        ends = yield from self._ended_by(plan)
        yield self._call("add", plan.entity, [plan.text], ids=[fid], created_at=plan.now, metadata=plan.metadata,
                         expires_at=plan.expires_at, supersedes=ends or None)
        return None

    def _ended_by(self, plan: PutPlan) -> Program[list[str]]:
        """The ids of the facts a put of a new item ends (module docstring: a put that states a change): the
        change rules of the agent's ``remember`` (:func:`~memori_core.tool_writes.ended_by`) over the searchable
        facts this store reads that rank nearest the put's text, and the newest that speak of one of its slots
        of the same person (:func:`~memori_core.slots.slot_keys`). None with ``supersede=False`` or for an item
        kept out of search."""
        if not self.supersede or not is_searchable(plan.metadata):
            return []
        facts = list((yield self._call("nearest", plan.text, plan.entity, NEAREST_LIMIT, where=self._scope)))
        keys = slot_keys(plan.text)
        if keys:  # a bulk of puts scans the slots' facts only: the rules cost a millisecond or so a fact
            now = datetime.now(timezone.utc)
            newest = yield self._call("list", plan.entity, limit=SLOT_SCAN_LIMIT, where=self._scope)
            facts += [f for f in newest if keys & slot_keys(f.content) and not expired(f.expires_at, now)]
        return [f.id for f in ended_by(plan.text, [f for f in facts if is_searchable(f.metadata)])]

    @staticmethod
    def _edit(plan: PutPlan, fact: StoredFact) -> dict[str, Any]:
        """``engine.update``'s arguments for a put over ``fact``: the put's text (``None`` when it is the fact's:
        nothing re-embedded); the fact's metadata with the put's own keys replaced, so what the put does not say
        stays (``core``, capture's keys, the app's ``engine.add`` metadata); and its expiry: the put's ``ttl``,
        else none when an earlier put gave the fact its TTL, else the one it has (set outside the store)."""
        metadata = {k: v for k, v in fact.metadata.items() if k not in OWN_KEYS}
        metadata.update(plan.metadata)
        edit: dict[str, Any] = {"text": None if fact.content == plan.text else plan.text, "metadata": metadata}
        if plan.expires_at is not None or ttl_of(item_layout(fact.metadata)) is not None:
            edit["expires_at"] = plan.expires_at
        return edit

    def _delete(self, plan: DeletePlan) -> Program[None]:
        base, _, chain, _ = yield from self._resolve(plan.entity, plan.key)
        if base is not None:  # the item and the newer facts its key reads: gone from every read
            yield self._call("delete", plan.entity, chain)
        return None

    def _search(self, plan: SearchPlan) -> Program[list[SearchItem]]:
        if plan.limit == 0:
            return []
        found: list[tuple[Any, float | None]] = []
        if plan.query is not None:
            # A page is a slice of one recall of offset + limit (module docstring); core facts recall appends
            # after the ranked ones may fill it. Items kept out of search never come (recall leaves them out).
            ranker: Any = self._ranker()
            if self.timeout is not None:
                ranker = BoundedRecall(ranker, self.timeout)
            hits = yield EngineCall(ranker, "recall", (plan.query, plan.entity, plan.offset + plan.limit),
                                    {"where": plan.where})
            found = [(h, float(h.rank_score)) for h in hits[plan.offset : plan.offset + plan.limit]]
        else:  # without a query, the listing is the search
            listing = _Listing(plan)
            while True:
                facts = yield self._call("list", plan.entity, limit=listing.size, offset=listing.start,
                                         where=plan.where, newest_first=False)
                if listing.take(facts):
                    break
            found = [(f, None) for f in listing.facts]
        bases = yield from self._bases(plan.entity, [f for f, _ in found])
        items = []
        for fact, score in found:
            base = bases.get(fact.id, fact)
            value, created, updated, _ = self._parts(base, fact)
            items.append(SearchItem(plan.namespace, self._key_of(base), value, created, updated, score=score))
        return items

    def _bases(self, entity: str, facts: Sequence[Any]) -> Program[dict[str, StoredFact]]:
        """For each of ``facts`` written without the store that superseded an item this store reads (capture's "User
        lives in Porto." over the item ``city``), that item: a search shows the newer fact under its key, as a
        get of the key reads it. Supersede chains are walked back one batched read per step."""
        loose = [f for f in facts if item_layout(f.metadata) is None]
        older = {f.id: f.supersedes for f in loose if isinstance(f, StoredFact)}
        recalled = [f.id for f in loose if not isinstance(f, StoredFact)]  # a recalled fact omits its supersedes
        if recalled:
            older.update({f.id: f.supersedes for f in (yield self._call("get", entity, recalled))})
        # origin -> the (older, newer) links to follow next: older must be superseded by newer
        walk = {origin: [(o, origin) for o in ids] for origin, ids in older.items() if ids}
        read: dict[str, StoredFact] = {}
        out: dict[str, StoredFact] = {}
        for _ in range(_MAX_CHAIN):
            unread = list(dict.fromkeys(o for links in walk.values() for o, _ in links if o not in read))
            if unread:
                read.update({f.id: f for f in (yield self._call("get", entity, unread))})
            nxt: dict[str, list[tuple[str, str]]] = {}
            for origin, links in walk.items():
                for older_id, newer_id in links:
                    f = read.get(older_id)
                    if f is None or f.superseded_by != newer_id or not self._visible(f.metadata):
                        continue
                    if item_layout(f.metadata) is not None:
                        out[origin] = f
                        break
                    nxt.setdefault(origin, []).extend((o, f.id) for o in f.supersedes)
            walk = {origin: links for origin, links in nxt.items() if origin not in out}
            if not walk:
                break
        return out

    def _list_namespaces(self, plan: ListNamespacesPlan) -> Program[list[tuple[str, ...]]]:
        if plan.entity is None or plan.limit == 0:
            return []
        if not (yield self._call("list", plan.entity, limit=1, where=self._scope)):
            return []
        ns = plan.namespace[: plan.max_depth] if plan.max_depth is not None else plan.namespace
        return [ns][plan.offset : plan.offset + plan.limit]

    def _ranker(self) -> RecallEngine:
        """The engine that ranks a search: the store's own, or with ``gate=False`` its ungated twin.

        The twin is a shallow copy of the engine with ``gate="off"`` in its config: it shares the store, the
        embedder, the caches and their locks (so it reads exactly the facts the engine holds, kept fresh by the
        same writes) and answers as ``RecallEngine(config=replace(config, gate="off"))`` would. It is made
        again when the engine's config is replaced, and after the embedder is loaded, so that both use one."""
        engine = self.engine
        if self.gate or engine.config.gate == "off":
            return engine
        twin = self._ungated
        if twin is None or twin[0] is not engine.config:
            base = engine.config
            engine.embedder  # noqa: B018 - loaded (if it was not) before the copy, which then shares it
            copy = _copy.copy(engine)
            copy.config = replace(base, gate="off")
            twin = self._ungated = (base, copy)
        return twin[1]


class _Listing:
    """The facts of a search without a query, page by page: oldest first (LangGraph's order of insertion),
    expired ones left out, ``offset`` skipped."""

    def __init__(self, plan: SearchPlan) -> None:
        self.plan = plan
        self.facts: list[StoredFact] = []
        self.now = datetime.now(timezone.utc)
        self.skip = plan.offset
        self.size = plan.offset + plan.limit  # the page engine.list builds facts for; more only past expired ones
        self.start = 0

    def take(self, page: Sequence[StoredFact]) -> bool:
        """Read one page (the next ``size`` facts from ``start``); ``True`` when the listing is complete."""
        for f in page:
            if expired(f.expires_at, self.now):
                continue
            if self.skip:
                self.skip -= 1
                continue
            self.facts.append(f)
            if len(self.facts) == self.plan.limit:
                return True
        self.start += self.size
        return len(page) < self.size
