"""MemoriRecall with the OpenAI Responses API used statefully (``previous_response_id`` / ``conversation``): the
tool-loop call that reads a tool's result, whose input holds no question, still gets the question's block, and
an app passes ``query=`` / ``context=`` for what lives on OpenAI's server. The real OpenAI client talks to a
loopback server that records what the model would read."""

from __future__ import annotations

from typing import Any

import pytest

from _loopback import Recorder, endpoint, openai_client  # noqa: F401 - fixtures
from _recording import SHELLFISH, TURN_1, TURN_2, recording_engine
from memori_core import MemoriRecall
from memori_core.sdk.memori_recall import CONVERSATIONS_KEPT

TOOLS = [{"type": "function", "name": "menu", "parameters": {"type": "object", "properties": {}}}]


def _tool_output(response: Any, output: str = "oysters, crab, lobster") -> dict[str, Any]:
    [call] = response.output
    assert call.type == "function_call"  # the loopback model asked for the tool
    return {"type": "function_call_output", "call_id": call.call_id, "output": output}


def _instructions(endpoint: Recorder) -> str:
    return endpoint.last("/responses")["instructions"]


def _memory() -> tuple[Any, MemoriRecall]:
    """A recording engine, and u1's ``MemoriRecall`` for the Responses API over it."""
    engine = recording_engine()
    return engine, MemoriRecall(engine, entity_id="u1", provider="openai-responses")


def _send(client: Any, memory: MemoriRecall, context: list[str] | None = None, **call: Any) -> Any:
    """The Responses call ``call`` (with the test model and tools) sent through ``client`` with ``memory``
    applied (read with ``context``); the model's response."""
    return client.responses.create(**memory.apply({"model": "gpt-test", "tools": TOOLS, **call}, context=context))


def test_tool_loop_call_after_previous_response_id_gets_the_questions_block(
    openai_client: Any, endpoint: Recorder
) -> None:
    engine, memory = _memory()
    first = _send(openai_client, memory, instructions="Be brief.", input=TURN_2)
    asked = _instructions(endpoint)
    assert SHELLFISH in asked
    # The call that reads the tool's result: its input is the tool output only, its question lives on the server.
    _send(openai_client, memory, instructions="Be brief.", previous_response_id=first.id, input=[_tool_output(first)])
    assert _instructions(endpoint) == asked  # OpenAI does not carry instructions over: the block is sent again
    assert [r["query"] for r in engine.recalls] == [TURN_2, TURN_2]


def test_follow_up_after_previous_response_id_reads_the_context_the_app_passes(
    openai_client: Any, endpoint: Recorder
) -> None:
    engine, memory = _memory()
    first = _send(openai_client, memory, input=TURN_1)
    second = _send(openai_client, memory, previous_response_id=first.id, input=[_tool_output(first, "booked")])
    third = _send(openai_client, memory, context=[TURN_1], previous_response_id=second.id,
                  input=[{"role": "user", "content": TURN_2}])
    assert SHELLFISH in _instructions(endpoint)
    # ... and the tool loop of that turn keeps the question and the context it was read with.
    _send(openai_client, memory, previous_response_id=third.id, input=[_tool_output(third)])
    assert SHELLFISH in _instructions(endpoint)
    assert engine.recalls[2:] == [{"query": TURN_2, "entity_id": "u1", "context": [TURN_1]}] * 2


async def test_aapply_reuses_the_question_for_a_tool_loop_call(endpoint: Recorder) -> None:
    import openai

    engine, memory = _memory()
    client = openai.AsyncOpenAI(api_key="test-key", base_url=endpoint.url + "/v1", max_retries=0)
    first = await client.responses.create(**await memory.aapply({"model": "gpt-test", "tools": TOOLS,
                                                                 "input": TURN_2}))
    await client.responses.create(**await memory.aapply(
        {"model": "gpt-test", "previous_response_id": first.id, "input": [_tool_output(first)]}))
    await client.close()
    assert SHELLFISH in _instructions(endpoint)
    assert [r["query"] for r in engine.recalls] == [TURN_2, TURN_2]


def test_remembered_question_is_never_another_users() -> None:
    engine = recording_engine("alice")
    engine.add("bob", ["User is allergic to wasps."])
    memory = MemoriRecall(engine, provider="openai-responses")
    tool_only = {"previous_response_id": "resp_x", "input": [{"type": "function_call_output", "call_id": "c",
                                                             "output": "done"}]}
    memory.apply({"input": TURN_2}, entity_id="alice")
    assert memory.apply(tool_only, entity_id="bob") == tool_only  # Bob asked nothing: no recall, no block
    memory.apply({"input": "Any stings I should worry about?"}, entity_id="bob")
    alice = memory.apply(tool_only, entity_id="alice")
    assert SHELLFISH in alice["instructions"] and "wasps" not in alice["instructions"]
    assert [(r["entity_id"], r["query"]) for r in engine.recalls] == [
        ("alice", TURN_2), ("bob", "Any stings I should worry about?"), ("alice", TURN_2)]


def test_conversation_id_keeps_each_conversations_question() -> None:
    engine, memory = _memory()
    for conversation, question in (("conv_a", TURN_2), ("conv_b", "Where do I live?")):
        memory.recall_for({"conversation": conversation, "input": question})
    engine.recalls.clear()
    tool_only: list[Any] = [{"type": "function_call_output", "call_id": "c", "output": "done"}]
    memory.recall_for({"conversation": {"id": "conv_a"}, "input": tool_only})
    memory.recall_for({"conversation": "conv_b", "input": tool_only})
    assert [r["query"] for r in engine.recalls] == [TURN_2, "Where do I live?"]


def test_input_without_a_question_is_not_recalled_unless_it_continues_a_conversation() -> None:
    engine, memory = _memory()
    memory.recall_for({"input": TURN_2})
    engine.recalls.clear()
    tool_only = [{"type": "function_call_output", "call_id": "c", "output": "done"}]
    assert memory.recall_for({"input": tool_only}) == []  # a stateless call holds its whole conversation
    # Chat completions and other shapes never continue a server-side conversation.
    assert memory.recall_for({"previous_response_id": "resp_x", "messages": [{"role": "system", "content": "s"}]}) == []
    assert engine.recalls == []


def test_remembered_questions_are_bounded_least_recently_used_first() -> None:
    engine = recording_engine()
    memory = MemoriRecall(engine, entity_id="u1")
    tool_only = [{"type": "function_call_output", "call_id": "c", "output": "done"}]
    memory.recall_for({"conversation": "first", "input": TURN_2})
    memory.recall_for({"conversation": "kept", "input": TURN_1})
    memory.recall_for({"conversation": "kept", "input": tool_only})  # used again: the most recent
    for i in range(CONVERSATIONS_KEPT - 1):
        memory.recall_for({"conversation": f"c{i}", "input": f"question {i}"}, entity_id="nobody")
    engine.recalls.clear()
    assert memory.recall_for({"conversation": "first", "input": tool_only}) == []
    memory.recall_for({"conversation": "kept", "input": tool_only})
    assert [r["query"] for r in engine.recalls] == [TURN_1]


def test_query_and_context_replace_what_the_kwargs_hold() -> None:
    engine = recording_engine()
    memory = MemoriRecall(engine, entity_id="u1")
    kwargs = {"messages": [{"role": "user", "content": TURN_1}, {"role": "user", "content": TURN_2}]}
    memory.recall_for(kwargs, query="Any shellfish tonight?")
    memory.recall_for(kwargs, context=["I'm in Leeds."])
    memory.recall_for(kwargs, query="Any shellfish tonight?", context=[])
    assert engine.recalls == [
        {"query": "Any shellfish tonight?", "entity_id": "u1", "context": [TURN_1]},  # the context is still read
        {"query": TURN_2, "entity_id": "u1", "context": ["I'm in Leeds."]},
        {"query": "Any shellfish tonight?", "entity_id": "u1", "context": None},  # [] turns the context off
    ]


def test_explicit_query_recalls_for_a_call_whose_kwargs_hold_no_question(
    openai_client: Any, endpoint: Recorder
) -> None:
    engine, memory = _memory()
    tool_only = {"model": "gpt-test", "previous_response_id": "resp_elsewhere",
                 "input": [{"type": "function_call_output", "call_id": "c", "output": "oysters"}]}
    assert memory.apply(tool_only) == tool_only  # another process saw the question: nothing to reuse here
    openai_client.responses.create(**memory.apply(tool_only, query=TURN_2, context=[TURN_1]))
    assert SHELLFISH in _instructions(endpoint)
    assert engine.recalls == [{"query": TURN_2, "entity_id": "u1", "context": [TURN_1]}]


def test_blank_query_recalls_nothing() -> None:
    engine = recording_engine()
    kwargs = {"input": TURN_2}
    assert MemoriRecall(engine, entity_id="u1").apply(kwargs, "openai-responses", query="  ") == kwargs
    assert engine.recalls == []


@pytest.mark.parametrize(("arguments", "error", "names"), [
    ({"query": 5}, TypeError, "query must be a str"),
    ({"query": None, "context": 5}, TypeError, "context must be a list"),
    ({"context": [TURN_1, 3]}, TypeError, r"context\[1\] must be a str"),
])
async def test_query_and_context_of_another_type_raise_naming_the_argument(
    arguments: dict[str, Any], error: type[Exception], names: str
) -> None:
    engine = recording_engine()
    memory = MemoriRecall(engine, entity_id="u1", provider="openai-responses", strict=False)
    with pytest.raises(error, match=names):
        memory.apply({"input": TURN_2}, **arguments)
    with pytest.raises(error, match=names):
        await memory.aapply({"input": TURN_2}, **arguments)
    assert engine.recalls == []


def test_a_follow_up_after_previous_response_id_is_read_with_the_conversations_earlier_question(
    openai_client: Any, endpoint: Recorder
) -> None:
    # Tester j4, finding 15: "What should I order there?" after previous_response_id reached the model without
    # the allergy unless the app passed context=.
    engine, memory = _memory()
    first = _send(openai_client, memory, input=TURN_1)
    _send(openai_client, memory, previous_response_id=first.id, input=[{"role": "user", "content": TURN_2}])
    assert SHELLFISH in _instructions(endpoint)
    assert engine.recalls[1] == {"query": TURN_2, "entity_id": "u1", "context": [TURN_1]}


def test_a_follow_up_reads_at_most_context_turns_remembered_turns_and_none_with_zero() -> None:
    from memori_core import RecallConfig

    engine, memory = _memory()
    for i in range(5):
        memory.recall_for({"previous_response_id": f"resp_{i}" if i else None, "input": f"question {i}"})
    assert engine.recalls[-1]["context"] == ["question 1", "question 2", "question 3"]  # context_turns 3
    engine.config = RecallConfig(gate="off", context_turns=0)
    memory.recall_for({"previous_response_id": "resp_9", "input": "question 9"})
    assert not engine.recalls[-1].get("context")


def test_a_stateless_follow_up_reads_its_own_input_and_nothing_remembered() -> None:
    engine, memory = _memory()
    memory.recall_for({"input": "Where do I live?"})
    memory.recall_for({"input": [{"role": "user", "content": TURN_1}, {"role": "assistant", "content": "Nice."},
                                 {"role": "user", "content": TURN_2}]})
    assert engine.recalls[-1] == {"query": TURN_2, "entity_id": "u1", "context": [TURN_1]}


def test_a_continuing_tool_call_with_no_question_seen_is_warned_once(caplog: pytest.LogCaptureFixture) -> None:
    engine, memory = _memory()
    tool_only = {"previous_response_id": "resp_x", "input": [{"type": "function_call_output", "call_id": "c",
                                                             "output": "done"}]}
    with caplog.at_level("DEBUG", logger="memori_core.sdk.memori_recall"):
        assert memory.apply(tool_only) == tool_only  # sent without memory
        memory.apply(tool_only)
    warnings = [r.getMessage() for r in caplog.records if r.levelname == "WARNING"]
    assert len(warnings) == 1 and "pass apply(..., query=the user's question)" in warnings[0]
    assert engine.recalls == []
