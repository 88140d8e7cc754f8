"""The app set turns the gate or the ranking loses, one by one (docs/ranking.md item 53).

For every turn with needs that gets no needed fact, where the ungated top ``limit`` holds one (a **gate** loss,
:func:`need_cause_study.classify`), one table row: the turn, the gate's state (closed, open, read as a general
question), the needed fact best placed among the facts the gate read (its position there, its cosine and its gate
cosine with the third-person lift, the stems it shares with the question, whether it is written "User ..."), and
its class: ``displaced`` (ranked below the ``limit`` the gate reads because implied facts were ranked in above
it), ``general``, ``closed`` or ``open, passed others``. Then the **ranking** losses (no needed fact in the ungated
top ``limit``): the best needed fact's ungated rank, its cosine and the stems it shares.

It prints the turns' words: run it only on the sets you may read (evals/app_memory/README.md), never on the
blind ones (those are refused by name below; `need_cause_study.py` prints only counts and runs on any set).

    python benchmarks/gate_loss_turns.py evals/app_memory/blind13.json [--limit 5]
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from need_cause_study import read_turns  # noqa: E402

from memori_core.config import RecallConfig  # noqa: E402
from memori_core.ranking.asking import ASKING_WORDS, query_terms  # noqa: E402
from memori_core.text import analyzer  # noqa: E402

UNREAD = re.compile(r"blind1[6-9]|blind[2-9][0-9]|heldout")
"""Set names nobody may read turn by turn (at the time of writing: blind16 and later)."""


def shared_stems(question: str, fact: str, config: RecallConfig) -> list[str]:
    """The stems of ``question``'s words (without "user" and the words of asking) that ``fact`` holds."""
    analyze = analyzer(config.tokenizer, config.stemmer)
    asking = set(analyze(ASKING_WORDS))
    return sorted(set(query_terms(question, config.tokenizer, config.stemmer)) - asking & set(analyze(fact)))


def rows(path: str, config: RecallConfig, limit: int = 5, depth: int = 30) -> tuple[list[str], list[str]]:
    """The gate losses' and the ranking losses' table rows of the set at ``path``."""
    gate_rows: list[str] = []
    rank_rows: list[str] = []
    for user, turn, extra, _, _, ranked, kind, gated in read_turns(path, config, limit, depth):
        texts = {f.id: f.text for f in user.facts}
        asked = turn.text.replace("|", "/")
        if kind == "gate":
            report = gated.explain(turn.text, user.user, limit, **extra)
            read = report.candidates
            at = next(k for k, c in enumerate(read) if c.id in turn.needs)
            fact = read[at]
            gate_cos = fact.cosine if fact.gate_cosine is None else fact.gate_cosine
            note = f"{report.note} {report.gate_note}"
            state = ("general" if "a general question" in note
                     else "closed" if report.gate_opened is False else "open")
            pushed = at >= limit and any(c.passed_by == "implied" for c in read[:limit])
            cls = "displaced" if pushed else state if state != "open" else "open, passed others"
            stems = " ".join(shared_stems(turn.text, fact.content, config)) or "-"
            gate_rows.append(
                f"| {turn.kind} | {asked} | {state} | {fact.content} | {at + 1} | {fact.cosine:.3f} / "
                f"{gate_cos:.3f} | {stems} | {'y' if fact.content.startswith('User') else 'n'} | {cls} |")
        elif kind.startswith("rank"):
            best = min((n for n in turn.needs if n in ranked), key=ranked.index, default=turn.needs[0])
            at = ranked.index(best) + 1 if best in ranked else None
            stems = " ".join(shared_stems(turn.text, texts[best], config)) or "-"
            rank_rows.append(f"| {turn.kind} | {asked} | {texts[best]} | {at or f'>{depth}'} | {stems} |")
    return gate_rows, rank_rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="+")
    parser.add_argument("--limit", type=int, default=5)
    args = parser.parse_args()
    for path in args.files:
        if UNREAD.search(Path(path).name):
            parser.error(f"{path}: a blind set, read by its summary line only (need_cause_study.py counts it)")
    for path in args.files:
        gate, ranking = rows(path, RecallConfig(), args.limit)
        print(f"\n{path}: gate losses\n")
        print("| kind | turn | gate | needed fact | read at | cosine / gate cos | shared stems | \"User\" | class |")
        print("|---|---|---|---|---|---|---|---|---|")
        print("\n".join(gate))
        print(f"\n{path}: ranking losses\n")
        print("| kind | turn | needed fact (best ranked) | ungated rank | shared stems |")
        print("|---|---|---|---|---|")
        print("\n".join(ranking), flush=True)


if __name__ == "__main__":
    main()
