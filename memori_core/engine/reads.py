"""The read path of :class:`~memori_core.engine.RecallEngine`: ``recall``, ``nearest`` and ``explain``, and
``_score``, the steps from a question to its pool's scores.

Under the entity's lock a recall only gathers what the ranking needs from the cache
(:mod:`memori_core.ranking.candidates`); scoring, the gate, core facts and the judge's verdict are the
ranking's pure functions (:mod:`memori_core.ranking`), applied outside the lock. The bases of
:class:`ReadPath` hold the rest: the answers a copy keeps (:mod:`.answers`), the gate's signals
(:mod:`.gate_signals`) and the judge (:mod:`.judging`); the core facts recall appends are :mod:`.core_rows`,
``explain``'s report :mod:`.report`, and what the steps hand on to each other :mod:`.scored`.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from ..cache import EntityCache
from ..cache.coordinator import Coordinator
from ..embedders import check_matrix
from ..explain import RecallReport
from ..facts import RecalledFact
from ..filters import Where, check_reaches_valid, check_where
from ..meta_questions import asks_what_memory_holds
from ..query import recent_turns
from ..ranking.affinity import affinity_for, asks_personally, domain_shares, with_affinity
from ..ranking.candidates import gather
from ..ranking.care import for_the_asker, is_personal, speaks_of_the_asker
from ..ranking.referents import with_referent
from ..ranking.conversation import (
    asks_something,
    blend_query,
    conversation_text,
    conversation_turns,
    goes_on_from_the_conversation,
    leans_on_the_conversation,
    tells_something,
    without_connectives,
    without_greeting,
)
from ..ranking.asking import query_terms
from ..ranking.concerns import question_concerns
from ..ranking.core import core_turn_concerns
from ..ranking.dense import cosine_scores, l2_normalise
from ..ranking.fusion import fusion_weights
from ..ranking.implications import (
    asked_about,
    asks_about_named,
    fed_to,
    one_of_theirs,
    gift_for,
    not_about_them,
)
from ..ranking.intent import asks_how_to, asks_what_is_usual, names_known, names_the_askers
from ..ranking.judged import JUDGE_RULE, judged_select
from ..ranking.lexical import unique_terms
from ..ranking.gate import rule_names
from ..ranking.own_first import own_first
from ..ranking.past import asks_about_the_past
from ..ranking.carried import carried_rows
from ..ranking.fusion import rank_order
from ..ranking.pipeline import PoolScores, first_of_each_text, gate_places, score_pool, select, select_with_rules
from ..ranking.recency import asks_when, with_restatements, with_slot_recency
from ..validate import check_as_of, check_context, check_entity_id, check_limit, check_query
from .answers import Answers, _Answer, _answered, _Asked, _copies, _remember_answer
from .closing import when_open
from .fact_ids import is_version_id
from .core_rows import _core_added, _core_fact, _core_for_concerns, _core_for_someone_else, _core_rows
from .gate_signals import GateSignals, _Prototypes, _Turn, _turn
from .judging import Judging, _Judgement
from .report import _report
from .scored import _CoreRows, _fact, _Gathered, _Scored
from .swapped import warn_if_swapped

NO_FACTS = "no facts stored for this entity"
"""Why a read of an entity without facts scored nothing."""

logger = logging.getLogger(__name__)


_APPENDED = frozenset({"core", "core touched"})
"""The rules of core facts recall appends after the chosen ones: a turn does not carry these over."""


@dataclass(frozen=True)
class _Request:
    """What ``recall``, ``explain`` and ``nearest`` were asked, checked (each error names its argument), with the
    earlier turns read and the conversation text they make (:meth:`ReadPath._request`)."""

    query: str
    entity_id: str
    limit: int
    query_vector: Any | None
    where: Where | None
    at: float | None  # ``as_of`` in epoch seconds (None: now)
    read: list[str]  # the earlier turns read (the judge is shown them)
    conversation: str | None  # the text that moves the search (None: the query alone)
    past: bool = False  # the question asks about the past: facts no longer valid are ranked too (not with as_of)

    @property
    def turns(self) -> Sequence[str]:
        """The earlier turns the conversation holds (none without one)."""
        return self.read if self.conversation is not None else ()


@dataclass(frozen=True)
class _Scoring:
    """A recall's candidates scored, waiting for the judge's verdict (:meth:`ReadPath._recall_chosen`)."""

    query: str
    entity_id: str
    limit: int
    read: list[str]  # the earlier turns read (the judge is shown them)
    scored: _Scored
    asked: _Asked | None  # the question, to remember its answer by (None: not remembered)
    revision: Any  # the copy's revision when the recall began
    horizon: float  # when the first of the copy's facts expires
    cache: EntityCache
    lookup: bool = False  # read for another turn (the carry's turn before): its answer pushes no kept one out


class ReadPath(Answers, GateSignals, Judging):
    """The read methods of :class:`~memori_core.engine.RecallEngine` (a mixin: the state is the engine's, declared
    here and on its bases)."""

    _coord: Coordinator
    _closed_by: str | None

    _fact = staticmethod(_fact)  # pool row i of a recall's scores as recall returns it

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
        """The facts of ``entity_id`` most relevant to ``query``, best first, at most ``limit`` of them, those the
        gate lets through (``config.gate``: the relevance gate by default) or, with a ``judge``, those it chose; then
        the core facts.

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
        Facts no longer valid (superseded, or replaced by an update) are not recalled, but on a question about the
        past (:func:`~memori_core.ranking.past.asks_about_the_past`: "Which hospital did I use to work at?") without
        ``as_of``, where they compete with the valid ones and come back with their ``valid_to`` set; nor a fact whose text
        (normalised) one returned before it says (``config.one_per_text``: the same fact under two ids). ``as_of`` (a
        datetime or an ISO 8601 str; without a zone, UTC, with a :class:`~memori_core.NaiveTimeWarning`) answers from the facts valid at that time instead:
        created at or before it, and not yet superseded or expired then.

        A question asked again (the same query, limit, ``where`` and earlier turns read; no ``query_vector``
        or ``as_of``) over the same copy of the user's facts, at the same revision of the store, before any
        of them expires and with the same config, embedder and judge, gets the answer given before without
        embedding, ranking or asking the judge again (the last :data:`ANSWERS_KEPT` per user; not an answer
        a judge failed on). The revision is read from the store first, as for every recall, so a write that
        landed meanwhile, in any process, is always seen.
        """
        begun = self._recall_scored(self._request(query, entity_id, limit, query_vector, where, context, as_of))
        if isinstance(begun, list):
            return begun
        judged = None if self.judge is None else self._judgement(begun.query, begun.scored, begun.limit, begun.read)
        return self._recall_chosen(begun, judged)

    def _recall_scored(self, request: _Request, lookup: bool = False) -> list[RecalledFact] | _Scoring:
        """:meth:`recall` up to the judge: its answer when it needs no choosing (nothing to recall, an answer
        given before, no candidate), else the candidates scored (:class:`_Scoring`) for :meth:`_recall_chosen`.
        A ``lookup`` (a turn read for another one's sake) reads a kept answer without making it the most recent,
        and its own answer is kept only where a place is free (:func:`.answers._remember_answer`)."""
        query, entity_id, limit, read = request.query, request.entity_id, request.limit, request.read
        if not query.strip() or limit <= 0:
            return []
        # One freshness check per recall, at its start (under the lock: a write updates a copy in place only
        # under it). The same question over the same copy, before any of its facts expires, was answered. A
        # question about the past is not kept: the copy's next expiry does not count the facts no longer valid.
        asked = (None if request.query_vector is not None or request.at is not None or request.past
                 else _Asked.of(query, limit, request.where, read))
        horizon = float("inf")
        with self._entity_lock(entity_id):
            cache = self._cache_for(entity_id)
            empty = len(cache) == 0
            if not empty:
                revision, now = cache.revision, time.time()
                if asked is not None:
                    answer = _answered(cache, asked, self._answer_inputs(), now, touch=not lookup)
                    if answer is not None:
                        return _copies(answer)
                    horizon = min(cache.next_expiry(now), cache.next_start(now))
        if empty:  # said before the query is embedded: an unknown entity never loads the model
            self._warn_if_swapped("recall", query, entity_id, stacklevel=4)  # recall's caller (past when_open)
            return []
        scored = self._score(request, cache=cache)
        if isinstance(scored, str):
            return []
        return _Scoring(query, entity_id, limit, read, scored, asked, revision, horizon, cache, lookup)

    def _recall_chosen(self, begun: _Scoring, judged: _Judgement | None) -> list[RecalledFact]:
        """:meth:`recall` after the judge (``judged``: its verdict, ``None`` without one): the facts chosen, the
        core facts after them; the answer remembered when nothing but the copy and the question decided it."""
        scored, limit, asked, cache, revision = begun.scored, begun.limit, begun.asked, begun.cache, begun.revision
        if judged is not None and judged.relevant is not None:
            chosen = judged_select(judged.seen, judged.relevant, limit)  # the judge decided
            rules = [JUDGE_RULE] * chosen.shape[0]
        else:
            chosen, codes = select_with_rules(scored.scores, limit, self.config)
            rules = rule_names(codes)
            if self.config.gate == "relevance":  # the asker's own facts first on a question about themselves
                order = own_first(begun.query, [scored.facts[i].content for i in chosen.tolist()], begun.read)
                if order is not None:
                    chosen, rules = chosen[order], [rules[k] for k in order.tolist()]
        # Then the core facts not chosen (at most core_limit, most relevant first): on every turn.
        added, core_rule = _core_added(scored, chosen, self.config.core_limit)
        core = [_core_fact(scored, p, i, core_rule) for p, i in added]
        facts = [*(self._fact(scored, i, rule) for i, rule in zip(chosen.tolist(), rules)), *core]
        if len(facts) >= 2 and self.config.one_per_text:
            first = first_of_each_text([f.content for f in facts])
            facts = facts if first.all() else [f for f, ok in zip(facts, first.tolist()) if ok]
        # Kept only when nothing but the copy and the question decided it: a failed judge or gate prototypes
        # might answer otherwise the next time.
        if asked is not None and not (judged is not None and judged.relevant is None) and not self._prototypes_failing:
            with self._entity_lock(begun.entity_id):
                if cache.revision == revision:
                    _remember_answer(cache, asked,
                                     _Answer(revision, begun.horizon, self._answer_inputs(), tuple(_copies(facts))),
                                     push=not begun.lookup)
        return facts

    @staticmethod
    def _how_to(query: str, read: Sequence[str]) -> bool:
        """Whether ``query`` asks how a thing is done (:func:`~.ranking.intent.asks_how_to`), its "I" anyone's;
        after turns read with it, only when it does not lean on them ("How would I get them there?" is about
        what they named)."""
        return asks_how_to(query) and not (bool(read) and leans_on_the_conversation(query))

    def _warn_if_swapped(self, call: str, query: str, entity_id: str, stacklevel: int) -> None:
        """:func:`.swapped.warn_if_swapped` for a read of ``entity_id``, which has no facts."""
        warn_if_swapped(call, query, entity_id, lambda other: self.store.count(check_entity_id(other)) > 0,
                        stacklevel + 1)

    @when_open
    def nearest(
        self,
        query: str,
        entity_id: str,
        limit: int | None = None,
        *,
        where: dict[str, Any] | None = None,
        as_of: Any = None,
    ) -> list[RecalledFact]:
        """The ``limit`` valid facts of ``entity_id`` that rank best for ``query``, best first, with no gate, no
        judge and no core facts appended: the ranking :meth:`recall` starts from (``as_of``: the facts valid then,
        as in :meth:`recall`; capture passes a replayed turn's time).

        This is what a fact extractor is shown to say which stored fact a new one replaces (capture does so):
        "So they let me go on Monday." is far from "User is a warehouse supervisor." in cosine, so the gate
        rightly keeps that fact out of the prompt, yet it is the one the turn ends. ``where`` as in :meth:`recall`.
        """
        # Valid facts only, whatever the wording: capture and a model's write read these to find what a new fact
        # replaces or repeats ("User used to live in Leeds." is no question about the past).
        request = replace(self._request(query, entity_id, limit, None, where, None, as_of), past=False)
        if not request.query.strip() or request.limit <= 0:
            return []
        scored = self._score(request, gated=False)
        if isinstance(scored, str):
            return []
        return [self._fact(scored, i) for i in select(scored.scores, request.limit, None).tolist()]

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
        request = self._request(query, entity_id, limit, query_vector, where, context, as_of)
        query, entity_id, limit, read, conversation = (request.query, request.entity_id, request.limit, request.read,
                                                       request.conversation)
        cfg = self.config
        turns_read = len(conversation_turns(read)) if conversation else 0
        q_tokens = query_terms(query, cfg.tokenizer, cfg.stemmer)
        w_cos, w_lex = fusion_weights(len(q_tokens), cfg)

        def empty(note: str) -> RecallReport:
            return RecallReport(query, entity_id, limit, q_tokens, w_cos, w_lex, cfg.relevance_threshold, 0, 0, [], note,
                                conversation=conversation, context_turns=turns_read,
                                context_weight=self._context_weight(query) if conversation else 0.0)

        if not query.strip():
            return empty("blank query: nothing is recalled")
        if limit <= 0:
            return empty("limit 0: nothing is recalled")
        scored = self._score(request)
        if isinstance(scored, str):
            if scored == NO_FACTS:
                self._warn_if_swapped("explain", query, entity_id, stacklevel=3)
            return empty(scored)
        judged = None if self.judge is None else self._judgement(query, scored, limit, read)
        weight = self._context_weight(query) if conversation else 0.0
        return _report(query, entity_id, limit, scored, judged, cfg, conversation, turns_read, read, weight)

    def _request(
        self, query: Any, entity_id: Any, limit: Any, query_vector: Any, where: Any, context: Any, as_of: Any
    ) -> _Request:
        """The arguments recall, explain and nearest share, checked (each error names its argument), with the
        turns of ``context`` read (:meth:`_conversation`)."""
        query, entity_id = check_query(query), check_entity_id(entity_id)
        limit = check_limit(limit, self.config.limit)
        where = check_where(where) if where is not None else None  # (no filter: the filter module is not run)
        at = check_as_of(as_of)
        if at is None and where is not None:
            check_reaches_valid(where, "recall", "pass as_of= a time they were valid, or list them with "
                                "include_invalid=True")
        read, conversation = self._conversation(query, context)
        past = at is None and asks_about_the_past(query, read)
        return _Request(query, entity_id, limit, query_vector, where, at, read, conversation, past)

    def _conversation(self, query: str, context: Any) -> tuple[list[str], str | None]:
        """The turns of ``context`` that recall reads (the latest ``config.context_turns``, courtesy turns not
        counted: :meth:`_carries_nothing`; a judge is shown them too) and the conversation text
        that moves the query: ``None`` without read turns, with ``context_weight`` 0, or for a courtesy turn."""
        if context is None:
            return [], None
        read = recent_turns(check_context(context), self.config.context_turns, self._carries_nothing)
        if not read or self.config.context_weight <= 0 or self._is_courtesy(query):
            return read, None
        return read, conversation_text(query, read)

    def _score(self, request: _Request, gated: bool = True, cache: EntityCache | None = None) -> _Scored | str:
        """Score the candidates of ``request``, or return the reason nothing could be scored. Its
        ``conversation`` (see :func:`~memori_core.ranking.conversation.conversation_text`) moves the search
        direction; its ``turns`` are the user's turns it holds, oldest first (a follow-up goes on with the
        concerns of the last). Without ``gated`` (:meth:`nearest`) the gate's signals and the core facts, which
        only the gate and recall's appending read, are not computed.

        The steps: the query's vectors (:meth:`_query_vectors`), what the copy holds under the lock
        (:meth:`_gathered`), how the gate reads the turn with its conversation (:func:`.gate_signals._turn`,
        :meth:`_gate_cosine`), the pool's scores (:meth:`_pool_scores`), then what the gate reads of a turn that
        asks for nothing (:meth:`_unasked`), of a general question, or of a personal one (:meth:`_personal`)."""
        query, entity_id, limit, where, at = request.query, request.entity_id, request.limit, request.where, request.at
        conversation, read = request.conversation, request.turns
        # The turn as asked, greeting included: the courtesy test reads it ("Hi, who are you?" asks nothing of the
        # memory, "who are you?" alone may); the rest read the question's words.
        said = query
        if request.query_vector is None:
            query = without_greeting(query)  # "good morning what should we do today": read on the question's words
        if read and request.query_vector is None:
            cut = query is not said
            query = with_referent(query, read)  # "What should I feed him?" after "... a beagle named Max.": Max
            said = with_referent(said, read) if cut else query
        # One freshness check per call, at its start; the copy is used again below (under the lock: a write
        # updates a copy in place only under it, and never one it dropped). ``cache``: recall made it under the
        # lock, and has answered already for an empty one.
        if cache is None:
            with self._entity_lock(entity_id):
                cache = self._cache_for(entity_id)
                if len(cache) == 0:
                    # Said before the query is embedded: an unknown entity never loads the model.
                    return NO_FACTS
        q, question, conv = self._query_vectors(query, request.query_vector, conversation,
                                                self._context_weight(request.query))
        own = question if question is not None else q  # the question's own direction
        cfg = self.config
        q_tokens = query_terms(query, cfg.tokenizer, cfg.stemmer)
        asker = for_the_asker(query)  # read by the general-question rule, the follow-up rule and the personal rules
        # Measured before the lock: the first such question embeds the prototypes, which must not hold it.
        general_shape = (gated and not (read and goes_on_from_the_conversation(query))
                         and self._general_shape(query, own, asker and not self._how_to(query, read)))
        # A personal question is ranked with affinity (:mod:`~memori_core.ranking.affinity`): its life domains
        # are read from the prototypes embedded once per engine, the pool's under the lock.
        personal = cfg.affinity_weight > 0 and asks_personally(query)
        affinity = self._prototype_vectors(own.shape[0]) if personal else None
        gathered = self._gathered(cache, entity_id, query, unique_terms(q_tokens), limit, where, at, gated,
                                  q, question, conv, affinity, request.past)
        if isinstance(gathered, str):
            return gathered
        facts = gathered.facts
        if general_shape and asks_what_is_usual(query) and names_the_askers(query, facts.texts()):
            # "What does the dog usually eat?" with the user's dog in the facts: about the user's dog, not dogs
            general_shape = False
        turn = _turn(query, read, general_shape and not names_known(query, facts.texts()))
        gate_cos = self._gate_cosine(gathered, turn)
        scores = self._pool_scores(query, q_tokens, limit, gathered, gate_cos, turn, asker, own, affinity)
        relevance = gated and cfg.gate == "relevance"  # the relevance gate's signals apply
        fed = None  # whom "What should I feed him?" asks to feed: read once, by the gate and by the core facts below
        if relevance:
            who = asked_about(query)  # "What medication does my dad take?": not the asker's own facts
            if who is not None:
                scores = replace(scores, not_theirs=not_about_them(who, facts.texts()), asked_about=who)
            elif gathered.core is not None and (
                    (fed := fed_to(query)) is not None or (fed := one_of_theirs(query, facts.texts())) is not None):
                # "What should I feed him?": the asker's own core facts (an allergy, a medicine, a diet) are not his
                mine = not_about_them(fed, facts.texts()) & np.isin(scores.rows, gathered.core.rows)
                scores = replace(scores, not_theirs=mine)
        read_alone = turn.alone and gate_cos is not None  # what explain says: only a turn with context is read at all
        # A question about someone else ("What does my husband like for breakfast?", "A gift for my grandson?") gets
        # none of the asker's core facts ("What should I feed him?" keeps those about others: his allergy); a question
        # about the world (by its shape, even when it names a place a fact holds) and a turn that tells rather than asks
        # ("Big news, I got the job!") only those whose concerns its words touch, unless the turn qualifies the asker's
        # own request just made ("Something cheap though, payday is next week."); so does a request whose only "me" is
        # the one it is addressed to, when it does not go on from the conversation ("Tell me a joke.", "Write me a
        # limerick about snow."), and a request only for something to read, watch or listen to ("Can you recommend a
        # good sci-fi novel?").
        own_core = gathered.core if scores.asked_about is None else None
        narrowed = False  # to the core facts whose concerns the turn's words touch
        if own_core is not None and relevance:
            if gift_for(query) is not None:
                own_core = None
            elif fed is not None:
                own_core = _core_for_someone_else(own_core, fed)
            elif general_shape or (
                    (tells_something(query)
                     or ((turn.media or (is_personal(query) and not speaks_of_the_asker(query)))
                         and not turn.leans))
                    and not (read and asks_something(read[-1]) and is_personal(read[-1])
                             and not (turn.media and not turn.leans))):
                own_core = _core_for_concerns(own_core, question_concerns(query))
                narrowed = True

        # Under core_when="touched", another turn about the asker keeps core facts only when it is about the body,
        # food, health or travel, or asks whether to do something, else those its words or a chosen fact touch.
        core_concerns = None
        mine = relevance and own_core is not None and own_core is gathered.core
        if cfg.core_when == "touched" and mine:
            core_concerns = core_turn_concerns(query, read)
        # Under core_when="open", the same reading of the turn, made only when the gate keeps nothing (_core_added).
        closed_turn = (query, tuple(read)) if cfg.core_when == "open" and mine else None

        def done(scores: PoolScores, core: _CoreRows | None = own_core) -> _Scored:
            concerns = core_concerns if core is own_core else None
            touched = concerns is not None or (core is own_core and narrowed)
            return _Scored(scores, facts, gathered.found.scorable, core, read_alone, concerns, touched,
                           closed_turn if core is own_core and concerns is None else None, request.past)

        if relevance:
            nothing, unread = self._unasked(
                said, q_tokens if said is query else query_terms(said, cfg.tokenizer, cfg.stemmer), read)
            if nothing is not None or unread is not None:
                # a courtesy turn asks for nothing, core facts included
                return done(replace(scores, nothing_asked=nothing, unread_script=unread),
                            None if nothing is not None else own_core)
            if asks_what_memory_holds(query):
                # "What do you know about me?" is near no fact in meaning, yet asks for them all
                core_concerns = None
                return done(replace(scores, everything_asked=True))
        if turn.general:
            # With only the core facts whose concerns its words touch (a food, a drink, a medicine, a trip...): "What's
            # in a Caesar salad?" keeps the egg allergy, not coeliac disease; "What's the capital of Canada?" none.
            return done(replace(scores, general=True))
        if relevance:
            # "Any outdoor plans coming up?": the plans in force, whatever their cosine (ranking/upcoming.py)
            scores = self._with_upcoming(query, scores, gathered, turn, at)
            # "Are dachshunds prone to ear infections?": the dog's fact shares only its topic (ranking/world_question.py)
            scores = self._with_world(query, scores, facts, turn, limit)
        if not relevance or not (scores.in_conversation or asker or asks_about_named(query, facts.texts)):
            return done(scores)
        # A personal question, or a turn that leans on its conversation: the third-person lift, the care signal
        # and the implications, read among the rows the gate reads.
        scores = self._personal(query, scores, gathered, turn, limit, own, conv)
        if (turn.leans and not turn.alone and cfg.gate_carried is not None
                and not self._general_past_connectives(query, own)):
            # "its red and hot and came on overnight" after "my knee is swollen again...": the gout fact kept then
            scores = self._with_carried(request, scores, gathered)
        return done(scores)

    def _general_past_connectives(self, query: str, own: np.ndarray) -> bool:
        """Whether ``query`` (embedded as ``own``) is a general question once the connectives it opens with are
        left out: "and how long do horses usually live?" goes on from the turn before only by its "and", and
        carries none of that turn's facts (ranking/carried.py). A rest that still leans on the conversation ("and
        is it safe for him?") is no general question."""
        rest = without_connectives(query)
        if rest == query or leans_on_the_conversation(rest) or goes_on_from_the_conversation(rest):
            return False
        return self._general_shape(rest, own, for_the_asker(rest))

    def _with_carried(self, request: _Request, scores: PoolScores, gathered: _Gathered) -> PoolScores:
        """``scores`` with the facts recall kept for the turn before ``request``'s (:meth:`_kept_before`) that this
        turn still ranks near (:func:`~.ranking.carried.carried_rows`). The turn before is read only when a near
        fact could gain from it: one the gate drops among the limit best, or one beyond them while a place there
        is left empty."""
        cfg = self.config
        cosine = scores.cosine if scores.gate_cosine is None else scores.gate_cosine
        near = rank_order(scores.rank_score, scores.cosine, request.limit + (cfg.gate_carried or 0))
        top, keep = gate_places(scores, request.limit, cfg)
        near = near[cosine[near] >= cfg.gate_carried_cosine]
        inside = np.isin(near, top)
        near = near[np.isin(near, top[~keep]) | (~inside & bool((~keep).any()))]
        if not near.size:
            return scores
        kept = self._kept_before(request)
        carried = carried_rows(scores.rows.shape[0], near, [gathered.facts[int(i)].id for i in near], kept, cosine,
                               cfg.gate_carried_cosine)
        return scores if carried is None else replace(scores, carried=carried)

    def _kept_before(self, request: _Request) -> frozenset[str]:
        """The ids of the facts recall keeps for the turn just before ``request``'s, read on its own words with the
        same limit, filter and time (its core facts appended left out): the app's own recall of that turn when it
        made one on its own words (a kept answer: no embedding), else one embedding of that turn. Without a judge:
        the gate's answer, which is remembered only when no judge would answer otherwise, and only in a place left
        free among the kept answers (a lookup: it pushes out none the app may ask for again, issue 20 item 1)."""
        before = self._last_user_turn(request)
        past = request.at is None and asks_about_the_past(before, [])
        begun = self._recall_scored(_Request(before, request.entity_id, request.limit, None, request.where, request.at,
                                             [], None, past), lookup=True)
        if not isinstance(begun, list):
            begun = self._recall_chosen(begun if self.judge is None else replace(begun, asked=None), None)
        return frozenset(f.id for f in begun if f.passed_by not in _APPENDED)

    def _last_user_turn(self, request: _Request) -> str:
        """The asker's turn just before ``request``'s: the last of its turns, unless that one is the assistant's reply
        (``context`` may end with it): when recall answered the turn before it and not the last one, the last is
        the reply. A reply recall never saw is read as the last turn (the context holds no roles). Courtesy turns
        at the end ("thanks", "ok great") are passed over: they ask for nothing, and recall kept nothing for them."""
        turns = list(request.turns)
        with self._entity_lock(request.entity_id):
            asked = {a.query for a in self._cache_for(request.entity_id).answers}
        if len(turns) > 1 and turns[-1] not in asked and turns[-2] in asked:
            turns.pop()  # the reply to "thanks": "You're welcome!" (rev39b finding 6)
        while len(turns) > 1 and self._is_courtesy(turns[-1]):
            turns.pop()  # "its red and hot" after "my knee is swollen, can I take loxonin" and "thanks": the knee
        if len(turns) < 2:
            return turns[-1]
        return turns[-2] if turns[-1] not in asked and turns[-2] in asked else turns[-1]

    def _embed_query(self, query: str, query_vector: Any | None) -> np.ndarray:
        if query_vector is None:
            return self.embedder.embed_query(query)
        vec = np.asarray(query_vector, dtype=np.float32)
        if vec.ndim == 1 and vec.size and np.isfinite(sq := float(np.dot(vec, vec))) and sq > 0:
            return vec  # fast path: a finite, non-zero vector (the norm check covers NaN and inf)
        return check_matrix([query_vector], rows=1, name="query_vector")[0]

    def _query_vectors(
        self, query: str, query_vector: Any | None, conversation: str | None, weight: float
    ) -> tuple[np.ndarray, np.ndarray | None, np.ndarray | None]:
        """The search direction (unit length) and, with a ``conversation``, the question's own embedding and the
        conversation's (each unit length), which the direction blends (``weight``: :meth:`_context_weight`)."""
        vec = self._embed_query(query, query_vector)
        question = conv = None
        if conversation is not None:
            question = l2_normalise(vec)[0]
            conv = self._embedded(conversation)
            vec = blend_query(question, conv, weight)
        return l2_normalise(vec)[0], question, conv

    def _context_weight(self, query: str) -> float:
        """How far the conversation moves the search of ``query`` (the question as asked, before its pronoun is read
        as a name): ``context_weight_leaning`` for a turn that leans on its conversation ("and if it rains?"),
        ``context_weight`` otherwise."""
        cfg = self.config
        if cfg.context_weight_leaning is not None and leans_on_the_conversation(query):
            return cfg.context_weight_leaning
        return cfg.context_weight

    def _gathered(
        self, cache: EntityCache, entity_id: str, query: str, q_terms: Sequence[str], limit: int,
        where: Where | None, at: float | None, gated: bool,
        q: np.ndarray, question: np.ndarray | None, conv: np.ndarray | None, prototypes: _Prototypes | None = None,
        past: bool = False,
    ) -> _Gathered | str:
        """Under the entity's lock, what the ranking needs from the copy along ``q``: the candidates, their
        facts and creation times, the core facts (``gated`` only), and with a conversation the pool's cosines
        to the ``question`` and to the conversation (``conv``); or why nothing can be scored. With ``past`` (a
        question about the past) the candidates include the facts no longer valid (:meth:`_with_past`); the core
        facts stay those valid now."""
        cfg = self.config
        with self._entity_lock(entity_id):
            unscorable = self._unscorable(cache, entity_id, q.shape[0])
            if unscorable is not None:
                return unscorable
            # The rows a recall may return: live, not expired, matching ``where`` (None: all live rows).
            allowed = self._allowed_rows(cache, where, at)
            searched = self._with_past(cache, allowed, where) if past else allowed
            if searched is not None and searched.size == 0:
                if at is not None:
                    return "no stored fact matching the filter was valid then" if where else "no stored fact was valid then"
                if where:
                    return "no stored fact matches the filter (among the searchable, unexpired ones)"
                return "every stored fact has expired or is kept out of search (\"searchable\": false)"
            found = gather(cache, q, q_terms, (cfg.tokenizer, cfg.stemmer), limit, cfg, searched,
                           blank=not query.strip())
            pool = found.pool
            pool_facts = cache.pool_facts(pool.rows)  # a StoredFact is built only for the facts read from it
            created = cache.created_ts[pool.rows]  # a copy (fancy indexing), read after the lock
            # The slot tie-break's "newer" is the later said: a fact said again (a sighting, dated or "now") counts
            # from its last saying; read as of a time, sightings after it are unknown, so the first saying.
            said = created if at is not None else cache.recency[pool.rows]
            # Memoised and kept current by writes: nothing to do without core facts.
            core_rows = cache.core_rows() if gated and cfg.core_limit > 0 else None
            core = _core_rows(cache, core_rows, allowed, q) if core_rows is not None and core_rows.size else None
            question_cos = conv_cos = None
            if question is not None and conv is not None and question.shape == q.shape:
                pooled = cache.matrix[pool.rows]
                question_cos, conv_cos = cosine_scores(pooled, question), cosine_scores(pooled, conv)
            domains = lengths = None
            if prototypes is not None:
                domains = domain_shares(cache.matrix[pool.rows], prototypes.domains, prototypes.starts)
                lengths = found.lengths if found.lengths is not None else cache.lengths[pool.rows]
            ends = cache.columns.expires[pool.rows]  # a copy: the earlier of expiry and valid_to
        return _Gathered(found, pool_facts, created, core, question_cos, conv_cos, domains, lengths, said, ends)

    @staticmethod
    def _unscorable(cache: EntityCache, entity_id: str, dim: int) -> str | None:
        """Why the copy cannot be scored against a ``dim``-d query (no facts, or rows of another dimension),
        warning once per copy and dimension; ``None`` when it can be (call under the entity's lock)."""
        if cache.skipped_dims and not cache.warned_skipped:
            cache.warned_skipped = True
            logger.warning(
                "entity %r: skipped %d stored row(s) whose dimension differs from the others (%s)",
                entity_id, sum(cache.skipped_dims.values()), dict(cache.skipped_dims),
            )
        if len(cache) == 0:
            return "no facts stored for this entity"
        if cache.dim != dim:
            if dim not in cache.warned_dims:
                cache.warned_dims.add(dim)
                logger.warning(
                    "entity %r: query embedding is %d-d but the stored rows are %d-d; skipping them",
                    entity_id, dim, cache.dim,
                )
            return f"query embedding is {dim}-d but stored rows are {cache.dim}-d"
        return None

    def _pool_scores(self, query: str, q_tokens: list[str], limit: int, gathered: _Gathered,
                     gate_cos: np.ndarray | None, turn: _Turn, asker: bool, question: np.ndarray,
                     prototypes: _Prototypes | None) -> PoolScores:
        """The pool's scores (:func:`~memori_core.ranking.pipeline.score_pool`), with the gate's cosine when a
        conversation is read, a personal question's affinity (``prototypes``: ``None`` for none; ``question``:
        its own embedding), restatements (unless the question asks when) and the slot tie-break."""
        cfg = self.config
        found, created = gathered.found, gathered.created
        scores = score_pool(found.pool, found.cosine, found.tf, found.dl, q_tokens, cfg, sessions=found.sessions,
                            lengths=found.lengths)
        if prototypes is not None and gathered.domains is not None:
            scores = self._with_affinity(query, scores, gathered, question, prototypes)
        if gate_cos is not None:
            scores = replace(scores, gate_cosine=gate_cos.astype(scores.cosine.dtype),
                             in_conversation=not turn.news and (asker or turn.leans))
        if cfg.restatement_terms is not None and not asks_when(query):
            scores = with_restatements(scores, found.tf, created, cfg.restatement_terms)
        if cfg.slot_recency_weight > 0:
            said = gathered.said if gathered.said is not None else created
            scores = with_slot_recency(scores, lambda i: gathered.facts[i].content, said, limit,
                                       cfg.slot_recency_weight)
        return scores

    def _with_affinity(self, query: str, scores: PoolScores, gathered: _Gathered, question: np.ndarray,
                       prototypes: _Prototypes) -> PoolScores:
        """``scores`` ranked for a personal question (:func:`~memori_core.ranking.affinity.affinity_bonus`): the
        life domains the question and each fact share, care facts; in ``bonus`` and ``rank_score``, and on its own
        in ``affinity`` for ``explain``."""
        domains = gathered.domains
        if domains is None or domains.shape[0] != scores.rank_score.shape[0]:
            return scores
        add = affinity_for(query, gathered.facts.texts(), domains,
                           domain_shares(question, prototypes.domains, prototypes.starts), self.config.affinity_weight,
                           gathered.lengths)
        return with_affinity(scores, add)

    @staticmethod
    def _with_past(cache: EntityCache, allowed: np.ndarray | None, where: Where | None) -> np.ndarray | None:
        """``allowed`` (:meth:`_allowed_rows`, now) with the facts no longer valid that a question about the past
        may read (:meth:`~memori_core.cache.EntityCache.past_rows`: superseded or ended, not past their own
        expiry), searchable and matching ``where``; an update's earlier texts (``<id>@v<n>``: a correction, or a
        period its fact holds again) stay out. ``None`` (every live row) has none to add: a fact no longer
        valid is expired in the column that made it ``None``."""
        if allowed is None:
            return None
        extra = cache.past_rows(time.time())
        if extra.size == 0:
            return allowed
        keep = [r for r in extra.tolist() if (f := cache.fact(r)) is not None and not is_version_id(f.id)]
        extra = np.asarray(keep, dtype=np.int64)
        if where is not None:
            extra = extra[np.isin(extra, cache.matching_rows(where))]
        hidden = cache.unsearchable_rows()
        if hidden.size:
            extra = extra[~np.isin(extra, hidden)]
        return np.union1d(allowed, extra) if extra.size else allowed

    @staticmethod
    def _allowed_rows(cache: EntityCache, where: Where | None, at: float | None = None) -> np.ndarray | None:
        """Live rows that are searchable (not ``"searchable": False``), not expired (superseded facts expire at
        their ``valid_to``), already valid (a change told ahead from its ``valid_from``) and match ``where``; ``None`` when that is every live row. With ``at``: the rows
        valid at that time (epoch seconds)."""
        hidden = cache.unsearchable_rows()  # memoised: an entity without such facts pays nothing here
        if at is not None:
            rows = cache.valid_at_rows(at, cache.matching_rows(where) if where is not None else None)
        else:
            now = time.time()
            expired = cache.expired_rows(now)
            starting = cache.starting_rows(now)  # changes told ahead, before their start
            if where is None and expired.size == 0 and hidden.size == 0 and starting.size == 0:
                return None
            rows = cache.matching_rows(where) if where is not None else cache.live_rows()
            if expired.size:
                rows = rows[~np.isin(rows, expired, assume_unique=True)]
            if starting.size:
                rows = rows[~np.isin(rows, starting, assume_unique=True)]
        if hidden.size:
            rows = rows[~np.isin(rows, hidden, assume_unique=True)]
        return rows
