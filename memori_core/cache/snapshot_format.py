"""The snapshot file of one entity's cache: format, atomic write, validity check, load without parsing rows.

Layout (one file per collection and entity, see :mod:`memori_core.cache.snapshot_files`)::

    b"MRSNAP\\x00\\x04"     8 bytes: magic and format version
    u64 (little-endian)   header length H
    H bytes               header: JSON (UTF-8)
    zero padding          to a 64-byte boundary: the data region starts here
    arrays                each at a 64-byte aligned offset of the data region

The header names what the rows are valid for and where each array is:
``schema``, ``entity_id``, ``revision`` (the store's revision token the rows
belong to), ``collection_id`` (Chroma's collection UUID), ``analyzer`` (the
tokenizer and stemmer of the postings), ``versions`` (memori_core, PyStemmer,
the Unicode database, the stem folds' version: what tokenising depends on), ``n``, ``dim``,
``n_expiring``, ``skipped_dims``, ``vocab_size``, ``data_size``, ``crc32``
(of the whole data region) and ``arrays``: name -> [dtype, shape, offset, nbytes].

Arrays, rows in reload order (what a load from the store gives):
``matrix`` (float32 n x dim, L2-normalised), the numeric columns (``session``,
``times_seen``, ``seq``, ``recency``, ``created_ts``, ``expires``, ``chars``),
each string column ``<name>.buf`` (uint8 UTF-8) + ``<name>.off`` (n + 1;
uint32, or int64 past 4 GiB of text) [+ ``<name>.none`` (bool)] for ids,
texts, created, last_seen, meta_json, updated, expiry, validity and session_names,
``vocab.buf`` (the terms NUL-joined: a term's id is its position), the
forward index ``doc_ptr`` / ``doc_terms`` and the CSR postings ``post_ptr`` /
``post_rows`` / ``post_tfs``; from :data:`COPY_FROM_ROWS` rows on, the 8-bit
copy recall searches first (``q.codes`` uint8 n x dim, ``q.scale`` float64,
``q.bounds`` = [rho, R]; see :mod:`memori_core.cache.quantized`), so a load
does not re-quantise the matrix (nor read all of it) before the first recall.

Two rules keep the file (and what a process maps of it) small: an array whose
bytes are all zero (e.g. the offsets of a column no fact fills) is not stored
(offset -1: it reads as zeros), and an array equal to one written before it
(e.g. ``last_seen`` while no fact was seen twice) points at that one's bytes.

A file is written to a temporary name, fsynced and renamed over the old one
(readers see the old file or the new one, never a part). It is used only when
every header field matches and the data region's size and CRC-32 are right;
loading reads the file once (only a regular file: a FIFO is never opened for
reading), checks the CRC and bounds on the bytes read, and every array is a
read-only view of that buffer (nothing is parsed per row; arrays are copied
on the first write to the cache). What the cache serves never changes with
the file afterwards.
"""

from __future__ import annotations

import io
import json
import os
import stat
import unicodedata
import zlib
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, BinaryIO

import numpy as np

from .columns import NUMERIC_FIELDS, STRING_FIELDS, Columns, LoadedColumns
from .entity import EntityCache
from .postings import AnalyzerKey, CSRIndex
from .._version import __version__
from ..text import STEM_FOLDS_VERSION
from ..config import RecallConfig
from .quantized import QuantizedMatrix
from .strings import StrColumn

MAGIC = b"MRSNAP\x00\x04"
SCHEMA = 4  # 4: the validity column (valid_to, superseded_by, supersedes)
ALIGN = 64
# Bytes read at a time while checking the CRC: a multiple of ALIGN (no array item straddles two reads) and small,
# so the buffer does not stay behind in the heap once glibc has raised its mmap threshold.
_CHUNK = 1 << 18
COPY_FROM_ROWS: int = RecallConfig().quantized_above or 0
"""Rows from which a snapshot keeps the 8-bit copy of the matrix (``RecallConfig.quantized_above``'s default)."""
_NOT_STORED = -1  # the offset of an all-zero array
_AS_IS = frozenset({"matrix", "vocab.buf", "q.codes"})  # always written as they are (no zero / duplicate check)


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
        "memori_core": __version__,
        "pystemmer": version("PyStemmer"),
        "unicode": unicodedata.unidata_version,
        "stem_folds": STEM_FOLDS_VERSION,
    }


def _aligned(n: int) -> int:
    return -(-n // ALIGN) * ALIGN


def _raw(a: np.ndarray) -> memoryview:
    """The bytes of a C-contiguous array (also when it has no element)."""
    return memoryview(a.reshape(-1).view(np.uint8))


def _offsets(off: np.ndarray) -> np.ndarray:
    """String offsets as uint32 when the text fits in 4 GiB, else int64."""
    return np.asarray(off, dtype=np.uint32 if int(off[-1]) < 2**32 else np.int64)


def _string_arrays(name: str, col: StrColumn, out: dict[str, np.ndarray]) -> None:
    col = col.compacted()
    out[f"{name}.buf"] = col.buffer()
    out[f"{name}.off"] = _offsets(col.off)
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
    if n >= COPY_FROM_ROWS and n:
        # Made here from the rows written (every row of a canonical cache is live), never taken from the
        # live cache's copy, which recalls may be changing meanwhile.
        qm = QuantizedMatrix.build(out["matrix"])
        if qm is not None:
            codes, scale, rho, code_norm = qm.parts()
            out["q.codes"], out["q.scale"], out["q.bounds"] = codes, scale, np.array([rho, code_norm])
    return out


def _layout(arrays: dict[str, np.ndarray]) -> tuple[dict[str, list[Any]], list[np.ndarray], int]:
    """The header's array table, the arrays to write (in order) and the data size: all-zero arrays are not
    stored, an array equal to an earlier one points at its bytes."""
    table: dict[str, list[Any]] = {}
    stored: list[np.ndarray] = []
    written: dict[tuple[str, tuple[int, ...]], list[tuple[np.ndarray, int]]] = {}
    offset = 0
    for name, a in arrays.items():
        entry: list[Any] = [a.dtype.str, list(a.shape), offset, int(a.nbytes)]
        if name not in _AS_IS and a.nbytes:
            raw = np.frombuffer(_raw(a), dtype=np.uint8)
            if not name.endswith(".buf") and not raw.any():  # (a string buffer is read at its offset)
                table[name] = [a.dtype.str, list(a.shape), _NOT_STORED, int(a.nbytes)]
                continue
            same = written.setdefault((a.dtype.str, a.shape), [])
            at = next((off for b, off in same if np.array_equal(raw, np.frombuffer(_raw(b), dtype=np.uint8))), None)
            if at is not None:
                entry[2] = at
                table[name] = entry
                continue
            same.append((a, offset))
        table[name] = entry
        stored.append(a)
        offset += _aligned(a.nbytes)
    return table, stored, offset


def write_snapshot(path: Path, cache: EntityCache, collection_id: str) -> int:
    """Write the canonical ``cache`` at ``path`` (fsynced; not renamed: the caller does that); returns its size."""
    arrays = {k: np.ascontiguousarray(v) for k, v in snapshot_arrays(cache).items()}
    table, stored, offset = _layout(arrays)
    crc = 0
    for a in stored:
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
        for a in stored:
            f.write(_raw(a))
            f.write(bytes(_aligned(a.nbytes) - a.nbytes))
        f.flush()
        os.fsync(f.fileno())
    return start + offset


def read_header(path: Path) -> tuple[dict[str, Any], int]:
    """The header of the snapshot at ``path`` and where its data region starts (raises SnapshotError, OSError)."""
    with _open_regular(path) as f:
        return _read_header(f)


def _open_regular(path: Path) -> BinaryIO:
    """``path`` opened for reading if it is a regular file; SnapshotError otherwise (a FIFO, a device or a
    folder at a snapshot's path is never read: opening a FIFO would wait for a writer forever)."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise SnapshotError("not a regular file")
        return os.fdopen(fd, "rb", buffering=0)
    except BaseException:
        os.close(fd)
        raise


def _read_header(f: BinaryIO) -> tuple[dict[str, Any], int]:
    f.seek(0)
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


class _Bounds:
    """What the load checks of one integer array (range, order, ends), gathered from the CRC pass's buffer."""

    __slots__ = ("lo", "hi", "first", "last", "ascending", "steps", "_at")

    def __init__(self, count: int, steps: bool) -> None:
        self.lo: int | None = None
        self.hi: int | None = None
        self.first: int | None = None
        self.last: int | None = None
        self.ascending = True
        # steps[i] = a[i + 1] - a[i] (for doc_ptr: each row's token count), when asked for
        self.steps = np.zeros(max(count - 1, 0), dtype=np.int32) if steps else None
        self._at = 0

    def feed(self, a: np.ndarray) -> None:
        """The next items of the array, in order."""
        if not a.shape[0]:
            return
        lo, hi, head = int(a.min()), int(a.max()), int(a[0])
        self.lo = lo if self.lo is None else min(self.lo, lo)
        self.hi = hi if self.hi is None else max(self.hi, hi)
        if self.first is None:
            self.first = head
        if (self.last is not None and head < self.last) or bool((a[1:] < a[:-1]).any()):
            self.ascending = False
        if self.steps is not None:
            if self.last is not None:
                self.steps[self._at - 1] = head - self.last
            self.steps[self._at : self._at + a.shape[0] - 1] = np.diff(a)
        self.last = int(a[-1])
        self._at += a.shape[0]


def _bounded(name: str) -> bool:
    """Arrays whose bounds the load checks (from the CRC pass, not the mapping)."""
    return name.endswith(".off") or name in ("doc_ptr", "doc_terms", "post_rows")


def _scan_data(f: BinaryIO, start: int, header: dict[str, Any], total: int) -> dict[str, _Bounds]:
    """Check the data region's size (``total``: the file's) and CRC-32 and gather the bounds of the checked
    arrays on the way."""
    size = header.get("data_size")
    table = header.get("arrays")
    if not isinstance(size, int) or total != start + size:
        raise SnapshotError("truncated or oversized file")
    if not isinstance(table, dict):
        raise SnapshotError("no array table")
    bounds: dict[str, _Bounds] = {}
    spans: list[tuple[int, int, np.dtype[Any], _Bounds]] = []
    try:
        for name, (dt_s, shape, off, nbytes) in table.items():
            if not _bounded(name):
                continue
            dt = np.dtype(dt_s)
            count = int(np.prod(shape, dtype=np.int64))
            if dt.kind not in "iu" or len(shape) != 1 or count * dt.itemsize != nbytes:
                raise SnapshotError(f"array {name} has the wrong type or size")
            b = bounds[name] = _Bounds(count, steps=name == "doc_ptr")
            if off == _NOT_STORED:
                b.feed(np.zeros(min(count, 1), dtype=dt))
                if b.steps is not None:
                    b.steps[:] = 0
            elif nbytes:
                if off < 0 or off % ALIGN or off + nbytes > size:
                    raise SnapshotError(f"array {name} out of bounds")
                spans.append((off, off + nbytes, dt, b))
    except (TypeError, ValueError) as exc:
        if isinstance(exc, SnapshotError):
            raise
        raise SnapshotError(f"unreadable array table: {exc}") from None
    crc = 0
    buf = bytearray(min(_CHUNK, max(size, 1)))
    view = memoryview(buf)
    f.seek(start)
    pos = 0
    while pos < size:
        want = min(size - pos, len(buf))
        got = 0
        while got < want:  # fill the whole chunk: array items never straddle two reads
            k = f.readinto(view[got:want])
            if not k:
                raise SnapshotError("truncated file")
            got += k
        crc = zlib.crc32(view[:got], crc)
        for lo, hi, dt, b in spans:
            a, z = max(lo, pos), min(hi, pos + got)
            if a < z:
                b.feed(np.frombuffer(view[a - pos : z - pos], dtype=dt))
        pos += got
    if crc != header.get("crc32"):
        raise SnapshotError("checksum differs")
    return bounds


@dataclass
class LoadedSnapshot:
    """A snapshot's rows, as views of the bytes read from its file."""

    loaded: LoadedColumns
    key: AnalyzerKey
    forward: tuple[np.ndarray, np.ndarray]
    index: CSRIndex
    copy: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None  # the 8-bit copy's parts, when kept


def load_snapshot(path: Path, expected: Expected) -> LoadedSnapshot:
    """The rows stored at ``path`` if it was written for ``expected`` and is intact; raises SnapshotError otherwise.

    The file is read into memory once and its size, checksum and bounds checked on the bytes read, so nothing
    done to the file afterwards (truncated, rewritten in place, replaced) can change what the cache serves or
    crash the process (a mapping would: SIGBUS on the next read of a truncated file)."""
    with _open_regular(path) as f:
        header, start = _read_header(f)
        why = expected.mismatch(header)
        if why is not None:
            raise SnapshotError(why)
        f.seek(0)
        buf = f.read()
    try:
        return _parse(header, start, buf, _scan_data(io.BytesIO(buf), start, header, len(buf)))
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        if isinstance(exc, SnapshotError):
            raise
        raise SnapshotError(f"inconsistent arrays: {exc}") from None


def _parse(h: dict[str, Any], start: int, buf: bytes, bounds: dict[str, _Bounds]) -> LoadedSnapshot:
    table: dict[str, list[Any]] = h["arrays"]
    size = int(h["data_size"])
    n = int(h["n"])

    def arr(name: str, rows: int | None = None) -> np.ndarray:
        dt_s, shape, off, nbytes = table[name]
        dt = np.dtype(dt_s)
        count = int(np.prod(shape, dtype=np.int64))
        if (
            (off != _NOT_STORED and (off < 0 or off + nbytes > size)) or count * dt.itemsize != nbytes
            or (rows is not None and shape[0] != rows)
        ):
            raise SnapshotError(f"array {name} out of bounds")
        if nbytes == 0 or off == _NOT_STORED:
            zeros = np.zeros(shape, dtype=dt)  # (pages a read never touches stay unallocated)
            zeros.flags.writeable = False
            return zeros
        return np.frombuffer(buf, dtype=dt, count=count, offset=start + off).reshape(shape)

    def strings(name: str, rows: int) -> StrColumn:
        off = arr(f"{name}.off", rows + 1)
        data = table[f"{name}.buf"]
        b = bounds[f"{name}.off"]
        if off.shape[0] and (b.first != 0 or b.last != data[3] or not b.ascending):
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
    ptr_b, terms_b, rows_b = bounds["doc_ptr"], bounds["doc_terms"], bounds["post_rows"]
    if (
        ptr_b.first != 0 or ptr_b.last != doc_terms.shape[0] or not ptr_b.ascending or post_ptr[0] != 0
        or post_ptr[-1] != post_rows.shape[0] or post_rows.shape != post_tfs.shape
        or (doc_terms.size and (terms_b.hi >= vocab_size or terms_b.lo < 0))  # type: ignore[operator]
        or (post_rows.size and (rows_b.hi >= n or rows_b.lo < 0))  # type: ignore[operator]
    ):
        raise SnapshotError("token arrays out of bounds")
    lengths = ptr_b.steps if ptr_b.steps is not None else np.zeros(n, dtype=np.int32)
    index = CSRIndex(vocab, post_ptr, post_rows, post_tfs, lengths)
    skipped = Counter({int(k): int(v) for k, v in dict(h.get("skipped_dims") or {}).items()})
    loaded = LoadedColumns(cols, skipped, int(h.get("n_expiring") or 0))
    copy = None
    if "q.codes" in table:
        codes: Any = arr("q.codes", n)
        scale, bounds = arr("q.scale"), arr("q.bounds")
        if (
            codes.dtype != np.uint8 or codes.ndim != 2 or codes.shape[1] != dim or scale.dtype != np.float64
            or scale.shape != (dim,) or bounds.dtype != np.float64 or bounds.shape != (2,)
            or not np.isfinite(bounds).all() or not np.isfinite(scale).all() or not (scale > 0).all()
        ):
            raise SnapshotError("8-bit copy out of shape")
        copy = (codes, scale, bounds)
    key = tuple(h["analyzer"])
    return LoadedSnapshot(loaded, key, (doc_ptr, doc_terms), index, copy)  # type: ignore[arg-type]
