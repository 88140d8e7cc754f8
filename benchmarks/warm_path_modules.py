"""Which of memori-recall's modules one warm recall through ``memori_langchain.MemoriRetriever.invoke`` runs code in.

How it counts: a profile hook records the module (``__name__`` of the function's globals) of every Python
function called during a third ``invoke`` (the first loads the cache, the second warms the tokenizer caches),
keeping our three packages only. The third asks the same words in a new string ("Where do I live?" after
"where do I live?"), so it is recalled; the same string again is answered from the answer recall keeps for a
question asked again over an unchanged copy, which is printed apart (``--repeated``). A deterministic word-hashing embedder stands in for
MiniLM, so the model's own modules are not counted; the store is ``ChromaStore.in_memory()``.

    python benchmarks/warm_path_modules.py
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from _helpers import HashEmbedder  # noqa: E402

from memori_core import ChromaStore, RecallEngine  # noqa: E402
from memori_langchain import MemoriRetriever  # noqa: E402

OURS = ("memori_core", "memori_langchain", "memori_llamaindex")


def warm_path_modules(repeated: bool = False) -> Counter[str]:
    """Calls per module of one warm recall through the LangChain retriever (``repeated``: of the same question
    asked a third time, answered from the kept answer)."""
    engine = RecallEngine(store=ChromaStore.in_memory(), embedder=HashEmbedder())
    engine.add("u", ["User is allergic to peanuts.", "User lives in Lisbon.", "User likes jazz."])
    retriever = MemoriRetriever(engine=engine, entity_id="u")
    for _ in range(2):
        retriever.invoke("where do I live?")
    calls: Counter[str] = Counter()

    def profile(frame: Any, event: str, arg: Any) -> None:
        if event == "call":
            module = frame.f_globals.get("__name__", "")
            if module.split(".")[0] in OURS:
                calls[module] += 1

    sys.setprofile(profile)
    try:
        retriever.invoke("where do I live?" if repeated else "Where do I live?")
    finally:
        sys.setprofile(None)
    return calls


if __name__ == "__main__":
    modules = warm_path_modules(repeated="--repeated" in sys.argv[1:])
    for name, n in sorted(modules.items()):
        print(f"{n:4d}  {name}")
    print(f"{len(modules)} modules")
