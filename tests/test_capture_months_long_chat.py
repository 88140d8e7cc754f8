"""Rule-based capture over a months-long chat, through capture_facts into a real embedded Chroma store: what a
user says in their own words, casual lower-case texting included, ends what no longer holds and keeps what does
(tester explore_i3, defects 1-6, 8-13): a denied allergy, someone's opinion, an ended condition and its medicine,
a diet given up, an allergy said with an aside, a new partner named and told of, corrections, a breakup, a move
told as "im in exeter now", a retraction, jokes and fillers, a flatmate's dog and a named puppy.

Rows of messages -> the facts valid afterwards, and rows of steps (messages, then the valid, ended and core facts,
expiries and recalls they leave), are in the case book tests/cases/months_long_chat.toml, run by
test_capture_cases.py."""

from __future__ import annotations

import pytest

from _capture import core_texts, texts_after
from _helpers import ungated_engine


# -- defect 1: a denied allergy ends the user's fact, and may be stored as whose it is -------------------------


@pytest.mark.parametrize(
    ("said", "denial", "valid"),
    [
        ("I'm allergic to shellfish too", "wait no, I'm not allergic to shellfish, that's my brother Sam. sorry!",
         ["User is not allergic to shellfish.", "User's brother Sam is allergic to shellfish."]),
        ("I'm allergic to shellfish too", "I'm not allergic to shellfish, that was my brother",
         ["User is not allergic to shellfish.", "User's brother is allergic to shellfish."]),
        ("im allergic to peanuts", "no wait im not allergic to peanuts, my sister is",
         ["User is not allergic to peanuts.", "User's sister is allergic to peanuts."]),
        ("I'm vegan.", "sorry no, I'm not vegan - that was my flatmate",
         ["User is not vegan.", "User's flatmate is vegan."]),
    ],
)
def test_a_denied_allergy_or_diet_ends_the_users_fact_and_is_no_longer_core(said: str, denial: str,
                                                                            valid: list[str]) -> None:
    engine = ungated_engine()
    texts_after(engine, said)
    assert len(core_texts(engine)) == 1
    assert texts_after(engine, denial) == sorted(valid)
    assert core_texts(engine) == []  # neither the denial nor someone else's allergy rides on every turn


# -- defect 2: someone's view of the user is not the user's fact -----------------------------------------------


def test_what_a_clinician_says_of_the_user_is_the_users_fact() -> None:
    engine = ungated_engine()
    assert texts_after(engine, "my doctor thinks I have IBS") == ["User has IBS."]
    assert core_texts(engine) == ["User has IBS."]


# -- defect 3: an ended condition and its medicine end the stored facts ----------------------------------------


def test_a_condition_gone_and_its_medicine_stopped_end_the_core_facts() -> None:
    engine = ungated_engine()
    texts_after(engine, "the doctor says I have gestational diabetes. so I need to watch sugar now",
                "I'm taking metformin for it")
    assert core_texts(engine) == ["User has gestational diabetes.", "User is taking metformin."]  # no dangling "for it"
    valid = texts_after(engine, "doctor says the gestational diabetes is gone after birth, I can stop the metformin")
    assert "User has gestational diabetes." not in valid and "User is taking metformin." not in valid
    assert {"User no longer has gestational diabetes.", "User stopped taking metformin."} <= set(valid)
    assert core_texts(engine) == []


@pytest.mark.parametrize(
    ("said", "ended", "now"),
    [
        ("I have asthma.", "my asthma has cleared up", "User no longer has asthma."),
        ("I take sertraline.", "I'm off the sertraline now", "User stopped taking sertraline."),
        ("I'm on insulin.", "the doctor said I can come off the insulin", "User stopped taking insulin."),
    ],
)
def test_a_condition_or_medicine_ended_in_everyday_words_ends_the_stored_fact(said: str, ended: str,
                                                                             now: str) -> None:
    engine = ungated_engine()
    texts_after(engine, said)
    assert texts_after(engine, ended) == [now]
    assert core_texts(engine) == []


def test_a_knee_that_got_better_ends_no_condition() -> None:
    engine = ungated_engine()
    assert "User has asthma." in texts_after(engine, "I have asthma.", "my knee is all better now")
    assert core_texts(engine) == ["User has asthma."]


# -- defect 4: going off a diet in one's own words ends it -----------------------------------------------------


def test_what_is_still_left_out_after_a_diet_is_kept_and_a_diet_taken_up_again_ends_the_change() -> None:
    engine = ungated_engine()
    texts_after(engine, "Been vegetarian for about 3 years now",
                "started eating chicken and fish again, the vegetarian thing wasn't working for me")
    assert "User doesn't eat red meat." in texts_after(engine, "still no red meat though")
    assert texts_after(engine, "I'm vegetarian again, it's just easier") == ["User is vegetarian again."]
    assert core_texts(engine) == ["User is vegetarian again."]


# -- defect 6: a new partner's name and what is said of them ---------------------------------------------------


def test_a_partner_met_and_named_is_kept_with_what_is_said_of_them_later() -> None:
    engine = ungated_engine()
    texts_after(engine, "met someone! his name is Marco, we've been on three dates")
    assert "User is seeing Marco." in texts_after(engine)
    valid = texts_after(engine, "he's a chef, which is dangerous for my waistline lol",
                        "Marco is lactose intolerant so no cheese boards for us", "Marco's birthday is April 19th")
    assert {"User's partner Marco is a chef.", "User's partner Marco is lactose intolerant.",
            "User's partner Marco's birthday is April 19th."} <= set(valid)
    assert core_texts(engine) == []  # core is the user's own, not the partner's
    assert "User lives with their partner Marco." in texts_after(engine, "Marco moved in with me last weekend!")
    assert "User's partner Marco's birthday is April 19th." in texts_after(engine)  # moving in ends no birthday


def test_a_partner_named_in_texting_style_and_told_of_by_pronoun_is_kept() -> None:
    engine = ungated_engine()
    assert texts_after(engine, "started seeing someone. leo. hes a nurse") == [
        "User started seeing Leo.", "User's partner Leo is a nurse."]
    valid = texts_after(engine, "hes coeliac so we went to a gluten free place", "leos bday is april 20th")
    assert {"User's partner Leo is coeliac.", "User's partner Leo's birthday is april 20th."} <= set(valid)
    assert core_texts(engine) == []  # the partner's is not core, nor the gluten-free place they went to


def test_a_husband_named_beside_the_home_and_his_family_are_kept_and_an_in_laws_diet_is_not_core() -> None:
    engine = ungated_engine()
    assert texts_after(engine, "We live in Austin, my husband Luis and me") == ["User is married to Luis.",
                                                                         "User lives in Austin."]
    valid = texts_after(engine, "Luis is a high school chemistry teacher",
                        "Luis's mom Carmen has celiac so family dinners are tricky", "Luis is the best honestly")
    assert {"User's partner Luis is a high school chemistry teacher.",
            "User's mother-in-law Carmen has celiac."} <= set(valid)
    assert len(valid) == 4  # "Luis is the best" keeps nothing
    assert core_texts(engine) == []


def test_the_boyfriend_example_of_the_brief_and_a_pronoun_with_no_partner_stored() -> None:
    engine = ungated_engine()
    assert texts_after(engine, "my boyfriend Tom is coeliac") == ["User's boyfriend Tom is coeliac."]
    assert core_texts(engine) == []  # core is the user's own
    assert texts_after(ungated_engine(), "hes a nurse") == []  # no one stored "he" could be


# -- defect 9: a breakup ends the partner fact, a new stage keeps the partner's name -------------------------


def test_a_breakup_ends_the_girlfriend_and_an_engagement_names_the_new_partner() -> None:
    engine = ungated_engine()
    assert texts_after(engine, "my gf ana says hi lol") == ["User's girlfriend is Ana."]
    assert texts_after(engine, "me and ana broke up") == ["User and Ana broke up."]
    texts_after(engine, "started seeing someone. leo. hes a nurse")
    assert texts_after(engine, "amsterdam was unreal. leo proposed??? WE'RE ENGAGED") == [
        "User is engaged to Leo.", "User's partner Leo is a nurse."]


def test_a_breakup_ends_what_was_told_of_the_boyfriend() -> None:
    engine = ungated_engine()
    texts_after(engine, "I live in York.", "my bf jake is a plumber")
    assert texts_after(engine, "jake and I split up") == ["User and Jake split up.", "User lives in York."]


# -- defect 10: "im in exeter now" is a move when a home is stored ---------------------------------------------


@pytest.mark.parametrize(
    ("home", "now", "valid"),
    [
        ("moved out of halls into a flat in easton with my mate chris",
         "ok im in exeter now. leo is staying in bristol for now, long distance for a bit", ["User lives in Exeter."]),
        ("I live in Leeds.", "I'm based in Manchester now", ["User lives in Manchester."]),
        ("I live in Leeds.", "I'm in London now for a conference", None),  # a visit: the home stays
    ],
)
def test_where_the_user_is_now_is_a_move_when_a_home_is_stored(home: str, now: str, valid: list[str] | None) -> None:
    engine = ungated_engine()
    texts_after(engine, home)
    got = texts_after(engine, now)
    if valid is None:
        assert "User lives in Leeds." in got
    else:
        assert got == valid


# -- defect 11: a retraction ends what it takes back -----------------------------------------------------------


def test_a_lie_about_being_sober_ends_the_stored_not_drinking() -> None:
    engine = ungated_engine()
    assert texts_after(engine, "i dont drink anymore btw, been sober 2 months") == ["User doesn't drink anymore."]
    assert texts_after(engine, "ok i lied about being sober, had a pint last night. but like 1 pint a week max") == [
        "User is not sober."]


# -- defect 13: a flatmate's dog is the flatmate's, a named pet keeps its name ---------------------------------


def test_a_flatmates_dog_is_not_the_users() -> None:
    said = "chris has a golden retriever called bruno, so i basically have a dog now"
    assert texts_after(ungated_engine(), said) == []


@pytest.mark.parametrize(
    ("said", "fact"),
    [
        ("WE GOT A PUPPY. a cockapoo called Biscuit", "User got a cockapoo puppy called Biscuit."),
        ("we adopted a cat! her name is Pepper, she's a tabby", "User adopted a cat called Pepper."),
    ],
)
def test_a_pet_named_after_it_is_told_of_keeps_its_name(said: str, fact: str) -> None:
    engine = ungated_engine()
    assert texts_after(engine, said) == [fact]
    name = fact.split()[-1].rstrip(".")
    valid = texts_after(engine, f"{name} passed away last week")  # the name tells which pet: the loss ends its fact
    assert fact not in valid and len(valid) == 1 and name in valid[0] and "passed away" in valid[0]


# -- who a "he" / "she" is, and what is no name or place -----------------------------------------------------


def test_a_pronoun_after_someone_of_the_users_is_them_not_the_stored_partner() -> None:
    engine = ungated_engine()
    texts_after(engine, "We live in Austin, my husband Luis and me")
    valid = texts_after(engine, "my son is 5. he's allergic to nuts",
                        "my best friend Hannah is coming for dinner on saturday, she's allergic to shellfish")
    assert {"User's son is allergic to nuts.", "User's best friend Hannah is allergic to shellfish."} <= set(valid)
    assert not any("Luis is allergic" in fact for fact in valid)
    # Core is the user's own: neither a child's allergy nor a friend's.
    assert core_texts(engine) == []


