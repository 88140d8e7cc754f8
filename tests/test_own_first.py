"""On a question the asker asks about themselves, their own facts come before facts about someone else
(:mod:`memori_core.ranking.own_first`); the gate keeps the same facts either way."""

from __future__ import annotations

from _helpers import HashEmbedder

from memori_core import ChromaStore, RecallConfig, RecallEngine
from memori_core.ranking.own_first import asks_for_oneself, own_first

WIFE = "User's wife Priya is allergic to penicillin."
OWN = "User is allergic to penicillin and to ibuprofen since childhood."


def _engine(config: RecallConfig | None = None) -> RecallEngine:
    eng = RecallEngine(store=ChromaStore.in_memory(), embedder=HashEmbedder(), config=config or RecallConfig())
    eng.add("u", [WIFE, OWN])
    return eng


def test_the_askers_own_fact_comes_before_the_wifes_that_ranks_higher() -> None:
    eng = _engine()
    facts = eng.recall("Am I allergic to penicillin?", "u")
    assert [f.content for f in facts] == [OWN, WIFE] and facts[1].rank_score > facts[0].rank_score
    assert eng.explain("Am I allergic to penicillin?", "u").facts == facts


def test_a_question_for_the_household_or_naming_her_keeps_the_rank_order() -> None:
    eng = _engine()
    assert [f.content for f in eng.recall("Are we allergic to penicillin?", "u")] == [WIFE, OWN]
    assert [f.content for f in eng.recall("Is my wife allergic to penicillin?", "u")] == [WIFE]


def test_the_threshold_gate_keeps_upstreams_order() -> None:
    eng = _engine(RecallConfig.memori_compat())
    facts = eng.recall("Am I allergic to penicillin?", "u")
    assert [f.content for f in facts] == [WIFE, OWN]


def test_who_a_question_is_for_and_which_facts_move() -> None:
    assert [asks_for_oneself(q) for q in ("What medication am I on?", "Can you check my calendar?",
                                          "What can we cook tonight?", "What does my dad take?",
                                          "Is Bob allergic to nuts?")] == [True, True, False, False, False]
    texts = ["User's colleague Tim is vegan.", "User's car is a Golf.", "User's son Leo is 4.", "User is vegan."]
    assert own_first("What should I eat?", texts).tolist() == [1, 3, 0, 2]
    assert own_first("What should I eat?", texts[1:2] + texts[3:]) is None  # no one else's: as ranked
    assert own_first("What should I cook for Tim?", texts[:2]) is None  # the one it names is not someone else


def test_a_turn_bringing_in_someone_else_or_a_conversation_naming_them_keeps_the_rank_order() -> None:
    texts = ["My mother Hoda (70) is coming on Friday.", "My chair is a rigid-frame manual chair.",
             "My friend Karim is also a wheelchair user."]
    assert own_first("Which airline is best for me?", texts).tolist() == [1, 0, 2]  # "my chair" is the asker's
    # the turn before names her: the train is for the visit
    assert own_first("What if I took the train instead?", texts[:2]).tolist() == [1, 0]
    assert own_first("What if I took the train instead?", texts[:2], ["How do I visit my mother?"]) is None
    for turn in ("Daniel wants burgers tonight. What should I get?", "Who should I call about it?",
                 "What should I cook for the kids?", "Can I video call my grandchildren?"):
        assert own_first(turn, texts) is None, turn


def test_a_question_for_the_askers_own_slot_puts_their_fact_first_though_the_turn_before_named_the_other() -> None:
    texts = ["User's sister lives in Paris.", "User lives in Seoul with their husband Jae."]
    before = ["My sister moved to Paris."]
    for question in ("Where do I live?", "What city do I live in?"):
        assert own_first(question, texts, before).tolist() == [1, 0], question
    assert own_first("Where does my sister live?", texts, before) is None  # her slot, asked for
    # a fact about the sister filling no slot the question asks for stays where the conversation put it
    assert own_first("Where do I live?", ["User's sister Ana is a nurse.", texts[1]], ["My sister Ana visited."]) is None


def test_the_engine_ranks_the_askers_home_first_after_a_turn_about_the_sisters_move(minilm) -> None:
    eng = RecallEngine(store=ChromaStore.in_memory(), embedder=minilm)
    eng.add("kim", ["User lives in Seoul with their husband Jae."], created_at="2026-06-01T07:02:00+09:00")
    eng.add("kim", ["User's sister lives in Paris."], created_at="2026-06-03T09:00:00+09:00")
    facts = eng.recall("Where do I live?", "kim", context=["My sister moved to Paris."])
    assert [f.content for f in facts] == ["User lives in Seoul with their husband Jae.", "User's sister lives in Paris."]


def test_a_question_about_where_the_asker_is_reads_the_turns_before_as_usual() -> None:
    # rev41b #5: "near me" asks where the asker is, which the turn before told; only "where do I live" asks the slot
    texts = ["User's sister lives in Paris.", "User lives in Seoul with their husband Jae."]
    staying = ["I'm staying with my sister in Paris this week."]
    for question in ("Any events near me tonight?", "What's the weather in my city today?"):
        assert own_first(question, texts, staying) is None, question
    for question in ("Where am I living now?", "What city do I live in?"):
        assert own_first(question, texts, staying).tolist() == [1, 0], question
    jobs = ["User's wife works as a nurse at Mass General.", "User works as a teacher."]
    assert own_first("What's my job?", jobs, ["My wife got a job at Mass General."]).tolist() == [1, 0]


def test_the_engine_ranks_the_sisters_city_first_for_events_near_an_asker_staying_with_her(minilm) -> None:
    eng = RecallEngine(store=ChromaStore.in_memory(), embedder=minilm)
    eng.add("kim", ["User lives in Seoul with their husband Jae."], created_at="2026-06-01T07:02:00+09:00")
    eng.add("kim", ["User's sister lives in Paris."], created_at="2026-06-03T09:00:00+09:00")
    facts = eng.recall("Any events near me tonight?", "kim", context=["I'm staying with my sister in Paris this week."])
    assert [f.content for f in facts][:1] == ["User's sister lives in Paris."]
