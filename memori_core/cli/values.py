"""The argparse types of the ``memori`` command's options: each turns the text given into its value, or raises
``argparse.ArgumentTypeError`` saying what was expected (argparse reports it with the option's name)."""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from datetime import datetime
from typing import Any

from ..filters import check_where
from ..validate import parse_utc


def server_address(value: str) -> tuple[str, int]:
    """``--server HOST:PORT`` -> ``(host, port)``; anything else is an argparse error."""
    host, sep, port = value.strip().rpartition(":")
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise argparse.ArgumentTypeError(f"expected HOST:PORT, e.g. localhost:8000, got {value!r}")
    return host, int(port)


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
    try:
        return parse_utc(value)
    except (ValueError, OverflowError):
        raise argparse.ArgumentTypeError(
            f"expected an ISO 8601 date or time, e.g. 2024-05-01 or 2024-05-01T12:00:00Z, got {value!r}") from None
