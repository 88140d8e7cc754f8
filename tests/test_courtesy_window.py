"""Courtesy turns ("thanks", "ok great", "You're welcome!") do not count against ``context_turns`` (issue 20 item 2):
with the default 3, [question, reply, "thanks", "You're welcome!"] before a follow-up used to hold the reply and the
two courtesy turns only, and the follow-up lost the question's fact. The window is cut the same way by the engine
and by every adapter's path (the provider SDKs, LangChain, LlamaIndex).
"""

from __future__ import annotations

import pytest
from langchain_core.messages import AIMessage, HumanMessage
from llama_index.core.base.llms.types import ChatMessage, MessageRole

from memori_core import ChromaStore, RecallEngine
from memori_core.query import extract_query_and_context, recent_turns
from memori_core.ranking.conversation import without_greeting
from memori_core.tool_queries import is_courtesy_turn
from memori_langchain import human_query_and_context
from memori_llamaindex._common import user_query_and_context

QUESTION = "Is it ok to give Lucky some chocolate?"
REPLY = "It is best avoided: even a little can cause vomiting and a racing heart."
FOLLOW_UP = "what if it already happened?"
USER_TURNS = [QUESTION, "thanks", "ok great", "cheers!", FOLLOW_UP]


def test_recent_turns_reaches_back_past_free_turns_to_keep_turns_that_count():
    turns = ["older question", QUESTION, REPLY, "thanks", "You're welcome!"]
    assert recent_turns(turns, 3) == [REPLY, "thanks", "You're welcome!"]
    assert recent_turns(turns, 3, is_courtesy_turn) == turns
    assert recent_turns(turns, 2, is_courtesy_turn) == turns[1:]
    assert recent_turns(turns, 0, is_courtesy_turn) == []


def test_a_run_of_courtesy_turns_frees_at_most_keep_of_them():
    turns = [QUESTION, "thanks", "ok", "great", "cool", "bye"]
    assert recent_turns(turns, 2, is_courtesy_turn) == ["ok", "great", "cool", "bye"]


def test_every_adapters_path_keeps_the_question_past_courtesy_turns():
    assert extract_query_and_context({"messages": [{"role": "user", "content": t} for t in USER_TURNS]}, 3,
                                     is_courtesy_turn) == (FOLLOW_UP, USER_TURNS[:-1])
    messages = [m for t in USER_TURNS for m in (HumanMessage(t), AIMessage("Sure."))][:-1]
    assert human_query_and_context(messages, 3) == (FOLLOW_UP, USER_TURNS[:-1])
    chat = [ChatMessage(role=MessageRole.USER, content=t) for t in USER_TURNS]
    assert user_query_and_context(chat, 3) == (FOLLOW_UP, USER_TURNS[:-1])


def test_the_sdk_path_reads_the_question_past_courtesy_turns():
    from memori_core import MemoriRecall

    seen = []

    class Recording(RecallEngine):
        def recall(self, query, entity_id, limit=None, **kwargs):
            seen.append(kwargs.get("context"))
            return super().recall(query, entity_id, limit, **kwargs)

    from _helpers import HashEmbedder
    engine = Recording(store=ChromaStore.in_memory(), embedder=HashEmbedder())
    engine.add("u", ["User has a dog named Lucky."])
    messages = [{"role": "user", "content": t} for t in USER_TURNS]
    MemoriRecall(engine, entity_id="u").apply({"model": "gpt-4o", "messages": messages}, provider="openai")
    assert seen == [USER_TURNS[:-1]]


@pytest.mark.model
def test_a_follow_up_keeps_the_questions_fact_past_thanks_and_youre_welcome(minilm):
    engine = RecallEngine(store=ChromaStore.in_memory(), embedder=minilm)
    engine.add("u", ["User has a dog named Lucky.", "User is vegetarian.", "User lives in Denver.",
                     "User works as a teacher.", "User's cat is called Bean."])
    context = [QUESTION, REPLY, "thanks", "You're welcome!"]
    assert "User has a dog named Lucky." in [f.content for f in engine.recall(FOLLOW_UP, "u", context=context)]
    assert engine.explain(FOLLOW_UP, "u", context=context).context_turns == 4


# issue 20, gatefix40: the engine and the adapters cut the window with one test, greetings included


def test_the_engine_frees_a_greeting_from_its_window_as_the_adapters_do():
    from memori_core import RecallConfig
    from memori_core.engine.gate_signals import GateSignals
    from memori_core.tool_queries import courtesy_test

    class _Engine(GateSignals):
        config = RecallConfig(context_turns=2)

    engine = _Engine()
    turns = ["Is it ok to give Lucky some chocolate?", "thanks, have a nice day", "good morning"]
    for turn in turns[1:]:
        assert engine._carries_nothing(turn) and courtesy_test(engine)(turn)
    assert recent_turns(turns, 2, engine._carries_nothing) == recent_turns(turns, 2, courtesy_test(engine)) == turns


def test_the_adapters_read_courtesy_with_the_engines_stemmer():
    from memori_core import RecallConfig
    from memori_core.tool_queries import courtesy_test

    class _Spanish:
        config = RecallConfig(stemmer="spanish")

    assert courtesy_test(_Spanish())("muchas gracias") and not courtesy_test(None)("muchas gracias")
    messages = [HumanMessage("¿Puedo comer gambas?"), HumanMessage("muchas gracias"), HumanMessage("¿y mañana?")]
    assert human_query_and_context(messages, 1, courtesy_test(_Spanish()))[1] == ["¿Puedo comer gambas?",
                                                                                   "muchas gracias"]


@pytest.mark.parametrize("turn", ["good evening, what should I do this weekend", "good morning what day is it",
                                  "good afternoon, any plans for the day"])
def test_a_greeting_followed_by_a_request_is_no_courtesy_turn(turn):
    assert not is_courtesy_turn(turn)


@pytest.mark.parametrize("turn", ["good morning", "have a nice day", "Have a great evening, thanks!",
                                  "good morning, how are you"])
def test_a_greeting_alone_is_a_courtesy_turn(turn):
    assert is_courtesy_turn(turn)


def test_engine_recalls_for_a_greeting_followed_by_a_request(minilm):
    engine = RecallEngine(store=ChromaStore.in_memory(), embedder=minilm)
    engine.add("u", ["User loves hiking and wild swimming.", "User lives in Bristol.",
                     "User plays five-a-side football on Wednesdays."])
    assert engine.recall("good evening, what should I do this weekend", "u")


@pytest.mark.parametrize(("turn", "read"), [
    ("good morning what should we do today", "what should we do today"),
    ("Hi there, how are you? Any ideas for dinner?", "Any ideas for dinner?"),
    ("Morning! Where do I live?", "Where do I live?"),
    ("hey, what should I practise today?", "what should I practise today?"),
    # a greeting alone, before news or thanks, and a word that only starts like one: as written
    *((turn, turn) for turn in ("Good morning!", "good morning, how are you", "Hi, I moved to Cork.", "hello, thanks",
                                "high blood pressure, what should I eat?")),
])
def test_a_greeting_before_a_question_is_cut_so_the_question_is_read_on_its_words(turn, read):
    assert without_greeting(turn) == read


def test_engine_ranks_a_greeting_then_a_question_as_the_question_alone(minilm):
    engine = RecallEngine(store=ChromaStore.in_memory(), embedder=minilm)
    engine.add("kim", ["User loves hiking.", "User is learning the guitar.", "User is vegetarian.",
                       "User works as a nurse.", "User is training for a marathon."])
    for question in ("what should I practise today?", "what should we do today"):
        alone = [(f.content, round(f.rank_score, 6)) for f in engine.recall(question, "kim")]
        assert [(f.content, round(f.rank_score, 6)) for f in engine.recall("good morning " + question, "kim")] == alone
    assert [f.content for f in engine.recall("hey, what should I practise today?", "kim")][:1] == \
        ["User is learning the guitar."]


@pytest.mark.parametrize("turn", [
    "Morning sickness remedies?", "Evening primrose oil with my meds?", "Afternoon tea spots in London?",
    "Hello Kitty backpack for my niece?", "Hey Jude chords?", "hi-fi speakers under 500?",
    "Good day for a hike tomorrow?", "Greetings cards for mum's birthday?", "gm crops safe to eat?",
    "Morning person tips?", "Evening shift — what should I eat before?",
])
def test_a_question_opening_with_a_word_a_greeting_also_uses_keeps_that_word(turn):
    # rev41b #1: "Morning sickness", "Hello Kitty", "Good day for ...": no greeting ends there
    assert without_greeting(turn) == turn


@pytest.mark.parametrize(("turn", "question"), [
    ("Morning, where do I live?", "where do I live?"),
    ("morning all, any plans for today?", "any plans for today?"),
    ("hey what's my sister's name", "what's my sister's name"),
    ("Good day! Any lunch ideas?", "Any lunch ideas?"),
    ("Hello again! What did I say my dog's name was?", "What did I say my dog's name was?"),
])
def test_a_greeting_ended_by_punctuation_a_greeting_word_or_a_question_word_is_cut(turn, question):
    assert without_greeting(turn) == question


@pytest.mark.parametrize("small_talk", ["Hey, what's up?", "Hi, who are you?", "Hello, what can you do?"])
def test_small_talk_after_a_greeting_stays_a_courtesy_turn_without_core_facts(minilm, small_talk):
    # rev41b #2: the courtesy test reads the turn with its greeting; cut, "who are you?" got the core medicine
    engine = RecallEngine(store=ChromaStore.in_memory(), embedder=minilm)
    engine.add("u", ["User lives in Leeds.", "User works as a nurse.", "User has a beagle named Max."])
    engine.add("u", ["User takes metformin every morning."], core=True)
    assert engine.recall(small_talk, "u") == []
    assert "courtesy" in str(engine.explain(small_talk, "u"))
