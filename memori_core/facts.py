"""Plain data types shared by the store, the engine and the adapters."""

from __future__ import annotations

import json
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import numpy as np

from .validate import iso_to_ts, parse_utc


SEARCHABLE_KEY = "searchable"
"""The user metadata key that keeps a fact out of search: with the value ``False`` the fact is stored, listed,
exported and read by id, but recall (and so every adapter that injects memory) never returns it, not even as a
core fact; nor does it join a recall's pool as a session neighbour. LangGraph's ``put(..., index=False)`` through
:class:`~memori_langchain.MemoriStore` sets it."""


def is_searchable(metadata: Any) -> bool:
    """Whether recall may return a fact with this user metadata: unless it holds ``"searchable": False`` (only
    ``False`` keeps it out: ``0``, ``None`` or ``"no"`` do not)."""
    return not (isinstance(metadata, dict) and metadata.get(SEARCHABLE_KEY) is False)


CORE_KEY = "core"
"""The user metadata key that marks a core fact (its value must be ``True``): recalled on every turn about the
user (:mod:`memori_core.ranking.core`)."""


def is_core(metadata: Any) -> bool:
    """Whether a fact's user metadata marks it core (``{"core": True}``; ``1`` or ``"yes"`` do not)."""
    return isinstance(metadata, dict) and metadata.get(CORE_KEY) is True


@dataclass(frozen=True)
class StoredFact:
    """One fact as the store keeps it."""

    id: str
    entity_id: str
    content: str
    created_at: str | None
    metadata: dict[str, Any] = field(default_factory=dict)
    """User metadata (JSON values)."""
    last_seen: str | None = None
    times_seen: int = 1
    session_id: str | None = None
    """Conversation/thread the fact was said in; facts of one session are ordered by ``seq``."""
    seq: int = 0
    """Order of addition within the entity (nanosecond clock at add time, plus position in the batch)."""
    updated_at: str | None = None
    """When :meth:`~memori_core.RecallEngine.update` last changed the fact (``None``: never)."""
    expires_at: str | None = None
    """When the fact stops being recalled (``None``: never)."""
    valid_from: str | None = None
    """When the fact's current text became true, when later than ``created_at`` (set by an update of its text,
    or by saying a superseded fact again; ``None``: since ``created_at``). ``recall(as_of=...)`` reads it."""
    valid_to: str | None = None
    """When the fact stopped being true (superseded or replaced by an update; ``None``: still valid). An
    invalid fact stays stored, as history: recall skips it unless asked ``as_of`` a time it was valid."""
    superseded_by: str | None = None
    """The id of the fact that replaced this one (``None``: not replaced)."""
    supersedes: tuple[str, ...] = ()
    """Ids of the facts this one replaced (``add(..., supersedes=[...])``)."""
    restored_at: str | None = None
    """When :meth:`~memori_core.RecallEngine.restore` last made the fact valid again (``None``: never). Its
    current period of validity began then (:attr:`valid_since`), but its text keeps the time it was stated
    (:attr:`stated_at`): a restore is not the user saying it again."""
    embedding: np.ndarray | None = field(default=None, repr=False, compare=False)

    def is_valid(self, at: float | None = None) -> bool:
        """Whether the fact is valid now (or at ``at``, epoch seconds); expiry is not considered."""
        if self.valid_to is None:
            return True
        return iso_to_ts(self.valid_to) > (time.time() if at is None else at)

    def is_expired(self, at: float | None = None) -> bool:
        """Whether the fact is past its ``expires_at`` now (or at ``at``, epoch seconds): recall skips it, while
        ``list``, ``get`` and ``export`` still show it (``memori list`` marks it ``[expired]``, MCP ``list``
        with ``"expired": true``). Validity is not considered (:meth:`is_valid`)."""
        if self.expires_at is None:
            return False
        return iso_to_ts(self.expires_at) <= (time.time() if at is None else at)

    @property
    def stated_at(self) -> str | None:
        """When the fact's current text was stated, or said again after it was superseded (:func:`stated_at`). A
        change told ahead was stated when it was told (``created_at``), not at its start (:attr:`starts_at`), as
        :attr:`RecalledFact.stated_at` reads it."""
        return stated_at(self.created_at, None if self.starts_at else self.valid_from)

    @property
    def starts_at(self) -> str | None:
        """The start of a change told ahead (``add(..., valid_from=...)``: its ``valid_from``, later than every time
        its text was said or edited), else ``None`` (:func:`told_ahead_start`)."""
        return told_ahead_start(self.created_at, self.valid_from, (self.last_seen, self.updated_at))

    @property
    def core(self) -> bool:
        """Whether the fact is core (its metadata holds ``"core": True``: ``add(..., core=True)``), read-only:
        ``update(..., core=...)`` changes it."""
        return is_core(self.metadata)

    @property
    def valid_since(self) -> str | None:
        """When the fact's current period of validity began: when its current text became true (its
        ``valid_from`` when later than ``created_at``: a change told ahead begins at its start), or
        :attr:`restored_at` when later. ``recall(as_of=...)`` sees the fact from then on."""
        return stated_at(stated_at(self.created_at, self.valid_from), self.restored_at)


@dataclass(frozen=True)
class RecalledFact:
    """A fact returned by recall, with every part of its score."""

    id: str
    entity_id: str
    content: str
    created_at: str | None
    cosine: float
    """Cosine similarity of the fact's embedding to the query's."""
    lexical: float
    """BM25 over the candidate pool, normalised to 0..1 (divided by the larger of the pool's maximum and
    ``lexical_floor`` x the summed idf of the matched query terms)."""
    rank_score: float
    """``w_cos * cosine + w_lex * lexical`` plus the neighbour-smoothing bonus (facts added with a session):
    the score facts are ordered and thresholded by. A core fact appended outside the pool has 0."""
    metadata: dict[str, Any] = field(default_factory=dict)
    valid_from: str | None = None
    """When the fact's current text became valid, when later than ``created_at``: an update of its text, a
    superseded fact said again (:attr:`StoredFact.valid_from`; ``None``: since ``created_at``). A restore leaves
    it as it was: the text keeps the time it was stated."""
    restored_at: str | None = None
    """When :meth:`~memori_core.RecallEngine.restore` last made the fact valid again (:attr:`StoredFact.restored_at`;
    ``None``: never): its current period of validity began then."""
    passed_by: str = ""
    """The rule that brought the fact into the answer, one of :data:`PASSED_BY` (docs/ranking.md, "Which rule kept a
    fact"): the relevance gate's rule that kept it, ``"judge"``, or ``"core"`` / ``"core touched"`` for a core fact
    appended after the chosen ones. ``""``: not chosen by recall (``nearest``, a rerank without the gate)."""
    valid_to: str | None = None
    """When the fact stopped being true (:attr:`StoredFact.valid_to`), for a fact recall returns though it is no
    longer valid: a question about the past (:func:`~memori_core.ranking.past.asks_about_the_past`). ``None``: valid
    now, and for every fact an ``as_of`` read returns. The ``<memori_context>`` block marks such a fact as past."""

    @property
    def starts_at(self) -> str | None:
        """The start of a change told ahead (:attr:`StoredFact.starts_at`: "User works at Siemens." told on December
        7, valid from January 4), else ``None``: the block shows it beside the time the fact was stated. Read from
        ``valid_from`` and the ``last_seen`` / ``updated_at`` recall puts in the metadata (without a ``last_seen``,
        a fact not read from a store: ``None``)."""
        meta = self.metadata if isinstance(self.metadata, Mapping) else {}
        if not isinstance(meta.get("last_seen"), str):
            return None
        said = [t if isinstance(t, str) else None for t in (meta.get("last_seen"), meta.get("updated_at"))]
        return told_ahead_start(self.created_at, self.valid_from, said)

    @property
    def stated_at(self) -> str | None:
        """When the fact's current text was stated, or said again after it was superseded (:func:`stated_at`):
        the time the ``<memori_context>`` block shows as "Stated at". A change told ahead was stated when it was
        told (``created_at``), not at its start (:attr:`starts_at`)."""
        return stated_at(self.created_at, None if self.starts_at else self.valid_from)

    @property
    def core(self) -> bool:
        """Whether the fact is core (:attr:`StoredFact.core`): one recall appends on every turn about the user."""
        return is_core(self.metadata)


PASSED_BY: tuple[str, ...] = (
    "cosine", "third person", "words", "score band", "care", "implied", "follow-up", "general cosine",
    "general words", "everything asked", "threshold", "no gate", "upcoming", "judge", "core", "core touched",
)
"""Every value of :attr:`RecalledFact.passed_by` but ``""``, a closed set: the gate's rules
(:data:`memori_core.ranking.gate.GATE_RULES`), then ``"judge"`` (the judge called the fact relevant), ``"core"``
(a core fact appended on a turn about the asker) and ``"core touched"`` (one appended because the turn's words, or a
fact recall chose, touch its concerns: a question about the world, a turn that tells, ``core_when="touched"``)."""


def stated_at(created_at: str | None, valid_from: str | None) -> str | None:
    """When a fact's current text was stated: the later of its ``created_at`` and ``valid_from`` (an update of its
    text, or a superseded fact said again, makes the current text valid later than the fact was first stored);
    ``None`` when it has neither. An unreadable time is passed over for the other one."""
    if not valid_from:
        return created_at
    start = _epoch(valid_from)
    if start is None:
        return created_at
    stored = _epoch(created_at) if created_at else None
    return valid_from if stored is None or start > stored else created_at


def told_ahead_start(created_at: str | None, valid_from: str | None, said: Iterable[str | None] = ()) -> str | None:
    """``valid_from`` when it is a start told ahead: later than ``created_at`` and than every time of ``said`` (when
    the text was said again or edited: an update's text, a superseded fact said again, is valid from then, which is
    no start told ahead); ``None`` otherwise, or when a time is unreadable."""
    start = _epoch(valid_from) if valid_from else None
    if start is None:
        return None
    times = [_epoch(t) for t in (created_at, *said) if t]
    return valid_from if all(t is not None and start > t for t in times) else None


def _epoch(value: Any) -> float | None:
    """Epoch seconds of a datetime or ISO 8601 text; ``None`` when unreadable."""
    try:
        return parse_utc(value if isinstance(value, datetime) else str(value)).timestamp()
    except ValueError:
        return None


VALIDITY_FIELDS = ("valid_from", "valid_to", "superseded_by", "supersedes", "restored_at")
"""The :class:`StoredFact` fields of a fact's validity and history links, in the order a store writes them: the
one list every store, the recall cache and the export read and write them by (unset ones are left out)."""


def validity_record(fact: StoredFact) -> dict[str, Any]:
    """The validity fields ``fact`` sets (:data:`VALIDITY_FIELDS`), as JSON values (``supersedes`` a list)."""
    return {name: list(value) if isinstance(value, tuple) else value
            for name in VALIDITY_FIELDS if (value := getattr(fact, name))}


def validity_json(fact: StoredFact) -> str | None:
    """A fact's validity and history links as one JSON text (``None`` when it has none): how stores and the
    recall cache keep :data:`VALIDITY_FIELDS` in one column."""
    return record_validity_json(validity_record(fact))


def record_validity_json(record: Mapping[str, Any]) -> str | None:
    """The :data:`VALIDITY_FIELDS` a stored record holds by name (among other keys) as :func:`validity_json`
    text; ``None`` when it sets none."""
    kept = {name: record[name] for name in VALIDITY_FIELDS if record.get(name)}
    return json.dumps(kept, sort_keys=True, ensure_ascii=False, separators=(",", ":")) if kept else None


def validity_fields(text: str | None) -> dict[str, Any]:
    """The :class:`StoredFact` fields of a :func:`validity_json` text, as keyword arguments (the
    :data:`VALIDITY_FIELDS` it sets; none for ``None`` or ``""``)."""
    if not text:
        return {}
    rec = json.loads(text)
    return {name: tuple(str(i) for i in value) if name == "supersedes" else str(value)
            for name in VALIDITY_FIELDS if (value := rec.get(name))}


def stored_fact(entity_id: str, id: str, content: str, created_at: str | None, metadata_json: str | None,
                last_seen: str | None, times_seen: int, session_id: str | None, seq: int, updated_at: str | None,
                expires_at: str | None, validity: str | None) -> StoredFact:
    """A :class:`StoredFact` from the fields a store keeps, in the dataclass's order: the user metadata as JSON text
    (``""``, ``"{}"`` or ``None`` for none) and the validity and history links as :func:`validity_json` text
    (``None`` or ``""``: valid, no links). Whatever holds stored rows (a store's row, its columns, the recall
    cache's columns) builds its facts with this one reading of the two texts."""
    return StoredFact(
        id, entity_id, content, created_at,
        json.loads(metadata_json) if metadata_json and metadata_json != "{}" else {},
        last_seen, times_seen, session_id, seq, updated_at, expires_at, **validity_fields(validity),
    )


def valid_to_of(text: str | None) -> str | None:
    """The ``valid_to`` of a :func:`validity_json` text (``None`` when valid)."""
    return validity_fields(text).get("valid_to") if text else None
