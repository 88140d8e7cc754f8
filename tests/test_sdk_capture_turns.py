"""Capture after real SDK calls (OpenAI, Anthropic, Google GenAI against a loopback server): ``newest_turn`` and
``capture_facts`` take every message shape ``MemoriRecall.apply`` takes, the SDK's own reply objects and their
``model_dump(exclude_none=True)`` included, and a tool loop's turn starts at the user's question."""

from __future__ import annotations

import re
from typing import Any

import pytest
from langchain_core.messages import HumanMessage

from _helpers import stored, ungated_engine
from _loopback import Recorder, anthropic_client, endpoint, genai_client, openai_client  # noqa: F401 - fixtures
from memori_core import MemoriRecall, RecallEngine, RuleBasedFactExtractor, capture_facts, newest_turn

SAID = "I'm vegan. Will it rain in Leeds tonight?"
OPENAI_TOOLS = [{"type": "function", "function": {"name": "weather", "parameters": {"type": "object"}}}]
ANTHROPIC_TOOLS = [{"name": "weather", "input_schema": {"type": "object"}}]


@pytest.fixture
def engine() -> RecallEngine:
    return ungated_engine()


def _openai_tool_loop(client: Any, memory: MemoriRecall, keep: Any) -> list[Any]:
    """An OpenAI chat tool loop as the cookbook writes it, each reply appended as ``keep(reply)``."""
    messages: list[Any] = [{"role": "system", "content": "Be brief."}, {"role": "user", "content": SAID}]
    call = client.chat.completions.create(**memory.apply({"model": "m", "messages": messages, "tools": OPENAI_TOOLS}))
    assert call.choices[0].message.tool_calls  # the loopback asked for the tool
    messages.append(keep(call.choices[0].message))
    messages.append({"role": "tool", "tool_call_id": "call_1", "content": "Rain from 7pm."})
    answer = client.chat.completions.create(**memory.apply({"model": "m", "messages": messages,
                                                            "tools": OPENAI_TOOLS}))
    messages.append(keep(answer.choices[0].message))
    return messages


@pytest.mark.parametrize(
    "keep",
    [lambda reply: reply, lambda reply: reply.model_dump(exclude_none=True), lambda reply: reply.model_dump()],
    ids=["the SDK's message object", "model_dump(exclude_none=True)", "model_dump()"],
)
def test_openai_replies_kept_as_the_sdk_gives_them_are_captured(
    engine: RecallEngine, openai_client: Any, keep: Any
) -> None:
    messages = _openai_tool_loop(openai_client, MemoriRecall(engine, entity_id="u", provider="openai"), keep)
    turn = newest_turn(messages)
    assert turn == messages[1:]  # the question, the tool call, its result and the answer
    capture_facts(engine, "u", turn, RuleBasedFactExtractor())
    assert stored(engine, "u") == ["User is vegan."]


def test_an_anthropic_reply_object_kept_whole_or_as_its_content_is_captured(
    engine: RecallEngine, anthropic_client: Any
) -> None:
    memory = MemoriRecall(engine, entity_id="u", provider="anthropic")
    messages: list[Any] = [{"role": "user", "content": "I keep bees. Any tips for winter?"}]
    reply = anthropic_client.messages.create(**memory.apply({"model": "m", "max_tokens": 64, "messages": messages}))
    messages.append(reply)  # the Message object itself: a role and a list of typed blocks
    messages.append({"role": "user", "content": "I live in Oslo."})
    second = anthropic_client.messages.create(**memory.apply({"model": "m", "max_tokens": 64, "messages": messages}))
    messages.append({"role": "assistant", "content": second.content})
    capture_facts(engine, "u", messages, RuleBasedFactExtractor())
    assert stored(engine, "u") == ["User keeps bees.", "User lives in Oslo."]


@pytest.mark.parametrize(
    ("message", "names"),
    [
        ({"role": "user", "text": "I keep bees."}, "messages[1] is a user message without 'content' (its keys: "
                                                   "'role', 'text')"),
        (HumanMessage("I keep bees."), "messages[1]: expected a Message, a (role, text) pair or a provider SDK "
                                       "message (a mapping or an object with a 'role' and its 'content'), "
                                       "got HumanMessage (LangChain messages are read by memori_langchain: "
                                       "MemoriContextInjector or MemoriMiddleware recall for them, "
                                       "memori_capture_node captures a chain's or a graph's turns)"),
        ({"text": "I keep bees."}, "got dict with keys 'text'"),
    ],
    ids=["user dict without content", "LangChain message", "dict without role"],
)
def test_a_message_apply_refuses_is_refused_by_capture_naming_it(
    engine: RecallEngine, message: Any, names: str
) -> None:
    messages = [{"role": "assistant", "content": "Hi!"}, message]
    with pytest.raises(TypeError, match=re.escape(names)):
        newest_turn(messages)
    with pytest.raises(TypeError, match=re.escape(names)):
        capture_facts(engine, "u", messages, RuleBasedFactExtractor())


def test_an_assistant_message_without_content_is_read_as_an_empty_reply(engine: RecallEngine) -> None:
    messages = [{"role": "user", "content": "I live in Oslo."},
                {"role": "assistant", "tool_calls": [{"id": "c1", "type": "function"}]}]
    assert newest_turn(messages) == messages
    capture_facts(engine, "u", messages, RuleBasedFactExtractor())
    assert stored(engine, "u") == ["User lives in Oslo."]


def test_google_contents_sent_through_the_genai_client_are_captured(engine: RecallEngine, genai_client: Any) -> None:
    from google.genai import types

    contents: list[Any] = [types.Content(role="user", parts=[types.Part(text="I keep bees.")]),
                           types.Content(role="model", parts=[types.Part(text="Lovely! How many hives?")]),
                           {"role": "user", "parts": [{"text": "Three. I live in Oslo."}]}]
    memory = MemoriRecall(engine, entity_id="u", provider="google")
    reply = genai_client.models.generate_content(**memory.apply({"model": "gemini-test", "contents": contents}))
    contents.append(reply.candidates[0].content)  # the SDK's Content, role "model"
    assert newest_turn(contents) == contents[1:]
    capture_facts(engine, "u", contents, RuleBasedFactExtractor())
    assert stored(engine, "u") == ["User keeps bees.", "User lives in Oslo."]


# -- a tool loop's turn starts at the user's question ------------------------------------------------------------

RIG = "My rig is a 2019 Freightliner Cascadia, so I need a big lot. Find me a diner on I-44 that's open late."


@pytest.mark.parametrize("placement", ["system", "last_user"])
def test_an_anthropic_tool_loop_is_captured_from_the_users_question(
    engine: RecallEngine, anthropic_client: Any, placement: str
) -> None:
    memory = MemoriRecall(engine, entity_id="u", provider="anthropic", placement=placement)
    messages: list[Any] = [{"role": "user", "content": RIG}]
    call = dict(model="m", max_tokens=64, tools=ANTHROPIC_TOOLS)
    use = anthropic_client.messages.create(**memory.apply({**call, "messages": messages}))
    assert use.content[0].type == "tool_use"
    messages.append({"role": "assistant", "content": use.content})
    # Anthropic sends a tool's result back in a user-role message: the tool's words, not the user's turn.
    messages.append({"role": "user", "content": [{"type": "tool_result", "tool_use_id": use.content[0].id,
                                                  "content": "Joe's Diner, exit 8"}]})
    answer = anthropic_client.messages.create(**memory.apply({**call, "messages": messages}))
    messages.append({"role": "assistant", "content": answer.content})
    assert newest_turn(messages) == messages
    capture_facts(engine, "u", newest_turn(messages), RuleBasedFactExtractor())
    assert stored(engine, "u") == ["User's rig is a 2019 Freightliner Cascadia."]


def test_a_user_message_with_its_own_words_beside_a_tool_result_starts_the_turn(engine: RecallEngine) -> None:
    messages = [
        {"role": "user", "content": RIG},
        {"role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "lookup", "input": {}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "Joe's Diner"},
                                     {"type": "text", "text": "Also, I live in Tulsa."}]},
        {"role": "assistant", "content": [{"type": "text", "text": "Noted."}]},
    ]
    assert newest_turn(messages) == messages[1:]
    capture_facts(engine, "u", newest_turn(messages), RuleBasedFactExtractor())
    assert stored(engine, "u") == ["User lives in Tulsa."]


def test_a_bedrock_converse_tool_result_is_not_the_users_turn(engine: RecallEngine) -> None:
    messages = [
        {"role": "user", "content": [{"text": RIG}]},
        {"role": "assistant", "content": [{"toolUse": {"toolUseId": "t1", "name": "lookup", "input": {}}}]},
        {"role": "user", "content": [{"toolResult": {"toolUseId": "t1", "content": [{"text": "Joe's Diner"}]}}]},
        {"role": "assistant", "content": [{"text": "Joe's Diner at exit 8."}]},
    ]
    assert newest_turn(messages) == messages
    capture_facts(engine, "u", newest_turn(messages), RuleBasedFactExtractor())
    assert stored(engine, "u") == ["User's rig is a 2019 Freightliner Cascadia."]


def test_a_google_function_response_is_not_the_users_turn(engine: RecallEngine, genai_client: Any) -> None:
    from google.genai import types

    contents: list[Any] = [
        types.Content(role="model", parts=[types.Part(text="Hi! Where to?")]),
        types.Content(role="user", parts=[types.Part(text=RIG)]),
        types.Content(role="model", parts=[types.Part.from_function_call(name="lookup", args={})]),
        types.Content(role="user", parts=[types.Part.from_function_response(name="lookup",
                                                                            response={"diner": "Joe's"})]),
    ]
    memory = MemoriRecall(engine, entity_id="u", provider="google")
    reply = genai_client.models.generate_content(**memory.apply({"model": "gemini-test", "contents": contents}))
    contents.append(reply.candidates[0].content)
    assert newest_turn(contents) == contents  # the question with the greeting it answers, through the answer
    capture_facts(engine, "u", newest_turn(contents), RuleBasedFactExtractor())
    assert stored(engine, "u") == ["User's rig is a 2019 Freightliner Cascadia."]


# -- an OpenAI Responses API conversation: items without a role are no one's turn -----------------------------

RESPONSES_TOOLS = [{"type": "function", "name": "weather", "parameters": {"type": "object", "properties": {}}}]


def _responses_tool_loop(client: Any, memory: MemoriRecall, first_input: Any) -> list[Any]:
    """A Responses API tool loop as OpenAI's guide writes it: the input list grows by each ``response.output``
    (the SDK's typed items: a ``function_call`` without a role, then the assistant's message) and the tool's
    ``function_call_output``."""
    items: list[Any] = [first_input]
    call = client.responses.create(**memory.apply({"model": "m", "input": items, "tools": RESPONSES_TOOLS}))
    assert call.output[0].type == "function_call"  # the loopback asked for the tool
    items += call.output
    items.append({"type": "function_call_output", "call_id": call.output[0].call_id, "output": "Rain from 7pm."})
    answer = client.responses.create(**memory.apply({"model": "m", "input": items, "tools": RESPONSES_TOOLS}))
    items += answer.output
    return items


@pytest.mark.parametrize(
    "first_input",
    [{"role": "user", "content": SAID}, {"type": "message", "role": "user",
                                         "content": [{"type": "input_text", "text": SAID}]}],
    ids=["easy input message", "typed message with input_text"],
)
def test_a_responses_tool_loop_is_captured_from_the_users_question(
    engine: RecallEngine, openai_client: Any, first_input: Any
) -> None:
    items = _responses_tool_loop(openai_client, MemoriRecall(engine, entity_id="u", provider="openai-responses"),
                                 first_input)
    assert newest_turn(items) == items  # the question, the tool call, its output and the answer
    capture_facts(engine, "u", items, RuleBasedFactExtractor())
    assert stored(engine, "u") == ["User is vegan."]


def test_responses_items_dumped_to_dicts_are_captured_too(engine: RecallEngine, openai_client: Any) -> None:
    memory = MemoriRecall(engine, entity_id="u", provider="openai-responses")
    items = _responses_tool_loop(openai_client, memory, {"role": "user", "content": SAID})
    dumped = [item if isinstance(item, dict) else item.model_dump(exclude_none=True) for item in items]
    dumped.insert(1, {"type": "reasoning", "id": "rs_1", "summary": []})  # a reasoning model's item
    capture_facts(engine, "u", dumped, RuleBasedFactExtractor())
    assert stored(engine, "u") == ["User is vegan."]


def test_a_responses_input_string_is_the_users_message(engine: RecallEngine, openai_client: Any) -> None:
    memory = MemoriRecall(engine, entity_id="u", provider="openai-responses")
    call = {"model": "m", "input": "I keep bees. Any tips for winter?"}
    openai_client.responses.create(**memory.apply(call))
    assert newest_turn(call["input"]) == [call["input"]]
    capture_facts(engine, "u", call["input"], RuleBasedFactExtractor())
    assert stored(engine, "u") == ["User keeps bees."]


def test_a_responses_message_without_a_role_is_not_read_as_the_users() -> None:
    from memori_core.extraction import as_messages

    read = as_messages([{"type": "message", "content": "I keep bees."}, {"role": "user", "content": "Hi"}])
    assert [(m.role, m.text) for m in read] == [("tool", ""), ("user", "Hi")]
