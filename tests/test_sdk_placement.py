"""``placement="last_user"``: the block goes after the latest user turn, so the system prompt and the earlier
conversation stay a prefix a provider's prompt cache keeps hitting on; one block, this turn's, either way. The
real OpenAI, Anthropic and Google GenAI clients send the requests to a loopback server that records them."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from _loopback import Recorder, anthropic_client, endpoint, genai_client, openai_client  # noqa: F401 - fixtures
from _recording import SHELLFISH, TURN_1, TURN_2, recording_engine
from memori_core import MemoriRecall, format_context, inject_context
from memori_core.context import OPEN_TAG

SYSTEM = "You are a restaurant guide."


@pytest.fixture
def memory() -> MemoriRecall:
    return MemoriRecall(recording_engine(), entity_id="u1", placement="last_user")


def _block(memory: MemoriRecall, query: str = TURN_2, context: list[str] | None = None) -> str:
    block = format_context(memory.engine.recall(query, "u1", context=context if context is not None else [TURN_1]))
    assert SHELLFISH in block
    return block


def _tags(body: Any) -> int:
    return json.dumps(body).count(OPEN_TAG)


def test_openai_chat_block_ends_the_latest_user_message(
    memory: MemoriRecall, openai_client: Any, endpoint: Recorder
) -> None:
    kwargs = {"model": "gpt-test", "messages": [
        {"role": "system", "content": SYSTEM},
        {"role": "user", "content": TURN_1},
        {"role": "assistant", "content": "Enjoy!"},
        {"role": "user", "content": [{"type": "text", "text": TURN_2}]},
    ]}
    before = copy.deepcopy(kwargs)
    openai_client.chat.completions.create(**memory.apply(kwargs, provider="openai"))
    sent = endpoint.last("/chat/completions")["messages"]
    assert sent[:3] == kwargs["messages"][:3]  # the system prompt and the earlier turns, byte for byte
    assert sent[3]["content"] == [{"type": "text", "text": TURN_2}, {"type": "text", "text": "\n\n" + _block(memory)}]
    assert kwargs == before


def test_anthropic_block_comes_after_the_turns_cache_breakpoint(
    memory: MemoriRecall, anthropic_client: Any, endpoint: Recorder
) -> None:
    system = [{"type": "text", "text": SYSTEM, "cache_control": {"type": "ephemeral"}}]
    question = {"type": "text", "text": TURN_2, "cache_control": {"type": "ephemeral"}}
    kwargs = {"model": "claude-test", "max_tokens": 64, "system": system, "messages": [
        {"role": "user", "content": TURN_1}, {"role": "assistant", "content": "Enjoy!"},
        {"role": "user", "content": [question]},
    ]}
    anthropic_client.messages.create(**memory.apply(kwargs, provider="anthropic"))
    sent = endpoint.last("/v1/messages")
    assert sent["system"] == system
    assert sent["messages"][:2] == kwargs["messages"][:2]
    assert sent["messages"][2]["content"] == [question, {"type": "text", "text": "\n\n" + _block(memory)}]


def _cached_prefix(request: dict[str, Any]) -> list[str]:
    """What the provider caches of a request: its system blocks and messages' content blocks up to the last
    ``cache_control`` breakpoint, in order (the markers themselves are not content)."""
    blocks, cut = [], 0
    for role, content in [("system", request["system"])] + [(m["role"], m["content"]) for m in request["messages"]]:
        for part in content if isinstance(content, list) else [{"type": "text", "text": content}]:
            part = dict(part)
            if part.pop("cache_control", None) is not None:
                cut = len(blocks) + 1
            blocks.append(json.dumps([role, part]))
    return blocks[:cut]


def test_each_turn_reads_back_the_prefix_the_previous_turn_cached(
    memory: MemoriRecall, anthropic_client: Any, endpoint: Recorder
) -> None:
    system = [{"type": "text", "text": SYSTEM, "cache_control": {"type": "ephemeral"}}]
    history: list[dict[str, Any]] = []  # the app's own history: what the user and the model said
    cached: list[list[str]] = []
    for turn in (TURN_1, TURN_2, "Which wine with oysters?"):
        marked = {"role": "user", "content": [{"type": "text", "text": turn, "cache_control": {"type": "ephemeral"}}]}
        kwargs = {"model": "claude-test", "max_tokens": 64, "system": system, "messages": [*history, marked]}
        anthropic_client.messages.create(**memory.apply(kwargs, provider="anthropic"))
        sent = endpoint.last("/v1/messages")
        assert OPEN_TAG in json.dumps(sent["messages"][-1]["content"][-1])  # each turn is recalled for
        cached.append(_cached_prefix(sent))
        history += [{"role": "user", "content": [{"type": "text", "text": turn}]},
                    {"role": "assistant", "content": "ok"}]
    assert [len(prefix) for prefix in cached] == [2, 4, 6]  # the system prompt and every turn's own words
    for before, now in zip(cached, cached[1:]):
        assert now[: len(before)] == before  # the whole earlier conversation is a cache hit


def test_responses_block_goes_into_input_only_for_a_call_openai_does_not_store(
    memory: MemoriRecall, openai_client: Any, endpoint: Recorder
) -> None:
    conversation = [{"role": "user", "content": TURN_1}, {"role": "assistant", "content": "Enjoy!"},
                    {"role": "user", "content": [{"type": "input_text", "text": TURN_2}]}]
    kwargs = {"model": "gpt-test", "instructions": SYSTEM, "store": False, "input": conversation}
    openai_client.responses.create(**memory.apply(kwargs, provider="openai-responses"))
    sent = endpoint.last("/responses")
    assert sent["instructions"] == SYSTEM
    assert sent["input"][2]["content"][-1] == {"type": "input_text", "text": "\n\n" + _block(memory)}
    # Stored (the default): OpenAI keeps the input, and a later previous_response_id would send the block again.
    stored = {key: value for key, value in kwargs.items() if key != "store"}
    openai_client.responses.create(**memory.apply(stored, provider="openai-responses"))
    sent = endpoint.last("/responses")
    assert sent["input"] == conversation and sent["instructions"] == SYSTEM + "\n\n" + _block(memory)


def test_responses_tool_loop_input_without_a_user_turn_keeps_the_block_in_instructions(
    memory: MemoriRecall, openai_client: Any, endpoint: Recorder
) -> None:
    memory.apply({"input": TURN_2}, provider="openai-responses")
    kwargs = {"model": "gpt-test", "store": False, "previous_response_id": "resp_1",
              "input": [{"type": "function_call_output", "call_id": "c", "output": "oysters"}]}
    openai_client.responses.create(**memory.apply(kwargs, provider="openai-responses"))
    sent = endpoint.last("/responses")
    assert sent["input"] == kwargs["input"] and SHELLFISH in sent["instructions"]


def test_google_block_ends_the_latest_user_content(
    memory: MemoriRecall, genai_client: Any, endpoint: Recorder
) -> None:
    from google.genai import types

    kwargs = {"model": "gemini-test", "config": types.GenerateContentConfig(system_instruction=SYSTEM),
              "contents": [types.Content(role="user", parts=[types.Part(text=TURN_1)]),
                           types.Content(role="model", parts=[types.Part(text="Enjoy!")]),
                           types.Content(role="user", parts=[types.Part(text=TURN_2)])]}
    genai_client.models.generate_content(**memory.apply(kwargs, provider="google"))
    sent = endpoint.last(":generateContent")
    assert sent["systemInstruction"]["parts"] == [{"text": SYSTEM}]
    assert [c["parts"] for c in sent["contents"]] == [
        [{"text": TURN_1}], [{"text": "Enjoy!"}], [{"text": TURN_2}, {"text": "\n\n" + _block(memory)}]]


def test_google_chat_keeps_the_block_out_of_the_history_it_keeps(
    memory: MemoriRecall, genai_client: Any, endpoint: Recorder
) -> None:
    chat = genai_client.chats.create(model="gemini-test")
    chat.send_message(**memory.apply({"message": TURN_2}, provider="google"))
    sent = endpoint.last(":generateContent")
    assert SHELLFISH in sent["systemInstruction"]["parts"][0]["text"]
    assert OPEN_TAG not in json.dumps(sent["contents"])
    assert all(OPEN_TAG not in (part.text or "") for content in chat.get_history() for part in content.parts)


@pytest.mark.parametrize(("contents", "expected"), [
    (TURN_2, lambda block: f"{TURN_2}\n\n{block}"),
    ([TURN_1, TURN_2], lambda block: [TURN_1, f"{TURN_2}\n\n{block}"]),
    ([{"role": "user", "parts": [{"text": TURN_2}]}],
     lambda block: [{"role": "user", "parts": [{"text": TURN_2}, {"text": f"\n\n{block}"}]}]),
    ([{"text": TURN_2}], lambda block: [{"text": f"{TURN_2}\n\n{block}"}]),
], ids=["string", "bare-strings", "content-dict", "bare-part-dict"])
def test_google_contents_shapes_get_the_block_after_the_latest_user_text(
    memory: MemoriRecall, contents: Any, expected: Any
) -> None:
    out = memory.apply({"contents": contents}, provider="google")
    assert "config" not in out  # no system instruction was written
    block = format_context(memory.recall_for({"contents": contents}))
    assert SHELLFISH in block and out["contents"] == expected(block)


def test_anthropic_tool_loop_call_keeps_the_block_in_the_question_turn(memory: MemoriRecall) -> None:
    question = {"role": "user", "content": [{"type": "text", "text": TURN_2}]}
    first = memory.apply({"system": SYSTEM, "messages": [question]}, provider="anthropic")
    tool_use = {"role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "menu", "input": {}}]}
    result = {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "oysters"}]}
    loop = memory.apply({"system": SYSTEM, "messages": [question, tool_use, result]}, provider="anthropic")
    assert loop["messages"][2] == result  # a turn of tool results only is not the user's turn
    assert loop["messages"][0] == first["messages"][0]  # the previous request is a prefix of this one
    assert loop["system"] == SYSTEM


def test_bedrock_converse_block_is_a_text_part_after_the_cache_point(memory: MemoriRecall) -> None:
    cache_point = {"cachePoint": {"type": "default"}}
    kwargs = {"system": [{"text": SYSTEM}], "messages": [
        {"role": "user", "content": [{"text": TURN_1}]},
        {"role": "assistant", "content": [{"text": "Enjoy!"}]},
        {"role": "user", "content": [{"text": TURN_2}, cache_point]},
        {"role": "assistant", "content": [{"toolUse": {"toolUseId": "t", "name": "menu", "input": {}}}]},
        {"role": "user", "content": [{"toolResult": {"toolUseId": "t", "content": [{"text": "oysters"}]}}]},
    ]}
    out = memory.apply(kwargs, provider="bedrock-converse")
    assert out["system"] == [{"text": SYSTEM}]
    assert out["messages"][2]["content"] == [{"text": TURN_2}, cache_point, {"text": "\n\n" + _block(memory)}]
    assert out["messages"][4] == kwargs["messages"][4]


@pytest.mark.parametrize("provider", ["openai", "anthropic", "openai-responses", "google"])
@pytest.mark.parametrize("placement", ["system", "last_user"])
def test_history_sent_again_holds_only_this_turns_block(provider: str, placement: str) -> None:
    memory = MemoriRecall(recording_engine(), entity_id="u1", placement=placement)
    user = (lambda text: {"role": "user", "parts": [{"text": text}]}) if provider == "google" else (
        lambda text: {"role": "user", "content": text})
    reply = {"role": "model", "parts": [{"text": "Enjoy!"}]} if provider == "google" else {
        "role": "assistant", "content": "Enjoy!"}
    field = {"google": "contents", "openai-responses": "input"}.get(provider, "messages")
    kwargs: dict[str, Any] = {field: [user(TURN_1)]}
    if provider == "openai-responses":
        kwargs["store"] = False
    sent = memory.apply(kwargs, provider=provider)
    assert _tags(sent) == 1
    # The app keeps what it sent as its history (the block of turn 1 included) and asks again.
    again = memory.apply({**sent, field: [*sent[field], reply, user(TURN_2)]}, provider=provider)
    assert _tags(again) == 1
    if placement == "last_user":
        where = again[field][-1]
    elif provider == "openai":
        where = again[field][0]  # the system message chat completions put first
    else:
        where = {key: value for key, value in again.items() if key != field}
    assert _tags(where) == 1


def test_system_placement_also_removes_a_block_an_earlier_turn_left_in_a_user_turn() -> None:
    last_user = MemoriRecall(recording_engine(), entity_id="u1", placement="last_user")
    sent = last_user.apply({"messages": [{"role": "user", "content": TURN_1}]}, provider="anthropic")
    history = [*sent["messages"], {"role": "assistant", "content": "Enjoy!"}, {"role": "user", "content": TURN_2}]
    out = MemoriRecall(last_user.engine, entity_id="u1").apply({"messages": history}, provider="anthropic")
    assert out["messages"][0] == {"role": "user", "content": TURN_1}
    assert _tags(out["messages"]) == 0 and _tags(out["system"]) == 1


def test_nothing_recalled_leaves_the_kwargs_as_they_were(memory: MemoriRecall) -> None:
    kwargs = {"system": SYSTEM, "messages": [{"role": "user", "content": TURN_2}]}
    assert MemoriRecall(memory.engine, entity_id="nobody", placement="last_user").apply(
        kwargs, provider="anthropic") == kwargs
    assert inject_context(kwargs, "", "anthropic", placement="last_user")["messages"] is kwargs["messages"]


def test_an_unknown_placement_is_a_clear_error() -> None:
    engine = recording_engine()
    with pytest.raises(ValueError, match=r"MemoriRecall: placement must be one of 'system', 'last_user'; got 'user'"):
        MemoriRecall(engine, entity_id="u1", placement="user")
    with pytest.raises(TypeError, match="placement must be a str"):
        inject_context({"messages": []}, "", "openai", placement=1)  # type: ignore[arg-type]
