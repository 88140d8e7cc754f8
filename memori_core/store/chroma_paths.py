"""Where an embedded Chroma store lives: its default folder (``$MEMORI_RECALL_PATH``, else the user's data
directory) and the folder inside it where a recall cache keeps its snapshot files."""

from __future__ import annotations

import logging
import os
import sys
from pathlib import Path

__all__ = ["PATH_ENV", "SNAPSHOTS", "default_store_path", "env_store_path", "store_folder"]

logger = logging.getLogger(__name__)

PATH_ENV = "MEMORI_RECALL_PATH"
"""The environment variable naming the embedded store's folder."""

SNAPSHOTS = "snapshots"
"""The folder inside an embedded store's folder where a cache keeps its files (one subfolder per collection)."""


def env_store_path() -> Path | None:
    """``$MEMORI_RECALL_PATH`` with surrounding whitespace stripped, ``None`` when it is unset or empty. A value of
    whitespace only is not a folder: like every bad ``MEMORI_RECALL_*`` value it is ignored with a warning naming
    the variable, its value and what is used instead (here the default folder), never a folder named ``' '``."""
    raw = os.environ.get(PATH_ENV)
    if not raw:
        return None
    value = raw.strip()
    if not value:
        logger.warning("ignoring %s=%r: blank, not a folder; using the default folder %s", PATH_ENV, raw,
                       default_store_path(env=False))
        return None
    return Path(value).expanduser()


def default_store_path(*, env: bool = True) -> Path:
    """Where the embedded store lives by default: ``$MEMORI_RECALL_PATH`` (stripped: :func:`env_store_path`), else
    the user's data directory (``env=False``: the data directory, whatever the variable says)."""
    if env:
        from_env = env_store_path()
        if from_env is not None:
            return from_env
    home = Path.home()
    if sys.platform == "win32":
        base = Path(os.environ.get("LOCALAPPDATA") or home / "AppData" / "Local")
    elif sys.platform == "darwin":
        base = home / "Library" / "Application Support"
    else:
        base = Path(os.environ.get("XDG_DATA_HOME") or home / ".local" / "share")
    return base / "memori-recall"


def store_folder(path: str | os.PathLike[str] | None) -> Path:
    """The folder of an embedded store opened at ``path``, checked, and created when it is new.

    ``None``: ``$MEMORI_RECALL_PATH``, else the default folder (:func:`default_store_path`), which alone is
    created with its parents. Otherwise (the variable too) only the last folder is created, and a warning is
    logged naming it: a mistyped ``path`` whose parent does not exist (``/data/stroe/memori``) raises
    ``FileNotFoundError`` instead of opening a new, empty store, in which every user would seem forgotten. A
    ``path`` that is a file is a ``ValueError``, one this process cannot write to a ``PermissionError`` (Chroma
    writes to its folder even to read); each names ``path`` (or the variable) and the folder.
    """
    if path is None:
        from_env = env_store_path()
        if from_env is None:
            folder = default_store_path(env=False)
            folder.mkdir(parents=True, exist_ok=True)
            return folder
        name, folder = f"${PATH_ENV}", from_env
    else:
        if not isinstance(path, (str, os.PathLike)):
            raise TypeError(f"path must be a str or os.PathLike naming a folder, got {type(path).__name__} {path!r}")
        if isinstance(path, str) and not path.strip():
            raise ValueError(f"path must name a folder, got {path!r}")
        name, folder = "path", Path(path).expanduser()
    if folder.is_dir():
        if not os.access(folder, os.W_OK | os.X_OK):
            raise PermissionError(f"{name} {str(folder)!r} is not writable (an embedded store writes to its folder "
                                  "even to read)")
        return folder
    if folder.exists():
        raise ValueError(f"{name} {str(folder)!r} is a file: an embedded store's path must be a folder")
    parent = folder.parent
    if not parent.is_dir():
        what = "is a file" if parent.exists() else "does not exist"
        raise FileNotFoundError(f"{name} {str(folder)!r}: its parent folder {str(parent)!r} {what}, so no store is "
                                "created there (check the spelling; only a missing last folder is created)")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise PermissionError(f"{name} {str(folder)!r} cannot be created: its parent folder {str(parent)!r} is not "
                              "writable")
    try:
        folder.mkdir()
    except FileExistsError:  # made meanwhile by another process: a folder is what it needs to be
        if not folder.is_dir():
            raise ValueError(f"{name} {str(folder)!r} is a file: an embedded store's path must be a folder") from None
        return folder
    except OSError as exc:  # e.g. a folder of /proc, read-only file systems
        raise OSError(exc.errno, f"{name} {str(folder)!r} cannot be created: {exc.strerror}") from exc
    logger.warning("created a new, empty store at %s (no folder was there: if you meant an existing store, check "
                   "the path)", folder)
    return folder
