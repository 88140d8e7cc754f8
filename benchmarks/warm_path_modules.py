"""Which of memori-recall's modules one warm recall through ``memori_langchain.MemoriRetriever.invoke`` runs code in.

How it counts: a profile hook records the module (``__name__`` of the function's globals) of every Python
function called during a third ``invoke`` (the first loads the cache, the second warms the tokenizer caches),
keeping our three packages only. The third asks the same words in a new string ("Where do I live?" after
"where do I live?"), so it is recalled; the same string again is answered from the answer recall keeps for a
question asked again over an unchanged copy, which is printed apart (``--repeated``). A deterministic word-hashing embedder stands in for
MiniLM, so the model's own modules are not counted; the store is ``ChromaStore.in_memory()``.

Beside the modules, the same calls grouped by concern (:data:`CONCERNS`: the folders and layers of
docs/architecture.md, written once here): the ranking and the question-reading tables are split into small
one-job modules by design, so the module count says little of how many things a reader must hold in mind. It
prints the number of concerns the recall passes and the number of its modules outside the question-reading
tables and the foundations. A module no concern names is reported as "unplaced" (tests/test_warm_path_modules.py
fails on one), so the table cannot drift silently as modules are added. The script measures no cold recall.

    python benchmarks/warm_path_modules.py
    python benchmarks/warm_path_modules.py --repeated
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

# Each concern with the modules it holds: a name ending in ".*" is a folder (the package and everything in it),
# any other name one module. Folders whose every module has one concern are named whole; ranking/ is named module
# by module, since it holds two concerns (the formula over arrays, and the English tables that read a question),
# so a new ranking module is unplaced until someone says which it is. The layers are docs/architecture.md's.
CONCERNS: dict[str, tuple[str, ...]] = {
    # layer 6
    "adapter": ("memori_langchain.*", "memori_llamaindex.*"),
    # layer 5
    "command line, public names": ("memori_core", "memori_core.__main__", "memori_core.cli.*"),
    # layers 4 and 2: what every adapter shares, and the fail-open policy's parts
    "adapter policy": ("memori_core.adapter_args", "memori_core.metadata_keys", "memori_core.failopen",
                       "memori_core.outage", "memori_core.time_limit", "memori_core.error_log"),
    # layer 4: the rest of what is built on the engine
    "capture, extraction": ("memori_core.capture.*", "memori_core.extraction.*", "memori_core.capture_failures",
                            "memori_core.unanswered"),
    "agent tools, sdk, evaluation": ("memori_core.memory_tools", "memori_core.tool_arguments",
                                     "memori_core.tool_writes", "memori_core.unexpired", "memori_core.mcp_server",
                                     "memori_core.sdk.*",
                                     "memori_core.evaluation.*"),
    # layer 3
    "engine": ("memori_core.engine.*",),
    # layer 2
    "cache": ("memori_core.cache.*",),
    # layer 1
    "store": ("memori_core.store.*",),
    "embedder": ("memori_core.embedders", "memori_core.minilm"),
    "ranking formula": tuple(f"memori_core.ranking{name}" for name in (
        "", ".candidates", ".pipeline", ".dense", ".lexical", ".fusion", ".gate", ".carried", ".recency", ".core", ".judged",
        ".rerank", ".affinity", ".domain_vectors", ".spread", ".ties")),
    # ranking/'s English tables that read a question (and the turns before it), layer 0's meta_questions and
    # tool_queries (layer 1, beside them)
    "question-reading tables": tuple(f"memori_core.ranking.{name}" for name in (
        "asking", "care", "intent", "concerns", "implications", "everyday", "kin", "allergens", "conversation",
        "referents",
        "names", "own_first", "own_words", "past", "upcoming", "word_tables", "world_question")) + (
        "memori_core.meta_questions", "memori_core.tool_queries"),
    # layer 0: values, checks, text analysis, the block
    "foundations": tuple(f"memori_core.{name}" for name in (
        "config", "facts", "validate", "text", "calendar_words", "number_words", "slots", "filters", "records",
        "bounded", "context", "placement", "explain", "query", "judge", "lanes", "argspec", "extras", "_version")),
}
# The layers of tests/test_layout.py's LAYERS that each concern's modules lie in: tests/test_warm_path_modules.py
# checks that the two tables agree (every module of the tree in exactly one concern, of the layers named here), so a
# module moved between layers or concerns in one table and not the other fails there.
CONCERN_LAYERS: dict[str, tuple[int, ...]] = {
    "adapter": (6,),
    "command line, public names": (5,),
    "adapter policy": (2, 4),
    "capture, extraction": (4,),
    "agent tools, sdk, evaluation": (4,),
    "engine": (3,),
    "cache": (2,),
    "store": (1,),
    "embedder": (1,),
    "ranking formula": (1,),
    "question-reading tables": (0, 1),
    "foundations": (0,),
}
UNPLACED = "unplaced"
# What the second count leaves out: concerns that are many small modules by design, or that everything stands on.
SMALL_BY_DESIGN = ("question-reading tables", "foundations")


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


def holders(module: str) -> list[str]:
    """The concerns of :data:`CONCERNS` that name ``module`` (one when the mapping is sound)."""
    found = []
    for concern, names in CONCERNS.items():
        for name in names:
            if module == name or (name.endswith(".*") and (module == name[:-2] or module.startswith(name[:-1]))):
                found.append(concern)
                break
    return found


def concern_of(module: str) -> str:
    """The concern ``module`` belongs to, or :data:`UNPLACED` when none names it."""
    found = holders(module)
    return found[0] if found else UNPLACED


def by_concern(calls: Counter[str]) -> dict[str, Counter[str]]:
    """``calls`` (per module) grouped by concern, in :data:`CONCERNS`' order, unplaced modules last."""
    grouped: dict[str, Counter[str]] = {}
    for concern in (*CONCERNS, UNPLACED):
        members = Counter({module: n for module, n in calls.items() if concern_of(module) == concern})
        if members:
            grouped[concern] = members
    return grouped


def concern_table(calls: Counter[str]) -> list[str]:
    """The lines printed for ``calls`` by concern: a row per concern, then the two counts."""
    grouped = by_concern(calls)
    lines = [f"{'concern':30s} {'modules':>7s} {'calls':>6s}  modules"]
    for concern, members in grouped.items():
        short = ", ".join(module.removeprefix("memori_core.") for module in sorted(members))
        lines.append(f"{concern:30s} {len(members):7d} {sum(members.values()):6d}  {short}")
    placed = [concern for concern in grouped if concern != UNPLACED]
    outside = sum(len(members) for concern, members in grouped.items() if concern not in SMALL_BY_DESIGN)
    lines.append(f"concerns: {len(placed)}")
    lines.append(f"modules outside the question-reading tables and foundations (unplaced included): {outside}")
    if UNPLACED in grouped:
        lines.append(f"UNPLACED: {', '.join(sorted(grouped[UNPLACED]))} (add them to CONCERNS)")
    return lines


if __name__ == "__main__":
    modules = warm_path_modules(repeated="--repeated" in sys.argv[1:])
    for name, n in sorted(modules.items()):
        print(f"{n:4d}  {name}")
    print(f"{len(modules)} modules")
    print()
    print("\n".join(concern_table(modules)))
