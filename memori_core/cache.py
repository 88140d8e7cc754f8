"""In-process copy of each entity's facts: normalised matrix, tokens, inverted index, sessions."""

from __future__ import annotations

import logging
import threading
from collections import Counter, OrderedDict
from collections.abc import Sequence

import numpy as np

from .facts import StoredFact
from .filters import Where, matches, where_key
from .inverted import InvertedIndex
from .ranking.dense import l2_normalise, top_k
from .stemming import analyzer
from .validate import iso_to_ts

logger = logging.getLogger(__name__)

AnalyzerKey = tuple[str, "str | None"]

# Dead rows are compacted away once they are this many and this share of all rows.
_COMPACT_MIN_DEAD = 256
_COMPACT_SHARE = 0.25


class EntityCache:
    """One entity's facts in scoring form.

    Rows are append-only: adding a fact appends a row (into a matrix with
    spare capacity), replacing or deleting one marks its old row dead. Every
    structure (matrix, token lists, inverted indexes, session order) is
    therefore updated incrementally; dead rows are compacted away in one
    rebuild once they make up a quarter of the rows.
    """

    def __init__(self, entity_id: str, revision: str | None = None) -> None:
        self.entity_id = entity_id
        self.revision = revision
        self.dim: int | None = None
        self.facts: list[StoredFact | None] = []  # None marks a dead row
        self.pos: dict[str, int] = {}
        self._matrix = np.zeros((0, 0), dtype=np.float32)
        self._recency = np.zeros(0, dtype=np.float64)
        self._session = np.zeros(0, dtype=np.int32)
        self.n_dead = 0
        self._dead_rows: np.ndarray | None = np.zeros(0, dtype=np.int64)
        self._recent: tuple[int, np.ndarray] | None = None
        self._matching: dict[str, np.ndarray] = {}  # where filter -> its live rows (until the next write)
        self._tokens: dict[AnalyzerKey, list[tuple[str, ...]]] = {}
        self._indexes: dict[AnalyzerKey, InvertedIndex] = {}
        self._session_codes: dict[str, int] = {}
        self._session_tail: list[int] = []  # per session code: its last row by seq
        # Rows of a session form a doubly linked list in seq order; dead rows stay
        # linked (and are stepped over) until compaction.
        self._prev = np.zeros(0, dtype=np.int32)
        self._next = np.zeros(0, dtype=np.int32)
        self._alive = np.zeros(0, dtype=bool)
        self._seq = np.zeros(0, dtype=np.int64)  # row -> seq (kept for dead rows too)
        self._chars = np.zeros(0, dtype=np.int32)  # row -> length of the text in characters
        self._expires = np.zeros(0, dtype=np.float64)  # row -> expiry (epoch seconds; inf: never)
        self.n_expiring = 0  # rows ever given an expiry (0: recall skips the expiry check)
        self.skipped_dims: Counter[int] = Counter()
        self.warned_dims: set[int] = set()
        self.warned_skipped = False

    # -- views --------------------------------------------------------------

    def __len__(self) -> int:
        """Live facts."""
        return len(self.facts) - self.n_dead

    @property
    def n_rows(self) -> int:
        """Rows, dead ones included."""
        return len(self.facts)

    @property
    def matrix(self) -> np.ndarray:
        """``(n_rows, d)`` float32, L2-normalised rows (dead rows zero)."""
        return self._matrix[: self.n_rows]

    @property
    def recency(self) -> np.ndarray:
        """Per row, the later of created / last seen (epoch seconds); ``-inf`` for dead rows."""
        return self._recency[: self.n_rows]

    @property
    def sessions(self) -> np.ndarray:
        """Per row, the session code (``-1``: no session)."""
        return self._session[: self.n_rows]

    @property
    def lengths(self) -> np.ndarray:
        """Per row, the length of the fact's text in characters."""
        return self._chars[: self.n_rows]

    @property
    def has_sessions(self) -> bool:
        return bool(self._session_codes)

    def expired_rows(self, now: float) -> np.ndarray:
        """Live rows whose expiry is at or before ``now`` (epoch seconds)."""
        if not self.n_expiring:
            return np.zeros(0, dtype=np.int64)
        return np.flatnonzero((self._expires[: self.n_rows] <= now) & self._alive[: self.n_rows])

    def matching_rows(self, where: Where) -> np.ndarray:
        """Live rows whose user metadata satisfies ``where`` (memoised until the next write)."""
        key = where_key(where)
        rows = self._matching.get(key)
        if rows is None:
            rows = np.fromiter(
                (r for r, f in enumerate(self.facts) if f is not None and matches(f.metadata, where)), dtype=np.int64
            )
            if len(self._matching) >= 32:
                self._matching.clear()
            self._matching[key] = rows
        return rows

    def dead_rows(self) -> np.ndarray:
        """Row numbers of dead rows."""
        if self._dead_rows is None:
            self._dead_rows = np.flatnonzero(~self._alive[: self.n_rows])
        return self._dead_rows

    def recent_rows(self, n: int) -> np.ndarray:
        """The ``n`` most recently created/seen live rows (memoised until the next write)."""
        if self._recent is None or self._recent[0] != n:
            self._recent = (n, top_k(self.recency, n))
        return self._recent[1]

    def tokens(self, key: AnalyzerKey) -> list[tuple[str, ...]]:
        """Analysed documents (one tuple per row) for ``(tokenizer, stemmer)``, computed once."""
        toks = self._tokens.get(key)
        if toks is None:
            run = analyzer(*key)
            toks = [tuple(run(f.content)) if f is not None else () for f in self.facts]
            self._tokens[key] = toks
        return toks

    def index(self, key: AnalyzerKey) -> InvertedIndex:
        """The inverted index over the whole memory for ``(tokenizer, stemmer)``, built once, then kept current."""
        ix = self._indexes.get(key)
        if ix is None:
            ix = InvertedIndex()
            for row, toks in enumerate(self.tokens(key)):
                ix.add(row, toks)
                if self.facts[row] is None:
                    ix.remove(row, toks)
            self._indexes[key] = ix
        return ix

    def neighbours(self, row: int) -> tuple[int, int]:
        """The live rows just before and after ``row`` in its session (``-1`` where there is none)."""
        before, after = self.neighbour_rows(np.array([row], dtype=np.int64))
        return int(before[0]), int(after[0])

    def neighbour_rows(self, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """For each row, the live rows just before and after it in its session (``-1``: none)."""
        return self._step_live(self._prev, rows), self._step_live(self._next, rows)

    def _step_live(self, link: np.ndarray, rows: np.ndarray) -> np.ndarray:
        out = link[rows].astype(np.int64)
        dead = (out >= 0) & ~self._alive[np.maximum(out, 0)]
        while dead.any():  # step over deleted rows (runs of them are short: compaction removes them)
            out[dead] = link[out[dead]]
            dead = (out >= 0) & ~self._alive[np.maximum(out, 0)]
        return out

    def memory_report(self) -> dict[str, int]:
        """Bytes held by the matrix, the inverted indexes and the neighbour (session) structures."""
        n = self.n_rows
        codes = sum(len(k.encode("utf-8")) + 49 + 16 for k in self._session_codes) + 36 * len(self._session_tail)
        per_row = (self.sessions, self._seq[:n], self._chars[:n], self._prev[:n], self._next[:n], self._alive[:n])
        return {
            "matrix": int(self.matrix.nbytes),
            "inverted_index": sum(ix.nbytes() for ix in self._indexes.values()),
            "neighbours": int(sum(a.nbytes for a in per_row) + codes),
        }

    # -- writes -------------------------------------------------------------

    @staticmethod
    def _recency_of(fact: StoredFact) -> float:
        return max(iso_to_ts(fact.created_at), iso_to_ts(fact.last_seen))

    def _reserve(self, rows: int) -> None:
        needed = self.n_rows + rows
        if needed <= self._matrix.shape[0] and self._matrix.shape[1] == self.dim:
            return
        capacity = max(needed, 2 * self._matrix.shape[0], 64)
        n = self.n_rows
        grown = np.zeros((capacity, self.dim or 0), dtype=np.float32)
        recency = np.full(capacity, -np.inf, dtype=np.float64)
        session = np.full(capacity, -1, dtype=np.int32)
        seqs = np.zeros(capacity, dtype=np.int64)
        chars = np.zeros(capacity, dtype=np.int32)
        expires = np.full(capacity, np.inf, dtype=np.float64)
        prev = np.full(capacity, -1, dtype=np.int32)
        nxt = np.full(capacity, -1, dtype=np.int32)
        alive = np.zeros(capacity, dtype=bool)
        if n:
            grown[:n] = self._matrix[:n]
            recency[:n] = self._recency[:n]
            session[:n] = self._session[:n]
            seqs[:n] = self._seq[:n]
            chars[:n] = self._chars[:n]
            expires[:n] = self._expires[:n]
            prev[:n] = self._prev[:n]
            nxt[:n] = self._next[:n]
            alive[:n] = self._alive[:n]
        self._matrix, self._recency, self._session, self._seq, self._chars = grown, recency, session, seqs, chars
        self._expires = expires
        self._prev, self._next, self._alive = prev, nxt, alive

    def _set_expiry(self, row: int, fact: StoredFact) -> None:
        if fact.expires_at:
            self._expires[row] = iso_to_ts(fact.expires_at)
            self.n_expiring += 1
        else:
            self._expires[row] = np.inf

    def _kill(self, row: int) -> None:
        fact = self.facts[row]
        if fact is None:
            return
        for key, ix in self._indexes.items():
            ix.remove(row, self._tokens[key][row])
        self.facts[row] = None
        self._alive[row] = False
        self._recent = None
        self._matching = {}
        self._matrix[row] = 0.0
        self._recency[row] = -np.inf
        self.n_dead += 1
        self._dead_rows = None

    def _append(self, fact: StoredFact, vec: np.ndarray) -> None:
        row = self.n_rows
        self._recent = None
        self._matching = {}
        self.facts.append(fact)
        self.pos[fact.id] = row
        self._matrix[row] = vec
        self._recency[row] = self._recency_of(fact)
        self._seq[row] = fact.seq
        self._chars[row] = len(fact.content)
        self._set_expiry(row, fact)
        self._prev[row] = self._next[row] = -1
        for key, toks in self._tokens.items():
            doc = tuple(analyzer(*key)(fact.content))
            toks.append(doc)
            ix = self._indexes.get(key)
            if ix is not None:
                ix.add(row, doc)
        self._alive[row] = True
        if fact.session_id is None:
            self._session[row] = -1
            return
        # Session order is by seq alone (a replaced fact goes where its seq puts it),
        # so the incremental state is the one a reload from the store builds.
        code = self._session_codes.get(fact.session_id)
        if code is None:
            code = self._session_codes[fact.session_id] = len(self._session_tail)
            self._session_tail.append(-1)
        self._session[row] = code
        self._link_in_session(code, fact.seq, row)

    def _link_in_session(self, code: int, seq: int, row: int) -> None:
        # Facts normally arrive in seq order (O(1)); an older one is walked back to its place.
        # Dead rows keep their seq and links, so the chain stays sorted.
        before, after = self._session_tail[code], -1
        while before >= 0 and self._seq[before] > seq:
            before, after = int(self._prev[before]), before
        self._prev[row], self._next[row] = before, after
        if before >= 0:
            self._next[before] = row
        if after >= 0:
            self._prev[after] = row
        else:
            self._session_tail[code] = row

    def upsert(self, facts: Sequence[StoredFact], embeddings: Sequence[np.ndarray] | np.ndarray) -> None:
        """Add facts; a fact whose id is present replaces it. Rows of a foreign dimension are counted and left out."""
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
        for vec, i in zip(normed, keep):
            fact = facts[i]
            old = self.pos.get(fact.id)
            if old is not None:
                self._kill(old)
            self._append(fact, vec)
        self.maybe_compact()

    def update_seen(self, facts: Sequence[StoredFact]) -> None:
        """Replace the metadata of rows already present (content and vector unchanged)."""
        for fact in facts:
            at = self.pos.get(fact.id)
            if at is not None and self.facts[at] is not None:
                self.facts[at] = fact
                self._recency[at] = self._recency_of(fact)
                self._set_expiry(at, fact)
                self._recent = None
        self._matching = {}

    def remove(self, ids: Sequence[str]) -> None:
        """Mark rows dead by fact id."""
        for fid in ids:
            row = self.pos.pop(fid, None)
            if row is not None:
                self._kill(row)
        self.maybe_compact()

    def maybe_compact(self) -> None:
        """Rebuild without dead rows once they are many (amortised: never on every write)."""
        if self.n_dead < _COMPACT_MIN_DEAD or self.n_dead < _COMPACT_SHARE * self.n_rows:
            return
        alive = [r for r, f in enumerate(self.facts) if f is not None]
        facts = [self.facts[r] for r in alive]
        vectors = self.matrix[alive].copy()
        keys = list(self._tokens)
        fresh = EntityCache(self.entity_id, self.revision)
        fresh.dim = self.dim
        # Same row order as now (upsert_sorted would reorder rows and misalign the token lists below).
        fresh.upsert(facts, vectors)  # type: ignore[arg-type]
        for key in keys:
            fresh._tokens[key] = [self._tokens[key][r] for r in alive]
        # Take over the rebuilt state; this cache's warning bookkeeping stays.
        warnings = {k: self.__dict__[k] for k in ("skipped_dims", "warned_dims", "warned_skipped")}
        self.__dict__.update(fresh.__dict__, **warnings)
        for key in keys:
            self.index(key)

    def upsert_sorted(self, facts: Sequence[StoredFact], embeddings: Sequence[np.ndarray] | np.ndarray) -> None:
        """Load rows, placing session facts in ``seq`` order (used when loading from the store)."""
        order = sorted(range(len(facts)), key=lambda i: (facts[i].session_id is None, facts[i].seq))
        self.upsert([facts[i] for i in order], [embeddings[i] for i in order])


class CacheRegistry:
    """Least-recently-used map of entity -> :class:`EntityCache`, bounded in entities; thread-safe."""

    def __init__(self, max_entities: int) -> None:
        self.max_entities = max_entities
        self._items: OrderedDict[str, EntityCache] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, entity_id: str) -> EntityCache | None:
        with self._lock:
            item = self._items.get(entity_id)
            if item is not None:
                self._items.move_to_end(entity_id)
            return item

    def put(self, cache: EntityCache) -> None:
        with self._lock:
            self._items[cache.entity_id] = cache
            self._items.move_to_end(cache.entity_id)
            while len(self._items) > self.max_entities:
                self._items.popitem(last=False)

    def drop(self, entity_id: str) -> None:
        with self._lock:
            self._items.pop(entity_id, None)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()
