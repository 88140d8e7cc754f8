"""memori-recall's framework-free engine: hybrid long-term memory recall over Chroma.

>>> from memori_core import RecallEngine, ChromaStore, format_context
>>> engine = RecallEngine(store=ChromaStore.in_memory())
>>> engine.add("user-1", ["User is allergic to peanuts."])
>>> print(format_context(engine.recall("what should I cook?", entity_id="user-1")))
"""

from .config import RecallConfig
from .context import format_context, format_fact_line
from .embedders import Embedder, LocalMiniLM, as_embedder, default_embedder
from .engine import RecallEngine
from .explain import CandidateScore, RecallReport
from .extraction import ExtractedFact, FactExtractor, Message, RuleBasedFactExtractor
from .facts import RecalledFact, StoredFact
from .injection import inject_context
from .judge import Judge
from .query import extract_query_and_context, extract_user_query
from .sdk_recall import MemoriRecall
from .store import ChromaStore, FactStore, FolderInUseError, PartialDeleteError, PartialWriteError, default_store_path
from .text import memori_tokenize, unicode_tokenize

__all__ = [
    "CandidateScore",
    "ChromaStore",
    "Embedder",
    "ExtractedFact",
    "FactExtractor",
    "FactStore",
    "FolderInUseError",
    "Judge",
    "PartialDeleteError",
    "PartialWriteError",
    "LocalMiniLM",
    "MemoriRecall",
    "Message",
    "RecallConfig",
    "RecallEngine",
    "RecallReport",
    "RecalledFact",
    "RuleBasedFactExtractor",
    "StoredFact",
    "as_embedder",
    "default_embedder",
    "default_store_path",
    "extract_query_and_context",
    "extract_user_query",
    "format_context",
    "format_fact_line",
    "inject_context",
    "memori_tokenize",
    "unicode_tokenize",
]

__version__ = "0.1.0"
