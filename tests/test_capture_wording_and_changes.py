"""Rule-based capture words a fact plainly and ends what a change ends, through capture_facts into a real embedded
Chroma store (issue 21, memory that stays true): filler words left out of the fact, invisible characters read
as the user saw them, a negated old state told beside the new one, sarcasm, the spouse slot, an emoji object, a
break-up, a pronoun with nothing it points to, a diet constraint beside a diet, and who proposed.

Most checks are rows of two tables, each row in a group named for what it checks: :data:`ONE_MESSAGE` (one
message -> the facts kept of it, nothing stored) and :data:`TOLD` (a fact stored, then a message -> the facts
valid and ended afterwards)."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from _capture import facts_of, told
from _helpers import cases

# A Wednesday; the turns are read as said then.
SAID = datetime(2026, 5, 20, 9, 0, tzinfo=timezone.utc)

ONE_MESSAGE: list[tuple[str, str, list[str]]] = [
    # 1. filler words
    # filler_left_out: a filler word beside the subject is left out of the fact
    ("filler_left_out", "I'm also allergic to shellfish.", ["User is allergic to shellfish."]),
    ("filler_left_out", "I also have a cat.", ["User has a cat."]),
    ("filler_left_out", "I still live in Paris.", ["User lives in Paris."]),
    ("filler_left_out", "I'm still vegan.", ["User is vegan."]),
    ("filler_left_out", "I'm really allergic to nuts.", ["User is allergic to nuts."]),
    ("filler_left_out", "My sister also lives in Paris.", ["User's sister lives in Paris."]),
    ("filler_left_out", "I have a cat too.", ["User has a cat."]),
    ("filler_left_out", "I have a dog as well.", ["User has a dog."]),
    ("filler_left_out", "I actually live in Oslo.", ["User lives in Oslo."]),
    ("filler_left_out", "I too am vegan.", ["User is vegan."]),
    ("filler_left_out", "I, too, am allergic to nuts.", ["User is allergic to nuts."]),
    ("filler_left_out", "We, too, have a dog.", ["User has a dog."]),
    # meaning_word_stays: a word that says something stays in the fact
    # weaker than "doesn't eat meat"
    ("meaning_word_stays", "I don't really eat meat.", ["User doesn't really eat meat."]),
    ("meaning_word_stays", "I'm too tired to cook tonight.", []),  # "too" measures: a passing state, not filler
    ("meaning_word_stays", "I can't sit still.", ["User can't sit still."]),  # "still" as a word of its own
    ("meaning_word_stays", "I have a cat as well as a dog.", ["User has a cat as well as a dog."]),
    # what_user_is_first: what the user is said before a statement is a fact of its own
    ("what_user_is_first", "As a vegetarian I love tofu.", ["User is a vegetarian.", "User loves tofu."]),
    ("what_user_is_first", "Being a nurse, I work nights.", ["User is a nurse.", "User works nights."]),
    ("what_user_is_first", "As a vegan, I'd love some recipes.", ["User is a vegan."]),
    # 2. invisible and control characters
    # invisible_characters: invisible and control characters are read as the user saw the message
    ("invisible_characters", "I\u200b live in Bergen.", ["User lives in Bergen."]),  # zero-width space
    ("invisible_characters", "I live in Ber\u00adgen.", ["User lives in Bergen."]),  # soft hyphen
    ("invisible_characters", "\ufeffI'm vegan.", ["User is vegan."]),  # byte-order mark
    ("invisible_characters", "I'm aller\u2060gic to nuts.", ["User is allergic to nuts."]),  # word joiner
    ("invisible_characters", "I have a\x00 cat named Zed.", ["User has a cat named Zed."]),  # NUL
    ("invisible_characters", "I work\x07 as a nurse.", ["User works as a nurse."]),  # another control character
    # line_breaks_separate: line breaks and tabs still separate what is said
    ("line_breaks_separate", "I live in Oslo.\nI work as a nurse.\tI have a cat.",
     ["User lives in Oslo.", "User works as a nurse.", "User has a cat."]),
    # 3. a negated old state told beside the new one, with nothing stored
    # over_nothing_stored: a state told as over beside what holds now with nothing stored keeps what holds now
    ("over_nothing_stored", "I don't live in Lisbon anymore, I live in Faro now.", ["User lives in Faro."]),
    # someone_elses_over: someone else's state told as over beside the user's is kept
    ("someone_elses_over", "My sister doesn't live in Paris anymore, I live in Paris.",
     ["User's sister doesn't live in Paris anymore.", "User lives in Paris."]),
    # 4. sarcasm
    # sarcasm: a statement said in sarcasm stores nothing
    ("sarcasm", "Yeah right, I'm a billionaire.", []),
    ("sarcasm", "yeah right I'm a billionaire", []),
    ("sarcasm", "Oh yeah, right, I'm a morning person.", []),
    ("sarcasm", "As if I'd ever eat meat.", []),
    ("sarcasm", "I'm a billionaire, yeah right.", []),
    ("sarcasm", "I'm a billionaire /s", []),
    ("sarcasm", "I'm a billionaire lol jk", []),
    ("sarcasm", "I'm a billionaire, just kidding.", []),
    # no_sarcasm: yeah and right that are no sarcasm leave the statement
    ("no_sarcasm", "Yeah, right now I live in Leeds.", ["User lives in Leeds."]),
    ("no_sarcasm", "Yeah, I'm right-handed.", ["User is right-handed."]),
    ("no_sarcasm", "Right, I live in Leeds.", ["User lives in Leeds."]),
    ("no_sarcasm", "Yeah I live in Leeds.", ["User lives in Leeds."]),
    ("no_sarcasm", "I live in Leeds, right by the station.", ["User lives in Leeds, right by the station."]),
    # 5. the spouse slot
    # name_first: who someone is to the user told name first is a fact
    ("name_first", "Alex is my husband.", ["User is married to Alex."]),
    ("name_first", "Tom is my brother.", ["User's brother is Tom."]),
    ("name_first", "Mike's my boss.", ["User's boss is Mike."]),
    # 6. an emoji object
    # emoji_in_list: an emoji in a list leaves the rest of the list
    ("emoji_in_list", "I love 🍕 and pasta", ["User loves pasta."]),
    ("emoji_in_list", "I love pasta and 🍕", ["User loves pasta."]),
    ("emoji_in_list", "I love 🍕, pasta and sushi", ["User loves pasta and sushi."]),
    ("emoji_in_list", "I love pasta, 🍕 and sushi", ["User loves pasta and sushi."]),
    # emoji_object: a fact whose only object was an emoji is not stored
    ("emoji_object", "I love 🍕", []),
    ("emoji_object", "I got a 🐱!", []),
    ("emoji_object", "I'm allergic to 🥜", []),
    ("emoji_object", "I love 🍕 so much", []),
    # object_kept: a fact with its object or no need of one is kept
    ("object_kept", "I got promoted 🎉 and I'm thrilled", ["User got promoted."]),  # the emoji ends a clause, no list
    ("object_kept", "I smoke.", ["User smokes."]),  # a verb that needs no object
    ("object_kept", "I gave in.", ["User gave in."]),
    ("object_kept", "I have two kids 👶👶", ["User has two kids."]),
    # 8. a pronoun with nothing it points to
    # pronoun_object: a fact whose only object is a pronoun with nothing before it is not stored
    ("pronoun_object", "I turned it down.", []),
    ("pronoun_object", "I gave them away.", []),
    ("pronoun_object", "I finally turned it down!", []),
    ("pronoun_object", "I picked it up.", []),
    # 10. who proposed
    # proposal: a proposal told with no relationship stored is an engagement to the one named
    ("proposal", "omg Jake proposed!!", ["User is engaged to Jake."]),
    ("proposal", "Jake proposed last night!", ["User is engaged to Jake."]),
    ("proposal", "wow Jake just proposed", ["User is engaged to Jake."]),
    # greeting: a name greeted before the statement is still left out
    ("greeting", "Hi Maya, I moved to Leeds.", ["User lives in Leeds."]),
    ("greeting", "Hey Sam I live in Oslo.", ["User lives in Oslo."]),
    ("greeting", "Thanks Maya I'm vegan.", ["User is vegan."]),
]
"""One user message -> the facts the rules keep of it, with nothing stored."""

TOLD: list[tuple[str, str, str, list[str], list[str]]] = [
    # (stored first, said next, valid afterwards, ended afterwards)
    # zero_width_move: a move typed with a zero width space ends the old home
    ("zero_width_move", "I live in Oslo.", "I\u200b live in Bergen now.", ["User lives in Bergen."],
     ["User lives in Oslo."]),
    # 3. a negated old state told beside the new one
    # over_beside_now: a state told as over beside what holds now only ends the old one
    ("over_beside_now", "I live in Lisbon.", "I don't live in Lisbon anymore, I moved to Faro.",
     ["User lives in Faro."],
     ["User lives in Lisbon."]),
    ("over_beside_now", "I live in Lisbon.", "I no longer live in Lisbon, I live in Faro now.", ["User lives in Faro."],
     ["User lives in Lisbon."]),
    ("over_beside_now", "I'm vegan.", "I'm not vegan anymore, I'm vegetarian now.", ["User is vegetarian."],
     ["User is vegan."]),
    # over_alone: a state told as over with nothing in its place is kept and ends the old one
    ("over_alone", "I'm vegetarian.", "I'm not vegetarian anymore.", ["User is not vegetarian anymore."],
     ["User is vegetarian."]),
    ("over_alone", "I'm vegetarian.", "I'm no longer vegetarian.", ["User is no longer vegetarian."],
     ["User is vegetarian."]),
    ("over_alone", "I live in Lisbon.", "I don't live in Lisbon anymore.", ["User doesn't live in Lisbon anymore."],
     ["User lives in Lisbon."]),
    # over_beside_other: a state told as over beside a fact that does not end it is kept
        # the new fact leaves the stored diet: the ending stays and ends it
    ("over_beside_other", "I'm vegan.", "I'm not vegan anymore but I still don't eat meat.",
     ["User doesn't eat meat.", "User is not vegan anymore."], ["User is vegan."]),
        # another slot: both hold
    ("over_beside_other", "I smoke.", "I don't smoke anymore and I run every day.",
     ["User doesn't smoke anymore.", "User runs every day."], ["User smokes."]),
        # a thing done, which says no state in its place
    ("over_beside_other", "I drink coffee.", "I don't drink coffee any more, I drink tea now.",
     ["User doesn't drink coffee any more.", "User drinks tea."], ["User drinks coffee."]),
    ("over_beside_other", "I'm vegetarian.", "I'm no longer vegetarian, I eat fish now.",
     ["User eats fish.", "User is no longer vegetarian."], ["User is vegetarian."]),
    # 4. sarcasm
    # sarcasm: sarcasm changes no stored fact
    ("sarcasm", "I live in Oslo.", "Yeah right, I moved to Paris.", ["User lives in Oslo."], []),
    # "just kidding" in front corrects the message before; the statement after it is what holds
    # just_kidding: just kidding before a statement takes back what was said before it
    ("just_kidding", "I live in Lisbon.", "Just kidding, I don't live in Lisbon.", ["User doesn't live in Lisbon."],
     ["User lives in Lisbon."]),
    # 5. the spouse slot
    # new_spouse: a new spouse name ends the stored one
    ("new_spouse", "I'm married to Sam.", "My wife is called Alex.", ["User's wife is called Alex."],
     ["User is married to Sam."]),
    ("new_spouse", "My wife is Sam.", "I'm married to Alex.", ["User is married to Alex."], ["User's wife is Sam."]),
    ("new_spouse", "My husband's name is Sam.", "Alex is my husband.", ["User is married to Alex."],
     ["User's husband's name is Sam."]),
    ("new_spouse", "I'm married to Sam.", "My wife Alex is a nurse.", ["User's wife Alex is a nurse."],
     ["User is married to Sam."]),
    ("new_spouse", "My husband Sam is a chef.", "Alex is my husband.", ["User is married to Alex."],
     ["User's husband Sam is a chef."]),
    # 8. a pronoun that points to a stored fact
    # pronoun_to_stored: a pronoun that points to a stored offer is read as that offer
    ("pronoun_to_stored", "I got an offer from Dynatrace.", "I turned it down.",
     ["User turned down the job offer from Dynatrace."],
     ["User got an offer from Dynatrace."]),
    # 10. who proposed
    # partner_proposed: a proposal by the stored partner after a greeting is the user's engagement
    ("partner_proposed", "I'm dating Jake.", "omg Jake proposed!!", ["User is engaged to Jake."],
     ["User is dating Jake."]),
    # proposal_not_to_user: a proposal not to the user changes no relationship
    # not the partner stored
    ("proposal_not_to_user", "I'm dating Tom.", "omg Jake proposed!!", ["User is dating Tom."], []),
    # to someone else
    ("proposal_not_to_user", "I'm dating Jake.", "omg Jake proposed to Mia!!", ["User is dating Jake."], []),
    ("proposal_not_to_user", "I'm dating Jake.", "Jake proposed a toast.", ["User is dating Jake."], []),
]
"""A fact stored, then a message -> the user's valid and ended facts afterwards."""


@pytest.mark.parametrize(("said", "facts"), cases(ONE_MESSAGE))
def test_one_message_gives_the_facts_its_group_names(said: str, facts: list[str]) -> None:
    assert facts_of(said) == facts


@pytest.mark.parametrize(("stored", "said", "valid", "ended"), cases(TOLD))
def test_a_message_after_a_stored_fact_leaves_these_valid_and_ends_these(
        stored: str, said: str, valid: list[str], ended: list[str]) -> None:
    assert told(stored, said, at=SAID) == (valid, ended)


# -- what a table's exact lists leave open -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("first", "again"),
    [
        ("I'm allergic to shellfish.", "I'm also allergic to shellfish."),
        ("I live in Paris.", "I still live in Paris."),
        ("I'm vegan.", "I too am vegan."),
        ("I have a cat.", "I also have a cat."),
    ],
)
def test_a_fact_said_again_with_a_filler_word_is_stored_once(first: str, again: str) -> None:
    valid, _ = told(first, again, at=SAID)
    assert len(valid) == 1


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
