"""The gate's third-person lift: facts written about "User" read +gate_third_person for a personal question."""

from __future__ import annotations

import numpy as np
import pytest

from memori_core import InMemoryFactStore, RecallConfig, RecallEngine
from memori_core.cache.strings import StrColumn, text_starts_with_word
from memori_core.ranking.gate import USER_WORD, decide

FACTS = ["User lives in Porto.", "I play the cello in an orchestra.", "User's sister is called Ana."]


@pytest.mark.parametrize("text, lifted", [
    ("User lives in Porto.", True),
    ("User's sister is called Ana.", True),
    ("User\u2019s sister is called Ana.", True),
    ("User", True),
    ("User_42 likes tea.", False),
    ("Useré likes tea.", False),
    ("I live in Porto.", False),
    ("Users of Linux like it.", False),
    ("The user lives in Porto.", False),  # not how the extractors write a fact
    ("Caroline went to the support group.", False),
])
def test_facts_written_about_user_are_lifted(text, lifted):
    assert text_starts_with_word(text, USER_WORD) is lifted


TEXTS = {"User lives in Porto.": True, "User's sister is Ana.": True, "User\u2019s cat": True, "Users of Linux.": False,
         "User": True, "": False, "I am User.": False, "Usé": False, "User_1 x": False, "Useré x": False,
         "User\u00e9": False, "User-friendly apps": True, "U": False, "Über User": False}


def test_the_string_column_reads_the_same_rule_off_its_buffer_and_its_appended_rows():
    texts, expected = list(TEXTS), np.array(list(TEXTS.values()))
    built = StrColumn.from_list(texts)
    appended = StrColumn.from_list([])
    for t in texts:
        appended.append(t)  # rows written after the column was built are plain strings
    rows = np.arange(len(texts))
    for column in (built, appended):
        np.testing.assert_array_equal(column.starts_with_word(rows, USER_WORD), expected)
        np.testing.assert_array_equal(column.starts_with_word(rows[::-1].copy(), USER_WORD), expected[::-1])
        assert column.starts_with_word(np.zeros(0, np.int64), USER_WORD).shape == (0,)


def _candidates(engine: RecallEngine, query: str, **kwargs) -> dict[str, tuple[float, float | None]]:
    report = engine.explain(query, "u", **kwargs)
    return {c.content: (c.cosine, c.gate_cosine) for c in report.candidates}, report


def test_a_personal_question_lifts_only_the_user_facts_and_explain_says_so(hash_embedder):
    engine = RecallEngine(store=InMemoryFactStore(), embedder=hash_embedder)
    engine.add("u", FACTS)
    seen, report = _candidates(engine, "Where do I live these days?")
    assert report.third_person == 0.05
    assert "third person: the gate's cosine cutoffs read facts written about 'User' +0.05" in report.table()
    for text, (cosine, gate) in seen.items():
        assert gate == pytest.approx(cosine + (0.05 if text.startswith("User") else 0.0), abs=1e-6)


def test_the_lift_is_the_configured_one(hash_embedder):
    engine = RecallEngine(store=InMemoryFactStore(), embedder=hash_embedder,
                          config=RecallConfig(gate_third_person=0.125))
    engine.add("u", FACTS)
    seen, report = _candidates(engine, "Where do I live these days?")
    assert report.third_person == 0.125
    cosine, gate = seen["User lives in Porto."]
    assert gate == pytest.approx(cosine + 0.125, abs=1e-6)


@pytest.mark.parametrize("config", [RecallConfig(gate_third_person=None), RecallConfig(gate="off"),
                                    RecallConfig.memori_compat()])
def test_configs_without_the_lift_read_the_plain_cosine(hash_embedder, config):
    engine = RecallEngine(store=InMemoryFactStore(), embedder=hash_embedder, config=config)
    engine.add("u", FACTS)
    seen, report = _candidates(engine, "Where do I live these days?")
    assert report.third_person == 0.0 and all(gate is None for _, gate in seen.values())


def test_an_impersonal_question_is_not_lifted_and_a_conversation_is(hash_embedder):
    engine = RecallEngine(store=InMemoryFactStore(), embedder=hash_embedder)
    engine.add("u", FACTS)
    seen, report = _candidates(engine, "How far is Porto from Lisbon?")
    assert report.third_person == 0.0 and all(gate is None for _, gate in seen.values())
    context = ["We might drive down to see my sister."]
    _, report = _candidates(engine, "How far is it from Lisbon?", context=context)
    assert report.third_person == 0.05  # it goes on from the user's own turns: a personal question
    _, report = _candidates(engine, "How far is Porto from Lisbon?", context=context)
    assert report.third_person == 0.0  # a question that stands on its own is judged on its own


@pytest.mark.model
def test_where_do_i_live_gets_the_user_fact_that_the_plain_cosine_gate_dropped(minilm):
    # MiniLM: "Where do I live?" vs "User lives in Porto." 0.296, below gate_open 0.31 (vs 0.461 in the first person).
    facts = ["User lives in Porto.", "User's parents live in Braga.", "User's sister lives in Lisbon.",
             "User is allergic to shellfish.", "User's name is Maya.", "User plays padel."]
    lifted = RecallEngine(store=InMemoryFactStore(), embedder=minilm)
    # without the slot question's signal too (implications.asked_slots), which opens "User lives in Porto." itself
    plain = RecallEngine(store=InMemoryFactStore(), embedder=minilm,
                         config=RecallConfig(gate_third_person=None, gate_implied=False))
    for engine in (lifted, plain):
        engine.add("u", facts)
    assert [f.content for f in plain.recall("Where do I live?", "u")] == []
    assert [f.content for f in lifted.recall("Where do I live?", "u")] == ["User lives in Porto."]
    assert lifted.recall("What's the capital of Australia?", "u") == []
    assert lifted.recall("How many ounces are in a cup?", "u") == []


def test_the_lift_moves_the_cosine_cutoffs_but_not_the_care_and_follow_up_rules():
    cfg = RecallConfig()
    cosine, rank = np.array([0.28, 0.08]), np.array([0.5, 0.1])
    lift = np.array([0.05, 0.05])
    assert not decide(cosine, rank, cfg).opened
    lifted = decide(cosine, rank, cfg, lift=lift)
    assert lifted.opened and lifted.keep.tolist() == [True, False] and lifted.best_cosine == pytest.approx(0.33)
    # a care fact at 0.08 stays below gate_care_cosine (0.1), lifted or not: that rule was set on "User" facts
    assert decide(cosine, rank, cfg, care=np.array([False, True]), lift=lift).keep.tolist() == [True, False]
    # a follow-up's best at 0.22 stays below gate_followup (0.25) though the lift reads it 0.27
    assert not decide(np.array([0.22]), np.array([0.3]), cfg, followup=True, lift=np.array([0.05])).opened
    # a general question reads its own cosine
    general = decide(np.array([0.28]), np.array([0.5]), cfg, general=True, lift=np.array([0.05]))
    assert not general.keep.any()


def test_a_fact_edited_in_place_is_still_read_as_written_about_user(hash_embedder):
    engine = RecallEngine(store=InMemoryFactStore(), embedder=hash_embedder)
    ids = engine.add("u", FACTS)
    engine.recall("warm the cache", "u")
    engine.update("u", ids[0], metadata={"source": "profile"})  # written in place: the cache overrides the row
    seen, report = _candidates(engine, "Where do I live these days?")
    cosine, gate = seen["User lives in Porto."]
    assert report.third_person == 0.05 and gate == pytest.approx(cosine + 0.05, abs=1e-6)
    cosine, gate = seen["I play the cello in an orchestra."]
    assert gate == pytest.approx(cosine, abs=1e-6)
