"""LlamaIndex adapters for memori-recall: a retriever, a query engine over it, node postprocessors, a memory block
and agent tools.

>>> from memori_llamaindex import MemoriMemoryBlock, MemoriRetriever, MemoriHybridPostprocessor, RecallEngine
>>> engine = RecallEngine()
>>> retriever = MemoriRetriever(engine=engine, entity_id="user-1", k=5)
>>> memory_only = MemoriQueryEngine.from_args(retriever, llm=llm)
>>> documents_and_memory = index.as_query_engine(node_postprocessors=[MemoriMemoryPostprocessor(engine=engine, entity_id="user-1")])
>>> reranker = MemoriHybridPostprocessor(k=5, config=RecallConfig())
>>> memory = Memory.from_defaults(session_id="s1", memory_blocks=[MemoriMemoryBlock(engine=engine, entity_id="user-1")])
>>> agent = FunctionAgent(llm=llm, tools=MemoriToolSpec(engine=engine, entity_id="user-1").to_tool_list())
>>> capturing = MemoriMemoryBlock(engine=engine, entity_id="user-1", capture=True, extractor=LLMFactExtractor(llm))

``RecallEngine``, ``RecallConfig`` and ``ChromaStore`` are :mod:`memori_core`'s, re-exported for convenience.
"""

from memori_core.extras import require_framework

require_framework("memori_llamaindex", "llamaindex", ("llama_index.core",))

# The framework is there: these imports need it.
from memori_core import ChromaStore, RecallConfig, RecallEngine
from memori_core.extraction import RuleBasedFactExtractor

from .extractor import LLMFactExtractor
from .judge import llm_judge
from .memory_block import MemoriMemoryBlock
from .memory_nodes import MemoriMemoryPostprocessor
from .postprocessor import MemoriHybridPostprocessor
from .query_engine import MemoriQueryEngine
from .retriever import MemoriRetriever
from .tools import MemoriToolSpec

__all__ = [
    "ChromaStore",
    "LLMFactExtractor",
    "MemoriHybridPostprocessor",
    "MemoriMemoryBlock",
    "MemoriMemoryPostprocessor",
    "MemoriQueryEngine",
    "MemoriRetriever",
    "MemoriToolSpec",
    "RecallConfig",
    "RecallEngine",
    "RuleBasedFactExtractor",
    "llm_judge",
]
