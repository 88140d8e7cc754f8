"""memori-recall for LangChain and LangGraph: long-term memory in the system prompt.

>>> from memori_langchain import MemoriRetriever, MemoriContextInjector, MemoriMiddleware
>>> retriever = MemoriRetriever(engine=engine, entity_id="user-1", k=5)
>>> chain = prompt | MemoriContextInjector(engine=engine, entity_id="user-1") | model
>>> agent = create_agent(model, tools, middleware=[MemoriMiddleware(engine=engine, entity_id="user-1")])
"""

from memori_core import ChromaStore, RecallEngine

from ._messages import last_human_text, messages_with_block, system_with_block
from .graph import MemoriState, memori_recall_node, with_memori_context
from .injector import MemoriContextInjector
from .middleware import MemoriMiddleware
from .retriever import MemoriRetriever, fact_to_document

__all__ = [
    "ChromaStore",
    "MemoriContextInjector",
    "MemoriMiddleware",
    "MemoriRetriever",
    "MemoriState",
    "RecallEngine",
    "fact_to_document",
    "last_human_text",
    "memori_recall_node",
    "messages_with_block",
    "system_with_block",
    "with_memori_context",
]
