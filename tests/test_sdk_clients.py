"""MemoriRecall over a real engine, and injected kwargs sent through the real OpenAI, Anthropic
and Google GenAI clients to a loopback HTTP server that records what each SDK actually sent."""

from __future__ import annotations

import copy
import logging
import re
from collections.abc import Iterator
from typing import Any

import pytest

from _faults import Faults, break_store, held_loads_engine
from _helpers import HashEmbedder, seeded_fixtures
from _loopback import Recorder, anthropic_client, endpoint, genai_client, openai_client  # noqa: F401 - fixtures
from _recording import SHELLFISH, TURN_1, TURN_2, RecordingEngine, minilm_engine, recording_engine
from memori_core import (
    ChromaStore,
    MemoriRecall,
    RecallConfig,
    RecallEngine,
    format_context,
    inject_context,
)

FACTS = [
    "User is allergic to peanuts.",
    "User lives in Lisbon.",
    "User plays the cello in an amateur orchestra.",
]
QUESTION = "Is peanut butter safe for me, given my peanuts allergy?"

def _stock(engine: RecallEngine) -> RecallEngine:
    engine.add("u1", FACTS, created_at="2026-05-01T09:30:00Z")
    engine.add("u2", ["User is allergic to shellfish."], created_at="2026-05-01T09:30:00Z")
    return engine


# Two entities' facts, recalled without a gate: these tests check what reaches each SDK's request and whose facts
# it holds; the hash embedder's cosines mean nothing to the relevance gate (``test_relevance_gate_is_applied``
# covers the gate). ``stocked`` is shared by the tests that only recall (checked unchanged at teardown).
stocked, fresh_stocked = seeded_fixtures(_stock, RecallConfig(gate="off"))


@pytest.fixture
def expected_block(stocked: RecallEngine) -> str:
    block = format_context(stocked.recall(QUESTION, entity_id="u1"))
    assert "User is allergic to peanuts." in block  # the question is answerable from memory
    return block


# -- MemoriRecall over the real engine -----------------------------------------------


def test_apply_injects_the_engines_block_for_the_entity(stocked: RecallEngine, expected_block: str) -> None:
    kwargs = {
        "model": "m",
        "messages": [{"role": "system", "content": "Be brief."}, {"role": "user", "content": QUESTION}],
    }
    before = copy.deepcopy(kwargs)
    out = MemoriRecall(stocked, entity_id="u1").apply(kwargs, provider="openai")
    assert out["messages"][0]["content"] == "Be brief.\n\n" + expected_block
    assert "shellfish" not in out["messages"][0]["content"]  # another entity's facts never leak in
    assert kwargs == before


def test_apply_entity_can_be_given_per_call(stocked: RecallEngine) -> None:
    memory = MemoriRecall(stocked)
    out = memory.apply(
        {"system": "s", "messages": [{"role": "user", "content": "What am I allergic to?"}]},
        provider="anthropic",
        entity_id="u2",
    )
    assert "User is allergic to shellfish." in out["system"]
    assert "peanuts" not in out["system"]


def test_apply_without_entity_or_provider_is_a_clear_error(stocked: RecallEngine) -> None:
    kwargs = {"messages": [{"role": "user", "content": QUESTION}]}
    with pytest.raises(ValueError, match="entity_id"):
        MemoriRecall(stocked).apply(kwargs, provider="openai")
    with pytest.raises(ValueError, match="provider"):
        MemoriRecall(stocked, entity_id="u1").apply(kwargs)
    with pytest.raises(TypeError, match="entity_id"):
        MemoriRecall(stocked, entity_id={"id": "u1"})  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="timeout"):
        MemoriRecall(stocked, entity_id="u1", timeout=0)
    with pytest.raises(ValueError, match="unknown provider"):
        MemoriRecall(stocked, entity_id="u1", provider="cohere")


def test_recall_for_returns_the_engines_facts(stocked: RecallEngine) -> None:
    memory = MemoriRecall(stocked, entity_id="u1", k=2)
    kwargs = {"messages": [{"role": "user", "content": QUESTION}]}
    facts = memory.recall_for(kwargs)
    assert facts == stocked.recall(QUESTION, entity_id="u1", limit=2)
    assert facts[0].content == "User is allergic to peanuts."


def test_default_provider_from_the_constructor(stocked: RecallEngine, expected_block: str) -> None:
    memory = MemoriRecall(stocked, entity_id="u1", provider="openai-responses")
    assert memory.apply({"input": QUESTION})["instructions"] == expected_block


def test_no_query_returns_kwargs_unchanged_without_recall(fresh_stocked: RecallEngine,
                                                         hash_embedder: HashEmbedder) -> None:
    kwargs = {"messages": [{"role": "system", "content": "Be brief."}]}
    calls = hash_embedder.calls
    out = MemoriRecall(fresh_stocked, entity_id="u1").apply(kwargs, provider="openai")
    assert out == kwargs
    assert hash_embedder.calls == calls  # nothing was embedded


def test_nothing_recalled_returns_kwargs_unchanged(stocked: RecallEngine) -> None:
    kwargs = {"messages": [{"role": "user", "content": QUESTION}]}
    assert MemoriRecall(stocked, entity_id="nobody").apply(kwargs, provider="openai") == kwargs


@pytest.mark.parametrize("config", [
    RecallConfig(gate="threshold", relevance_threshold=0.99),
    # the relevance gate, opening only for a near-identical fact (else the cello is implied by the orchestra)
    RecallConfig(gate_open=0.99, gate_third_person=None, gate_implied=False),
], ids=["threshold-gate", "relevance-gate"])
def test_relevance_gate_is_applied(hash_embedder: Any, config: RecallConfig) -> None:
    engine = RecallEngine(ChromaStore.in_memory(), hash_embedder, config)
    engine.add("u1", FACTS)
    kwargs = {"messages": [{"role": "user", "content": "what about my orchestra schedule next week"}]}
    assert MemoriRecall(engine, entity_id="u1").apply(kwargs, provider="openai") == kwargs
    loose = RecallEngine(ChromaStore.in_memory(), hash_embedder, config.replace(gate="off"))
    loose.add("u1", FACTS)
    assert MemoriRecall(loose, entity_id="u1").apply(kwargs, provider="openai") != kwargs


def test_limit_caps_the_facts_injected(stocked: RecallEngine) -> None:
    memory = MemoriRecall(stocked, entity_id="u1", k=1)
    out = memory.apply({"input": QUESTION}, provider="openai-responses")
    assert out["instructions"].count("\n- ") == 1


def test_bad_shape_raises_before_recall_even_when_not_strict(fresh_stocked: RecallEngine,
                                                           hash_embedder: HashEmbedder) -> None:
    calls = hash_embedder.calls
    with pytest.raises(ValueError, match="messages"):
        MemoriRecall(fresh_stocked, entity_id="u1").apply({"input": QUESTION}, provider="openai")
    assert hash_embedder.calls == calls


MALFORMED = [
    ({"content": QUESTION}, "kwargs['messages'][0] must be a message with a str 'role' and a 'content', "
                            "got a dict without 'role'"),
    ({"role": "user", "text": QUESTION}, "kwargs['messages'][0] is a user message without 'content' "
                                         "(its keys: 'role', 'text')"),
    ({"role": "user", "content": 42}, "kwargs['messages'][0]['content'] must be a string or a list of parts, got int"),
]


@pytest.mark.parametrize(("message", "names"), MALFORMED)
@pytest.mark.parametrize("strict", [False, True])
async def test_a_malformed_message_raises_a_type_error_naming_it_before_recall_strict_or_not(
    fresh_stocked: RecallEngine, hash_embedder: HashEmbedder, message: dict[str, Any], names: str, strict: bool
) -> None:
    memory = MemoriRecall(fresh_stocked, entity_id="u1", provider="openai", strict=strict)
    calls = hash_embedder.calls
    for call in (memory.apply, memory.recall_for):
        with pytest.raises(TypeError, match=re.escape(names)):
            call({"model": "m", "messages": [message]})
    for acall in (memory.aapply, memory.arecall_for):
        with pytest.raises(TypeError, match=re.escape(names)):
            await acall({"model": "m", "messages": [message]})
    assert hash_embedder.calls == calls
    tool_call = {"role": "assistant", "tool_calls": [{"id": "c1", "type": "function",  # no content: well-formed
                                                      "function": {"name": "f", "arguments": "{}"}}]}
    well_formed = [{"role": "system", "content": "Be brief."}, {"role": "user", "content": QUESTION}, tool_call,
                   {"role": "tool", "tool_call_id": "c1", "content": "{}"}]
    with pytest.raises(TypeError, match=re.escape("kwargs['messages'][4]")):  # its place named
        memory.apply({"model": "m", "messages": [*well_formed, message]})


@pytest.fixture
def broken_engine(hash_embedder: Any) -> RecallEngine:
    """An engine over a real in-memory store whose reads fail, as a store that went down would."""
    store = ChromaStore.in_memory()
    Faults(store).arm("load_entity", error=ConnectionError, message="store is down")
    engine = RecallEngine(store=store, embedder=hash_embedder)
    engine.add("u1", FACTS)
    engine.clear_cache()  # the first write left a copy; recall must go to the (failing) store
    return engine


def test_recall_failure_fails_open_with_a_warning(
    broken_engine: RecallEngine, caplog: pytest.LogCaptureFixture
) -> None:
    kwargs = {"system": [{"type": "text", "text": "Policy."}], "messages": [{"role": "user", "content": QUESTION}]}
    with caplog.at_level(logging.WARNING, logger="memori_core.sdk.memori_recall"):
        out = MemoriRecall(broken_engine, entity_id="u1").apply(kwargs, provider="anthropic")
    assert out == kwargs
    assert any("store is down" in r.getMessage() and r.levelno == logging.WARNING for r in caplog.records)


def test_recall_failure_raises_when_strict(broken_engine: RecallEngine) -> None:
    with pytest.raises(ConnectionError, match="store is down"):
        MemoriRecall(broken_engine, entity_id="u1", strict=True).apply(
            {"messages": [{"role": "user", "content": QUESTION}]}, provider="anthropic"
        )


def test_embedder_failure_fails_open(hash_embedder: Any, caplog: pytest.LogCaptureFixture) -> None:
    engine = RecallEngine(store=ChromaStore.in_memory(), embedder=hash_embedder)
    engine.add("u1", FACTS)

    def broken(text: str) -> Any:
        raise RuntimeError("embedding service unavailable")

    hash_embedder.embed_query = broken
    kwargs = {"contents": QUESTION}
    with caplog.at_level(logging.WARNING, logger="memori_core.sdk.memori_recall"):
        assert MemoriRecall(engine, entity_id="u1").apply(kwargs, provider="google") == kwargs
    assert "embedding service unavailable" in caplog.text


@pytest.fixture
def blocking_engine(hash_embedder: Any) -> Iterator[RecallEngine]:
    """An engine whose recalls of ``u1`` wait for the store until the test ends (a stalled server)."""
    with held_loads_engine(hash_embedder, "u1", FACTS) as engine:
        yield engine


def test_recall_timeout_fails_open(blocking_engine: RecallEngine, caplog: pytest.LogCaptureFixture) -> None:
    kwargs = {"messages": [{"role": "user", "content": QUESTION}]}
    with caplog.at_level(logging.WARNING, logger="memori_core.sdk.memori_recall"):
        out = MemoriRecall(blocking_engine, entity_id="u1", timeout=0.05).apply(kwargs, provider="openai")
    assert out == kwargs
    assert "no answer within 0.05 s" in caplog.text


async def test_async_recall_timeout_fails_open(blocking_engine: RecallEngine, caplog: pytest.LogCaptureFixture) -> None:
    kwargs = {"input": QUESTION}
    with caplog.at_level(logging.WARNING, logger="memori_core.sdk.memori_recall"):
        out = await MemoriRecall(blocking_engine, entity_id="u1", timeout=0.05).aapply(kwargs, "openai-responses")
    assert out == kwargs
    assert "no answer within" in caplog.text


def test_recall_timeout_raises_when_strict(blocking_engine: RecallEngine) -> None:
    memory = MemoriRecall(blocking_engine, entity_id="u1", timeout=0.05, strict=True)
    with pytest.raises(TimeoutError):
        memory.apply({"input": QUESTION}, provider="openai-responses")


async def test_aapply_matches_apply(stocked: RecallEngine) -> None:
    memory = MemoriRecall(stocked, entity_id="u1")
    kwargs = {"contents": [{"role": "user", "parts": [{"text": QUESTION}]}]}
    assert await memory.aapply(kwargs, provider="google") == memory.apply(kwargs, provider="google")


async def test_aapply_fails_open(broken_engine: RecallEngine, caplog: pytest.LogCaptureFixture) -> None:
    kwargs = {"messages": [{"role": "user", "content": QUESTION}]}
    with caplog.at_level(logging.WARNING, logger="memori_core.sdk.memori_recall"):
        assert await MemoriRecall(broken_engine, entity_id="u1").aapply(kwargs, provider="openai") == kwargs
    assert "store is down" in caplog.text


# -- the real SDK clients: what actually goes over the wire ----------------------------


def test_openai_chat_request_carries_the_block_in_the_system_message(
    openai_client: Any, endpoint: Recorder, stocked: RecallEngine, expected_block: str
) -> None:
    kwargs = {
        "model": "gpt-test",
        "messages": [
            {"role": "system", "content": [{"type": "text", "text": "Be brief."}]},  # upstream crashes on this
            {"role": "user", "content": [{"type": "text", "text": QUESTION}]},
        ],
    }
    new = MemoriRecall(stocked, entity_id="u1").apply(kwargs, provider="openai")
    reply = openai_client.chat.completions.create(**new)
    assert reply.choices[0].message.content == "ok"
    sent = endpoint.last("/chat/completions")
    assert sent["messages"][0] == {
        "role": "system",
        # after a blank line: a provider may join the parts as they are ("Be brief.<memori_context>")
        "content": [{"type": "text", "text": "Be brief."}, {"type": "text", "text": "\n\n" + expected_block}],
    }
    assert sent["messages"][1] == kwargs["messages"][1]


def test_openai_chat_request_gets_a_system_message_when_there_is_none(openai_client: Any, endpoint: Recorder) -> None:
    kwargs = {"model": "gpt-test", "messages": [{"role": "user", "content": "hi"}]}
    block = format_context([{"content": "User likes tea"}])
    openai_client.chat.completions.create(**inject_context(kwargs, block, provider="openai"))
    sent = endpoint.last("/chat/completions")
    assert sent["messages"] == [{"role": "system", "content": block}, {"role": "user", "content": "hi"}]


async def test_async_openai_chat_with_aapply(endpoint: Recorder, stocked: RecallEngine, expected_block: str) -> None:
    import openai

    client = openai.AsyncOpenAI(api_key="test-key", base_url=endpoint.url + "/v1", max_retries=0)
    kwargs = {"model": "gpt-test", "messages": [{"role": "user", "content": QUESTION}]}
    new = await MemoriRecall(stocked, entity_id="u1").aapply(kwargs, provider="openai")
    await client.chat.completions.create(**new)
    await client.close()
    assert endpoint.last("/chat/completions")["messages"][0] == {"role": "system", "content": expected_block}


def test_openai_responses_request_carries_the_block_in_instructions(
    openai_client: Any, endpoint: Recorder, stocked: RecallEngine, expected_block: str
) -> None:
    kwargs = {
        "model": "gpt-test",
        "instructions": "Answer in French.",
        "input": [{"role": "user", "content": [{"type": "input_text", "text": QUESTION}]}],
    }
    new = MemoriRecall(stocked, entity_id="u1").apply(kwargs, provider="openai-responses")
    reply = openai_client.responses.create(**new)
    assert reply.output_text == "ok"
    sent = endpoint.last("/responses")
    assert sent["instructions"] == "Answer in French.\n\n" + expected_block
    assert sent["input"] == kwargs["input"]


@pytest.mark.parametrize("system", ["absent", "blocks"])
def test_anthropic_request_carries_the_block_in_system(
    anthropic_client: Any, endpoint: Recorder, stocked: RecallEngine, expected_block: str, system: str
) -> None:
    kwargs: dict[str, Any] = {
        "model": "claude-test",
        "max_tokens": 64,
        "messages": [{"role": "user", "content": [{"type": "text", "text": QUESTION}]}],
    }
    if system == "blocks":  # upstream crashes on this
        kwargs["system"] = [{"type": "text", "text": "Policy.", "cache_control": {"type": "ephemeral"}}]
    new = MemoriRecall(stocked, entity_id="u1").apply(kwargs, provider="anthropic")
    reply = anthropic_client.messages.create(**new)
    assert reply.content[0].text == "ok"
    sent = endpoint.last("/v1/messages")
    if system == "blocks":
        assert sent["system"] == [kwargs["system"][0], {"type": "text", "text": expected_block}]
    else:
        assert sent["system"] == expected_block
    assert sent["messages"] == kwargs["messages"]


@pytest.mark.parametrize("shape", ["no-config", "typed-empty", "typed-str", "typed-content", "dict-parts"])
def test_google_genai_request_carries_the_block_in_system_instruction(
    genai_client: Any, endpoint: Recorder, stocked: RecallEngine, expected_block: str, shape: str
) -> None:
    from google.genai import types

    kwargs: dict[str, Any] = {
        "model": "gemini-test",
        "contents": [types.Content(role="user", parts=[types.Part(text=QUESTION)])],
    }
    if shape == "typed-empty":
        kwargs["config"] = types.GenerateContentConfig(temperature=0.1)
    elif shape == "typed-str":
        kwargs["config"] = types.GenerateContentConfig(system_instruction="Be terse.", temperature=0.1)
    elif shape == "typed-content":
        kwargs["config"] = types.GenerateContentConfig(
            system_instruction=types.Content(parts=[types.Part(text="Be terse.")])
        )
    elif shape == "dict-parts":
        kwargs["config"] = {"system_instruction": [{"text": "Be terse."}]}
    new = MemoriRecall(stocked, entity_id="u1").apply(kwargs, provider="google")
    reply = genai_client.models.generate_content(**new)
    assert reply.text == "ok"
    sent = endpoint.last(":generateContent")
    texts = [p["text"] for p in sent["systemInstruction"]["parts"]]
    if shape in ("no-config", "typed-empty"):
        assert texts == [expected_block]
    elif shape == "typed-str":
        assert texts == ["Be terse.\n\n" + expected_block]
        assert sent["generationConfig"]["temperature"] == pytest.approx(0.1)
    else:
        assert texts == ["Be terse.", expected_block]
    assert sent["contents"][0]["parts"] == [{"text": QUESTION}]


# -- a follow-up is recalled with the user turns before it -----------------------------


def _conversation(provider: str) -> dict[str, Any]:
    """A two-turn conversation (with a tool round trip after the follow-up) in ``provider``'s own shape."""
    if provider == "openai":
        return {"model": "gpt-test", "messages": [
            {"role": "system", "content": "Be brief."},
            {"role": "user", "content": TURN_1},
            {"role": "assistant", "content": "Have a lovely evening!"},
            {"role": "user", "content": [{"type": "text", "text": TURN_2}]},
            {"role": "assistant", "content": None,
             "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "menu", "arguments": "{}"}}]},
            {"role": "tool", "tool_call_id": "c1", "content": "oysters, crab, lobster"},
        ]}
    if provider == "openai-responses":
        return {"model": "gpt-test", "instructions": "Be brief.", "input": [
            {"role": "user", "content": TURN_1},
            {"role": "assistant", "content": "Have a lovely evening!"},
            {"role": "user", "content": [{"type": "input_text", "text": TURN_2}]},
        ]}
    if provider == "anthropic":
        return {"model": "claude-test", "max_tokens": 64, "messages": [
            {"role": "user", "content": TURN_1},
            {"role": "assistant", "content": "Have a lovely evening!"},
            {"role": "user", "content": [{"type": "text", "text": TURN_2}]},
            {"role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "menu", "input": {}}]},
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "oysters"}]},
        ]}
    from google.genai import types

    return {"model": "gemini-test", "contents": [
        types.Content(role="user", parts=[types.Part(text=TURN_1)]),
        types.Content(role="model", parts=[types.Part(text="Have a lovely evening!")]),
        types.Content(role="user", parts=[types.Part(text=TURN_2)]),
    ]}


def _send(provider: str, kwargs: dict[str, Any], clients: dict[str, Any], endpoint: Recorder) -> str:
    """Send ``kwargs`` through the provider's real client; the system prompt text the endpoint received."""
    if provider == "openai":
        clients["openai"].chat.completions.create(**kwargs)
        system = endpoint.last("/chat/completions")["messages"][0]
        assert system["role"] == "system"
        return system["content"]
    if provider == "openai-responses":
        clients["openai"].responses.create(**kwargs)
        return endpoint.last("/responses")["instructions"]
    if provider == "anthropic":
        clients["anthropic"].messages.create(**kwargs)
        return endpoint.last("/v1/messages")["system"]
    clients["google"].models.generate_content(**kwargs)
    return "\n".join(p["text"] for p in endpoint.last(":generateContent")["systemInstruction"]["parts"])


@pytest.fixture
def clients(openai_client: Any, anthropic_client: Any, genai_client: Any) -> dict[str, Any]:
    return {"openai": openai_client, "anthropic": anthropic_client, "google": genai_client}


@pytest.mark.parametrize("provider", ["openai", "openai-responses", "anthropic", "google"])
def test_follow_up_is_recalled_with_the_earlier_user_turn_as_context(
    provider: str, clients: dict[str, Any], endpoint: Recorder
) -> None:
    engine = recording_engine()
    kwargs = _conversation(provider)
    before = copy.deepcopy(kwargs)
    new = MemoriRecall(engine, entity_id="u1").apply(kwargs, provider=provider)
    assert engine.recalls == [{"query": TURN_2, "entity_id": "u1", "context": [TURN_1]}]
    assert kwargs == before
    system = _send(provider, new, clients, endpoint)
    assert "<memori_context>" in system and SHELLFISH in system


def test_single_turn_passes_no_context() -> None:
    engine = recording_engine()
    facts = MemoriRecall(engine, entity_id="u1").recall_for({"messages": [{"role": "user", "content": TURN_2}]})
    assert engine.recalls == [{"query": TURN_2, "entity_id": "u1", "context": None}]
    assert facts == engine.recall(TURN_2, "u1")  # exactly the single-turn recall of before


def test_context_is_bounded_by_the_engines_context_turns() -> None:
    engine = RecordingEngine(ChromaStore.in_memory(), HashEmbedder(), RecallConfig(context_turns=1))
    kwargs = {"messages": [{"role": "user", "content": t} for t in ("first", TURN_1, TURN_2)]}
    MemoriRecall(engine, entity_id="u1").recall_for(kwargs)
    assert engine.contexts == [[TURN_1]]
    off = RecordingEngine(ChromaStore.in_memory(), HashEmbedder(), RecallConfig(context_turns=0))
    MemoriRecall(off, entity_id="u1").recall_for(kwargs)
    assert off.contexts == [None]


async def test_async_and_timeout_paths_pass_the_context(endpoint: Recorder) -> None:
    import openai

    engine = recording_engine()
    kwargs = _conversation("openai")
    new = await MemoriRecall(engine, entity_id="u1").aapply(kwargs, provider="openai")
    client = openai.AsyncOpenAI(api_key="test-key", base_url=endpoint.url + "/v1", max_retries=0)
    await client.chat.completions.create(**new)
    await client.close()
    assert SHELLFISH in endpoint.last("/chat/completions")["messages"][0]["content"]
    await MemoriRecall(engine, entity_id="u1", timeout=30).aapply(kwargs, provider="openai")
    MemoriRecall(engine, entity_id="u1", timeout=30).apply(kwargs, provider="openai")
    assert engine.contexts == [[TURN_1]] * 3


def test_recall_failure_with_context_still_fails_open(caplog: pytest.LogCaptureFixture) -> None:
    engine = recording_engine()
    break_store(engine)
    kwargs = _conversation("openai")
    with caplog.at_level(logging.WARNING, logger="memori_core.sdk.memori_recall"):
        out = MemoriRecall(engine, entity_id="u1").apply(kwargs, provider="openai")
    assert out == kwargs and engine.contexts == [[TURN_1]]
    assert "calling the model without memory" in caplog.text


def test_minilm_follow_up_gets_the_fact_only_the_earlier_turn_names(
    minilm: Any, openai_client: Any, endpoint: Recorder
) -> None:
    engine = minilm_engine(minilm)
    # The engine: with the earlier turn the allergy ranks first, without it it does not.
    with_context = engine.explain(TURN_2, "u1", context=[TURN_1]).candidates
    alone = engine.explain(TURN_2, "u1").candidates
    assert with_context[0].content == SHELLFISH and alone[0].content != SHELLFISH
    shellfish_alone = next(c.cosine for c in alone if c.content == SHELLFISH)
    assert with_context[0].cosine > shellfish_alone

    memory = MemoriRecall(engine, entity_id="u1", k=1)
    openai_client.chat.completions.create(**memory.apply(_conversation("openai"), provider="openai"))
    system = endpoint.last("/chat/completions")["messages"][0]["content"]
    assert SHELLFISH in system and "Leeds" not in system
    single = {"model": "gpt-test", "messages": [{"role": "user", "content": TURN_2}]}
    openai_client.chat.completions.create(**memory.apply(single, provider="openai"))
    assert SHELLFISH not in endpoint.last("/chat/completions")["messages"][0]["content"]


def test_memori_recall_speaks_the_adapters_vocabulary(stocked) -> None:
    with pytest.warns(DeprecationWarning, match=r"MemoriRecall\(limit=\.\.\.\) is deprecated"):
        old = MemoriRecall(stocked, entity_id="u1", limit=2)
    assert old.k == 2 and MemoriRecall(stocked, entity_id="u1", k=2).k == 2
    with pytest.warns(DeprecationWarning):
        assert old.limit == 2
    with pytest.raises(TypeError, match="MemoriRecall: engine must be a memori_core.RecallEngine"):
        MemoriRecall(object(), entity_id="u1")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="k must be a non-negative int"):
        MemoriRecall(stocked, entity_id="u1", k=-1)
    with pytest.raises(ValueError, match="MemoriRecall does not know whose memory to use"):
        MemoriRecall(stocked).recall_for({"messages": [{"role": "user", "content": QUESTION}]})
