"""memori-recall's framework-free engine: hybrid long-term memory recall over Chroma.

>>> from memori_core import RecallEngine, ChromaStore, format_context
>>> engine = RecallEngine(store=ChromaStore.in_memory())
>>> engine.add("user-1", ["User is allergic to peanuts."])
>>> print(format_context(engine.recall("what should I cook?", entity_id="user-1")))

The names below are the public API; lower-level pieces (tokenizers, the ranking functions, the cache)
are importable from their modules (docs/architecture.md lists them).
"""

from importlib import import_module
from typing import TYPE_CHECKING, Any

from ._version import __version__
from .config import RecallConfig
from .context import format_context
from .embedders import Embedder, LocalMiniLM, default_embedder
from .engine import RecallEngine
from .engine.swapped import SwappedArgumentsWarning
from .explain import CandidateScore, RecallReport
from .facts import RecalledFact, StoredFact
from .judge import Judge
from .lanes import ForgottenError
from .ranking.rerank import rerank
from .store import (
    ChromaStore,
    ClosedError,
    FactStore,
    FolderInUseError,
    InMemoryFactStore,
    PartialDeleteError,
    PartialWriteError,
    StoreTimedOut,
    StoreUnreachable,
    WriteOutcomeUnknown,
)
from .validate import NaiveTimeWarning, unnormalized_entity_ids

if TYPE_CHECKING:
    from .capture import capture_facts, newest_turn
    from .sdk import MemoriRecall, inject_context
    from .extraction import ExtractedFact, FactExtractor, RuleBasedFactExtractor

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
    "StoreTimedOut",
    "StoreUnreachable",
    "StoredFact",
    "SwappedArgumentsWarning",
    "WriteOutcomeUnknown",
    "__version__",
    "capture_facts",
    "newest_turn",
    "default_embedder",
    "format_context",
    "inject_context",
    "rerank",
    "unnormalized_entity_ids",
]

_LATER = {
    "capture_facts": "capture", "newest_turn": "capture",
    "ExtractedFact": "extraction", "FactExtractor": "extraction", "RuleBasedFactExtractor": "extraction",
    "MemoriRecall": "sdk", "inject_context": "sdk",
}
"""The public names of capture, extraction and the provider-SDK helpers (whose ``MemoriRecall.capture`` needs
capture), by their subpackage: imported when first used, as the rules take about a second to import, which a
program that only reads memory (`memori list`, an app's recall) need not pay."""


def __getattr__(name: str) -> Any:
    """A public name of :data:`_LATER`, imported from its subpackage when first asked for."""
    part = _LATER.get(name)
    if part is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f".{part}", __name__), name)
    globals()[name] = value  # later lookups do not come here
    return value


def __dir__() -> list[str]:
    """The module's names, those imported when first used included."""
    return sorted({*globals(), *_LATER})
