"""A LlamaIndex query engine over documents that also knows its user.

1. ``MemoriMemoryPostprocessor`` in ``index.as_query_engine(node_postprocessors=[...])``: the user's relevant
   stored facts go into the prompt beside the document chunks, marked as memory; an off-topic question gets
   the documents alone.
2. ``MemoriQueryEngine``: a query engine over the user's memory only, which still answers (without memory)
   when no stored fact is relevant, where a plain ``RetrieverQueryEngine`` answers ``Empty Response``.

Runs offline: the local all-MiniLM-L6-v2 embeds both the facts and the documents, an in-memory
Chroma store holds the facts, and LlamaIndex's ``MockLLM`` stands in for a real model. ``MockLLM``
answers with the prompt it was given, so each answer printed below is exactly what the model saw.
Swap in a real LLM (``llm=OpenAI(...)``) for real answers.

    python examples/llamaindex_documents_and_memory.py
"""

from __future__ import annotations

from llama_index.core import VectorStoreIndex
from llama_index.core.llms.mock import MockLLM
from llama_index.core.query_engine import RetrieverQueryEngine
from llama_index.core.schema import TextNode

from memori_core import ChromaStore, RecallEngine
from memori_llamaindex import MemoriMemoryPostprocessor, MemoriQueryEngine, MemoriRetriever

from _minilm_embedding import MiniLMEmbedding  # the local MiniLM for the index (an app: its own embedding model)

MENU = [
    "The pad thai is stir-fried rice noodles with tamarind, egg and crushed peanuts.",
    "The green curry is made with coconut milk, tofu, Thai basil and bamboo shoots.",
    "The grilled prawns come with a lime and chilli dipping sauce.",
    "The satay skewers are served with a rich peanut sauce.",
    "The restaurant is open from noon until 10 pm, and closed on Mondays.",
]


def banner(title: str) -> None:
    print(f"\n=== {title} ===")


def documents_and_memory(engine: RecallEngine, index: VectorStoreIndex) -> None:
    memory = MemoriMemoryPostprocessor(engine=engine, entity_id="alice", k=3)
    for user, question in [
        ("alice", "Which dishes should I avoid because of my allergy?"),
        ("bob", "Which dishes should I avoid because of my allergy?"),
        ("alice", "What time does the restaurant close?"),
    ]:
        # One query engine per request: the entity is fixed per postprocessor (with_entity copies the settings).
        query_engine = index.as_query_engine(llm=MockLLM(), similarity_top_k=3,
                                             node_postprocessors=[memory.with_entity(user)])
        response = query_engine.query(question)
        banner(f"{user} asks the menu: {question}")
        for n in response.source_nodes:
            kind = "memory  " if n.node.metadata.get("memori_memory") else "document"
            print(f"  {kind} {n.score:.3f}  {n.node.get_content()}")
        print("--- what the LLM saw ---")
        print(str(response).strip())


def memory_only(engine: RecallEngine) -> None:
    retriever = MemoriRetriever(engine=engine, entity_id="alice")
    question = "What is the capital of Australia?"
    banner(f"memory only, nothing relevant stored: {question}")
    print("RetrieverQueryEngine:", RetrieverQueryEngine.from_args(retriever, llm=MockLLM()).query(question))
    answer = MemoriQueryEngine.from_args(retriever, llm=MockLLM()).query(question)
    print("MemoriQueryEngine, the LLM saw:", str(answer).strip())


def main() -> None:
    engine = RecallEngine(store=ChromaStore.in_memory())  # local MiniLM embedder, in-memory Chroma
    engine.add("alice", ["User is allergic to peanuts.", "User is vegetarian.", "User plays the cello."],
               created_at="2026-05-01T09:30:00Z")
    engine.add("bob", ["User is allergic to shellfish.", "User loves spicy food."], created_at="2026-06-12T18:05:00Z")
    index = VectorStoreIndex([TextNode(text=t) for t in MENU], embed_model=MiniLMEmbedding(engine.embedder))

    documents_and_memory(engine, index)
    memory_only(engine)


if __name__ == "__main__":
    main()
