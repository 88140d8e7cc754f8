"""Where an embedded Chroma store lives: its default folder (``$MEMORI_RECALL_PATH``, else the user's data
directory) and the folder inside it where a recall cache keeps its snapshot files."""

from __future__ import annotations

import os
import sys
from pathlib import Path

__all__ = ["PATH_ENV", "SNAPSHOTS", "default_store_path", "env_store_path"]

PATH_ENV = "MEMORI_RECALL_PATH"
"""The environment variable naming the embedded store's folder."""

SNAPSHOTS = "snapshots"
"""The folder inside an embedded store's folder where a cache keeps its files (one subfolder per collection)."""


def env_store_path() -> Path | None:
    """``$MEMORI_RECALL_PATH`` with surrounding whitespace stripped, ``None`` when it is unset or empty; a value
    of whitespace only is a ``ValueError`` naming the variable (it would make a folder named ``' '``)."""
    raw = os.environ.get(PATH_ENV)
    if not raw:
        return None
    value = raw.strip()
    if not value:
        raise ValueError(f"{PATH_ENV} is blank ({raw!r}): set it to a folder, or unset it for the default folder")
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
