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
from collections.abc import Callable, Iterable
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


# ---------------------------------------------------------------------------------------------------------
# study

OFFTOPIC = frozenset({"offtopic", "offtopic_followup"})
FEATURES = ("cosine", "gate_cosine", "bm25", "affinity", "overlap", "rank", "affinity_rank", "affinity_margin",
            "care_share", "general_margin", "care")
FIT = ("dev", "blind2", "blind3", "blind4", "blind5", "blind6")
"""The read sets a combiner is fitted on; the other read sets (blind7..blind11) check it (as item 40 split them)."""


def candidate_rows(sets: dict[str, Any]) -> list[dict[str, Any]]:
    """One row per candidate among a turn's ``LIMIT`` best (with affinity on, as the gate reads them): its
    features, whether the turn needs it, and whether the gate kept it (with affinity on, and on main)."""
    rows = []
    for name, turns in sets.items():
        if name == "facts":
            continue
        for t in turns:
            five = [c for c in t["candidates"] if c["rank"] <= LIMIT]
            bonus = sorted((c["affinity"] for c in five), reverse=True)
            for c in five:
                top = c["affinity"] == bonus[0]
                rows.append({
                    "set": name, "turn": (t["user"], t["dialogue"], t["turn"]), "kind": t["kind"],
                    "needed": c["id"] in t["needs"], "kept": c["id"] in t["aff"], "ungated": c["id"] in t["open"],
                    "turn_hit": bool(set(t["needs"]) & set(t["aff"])), "opened": t["opened"],
                    "personal": t["personal"], "advice": t["advice"] or t["what_to_do"],
                    "cosine": c["cosine"], "gate_cosine": c["gate_cosine"], "bm25": c["bm25"],
                    "affinity": c["affinity"], "overlap": c["overlap"], "rank": c["rank"], "care": c["care"],
                    "affinity_rank": 1 + sum(b > c["affinity"] for b in bonus),
                    "affinity_margin": c["affinity"] - (bonus[1] if top and len(bonus) > 1 else bonus[0]),
                    "care_share": t["care_share"], "general_margin": t["general_margin"],
                })
    return rows


def auc(positive: np.ndarray, negative: np.ndarray) -> float:
    """The probability that a positive scores above a negative (ties count half): ROC AUC."""
    if not len(positive) or not len(negative):
        return float("nan")
    values = np.concatenate((positive, negative)).astype(np.float64)
    order = values.argsort(kind="stable")
    ranks = np.empty_like(values)
    ranks[order] = np.arange(1, len(values) + 1)
    for v in np.unique(values):  # average ranks over ties
        same = values == v
        ranks[same] = ranks[same].mean()
    return float((ranks[: len(positive)].sum() - len(positive) * (len(positive) + 1) / 2)
                 / (len(positive) * len(negative)))


def classify(rows: list[dict[str, Any]]) -> None:
    """Counts and feature quartiles of the needed facts in the five the gate drops on turns it misses, of the other
    facts of those turns, and of what it keeps on off-topic turns; each feature's AUC (needed vs not)."""
    missed = [r for r in rows if r["kind"] not in OFFTOPIC and not r["turn_hit"] and not r["kept"]]
    groups = {"needed, in the five, turn missed": [r for r in missed if r["needed"]],
              "not needed, same turns": [r for r in missed if not r["needed"]],
              "kept on off-topic turns": [r for r in rows if r["kind"] in OFFTOPIC and r["kept"]]}
    for label, group in groups.items():
        turns = {(r["set"], r["turn"]) for r in group}
        print(f"{label}: {len(group)} facts, {len(turns)} turns")
        for f in FEATURES:
            v = np.array([float(r[f]) for r in group])
            if v.size:
                print(f"  {f:16s} q25 {np.percentile(v, 25):+.3f}  median {np.median(v):+.3f}  q75 {np.percentile(v, 75):+.3f}")
        for flag in ("personal", "advice", "opened", "care"):
            print(f"  {flag}: {sum(bool(r[flag]) for r in group)}", end="")
        print()
        kinds: dict[str, int] = {}
        for r in group:
            kinds[r["kind"]] = kinds.get(r["kind"], 0) + 1
        print(f"  kinds: {kinds}")
    pos, neg = groups["needed, in the five, turn missed"], groups["not needed, same turns"]
    print("AUC, needed vs not among the five of missed turns: " + "  ".join(
        f"{f} {auc(np.array([float(r[f]) for r in pos]), np.array([float(r[f]) for r in neg])):.2f}"
        for f in FEATURES))
    personal = [r for r in missed if r["personal"]]
    by_turn = _by_turn(personal)
    tops = {"rank 1": lambda r: r["rank"], "affinity top 1": lambda r: -r["affinity"],
            "cosine top 1": lambda r: -r["gate_cosine"]}
    for label, key in tops.items():
        hit = sum(min(rs, key=key)["needed"] for rs in by_turn.values())
        print(f"missed personal turns: {len(by_turn)}; the {label} fact is needed in {hit}")


def sweep(rows: list[dict[str, Any]]) -> None:
    """The rule "a personal question keeps its affinity top 1 with a margin over the next, from a cosine": per
    setting, turns gained, off-topic turns made unclean, facts added and how many of them were needed."""
    by_turn = _by_turn(rows)
    for margin in (0.0, 0.02, 0.05, 0.1, 0.15):
        for floor in (0.0, 0.1, 0.15, 0.2):
            print(f"margin >= {margin:.2f}, cosine >= {floor:.2f}: " + _tally(by_turn.values(), lambda rs: [
                r for r in rs if not r["kept"] and r["personal"] and r["affinity"] > 0 and r["affinity_rank"] == 1
                and r["affinity_margin"] >= margin and r["gate_cosine"] >= floor]))


def _by_turn(rows: Iterable[dict[str, Any]]) -> dict[Any, list[dict[str, Any]]]:
    """``rows`` grouped by their turn (set, turn), in order."""
    by_turn: dict[Any, list[dict[str, Any]]] = {}
    for r in rows:
        by_turn.setdefault((r["set"], r["turn"]), []).append(r)
    return by_turn


def _tally(turns: Iterable[list[dict[str, Any]]], pick: Callable[[list[dict[str, Any]]], list[dict[str, Any]]]) -> str:
    """What a rule that adds ``pick(rows)`` of each turn's rows to what the gate kept would do: turns gained (a
    turn with needs and no needed fact kept that gets one), off-topic turns made unclean (nothing kept, something
    added), facts added and how many of them were needed."""
    gain = dirty = added = needed = 0
    for rs in turns:
        add = pick(rs)
        if rs[0]["kind"] in OFFTOPIC:
            dirty += bool(add) and not any(r["kept"] for r in rs)
            continue
        added += len(add)
        needed += sum(r["needed"] for r in add)
        gain += (not rs[0]["turn_hit"]) and any(r["needed"] for r in add)
    return (f"+{gain} turns, {dirty} off-topic turns unclean, {added} facts added, {needed} needed "
            f"({needed / max(1, added):.0%})")


COMBINER = ("gate_cosine", "overlap", "affinity", "care", "affinity_margin", "rank", "care_share", "bm25", "advice")


def combiner(rows: list[dict[str, Any]], l2: float = 1.0) -> None:
    """A logistic combiner over :data:`COMBINER` (standardised, L2, numpy only) fitted on the :data:`FIT` sets'
    personal questions (a fact of the five the gate dropped: needed or not), checked on the other read sets: per
    threshold, turns gained, off-topic turns made unclean, facts added and how many were needed."""
    def features(rs: list[dict[str, Any]]) -> np.ndarray:
        return np.array([[float(r[f]) for f in COMBINER] for r in rs])

    train = [r for r in rows if r["set"] in FIT and r["kind"] not in OFFTOPIC and r["personal"] and not r["kept"]]
    x, y = features(train), np.array([r["needed"] for r in train], dtype=np.float64)
    mu, sd = x.mean(axis=0), x.std(axis=0) + 1e-9
    z = (x - mu) / sd
    w, b = np.zeros(z.shape[1]), 0.0
    for _ in range(3000):
        p = 1.0 / (1.0 + np.exp(-(z @ w + b)))
        w -= 0.5 * (z.T @ (p - y) / len(y) + l2 * w / len(y))
        b -= 0.5 * float((p - y).mean())
    print("combiner weights (standardised): " + ", ".join(f"{f} {v:+.2f}" for f, v in zip(COMBINER, w)))
    by_turn = _by_turn(r for r in rows if r["personal"])

    def above(t: float) -> Callable[[list[dict[str, Any]]], list[dict[str, Any]]]:
        def pick(rs: list[dict[str, Any]]) -> list[dict[str, Any]]:
            left = [r for r in rs if not r["kept"]]
            if not left:
                return []
            p = 1.0 / (1.0 + np.exp(-(((features(left) - mu) / sd) @ w + b)))
            return [r for r, q in zip(left, p) if q >= t]
        return pick

    for t in (0.3, 0.4, 0.5):
        for part in ("fit", "check"):
            turns = [rs for (name, _), rs in by_turn.items() if (name in FIT) == (part == "fit")]
            print(f"t {t:.1f} {part:5s}: " + _tally(turns, above(t)))


def study(path: str) -> None:
    with open(path, "rb") as fh:
        sets = pickle.load(fh)
    rows = candidate_rows(sets)
    classify(rows)
    sweep(rows)
    combiner(rows)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    d = sub.add_parser("dump")
    d.add_argument("--out", required=True)
    d.add_argument("--weight", type=float, default=1.0)
    d.add_argument("--no-implied", action="store_true", help="gate_implied=False (the implication tables off)")
    d.add_argument("paths", nargs="+")
    st = sub.add_parser("study")
    st.add_argument("dump")
    args = ap.parse_args(argv)
    if args.cmd == "dump":
        dump(args.paths, args.out, args.weight, not args.no_implied)
    else:
        study(args.dump)


if __name__ == "__main__":
    main()
