"""Rule-based capture words a fact plainly and ends what a change ends, through capture_facts into a real embedded
Chroma store (issue 21, memory that stays true): filler words left out of the fact, invisible characters read
as the user saw them, a negated old state told beside the new one, sarcasm, the spouse slot, an emoji object, a
break-up, a pronoun with nothing it points to, a diet constraint beside a diet, and who proposed."""

from __future__ import annotations

from datetime import datetime, timezone
from functools import partial

import pytest

from _capture import RULES, ended_texts, texts_after
from _helpers import ungated_engine

# A Wednesday; the turns are read as said then.
SAID = datetime(2026, 5, 20, 9, 0, tzinfo=timezone.utc)

_said = partial(texts_after, at=SAID)  # each turn said at SAID


def _facts(text: str) -> list[str]:
    """The facts the shipped rules take from one user message, with nothing stored."""
    return [f.text for f in RULES.extract([("user", text)])]


# -- 1. filler words ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("said", "fact"),
    [
        ("I'm also allergic to shellfish.", "User is allergic to shellfish."),
        ("I also have a cat.", "User has a cat."),
        ("I still live in Paris.", "User lives in Paris."),
        ("I'm still vegan.", "User is vegan."),
        ("I'm really allergic to nuts.", "User is allergic to nuts."),
        ("My sister also lives in Paris.", "User's sister lives in Paris."),
        ("I have a cat too.", "User has a cat."),
        ("I have a dog as well.", "User has a dog."),
        ("I actually live in Oslo.", "User lives in Oslo."),
        ("I too am vegan.", "User is vegan."),
        ("I, too, am allergic to nuts.", "User is allergic to nuts."),
        ("We, too, have a dog.", "User has a dog."),
    ],
)
def test_a_filler_word_beside_the_subject_is_left_out_of_the_fact(said: str, fact: str) -> None:
    assert _facts(said) == [fact]


@pytest.mark.parametrize(
    ("said", "fact"),
    [
        ("I don't really eat meat.", "User doesn't really eat meat."),  # weaker than "doesn't eat meat"
        ("I'm too tired to cook tonight.", None),  # "too" measures: a passing state, not filler
        ("I can't sit still.", "User can't sit still."),  # "still" as a word of its own
        ("I have a cat as well as a dog.", "User has a cat as well as a dog."),
    ],
)
def test_a_word_that_says_something_stays_in_the_fact(said: str, fact: str | None) -> None:
    assert _facts(said) == ([fact] if fact else [])


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
    engine = ungated_engine()
    assert len(_said(engine, first, again)) == 1


@pytest.mark.parametrize(
    ("said", "facts"),
    [
        ("As a vegetarian I love tofu.", ["User is a vegetarian.", "User loves tofu."]),
        ("Being a nurse, I work nights.", ["User is a nurse.", "User works nights."]),
        ("As a vegan, I'd love some recipes.", ["User is a vegan."]),
    ],
)
def test_what_the_user_is_said_before_a_statement_is_a_fact_of_its_own(said: str, facts: list[str]) -> None:
    assert _facts(said) == facts


@pytest.mark.parametrize(
    "said",
    ["As a kid I lived in Rome.", "As a result I moved to Leeds.", "As a family we eat out on Fridays."],
)
def test_as_a_that_names_no_lasting_part_of_life_is_no_fact_of_what_the_user_is(said: str) -> None:
    assert not any(f.startswith("User is a") for f in _facts(said))


# -- 2. invisible and control characters -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("said", "fact"),
    [
        ("I\u200b live in Bergen.", "User lives in Bergen."),  # zero-width space
        ("I live in Ber\u00adgen.", "User lives in Bergen."),  # soft hyphen
        ("\ufeffI'm vegan.", "User is vegan."),  # byte-order mark
        ("I'm aller\u2060gic to nuts.", "User is allergic to nuts."),  # word joiner
        ("I have a\x00 cat named Zed.", "User has a cat named Zed."),  # NUL
        ("I work\x07 as a nurse.", "User works as a nurse."),  # another control character
    ],
)
def test_invisible_and_control_characters_are_read_as_the_user_saw_the_message(said: str, fact: str) -> None:
    assert _facts(said) == [fact]


def test_a_move_typed_with_a_zero_width_space_ends_the_old_home() -> None:
    engine = ungated_engine()
    assert _said(engine, "I live in Oslo.", "I\u200b live in Bergen now.") == ["User lives in Bergen."]
    assert ended_texts(engine) == ["User lives in Oslo."]


def test_line_breaks_and_tabs_still_separate_what_is_said() -> None:
    assert _facts("I live in Oslo.\nI work as a nurse.\tI have a cat.") == [
        "User lives in Oslo.", "User works as a nurse.", "User has a cat."]


# -- 4. sarcasm --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "said",
    [
        "Yeah right, I'm a billionaire.",
        "yeah right I'm a billionaire",
        "Oh yeah, right, I'm a morning person.",
        "As if I'd ever eat meat.",
        "I'm a billionaire, yeah right.",
        "I'm a billionaire /s",
        "I'm a billionaire lol jk",
        "I'm a billionaire, just kidding.",
    ],
)
def test_a_statement_said_in_sarcasm_stores_nothing(said: str) -> None:
    assert _facts(said) == []


def test_sarcasm_changes_no_stored_fact() -> None:
    engine = ungated_engine()
    assert _said(engine, "I live in Oslo.", "Yeah right, I moved to Paris.") == ["User lives in Oslo."]


@pytest.mark.parametrize(
    ("said", "fact"),
    [
        ("Yeah, right now I live in Leeds.", "User lives in Leeds."),
        ("Yeah, I'm right-handed.", "User is right-handed."),
        ("Right, I live in Leeds.", "User lives in Leeds."),
        ("Yeah I live in Leeds.", "User lives in Leeds."),
        ("I live in Leeds, right by the station.", "User lives in Leeds, right by the station."),
    ],
)
def test_yeah_and_right_that_are_no_sarcasm_leave_the_statement(said: str, fact: str) -> None:
    assert _facts(said) == [fact]


def test_just_kidding_before_a_statement_takes_back_what_was_said_before_it() -> None:
    # "just kidding" in front corrects the message before; the statement after it is what holds
    engine = ungated_engine()
    assert _said(engine, "I live in Lisbon.", "Just kidding, I don't live in Lisbon.") == [
        "User doesn't live in Lisbon."]


# -- 6. an emoji object ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("said", "fact"),
    [
        ("I love 🍕 and pasta", "User loves pasta."),
        ("I love pasta and 🍕", "User loves pasta."),
        ("I love 🍕, pasta and sushi", "User loves pasta and sushi."),
        ("I love pasta, 🍕 and sushi", "User loves pasta and sushi."),
    ],
)
def test_an_emoji_in_a_list_leaves_the_rest_of_the_list(said: str, fact: str) -> None:
    assert _facts(said) == [fact]


@pytest.mark.parametrize("said", ["I love 🍕", "I got a 🐱!", "I'm allergic to 🥜", "I love 🍕 so much"])
def test_a_fact_whose_only_object_was_an_emoji_is_not_stored(said: str) -> None:
    assert _facts(said) == []


@pytest.mark.parametrize(
    ("said", "fact"),
    [
        ("I got promoted 🎉 and I'm thrilled", "User got promoted."),  # the emoji ends a clause, no list
        ("I smoke.", "User smokes."),  # a verb that needs no object
        ("I gave in.", "User gave in."),
        ("I have two kids 👶👶", "User has two kids."),
    ],
)
def test_a_fact_with_its_object_or_no_need_of_one_is_kept(said: str, fact: str) -> None:
    assert _facts(said) == [fact]


# -- 8. a pronoun with nothing it points to ----------------------------------------------------------------------


@pytest.mark.parametrize("said", ["I turned it down.", "I gave them away.", "I finally turned it down!", "I picked it up."])
def test_a_fact_whose_only_object_is_a_pronoun_with_nothing_before_it_is_not_stored(said: str) -> None:
    assert _facts(said) == []


@pytest.mark.parametrize(
    ("said", "fact"),
    [
        ("I got a job offer from Google. I turned it down.", "User turned it down."),  # "it" is said before
        ("I work in IT.", "User works in IT."),
        ("I love that city.", "User loves that city."),
    ],
)
def test_a_pronoun_with_something_to_point_to_or_no_pronoun_is_kept(said: str, fact: str) -> None:
    assert fact in _facts(said)


def test_a_pronoun_that_points_to_a_stored_offer_is_read_as_that_offer() -> None:
    engine = ungated_engine()
    assert _said(engine, "I got an offer from Dynatrace.", "I turned it down.") == [
        "User turned down the job offer from Dynatrace."]


# -- 3. a negated old state told beside the new one --------------------------------------------------------------


@pytest.mark.parametrize(
    ("before", "change", "valid"),
    [
        ("I live in Lisbon.", "I don't live in Lisbon anymore, I moved to Faro.", ["User lives in Faro."]),
        ("I live in Lisbon.", "I no longer live in Lisbon, I live in Faro now.", ["User lives in Faro."]),
        ("I'm vegan.", "I'm not vegan anymore, I'm vegetarian now.", ["User is vegetarian."]),
    ],
)
def test_a_state_told_as_over_beside_what_holds_now_only_ends_the_old_one(
        before: str, change: str, valid: list[str]) -> None:
    engine = ungated_engine()
    assert _said(engine, before, change) == valid
    assert ended_texts(engine) == [_facts(before)[0]]


def test_a_state_told_as_over_beside_what_holds_now_with_nothing_stored_keeps_what_holds_now() -> None:
    assert _facts("I don't live in Lisbon anymore, I live in Faro now.") == ["User lives in Faro."]


@pytest.mark.parametrize(
    ("before", "change", "kept"),
    [
        ("I'm vegetarian.", "I'm not vegetarian anymore.", "User is not vegetarian anymore."),
        ("I'm vegetarian.", "I'm no longer vegetarian.", "User is no longer vegetarian."),
        ("I live in Lisbon.", "I don't live in Lisbon anymore.", "User doesn't live in Lisbon anymore."),
    ],
)
def test_a_state_told_as_over_with_nothing_in_its_place_is_kept_and_ends_the_old_one(
        before: str, change: str, kept: str) -> None:
    engine = ungated_engine()
    assert _said(engine, before, change) == [kept]
    assert ended_texts(engine) == [_facts(before)[0]]


@pytest.mark.parametrize(
    ("before", "change", "valid"),
    [
        # the new fact leaves the stored diet: the ending stays and ends it
        ("I'm vegan.", "I'm not vegan anymore but I still don't eat meat.",
         ["User doesn't eat meat.", "User is not vegan anymore."]),
        # another slot: both hold
        ("I smoke.", "I don't smoke anymore and I run every day.", ["User doesn't smoke anymore.", "User runs every day."]),
        # a thing done, which says no state in its place
        ("I drink coffee.", "I don't drink coffee any more, I drink tea now.",
         ["User doesn't drink coffee any more.", "User drinks tea."]),
        ("I'm vegetarian.", "I'm no longer vegetarian, I eat fish now.", ["User eats fish.", "User is no longer vegetarian."]),
    ],
)
def test_a_state_told_as_over_beside_a_fact_that_does_not_end_it_is_kept(
        before: str, change: str, valid: list[str]) -> None:
    engine = ungated_engine()
    assert _said(engine, before, change) == valid
    assert ended_texts(engine) == [_facts(before)[0]]


def test_someone_elses_state_told_as_over_beside_the_users_is_kept() -> None:
    assert _facts("My sister doesn't live in Paris anymore, I live in Paris.") == [
        "User's sister doesn't live in Paris anymore.", "User lives in Paris."]


# -- 5. the spouse slot ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("before", "after", "now"),
    [
        ("I'm married to Sam.", "My wife is called Alex.", "User's wife is called Alex."),
        ("My wife is Sam.", "I'm married to Alex.", "User is married to Alex."),
        ("My husband's name is Sam.", "Alex is my husband.", "User is married to Alex."),
        ("I'm married to Sam.", "My wife Alex is a nurse.", "User's wife Alex is a nurse."),
        ("My husband Sam is a chef.", "Alex is my husband.", "User is married to Alex."),
    ],
)
def test_a_new_spouse_name_ends_the_stored_one(before: str, after: str, now: str) -> None:
    engine = ungated_engine()
    assert _said(engine, before, after) == [now]
    assert ended_texts(engine) == _facts(before)


@pytest.mark.parametrize(
    ("before", "after"),
    [
        ("I'm married to Sam.", "My wife loves hiking."),  # no name
        ("I'm married to Sam.", "My wife Sam is a nurse."),  # the same spouse
        ("I'm married to Sam.", "My sister is called Alex."),  # not the spouse
        ("I'm married to Sam.", "My ex-wife is called Alex."),
        ("My boyfriend is Sam.", "My brother is Alex."),
    ],
)
def test_a_fact_that_names_no_other_spouse_leaves_the_stored_one(before: str, after: str) -> None:
    engine = ungated_engine()
    assert _facts(before)[0] in _said(engine, before, after)
    assert ended_texts(engine) == []


@pytest.mark.parametrize(
    ("said", "fact"),
    [
        ("Alex is my husband.", "User is married to Alex."),
        ("Tom is my brother.", "User's brother is Tom."),
        ("Mike's my boss.", "User's boss is Mike."),
    ],
)
def test_who_someone_is_to_the_user_told_name_first_is_a_fact(said: str, fact: str) -> None:
    assert _facts(said) == [fact]


@pytest.mark.parametrize("said", ["This is my wife.", "Tom is my brother's friend.", "He is my husband."])
def test_no_name_or_someone_elses_one_told_name_first_is_no_such_fact(said: str) -> None:
    assert not any(f.startswith(("User is married", "User's brother is")) for f in _facts(said))


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
    engine = ungated_engine()
    valid = _said(engine, diet, constraint)
    assert _facts(diet)[0] in valid and len(valid) == 2
    assert ended_texts(engine) == []


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
    engine = ungated_engine()
    _said(engine, diet, change)
    assert ended_texts(engine) == _facts(diet)


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
    engine = ungated_engine()
    valid = _said(engine, stored, breakup)
    assert ended_texts(engine) == _facts(stored)
    assert len(valid) == 1 and "Jake" in valid[0]


@pytest.mark.parametrize(
    "said",
    ["My sister and her boyfriend broke up last week.", "Jake and I went to a gig last week."],
)
def test_someone_elses_breakup_or_no_breakup_leaves_the_relationship(said: str) -> None:
    engine = ungated_engine()
    assert "User's boyfriend is Jake." in _said(engine, "My boyfriend is Jake.", said)
    assert ended_texts(engine) == []


# -- 10. who proposed --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("said", ["omg Jake proposed!!", "Jake proposed last night!", "wow Jake just proposed"])
def test_a_proposal_told_with_no_relationship_stored_is_an_engagement_to_the_one_named(said: str) -> None:
    assert _facts(said) == ["User is engaged to Jake."]


def test_a_proposal_by_the_stored_partner_after_a_greeting_is_the_users_engagement() -> None:
    engine = ungated_engine()
    assert _said(engine, "I'm dating Jake.", "omg Jake proposed!!") == ["User is engaged to Jake."]
    assert ended_texts(engine) == ["User is dating Jake."]


@pytest.mark.parametrize(
    ("stored", "said"),
    [
        ("I'm dating Tom.", "omg Jake proposed!!"),  # not the partner stored
        ("I'm dating Jake.", "omg Jake proposed to Mia!!"),  # to someone else
        ("I'm dating Jake.", "Jake proposed a toast."),
    ],
)
def test_a_proposal_not_to_the_user_changes_no_relationship(stored: str, said: str) -> None:
    engine = ungated_engine()
    assert _said(engine, stored, said) == _facts(stored)


@pytest.mark.parametrize(
    ("said", "fact"),
    [
        ("Hi Maya, I moved to Leeds.", "User lives in Leeds."),
        ("Hey Sam I live in Oslo.", "User lives in Oslo."),
        ("Thanks Maya I'm vegan.", "User is vegan."),
    ],
)
def test_a_name_greeted_before_the_statement_is_still_left_out(said: str, fact: str) -> None:
    assert _facts(said) == [fact]
