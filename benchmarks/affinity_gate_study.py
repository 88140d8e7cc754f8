"""Why does the relevance gate drop what affinity ranks in? (issue 20, docs/ranking.md item 41)

``dump`` runs app-memory sets through the real engine, affinity on (``RecallConfig(affinity_weight=W)``), and writes
per turn: its kind, needs, what the gated engine injects (and what main's default, affinity off, injects), the
ungated five, ``explain``'s candidates (rank, cosine, gate cosine, BM25, lexical, affinity, rank score, fate, care
fact) and the question's signals (first person, for the asker, advice, what to do, general-shape margin, domain
shares of the question and of each candidate, care share), plus the question's and facts' vectors so that the
study can try other signals without running the engine again.

``study`` reads the dump and classifies the turns whose needed fact is in the ungated five but not injected, and
the facts injected on off-topic turns, by those signals, with counts; then scores candidate gate rules over the
dump (a rule adds facts of the five best to what the gate keeps), per set.

    PYTHONPATH=. python benchmarks/affinity_gate_study.py dump --out /tmp/aff.pkl evals/app_memory/dev.json ...
    PYTHONPATH=. python benchmarks/affinity_gate_study.py study /tmp/aff.pkl

Only development sets may be dumped (the blind ones are run for their summary line only).
"""

from __future__ import annotations

import argparse
import os
import pickle
import sys
from typing import Any

import numpy as np

LIMIT = 5


def dump(paths: list[str], out: str, weight: float, implied: bool = True) -> None:
    from memori_core import RecallConfig
    from memori_core.embedders import default_embedder
    from memori_core.evaluation.app_memory import add_user, load_app_memory
    from memori_core.evaluation.embedding import CachingEmbedder
    from memori_core.evaluation.runner import EnginePool
    from memori_core.ranking.affinity import asks_personally
    from memori_core.ranking.care import care_share, domain_shares, for_the_asker, is_care_fact, is_personal
    from memori_core.ranking.implications import asks_for_advice, asks_what_to_do
    from memori_core.ranking.intent import general_margin

    emb = CachingEmbedder(default_embedder())
    base = RecallConfig(gate_implied=implied)  # without the implication tables: the read sets as a set they were not fitted on
    on = base.replace(affinity_weight=weight)
    out_sets: dict[str, Any] = {}
    for path in paths:
        data = load_app_memory(path)
        name = os.path.basename(path).removesuffix(".json")
        emb.warm([f.text for u in data.users for f in u.facts])
        pool = EnginePool(emb)  # one store per set: the engines below share it
        engines = {"main": pool.engine(base), "aff": pool.engine(on),
                   "open": pool.engine(on.replace(gate="off")), "open_main": pool.engine(base.replace(gate="off"))}
        for user in data.users:
            add_user(engines["main"], user)
        proto = engines["aff"]._prototype_vectors(384)
        turns = []
        for user in data.users:
            texts = [f.text for f in user.facts]
            fvec = np.asarray(emb.embed_documents(texts), dtype=np.float64)
            fvec /= np.linalg.norm(fvec, axis=1, keepdims=True)
            fdom = domain_shares(fvec, proto.domains, proto.starts)
            ids = [f.id for f in user.facts]
            for dialogue in user.dialogues:
                for i, turn in enumerate(dialogue.turns):
                    ctx = [t.text for t in dialogue.turns[:i]]
                    extra = {"context": ctx} if ctx else {}
                    got = {k: [f.id for f in e.recall(turn.text, user.user, LIMIT, **extra)] for k, e in engines.items()}
                    rep = engines["aff"].explain(turn.text, user.user, LIMIT, **extra)
                    q = np.asarray(emb.embed_query(turn.text), dtype=np.float64)
                    q /= np.linalg.norm(q)
                    qdom = domain_shares(q, proto.domains, proto.starts)
                    cands = []
                    for c in rep.candidates[:12]:
                        k = ids.index(c.id) if c.id in ids else -1
                        cands.append({
                            "id": c.id, "text": c.content, "rank": c.rank, "cosine": c.cosine,
                            "gate_cosine": c.gate_cosine if c.gate_cosine is not None else c.cosine,
                            "bm25": c.bm25, "lexical": c.lexical, "affinity": c.affinity, "rank_score": c.rank_score,
                            "reason": c.reason, "kept": c.kept, "care": is_care_fact(c.content),
                            "fact_row": k, "overlap": float(fdom[k] @ qdom) if k >= 0 else 0.0,
                            "qcos": float(fvec[k] @ q) if k >= 0 else float("nan"),
                        })
                    turns.append({
                        "set": name, "user": user.user, "dialogue": dialogue.id, "turn": i, "kind": turn.kind,
                        "text": turn.text, "context": ctx, "needs": list(turn.needs), **got,
                        "personal": asks_personally(turn.text), "asker": for_the_asker(turn.text),
                        "first_person": is_personal(turn.text), "advice": asks_for_advice(turn.text),
                        "what_to_do": asks_what_to_do(turn.text),
                        "general_margin": general_margin(q, proto.intents, proto.advice),
                        "care_share": care_share(q, proto.domains, proto.starts), "qdom": qdom, "q": q,
                        "gate_note": rep.gate_note, "best_cosine": rep.best_cosine, "opened": rep.gate_opened,
                        "candidates": cands,
                    })
            out_sets.setdefault("facts", {})[(name, user.user)] = (ids, texts, fvec, fdom)
        out_sets[name] = turns
        print(f"{name}: {len(turns)} turns", file=sys.stderr)
    with open(out, "wb") as fh:
        pickle.dump(out_sets, fh)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    d = sub.add_parser("dump")
    d.add_argument("--out", required=True)
    d.add_argument("--weight", type=float, default=1.0)
    d.add_argument("--no-implied", action="store_true", help="gate_implied=False (the implication tables off)")
    d.add_argument("paths", nargs="+")
    args = ap.parse_args(argv)
    if args.cmd == "dump":
        dump(args.paths, args.out, args.weight, not args.no_implied)


if __name__ == "__main__":
    main()
