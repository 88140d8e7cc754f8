"""LoCoMo-format conversations (Maharana et al., ACL 2024) as memories.

Each conversation becomes one entity; every dialog turn ``"speaker: text"`` is
a fact, added session by session with its session id and the session's date
as ``created_at``; every question with evidence is a query (LoCoMo has no
abstention queries). Categories are LoCoMo's numbers, ``"1"`` to ``"5"``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from .data import Fact, Memory, Query, read_json

CATEGORY_NAMES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop", 5: "adversarial"}
CATEGORY_LABELS = {str(k): v for k, v in CATEGORY_NAMES.items()}
"""Category keys of the results (``"1"``...) and their names, for the tables."""


@dataclass
class Turn:
    """One dialog turn: ``text`` is ``"speaker: what they said"``."""

    dia_id: str
    session: int
    date: datetime | None
    text: str


@dataclass
class Question:
    """A question with the ids of its evidence turns."""

    text: str
    evidence: list[str]
    category: int


@dataclass
class Conversation:
    """One LoCoMo conversation: its turns in order and its questions with evidence."""

    sample_id: str
    turns: list[Turn]
    questions: list[Question]


def parse_session_date(value: str | None) -> datetime | None:
    """LoCoMo's ``"1:56 pm on 8 May, 2023"`` as a UTC datetime (``None`` when unreadable)."""
    if not value:
        return None
    for fmt in ("%I:%M %p on %d %B, %Y", "%I:%M %p on %d %b, %Y", "%d %B, %Y"):
        try:
            return datetime.strptime(value.strip(), fmt).replace(tzinfo=timezone.utc)
        except ValueError:
            continue
    return None


def _turns(conv: dict[str, Any]) -> list[Turn]:
    turns: list[Turn] = []
    n = 1
    while f"session_{n}" in conv or f"session_{n}_date_time" in conv:
        date = parse_session_date(conv.get(f"session_{n}_date_time"))
        for t in conv.get(f"session_{n}") or []:
            if isinstance(t, dict) and t.get("dia_id") and isinstance(t.get("text"), str) and t["text"].strip():
                turns.append(Turn(str(t["dia_id"]), n, date, f"{t.get('speaker', '')}: {t['text']}"))
        n += 1
    return turns


def _questions(qa: list[Any], ids: set[str]) -> list[Question]:
    """Questions with at least one evidence id naming a turn (malformed ids are split; unknown ones dropped)."""
    out = []
    for q in qa:
        if not isinstance(q, dict):
            continue
        evidence: list[str] = []
        for e in q.get("evidence") or []:
            for part in re.split(r"[;\s]+", str(e)):
                if part in ids and part not in evidence:
                    evidence.append(part)
        if evidence and isinstance(q.get("question"), str):
            out.append(Question(q["question"], evidence, int(q.get("category", 0))))
    return out


def load_locomo(path: str | Path) -> list[Conversation]:
    """Read a LoCoMo-format JSON file (a list of conversations with ``conversation`` and ``qa``)."""
    data = read_json(path)
    if not isinstance(data, list):
        raise ValueError(f"{path}: expected a list of conversations, got {type(data).__name__}")
    out = []
    for k, item in enumerate(data):
        if not isinstance(item, dict) or not isinstance(item.get("conversation"), dict):
            raise ValueError(f"{path}: conversation #{k} has no 'conversation' object")
        turns = _turns(item["conversation"])
        questions = _questions(item.get("qa") or [], {t.dia_id for t in turns})
        out.append(Conversation(str(item.get("sample_id", f"conv-{k}")), turns, questions))
    return out


def conversation_memory(conv: Conversation) -> Memory:
    """A conversation as a memory: turns as facts (session ``session_N``, the session's date), questions as queries."""
    facts = [Fact(t.dia_id, t.text.strip(), t.date, f"session_{t.session}") for t in conv.turns]
    queries = [Query(q.text, tuple(q.evidence), str(q.category)) for q in conv.questions]
    return Memory(f"locomo:{conv.sample_id}", facts, queries)
