"""ranking/names.py: the one list of capitalised words that name no one, read by implications, intent, own_first and
referents. Before it each kept a list of its own, so a day, a month or a holiday was a name to some of them."""

from __future__ import annotations

from memori_core.ranking.implications import named_words
from memori_core.ranking.intent import subject_names
from memori_core.ranking.names import NOT_A_NAME, OPENERS, is_not_a_name
from memori_core.ranking.own_first import asks_for_oneself
from memori_core.ranking.referents import with_referent


def test_a_holiday_in_a_question_is_no_one_else_the_asker_asks_about() -> None:
    assert asks_for_oneself("How do I get more orders in before Christmas?")
    assert asks_for_oneself("I'm going home for Christmas, can you help me plan it?")


def test_a_day_after_the_auxiliary_is_not_the_name_a_question_is_about() -> None:
    assert subject_names("Is Thursday a good afternoon to book a hair appointment?") == set()
    assert subject_names("Is Rosie ok with grapes?") == {"Rosie"}


def test_every_reader_skips_the_same_words_in_any_case() -> None:
    assert named_words("What should we do on Easter Monday with Bruno?") == {"Bruno"}
    assert all(is_not_a_name(word.upper()) and is_not_a_name(word.capitalize()) for word in NOT_A_NAME)
    assert not is_not_a_name("Rosie")


def test_a_turn_opening_with_a_question_word_leaves_the_next_turns_pronoun_as_said() -> None:
    # the one reader that keeps the opening words as names: read as no name, they cost app-memory dev a turn
    assert OPENERS < NOT_A_NAME
    assert with_referent("What should I get her?", ["When is Carol coming to stay?"]) == "What should I get her?"
    assert with_referent("What should I get her?", ["Carol is coming to stay."]) == "What should I get Carol?"
