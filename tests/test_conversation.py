"""Conversation-aware recall: recall(query, entity_id, context=[earlier turns])."""

from __future__ import annotations

import numpy as np
import pytest

from _helpers import shared_fixture
from memori_core import ChromaStore, RecallConfig, RecallEngine
from memori_core.query import recent_turns
from memori_core.ranking.conversation import (
    accepts,
    asks_something,
    blend_query,
    conversation_text,
    conversation_turns,
    gate_cosine,
    is_courtesy,
    leans_on_the_conversation,
    tells_news,
    told_in,
)

FACTS = [
    "User is allergic to shellfish and prawns.",
    "User lives in Leeds.",
    "User plays the cello in an orchestra.",
    "User's partner is called Sam.",
]
EARLIER = "Tonight we go to a seafood restaurant: shellfish prawns lobster oysters."
FOLLOW_UP = "What do you recommend there?"  # names no concern ("What should I order?" is a meal question)


# -- the pure functions -----------------------------------------------------


def test_conversation_text_is_the_query_then_the_latest_turns_newest_first():
    turns = ["one", "  ", "two", "three", "four"]
    assert conversation_text("q?", recent_turns(turns, 2)) == "q?\nfour\nthree"
    assert conversation_text("q?", recent_turns(turns, 10)) == "q?\nfour\nthree\ntwo\none"


@pytest.mark.parametrize("turns, window", [([], 3), (["", "  "], 3), (["a"], 0)])
def test_conversation_text_is_none_when_no_turn_is_read(turns, window):
    assert conversation_text("q?", recent_turns(turns, window)) is None


def test_blend_is_a_unit_vector_between_query_and_conversation_and_weight_zero_is_the_query():
    q = np.array([3.0, 0.0, 0.0])
    c = np.array([0.0, 0.0, 2.0])
    blended = blend_query(q, c, 0.5)
    assert np.isclose(np.linalg.norm(blended), 1.0)
    assert blended[0] > blended[2] > 0
    np.testing.assert_allclose(blend_query(q, c, 0.0), [1.0, 0.0, 0.0])


def test_the_gate_reads_the_larger_cosine():
    np.testing.assert_array_equal(gate_cosine(np.array([0.1, 0.5]), np.array([0.4, 0.2])), [0.4, 0.5])


@pytest.mark.parametrize("query, terms, courtesy", [
    ("Thanks!", ["thank"], True),
    ("Sounds good", ["sound", "good"], True),
    ("\U0001F44D", [], True),
    ("?!", [], True),
    ("Should I let them?", [], False),  # all stopwords: the turn that most needs its conversation
    ("What about him?", [], False),
    ("Thanks, what should I order?", ["thank", "order"], False),
])
def test_a_courtesy_turn_has_only_courtesy_words_or_no_word_at_all(query, terms, courtesy):
    assert is_courtesy(query, terms, frozenset({"thank", "sound", "good"})) is courtesy


@pytest.mark.parametrize("turn, courtesy", [
    ("Cheers pal", True), ("Cheers mate!", True), ("ta very much", True), ("Much appreciated, buddy", True),
    ("Thanks mate, what wine goes with lamb?", False), ("Is my mate allergic to anything?", False),
    ("Can my pal come too?", False),
])
def test_the_thanks_of_everyday_british_and_irish_chat_are_courtesy_turns(engine, turn, courtesy):
    assert engine._is_courtesy(turn) is courtesy


@pytest.mark.parametrize("turn, courtesy", [
    ("And me? I have one too lol", False), ("ok and me?", False),  # every word a courtesy word's, yet it asks
    ("ok lol", True), ("Great, thanks, bye!", True),
    ("which night am i off again", False),  # a question about the asker, without its question mark
    ("good night", True),
])
def test_the_question_before_asked_again_for_the_asker_is_no_courtesy_turn(engine, turn, courtesy):
    assert engine._is_courtesy(turn) is courtesy


@pytest.mark.parametrize("turn, courtesy", [
    # tester j12: a goodbye after a question had opened the gate on the question's facts and the core ones
    ("Gracias, hasta luego", True), ("Thanks, see you later", True), ("ok see you soon", True),
    ("night night, ttyl", True), ("Danke, tschüss!", True),
    ("See you at the clinic later?", False), ("Can I see a doctor soon?", False),
])
def test_a_goodbye_is_a_courtesy_turn(engine, turn, courtesy):
    assert engine._is_courtesy(turn) is courtesy


@pytest.mark.parametrize("turn, accepting", [
    ("ok", True),
    ("yes please", True),
    ("Sounds good, do it!", True),
    ("perfect, continue", True),
    ("Ok, go ahead", True),
    ("\U0001F44D", True),
    ("Thanks!", False),  # closes the conversation
    ("ok thanks", False),
    ("Great, thanks!", False),
    ("Bye", False),
    ("no", False),  # turns it down
    ("Sounds good", False),  # agrees, asks for nothing more
    ("ok, what's the capital of Peru?", False),  # asks something of its own
    ("?!", False),
])
def test_a_turn_accepts_when_it_only_says_yes_or_go_on(turn, accepting):
    assert accepts(turn) is accepting


def test_a_fact_is_told_in_a_turn_that_holds_all_its_words_but_user():
    turns = [frozenset({"get", "seasick", "boat"}), frozenset({"move", "porto"})]
    assert told_in(["user", "get", "seasick", "boat"], turns, frozenset({"user"}))
    assert not told_in(["user", "live", "porto"], turns, frozenset({"user"}))  # "live" is not said
    assert not told_in(["user"], turns, frozenset({"user"}))  # no word of its own


# -- through the engine -----------------------------------------------------


def _seed(engine: RecallEngine) -> RecallEngine:
    engine.add("u1", FACTS)
    engine.add("u2", ["User is allergic to shellfish and prawns, says u2."])
    return engine


seeded = shared_fixture(_seed)  # the tests that take it only recall


def test_a_follow_up_recalls_what_only_the_earlier_turn_named(seeded):
    assert "User is allergic to shellfish and prawns." not in [f.content for f in seeded.recall(FOLLOW_UP, "u1")]
    with_context = seeded.recall(FOLLOW_UP, "u1", context=[EARLIER])
    assert with_context and with_context[0].content == "User is allergic to shellfish and prawns."
    assert all(f.entity_id == "u1" for f in with_context)  # context never widens the entity


def test_a_follow_up_of_stopwords_only_reads_its_conversation_and_a_thanks_does_not(seeded):
    # "Should I order them?" would have a term; "What about them?" has none, and was read alone before.
    report = seeded.explain("What about them?", "u1", context=[EARLIER])
    assert report.conversation == f"What about them?\n{EARLIER}"
    assert seeded.explain("Thanks!", "u1", context=[EARLIER]).conversation is None


@pytest.mark.parametrize("turn", ["ok", "yes please", "Sounds good, do it.", "\U0001F44D",
                                  "Sure, write the full menu."])
def test_a_turn_accepting_what_the_assistant_offered_recalls_what_the_earlier_turn_needed(seeded, turn):
    # "Shall I plan the menu?" -> "ok": the model is about to act on the earlier turn, allergy and all.
    assert "User is allergic to shellfish and prawns." in [f.content for f in seeded.recall(turn, "u1",
                                                                                          context=[EARLIER])]


def test_a_request_opening_with_please_is_no_follow_up_but_yes_and_sure_go_on():
    from memori_core.ranking.conversation import goes_on_from_the_conversation

    assert not goes_on_from_the_conversation("Please explain how vaccines work.")
    assert goes_on_from_the_conversation("Sure, write the full recipe.")
    assert goes_on_from_the_conversation("Yes, add a dessert too.")


@pytest.mark.parametrize("turn", ["Thanks!", "ok thanks", "Bye"])
def test_a_turn_closing_the_conversation_recalls_nothing(seeded, turn):
    assert seeded.recall(turn, "u1", context=[EARLIER]) == []


def test_context_costs_one_extra_embedding_and_none_without_context(hash_embedder):
    # Without the care signal, whose domain prototypes are embedded once per engine when first needed, nor the
    # carried facts of a leaning turn (their cost: the test below).
    engine = RecallEngine(store=ChromaStore.in_memory(), embedder=hash_embedder,
                          config=RecallConfig(gate_care=None, gate_carried=None))
    engine.add("u1", FACTS)
    before = hash_embedder.calls
    engine.recall(FOLLOW_UP, "u1")
    assert hash_embedder.calls - before == 1
    before = hash_embedder.calls
    engine.recall(FOLLOW_UP, "u1", context=["first turn", EARLIER])
    assert hash_embedder.calls - before == 2


def test_a_leaning_turn_embeds_the_turn_before_once_unless_recall_answered_it_already(hash_embedder):
    # What it carries (docs/ranking.md 59) is what recall keeps for the turn before on its own words, read only
    # when a fact could gain from it: a kept answer when the app recalled that turn (no embedding), else at most
    # one more embedding.
    engine = RecallEngine(store=ChromaStore.in_memory(), embedder=hash_embedder, config=RecallConfig(gate_care=None))
    engine.add("u1", FACTS)
    before = hash_embedder.calls
    engine.recall(FOLLOW_UP, "u1", context=["first turn", EARLIER])
    assert hash_embedder.calls - before <= 3
    engine.recall(EARLIER, "u1")  # the app's own recall of the turn before, as the first turn of a conversation
    before = hash_embedder.calls
    engine.recall(FOLLOW_UP + " tonight", "u1", context=[EARLIER])
    assert hash_embedder.calls - before == 2


def test_no_context_empty_context_and_blank_turns_recall_alike(seeded):
    plain = [(f.id, f.rank_score) for f in seeded.recall("Where do I live?", "u1")]
    for context in (None, [], ["", "   "]):
        assert [(f.id, f.rank_score) for f in seeded.recall("Where do I live?", "u1", context=context)] == plain


def test_explain_with_context_is_what_recall_returns_and_shows_what_the_gate_read(seeded):
    report = seeded.explain(FOLLOW_UP, "u1", context=[EARLIER])
    assert [f.id for f in report.facts] == [f.id for f in seeded.recall(FOLLOW_UP, "u1", context=[EARLIER])]
    # "...there?" leans on its conversation: it searches with context_weight_leaning (1.0), not context_weight
    assert report.conversation == f"{FOLLOW_UP}\n{EARLIER}" and report.context_weight == 1.0
    assert all(c.gate_cosine is not None and c.gate_cosine >= c.cosine - 1e-6 for c in report.candidates)
    table = report.table()
    assert "context: 1 earlier turn(s) read" in table and "gate cos" in table
    alone = seeded.explain(FOLLOW_UP, "u1")
    assert alone.conversation is None and alone.context_turns == 0 and "context:" not in alone.table()


def test_conversation_turns_keep_the_newest_always_and_older_ones_within_the_word_budget():
    assert conversation_turns(["a b c", "d e", "f g h i"], words=6) == ["f g h i", "d e"]
    assert conversation_turns(["a b c", "d e", "f g h i"], words=10) == ["f g h i", "d e", "a b c"]
    long = " ".join(["word"] * 500)
    assert conversation_turns(["short one", long], words=100) == [long]  # the newest, however long
    assert conversation_turns([long, "short one"], words=100) == ["short one"]
    assert conversation_turns([], words=100) == []


def test_explain_counts_turns_not_lines(seeded):
    pasted = "Here is my week:\nMonday gym\nTuesday choir\nWednesday dentist"
    report = seeded.explain(FOLLOW_UP, "u1", context=[pasted, EARLIER])
    assert report.context_turns == 2 and "context: 2 earlier turn(s) read" in report.table()


@pytest.mark.model
def test_a_long_earlier_turn_does_not_push_the_follow_up_out_of_what_the_model_reads(minilm):
    # MiniLM reads 256 tokens. Oldest first, this ~600-token paste filled them: neither the seafood turn nor
    # the question was embedded, and the follow-up recalled the paste's neighbours instead of the allergy.
    # Now the newest turn comes first and an older one only within CONVERSATION_WORDS.
    engine = RecallEngine(store=ChromaStore.in_memory(), embedder=minilm)
    engine.add("u1", FACTS + ["User reads a lot about Roman history.", "User has a season ticket for the opera."])
    paste = " ".join(["The Roman Republic expanded across Italy and fought Carthage in the Punic Wars."] * 40)
    context = [paste, "I'm taking Sam to a seafood restaurant tonight."]
    report = engine.explain(FOLLOW_UP, "u1", context=context)
    assert report.conversation == f"{FOLLOW_UP}\nI'm taking Sam to a seafood restaurant tonight."
    assert report.context_turns == 1
    recalled = [f.content for f in engine.recall(FOLLOW_UP, "u1", context=context)]
    assert recalled and recalled[0] == "User is allergic to shellfish and prawns."
    assert "User reads a lot about Roman history." not in recalled


async def test_async_twins_take_the_context(seeded):
    facts = await seeded.arecall(FOLLOW_UP, "u1", context=[EARLIER])
    assert [f.id for f in facts] == [f.id for f in seeded.recall(FOLLOW_UP, "u1", context=[EARLIER])]
    report = await seeded.aexplain(FOLLOW_UP, "u1", context=[EARLIER])
    assert report.conversation is not None


@pytest.mark.parametrize("config", [RecallConfig(context_turns=0), RecallConfig(context_weight=0.0),
                                    RecallConfig.memori_compat()])
def test_configs_that_ignore_context_answer_as_without_it(hash_embedder, config):
    engine = RecallEngine(store=ChromaStore.in_memory(), embedder=hash_embedder, config=config)
    engine.add("u1", FACTS)
    plain = [(f.id, f.cosine, f.rank_score) for f in engine.recall(FOLLOW_UP, "u1")]
    engine.clear_cache()  # else the same question over the same copy is answered again without embedding it
    before = hash_embedder.calls
    assert [(f.id, f.cosine, f.rank_score) for f in engine.recall(FOLLOW_UP, "u1", context=[EARLIER])] == plain
    assert hash_embedder.calls - before == 1  # the conversation is not even embedded


@pytest.mark.parametrize("context, kind", [(42, TypeError), ([EARLIER, 3], TypeError), (b"bytes", TypeError),
                                           (["\ud800"], ValueError)])
def test_bad_context_is_refused_naming_it(seeded, context, kind):
    with pytest.raises(kind, match="context"):
        seeded.recall(FOLLOW_UP, "u1", context=context)


def test_a_single_string_counts_as_one_turn(seeded):
    assert [f.id for f in seeded.recall(FOLLOW_UP, "u1", context=EARLIER)] == [
        f.id for f in seeded.recall(FOLLOW_UP, "u1", context=[EARLIER])
    ]


@pytest.mark.parametrize("field, value", [("context_turns", -1), ("context_weight", -0.5),
                                          ("context_weight", float("nan"))])
def test_bad_context_settings_are_refused(field, value):
    with pytest.raises((TypeError, ValueError), match=field):
        RecallConfig(**{field: value})


def test_context_settings_come_from_the_environment(monkeypatch):
    monkeypatch.setenv("MEMORI_RECALL_CONTEXT_TURNS", "5")
    monkeypatch.setenv("MEMORI_RECALL_CONTEXT_WEIGHT", "0.25")
    config = RecallConfig.from_env()
    assert (config.context_turns, config.context_weight) == (5, 0.25)


@pytest.mark.model
def test_a_fact_the_conversation_just_told_does_not_come_back_through_it(minilm):
    eng = RecallEngine(store=ChromaStore.in_memory(), embedder=minilm)
    eng.add("u", ["User lives in Porto.", "User is coeliac.", "User works as a nurse.", "User is 31.",
                  "User gets seasick on boats."])
    told = ["I just turned 31, and I work as a nurse.", "I get seasick on boats.", "I moved to Porto last month."]
    assert [f.content for f in eng.recall("Where do I live these days?", "u", context=told)] == ["User lives in Porto."]
    # a follow-up still reads what the conversation names but does not tell
    asked = ["We're thinking of taking the ferry to the islands. Good idea?"]
    assert "User gets seasick on boats." in [f.content for f in eng.recall("And what about the way back?", "u",
                                                                           context=asked)]


@pytest.mark.parametrize("turn, expected", [
    ("What should I order there?", True),  # points back
    ("And if it rains?", True),  # goes on
    ("What about the way back?", True),
    ("How long will they keep?", True),
    ("Train or coach?", True),  # too short to stand alone
    ("Who won the Booker Prize last year?", False),  # stands on its own
    ("How long do homemade empanadas keep in the fridge?", False),
    ("What's a normal amount to give as a wedding present?", False),
])
def test_a_turn_leans_on_the_conversation_when_it_goes_on_or_points_back(turn, expected):
    assert leans_on_the_conversation(turn) is expected


@pytest.mark.parametrize("turn, asks, news", [
    ("We moved to Slack at work.", False, True),  # tells something new
    ("I'm going to a seafood restaurant tonight with my wife.", False, True),
    ("What should I order there?", True, False),
    ("Stopping for lunch. What should I grab?", True, False),  # a question mark anywhere
    ("Suggest a wine for the roast.", True, False),  # a request
    ("Tell me what to cook tonight for the four of us.", True, False),
    ("I'm thinking of taking the train instead.", False, False),  # points back: goes on
    ("Train tomorrow.", False, False),  # too short to stand alone
])
def test_a_turn_that_neither_asks_nor_leans_tells_news(turn, asks, news):
    assert asks_something(turn) is asks
    assert tells_news(turn) is news


def test_a_turn_telling_news_is_gated_on_its_own_words_and_a_leaning_one_on_its_conversation(seeded):
    shellfish = "User is allergic to shellfish and prawns."
    news = seeded.explain("We booked a table for eight people.", "u1", context=[EARLIER])
    assert news.read_alone and news.conversation is not None  # the search still moves towards the conversation
    assert shellfish not in [f.content for f in news.facts]
    assert "each fact's cosine to the query alone" in news.table()
    goes_on = seeded.explain("We booked a table there for eight people.", "u1", context=[EARLIER])
    assert not goes_on.read_alone and "the larger of each fact's cosine" in goes_on.table()
    assert shellfish in [f.content for f in goes_on.facts]
    assert [f.id for f in news.facts] == [f.id for f in seeded.recall("We booked a table for eight people.", "u1",
                                                                      context=[EARLIER])]
