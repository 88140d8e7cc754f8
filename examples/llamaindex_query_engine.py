"""LlamaIndex query engines with memori-recall.

1. ``MemoriRetriever``: a ``RetrieverQueryEngine`` that answers from one user's stored facts.
2. ``MemoriHybridPostprocessor``: memori's BM25 + fusion re-rank behind an ordinary ``VectorStoreIndex``.

Runs offline: the local all-MiniLM-L6-v2 embeds, an in-memory Chroma store holds
the facts, and LlamaIndex's ``MockLLM`` stands in for a real model. ``MockLLM``
answers with the prompt it was given, so each answer printed below is exactly
what the model saw. Swap in a real LLM (``llm=OpenAI(...)``) for real answers.

    python examples/llamaindex_query_engine.py
"""

from __future__ import annotations

from llama_index.core import VectorStoreIndex
from llama_index.core.llms.mock import MockLLM
from llama_index.core.query_engine import RetrieverQueryEngine
from llama_index.core.schema import TextNode

from memori_core import ChromaStore, RecallConfig, RecallEngine
from memori_llamaindex import MemoriHybridPostprocessor, MemoriRetriever

from _minilm_embedding import MiniLMEmbedding  # the local MiniLM for the index (an app: its own embedding model)


def banner(title: str) -> None:
    print(f"\n=== {title} ===")


def retriever_query_engine(engine: RecallEngine) -> None:
    retriever = MemoriRetriever(engine=engine, entity_id="alice", k=3)
    query_engine = RetrieverQueryEngine.from_args(retriever, llm=MockLLM())

    question = "What should I cook for dinner tonight? Remember what I am allergic to."
    response = query_engine.query(question)
    banner(f"RetrieverQueryEngine for alice: {question}")
    for node in response.source_nodes:
        meta = node.node.metadata
        print(f"  recalled {node.node.get_content()!r}  score={node.score:.3f} "
              f"(cosine={meta['cosine']:.3f}, lexical={meta['lexical']:.3f})")
    print("--- what the LLM saw ---")
    print(str(response).strip())


def reranked_vector_index(engine: RecallEngine) -> None:
    notes = [
        "Kestrel is the codename of the billing service rewrite.",
        "Heron is the codename of the search rewrite.",
        "The billing service sends invoices every night.",
        "The payments team owns invoices and refunds.",
        "Billing incidents are tracked in the ops channel.",
    ]
    index = VectorStoreIndex(
        nodes=[TextNode(text=t) for t in notes], embed_model=MiniLMEmbedding(engine.embedder)
    )
    question = "what is Kestrel?"
    plain = index.as_retriever(similarity_top_k=5).retrieve(question)
    # Fuses each node's vector score with BM25 over the retrieved texts, keeps the best 3
    # that pass the relevance threshold.
    reranker = MemoriHybridPostprocessor(k=3, config=RecallConfig())
    query_engine = index.as_query_engine(llm=MockLLM(), similarity_top_k=5, node_postprocessors=[reranker])
    response = query_engine.query(question)

    banner(f"VectorStoreIndex + MemoriHybridPostprocessor: {question!r}")
    print("  vector retriever returned:")
    for n in plain:
        print(f"    {n.score:.3f}  {n.node.get_content()}")
    print("  after MemoriHybridPostprocessor (fused score, threshold applied):")
    for n in response.source_nodes:
        print(f"    {n.score:.3f}  {n.node.get_content()}")
    print("--- what the LLM saw ---")
    print(str(response).strip())


def main() -> None:
    engine = RecallEngine(store=ChromaStore.in_memory())  # local MiniLM embedder, in-memory Chroma
    engine.add(
        "alice",
        ["User is allergic to peanuts.", "User is vegetarian.", "User lives in Lisbon.", "User plays the cello."],
        created_at="2026-05-01T09:30:00Z",
    )
    engine.add("bob", ["User is allergic to shellfish.", "User loves steak."], created_at="2026-06-12T18:05:00Z")

    retriever_query_engine(engine)
    reranked_vector_index(engine)


if __name__ == "__main__":
    main()
