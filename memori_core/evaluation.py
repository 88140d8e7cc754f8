"""Recall quality on LoCoMo-format conversations: the `memori eval locomo` task.

Each conversation becomes one entity; every dialog turn ``"speaker: text"`` is
a fact, added session by session with its session id and the session's date
as ``created_at``; every question with evidence is a query. Rankings are
scored by Recall@5, Recall@10 and nDCG@10 of the evidence turns, per category
and over all questions.
"""

from __future__ import annotations

import json
import math
import re
import sys
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import numpy as np

from .config import RecallConfig
from .dense import l2_normalise, top_k
from .engine import RecallEngine
from .lexical import unique_terms
from .stemming import analyzer
from .store.chroma import ChromaStore

RANKINGS = ("default", "memori_compat", "dense", "bm25", "rrf")
CATEGORY_NAMES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop", 5: "adversarial"}
RRF_K = 60


@dataclass
class Turn:
    dia_id: str
    session: int
    date: datetime | None
    text: str


@dataclass
class Question:
    text: str
    evidence: list[str]
    category: int


@dataclass
class Conversation:
    sample_id: str
    turns: list[Turn]
    questions: list[Question]


def parse_session_date(value: str | None) -> datetime | None:
    """LoCoMo's ``"1:56 pm on 8 May, 2023"`` as a UTC datetime (``None`` when unreadable)."""
    if not value:
        return None
    for fmt in ("%I:%M %p on %d %B, %Y", "%I:%M %p on %d %b, %Y", "%d %B, %Y"):
        try:
            return datetime.strptime(value.strip(), fmt).replace(tzinfo=timezone.utc)
        except ValueError:
            continue
    return None


def load_locomo(path: str | Path) -> list[Conversation]:
    """Read a LoCoMo-format JSON file (a list of conversations with ``conversation`` and ``qa``)."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ValueError(f"no such file: {path}") from None
    except json.JSONDecodeError as exc:
        raise ValueError(f"{path} is not JSON: {exc}") from None
    if not isinstance(data, list):
        raise ValueError(f"{path}: expected a list of conversations, got {type(data).__name__}")
    out = []
    for k, item in enumerate(data):
        if not isinstance(item, dict) or not isinstance(item.get("conversation"), dict):
            raise ValueError(f"{path}: conversation #{k} has no 'conversation' object")
        conv = item["conversation"]
        turns: list[Turn] = []
        n = 1
        while f"session_{n}" in conv or f"session_{n}_date_time" in conv:
            date = parse_session_date(conv.get(f"session_{n}_date_time"))
            for t in conv.get(f"session_{n}") or []:
                if isinstance(t, dict) and t.get("dia_id") and isinstance(t.get("text"), str) and t["text"].strip():
                    turns.append(Turn(str(t["dia_id"]), n, date, f"{t.get('speaker', '')}: {t['text']}"))
            n += 1
        ids = {t.dia_id for t in turns}
        questions = []
        for q in item.get("qa") or []:
            if not isinstance(q, dict):
                continue
            evidence: list[str] = []
            for e in q.get("evidence") or []:
                for part in re.split(r"[;\s]+", str(e)):
                    if part in ids and part not in evidence:
                        evidence.append(part)
            if evidence and isinstance(q.get("question"), str):
                questions.append(Question(q["question"], evidence, int(q.get("category", 0))))
        out.append(Conversation(str(item.get("sample_id", f"conv-{k}")), turns, questions))
    return out


def recall_at(ranked: Sequence[str], evidence: Sequence[str], k: int) -> float:
    """Share of the evidence found in the first ``k`` results."""
    return len(set(ranked[:k]) & set(evidence)) / len(evidence)


def ndcg_at(ranked: Sequence[str], evidence: Sequence[str], k: int) -> float:
    """Binary-relevance nDCG@k."""
    ev = set(evidence)
    dcg = sum(1.0 / math.log2(i + 2) for i, fid in enumerate(ranked[:k]) if fid in ev)
    ideal = sum(1.0 / math.log2(i + 2) for i in range(min(len(ev), k)))
    return dcg / ideal


@dataclass
class Scores:
    """Per-question metric values, grouped by category."""

    by_category: dict[int, list[tuple[float, float, float]]] = field(default_factory=lambda: defaultdict(list))

    def add(self, category: int, ranked: Sequence[str], evidence: Sequence[str]) -> None:
        self.by_category[category].append(
            (recall_at(ranked, evidence, 5), recall_at(ranked, evidence, 10), ndcg_at(ranked, evidence, 10))
        )

    @staticmethod
    def _mean(rows: list[tuple[float, float, float]]) -> dict[str, float]:
        if not rows:
            return {"R@5": 0.0, "R@10": 0.0, "nDCG@10": 0.0, "n": 0}
        a = np.asarray(rows).mean(axis=0)
        return {"R@5": float(a[0]), "R@10": float(a[1]), "nDCG@10": float(a[2]), "n": len(rows)}

    def summary(self) -> dict[str, dict[str, float]]:
        out = {"overall": self._mean([r for rows in self.by_category.values() for r in rows])}
        for cat in sorted(self.by_category):
            out[str(cat)] = self._mean(self.by_category[cat])
        return out


def _rarest_words(question: str, df: dict[str, int], n: int) -> str:
    words = [w for w in re.findall(r"[A-Za-z0-9']+", question)]
    run = analyzer("unicode", None)
    scored = [(df.get(run(w)[0], 0), i, w) for i, w in enumerate(words) if run(w)]
    keep = sorted(scored)[:n]
    return " ".join(w for _, _, w in sorted(keep, key=lambda x: x[1]))


def load_embedder(spec: str | None) -> Any:
    """``None`` / ``"minilm"``: the local all-MiniLM-L6-v2; ``"module:attr"``: an embedder object,
    class or factory imported from a module (called without arguments if it is a class or factory)."""
    if spec in (None, "", "minilm", "all-MiniLM-L6-v2"):
        from .embedders import default_embedder

        return default_embedder()
    if ":" not in spec:
        raise ValueError(f"--embedder must be 'minilm' or 'module:attribute', got {spec!r}")
    import importlib

    module_name, _, attr = spec.partition(":")
    try:
        obj = getattr(importlib.import_module(module_name), attr)
    except (ImportError, AttributeError) as exc:
        raise ValueError(f"cannot load embedder {spec!r}: {exc}") from None
    if isinstance(obj, type) or (callable(obj) and getattr(obj, "__name__", "").startswith(("make_", "build_"))):
        obj = obj()
    return obj


def evaluate_locomo(
    conversations: Iterable[Conversation],
    *,
    embedder: Any = None,
    limit: int = 10,
    config: RecallConfig | None = None,
    short_queries: bool = False,
    progress: Callable[[int, int], None] | None = None,
) -> dict[str, Any]:
    """Run the retrieval task; returns ``{ranking: {"overall": {...}, "1": {...}, ...}}``.

    ``config`` is the default ranking to measure (its threshold is ignored:
    rankings are compared whole). With ``short_queries``, each question is
    also cut to its rarest word and its two rarest words, and the default
    ranking is compared with Memori's on those (keys ``short1`` / ``short2``).
    """
    convs = list(conversations)
    base = (config or RecallConfig()).replace(relevance_threshold=None)
    compat = RecallConfig.memori_compat(relevance_threshold=None)
    scores = {name: Scores() for name in RANKINGS}
    short = {f"{name}@{n}": Scores() for name in ("default", "memori_compat") for n in (1, 2)}
    total = sum(len(c.questions) for c in convs)
    done = 0
    calib: list[tuple[float, float, bool]] = []
    engine = RecallEngine(store=ChromaStore.in_memory(), embedder=embedder, config=base)
    compat_engine = RecallEngine(store=engine.store, embedder=engine.embedder, config=compat)
    bm25_key = (base.tokenizer, base.stemmer)
    for conv in convs:
        entity = f"locomo:{conv.sample_id}"
        for session in sorted({t.session for t in conv.turns}):
            turns = [t for t in conv.turns if t.session == session]
            engine.add(
                entity,
                [t.text for t in turns],
                ids=[t.dia_id for t in turns],
                created_at=[t.date for t in turns],
                session_id=f"session_{session}",
            )
        cache = engine._cache_for(entity)
        row_ids = [f.id if f is not None else "" for f in cache.facts]
        index = cache.index(bm25_key)
        run = analyzer(*bm25_key)
        plain = analyzer("unicode", None)
        df: dict[str, int] = defaultdict(int)
        for t in conv.turns:
            for tok in set(plain(t.text)):
                df[tok] += 1
        for q in conv.questions:
            qv = engine.embedder.embed_query(q.text)
            report = engine.explain(q.text, entity, limit, query_vector=qv)
            top = report.candidates[:limit]
            scores["default"].add(q.category, [c.id for c in top], q.evidence)
            for c in top:
                calib.append((c.rank_score, report.w_cos * c.cosine, c.id in q.evidence))
            got = [f.id for f in compat_engine.recall(q.text, entity, limit, query_vector=qv)]
            scores["memori_compat"].add(q.category, got, q.evidence)
            cos = cache.matrix @ l2_normalise(qv)[0]
            dense = top_k(cos, len(row_ids))
            bm = index.scores(unique_terms(run(q.text)), k1=1.2, b=0.75)
            lexical = top_k(bm, len(row_ids))
            scores["dense"].add(q.category, [row_ids[r] for r in dense[:limit]], q.evidence)
            scores["bm25"].add(q.category, [row_ids[r] for r in lexical[:limit] if bm[r] > 0], q.evidence)
            rrf = np.zeros(len(row_ids))
            rrf[dense] += 1.0 / (RRF_K + np.arange(1, len(dense) + 1))
            matched = lexical[bm[lexical] > 0]  # rows without a query word are not in BM25's list
            rrf[matched] += 1.0 / (RRF_K + np.arange(1, len(matched) + 1))
            scores["rrf"].add(q.category, [row_ids[r] for r in top_k(rrf, limit)], q.evidence)
            if short_queries:
                for n in (1, 2):
                    sq = _rarest_words(q.text, df, n)
                    if not sq:
                        continue
                    sv = engine.embedder.embed_query(sq)
                    for name, eng in (("default", engine), ("memori_compat", compat_engine)):
                        got = [f.id for f in eng.recall(sq, entity, limit, query_vector=sv)]
                        short[f"{name}@{n}"].add(q.category, got, q.evidence)
            done += 1
            if progress is not None:
                progress(done, total)
    result: dict[str, Any] = {name: s.summary() for name, s in scores.items()}
    if short_queries:
        result["short_queries"] = {name: s.summary()["overall"] for name, s in short.items()}
    result["threshold"] = threshold_report(calib, (config or RecallConfig()).relevance_threshold)
    return result


def threshold_report(rows: list[tuple[float, float, bool]], threshold: float | None) -> dict[str, Any]:
    """How a relevance threshold treats the default ranking's top results.

    ``rows`` are ``(score, paraphrase_score, is_evidence)`` for every result in
    the top ``limit``; the paraphrase score is ``w_cos * cosine``: what the fact
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


def format_table(result: dict[str, Any]) -> str:
    """Markdown table: one row per ranking, R@5 / R@10 / nDCG@10 overall and per category."""
    cats = sorted({k for name in RANKINGS for k in result[name] if k != "overall"}, key=int)
    head = ["ranking", "R@5", "R@10", "nDCG@10"] + [f"R@10 c{c} ({CATEGORY_NAMES.get(int(c), '?')})" for c in cats]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for name in RANKINGS:
        r = result[name]
        row = [name, f"{r['overall']['R@5']:.3f}", f"{r['overall']['R@10']:.3f}", f"{r['overall']['nDCG@10']:.3f}"]
        row += [f"{r[c]['R@10']:.3f}" for c in cats]
        lines.append("| " + " | ".join(row) + " |")
    n = result["default"]["overall"]["n"]
    lines.append(f"\n{n} questions; categories: " + ", ".join(f"{c} = {CATEGORY_NAMES.get(int(c), '?')} (n={result['default'][c]['n']})" for c in cats))
    th = result.get("threshold") or {}
    if "evidence_kept" in th:
        lines.append(
            f"\nthreshold {th['threshold']}: keeps {th['evidence_kept']:.1%} of the evidence in the top results "
            f"({th['evidence_kept_paraphrased']:.1%} if paraphrased with none of its words), removes "
            f"{th.get('non_evidence_removed', 0.0):.1%} of the rest; precision of what it keeps "
            f"{th['precision_of_kept']:.3f}. Largest threshold keeping >= 95% both ways: {th['calibrated']:.3f}"
        )
    if "short_queries" in result:
        sq = result["short_queries"]
        lines.append("\nshort queries (the question's rarest 1 / 2 words), R@10:")
        lines.append("| ranking | 1 word | 2 words |\n|---|---|---|")
        for name in ("default", "memori_compat"):
            lines.append(f"| {name} | {sq[f'{name}@1']['R@10']:.3f} | {sq[f'{name}@2']['R@10']:.3f} |")
    return "\n".join(lines)


def progress_bar(done: int, total: int) -> None:
    """A one-line progress bar on stderr (redrawn at each whole percent)."""
    if done != total and (100 * done) // max(total, 1) == (100 * (done - 1)) // max(total, 1):
        return
    width = 40
    filled = int(width * done / max(total, 1))
    sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} questions")
    if done == total:
        sys.stderr.write("\n")
    sys.stderr.flush()
