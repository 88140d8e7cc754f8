"""Metadata filters (``where=``) on a fact's own user metadata; every key must match.

>>> check_where({"source": "chat", "topic": {"$in": ["food", "health"]}, "rating": {"$gte": 3}})

A key's condition is one of:

- a scalar (str, number, bool) or ``None``: equality (a bool never equals a number; ``None`` matches a
  missing key);
- ``{"$in": [v, ...]}``: equal to one of the scalars listed;
- operators, ANDed when several are given (``{"$gte": 1, "$lt": 5}``):
  ``$eq`` / ``$ne`` (equal / not equal to any JSON value; a missing key is not equal to anything but
  ``None``), ``$gt`` / ``$gte`` / ``$lt`` / ``$lte`` (against a number, or a str compared by code point:
  ISO 8601 times in one format order as times; a value of another type, or a missing one, never matches);
- a dict of fields without ``$``: the value must be a dict whose fields match these conditions (nested, as
  LangGraph's stores read a filter on a nested value).

Three keys name the fact's own times, not its metadata: ``created_at`` (when it was stated),
``valid_from`` (when its current period of validity began: its ``created_at``, or the time of the update
that gave it its text, of its saying again or of the restore that made it valid again) and ``valid_to`` (when it stopped being valid; a fact still valid has none, which orders after
every time: ``{"valid_to": {"$gt": t}}`` keeps the facts still valid at ``t``, ``{"valid_to": None}``
the facts valid now). Their conditions are a time (equality) or ``$eq`` ``$ne`` ``$gt`` ``$gte`` ``$lt``
``$lte`` on times: a ``datetime`` or an ISO 8601 str (without a zone: UTC, with a warning), compared
as instants in UTC (``None`` with ``$eq`` / ``$ne`` only). A metadata key of one of these names is
stored and returned, but ``where`` cannot reach it.

>>> check_where({"created_at": {"$gte": "2026-01-01T00:00:00+01:00"}})
{'created_at': {'$gte': '2025-12-31T23:00:00+00:00'}}

A bare list is refused (``{"$in": [...]}`` is any of, ``{"$eq": [...]}`` an equal list), as are unknown
operators and comparisons mixing a number and a str, so a filter never silently means something else.

So is a filter that would match nothing, silently, for a reason it can tell: a key naming a field of the fact
``where`` does not filter on (``expires_at``, ``last_seen``, ``updated_at``, ``times_seen``, ``session_id``: no
metadata holds them; ``entity_id``, ``id``, ``content``..., with what to use instead); a key that looks like one of the fact's times without being one (``create_at``,
``createdAt``, ``valid-to``: the same letters in another case or with other separators, or one letter missing or
added, or two swapped), with the time meant; equality of a time with a date alone (``{"created_at":
"2026-10-26"}`` is one instant, that day's 00:00 UTC: give the day's range). A metadata key of the user's own
that looks like a fact's time is filtered under ``$metadata``, whose conditions are on the metadata keys as they
are named:

>>> check_where({"$metadata": {"createdAt": {"$gte": "2026-01-01"}}})
{'$metadata': {'createdAt': {'$gte': '2026-01-01'}}}

``list`` without ``include_invalid`` and ``recall`` without ``as_of`` read only valid facts, so they also refuse
a ``valid_to`` condition no valid fact meets (:func:`check_reaches_valid`).

A filter only ever narrows one entity's facts: it is applied to rows that were
already read for that entity, so no filter can reach another entity's facts.
"""

from __future__ import annotations

import json
import math
from datetime import date, datetime, timedelta
from typing import Any

import numpy as np

from .validate import FACT_FIELD_KEYS, RESERVED_METADATA_KEYS, iso_to_ts, to_iso_utc

Where = dict[str, Any]

TIME_KEYS = ("created_at", "valid_from", "valid_to")
"""``where`` keys that name the fact's own times (not metadata)."""
_TIME_OPERATORS = ("$eq", "$ne", "$gt", "$gte", "$lt", "$lte")

METADATA_KEY = "$metadata"
"""A top-level ``where`` key whose conditions are on the user's own metadata keys, read as they are: for a key of
the user's that looks like a fact's time (``{"$metadata": {"createdAt": ...}}``), which is refused at the top level
(:func:`check_where`)."""

_OTHER_TIMES = ("expires_at", "last_seen", "updated_at")
"""The fact's times ``where`` does not filter on (reported by recall: user metadata cannot hold them)."""

_SCALARS = (str, int, float, bool)
_ORDER = ("$gt", "$gte", "$lt", "$lte")
OPERATORS = ("$eq", "$ne", *_ORDER, "$in")
"""Every operator a condition may use."""


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _check_json(where: str, value: Any) -> Any:
    """A copy of a JSON value (str keys, finite numbers) for ``$eq`` / ``$ne``."""
    if value is None or isinstance(value, (str, bool, int)):
        return value
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError(f"{where} is {value!r}; a filter compares finite numbers only")
        return value
    if isinstance(value, (list, tuple)):
        return [_check_json(f"{where}[{i}]", v) for i, v in enumerate(value)]
    if isinstance(value, dict):
        for k in value:
            if not isinstance(k, str):
                raise TypeError(f"{where} has a key {k!r}; JSON keys are str")
        return {k: _check_json(f"{where}[{k!r}]", v) for k, v in value.items()}
    raise TypeError(f"{where} is a {type(value).__name__}; use JSON values (str, number, bool, None, list, dict)")


def _check_operators(where: str, cond: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    kinds: set[str] = set()
    for op, operand in cond.items():
        at = f"{where}[{op!r}]"
        if op == "$in":
            if not isinstance(operand, (list, tuple)) or not operand:
                raise ValueError(f"{at} must be a non-empty list, got {operand!r}")
            for option in operand:
                if option is not None and not isinstance(option, _SCALARS):
                    raise TypeError(f"{at} holds a {type(option).__name__}; use str, number, bool or None")
                if isinstance(option, float) and not math.isfinite(option):
                    raise ValueError(f"{at} holds {option!r}; a filter compares finite numbers only")
            out[op] = list(operand)
        elif op in ("$eq", "$ne"):
            out[op] = _check_json(at, operand)
        elif op in _ORDER:
            if _is_number(operand):
                if not math.isfinite(operand):
                    raise ValueError(f"{at} is {operand!r}; a filter compares finite numbers only")
                kinds.add("a number")
            elif isinstance(operand, str):
                kinds.add("a str")
            else:
                raise TypeError(f"{at} must be a number or a str, got {type(operand).__name__} {operand!r}")
            out[op] = operand
        else:
            raise ValueError(f"{where}: unknown operator {op!r}; supported: {', '.join(OPERATORS)}")
    if len(kinds) > 1:
        raise TypeError(f"{where} compares with both a number and a str; a value is one or the other")
    return out


def _check_condition(where: str, cond: Any) -> Any:
    if cond is None or isinstance(cond, _SCALARS):
        if isinstance(cond, float) and not math.isfinite(cond):
            raise ValueError(f"{where} is {cond!r}; a filter compares finite numbers only")
        return cond
    if isinstance(cond, dict):
        if not cond:
            raise ValueError(f"{where} is an empty dict; give a value, operators or fields")
        keys = [k for k in cond if not isinstance(k, str)]
        if keys:
            raise TypeError(f"{where} has a key {keys[0]!r}; use str field names or '$' operators")
        ops = [k for k in cond if k.startswith("$")]
        if ops and len(ops) != len(cond):
            fields = [k for k in cond if not k.startswith("$")]
            raise ValueError(f"{where} mixes operators {ops} with fields {fields}; nest the fields instead")
        if ops:
            return _check_operators(where, cond)
        return {k: _check_condition(f"{where}[{k!r}]", v) for k, v in cond.items()}
    if isinstance(cond, (list, tuple)):
        raise TypeError(f"{where} is a list; use {{'$in': [...]}} for any of these values, or "
                        f"{{'$eq': [...]}} for a value equal to this list")
    raise TypeError(f"{where} must be a str, number, bool, None, {{'$in': [...]}}, operators or fields, "
                    f"got {type(cond).__name__}")


def _check_time(where: str, cond: Any) -> dict[str, str | None]:
    """A time condition with every operand as a UTC ISO 8601 str (``None`` kept for ``$eq`` / ``$ne``)."""
    if not isinstance(cond, dict):
        cond = {"$eq": cond}
    if not cond:
        raise ValueError(f"{where} is an empty dict; give a time or operators")
    if not all(isinstance(op, str) and op.startswith("$") for op in cond):
        raise ValueError(f"{where}: a fact's time has no fields; use {', '.join(_TIME_OPERATORS)}")
    out: dict[str, str | None] = {}
    for op, operand in cond.items():
        at = f"{where}[{op!r}]" if len(cond) > 1 or op != "$eq" else where
        if op not in _TIME_OPERATORS:
            raise ValueError(f"{at}: a fact's time takes {', '.join(_TIME_OPERATORS)} (got {op!r})")
        if operand is None and op in ("$eq", "$ne"):
            out[op] = None
        elif op in ("$eq", "$ne") and isinstance(operand, str) and _is_a_date(operand):
            day = date.fromisoformat(operand.strip())
            raise ValueError(f"{at} is the date {operand!r}: equality compares one instant (its 00:00 UTC), which a "
                             f"fact stated later that day is not; for that day in UTC use {{'$gte': "
                             f"'{day}T00:00:00Z', '$lt': '{day + timedelta(days=1)}T00:00:00Z'}} (with your offset "
                             "for your day)")
        elif isinstance(operand, (str, datetime)):
            out[op] = to_iso_utc(operand, at)
        else:
            raise TypeError(f"{at} must be a datetime or an ISO 8601 str, got {type(operand).__name__} {operand!r}")
    return out


def _is_a_date(text: str) -> bool:
    """Whether ``text`` is an ISO 8601 date with no time of day (``"2026-10-26"``)."""
    try:
        date.fromisoformat(text.strip())
    except ValueError:
        return False
    return True


def history_only(where: Where | None) -> bool:
    """Whether a checked filter's ``valid_to`` condition leaves out every fact still valid (one with no
    ``valid_to``, which orders after every time): it can match only facts no longer valid."""
    if not where or where.get("valid_to") is None:
        return False
    return not bool(time_mask(np.array([np.inf]), _epoch(where["valid_to"]))[0])


def check_reaches_valid(where: Where | None, call: str, fix: str) -> None:
    """Refuse a filter :func:`history_only` finds in a ``call`` that reads only valid facts (``list`` without
    ``include_invalid``, ``recall`` without ``as_of``), which would match nothing, silently; ``fix`` says what
    reads the facts no longer valid."""
    if history_only(where):
        assert where is not None
        raise ValueError(f"where['valid_to'] {where['valid_to']} keeps only facts no longer valid (a valid fact has "
                         f"no valid_to), which {call} leaves out: {fix}")


def split_times(where: Where) -> tuple[Where | None, dict[str, dict[str, float | None]]]:
    """A checked filter as its metadata part (``None`` when empty) and its time conditions, with operands in
    epoch seconds."""
    meta = {k: v for k, v in where.items() if k not in TIME_KEYS}
    times = {k: _epoch(where[k]) for k in TIME_KEYS if k in where}
    return meta or None, times


def _epoch(cond: dict[str, Any]) -> dict[str, float | None]:
    """A checked time condition with its operands in epoch seconds."""
    return {op: (None if v is None else iso_to_ts(v)) for op, v in cond.items()}


def time_mask(values: np.ndarray, cond: dict[str, float | None]) -> np.ndarray:
    """Which ``values`` (epoch seconds, ``inf``: none, as a still-valid fact's ``valid_to``) meet ``cond``."""
    keep = np.ones(values.shape, dtype=bool)
    for op, want in cond.items():
        if want is None:
            keep &= np.isinf(values) if op == "$eq" else ~np.isinf(values)
        elif op == "$eq":
            keep &= values == want
        elif op == "$ne":
            keep &= values != want
        elif op == "$gt":
            keep &= values > want
        elif op == "$gte":
            keep &= values >= want
        elif op == "$lt":
            keep &= values < want
        else:
            keep &= values <= want
    return keep


def check_where(where: Any, name: str = "where", *, fact_times: bool = True) -> Where | None:
    """A validated copy of ``where`` (``None`` or ``{}``: no filter -> ``None``); errors call it ``name``.

    ``fact_times=False``: :data:`TIME_KEYS` are ordinary keys (for a filter that will be nested under another
    key, as LangGraph's item filters are)."""
    if where is None:
        return None
    if not isinstance(where, dict):
        raise TypeError(f"{name} must be a dict of metadata key -> value, got {type(where).__name__}")
    out: Where = {}
    for key, value in where.items():
        if not isinstance(key, str) or not key:
            raise TypeError(f"{name} keys must be non-empty str, got {key!r}")
        if fact_times and key == METADATA_KEY:
            out[key] = _check_own_keys(f"{name}[{key!r}]", value)
        elif key.startswith("$"):
            raise ValueError(f"{name}: operator {key!r} is not supported at the top level (keys are ANDed"
                             + (f"; {METADATA_KEY!r} holds conditions on metadata keys)" if fact_times else ")"))
        elif fact_times and key in TIME_KEYS:
            out[key] = _check_time(f"{name}[{key!r}]", value)
        elif fact_times:
            _check_not_a_fact_field(f"{name}[{key!r}]", key)
            out[key] = _check_condition(f"{name}[{key!r}]", value)
        else:
            out[key] = _check_condition(f"{name}[{key!r}]", value)
    return out or None


def _check_own_keys(where: str, conditions: Any) -> dict[str, Any]:
    """The conditions of :data:`METADATA_KEY`: on the user's metadata keys, whatever they are called."""
    if not isinstance(conditions, dict) or not conditions:
        raise TypeError(f"{where} must be a non-empty dict of your metadata key -> condition, got {conditions!r}")
    for key in conditions:
        if not isinstance(key, str) or not key:
            raise TypeError(f"{where} keys must be non-empty str, got {key!r}")
    return {k: _check_condition(f"{where}[{k!r}]", v) for k, v in conditions.items()}


_KNOWN_KEYS = f"where filters on the fact's {', '.join(TIME_KEYS)}, and on your own metadata keys"


# What to use instead of a filter on a fact's own field, which no metadata holds.
_INSTEAD = {
    "entity_id": " (every call reads one entity's facts: name the entity in the call)",
    "id": " (get(entity_id, ids) reads facts by id)",
    "content": " (recall(query, entity_id) finds facts by what they say)",
    "superseded_by": " (list(..., include_invalid=True) and history(entity_id, fact_id) show what replaced what)",
    "supersedes": " (history(entity_id, fact_id) shows what a fact replaced)",
}


def _check_not_a_fact_field(where: str, key: str) -> None:
    """Refuse a top-level key that names a field of the fact ``where`` does not filter on (user metadata cannot
    hold it: ``add`` refuses it), or looks like one of the fact's times without being one (``create_at``,
    ``createdAt``, ``valid-to``): either filter would match nothing, silently."""
    if key in RESERVED_METADATA_KEYS:
        also = "; list(..., session_id=...) narrows to one session" if key == "session_id" else ""
        raise ValueError(f"{where}: {key!r} is a field of the fact that where does not filter on (recall reports "
                         f"it; no metadata holds it){also}; {_KNOWN_KEYS}")
    if key in FACT_FIELD_KEYS:
        instead = _INSTEAD.get(key, "")
        raise ValueError(f"{where}: {key!r} is a field of the fact, not metadata, and where does not filter on it"
                         f"{instead}; {_KNOWN_KEYS} (one of yours called {key!r}: {{{METADATA_KEY!r}: {{{key!r}: "
                         "...}}})")
    meant = _fact_time_like(key)
    if meant is not None:
        raise ValueError(f"{where}: no fact time is called {key!r}; did you mean {meant!r}? {_KNOWN_KEYS} (one "
                         f"of yours called {key!r}: {{{METADATA_KEY!r}: {{{key!r}: ...}}}})")


def _squashed(key: str) -> str:
    return "".join(ch for ch in key.lower() if ch.isalnum())


def _fact_time_like(key: str) -> str | None:
    """The fact's time ``key`` looks like, when it is not one: the same letters in another case or with other
    separators (``createdAt``, ``Valid-To``), or with one letter missing or added or two neighbours swapped
    (``create_at``, ``valid_too``, ``cretaed_at``); ``None`` for any other key. A changed letter is not counted:
    ``treated_at`` or ``rated_at`` are words of their own."""
    squashed = _squashed(key)
    for name in (*TIME_KEYS, *_OTHER_TIMES):
        if key != name and _one_slip_apart(squashed, _squashed(name)):
            return name
    return None


def _one_slip_apart(a: str, b: str) -> bool:
    """Whether ``a`` equals ``b``, or is ``b`` with one letter missing or added, or two neighbours swapped."""
    if len(a) > len(b):
        a, b = b, a
    if len(b) - len(a) > 1:
        return False
    i = 0
    while i < len(a) and a[i] == b[i]:
        i += 1
    if len(a) < len(b):
        return a[i:] == b[i + 1:]
    return a[i:] == b[i:] or (a[i:i + 2] == b[i:i + 2][::-1] and a[i + 2:] == b[i + 2:])


def where_key(where: Where) -> str:
    """A canonical string for memoising a filter's matches."""
    return json.dumps(where, sort_keys=True, default=str)


def _equal(a: Any, b: Any) -> bool:
    """JSON equality: True == 1 in Python, but a bool must not match the number 1, nor the reverse."""
    if isinstance(a, dict):
        return isinstance(b, dict) and a.keys() == b.keys() and all(_equal(v, b[k]) for k, v in a.items())
    if isinstance(a, (list, tuple)):
        return (isinstance(b, (list, tuple)) and len(a) == len(b)
                and all(_equal(x, y) for x, y in zip(a, b)))
    return a == b and isinstance(a, bool) == isinstance(b, bool) and not isinstance(b, (dict, list, tuple))


def _ordered(have: Any, op: str, want: Any) -> bool:
    if _is_number(want):
        if not _is_number(have):
            return False
    elif not isinstance(have, str):
        return False
    if op == "$gt":
        return bool(have > want)
    if op == "$gte":
        return bool(have >= want)
    if op == "$lt":
        return bool(have < want)
    return bool(have <= want)


def _satisfies(have: Any, cond: Any) -> bool:
    """Whether a metadata value (``None``: missing) meets one checked condition."""
    if not isinstance(cond, dict):
        return _equal(have, cond)
    for op, want in cond.items():
        if op == "$in":
            if not any(_equal(have, option) for option in want):
                return False
        elif op == "$eq":
            if not _equal(have, want):
                return False
        elif op == "$ne":
            if _equal(have, want):
                return False
        elif op in _ORDER:
            if not _ordered(have, op, want):
                return False
        else:  # a field of a nested value
            if not isinstance(have, dict) or not _satisfies(have.get(op), want):
                return False
    return True


def metadata_keys(where: Where) -> list[str]:
    """The user metadata keys a checked filter's metadata part reads (those under :data:`METADATA_KEY` too)."""
    return list(dict.fromkeys([*(k for k in where if k != METADATA_KEY), *where.get(METADATA_KEY, ())]))


def matches(metadata: dict[str, Any], where: Where) -> bool:
    """True when ``metadata`` satisfies every condition of ``where`` (a checked filter)."""
    for key, want in where.items():
        if key == METADATA_KEY:
            if not matches(metadata, want):
                return False
        elif not _satisfies(metadata.get(key), want):
            return False
    return True
