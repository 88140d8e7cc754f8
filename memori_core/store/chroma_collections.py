"""The guards a :class:`~memori_core.store.ChromaStore` puts around its Chroma collections: a server's
collection is opened again when the server lost it (:class:`Reopening`), an embedded one is refused in a
process forked after it was opened (:class:`ProcessBound`)."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from typing import Any

__all__ = ["ProcessBound", "Reopening", "collection_gone"]


class Reopening:
    """A collection of a store served by a Chroma server, opened again when the server no longer has it.

    A server restarted over an empty folder (a container without its volume) has lost every collection: each call
    on the old one raises chromadb's ``NotFoundError`` for as long as the process runs. A call that meets it has the
    store open its collections again (``reopen(self, failed)``: ``get_or_create``, :meth:`ChromaStore._reopen
    <memori_core.store.ChromaStore._reopen>`) and is made once more, on the new, empty one: the store then answers
    as a new server does (no facts, no revisions), and the engine's copies, whose revisions the store no longer
    holds, are read again from it, as a fresh engine would."""

    __slots__ = ("_target", "_reopen")

    def __init__(self, target: Any, reopen: Callable[[Reopening, Any], None]) -> None:
        self._target, self._reopen = target, reopen

    def __getattr__(self, name: str) -> Any:
        value = getattr(self._target, name)
        if not callable(value) or name.startswith("_"):
            return value

        def call(*args: Any, **kwargs: Any) -> Any:
            failed = self._target
            try:
                return value(*args, **kwargs)
            except Exception as exc:
                if not collection_gone(exc):
                    raise
                self._reopen(self, failed)
                return getattr(self._target, name)(*args, **kwargs)
        return call

    def __setattr__(self, name: str, value: Any) -> None:
        if name in Reopening.__slots__:
            object.__setattr__(self, name, value)
        else:  # onto the collection itself, as without the wrapper (tests wrap its methods so)
            setattr(self._target, name, value)


def collection_gone(exc: BaseException) -> bool:
    """Whether ``exc`` is the server saying the collection does not exist (chromadb's ``NotFoundError``)."""
    errors = sys.modules.get("chromadb.errors")
    return errors is not None and isinstance(exc, errors.NotFoundError) and "does not exist" in str(exc)


_DATA_CALLS = frozenset({"get", "query", "add", "upsert", "update", "delete", "count", "peek", "modify"})
"""The collection methods that read or write its data (a name or an id is read from the open collection)."""


class ProcessBound:
    """A collection of an embedded (or in-memory) store, refused in a process forked after the store was opened:
    chromadb's embedded system does not survive a fork (the child's first read blocks for ever), so every use in
    the child, reads included, gets a clear error instead (gunicorn ``--preload``, a ``fork`` multiprocessing
    pool, Celery's prefork workers). ``where`` says which store: ``"at <folder>"`` or ``"in memory"``; ``check``,
called first on every read or write of its data, raises when the store cannot be used (an embedded folder deleted under it)."""

    __slots__ = ("_target", "_pid", "_where", "_check")

    def __init__(self, target: Any, where: str, check: Callable[[], None] | None = None) -> None:
        self._target, self._pid, self._where, self._check = target, os.getpid(), where, check

    def __getattr__(self, name: str) -> Any:
        if self._check is not None and name in _DATA_CALLS:
            self._check()  # an embedded store's folder is still there (StoreFolderGoneError)
        if os.getpid() != self._pid:
            raise RuntimeError(
                f"the embedded Chroma store {self._where} was opened in process {self._pid} and cannot be used "
                f"in process {os.getpid()}, forked from it: open the store and the engine in the child (gunicorn's "
                "post_fork, or no --preload; Celery's worker_process_init), or use a Chroma server "
                "(ChromaStore.http), which forked processes may share"
            )
        return getattr(self._target, name)

    def __setattr__(self, name: str, value: Any) -> None:
        if name in ProcessBound.__slots__:
            object.__setattr__(self, name, value)
        else:  # onto the collection itself, as without the guard (tests wrap its methods so)
            setattr(self._target, name, value)
