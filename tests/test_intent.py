"""The gate's third signal: a general-knowledge question keeps only facts that clearly match it (ranking/intent.py).

Rows of what the rules read in one question's words are in the rule book tests/rules/intent.toml, run by
test_rule_books.py."""

from __future__ import annotations

import numpy as np
import pytest

from memori_core import ChromaStore, RecallConfig, RecallEngine
from memori_core.ranking.gate import decide
from memori_core.ranking.intent import (
    ADVICE_PROTOTYPES,
    GENERAL_MARGIN,
    GENERAL_PROTOTYPES,
    general_margin,
    is_general,
    names_known,
    prototype_texts,
)

# Written apart from evals/app_memory (none of these is in it), to check that the prototypes describe
# question shapes rather than the development set's questions.
GENERAL = [
    "What's the melting point of lead?", "Who painted the Mona Lisa?", "How many legs does a spider have?",
    "Translate 'good morning' into Italian.", "What year did the Berlin Wall fall?",
    "How does a refrigerator keep things cold?", "What's the square root of 144?",
    "What's the difference between weather and climate?", "How long is a marathon in miles?",
    "What is photosynthesis?", "How tall is the Eiffel Tower?", "Who wrote Pride and Prejudice?",
    "What's the currency of Japan?", "How do vaccines work?", "What causes thunder?",
    "How many players are on a rugby team?", "What does GDP stand for?", "What's the fastest land animal?",
    "How long does opened hummus keep in the fridge?", "Where does the custom of Christmas crackers come from?",
    "How do Norwegians celebrate midsummer?", "Is it true that goldfish only remember three seconds?",
    "Is it true you lose most body heat through your head?",
]
ADVICE = [
    "Can you suggest a dinner recipe for tonight?", "Is it safe to go for a run with this cold?",
    "Any gift ideas for my brother's 40th?", "What can the kids have for lunch tomorrow?",
    "Is it a good idea to get a second dog?", "Recommend a film for movie night.",
    "Could you plan a workout for Thursday?", "Is coffee okay before bed?", "Is this weekend good for a hike?",
    "Any ideas for a cheap date night?", "Suggest a snack for the drive.", "What should we cook for the dinner party?",
    "Would a cruise round the Greek islands be a good holiday?",  # a request for the asker, not how people celebrate
]


def test_prototype_texts_list_the_advice_requests_first():
    texts, advice = prototype_texts()
    assert texts[:advice] == list(ADVICE_PROTOTYPES) and texts[advice:] == list(GENERAL_PROTOTYPES)


def test_general_margin_is_best_general_minus_best_advice_cosine():
    prototypes = np.array([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0], [0.6, 0.0, 0.8]], dtype=np.float32)
    question = np.array([0.0, 0.6, 0.8], dtype=np.float32)  # advice rows 0-1, general rows 2-3
    assert general_margin(question, prototypes, 2) == pytest.approx(0.8 - 0.6)
    assert is_general(question, prototypes, 2, margin=0.19)
    assert not is_general(question, prototypes, 2, margin=0.21)


def test_a_general_question_keeps_only_facts_at_the_general_bar_or_with_many_of_its_words():
    cfg = RecallConfig()
    cosine = np.array([cfg.gate_general + 0.05, 0.40, 0.30, 0.35])  # only the first reaches the general bar
    lexical = np.array([0.0, 0.0, 1.0, 1.0])
    bm25 = np.array([0.0, 0.0, cfg.gate_general_bm25 + 0.5, 2.0])  # the last holds one rare word only
    care = np.array([False, True, False, False])
    score = cosine.copy()
    usual = decide(cosine, score, cfg, lexical, bm25, care=care)
    assert usual.keep.tolist() == [True, True, True, True]
    general = decide(cosine, score, cfg, lexical, bm25, care=care, general=True)
    assert general.keep.tolist() == [True, False, True, False] and general.opened
    assert "general question" in general.note
    closed = decide(np.array([0.40, 0.30]), np.array([0.4, 0.3]), cfg, np.zeros(2), np.zeros(2), general=True)
    assert not closed.opened and not closed.keep.any() and "closed" in closed.note
    off = decide(cosine, score, cfg.replace(gate_general=None), lexical, bm25, care=care, general=True)
    assert off.keep.tolist() == usual.keep.tolist()


@pytest.mark.parametrize("gate", ["off", "threshold"])
def test_other_gates_ignore_the_general_flag(gate):
    cfg = RecallConfig(gate=gate)
    cosine = np.array([0.2, 0.1])
    assert decide(cosine, cosine, cfg, general=True).keep.tolist() == decide(cosine, cosine, cfg).keep.tolist()


@pytest.mark.parametrize("bad", [float("nan"), "high"])
def test_gate_general_must_be_a_number(bad):
    with pytest.raises((TypeError, ValueError), match="gate_general"):
        RecallConfig(gate_general=bad)


def test_memori_compat_has_no_general_signal():
    assert RecallConfig.memori_compat().gate_general is None


# -- with MiniLM ----------------------------------------------------------------


@pytest.fixture(scope="module")
def intent_vectors(minilm):
    texts, advice = prototype_texts()
    matrix = minilm.embed_documents(texts)
    return matrix / np.linalg.norm(matrix, axis=1, keepdims=True), advice


@pytest.mark.parametrize("question", GENERAL)
def test_general_knowledge_questions_are_nearer_a_general_shape(minilm, intent_vectors, question):
    q = minilm.embed_query(question)
    assert general_margin(q / np.linalg.norm(q), *intent_vectors) >= GENERAL_MARGIN


@pytest.mark.parametrize("question", ADVICE)
def test_requests_for_advice_are_not_general(minilm, intent_vectors, question):
    q = minilm.embed_query(question)
    assert general_margin(q / np.linalg.norm(q), *intent_vectors) < GENERAL_MARGIN


CAT_OWNER = ["User has a ginger cat called Biscuit.", "User is allergic to peanuts.", "User lives in Leeds.",
             "User works night shifts as a nurse.", "User is learning Spanish."]


@pytest.fixture
def cat_engines(minilm):
    on = RecallEngine(store=ChromaStore.in_memory(), embedder=minilm)
    off = RecallEngine(store=ChromaStore.in_memory(), embedder=minilm, config=RecallConfig(gate_general=None))
    for engine in (on, off):
        engine.add("u1", CAT_OWNER)
    return on, off


def test_a_general_follow_up_is_not_widened_by_the_conversation(cat_engines):
    on, off = cat_engines
    context = ["Biscuit keeps sneezing, should I be worried?"]
    question = "Why do cats purr?"
    assert [f.content for f in off.recall(question, "u1", context=context)]  # the conversation pulled facts in
    assert on.recall(question, "u1", context=context) == []
    report = on.explain(question, "u1", context=context)
    assert "general question" in report.gate_note and not report.facts


def test_a_personal_follow_up_still_reads_the_conversation(cat_engines):
    on, _ = cat_engines
    context = ["Biscuit keeps sneezing, should I be worried?"]
    recalled = [f.content for f in on.recall("Should I take him to the vet?", "u1", context=context)]
    assert "User has a ginger cat called Biscuit." in recalled


@pytest.mark.parametrize("question", ["What's the capital of Australia?", "How many ounces are in a cup?",
                                      "Explain how compound interest works."])
def test_general_questions_inject_nothing(cat_engines, question):
    assert cat_engines[0].recall(question, "u1") == []


def test_a_name_counts_only_when_a_fact_holds_it():
    facts = ["Caroline went to the LGBTQ support group.", "Melanie painted a sunrise."]
    assert names_known("When did Caroline go there?", facts)
    assert not names_known("When did Napoleon die?", facts)
    assert not names_known("When did it happen?", facts)


def test_a_question_about_someone_the_memory_knows_is_not_general(minilm):
    engine = RecallEngine(store=ChromaStore.in_memory(), embedder=minilm)
    engine.add("u1", ["Caroline moved from Sweden four years ago.", "Melanie has two kids.", "User likes tea."])
    report = engine.explain("Where did Caroline move from?", "u1")
    assert "general question" not in report.gate_note
    assert "Caroline moved from Sweden four years ago." in [f.content for f in report.facts]


@pytest.mark.model
def test_an_amount_in_a_unit_injects_nothing_though_its_words_are_the_users(minilm):
    eng = RecallEngine(store=ChromaStore.in_memory(), embedder=minilm)
    eng.add("ann", ["User is 26 weeks pregnant, due in mid-August.", "User is planning 16 weeks of parental leave.",
                    "User's mother-in-law is coming to stay for two weeks after the birth.", "User lives in Leeds.",
                    "User has a cat named Pickles.", "User commutes on the F train."])
    assert eng.recall("How many weeks are in a year?", "ann") == []
    assert eng.recall("How many weeks of leave am I planning?", "ann") != []  # personal: read as usual


def test_a_capitalised_word_a_fact_starts_with_makes_the_question_about_someone_known():
    facts = ["John: I've always had a great respect for our military.", "User grew up in Chicago."]
    assert names_known("What inspired John to join the march for veterans?", facts)  # John is no subject here
    assert not names_known("What's the population of Chicago?", facts)  # a place a fact only mentions
    assert not names_known("What inspired Nate to start?", facts)
    assert not names_known("Why do bees swarm?", facts)


RABBITS = ["User has two rabbits, Praline and Noisette.", "User keeps two beehives in the backyard.",
           "User lives in Lyon.", "User is a freelance translator.", "User takes the train whenever she can."]


def test_a_general_question_does_not_inject_a_fact_that_only_shares_its_topic(minilm):
    eng = RecallEngine(store=ChromaStore.in_memory(), embedder=minilm)
    eng.add("ann", RABBITS)
    loose = RecallEngine(store=ChromaStore.in_memory(), embedder=minilm, config=RecallConfig(gate_general=0.45))
    loose.add("ann", RABBITS)
    for question in ("How long do rabbits usually live?", "Why do bees swarm?"):
        assert loose.recall(question, "ann") != []  # the old bar let the topic through
        assert eng.recall(question, "ann") == [], question
    assert "User has two rabbits, Praline and Noisette." in [
        f.content for f in eng.recall("Can my rabbits eat carrots every day?", "ann")]  # personal: read as usual


def test_a_question_about_someone_a_fact_speaks_for_is_not_general(minilm):
    eng = RecallEngine(store=ChromaStore.in_memory(), embedder=minilm)
    said = "John: I've always had great respect for our military and wanted to show my support."
    eng.add("conv", [said, "Maria: I adopted a puppy from the shelter last week.", "John: I got promoted."])
    question = "What inspired John to join the marching event for veterans' rights?"
    assert said in [f.content for f in eng.recall(question, "conv")]
    assert "general question" not in eng.explain(question, "conv").gate_note


def test_a_general_question_naming_a_place_a_fact_holds_gets_no_unrelated_core_fact(minilm):
    engine = RecallEngine(store=ChromaStore.in_memory(), embedder=minilm)
    engine.add("raj", ["User's daughter Anjali lives in Toronto with her husband.", "User is 71."])
    engine.add("raj", ["User has type 2 diabetes.", "User takes metformin 500mg twice a day."], core=True)
    # the place makes the gate read the question as about someone known, but its shape is a general one
    recalled = engine.recall("How far is Toronto from Niagara Falls?", "raj")
    assert not [f.content for f in recalled if f.metadata.get("core") is True]
    asked = engine.recall("What should I eat before my flight to Toronto?", "raj")
    assert "User has type 2 diabetes." in [f.content for f in asked]


def test_a_follow_up_that_speaks_of_someone_by_a_pronoun_is_not_read_as_general(minilm):
    engine = RecallEngine(store=ChromaStore.in_memory(), embedder=minilm)
    son = "User's son Tom rents a flat in Glasgow's West End."
    engine.add("u", [son, "User works as a dental nurse.", "User is learning the ukulele."])
    turn, before = "What's the easiest way from the station to his flat?", ["My son's just moved, I'm visiting in May."]
    assert "a general question" not in engine.explain(turn, "u", context=before).gate_note
    assert son in [f.content for f in engine.recall(turn, "u", context=before)]


VALENCIA = ["User's cardiology appointment is on 14 May at 9:30.", "User has a 12-year-old tortoise named Gus.",
            "User pays 1,250 euros rent a month for a flat in Valencia.", "User sings bass in the Valencia city choir.",
            "User takes bisoprolol for atrial fibrillation."]


@pytest.mark.model
def test_a_general_question_sharing_a_rare_number_with_a_fact_injects_nothing(minilm):
    eng = RecallEngine(store=ChromaStore.in_memory(), embedder=minilm)
    eng.add("ann", VALENCIA)
    old = RecallEngine(store=ChromaStore.in_memory(), embedder=minilm,
                       config=RecallConfig(gate_general=0.6, gate_general_bm25=3.5))
    old.add("ann", VALENCIA)
    assert old.recall("What's 8% of 1,250 euros?", "ann") != []  # the old bar kept it by its words
    assert eng.recall("What's 8% of 1,250 euros?", "ann") == []
    assert eng.recall("How long do tortoises live?", "ann") == []


@pytest.mark.model
def test_a_question_asking_what_the_asker_told_is_read_as_about_the_asker(minilm):
    eng = RecallEngine(store=ChromaStore.in_memory(), embedder=minilm)
    eng.add("ann", VALENCIA)
    report = eng.explain("When is the cardiology appointment again?", "ann")
    assert "general question" not in report.gate_note
    assert [f.content for f in report.facts][:1] == ["User's cardiology appointment is on 14 May at 9:30."]


@pytest.mark.model
def test_a_how_to_question_sharing_words_with_a_fact_injects_nothing_while_ones_own_how_to_reads_as_usual(minilm):
    facts = ["User plays bass guitar in a pub covers band.", "User keeps her insulin pens in the fridge.",
             "User lives in a third-floor flat in Porto.", "User is vegetarian."]
    eng = RecallEngine(store=ChromaStore.in_memory(), embedder=minilm)
    eng.add("ann", facts)
    assert eng.recall("How do I change the strings on a guitar?", "ann") == []  # its "I" is anyone
    kept = [f.content for f in eng.recall("How do I keep my insulin cold on a long flight?", "ann")]
    assert "User keeps her insulin pens in the fridge." in kept


def test_a_how_to_question_that_leans_on_its_conversation_stays_the_askers():
    before = ["My parents want to visit the aquarium on Sunday."]
    assert RecallEngine._how_to("How would I get them there?", ())  # alone: anyone's "I"
    assert not RecallEngine._how_to("How would I get them there?", before)  # "them", "there": what was named
    assert RecallEngine._how_to("How do I convert gallons to litres?", before)  # a new question, not leaning


@pytest.mark.model
def test_a_how_to_question_about_cooking_or_getting_somewhere_still_gets_the_users_limits(minilm):
    eng = RecallEngine(store=ChromaStore.in_memory(), embedder=minilm)
    eng.add("ann", ["User is allergic to eggs.", "User uses a wheelchair.", "User lives in Leeds.",
                    "User doesn't drink alcohol.", "User plays the cello."])
    for question, need in (("How do I make pancakes?", "User is allergic to eggs."),
                           ("How do I get to the airport?", "User uses a wheelchair."),
                           ("How do I make mulled wine?", "User doesn't drink alcohol.")):
        assert need in [f.content for f in eng.recall(question, "ann")], question


def test_a_place_a_fact_only_puts_something_in_makes_no_one_known():
    facts = ["User and Kenji plan three weeks in Japan in April.", "User's daughter Mariana lives in Nagoya."]
    assert not names_known("How many hours ahead of Brazil is Japan?", facts)  # main: "is Japan", held by a fact
    assert not names_known("Is Japan expensive?", facts)
    assert names_known("Does Kenji need a visa?", facts)  # a name the fact gives, after "and"
    assert names_known("Has Mariana got a car?", facts)


@pytest.mark.model
def test_a_general_question_about_a_country_a_trip_goes_to_injects_nothing(minilm):
    engine = RecallEngine(store=ChromaStore.in_memory(), embedder=minilm)
    engine.add("u1", ["User and Kenji plan three weeks in Japan in April.", "User's daughter Mariana lives in Nagoya.",
                      "User lives in Porto.", "User is a retired pharmacist."])
    assert engine.recall("How many hours ahead of Brazil is Japan?", "u1") == []
    assert "User and Kenji plan three weeks in Japan in April." in [
        f.content for f in engine.recall("What should I pack for our trip to Japan?", "u1")]


def test_a_question_of_how_things_usually_are_that_points_back_at_nothing_reads_as_usual():
    from memori_core.ranking.intent import asks_what_is_usual

    assert asks_what_is_usual("how often can a person normally donate blood")
    assert asks_what_is_usual("Which is the hottest month in Cordoba, on average?")
    assert not asks_what_is_usual("How much do they usually go for?")  # leans on the turn before
    assert not asks_what_is_usual("How long does that take usually")
    assert not asks_what_is_usual("How long do budgies live?")


@pytest.mark.model
def test_a_question_of_what_is_usual_after_a_personal_turn_on_its_subject_injects_nothing(minilm):
    engine = RecallEngine(store=ChromaStore.in_memory(), embedder=minilm)
    engine.add("u1", ["User has a 13-year-old dachshund called Sigge.", "User donates blood at church twice a year.",
                      "User's grandson Leo is 5 months old.", "User is vegetarian.", "User lives in Leeds."])
    # main kept the blood-donation fact and the grandson on their cosine: each question is the world's, not the user's
    assert engine.recall("how often can a person normally donate blood", "u1",
                         context=["can i give blood at the church drive next week"]) == []
    assert engine.recall("what age do babies usually start solids", "u1",
                         context=["what should i get Leo for christmas"]) == []
    # a name the memory knows, or the asker's own case, is read as usual
    assert "User has a 13-year-old dachshund called Sigge." in [
        f.content for f in engine.recall("How long does Sigge usually sleep?", "u1")]
    assert "User donates blood at church twice a year." in [
        f.content for f in engine.recall("How often do I usually give blood?", "u1")]


def test_a_name_typed_in_lower_case_or_opening_the_turn_is_someone_known():
    facts = ["User's daughter Renata is in year 4.", "User's wife Meena is a nurse."]
    assert names_known("renata school play is on friday, what should i bring?", facts)
    assert names_known("renata's teacher wants a costume, how do I make one?", facts)
    assert names_known("Renata is going to a planetarium, what will she see?", facts)
    assert names_known("Meena says I should rest more, is she right?", facts)  # given after "wife"
    assert names_known("The loft conversion: Meena says the new room should be for mum, is that fair?", facts)
    assert not names_known("renata school play is on friday, what should i bring?", ["User likes tea."])


def test_a_capitalised_common_word_opening_the_turn_is_no_one_unless_a_fact_names_that_person():
    facts = ["User moved to Paris last year.", "User goes swimming on Monday.", "User loves Thai food.",
             "User's friend Rose runs a bakery."]
    assert not names_known("Paris has how many people living in it?", facts)
    assert not names_known("Monday is named after what?", facts)
    assert not names_known("Thai curries use which herbs?", facts)
    assert not names_known("rose bushes need how much sun?", facts)  # an ordinary word typed in lower case
    assert names_known("Rose says sourdough needs a week, is she right?", facts)
    assert names_known("Paris says the museum is shut, is she right?", ["User's neighbour Paris is a teacher."])
