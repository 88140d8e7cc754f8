"""The parser of the ``memori`` command: the subcommands over one entity's facts are rows of one table
(:data:`_ENTITY_COMMANDS`), then ``entities``, ``stats``, ``mcp``, ``eval`` (:mod:`memori_core.evaluation.cli`) and
``demo``; every subcommand is a :class:`~memori_core.argspec.Command`, and one over a store takes ``--path`` or
``--server`` (:func:`_store_options`). Every mistake argparse finds is reported as ``memori: error: ...``
after the usage of the (sub)command given.

``mcp`` and ``eval`` are declared in full only for a command line that names them (:class:`_DeclaredWhenNamed`):
their declarations import the MCP tools and the capture code, which the other commands do not run."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import NoReturn

from .._version import __version__
from ..argspec import Argument, Command, OneOf, Subparsers, arg, flag
from ..store.chroma_paths import PATH_ENV, default_store_path
from ..store.chroma_client import DEFAULT_HTTP_TIMEOUT
from .demo import cmd_demo
from .fact_commands import (
    cmd_add,
    cmd_cancel,
    cmd_count,
    cmd_delete,
    cmd_entities,
    cmd_forget,
    cmd_get,
    cmd_history,
    cmd_list,
    cmd_recall,
    cmd_restore,
    cmd_stats,
    cmd_update,
)
from .mcp_command import cmd_mcp
from .transfer import cmd_export, cmd_import
from .values import (
    chroma_server,
    created_time,
    entity_id,
    expiry,
    int_at_least,
    metadata_key,
    metadata_pair,
    non_blank,
    seconds,
    server_address,
    timestamp,
    where_json,
)


EXIT_CODES = (
    "Exit codes, one convention for every command: 0 done (a list, export or recall of an entity without facts is "
    "done too: it shows nothing and says so on standard error; count prints 0); 1 the store does not hold what the "
    "command names, or holds it as asked already: an unknown fact ID (get, update, delete, history, restore, add "
    "--supersedes), an entity without facts to forget, nothing to restore (standard error says which, and names the "
    "store's entities spelled like an entity without facts; get and delete still handle the IDs found, the others "
    "change nothing), and also a reader of standard output that went away (`memori list | head -1`); 2 a mistake in "
    "the command line (an unknown option, a bad value, options that contradict each other, an earlier version's ID@vN "
    "given to update) or a store that could not be used (a missing, unwritable or busy folder, a server that does not "
    "answer): nothing was done."
)
"""The epilog of ``memori --help``: what each exit code means."""


class _Parser(argparse.ArgumentParser):
    """argparse with one error prefix, ``memori: error:``, for the command and every subcommand."""

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        self.exit(2, f"memori: error: {message}\n")


def _store_options(p: argparse.ArgumentParser, *, creates: bool = False) -> None:
    """--path or --server (not both); ``creates``: the command may create a missing store folder. Made with the
    parser: the help names the default folder of the user running the command."""
    where = p.add_mutually_exclusive_group()
    where.add_argument("--path", default=None,
                       help=f"embedded store folder (default ${PATH_ENV} or {default_store_path(env=False)})"
                       + ("; created if missing and its parent folder exists" if creates else
                          "; must exist"))
    where.add_argument("--server", default=None, type=chroma_server, metavar="HOST:PORT",
                       help="use a `chroma run` server instead of a folder (HOST:PORT, or a URL: "
                       "http://HOST:PORT, https://HOST)")
    p.add_argument("--timeout", type=seconds, default=None, metavar="SECONDS",
                   help=f"with --server: seconds each request may take before the command gives up "
                   f"(default {DEFAULT_HTTP_TIMEOUT:g})")
    p.set_defaults(creates_store=creates)


@dataclass(frozen=True)
class _OverStore:
    """A subcommand over a store: its ``command``'s arguments, then :func:`_store_options` (``creates``: it may
    create a missing store folder)."""

    command: Command
    creates: bool = False

    def add_to(self, commands: Subparsers) -> None:
        """Add this subcommand to ``commands``."""
        _store_options(self.command.add_to(commands), creates=self.creates)


def _entity_command(
    name: str, handler: Callable[[argparse.Namespace], int], help: str, *,
    arguments: tuple[Argument | OneOf, ...] = (),
    description: str | None = None, creates: bool = False, described: bool = True,
) -> _OverStore:
    """A subcommand over one entity's facts: ``--entity`` / ``-e`` first (``described``: with its help text), then
    its own ``arguments``, then the store options."""
    entity = arg("--entity", "-e", type=entity_id, required=True,
                 help="whose facts (user, agent, ...)" if described else None)
    return _OverStore(Command(name, handler, help, description, (entity, *arguments)), creates=creates)


_QUIET = flag("--quiet", "-q", help="no progress bar (shown on standard error only when it is a terminal)")
"""``--quiet`` / ``-q`` of a command that adds facts: no progress bar."""

_IDS = arg("ids", nargs="+", metavar="ID", help="fact ids (from `memori add` or `memori list`)")
"""The fact ids of ``get`` and ``delete``."""

def _told_at(what: str) -> Argument:
    """``--at WHEN`` of a write told at a time of its own (``update``, ``delete``, ``restore``), parsed as
    ``cancel``'s."""
    return arg("--at", type=timestamp, default=None, metavar="WHEN",
               help=f"when the {what} was told (ISO 8601; no zone: UTC; default: now), for a conversation replayed "
               "later")


def _told_by(what: str) -> Argument:
    """``--told-by ID`` of a write that ends a change to come (``delete``, ``update --expire-now``), as
    ``cancel``'s."""
    return arg("--told-by", action="append", default=None, metavar="ID",
               help=f"a fact that told the change to come {what} (the plan), ended in the same write (repeatable)")


_MEMORI_COMPAT = flag("--memori-compat", help="upstream Memori's exact ranking")

_EXPIRES = arg("--expires", type=expiry, default=None, metavar="WHEN",
               help="when the facts stop being recalled: an ISO 8601 date or time (no zone: UTC), or a duration "
               "from now (90m, 12h, 30d, 2w)")
"""``--expires`` of ``add`` and ``update``."""

_METADATA = arg("--metadata", type=metadata_pair, action="append", default=None, metavar="KEY=VALUE",
                help="a metadata key and value (repeatable; VALUE is JSON when it parses as JSON: 2, true, "
                '\'"2"\', else text), e.g. --metadata topic=food; `memori list --where` filters on it')
"""``--metadata`` of ``add`` and ``update``."""


_WHERE = arg("--where", type=where_json, default=None, metavar="JSON",
              help='only facts whose metadata or times match a JSON filter, the API\'s where=, e.g. '
              '\'{"topic": "food"}\', \'{"topic": {"$in": ["food", "health"]}}\' or '
              '\'{"created_at": {"$gte": "2026-03-01"}}\' (keys are ANDed)')
"""``--where`` of ``list`` and ``recall``: checked as the engine checks ``where=``."""


def _one_id(help: str, *, json: str) -> tuple[Argument, ...]:
    """The arguments of ``history`` and ``restore``: one fact id, and ``--json`` for the facts printed."""
    return arg("id", metavar="ID", help=help), flag("--json", help=json)


_ENTITY_COMMANDS: tuple[_OverStore, ...] = (
    _entity_command("add", cmd_add, "store facts for an entity", creates=True, described=False, arguments=(
        arg("facts", nargs="*", help="facts (or one per line on stdin)"),
        _QUIET,
        flag("--id-only", help="print only each fact's id, one a line, as ID=$(memori add ...) needs (default: the "
             "id, two spaces, the text)"),
        flag("--core",
             help="mark the facts core (allergies, medication, diet): recall appends them on every query"),
        arg("--supersedes", action="append", default=None, metavar="ID",
            help="a stored fact of the entity the new facts replace (repeatable): kept as history, no longer "
            "recalled (`memori history` shows it, `memori restore` undoes it); an unknown ID adds nothing (exit 1)"),
        arg("--created-at", type=created_time, default=None, metavar="WHEN",
            help="when the facts were said (ISO 8601; no zone: UTC; default now; at most a day ahead)"),
        _EXPIRES,
        _METADATA,
    )),
    _entity_command("recall", cmd_recall, "recall an entity's facts for a query", described=False, arguments=(
        arg("query", type=non_blank, help="what to recall facts for, e.g. the user's message (not blank)"),
        arg("--limit", "-k", type=int_at_least(1), default=None, metavar="K",
            help="recall at most K facts, besides core facts (K >= 1; default $MEMORI_RECALL_LIMIT, else 5)"),
        arg("--as-of", type=timestamp, default=None, metavar="WHEN",
            help="recall the facts valid at WHEN instead of now (ISO 8601: 2024-05-01, 2024-05-01T12:00:00Z; "
            "no zone: UTC; a date alone: its start, 00:00 UTC): created by then, not yet superseded or expired"),
        _WHERE,
        flag("--explain", help="show every candidate's scores"),
        flag("--json", help="machine-readable output"),
        _MEMORI_COMPAT,
    )),
    _entity_command(
        "forget", cmd_forget, "delete every fact of an entity (no undo)", described=False,
        arguments=(flag("--dry-run", help="only print how many facts would be deleted"),),
        description="Delete every fact of an entity, its history (superseded facts, earlier versions) included, "
        "at once and for good: there is no confirmation and no undo (keep a copy with `memori export` first; "
        "--dry-run prints how many facts would go and deletes nothing). Prints how many valid facts were "
        "forgotten, and how many superseded facts or earlier versions went with them. An entity without facts in "
        "the store (a typo?) deletes nothing and is reported on standard error with the store's entities spelled "
        "like it (exit 1).",
    ),
    _entity_command(
        "list", cmd_list, "list an entity's stored facts, newest first",
        arguments=(
            arg("--limit", "-n", type=int_at_least(1), default=20, metavar="N", help="facts per page (default 20)"),
            arg("--offset", type=int_at_least(0), default=0, metavar="N",
                help="skip the first N facts of the order (default 0)"),
            arg("--session", type=non_blank, default=None, metavar="S", help="only the facts of this session_id"),
            _WHERE,
            flag("--oldest-first", help="oldest first instead"),
            flag("--all",
                 help="also the facts no longer valid (superseded, or earlier versions of an updated fact), "
                 "marked [superseded by ID at TIME]"),
            flag("--json", help="a JSON array of records"),
        ),
        description="List the stored facts of an entity, newest first (by created_at, then order of addition), "
        "one per line: ID, CREATED_AT (UTC, to the second) and TEXT (line breaks shown as \\n); facts past "
        "their expires_at are listed, marked [expired] (recall skips them); core facts are marked [core], facts kept "
        'out of search (metadata "searchable": false, as MemoriStore.put(..., index=False) stores) [not '
        "searchable]; a fact valid since a time later than CREATED_AT (an update, a restore, said again) is marked "
        "[valid from TIME]; facts no longer valid (superseded, earlier versions of an updated fact) only with --all. "
        "When more facts follow the page, "
        "standard error says which --offset shows them; an entity without facts lists nothing (exit 0, a "
        "note on standard error naming the store's entities spelled like it). --json prints a JSON array of "
        "records (the fields of `memori export`, without vectors) and nothing on standard error.",
    ),
    _entity_command(
        "get", cmd_get, "show an entity's facts by id",
        arguments=(_IDS, flag("--json", help="a JSON array of the records found")),
        description="Show the facts of an entity with these ids, in the order given (an id given twice is shown "
        "once), in the format of `memori list`. Ids are scoped per entity: another entity's fact with the same "
        "id is never shown. Each unknown id is reported on standard error and makes the exit code 1; the "
        "facts that were found are still printed.",
    ),
    _entity_command(
        "delete", cmd_delete, "delete an entity's facts by id",
        arguments=(_IDS, _told_by("it deletes"), _told_at("delete")),
        description="Delete the facts of an entity with these ids (never another entity's, even with the same "
        "id) and print how many were deleted. Like rm: each unknown id is reported on standard error and "
        "makes the exit code 1, and the known ones are deleted anyway. There is no confirmation and no undo "
        "(keep a copy with `memori export` first); `memori forget` deletes every fact of an entity.",
    ),
    _entity_command(
        "count", cmd_count, "print how many facts an entity has",
        arguments=(
            flag("--all",
                 help="count every stored row, facts no longer valid (superseded, earlier versions) included"),
            flag("--unexpired", help="leave out facts past their expiry: count what recall could return now"),
            flag("--json", help="a JSON object {entity_id, count}"),
        ),
        description="Print the number of valid facts stored for an entity, as `memori list` lists them (expired "
        "ones included: --unexpired leaves them out; superseded ones not: --all counts them; 0 for an entity "
        "without facts). --json prints {\"entity_id\": ..., \"count\": N}.",
    ),
    _entity_command(
        "update", cmd_update, "edit one fact: its text, metadata, expiry or core mark",
        arguments=(
            arg("id", metavar="ID", help="the fact's id (from `memori add` or `memori list`)"),
            arg("--text", type=non_blank, default=None, help="the fact's new text (re-embedded; the old text is kept "
                "as a version ID@vN: `memori history` shows it, `memori restore` undoes the update)"),
            _METADATA,
            arg("--drop-metadata", type=metadata_key, action="append", default=None, metavar="KEY",
                help="remove this metadata key (repeatable)"),
            OneOf((_EXPIRES, flag("--no-expiry", help="the fact never expires"),
                   flag("--expire-now", help="the fact expires now: recall no longer returns it, it stays listed "
                        "(an earlier expiry is kept)"))),
            OneOf((
                arg("--core", action="store_const", const=True, default=None,
                    help="mark the fact core (recalled on every query)"),
                arg("--not-core", dest="core", action="store_const", const=False, help="unmark it"),
            )),
            _told_by("it expires (with --expire-now)"),
            _told_at("edit"),
            flag("--json", help="the updated fact as a JSON array of one record"),
        ),
        description="Edit one fact of an entity in place and print it in the format of `memori list`: --text "
        "replaces its text (its id stays; the old text is kept as a version, and `memori restore ID@vN` brings it "
        "back), --metadata KEY=VALUE sets keys and --drop-metadata KEY removes them (the other keys are kept), "
        "--expires / --no-expiry sets or clears the expiry (--expires must come after the fact's creation: "
        "--expire-now ends it at once), --core / --not-core marks or unmarks it. An unknown "
        "id is reported on standard error (exit 1); the id of an earlier version (ID@vN) is a usage error (exit 2).",
    ),
    _entity_command(
        "history", cmd_history, "show a fact's versions, oldest first",
        arguments=_one_id("the fact's id (from `memori list --all`)", json="a JSON array of records"),
        description="Show the versions of one fact of an entity, oldest first, in the format of `memori list`: "
        "the facts it superseded or that superseded it, and the earlier texts an update kept (ID@vN), "
        "each no longer valid marked [superseded by ID at TIME]; the valid one comes last. An unknown id is "
        "reported on standard error (exit 1). --json prints a JSON array of records.",
    ),
    _entity_command(
        "restore", cmd_restore, "undo a supersede or an update of a fact",
        arguments=(*_one_id("the superseded fact's id, or an earlier version's ID@vN",
                            json="the restored fact as a JSON array of one record"), _told_at("restore")),
        description="Make a superseded fact valid again (the fact that superseded it stays valid too, so both are "
        "current: `memori delete` it if it is wrong), or give a fact the "
        "text of an earlier version ID@vN (its current text is kept as a version); prints the restored fact in "
        "the format of `memori list`. `memori history` shows the ids. An unknown id, or nothing to restore (a fact "
        "that is valid already, a version whose text the fact has), is reported on standard error (exit 1).",
    ),
    _entity_command(
        "cancel", cmd_cancel, "call off a change told ahead before its start",
        arguments=(
            *_one_id("the id of the change to come (a fact added with a start ahead, valid_from)",
                     json="the called-off fact as a JSON array of one record"),
            arg("--told-by", action="append", default=None, metavar="ID",
                help="a fact that told the change (the plan), ended in the same write (repeatable)"),
            arg("--at", type=timestamp, default=None, metavar="WHEN",
                help="when it was called off (ISO 8601; no zone: UTC; default: now): the change must still be to "
                "come then, and told by then"),
        ),
        description="Call off a change told ahead (added with a start ahead) before it starts: it ends now, "
        "valid at no time (kept as history), and the facts it was to replace hold on with no end; --told-by "
        "ends the facts that told it in the same write. Prints the called-off fact in the format of `memori "
        "list`. An unknown id, or no change to come (one that started, or never told ahead), is reported on "
        "standard error (exit 1).",
    ),
    _entity_command(
        "export", cmd_export, "write an entity's facts as JSON Lines",
        arguments=(
            arg("--output", "-o", default=None, metavar="FILE",
                help="write to FILE (replaced if it exists; written only once the export was read) "
                "instead of standard output ('-')"),
            flag("--vectors",
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
    _entity_command(
        "import", cmd_import, "add facts from JSON Lines written by `memori export`", creates=True,
        arguments=(
            arg("--input", "-i", default=None, metavar="FILE",
                help="read FILE instead of standard input ('-'); standard input must not be a terminal"),
           _QUIET,
            flag("--reembed",
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




_ENTITIES = _OverStore(Command(
    "entities", cmd_entities, "list the entities (users) the store holds facts for",
    description="Print the id of every entity with at least one stored fact (superseded facts count), "
    "sorted, one per line; a forgotten entity is not listed. Reads the whole store. For backups and "
    "migrations (`memori entities --path A | while read -r u; do memori export -e \"$u\" --path A -o "
    "\"$u.jsonl\"; done`) and erasure audits. --json prints a JSON array (exact for ids holding line "
    "breaks). An empty store lists nothing (exit 0, a note on standard error).",
    arguments=(flag("--json", help="a JSON array of entity ids"),),
))

_STATS = _OverStore(Command(
    "stats", cmd_stats, "count a store's entities and facts by state (or one entity's)",
    description="Print how many entities the store holds and its stored facts by state, one `KEY VALUE` per "
    "line: rows (every stored row), valid (recall may return them), expired (past their expires_at, stored "
    "until deleted), superseded (no longer valid: superseded, or earlier versions an update kept; valid + "
    "expired + superseded = rows) and core (the valid facts marked core). With -e, one entity's (entity_id "
    "instead of entities; 0 everywhere for an entity without facts). --json prints one JSON object of the same "
    "keys. Reads every row of every entity: an operator's command, not one for a request path.",
    arguments=(
        arg("--entity", "-e", type=entity_id, default=None, help="only this entity's facts"),
        flag("--json", help="one JSON object"),
    ),
))


def _add_mcp(commands: Subparsers, help: str) -> None:
    """Add ``memori mcp`` in full (its description names the MCP tools)."""
    from ..mcp_server import DEFAULT_TOOL_TIMEOUT, describe_tools  # the MCP SDK itself is imported only by cmd_mcp

    _OverStore(Command(
        "mcp", cmd_mcp, help,
        description=f"Run an MCP server (needs memori-recall[mcp]) whose tools {describe_tools()} "
        "the facts of one entity: --entity, or over HTTP the value of the "
        "request header --entity-header names (set by a gateway that authenticates the user). No tool takes "
        "an entity: a tool call cannot reach another one. Over stdio by default (for a client that starts "
        "the server); --http HOST:PORT serves streamable HTTP at /mcp, on a loopback address unless "
        "--allow-remote is given (the server has no authentication of its own).",
        arguments=(
            OneOf((
                arg("--entity", "-e", type=entity_id, help="whose facts every call uses"),
                arg("--entity-header", type=non_blank, metavar="NAME",
                    help="with --http: take the entity from this request header (e.g. X-Memori-Entity); a request "
                         "carrying it twice or with a comma-separated value is refused"),
            ), required=True),
            arg("--http", type=server_address, default=None, metavar="HOST:PORT",
                help="serve streamable HTTP here instead of stdio, e.g. 127.0.0.1:8765"),
            flag("--allow-remote", help="let --http listen on an address other than loopback"),
            arg("--tool-timeout", type=seconds, default=DEFAULT_TOOL_TIMEOUT, metavar="SECONDS",
                help=f"seconds one tool call may take before the client gets an error saying so (default "
                     f"{DEFAULT_TOOL_TIMEOUT:g}; --timeout limits each request to a --server)"),
            _MEMORI_COMPAT,
        ),
    ), creates=True).add_to(commands)


def _add_eval(commands: Subparsers, help: str) -> None:
    """Add ``memori eval`` in full: its tasks (:mod:`memori_core.evaluation.cli`)."""
    from ..evaluation.cli import add_eval_tasks

    add_eval_tasks(commands.add_parser("eval", help=help))


@dataclass(frozen=True)
class _DeclaredWhenNamed:
    """A subcommand whose declaration imports code the other subcommands do not run: declared in full (``declare``,
    given the subparsers and ``help``) for a command line that names it, else as its ``name`` and one-line ``help``
    alone, which is all ``memori --help`` shows of it."""

    name: str
    help: str
    declare: Callable[[Subparsers, str], None]

    def add_to(self, commands: Subparsers, named: str | None) -> None:
        """Add this subcommand to ``commands``, in full when ``named`` is its name or ``None``."""
        if named is None or named == self.name:
            self.declare(commands, self.help)
        else:
            commands.add_parser(self.name, help=self.help)

_DEMO = Command(
    "demo", cmd_demo, "seed two users, recall, explain (temporary embedded store)",
    arguments=(arg("--path", default=None,
                   help="keep the demo store in this folder (created if missing and its parent folder exists)"),),
)

_COMMANDS: tuple[_OverStore | Command | _DeclaredWhenNamed, ...] = (
    *_ENTITY_COMMANDS, _ENTITIES, _STATS,
    _DeclaredWhenNamed(
        "mcp", "serve an entity's memory to MCP clients (stdio, or streamable HTTP with --http)", _add_mcp),
    _DeclaredWhenNamed("eval", "measure recall quality on a benchmark file", _add_eval),
    _DEMO,
)
"""The subcommands, in the order ``memori --help`` lists them."""


def build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The argument parser of the ``memori`` command. ``argv``: the command line it will parse, when known; a
    subcommand it does not name whose declaration is costly to import (``mcp``, ``eval``) is then declared by its
    name and help alone."""
    named = None if argv is None else next((a for a in argv if not a.startswith("-")), "")
    parser = _Parser(prog="memori", description="Long-term memory recall over Chroma.", epilog=EXIT_CODES)
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    commands = parser.add_subparsers(dest="command", required=True)
    for command in _COMMANDS:
        if isinstance(command, _DeclaredWhenNamed):
            command.add_to(commands, named)
        else:
            command.add_to(commands)
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
