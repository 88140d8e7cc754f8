"""Capture with fact extraction in real LangChain agents and LangGraph graphs, driven by LangChain's fake models."""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Sequence
from typing import Any

import pytest
from langchain.agents import create_agent
from langchain_core.language_models.fake_chat_models import FakeListChatModel, GenericFakeChatModel
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage
from langchain_core.tools import tool
from langgraph.checkpoint.memory import InMemorySaver

from _extractors import Exploding, Gate
from _faults import Faults, break_store
from _helpers import stored
from _langchain_fakes import HeldChatModel, recall_model_capture_graph, replies
from memori_core import ExtractedFact, RecallEngine, RuleBasedFactExtractor, capture_facts, unnormalized_entity_ids
from memori_core.context import CLOSE_TAG, OPEN_TAG
from memori_core.extraction import KnownFact, MessageLike, as_messages
from memori_langchain import LLMFactExtractor, MemoriMiddleware, memori_capture_node


def block_lines(system_text: str) -> list[str]:
    """The fact lines of the memori block in a system prompt ([] when there is no block)."""
    if OPEN_TAG not in system_text:
        return []
    inner = system_text.split(OPEN_TAG, 1)[1].split(CLOSE_TAG, 1)[0]
    return [line for line in inner.splitlines() if line.startswith("- ")]


CONVERSATION = [
    "Hi there!",
    "I'm training for a marathon. What should I eat before my run?",
    "Can you write me a short poem about running?",
    "Thanks! My daughter Mia starts school in September.",
    "Please summarise our chat.",
    "I think you should use shorter answers.",
    "If I were faster I would run in Boston.",
]


# -- MemoriMiddleware ----------------------------------------------------------


def test_agent_capture_stores_statements_as_user_facts_and_never_questions(ungated: RecallEngine) -> None:
    model = replies(*["ok"] * (len(CONVERSATION) + 1))
    middleware = MemoriMiddleware(engine=ungated, entity_id="ann", capture=True)
    agent = create_agent(model, [], system_prompt="You are a coach.", checkpointer=InMemorySaver(),
                         middleware=[middleware])
    cfg = {"configurable": {"thread_id": "t-1"}}
    for turn in CONVERSATION:
        agent.invoke({"messages": [HumanMessage(turn)]}, cfg)
        assert middleware.flush()

    assert stored(ungated, "ann") == [
        "User is training for a marathon.", "User's daughter Mia starts school in September."
    ]
    facts = ungated.explain("marathon daughter", "ann", limit=10).candidates
    assert all(f.metadata["source"] == "langchain" and f.metadata["thread_id"] == "t-1" for f in facts)
    assert all(f.metadata["session_id"] == "t-1" and f.metadata["role"] == "user" for f in facts)

    # A later prompt's block holds the facts, and no question.
    agent.invoke({"messages": [HumanMessage("Any snack ideas for the marathon?")]}, cfg)
    lines = block_lines(model.system_texts()[-1])
    assert any("User is training for a marathon." in line for line in lines)
    assert lines and all("?" not in line for line in lines)


def test_capture_does_not_delay_the_answer(ungated: RecallEngine) -> None:
    gate = Gate()
    middleware = MemoriMiddleware(engine=ungated, entity_id="ann", capture=True, extractor=gate)
    agent = create_agent(replies("Here you go."), [], middleware=[middleware])
    result = agent.invoke({"messages": [HumanMessage("I keep bees on my roof.")]})
    # The answer is back while the extractor is still waiting: capture did not block it.
    assert result["messages"][-1].content == "Here you go."
    assert gate.entered.wait(30)
    assert middleware.pending_captures == 1 and ungated.count("ann") == 0
    gate.opened.set()
    assert middleware.flush()
    assert stored(ungated, "ann") == ["User keeps bees on their roof."]


async def stored_once_released(gate: Gate, capturer: Any, engine: RecallEngine) -> list[str]:
    """With the one capture of ``capturer`` (middleware or capture node) held by ``gate`` while the answer came
    back: release it, wait for it (``aflush``), and return what is stored for ann."""
    assert capturer.pending_captures == 1
    gate.opened.set()
    assert await capturer.aflush()
    return stored(engine, "ann")


async def test_async_agent_capture_does_not_delay_the_answer(ungated: RecallEngine) -> None:
    gate = Gate()
    middleware = MemoriMiddleware(engine=ungated, entity_id="ann", capture=True, extractor=gate)
    agent = create_agent(replies("Sure."), [], middleware=[middleware])
    result = await agent.ainvoke({"messages": [HumanMessage("I work as a nurse.")]})
    assert result["messages"][-1].content == "Sure."
    assert await stored_once_released(gate, middleware, ungated) == ["User works as a nurse."]


def test_a_failing_extractor_logs_one_warning_and_the_answer_arrives(
    ungated: RecallEngine, caplog: pytest.LogCaptureFixture
) -> None:
    middleware = MemoriMiddleware(engine=ungated, entity_id="ann", capture=True, extractor=Exploding())
    agent = create_agent(replies("Answer."), [], middleware=[middleware])
    with caplog.at_level(logging.WARNING, logger="memori_langchain"):
        result = agent.invoke({"messages": [HumanMessage("I play the cello.")]})
        assert middleware.flush()
    assert result["messages"][-1].content == "Answer."
    assert [r.getMessage() for r in caplog.records] == [
        "MemoriMiddleware: capture failed for entity 'ann' (RuntimeError: extractor exploded); "
        "continuing without memory"
    ]


def test_a_failing_store_logs_a_capture_warning_and_the_answer_arrives(
    ungated: RecallEngine, caplog: pytest.LogCaptureFixture
) -> None:
    middleware = MemoriMiddleware(engine=ungated, entity_id="ann", capture=True)
    agent = create_agent(replies("Answer."), [], middleware=[middleware])
    break_store(ungated)
    with caplog.at_level(logging.WARNING, logger="memori_langchain"):
        result = agent.invoke({"messages": [HumanMessage("I play the cello.")]})
        assert middleware.flush()
    assert result["messages"][-1].content == "Answer."
    capture_warnings = [r for r in caplog.records if "capture failed for entity 'ann'" in r.getMessage()]
    assert len(capture_warnings) == 1


def test_strict_capture_failure_surfaces_at_flush_or_the_next_call(ungated: RecallEngine) -> None:
    middleware = MemoriMiddleware(engine=ungated, entity_id="ann", capture=True, strict=True, extractor=Exploding())
    agent = create_agent(replies("one", "two", "three"), [], middleware=[middleware])
    result = agent.invoke({"messages": [HumanMessage("I play the cello.")]})
    assert result["messages"][-1].content == "one"  # the answer is not taken back
    with pytest.raises(RuntimeError, match="extractor exploded"):
        middleware.flush()
    agent.invoke({"messages": [HumanMessage("I play the drums.")]})
    assert middleware._captures._wait(None)  # noqa: SLF001 - wait without raising, to test the next call
    with pytest.raises(RuntimeError, match="extractor exploded"):
        agent.invoke({"messages": [HumanMessage("hello")]})


def test_the_bound_drops_captures_with_a_warning_and_answers_keep_coming(
    ungated: RecallEngine, caplog: pytest.LogCaptureFixture
) -> None:
    gate = Gate()
    middleware = MemoriMiddleware(engine=ungated, entity_id="ann", capture=True, extractor=gate,
                                  max_pending_captures=1)
    agent = create_agent(replies("a1", "a2", "a3"), [], middleware=[middleware])
    with caplog.at_level(logging.WARNING, logger="memori_langchain"):
        answers = [agent.invoke({"messages": [HumanMessage(t)]})["messages"][-1].content
                   for t in ("I have a dog.", "I have a cat.", "I have a parrot.")]
    assert answers == ["a1", "a2", "a3"]
    assert middleware.pending_captures == 1
    assert sum("capture dropped" in r.getMessage() for r in caplog.records) == 2
    assert middleware.capture_stats.dropped == 2  # countable by the app, not only logged
    gate.opened.set()
    done = middleware.flush()
    assert done and (done.completed, done.dropped) == (1, 2)
    assert stored(ungated, "ann") == ["User has a dog."]


def test_a_turn_being_answered_when_the_user_is_forgotten_is_not_captured(ungated: RecallEngine) -> None:
    # A tester's service: the model was answering "I live in Lyon and my phone number is ..." when another
    # request forgot the user; the capture, submitted once the model had answered, stored both facts again.
    model = HeldChatModel(messages=iter(["ok", "ok"]))
    middleware = MemoriMiddleware(engine=ungated, entity_id="alice", capture=True)
    agent = create_agent(model, [], middleware=[middleware])
    ungated.add("alice", ["User is allergic to peanuts."])
    turn = threading.Thread(target=agent.invoke, args=(
        {"messages": [HumanMessage("I live in Lyon and my phone number is 0612345678.")]},))
    turn.start()
    assert model.answering.wait(30)
    ungated.forget("alice")
    model.released.set()
    turn.join(30)
    done = middleware.flush(timeout=30)
    assert done and done.erased == 1 and ungated.count("alice") == 0
    agent.invoke({"messages": [HumanMessage("I keep bees.")]})  # a turn after the forget is captured
    assert middleware.flush(timeout=30) and stored(ungated, "alice") == ["User keeps bees."]


async def test_an_async_turn_being_answered_during_aforget_is_not_captured(ungated: RecallEngine) -> None:
    model = HeldChatModel(messages=iter(["ok"]))
    middleware = MemoriMiddleware(engine=ungated, capture=True)
    agent = create_agent(model, [], middleware=[middleware])
    answered = asyncio.create_task(agent.ainvoke(
        {"messages": [HumanMessage("I live in Lyon and my phone number is 0612345678.")]},
        {"configurable": {"entity_id": "alice"}}))
    assert await asyncio.to_thread(model.answering.wait, 30)
    await ungated.aforget("alice")
    model.released.set()
    await answered
    done = await middleware.aflush(timeout=30)
    assert done and done.erased == 1 and ungated.count("alice") == 0


def test_facts_captured_from_the_turn_being_answered_are_not_injected_into_its_tool_loop(
    ungated: RecallEngine,
) -> None:
    from langchain_core.tools import tool

    gate = Gate()

    @tool
    def wait_for_capture(item: str) -> str:
        """Look something up."""
        gate.opened.set()
        middleware.flush()  # the turn's facts are stored before the second model call
        return "found"

    model = replies(
        AIMessage(content="", tool_calls=[{"name": "wait_for_capture", "args": {"item": "x"}, "id": "c1"}]),
        AIMessage(content="done"),
    )
    middleware = MemoriMiddleware(engine=ungated, entity_id="ann", capture=True, extractor=gate)
    ungated.add("ann", ["User likes tea."])
    agent = create_agent(model, [wait_for_capture], middleware=[middleware])
    agent.invoke({"messages": [HumanMessage("I am vegan. I have run three marathons.")]})
    assert stored(ungated, "ann") == ["User has run three marathons.", "User is vegan.", "User likes tea."]
    # The second model call of the turn comes after its facts were stored: they are left out of its block.
    assert all("vegan" not in line and "marathons" not in line for line in block_lines(model.system_texts()[1]))
    assert any("tea" in line for line in block_lines(model.system_texts()[1]))


# -- LLMFactExtractor -------------------------------------------------------------


def test_the_llm_extractors_reply_is_not_streamed_to_the_user_as_the_agents(ungated: RecallEngine) -> None:
    # The capture runs on a capture thread while the agent's run goes on (a tool call): its extractor model call
    # must not become part of that run, or stream_mode="messages" hands its reply to the user as the agent's.
    extractor_model = GenericFakeChatModel(messages=iter(['["User lives in Porto (EXTRACTED)."]']))
    middleware = MemoriMiddleware(engine=ungated, entity_id="ann", capture=True,
                                  extractor=LLMFactExtractor(extractor_model))

    @tool
    def look_up_weather() -> str:
        """The weather where the user lives."""
        assert middleware.flush(timeout=30)  # the capture ran while the agent's run is still going
        return "sunny"

    model = replies(AIMessage("", tool_calls=[{"name": "look_up_weather", "args": {}, "id": "c1"}]), "It's sunny.")
    agent = create_agent(model, [look_up_weather], middleware=[middleware])
    streamed = [chunk.text for chunk, _ in agent.stream({"messages": [HumanMessage("I live in Porto.")]},
                                                        stream_mode="messages")]
    assert "It's sunny." in streamed and not any("EXTRACTED" in text for text in streamed)
    assert stored(ungated, "ann") == ["User lives in Porto (EXTRACTED)."]


def test_an_agent_inside_unnormalized_entity_ids_captures_under_the_id_it_allows(ungated: RecallEngine) -> None:
    nfd = "jose\u0301"  # an id an earlier version stored facts under; refused outside the block
    middleware = MemoriMiddleware(engine=ungated, capture=True)
    agent = create_agent(replies("ok"), [], middleware=[middleware])
    with unnormalized_entity_ids():
        agent.invoke({"messages": [HumanMessage("I live in Porto.")]}, {"configurable": {"entity_id": nfd}})
    done = middleware.flush(timeout=30)
    assert done and done.completed == 1 and done.failed == 0
    with unnormalized_entity_ids():
        assert stored(ungated, nfd) == ["User lives in Porto."]


def test_llm_extractor_parses_the_fake_models_fenced_reply() -> None:
    model = FakeListChatModel(responses=['```json\n[{"fact": "User is vegan.", "supersedes": []}]\n```'])
    assert LLMFactExtractor(model).extract([HumanMessage("I'm vegan now, what should I cook?")]) == [
        ExtractedFact("User is vegan.")
    ]


async def test_llm_extractor_async_with_generic_fake_model() -> None:
    model = GenericFakeChatModel(messages=iter([AIMessage(content='[{"fact": "User has a cat named Miso."}]')]))
    facts = await LLMFactExtractor(model).aextract([("user", "We adopted a cat, Miso.")])
    assert facts == [ExtractedFact("User has a cat named Miso.")]


def test_llm_extractor_malformed_reply_gives_no_facts() -> None:
    model = FakeListChatModel(responses=["I am sorry, I cannot help with that. [{"])
    assert LLMFactExtractor(model).extract([("user", "I moved to Porto.")]) == []
    with pytest.raises(TypeError):
        LLMFactExtractor("not a model")  # type: ignore[arg-type]


def test_agent_capture_with_the_llm_extractor_supersedes_only_the_users_own_facts(ungated: RecallEngine) -> None:
    [lisbon] = ungated.add("ann", ["User lives in Lisbon."])
    [bobs] = ungated.add("bob", ["User lives in Lisbon."])
    llm = replies(f'```json\n[{{"fact": "User lives in Porto.", "supersedes": ["F1", "{bobs}", "F7"]}}]\n```')
    middleware = MemoriMiddleware(engine=ungated, entity_id="ann", capture=True, extractor=LLMFactExtractor(llm))
    agent = create_agent(replies("Welcome to Porto!"), [], middleware=[middleware])
    agent.invoke({"messages": [HumanMessage("I moved to Porto last week, any cafe tips?")]})
    assert middleware.flush()
    [prompt] = llm.prompts
    assert "F1: User lives in Lisbon." in prompt and "user: I moved to Porto last week, any cafe tips?" in prompt
    assert lisbon not in prompt
    assert stored(ungated, "ann") == ["User lives in Porto."]
    assert stored(ungated, "bob") == ["User lives in Lisbon."]  # another user's fact is never touched


def test_agent_capture_with_a_malformed_llm_reply_stores_nothing_and_logs_one_warning_line(
    ungated: RecallEngine, caplog: pytest.LogCaptureFixture
) -> None:
    llm = FakeListChatModel(responses=["Sure! Here are the facts: {fact: User moved}"])
    middleware = MemoriMiddleware(engine=ungated, entity_id="ann", capture=True, extractor=LLMFactExtractor(llm))
    agent = create_agent(replies("ok"), [], middleware=[middleware])
    with caplog.at_level(logging.WARNING):
        agent.invoke({"messages": [HumanMessage("I moved to Porto.")]})
        assert middleware.flush()
    assert ungated.count("ann") == 0
    [record] = [r for r in caplog.records if r.name.startswith("memori")]
    assert record.levelno == logging.WARNING and record.exc_info is None
    assert "{fact: User moved}" in record.getMessage()


def test_capture_stores_the_core_fact_of_a_python_literal_reply(ungated: RecallEngine) -> None:
    llm = FakeListChatModel(responses=["[{'fact': 'User is allergic to penicillin.', 'supersedes': [], 'core': True}]"])
    [fid] = capture_facts(ungated, "ann", [("user", "I'm allergic to penicillin")], LLMFactExtractor(llm))
    assert [(f.id, f.content) for f in ungated.list("ann", where={"core": True})] == [
        (fid, "User is allergic to penicillin.")
    ]


def test_capture_supersedes_the_fact_a_reply_names_by_its_text(ungated: RecallEngine) -> None:
    [vegetarian] = ungated.add("ann", ["User is vegetarian."], core=True)
    llm = FakeListChatModel(responses=['[{"fact": "User is pescatarian.", "supersedes": ["User is vegetarian."]}]'])
    capture_facts(ungated, "ann", [("user", "I eat fish now")], LLMFactExtractor(llm))
    assert [f.content for f in ungated.list("ann")] == ["User is pescatarian."]
    [old] = [f for f in ungated.list("ann", include_invalid=True) if f.id == vegetarian]
    assert old.valid_to is not None


def test_agent_capture_still_injects_a_fact_captured_in_another_thread_from_a_message_with_the_same_id(
    ungated: RecallEngine,
) -> None:
    # The front end numbers messages per conversation: both threads' first messages are "msg-1".
    model = replies("ok", "ok")
    middleware = MemoriMiddleware(engine=ungated, entity_id="ann", capture=True)
    agent = create_agent(model, [], checkpointer=InMemorySaver(), middleware=[middleware])
    agent.invoke({"messages": [HumanMessage("I'm allergic to shellfish.", id="msg-1")]},
                 {"configurable": {"thread_id": "a"}})
    assert middleware.flush()
    agent.invoke({"messages": [HumanMessage("Any seafood ideas for dinner?", id="msg-1")]},
                 {"configurable": {"thread_id": "b"}})
    assert any(line.startswith("- User is allergic to shellfish.") for line in block_lines(model.system_texts()[-1]))


# -- LangGraph: memori_capture_node ------------------------------------------------


def test_graph_capture_node_stores_statements_and_the_next_turn_recalls_them(ungated: RecallEngine) -> None:
    model = replies(*["ok"] * (len(CONVERSATION) + 1))
    capture = memori_capture_node(ungated, entity_id="ann")
    graph = recall_model_capture_graph(ungated, model, capture)
    cfg = {"configurable": {"thread_id": "g-1"}}
    for turn in CONVERSATION:
        state = graph.invoke({"messages": [HumanMessage(turn)]}, cfg)
        assert "memori_context" in state and state["messages"][-1].content == "ok"
    assert capture.flush()
    assert stored(ungated, "ann") == [
        "User is training for a marathon.", "User's daughter Mia starts school in September."
    ]
    meta = ungated.explain("marathon", "ann", limit=10).candidates[0].metadata
    assert meta["source"] == "langgraph" and meta["thread_id"] == "g-1" and meta["session_id"] == "g-1"
    graph.invoke({"messages": [HumanMessage("What should I eat before the marathon?")]}, cfg)
    lines = block_lines(model.system_texts()[-1])
    assert any("User is training for a marathon." in line for line in lines)
    assert all("?" not in line for line in lines)


async def test_graph_capture_node_async_does_not_delay_the_answer(ungated: RecallEngine) -> None:
    gate = Gate()
    capture = memori_capture_node(ungated, entity_id="ann", extractor=gate)
    graph = recall_model_capture_graph(ungated, replies("fine"), capture)
    state = await graph.ainvoke({"messages": [HumanMessage("I moved to Porto last month.")]},
                                {"configurable": {"thread_id": "g-2"}})
    assert state["messages"][-1].content == "fine"
    assert await stored_once_released(gate, capture, ungated) == ["User lives in Porto."]


def test_graph_capture_node_does_not_capture_a_turn_the_model_was_answering_when_the_user_was_forgotten(
    ungated: RecallEngine,
) -> None:
    model = HeldChatModel(messages=iter(["ok", "ok"]))
    capture = memori_capture_node(ungated, entity_id="ann")
    graph = recall_model_capture_graph(ungated, model, capture)
    cfg = {"configurable": {"thread_id": "g-forget"}}
    turn = threading.Thread(target=graph.invoke, args=({"messages": [HumanMessage("I moved to Porto.")]}, cfg))
    turn.start()
    assert model.answering.wait(30)  # the recall node saw the turn; the model is answering it
    ungated.forget("ann")
    model.released.set()
    turn.join(30)
    done = capture.flush(timeout=30)
    assert done and done.erased == 1 and ungated.count("ann") == 0
    graph.invoke({"messages": [HumanMessage("I keep bees.")]}, cfg)
    assert capture.flush(timeout=30) and stored(ungated, "ann") == ["User keeps bees."]


def test_graph_capture_node_captures_a_message_once(ungated: RecallEngine) -> None:
    seen: list[str] = []

    class Counting:
        uses_existing_facts = False

        def extract(self, messages: Sequence[MessageLike], existing: Sequence[KnownFact] = ()) -> list[ExtractedFact]:
            seen.append(as_messages(messages)[-1].text)
            return RuleBasedFactExtractor().extract(messages)

    capture = memori_capture_node(ungated, entity_id="ann", extractor=Counting())
    state = {"messages": [HumanMessage("I have two cats.", id="m-1"), AIMessage("Nice!")]}
    assert capture.invoke(state) == {}
    assert capture.invoke(state) == {}
    assert capture.flush()
    assert seen == ["I have two cats."]
    assert capture.invoke({"messages": []}) == {}


def test_graph_capture_node_captures_each_users_turn_when_their_front_ends_reuse_a_message_id(
    ungated: RecallEngine,
) -> None:
    # A chat front end numbering messages per conversation: alice and bob both send "msg-1".
    capture = memori_capture_node(ungated)
    graph = recall_model_capture_graph(ungated, replies("ok", "ok"), capture)
    graph.invoke({"messages": [HumanMessage("I'm allergic to shellfish.", id="msg-1")]},
                 {"configurable": {"entity_id": "alice", "thread_id": "a"}})
    graph.invoke({"messages": [HumanMessage("I'm allergic to peanuts.", id="msg-1")]},
                 {"configurable": {"entity_id": "bob", "thread_id": "b"}})
    assert capture.flush()
    assert stored(ungated, "alice") == ["User is allergic to shellfish."]
    assert stored(ungated, "bob") == ["User is allergic to peanuts."]


def test_graph_capture_node_captures_a_reused_message_id_in_a_users_second_thread(ungated: RecallEngine) -> None:
    capture = memori_capture_node(ungated, entity_id="ann")
    graph = recall_model_capture_graph(ungated, replies("ok", "ok"), capture)
    graph.invoke({"messages": [HumanMessage("I have two cats.", id="msg-1")]}, {"configurable": {"thread_id": "t-1"}})
    graph.invoke({"messages": [HumanMessage("I live in Porto.", id="msg-1")]}, {"configurable": {"thread_id": "t-2"}})
    assert capture.flush()
    assert stored(ungated, "ann") == ["User has two cats.", "User lives in Porto."]


def test_graph_capture_node_without_a_thread_captures_another_text_under_a_reused_message_id(
    ungated: RecallEngine,
) -> None:
    # No checkpointer, no thread id: the front end starts numbering again in a new conversation.
    capture = memori_capture_node(ungated, entity_id="ann")
    capture.invoke({"messages": [HumanMessage("I have two cats.", id="msg-1"), AIMessage("Nice!")]})
    capture.invoke({"messages": [HumanMessage("I live in Porto.", id="msg-1"), AIMessage("Nice!")]})
    assert capture.flush()
    assert stored(ungated, "ann") == ["User has two cats.", "User lives in Porto."]


def test_graph_capture_node_remembers_a_bounded_number_of_captured_turns(
    ungated: RecallEngine, monkeypatch: pytest.MonkeyPatch
) -> None:
    import memori_langchain._graph_turns as graph_module

    seen: list[str] = []

    class Counting:
        uses_existing_facts = False

        def extract(self, messages: Sequence[MessageLike], existing: Sequence[KnownFact] = ()) -> list[ExtractedFact]:
            seen.append(as_messages(messages)[-1].text)
            return []

    monkeypatch.setattr(graph_module, "CAPTURED_TURNS_KEPT", 2)
    capture = memori_capture_node(ungated, entity_id="ann", extractor=Counting())
    states = [{"messages": [HumanMessage(f"I have {n} cats.", id=f"m-{n}")]} for n in (1, 2, 3)]
    for state in [*states, states[2], states[0]]:
        capture.invoke(state)
        assert capture.flush()
    # m-3 is still remembered; m-1, the oldest of three, was forgotten and is captured again.
    assert seen == ["I have 1 cats.", "I have 2 cats.", "I have 3 cats.", "I have 1 cats."]


def test_graph_capture_node_captures_a_turn_whose_capture_was_dropped_when_it_runs_again(
    ungated: RecallEngine,
) -> None:
    gate = Gate()
    capture = memori_capture_node(ungated, entity_id="ann", extractor=gate, max_pending_captures=1)
    capture.invoke({"messages": [HumanMessage("I have two cats.", id="m-1")]})
    dropped = {"messages": [HumanMessage("I live in Porto.", id="m-2")]}
    capture.invoke(dropped)  # one capture pending already: this one is dropped
    gate.opened.set()
    assert capture.flush()
    capture.invoke(dropped)
    assert capture.flush()
    assert stored(ungated, "ann") == ["User has two cats.", "User lives in Porto."]


def test_graph_capture_node_releases_a_dropped_turns_claim_once(ungated: RecallEngine,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    # The capture released it (on_failure) and the node again for the same dropped capture.
    gate = Gate()
    capture = memori_capture_node(ungated, entity_id="ann", extractor=gate, max_pending_captures=1)
    released: list[Any] = []
    release = capture._captured.release
    monkeypatch.setattr(capture._captured, "release", lambda key: released.append(key) or release(key))
    capture.invoke({"messages": [HumanMessage("I have two cats.", id="m-1")]})
    capture.invoke({"messages": [HumanMessage("I live in Porto.", id="m-2")]})  # dropped: one pending already
    gate.opened.set()
    assert capture.flush()
    assert len(released) == 1 and capture.capture_stats.dropped == 1


RUN_FACTS = ["User commutes by bike.", "User is training for a half marathon.", "User plays the cello.",
             "User likes running in the park.", "User runs 5k every morning.", "User ran the Leeds 10k.",
             "User's running shoes are Asics.", "User lives in Leeds."]


def _injected_block(engine: RecallEngine, capture: bool, question: str, k: int) -> str:
    """The system prompt of the one model call a MemoriMiddleware(k, capture) agent makes for ``question``."""
    model = replies("ok")
    middleware = MemoriMiddleware(engine=engine, entity_id="ann", k=k, capture=capture)
    agent = create_agent(model, [], system_prompt="S.", middleware=[middleware])
    agent.invoke({"messages": [HumanMessage(question)]})
    middleware.flush()
    return model.system_texts()[0]


@pytest.mark.parametrize("capture", [False, True])
def test_middleware_injects_exactly_what_recall_returns_for_k_with_or_without_capture(
    engine: RecallEngine, capture: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    from memori_core.context import format_context

    engine.add("ann", RUN_FACTS)
    asked: list[Any] = []
    recall = engine.recall

    def recording_recall(query: str, entity_id: str, limit: Any = None, **kwargs: Any) -> Any:
        asked.append(limit)
        return recall(query, entity_id, limit, **kwargs)

    for question in ("Any tips for my run tomorrow morning?", "What running shoes should I buy?",
                     "Where should I run in Leeds?"):
        expected = format_context(engine.recall(question, "ann", 2), zone=engine.config.time_zone_label)
        monkeypatch.setattr(engine, "recall", recording_recall)
        system = _injected_block(engine, capture, question, k=2)
        monkeypatch.setattr(engine, "recall", recall)
        assert system == ("S.\n\n" + expected if expected else "S.")
    # The gate judges the top ``limit`` candidates: asking for more than k could change what passes.
    assert asked == [2, 2, 2]


@pytest.mark.model
def test_capture_on_and_off_inject_the_same_facts_where_the_gate_depends_on_the_limit(minilm: Any) -> None:
    from memori_core import ChromaStore

    engine = RecallEngine(store=ChromaStore.in_memory(), embedder=minilm)
    engine.add("ann", RUN_FACTS)
    question = "Any tips for my run tomorrow morning?"
    assert engine.recall(question, "ann", 2) != engine.recall(question, "ann", 6)[:2]  # the case this is about
    expected = [f.content for f in engine.recall(question, "ann", 2)]
    for capture in (False, True):
        lines = block_lines(_injected_block(engine, capture, question, k=2))
        assert [line[2:].split(" Stated at")[0] for line in lines] == expected


# -- LangGraph: a thread resumed by another graph instance (a restart) ----------------------------------------------


class Seen:
    """The rule-based extractor, keeping the user text of every turn it is given."""

    uses_existing_facts = False

    def __init__(self) -> None:
        self.turns: list[str] = []

    def extract(self, messages: Sequence[MessageLike], existing: Sequence[KnownFact] = ()) -> list[ExtractedFact]:
        self.turns.append(as_messages(messages)[-1].text)
        return RuleBasedFactExtractor().extract(messages)


def interrupted_tool_loop(engine: RecallEngine, model: Any, capture: Any, checkpointer: Any,
                          schema: Any = None) -> Any:
    """START -> recall -> model -> capture -> tools (interrupted before them) -> recall ..., or END without a tool
    call: the capture node runs before an interrupt, and again when the thread is resumed."""
    from langgraph.graph import END, START, StateGraph

    from memori_langchain import MemoriState, memori_recall_node, with_memori_context

    def call_model(state: Any) -> dict[str, Any]:
        return {"messages": [model.invoke(with_memori_context(state, "You are a guide."))]}

    def weather(state: Any) -> dict[str, Any]:
        call = state["messages"][-1].tool_calls[0]
        return {"messages": [ToolMessage("sunny", tool_call_id=call["id"])]}

    builder = StateGraph(schema or MemoriState)
    builder.add_node("memori", memori_recall_node(engine, entity_id="ann"))
    builder.add_node("model", call_model)
    builder.add_node("capture", capture)
    builder.add_node("tools", weather)
    builder.add_edge(START, "memori")
    builder.add_edge("memori", "model")
    builder.add_edge("model", "capture")
    builder.add_conditional_edges("capture", lambda s: "tools" if s["messages"][-1].tool_calls else END,
                                  ["tools", END])
    builder.add_edge("tools", "memori")
    return builder.compile(checkpointer=checkpointer, interrupt_before=["tools"])


def asks_for_weather() -> AIMessage:
    return AIMessage("", tool_calls=[{"name": "weather", "args": {}, "id": "call-1"}])


def times_seen(engine: RecallEngine, text: str) -> int:
    [fact] = [c for c in engine.explain(text, "ann", limit=20).candidates if c.content == text]
    return fact.metadata["times_seen"]


def test_a_thread_resumed_by_a_new_graph_instance_captures_only_its_new_turn(ungated: RecallEngine) -> None:
    saver, cfg = InMemorySaver(), {"configurable": {"thread_id": "t-restart"}}
    first = memori_capture_node(ungated, entity_id="ann")
    recall_model_capture_graph(ungated, replies("ok"), first, checkpointer=saver).invoke(
        {"messages": [HumanMessage("I live in Porto.")]}, cfg)
    assert first.flush(timeout=30)
    seen = Seen()  # the process restarted: a new graph and node over the same checkpointer
    second = memori_capture_node(ungated, entity_id="ann", extractor=seen)
    state = recall_model_capture_graph(ungated, replies("ok"), second, checkpointer=saver).invoke(
        {"messages": [HumanMessage("I have two cats.")]}, cfg)
    assert second.flush(timeout=30)
    assert len(state["messages"]) == 4  # the old turn is in the state the new node read
    assert seen.turns == ["I have two cats."]
    assert stored(ungated, "ann") == ["User has two cats.", "User lives in Porto."]
    assert times_seen(ungated, "User lives in Porto.") == 1


def test_a_thread_resumed_after_an_interrupt_by_a_new_graph_instance_does_not_capture_its_turn_again(
        ungated: RecallEngine) -> None:
    saver, cfg = InMemorySaver(), {"configurable": {"thread_id": "t-resume"}}
    first = memori_capture_node(ungated, entity_id="ann")
    interrupted_tool_loop(ungated, replies(asks_for_weather()), first, saver).invoke(
        {"messages": [HumanMessage("I live in Porto. What's the weather?")]}, cfg)
    assert first.flush(timeout=30) and stored(ungated, "ann") == ["User lives in Porto."]
    seen = Seen()
    second = memori_capture_node(ungated, entity_id="ann", extractor=seen)
    resumed = interrupted_tool_loop(ungated, replies("It's sunny.", "ok"), second, saver)
    assert resumed.invoke(None, cfg)["messages"][-1].content == "It's sunny."  # capture ran on the same turn
    assert second.flush(timeout=30)
    assert seen.turns == [] and second.capture_stats.submitted == 0
    assert times_seen(ungated, "User lives in Porto.") == 1
    resumed.invoke({"messages": [HumanMessage("I keep bees.")]}, cfg)  # a new turn is captured as always
    assert second.flush(timeout=30) and seen.turns == ["I keep bees."]


def test_resuming_a_forgotten_users_thread_elsewhere_does_not_store_its_turn_again(ungated: RecallEngine) -> None:
    saver, cfg = InMemorySaver(), {"configurable": {"thread_id": "t-forgot"}}
    first = memori_capture_node(ungated, entity_id="ann")
    interrupted_tool_loop(ungated, replies(asks_for_weather()), first, saver).invoke(
        {"messages": [HumanMessage("I live in Porto. What's the weather?")]}, cfg)
    assert first.flush(timeout=30)
    ungated.forget("ann")
    second = memori_capture_node(ungated, entity_id="ann")
    interrupted_tool_loop(ungated, replies("It's sunny."), second, saver).invoke(None, cfg)
    assert second.flush(timeout=30)
    assert ungated.count("ann") == 0


def test_the_node_whose_capture_of_a_turn_failed_captures_it_when_the_thread_comes_back_to_it(
        ungated: RecallEngine) -> None:
    saver, cfg = InMemorySaver(), {"configurable": {"thread_id": "t-retry"}}
    faults = Faults(ungated.store)
    faults.arm("upsert", times=1)  # the turn's capture fails (the store answered with an error)
    capture = memori_capture_node(ungated, entity_id="ann")
    graph = interrupted_tool_loop(ungated, replies(asks_for_weather(), "It's sunny."), capture, saver)
    graph.invoke({"messages": [HumanMessage("I live in Porto. What's the weather?")]}, cfg)
    assert capture.flush(timeout=30).failed == 1 and ungated.count("ann") == 0
    graph.invoke(None, cfg)  # the thread marks the turn captured, but this node knows its capture failed
    assert capture.flush(timeout=30).completed == 1
    assert stored(ungated, "ann") == ["User lives in Porto."]


def test_a_checkpointed_graph_whose_state_cannot_hold_the_capture_mark_warns_once(
        ungated: RecallEngine, caplog: pytest.LogCaptureFixture) -> None:
    from langgraph.graph import MessagesState

    capture = memori_capture_node(ungated, entity_id="ann")
    graph = interrupted_tool_loop(ungated, replies("ok", "ok"), capture, InMemorySaver(), schema=MessagesState)
    cfg = {"configurable": {"thread_id": "t-plain"}}
    with caplog.at_level(logging.WARNING, logger="memori_langchain"):
        graph.invoke({"messages": [HumanMessage("I live in Porto.")]}, cfg)
        graph.invoke({"messages": [HumanMessage("I keep bees.")]}, cfg)
    assert capture.flush(timeout=30)
    warned = [r.getMessage() for r in caplog.records if "memori_capture_node" in r.getMessage()]
    assert len(warned) == 1 and "has no 'memori_captured' key" in warned[0]
    assert "StateGraph(MemoriState)" in warned[0]
    assert stored(ungated, "ann") == ["User keeps bees.", "User lives in Porto."]
