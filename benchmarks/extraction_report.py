"""What the rule-based fact extractor keeps and drops on real user turns (LoCoMo and PrefEval dev sets).

    python benchmarks/extraction_report.py
    python benchmarks/extraction_report.py --locomo PATH --prefeval PATH --examples 15 --seed 0

Every turn goes through ``RuleBasedFactExtractor`` (the default of
``capture=True``). A turn is *kept* when at least one fact comes out of it,
*dropped* otherwise. Printed: kept / dropped per source, the reasons
sentences were dropped, and sampled examples (kept with the facts they became,
dropped with the reason of each sentence). Sources:

- LoCoMo: every dialog turn of the dev conversations (two people chatting: small
  talk, questions to each other, and statements about their lives).
- PrefEval, stated preferences and persona sentences: first-person statements,
  which capture should keep.
- PrefEval, questions: requests to an assistant, which capture should never store.

The data is not shipped: point the options at the files (by default
``../shared/data/{locomo,prefeval}/dev.json`` next to the repository).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from memori_core.extraction import RuleBasedFactExtractor, SentenceVerdict  # noqa: E402

DATA = ROOT.parent / "shared" / "data"


@dataclass
class Turn:
    source: str
    text: str
    verdicts: list[SentenceVerdict]

    @property
    def facts(self) -> list[str]:
        return [v.fact for v in self.verdicts if v.fact is not None]

    @property
    def kept(self) -> bool:
        return bool(self.facts)


def locomo_turns(path: Path) -> list[str]:
    texts: list[str] = []
    for conversation in json.loads(path.read_text(encoding="utf-8")):
        sessions = conversation["conversation"]
        for key, turns in sessions.items():
            if key.startswith("session_") and isinstance(turns, list):
                texts.extend(t["text"] for t in turns if t.get("text"))
    return texts


def prefeval_turns(path: Path) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {"PrefEval preferences": [], "PrefEval persona": [], "PrefEval questions": []}
    for user in json.loads(path.read_text(encoding="utf-8")):
        for fact in user["facts"]:
            out["PrefEval preferences" if fact["source"] == "pref" else "PrefEval persona"].append(fact["text"])
        out["PrefEval questions"].extend(q["q"] for q in user["queries"])
    return out


def short(text: str, width: int) -> str:
    text = " ".join(text.split()).replace("|", "/")
    return text if len(text) <= width else text[: width - 1] + "\u2026"


def sample(turns: list[Turn], n: int, rng: random.Random, key) -> list[Turn]:
    """``n`` turns spread over the values of ``key`` (round robin over groups, random within a group)."""
    groups: dict[str, list[Turn]] = {}
    for turn in turns:
        groups.setdefault(key(turn), []).append(turn)
    for members in groups.values():
        rng.shuffle(members)
    order = sorted(groups, key=lambda g: -len(groups[g]))
    picked: list[Turn] = []
    while len(picked) < n and any(groups.values()):
        for g in order:
            if groups[g] and len(picked) < n:
                picked.append(groups[g].pop())
    return picked


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--locomo", type=Path, default=DATA / "locomo" / "dev.json")
    parser.add_argument("--prefeval", type=Path, default=DATA / "prefeval" / "dev.json")
    parser.add_argument("--examples", type=int, default=15, help="examples of kept and of dropped turns")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)

    extractor = RuleBasedFactExtractor()
    sources: dict[str, list[str]] = {"LoCoMo dialog turns": locomo_turns(args.locomo)}
    sources.update(prefeval_turns(args.prefeval))
    turns = [Turn(src, text, extractor.explain(text)) for src, texts in sources.items() for text in texts]

    print("## Turns kept / dropped by RuleBasedFactExtractor\n")
    print("| source | turns | kept | dropped | kept % | facts | rewritten as \"User ...\" | kept as said |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for src in [*sources, "all"]:
        group = [t for t in turns if src in ("all", t.source)]
        kept = sum(t.kept for t in group)
        facts = [v for t in group for v in t.verdicts if v.fact is not None]
        rewritten = sum(v.reason.startswith("rewritten") for v in facts)
        print(f"| {src} | {len(group)} | {kept} | {len(group) - kept} | {100 * kept / max(1, len(group)):.1f} "
              f"| {len(facts)} | {rewritten} | {len(facts) - rewritten} |")

    print("\n## Why sentences were dropped (all sources)\n")
    reasons = Counter(v.reason for t in turns for v in t.verdicts if v.fact is None)
    print("| reason | sentences |")
    print("|---|---:|")
    for reason, count in reasons.most_common():
        print(f"| {reason} | {count} |")

    rng = random.Random(args.seed)
    kept = sample([t for t in turns if t.kept], args.examples, rng, key=lambda t: t.source)
    dropped = sample([t for t in turns if not t.kept], args.examples, rng,
                     key=lambda t: next((v.reason for v in t.verdicts), "empty"))

    print(f"\n## {len(kept)} kept turns, with the facts stored\n")
    print("| source | turn | stored fact(s) |")
    print("|---|---|---|")
    for t in kept:
        print(f"| {t.source} | {short(t.text, 90)} | {short(' / '.join(t.facts), 90)} |")

    print(f"\n## {len(dropped)} dropped turns, with why\n")
    print("| source | turn | why (per sentence) |")
    print("|---|---|---|")
    for t in dropped:
        why = "; ".join(dict.fromkeys(v.reason for v in t.verdicts)) or "empty"
        print(f"| {t.source} | {short(t.text, 90)} | {why} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
