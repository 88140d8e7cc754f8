"""memori-recall for LangChain and LangGraph: long-term memory in the system prompt.

>>> from memori_langchain import MemoriRetriever, MemoriContextInjector, MemoriMiddleware
>>> retriever = MemoriRetriever(engine=engine, entity_id="user-1", k=5)
>>> chain = prompt | MemoriContextInjector(engine=engine, entity_id="user-1") | model
>>> agent = create_agent(model, tools, middleware=[MemoriMiddleware(engine=engine, entity_id="user-1")])
>>> agent = create_agent(model, tools=memory_tools(engine))  # the agent remembers, recalls, forgets itself
>>> capture = MemoriMiddleware(engine=engine, capture=True, extractor=LLMFactExtractor(small_model))
>>> agent = create_agent(model, tools, store=MemoriStore(engine, namespace=("memories", "{user_id}")))
"""

from memori_core.extras import require_framework

require_framework("memori_langchain", "langchain", ("langchain_core", "langchain", "langgraph"))

# The framework is there: these imports need it.
from memori_core import ChromaStore, RecallEngine
from memori_core.extraction import RuleBasedFactExtractor

from ._messages import human_query_and_context, last_human_text, messages_with_block, system_with_block
from .extractor import LLMFactExtractor
from .graph import (
    MemoriCaptureNode,
    MemoriContext,
    MemoriState,
    memori_capture_node,
    memori_recall_node,
    with_memori_context,
)
from .injector import MemoriContextInjector
from .judge import chat_model_judge
from .middleware import MemoriMiddleware
from .retriever import MemoriRetriever, fact_to_document
from .store import MemoriStore
from .tools import memory_tools

__all__ = [
    "ChromaStore",
    "LLMFactExtractor",
    "MemoriCaptureNode",
    "MemoriContext",
    "MemoriContextInjector",
    "MemoriMiddleware",
    "MemoriRetriever",
    "MemoriState",
    "MemoriStore",
    "RecallEngine",
    "RuleBasedFactExtractor",
    "chat_model_judge",
    "fact_to_document",
    "human_query_and_context",
    "last_human_text",
    "memori_capture_node",
    "memori_recall_node",
    "memory_tools",
    "messages_with_block",
    "system_with_block",
    "with_memori_context",
]
