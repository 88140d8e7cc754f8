"""Revision tokens of a Chroma collection's entities, and the write locks around their commits: :class:`ChromaRevisions`,
and :class:`ChromaRevisionMethods`, the :class:`~memori_core.store.base.RevisionStore` methods of
:class:`~memori_core.store.ChromaStore`, which ask it.

Each entity has a revision record (Chroma id ``<entity>:rev`` in the
``<collection>_revisions`` collection) holding its current token.

* A store only this process writes to (``shared`` False) keeps each token in
  process memory after the first read, shared by every store object of the
  process on the collection, so a recall costs no store round trip.
* A shared store (a server) reads the record on every call, and serialises
  commits across processes with version slots (``<entity>:rev#<n>``), claimed
  with Chroma's insert-if-absent: see :meth:`ChromaRevisions.commit`. Before
  a write changes any row, its writer adds a write intent to the record (a
  metadata key ``intent:<id>`` holding the writer's wall-clock time); the
  commit removes it. Chroma merges an upsert's metadata into the record's and
  removes a key given as ``None``, so writers of one entity in several
  processes add and remove their own intents without reading the record first.
"""

from __future__ import annotations

import contextlib
import os
import threading
import time
import uuid
from typing import Any, Protocol

from dataclasses import dataclass, field

from .base import join_revision, split_revision, when_open
from .chroma_client import retry_read
from .chroma_records import ENTITY, chroma_id
from .folder_lock import FolderHold
from .keyed_locks import KeyedLocks

MAX_CLAIMS = 1000
"""Versions a commit may step over before giving up (each one is another writer's commit)."""
KEPT_SLOTS = 64
"""Version slots a shared store keeps per entity; older ones are deleted as new ones are claimed."""
INTENT_KEY = "intent:"
"""Prefix of the revision record's metadata keys that hold write intents (``intent:<id>`` -> wall-clock time)."""
FORGOTTEN_KEY = "forgotten_at"
"""The revision record's metadata key holding when the entity was last forgotten (the forgetting process's
``time.time()``), kept through commits (an upsert merges metadata) and restarts."""
STALE_INTENT = 3600.0
"""Seconds (by the writers' clocks) after which a commit removes an intent another writer left behind (its write
failed, or its process died, long ago: whatever it did has landed or never will)."""

# The last revision token of each (collection, entity) this process wrote or read,
# shared by every store object of the process: several engines (or store objects
# on the same path) in one process must see each other's writes. Used for stores
# only this process writes to; shared (HTTP) stores always read the record.
_LOCAL_REVISIONS: dict[tuple[str, str], str | None] = {}
_LOCAL_LOCK = threading.Lock()

# One write lock per (collection, entity), shared by every store object of the
# process: an engine's "write, then commit the revision" must not interleave with
# another engine's write to the same entity, or its cache would miss those rows.
# Writes to different entities never wait for each other.
_WRITE_LOCKS = KeyedLocks()


def new_token(version: int) -> str:
    """A fresh token committed at ``version`` (0 for process-local tokens)."""
    return f"{version}.{time.time_ns()}-{uuid.uuid4().hex[:12]}"


def version_of(token: str | None) -> int:
    """The version number a token was committed at (0 for none, and for tokens written before versions)."""
    head, dot, _ = (token or "").partition(".")
    return int(head) if dot and head.isdigit() else 0


class _Owner(Protocol):
    """What of its store the revisions read at each call (tests and callers may change both)."""

    shared: bool
    max_batch_size: int


class ChromaRevisions:
    """The revision tokens and write locks of one collection's entities (``ChromaStore``'s revision half).

    ``records`` is the Chroma collection of revision records and slots, ``scope``
    the id of the facts collection (it names the process-wide tokens and locks),
    ``owner`` the store, read for ``shared`` and ``max_batch_size`` at each call.
    """

    def __init__(self, records: Any, scope: str, owner: _Owner) -> None:
        self.records = records
        self._scope = scope
        self._owner = owner

    def _key(self, entity_id: str) -> tuple[str, str]:
        """The entity's key in the process-wide tokens and write locks: (facts collection id, entity)."""
        return self._scope, entity_id

    def write_lock(self, entity_id: str) -> contextlib.AbstractContextManager[None]:
        """The process-wide lock writers of ``entity_id`` in this collection hold around a write and its commit."""
        return _WRITE_LOCKS.hold(self._key(entity_id))

    def forget_local(self) -> None:
        """Forget the tokens this process kept for the collection (they are read from the store again)."""
        with _LOCAL_LOCK:
            for key in [k for k in _LOCAL_REVISIONS if k[0] == self._scope]:
                del _LOCAL_REVISIONS[key]

    def revision(self, entity_id: str) -> str | None:
        """The entity's current token (``None`` before its first commit): from process memory once read, for a
        store only this process writes to; from the record (one read by id) for a shared one, with the intents
        of the writes in flight on it (:func:`~memori_core.store.base.split_revision`)."""
        key = self._key(entity_id)
        shared = self._owner.shared
        if not shared:
            with _LOCAL_LOCK:
                if key in _LOCAL_REVISIONS:
                    return _LOCAL_REVISIONS[key]
        page = retry_read(lambda: self.records.get(ids=[chroma_id(entity_id, "rev")], include=["metadatas"]))
        metas = page["metadatas"]
        token = _read_token(metas[0]) if metas else None
        if not shared:
            with _LOCAL_LOCK:
                return _LOCAL_REVISIONS.setdefault(key, token)
        return token

    def record_intent(self, entity_id: str, intent: str) -> bool:
        """Add write ``intent`` to a shared store's revision record (one upsert, merged into the record);
        False for a store only this process writes to, which needs none."""
        if not self._owner.shared:
            return False
        self.records.upsert(
            ids=[chroma_id(entity_id, "rev")],
            embeddings=[[1.0]],
            metadatas=[{ENTITY: entity_id, INTENT_KEY + intent: time.time()}],
        )
        return True

    def record_forget(self, entity_id: str) -> None:
        """Record on the revision record that ``entity_id`` is being forgotten now (one upsert, merged into the
        record): :meth:`forgotten_at` reads it in every process, and after a restart."""
        self.records.upsert(
            ids=[chroma_id(entity_id, "rev")],
            embeddings=[[1.0]],
            metadatas=[{ENTITY: entity_id, FORGOTTEN_KEY: time.time()}],
        )

    def forgotten_at(self, entity_id: str) -> float | None:
        """When ``entity_id`` was last forgotten (:meth:`record_forget`), read from the record (one read by id,
        whatever the store); ``None`` when never."""
        page = retry_read(lambda: self.records.get(ids=[chroma_id(entity_id, "rev")], include=["metadatas"]))
        metas = page["metadatas"]
        at = (metas[0] or {}).get(FORGOTTEN_KEY) if metas else None
        return float(at) if isinstance(at, (int, float)) else None

    def withdraw_intent(self, entity_id: str, intent: str) -> None:
        """Remove write ``intent`` from a shared store's revision record (one upsert; the token stays)."""
        if not self._owner.shared:
            return
        self.records.upsert(
            ids=[chroma_id(entity_id, "rev")],
            embeddings=[[1.0]],
            metadatas=[{ENTITY: entity_id, INTENT_KEY + intent: None}],
        )

    def commit(self, entity_id: str, base: str | None, intent: str | None = None) -> tuple[str, bool]:
        """Record that ``entity_id`` changed, after a write made by a writer whose copy was at ``base``, and
        clear the write's ``intent``.

        Returns the new token (as :meth:`revision` reads it right after) and
        whether this write is the only change since ``base`` (then the writer
        may update its copy in place instead of reloading). Call it while
        holding :meth:`write_lock`.

        For a store only this process writes to, the process-local token
        changes first, so that even when the store write of the record fails,
        no engine of this process keeps serving the rows it cached before.

        For a shared store, Chroma has no compare-and-set, but ``add`` of an
        id that exists is ignored: each change claims the next version slot
        (``rev#<n>``) with ``add`` and lists the entity's slots (one filtered
        read, which also says whether the claim held). Two writers can never
        both claim version ``n + 1``, so a writer that claims ``base + 1`` is
        the sole successor of ``base``. The revision record that readers read
        (one lookup per recall) is then set to the newest claimed version and
        the write's intent removed (one upsert); the slots are listed again,
        and a writer that finds a newer slot claimed meanwhile publishes that
        one, so the record can lag a concurrent commit only until that commit
        publishes, never for good. Four requests in all.

        Slots do not pile up: only those of the last :data:`KEPT_SLOTS`
        versions are kept; publishing deletes the slots that fell out of the
        window (the newest token covers every write: a claim is made only
        after its write landed). A writer whose copy is older than the window
        could claim a deleted slot again: a claim below the window is dropped
        and the writer claims past the newest (and is not the sole successor
        of its base).
        """
        if not self._owner.shared:
            key = self._key(entity_id)
            with _LOCAL_LOCK:
                known, current = key in _LOCAL_REVISIONS, _LOCAL_REVISIONS.get(key)
            if not known:
                current = self.revision(entity_id)
            token = new_token(0)
            with _LOCAL_LOCK:
                _LOCAL_REVISIONS[key] = token
            self._write_record(entity_id, token)
            return token, base is not None and current == base
        exclusive = base is not None
        committed, _ = split_revision(base if base is not None else self.revision(entity_id))
        version = version_of(committed)
        for _ in range(MAX_CLAIMS):
            version += 1
            token = new_token(version)
            slot = self._slot(entity_id, version)
            self.records.add(ids=[slot], embeddings=[[1.0]], metadatas=[{ENTITY: entity_id, "token": token}])
            listing = self._list(entity_id)
            newest = max(listing.slots, default=version)
            if listing.slots.get(version, ("", None))[1] != token:
                exclusive = False  # another writer committed version `version` since `base`
                version = max(version, newest)  # (past old, deleted slots at once)
                continue
            if version > newest - KEPT_SLOTS:
                # Sole successor only of the very token at ``base``'s version (not of another entity's, say).
                exclusive = exclusive and listing.slots.get(version - 1, ("", None))[1] == committed
                break
            # A slot deleted as too old, claimed again: drop it and claim past the newest.
            self.records.delete(ids=[slot])
            exclusive = False
            version = newest
        else:
            raise RuntimeError(f"entity {entity_id!r}: {MAX_CLAIMS} concurrent commits in a row; giving up")
        return self.publish(entity_id, version, token, intent=intent, listing=listing), exclusive

    # -- version slots (shared stores) ------------------------------------------

    def _slot(self, entity_id: str, version: int) -> str:
        return chroma_id(entity_id, f"rev#{version}")

    def _write_record(self, entity_id: str, token: str) -> None:
        self.records.upsert(
            ids=[chroma_id(entity_id, "rev")],
            embeddings=[[1.0]],
            metadatas=[{ENTITY: entity_id, "token": token}],
        )

    def claim(self, entity_id: str, version: int, token: str) -> bool:
        """Insert-if-absent of version slot ``version``; True when it now holds ``token``."""
        slot = self._slot(entity_id, version)
        self.records.add(ids=[slot], embeddings=[[1.0]], metadatas=[{ENTITY: entity_id, "token": token}])
        page = retry_read(lambda: self.records.get(ids=[slot], include=["metadatas"]))
        return bool(page["metadatas"]) and page["metadatas"][0].get("token") == token

    def publish(
        self, entity_id: str, version: int, token: str, *, intent: str | None = None, listing: _Listing | None = None
    ) -> str:
        """Point the revision record at the newest claimed version (``version``, or a later one found claimed),
        remove ``intent`` (and intents left behind for longer than :data:`STALE_INTENT`, as ``listing``, the
        entity's rows read before, shows them), and delete the slots that fell out of the kept window.

        Returns ``token`` with the intents the record still carries: what :meth:`revision` reads afterwards,
        unless a newer version was published (then a copy tagged with it is reloaded, as it must be)."""
        clear: dict[str, Any] = {INTENT_KEY + intent: None} if intent else {}
        if listing is not None and listing.record:
            old = time.time() - STALE_INTENT
            clear.update({k: None for k, v in listing.record.items()
                          if k.startswith(INTENT_KEY) and isinstance(v, (int, float)) and v < old})
        mine = token
        while True:
            self.records.upsert(
                ids=[chroma_id(entity_id, "rev")],
                embeddings=[[1.0]],
                metadatas=[{ENTITY: entity_id, "token": token, **clear}],
            )
            clear = {}
            listing = self._list(entity_id)
            newest = max(listing.slots, default=version)
            old_slots = [slot for v, (slot, _) in listing.slots.items() if v <= newest - KEPT_SLOTS]
            step = self._owner.max_batch_size
            for start in range(0, len(old_slots), step):
                self.records.delete(ids=old_slots[start : start + step])
            if newest <= version:
                now = _read_token(listing.record) if listing.record else None
                return join_revision(mine, split_revision(now)[1]) or mine
            version, token = newest, listing.slots[newest][1] or token

    def slots(self, entity_id: str) -> dict[int, str]:
        """The entity's version slots: version -> slot id (one filtered read of the revisions collection)."""
        return {v: slot for v, (slot, _) in self._list(entity_id).slots.items()}

    def _list(self, entity_id: str) -> _Listing:
        """The entity's revision record and version slots (one filtered read of the revisions collection)."""
        prefix = chroma_id(entity_id, "rev#")
        record_id = chroma_id(entity_id, "rev")
        page = retry_read(lambda: self.records.get(where={ENTITY: entity_id}, include=["metadatas"]))
        out = _Listing()
        for i, meta in zip(page["ids"], page["metadatas"]):
            if i == record_id:
                out.record = dict(meta or {})
            elif i.startswith(prefix) and i[len(prefix):].isdigit():
                token = (meta or {}).get("token")
                out.slots[int(i[len(prefix):])] = (i, str(token) if token is not None else None)
        return out


@dataclass
class _Listing:
    """An entity's rows in the revisions collection: its record's metadata and its slots (version -> id, token)."""

    record: dict[str, Any] | None = None
    slots: dict[int, tuple[str, str | None]] = field(default_factory=dict)


def _read_token(meta: dict[str, Any]) -> str | None:
    """The token a revision record's metadata stands for: the committed token and the intents pending on it."""
    committed = meta.get("token")
    intents = {k[len(INTENT_KEY):] for k, v in meta.items() if k.startswith(INTENT_KEY) and v is not None}
    return join_revision(str(committed) if committed is not None else None, intents)


class ChromaRevisionMethods:
    """The revision methods of :class:`~memori_core.store.ChromaStore` (a mixin: the state is the store's, declared
    here): each one is its :class:`ChromaRevisions`' (``_revision_tokens``), once the store is open."""

    _revision_tokens: ChromaRevisions
    _folder_guard: FolderHold | None
    closed: bool

    @property
    def _revisions(self) -> Any:
        """The Chroma collection of revision records and version slots."""
        return self._revision_tokens.records

    @when_open
    def revision(self, entity_id: str) -> str | None:
        """Token that changes whenever ``entity_id``'s facts change (read by id: one cheap lookup).

        For a store only this process writes to, the token is kept in process
        memory after the first read, so a recall costs no store round trip; an embedded store checks its folder
        is still there (one ``stat``: :class:`~memori_core.store.folder_lock.StoreFolderGoneError`), so that no
        recall answers from a copy of a store that is gone.
        """
        if self._folder_guard is not None:
            self._folder_guard.check_present()
        return self._revision_tokens.revision(entity_id)

    @when_open
    def write_lock(self, entity_id: str) -> contextlib.AbstractContextManager[None]:
        """The process-wide lock writers of ``entity_id`` in this collection hold around a write and its commit."""
        return self._revision_tokens.write_lock(entity_id)

    @when_open
    def record_intent(self, entity_id: str, intent: str) -> bool:
        """Mark a write of ``entity_id`` as in flight on its revision record before any row changes (a shared
        store; a store only this process writes to needs no intent: False)."""
        return self._revision_tokens.record_intent(entity_id, intent)

    @when_open
    def withdraw_intent(self, entity_id: str, intent: str) -> None:
        """Take back the ``intent`` of a write that changed nothing (a shared store; the token stays)."""
        self._revision_tokens.withdraw_intent(entity_id, intent)

    @when_open
    def forgotten_at(self, entity_id: str) -> float | None:
        """When ``entity_id`` was last forgotten (``time.time()`` of the process that did it), as every process
        reads it; ``None`` when never (:meth:`ChromaRevisions.forgotten_at`)."""
        return self._revision_tokens.forgotten_at(entity_id)

    @when_open
    def commit_revision(self, entity_id: str, base: str | None, intent: str | None = None) -> tuple[str, bool]:
        """Record that ``entity_id`` changed, after a write made by a writer whose copy was at ``base``, and
        clear the write's ``intent``: the new token, and whether this write is the only change since ``base``.
        Call it while holding :meth:`write_lock`. How (process-local tokens, or version slots for a shared
        store): :meth:`ChromaRevisions.commit`."""
        return self._revision_tokens.commit(entity_id, base, intent)


def _after_fork_in_child() -> None:
    """In a forked child: forget the tokens kept in process memory, so that every store reads its records again
    (an embedded store then refuses the child clearly instead of serving the parent's copy as it was at the
    fork), and drop the locks, which a thread of the parent may have held at the fork."""
    global _LOCAL_LOCK, _WRITE_LOCKS
    _LOCAL_REVISIONS.clear()
    _LOCAL_LOCK = threading.Lock()
    _WRITE_LOCKS = KeyedLocks()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)
