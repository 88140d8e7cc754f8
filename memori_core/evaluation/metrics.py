"""Ranking metrics (R@k, nDCG@k), injection metrics (hit@k, clean abstentions) and the threshold report."""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .data import Query


def recall_at(ranked: Sequence[str], evidence: Sequence[str], k: int) -> float:
    """Share of the evidence found in the first ``k`` results."""
    return len(set(ranked[:k]) & set(evidence)) / len(evidence)


def ndcg_at(ranked: Sequence[str], evidence: Sequence[str], k: int) -> float:
    """Binary-relevance nDCG@k."""
    ev = set(evidence)
    dcg = sum(1.0 / math.log2(i + 2) for i, fid in enumerate(ranked[:k]) if fid in ev)
    ideal = sum(1.0 / math.log2(i + 2) for i in range(min(len(ev), k)))
    return dcg / ideal


def reciprocal_rank_fusion(lists: Iterable[Sequence[str]], k: int = 60) -> list[str]:
    """Ids by ``sum(1 / (k + rank))`` over the lists they appear in (rank from 1); ties keep first-seen order."""
    score: dict[str, float] = defaultdict(float)
    for ranked in lists:
        for rank, fid in enumerate(ranked, start=1):
            score[fid] += 1.0 / (k + rank)
    first_seen = {fid: i for i, fid in enumerate(score)}
    return sorted(score, key=lambda fid: (-score[fid], first_seen[fid]))


def category_order(keys: Iterable[str]) -> list[str]:
    """Numeric categories in numeric order, then the others alphabetically."""
    return sorted(keys, key=lambda c: (0, int(c), "") if c.isdigit() else (1, 0, c))


@dataclass
class Scores:
    """Per-query R@5, R@10, nDCG@10, grouped by category."""

    by_category: dict[str, list[tuple[float, float, float]]] = field(default_factory=lambda: defaultdict(list))

    def add(self, category: str | int, ranked: Sequence[str], evidence: Sequence[str]) -> None:
        """Score one answerable query's ranked ids."""
        self.by_category[str(category)].append(
            (recall_at(ranked, evidence, 5), recall_at(ranked, evidence, 10), ndcg_at(ranked, evidence, 10))
        )

    @staticmethod
    def _mean(rows: list[tuple[float, float, float]]) -> dict[str, float]:
        if not rows:
            return {"R@5": 0.0, "R@10": 0.0, "nDCG@10": 0.0, "n": 0}
        a = np.asarray(rows).mean(axis=0)
        return {"R@5": float(a[0]), "R@10": float(a[1]), "nDCG@10": float(a[2]), "n": len(rows)}

    def summary(self) -> dict[str, dict[str, float]]:
        """``{"overall": {...}, "<category>": {...}}``, each with R@5, R@10, nDCG@10 and n."""
        out = {"overall": self._mean([r for rows in self.by_category.values() for r in rows])}
        for cat in category_order(self.by_category):
            out[cat] = self._mean(self.by_category[cat])
        return out


def _mean_or_none(values: Sequence[float]) -> float | None:
    return float(np.mean(values)) if values else None


@dataclass
class Injection:
    """What one gate injects: per answerable query hit / R@1 / count, per abstention query the count."""

    k: int
    threshold: float | None
    hits: list[float] = field(default_factory=list)
    first: list[float] = field(default_factory=list)
    recalled: list[float] = field(default_factory=list)
    answerable_sizes: list[int] = field(default_factory=list)
    abstention_sizes: list[int] = field(default_factory=list)

    def add(self, query: Query, returned: Sequence[str]) -> None:
        """Record what ``recall()`` returned for ``query``."""
        if query.abstention:
            self.abstention_sizes.append(len(returned))
            return
        self.hits.append(1.0 if set(returned) & set(query.evidence) else 0.0)
        self.first.append(recall_at(returned, query.evidence, 1))
        self.recalled.append(recall_at(returned, query.evidence, self.k))
        self.answerable_sizes.append(len(returned))

    def summary(self) -> dict[str, Any]:
        """hit@k, R@1, R@k (share of the evidence injected), facts per answerable query, clean abstentions, facts per abstention query
        (``None`` where there is no query of that kind), with the counts, k and the threshold."""
        return {
            "hit@k": _mean_or_none(self.hits),
            "R@1": _mean_or_none(self.first),
            "R@k": _mean_or_none(self.recalled),
            "facts_per_answerable": _mean_or_none(self.answerable_sizes),
            "clean_abstentions": _mean_or_none([1.0 if n == 0 else 0.0 for n in self.abstention_sizes]),
            "facts_per_abstention": _mean_or_none(self.abstention_sizes),
            "n_answerable": len(self.hits),
            "n_abstention": len(self.abstention_sizes),
            "k": self.k,
            "threshold": self.threshold,
        }


def threshold_report(rows: list[tuple[float, float, bool]], threshold: float | None) -> dict[str, Any]:
    """How a relevance threshold treats the default ranking's top results.

    ``rows`` are ``(score, paraphrase_score, is_evidence)`` for every result in
    the top 10; the paraphrase score is ``w_cos * cosine``: what the fact
    would score for a question sharing none of its words (no BM25, no neighbour bonus).
    ``calibrated`` is the largest threshold keeping >= 95% of the evidence both ways.
    """
    if not rows:
        return {}
    arr = np.asarray([(a, b) for a, b, _ in rows], dtype=np.float64)
    is_ev = np.asarray([e for _, _, e in rows], dtype=bool)
    ev, non = arr[is_ev], arr[~is_ev]
    out: dict[str, Any] = {"evidence_in_top": int(is_ev.sum()), "non_evidence_in_top": int((~is_ev).sum())}
    if ev.size:
        out["calibrated"] = float(min(np.percentile(ev[:, 0], 5), np.percentile(ev[:, 1], 5)))
    t = threshold if threshold is not None else -np.inf
    out["threshold"] = threshold
    if ev.size:
        out["evidence_kept"] = float(np.mean(ev[:, 0] >= t))
        out["evidence_kept_paraphrased"] = float(np.mean(ev[:, 1] >= t))
    if non.size:
        out["non_evidence_removed"] = float(np.mean(non[:, 0] < t))
    kept = arr[:, 0] >= t
    out["precision_of_kept"] = float(is_ev[kept].mean()) if kept.any() else 0.0
    return out
