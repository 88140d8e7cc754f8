"""Erasing for real in an embedded Chroma folder: the texts of deleted rows are scrubbed from Chroma's
write-ahead log.

Chroma (1.5) writes every change of a collection to the ``embeddings_queue`` table of the folder's
``chroma.sqlite3`` before applying it, and trims that log only once its vector index has been saved to disk
(every ``hnsw:sync_threshold`` changes, 1000 by default). Until then a deleted fact's earlier writes stay
there in full: its text, metadata and vector, readable with one ``SELECT`` after ``delete`` or ``forget``.
Chroma offers nothing to purge them (``chroma vacuum`` trims only what the index has saved).

:func:`scrub_erased` blanks those entries in place: every add, update or upsert of the collection that a
later delete of the same id has made dead loses its metadata (the text is in it) and its vector is zeroed,
with SQLite's ``secure_delete`` on so the old bytes are overwritten. The entries themselves stay, with their
ids (``<len>:<entity>:<fact id>``) and order, so Chroma replays the log exactly as before when it reopens the
folder: the delete that follows each blanked entry removes what it adds. An entry no later delete follows
(the row is live) is never touched.

For the folder of a Chroma server (``chroma run --path DIR``), which memori-recall does not reach, run
``python -m memori_core.store.chroma_log DIR``: it scrubs every collection of the folder the same way.
"""

from __future__ import annotations

import argparse
import sqlite3
from pathlib import Path


SQLITE_FILE = "chroma.sqlite3"
"""The file of an embedded Chroma folder that holds its log (and its metadata segment)."""

_DELETE = 3
"""Chroma's operation code of a delete in ``embeddings_queue`` (add 0, update 1, upsert 2)."""

_SCRUB = f"""
UPDATE embeddings_queue
SET metadata = NULL, vector = CASE WHEN vector IS NULL THEN NULL ELSE zeroblob(length(vector)) END
WHERE operation != {_DELETE} AND metadata IS NOT NULL AND topic LIKE ?
  AND EXISTS (SELECT 1 FROM embeddings_queue AS later
              WHERE later.topic = embeddings_queue.topic AND later.id = embeddings_queue.id
                AND later.operation = {_DELETE} AND later.seq_id > embeddings_queue.seq_id)
"""


def scrub_erased(folder: str | Path, collection_id: str | None, timeout: float = 10.0) -> int:
    """Blank the log entries of rows deleted from collection ``collection_id`` (``None``: from any collection)
    of the Chroma folder ``folder`` (see the module's docstring); returns how many entries were blanked (0 when
    the folder has no log). ``timeout``: seconds to wait for Chroma's own writes to the file to end."""
    path = Path(folder) / SQLITE_FILE
    if not path.is_file():
        return 0
    con = sqlite3.connect(str(path), timeout=timeout, isolation_level=None)
    try:
        con.execute("PRAGMA secure_delete = ON")  # the old record bytes are overwritten, not only unlinked
        return int(con.execute(_SCRUB, (f"%/{collection_id}" if collection_id else "%",)).rowcount)
    finally:
        con.close()


def main(argv: list[str] | None = None) -> int:
    """``python -m memori_core.store.chroma_log DIR``: scrub every collection of the Chroma folder ``DIR``."""
    parser = argparse.ArgumentParser(
        prog="python -m memori_core.store.chroma_log",
        description="Blank the texts of deleted rows in a Chroma folder's write-ahead log (e.g. a server's "
                    "--path). Then, with the folder closed, `chroma vacuum --path DIR --force` frees the pages.")
    parser.add_argument("folder", help="the Chroma folder (it holds chroma.sqlite3)")
    args = parser.parse_args(argv)
    if not (Path(args.folder) / SQLITE_FILE).is_file():
        parser.error(f"{args.folder} holds no {SQLITE_FILE}")
    print(f"scrubbed {scrub_erased(args.folder, None)} log entries of deleted rows")
    return 0
