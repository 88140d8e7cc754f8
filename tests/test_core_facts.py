"""Core facts ("always relevant"): ``add(..., core=True)`` facts are appended to every recall, after what the
ranking and the gate chose, at most ``core_limit`` of them, most relevant first; through explain, the
cache, export/import, the CLI, the extractors, capture and the adapters."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from langchain_core.messages import HumanMessage
from langchain_core.prompts import ChatPromptTemplate

from _helpers import CountingStore, HashEmbedder, ungated_engine
from _langchain_fakes import recall_model_capture_graph, replies
from memori_core import ChromaStore, RecallConfig, RecallEngine, RuleBasedFactExtractor, embedders
from memori_core.capture import capture_facts
from memori_core.cli import main
from memori_core.config import ENV_FIELDS
from memori_core.extraction import ExtractedFact, build_extraction_prompt, is_core_fact, parse_extraction_reply
from memori_core.ranking.core import CORE, core_picks

ALLERGY = "User is allergic to peanuts."
MEDICATION = "User takes metformin every morning."
DIET = "User keeps kosher at home."
CELLO = "User plays the cello on weekends."
LEEDS = "User lives in Leeds near the canal."
DOG = "User has a golden retriever named Biscuit."
OFF_TOPIC = "Should I buy a zebra xylophone?"  # the asker's own question, unrelated to every fact


@pytest.fixture
def engine(hash_embedder: HashEmbedder) -> RecallEngine:
    """The engine of these tests appends core facts on every turn about the asker (``core_when="always"``, the
    default before ``"open"``): they pin which turns get core facts at all, and how they are appended; what ``core_when="touched"``
    leaves out of the asker's other turns is tested at the end."""
    return RecallEngine(store=ChromaStore.in_memory(), embedder=hash_embedder, config=RecallConfig(core_when="always"))


def contents(facts: list[Any]) -> list[str]:
    return [f.content for f in facts]


def seed(engine: RecallEngine, entity: str = "u") -> RecallEngine:
    engine.add(entity, [CELLO, LEEDS, DOG])
    engine.add(entity, [ALLERGY, MEDICATION], core=True)
    return engine


def core_part(facts: list[Any]) -> list[Any]:
    """The trailing facts marked core."""
    n = len(facts)
    while n and facts[n - 1].metadata.get("core") is True:
        n -= 1
    return facts[n:]


# -- recall --------------------------------------------------------------------------------------------


def test_core_facts_are_appended_to_an_unrelated_query(engine: RecallEngine) -> None:
    seed(engine)
    facts = engine.recall(OFF_TOPIC, "u")
    assert sorted(contents(facts)) == sorted([ALLERGY, MEDICATION])  # the gate chose nothing; core still comes
    assert all(f.metadata["core"] is True for f in facts)
    assert all(np.isfinite(f.cosine) for f in facts)
    # Without core facts the same query recalls nothing.
    off = RecallEngine(store=engine.store, embedder=HashEmbedder(), config=RecallConfig(core_limit=0))
    assert off.recall(OFF_TOPIC, "u") == []


def test_a_general_question_gets_core_facts_only_when_its_words_touch_a_concern(engine: RecallEngine) -> None:
    # an amount in a unit is read as a general question without the embedder's prototypes
    seed(engine, "u")
    assert "a general question" in engine.explain("How many ml is 8 fl oz?", "u").gate_note
    assert engine.recall("How many ml is 8 fl oz?", "u") == []
    # a sugary drink meets metformin's concern (sugar), not the peanut allergy's
    assert contents(engine.recall("How many grams of sugar are in a can of cola?", "u")) == [MEDICATION]
    assert contents(engine.recall("How much protein is in 100g of peanut butter?", "u")) == [ALLERGY]


def test_a_turn_telling_rather_than_asking_gets_only_the_core_facts_it_touches(engine: RecallEngine) -> None:
    seed(engine, "u")
    assert sorted(contents(engine.recall("zebra xylophone quartz", "u"))) == sorted([ALLERGY, MEDICATION])  # a search
    assert engine.recall("Big news, I got the job at the zebra sanctuary!", "u") == []  # asks nothing
    assert contents(engine.recall("Off to the pub for a few pints with the zebra keepers.", "u")) == [MEDICATION]
    assert sorted(contents(engine.recall(OFF_TOPIC, "u"))) == sorted([ALLERGY, MEDICATION])  # the asker's own


@pytest.mark.parametrize("news", ["I moved to Cork.", "We got a zebra!", "I sold the zebra."])
def test_a_short_sentence_telling_news_about_the_asker_gets_only_the_core_facts_it_touches(engine: RecallEngine,
                                                                                            news: str) -> None:
    # issue 20 #2: four words or fewer, said as "I" or "we" and a verb, tell as a longer turn does
    seed(engine, "u")
    assert engine.recall(news, "u") == []
    assert sorted(contents(engine.recall("I need zebra ideas", "u"))) == sorted([ALLERGY, MEDICATION])  # a want asks


@pytest.mark.parametrize("need", ["I'm hungry.", "I'm starving!", "I have guests tonight.", "I'm flying tomorrow.",
                                  "I just need ideas", "I've got guests"])
def test_a_short_sentence_telling_a_state_or_a_plan_asks_and_keeps_the_askers_core_facts(engine: RecallEngine,
                                                                                          need: str) -> None:
    # rev41b #3: only news told in the past ("I moved to Cork.") reads as telling; a state, a plan or a need asks
    seed(engine, "u")
    assert sorted(contents(engine.recall(need, "u"))) == sorted([ALLERGY, MEDICATION])


def test_a_turn_qualifying_a_request_just_made_keeps_the_core_facts(engine: RecallEngine) -> None:
    seed(engine, "u")
    qualifier = "Something cheap though, payday is only next week."
    assert engine.recall(qualifier, "u") == []  # on its own it tells, and touches no concern of theirs
    after_a_request = engine.recall(qualifier, "u", context=["What should I get my sister for her birthday?"])
    assert sorted(contents(after_a_request)) == sorted([ALLERGY, MEDICATION])
    after_news = engine.recall(qualifier, "u", context=["We finally moved into the new flat."])
    assert after_news == []  # news after news: still a turn that tells


def test_a_question_about_someone_else_gets_none_of_the_askers_core_facts(engine: RecallEngine) -> None:
    seed(engine, "u")
    assert engine.recall("What does my husband like for breakfast?", "u") == []
    assert engine.recall("Is my wife allergic to anything?", "u") == []
    assert sorted(contents(engine.recall("What can my wife and I cook tonight?", "u"))) == sorted([ALLERGY, MEDICATION])


def test_a_courtesy_turn_gets_no_core_facts(engine: RecallEngine) -> None:
    seed(engine, "u")
    for turn in ("Thanks!", "ok great", "¡Gracias!"):
        assert engine.recall(turn, "u") == [], turn
    assert sorted(contents(engine.recall(OFF_TOPIC, "u"))) == sorted([ALLERGY, MEDICATION])


def appended(engine: RecallEngine, query: str, context: list[str] | None = None) -> list[str]:
    """The core facts recall appends after what it chose (explain's fate :data:`CORE`)."""
    report = engine.explain(query, "u", context=context)
    return sorted(c.content for c in report.candidates if c.reason == CORE)


def test_a_how_to_for_the_asker_keeps_the_core_facts(engine: RecallEngine) -> None:
    # "How can I stop procrastinating?" is the asker's own case, though its words touch no concern and the gate
    # passes nothing: a how-to is not read as a question about the world
    seed(engine, "u")
    assert appended(engine, "How can I stop procrastinating?") == sorted([ALLERGY, MEDICATION])
    # "How can I lose weight?" touches a clinician's concerns: the gate itself keeps the medication and the allergy
    kept = [c.content for c in engine.explain("How can I lose weight?", "u").candidates if c.kept]
    assert MEDICATION in kept


def test_a_request_for_a_gift_for_someone_else_gets_no_core_facts(engine: RecallEngine) -> None:
    seed(engine, "u")
    for turn in ("What's a good gift for my grandson? He loves dinosaurs.", "Any present ideas for Sam?"):
        assert appended(engine, turn) == [], turn
    assert appended(engine, "Any gift ideas?") == sorted([ALLERGY, MEDICATION])


def test_a_gift_or_a_question_for_several_of_the_askers_people_gets_no_core_facts(engine: RecallEngine) -> None:
    seed(engine, "u")
    # j17: the plural and the gift asked for without the word behave as "A gift for my grandson?" does
    for turn in ("What should I get the grandsons for Christmas?", "A gift for my grandsons?",
                 "What do my grandsons like?", "What should I buy my sister for her birthday?"):
        assert appended(engine, turn) == [], turn
    assert appended(engine, "What should I get for Christmas?") == sorted([ALLERGY, MEDICATION])


def test_a_turn_after_a_question_about_the_world_is_not_read_as_qualifying_a_request(engine: RecallEngine) -> None:
    seed(engine, "u")
    # "Write me a limerick" tells (no question, no request word); after a question about the world it qualifies
    # no request of the asker's, so it gets only the core facts its words touch: none
    assert appended(engine, "Write me a limerick about snow.", ["What's 2 to the power of 10?"]) == []
    assert appended(engine, "Write me a limerick about snow.", ["Can you help me with my speech?"]) == sorted(
        [ALLERGY, MEDICATION])


def test_core_facts_come_after_the_recalled_ones(engine: RecallEngine) -> None:
    seed(engine)
    facts = engine.recall("my cello weekends", "u")
    assert contents(facts)[0] == CELLO
    assert "core" not in facts[0].metadata
    assert sorted(contents(facts[1:])) == sorted([ALLERGY, MEDICATION])
    assert contents(core_part(facts)) == contents(facts[1:])


def test_a_recalled_core_fact_is_not_repeated(engine: RecallEngine) -> None:
    seed(engine)
    facts = engine.recall("my peanuts", "u")
    assert contents(facts)[0] == ALLERGY  # chosen by the ranking (its words)
    assert facts[0].rank_score > 0 and facts[0].lexical > 0
    assert contents(facts).count(ALLERGY) == 1
    assert contents(facts)[-1] == MEDICATION


def test_at_most_core_limit_most_relevant_first(engine: RecallEngine, hash_embedder: HashEmbedder) -> None:
    core = [f"User's core fact number {i} about {w}." for i, w in enumerate(["tea", "cats", "rain", "jazz", "chess"])]
    engine.add("u", [CELLO])
    engine.add("u", core, core=True)
    query = "my zebra xylophone quartz"
    for limit_core in (0, 1, 2, 3, 5, 10):
        eng = RecallEngine(store=engine.store, embedder=hash_embedder, config=RecallConfig(core_limit=limit_core,
                                                                                     core_when="always"))
        facts = eng.recall(query, "u", limit=1)
        injected = core_part(facts)
        assert len(injected) == min(limit_core, len(core))
        # Best cosine first, and the best ones of all the core facts.
        q = hash_embedder.embed_query(query)
        q = q / np.linalg.norm(q)
        vecs = hash_embedder.embed_documents(core)
        cos = (vecs / np.linalg.norm(vecs, axis=1, keepdims=True)) @ q
        want = [core[i] for i in np.argsort(-cos, kind="stable")[: len(injected)]]
        assert contents(injected) == want
        got = [f.cosine for f in injected]
        assert got == sorted(got, reverse=True)
        assert got == pytest.approx(sorted(cos, reverse=True)[: len(injected)], abs=1e-5)


def test_result_may_hold_limit_plus_core_limit_facts() -> None:
    engine = ungated_engine(core_limit=2)
    engine.add("u", [f"User note {i} about gardens." for i in range(6)])
    engine.add("u", [ALLERGY, MEDICATION, DIET], core=True)
    facts = engine.recall("gardens", "u", limit=3)
    assert len(facts) == 5  # the 3 best (no gate), then 2 of the 3 core facts
    assert len({f.id for f in facts}) == 5
    assert all("gardens" in f.content for f in facts[:3])
    assert all(f.metadata["core"] is True for f in facts[3:])


def test_limit_zero_and_blank_queries_still_return_nothing(engine: RecallEngine) -> None:
    seed(engine)
    assert engine.recall(OFF_TOPIC, "u", limit=0) == []
    assert engine.recall("   ", "u") == []
    assert engine.recall("", "u") == []
    assert engine.explain("   ", "u").facts == []


def test_expired_and_filtered_out_core_facts_are_not_appended(engine: RecallEngine) -> None:
    engine.add("u", [CELLO], metadata={"source": "chat"})
    engine.add("u", [ALLERGY], core=True, metadata={"source": "chat"})
    engine.add("u", [MEDICATION], core=True)  # no source
    engine.add("u", [DIET], core=True, created_at=datetime.now(timezone.utc) - timedelta(days=1),
               expires_at=timedelta(seconds=-1))  # already expired
    assert sorted(contents(engine.recall(OFF_TOPIC, "u"))) == sorted([ALLERGY, MEDICATION])
    assert contents(engine.recall(OFF_TOPIC, "u", where={"source": "chat"})) == [ALLERGY]
    assert engine.recall(OFF_TOPIC, "u", where={"source": "nowhere"}) == []
    # The expired one is still listed (stored until deleted), and is core.
    assert DIET in contents(engine.list("u", where={"core": True}))


def test_core_limit_zero_and_memori_compat_append_none(engine: RecallEngine) -> None:
    seed(engine)
    for config in (RecallConfig(core_limit=0), RecallConfig.memori_compat()):
        eng = RecallEngine(store=engine.store, embedder=HashEmbedder(), config=config)
        assert not any(f.metadata.get("core") and f.content == MEDICATION for f in eng.recall(OFF_TOPIC, "u"))
        assert all(c.reason != CORE for c in eng.explain(OFF_TOPIC, "u").candidates)


def test_an_entity_without_core_facts_recalls_as_with_core_off(engine: RecallEngine) -> None:
    engine.add("u", [CELLO, LEEDS, DOG])
    off = RecallEngine(store=engine.store, embedder=HashEmbedder(), config=RecallConfig(core_limit=0))
    for query in ["cello", "Leeds canal", OFF_TOPIC, "golden dog"]:
        assert engine.recall(query, "u") == off.recall(query, "u")
        assert engine.explain(query, "u") == off.explain(query, "u")
    assert engine._cache_for("u").core_rows().size == 0


def test_another_entitys_core_facts_never_appear(engine: RecallEngine) -> None:
    seed(engine, "alice")
    engine.add("bob", ["Bob is allergic to shellfish."], core=True)
    engine.add("carol", [CELLO])
    assert sorted(contents(engine.recall(OFF_TOPIC, "alice"))) == sorted([ALLERGY, MEDICATION])
    assert contents(engine.recall(OFF_TOPIC, "bob")) == ["Bob is allergic to shellfish."]
    assert engine.recall(OFF_TOPIC, "carol") == []
    assert engine.recall(OFF_TOPIC, "nobody") == []


def test_config_core_limit_is_validated_and_read_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    assert RecallConfig().core_limit == 3 and RecallConfig.memori_compat().core_limit == 0
    with pytest.raises(ValueError, match="core_limit"):
        RecallConfig(core_limit=-1)
    with pytest.raises(TypeError, match="core_limit"):
        RecallConfig(core_limit=1.5)  # type: ignore[arg-type]
    assert ENV_FIELDS["MEMORI_RECALL_CORE_LIMIT"] == "core_limit"
    for var in ENV_FIELDS:
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("MEMORI_RECALL_CORE_LIMIT", "0")
    assert RecallConfig.from_env().core_limit == 0
    monkeypatch.setenv("MEMORI_RECALL_CORE_LIMIT", "-2")  # invalid: ignored with a warning
    assert RecallConfig.from_env().core_limit == 3


def test_core_picks_orders_by_cosine_then_recency() -> None:
    cosine = np.array([0.2, 0.5, 0.5, 0.1, 0.9])
    recency = np.array([10.0, 1.0, 5.0, 7.0, 3.0])
    chosen = np.array([False, False, False, False, True])
    assert core_picks(cosine, recency, chosen, 3).tolist() == [2, 1, 0]
    assert core_picks(cosine, recency, chosen, 0).tolist() == []
    assert core_picks(cosine, recency, np.ones(5, dtype=bool), 3).tolist() == []
    assert core_picks(np.zeros(0), np.zeros(0), np.zeros(0, dtype=bool), 3).tolist() == []


# -- explain -----------------------------------------------------------------------------------------


def test_explain_lists_core_facts_last_kept_with_the_core_fate(engine: RecallEngine) -> None:
    seed(engine)
    for query in [OFF_TOPIC, "cello weekends", "peanuts", "metformin morning"]:
        for limit in (1, 2, 5):
            recalled = engine.recall(query, "u", limit=limit)
            report = engine.explain(query, "u", limit=limit)
            assert report.facts == recalled
            tail = [c for c in report.candidates if c.reason == CORE]
            assert tail == report.candidates[len(report.candidates) - len(tail):]
            assert all(c.kept and c.metadata["core"] is True for c in tail)
            assert CORE in str(report) or not tail


def test_explain_of_a_core_fact_outside_the_pool() -> None:
    # A pool of 1 (candidate_floor 0, multiplier 1): the other core fact is scored outside the pool.
    config = RecallConfig(candidate_floor=0, candidate_multiplier=1, pool="dense", core_when="always")
    engine = seed(RecallEngine(store=ChromaStore.in_memory(), embedder=HashEmbedder(), config=config))
    recalled = engine.recall("my cello weekends", "u", limit=1)
    report = engine.explain("my cello weekends", "u", limit=1)
    assert report.facts == recalled and report.pool_size == 1
    outside = [c for c in report.candidates if c.source == "core"]
    assert len(outside) == 2 and all(c.reason == CORE and c.kept for c in outside)
    assert [c.rank for c in outside] == [2, 3]
    assert all(c.lexical == 0.0 and c.rank_score == 0.0 and c.bm25 == 0.0 for c in outside)
    assert [f.cosine for f in recalled[1:]] == [c.cosine for c in outside]


# -- writes: add, update, export / import --------------------------------------------------------------


def test_core_is_stored_in_the_facts_own_metadata(engine: RecallEngine) -> None:
    [a, b] = engine.add("u", [ALLERGY, CELLO], core=[True, False], metadata={"source": "chat"})
    [fa, fb] = engine.get("u", [a, b])
    assert fa.metadata == {"source": "chat", "core": True} and fb.metadata == {"source": "chat"}
    assert contents(engine.list("u", where={"core": True})) == [ALLERGY]


def test_metadata_core_by_hand_counts_and_core_false_does_not_strip_it(engine: RecallEngine) -> None:
    engine.add("u", [CELLO])
    engine.add("u", [MEDICATION], metadata={"core": True})  # core=False (default) leaves it alone
    engine.add("u", [LEEDS], metadata={"core": "yes"})  # only True marks a fact core
    assert engine.get("u", engine.add("u", [DIET], metadata={"core": True}, core=False))[0].metadata["core"] is True
    assert sorted(contents(engine.recall(OFF_TOPIC, "u"))) == sorted([MEDICATION, DIET])


def test_a_repeat_add_with_core_marks_a_stored_fact_and_without_it_keeps_it(engine: RecallEngine) -> None:
    [fid] = engine.add("u", [ALLERGY])
    assert engine.recall(OFF_TOPIC, "u") == []
    assert engine.add("u", [ALLERGY], core=True) == [fid]
    [fact] = engine.get("u", fid)
    assert fact.times_seen == 2 and fact.metadata["core"] is True
    assert contents(engine.recall(OFF_TOPIC, "u")) == [ALLERGY]
    engine.add("u", ["user is allergic to peanuts"])  # the same fact seen again, without core
    [fact] = engine.get("u", fid)
    assert fact.times_seen == 3 and fact.metadata["core"] is True
    # Within one call: any sighting with core marks the fact.
    [d1, d2] = engine.add("u", [DIET, DIET], core=[False, True])
    assert d1 == d2 and engine.get("u", d1)[0].metadata.get("core") is True


def test_update_sets_and_clears_core(engine: RecallEngine) -> None:
    seed(engine)
    [cello] = engine.add("u", [CELLO])
    [allergy] = engine.add("u", [ALLERGY])
    engine.update("u", allergy, core=False)
    assert "core" not in engine.get("u", allergy)[0].metadata
    assert contents(engine.recall(OFF_TOPIC, "u")) == [MEDICATION]
    fact = engine.update("u", cello, core=True, metadata={"source": "chat"})  # core applies after metadata
    assert fact.metadata == {"source": "chat", "core": True}
    assert sorted(contents(engine.recall(OFF_TOPIC, "u"))) == sorted([CELLO, MEDICATION])
    engine.update("u", cello, text="User plays the viola on weekends.")  # core kept through a new text
    assert "User plays the viola on weekends." in contents(engine.recall(OFF_TOPIC, "u"))
    engine.update("u", cello, metadata={"source": "chat"})  # metadata replaces all, core included
    assert contents(engine.recall(OFF_TOPIC, "u")) == [MEDICATION]
    engine.update("u", cello, core=None)  # leaves it as it is
    assert contents(engine.recall(OFF_TOPIC, "u")) == [MEDICATION]


def test_delete_and_forget_erase_core_facts(engine: RecallEngine) -> None:
    seed(engine)
    [allergy] = engine.add("u", [ALLERGY])
    engine.delete("u", [allergy])
    assert contents(engine.recall(OFF_TOPIC, "u")) == [MEDICATION]
    engine.forget("u")
    assert engine.recall(OFF_TOPIC, "u") == [] and engine.list("u", where={"core": True}) == []


def test_export_import_keeps_core(engine: RecallEngine) -> None:
    seed(engine)
    records = engine.export("u")
    core = sorted(r["text"] for r in records if r.get("metadata", {}).get("core") is True)
    assert core == sorted([ALLERGY, MEDICATION])
    engine.import_("copy", records)
    assert contents(engine.recall(OFF_TOPIC, "copy")) == contents(engine.recall(OFF_TOPIC, "u"))
    assert sorted(contents(engine.list("copy", where={"core": True}))) == sorted([ALLERGY, MEDICATION])


@pytest.mark.parametrize(("kwargs", "error"), [
    ({"core": "yes"}, TypeError),
    ({"core": 1}, TypeError),
    ({"core": None}, None),
    ({"core": [True]}, ValueError),  # one value for two facts
    ({"core": [True, "no"]}, TypeError),
    ({"core": [True, None]}, TypeError),
])
def test_bad_core_arguments_name_core(engine: RecallEngine, kwargs: dict[str, Any], error: type | None) -> None:
    if error is None:
        assert len(engine.add("u", [CELLO, LEEDS], **kwargs)) == 2
        return
    with pytest.raises(error, match="core"):
        engine.add("u", [CELLO, LEEDS], **kwargs)
    assert engine.count("u") == 0  # validated before anything is written


def test_update_rejects_a_core_that_is_not_a_bool(engine: RecallEngine) -> None:
    [fid] = engine.add("u", [CELLO])
    with pytest.raises(TypeError, match="core"):
        engine.update("u", fid, core="yes")  # type: ignore[arg-type]
    assert engine.get("u", fid)[0].metadata == {}


async def test_async_twins_pass_core_through(engine: RecallEngine) -> None:
    await engine.aadd("u", [CELLO])
    [fid] = await engine.aadd("u", [ALLERGY], core=True)
    assert contents(await engine.arecall(OFF_TOPIC, "u")) == [ALLERGY]
    report = await engine.aexplain(OFF_TOPIC, "u")
    assert [c.reason for c in report.candidates if c.kept] == [CORE]
    await engine.aupdate("u", fid, core=False)
    assert await engine.arecall(OFF_TOPIC, "u") == []


# -- the cache: core rows kept current without a per-row scan -------------------------------------------


def _brute_force_core_rows(engine: RecallEngine, entity: str) -> list[int]:
    cache = engine._cache_for(entity)
    return [r for r in cache.live_rows().tolist() if (cache.fact(r).metadata or {}).get("core") is True]


def test_core_rows_stay_right_through_writes_reloads_and_compaction(engine: RecallEngine) -> None:
    n = 700
    texts = [f"User note {i} on topic {i % 7}." for i in range(n)]
    ids = engine.add("u", texts, core=[i % 50 == 0 for i in range(n)],
                     metadata=[{"topic": "core"} if i % 3 == 0 else {} for i in range(n)])  # "core" as a value
    engine.recall("note", "u")
    cache = engine._cache_for("u")
    assert cache.core_rows().tolist() == _brute_force_core_rows(engine, "u")
    assert len(cache.core_rows()) == 14
    engine.add("u", ["User is vegan."], core=True)  # appended
    engine.update("u", ids[1], core=True)  # rewritten in place
    engine.update("u", ids[50], core=False)
    engine.delete("u", [ids[100]])
    assert engine._cache_for("u").core_rows().tolist() == _brute_force_core_rows(engine, "u")
    engine.delete("u", ids[200:500])  # enough dead rows to compact
    assert engine._cache_for("u").n_dead == 0  # compacted: rows renumbered
    assert engine._cache_for("u").core_rows().tolist() == _brute_force_core_rows(engine, "u")
    before = sorted(contents(engine.recall(OFF_TOPIC, "u")))
    engine.clear_cache()  # a reload from the store
    assert engine._cache_for("u").core_rows().tolist() == _brute_force_core_rows(engine, "u")
    assert sorted(contents(engine.recall(OFF_TOPIC, "u"))) == before
    every = RecallEngine(store=engine.store, embedder=HashEmbedder(), config=RecallConfig(core_limit=100))
    core = {f.content for f in engine.list("u", where={"core": True}, limit=1000)}
    assert set(contents(every.recall(OFF_TOPIC, "u"))) == core and len(before) == 3
    assert "User is vegan." in core and texts[1] in core and texts[50] not in core and texts[0] in core


def test_core_rows_from_a_snapshot(tmp_path: Path) -> None:
    store = ChromaStore(path=tmp_path / "db")
    engine = seed(RecallEngine(store=store, embedder=HashEmbedder()))
    want = sorted(contents(engine.recall(OFF_TOPIC, "u")))
    store.close()  # writes the entity's snapshot
    again = CountingStore(path=tmp_path / "db")
    try:
        engine2 = RecallEngine(store=again, embedder=HashEmbedder())
        assert sorted(contents(engine2.recall(OFF_TOPIC, "u"))) == want == sorted([ALLERGY, MEDICATION])
        assert again.loads == 0  # read from the snapshot (file-backed string columns)
        assert engine2._cache_for("u").core_rows().tolist() == _brute_force_core_rows(engine2, "u")
    finally:
        again.close()


# -- the CLI -----------------------------------------------------------------------------------------


def test_cli_add_core_and_list_marks_core(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(embedders, "_DEFAULT", HashEmbedder())
    store = str(tmp_path / "db")
    assert main(["add", "-e", "alice", CELLO, "--path", store]) == 0
    assert main(["add", "-e", "alice", "--core", ALLERGY, "--path", store]) == 0
    capsys.readouterr()
    assert main(["list", "-e", "alice", "--path", store]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2
    assert [line for line in lines if line.endswith(f"{ALLERGY}  [core]")]
    assert [line for line in lines if line.endswith(CELLO)]
    assert main(["list", "-e", "alice", "--where", '{"core": true}', "--path", store]) == 0
    assert capsys.readouterr().out.count("\n") == 1
    assert main(["recall", "-e", "alice", OFF_TOPIC, "--path", store]) == 0
    assert ALLERGY in capsys.readouterr().out


# -- extractors and capture --------------------------------------------------------------------------


def test_rule_based_extractor_marks_allergies_and_diet_core() -> None:
    facts = RuleBasedFactExtractor().extract([("user", "I'm allergic to peanuts. I live in Leeds.")])
    assert facts == [ExtractedFact(ALLERGY, core=True), ExtractedFact("User lives in Leeds.", core=False)]
    for said in ["I'm vegetarian.", "I am lactose intolerant.", "I take insulin twice a day.", "I'm coeliac.",
                 "I don't drink alcohol.", "I keep kosher.", "I eat halal food only.", "I'm on blood thinners.",
                 "I follow a gluten-free diet.", "I take medication for my thyroid."]:
        [fact] = RuleBasedFactExtractor().extract([("user", said)])
        assert fact.core, said
    for said in ["I live in Leeds.", "I'm not vegan.", "I have no allergies.", "I don't drink coffee.",
                 "My son has a nut allergy.",  # core is the user's own
                 "I play the cello."]:
        [fact] = RuleBasedFactExtractor().extract([("user", said)])
        assert not fact.core, said
    assert is_core_fact(ALLERGY) and not is_core_fact("User lives in Leeds.")


@pytest.mark.parametrize("text, core", [
    ("User's daughter is allergic to tree nuts.", False),  # someone else's, even the household's
    ("User's doctor told her to cut down on salt.", True),  # advice to the user
    ("User was diagnosed with type 2 diabetes in 2019.", True),  # told in the past, still true
    ("User's youngest son has a nut allergy.", False),
    ("User's peanut allergy is severe.", True),  # the user's own, named as a thing
    ("User's friend is allergic to cats.", False),  # someone outside the household
    ("User's sister is vegan.", False),
    ("User's dog is diabetic.", False),
    ("I think my sister is vegan.", False),  # kept as said, hedge and all
    ("User's best friend is coeliac.", False),
    ("A colleague of the user is vegan.", False),
    ("User used to be vegetarian.", False),  # held once, no longer
    ("User is no longer on metformin.", False),
    ("User was pregnant last year.", False),  # a state told in the past tense
    ("User was on metformin until March.", False),
    ("I was vegetarian for ten years.", False),
    ("User was prescribed metformin.", True),  # told in the past, still true
    ("User was advised to avoid alcohol while on metformin.", True),
    ("User is allergic to nothing.", False),  # said to rule the matter out
    ("User has no known food allergies.", False),
    ("User lied about being vegan.", False),  # taken back
    ("User was joking about the peanut allergy.", False),
])
def test_only_the_users_own_present_restrictions_are_core(text: str, core: bool) -> None:
    assert is_core_fact(text) is core


def test_capture_marks_no_core_fact_for_a_friend_a_past_diet_or_no_allergy(hash_embedder: HashEmbedder) -> None:
    engine = RecallEngine(store=ChromaStore.in_memory(), embedder=hash_embedder)
    for turn in ["My friend is allergic to cats.", "I'm not allergic to anything.", "I used to be vegetarian."]:
        capture_facts(engine, "u", [{"role": "user", "content": turn}], RuleBasedFactExtractor())
    stored = engine.list("u")
    assert stored and not any(f.metadata.get("core") for f in stored)
    assert not [c for c in engine.explain(OFF_TOPIC, "u").candidates if "core" in c.reason]  # none rides along


@pytest.mark.parametrize("denial", [
    "I'm not vegan. And I'm not allergic to peanuts, that was my brother.",
    "Just kidding, I'm not vegan and I'm not allergic to peanuts.",
    "I lied about being vegan. I'm not allergic to peanuts either.",
])
def test_capture_ends_the_core_facts_a_denial_takes_back_and_stores_no_core_fact_for_it(
    hash_embedder: HashEmbedder, denial: str,
) -> None:
    engine = RecallEngine(store=ChromaStore.in_memory(), embedder=hash_embedder)
    capture_facts(engine, "u", [("user", "I'm vegan and I'm allergic to peanuts.")], RuleBasedFactExtractor())
    capture_facts(engine, "u", [("user", denial)], RuleBasedFactExtractor())
    assert "User is vegan." not in contents(engine.list("u")) and ALLERGY not in contents(engine.list("u"))
    assert not any(f.metadata.get("core") for f in engine.list("u"))
    assert not [c for c in engine.explain(OFF_TOPIC, "u").candidates if "core" in c.reason]  # nothing pinned


def test_an_allergy_typed_with_typos_is_captured_core_and_rides_along_with_an_unrelated_question(
    hash_embedder: HashEmbedder,
) -> None:
    engine = RecallEngine(store=ChromaStore.in_memory(), embedder=hash_embedder)
    capture_facts(engine, "u", [("user", "Im alergic to shelfish and i dont eat pork")], RuleBasedFactExtractor())
    assert {f.content: f.metadata.get("core") for f in engine.list("u")} == {
        "User is allergic to shellfish.": True, "User doesn't eat pork.": True,
    }
    assert "User is allergic to shellfish." in contents(engine.recall(OFF_TOPIC, "u"))


def test_the_core_rule_can_be_replaced_or_turned_off() -> None:
    turn = [("user", "I'm allergic to peanuts. I live in Leeds.")]
    assert not any(f.core for f in RuleBasedFactExtractor(core_rule=None).extract(turn))
    mine = RuleBasedFactExtractor(core_rule=lambda text: "Leeds" in text).extract(turn)
    assert [f.core for f in mine] == [False, True]
    with pytest.raises(TypeError, match="core_rule"):
        RuleBasedFactExtractor(core_rule="allergies")  # type: ignore[arg-type]


def test_llm_prompt_asks_for_core_and_the_parser_reads_it() -> None:
    prompt = build_extraction_prompt([("user", "I'm allergic to peanuts.")])
    assert '"core"' in prompt and "allergies" in prompt and "medications" in prompt
    assert '"core"' not in build_extraction_prompt([("user", "hi")], core=False)
    reply = ('[{"fact": "User is allergic to peanuts.", "supersedes": [], "core": true},'
             ' {"fact": "User lives in Leeds.", "core": false}, {"fact": "User is vegan.", "core": "true"},'
             ' "User plays chess.", {"fact": "User is allergic to peanuts.", "core": false}]')
    assert [f.core for f in parse_extraction_reply(reply)] == [True, False, True, False]
    assert not any(f.core for f in parse_extraction_reply(reply, core=False))
    assert parse_extraction_reply(prompt) == []  # an echoed prompt is still no facts


def test_llm_extractors_take_mark_core() -> None:
    from memori_langchain import LLMFactExtractor as LangChainExtractor
    from memori_llamaindex import LLMFactExtractor as LlamaIndexExtractor

    reply = '[{"fact": "User is allergic to peanuts.", "core": true}]'
    assert LangChainExtractor(replies(reply)).extract([("user", "I'm allergic to peanuts.")])[0].core is True
    off = LangChainExtractor(replies(reply), mark_core=False)
    assert off.extract([("user", "I'm allergic to peanuts.")])[0].core is False
    assert '"core"' not in off.prompt([("user", "x")], [])
    assert LlamaIndexExtractor.__init__.__kwdefaults__["mark_core"] is True


def test_capture_adds_core_facts_with_core(engine: RecallEngine) -> None:
    ids = capture_facts(engine, "u", [("user", "I'm allergic to peanuts and I live in Leeds. I don't drink alcohol.")],
                        RuleBasedFactExtractor(), metadata={"source": "chat"})
    stored = {f.content: f.metadata for f in engine.get("u", ids)}
    assert stored["User doesn't drink alcohol."] == {"source": "chat", "core": True}
    assert all(m.get("core") is True for t, m in stored.items() if "allergic" in t)
    assert all("core" not in m for t, m in stored.items() if "Leeds" in t and "allergic" not in t)


def test_capture_passes_core_only_when_some_fact_is_core() -> None:
    class Engine:
        def __init__(self) -> None:
            self.calls: list[dict[str, Any]] = []

        def add(self, entity_id: str, texts: list[str], **kwargs: Any) -> list[str]:
            self.calls.append(kwargs)
            return [f"id-{i}" for i in range(len(texts))]

        def nearest(self, query: str, entity_id: str, limit: int) -> list[Any]:  # the rules read stored facts
            return []

    fake = Engine()
    capture_facts(fake, "u", [("user", "I live in Leeds.")], RuleBasedFactExtractor())
    capture_facts(fake, "u", [("user", "I live in Leeds. I'm vegan.")], RuleBasedFactExtractor())
    assert "core" not in fake.calls[0]
    assert fake.calls[1]["core"] == [False, True]


# -- adapters ----------------------------------------------------------------------------------------


def test_langchain_injector_puts_core_facts_in_the_system_prompt_of_an_unrelated_question(
    engine: RecallEngine,
) -> None:
    from memori_langchain import MemoriContextInjector

    seed(engine, "alice")
    engine.add("bob", ["Bob is allergic to shellfish."], core=True)
    prompt = ChatPromptTemplate.from_messages([("system", "You are a travel assistant."), ("human", "{question}")])
    model = replies("Paris is lovely.")
    chain = prompt | MemoriContextInjector(engine=engine, entity_id="alice") | model
    chain.invoke({"question": "What should I pack for a weekend in Paris in spring?"})
    [system] = model.system_texts()
    assert system.startswith("You are a travel assistant.\n\n<memori_context>")
    assert f"- {ALLERGY}" in system and f"- {MEDICATION}" in system
    assert CELLO not in system and "shellfish" not in system


def test_langchain_skipping_recall_keeps_the_core_facts_after_the_limit(engine: RecallEngine) -> None:
    from memori_langchain._recall import BlockRecall

    engine.add("u", [f"User grows tomatoes in garden bed {i}." for i in range(8)])
    engine.add("u", [ALLERGY], core=True)
    block = BlockRecall(engine, "my garden tomatoes", "u", 2, strict=True, owner="test",
                        skip_text="I grow tomatoes.").block()
    lines = [line for line in block.splitlines() if line.startswith("- ")]
    assert len(lines) == 3 and ALLERGY in lines[-1]


def test_langgraph_capture_stores_core_and_the_next_unrelated_turn_sees_it(engine: RecallEngine) -> None:
    from memori_langchain import memori_capture_node

    model = replies("Noted.", "A boat name: Sea Biscuit.")
    capture = memori_capture_node(engine, entity_id="ann")
    graph = recall_model_capture_graph(engine, model, capture, system="You are helpful.")
    cfg = {"configurable": {"thread_id": "t-1"}}
    graph.invoke({"messages": [HumanMessage("I'm allergic to peanuts. I live in Leeds.")]}, cfg)
    assert capture.flush()
    assert contents(engine.list("ann", where={"core": True})) == [ALLERGY]
    graph.invoke({"messages": [HumanMessage("Suggest a name for my boat.")]}, cfg)
    system = model.system_texts()[-1]
    assert f"- {ALLERGY}" in system and "Leeds" not in system


async def test_llamaindex_memory_block_injects_core_facts_and_capture_marks_them(engine: RecallEngine) -> None:
    import asyncio

    from llama_index.core.base.llms.types import ChatMessage
    from llama_index.core.memory import Memory
    from llama_index.core.storage.chat_store import sql

    from memori_llamaindex import MemoriMemoryBlock

    seed(engine, "alice")
    block = MemoriMemoryBlock(engine=engine, entity_id="alice")
    text = await block.aget([ChatMessage(role="user", content="What should I pack for Paris?")])
    assert ALLERGY in text and MEDICATION in text and CELLO not in text

    created: list[Any] = []
    make = sql.create_async_engine

    def tracked(*args: Any, **kwargs: Any) -> Any:
        created.append(make(*args, **kwargs))
        return created[-1]

    sql.create_async_engine = tracked
    try:
        capturing = MemoriMemoryBlock(engine=engine, entity_id="carol", capture=True)
        memory = Memory.from_defaults(session_id="c-1", memory_blocks=[capturing], token_limit=60,
                                      token_flush_size=20)
        for role, said in [("user", "I am allergic to peanuts and shellfish, so please keep that in mind."),
                           ("assistant", "Understood, I will remember your allergies for every recipe."),
                           ("user", "I moved to Leeds last year with my partner and our dog."),
                           ("assistant", "Leeds is a lovely city with plenty of parks for dog walks."),
                           ("user", "What is a good name for a boat?")]:
            await memory.aput(ChatMessage(role=role, content=said))
            if role == "user":  # as a chat engine does: the memory is read before the answer
                await memory.aget()
        assert await capturing.aflush()
        core = engine.list("carol", where={"core": True})
        assert core and all("allergic" in f.content for f in core)
        recalled = await capturing.aget([ChatMessage(role="user", content="Suggest a name for my boat.")])
        assert "allergic to peanuts" in recalled
    finally:
        sql.create_async_engine = make
        for async_engine in created:
            await async_engine.dispose()
        await asyncio.sleep(0)


def test_a_question_about_what_memory_holds_gets_the_limit_best_facts(engine: RecallEngine) -> None:
    seed(engine, "u")
    report = engine.explain("What do you know about me?", "u", 2)
    assert "asks what memory holds" in report.gate_note
    recalled = [c for c in report.candidates if c.kept and c.reason != CORE]
    assert len(recalled) == 2  # the limit best, whatever their cosine
    everything = contents(engine.recall("What do you know about me?", "u"))
    assert sorted(everything) == sorted([CELLO, LEEDS, DOG, ALLERGY, MEDICATION])  # five facts, limit 5
    # a question about one part of the user's life is not a question about all of memory
    assert "asks what memory holds" not in engine.explain("What do you know about my sister?", "u").gate_note


def test_a_request_whose_only_me_is_the_one_it_is_addressed_to_gets_no_core_facts(engine: RecallEngine) -> None:
    # "Tell me a joke." asks nothing about the asker; "Tell me what I can eat tonight." does, and an impersonal
    # question a chat asks for the asker ("Any peanuts in pad thai?") keeps the core facts as before
    seed(engine, "u")
    assert appended(engine, "Tell me a joke.") == []
    assert appended(engine, "Write me a limerick about snow.") == []
    assert {ALLERGY, MEDICATION} <= set(contents(engine.recall("Tell me what I can eat tonight.", "u")))
    assert {ALLERGY, MEDICATION} <= set(contents(engine.recall("Any good ideas for Saturday?", "u")))


def test_a_request_only_for_something_to_read_watch_or_hear_gets_only_the_core_facts_it_touches(
        engine: RecallEngine) -> None:
    # tester j19: "Can you recommend a good sci-fi novel?" got the allergy, the diet and the statin; no care fact
    # bears on a book, a film, a song or a podcast
    seed(engine, "u")
    for request in ("Can you recommend a good sci-fi novel?", "Recommend me a good sci-fi novel.",
                    "Any good podcasts?", "What should I watch on Netflix tonight?"):
        assert appended(engine, request) == [], request
    # one that meets the body, a trip or the asker's decision is no mere request for media
    assert {ALLERGY, MEDICATION} <= set(contents(engine.recall("Any audiobooks for my flight to Rome?", "u")))
    assert {ALLERGY, MEDICATION} <= set(contents(engine.recall("A good novel for when my migraine lifts?", "u")))


def test_stored_and_recalled_facts_say_whether_they_are_core_and_follow_an_update(hash_embedder) -> None:
    engine = seed(ungated_engine(hash_embedder))
    by_text = {f.content: f for f in engine.list("u")}
    assert (by_text[ALLERGY].core, by_text[CELLO].core) == (True, False)
    recalled = {f.content: f.core for f in engine.recall("What am I allergic to?", "u")}
    assert recalled[ALLERGY] is True and recalled.get(CELLO, False) is False
    engine.update("u", by_text[ALLERGY].id, core=False)
    assert engine.get("u", [by_text[ALLERGY].id])[0].core is False
    with pytest.raises(AttributeError):
        by_text[CELLO].core = True  # type: ignore[misc]  # read-only: update(..., core=...) changes it


# -- core_when="touched": the asker's turns about something else get none -----------------------------------------


def test_core_when_touched_gives_a_turn_about_something_else_no_core_facts_and_one_about_food_or_the_body_them(
        hash_embedder: HashEmbedder) -> None:
    # Tester j17: on turns about a spreadsheet, the weather or a message to a colleague the allergy and the
    # medication were most of what reached the prompt.
    engine = seed(RecallEngine(store=ChromaStore.in_memory(), embedder=hash_embedder,
                               config=RecallConfig(core_when="touched")))
    always = RecallEngine(store=engine.store, embedder=hash_embedder, config=RecallConfig(core_when="always"))
    everything = sorted([ALLERGY, MEDICATION])
    for turn in ("Can you help me fix my spreadsheet formula?", "Help me write an email to my colleague Sam.",
                 "What instrument do I play?", "Will it rain at my place tomorrow?"):
        assert not any(f.core for f in engine.recall(turn, "u")) and not appended(engine, turn), turn
        assert sorted(contents(core_part(always.recall(turn, "u")))) == everything, turn  # as before
    for turn in ("Any ideas for dinner tonight?", "My head is pounding, what now?",
                 "My boss wants me on nights for a month. Should I say yes?"):
        assert sorted(f.content for f in engine.recall(turn, "u") if f.core) == everything, turn
    # a follow-up whose conversation is about food keeps them
    assert sorted(contents(core_part(engine.recall("What about the second one?", "u",
                                                   context=["Which of these two curries should I order?"])))) == everything


def test_core_when_open_gives_a_turn_the_gate_reads_as_off_topic_only_the_core_facts_it_touches(
        hash_embedder: HashEmbedder) -> None:
    # Tester finding (issue 20): with core_when="always" (the default), "Can you help me fix this Excel formula?"
    # gets the medication and the allergy. "open" reads the turn as "touched" does when the gate keeps nothing.
    store = ChromaStore.in_memory()
    seed(RecallEngine(store=store, embedder=hash_embedder))
    default = RecallEngine(store=store, embedder=hash_embedder)
    opened = RecallEngine(store=store, embedder=hash_embedder, config=RecallConfig(core_when="open"))
    assert default.config.core_when == "always"
    everything = sorted([ALLERGY, MEDICATION])
    for turn in ("Can you help me fix my spreadsheet formula?", "Help me write an email to my colleague Sam."):
        assert not opened.recall(turn, "u") and not appended(opened, turn), turn
        assert sorted(contents(core_part(default.recall(turn, "u")))) == everything, turn
    # the gate keeps a fact: every core fact, as "always" gives them
    cello = opened.recall("When do I play the cello?", "u")
    assert CELLO in contents(cello) and sorted(contents(core_part(cello))) == everything
    assert {f.passed_by for f in core_part(cello)} == {"core"}
    # closed, but about food, the body, or whether to do something: every core fact
    for turn in ("Any ideas for dinner tonight?", "My head is pounding, what now?",
                 "My boss wants me on nights for a month. Should I say yes?"):
        assert sorted(contents(core_part(opened.recall(turn, "u")))) == everything, turn
    with pytest.raises(ValueError, match="core_when must be 'touched', 'open' or 'always'"):
        RecallConfig(core_when="sometimes")  # type: ignore[arg-type]


# -- food for someone else: "What should I feed him?" --------------------------------------------------------------

SON_ALLERGY = "User's son Leo is allergic to eggs."


def _recalled(engine: RecallEngine, turn: str, context: list[str] | None = None) -> set[str]:
    """What recall returns for ``turn``: the facts the gate kept and the core facts appended."""
    return {c.content for c in engine.explain(turn, "u", context=context).candidates if c.kept}


@pytest.mark.parametrize("core_when", ["always", "open", "touched"])
def test_a_question_what_to_feed_someone_else_gets_none_of_the_askers_own_core_facts(
    hash_embedder: HashEmbedder, core_when: str
) -> None:
    engine = seed(RecallEngine(store=ChromaStore.in_memory(), embedder=hash_embedder,
                               config=RecallConfig(core_when=core_when)))
    engine.add("u", [SON_ALLERGY], core=True)
    for turn, context in (("What should I feed him?", ["We just adopted a puppy."]), ("What can I feed Biscuit?", []),
                          ("What should I feed my son tonight?", [])):
        recalled = _recalled(engine, turn, context)
        assert not {ALLERGY, MEDICATION} & recalled, (core_when, turn)
        assert SON_ALLERGY in recalled, (core_when, turn)  # not the asker's own: a core fact like any other
    assert DOG in _recalled(engine, "What can I feed Biscuit?")
    # the asker eats too: every core fact, as for any meal of the asker's
    assert {ALLERGY, MEDICATION} <= _recalled(engine, "What should I feed the kids and me?")


def test_the_relevance_gate_leaves_the_askers_own_core_facts_out_of_a_pets_dinner(minilm: Any) -> None:
    engine = RecallEngine(store=ChromaStore.in_memory(), embedder=minilm)
    engine.add("u", ["User takes lisinopril for high blood pressure.", "User is allergic to penicillin."], core=True)
    engine.add("u", [SON_ALLERGY], core=True)
    engine.add("u", ["User has a beagle named Rex.", "User works as a nurse.", "User plays the cello."])
    fed = [f.content for f in engine.recall("What should I feed him?", "u", context=["We just adopted Rex."])]
    assert "User has a beagle named Rex." in fed
    assert not {"User takes lisinopril for high blood pressure.", "User is allergic to penicillin."} & set(fed)
    mine = [f.content for f in engine.recall("What should I feed the kids and me?", "u")]
    assert "User is allergic to penicillin." in mine
