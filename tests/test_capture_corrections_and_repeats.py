"""A correction of what the user said before keeps the corrected fact, never the words said wrong (tester j12's
finding 8), and a joke about oneself told with it is no fact (finding 9); the same fact told again with a request
is stored once, with no request in it (finding 17): through the extractor and a real engine. Rows of the rules: tests/rules/corrections_and_repeats.toml."""

from __future__ import annotations

import pytest

from _capture import RULES, Stored, core_texts, facts_of, texts_after, told
from _helpers import ungated_engine


def test_a_plan_said_with_the_wrong_month_is_corrected_and_the_wrong_month_kept_nowhere() -> None:
    valid, ended = told("signed up for the Manchester half marathon in april, am I mad",
                        "oh and i said the half marathon is in april, it's actually may. typo")
    assert valid == ["User signed up for the Manchester half marathon in may."]
    assert ended == ["User signed up for the Manchester half marathon in april."]


def test_a_home_said_wrong_is_said_again_right_and_ends_the_stored_one() -> None:
    (fact,) = RULES.extract([("user", "i said i live in Leeds, it's actually York")],
                            [Stored("old", "User lives in Leeds.")])
    assert (fact.text, fact.supersedes) == ("User lives in York.", ("old",))


def test_a_correction_of_words_said_earlier_in_the_same_message_corrects_that_clause() -> None:
    assert facts_of("I signed up for the half marathon in april. oops i said april, it's actually may") == [
        "User signed up for the half marathon in may."]


def test_what_the_user_said_before_is_no_fact_when_nothing_stored_holds_it() -> None:
    assert facts_of("oh and i said the half marathon is in april, it's actually may. typo") == []
    assert facts_of("I said yes to the job offer") == ["User said yes to the job offer."]  # no correction: a fact


def test_an_age_corrected_of_someone_named_replaces_their_stored_age_and_the_joke_beside_it_is_dropped() -> None:
    facts = RULES.extract([("user", "Sorry, Lucía is 9 not 8. My wife corrected me, I am a bad grandfather ha ha")],
                          [Stored("old", "User's granddaughter Lucía is 8.")])
    assert [(f.text, f.supersedes) for f in facts] == [("User's granddaughter Lucía is 9.", ("old",))]


def test_an_age_corrected_of_someone_no_stored_fact_names_changes_nothing() -> None:
    assert RULES.extract([("user", "Tom is 9 not 8")], [Stored("old", "User's granddaughter Lucía is 8.")]) == []


@pytest.mark.parametrize("said", [
    "Sorry, Lucía is 9 not 8. My wife corrected me, I am a bad grandfather ha ha",
    "I'm the worst mum ever lol",
    "my son reminded me, I'm such a forgetful dad",
])
def test_a_rating_of_oneself_as_someones_and_being_put_right_keep_nothing(said: str) -> None:
    assert facts_of(said) == []


def test_a_skill_rated_and_a_family_told_with_pride_are_still_kept() -> None:
    assert facts_of("I'm a terrible cook lol") == ["User is a terrible cook."]
    assert facts_of("I'm a proud grandfather of three") == ["User is a proud grandfather of three."]


def test_an_allergy_told_again_in_other_words_with_a_request_is_stored_once_without_it() -> None:
    engine = ungated_engine()
    valid = texts_after(engine, "oh and i'm deathly allergic to peanuts so nothing with that",
                        "sorry i keep saying it but i'm super allergic to peanuts, make sure any recipes are safe")
    assert valid == ["User is deathly allergic to peanuts."]
    assert core_texts(engine) == valid


def test_an_allergy_told_with_another_strength_or_of_another_food_is_no_repeat() -> None:
    valid = texts_after(ungated_engine(), "I'm mildly allergic to cats", "I'm super allergic to peanuts",
                        "I'm very allergic to cats")
    assert {"User is super allergic to peanuts.", "User is very allergic to cats."} <= set(valid)
