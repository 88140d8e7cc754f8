"""Does a small calibrated combiner beat the relevance gate? (issue 20, item 2)

Two steps, both offline with all-MiniLM-L6-v2:

``dump``  runs the four development sets through the real engine and writes, per query, the 10 best
          candidates with the gate off (``engine.explain(query, entity, 5, context=...)``, at the limit
          recall uses, since the pool is sized by it: cosine, gate cosine, BM25, lexical, rank score,
          source, rank), per-candidate extras (cosine to the question alone and to the conversation, care
          fact, length) and per-query features (pool size, memory size, query tokens, personal,
          general-shape margin, care share, names known, context used), plus what the shipped gate
          (``RecallConfig(gate_implied=False)``: the study decides over the limit best, and the implications
          signal ranks care facts in from further down) injects for that query, from ``recall``;
``study`` fits combiners (logistic regressions over a few standardised features, L2, numpy only: per
          candidate, feature sets A-D, or a query-level "needs a fact" model times a per-candidate
          one, E) on some sets and tests them on the others (every pair; each set held out from the
          other three; all four), keeps a fact of the ``limit`` (5) best when its probability reaches
          ``t``, exactly as the engine selects, and prints each set's ``memori eval`` metrics at the
          chosen ``t`` and over a sweep of ``t``, next to the shipped gate's point. A point counts as
          admissible (:func:`admissible`) when it is as clean as the shipped gate on app memory, meets
          PrefEval's clean >= 0.50 and <= 1.0 facts per abstention, has no more facts per abstention on
          LongMemEval and stays within 0.005 of no gate on LoCoMo.

    PYTHONPATH=. python benchmarks/gate_combiner_study.py dump --out /tmp/combiner.json.gz \\
        --app evals/app_memory/dev.json --prefeval ../shared/data/prefeval/dev.json \\
        --memory ../shared/data/longmemeval/dev.json --locomo ../shared/data/locomo/dev.json \\
        [--cache /tmp/emb.pkl]
    python benchmarks/gate_combiner_study.py study /tmp/combiner.json.gz

The study imports nothing from memori_core (numpy and the standard library only); the dump uses the
public engine and the evaluation loaders. The conclusion is in docs/ranking.md, section 5.
"""

from __future__ import annotations

import argparse
import gzip
import itertools
import json
import os
import pickle
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

LIMIT = 5
DEPTH = 10
SETS = ("app", "prefeval", "memory", "locomo")


# ---------------------------------------------------------------------------------------------------------
# dump


class _CachedEmbedder:
    """MiniLM with a pickle cache of document and query vectors (text -> vector), so a re-run embeds nothing."""

    def __init__(self, path: str | None) -> None:
        from memori_core.embedders import as_embedder, default_embedder

        self.inner = as_embedder(default_embedder())
        self.name = self.inner.name
        self.path = path
        self.docs: dict[str, np.ndarray] = {}
        self.queries: dict[str, np.ndarray] = {}
        if path and os.path.exists(path):
            with open(path, "rb") as fh:
                self.docs, self.queries = pickle.load(fh)

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        missing = list(dict.fromkeys(t for t in texts if t not in self.docs))
        for start in range(0, len(missing), 64):
            batch = missing[start:start + 64]
            self.docs.update(zip(batch, self.inner.embed_documents(batch)))
        if not texts:
            return np.zeros((0, 384), np.float32)
        return np.stack([np.asarray(self.docs[t], dtype=np.float32) for t in texts])

    def embed_query(self, text: str) -> np.ndarray:
        if text not in self.queries:
            self.queries[text] = self.inner.embed_query(text)
        return np.asarray(self.queries[text], dtype=np.float32)

    def save(self) -> None:
        if self.path:
            with open(self.path, "wb") as fh:
                pickle.dump((self.docs, self.queries), fh)


def _unit(v: np.ndarray) -> np.ndarray:
    v = np.asarray(v, dtype=np.float64)
    return v / max(float(np.linalg.norm(v)), 1e-12)


@dataclass
class _Item:
    entity: str
    query: str
    context: list[str]
    needs: list[str]
    abstention: bool
    kind: str


def _dump_set(name: str, add: Any, items: Iterable[_Item], emb: _CachedEmbedder) -> list[dict[str, Any]]:
    """Every item asked of a gate-off engine (explain) and of the shipped gate (recall), over one store."""
    from memori_core import RecallConfig, RecallEngine
    from memori_core.ranking.care import care_share, is_care_fact, is_personal
    from memori_core.ranking.care import prototype_texts as domain_texts
    from memori_core.ranking.intent import general_margin, names_known
    from memori_core.ranking.intent import prototype_texts as intent_texts
    from memori_core.store.in_memory import InMemoryFactStore

    store = InMemoryFactStore()
    off = RecallEngine(store, embedder=emb, config=RecallConfig(gate="off"))
    # The study decides over the limit best of the gate-off ranking; the implications signal ranks care facts
    # in from further down, so it is left out of what the study reproduces.
    shipped = RecallEngine(store, embedder=emb, config=RecallConfig(gate_implied=False))
    add(off)
    domains, starts = domain_texts()
    intents, advice = intent_texts()
    dom = np.stack([_unit(v) for v in emb.embed_documents(list(domains))])
    intent = np.stack([_unit(v) for v in emb.embed_documents(list(intents))])
    sizes: dict[str, int] = {}
    rows = []
    for it in items:
        ctx = it.context or None
        # At the limit recall uses: the pool is sized by it (the first DEPTH of its order are kept).
        rep = off.explain(it.query, it.entity, LIMIT, context=ctx)
        kept = [f.id for f in shipped.recall(it.query, it.entity, LIMIT, context=ctx)]
        question = _unit(emb.embed_query(it.query))
        conv = _unit(emb.embed_query(rep.conversation)) if rep.conversation else None
        if it.entity not in sizes:
            sizes[it.entity] = off.count(it.entity)
        cands = []
        for c in rep.candidates[:DEPTH]:
            vec = _unit(emb.embed_documents([c.content])[0])
            cands.append({
                "id": c.id, "rank": c.rank, "cos": c.cosine, "gcos": c.gate_cosine, "bm25": c.bm25,
                "lex": c.lexical, "score": c.rank_score, "source": c.source, "len": len(c.content),
                "qcos": float(vec @ question), "ccos": None if conv is None else float(vec @ conv),
                "care": is_care_fact(c.content),
            })
        rows.append({
            "set": name, "entity": it.entity, "q": it.query, "ctx": it.context, "needs": it.needs,
            "abst": it.abstention, "kind": it.kind, "conv": rep.conversation is not None,
            "ntok": len(rep.query_tokens), "pool": rep.pool_size, "memory": sizes[it.entity],
            "personal": is_personal(it.query), "margin": general_margin(question, intent, advice),
            "care_share": care_share(question, dom, starts),
            "names": names_known(it.query, (c.content for c in rep.candidates)),
            "shipped": kept, "cands": cands,
        })
    return rows


def app_rows(users: Sequence[Any], emb: Any) -> list[dict[str, Any]]:
    """The dump of app-memory ``users`` (each turn asked with the earlier turns of its dialogue, no core
    facts: as ``memori eval app`` does by default), with any embedder."""
    from memori_core.evaluation.app_memory import add_user

    items = [_Item(u.user, t.text, [x.text for x in d.turns[:i]], list(t.needs), t.offtopic, t.kind)
             for u in users for d in u.dialogues for i, t in enumerate(d.turns)]
    return _dump_set("app", lambda e: [add_user(e, u, core=False) for u in users], items, emb)


def dump(args: argparse.Namespace) -> None:
    """Write the feature file (see the module docstring)."""
    from memori_core.evaluation.app_memory import load_app_memory
    from memori_core.evaluation.locomo import conversation_memory, load_locomo
    from memori_core.evaluation.longmemeval import load_memory
    from memori_core.evaluation.prefeval import load_prefeval
    from memori_core.evaluation.runner import add_memory

    emb = _CachedEmbedder(args.cache)
    rows: list[dict[str, Any]] = []
    if args.app:
        rows += app_rows(load_app_memory(args.app).users, emb)
    for name, path, load in (("prefeval", args.prefeval, load_prefeval), ("memory", args.memory, load_memory),
                             ("locomo", args.locomo, None)):
        if not path:
            continue
        mems = ([conversation_memory(c) for c in load_locomo(path)] if load is None else load(path))
        items = [_Item(m.entity_id, q.text, [], list(q.evidence), q.abstention, str(q.category))
                 for m in mems for q in m.queries]
        rows += _dump_set(name, lambda e, mems=mems: [add_memory(e, m) for m in mems], items, emb)
        print(name, "done", file=sys.stderr)
    emb.save()
    with gzip.open(args.out, "wt", encoding="utf-8") as fh:
        json.dump(rows, fh)
    print(len(rows), "queries ->", args.out)


# ---------------------------------------------------------------------------------------------------------
# study: the candidates, the metrics, the combiners


@dataclass
class Candidates:
    """The ``LIMIT`` best candidates of every query of one set, flattened (rank order within a query)."""

    name: str
    rows: list[dict[str, Any]]
    query: np.ndarray  # per candidate, its query's index
    label: np.ndarray  # per candidate, a needed / evidence fact
    feats: dict[str, np.ndarray]  # per candidate, every raw feature (query-level ones repeated)
    ids: list[list[str]]  # per query, the candidates' ids (rank order)
    shipped: np.ndarray  # per candidate, kept by the shipped gate


def gate_cos(c: dict[str, Any]) -> float:
    """What the relevance gate reads: the larger of the cosines to the question and the conversation."""
    return float(max(c["qcos"], c["ccos"])) if c["ccos"] is not None else float(c["cos"])


def candidates(name: str, rows: list[dict[str, Any]]) -> Candidates:
    """The flattened top-``LIMIT`` candidates of ``rows`` with their raw features:

    per candidate ``g`` (gate cosine), ``lex`` (normalised BM25), ``bm25`` (log1p raw BM25), ``rank``,
    ``ratio`` (rank score / the best), ``gap`` (best g - g), ``care`` (a care fact x the question's food and
    health share, when personal or in a conversation), ``length`` (log characters); per query ``best``
    (best g), ``second`` (best - second best g), ``qlex`` / ``qbm25`` / ``qcare`` (their maxima),
    ``personal``, ``margin`` (general-shape margin of an impersonal question naming no one the memory
    holds, else -0.2), ``conv`` (read with its conversation), ``memory`` / ``pool`` (log sizes), ``ntok``."""
    names = ("g", "lex", "bm25", "rank", "ratio", "gap", "care", "length", "best", "second", "qlex", "qbm25",
             "qcare", "personal", "margin", "conv", "memory", "pool", "ntok")
    f: dict[str, list[float]] = {k: [] for k in names}
    query, label, ids, shipped = [], [], [], []
    for qi, r in enumerate(rows):
        top = r["cands"][:LIMIT]
        ids.append([c["id"] for c in top])
        if not top:
            continue
        g = np.array([gate_cos(c) for c in top])
        best = float(g.max())
        second = float(np.sort(g)[-2]) if g.size > 1 else 0.0
        top_score = max(c["score"] for c in top)
        needs, kept = set(r["needs"]), set(r["shipped"])
        care = [float(c["care"]) * r["care_share"] * float(r["personal"] or r["conv"]) for c in top]
        lex = [c["lex"] for c in top]
        bm25 = [float(np.log1p(c["bm25"])) for c in top]
        per_query = {"best": best, "second": best - second, "qlex": max(lex), "qbm25": max(bm25),
                     "qcare": max(care), "personal": float(r["personal"]),
                     "margin": r["margin"] if not (r["personal"] or r["names"]) else -0.2,
                     "conv": float(r["conv"]), "memory": float(np.log(r["memory"])),
                     "pool": float(np.log(r["pool"])), "ntok": float(np.log1p(r["ntok"]))}
        for j, (c, gi) in enumerate(zip(top, g)):
            query.append(qi)
            label.append(c["id"] in needs)
            shipped.append(c["id"] in kept)
            per = {"g": gi, "lex": lex[j], "bm25": bm25[j], "rank": c["rank"],
                   "ratio": c["score"] / top_score if top_score > 0 else 0.0, "gap": best - gi, "care": care[j],
                   "length": float(np.log(c["len"]))}
            for k in names:
                f[k].append(per[k] if k in per else per_query[k])
    return Candidates(name, rows, np.asarray(query, dtype=np.intp), np.asarray(label, dtype=bool),
                      {k: np.asarray(v, dtype=np.float64) for k, v in f.items()}, ids,
                      np.asarray(shipped, dtype=bool))


def metrics(c: Candidates, keep: np.ndarray | None) -> dict[str, float]:
    """What ``memori eval`` reports for the set when the candidates ``keep`` marks are injected
    (``None``: all ``LIMIT`` best, the gate off)."""
    kept: list[set[str]] = [set() for _ in c.rows]
    flat = [i for ids in c.ids for i in ids]
    mask = np.ones(len(flat), dtype=bool) if keep is None else keep
    for qi, fid, k in zip(c.query.tolist(), flat, mask.tolist()):
        if k:
            kept[qi].add(fid)
    return _scores(c, kept)


def shipped_metrics(c: Candidates) -> dict[str, float]:
    """The metrics of what the shipped gate injected (``recall`` with ``RecallConfig(gate_implied=False)``, from
    the dump)."""
    return _scores(c, [set(r["shipped"]) for r in c.rows])


def _scores(c: Candidates, kept: list[set[str]]) -> dict[str, float]:
    hit, all_hit, follow, clean, sizes = [], [], [], [], []
    for r, k in zip(c.rows, kept):
        if r["abst"]:
            clean.append(not k)
            sizes.append(len(k))
            continue
        needs = set(r["needs"])
        hit.append(bool(needs & k))
        all_hit.append(needs <= k)
        if r["kind"] == "followup":
            follow.append(bool(needs & k))
    out = {"hit": float(np.mean(hit))}
    if c.name == "app":
        out.update(all=float(np.mean(all_hit)), follow=float(np.mean(follow)))
    if clean:
        out.update(clean=float(np.mean(clean)), fpa=float(np.mean(sizes)))
    return out


def fmt(name: str, m: dict[str, float]) -> str:
    """One set's metrics in the order ``memori eval`` prints them."""
    if name == "app":
        return f"{m['hit']:.3f}/{m['all']:.3f}/{m['follow']:.3f}/{m['clean']:.3f}"
    if name == "prefeval":
        return f"{m['hit']:.3f}/{m['clean']:.3f}/{m['fpa']:.2f}"
    if name == "memory":
        return f"{m['hit']:.3f}/{m['fpa']:.2f}"
    return f"{m['hit']:.3f}"


HEADS = {"app": "app needed/all/follow/clean", "prefeval": "PrefEval hit/clean/fpa", "memory": "LME hit/fpa",
         "locomo": "LoCoMo hit"}

Base = dict[str, tuple[dict[str, float], dict[str, float]]]
"""Per set, the shipped gate's metrics and the no-gate metrics."""


def fit_logistic(x: np.ndarray, y: np.ndarray, w: np.ndarray, l2: float = 1.0, steps: int = 50) -> np.ndarray:
    """Weighted L2 logistic regression by Newton's method (``x`` standardised, an intercept column first,
    which is not penalised). Returns the coefficients."""
    d = x.shape[1]
    beta = np.zeros(d)
    pen = np.full(d, l2)
    pen[0] = 0.0
    for _ in range(steps):
        p = 1.0 / (1.0 + np.exp(-(x @ beta)))
        grad = x.T @ (w * (p - y)) + pen * beta
        hess = (x * (w * p * (1 - p))[:, None]).T @ x + np.diag(pen + 1e-9)
        step = np.linalg.solve(hess, grad)
        beta -= step
        if float(np.abs(step).max()) < 1e-8:
            break
    return beta


@dataclass
class Logistic:
    """One fitted logistic model: feature names, the training mean and scale, coefficients (intercept first)."""

    features: tuple[str, ...]
    mean: np.ndarray
    scale: np.ndarray
    beta: np.ndarray

    @classmethod
    def fit(cls, x: np.ndarray, y: np.ndarray, w: np.ndarray, features: Sequence[str], l2: float) -> Logistic:
        w = w * (w.shape[0] / w.sum())
        mean, scale = x.mean(axis=0), x.std(axis=0) + 1e-9
        xs = np.concatenate([np.ones((x.shape[0], 1)), (x - mean) / scale], axis=1)
        return cls(tuple(features), mean, scale, fit_logistic(xs, y, w, l2))

    def prob(self, x: np.ndarray) -> np.ndarray:
        return 1.0 / (1.0 + np.exp(-(self.beta[0] + ((x - self.mean) / self.scale) @ self.beta[1:])))


def _matrix(c: Candidates, features: Sequence[str], rows: np.ndarray | None = None) -> np.ndarray:
    x = np.stack([c.feats[f] for f in features], axis=1)
    return x if rows is None else x[rows]


def _weights(n: int) -> np.ndarray:
    """Each training set weighs the same in total (LoCoMo's thousand questions do not drown the rest)."""
    return np.full(n, 1.0 / max(n, 1))


class Combiner:
    """Per candidate, one probability; a fact of the ``LIMIT`` best is kept when it reaches the threshold."""

    name: str

    def prob(self, c: Candidates) -> np.ndarray:
        raise NotImplementedError


class PerCandidate(Combiner):
    """P(needed | the candidate's and its query's features): one logistic regression over candidates."""

    def __init__(self, train: Sequence[Candidates], features: Sequence[str], l2: float = 1.0) -> None:
        x = np.concatenate([_matrix(c, features) for c in train])
        y = np.concatenate([c.label for c in train]).astype(np.float64)
        w = np.concatenate([_weights(c.label.shape[0]) for c in train])
        self.model = Logistic.fit(x, y, w, features, l2)

    def prob(self, c: Candidates) -> np.ndarray:
        return self.model.prob(_matrix(c, self.model.features))


QUERY_FEATURES = ("best", "second", "qlex", "qbm25", "qcare", "personal", "margin", "conv")
CANDIDATE_FEATURES = ("g", "lex", "bm25", "rank", "ratio", "gap", "care")


class TwoStage(Combiner):
    """P(the query needs one of its ``LIMIT`` best | query features) x P(needed | candidate features, the
    query needs one): the abstention decision is the query's, as in the shipped gate's open/keep."""

    def __init__(self, train: Sequence[Candidates], l2: float = 1.0) -> None:
        xq, yq, wq, xc, yc, wc = [], [], [], [], [], []
        for c in train:
            first = np.r_[True, c.query[1:] != c.query[:-1]]
            needs = np.zeros(len(c.rows))
            np.maximum.at(needs, c.query, c.label.astype(np.float64))
            xq.append(_matrix(c, QUERY_FEATURES, first))
            yq.append(needs[c.query[first]])
            wq.append(_weights(int(first.sum())))
            opened = needs[c.query] > 0
            xc.append(_matrix(c, CANDIDATE_FEATURES, opened))
            yc.append(c.label[opened].astype(np.float64))
            wc.append(_weights(int(opened.sum())))
        cat = np.concatenate
        self.open = Logistic.fit(cat(xq), cat(yq), cat(wq), QUERY_FEATURES, l2)
        self.keep = Logistic.fit(cat(xc), cat(yc), cat(wc), CANDIDATE_FEATURES, l2)

    def prob(self, c: Candidates) -> np.ndarray:
        return self.open.prob(_matrix(c, QUERY_FEATURES)) * self.keep.prob(_matrix(c, CANDIDATE_FEATURES))


_B = ("g", "lex", "bm25", "rank", "ratio", "best", "second")
_C = (*_B, "care", "personal", "margin", "conv")
FEATURE_SETS: dict[str, tuple[str, ...]] = {
    "A g+lex+rank": ("g", "lex", "rank"),
    "B A+bm25,ratio,best,second": _B,
    "C B+care,personal,margin,conv": _C,
    "D C+memory,pool,length,ntok": (*_C, "memory", "pool", "length", "ntok"),
}
"""The per-candidate feature sets (names as in :func:`candidates`)."""

KINDS = [*FEATURE_SETS, "E two-stage (query x candidate)"]


def make(kind: str, train: Sequence[Candidates], l2: float) -> Combiner:
    """The combiner ``kind`` (a :data:`KINDS` name) fitted on ``train``."""
    return TwoStage(train, l2) if kind.startswith("E") else PerCandidate(train, FEATURE_SETS[kind], l2)


GRID = np.round(np.arange(0.01, 0.99, 0.01), 2)
"""The thresholds swept."""


def admissible(name: str, m: dict[str, float], ship: dict[str, float], off: dict[str, float]) -> bool:
    """At least as clean as the shipped gate, and within the issue's bounds: app off-topic clean >= the shipped
    gate's, PrefEval clean >= 0.50 with <= 1.0 facts per abstention, LongMemEval <= the shipped facts per
    abstention, LoCoMo hit@5 within 0.005 of no gate."""
    if name == "app":
        return m["clean"] >= ship["clean"]
    if name == "prefeval":
        return m["clean"] >= 0.50 and m["fpa"] <= 1.0
    if name == "memory":
        return m["fpa"] <= ship["fpa"]
    return m["hit"] >= off["hit"] - 0.005


def verdict(name: str, m: dict[str, float], ship: dict[str, float], off: dict[str, float]) -> str:
    """``+`` admissible and more hits than the shipped gate (app: more needed-fact hits, follow-ups no
    fewer), ``=`` admissible and as many, ``-`` otherwise."""
    if not admissible(name, m, ship, off):
        return "-"
    if name == "app" and m["follow"] < ship["follow"] - 1e-9:
        return "-"
    return "+" if m["hit"] > ship["hit"] + 1e-9 else "=" if m["hit"] >= ship["hit"] - 1e-9 else "-"


def lowest_admissible(combiner: Combiner, sets: Sequence[Candidates], base: Base) -> float | None:
    """The lowest threshold at which every one of ``sets`` is admissible (``None``: none is). Every metric is
    monotone in the threshold, so this is the point with the most hits those sets allow."""
    probs = {c.name: combiner.prob(c) for c in sets}
    for t in GRID:
        if all(admissible(c.name, metrics(c, probs[c.name] >= t), *base[c.name]) for c in sets):
            return float(t)
    return None


def _cell(c: Candidates, keep: np.ndarray, base: Base) -> str:
    m = metrics(c, keep)
    return f"{fmt(c.name, m)} {verdict(c.name, m, *base[c.name])}"


def _table_head(first: Sequence[str]) -> None:
    print("| " + " | ".join([*first, *(HEADS[n] for n in SETS)]) + " |")
    print("|" + "---|" * (len(first) + len(SETS)))


def study(args: argparse.Namespace) -> None:
    """Print the tables (see the module docstring); ``+`` / ``=`` / ``-`` compare a point with the shipped
    gate (:func:`verdict`)."""
    with gzip.open(args.features, "rt", encoding="utf-8") as fh:
        rows = json.load(fh)
    sets = {name: candidates(name, [r for r in rows if r["set"] == name]) for name in SETS}
    base: Base = {n: (shipped_metrics(c), metrics(c, None)) for n, c in sets.items()}
    print(f"## Reference points (limit {LIMIT}; {', '.join(f'{n} {len(c.rows)} queries' for n, c in sets.items())})\n")
    _table_head(["gate"])
    print("| shipped relevance gate | " + " | ".join(fmt(n, base[n][0]) for n in SETS) + " |")
    print("| no gate | " + " | ".join(fmt(n, base[n][1]) for n in SETS) + " |")
    cos = {n: c.feats["g"] for n, c in sets.items()}
    print("| gate cosine >= 0.30 | " + " | ".join(fmt(n, metrics(c, cos[n] >= 0.30)) for n, c in sets.items()) + " |")

    print("\n## Rotation: fit on two sets, t = the lowest threshold admissible on both, tested on the other two\n")
    _table_head(["combiner", "fit on", "t"])
    for kind in KINDS:
        for train_names in itertools.combinations(SETS, 2):
            train = [sets[n] for n in train_names]
            comb = make(kind, train, args.l2)
            t = lowest_admissible(comb, train, base)
            cells = ["(fit)" if n in train_names else "no t" if t is None else _cell(sets[n], comb.prob(sets[n]) >= t, base)
                     for n in SETS]
            print(f"| {kind} | {'+'.join(train_names)} | {'none' if t is None else f'{t:.2f}'} | " + " | ".join(cells) + " |")

    print("\n## The best each combiner can do on a set: held out (fit on the other three) and in-sample (fit on it)\n")
    print("The highest-hit admissible point of the curve, at whatever threshold gives it (`@t`); in-sample is the "
          "ceiling, not a result.\n")
    _table_head(["combiner", "fit on"])
    for kind in KINDS:
        for label, train_of in (("other three", lambda n: [sets[o] for o in SETS if o != n]),
                                ("the set itself", lambda n: [sets[n]])):
            cells = []
            for n in SETS:
                p = make(kind, train_of(n), args.l2).prob(sets[n])
                t = lowest_admissible(_Fixed(p, n), [sets[n]], base)
                cells.append("none" if t is None else f"{_cell(sets[n], p >= t, base)} @{t:.2f}")
            print(f"| {kind} | {label} | " + " | ".join(cells) + " |")

    print("\n## Fit on all four: lowest threshold admissible on all four\n")
    _table_head(["combiner", "t"])
    fitted = {kind: make(kind, list(sets.values()), args.l2) for kind in KINDS}
    for kind, comb in fitted.items():
        t = lowest_admissible(comb, list(sets.values()), base)
        cells = ["no t" if t is None else _cell(c, comb.prob(c) >= t, base) for c in sets.values()]
        print(f"| {kind} | {'none' if t is None else f'{t:.2f}'} | " + " | ".join(cells) + " |")
    print("\nThe same fits, t = the lowest threshold admissible on app, PrefEval and LongMemEval (LoCoMo not asked):\n")
    _table_head(["combiner", "t"])
    for kind, comb in fitted.items():
        t = lowest_admissible(comb, [sets[n] for n in SETS if n != "locomo"], base)
        cells = ["no t" if t is None else _cell(c, comb.prob(c) >= t, base) for c in sets.values()]
        print(f"| {kind} | {'none' if t is None else f'{t:.2f}'} | " + " | ".join(cells) + " |")

    for kind in (args.curve, KINDS[-1]):
        comb = fitted[kind]
        if isinstance(comb, PerCandidate):
            print(f"\n## Fit on all four, {kind}: coefficients (standardised features)\n")
            feats = comb.model.features
            print("| " + " | ".join(("intercept", *feats)) + " |")
            print("|" + "---|" * (len(feats) + 1))
            print("| " + " | ".join(f"{b:+.3f}" for b in comb.model.beta) + " |")
        print(f"\n## Fit on all four, {kind}: the trade-off curve\n")
        _table_head(["t"])
        print("| shipped | " + " | ".join(fmt(n, base[n][0]) for n in SETS) + " |")
        probs = {n: comb.prob(c) for n, c in sets.items()}
        for t in GRID[:: args.step]:
            print(f"| {t:.2f} | " + " | ".join(_cell(c, probs[n] >= t, base) for n, c in sets.items()) + " |")

    print("\n## As a second signal: the shipped gate's facts, plus those the all-four combiner keeps\n")
    _table_head(["combiner", "t"])
    for kind in (args.curve, KINDS[-1]):
        probs = {n: fitted[kind].prob(c) for n, c in sets.items()}
        for t in (0.2, 0.3, 0.4, 0.5, 0.6):
            print(f"| {kind} | {t:.2f} | "
                  + " | ".join(_cell(c, c.shipped | (probs[n] >= t), base) for n, c in sets.items()) + " |")


class _Fixed(Combiner):
    """Probabilities already computed for one set (for :func:`lowest_admissible` on that set alone)."""

    def __init__(self, p: np.ndarray, name: str) -> None:
        self.p, self.name = p, name

    def prob(self, c: Candidates) -> np.ndarray:
        assert c.name == self.name
        return self.p


def main(argv: Sequence[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    d = sub.add_parser("dump", help="write the per-candidate feature file")
    d.add_argument("--out", required=True)
    d.add_argument("--cache", help="a pickle of cached MiniLM vectors (read, then written back)")
    for name in ("app", "prefeval", "memory", "locomo"):
        d.add_argument(f"--{name}", help=f"the {name} development file")
    d.set_defaults(func=dump)
    s = sub.add_parser("study", help="fit, test in rotation, print the tables")
    s.add_argument("features", help="the file dump wrote")
    s.add_argument("--l2", type=float, default=1.0, help="the L2 penalty (standardised features)")
    s.add_argument("--curve", default="C B+care,personal,margin,conv", choices=list(FEATURE_SETS), help="features of the all-four fit")
    s.add_argument("--step", type=int, default=5, help="print every step-th threshold of the curve")
    s.set_defaults(func=study)
    args = p.parse_args(argv)
    args.func(args)


if __name__ == "__main__":
    main()
