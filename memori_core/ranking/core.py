"""Core facts: the few facts worth a few tokens on every turn (an allergy, a medication, a diet).

A fact is core when its own user metadata holds ``"core": True`` (``add(..., core=True)`` sets it,
``update(..., core=...)`` sets or clears it, a caller may also set it by hand). After the ranking
and the gate have chosen what recall returns, up to ``RecallConfig.core_limit`` core facts that
were not chosen are appended, most relevant first: whatever the question about the user, they reach the
prompt. The engine appends none to a courtesy turn, nor to a question about someone else ("What does my husband
like for breakfast?": :func:`~memori_core.ranking.implications.asked_about`; "A gift for my grandson?":
:func:`~memori_core.ranking.implications.gift_for`); to a question about the world (by its shape) or a turn that
tells rather than asks ("Big news, I got the job!"; not one qualifying the asker's request just made) only those
whose concerns its words touch (:func:`core_touched`: "What's in a Caesar salad?" keeps the egg allergy, "How many
grams of sugar are in a can of cola?" metformin and not the peanut allergy, "What's the capital of Peru?" nothing),
and so does a request only for something to read, watch or listen to (:func:`asks_only_for_media`: "Can you
recommend a good sci-fi novel?").
On the other turns about the asker, with ``RecallConfig.core_when="touched"``, only a turn about the body,
food, health or travel, or one asking whether the asker should do something, gets every core fact; any other gets
those whose concerns its words or a fact recall chose touch (:func:`core_turn_concerns`): "Can you help me with this
spreadsheet formula?" none. ``core_when="always"`` (the default) appends them on every turn about the asker; ``"open"``
too, but a turn the relevance gate keeps nothing for is read as ``"touched"`` reads it.

Pure functions over numpy arrays: the engine gathers the core rows that may be recalled (live, not
expired, matching ``where``) with their cosines to the query and their recency.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np

from ..facts import CORE_KEY, is_core
from .care import asks_if_advisable
from .concerns import FACT_CONCERNS, fact_concerns, question_concerns

__all__ = ["CORE", "CORE_ALWAYS", "CORE_KEY", "CORE_TOUCHED", "MEDIA_CONCERNS", "asks_only_for_media", "core_picks", "core_touched", "core_turn_concerns",
           "is_core"]

CORE = "core (injected)"
"""Fate (``explain``) of a core fact appended after the recalled ones (``kept`` is true)."""
CORE_ALWAYS = "core"
""":attr:`~memori_core.facts.RecalledFact.passed_by` of a core fact appended on a turn about the asker."""
CORE_TOUCHED = "core touched"
"""... of one appended because the turn's words, or a fact recall chose, touch its concerns."""



def core_picks(cosine: np.ndarray, recency: np.ndarray, chosen: np.ndarray, limit: int) -> np.ndarray:
    """Positions of the core facts to append, in the order they are appended.

    ``cosine`` (to the query) and ``recency`` (epoch seconds) describe the core facts that may be
    recalled; ``chosen`` (bool) marks those the ranking already returns. At most ``limit`` of the
    others are picked: best cosine first, a tie going to the more recent fact, then to the lower position.
    """
    if limit <= 0 or cosine.shape[0] == 0:
        return np.zeros(0, dtype=np.int64)
    free = np.flatnonzero(~np.asarray(chosen, dtype=bool))
    if free.shape[0] == 0:
        return free.astype(np.int64)
    # lexsort: last key first; stable, so equal keys keep position order.
    order = np.lexsort((-np.asarray(recency, dtype=np.float64)[free], -np.asarray(cosine, dtype=np.float64)[free]))
    return free[order[:limit]].astype(np.int64)


# The concerns of the body, food, health and travel: a personal turn touching one keeps every core fact.
_CARE_TURN = frozenset(FACT_CONCERNS) | frozenset({
    "clinic", "dosing", "fitness", "sleep", "cold", "sun", "fluids", "travel", "flying", "packing", "long journey",
    "motion", "walking", "mobility"})
# The body said in words no concern table holds: "Head's starting to pound", "my back hurts".
_BODY = re.compile(r"\b(?:head\w*|stomach|tummy|belly|chest|throat|skin|pain\w*|ache\w*|sore|sick|ill|unwell|"
                   r"fever\w*|dizzy|nause\w*|pound\w*|itch\w*|rash\w*|cough\w*|bleed\w*|breath\w*|tired|"
                   r"exhausted|migraine\w*|cramp\w*|swollen|hurts?|injur\w*)\b", re.IGNORECASE)
# Whether the asker should do something: "My boss wants me to do night inspections. Should I say yes?", "Peanut
# butter ok for me?"; or whether it is okay, safe or a good idea (care.asks_if_advisable).
_DECIDING = re.compile(r"\b(?:should|shall)\s+i\b|\b(?:ok|okay|safe|fine)\s+for\s+me\b", re.IGNORECASE)


MEDIA_CONCERNS = frozenset({"reading", "listening", "watching"})
"""The concerns of something to read, watch or listen to: no allergy, diet or medicine bears on a novel."""


def asks_only_for_media(query: str) -> bool:
    """Whether a turn asks only for something to read, watch or listen to ("Can you recommend a good sci-fi
    novel?", "What should I watch tonight?"): every concern its words touch is one of :data:`MEDIA_CONCERNS` and it
    says nothing of the body. Such a turn keeps only the
    core facts its words touch, as a question about the world does; "a film for the kids" (children), "a book for
    the flight" (flying) or "an audiobook for my migraine" are not only media.

    >>> asks_only_for_media("Can you recommend a good sci-fi novel?"), asks_only_for_media("A film for the kids?")
    (True, False)
    """
    concerns = question_concerns(query)
    return bool(concerns) and concerns <= MEDIA_CONCERNS and _BODY.search(query) is None


def core_turn_concerns(query: str, read: Sequence[str] = ()) -> frozenset[str] | None:
    """Which core facts a turn about the asker keeps under ``RecallConfig.core_when="touched"``: ``None`` (every
    one) when it touches the body, food, health or travel (its words or those of the turns ``read`` with it) or
    asks whether the asker should do something; else the concerns of those words, which a core fact's own
    concerns, or those of a fact recall chose, must meet (:func:`core_touched`).

    >>> core_turn_concerns("Any ideas for dinner tonight?") is None
    True
    >>> sorted(core_turn_concerns("Help me write a message to my colleague about the deadline."))
    ['work']
    """
    said = (query, *read)
    concerns = frozenset().union(*(question_concerns(t) for t in said))
    if concerns & _CARE_TURN or any(_BODY.search(t) for t in said) or _DECIDING.search(query) \
            or asks_if_advisable(query):
        return None
    return concerns


def core_touched(texts: Sequence[str], concerns: frozenset[str]) -> np.ndarray:
    """Which core facts (``texts``) a question about the world keeps: those whose own concerns
    (:func:`~memori_core.ranking.concerns.fact_concerns`) meet the question's ``concerns`` (bool per fact).

    >>> core_touched(["User is allergic to eggs.", "User has coeliac disease."], frozenset({"egg"})).tolist()
    [True, False]
    """
    if not concerns:
        return np.zeros(len(texts), dtype=bool)
    return np.fromiter((not fact_concerns(t).isdisjoint(concerns) for t in texts), dtype=bool, count=len(texts))
