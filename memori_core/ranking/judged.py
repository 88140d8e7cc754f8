"""The judge in place of the gate: which candidates it sees, what recall keeps, what explain reports.

Pure functions over a recall's :class:`~.pipeline.PoolScores`. With a judge (``RecallEngine(judge=...)``,
:mod:`memori_core.judge`) and a gate that is not off, the judge is shown the ``max(limit,
judge_candidates)`` best pool rows in :func:`~.fusion.rank_order` (ungated; implied rows ranked in as the
gate reads them, :func:`~.pipeline.yield_held`) and recall keeps the ones
it judged relevant, in rank order, at most ``limit``. When the judge fails, the gate decides
(:func:`~.pipeline.select` / :func:`~.pipeline.fates`).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..config import RecallConfig
from .fusion import rank_order, with_included
from .pipeline import BEYOND_LIMIT, PoolScores, yield_held

__all__ = ["JUDGE_RULE", "JUDGED_OUT", "JUDGED_RELEVANT", "judge_pool", "judged_fates", "judged_select"]

JUDGED_RELEVANT = "judged relevant"
"""Fate (``explain``) of a candidate the judge called relevant and recall returns."""
JUDGE_RULE = "judge"
""":attr:`~memori_core.facts.RecalledFact.passed_by` of a fact the judge chose."""
JUDGED_OUT = "judged out"
"""Fate of a candidate the judge was shown and did not call relevant."""


def judge_pool(scores: PoolScores, limit: int, config: RecallConfig) -> np.ndarray:
    """Pool positions the judge is shown, best first: the ``max(limit, judge_candidates)`` best, with the rows
    ``scores.included`` marks ranked in but not in place of the facts the gate holds
    (:func:`~.pipeline.yield_held`), so the judge reads what the gate would."""
    shown = max(limit, config.judge_candidates)
    if scores.included is None or not scores.included.any():
        return rank_order(scores.rank_score, scores.cosine, shown)
    order = rank_order(scores.rank_score, scores.cosine)
    held = yield_held(scores, limit, config, order)
    return with_included(order, shown, scores.included, held=held if held.size else None)


def judged_select(seen: np.ndarray, relevant: Sequence[int], limit: int) -> np.ndarray:
    """Pool positions recall returns: those of ``seen`` at the indices ``relevant`` (sorted, distinct),
    in rank order, at most ``limit``."""
    picked = np.asarray(sorted(set(relevant)), dtype=np.int64)
    return seen[picked][: max(limit, 0)]


def judged_fates(scores: PoolScores, seen: np.ndarray, relevant: Sequence[int], limit: int
                 ) -> tuple[np.ndarray, list[str]]:
    """Every pool position, best first, and its fate: :data:`JUDGED_RELEVANT` for what
    :func:`judged_select` keeps, :data:`JUDGED_OUT` for the other candidates the judge saw,
    ``"beyond limit"`` for the rest (never shown, or judged relevant past ``limit``)."""
    order = rank_order(scores.rank_score, scores.cosine)
    kept = set(judged_select(seen, relevant, limit).tolist())
    called = {int(seen[k]) for k in relevant}
    shown = set(seen.tolist())
    fate = []
    for i in order.tolist():
        if i in kept:
            fate.append(JUDGED_RELEVANT)
        elif i in shown and i not in called:
            fate.append(JUDGED_OUT)
        else:
            fate.append(BEYOND_LIMIT)
    return order, fate
