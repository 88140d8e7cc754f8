"""Revision tokens of a Chroma collection's entities, and the write locks around their commits.

Each entity has a revision record (Chroma id ``<entity>:rev`` in the
``<collection>_revisions`` collection) holding its current token.

* A store only this process writes to (``shared`` False) keeps each token in
  process memory after the first read, shared by every store object of the
  process on the collection, so a recall costs no store round trip.
* A shared store (a server) reads the record on every call, and serialises
  commits across processes with version slots (``<entity>:rev#<n>``), claimed
  with Chroma's insert-if-absent: see :meth:`ChromaRevisions.commit`.
"""

from __future__ import annotations

import contextlib
import threading
import time
import uuid
from typing import Any, Protocol

from .chroma_client import retry_read
from .chroma_records import ENTITY, chroma_id
from .keyed_locks import KeyedLocks

MAX_CLAIMS = 1000
"""Versions a commit may step over before giving up (each one is another writer's commit)."""
KEPT_SLOTS = 64
"""Version slots a shared store keeps per entity; older ones are deleted as new ones are claimed."""

# The last revision token of each (collection, entity) this process wrote or read,
# shared by every store object of the process: several engines (or store objects
# on the same path) in one process must see each other's writes. Used for stores
# only this process writes to; shared (HTTP) stores always read the record.
_LOCAL_REVISIONS: dict[str, str | None] = {}
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

    def _key(self, entity_id: str) -> str:
        return f"{self._scope}:{chroma_id(entity_id, 'rev')}"

    def write_lock(self, entity_id: str) -> contextlib.AbstractContextManager[None]:
        """The process-wide lock writers of ``entity_id`` in this collection hold around a write and its commit."""
        return _WRITE_LOCKS.hold(self._key(entity_id))

    def forget_local(self) -> None:
        """Forget the tokens this process kept for the collection (they are read from the store again)."""
        prefix = f"{self._scope}:"
        with _LOCAL_LOCK:
            for key in [k for k in _LOCAL_REVISIONS if k.startswith(prefix)]:
                del _LOCAL_REVISIONS[key]

    def revision(self, entity_id: str) -> str | None:
        """The entity's current token (``None`` before its first commit): from process memory once read, for a
        store only this process writes to; from the record (one read by id) for a shared one."""
        key = self._key(entity_id)
        shared = self._owner.shared
        if not shared:
            with _LOCAL_LOCK:
                if key in _LOCAL_REVISIONS:
                    return _LOCAL_REVISIONS[key]
        page = retry_read(lambda: self.records.get(ids=[chroma_id(entity_id, "rev")], include=["metadatas"]))
        metas = page["metadatas"]
        token = str(metas[0]["token"]) if metas else None
        if not shared:
            with _LOCAL_LOCK:
                return _LOCAL_REVISIONS.setdefault(key, token)
        return token

    def commit(self, entity_id: str, base: str | None) -> tuple[str, bool]:
        """Record that ``entity_id`` changed, after a write made by a writer whose copy was at ``base``.

        Returns the new token and whether this write is the only change since
        ``base`` (then the writer may update its copy in place instead of
        reloading). Call it while holding :meth:`write_lock`.

        For a store only this process writes to, the process-local token
        changes first, so that even when the store write of the record fails,
        no engine of this process keeps serving the rows it cached before.

        For a shared store, Chroma has no compare-and-set, but ``add`` of an
        id that exists is ignored: each change claims the next version slot
        (``rev#<n>``) with ``add`` and reads it back. Two writers can never
        both claim version ``n + 1``, so a writer that claims ``base + 1`` is
        the sole successor of ``base``. The revision record that readers read
        (one lookup per recall) is then set to the newest claimed version;
        a writer that finds a newer slot already claimed publishes that one,
        so the record can lag a concurrent commit only until that commit
        publishes, never for good.

        Slots do not pile up: only those of the last :data:`KEPT_SLOTS`
        versions are kept, so publishing lists the entity's slots (one
        filtered read of at most that many rows), publishes the newest one's
        token (a claim is made only after its write landed, so the newest
        token covers every write) and deletes the slots that fell out of the
        window. A writer whose copy is older than the window could claim a
        deleted slot again: a claim below the window is dropped and the writer
        claims past the newest (and is not the sole successor of its base).
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
        version = version_of(base if base is not None else self.revision(entity_id))
        for _ in range(MAX_CLAIMS):
            version += 1
            token = new_token(version)
            if not self.claim(entity_id, version, token):
                exclusive = False  # another writer committed version `version` since `base`
                version = max(version, version_of(self.revision(entity_id)))  # (past old, deleted slots at once)
                continue
            newest = max(self.slots(entity_id), default=version)
            if version > newest - KEPT_SLOTS:
                break
            # A slot deleted as too old, claimed again: drop it and claim past the newest.
            self.records.delete(ids=[self._slot(entity_id, version)])
            exclusive = False
            version = newest
        else:
            raise RuntimeError(f"entity {entity_id!r}: {MAX_CLAIMS} concurrent commits in a row; giving up")
        self.publish(entity_id, version, token)
        return token, exclusive

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

    def publish(self, entity_id: str, version: int, token: str) -> None:
        """Point the revision record at the newest claimed version (``version``, or a later one found claimed)
        and delete the slots that fell out of the kept window."""
        while True:
            self._write_record(entity_id, token)
            slots = self.slots(entity_id)
            newest = max(slots, default=version)
            old = [slot for v, slot in slots.items() if v <= newest - KEPT_SLOTS]
            step = self._owner.max_batch_size
            for start in range(0, len(old), step):
                self.records.delete(ids=old[start : start + step])
            if newest <= version:
                return
            page = retry_read(lambda: self.records.get(ids=[slots[newest]], include=["metadatas"]))
            if not page["metadatas"]:
                return  # (only a slot below the window is ever deleted: not reached)
            version, token = newest, str(page["metadatas"][0]["token"])

    def slots(self, entity_id: str) -> dict[int, str]:
        """The entity's version slots: version -> slot id (one filtered read of the revisions collection)."""
        prefix = chroma_id(entity_id, "rev#")
        ids = retry_read(lambda: self.records.get(where={ENTITY: entity_id}, include=[]))["ids"]
        return {int(i[len(prefix):]): i for i in ids if i.startswith(prefix) and i[len(prefix):].isdigit()}
