"""What one recall's steps hand on to each other (:mod:`.reads`, :mod:`.gate_signals`, :mod:`.core_rows`,
:mod:`.judging`): what it read from the copy under the entity's lock (:class:`_Gathered`), the core facts it may
append (:class:`_CoreRows`), the pool's scores and facts (:class:`_Scored`), and a
:class:`~memori_core.facts.RecalledFact` made from either."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..cache.columns import PoolFacts
from ..facts import RecalledFact, StoredFact
from ..ranking.candidates import Candidates
from ..ranking.pipeline import PoolScores


@dataclass(frozen=True)
class _CoreRows:
    """The entity's core facts that a recall may return (live, not expired, matching ``where``)."""

    rows: np.ndarray
    cosine: np.ndarray  # to the query
    recency: np.ndarray  # later of created / last seen (epoch s): breaks cosine ties
    facts: Sequence[StoredFact]  # PoolFacts of ``rows``, made under the lock


@dataclass(frozen=True)
class _Gathered:
    """What a recall reads from the copy under the entity's lock; everything after it is read outside."""

    found: Candidates  # the pool and what scoring needs of it
    facts: PoolFacts  # the pool's facts (a StoredFact is built only for the facts read from it)
    created: np.ndarray  # the pool's creation times (a copy)
    core: _CoreRows | None  # the core facts recall may append (None: none, ungated, or core_limit 0)
    question_cos: np.ndarray | None  # with a conversation: the pool's cosines to the question alone
    conv_cos: np.ndarray | None  # ... and to the conversation
    domains: np.ndarray | None = None  # a personal question's: the pool's life-domain shares (ranking/affinity.py)
    lengths: np.ndarray | None = None  # ... and the pool's text lengths
    said: np.ndarray | None = None  # when each pool fact was last said (a sighting counts; as_of: first said)
    ends: np.ndarray | None = None  # when each pool fact ends or expires (epoch s; inf: never)


@dataclass(frozen=True)
class _Scored:
    """One recall's pool scores, before they are turned into facts or a report."""

    scores: PoolScores
    facts: Sequence[StoredFact]  # the pool's facts (PoolFacts: made under the lock, right after it)
    rows_scored: int
    core: _CoreRows | None = None  # the core facts recall may append (None: none, or core_limit 0)
    read_alone: bool = False  # with a conversation, the gate read the query's own cosines (general, or news)
    core_concerns: frozenset[str] | None = None  # core facts appended only when these or a chosen fact's meet theirs
    core_touched: bool = False  # the core facts were narrowed to those the turn touches (their passed_by)
    closed_turn: tuple[str, tuple[str, ...]] | None = None  # core_when="open": the turn and the turns read with it,
    # whose concerns (core_turn_concerns, read only then) the core facts must meet when the gate keeps nothing
    past: bool = False  # a question about the past: facts no longer valid were ranked too (ranking/past.py)


def _fact(scored: _Scored, i: int, passed_by: str = "") -> RecalledFact:
    """Pool row ``i`` of ``scored`` as recall returns it, with its scores (and the rule that kept it)."""
    s = scored.scores
    return _recalled(scored.facts[i], float(s.cosine[i]), float(s.lexical[i]), float(s.rank_score[i]), passed_by,
                     scored.past)


def _recalled(f: StoredFact, cosine: float, lexical: float, rank_score: float, passed_by: str = "",
              past: bool = False) -> RecalledFact:
    """``f`` as recall returns it: with its scores, and its sightings, session, update and expiry in its metadata
    (where the metadata does not hold those keys already); with ``past`` (a question about the past), the time it
    stopped being true when it is no longer valid now (an ``as_of`` read leaves it out: then it was valid; so does a
    fact whose end lies ahead, a change told to come)."""
    meta = dict(f.metadata)
    meta.setdefault("times_seen", f.times_seen)
    if f.last_seen:
        meta.setdefault("last_seen", f.last_seen)
    if f.session_id is not None:
        meta.setdefault("session_id", f.session_id)
    if f.updated_at:
        meta.setdefault("updated_at", f.updated_at)
    if f.expires_at:
        meta.setdefault("expires_at", f.expires_at)
    return RecalledFact(
        id=f.id,
        entity_id=f.entity_id,
        content=f.content,
        created_at=f.created_at,
        cosine=cosine,
        lexical=lexical,
        rank_score=rank_score,
        metadata=meta,
        valid_from=f.valid_from,
        restored_at=f.restored_at,
        passed_by=passed_by,
        # a fact still valid now whose end is told ahead (a change to come) has not stopped being true
        valid_to=f.valid_to if past and not f.is_valid() else None,
    )
