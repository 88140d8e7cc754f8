"""The argparse types of the ``memori`` command's options: each turns the text given into its value, or raises
``argparse.ArgumentTypeError`` saying what was expected (argparse reports it with the option's name)."""

from __future__ import annotations

import argparse
import json
import math
import re
import time
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any, NamedTuple
from urllib.parse import urlsplit

from ..filters import check_where
from ..store.chroma_client import check_server_address
from ..validate import (
    FACT_FIELD_KEYS,
    FUTURE_SKEW_SECONDS,
    RESERVED_METADATA_KEYS,
    OutOfRangeError,
    check_entity_id,
    parse_utc,
)


def server_address(value: str) -> tuple[str, int]:
    """``--http HOST:PORT`` (where ``memori mcp`` listens) -> ``(host, port)``; anything else is an argparse
    error."""
    host, sep, port = value.strip().rpartition(":")
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise argparse.ArgumentTypeError(f"expected HOST:PORT, e.g. localhost:8000, got {value!r}")
    return host, int(port)


class ChromaServer(NamedTuple):
    """A ``--server``: where the Chroma server listens, and whether it speaks HTTPS."""

    host: str
    port: int
    ssl: bool = False


def chroma_server(value: str) -> ChromaServer:
    """``--server HOST:PORT`` or a URL (``http://127.0.0.1:8000``, ``https://chroma.example.com``: its scheme's
    port when it names none) -> :class:`ChromaServer`; anything else is an argparse error saying what to type."""
    expected = (f"expected HOST:PORT or an http(s) URL, e.g. 127.0.0.1:8000 or http://127.0.0.1:8000, "
                f"got {value!r}")
    text = value.strip()
    if "://" in text:
        parts = urlsplit(text)
        try:
            port = parts.port
        except ValueError:  # not a number, or out of range
            raise argparse.ArgumentTypeError(f"{expected} (its port is not a number from 1 to 65535)") from None
        scheme = parts.scheme.lower()
        if scheme not in ("http", "https") or not parts.hostname:
            raise argparse.ArgumentTypeError(expected)
        if parts.path not in ("", "/") or parts.query or parts.fragment or parts.username or parts.password:
            base = f"{scheme}://{parts.netloc.rpartition('@')[2]}"
            raise argparse.ArgumentTypeError(f"{expected} (a Chroma server is named by its address alone: "
                                             f"use --server {base})")
        # An IPv6 address keeps its brackets: chromadb puts the host into a URL as it is.
        host, ssl = (f"[{parts.hostname}]" if ":" in parts.hostname else parts.hostname), scheme == "https"
        port = port if port is not None else (443 if ssl else 80)
    else:
        host, sep, digits = text.rpartition(":")
        if not sep or not host or not digits.isdigit():
            raise argparse.ArgumentTypeError(expected)
        port, ssl = int(digits), False
    try:
        host, port = check_server_address(host, port)
    except (TypeError, ValueError):
        raise argparse.ArgumentTypeError(expected) from None
    return ChromaServer(host, port, ssl)


def int_at_least(minimum: int) -> Callable[[str], int]:
    """An argparse type: an int >= ``minimum``."""

    def parse(value: str) -> int:
        try:
            number = int(value)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number, got {value!r}") from None
        if number < minimum:
            raise argparse.ArgumentTypeError(f"must be >= {minimum}, got {number}")
        return number

    return parse


def seconds(value: str) -> float:
    """``--timeout SECONDS``: a finite number of seconds > 0; anything else is an argparse error."""
    try:
        number = float(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, got {value!r}") from None
    if not 0 < number < float("inf"):
        raise argparse.ArgumentTypeError(f"must be a number of seconds > 0, got {value!r}")
    return number


def where_json(value: str) -> dict[str, Any]:
    """``--where '{"topic": "food"}'`` -> the filter dict; bad JSON or a bad filter is an argparse error."""
    try:
        where = json.loads(value)
    except json.JSONDecodeError as exc:
        raise argparse.ArgumentTypeError(f"not valid JSON ({exc.msg}, column {exc.colno}): {value!r}") from None
    if not isinstance(where, dict):
        raise argparse.ArgumentTypeError(
            f"expected a JSON object of metadata key -> value, e.g. '{{\"topic\": \"food\"}}', got {value!r}")
    try:
        check_where(where)
    except (TypeError, ValueError) as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return where


def non_blank(value: str) -> str:
    """Any text but a blank one."""
    if not value.strip():
        raise argparse.ArgumentTypeError("must not be blank")
    return value


def timestamp(value: str) -> datetime:
    """An ISO 8601 date or time (``2024-05-01``, ``2024-05-01T12:00``, ``...Z``, ``...+02:00``) as an aware UTC
    datetime: a time without a zone is UTC, a date alone its start (00:00 UTC), as the Python API reads them."""
    return _utc(value, "an ISO 8601 date or time, e.g. 2024-05-01 or 2024-05-01T12:00:00Z")


def _utc(value: str, expected: str) -> datetime:
    """``value`` read by :func:`~memori_core.validate.parse_utc`; an argparse error saying ``expected`` for text
    that is no ISO 8601 time, and for one that is, that it has no UTC time in the years 1-9999."""
    try:
        return parse_utc(value)
    except OutOfRangeError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    except (ValueError, OverflowError):
        raise argparse.ArgumentTypeError(f"expected {expected}, got {value!r}") from None


def created_time(value: str) -> datetime:
    """``--created-at WHEN``: :func:`timestamp`, refused more than a day ahead (a typo, as the engine refuses it)."""
    when = timestamp(value)
    if when.timestamp() > time.time() + FUTURE_SKEW_SECONDS:
        raise argparse.ArgumentTypeError(f"{value!r} is in the future (more than a day from now)")
    return when


_DURATION = re.compile(r"(\d+)\s*([smhdw])", re.ASCII)
_UNIT_SECONDS = {"s": 1, "m": 60, "h": 3600, "d": 86400, "w": 604800}


def expiry(value: str) -> datetime | timedelta:
    """``--expires WHEN``: an ISO 8601 date or time (:func:`timestamp`), or a duration from now: a whole number
    and a unit, ``s`` ``m`` ``h`` ``d`` ``w`` (``90m``, ``30d``, ``2w``)."""
    duration = _DURATION.fullmatch(value.strip())
    if duration is None:
        return _utc(value, "an ISO 8601 date or time (2024-05-01, 2024-05-01T12:00:00Z) or a duration from now "
                           "(90m, 12h, 30d, 2w)")
    amount = int(duration.group(1)) * _UNIT_SECONDS[duration.group(2)]
    if amount <= 0:
        raise argparse.ArgumentTypeError(f"a duration must be more than 0, got {value!r}")
    try:
        return timedelta(seconds=amount)
    except OverflowError:
        raise argparse.ArgumentTypeError(f"duration {value!r} is too long") from None


def metadata_key(value: str) -> str:
    """A user metadata key: not blank, not one a fact's own field or recall uses."""
    if not value.strip():
        raise argparse.ArgumentTypeError(f"expected a metadata key, got {value!r}")
    if value in RESERVED_METADATA_KEYS or value in FACT_FIELD_KEYS:
        raise argparse.ArgumentTypeError(
            f"key {value!r} is reserved: the fact has a field of that name, which recall reports; use another key")
    return value


def metadata_pair(value: str) -> tuple[str, Any]:
    """``--metadata KEY=VALUE``: VALUE is read as JSON when it is JSON other than null (``2``, ``true``, ``"2"``,
    ``["a", "b"]``), else taken as text (``topic=food``)."""
    key, sep, text = value.partition("=")
    if not sep:
        raise argparse.ArgumentTypeError(f"expected KEY=VALUE, e.g. topic=food, got {value!r}")
    key = metadata_key(key)
    try:
        parsed: Any = json.loads(text)
    except ValueError:
        return key, text
    if parsed is None:
        raise argparse.ArgumentTypeError(f"{value!r}: a metadata value may not be null (`memori update "
                                         "--drop-metadata KEY` removes a key)")
    if isinstance(parsed, float) and not math.isfinite(parsed):
        return key, text  # NaN or an infinity: JSON metadata cannot carry it, the text can
    return key, parsed


def entity_id(value: str) -> str:
    """``--entity`` / ``-e``: an entity id :func:`~memori_core.validate.check_entity_id` accepts; its refusal says
    what to type instead."""
    try:
        return check_entity_id(value, "--entity", option="-e")
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
