"""Run an evaluation through the public API: add every memory once, ask every query of each ranking and gate."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..config import RecallConfig
from ..embedders import default_embedder
from ..engine import RecallEngine
from ..explain import RecallReport
from ..facts import RecalledFact
from ..store.chroma import ChromaStore
from ..validate import iso_to_ts, to_iso_utc
from .configs import GATES, RANKINGS, baseline_configs, describe_gate, gate_configs
from .data import Memory, Query, count, session_runs
from .embedding import CachingEmbedder
from .metrics import Injection, Scores, category_order, reciprocal_rank_fusion, threshold_report
from .short_queries import document_frequency, rarest_words

RANKING_DEPTH = 10
"""Results per query for the ranking metrics (R@5, R@10, nDCG@10)."""
RRF_DEPTH = 100
"""Length of the dense and BM25 lists fused by RRF."""
RRF_K = 60
SHORT_CUTS = (1, 2)
"""Short-query lengths (rarest words kept)."""
UPDATE_CATEGORIES = ("knowledge-update",)
"""Categories whose questions ask for the current value of something told more than once (LongMemEval's):
their newest evidence should rank above the older (``updates`` in the result)."""
UPDATE_RANKINGS = ("default", "memori_compat")

Progress = Callable[[int, int, str], None]
"""``progress(done, total, what)``; ``what`` is ``"embedding facts of <memory> (i/n)"`` (one memory after
another) or ``"questions"``."""


class EnginePool:
    """One :class:`RecallEngine` per distinct config, all over one in-memory store and one caching embedder."""

    def __init__(self, embedder: CachingEmbedder) -> None:
        self.store = ChromaStore.in_memory()
        self.embedder = embedder
        self._engines: dict[RecallConfig, RecallEngine] = {}

    def engine(self, config: RecallConfig) -> RecallEngine:
        """The engine of ``config`` (created on first use)."""
        if config not in self._engines:
            self._engines[config] = RecallEngine(store=self.store, embedder=self.embedder, config=config)
        return self._engines[config]


def add_memory(engine: RecallEngine, memory: Memory) -> None:
    """Add a memory's facts in order, one ``add`` per session run, with ids, dates, sessions and metadata."""
    for run in session_runs(memory.facts):
        engine.add(
            memory.entity_id,
            [f.text for f in run],
            ids=[f.id for f in run],
            created_at=[f.created_at for f in run],
            metadata=[f.metadata or None for f in run],
            session_id=run[0].session_id,
        )


def _ids(facts: Iterable[RecalledFact]) -> list[str]:
    return [f.id for f in facts]


def rank(
    engines: Mapping[str, RecallEngine], entity_id: str, text: str, vector: Any
) -> tuple[dict[str, list[str]], RecallReport]:
    """Each ranking's top ``RANKING_DEPTH`` ids for one query, and the default ranking's explain report.

    RRF fuses the dense and BM25 lists (``RRF_DEPTH`` long); facts without a
    query word (lexical 0) are not in BM25's list.
    """
    report = engines["default"].explain(text, entity_id, RANKING_DEPTH, query_vector=vector)
    dense = _ids(engines["dense"].recall(text, entity_id, RRF_DEPTH, query_vector=vector))
    bm25 = [f.id for f in engines["bm25"].recall(text, entity_id, RRF_DEPTH, query_vector=vector) if f.lexical > 0]
    compat = engines["memori_compat"].recall(text, entity_id, RANKING_DEPTH, query_vector=vector)
    lists = {
        "default": [c.id for c in report.candidates if c.kept],
        "memori_compat": _ids(compat),
        "dense": dense[:RANKING_DEPTH],
        "bm25": bm25[:RANKING_DEPTH],
        "rrf": reciprocal_rank_fusion([dense, bm25], RRF_K)[:RANKING_DEPTH],
    }
    return lists, report


def calibration_rows(report: RecallReport, evidence: Iterable[str]) -> list[tuple[float, float, bool]]:
    """``(rank score, w_cos * cosine, is evidence)`` of the report's top ``RANKING_DEPTH`` candidates."""
    ev = set(evidence)
    return [(c.rank_score, report.w_cos * c.cosine, c.id in ev) for c in report.candidates[:RANKING_DEPTH]]


@dataclass
class Tally:
    """Everything measured so far."""

    gates: dict[str, Injection]
    rankings: dict[str, Scores] = field(default_factory=lambda: {name: Scores() for name in RANKINGS})
    short: dict[str, Scores] = field(default_factory=dict)
    calibration: list[tuple[float, float, bool]] = field(default_factory=list)
    updates: dict[str, list[bool]] = field(default_factory=lambda: {name: [] for name in UPDATE_RANKINGS})
    """Per ranking, per update question: whether its newest evidence ranked above every older one."""


def newest_first(ranked: list[str], evidence: Iterable[str], said: Mapping[str, float | None]) -> bool | None:
    """Whether the newest of ``evidence`` (by ``said``: id -> epoch seconds) is in ``ranked`` above every older
    piece of evidence; ``None`` when the evidence was not said at two different times."""
    times = {e: said.get(e) for e in evidence}
    if any(t is None for t in times.values()) or len(set(times.values())) < 2:
        return None
    newest = max(times, key=lambda e: times[e])
    if newest not in ranked:
        return False
    older = [ranked.index(e) for e in times if times[e] < times[newest] and e in ranked]
    return all(ranked.index(newest) < i for i in older)


@dataclass
class Evaluation:
    """The engines of one run and how a query is put to them."""

    pool: EnginePool
    rankers: dict[str, RecallEngine]
    gates: dict[str, RecallEngine]
    limit: int
    said: dict[str, float | None] = field(default_factory=dict)
    """Each update question's evidence facts' times (epoch seconds; ``None``: not given)."""

    def ask(self, memory: Memory, query: Query, df: Counter[str] | None, tally: Tally) -> None:
        """Put one query to every gate and, when it is answerable, to every ranking."""
        vector = self.pool.embedder.embed_query(query.text)
        for name, engine in self.gates.items():
            returned = engine.recall(query.text, memory.entity_id, self.limit, query_vector=vector)
            tally.gates[name].add(query, _ids(returned))
        if query.abstention:
            return
        lists, report = rank(self.rankers, memory.entity_id, query.text, vector)
        for name, ranked in lists.items():
            tally.rankings[name].add(query.category, ranked, query.evidence)
        if query.category in UPDATE_CATEGORIES:
            for name in UPDATE_RANKINGS:
                verdict = newest_first(lists[name], query.evidence, self.said)
                if verdict is not None:
                    tally.updates[name].append(verdict)
        tally.calibration.extend(calibration_rows(report, query.evidence))
        if df is not None:
            self.ask_short(memory, query, df, tally)

    def ask_short(self, memory: Memory, query: Query, df: Counter[str], tally: Tally) -> None:
        """The default and Memori rankings on the question cut to its 1 and 2 rarest words."""
        for n in SHORT_CUTS:
            text = rarest_words(query.text, df, n)
            if not text:
                continue
            vector = self.pool.embedder.embed_query(text)
            for name in ("default", "memori_compat"):
                got = self.rankers[name].recall(text, memory.entity_id, RANKING_DEPTH, query_vector=vector)
                tally.short.setdefault(f"{name}@{n}", Scores()).add(query.category, _ids(got), query.evidence)


def _load(memories: list[Memory], pool: EnginePool, engine: RecallEngine, progress: Progress | None) -> None:
    """Embed every fact once, memory by memory (batched; progress per memory), then add them through ``engine``."""
    for i, memory in enumerate(memories, 1):
        what = f"embedding facts of {memory.entity_id} ({i}/{len(memories)})"
        report = None if progress is None else (lambda done, total, what=what: progress(done, total, what))
        pool.embedder.warm([f.text for f in memory.facts], progress=report)
    for memory in memories:
        add_memory(engine, memory)


def evaluate(
    memories: Iterable[Memory],
    *,
    embedder: Any = None,
    config: RecallConfig | None = None,
    limit: int = 5,
    short_queries: bool = False,
    category_labels: Mapping[str, str] | None = None,
    progress: Progress | None = None,
) -> dict[str, Any]:
    """Measure rankings and gates on ``memories``; returns the metrics dict.

    ``config`` is the shipped config under test (default :class:`RecallConfig`).
    ``rankings``: R@5 / R@10 / nDCG@10 of each of :data:`RANKINGS` (threshold
    off), overall and per category, over answerable queries. ``injection``: for
    each of :data:`GATES`, what ``recall(limit)`` returns (hit@k, R@1, facts per
    answerable query, clean abstentions, facts per abstention query).
    ``threshold``: how ``config``'s threshold treats the default ranking's top
    10. With ``short_queries``, ``short_queries`` holds the default and Memori
    rankings on questions cut to their 1 / 2 rarest words (keys ``default@1``...).
    """
    memories = list(memories)
    default = config if config is not None else RecallConfig()
    pool = EnginePool(CachingEmbedder(embedder if embedder is not None else default_embedder()))
    gates = gate_configs(default)
    run = Evaluation(
        pool=pool,
        rankers={name: pool.engine(cfg) for name, cfg in baseline_configs(default).items()},
        gates={name: pool.engine(cfg) for name, cfg in gates.items()},
        limit=limit,
    )
    _load(memories, pool, run.rankers["default"], progress)
    evidence = {e for m in memories for q in m.queries if q.category in UPDATE_CATEGORIES for e in q.evidence}
    run.said.update({f.id: iso_to_ts(to_iso_utc(f.created_at)) if f.created_at is not None else None
                     for m in memories for f in m.facts if f.id in evidence})
    tally = Tally(gates={name: Injection(limit, None if cfg.gate == "off" else cfg.relevance_threshold) for name, cfg in gates.items()})
    total = sum(len(m.queries) for m in memories)
    done = 0
    for memory in memories:
        df = document_frequency(f.text for f in memory.facts) if short_queries else None
        for query in memory.queries:
            run.ask(memory, query, df, tally)
            done += 1
            if progress is not None:
                progress(done, total, "questions")
    return _result(memories, pool, tally, default, limit, category_labels or {}, short_queries)


def _result(memories: list[Memory], pool: EnginePool, tally: Tally, default: RecallConfig, limit: int,
            labels: Mapping[str, str], short_queries: bool) -> dict[str, Any]:
    categories = category_order({q.category for m in memories for q in m.answerable})
    result: dict[str, Any] = {
        "embedder": pool.embedder.name,
        "limit": limit,
        "counts": count(memories),
        "category_labels": {c: labels.get(c, c) for c in categories},
        "rankings": {name: tally.rankings[name].summary() for name in RANKINGS},
        "injection": {name: tally.gates[name].summary() for name in GATES},
        "gates": {name: describe_gate(cfg) for name, cfg in gate_configs(default).items()},
        "threshold": threshold_report(tally.calibration, default.relevance_threshold),
    }
    if tally.updates["default"]:
        result["updates"] = {name: {"questions": len(v), "newest_first": sum(v)} for name, v in tally.updates.items()}
    if short_queries:
        result["short_queries"] = {f"{name}@{n}": tally.short.get(f"{name}@{n}", Scores()).summary()["overall"]
                                   for name in ("default", "memori_compat") for n in SHORT_CUTS}
    return result

