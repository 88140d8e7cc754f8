"""The read path of :class:`~memori_core.engine.RecallEngine`: recall and explain.

Under the entity's lock a recall only gathers what the ranking needs from the cache
(:mod:`memori_core.ranking.candidates`); scoring, the gate, core facts and the judge's verdict are the
ranking's pure functions (:mod:`memori_core.ranking`), applied outside the lock.
"""

from __future__ import annotations

import contextvars
import functools
import logging
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from ..cache import EntityCache
from ..cache.columns import PoolFacts
from ..cache.coordinator import Coordinator
from ..config import RecallConfig
from ..embedders import Embedder, check_matrix, embedder_scripts
from ..explain import CandidateScore, RecallReport
from ..facts import RecalledFact, StoredFact
from ..filters import Where, check_where, where_key
from ..judge import Judge, UnreadableJudgement, as_indices
from ..ranking.candidates import gather
from ..ranking.care import care_share, for_the_asker, is_care_fact, named_by
from ..ranking.care import prototype_texts as domain_texts
from ..ranking.intent import (
    asks_an_amount_in_a_unit,
    is_general,
    names_known,
    reads_as_a_question,
    speaks_of_the_user,
)
from ..ranking.intent import prototype_texts as intent_texts
from ..query import recent_turns
from ..ranking.conversation import (
    COURTESY_WORDS,
    blend_query,
    conversation_text,
    conversation_turns,
    gate_cosine,
    is_courtesy,
    goes_on_from_the_conversation,
    leans_on_the_conversation,
    points_back,
    tells_news,
    told_in,
)
from ..ranking.core import CORE, core_picks
from ..ranking.dense import cosine_scores, l2_normalise
from ..ranking.fusion import fusion_weights, rank_order
from ..ranking.gate import USER_WORD
from ..ranking.implications import asks_about_named, asks_to_be_reminded, goes_on, thread_of, with_implied
from ..ranking.judged import JUDGED_RELEVANT, judge_pool, judged_fates, judged_select
from ..ranking.lexical import unique_terms
from ..ranking.recency import asks_when, with_restatements, with_slot_recency
from ..ranking.pipeline import (
    KEPT,
    REPEATED,
    PoolScores,
    fates,
    first_of_each_text,
    score_pool,
    select,
    source_label,
)
from ..text import analyzer, main_script
from ..validate import check_as_of, check_context, check_entity_id, check_limit, check_query
from .closing import when_open


logger = logging.getLogger(__name__)

MAX_JUDGE_CALLS = 16
"""Judge calls one engine lets run at once. A call past ``judge_timeout`` keeps its thread until the judge
returns; with this many still running, recall falls back to the gate at once instead of starting another."""


def _check_judge(judge: Any, judge_timeout: Any) -> float:
    """``judge`` must be callable or ``None``; ``judge_timeout`` a positive, finite number of seconds."""
    if judge is not None and not callable(judge):
        raise TypeError(f"judge must be a callable(query, facts, context) -> indices or None, "
                        f"got {type(judge).__name__}")
    if isinstance(judge_timeout, bool) or not isinstance(judge_timeout, (int, float)):
        raise TypeError(f"judge_timeout must be a number of seconds, got {type(judge_timeout).__name__}")
    if not (0 < judge_timeout < float("inf")):
        raise ValueError(f"judge_timeout must be a positive, finite number of seconds, got {judge_timeout!r}")
    return float(judge_timeout)


def _short_repr(value: Any, width: int = 80) -> str:
    text = repr(value)
    return text if len(text) <= width else text[: width - 1] + "…"



@functools.lru_cache(maxsize=8)
def _courtesy_terms(key: tuple[str, str | None]) -> frozenset[str]:
    """The courtesy words as the analyzer ``key`` turns them into terms."""
    analyse = analyzer(*key)
    return frozenset(t for word in COURTESY_WORDS for t in analyse(word))



@dataclass(frozen=True)
class _Scored:
    """One recall's pool scores, before they are turned into facts or a report."""

    scores: PoolScores
    facts: Sequence[StoredFact]  # the pool's facts (PoolFacts: made under the lock, right after it)
    rows_scored: int
    core: _CoreRows | None = None  # the core facts recall may append (None: none, or core_limit 0)
    read_alone: bool = False  # with a conversation, the gate read the query's own cosines (general, or news)


def _without_repeats(candidates: list[CandidateScore]) -> list[CandidateScore]:
    """``explain``'s candidates with each kept one whose text a kept one before it says marked :data:`REPEATED`
    (not kept), as :meth:`RecallEngine.recall` leaves it out."""
    kept = [k for k, c in enumerate(candidates) if c.kept]
    if len(kept) < 2:
        return candidates
    first = first_of_each_text([candidates[k].content for k in kept])
    if first.all():
        return candidates
    out = list(candidates)
    for k, ok in zip(kept, first.tolist()):
        if not ok:
            out[k] = replace(out[k], kept=False, reason=REPEATED)
    return out


def _gate_read(s: PoolScores, i: int) -> float | None:
    """The cosine the gate's cutoffs read for pool row ``i``: its gate cosine (with context) plus its
    third-person lift; ``None`` when that is the plain cosine."""
    if s.gate_cosine is None and s.lift is None:
        return None
    base = float(s.cosine[i] if s.gate_cosine is None else s.gate_cosine[i])
    return base + (0.0 if s.lift is None else float(s.lift[i]))


@dataclass(frozen=True)
class _Judgement:
    """What the judge said about one recall's best candidates."""

    seen: np.ndarray  # pool positions it was shown, best first
    relevant: list[int] | None  # indices into ``seen`` it called relevant; None: it failed, the gate decides
    failure: str = ""  # why it failed


@dataclass(frozen=True)
class _Prototypes:
    """The sentences the gate's second and third signals compare a question with, embedded once per engine."""

    domains: np.ndarray  # life-domain prototypes, domain after domain (:mod:`~.ranking.care`)
    starts: np.ndarray  # row of each domain's first prototype
    intents: np.ndarray  # advice requests, then general-knowledge shapes (:mod:`~.ranking.intent`)
    advice: int  # how many advice requests come first


@dataclass(frozen=True)
class _CoreRows:
    """The entity's core facts that a recall may return (live, not expired, matching ``where``)."""

    rows: np.ndarray
    cosine: np.ndarray  # to the query
    recency: np.ndarray  # later of created / last seen (epoch s): breaks cosine ties
    facts: Sequence[StoredFact]  # PoolFacts of ``rows``, made under the lock



ANSWERS_KEPT = 4
"""Recall answers a cached copy keeps (the most recent): an agent's turn asks the same question several times
(LlamaIndex's ``FunctionAgent`` reads its ``Memory`` again after the model answered, and after each tool)."""


@dataclass(frozen=True)
class _Asked:
    """What decides a recall's answer besides the copy and the engine's settings: the question."""

    query: str
    limit: int
    where: str | None  # canonical (filters.where_key)
    read: tuple[str, ...]  # the earlier turns recall reads

    @classmethod
    def of(cls, query: str, limit: int, where: Where | None, read: Sequence[str]) -> _Asked:
        return cls(query, limit, None if where is None else where_key(where), tuple(read))


@dataclass(frozen=True, eq=False)
class _Answer:
    """A recall's answer over a copy: valid while the copy is at ``revision``, before ``horizon`` (the first
    expiry among its facts, epoch seconds), for the same engine settings (``inputs``, compared by identity)."""

    revision: str | None
    horizon: float
    inputs: tuple[Any, ...]
    facts: tuple[RecalledFact, ...]


def _answered(cache: EntityCache, asked: _Asked, inputs: tuple[Any, ...], now: float) -> tuple[RecalledFact, ...] | None:
    """The answer ``cache`` keeps for ``asked`` when it still holds (call under the entity's lock)."""
    answer = cache.answers.get(asked)
    if answer is None:
        return None
    if (answer.revision != cache.revision or now >= answer.horizon or len(answer.inputs) != len(inputs)
            or any(a is not b for a, b in zip(answer.inputs, inputs))):
        del cache.answers[asked]
        return None
    cache.answers.move_to_end(asked)
    return answer.facts


def _copies(facts: Sequence[RecalledFact]) -> list[RecalledFact]:
    """``facts`` with metadata dicts of their own: a caller may change the ones it got."""
    return [replace(f, metadata=dict(f.metadata)) for f in facts]


def _remember_answer(cache: EntityCache, asked: _Asked, answer: _Answer) -> None:
    """Keep ``answer`` on ``cache`` (the :data:`ANSWERS_KEPT` most recent; call under the entity's lock)."""
    cache.answers[asked] = answer
    cache.answers.move_to_end(asked)
    while len(cache.answers) > ANSWERS_KEPT:
        cache.answers.popitem(last=False)


class ReadPath:
    """The read methods of :class:`~memori_core.engine.RecallEngine` (a mixin: the state is the engine's)."""

    config: RecallConfig
    judge: Judge | None
    judge_timeout: float
    embedder: Embedder
    _embedder: Embedder | None
    _coord: Coordinator
    _judge_slots: threading.BoundedSemaphore
    _prototypes: _Prototypes | None
    _prototypes_failing: bool
    _prototypes_lock: threading.Lock
    _closed_by: str | None

    @when_open
    def recall(
        self,
        query: str,
        entity_id: str,
        limit: int | None = None,
        *,
        query_vector: Any | None = None,
        where: dict[str, Any] | None = None,
        context: Sequence[str] | str | None = None,
        as_of: Any = None,
    ) -> list[RecalledFact]:
        """The facts of ``entity_id`` most relevant to ``query``, best first, threshold applied.

        A blank query or ``limit=0`` returns ``[]`` without touching the
        embedder or the store; a query that is not a ``str`` (``None``
        included) raises ``TypeError``, a negative ``limit`` ``ValueError``.
        ``query_vector`` skips embedding the query (it
        must come from the same embedder as the stored facts). ``where``
        restricts recall to facts whose own metadata matches (``{"source":
        "chat"}``, ``{"topic": {"$in": ["food", "health"]}}``; keys are ANDed),
        before the candidate pool is sized. Expired facts are never recalled, nor facts whose own metadata
        holds ``"searchable": False`` (:data:`~memori_core.facts.SEARCHABLE_KEY`: stored, listed, exported,
        kept out of search).
        ``context`` is the conversation before ``query`` (earlier user turns,
        oldest first, optionally the last assistant reply): the latest
        ``config.context_turns`` of them move the search towards what the
        conversation is about, so a follow-up recalls what an earlier turn named.
        With a ``judge`` (see ``__init__``) the judge, shown those turns too, chooses instead of the gate.
        A query or context turn longer than :data:`~memori_core.validate.MAX_TURN_CHARS` (8,000) characters is
        read as its first and last 4,000 (:func:`~memori_core.validate.clip_turn`): a pasted megabyte costs no
        more than a long turn.
        Facts no longer valid (superseded, or replaced by an update) are not recalled, nor a fact whose text
        (normalised) one returned before it says (``config.one_per_text``: the same fact under two ids). ``as_of`` (a
        datetime, naive meaning UTC, or an ISO 8601 str) answers from the facts valid at that time instead:
        created at or before it, and not yet superseded or expired then.

        A question asked again (the same query, limit, ``where`` and earlier turns read; no ``query_vector``
        or ``as_of``) over the same copy of the user's facts, at the same revision of the store, before any
        of them expires and with the same config, embedder and judge, gets the answer given before without
        embedding, ranking or asking the judge again (the last :data:`ANSWERS_KEPT` per user; not an answer
        a judge failed on). The revision is read from the store first, as for every recall, so a write that
        landed meanwhile, in any process, is always seen.
        """
        query, entity_id, limit, where, at = self._checked(query, entity_id, limit, where, as_of)
        read, conversation = self._conversation(query, context)
        if not query.strip() or limit <= 0:
            return []
        # One freshness check per recall, at its start (under the lock: a write updates a copy in place only
        # under it). The same question over the same copy, before any of its facts expires, was answered.
        asked = None if query_vector is not None or at is not None else _Asked.of(query, limit, where, read)
        horizon = float("inf")
        with self._entity_lock(entity_id):
            cache = self._cache_for(entity_id)
            revision, now = cache.revision, time.time()
            if asked is not None:
                answer = _answered(cache, asked, self._answer_inputs(), now)
                if answer is not None:
                    return _copies(answer)
                horizon = cache.next_expiry(now)
        scored = self._score(query, entity_id, limit, query_vector, where, conversation, at,
                             read=read if conversation is not None else (), cache=cache)
        if isinstance(scored, str):
            return []
        judged = self._judgement(query, scored, limit, read)
        if judged is not None and judged.relevant is not None:
            chosen = judged_select(judged.seen, judged.relevant, limit)  # the judge decided
        else:
            chosen = select(scored.scores, limit, self.config)
        # Then the core facts not chosen (at most core_limit, most relevant first): on every turn.
        core = [self._core_fact(scored, p, i) for p, i in self._core_added(scored, chosen)]
        facts = [*(self._fact(scored, i) for i in chosen.tolist()), *core]
        if len(facts) >= 2 and self.config.one_per_text:
            first = first_of_each_text([f.content for f in facts])
            facts = facts if first.all() else [f for f, ok in zip(facts, first.tolist()) if ok]
        # Kept only when nothing but the copy and the question decided it: a failed judge or gate prototypes
        # might answer otherwise the next time.
        if asked is not None and not (judged is not None and judged.relevant is None) and not self._prototypes_failing:
            with self._entity_lock(entity_id):
                if cache.revision == revision:
                    _remember_answer(cache, asked,
                                     _Answer(revision, horizon, self._answer_inputs(), tuple(_copies(facts))))
        return facts

    @when_open
    def nearest(
        self,
        query: str,
        entity_id: str,
        limit: int | None = None,
        *,
        where: dict[str, Any] | None = None,
    ) -> list[RecalledFact]:
        """The ``limit`` valid facts of ``entity_id`` that rank best for ``query``, best first, with no gate, no
        judge and no core facts appended: the ranking :meth:`recall` starts from.

        This is what a fact extractor is shown to say which stored fact a new one replaces (capture does so):
        "So they let me go on Monday." is far from "User is a warehouse supervisor." in cosine, so the gate
        rightly keeps that fact out of the prompt, yet it is the one the turn ends. ``where`` as in :meth:`recall`.
        """
        query, entity_id, limit, where, _ = self._checked(query, entity_id, limit, where, None)
        if not query.strip() or limit <= 0:
            return []
        scored = self._score(query, entity_id, limit, None, where, gated=False)
        if isinstance(scored, str):
            return []
        return [self._fact(scored, i) for i in select(scored.scores, limit, None).tolist()]

    @when_open
    def explain(
        self,
        query: str,
        entity_id: str,
        limit: int | None = None,
        *,
        query_vector: Any | None = None,
        where: dict[str, Any] | None = None,
        context: Sequence[str] | str | None = None,
        as_of: Any = None,
    ) -> RecallReport:
        """Recall with every pool candidate's score parts and fate; ``print()`` it for a table (``as_of``: as in
        :meth:`recall`)."""
        query, entity_id, limit, where, at = self._checked(query, entity_id, limit, where, as_of)
        cfg = self.config
        read, conversation = self._conversation(query, context)
        turns_read = len(conversation_turns(read)) if conversation else 0
        q_tokens = analyzer(cfg.tokenizer, cfg.stemmer)(query)
        w_cos, w_lex = fusion_weights(len(q_tokens), cfg)

        def empty(note: str) -> RecallReport:
            return RecallReport(query, entity_id, limit, q_tokens, w_cos, w_lex, cfg.relevance_threshold, 0, 0, [], note,
                                conversation=conversation, context_turns=turns_read,
                                context_weight=cfg.context_weight if conversation else 0.0)

        if not query.strip():
            return empty("blank query: nothing is recalled")
        if limit <= 0:
            return empty("limit 0: nothing is recalled")
        scored = self._score(query, entity_id, limit, query_vector, where, conversation, at,
                             read=read if conversation is not None else ())
        if isinstance(scored, str):
            return empty(scored)
        s = scored.scores
        order, fate, gate = fates(s, limit, cfg)
        gate_kind, gate_opened, gate_note = gate.kind, gate.opened, gate.note
        judged = self._judgement(query, scored, limit, read)
        if judged is not None and judged.relevant is not None:
            order, fate = judged_fates(s, judged.seen, judged.relevant, limit)
            kept_n = fate.count(JUDGED_RELEVANT)
            gate_kind, gate_opened = "judge", kept_n > 0
            gate_note = (f"judge: {len(judged.relevant)} of the {len(judged.seen)} best candidates judged relevant, "
                         f"{kept_n} kept (limit {limit}); without the judge, {gate.note}")
        elif judged is not None:
            gate_note = (f"judge failed on the {len(judged.seen)} best candidates ({judged.failure}); fell back to "
                         f"the {gate.kind} gate: {gate.note}")
        candidates = []
        for rank, (i, reason) in enumerate(zip(order.tolist(), fate), start=1):
            fact = self._fact(scored, i)
            candidates.append(
                CandidateScore(
                    rank=rank,
                    id=fact.id,
                    content=fact.content,
                    created_at=fact.created_at,
                    cosine=fact.cosine,
                    bm25=float(s.bm25[i]),
                    lexical=fact.lexical,
                    rank_score=fact.rank_score,
                    kept=reason in (KEPT, JUDGED_RELEVANT),
                    reason=reason,
                    metadata=fact.metadata,
                    source=source_label(int(s.source[i])),
                    fused=float(s.fused[i]),
                    neighbour_bonus=float(s.bonus[i]),
                    gate_cosine=_gate_read(s, i),
                    valid_from=fact.valid_from,
                )
            )
        candidates = self._with_core(scored, order, fate, candidates)
        if cfg.one_per_text:
            candidates = _without_repeats(candidates)
        return RecallReport(
            query, entity_id, limit, s.query_tokens, s.w_cos, s.w_lex,
            cfg.relevance_threshold, scored.rows_scored, len(order), candidates,
            gate=gate_kind, gate_opened=gate_opened, best_cosine=gate.best_cosine, gate_note=gate_note,
            conversation=conversation, context_turns=turns_read,
            context_weight=cfg.context_weight if conversation else 0.0,
            read_alone=scored.read_alone,
            third_person=0.0 if s.lift is None else float(cfg.gate_third_person or 0.0),
        )

    def _answer_inputs(self) -> tuple[Any, ...]:
        """What of the engine a recall's answer depends on, compared by identity: its config, embedder,
        judge, the judge's time limit (a boxed float: a new value is a new object) and the gate's embedded
        prototype sentences."""
        return (self.config, self._embedder, self.judge, self.judge_timeout, self._prototypes)

    def _checked(
        self, query: Any, entity_id: Any, limit: Any, where: Any, as_of: Any
    ) -> tuple[str, str, int, Where | None, float | None]:
        """The arguments recall and explain share, checked (each error names its argument)."""
        query, entity_id = check_query(query), check_entity_id(entity_id)
        limit = check_limit(limit, self.config.limit)
        where = check_where(where) if where is not None else None  # (no filter: the filter module is not run)
        return query, entity_id, limit, where, check_as_of(as_of)

    def _embed_query(self, query: str, query_vector: Any | None) -> np.ndarray:
        if query_vector is None:
            return self.embedder.embed_query(query)
        vec = np.asarray(query_vector, dtype=np.float32)
        if vec.ndim == 1 and vec.size and np.isfinite(sq := float(np.dot(vec, vec))) and sq > 0:
            return vec  # fast path: a finite, non-zero vector (the norm check covers NaN and inf)
        return check_matrix([query_vector], rows=1, name="query_vector")[0]

    def _score(
        self, query: str, entity_id: str, limit: int, query_vector: Any | None, where: Where | None = None,
        conversation: str | None = None, at: float | None = None, gated: bool = True,
        read: Sequence[str] = (), cache: EntityCache | None = None,
    ) -> _Scored | str:
        """Score the candidates, or return the reason nothing could be scored. ``conversation`` (see
        :func:`~memori_core.ranking.conversation.conversation_text`) moves the search direction; ``read`` are
        the user's turns it holds, oldest first (a follow-up goes on with the concerns of the last). Without
        ``gated`` (:meth:`nearest`) the gate's signals and the core facts, which only the gate and recall's
        appending read, are not computed."""
        with self._entity_lock(entity_id):
            # One freshness check per recall, at its start (``cache``: recall made it); the copy is used again
            # below (under the lock: a write updates a copy in place only under it, and never one it dropped).
            if cache is None:
                cache = self._cache_for(entity_id)
            if len(cache) == 0:
                # Said before the query is embedded: an unknown entity never loads the model.
                return "no facts stored for this entity"
        vec = self._embed_query(query, query_vector)
        question = conv = None
        if conversation is not None:
            question = l2_normalise(vec)[0]
            conv = l2_normalise(self.embedder.embed_query(conversation))[0]
            vec = blend_query(question, conv, self.config.context_weight)
        q = l2_normalise(vec)[0]
        cfg = self.config
        key = (cfg.tokenizer, cfg.stemmer)
        q_tokens = analyzer(*key)(query)
        q_terms = unique_terms(q_tokens)
        asker = for_the_asker(query)  # read by the general-question rule, the follow-up rule and the personal rules
        # Measured before the lock: the first such question embeds the prototypes, which must not hold it.
        general_shape = (gated and not (read and goes_on_from_the_conversation(query))
                         and self._general_shape(query, question if question is not None else q, asker))
        with self._entity_lock(entity_id):
            if cache.skipped_dims and not cache.warned_skipped:
                cache.warned_skipped = True
                logger.warning(
                    "entity %r: skipped %d stored row(s) whose dimension differs from the others (%s)",
                    entity_id, sum(cache.skipped_dims.values()), dict(cache.skipped_dims),
                )
            if len(cache) == 0:
                return "no facts stored for this entity"
            if cache.dim != q.shape[0]:
                if q.shape[0] not in cache.warned_dims:
                    cache.warned_dims.add(q.shape[0])
                    logger.warning(
                        "entity %r: query embedding is %d-d but the stored rows are %d-d; skipping them",
                        entity_id, q.shape[0], cache.dim,
                    )
                return f"query embedding is {q.shape[0]}-d but stored rows are {cache.dim}-d"

            # The rows a recall may return: live, not expired, matching ``where`` (None: all live rows).
            allowed = self._allowed_rows(cache, where, at)
            if allowed is not None and allowed.size == 0:
                if at is not None:
                    return "no stored fact matching the filter was valid then" if where else "no stored fact was valid then"
                if where:
                    return "no stored fact matches the filter (among the searchable, unexpired ones)"
                return "every stored fact has expired or is kept out of search (\"searchable\": false)"
            found = gather(cache, q, q_terms, key, limit, cfg, allowed, blank=not query.strip())
            pool = found.pool
            pool_facts = cache.pool_facts(pool.rows)  # a StoredFact is built only for the facts read from it
            created = cache.created_ts[pool.rows]  # a copy (fancy indexing), read after the lock
            core = self._core_rows(cache, allowed, q) if gated and cfg.core_limit > 0 else None
            question_cos = conv_cos = None
            if question is not None and conv is not None and question.shape == q.shape:
                pooled = cache.matrix[pool.rows]
                question_cos, conv_cos = cosine_scores(pooled, question), cosine_scores(pooled, conv)
        general = general_shape and not names_known(query, pool_facts.texts())
        gate_cos = None
        news = bool(read) and tells_news(query)  # only a turn read with its conversation can tell news
        leans = bool(read) and leans_on_the_conversation(query)
        # A general question, a turn telling news, or one asking to be reminded of the asker's own thing ("What's
        # my job?") is judged on its own words: the conversation does not widen the gate.
        alone = general or news or (bool(read) and asks_to_be_reminded(query) and not points_back(query))
        if question_cos is not None and conv_cos is not None:
            gate_cos = question_cos if alone else gate_cosine(question_cos, conv_cos)
            if not alone:
                gate_cos = self._unwiden_told(gate_cos, question_cos, conv_cos, pool_facts, read)
        scores = score_pool(pool, found.cosine, found.tf, found.dl, q_tokens, cfg, sessions=found.sessions,
                            lengths=found.lengths)
        if gate_cos is not None:
            scores = replace(scores, gate_cosine=gate_cos.astype(scores.cosine.dtype),
                             in_conversation=not news and (asker or leans))
        if cfg.restatement_terms is not None and not asks_when(query):
            scores = with_restatements(scores, found.tf, created, cfg.restatement_terms)
        if cfg.slot_recency_weight > 0:
            scores = with_slot_recency(scores, lambda i: pool_facts[i].content, created, limit, cfg.slot_recency_weight)
        read_alone = alone and gate_cos is not None  # what explain says: only a turn with context is read at all
        if gated and cfg.gate == "relevance":
            nothing, unread = self._unasked(query, q_tokens)
            if nothing is not None or unread is not None:
                scores = replace(scores, nothing_asked=nothing, unread_script=unread)
                return _Scored(scores, pool_facts, found.scorable, core, read_alone)
        if general:
            return _Scored(replace(scores, general=True), pool_facts, found.scorable, core, read_alone)
        if not gated or cfg.gate != "relevance" or not (scores.in_conversation or asker
                                                         or asks_about_named(query, pool_facts.texts)):
            return _Scored(scores, pool_facts, found.scorable, core, read_alone)
        # A personal question, or a turn that leans on its conversation: the third-person lift, the care signal
        # and the implications, read among the rows the gate reads.
        top = rank_order(scores.rank_score, scores.cosine, limit)
        if cfg.gate_third_person:
            about = top[pool_facts.starts_with_word(USER_WORD, top)]
            if about.size:
                lift = np.zeros(scores.cosine.shape[0])
                lift[about] = cfg.gate_third_person
                if question_cos is not None and conv_cos is not None and not alone:
                    # Only the question's own cosine is lifted: the conversation's is read as it was, except for a
                    # fact a read turn tells (_unwiden_told), which the gate reads on the question's cosine alone.
                    widened = gate_cosine(question_cos, conv_cos)
                    told = scores.gate_cosine < widened if scores.gate_cosine is not None else False
                    lift = np.where(told, lift, np.maximum(question_cos + lift, conv_cos) - widened)
                scores = replace(scores, lift=lift.astype(scores.cosine.dtype))
        said = None if news else "\n".join(read) or None  # who the turns before name (a friend's allergy is theirs)
        asked = query if said is None else f"{query}\n{said}"
        # A turn going on from its conversation ("How about the satay?" after "We're at a Thai place") is about
        # food or health when its conversation is.
        followed = conv if conv is not None and not news and leans else None
        care = self._care(question if question is not None else q, asked, scores, pool_facts, top, followed)
        if care is not None:
            scores = replace(scores, care=care)
        if cfg.gate_implied:
            # A turn inherits the concerns of the turns it goes on from: one that says so by its words ("How about
            # the satay?", "...there?"), or a request for advice ("What starter would you suggest?" after "I'm
            # planning a dinner party"); a question about the asker's own things ("What instrument do I play?"
            # after "Can I eat satay?") is a question of its own.
            follows = bool(read) and not news and goes_on(query)
            scores = with_implied(query, scores, pool_facts.texts, before="\n".join(thread_of(read)) if follows else None,
                                  told=self._told, conversation=said)
        return _Scored(scores, pool_facts, found.scorable, core, read_alone)

    def _told(self, fact: str, turn: str) -> bool:
        """Whether ``turn`` tells ``fact`` word for word (:func:`~.ranking.conversation.told_in`)."""
        analyze = analyzer(self.config.tokenizer, self.config.stemmer)
        return told_in(analyze(fact), [frozenset(analyze(turn))], frozenset(analyze(USER_WORD)))

    def _unwiden_told(self, gate_cos: np.ndarray, question_cos: np.ndarray, conv_cos: np.ndarray,
                      facts: PoolFacts, read: Sequence[str]) -> np.ndarray:
        """``gate_cos`` with the question's own cosine for the facts a read turn tells word for word
        (:func:`~.ranking.conversation.told_in`): only the rows the conversation lifts to where a gate rule
        could keep them are read."""
        cfg = self.config
        bar = min(cfg.gate_keep, cfg.gate_followup if cfg.gate_followup is not None else cfg.gate_keep)
        lifted = np.flatnonzero((conv_cos > question_cos) & (conv_cos >= bar))
        if not lifted.size or not read:
            return gate_cos
        analyze = analyzer(cfg.tokenizer, cfg.stemmer)
        turns = [frozenset(analyze(t)) for t in read]
        ignore = frozenset(analyze(USER_WORD))
        told = [i for i in lifted.tolist() if told_in(analyze(facts[i].content), turns, ignore)]
        if not told:
            return gate_cos
        out = gate_cos.copy()
        out[told] = question_cos[told]
        return out

    @staticmethod
    def _allowed_rows(cache: EntityCache, where: Where | None, at: float | None = None) -> np.ndarray | None:
        """Live rows that are searchable (not ``"searchable": False``), not expired (superseded facts expire at
        their ``valid_to``) and match ``where``; ``None`` when that is every live row. With ``at``: the rows
        valid at that time (epoch seconds)."""
        hidden = cache.unsearchable_rows()  # memoised: an entity without such facts pays nothing here
        if at is not None:
            rows = cache.valid_at_rows(at, cache.matching_rows(where) if where is not None else None)
        else:
            expired = cache.expired_rows(time.time())
            if where is None and expired.size == 0 and hidden.size == 0:
                return None
            rows = cache.matching_rows(where) if where is not None else cache.live_rows()
            if expired.size:
                rows = rows[~np.isin(rows, expired, assume_unique=True)]
        if hidden.size:
            rows = rows[~np.isin(rows, hidden, assume_unique=True)]
        return rows

    def _conversation(self, query: str, context: Any) -> tuple[list[str], str | None]:
        """The turns of ``context`` that recall reads (a judge is shown them too) and the conversation text
        that moves the query: ``None`` without read turns, with ``context_weight`` 0, or for a courtesy turn."""
        if context is None:
            return [], None
        read = recent_turns(check_context(context), self.config.context_turns)
        if not read or self.config.context_weight <= 0 or self._is_courtesy(query):
            return read, None
        return read, conversation_text(query, read)

    def _unasked(self, query: str, q_tokens: Sequence[str]) -> tuple[str | None, str | None]:
        """For the relevance gate: why ``query`` asks for nothing a fact could answer (a courtesy turn, "Thanks!",
        "谢谢!"; a turn without a word, "👍"), and the script it is written in when the embedder does not read it
        (:func:`~memori_core.embedders.embedder_scripts`); ``(None, None)`` for an ordinary question. ``q_tokens``:
        the query as the engine's analyzer reads it."""
        if is_courtesy(query, q_tokens, _courtesy_terms((self.config.tokenizer, self.config.stemmer))):
            return ("a courtesy turn" if any(ch.isalnum() for ch in query) else "a turn without a word"), None
        scripts = embedder_scripts(self.embedder)
        if scripts is None:
            return None, None
        script = main_script(query)
        return None, (script if script is not None and script not in scripts else None)

    def _is_courtesy(self, query: str) -> bool:
        """A courtesy turn ("Thanks!", "ok"): it reads no context (:func:`~.ranking.conversation.is_courtesy`)."""
        key = (self.config.tokenizer, self.config.stemmer)
        return is_courtesy(query, analyzer(*key)(query), _courtesy_terms(key))

    def _care(self, question: np.ndarray, asked: str, scores: PoolScores, facts: Sequence[StoredFact],
              top: np.ndarray, conversation: np.ndarray | None = None) -> np.ndarray | None:
        """The pool rows the gate may keep as care facts (:mod:`~.ranking.care`) of a personal question (the
        caller checks it is one): among ``top``, the ``limit`` best, allergies, medications and diets of the
        user's household, or of someone ``asked`` (the question and the turns read with it) names
        (:func:`~.ranking.care.named_by`), when the question, or the ``conversation`` a follow-up goes on from
        (its embedding), is about food or health.

        Cheapest test first: only rows the cosine rules would drop and the care bar admits are read, and
        the question's domains are measured only when one of them is a care fact."""
        cfg = self.config
        if cfg.gate_care is None:
            return None
        cosine = scores.cosine if scores.gate_cosine is None else scores.gate_cosine
        top = top[(cosine[top] < cfg.gate_keep) & (cosine[top] >= cfg.gate_care_cosine)]
        rows = [i for i in top.tolist() if is_care_fact(facts[i].content) and named_by(facts[i].content, asked)]
        if not rows:
            return None
        prototypes = self._prototype_vectors(question.shape[0])
        if prototypes is None:
            return None
        share = care_share(question, prototypes.domains, prototypes.starts)
        if share < cfg.gate_care and conversation is not None:
            share = max(share, care_share(conversation, prototypes.domains, prototypes.starts))
        if share < cfg.gate_care:
            return None
        mask = np.zeros(scores.rows.shape[0], dtype=bool)
        mask[rows] = True
        return mask

    def _general_shape(self, query: str, question: np.ndarray, asker: bool) -> bool:
        """Whether ``query`` (embedded as ``question``) has the shape of a general-knowledge question for the
        relevance gate (:mod:`~.ranking.intent`); it is general unless it also names someone the pool's facts
        hold. A keyword search, a question for the asker (``asker``: :func:`~.ranking.care.for_the_asker`) or
        one about "the user" never is, and costs no prototype."""
        cfg = self.config
        if (cfg.gate != "relevance" or cfg.gate_general is None or not reads_as_a_question(query)
                or asker or speaks_of_the_user(query)):
            return False
        if asks_an_amount_in_a_unit(query):
            return True
        prototypes = self._prototype_vectors(question.shape[0])
        return prototypes is not None and is_general(question, prototypes.intents, prototypes.advice)

    def _prototype_vectors(self, dim: int) -> _Prototypes | None:
        """The gate's prototype sentences embedded once by this engine's embedder, in one call (``None`` while
        they cannot be, or when they are not ``dim``-d).

        A failure is not remembered: the next recall that needs them tries again, so after a passing fault
        the engine answers as a fresh one would. It is logged as a warning once, until a try succeeds (an
        embedder that cannot embed documents would otherwise warn on every recall)."""
        with self._prototypes_lock:
            if self._prototypes is None:
                domains, starts = domain_texts()
                intents, advice = intent_texts()
                try:
                    matrix = l2_normalise(self.embedder.embed_documents([*domains, *intents]))
                except Exception as exc:  # noqa: BLE001 - the signals are optional: the gate works without them
                    logger.log(logging.DEBUG if self._prototypes_failing else logging.WARNING,
                               "the gate's prototype sentences could not be embedded (%s): its care and "
                               "general-question signals are off until they can be (tried again on each recall)",
                               exc)
                    self._prototypes_failing = True
                    return None
                self._prototypes_failing = False
                n = len(domains)
                self._prototypes = _Prototypes(matrix[:n], starts, matrix[n:], advice)
            prototypes = self._prototypes
        return prototypes if prototypes.domains.shape[1:] == (dim,) else None

    @staticmethod
    def _core_rows(cache: EntityCache, allowed: np.ndarray | None, q: np.ndarray) -> _CoreRows | None:
        """The core facts a recall may append (live, not expired, matching ``where``: among ``allowed``,
        ``None`` meaning every live row), with their cosines to ``q``; ``None`` when there are none."""
        rows = cache.core_rows()  # memoised and kept current by writes: nothing to do without core facts
        if rows.size and allowed is not None:
            rows = rows[np.isin(rows, allowed)]
        if rows.size == 0:
            return None
        cosine = cosine_scores(cache.matrix[rows], q)
        return _CoreRows(rows, cosine, cache.recency[rows].copy(), cache.pool_facts(rows))

    def _core_added(self, scored: _Scored, chosen: np.ndarray) -> list[tuple[int, int]]:
        """The core facts to append after the pool positions ``chosen``, in order: (position among
        ``scored.core``, position in the pool or -1 when the fact was not a candidate)."""
        core = scored.core
        if core is None:
            return []
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
        picks = core_picks(core.cosine, core.recency, is_chosen[pos], self.config.core_limit)
        return [(p, int(pos[p])) for p in picks.tolist()]

    def _core_fact(self, scored: _Scored, p: int, i: int) -> RecalledFact:
        """Core fact ``p`` of ``scored.core`` as recall returns it: with its pool scores when it was a
        candidate (pool position ``i`` >= 0), else with its cosine and 0 for the lexical and rank scores."""
        if i >= 0:
            return self._fact(scored, i)
        core = scored.core
        assert core is not None
        return self._recalled(core.facts[p], float(core.cosine[p]), 0.0, 0.0)

    def _with_core(
        self, scored: _Scored, order: np.ndarray, fate: Sequence[str], candidates: list[CandidateScore]
    ) -> list[CandidateScore]:
        """``explain``'s candidates with the core facts recall appends moved (pool candidates) or added (the
        others, ``source="core"``, numbered after the pool) to the end, kept, with the fate :data:`CORE`:
        the kept candidates in list order are exactly what ``recall`` returns."""
        added = self._core_added(scored, order[np.asarray([r in (KEPT, JUDGED_RELEVANT) for r in fate], dtype=bool)])
        if not added:
            return candidates
        at = {i: k for k, i in enumerate(order.tolist())}  # pool position -> index in candidates
        moved: set[int] = set()
        tail: list[CandidateScore] = []
        rank = len(order)
        for p, i in added:
            if i >= 0:
                moved.add(at[i])
                tail.append(replace(candidates[at[i]], kept=True, reason=CORE))
                continue
            f = self._core_fact(scored, p, i)
            rank += 1
            tail.append(CandidateScore(
                rank=rank, id=f.id, content=f.content,
                created_at=f.created_at, cosine=f.cosine, bm25=0.0, lexical=0.0, rank_score=0.0, kept=True,
                reason=CORE, metadata=f.metadata, source="core", valid_from=f.valid_from,
            ))
        return [c for k, c in enumerate(candidates) if k not in moved] + tail

    def _fact(self, scored: _Scored, i: int) -> RecalledFact:
        s = scored.scores
        return self._recalled(scored.facts[i], float(s.cosine[i]), float(s.lexical[i]), float(s.rank_score[i]))

    @staticmethod
    def _recalled(f: StoredFact, cosine: float, lexical: float, rank_score: float) -> RecalledFact:
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
        )

    def _judgement(self, query: str, scored: _Scored, limit: int, turns: list[str]) -> _Judgement | None:
        """The judge's verdict on the best candidates (``turns``: the earlier turns it is shown); ``None``
        when no judge applies (none set, the gate off, no candidate). A failure is logged and returned."""
        if self.judge is None or self.config.gate == "off":
            return None
        seen = judge_pool(scored.scores, limit, self.config)
        if seen.shape[0] == 0:
            return None
        facts = [scored.facts[i].content for i in seen.tolist()]
        try:
            answer = self._call_judge(query, facts, turns)
        except TimeoutError as exc:
            logger.warning("judge gave no answer (%s); the gate decides instead", exc)
            return _Judgement(seen, None, f"timed out: {exc}")
        except UnreadableJudgement as exc:  # a model's reply that names no fact: routine, no traceback
            logger.warning("judge's reply could not be read (%s); the gate decides instead", exc)
            return _Judgement(seen, None, f"could not be read: {exc}")
        except Exception as exc:
            logger.warning("judge raised %s; the gate decides instead", type(exc).__name__, exc_info=True)
            return _Judgement(seen, None, f"raised {type(exc).__name__}: {exc}")
        relevant = as_indices(answer, len(facts))
        if relevant is None:
            failure = f"answered {_short_repr(answer)}, not a list of indices 0..{len(facts) - 1}"
            logger.warning("judge %s; the gate decides instead", failure)
            return _Judgement(seen, None, failure)
        return _Judgement(seen, relevant)

    def _call_judge(self, query: str, facts: list[str], context: list[str]) -> Any:
        """``judge(query, facts, context)`` on a thread of its own, waited for at most ``judge_timeout``
        seconds (``TimeoutError`` after that). The thread is a daemon, so a judge that never returns holds
        only that thread, never the recall nor the interpreter's exit; at most :data:`MAX_JUDGE_CALLS` run
        at once."""
        judge = self.judge
        assert judge is not None
        if not self._judge_slots.acquire(blocking=False):
            raise TimeoutError(f"{MAX_JUDGE_CALLS} earlier judge calls are still running")
        result: list[Any] = []
        error: list[Exception] = []
        done = threading.Event()

        def run() -> None:
            try:
                result.append(judge(query, list(facts), list(context)))
            except Exception as exc:
                error.append(exc)
            finally:
                self._judge_slots.release()
                done.set()

        worker = threading.Thread(target=contextvars.copy_context().run, args=(run,), name="memori-judge",
                                  daemon=True)
        try:
            worker.start()
        except BaseException:
            self._judge_slots.release()
            raise
        if not done.wait(self.judge_timeout):
            raise TimeoutError(f"nothing within judge_timeout={self.judge_timeout:g} s")
        if error:
            raise error[0]
        if not result:
            raise RuntimeError("the judge's thread ended without an answer")
        return result[0]
