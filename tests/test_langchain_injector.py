"""MemoriContextInjector: the model of a real LCEL chain sees the user's facts in its system prompt."""

from __future__ import annotations

import logging

import pytest
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage
from langchain_core.prompt_values import ChatPromptValue
from langchain_core.prompts import ChatPromptTemplate, MessagesPlaceholder

from _faults import break_store
from _helpers import HashEmbedder, seeded_fixtures
from _langchain_fakes import FailingEmbedder, replies
from memori_core import ChromaStore, RecallEngine
from memori_core.context import OPEN_TAG
from memori_langchain import MemoriContextInjector

PEANUTS = "Alice is allergic to peanuts."
OFF_TOPIC = "zebra xylophone quartz"


def _seed(engine: RecallEngine) -> RecallEngine:
    engine.add("alice", [PEANUTS, "Alice lives in Lisbon."], created_at="2026-05-01T09:30:00Z")
    engine.add("bob", ["Bob is allergic to shellfish.", "Bob lives in Oslo."])
    return engine


# Alice's and Bob's facts under the shipped config, shared by the tests that only read them (checked at
# teardown); a test that breaks the store or watches the embedder takes ``fresh_seeded``.
seeded, fresh_seeded = seeded_fixtures(_seed)


@pytest.fixture
def prompt():
    return ChatPromptTemplate.from_messages([("system", "You are a cooking assistant."), ("human", "{question}")])


def test_chain_model_sees_fact_in_its_system_prompt(seeded, prompt):
    model = replies("Try a peanut-free curry.")
    chain = prompt | MemoriContextInjector(engine=seeded, entity_id="alice") | model
    answer = chain.invoke({"question": "Can I cook with peanuts?"})
    assert answer.content == "Try a peanut-free curry."
    [sent] = model.calls
    assert isinstance(sent[0], SystemMessage)
    assert sent[0].content.startswith("You are a cooking assistant.\n\n<memori_context>\n")
    assert f"- {PEANUTS} Stated at 2026-05-01 09:30 UTC" in sent[0].content
    assert sum(isinstance(m, SystemMessage) for m in sent) == 1
    assert sent[-1] == HumanMessage("Can I cook with peanuts?")


@pytest.mark.parametrize(("order", "got"), [("memory first", r"a dict without a 'messages' key \(a prompt's variables\?\)"),
                                           ("memory last", r"got AIMessage \(a model's reply\?\)")])
def test_an_injector_out_of_place_in_a_chain_says_where_it_goes(seeded, prompt, order, got):
    # A tester's `memory | prompt | model` and `prompt | model | memory` failed without saying where it belongs.
    memory = MemoriContextInjector(engine=seeded, entity_id="alice")
    chain = memory | prompt | replies("ok") if order == "memory first" else prompt | replies("ok") | memory
    with pytest.raises(TypeError, match=got + r"; in a chain it goes between the prompt and the model: "
                                          r"prompt \| MemoriContextInjector\(\.\.\.\) \| model"):
        chain.invoke({"question": "Can I cook with peanuts?"})


def test_other_users_facts_never_appear(seeded, prompt):
    model = replies("ok", "ok")
    injector = MemoriContextInjector(engine=seeded)
    chain = prompt | injector | model
    chain.invoke({"question": "what am I allergic to and where do I live"}, {"configurable": {"entity_id": "bob"}})
    chain.invoke({"question": "what am I allergic to and where do I live"}, {"configurable": {"entity_id": "alice"}})
    bob_seen, alice_seen = model.system_texts()
    assert "shellfish" in bob_seen and "Alice" not in bob_seen
    assert PEANUTS in alice_seen and "Bob" not in alice_seen


def test_config_entity_overrides_constructor(seeded):
    injector = MemoriContextInjector(engine=seeded, entity_id="alice")
    out = injector.invoke([HumanMessage("allergic")], {"configurable": {"entity_id": "bob"}})
    assert "shellfish" in out[0].content and "peanuts" not in out[0].content


def test_nothing_injected_below_threshold(seeded, prompt):
    assert seeded.recall(OFF_TOPIC, "alice") == []  # precondition: nothing passes the threshold
    model = replies("ok")
    (prompt | MemoriContextInjector(engine=seeded, entity_id="alice") | model).invoke({"question": OFF_TOPIC})
    assert model.system_texts() == ["You are a cooking assistant."]


def test_blank_query_injects_nothing_and_skips_recall(fresh_seeded, hash_embedder):
    injector = MemoriContextInjector(engine=fresh_seeded, entity_id="alice")
    before = hash_embedder.calls
    messages = [SystemMessage("sys"), HumanMessage("   ")]
    assert injector.invoke(messages) == messages
    assert injector.invoke([SystemMessage("sys"), AIMessage("hello")])[0].content == "sys"
    assert hash_embedder.calls == before


def test_chat_prompt_value_in_chat_prompt_value_out(seeded, prompt):
    value = prompt.invoke({"question": "peanuts?"})
    out = MemoriContextInjector(engine=seeded, entity_id="alice").invoke(value)
    assert isinstance(out, ChatPromptValue)
    assert PEANUTS in out.messages[0].content
    assert OPEN_TAG not in value.messages[0].content  # the input is not modified


def test_list_without_system_message_gets_one_first(seeded):
    history = [HumanMessage("hi"), AIMessage("hello"), HumanMessage("any peanuts in this for me?")]
    out = MemoriContextInjector(engine=seeded, entity_id="alice").invoke(history)
    assert isinstance(out, list) and len(out) == 4
    assert isinstance(out[0], SystemMessage) and out[0].content.startswith(OPEN_TAG)
    assert out[1:] == history


def test_block_goes_into_first_system_message_only(seeded):
    messages = [HumanMessage("x"), SystemMessage("first"), SystemMessage("second"), HumanMessage("peanuts")]
    out = MemoriContextInjector(engine=seeded, entity_id="alice").invoke(messages)
    assert out[0] == messages[0]
    assert out[1].content.startswith("first\n\n<memori_context>") and PEANUTS in out[1].content
    assert out[2].content == "second"


def test_list_content_system_message_gets_a_text_block_after_a_blank_line(seeded):
    system = SystemMessage(content=[{"type": "text", "text": "Be brief.", "cache_control": {"type": "ephemeral"}}])
    out = MemoriContextInjector(engine=seeded, entity_id="alice").invoke([system, HumanMessage("peanuts")])
    content = out[0].content
    assert content[0] == system.content[0]
    assert content[1]["type"] == "text" and content[1]["text"].startswith("\n\n" + OPEN_TAG)
    assert PEANUTS in content[1]["text"]
    assert out[0].text.startswith("Be brief.\n\n" + OPEN_TAG)  # joined text keeps the separator
    assert len(system.content) == 1  # the input message is not modified


def test_a_list_content_system_message_without_text_gets_the_block_alone(seeded):
    system = SystemMessage(content=[{"type": "image_url", "image_url": {"url": "https://example.com/logo.png"}}])
    out = MemoriContextInjector(engine=seeded, entity_id="alice").invoke([system, HumanMessage("peanuts")])
    assert out[0].content[1]["text"].startswith(OPEN_TAG)


def test_a_chat_message_with_role_user_is_read_as_the_human_turn(seeded):
    from langchain_core.messages import ChatMessage

    messages = [SystemMessage("Be brief."), ChatMessage(role="user", content="peanuts")]
    out = MemoriContextInjector(engine=seeded, entity_id="alice").invoke(messages)
    assert out[0].content.startswith("Be brief.\n\n" + OPEN_TAG) and PEANUTS in out[0].content
    assert out[1] == messages[1]


def test_dict_with_messages_keeps_other_keys(seeded):
    state = {"messages": [("human", "peanuts allergy?")], "thread": "t-1"}
    out = MemoriContextInjector(engine=seeded, entity_id="alice").invoke(state)
    assert out["thread"] == "t-1"
    assert isinstance(out["messages"][0], SystemMessage) and PEANUTS in out["messages"][0].content


def test_query_is_last_human_text_parts_only(fresh_seeded, hash_embedder):
    seen: list[str] = []
    inner = hash_embedder.embed_query

    def spy(text: str):
        seen.append(text)
        return inner(text)

    hash_embedder.embed_query = spy
    message = HumanMessage(content=[
        {"type": "text", "text": "what about"},
        {"type": "image_url", "image_url": {"url": "data:image/png;base64,AAAA"}},
        {"type": "text", "text": "peanuts for me"},
    ])
    out = MemoriContextInjector(engine=fresh_seeded, entity_id="alice").invoke(
        [HumanMessage("where do I live?"), AIMessage("Lisbon"), message]
    )
    # The question, then the conversation it is read with: the question and the earlier human turns, newest
    # first (never the AI reply).
    assert seen == ["what about\npeanuts for me", "what about\npeanuts for me\nwhere do I live?"]
    assert PEANUTS in out[0].content


def test_prompt_with_history_placeholder(seeded):
    prompt = ChatPromptTemplate.from_messages(
        [("system", "Assistant."), MessagesPlaceholder("history"), ("human", "{question}")]
    )
    model = replies("ok")
    chain = prompt | MemoriContextInjector(engine=seeded, entity_id="alice") | model
    chain.invoke({"history": [HumanMessage("hi"), AIMessage("hello")], "question": "is peanuts butter ok for me?"})
    [sent] = model.calls
    assert len(sent) == 4 and PEANUTS in sent[0].content


async def test_ainvoke_abatch_and_astream(seeded, prompt):
    model = replies("a", "b", "c", "d")
    chain = prompt | MemoriContextInjector(engine=seeded) | model
    cfg = {"configurable": {"entity_id": "alice"}}
    await chain.ainvoke({"question": "peanuts?"}, cfg)
    await chain.abatch([{"question": "peanuts?"}, {"question": OFF_TOPIC}], cfg)
    [chunk async for chunk in chain.astream({"question": "peanuts?"}, cfg)]
    texts = model.system_texts()
    assert len(texts) == 4
    assert sum(PEANUTS in t for t in texts) == 3 and "You are a cooking assistant." in texts


def test_batch_with_a_config_per_input(seeded, prompt):
    injector = MemoriContextInjector(engine=seeded)
    outs = (prompt | injector).batch(
        [{"question": "allergic"}, {"question": "allergic"}],
        [{"configurable": {"entity_id": "alice"}}, {"configurable": {"entity_id": "bob"}}],
    )
    assert "peanuts" in outs[0].messages[0].content and "shellfish" not in outs[0].messages[0].content
    assert "shellfish" in outs[1].messages[0].content and "peanuts" not in outs[1].messages[0].content


def test_stream_yields_the_injected_prompt(seeded, prompt):
    chunks = list((prompt | MemoriContextInjector(engine=seeded, entity_id="alice")).stream({"question": "peanuts"}))
    assert len(chunks) == 1 and PEANUTS in chunks[0].messages[0].content


def test_without_entity_raises_a_clear_error(seeded, prompt):
    chain = prompt | MemoriContextInjector(engine=seeded) | replies("ok")
    with pytest.raises(ValueError, match=r"entity_id=.*configurable"):
        chain.invoke({"question": "peanuts"})


def test_unsupported_input_type_is_a_type_error(seeded):
    with pytest.raises(TypeError, match="ChatPromptValue"):
        MemoriContextInjector(engine=seeded, entity_id="alice").invoke("peanuts")


@pytest.mark.parametrize("messages", [None, "peanuts", 42])
def test_a_dict_whose_messages_is_not_a_list_is_a_type_error_naming_it(seeded, messages):
    with pytest.raises(TypeError, match=rf"'messages' must be a list of messages, got {type(messages).__name__}"):
        MemoriContextInjector(engine=seeded, entity_id="alice").invoke({"messages": messages})


def test_store_failure_fails_open_with_a_warning(fresh_seeded, prompt, caplog):
    model = replies("answered anyway")
    chain = prompt | MemoriContextInjector(engine=fresh_seeded, entity_id="alice") | model
    break_store(fresh_seeded)
    with caplog.at_level(logging.WARNING, logger="memori_langchain"):
        answer = chain.invoke({"question": "peanuts?"})
    assert answer.content == "answered anyway"
    assert model.system_texts() == ["You are a cooking assistant."]
    assert any("recall failed" in r.getMessage() and "'alice'" in r.getMessage() for r in caplog.records)


async def test_store_failure_fails_open_async(fresh_seeded, prompt):
    model = replies("answered anyway")
    chain = prompt | MemoriContextInjector(engine=fresh_seeded, entity_id="alice") | model
    break_store(fresh_seeded)
    assert (await chain.ainvoke({"question": "peanuts?"})).content == "answered anyway"


def test_embedder_failure_fails_open_and_strict_raises(hash_embedder, prompt):
    engine = RecallEngine(store=ChromaStore.in_memory(), embedder=FailingEmbedder(hash_embedder))
    engine.add("alice", [PEANUTS])
    model = replies("ok")
    (prompt | MemoriContextInjector(engine=engine, entity_id="alice") | model).invoke({"question": "peanuts"})
    assert model.system_texts() == ["You are a cooking assistant."]
    strict = prompt | MemoriContextInjector(engine=engine, entity_id="alice", strict=True) | replies("ok")
    with pytest.raises(ConnectionError, match="embedding service unavailable"):
        strict.invoke({"question": "peanuts"})


def test_messages_sent_again_as_history_get_this_turns_block_in_place_of_the_earlier_one():
    # An app that keeps what the injector returned as its history: the earlier block held a fact deleted since.
    engine = RecallEngine(store=ChromaStore.in_memory(), embedder=HashEmbedder())
    [allergy] = engine.add("u1", ["User is allergic to peanuts."])
    engine.add("u1", ["User has a dog named Biscuit."])
    injector = MemoriContextInjector(engine=engine, entity_id="u1")
    first = injector.invoke([SystemMessage("Be brief."), HumanMessage("Is a peanut snack OK for me?")])
    assert "peanuts" in first[0].text
    engine.delete("u1", [allergy])
    second = injector.invoke(first + [AIMessage("No."), HumanMessage("What should I feed my dog Biscuit?")])
    assert second[0].text.count(OPEN_TAG) == 1 and "Biscuit" in second[0].text and "peanuts" not in second[0].text
    assert second[0].text.startswith("Be brief.")
    nothing = injector.invoke(first + [AIMessage("No."), HumanMessage("What's 17 times 23?")])
    assert OPEN_TAG not in nothing[0].text and nothing[0].text == "Be brief."


def test_last_user_placement_appends_the_block_to_the_latest_human_message(seeded):
    prompt = ChatPromptTemplate.from_messages(
        [("system", "You are a cooking assistant."), MessagesPlaceholder("history"), ("human", "{question}")])
    model = replies("ok")
    chain = prompt | MemoriContextInjector(engine=seeded, entity_id="alice", placement="last_user") | model
    history = [HumanMessage("I'm cooking tonight."), AIMessage("Lovely!")]
    chain.invoke({"history": history, "question": "Can I cook with peanuts?"})
    [sent] = model.calls
    assert sent[0] == SystemMessage("You are a cooking assistant.")  # the cacheable prefix is untouched
    assert sent[1:3] == history
    assert sent[3].content.startswith("Can I cook with peanuts?\n\n<memori_context>\n")
    assert f"- {PEANUTS} Stated at 2026-05-01 09:30 UTC" in sent[3].content
    assert sum(OPEN_TAG in m.text for m in sent) == 1


async def test_last_user_placement_replaces_the_block_an_earlier_turn_left_in_the_history():
    engine = RecallEngine(store=ChromaStore.in_memory(), embedder=HashEmbedder())
    [allergy] = engine.add("u1", ["User is allergic to peanuts."])
    engine.add("u1", ["User has a dog named Biscuit."])
    injector = MemoriContextInjector(engine=engine, entity_id="u1", placement="last_user")
    first = await injector.ainvoke([SystemMessage("Be brief."), HumanMessage("Is a peanut snack OK for me?")])
    assert first[0] == SystemMessage("Be brief.") and "peanuts" in first[1].text
    engine.delete("u1", [allergy])
    second = await injector.ainvoke(first + [AIMessage("No."), HumanMessage("What should I feed my dog Biscuit?")])
    assert second[1] == HumanMessage("Is a peanut snack OK for me?")  # the earlier turn's block is gone
    assert "Biscuit" in second[-1].text and sum(OPEN_TAG in m.text for m in second) == 1


def test_an_unknown_placement_is_refused_naming_it(seeded):
    with pytest.raises(ValueError, match="placement must be one of 'system', 'last_user'; got 'user'"):
        MemoriContextInjector(engine=seeded, entity_id="alice", placement="user")
