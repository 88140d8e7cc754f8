"""App-memory task: what a chat model would actually see in an app, turn by turn.

A file (``evals/app_memory/dev.json``, documented in ``evals/app_memory/README.md``)
holds users, each with the everyday facts an app stores about them and
dialogues of consecutive user turns::

    {"name": "app-memory-dev", "version": 1,
     "users": [{"user": "u1-...",
                "facts": [{"id": "u1-f01", "text": "...", "core": false, "domain": "diet"}],
                "dialogues": [{"id": "u1-d01",
                               "turns": [{"text": "...", "needs": ["u1-f03"], "kind": "implicit"}]}]}]}

A turn's ``needs`` are the facts a good assistant must see to answer it; its
``kind`` is one of :data:`KINDS`. :func:`evaluate_app_memory` adds each user's
facts to one engine and asks every turn, with the earlier turns of its dialogue
as context when ``recall()`` takes a ``context=`` keyword, and measures what is
injected: needed-fact hit, all-needed hit, follow-up hit, off-topic clean, facts
per turn, and the same ranking without its relevance gate.
"""

from __future__ import annotations

import inspect
import itertools
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ..config import RecallConfig
from ..embedders import default_embedder
from ..engine import RecallEngine
from .configs import describe_gate
from .data import (
    NamedFile,
    expect_flag,
    expect_ids,
    expect_list,
    expect_object,
    expect_text,
    optional_text,
    optional_time,
    read_named_file,
    unique_ids,
)
from .embedding import CachingEmbedder
from .runner import EnginePool, Progress

KINDS = ("explicit", "implicit", "multi", "followup", "offtopic", "offtopic_followup")
"""Turn kinds, in report order: ``explicit`` names the fact's topic, ``implicit`` needs it without
naming it, ``multi`` needs two or more facts, ``followup`` needs what only an earlier turn of the
dialogue named, ``offtopic`` has no personal angle, ``offtopic_followup`` is off-topic after a personal turn."""
OFFTOPIC_KINDS = frozenset({"offtopic", "offtopic_followup"})
"""Kinds whose turns need nothing: the ideal injection is empty."""
_LATER_KINDS = frozenset({"followup", "offtopic_followup"})
"""Kinds that follow an earlier turn, so never open a dialogue."""


@dataclass(frozen=True)
class AppFact:
    """One stored fact of a user."""

    id: str
    text: str
    core: bool = False
    """Always relevant (allergies, medication, diet): added with ``core=True`` when asked and supported."""
    domain: str | None = None
    created_at: str | None = None
    """ISO 8601 time it was stored (``None``: now)."""


@dataclass(frozen=True)
class AppTurn:
    """One user turn and what answering it needs."""

    text: str
    needs: tuple[str, ...]
    kind: str

    @property
    def offtopic(self) -> bool:
        """True for the kinds that need nothing."""
        return self.kind in OFFTOPIC_KINDS


@dataclass(frozen=True)
class AppDialogue:
    """Consecutive user turns of one conversation; earlier turns are the context of later ones."""

    id: str
    turns: tuple[AppTurn, ...]


@dataclass
class AppUser:
    """A user's facts, in the order they are added, and their dialogues."""

    user: str
    facts: list[AppFact]
    dialogues: list[AppDialogue]

    @property
    def turns(self) -> list[AppTurn]:
        """Every turn of every dialogue, in order."""
        return [t for d in self.dialogues for t in d.turns]


@dataclass
class AppMemory(NamedFile):
    """A whole app-memory file."""

    users: list[AppUser] = field(default_factory=list)

    def count(self) -> dict[str, Any]:
        """Users, facts, dialogues, turns, and turns per kind."""
        turns = [t for u in self.users for t in u.turns]
        return {
            "users": len(self.users),
            "facts": sum(len(u.facts) for u in self.users),
            "dialogues": sum(len(u.dialogues) for u in self.users),
            "turns": len(turns),
            "kinds": {k: sum(1 for t in turns if t.kind == k) for k in KINDS},
        }


# -- loading -----------------------------------------------------------------


def _fact(item: Any, where: str) -> AppFact:
    obj = expect_object(item, where)
    created_at = optional_text(obj, "created_at", where)
    optional_time(obj, "created_at", where)  # checked; kept as the file has it
    return AppFact(
        id=expect_text(obj, "id", where),
        text=expect_text(obj, "text", where),
        core=expect_flag(obj, "core", where),
        domain=optional_text(obj, "domain", where),
        created_at=created_at,
    )


def _turn(item: Any, where: str, first: bool, fact_ids: set[str], user: str) -> AppTurn:
    obj = expect_object(item, where)
    text = expect_text(obj, "text", where)
    kind = obj.get("kind")
    if kind not in KINDS:
        raise ValueError(f"{where}: unknown kind {kind!r} (expected one of {', '.join(KINDS)})")
    needs = expect_ids(obj, "needs", where)
    unknown = [n for n in needs if n not in fact_ids]
    if unknown:
        raise ValueError(f"{where}: 'needs' names ids that are no fact of user {user!r}: {unknown}")
    if kind in OFFTOPIC_KINDS and needs:
        raise ValueError(f"{where}: a {kind} turn needs nothing, but 'needs' is {list(needs)}")
    if kind not in OFFTOPIC_KINDS and not needs:
        raise ValueError(f"{where}: a {kind} turn must name the facts it needs ('needs' is empty)")
    if kind == "multi" and len(needs) < 2:
        raise ValueError(f"{where}: a multi turn needs two or more facts, got {list(needs)}")
    if first and kind in _LATER_KINDS:
        raise ValueError(f"{where}: a {kind} turn cannot open a dialogue")
    return AppTurn(text=text, needs=needs, kind=kind)


def _dialogue(item: Any, where: str, fact_ids: set[str], user: str) -> AppDialogue:
    obj = expect_object(item, where)
    did = expect_text(obj, "id", where)
    where = f"{where} ({did})"
    turns = expect_list(obj.get("turns"), where, "turns")
    if not turns:
        raise ValueError(f"{where}: a dialogue needs at least one turn")
    return AppDialogue(did, tuple(_turn(t, f"{where} turn #{i}", i == 0, fact_ids, user)
                                  for i, t in enumerate(turns)))


def _user(item: Any, where: str) -> AppUser:
    obj = expect_object(item, where)
    name = expect_text(obj, "user", where)
    where = f"{where} ({name})"
    facts = [_fact(f, f"{where} fact #{i}") for i, f in enumerate(expect_list(obj.get("facts"), where, "facts"))]
    ids = unique_ids((f.id for f in facts), where, "fact id")
    dialogues = [_dialogue(d, f"{where} dialogue #{i}", ids, name)
                 for i, d in enumerate(expect_list(obj.get("dialogues"), where, "dialogues"))]
    unique_ids((d.id for d in dialogues), where, "dialogue id")
    return AppUser(name, facts, dialogues)


def load_app_memory(path: str | Path) -> AppMemory:
    """Read an app-memory file; ``ValueError`` naming the file, the user and the turn when it is malformed
    (an unknown kind, needs naming no fact of the user, an empty text, needs on an off-topic turn...)."""
    obj, name, version = read_named_file(path)
    users = [_user(u, f"{path}: user #{k}") for k, u in enumerate(expect_list(obj.get("users"), str(path), "users"))]
    unique_ids((u.user for u in users), str(path), "user")
    return AppMemory(name, version, users)


# -- evaluation --------------------------------------------------------------


def accepts_keyword(function: Callable[..., Any], name: str) -> bool:
    """Whether ``function`` (e.g. a bound ``engine.recall``) takes a ``name=`` keyword."""
    try:
        parameters = inspect.signature(function).parameters
    except (TypeError, ValueError):  # pragma: no cover - builtins without a signature
        return False
    param = parameters.get(name)
    if param is not None and param.kind in (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY):
        return True
    return False


def add_user(engine: RecallEngine, user: AppUser, *, core: bool = False) -> None:
    """Add a user's facts in file order, with their ids and times; with ``core``, runs of core facts are
    added with ``core=True`` (the caller checks that ``engine.add`` takes it)."""
    runs = itertools.groupby(user.facts, key=lambda f: core and f.core) if core else [(False, iter(user.facts))]
    for is_core, group in runs:
        run = list(group)
        if not run:  # a user without facts
            continue
        engine.add(user.user, [f.text for f in run], ids=[f.id for f in run],
                   created_at=[f.created_at for f in run], **({"core": True} if is_core else {}))


def _mean(values: Sequence[float]) -> float | None:
    return float(np.mean(values)) if values else None


@dataclass
class _Tally:
    """Per-turn outcomes of one group of turns (a kind, a user, or all)."""

    hit: list[float] = field(default_factory=list)
    all_hit: list[float] = field(default_factory=list)
    sizes: list[int] = field(default_factory=list)
    open_hit: list[float] = field(default_factory=list)
    open_all_hit: list[float] = field(default_factory=list)
    clean: list[float] = field(default_factory=list)
    offtopic_sizes: list[int] = field(default_factory=list)

    def add(self, turn: AppTurn, injected: Sequence[str], ungated: Sequence[str],
            core: Sequence[str] = ()) -> None:
        """Record what was injected for ``turn`` and what the same ranking returns without the gate;
        ``core``: the injected facts that are core (always injected by design: an off-topic turn that
        gets only those is still clean)."""
        if turn.offtopic:
            chosen = [i for i in injected if i not in set(core)]
            self.clean.append(1.0 if not chosen else 0.0)
            self.offtopic_sizes.append(len(chosen))
            return
        needs, got, open_ = set(turn.needs), set(injected), set(ungated)
        self.hit.append(1.0 if needs & got else 0.0)
        self.all_hit.append(1.0 if needs <= got else 0.0)
        self.sizes.append(len(injected))
        self.open_hit.append(1.0 if needs & open_ else 0.0)
        self.open_all_hit.append(1.0 if needs <= open_ else 0.0)

    def summary(self) -> dict[str, Any]:
        """Shares and means (``None`` where the group has no turn of that sort) with the counts."""
        return {
            "n_needed": len(self.hit),
            "n_offtopic": len(self.clean),
            "needed_hit": _mean(self.hit),
            "all_needed_hit": _mean(self.all_hit),
            "facts_per_needed_turn": _mean(self.sizes),
            "no_gate_needed_hit": _mean(self.open_hit),
            "no_gate_all_needed_hit": _mean(self.open_all_hit),
            "offtopic_clean": _mean(self.clean),
            "facts_per_offtopic_turn": _mean(self.offtopic_sizes),
        }


def evaluate_app_memory(
    data: AppMemory | Iterable[AppUser],
    *,
    embedder: Any = None,
    config: RecallConfig | None = None,
    limit: int = 5,
    use_context: bool = True,
    core: bool = False,
    progress: Progress | None = None,
) -> dict[str, Any]:
    """What ``recall()`` injects for every turn of every dialogue; returns the metrics dict.

    Each user's facts go into one in-memory Chroma store (through ``config``'s
    engine, default :class:`RecallConfig`, with a :class:`CachingEmbedder`).
    Every turn is asked with ``recall(text, user, limit)`` and, when
    ``use_context`` and ``recall`` takes a ``context=`` keyword, with the
    earlier turns of its dialogue (oldest first) as context (a dialogue's
    first turn is asked without the keyword). With ``core`` and
    an ``add`` that takes ``core=``, facts marked core are added with
    ``core=True``. The same turns go to ``config`` with the gate off
    (``gate="off"``: the ``limit`` best), with the same context.

    ``overall`` / ``kinds`` / ``users``: needed-fact hit (turns with needs where
    at least one needed fact is injected), all-needed hit, facts per needed
    turn, the same two hits without the gate, off-topic clean (off-topic turns
    with nothing injected but core facts, which are injected on every turn by design) and facts per
    off-topic turn (core facts not counted); ``overall`` adds
    ``followup_hit``. ``turns`` lists every turn with what was injected.
    """
    users = list(data.users if isinstance(data, AppMemory) else data)
    name = data.name if isinstance(data, AppMemory) else "app-memory"
    counts = (data if isinstance(data, AppMemory) else AppMemory(name, 1, users)).count()
    default = config if config is not None else RecallConfig()
    pool = EnginePool(CachingEmbedder(embedder if embedder is not None else default_embedder()))
    gated = pool.engine(default)
    ungated = pool.engine(default.replace(gate="off"))
    context_supported = accepts_keyword(gated.recall, "context")
    core_supported = accepts_keyword(gated.add, "core")
    pass_context = use_context and context_supported

    texts = [f.text for u in users for f in u.facts]
    report = None if progress is None else (lambda done, total: progress(done, total, "facts embedded"))
    pool.embedder.warm(texts, progress=report)
    for user in users:
        add_user(gated, user, core=core and core_supported)

    overall, kinds = _Tally(), {k: _Tally() for k in KINDS}
    per_user = {u.user: _Tally() for u in users}
    details: list[dict[str, Any]] = []
    total, done = counts["turns"], 0
    for user in users:
        for dialogue in user.dialogues:
            for i, turn in enumerate(dialogue.turns):
                context = [t.text for t in dialogue.turns[:i]]
                extra = {"context": context} if pass_context and context else {}
                facts = gated.recall(turn.text, user.user, limit, **extra)
                injected = [f.id for f in facts]
                core_ids = [f.id for f in facts if f.metadata.get("core") is True]
                open_ = [f.id for f in ungated.recall(turn.text, user.user, limit, **extra)]
                for tally in (overall, kinds[turn.kind], per_user[user.user]):
                    tally.add(turn, injected, open_, core_ids)
                details.append({"user": user.user, "dialogue": dialogue.id, "turn": i, "kind": turn.kind,
                                "text": turn.text, "needs": list(turn.needs), "injected": injected,
                                "no_gate": open_})
                done += 1
                if progress is not None:
                    progress(done, total, "turns")

    summary = overall.summary()
    summary["followup_hit"] = kinds["followup"].summary()["needed_hit"]
    return {
        "name": name,
        "embedder": pool.embedder.name,
        "limit": limit,
        "gate": describe_gate(default),
        "context": {"requested": use_context, "supported": context_supported, "used": pass_context},
        "core": {"requested": core, "supported": core_supported, "used": core and core_supported},
        "counts": counts,
        "overall": summary,
        "kinds": {k: kinds[k].summary() for k in KINDS},
        "users": {u.user: {"facts": len(u.facts), "turns": len(u.turns), **per_user[u.user].summary()}
                  for u in users},
        "turns": details,
    }
