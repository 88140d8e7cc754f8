"""The ``memori`` command: add, recall, list, get, count, delete, forget, export, import, entities, mcp, eval, demo.

Every mistake is reported as ``memori: error: ...`` with exit code 2, after the
usage of the (sub)command that was given when argparse finds it. Where the
embedded store lives: ``--path``, else ``$MEMORI_RECALL_PATH``, else the
user's data folder. Only a command that adds facts (``add``, ``import``,
``demo --path``) creates a missing store folder, and only when its parent
folder exists (the default location is created with its parents); the others
refuse a folder that does not exist, so a mistyped path is never silently
created.

Data goes to standard output, messages to standard error. Exit codes: 0 done,
1 done but some asked-for fact ids were not found (``get``, ``delete``), 2 a
mistake (nothing was done). The store a command opened is closed when it ends,
so the next process can open the folder.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sqlite3
import sys
import tempfile
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NoReturn

from ._version import __version__
from .config import RecallConfig
from .context import format_context
from .engine import RecallEngine, derived_fact_id
from .evaluation.cli import add_eval_command
from .evaluation.report import progress_bar
from .facts import StoredFact, is_searchable
from .filters import check_where
from .mcp_server import describe_tools  # the MCP SDK itself is imported only by cmd_mcp
from .ranking.core import is_core
from .records import from_record, repeat_difference, repeat_problem, to_record
from .store import chroma_errors
from .store.chroma import PATH_ENV, ChromaStore, default_store_path, env_store_path
from .store.chroma_client import DEFAULT_HTTP_TIMEOUT, server_url
from .validate import parse_utc

DEMO_MEMORIES: dict[str, list[str]] = {
    "alice": [
        "User is allergic to peanuts.",
        "User prefers spicy food, especially Sichuan dishes.",
        "User lives in Zürich and commutes by bike.",
        "User's daughter Mia starts school in September.",
        "User is training for the Berlin marathon in April.",
        "User works as a data engineer at a logistics company.",
        "User is learning Japanese; 日本語の勉強を毎朝している。",
    ],
    "bob": [
        "User is vegetarian.",
        "User lives in Lisbon.",
        "User plays the cello in a community orchestra.",
        "User is allergic to cats.",
    ],
}

DEMO_QUESTIONS: list[tuple[str, str, list[str]]] = [
    ("alice", "Which snacks should I avoid because of my allergies?", []),
    ("alice", "Plan a training week for my race.", []),
    ("alice", "marathon", []),
    ("alice", "日本語", []),
    ("alice", "What should I order there?", ["We're going to a Chinese restaurant tonight."]),
    ("alice", "What's the capital of Australia?", []),
    ("bob", "What should I cook for dinner tonight?", []),
]
"""(user, question, earlier turns of the conversation)."""


class CliError(ValueError):
    """A mistake on the command line found after parsing: ``memori: error: ...``, exit 2."""


class _Parser(argparse.ArgumentParser):
    """argparse with one error prefix, ``memori: error:``, for the command and every subcommand."""

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        self.exit(2, f"memori: error: {message}\n")


def _server_address(value: str) -> tuple[str, int]:
    """``--server HOST:PORT`` -> ``(host, port)``; anything else is an argparse error."""
    host, sep, port = value.strip().rpartition(":")
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise argparse.ArgumentTypeError(f"expected HOST:PORT, e.g. localhost:8000, got {value!r}")
    return host, int(port)


def _int_at_least(minimum: int) -> Any:
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


def _seconds(value: str) -> float:
    """``--timeout SECONDS``: a finite number of seconds > 0; anything else is an argparse error."""
    try:
        seconds = float(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, got {value!r}") from None
    if not 0 < seconds < float("inf"):
        raise argparse.ArgumentTypeError(f"must be a number of seconds > 0, got {value!r}")
    return seconds


def _where_json(value: str) -> dict[str, Any]:
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


def _non_blank(value: str) -> str:
    if not value.strip():
        raise argparse.ArgumentTypeError("must not be blank")
    return value


def _writable(folder: Path) -> bool:
    return os.access(folder, os.W_OK | os.X_OK)


def check_store_path(path: str | os.PathLike[str] | None, *, creates: bool) -> Path:
    """The embedded store folder a command will open, or :class:`CliError` saying what is wrong with it.

    ``path`` is ``--path`` (``None``: ``$MEMORI_RECALL_PATH``, else the default
    location). A folder that exists must be writable (Chroma writes even to
    read). One that does not exist is an error unless the command ``creates``
    a store: then its parent folder must exist and be writable, except for
    the default location, which is created with its parents.
    """
    if path is not None:
        option, folder = "--path", Path(path).expanduser()
    elif (from_env := env_store_path()) is not None:
        option, folder = f"${PATH_ENV}", from_env
    else:
        option, folder = None, default_store_path()
    named = f"{option} {folder}" if option else f"the default store folder {folder}"
    if folder.exists():
        if not folder.is_dir():
            raise CliError(f"{named} is a file, not a folder")
        if not _writable(folder):
            raise CliError(f"{named} is not writable (the store writes to its folder even to read)")
        return folder
    if not creates:
        if option is None:
            raise CliError(f"no store yet at {folder}: add facts first with `memori add`, or pass --path")
        raise CliError(f"{named} does not exist (check the spelling; `memori add` creates a new store folder)")
    if option is None:
        return folder  # the default location: created with its parents
    parent = folder.parent
    if not parent.is_dir():
        what = "is a file" if parent.exists() else "does not exist"
        raise CliError(f"{named}: its parent folder {parent} {what}, so the store folder is not created "
                       "(check the spelling, or create the parent folder first)")
    if not _writable(parent):
        raise CliError(f"{named} cannot be created: its parent folder {parent} is not writable")
    return folder


def _store(args: argparse.Namespace) -> ChromaStore:
    if args.server:
        host, port = args.server
        store = ChromaStore.http(host=host, port=port, timeout=_server_timeout(args))
    else:
        store = ChromaStore(path=args.store_path)
    args.opened_stores = [*getattr(args, "opened_stores", []), store]  # closed by main() when the command ends
    return store


def _server_timeout(args: argparse.Namespace) -> float:
    """Seconds each request to the ``--server`` may take: ``--timeout``, else ChromaStore.http's default."""
    timeout = getattr(args, "timeout", None)
    return DEFAULT_HTTP_TIMEOUT if timeout is None else timeout


def _close_stores(args: argparse.Namespace) -> None:
    """Close the stores the command opened: frees the folder for the next process (and writes its snapshots)."""
    for store in getattr(args, "opened_stores", []):
        try:
            store.close()
        except _errors() as exc:
            print(f"memori: warning: closing the store failed: {exc}", file=sys.stderr)
    args.opened_stores = []


def _engine(args: argparse.Namespace, *, say_config: bool = False) -> RecallEngine:
    """The command's engine, configured by ``RecallConfig.from_env()``; with ``say_config`` (commands that
    rank: ``recall``, ``mcp``), the ``MEMORI_RECALL_*`` variables applied are named on standard error."""
    if getattr(args, "memori_compat", False):
        config = RecallConfig.memori_compat()
    else:
        config = RecallConfig.from_env()
        if say_config:
            say_env_config()
    return RecallEngine(store=_store(args), config=config)


def say_env_config() -> None:
    """Name on standard error the ``MEMORI_RECALL_*`` variables ``RecallConfig.from_env()`` applies (nothing when
    none is set): an app's ``RecallEngine()`` applies them only when built with ``config=RecallConfig.from_env()``,
    so what this command ranks or explains may differ from what such an app injects."""
    applied = RecallConfig.env_variables()
    if applied:
        names = ", ".join(f"{var}={value}" for var, value in applied.items())
        print(f"memori: applying {names} (RecallConfig.from_env(); an app's engine applies them only when built "
              "with config=RecallConfig.from_env())", file=sys.stderr)


_STAGE_WORDS = {"embed": "facts embedded", "store": "facts stored"}


def _write_progress(args: argparse.Namespace) -> Callable[[str, int, int], None] | None:
    """A progress bar on standard error for a bulk write, when that is a terminal and ``--quiet`` is not given."""
    if getattr(args, "quiet", False) or not sys.stderr.isatty():
        return None

    def show(stage: str, done: int, total: int) -> None:
        progress_bar(done, total, _STAGE_WORDS.get(stage, stage))

    return show


def cmd_add(args: argparse.Namespace) -> int:
    """``memori add``: store the facts given (or read one per line from standard input); print each id."""
    facts = list(args.facts)
    if not facts and not sys.stdin.isatty():
        facts = [line.strip() for line in sys.stdin if line.strip()]
    if not facts:
        raise CliError("no facts to add: give them as arguments, or one per line on standard input")
    ids = _engine(args).add(args.entity, facts, progress=_write_progress(args), core=args.core)
    for fid, fact in zip(ids, facts):
        print(f"{fid}  {fact}")
    return 0


def cmd_recall(args: argparse.Namespace) -> int:
    """``memori recall``: the context block recalled for a query (``--explain``: every candidate's scores)."""
    engine = _engine(args, say_config=True)
    if not args.json and engine.count(args.entity) == 0:
        # The engine answers an unknown entity without loading the model; a person is told why it is empty.
        print(f"memori: entity {args.entity!r} has no facts: nothing to recall", file=sys.stderr)
        return 0
    if args.explain:
        report = engine.explain(args.query, entity_id=args.entity, limit=args.limit)
        if args.json:
            print(json.dumps(report.to_dict(), ensure_ascii=False, indent=2))
            return 0
        print(report.table())
        facts = report.facts
    else:
        facts = engine.recall(args.query, entity_id=args.entity, limit=args.limit)
        if args.json:
            print(json.dumps([f.__dict__ for f in facts], ensure_ascii=False, indent=2))
            return 0
    block = format_context(facts)
    print(block if block else "(nothing recalled: no fact passed the relevance threshold)")
    return 0


def cmd_forget(args: argparse.Namespace) -> int:
    """``memori forget``: delete every fact of an entity."""
    engine = _engine(args)
    before = engine.count(args.entity)
    engine.forget(args.entity)
    print(f"forgot {before} fact(s) of {args.entity!r}")
    return 0


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
    returns, ``[valid from TIME]`` for one whose text became valid after ``created_at`` (an update), ``[expired]``
    for one past its ``expires_at``, ``[superseded by ID at TIME]`` for one no longer valid)."""
    marks = "  [core]" if is_core(fact.metadata) else ""
    if not is_searchable(fact.metadata):
        marks += "  [not searchable]"
    if fact.stated_at != fact.created_at:
        marks += f"  [valid from {_when(fact.valid_from)}]"
    if fact.is_expired(now):
        marks += "  [expired]"
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
    facts = _engine(args).list(args.entity, limit=args.limit + 1, offset=args.offset, session_id=args.session,
                               where=args.where, newest_first=not args.oldest_first,
                               include_invalid=args.all)
    page, more = facts[: args.limit], len(facts) > args.limit
    _print_facts(page, args.json)
    if not args.json:
        if not page:
            what = "matching facts" if args.where is not None or args.session is not None else "facts"
            where = f" from offset {args.offset}" if args.offset else ""
            print(f"memori: no {what} of {args.entity!r}{where}", file=sys.stderr)
        elif more:
            print(f"memori: more facts follow: --offset {args.offset + args.limit} lists the next page",
                  file=sys.stderr)
    return 0


def _unknown_ids(entity: str, ids: Sequence[str], found: set[str]) -> list[str]:
    unknown = [i for i in ids if i not in found]
    for fid in unknown:
        print(f"memori: entity {entity!r} has no fact with id {fid!r}", file=sys.stderr)
    return unknown


def cmd_get(args: argparse.Namespace) -> int:
    """``memori get``: an entity's facts by id (exit 1 when an id is unknown)."""
    ids = list(dict.fromkeys(args.ids))  # an id asked twice is shown once
    facts = _engine(args).get(args.entity, ids)
    _print_facts(facts, args.json)
    return 1 if _unknown_ids(args.entity, ids, {f.id for f in facts}) else 0


def cmd_delete(args: argparse.Namespace) -> int:
    """``memori delete``: delete an entity's facts by id (exit 1 when an id is unknown)."""
    engine = _engine(args)
    ids = list(dict.fromkeys(args.ids))
    deleted = engine.delete(args.entity, ids)  # the ids that were stored
    unknown = _unknown_ids(args.entity, ids, set(deleted))
    print(f"deleted {len(deleted)} fact(s) of {args.entity!r}")
    return 1 if unknown else 0


def cmd_entities(args: argparse.Namespace) -> int:
    """``memori entities``: the entities the store holds facts for, one per line, sorted."""
    entities = _engine(args).entities()
    if args.json:
        print(json.dumps(entities, ensure_ascii=False))
    else:
        for entity in entities:
            print(entity)
    if not entities and not args.json:
        print("memori: the store holds no facts", file=sys.stderr)
    return 0


def cmd_count(args: argparse.Namespace) -> int:
    """``memori count``: how many facts an entity has."""
    n = _engine(args).count(args.entity, include_invalid=args.all)
    print(json.dumps({"entity_id": args.entity, "count": n}, ensure_ascii=False) if args.json else n)
    return 0


def cmd_history(args: argparse.Namespace) -> int:
    """``memori history -e ENTITY ID``: a fact's versions, oldest first (exit 1 when the id is unknown)."""
    return _print_for_id(args, lambda: _engine(args).history(args.entity, args.id))


def cmd_restore(args: argparse.Namespace) -> int:
    """``memori restore -e ENTITY ID``: undo a supersede or an update (exit 1 when the id is unknown; a fact that is
    valid already, or a version whose text the fact has, is a usage error)."""
    return _print_for_id(args, lambda: [_engine(args).restore(args.entity, args.id)])


def _print_for_id(args: argparse.Namespace, read: Callable[[], list[StoredFact]]) -> int:
    """Print the facts ``read()`` gives for ``args.id`` (exit 0), or say the entity has no such fact (exit 1)."""
    try:
        facts = read()
    except KeyError:
        _unknown_ids(args.entity, [args.id], set())
        return 1
    _print_facts(facts, args.json)
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    """``memori export``: every fact of an entity as JSON Lines."""
    records = _engine(args).export(args.entity, include_vectors=args.vectors)
    # ASCII JSON (non-ASCII escaped): the same bytes whatever the terminal's or the platform's encoding.
    text = "".join(json.dumps(r, ensure_ascii=True, allow_nan=False) + "\n" for r in records)
    if not records:
        print(f"memori: warning: entity {args.entity!r} has no facts: the export is empty", file=sys.stderr)
    if args.output in (None, "-"):
        sys.stdout.write(text)
        sys.stdout.flush()
    else:
        # Opened only now: a failed export leaves an existing file as it was.
        with open(args.output, "w", encoding="utf-8", newline="\n") as out:
            out.write(text)
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


def _read_input(args: argparse.Namespace) -> str:
    """The import's input as text: ``-i FILE``, else standard input (UTF-8, a BOM is skipped)."""
    if args.input not in (None, "-"):
        with open(args.input, "rb") as f:
            raw = f.read()
        name = args.input
    else:
        if sys.stdin is None or sys.stdin.isatty():
            raise CliError("no input: pipe JSON Lines into standard input (e.g. from `memori export`), "
                           "or pass -i FILE")
        buffer = getattr(sys.stdin, "buffer", None)
        raw = buffer.read() if buffer is not None else sys.stdin.read().encode("utf-8", "surrogateescape")
        name = "standard input"
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise CliError(f"line {line}: {name} is not UTF-8 text (byte {raw[exc.start]:#04x})") from None


def _parse_records(entity: str, text: str) -> tuple[list[dict[str, Any]], list[Any], int]:
    """Every record of the JSON Lines ``text``, validated (``line N: ...`` on the first bad one), with its vector,
    and how many lines repeated an earlier record exactly (left out: imported once, as ``import_`` does)."""
    records: list[dict[str, Any]] = []
    vectors: list[Any] = []
    seen: dict[str, tuple[int, StoredFact, Any, dict[str, Any]]] = {}  # fact id -> its first line, fact, vector, record
    repeats = 0
    # Split on "\n" only: str.splitlines() would also split inside strings holding U+2028 or U+0085.
    for n, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue  # blank lines (a trailing newline, an empty export) hold no record
        try:
            record = json.loads(line)
        except json.JSONDecodeError as exc:
            raise CliError(f"line {n}: not valid JSON: {exc.msg} (column {exc.colno})") from None
        if not isinstance(record, dict):
            raise CliError(f"line {n}: expected a JSON object (one record per line), got {type(record).__name__}")
        text_field = record.get("text")
        default_id = derived_fact_id(text_field) if isinstance(text_field, str) and text_field.strip() else ""
        try:
            fact, vector = from_record(entity, record, len(records), default_id=default_id, default_seq=0, now="")
        except (TypeError, ValueError) as exc:
            raise CliError(f"line {n}: {_record_problem(exc)}") from None
        if fact.id in seen:
            line, first, first_vector, first_record = seen[fact.id]
            differs = repeat_difference((first, first_vector, first_record), (fact, vector, record))
            if differs:
                raise CliError(f"line {n}: " + repeat_problem(f"line {line}", first, first_record, record, differs))
            repeats += 1
            continue
        seen[fact.id] = (n, fact, vector, record)
        records.append(record)
        vectors.append(vector)
    return records, vectors, repeats


def cmd_import(args: argparse.Namespace) -> int:
    """``memori import``: add the records of JSON Lines written by ``memori export``."""
    # Read and validate everything before the store is opened: a bad line writes nothing.
    records, vectors, repeats = _parse_records(args.entity, _read_input(args))
    engine = _engine(args)
    reembed = args.reembed
    dims = {v.shape[0] for v in vectors if v is not None}
    if records and not reembed:
        if any(v is None for v in vectors) or len(dims) != 1:
            reembed = True  # what import_ does anyway: said here so that the summary is right
        else:
            reembed = dims != {engine.vector_dimension()}
    ids = engine.import_(args.entity, records, reembed=reembed, progress=_write_progress(args))
    notes = ["texts embedded" if reembed else "vectors kept"] if ids else []
    if repeats:
        notes.append(f"{repeats} repeated line(s) imported once")
    print(f"imported {len(ids)} fact(s) into {args.entity!r}" + (f" ({'; '.join(notes)})" if notes else ""))
    return 0


def cmd_mcp(args: argparse.Namespace) -> int:
    """``memori mcp``: serve one entity's memory to MCP clients, over stdio or (``--http``) streamable HTTP."""
    from .mcp_server import build_server, check_http_host  # the MCP SDK is imported only here

    if args.entity_header is not None and args.http is None:
        raise CliError("--entity-header needs --http: over stdio the server serves one --entity")
    host, port = args.http if args.http is not None else ("127.0.0.1", 8000)
    if args.http is not None:
        check_http_host(host, args.allow_remote)
    server = build_server(_engine(args, say_config=True), entity=args.entity, entity_header=args.entity_header,
                          host=host, port=port)
    if args.http is None:
        server.run("stdio")
    else:
        who = f"the entity in each request's {args.entity_header} header" if args.entity_header else repr(args.entity)
        print(f"memori mcp: serving {who} at http://{host}:{port}{server.settings.streamable_http_path}",
              file=sys.stderr)
        server.run("streamable-http")
    return 0


def cmd_demo(args: argparse.Namespace) -> int:
    """``memori demo``: seed two users, recall and explain over a temporary embedded store."""
    keep = check_store_path(args.path, creates=True) if args.path else None
    with tempfile.TemporaryDirectory(prefix="memori-demo-") as tmp:
        path = keep or Path(tmp)
        print(f"memori-recall demo: embedded Chroma store at {path}")
        print("loading the local all-MiniLM-L6-v2 embedder...")
        engine = RecallEngine(store=ChromaStore(path=path))
        for user, facts in DEMO_MEMORIES.items():
            engine.add(user, facts)
            print(f"stored {len(facts)} facts for {user!r}")
        for user, question, earlier in DEMO_QUESTIONS:
            print("\n" + "=" * 78)
            for turn in earlier:
                print(f"{user} said: {turn}")
            print(f"{user} asks: {question}")
            print("-" * 78)
            report = engine.explain(question, entity_id=user, context=earlier or None)
            print(report.table())
            block = format_context(report.facts)
            print("\nsystem prompt addition:")
            print(block if block else "(nothing recalled: no fact passed the relevance threshold, so nothing is injected)")
    return 0


# -- the parser: a table of the subcommands over an entity, then mcp, eval and demo -----

Subparsers = Any
"""What ``ArgumentParser.add_subparsers()`` returns (argparse's ``_SubParsersAction``)."""


def _store_options(p: argparse.ArgumentParser, *, creates: bool = False) -> None:
    """--path or --server (not both); ``creates``: the command may create a missing store folder."""
    where = p.add_mutually_exclusive_group()
    where.add_argument("--path", default=None,
                       help=f"embedded store folder (default ${PATH_ENV} or {default_store_path(env=False)})"
                       + ("; created if missing and its parent folder exists" if creates else
                          "; must exist"))
    where.add_argument("--server", default=None, type=_server_address, metavar="HOST:PORT",
                       help="use a `chroma run` server instead of a folder")
    p.add_argument("--timeout", type=_seconds, default=None, metavar="SECONDS",
                   help=f"with --server: seconds each request may take before the command gives up "
                   f"(default {DEFAULT_HTTP_TIMEOUT:g})")
    p.set_defaults(creates_store=creates)


@dataclass(frozen=True)
class _Argument:
    """One ``add_argument`` call of a subcommand: the argument's names and keyword arguments."""

    names: tuple[str, ...]
    options: Mapping[str, Any]

    def add_to(self, parser: argparse.ArgumentParser) -> None:
        """Add this argument to ``parser``."""
        parser.add_argument(*self.names, **self.options)


def _arg(*names: str, **options: Any) -> _Argument:
    """An argument of a subcommand, as ``add_argument(*names, **options)`` would add it."""
    return _Argument(names, options)


def _flag(*names: str, help: str) -> _Argument:
    """An on/off option (``store_true``)."""
    return _arg(*names, action="store_true", help=help)


_QUIET = _flag("--quiet", "-q", help="no progress bar (shown on standard error only when it is a terminal)")
"""``--quiet`` / ``-q`` of a command that adds facts: no progress bar."""

_IDS = _arg("ids", nargs="+", metavar="ID", help="fact ids (from `memori add` or `memori list`)")
"""The fact ids of ``get`` and ``delete``."""

_MEMORI_COMPAT = _flag("--memori-compat", help="upstream Memori's exact ranking")


def _one_id(help: str, *, json: str) -> tuple[_Argument, ...]:
    """The arguments of ``history`` and ``restore``: one fact id, and ``--json`` for the facts printed."""
    return _arg("id", metavar="ID", help=help), _flag("--json", help=json)


@dataclass(frozen=True)
class _EntityCommand:
    """A subcommand over one entity's facts: ``--entity`` / ``-e`` first (``described``: with its help text), then
    its own ``arguments``, then :func:`_store_options` (``creates``: it may create a missing store folder)."""

    name: str
    handler: Callable[[argparse.Namespace], int]
    help: str
    arguments: tuple[_Argument, ...] = ()
    description: str | None = None
    creates: bool = False
    described: bool = True

    def add_to(self, commands: Subparsers) -> None:
        """Add this subcommand to ``commands``."""
        p = commands.add_parser(self.name, help=self.help, description=self.description)
        p.add_argument("--entity", "-e", required=True,
                       help="whose facts (user, agent, ...)" if self.described else None)
        for argument in self.arguments:
            argument.add_to(p)
        p.set_defaults(func=self.handler)
        _store_options(p, creates=self.creates)


_ENTITY_COMMANDS: tuple[_EntityCommand, ...] = (
    _EntityCommand("add", cmd_add, "store facts for an entity", creates=True, described=False, arguments=(
        _arg("facts", nargs="*", help="facts (or one per line on stdin)"),
        _QUIET,
        _flag("--core",
              help="mark the facts core (allergies, medication, diet): recall appends them on every query"),
    )),
    _EntityCommand("recall", cmd_recall, "recall an entity's facts for a query", described=False, arguments=(
        _arg("query", type=_non_blank, help="what to recall facts for, e.g. the user's message (not blank)"),
        _arg("--limit", "-k", type=_int_at_least(1), default=None, metavar="K",
             help="recall at most K facts, besides core facts (K >= 1; default $MEMORI_RECALL_LIMIT, else 5)"),
        _flag("--explain", help="show every candidate's scores"),
        _flag("--json", help="machine-readable output"),
        _MEMORI_COMPAT,
    )),
    _EntityCommand("forget", cmd_forget, "delete every fact of an entity", described=False),
    _EntityCommand(
        "list", cmd_list, "list an entity's stored facts, newest first",
        arguments=(
            _arg("--limit", "-n", type=_int_at_least(1), default=20, metavar="N", help="facts per page (default 20)"),
            _arg("--offset", type=_int_at_least(0), default=0, metavar="N",
                 help="skip the first N facts of the order (default 0)"),
            _arg("--session", type=_non_blank, default=None, metavar="S", help="only the facts of this session_id"),
            _arg("--where", type=_where_json, default=None, metavar="JSON",
                 help='only facts whose metadata matches, e.g. \'{"topic": "food"}\' or '
                 '\'{"topic": {"$in": ["food", "health"]}}\' (keys are ANDed)'),
            _flag("--oldest-first", help="oldest first instead"),
            _flag("--all",
                  help="also the facts no longer valid (superseded, or earlier versions of an updated fact), "
                  "marked [superseded by ID at TIME]"),
            _flag("--json", help="a JSON array of records"),
        ),
        description="List the stored facts of an entity, newest first (by created_at, then order of addition), "
        "one per line: ID, CREATED_AT (UTC, to the second) and TEXT (line breaks shown as \\n); facts past "
        "their expires_at are listed, marked [expired] (recall skips them); core facts are marked [core], facts kept "
        'out of search (metadata "searchable": false, as MemoriStore.put(..., index=False) stores) [not '
        "searchable]; a fact whose text became valid after CREATED_AT (an update, a restore) is marked [valid from "
        "TIME]; facts no longer valid (superseded, earlier versions of an updated fact) only with --all. "
        "When more facts follow the page, "
        "standard error says which --offset shows them; an entity without facts lists nothing (exit 0, a "
        "note on standard error). --json prints a JSON array of records (the fields of `memori export`, "
        "without vectors) and nothing on standard error.",
    ),
    _EntityCommand(
        "get", cmd_get, "show an entity's facts by id",
        arguments=(_IDS, _flag("--json", help="a JSON array of the records found")),
        description="Show the facts of an entity with these ids, in the order given (an id given twice is shown "
        "once), in the format of `memori list`. Ids are scoped per entity: another entity's fact with the same "
        "id is never shown. Each unknown id is reported on standard error and makes the exit code 1; the "
        "facts that were found are still printed.",
    ),
    _EntityCommand(
        "delete", cmd_delete, "delete an entity's facts by id",
        arguments=(_IDS,),
        description="Delete the facts of an entity with these ids (never another entity's, even with the same "
        "id) and print how many were deleted. Like rm: each unknown id is reported on standard error and "
        "makes the exit code 1, and the known ones are deleted anyway. There is no confirmation and no undo "
        "(keep a copy with `memori export` first); `memori forget` deletes every fact of an entity.",
    ),
    _EntityCommand(
        "count", cmd_count, "print how many facts an entity has",
        arguments=(
            _flag("--all",
                  help="count every stored row, facts no longer valid (superseded, earlier versions) included"),
            _flag("--json", help="a JSON object {entity_id, count}"),
        ),
        description="Print the number of valid facts stored for an entity (expired ones included, superseded ones "
        "not: --all counts them; 0 for an entity without facts). --json prints {\"entity_id\": ..., \"count\": N}.",
    ),
    _EntityCommand(
        "history", cmd_history, "show a fact's versions, oldest first",
        arguments=_one_id("the fact's id (from `memori list --all`)", json="a JSON array of records"),
        description="Show the versions of one fact of an entity, oldest first, in the format of `memori list`: "
        "the facts it superseded or that superseded it, and the earlier texts an update kept (ID@vN), "
        "each no longer valid marked [superseded by ID at TIME]; the valid one comes last. An unknown id is "
        "reported on standard error (exit 1). --json prints a JSON array of records.",
    ),
    _EntityCommand(
        "restore", cmd_restore, "undo a supersede or an update of a fact",
        arguments=_one_id("the superseded fact's id, or an earlier version's ID@vN",
                          json="the restored fact as a JSON array of one record"),
        description="Make a superseded fact valid again (the fact that superseded it stays), or give a fact the "
        "text of an earlier version ID@vN (its current text is kept as a version); prints the restored fact in "
        "the format of `memori list`. `memori history` shows the ids. An unknown id is reported on standard "
        "error (exit 1); a fact that is valid already is a usage error (exit 2).",
    ),
    _EntityCommand(
        "export", cmd_export, "write an entity's facts as JSON Lines",
        arguments=(
            _arg("--output", "-o", default=None, metavar="FILE",
                 help="write to FILE (replaced if it exists; written only once the export was read) "
                 "instead of standard output ('-')"),
            _flag("--vectors",
                  help="include the stored embeddings: an import into a store of the same embedder "
                  "then needs no re-embedding (about 8 KB more per fact for MiniLM)"),
        ),
        description="Write every fact of an entity as JSON Lines, one record per line in order of addition: "
        "id, text, created_at, last_seen, times_seen, session_id, seq, metadata, updated_at, expires_at, "
        "valid_from, valid_to, superseded_by, supersedes (and vector with --vectors); superseded facts and earlier "
        "versions included. Records carry no entity: `memori import -e NAME` names it. The JSON is "
        "ASCII (other characters escaped), so the bytes are the same on every platform. To move a user "
        "between stores: `memori export -e u --path A | memori import -e u --server HOST:PORT`. An entity "
        "without facts gives an empty export (exit 0, a warning on standard error).",
    ),
    _EntityCommand(
        "import", cmd_import, "add facts from JSON Lines written by `memori export`", creates=True,
        arguments=(
            _arg("--input", "-i", default=None, metavar="FILE",
                 help="read FILE instead of standard input ('-'); standard input must not be a terminal"),
            _QUIET,
            _flag("--reembed",
                  help="embed the texts even when the records carry usable vectors (e.g. vectors of "
                  "another embedder with the same dimension)"),
        ),
        description="Read JSON Lines written by `memori export` (blank lines are skipped) and store the records "
        "as the entity's facts, keeping their ids, timestamps, sightings and sessions, so that recall over "
        "them is the recall of the export; a record with the id of a stored fact replaces it, and a line that "
        "repeats an earlier one exactly (the same sentence twice) is imported once. Every line is "
        "checked before anything is written: a bad line is reported as `line N: ...` (exit 2) and nothing is "
        "imported. The records' vectors are kept when every record has one and they have the store's "
        "dimension (for an empty store: the embedder's); otherwise, or with --reembed, the texts are embedded "
        "with the local MiniLM. Prints how many facts were imported. An export and an import over the same "
        "folder cannot run in one pipe (one process per folder): go through a file with -o / -i.",
    ),
)
"""The subcommands over one entity's facts, in the order ``memori --help`` lists them."""


def _mcp_parser(commands: Subparsers) -> None:
    p = commands.add_parser(
        "mcp", help="serve an entity's memory to MCP clients (stdio, or streamable HTTP with --http)",
        description=f"Run an MCP server (needs memori-recall[mcp]) whose tools {describe_tools()} "
        "the facts of one entity: --entity, or over HTTP the value of the "
        "request header --entity-header names (set by a gateway that authenticates the user). No tool takes "
        "an entity: a tool call cannot reach another one. Over stdio by default (for a client that starts "
        "the server); --http HOST:PORT serves streamable HTTP at /mcp, on a loopback address unless "
        "--allow-remote is given (the server has no authentication of its own).",
    )
    who = p.add_mutually_exclusive_group(required=True)
    who.add_argument("--entity", "-e", type=_non_blank, help="whose facts every call uses")
    who.add_argument("--entity-header", type=_non_blank, metavar="NAME",
                     help="with --http: take the entity from this request header (e.g. X-Memori-Entity)")
    p.add_argument("--http", type=_server_address, default=None, metavar="HOST:PORT",
                   help="serve streamable HTTP here instead of stdio, e.g. 127.0.0.1:8765")
    p.add_argument("--allow-remote", action="store_true",
                   help="let --http listen on an address other than loopback")
    _MEMORI_COMPAT.add_to(p)
    p.set_defaults(func=cmd_mcp)
    _store_options(p, creates=True)


def _entities_parser(commands: Subparsers) -> None:
    p = commands.add_parser(
        "entities", help="list the entities (users) the store holds facts for",
        description="Print the id of every entity with at least one stored fact (superseded facts count), "
        "sorted, one per line; a forgotten entity is not listed. Reads the whole store. For backups and "
        "migrations (`memori entities --path A | while read -r u; do memori export -e \"$u\" --path A -o "
        "\"$u.jsonl\"; done`) and erasure audits. --json prints a JSON array (exact for ids holding line "
        "breaks). An empty store lists nothing (exit 0, a note on standard error).",
    )
    p.add_argument("--json", action="store_true", help="a JSON array of entity ids")
    p.set_defaults(func=cmd_entities)
    _store_options(p)


def _demo_parser(commands: Subparsers) -> None:
    p = commands.add_parser("demo", help="seed two users, recall, explain (temporary embedded store)")
    p.add_argument("--path", default=None,
                   help="keep the demo store in this folder (created if missing and its parent folder exists)")
    p.set_defaults(func=cmd_demo)


_COMMANDS: tuple[Callable[[Subparsers], None], ...] = (
    *(command.add_to for command in _ENTITY_COMMANDS), _entities_parser, _mcp_parser, add_eval_command,
    _demo_parser,
)
"""The subcommands, in the order ``memori --help`` lists them."""


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``memori`` command."""
    parser = _Parser(prog="memori", description="Long-term memory recall over Chroma.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    commands = parser.add_subparsers(dest="command", required=True)
    for add_command in _COMMANDS:
        add_command(commands)
    for command in _subcommands(parser):
        command.set_defaults(_subparser=command)  # leftover arguments are reported with this command's usage
    return parser


def _subcommands(parser: argparse.ArgumentParser) -> list[argparse.ArgumentParser]:
    """Every subcommand's parser under ``parser``, nested ones (``eval locomo``) after their parent."""
    found: list[argparse.ArgumentParser] = []
    for action in parser._actions:  # noqa: SLF001 - argparse has no public list of subparsers
        if isinstance(action, argparse._SubParsersAction):  # noqa: SLF001
            for choice in dict.fromkeys(action.choices.values()):
                found += [choice, *_subcommands(choice)]
    return found


def _server_errors() -> tuple[type[BaseException], ...]:
    """A Chroma server's transport failures (httpx's: a timeout, a connection dropped mid-command), reported by
    :func:`_server_problem` instead of a traceback."""
    try:
        import httpx
    except ImportError:  # pragma: no cover - httpx comes with chromadb
        return ()
    return (httpx.TransportError,)


def _server_problem(args: argparse.Namespace, exc: BaseException) -> str:
    """What went wrong with the ``--server`` for a person: which server, and for a timeout the time limit."""
    import httpx

    where = f"the Chroma server at {server_url(*args.server, False)}" if getattr(args, "server", None) else \
        "the Chroma server"
    if isinstance(exc, httpx.TimeoutException):
        return (f"{where} did not answer within {_server_timeout(args):g} s (is it stopped or overloaded?); "
                "--timeout SECONDS sets the limit")
    return f"{where} failed: {exc or type(exc).__name__}"


def _errors() -> tuple[type[BaseException], ...]:
    """Exceptions reported as ``memori: error: ...`` instead of a traceback."""
    return (TypeError, ValueError, RuntimeError, OSError, sqlite3.Error, *chroma_errors())


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``memori`` console script."""
    parser = build_parser()
    args, extra = parser.parse_known_args(argv)
    if extra:
        getattr(args, "_subparser", parser).error(f"unrecognized arguments: {' '.join(extra)}")
    try:
        if hasattr(args, "creates_store"):  # a command over a store: check the folder before any work
            if args.timeout is not None and not args.server:
                raise CliError("--timeout needs --server: it limits the requests to a Chroma server "
                               "(an embedded store has no time limit)")
            args.store_path = None if args.server else check_store_path(args.path, creates=args.creates_store)
        return int(args.func(args))
    except BrokenPipeError:
        # The reader of standard output went away (`memori list | head -1`): stop quietly.
        _silence_stdout()
        return 1
    except _server_errors() as exc:
        print(f"memori: error: {_server_problem(args, exc)}", file=sys.stderr)
        return 2
    except _errors() as exc:
        print(f"memori: error: {exc}", file=sys.stderr)
        return 2
    finally:
        _close_stores(args)


def _silence_stdout() -> None:
    """Point standard output at the null device, so that flushing it at exit does not fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # not a real file (e.g. captured in tests)
        pass


if __name__ == "__main__":
    raise SystemExit(main())
