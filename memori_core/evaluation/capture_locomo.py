"""Capture against LoCoMo's ``observation`` gold: the facts its authors wrote for each speaker of each session.

LoCoMo (``locomo/dev.json``, or the public ``locomo10.json``) gives, beside the
turns, per session and per speaker a list of observations, each with the turn(s)
it comes from: ``["Caroline attended an LGBTQ support group recently ...", "D1:3"]``.
:func:`evaluate_capture_locomo` runs capture (the rule-based extractor by default,
through :func:`memori_core.capture.capture_facts`) over every turn of a speaker in a
session, as that speaker's user messages, into its own entity (one per conversation,
session and speaker, so each session is scored on what it said), and compares what
was stored with that speaker's observations of that session, two ways:

- **by evidence turn** (no model): a stored fact is *grounded* when the turn it was
  captured from is the evidence of one of the speaker's observations of the session
  (precision); an observation is *found* when capture stored a fact from one of its
  evidence turns (recall). Deterministic; it says whether capture kept something of
  the turns the authors found worth an observation, not whether it said the same.
- **by content**: the stored fact with its subject made the speaker's name ("User
  is ..." / "I am ..." -> "Caroline is ...", "User's" / "my" -> "Caroline's")
  and the observation, embedded with the run's embedder (MiniLM by default), match
  when their cosine reaches ``cosine`` (default :data:`COSINE_CUTOFF`). Precision:
  stored facts matching some observation of the same speaker and session; recall:
  observations matched by some stored fact.

Observations are written in the third person and often sum up several turns, so
content recall is bounded well below 1 for a per-turn extractor; the numbers compare
extractors and rule changes, they are not an absolute grade.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..capture import capture_facts
from ..embedders import default_embedder
from ..engine import RecallEngine
from ..extraction.rule_based import RuleBasedFactExtractor
from ..extraction.types import FactExtractor, Message
from ..store.chroma import ChromaStore
from .data import read_json
from .embedding import CachingEmbedder
from .runner import Progress

__all__ = ["COSINE_CUTOFF", "DEFAULT_CONVERSATIONS", "evaluate_capture_locomo", "name_subject"]

COSINE_CUTOFF = 0.7
"""A stored fact and an observation say the same when their cosine reaches this (MiniLM: at 0.7 pairs read as
the same event or trait; from 0.6 on, pairs on the same topic that say different things start to match)."""
DEFAULT_CONVERSATIONS = 2
"""Conversations read when none are named (the first ones of the file): a run of about half a minute."""

_SESSION = re.compile(r"^session_(\d+)$")
_SUBJECTS = (
    (re.compile(r"\bUser's\b"), "{name}'s"),
    (re.compile(r"\bUser\b"), "{name}"),
    (re.compile(r"\b(?:I'm|I am)\b"), "{name} is"),
    (re.compile(r"\bI've\b"), "{name} has"),
    (re.compile(r"\bI'd\b"), "{name} would"),
    (re.compile(r"\bI'll\b"), "{name} will"),
    (re.compile(r"\b(?:my|My|mine)\b"), "{name}'s"),
    (re.compile(r"\b(?:I|me|myself)\b"), "{name}"),
)


def name_subject(fact: str, name: str) -> str:
    """``fact`` with the user as subject replaced by ``name`` ("User's dog is Bo." -> "Ana's dog is Bo.")."""
    for rx, repl in _SUBJECTS:
        fact = rx.sub(repl.format(name=name), fact)
    return fact


def _evidence(value: Any) -> tuple[str, ...]:
    items = value if isinstance(value, list) else re.split(r"[;,\s]+", str(value))
    return tuple(str(v).strip() for v in items if str(v).strip())


def _sessions(conv: dict[str, Any]) -> list[tuple[int, list[dict[str, Any]]]]:
    talk = conv.get("conversation") or {}
    found = [(int(m.group(1)), turns) for key, turns in talk.items()
             if (m := _SESSION.match(key)) and isinstance(turns, list)]
    return sorted(found, key=lambda s: s[0])


def _observations(conv: dict[str, Any], session: int) -> dict[str, list[tuple[str, tuple[str, ...]]]]:
    block = (conv.get("observation") or {}).get(f"session_{session}_observation") or {}
    out: dict[str, list[tuple[str, tuple[str, ...]]]] = {}
    for speaker, items in block.items():
        for item in items or []:
            if isinstance(item, list) and len(item) == 2 and isinstance(item[0], str) and item[0].strip():
                out.setdefault(speaker, []).append((item[0].strip(), _evidence(item[1])))
    return out


def _pick(data: list[Any], conversations: Sequence[str] | None, all_conversations: bool) -> list[dict[str, Any]]:
    items = [c for c in data if isinstance(c, dict) and c.get("observation")]
    if conversations:
        wanted = set(conversations)
        unknown = wanted - {str(c.get("sample_id")) for c in items}
        if unknown:
            raise ValueError(f"conversations: no conversation with observations has the id(s) {sorted(unknown)}")
        return [c for c in items if str(c.get("sample_id")) in wanted]
    return items if all_conversations else items[:DEFAULT_CONVERSATIONS]


def evaluate_capture_locomo(
    path: str,
    *,
    conversations: Sequence[str] | None = None,
    all_conversations: bool = False,
    extractor: FactExtractor | None = None,
    embedder: Any = None,
    cosine: float = COSINE_CUTOFF,
    progress: Progress | None = None,
) -> dict[str, Any]:
    """Capture each speaker's turns of each session of a LoCoMo file and score the stored facts against the
    session's observations (module docstring); the metrics dict.

    ``conversations``: sample ids to read (default: the first :data:`DEFAULT_CONVERSATIONS`, or every one
    with ``all_conversations``); ``extractor``: default :class:`RuleBasedFactExtractor`; ``cosine``: the
    content match cutoff, in (0, 1].
    """
    if isinstance(cosine, bool) or not isinstance(cosine, (int, float)) or not 0 < cosine <= 1:
        raise ValueError(f"cosine must be a number in (0, 1], got {cosine!r}")
    data = read_json(path)
    if not isinstance(data, list):
        raise ValueError(f"{path}: expected a list of LoCoMo conversations")
    chosen = _pick(data, conversations, all_conversations)
    cached = CachingEmbedder(embedder if embedder is not None else default_embedder())
    engine = RecallEngine(store=ChromaStore.in_memory(), embedder=cached)
    extract = extractor if extractor is not None else RuleBasedFactExtractor()
    keys = ("sessions", "turns", "stored", "grounded", "observations", "found_turn", "matched", "found_content")
    overall = dict.fromkeys(keys, 0)
    per_conversation: list[dict[str, Any]] = []
    examples: list[dict[str, Any]] = []
    for n, conv in enumerate(chosen):
        sample = str(conv.get("sample_id", n))
        tally = dict.fromkeys(keys, 0)
        for session, turns in _sessions(conv):
            gold = _observations(conv, session)
            if not gold:
                continue
            tally["sessions"] += 1
            for speaker, observations in gold.items():
                entity = f"locomo-{sample}-s{session}-{speaker}"
                said = [t for t in turns if isinstance(t, dict) and t.get("speaker") == speaker
                        and isinstance(t.get("text"), str) and t["text"].strip()]
                for turn in said:
                    capture_facts(engine, entity, [Message("user", turn["text"])], extract,
                                  metadata={"dia_id": str(turn.get("dia_id", ""))})
                tally["turns"] += len(said)
                stored = engine.list(entity, limit=100_000, newest_first=False)
                evidence = {e for _, ev in observations for e in ev}
                tally["stored"] += len(stored)
                tally["observations"] += len(observations)
                tally["grounded"] += sum(1 for f in stored if (f.metadata or {}).get("dia_id") in evidence)
                from_turns = {(f.metadata or {}).get("dia_id") for f in stored}
                tally["found_turn"] += sum(1 for _, ev in observations if from_turns & set(ev))
                if not stored:
                    continue
                named = [name_subject(f.content, speaker) for f in stored]
                a = cached.embed_documents(named)
                b = cached.embed_documents([text for text, _ in observations])
                sims = _normalised(a) @ _normalised(b).T
                tally["matched"] += int((sims.max(axis=1) >= cosine).sum())
                tally["found_content"] += int((sims.max(axis=0) >= cosine).sum())
                if len(examples) < 20:
                    best = sims.argmax(axis=1)
                    examples += [{"conversation": sample, "session": session, "fact": named[i],
                                  "observation": observations[int(best[i])][0], "cosine": round(float(sims[i, best[i]]), 3)}
                                 for i in range(min(2, len(named)))]
        per_conversation.append({"conversation": sample, **_rates(tally)})
        for k in keys:
            overall[k] += tally[k]
        if progress is not None:
            progress(n + 1, len(chosen), "conversations")
    return {
        "name": str(path),
        "embedder": cached.name,
        "extractor": type(extract).__name__,
        "cosine": cosine,
        "overall": _rates(overall),
        "conversations": per_conversation,
        "examples": examples,
    }


def _normalised(m: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(m, axis=1, keepdims=True)
    return m / np.where(norms == 0, 1.0, norms)


def _rates(t: dict[str, int]) -> dict[str, Any]:
    def share(a: int, b: int) -> float | None:
        return a / b if b else None

    return {
        **t,
        "precision_turn": share(t["grounded"], t["stored"]),
        "recall_turn": share(t["found_turn"], t["observations"]),
        "precision_content": share(t["matched"], t["stored"]),
        "recall_content": share(t["found_content"], t["observations"]),
    }
