"""Importing exported records (:mod:`memori_core.records`) as an entity's facts: ``import_``, upserted by id,
with the records' vectors when they fit the store, else embedded anew."""

from __future__ import annotations

import time
from collections.abc import Sequence
from datetime import datetime, timezone
from typing import Any

import numpy as np

from ..facts import StoredFact
from ..lanes import ERASURES
from ..records import from_record, repeat_difference, repeat_problem
from ..validate import check_entity_id
from .closing import when_open
from .embedding import Embedding
from .fact_ids import derived_fact_id
from .progress import Progress, _safe_progress
from .storing import Storing, _bounded
from .text_owners import owners_of


class ImportPath(Embedding, Storing):
    """The import method of :class:`~memori_core.engine.RecallEngine` (a mixin: the state is the engine's)."""

    @when_open
    @_bounded
    def import_(
        self, entity_id: str, records: Sequence[dict[str, Any]], *, reembed: bool = False,
        progress: Progress | None = None,
    ) -> list[str]:
        """Store exported records as ``entity_id``'s facts (upserted by id); returns their ids.

        Vectors in the records are used when every record has one, all of one
        dimension, and ``reembed`` is False: that dimension must be the store's
        (in an empty store, this engine's embedder's, learnt by embedding one
        text), else ``ValueError``; otherwise every text is embedded with this
        engine's embedder (e.g. to move to another embedder). A record that repeats an earlier one exactly
        (same id, text and every other field; without an ``id``, the id is derived from the normalised text) is
        imported once, so the ids returned are one per fact stored; two records with the same id that differ
        in any field are refused (``ValueError`` naming both and the fields), as ``add(ids=...)`` refuses
        repeated ids: which one was meant cannot be told. A record whose validity is empty or contradictory
        (``valid_to`` before its ``created_at`` or ``valid_from``, ``valid_from`` before ``created_at``,
        ``superseded_by`` without ``valid_to``; a record without ``created_at`` is stated now) raises
        ``ValueError`` naming it and the field (:func:`~memori_core.records.from_record`), but for the record an
        update of a replaced fact wrote before :meth:`update` refused it (its new text valid from after it ended,
        never recalled): that one is imported as recall treated it, valid at no time, with a
        :class:`~memori_core.records.RepairedRecordWarning` naming it, so an older export still imports.
        Ids, timestamps, sightings, sessions and their order are
        kept, so recall over the imported facts is the recall of the export.
        Everything is validated before anything is written; a failure part-way
        raises :class:`~memori_core.PartialWriteError` like :meth:`add`, and a
        :meth:`forget` of the entity after the call began, before it wrote,
        :class:`~memori_core.lanes.ForgottenError` (nothing written).
        ``progress`` is reported as in :meth:`add`.
        """
        entity_id = check_entity_id(entity_id)
        since = ERASURES.since(entity_id)  # a forget from now on makes this import write nothing
        report = _safe_progress(progress)
        if isinstance(records, (str, bytes, dict)) or not isinstance(records, Sequence):
            raise TypeError(f"records must be a list of dicts, got {type(records).__name__}")
        now = datetime.now(timezone.utc).isoformat()
        seq0 = time.time_ns()
        batch: dict[str, tuple[StoredFact, np.ndarray | None]] = {}
        first: dict[str, int] = {}
        default_ids = self._default_ids(entity_id, records)
        for i, record in enumerate(records):
            fact, vec = from_record(entity_id, record, i, default_id=default_ids[i], default_seq=seq0 + i, now=now)
            if fact.id in first:
                j = first[fact.id]
                differs = repeat_difference((*batch[fact.id], records[j]), (fact, vec, record))
                if not differs:
                    continue  # the same record again: imported once
                problem = repeat_problem(f"records[{j}]", batch[fact.id][0], records[j], record, differs)
                raise ValueError(f"records[{i}] has {problem}")
            first[fact.id] = i
            batch[fact.id] = (fact, vec)
        if not batch:
            return []
        facts = [f for f, _ in batch.values()]
        given = [v for _, v in batch.values()]
        dims = {v.shape[0] for v in given if v is not None}
        usable = not reembed and all(v is not None for v in given) and len(dims) == 1
        if usable:
            self._check_import_dimension(dims.pop(), facts[0].content)
        if usable:
            vectors = np.stack(given).astype(np.float32)  # type: ignore[arg-type]
        else:
            vec_of = self._embed_new(facts, report)
            vectors = np.stack([vec_of[f.id] for f in facts])
        with self._coord.writing(entity_id, since=since, what="import") as done:
            done.begin()
            self._upsert(entity_id, facts, vectors, report)
            done.upsert(facts, vectors)  # kept as the whole copy when it is the entity's first write...
            done.drop()  # ...else a bulk write: the next recall loads it whole
        return list(batch)

    def _default_ids(self, entity_id: str, records: Sequence[Any]) -> list[str]:
        """The id each record without one is imported under: the id its text derives, or the fact an update gave
        that text (:func:`.text_owners.owners_of`), which the record then replaces as a record of its derived id
        would (``""`` for a record with an id, or without a text: :func:`~memori_core.records.from_record` says
        what is wrong)."""
        texts = [r.get("text") if isinstance(r, dict) and not r.get("id") else None for r in records]
        derived = [derived_fact_id(t) if isinstance(t, str) and t.strip() else "" for t in texts]
        asked = [d for d in dict.fromkeys(derived) if d]
        if not asked:
            return derived
        stored = self.store.present(entity_id, asked)
        owners = owners_of(self.store, entity_id, [d for d in asked if d not in stored])
        return [owners[d].id if d in owners else d for d in derived]
