"""One process per embedded Chroma folder, enforced with an OS advisory lock.

Chroma's embedded mode (``chromadb.PersistentClient``) supports one process per
folder: each process keeps its own in-memory view of the folder's indexes, so a
second process writing the same folder leaves the first one's view stale (its
next read can fail with ``InternalError: Error finding id`` until it restarts).
Chroma itself neither refuses nor handles that, so :class:`ChromaStore` does.

What we chose, and why:

* **An OS advisory lock on a file inside the folder** (``memori-recall.lock``):
  ``fcntl.flock(LOCK_EX | LOCK_NB)`` on POSIX, ``msvcrt.locking(LK_NBLCK)`` on
  one byte far past the holder record on Windows (so that the record stays
  readable). The kernel drops the lock when the holding process dies, however
  it dies (SIGKILL included), so a folder left behind by a killed process
  opens normally: there is no stale lock file to clean up, unlike a
  "pid file exists" scheme, and no guessing whether a recorded pid is alive.
* **Held by a process-wide registry, reference-counted per folder**: every
  store object of one process on one folder shares one lock, so two engines
  (or two store objects) in one app keep working. Folders are identified by
  ``(st_dev, st_ino)``, so symlinks and different spellings of a path count as
  the same folder. The lock lives until the last :meth:`FolderHold.release`
  (``ChromaStore.close()``) or the end of the process; a store that is merely
  garbage-collected keeps its hold.
* **The holder's pid, host name and start time are written into the lock file**,
  so that the refusal names who holds the folder. The file's content is only
  information; the lock alone decides.
* **After ``os.fork()``** the child inherits the parent's open lock file (and so
  the lock, which the kernel attaches to the open file, not to a pid). The
  child keeps that inherited handle open, so the folder stays locked while
  either process lives, but forgets it in its registry: a store the child opens
  on that folder is a second process's and is refused.

A folder whose lock file cannot be created or locked for any other reason than
another holder (a read-only folder, a file system without locks) is opened
without the lock, with a warning, as before this check existed.
``ChromaStore.in_memory()`` and ``ChromaStore.http()`` take no lock: a Chroma
server is the supported way for several processes to share one folder.
"""

from __future__ import annotations

import datetime as _dt
import errno
import json
import logging
import os
import shlex
import socket
import sys
import threading
import time
from pathlib import Path
from typing import Any

logger = logging.getLogger(__name__)

LOCK_FILE = "memori-recall.lock"
_RECORD_SIZE = 512  # the holder record is padded to this size and written in one call
_WIN_LOCK_OFFSET = 1 << 20  # Windows locks are mandatory: lock a byte past the record
_CONTENDED = {errno.EAGAIN, errno.EWOULDBLOCK, errno.EACCES, getattr(errno, "EDEADLOCK", errno.EDEADLK)}


class FolderInUseError(RuntimeError):
    """Another live process holds this embedded Chroma folder (Chroma's embedded mode allows one per folder)."""

    def __init__(self, folder: str, pid: int | None, host: str | None, since: str | None = None) -> None:
        self.folder, self.pid, self.host, self.since = folder, pid, host, since
        if pid is None:
            holder = "another process (its pid is not recorded yet)"
        else:
            holder = f"another process: pid {pid}" + (f" on host {host}" if host else "")
            holder += f", since {since}" if since else ""
        if sys.platform == "win32":
            arg = f'"{folder}"' if " " in folder else folder
        else:
            arg = shlex.quote(folder)
        super().__init__(
            f"the embedded Chroma folder {folder} is in use by {holder}. "
            "Chroma's embedded mode supports one process per folder. Stop that process, or, to use the "
            f"folder from several processes, serve it with `chroma run --path {arg} --host 127.0.0.1 "
            "--port 8000` and connect every process with ChromaStore.http(host=\"127.0.0.1\", port=8000) "
            "(the memori command: --server 127.0.0.1:8000)."
        )


class StoreFolderGoneError(RuntimeError):
    """The embedded Chroma folder a store holds was deleted, moved or replaced while the store was open: its facts
    are no longer there, so nothing is read from it or written to it (reads would answer from what Chroma still
    had open, and the next start would find none of it)."""

    def __init__(self, folder: str, how: str) -> None:
        self.folder = folder
        super().__init__(
            f"the embedded Chroma folder {folder} {how} while this process had it open: the store's facts are not "
            "there any more, so nothing is read from it or written to it. Put the folder back (from a backup, or "
            "`memori import` of an export into a new folder) and restart this process, or open another folder"
        )


class _Lock:
    """One locked lock file of this process: an open descriptor and how many holds use it."""

    def __init__(self, key: Any, folder: str, fd: int | None) -> None:
        self.key, self.folder, self.fd, self.holds = key, folder, fd, 0


_REGISTRY: dict[Any, _Lock] = {}
_REGISTRY_LOCK = threading.Lock()
_INHERITED: list[_Lock] = []  # locks a forked child inherited: kept open, never reused


class FolderHold:
    """This store's share of the process's lock on a folder; :meth:`release` is idempotent."""

    def __init__(self, lock: _Lock) -> None:
        self._lock: _Lock | None = lock
        self.folder = lock.folder
        self._key = lock.key

    def check_present(self) -> None:
        """Raise :class:`StoreFolderGoneError` when the folder is no longer at its path (deleted, moved or
        unmounted) or the path holds another folder now (deleted and made again). One ``stat``; a folder that
        cannot be examined for another reason (permissions) is left to Chroma to report."""
        try:
            st = os.stat(self.folder)
        except FileNotFoundError:
            raise StoreFolderGoneError(self.folder, "was deleted, moved or unmounted") from None
        except OSError:
            return
        if isinstance(self._key, tuple) and st.st_ino and (st.st_dev, st.st_ino) != self._key:
            raise StoreFolderGoneError(self.folder, "was replaced by another folder (deleted and made again)")

    @property
    def locked(self) -> bool:
        """Whether the folder is really locked (False when it was opened without a lock, with a warning)."""
        return self._lock is not None and self._lock.fd is not None

    def release(self) -> None:
        """Drop this hold; the last hold of the process on the folder unlocks it."""
        with _REGISTRY_LOCK:
            lock, self._lock = self._lock, None
            if lock is None or _REGISTRY.get(lock.key) is not lock:
                return  # already released, or inherited across a fork (see the module docstring)
            lock.holds -= 1
            if lock.holds > 0:
                return
            del _REGISTRY[lock.key]
            if lock.fd is not None:
                _unlock(lock.fd)
                os.close(lock.fd)


def acquire(folder: str | os.PathLike[str]) -> FolderHold:
    """Hold the existing directory ``folder`` for this process, or raise :class:`FolderInUseError`."""
    path = Path(folder)
    display = os.path.realpath(path)
    st = os.stat(path)
    key: Any = (st.st_dev, st.st_ino) if st.st_ino else os.path.normcase(display)
    with _REGISTRY_LOCK:
        lock = _REGISTRY.get(key)
        if lock is None:
            lock = _Lock(key, display, _lock_file(path / LOCK_FILE, display))
            _REGISTRY[key] = lock
        lock.holds += 1
        return FolderHold(lock)


def _lock_file(file: Path, folder: str) -> int | None:
    """Open and lock ``file`` and write this process into it; the descriptor, or None when locks do not work."""
    try:
        fd = os.open(file, os.O_RDWR | os.O_CREAT | getattr(os, "O_BINARY", 0), 0o644)
    except OSError as exc:
        logger.warning("cannot create %s (%s); opening the folder without the one-process check", file, exc)
        return None
    try:
        _lock(fd)
    except OSError as exc:
        if exc.errno in _CONTENDED:
            holder = _read_holder(fd)
            os.close(fd)
            raise FolderInUseError(folder, holder.get("pid"), holder.get("host"), holder.get("since")) from None
        os.close(fd)
        logger.warning("cannot lock %s (%s); opening the folder without the one-process check", file, exc)
        return None
    record = json.dumps({
        "pid": os.getpid(),
        "host": socket.gethostname(),
        "since": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
    })
    try:
        os.lseek(fd, 0, os.SEEK_SET)
        os.write(fd, record.encode().ljust(_RECORD_SIZE - 1) + b"\n")
    except OSError as exc:  # the lock holds anyway; only the refusal message of others loses the details
        logger.warning("cannot write the holder record into %s: %s", file, exc)
    return fd


def _read_holder(fd: int) -> dict[str, Any]:
    """The holder record of a lock file someone else holds (empty while they are still writing it)."""
    for _ in range(20):
        try:
            os.lseek(fd, 0, os.SEEK_SET)
            raw = os.read(fd, _RECORD_SIZE).decode("utf-8", "replace").strip()
            record = json.loads(raw) if raw else None
        except (OSError, ValueError):
            record = None
        if isinstance(record, dict):
            pid = record.get("pid")
            return {
                "pid": pid if isinstance(pid, int) else None,
                "host": str(record["host"]) if record.get("host") else None,
                "since": str(record["since"]) if record.get("since") else None,
            }
        time.sleep(0.01)  # the holder locked the file an instant ago and is writing its record
    return {}


if sys.platform == "win32":
    import msvcrt

    def _lock(fd: int) -> None:
        os.lseek(fd, _WIN_LOCK_OFFSET, os.SEEK_SET)
        msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)

    def _unlock(fd: int) -> None:
        try:
            os.lseek(fd, _WIN_LOCK_OFFSET, os.SEEK_SET)
            msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)
        except OSError:
            pass  # closing the descriptor releases it too

else:
    import fcntl

    def _lock(fd: int) -> None:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)

    def _unlock(fd: int) -> None:
        # Nothing: closing the descriptor releases the lock once no process has the open file any more.
        # An explicit LOCK_UN would also unlock it for a forked child still sharing that open file.
        pass


def _after_fork_in_child() -> None:
    global _REGISTRY_LOCK
    _REGISTRY_LOCK = threading.Lock()  # another thread may have held it at the fork
    _INHERITED.extend(_REGISTRY.values())
    _REGISTRY.clear()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)
