"""Which of an entity's rows a read selects, over the cache's columns: the live rows (and dead ones), by validity
and time (expired, no longer valid, valid at a moment, with history), by a ``where`` filter on metadata and times,
the rows a flag in the metadata marks (core, unsearchable), and the most recent rows; memoised until the next write,
the flagged rows kept current by every write."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import numpy as np

from ..facts import SEARCHABLE_KEY, StoredFact, is_searchable, validity_record
from ..filters import Where, matches, metadata_keys, split_times, time_mask, where_key
from ..ranking.core import CORE_KEY
from ..ranking.dense import top_k
from ..ranking.ties import later_first, written_order
from ..validate import iso_to_ts
from .columns import Columns


def _is_unsearchable(metadata: Any) -> bool:
    return not is_searchable(metadata)


class _FlaggedRows:
    """The live rows whose user metadata sets one flag (``key``, with a value ``test(metadata)`` accepts).

    Found on first use by one search of the metadata column's bytes for the key (only the rows that hold it
    are parsed), then kept current by every write: an entity without such facts pays one search per build of
    its columns, and nothing per recall."""

    __slots__ = ("key", "test", "_rows", "_sorted")

    def __init__(self, key: str, test: Callable[[Any], bool]) -> None:
        self.key = key
        self.test = test
        self._rows: set[int] | None = None  # None: not searched for yet
        self._sorted: np.ndarray | None = None  # the same rows, sorted (until the set changes)

    def rows(self, cache: RowSelection) -> np.ndarray:
        """The flagged live rows of ``cache``, ascending."""
        if self._rows is None:
            self._rows = cache._find_flagged(self.key, self.test)
            self._sorted = None
        if self._sorted is None:
            self._sorted = np.fromiter(sorted(self._rows), dtype=np.int64, count=len(self._rows))
        return self._sorted

    def set(self, row: int, metadata: Any) -> None:
        """Keep the rows current (once they were found) when ``row`` is written with ``metadata`` (``None``:
        killed)."""
        if self._rows is None:
            return
        on = metadata is not None and self.test(metadata)
        if (row in self._rows) == on:
            return
        if on:
            self._rows.add(row)
        else:
            self._rows.discard(row)
        self._sorted = None


class RowSelection:
    """The row selections of :class:`~memori_core.cache.EntityCache` (a mixin over its columns; it reads a row's
    fact through the cache's ``fact(row)`` and the recency column through ``recency``)."""

    c: Columns
    _n: int
    _alive: np.ndarray
    _overrides: dict[int, StoredFact]
    n_expiring: int
    _dead_rows: np.ndarray | None
    _recent: tuple[int, np.ndarray] | None
    _matching: dict[str, np.ndarray]  # where filter -> its live rows (until the next write)
    _meta_values: dict[str, list[Any]]  # metadata key -> value per row (for where filters)
    _core: _FlaggedRows
    _unsearchable: _FlaggedRows
    _start_of: dict[int, float] | None  # live row -> start, for rows whose period began after they were stated
    _starts: tuple[np.ndarray, np.ndarray] | None  # the same, as sorted arrays (until the dict changes)

    def live_rows(self) -> np.ndarray:
        """Row numbers of live rows, ascending."""
        return np.flatnonzero(self._alive[: self._n])

    def expired_rows(self, now: float) -> np.ndarray:
        """Live rows whose expiry is at or before ``now`` (epoch seconds)."""
        if not self.n_expiring:
            return np.zeros(0, dtype=np.int64)
        n = self._n
        return np.flatnonzero((self.c.expires[:n] <= now) & self._alive[:n])

    def expired_by_own_expiry(self, now: float, history: np.ndarray | None = None) -> np.ndarray:
        """Live rows whose fact is past its own ``expires_at`` at ``now`` (epoch seconds), ascending: the expiry
        column, less the rows no longer valid whose column holds their ``valid_to`` but which never expire (only
        rows with history are read one by one; ``history``: :meth:`history_rows`, when the caller has them)."""
        rows = self.expired_rows(now)
        if rows.size == 0:
            return rows
        linked = set((self.history_rows() if history is None else history).tolist())
        kept = [r for r in rows.tolist()
                if r not in linked or (f := self.fact(r)) is None or f.is_expired(now)]
        return np.asarray(kept, dtype=np.int64)

    def uncounted_rows(self, now: float, *, invalid: bool, expired: bool) -> np.ndarray:
        """The live rows a count leaves out at ``now`` (epoch seconds), ascending: those no longer or not yet valid
        (``invalid``) and those past their own expiry (``expired``), the rows with history searched for once."""
        history = self.history_rows() if invalid or (expired and self.n_expiring) else np.zeros(0, dtype=np.int64)
        parts = [self.invalid_rows(now, history), self.starting_rows(now)] if invalid else []
        if expired:
            parts.append(self.expired_by_own_expiry(now, history))
        return np.unique(np.concatenate(parts)) if parts else np.zeros(0, dtype=np.int64)

    def next_expiry(self, now: float) -> float:
        """The earliest expiry (epoch seconds) of a live row still valid at ``now``; ``inf`` when none expires."""
        if not self.n_expiring:
            return float("inf")
        n = self._n
        ends = self.c.expires[:n][self._alive[:n]]
        ends = ends[ends > now]
        return float(ends.min()) if ends.size else float("inf")

    def history_rows(self) -> np.ndarray:
        """Live rows whose fact has validity or history links (:data:`~memori_core.facts.VALIDITY_FIELDS`),
        ascending: found by one search of the validity column, not a read per row."""
        found = set(self.c.validity.rows_containing("{").tolist())
        over = self._overrides
        if over:  # rows rewritten in place: their fact, not the column, says
            found.difference_update(over)
            found.update(r for r, f in over.items() if validity_record(f))
        n = self._n
        alive = self._alive
        return np.asarray(sorted(r for r in found if r < n and alive[r]), dtype=np.int64)

    def invalid_rows(self, now: float, history: np.ndarray | None = None) -> np.ndarray:
        """Live rows whose fact is no longer valid at ``now`` (epoch seconds): ``valid_to`` at or before it
        (``history``: :meth:`history_rows`, when the caller has them)."""
        rows = self.history_rows() if history is None else history
        if rows.size == 0:
            return rows
        keep = [r for r in rows.tolist() if not self.fact(r).is_valid(now)]  # type: ignore[union-attr]
        return np.asarray(keep, dtype=np.int64)

    def past_rows(self, now: float) -> np.ndarray:
        """Live rows no longer valid at ``now`` (epoch seconds) and not past their own expiry, ascending: the
        superseded and ended facts a question about the past may read (a forgotten or deleted fact has no row;
        one expired by its ``expires_at`` stays out, and so does one valid at no time: a change told ahead and
        called off before its start). Read only for such a question: the rows with history are read one by one."""
        history = self.history_rows()
        invalid = self.invalid_rows(now, history)
        if invalid.size == 0:
            return invalid
        expired = self.expired_by_own_expiry(now, history)
        held = [r for r in invalid.tolist() if (f := self.fact(r)) is not None and f.valid_to
                and iso_to_ts(f.valid_since) < iso_to_ts(f.valid_to)]  # type: ignore[arg-type]
        rows = np.asarray(held, dtype=np.int64)
        return rows[~np.isin(rows, expired)] if expired.size else rows

    def valid_at_rows(self, at: float, rows: np.ndarray | None = None) -> np.ndarray:
        """Those of ``rows`` (default: the live rows) whose fact was recallable at ``at`` (epoch seconds):
        created (and, for an updated text, a restored fact or a change told ahead, made valid) at or before it,
        not yet superseded or expired then (vectorised over the columns and :meth:`_start_times`)."""
        if rows is None:
            rows = self.live_rows()
        c = self.c
        rows = rows[(c.created_ts[rows] <= at) & (c.expires[rows] > at)]
        later = self.starting_rows(at)
        return rows[~np.isin(rows, later)] if later.size else rows

    def starting_rows(self, at: float) -> np.ndarray:
        """Live rows whose current period of validity begins after ``at`` (epoch seconds): a change told ahead
        (``add(..., valid_from=...)``) before its start, an updated or restored fact before its new period began.
        Recall, now or ``as_of``, leaves them out; an entity with no such row pays one empty check."""
        rows, starts = self._start_times()
        return rows[starts > at] if rows.size else rows

    def next_start(self, now: float) -> float:
        """The earliest start (epoch seconds) after ``now`` of a row's period of validity; ``inf`` when none: a
        kept answer holds until then (a change told ahead becomes recallable), as until the next expiry."""
        rows, starts = self._start_times()
        later = starts[starts > now] if rows.size else starts
        return float(later.min()) if later.size else float("inf")

    def _start_times(self) -> tuple[np.ndarray, np.ndarray]:
        """The live rows whose period of validity begins after their ``created_at`` (a ``valid_from`` or
        ``restored_at`` set), ascending, and each one's start (:attr:`~memori_core.facts.StoredFact.valid_since`,
        epoch seconds): found on first use by one search of the validity column for those two fields (the matching
        rows read one by one), then kept current by every write (:meth:`_set_start`), so a recall after a write
        reads no fact here."""
        if self._start_of is None:
            v = self.c.validity
            found = set(v.rows_containing('"valid_from"').tolist()) | set(v.rows_containing('"restored_at"').tolist())
            over = self._overrides
            if over:  # rows rewritten in place: their fact, not the column, says
                found.difference_update(over)
                found.update(r for r, f in over.items() if f.valid_from or f.restored_at)
            n, alive = self._n, self._alive
            self._start_of = {}
            for r in found:
                if r < n and alive[r] and (f := self.fact(r)) is not None and (f.valid_from or f.restored_at):
                    self._start_of[r] = iso_to_ts(f.valid_since)  # type: ignore[arg-type]
            self._starts = None
        if self._starts is None:
            rows = np.fromiter(self._start_of, dtype=np.int64, count=len(self._start_of))
            starts = np.fromiter(self._start_of.values(), dtype=np.float64, count=len(self._start_of))
            order = np.argsort(rows)
            self._starts = (rows[order], starts[order])
        return self._starts

    def _set_start(self, row: int, fact: StoredFact | None) -> None:
        """Keep the start times current (once they were found) when ``row`` is written with ``fact`` (``None``:
        killed)."""
        if self._start_of is None:
            return
        start = None
        if fact is not None and (fact.valid_from or fact.restored_at):
            start = iso_to_ts(fact.valid_since)  # type: ignore[arg-type]
        if self._start_of.get(row) == start:
            return
        if start is None:
            del self._start_of[row]
        else:
            self._start_of[row] = start
        self._starts = None

    def matching_rows(self, where: Where) -> np.ndarray:
        """Live rows whose user metadata and times satisfy ``where`` (memoised until the next write)."""
        key = where_key(where)
        rows = self._matching.get(key)
        if rows is None:
            meta, times = split_times(where)
            if meta is None:
                rows = self.live_rows()
            else:
                keys = metadata_keys(meta)
                values = [self._metadata_values(k) for k in keys]
                # A filter on a flag the cache tracks reads only the flagged rows (MemoriStore lists its
                # index=False items so on each search whose ranked items do not fill the page).
                if meta.get(SEARCHABLE_KEY) is False:
                    candidates = self.unsearchable_rows().tolist()
                elif meta.get(CORE_KEY) is True:
                    candidates = self.core_rows().tolist()
                else:
                    candidates = self.live_rows().tolist()
                rows = np.fromiter(
                    (r for r in candidates if matches({k: v[r] for k, v in zip(keys, values)}, meta)), dtype=np.int64
                )
            for name, cond in times.items():
                rows = rows[time_mask(self._time_values(name, rows), cond)]
            if len(self._matching) >= 32:
                self._matching.clear()
            self._matching[key] = rows
        return rows

    def _time_values(self, name: str, rows: np.ndarray) -> np.ndarray:
        """Per row of ``rows``, the fact's ``created_at``, ``valid_from`` or ``valid_to`` in epoch seconds
        (``valid_to``: ``inf`` while valid; ``valid_from``: when its current period of validity began,
        ``created_at`` unless an update, a restatement or a restore set it). The column gives ``created_at``; only
        the rows with history are read one by one."""
        if name == "created_at":
            return self.c.created_ts[rows].astype(np.float64)
        out = (self.c.created_ts[rows].astype(np.float64) if name == "valid_from"
               else np.full(rows.shape, np.inf, dtype=np.float64))
        history = self.history_rows()
        at = np.flatnonzero(np.isin(rows, history))
        for i in at.tolist():
            fact = self.fact(int(rows[i]))
            value = None if fact is None else fact.valid_since if name == "valid_from" else fact.valid_to
            if value:
                out[i] = iso_to_ts(value)
        return out

    def core_rows(self) -> np.ndarray:
        """Live rows whose user metadata marks them core (``"core": true``), ascending (memoised and kept
        current by writes: :class:`_FlaggedRows`)."""
        return self._core.rows(self)

    def unsearchable_rows(self) -> np.ndarray:
        """Live rows whose user metadata keeps them out of search (``"searchable": false``,
        :data:`~memori_core.facts.SEARCHABLE_KEY`), ascending; recall never returns them (memoised and kept
        current by writes: :class:`_FlaggedRows`)."""
        return self._unsearchable.rows(self)

    def _find_flagged(self, key: str, test: Callable[[Any], bool]) -> set[int]:
        """Live rows whose user metadata ``test`` accepts, among those whose metadata JSON holds ``key``."""
        meta = self.c.meta_json
        over = self._overrides
        alive = self._alive
        found: set[int] = set()
        for r in meta.rows_containing(json.dumps(key)).tolist():
            if r < self._n and alive[r] and r not in over:
                raw = meta[r]
                if raw and test(json.loads(raw)):
                    found.add(r)
        found.update(r for r, fact in over.items() if alive[r] and test(fact.metadata))
        return found

    def _set_flags(self, row: int, metadata: Any) -> None:
        """Keep the flagged rows current when ``row`` is written with ``metadata`` (``None``: killed)."""
        self._core.set(row, metadata)
        self._unsearchable.set(row, metadata)

    def _metadata_values(self, key: str) -> list[Any]:
        """Per row, the user metadata value of ``key`` (``None`` when absent or dead); parsed once per key."""
        values = self._meta_values.get(key)
        if values is None:
            needle = json.dumps(key, ensure_ascii=False)
            quick = needle.isascii()  # then the key is spelled the same with or without ensure_ascii
            meta = self.c.meta_json
            over = self._overrides
            values = [None] * self._n
            for r in self.live_rows().tolist():
                fact = over.get(r)
                if fact is not None:
                    values[r] = fact.metadata.get(key)
                    continue
                raw = meta[r]
                if raw and (not quick or needle in raw):  # type: ignore[operator]
                    values[r] = json.loads(raw).get(key)  # type: ignore[arg-type]
            self._meta_values[key] = values
        return values

    def dead_rows(self) -> np.ndarray:
        """Row numbers of dead rows."""
        if self._dead_rows is None:
            self._dead_rows = np.flatnonzero(~self._alive[: self._n])
        return self._dead_rows

    def recent_rows(self, n: int) -> np.ndarray:
        """The ``n`` most recently created/seen live rows, of rows equally recent the later written (memoised until
        the next write)."""
        if self._recent is None or self._recent[0] != n:
            self._recent = (n, top_k(self.recency, n, later_first(written_order(self))))
        return self._recent[1]
