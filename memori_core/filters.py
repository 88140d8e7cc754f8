"""Metadata filters (``where=``) on a fact's own user metadata: equality and ``$in``, all keys must match.

>>> check_where({"source": "chat", "topic": {"$in": ["food", "health"]}})

A filter only ever narrows one entity's facts: it is applied to rows that were
already read for that entity, so no filter can reach another entity's facts.
"""

from __future__ import annotations

import json
from typing import Any

Where = dict[str, Any]

_SCALARS = (str, int, float, bool)


def _check_value(key: str, value: Any) -> Any:
    if value is None or isinstance(value, _SCALARS):
        return value
    if isinstance(value, dict):
        if set(value) != {"$in"}:
            raise ValueError(f"where[{key!r}]: only equality or {{'$in': [...]}} is supported, got {sorted(value)}")
        options = value["$in"]
        if not isinstance(options, (list, tuple)) or not options:
            raise ValueError(f"where[{key!r}]['$in'] must be a non-empty list, got {options!r}")
        for option in options:
            if option is not None and not isinstance(option, _SCALARS):
                raise TypeError(f"where[{key!r}]['$in'] holds a {type(option).__name__}; use str, number, bool or None")
        return {"$in": list(options)}
    raise TypeError(f"where[{key!r}] must be a str, number, bool, None or {{'$in': [...]}}, got {type(value).__name__}")


def check_where(where: Any) -> Where | None:
    """A validated copy of ``where`` (``None`` or ``{}``: no filter -> ``None``)."""
    if where is None:
        return None
    if not isinstance(where, dict):
        raise TypeError(f"where must be a dict of metadata key -> value, got {type(where).__name__}")
    out: Where = {}
    for key, value in where.items():
        if not isinstance(key, str) or not key:
            raise TypeError(f"where keys must be non-empty str, got {key!r}")
        if key.startswith("$"):
            raise ValueError(f"where: operator {key!r} is not supported at the top level (keys are ANDed)")
        out[key] = _check_value(key, value)
    return out or None


def where_key(where: Where) -> str:
    """A canonical string for memoising a filter's matches."""
    return json.dumps(where, sort_keys=True, default=str)


def _equal(a: Any, b: Any) -> bool:
    # True == 1 in Python; a filter on a bool must not match the number 1, nor the reverse.
    return a == b and isinstance(a, bool) == isinstance(b, bool)


def matches(metadata: dict[str, Any], where: Where) -> bool:
    """True when ``metadata`` satisfies every condition of ``where`` (a missing key matches only ``None``)."""
    for key, want in where.items():
        have = metadata.get(key)
        if isinstance(want, dict):
            if not any(_equal(have, option) for option in want["$in"]):
                return False
        elif not _equal(have, want):
            return False
    return True
