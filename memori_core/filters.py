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
``valid_from`` (when it became valid: its ``created_at``, or the time of the update that gave it its
text) and ``valid_to`` (when it stopped being valid; a fact still valid has none, which orders after
every time: ``{"valid_to": {"$gt": t}}`` keeps the facts still valid at ``t``, ``{"valid_to": None}``
the facts valid now). Their conditions are a time (equality) or ``$eq`` ``$ne`` ``$gt`` ``$gte`` ``$lt``
``$lte`` on times: a ``datetime`` or an ISO 8601 str (without a zone: UTC, with a warning), compared
as instants in UTC (``None`` with ``$eq`` / ``$ne`` only). A metadata key of one of these names is
stored and returned, but ``where`` cannot reach it.

>>> check_where({"created_at": {"$gte": "2026-01-01T00:00:00+01:00"}})
{'created_at': {'$gte': '2025-12-31T23:00:00+00:00'}}

A bare list is refused (``{"$in": [...]}`` is any of, ``{"$eq": [...]}`` an equal list), as are unknown
operators and comparisons mixing a number and a str, so a filter never silently means something else.

A filter only ever narrows one entity's facts: it is applied to rows that were
already read for that entity, so no filter can reach another entity's facts.
"""

from __future__ import annotations

import json
import math
from datetime import datetime
from typing import Any

import numpy as np

from .validate import iso_to_ts, to_iso_utc

Where = dict[str, Any]

TIME_KEYS = ("created_at", "valid_from", "valid_to")
"""``where`` keys that name the fact's own times (not metadata)."""
_TIME_OPERATORS = ("$eq", "$ne", "$gt", "$gte", "$lt", "$lte")

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
        elif isinstance(operand, (str, datetime)):
            out[op] = to_iso_utc(operand, at)
        else:
            raise TypeError(f"{at} must be a datetime or an ISO 8601 str, got {type(operand).__name__} {operand!r}")
    return out


def split_times(where: Where) -> tuple[Where | None, dict[str, dict[str, float | None]]]:
    """A checked filter as its metadata part (``None`` when empty) and its time conditions, with operands in
    epoch seconds."""
    meta = {k: v for k, v in where.items() if k not in TIME_KEYS}
    times = {k: {op: (None if v is None else iso_to_ts(v)) for op, v in where[k].items()}
             for k in TIME_KEYS if k in where}
    return meta or None, times


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
        if key.startswith("$"):
            raise ValueError(f"{name}: operator {key!r} is not supported at the top level (keys are ANDed)")
        if fact_times and key in TIME_KEYS:
            out[key] = _check_time(f"{name}[{key!r}]", value)
        else:
            out[key] = _check_condition(f"{name}[{key!r}]", value)
    return out or None


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


def matches(metadata: dict[str, Any], where: Where) -> bool:
    """True when ``metadata`` satisfies every condition of ``where`` (a checked filter)."""
    for key, want in where.items():
        if not _satisfies(metadata.get(key), want):
            return False
    return True
