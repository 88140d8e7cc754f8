"""What the relevance gate reads of a recall besides the pool's cosines: how the question goes on from the turns
read with it (news, a turn leaning on them, the facts a read turn tells), courtesy turns and unread scripts, the
prototype sentences embedded once per engine (the care and general-question signals), and, for a personal
question, the third-person lift, the care facts and the implications (:mod:`memori_core.ranking`: ``conversation``,
``care``, ``intent``, ``implications``)."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

import numpy as np

from ..cache.columns import PoolFacts
from ..config import RecallConfig
from ..embedders import Embedder, embedder_scripts
from ..facts import StoredFact
from ..ranking.concerns import cares_only_off_the_plate
from ..ranking.core import asks_only_for_media
from ..ranking.care import care_share, is_care_fact, kin_holder, named_by, names_them
from ..ranking.care import prototype_texts as domain_texts
from ..ranking.conversation import (
    accepts,
    conversation_text,
    conversation_turns,
    gate_cosine,
    goes_on_from_the_conversation,
    leans_on_the_conversation,
    points_back,
    reads_as_courtesy,
    tells_news,
    told_in,
)
from ..ranking.dense import l2_normalise
from ..ranking.gate import USER_WORD
from ..ranking.implications import asks_to_be_reminded, fed_to, goes_on, is_the_askers_own, thread_of, with_implied
from ..ranking.intent import (asks_an_amount_in_a_unit, asks_the_way_there, asks_what_is_left, asks_what_is_usual,
                              asks_what_was_told, is_general, reads_as_a_question, speaks_of_the_user)
from ..ranking.intent import prototype_texts as intent_texts
from ..ranking.own_words import about_someone_named, names_what_was_told, read_on_its_own_words
from ..ranking.pipeline import PoolScores, gate_rows
from ..ranking.fusion import rank_order
from ..ranking.referents import points_to_something, told_by
from ..ranking.world_question import asks_of_the_world, topic_only
from ..ranking.upcoming import UPCOMING_MOST, asks_about_travel, asks_what_is_coming, plans_in_force
from ..text import analyzer, main_script
from .scored import _Gathered

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class _Prototypes:
    """The sentences the gate's second and third signals compare a question with, embedded once per engine."""

    domains: np.ndarray  # life-domain prototypes, domain after domain (:mod:`~.ranking.care`)
    starts: np.ndarray  # row of each domain's first prototype
    intents: np.ndarray  # advice requests, then general-knowledge shapes (:mod:`~.ranking.intent`)
    advice: int  # how many advice requests come first


@dataclass(frozen=True)
class _Turn:
    """How the gate reads a question with the turns before it."""

    read: Sequence[str]  # the earlier turns recall reads with it, oldest first (empty: none)
    general: bool  # it asks about the world, not the asker (:mod:`~.ranking.intent`)
    news: bool  # it tells news (only a turn read with its conversation can)
    leans: bool  # it leans on its conversation
    alone: bool  # it is judged on its own words: the conversation does not widen the gate
    media: bool  # it asks only for something to read, watch or listen to (:func:`~.ranking.core.asks_only_for_media`)
    own_words: bool = False  # alone only as a world question (:func:`~.ranking.own_words.read_on_its_own_words`)


def _turn(query: str, read: Sequence[str], general: bool) -> _Turn:
    """How the gate reads ``query`` after the turns ``read``: a general question, a turn telling news, one asking to
    be reminded of the asker's own thing ("What's my job?"), or a request only for media that does not lean on the
    turns before it ("Recommend a podcast about history.") is judged on its own words, and so is a question about the
    world that goes on from nothing before it (:func:`~.ranking.own_words.read_on_its_own_words`)."""
    news = bool(read) and tells_news(query)
    leans = bool(read) and leans_on_the_conversation(query)
    # a request only for something to read, watch or listen to that does not lean on the turns before it is a
    # topic switch: "Recommend a podcast about history." after a medical question
    media = asks_only_for_media(query)
    switch = bool(read) and not leans and media
    # "What if I go back part-time?" names the asker's job, yet opens by going on from the turn before: no reminder
    alone = general or news or switch or (bool(read) and asks_to_be_reminded(query) and not points_back(query)
                                          and not goes_on_from_the_conversation(query))
    # "How long do you boil an egg?" after a turn about the asker's diet: a question about the world that goes on from
    # nothing before it is judged on its own words (issue 20: the conversation pulled the diet in)
    # (not when its "the X" names a thing a read turn named: "What time does the game start?" after the game)
    own_words = (not alone and bool(read) and read_on_its_own_words(query)
                 and not names_what_was_told(query, conversation_turns(read)))
    return _Turn(read, general, news, leans, alone or own_words, media, own_words)


class GateSignals:
    """The gate's signals on :class:`~memori_core.engine.RecallEngine`'s reads (a mixin: the state is the
    engine's)."""

    config: RecallConfig
    embedder: Embedder
    _prototypes: _Prototypes | None
    _prototypes_failing: bool
    _prototypes_lock: threading.Lock

    def _unasked(self, query: str, q_tokens: Sequence[str], read: Sequence[str] = ()) -> tuple[str | None, str | None]:
        """For the relevance gate: why ``query`` asks for nothing a fact could answer (a courtesy turn, "Thanks!",
        "谢谢!"; a turn without a word, "👍"), and the script it is written in when the embedder does not read it
        (:func:`~memori_core.embedders.embedder_scripts`); ``(None, None)`` for an ordinary question. ``q_tokens``:
        the query as the engine's analyzer reads it; ``read``: the turns read with it (after one, a turn that
        accepts, "ok", "yes please", "👍", asks for what it accepts: :func:`~.ranking.conversation.accepts`)."""
        accepting = bool(read) and accepts(query)
        if not accepting and reads_as_courtesy(query, self.config.tokenizer, self.config.stemmer, q_tokens):
            return ("a courtesy turn" if any(ch.isalnum() for ch in query) else "a turn without a word"), None
        scripts = embedder_scripts(self.embedder)
        if scripts is None:
            return None, None
        script = main_script(query)
        return None, (script if script is not None and script not in scripts else None)

    def _is_courtesy(self, query: str) -> bool:
        """A courtesy turn ("Thanks!", "ok thanks"): it reads no context (:func:`~.ranking.conversation.is_courtesy`);
        one that accepts ("ok", "yes please", "👍": :func:`~.ranking.conversation.accepts`) reads it."""
        if accepts(query):
            return False
        return reads_as_courtesy(query, self.config.tokenizer, self.config.stemmer)

    def _carries_nothing(self, turn: str) -> bool:
        """Whether an earlier ``turn`` is a courtesy turn ("thanks", "ok great", "You're welcome!"), accepting or
        not: it does not count against ``config.context_turns`` (:func:`~memori_core.query.recent_turns`). A
        greeting ("good morning", "have a nice day") is one too: the same test as the adapters'
        (:func:`~memori_core.tool_queries.courtesy_test`), with this engine's analyzer."""
        return bool(turn.strip()) and reads_as_courtesy(turn, self.config.tokenizer, self.config.stemmer)

    def _gate_cosine(self, gathered: _Gathered, turn: _Turn) -> np.ndarray | None:
        """With a conversation, what the gate reads as each pool row's cosine: the question's own for a turn
        read ``alone``, else the larger of the question's and the conversation's (but the question's own for
        a fact a read turn tells: :meth:`_unwiden_told`); ``None`` without one."""
        question_cos, conv_cos = gathered.question_cos, gathered.conv_cos
        if question_cos is None or conv_cos is None:
            return None
        if turn.alone and not turn.own_words:
            return question_cos
        widened = self._unwiden_told(gate_cosine(question_cos, conv_cos), question_cos, conv_cos, gathered.facts,
                                     turn.read)
        if not turn.alone:
            return widened
        return self._read_for_the_named(widened, question_cos, conv_cos, gathered.facts, turn.read)

    def _read_for_the_named(self, widened: np.ndarray, question_cos: np.ndarray, conv_cos: np.ndarray,
                            facts: PoolFacts, read: Sequence[str]) -> np.ndarray:
        """For a world question read on its own words: the question's own cosine, but ``widened`` (the
        conversation's) for a fact about someone a read turn names ("Sam is allergic to peanuts." for "What goes
        well with tofu?" after "I'm cooking dinner for Sam tonight.": :func:`~.ranking.own_words.about_someone_named`),
        held below ``config.gate_confident``. Only the rows the conversation lifts to where a gate rule could keep them are read."""
        cfg = self.config
        bar = min(cfg.gate_keep, cfg.gate_followup if cfg.gate_followup is not None else cfg.gate_keep)
        lifted = np.flatnonzero((widened > question_cos) & (conv_cos >= bar))
        if not lifted.size:
            return question_cos
        turns = conversation_turns(read)
        named = [i for i in lifted.tolist() if about_someone_named(facts[i].content, turns)]
        if not named:
            return question_cos
        out = question_cos.copy()
        # below the confident cut: the conversation keeps the fact, yet does not make the gate confident and open
        # its score band to the asker's own facts the question does not ask for (blind5: Dayo's eczema kept for
        # "Is shea butter good for dry skin?" pulled in the user's sickle cell and medication)
        ceiling = np.maximum(question_cos[named], np.nextafter(cfg.gate_confident, -np.inf))
        out[named] = np.minimum(widened[named], ceiling)
        return out

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

    def _personal(self, query: str, scores: PoolScores, gathered: _Gathered, turn: _Turn, limit: int,
                  question: np.ndarray, conv: np.ndarray | None) -> PoolScores:
        """``scores`` with the signals of a personal question, or of a turn that leans on its conversation, read
        among the rows the gate reads: the third-person lift, the care facts and the implications. ``question``:
        the question's own embedding; ``conv``: the conversation's (``None`` without one)."""
        cfg = self.config
        top = gate_rows(scores, limit)
        if cfg.gate_third_person:
            scores = self._lifted(scores, gathered, turn, top, cfg.gate_third_person)
        if cfg.gate_followup is not None and top.size and not turn.alone and not turn.news:
            scores = self._with_referent(query, scores, gathered.facts, turn.read, int(top[0]))
        # Who the turns before name (a friend's allergy is theirs).
        said = None if turn.news else "\n".join(turn.read) or None
        asked = query if said is None else f"{query}\n{said}"
        # A turn going on from its conversation ("How about the satay?" after "We're at a Thai place") is about
        # food or health when the turn it goes on from is: the newest read, not any turn of the window ("What
        # should I wear to it?" after a medication question and "I started a pottery class" is about clothes).
        followed = None
        if conv is not None and not turn.news and turn.leans:
            followed = lambda: (conv if len(conversation_turns(turn.read)) <= 1  # noqa: E731
                                else self._embedded(conversation_text(query, turn.read[-1:]) or query))
        care = self._care(question, asked, scores, gathered.facts, top, followed, fed_to(query))
        if care is not None:
            scores = replace(scores, care=care)
        if cfg.gate_implied:
            # A turn inherits the concerns of the turns it goes on from: one that says so by its words ("How about
            # the satay?", "...there?"), or a request for advice ("What starter would you suggest?" after "I'm
            # planning a dinner party"); a question about the asker's own things ("What instrument do I play?"
            # after "Can I eat satay?") is a question of its own.
            follows = bool(turn.read) and not turn.news and goes_on(query)
            scores = with_implied(query, scores, gathered.facts.texts,
                                  before="\n".join(thread_of(turn.read)) if follows else None,
                                  told=self._told, conversation=said, limit=limit, config=cfg)
        return scores

    @staticmethod
    def _with_upcoming(query: str, scores: PoolScores, gathered: _Gathered, turn: _Turn,
                       at: float | None) -> PoolScores:
        """``scores`` with the plans in force (:func:`~.ranking.upcoming.plans_in_force`, at ``at`` or now) when the
        question asks what is coming up for the asker, or leans on a turn that did ("What should I bring?" after
        "I'm so excited about my upcoming trip!"): the :data:`~.ranking.upcoming.UPCOMING_MOST` best ranked."""
        leaned = turn.leans and not turn.news and bool(turn.read) and asks_what_is_coming(turn.read[-1])
        asks = asks_what_is_coming(query)
        if not (asks or leaned) or gathered.ends is None:
            return scores
        now = time.time() if at is None else at
        travel = asks_about_travel(query if asks else turn.read[-1])
        in_force = plans_in_force(gathered.facts.texts(), gathered.created, gathered.ends, now, travel=travel)
        if not in_force.any():
            return scores
        best = rank_order(scores.rank_score, scores.cosine)
        best = best[in_force[best]][:UPCOMING_MOST]
        upcoming = np.zeros(in_force.shape[0], dtype=bool)
        upcoming[best] = True
        return replace(scores, upcoming=upcoming)

    def _with_referent(self, query: str, scores: PoolScores, facts: PoolFacts, read: Sequence[str],
                       best: int) -> PoolScores:
        """``scores`` with the fact a follow-up's pronoun points to: "What should I wear to it?" after "I started a
        pottery class on Wednesdays." asks about the class, which the ``best`` ranked row, "User started a pottery
        class on Wednesdays.", tells (:func:`~.ranking.referents.told_by` the newest of the ``read`` turns). Its
        cosine to a bare "it" is low, and the model needs it to know what "it" is."""
        if not read or not points_to_something(query):
            return scores
        analyze = analyzer(self.config.tokenizer, self.config.stemmer)
        if not told_by(analyze(facts[best].content), frozenset(analyze(read[-1])), frozenset(analyze(USER_WORD))):
            return scores
        referent = np.zeros(scores.rows.shape[0], dtype=bool)
        referent[best] = True
        return replace(scores, referent=referent)

    def _with_world(self, query: str, scores: PoolScores, facts: PoolFacts, turn: _Turn, limit: int) -> PoolScores:
        """``scores`` with the facts that only share the topic of a question about the world read on its own words
        after other turns (:mod:`~.ranking.world_question`: "Are dachshunds prone to ear infections?" after a turn
        about Sigge, and "User walks his dachshund Sigge."), which the gate keeps on its plain rules only from
        ``config.gate_world``; unchanged for any other turn, a first turn included. Only the best
        ranked rows the world cut could drop are read: below the cut, among the ``4 x limit`` best scores."""
        cfg = self.config
        if cfg.gate_world is None or not turn.own_words or not asks_of_the_world(query, facts.texts()):
            return scores
        cosine = scores.cosine if scores.gate_cosine is None else scores.gate_cosine
        k = min(cosine.shape[0], 4 * limit)
        best = np.argpartition(-scores.rank_score, k - 1)[:k] if k else np.zeros(0, dtype=np.int64)
        below = best[cosine[best] < cfg.gate_world]
        turns = conversation_turns(turn.read) if turn.read else ()
        rows = [i for i in below.tolist() if topic_only(facts[i].content, turns)]
        if not rows:
            return scores
        world = np.zeros(cosine.shape[0], dtype=bool)
        world[rows] = True
        return replace(scores, world=world)

    def _embedded(self, text: str) -> np.ndarray:
        """``text`` embedded as a query, unit length."""
        return l2_normalise(self.embedder.embed_query(text))[0]

    @staticmethod
    def _lifted(scores: PoolScores, gathered: _Gathered, turn: _Turn, top: np.ndarray, lift_by: float) -> PoolScores:
        """``scores`` with the third-person lift (``lift_by``) on the facts among ``top`` written about "User"."""
        about = top[gathered.facts.starts_with_word(USER_WORD, top)]
        if not about.size:
            return scores
        lift = np.zeros(scores.cosine.shape[0])
        lift[about] = lift_by
        question_cos, conv_cos = gathered.question_cos, gathered.conv_cos
        if question_cos is not None and conv_cos is not None and not turn.alone:
            # Only the question's own cosine is lifted: the conversation's is read as it was, except for a
            # fact a read turn tells (_unwiden_told), which the gate reads on the question's cosine alone.
            widened = gate_cosine(question_cos, conv_cos)
            told = scores.gate_cosine < widened if scores.gate_cosine is not None else False
            lift = np.where(told, lift, np.maximum(question_cos + lift, conv_cos) - widened)
        return replace(scores, lift=lift.astype(scores.cosine.dtype))

    def _care(self, question: np.ndarray, asked: str, scores: PoolScores, facts: Sequence[StoredFact],
              top: np.ndarray, conversation: Callable[[], np.ndarray] | None = None,
              fed: str | None = None) -> np.ndarray | None:
        """The pool rows the gate may keep as care facts (:mod:`~.ranking.care`) of a personal question (the
        caller checks it is one): among ``top``, the ``limit`` best, allergies, medications and diets of the
        user's household, or of someone ``asked`` (the question and the turns read with it) names
        (:func:`~.ranking.care.named_by`), when the question, or the ``conversation`` a follow-up goes on from
        (its embedding, made only when read), is about food or health. A question of what to feed someone else
        (``fed``, whom it asks to feed: "What should I feed Mylo?", :func:`~.ranking.implications.fed_to`) has none of the
        asker's own.

        Cheapest test first: only rows the cosine rules would drop and the care bar admits are read, and
        the question's domains are measured only when one of them is a care fact."""
        cfg = self.config
        if cfg.gate_care is None:
            return None
        cosine = scores.cosine if scores.gate_cosine is None else scores.gate_cosine
        top = top[(cosine[top] < cfg.gate_keep) & (cosine[top] >= cfg.gate_care_cosine)]
        # A partner's or child's diet shapes the meals the user cooks for them (the implications open it for a
        # meal), not the user's own food or health: "I'm so hungover" is no question for "User's girlfriend Priya
        # is coeliac." unless it names her or "we".
        rows = [i for i in top.tolist() if is_care_fact(text := facts[i].content) and named_by(text, asked)
                and ((kin := kin_holder(text)) is None or names_them(kin, asked))
                and not (fed is not None and is_the_askers_own(text) and not names_them(fed, text))]
        if not rows:
            return None
        prototypes = self._prototype_vectors(question.shape[0])
        if prototypes is None:
            return None
        share = care_share(question, prototypes.domains, prototypes.starts)
        if share < cfg.gate_care and conversation is not None:
            share = max(share, care_share(conversation(), prototypes.domains, prototypes.starts))
        if share < cfg.gate_care:
            return None
        off_the_plate = [i for i in rows if cares_only_off_the_plate(facts[i].content)]
        if off_the_plate and (care_share(question, prototypes.domains, prototypes.starts, domains=("health",))
                              < care_share(question, prototypes.domains, prototypes.starts, domains=("food",))):
            # an allergy to cats or penicillin is no care fact of a question about food ("Any snack ideas for my
            # lunchbox?"): concerns.NOT_EATEN_ALLERGY, as the vocabulary and the concerns read it
            rows = [i for i in rows if i not in off_the_plate]
            if not rows:
                return None
        mask = np.zeros(scores.rows.shape[0], dtype=bool)
        mask[rows] = True
        return mask

    def _general_shape(self, query: str, question: np.ndarray, asker: bool) -> bool:
        """Whether ``query`` (embedded as ``question``) has the shape of a general-knowledge question for the
        relevance gate (:mod:`~.ranking.intent`); it is general unless it also names someone the pool's facts
        hold. A keyword search, a question for the asker (``asker``: :func:`~.ranking.care.for_the_asker`) or
        one about "the user", asking what the asker told (:func:`~.ranking.intent.asks_what_was_told`) or the way to
        a place named before (:func:`~.ranking.intent.asks_the_way_there`) or what is left of a debt
        (:func:`~.ranking.intent.asks_what_is_left`) never is, and costs no prototype. A question asking what is
        usual is general by its words alone (the caller then checks it names nothing of the user's:
        :func:`~.ranking.intent.names_the_askers`)."""
        cfg = self.config
        if (cfg.gate != "relevance" or cfg.gate_general is None or not reads_as_a_question(query)
                or asker or speaks_of_the_user(query) or asks_what_was_told(query) or asks_the_way_there(query)
                or asks_what_is_left(query)):
            return False
        if asks_an_amount_in_a_unit(query) or asks_what_is_usual(query):
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
