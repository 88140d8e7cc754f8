"""A correction of what the user said before keeps the corrected fact, never the words said wrong (tester j12's
finding 8), through the extractor and a real engine. Rows of the rules: tests/rules/corrections_and_repeats.toml."""

from __future__ import annotations

from _capture import RULES, Stored, facts_of, told


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
