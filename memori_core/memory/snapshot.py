"""The snapshot file of one entity's cache: format, atomic write, validity check, load without parsing rows.

Layout (one file per collection and entity, see :mod:`memori_core.memory.snapshots`)::

    b"MRSNAP\\x00\\x02"     8 bytes: magic and format version
    u64 (little-endian)   header length H
    H bytes               header: JSON (UTF-8)
    zero padding          to a 64-byte boundary: the data region starts here
    arrays                each at a 64-byte aligned offset of the data region

The header names what the rows are valid for and where each array is:
``schema``, ``entity_id``, ``revision`` (the store's revision token the rows
belong to), ``collection_id`` (Chroma's collection UUID), ``analyzer`` (the
tokenizer and stemmer of the postings), ``versions`` (memori_core, PyStemmer,
the Unicode database: what tokenising depends on), ``n``, ``dim``,
``n_expiring``, ``skipped_dims``, ``vocab_size``, ``data_size``, ``crc32``
(of the whole data region) and ``arrays``: name -> [dtype, shape, offset, nbytes].

Arrays, rows in reload order (what a load from the store gives):
``matrix`` (float32 n x dim, L2-normalised), the numeric columns (``session``,
``times_seen``, ``seq``, ``recency``, ``created_ts``, ``expires``, ``chars``),
each string column ``<name>.buf`` (uint8 UTF-8) + ``<name>.off`` (int64, n + 1)
[+ ``<name>.none`` (bool)] for ids, texts, created, last_seen, meta_json,
updated, expiry and session_names, ``vocab.buf`` (the terms NUL-joined: a
term's id is its position), the forward index ``doc_ptr`` / ``doc_terms`` and
the CSR postings ``post_ptr`` / ``post_rows`` / ``post_tfs``.

A file is written to a temporary name, fsynced and renamed over the old one
(readers see the old file or the new one, never a part). It is used only when
every header field matches and the data region's size and CRC-32 are right;
loading maps the file once and every array is a read-only view of it (nothing
is parsed per row; arrays are copied on the first write to the cache).
"""

from __future__ import annotations

import json
import mmap
import os
import unicodedata
import zlib
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from .columns import NUMERIC_FIELDS, STRING_FIELDS, Columns, LoadedColumns
from .entity import EntityCache
from .postings import AnalyzerKey, CSRIndex
from .strings import StrColumn

MAGIC = b"MRSNAP\x00\x02"
SCHEMA = 2
ALIGN = 64
_CHUNK = 1 << 22  # bytes read at a time while checking the CRC


class SnapshotError(ValueError):
    """A snapshot file that cannot be used (why is the message)."""


@lru_cache(maxsize=1)
def versions() -> dict[str, str | None]:
    """What the stored tokens and rows depend on besides the schema."""
    from importlib import metadata

    def version(dist: str) -> str | None:
        try:
            return metadata.version(dist)
        except metadata.PackageNotFoundError:
            return None

    return {
        "memori_core": _package_version(),
        "pystemmer": version("PyStemmer"),
        "unicode": unicodedata.unidata_version,
    }


def _package_version() -> str:
    import memori_core

    return str(getattr(memori_core, "__version__", "?"))


def _aligned(n: int) -> int:
    return -(-n // ALIGN) * ALIGN


def _raw(a: np.ndarray) -> memoryview:
    """The bytes of a C-contiguous array (also when it has no element)."""
    return memoryview(a.reshape(-1).view(np.uint8))


def _string_arrays(name: str, col: StrColumn, out: dict[str, np.ndarray]) -> None:
    col = col.compacted()
    out[f"{name}.buf"] = col.buffer()
    out[f"{name}.off"] = np.asarray(col.off, dtype=np.int64)
    if col.none is not None:
        out[f"{name}.none"] = np.asarray(col.none, dtype=bool)


def snapshot_arrays(cache: EntityCache) -> dict[str, np.ndarray]:
    """The arrays of a canonical cache (see :meth:`EntityCache.canonical`), by name."""
    if not cache.is_canonical():
        raise ValueError("write the canonical form of the cache (cache.canonical())")
    n = cache.n_rows
    c = cache.columns
    out: dict[str, np.ndarray] = {"matrix": np.ascontiguousarray(c.matrix[:n], dtype=np.float32)}
    for name in NUMERIC_FIELDS:
        out[name] = getattr(c, name)[:n]
    for name in STRING_FIELDS:
        _string_arrays(name, getattr(c, name), out)
    _string_arrays("session_names", StrColumn.from_list(c.session_names), out)
    terms = list(cache.lexicon.vocab)
    joined = "\x00".join(terms).encode("utf-8")
    if terms and joined.count(b"\x00") != len(terms) - 1:
        raise ValueError("a term holds a NUL character")  # tokenizers never produce one
    out["vocab.buf"] = np.frombuffer(joined, dtype=np.uint8)
    doc_ptr, doc_terms = cache.forward
    out["doc_ptr"], out["doc_terms"] = doc_ptr, doc_terms
    ix = cache.lexicon
    out["post_ptr"], out["post_rows"], out["post_tfs"] = ix.ptr, ix.rows, ix.tfs
    return out


def write_snapshot(path: Path, cache: EntityCache, collection_id: str) -> int:
    """Write the canonical ``cache`` at ``path`` (fsynced; not renamed: the caller does that); returns its size."""
    arrays = {k: np.ascontiguousarray(v) for k, v in snapshot_arrays(cache).items()}
    table: dict[str, list[Any]] = {}
    offset = 0
    for name, a in arrays.items():
        table[name] = [a.dtype.str, list(a.shape), offset, int(a.nbytes)]
        offset += _aligned(a.nbytes)
    crc = 0
    for a in arrays.values():
        crc = zlib.crc32(_raw(a), crc)
        crc = zlib.crc32(bytes(_aligned(a.nbytes) - a.nbytes), crc)
    header = {
        "schema": SCHEMA,
        "entity_id": cache.entity_id,
        "revision": cache.revision,
        "collection_id": collection_id,
        "analyzer": list(cache.key),
        "versions": versions(),
        "n": cache.n_rows,
        "dim": cache.dim,
        "n_expiring": cache.n_expiring,
        "skipped_dims": {str(k): v for k, v in cache.skipped_dims.items()},
        "vocab_size": len(cache.lexicon.vocab),
        "data_size": offset,
        "crc32": crc,
        "arrays": table,
    }
    head = json.dumps(header).encode("utf-8")
    start = _aligned(16 + len(head))
    with open(path, "wb") as f:
        f.write(MAGIC)
        f.write(len(head).to_bytes(8, "little"))
        f.write(head)
        f.write(bytes(start - 16 - len(head)))
        for a in arrays.values():
            f.write(_raw(a))
            f.write(bytes(_aligned(a.nbytes) - a.nbytes))
        f.flush()
        os.fsync(f.fileno())
    return start + offset


def read_header(path: Path) -> tuple[dict[str, Any], int]:
    """The header of the snapshot at ``path`` and where its data region starts (raises SnapshotError, OSError)."""
    with open(path, "rb") as f:
        head = f.read(16)
        if len(head) < 16 or head[:8] != MAGIC:
            raise SnapshotError("not a snapshot of this format")
        size = int.from_bytes(head[8:16], "little")
        if size > 1 << 26:
            raise SnapshotError("header too large")
        raw = f.read(size)
    if len(raw) != size:
        raise SnapshotError("truncated header")
    try:
        header = json.loads(raw)
    except ValueError as exc:
        raise SnapshotError(f"unreadable header: {exc}") from None
    if not isinstance(header, dict):
        raise SnapshotError("unreadable header")
    return header, _aligned(16 + size)


@dataclass(frozen=True)
class Expected:
    """What a snapshot must have been written for to be used."""

    entity_id: str
    revision: str
    collection_id: str

    def mismatch(self, header: dict[str, Any]) -> str | None:
        """Why ``header`` does not fit (``None``: it does)."""
        for field, want in (
            ("schema", SCHEMA), ("entity_id", self.entity_id), ("collection_id", self.collection_id),
            ("revision", self.revision), ("versions", versions()),
        ):
            if header.get(field) != want:
                return f"{field} differs"
        return None


def _check_crc(path: Path, start: int, header: dict[str, Any]) -> None:
    size = header.get("data_size")
    if not isinstance(size, int) or os.path.getsize(path) != start + size:
        raise SnapshotError("truncated or oversized file")
    crc = 0
    buf = bytearray(min(_CHUNK, max(size, 1)))
    view = memoryview(buf)
    with open(path, "rb") as f:
        f.seek(start)
        left = size
        while left:
            got = f.readinto(view[: min(left, len(buf))])
            if not got:
                raise SnapshotError("truncated file")
            crc = zlib.crc32(view[:got], crc)
            left -= got
    if crc != header.get("crc32"):
        raise SnapshotError("checksum differs")


@dataclass
class LoadedSnapshot:
    """A snapshot's rows, as views of the file."""

    loaded: LoadedColumns
    key: AnalyzerKey
    forward: tuple[np.ndarray, np.ndarray]
    index: CSRIndex


def load_snapshot(path: Path, expected: Expected, *, use_mmap: bool | None = None) -> LoadedSnapshot:
    """The rows stored at ``path`` if it was written for ``expected`` and is intact; raises SnapshotError otherwise."""
    header, start = read_header(path)
    why = expected.mismatch(header)
    if why is not None:
        raise SnapshotError(why)
    _check_crc(path, start, header)
    if use_mmap is None:
        use_mmap = os.name != "nt"  # Windows cannot delete or replace a mapped file
    with open(path, "rb") as f:
        if use_mmap:
            buf: Any = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
        else:
            buf = f.read()
    try:
        return _parse(header, start, buf)
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        raise SnapshotError(f"inconsistent arrays: {exc}") from None


def _parse(h: dict[str, Any], start: int, buf: Any) -> LoadedSnapshot:
    table: dict[str, list[Any]] = h["arrays"]
    size = int(h["data_size"])
    n = int(h["n"])

    def arr(name: str, rows: int | None = None) -> np.ndarray:
        dt_s, shape, off, nbytes = table[name]
        dt = np.dtype(dt_s)
        count = int(np.prod(shape, dtype=np.int64))
        if off < 0 or off + nbytes > size or count * dt.itemsize != nbytes or (rows is not None and shape[0] != rows):
            raise SnapshotError(f"array {name} out of bounds")
        if nbytes == 0:
            return np.zeros(shape, dtype=dt)
        return np.frombuffer(buf, dtype=dt, count=count, offset=start + off).reshape(shape)

    def strings(name: str, rows: int) -> StrColumn:
        off = arr(f"{name}.off", rows + 1)
        data = table[f"{name}.buf"]
        if off.shape[0] and (off[0] != 0 or off[-1] != data[3] or (np.diff(off) < 0).any()):
            raise SnapshotError(f"string offsets of {name} out of bounds")
        none = arr(f"{name}.none", rows) if f"{name}.none" in table else None
        return StrColumn(buf, off, none, base=start + data[2])

    names_col = strings("session_names", int(table["session_names.off"][1][0]) - 1)
    numeric = {name: arr(name, n) for name in NUMERIC_FIELDS}
    matrix = arr("matrix", n)
    dim = h.get("dim")
    if n and (matrix.ndim != 2 or matrix.shape[1] != dim):
        raise SnapshotError("matrix shape differs from the header")
    cols = Columns(
        **{name: strings(name, n) for name in STRING_FIELDS},
        **numeric,
        session_names=names_col.values(),  # type: ignore[arg-type]
        matrix=matrix if n else np.zeros((0, int(dim or 0)), dtype=np.float32),
    )
    if n and int(cols.session.max(initial=-1)) >= len(cols.session_names):
        raise SnapshotError("session code out of range")
    _, _, voff, vbytes = table["vocab.buf"]
    if voff < 0 or voff + vbytes > size:
        raise SnapshotError("vocabulary out of bounds")
    vocab_size = int(h["vocab_size"])
    terms = bytes(buf[start + voff : start + voff + vbytes]).decode("utf-8").split("\x00") if vocab_size else []
    if len(terms) != vocab_size:
        raise SnapshotError("vocabulary size differs from the header")
    vocab = dict(zip(terms, range(vocab_size)))
    doc_ptr, doc_terms = arr("doc_ptr", n + 1), arr("doc_terms")
    post_ptr, post_rows, post_tfs = arr("post_ptr", vocab_size + 1), arr("post_rows"), arr("post_tfs")
    if (
        doc_ptr[0] != 0 or doc_ptr[-1] != doc_terms.shape[0] or post_ptr[0] != 0
        or post_ptr[-1] != post_rows.shape[0] or post_rows.shape != post_tfs.shape
        or (doc_terms.size and (int(doc_terms.max()) >= vocab_size or int(doc_terms.min()) < 0))
        or (post_rows.size and (int(post_rows.max()) >= n or int(post_rows.min()) < 0))
    ):
        raise SnapshotError("token arrays out of bounds")
    index = CSRIndex(vocab, post_ptr, post_rows, post_tfs, np.diff(doc_ptr).astype(np.int32))
    skipped = Counter({int(k): int(v) for k, v in dict(h.get("skipped_dims") or {}).items()})
    loaded = LoadedColumns(cols, skipped, int(h.get("n_expiring") or 0))
    key = tuple(h["analyzer"])
    return LoadedSnapshot(loaded, key, (doc_ptr, doc_terms), index)  # type: ignore[arg-type]
