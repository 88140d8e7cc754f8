"""Export records: one JSON object per fact, the format of ``engine.export`` / ``engine.import_`` and JSON Lines files.

A record holds everything recall depends on, so importing an export reproduces
the same recall: ``id``, ``text``, ``created_at``, ``last_seen``,
``times_seen``, ``session_id``, ``seq`` (order within the entity, which orders
a session's facts), ``metadata``, ``updated_at``, ``expires_at``, the fact's
validity and history links ``valid_from``, ``valid_to``, ``superseded_by``,
``supersedes`` and ``restored_at`` (``null``, ``null``, ``null``, ``[]``,
``null`` for a valid fact with no history: see
:meth:`~memori_core.RecallEngine.history`; older records without them import
as valid) and, optionally,
``vector`` (the stored embedding). Records carry no entity: they
are imported into the entity the caller names.

:func:`from_record` checks one record before anything is written: every field's type and format, and its period
of validity (``valid_from`` not before ``created_at``, ``valid_to`` not before the period began, no
``superseded_by`` without a ``valid_to``; a change told ahead and called off before its start, ended before its
``valid_from``, is kept); the one inconsistent record earlier versions of the engine wrote (an
update of a replaced fact) is repaired, with a :class:`RepairedRecordWarning` naming it. Links to facts neither the records nor the store hold are kept:
``delete`` of one side of a supersede leaves them.
"""

from __future__ import annotations

import dataclasses
import math
import warnings
from collections.abc import Mapping
from typing import Any

import numpy as np

from .facts import StoredFact
from .validate import (
    FUTURE_SKEW_SECONDS,
    check_created_at,
    check_fact_length,
    check_metadata,
    check_session_id,
    check_text,
    iso_to_ts,
    to_iso_utc,
)

RECORD_FIELDS = (
    "id", "text", "created_at", "last_seen", "times_seen", "session_id", "seq",
    "metadata", "updated_at", "expires_at", "valid_from", "valid_to", "superseded_by", "supersedes", "restored_at",
    "vector",
)


def to_record(fact: StoredFact, vector: np.ndarray | None = None) -> dict[str, Any]:
    """``fact`` as a JSON-serialisable record (with ``vector`` when given)."""
    record: dict[str, Any] = {
        "id": fact.id,
        "text": fact.content,
        "created_at": fact.created_at,
        "last_seen": fact.last_seen,
        "times_seen": fact.times_seen,
        "session_id": fact.session_id,
        "seq": fact.seq,
        "metadata": dict(fact.metadata),
        "updated_at": fact.updated_at,
        "expires_at": fact.expires_at,
        "valid_from": fact.valid_from,
        "valid_to": fact.valid_to,
        "superseded_by": fact.superseded_by,
        "supersedes": list(fact.supersedes),
        "restored_at": fact.restored_at,
    }
    if vector is not None:
        record["vector"] = [float(x) for x in np.asarray(vector, dtype=np.float32)]
    return record


def _int(record: Mapping[str, Any], key: str, default: int, i: int, minimum: int) -> int:
    value = record.get(key, default)
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise ValueError(f"records[{i}][{key!r}] must be an int >= {minimum}, got {value!r}")
    return value


def from_record(entity_id: str, record: Any, i: int, *, default_id: str, default_seq: int, now: str
                ) -> tuple[StoredFact, np.ndarray | None]:
    """Validate record ``i`` and turn it into a fact of ``entity_id`` (and its vector, if it carries one)."""
    if not isinstance(record, Mapping):
        raise TypeError(f"records[{i}] must be a dict, got {type(record).__name__}")
    unknown = set(record) - set(RECORD_FIELDS)
    if unknown:
        raise ValueError(f"records[{i}] has unknown field(s) {sorted(unknown)}; known: {', '.join(RECORD_FIELDS)}")
    text = record.get("text")
    if not isinstance(text, str) or not text.strip():
        raise ValueError(f"records[{i}]['text'] must be a non-empty str, got {text!r}")
    fid = record.get("id") or default_id
    if not isinstance(fid, str) or not fid.strip():
        raise ValueError(f"records[{i}]['id'] must be a non-empty str, got {fid!r}")
    created = check_created_at(record.get("created_at"), f"records[{i}]['created_at']") or now
    vector = record.get("vector")
    vec: np.ndarray | None = None
    if vector is not None:
        vec = np.asarray(vector, dtype=np.float32)
        if vec.ndim != 1 or vec.size == 0 or not np.isfinite(vec).all() or not math.isfinite(float(vec @ vec)):
            raise ValueError(f"records[{i}]['vector'] must be a non-empty list of finite numbers")
    fact = StoredFact(
        id=check_text(fid, f"records[{i}]['id']"),
        entity_id=entity_id,
        content=check_fact_length(check_text(text.strip(), f"records[{i}]['text']"), f"records[{i}]['text']"),
        created_at=created,
        metadata=check_metadata(record.get("metadata"), i, restoring=True),
        last_seen=to_iso_utc(record.get("last_seen"), f"records[{i}]['last_seen']") or created,
        times_seen=_int(record, "times_seen", 1, i, 1),
        session_id=check_session_id(record.get("session_id"), i),
        seq=_int(record, "seq", default_seq, i, 0),
        updated_at=to_iso_utc(record.get("updated_at"), f"records[{i}]['updated_at']"),
        expires_at=to_iso_utc(record.get("expires_at"), f"records[{i}]['expires_at']"),
        valid_from=to_iso_utc(record.get("valid_from"), f"records[{i}]['valid_from']"),
        valid_to=to_iso_utc(record.get("valid_to"), f"records[{i}]['valid_to']"),
        superseded_by=_opt_id(record, "superseded_by", i),
        supersedes=_id_list(record, i),
        restored_at=to_iso_utc(record.get("restored_at"), f"records[{i}]['restored_at']"),
    )
    if fact.superseded_by == fact.id or fact.id in fact.supersedes:
        raise ValueError(f"records[{i}] (id {fact.id!r}) supersedes itself: a fact cannot replace itself")
    fact = _repaired(fact, i)
    _check_period(fact, i, stated=record.get("created_at") is not None)
    return fact, vec


class RepairedRecordWarning(UserWarning):
    """:func:`from_record` imported a record that an earlier version of the engine wrote inconsistent, repaired as
    recall had treated it; the message names the record and what was changed."""


def _repaired(fact: StoredFact, i: int) -> StoredFact:
    """Record ``i`` as recall treated it, when it is what an ``update`` of a replaced fact wrote before ``update``
    refused that (:class:`~memori_core.engine.ReplacedFactError`): the new text stamped valid from the update
    (``valid_from``, the same instant as ``updated_at``) but still ended when the fact was replaced (``valid_to``,
    earlier), so it was never recalled. It is kept valid at no time (``valid_to`` moved to its ``valid_from``),
    with a :class:`RepairedRecordWarning`; the text it replaced is the record's version row ``<id>@v<n>``. Any
    other record is returned as it is (and a period that ends before it begins is refused)."""
    if (fact.superseded_by is None or fact.valid_to is None or fact.valid_from is None
            or fact.valid_from != fact.updated_at or iso_to_ts(fact.valid_to) >= iso_to_ts(fact.valid_from)):
        return fact
    warnings.warn(
        f"records[{i}] (fact {fact.id!r}) is the text an update gave a fact already replaced by "
        f"{fact.superseded_by!r}, which earlier versions stored valid from {fact.valid_from} but ended at "
        f"{fact.valid_to}, so it was never recalled: imported valid at no time (valid_to set to its valid_from), "
        "as recall treated it", RepairedRecordWarning, stacklevel=4)
    return dataclasses.replace(fact, valid_to=fact.valid_from)


def _check_period(fact: StoredFact, i: int, *, stated: bool) -> None:
    """Refuse record ``i`` when its period of validity is empty or contradicts itself, as ``add`` refuses the like
    (each error names the record and the field): ``valid_from`` before ``created_at``, ``valid_to`` before the
    period began, ``superseded_by`` on a fact still valid. ``stated``: the record gave its ``created_at`` (else it
    is the import's time, which a period that ended earlier is before). A ``valid_to`` equal to the start is
    kept (a fact replaced by one stated at the same time), and so is an ``expires_at`` at or before
    ``created_at``, which ``expire`` sets on a fact dated ahead, and earlier versions' ``update`` set. So is a
    ``valid_to`` at most :data:`~memori_core.validate.FUTURE_SKEW_SECONDS` before a stated ``created_at`` the period
    began at: a fact dated ahead of the writer's clock (as far as ``add`` allows) and replaced or updated before
    that time came ends when it was replaced, so that recall stops showing it then; it was valid at no time."""
    created = fact.created_at if stated else f"{fact.created_at}: none given, so the time of the import"
    of = f"of fact {fact.id!r}"
    if fact.valid_from is not None and iso_to_ts(fact.valid_from) < iso_to_ts(fact.created_at):
        raise ValueError(f"records[{i}]['valid_from'] ({fact.valid_from}) {of} is before its created_at "
                         f"({created}): a text cannot become valid before the fact was stated")
    if fact.valid_to is not None and iso_to_ts(fact.valid_to) < iso_to_ts(fact.valid_from or fact.created_at) \
            and not (stated and _ended_before_its_time(fact)) and not _called_off(fact):
        start = f"valid_from ({fact.valid_from})" if fact.valid_from else f"created_at ({created})"
        raise ValueError(f"records[{i}]['valid_to'] ({fact.valid_to}) {of} is before its {start}: the fact would "
                         "be valid at no time; give the time it stopped being valid, after it began")
    if fact.superseded_by is not None and fact.valid_to is None:
        raise ValueError(f"records[{i}]['superseded_by'] {of} names {fact.superseded_by!r}, but the record has no "
                         "valid_to: a replaced fact stopped being valid when it was replaced, and this one would be "
                         "recalled beside the fact that replaced it; give its valid_to, or clear superseded_by too")


def _called_off(fact: StoredFact) -> bool:
    """Whether ``fact`` (its ``valid_to`` set) is a change told ahead that :meth:`~memori_core.RecallEngine.cancel`
    called off before its start: ended after it was stated (``created_at``) and before the ``valid_from`` it was
    to hold from, replaced by nothing. Valid at no time, kept as history with the start it had (:func:`_check_period`
    keeps it)."""
    assert fact.valid_to is not None
    end = iso_to_ts(fact.valid_to)
    return fact.valid_from is not None and fact.superseded_by is None and fact.restored_at is None \
        and iso_to_ts(fact.created_at) <= end < iso_to_ts(fact.valid_from)


def _ended_before_its_time(fact: StoredFact) -> bool:
    """Whether ``fact`` (its ``valid_to`` set) is a fact dated ahead of a writer's clock that was ended before its
    time came (:func:`_check_period`): its period began at its ``created_at`` and ended at most
    :data:`~memori_core.validate.FUTURE_SKEW_SECONDS` before it."""
    assert fact.valid_to is not None
    start = iso_to_ts(fact.created_at)
    began_stated = fact.valid_from is None or iso_to_ts(fact.valid_from) == start
    return began_stated and start - iso_to_ts(fact.valid_to) <= FUTURE_SKEW_SECONDS


def _opt_id(record: Mapping[str, Any], key: str, i: int) -> str | None:
    value = record.get(key)
    if value is None:
        return None
    if not isinstance(value, str) or not value.strip():
        raise ValueError(f"records[{i}][{key!r}] must be a non-empty str or null, got {value!r}")
    return check_text(value, f"records[{i}][{key!r}]")


def _id_list(record: Mapping[str, Any], i: int) -> tuple[str, ...]:
    value = record.get("supersedes")
    if value is None:
        return ()
    if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
        raise ValueError(f"records[{i}]['supersedes'] must be a list of fact ids, got {value!r}")
    return tuple(dict.fromkeys(check_text(v, f"records[{i}]['supersedes']") for v in value))


_RECORD_FIELD_OF = {"content": "text"}
"""A :class:`StoredFact` field's name in a record, where the two differ."""


def repeat_difference(first: tuple[StoredFact, np.ndarray | None, Mapping[str, Any]],
                      then: tuple[StoredFact, np.ndarray | None, Mapping[str, Any]]) -> list[str]:
    """The record fields in which two records of one fact id differ (each given as the fact and vector
    :func:`from_record` made of it, and the record itself); ``[]`` when ``then`` repeats ``first``.

    Only fields one of the two records gives are compared (a default such as ``seq``, the record's position,
    or ``last_seen``, its ``created_at``, is no difference). A repeat is imported once: an export never holds
    one id twice, so it comes from a file written twice (two exports concatenated) or a profile listing a
    sentence twice, and either way both records say the same stored fact (adding their sightings would count
    a concatenated export twice). Records that differ are refused by the caller: which one is meant cannot be
    told."""
    (a, a_vec, a_rec), (b, b_vec, b_rec) = first, then
    differs = []
    for f in dataclasses.fields(StoredFact):
        key = _RECORD_FIELD_OF.get(f.name, f.name)
        if (key in a_rec or key in b_rec) and key != "id" and getattr(a, f.name) != getattr(b, f.name):
            differs.append(key)
    if (a_vec is None) != (b_vec is None) or (a_vec is not None and not np.array_equal(a_vec, b_vec)):
        differs.append("vector")
    return differs


def repeat_problem(first: str, first_fact: StoredFact, first_record: Mapping[str, Any], then: Mapping[str, Any],
                   differs: list[str]) -> str:
    """Why a record (``then``) with the id of an earlier one (``first_fact`` of ``first_record``, named ``first``:
    ``records[0]``, ``line 1``) is refused: what they share, and the fields that differ
    (:func:`repeat_difference`)."""
    if then.get("id") or first_record.get("id"):
        shared = f"the same id {first_fact.id!r} as {first}"
    else:
        shared = (f"the same fact as {first} ({first_fact.content!r}; a record without an \"id\" is identified by "
                  "its normalised text)")
    return (f"{shared}, with a different {', '.join(differs)}: which one is meant cannot be told (a record "
            "repeated with every field the same is imported once); drop one, or give each its own \"id\"")
