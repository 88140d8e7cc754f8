"""A follow-up's pronoun keeps the fact the turn before it told, the care rule reads the turn it goes on from, and a
question about one of the asker's people or pets gets none of the asker's own core facts (issue 20, tester j21's
findings 4, 5 and 6).

The rules' pure parts run in the fast tier; the conversations are recalled with the real MiniLM (model tier),
through the engine and through LlamaIndex's ``Memory`` with a ``MemoriMemoryBlock``.
"""

from __future__ import annotations

import pytest
from llama_index.core.base.llms.types import ChatMessage, MessageRole
from llama_index.core.memory import Memory

from memori_core import ChromaStore, RecallEngine
from memori_core.ranking.implications import one_of_theirs
from memori_core.ranking.referents import points_to_something, told_by, with_referent
from memori_llamaindex import MemoriMemoryBlock

pytestmark = [pytest.mark.usefixtures("close_chat_stores")]

MAYA_CORE = ["User is allergic to shellfish.", "User takes sertraline every morning.", "User is vegetarian."]
MAYA = ["User's cat Miso is 3 years old and very fussy.", "User works as a nurse at St Mary's hospital in Manchester.",
        "User started a pottery class on Wednesdays.", "User's name is Maya.", "User lives in Manchester."]
POTTERY = "User started a pottery class on Wednesdays."
OMAR_CORE = ["User only eats halal food.", "User has asthma.", "User uses a salbutamol inhaler."]
OMAR = ["User's son Adam is allergic to eggs.", "User lives in Ottawa.", "User works as an electrician."]
ADAM = "User's son Adam is allergic to eggs."


def test_a_pronoun_is_told_apart_from_a_question_that_names_its_thing():
    assert points_to_something("What should I wear to it?")
    assert points_to_something("Is it safe for me to do it after dinner?")
    assert not points_to_something("What should I wear to a wedding?")


def test_a_word_that_stands_for_nothing_named_before_is_no_pronoun():
    assert not points_to_something("Is there a good pharmacy near me?")  # existential "there"
    assert not points_to_something("Do you think it will rain tomorrow?")  # the weather's "it"
    assert not points_to_something("What time is it?")
    assert not points_to_something("Should I tell them I'm vegan?")  # people not yet named
    assert points_to_something("How do I get there?")  # a place named before
    assert points_to_something("It\u2019s raining, can I still go to it?")


def test_the_turn_before_tells_a_fact_when_it_holds_most_of_its_words():
    ignore = frozenset({"user"})
    said = frozenset({"i", "start", "potteri", "class", "wednesday"})
    assert told_by(["user", "start", "potteri", "class", "wednesday"], said, ignore)
    assert told_by(["user", "attend", "potteri", "class", "wednesday"], said, ignore)  # 3 of 4
    assert not told_by(["user", "work", "nurs", "hospit"], said, ignore)
    assert not told_by(["user"], said, ignore)


def test_a_question_naming_one_of_the_askers_people_is_about_them():
    facts = [ADAM, *OMAR_CORE, "User's name is Omar."]
    assert one_of_theirs("Can Adam have pancakes?", facts) == "Adam"
    assert one_of_theirs("What brand of food would suit Miso?", ["User's cat Miso is fussy."]) == "Miso"
    assert one_of_theirs("Can Adam and I share pancakes?", facts) is None  # the asker eats too
    assert one_of_theirs("Can Omar have pancakes?", facts) is None  # the asker's own name
    assert one_of_theirs("Can Rosie have pancakes?", facts) is None  # no fact holds the name
    assert one_of_theirs("Can Bruno come?", ["User adopted a beagle puppy called Bruno."]) == "Bruno"
    assert one_of_theirs("Is it ok for Ruben to have wine?", ["User's husband Ruben takes donepezil."]) == "Ruben"
    # named, yet not whom the question is for: the asker's prediabetes bears on the dessert they serve
    assert one_of_theirs("Can you suggest a dessert when Felipe's family comes?", ["User's son Felipe is 40."]) is None
    # the owner in a possessive is not whom the question is for: the asker eats at the wedding, in the restaurant
    owners = ["User's sister Sarah is getting married in June.", "User's friend Tom runs an Italian restaurant."]
    assert one_of_theirs("Will Sarah's wedding have vegan options?", owners) is None
    assert one_of_theirs("Does Tom\u2019s restaurant have gluten-free pasta?", owners) is None
    # a place the facts hold is no one: the asker's allergy bears on the food of their trip
    assert one_of_theirs("What's the food like in Japan?", ["User is going to Japan in March."]) is None


def _engine(minilm, entity: str, core: list[str], others: list[str]) -> RecallEngine:
    engine = RecallEngine(store=ChromaStore.in_memory(), embedder=minilm)
    engine.add(entity, core, created_at="2026-10-20T09:00:00Z", core=True)
    engine.add(entity, others, created_at="2026-10-21T09:00:00Z")
    return engine


@pytest.mark.model
def test_engine_keeps_the_pottery_class_a_follow_up_asks_what_to_wear_to(minilm):
    engine = _engine(minilm, "maya", MAYA_CORE, MAYA)
    got = engine.recall("What should I wear to it?", "maya",
                        context=["Can I have grapefruit juice with my medication?", "I started a pottery class on Wednesdays."])
    assert [f.content for f in got][:1] == [POTTERY]


@pytest.mark.model
def test_engine_keeps_no_told_fact_for_a_question_whose_there_or_it_stands_for_nothing(minilm):
    engine = _engine(minilm, "maya", [], MAYA)
    for question in ("Is there a good pharmacy near me?", "Do you think it will rain tomorrow?"):
        got = engine.recall(question, "maya", context=["I started a pottery class on Wednesdays."])
        assert all(f.passed_by != "follow-up" for f in got), question


@pytest.mark.model
def test_engine_keeps_the_tea_a_sleep_follow_up_points_to(minilm):
    engine = _engine(minilm, "raj", ["User has type 2 diabetes.", "User takes metformin twice a day."],
                     ["User switched to green tea.", "User's name is Raj.", "User adopted a beagle puppy called Bruno.",
                      "User started bouldering at a climbing gym."])
    got = engine.recall("I still can't sleep well, what could it be?", "raj",
                        context=["I switched to green tea, no more coffee."])
    assert "User switched to green tea." in [f.content for f in got]


@pytest.mark.model
def test_care_rule_reads_the_turn_a_follow_up_goes_on_from_not_an_older_one(minilm):
    # the care facts stored as plain facts: only the care rule could bring them to a question about clothes
    engine = _engine(minilm, "maya", [], MAYA_CORE + MAYA)
    got = {f.content for f in engine.recall(
        "What should I wear to it?", "maya",
        context=["Can I have grapefruit juice with my medication?", "I started a pottery class on Wednesdays."])}
    assert POTTERY in got
    assert got.isdisjoint(MAYA_CORE)


@pytest.mark.model
def test_engine_gives_a_question_about_the_cat_none_of_the_owners_core_facts(minilm):
    engine = _engine(minilm, "maya", MAYA_CORE, MAYA)
    got = [f.content for f in engine.recall(
        "What brand of food would suit her?", "maya",
        context=["What should I cook for dinner tonight?", "My cat Miso is 3 years old and very fussy."])]
    assert got[:1] == [MAYA[0]]
    assert set(got).isdisjoint(MAYA_CORE)


@pytest.mark.model
def test_engine_gives_a_question_about_the_son_his_allergy_not_the_fathers_asthma(minilm):
    engine = _engine(minilm, "omar", OMAR_CORE, OMAR)
    got = {f.content for f in engine.recall("Can Adam have pancakes?", "omar")}
    assert ADAM in got
    assert got.isdisjoint(OMAR_CORE)


@pytest.mark.model
def test_engine_keeps_the_askers_diet_for_a_question_about_a_friends_restaurant(minilm):
    engine = _engine(minilm, "u", ["User is vegan.", "User has coeliac disease."],
                     ["User's sister Sarah is getting married in June.", "User's friend Tom runs an Italian restaurant."])
    for question in ("Will Sarah's wedding have vegan options?", "Does Tom's restaurant have gluten-free pasta?"):
        got = {f.content for f in engine.recall(question, "u")}
        assert {"User is vegan.", "User has coeliac disease."} <= got, question


def _user(text: str) -> ChatMessage:
    return ChatMessage(role=MessageRole.USER, content=text)


@pytest.mark.model
async def test_llamaindex_block_shows_the_pottery_class_and_the_sons_allergy_only(minilm):
    maya = _engine(minilm, "maya", MAYA_CORE, MAYA)
    block = MemoriMemoryBlock(engine=maya, entity_id="maya")
    text = await block.aget([_user("Can I have grapefruit juice with my medication?"),
                             ChatMessage(role=MessageRole.ASSISTANT, content="Ask your pharmacist."),
                             _user("I started a pottery class on Wednesdays."),
                             ChatMessage(role=MessageRole.ASSISTANT, content="How fun!"),
                             _user("What should I wear to it?")])
    assert "pottery class" in text
    omar = _engine(minilm, "omar", OMAR_CORE, OMAR)
    memory = Memory.from_defaults(session_id="s1", memory_blocks=[MemoriMemoryBlock(engine=omar, entity_id="omar")])
    await memory.aput(_user("Can Adam have pancakes?"))
    shown = " ".join(str(m.content) for m in await memory.aget())
    assert "Adam is allergic to eggs" in shown
    assert not any(fact.rstrip(".") in shown for fact in OMAR_CORE)


@pytest.mark.parametrize("question", ["Where is she going to sleep?", "What should I cook for her?",
                                      "How long is she staying?"])
def test_a_questions_opening_word_is_no_name_so_her_is_the_one_named_before(question):
    # docs/ranking.md item 54: "Where" was read as a name the question gave itself, so "she" stayed unread
    said = with_referent(question, ["My sister Anna is visiting next week."])
    assert "Anna" in said and not any(w in said.split() for w in ("she", "her"))
    assert with_referent("When is Carol coming to stay?", ["My sister Anna is visiting next week."]) == \
        "When is Carol coming to stay?"  # a question that names someone itself is asked of them
