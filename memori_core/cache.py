"""In-process copy of each entity's facts: normalised matrix, contents, tokens."""

from __future__ import annotations

import logging
from collections import Counter, OrderedDict
from collections.abc import Callable, Sequence

import numpy as np

from .dense import l2_normalise
from .facts import StoredFact
from .store.chroma import iso_to_ts
from .text import get_tokenizer

logger = logging.getLogger(__name__)


class EntityCache:
    """One entity's facts in scoring form.

    Rows are appended into a matrix with spare capacity, so adding a fact to
    a large memory does not copy the matrix; deletes compact it.
    """

    def __init__(self, entity_id: str, revision: str | None = None) -> None:
        self.entity_id = entity_id
        self.revision = revision
        self.facts: list[StoredFact] = []
        self.pos: dict[str, int] = {}
        self.dim: int | None = None
        self._matrix = np.zeros((0, 0), dtype=np.float32)
        self._recency = np.zeros(0, dtype=np.float64)
        self._tokens: dict[str, list[tuple[str, ...]]] = {}
        self.skipped_dims: Counter[int] = Counter()
        self.warned_dims: set[int] = set()
        self.warned_skipped = False

    def __len__(self) -> int:
        return len(self.facts)

    @property
    def matrix(self) -> np.ndarray:
        """``(n, d)`` float32, L2-normalised rows."""
        return self._matrix[: len(self.facts)]

    @property
    def recency(self) -> np.ndarray:
        """Per row, the later of created / last seen (epoch seconds)."""
        return self._recency[: len(self.facts)]

    def tokens(self, tokenizer: str) -> list[tuple[str, ...]]:
        """Pre-tokenised documents for ``tokenizer``, computed once per tokenizer."""
        cached = self._tokens.get(tokenizer)
        if cached is None:
            tok = get_tokenizer(tokenizer)
            cached = [tuple(tok(f.content)) for f in self.facts]
            self._tokens[tokenizer] = cached
        return cached

    @staticmethod
    def _recency_of(fact: StoredFact) -> float:
        return max(iso_to_ts(fact.created_at), iso_to_ts(fact.last_seen))

    def _reserve(self, rows: int) -> None:
        needed = len(self.facts) + rows
        if needed <= self._matrix.shape[0] and self._matrix.shape[1] == self.dim:
            return
        capacity = max(needed, 2 * self._matrix.shape[0], 64)
        grown = np.zeros((capacity, self.dim or 0), dtype=np.float32)
        if self.facts:
            grown[: len(self.facts)] = self.matrix
        recency = np.zeros(capacity, dtype=np.float64)
        recency[: len(self.facts)] = self.recency
        self._matrix, self._recency = grown, recency

    def upsert(self, facts: Sequence[StoredFact], embeddings: Sequence[np.ndarray] | np.ndarray) -> None:
        """Add new rows or replace rows with the same id. Rows of a foreign dimension are counted and left out."""
        if len(facts) == 0:
            return
        if self.dim is None:
            dims = Counter(int(np.shape(e)[-1]) for e in embeddings)
            self.dim = dims.most_common(1)[0][0]
        keep = [i for i, e in enumerate(embeddings) if np.shape(e)[-1] == self.dim]
        for i in range(len(facts)):
            if np.shape(embeddings[i])[-1] != self.dim:
                self.skipped_dims[int(np.shape(embeddings[i])[-1])] += 1
        if not keep:
            return
        normed = l2_normalise(np.stack([np.asarray(embeddings[i], dtype=np.float32) for i in keep]))
        new_rows = [i for i in keep if facts[i].id not in self.pos]
        self._reserve(len(new_rows))
        for row_vec, i in zip(normed, keep):
            fact = facts[i]
            at = self.pos.get(fact.id)
            if at is None:
                at = len(self.facts)
                self.pos[fact.id] = at
                self.facts.append(fact)
                for name, toks in self._tokens.items():
                    toks.append(tuple(get_tokenizer(name)(fact.content)))
            else:
                self.facts[at] = fact
                for name, toks in self._tokens.items():
                    toks[at] = tuple(get_tokenizer(name)(fact.content))
            self._matrix[at] = row_vec
            self._recency[at] = self._recency_of(fact)

    def update_seen(self, facts: Sequence[StoredFact]) -> None:
        """Replace the metadata of rows already present (content and vector unchanged)."""
        for fact in facts:
            at = self.pos.get(fact.id)
            if at is not None:
                self.facts[at] = fact
                self._recency[at] = self._recency_of(fact)

    def remove(self, ids: Sequence[str]) -> None:
        """Drop rows by id and compact the arrays."""
        gone = {self.pos[i] for i in ids if i in self.pos}
        if not gone:
            return
        keep = np.array([r for r in range(len(self.facts)) if r not in gone], dtype=np.int64)
        self._matrix = np.ascontiguousarray(self.matrix[keep])
        self._recency = self.recency[keep].copy()
        self.facts = [self.facts[r] for r in keep]
        self._tokens = {name: [toks[r] for r in keep] for name, toks in self._tokens.items()}
        self.pos = {f.id: r for r, f in enumerate(self.facts)}


class CacheRegistry:
    """Least-recently-used map of entity -> :class:`EntityCache`, bounded in entities."""

    def __init__(self, max_entities: int) -> None:
        self.max_entities = max_entities
        self._items: OrderedDict[str, EntityCache] = OrderedDict()

    def get(self, entity_id: str) -> EntityCache | None:
        item = self._items.get(entity_id)
        if item is not None:
            self._items.move_to_end(entity_id)
        return item

    def put(self, cache: EntityCache) -> None:
        self._items[cache.entity_id] = cache
        self._items.move_to_end(cache.entity_id)
        while len(self._items) > self.max_entities:
            self._items.popitem(last=False)

    def drop(self, entity_id: str) -> None:
        self._items.pop(entity_id, None)

    def clear(self) -> None:
        self._items.clear()


def build_cache(entity_id: str, revision: str | None, load: Callable[[], tuple[list[StoredFact], list[np.ndarray]]]) -> EntityCache:
    """Load an entity's rows through ``load`` into a fresh cache."""
    facts, embeddings = load()
    cache = EntityCache(entity_id, revision)
    cache.upsert(facts, embeddings)
    return cache
