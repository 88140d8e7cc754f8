"""The ``memori`` command: add, recall, list, get, update, count, delete, forget, export, import, entities, stats,
mcp, eval, demo.

Every mistake is reported as ``memori: error: ...`` with exit code 2, after the
usage of the (sub)command that was given when argparse finds it. Where the
embedded store lives: ``--path``, else ``$MEMORI_RECALL_PATH``, else the
user's data folder. Only a command that adds facts (``add``, ``import``,
``demo --path``) creates a missing store folder, and only when its parent
folder exists (the default location is created with its parents); the others
refuse a folder that does not exist, so a mistyped path is never silently
created.

Data goes to standard output, messages to standard error. Exit codes: 0 done, 1 the store does not hold what the
command names (an unknown fact id, an entity without facts to ``forget``) or nothing to restore, 2 a mistake
(nothing was done): :data:`.parser.EXIT_CODES`, the epilog of ``memori --help``, says it in full. The store a command
opened is closed when it ends, so the next process can open the folder.
A command that embeds texts (``add``, ``recall``, ``restore``, ``import``, ``mcp``, ``demo``) refuses a
``MEMORI_EMBED_THREADS`` that is not a positive integer before any work, naming the variable; the others
(``count``, ``list``, ``export`` ...) embed nothing and run whatever it holds.

The package: :mod:`.parser` (the parser: one table of the commands over an entity, then the others),
:mod:`.values` (the options' argparse types), :mod:`.opening` (the store folder checked, the store and engine
opened and closed, the errors reported), :mod:`.fact_commands` (the commands over an entity's facts),
:mod:`.transfer` (``export``, ``import``), :mod:`.mcp_command`, :mod:`.demo`; ``memori eval`` is
:mod:`memori_core.evaluation.cli`. :func:`main` runs a command line.
"""

from __future__ import annotations

import argparse
import os
import sys
import warnings
from collections.abc import Sequence

from .demo import DEMO_MEMORIES, DEMO_QUESTIONS
from .opening import (
    CliError,
    check_store_path,
    close_stores,
    reported_errors,
    say_env_config,
    server_errors,
    server_problem,
)
from ..validate import NaiveTimeWarning
from .parser import build_parser

__all__ = ["DEMO_MEMORIES", "DEMO_QUESTIONS", "CliError", "build_parser", "check_store_path", "main",
           "say_env_config"]


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``memori`` console script."""
    argv = sys.argv[1:] if argv is None else argv
    # Its options document a time without a zone as UTC (and so do its --where and import lines): no warning.
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", category=NaiveTimeWarning)
        parser = build_parser(argv)
        args, extra = parser.parse_known_args(argv)
        if extra:
            getattr(args, "_subparser", parser).error(f"unrecognized arguments: {' '.join(extra)}")
        return _run(args)


def _run(args: argparse.Namespace) -> int:
    """Run the command ``args`` names; a mistake is reported as ``memori: error: ...`` (exit code 2)."""
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
    except server_errors() as exc:
        print(f"memori: error: {server_problem(args, exc)}", file=sys.stderr)
        return 2
    except reported_errors() as exc:
        print(f"memori: error: {exc}", file=sys.stderr)
        return 2
    finally:
        close_stores(args)


def _silence_stdout() -> None:
    """Point standard output at the null device, so that flushing it at exit does not fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # not a real file (e.g. captured in tests)
        pass
