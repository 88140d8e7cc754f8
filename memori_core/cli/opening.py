"""What a ``memori`` command opens and how it reports failures: the store folder checked before any work, the store
(``--path`` or ``--server``) and the engine over it, closed when the command ends, and the errors reported as
``memori: error: ...`` instead of a traceback."""

from __future__ import annotations

import argparse
import os
import sqlite3
import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np

from ..config import RecallConfig
from ..embedders import LocalMiniLM, default_embedder
from ..engine import RecallEngine
from ..minilm import MODEL_NAME, threads_from_env
from ..store import chroma_errors
from ..store.chroma import PATH_ENV, ChromaStore, default_store_path, env_store_path
from ..store.chroma_client import DEFAULT_HTTP_TIMEOUT, NoServerAnswers, server_url


class CliError(ValueError):
    """A mistake on the command line found after parsing: ``memori: error: ...``, exit 2."""


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
    if option is None:  # the default location: created with its parents (the last one when it is opened)
        folder.parent.mkdir(parents=True, exist_ok=True)
        return folder
    parent = folder.parent
    if not parent.is_dir():
        what = "is a file" if parent.exists() else "does not exist"
        raise CliError(f"{named}: its parent folder {parent} {what}, so the store folder is not created "
                       "(check the spelling, or create the parent folder first)")
    if not _writable(parent):
        raise CliError(f"{named} cannot be created: its parent folder {parent} is not writable")
    return folder


def _store(args: argparse.Namespace, *, lazy: bool = False) -> ChromaStore:
    """The store ``--path`` or ``--server`` names; ``lazy``: a server that does not answer yet is connected to on
    the first call (``ChromaStore.http(lazy=True)``) instead of stopping the command."""
    if args.server:
        host, port, ssl = args.server
        try:
            store = ChromaStore.http(host=host, port=port, ssl=ssl, timeout=server_timeout(args), lazy=lazy)
        except NoServerAnswers as exc:
            raise CliError(f"no Chroma server answers at {exc.url}: is it running (`chroma run --path DIR --port "
                           "PORT`), and does --server name its address?") from None
    else:
        # A command that creates a store (`memori add`, checked by check_store_path) makes its folder here, when
        # it opens it, so the store does not warn that it created a new, empty one: that warning is for an
        # app's mistyped path, and this folder was asked for.
        folder = Path(args.store_path).expanduser()
        try:
            folder.mkdir(exist_ok=True)
        except OSError as exc:
            raise CliError(f"the store folder {folder} cannot be created: {exc.strerror or exc}") from None
        store = ChromaStore(path=folder)
    args.opened_stores = [*getattr(args, "opened_stores", []), store]  # closed by main() when the command ends
    return store


def server_timeout(args: argparse.Namespace) -> float:
    """Seconds each request to the ``--server`` may take: ``--timeout``, else ChromaStore.http's default."""
    timeout = getattr(args, "timeout", None)
    return DEFAULT_HTTP_TIMEOUT if timeout is None else timeout


def close_stores(args: argparse.Namespace) -> None:
    """Close the stores the command opened: frees the folder for the next process (and writes its snapshots)."""
    for store in getattr(args, "opened_stores", []):
        try:
            store.close()
        except reported_errors() as exc:
            print(f"memori: warning: closing the store failed: {exc}", file=sys.stderr)
    args.opened_stores = []


class _MiniLMWhenUsed:
    """The engine's default embedder, the process-wide local MiniLM (:func:`default_embedder`), fetched only when a
    text is embedded. ``RecallEngine()`` without an embedder checks ``MEMORI_EMBED_THREADS`` when it is built; an
    engine given this one reads the variable only if it embeds, so a command that embeds nothing (``count``,
    ``list``, ``export`` ...) runs whatever the variable holds."""

    name = MODEL_NAME
    scripts = LocalMiniLM.scripts

    def embed_documents(self, texts: list[str]) -> np.ndarray:
        """The local MiniLM's vectors of ``texts``."""
        return default_embedder().embed_documents(texts)

    def embed_query(self, text: str) -> np.ndarray:
        """The local MiniLM's vector of ``text``."""
        return default_embedder().embed_query(text)


def check_embed_threads() -> None:
    """For a command that embeds with the local MiniLM: a ``MEMORI_EMBED_THREADS`` that is not a positive integer
    is an error before any work, naming the variable, its value and what it accepts."""
    threads_from_env()


def open_engine(args: argparse.Namespace, *, embeds: bool, say_config: bool = False, lazy: bool = False
                ) -> RecallEngine:
    """The command's engine over its store, configured by ``RecallConfig.from_env()``.

    ``embeds``: the command may embed texts (``add``, ``recall`` ...), so a bad ``MEMORI_EMBED_THREADS`` stops
    it here; a command that embeds nothing is not stopped by it. With ``say_config`` (commands that rank:
    ``recall``, ``mcp``), the ``MEMORI_RECALL_*`` variables applied are named on standard error. ``lazy`` (a
    server that runs on, ``mcp``): a ``--server`` that does not answer yet is connected to by the first call
    that needs it; a one-shot command stops at once instead."""
    if embeds:
        check_embed_threads()
    if getattr(args, "memori_compat", False):
        config = RecallConfig.memori_compat()
    else:
        config = RecallConfig.from_env()
        if say_config:
            say_env_config()
    embedder = None if embeds else _MiniLMWhenUsed()
    return RecallEngine(store=_store(args, lazy=lazy), config=config, embedder=embedder)


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


def write_progress(args: argparse.Namespace) -> Callable[[str, int, int], None] | None:
    """A progress bar on standard error for a bulk write, when that is a terminal and ``--quiet`` is not given."""
    if getattr(args, "quiet", False) or not sys.stderr.isatty():
        return None

    from ..evaluation.report import progress_bar  # here: the evaluation package is not loaded for other commands

    def show(stage: str, done: int, total: int) -> None:
        progress_bar(done, total, _STAGE_WORDS.get(stage, stage))

    return show


def server_errors() -> tuple[type[BaseException], ...]:
    """A Chroma server's transport failures (httpx's: a timeout, a connection dropped mid-command), reported by
    :func:`server_problem` instead of a traceback."""
    from ..store.unreachable import StoreUnreachable

    try:
        import httpx
    except ImportError:  # pragma: no cover - httpx comes with chromadb
        return (StoreUnreachable,)
    return (StoreUnreachable, httpx.TransportError)


def server_problem(args: argparse.Namespace, exc: BaseException) -> str:
    """What went wrong with the ``--server`` for a person: which server, and for a timeout the time limit."""
    import httpx

    where = f"the Chroma server at {server_url(*args.server)}" if getattr(args, "server", None) else \
        "the Chroma server"
    if isinstance(exc, (httpx.TimeoutException, TimeoutError)):
        return (f"{where} did not answer within {server_timeout(args):g} s (is it stopped or overloaded?); "
                "--timeout SECONDS sets the limit")
    return f"{where} failed: {exc or type(exc).__name__}"


def reported_errors() -> tuple[type[BaseException], ...]:
    """Exceptions reported as ``memori: error: ...`` instead of a traceback."""
    return (TypeError, ValueError, RuntimeError, OSError, sqlite3.Error, *chroma_errors())
