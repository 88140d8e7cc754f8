"""``memori export`` and ``memori import``: an entity's facts as JSON Lines, one record per line
(:mod:`memori_core.records`), and back; every line of an import is checked before anything is written."""

from __future__ import annotations

import argparse
import json
import re
import sys
import warnings
from datetime import datetime, timezone
from typing import Any

from ..engine import derived_fact_id
from ..facts import StoredFact
from ..records import RepairedRecordWarning, from_record, repeat_difference, repeat_problem
from .not_found import entity_without_facts
from .opening import CliError, open_engine, write_progress


def cmd_export(args: argparse.Namespace) -> int:
    """``memori export``: every fact of an entity as JSON Lines."""
    engine = open_engine(args, embeds=False)
    records = engine.export(args.entity, include_vectors=args.vectors)
    # ASCII JSON (non-ASCII escaped): the same bytes whatever the terminal's or the platform's encoding.
    text = "".join(json.dumps(r, ensure_ascii=True, allow_nan=False) + "\n" for r in records)
    if not records:
        print(f"memori: warning: {entity_without_facts(engine, args.entity, 'the export is empty')}", file=sys.stderr)
    if args.output in (None, "-"):
        sys.stdout.write(text)
        sys.stdout.flush()
    else:
        # Opened only now: a failed export leaves an existing file as it was.
        try:
            with open(args.output, "w", encoding="utf-8", newline="\n") as out:
                out.write(text)
        except OSError as exc:
            raise CliError(f"--output {args.output}: {exc.strerror or exc}") from None
        print(f"exported {len(records)} fact(s) of {args.entity!r} to {args.output}", file=sys.stderr)
    return 0


_RECORD_FIELD = re.compile(r"records\[\d+\]\[('[^']*')\]")
_RECORD = re.compile(r"records\[\d+\]")
_NUMBERED = re.compile(r"\b(metadata|session_id) #\d+")


def _record_problem(exc: Exception) -> str:
    """A record's validation error without the record index (the caller says which line)."""
    message = _RECORD_FIELD.sub(r"field \1", str(exc))
    message = _RECORD.sub("the record", message)
    return _NUMBERED.sub(r"field '\1'", message)


def _read_input(args: argparse.Namespace) -> tuple[str, str]:
    """The import's input as text, and its name for errors (the file as given, or "standard input"): ``-i FILE``,
    else standard input (UTF-8, a BOM is skipped)."""
    if args.input not in (None, "-"):
        try:
            with open(args.input, "rb") as f:
                raw = f.read()
        except OSError as exc:
            raise CliError(f"--input {args.input}: {exc.strerror or exc}") from None
        name = args.input
    else:
        if sys.stdin is None or sys.stdin.isatty():
            raise CliError("no input: pipe JSON Lines into standard input (e.g. from `memori export`), "
                           "or pass -i FILE")
        buffer = getattr(sys.stdin, "buffer", None)
        raw = buffer.read() if buffer is not None else sys.stdin.read().encode("utf-8", "surrogateescape")
        name = "standard input"
    try:
        return raw.decode("utf-8-sig"), name
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise CliError(f"{name}, line {line}: not UTF-8 text (byte {raw[exc.start]:#04x})") from None


def _parse_records(entity: str, text: str, name: str) -> tuple[list[dict[str, Any]], list[Any], int]:
    """Every record of the JSON Lines ``text`` read from ``name``, validated (``NAME, line N: ...`` on the first bad
    one), with its vector,
    and how many lines repeated an earlier record exactly (left out: imported once, as ``import_`` does)."""
    records: list[dict[str, Any]] = []
    vectors: list[Any] = []
    seen: dict[str, tuple[int, StoredFact, Any, dict[str, Any]]] = {}  # fact id -> its first line, fact, vector, record
    repeats = 0
    now = datetime.now(timezone.utc).isoformat()  # a record's created_at when it gives none, as import_ reads it
    # Split on "\n" only: str.splitlines() would also split inside strings holding U+2028 or U+0085.
    for n, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue  # blank lines (a trailing newline, an empty export) hold no record
        try:
            record = json.loads(line)
        except json.JSONDecodeError as exc:
            raise CliError(f"{name}, line {n}: not valid JSON: {exc.msg} (column {exc.colno})") from None
        if not isinstance(record, dict):
            raise CliError(f"{name}, line {n}: expected a JSON object (one record per line), got {type(record).__name__}")
        text_field = record.get("text")
        default_id = derived_fact_id(text_field) if isinstance(text_field, str) and text_field.strip() else ""
        try:
            with warnings.catch_warnings(record=True) as repairs:
                warnings.simplefilter("always", RepairedRecordWarning)
                fact, vector = from_record(entity, record, len(records), default_id=default_id, default_seq=0, now=now)
        except (TypeError, ValueError) as exc:
            raise CliError(f"{name}, line {n}: {_record_problem(exc)}") from None
        for repair in repairs:  # said once, by line (import_ repairs it again, quietly)
            print(f"memori: warning: {name}, line {n}: {_record_problem(repair.message)}", file=sys.stderr)
        if fact.id in seen:
            line, first, first_vector, first_record = seen[fact.id]
            differs = repeat_difference((first, first_vector, first_record), (fact, vector, record))
            if differs:
                raise CliError(f"{name}, line {n}: " + repeat_problem(f"line {line}", first, first_record, record, differs))
            repeats += 1
            continue
        seen[fact.id] = (n, fact, vector, record)
        records.append(record)
        vectors.append(vector)
    return records, vectors, repeats


def cmd_import(args: argparse.Namespace) -> int:
    """``memori import``: add the records of JSON Lines written by ``memori export``."""
    # Read and validate everything before the store is opened: a bad line writes nothing.
    records, vectors, repeats = _parse_records(args.entity, *_read_input(args))
    engine = open_engine(args, embeds=True)
    reembed = args.reembed
    dims = {v.shape[0] for v in vectors if v is not None}
    if records and not reembed:
        if any(v is None for v in vectors) or len(dims) != 1:
            reembed = True  # what import_ does anyway: said here so that the summary is right
        else:
            reembed = dims != {engine.vector_dimension()}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RepairedRecordWarning)  # each said by its line already
        ids = engine.import_(args.entity, records, reembed=reembed, progress=write_progress(args))
    notes = ["texts embedded" if reembed else "vectors kept"] if ids else []
    if repeats:
        notes.append(f"{repeats} repeated line(s) imported once")
    print(f"imported {len(ids)} fact(s) into {args.entity!r}" + (f" ({'; '.join(notes)})" if notes else ""))
    return 0

