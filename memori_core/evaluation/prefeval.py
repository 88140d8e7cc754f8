"""PrefEval relevance-gate task: users' stated preferences among persona distractors.

Format: ``[{user, facts: [{id, text, source, topic}], queries: [{q, evidence,
topic, abstention, pair}]}]``. No sessions: each user's facts are added in one
call. A query's category is its topic's prefix (``"travel_hotel"`` ->
``"travel"``), or ``"preference"`` without a topic.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from .data import Fact, Memory, optional_text, read_fact, read_memories

DEFAULT_CATEGORY = "preference"


def topic_category(topic: str | None) -> str:
    """``"travel_hotel"`` -> ``"travel"``; no topic -> ``"preference"``."""
    if not topic or not topic.strip():
        return DEFAULT_CATEGORY
    return topic.strip().split("_", 1)[0]


def load_prefeval(path: str | Path) -> list[Memory]:
    """Read a PrefEval-task file; ``ValueError`` naming the file and the bad entry when malformed."""
    return read_memories(path, "users", "user", "user", "prefeval", read_fact,
                         lambda obj, where: topic_category(optional_text(obj, "topic", where)))


def as_captured(memories: list[Memory]) -> list[Memory]:
    """The same memories with each fact written as the rule-based extractor stores it ("I drive a new Chevrolet."
    -> "User drives a new Chevrolet."); a fact the rules would not rewrite is kept as written. PrefEval's facts
    are in the first person, as its users said them; an app that captures with memori-recall stores most of
    them "User ...", against which a first-person question scores lower (``RecallConfig.gate_third_person``)."""
    from ..cache.strings import text_starts_with_word
    from ..extraction import judge_sentence
    from ..ranking.gate import USER_WORD

    def written(fact: Fact) -> Fact:
        verdict = judge_sentence(fact.text, 1000)
        rewritten = verdict.fact is not None and text_starts_with_word(verdict.fact, USER_WORD)
        return replace(fact, text=verdict.fact) if rewritten else fact

    return [replace(m, facts=[written(f) for f in m.facts]) for m in memories]
