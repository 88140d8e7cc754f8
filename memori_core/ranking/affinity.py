"""Affinity: how a personal question reaches the facts its words never meet (docs/ranking.md, item 40).

On the app-memory sets a fifth of the turns with needs had no needed fact among the five best, and in 392 of
those 419 turns the needed fact shared no word with the question ("Is satay OK for me?" and "User is allergic to
peanuts."). The needed facts ranked 6th to 20th on cosines of about 0.12 against 0.19 for the fifth. Two parts
of a real memory bring them up, read from the embeddings and the fact's own words, none from the question's:

- **life domain**: a question and a fact that fall in the same part of a life (food, health, family, work,
  travel ...: :data:`~.care.DOMAIN_PROTOTYPES`, a softmax over each domain's best prototype cosine,
  :func:`~.care.domain_shares`) share
  ``DOMAIN_WEIGHT`` x the overlap of their two domain distributions;
- **care facts**: an allergy, a medication, a condition or a diet (:func:`~.care.is_care_fact`) constrains most
  of what a person plans, eats or does, and gains ``CARE_WEIGHT``, ``ADVICE_FACTOR`` times that when the question
  asks what to do.

Both only add, so a fact that holds the question's rare words ("Dr. Okonkwo-Baptiste") keeps its lead. The sum,
times ``RecallConfig.affinity_weight`` (0: off, as in ``memori_compat()``), is added to a personal question's
rank score; long texts (chat turns) take less of it, none from 400 characters (:data:`SHORT_FACT`), and a pool
whose median text is longer than a short fact (a transcript of chat turns, which BM25 and the session's
neighbours rank) takes none. :func:`affinity_bonus` returns it, and ``explain`` shows it in its own column.

The engine and :func:`memori_core.rerank` rank alike through the same three steps: :func:`asks_personally` (which
questions take it), :func:`affinity_for` (the bonus of a pool's facts, given their life-domain shares) and
:func:`with_affinity` (the bonus added to a pool's scores).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

import numpy as np

from .care import DOMAIN_TEMPERATURE, domain_shares, for_the_asker, is_care_fact, is_personal
from .implications import asks_for_advice, asks_what_to_do
from .pipeline import PoolScores

__all__ = ["ADVICE_FACTOR", "CARE_WEIGHT", "DOMAIN_TEMPERATURE", "DOMAIN_WEIGHT", "SHORT_FACT", "affinity_bonus",
           "affinity_for", "asks_personally", "domain_shares", "short_fact_share", "with_affinity"]

DOMAIN_WEIGHT = 0.26
"""What a full overlap of a question's and a fact's life-domain distributions adds."""

CARE_WEIGHT = 0.06
"""What a care fact adds."""

ADVICE_FACTOR = 2.0
"""How many times ``CARE_WEIGHT`` a care fact gains when the question asks what to do."""

SHORT_FACT = (200, 400)
"""Text lengths (characters) over which affinity fades from whole to none: it is for facts of a sentence or two
("User is allergic to peanuts."). A long chat turn holds the words of what it tells, and there BM25 and the
session's neighbours rank it (LongMemEval's turns, median 559 characters)."""

def short_fact_share(lengths: np.ndarray) -> np.ndarray:
    """Per row, how much of the affinity it takes (1 up to ``SHORT_FACT[0]`` characters, 0 from ``SHORT_FACT[1]``,
    linear between)."""
    lo, hi = SHORT_FACT
    return np.clip((hi - np.asarray(lengths, dtype=np.float64)) / (hi - lo), 0.0, 1.0)


def affinity_bonus(fact_domains: np.ndarray, question_domains: np.ndarray, care: np.ndarray, advice: bool,
                   weight: float = 1.0, lengths: np.ndarray | None = None) -> np.ndarray:
    """What a personal question's ranking adds to each pool row's score:
    ``weight x share x (DOMAIN_WEIGHT x overlap + CARE_WEIGHT x care x (ADVICE_FACTOR if advice else 1))``,
    ``overlap`` being ``fact_domains @ question_domains`` (0..1), ``care`` a bool mask of care facts and ``share``
    :func:`short_fact_share` of the texts' ``lengths`` (``None``: 1). ``weight`` 0 adds nothing, and neither does a
    pool of chat turns rather than facts (its median length above ``SHORT_FACT[0]``)."""
    n = fact_domains.shape[0]
    if weight <= 0 or (lengths is not None and n and float(np.median(lengths)) > SHORT_FACT[0]):
        return np.zeros(n, dtype=np.float64)
    overlap = fact_domains @ question_domains
    care_part = CARE_WEIGHT * (ADVICE_FACTOR if advice else 1.0) * care.astype(np.float64)
    add = weight * (DOMAIN_WEIGHT * overlap + care_part)
    return add if lengths is None else add * short_fact_share(lengths)


def asks_personally(query: str) -> bool:
    """Whether affinity ranks ``query``: a question for the asker (:func:`~.care.for_the_asker`) or in the first
    person (:func:`~.care.is_personal`); never a blank one."""
    return bool(query.strip()) and (for_the_asker(query) or is_personal(query))


def affinity_for(query: str, texts: Iterable[str], fact_domains: np.ndarray, question_domains: np.ndarray,
                 weight: float, lengths: np.ndarray | None) -> np.ndarray:
    """:func:`affinity_bonus` for a pool whose rows say ``texts`` (their care facts read by
    :func:`~.care.is_care_fact`), the advice factor applying when ``query`` asks what to do or for advice."""
    care = np.fromiter((is_care_fact(t) for t in texts), dtype=bool, count=fact_domains.shape[0])
    advice = asks_for_advice(query) or asks_what_to_do(query)
    return affinity_bonus(fact_domains, question_domains, care, advice, weight, lengths)


def with_affinity(scores: PoolScores, add: np.ndarray) -> PoolScores:
    """``scores`` with ``add`` (:func:`affinity_for`, one value per pool row) in ``bonus`` and ``rank_score``, and
    on its own in ``affinity`` for ``explain`` and the gate (which reads the score without it)."""
    return replace(scores, bonus=scores.bonus + add, rank_score=scores.rank_score + add, affinity=add)
