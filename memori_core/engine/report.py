"""What ``explain`` reports of a recall's scores: each pool candidate's score parts and fate (the gate's, or the
judge's when it chose), the core facts recall appends, the repeats it leaves out, and the gate's note."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from ..config import RecallConfig
from ..explain import CandidateScore, RecallReport
from ..ranking.judged import JUDGE_RULE, JUDGED_RELEVANT, judged_fates
from ..ranking.own_first import own_first
from ..ranking.pipeline import KEPT, REPEATED, PoolScores, fates_with_rules, first_of_each_text, source_label
from .core_rows import _with_core
from .judging import _Judgement
from .scored import _fact, _Scored


def _report(
    query: str, entity_id: str, limit: int, scored: _Scored, judged: _Judgement | None, cfg: RecallConfig,
    conversation: str | None, turns_read: int, read: Sequence[str] = (), context_weight: float = 0.0,
) -> RecallReport:
    """``explain``'s report of ``scored`` (``judged``: the judge's verdict, ``None`` without a judge;
    ``context_weight``: how far the conversation moved the search)."""
    s = scored.scores
    order, fate, rules, gate = fates_with_rules(s, limit, cfg)
    gate_kind, gate_opened, gate_note = gate.kind, gate.opened, gate.note
    if judged is not None and judged.relevant is not None:
        order, fate = judged_fates(s, judged.seen, judged.relevant, limit)
        rules = [JUDGE_RULE if f == JUDGED_RELEVANT else "" for f in fate]
        kept_n = fate.count(JUDGED_RELEVANT)
        gate_kind, gate_opened = "judge", kept_n > 0
        gate_note = (f"judge: {len(judged.relevant)} of the {len(judged.seen)} best candidates judged relevant, "
                     f"{kept_n} kept (limit {limit}); without the judge, {gate.note}")
    elif judged is not None:
        gate_note = (f"judge failed on the {len(judged.seen)} best candidates ({judged.failure}); fell back to "
                     f"the {gate.kind} gate: {gate.note}")
    candidates = []
    for rank, (i, reason, rule) in enumerate(zip(order.tolist(), fate, rules), start=1):
        candidates.append(CandidateScore.of(
            _fact(scored, i), rank=rank, bm25=float(s.bm25[i]), kept=reason in (KEPT, JUDGED_RELEVANT),
            reason=reason, source=source_label(int(s.source[i])), fused=float(s.fused[i]),
            neighbour_bonus=float(s.bonus[i]), gate_cosine=_gate_read(s, i),
            affinity=0.0 if s.affinity is None else float(s.affinity[i]), passed_by=rule,
        ))
    if gate_kind == "relevance":
        candidates = _own_first(query, candidates, read)
    candidates = _with_core(scored, order, fate, candidates, cfg.core_limit)
    if cfg.one_per_text:
        candidates = _without_repeats(candidates)
    return RecallReport(
        query, entity_id, limit, s.query_tokens, s.w_cos, s.w_lex,
        cfg.relevance_threshold, scored.rows_scored, len(order), candidates,
        gate=gate_kind, gate_opened=gate_opened, best_cosine=gate.best_cosine, gate_note=gate_note,
        conversation=conversation, context_turns=turns_read,
        context_weight=context_weight if conversation else 0.0,
        read_alone=scored.read_alone,
        third_person=0.0 if s.lift is None else float(cfg.gate_third_person or 0.0),
        past=scored.past,
    )


def _own_first(query: str, candidates: list[CandidateScore], read: Sequence[str]) -> list[CandidateScore]:
    """``explain``'s candidates with the kept ones reordered among their places as recall orders them
    (:func:`~memori_core.ranking.own_first.own_first`: the asker's own facts first on a question about themselves)."""
    kept = [k for k, c in enumerate(candidates) if c.kept]
    order = own_first(query, [candidates[k].content for k in kept], read)
    if order is None:
        return candidates
    out = list(candidates)
    for k, j in zip(kept, order.tolist()):
        out[k] = candidates[kept[j]]
    return out


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
            out[k] = replace(out[k], kept=False, reason=REPEATED, passed_by="")
    return out


def _gate_read(s: PoolScores, i: int) -> float | None:
    """The cosine the gate's cutoffs read for pool row ``i``: its gate cosine (with context) plus its
    third-person lift; ``None`` when that is the plain cosine."""
    if s.gate_cosine is None and s.lift is None:
        return None
    base = float(s.cosine[i] if s.gate_cosine is None else s.gate_cosine[i])
    return base + (0.0 if s.lift is None else float(s.lift[i]))
