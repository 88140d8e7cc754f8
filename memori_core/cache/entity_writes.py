"""How an entity's cached rows follow the writes: a fact appended (into spare capacity) or replacing its old row,
a row killed, facts rewritten in place (folded into the string columns once they are many), the session links, the
indexes and the flagged rows kept current, and the dead rows compacted away once they are many."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import numpy as np

from ..facts import StoredFact, validity_json
from ..ranking.dense import l2_normalise
from ..text import analyzer
from ..validate import iso_to_ts
from .columns import metadata_json
from .compaction import rebuilt_parts
from .postings import AnalyzerKey, CSRIndex
from .selection import RowSelection

Tokens = tuple[AnalyzerKey, list[list[str]]]
"""The tokens of some facts' texts under one analyzer, one list per fact (made ahead of :meth:`EntityCache.upsert`)."""

# Dead rows are compacted away once they are this many and this share of all rows.
_COMPACT_MIN_DEAD = 256
_COMPACT_SHARE = 0.25
# Facts rewritten in place (update_seen) are folded into the string columns beyond this many.
_FOLD_MIN = 4096


class RowWrites(RowSelection):
    """The write methods of :class:`~memori_core.cache.EntityCache` (a mixin over its columns and indexes, which
    the cache's ``_adopt`` makes; it reads ``pos``, ``_row_terms`` and ``index`` of the cache, and after a compaction
    adopts the rebuilt parts)."""

    dim: int | None
    skipped_dims: Counter[int]
    key: AnalyzerKey
    n_dead: int
    _ix: CSRIndex
    _indexes: dict[AnalyzerKey, CSRIndex]
    _tokens: dict[AnalyzerKey, list[tuple[str, ...]]]
    _delta_docs: list[list[int]]
    _delta_terms: int
    _prev: np.ndarray
    _next: np.ndarray
    _session_codes: dict[str, int]
    _session_tail: list[int]
    _overrides_shared: bool

    def _wrote(self) -> None:
        self._recent = None
        self._matching = {}

    def _reserve(self, rows: int) -> None:
        """Room for ``rows`` more rows, in private writeable arrays (a snapshot's are read-only views)."""
        c = self.c
        n = self._n
        cap = c.capacity
        dim = self.dim or 0
        needed = n + rows
        if needed <= cap and c.matrix.shape[1] == dim and c.writeable():
            return
        capacity = max(needed, 2 * cap, 64) if needed > cap else cap
        c.regrow(n, capacity, dim)
        for name, fill, dt in (("_prev", -1, np.int32), ("_next", -1, np.int32), ("_alive", False, bool)):
            new = np.full(capacity, fill, dtype=dt)
            new[:n] = getattr(self, name)[:n]
            setattr(self, name, new)

    def _set_expiry(self, row: int, fact: StoredFact) -> None:
        # An invalid fact is not recalled from its valid_to on: for recall it expires then (``as_of`` reads
        # the same column), so hiding superseded facts costs recall nothing beyond the expiry check.
        ends = [iso_to_ts(v) for v in (fact.expires_at, fact.valid_to) if v]
        if ends:
            self.c.expires[row] = min(ends)
            self.n_expiring += 1
        else:
            self.c.expires[row] = np.inf

    def _set_times(self, row: int, fact: StoredFact) -> None:
        c = self.c
        created = iso_to_ts(fact.created_at)
        c.created_ts[row] = created
        seen = created if fact.last_seen == fact.created_at else iso_to_ts(fact.last_seen)
        c.recency[row] = max(created, seen)
        c.times_seen[row] = fact.times_seen
        self._set_expiry(row, fact)
        self._set_start(row, fact)

    def _kill(self, row: int) -> None:
        if not self._alive[row]:
            return
        self._ix.remove(row, self._row_terms(row))
        for key, ix in self._indexes.items():
            ix.remove(row, [ix.term_id(t) for t in self._tokens[key][row]])
        self._alive[row] = False
        self._set_flags(row, None)
        self._set_start(row, None)
        if row in self._overrides:
            del self._own_overrides()[row]
        self._wrote()
        self.c.matrix[row] = 0.0
        self.c.recency[row] = -np.inf
        self.n_dead += 1
        self._dead_rows = None

    def _append(self, fact: StoredFact, vec: np.ndarray, toks: list[str] | None = None) -> None:
        row = self._n
        c = self.c
        self._wrote()
        for name, value in (
            ("ids", fact.id), ("texts", fact.content), ("created", fact.created_at), ("last_seen", fact.last_seen),
            ("meta_json", metadata_json(fact.metadata)), ("updated", fact.updated_at), ("expiry", fact.expires_at),
            ("validity", validity_json(fact)),
        ):
            getattr(c, name).append(value)
        self.pos[fact.id] = row
        c.matrix[row] = vec
        c.seq[row] = fact.seq
        c.chars[row] = len(fact.content)
        self._set_times(row, fact)
        self._prev[row] = self._next[row] = -1
        if toks is None:
            toks = analyzer(*self.key)(fact.content)
        terms = [self._ix.term_id(t) for t in toks]
        self._delta_docs.append(terms)
        self._delta_terms += len(terms)
        self._ix.add(row, terms)
        for key, lists in self._tokens.items():
            doc = tuple(toks) if key == self.key else tuple(analyzer(*key)(fact.content))
            lists.append(doc)
            ix = self._indexes.get(key)
            if ix is not None:
                ix.add(row, [ix.term_id(t) for t in doc])
        for key, values in self._meta_values.items():
            values.append(fact.metadata.get(key))
        self._alive[row] = True
        self._n += 1
        self._set_flags(row, fact.metadata)
        if fact.session_id is None:
            c.session[row] = -1
            return
        # Session order is by seq alone (a replaced fact goes where its seq puts it),
        # so the incremental state is the one a reload from the store builds.
        code = self._session_codes.get(fact.session_id)
        if code is None:
            code = self._session_codes[fact.session_id] = len(self._session_tail)
            c.session_names.append(fact.session_id)
            self._session_tail.append(-1)
        c.session[row] = code
        self._link_in_session(code, fact.seq, row)

    def _link_in_session(self, code: int, seq: int, row: int) -> None:
        # Facts normally arrive in seq order (O(1)); an older one is walked back to its place.
        # Dead rows keep their seq and links, so the chain stays sorted.
        before, after = self._session_tail[code], -1
        while before >= 0 and self.c.seq[before] > seq:
            before, after = int(self._prev[before]), before
        self._prev[row], self._next[row] = before, after
        if before >= 0:
            self._next[before] = row
        if after >= 0:
            self._prev[after] = row
        else:
            self._session_tail[code] = row

    def upsert(
        self, facts: Sequence[StoredFact], embeddings: Sequence[np.ndarray] | np.ndarray, tokens: Tokens | None = None
    ) -> None:
        """Add facts; a fact whose id is present replaces it. Rows of a foreign dimension are counted and left out.

        ``tokens``: the facts' texts already tokenised (used when made with this cache's analyzer).
        """
        if len(facts) == 0:
            return
        if self.dim is None:
            self.dim = Counter(int(np.shape(e)[-1]) for e in embeddings).most_common(1)[0][0]
        keep = []
        for i, e in enumerate(embeddings):
            if np.shape(e)[-1] == self.dim:
                keep.append(i)
            else:
                self.skipped_dims[int(np.shape(e)[-1])] += 1
        if not keep:
            return
        normed = l2_normalise(np.stack([np.asarray(embeddings[i], dtype=np.float32) for i in keep]))
        self._reserve(len(keep))
        made = tokens[1] if tokens is not None and tuple(tokens[0]) == self.key else None
        for vec, i in zip(normed, keep):
            fact = facts[i]
            old = self.pos.get(fact.id)
            if old is not None:
                self._kill(old)
            self._append(fact, vec, made[i] if made is not None else None)
        self.maybe_compact()

    def update_seen(self, facts: Sequence[StoredFact]) -> None:
        """Replace the metadata of rows already present (content and vector unchanged)."""
        changed = False
        for fact in facts:
            at = self.pos.get(fact.id)
            if at is not None and self._alive[at]:
                if not changed:
                    self._reserve(0)
                    changed = True
                self._own_overrides()[at] = fact
                self._set_times(at, fact)
                for key, values in self._meta_values.items():
                    values[at] = fact.metadata.get(key)
                self._set_flags(at, fact.metadata)
        self._wrote()
        if len(self._overrides) > max(_FOLD_MIN, self._n // 8):
            self._fold()

    def _fold(self) -> None:
        """Write the facts rewritten in place into new string columns (the old columns stay as they were)."""
        self.c.patch_strings(
            self._n, self._overrides, ("created", "last_seen", "meta_json", "updated", "expiry", "validity")
        )
        self._overrides = {}
        self._overrides_shared = False

    def remove(self, ids: Sequence[str]) -> None:
        """Mark rows dead by fact id."""
        for fid in ids:
            row = self.pos.pop(fid, None)
            if row is not None:
                self._reserve(0)
                self._kill(row)
        self.maybe_compact()

    def maybe_compact(self) -> None:
        """Rebuild without dead rows once they are many (amortised: never on every write)."""
        if self.n_dead < _COMPACT_MIN_DEAD or self.n_dead < _COMPACT_SHARE * self._n:
            return
        tokens = {key: [lists[r] for r in self.live_rows().tolist()] for key, lists in self._tokens.items()}
        indexed = list(self._indexes)
        self._adopt(*rebuilt_parts(self, self.live_rows()))  # warnings and revision stay
        self._tokens = tokens
        for key in indexed:
            self.index(key)
