"""memori-recall's framework-free engine: hybrid long-term memory recall over Chroma.

>>> from memori_core import RecallEngine, ChromaStore, format_context
>>> engine = RecallEngine(store=ChromaStore.in_memory())
>>> engine.add("user-1", ["User is allergic to peanuts."])
>>> print(format_context(engine.recall("what should I cook?", entity_id="user-1")))

The names below are the public API; lower-level pieces (tokenizers, the ranking functions, the cache)
are importable from their modules (docs/architecture.md lists them).
"""

from ._version import __version__
from .capture import capture_facts, newest_turn
from .config import RecallConfig
from .context import format_context
from .embedders import Embedder, LocalMiniLM, default_embedder
from .engine import RecallEngine
from .explain import CandidateScore, RecallReport
from .extraction import ExtractedFact, FactExtractor, RuleBasedFactExtractor
from .facts import RecalledFact, StoredFact
from .judge import Judge
from .lanes import ForgottenError
from .ranking.rerank import rerank
from .sdk import MemoriRecall, inject_context
from .store import (
    ChromaStore,
    ClosedError,
    FactStore,
    FolderInUseError,
    InMemoryFactStore,
    PartialDeleteError,
    PartialWriteError,
)
from .validate import NaiveTimeWarning, unnormalized_entity_ids

__all__ = [
    "CandidateScore",
    "ChromaStore",
    "ClosedError",
    "Embedder",
    "ExtractedFact",
    "FactExtractor",
    "FactStore",
    "FolderInUseError",
    "ForgottenError",
    "InMemoryFactStore",
    "Judge",
    "LocalMiniLM",
    "MemoriRecall",
    "NaiveTimeWarning",
    "PartialDeleteError",
    "PartialWriteError",
    "RecallConfig",
    "RecallEngine",
    "RecallReport",
    "RecalledFact",
    "RuleBasedFactExtractor",
    "StoredFact",
    "__version__",
    "capture_facts",
    "newest_turn",
    "default_embedder",
    "format_context",
    "inject_context",
    "rerank",
    "unnormalized_entity_ids",
]
