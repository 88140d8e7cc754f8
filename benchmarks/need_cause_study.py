"""Where the app sets' needed facts are lost: the gate, or the ranking (docs/ranking.md item 49).

For every turn with needs: the gated recall at ``limit`` (5), and the same ranking without the gate at
``depth`` (30), so each turn falls in one class: ``kept`` (a needed fact injected, and the ungated top
``limit`` holds a needed fact too), ``brought`` (a needed fact injected, none in the ungated top ``limit``:
the gate brought it from below, e.g. by an implication table), ``gate`` (the ungated top ``limit`` holds a
needed fact, none injected) or ``rank@a-b`` (none injected; the best needed fact ranks a..b without the
gate; ``rank>depth``: not in the ungated ``depth``). Only per-kind counts are printed, and for the gate's
losses a count by whether the gate stayed closed, whether the turn was read as a general question and the
needed fact's gate cosine: it can run on the sets nobody may read turn by turn.
``--config NAME=VALUE`` overrides a RecallConfig field (e.g. ``gate_implied=false``).

    python benchmarks/need_cause_study.py evals/app_memory/dev.json [--config gate_implied=false]
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from collections.abc import Iterator
from typing import Any, NamedTuple

from memori_core.config import RecallConfig
from memori_core.embedders import default_embedder
from memori_core.evaluation.app_memory import KINDS, accepts_keyword, add_user, load_app_memory
from memori_core.evaluation.embedding import CachingEmbedder
from memori_core.evaluation.runner import EnginePool

CLASSES = ("kept", "brought", "gate", "rank@6-10", "rank@11-20", "rank@21-30", "rank>30")


def _value(text: str):
    low = text.lower()
    if low in ("true", "false"):
        return low == "true"
    if low == "none":
        return None
    try:
        return json.loads(text)
    except ValueError:
        return text


def classify(needs: set[str], injected: list[str], top_limit: list[str], ranked: list[str]) -> str:
    """The class of one turn with needs (module docstring): ``top_limit`` is the ungated recall at the
    limit, ``ranked`` the ungated recall at the depth (its first places can differ a little from
    ``top_limit``: the limit sizes the candidate pool and the tie-breaks)."""
    top = set(top_limit)
    got = needs & set(injected)
    if got:
        return "kept" if needs & top else "brought"
    if needs & top:
        return "gate"
    ranks = [ranked.index(n) + 1 for n in needs if n in ranked]
    if not ranks:
        return "rank>30"
    best = min(ranks)
    return "rank@6-10" if best <= 10 else "rank@11-20" if best <= 20 else "rank@21-30"


class TurnRead(NamedTuple):
    """One turn with needs, recalled gated and ungated: what each returned and its class (:func:`classify`)."""
    user: Any
    turn: Any
    extra: dict[str, Any]
    injected: list[str]
    top: list[str]
    ranked: list[str]
    kind: str
    gated: Any


def read_turns(path: str, config: RecallConfig, limit: int = 5, depth: int = 30) -> Iterator[TurnRead]:
    """Every turn with needs of the app set at ``path``, recalled at ``limit`` by the gated engine and at ``limit``
    and ``depth`` by the same ranking ungated, with the conversation before it as context."""
    data = load_app_memory(path)
    pool = EnginePool(CachingEmbedder(default_embedder()))
    gated = pool.engine(config)
    ungated = pool.engine(config.replace(gate="off"))
    takes_context = accepts_keyword(gated.recall, "context")
    pool.embedder.warm([f.text for u in data.users for f in u.facts])
    for user in data.users:
        add_user(gated, user)
    for user in data.users:
        for dialogue in user.dialogues:
            for i, turn in enumerate(dialogue.turns):
                if turn.offtopic:
                    continue
                context = [t.text for t in dialogue.turns[:i]]
                extra = {"context": context} if takes_context and context else {}
                injected = [f.id for f in gated.recall(turn.text, user.user, limit, **extra)]
                top = [f.id for f in ungated.recall(turn.text, user.user, limit, **extra)]
                ranked = [f.id for f in ungated.recall(turn.text, user.user, depth, **extra)]
                yield TurnRead(user, turn, extra, injected, top, ranked,
                               classify(set(turn.needs), injected, top, ranked), gated)


def study(path: str, config: RecallConfig, limit: int = 5,
          depth: int = 30) -> tuple[dict[str, Counter], Counter]:
    counts: dict[str, Counter] = {k: Counter() for k in KINDS if not k.startswith("offtopic")}
    counts["all"] = Counter()
    details: Counter = Counter()
    for read in read_turns(path, config, limit, depth):
        counts[read.turn.kind][read.kind] += 1
        counts["all"][read.kind] += 1
        if read.kind == "gate":
            report = read.gated.explain(read.turn.text, read.user.user, limit, **read.extra)
            for key in _gate_loss(report, set(read.turn.needs)):
                details[key] += 1
    return counts, details


def _gate_loss(report, needs: set[str]) -> list[str]:
    """Summary keys of one turn the gate lost: closed or open, a general question or not, and the best
    needed fact's gate cosine (the larger of its cosines to the question and the conversation)."""
    note = f"{report.note} {report.gate_note}"
    keys = ["closed" if report.gate_opened is False else "open"]
    keys.append("general" if "a general question" in note else "not general")
    needed = sorted((c for c in report.candidates if c.id in needs), key=lambda c: c.rank)
    best = None if not needed else (needed[0].gate_cosine if needed[0].gate_cosine is not None else needed[0].cosine)
    if best is not None:
        band = "<0.15" if best < 0.15 else "0.15-0.20" if best < 0.2 else "0.20-0.25" if best < 0.25 else ">=0.25"
        keys.append(f"needed gate cosine {band}")
    return keys


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="+")
    parser.add_argument("--config", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument("--limit", type=int, default=5)
    args = parser.parse_args()
    overrides = dict((k, _value(v)) for k, v in (c.split("=", 1) for c in args.config))
    config = RecallConfig(**overrides)
    print("| set | kind | turns | " + " | ".join(CLASSES) + " |")
    print("|---|---|---|" + "---|" * len(CLASSES))
    for path in args.files:
        counts, details = study(path, config, args.limit)
        for kind, counter in counts.items():
            n = sum(counter.values())
            print(f"| {path.rsplit('/', 1)[-1].removesuffix('.json')} | {kind} | {n} | "
                  + " | ".join(str(counter[c]) for c in CLASSES) + " |", flush=True)
        print(f"<!-- {path}: gate losses: {dict(sorted(details.items()))} -->", flush=True)


if __name__ == "__main__":
    main()
