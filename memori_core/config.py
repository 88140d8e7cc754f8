"""Every knob of the recall pipeline, in one frozen object."""

from __future__ import annotations

import dataclasses
import difflib
import logging
import os
from dataclasses import dataclass
import warnings
from typing import Any, ClassVar, Literal

logger = logging.getLogger(__name__)

TokenizerName = Literal["unicode", "memori"]
PoolName = Literal["union", "dense"]
GateName = Literal["relevance", "threshold", "off"]
CoreWhen = Literal["touched", "open", "always"]

#: Environment variables read by :meth:`RecallConfig.from_env`, mapped to fields.
ENV_FIELDS: dict[str, str] = {
    "MEMORI_RECALL_LEX_WEIGHT": "lex_weight",
    "MEMORI_RECALL_LEX_WEIGHT_SHORT": "lex_weight_short",
    "MEMORI_RECALL_RELEVANCE_THRESHOLD": "relevance_threshold",
    "MEMORI_RECALL_LIMIT": "limit",
    "MEMORI_RECALL_DENSE_LIMIT": "dense_limit",
    "MEMORI_RECALL_CANDIDATE_MULTIPLIER": "candidate_multiplier",
    "MEMORI_RECALL_TOKENIZER": "tokenizer",
    "MEMORI_RECALL_STEMMER": "stemmer",
    "MEMORI_RECALL_POOL": "pool",
    "MEMORI_RECALL_NEIGHBOUR_WEIGHT": "neighbour_weight",
    "MEMORI_RECALL_GATE": "gate",
    "MEMORI_RECALL_CONTEXT_TURNS": "context_turns",
    "MEMORI_RECALL_CONTEXT_WEIGHT": "context_weight",
    "MEMORI_RECALL_CONTEXT_WEIGHT_LEANING": "context_weight_leaning",
    "MEMORI_RECALL_CORE_LIMIT": "core_limit",
    "MEMORI_RECALL_SLOT_RECENCY_WEIGHT": "slot_recency_weight",
    "MEMORI_RECALL_AFFINITY_WEIGHT": "affinity_weight",
    "MEMORI_RECALL_RESTATEMENT_TERMS": "restatement_terms",
    "MEMORI_RECALL_GATE_IMPLIED": "gate_implied",
    "MEMORI_RECALL_GATE_SPREAD": "gate_spread",
    "MEMORI_RECALL_GATE_IMPLIED_YIELD": "gate_implied_yield",
}

OTHER_ENV_VARIABLES: tuple[str, ...] = ("MEMORI_RECALL_PATH",)
"""The other ``MEMORI_RECALL_*`` variables memori reads (the default store folder: ``store/chroma_paths.py``)."""

_ENV_PREFIX = "MEMORI_RECALL_"
_unknown_warned: set[str] = set()  # the unknown variable names warned about in this process

_DEFAULT_THRESHOLD = 0.19
_GATE_OFF = object()  # what MEMORI_RECALL_RELEVANCE_THRESHOLD=none parses to


@dataclass(frozen=True)
class RecallConfig:
    """Settings of one recall engine (or one retriever / postprocessor).

    The fields come in four groups (:attr:`GROUPS`): *presentation* (how many facts a recall returns and how
    they print), *formula* (candidates and scores), *gate* (what reaches the prompt) and *performance* (how
    much is scored, and how). Defaults were chosen on the development halves of LoCoMo, a LongMemEval-style
    chat memory and PrefEval (docs/ranking.md); :meth:`memori_compat` reproduces upstream Memori 3.3.6 exactly.
    """

    GROUPS: ClassVar[dict[str, tuple[str, ...]]] = {
        "presentation": ("limit", "core_limit", "core_when", "one_per_text", "time_zone_label"),
        "formula": (
            "pool", "lex_weight", "lex_weight_short", "short_query_max_tokens", "weight_clamp",
            "candidate_multiplier", "candidate_floor", "k1", "b", "tokenizer", "stemmer", "lexical_floor",
            "neighbour_weight", "second_neighbour_weight", "session_weight", "neighbour_length_ref",
            "context_turns", "context_weight", "context_weight_leaning", "affinity_weight", "slot_recency_weight", "restatement_terms",
        ),
        "gate": (
            "gate", "relevance_threshold", "gate_open", "gate_keep", "gate_confident", "gate_band", "gate_words",
            "gate_words_cosine", "gate_words_bm25", "gate_care", "gate_care_cosine", "gate_general",
            "gate_general_bm25", "gate_world", "gate_followup", "gate_followup_top", "gate_carried", "gate_carried_cosine",
            "gate_third_person", "gate_implied",
            "gate_spread", "gate_implied_yield", "judge_candidates",
        ),
        "performance": ("dense_limit", "quantized_above"),
    }
    """Field names by group, in declaration order."""

    # -- presentation: how many facts a recall returns and how the block prints them --------------------
    limit: int = 5
    """Facts returned by ``recall`` when the call gives no limit."""
    core_limit: int = 3
    """Core facts (``add(..., core=True)``: allergies, medication, diet) appended after what the ranking and
    the gate chose, on every turn about the user (not on a general question that touches no concern, nor a
    courtesy turn): at most this many of those not already recalled, most relevant first
    (so a recall returns up to ``limit + core_limit`` facts). 0 turns core injection off (``memori_compat``)."""
    core_when: CoreWhen = "always"
    """Which turns about the user get the core facts (under the relevance gate): ``"touched"``, a turn about the
    body, food, health or travel (in its words or those of the turns read with it), one asking whether the asker
    should do something, or one whose words, or a fact recall chose, touch a core fact's concerns
    (:func:`~memori_core.ranking.core.core_turn_concerns`): "Help me fix this spreadsheet formula." gets none,
    "Any ideas for dinner tonight?" the allergy; ``"open"``: every turn about the user but one the
    relevance gate keeps nothing for (it reads the turn as off-topic) that is not about the body, food, health or
    travel nor asks whether to do something, which gets only the core facts its words touch ("Can you help me fix
    this Excel formula?" none: docs/ranking.md item 44); ``"always"`` (the default, as issue 20 asked: an
    allergy is worth a few tokens on every turn, and an app that marked a fact core said so): every turn about the user. ``"touched"`` showed a sixth to a
    third fewer core facts where none was needed on the app sets, with two needed ones lost on dev (a shellfish
    allergy for a Japan itinerary): for an agent whose turns are mostly about other things."""
    one_per_text: bool = True
    """A fact whose text (normalised) a fact recall returns before it already says is left out, not replaced:
    the same fact stored under two ids (a LangGraph store key and a captured turn) reaches the prompt once.
    ``False`` returns every copy (what :meth:`memori_compat` does)."""
    time_zone_label: bool = True
    """The block's ``Stated at`` times are UTC; ``True`` says so (``2026-05-01 09:30 UTC``), or writes them in the
    zone of the turn being answered with its offset when the adapter knows it (``2026-11-09 21:00 -05:00``);
    ``False`` prints upstream Memori's ``2026-05-01 09:30``, in UTC (what :meth:`memori_compat` uses)."""

    # -- formula: which facts are candidates and how they are scored (docs/ranking.md) ----------------
    pool: PoolName = "union"
    """``"union"``: dense top P plus BM25 top P over the whole memory; ``"dense"``: dense top P only (Memori)."""
    lex_weight: float = 0.35
    """Lexical (BM25) weight for queries longer than ``short_query_max_tokens``."""
    lex_weight_short: float = 0.35
    """Lexical weight for short queries."""
    short_query_max_tokens: int = 2
    """Queries with at most this many tokens (after stopwords) count as short."""
    weight_clamp: tuple[float, float] = (0.05, 0.40)
    """Both lexical weights are clamped into this closed interval."""
    candidate_multiplier: int = 5
    """Pool size P is ``max(limit * candidate_multiplier, candidate_floor)``: 50 rows for every recall of up to
    10 facts, so a recall of 10 scores the pool a recall of 5 does and begins with its answer (docs/ranking.md
    item 48; upstream Memori's 10 is :meth:`memori_compat`'s)..."""
    candidate_floor: int = 50
    """...bounded by the number of rows and never below ``limit``."""
    k1: float = 1.2
    """BM25 term-frequency saturation."""
    b: float = 0.4
    """BM25 length normalisation."""
    tokenizer: TokenizerName = "unicode"
    """``"unicode"`` (every script, CJK bigrams) or ``"memori"`` (ASCII, upstream parity)."""
    stemmer: str | None = "english"
    """Snowball language for Latin-script tokens (PyStemmer); ``None`` turns stemming off."""
    lexical_floor: float = 0.5
    """BM25 is divided by ``max(pool maximum, lexical_floor * sum of the matched query terms' idf)``, so a
    fact matching one common word of a long query is not the "perfect" lexical match; 0: pool maximum only."""
    neighbour_weight: float = 0.4
    """Neighbour smoothing: a fact gains this share of the best fused score of the facts said just
    before / after it in the same session. Only facts added with a ``session_id`` have neighbours; 0 turns it off."""
    second_neighbour_weight: float = 0.15
    """...plus this share of the best fused score of the facts two turns away (0 turns it off)."""
    session_weight: float = 0.3
    """...plus this share of the best fused score among the pooled facts of its session (0 turns it off)."""
    neighbour_length_ref: int | None = 500
    """The whole bonus is scaled by ``min(1, neighbour_length_ref / len(fact text))``: a short turn
    ("Yes, in May!") takes its meaning from its neighbours, a long one stands on its own. ``None``: no scaling."""
    context_turns: int = 3
    """Conversation-aware recall: how many of the latest turns of ``recall(..., context=[...])`` are read
    (older ones are dropped); 0 ignores the context."""
    context_weight: float = 0.5
    """How far the conversation moves the query: recall searches with ``normalise(q + context_weight * c)``,
    ``q`` the question's embedding and ``c`` the embedding of the read turns followed by the question (one
    extra embedding per recall, only when there is context); 0 ignores the context."""
    context_weight_leaning: float | None = 1.0
    """``context_weight`` for a turn that leans on its conversation
    (:func:`~memori_core.ranking.conversation.leans_on_the_conversation`: "and if it rains?", "would I earn enough
    doing that", "cheaper?"): its own words say little of what it asks, so the conversation moves its search
    further (docs/ranking.md 55). ``None``: ``context_weight``; only read when ``context_weight`` is above 0."""
    affinity_weight: float = 0.0
    """How far a personal question's ranking reaches facts its words never meet (:mod:`memori_core.ranking.affinity`:
    the question's and the fact's life domains, care facts), 0..1; 0: off."""
    slot_recency_weight: float = 0.0
    """Tie-break between facts of one slot of the same person (where they live, job, diet...:
    :mod:`memori_core.slots`): among the best ``max(2 * limit, 10)`` candidates, the newest of those sharing
    a slot gains this much (at most 0.05), so it wins a near-tie with an older, never-superseded fact
    (``ranking/recency.py``). 0 (the default, docs/ranking.md says why) turns it off."""
    restatement_terms: int | None = 4
    """Newer restatements rank first: among the 10 best candidates, the newest of those that hold every query
    term an older one holds (at least this many terms) is lifted just above it (a figure, a time or a habit
    told again later: "my personal best is now 25:50"), unless the question asks when something happened
    (``ranking/recency.py``). ``None`` turns it off."""

    # -- gate: which of the best candidates reach the prompt ------------------------------------------
    gate: GateName = "relevance"
    """What reaches the prompt. ``"relevance"``: the abstaining gate (``gate_open``, ``gate_keep``,
    ``gate_confident``, ``gate_band``, ``gate_words*``), which opens on cosines or on the query's
    informative words, so function words or a word every candidate shares never open it;
    ``"threshold"``: keep rank scores >= ``relevance_threshold``; ``"off"``: no gate, recall returns the
    ``limit`` best (and a judge, if any, is not asked)."""
    relevance_threshold: float | None = _DEFAULT_THRESHOLD
    """With ``gate="threshold"``, the minimum rank score kept (upstream Memori's rule; 0.1 in
    :meth:`memori_compat`); the other gates do not read it. ``None`` is the old spelling of ``gate="off"``:
    still accepted, with a ``DeprecationWarning``, and turned into ``gate="off"`` with the default number."""
    gate_open: float = 0.31
    """Relevance gate: nothing is injected unless the best cosine among the ``limit`` best facts reaches this."""
    gate_keep: float = 0.31
    """Relevance gate: once open, a fact among the ``limit`` best is kept when its cosine reaches this..."""
    gate_confident: float = 0.44
    """...or, when the best cosine reaches this (a confident match), when its rank score is at least..."""
    gate_band: float = 0.5
    """...this share of the best rank score (its words and its session then count, not only its cosine)."""
    gate_words: float = 0.7
    """Relevance gate, by words: a fact whose normalised BM25 reaches this (it holds most of the query's
    informative words) opens the gate and is kept, if its cosine reaches ``gate_words_cosine`` and its raw
    BM25 reaches ``gate_words_bm25`` (so words common to most candidates never count)."""
    gate_words_cosine: float = 0.25
    """See ``gate_words``."""
    gate_words_bm25: float = 1.0
    """See ``gate_words``."""
    gate_care: float | None = 0.6
    """Relevance gate, second signal (memori_core/ranking/care.py): when a personal question's share of the
    food and health domains reaches this, a care fact (allergy, medication, condition, dietary restriction) among the
    ``limit`` best is kept, and opens the gate, from a cosine of ``gate_care_cosine``. ``None`` turns it off."""
    gate_care_cosine: float = 0.1
    """See ``gate_care``."""
    gate_general: float | None = 0.7
    """Relevance gate, third signal (memori_core/ranking/intent.py): a general-knowledge question that speaks
    of no one in the first person ("What's the capital of Australia?", "How many ounces are in a cup?")
    keeps a fact only when the fact's cosine to the question itself (not to the conversation) reaches this,
    or when the fact holds many of its informative words (raw BM25 >= ``gate_general_bm25``). The care
    signal does not apply to such a question. ``None`` turns the signal off. Raised from 0.6 / 3.5 to
    0.7 / 8.0 when questions asking what the asker told ("When is that conference again?") stopped counting
    as general: on the six read app sets off-topic turns came out cleaner (0.63-0.95 to 0.74-0.97) and no
    turn that needs a fact lost it (docs/ranking.md 27)."""
    gate_general_bm25: float = 8.0
    """See ``gate_general``."""
    gate_world: float | None = 0.5
    """Relevance gate: a question about the world asked after other turns and read on its own words, not read as
    general (memori_core/ranking/world_question.py: "Are dachshunds prone to ear infections?" after a turn about the
    dog, no first person, no pick for the asker, no one the memory knows)
    keeps a fact the cosine, words or score-band rules alone would keep only when its gate cosine reaches this;
    care facts and the facts a second signal keeps are read as before. ``None`` turns it off (docs/ranking.md 68)."""
    gate_followup: float | None = 0.25
    """Relevance gate, for a turn read with its conversation (``recall(..., context=[...])``) that is not a
    general question: any of the ``gate_followup_top`` best facts whose gate cosine (the larger of its cosine
    to the question and to the conversation) reaches this is kept, and opens the gate. A follow-up ("What
    should I order there?") continues what the user said before, and mixing the turns dilutes every cosine.
    ``None`` turns it off."""
    gate_followup_top: int = 3
    """See ``gate_followup``."""
    gate_carried: int | None = 2
    """Relevance gate, for a turn that leans on its conversation and is read with it ("its red and hot and came on
    overnight" after "my knee is swollen again, is it fine to take loxonin"): a fact recall kept for the turn just
    before (that turn recalled on its own words, not a core fact appended) is carried over, ranked in and kept,
    when it ranks among the ``limit + gate_carried`` best on this turn and its gate cosine reaches
    ``gate_carried_cosine`` (:mod:`memori_core.ranking.carried`; at most one extra embedding: none when the app
    recalled that turn on its own words already, one when its recall read that turn with a context). ``None`` turns it off (docs/ranking.md 59)."""
    gate_carried_cosine: float = 0.2
    """See ``gate_carried``."""
    gate_third_person: float | None = 0.05
    """Relevance gate: for a personal question (first person, or read with its conversation) that is not a
    general one, added to the gate cosine of each fact written about "User" in the third person ("User lives
    in Porto.", as the extractors write facts). Such a fact scores lower against "Where do I live?" than the
    same fact in the first person, and the cutoffs were calibrated on first-person memories: on PrefEval dev,
    written "User ..." (the rule-based rewrite), facts that are not the evidence lose 0.051 of cosine on
    average and the evidence 0.086, so adding 0.05 puts what the gate lets through by mistake back where it
    was calibrated. Only the cutoffs ``gate_open``, ``gate_keep``, ``gate_confident`` and ``gate_words_cosine``
    read it, on the question's own cosine; the care and follow-up rules were set on "User" facts and read the
    cosine as it is (``explain``'s gate cos column shows the lifted one). ``None`` turns it off."""
    gate_implied: bool = True
    """Relevance gate, fourth signal (memori_core/ranking/implications.py, its tables in ranking/concerns.py):
    when a personal question about what to do (or a follow-up of one) touches a concern a care fact or a
    limitation constrains ("Can I have a beer at the pub?" and "User has coeliac disease.": gluten; sushi and a
    pregnancy; kale and warfarin; the dentist and any medication; a ferry and seasickness), that fact is ranked into the ``limit`` best and kept,
    whatever its cosine. ``False`` turns it off."""
    gate_spread: float | None = None
    """Relevance gate, how many once open (memori_core/ranking/spread.py): of the facts the gate keeps by their
    cosine alone (``gate_keep``, the score band, the words rule), drop those whose gate cosine is more than this
    below the best kept fact's; the first fact kept, and facts a second signal vouches for (care facts,
    implications, a follow-up's best), always stay. ``None`` (the default) cuts nothing: on the development
    sets every spread that lowered the facts per abstention question lost needed facts too (docs/ranking.md,
    item 42)."""
    gate_implied_yield: bool = True
    """Relevance gate: facts ranked into the ``limit`` best by an implication (``gate_implied``) or as plans in
    force take the places of the weakest others, but not of a fact the gate keeps among the ``limit`` best without
    them on a confident cosine (``gate_confident``, with the third-person lift): five "clinic" facts (every allergy
    and medicine) no longer push "User's furnace is 25 years old..." (gate cosine 0.48) out of a question about
    the furnace (``pipeline.limit_best``, ``pipeline.yield_held``, docs/ranking.md item 53). At most ``limit - 1``
    facts hold their place, so the best implied fact still gets in ("Can I have satay?" keeps the peanut allergy at
    limit 1); a judge is shown the facts held. On by default since session 37: it gained needed turns on every
    app set written blind to the tables (blind13-16) and on three more, and cost one on four sets whose
    implication tables were written after reading them (the implied fact it displaced was the one they label
    needed); ``False`` gives the order of before."""
    judge_candidates: int = 8
    """With a judge (``RecallEngine(judge=...)``, :mod:`memori_core.judge`): how many of the best candidates,
    ungated, the judge is shown (at least ``limit``); recall keeps those it calls relevant. Without a judge
    it has no effect."""

    # -- performance: how much is scored and how (same answers, except dense_limit's recency window) --
    dense_limit: int | None = None
    """Most recent rows scored per recall; ``None`` scores all of an entity's facts."""
    quantized_above: int | None = 8_000
    """A recall that scores more rows than this finds its dense candidates in an 8-bit copy of the entity's
    matrix (FAISS; a quarter of the bytes to read) and re-scores them exactly in float32. A per-query error
    bound widens the search until the candidates provably hold the exact dense pool, so the answers are
    those of the exact scan (memori_core/cache/quantized.py). The copy costs ``dim`` bytes per fact
    (37 MiB at 100k 384-d facts, plus ~15 MiB for FAISS itself) and is made on the entity's first such
    recall (0.2 s at 100k). ``None``: always scan exactly. Default 8,000: where the copy starts to win,
    measured on a 2-core machine at 1 BLAS thread (benchmarks/bench_quantized.py, 384-d): the dense pool
    through the copy takes 1.7x the scan's time at 5,000 rows (0.1 ms more), 1.0x at 7,000, 0.86x at
    8,000, 0.41x at 10,000 and 0.16x at 100,000 (the scan slows once the matrix outgrows the CPU caches)."""

    def __post_init__(self) -> None:
        if self.relevance_threshold is None:
            warnings.warn("RecallConfig(relevance_threshold=None) is deprecated: pass gate='off'",
                          DeprecationWarning, stacklevel=3)
            object.__setattr__(self, "gate", "off")
            object.__setattr__(self, "relevance_threshold", _DEFAULT_THRESHOLD)
        _check_int("limit", self.limit, minimum=0)
        _check_int("core_limit", self.core_limit, minimum=0)
        _check_int("judge_candidates", self.judge_candidates, minimum=1)
        _check_int("context_turns", self.context_turns, minimum=0)
        _check_number("context_weight", self.context_weight)
        if self.context_weight < 0:
            raise ValueError(f"context_weight must be >= 0, got {self.context_weight}")
        if self.context_weight_leaning is not None:
            _check_number("context_weight_leaning", self.context_weight_leaning)
            if self.context_weight_leaning < 0:
                raise ValueError(f"context_weight_leaning must be >= 0 or None, got {self.context_weight_leaning}")
        if self.dense_limit is not None:
            _check_int("dense_limit", self.dense_limit, minimum=1)
        _check_number("relevance_threshold", self.relevance_threshold)
        _check_number("lex_weight", self.lex_weight)
        _check_number("lex_weight_short", self.lex_weight_short)
        _check_int("short_query_max_tokens", self.short_query_max_tokens, minimum=0)
        lo, hi = self.weight_clamp
        _check_number("weight_clamp[0]", lo)
        _check_number("weight_clamp[1]", hi)
        if not 0.0 <= lo <= hi <= 1.0:
            raise ValueError(f"weight_clamp must satisfy 0 <= low <= high <= 1, got {self.weight_clamp!r}")
        _check_int("candidate_multiplier", self.candidate_multiplier, minimum=1)
        _check_int("candidate_floor", self.candidate_floor, minimum=0)
        _check_number("k1", self.k1)
        _check_number("b", self.b)
        if self.k1 < 0 or not 0.0 <= self.b <= 1.0:
            raise ValueError(f"BM25 needs k1 >= 0 and 0 <= b <= 1, got k1={self.k1}, b={self.b}")
        if self.tokenizer not in ("unicode", "memori"):
            raise ValueError(f"tokenizer must be 'unicode' or 'memori', got {self.tokenizer!r}")
        if self.stemmer is not None:
            if not isinstance(self.stemmer, str) or not self.stemmer:
                raise ValueError(f"stemmer must be a Snowball language name or None, got {self.stemmer!r}")
            from .text import get_stemmer

            get_stemmer(self.stemmer)  # an unknown language fails here, not at the first recall
        if self.pool not in ("union", "dense"):
            raise ValueError(f"pool must be 'union' or 'dense', got {self.pool!r}")
        for name in ("neighbour_weight", "second_neighbour_weight", "session_weight", "lexical_floor"):
            value = getattr(self, name)
            _check_number(name, value)
            if value < 0:
                raise ValueError(f"{name} must be >= 0, got {value}")
        _check_number("affinity_weight", self.affinity_weight)
        if not 0.0 <= self.affinity_weight <= 1.0:
            raise ValueError(f"affinity_weight must be in [0, 1], got {self.affinity_weight}")
        _check_number("slot_recency_weight", self.slot_recency_weight)
        if not 0.0 <= self.slot_recency_weight <= 0.05:
            raise ValueError(f"slot_recency_weight must be in [0, 0.05] (a tie-break), got {self.slot_recency_weight}")
        if self.restatement_terms is not None:
            _check_int("restatement_terms", self.restatement_terms, minimum=1)
        if self.neighbour_length_ref is not None:
            _check_int("neighbour_length_ref", self.neighbour_length_ref, minimum=1)
        if self.quantized_above is not None:
            _check_int("quantized_above", self.quantized_above, minimum=0)
        _check_int("gate_followup_top", self.gate_followup_top, minimum=0)
        if self.gate_carried is not None:
            _check_int("gate_carried", self.gate_carried, minimum=0)
        _check_number("gate_carried_cosine", self.gate_carried_cosine)
        for name in ("gate_implied", "gate_implied_yield"):
            if not isinstance(getattr(self, name), bool):
                raise TypeError(f"{name} must be a bool, got {type(getattr(self, name)).__name__}")
        for name in ("gate_care", "gate_general", "gate_world", "gate_followup", "gate_third_person"):
            if getattr(self, name) is not None:
                _check_number(name, getattr(self, name))
        if self.gate_spread is not None:
            _check_number("gate_spread", self.gate_spread)
            if self.gate_spread < 0:
                raise ValueError(f"gate_spread must be >= 0 or None, got {self.gate_spread}")
        if self.core_when not in ("touched", "open", "always"):
            raise ValueError(f"core_when must be 'touched', 'open' or 'always', got {self.core_when!r}")
        if self.gate not in ("relevance", "threshold", "off"):
            raise ValueError(f"gate must be 'relevance', 'threshold' or 'off', got {self.gate!r}")
        for name in ("gate_open", "gate_keep", "gate_confident", "gate_band", "gate_words", "gate_words_cosine",
                     "gate_words_bm25", "gate_care_cosine", "gate_general_bm25"):
            _check_number(name, getattr(self, name))
        if self.gate == "relevance" and self.relevance_threshold != _DEFAULT_THRESHOLD:
            logger.warning(
                "relevance_threshold=%r has no effect with gate='relevance'; pass gate='threshold' to filter by "
                "rank score", self.relevance_threshold,
            )

    def replace(self, **changes: Any) -> RecallConfig:
        """Return a copy with some fields changed (validated like the constructor)."""
        return dataclasses.replace(self, **changes)

    @classmethod
    def memori_compat(cls, **overrides: Any) -> RecallConfig:
        """Upstream Memori 3.3.6's exact ranking: dense pool only, ASCII tokenizer without stemming,
        BM25 b=0.75 max-normalised over the pool, weights 0.15 / 0.30 (short), no neighbour smoothing,
        threshold gate at 0.1, 1000 most recent rows, no core facts appended (``core_limit=0``)."""
        base: dict[str, Any] = {
            "tokenizer": "memori",
            "dense_limit": 1000,
            "candidate_multiplier": 10,
            "relevance_threshold": 0.1,
            "lex_weight": 0.15,
            "lex_weight_short": 0.30,
            "b": 0.75,
            "stemmer": None,
            "pool": "dense",
            "neighbour_weight": 0.0,
            "context_turns": 0,
            "core_limit": 0,
            "second_neighbour_weight": 0.0,
            "session_weight": 0.0,
            "lexical_floor": 0.0,
            "gate": "threshold",
            "gate_care": None,
            "gate_general": None,
            "gate_world": None,
            "gate_followup": None,
            "gate_third_person": None,
            "gate_implied": False,
            "restatement_terms": None,
            "affinity_weight": 0.0,
            "time_zone_label": False,
            "one_per_text": False,
        }
        base.update(overrides)
        return cls(**base)

    @classmethod
    def from_env(cls, base: RecallConfig | None = None, **overrides: Any) -> RecallConfig:
        """Build a config from ``MEMORI_RECALL_*`` environment variables, read now.

        Only a config built here reads them: ``RecallEngine()`` (and every adapter) without ``config=`` uses
        the defaults whatever the environment says, so a service configured by these variables passes
        ``config=RecallConfig.from_env()``. The ``memori`` command does (and says on standard error which
        variables it applied: :meth:`env_variables`).

        Fields the environment does not set keep ``base``'s values (default:
        :class:`RecallConfig` defaults); ``from_env(base=RecallConfig.memori_compat())``
        handles the variables exactly as upstream Memori does. Values are read with surrounding whitespace
        stripped, and names (``MEMORI_RECALL_GATE=OFF``, ``none``, ``English``) in any case. Unparsable or
        invalid values (e.g. ``MEMORI_RECALL_LIMIT=-3``) are ignored with a
        warning naming the variable, its value, why, and the value the config uses instead (base's, an override's, or
        the gate a threshold number selects), as
        upstream Memori does and as every ``MEMORI_RECALL_*`` variable is (``MEMORI_RECALL_PATH`` too). A number in
        ``MEMORI_RECALL_RELEVANCE_THRESHOLD`` (without ``MEMORI_RECALL_GATE``)
        selects ``gate="threshold"``, the rule that number belongs to; ``none`` or
        ``off`` there selects ``gate="off"``. Keyword
        ``overrides`` win over the environment and are validated strictly.
        """
        ignored: list[tuple[str, str, str, str]] = []
        values, applied = _read_env(cls, warn=True, ignored=ignored)
        if applied:
            logger.info("RecallConfig.from_env applied %s", ", ".join(f"{k}={v}" for k, v in applied.items()))
        values.update(overrides)
        try:
            config = dataclasses.replace(base, **values) if base is not None else cls(**values)
        except Exception:  # a bad override: its error is raised, and the variables ignored are still said
            for var, raw, name, why in ignored:
                logger.warning("ignoring %s=%r: not a valid value for %s (%s)", var, raw, name, why)
            raise
        # Said once the config is built: the value used comes from base, an override or another variable
        # (a number in MEMORI_RECALL_RELEVANCE_THRESHOLD selects gate="threshold").
        for var, raw, name, why in ignored:
            logger.warning("ignoring %s=%r: not a valid value for %s (%s); using %r", var, raw, name, why,
                           getattr(config, name))
        return config

    @classmethod
    def env_variables(cls) -> dict[str, str]:
        """The ``MEMORI_RECALL_*`` variables :meth:`from_env` would apply now, each with its stripped value
        (those unset, blank or invalid are left out), in :data:`ENV_FIELDS` order."""
        return _read_env(cls, warn=False)[1]


def _read_env(cls: type[RecallConfig], *, warn: bool, ignored: list[tuple[str, str, str, str]] | None = None
              ) -> tuple[dict[str, Any], dict[str, str]]:
    """(the fields the ``MEMORI_RECALL_*`` variables set, the variables applied with their stripped values);
    an invalid value is skipped, and added to ``ignored`` as (variable, raw value, field, why) for the caller
    to warn of; unknown ``MEMORI_RECALL_*`` names are warned of when ``warn``."""
    values: dict[str, Any] = {}
    applied: dict[str, str] = {}
    off = False
    if warn:
        _warn_unknown_variables()
    for var, name in ENV_FIELDS.items():
        raw = os.environ.get(var)
        if raw is None or raw.strip() == "":
            continue
        try:
            value = _parse_env_value(name, raw.strip())
            if value is _GATE_OFF:
                off = True  # MEMORI_RECALL_RELEVANCE_THRESHOLD=none: upstream's "no threshold"
                applied[var] = raw.strip()
                continue
            cls(**{name: value}, **({"gate": "threshold"} if name == "relevance_threshold" else {}))
        except (TypeError, ValueError) as exc:
            if ignored is not None:
                ignored.append((var, raw, name, str(exc) if str(exc) and str(exc) != raw.strip() else "unreadable"))
            continue
        values[name] = value
        applied[var] = raw.strip()
    if off:
        values["gate"] = "off"
    elif "relevance_threshold" in values and "gate" not in values:
        # A number in MEMORI_RECALL_RELEVANCE_THRESHOLD means upstream's rank-score rule.
        values["gate"] = "threshold"
    return values, applied


def _warn_unknown_variables() -> None:
    """Warn, once per name in a process, of a ``MEMORI_RECALL_*`` variable memori does not read (a misspelling,
    ``..._LIMT`` for ``..._LIMIT``, is otherwise ignored without a word), naming the known one nearest to it."""
    known = (*ENV_FIELDS, *OTHER_ENV_VARIABLES)
    for var in sorted(os.environ):
        if var.startswith(_ENV_PREFIX) and var not in known and var not in _unknown_warned:
            _unknown_warned.add(var)
            # compared without the prefix, which every name shares, in upper case as they are spelled
            near = difflib.get_close_matches(var.removeprefix(_ENV_PREFIX).upper(),
                                             [k.removeprefix(_ENV_PREFIX) for k in known], n=1)
            logger.warning("ignoring %s: memori reads no such variable%s", var,
                           f" (did you mean {_ENV_PREFIX}{near[0]}?)" if near else "")


def _parse_env_value(name: str, raw: str) -> Any:
    if name in ("tokenizer", "pool", "gate"):
        return raw.lower()  # every name is lower case: MEMORI_RECALL_GATE=OFF means off
    if name == "stemmer":
        return None if raw.lower() in ("none", "off") else raw.lower()
    if name in ("gate_implied", "gate_implied_yield"):
        flag = {"true": True, "on": True, "1": True, "yes": True, "false": False, "off": False, "0": False,
                "no": False}.get(raw.lower())
        if flag is None:
            raise ValueError(raw)
        return flag
    if name in ("limit", "dense_limit", "candidate_multiplier", "context_turns", "core_limit", "restatement_terms"):
        if name in ("dense_limit", "restatement_terms") and raw.lower() in ("none", "all", "off"):
            return None
        return int(raw)
    if name == "relevance_threshold" and raw.lower() in ("none", "off"):
        return _GATE_OFF
    if name in ("gate_spread", "context_weight_leaning") and raw.lower() in ("none", "off"):
        return None
    value = float(raw)
    if name in ("lex_weight", "lex_weight_short") and value in (float("inf"), float("-inf")):
        # Upstream clamps an infinite weight to the clamp's bound; 1.0 / 0.0 are
        # valid weights that the clamp maps to the same bound.
        return 1.0 if value > 0 else 0.0
    if value != value or value in (float("inf"), float("-inf")):
        raise ValueError(raw)
    return value


def _check_int(name: str, value: Any, *, minimum: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be an int, got {type(value).__name__}")
    if value < minimum:
        raise ValueError(f"{name} must be >= {minimum}, got {value}")


def _check_number(name: str, value: Any) -> None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"{name} must be a number, got {type(value).__name__}")
    if value != value or value in (float("inf"), float("-inf")):
        raise ValueError(f"{name} must be finite, got {value}")
