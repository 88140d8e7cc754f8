"""Rule-based capture of whom a statement is about and what a change ends (tester j12, three users over four
months): a "she" after an animal or a name given in the same message is never read as the partner (nothing is
stored of a named person rather than a guess); a break-up told with the partner as its subject ("sam broke up with
me") ends the relationship stored, and a request typed without its "?" after a statement ("..., what's a cute cheap
date idea") is no part of the fact; a new dose of a medicine ("my doctor upped the sertraline to 100mg") is the
core fact of the dose taken now and ends the old dose; a change only thought of ("I think I'm going vegan") is
not stored and ends nothing; a job and a home told in one phrase ("retired civil engineer from Valencia") are two
facts, and a change of the job does not end a stored fact that also holds the home; an operation told as done ("had
my knee replaced", "New knee.") ends the stored need of it; a name and an age told together ("I'm kez, 22") are the
name and the age.

Rows (messages -> the facts valid and ended afterwards) are in the case book tests/cases/who_and_what_ends.toml, run
by test_capture_cases.py, and the rule book tests/rules/who_and_what_ends.toml, run by test_rule_books.py."""

from __future__ import annotations

from _capture import RULES, Stored


def test_a_cats_age_is_not_written_onto_the_wife_nor_ends_her_fact() -> None:
    facts = RULES.extract([("user", "We adopted a cat from the shelter! Her name is Mishi, she is 3 years old")],
                          [Stored("wife", "User's wife is Carmen.")])
    assert [(f.text, f.supersedes) for f in facts] == [("User adopted a cat called Mishi from the shelter.", ())]


def test_someone_elses_break_up_with_the_user_leaves_the_stored_partner() -> None:
    # "Sam" is not the stored partner: whoever Sam is, Jordan's relationship does not end
    facts = RULES.extract([("user", "Sam broke up with me")], [Stored("jordan", "User is dating Jordan.")])
    assert all("jordan" not in f.supersedes for f in facts)


def test_a_raised_dose_is_core_and_ends_the_old_dose_of_the_same_medicine_only() -> None:
    stored = [Stored("sertraline", "User takes sertraline, 50mg."),
              Stored("thyroid", "User takes levothyroxine, 50mcg.")]
    facts = RULES.extract([("user", "my doctor upped the sertraline to 100mg")], stored)
    assert [(f.text, f.supersedes, f.core) for f in facts] == [("User takes sertraline, 100mg.", ("sertraline",), True)]


def test_a_change_only_thought_of_is_no_core_fact_and_leaves_the_diet() -> None:
    facts = RULES.extract([("user", "I think I'm going vegan")], [Stored("diet", "User is vegetarian.")])
    assert facts == []


def test_retiring_again_leaves_a_stored_job_and_home_fact() -> None:
    facts = RULES.extract([("user", "I have a lot of time now I am retired.")],
                          [Stored("intro", "User retired civil engineer from Valencia.")])
    assert facts and all(f.supersedes == () for f in facts)


def test_an_operation_had_ends_the_need_of_it() -> None:
    facts = RULES.extract([("user", "had my knee replaced last week")],
                          [Stored("need", "User needs a knee replacement.")])
    assert [f.supersedes for f in facts] == [("need",)]
    assert facts[0].text.startswith("User had their knee replaced")


def test_a_name_and_an_age_told_together_are_the_name_and_the_age() -> None:
    facts = RULES.extract([("user", "I'm kez, 22")])
    assert [f.text for f in facts] == ["User's name is Kez.", "User is 22."]


def test_being_single_or_no_longer_together_ends_the_stored_partner() -> None:
    # "partner" said no stage of a relationship, so only a break-up told as news ended "User's partner is X."
    for stored in ("User's partner is Jordan.", "User has a partner named Jordan.", "User's partner's name is Jordan."):
        for said in ("I'm single.", "We're no longer together.", "Jordan and I are not together anymore."):
            facts = RULES.extract([("user", said)], [Stored("partner", stored)])
            assert any("partner" in f.supersedes for f in facts), (stored, said)


def test_single_leaves_a_business_partner_and_the_partners_own_facts() -> None:
    for stored in ("User's business partner is Jordan.", "User's partner's mother lives in Leeds.",
                   "User's partner Jordan's birthday is April 19th."):
        facts = RULES.extract([("user", "I'm single.")], [Stored("other", stored)])
        assert all("other" not in f.supersedes for f in facts), stored
