"""``memori eval``: the benchmark subcommands of the ``memori`` command (locomo, memory, prefeval, app, capture, capture-locomo).

:func:`add_eval_tasks` adds the tasks to the ``eval`` parser (the ``memori`` command imports this module, which
imports the capture code, only for a command line that names ``eval``); each task's handler loads its file,
evaluates the shipped config (``RecallConfig.from_env()``), prints the tables on standard output (progress and
counts on standard error) and, with ``--json``, writes the metrics.
A mistake raises ``ValueError``, which the ``memori`` command reports as ``memori: error: ...``.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

from ..argspec import Argument, Command, arg, flag
from ..config import RecallConfig
from ..extraction.provenance import CAPTURE_POLICIES, DEFAULT_CAPTURE_POLICY
from .app_memory import evaluate_app_memory, load_app_memory
from .capture import (
    DEFAULT_SAID_AT,
    evaluate_capture,
    load_capture,
    path_table,
    rules_extractor_with,
    scripted_llm_extractor,
)
from .capture_locomo import COSINE_CUTOFF, DEFAULT_CONVERSATIONS, evaluate_capture_locomo
from .data import Memory, count
from .embedding import load_embedder
from .locomo import CATEGORY_LABELS, conversation_memory, load_locomo
from .longmemeval import load_memory
from .prefeval import as_captured, load_prefeval
from .report import app_memory_table, capture_locomo_table, capture_table, format_table, progress_bar
from .runner import Progress, evaluate

__all__ = ["add_eval_tasks"]

_SHIPPED = ("The shipped config is RecallConfig.from_env(): MEMORI_RECALL_* variables "
            "(e.g. MEMORI_RECALL_NEIGHBOUR_WEIGHT=0.5) let you measure other settings.")

# -- what every task does --------------------------------------------------------


def _check_limit(args: argparse.Namespace) -> None:
    """``--limit`` must be at least 1."""
    if args.limit < 1:
        raise ValueError(f"--limit must be >= 1, got {args.limit}")


def _embedder(args: argparse.Namespace) -> Any:
    """``--embedder``, loaded (said on standard error unless ``--quiet``)."""
    if not args.quiet:
        print(f"loading the embedder {args.embedder!r}...", file=sys.stderr, flush=True)
    return load_embedder(args.embedder)


def _shipped_config(args: argparse.Namespace) -> RecallConfig:
    """The measured config, ``RecallConfig.from_env()``; the ``MEMORI_RECALL_*`` variables it applies are
    named on standard error (unless ``--quiet``)."""
    applied = RecallConfig.env_variables()
    if applied and not args.quiet:
        names = ", ".join(f"{var}={value}" for var, value in applied.items())
        print(f"measuring RecallConfig.from_env() with {names}", file=sys.stderr)
    return RecallConfig.from_env()


def _progress(args: argparse.Namespace) -> Progress | None:
    """The progress bar on standard error, or ``None`` with ``--quiet``."""
    return None if args.quiet else progress_bar


def _write_json(path: str, result: dict[str, Any], *, ensure_ascii: bool = True, lead: str = "") -> None:
    """Write ``result`` as indented JSON to ``path`` and say so on standard error (after ``lead``)."""
    Path(path).write_text(json.dumps(result, indent=2, ensure_ascii=ensure_ascii), encoding="utf-8")
    print(f"{lead}wrote {path}", file=sys.stderr)


def _evaluate(args: argparse.Namespace, task: str, memories: list[Memory],
              category_labels: dict[str, str] | None = None, short_queries: bool = False) -> dict[str, Any]:
    """Evaluate ``memories``, print the tables, write ``--json``; returns the metrics dict."""
    _check_limit(args)
    n = count(memories)
    print(f"{task}: {n['memories']} memories, {n['facts']} facts, {n['answerable']} questions with evidence, "
          f"{n['abstention']} abstention questions; limit {args.limit}", file=sys.stderr)
    embedder = _embedder(args)
    result = {"task": task, **evaluate(
        memories,
        config=_shipped_config(args),  # the shipped config, with any MEMORI_RECALL_* overrides
        embedder=embedder,
        limit=args.limit,
        short_queries=short_queries,
        category_labels=category_labels,
        progress=_progress(args),
    )}
    print(format_table(result))
    if args.json:
        _write_json(args.json, result, lead="\n")
    return result


# -- the handlers -------------------------------------------------------------------


def cmd_eval_locomo(args: argparse.Namespace) -> int:
    """``memori eval locomo FILE``: LoCoMo conversations (``--conversations`` keeps some)."""
    conversations = load_locomo(args.file)
    if args.conversations:
        wanted = set(args.conversations.split(","))
        conversations = [c for c in conversations if c.sample_id in wanted]
        if not conversations:
            raise ValueError(f"no conversation matches --conversations {args.conversations!r}")
    memories = [conversation_memory(c) for c in conversations]
    result = _evaluate(args, "locomo", memories, CATEGORY_LABELS, short_queries=args.short_queries)
    if args.details_json:
        _write_json(args.details_json, {k: result[k] for k in ("threshold", "short_queries") if k in result})
    return 0


def cmd_eval_memory(args: argparse.Namespace) -> int:
    """``memori eval memory FILE``: LongMemEval-style chat memories."""
    _evaluate(args, "memory", load_memory(args.file))
    return 0


def cmd_eval_prefeval(args: argparse.Namespace) -> int:
    """``memori eval prefeval FILE``: PrefEval preferences among persona facts."""
    memories = load_prefeval(args.file)
    _evaluate(args, "prefeval", as_captured(memories) if args.as_captured else memories)
    return 0


def cmd_eval_app(args: argparse.Namespace) -> int:
    """``memori eval app FILE``: what recall() injects turn by turn in everyday dialogues."""
    _check_limit(args)
    data = load_app_memory(args.file)
    n = data.count()
    print(f"app: {n['users']} users, {n['facts']} facts, {n['dialogues']} dialogues, {n['turns']} turns; "
          f"limit {args.limit}", file=sys.stderr)
    result = {"task": "app", **evaluate_app_memory(
        data,
        embedder=_embedder(args),
        config=_shipped_config(args),  # the shipped config, with any MEMORI_RECALL_* overrides
        limit=args.limit,
        use_context=not args.no_context,
        core=args.core,
        progress=_progress(args),
    )}
    print(app_memory_table(result))
    if args.json:
        _write_json(args.json, result, ensure_ascii=False, lead="\n")
    return 0


_CAPTURE_EXTRACTORS = ("rules", "scripted-llm")
"""``memori eval capture --extractor``: the default rules, or the LLM extractor's pipeline over a scripted model."""


def _said_at(value: str | None) -> datetime:
    """``--said-at``: an ISO 8601 time with its zone ("2026-01-05T09:00:00+00:00", "...Z"), by default
    :data:`~memori_core.evaluation.capture.DEFAULT_SAID_AT`."""
    if value is None:
        return DEFAULT_SAID_AT
    try:
        when = datetime.fromisoformat(value.strip())
    except ValueError:
        raise ValueError(f"--said-at must be an ISO 8601 time such as 2026-01-05T09:00:00+00:00, got {value!r}") \
            from None
    if when.tzinfo is None or when.utcoffset() is None:
        raise ValueError(f"--said-at must name its time zone (e.g. 2026-01-05T09:00:00+00:00 or ...Z), got {value!r}")
    return when


def cmd_eval_capture(args: argparse.Namespace) -> int:
    """``memori eval capture FILE``: which facts capture leaves valid at the end of scripted conversations."""
    said_at = _said_at(args.said_at)
    if args.extractor != "rules" and args.policy != DEFAULT_CAPTURE_POLICY:
        raise ValueError("--policy applies to --extractor rules only")
    data = load_capture(args.file)
    n = data.count()
    policy = args.policy if args.extractor == "rules" else None
    print(f"capture: {n['conversations']} conversations, {n['user_turns']} user turns, {n['gold']} gold facts, "
          f"{n['stale']} stale facts; extractor {args.extractor}" + (f", policy {policy}" if policy else "")
          + f"; said at {said_at.isoformat()}", file=sys.stderr)
    factory = rules_extractor_with(args.policy) if args.extractor == "rules" else scripted_llm_extractor
    result = {"task": "capture", "extractor": args.extractor, "policy": policy, "said_at": said_at.isoformat(),
              **evaluate_capture(data, factory, embedder=_embedder(args), progress=_progress(args),
                                 said_at=said_at)}
    print(capture_table(result))
    if args.by_path:
        print("\nby rule path (durable valid facts at the end)\n\n" + path_table(result))
    if args.json:
        _write_json(args.json, result, ensure_ascii=False, lead="\n")
    return 0


def cmd_eval_capture_locomo(args: argparse.Namespace) -> int:
    """``memori eval capture-locomo FILE``: rule-based capture against LoCoMo's per-session observations."""
    ids = [c.strip() for c in args.conversations.split(",") if c.strip()] if args.conversations else None
    result = {"task": "capture-locomo", **evaluate_capture_locomo(
        args.file, conversations=ids, all_conversations=args.all, embedder=_embedder(args), cosine=args.cosine,
        progress=_progress(args))}
    print(capture_locomo_table(result))
    if args.json:
        _write_json(args.json, result, ensure_ascii=False, lead="\n")
    return 0


# -- the parsers --------------------------------------------------------------------

_JSON = arg("--json", default=None, metavar="FILE", help="also write the metrics as JSON")
_EMBEDDER = arg("--embedder", default="minilm", help="'minilm' (default) or 'module:attribute'")
_QUIET = flag("--quiet", help="no progress on standard error")


def _eval_options(limit_help: str | None = None) -> tuple[Argument, ...]:
    """Options every ranking task takes (``limit_help``: another help text for ``--limit``)."""
    return _JSON, _EMBEDDER, arg(
        "--limit", type=int, default=5,
        help=limit_help or "facts recall() returns per question, for the injection table (default 5; "
        "rankings are always scored on their top 10)"), _QUIET


def _task(name: str, handler: Callable[[argparse.Namespace], int], *, help: str, description: str,
          file_help: str, limit_help: str | None = None, options: tuple[Argument, ...] = ()) -> Command:
    """The ranking task ``name``: its file argument, the options every such task takes, then its own ``options``;
    its description ends with what the shipped config is."""
    return Command(name, handler, help, f"{description} {_SHIPPED}",
                   (arg("file", help=file_help), *_eval_options(limit_help), *options))


_TASKS: tuple[Command, ...] = (
    _task(
        "locomo", cmd_eval_locomo,
        help="LoCoMo-format conversations: rankings (R@5, R@10, nDCG@10 per category) and injection",
        description="Each conversation is a memory, each turn a fact, each question with evidence a query.",
        file_help="a JSON file in LoCoMo's format (e.g. locomo10.json)",
        options=(
            arg("--details-json", default=None, metavar="FILE",
                help="write the threshold calibration and short-query results as JSON"),
            arg("--conversations", default=None, help="comma-separated sample ids to keep"),
            flag("--short-queries", help="also compare default vs Memori ranking on 1- and 2-word queries"),
        ),
    ),
    _task(
        "memory", cmd_eval_memory,
        help="LongMemEval-style chat memories: rankings, injection and abstentions",
        description="A list of pools {id, facts: [{id, text, session_id, when, role}], queries: [{q, evidence, "
        "category, abstention}]}; facts are added session by session.",
        file_help="a JSON file of memory pools (e.g. longmemeval/dev.json)",
    ),
    _task(
        "prefeval", cmd_eval_prefeval,
        help="PrefEval preferences among persona facts: rankings, injection and abstentions",
        description="A list of users {user, facts: [{id, text, source, topic}], queries: [{q, evidence, topic, "
        "abstention}]}; categories are the topics' prefixes.",
        file_help="a JSON file in the PrefEval task's format (e.g. prefeval/dev.json)",
        options=(
            flag("--as-captured",
                 help="write each fact as the rule-based extractor stores it ('I own a Camry.' -> 'User owns a "
                 "Camry.'; facts the rules would not rewrite are kept as written)"),
        ),
    ),
    _task(
        "app", cmd_eval_app,
        help="app memory: what recall() injects turn by turn in everyday dialogues",
        description="A file {name, version, users: [{user, facts: [{id, text, core, domain}], dialogues: [{id, "
        "turns: [{text, needs, kind}]}]}]} (evals/app_memory/README.md). Every turn is recalled with the "
        "earlier turns of its dialogue as context (when recall() takes context=), and scored by kind: "
        "needed-fact hit, all-needed hit, follow-up hit, off-topic clean, facts per turn, and the same "
        "ranking without its gate.",
        file_help="a JSON file in the app-memory format (e.g. evals/app_memory/dev.json)",
        limit_help="facts recall() returns per turn (default 5)",
        options=(
            flag("--no-context", help="recall each turn alone, without the earlier turns of its dialogue"),
            flag("--core", help="add the facts marked core with core=True (when the engine's add() takes it)"),
        ),
    ),
    Command(
        "capture", cmd_eval_capture,
        help="capture: precision/recall of the facts left valid after scripted conversations",
        description="A file {name, version, conversations: [{id, category, turns: [{role, text, facts}], gold, "
        "stale}]} (evals/capture/README.md). Every user turn is captured (capture_facts) into an in-memory "
        "Chroma store; the valid facts at the end are scored against gold and stale facts by content tokens.",
        arguments=(
            arg("file", help="a JSON file in the capture format (e.g. evals/capture/dev.json)"),
            arg("--extractor", choices=sorted(_CAPTURE_EXTRACTORS), default="rules",
                help="'rules' (the default RuleBasedFactExtractor) or 'scripted-llm' (the LLM extractor's "
                "prompt and parser over a model answering each turn's script)"),
            arg("--policy", choices=CAPTURE_POLICIES, default=DEFAULT_CAPTURE_POLICY,
                help=f"the rules' storing policy, RuleBasedFactExtractor(policy=...) (default "
                f"{DEFAULT_CAPTURE_POLICY}): 'broad' stores every fact the rules find, 'strict' only those of the "
                "rule paths that held up on chats the rules were not written for"),
            flag("--by-path", help="also print the stored facts' precision by the rule path that found them"),
            arg("--said-at", default=None, metavar="ISO",
                help="when the first user turn of each conversation was said, an ISO 8601 time with its zone "
                f"(default {DEFAULT_SAID_AT.isoformat()}, a Monday; the n-th turn is n seconds later): the rules "
                "read 'tonight' and weekdays from it, so the numbers do not move with the time of day"),
            _JSON, _EMBEDDER, _QUIET,
        ),
    ),
    Command(
        "capture-locomo", cmd_eval_capture_locomo,
        help="capture: the rule-based facts of LoCoMo sessions against the authors' observations",
        description="Every turn of a speaker in a session is captured (capture_facts, rule-based) into an entity "
        "of its own; the stored facts are compared with that speaker's observations of the session: by evidence "
        "turn (a fact captured from an observation's turn) and by content (the fact with the speaker's name as "
        "subject, cosine >= --cosine). Precision and recall both ways (memori_core/evaluation/capture_locomo.py).",
        arguments=(
            arg("file", help="a LoCoMo-format JSON file with 'observation' (e.g. locomo10.json)"),
            arg("--conversations", default=None, help="comma-separated sample ids to read"),
            flag("--all", help=f"read every conversation (default: the first {DEFAULT_CONVERSATIONS})"),
            arg("--cosine", type=float, default=COSINE_CUTOFF, help=f"content match cutoff (default {COSINE_CUTOFF})"),
            _JSON, _EMBEDDER, _QUIET,
        ),
    ),
)
"""The tasks of ``memori eval``, in the order its ``--help`` lists them."""


def add_eval_tasks(eval_parser: argparse.ArgumentParser) -> None:
    """Add the tasks of ``memori eval`` (locomo, memory, prefeval, app, capture, capture-locomo) to its parser."""
    tasks = eval_parser.add_subparsers(dest="benchmark", required=True)
    for task in _TASKS:
        task.add_to(tasks)
