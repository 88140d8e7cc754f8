"""Core facts on the read path: the entity's core facts a recall may append (read from the copy under the
entity's lock), which of them it appends after what it chose (at most ``core_limit``, most relevant first:
:func:`~memori_core.ranking.core.core_picks`), and where ``explain`` reports them."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import numpy as np

from ..cache import EntityCache
from ..explain import CandidateScore
from ..facts import RecalledFact
from ..ranking.concerns import fact_concerns
from ..ranking.core import CORE, CORE_ALWAYS, CORE_TOUCHED, core_picks, core_touched, core_turn_concerns
from ..ranking.dense import cosine_scores
from ..ranking.implications import not_about_them
from ..ranking.judged import JUDGED_RELEVANT
from ..ranking.pipeline import KEPT
from ..ranking.ties import written_order
from .scored import _CoreRows, _fact, _recalled, _Scored


def _core_rows(cache: EntityCache, rows: np.ndarray, allowed: np.ndarray | None, q: np.ndarray) -> _CoreRows | None:
    """The core facts a recall may append (``rows``: the copy's core rows, ``cache.core_rows()``; live, not expired,
    matching ``where``: among ``allowed``, ``None`` meaning every live row), with their cosines to ``q``; ``None``
    when there are none (call under the entity's lock)."""
    if rows.size and allowed is not None:
        rows = rows[np.isin(rows, allowed)]
    if rows.size == 0:
        return None
    rows = rows[written_order(cache)(rows)]  # core_picks' last key is position: the written order, in any copy
    cosine = cosine_scores(cache.matrix[rows], q)
    return _CoreRows(rows, cosine, cache.recency[rows].copy(), cache.pool_facts(rows))


def _core_for_concerns(core: _CoreRows | None, concerns: frozenset[str]) -> _CoreRows | None:
    """The core facts of ``core`` that a question about the world, or a turn that tells rather than asks, keeps
    (:func:`~memori_core.ranking.core.core_touched`: those whose concerns its words, ``concerns``, touch); ``None``
    when none is kept."""
    if core is None:
        return None
    return _core_kept(core, core_touched([f.content for f in core.facts], concerns))


def _core_for_someone_else(core: _CoreRows | None, who: str) -> _CoreRows | None:
    """The core facts of ``core`` a question about feeding ``who`` keeps (:func:`~memori_core.ranking.implications.fed_to`):
    not the asker's own (:func:`~memori_core.ranking.implications.not_about_them`: "User's son is allergic to eggs."
    stays, "User takes metformin." goes); ``None`` when none is kept."""
    if core is None:
        return None
    return _core_kept(core, ~not_about_them(who, [f.content for f in core.facts]))


def _core_kept(core: _CoreRows, keep: np.ndarray) -> _CoreRows | None:
    """The core facts of ``core`` that ``keep`` (bool per fact) marks; ``None`` when none is."""
    if not keep.any():
        return None
    if keep.all():
        return core
    at = np.flatnonzero(keep)
    return _CoreRows(core.rows[at], core.cosine[at], core.recency[at], [core.facts[i] for i in at.tolist()])


def _core_added(scored: _Scored, chosen: np.ndarray, core_limit: int) -> tuple[list[tuple[int, int]], str]:
    """The core facts to append after the pool positions ``chosen``, in order: (position among
    ``scored.core``, position in the pool or -1 when the fact was not a candidate); and their ``passed_by``
    (``"core touched"`` when they were narrowed to those the turn or a chosen fact touches, else ``"core"``)."""
    core = scored.core
    if core is None:
        return [], CORE_ALWAYS
    concerns = scored.core_concerns
    if concerns is None and scored.closed_turn is not None and not chosen.size:
        concerns = core_turn_concerns(*scored.closed_turn)  # core_when="open" and the gate kept nothing
    pool_rows = scored.scores.rows
    pos = np.full(core.rows.shape[0], -1, dtype=np.int64)
    if pool_rows.shape[0]:
        order = np.argsort(pool_rows, kind="stable")
        sorted_rows = pool_rows[order]
        at = np.minimum(np.searchsorted(sorted_rows, core.rows), sorted_rows.shape[0] - 1)
        hit = sorted_rows[at] == core.rows
        pos[hit] = order[at[hit]]
    is_chosen = np.zeros(pool_rows.shape[0] + 1, dtype=bool)  # the last slot (pos -1): not in the pool
    is_chosen[np.asarray(chosen, dtype=np.int64)] = True
    taken = is_chosen[pos]
    if concerns is not None:  # only those whose concerns the turn or a chosen fact touches
        touched = concerns.union(*(fact_concerns(scored.facts[i].content) for i in chosen.tolist()))
        taken = taken | ~core_touched([f.content for f in core.facts], touched)
    picks = core_picks(core.cosine, core.recency, taken, core_limit)
    rule = CORE_TOUCHED if scored.core_touched or concerns is not None else CORE_ALWAYS
    return [(p, int(pos[p])) for p in picks.tolist()], rule


def _core_fact(scored: _Scored, p: int, i: int, passed_by: str) -> RecalledFact:
    """Core fact ``p`` of ``scored.core`` as recall returns it: with its pool scores when it was a
    candidate (pool position ``i`` >= 0), else with its cosine and 0 for the lexical and rank scores."""
    if i >= 0:
        return _fact(scored, i, passed_by)
    core = scored.core
    assert core is not None
    return _recalled(core.facts[p], float(core.cosine[p]), 0.0, 0.0, passed_by)


def _with_core(
    scored: _Scored, order: np.ndarray, fate: Sequence[str], candidates: list[CandidateScore], core_limit: int
) -> list[CandidateScore]:
    """``explain``'s candidates with the core facts recall appends moved (pool candidates) or added (the
    others, ``source="core"``, numbered after the pool) to the end, kept, with the fate :data:`CORE`:
    the kept candidates in list order are exactly what ``recall`` returns."""
    chosen = order[np.asarray([r in (KEPT, JUDGED_RELEVANT) for r in fate], dtype=bool)]
    added, rule = _core_added(scored, chosen, core_limit)
    if not added:
        return candidates
    at = {i: k for k, i in enumerate(order.tolist())}  # pool position -> index in candidates
    moved: set[int] = set()
    tail: list[CandidateScore] = []
    rank = len(order)
    for p, i in added:
        if i >= 0:
            moved.add(at[i])
            tail.append(replace(candidates[at[i]], kept=True, reason=CORE, passed_by=rule))
            continue
        rank += 1  # not a candidate: its lexical and rank scores are 0 (_core_fact)
        tail.append(CandidateScore.of(_core_fact(scored, p, i, rule), rank=rank, bm25=0.0, kept=True, reason=CORE,
                                      source="core", passed_by=rule))
    return [c for k, c in enumerate(candidates) if k not in moved] + tail
