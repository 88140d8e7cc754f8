"""LangChain chain with long-term memory: `prompt | MemoriContextInjector | model`.

Runs offline: the local all-MiniLM-L6-v2 embeds the facts, an in-memory Chroma
store holds them, and LangChain's fake chat model stands in for a real one.
The callback prints exactly what the model was sent.

    python examples/langchain_chain.py
"""

from __future__ import annotations

from typing import Any

from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.prompts import ChatPromptTemplate

from memori_langchain import MemoriContextInjector, MemoriRetriever

from _demo_memory import demo_engine, show_model_view  # the examples' users, and how they print


class ShowPrompt(BaseCallbackHandler):
    """Print the messages each chat model call receives."""

    def on_chat_model_start(self, serialized: Any, messages: list[list[Any]], **kwargs: Any) -> None:
        show_model_view(messages[0])


def main() -> None:
    engine = demo_engine()  # Alice's facts (and Bob's) in an in-memory store, embedded by the local MiniLM

    prompt = ChatPromptTemplate.from_messages([
        ("system", "You are a helpful cooking assistant."),
        ("human", "{question}"),
    ])
    model = GenericFakeChatModel(messages=iter(["How about a chickpea curry (no peanuts)?"]))

    # The three lines: an injector in the chain, the user's id in the run config.
    chain = prompt | MemoriContextInjector(engine=engine) | model
    config = {"configurable": {"entity_id": "alice"}, "callbacks": [ShowPrompt()]}
    # An implicit need: the question never names the allergy. MiniLM scores the two at cosine 0.11, but a
    # personal food question keeps the user's care facts (allergies, diets, medication): the gate's care signal.
    answer = chain.invoke({"question": "What should I make for dinner tonight?"}, config)
    print("model answered:", answer.content)

    # The same memory as a plain retriever (Documents with scores in their metadata).
    retriever = MemoriRetriever(engine=engine, entity_id="alice", k=2)
    for doc in retriever.invoke("Am I allergic to anything?"):
        print(f"retrieved: {doc.page_content} (rank_score={doc.metadata['rank_score']:.3f})")


if __name__ == "__main__":
    main()
