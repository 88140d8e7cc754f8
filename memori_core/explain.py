"""The answer to "why was this recalled, and why was nothing recalled"."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from .facts import RecalledFact


@dataclass(frozen=True)
class CandidateScore:
    """One pool candidate with every part of its score."""

    rank: int
    """1-based position by rank score within the pool (a fact the question implies is ranked into the
    ``limit`` best; a core fact from outside the pool: numbered after it)."""
    id: str
    content: str
    created_at: str | None
    cosine: float
    bm25: float
    """Raw BM25 over the pool."""
    lexical: float
    """``bm25`` divided by the pool's maximum."""
    rank_score: float
    kept: bool
    """Returned by ``recall``."""
    reason: str
    """``"kept"``, ``"gate closed"`` (nothing passed the relevance gate), ``"below gate"``, ``"far below the best
    kept"`` (kept by the gate on its cosine alone, dropped by ``RecallConfig.gate_spread``), ``"below threshold"`` (threshold gate), ``"beyond limit"``, ``"judged relevant"`` (kept) / ``"judged out"``
    with a judge (``RecallEngine(judge=...)``), ``"core (injected)"`` for a core fact recall appends after
    the ones it chose (kept; listed last, in the order recall returns them), or ``"same text as a fact above"``
    for one the gate kept that says what a fact recall returns before it says (stored under another id)."""
    metadata: dict[str, Any] = field(default_factory=dict)
    source: str = "dense"
    """Where the candidate came from: ``"dense"``, ``"lexical"``, ``"dense+lexical"``, ``"neighbour"``, or
    ``"core"`` (a core fact that was not in the pool, appended by recall)."""
    fused: float = 0.0
    """``w_cos * cosine + w_lex * lexical`` before neighbour smoothing."""
    neighbour_bonus: float = 0.0
    """``neighbour_weight`` x the best fused score of its session neighbours, plus ``slot_recency_weight`` when
    it is the newest candidate of its slot, plus the lift that puts a newer restatement just above the older
    candidate it restates (``restatement_terms``) (``rank_score = fused + bonus``)."""
    gate_cosine: float | None = None
    """What the relevance gate's cosine cutoffs read, when that is not ``cosine``: with conversation context,
    the larger of the fact's cosine to the question alone and to the conversation (``cosine`` is to the blended
    direction), plus the third-person lift of a fact written about "User" among the ``limit`` best, the
    facts the gate reads (``RecallReport.third_person``). ``None``: ``cosine``."""
    valid_from: str | None = None
    """When the fact's current text became valid, when later than ``created_at`` (:attr:`RecalledFact.valid_from`;
    ``None``: since ``created_at``)."""
    restored_at: str | None = None
    """When a restore last made the fact valid again (:attr:`RecalledFact.restored_at`; ``None``: never)."""
    valid_to: str | None = None
    """When the fact stopped being true, for a fact no longer valid that a question about the past ranks
    (:attr:`RecalledFact.valid_to`; ``None``: valid now)."""
    affinity: float = 0.0
    """What a personal question's ranking added to ``neighbour_bonus`` (it is part of it): the life domains the
    question and the fact share, a care fact (:mod:`memori_core.ranking.affinity`)."""
    passed_by: str = ""
    """For a kept candidate, the rule that kept it (:attr:`RecalledFact.passed_by`, one of
    :data:`~memori_core.facts.PASSED_BY`: ``"cosine"``, ``"words"``, ``"follow-up"``, ``"core"``...; documented in
    docs/ranking.md, "Which rule kept a fact"); ``""`` for one not kept. Read from the same decision recall makes."""

    @classmethod
    def of(
        cls, fact: RecalledFact, *, rank: int, bm25: float, kept: bool, reason: str, source: str, fused: float = 0.0,
        neighbour_bonus: float = 0.0, gate_cosine: float | None = None, affinity: float = 0.0, passed_by: str = "",
    ) -> CandidateScore:
        """The candidate ``fact`` is (as ``recall`` returns it, with its cosine, lexical and rank scores), with the
        other parts of its score and its fate."""
        return cls(rank=rank, id=fact.id, content=fact.content, created_at=fact.created_at, cosine=fact.cosine,
                   bm25=bm25, lexical=fact.lexical, rank_score=fact.rank_score, kept=kept, reason=reason,
                   metadata=fact.metadata, source=source, fused=fused, neighbour_bonus=neighbour_bonus,
                   gate_cosine=gate_cosine, valid_from=fact.valid_from, restored_at=fact.restored_at,
                   affinity=affinity, passed_by=passed_by, valid_to=fact.valid_to)

    def fact(self, entity_id: str) -> RecalledFact:
        """This candidate as ``recall`` returns it for ``entity_id`` (:meth:`of` read back)."""
        return RecalledFact(id=self.id, entity_id=entity_id, content=self.content, created_at=self.created_at,
                            cosine=self.cosine, lexical=self.lexical, rank_score=self.rank_score,
                            metadata=self.metadata, valid_from=self.valid_from, restored_at=self.restored_at,
                            passed_by=self.passed_by, valid_to=self.valid_to)


@dataclass(frozen=True)
class RecallReport:
    """Everything a recall computed: query tokens, weights, pool, and each candidate's fate."""

    query: str
    entity_id: str
    limit: int
    query_tokens: list[str]
    w_cos: float
    w_lex: float
    threshold: float | None
    rows_scored: int
    """Rows of the entity the query was scored against."""
    pool_size: int
    candidates: list[CandidateScore]
    note: str = ""
    """Why nothing was scored, when that is the case (blank query, no facts...)."""
    gate: str = ""
    """The gate applied: ``"relevance"``, ``"threshold"``, ``"off"`` or ``"judge"`` (the judge decided; when it
    failed, the gate that decided instead, ``gate_note`` saying why); empty when nothing was scored."""
    gate_opened: bool | None = None
    """Whether the gate let anything through (``None`` when nothing was scored)."""
    best_cosine: float | None = None
    """The best cosine among the ``limit`` best candidates: what the relevance gate opens on."""
    gate_note: str = ""
    """The gate's decision and cutoffs in words."""
    conversation: str | None = None
    """The conversation text read with the query (the query, then the earlier turns newest first), when context
    was given."""
    context_turns: int = 0
    """How many earlier turns that conversation holds."""
    context_weight: float = 0.0
    """How far that conversation moved the search: ``normalise(q + context_weight * c)``; cosines are to it."""
    read_alone: bool = False
    """With a conversation: whether the gate read the query on its own words (a general question, a turn
    telling news, :func:`~memori_core.ranking.conversation.tells_news`, or one asking to be reminded of the
    asker's own thing, :func:`~memori_core.ranking.implications.asks_to_be_reminded`) rather than each fact's larger cosine to
    the query or to the conversation."""
    third_person: float = 0.0
    """What the gate's cosine cutoffs added to the cosine of facts written about "User" (a personal question;
    0: nothing)."""
    past: bool = False
    """Whether the question asks about the user's past (:func:`~memori_core.ranking.past.asks_about_the_past`):
    then the facts no longer valid (superseded or ended, not expired) were ranked too, each with its ``valid_to``."""

    @property
    def facts(self) -> list[RecalledFact]:
        """What ``recall`` returns for the same call."""
        return [c.fact(self.entity_id) for c in self.candidates if c.kept]

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready form."""
        return asdict(self)

    def table(self, width: int = 48) -> str:
        """A readable, fixed-width table of the pool."""
        head = (
            f"query: {self.query!r}  entity: {self.entity_id!r}\n"
            f"tokens: {self.query_tokens}  weights: cos {self.w_cos:.2f} / lex {self.w_lex:.2f}  "
            + (f"threshold: {self.threshold}  " if self.gate in ("", "threshold") else "")
            + f"limit: {self.limit}  "
            f"pool: {self.pool_size} of {self.rows_scored} rows"
        )
        if self.conversation:
            head += (f"\ncontext: {self.context_turns} earlier turn(s) read, weight {self.context_weight:g}: cosines are to "
                     f"normalise(query + {self.context_weight:g} x conversation); the gate reads 'gate cos', "
                     + ("each fact's cosine to the query alone (a general question, a turn telling news, or one asking to "
                        "be reminded of the asker's own thing)"
                        if self.read_alone else
                        "the larger of each fact's cosine to the query alone and to the conversation (to the query "
                        "alone for a fact an earlier turn tells word for word: the model reads that turn anyway)"))
        if self.third_person:
            head += (f"\nthird person: the gate's cosine cutoffs read facts written about 'User' {self.third_person:+g} "
                     "(a first-person question scores them lower than the same facts in the first person); "
                     "'gate cos' shows it, the care and follow-up rules read it without")
        if self.past:
            head += ("\npast: the question asks about the past, so facts no longer valid (superseded or ended, not "
                     "expired) were ranked too; each is marked 'until <when it stopped being true>'")
        if self.gate_note:
            head += f"\ngate: {self.gate_note}"
        if self.note:
            head += f"\n{self.note}"
        if not self.candidates:
            return head
        with_gate = any(c.gate_cosine is not None for c in self.candidates)
        with_affinity = any(c.affinity for c in self.candidates)
        if with_affinity:
            head += ("\naffinity: a personal question's ranking adds the life domains it shares with each fact "
                     "and care facts ('affin', part of 'bonus')")
        cols = (
            f"{'rank':>4}  {'from':<13}  {'cosine':>7}  " + (f"{'gate cos':>8}  " if with_gate else "")
            + f"{'bm25':>7}  {'lex':>5}  {'bonus':>6}  " + (f"{'affin':>6}  " if with_affinity else "")
            + f"{'score':>7}  {'':<15}  {'passed by':<16}  fact"
        )
        ranks = [c.rank for c in self.candidates]
        if ranks != sorted(ranks):  # the rows' order is not the rank's: say which is which
            head += ("\nrows: in recall's order (a core fact it appends is listed last, a fact the question "
                     "implies where recall puts it); 'rank' is each fact's place by score in the pool, not its row")
        lines = [head, cols, "-" * len(cols)]
        for c in self.candidates:
            text = c.content if len(c.content) <= width else c.content[: width - 1] + "…"
            if c.valid_to:
                text = f"[until {c.valid_to[:10]}] {text}"
            gate_col = ""
            if with_gate:
                gate_col = f"{c.gate_cosine:>8.4f}  " if c.gate_cosine is not None else f"{'-':>8}  "
            lines.append(
                f"{c.rank:>4}  {c.source:<13}  {c.cosine:>7.4f}  {gate_col}{c.bm25:>7.3f}  {c.lexical:>5.3f}  "
                f"{c.neighbour_bonus:>6.3f}  " + (f"{c.affinity:>6.3f}  " if with_affinity else "")
                + f"{c.rank_score:>7.4f}  {c.reason:<15}  {c.passed_by:<16}  {text}"
            )
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.table()
