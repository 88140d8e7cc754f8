"""A replayed chat (dated turns: capture with their said times, then each later turn answered) reads memory as of
the turn being answered, as capture dated that turn's facts: a stay that ended before now but not before the
turn is shown, a home stated after the turn is not, the one it replaced is. Before, the adapters recalled at the
wall clock: the stay had expired and the later home was shown to an earlier turn. A turn said within the last
minute (a live chat whose messages carry their time) is read at now; so is a provider SDK call whose
``said_at`` is recent. Each surface runs in the framework's own
objects with its fake models over a real in-memory Chroma store."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from langchain.agents import create_agent
from langchain_core.messages import HumanMessage
from langchain_core.prompts import ChatPromptTemplate
from llama_index.core.base.llms.types import ChatMessage

from _helpers import HashEmbedder, ungated_engine
from _langchain_fakes import recall_model_capture_graph, replies
from memori_core import MemoriRecall, RecallEngine, RuleBasedFactExtractor, capture_facts
from memori_core.capture import said_as_of
from memori_core.engine import derived_fact_id
from memori_core.validate import LIVE_TURN_SECONDS, turn_as_of
from memori_langchain import MemoriContextInjector, MemoriMiddleware, memori_capture_node
from memori_llamaindex import MemoriMemoryBlock

OSLO, ROME = "User lives in Oslo.", "User lives in Rome."
LISBON = "User is in Lisbon for work in the week of Monday 2026-03-02."
MONDAY = datetime(2026, 3, 2, 9, 0, tzinfo=timezone.utc)
TUESDAY = "2026-03-03T19:00:00+00:00"  # the stay holds, Oslo is home
LATER = "2026-03-25T19:00:00+00:00"  # the stay is over, the move to Rome stated
QUESTION = "Any ideas for dinner tonight?"


def _replayed() -> RecallEngine:
    engine = ungated_engine(HashEmbedder())
    engine.add("zoe", OSLO, created_at=MONDAY - timedelta(days=60))
    capture_facts(engine, "zoe", [("user", "I'm in Lisbon for work this week.")], RuleBasedFactExtractor(),
                  created_at=MONDAY)
    engine.add("zoe", ROME, created_at="2026-03-20T10:00:00+00:00", supersedes=[derived_fact_id(OSLO)])
    return engine


def _facts(block: str) -> set[str]:
    return {line[2:].split(" Stated at")[0] for line in block.splitlines() if line.startswith("- ")}


def _asked(said_at: str | None = None) -> HumanMessage:
    return HumanMessage(QUESTION, additional_kwargs={"created_at": said_at} if said_at else {})


def test_the_engine_reads_the_stay_as_current_on_its_week_and_over_afterwards() -> None:
    engine = _replayed()
    (stay,) = [f for f in engine.list("zoe") if f.content == LISBON]
    assert stay.expires_at == "2026-03-09T12:00:00+00:00"  # capture wrote the week's end
    read = {when: {f.content for f in engine.recall(QUESTION, "zoe", as_of=when)} for when in (TUESDAY, LATER)}
    assert read == {TUESDAY: {OSLO, LISBON}, LATER: {ROME}}


def test_middleware_answers_each_replayed_turn_with_memory_as_of_its_time() -> None:
    engine = _replayed()
    model = replies("Bacalhau.", "Cacio e pepe.", "Cacio e pepe.")
    agent = create_agent(model, [], middleware=[MemoriMiddleware(engine=engine, entity_id="zoe")])
    for said_at in (TUESDAY, LATER, None):
        agent.invoke({"messages": [_asked(said_at)]})
    assert [_facts(text) for text in model.system_texts()] == [{OSLO, LISBON}, {ROME}, {ROME}]


def test_injector_and_graph_node_read_a_replayed_turn_as_of_its_time() -> None:
    engine = _replayed()
    model = replies("Bacalhau.", "Bacalhau.")
    prompt = ChatPromptTemplate.from_messages([("system", "You are a cook."), ("placeholder", "{messages}")])
    (prompt | MemoriContextInjector(engine, "zoe") | model).invoke({"messages": [_asked(TUESDAY)]})
    graph = recall_model_capture_graph(engine, model, memori_capture_node(engine, entity_id="zoe"), entity_id="zoe")
    graph.invoke({"messages": [_asked(TUESDAY)]}, {"configurable": {"thread_id": "t1"}})
    assert [_facts(text) for text in model.system_texts()] == [{OSLO, LISBON}, {OSLO, LISBON}]


async def test_llamaindex_memory_block_reads_a_replayed_turn_as_of_its_time() -> None:
    engine = _replayed()
    block = MemoriMemoryBlock(engine=engine, entity_id="zoe")
    dated = await block.aget([ChatMessage(role="user", content=QUESTION, additional_kwargs={"created_at": TUESDAY})])
    plain = await block.aget([ChatMessage(role="user", content=QUESTION)])
    assert (_facts(dated), _facts(plain)) == ({OSLO, LISBON}, {ROME})


def test_a_turn_said_within_the_last_minute_is_read_at_now() -> None:
    engine = _replayed()
    engine.add("zoe", "User is hosting friends tonight.")  # written a moment after the message was stamped
    just_now = (datetime.now(timezone.utc) - timedelta(seconds=5)).isoformat()
    model = replies("Paella.")
    create_agent(model, [], middleware=[MemoriMiddleware(engine=engine, entity_id="zoe")]).invoke(
        {"messages": [_asked(just_now)]})
    assert _facts(model.system_texts()[0]) == {ROME, "User is hosting friends tonight."}
    assert said_as_of({"created_at": just_now}) is None and said_as_of({}) is None
    assert said_as_of({"created_at": TUESDAY}) == datetime.fromisoformat(TUESDAY)
    assert turn_as_of(datetime.now(timezone.utc) - timedelta(seconds=LIVE_TURN_SECONDS + 5)) is not None


async def test_memori_recall_reads_a_call_said_at_a_replayed_time_as_of_then() -> None:
    memory = MemoriRecall(_replayed(), entity_id="zoe", provider="openai")
    kwargs = {"model": "gpt-4o-mini", "messages": [{"role": "user", "content": QUESTION}]}
    replayed = memory.apply(kwargs, said_at=TUESDAY)["messages"][0]["content"]
    later = (await memory.aapply(kwargs, said_at=LATER))["messages"][0]["content"]
    assert (_facts(replayed), _facts(later), _facts(memory.apply(kwargs)["messages"][0]["content"])) == (
        {OSLO, LISBON}, {ROME}, {ROME})
    assert {f.content for f in memory.recall_for(kwargs, said_at=TUESDAY)} == {OSLO, LISBON}


# -- a replayed turn is compared with the facts valid when it was said -------------------------------------------

DENTIST = "User has a dentist appointment on Tuesday 2026-03-10 at 3pm."


def _booked() -> RecallEngine:
    """A dentist appointment captured on 1 March (it expires after the 10th, long before now)."""
    engine = ungated_engine(HashEmbedder())
    capture_facts(engine, "zoe", [("user", "I have a dentist appointment on March 10 at 3pm.")],
                  RuleBasedFactExtractor(), created_at="2026-03-01T10:00:00+00:00")
    assert [f.content for f in engine.list("zoe")] == [DENTIST]
    return engine


def test_nearest_as_of_ranks_the_facts_valid_then() -> None:
    engine = _replayed()
    assert [f.content for f in engine.nearest("Where do I live?", "zoe", 1, as_of=TUESDAY)] == [OSLO]
    assert [f.content for f in engine.nearest("Where do I live?", "zoe", 1)] == [ROME]


def test_a_replayed_turn_restating_an_appointment_finds_it_unexpired_and_stores_no_copy() -> None:
    # Before, capture read the stored appointment as expired by the wall clock (the 10th is long past) and stored
    # the turn's restatement in other words ("... at 3pm on Tuesday 2026-03-10.") as a second fact.
    engine = _booked()
    capture_facts(engine, "zoe", [("user", "I have a dentist appointment at 3pm on March 10.")],
                  RuleBasedFactExtractor(), created_at="2026-03-05T10:00:00+00:00")
    assert [f.content for f in engine.list("zoe", include_invalid=True)] == [DENTIST]

