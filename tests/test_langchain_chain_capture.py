"""Capture in a plain LCEL chain (``prompt | MemoriContextInjector | model``, then ``memori_capture_node`` on the
conversation), as the README's Chains section shows: the captured facts keep the chain's conversation as their
session, so the chain injects what ``MemoriMiddleware`` injects for the same conversation (issue 20's tester)."""

from __future__ import annotations

import itertools
import warnings

import pytest
from langchain.agents import create_agent
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage
from langchain_core.prompts import ChatPromptTemplate, MessagesPlaceholder
from langgraph.checkpoint.memory import InMemorySaver

from _langchain_fakes import RecordingChatModel
from memori_core import ChromaStore, RecallEngine
from memori_langchain import MemoriContextInjector, MemoriMiddleware, memori_capture_node

SYSTEM = "You are a helpful assistant."
PROMPT = ChatPromptTemplate.from_messages([("system", SYSTEM), MessagesPlaceholder("history"), ("human", "{question}")])


def endless_replies() -> RecordingChatModel:
    return RecordingChatModel(messages=itertools.repeat(AIMessage(content="Here is my suggestion.")))


def block_lines(call: list[BaseMessage]) -> list[str]:
    """The facts of the memory block one model call was sent, in the order the model reads them (without their
    "Stated at" times: the two apps capture the same turns a few seconds apart)."""
    text = "\n".join(m.text for m in call if m.type == "system")
    return [line.split(" Stated at ")[0] for line in text.splitlines() if line.startswith("- ")]


def test_capture_node_in_a_chain_takes_the_session_id_runnable_with_message_history_names(
        engine: RecallEngine) -> None:
    from langchain_core.chat_history import InMemoryChatMessageHistory
    from langchain_core.runnables.history import RunnableWithMessageHistory

    histories: dict[str, InMemoryChatMessageHistory] = {}

    def history_of(session_id: str) -> InMemoryChatMessageHistory:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)  # LangChain deprecates it; apps still run it
            return histories.setdefault(session_id, InMemoryChatMessageHistory())

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        chat = RunnableWithMessageHistory(PROMPT | MemoriContextInjector(engine=engine) | endless_replies(),
                                          history_of, input_messages_key="question", history_messages_key="history")
    capture = memori_capture_node(engine)
    config = {"configurable": {"session_id": "chat-7", "user_id": "maya"}}
    chat.invoke({"question": "We just adopted a kitten called Mochi."}, config)
    capture.invoke({"messages": history_of("chat-7").messages}, config)
    capture.flush()

    facts = engine.list("maya")
    assert [f.content for f in facts] == ["User recently adopted a kitten called Mochi."]
    assert facts[0].session_id == "chat-7"
    assert facts[0].metadata["thread_id"] == "chat-7"


def test_the_config_thread_id_wins_over_its_session_id(engine: RecallEngine) -> None:
    capture = memori_capture_node(engine)
    config = {"configurable": {"thread_id": "t-1", "session_id": "s-1", "user_id": "maya"}}
    capture.invoke({"messages": [HumanMessage("I drive a 2015 Honda Jazz."), AIMessage("Nice.")]}, config)
    capture.flush()
    assert [f.session_id for f in engine.list("maya")] == ["t-1"]


# A conversation where the session decides what the last turn gets: captured without one, the kitten told three
# turns before (cosine 0.13 to the alarm question) loses the bonus it borrows from its session's facts and drops
# out of the block, so a chain would inject other facts than the middleware (measured with the MiniLM).
STORED = [
    "User works as an ICU nurse on twelve-hour night shifts.", "User has a beagle called Biscuit.",
    "User lives in Manchester.", "User commutes by bike, about 25 minutes each way.",
    "User runs the 5 km parkrun on Saturdays.", "User is flying to Lisbon on 14 March for a week.",
]
TURNS = [
    "Actually I moved to Leeds last month.",
    "Any good running clubs near me?",
    "We just adopted a kitten called Mochi.",
    "Will Biscuit get along with the kitten?",
    "I've started a new job as a clinic nurse, day shifts only.",
    "What time should I set my alarm for work?",
]


def fresh_engine(minilm) -> RecallEngine:
    engine = RecallEngine(store=ChromaStore.in_memory(), embedder=minilm)
    engine.add("maya", STORED, created_at="2026-05-01T09:30:00Z")
    return engine


def chain_injections(minilm) -> list[list[str]]:
    engine = fresh_engine(minilm)
    model = endless_replies()
    chain = PROMPT | MemoriContextInjector(engine=engine) | model
    capture = memori_capture_node(engine)
    config = {"configurable": {"user_id": "maya", "thread_id": "maya-news"}}
    history: list[BaseMessage] = []
    for question in TURNS:
        reply = chain.invoke({"history": history, "question": question}, config)
        history += [HumanMessage(question), reply]
        capture.invoke({"messages": history}, config)
        capture.flush()
    return [block_lines(call) for call in model.calls]


def agent_injections(minilm) -> list[list[str]]:
    engine = fresh_engine(minilm)
    model = endless_replies()
    memori = MemoriMiddleware(engine=engine, capture=True)
    agent = create_agent(model, tools=[], system_prompt=SYSTEM, middleware=[memori], checkpointer=InMemorySaver())
    config = {"configurable": {"user_id": "maya", "thread_id": "maya-news"}}
    for question in TURNS:
        agent.invoke({"messages": [("human", question)]}, config)
        memori.flush()
    return [block_lines(call) for call in model.calls]


@pytest.mark.slow
def test_a_chain_capturing_with_its_thread_injects_what_the_middleware_injects(minilm) -> None:
    chain, agent = chain_injections(minilm), agent_injections(minilm)
    assert len(chain) == len(agent) == len(TURNS)
    assert chain == agent
    assert any("clinic nurse" in line for line in chain[-1])  # the turn captured two turns back reaches the block
