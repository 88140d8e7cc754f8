"""Changes told the chat way (issue 21, from dev7's "change" conversations): an ending told without "I" or in other
words ends the stored fact it ends, and what is only a joke or a mood about oneself is not kept.

Rows of one message -> the facts kept of it, of a message -> nothing kept and why, and of messages -> the facts valid
and ended afterwards are in the case book tests/cases/chat_told_changes.toml (run by test_capture_cases.py); rows
of what a rule returns for a clause are in the rule book tests/rules/chat_told_changes.toml (run by
test_rule_books.py). The tests here capture through capture_facts into a real embedded Chroma store."""

from __future__ import annotations

import pytest

from _capture import RULES, SAID_AT, capture_turns, ended_texts, valid_texts
from memori_core import RecallEngine
from memori_core.extraction.cars_got import car_got
from memori_core.extraction.rule_based import plain_reading
from memori_core.extraction.told_endings import as_told_endings, told_ending


def test_a_part_among_people_not_named_is_dropped_while_the_clause_beside_it_is_kept() -> None:
    kept = [v.fact for v in RULES.explain("I'm a nurse, she's the planner, I'm the chaos") if v.fact]
    assert kept == ["User is a nurse."]


def test_a_bare_passed_is_read_with_the_test_the_next_clause_names() -> None:
    assert as_told_endings(["PASSED!!!", "driving test on the fourth go"], []) == \
        ["I passed my driving test on the fourth go"]
    assert as_told_endings(["PASSED!!!", "so happy"], []) == ["PASSED!!!", "so happy"]


def test_a_thing_told_as_over_is_a_habit_only_when_a_slot_or_a_stored_habit_says_so() -> None:
    assert told_ending("pottery's over for me") is None
    assert told_ending("pottery's over for me", ["User does pottery on Tuesdays."]) == ["I'm not on pottery anymore"]


def test_plain_reading_gives_capture_the_ending_to_look_up() -> None:
    assert plain_reading("Biscuit went to sleep on sunday and didn't wake up") == "Biscuit died on sunday"


def test_a_death_told_the_chat_way_ends_the_shop_run_with_the_partner_through_a_real_store(
        ungated: RecallEngine) -> None:
    capture_turns(ungated, "my husband Arjun and I run a little stationery shop together", "Arjun passed in March.",
                  user="ann", at=SAID_AT)
    assert valid_texts(ungated, "ann") == ["User's husband Arjun passed away in March."]
    assert ended_texts(ungated, "ann") == ["User and their husband Arjun run a little stationery shop together."]


def test_a_remission_with_no_condition_or_two_stored_names_none() -> None:
    assert told_ending("it's in remission") is None
    assert told_ending("it's in remission", ["User has asthma.", "User has high blood pressure."]) is None
    assert told_ending("it's in remission", ["User's mum has breast cancer."]) is None


def test_a_farewell_to_a_stored_person_or_someone_let_go_is_no_death() -> None:
    friend, colleague = ["User's friend Sam lives in Oslo."], ["User's colleague Tom is a chef."]
    assert told_ending("we had to say goodbye to Sam at the airport", friend) is None
    assert told_ending("we had to say goodbye to Sam", friend) is None
    assert told_ending("we had to let Tom go", colleague) is None


def test_a_pets_farewell_ends_what_was_stored_of_the_pet_through_a_real_store(ungated: RecallEngine) -> None:
    capture_turns(ungated, "what food for a picky senior dog? my beagle Biscuit is 13 and getting really picky",
                  "forget the dog food. we had to say goodbye to Biscuit yesterday. house is so quiet",
                  user="ann", at=SAID_AT)
    assert valid_texts(ungated, "ann") == ["User's beagle Biscuit died on Thursday 2026-08-06."]
    assert ended_texts(ungated, "ann") == ["User's beagle Biscuit is 13."]


@pytest.mark.parametrize("said", [
    "I got a Honda Civic for my daughter.",  # someone else's car
    "If I bought a Tesla, would I save on fuel?",  # a question, an "if"
    "should I get a used Toyota Corolla?",
    "We got a car seat for the baby.",  # no car named
    "I got a new car.",  # no make or model: not read as a car got
    "I got a park ranger job.",  # a model's name that is a word too, with no car's age before it
])
def test_a_car_not_got_by_the_user_or_not_named_is_no_car_they_drive(said: str) -> None:
    assert car_got(said) is None
