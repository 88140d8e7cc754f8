"""Rule-based capture words a fact plainly and ends what a change ends, through capture_facts into a real embedded
Chroma store (issue 21, memory that stays true): filler words left out of the fact, invisible characters read
as the user saw them, a negated old state told beside the new one, sarcasm, the spouse slot, an emoji object, a
break-up, a pronoun with nothing it points to, a diet constraint beside a diet, and who proposed.

Most checks are rows of this topic's case book, tests/cases/wording_and_changes.toml (one message -> the facts
kept of it; a fact stored, then a message -> the facts valid and ended afterwards), run by test_capture_cases.py;
here are the checks that are no such row."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from _capture import facts_of, told

# A Wednesday; the turns are read as said then.
SAID = datetime(2026, 5, 20, 9, 0, tzinfo=timezone.utc)


# -- what a case book's exact lists leave open --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("said", "not_begun"),
    [
        ("As a kid I lived in Rome.", "User is a"),
        ("As a result I moved to Leeds.", "User is a"),
        ("As a family we eat out on Fridays.", "User is a"),
        ("This is my wife.", ("User is married", "User's brother is")),
        ("Tom is my brother's friend.", ("User is married", "User's brother is")),
        ("He is my husband.", ("User is married", "User's brother is")),
    ],
    ids=["as_a_that_names_no_lasting_part_of_life_is_no_fact_of_what_the_user_is"] * 3
    + ["no_name_or_someone_elses_one_told_name_first_is_no_such_fact"] * 3,
)
def test_no_fact_begins_as_the_words_would_wrongly_have_it(said: str, not_begun: str | tuple[str, ...]) -> None:
    assert not any(f.startswith(not_begun) for f in facts_of(said))


@pytest.mark.parametrize(
    ("said", "fact"),
    [
        ("I got a job offer from Google. I turned it down.", "User turned it down."),  # "it" is said before
        ("I work in IT.", "User works in IT."),
        ("I love that city.", "User loves that city."),
    ],
)
def test_a_pronoun_with_something_to_point_to_or_no_pronoun_is_kept(said: str, fact: str) -> None:
    assert fact in facts_of(said)


@pytest.mark.parametrize(
    ("stored", "said"),
    [
        ("I'm married to Sam.", "My wife loves hiking."),  # no name
        ("I'm married to Sam.", "My wife Sam is a nurse."),  # the same spouse
        ("I'm married to Sam.", "My sister is called Alex."),  # not the spouse
        ("I'm married to Sam.", "My ex-wife is called Alex."),
        ("My boyfriend is Sam.", "My brother is Alex."),
        # a break-up of someone else's, or no break-up
        ("My boyfriend is Jake.", "My sister and her boyfriend broke up last week."),
        ("My boyfriend is Jake.", "Jake and I went to a gig last week."),
    ],
    ids=["a_fact_that_names_no_other_spouse_leaves_the_stored_one"] * 5
    + ["someone_elses_breakup_or_no_breakup_leaves_the_relationship"] * 2,
)
def test_a_message_about_no_change_of_partner_leaves_the_stored_one(stored: str, said: str) -> None:
    valid, ended = told(stored, said, at=SAID)
    assert facts_of(stored)[0] in valid
    assert ended == []


# -- 9. a diet constraint beside a diet --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("diet", "constraint"),
    [
        ("I'm vegetarian.", "I'm gluten-free now."),
        ("I'm vegetarian.", "I went gluten-free."),
        ("I'm vegan.", "I'm nut-free now."),
        ("I'm gluten-free.", "I'm vegetarian now."),  # the other way round
        ("I'm gluten-free.", "I'm dairy-free now."),  # two constraints stack
        ("I'm on keto.", "I'm dairy-free now."),
        ("I'm vegetarian.", "I eat halal now."),
    ],
)
def test_a_diet_constraint_and_a_diet_hold_together(diet: str, constraint: str) -> None:
    valid, ended = told(diet, constraint, at=SAID)
    assert facts_of(diet)[0] in valid and len(valid) == 2
    assert ended == []


@pytest.mark.parametrize(
    ("diet", "change"),
    [
        ("I'm vegetarian.", "I'm vegan now."),
        ("I'm vegetarian.", "I eat meat again."),
        ("I'm vegan.", "I'm pescatarian now."),
        ("I'm gluten-free.", "I'm not gluten-free anymore."),  # the same constraint ended
        ("I'm gluten-free.", "I eat pasta again."),
    ],
)
def test_a_diet_that_contradicts_the_stored_one_still_ends_it(diet: str, change: str) -> None:
    _, ended = told(diet, change, at=SAID)
    assert ended == facts_of(diet)


# -- 7. a break-up ends the relationship -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("stored", "breakup"),
    [
        ("My boyfriend is Jake.", "Jake and I broke up last week"),
        ("I'm dating Jake.", "Jake and I broke up last week."),
        ("My boyfriend is Jake.", "me and jake split up last month"),
        ("My boyfriend Jake is a chef.", "Jake and I broke up."),
        ("My boyfriend is Jake.", "I broke up with Jake yesterday."),
    ],
)
def test_a_breakup_ends_the_relationship_it_names(stored: str, breakup: str) -> None:
    valid, ended = told(stored, breakup, at=SAID)
    assert ended == facts_of(stored)
    assert len(valid) == 1 and "Jake" in valid[0]
