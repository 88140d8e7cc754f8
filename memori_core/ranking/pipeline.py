"""The ranking pipeline: pool -> lexical -> fusion -> session smoothing -> gate.

Pure functions over numpy arrays, shared by :class:`memori_core.RecallEngine`
(over an entity's cached rows) and :func:`memori_core.ranking.rerank.rerank`
(over candidates found elsewhere). The callers gather the inputs (cosines,
lexical top rows, neighbour links, pool term frequencies); every formula that
turns them into a ranking is here or in the modules this one calls
(:mod:`.lexical` for BM25, :mod:`.fusion` for weights and ordering).

1. :func:`dense_top` / :func:`assemble_pool`: which rows are scored, and why
   (:data:`SOURCE_DENSE`, :data:`SOURCE_LEXICAL`, :data:`SOURCE_NEIGHBOUR`);
2. :func:`score_pool`: BM25 over the pool, normalised, fused with the
   cosine, plus what a fact borrows from its session (:func:`smoothing_bonus`);
3. the gate (:mod:`.gate`): :func:`select` (what recall returns) and
   :func:`fates` (what explain reports).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

import numpy as np

from ..config import RecallConfig
from ..text import normalize_fact_text
from .asking import gate_columns
from .dense import top_k
from .fusion import fuse, fusion_weights, rank_order, with_included
from .gate import BELOW_GATE, BELOW_THRESHOLD, GATE_CLOSED, KEPT, GateDecision, decide, rule_names
from .lexical import bm25_from_tf, unique_terms
from .spread import BELOW_SPREAD, beyond_spread
from .ties import TieOrder

__all__ = [
    "BELOW_THRESHOLD",
    "BELOW_GATE",
    "BELOW_SPREAD",
    "BEYOND_LIMIT",
    "GATE_CLOSED",
    "KEPT",
    "SOURCE_DENSE",
    "SOURCE_LEXICAL",
    "SOURCE_NEIGHBOUR",
    "NeighbourLookup",
    "Pool",
    "PoolScores",
    "REPEATED",
    "assemble_pool",
    "select_with_rules",
    "dense_top",
    "fates",
    "fates_with_rules",
    "first_of_each_text",
    "gate_rows",
    "gate_places",
    "limit_best",
    "neighbour_hops",
    "score_pool",
    "select",
    "session_best",
    "smoothing_bonus",
    "source_label",
    "yield_held",
]

SOURCE_DENSE, SOURCE_LEXICAL, SOURCE_NEIGHBOUR = 1, 2, 4
"""Source flags of a pool row: among the dense top, the lexical top, or a neighbour that entered the pool."""

BEYOND_LIMIT = "beyond limit"
"""Fate of a pool row ranked below ``limit`` (the gate's fates are in :mod:`.gate`)."""

REPEATED = "same text as a fact above"
"""Fate of a fact the gate kept whose text (normalised) a fact recall returns before it already says: the same
fact stored under two ids (a store key and a captured turn, two explicit ids) reaches the prompt once."""

NeighbourLookup = Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]]
"""``rows -> (before, after)``: for each row, the row said just before / after it (``-1``: none)."""


def source_label(flags: int) -> str:
    """``"dense"``, ``"lexical"``, ``"dense+lexical"`` or ``"neighbour"``."""
    if flags & SOURCE_NEIGHBOUR:
        return "neighbour"
    return "+".join(name for bit, name in ((SOURCE_DENSE, "dense"), (SOURCE_LEXICAL, "lexical")) if flags & bit)


@dataclass(frozen=True)
class Pool:
    """The rows to score, in pool order: as :func:`assemble_pool` gives them, dense top, then lexical-only rows, then
    neighbour entrants; the engine's pool then in written order (:func:`~.candidates.in_tie_order`)."""

    rows: np.ndarray
    """Row numbers (int64)."""
    source: np.ndarray
    """Per row, its ``SOURCE_*`` flags (int8)."""
    links: np.ndarray | None
    """``(2, len(rows))``: each row's neighbour before / after (``-1``: none); ``None``: no smoothing."""


@dataclass(frozen=True)
class PoolScores:
    """Every part of every pool row's score, aligned with ``rows`` (pool order)."""

    rows: np.ndarray
    source: np.ndarray
    cosine: np.ndarray
    """float64."""
    bm25: np.ndarray
    """Raw BM25 with the pool's statistics."""
    lexical: np.ndarray
    """``bm25`` normalised to 0..1: divided by ``max(pool maximum, lexical_floor x summed idf)``."""
    fused: np.ndarray
    """``w_cos * cosine + w_lex * lexical`` (the cosine alone for a blank query)."""
    bonus: np.ndarray
    """Neighbour smoothing bonus (and, when the engine adds it, the slot tie-break of :mod:`.recency`)."""
    rank_score: np.ndarray
    """``fused + bonus``: what the pool is ranked and thresholded by."""
    query_tokens: list[str]
    w_cos: float
    w_lex: float
    gate_bm25: np.ndarray | None = None
    """Raw BM25 without the query's words of asking (:mod:`.asking`), which the gate's words rule reads; with
    ``gate_lexical`` its normalised form. ``None``: the query holds none, and the rule reads ``bm25``."""
    gate_lexical: np.ndarray | None = None
    gate_cosine: np.ndarray | None = None
    """What the relevance gate reads as each row's cosine when it differs from ``cosine``: with
    conversation context, ``max(cosine to the question, cosine to the conversation)``
    (:mod:`.conversation`). ``None``: ``cosine``."""
    lift: np.ndarray | None = None
    """Per row, what the gate's cosine cutoffs (``gate_open``, ``gate_keep``, ``gate_confident``, the words
    rule's ``gate_words_cosine``) add to the gate's cosine: the third-person lift of facts written about "User"
    for a personal question (:data:`.gate.USER_WORD`; the engine reads it for the ``limit`` best only, the
    rows the gate reads). The care and follow-up rules, set on such facts,
    read the cosine without it. ``None``: nothing added."""
    care: np.ndarray | None = None
    """Rows the gate may keep as care facts of a personal food or health question (:mod:`.care`)."""
    referent: np.ndarray | None = None
    """The row a follow-up's pronoun points to ("What should I wear to it?" after "I started a pottery class."): the
    best ranked fact, told word for word by the turn just before (:mod:`.referents`). The gate keeps it whatever
    its cosine. ``None``: none."""
    implied: np.ndarray | None = None
    """Facts whose concerns the question touches (:mod:`.implications`: "Can I have a beer?" and "User has
    coeliac disease."; "Should we take the ferry?" and "User gets seasick."): ranked into the ``limit`` best
    and kept by the gate. ``None``: none."""
    concerns: tuple[str, ...] = ()
    """The concerns the question touches that some ``implied`` row constrains (for ``explain``)."""
    carried: np.ndarray | None = None
    """Facts recall kept for the turn before, on a follow-up that leans on it (:mod:`.carried`): kept by the gate,
    and ranked into the ``limit`` best only in place of facts the gate would drop (:func:`limit_best`). ``None``:
    none."""
    upcoming: np.ndarray | None = None
    """Plans in force when a question asks what is coming up for the asker (:mod:`.upcoming`: "Any outdoor plans
    coming up?" and "User is hiking in the Alps next weekend."): ranked into the ``limit`` best and kept by the gate.
    ``None``: none."""
    general: bool = False
    """The question asks about the world, not the asker (:mod:`.intent`); ``gate_cosine`` then holds the
    cosine to the question alone."""
    world: np.ndarray | None = None
    """For a question about the world (:mod:`.world_question`), the facts that only share its topic: the relevance
    gate keeps one by its cosine, its words or the score band alone only from a cosine of ``gate_world``. ``None``:
    not such a question."""
    in_conversation: bool = False
    """The turn was read with its conversation (the gate's follow-up rule applies unless it is ``general``)."""
    nothing_asked: str | None = None
    """Why the turn asks for nothing a fact could answer ("a courtesy turn", "no words"): the relevance gate stays
    closed. ``None``: it may ask something."""
    everything_asked: bool = False
    """The question asks what memory holds ("What do you know about me?",
    :func:`~memori_core.meta_questions.asks_what_memory_holds`): the relevance gate keeps the ``limit`` best."""
    unread_script: str | None = None
    """The question's script when the embedder does not read it (:func:`~memori_core.embedders.embedder_scripts`):
    the relevance gate then keeps only facts holding the question's words. ``None``: the cosines count."""
    not_theirs: np.ndarray | None = None
    """Rows the relevance gate never keeps: the asker's own facts when the question asks about someone else
    (:func:`~.implications.not_about_them`: "What medication does my dad take?" and "User takes warfarin.").
    ``None``: none."""
    asked_about: str | None = None
    """Who the question asks about when it is someone else (:func:`~.implications.asked_about`), for ``explain``."""
    affinity: np.ndarray | None = None
    """What a personal question's ranking added to each row's ``bonus`` and ``rank_score`` (:mod:`.affinity`), for
    ``explain``. ``None``: nothing."""

    @property
    def included(self) -> np.ndarray | None:
        """Rows ranked into the ``limit`` best whatever their score: the ``implied`` and the ``upcoming`` ones
        (``None``: none). The ``carried`` rows take only the places the gate leaves empty (:func:`limit_best`)."""
        if self.upcoming is None:
            return self.implied
        return self.upcoming if self.implied is None else self.implied | self.upcoming


# -- 1. the pool --------------------------------------------------------------


def dense_top(cosine: np.ndarray, k: int, rows: np.ndarray | None = None, tie: TieOrder | None = None) -> np.ndarray:
    """Rows of the ``k`` best cosines, best first (ties: in ``tie`` order of the rows, else lower position first).

    ``cosine[i]`` belongs to row ``rows[i]`` (default: row ``i``); ``-inf``
    marks a row that cannot be recalled (deleted) and is never taken.
    """
    if tie is not None and rows is not None:
        top = top_k(cosine, k, lambda at: tie(rows[at]))
    else:
        top = top_k(cosine, k, tie)
    top = top[~np.isneginf(cosine[top])]
    return top if rows is None else rows[top]


def neighbour_hops(config: RecallConfig) -> int:
    """How many turns away session smoothing looks under ``config``: 0 (off), 1 or 2."""
    if config.second_neighbour_weight > 0:
        return 2
    return 1 if config.neighbour_weight > 0 or config.session_weight > 0 else 0


def assemble_pool(
    dense_rows: np.ndarray,
    lexical_rows: np.ndarray | None = None,
    neighbours_of: NeighbourLookup | None = None,
    hops: int = 1,
) -> Pool:
    """The pool: ``dense_rows``, then the ``lexical_rows`` not among them, then the session
    neighbours (up to ``hops`` turns away, 1 or 2) of all of those that are not in the pool yet
    (first seen first).

    Each row's neighbours come from ``neighbours_of`` (``None``: no smoothing);
    the entrants' own neighbours are looked up too, so that they can lend the
    entrants a bonus.
    """
    rows = np.asarray(dense_rows, dtype=np.int64)
    source = np.full(rows.shape[0], SOURCE_DENSE, dtype=np.int8)
    if lexical_rows is not None and lexical_rows.shape[0]:
        lexical_rows = np.asarray(lexical_rows, dtype=np.int64)
        source[_member(rows, lexical_rows)] |= SOURCE_LEXICAL
        rows, source = _extend(rows, source, lexical_rows[~_member(lexical_rows, rows)], SOURCE_LEXICAL)
    if neighbours_of is None:
        return Pool(rows, source, None)
    links = _links(rows, neighbours_of, hops)
    around = links.T.ravel()  # per row: before, after (, two before, two after)
    around = around[around >= 0]
    entrants = _first_occurrences(around[~_member(around, rows)])
    rows, source = _extend(rows, source, entrants, SOURCE_NEIGHBOUR)
    if entrants.shape[0]:
        links = np.concatenate((links, _links(entrants, neighbours_of, hops)), axis=1)
    return Pool(rows, source, links)


def _links(rows: np.ndarray, neighbours_of: NeighbourLookup, hops: int) -> np.ndarray:
    """``(2 * hops, len(rows))``: before, after, and with two hops the rows two before / two after."""
    before, after = neighbours_of(rows)
    if hops < 2:
        return np.stack((before, after))
    before2 = np.where(before >= 0, neighbours_of(np.maximum(before, 0))[0], -1)
    after2 = np.where(after >= 0, neighbours_of(np.maximum(after, 0))[1], -1)
    return np.stack((before, after, before2, after2))


def _extend(rows: np.ndarray, source: np.ndarray, new: np.ndarray, flag: int) -> tuple[np.ndarray, np.ndarray]:
    if not new.shape[0]:
        return rows, source
    return np.concatenate((rows, new)), np.concatenate((source, np.full(new.shape[0], flag, dtype=np.int8)))


def _member(values: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """``np.isin(values, rows)`` for the small arrays of a pool (a sort and a binary search)."""
    if not rows.shape[0]:
        return np.zeros(values.shape[0], dtype=bool)
    sorted_rows = np.sort(rows)
    at = np.minimum(np.searchsorted(sorted_rows, values), sorted_rows.shape[0] - 1)
    return sorted_rows[at] == values


def _first_occurrences(values: np.ndarray) -> np.ndarray:
    """``values`` without repeats, in order of first occurrence."""
    _, first = np.unique(values, return_index=True)
    return values[np.sort(first)]


# -- 2. the scores ------------------------------------------------------------


def score_pool(
    pool: Pool,
    cosine: np.ndarray,
    tf: np.ndarray,
    dl: np.ndarray,
    query_tokens: Sequence[str],
    config: RecallConfig,
    *,
    has_text: bool = True,
    sessions: np.ndarray | None = None,
    lengths: np.ndarray | None = None,
) -> PoolScores:
    """Score the pool: BM25 with the pool's statistics, normalised, fused with the cosine, smoothed.

    ``cosine``, ``tf`` (pool rows x unique query terms), ``dl`` (token
    counts), ``sessions`` (session codes, ``-1``: none) and ``lengths`` (text
    lengths in characters) are aligned with ``pool.rows``; ``query_tokens``
    (repeats counted) choose the fusion weights. Without query text
    (``has_text=False``) the cosine alone is the fused score.
    """
    cosine = cosine.astype(np.float64, copy=False)
    lex = bm25_from_tf(tf, dl, k1=config.k1, b=config.b, floor=config.lexical_floor)
    read = gate_columns(unique_terms(query_tokens), config.tokenizer, config.stemmer) if has_text else None
    gate_lex = None if read is None else bm25_from_tf(tf[:, read], dl, k1=config.k1, b=config.b,
                                                        floor=config.lexical_floor)
    if has_text:
        w_cos, w_lex = fusion_weights(len(query_tokens), config)
        fused = fuse(cosine, lex.normalised, w_cos, w_lex)
    else:
        w_cos, w_lex = 1.0, 0.0
        fused = cosine.copy()
    if pool.links is None:
        bonus, rank_score = np.zeros_like(fused), fused
    else:
        bonus = smoothing_bonus(pool.rows, fused, pool.links, config, sessions, lengths)
        rank_score = fused + bonus
    return PoolScores(
        rows=pool.rows,
        source=pool.source,
        cosine=cosine,
        bm25=lex.raw,
        lexical=lex.normalised,
        fused=fused,
        bonus=bonus,
        rank_score=rank_score,
        query_tokens=list(query_tokens),
        w_cos=w_cos,
        w_lex=w_lex,
        gate_bm25=None if gate_lex is None else gate_lex.raw,
        gate_lexical=None if gate_lex is None else gate_lex.normalised,
    )


def smoothing_bonus(
    rows: np.ndarray,
    fused: np.ndarray,
    links: np.ndarray,
    config: RecallConfig,
    sessions: np.ndarray | None = None,
    lengths: np.ndarray | None = None,
) -> np.ndarray:
    """What each pool row borrows from its session (facts outside the pool lend nothing):

    ``neighbour_weight`` x the best positive fused score of the facts just before / after it,
    + ``second_neighbour_weight`` x that of the facts two turns away (``links`` rows 2-3),
    + ``session_weight`` x the best positive fused score among the pooled facts of its session,
    all scaled by ``min(1, neighbour_length_ref / length)`` for long facts.
    """
    best = np.maximum(_fused_of(links, rows, fused), 0.0)  # one lookup for every link; -inf lends 0
    bonus = config.neighbour_weight * best[:2].max(axis=0)
    if config.second_neighbour_weight > 0 and links.shape[0] >= 4:
        bonus += config.second_neighbour_weight * best[2:4].max(axis=0)
    if config.session_weight > 0 and sessions is not None:
        bonus += config.session_weight * session_best(fused, sessions)
    if config.neighbour_length_ref is not None and lengths is not None:
        bonus *= np.minimum(1.0, config.neighbour_length_ref / np.maximum(lengths, 1))
    return bonus


def session_best(fused: np.ndarray, sessions: np.ndarray) -> np.ndarray:
    """For each pool row, the best positive fused score among the pool rows of its session (0 without one).

    ``sessions`` are small non-negative codes (``-1``: no session), as the cache hands them out.
    """
    has = sessions >= 0
    if not has.any():
        return np.zeros_like(fused)
    codes = sessions[has]
    best = np.zeros(int(codes.max()) + 1)  # 0: a session whose best is negative lends nothing
    np.maximum.at(best, codes, fused[has])
    out = np.zeros_like(fused)
    out[has] = best[codes]
    return out


def _fused_of(neighbours: np.ndarray, pool: np.ndarray, fused: np.ndarray) -> np.ndarray:
    """Fused score of each neighbour row (any shape) that is in the pool; ``-inf`` for none / not in the pool."""
    order = np.argsort(pool, kind="stable")
    sorted_rows = pool[order]
    at = np.minimum(np.searchsorted(sorted_rows, neighbours), len(sorted_rows) - 1)
    hit = (neighbours >= 0) & (sorted_rows[at] == neighbours)
    return np.where(hit, fused[order[at]], -np.inf)


# -- 3. the outcome -----------------------------------------------------------


def select(scores: PoolScores, limit: int, config: RecallConfig | None) -> np.ndarray:
    """Pool positions that recall returns, best first: the ``limit`` best by
    :func:`~.fusion.rank_order`, less those the gate drops (``config=None``: no gate); with affinity, also what
    the gate passes of the ``limit`` best without it (:func:`_with_passed`)."""
    return select_with_rules(scores, limit, config)[0]


def select_with_rules(scores: PoolScores, limit: int, config: RecallConfig | None) -> tuple[np.ndarray, np.ndarray]:
    """:func:`select`'s pool positions and, for each, the code of the gate rule that kept it
    (:data:`~.gate.GATE_RULES`, int8): what :attr:`~memori_core.facts.RecalledFact.passed_by` names."""
    top = limit_best(scores, limit, config)
    rows, codes, _ = _with_passed(scores, limit, config, top, _decide(scores, top, config))
    return rows, codes


def limit_best(scores: PoolScores, limit: int, config: RecallConfig | None,
               rank_score: np.ndarray | None = None) -> np.ndarray:
    """The pool positions the gate reads, in rank order: the ``limit`` best by ``rank_score`` (default
    ``scores.rank_score``), with the rows ``scores.included`` marks (implied facts, plans in force) ranked in, in
    place of the weakest others, but not of the facts :func:`yield_held` holds in place; then the rows
    ``scores.carried`` marks, best ranked first, in place of the weakest the gate would drop (:func:`_carried_in`)."""
    rank_score = scores.rank_score if rank_score is None else rank_score
    if scores.carried is not None and config is not None and limit > 0:
        plain = replace(scores, carried=None)
        return _carried_in(plain, limit_best(plain, limit, config, rank_score), scores.carried, config, rank_score)
    included = scores.included
    if included is None or limit <= 0 or not included.any():
        return rank_order(rank_score, scores.cosine, limit)
    order = rank_order(rank_score, scores.cosine)
    held = yield_held(scores, limit, config, order)
    return with_included(order, limit, included, held=held if held.size else None)


def gate_places(scores: PoolScores, limit: int, config: RecallConfig) -> tuple[np.ndarray, np.ndarray]:
    """The ``limit`` best the gate reads (:func:`limit_best`, in rank order) and its keep mask over them: which
    places a carried fact could take (:mod:`.carried`)."""
    top = limit_best(scores, limit, config)
    return top, _decide(scores, top, config).keep


def _carried_in(scores: PoolScores, top: np.ndarray, carried: np.ndarray, config: RecallConfig,
                rank_score: np.ndarray) -> np.ndarray:
    """``top`` (the ``limit`` best without carried rows, in rank order) with the ``carried`` rows outside it, best
    ranked first, in place of the weakest rows of ``top`` the gate drops: a fact the turn before was given never
    pushes out one the gate keeps for this turn. In rank order."""
    order = rank_order(rank_score, scores.cosine)
    outside = order[carried[order] & ~_member(order, top)]
    if not outside.size:
        return top
    dropped = top[~_decide(scores, top, config).keep]
    n = min(outside.shape[0], dropped.shape[0])
    if n == 0:
        return top
    taken = np.concatenate((top[~_member(top, dropped[dropped.shape[0] - n:])], outside[:n]))
    return order[_member(order, taken)]


def yield_held(scores: PoolScores, limit: int, config: RecallConfig | None, order: np.ndarray) -> np.ndarray:
    """Pool positions, in rank order, that keep their place among the ``limit`` best of ``order`` (a full
    ranking) when the rows ``scores.included`` marks are ranked in: with ``RecallConfig.gate_implied_yield`` (on
    by default since session 37) and the relevance gate, the facts it keeps among the ``limit`` best without them
    on a cosine that makes it confident (``gate_confident``, with the third-person lift), at most ``limit - 1``
    of them, the best, so the best included row still gets in. Five facts of a concern many facts name
    ("clinic": every allergy and medicine) pushed "User's furnace is 25 years old..." (gate cosine 0.48) out of a
    question about the furnace (docs/ranking.md item 53). Empty when nothing is held. The gate's limit best
    (:func:`limit_best`) and the judge's candidates (:func:`~.judged.judge_pool`) both keep these."""
    none = order[:0]
    included = scores.included
    if (included is None or limit <= 0 or config is None or config.gate != "relevance"
            or not config.gate_implied_yield or scores.general or not included.any()):
        return none
    top = with_included(order, limit, included)
    plain = order[:limit]
    displaced = plain[~_member(plain, top)]
    gate_cosine = scores.cosine if scores.gate_cosine is None else scores.gate_cosine
    if scores.lift is not None:
        gate_cosine = gate_cosine + scores.lift
    if not (gate_cosine[displaced] >= config.gate_confident).any():
        return none
    plain_decision = _decide(scores, plain, config)
    held = plain[plain_decision.keep & (gate_cosine[plain] >= config.gate_confident) & ~included[plain]]
    # One place stays for the best implied row: held filling the limit dropped a peanut allergy from "Can I
    # have satay?" at limits 1-3. ``plain`` is in rank order, so the strongest held rows stay.
    held = held[: limit - 1]
    return none if _member(held, top).all() else held


def gate_rows(scores: PoolScores, limit: int) -> np.ndarray:
    """The pool positions the gate may read: the ``limit`` best and, with affinity, the ``limit`` best without it
    (:func:`_with_passed`), whose third-person lift and care facts the engine reads too."""
    top = rank_order(scores.rank_score, scores.cosine, limit)
    if scores.affinity is None or not scores.affinity.any():
        return top
    plain = rank_order(scores.rank_score - scores.affinity, scores.cosine, limit)
    return np.concatenate((top, plain[~_member(plain, top)]))


def _with_passed(scores: PoolScores, limit: int, config: RecallConfig | None, top: np.ndarray,
                 decision: GateDecision) -> tuple[np.ndarray, np.ndarray, GateDecision]:
    """The rows kept of ``top`` (``decision``'s) and, with affinity (``scores.affinity``), the facts the relevance
    gate passes of the ``limit`` best ranked without it: affinity may push a fact the gate keeps below the limit in
    favour of one it drops (docs/ranking.md item 41). Those come first; affinity's kept entrants fill what is left
    of ``limit``, best ranked first. Returned in ``top``'s order then rank order (as :func:`fates` lists them), with
    the code of the rule that kept each (a fact the gate passes without affinity: the rule that passed it there)
    and the decision saying what was added."""
    kept_at = decision.keep
    kept, kept_codes = top[kept_at], decision.rules()[kept_at]
    if (scores.affinity is None or config is None or config.gate != "relevance" or not scores.affinity.any()
            or limit <= 0):
        return kept, kept_codes, decision
    plain_top = limit_best(scores, limit, config, scores.rank_score - scores.affinity)
    if _member(plain_top, top).all():  # the same limit best: the same decision
        return kept, kept_codes, decision
    plain = _decide(scores, plain_top, config)
    passed, passed_codes = plain_top[plain.keep], plain.rules()[plain.keep]
    missing = passed[~_member(passed, kept)]
    if not missing.size:
        return kept, kept_codes, decision
    others = ~_member(kept, passed)
    room = max(0, limit - passed.shape[0])
    extra, extra_codes = kept[others][:room], kept_codes[others][:room]
    rest = rank_order(scores.rank_score, scores.cosine)
    order = np.concatenate((top, rest[~_member(rest, top)]))  # as fates lists them: the limit best first
    taken, taken_codes = np.concatenate((passed, extra)), np.concatenate((passed_codes, extra_codes))
    chosen = order[_member(order, taken)]
    by_row = np.argsort(taken, kind="stable")
    codes = taken_codes[by_row[np.searchsorted(taken[by_row], chosen)]]
    note = (f"{decision.note}; {missing.shape[0]} more kept that the gate passes among the {limit} best ranked "
            f"without affinity")
    best = np.nanmax([decision.best_cosine, plain.best_cosine])
    return chosen, codes, replace(decision, opened=decision.opened or plain.opened, best_cosine=float(best), note=note)


def fates(scores: PoolScores, limit: int, config: RecallConfig | None) -> tuple[np.ndarray, list[str], GateDecision]:
    """Every pool position, best first, its fate (:data:`KEPT`, :data:`BELOW_THRESHOLD`,
    :data:`GATE_CLOSED`, :data:`BELOW_GATE`, :data:`BEYOND_LIMIT`) and the gate's decision;
    the kept ones are exactly :func:`select`'s."""
    order, fate, _, decision = fates_with_rules(scores, limit, config)
    return order, fate, decision


def fates_with_rules(scores: PoolScores, limit: int, config: RecallConfig | None
                     ) -> tuple[np.ndarray, list[str], list[str], GateDecision]:
    """:func:`fates` with, per pool position, the name of the gate rule that kept it (:data:`~.gate.GATE_RULES`;
    ``""`` for one not kept): the kept positions and their rules are exactly :func:`select_with_rules`'s."""
    order = rank_order(scores.rank_score, scores.cosine)
    top = order[:limit]
    if scores.included is not None or scores.carried is not None:
        # implied and carried rows are among the limit best; the others follow in rank order
        top = limit_best(scores, limit, config)
        order = np.concatenate((top, order[~_member(order, top)]))
    decision = _decide(scores, top, config)
    chosen_rows, codes, shown = _with_passed(scores, limit, config, top, decision)
    if shown is decision:
        dropped = BELOW_THRESHOLD if decision.kind == "threshold" else BELOW_GATE if decision.opened else GATE_CLOSED
        fate = [KEPT if ok else dropped for ok in decision.keep.tolist()]
        if decision.spread_cut is not None:
            fate = [BELOW_SPREAD if cut else f for f, cut in zip(fate, decision.spread_cut.tolist())]
        beyond = order.shape[0] - top.shape[0]
        fate += [BEYOND_LIMIT] * beyond
        return order, fate, rule_names(decision.rules()) + [""] * beyond, decision
    # With what the gate passes without affinity (_with_passed): a fact of the limit best the gate dropped keeps its
    # fate, one it kept but left out for room is beyond the limit, and one kept from further down is kept.
    dropped = BELOW_GATE if shown.opened else GATE_CLOSED
    is_chosen, in_top, kept_top = (_member(order, rows) for rows in (chosen_rows, top, top[decision.keep]))
    cut_top = (_member(order, top[decision.spread_cut]) if decision.spread_cut is not None
               else np.zeros(order.shape[0], dtype=bool))
    fate = [KEPT if c else BELOW_SPREAD if s else dropped if t and not k else BEYOND_LIMIT
            for c, t, k, s in zip(is_chosen.tolist(), in_top.tolist(), kept_top.tolist(), cut_top.tolist())]
    order_codes = np.zeros(order.shape[0], dtype=np.int8)
    order_codes[is_chosen] = codes  # chosen_rows are in order's order
    return order, fate, rule_names(order_codes), shown


def _decide(scores: PoolScores, top: np.ndarray, config: RecallConfig | None) -> GateDecision:
    decision = _decide_all(scores, top, config)
    if decision.kind != "relevance":
        return decision
    if scores.not_theirs is not None:
        left_out = decision.keep & scores.not_theirs[top]
        if left_out.any():
            note = (f"{decision.note}; {int(left_out.sum())} of the asker's own facts left out: the question asks "
                    f"about {scores.asked_about or 'someone else'}")
            decision = replace(decision, keep=decision.keep & ~left_out, note=note)
    return _spread(scores, top, config, decision)


def _spread(scores: PoolScores, top: np.ndarray, config: RecallConfig | None, decision: GateDecision) -> GateDecision:
    """``decision`` less the facts the spread cut drops (:mod:`.spread`; ``gate_spread=None``: unchanged)."""
    spread = None if config is None else config.gate_spread
    if spread is None or int(decision.keep.sum()) < 2:
        return decision
    cosine = (scores.cosine if scores.gate_cosine is None else scores.gate_cosine)[top]
    read = cosine + scores.lift[top] if scores.lift is not None and not scores.general else cosine
    cut = beyond_spread(read, decision.keep, _vouched(scores, top, cosine, config), spread)
    if not cut.any():
        return decision
    note = (f"{decision.note}; {int(cut.sum())} kept on their cosine alone left out, more than {spread:g} below the "
            f"best kept fact's")
    return replace(decision, keep=decision.keep & ~cut, note=note, spread_cut=cut)


def _vouched(scores: PoolScores, top: np.ndarray, cosine: np.ndarray, config: RecallConfig) -> np.ndarray:
    """Among the ``top`` facts, those a second signal keeps (care facts, implications, a follow-up's best), which
    the spread cut never drops."""
    vouched = np.zeros(top.shape[0], dtype=bool)
    if scores.general:
        return vouched
    if scores.care is not None and config.gate_care is not None:
        vouched |= scores.care[top] & (cosine >= config.gate_care_cosine)
    if scores.implied is not None and config.gate_implied:
        vouched |= scores.implied[top]
    if scores.upcoming is not None:
        vouched |= scores.upcoming[top]
    if scores.in_conversation and config.gate_followup is not None:
        head = config.gate_followup_top
        vouched[:head] |= cosine[:head] >= config.gate_followup
    if scores.in_conversation and scores.referent is not None:
        vouched |= scores.referent[top]
    if scores.carried is not None:
        vouched |= scores.carried[top]
    return vouched


def _decide_all(scores: PoolScores, top: np.ndarray, config: RecallConfig | None) -> GateDecision:
    cosine = scores.cosine if scores.gate_cosine is None else scores.gate_cosine
    lexical = scores.lexical if scores.gate_lexical is None else scores.gate_lexical
    bm25 = scores.bm25 if scores.gate_bm25 is None else scores.gate_bm25
    # Affinity orders the pool; it does not vouch for a fact: the gate's score band reads the score without it.
    # Nor does the care rule keep a care fact only affinity brought among the limit best.
    rank_score = scores.rank_score if scores.affinity is None else scores.rank_score - scores.affinity
    care = None if scores.care is None else scores.care[top]
    if care is not None and scores.affinity is not None and care.any():
        care = care & _member(top, rank_order(rank_score, scores.cosine, top.shape[0]))
    return decide(cosine[top], rank_score[top], config, lexical[top], bm25[top],
                  pool_size=int(scores.rows.shape[0]), care=care,
                  general=scores.general, followup=scores.in_conversation and not scores.general,
                  referent=None if scores.referent is None else scores.referent[top],
                  lift=None if scores.lift is None else scores.lift[top],
                  implied=None if scores.implied is None else scores.implied[top], concerns=scores.concerns,
                  upcoming=None if scores.upcoming is None else scores.upcoming[top],
                  carried=None if scores.carried is None else scores.carried[top],
                  world=None if scores.world is None else scores.world[top],
                  nothing_asked=scores.nothing_asked, unread_script=scores.unread_script,
                  everything_asked=scores.everything_asked)


def first_of_each_text(texts: Sequence[str]) -> np.ndarray:
    """For facts in the order recall returns them, whether each is the first to say its text (bool array;
    texts compared by :func:`~memori_core.text.normalize_fact_text`): the others are :data:`REPEATED`."""
    seen: set[str] = set()
    first = np.ones(len(texts), dtype=bool)
    for i, text in enumerate(texts):
        key = normalize_fact_text(text)
        first[i] = key not in seen
        seen.add(key)
    return first
