"""The ``memori`` command: add, recall, forget, eval, demo.

Every mistake is reported as ``memori: error: ...`` with exit code 2, after the
usage of the (sub)command that was given when argparse finds it. Where the
embedded store lives: ``--path``, else ``$MEMORI_RECALL_PATH``, else the
user's data folder. Only a command that writes (``add``, ``demo --path``)
creates a missing store folder, and only when its parent folder exists (the
default location is created with its parents); the others refuse a folder
that does not exist, so a mistyped path is never silently created.
"""

from __future__ import annotations

import argparse
import json
import os
import sqlite3
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from . import __version__
from .config import RecallConfig
from .context import format_context
from .engine import RecallEngine
from .store.chroma import PATH_ENV, ChromaStore, default_store_path

if TYPE_CHECKING:
    from .evaluation import Memory

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

DEMO_QUESTIONS: list[tuple[str, str]] = [
    ("alice", "Which snacks should I avoid because of my allergies?"),
    ("alice", "Plan a training week for my race."),
    ("alice", "marathon"),
    ("alice", "日本語"),
    ("bob", "What should I cook for dinner tonight?"),
    ("bob", "What's the capital of Australia?"),
]


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
    elif os.environ.get(PATH_ENV):
        option, folder = f"${PATH_ENV}", default_store_path()
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
        return ChromaStore.http(host=host, port=port)
    return ChromaStore(path=args.store_path)


def _engine(args: argparse.Namespace) -> RecallEngine:
    config = RecallConfig.memori_compat() if getattr(args, "memori_compat", False) else RecallConfig.from_env()
    return RecallEngine(store=_store(args), config=config)


def cmd_add(args: argparse.Namespace) -> int:
    facts = list(args.facts)
    if not facts and not sys.stdin.isatty():
        facts = [line.strip() for line in sys.stdin if line.strip()]
    if not facts:
        raise CliError("no facts to add: give them as arguments, or one per line on standard input")
    ids = _engine(args).add(args.entity, facts)
    for fid, fact in zip(ids, facts):
        print(f"{fid}  {fact}")
    return 0


def cmd_recall(args: argparse.Namespace) -> int:
    engine = _engine(args)
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
    engine = _engine(args)
    before = engine.count(args.entity)
    engine.forget(args.entity)
    print(f"forgot {before} fact(s) of {args.entity!r}")
    return 0


def cmd_demo(args: argparse.Namespace) -> int:
    keep = check_store_path(args.path, creates=True) if args.path else None
    with tempfile.TemporaryDirectory(prefix="memori-demo-") as tmp:
        path = keep or Path(tmp)
        print(f"memori-recall demo: embedded Chroma store at {path}")
        print("loading the local all-MiniLM-L6-v2 embedder...")
        engine = RecallEngine(store=ChromaStore(path=path))
        for user, facts in DEMO_MEMORIES.items():
            engine.add(user, facts)
            print(f"stored {len(facts)} facts for {user!r}")
        for user, question in DEMO_QUESTIONS:
            print("\n" + "=" * 78)
            print(f"{user} asks: {question}")
            print("-" * 78)
            report = engine.explain(question, entity_id=user)
            print(report.table())
            block = format_context(report.facts)
            print("\nsystem prompt addition:")
            print(block if block else "(nothing recalled: no fact passed the relevance threshold, so nothing is injected)")
    return 0


def _eval_run(args: argparse.Namespace, task: str, memories: list[Memory],
              category_labels: dict[str, str] | None = None, short_queries: bool = False) -> dict[str, Any]:
    """Evaluate ``memories``, print the tables, write ``--json``; returns the metrics dict."""
    from .evaluation import count, evaluate, format_table, load_embedder, progress_bar

    if args.limit < 1:
        raise ValueError(f"--limit must be >= 1, got {args.limit}")
    n = count(memories)
    print(f"{task}: {n['memories']} memories, {n['facts']} facts, {n['answerable']} questions with evidence, "
          f"{n['abstention']} abstention questions; limit {args.limit}", file=sys.stderr)
    if not args.quiet:
        print(f"loading the embedder {args.embedder!r}...", file=sys.stderr, flush=True)
    embedder = load_embedder(args.embedder)
    result = {"task": task, **evaluate(
        memories,
        config=RecallConfig.from_env(),  # the shipped config, with any MEMORI_RECALL_* overrides
        embedder=embedder,
        limit=args.limit,
        short_queries=short_queries,
        category_labels=category_labels,
        progress=None if args.quiet else progress_bar,
    )}
    print(format_table(result))
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=2), encoding="utf-8")
        print(f"\nwrote {args.json}", file=sys.stderr)
    return result


def cmd_eval_locomo(args: argparse.Namespace) -> int:
    from .evaluation import CATEGORY_LABELS, conversation_memory, load_locomo

    conversations = load_locomo(args.file)
    if args.conversations:
        wanted = set(args.conversations.split(","))
        conversations = [c for c in conversations if c.sample_id in wanted]
        if not conversations:
            raise ValueError(f"no conversation matches --conversations {args.conversations!r}")
    memories = [conversation_memory(c) for c in conversations]
    result = _eval_run(args, "locomo", memories, CATEGORY_LABELS, short_queries=args.short_queries)
    if args.details_json:
        extras = {k: result[k] for k in ("threshold", "short_queries") if k in result}
        Path(args.details_json).write_text(json.dumps(extras, indent=2), encoding="utf-8")
        print(f"wrote {args.details_json}", file=sys.stderr)
    return 0


def cmd_eval_memory(args: argparse.Namespace) -> int:
    from .evaluation import load_memory

    _eval_run(args, "memory", load_memory(args.file))
    return 0


def cmd_eval_prefeval(args: argparse.Namespace) -> int:
    from .evaluation import load_prefeval

    _eval_run(args, "prefeval", load_prefeval(args.file))
    return 0


def _eval_options(p: argparse.ArgumentParser) -> None:
    """Options every ``memori eval`` task takes."""
    p.add_argument("--json", default=None, metavar="FILE", help="also write the metrics as JSON")
    p.add_argument("--embedder", default="minilm", help="'minilm' (default) or 'module:attribute'")
    p.add_argument("--limit", type=int, default=5,
                   help="facts recall() returns per question, for the injection table (default 5; "
                   "rankings are always scored on their top 10)")
    p.add_argument("--quiet", action="store_true", help="no progress on standard error")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``memori`` command."""
    parser = _Parser(prog="memori", description="Long-term memory recall over Chroma.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)

    def store_opts(p: argparse.ArgumentParser, *, creates: bool = False) -> None:
        """--path or --server (not both); ``creates``: the command may create a missing store folder."""
        where = p.add_mutually_exclusive_group()
        where.add_argument("--path", default=None,
                           help=f"embedded store folder (default ${PATH_ENV} or {default_store_path()})"
                           + ("; created if missing and its parent folder exists" if creates else
                              "; must exist"))
        where.add_argument("--server", default=None, type=_server_address, metavar="HOST:PORT",
                           help="use a `chroma run` server instead of a folder")
        p.set_defaults(creates_store=creates)

    p_add = sub.add_parser("add", help="store facts for an entity")
    p_add.add_argument("--entity", "-e", required=True)
    p_add.add_argument("facts", nargs="*", help="facts (or one per line on stdin)")
    store_opts(p_add, creates=True)
    p_add.set_defaults(func=cmd_add)

    p_recall = sub.add_parser("recall", help="recall an entity's facts for a query")
    p_recall.add_argument("--entity", "-e", required=True)
    p_recall.add_argument("query")
    p_recall.add_argument("--limit", "-k", type=int, default=None)
    p_recall.add_argument("--explain", action="store_true", help="show every candidate's scores")
    p_recall.add_argument("--json", action="store_true", help="machine-readable output")
    p_recall.add_argument("--memori-compat", action="store_true", help="upstream Memori's exact ranking")
    store_opts(p_recall)
    p_recall.set_defaults(func=cmd_recall)

    p_forget = sub.add_parser("forget", help="delete every fact of an entity")
    p_forget.add_argument("--entity", "-e", required=True)
    store_opts(p_forget)
    p_forget.set_defaults(func=cmd_forget)

    p_eval = sub.add_parser("eval", help="measure recall quality on a benchmark file")
    eval_sub = p_eval.add_subparsers(dest="benchmark", required=True)
    shipped = ("The shipped config is RecallConfig.from_env(): MEMORI_RECALL_* variables "
               "(e.g. MEMORI_RECALL_NEIGHBOUR_WEIGHT=0.5) let you measure other settings.")
    p_locomo = eval_sub.add_parser(
        "locomo",
        help="LoCoMo-format conversations: rankings (R@5, R@10, nDCG@10 per category) and injection",
        description="Each conversation is a memory, each turn a fact, each question with evidence a query. "
        + shipped,
    )
    p_locomo.add_argument("file", help="a JSON file in LoCoMo's format (e.g. locomo10.json)")
    _eval_options(p_locomo)
    p_locomo.add_argument("--details-json", default=None, metavar="FILE",
                          help="write the threshold calibration and short-query results as JSON")
    p_locomo.add_argument("--conversations", default=None, help="comma-separated sample ids to keep")
    p_locomo.add_argument("--short-queries", action="store_true",
                          help="also compare default vs Memori ranking on 1- and 2-word queries")
    p_locomo.set_defaults(func=cmd_eval_locomo)
    p_memory = eval_sub.add_parser(
        "memory",
        help="LongMemEval-style chat memories: rankings, injection and abstentions",
        description="A list of pools {id, facts: [{id, text, session_id, when, role}], queries: [{q, evidence, "
        "category, abstention}]}; facts are added session by session. " + shipped,
    )
    p_memory.add_argument("file", help="a JSON file of memory pools (e.g. longmemeval/dev.json)")
    _eval_options(p_memory)
    p_memory.set_defaults(func=cmd_eval_memory)
    p_prefeval = eval_sub.add_parser(
        "prefeval",
        help="PrefEval preferences among persona facts: rankings, injection and abstentions",
        description="A list of users {user, facts: [{id, text, source, topic}], queries: [{q, evidence, topic, "
        "abstention}]}; categories are the topics' prefixes. " + shipped,
    )
    p_prefeval.add_argument("file", help="a JSON file in the PrefEval task's format (e.g. prefeval/dev.json)")
    _eval_options(p_prefeval)
    p_prefeval.set_defaults(func=cmd_eval_prefeval)

    p_demo = sub.add_parser("demo", help="seed two users, recall, explain (temporary embedded store)")
    p_demo.add_argument("--path", default=None,
                        help="keep the demo store in this folder (created if missing and its parent folder exists)")
    p_demo.set_defaults(func=cmd_demo)

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


def _errors() -> tuple[type[BaseException], ...]:
    """Exceptions reported as ``memori: error: ...`` instead of a traceback."""
    errors: tuple[type[BaseException], ...] = (TypeError, ValueError, RuntimeError, OSError, sqlite3.Error)
    try:
        from chromadb.errors import ChromaError
    except ImportError:  # pragma: no cover - chromadb is a dependency
        return errors
    return (*errors, ChromaError)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``memori`` console script."""
    parser = build_parser()
    args, extra = parser.parse_known_args(argv)
    if extra:
        getattr(args, "_subparser", parser).error(f"unrecognized arguments: {' '.join(extra)}")
    try:
        if hasattr(args, "creates_store"):  # a command over a store: check the folder before any work
            args.store_path = None if args.server else check_store_path(args.path, creates=args.creates_store)
        return int(args.func(args))
    except _errors() as exc:
        print(f"memori: error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    raise SystemExit(main())
