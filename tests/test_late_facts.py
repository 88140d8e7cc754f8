"""A fact told late lands in the past (issue 21, tester j10's finding 5): a turn said before a fact it replaces
became valid, but captured or added after it (a queued or retried turn), is stored already superseded by that
fact, and ends, at its own time, what that fact had replaced. ``history`` and ``recall(as_of=...)`` stay true and
recall gives one current fact; over a real Chroma store (embedded, and a ``chroma run`` server), through the
LangChain middleware with the rules, the LLM extractor, and ``add`` itself."""

from __future__ import annotations

from typing import Any

import pytest
from langchain.agents import create_agent
from langchain_core.language_models.fake_chat_models import FakeListChatModel
from langchain_core.messages import HumanMessage

from _helpers import HashEmbedder, running_chroma_server, ungated_engine, ungated_on_each_store
from _langchain_fakes import replies
from memori_core import ChromaStore, RecallConfig, RecallEngine, RuleBasedFactExtractor, capture_facts
from memori_core.extraction import ExtractedFact
from memori_langchain import LLMFactExtractor, MemoriMiddleware

OPEN = RecallConfig(gate="off")
HOME = "Where do I live?"
LEEDS, YORK, HULL, BATH = ("User lives in Leeds.", "User lives in York.", "User lives in Hull.",
                           "User lives in Bath.")


def day(month: int, d: int) -> str:
    return f"2026-{month:02d}-{d:02d}T09:00:00+00:00"


eng = ungated_on_each_store()  # an ungated engine over in-memory Chroma, and over the reference store


def homes(engine: RecallEngine, as_of: str | None = None, entity: str = "u") -> list[str]:
    return sorted(f.content for f in engine.recall(HOME, entity, 10, as_of=as_of) if "lives in" in f.content)


def periods(engine: RecallEngine, fid: str, entity: str = "u") -> list[tuple[str, str | None]]:
    """A fact's history as (text, valid_to), oldest first."""
    return [(f.content, f.valid_to) for f in engine.history(entity, fid)]


def by_text(engine: RecallEngine, entity: str = "u") -> dict[str, Any]:
    return {f.content: f for f in engine.list(entity, include_invalid=True) if "@v" not in f.id}


def _assert_hull_landed_between_leeds_and_york(engine: RecallEngine, entity: str = "u") -> None:
    facts = by_text(engine, entity)
    leeds, hull, york = facts[LEEDS], facts[HULL], facts[YORK]
    assert (leeds.valid_to, leeds.superseded_by) == (day(10, 20), hull.id)
    assert (hull.valid_to, hull.superseded_by, hull.supersedes) == (day(10, 26), york.id, (leeds.id,))
    assert (york.valid_to, york.supersedes) == (None, (hull.id,))
    assert homes(engine, entity=entity) == [YORK]  # one home now
    assert [homes(engine, day(m, d), entity) for m, d in ((9, 30), (10, 10), (10, 22), (10, 27))] == [
        [], [LEEDS], [HULL], [YORK]]
    for fact in (leeds, hull, york):
        assert periods(engine, fact.id, entity) == [(LEEDS, day(10, 20)), (HULL, day(10, 26)), (YORK, None)]


# -- capture: the rules through the LangChain middleware, and the LLM extractor --------------------------------------


def test_a_move_the_middleware_captures_out_of_order_lands_between_the_homes_it_came_between() -> None:
    engine = ungated_engine()
    middleware = MemoriMiddleware(engine=engine, entity_id="u", capture=True)  # the rules
    agent = create_agent(replies("Nice.", "Welcome to York!", "Welcome to Hull!"), [], middleware=[middleware])
    for said, when in (("I live in Leeds.", day(10, 1)), ("I moved to York.", day(10, 26)),
                       ("I moved to Hull.", day(10, 20))):  # the Hull turn was queued, and captured last
        agent.invoke({"messages": [HumanMessage(said, additional_kwargs={"created_at": when})]})
        assert middleware.flush(timeout=30)
    _assert_hull_landed_between_leeds_and_york(engine)


def test_a_late_turn_the_llm_extractor_says_replaces_a_later_fact_lands_before_it(eng: RecallEngine) -> None:
    rules = RuleBasedFactExtractor()
    capture_facts(eng, "u", [("user", "I live in Leeds.")], rules, created_at=day(10, 1))
    capture_facts(eng, "u", [("user", "I moved to York.")], rules, created_at=day(10, 26))
    # the model is shown York, the user's valid home (F1), and says Hull replaces it
    model = FakeListChatModel(responses=['[{"fact": "User lives in Hull.", "supersedes": ["F1"]}]'])
    capture_facts(eng, "u", [("user", "I moved to Hull.")], LLMFactExtractor(model), created_at=day(10, 20))
    _assert_hull_landed_between_leeds_and_york(eng)


class _Scripted:
    """An extractor answering fixed facts; ``replacing`` (a text) supersedes every fact it is shown."""

    uses_existing_facts = True

    def __init__(self, texts: list[str], replacing: str) -> None:
        self.texts, self.replacing = texts, replacing

    def extract(self, messages: Any, existing: Any = ()) -> list[ExtractedFact]:
        ended = tuple(f.id for f in existing)
        return [ExtractedFact(t, ended if t == self.replacing else ()) for t in self.texts]


def test_only_the_facts_of_a_late_turn_that_replace_a_later_fact_land_in_the_past(eng: RecallEngine) -> None:
    eng.add("u", LEEDS, created_at=day(10, 1))
    eng.add("u", YORK, supersedes=[by_text(eng)[LEEDS].id], created_at=day(10, 26))
    job = "User works at the bakery."
    capture_facts(eng, "u", [("user", "I moved to Hull and I work at the bakery.")], _Scripted([HULL, job], HULL),
                  created_at=day(10, 20))
    _assert_hull_landed_between_leeds_and_york(eng)
    assert (by_text(eng)[job].valid_to, by_text(eng)[job].supersedes) == (None, ())  # the job holds, as said


# -- add(..., supersedes=..., created_at=...) ------------------------------------------------------------------------


def test_an_add_dated_inside_a_chain_of_later_facts_lands_where_its_time_falls(eng: RecallEngine) -> None:
    [leeds] = eng.add("u", LEEDS, created_at=day(10, 1))
    [york] = eng.add("u", YORK, supersedes=[leeds], created_at=day(10, 26))
    [bath] = eng.add("u", BATH, supersedes=[york], created_at=day(11, 10))
    [hull] = eng.add("u", HULL, supersedes=[bath], created_at=day(10, 20))  # names the newest home
    derby = "User lives in Derby."
    [first] = eng.add("u", derby, supersedes=[bath], created_at=day(9, 1))  # before every home
    chain = [(derby, day(10, 1)), (LEEDS, day(10, 20)), (HULL, day(10, 26)), (YORK, day(11, 10)), (BATH, None)]
    for fid in (first, leeds, hull, york, bath):
        assert periods(eng, fid) == chain
    assert [f.supersedes for f in eng.get("u", [first, leeds, hull, york, bath])] == [
        (), (first,), (leeds,), (hull,), (york,)]
    assert homes(eng) == [BATH]
    assert [homes(eng, day(m, d)) for m, d in ((8, 1), (9, 15), (10, 15), (10, 22), (11, 1), (11, 11))] == [
        [], [derby], [LEEDS], [HULL], [YORK], [BATH]]


def test_a_superseded_fact_said_again_late_is_valid_again_only_until_the_later_fact(eng: RecallEngine) -> None:
    [leeds] = eng.add("u", LEEDS, created_at=day(1, 1))
    [york] = eng.add("u", YORK, supersedes=[leeds], created_at=day(3, 1))
    [bath] = eng.add("u", BATH, supersedes=[york], created_at=day(6, 1))
    assert eng.add("u", LEEDS, supersedes=[bath], created_at=day(4, 1)) == [leeds]  # moved back, told late
    assert periods(eng, leeds) == [(LEEDS, day(3, 1)), (YORK, day(4, 1)), (LEEDS, day(6, 1)), (BATH, None)]
    assert [homes(eng, day(m, 15)) for m in (1, 3, 4, 5, 6)] == [[LEEDS], [YORK], [LEEDS], [LEEDS], [BATH]]
    assert homes(eng) == [BATH] and eng.get("u", [leeds])[0].times_seen == 2


def test_an_undated_add_still_ends_the_facts_it_names_now(eng: RecallEngine) -> None:
    [york] = eng.add("u", YORK)
    [hull] = eng.add("u", HULL, supersedes=[york])
    assert (eng.get("u", [york])[0].superseded_by, eng.get("u", [hull])[0].valid_to) == (hull, None)
    assert homes(eng) == [HULL]


# -- a chroma run server, two processes' engines --------------------------------------------------------------------


@pytest.mark.server
def test_a_late_capture_through_a_chroma_server_is_seen_by_another_processes_engine(tmp_path) -> None:
    with running_chroma_server(tmp_path) as (host, port, _):
        writer = RecallEngine(store=ChromaStore.http(host=host, port=port), embedder=HashEmbedder(), config=OPEN)
        reader = RecallEngine(store=ChromaStore.http(host=host, port=port), embedder=HashEmbedder(), config=OPEN)
        rules = RuleBasedFactExtractor()
        for said, when in (("I live in Leeds.", day(10, 1)), ("I moved to York.", day(10, 26))):
            capture_facts(writer, "u", [("user", said)], rules, created_at=when)
        assert homes(reader) == [YORK]  # a warm copy the late write must refresh
        capture_facts(writer, "u", [("user", "I moved to Hull.")], rules, created_at=day(10, 20))
        _assert_hull_landed_between_leeds_and_york(reader)
