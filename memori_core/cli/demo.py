"""``memori demo``: two users' facts stored in a temporary embedded store (or ``--path``), then each question
recalled and explained, as an app would inject it."""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from ..context import format_context
from ..engine import RecallEngine
from ..store.chroma import ChromaStore
from .opening import check_embed_threads, check_store_path


DEMO_MEMORIES: dict[str, list[str]] = {
    "alice": [
        "User is allergic to peanuts.",
        "User prefers spicy food, especially Sichuan dishes.",
        "User lives in Zürich and commutes by bike.",
        "User's daughter Mia starts school in September.",
        "User is training for the Berlin marathon in April.",
        "User works as a data engineer at a logistics company.",
        "User is learning Japanese; 日本語の勉強を毎朝している。",
    ],
    "bob": [
        "User is vegetarian.",
        "User lives in Lisbon.",
        "User plays the cello in a community orchestra.",
        "User is allergic to cats.",
    ],
}

DEMO_QUESTIONS: list[tuple[str, str, list[str]]] = [
    ("alice", "Which snacks should I avoid because of my allergies?", []),
    ("alice", "Plan a training week for my race.", []),
    ("alice", "marathon", []),
    ("alice", "日本語", []),
    ("alice", "What should I order there?", ["We're going to a Chinese restaurant tonight."]),
    ("alice", "What's the capital of Australia?", []),
    ("bob", "What should I cook for dinner tonight?", []),
]
"""(user, question, earlier turns of the conversation)."""


def cmd_demo(args: argparse.Namespace) -> int:
    """``memori demo``: seed two users, recall and explain over a temporary embedded store."""
    keep = check_store_path(args.path, creates=True) if args.path else None
    check_embed_threads()  # before anything is printed, or a store made
    with tempfile.TemporaryDirectory(prefix="memori-demo-") as tmp:
        path = keep or Path(tmp)
        print(f"memori-recall demo: embedded Chroma store at {path}")
        print("loading the local all-MiniLM-L6-v2 embedder...")
        engine = RecallEngine(store=ChromaStore(path=path))
        for user, facts in DEMO_MEMORIES.items():
            engine.add(user, facts)
            print(f"stored {len(facts)} facts for {user!r}")
        for user, question, earlier in DEMO_QUESTIONS:
            print("\n" + "=" * 78)
            for turn in earlier:
                print(f"{user} said: {turn}")
            print(f"{user} asks: {question}")
            print("-" * 78)
            report = engine.explain(question, entity_id=user, context=earlier or None)
            print(report.table())
            block = format_context(report.facts)
            print("\nsystem prompt addition:")
            print(block if block else "(nothing recalled: no fact passed the relevance gate, so nothing is injected)")
    return 0
