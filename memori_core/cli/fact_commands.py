"""The ``memori`` commands over one entity's facts: ``add``, ``recall``, ``forget``, ``list``, ``get``, ``update``,
``delete``, ``count``, ``history``, ``restore``, and ``entities`` over the whole store; and how a fact is printed
for people (``ID  CREATED_AT  TEXT`` and its marks) or as JSON records."""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Sequence
from datetime import datetime, timedelta, timezone
from typing import Any

from ..context import format_context
from ..engine import Forgotten, NothingToCancelError, NothingToRestoreError, RecallEngine
from ..facts import StoredFact, is_searchable
from ..ranking.core import is_core
from ..records import to_record
from ..validate import check_said_at, parse_utc
from .not_found import entity_without_facts, report_unknown_ids
from .opening import CliError, open_engine, write_progress


def cmd_add(args: argparse.Namespace) -> int:
    """``memori add``: store the facts given (or read one per line from standard input); print each id (with its
    text, unless ``--id-only``)."""
    facts = list(args.facts)
    if not facts and not sys.stdin.isatty():
        facts = [line.strip() for line in sys.stdin if line.strip()]
    if not facts:
        raise CliError("no facts to add: give them as arguments, or one per line on standard input")
    if args.core:
        _check_core_takes_no_value(facts)
    _check_expiry_after(args.expires, args.created_at,
                        f"--created-at {_when(args.created_at.isoformat())}" if args.created_at else "now",
                        "" if args.created_at else "an earlier --created-at")
    metadata = _metadata(args.metadata)
    engine = open_engine(args, embeds=True)
    try:
        ids = engine.add(args.entity, facts, progress=write_progress(args), core=args.core,
                         created_at=args.created_at, expires_at=args.expires, metadata=metadata,
                         supersedes=args.supersedes)
    except KeyError as exc:  # a --supersedes id the entity has no fact with: nothing was written
        print(f"memori: --supersedes: {exc.args[0]}; nothing was added (`memori list -e ENTITY` shows the ids)",
              file=sys.stderr)
        return 1
    for fid, fact in zip(ids, facts):
        print(fid if args.id_only else f"{fid}  {fact}")
    if args.supersedes:
        _say_which_landed_in_the_past(engine, args.entity, ids)
    return 0


def _say_which_landed_in_the_past(engine: RecallEngine, entity: str, ids: Sequence[str]) -> None:
    """A fact dated (``--created-at``) before a fact it supersedes was stated is stored as that fact's past,
    already superseded by it (a fact told late): the person meant it to replace that fact, so say what it did."""
    for fact in engine.get(entity, list(dict.fromkeys(ids))):
        if fact.superseded_by is not None:
            print(f"memori: note: {fact.content!r} is dated {_when(fact.created_at)}, before {fact.superseded_by} "
                  "was stated, so it was stored as that fact's past, superseded by it (`memori list --all` shows "
                  "it); to replace that fact, add it without --created-at or with a later one", file=sys.stderr)


_FLAG_WORDS = frozenset({"true", "false", "yes", "no", "on", "off", "y", "n", "1", "0"})


def _check_core_takes_no_value(facts: Sequence[str]) -> None:
    """``--core`` is a flag: ``memori add --core false "..."`` would store ``false`` as a core fact (recalled on
    every query) and mark the real fact core, the opposite of what was meant. A fact that is only such a word
    beside ``--core`` is refused, naming it."""
    for fact in facts:
        if fact.strip().strip(".!").lower() in _FLAG_WORDS:
            raise CliError(f"--core takes no value: {fact!r} would be stored as a core fact; write --core alone "
                           "to mark the facts core, and leave it out for facts that are not")


def _metadata(pairs: Sequence[tuple[str, Any]] | None) -> dict[str, Any] | None:
    """The ``--metadata KEY=VALUE`` pairs as one dict (``None`` when none was given); a key given twice with two
    values is an error (which one was meant?)."""
    if not pairs:
        return None
    metadata: dict[str, Any] = {}
    for key, value in pairs:
        if key in metadata and metadata[key] != value:
            raise CliError(f"--metadata: key {key!r} given twice, {metadata[key]!r} and {value!r}")
        metadata[key] = value
    return metadata


def _check_expiry_after(expires: datetime | timedelta | None, created_at: datetime | None, since: str,
                        instead: str, what: str = "the facts") -> None:
    """``--expires`` must come after the creation of ``what`` (``created_at``, else now; ``since`` names it): such a
    fact would never be valid (the error offers ``instead`` too)."""
    if expires is None or isinstance(expires, timedelta):
        return
    if expires <= (created_at or datetime.now(timezone.utc)):
        raise CliError(f"--expires {_when(expires.isoformat())} is not after {since}: {what} would never be valid; "
                       "give a later --expires" + (f" or {instead}" if instead else ""))


def cmd_recall(args: argparse.Namespace) -> int:
    """``memori recall``: the context block recalled for a query (``--explain``: every candidate's scores)."""
    engine = open_engine(args, embeds=True, say_config=True)
    # The engine answers an entity without facts without loading the model; a person is told why it is empty (a
    # typo, with the entities spelled like it). As of a past time, facts superseded since count too.
    if not args.json and engine.count(args.entity, include_invalid=True) == 0:
        print(f"memori: {entity_without_facts(engine, args.entity, 'nothing to recall')}", file=sys.stderr)
        return 0
    if not args.json and args.as_of is None and engine.count(args.entity) == 0:
        print(f"memori: entity {args.entity!r} has no valid facts (only superseded ones: `memori list --all` "
              "lists them, `memori recall --as-of` reads them): nothing to recall", file=sys.stderr)
        return 0
    if args.explain:
        report = engine.explain(args.query, entity_id=args.entity, limit=args.limit, as_of=args.as_of,
                                where=args.where)
        if args.json:
            print(json.dumps(report.to_dict(), ensure_ascii=False, indent=2))
            return 0
        print(report.table())
        facts = report.facts
    else:
        facts = engine.recall(args.query, entity_id=args.entity, limit=args.limit, as_of=args.as_of,
                              where=args.where)
        if args.json:
            print(json.dumps([f.__dict__ for f in facts], ensure_ascii=False, indent=2))
            return 0
    block = format_context(facts)
    matching = " matching --where" if args.where is not None else ""
    print(block if block else f"(nothing recalled: no fact{matching} passed the relevance gate)")
    return 0


def cmd_forget(args: argparse.Namespace) -> int:
    """``memori forget``: delete every fact of an entity, at once and for good (``--dry-run``: only say how many
    would go). An entity without facts (a typo?) is reported with the store's entities spelled like it (exit 1)."""
    engine = open_engine(args, embeds=False)
    rows = engine.count(args.entity, include_invalid=True)
    if rows == 0:
        print(f"memori: {entity_without_facts(engine, args.entity, 'nothing to forget')}", file=sys.stderr)
        return 1
    if args.dry_run:
        valid = engine.count(args.entity)
        print(f"would forget {_forgotten(Forgotten(valid, rows - valid))} of {args.entity!r} (dry run: nothing "
              "deleted)")
        return 0
    # What it erased, counted as it erased it (a write between a count here and the erase would not be said); the
    # count of the valid facts reads the entity's copy, which forget counts the older versions from.
    engine.count(args.entity)
    print(f"forgot {_forgotten(engine.forget(args.entity))} of {args.entity!r}")
    return 0


def _forgotten(erased: Forgotten) -> str:
    """``4 fact(s) and 2 superseded fact(s) or earlier version(s)`` (the second part only when there are any)."""
    older = erased.older_versions
    if erased.facts is None:
        return "every fact (not counted: the store could not be read for it)"
    return f"{erased.facts} fact(s)" + (f" and {older} superseded fact(s) or earlier version(s)" if older else "")


def _when(stamp: str | None) -> str:
    """A stored UTC timestamp for people: ``2024-05-01T12:34:56Z`` (seconds; ``-`` when absent)."""
    if not stamp:
        return "-"
    try:
        return parse_utc(stamp).strftime("%Y-%m-%dT%H:%M:%SZ")
    except ValueError:
        return stamp


_ESCAPES = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _one_line(text: str) -> str:
    """``text`` on one line for reading: line breaks, tabs and other unprintable characters escaped as in Python
    (backslashes are left alone, so ``C:\\Users`` reads as written; ``--json`` is the exact text)."""
    out = []
    for ch in text:
        if ch in _ESCAPES:
            out.append(_ESCAPES[ch])
        elif ch.isprintable():
            out.append(ch)
        else:
            out.append(ch.encode("unicode_escape").decode("ascii"))
    return "".join(out)


def _fact_line(fact: StoredFact, now: float) -> str:
    """``ID  CREATED_AT  TEXT`` (then ``[core]`` for a core fact, ``[not searchable]`` for one recall never
    returns, ``[valid from TIME]`` for one whose text was stated later than ``created_at`` (an update, said again:
    its ``valid_from``) or that is a change told ahead (its start), ``[restored TIME]`` for one a restore made
    valid again (its ``restored_at``),
    ``[expires TIME]`` for one that will expire (its ``expires_at``: recall stops returning it then),
    ``[expired]`` for one past its ``expires_at``, ``[superseded by ID at TIME]`` for one no longer valid)."""
    marks = "  [core]" if is_core(fact.metadata) else ""
    if not is_searchable(fact.metadata):
        marks += "  [not searchable]"
    start = fact.starts_at or (fact.stated_at if fact.stated_at != fact.created_at else None)
    if start is not None:
        marks += f"  [valid from {_when(start)}]"
    if fact.restored_at is not None:
        marks += f"  [restored {_when(fact.restored_at)}]"
    if fact.is_expired(now):
        marks += "  [expired]"
    elif fact.expires_at is not None and fact.is_valid(now):
        marks += f"  [expires {_when(fact.expires_at)}]"
    if not fact.is_valid(now):
        by = f" by {fact.superseded_by}" if fact.superseded_by else ""
        marks += f"  [superseded{by} at {_when(fact.valid_to)}]"
    return f"{fact.id}  {_when(fact.created_at)}  {_one_line(fact.content)}{marks}"


def _print_facts(facts: Sequence[StoredFact], as_json: bool) -> None:
    if as_json:
        print(json.dumps([to_record(f) for f in facts], ensure_ascii=False, indent=2))
        return
    now = time.time()
    for fact in facts:
        print(_fact_line(fact, now))


def cmd_list(args: argparse.Namespace) -> int:
    """``memori list``: one page of an entity's facts, newest first."""
    # One fact more than the page, to tell a person (on stderr) that there is a next page.
    engine = open_engine(args, embeds=False)
    facts = engine.list(args.entity, limit=args.limit + 1, offset=args.offset, session_id=args.session,
                        where=args.where, newest_first=not args.oldest_first, include_invalid=args.all)
    page, more = facts[: args.limit], len(facts) > args.limit
    _print_facts(page, args.json)
    if not args.json:
        if not page and engine.count(args.entity, include_invalid=True) == 0:
            print(f"memori: {entity_without_facts(engine, args.entity, 'nothing to list')}", file=sys.stderr)
        elif not page:
            what = "matching facts" if args.where is not None or args.session is not None else "facts"
            where = f" from offset {args.offset}" if args.offset else ""
            print(f"memori: no {what} of {args.entity!r}{where}", file=sys.stderr)
        elif more:
            print(f"memori: more facts follow: --offset {args.offset + args.limit} lists the next page",
                  file=sys.stderr)
    return 0


def cmd_get(args: argparse.Namespace) -> int:
    """``memori get``: an entity's facts by id (exit 1 when an id is unknown)."""
    ids = list(dict.fromkeys(args.ids))  # an id asked twice is shown once
    engine = open_engine(args, embeds=False)
    facts = engine.get(args.entity, ids)
    _print_facts(facts, args.json)
    return 1 if report_unknown_ids(engine, args.entity, ids, {f.id for f in facts}) else 0


def cmd_delete(args: argparse.Namespace) -> int:
    """``memori delete``: delete an entity's facts by id (exit 1 when an id is unknown)."""
    at = check_said_at(args.at, "--at")  # before the store opens, named as the command line names it
    engine = open_engine(args, embeds=False)
    ids = list(dict.fromkeys(args.ids))
    try:
        deleted = engine.delete(args.entity, ids, told_by=args.told_by or (), at=at)  # the ids that were stored
    except NothingToCancelError as exc:
        print(f"memori: {exc}".replace("told_by", "--told-by", 1), file=sys.stderr)
        return 1
    unknown = report_unknown_ids(engine, args.entity, ids, set(deleted))
    print(f"deleted {len(deleted)} fact(s) of {args.entity!r}")
    return 1 if unknown else 0


def cmd_entities(args: argparse.Namespace) -> int:
    """``memori entities``: the entities the store holds facts for, one per line, sorted."""
    entities = open_engine(args, embeds=False).entities()
    if args.json:
        print(json.dumps(entities, ensure_ascii=False))
    else:
        for entity in entities:
            print(entity)
    if not entities and not args.json:
        print("memori: the store holds no facts", file=sys.stderr)
    return 0


_STATS = ("valid", "expired", "superseded", "core")
"""What ``memori stats`` counts besides entities and rows, in its order."""


def _entity_stats(engine: RecallEngine, entity: str, now: float) -> dict[str, int]:
    """The stored rows of ``entity`` by state: ``rows`` in all, each ``valid`` (recall may return it),
    ``expired`` (valid but past its expiry) or ``superseded`` (no longer valid: superseded, or an earlier version
    an update kept); ``core``: the valid ones marked core."""
    rows = engine.count(entity, include_invalid=True)
    counts = dict.fromkeys(("rows", *_STATS), 0)
    counts["rows"] = rows
    for fact in engine.list(entity, limit=rows, include_invalid=True) if rows else []:
        if not fact.is_valid(now):
            counts["superseded"] += 1
        elif fact.is_expired(now):
            counts["expired"] += 1
        else:
            counts["valid"] += 1
            counts["core"] += is_core(fact.metadata)
    return counts


def cmd_stats(args: argparse.Namespace) -> int:
    """``memori stats``: how many entities a store holds and its rows by state (``-e``: one entity's)."""
    engine = open_engine(args, embeds=False)
    now = time.time()
    if args.entity is not None:
        stats: dict[str, Any] = {"entity_id": args.entity, **_entity_stats(engine, args.entity, now)}
    else:
        entities = engine.entities()
        stats = {"entities": len(entities), **dict.fromkeys(("rows", *_STATS), 0)}
        for entity in entities:
            for key, n in _entity_stats(engine, entity, now).items():
                stats[key] += n
    if args.json:
        print(json.dumps(stats, ensure_ascii=False))
    else:
        for key, value in stats.items():
            print(f"{key:<11} {_one_line(value) if isinstance(value, str) else value}")
    return 0


def cmd_count(args: argparse.Namespace) -> int:
    """``memori count``: how many facts an entity has."""
    engine = open_engine(args, embeds=False)
    n = engine.count(args.entity, include_invalid=args.all, include_expired=not args.unexpired)
    print(json.dumps({"entity_id": args.entity, "count": n}, ensure_ascii=False) if args.json else n)
    if n == 0 and not args.json and engine.count(args.entity, include_invalid=True) == 0:
        print(f"memori: {entity_without_facts(engine, args.entity, 'nothing to count')}", file=sys.stderr)
    return 0


def cmd_update(args: argparse.Namespace) -> int:
    """``memori update -e ENTITY ID``: edit one fact (its text, metadata keys, expiry, core mark) and print it
    (exit 1 when the id is unknown)."""
    drop = set(args.drop_metadata or ())
    changes_metadata = bool(args.metadata or drop)
    edits = args.text is not None or changes_metadata or args.core is not None
    if not edits and args.expires is None and not args.no_expiry and not args.expire_now:
        raise CliError("nothing to update: give --text, --metadata, --drop-metadata, --expires, --no-expiry, "
                       "--expire-now, --core or --not-core")
    if args.told_by and not args.expire_now:
        raise CliError("--told-by names the facts that told a change to come, ended with it: give it with "
                       "--expire-now")
    at = check_said_at(args.at, "--at")
    new_metadata = _metadata(args.metadata) or {}
    engine = open_engine(args, embeds=args.text is not None)
    changes: dict[str, Any] = {}
    if changes_metadata or isinstance(args.expires, datetime):
        found = engine.get(args.entity, [args.id])
        if not found:
            report_unknown_ids(engine, args.entity, [args.id], set())
            return 1
        created = found[0].created_at
        if created:
            _check_expiry_after(args.expires, parse_utc(created), f"its created_at {_when(created)}",
                                "--expire-now to stop recalling it from now on", "the fact")
    if changes_metadata:
        missing = sorted(drop - found[0].metadata.keys() - new_metadata.keys())
        if missing:
            print(f"memori: --drop-metadata: the fact has no key {', '.join(map(repr, missing))} (its keys: "
                  f"{', '.join(map(repr, sorted(found[0].metadata))) or 'none'})", file=sys.stderr)
        metadata = {k: v for k, v in found[0].metadata.items() if k not in drop}
        metadata.update(new_metadata)
        changes["metadata"] = metadata
    if args.expires is not None or args.no_expiry:
        changes["expires_at"] = None if args.no_expiry else args.expires

    def edit() -> list[StoredFact]:
        edited = engine.update(args.entity, args.id, text=args.text, core=args.core, at=at, **changes) \
            if edits or changes else None
        return [engine.expire(args.entity, args.id, told_by=args.told_by or (), at=at) if args.expire_now
                else edited]

    try:
        return _print_for_id(args, engine, edit)
    except NothingToCancelError as exc:
        print(f"memori: {exc}".replace("told_by", "--told-by", 1), file=sys.stderr)
        return 1
    except ValueError as exc:
        raise _named_at(exc, at) from exc


def cmd_history(args: argparse.Namespace) -> int:
    """``memori history -e ENTITY ID``: a fact's versions, oldest first (exit 1 when the id is unknown)."""
    engine = open_engine(args, embeds=False)
    return _print_for_id(args, engine, lambda: engine.history(args.entity, args.id))


def cmd_restore(args: argparse.Namespace) -> int:
    """``memori restore -e ENTITY ID``: undo a supersede or an update (exit 1 when the id is unknown, or when there is
    nothing to restore: the fact is valid already, or the version's text is the fact's)."""
    at = check_said_at(args.at, "--at")
    engine = open_engine(args, embeds=True)
    try:
        return _print_for_id(args, engine, lambda: [engine.restore(args.entity, args.id, at=at)])
    except NothingToRestoreError as exc:
        print(f"memori: {exc}", file=sys.stderr)
        return 1


def cmd_cancel(args: argparse.Namespace) -> int:
    """``memori cancel -e ENTITY ID [--told-by ID ...] [--at TIME]``: call off a change told ahead before its start
    (exit 1 when the id is unknown, or when there is no change to come to call off)."""
    at = check_said_at(args.at, "--at")  # before the store opens, named as the command line names it
    engine = open_engine(args, embeds=False)
    try:
        return _print_for_id(args, engine, lambda: [engine.cancel(args.entity, args.id, told_by=args.told_by or (),
                                                                  at=at)])
    except NothingToCancelError as exc:
        print(f"memori: {exc}", file=sys.stderr)
        return 1
    except ValueError as exc:
        raise _named_at(exc, at) from exc


def _named_at(exc: ValueError, at: datetime | None) -> ValueError:
    """The engine's error naming its ``at`` argument, as the command line names it: ``--at``."""
    if at is not None and str(exc).startswith("at "):
        return ValueError(f"--at {str(exc)[3:]}")
    return exc


def _print_for_id(args: argparse.Namespace, engine: RecallEngine, read: Callable[[], list[StoredFact]]) -> int:
    """Print the facts ``read()`` gives for ``args.id`` (exit 0), or say the entity has no such fact (exit 1)."""
    try:
        facts = read()
    except KeyError:
        report_unknown_ids(engine, args.entity, [args.id], set())
        return 1
    _print_facts(facts, args.json)
    return 0

